"""What the read accepts with a warning (``validate`` lists each) was passed over by the behavior report: an event
whose key is written twice (the last value kept, the first lost) or whose tick lies outside the archive's
startedAtTick to endedAtTick gave "no finding about the log itself" and exit 0.  Each kind is now said in one
``read-warnings`` finding (how many, the first, the events), exit 1; kinds another finding says are left to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match


def _events() -> list[dict[str, Any]]:
    return [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
            ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}), ev(4, 2, "rest", "a_2"),
            ev(5, 6, "rest", "a_1"), ev(6, 7, "rest", "a_2")]


def _findings(path: Path) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "json"])
    return result.exit_code, json.loads(result.stdout)["findings"]


def test_ticks_outside_the_archives_rounds_are_said(tmp_path: Path) -> None:
    path = write_match(tmp_path, _events(), archive(["a_1", "a_2"], started=1, ended=5))
    code, findings = _findings(path)
    assert code == 1
    assert findings == [{
        "kind": "read-warnings",
        "message": "the read warned 4 times (each read as said; run `daishi-forensics validate` for every one): "
                   "tick-before-start 2, the first event 1: tick 0 is before the match's start (the archive's "
                   "startedAtTick is 1); tick-past-end 2, the first event 5: tick 6 is past the match's end (the "
                   "archive's endedAtTick is 5)",
        "events": [1, 2, 5, 6], "eventCount": 4,
        "warnings": {"tick-before-start": 2, "tick-past-end": 2},
        "first": [{"code": "tick-before-start", "eventId": 1, "path": "$.tick",
                   "message": "tick 0 is before the match's start (the archive's startedAtTick is 1)"},
                  {"code": "tick-past-end", "eventId": 5, "path": "$.tick",
                   "message": "tick 6 is past the match's end (the archive's endedAtTick is 5)"}],
    }]


def test_a_key_written_twice_is_said(tmp_path: Path) -> None:
    path = write_match(tmp_path, _events(), archive(["a_1", "a_2"], ended=10))
    text = path.read_text(encoding="utf-8")
    assert text.count('"payload":{"from":"r_0_0","to":"r_0_1"}') == 1
    path.write_text(text.replace('"payload":{"from":"r_0_0","to":"r_0_1"}',
                                 '"payload":{"to":"r_5_5","from":"r_0_0","to":"r_0_1"}'), encoding="utf-8")
    code, findings = _findings(path)
    assert code == 1
    assert [(f["kind"], f["warnings"], f["events"]) for f in findings] == [("read-warnings", {"repeated-key": 1}, [3])]
    assert findings[0]["first"][0]["message"] == "the key 'payload.to' is repeated in this event; the last value is kept"


def test_a_clean_log_and_kinds_said_elsewhere_make_none(tmp_path: Path) -> None:
    clean = write_match(tmp_path / "clean", _events(), archive(["a_1", "a_2"], ended=10))
    assert _findings(clean) == (0, [])
    odd = [*_events(), ev(7, 8, "weather_changed", None, sky="grey"), ev(8, 8, "rest", "a_9")]
    code, findings = _findings(write_match(tmp_path / "odd", odd, archive(["a_1", "a_2"], ended=10)))
    assert code == 1
    assert [f["kind"] for f in findings] == ["unknown-event-types", "agent-not-in-archive"]
