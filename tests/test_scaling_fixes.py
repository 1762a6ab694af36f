"""Long matches: statistics that overflowed or cancelled on large inputs, and the round-trip ring's
search of ticks, which read every round trip at every tick (cubic in a long match's round trips)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from daishi_forensics.screens import wash_ring
from daishi_forensics.screens.graph import Exchange
from daishi_forensics.screens.stats import nbinom_sf, product_p


def test_product_p_many_p_values_does_not_fall_to_one() -> None:
    # Fisher's combination of 400 p-values of 0.1: P(chi2 with 800 df >= 2 x 400 ln 10), which is
    # P(Poisson(921.03) <= 399) = 6.1317981314e-84 (scipy.stats.chi2.sf(1842.07, 800) says the same).
    # t = e^-921 underflows to 0 and the sum of x^j / j! overflows: 0 x inf, a NaN min() read as 1.
    assert product_p([0.1] * 400) == pytest.approx(6.131798131410006e-84, rel=1e-9)
    # 1,100 p-values of 0.3: P(Poisson(1324.39) <= 1099) = 9.896136807861e-11 (a z of -6.2)
    assert product_p([0.3] * 1100) == pytest.approx(9.896136807861195e-11, rel=1e-9)
    assert product_p([0.5] * 1100) == pytest.approx(1.0)  # x = 762 < 1,100: nothing unusual
    log_t = math.log(0.1) + math.log(0.1)
    assert product_p([0.1, 0.1]) == math.exp(log_t) * (1 - log_t)  # a small case: t (1 - ln t), the same bytes


def test_nbinom_sf_far_tail_is_not_zero() -> None:
    # mean 1,000, variance 2,000: a negative binomial of size 1,000 and chance 1/2.  P(X >= 1500) =
    # 5.3199117877e-24 (scipy.stats.nbinom.sf(1499, 1000, 0.5)); 1 less the lower part gave exactly 0.
    assert nbinom_sf(1500, 1000.0, 2.0) == pytest.approx(5.3199117876803036e-24, rel=1e-9)
    assert nbinom_sf(1800, 1000.0, 2.0) == pytest.approx(1.1721277996992888e-52, rel=1e-9)
    assert nbinom_sf(500, 1000.0, 2.0) == 1.0  # below the mean: the complement, as before


def _trip(a: str, b: str, good: str, value: float, start: int, end: int, key: int) -> wash_ring._Trip:
    x = Exchange(a, b, start, f"x{key}", gave={a: value, b: value}, goods={a: {good: value}, b: {"coin": value}},
                 events=(f"x{key}",))
    y = Exchange(a, b, end, f"y{key}", gave={a: value, b: value}, goods={b: {good: value}, a: {"coin": value}},
                 events=(f"y{key}",))
    return wash_ring._Trip(x, y)


def _together_by_reading_every_trip(cycle: tuple[Any, ...], legs: list[wash_ring._Leg],
                                    ratio: float) -> wash_ring._Episode | None:
    """The rule as it was written first: every round trip read at every tick (the reference)."""
    best = fallback = None
    anchors = wash_ring.ordered({(t.value, g) for leg in legs for t in leg.trips for g in t.goods})
    for floor_value, good in anchors:
        ceiling = floor_value * ratio * (1 + 1e-12)
        fits = []
        for leg in legs:
            fit = [t for t in leg.trips if floor_value <= t.value <= ceiling and good in t.goods]
            if not fit:
                break
            fits.append(fit)
        else:
            for tick in wash_ring.ordered({t.start for fit in fits for t in fit}):
                under_way = [[t for t in fit if t.start <= tick <= t.end] for fit in fits]
                if not all(under_way):
                    if best is None and all(min(t.start for t in fit) <= tick <= max(t.end for t in fit)
                                            for fit in fits):
                        interleaved = wash_ring._Episode(
                            tick, good, [min(fit, key=lambda t: (wash_ring._distance(t, tick), t.start, t.end))
                                         for fit in fits], None, None, together=False)
                        if fallback is None or tick < fallback.tick:
                            fallback = interleaved
                    continue
                lap = wash_ring._lap_of(cycle, under_way, good)
                found = wash_ring._Episode(tick, good, *lap) if lap is not None else wash_ring._Episode(
                    tick, good, [min(u, key=lambda t: (t.start, t.end)) for u in under_way], None, None)
                if best is None or (found.path is None, found.tick) < (best.path is None, best.tick):
                    best = found
                break
    return best if best is not None else fallback


def _seen(episode: wash_ring._Episode | None) -> Any:
    if episode is None:
        return None
    return (episode.tick, episode.good, episode.together, [t.events for t in episode.trips], episode.path,
            episode.hand_offs)


def test_round_trip_ring_ticks_counted_not_read_one_by_one() -> None:
    # Three pairs with a few round trips each, at random ticks, values and goods: the episode found
    # (tick, good, round trips, lap) is the one reading every round trip at every tick finds.
    rng = random.Random(20)
    cycle = ("a", "b", "c")
    pairs = [("a", "b"), ("b", "c"), ("a", "c")]
    kinds = {"together": 0, "interleaved": 0, "none": 0}
    for case in range(300):
        legs = []
        for p, (u, v) in enumerate(pairs):
            trips = []
            for n in range(rng.randint(1, 6)):
                start = rng.randint(0, 30)
                trips.append(_trip(u, v, rng.choice(["wood", "ore"]), rng.choice([6.0, 7.0, 12.0]), start,
                                   start + rng.randint(0, 8), 100 * case + 10 * p + n))
            legs.append(wash_ring._Leg(trips, 1.5))
        expected = _together_by_reading_every_trip(cycle, legs, 1.5)
        assert _seen(wash_ring._together(cycle, legs, 1.5)) == _seen(expected)
        kinds["none" if expected is None else "together" if expected.together else "interleaved"] += 1
    assert all(kinds.values()), kinds  # every outcome met


def test_under_way_counts_a_trip_back_the_tick_it_set_out() -> None:
    trips = [_trip("a", "b", "wood", 6.0, 5, 5, 1), _trip("a", "b", "wood", 6.0, 8, 12, 2)]
    under_way = wash_ring._UnderWay(trips)
    assert [under_way.at(t) for t in (4, 5, 6, 8, 12, 13)] == [False, True, False, True, True, False]


def _passed_on_reading_every_payment(index: Any, last: Any, value: Any, cut: float, pass_on: int) -> Any:
    """The value chains' next hops as first written: every payment of each window read (the reference)."""
    import numpy as np

    parent, nxt = index.following(last)
    x = value[last][parent]
    ok = (value[nxt] <= x) & (value[nxt] >= x * (1.0 - cut))
    parent, nxt = parent[ok], nxt[ok]
    if parent.shape[0] == 0:
        return parent, nxt
    tick = index.arrays.tick
    start = np.flatnonzero(np.concatenate([[True], parent[1:] != parent[:-1]]))
    rank = np.arange(parent.shape[0]) - np.repeat(start, np.diff(np.append(start, parent.shape[0])))
    limit_at = np.minimum(start + pass_on - 1, np.append(start[1:], parent.shape[0]) - 1)
    group = np.repeat(np.arange(start.shape[0]), np.diff(np.append(start, parent.shape[0])))
    keep = (rank < pass_on) | (tick[nxt] <= tick[nxt[limit_at[group]]])
    return parent[keep], nxt[keep]


def test_value_chains_find_the_same_hops_reading_less() -> None:
    # windows of a few payments and of hundreds (a long match's, a share of its span), ticks shared by
    # several payments, bands that hold many or few of them: the hops are those reading every payment
    # finds, whatever the batches
    import networkx as nx
    import numpy as np
    from daishi_forensics.screens import value_cycles
    from daishi_forensics.screens.transfer_arrays import PaymentIndex, transfer_arrays

    rng = random.Random(7)
    read_whole = read_some = 0
    for transfers, nodes, ticks, window in ((300, 8, 60, 12.0), (4000, 4, 400, 150.0), (3000, 6, 100, 100.0)):
        graph = nx.MultiDiGraph()
        for i in range(transfers):
            u, v = rng.sample(range(nodes), 2)
            graph.add_edge(u, v, value=float(rng.choice([10, 9, 8, 20, 40, 3])), tick=rng.randint(0, ticks), event=i)
        arrays = transfer_arrays(graph)
        index = PaymentIndex(arrays, window)
        rows = np.arange(arrays.size)
        lo, hi = index.spans(arrays.dst[rows], arrays.tick[rows])
        read_whole += int((hi - lo <= value_cycles._FIRST_READ).sum())
        read_some += int((hi - lo > value_cycles._FIRST_READ).sum())
        for cut, pass_on in ((0.25, 1), (0.25, 2), (0.05, 3), (0.9, 1)):
            expected = _passed_on_reading_every_payment(index, rows, arrays.value, cut, pass_on)
            assert expected[0].shape[0] > 0
            for batch, pairs in ((20_000, 10**9), (7, 10**9), (20_000, 1), (3, 500)):
                found = value_cycles._passed_on(index, rows, arrays.value, cut, pass_on, batch=batch, pairs=pairs)
                assert [a.tolist() for a in found] == [a.tolist() for a in expected]
    assert read_whole > 300 and read_some > 3000  # both ways of reading a window were taken


def test_sign_flip_p_beyond_the_exact_table_is_a_valid_bound() -> None:
    """20,000 exchanges of one size, 10,300 one way: the exact two-sided share is twice a binomial tail,
    P(Binomial(20000, 1/2) >= 10300).  The Chernoff bound (beyond 16,384 values, where the exact table's
    work grows as the square of the count) is at or above it, and at or below Hoeffding's
    2 exp(-600^2 / (2 x 20000)) = 2 e^-9."""
    from daishi_forensics.screens.stats import binom_sf, sign_flip_p

    values = [1.0] * 10_300 + [-1.0] * 9_700
    p, smallest = sign_flip_p(values)
    exact = 2 * binom_sf(10_300, 20_000, 0.5)
    assert exact <= p <= 2 * math.exp(-9.0)
    assert smallest == 0.0  # every sign one way: 2 x 2^-20000, below the smallest float
    # at or under the exact table's limit, the count is exact: 16,384 values, the same as before
    short = [1.0] * 8_400 + [-1.0] * 7_984
    assert sign_flip_p(short)[0] == pytest.approx(2 * binom_sf(8_400, 16_384, 0.5), rel=1e-6)
