"""An archive ledger whose ``pairs`` is a number or true (the schema says a list of pair objects) stopped
``behavior`` and ``export`` with an internal error (exit 70, "'float' object is not iterable") in the report's
cross-check of the ledger; the cross-check now has no rows to compare, and says so (an ``archive-not-compared``
finding naming the field, exit 1), as it does of a ledger that is not an object and of a row that is not a pair:
beside that finding and the header's (the archive fails its schema there: ``invalid-header``), the report is the
one of an archive listing no pairs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, trade, write_match


def _match(folder: Path, pairs: object) -> str:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(4, 1, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1})]
    path = write_match(folder, events, archive(["a_1", "a_2"], ended=10, ledger={"pairs": []}), form="folder")
    stored = json.loads((path / "archive.json").read_text(encoding="utf-8"))
    stored["ledger"]["pairs"] = pairs
    (path / "archive.json").write_text(json.dumps(stored), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("pairs", [1.5, 57, True])
def test_ledger_pairs_that_are_not_a_list_are_no_rows_not_a_crash(tmp_path: Path, pairs: object) -> None:
    path = _match(tmp_path / "bad", pairs)
    empty = _match(tmp_path / "empty", [])
    got = CliRunner().invoke(main, ["behavior", path, "--format", "json"])
    want = CliRunner().invoke(main, ["behavior", empty, "--format", "json"])
    # said, not passed over: the one difference from an archive listing no pairs is a finding (exit 1: findings)
    assert (got.exit_code, want.exit_code) == (1, 0), got.output
    report, plain = json.loads(got.stdout), json.loads(want.stdout.replace(empty, path))
    said = [f for f in report["findings"] if f["kind"] == "archive-not-compared"]
    kind = "true or false" if isinstance(pairs, bool) else "a number"
    assert said == [{"kind": "archive-not-compared", "field": "ledger.pairs", "archived": pairs, "recomputed": None,
                     "events": [], "eventCount": 0,
                     "message": f"the archive's ledger.pairs is {kind}, not an array: not compared with the events"}]
    header = [f for f in report["findings"] if f["kind"] == "invalid-header"]  # and the schema's word for it
    assert [(f["problemCount"], [p["path"] for p in f["problems"]]) for f in header] == [(1, ["$.archive.ledger.pairs"])]
    plain["source"]["findingsCount"] += 2
    assert {**report, "findings": [f for f in report["findings"] if f not in said + header]} == plain
    exported = CliRunner().invoke(main, ["export", "--parquet", str(tmp_path / "pq"), path])
    assert exported.exit_code == 1, exported.output  # exported all the same, the header's error said
    assert "header fails validation in 1 place (the first: $.archive.ledger.pairs" in exported.stderr
