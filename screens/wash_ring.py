"""Round-trip rings: round trips of one parcel on every pair of a cycle of seats, under way together.

The scoring rubric, *Trade ledger* and *Circular reputation* (rubric 2.4).

**Round-trip ring** (``wash_ring``).  A short ring -- goods sent round once or twice and
then back, or swapped and swapped back pair after pair round a cycle, mixed with the
members' ordinary trade -- makes too few laps for the cycle rule and too few round trips
per pair for the pair rule, yet it is the same behaviour: the goods come back, nothing
moves, and every trade pays reputation.  Seats ``A, B, C (, ...)`` form one when, along a
cycle of 3 to ``max_cycle_length`` of them, every pair made at least ``ring_trips`` mirror
round trips (:mod:`.mirrors`: a trade, then one sending the same goods back; here each return is
matched with the latest trade it undoes, the tightest reading in time) and one round trip
per pair can be chosen that are

- *value-consistent*: each worth within ``max_leg_ratio`` of the others (one parcel);
- *the same goods*: a good that every one of them carried;
- *time-consistent*: all under way together -- at some tick every pair of the ring had
  sent its goods and not yet had them back; or, where no tick has them all out at once, the
  pairs' washing interleaved -- at some tick every pair was between its first round trip of
  the parcel and its last (a ring that washes again and again, lap after lap, where a
  declined offer shifts one pair's returns by a lap; buy-backs at different times, each
  pair's once, are still not a ring);

and, over the pairs of the cycle, the trade went back and forth: the *circular share*
``1 - sum(net share x value) / sum(value)`` (the scoring rubric's *Trade ledger*: net share 0 is "the
same goods went back and forth"; *Circular reputation* pays in proportion to
``1 - net share``) is at least ``ring_threshold``.  An honest triangle trades goods that
move for good (net share near 1 on every pair): it has no round trips to choose, or, with
the odd buy-back, a circular share far below.  When the chosen round trips also pass the
good hand to hand once round the cycle in time order (a lap), the flag says so.  The
cycles are searched depth-first, bounded, in the biconnected components of the graph of
pairs with round trips, pruning on the three consistencies as the path grows (never
``simple_cycles``), skipping components whose every pair is ``covered`` already (the
screen passes none); qualifying cycles that share seats are one ring, scored by the circular

**The test.**  A ring is one hypothesis, and the search that found it is paid for.  Each of
its pairs' round trips is weighed against the pairs with no seat in the ring
(:func:`~.round_trip_null.yardsticks`: a ring's own pairs never set its yardstick), the
pairs independent under the null, Fisher's product over them, given the search: each
pair's further round trips of one parcel beyond the ``ring_trips`` that put it in the
search, out of the trips its exchanges still allowed, at the match's *repeat rate* -- how
often the outside pairs that made a round trip came back for more of one parcel
(:func:`~.round_trip_null.repeat_rates`, shrunk towards the round-trip rate at the pair's
volume) -- times the cycles the search completed (Bonferroni).  An honest pair buys back
now and then, other goods each time; a ring sends its one parcel round again and again.
It is read two ways, both valid:

- *its best cycle*: of a ring's qualifying cycles, the :data:`TESTED_CYCLES` shortest are
  tested and the best counts (its seats' pairs outside the ring are the same for all of
  them): a ring washed mostly along one cycle is not diluted by the pairs it barely used;
- *the whole ring*: every pair of its qualifying cycles at once (a ring of four washes
  across as well as round): at heavy honest noise each pair's few round trips are as
  common as an honest barterer's, and only the evidence of every pair together stands out;

the smaller of the two, doubled (Bonferroni over the two readings).  A ring found once
round (one round trip a pair) is shown, but given the search its evidence is nil: the
round trip is what put it in the search.  Each pair's p-value as it stands (not given the
search) is shown beside it.

**Who is named** (``ring_member_level``).  Over many rounds honest pairs make a round trip or
two by chance, and a washing ring's cycles reach them through its members' other partners:
the ring's test, carried by the washing pairs, would name them too.  So a ring's flag names
only the members that carry their own evidence: a member's pairs on the ring's qualifying
cycles among the named members (cycles that added no new pair to the ring included: a
ring's own triangle may be met after longer cycles through honest partners), each read given
the search against the pairs with no seat among the named members, Fisher's product; while a
member's leaves a chance above ``ring_member_level``, the weakest such member whose leaving
keeps a qualifying cycle among the others is left out, and the evidence is read again without
it.  A member a cycle needs is named however weak (a short ring's evidence is its pairs
together).  The test and its p-value stay the whole ring's: no level moves.  The flag is told
from a cycle of the named seats (the earliest kept one with a lap, as any ring's; where every
kept cycle ran through a seat left out, their shortest qualifying cycle) and says who was left
out, with their chance (``details.notNamed``; the named members' own evidence in
``details.ownEvidence``); 1 names every seat of the ring's cycles (configuration 2.29.0).

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> for t, (u, v, out, back) in enumerate([("a", "b", "wood", "stone"), ("b", "c", "wood", "stone"),
...         ("c", "a", "wood", "stone"), ("a", "c", "wood", "stone"), ("c", "b", "wood", "stone"),
...         ("b", "a", "wood", "stone")]):
...     _ = G.add_edge(u, v, value=6.0, tick=t, event=f"t{t}", exchange=t, goods={out: 6.0})
...     _ = G.add_edge(v, u, value=6.0, tick=t, event=f"t{t}", exchange=t, goods={back: 6.0})
>>> PARAMS = {"max_leg_ratio": 1.5, "max_cycle_length": 5, "max_search_steps": 10000, "ring_trips": 1,
...     "ring_threshold": 0.5}
>>> [(f.kind, f.agents, f.score, f.details["allUnderWayAtTick"], f.details["lap"])
...  for f in round_trip_rings(TransferView(G), PARAMS)[0]]
[('wash_ring', ('a', 'b', 'c'), 1.0, 2.0, ['a', 'b', 'c'])]
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Mapping
from typing import Any

import networkx as nx
import numpy as np

from .flags import Flag, listed, ordered, pair_key
from .graph import Exchange, TransferView
from .mirrors import mirrorable_value, mirrored_trips
from .round_trip_null import PairTest, repeat_rates, return_tests, round_trip_counts, yardsticks
from .stats import betabinom_sf, product_p

__all__ = ["RING_NULL", "TESTED_CYCLES", "round_trip_rings"]

RING_NULL = ("each pair of the ring made round trips as the wash-pair null read from the pairs outside the ring "
             "says, pairs independent (Fisher's product), given that each made the round trips that put it in the "
             "search, times the cycles the search completed; read over the ring's best cycle and over its every "
             "pair, the smaller of the two, doubled")
"""The round-trip ring null, in words."""

TESTED_CYCLES = 8
"""A ring's qualifying cycles tested, shortest first (the p-value pays for every cycle the search
completed, tested or not)."""


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

    __slots__ = ("trips", "sizes", "goods", "times", "span", "_by_good")

    def __init__(self, trips: list[_Trip], ratio: float) -> None:
        self.trips = trips
        self.sizes = _merged([(t.value / ratio, t.value) for t in trips])
        """Window floors ``w`` for which some trip is worth within ``[w, ratio * w]``."""
        self.goods = frozenset().union(*(t.goods for t in trips))
        self.times = _merged([(t.start, t.end) for t in trips])
        """Ticks at which some round trip was under way."""
        self.span = [(min(t.start for t in trips), max(t.end for t in trips))]
        """From its first round trip's start to its last one's end: when the pair was washing."""
        self._by_good: dict[Any, tuple[list[float], list[tuple[int, _Trip]]]] | None = None

    def fitting(self, low: float, high: float, good: Any) -> list[_Trip]:
        """Its round trips worth from ``low`` to ``high`` that carried ``good``, in their order: those ``[t for t
        in trips if low <= t.value <= high and good in t.goods]`` finds, by a sorted search per good (a long
        match's pair makes a thousand round trips, read for each of a cycle's anchors)."""
        if self._by_good is None:
            rows: dict[Any, list[tuple[float, int, _Trip]]] = {}
            for k, t in enumerate(self.trips):
                if t.value == t.value:  # (a value that is not a number is within no bounds)
                    for g in t.goods:
                        rows.setdefault(g, []).append((t.value, k, t))
            self._by_good = {}
            for g, mine in rows.items():
                mine.sort(key=lambda r: (r[0], r[1]))
                self._by_good[g] = ([r[0] for r in mine], [(r[1], r[2]) for r in mine])
        found = self._by_good.get(good)
        if found is None:
            return []
        values, trips = found
        return [t for _k, t in sorted(trips[bisect_left(values, low):bisect_right(values, high)],
                                      key=lambda r: r[0])]


class _Episode:
    """When a round-trip ring was under way: its round trips, the good, and the lap, if any."""

    __slots__ = ("tick", "good", "trips", "path", "hand_offs", "together")

    def __init__(self, tick: float, good: Any, trips: list[_Trip], path: list[Any] | None,
                 hand_offs: list[float] | None, together: bool = True) -> None:
        self.tick = tick
        """The earliest tick at which every chosen round trip was under way (``together``), or else
        at which every pair was washing (between its first round trip's start and its last one's end)."""
        self.together = together
        """Every chosen round trip under way at ``tick``; False: the pairs' round trips interleaved."""
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
    (a lap, :func:`_lap_of`) if one did.  Where there is none, the earliest tick at which every
    pair was washing such round trips (between the first one's start and the last one's end),
    each pair's nearest round trip then chosen (``together`` False: interleaved); None when
    there is neither."""
    best: _Episode | None = None
    fallback: _Episode | None = None  # no tick with every chosen round trip under way: the pairs' washing interleaved
    anchors = ordered({(t.value, g) for leg in legs for t in leg.trips for g in t.goods})
    for floor_value, good in anchors:  # the cheapest chosen round trip, and the good they all carry
        ceiling = floor_value * ratio * (1 + 1e-12)
        fits: list[list[_Trip]] = []
        for leg in legs:
            fit = leg.fitting(floor_value, ceiling, good)
            if not fit:
                break
            fits.append(fit)
        else:
            counts = [_UnderWay(fit) for fit in fits]
            for tick in ordered({t.start for fit in fits for t in fit}):  # when the last of them set out
                if not all(c.at(tick) for c in counts):
                    if best is None and (fallback is None or tick < fallback.tick) \
                            and all(c.first <= tick <= c.last for c in counts):
                        fallback = _Episode(tick, good, [min(fit, key=lambda t: (_distance(t, tick), t.start, t.end))
                                                         for fit in fits], None, None, together=False)
                    continue
                under_way = [[t for t in fit if t.start <= tick <= t.end] for fit in fits]
                lap = _lap_of(cycle, under_way, good)
                if lap is not None:
                    found = _Episode(tick, good, *lap)
                else:
                    found = _Episode(tick, good, [min(u, key=lambda t: (t.start, t.end)) for u in under_way],
                                     None, None)
                if best is None or (found.path is None, found.tick) < (best.path is None, best.tick):
                    best = found  # the earliest, one whose good went round first
                break
    return best if best is not None else fallback


class _UnderWay:
    """Whether any of a pair's chosen round trips was under way at a tick, in ``log`` of their number:
    those that set out by then less those back before then (a round trip comes back no earlier than
    it set out), instead of reading every one at every tick (cubic in a long match's round trips)."""

    __slots__ = ("starts", "ends", "first", "last", "trips")

    def __init__(self, trips: list[_Trip]) -> None:
        self.starts = sorted(t.start for t in trips)
        self.ends = sorted(t.end for t in trips)
        self.first, self.last = self.starts[0], self.ends[-1]
        # a round trip back before it set out (none is: a mirror comes after its trade) is read one by one
        self.trips: list[_Trip] | None = None if all(t.start <= t.end for t in trips) else trips

    def at(self, tick: float) -> bool:
        if self.trips is not None:
            return any(t.start <= tick <= t.end for t in self.trips)
        return bisect_right(self.starts, tick) > bisect_left(self.ends, tick)


def _distance(trip: _Trip, tick: float) -> float:
    """Ticks between ``tick`` and the round trip (0 when it was under way then)."""
    return max(trip.start - tick, tick - trip.end, 0.0)


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
        ntimes = _intersect(times, leg.span)
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
    steps = int(params["max_search_steps"])
    legs = _trip_legs(view, ratio, min_trips)
    trips_graph = nx.Graph(list(legs))
    if trips_graph.number_of_nodes() < 3:
        return [], []
    trips_graph = nx.k_core(trips_graph, 2)  # a seat on a cycle has two partners on it
    budget = [steps]
    naming = float(params.get("ring_member_level", 1.0)) < 1
    rings, cycles, completed, pending = _qualifying_cycles(view, legs, trips_graph,
                                                           {pair_key(a, b) for a, b in covered}, params, budget, naming)
    notes: list[str] = []
    if budget[0] <= 0:
        notes.append(f"ring: the round-trip ring search stopped after {steps} steps; some rings may be missing")
    ratio, threshold = float(params["max_leg_ratio"]), float(params["ring_threshold"])

    def qualify(cycle: tuple[Any, ...]) -> _Episode | None:  # a cycle met that added no pair: read when asked
        pairs = [view.key(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
        return None if _circular_share(view, pairs) < threshold else _together(cycle, [legs[p] for p in pairs], ratio)

    flags = [_ring_flag(view, tuple(members), rings, _Cycles(
        [c for c in cycles if c["cycle"][0] in members], [c for c in pending if c[0] in members], qualify),
        legs, completed, params) for members in sorted((ordered(c) for c in nx.connected_components(rings)), key=repr)]
    return flags, notes


def _trip_legs(view: TransferView, ratio: float, min_trips: int) -> dict[tuple[Any, Any], _Leg]:
    """The pairs (neither seat exempt) that made at least ``min_trips`` round trips, each undoing the trade
    just made, with their trips; pairs whose exchanges no other could mirror are not read."""
    legs: dict[tuple[Any, Any], _Leg] = {}
    exempt = view.exempt
    for (a, b), pair in view.pairs.items():
        if a in exempt or b in exempt or len(pair.exchanges) < 2 * min_trips or pair.gross <= 0:
            continue
        if mirrorable_value(view, pair) <= 0:
            continue  # no exchange of the pair could be mirrored by another
        trips = mirrored_trips(pair.exchanges, ratio, latest=True)  # each undoing the trade just made
        if len(trips) >= min_trips:
            legs[(a, b)] = _Leg([_Trip(x, y) for x, y in trips], ratio)
    return legs


def _qualifying_cycles(view: TransferView, legs: Mapping[tuple[Any, Any], _Leg], trips_graph: nx.Graph,
                       covered: set[tuple[Any, Any]], params: Mapping[str, Any], budget: list[int],
                       naming: bool = False) -> tuple[nx.Graph, list[dict[str, Any]], int, list[tuple[Any, ...]]]:
    """Search each biconnected component of the round-trip pairs for cycles of 3 to ``max_cycle_length``
    seats (within ``budget`` steps); keep those whose circular share reaches ``ring_threshold``, whose trips
    were all under way together, and that add a pair to what is already found.  Returns the graph of the
    kept cycles' pairs, the kept cycles with their episode, how many cycles the search completed (the
    ring test pays for every one: Bonferroni), and, with ``naming`` (members named by their own evidence,
    :func:`_named_members`), the cycles met whose pairs were all found already (else none), not read: whether
    one qualifies is read only where the naming asks (:class:`_Cycles`).  A ring's shorter cycle among its
    washing seats may be met after longer ones through honest partners."""
    ratio = float(params["max_leg_ratio"])
    threshold = float(params["ring_threshold"])
    max_len = int(params["max_cycle_length"])
    completed = 0
    rings = nx.Graph()  # seats joined by the pairs of qualifying cycles
    cycles: list[dict[str, Any]] = []
    pending: list[tuple[Any, ...]] = []  # (with naming) cycles met whose pairs were all found already
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
                    if naming and all(rings.has_edge(*p) for p in pairs):
                        pending.append(cycle)
                    continue  # adds nothing to a ring already found
                if _circular_share(view, pairs) < threshold:
                    continue
                episode = _together(cycle, [legs[p] for p in pairs], ratio)
                if episode is None:
                    continue
                rings.add_edges_from(pairs)
                cycles.append({"cycle": cycle, "episode": episode})
    return rings, cycles, completed, pending


def _ring_flag(view: TransferView, members: tuple[Any, ...], rings: nx.Graph, cycles: _Cycles,
               legs: Mapping[tuple[Any, Any], _Leg], completed: int, params: Mapping[str, Any]) -> Flag:
    """One ``wash_ring`` flag for a connected group of kept cycles (``cycles``: those and the ones met that added
    no pair): naming the members with their own evidence (:func:`_named_members`, with ``ring_member_level``
    below 1), told from its earliest kept cycle with a lap among them (none kept among them: their shortest
    qualifying cycle), scored by their pairs' circular share, tested by :func:`_ring_test` as the whole group."""
    ratio = float(params["max_leg_ratio"])
    min_trips = max(1, int(params["ring_trips"]))
    inside = cycles.kept
    level = float(params.get("ring_member_level", 1.0))
    named: tuple[Any, ...] = members
    left_out: dict[Any, float] = {}
    own: dict[Any, float] = {}
    if level < 1:
        named, left_out, own = _named_members(view, members, cycles, ratio, min_trips, level)
    told = cycles.within(set(named))
    pairs = ordered({pair_key(u, v) for u, v in rings.subgraph(named).edges})
    score = _circular_share(view, pairs)
    first = min(told, key=lambda c: (not c["episode"].together, c["episode"].path is None, c["episode"].tick,
                                     len(c["cycle"]), repr(c["cycle"])))
    cycle = first["cycle"]
    episode: _Episode = first["episode"]
    shares = {f"{a}~{b}": round(view.pair(a, b).net_share, 3) for a, b in pairs}
    evidence = {e for a, b in pairs for t in legs[view.key(a, b)].trips for e in t.events}
    details: dict[str, Any] = {
        "cycle": list(cycle),
        "good": episode.good,
        "allUnderWayAtTick": episode.tick if episode.together else None,
        "washingInterleavedAtTick": None if episode.together else episode.tick,
        "lap": list(episode.path) if episode.path is not None else None,
        "handOffTicks": list(episode.hand_offs) if episode.hand_offs is not None else None,
        "circularShare": round(score, 4),
        "roundTrips": {f"{a}~{b}": len(legs[view.key(a, b)].trips) for a, b in pairs},
        "pairNetShare": shares,
        "cyclesFound": len(inside),
    }
    if episode.path is not None:
        path = " -> ".join(str(n) for n in (*episode.path, episode.path[0]))
        story = f"{episode.good} went round {path} and every pair sent it back"
    else:
        story = f"{listed(cycle)}, each with the next, traded {episode.good} and sent it back"
    circular = view.graph.graph.get("circular_reputation") or {}
    if circular:
        details["circularReputation"] = {str(n): circular[n] for n in named if n in circular}
    if own:
        details["ownEvidence"] = {str(n): own[n] for n in named}
    left = ""
    if left_out:
        details["notNamed"] = {str(n): p for n, p in left_out.items()}
        gone = ordered(left_out)
        lo, hi = min(left_out.values()), max(left_out.values())
        chance = f"a chance of {lo:.2g}" if f"{lo:.2g}" == f"{hi:.2g}" else f"chances of {lo:.2g} to {hi:.2g}"
        left = (f" {listed(gone)} {'is' if len(gone) == 1 else 'are'} on the ring's other cycles but not named: "
                f"{'its' if len(gone) == 1 else 'their'} own round trips there are as honest play makes them by "
                f"chance ({chance}, above the level {level:g}); the test is the whole ring's.")
    p_ring = _ring_test(view, inside, completed, ratio, min_trips, details)
    return Flag(
        screen="ring",
        kind="wash_ring",
        level="flag",
        agents=(*cycle, *(n for n in named if n not in cycle)),
        pairs=tuple(pairs),
        score=score,
        threshold=float(params["ring_threshold"]),
        evidence=tuple(ordered(evidence)),
        explanation=(
            f"{story}, " + (f"all under way together at tick {episode.tick:g}" if episode.together else
                            f"every pair washing it at tick {episode.tick:g} (between its first round trip and "
                            "its last)") + ", each leg of one value: "
            f"{score:.0%} of their trade went back and forth "
            f"(net share as low as {min(shares.values()):.3f}), trading for the count and the reputation, "
            "not for the goods." + left
        ),
        details=details,
        p_value=p_ring,
        null=RING_NULL,
    )


class _Cycles:
    """A ring's qualifying cycles: those kept (each added a pair to the ring, with its episode) and those met
    whose pairs were all found already (``pending``), each read only when the naming asks whether it qualifies
    (``qualify``: its episode, or None), once."""

    def __init__(self, kept: list[dict[str, Any]], pending: list[tuple[Any, ...]],
                 qualify: Callable[[tuple[Any, ...]], _Episode | None]) -> None:
        self.kept = kept
        self.pending = pending
        self._qualify = qualify
        self._read: dict[tuple[Any, ...], _Episode | None] = {}

    def _episode(self, cycle: tuple[Any, ...]) -> _Episode | None:
        if cycle not in self._read:
            self._read[cycle] = self._qualify(cycle)
        return self._read[cycle]

    def within(self, seats: set[Any]) -> list[dict[str, Any]]:
        """The kept cycles among ``seats``; where there is none, the shortest pending one among them that
        qualifies (then by ``repr``; read in that order, up to the first that does), alone."""
        kept = [c for c in self.kept if seats.issuperset(c["cycle"])]
        if kept:
            return kept
        for cycle in sorted((c for c in self.pending if seats.issuperset(c)), key=lambda c: (len(c), repr(c))):
            episode = self._episode(cycle)
            if episode is not None:
                return [{"cycle": cycle, "episode": episode}]
        return []

    def pairs_within(self, seats: set[Any], key: Callable[[Any, Any], tuple[Any, Any]]) -> set[tuple[Any, Any]]:
        """The pairs of every qualifying cycle among ``seats`` (a pending cycle read only where it would add
        a pair: one whose pairs are all there adds nothing, whether it qualifies or not)."""
        def pairs_of(cycle: tuple[Any, ...]) -> set[tuple[Any, Any]]:
            return {key(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))}

        found = set().union(*(pairs_of(c["cycle"]) for c in self.kept if seats.issuperset(c["cycle"])))
        for cycle in self.pending:
            if seats.issuperset(cycle):
                mine = pairs_of(cycle)
                if not found.issuperset(mine) and self._episode(cycle) is not None:
                    found |= mine
        return found


def _own_evidence(view: TransferView, members: Collection[Any], cycles: _Cycles, ratio: float,
                  min_trips: int) -> dict[Any, float]:
    """Each member's own evidence in a ring of ``members``: Fisher's product of the given-search p-values
    (:func:`_ring_pair_tests`, against the pairs with no seat among ``members``) of its pairs on the ring's
    qualifying ``cycles`` whose seats are all members; 1 for a member on none of them."""
    inside = set(members)
    mine = ordered(cycles.pairs_within(inside, view.key))
    given, _plain = _ring_pair_tests(view, ratio, mine, ordered(inside), min_trips) if mine else ([], [])
    p = {k: t[0] for k, t in zip(mine, given)}
    return {m: product_p([p[k] for k in mine if m in k]) for m in members}


def _named_members(view: TransferView, members: tuple[Any, ...], cycles: _Cycles, ratio: float,
                   min_trips: int, level: float) -> tuple[tuple[Any, ...], dict[Any, float], dict[Any, float]]:
    """The members a ring's flag names (module rule *who is named*): while a member's own evidence
    (:func:`_own_evidence`) leaves a chance above ``level``, the weakest such member whose leaving keeps a
    qualifying cycle among the others is left out, and the evidence read again without it.  Returns the
    named members (in ``members``' order), those left out with their chance when left out, and the named
    members' own evidence."""
    named = list(members)
    left_out: dict[Any, float] = {}
    while True:
        own = _own_evidence(view, named, cycles, ratio, min_trips)
        for m in sorted((m for m in named if own[m] > level), key=lambda m: (-own[m], repr(m))):
            if cycles.within(set(named) - {m}):
                left_out[m] = own[m]
                named.remove(m)
                break
        else:
            return tuple(named), left_out, own


def _ring_test(view: TransferView, inside: list[dict[str, Any]], completed: int, ratio: float,
               min_trips: int, details: dict[str, Any]) -> float:
    """The ring as one hypothesis (module docstring, *The test*), given the search, paying for the cycles it
    completed: its best cycle (of its first ``TESTED_CYCLES``, shortest first, each its own pairs against the
    pairs outside it) and the whole ring (every pair of its qualifying cycles against the pairs outside the
    ring), the smaller of the two doubled.  Writes the tested figures into ``details``."""
    paid = max(completed, 1)
    tested_cycles = []
    for c in sorted(inside, key=lambda c: (len(c["cycle"]), repr(c["cycle"])))[:TESTED_CYCLES]:
        mine = [view.key(c["cycle"][i], c["cycle"][(i + 1) % len(c["cycle"])]) for i in range(len(c["cycle"]))]
        selected, plain = _ring_pair_tests(view, ratio, mine, c["cycle"], min_trips)
        given = min(1.0, product_p([t[0] for t in selected]) * paid)
        least = min(1.0, product_p([t[1] for t in selected]) * paid)
        tested_cycles.append((given, least, repr(c["cycle"]), c["cycle"], mine, selected, plain))
    given, least, _, tested_cycle, tested_pairs, selected, plain = min(tested_cycles)
    ring_pairs = ordered({view.key(c["cycle"][i], c["cycle"][(i + 1) % len(c["cycle"])])
                          for c in inside for i in range(len(c["cycle"]))})
    members = ordered({n for c in inside for n in c["cycle"]})
    whole, _plain = _ring_pair_tests(view, ratio, ring_pairs, members, min_trips)
    p_whole = min(1.0, product_p([t[0] for t in whole]) * paid)
    least_whole = min(1.0, product_p([t[1] for t in whole]) * paid)
    details["testedCycle"] = list(tested_cycle)
    details["pairPValues"] = {f"{a}~{b}": t[0] for (a, b), t in zip(tested_pairs, plain)}
    details["pairPValuesGivenSearch"] = {f"{a}~{b}": t[0] for (a, b), t in zip(tested_pairs, selected)}
    details["cyclesSearched"] = completed
    details["pGivenSearch"] = given
    details["pWholeRing"] = p_whole
    details["minP"] = min(1.0, 2 * min(least, least_whole))
    return min(1.0, 2 * min(given, p_whole))


def _pair_arrays(view: TransferView, ratio: float, tested: Mapping[tuple[Any, Any], PairTest]
                 ) -> tuple[list[tuple[Any, Any]], np.ndarray, dict[tuple[Any, Any], int], np.ndarray]:
    """The tested pairs (each pair's round trips and trips possible, its exchanges of known value and their
    logarithms), as every ring's yardsticks read them: read once per view and price band."""
    keys = list(tested)
    arr = np.array([[tested[k][2], tested[k][3]] for k in keys], dtype=np.int64).reshape(-1, 2)
    valued = {k: round_trip_counts(view, view.pairs[k], ratio)[1] for k in keys}
    logn = np.log(np.array([valued[k] for k in keys], dtype=float))
    return keys, arr, valued, logn


def _ring_pair_tests(view: TransferView, ratio: float, pairs: list[tuple[Any, Any]], members: Collection[Any],
                     least: int) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Each ring pair's round-trip p-value and the smallest it could be, against the wash-pair
    null read from the pairs with no seat in the ring (:func:`yardsticks`: none of the ring's own
    pairs sets its yardstick): ``(given the search, plain)``.  Given the search: given that it
    made at least ``least`` round trips (what put it in the ring search), ``P(T >= t) / P(T >=
    least)``; plain: ``P(T >= t)``.  ``(1, 1)`` for a pair without a test."""
    tested = return_tests(view, ratio)
    keys, arr, valued, logn = view.once(("ring.pair_arrays", ratio), lambda: _pair_arrays(view, ratio, tested))
    inside = set(members)
    keep = np.array([not (a in inside or b in inside) for a, b in keys], dtype=bool)
    mine = [view.key(a, b) for a, b in pairs]
    at = np.array([math.log(valued[k]) if k in valued else 0.0 for k in mine])
    rate, strength = yardsticks(arr[:, 0], arr[:, 1], logn, np.tile(keep, (len(mine), 1)), at)
    repeat = repeat_rates(arr[:, 0], arr[:, 1], np.tile(keep, (len(mine), 1)), rate, least)
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
        given.append(_given_search(trips, possible, least, float(repeat[i]), st))
    return given, plain


def _given_search(trips: int, possible: int, least: int, repeat: float, strength: float) -> tuple[float, float]:
    """A ring pair's p-value given the ``least`` round trips of one parcel that put it in the search,
    and the smallest it could be: its further round trips of that parcel (beyond ``least``) out of
    the trips its exchanges still allow, at the match's repeat rate (:func:`~.round_trip_null.repeat_rates`),
    as unevenly as the pairs' round trips vary (beta-binomial).

    >>> [round(p, 6) for p in _given_search(3, 3, 1, 0.1, 8.0)]  # two repeats of two: (0.8 / 8) x (1.8 / 9)
    [0.02, 0.02]
    """
    room = possible - least
    if room <= 0:
        return 1.0, 1.0
    return betabinom_sf(trips - least, room, repeat, strength), betabinom_sf(room, room, repeat, strength)
