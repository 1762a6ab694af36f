"""``validate --format github`` tells the match read from standard input (``validate -``) by a flag of its
result (``FileResult.stdin``), not by the name ``<stdin>``, which a file or folder may carry too: such a file
keeps its ``file=`` annotation, and its title does not say standard input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main
from daishi_forensics.read.validate import FileResult, ValidationResult
from daishi_forensics.read.validation import Problem
from daishi_forensics.report.render.validation import render_github

from .matchkit import archive, ev, write_match


def _validate(args: list[str], data: bytes | None = None) -> tuple[int, str]:
    run = CliRunner().invoke(main, ["validate", *args], input=data)
    return run.exit_code, run.output


def test_a_file_named_stdin_is_annotated_as_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``validate --format github '<stdin>'`` (a file of that name, of no match form) was annotated
    ``file=<stdin>`` with the title 'unreadable (standard input)', as if piped in; the title is now the
    file's (exit code unchanged: 3)."""
    monkeypatch.chdir(tmp_path)
    Path("<stdin>").write_text("{}\n")
    said = "<stdin>: unknown form '': expected .json, .json.gz, .jsonl, .jsonl.gz or a folder"
    assert _validate(["--format", "github", "<stdin>"]) == (exitcodes.UNREADABLE, (
        f"::error file=<stdin>,title=daishi-forensics unreadable::{said}\nUNREADABLE  {said}\n0 of 1 match valid\n"))


def test_a_problem_in_a_file_named_stdin_keeps_its_file_annotation() -> None:
    """A problem naming a file ``<stdin>`` of a match read from that file (not piped in) lost its ``file=`` and
    ``line=`` and was titled standard input; it is annotated on its file now.  The match piped in is as before."""
    problem = Problem("<stdin>", "'x' is not of type 'integer'", event_id=2, line=3, path="$.tick", code="schema")
    stats = {"records": 2, "valid": 1, "invalid": 1, "analysed": 1, "upcast": 0, "synthesized": 0, "byVersion": {},
             "byType": {}, "unknownTypes": {}, "droppedEarlierSeason": 0, "excludedByErrata": []}
    filed = FileResult(target="<stdin>", form="stream", match_id="m_0123456789ab", stats=stats, problems=(problem,),
                       problem_counts={"schema": 1}, error_count=1)
    assert render_github(ValidationResult((filed,))).splitlines()[0] == (
        "::error file=<stdin>,line=3,title=daishi-forensics schema::event 2 $.tick: 'x' is not of type 'integer'")
    piped = FileResult(target="<stdin>", form="stream", match_id="m_0123456789ab", stats=stats, problems=(problem,),
                       problem_counts={"schema": 1}, error_count=1, stdin=True)
    assert render_github(ValidationResult((piped,))).splitlines()[0] == (
        "::error title=daishi-forensics schema (standard input)::line 3, id 2: $.tick: 'x' is not of type 'integer'")


def test_a_match_folder_named_stdin_and_a_piped_match_side_by_side(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder ``<stdin>`` validated beside ``-``: the folder's problems name its files, the piped match's none."""
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)]
    events[1]["tick"] = "x"
    stream = write_match(tmp_path / "s", events, archive(["a_1"], ended=10))
    folder = write_match(tmp_path / "f", events, archive(["a_1"], ended=10), form="folder")
    monkeypatch.chdir(tmp_path)
    os.rename(folder, "<stdin>")
    code, output = _validate(["--format", "github", "<stdin>", "-"], stream.read_bytes())
    assert code == exitcodes.FINDINGS
    assert [line for line in output.splitlines() if line.startswith("::")] == [
        "::error file=<stdin>/events.jsonl,line=2,title=daishi-forensics schema::event 2 $.tick: 'x' is not of "
        "type 'integer'",
        "::error title=daishi-forensics schema (standard input)::line 3, id 2: $.tick: 'x' is not of type 'integer'"]
