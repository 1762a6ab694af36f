"""Ring: wash trading, goods going around with little net movement.

Seed 000, *Trade ledger* and *Circular reputation (2.4)*: a pair's net share is 1 when
every item moved one way and 0 when "the same goods went back and forth"; the
reputation a pair's trades paid counts as circular in proportion to ``1 - net
share``.  Wash trading is trading for the count and the reputation, not for the
goods: the goods come back.

Two patterns (voluntary transfers only):

**Wash pair** (``wash_pair``).  Two nodes whose trades undo each other: a trade, then
a *mirror* trade sending the same goods back (each side gives what it got, good by good,
each worth within ``max_leg_ratio``); each trade is matched once, in time order.
Flagged when the pair has at least ``min_exchanges`` exchanges and ``min_laps`` mirror
round trips, and the round trips carry at least ``pair_threshold`` of all the value the
pair traded.  The score is that share; the pair's net share (low, by construction) and
each side's circular reputation are in the details.  Two honest traders who trade often
and fairly swap *different* goods (wood for food), and an honest pair that buys back
what it sold does so in other quantities, for other goods, now and then: far below.

**Wash cycle** (``wash_cycle``).  ``A -> B -> C -> A``: each pair looks one-way (wood
one way, food the other: net share 1, no circular reputation), yet the wood comes back
to where it started.  Per good, the flow graph is cut to its strongly connected
components; inside each, simple cycles of 3 to ``max_cycle_length`` nodes are searched
depth-first from their smallest node, extending only along legs whose value stays
within ``max_leg_ratio`` of the others (value consistency) -- never
``simple_cycles`` over the whole graph.  A *lap* is one transfer along every leg in
time order (each no earlier than the one before, worth within ``max_leg_ratio`` of the
first).  A cycle is flagged when it ran at least ``cycle_threshold`` laps and, on its
laps, every member passed on what it received (``|in - out| / (in + out)`` at most
``max_member_imbalance``).  The score is the number of laps.

>>> import networkx as nx
>>> from .graph import Exchange, TransferView
>>> G = nx.MultiDiGraph()
>>> for lap in range(3):
...     for i, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a")]):
...         _ = G.add_edge(u, v, value=6.0, tick=10 * lap + i, event=f"{lap}{i}", goods={"wood": 6.0})
>>> flags = ring(TransferView(G), {"min_exchanges": 6, "min_laps": 3, "max_leg_ratio": 1.5,
...     "pair_threshold": 0.8, "max_cycle_length": 5, "cycle_threshold": 3,
...     "max_member_imbalance": 0.3, "max_cycles": 10000})
>>> [(f.kind, f.agents, f.score) for f in flags]
[('wash_cycle', ('a', 'b', 'c'), 3.0)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from .flags import Flag, ordered, pair_key
from .graph import Exchange, TransferView

__all__ = ["mirrored_trips", "ring", "round_trips", "wash_cycles", "wash_pairs"]

Transfer = tuple[float, float, tuple[Any, ...]]
"""``(tick, value, event ids)`` of one good along one leg."""


def _good_flows(view: TransferView) -> dict[Any, dict[tuple[Any, Any], list[Transfer]]]:
    """Good -> (giver, taker) -> transfers of that good, in time order."""
    flows: dict[Any, dict[tuple[Any, Any], list[Transfer]]] = {}
    for x in view.exchanges:
        if x.unvalued or x.a in view.exempt or x.b in view.exempt:
            continue
        events = tuple(ordered(x.events))
        for giver in (x.a, x.b):
            taker = x.other(giver)
            for good, value in x.goods.get(giver, {}).items():
                if value > 0:
                    flows.setdefault(good, {}).setdefault((giver, taker), []).append((x.tick, value, events))
    return flows


def _close(x: float, y: float, ratio: float) -> bool:
    lo, hi = (x, y) if x <= y else (y, x)
    return lo > 0 and hi <= ratio * lo


def round_trips(there: list[Transfer], back: list[Transfer], ratio: float) -> list[tuple[Transfer, Transfer]]:
    """Round trips of one good between two nodes: in time order, each transfer is matched
    with the earliest unmatched earlier-or-same-tick transfer the *other* way worth within
    ``ratio`` of it; every transfer is used at most once.

    >>> round_trips([(1, 6.0, (1,)), (5, 6.0, (5,))], [(3, 6.0, (3,)), (4, 20.0, (4,))], 1.5)
    [((1, 6.0, (1,)), (3, 6.0, (3,)))]
    """
    merged = sorted([(t, 0) for t in there] + [(t, 1) for t in back], key=lambda x: (x[0][0], x[1]))
    pending: tuple[list[Transfer], list[Transfer]] = ([], [])
    trips: list[tuple[Transfer, Transfer]] = []
    for t, side in merged:
        waiting = pending[1 - side]
        for i, w in enumerate(waiting):
            if _close(w[1], t[1], ratio):
                del waiting[i]
                trips.append((w, t))
                break
        else:
            pending[side].append(t)
    return trips


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


def mirrored_trips(exchanges: list[Exchange], ratio: float) -> list[tuple[Exchange, Exchange]]:
    """Round trips of whole exchanges between two nodes: in time order, each exchange is
    matched with the earliest earlier unmatched exchange it mirrors (:func:`_mirrors`);
    every exchange is used at most once.

    >>> x = Exchange("a", "b", 1, "x", goods={"a": {"wood": 6.0}, "b": {"stone": 6.0}})
    >>> y = Exchange("a", "b", 2, "y", goods={"a": {"stone": 6.0}, "b": {"wood": 6.0}})
    >>> len(mirrored_trips([x, y], 1.5))
    1
    """
    pending: list[Exchange] = []
    trips: list[tuple[Exchange, Exchange]] = []
    for y in exchanges:
        if y.unvalued:
            continue
        for i, x in enumerate(pending):
            if _mirrors(x, y, ratio):
                del pending[i]
                trips.append((x, y))
                break
        else:
            pending.append(y)
    return trips


def wash_pairs(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Pairs sending the same goods back and forth (module rule *wash pair*)."""
    min_exchanges = int(params["min_exchanges"])
    min_laps = int(params["min_laps"])
    ratio = float(params["max_leg_ratio"])
    threshold = float(params["pair_threshold"])
    circular = view.graph.graph.get("circular_reputation") or {}
    flags: list[Flag] = []
    for (a, b), pair in view.pairs.items():
        if len(pair.exchanges) < min_exchanges or a in view.exempt or b in view.exempt or pair.gross <= 0:
            continue
        trips = mirrored_trips(pair.exchanges, ratio)
        if len(trips) < min_laps:
            continue
        returned = sum(x.given_by(a) + x.given_by(b) + y.given_by(a) + y.given_by(b) for x, y in trips)
        score = returned / pair.gross
        if score < threshold:
            continue
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
            "twoSidedExchanges": pair.two_sided,
            "grossValue": pair.gross,
        }
        if circular:
            details["circularReputation"] = {str(n): circular[n] for n in (a, b) if n in circular}
        flags.append(Flag(
            screen="ring",
            kind="wash_pair",
            level="flag",
            agents=(a, b),
            pairs=((a, b),),
            score=score,
            threshold=threshold,
            evidence=tuple(ordered(evidence)),
            explanation=(
                f"{a} and {b} traded {len(pair.exchanges)} times and {len(trips)} trades were undone by a "
                f"mirror trade sending the same goods back ({score:.0%} of the value; net share {share:.3f}): "
                f"trading for the count and the reputation, not for the goods."
            ),
            details=details,
        ))
    return flags


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
        value = values[(node, nxt)]
        nlo, nhi = min(lo, value), max(hi, value)
        if nhi > ratio * nlo:
            continue
        if nxt == start:
            if len(path) >= 3:
                found.append(tuple(path))
                budget[0] -= 1
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
    """Time-consistent laps around ``cycle`` (module docstring)."""
    edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
    queues = [list(legs[e]) for e in edges]
    used = [[False] * len(q) for q in queues]
    laps: list[list[Transfer]] = []
    for i0, first in enumerate(queues[0]):
        if used[0][i0]:
            continue
        lap = [first]
        picks = [(0, i0)]
        tick = first[0]
        for k in range(1, len(edges)):
            pick = None
            for i, t in enumerate(queues[k]):
                if not used[k][i] and t[0] >= tick and _close(first[1], t[1], ratio):
                    pick = i
                    break
            if pick is None:
                break
            lap.append(queues[k][pick])
            picks.append((k, pick))
            tick = queues[k][pick][0]
        if len(lap) == len(edges):
            for k, i in picks:
                used[k][i] = True
            laps.append(lap)
    return laps


def wash_cycles(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Flag], list[str]]:
    """Goods that go around a cycle of three or more (module rule *wash cycle*).

    Returns the flags and notes (e.g. the search budget ran out).
    """
    max_len = int(params["max_cycle_length"])
    ratio = float(params["max_leg_ratio"])
    threshold = float(params["cycle_threshold"])
    max_imbalance = float(params["max_member_imbalance"])
    min_transfers = max(1, int(threshold))
    budget = [int(params["max_cycles"])]
    notes: list[str] = []
    found: dict[frozenset[Any], dict[str, Any]] = {}
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
                laps = max((_laps(cycle[k:] + cycle[:k], legs, ratio) for k in range(len(cycle))), key=len)
                if len(laps) < threshold:
                    continue
                size = len(cycle)
                inflow = [0.0] * size
                outflow = [0.0] * size
                for lap in laps:
                    for k, t in enumerate(lap):
                        outflow[k] += t[1]
                        inflow[(k + 1) % size] += t[1]
                imbalance = max(abs(inflow[k] - outflow[k]) / (inflow[k] + outflow[k]) for k in range(size))
                if imbalance > max_imbalance:
                    continue
                key = frozenset(cycle)
                entry = found.setdefault(key, {"cycle": cycle, "laps": 0, "goods": {}, "events": set(),
                                               "imbalance": imbalance})
                entry["goods"][good] = len(laps)
                if len(laps) > entry["laps"]:
                    entry["laps"], entry["cycle"], entry["imbalance"] = len(laps), cycle, imbalance
                for lap in laps:
                    for t in lap:
                        entry["events"].update(t[2])
    if budget[0] <= 0:
        notes.append(f"ring: the cycle search stopped after {int(params['max_cycles'])} cycles; "
                     "longer cycles may be missing")
    circular = view.graph.graph.get("circular_reputation") or {}
    flags: list[Flag] = []
    for entry in sorted(found.values(), key=lambda e: [repr(n) for n in e["cycle"]]):
        cycle = entry["cycle"]
        legs_pairs = [pair_key(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
        shares = {f"{a}~{b}": round(view.pair(a, b).net_share, 3) for a, b in legs_pairs}
        path = " -> ".join(str(n) for n in (*cycle, cycle[0]))
        details: dict[str, Any] = {
            "cycle": list(cycle),
            "laps": entry["laps"],
            "lapsByGood": {str(g): n for g, n in sorted(entry["goods"].items(), key=lambda kv: repr(kv[0]))},
            "memberImbalance": round(entry["imbalance"], 4),
            "pairNetShare": shares,
        }
        if circular:
            details["circularReputation"] = {str(n): circular[n] for n in cycle if n in circular}
        flags.append(Flag(
            screen="ring",
            kind="wash_cycle",
            level="flag",
            agents=tuple(cycle),
            pairs=tuple(ordered(legs_pairs)),
            score=float(entry["laps"]),
            threshold=threshold,
            evidence=tuple(ordered(entry["events"])),
            explanation=(
                f"Goods went around {path} {entry['laps']} times and came back where they started"
                + (f", though each pair's trades look one-way (net share {min(shares.values()):.3f} or more), "
                   "which circular reputation cannot see."
                   if min(shares.values()) >= 0.5 else
                   f", farming trades and reputation (pairs' net share as low as {min(shares.values()):.3f}).")
            ),
            details=details,
        ))
    return flags, notes


def ring(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Wash pairs and wash cycles (module rules)."""
    return wash_pairs(view, params) + wash_cycles(view, params)[0]
