"""``screen --season DIR --format sarif|github``: a season-wide flag is placed at the line of the event its evidence
cites first in the match file it is about (its evidence names events as ``m_…#40``), its other matches (SARIF's
related locations) at theirs, where the file holds a record a line; at line 1 (github: no file) where no line can
be known.  The other formats are the same bytes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.report.render.screens import render
from daishi_forensics.report.screening import screen_targets

from .matchkit import archive, ev, trade, write_match
from .test_screens_daishi import SPAWNS, fair_market

A, B, C = "m_00000000000a", "m_00000000000b", "m_00000000000c"


def _season(folder: Path, form: str = "stream") -> None:
    """Three matches of a fair market: in the first a_1 gives h three tools (events 40 to 45), in the second a_2
    does (events 98 to 103: ``m_…#100`` comes before ``m_…#98`` as text), in the third nobody: a hub fed in two
    matches (``season/feeder/hub_and_spoke``), each feed too small for its own match to flag.  A stream's blank
    lines: the first, two after its header and one before the gifts; the second, one and three."""
    for match_id, spoke, first, blanks in ((A, "a_1", 40, (2, 1)), (B, "a_2", 98, (1, 3)), (C, None, 0, (0, 0))):
        events = [*SPAWNS, *fair_market(10)]
        if spoke is not None:
            for i in range(3):
                events += trade(first + 2 * i, 8 + i, f"g{i}", spoke, "h", {"tool": 1}, {})
        events = [{**event, "matchId": match_id} for event in events]  # (SPAWNS is shared: not changed)
        path = write_match(folder, events, archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40, matchId=match_id),
                           form=form)
        if form == "stream":
            header, *records = path.read_text().split("\n")
            after, before = blanks
            # 5 spawns and 12 fair-market events, then the gifts
            path.write_text("\n".join([header, *[""] * after, *records[:17], *[""] * before, *records[17:]]))


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, ["screen", "--season", "season", *args])
    assert result.exit_code == 1, result.output
    return result.stdout


def _season_result(doc: dict[str, Any]) -> dict[str, Any]:
    (found,) = [r for r in doc["runs"][0]["results"] if r["ruleId"].startswith("season/")]
    return found


def _line(path: Path, line: int) -> Any:
    return json.loads(path.read_text().split("\n")[line - 1])["id"]


def test_a_season_flag_is_at_the_line_of_its_first_cited_event_in_each_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub flag (evidence ``m_…a#40`` … ``m_…b#98``) was at line 1 of the first match's stream in SARIF, its
    second match at line 1 too, and annotated with no file in the github format, though each stream holds a record
    a line. It is at event 40's line (22: a header, two blank lines, 17 events, a blank line) in the first, at
    event 98's (23: a header, a blank line, 17 events, three blank lines) in the second, and the github annotation
    names the first's file and line; exit 1 as before."""
    _season(tmp_path / "season")
    monkeypatch.chdir(tmp_path)
    doc = json.loads(_cli("--format", "sarif"))
    found = _season_result(doc)
    assert found["ruleId"] == "season/feeder/hub_and_spoke"
    assert found["properties"]["evidence"][6:8] == [f"{B}#100", f"{B}#101"]  # (text order: #98 comes last)
    assert found["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": f"season/{A}.jsonl"}, "region": {"startLine": 22}}
    assert found["relatedLocations"] == [{"id": 1, "physicalLocation": {
        "artifactLocation": {"uri": f"season/{B}.jsonl"}, "region": {"startLine": 23}}}]
    assert _line(tmp_path / "season" / f"{A}.jsonl", 22) == 40
    assert _line(tmp_path / "season" / f"{B}.jsonl", 23) == 98

    github = _cli("--format", "github").splitlines()
    assert github[0].startswith(f"::error file=season/{A}.jsonl,line=22,title=daishi-forensics feeder/hub_and_spoke::"
                                "Across the season, agent h was fed value one way by 2 different agents (a_1, a_2) "
                                "in 2 matches")
    # the rest of the github output as it was (no line looked up: the season flag with no file)
    before = render(screen_targets([], season=Path("season")), "github").splitlines()
    assert before[0] == github[0].replace(f"::error file=season/{A}.jsonl,line=22,title=", "::error title=")
    assert github[1:] == before[1:]


def test_the_other_formats_are_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Looking up the season flag's lines changes only where SARIF and the github format place it."""
    _season(tmp_path / "season")
    monkeypatch.chdir(tmp_path)
    plain = screen_targets([], season=Path("season"))
    looked_up = screen_targets([], season=Path("season"), lines=True)
    assert [dict(m.lines) for m in plain.matches] == [{}, {}, {}]
    assert [dict(m.lines) for m in looked_up.matches] == [{40: 22}, {98: 23}, {}]
    for fmt in ("text", "json"):
        assert render(looked_up, fmt) == render(plain, fmt)
    assert _cli("--format", "json") == render(plain, "json")


def test_no_line_where_none_can_be_known(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A season of bundles (one document each) has no line of a record: the season flag stays at line 1 of its
    files in SARIF, and the github annotation names no file, as before."""
    _season(tmp_path / "season", form="bundle")
    monkeypatch.chdir(tmp_path)
    found = _season_result(json.loads(_cli("--format", "sarif")))
    assert found["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": f"season/{A}.json"}, "region": {"startLine": 1}}
    assert found["relatedLocations"] == [{"id": 1, "physicalLocation": {
        "artifactLocation": {"uri": f"season/{B}.json"}, "region": {"startLine": 1}}}]
    github = _cli("--format", "github")
    assert github.startswith("::error title=daishi-forensics feeder/hub_and_spoke::Across the season")
    assert github == render(screen_targets([], season=Path("season")), "github")


def test_a_season_of_match_folders_is_placed_in_their_events_files(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Match folders: the season flag is in the first's ``events.jsonl`` (no header line: event 40 is line 18),
    its second match in the second's (event 98, line 18 too); the github annotation names that file and line."""
    _season(tmp_path / "season", form="folder")
    monkeypatch.chdir(tmp_path)
    found = _season_result(json.loads(_cli("--format", "sarif")))
    assert found["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": f"season/{A}/events.jsonl"}, "region": {"startLine": 18}}
    assert found["relatedLocations"] == [{"id": 1, "physicalLocation": {
        "artifactLocation": {"uri": f"season/{B}/events.jsonl"}, "region": {"startLine": 18}}}]
    assert _line(tmp_path / "season" / A / "events.jsonl", 18) == 40
    assert _line(tmp_path / "season" / B / "events.jsonl", 18) == 98
    assert _cli("--format", "github").startswith(
        f"::error file=season/{A}/events.jsonl,line=18,title=daishi-forensics feeder/hub_and_spoke::")


def _cycle(folder: Path, form: str = "stream") -> None:
    """Seven matches: the first with no feed, then a_4 -> h, h -> x, x -> a_4, twice round (three tools given in
    each, events 40 to 45): a feed cycle across the season (``season/ring/feed_cycle``), whose details list no
    matches; its evidence cites the six."""
    legs: list[tuple[str, str] | None] = [None, *[("a_4", "h"), ("h", "x"), ("x", "a_4")] * 2]
    for k, leg in enumerate(legs):
        events = [*SPAWNS, ev(6, 0, "agent_spawned", "x", region="r_0_0"), *fair_market(10)]
        if leg is not None:
            for i in range(3):
                events += trade(40 + 2 * i, 8 + i, f"g{i}", leg[0], leg[1], {"tool": 1}, {})
        match_id = f"m_00000000000{k}"
        write_match(folder, [{**event, "matchId": match_id} for event in events],
                    archive(["a_1", "a_2", "a_3", "a_4", "h", "x"], ended=40, matchId=match_id), form=form)


def test_a_feed_cycle_is_in_the_matches_its_evidence_cites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A feed cycle names no match of its own and its details list none, so it was placed at line 1 of the run's
    first match, one with no feed it is about, with no related location. It is in the first match its evidence
    cites, at event 40's line (20: the header, 6 spawns, 12 fair-market events), the five others as related
    locations at theirs; the github annotation names that file and line; exit 1 as before."""
    _cycle(tmp_path / "season")
    monkeypatch.chdir(tmp_path)
    found = _season_result(json.loads(_cli("--format", "sarif")))
    assert found["ruleId"] == "season/ring/feed_cycle"
    assert found["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "season/m_000000000001.jsonl"}, "region": {"startLine": 20}}
    assert found["relatedLocations"] == [
        {"id": k, "physicalLocation": {"artifactLocation": {"uri": f"season/m_00000000000{k + 1}.jsonl"},
                                       "region": {"startLine": 20}}} for k in range(1, 6)]
    assert _line(tmp_path / "season" / "m_000000000001.jsonl", 20) == 40
    assert _cli("--format", "github").startswith(
        "::error file=season/m_000000000001.jsonl,line=20,title=daishi-forensics ring/feed_cycle::")


def test_a_feed_cycle_of_bundles_is_at_line_1_of_the_matches_it_cites(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bundles: no line is known, so line 1, but of the matches the cycle's evidence cites, not the run's first."""
    _cycle(tmp_path / "season", form="bundle")
    monkeypatch.chdir(tmp_path)
    found = _season_result(json.loads(_cli("--format", "sarif")))
    assert found["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "season/m_000000000001.json"}, "region": {"startLine": 1}}
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in found["relatedLocations"]] == [
        f"season/m_00000000000{k}.json" for k in range(2, 7)]
    assert _cli("--format", "github").startswith("::error title=daishi-forensics ring/feed_cycle::")
