"""Cartel: a bloc that trades inside, co-locates, spares its own and attacks outsiders.

The evaluation design's collusion screens (community structure in the net-transfer graph)
and its behavioral metrics (betrayal and aggression read from attacks and raids): a non-aggression pact is visible as
aggression that always misses the same few agents although they stood within reach,
while those agents trade with each other.

Rule:

1. Two screened nodes are *allied* when they co-locate -- stood together at least
   ``min_together_ratio`` times as long as the median pair of the match that met -- and
   never hit each other, either way.
2. Candidate blocs are the maximal cliques of the alliance graph with at least
   ``min_members`` members, and the unions of its triangles chained by a shared pair whose
   members never hit each other (a follower may stray from another follower:
   :func:`candidate_blocs`), that trade inside (at least ``min_inside_exchanges``
   voluntary exchanges between members), of whom at least ``min_aggressors`` attacked,
   raided or robbed outsiders, at least ``min_victims`` different outsiders in all.
   Members that never hit anyone belong to the bloc too: they are the ones it protects.
3. The bloc's sparing of its own is weighed against the opportunity seat contact gave.
   Each aggressor's *hazard* is the outsiders it hit per tick it stood beside outsiders
   (first hits only: a vendetta against one rival counts once).  Its ticks beside fellow
   members then predict how many of them it would have hit if membership did not matter;
   the chance that it hit none is ``exp(-expected)``.  The score is ``-log10`` of the
   bloc's chance (summed over its aggressors), and the chance itself is the bloc's p-value:
   the match-level multiple-testing step decides (the blocs tested count in its family).
4. The flag names only the members that carry their own share of that evidence: the victims the bloc's
   aggressors would have had in it at their rates, and, for an aggressor, those it would have had among the others
   (:func:`own_evidence`).  A member whose share leaves a chance above ``member_level`` that it was spared by chance
   is not named: removed, the weakest first, the hazards read again, until every member left carries its own.  The
   test stays the whole bloc's (rule 3); a flag naming fewer than ``min_members`` is dropped, and seats two blocs
   would name are named once, by the bloc with the stronger test.  An honest seat that stood near a bloc often enough to count as an
   ally, and was never hit by it, shares the bloc's sparing only in the few ticks it stood there; without this
   rule the bloc's evidence carried it into the flag.

A bloc that never met gives no opportunity (no ticks together, score 0): it cannot be a
non-aggression pact.  Rivals that fight each other are never allied.  An agent that
fights one rival and stays peaceful with everyone else has one victim and never makes a
bloc; one that wanders among outsiders it does not hit has a low hazard, so sparing a
friend proves little.  Without co-location data the screen does not run (the report says
"not screened").

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph(contact={("a", "b"): 120, ("a", "x"): 10, ("b", "y"): 10, ("x", "y"): 10})
>>> _ = G.add_edge("a", "b", value=4.0, tick=0, event=0, goods={"wood": 4.0})
>>> _ = G.add_edge("b", "a", value=4.0, tick=0, event=0, goods={"food": 4.0})
>>> _ = G.add_edge("x", "a", value=3.0, tick=1, event=1, kind="theft")
>>> _ = G.add_edge("y", "b", value=3.0, tick=2, event=2, kind="theft")
>>> [(c.flag.agents, round(c.flag.score, 2)) for c in cartel(TransferView(G), {"min_members": 2,
...   "min_aggressors": 2, "min_victims": 2, "min_inside_exchanges": 1, "min_together_ratio": 3.0,
...   "max_cliques": 1000})[0]]
[(('a', 'b'), 10.42)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import networkx as nx

from .flags import Flag, ordered
from .graph import TransferView
from .stats import Candidate, Test

__all__ = ["CARTEL_NULL", "allied_graph", "candidate_blocs", "cartel", "own_evidence"]


def allied_graph(view: TransferView, min_together_ratio: float) -> nx.Graph:
    """Screened nodes; an edge between two that co-locate (rule 1) and never hit each other."""
    allied = nx.Graph()
    typical = view.typical_contact
    if view.contact is None or not typical:
        return allied
    floor = min_together_ratio * typical
    for (a, b), ticks in view.contact.items():
        if a in view.exempt or b in view.exempt or ticks < floor or view.pair(a, b).acts:
            continue
        allied.add_edge(a, b)
    return allied


def _contact_split(view: TransferView, member: Any, bloc: frozenset[Any]) -> tuple[float, float]:
    """``(ticks beside fellow members, ticks beside everyone else)`` of ``member``."""
    inside = outside = 0.0
    for other, ticks in _beside(view).get(member, ()):
        if other in bloc:
            inside += ticks
        else:
            outside += ticks
    return inside, outside


def _beside(view: TransferView) -> dict[Any, list[tuple[Any, float]]]:
    """Node -> ``(other node, ticks together)`` for each pair it stood in, in the contact
    data's order (read once per view, not once per member of every bloc)."""
    return view.once("cartel.beside", lambda: _beside_of(view))


def _beside_of(view: TransferView) -> dict[Any, list[tuple[Any, float]]]:
    assert view.contact is not None
    found: dict[Any, list[tuple[Any, float]]] = {}
    for (x, y), ticks in view.contact.items():
        found.setdefault(x, []).append((y, ticks))
        if y != x:
            found.setdefault(y, []).append((x, ticks))
    return found


CARTEL_NULL = ("each member hit fellow members at the rate it hit outsiders per tick beside them (Poisson: "
               "the chance of no victim inside the bloc)")
"""The cartel screen's null, in words."""


def cartel(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test]]:
    """Non-aggression blocs (module rule): candidates and tests.  Needs ``contact``."""
    if view.contact is None:
        return [], []
    min_members = int(params["min_members"])
    min_aggressors = int(params["min_aggressors"])
    min_victims = int(params["min_victims"])
    min_inside = int(params["min_inside_exchanges"])
    budget = int(params["max_cliques"])
    allied = allied_graph(view, float(params["min_together_ratio"]))
    flags: list[Candidate] = []
    tests: list[Test] = []
    acts_by: dict[Any, list[Any]] = {}  # aggressor -> its acts, in time order
    for act in view.acts:
        acts_by.setdefault(act.aggressor, []).append(act)
    member_level = float(params.get("member_level", 1.0))
    named_blocs: dict[frozenset[Any], tuple[float, int]] = {}  # a named set -> its strongest test, its place
    for bloc in candidate_blocs(view, allied, min_members, budget):
        members = tuple(ordered(bloc))
        outside, victims_of = _outside_acts(members, bloc, acts_by)
        victims = ordered({v for vs in victims_of.values() for v in vs})
        if len(victims_of) < min_aggressors or len(victims) < min_victims:
            continue
        inside_trades = sum(len(view.pair(a, b).exchanges) for i, a in enumerate(members) for b in members[i + 1:])
        if inside_trades < min_inside:
            continue  # the bloc must trade inside
        expected, hazards = _victims_expected_inside(view, members, bloc, victims_of)
        key = ("cartel", members)
        p = math.exp(-expected)
        tests.append(Test(key, p, 0.0))
        named, shares = _with_own_evidence(view, bloc, acts_by, member_level)  # rule 4: who the flag names
        if len(named) < min_members:
            continue
        flag = _bloc_flag(view, members, bloc, outside, victims_of, victims, inside_trades, expected, hazards)
        if named != bloc:
            flag = _named_only(view, flag, named, bloc, acts_by, shares)
        earlier = named_blocs.get(named)
        if earlier is None:
            named_blocs[named] = (p, len(flags))
            flags.append(Candidate(flag, (key,)))
        elif p < earlier[0]:  # the same seats named by a stronger test: that one's flag
            named_blocs[named] = (p, earlier[1])
            flags[earlier[1]] = Candidate(flag, (key,))
    return flags, tests


def _named_only(view: TransferView, flag: Flag, named: frozenset[Any], bloc: frozenset[Any],
                acts_by: Mapping[Any, list[Any]], shares: Mapping[Any, float]) -> Flag:
    """The bloc's flag naming only the members that carry their own evidence (rule 4): its agents and pairs those,
    its evidence their acts on outsiders and their exchanges, the allies left out and their shares of the whole
    bloc's evidence (``shares``, :func:`own_evidence`) in its details, and a sentence saying so; its test (and so
    its p-value) the whole bloc's."""
    members = tuple(ordered(named))
    left = tuple(ordered(bloc - named))
    outside, _victims_of = _outside_acts(members, bloc, acts_by)
    chances = ", ".join(f"{math.exp(-shares[m]):.2g}" for m in left)
    who = (f"{left[0]} stood with them and was never hit, but only as often as chance allows (its chance "
           f"{chances}), and is not named" if len(left) == 1 else
           f"{', '.join(map(str, left))} stood with them and were never hit, but only as often as chance allows "
           f"(their chances {chances}), and are not named")
    return replace(
        flag, agents=members, pairs=tuple((a, b) for i, a in enumerate(members) for b in members[i + 1:]),
        evidence=_bloc_evidence(view, members, outside),
        explanation=f"{flag.explanation} Named: the {len(members)} of them each spared beyond chance on its own; {who}.",
        details={**flag.details, "testedMembers": [str(m) for m in ordered(bloc)],
                 "notNamed": {str(m): round(math.exp(-shares[m]), 4) for m in left}})


def _outside_acts(members: tuple[Any, ...], bloc: frozenset[Any],
                  acts_by: Mapping[Any, list[Any]]) -> tuple[list[Any], dict[Any, set[Any]]]:
    """The members' acts on outsiders, and each aggressor's outside victims."""
    outside = [act for m in members for act in acts_by.get(m, ()) if act.victim not in bloc]
    victims_of: dict[Any, set[Any]] = {}
    for act in outside:
        victims_of.setdefault(act.aggressor, set()).add(act.victim)
    return outside, victims_of


def own_evidence(view: TransferView, bloc: frozenset[Any], acts_by: Mapping[Any, list[Any]]) -> dict[Any, float]:
    """Each member's own share of the bloc's evidence (rule 4): the victims the bloc's aggressors would have had in it
    at their rates beside outsiders (rule 3's hazards, read for this bloc), and, for an aggressor, those it would
    have had among the others; the chance that none of them happened is ``exp(-share)``.

    a and b stood together 100 ticks, c beside a for 5; a robbed x and b robbed y, each in its 10 ticks beside
    them (a hazard of 0.1 a tick each).  a's share: b's 0.1 x 100 on it, and its own 0.1 x (100 + 5) on b and c;
    c's: a's 0.1 x 5 on it.

    >>> G = nx.MultiDiGraph(contact={("a", "b"): 100, ("a", "c"): 5, ("a", "x"): 10, ("b", "y"): 10})
    >>> _ = G.add_edge("x", "a", value=3.0, tick=1, event=1, kind="theft")
    >>> _ = G.add_edge("y", "b", value=3.0, tick=2, event=2, kind="theft")
    >>> view = TransferView(G)
    >>> acts = {act.aggressor: [act] for act in view.acts}
    >>> {m: round(e, 2) for m, e in sorted(own_evidence(view, frozenset("abc"), acts).items())}
    {'a': 20.5, 'b': 20.0, 'c': 0.5}
    """
    members = tuple(ordered(bloc))
    _outside, victims_of = _outside_acts(members, bloc, acts_by)
    hazards = {m: hazard for m, (hazard, _mates) in _hazards(view, members, bloc, victims_of).items()}
    shares: dict[Any, float] = {}
    for m in members:
        share = sum(h * view.contact_of(a, m) for a, h in hazards.items() if a != m)
        mine = hazards.get(m)
        if mine:
            share += mine * sum(view.contact_of(m, b) for b in members if b != m)
        shares[m] = share
    return shares


def _with_own_evidence(view: TransferView, bloc: frozenset[Any], acts_by: Mapping[Any, list[Any]],
                       level: float) -> tuple[frozenset[Any], dict[Any, float]]:
    """``bloc`` less its members whose own share of the evidence (:func:`own_evidence`) leaves a chance above
    ``level`` that they were spared by chance: the weakest removed first and the hazards read again, until every
    member left carries its own (``level`` 1: the bloc as it is); and each member's share of the whole bloc's
    evidence (empty at ``level`` 1, where none is read)."""
    if level >= 1.0:
        return bloc, {}
    floor = -math.log(level) if level > 0 else math.inf
    rank = {m: i for i, m in enumerate(ordered(bloc))}
    whole = own_evidence(view, bloc, acts_by)
    shares = whole
    while len(bloc) > 1:
        weakest = min(shares, key=lambda m: (shares[m], rank[m]))
        if shares[weakest] >= floor:
            break
        bloc = bloc - {weakest}
        shares = own_evidence(view, bloc, acts_by)
    return bloc, whole


def candidate_blocs(view: TransferView, allied: nx.Graph, min_members: int, budget: int) -> list[frozenset[Any]]:
    """The blocs tested (rule 2): the maximal cliques of allies with at least ``min_members`` members
    (at most ``budget`` cliques read), then each union of allied triangles chained by a shared pair
    (clique percolation, k = 3) that is not a clique itself and whose members never hit each other,
    either way.

    A bloc follows its leader: each member stands by the leader and by most of the others, but
    two followers may stray apart often enough that their time together falls short of the
    allies' floor, and the bloc then splits into two cliques that share all but one member each,
    the pair across never tested together.  Chained triangles join them again; that the members
    spare each other is still required of every pair, and the bloc is one more test in the family.

    >>> G = nx.Graph([("l", "a"), ("l", "b"), ("l", "c"), ("a", "b"), ("b", "c")])  # a and c stray apart
    >>> sorted(sorted(b) for b in candidate_blocs(TransferView(nx.MultiDiGraph()), G, 2, 100))
    [['a', 'b', 'c', 'l'], ['a', 'b', 'l'], ['b', 'c', 'l']]
    """
    cliques: list[frozenset[Any]] = []
    for n, clique in enumerate(nx.find_cliques(allied)):
        if n >= budget:
            break
        cliques.append(frozenset(clique))
    blocs = [c for c in cliques if len(c) >= min_members]
    seen = set(blocs)
    for chained in _chained_triangles(cliques):
        if chained in seen or len(chained) < min_members:
            continue
        members = ordered(chained)
        if any(view.pair(a, b).acts for i, a in enumerate(members) for b in members[i + 1:]):
            continue  # some members hit each other: not a non-aggression bloc
        seen.add(chained)
        blocs.append(chained)
    return blocs


def _chained_triangles(cliques: list[frozenset[Any]]) -> list[frozenset[Any]]:
    """Unions of the cliques of three or more that share at least two members, chained (the
    k-clique communities of Palla et al. 2005 at k = 3, read from the maximal cliques), in
    order of their smallest clique's position."""
    big = [c for c in cliques if len(c) >= 3]
    joined = nx.Graph()
    joined.add_nodes_from(range(len(big)))
    for i, a in enumerate(big):
        for j in range(i + 1, len(big)):
            if len(a & big[j]) >= 2:
                joined.add_edge(i, j)
    out = []
    for component in sorted(nx.connected_components(joined), key=min):
        if len(component) > 1:
            out.append(frozenset().union(*(big[i] for i in component)))
    return out


def _victims_expected_inside(view: TransferView, members: tuple[Any, ...], bloc: frozenset[Any],
                             victims_of: Mapping[Any, set[Any]]) -> tuple[float, dict[str, float]]:
    """The null (module rule): each member hits fellow members at the rate it hits outsiders per tick beside
    them (a hit takes a tick beside its victim); the victims expected inside the bloc, and each member's
    rate.  The chance of none is ``exp(-expected)`` (Poisson)."""
    expected = 0.0
    hazards: dict[str, float] = {}
    for m, (hazard, beside_mates) in _hazards(view, members, bloc, victims_of).items():
        hazards[str(m)] = round(hazard, 4)
        expected += hazard * beside_mates
    return expected, hazards


def _hazards(view: TransferView, members: tuple[Any, ...], bloc: frozenset[Any],
             victims_of: Mapping[Any, set[Any]]) -> dict[Any, tuple[float, float]]:
    """Each aggressor of the bloc: its outside victims per tick beside outsiders (rule 3's hazard), and its ticks
    beside fellow members."""
    found: dict[Any, tuple[float, float]] = {}
    for m in members:
        hit = victims_of.get(m)
        if hit:
            beside_mates, beside_others = _contact_split(view, m, bloc)
            found[m] = (len(hit) / max(beside_others, float(len(hit))), beside_mates)
    return found


def _bloc_evidence(view: TransferView, members: tuple[Any, ...], acts: list[Any]) -> tuple[Any, ...]:
    """A bloc flag's evidence: ``acts`` (its members' on outsiders) and every exchange between its members."""
    evidence: set[Any] = set()
    for act in acts:
        evidence.update(act.events)
    for i, a in enumerate(members):
        for b in members[i + 1:]:
            for x in view.pair(a, b).exchanges:
                evidence.update(x.events)
    return tuple(ordered(evidence))


def _bloc_flag(view: TransferView, members: tuple[Any, ...], bloc: frozenset[Any], outside: list[Any],
               victims_of: Mapping[Any, set[Any]], victims: list[Any], inside_trades: int, expected: float,
               hazards: dict[str, float]) -> Flag:
    """The ``non_aggression_bloc`` flag of one bloc: its story, its evidence (the acts on outsiders and the
    exchanges inside) and its figures."""
    within_reach = sum(1 for act in outside if act.present and any(p in bloc for p in act.present))
    score = expected / math.log(10)
    together = sum(view.contact_of(a, b) for i, a in enumerate(members) for b in members[i + 1:])
    return Flag(
        screen="cartel",
        kind="non_aggression_bloc",
        level="flag",
        agents=members,
        pairs=tuple((a, b) for i, a in enumerate(members) for b in members[i + 1:]),
        score=min(score, 99.0),
        threshold=0.0,
        evidence=_bloc_evidence(view, members, outside),
        explanation=(
            f"{', '.join(map(str, members))} moved together ({together:g} ticks side by side), traded with each "
            f"other ({inside_trades} exchanges), and hit {len(victims)} outsiders {len(outside)} times but never "
            f"each other, where their aggression towards outsiders predicted {expected:.1f} victims among "
            f"themselves (chance of none: 1 in {10 ** min(score, 99.0):,.0f})."
        ),
        details={
            "outsiderActs": len(outside),
            "victims": victims,
            "aggressors": ordered(victims_of),
            "insideExchanges": inside_trades,
            "ticksTogether": together,
            "expectedVictimsInside": round(expected, 4),
            "actsWithAMemberWithinReach": within_reach,
            "hazardPerTickBesideOutsiders": hazards,
        },
        p_value=math.exp(-expected),
        null=CARTEL_NULL,
    )
