"""Study statistics: hand-derived intervals, the exact sign-flip test, the confidence sequence, the bootstrap.

Seed 000, *Recomputing a study yourself*, *What it checks*.  Every expected number
below is derived by hand (the derivation is in the comment beside it); the Student
t quantiles are table values: t(2) 4.302653, t(3) 3.182446, t(5) 2.570582 at 0.975.
"""

from __future__ import annotations

import doctest
import itertools
import math
import tracemalloc

import numpy as np
import pytest
from daishi_forensics.study import checks, compare, files, fitness, metrics, page, sources, statistics
from daishi_forensics.study.statistics import (
    HIGHER,
    INCONCLUSIVE,
    LOWER,
    Interval,
    bootstrap_seed,
    clustered_interval,
    clustered_se,
    confidence_sequence,
    percentile_bootstrap,
    sequence_multiplier,
    sign_flip_p,
    t_interval,
    verdict,
)
from scipy import stats


@pytest.mark.parametrize("module", [statistics, compare, fitness, metrics, files, checks, sources, page])
def test_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_t_interval_by_hand() -> None:
    # d = 2, 3, -1, 4, 3, 2: mean 13/6 = 2.166667; sum of squares about the mean 43 - 6 * (13/6)^2 = 14.833333;
    # s^2 = 14.833333 / 5 = 2.966667, s = 1.722401, se = s / sqrt(6) = 0.703167; t(5) = 2.570582;
    # half-width 1.807555: [0.359112, 3.974222].
    interval = t_interval([2.0, 3.0, -1.0, 4.0, 3.0, 2.0], 0.95)
    assert interval is not None
    assert (round(interval.low, 5), round(interval.high, 5)) == (0.35912, 3.97422)


def test_t_interval_cut_to_the_range() -> None:
    # 0.990, 1.000, 0.950: mean 0.98, s^2 = (0.0001 + 0.0004 + 0.0009) / 2 = 0.0007, se = 0.015275;
    # t(2) = 4.302653, half-width 0.065724: [0.914276, 1.045724] cut to coverage's [0, 1].
    interval = t_interval([0.990, 1.000, 0.950], 0.95, (0.0, 1.0))
    assert interval is not None
    assert (round(interval.low, 5), interval.high) == (0.91428, 1.0)


def test_too_few_values_give_no_interval() -> None:
    assert t_interval([1.0], 0.95) is None and t_interval([], 0.95) is None
    assert statistics.mean([]) is None
    assert clustered_interval([1.0, 2.0, 3.0], 0.95, clusters=["a", "a", "a"]) is None


def test_clustered_se_counts_each_cluster_once() -> None:
    # Maps 1, 2, 3 each twice; d = 2, 3 | -1, 4 | 3, 2; map means 2.5, 1.5, 2.5 (mean 13/6).
    # Residual sums per map: 0.666667, -1.333333, 0.666667; squares 0.444444 + 1.777778 + 0.444444 = 2.666667;
    # se = sqrt(3/2 * 2.666667) / 6 = 2 / 6 = 0.333333 (= sd of the map means / sqrt 3).
    d = [2.0, 3.0, -1.0, 4.0, 3.0, 2.0]
    maps = [1, 1, 2, 2, 3, 3]
    assert clustered_se(d, maps) == pytest.approx(1 / 3, abs=1e-12)
    # t(2) = 4.302653: 2.166667 -/+ 1.434218 = [0.732449, 3.600885].
    interval = clustered_interval(d, 0.95, clusters=maps)
    assert interval is not None
    assert (round(interval.low, 5), round(interval.high, 5)) == (0.73245, 3.60088)
    # One value per cluster is the plain standard error s / sqrt(n).
    assert clustered_se(d) == pytest.approx(clustered_se(d, list(range(6))), abs=0)
    assert clustered_se(d) == pytest.approx(math.sqrt(14.833333333333334 / 5) / math.sqrt(6), abs=1e-12)


def test_confidence_sequence_by_hand() -> None:
    # d = 0.050, 0.040, 0.050, 0.060: mean 0.05, s^2 = 0.0002 / 3, se = s / 2 = 0.00408248.
    # rho = 0.5, n = 4: n rho^2 = 1, multiplier sqrt(2 * 2 / 1 * ln(sqrt(2) / 0.05)) = sqrt(4 * 3.342237) = 3.656395;
    # half-width 0.0149272: [0.0350728, 0.0649272].
    assert sequence_multiplier(4, 0.95, 0.5) == pytest.approx(3.656395, abs=1e-6)
    interval = confidence_sequence([0.050, 0.040, 0.050, 0.060], 0.95, 0.5)
    assert interval is not None
    assert (round(interval.low, 6), round(interval.high, 6)) == (0.035073, 0.064927)


def test_confidence_sequence_is_wider_than_t_at_the_same_n() -> None:
    values = [0.3, -0.1, 0.5, 0.2, 0.4, 0.1, 0.0, 0.6]
    cs = confidence_sequence(values, 0.95, 0.5)
    t = t_interval(values, 0.95)
    assert cs is not None and t is not None and cs.low < t.low and cs.high > t.high


def test_sign_flip_by_hand() -> None:
    # |d| = 2, 3, 1, 4, 3, 2 (total 15), observed sum 13: |S| >= 13 when the flipped sizes sum to <= 1 or >= 14:
    # {} and {1} and their complements: 4 of 64.
    assert sign_flip_p([2000, 3000, -1000, 4000, 3000, 2000]) == 0.0625
    # All six positive: only all-plus and all-minus reach |S| = 33: 2 of 64.
    assert sign_flip_p([5000, 6000, 4000, 7000, 5000, 6000]) == 0.03125
    # A zero changes nothing.
    assert sign_flip_p([5000, 0, 6000]) == sign_flip_p([5000, 6000]) == 0.5


def test_sign_flip_matches_brute_force_and_scipy() -> None:
    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(1, 10))
        units = [int(u) for u in rng.integers(-40, 41, size=n) * int(rng.choice([1, 10, 100]))]
        observed = abs(sum(units))
        hits = sum(1 for signs in itertools.product((1, -1), repeat=n)
                   if abs(sum(s * abs(u) for s, u in zip(signs, units, strict=True))) >= observed)
        assert sign_flip_p(units) == hits / 2**n
        if n >= 2 and any(units):  # scipy's test needs two observations
            exact = stats.permutation_test((np.array(units, dtype=float),), np.sum, permutation_type="samples",
                                           n_resamples=np.inf, alternative="two-sided")
            assert sign_flip_p(units) == pytest.approx(exact.pvalue, abs=1e-12)


def test_sign_flip_is_exact_past_double_precision() -> None:
    # 80 differences of 1 and one of 80: the count runs past 2**53, counted with whole numbers.
    units = [1] * 80 + [80]
    p = sign_flip_p(units)
    assert p is not None and 0 < p < 1
    # The sum is 160 of a possible 160: only all-plus and all-minus -> 2 / 2**81.
    assert p == 2 / 2**81


def test_sign_flip_of_huge_differences_is_exact_in_bounded_memory() -> None:
    # |d| = 1e12, 5, 3, 1 (thousandths), observed sum 1e12 + 3: with +1e12 the small signs must add to >= 3
    # (5+3+1, 5+3-1, 5-3+1: 3 of 8), and as many with -1e12: 6 of 16.  A table of the sums would need 5e11 cells.
    tracemalloc.start()
    try:
        assert sign_flip_p([10**12, 5, -3, 1]) == 0.375
        # 16 differences near a billion units: every one of the 2**16 sign patterns counted by brute force.
        rng = np.random.default_rng(11)
        units = [int(u) for u in rng.integers(-(10**9), 10**9, size=16)]
        observed = abs(sum(units))
        hits = sum(1 for signs in itertools.product((1, -1), repeat=16)
                   if abs(sum(s * abs(u) for s, u in zip(signs, units, strict=True))) >= observed)
        assert sign_flip_p(units) == hits / 2**16
        # 40 pairs of differences near 900,000 points: at most 2**20 sums a half.
        assert sign_flip_p([900_000_000 + 7 * i for i in range(40)]) == 2 / 2**40
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20


def test_sign_flip_too_large_for_either_method_is_refused() -> None:
    # 41 pairs (past enumeration) whose table would need about 8e9 cells (past TABLE_CELLS).
    with pytest.raises(statistics.SignFlipTooLarge, match="41 pairs") as caught:
        sign_flip_p([(-1) ** i * (400_000_000 + i) for i in range(41)])
    assert caught.value.pairs == 41 and caught.value.bound > statistics.TABLE_CELLS


def test_bootstrap_is_seeded_and_within_the_data() -> None:
    d = [5.0, 6.0, 4.0, 7.0, 5.0, 6.0]
    seed = bootstrap_seed("s_hand", 2)
    first = percentile_bootstrap(d, 0.95, seed)
    assert first == percentile_bootstrap(d, 0.95, seed)
    assert first is not None and 4.0 <= first.low <= first.high <= 7.0
    assert percentile_bootstrap([1.0], 0.95, seed) is None
    assert percentile_bootstrap([2.0, 2.0, 2.0], 0.95, seed) == Interval(2.0, 2.0)
    assert bootstrap_seed("s_hand", 2) != bootstrap_seed("s_hand", 1)


def test_verdict_rules() -> None:
    up, down, across = Interval(0.1, 2.0), Interval(-2.0, -0.1), Interval(-1.0, 1.0)
    assert verdict("fixed", 0.95, up, 0.03125, up) == HIGHER
    assert verdict("fixed", 0.95, down, 0.03125, down) == LOWER
    assert verdict("fixed", 0.95, up, 0.0625, up) == INCONCLUSIVE  # p over 1 - level
    assert verdict("fixed", 0.95, up, 0.03125, across) == INCONCLUSIVE  # the bootstrap crosses zero
    assert verdict("fixed", 0.95, across, 0.01, up) == INCONCLUSIVE
    assert verdict("fixed", 0.95, None, None, None) == INCONCLUSIVE
    assert verdict("anytime", 0.95, up, 0.5, None) == HIGHER  # the sequence alone decides
    assert verdict("anytime", 0.95, across, 0.001, None) == INCONCLUSIVE


def test_comparison_tolerance_near_zero_keeps_its_side() -> None:
    assert compare.comparison_same(2.1666666, 2.167, 3)
    assert compare.comparison_same(2.1684, 2.167, 3)  # one unit
    assert not compare.comparison_same(2.1686, 2.167, 3)  # two units
    assert compare.comparison_same(0.00041, 0.0004, 3)  # kept at 4 places near zero
    assert not compare.comparison_same(-0.00004, 0.00004, 3)  # other side of zero
    assert not compare.comparison_same(0.0004, 0.0, 3)
    assert compare.comparison_same(0.44794, 0.4479, 4) and not compare.comparison_same(0.4482, 0.4479, 4)
    assert compare.arm_same(56.6666, 56.67) and compare.arm_same(56.6666, 56.66)
    assert not compare.arm_same(56.6666, 56.65)
    assert compare.model_same(57.75, 57.8) and not compare.model_same(57.75, 57.7)  # half away from zero
    assert compare.exact_same(0.0625, 0.0625) and not compare.exact_same(0.0625, 0.0626)
    assert compare.exact_same("higher", "higher") and not compare.exact_same(None, "higher")


def test_fitness_half_tie_is_rounded_on_the_double() -> None:
    # 0.25*93.0 + 0.25*29.5 + 0.2*74.3 + 0.15*35.8 + 0.15*17.3 = 53.45 exactly; on doubles, added left to right,
    # 53.449999999999996, which floor(x * 10 + 0.5) / 10 takes to 53.5 (x * 10 rounds to 534.5); round() says 53.4.
    dims = {"survival": 93.0, "economy": 29.5, "social": 74.3, "adaptation": 35.8, "competitiveness": 17.3}
    assert fitness.seat_fitness(dims) == 53.5
    assert round(sum(w * dims[n] for n, w in fitness.WEIGHTS), 1) == 53.4
    assert fitness.seat_fitness({**dims, "social": None}) is None
    # A trial's value: the mean of its focal seats, half up at three decimals.
    assert fitness.trial_value_units([0.940, 0.960]) == 950
    assert fitness.trial_value_units([]) is None


def test_sign_flip_too_large_names_the_cells_the_limit_is_on() -> None:
    # 100 pairs need 2 lanes: a bound of about 20,000,000 sums is about 40,000,000 cells, past TABLE_CELLS,
    # which the bound alone is not (the message said "a table of 20,002,451 cells, past the 33,554,432 allowed")
    with pytest.raises(statistics.SignFlipTooLarge) as caught:
        sign_flip_p([(-1) ** i * (400_000 + i) for i in range(100)])
    exc = caught.value
    assert exc.pairs == 100 and exc.lanes == 2
    assert exc.lanes * (exc.bound + 1) > statistics.TABLE_CELLS >= exc.bound + 1
    assert str(exc) == (f"the exact sign-flip test of 100 pairs summing past {exc.bound:,} thousandths each way "
                        f"would need a table of {2 * (exc.bound + 1):,} cells (2 lanes of {exc.bound + 1:,}), past "
                        "the 33,554,432 allowed (at most 40 pairs are counted whatever their size)")


def test_sign_flip_too_large_gives_its_bound_in_thousandths() -> None:
    # differences that are whole multiples of 1.000 are counted in steps of 1,000 thousandths: the message
    # gave the bound in those steps ("past 20,002,450 thousandths"), a thousandth of the true figure
    with pytest.raises(statistics.SignFlipTooLarge) as caught:
        sign_flip_p([(-1) ** i * (400_000 + i) * 1000 for i in range(100)])
    assert caught.value.step == 1000 and caught.value.bound == 20_002_450
    assert str(caught.value).startswith("the exact sign-flip test of 100 pairs summing past 20,002,450,000 "
                                        "thousandths each way (counted in steps of 1,000, the differences' common "
                                        "divisor) would need a table of 40,004,902 cells (2 lanes of 20,002,451)")
