"""Where the archive and the log contradict each other: errata naming no logged event, ticks before the start."""

from __future__ import annotations

from pathlib import Path

import pytest

from daishi_forensics.read.validate import validate_targets

from .matchkit import archive, ev, write_match


def _events() -> list[dict]:
    return [ev(1, 4, "agent_registered", "a_1", name="Wren", role="player"),
            ev(2, 5, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)]


def _said(target: Path) -> list[tuple[str, str, str, str, int | None]]:
    result = validate_targets([str(target)])
    assert result.exit_code == 0  # warnings only
    return [(p.severity, p.code, p.path, p.message, p.event_id) for p in result.files[0].problems]


def test_an_erratum_naming_no_logged_event_is_said(tmp_path: Path) -> None:
    arch = archive(["a_1"], ended=10, errata=[{"id": "E1", "text": "x", "events": [2, 123], "scoresDepend": False}])
    target = write_match(tmp_path, _events(), arch)
    assert _said(target) == [("warning", "errata", "$.archive.errata[0].events[1]",
                              "erratum 'E1' names event 123, but the match's log holds no valid event with that id: "
                              "it withholds nothing (a public export leaves out direct messages: it may name one)",
                              None)]


def test_an_erratum_naming_an_invalid_event_is_said(tmp_path: Path) -> None:
    events = _events()
    events[1]["payload"]["gathered"] = -1
    arch = archive(["a_1"], ended=10, errata=[{"id": "E1", "text": "x", "events": [2], "scoresDepend": False}])
    target = write_match(tmp_path, events, arch, form="folder")
    problems = validate_targets([str(target)]).files[0].problems
    assert [(p.file, p.code, p.path) for p in problems] == [
        (str(target / "events.jsonl"), "schema", "$.payload.gathered"),
        (str(target / "archive.json"), "errata", "$.errata[0].events[0]"),
    ]


@pytest.mark.parametrize("version", [3, 2])
@pytest.mark.parametrize("tick", [3, 4])
def test_a_tick_before_the_archives_start_is_said(tmp_path: Path, version: int, tick: int) -> None:
    events = _events()
    events[0]["tick"] = tick
    target = write_match(tmp_path, events, archive(["a_1"], ended=10, started=5 if tick == 4 else 4), version=version)
    started = 5 if tick == 4 else 4
    assert _said(target) == [("warning", "tick-before-start", "$.tick",
                              f"tick {tick} is before the match's start (the archive's startedAtTick is {started})",
                              1)]


def test_ticks_from_the_start_are_quiet_and_v1_seasons_are_not_compared(tmp_path: Path) -> None:
    target = write_match(tmp_path / "a", _events(), archive(["a_1"], ended=10, started=4))
    assert _said(target) == []
    events = _events()
    events[0]["tick"] = 0
    target = write_match(tmp_path / "b", events, archive(["a_1"], ended=10, started=4), version=1)
    assert _said(target) == []


def test_an_agent_the_archive_does_not_list_is_said(tmp_path: Path) -> None:
    events = [*_events(), ev(3, 6, "gather", "a_9", region="r_0_0", resource="wood", gathered=1)]
    target = write_match(tmp_path, events, archive(["a_1"], ended=10), form="folder")
    problems = validate_targets([str(target)]).files[0].problems
    assert [(p.file, p.severity, p.code, p.path, p.message) for p in problems] == [
        (str(target / "archive.json"), "warning", "roster", "$.agents",
         "the log has events by an agent the archive's agents do not list: 'a_9'"),
    ]


def test_world_events_and_an_archive_listing_no_agent_say_nothing(tmp_path: Path) -> None:
    events = [*_events(), ev(3, 6, "region_collapsed", None, region="r_0_0", resource="wood")]
    assert _said(write_match(tmp_path / "a", events, archive(["a_1"], ended=10))) == []
    arch = archive([], ended=10)
    assert [p.code for p in validate_targets([str(write_match(tmp_path / "b", _events(), arch))]).files[0].problems
            if p.code == "roster"] == []


def test_an_unchecked_read_takes_any_agent_id() -> None:
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import MatchSource, RawRecord

    records = [RawRecord(0, 1, {"id": 1, "schemaVersion": 3, "type": "rest", "agentId": ["x"], "payload": {}}, None)]
    source = MatchSource("m", "stream", {"archive": {"agents": [{"agentId": "a_1"}]}}, lambda: iter(records))
    assert [e["agentId"] for e in read_match(source, validate=False).events()] == [["x"]]
