"""Costs that grew faster than the match, cut without changing a result: the fan screen's boxes, the wash
cycles' laps, the off-price screen's permutation tables, the study's exact sign-flip test."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any
from fractions import Fraction

import numpy as np
import pytest
from daishi_forensics.screens import fans, stats, wash_cycle
from daishi_forensics.study import statistics


def _alternating(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One hub, two pairs taking turns (A at even positions, B at odd), one window holding them all:
    A always pays 10; B pays 10 at positions 1, 5, 9... and 30 at 3, 7, 11...."""
    pair = np.arange(n) % 2
    value = np.where((pair == 0) | (np.arange(n) % 4 == 1), 10.0, 30.0)
    order = np.lexsort((np.arange(n), pair))
    previous = np.full(n, -1)
    same = pair[order[1:]] == pair[order[:-1]]
    previous[order[1:][same]] = order[:-1][same]
    return pair, np.log(value), previous


def test_box_counts_by_pairs_counts_each_pair_at_its_first_point() -> None:
    # 40 points, every window to the end: 820 points read one by one, 4 x 40 x 2 = 320 by pairs (looked up).
    n = 40
    pair, logv, previous = _alternating(n)
    span_len = n - np.arange(n)
    tick = np.arange(n, dtype=float)
    looked = fans._first_points(logv, pair, span_len, math.log(2.0), None, tick, np.ones(n, dtype=np.int64))
    assert looked.all()
    count, _ = fans._box_counts(logv, pair, span_len, math.log(2.0) + 1e-12, None, tick, previous)
    # the other pair counts where its first point after the anchor is within the band (a ratio of 2): an A anchor
    # (10) sees B's next point, 10 at positions 4m + 1, 30 at 4m + 3; a B anchor sees A's next, 10: its own 10 only.
    # The last point has nothing after it.
    expected = [2 if a % 4 in (0, 1) else 1 for a in range(n)]
    expected[-1] = 1
    assert count.tolist() == expected


def test_box_counts_of_no_points() -> None:
    none = np.zeros(0)
    count, total = fans._box_counts(none, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 0.1, None, none,
                                    np.zeros(0, dtype=np.int64))
    assert count.shape == total.shape == (0,)


def test_box_counts_by_pairs_as_read_point_by_point() -> None:
    # the two ways of counting agree on random hubs, ticks, amounts and windows (each pair once)
    rng = np.random.default_rng(1)
    looked_up = 0
    for _ in range(300):
        n = int(rng.integers(2, 200))
        hub = np.sort(rng.integers(0, 3, n))
        tick = rng.integers(0, int(rng.integers(1, 100)), n).astype(float)
        tick = tick[np.lexsort((tick, hub))]
        pair = hub * 100 + rng.integers(0, int(rng.integers(1, 12)), n)
        logv = np.log(rng.choice([1.0, 2.0, 2.1, 5.0], n))
        w = float(rng.integers(0, 40))
        key = hub * 1000.0 + tick
        span_len = np.searchsorted(key, key + w, side="right") - np.arange(n)
        order = np.lexsort((np.arange(n), pair))
        previous = np.full(n, -1)
        same = pair[order[1:]] == pair[order[:-1]]
        previous[order[1:][same]] = order[:-1][same]
        band = math.log(2.0) + 1e-12
        last = tick + rng.integers(0, 10, n)
        for with_last in (None, last):
            one_by_one = np.ones(n, dtype=np.int64)
            for a in range(n):
                for j in range(a + 1, a + int(span_len[a])):
                    if abs(logv[j] - logv[a]) <= band and pair[j] != pair[a] and previous[j] < a \
                            and (with_last is None or with_last[j] <= tick[a] + w):
                        one_by_one[a] += 1
            count, _ = fans._box_counts(logv, pair, span_len, band, with_last, tick + w, previous)
            assert count.tolist() == one_by_one.tolist()
        looked_up += int(fans._first_points(logv, pair, span_len, band, None, tick + w,
                                            np.ones(n, dtype=np.int64)).sum())
    assert looked_up > 1000  # the pairs' way was taken


def _laps_one_by_one(cycle: tuple[int, ...], legs: dict[tuple[int, int], list[tuple]],
                     ratio: float) -> list[list[tuple]]:
    """The module rule read literally: each lap's first transfer in turn, every later leg scanned from the start."""
    edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
    used: set[tuple[int, int]] = set()
    laps = []
    for i0, first in enumerate(legs[edges[0]]):
        picks, tick = [(0, i0)], first[0]
        for k in range(1, len(edges)):
            pick = next((i for i, t in enumerate(legs[edges[k]]) if t[0] >= tick and (k, i) not in used
                         and min(first[1], t[1]) > 0 and max(first[1], t[1]) <= ratio * min(first[1], t[1])), None)
            if pick is None:
                break
            picks.append((k, pick))
            tick = legs[edges[k]][pick][0]
        if len(picks) == len(edges):
            used.update(picks)
            laps.append([legs[edges[k]][i] for k, i in picks])
    return laps


def test_laps_stop_where_the_second_leg_is_spent() -> None:
    # leg a->b has 1,000 transfers, b->c and c->a two each: two laps, then no lap can start (a->b's ticks only
    # grow past b->c's last unused transfer)
    legs = {(0, 1): [(t, 5.0, (f"ab{t}",)) for t in range(1000)],
            (1, 2): [(3, 5.0, ("bc3",)), (10, 5.0, ("bc10",))],
            (2, 0): [(4, 5.0, ("ca4",)), (12, 5.0, ("ca12",))]}
    laps = wash_cycle._laps((0, 1, 2), legs, 1.5, {})
    assert [[t[2][0] for t in lap] for lap in laps] == [["ab0", "bc3", "ca4"], ["ab1", "bc10", "ca12"]]


def test_laps_of_legs_one_after_another() -> None:
    # each leg wholly after the one before (friends trading at different times of the match): every lap takes the
    # earliest unused transfer of each later leg, which lies past all the used ones (the search before read them
    # one by one, the square of the leg; bench/wash_laps.py measures it)
    n = 300
    legs = {(0, 1): [(t, 5.0, (f"a{t}",)) for t in range(n)],
            (1, 2): [(n + t, 5.0, (f"b{t}",)) for t in range(n)],
            (2, 0): [(2 * n + t, 5.0, (f"c{t}",)) for t in range(n)]}
    laps = wash_cycle._laps((0, 1, 2), legs, 1.5)
    assert [[t[2][0] for t in lap] for lap in laps] == [[f"a{i}", f"b{i}", f"c{i}"] for i in range(n)]
    assert laps == _laps_one_by_one((0, 1, 2), legs, 1.5)


def test_laps_as_the_rule_reads() -> None:
    """Random legs, short (up to 25 transfers) and long (up to 300, where the used transfers a leg's search skips
    run long): the laps are the rule's read literally."""
    rnd = random.Random(3)
    for case in range(440):
        size = rnd.randint(3, 5)
        cycle = tuple(range(size))
        most, span = (25, 40) if case < 400 else (300, 400)
        legs = {}
        for i in range(size):
            edge = (cycle[i], cycle[(i + 1) % size])
            legs[edge] = sorted(((rnd.randint(0, span), rnd.choice([1.0, 1.2, 2.0, 5.0]), (f"{i}.{j}",))
                                 for j in range(rnd.randint(0, most))), key=lambda t: t[0])
        ticks_of: dict = {}
        for k in range(size):
            turned = cycle[k:] + cycle[:k]
            assert wash_cycle._laps(turned, legs, 1.5, ticks_of) == _laps_one_by_one(turned, legs, 1.5)


def test_sign_flip_past_62_pairs_by_hand() -> None:
    # 63 differences of +1 and one of -1: observed 62 of a total 64, so |S| >= 62 when the plus-signed sizes sum to
    # at most 1 or at least 63: 1 + 64 patterns each side, 130 of 2^64 (counted modulo two primes)
    assert statistics.sign_flip_p([1] * 63 + [-1]) == 130 / 2**64
    # two of -1: total 65, observed 61, plus-signed sum at most 2: 1 + 65 + C(65, 2) = 2,146 each side
    assert statistics.sign_flip_p([1] * 63 + [-1] * 2) == 4292 / 2**65
    # more pairs than the 17 primes count (1,019): whole numbers; 1,100 of +1 and one of -1: 2 x (1 + 1,101)
    assert statistics.sign_flip_p([1] * 1100 + [-1]) == float(Fraction(2204, 2**1101))


def test_sign_flip_counts_as_whole_numbers_do() -> None:
    # the table of every sum with Python's whole numbers, as the test was first written, against the lanes
    rng = np.random.default_rng(5)
    for _ in range(200):
        n = int(rng.integers(1, 140))
        top = int(rng.choice([2, 5, 30, 300]))
        units = [int(u) for u in rng.integers(-top, top + 1, size=n)]
        sizes = [abs(u) for u in units if u]
        if not sizes:
            continue
        counts = [1] + [0] * sum(sizes)
        for s in sizes:
            counts = [c + (counts[t - s] if t >= s else 0) for t, c in enumerate(counts)]
        observed = abs(sum(units))
        extreme = sum(c for t, c in enumerate(counts) if abs(2 * t - sum(sizes)) >= observed)
        assert statistics.sign_flip_p(units) == float(Fraction(extreme, 2 ** len(sizes)))


def test_shared_subset_tables_are_each_counts_own_bit_for_bit() -> None:
    # a seat's signed excess (most trades none, a few lots) asked about with several counts: the counts that round
    # alike share one table, and each count's tails are the bytes its own table gives
    rng = np.random.default_rng(2)
    shared = 0
    for n in (40, 300, 623):
        values = tuple(float(v) for v in rng.choice([0.0, 0.0, 0.0, 12.0, 34.0, -5.0, 46.0], n))
        ks = [2, 3, 4, 5, 9, 30] if n > 40 else [2, 3, 4, 5, 9, 30, 39]
        groups: dict[int, list[int]] = {}
        for k in ks:
            if stats._exact_fits(n, k, stats.GRID):
                groups.setdefault(stats._subset_steps(n, k, stats.GRID), []).append(k)
        for steps, group in groups.items():
            ints, tails = stats._shared_tails(values, group, steps)
            for k, tail in zip(group, tails, strict=True):
                own_ints, own = stats._subset_tails.__wrapped__(values, k, stats.GRID)
                assert ints == own_ints and tail.tobytes() == own.tobytes()
                shared += len(group) > 1
    assert shared >= 4


def test_subset_sum_share_changes_no_p_value() -> None:
    # 2 of 5 values chosen, by hand: the sums of the C(5, 2) = 10 pairs of rounded values reaching 10 + 9: one
    values = [10.0, 9.0, 1.0, 0.0, 4.0]
    chosen = [True, True, False, False, False]
    alone = stats.subset_sum_p(values, chosen)
    shared: stats.SharedTails = {}
    stats.subset_sum_share(values, [1, 2, 3], shared)
    assert (tuple(values), 2, stats.GRID) in shared
    assert stats.subset_sum_p(values, chosen, shared=shared) == alone == (0.1, 0.1)


def test_subset_rows_by_size_count_as_brute_force() -> None:
    # every row of the table by distinct size against the subsets themselves
    rnd = random.Random(4)
    for _ in range(60):
        ints = tuple(rnd.choice([0, 0, 0, 1, 3, 4, 7]) for _ in range(rnd.randint(1, 11)))
        k = rnd.randint(1, len(ints))
        top = sum(sorted(ints, reverse=True)[:k])
        table = stats._rows_by_size(ints, k, top)
        for j in range(k + 1):
            sums = [sum(c) for c in itertools.combinations(ints, j)]
            assert table[j].tolist() == [float(sums.count(s)) for s in range(top + 1)]


def test_subset_tails_past_53_bits_keep_the_values_order() -> None:
    # C(623, 8) is past 2^53: the table is made value by value (rounded counts, in the values' order): a seat of the
    # hub's kind, 600 trades with no excess and 23 lots, the 8 largest chosen: the share is the floor
    values = tuple([0.0] * 600 + [12.0 * (1 + i % 5) for i in range(23)])
    assert math.comb(623, 8) > 2**53
    ints, tail = stats._subset_tails.__wrapped__(values, 8, stats.GRID)
    chosen = sorted(range(623), key=lambda i: -values[i])[:8]
    observed = sum(ints[i] for i in chosen)
    assert float(tail[observed]) / float(tail[0]) == pytest.approx(
        stats.subset_sum_floor(values, 8), rel=1e-12)


def test_tilt_stops_where_halving_moves_nothing() -> None:
    # the bisection returns once its ends are neighbouring floats: the float 200 halvings give, in fewer steps
    def halved_200(slope: Any) -> float:
        hi = 1.0
        while slope(hi) < 0:
            hi *= 2.0
        lo = 0.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if slope(mid) < 0:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    for root in (0.3, 1e-9, 7.25, 1234.5678, 2.0**-40, 0.1 + 0.2):
        calls: list[float] = []

        def slope(t: float, root: float = root, calls: list[float] = calls) -> float:
            calls.append(t)
            return t - root

        assert stats._tilt(slope) == halved_200(lambda t, root=root: t - root)
        assert len(calls) < 120
