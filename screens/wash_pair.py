"""Wash pairs: two seats whose trades undo each other, and the pairs inside a ring.

The scoring rubric, *Trade ledger* and *Circular reputation* (rubric 2.4): wash trading is
trading for the count and the reputation, not for the goods: the goods come back.

**Wash pair** (``wash_pair``).  Two nodes whose trades undo each other: a trade, then a
*mirror* trade sending the same goods back (:mod:`.mirrors`: each side gives what it got,
good by good, each worth within ``max_leg_ratio``; each trade matched once, in time order).
A candidate when the round trips carry at least ``pair_threshold`` of all the value the
pair traded and what came back is worth at least ``min_value`` typical exchanges (a size
floor); tested against the match's other pairs (:mod:`.round_trip_null`: a beta-binomial
count of the pair's round trips).  The score is that share; the pair's net share (low, by
construction) and each side's circular reputation are in the details.  Two honest traders
who trade often and fairly swap *different* goods (wood for food), and an honest pair that
buys back what it sold does so in other quantities, for other goods, now and then: far below.

**Ring members.**  Inside a ring already found (seats joined by flagged wash pairs and
cycles, three or more), a pair of its seats is flagged as a wash pair at the lower
``member_threshold``: ring trades mix with the members' other trades, and the ring itself is
the evidence that they trade to send goods round.  Its test is its own round-trip test.

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> for t in range(6):  # wood for stone, then stone for wood: every trade undone
...     out, back = ("wood", "stone") if t % 2 == 0 else ("stone", "wood")
...     _ = G.add_edge("a", "b", value=6.0, tick=t, event=t, exchange=t, goods={out: 6.0})
...     _ = G.add_edge("b", "a", value=6.0, tick=t, event=t, exchange=t, goods={back: 6.0})
>>> PARAMS = {"min_value": 1.0, "max_leg_ratio": 1.5, "pair_threshold": 0.85}
>>> [(f.kind, f.agents, f.score, f.details["roundTrips"]) for f in wash_pairs(TransferView(G), PARAMS)]
[('wash_pair', ('a', 'b'), 1.0, 3)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from .flags import Flag, ordered
from .graph import TransferView
from .mirrors import mirrorable_value, pair_trips
from .round_trip_null import PAIR_NULL, return_tests

__all__ = ["ring_members", "wash_pairs"]


def _wash_pair(view: TransferView, a: Any, b: Any, params: Mapping[str, Any], threshold: float,
               ring: tuple[Any, ...] | None = None) -> Flag | None:
    """The wash-pair flag of ``a`` and ``b`` at ``threshold`` (None when it is not one);
    ``ring`` names the ring the pair belongs to (the relaxed member rule)."""
    pair = view.pair(a, b)
    a, b = pair.a, pair.b
    if len(pair.exchanges) < 2 or a in view.exempt or b in view.exempt or pair.gross <= 0:
        return None
    if mirrorable_value(view, pair) < threshold * pair.gross * (1 - 1e-9):
        return None  # too little of its value could ever come back for the score to reach the threshold
    ratio = float(params["max_leg_ratio"])
    tested = return_tests(view, ratio).get((a, b))
    if tested is None:
        return None
    trips = pair_trips(view, pair, ratio)
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
            f"pairs of its volume predicted {pi * possible:.1f} such trades)"
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
