"""Progression: wealth curve from snapshots, time to first milestones, first contact.

a_1 spawns at tick 0; a_2 joins the running match at tick 10 (agent_registered with a region).
a_1: gather 2, trade 15, build 20, contact 12 (a_2 walks into r_0_0 at tick 12); no craft.
a_2: start 10; craft 13 (3 after start), trade 15 (5), contact 12 (2).
a_1's snapshots: (4, 5) then (4, 6) in the same tick -> end-of-tick (4, 6); (8, 9.5).
"""

from __future__ import annotations

import doctest
from pathlib import Path

from daishi_forensics.profile import progression as progression_module
from daishi_forensics.report.passes import analyze
from daishi_forensics.report.profile import MAX_CURVE_POINTS, profile_section
from daishi_forensics.profile.progression import MILESTONES, ProgressionPass, with_contact
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match

from .matchkit import archive, ev, trade, write_match


def events() -> list[dict]:
    return [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 2, "gather", "a_1", region="r_0_0", resource="wood", gathered=1),
        ev(3, 4, "agent_snapshot", "a_1", region="r_0_0", energy=9, wealth=5, inventoryHash="h"),
        ev(4, 4, "agent_snapshot", "a_1", region="r_0_0", energy=9, wealth=6, inventoryHash="h"),
        ev(5, 8, "agent_snapshot", "a_1", region="r_0_0", energy=9, wealth=9.5, inventoryHash="h"),
        ev(6, 10, "agent_registered", "a_2", name="Late", role="player", region="r_0_1"),
        ev(7, 12, "move", "a_2", **{"from": "r_0_1"}, to="r_0_0"),
        ev(8, 13, "craft", "a_2", item="plank", quantity=1, inputs={"wood": 2}),
        *trade(9, 15, "t1", "a_1", "a_2", {"wood": 1}, {"stone": 1}),
        ev(11, 20, "build", "a_1", structure="shelter", structureId="s_1", region="r_0_0"),
    ]


def test_doctests() -> None:
    assert doctest.testmod(progression_module).failed == 0


def test_by_hand(tmp_path: Path) -> None:
    path = write_match(tmp_path, events(), archive(["a_1", "a_2"], ended=30))
    seats, match = profile_section(analyze(read_match(open_match(str(path)))))
    a1, a2 = seats["a_1"]["progression"], seats["a_2"]["progression"]
    assert a1 == {
        "startTick": 0,
        "first": {"gather": 2, "craft": None, "build": 20, "trade": 15, "contact": 12},
        "timeTo": {"gather": 2, "craft": None, "build": 20, "trade": 15, "contact": 12},
        "wealthCurve": [[4, 6.0], [8, 9.5]],
        "wealthCurvePoints": 2,
    }
    assert a2["startTick"] == 10
    assert a2["first"] == {"gather": None, "craft": 13, "build": None, "trade": 15, "contact": 12}
    assert a2["timeTo"] == {"gather": None, "craft": 3, "build": None, "trade": 5, "contact": 2}
    assert a2["wealthCurve"] == []
    assert match["progression"] == {"milestones": list(MILESTONES), "snapshots": 3,
                                    "maxCurvePoints": MAX_CURVE_POINTS}


def test_no_placement_falls_back_to_match_start() -> None:
    p = ProgressionPass.from_archive({"startedAtTick": 5})
    p.observe(ev(1, 9, "gather", "a_9", region="r_0_0", resource="ore", gathered=1), None)
    s = with_contact(p.result(), {"a_9": 11, "a_8": 7}).seat("a_9")
    assert (s.start_tick, s.time_to["gather"], s.time_to["contact"]) == (5, 4, 6)
    assert ProgressionPass().result().seat("nobody").start_tick is None


def test_long_curve_is_thinned(tmp_path: Path) -> None:
    evs = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")]
    evs += [ev(2 + t, t, "agent_snapshot", "a_1", region="r_0_0", energy=1, wealth=t * 0.5, inventoryHash="h")
            for t in range(250)]
    path = write_match(tmp_path, evs, archive(["a_1"], ended=250))
    seats, _ = profile_section(analyze(read_match(open_match(str(path)))))
    prog = seats["a_1"]["progression"]
    assert prog["wealthCurvePoints"] == 250
    curve = prog["wealthCurve"]
    assert len(curve) == MAX_CURVE_POINTS and curve[0] == [0, 0.0] and curve[-1] == [249, 124.5]
    assert [t for t, _ in curve] == sorted({t for t, _ in curve})


def test_no_snapshots_is_said(tmp_path: Path) -> None:
    path = write_match(tmp_path, events()[:2], archive(["a_1"], ended=5))
    _, match = profile_section(analyze(read_match(open_match(str(path)))))
    assert any("agent_snapshot" in n for n in match["notes"])


def test_snapshots_out_of_tick_order_keep_the_last_of_each_tick() -> None:
    """A log whose ticks went back: the curve is still by tick, the last snapshot of a tick kept."""
    p = ProgressionPass()
    for i, (tick, wealth) in enumerate([(5, 1), (7, 2), (3, 3), (7, 4), (5, 5), (9, 6), (3, 7)]):
        p.observe(ev(i + 1, tick, "agent_snapshot", "a_1", region="r_0_0", energy=1, wealth=wealth,
                     inventoryHash="h"), None)
    s = p.result().seat("a_1")
    assert s.wealth_curve == ((3, 7.0), (5, 5.0), (7, 4.0), (9, 6.0))
    assert p.result().snapshots == 7
