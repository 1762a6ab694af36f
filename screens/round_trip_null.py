"""The wash-pair null: how often honest pairs of the match send goods back.

Every pair's round trips (:mod:`.mirrors`) are tested against honest play in the same match
(the scoring rubric's *Circular reputation*, rubric 2.4; the evaluation design's collusion
screens).  The statistic is the most round trips the pair made of *one parcel* (the same goods
swapped for the same goods, either way round, :func:`one_parcel`): wash trading sends one
parcel back and forth again and again, while an honest pair that buys back now and then, or
barters back and forth as its needs change, buys back different goods each time.  That count,
out of half the pair's exchanges (each round trip takes two), is weighed against a
beta-binomial whose rate and spread are read from the match's pairs that share neither of its
seats (the same count, each pair one vote):

- the rate may change with the pair's volume, as the match's pairs show (a logistic curve in the
  log of the number of exchanges, :func:`yardsticks`); where they cannot show it (a small match,
  its pairs all of one volume), the rate of a busier pair is not assumed higher: the round trips
  of one parcel and the trips a pair could make both grow with its exchanges;
- the spread lets honest pairs differ as much as the match's own pairs do: two friends that
  barter the same few goods back and forth buy back more often than strangers.

A ring's pairs are weighed against the pairs outside the ring (:mod:`.wash_ring`), so that
a ring's own pairs never set its yardstick.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .graph import Exchange, PairFlow, TransferView
from .mirrors import _signature, pair_trips
from .stats import betabinom_sf

__all__ = ["PAIR_NULL", "PairTest", "one_parcel", "pair_nulls", "parcel", "repeat_rates", "return_tests", "round_trip_counts",
           "yardsticks"]

PAIR_NULL = ("the pair made mirror round trips of one parcel (the same goods swapped back and forth) at the rate the "
             "match's pairs that share neither seat make them at its volume (a logistic curve in the log of their "
             "exchanges, each pair one vote), that rate varying from pair to pair as much as it does among those "
             "pairs (beta-binomial over the trips the pair's exchanges allow)")
"""The wash-pair null, in words."""

SPREAD = 8.0
"""The most the null trusts the match's rate: the Beta each pair's round-trip rate is drawn from has
strength (alpha + beta) at most this, less where the match's own pairs vary more."""

PRIOR_ROOM = 20.0
"""Weight, in trips possible, of the prior spread (strength :data:`SPREAD`) in the match's own estimate:
a match with few pairs does not set its spread from two or three of them."""


def parcel(x: Exchange) -> Any:
    """The parcel a round trip washed, from its first trade: which goods were swapped for which,
    either way round (the goods each side gave, not who gave them, nor how much: a mirror's
    values already agree within ``max_leg_ratio``).

    >>> x = Exchange("a", "b", 1, "x", goods={"a": {"wood": 6.0}, "b": {"stone": 4.0}})
    >>> y = Exchange("a", "b", 2, "y", goods={"a": {"stone": 4.0}, "b": {"wood": 6.0}})
    >>> parcel(x) == parcel(y), parcel(x) == parcel(Exchange("a", "b", 3, "z", goods={"a": {"food": 6.0}}))
    (True, False)
    """
    empty: dict[Any, float] = {}
    return frozenset((_signature(x.goods.get(x.a) or empty), _signature(x.goods.get(x.b) or empty)))


def one_parcel(trips: list[tuple[Exchange, Exchange]]) -> int:
    """The most round trips of one :func:`parcel` among ``trips`` (0 when there are none): a wash
    pair sends the same goods back and forth again and again; an honest pair that buys back now
    and then buys back different goods.

    >>> x = Exchange("a", "b", 1, "x", goods={"a": {"wood": 6.0}, "b": {"stone": 4.0}})
    >>> y = Exchange("a", "b", 2, "y", goods={"a": {"food": 3.0}, "b": {"ore": 9.0}})
    >>> one_parcel([(x, x), (y, y), (x, x)]), one_parcel([])
    (2, 0)
    """
    counts: dict[Any, int] = {}
    for x, _y in trips:
        key = parcel(x)
        counts[key] = counts.get(key, 0) + 1
    return max(counts.values(), default=0)


def round_trip_counts(view: TransferView, pair: PairFlow, ratio: float) -> tuple[int, int]:
    """``(round trips of one parcel, exchanges of known value)`` of the pair: the most of its mirror
    round trips that washed one parcel (:func:`one_parcel`); no search for mirrors where fewer than
    two exchanges could mirror one another."""
    return view.once(("ring.in_trips", pair.a, pair.b, ratio), lambda: _round_trip_counts(view, pair, ratio))


def _round_trip_counts(view: TransferView, pair: PairFlow, ratio: float) -> tuple[int, int]:
    a, b = pair.a, pair.b
    empty: dict[Any, float] = {}
    signatures = [(_signature(x.goods.get(a) or empty), _signature(x.goods.get(b) or empty))
                  for x in pair.exchanges if not x.unvalued]
    seen = set(signatures)
    mirrorable = sum(1 for sa, sb in signatures if (sb, sa) in seen and (sa or sb))
    trips = one_parcel(pair_trips(view, pair, ratio)) if mirrorable >= 2 else 0
    return (trips, len(signatures))


PairTest = tuple[float, float, int, int, float, float]
"""``(p, smallest attainable p, round trips of one parcel, trips possible, the null's rate, the null's strength)``."""


def pair_nulls(trips: np.ndarray, possible: np.ndarray, exchanges: np.ndarray, seats: np.ndarray,
               ) -> tuple[np.ndarray, np.ndarray]:
    """The wash-pair null of every pair (module rule *the tests*): ``(rate, strength)``.

    ``trips[i]`` round trips of pair ``i`` out of ``possible[i]`` (half its exchanges),
    ``exchanges[i]`` its exchanges, ``seats[i]`` its two seats (integers).  The yardstick of
    pair ``i`` is read from the pairs sharing neither of its seats (a ring's own pairs do not
    set it), each pair one vote:

    - the rate: a logistic curve in the log of the number of exchanges, ``logit r = b0 +
      b1 log n``, fitted to those pairs' rates (``trips / possible``) by maximum likelihood,
      with one prior pair at one half at their median volume and a weak pull of ``b1``
      towards 0 (:data:`SLOPE_PRIOR`), so that a match with few pairs still has a curve: a
      busier pair finds more mirrors by chance only as far as the match's pairs show it;
    - the spread: how much more those pairs' counts vary than binomially around the curve
      (method of moments: the sum of ``(t - m r)^2 / (m r (1 - r)) - 1``, each pair's term at
      most ``m - 1``, over the sum of ``m - 1``: the intraclass correlation ``rho``), with
      :data:`PRIOR_ROOM` trips' worth of the prior ``1 / (1 + SPREAD)``; strength ``1 / rho -
      1``, never more than :data:`SPREAD`.

    >>> rate, strength = pair_nulls(np.array([0, 0, 0, 3]), np.array([2, 2, 2, 3]), np.array([4, 4, 4, 6]),
    ...                             np.array([[0, 1], [2, 3], [4, 5], [6, 7]]))
    >>> [round(float(r), 4) for r in rate], [round(float(s), 3) for s in strength]
    ([0.4137, 0.4137, 0.4137, 0.0714], [3.758, 3.758, 3.758, 8.0])
    """
    size = trips.shape[0]
    if size == 0:
        return np.zeros(0), np.zeros(0)
    logn = np.log(exchanges.astype(float))
    rate = np.empty(size)
    strength = np.empty(size)
    for lo in range(0, size, _BLOCK):
        rows = np.arange(lo, min(size, lo + _BLOCK))
        mine = seats[rows]
        keep = ~((mine[:, None, 0] == seats[None, :, 0]) | (mine[:, None, 0] == seats[None, :, 1])
                 | (mine[:, None, 1] == seats[None, :, 0]) | (mine[:, None, 1] == seats[None, :, 1]))
        rate[rows], strength[rows] = yardsticks(trips, possible, logn, keep, logn[rows])
    return rate, strength


def yardsticks(trips: np.ndarray, possible: np.ndarray, logn: np.ndarray, keep: np.ndarray,
               at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row ``i``: the round-trip rate at ``log n = at[i]`` and the strength, read from the pairs
    ``keep[i]`` marks (:func:`pair_nulls`).

    Pairs with the same round trips, trips possible and exchanges are alike in every sum here,
    so each row's sums run over those kinds of pair, each weighed by how many of its pairs the
    row keeps (a match's thousand pairs fall into a few dozen kinds)."""
    kinds, which = np.unique(np.stack([trips.astype(float), possible.astype(float), logn]), axis=1,
                             return_inverse=True)
    kind_trips, kind_possible, kind_logn = kinds
    members = np.zeros((trips.shape[0], kinds.shape[1]))
    members[np.arange(trips.shape[0]), np.asarray(which).reshape(-1)] = 1.0
    kept = keep.astype(float) @ members  # per row, how many of its kept pairs are of each kind
    rates = kind_trips / kind_possible
    floor = 1.0 / (1.0 + SPREAD)
    room = kind_possible - 1.0
    w = kept * kind_possible[None, :]  # binomial: each pair weighs its trips possible
    count = keep.sum(axis=1)
    centre = np.array([float(np.median(logn[k])) if k.any() else float(np.median(logn)) for k in keep])
    # maximum likelihood of logit r = b0 + b1 log n (Newton), plus the priors
    b0, b1 = _fit(rates, w, kind_logn, centre)
    fitted = np.clip(_expit(b0[:, None] + b1[:, None] * kind_logn[None, :]), 1e-9, 1 - 1e-9)
    excess = ((kind_trips[None, :] - kind_possible[None, :] * fitted) ** 2
              / (kind_possible[None, :] * fitted * (1 - fitted)) - 1.0)
    excess = np.where(room[None, :] > 0, np.minimum(excess, room[None, :]), 0.0)  # one trip possible: no spread
    rho = ((kept * excess).sum(axis=1) + floor * PRIOR_ROOM) / ((kept * room[None, :]).sum(axis=1) + PRIOR_ROOM)
    rho = np.where(count > 0, rho, floor)
    rate = np.clip(_expit(b0 + b1 * at), 1e-9, 1 - 1e-9)
    return rate, 1.0 / np.clip(rho, floor, 1.0 - 1e-6) - 1.0


REPEAT_PRIOR = 4.0
"""Weight, in trips possible, of the round-trip rate at a pair's volume as the prior of the match's
repeat rate (:func:`repeat_rates`): a match whose pairs rarely came back for more of one parcel says
so only once enough of them had the chance."""


def repeat_rates(trips: np.ndarray, possible: np.ndarray, keep: np.ndarray, prior: np.ndarray,
                 least: int = 1) -> np.ndarray:
    """Row ``i``: the match's rate of *further* round trips of one parcel, read from the pairs
    ``keep[i]`` marks that made at least ``least`` (their round trips of one parcel beyond
    ``least``, out of the trips their exchanges still allowed), shrunk towards ``prior[i]`` (the
    round-trip rate at the row's volume, :func:`yardsticks`) with the weight of
    :data:`REPEAT_PRIOR` trips possible.  The chance a pair that swapped a parcel once swaps the
    same parcel again: honest pairs that buy back now and then buy back other goods; a wash pair
    sends the one parcel back and forth again and again.

    >>> r = repeat_rates(np.array([1, 2, 0, 3]), np.array([3, 4, 2, 3]), np.array([[True, True, True, False]]),
    ...                  np.array([0.3]))
    >>> round(float(r[0]), 4)  # (0 + 1 + 4 x 0.3) / (2 + 3 + 4): the pair without a trip does not count
    0.2444
    """
    had = trips >= least
    further = np.where(had, trips - least, 0).astype(float)
    room = np.where(had, np.maximum(possible - least, 0), 0).astype(float)
    kept = keep.astype(float)
    return np.asarray((kept @ further + REPEAT_PRIOR * prior) / (kept @ room + REPEAT_PRIOR))


def _log_likelihood(b0: np.ndarray, b1: np.ndarray, rates: np.ndarray, w: np.ndarray, logn: np.ndarray,
                    centre: np.ndarray) -> np.ndarray:
    """Each row's penalised log-likelihood of ``logit r = b0 + b1 log n`` (:func:`yardsticks`): the
    weighted binomial of the kept pairs' rates, the prior pair at one half at their median
    volume, and the pull of the slope towards :data:`SLOPE_PRIOR`.  Concave in ``(b0, b1)``."""
    x = b0[:, None] + b1[:, None] * logn[None, :]
    pairs = (w * (-rates[None, :] * np.logaddexp(0.0, -x) - (1.0 - rates[None, :]) * np.logaddexp(0.0, x))).sum(axis=1)
    xc = b0 + b1 * centre
    prior = -0.5 * np.logaddexp(0.0, -xc) - 0.5 * np.logaddexp(0.0, xc)
    return np.asarray(pairs + prior - 0.5 * _SLOPE_WEIGHT * (b1 - SLOPE_PRIOR) ** 2)


def _fit(rates: np.ndarray, w: np.ndarray, logn: np.ndarray, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's maximum of :func:`_log_likelihood`: Newton steps, each halved until the
    likelihood does not fall (a full step can overshoot and swing further every time when one
    busy pair outweighs the rest; the halving makes every step an ascent, so the fit converges).

    >>> b0, b1 = _fit(np.array([0.1, 0.6, 0.2]), np.array([[5.0, 60.0, 0.0]]), np.log(np.array([10.0, 120.0,
    ...     8.0])), np.array([np.log(10.0)]))
    >>> bool(np.all(np.isfinite(b0)) and np.all(np.isfinite(b1)))
    True
    """
    rows = w.shape[0]
    b0 = np.full(rows, -2.0)
    b1 = np.full(rows, SLOPE_PRIOR)
    current = _log_likelihood(b0, b1, rates, w, logn, centre)
    for _ in range(_NEWTON):
        mu = _expit(b0[:, None] + b1[:, None] * logn[None, :])
        mu_c = _expit(b0 + b1 * centre)
        g0 = (w * (rates[None, :] - mu)).sum(axis=1) + (0.5 - mu_c)
        g1 = (w * (rates[None, :] - mu) * logn[None, :]).sum(axis=1) + (0.5 - mu_c) * centre \
            - _SLOPE_WEIGHT * (b1 - SLOPE_PRIOR)
        v = w * mu * (1 - mu)
        v_c = mu_c * (1 - mu_c)
        h00 = v.sum(axis=1) + v_c + 1e-9
        h01 = (v * logn[None, :]).sum(axis=1) + v_c * centre
        h11 = (v * logn[None, :] ** 2).sum(axis=1) + v_c * centre ** 2 + _SLOPE_WEIGHT
        det = h00 * h11 - h01 * h01
        d0 = (h11 * g0 - h01 * g1) / det
        d1 = (h00 * g1 - h01 * g0) / det
        step = np.ones(rows)
        for _ in range(_HALVINGS):
            trial = _log_likelihood(b0 + step * d0, b1 + step * d1, rates, w, logn, centre)
            worse = trial < current - 1e-12
            if not worse.any():
                break
            step = np.where(worse, step / 2, step)
        else:  # halved to the end: the likelihood at the last step, tried below
            trial = _log_likelihood(b0 + step * d0, b1 + step * d1, rates, w, logn, centre)
        moved = trial >= current - 1e-12
        b0 = np.where(moved, b0 + step * d0, b0)
        b1 = np.where(moved, b1 + step * d1, b1)
        current = np.where(moved, trial, current)
    return b0, b1


_HALVINGS = 30
"""The most a Newton step of the round-trip curve is halved before it is given up (2^-30 of a step)."""


def _expit(x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -50.0, 50.0))))


_BLOCK = 256
"""Pairs whose yardsticks are fitted at once (memory: a block times every pair)."""

_NEWTON = 25
"""Newton steps of the logistic fit (it converges in a handful)."""

SLOPE_PRIOR = 0.0
"""Where the weak prior pulls the slope of the round-trip rate in log exchanges (log-odds): flat.

The statistic is the round trips of *one parcel* out of half the pair's exchanges, and both
grow in step with the exchanges (a pair that swaps a few parcels at random makes round trips
of its commonest parcel at about that parcel's share, however long it trades), so nothing
makes a busier pair's rate higher unless the match's pairs show it.  Until screens config
2.10.0 the pull was towards 1 (doubling the exchanges doubles the odds, as finding *any*
mirror among more trades would), which read the busiest pairs of a small match at two to
four times the rate its pairs showed: a ring's seats trade more than most, and the round-trip
rings of small matches at heavy honest noise went unflagged."""

_SLOPE_WEIGHT = 1.0
"""Weight of that pull (about one pair's worth of information)."""


def return_tests(view: TransferView, ratio: float) -> dict[tuple[Any, Any], PairTest]:
    """Per screened pair with two exchanges or more: ``(p, smallest attainable p, round trips,
    trips possible, the null's rate, the null's strength)`` (module rule *wash pair*;
    :func:`pair_nulls`): the pair's round trips against a beta-binomial over half its
    exchanges (each round trip takes two)."""
    return view.once(("ring.return_tests", ratio), lambda: _return_tests(view, ratio))


def _return_tests(view: TransferView, ratio: float) -> dict[tuple[Any, Any], PairTest]:
    exempt = view.exempt
    keys: list[tuple[Any, Any]] = []
    counts: list[tuple[int, int, int]] = []
    for (a, b), pair in view.pairs.items():
        if a in exempt or b in exempt or len(pair.exchanges) < 2:
            continue
        k, n = round_trip_counts(view, pair, ratio)
        if n >= 2:
            keys.append((a, b))
            counts.append((k, n // 2, n))
    rank = view._rank
    seats = np.array([[rank[a], rank[b]] for a, b in keys], dtype=np.int64).reshape(-1, 2)
    arr = np.array(counts, dtype=np.int64).reshape(-1, 3)
    rate, strength = pair_nulls(arr[:, 0], arr[:, 1], arr[:, 2], seats)
    tested: dict[tuple[Any, Any], PairTest] = {}
    for i, key in enumerate(keys):
        k, m, _n = counts[i]
        pi, st = float(rate[i]), float(strength[i])
        tested[key] = (betabinom_sf(k, m, pi, st), betabinom_sf(m, m, pi, st), k, m, pi, st)
    return tested
