"""Many agents: pair tables hold the pairs that met, and cost what those pairs cost.

Two shapes, every agent spawning at tick 0 and resting through tick 5 (archive rounds [0, 7)):

- one region, 200 agents: every pair ends every tick together, so all 200·199/2 = 19,900
  pairs are listed, each with 7 ticks together from tick 0;
- 200 agents each alone in its own region of a 15 × 15 map: no pair ever stands
  together or passes a message, so the contact table is empty (never 19,900 zero rows).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daishi_forensics.economy.contact import ContactPass
from daishi_forensics.replay import replay
from daishi_forensics.report.render.html import MAX_HEATMAP_SEATS, contact_heatmap_svg

from .matchkit import ev

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


def test_heatmap_is_left_out_past_its_seat_limit() -> None:
    def report(n: int) -> dict[str, Any]:
        return {"seats": [{"agentId": f"a_{i:03d}"} for i in range(n)],
                "contact": {"pairs": [{"a": "a_000", "b": "a_001", "ticksTogether": 4}]}}

    small = contact_heatmap_svg(report(3))
    assert small.count('<rect class="cell"') == 9 and "4 ticks together" in small
    big = contact_heatmap_svg(report(MAX_HEATMAP_SEATS + 1))
    assert "<rect" not in big and f"{MAX_HEATMAP_SEATS + 1} seats: too many for a heatmap" in big
