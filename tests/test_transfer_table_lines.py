"""``screen-transfers``: a flag of a table read from a file is placed at the line of its first evidence row, in
SARIF (``region.startLine``) and in the github format (``line=``): a CSV row's first line as the reader numbers
it (the header is line 1, a quoted cell's line breaks counted), a JSON line's own (blank lines counted)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.transfers import TransferColumns, read_transfer_table, transfer_graph
from daishi_forensics.report.render.screens import render
from daishi_forensics.report.screening import MatchOutcome, ScreenRun
from daishi_forensics.screens.config import load_config
from daishi_forensics.screens import screen_graph

from .transferkit import background_rows, cycle_rows, write_csv, write_jsonl

COLUMNS = ["--from", "SENDER", "--to", "RECEIVER", "--value", "AMOUNT", "--tick", "STEP"]
NAMED = TransferColumns(source="SENDER", target="RECEIVER", value="AMOUNT", tick="STEP", id="TX")


def _run(table: str, fmt: str, *ids: str) -> str:
    result = CliRunner().invoke(main, ["screen-transfers", table, *COLUMNS, *ids, "--format", fmt])
    assert result.exit_code == 1, result.output
    return result.stdout


def _placed(table: str, *ids: str) -> tuple[list[Any], list[int]]:
    """The first evidence id and the line of each result of ``--format sarif``."""
    results = json.loads(_run(table, "sarif", *ids))["runs"][0]["results"]
    return ([r["properties"]["evidence"][0] for r in results],
            [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results])


def _unplaced_github(path: Path, columns: TransferColumns) -> str:
    """The github output as it was: the same run, no line known."""
    config = load_config(None)
    result = screen_graph(read_transfer_table(path, columns), config)
    return render(ScreenRun(config, (MatchOutcome(path.name, None, result),)), "github")


def test_a_csv_table_s_flag_is_at_its_first_evidence_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The value cycle (evidence c0, c1, c2, c3) was placed at line 1, the header, in SARIF and had no ``line=`` in
    the github format. It is at c0's row now: line 403 (the header, 400 background rows, one of them holding a
    quoted cell with a line break, then c0)."""
    rows = background_rows() + cycle_rows()
    rows[3]["NOTE"] = "paid\nlate"
    path = write_csv(tmp_path / "tx.csv", rows, header=["TX", "SENDER", "RECEIVER", "AMOUNT", "STEP", "NOTE"])
    assert path.read_text().split("\n")[402].startswith("c0,a,b,")
    monkeypatch.chdir(tmp_path)
    assert _placed("tx.csv", "--id", "TX") == (["c0"], [403])
    github = _run("tx.csv", "github", "--id", "TX")
    assert github.startswith("::error file=tx.csv,line=403,title=daishi-forensics value_cycles/value_cycle::")
    assert github.replace("line=403,", "", 1) == _unplaced_github(Path("tx.csv"), NAMED)


def test_without_an_id_column_the_row_s_line_is_its_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_csv(tmp_path / "tx.csv", background_rows() + cycle_rows())
    monkeypatch.chdir(tmp_path)
    assert _placed("tx.csv") == (["402"], [402])


@pytest.mark.parametrize("name", ["tx.jsonl", "tx.jsonl.gz"])
def test_a_json_lines_table_s_flag_is_at_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """JSON lines, two blank lines among them (counted, as the reader counts them): c0 on line 403 (of the text
    inflated, for a .gz table)."""
    import gzip

    path = write_jsonl(tmp_path / "tx.jsonl", background_rows() + cycle_rows())
    lines = path.read_bytes().split(b"\n")
    data = b"\n".join([lines[0], b"", b"  ", *lines[1:400], *lines[400:]])
    assert json.loads(data.split(b"\n")[402])["TX"] == "c0"
    path.unlink()
    (tmp_path / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    monkeypatch.chdir(tmp_path)
    assert _placed(name, "--id", "TX") == (["c0"], [403])
    assert _run(name, "github", "--id", "TX").startswith(f"::error file={name},line=403,title=")


def test_rows_given_without_their_lines_give_no_place() -> None:
    """A graph of rows handed over without their lines (no file) has no lines to give."""
    rows = background_rows(40) + cycle_rows()
    assert "lines" not in transfer_graph(rows, NAMED, "rows").graph
    located = transfer_graph(list(enumerate(rows, start=2)), NAMED, "rows").graph["lines"]
    assert (located["n0"], located["c0"]) == (2, 42)
