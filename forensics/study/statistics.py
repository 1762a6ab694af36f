"""The statistics a study's page reads: means, intervals, the exact sign-flip test, the verdict.

Seed 000, *Recomputing a study yourself*, *What it checks*: for each comparison
against the control "the mean paired difference, the interval (Student t, cut to
the metric's range, or the confidence sequence under the anytime rule), the
interval that counts each map once where maps repeat, the exact sign-flip test,
and the verdict, with the percentile bootstrap the fixed rule also needs run
inside it"; for each arm its mean and 95% interval; for each model its mean
Fitness Index "with the interval counting each trial once".

Every interval here is ``centre ± multiplier × standard error``:

* the standard error is the cluster-robust one (:func:`clustered_se`), which with
  one value per cluster is the familiar ``s / √n``, and with several values per
  cluster (pairs on a repeated map, seats of one trial) counts each cluster once
  (readings ``map-interval``, ``model-interval``);
* the multiplier is Student t's quantile with clusters − 1 degrees of freedom
  (:func:`t_multiplier`, from scipy), or under the anytime rule the asymptotic
  confidence sequence's (:func:`sequence_multiplier`, reading
  ``confidence-sequence``).

The sign-flip test (:func:`sign_flip_p`) is exact: it counts, over all 2ⁿ sign
assignments, those whose sum is at least as far from zero as the observed one, on
the whole-number grid the trials file holds (thousandths), so ties are decided
exactly.  The bootstrap is scipy's percentile bootstrap with a seeded generator
(:func:`percentile_bootstrap`), so the same files give the same verdict.

>>> i = t_interval([2.0, 3.0, -1.0, 4.0], 0.95)  # 2 ± 3.182446 × sqrt(14/3) / 2
>>> round(i.low, 4), round(i.high, 4)
(-1.4374, 5.4374)
>>> sign_flip_p([2000, 3000, -1000, 4000])  # |sum| >= 8 in 4 of 16 sign patterns
0.25
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce

import numpy as np
from scipy import stats

__all__ = [
    "HIGHER",
    "LOWER",
    "INCONCLUSIVE",
    "VERDICTS",
    "BOOTSTRAP_RESAMPLES",
    "Interval",
    "mean",
    "clustered_se",
    "t_multiplier",
    "sequence_multiplier",
    "t_interval",
    "confidence_sequence",
    "clustered_interval",
    "sign_flip_p",
    "SignFlipTooLarge",
    "ENUMERATED_PAIRS",
    "TABLE_CELLS",
    "bootstrap_seed",
    "percentile_bootstrap",
    "verdict",
]

HIGHER = "higher"
"""The arm's values are higher than the control's."""
LOWER = "lower"
"""The arm's values are lower than the control's."""
INCONCLUSIVE = "inconclusive"
"""Neither shown at the comparison's level."""
VERDICTS = (HIGHER, LOWER, INCONCLUSIVE)

BOOTSTRAP_RESAMPLES = 9999
"""Resamples of the percentile bootstrap (scipy's default; reading ``bootstrap``)."""


@dataclass(frozen=True)
class Interval:
    """A closed interval ``[low, high]``."""

    low: float
    high: float

    def cut(self, bounds: tuple[float, float] | None) -> Interval:
        """The interval kept within ``bounds`` ("cut to the metric's range"); unchanged without bounds."""
        if bounds is None:
            return self
        return Interval(min(max(self.low, bounds[0]), bounds[1]), max(min(self.high, bounds[1]), bounds[0]))


def mean(values: Sequence[float]) -> float | None:
    """The mean (a correctly rounded sum over n); None for no values.

    >>> mean([61.5, 58.0, 70.25]), mean([])
    (63.25, None)
    """
    if not values:
        return None
    return math.fsum(values) / len(values)


def clustered_se(values: Sequence[float], clusters: Sequence[Hashable] | None = None) -> float | None:
    """The standard error of the mean, counting each cluster once.

    ``sqrt(G / (G - 1) * Σ_g (Σ_{i in g} (x_i - x̄))²) / N`` over ``G`` clusters and
    ``N`` values: the cluster-robust (sandwich) error of a mean with the small-sample
    factor ``G / (G - 1)``.  With one value per cluster (``clusters`` None) it is
    ``s / √N`` with ``s`` the sample standard deviation; with clusters of equal size
    it is the standard error of the cluster means.  None with fewer than two clusters.

    >>> round(clustered_se([2.0, 3.0, -1.0, 4.0]), 6)  # sqrt(14/3) / 2
    1.080123
    >>> round(clustered_se([1.0, 3.0, 5.0, 7.0], ["a", "a", "b", "b"]), 6)  # means 2 and 6: sqrt(8/2)/...
    2.0
    """
    keys: Sequence[Hashable] = list(range(len(values))) if clusters is None else clusters
    groups: dict[Hashable, list[float]] = {}
    centre = mean(values)
    if centre is None:
        return None
    for key, value in zip(keys, values, strict=True):
        groups.setdefault(key, []).append(value - centre)
    g = len(groups)
    if g < 2:
        return None
    spread = math.fsum(math.fsum(residuals) ** 2 for residuals in groups.values())
    return math.sqrt(g / (g - 1) * spread) / len(values)


def t_multiplier(df: int, level: float) -> float:
    """Student t's two-sided quantile: ``t_{df}(1/2 + level/2)`` (scipy.stats.t).

    >>> round(t_multiplier(3, 0.95), 6)
    3.182446
    """
    return float(stats.t.ppf(0.5 + level / 2, df))


def sequence_multiplier(n: int, level: float, tuning: float) -> float:
    """The asymptotic confidence sequence's multiplier of the standard error at ``n`` observations.

    The boundary of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas (2021,
    *Time-uniform central limit theory and asymptotic confidence sequences*):
    ``σ̂ √(2(nρ² + 1) / (n²ρ²) · ln(√(nρ² + 1) / α))`` with ``α = 1 - level`` and
    ``ρ = tuning``, written per standard error ``σ̂ / √n``:
    ``√(2(nρ² + 1) / (nρ²) · ln(√(nρ² + 1) / α))`` (reading ``confidence-sequence``).

    >>> round(sequence_multiplier(4, 0.95, 0.5), 6)  # nρ² = 1: sqrt(4 ln(sqrt(2) / 0.05))
    3.656395
    """
    alpha = 1 - level
    v = n * tuning * tuning
    return math.sqrt(2 * (v + 1) / v * math.log(math.sqrt(v + 1) / alpha))


def clustered_interval(values: Sequence[float], level: float, *, clusters: Sequence[Hashable] | None = None,
                       bounds: tuple[float, float] | None = None,
                       tuning: float | None = None) -> Interval | None:
    """``mean ± multiplier × clustered_se``, cut to ``bounds``; None with fewer than two clusters.

    The multiplier is Student t's with ``G − 1`` degrees of freedom, or, with a
    ``tuning`` constant, the confidence sequence's at ``G`` (the number of clusters).
    """
    se = clustered_se(values, clusters)
    centre = mean(values)
    if se is None or centre is None:
        return None
    g = len(values) if clusters is None else len(set(clusters))
    multiplier = t_multiplier(g - 1, level) if tuning is None else sequence_multiplier(g, level, tuning)
    return Interval(centre - multiplier * se, centre + multiplier * se).cut(bounds)


def t_interval(values: Sequence[float], level: float, bounds: tuple[float, float] | None = None) -> Interval | None:
    """Student t interval of the mean at ``level``, cut to ``bounds``; None below two values."""
    return clustered_interval(values, level, bounds=bounds)


def confidence_sequence(values: Sequence[float], level: float, tuning: float,
                        bounds: tuple[float, float] | None = None) -> Interval | None:
    """The confidence sequence at ``len(values)`` observations (see :func:`sequence_multiplier`)."""
    return clustered_interval(values, level, bounds=bounds, tuning=tuning)


def sign_flip_p(units: Sequence[int]) -> float | None:
    """The exact two-sided sign-flip test of paired differences given as whole numbers of a unit.

    Under the null each difference is as likely to have either sign, so each of the
    2ⁿ sign assignments is equally likely; p is the share of them whose sum is at
    least as far from zero as the observed sum.  Zeros change nothing (they are set
    aside).  The count is exact (whole numbers, never a float), and p is that count
    over 2ⁿ as the nearest double, which is the exact value up to 53 nonzero pairs.
    None for no pairs.

    Differences are kept on the grid the file holds (thousandths), so "at least as
    far" is decided exactly, never by a floating-point tolerance.

    How it is counted: the null is symmetric, so the share is twice the sign assignments
    whose plus-signed sizes sum to at most ``(total - |observed|) / 2`` (the bound), counted
    by whichever exact method needs less memory (the count, hence p, is the same either way):

    * up to :data:`ENUMERATED_PAIRS` pairs, by enumeration (:func:`_count_enumerated`):
      every sum of each half of the sizes is listed (at most 2²⁰ each, whatever their
      magnitude) and the pairs of sums within the bound counted;
    * otherwise by a table of the sums up to the bound (:func:`_count_at_most`), in 64-bit
      lanes (one lane up to 62 pairs; beyond, the count modulo a few primes near 2⁶¹, put
      together by the Chinese remainder theorem).  Its memory is the bound times the lanes
      (``⌈(n + 1) / 60⌉`` past 62 pairs) times 24 bytes, its work the pairs times the bound
      times the lanes, about 2.6 ns a cell on one core: a hundred pairs of differences up
      to 100,000 units about 0.6 s, up to 240,000 about 2.6 s.

    It stays exact at any size: the page prints the exact p, and an audit compares it
    exactly (a bound would read as a disagreement).  When neither method fits (more than
    :data:`ENUMERATED_PAIRS` pairs whose table would pass :data:`TABLE_CELLS` cells, about
    800 MB) it raises :class:`SignFlipTooLarge` rather than use memory without bound.

    >>> sign_flip_p([1000, 2000, 3000]), sign_flip_p([0, 0]), sign_flip_p([])
    (0.25, 1.0, None)
    >>> sign_flip_p([900_000_000_000, 1, -3])  # 6 of 8 patterns reach 9e11 - 2; its magnitude costs nothing
    0.75
    """
    if not units:
        return None
    sizes = [abs(u) for u in units if u]
    if not sizes:
        return 1.0
    step = reduce(math.gcd, sizes)
    sizes = [s // step for s in sizes]
    observed = abs(sum(units)) // step
    total = sum(sizes)
    n = len(sizes)
    if observed == 0:
        return 1.0
    # A sum S = 2t - total; |S| >= observed  <=>  t >= (total + observed) / 2  or  t <= (total - observed) / 2,
    # and the counts of t and total - t are equal (flip every sign): twice those with t <= (total - observed) / 2.
    bound = (total - observed) // 2
    within = [s for s in sizes if s <= bound]  # (a size past the bound: past it alone)
    try:
        extreme = 2 * _count_within(within, bound)
    except SignFlipTooLarge as exc:  # its bound is in steps of the sizes' common divisor: say it in thousandths
        raise SignFlipTooLarge(exc.pairs, exc.bound, exc.lanes, step) from None
    return float(Fraction(min(extreme, 2**n), 2**n))


ENUMERATED_PAIRS = 40
"""Up to this many pairs (within the bound) the sign-flip count lists each half's sums: at most 2²⁰ each."""
TABLE_CELLS = 2**25
"""The most cells (lanes times the bound) the sign-flip table may hold: three arrays of 64-bit cells, about
800 MB."""


class SignFlipTooLarge(ValueError):
    """The exact sign-flip test would need more memory than :data:`TABLE_CELLS` allows (too many pairs
    with too large differences for either exact method)."""

    def __init__(self, pairs: int, bound: int, lanes: int = 1, step: int = 1) -> None:
        # the cells are the lanes times the bound's sums: the count the limit is set on, so the message's
        # two numbers are the ones compared (a bound alone can read below the limit past 62 pairs)
        cells = lanes * (bound + 1)
        table = f"{cells:,} cells" if lanes == 1 else f"{cells:,} cells ({lanes} lanes of {bound + 1:,})"
        steps = "" if step == 1 else f" (counted in steps of {step:,}, the differences' common divisor)"
        super().__init__(f"the exact sign-flip test of {pairs} pairs summing past {bound * step:,} thousandths each "
                         f"way{steps} would need a table of {table}, past the {TABLE_CELLS:,} allowed "
                         f"(at most {ENUMERATED_PAIRS} pairs are counted whatever their size)")
        self.pairs = pairs
        self.bound = bound
        self.lanes = lanes
        self.step = step


def _count_within(sizes: Sequence[int], bound: int) -> int:
    """How many subsets of ``sizes`` (each at most ``bound``) sum to at most ``bound``, by the exact method
    needing less memory: enumeration up to :data:`ENUMERATED_PAIRS` sizes when each half's sums are fewer
    than the table's cells, else the table; raises :class:`SignFlipTooLarge` when neither fits."""
    cells = _lanes(len(sizes)) * (bound + 1)
    if len(sizes) <= ENUMERATED_PAIRS and 2 ** ((len(sizes) + 1) // 2) < cells:
        return _count_enumerated(sizes, bound)
    if cells > TABLE_CELLS:
        raise SignFlipTooLarge(len(sizes), bound, _lanes(len(sizes)))
    return _count_at_most(sizes, bound)


def _subset_sums(sizes: Sequence[int]) -> np.ndarray:
    """Every subset's sum of ``sizes`` (2ⁿ of them, sorted; 64-bit while they fit, else whole numbers).

    >>> _subset_sums([1, 2, 4]).tolist()
    [0, 1, 2, 3, 4, 5, 6, 7]
    """
    wide = sum(sizes) >= 2**62
    sums = np.zeros(1, dtype=object if wide else np.int64)
    for size in sizes:
        sums = np.concatenate((sums, sums + size))
    return np.sort(sums, kind="stable")


def _count_enumerated(sizes: Sequence[int], bound: int) -> int:
    """How many subsets of ``sizes`` sum to at most ``bound``, by meeting in the middle: each subset is a
    subset of the first half with one of the second, so for each first-half sum ``a`` it counts the
    second-half sums at most ``bound - a`` (memory: 2^⌈n/2⌉ sums, whatever the sizes' magnitude).

    >>> _count_enumerated([1, 2, 3], 3), _count_enumerated([], 0)  # {}, {1}, {2}, {3}, {1, 2}
    (5, 1)
    """
    half = len(sizes) // 2
    first, second = _subset_sums(sizes[:half]), _subset_sums(sizes[half:])
    room = bound - first
    return int(np.searchsorted(second, room, side="right").astype(np.int64).sum())


_PRIMES = (2305843009213693951, 2305843009213693921, 2305843009213693907, 2305843009213693723,
           2305843009213693693, 2305843009213693669, 2305843009213693613, 2305843009213693561,
           2305843009213693549, 2305843009213693487, 2305843009213693421, 2305843009213693373,
           2305843009213693277, 2305843009213693193, 2305843009213693153, 2305843009213693133,
           2305843009213693123)
"""The 17 largest primes below 2⁶¹ (the first is 2⁶¹ - 1): two residues add without leaving 64 bits, and
together they count up to 1,019 pairs (beyond, whole numbers of any size count, more slowly)."""


def _lanes(n: int) -> int:
    """How many 64-bit lanes count the sign assignments of ``n`` sizes exactly: one up to 62 (counts
    below 2⁶³), else enough primes that their product exceeds 2ⁿ."""
    return 1 if n <= 62 else -(-(n + 1) // 60)


def _count_at_most(sizes: Sequence[int], bound: int) -> int:
    """How many subsets of ``sizes`` (whole numbers, each at most ``bound``) sum to at most ``bound``.

    >>> _count_at_most([1, 2, 3], 3)  # {}, {1}, {2}, {3}, {1, 2}
    5
    >>> _count_at_most([1] * 70, 1)  # the empty set and the 70 single ones, counted modulo two primes
    71
    """
    n = len(sizes)
    lanes = _lanes(n)
    wide = lanes > len(_PRIMES)  # more pairs than the primes count: whole numbers of any size
    moduli = _PRIMES[:lanes] if 1 < lanes and not wide else ()
    counts = np.zeros((1 if wide else lanes, bound + 1), dtype=object if wide else np.uint64)
    counts[:, 0] = 1
    spare, wrapped = counts.copy(), counts.copy()
    prime = np.array(moduli, dtype=np.uint64).reshape(-1, 1)
    reach = 0
    for size in sorted(sizes):  # counts[:, t]: subsets of the sizes so far summing to t (the smallest first:
        top = min(bound, reach + size)  # the sums reached grow slowest)
        width = top - size + 1
        if width > 0:
            added = np.add(counts[:, size:top + 1], counts[:, :width], out=spare[:, :width])
            if moduli:  # a sum past the prime less the prime: below it (unsigned, the other wraps round past 2⁶⁴)
                np.minimum(added, np.subtract(added, prime, out=wrapped[:, :width]), out=added)
            counts[:, size:top + 1] = added
        reach = top
    if not moduli:
        return int(counts[0].sum())  # (below 2⁶³ in one lane; whole numbers in a wide one)
    residues = []
    for lane, p in enumerate(moduli):  # each lane's sum, in halves of 31 bits (no 64-bit overflow)
        row = counts[lane]
        residues.append((int((row >> 31).sum()) * 2**31 + int((row & (2**31 - 1)).sum())) % p)
    return _chinese_remainder(residues, moduli)


def _chinese_remainder(residues: Sequence[int], moduli: Sequence[int]) -> int:
    """The least non-negative whole number with these residues modulo these (pairwise coprime) moduli.

    >>> _chinese_remainder([2, 3, 2], [3, 5, 7])
    23
    """
    value, product = 0, 1
    for r, m in zip(residues, moduli, strict=True):
        value += product * ((r - value) * pow(product, -1, m) % m)
        product *= m
    return value


def bootstrap_seed(study: str, arm: int) -> int:
    """The bootstrap's seed for comparison ``arm`` of ``study``: the first 8 bytes of
    SHA-256 of ``"<study>/<arm>"``, big-endian (reading ``bootstrap``)."""
    return int.from_bytes(hashlib.sha256(f"{study}/{arm}".encode()).digest()[:8], "big")


def percentile_bootstrap(values: Sequence[float], level: float, seed: int,
                         resamples: int = BOOTSTRAP_RESAMPLES) -> Interval | None:
    """The percentile bootstrap interval of the mean at ``level`` (scipy.stats.bootstrap).

    ``resamples`` resamples drawn with numpy's default generator (PCG64) seeded with
    ``seed``: the same values give the same interval.  None below two values; all
    values equal give that value twice (no resampling needed).
    """
    if len(values) < 2:
        return None
    data = np.asarray(values, dtype=float)
    if np.all(data == data[0]):
        return Interval(float(data[0]), float(data[0]))
    result = stats.bootstrap((data,), np.mean, n_resamples=resamples, confidence_level=level,
                             method="percentile", vectorized=True, rng=np.random.default_rng(seed))
    return Interval(float(result.confidence_interval.low), float(result.confidence_interval.high))


def verdict(rule: str, level: float, interval: Interval | None, p: float | None,
            bootstrap: Interval | None) -> str:
    """The comparison's verdict: ``higher``, ``lower`` or ``inconclusive`` (reading ``verdict``).

    Under the fixed rule the arm reads ``higher`` when the t interval, the percentile
    bootstrap interval (both at the comparison's level) lie wholly above zero and the
    exact test's p is at most ``1 - level``; ``lower`` when both lie wholly below zero
    and p is at most ``1 - level``.  Under the anytime rule only the confidence
    sequence decides: wholly above zero, ``higher``; wholly below, ``lower``.

    >>> verdict("fixed", 0.95, Interval(0.2, 3.0), 0.03125, Interval(0.5, 2.5))
    'higher'
    >>> verdict("fixed", 0.95, Interval(0.2, 3.0), 0.0625, Interval(0.5, 2.5))
    'inconclusive'
    >>> verdict("anytime", 0.95, Interval(-3.0, -0.1), None, None)
    'lower'
    """
    if interval is None:
        return INCONCLUSIVE
    if rule == "anytime":
        if interval.low > 0:
            return HIGHER
        if interval.high < 0:
            return LOWER
        return INCONCLUSIVE
    if bootstrap is None or p is None or p > 1 - level:
        return INCONCLUSIVE
    if interval.low > 0 and bootstrap.low > 0:
        return HIGHER
    if interval.high < 0 and bootstrap.high < 0:
        return LOWER
    return INCONCLUSIVE
