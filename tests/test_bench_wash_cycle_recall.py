"""The wash-cycle recall bench (bench/wash_cycle_recall.py): planted cycles read as shipped (the lean off) and with
the lean on, on the same graph; honest matches read both ways; the misses' reasons; the splits' seeds."""

from __future__ import annotations

import doctest
import math

import pytest

from .benchkit import load_bench
from .test_screens import _cycle_beside, _out_of_step

bench = load_bench("wash_cycle_recall")

TRUTH = {"planted": [{"kind": "wash_cycle", "agents": ["a", "b", "c"], "cycle": ["a", "b", "c"]}]}
PAIRS = frozenset({("a", "b"), ("b", "c"), ("a", "c")})
EVEN = [("d", "e", 2, 2), ("f", "g", 2, 2), ("h", "i", 2, 2)]
LEANING = [("d", "e", 4, 0), ("f", "g", 0, 4), ("h", "i", 4, 0)]


def test_a_cycle_beside_even_pairs_is_raised_either_way() -> None:
    """Wood round a -> b -> c twelve times, the pairs outside trading it 2 and 2: no lean to read, raised both ways."""
    r = bench.read(_cycle_beside(EVEN), TRUTH)
    assert r.planted == PAIRS and r.wash_cycle == r.other == r.any_screen == r.raised == PAIRS
    assert (r.verdict, r.miss, r.plant) == ("flag", None, frozenset("abc"))


def test_a_cycle_the_lean_explains_is_raised_as_shipped_only() -> None:
    """The pairs outside pass wood one way only (4 and 0, 0 and 4, 4 and 0).  As shipped (the lean off) the cycle's
    twelve along are the coin's 2 x 2^-12: raised.  With the lean on, at Beta(0.05, 0.05), they are 2 x leg^3 with
    leg = B(4 + a, a) / B(a, a), read with the order (the in-step rule on as shipped): not raised; and were the lean
    the shipped reading, the miss would say that p-value."""
    assert bench.other_name() == "lean on"
    r = bench.read(_cycle_beside(LEANING), TRUTH)
    assert (r.wash_cycle, r.other, r.any_screen, r.verdict, r.miss) == (PAIRS, frozenset(), PAIRS, "flag", None)
    from daishi_forensics.screens import load_config, screen_graph

    a = 0.05
    leg = math.exp(math.lgamma(4 + a) + math.lgamma(2 * a) - math.lgamma(4 + 2 * a) - math.lgamma(a))
    from daishi_forensics.screens.wash_cycle import in_step, with_order

    lean = screen_graph(_cycle_beside(LEANING), load_config({"screens": {"ring": {"wash_cycle_lean": True}}}))
    legs = {(u, v): [(t,) for t in range(i, 12, 3)]  # the ring's ticks: a -> b at 0, 3, 6, 9; b -> c 1, 4, ...
            for i, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a")])}
    order = in_step(("a", "b", "c"), legs)[0]  # passed on a tick after each arrival: in step, read with the lean
    p, least = with_order(2 * leg ** 3, order, 0.05), with_order(2 * leg ** 3, 1 / 2001, 0.05)
    assert bench.why_missed(lean, frozenset("abc")).startswith(f"tested p={p:.2g} min_p={least:.2g} ")
    assert bench.why_missed(lean, frozenset("xyz")) == "no qualifying cycle"


def test_an_honest_match_is_read_both_ways() -> None:
    """The leaning match read as an honest one: a wash-cycle flag as shipped, none with the lean on."""
    h = bench.read_honest(_cycle_beside(LEANING))
    assert (h.verdict, h.other_verdict, h.wash_cycle, h.other_wash_cycle) == ("flag", "clear", True, False)


def test_a_cycle_out_of_step_is_read_with_the_in_step_rule_off() -> None:
    """Four laps of wood round a -> b -> c, the members' arrivals and pass-ons not alternating: as shipped (in step
    at 0.05) no wash cycle qualifies, and the miss says the in-step rule left it out; with the rule off it is
    raised on the coin."""
    assert bench.other_name("in_step") == "in step off"
    r = bench.read(_out_of_step(), TRUTH, "in_step")
    assert (r.wash_cycle, r.other, r.miss) == (frozenset(), PAIRS, "out of step")
    assert bench.read(_out_of_step(), TRUTH).miss == "no qualifying cycle"  # the lean compared: not told apart
    h = bench.read_honest(_out_of_step(), "in_step")
    assert (h.verdict, h.other_verdict, h.wash_cycle, h.other_wash_cycle) == ("clear", "flag", False, True)
    with pytest.raises(ValueError, match="--compare"):
        bench.configs("timing")


def test_the_splits_seeds_and_the_settings() -> None:
    jobs = bench.jobs("tune", 3, ["none", "heavy"], ["default", "600 ticks"])
    assert len(jobs) == 12 and {j[1] for j in jobs} == {"wash_cycle"}
    assert {j[2] for j in jobs} == {1, 2, 3} and {j[4] for j in jobs} == {"default", "600 ticks"}
    assert {j[2] for j in bench.jobs("report", 40, ["none"], ["default"])} == set(range(5001, 5041))
    assert {j[2] for j in bench.jobs("gate", 40, ["none"], ["default"])} == set(range(6001, 6041))
    assert {j[2] for j in bench.jobs("gate3", 40, ["none"], ["default"])} == set(range(8001, 8041))
    with pytest.raises(ValueError, match="FIRST-LAST"):
        bench.seed_range("92000-91801")
    assert doctest.testmod(bench).failed == 0
