"""Mirror round trips: a trade, then a trade sending the same goods back.

The scoring rubric, *Trade ledger* and *Circular reputation* (rubric 2.4): a pair's net share is
0 when "the same goods went back and forth", and the reputation its trades paid counts as
circular in proportion to ``1 - net share``.  Only a trade with goods on both sides pays
reputation ("a gift pays nothing"), so a wash is made of trades.  A *mirror* of a trade gives
back, side by side and good by good, what the trade moved, each good worth within ``ratio`` of
what went; a round trip is a trade and its mirror, each exchange used once, in time order.  A
gift (goods one way) mirrors nothing and is mirrored by nothing: a gift of food and a gift of
food back, two seats short of food helping each other, is two one-sided exchanges (the feeder
screen's to read), not a trade undone.  The wash-pair, ring-member and round-trip-ring rules
(:mod:`.wash_pair`, :mod:`.wash_ring`) all read these round trips.

>>> x = Exchange("a", "b", 1, "x", goods={"a": {"wood": 6.0}, "b": {"stone": 6.0}})
>>> y = Exchange("a", "b", 2, "y", goods={"a": {"stone": 6.0}, "b": {"wood": 6.0}})
>>> z = Exchange("a", "b", 3, "z", goods={"a": {"wood": 12.0}, "b": {"stone": 6.0}})
>>> [(p.key, q.key) for p, q in mirrored_trips([x, y, z], 1.5)]
[('x', 'y')]
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from itertools import product
from typing import Any

from .flags import ordered
from .graph import Exchange, PairFlow, TransferView

__all__ = ["mirrorable_value", "mirrored_trips", "pair_trips"]


def _close(x: float, y: float, ratio: float) -> bool:
    lo, hi = (x, y) if x <= y else (y, x)
    return lo > 0 and hi <= ratio * lo


def _mirrors(x: Exchange, y: Exchange, ratio: float) -> bool:
    """``y`` sends back what ``x`` moved: each side gives in ``y`` the goods it got in ``x``,
    good by good, each worth within ``ratio``; both are trades (goods both ways: a gift mirrors nothing).

    >>> gift, back = Exchange("a", "b", 1, "g", goods={"a": {"food": 2.0}}), Exchange("a", "b", 2, "h", goods={"b": {"food": 2.0}})
    >>> _mirrors(gift, back, 1.5)
    False
    """
    if not all(z.goods.get(z.a) and z.goods.get(z.b) for z in (x, y)):
        return False
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
        if not (out_a and out_b):
            continue  # not a trade (goods one way or none): mirrors nothing (:func:`_mirrors`)
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


def mirrorable_value(view: TransferView, pair: PairFlow) -> float:
    """Value of the pair's trades that some other trade of the pair could mirror (one whose
    sides gave the same goods the other way round; a gift mirrors nothing): a bound on what its
    round trips can carry (each trip is a trade and its mirror, each used once)."""
    return view.once(("ring.mirrorable", pair.a, pair.b), lambda: _mirrorable(pair))


def _mirrorable(pair: PairFlow) -> float:
    a, b = pair.a, pair.b
    signatures: list[tuple[Any, Any]] = []
    trades = [x for x in pair.exchanges if not x.unvalued and x.goods.get(a) and x.goods.get(b)]
    for x in trades:
        signatures.append((_signature(x.goods[a]), _signature(x.goods[b])))
    seen = set(signatures)
    total = 0.0
    for (sig_a, sig_b), x in zip(signatures, trades):
        if (sig_b, sig_a) in seen:
            total += x.gave.get(a, 0.0) + x.gave.get(b, 0.0)
    return total


def pair_trips(view: TransferView, pair: PairFlow, ratio: float) -> list[tuple[Exchange, Exchange]]:
    """The pair's round trips (:func:`mirrored_trips`, earliest mirror), computed once per view."""
    return view.once(("ring.trips", pair.a, pair.b, ratio), lambda: mirrored_trips(pair.exchanges, ratio))
