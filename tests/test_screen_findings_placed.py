"""Where ``screen --format github|sarif`` places a finding, and what the github format's findings hold."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from daishi_forensics.report.screening import MatchOutcome, ScreenRun
from daishi_forensics.screens.config import default_config
from daishi_forensics.screens.flags import Flag
from daishi_forensics.screens.screening import ScreenResult, SeasonResult


def _run() -> ScreenRun:
    """A flagged match held under two names (its flag's first evidence event, 40, on line 19 of the first), a match
    not read, and a season flag citing event 40 of the first match and 7 of a match no target holds."""
    config = default_config()
    flag = Flag("feeder", "hub_and_spoke", "flag", ("h", "a"), (("a", "h"),), 2.0, 2.0, (40, 41), "h was fed.")
    result = ScreenResult("flag", config.version, config.digest, (flag,), ("its log ends before the match did",))
    hub = Flag("feeder", "hub_and_spoke", "flag", ("h",), (), 2.0, 2.0, ("m_1#40", "m_9#7"), "h, across the season.",
               match="season")
    season = SeasonResult("flag", config.version, config.digest, (result,), (hub,), ("a search out of steps",))
    return ScreenRun(config, (MatchOutcome("a/m_1.jsonl", "m_1", result, also=("b/m_1.json",), lines={40: 19}),
                              MatchOutcome("m_2.jsonl", error="m_2.jsonl: no such file", error_code=3)), season)


def test_a_finding_is_named_by_its_fields() -> None:
    """A github finding was a 7-tuple unpacked by position in four places (the annotation, the step summary, the
    counts and the list itself): two of its fields swapped would still unpack. It is a frozen record of named
    fields now (group, target, flag, reason, also, line, season_file); the annotations and the summary are the
    same bytes."""
    from daishi_forensics.report.render.screens import _Finding, _findings, render_github

    found = _findings(_run())
    assert all(isinstance(f, _Finding) for f in found)
    assert [(f.group, f.target, f.flag.screen if f.flag else None, f.reason, f.also, f.line, f.season_file)
            for f in found] == [
        ("flag", "a/m_1.jsonl", "feeder", "", ("b/m_1.json",), 19, None),
        ("flag", None, "feeder", "", (), 19, "a/m_1.jsonl"),
        ("unread", "m_2.jsonl", None, "m_2.jsonl: no such file", (), None, None),
        ("partial", "a/m_1.jsonl", None, "its log ends before the match did", ("b/m_1.json",), None, None),
        ("partial", None, None, "a search out of steps", (), None, None),
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        found[0].line = 1  # type: ignore[misc]
    assert render_github(_run()).splitlines()[:5] == [
        "::error file=a/m_1.jsonl,line=19,title=daishi-forensics feeder/hub_and_spoke::h was fed. Score 2 (threshold "
        "2). Events: 40, 41. The same match: b/m_1.json (screened once).",
        "::error file=a/m_1.jsonl,line=19,title=daishi-forensics feeder/hub_and_spoke::h, across the season. Score 2 "
        "(threshold 2). Events: m_1#40, m_9#7.",
        "::error title=daishi-forensics not screened::m_2.jsonl: no such file",
        "::warning file=a/m_1.jsonl,title=daishi-forensics not screened whole::its log ends before the match did; "
        "the same match: b/m_1.json",
        "::warning title=daishi-forensics season not screened whole::a search out of steps",
    ]


@pytest.mark.parametrize("gz", [False, True])
def test_a_match_folder_is_placed_in_the_events_file_it_was_read_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      gz: bool) -> None:
    """The SARIF and github renderers found a match folder's events file by asking the file system at render time
    (is the target a folder, does it hold ``events.jsonl`` or ``events.jsonl.gz``): a folder moved or emptied
    between the read and the render, or a run built without the files, was placed at the folder itself, which code
    scanning cannot show. The read now says which file it read (:attr:`MatchOutcome.files`) and the renderers place
    the finding there without a look at the disk; where the folder is still there, the same bytes as before."""
    import os

    from daishi_forensics.report.render.screens import render
    from daishi_forensics.report.screening import screen_targets

    from .matchkit import archive, write_match
    from .test_sarif_code_scanning import fed_folder
    from .test_screens_daishi import feeder_events

    events = fed_folder(tmp_path / "fed", gz)
    write_match(tmp_path / "copy", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40),
                form="folder")
    monkeypatch.chdir(tmp_path)
    run = screen_targets(["fed/m_0123456789ab", "copy/m_0123456789ab"], lines=True, related_lines=True)
    (outcome,) = run.matches
    assert dict(outcome.files) == {"fed/m_0123456789ab": f"fed/m_0123456789ab/{events}",
                                   "copy/m_0123456789ab": "copy/m_0123456789ab/events.jsonl"}
    here = {fmt: render(run, fmt) for fmt in ("sarif", "github")}
    # the folders gone, and no file-system question answered: the same bytes
    (tmp_path / "fed").rename(tmp_path / "moved")
    (tmp_path / "copy").rename(tmp_path / "moved too")

    def asked(*_: object) -> bool:
        raise AssertionError("the renderer asked the file system")

    for name in ("isdir", "isfile", "exists", "lexists"):
        monkeypatch.setattr(os.path, name, asked)
    assert {fmt: render(run, fmt) for fmt in ("sarif", "github")} == here
    monkeypatch.undo()
    physical = json.loads(here["sarif"])["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert physical == {"artifactLocation": {"uri": f"fed/m_0123456789ab/{events}"}, "region": {"startLine": 18}}
    assert [line.split("::")[1] for line in here["github"].splitlines() if line.startswith("::")] == [
        f"error file=fed/m_0123456789ab/{events},line=18,title=daishi-forensics feeder/hub_and_spoke",
        f"warning file=fed/m_0123456789ab/{events},title=daishi-forensics not screened whole"]


def test_each_name_of_one_match_has_its_own_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One match given as a stream, a copy of it with blank lines, its gzip, its match folder and its bundle:
    ``screen --format sarif`` placed the result at event 40's line in the first (19) and every other name, as a
    related location, at line 1, though four of them hold a record a line and event 40 on a line of its own. Each
    related location is now at event 40's line in its own file (looked up as the first's, for the ids the flags
    cite: 22 with three blank lines, 18 in a folder's events file with no header), a bundle's at line 1; exit 1 as
    before, the github annotations and the other formats unchanged."""
    import gzip

    from click.testing import CliRunner

    from daishi_forensics.cli import main

    from .matchkit import archive, write_match
    from .test_screens_daishi import feeder_events

    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    write_match(tmp_path / "fed", feeder_events(), arch)
    copy = write_match(tmp_path / "copy", feeder_events(), arch)
    head, rest = copy.read_bytes().split(b"\n", 1)
    copy.write_bytes(head + b"\n\n \n\n" + rest)
    (tmp_path / "gz").mkdir()
    (tmp_path / "gz" / "m_0123456789ab.jsonl.gz").write_bytes(gzip.compress(copy.read_bytes()))
    write_match(tmp_path / "dir", feeder_events(), arch, form="folder")
    write_match(tmp_path / "one", feeder_events(), arch, form="bundle")
    monkeypatch.chdir(tmp_path)
    names = ["fed/m_0123456789ab.jsonl", "copy/m_0123456789ab.jsonl", "gz/m_0123456789ab.jsonl.gz",
             "dir/m_0123456789ab", "one/m_0123456789ab.json"]
    result = CliRunner().invoke(main, ["screen", *names, "--format", "sarif"])
    assert result.exit_code == 1, result.output
    (found,) = json.loads(result.stdout)["runs"][0]["results"]
    assert found["properties"]["evidence"][0] == 40
    assert found["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "fed/m_0123456789ab.jsonl"}, "region": {"startLine": 19}}
    message = {"text": "the same match as fed/m_0123456789ab.jsonl, screened once"}
    assert found["relatedLocations"] == [
        {"id": 1, "physicalLocation": {"artifactLocation": {"uri": "copy/m_0123456789ab.jsonl"},
                                       "region": {"startLine": 22}}, "message": message},
        {"id": 2, "physicalLocation": {"artifactLocation": {"uri": "gz/m_0123456789ab.jsonl.gz"},
                                       "region": {"startLine": 22}}, "message": message},
        {"id": 3, "physicalLocation": {"artifactLocation": {"uri": "dir/m_0123456789ab/events.jsonl"},
                                       "region": {"startLine": 18}}, "message": message},
        {"id": 4, "physicalLocation": {"artifactLocation": {"uri": "one/m_0123456789ab.json"},
                                       "region": {"startLine": 1}}, "message": message},
    ]
    assert json.loads(copy.read_text().split("\n")[21])["id"] == 40
    assert json.loads((tmp_path / "dir" / "m_0123456789ab" / "events.jsonl").read_text().split("\n")[17])["id"] == 40
    github = CliRunner().invoke(main, ["screen", *names, "--format", "github"])
    assert github.exit_code == 1
    assert github.stdout.startswith("::error file=fed/m_0123456789ab.jsonl,line=19,title=daishi-forensics "
                                    "feeder/hub_and_spoke::")
    # looked up only where SARIF or the github format asks for lines: the other formats as they were
    from daishi_forensics.report.render.screens import render
    from daishi_forensics.report.screening import screen_targets

    plain, looked_up = screen_targets(names), screen_targets(names, lines=True, related_lines=True)
    assert [dict(m.also_lines) for m in plain.matches] == [{}]
    assert [dict(m.also_lines) for m in looked_up.matches] == [{
        "copy/m_0123456789ab.jsonl": {40: 22}, "gz/m_0123456789ab.jsonl.gz": {40: 22}, "dir/m_0123456789ab": {40: 18}}]
    for fmt in ("text", "json"):
        assert render(looked_up, fmt) == render(plain, fmt)
    assert render(looked_up, "github") == github.stdout
    # the github format names the first file only: its run leaves the copies' lines, and writes the same bytes
    first_only = screen_targets(names, lines=True)
    assert [dict(m.also_lines) for m in first_only.matches] == [{}]
    assert [dict(m.lines) for m in first_only.matches] == [dict(m.lines) for m in looked_up.matches]
    assert render(first_only, "github") == github.stdout


def test_a_copy_holding_an_evidence_id_twice_stays_at_line_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two names of a match whose log holds a second record of id 40 out of place (refused by the read boundary):
    which record the screens read is not known, so neither name has a line for it; both at line 1 (exit 1)."""
    from click.testing import CliRunner

    from daishi_forensics.cli import main

    from .matchkit import archive, write_match
    from .test_screens_daishi import feeder_events

    for folder in ("fed", "copy"):
        path = write_match(tmp_path / folder, feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
        lines = path.read_bytes().split(b"\n")
        lines.insert(40, lines[18])  # event 40 again, between 62 and 63
        path.write_bytes(b"\n".join(lines))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["screen", "fed/m_0123456789ab.jsonl", "copy/m_0123456789ab.jsonl",
                                       "--format", "sarif"])
    assert result.exit_code == 1, result.output
    (found,) = json.loads(result.stdout)["runs"][0]["results"]
    assert found["properties"]["evidence"][0] == 40
    assert [found["locations"][0]["physicalLocation"]["region"],
            found["relatedLocations"][0]["physicalLocation"]["region"]] == [{"startLine": 1}, {"startLine": 1}]
