"""Cartel: a bloc that trades inside, co-locates, spares its own and attacks outsiders.

Seed 002 §2.9 (community structure in the net-transfer graph) and §2.8 (betrayal and
aggression read from attacks and raids): a non-aggression pact is visible as
aggression that always misses the same few agents although they stood within reach,
while those agents trade with each other.

Rule:

1. *Bloc members* are non-exempt nodes that did at least one forced act (raid, theft,
   attack).  Two members are *allied* when they traded (a voluntary exchange), met
   (they stood together: ``contact`` > 0) and never hit each other, either way.
2. Candidate blocs are the maximal cliques of the alliance graph with at least
   ``min_members`` members, of which at least ``min_aggressors`` hit outsiders.
3. The bloc's aggression against outsiders is weighed against the opportunity to hit
   its own: for each of its acts, ``p`` = the share of the agents within reach that
   were fellow members (the act's ``present`` nodes when the graph has them; else each
   member's share of its contact ticks spent with fellow members).  If aggression
   ignored membership, the chance that every act missed the bloc is ``Π (1 - p)``.  The
   score is ``-log10`` of that chance; the bloc is flagged when the score is at least
   ``threshold`` and it made at least ``min_outsider_acts`` acts.

A bloc that never met gives no opportunity (``p = 0``, score 0): it cannot be a
non-aggression pact.  Without co-location data the screen does not run (the report
says "not screened").  Rivals that fight each other are never allied.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph(contact={("a", "b"): 50, ("a", "x"): 50, ("b", "x"): 50})
>>> _ = G.add_edge("a", "b", value=4.0, tick=0, event=0, goods={"wood": 4.0})
>>> _ = G.add_edge("b", "a", value=4.0, tick=0, event=0, goods={"food": 4.0})
>>> for i in range(10):
...     _ = G.add_edge("x", "ab"[i % 2], value=3.0, tick=i + 1, event=i + 1, kind="theft",
...                    present=("b" if i % 2 == 0 else "a", "x"))
>>> [(f.agents, round(f.score, 2)) for f in cartel(TransferView(G), {"min_members": 2,
...   "min_aggressors": 2, "min_outsider_acts": 3, "threshold": 3.0, "max_cliques": 1000})]
[(('a', 'b'), 3.01)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import networkx as nx

from .flags import Flag, ordered
from .graph import Act, TransferView

__all__ = ["allied_graph", "cartel"]


def allied_graph(view: TransferView) -> nx.Graph:
    """Aggressors as nodes; an edge between two that traded, met and never hit each other."""
    aggressors = {act.aggressor for act in view.acts if act.aggressor not in view.exempt}
    allied = nx.Graph()
    allied.add_nodes_from(ordered(aggressors))
    for (a, b), pair in view.pairs.items():
        if a in aggressors and b in aggressors and pair.exchanges and not pair.acts and view.contact_of(a, b) > 0:
            allied.add_edge(a, b)
    return allied


def _share_with(view: TransferView, member: Any, bloc: frozenset[Any]) -> float:
    """Share of ``member``'s contact ticks spent with fellow bloc members."""
    assert view.contact is not None
    total = 0.0
    inside = 0.0
    for (x, y), ticks in view.contact.items():
        if x == member or y == member:
            other = y if x == member else x
            total += ticks
            if other in bloc:
                inside += ticks
    return inside / total if total > 0 else 0.0


def _opportunity(view: TransferView, act: Act, bloc: frozenset[Any], fallback: Mapping[Any, float]) -> float:
    if act.present is not None:
        reach = {n for n in act.present if n != act.aggressor} | {act.victim}
        return sum(1 for n in reach if n in bloc) / len(reach)
    return fallback[act.aggressor]


def cartel(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Non-aggression blocs (module rule).  Needs ``contact``; returns [] without it."""
    if view.contact is None:
        return []
    min_members = int(params["min_members"])
    min_aggressors = int(params["min_aggressors"])
    min_acts = int(params["min_outsider_acts"])
    threshold = float(params["threshold"])
    budget = int(params["max_cliques"])
    allied = allied_graph(view)
    flags: list[Flag] = []
    for n, clique in enumerate(nx.find_cliques(allied)):
        if n >= budget:
            break
        if len(clique) < min_members:
            continue
        bloc = frozenset(clique)
        outside = [act for act in view.acts if act.aggressor in bloc and act.victim not in bloc]
        hitters = {act.aggressor for act in outside}
        if len(outside) < min_acts or len(hitters) < min_aggressors:
            continue
        fallback = {m: _share_with(view, m, bloc) for m in bloc}
        log_chance = 0.0
        for act in outside:
            p = _opportunity(view, act, bloc, fallback)
            log_chance += math.log10(1.0 - p) if p < 1.0 else -math.inf
        score = -log_chance if math.isfinite(log_chance) else 99.0
        if score < threshold:
            continue
        members = tuple(ordered(bloc))
        victims = ordered({act.victim for act in outside})
        inside_trades = sum(len(view.pair(a, b).exchanges) for i, a in enumerate(members) for b in members[i + 1:])
        together = sum(view.contact_of(a, b) for i, a in enumerate(members) for b in members[i + 1:])
        evidence: set[Any] = set()
        for act in outside:
            evidence.update(act.events)
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                for x in view.pair(a, b).exchanges:
                    evidence.update(x.events)
        flags.append(Flag(
            screen="cartel",
            kind="non_aggression_bloc",
            level="flag",
            agents=members,
            pairs=tuple((a, b) for i, a in enumerate(members) for b in members[i + 1:]),
            score=min(score, 99.0),
            threshold=threshold,
            evidence=tuple(ordered(evidence)),
            explanation=(
                f"{', '.join(map(str, members))} traded with each other ({inside_trades} exchanges), stood "
                f"together, and made {len(outside)} attacks, raids or thefts on outsiders but none on each "
                f"other although they were within reach (chance 1 in {10 ** min(score, 99.0):,.0f})."
            ),
            details={
                "outsiderActs": len(outside),
                "victims": victims,
                "insideExchanges": inside_trades,
                "ticksTogether": together,
                "chance": 10 ** -min(score, 99.0),
            },
        ))
    return flags
