"""A record's ``schemaVersion`` that is no integer (``"3"``, ``2.5``, ``null``) is counted under ``?`` in the
read's tally (validate's "schema versions" line, its JSON ``byVersion``, the behavior report's
``schemaVersions``), apart from a written ``0``; they were all counted as ``v0``."""

from __future__ import annotations

from pathlib import Path

import orjson
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match


def _match(tmp_path: Path) -> Path:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")] + [ev(i, i, "rest", "a_1") for i in range(2, 7)]
    events[2]["schemaVersion"] = "3"
    events[3]["schemaVersion"] = 2.5
    events[4]["schemaVersion"] = None
    events[5]["schemaVersion"] = 0
    return write_match(tmp_path, events, archive(["a_1"], ended=10))


def test_validate_counts_a_version_that_is_no_integer_apart_from_a_written_zero(tmp_path: Path) -> None:
    path = _match(tmp_path)
    text = CliRunner().invoke(main, ["validate", str(path)])
    assert text.exit_code == exitcodes.FINDINGS
    assert "  schema versions: v0 1, v3 2, v? 3\n" in text.output
    doc = orjson.loads(CliRunner().invoke(main, ["validate", "--format", "json", str(path)]).output)
    assert doc["files"][0]["stats"]["byVersion"] == {"0": 1, "3": 2, "?": 3}


def test_the_behavior_report_tallies_them_the_same_way(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["behavior", "--format", "json", str(_match(tmp_path))])
    assert result.exit_code == exitcodes.FINDINGS
    assert orjson.loads(result.stdout)["source"]["schemaVersions"] == {"0": 1, "3": 2, "?": 3}
