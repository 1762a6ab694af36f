"""A record whose tick alone jumps ahead (the next one comes back between the two ticks before it) is the
one the tick-order warning names, on the hot path (v3) and the cold path (v2) alike; a tick back below
both neighbours, or a jump two records share, still names the record that comes back."""

from __future__ import annotations

from pathlib import Path

import pytest

from daishi_forensics.read.validate import validate_targets

from .matchkit import archive, ev, write_match


def said(tmp_path: Path, ticks: list[int], version: int) -> list[tuple[object, ...]]:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")]
    events += [ev(i + 2, tick, "rest", "a_1") for i, tick in enumerate(ticks)]
    result = validate_targets([str(write_match(tmp_path, events, archive(["a_1"], ended=100), version=version))])
    assert result.exit_code == 0
    return [(p.severity, p.code, p.event_id, p.line, p.path, p.message) for p in result.files[0].problems]


def back(event_id: int, tick: int, last: int) -> tuple[object, ...]:
    return ("warning", "tick-order", event_id, event_id + 1, "$.tick",
            f"ticks must not go back within a season: tick {tick} comes after tick {last}")


def jump(event_id: int, tick: int, before: int, after: int) -> tuple[object, ...]:
    return ("warning", "tick-order", event_id, event_id + 1, "$.tick",
            f"ticks must not go back within a season: tick {tick} is out of line between tick {before} and "
            f"tick {after}")


@pytest.mark.parametrize("version", [3, 2])
@pytest.mark.parametrize(("ticks", "expected"), [
    ([1, 1, 50, 2, 2, 3], [jump(4, 50, 1, 2)]),
    ([1, 50, 2, 60, 3], [jump(3, 50, 1, 2), jump(5, 60, 2, 3)]),
    ([50, 2], [jump(2, 50, 0, 2)]),
    ([5, 5, 1, 5], [back(4, 1, 5)]),
    ([1, 50, 50, 2], [back(5, 2, 50)]),
    ([3, 50, 2, 3], [back(4, 2, 50)]),
])
def test_the_record_out_of_line_is_named(tmp_path: Path, version: int, ticks: list[int],
                                         expected: list[tuple[object, ...]]) -> None:
    assert said(tmp_path, ticks, version) == expected


@pytest.mark.parametrize("version", [3, 2])
def test_the_log_ends_at_its_last_record_even_past_the_end(tmp_path: Path, version: int) -> None:
    """The tick the log ends at (truncation) is its last record's, past the archive's end or not; the tick
    later records are checked against is not (a tick past the end is said, not compared with): two ticks,
    kept apart."""
    arch = archive(["a_1"], ended=100)
    arch["agents"][0]["diedAtTick"] = 110
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 99, "rest", "a_1"), ev(3, 120, "rest", "a_1")]
    result = validate_targets([str(write_match(tmp_path, events, arch, version=version))])
    assert [(p.code, p.event_id, p.message) for p in result.files[0].problems] == [
        ("tick-past-end", 3, "tick 120 is past the match's end (the archive's endedAtTick is 100)")]
