"""`validate --format github`: annotations %-escaped (GitHub's rules), plain log lines as the text format."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.validate import validate_targets
from daishi_forensics.report.render.validation import render

from .matchkit import archive, ev, write_match


def test_plain_lines_are_not_percent_escaped(tmp_path: Path) -> None:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)]
    events[1]["tick"] = "50%\n::warning::x"
    target = write_match(tmp_path / "a%b", events, archive(["a_1"], ended=10))
    lines = render(validate_targets([str(target)]), "github").splitlines()
    assert lines == [
        f"::error file={str(target).replace('%', '%25')},line=3,title=daishi-forensics schema::event 2 $.tick: "
        "'50%25\\n::warning::x' is not of type 'integer'",
        f"error: {target}, line 3, id 2: $.tick: '50%\\n::warning::x' is not of type 'integer'",
        "0 of 1 match valid",
    ]


def test_an_unreadable_file_in_a_folder_is_annotated_on_that_file(tmp_path: Path) -> None:
    # the annotation named no file (GitHub put it on the workflow, not on archive.json) and the log had no line
    folder = tmp_path / "m_0123456789ab"
    folder.mkdir()
    (folder / "events.jsonl").write_text("")
    (folder / "archive.json").write_text("{bad")
    result = CliRunner().invoke(main, ["validate", "--format", "github", str(folder)])
    assert result.exit_code == 3
    reason = f"{folder}/archive.json: not valid JSON: unexpected character, expected a string key: line 1 column 2 " \
             "(char 1)"
    assert result.stdout.splitlines() == [
        f"::error file={folder}/archive.json,title=daishi-forensics unreadable::{reason}",
        f"UNREADABLE  {reason}",
        "0 of 1 match valid",
    ]


def test_a_match_not_found_is_annotated_on_no_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["validate", "--format", "github", "--store", str(tmp_path), "m_0123456789ab",
                                       str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 3
    assert [line.split("::")[1] for line in result.stdout.splitlines()[:2]] == [
        "error title=daishi-forensics unreadable", "error title=daishi-forensics unreadable"]


def test_the_count_of_errors_not_annotated_counts_every_one_left_out(tmp_path: Path) -> None:
    """12 invalid gathers with --max-errors 2: 2 listed and annotated, 10 not; the closing annotation said
    '3 more errors not annotated' (12 less 9, as if 9 had been annotated)."""
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              *(ev(i, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=-1) for i in range(2, 14))]
    target = write_match(tmp_path, events, archive(["a_1"], ended=10))
    result = CliRunner().invoke(main, ["validate", "--format", "github", "--max-errors", "2", str(target)])
    assert result.exit_code == 1
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert [line.split(",")[1] for line in annotations[:2]] == ["line=3", "line=4"]
    assert annotations[2:] == ["::error title=daishi-forensics::10 more errors not annotated (GitHub shows 10 per "
                               "step): every listed problem is in the log below"]
