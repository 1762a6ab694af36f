"""The commons share on tiny hand-built matches (rubric 2.4 *Trade ledger*, the commons share)."""

from __future__ import annotations

from typing import Any

import pytest

from daishi_forensics.economy import commons as commons_module
from daishi_forensics.economy.commons import Commons, CommonsPass
from daishi_forensics.errors import InvalidInput


def ev(id_: int, tick: int, type_: str, agent: str | None, payload: dict[str, Any]) -> dict[str, Any]:
    """One v3 event as the read boundary yields it."""
    return {
        "id": id_,
        "matchId": "m_00000000000c",
        "schemaVersion": 3,
        "tick": tick,
        "type": type_,
        "agentId": agent,
        "private": False,
        "payload": payload,
    }


def gather(id_: int, tick: int, agent: str, region: str, resource: str, units: int) -> dict[str, Any]:
    return ev(id_, tick, "gather", agent, {"region": region, "resource": resource, "gathered": units})


def collapse(id_: int, tick: int, region: str, resource: str) -> dict[str, Any]:
    return ev(id_, tick, "region_collapsed", None, {"region": region, "resource": resource})


MATCH = [
    # collapse 1: r_1_1 wood at tick 100
    gather(1, 50, "a_2", "r_1_1", "wood", 10),  # 100 - 50 = 50: outside the window
    gather(2, 51, "a_1", "r_1_1", "wood", 4),  # 100 - 51 = 49: inside
    gather(3, 60, "a_2", "r_1_1", "wood", 3),
    gather(4, 70, "a_3", "r_1_1", "stone", 9),  # another resource of the region
    gather(5, 80, "a_3", "r_1_2", "wood", 9),  # the resource in another region
    collapse(6, 100, "r_1_1", "wood"),
    gather(7, 100, "a_3", "r_1_1", "wood", 1),  # logged after it, same tick: "up to and including"
    # collapse 2: r_2_2 food at tick 120, drawn by a_1 alone
    gather(8, 110, "a_1", "r_2_2", "food", 2),
    gather(9, 115, "a_1", "r_2_2", "food", 3),
    gather(10, 118, "a_2", "r_2_2", "food", 0),  # a_2 gathered nothing: it did not draw
    collapse(11, 120, "r_2_2", "food"),
    # collapse 3: r_3_3 ore at tick 150
    gather(12, 140, "a_1", "r_3_3", "ore", 1),
    gather(13, 141, "a_2", "r_3_3", "ore", 15),
    collapse(14, 150, "r_3_3", "ore"),
    gather(15, 151, "a_1", "r_3_3", "ore", 5),  # after the collapse: in no window
    ev(16, 152, "move", "a_1", {"from": "r_3_3", "to": "r_3_4"}),
]


def run(events: list[dict[str, Any]]) -> Commons:
    p = CommonsPass()
    for e in events:
        p.observe(e, None)
    return p.result()


def test_exported_api_is_pinned() -> None:
    assert commons_module.__all__ == ["COMMONS_WINDOW", "CommonsPool", "CommonsShare", "Commons", "CommonsPass"]


def test_the_hand_built_match() -> None:
    commons = run(MATCH)
    # collapse 1: a_1 4 units, a_2 3 (its 10 at tick 50 are out), a_3 1 -> of 8:
    #   a_1 0.5, a_2 0.375, a_3 0.125
    # collapse 2: only a_1 drew (a_2's gather got 0 units): not counted
    # collapse 3: a_1 1 unit, a_2 15 -> of 16: a_1 0.0625, a_2 0.9375
    # sums: a_1 0.5 + 0.0625 = 0.5625 -> 0.563 (an exact binary half; round() would give 0.562)
    #       a_2 0.375 + 0.9375 = 1.3125 -> 1.313;  a_3 0.125
    assert {a: commons.share(a) for a in commons.shares} == {"a_1": 0.563, "a_2": 1.313, "a_3": 0.125}
    assert commons.share("a_4") == 0.0


def test_evidence_and_pools() -> None:
    commons = run(MATCH)
    a_1, a_2, a_3 = commons.shares["a_1"], commons.shares["a_2"], commons.shares["a_3"]
    assert (a_1.collapse_event_ids, a_1.gather_event_ids) == ((6, 14), (2, 12))
    assert (a_2.collapse_event_ids, a_2.gather_event_ids) == ((6, 14), (3, 13))
    assert (a_3.collapse_event_ids, a_3.gather_event_ids) == ((6,), (7,))
    assert [(p.collapse_event_id, p.tick, p.units, p.gather_event_ids, p.counted) for p in commons.pools] == [
        (6, 100, {"a_1": 4, "a_2": 3, "a_3": 1}, (2, 3, 7), True),
        (11, 120, {"a_1": 5}, (8, 9, 10), False),  # one drawer: not counted
        (14, 150, {"a_1": 1, "a_2": 15}, (12, 13), True),
    ]


def test_window_edge_50_out_49_in() -> None:
    base = [gather(1, 10, "a_1", "r", "wood", 1)]
    at_49 = base + [gather(2, 51, "a_2", "r", "wood", 1), collapse(3, 100, "r", "wood")]
    at_50 = base + [gather(2, 50, "a_2", "r", "wood", 1), collapse(3, 100, "r", "wood")]
    # a_1's gather at tick 10 is out of both windows; a_2's alone is one drawer ...
    assert run(at_49).shares == {} and run(at_50).shares == {}
    # ... so add a second drawer at the collapse tick: with a_2 at 51 (49 before) both count
    both_49 = at_49[:2] + [gather(4, 100, "a_1", "r", "wood", 3)] + at_49[2:]
    both_50 = at_50[:2] + [gather(4, 100, "a_1", "r", "wood", 3)] + at_50[2:]
    assert {a: s.share for a, s in run(both_49).shares.items()} == {"a_1": 0.75, "a_2": 0.25}
    assert run(both_50).shares == {}  # a_2 at 50 before is out: a_1 drew alone


def test_a_half_rounds_on_the_double_either_way() -> None:
    # a_1 draws 1 of 16 units before one collapse and 11 of 25 before another:
    # 1/16 + 11/25 is 0.5025 exactly, but the double sum is 0.502499999999999946...,
    # so half-up on the double gives 0.502 (exact decimals would say 0.503).
    # a_2 draws the rest: 15/16 + 14/25 = 0.9375 + 0.56 = 1.4975 exactly, and here the
    # double sum is 1.497500000000000053... (above the half) -> 1.498.
    events = [
        gather(1, 1, "a_1", "r_0_0", "ore", 1),
        gather(2, 2, "a_2", "r_0_0", "ore", 15),
        collapse(3, 3, "r_0_0", "ore"),
        gather(4, 4, "a_1", "r_0_1", "ore", 11),
        gather(5, 5, "a_2", "r_0_1", "ore", 14),
        collapse(6, 6, "r_0_1", "ore"),
    ]
    commons = run(events)
    assert commons.share("a_1") == 0.502
    assert commons.share("a_2") == 1.498


def test_two_collapses_of_one_pool_share_the_gathers_in_both_windows() -> None:
    events = [
        gather(1, 90, "a_1", "r", "wood", 2),
        gather(2, 95, "a_2", "r", "wood", 2),
        collapse(3, 100, "r", "wood"),
        gather(4, 110, "a_1", "r", "wood", 2),
        collapse(5, 120, "r", "wood"),
    ]
    commons = run(events)
    # collapse at 100: 2 and 2 -> 0.5 each.  Collapse at 120 (window 71..120): a_1 2 + 2 = 4,
    # a_2 2 -> 4/6 and 2/6.  a_1: 0.5 + 0.666... = 1.1666... -> 1.167; a_2: 0.5 + 0.333... -> 0.833
    assert {a: s.share for a, s in commons.shares.items()} == {"a_1": 1.167, "a_2": 0.833}
    assert commons.shares["a_2"].gather_event_ids == (2, 2)  # the same gather behind both collapses
    assert commons.shares["a_1"].gather_event_ids == (1, 1, 4)


def test_memory_is_a_sliding_window() -> None:
    p = CommonsPass()
    p.observe(gather(0, 0, "a_3", "r_9_9", "stone", 1), None)  # a key nobody touches again
    next_id = 1
    for tick in range(1000):  # a_1 and a_2 each gather 1 unit every tick
        for agent in ("a_1", "a_2"):
            p.observe(gather(next_id, tick, agent, "r_0_0", "wood", 1), None)
            next_id += 1
    p.observe(collapse(next_id, 999, "r_0_0", "wood"), None)
    commons = p.result()
    # at most 50 ticks x 2 gathers, plus the stray stone gather until tick 50 prunes it
    assert commons.peak_held == 101
    # the window of the collapse at 999 is ticks 950..999: 50 units each -> 0.5 each
    assert commons.pools[0].units == {"a_1": 50, "a_2": 50}
    assert len(commons.pools[0].gather_event_ids) == 100
    assert commons.share("a_1") == 0.5 and commons.share("a_2") == 0.5


def test_a_world_reset_starts_a_new_world() -> None:
    events = [
        gather(1, 10, "a_1", "r", "wood", 2),
        gather(2, 11, "a_2", "r", "wood", 2),
        ev(3, 12, "world_reset", None, {"season": 2}),
        ev(4, 0, "season_started", None, {"season": 2}),
        collapse(5, 5, "r", "wood"),  # tick 5 of the new season: the old gathers are gone
    ]
    commons = run(events)
    assert commons.shares == {} and commons.pools[0].units == {}


def test_close_ticks_settles_a_collapse() -> None:
    p = CommonsPass()
    for e in MATCH[:7]:
        p.observe(e, None)
    p.close_ticks(100, 101, None)  # tick 100 ended: collapse 1 is settled
    assert p.result().share("a_3") == 0.125


def test_a_gather_without_units_names_event_and_field() -> None:
    with pytest.raises(InvalidInput) as caught:
        run([ev(9, 1, "gather", "a_1", {"region": "r", "resource": "wood"})])
    assert (caught.value.event_id, caught.value.field) == (9, "payload.gathered")


def test_pools_read_like_a_tuple_and_a_result_stays_as_it_was() -> None:
    p = CommonsPass()
    for e in MATCH:
        p.observe(e, None)
    first = p.result()
    pools = tuple(first.pools)
    assert len(pools) == 3 and first.pools == pools and first.pools[-1] == pools[-1]
    assert first.pools[1:] == pools[1:] and [pool.counted for pool in first.pools] == [True, False, True]
    p.observe(gather(20, 160, "a_1", "r_3_3", "ore", 1), None)
    p.observe(collapse(21, 170, "r_3_3", "ore"), None)
    second = p.result()
    assert len(second.pools) == 4 and first.pools == pools and len(first.pools) == 3
    with pytest.raises(IndexError):
        first.pools[3]


def test_many_agents_and_pools() -> None:
    p = CommonsPass()
    agents = [f"a_{i:03d}" for i in range(300)]
    next_id = 1
    for tick in range(3):
        for i, agent in enumerate(agents):
            p.observe(gather(next_id, tick, agent, f"r_{i % 7}", "wood", 1 + i % 2), None)
            next_id += 1
    for i in range(7):
        p.observe(collapse(next_id, 3, f"r_{i}", "wood"), None)
        next_id += 1
    commons = p.result()
    assert len(commons.pools) == 7 and all(pool.counted for pool in commons.pools)
    pool = commons.pools[0]
    drew = [a for i, a in enumerate(agents) if i % 7 == 0]
    assert pool.units == {a: 3 * (1 + int(a[2:]) % 2) for a in drew} and list(pool.units) == drew
    assert len(pool.gather_event_ids) == 3 * len(drew) and list(pool.gather_event_ids) == sorted(pool.gather_event_ids)
    assert sorted(commons.shares) == agents
    assert abs(sum(commons.share(a) for a in agents) - 7) < 0.01
