"""``screen --format github``: a flag's annotation gives ``line=`` where its first evidence event's line in the
match's file is known (a stream, a folder's events file), the line SARIF places the flag at; nowhere else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.report.render.screens import render
from daishi_forensics.report.screening import screen_targets

from .matchkit import archive, write_match
from .test_screens_daishi import feeder_events


def _github(target: str) -> str:
    result = CliRunner().invoke(main, ["screen", target, "--format", "github"])
    assert result.exit_code == 1, result.output
    return result.stdout


def _sarif_line(target: str) -> int:
    result = CliRunner().invoke(main, ["screen", target, "--format", "sarif"])
    (found,) = json.loads(result.stdout)["runs"][0]["results"]
    line: int = found["locations"][0]["physicalLocation"]["region"]["startLine"]
    return line


@pytest.mark.parametrize(("form", "target", "file", "line"), [
    ("stream", "fed/m_0123456789ab.jsonl", "fed/m_0123456789ab.jsonl", 19),
    ("folder", "fed/m_0123456789ab", "fed/m_0123456789ab/events.jsonl", 18),
])
def test_a_flag_is_annotated_at_the_line_of_its_first_evidence_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     form: str, target: str, file: str,
                                                                     line: int) -> None:
    """The feeder flag (evidence: events 40, 41, …) was annotated ``::error file=fed/m_0123456789ab.jsonl,title=…``
    with no ``line=``, so GitHub showed it at the file, while SARIF placed it at event 40's line. The annotation now
    gives that line; the output is otherwise the same bytes."""
    path = write_match(tmp_path / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40),
                       form=form)
    monkeypatch.chdir(tmp_path)
    without = render(screen_targets([target]), "github")  # the output as it was: no line looked up
    assert f"::error file={file},title=" in without
    assert _github(target) == without.replace(f"::error file={file},title=", f"::error file={file},line={line},title=")
    assert _sarif_line(target) == line
    events = (path / "events.jsonl" if form == "folder" else path).read_text().split("\n")
    assert json.loads(events[line - 1])["id"] == 40


def test_no_line_where_none_is_known(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundle (one document) and the demo have no line of a record: their annotations stay at the file."""
    write_match(tmp_path / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40), form="bundle")
    monkeypatch.chdir(tmp_path)
    bundle = _github("fed/m_0123456789ab.json")
    assert bundle == render(screen_targets(["fed/m_0123456789ab.json"]), "github")
    assert bundle.startswith("::error file=fed/m_0123456789ab.json,title=") and ",line=" not in bundle
    demo = _github("m_demo")
    assert demo == render(screen_targets(["m_demo"]), "github") and ",line=" not in demo
