"""Many agents: pair tables hold the pairs that met, and cost what those pairs cost.

Two shapes, every agent spawning at tick 0 and resting through tick 5 (archive rounds [0, 7)):

- one region, 200 agents: every pair ends every tick together, so all 200·199/2 = 19,900
  pairs are listed, each with 7 ticks together from tick 0;
- 200 agents each alone in its own region of a 15 × 15 map: no pair ever stands
  together or passes a message, so the contact table is empty (never 19,900 zero rows).

The report's cut (a crowd of 70, archive rounds [0, 7)): a_000..a_069 spawn in r_0_0 at
tick 0; a_069 broadcasts at tick 1 (heard by the 69 others); a_060..a_069 move to r_1_0 at
tick 3.  Pairs of stayers (C(60,2) = 1,770) and of movers (C(10,2) = 45) end ticks 0..6
together: 7 ticks; stayer–mover pairs (600) ticks 0..2: 3 ticks.  2,415 pairs met, more than
the 2,000 listed: the 1,815 seven-tick pairs, then of the three-tick ones first the 60 with
a_069 (1 message), then 125 by (a, b): a_000..a_012 with a_060..a_068 (117) and a_013 with
a_060..a_067 (8).  Per seat: a_000 is in 69 pairs, 59·7 + 10·3 = 443 ticks, 1 message;
a_069 in 69 pairs, 9·7 + 60·3 = 243 ticks, 69 messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.economy.contact import ContactPass
from daishi_forensics.replay import replay
from daishi_forensics.report.render.html import MAX_HEATMAP_SEATS

from .matchkit import archive, ev, write_match

N = 200


def idle(regions: list[str]) -> list[dict[str, Any]]:
    events = [ev(i + 1, 0, "agent_spawned", f"a_{i:03d}", region=r) for i, r in enumerate(regions)]
    eid = len(events)
    for tick in range(1, 6):
        for i in range(len(regions)):
            eid += 1
            events.append(ev(eid, tick, "rest", f"a_{i:03d}"))
    return events


def contact(events: list[dict[str, Any]]) -> Any:
    p = ContactPass()
    replay(events, {"startedAtTick": 0, "endedAtTick": 7}, [p])
    return p.result()


def test_one_region_lists_every_pair_with_its_ticks() -> None:
    c = contact(idle(["r_0_0"] * N))
    assert len(c.pairs) == N * (N - 1) // 2 == 19_900
    assert {(p.ticks_together, p.first_contact_tick, p.messages) for p in c.pairs} == {(7, 0, 0)}
    assert (c.pairs[0].a, c.pairs[0].b, c.pairs[-1].a, c.pairs[-1].b) == ("a_000", "a_001", "a_198", "a_199")


def test_spread_agents_list_no_pair() -> None:
    c = contact(idle([f"r_{i % 15}_{i // 15}" for i in range(N)]))
    assert c.pairs == ()


def crowd(tmp_path: Path) -> Path:
    agents = [f"a_{i:03d}" for i in range(70)]
    events = [ev(i + 1, 0, "agent_spawned", a, region="r_0_0") for i, a in enumerate(agents)]
    events.append(ev(100, 1, "message", "a_069", text="hello all", channel="broadcast"))
    events += [ev(200 + i, 3, "move", a, **{"from": "r_0_0", "to": "r_1_0"}) for i, a in enumerate(agents[60:])]
    return write_match(tmp_path, events, archive(agents, ended=7))


def behavior(path: Path, *extra: str) -> Any:
    result = CliRunner().invoke(main, ["behavior", str(path), *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_report_cuts_a_crowd_to_its_closest_pairs_with_seat_totals(tmp_path: Path) -> None:
    path = crowd(tmp_path)
    contact = orjson.loads(behavior(path, "--format", "json"))["contact"]
    assert contact["cut"] == {"pairs": 2415, "listed": 2000, "order": "most ticks together, then most messages"}
    listed = {(p["a"], p["b"]): p for p in contact["pairs"]}
    assert len(listed) == 2000 and list(listed) == sorted(listed)
    assert sum(1 for p in listed.values() if p["ticksTogether"] == 7) == 1815
    assert sum(1 for p in listed.values() if p["ticksTogether"] == 3) == 185
    assert ("a_013", "a_067") in listed and ("a_013", "a_068") not in listed and ("a_014", "a_060") not in listed
    assert listed[("a_059", "a_069")]["messages"] == 1 and listed[("a_059", "a_069")]["ticksTogether"] == 3
    assert contact["perSeat"]["a_000"] == {"pairs": 69, "ticksTogether": 443, "messages": 1}
    assert contact["perSeat"]["a_069"] == {"pairs": 69, "ticksTogether": 243, "messages": 69}
    assert len(contact["perSeat"]) == 70
    every = orjson.loads(behavior(path, "--format", "json", "--all-pairs"))["contact"]
    assert len(every["pairs"]) == 2415 and "cut" not in every and "perSeat" not in every
    assert "2,415 pairs met; listed: the 2,000 with the most ticks together" in behavior(path, "--format", "text")


def test_html_heatmaps_are_left_out_past_their_seat_limit(tmp_path: Path) -> None:
    """A heatmap draws a cell per pair of seats: the 70-seat crowd gets the sentence instead,
    a three-seat match its two heatmaps."""
    assert MAX_HEATMAP_SEATS == 60
    big = behavior(crowd(tmp_path / "big"), "--format", "html")
    assert 'id="contact-heatmap"' not in big and 'id="value-heatmap"' not in big
    assert big.count("70 seats: too many for a heatmap (a cell per pair of seats, over 60 seats)") == 2
    three = [ev(i + 1, 0, "agent_spawned", a, region="r_0_0") for i, a in enumerate(("a_1", "a_2", "a_3"))]
    small = behavior(write_match(tmp_path / "small", three, archive(["a_1", "a_2", "a_3"], ended=7)),
                     "--format", "html")
    assert 'id="contact-heatmap"' in small and "too many for a heatmap" not in small
