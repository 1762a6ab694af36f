"""A record without ``schemaVersion`` in a v3 log is read as version 1, and version 1 records wait in their season's
spool until the season is known to be the match's: they came out after every later v3 record, so a trade offer
logged before its completion reached the analyses after it (``validate`` warned that the completion had no offer).
A record of a later version now ends the v1 seasons spooled before it: the events keep the log's order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match

from .matchkit import archive, ev, trade, write_match


def _match(folder: Path, unversioned: tuple[int, ...]) -> Path:
    """Eight events; the records of ``unversioned`` (ids) written without their ``schemaVersion``."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}), ev(4, 2, "rest", "a_2"),
              ev(5, 2, "trade_offered", "a_1", tradeId="t1", to="a_2", give={"wood": 3}, receive={"food": 1}),
              *trade(6, 3, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1}), ev(8, 4, "rest", "a_2")]
    path = write_match(folder, events, archive(["a_1", "a_2"], ended=10))
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines[1:], 1):
        record = json.loads(line)
        if record["id"] in unversioned:
            del record["schemaVersion"]
            lines[i] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("unversioned", [(5,), (1,), (8,), (3, 4), (1, 5)])
@pytest.mark.parametrize("validate", [True, False])
def test_the_events_keep_the_logs_order(tmp_path: Path, unversioned: tuple[int, ...], validate: bool) -> None:
    read = read_match(open_match(str(_match(tmp_path, unversioned))), validate=validate)
    assert [e["id"] for e in read.events()] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert read.stats.by_version == {1: len(unversioned), 3: 8 - len(unversioned)}  # with the checks or without


def test_the_offer_is_read_before_its_completion(tmp_path: Path) -> None:
    path = _match(tmp_path, (5,))
    checked = CliRunner().invoke(main, ["validate", str(path)])
    assert checked.exit_code == 0 and "warning" not in checked.output, checked.output
    assert "schema versions: v1 1, v3 7" in checked.output
