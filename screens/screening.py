"""Run every screen on a transfer graph, or on a season of them.

:func:`screen_graph` is the public entry point: a plain
:class:`networkx.MultiDiGraph` of transfers in (conventions in
:mod:`daishi_forensics.screens.graph`), a :class:`ScreenResult` out: the verdict,
the configuration's version and digest, every flag, and what could not be screened.
:func:`screen_season` screens each match and then the season as a whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from .cartel import cartel
from .config import ScreenConfig, load_config
from .fans import fans
from .feeder import feeder
from .flags import Flag, Verdict, ordered, verdict_of
from .graph import TransferView
from .off_price import off_price
from .operator import operator, recurring_pairs
from .pair_outlier import PairRow, pair_outlier, pair_table, season_outliers
from .ring import ring_members, wash_cycles, wash_pairs
from .scatter_gather import gather_scatter, scatter_gather
from .season import Feed, feed_cycles, feed_graph, match_feeds, season_feeders
from .thrown_fight import thrown_fight
from .value_cycles import value_cycles

__all__ = ["SCREENS", "ScreenResult", "SeasonResult", "screen_graph", "screen_season", "screen_view"]

SCREENS: tuple[str, ...] = ("feeder", "ring", "cartel", "off_price", "thrown_fight", "pair_outlier", "operator",
                             "fans", "scatter_gather", "value_cycles")
"""Every per-match screen, in run order (``season`` runs only in :func:`screen_season`)."""

RESULT_VERSION = 1
"""Version of the JSON form of a result (``screensVersion``)."""


@dataclass(frozen=True)
class ScreenResult:
    """The screens' answer for one transfer graph (one match)."""

    verdict: Verdict
    """``clear``, ``review`` or ``flag``: the worst level among the flags."""
    config_version: str
    """The configuration's version (``screens/config.json``, or the override's)."""
    config_digest: str
    """Hash of the effective configuration values."""
    flags: tuple[Flag, ...]
    """Every flag, flags before reviews, then by screen and agents."""
    not_screened: tuple[str, ...] = ()
    """What could not be screened, and why ("not screened: …")."""
    notes: tuple[str, ...] = ()
    """Observations that do not change the verdict (defaulted item values, a registration
    anomaly without value moved, a search budget that ran out)."""
    name: str | None = None
    """The graph's ``name`` (the match id), when it has one."""
    table: tuple[PairRow, ...] = field(default=(), repr=False, compare=False)
    """The collusion table of the match (for the season-scale outliers)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form (deterministic ordering): ``verdict``, ``configVersion``, ``configDigest``,
        ``flags``, ``notScreened``, and ``match`` when named."""
        out: dict[str, Any] = {
            "verdict": self.verdict,
            "configVersion": self.config_version,
            "configDigest": self.config_digest,
            "flags": [f.to_dict() for f in self.flags],
            "notScreened": list(self.not_screened),
            "notes": list(self.notes),
        }
        if self.name is not None:
            out["match"] = self.name
        return out


def _sorted_flags(flags: Iterable[Flag]) -> tuple[Flag, ...]:
    return tuple(sorted(flags, key=lambda f: f.sort_key))


def _notes(view: TransferView, config: ScreenConfig) -> list[str]:
    notes: list[str] = [str(n) for n in view.graph.graph.get("not_screened") or ()]
    if view.unvalued_events:
        ids = ordered(view.unvalued_events)
        shown = ", ".join(map(str, ids[:10])) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")
        notes.append(f"not screened: {len(ids)} transfer event(s) whose value is unknown (events {shown}); "
                     "left out of the value screens")
    if not view.exchanges:
        notes.append("no trades or gifts: feeder, ring and off_price had nothing to screen")
    elif view.scale is None:
        notes.append("not screened: feeder, off_price and value measures (no exchange of known value)")
    if view.contact is None and config.enabled("cartel"):
        notes.append("not screened: cartel (the graph has no co-location data)")
    return notes


Runner = Callable[[TransferView, Mapping[str, Any]], tuple[list[Flag], list[str]]]


def _plain(fn: Callable[[TransferView, Mapping[str, Any]], list[Flag]]) -> Runner:
    return lambda view, params: (fn(view, params), [])


def _ring(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Flag], list[str]]:
    cycles, notes = wash_cycles(view, params)
    found = wash_pairs(view, params) + cycles
    return found + ring_members(view, params, found), notes


_RUNNERS: dict[str, Runner] = {
    "feeder": _plain(feeder),
    "ring": _ring,
    "cartel": _plain(cartel),
    "off_price": _plain(off_price),
    "thrown_fight": _plain(thrown_fight),
    "operator": operator,
    "fans": _plain(fans),
    "scatter_gather": scatter_gather,
    "value_cycles": value_cycles,
}


def screen_view(view: TransferView, config: ScreenConfig | None = None) -> ScreenResult:
    """:func:`screen_graph` on a graph already read into a :class:`TransferView`."""
    config = config or load_config()
    name = view.graph.graph.get("name")
    name = None if name is None else str(name)
    screened = view.screened_nodes()
    if len(screened) < 2:
        note = (f"not screened: {len(screened)} agent(s) to screen; collusion takes two"
                + (f" ({len(view.exempt)} scripted seat(s) left out)" if view.exempt else ""))
        missing, observed = _split([note, *(str(n) for n in view.graph.graph.get("not_screened") or ())])
        return ScreenResult("clear", config.version, config.digest, (), missing, observed, name)
    flags: list[Flag] = []
    notes = _notes(view, config)
    for screen in SCREENS:
        if screen not in config.screens:
            continue
        if not config.enabled(screen):
            notes.append(f"not screened: {screen} (disabled in the configuration)")
            continue
        params = config.screens[screen]
        if screen == "pair_outlier":
            continue
        found, more = _RUNNERS[screen](view, params)
        if screen == "scatter_gather" and "fans" in config.screens:  # gather-scatter reads the fan boxes
            found = found + gather_scatter(view, params, config.screens["fans"])
        flags += found
        notes += more
    table: tuple[PairRow, ...] = ()
    if config.enabled("pair_outlier"):
        rows = pair_table(view, name)
        table = tuple(rows)
        flags += pair_outlier(view, config.screens["pair_outlier"], rows)
    ordered_flags = _sorted_flags(flags)
    missing, observations = _split(notes)
    return ScreenResult(verdict_of(ordered_flags), config.version, config.digest, ordered_flags,
                        missing, observations, name, table)


def _split(notes: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Notes into ("not screened: …", everything else), each in first-seen order, once."""
    missing: dict[str, None] = {}
    other: dict[str, None] = {}
    for n in notes:
        (missing if n.startswith("not screened") else other)[n] = None
    return tuple(missing), tuple(other)


def screen_graph(graph: nx.MultiDiGraph, config: ScreenConfig | Mapping[str, Any] | None = None) -> ScreenResult:
    """Screen one transfer graph for collusion (issue 4).

    Parameters
    ----------
    graph:
        A :class:`networkx.MultiDiGraph` of transfers: one edge ``u -> v`` per transfer
        with ``value`` (value moved from ``u`` to ``v``; ``None`` if unknown), ``tick`` and
        ``event`` (the id a flag cites), and optionally ``kind``, ``exchange``, ``goods``,
        ``events``, ``present``; node attributes ``operator``, ``model``, ``role``,
        ``exempt``; graph attributes ``contact``, ``ticks``, ``ranked``, ``name`` (see
        :mod:`daishi_forensics.screens.graph`).
    config:
        A :class:`~daishi_forensics.screens.config.ScreenConfig`, a mapping of overrides
        (applied to the shipped ``config.json``), or None for the shipped configuration.

    Returns
    -------
    ScreenResult
        ``verdict`` (``clear`` / ``review`` / ``flag``), ``config_version``, ``flags``
        (each with ``screen``, ``kind``, ``level``, ``agents`` as node ids, ``pairs``,
        ``score``, ``threshold``, ``evidence`` event ids and ``explanation``) and
        ``not_screened``.

    Raises
    ------
    ScreenInputError
        An edge breaks the conventions (no ``event``, a negative ``value``...).

    >>> G = nx.MultiDiGraph()
    >>> for i, spoke in enumerate(["s1", "s1", "s1", "s2", "s2", "s2"]):
    ...     _ = G.add_edge(spoke, "hub", value=10.0, tick=i, event=100 + i, kind="gift")
    >>> result = screen_graph(G)
    >>> result.verdict, [(f.screen, f.agents) for f in result.flags if f.level == "flag"]
    ('flag', [('feeder', ('hub', 's1', 's2'))])
    """
    if not isinstance(config, ScreenConfig):
        config = load_config(config)
    view = TransferView(graph, exempt_roles=config.exempt_roles,
                        fair_ratio=float(config.general.get("fair_ratio", 2.0)))
    return screen_view(view, config)


@dataclass(frozen=True)
class SeasonResult:
    """The screens' answer for a season: each match, then the season as a whole."""

    verdict: Verdict
    """The worst verdict of any match or of the season-scale flags."""
    config_version: str
    config_digest: str
    matches: tuple[ScreenResult, ...]
    """Each match's result, in the order given."""
    flags: tuple[Flag, ...]
    """Season-scale flags: feeds and wash cycles across matches (by agent and by operator),
    recurring pairs, season-wide pair outliers."""
    not_screened: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (deterministic ordering)."""
        return {
            "verdict": self.verdict,
            "configVersion": self.config_version,
            "configDigest": self.config_digest,
            "matches": [m.to_dict() for m in self.matches],
            "season": {"flags": [f.to_dict() for f in self.flags], "notScreened": list(self.not_screened),
                       "notes": list(self.notes)},
        }


def screen_season(graphs: Sequence[nx.MultiDiGraph], config: ScreenConfig | Mapping[str, Any] | None = None,
                  *, results: Sequence[ScreenResult] | None = None) -> SeasonResult:
    """Screen every match of a season, then the season as a whole.

    Each match is screened on its own (:func:`screen_graph`).  Then, at season scale
    (:mod:`daishi_forensics.screens.season`), keyed by agent and by operator: hubs fed
    by several spokes spread over matches; feeds that go round a cycle across matches
    (strongly connected components, bounded length, value- and time-consistent: never
    ``simple_cycles`` over the whole graph); pairs that feed each other in match after
    match; and the collusion table of every match pooled (pair outliers against all
    pairs of the season).  A flag whose pairs one match already flagged is reported
    there, not again.

    ``results`` may hold each graph's :class:`ScreenResult` already computed.
    """
    if not isinstance(config, ScreenConfig):
        config = load_config(config)
    fair = float(config.general.get("fair_ratio", 2.0))
    views = [TransferView(g, exempt_roles=config.exempt_roles, fair_ratio=fair) for g in graphs]
    if results is None:
        results = [screen_view(v, config) for v in views]
    flags: list[Flag] = []
    notes: list[str] = []
    if config.enabled("season"):
        params = config.screens["season"]
        flagged = [frozenset(p for f in r.flags for p in f.pairs) for r in results]
        feeds = [f for i, v in enumerate(views) for f in match_feeds(v, params, i, flagged[i])]
        operators = [{n: v.attr(n, "operator") for n in v.screened_nodes()} for v in views]

        def operator_of(feed: Feed, node: Any) -> Any:
            return operators[feed.position].get(node)

        keyings: list[tuple[str, Callable[[Feed, Any], Any] | None, list[dict[Any, Any]]]] = [
            ("agent", None, [{n: n for n in v.screened_nodes()} for v in views]),
            ("operator", operator_of, operators),
        ]
        for label, key, present in keyings:
            graph = feed_graph(feeds, key)
            flags += season_feeders(graph, params, label)
            found, more = feed_cycles(graph, params, label)
            flags += found
            notes += more
            keyed = [Feed(key(f, f.giver) if key else f.giver, key(f, f.taker) if key else f.taker, f.match,
                          f.position, f.value, f.scaled, f.events, f.flagged) for f in feeds]
            flags += recurring_pairs(keyed, present, params, label)
    if config.enabled("pair_outlier"):
        rows = [row for r in results for row in r.table]
        flags += season_outliers(rows, config.screens["pair_outlier"])
    per_match = {(f.screen, frozenset(f.pairs)) for r in results for f in r.flags}
    fresh = [f for f in flags if not (f.details.get("keyedBy", "agent") == "agent"
                                      and f.screen != "pair_outlier" and (f.screen, frozenset(f.pairs)) in per_match)]
    season_flags = _sorted_flags(_dedupe(fresh))
    verdicts = [r.verdict for r in results] + [verdict_of(season_flags)]
    worst: Verdict = "flag" if "flag" in verdicts else "review" if "review" in verdicts else "clear"
    missing, observations = _split(notes)
    return SeasonResult(worst, config.version, config.digest, tuple(results), season_flags, missing, observations)


def _dedupe(flags: Iterable[Flag]) -> list[Flag]:
    seen: set[tuple[Any, ...]] = set()
    out: list[Flag] = []
    for f in flags:
        k = (f.screen, f.kind, f.agents, f.match, f.details.get("keyedBy"))
        if k not in seen:
            seen.add(k)
            out.append(f)
    return out
