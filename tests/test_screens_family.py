"""Which tests a match's family holds, and the fits behind the ring nulls: off-price tests every
trading pair (Tarone's rule reads what the payer's null holds fixed, never where the excess went),
a wash cycle pays for every cycle the search met, and the round-trip curve's fit converges where
full Newton steps swing further every time."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from daishi_forensics.screens import load_config
from daishi_forensics.screens.graph import TransferView
from daishi_forensics.screens.off_price import off_price, seat_floor
from daishi_forensics.screens.round_trip_null import _fit, _log_likelihood
from daishi_forensics.screens.stats import Test as OneTest
from daishi_forensics.screens.stats import testable_family as tarone_family
from daishi_forensics.screens.wash_cycle import wash_cycles

_ids = itertools.count(1)


def trade(g: nx.MultiDiGraph, a: str, b: str, tick: int, give: dict[str, float], get: dict[str, float]) -> None:
    eid = next(_ids)
    g.add_edge(a, b, value=sum(give.values()), tick=tick, event=eid, exchange=eid, goods=give)
    g.add_edge(b, a, value=sum(get.values()), tick=tick, event=eid, exchange=eid, goods=get)


# -- off-price: the family --------------------------------------------------------------------


def _overpaying(favoured: str) -> nx.MultiDiGraph:
    """s trades four times with each of b, c and d; its four with ``favoured`` hand over four tools for
    a wood (34 beyond one tool each), the others are fair.  b, c and d trade once with e; p and q once
    (one tool is worth 12 in this match)."""
    g = nx.MultiDiGraph()
    t = itertools.count()
    trade(g, "p", "q", next(t), {"tool": 12.0}, {"wood": 12.0})
    for _ in range(4):
        for other in "bcd":
            if other == favoured:
                trade(g, "s", other, next(t), {"tool": 48.0}, {"wood": 2.0})
            else:
                trade(g, "s", other, next(t), {"wood": 6.0}, {"food": 6.0})
    for other in "bcd":
        trade(g, other, "e", next(t), {"wood": 6.0}, {"food": 6.0})
    return g


def _payer_tests(g: nx.MultiDiGraph, payer: str) -> dict[tuple[str, ...], OneTest]:
    _, tests = off_price(TransferView(g), load_config().screens["off_price"])
    return {t.key: t for t in tests if t.key[1] == payer}


def test_every_trading_pair_is_tested_and_the_family_does_not_depend_on_who_got_the_excess() -> None:
    to_b, to_c = _payer_tests(_overpaying("b"), "s"), _payer_tests(_overpaying("c"), "s")
    # s's pairs are all tested, each with the same smallest attainable p-value, whoever got the excess: it is
    # read from s's trades with each partner (four) and the excess its twelve trades carried (34 four times)
    assert set(to_b) == set(to_c) == {("off_price", "s", x) for x in "bcd"}
    assert {k: t.min_p for k, t in to_b.items()} == {k: t.min_p for k, t in to_c.items()}
    # by hand: the permutation at its smallest, the four 34s dealt to the partner, 1 of C(12, 4) = 495; the
    # rate at its smallest, all four of the partner's trades carrying excess and none of s's eight others.
    # The three trades of neither seat (p-q and the two others with e) carry none: 0.5 / 7 with the weight of
    # two trades, Beta(1/7, 10 - 1/7), four of four: (1/7)(8/7)(15/7)(22/7) / (10 x 11 x 12 x 13)
    rate = (1 / 7) * (8 / 7) * (15 / 7) * (22 / 7) / (10 * 11 * 12 * 13)
    assert rate < 1 / 495
    assert to_b[("off_price", "s", "c")].min_p == pytest.approx(2 * rate)
    # the pair s handed nothing to is in the family like the one it favoured (Tarone's rule at 0.02 keeps
    # every test that could reach 0.02 / K), with its plain p-value of 1
    family = {t.key for t in tarone_family(to_b.values(), 0.02)}
    assert ("off_price", "s", "c") in family and ("off_price", "s", "b") in family
    assert to_b[("off_price", "s", "c")].p_value == 1.0
    assert to_b[("off_price", "s", "b")].p_value < 0.01


def test_seat_floor_by_hand() -> None:
    # no excess anywhere: nothing the seat did could make a partner unusual
    assert seat_floor([0.0] * 6, 2, 0.1) == 1.0
    # one trade of four carries 34; one trade with the partner: the permutation can say 1 in 4, the rate
    # (Beta(0.25 x 2, 2 + 3 - 0.5) updated with the three others, none carrying: mean 0.5 / 5) one in one, 0.1
    assert seat_floor([34.0, 0.0, 0.0, 0.0], 1, 0.25) == pytest.approx(2 * 0.1)
    # the floor does not depend on the order the values come in
    assert seat_floor([0.0, 0.0, 34.0, 0.0], 1, 0.25) == seat_floor([34.0, 0.0, 0.0, 0.0], 1, 0.25)


# -- wash cycles: the search is paid for -------------------------------------------------------


@pytest.mark.parametrize("lean", [False, True])
def test_a_wash_cycle_pays_for_every_cycle_the_search_met(lean: bool) -> None:
    """Two wash triangles of wood: each pays for the two cycles the search met.  With the lean on, neither is a
    yardstick of the other (both under test): no outside pair is left, the coin as with it off."""
    g = nx.MultiDiGraph()
    for seats, start in (("abc", 0), ("xyz", 100)):  # two triangles of wood, three laps each
        for lap in range(3):
            for i in range(3):
                u, v = seats[i], seats[(i + 1) % 3]
                g.add_edge(u, v, value=6.0, tick=start + 10 * lap + i, event=f"{seats}{lap}{i}",
                           goods={"wood": 6.0})
    params = {"max_leg_ratio": 1.5, "max_cycle_length": 5, "cycle_threshold": 3, "max_member_imbalance": 0.3,
              "max_search_steps": 10000, "wash_cycle_lean": lean,
              "wash_cycle_in_step": 1.0}  # the direction alone: the correction is what is read here
    flags, _ = wash_cycles(TransferView(g), params)
    # each: nine transfers, all the cycle's way (two-sided: 2 x 2^-9), times the two cycles the search met
    assert [(f.agents, f.p_value, f.details["cyclesSearched"]) for f in flags] == [
        (("a", "b", "c"), 2 * 2 ** -9 * 2, 2), (("x", "y", "z"), 2 * 2 ** -9 * 2, 2)]
    assert all(f.details["minP"] == 2 * 2 ** -9 * 2 for f in flags)


# -- the round-trip curve ----------------------------------------------------------------------

# An honest match's pairs with no seat in a busy pair of acquaintances (trips, trips possible,
# exchanges): one pair (35 of 60) outweighs all the others.  Full Newton steps from the start
# swung further every step (b0 from 0.1 to -5, 1.6, -6.6, 10.8, -92, 198 ...) and ended with a
# rate of 0 and a p-value of 1e-9 for an ordinary pair.
_PAIRS = [(2, 7, 15), (1, 5, 11), (0, 2, 5), (1, 5, 11), (0, 5, 10), (1, 7, 14), (0, 1, 2), (2, 5, 10),
          (1, 8, 16), (2, 7, 14), (7, 11, 22), (0, 2, 4), (0, 1, 3), (2, 12, 24), (7, 18, 36), (7, 11, 23),
          (0, 1, 3), (0, 1, 2), (35, 60, 121), (1, 2, 4), (2, 5, 11), (0, 2, 5), (2, 11, 22), (4, 9, 19),
          (0, 3, 6), (3, 7, 15), (1, 4, 8), (1, 4, 8)]


def test_the_round_trip_curve_is_the_likelihood_maximum_where_full_steps_swing() -> None:
    trips, possible, exchanges = (np.array(c, dtype=float) for c in zip(*_PAIRS))
    rates, logn = trips / possible, np.log(exchanges)
    w = possible[None, :]
    centre = np.array([float(np.median(logn))])
    b0, b1 = _fit(rates, w, logn, centre)
    best = _log_likelihood(b0, b1, rates, w, logn, centre)[0]
    # a fine grid over the plane finds nothing higher (the penalised likelihood is concave)
    g0, g1 = np.meshgrid(np.linspace(-8.0, 4.0, 241), np.linspace(-2.0, 3.0, 201))
    grid = _log_likelihood(g0.ravel(), g1.ravel(), rates, np.repeat(w, g0.size, axis=0), logn,
                           np.repeat(centre, g0.size))
    assert best >= grid.max() - 1e-9
    # and the curve lies among the pairs' own rates: about a third at 28 exchanges
    at = 1 / (1 + np.exp(-(b0[0] + b1[0] * np.log(28.0))))
    assert 0.2 < at < 0.5


def test_the_closed_form_floor_is_the_permutation_tests_smallest_p_value() -> None:
    from daishi_forensics.screens.stats import subset_sum_floor, subset_sum_p

    # by hand: {10, 9} of four is 1 of 6; two of {5, 1, 1, 1}: the 5 and any of three 1s, 3 of 6
    assert subset_sum_floor([10.0, 9.0, 1.0, 0.0], 2) == pytest.approx(1 / 6)
    assert subset_sum_floor([5.0, 1.0, 1.0, 1.0], 2) == pytest.approx(3 / 6)
    rng = np.random.default_rng(7)
    for _ in range(300):  # and it is the table's own smallest, whatever the values and their ties
        n = int(rng.integers(2, 14))
        k = int(rng.integers(1, n))
        values = [float(v) for v in rng.choice([0.0, 0.0, 34.0, 22.0, -10.0, 5.5, 17.25], size=n)]
        chosen = [i < k for i in range(n)]
        assert subset_sum_floor(values, k) == pytest.approx(subset_sum_p(values, chosen)[1], rel=1e-12)
