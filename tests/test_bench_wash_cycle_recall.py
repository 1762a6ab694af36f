"""The wash-cycle recall bench (bench/wash_cycle_recall.py): planted cycles read as shipped and with the lean
read as a coin, on the same graph; the misses' reasons; the splits' seeds."""

from __future__ import annotations

import doctest
import math

from .benchkit import load_bench
from .test_screens import _cycle_beside

bench = load_bench("wash_cycle_recall")

TRUTH = {"planted": [{"kind": "wash_cycle", "agents": ["a", "b", "c"], "cycle": ["a", "b", "c"]}]}
PAIRS = frozenset({("a", "b"), ("b", "c"), ("a", "c")})


def test_a_cycle_beside_even_pairs_is_raised_either_way() -> None:
    """Wood round a -> b -> c twelve times, the pairs outside trading it 2 and 2: no lean, the coin both ways."""
    r = bench.read(_cycle_beside([("d", "e", 2, 2), ("f", "g", 2, 2), ("h", "i", 2, 2)]), TRUTH)
    assert r.planted == PAIRS and r.wash_cycle == r.coin == r.any_screen == PAIRS
    assert (r.verdict, r.miss, r.plant) == ("flag", None, frozenset("abc"))
    assert r.raised == PAIRS


def test_a_cycle_the_lean_explains_is_raised_by_the_coin_only_and_the_miss_says_its_p_value() -> None:
    """The pairs outside pass wood one way only (4 and 0, 0 and 4, 4 and 0): the lean at Beta(0.05, 0.05) reads the
    cycle's twelve along as 2 x leg^3 with leg = B(4 + a, a) / B(a, a): tested, not raised.  Read as coins, the
    same cycle is 2 x 2^-12: raised.  The lean off is put back after."""
    from daishi_forensics.screens import wash_cycle

    fitted = wash_cycle.fit_lean
    r = bench.read(_cycle_beside([("d", "e", 4, 0), ("f", "g", 0, 4), ("h", "i", 4, 0)]), TRUTH)
    assert wash_cycle.fit_lean is fitted
    a = 0.05
    leg = math.exp(math.lgamma(4 + a) + math.lgamma(2 * a) - math.lgamma(4 + 2 * a) - math.lgamma(a))
    assert (r.wash_cycle, r.coin, r.any_screen) == (frozenset(), PAIRS, frozenset())
    assert r.miss is not None and r.miss.startswith(f"tested p={2 * leg ** 3:.2g} min_p={2 * leg ** 3:.2g} family=")
    assert r.verdict == "clear"


def test_the_splits_seeds_and_the_settings() -> None:
    jobs = bench.jobs("tune", 3, ["none", "heavy"], ["default", "600 ticks"])
    assert len(jobs) == 12 and {j[1] for j in jobs} == {"wash_cycle"}
    assert {j[2] for j in jobs} == {1, 2, 3} and {j[4] for j in jobs} == {"default", "600 ticks"}
    assert {j[2] for j in bench.jobs("report", 40, ["none"], ["default"])} == set(range(5001, 5041))
    assert doctest.testmod(bench).failed == 0
