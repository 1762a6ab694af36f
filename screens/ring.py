"""Ring: wash trading, goods going around with little net movement.

The scoring rubric, *Trade ledger* and *Circular reputation* (rubric 2.4): a pair's net share is 1 when
every item moved one way and 0 when "the same goods went back and forth"; the
reputation a pair's trades paid counts as circular in proportion to ``1 - net
share``.  Wash trading is trading for the count and the reputation, not for the
goods: the goods come back.

Three patterns, and the pairs inside them (voluntary transfers only):

**Wash pair** (``wash_pair``).  Two nodes whose trades undo each other: a trade, then
a *mirror* trade sending the same goods back (each side gives what it got, good by good,
each worth within ``max_leg_ratio``); each trade is matched once, in time order.
A candidate when the round trips carry at least ``pair_threshold`` of all the value the
pair traded and what came back is worth at least ``min_value`` typical exchanges (a size
floor); tested against the match's other pairs (:func:`return_tests`: beta-binomial count
of the pair's exchanges in round trips).  The score is that share; the pair's net share (low, by construction) and
each side's circular reputation are in the details.  Two honest traders who trade often
and fairly swap *different* goods (wood for food), and an honest pair that buys back
what it sold does so in other quantities, for other goods, now and then: far below.

**Ring members.**  Inside a ring already found (seats joined by flagged wash pairs and
cycles, three or more), a pair of its seats is flagged as a wash pair at the lower
``member_threshold``: ring trades mix with the members' other trades, and the ring
itself is the evidence that they trade to send goods round.

**Wash cycle** (``wash_cycle``).  ``A -> B -> C -> A``: each pair looks one-way (wood
one way, food the other: net share 1, no circular reputation), yet the wood comes back
to where it started.  Per good, the flow graph is cut to its strongly connected
components; inside each, simple cycles of 3 to ``max_cycle_length`` nodes are searched
depth-first from their smallest node, extending only along legs whose value stays
within ``max_leg_ratio`` of the others (value consistency) -- never
``simple_cycles`` over the whole graph; the search stops after ``max_search_steps``
steps and says so.  A *lap* is one transfer along every leg in time order (each no
earlier than the one before, worth within ``max_leg_ratio`` of the first).  A cycle
qualifies when it ran at least ``cycle_threshold`` laps and, on its laps, every member
passed on what it received (``|in - out| / (in + out)`` at most
``max_member_imbalance``) and ended where it started: its net share over the exchanges
that carried the laps, every good they moved counted, is at most ``max_member_imbalance``
too: the goods came back and nothing moved.  Food going round an honest triangle as a
currency, paying for wood, stone and fiber that move for good, leaves each member's
goods changed (net share about 0.5): trade, not a wash.  Qualifying cycles that share
seats are one ring: one flag per ring, its best cycle first; the score is that cycle's
laps.

**Round-trip ring** (``wash_ring``).  A short ring -- goods sent round once or twice and
then back, or swapped and swapped back pair after pair round a cycle, mixed with the
members' ordinary trade -- makes too few laps for the cycle rule and too few round trips
per pair for the pair rule, yet it is the same behaviour: the goods come back, nothing
moves, and every trade pays reputation.  Seats ``A, B, C (, ...)`` form one when, along a
cycle of 3 to ``max_cycle_length`` of them, every pair made at least ``ring_trips`` mirror
round trips (as above: a trade, then one sending the same goods back; here each return is
matched with the latest trade it undoes, the tightest reading in time) and one round trip
per pair can be chosen that are

- *value-consistent*: each worth within ``max_leg_ratio`` of the others (one parcel);
- *the same goods*: a good that every one of them carried;
- *time-consistent*: all under way together -- at some tick every pair of the ring had
  sent its goods and not yet had them back (buy-backs at different times are not a ring);

and, over the pairs of the cycle, the trade went back and forth: the *circular share*
``1 - sum(net share x value) / sum(value)`` (the scoring rubric's *Trade ledger*: net share 0 is "the
same goods went back and forth"; *Circular reputation* pays in proportion to
``1 - net share``) is at least ``ring_threshold``.  An honest triangle trades goods that
move for good (net share near 1 on every pair): it has no round trips to choose, or, with
the odd buy-back, a circular share far below.  When the chosen round trips also pass the
good hand to hand once round the cycle in time order (a lap), the flag says so.  The
cycles are searched depth-first, bounded, in the biconnected components of the graph of
pairs with round trips, pruning on the three consistencies as the path grows (never
``simple_cycles``), skipping components whose every pair is a wash pair or in a wash
cycle already; qualifying cycles that share seats are one ring, scored by the circular
share of all its pairs.

**The tests.**  Each pattern is a candidate; what decides is its p-value against honest
play in the same match (the match-level step adjusts it over every test of the match):

- every pair's round trips (wash pair, and a pair inside a ring): the count of its
  exchanges that ended in mirror round trips, against a beta-binomial whose mean is the
  rate of the match's pairs sharing neither of its seats (each pair one vote) and whose
  spread (``SPREAD``) lets honest pairs differ: two friends that swap the same goods buy
  back more often than strangers.  A wash pair also needs what came back to be worth
  ``min_value`` typical exchanges (a size floor);
- a wash cycle: the direction of every transfer of the cycled good between neighbours of
  the cycle, each a coin under the null (two-sided binomial): a wash sends it the cycle's
  way every time, honest trade of one good both ways;
- a round-trip ring: its pairs' round-trip tests, combined (Fisher's product: independent
  pairs under the null).

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for lap in range(3):
...     for i, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a")]):
...         _ = G.add_edge(u, v, value=6.0, tick=10 * lap + i, event=f"{lap}{i}", goods={"wood": 6.0})
>>> PARAMS = {"min_value": 3.0, "max_leg_ratio": 1.5, "pair_threshold": 0.85, "member_threshold": 0.5,
...     "max_cycle_length": 5, "cycle_threshold": 3, "max_member_imbalance": 0.3, "max_search_steps": 10000,
...     "ring_trips": 1, "ring_threshold": 0.5}
>>> [(c.flag.kind, c.flag.agents, c.flag.score, c.flag.p_value) for c in ring(TransferView(G), PARAMS)[0]]
[('wash_cycle', ('a', 'b', 'c'), 3.0, 0.00390625)]

(nine transfers of wood, all the cycle's way round: 2 x 2^-9.)

One lap and back: wood for stone round ``a -> b -> c``, each trade then undone.

>>> G = nx.MultiDiGraph()
>>> for t, (u, v, out, back) in enumerate([("a", "b", "wood", "stone"), ("b", "c", "wood", "stone"),
...         ("c", "a", "wood", "stone"), ("a", "c", "wood", "stone"), ("c", "b", "wood", "stone"),
...         ("b", "a", "wood", "stone")]):
...     _ = G.add_edge(u, v, value=6.0, tick=t, event=f"t{t}", exchange=t, goods={out: 6.0})
...     _ = G.add_edge(v, u, value=6.0, tick=t, event=f"t{t}", exchange=t, goods={back: 6.0})
>>> [(c.flag.kind, c.flag.agents, c.flag.score, c.flag.details["allUnderWayAtTick"])
...  for c in ring(TransferView(G), PARAMS)[0]]
[('wash_ring', ('a', 'b', 'c'), 1.0, 2.0)]
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import deque
from collections.abc import Collection, Mapping
from itertools import product
from typing import Any

import networkx as nx
import numpy as np

from .flags import Flag, ordered, pair_key
from .graph import Exchange, PairFlow, TransferView
from .stats import Candidate, Test, betabinom_sf, binom_sf, product_p

__all__ = ["mirrored_trips", "ring", "ring_members", "round_trip_rings", "wash_cycles", "wash_pairs"]

Transfer = tuple[Any, ...]
"""``(tick, value, event ids)`` of one good along one leg; here also the :class:`Exchange`
that carried it (4th), whose other goods tell whether the members' positions changed."""


def _good_flows(view: TransferView) -> dict[Any, dict[tuple[Any, Any], list[Transfer]]]:
    """Good -> (giver, taker) -> transfers of that good ``(tick, value, events, exchange)``,
    in time order."""
    flows: dict[Any, dict[tuple[Any, Any], list[Transfer]]] = {}
    exempt = view.exempt
    for x in view.exchanges:
        a, b = x.a, x.b
        if x.unvalued or a in exempt or b in exempt:
            continue
        for giver, taker in ((a, b), (b, a)):
            given = x.goods.get(giver)
            if not given:
                continue
            for good, value in given.items():
                if value > 0:
                    legs = flows.get(good)
                    if legs is None:
                        legs = flows[good] = {}
                    transfers = legs.get((giver, taker))
                    if transfers is None:
                        legs[(giver, taker)] = [(x.tick, value, x.events, x)]
                    else:
                        transfers.append((x.tick, value, x.events, x))
    return flows


def _close(x: float, y: float, ratio: float) -> bool:
    lo, hi = (x, y) if x <= y else (y, x)
    return lo > 0 and hi <= ratio * lo


def _mirrors(x: Exchange, y: Exchange, ratio: float) -> bool:
    """``y`` sends back what ``x`` moved: each side gives in ``y`` the goods it got in ``x``,
    good by good, each worth within ``ratio`` (a gift mirrors a gift the other way)."""
    for side in (x.a, x.b):
        out, back = x.goods.get(side, {}), y.goods.get(x.other(side), {})
        if set(out) != set(back):
            return False
        if any(not _close(out[g], back[g], ratio) for g in out):
            return False
    return bool(x.goods.get(x.a) or x.goods.get(x.b))


def mirrored_trips(exchanges: list[Exchange], ratio: float, *, latest: bool = False) -> list[tuple[Exchange, Exchange]]:
    """Round trips of whole exchanges between two nodes: in time order, each exchange is
    matched with the earliest earlier unmatched exchange it mirrors (:func:`_mirrors`);
    every exchange is used at most once.  ``latest``: with the latest such exchange instead
    (a trade undoes the one just made: the tightest round trips in time, what the
    round-trip ring rule reads; the number of round trips can differ only where values
    straddle ``ratio``).

    The unmatched exchanges wait in an index: by the goods each side gave, then by the
    value of each good on a log scale ``log(ratio)`` wide, so that an exchange is compared
    only with the few that could be its mirror, not with every one before it (near-linear
    in the pair's exchanges).  The answer is the one comparing it with every earlier
    unmatched exchange in time order gives (:func:`_mirrored_trips_scan`).

    >>> x = Exchange("a", "b", 1, "x", goods={"a": {"wood": 6.0}, "b": {"stone": 6.0}})
    >>> y = Exchange("a", "b", 2, "y", goods={"a": {"stone": 6.0}, "b": {"wood": 6.0}})
    >>> len(mirrored_trips([x, y], 1.5))
    1
    """
    if not exchanges:
        return []
    a, b = exchanges[0].a, exchanges[0].b
    if any(x.a != a or x.b != b for x in exchanges):
        return _mirrored_trips_scan(exchanges, ratio, latest=latest)  # not one pair: the plain definition
    width = math.log(ratio) if ratio > 1 and math.isfinite(ratio) else None
    log, floor = math.log, math.floor
    empty: dict[Any, float] = {}
    # (goods a gave, goods b gave) -> (a's goods in order, b's goods in order, cells); a cell is the
    # value of each good on the log scale, holding (seq, values) of the open exchanges in time order.
    # In a bucket the goods match as sets, so an exchange mirrors an entry when every value is close.
    buckets: dict[tuple[Any, Any], tuple[list[Any], list[Any], dict[tuple[int, ...], deque[tuple[Any, ...]]]]] = {}
    closed: set[int] = set()
    trips: list[tuple[Exchange, Exchange]] = []
    for seq, y in enumerate(exchanges):
        if y.unvalued:
            continue
        goods = y.goods
        out_a, out_b = goods.get(a) or empty, goods.get(b) or empty
        sig_a = tuple(out_a) if len(out_a) == 1 else frozenset(out_a)  # (:func:`_signature`)
        sig_b = tuple(out_b) if len(out_b) == 1 else frozenset(out_b)
        bucket = buckets.get((sig_b, sig_a))  # an earlier x whose a gave what y's b gives, and back
        if bucket is not None and bucket[2]:
            query = [out_b[g] for g in bucket[0]] + [out_a[g] for g in bucket[1]]
            match = _earliest_mirror(bucket[2], closed, query, ratio, width, latest)
            if match is not None:
                closed.add(match)
                trips.append((exchanges[match], y))
                continue
        if not (out_a or out_b):
            continue  # no goods: mirrors nothing (:func:`_mirrors`)
        bucket = buckets.get((sig_a, sig_b))
        if bucket is None:
            bucket = buckets[(sig_a, sig_b)] = (ordered(out_a), ordered(out_b), {})
        values = (*[out_a[g] for g in bucket[0]], *[out_b[g] for g in bucket[1]])
        if min(values) <= 0:
            continue  # a good worth nothing is never within any ratio of another (:func:`_close`)
        cell = tuple([floor(log(v) / width) for v in values]) if width is not None else ()
        found = bucket[2].get(cell)
        if found is None:
            bucket[2][cell] = deque(((seq, values),))
        else:
            found.append((seq, values))
    return trips


def _signature(goods: Mapping[Any, float]) -> Any:
    """The set of goods, hashable (a one-good side as a 1-tuple: cheaper, never equal to a set)."""
    if len(goods) == 1:
        return tuple(goods)
    return frozenset(goods)


_EPS = 1e-9
"""Slack (in cells) of the value cells searched, so that rounding never hides a mirror."""


def _earliest_mirror(cells: dict[tuple[int, ...], deque[tuple[Any, ...]]], closed: set[int], query: list[float],
                     ratio: float, width: float | None, latest: bool = False) -> int | None:
    """The earliest (``latest``: the latest) open (not ``closed``) exchange of a bucket's
    ``cells`` whose every value is within ``ratio`` of ``query`` (the value sent back of each
    of the bucket's goods, in its order), by its position; None if none."""
    if min(query) <= 0:
        return None
    if width is None:
        candidates = list(cells.values())
    else:
        spans = []
        size = 1
        for v in query:
            centre = math.log(v) / width
            span = range(math.floor(centre - 1 - _EPS), math.floor(centre + 1 + _EPS) + 1)
            spans.append(span)
            size *= len(span)
        if size <= len(cells):
            candidates = [c for k in product(*spans) if (c := cells.get(k)) is not None]
        else:
            candidates = [c for k, c in cells.items() if all(i in span for i, span in zip(k, spans))]
    best: int | None = None
    if latest:
        for cell in candidates:
            while cell and cell[-1][0] in closed:
                cell.pop()
            for seq, values in reversed(cell):
                if best is not None and seq <= best:
                    break
                if seq not in closed and all(_close(x, y, ratio) for x, y in zip(values, query)):
                    best = seq
                    break
        return best
    for cell in candidates:
        while cell and cell[0][0] in closed:
            cell.popleft()
        for seq, values in cell:
            if best is not None and seq >= best:
                break
            if seq not in closed and all(_close(x, y, ratio) for x, y in zip(values, query)):
                best = seq
                break
    return best


def _mirrored_trips_scan(exchanges: list[Exchange], ratio: float, *,
                         latest: bool = False) -> list[tuple[Exchange, Exchange]]:
    """:func:`mirrored_trips` by its definition: every exchange compared with every earlier
    unmatched one (quadratic; for exchanges that are not all between the same two nodes)."""
    pending: list[Exchange] = []
    trips: list[tuple[Exchange, Exchange]] = []
    for y in exchanges:
        if y.unvalued:
            continue
        order = range(len(pending) - 1, -1, -1) if latest else range(len(pending))
        for i in order:
            x = pending[i]
            if _mirrors(x, y, ratio):
                del pending[i]
                trips.append((x, y))
                break
        else:
            pending.append(y)
    return trips


def _mirrorable(view: TransferView, pair: PairFlow) -> float:
    """Value of the pair's exchanges that some other exchange of the pair could mirror (one
    whose sides gave the same goods the other way round): a bound on what its round trips
    can carry (each trip is an exchange and its mirror, each used once)."""
    memo_key = ("ring.mirrorable", pair.a, pair.b)
    found: float | None = view.memo.get(memo_key)
    if found is not None:
        return found
    a, b = pair.a, pair.b
    empty: dict[Any, float] = {}
    signatures: list[tuple[Any, Any]] = []
    for x in pair.exchanges:
        if not x.unvalued:
            signatures.append((_signature(x.goods.get(a) or empty), _signature(x.goods.get(b) or empty)))
    seen = set(signatures)
    total = 0.0
    valued = (x for x in pair.exchanges if not x.unvalued)
    for (sig_a, sig_b), x in zip(signatures, valued):
        if (sig_b, sig_a) in seen:
            total += x.gave.get(a, 0.0) + x.gave.get(b, 0.0)
    view.memo[memo_key] = total
    return total


PAIR_NULL = ("the pair made mirror round trips at the rate of the match's pairs of about the same volume that share "
             "neither seat (each pair one vote, weighted by closeness in number of exchanges), that rate varying "
             "from pair to pair as much as it does among those pairs (beta-binomial over the trips the pair's "
             "exchanges allow)")
"""The wash-pair null, in words."""

SPREAD = 8.0
"""The most the null trusts the match's rate: the Beta each pair's round-trip rate is drawn from has
strength (alpha + beta) at most this, less where the match's own pairs vary more."""

BANDWIDTH = math.log(2.0)
"""Pairs of about the same volume: weights fall by half-ish (Gaussian in log exchanges, this wide) for
each doubling of the number of exchanges away."""

PRIOR_ROOM = 20.0
"""Weight, in trips possible, of the prior spread (strength :data:`SPREAD`) in the match's own estimate:
a match with few pairs does not set its spread from two or three of them."""

CYCLE_NULL = ("each transfer of the good between neighbours of the cycle was as likely to go either way "
              "(binomial, two-sided)")
"""The wash-cycle null, in words."""

RING_NULL = ("each pair of the ring made round trips as the wash-pair null says, pairs independent, given that "
             "each made at least the round trips that put it in the search (its p-value conditional on that); "
             "Fisher's product over the pairs, times the cycles the search completed in the match")
"""The round-trip ring null, in words."""


def _in_trips(view: TransferView, pair: PairFlow, ratio: float) -> tuple[int, int]:
    """``(mirror round trips, exchanges of known value)``."""
    memo_key = ("ring.in_trips", pair.a, pair.b, ratio)
    found: tuple[int, int] | None = view.memo.get(memo_key)
    if found is not None:
        return found
    a, b = pair.a, pair.b
    empty: dict[Any, float] = {}
    signatures = [(_signature(x.goods.get(a) or empty), _signature(x.goods.get(b) or empty))
                  for x in pair.exchanges if not x.unvalued]
    seen = set(signatures)
    mirrorable = sum(1 for sa, sb in signatures if (sb, sa) in seen and (sa or sb))
    trips = 0
    if mirrorable >= 2:
        memo_trips = ("ring.trips", a, b, ratio)
        found_trips = view.memo.get(memo_trips)
        if found_trips is None:
            found_trips = view.memo[memo_trips] = mirrored_trips(pair.exchanges, ratio)
        trips = len(found_trips)
    found = (trips, len(signatures))
    view.memo[memo_key] = found
    return found


PairTest = tuple[float, float, int, int, float, float]
"""``(p, smallest attainable p, round trips, trips possible, the null's rate, the null's strength)``."""


def pair_nulls(trips: np.ndarray, possible: np.ndarray, exchanges: np.ndarray, seats: np.ndarray,
               ) -> tuple[np.ndarray, np.ndarray]:
    """The wash-pair null of every pair (module rule *the tests*): ``(rate, strength)``.

    ``trips[i]`` round trips of pair ``i`` out of ``possible[i]`` (half its exchanges),
    ``exchanges[i]`` its exchanges, ``seats[i]`` its two seats (integers).  The yardstick of
    pair ``i`` is read from the pairs sharing neither of its seats (a ring's own pairs do not
    set it), each pair one vote:

    - the rate: the more a pair trades, the more of its trades find a mirror by chance, so
      the rate is a logistic curve in the log of the number of exchanges, ``logit r = b0 +
      b1 log n``, fitted to those pairs' rates (``trips / possible``) by maximum likelihood,
      with one prior pair at one half at their median volume and a weak pull of ``b1``
      towards 1 (:data:`SLOPE_PRIOR`: in the log-odds, doubling the exchanges doubles the
      odds), so that a match with few pairs still has a curve;
    - the spread: how much more those pairs' counts vary than binomially around the curve
      (method of moments: the sum of ``(t - m r)^2 / (m r (1 - r)) - 1``, each pair's term at
      most ``m - 1``, over the sum of ``m - 1``: the intraclass correlation ``rho``), with
      :data:`PRIOR_ROOM` trips' worth of the prior ``1 / (1 + SPREAD)``; strength ``1 / rho -
      1``, never more than :data:`SPREAD`.

    >>> rate, strength = pair_nulls(np.array([0, 0, 0, 3]), np.array([2, 2, 2, 3]), np.array([4, 4, 4, 6]),
    ...                             np.array([[0, 1], [2, 3], [4, 5], [6, 7]]))
    >>> [round(float(r), 4) for r in rate], [round(float(s), 3) for s in strength]
    ([0.3789, 0.3789, 0.3789, 0.1034], [4.622, 4.622, 4.622, 8.0])
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
    ``keep[i]`` marks (:func:`pair_nulls`)."""
    rates = trips / possible
    floor = 1.0 / (1.0 + SPREAD)
    room = (possible - 1).astype(float)
    w = keep * possible[None, :].astype(float)  # binomial: each pair weighs its trips possible
    count = keep.sum(axis=1)
    centre = np.array([float(np.median(logn[k])) if k.any() else float(np.median(logn)) for k in keep])
    # maximum likelihood of logit r = b0 + b1 log n (Newton), plus the priors
    b0 = np.full(keep.shape[0], -2.0)
    b1 = np.full(keep.shape[0], SLOPE_PRIOR)
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
        b0 = b0 + (h11 * g0 - h01 * g1) / det
        b1 = b1 + (h00 * g1 - h01 * g0) / det
    fitted = np.clip(_expit(b0[:, None] + b1[:, None] * logn[None, :]), 1e-9, 1 - 1e-9)
    excess = (trips[None, :] - possible[None, :] * fitted) ** 2 / (possible[None, :] * fitted * (1 - fitted)) - 1.0
    excess = np.where(room[None, :] > 0, np.minimum(excess, room[None, :]), 0.0)  # one trip possible: no spread
    rho = ((keep * excess).sum(axis=1) + floor * PRIOR_ROOM) / ((keep * room[None, :]).sum(axis=1) + PRIOR_ROOM)
    rho = np.where(count > 0, rho, floor)
    rate = np.clip(_expit(b0 + b1 * at), 1e-9, 1 - 1e-9)
    return rate, 1.0 / np.clip(rho, floor, 1.0 - 1e-6) - 1.0


def _expit(x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x, -50.0, 50.0))))


TESTED_CYCLES = 8
"""A ring's qualifying cycles tested, shortest first (the p-value pays for every cycle the search
completed, tested or not)."""

_BLOCK = 256
"""Pairs whose yardsticks are fitted at once (memory: a block times every pair)."""

_NEWTON = 25
"""Newton steps of the logistic fit (it converges in a handful)."""

SLOPE_PRIOR = 1.0
"""Where the weak prior pulls the slope of the round-trip rate in log exchanges (log-odds)."""

_SLOPE_WEIGHT = 1.0
"""Weight of that pull (about one pair's worth of information)."""


def return_tests(view: TransferView, ratio: float) -> dict[tuple[Any, Any], PairTest]:
    """Per screened pair with two exchanges or more: ``(p, smallest attainable p, round trips,
    trips possible, the null's rate, the null's strength)`` (module rule *wash pair*;
    :func:`pair_nulls`): the pair's round trips against a beta-binomial over half its
    exchanges (each round trip takes two)."""
    memo_key = ("ring.return_tests", ratio)
    cached = view.memo.get(memo_key)
    if cached is not None:
        tested: dict[tuple[Any, Any], PairTest] = cached
        return tested
    exempt = view.exempt
    keys: list[tuple[Any, Any]] = []
    counts: list[tuple[int, int, int]] = []
    for (a, b), pair in view.pairs.items():
        if a in exempt or b in exempt or len(pair.exchanges) < 2:
            continue
        k, n = _in_trips(view, pair, ratio)
        if n >= 2:
            keys.append((a, b))
            counts.append((k, n // 2, n))
    rank = view._rank
    seats = np.array([[rank[a], rank[b]] for a, b in keys], dtype=np.int64).reshape(-1, 2)
    arr = np.array(counts, dtype=np.int64).reshape(-1, 3)
    rate, strength = pair_nulls(arr[:, 0], arr[:, 1], arr[:, 2], seats)
    tested = {}
    for i, key in enumerate(keys):
        k, m, _n = counts[i]
        pi, st = float(rate[i]), float(strength[i])
        tested[key] = (betabinom_sf(k, m, pi, st), betabinom_sf(m, m, pi, st), k, m, pi, st)
    view.memo[memo_key] = tested
    return tested


def _wash_pair(view: TransferView, a: Any, b: Any, params: Mapping[str, Any], threshold: float,
               ring: tuple[Any, ...] | None = None) -> Flag | None:
    """The wash-pair flag of ``a`` and ``b`` at ``threshold`` (None when it is not one);
    ``ring`` names the ring the pair belongs to (the relaxed member rule)."""
    pair = view.pair(a, b)
    a, b = pair.a, pair.b
    if len(pair.exchanges) < 2 or a in view.exempt or b in view.exempt or pair.gross <= 0:
        return None
    if _mirrorable(view, pair) < threshold * pair.gross * (1 - 1e-9):
        return None  # too little of its value could ever come back for the score to reach the threshold
    ratio = float(params["max_leg_ratio"])
    tested = return_tests(view, ratio).get((a, b))
    if tested is None:
        return None
    memo_key = ("ring.trips", a, b, ratio)
    trips = view.memo.get(memo_key)
    if trips is None:
        trips = view.memo[memo_key] = mirrored_trips(pair.exchanges, ratio)
    if not trips:
        return None
    returned = sum(x.given_by(a) + x.given_by(b) + y.given_by(a) + y.given_by(b) for x, y in trips)
    score = returned / pair.gross
    if score < threshold:
        return None
    came_back = sum(max(y.given_by(a), y.given_by(b)) for _x, y in trips)
    if came_back < float(params["min_value"]) * (view.scale or 0.0):
        return None  # a buy-back or two: too little went back and forth to accuse
    p, _smallest, k, possible, pi, strength = tested
    share = pair.net_share
    evidence: set[Any] = set()
    for x, y in trips:
        evidence.update(x.events)
        evidence.update(y.events)
    details: dict[str, Any] = {
        "roundTrips": len(trips),
        "returnedShare": round(score, 4),
        "netShare": round(share, 3),
        "exchanges": len(pair.exchanges),
        "tripsPossible": possible,
        "nullReturnRate": round(pi, 4),
        "nullStrength": round(strength, 3),
        "twoSidedExchanges": pair.two_sided,
        "grossValue": pair.gross,
    }
    circular = view.graph.graph.get("circular_reputation") or {}
    if circular:
        details["circularReputation"] = {str(n): circular[n] for n in (a, b) if n in circular}
    if ring is not None:
        details["ring"] = list(ring)
    return Flag(
        screen="ring",
        kind="wash_pair",
        level="flag",
        agents=(a, b),
        pairs=((a, b),),
        score=score,
        threshold=threshold,
        evidence=tuple(ordered(evidence)),
        explanation=(
            f"{a} and {b} traded {len(pair.exchanges)} times and {len(trips)} trades were undone by a mirror trade "
            f"sending the same goods back ({score:.0%} of the value; net share {share:.3f}; the match's other "
            f"pairs of its volume predicted {pi * possible:.1f})"
            + (f", inside the wash ring of {', '.join(map(str, ring))}" if ring is not None else "")
            + ": trading for the count and the reputation, not for the goods."
        ),
        details=details,
        p_value=p,
        null=PAIR_NULL,
    )


def wash_pairs(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Pairs sending the same goods back and forth (module rule *wash pair*)."""
    threshold = float(params["pair_threshold"])
    flags: list[Flag] = []
    for a, b in view.pairs:
        found = _wash_pair(view, a, b, params, threshold)
        if found is not None:
            flags.append(found)
    return flags


def ring_members(view: TransferView, params: Mapping[str, Any], found: list[Flag]) -> list[Flag]:
    """The relaxed member rule: inside a ring already found (seats joined by flagged wash
    pairs and cycles), a pair of its seats whose mirror round trips carry at least
    ``member_threshold`` of its value is part of the ring."""
    joined = nx.Graph()
    for flag in found:
        joined.add_edges_from(flag.pairs)
    flagged = {p for flag in found if flag.kind == "wash_pair" for p in flag.pairs}  # a pair has its own test
    threshold = float(params["member_threshold"])
    extra: list[Flag] = []
    for members in sorted((ordered(c) for c in nx.connected_components(joined)), key=repr):
        if len(members) < 3:
            continue
        inside = set(members)
        for (a, b) in view.pairs:
            if a in inside and b in inside and (a, b) not in flagged:
                member = _wash_pair(view, a, b, params, threshold, tuple(members))
                if member is not None:
                    extra.append(member)
    return extra


def _cycles_in(component: nx.DiGraph, values: Mapping[tuple[Any, Any], float], max_len: int,
               ratio: float, budget: list[int]) -> list[tuple[Any, ...]]:
    """Simple cycles of 3..max_len nodes in one SCC, each found once from its smallest node,
    extending only along legs whose value stays within ``ratio`` of the path's others."""
    order = {n: i for i, n in enumerate(ordered(component.nodes))}
    successors = {n: ordered(component.successors(n)) for n in component.nodes}
    found: list[tuple[Any, ...]] = []
    for start in ordered(component.nodes):
        _extend(start, [start], {start}, float("inf"), 0.0, order, successors, values, max_len, ratio,
                budget, found)
    return found


def _extend(start: Any, path: list[Any], on_path: set[Any], lo: float, hi: float, order: Mapping[Any, int],
            successors: Mapping[Any, list[Any]], values: Mapping[tuple[Any, Any], float], max_len: int,
            ratio: float, budget: list[int], found: list[tuple[Any, ...]]) -> None:
    """Depth-first step of :func:`_cycles_in` (depth at most ``max_len``)."""
    node = path[-1]
    for nxt in successors[node]:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        value = values[(node, nxt)]
        nlo, nhi = min(lo, value), max(hi, value)
        if nhi > ratio * nlo:
            continue
        if nxt == start:
            if len(path) >= 3:
                found.append(tuple(path))
            continue
        if order[nxt] <= order[start] or nxt in on_path or len(path) >= max_len:
            continue
        path.append(nxt)
        on_path.add(nxt)
        _extend(start, path, on_path, nlo, nhi, order, successors, values, max_len, ratio, budget, found)
        path.pop()
        on_path.discard(nxt)


def _laps(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]],
          ratio: float) -> list[list[Transfer]]:
    """Time-consistent laps around ``cycle`` starting with its first leg (module docstring):
    each lap takes, leg after leg, the earliest unused transfer no earlier than the one
    before and worth within ``ratio`` of the lap's first."""
    edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
    queues = [legs[e] for e in edges]  # sorted by tick (:func:`_good_flows`)
    ticks = [[t[0] for t in q] for q in queues]
    used = [[False] * len(q) for q in queues]
    laps: list[list[Transfer]] = []
    for i0, first in enumerate(queues[0]):
        if used[0][i0]:
            continue
        picks = [(0, i0)]
        tick = first[0]
        for k in range(1, len(edges)):
            pick = None
            for i in range(bisect_left(ticks[k], tick), len(queues[k])):
                if not used[k][i] and _close(first[1], queues[k][i][1], ratio):
                    pick = i
                    break
            if pick is None:
                break
            picks.append((k, pick))
            tick = queues[k][pick][0]
        if len(picks) < len(edges):
            continue
        for k, i in picks:
            used[k][i] = True
        laps.append([queues[k][i] for k, i in picks])
    return laps


def _qualifying(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]], ratio: float,
                threshold: float, max_imbalance: float) -> tuple[list[list[Transfer]], float] | None:
    """The cycle's laps (best starting leg) and member imbalance, when it is a wash cycle."""
    laps = max((_laps(cycle[k:] + cycle[:k], legs, ratio) for k in range(len(cycle))), key=len)
    if len(laps) < threshold:
        return None
    size = len(cycle)
    inflow = [0.0] * size
    outflow = [0.0] * size
    for lap in laps:
        for k, t in enumerate(lap):
            outflow[k] += t[1]
            inflow[(k + 1) % size] += t[1]
    imbalance = max(abs(inflow[k] - outflow[k]) / (inflow[k] + outflow[k]) for k in range(size))
    if imbalance > max_imbalance:
        return None
    moved = _members_net_share([t[3] for lap in laps for t in lap if len(t) > 3])
    if moved > max_imbalance:
        return None  # the goods came back, but what paid for them moved for good: trade, not a wash
    return laps, max(imbalance, moved)


def _members_net_share(exchanges: list[Exchange]) -> float:
    """The largest member's net share over ``exchanges`` (each counted once): per member, for
    each good, ``|received - given|`` summed over ``received + given`` summed (the scoring rubric's *Trade
    ledger*, taken over a member's side of the lap exchanges).  0 when every member got back
    what it handed on -- the goods went round, nothing moved; about 0.5 when a currency went
    round paying for goods that moved for good (wood for food, food for fiber)."""
    gave: dict[tuple[Any, Any], float] = {}  # (member, good) -> value handed over
    got: dict[tuple[Any, Any], float] = {}
    for x in {id(x): x for x in exchanges}.values():  # each exchange once
        a, b = x.a, x.b
        for giver, taker in ((a, b), (b, a)):
            given = x.goods.get(giver)
            if given:
                for good, value in given.items():
                    k = (giver, good)
                    gave[k] = gave.get(k, 0.0) + value
                    k = (taker, good)
                    got[k] = got.get(k, 0.0) + value
    moved: dict[Any, float] = {}
    total: dict[Any, float] = {}
    for k in [*gave, *(k for k in got if k not in gave)]:  # in a fixed order: sums reproduce exactly
        out, back = gave.get(k, 0.0), got.get(k, 0.0)
        member = k[0]
        moved[member] = moved.get(member, 0.0) + abs(back - out)
        total[member] = total.get(member, 0.0) + back + out
    return max((moved[m] / total[m] for m in total if total[m] > 0), default=0.0)


def wash_cycles(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Flag], list[str]]:
    """Goods that go around a cycle of three or more: module rules *wash cycle*, then
    *round-trip ring* (:func:`round_trip_rings`) for what the laps' rings do not cover.

    Cycles that share seats are one ring: one flag per ring (connected seats), naming its
    best cycle first.  Returns the flags and notes (e.g. the search budget ran out).
    """
    max_len = int(params["max_cycle_length"])
    ratio = float(params["max_leg_ratio"])
    threshold = float(params["cycle_threshold"])
    max_imbalance = float(params["max_member_imbalance"])
    min_transfers = max(1, int(threshold))
    budget = [int(params["max_search_steps"])]
    notes: list[str] = []
    rings = nx.Graph()  # seats joined by the legs of qualifying cycles
    cycles: list[dict[str, Any]] = []
    for good, legs in _good_flows(view).items():
        flow = nx.DiGraph()
        values: dict[tuple[Any, Any], float] = {}
        for (u, v), transfers in legs.items():
            if len(transfers) >= min_transfers:
                flow.add_edge(u, v)
                values[(u, v)] = sum(t[1] for t in transfers) / len(transfers)
        for nodes in nx.strongly_connected_components(flow):
            if len(nodes) < 3:
                continue
            for cycle in _cycles_in(flow.subgraph(nodes), values, max_len, ratio, budget):
                edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
                if all(rings.has_edge(u, v) for u, v in edges):
                    continue  # adds nothing to a ring already found
                found = _qualifying(cycle, legs, ratio, threshold, max_imbalance)
                if found is None:
                    continue
                laps, imbalance = found
                rings.add_edges_from(edges)
                along = sum(len(legs[e]) for e in edges)
                both = along + sum(len(legs.get((v, u), ())) for u, v in edges)
                p = min(1.0, 2 * binom_sf(max(along, both - along), both, 0.5))
                cycles.append({"cycle": cycle, "good": good, "laps": len(laps), "imbalance": imbalance,
                               "events": {e for lap in laps for t in lap for e in t[2]}, "p": p,
                               "min_p": min(1.0, 2 * 0.5 ** both), "along": along, "transfers": both})
    if budget[0] <= 0:
        notes.append(f"ring: the cycle search stopped after {int(params['max_search_steps'])} steps; "
                     "some cycles may be missing")
    circular = view.graph.graph.get("circular_reputation") or {}
    flags: list[Flag] = []
    for members in sorted((ordered(c) for c in nx.connected_components(rings)), key=repr):
        inside = [c for c in cycles if c["cycle"][0] in members]
        best = max(inside, key=lambda c: (c["laps"], -c["p"], -len(c["cycle"])))
        cycle = best["cycle"]
        pairs = ordered({pair_key(u, v) for u, v in rings.subgraph(members).edges})
        shares = {f"{a}~{b}": round(view.pair(a, b).net_share, 3) for a, b in pairs}
        least = min(shares.values())
        path = " -> ".join(str(n) for n in (*cycle, cycle[0]))
        others = [n for n in members if n not in cycle]
        details: dict[str, Any] = {
            "cycle": list(cycle),
            "laps": best["laps"],
            "cycles": [{"cycle": list(c["cycle"]), "good": c["good"], "laps": c["laps"]}
                       for c in sorted(inside, key=lambda c: (-c["laps"], repr(c["cycle"])))[:10]],
            "cyclesFound": len(inside),
            "memberImbalance": round(best["imbalance"], 4),
            "pairNetShare": shares,
            "good": best["good"],
            "transfersAlong": best["along"],
            "transfers": best["transfers"],
            "minP": best["min_p"],
        }
        if circular:
            details["circularReputation"] = {str(n): circular[n] for n in members if n in circular}
        flags.append(Flag(
            screen="ring",
            kind="wash_cycle",
            level="flag",
            agents=(*cycle, *others),
            pairs=tuple(pairs),
            score=float(best["laps"]),
            threshold=threshold,
            evidence=tuple(ordered({e for c in inside for e in c["events"]})),
            explanation=(
                f"Goods went around {path} {best['laps']} times and came back where they started"
                + (f" ({len(inside)} such cycles among {len(members)} seats)" if len(inside) > 1 else "")
                + (f", though each pair's trades look one-way (net share {least:.3f} or more), "
                   "which circular reputation cannot see."
                   if least >= 0.5 else
                   f", farming trades and reputation (pairs' net share as low as {least:.3f}).")
            ),
            details=details,
            p_value=best["p"],
            null=CYCLE_NULL,
        ))
    more, more_notes = round_trip_rings(view, params)  # a wash cycle is a candidate, not yet a finding
    return flags + more, notes + more_notes


Intervals = list[tuple[float, float]]
"""Sorted, disjoint closed intervals."""


class _Trip:
    """One mirror round trip of a pair, as the round-trip ring rule reads it."""

    __slots__ = ("value", "start", "end", "goods", "givers", "events")

    def __init__(self, x: Exchange, y: Exchange) -> None:
        self.value = sum(x.gave.values())
        """Value of the first trade (both sides): the parcel's size."""
        self.start = x.tick
        """When the goods went (the first trade)."""
        self.end = y.tick
        """When they came back (the mirror trade)."""
        givers: dict[Any, set[Any]] = {}
        for side, given in x.goods.items():
            for good in given:
                givers.setdefault(good, set()).add(side)
        self.givers = givers
        """Good -> who handed it over in the first trade (the other hands it back in the mirror)."""
        self.goods = frozenset(givers)
        self.events = (*x.events, *y.events)

    def hand_off(self, good: Any, giver: Any) -> float | None:
        """When ``giver`` handed ``good`` to the other side in this round trip: in the first
        trade, or in the mirror sending it back; None if it never did."""
        first = self.givers.get(good)
        if not first:
            return None
        return self.start if giver in first else self.end


def _merged(intervals: list[tuple[float, float]]) -> Intervals:
    out: Intervals = []
    for lo, hi in sorted(intervals):
        if out and lo <= out[-1][1]:
            if hi > out[-1][1]:
                out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return out


def _intersect(xs: Intervals, ys: Intervals) -> Intervals:
    """Where both interval sets hold (each sorted and disjoint)."""
    out: Intervals = []
    i = j = 0
    while i < len(xs) and j < len(ys):
        lo, hi = max(xs[i][0], ys[j][0]), min(xs[i][1], ys[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if xs[i][1] < ys[j][1]:
            i += 1
        else:
            j += 1
    return out


class _Leg:
    """A pair of the trip graph: its round trips and what any choice among them can satisfy."""

    __slots__ = ("trips", "sizes", "goods", "times")

    def __init__(self, trips: list[_Trip], ratio: float) -> None:
        self.trips = trips
        self.sizes = _merged([(t.value / ratio, t.value) for t in trips])
        """Window floors ``w`` for which some trip is worth within ``[w, ratio * w]``."""
        self.goods = frozenset().union(*(t.goods for t in trips))
        self.times = _merged([(t.start, t.end) for t in trips])
        """Ticks at which some round trip was under way."""


class _Episode:
    """When a round-trip ring was under way: its round trips, the good, and the lap, if any."""

    __slots__ = ("tick", "good", "trips", "path", "hand_offs")

    def __init__(self, tick: float, good: Any, trips: list[_Trip], path: list[Any] | None,
                 hand_offs: list[float] | None) -> None:
        self.tick = tick
        """The earliest tick at which every chosen round trip was under way."""
        self.good = good
        """A good every chosen round trip carried."""
        self.trips = trips
        """One round trip per pair of the cycle, in the cycle's order."""
        self.path = path
        """The seats in the order the good went once round (hand to hand, in time order), the
        first one first; None when it went back and forth on each pair without a lap."""
        self.hand_offs = hand_offs
        """The tick of each hand-off along ``path``."""


def _together(cycle: tuple[Any, ...], legs: list[_Leg], ratio: float) -> _Episode | None:
    """The round-trip ring test of ``cycle`` (``legs[i]`` the pair of ``cycle[i]`` and the next):
    one round trip per pair, each worth within ``ratio`` of the others, all carrying one good,
    all under way at one tick.  The earliest such tick, for a good that went round the cycle
    (a lap, :func:`_lap_of`) if one did; None when there is none."""
    best: _Episode | None = None
    anchors = ordered({(t.value, g) for leg in legs for t in leg.trips for g in t.goods})
    for floor_value, good in anchors:  # the cheapest chosen round trip, and the good they all carry
        ceiling = floor_value * ratio * (1 + 1e-12)
        fits: list[list[_Trip]] = []
        for leg in legs:
            fit = [t for t in leg.trips if floor_value <= t.value <= ceiling and good in t.goods]
            if not fit:
                break
            fits.append(fit)
        else:
            for tick in ordered({t.start for fit in fits for t in fit}):  # when the last of them set out
                under_way = [[t for t in fit if t.start <= tick <= t.end] for fit in fits]
                if not all(under_way):
                    continue
                lap = _lap_of(cycle, under_way, good)
                if lap is not None:
                    found = _Episode(tick, good, *lap)
                else:
                    found = _Episode(tick, good, [min(u, key=lambda t: (t.start, t.end)) for u in under_way],
                                     None, None)
                if best is None or (found.path is None, found.tick) < (best.path is None, best.tick):
                    best = found  # the earliest, one whose good went round first
                break
    return best


def _lap_of(cycle: tuple[Any, ...], under_way: list[list[_Trip]],
            good: Any) -> tuple[list[_Trip], list[Any], list[float]] | None:
    """A lap of ``good`` round ``cycle`` through one of each pair's ``under_way`` round trips
    (its first trade or the mirror): either way round, from any seat, each hand-off no
    earlier than the one before (the earliest possible at each step, which finds a lap
    whenever there is one).  ``(trips, path, hand-off ticks)``; None if there is none."""
    size = len(cycle)
    for forward in (True, False):
        # the hops in the order the good goes: (pair index, giver)
        if forward:
            hops = [(i, cycle[i]) for i in range(size)]
        else:
            hops = [(i, cycle[(i + 1) % size]) for i in reversed(range(size))]
        for first in range(size):
            picks: dict[int, _Trip] = {}
            ticks: list[float] = []
            previous = -math.inf
            for step in range(size):
                i, giver = hops[(first + step) % size]
                options = [(h, t.start, t.end, t) for t in under_way[i]
                           if (h := t.hand_off(good, giver)) is not None and h >= previous]
                if not options:
                    break
                previous, *_, picks[i] = min(options, key=lambda o: o[:3])
                ticks.append(previous)
            else:
                path = [hops[(first + step) % size][1] for step in range(size)]
                return [picks[i] for i in range(size)], path, ticks
    return None


def _circular_share(view: TransferView, pairs: Collection[tuple[Any, Any]]) -> float:
    """``1 - sum(net share x value) / sum(value)`` over ``pairs``: the share of their trade that
    went back and forth (the scoring rubric's *Trade ledger*, *Circular reputation*)."""
    gross = moved = 0.0
    for a, b in pairs:
        pair = view.pair(a, b)
        gross += pair.gross
        moved += pair.net_share * pair.gross
    return 1 - moved / gross if gross > 0 else 0.0


def _ring_search(start: Any, path: list[Any], on_path: set[Any], sizes: Intervals, goods: frozenset[Any],
                 times: Intervals, order: Mapping[Any, int], neighbours: Mapping[Any, list[Any]],
                 legs: Mapping[tuple[Any, Any], _Leg], key: Any, max_len: int, budget: list[int],
                 found: list[tuple[Any, ...]]) -> None:
    """Depth-first step of :func:`round_trip_rings`: simple cycles from their smallest node, each
    once (its second node smaller than its last), extended only while some choice of round
    trips can still be value-consistent, share a good and be under way together."""
    node = path[-1]
    for nxt in neighbours[node]:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if nxt == start:
            if len(path) < 3 or order[path[1]] > order[node]:
                continue
        elif order[nxt] <= order[start] or nxt in on_path or len(path) >= max_len:
            continue
        leg = legs[key(node, nxt)]
        nsizes = _intersect(sizes, leg.sizes)
        ngoods = goods & leg.goods
        ntimes = _intersect(times, leg.times)
        if not (nsizes and ngoods and ntimes):
            continue
        if nxt == start:
            found.append(tuple(path))
            continue
        path.append(nxt)
        on_path.add(nxt)
        _ring_search(start, path, on_path, nsizes, ngoods, ntimes, order, neighbours, legs, key, max_len,
                     budget, found)
        path.pop()
        on_path.discard(nxt)


def round_trip_rings(view: TransferView, params: Mapping[str, Any],
                     covered: Collection[tuple[Any, Any]] = ()) -> tuple[list[Flag], list[str]]:
    """Short wash rings: round trips on every pair of a cycle, together (module rule
    *round-trip ring*).  ``covered`` holds pairs (``a < b``) of rings already found (the screen passes none:
    a wash pair or cycle is a candidate, not yet a finding); a cycle whose pairs are all covered adds nothing
    and is not searched for.  Returns the flags and notes."""
    ratio = float(params["max_leg_ratio"])
    min_trips = max(1, int(params["ring_trips"]))
    threshold = float(params["ring_threshold"])
    max_len = int(params["max_cycle_length"])
    steps = int(params["max_search_steps"])
    exempt = view.exempt
    legs: dict[tuple[Any, Any], _Leg] = {}
    trips_graph = nx.Graph()
    for (a, b), pair in view.pairs.items():
        if a in exempt or b in exempt or len(pair.exchanges) < 2 * min_trips or pair.gross <= 0:
            continue
        if _mirrorable(view, pair) <= 0:
            continue  # no exchange of the pair could be mirrored by another
        trips = mirrored_trips(pair.exchanges, ratio, latest=True)  # each undoing the trade just made
        if len(trips) >= min_trips:
            legs[(a, b)] = _Leg([_Trip(x, y) for x, y in trips], ratio)
            trips_graph.add_edge(a, b)
    if trips_graph.number_of_nodes() < 3:
        return [], []
    trips_graph = nx.k_core(trips_graph, 2)  # a seat on a cycle has two partners on it
    covered = {pair_key(a, b) for a, b in covered}
    budget = [steps]
    completed = 0  # cycles the search completed: the ring test pays for every one (Bonferroni)
    rings = nx.Graph()  # seats joined by the pairs of qualifying cycles
    cycles: list[dict[str, Any]] = []
    everything: Intervals = [(-math.inf, math.inf)]
    for component in sorted((ordered(c) for c in nx.biconnected_components(trips_graph) if len(c) >= 3),
                            key=repr):
        sub = trips_graph.subgraph(component)
        if all(pair_key(a, b) in covered for a, b in sub.edges):
            continue  # every ring in it would add nothing
        order = {n: i for i, n in enumerate(component)}
        neighbours = {n: ordered(sub.neighbors(n)) for n in component}
        for start in component:
            found: list[tuple[Any, ...]] = []
            _ring_search(start, [start], {start}, everything, frozenset().union(*(
                legs[view.key(start, n)].goods for n in neighbours[start])), everything, order, neighbours,
                legs, view.key, max_len, budget, found)
            completed += len(found)
            for cycle in found:
                pairs = [view.key(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
                if all(pair_key(*p) in covered or rings.has_edge(*p) for p in pairs):
                    continue  # adds nothing to a ring already found
                share = _circular_share(view, pairs)
                if share < threshold:
                    continue
                episode = _together(cycle, [legs[p] for p in pairs], ratio)
                if episode is None:
                    continue
                rings.add_edges_from(pairs)
                cycles.append({"cycle": cycle, "episode": episode})
    notes: list[str] = []
    if budget[0] <= 0:
        notes.append(f"ring: the round-trip ring search stopped after {steps} steps; some rings may be missing")
    circular = view.graph.graph.get("circular_reputation") or {}
    flags: list[Flag] = []
    for members in sorted((ordered(c) for c in nx.connected_components(rings)), key=repr):
        inside = [c for c in cycles if c["cycle"][0] in members]
        pairs = ordered({pair_key(u, v) for u, v in rings.subgraph(members).edges})
        score = _circular_share(view, pairs)
        first = min(inside, key=lambda c: (c["episode"].path is None, c["episode"].tick, len(c["cycle"]),
                                           repr(c["cycle"])))
        cycle = first["cycle"]
        episode: _Episode = first["episode"]
        shares = {f"{a}~{b}": round(view.pair(a, b).net_share, 3) for a, b in pairs}
        round_trips = {f"{a}~{b}": len(legs[view.key(a, b)].trips) for a, b in pairs}
        evidence = {e for a, b in pairs for t in legs[view.key(a, b)].trips for e in t.events}
        others = [n for n in members if n not in cycle]
        details: dict[str, Any] = {
            "cycle": list(cycle),
            "good": episode.good,
            "allUnderWayAtTick": episode.tick,
            "lap": list(episode.path) if episode.path is not None else None,
            "handOffTicks": list(episode.hand_offs) if episode.hand_offs is not None else None,
            "circularShare": round(score, 4),
            "roundTrips": round_trips,
            "pairNetShare": shares,
            "cyclesFound": len(inside),
        }
        if episode.path is not None:
            path = " -> ".join(str(n) for n in (*episode.path, episode.path[0]))
            story = f"{episode.good} went round {path} and every pair sent it back"
        else:
            seats = ", ".join(str(n) for n in cycle[:-1]) + f" and {cycle[-1]}"
            story = f"{seats}, each with the next, traded {episode.good} and sent it back"
        if circular:
            details["circularReputation"] = {str(n): circular[n] for n in members if n in circular}
        potential = _potential_cycles(view, min_trips, max_len)
        tested_cycles = []  # each qualifying cycle of the ring, its own pairs against the pairs outside it
        for c in sorted(inside, key=lambda c: (len(c["cycle"]), repr(c["cycle"])))[:TESTED_CYCLES]:
            mine = [view.key(c["cycle"][i], c["cycle"][(i + 1) % len(c["cycle"])]) for i in range(len(c["cycle"]))]
            selected, plain = _ring_pair_tests(view, ratio, mine, c["cycle"], min_trips)
            given = min(1.0, product_p([t[0] for t in selected]) * max(completed, 1))
            anywhere = min(1.0, product_p([t[0] for t in plain]) * max(potential, 1.0))
            least = min(product_p([t[1] for t in selected]) * max(completed, 1),
                        product_p([t[1] for t in plain]) * max(potential, 1.0))
            tested_cycles.append((min(1.0, 2 * min(given, anywhere)), min(1.0, 2 * least), repr(c["cycle"]),
                                  c["cycle"], mine, selected, plain, given, anywhere))
        p_ring, smallest, _, tested_cycle, tested_pairs, selected, plain, given, anywhere = min(tested_cycles)
        details["testedCycle"] = list(tested_cycle)
        details["pairPValues"] = {f"{a}~{b}": t[0] for (a, b), t in zip(tested_pairs, plain)}
        details["pairPValuesGivenSearch"] = {f"{a}~{b}": t[0] for (a, b), t in zip(tested_pairs, selected)}
        details["cyclesSearched"] = completed
        details["cyclesPossible"] = round(potential, 1)
        details["pGivenSearch"] = given
        details["pAnyCycle"] = anywhere
        details["minP"] = smallest
        flags.append(Flag(
            screen="ring",
            kind="wash_ring",
            level="flag",
            agents=(*cycle, *others),
            pairs=tuple(pairs),
            score=score,
            threshold=threshold,
            evidence=tuple(ordered(evidence)),
            explanation=(
                f"{story}, all under way together at tick {episode.tick:g}, each leg of one value: "
                f"{score:.0%} of their trade went back and forth "
                f"(net share as low as {min(shares.values()):.3f}), trading for the count and the reputation, "
                "not for the goods."
            ),
            details=details,
            p_value=p_ring,
            null=RING_NULL,
        ))
    return flags, notes


def _ring_pair_tests(view: TransferView, ratio: float, pairs: list[tuple[Any, Any]], members: Collection[Any],
                     least: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Each ring pair's round-trip p-value and the smallest it could be, against the wash-pair
    null read from the pairs with no seat in the ring (:func:`yardsticks`: none of the ring's own
    pairs sets its yardstick): ``(given the search, plain)``.  Given the search: given that it
    made at least ``least`` round trips (what put it in the ring search), ``P(T >= t) / P(T >=
    least)``; plain: ``P(T >= t)``.  ``(1, 1)`` for a pair without a test."""
    tested = return_tests(view, ratio)
    memo_key = ("ring.pair_arrays", ratio)
    cached = view.memo.get(memo_key)
    if cached is None:
        keys = list(tested)
        arr = np.array([[tested[k][2], tested[k][3]] for k in keys], dtype=np.int64).reshape(-1, 2)
        valued = {k: _in_trips(view, view.pairs[k], ratio)[1] for k in keys}
        logn = np.log(np.array([valued[k] for k in keys], dtype=float))
        cached = view.memo[memo_key] = (keys, arr, valued, logn)
    keys, arr, valued, logn = cached
    inside = set(members)
    keep = np.array([not (a in inside or b in inside) for a, b in keys], dtype=bool)
    mine = [view.key(a, b) for a, b in pairs]
    at = np.array([math.log(valued[k]) if k in valued else 0.0 for k in mine])
    rate, strength = yardsticks(arr[:, 0], arr[:, 1], logn, np.tile(keep, (len(mine), 1)), at)
    given: list[tuple[float, float]] = []
    plain: list[tuple[float, float]] = []
    for i, k in enumerate(mine):
        if k not in tested:
            given.append((1.0, 1.0))
            plain.append((1.0, 1.0))
            continue
        trips, possible = tested[k][2], tested[k][3]
        pi, st = float(rate[i]), float(strength[i])
        observed = betabinom_sf(max(trips, least), possible, pi, st)
        most = betabinom_sf(max(possible, least), possible, pi, st)
        plain.append((observed, most))
        base = betabinom_sf(least, possible, pi, st)
        given.append((min(1.0, observed / base), min(1.0, most / base)) if base > 0 else (1.0, 1.0))
    return given, plain


def _potential_cycles(view: TransferView, least: int, max_len: int) -> float:
    """An upper bound on the cycles of 3 to ``max_len`` seats the round-trip ring search could have
    tested, whatever the trips: cycles of the graph of screened pairs with at least ``2 x least``
    exchanges (each could have made the round trips), counted as closed walks (``trace(A^k) / 2k``
    per biconnected component, from its eigenvalues), which is at least the number of ``k``-cycles."""
    memo_key = ("ring.potential", least, max_len)
    found: float | None = view.memo.get(memo_key)
    if found is not None:
        return found
    graph = nx.Graph()
    exempt = view.exempt
    for (a, b), pair in view.pairs.items():
        if a not in exempt and b not in exempt and len(pair.exchanges) >= 2 * least:
            graph.add_edge(a, b)
    total = 0.0
    for component in nx.biconnected_components(graph):
        if len(component) < 3:
            continue
        nodes = ordered(component)
        adjacency = nx.to_numpy_array(graph.subgraph(nodes), nodelist=nodes)
        eigen = np.linalg.eigvalsh(adjacency)
        total += sum(float(np.sum(eigen ** k)) / (2 * k) for k in range(3, max_len + 1))
    view.memo[memo_key] = total
    return total


def ring(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test], list[str]]:
    """Wash pairs, wash cycles, round-trip rings and the pairs inside a ring (module rules), as
    candidates with the tests they rest on; every pair's round-trip test is in the family."""
    ratio = float(params["max_leg_ratio"])
    tests = [Test(("ring.pair", a, b), t[0], t[1]) for (a, b), t in return_tests(view, ratio).items()]
    cycles, notes = wash_cycles(view, params)
    found = wash_pairs(view, params) + cycles
    candidates: list[Candidate] = []
    for flag in found + ring_members(view, params, found):
        if flag.kind == "wash_pair":
            key: Any = ("ring.pair", *flag.pairs[0])
        elif flag.kind == "wash_cycle":
            key = ("ring.cycle", tuple(ordered(flag.agents)), flag.details["good"])
            tests.append(Test(key, flag.p_value or 1.0, flag.details["minP"]))
        else:
            key = ("ring.ring", tuple(ordered(flag.agents)))
            tests.append(Test(key, flag.p_value or 1.0, flag.details["minP"]))
        candidates.append(Candidate(flag, (key,)))
    return candidates, tests, notes
