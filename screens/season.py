"""Season scale: feeds that only show across matches.

The evaluation design's collusion screens: "per-season net-transfer graphs ... with community detection; the
chip-dumping/gold-farming signature is hub-and-spoke one-directional flow".  Across
a season, honest play adds up: summing every trade of a thousand matches makes every
busy seat a "hub" of small one-way remainders, and every good goes round some cycle.
So the season is not screened on raw transfers.  It is screened on *feeds*: in each
match, the pairs where one seat passed the other value one way by the feeder screen's
spoke test (:func:`daishi_forensics.screens.feeder.one_way_feeds`), at least
``min_feed_value`` typical exchanges of that match and at least ``min_giver_share`` of all
the value the giver handed anyone in it (the feeder screen's share floor).  A feed is already unusual in one
match; the season asks how feeds connect.

- **Season feeder** (``feeder`` / ``hub_and_spoke``): a node (agent, or operator) fed
  by at least ``min_spokes`` different nodes over the season, in at least two matches,
  counting only feeds their own match did not flag (a hub a single match shows is
  that match's finding).  Score: the number of spokes.
- **Feed cycles** (``ring`` / ``feed_cycle``): feeds that go round ``A -> B -> C -> A``
  across matches, value laundered back to where it started.  The feed graph is cut
  into strongly connected components and simple cycles of 3 to ``max_cycle_length``
  nodes are searched inside each, depth-first from their smallest node, only along
  feeds whose value stays within ``max_leg_ratio`` of the others (value consistency);
  a lap takes its feeds in season order (time consistency).  Flagged at
  ``cycle_threshold`` laps; the search stops after ``max_search_steps`` steps and says so.
- **Recurring pairs** (``operator`` / ``recurring_pair``) and **season outliers**
  (``pair_outlier``): see :mod:`.operator` and :mod:`.pair_outlier`.

Every feed keeps the events behind it, prefixed with its match (``m_…#10423``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from daishi_forensics.wording import count

from .feeder import one_way_feeds
from .flags import Flag, ordered, pair_key
from .graph import TransferView

__all__ = ["Feed", "feed_cycles", "feed_graph", "match_feeds", "season_feeders"]


@dataclass(frozen=True)
class Feed:
    """One seat feeding another within one match."""

    giver: Any
    taker: Any
    match: str
    position: int
    """The match's position in the season (its order)."""
    value: float
    """Net value passed, in the match's value units."""
    scaled: float
    """The same, in typical exchanges of the match."""
    events: tuple[str, ...]
    """The exchanges behind it, as ``match#event``."""
    flagged: bool = False
    """The match's own screens already flagged the pair."""


def match_feeds(view: TransferView, params: Mapping[str, Any], position: int = 0,
                flagged: frozenset[tuple[Any, Any]] = frozenset()) -> list[Feed]:
    """The feeds of one match (module docstring); ``flagged`` holds the pairs (``a < b``)
    the match's own screens flagged."""
    name = str(view.graph.graph.get("name", position))
    scale = view.scale or 0.0
    found = one_way_feeds(view, float(params["min_directionality"]), int(params["min_one_way_exchanges"]),
                          float(params["min_feed_value"]), float(params["min_giver_share"]),
                          bool(params.get("whole_items", False)))
    feeds = []
    for (giver, taker), (net, _direction, _count) in sorted(found.items(), key=lambda kv: repr(kv[0])):
        pair = view.pair(giver, taker)
        events = tuple(f"{name}#{e}" for e in ordered({e for x in pair.exchanges for e in x.events}))
        feeds.append(Feed(giver, taker, name, position, net, net / scale if scale else 0.0, events,
                          pair_key(giver, taker) in flagged))
    return feeds


def feed_graph(feeds: Sequence[Feed], key: Callable[[Feed, Any], Any] | None = None) -> nx.MultiDiGraph:
    """The season's feeds as a transfer multigraph: one edge giver -> taker per feed, with
    ``value`` (in typical exchanges of its match, so matches compare), ``tick`` (the match's
    position), ``event`` (``match#first event``), ``events`` and ``match``.  ``key(feed, node)``
    re-keys nodes (e.g. by operator); a feed whose two ends get one key is dropped."""
    graph = nx.MultiDiGraph()
    for feed in feeds:
        u = key(feed, feed.giver) if key else feed.giver
        v = key(feed, feed.taker) if key else feed.taker
        if u is None or v is None or u == v:
            continue
        graph.add_edge(u, v, value=feed.scaled, tick=feed.position, event=feed.events[0] if feed.events else
                       f"{feed.match}#feed", events=feed.events, match=feed.match, raw=feed.value, kind="gift",
                       flagged=feed.flagged)
    return graph


def season_feeders(graph: nx.MultiDiGraph, params: Mapping[str, Any], label: str) -> list[Flag]:
    """Nodes fed by several nodes across the season (module rule)."""
    min_spokes = int(params["min_spokes"])
    flags: list[Flag] = []
    for hub in ordered(graph.nodes):
        spokes: dict[Any, list[dict[str, Any]]] = {}
        for giver, _, data in graph.in_edges(hub, data=True):
            if not data.get("flagged"):
                spokes.setdefault(giver, []).append(data)
        matches = {d["match"] for feeds in spokes.values() for d in feeds}
        if len(spokes) < min_spokes or len(matches) < 2:
            continue
        total = sum(d["value"] for feeds in spokes.values() for d in feeds)
        names = ordered(spokes)
        evidence = ordered({e for feeds in spokes.values() for d in feeds for e in d["events"]})
        flags.append(Flag(
            screen="feeder",
            kind="hub_and_spoke",
            level="flag",
            agents=(hub, *names),
            pairs=tuple(ordered(pair_key(hub, s) for s in names)),
            score=float(len(spokes)),
            threshold=float(min_spokes),
            evidence=tuple(evidence),
            explanation=(
                f"Across the season, {label} {hub} was fed value one way by {len(spokes)} different {label}s "
                f"({', '.join(map(str, names))}) in {len(matches)} matches, {total:.1f} typical exchanges in all."
            ),
            details={"keyedBy": label, "beneficiary": hub, "matches": ordered(matches),
                     "spokes": [{label: s, "feeds": len(spokes[s]),
                                 "typicalExchanges": round(sum(d["value"] for d in spokes[s]), 3)} for s in names]},
            match="season",
        ))
    return flags


def feed_cycles(graph: nx.MultiDiGraph, params: Mapping[str, Any], label: str) -> tuple[list[Flag], list[str]]:
    """Feeds that go round a cycle across the season (module rule)."""
    from .wash_cycle import _cycles_in, _laps  # the same bounded, value- and time-consistent search

    max_len = int(params["max_cycle_length"])
    ratio = float(params["max_leg_ratio"])
    threshold = float(params["cycle_threshold"])
    budget = [int(params["max_search_steps"])]
    legs: dict[tuple[Any, Any], list[tuple[float, float, tuple[Any, ...]]]] = {}
    for u, v, data in graph.edges(data=True):
        legs.setdefault((u, v), []).append((float(data["tick"]), float(data["value"]), tuple(data["events"])))
    for transfers in legs.values():
        transfers.sort(key=lambda t: (t[0], t[1]))
    flow = nx.DiGraph()
    values = {}
    for (u, v), transfers in legs.items():
        flow.add_edge(u, v)
        values[(u, v)] = sum(t[1] for t in transfers) / len(transfers)
    flags: list[Flag] = []
    seen: set[frozenset[Any]] = set()
    for nodes in nx.strongly_connected_components(flow):
        if len(nodes) < 3:
            continue
        for cycle in _cycles_in(flow.subgraph(nodes), values, max_len, ratio, budget):
            laps = max((_laps(cycle[k:] + cycle[:k], legs, ratio) for k in range(len(cycle))), key=len)
            if len(laps) < threshold or frozenset(cycle) in seen:
                continue
            seen.add(frozenset(cycle))
            path = " -> ".join(str(n) for n in (*cycle, cycle[0]))
            evidence = ordered({e for lap in laps for t in lap for e in t[2]})
            flags.append(Flag(
                screen="ring",
                kind="feed_cycle",
                level="flag",
                agents=tuple(cycle),
                pairs=tuple(ordered(pair_key(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle)))),
                score=float(len(laps)),
                threshold=threshold,
                evidence=tuple(evidence),
                explanation=(f"Across the season, value was fed one way round {path} ({label}s), "
                             f"{count(len(laps), 'time')} in season order: laundered back to where it started."),
                details={"keyedBy": label, "cycle": list(cycle), "laps": len(laps)},
                match="season",
            ))
    notes = []
    if budget[0] <= 0:
        notes.append(f"season: the feed-cycle search stopped after {int(params['max_search_steps'])} steps")
    return flags, notes
