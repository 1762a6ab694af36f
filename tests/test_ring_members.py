"""Who a round-trip ring's flag names (``ring_member_level``): a ring of three washing seats, and a fourth seat
that made one round trip with each of two of them, by chance, at the same time."""

from __future__ import annotations

import networkx as nx

from daishi_forensics.screens.graph import TransferView
from daishi_forensics.screens.wash_ring import round_trip_rings

PARAMS = {"max_leg_ratio": 1.5, "max_cycle_length": 5, "max_search_steps": 10000, "ring_trips": 1,
          "ring_threshold": 0.5}


def _trade(graph: nx.MultiDiGraph, tick: int, u: str, v: str, gives: str, gets: str, value: float = 6.0) -> None:
    """``u`` hands ``v`` ``gives`` and gets ``gets`` back, each worth ``value``: one exchange, two transfers."""
    exchange = f"x{graph.number_of_edges()}"
    graph.add_edge(u, v, value=value, tick=tick, event=f"e{graph.number_of_edges()}", exchange=exchange,
                   goods={gives: value})
    graph.add_edge(v, u, value=value, tick=tick, event=f"e{graph.number_of_edges()}", exchange=exchange,
                   goods={gets: value})


def _match() -> nx.MultiDiGraph:
    """a, b and c send wood round their triangle and back six times (three ticks out, three back); d sends wood to
    a at tick 11 and gets it back at 14, and takes it from b at 12 and sends it back at 15, while a and b's second
    round trip (10 to 13) is under way: the cycle a, b, d qualifies too.  e, f, g, h (and d with e) trade food for
    ore and never send anything back: the pairs outside the ring the null is read from."""
    graph = nx.MultiDiGraph()
    for k in range(6):
        for i, (u, v) in enumerate((("a", "b"), ("b", "c"), ("c", "a"))):
            _trade(graph, 10 * k + i, u, v, "wood", "stone")
            _trade(graph, 10 * k + 3 + i, v, u, "wood", "stone")
    _trade(graph, 11, "d", "a", "wood", "stone")
    _trade(graph, 14, "a", "d", "wood", "stone")
    _trade(graph, 12, "b", "d", "wood", "stone")
    _trade(graph, 15, "d", "b", "wood", "stone")
    for k in range(12):
        for u, v in (("e", "f"), ("g", "h"), ("e", "g"), ("f", "h"), ("d", "e")):
            _trade(graph, 100 + k, u, v, "food", "ore", 6.0 + k % 3)
    return graph


def test_every_seat_of_the_rings_cycles_is_named_at_level_one() -> None:
    """Level 1 (configuration 2.29.0's naming): d is named, with its two pairs, on the whole ring's test."""
    [flag] = round_trip_rings(TransferView(_match()), {**PARAMS, "ring_member_level": 1.0})[0]
    assert flag.agents == ("a", "b", "c", "d")
    assert flag.pairs == (("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"))
    assert "notNamed" not in flag.details and "ownEvidence" not in flag.details


def test_a_seat_without_its_own_evidence_is_not_named() -> None:
    """Level 0.1: d's two pairs made one round trip each, the one that put them in the search, so given the search
    they say nothing (each 1, Fisher's product 1): d is left out, a, b and c keep the cycle.  Theirs: each has two
    pairs of six round trips, the same evidence.  The test is the whole ring's, the same p-value either way."""
    view = TransferView(_match())
    every = round_trip_rings(view, {**PARAMS, "ring_member_level": 1.0})[0][0]
    [flag] = round_trip_rings(TransferView(_match()), {**PARAMS, "ring_member_level": 0.1})[0]
    assert flag.agents == ("a", "b", "c")
    assert flag.pairs == (("a", "b"), ("a", "c"), ("b", "c"))
    assert flag.details["notNamed"] == {"d": 1.0}
    own = flag.details["ownEvidence"]
    assert set(own) == {"a", "b", "c"} and own["a"] == own["b"] == own["c"] < 1e-6
    assert flag.p_value == every.p_value and flag.details["cycle"] == every.details["cycle"] == ["a", "b", "c"]
    assert "d is on the ring's other cycles but not named: its own round trips there are as honest play makes them by chance (a chance of 1, above the level 0.1)" in flag.explanation
    assert "d" not in flag.details["roundTrips"] and "a~d" not in flag.details["roundTrips"]


def test_a_seat_the_cycle_needs_is_named_however_weak() -> None:
    """Without c the ring is the cycle a, b, d alone: leaving d out would leave no cycle, so d is named at any
    level (a short ring's evidence is its pairs together; the test decides whether it is a ring at all)."""
    graph = _match()
    graph.remove_node("c")
    flags = round_trip_rings(TransferView(graph), {**PARAMS, "ring_member_level": 0.1})[0]
    assert [f.agents for f in flags] == [("a", "b", "d")]
    assert "notNamed" not in flags[0].details


def _met_through_an_honest_seat() -> nx.MultiDiGraph:
    """b, c and d wash wood round their triangle; a (first in the search's order) made one round trip with each
    of them while their second round trip was under way, so the search meets a, b, c and a, b, d and a, c, d
    first, and the triangle b, c, d adds no pair: it is a cycle met, read only when the naming asks."""
    graph = nx.MultiDiGraph()
    for k in range(6):
        for i, (u, v) in enumerate((("b", "c"), ("c", "d"), ("d", "b"))):
            _trade(graph, 10 * k + i, u, v, "wood", "stone")
            _trade(graph, 10 * k + 3 + i, v, u, "wood", "stone")
    for i, v in enumerate("bcd"):
        _trade(graph, 11 + i, "a", v, "wood", "stone")
        _trade(graph, 12 + i, v, "a", "wood", "stone")
    for k in range(12):
        for u, v in (("e", "f"), ("g", "h"), ("e", "g"), ("f", "h"), ("a", "e")):
            _trade(graph, 100 + k, u, v, "food", "ore", 6.0 + k % 3)
    return graph


def test_a_ring_met_only_through_an_honest_seat_is_told_from_its_own_cycle() -> None:
    """Every kept cycle runs through a; without it the ring keeps the triangle b, c, d (a cycle met that added no
    pair, which qualifies): a is left out and the flag is told from the triangle.  At level 1 it names all four,
    told from a cycle through a."""
    every = round_trip_rings(TransferView(_met_through_an_honest_seat()), {**PARAMS, "ring_member_level": 1.0})[0]
    [flag] = round_trip_rings(TransferView(_met_through_an_honest_seat()), {**PARAMS, "ring_member_level": 0.1})[0]
    assert [f.agents for f in every] == [("a", "b", "c", "d")] and "a" in every[0].details["cycle"]
    assert flag.agents == ("b", "c", "d") and flag.details["cycle"] == ["b", "c", "d"]
    assert flag.details["notNamed"] == {"a": 1.0} and flag.p_value == every[0].p_value
    assert flag.pairs == (("b", "c"), ("b", "d"), ("c", "d"))


def test_a_legs_round_trips_in_a_band_of_one_good_are_found_by_its_sorted_search() -> None:
    """``_Leg.fitting`` gives what a plain pass over the trips gives, in their order, for bands and goods at
    random (ties of value included, a good some trips lack, a band with nothing in it)."""
    import random

    from daishi_forensics.screens.graph import Exchange
    from daishi_forensics.screens.wash_ring import _Leg, _Trip

    rng = random.Random(7)
    trips = []
    for k in range(200):
        value = float(rng.choice([2, 3, 3, 5, 8, 13]) * rng.choice([1, 1.5]))
        goods = rng.choice([("wood",), ("stone",), ("wood", "stone")])
        out = Exchange("a", "b", k, f"o{k}", gave={"a": value},
                       goods={"a": {g: value / len(goods) for g in goods}, "b": {"ore": value}})
        back = Exchange("a", "b", k + 1, f"r{k}", gave={"b": value},
                        goods={"b": {g: value / len(goods) for g in goods}, "a": {"ore": value}})
        trips.append(_Trip(out, back))
    leg = _Leg(trips, 1.5)
    for _ in range(300):
        low = rng.choice([1.0, 2.0, 3.0, 4.5, 7.0, 20.0, 100.0])
        high = low * rng.choice([1.0, 1.5, 3.0])
        good = rng.choice(["wood", "stone", "ore"])
        assert leg.fitting(low, high, good) == [t for t in trips if low <= t.value <= high and good in t.goods]
