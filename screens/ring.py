"""Ring: wash trading, goods going around with little net movement.

Seed 000, *Trade ledger* and *Circular reputation (2.4)*: a pair's net share is 1 when
every item moved one way and 0 when "the same goods went back and forth"; the
reputation a pair's trades paid counts as circular in proportion to ``1 - net
share``.  Wash trading is trading for the count and the reputation, not for the
goods: the goods come back.

Two patterns (voluntary transfers only):

**Wash pair** (``wash_pair``).  Two nodes whose trading is mostly round trips: a good
sent one way and the same good sent back, worth within ``max_leg_ratio`` of it (each
transfer used once, in time order).  Flagged when the pair has at least
``min_exchanges`` exchanges and ``min_laps`` round trips, and the round trips carry at
least ``pair_threshold`` of all the value the pair traded.  The score is that share;
the pair's net share (low, by construction) and each side's circular reputation are
in the details.  Two honest traders who trade often and fairly swap *different* goods
(wood for food): their round-trip share is near 0; honest agents that now and then buy
back what they sold stay well below the threshold.

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
>>> from .graph import TransferView
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
from .graph import TransferView

__all__ = ["ring", "wash_pairs", "wash_cycles", "round_trips"]

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


def wash_pairs(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Pairs sending the same goods back and forth (module rule *wash pair*)."""
    min_exchanges = int(params["min_exchanges"])
    min_laps = int(params["min_laps"])
    ratio = float(params["max_leg_ratio"])
    threshold = float(params["pair_threshold"])
    flows = _good_flows(view)
    circular = view.graph.graph.get("circular_reputation") or {}
    flags: list[Flag] = []
    for (a, b), pair in view.pairs.items():
        if len(pair.exchanges) < min_exchanges or a in view.exempt or b in view.exempt or pair.gross <= 0:
            continue
        trips: list[tuple[Transfer, Transfer]] = []
        for legs in flows.values():
            trips += round_trips(legs.get((a, b), []), legs.get((b, a), []), ratio)
        if len(trips) < min_laps:
            continue
        returned = sum(t[1] + r[1] for t, r in trips)
        score = returned / pair.gross
        if score < threshold:
            continue
        share = pair.net_share
        evidence: set[Any] = set()
        for t, r in trips:
            evidence.update(t[2])
            evidence.update(r[2])
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
                f"{a} and {b} traded {len(pair.exchanges)} times and {score:.0%} of the value went straight back "
                f"as the same goods ({len(trips)} round trips; net share {share:.3f}): trading for the count "
                f"and the reputation, not for the goods."
            ),
            details=details,
        ))
    return flags


def _cycles_in(component: nx.DiGraph, values: Mapping[tuple[Any, Any], float], max_len: int,
               ratio: float, budget: list[int]) -> list[tuple[Any, ...]]:
    """Simple cycles of 3..max_len nodes in one SCC, from their smallest node, value-consistent."""
    order = {n: i for i, n in enumerate(ordered(component.nodes))}
    found: list[tuple[Any, ...]] = []
    for start in ordered(component.nodes):
        rank = order[start]
        path = [start]
        on_path = {start}

        def extend(node: Any, lo: float, hi: float) -> None:
            if budget[0] <= 0:
                return
            for nxt in ordered(component.successors(node)):
                value = values[(node, nxt)]
                nlo, nhi = min(lo, value), max(hi, value)
                if nhi > ratio * nlo:
                    continue
                if nxt == start:
                    if len(path) >= 3:
                        found.append(tuple(path))
                        budget[0] -= 1
                    continue
                if order[nxt] <= rank or nxt in on_path or len(path) >= max_len:
                    continue
                path.append(nxt)
                on_path.add(nxt)
                extend(nxt, nlo, nhi)
                path.pop()
                on_path.discard(nxt)

        extend(start, float("inf"), 0.0)
    return found


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
                f"Goods went around {path} {entry['laps']} times and came back where they started, "
                f"though each pair's trades look one-way (net share "
                f"{min(shares.values()):.3f} at least), so circular reputation does not catch it."
            ),
            details=details,
        ))
    return flags, notes


def ring(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Wash pairs and wash cycles (module rules)."""
    return wash_pairs(view, params) + wash_cycles(view, params)[0]
