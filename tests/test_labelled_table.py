"""``bench/labelled_table.py``: node precision and recall of the screens on a labelled transfer table,
counted exactly on a table built by hand."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .benchkit import load_bench
from .transferkit import background_rows, cycle_rows



def bench() -> ModuleType:
    return load_bench("labelled_table")


def labelled_table(path: Path, extra_labelled: int = 0) -> Path:
    """The background (label false) with a value cycle (label true, kind ``cycle-1``); the first
    ``extra_labelled`` background rows labelled too (``fan-9``), as a case the screens miss."""
    rows: list[dict[str, Any]] = []
    for k, row in enumerate(background_rows()):
        rows.append({**row, "IS_FRAUD": "True" if k < extra_labelled else "False",
                     "ALERT": "fan-9" if k < extra_labelled else "-1"})
    rows += [{**row, "IS_FRAUD": "True", "ALERT": "cycle-1"} for row in cycle_rows()]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


ARGS = ["--from", "SENDER", "--to", "RECEIVER", "--value", "AMOUNT", "--tick", "STEP", "--id", "TX",
        "--label", "IS_FRAUD", "--kind", "ALERT", "--json"]


def figures(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert bench().main(argv) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_the_planted_cycle_found_and_nothing_else_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = figures(capsys, [str(labelled_table(tmp_path / "t.csv")), *ARGS])
    assert (out["transfers"], out["accounts"], out["labelledAccounts"]) == (404, 44, 4)
    assert out["recall"]["k"] == 4 and out["recall"]["n"] == 4
    assert out["precision"]["k"] == 4 and out["precision"]["n"] == 4
    assert out["recallByKind"] == {"cycle-1": out["recall"]}
    assert out["flagsByScreen"] == {"value_cycles/value_cycle": 1}


def test_a_missed_case_lowers_recall_by_its_accounts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the first two background rows: b0 -> b3 and b1 -> b10, four accounts the screens do not flag
    out = figures(capsys, [str(labelled_table(tmp_path / "t.csv", extra_labelled=2)), *ARGS])
    assert out["labelledAccounts"] == 8
    assert (out["recall"]["k"], out["recall"]["n"]) == (4, 8)
    assert (out["recallByKind"]["fan-9"]["k"], out["recallByKind"]["fan-9"]["n"]) == (0, 4)
    # Wilson 95% of 4 in 8, worked out: centre 0.5, half-width 1.96 * sqrt(0.25/8 + 1.96**2/256) / (1 + 1.96**2/8) = 0.2848
    assert out["recall"]["wilson95"] == [0.2152, 0.7848]


def test_labels_from_an_account_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    accounts = tmp_path / "accounts.jsonl"
    accounts.write_text("".join(json.dumps({"ACCOUNT_ID": a, "IS_SAR": a in "ab"}) + "\n" for a in "abcdz"))
    table = labelled_table(tmp_path / "t.csv")
    out = figures(capsys, [str(table), *ARGS[:10], "--accounts", str(accounts), "--json"])
    assert out["labelledAccounts"] == 2 and (out["recall"]["k"], out["precision"]["k"], out["precision"]["n"]) == (2, 2, 4)


@pytest.mark.parametrize(("cell", "true"), [("1", True), ("TRUE", True), (" yes ", True), ("0", False), ("False", False),
                                            ("-1", False), ("", False), (True, True), (0, False), (2.0, True)])
def test_label_cells(cell: Any, true: bool) -> None:
    assert bench().is_true(cell) is true


def test_a_bad_row_is_an_error_not_a_figure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "t.csv"
    table.write_text("TX,SENDER,RECEIVER,AMOUNT,STEP,IS_FRAUD,ALERT\n1,a,b,-5,0,True,x\n")
    assert bench().main([str(table), *ARGS]) == 3
    assert "line 2, field AMOUNT" in capsys.readouterr().err


def test_tick_kind_passes_through_to_the_reader_as_screen_transfers_reads_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the bench had no --tick-kind (argparse refused it, exit 2): a table of step counts that only look like dates
    # (or of dates) could not be read as screen-transfers reads it
    table = labelled_table(tmp_path / "t.csv")
    plain = figures(capsys, [str(table), *ARGS])
    for kind in ("auto", "number"):
        out = figures(capsys, [str(table), *ARGS, "--tick-kind", kind])
        assert {**out, "screenCpuSeconds": 0} == {**plain, "screenCpuSeconds": 0}
    assert bench().main([str(table), *ARGS, "--tick-kind", "date"]) == 3
    assert capsys.readouterr().err == (
        f"labelled_table: error: {table}, line 2, field STEP: a tick is an ISO 8601 date or date-time (the ticks are "
        "read as dates: --tick-kind date), not '0'\n")
    dated = tmp_path / "dated.csv"
    dated.write_text("TX,SENDER,RECEIVER,AMOUNT,STEP,IS_FRAUD\nx1,a,b,1,2026-11-30,True\n")
    assert bench().main([str(dated), *ARGS, "--tick-kind", "number"]) == 3
    assert capsys.readouterr().err == (
        f"labelled_table: error: {dated}, line 2, field STEP: a tick is a number (the ticks are read as numbers: "
        "--tick-kind number), not '2026-11-30'\n")
    assert figures(capsys, [str(dated), *ARGS, "--tick-kind", "date"])["transfers"] == 1
