"""The tests behind every screen's p-value, and the match-level multiple-testing step.

Every screen compares its statistic with what honest play *in the same match* would give
(the evaluation design's collusion screens: a flag must be "weighed against what honest
trade would move").  The tests here are exact or analytic, so that they give precise small
p-values cheaply and the same bytes on every run:

- :func:`sign_flip_p`: each exchange's surplus was as likely to go either way between the
  two (its size kept).  Exact, two-sided, on sizes rounded to a fine grid (the statistic
  and its null are computed on the same rounded sizes, so the test is exact for it).
- :func:`binom_sf`, :func:`poisson_sf`: upper tails for counts against a rate estimated
  from the rest of the match.
- :func:`product_p`: the exact chance that a product of independent uniform p-values is
  this small (Fisher's method without the chi-square table).

:func:`adjust` is the step that turns raw p-values into the ones compared with the
configuration's rate: Holm's step-down procedure over the match's *testable* tests
(Tarone's reduction: a test whose smallest attainable p-value cannot reach the level is
left out of the count, since it can never be rejected).  Holm controls the family-wise
error: in an honest match, the chance that *any* test of *any* screen is rejected is at
most the rate, whatever the dependence between tests.  That is the quantity an operator
who screens every match cares about (how many honest matches come back not ``clear``).

>>> sign_flip_p([5.0] * 6)
(0.03125, 0.03125)
>>> round(binom_sf(3, 10, 0.1), 6)
0.070191
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .flags import Flag, Level

__all__ = ["Candidate", "Test", "adjust", "adjust_shared", "one_per_key", "betabinom_sf", "binom_cdf", "binom_sf", "describe_p", "nbinom_sf", "poisson_binomial_sf",
           "poisson_sf", "product_p", "rate", "sign_flip_bound", "sign_flip_p", "subset_sum_bound", "subset_sum_floor", "subset_sum_p", "subset_sum_share", "SharedTails", "testable_family"]

GRID = 256
"""Sizes are rounded to ``GRID`` steps of the largest one before the sign-flip test."""

_MAX_CELLS = 1 << 17
"""Upper bound on the sign-flip table (coarser rounding for very long series)."""


@dataclass(frozen=True)
class Test:
    """One hypothesis a screen tested in a match."""

    key: Hashable
    """What was tested (screen and the agents): the same key is the same hypothesis, counted once."""
    p_value: float
    """Its raw p-value."""
    min_p: float = 0.0
    """The smallest p-value the test could have given with what it conditions on (0: any)."""


@dataclass(frozen=True)
class Candidate:
    """A finding a screen would raise, before the match-level multiple-testing step."""

    flag: Flag
    """The flag, its ``p_value`` and ``null`` set (its level is decided by the step)."""
    keys: tuple[Hashable, ...]
    """The tests it rests on (:attr:`Test.key`): every one must be rejected."""
    most: Level = "flag"
    """The highest level it may reach (``review`` for context)."""


def sign_flip_p(values: Sequence[float], grid: int = GRID) -> tuple[float, float]:
    """Two-sided exact sign-flip test of ``sum(values)``: ``(p, smallest attainable p)``.

    Null: every value's sign is a fair coin, its size kept.  Sizes are rounded to ``grid``
    steps of the largest (fewer steps for long series); zeros drop out.  ``p`` is the share
    of the ``2^n`` sign patterns whose sum is at least as far from 0 as the observed one.
    Beyond :data:`_SIGN_EXACT` values (where the table's rounding is at its coarsest and its
    work grows as the square of the count), ``p`` is :func:`sign_flip_bound`'s Chernoff bound, never
    below the exact share.

    >>> sign_flip_p([3.0, 3.0, -3.0])
    (1.0, 0.25)
    >>> sign_flip_p([10.0, 10.0, 10.0, 10.0, -1.0])
    (0.125, 0.0625)
    >>> sign_flip_p([])
    (1.0, 1.0)
    """
    sizes = [abs(float(v)) for v in values if v]
    if not sizes:
        return 1.0, 1.0
    if len(sizes) > _SIGN_EXACT:
        return sign_flip_bound(values)
    top = max(sizes)
    steps = max(4, min(grid, _MAX_CELLS // (2 * len(sizes))))
    unit = top / steps
    ints = [int(round(s / unit)) for s in sizes]
    signed = [int(round(abs(float(v)) / unit)) * (1 if v > 0 else -1) for v in values if v]
    ints = [i for i in ints if i]
    if not ints:
        return 1.0, 1.0
    total = sum(ints)
    observed = abs(sum(signed))
    dist = np.zeros(2 * total + 1)
    dist[total] = 1.0
    spare = np.zeros_like(dist)
    span = 0
    for size in ints:  # only the sums reached so far are read and written (the rest stays 0 in both tables)
        lo, hi = total - span, total + span + 1
        new = spare[lo - size:hi + size]
        # (the spare held sums reached two values ago: all within this window) each sum gets half of the one
        # ``size`` below and half of the one ``size`` above: written, then added (a cell's two halves added in
        # either order are the same double)
        half = np.multiply(dist[lo:hi], 0.5, out=new[:hi - lo])
        new[hi - lo:] = 0.0
        new[2 * size:] += half  # (numpy reads an operand the output overlaps as if copied first)
        spare, dist = dist, spare
        span += size
    offsets = np.abs(np.arange(-total, total + 1))
    p = float(dist[offsets >= observed].sum())
    smallest = float(dist[offsets >= total].sum())
    return min(1.0, p), min(1.0, smallest)


_SIGN_EXACT = _MAX_CELLS // 8
"""The most values :func:`sign_flip_p` counts exactly (16,384: beyond, the table is at its coarsest
rounding of 4 steps and its work grows as the square of the count); beyond, the Chernoff bound."""


def sign_flip_bound(values: Sequence[float]) -> tuple[float, float]:
    """The Chernoff bound on :func:`sign_flip_p`'s share: ``(bound, bound at the largest sum)``.

    With every sign a fair coin, ``E exp(t S) = prod cosh(t s_i)`` for the sizes ``s_i``, so
    ``P(S >= x) <= min over t >= 0 of exp(-t x) prod cosh(t s_i)``, and the two-sided share is at
    most twice that (the null is symmetric); the tilt ``t`` by :func:`_tilt`.  At the largest sum the bound is ``2 x 2^-n``, the exact share.

    >>> [round(v, 6) for v in sign_flip_bound([1.0] * 4)]
    [0.125, 0.125]
    >>> [round(v, 6) for v in sign_flip_bound([1.0, -1.0, 1.0, 1.0])]
    [1.0, 0.125]
    """
    sizes = np.array([abs(float(v)) for v in values if v])
    if sizes.size == 0:
        return 1.0, 1.0
    observed = abs(math.fsum(float(v) for v in values if v))
    return _sign_flip_chernoff(sizes, observed), _sign_flip_chernoff(sizes, float(sizes.sum()))


def _sign_flip_chernoff(sizes: np.ndarray, observed: float) -> float:
    """Twice ``min over t >= 0 of exp(-t x) prod cosh(t s_i)`` at ``x = observed``, capped at 1."""
    total = float(sizes.sum())
    if observed <= 0:
        return 1.0
    if observed >= total * (1 - 1e-12):  # every sign the same way: the bound's limit, the exact share
        return min(1.0, math.exp((1 - sizes.size) * math.log(2.0)))
    scale = float(sizes.max())
    unit = sizes / scale
    target = observed / scale

    t = _tilt(lambda t: float((unit * np.tanh(t * unit)).sum()) - target)  # d/dt of sum log cosh(t s) - t x
    z = np.abs(t * unit)
    log_cosh = float((z + np.log1p(np.exp(-2 * z))).sum()) - unit.size * math.log(2.0)
    return min(1.0, 2.0 * math.exp(log_cosh - t * target))


_SUBSET_CELLS = 4_000_000
"""Upper bound on the work of the subset-sum table (coarser rounding for long series)."""

def _tilt(slope: Callable[[float], float]) -> float:
    """The ``t >= 0`` where a Chernoff exponent's derivative ``slope`` (increasing, below 0 at 0)
    crosses 0: the bracket doubled from 1, then 200 halvings (deterministic).  Once the midpoint is one
    of the ends (the two are neighbouring floats, about 60 halvings in) no halving left can move it,
    and it is returned at once: the same float the 200 would give."""
    hi = 1.0
    while slope(hi) < 0:
        hi *= 2.0
    lo = 0.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            return mid  # (each halving left keeps both ends or closes them onto mid)
        if slope(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


_SUBSET_WORK = 50_000_000
"""Upper bound on the cells the exact subset-sum table may update (``n x k x`` the largest sum, at
the coarsest rounding of 4 steps): beyond it, :func:`subset_sum_p` gives the Chernoff bound."""

_SUBSET_LOG_WAYS = 690.0
"""The exact table counts subsets in floats: beyond ``e^690`` subsets it would overflow, and
:func:`subset_sum_p` gives the Chernoff bound instead."""


SharedTails = dict[tuple[tuple[float, ...], int, int], tuple[tuple[int, ...], np.ndarray]]
"""Permutation tables worked out together (:func:`subset_sum_share`) for :func:`subset_sum_p` to read: by
(the values, how many are chosen, the grid), the rounded values and the table's upper tail."""


def subset_sum_p(values: Sequence[float], chosen: Sequence[bool], grid: int = GRID,
                 shared: SharedTails | None = None) -> tuple[float, float]:
    """Exact permutation test of ``sum(values[chosen])``: ``(p, smallest attainable p)``.

    Null: the ``k`` chosen values are a random ``k`` of the ``n`` (every subset of that size as
    likely: the labels permuted among the values, the values kept).  ``p`` is the share of the
    ``C(n, k)`` subsets whose sum is at least the chosen one's (one-sided, upper).  Values are
    rounded to ``grid`` steps of the largest distance from the smallest (fewer for long series);
    the statistic and its null are computed on the same rounded values, so the test is exact
    for it.

    A long series with many chosen (a seat with thousands of trades, a thousand of them with one
    partner) would need a table of billions of cells, and more subsets than a float can count:
    there (:func:`_exact_fits`), ``p`` is the Chernoff bound of :func:`subset_sum_bound` on the
    values as they are, an upper bound on the exact share, so still a valid p-value (never
    smaller than the exact one: a flag it raises the exact test would raise too).

    >>> subset_sum_p([10.0, 9.0, 1.0, 0.0], [True, True, False, False])
    (0.16666666666666666, 0.16666666666666666)
    >>> subset_sum_p([5.0, 1.0, 1.0, 1.0], [True, False, False, False])
    (0.25, 0.25)
    >>> subset_sum_p([1.0, 1.0], [True, False])
    (1.0, 1.0)
    """
    if len(values) != len(chosen):
        raise ValueError("values and chosen differ in length")
    n = len(values)
    k = sum(1 for c in chosen if c)
    if n == 0 or k == 0 or k == n:
        return 1.0, 1.0
    low = min(values)
    spread = max(values) - low
    if spread <= 0:
        return 1.0, 1.0
    if not _exact_fits(n, k, grid):
        return subset_sum_bound(values, chosen)
    xs = tuple(float(v) for v in values)
    ints, tail = (shared or {}).get((xs, k, grid)) or _subset_tails(xs, k, grid)
    observed = sum(i for i, c in zip(ints, chosen) if c)
    total = float(tail[0])
    return min(1.0, float(tail[observed]) / total), min(1.0, float(tail[-1]) / total)


def _subset_steps(n: int, k: int, grid: int) -> int:
    """The steps :func:`subset_sum_p` rounds ``n`` values to when ``k`` are chosen: ``grid``, fewer where
    the table would pass :data:`_SUBSET_CELLS` cells, never fewer than 4."""
    return max(4, min(grid, int(_SUBSET_CELLS // max(1, n * k * k))))


def _exact_fits(n: int, k: int, grid: int) -> bool:
    """Whether the exact table for ``k`` of ``n`` values stays within :data:`_SUBSET_WORK` cells
    and its counts within a float (:data:`_SUBSET_LOG_WAYS`)."""
    steps = _subset_steps(n, k, grid)
    log_ways = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    return n * k * k * steps <= _SUBSET_WORK and log_ways <= _SUBSET_LOG_WAYS


def subset_sum_bound(values: Sequence[float], chosen: Sequence[bool]) -> tuple[float, float]:
    """The Chernoff bound on :func:`subset_sum_p`'s share: ``(bound, bound at the largest sum)``.

    Drawing ``k`` of the ``n`` values without replacement spreads their sum no more than drawing
    them with replacement (Hoeffding 1963, theorem 4: for every convex ``f``, ``E f`` of the first
    is at most ``E f`` of the second), so the with-replacement bound
    ``min over t >= 0 of exp(-t s) E exp(t S)`` holds for the share of subsets summing to ``s``
    or more.  The sum of the ``n - k`` values not chosen is the total less the sum, so its lower
    tail bounds the same share: the smaller of the two counts.

    >>> [round(v, 6) for v in subset_sum_bound([1.0, 0.0, 0.0, 0.0], [True, False, False, False])]
    [0.25, 0.25]
    >>> [round(v, 6) for v in subset_sum_bound([3.0, 1.0, 2.0, 0.0], [False, True, False, True])]
    [1.0, 0.409713]

(The first: one value of four is 1, drawn once: a quarter, as exact.  The second: the sum 1 is
below the mean 3, so nothing is unusual; the largest sum, 5 of 3 + 2, is bounded by 0.41 where
the exact share is 1 of 6: the price of a bound.)
    """
    xs = [float(v) for v in values]
    k = sum(1 for c in chosen if c)
    observed = sum(v for v, c in zip(xs, chosen) if c)
    largest = sum(sorted(xs, reverse=True)[:k])
    return _chernoff_both(tuple(xs), k, observed), _chernoff_both(tuple(xs), k, largest)


def _chernoff_both(values: tuple[float, ...], k: int, observed: float) -> float:
    """:func:`subset_sum_bound` for one sum: the chosen ``k``'s upper tail and the others' lower tail."""
    n = len(values)
    total = math.fsum(values)
    chosen = _chernoff_upper(values, k, observed)
    others = _chernoff_upper(tuple(-v for v in values), n - k, observed - total)
    return min(1.0, chosen, others)


@functools.lru_cache(maxsize=512)
def _tilting(values: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, float, float]:
    """The distinct values centred on their mean and scaled to at most 1, their shares, the mean and
    the scale (kept: a seat's values are asked about once per partner)."""
    xs, counts = np.unique(np.asarray(values, dtype=float), return_counts=True)
    shares = counts / counts.sum()
    mean = float(shares @ xs)
    scale = float(np.abs(xs - mean).max())
    return (xs - mean) / (scale if scale > 0 else 1.0), shares, mean, scale


def _chernoff_upper(values: tuple[float, ...], k: int, observed: float) -> float:
    """``min over t >= 0 of exp(-t s) E exp(t S)`` for the sum ``S`` of ``k`` draws with replacement
    from ``values`` and ``s = observed`` (the tilt ``t`` by :func:`_tilt`)."""
    if k <= 0:
        return 1.0
    ys, shares, mean, scale = _tilting(values)
    if scale <= 0:
        return 1.0
    target = (observed / k - mean) / scale
    if target <= 0:
        return 1.0
    top = float(ys[-1])
    if target >= top - 1e-12:  # only the largest value, every draw: the bound's limit
        return float(np.exp(k * np.log(shares[-1])))

    def tilted(t: float) -> tuple[float, float]:
        z = t * ys
        peak = float(z.max())
        weights = shares * np.exp(z - peak)
        mass = float(weights.sum())
        return float(weights @ ys) / mass, math.log(mass) + peak

    t = _tilt(lambda t: tilted(t)[0] - target)  # d/dt of log E exp(t Y) - t y: the tilted mean less y
    rate = t * target - tilted(t)[1]
    return min(1.0, math.exp(-k * rate))


@functools.lru_cache(maxsize=512)
def _subset_tails(values: tuple[float, ...], k: int, grid: int) -> tuple[tuple[int, ...], np.ndarray]:
    """The rounded values of :func:`subset_sum_p` and, for every sum ``s``, how many ``k``-subsets
    sum to ``s`` or more (kept: a seat's values are asked about once per partner)."""
    n = len(values)
    low = min(values)
    steps = _subset_steps(n, k, grid)
    unit = (max(values) - low) / steps
    ints = tuple(int(round((v - low) / unit)) for v in values)
    top = sum(sorted(ints, reverse=True)[:k])
    tail = np.cumsum(_subset_rows(ints, k, k, top)[k][::-1])[::-1]
    tail.flags.writeable = False
    return ints, tail


def _subset_rows(ints: tuple[int, ...], smallest_k: int, k: int, top: int) -> np.ndarray:
    """``table[j, s]``: how many ``j``-subsets of ``ints`` sum to ``s`` (up to ``top``), right in every row
    from ``smallest_k`` to ``k``.

    Where every count fits a float's 53 bits (``C(n, j) < 2^53`` for every row ``j`` up to ``k``) each is a
    whole number held exactly, whatever the order of the additions: the values are then taken by
    distinct size, ``C(m, c)`` ways to choose ``c`` of the ``m`` values of one size
    (:func:`_rows_by_size`), the work the distinct sizes times ``k`` where it was the values times
    ``k``.  Beyond, the counts are rounded and the order of the additions shows in the last bits: the
    values one by one, in their order, as always."""
    n = len(ints)
    if math.comb(n, min(k, n // 2)) < 2**53:
        return _rows_by_size(ints, k, top)
    table = np.zeros((k + 1, top + 1))  # table[j, s]: subsets of j of the values so far summing to s
    table[0, 0] = 1.0
    # only what can reach the rows read is added: the sums the values so far reach (the table holds 0 beyond,
    # and below row done + 1), and the rows that the values left can still take to smallest_k (the rows
    # below are not read)
    reach = 0
    for done, size in enumerate(ints):
        first, rows = max(1, smallest_k - (n - done - 1)), min(k, done + 1)
        width = min(top - size, reach) + 1
        table[first:rows + 1, size:size + width] += table[first - 1:rows, :width]  # (an overlapping source read first)
        reach = min(top, reach + size)
    return table


def _rows_by_size(ints: tuple[int, ...], k: int, top: int) -> np.ndarray:
    """:func:`_subset_rows` by distinct size, every row up to ``k`` (exact while the counts stay below
    ``2^53``: each product and sum is of whole numbers below it).

    >>> _rows_by_size((2, 2, 1), 2, 4).tolist()  # {}; {2} twice, {1}; {2, 2}, {2, 1} twice
    [[1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 2.0, 1.0]]
    """
    table = np.zeros((k + 1, top + 1))
    table[0, 0] = 1.0
    sizes: dict[int, int] = {}
    for size in ints:
        sizes[size] = sizes.get(size, 0) + 1
    for size, m in sorted(sizes.items()):
        before = table.copy()
        ways = 1
        for c in range(1, min(m, k) + 1):  # c of the m values of this size: C(m, c) ways, c x size more
            ways = ways * (m - c + 1) // c
            shift = c * size
            if shift > top:
                break
            table[c:, shift:] += ways * before[:k + 1 - c, :top + 1 - shift]
    return table


_SHARED_MOST = 512
"""At most this many tables kept in one :data:`SharedTails` (it is emptied before it would hold more)."""


def subset_sum_share(values: Sequence[float], counts: Iterable[int], shared: SharedTails, grid: int = GRID) -> None:
    """Work out at once the tables :func:`subset_sum_p` will read for ``values`` with each of ``counts``
    values chosen (a seat's trades, asked about once per partner, with that partner's count).

    Counts that round the values alike (the same steps: a seat with many trades rounds every large
    count to 4 steps, every small one to ``grid``) share one table, made for the largest of them
    and kept down to the smallest: its row for each count is the one that count's own table would
    hold, bit for bit (each cell gets the same additions in the same order; the cells one table
    leaves out hold 0 or never reach the row read).  Work: one table per rounding, not one per
    partner.  Counts that fall back to the bound, or share their rounding with no other, are left
    to :func:`subset_sum_p`.  The tables go into ``shared``, which the caller hands to
    :func:`subset_sum_p`.

    >>> shared: SharedTails = {}
    >>> subset_sum_share([10.0, 9.0, 1.0, 0.0, 4.0], [1, 2, 3], shared)
    >>> subset_sum_p([10.0, 9.0, 1.0, 0.0, 4.0], [True, True, False, False, False], shared=shared)
    (0.1, 0.1)
    """
    xs = tuple(float(v) for v in values)
    n = len(xs)
    if n == 0 or max(xs) - min(xs) <= 0:
        return
    groups: dict[int, list[int]] = {}
    for k in sorted(set(counts)):
        if 0 < k < n and _exact_fits(n, k, grid) and (xs, k, grid) not in shared:
            groups.setdefault(_subset_steps(n, k, grid), []).append(k)
    for steps, ks in groups.items():
        if len(ks) < 2:
            continue  # its own table, as before
        if len(shared) + len(ks) > _SHARED_MOST:
            shared.clear()
        ints, tails = _shared_tails(xs, ks, steps)
        for k, tail in zip(ks, tails, strict=True):
            shared[(xs, k, grid)] = (ints, tail)


def _shared_tails(values: tuple[float, ...], ks: list[int], steps: int) -> tuple[tuple[int, ...], list[np.ndarray]]:
    """:func:`_subset_tails` for every count in ``ks`` (ascending, one rounding of ``steps``) from one table:
    its rows up to the largest count, each kept from where the smallest can still be reached."""
    low = min(values)
    unit = (max(values) - low) / steps
    ints = tuple(int(round((v - low) / unit)) for v in values)
    largest = sorted(ints, reverse=True)
    table = _subset_rows(ints, ks[0], ks[-1], sum(largest[:ks[-1]]))
    tails = []
    for count in ks:
        tail = np.cumsum(table[count, :sum(largest[:count]) + 1][::-1])[::-1]
        tail.flags.writeable = False
        tails.append(tail)
    return ints, tails


def subset_sum_floor(values: Sequence[float], k: int, grid: int = GRID) -> float:
    """The smallest p-value :func:`subset_sum_p` can give when ``k`` of ``values`` are chosen:
    the share of the ``C(n, k)`` subsets that reach the largest sum (the ``k`` largest values,
    and those tied with the last of them after the same rounding), in closed form.

    >>> subset_sum_floor([10.0, 9.0, 1.0, 0.0], 2), subset_sum_floor([5.0, 1.0, 1.0, 1.0], 2)
    (0.16666666666666666, 0.5)
    """
    n = len(values)
    if n == 0 or k <= 0 or k >= n:
        return 1.0
    low = min(values)
    spread = max(values) - low
    if spread <= 0:
        return 1.0
    steps = max(4, min(grid, int(_SUBSET_CELLS // max(1, n * k * k))))
    ints = _rounded_descending(tuple(values), steps)
    last = ints[k - 1]
    ties = ints.count(last)
    chosen_ties = ints[:k].count(last)
    return min(1.0, math.comb(ties, chosen_ties) / math.comb(n, k))


@functools.lru_cache(maxsize=512)
def _rounded_descending(values: tuple[float, ...], steps: int) -> tuple[int, ...]:
    """:func:`subset_sum_floor`'s rounded values, largest first (kept: a seat's values are asked
    about once per partner)."""
    low = min(values)
    unit = (max(values) - low) / steps
    return tuple(sorted((int(round((float(v) - low) / unit)) for v in values), reverse=True))


def binom_sf(k: int, n: int, p: float) -> float:
    """``P(X >= k)`` for ``X ~ Binomial(n, p)`` (exact sum, in logs)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    return _binom_mass(n, p, k, n)


def binom_cdf(k: int, n: int, p: float) -> float:
    """``P(X <= k)`` for ``X ~ Binomial(n, p)``.

    >>> round(binom_cdf(0, 3, 0.5), 12), round(binom_cdf(1, 3, 0.5), 12)
    (0.125, 0.5)
    """
    if k >= n:
        return 1.0
    if k < 0:
        return 0.0
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    return _binom_mass(n, p, 0, k)


def _binom_mass(n: int, p: float, lo: int, hi: int) -> float:
    """``P(lo <= X <= hi)`` for ``X ~ Binomial(n, p)``, ``0 < p < 1``: the terms summed in logs
    (scaled by the largest), so long tails neither underflow nor lose precision."""
    lp, lq = math.log(p), math.log1p(-p)
    terms = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq
             for i in range(lo, hi + 1)]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


def poisson_sf(k: int, lam: float) -> float:
    """``P(X >= k)`` for ``X ~ Poisson(lam)``.

    >>> round(poisson_sf(3, 0.5), 6)
    0.014388
    """
    if k <= 0:
        return 1.0
    if lam <= 0:
        return 0.0
    # 1 - P(X <= k - 1), summed from the far tail when k is above the mean (no cancellation)
    if k > lam:
        log_first = -lam + k * math.log(lam) - math.lgamma(k + 1)
        total, term, i = 0.0, 1.0, k
        while term > 1e-17 * max(total, 1e-300) and i < k + 100_000:
            total += term
            i += 1
            term *= lam / i
        return min(1.0, math.exp(log_first) * total)
    below = sum(math.exp(-lam + i * math.log(lam) - math.lgamma(i + 1)) for i in range(k))
    return max(0.0, min(1.0, 1.0 - below))


def betabinom_sf(k: int, n: int, mean: float, strength: float) -> float:
    """``P(X >= k)`` for a beta-binomial count of ``n`` trials whose chance is drawn from a Beta
    with ``mean`` and ``strength`` (``alpha + beta``): a binomial whose rate varies from unit to
    unit (honest pairs differ), the smaller ``strength`` the more.

    >>> round(betabinom_sf(2, 2, 0.5, 2.0), 6)
    0.333333
    """
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    mean = min(max(mean, 1e-12), 1 - 1e-12)
    a, b = mean * strength, (1 - mean) * strength
    log_norm = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    total = 0.0
    for i in range(k, n + 1):
        log_beta = math.lgamma(i + a) + math.lgamma(n - i + b) - math.lgamma(n + a + b)
        total += math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_beta - log_norm)
    return min(1.0, total)


def poisson_binomial_sf(k: int, qs: Sequence[float]) -> float:
    """``P(S >= k)`` for ``S`` the number of successes of independent trials with chances ``qs``
    (exact, by convolution).

    >>> poisson_binomial_sf(2, [0.5, 0.5])
    0.25
    """
    if k <= 0:
        return 1.0
    if k > len(qs):
        return 0.0
    dist = np.zeros(len(qs) + 1)
    dist[0] = 1.0
    for i, q in enumerate(qs):
        q = min(1.0, max(0.0, float(q)))
        dist[1:i + 2] = dist[1:i + 2] * (1 - q) + dist[0:i + 1] * q
        dist[0] *= 1 - q
    return float(min(1.0, dist[k:].sum()))


def nbinom_sf(k: int, mean: float, dispersion: float) -> float:
    """``P(X >= k)`` for a negative binomial count with ``mean`` and variance
    ``dispersion x mean`` (``dispersion`` > 1; at 1 it is Poisson).

    >>> round(nbinom_sf(3, 0.5, 2.0), 6)
    0.049825
    """
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    if dispersion <= 1.0:
        return poisson_sf(k, mean)
    size = mean / (dispersion - 1)  # shape r; success chance 1 / dispersion
    q = 1 / dispersion
    log_q, log_1q = math.log(q), math.log1p(-q)

    def term(i: int) -> float:
        return math.exp(math.lgamma(i + size) - math.lgamma(size) - math.lgamma(i + 1) + size * log_q + i * log_1q)

    if k <= mean * dispersion:
        complement = max(0.0, min(1.0, 1.0 - sum(term(i) for i in range(k))))
        if complement >= _COMPLEMENT_FLOOR or k <= mean:
            return complement
        # 1 less the lower part keeps nothing of a tail this far under one (an exact 0 for 1e-24): the tail
        # is summed instead, from k on (above the mean, each term smaller than the one before)
    total, t, i = 0.0, term(k), k  # the upper tail, summed from k (no cancellation)
    while t > 1e-17 * max(total, 1e-300) and i < k + 1_000_000:
        total += t
        t *= (i + size) / (i + 1) * (1 - q)
        i += 1
    return min(1.0, total)


_LOG_NORMAL = math.log(2.2250738585072014e-308) + 1.0
"""Below this log a float's exponent is subnormal or zero: :func:`product_p` sums in logs there."""

_COMPLEMENT_FLOOR = 1e-6
"""Below this ``1 - lower part`` has lost most of its digits: :func:`nbinom_sf` sums the tail itself."""


def product_p(ps: Sequence[float]) -> float:
    """The chance that ``len(ps)`` independent uniform p-values multiply to at most ``prod(ps)``:
    ``t * sum_{j<k} (-ln t)^j / j!`` (Fisher's combination, exact).

    >>> product_p([0.5])
    0.5
    >>> round(product_p([0.1, 0.1]), 6)
    0.056052
    """
    if not ps:
        return 1.0
    if any(p <= 0 for p in ps):
        return 0.0
    log_t = sum(math.log(min(1.0, p)) for p in ps)
    x = -log_t
    total, term = 0.0, 1.0
    for j in range(len(ps)):
        if j:
            term *= x / j
        total += term
    if log_t >= _LOG_NORMAL and math.isfinite(total):
        return min(1.0, math.exp(log_t) * total)
    # many p-values: t underflows to 0 and the sum overflows (0 x inf, a NaN that min() read as 1);
    # the terms summed in logs instead, scaled by the largest
    logs = [log_t + j * math.log(x) - math.lgamma(j + 1) for j in range(len(ps))] if x > 0 else [log_t]
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(v - top) for v in logs))


def testable_family(tests: Iterable[Test], alpha: float) -> list[Test]:
    """Tarone's reduction: the smallest ``K`` such that at most ``K`` tests can reach
    ``alpha / K``; those tests (the others can never be rejected at that level, and leaving
    them out keeps the family-wise error at most ``alpha``).

    >>> [t.key for t in testable_family([Test("a", 0.5, 0.5), Test("b", 0.001, 0.0)], 0.02)]
    ['b']
    """
    tests = list(tests)
    floors = sorted(t.min_p for t in tests)  # how many tests can reach a level: one bisection
    for k in range(1, len(tests) + 1):
        if bisect.bisect_right(floors, alpha / k) <= k:
            return [t for t in tests if t.min_p <= alpha / k]
    return tests


def one_per_key(tests: Iterable[Test]) -> dict[Hashable, Test]:
    """Tests with one key are one hypothesis: per key, the test with the smallest p-value (then
    the smallest attainable one), in the order the keys first came.

    >>> sorted((k, t.p_value) for k, t in one_per_key([Test("a", 0.3), Test("a", 0.1), Test("b", 0.5)]).items())
    [('a', 0.1), ('b', 0.5)]
    """
    merged: dict[Hashable, Test] = {}
    for t in tests:
        old = merged.get(t.key)
        if old is None or (t.p_value, t.min_p) < (old.p_value, old.min_p):
            merged[t.key] = t
    return merged


def adjust(tests: Iterable[Test], alpha: float) -> tuple[dict[Hashable, float], int]:
    """Holm-adjusted p-values of the testable tests (:func:`testable_family` at ``alpha``):
    ``{key: adjusted p}`` (1.0 for a test left out) and the family's size.  A test is
    rejected at level ``a <= alpha`` when its adjusted p-value is at most ``a``.

    Tests with one key are one hypothesis: the smallest p-value of the key is kept.

    >>> adjusted, k = adjust([Test("x", 0.01), Test("y", 0.04), Test("z", 0.03)], 0.05)
    >>> k, [round(adjusted[key], 4) for key in ("x", "y", "z")]
    (3, [0.03, 0.06, 0.06])
    """
    merged = one_per_key(tests)
    family = testable_family(merged.values(), alpha)
    size = len(family)
    adjusted: dict[Hashable, float] = {key: 1.0 for key in merged}
    running = 0.0
    for rank, t in enumerate(sorted(family, key=lambda t: (t.p_value, repr(t.key)))):
        running = max(running, min(1.0, (size - rank) * t.p_value))
        adjusted[t.key] = running
    return adjusted, size


def adjust_shared(tests: Iterable[Test], alpha: float,
                  group: Callable[[Hashable], Hashable]) -> tuple[dict[Hashable, float], int, int]:
    """Holm within each group of tests, the groups sharing ``alpha`` equally (a Bonferroni split of
    the budget, then :func:`adjust` inside each share): ``({key: adjusted p}, the family's size,
    the groups sharing)``.  A test is rejected at level ``a <= alpha`` when its adjusted p-value
    is at most ``a``: the adjusted p-value is the one within its group times the groups sharing.

    The groups sharing are chosen by Tarone's rule read at the level of groups, each as testable
    as its most testable test (:func:`testable_family` on each group's smallest attainable
    p-value): a group none of whose tests could pass at its share takes none.  The split depends
    on what the tests condition on, never on their outcome, and the shares add up to at most
    ``alpha``, so the chance of any rejection where every null holds stays at most ``alpha``
    whatever the dependence between tests.  What it changes from one Holm step over every test:
    a group with few tests (one screen's handful of candidates) is no longer outweighed by a
    group with many (a test of every trading pair).

    Tests with one key are one hypothesis (the smallest p-value of the key is kept).

    >>> tests = [Test(("a", 1), 0.004), Test(("b", 1), 0.03), Test(("b", 2), 0.5), Test(("b", 3), 0.6)]
    >>> adjusted, size, shared = adjust_shared(tests, 0.05, lambda key: key[0])
    >>> size, shared, [round(adjusted[t.key], 4) for t in tests]
    (4, 2, [0.008, 0.18, 1.0, 1.0])
    """
    merged = one_per_key(tests)
    groups: dict[Hashable, list[Test]] = {}
    for t in merged.values():
        groups.setdefault(group(t.key), []).append(t)
    least = [Test(name, 1.0, min(t.min_p for t in members)) for name, members in groups.items()]
    sharing = [t.key for t in testable_family(least, alpha)]
    shares = max(1, len(sharing))
    adjusted: dict[Hashable, float] = {key: 1.0 for key in merged}
    size = 0
    for name in sharing:
        inside, k = adjust(groups[name], alpha / shares)
        size += k
        for key, p in inside.items():
            adjusted[key] = min(1.0, p * shares)
    return adjusted, size, len(sharing)


def rate(count: float, exposure: float, prior_rate: float, prior_weight: float) -> float:
    """A rate estimated from ``count`` events in ``exposure``, shrunk towards ``prior_rate``
    with the weight of ``prior_weight`` units of exposure."""
    return (count + prior_rate * prior_weight) / (exposure + prior_weight) if exposure + prior_weight > 0 else 0.0


def describe_p(p: float) -> str:
    """A p-value as people read it: ``1 in 4,000``."""
    if p <= 0:
        return "less than 1 in 10^300"
    if p >= 0.5:
        return f"{p:.2f}"
    odds = 1 / p
    if odds >= 1e6:
        return f"1 in {odds:.1e}"
    return f"1 in {odds:,.0f}"

