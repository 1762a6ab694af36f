"""Run every screen on a transfer graph, or on a season of them.

:func:`screen_graph` is the public entry point: a plain
:class:`networkx.MultiDiGraph` of transfers in (conventions in
:mod:`daishi_forensics.screens.graph`), a :class:`ScreenResult` out: the verdict,
the configuration's version and digest, every flag, and what could not be screened.
:func:`screen_season` screens each match and then the season as a whole.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol

import networkx as nx

from daishi_forensics.wording import count

from .cartel import cartel
from .config import ScreenConfig, load_config
from .fans import fans
from .feeder import feeds, hubs
from .flags import Flag, Level, Verdict, ordered, verdict_of
from .graph import TransferView
from .off_price import off_price
from .operator import operator, recurring_pairs
from .pair_outlier import PairRow, pair_outlier, pair_table, season_outliers
from .ring import ring
from .scatter_gather import gather_scatter, scatter_gather
from .season import Feed, feed_cycles, feed_graph, match_feeds, season_feeders
from .stats import Candidate, Test, adjust_shared, describe_p, testable_family
from .thrown_fight import thrown_fight
from .value_cycles import value_cycles

__all__ = ["SCREENS", "ScreenResult", "SeasonResult", "as_candidates", "calibrate", "screen_graph", "screen_season",
           "screen_view"]

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
    testing: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The match-level multiple-testing step: method, rates, tests made (``tests``: the Daishi screens'
    tests, the family Holm's step-down shares the rate over) and the family's size; ``typologyTests``,
    when a money-laundering typology flagged, the tests each such kind counted on its own (its flags'
    ``tests``, the largest when several), at its own share of the rate."""
    tests: tuple[Test, ...] = field(default=(), repr=False, compare=False)
    """Every test of the Daishi screens the step weighed, rejected or not (what a miss is read
    from: the test's p-value, the smallest it could give, against ``testing``'s rate and family);
    not in the JSON form."""

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
        if self.testing:
            out["testing"] = dict(self.testing)
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
        notes.append(f"not screened: {count(len(ids), 'transfer event')} whose value is unknown (events {shown}); "
                     "left out of the value screens")
    if not view.voluntary:
        notes.append("no trades or gifts: feeder, ring and off_price had nothing to screen")
    elif view.described and view.scale is None:
        notes.append("not screened: feeder, off_price and value measures (no exchange of known value)")
    if view.contact is None and config.enabled("cartel"):
        notes.append("not screened: cartel (the graph has no co-location data)")
    if not view.described and not view.acts and config.enabled("thrown_fight"):
        notes.append("not screened: thrown_fight (plain payments: no transfer is an attack, a raid or a theft)")
    return notes


Runner = Callable[[TransferView, Mapping[str, Any]], tuple[list[Any], list[Test], list[str]]]


def _pair(fn: Callable[[TransferView, Mapping[str, Any]], tuple[list[Candidate], list[Test]]]) -> Runner:
    def run(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Any], list[Test], list[str]]:
        found, tests = fn(view, params)
        return list(found), tests, []
    return run


_RUNNERS: dict[str, Runner] = {
    "feeder": _pair(feeds),
    "ring": ring,
    "cartel": _pair(cartel),
    "off_price": _pair(off_price),
    "thrown_fight": _pair(thrown_fight),
    "operator": operator,
}

TYPOLOGIES: tuple[str, ...] = ("fans", "scatter_gather", "value_cycles")

EXCHANGE_SCREENS: tuple[str, ...] = ("feeder", "ring", "off_price", "pair_outlier", "operator")
"""The screens that read one-way flow between traders: on plain payments (no transfer says what
it was) every transfer is one way by nature, so they are not run."""
"""The money-laundering typologies: each controls its own candidates at its share of the budget."""

_TYPOLOGY_RUNNERS: dict[str, Callable[[TransferView, Mapping[str, Any]], tuple[list[Flag], list[str]]]] = {
    "fans": lambda view, params: (fans(view, params), []),
    "scatter_gather": scatter_gather,
    "value_cycles": value_cycles,
}


def typology_share(config: ScreenConfig, tests: Sequence[Test], typologies: Sequence[str]) -> float:
    """The share of ``false_alarm_rate`` the enabled money-laundering typologies spend, split
    evenly among them (a Bonferroni split of the one budget; the rest goes to the Daishi
    screens' Holm step): ``typology_share``; all of it when no Daishi test of this graph could
    ever reach the rate (a payment graph without goods or co-location: Tarone's reduction
    leaves that family empty, which depends on what the tests condition on, never on their
    outcome); none when no typology is enabled."""
    if not typologies:
        return 0.0
    if not testable_family(tests, config.false_alarm_rate):
        return 1.0
    return config.typology_share


def _typology_level(flag: Flag, level: float, flag_share: float) -> Flag:
    """A typology flag's level and adjusted p-value: its p-value times its tests (Bonferroni within
    the screen); a ``flag`` when that is at most ``level x flag_share``, else a ``review`` (the
    screen's own step-up rule already kept it at ``level``)."""
    p_adjusted = min(1.0, float(flag.p_value) * int(flag.tests or 1)) if flag.p_value is not None else None
    strong = p_adjusted is not None and p_adjusted <= level * flag_share
    return _unusual(replace(flag, level="flag" if strong else "review", p_adjusted=p_adjusted))


def _flag_key_of(key: Hashable, screen: str) -> bool:
    """Whether ``key`` is the test key :func:`as_candidates` gives a plain flag of ``screen``."""
    return isinstance(key, tuple) and key[:2] == ("flag", screen)


def as_candidates(screen: str, found: Iterable[Any]) -> tuple[list[Candidate], list[Test], list[Flag]]:
    """What a screen returned, for the match-level step: its :class:`Candidate` objects as they
    are; a plain :class:`Flag` with a ``p_value`` (a screen that tests but does not register its
    tests) as a candidate on a test of its own, the screen's ``tests`` count made up with tests
    that were not rejected; a plain flag without one (a rule with no null) kept as it is."""
    candidates: list[Candidate] = []
    tests: list[Test] = []
    kept: list[Flag] = []
    counted: dict[str, int] = {}
    for item in found:
        if isinstance(item, Candidate):
            candidates.append(item)
        elif item.p_value is not None:
            key = ("flag", item.screen, item.kind, item.agents, item.match)
            tests.append(Test(key, float(item.p_value), 0.0))
            candidates.append(Candidate(item, (key,), item.level))
            counted[item.screen] = max(counted.get(item.screen, 0), int(item.tests or 1))
        else:
            kept.append(item)
    for name, size in sorted(counted.items()):
        mine = sum(1 for c in candidates if c.keys and _flag_key_of(c.keys[0], name))
        tests += [Test(("flag", name, "untested", i), 1.0, 0.0) for i in range(max(0, size - mine))]
    return candidates, tests, kept


def screen_of_test(key: Any) -> str:
    """The screen a test belongs to, from its key: ``ring.pair``, ``ring.cycle`` and ``ring.ring``
    are the ring screen's; a key a plain flag was made into names its screen second; the
    operator screen's feeds are the feeder screen's hypotheses (one key, one hypothesis).  Keys
    that are not tuples name no screen: they are one group.

    >>> screen_of_test(("ring.pair", "a", "b")), screen_of_test(("flag", "fans", "fan_in")), screen_of_test("t1")
    ('ring', 'fans', '')
    """
    if isinstance(key, tuple) and key:
        if key[0] == "flag" and len(key) > 1:
            return str(key[1])
        return str(key[0]).split(".", 1)[0]
    return ""


def calibrate(candidates: Sequence[Candidate], tests: Sequence[Test], config: ScreenConfig,
              view: TransferView | None = None, *, holm_alpha: float | None = None,
              typology_alpha: float = 0.0) -> tuple[list[Flag], dict[str, Any]]:
    """The match-level multiple-testing step.

    The Daishi screens that could reject anything share ``holm_alpha`` (the configuration's
    ``false_alarm_rate`` less the typologies' share, :func:`typology_share`; all of it when not
    given) equally, and each runs Holm's step-down over its own tests at its share (Tarone's
    reduction: a test whose smallest attainable p-value cannot reach the share is left out of
    the count; :func:`~daishi_forensics.screens.stats.adjust_shared`).  A screen that tests few
    candidates (a feeder's spokes, a cartel's blocs) is not outweighed by one that tests every
    trading pair (the round-trip test): the split depends on what the tests condition on, never
    on their outcome, so the family-wise error is still at most the rate.  A candidate whose adjusted p-value is at
    most that level ``x flag_share`` is a ``flag`` (unless it may only be a review), at most
    the level a ``review``; otherwise it is dropped.  With the typologies' share, in an honest
    match the chance of any flag or review is at most ``false_alarm_rate`` and of any flag at
    most ``false_alarm_rate x flag_share``, if the nulls hold.  The feeder's significant feeds and pooled tests
    become one flag per beneficiary (:func:`~daishi_forensics.screens.feeder.hubs`).  Returns the flags and a
    summary.
    """
    alpha = config.false_alarm_rate if holm_alpha is None else holm_alpha
    flag_alpha = alpha * config.flag_share
    adjusted, size, shared = adjust_shared(tests, alpha, screen_of_test)
    flags: list[Flag] = []
    feeds_found: list[Flag] = []
    pooled: list[Flag] = []
    for c in candidates:
        p_adj = max((adjusted.get(k, 1.0) for k in c.keys), default=1.0)
        if p_adj <= flag_alpha and c.most == "flag":
            level: Level = "flag"
        elif p_adj <= alpha:
            level = "review"
        else:
            continue
        flag = replace(c.flag, level=level, p_adjusted=p_adj, tests=size)
        if flag.screen == "feeder" and flag.kind == "one_way_feed" and view is not None:
            feeds_found.append(flag)
        elif flag.screen == "feeder" and flag.details.get("pooled") and view is not None:
            pooled.append(flag)
        else:
            flags.append(flag)
    if view is not None:
        flags += hubs(view, feeds_found, pooled,
                      whole_items=bool(config.screens.get("feeder", {}).get("whole_items", False)))
    flags = [_unusual(f) for f in flags]
    summary = {"method": "the Daishi screens that could reject share the rate equally, each with Holm's step-down "
                         "over its testable tests (Tarone's reduction); each money-laundering typology at its own "
                         "share",
               "falseAlarmRate": config.false_alarm_rate, "holmRate": alpha, "flagRate": flag_alpha,
               "typologyRate": typology_alpha, "tests": len({t.key for t in tests}), "family": size,
               "screensSharing": shared}
    return flags, summary


def _unusual(flag: Flag) -> Flag:
    """The flag with "how unusual, compared with what" added to its explanation."""
    if flag.p_value is None:
        return flag
    return replace(flag, explanation=(
        f"{flag.explanation} Chance under honest play in this match: {describe_p(flag.p_value)}, "
        f"{describe_p(flag.p_adjusted if flag.p_adjusted is not None else flag.p_value)} counting the "
        f"{_tests(flag.tests or 1)} here that could reach the alarm level."))


def _tests(n: int) -> str:
    """``1 test``, ``12 tests``."""
    return f"{n} test" if n == 1 else f"{n} tests"


class Started(Protocol):
    """Work started in another process."""

    def result(self) -> tuple[bool, Any]:
        """``(True, value)`` once the work is done, or ``(False, None)`` if it failed."""

    def cancel(self) -> None:
        """Give up on the work."""


Beside = Callable[[Callable[[], Any]], Started | None]
"""Starts work in another process: ``beside(fn)`` is the work started (:class:`Started`, its
``result()`` then ``(True, fn())``), or None when nothing could be started
(:func:`daishi_forensics.replay.fork.fork` is one)."""

BESIDE_SCREENS: tuple[str, ...] = ("ring",)
"""The screens run in another process when :func:`screen_view` is offered one: on a large match of
few seats the ring screen (round trips, rings and cycles) takes about as long as every other screen
and the typologies together (on a simulated 9-seat match of a million events, about 1.0 s of CPU
against about 1.1 s: the feeder 0.3, off-price 0.45, the typologies 0.35, once the transfer view
both read is built); on 96 seats, 0.4 s against 0.6 s."""

Ran = tuple[list[Any], list[Test], list[str], tuple[PairRow, ...]]
"""One screen's answer: what it found, its tests, its notes, and the pair table (the pair-outlier
screen's, else empty)."""


def _run_one(view: TransferView, name: str | None, screen: str, params: Mapping[str, Any]) -> Ran:
    """One Daishi screen run on ``view`` with ``params``."""
    if screen == "pair_outlier":
        rows = tuple(pair_table(view, name))
        found, tests = pair_outlier(view, params, list(rows))
        return list(found), tests, [], rows
    found_any, tests, notes = _RUNNERS[screen](view, params)
    return found_any, tests, notes, ()


def _run_each(view: TransferView, name: str | None, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, Ran]:
    """Every screen of ``steps`` run here, in their order, by screen."""
    return {screen: _run_one(view, name, screen, params) for screen, params in steps}


def _run_screens(view: TransferView, name: str | None, steps: Sequence[tuple[str, Mapping[str, Any]]],
                 beside: Beside | None, meanwhile: Callable[[], Any] | None = None) -> tuple[dict[str, Ran], Any]:
    """Every screen of ``steps`` run, by screen: with ``beside``, those of :data:`BESIDE_SCREENS`
    in the process it starts while this one runs the rest (when both groups have a screen), and then
    ``meanwhile()`` before it waits for them; if that process cannot start or fails, this one runs them
    after its own.  Each screen is a pure function of the view and its parameters, so where it ran never
    shows in its answer.  Also what ``meanwhile()`` gave, None when no process was started (not called)."""
    away = [step for step in steps if step[0] in BESIDE_SCREENS]
    child = None if beside is None or not away or len(away) == len(steps) else beside(
        partial(_run_each, view, name, away))
    if child is None:
        return _run_each(view, name, steps), None
    try:
        ran = _run_each(view, name, [step for step in steps if step[0] not in BESIDE_SCREENS])
        early = None if meanwhile is None else meanwhile()
    except BaseException:
        child.cancel()
        raise
    done, answer = child.result()
    ran.update(answer if done else _run_each(view, name, away))
    return ran, early


def _run_typologies(view: TransferView, config: ScreenConfig, typologies: Sequence[str],
                    level: float) -> tuple[list[Flag], list[str]]:
    """The money-laundering typologies' flags (each at its level, :func:`_typology_level`) and notes, every
    typology tested at ``level``."""
    kept: list[Flag] = []
    notes: list[str] = []
    for screen in typologies:
        params = {**config.screens[screen], "alpha": level, "net_trades": config.net_trades}
        spotted, more = _TYPOLOGY_RUNNERS[screen](view, params)
        if screen == "scatter_gather" and "fans" in typologies:  # gather-scatter reads the fan boxes
            spotted = spotted + gather_scatter(view, params, {**config.screens["fans"], "alpha": level,
                                                              "net_trades": config.net_trades})
        kept += [_typology_level(f, level, config.flag_share) for f in spotted]
        notes += more
    return kept, notes


def screen_view(view: TransferView, config: ScreenConfig | None = None, *, beside: Beside | None = None) -> ScreenResult:
    """:func:`screen_graph` on a graph already read into a :class:`TransferView`.

    ``beside`` (when given) may run :data:`BESIDE_SCREENS` in another process while this one runs
    the others (:func:`_run_screens`): the same functions on the same view, so the same result."""
    config = config or load_config()
    name = view.graph.graph.get("name")
    name = None if name is None else str(name)
    screened = view.screened_nodes()
    if len(screened) < 2:
        note = (f"not screened: {count(len(screened), 'agent')} to screen; collusion takes two"
                + (f" ({count(len(view.exempt), 'scripted seat')} left out)" if view.exempt else ""))
        missing, observed = _split([note, *(str(n) for n in view.graph.graph.get("not_screened") or ())])
        return ScreenResult("clear", config.version, config.digest, (), missing, observed, name)
    candidates: list[Candidate] = []
    tests: list[Test] = []
    kept: list[Flag] = []
    notes = _notes(view, config)
    typologies: list[str] = []
    plan: list[tuple[str, Mapping[str, Any]] | str] = []
    for screen in SCREENS:
        if screen not in config.screens:
            continue
        if not config.enabled(screen):
            plan.append(f"not screened: {screen} (disabled in the configuration)")
        elif screen in TYPOLOGIES:
            typologies.append(screen)
        elif screen in EXCHANGE_SCREENS and not view.described and view.voluntary:
            plan.append(f"not screened: {screen} (plain payments: no transfer says it was a trade or a gift, "
                        "and a payment is one way by nature)")
        elif screen == "off_price":  # a test that could never pass at the rate need not be worked out
            plan.append((screen, {**config.screens[screen], "alpha": config.false_alarm_rate}))
        else:
            plan.append((screen, config.screens[screen]))

    def level_at(share: float) -> float:  # each typology's level, given their share of the rate
        return config.false_alarm_rate * share / max(1, len(typologies))

    guess = level_at(config.typology_share)  # the share unless no Daishi test can reach the rate
    ran, early = _run_screens(view, name, [step for step in plan if not isinstance(step, str)], beside,
                              partial(_run_typologies, view, config, typologies, guess) if typologies else None)
    table: tuple[PairRow, ...] = ()
    for step in plan:
        if isinstance(step, str):
            notes.append(step)
            continue
        found, more_tests, more, rows = ran[step[0]]
        table = rows or table
        mine, extra_tests, plain = as_candidates(step[0], found)
        candidates += mine
        tests += more_tests + extra_tests
        kept += plain
        notes += more
    share = typology_share(config, tests, typologies)
    level = level_at(share)
    spotted, more = early if early is not None and level == guess else _run_typologies(view, config, typologies,
                                                                                       level)
    kept += spotted
    notes += more
    flags, testing = calibrate(candidates, tests, config, view, holm_alpha=config.false_alarm_rate * (1.0 - share),
                               typology_alpha=level if typologies else 0.0)
    ordered_flags = _sorted_flags(flags + kept)
    counted: dict[str, int] = {}  # the typologies count their own tests (``tests`` counts the Daishi screens')
    for f in kept:
        if f.screen in TYPOLOGIES and f.tests:
            counted[f.kind] = max(counted.get(f.kind, 0), int(f.tests))
    if counted:
        testing = {**testing, "typologyTests": dict(sorted(counted.items()))}
    missing, observations = _split(notes)
    return ScreenResult(verdict_of(ordered_flags), config.version, config.digest, ordered_flags,
                        missing, observations, name, table, testing, tuple(tests))


def _split(notes: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Notes into ("not screened: …", everything else), each in first-seen order, once."""
    missing: dict[str, None] = {}
    other: dict[str, None] = {}
    for n in notes:
        (missing if n.startswith("not screened") else other)[n] = None
    return tuple(missing), tuple(other)


def screen_graph(graph: nx.MultiDiGraph, config: ScreenConfig | Mapping[str, Any] | None = None, *,
                 beside: Beside | None = None) -> ScreenResult:
    """Screen one transfer graph for collusion (the evaluation design's collusion screens).

    Every screen tests its finding against honest play in the same graph and the
    match-level step (:func:`calibrate`) adjusts the p-values over every test of every
    screen: ``flag`` and ``review`` are designed false alarms, at most the configuration's
    ``false_alarm_rate`` of honest matches anything but ``clear``.

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
    beside:
        Optional: starts work in another process (:data:`Beside`); the ring screen then runs
        there while this process runs the others and the typologies (the same result).

    Returns
    -------
    ScreenResult
        ``verdict`` (``clear`` / ``review`` / ``flag``), ``config_version``, ``flags``
        (each with ``screen``, ``kind``, ``level``, ``agents`` as node ids, ``pairs``,
        ``score``, ``threshold``, ``evidence`` event ids, ``explanation``, ``p_value``,
        ``p_adjusted``, ``null`` and ``tests``), ``not_screened`` and ``testing`` (the
        multiple-testing step: method, rates, tests made, the family's size).

    Raises
    ------
    ScreenInputError
        An edge breaks the conventions (no ``event``, a negative ``value``...).

    >>> G = nx.MultiDiGraph()
    >>> for i, spoke in enumerate(["s1"] * 12 + ["s2"] * 12):
    ...     _ = G.add_edge(spoke, "hub", value=10.0, tick=i, event=100 + i, kind="gift")
    >>> result = screen_graph(G)
    >>> result.verdict, [(f.screen, f.agents, f.p_value) for f in result.flags if f.level == "flag"]
    ('flag', [('feeder', ('hub', 's1', 's2'), 0.00048828125)])
    """
    if not isinstance(config, ScreenConfig):
        config = load_config(config)
    view = TransferView(graph, exempt_roles=config.exempt_roles,
                        fair_ratio=float(config.general.get("fair_ratio", 2.0)))
    return screen_view(view, config, beside=beside)


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
