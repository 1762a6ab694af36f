"""Archive counts the behavior report compares with the events, past 2^53 - 1: refused, never a disagreement."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, trade, write_match

PAST = "is past 2^53 - 1 (9007199254740991), the largest integer the export format holds"
AS_DOUBLE = ("a number past 2^53 - 1 (9007199254740991), the largest integer the export format holds (not quoted: "
             "read as a double, it may not be the number written)")


def _match(tmp_path: Path, where: tuple[Any, ...], value: int) -> str:
    """A two-seat match with one trade whose archive holds ``value`` at ``where`` (written with the standard
    library's JSON, which writes an integer past 64 bits as it is)."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(4, 1, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1})]
    arch = archive(["a_1", "a_2"], ended=10, ledger={"pairs": [{"a": "a_1", "b": "a_2", "trades": 1, "netShare": 1}]},
                   metrics={"a_1": {"trade_completed": 1}}, exploration={"a_1": {"regions": 1, "coverage": 0.007}})
    arch["agents"][1]["aggression"] = 0
    path = write_match(tmp_path, events, arch, form="folder")
    stored = json.loads((path / "archive.json").read_text(encoding="utf-8"))
    holder = stored
    for key in where[:-1]:
        holder = holder[key]
    holder[where[-1]] = value
    (path / "archive.json").write_text(json.dumps(stored), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("where", "field"), [
    (("ledger", "pairs", 0, "trades"), "ledger.pairs[0].trades"),
    (("metrics", "a_1", "trade_completed"), "metrics.a_1.trade_completed"),
    (("exploration", "a_1", "regions"), "exploration.a_1.regions"),
    (("agents", 1, "aggression"), "agents['a_2'].aggression"),
])
@pytest.mark.parametrize("value", [2**53, 2**63, 2**64, 2**64 + 1])
def test_an_archive_count_past_2_53_is_refused_naming_the_file_and_field(
        tmp_path: Path, where: tuple[Any, ...], field: str, value: int) -> None:
    """An archive ledger pair with trades 2^63 (or 2^53) was a finding, 'archive ledger trades 9223372036854775808,
    the events give 1', and trades 2^64 read 'archive ledger trades 1.8446744073709552e+19' (exit 1, a report
    written); so were a metrics count, exploration regions and aggression past 2^53 - 1. Each is refused now as
    score refuses it, naming the file and the field (exit 1, no report); a number past 64 bits, read as a double,
    is not quoted, as the double may not be the number written (2^64 + 1 reads as 2^64)."""
    path = _match(tmp_path, where, value)
    said = f"{value} {PAST}" if value < 2**64 else AS_DOUBLE
    for fmt in ("json", "text"):
        result = CliRunner().invoke(main, ["behavior", path, "--format", fmt])
        assert result.exit_code == 1, (fmt, result.output)
        assert result.stdout == ""
        assert result.stderr == f"daishi-forensics: error: {path}, field {field}: {said}\n"


def test_an_archive_count_of_2_53_minus_1_is_compared_as_before(tmp_path: Path) -> None:
    path = _match(tmp_path, ("ledger", "pairs", 0, "trades"), 2**53 - 1)
    result = CliRunner().invoke(main, ["behavior", path, "--format", "json"])
    assert result.exit_code == 1
    [finding] = json.loads(result.stdout)["findings"]
    assert finding["message"] == "pair a_1–a_2: archive ledger trades 9007199254740991, the events give 1"
    assert (finding["archived"], finding["recomputed"]) == (2**53 - 1, 1)
