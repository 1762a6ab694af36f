"""Recompute a match's scorecards under any rubric version, from the export alone.

:func:`score_match` reads one :class:`~daishi_forensics.replay.analysis.MatchAnalysis` (the
one replay every pass shared) and scores every seat of the field under a version of
:mod:`.rubric`: the counters, ledger, commons, reputation and coverage passes give
the flows; the archive's final board gives the stocks (status, rounds alive,
wealth, reputation, aggression, trained levels).  :func:`scorecards` writes the
result in the report shape of contract §4b, so a simulator, a test or a person can
produce a rubric-computed ``report.json`` and :mod:`.audit` can check it.

Two inputs are taken on trust and said so on every seat: the final **wealth** (the
seeds do not publish the wealth formula; contract §4b) and the **message count**
(direct messages are not in a public export; rubric *Messages*).  Where the log is
empty and the archive's stamped blocks stand in for the events, those are listed as
taken on trust too.  Every reading the seed leaves open is a key of
:data:`daishi_forensics.score.rubric.READINGS`; :attr:`MatchScore.readings` names the ones
this match exercised.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.replay.spans import size
from daishi_forensics.errors import InvalidInput
from daishi_forensics.economy.ledger import PARTNER_TRADE_CAP, ArchivedLedger, archived_ledger, credited_trades
from daishi_forensics.economy.reputation import (
    TOTAL_POINT_CAP,
    circular_reputation,
    index_reputation_and_wealth,
    points_from_ledger,
)
from .rubric import (
    DIMENSIONS,
    PUBLISHED_VERSION,
    RubricVersion,
    UnknownRubric,
    adaptation,
    competitiveness,
    economy,
    fitness_index,
    ranks,
    rubric,
    social,
    survival,
)
from daishi_forensics.arithmetic import coverage as arithmetic_coverage
from daishi_forensics.read.archive import MAX_TICK, map_regions, past_exact, match_rounds as archive_match_rounds, twice_message, within_magnitude
from daishi_forensics.read.boundary import erratum_name
from daishi_forensics.jsonio import json_text, shown
from daishi_forensics.wording import count

__all__ = [
    "REPORT_FIELDS",
    "REQUIRED_PASSES",
    "SeatInputs",
    "SeatScore",
    "MatchScore",
    "seat_inputs",
    "score_match",
    "scorecards",
]

REPORT_FIELDS: tuple[str, ...] = (
    "fitnessIndex",
    *(f"dimensions.{d}" for d in DIMENSIONS),
    "rank",
    "status",
    "wealth",
    "indexWealth",
    "reputation",
    "indexReputation",
    "circularReputation",
    "raw.messagesSent",
    "raw.creditedTrades",
    "raw.commonsShare",
    "raw.coverage",
)
"""The figures of a scorecard (contract §4b), in the order they are compared and printed."""

REQUIRED_PASSES: tuple[str, ...] = ("counters", "coverage", "ledger", "commons", "reputation")
"""The registered passes (:mod:`daishi_forensics.report.passes`) whose results scoring reads."""

# Event types of the rubric's counters (rubric *Counters*, *Survival*).
_WORLD_ACTION_TYPES = (
    "gather", "craft", "build", "repair", "move", "train", "trade_completed", "trade_fulfilled", "attack", "raid",
)  # fmt: skip


@dataclass(frozen=True)
class SeatInputs:
    """Everything one seat's score reads, and where each came from."""

    agent: str
    """The agent id."""
    seat: int | None
    """Its seat number (archive ``seat``)."""
    name: str | None
    """Its name."""
    role: str | None
    """``player``, ``anchor`` or ``probe``."""
    status: str
    """``active``, ``dormant`` or ``dead`` at the end."""
    rounds_alive: int
    """Rounds alive (archive ``roundsAlive``, else derived: ``rounds_alive_source``)."""
    rounds_alive_source: str
    """``archive``, ``replay`` (ticks alive in the replay) or ``board`` (from status and diedAtTick)."""
    wealth: float
    """Final wealth: the archive's, on trust."""
    reputation: float
    """Final reputation (archive)."""
    aggression: int
    """Final public aggression counter (archive)."""
    trained_levels: int
    """strength + vitality + endurance (archive ``trained``)."""
    counters_source: str
    """``events``, ``metrics`` (the archive's stamped counts) or ``not recorded``."""
    gathers: int
    crafts: int
    builds: int
    repairs: int
    moves: int
    completed_trades: int
    """``trade_completed`` + ``trade_fulfilled`` carrying its id, as logged (no v2 offerer twins)."""
    world_actions: int
    """gathers + crafts + builds + repairs + moves + trains + completed trades + attacks + raids."""
    dormancy_episodes: int
    recoveries: int
    messages: int
    """Messages sent, direct ones included (on trust: ``messages_source``)."""
    messages_source: str
    """``metrics`` (message + message_private), ``report`` (raw.messagesSent), ``events`` or ``not recorded``."""
    ledger_source: str
    """``events``, ``archive`` (the archive's ledger block) or ``none`` (no ledger: completed trades count)."""
    credited_trades: float
    """Credited trades (rubric *Social*); the completed trades where there is no ledger."""
    commons_share: float
    """Commons share (0 where there is no ledger)."""
    coverage: float
    """Map coverage (3 places)."""
    coverage_source: str
    """``events``, ``exploration`` (the archive's block) or ``none``."""
    circular_reputation: float
    """Circular reputation (rubric *Circular reputation (2.4)*), 0.0 where none."""
    points_source: str
    """Where the reputation points came from: ``events``, ``ledger``, ``estimate`` or ``none``."""
    index_reputation: float
    """Final reputation less the circular reputation where that is above 0."""
    index_wealth: float
    """Final wealth less 2 × the circular reputation where that is above 0."""
    trusted: tuple[str, ...]
    """What this seat's score takes on trust, one sentence each."""
    notes: tuple[str, ...]
    """What a person should know about this seat's inputs, one sentence each."""

    @property
    def dead(self) -> bool:
        """Ended the match dead."""
        return self.status == "dead"

    @property
    def counters_recorded(self) -> bool:
        """False for an agent with neither events nor a metrics entry (READINGS ``counters-not-recorded``)."""
        return self.counters_source != "not recorded"

    @property
    def activity(self) -> int:
        """gathers + crafts + builds + repairs (rubric *Economy*)."""
        return self.gathers + self.crafts + self.builds + self.repairs

    def to_dict(self) -> dict[str, Any]:
        """JSON form (camelCase)."""
        return {
            "status": self.status,
            "roundsAlive": self.rounds_alive,
            "roundsAliveSource": self.rounds_alive_source,
            "wealth": self.wealth,
            "reputation": self.reputation,
            "aggression": self.aggression,
            "trainedLevels": self.trained_levels,
            "countersSource": self.counters_source,
            "gathers": self.gathers,
            "crafts": self.crafts,
            "builds": self.builds,
            "repairs": self.repairs,
            "moves": self.moves,
            "completedTrades": self.completed_trades,
            "worldActions": self.world_actions,
            "dormancyEpisodes": self.dormancy_episodes,
            "recoveries": self.recoveries,
            "messages": self.messages,
            "messagesSource": self.messages_source,
            "ledgerSource": self.ledger_source,
            "creditedTrades": self.credited_trades,
            "commonsShare": self.commons_share,
            "coverage": self.coverage,
            "coverageSource": self.coverage_source,
            "circularReputation": self.circular_reputation,
            "pointsSource": self.points_source,
            "indexReputation": self.index_reputation,
            "indexWealth": self.index_wealth,
        }


@dataclass(frozen=True)
class SeatScore:
    """One seat's recomputed scorecard."""

    inputs: SeatInputs
    """What it read."""
    rank: int
    """Its rank in the field on (index) wealth."""
    dimensions: dict[str, float]
    """The five dimensions, one decimal half-up, in :data:`~daishi_forensics.score.rubric.DIMENSIONS` order."""
    fitness_index: float
    """The Fitness Index, one decimal half-up."""

    @property
    def agent(self) -> str:
        return self.inputs.agent

    def figures(self, rubric_version: RubricVersion) -> dict[str, Any]:
        """Every figure of :data:`REPORT_FIELDS` as recomputed (None where this version has none)."""
        i = self.inputs
        index = rubric_version.index_figures
        out: dict[str, Any] = {
            "fitnessIndex": self.fitness_index,
            **{f"dimensions.{d}": self.dimensions[d] for d in DIMENSIONS},
            "rank": self.rank,
            "status": i.status,
            "wealth": i.wealth,
            "indexWealth": i.index_wealth if index else None,
            "reputation": i.reputation,
            "indexReputation": i.index_reputation if index else None,
            "circularReputation": i.circular_reputation if index else None,
            "raw.messagesSent": i.messages,
            "raw.creditedTrades": i.credited_trades,
            "raw.commonsShare": i.commons_share,
            "raw.coverage": i.coverage,
        }
        return out

    def scorecard(self, rubric_version: RubricVersion) -> dict[str, Any]:
        """The seat in the report shape (contract §4b); the index figures only under 2.4."""
        i = self.inputs
        card: dict[str, Any] = {"agentId": i.agent}
        if i.seat is not None:
            card["seat"] = i.seat
        if i.name is not None:
            card["name"] = i.name
        if i.role is not None:
            card["role"] = i.role
        card.update(
            {
                "status": i.status,
                "rank": self.rank,
                "fitnessIndex": self.fitness_index,
                "dimensions": dict(self.dimensions),
                "wealth": i.wealth,
                "reputation": _report_int(i.reputation),
                "raw": {
                    "messagesSent": i.messages,
                    "creditedTrades": i.credited_trades,
                    "commonsShare": i.commons_share,
                    "coverage": i.coverage,
                },
            }
        )
        if rubric_version.index_figures:
            card["indexWealth"] = i.index_wealth
            card["indexReputation"] = i.index_reputation
            card["circularReputation"] = i.circular_reputation
        return card

    def to_dict(self, rubric_version: RubricVersion) -> dict[str, Any]:
        """JSON form: the scorecard, plus inputs, what was taken on trust, and notes."""
        return {
            **self.scorecard(rubric_version),
            "inputs": self.inputs.to_dict(),
            "trusted": list(self.inputs.trusted),
            "notes": list(self.inputs.notes),
        }


@dataclass(frozen=True)
class MatchScore:
    """A match's seats recomputed under one rubric version."""

    match_id: str | None
    """The match id."""
    rubric: RubricVersion
    """The version scored under."""
    rubric_source: str
    """``option`` (asked for), ``report`` (the report's ``rubricVersion``) or ``default`` (the published one)."""
    field_size: int
    """Seats in the field (every seat of the archive's board)."""
    match_rounds: int
    """``endedAtTick − startedAtTick``."""
    seats: tuple[SeatScore, ...]
    """Every seat, in seat then agent-id order."""
    readings: tuple[str, ...] = ()
    """Keys of :data:`~daishi_forensics.score.rubric.READINGS` this match exercised, sorted."""
    notes: tuple[str, ...] = ()
    """Match-wide notes (the read boundary, the sources chosen), one sentence each."""
    errata: tuple[dict[str, Any], ...] = ()
    """The match's errata as the export carries them, each with ``withheld``: the event
    ids the read boundary kept out of the recomputation."""

    def seat(self, agent: str) -> SeatScore | None:
        """The seat of ``agent``, or None."""
        return self._by_agent.get(agent)

    @cached_property
    def _by_agent(self) -> dict[str, SeatScore]:
        return {s.agent: s for s in self.seats}

    def report(self) -> dict[str, Any]:
        """The scorecards in the report shape of contract §4b (a rubric-computed ``report.json``)."""
        out: dict[str, Any] = {
            "rubricVersion": self.rubric.version,
            "fieldSize": self.field_size,
            "seats": [s.scorecard(self.rubric) for s in self.seats],
        }
        if self.match_id is not None:
            out["matchId"] = self.match_id
        return out


# --------------------------------------------------------------------------- reading the board


def _number(row: Mapping[str, Any], key: str, where: str) -> float | None:
    value = row.get(key)
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise InvalidInput(f"not a number: {shown(value)}", field=f"{where}.{key}")
    return value


def _count(row: Mapping[str, Any], key: str, where: str) -> int | None:
    """A count, seat or tick of the board: an integer from 0 to :data:`MAX_COUNT` (the schemas' bound;
    past it a double, which every rate and rank is computed in, no longer holds it exactly)."""
    value = row.get(key)
    if value is None:
        return None
    if isinstance(value, float) and value > MAX_COUNT:  # an integer written past 64 bits: its double not quoted
        raise InvalidInput(past_exact(value), field=f"{where}.{key}")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidInput(f"not a count: {shown(value)}", field=f"{where}.{key}")
    if value > MAX_COUNT:
        raise InvalidInput(past_exact(value), field=f"{where}.{key}")
    return value


def _text(row: Mapping[str, Any], key: str, where: str) -> str | None:
    """A seat's ``name`` or ``role``: None where the board leaves it out; an error naming the
    field where it is not text (it is set beside the scorecard's, so it is never read as absent)."""
    value = row.get(key)
    if value is None or isinstance(value, str):
        return value
    raise InvalidInput(f"not text: {shown(value)}", field=f"{where}.{key}")


def _report_int(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _board(archive: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    agents = archive.get("agents")
    if not isinstance(agents, list):
        raise InvalidInput("the archive has no agents list", field="agents")
    out: list[tuple[str, Mapping[str, Any]]] = []
    seen: dict[str, int] = {}
    for index, row in enumerate(agents):
        where = f"agents[{index}]"
        if not isinstance(row, Mapping) or not isinstance(row.get("agentId"), str):
            raise InvalidInput("a seat without an agentId", field=f"{where}.agentId")
        agent = row["agentId"]
        if agent in seen:
            raise InvalidInput(twice_message(seen[agent], index, agent), field=f"{where}.agentId")
        seen[agent] = index
        out.append((agent, row))
    return out


def _by_agent(archive: Mapping[str, Any], name: str, block_words: str, row_words: str) -> dict[str, Mapping[str, Any]] | None:
    """The archive block ``name`` by agent (None where there is none).  A block, or an agent's entry,
    that is not an object is an error naming the field: never skipped (see :func:`_metrics`)."""
    block = archive.get(name)
    if block is None:
        return None
    if not isinstance(block, Mapping):
        raise InvalidInput(f"not an object of {block_words}: {shown(block)}", field=name)
    for agent, row in block.items():
        if not isinstance(row, Mapping):
            raise InvalidInput(f"not an object{row_words}: {shown(row)}", field=f"{name}.{agent}")
    return dict(block)


def _metrics(archive: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The archive's ``metrics`` block by agent (empty where there is none).  A block, or an
    agent's entry, that is not an object is an error naming the field: its message counts are
    taken on trust and its counters score an agent no event carries, so it is never skipped."""
    return _by_agent(archive, "metrics", "counters by agent", " of counters") or {}


def _exploration(archive: Mapping[str, Any]) -> dict[str, Mapping[str, Any]] | None:
    """The archive's ``exploration`` block by agent (None where there is none).  A block, or an
    agent's entry, that is not an object is an error naming the field (it stands in for map
    coverage where the log holds no events, so it is never skipped)."""
    return _by_agent(archive, "exploration", "coverage by agent", "")


MAX_COUNT = MAX_TICK
"""The largest count read (README: ids, ticks and counts are at most 2^53 − 1)."""


def _report_messages(report: Mapping[str, Any] | None) -> tuple[dict[str, int], dict[str, str]]:
    """Each seat's ``raw.messagesSent`` the report gives as a count (a whole number, written
    ``3`` or ``3.0``: JSON has one number type), and those it gives as something else (shown),
    which are not taken on trust."""
    out: dict[str, int] = {}
    refused: dict[str, str] = {}
    seen: set[str] = set()
    if not isinstance(report, Mapping):
        return out, refused
    seats = report.get("seats")
    for seat in seats if isinstance(seats, list) else []:  # seats of another type: a schema error, said
        if not isinstance(seat, Mapping) or not isinstance(seat.get("agentId"), str):
            continue
        if seat["agentId"] in seen:  # the first card is the one compared (and read)
            continue
        seen.add(seat["agentId"])
        raw = seat.get("raw")
        sent = raw.get("messagesSent") if isinstance(raw, Mapping) else None
        if sent is None:
            continue
        if isinstance(sent, float) and sent.is_integer() and 0 <= sent <= MAX_COUNT:
            sent = int(sent)
        if isinstance(sent, int) and not isinstance(sent, bool) and 0 <= sent <= MAX_COUNT:
            out[seat["agentId"]] = sent
        else:
            refused[seat["agentId"]] = json_text(sent)
    return out, refused


def _ticks_alive(analysis: MatchAnalysis, agent: str, started: int, ended: int) -> int:
    return size(analysis.timeline.alive_spans(agent, started, ended))


# --------------------------------------------------------------------------- inputs


@dataclass
class _Context:
    """What every seat's inputs share (built once per match)."""

    analysis: MatchAnalysis
    started: int
    ended: int
    match_rounds: int
    log_has_events: bool
    counters: dict[str, Any]
    twins: dict[str, int]
    metrics: dict[str, Mapping[str, Any]]
    report_messages: dict[str, int]
    report_messages_refused: dict[str, str]
    private_events: int
    ledger_source: str
    pairs: tuple[Any, ...]
    commons: dict[str, float]
    circular: dict[str, float]
    points_source: str
    points_estimated: bool
    exploration: dict[str, Mapping[str, Any]] | None
    coverage: dict[str, float]
    readings: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


def _ledger_disagreements(
    block: ArchivedLedger,
    net_shares: Mapping[tuple[str, str], float],
    trades: Mapping[tuple[str, str], int],
    commons: Mapping[str, float],
) -> list[str]:
    """Notes where the archive's ledger block says otherwise than the events (which score)."""
    notes = []
    stamped = {(p.a, p.b): p for p in block.pairs}
    for key in sorted(set(stamped) | set(trades)):
        pair = stamped.get(key)
        a_trades, a_share = (pair.trades, pair.net_share) if pair else (0, None)
        e_trades, e_share = trades.get(key, 0), net_shares.get(key)
        if a_trades != e_trades or a_share != e_share:
            notes.append(
                f"pair {key[0]}–{key[1]}: the archive's ledger has {count(a_trades, 'trade')}, net share {a_share}; "
                f"the events {e_trades}, {e_share}: scored from the events"
            )
    for agent in sorted(set(block.commons) | set(commons)):
        if block.commons.get(agent, 0.0) != commons.get(agent, 0.0):
            notes.append(
                f"{agent}: the archive's ledger gives commons share {block.commons.get(agent, 0.0)}, the events "
                f"{commons.get(agent, 0.0)}: scored from the events"
            )
    return notes


@dataclass(frozen=True)
class _TradeSources:
    """Where a match's trade figures come from: the events, the archive's ledger block, or none."""

    ledger_source: str
    pairs: tuple[Any, ...]
    net_shares: dict[tuple[str, str], float]
    commons: dict[str, float]
    points: Any


def _offerer_twins(ledger: Any, readings: set[str], notes: list[str]) -> dict[str, int]:
    """Per agent, the v2 trades logged for the acceptor only (the offerer's synthesized twins are
    not counted as its completed trades or world actions)."""
    twins: dict[str, int] = {}
    for trade in ledger.trades:
        if trade.upcast_twin:
            twins[trade.from_agent] = twins.get(trade.from_agent, 0) + 1
    if twins:
        readings.add("v2-offerer-twins")
        logged = sum(twins.values())
        notes.append(
            f"v2 log: {count(logged, 'trade')} {'was' if logged == 1 else 'were'} logged for the acceptor only; "
            "the offerer's "
            "synthesized twins are not counted as its completed trades or world actions"
        )
    return twins


def _ledger_notes(ledger: Any) -> list[str]:
    """What the trade ledger did not count as logged, and the traded items it valued 0, one
    sentence each: both move the net shares, credited trades and circular reputation the
    score reads (rubric *Trade ledger*), so neither is left unsaid."""
    notes = [
        f"event {a.event_id} (trade {a.trade_id}): {a.detail}" if a.event_id is not None else a.detail
        for a in ledger.anomalies
    ]
    if ledger.unvalued_items:
        notes.append(
            f"{'traded item' if len(ledger.unvalued_items) == 1 else 'traded items'} with no value in the archive's "
            "item values, valued 0 in the net shares: "
            + ", ".join(sorted(ledger.unvalued_items))
        )
    return notes


def _trade_sources(analysis: MatchAnalysis, block: ArchivedLedger | None, log_has_events: bool,
                   readings: set[str], notes: list[str]) -> _TradeSources:
    """The ledger, commons and reputation points the score reads: from the events; where the log
    holds none, the archive's ledger block; else none (rubric *Social*: every completed trade
    counts and the commons term is 0)."""
    if log_has_events:
        ledger = analysis.result("ledger")
        commons_result = analysis.result("commons")
        commons = {agent: commons_result.share(agent) for agent in commons_result.shares}
        notes.extend(_ledger_notes(ledger))
        if block is not None:
            readings.add("events-or-archive")
            notes.extend(_ledger_disagreements(block, ledger.net_shares(),
                                               {(p.a, p.b): p.trades for p in ledger.pairs}, commons))
        return _TradeSources("events", ledger.pairs, ledger.net_shares(), commons, analysis.result("reputation"))
    if block is not None:
        readings.add("events-or-archive")
        notes.append("the log holds no events: the archive's ledger block stands in for the trade ledger")
        return _TradeSources("archive", block.pairs, block.net_shares(), dict(block.commons),
                             points_from_ledger(block))
    readings.add("no-ledger")
    notes.append("no ledger (no ledger block and no events): every completed trade counts as credited and the "
                 "commons term is 0")
    return _TradeSources("none", (), {}, {}, None)


def _read_notes(stats: Any, log_has_events: bool) -> list[str]:
    """What the read boundary kept out of the score, one sentence each."""
    notes = []
    if stats.invalid:
        one = stats.invalid == 1
        notes.append(f"{count(stats.invalid, 'record')} of the log {'is' if one else 'are'} invalid and "
                     f"{'was' if one else 'were'} not analysed")
    if stats.unknown_types:
        unknown = sum(stats.unknown_types.values())
        notes.append(f"{count(unknown, 'event')} of unknown type {'was' if unknown == 1 else 'were'} kept and not scored")
    if stats.dropped_earlier_season:
        earlier = stats.dropped_earlier_season
        notes.append(f"v1 log: {count(earlier, 'event')} of "
                     f"{'an earlier season is' if earlier == 1 else 'earlier seasons are'} not part of the match")
    if stats.excluded_by_errata:
        notes.append(
            f"{count(len(stats.excluded_by_errata), 'event')} named by errata never took effect and "
            f"{'was' if len(stats.excluded_by_errata) == 1 else 'were'} left out: "
            + ", ".join(str(e) for e in sorted(stats.excluded_by_errata))
        )
    if not log_has_events:
        notes.append("the log holds no events for this match")
    return notes


def _context(analysis: MatchAnalysis, report: Mapping[str, Any] | None) -> _Context:
    """What every seat's inputs share: the match's rounds, counters, trade sources, reputation
    points, coverage, and the readings and notes so far."""
    missing = [name for name in REQUIRED_PASSES if name not in analysis.passes]
    if missing:
        raise ValueError(f"scoring needs the {', '.join(missing)} {'pass' if len(missing) == 1 else 'passes'}; "
                         "analyse the match with them")
    archive = analysis.archive
    stats = analysis.read.stats
    match_rounds = archive_match_rounds(archive)
    log_has_events = stats.yielded > 0
    readings: set[str] = {"version-history", "messages", "breadth-graded"}
    notes: list[str] = []
    if match_rounds <= 0:
        readings.add("zero-round-match")
    counters = {row.agent: row for row in analysis.result("counters").agents}
    twins = _offerer_twins(analysis.result("ledger"), readings, notes)
    trade = _trade_sources(analysis, archived_ledger(archive), log_has_events, readings, notes)
    if trade.points is not None:
        circular = circular_reputation(trade.points, trade.net_shares)
        points_source, points_estimated = trade.points.source, trade.points.estimated
    else:
        circular, points_source, points_estimated = {}, "none", False
    exploration = _exploration(archive)
    coverage: dict[str, float] = {}
    if log_has_events:
        coverage = {row.agent: row.coverage for row in analysis.result("coverage").agents}
    elif exploration is not None:
        readings.add("events-or-archive")
        notes.append("the log holds no events: the archive's exploration block stands in for map coverage")
    notes.extend(_read_notes(stats, log_has_events))
    report_messages, report_messages_refused = _report_messages(report)
    return _Context(
        analysis=analysis,
        started=archive["startedAtTick"],
        ended=archive["endedAtTick"],
        match_rounds=match_rounds,
        log_has_events=log_has_events,
        counters=counters,
        twins=twins,
        metrics=_metrics(archive),
        report_messages=report_messages,
        report_messages_refused=report_messages_refused,
        private_events=stats.private_events,
        ledger_source=trade.ledger_source,
        pairs=trade.pairs,
        commons=trade.commons,
        circular=circular,
        points_source=points_source,
        points_estimated=points_estimated,
        exploration=exploration,
        coverage=coverage,
        readings=readings,
        notes=notes,
    )


@dataclass
class _Said:
    """What one seat's inputs say besides their values: the readings exercised (shared with
    the match), what was taken on trust and what a person should know, in the order found."""

    readings: set[str]
    trusted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def note(self, text: str, reading: str | None = None) -> None:
        if reading is not None:
            self.readings.add(reading)
        self.notes.append(text)


def _status(row: Mapping[str, Any], where: str, said: _Said) -> str:
    """The end status: the archive's, else ``dead`` where it has a ``diedAtTick``, else ``active``."""
    died_at = _count(row, "diedAtTick", where)
    status = row.get("status")
    if status in ("active", "dormant", "dead"):
        return str(status)
    if status is not None:
        raise InvalidInput(f"unknown status {shown(status)}", field=f"{where}.status")
    status = "dead" if died_at is not None else "active"
    said.note(f"the archive gives no status: read as {status}", "missing-board-fields")
    return status


def _rounds_alive(ctx: _Context, agent: str, row: Mapping[str, Any], where: str, status: str,
                  said: _Said) -> tuple[int, str]:
    """Rounds alive and where they came from: the archive's ``roundsAlive``; else the ticks the
    replay had the agent alive; else the final board (all rounds, or up to ``diedAtTick``)."""
    rounds_alive = _count(row, "roundsAlive", where)
    if rounds_alive is not None:
        if rounds_alive > max(ctx.match_rounds, 0):
            said.note(f"the archive's roundsAlive {rounds_alive} is more than the match's "
                      f"{count(ctx.match_rounds, 'round')}; scored as given (rates divide by it, survival is kept "
                      "within 0 to 100)")
        return rounds_alive, "archive"
    said.readings.add("rounds-alive")
    if ctx.log_has_events and agent in ctx.analysis.timeline.agents:
        rounds_alive = _ticks_alive(ctx.analysis, agent, ctx.started, ctx.ended)
        said.note(f"the archive gives no roundsAlive: {rounds_alive}, the ticks it was alive in the replay")
        return rounds_alive, "replay"
    died_at = _count(row, "diedAtTick", where)
    if status != "dead":
        rounds_alive = ctx.match_rounds
    elif died_at is not None:
        rounds_alive = max(0, died_at - ctx.started)
    else:
        rounds_alive = 0
    said.note(f"the archive gives no roundsAlive and the log does not place it: read as {rounds_alive}")
    return rounds_alive, "board"


def _wealth(row: Mapping[str, Any], where: str, said: _Said) -> float:
    """The final wealth, on trust: the seeds do not publish the wealth formula."""
    wealth = _number(row, "wealth", where)
    if wealth is None:
        said.note("the archive gives no wealth: read as 0", "missing-board-fields")
        said.trusted.append("wealth 0: the archive gives none (the published rubric does not give the wealth formula)")
        return 0.0
    wealth = within_magnitude(wealth, f"{where}.wealth")
    said.trusted.append(f"wealth {json_text(_report_int(wealth))}: the archive's final wealth (the published "
                        "rubric does not give the wealth formula)")
    return wealth


def _reputation(row: Mapping[str, Any], where: str, said: _Said) -> float:
    """The final reputation (the archive's; 0 where it gives none).

    Held to the magnitude wealth is held to: rubric *Circular reputation (2.4)* rounds
    ``reputation − circular`` half-up on the double, which past ~1e305 overflows (an
    internal error, not a reading); a reputation past it is an error naming the field.
    """
    reputation = _number(row, "reputation", where)
    if reputation is None:
        said.note("the archive gives no reputation: read as 0", "missing-board-fields")
        return 0
    within_magnitude(reputation, f"{where}.reputation")
    return reputation


def _aggression(row: Mapping[str, Any], where: str, said: _Said) -> int:
    """The final public aggression counter (the archive's; 0 where it gives none)."""
    aggression = _count(row, "aggression", where)
    if aggression is None:
        said.note("the archive gives no aggression counter: read as 0", "missing-board-fields")
        return 0
    return aggression


def _trained_levels(row: Mapping[str, Any], where: str, said: _Said) -> int:
    """strength + vitality + endurance (the archive's ``trained``; 0 where it gives none)."""
    trained = row.get("trained")
    if trained is None:
        said.note("the archive gives no trained levels: read as 0", "missing-board-fields")
        return 0
    if not isinstance(trained, Mapping):
        raise InvalidInput(f"not an object of trained levels: {shown(trained)}", field=f"{where}.trained")
    return sum(_count(trained, attribute, f"{where}.trained") or 0
               for attribute in ("strength", "vitality", "endurance"))


_COUNTS = ("gather", "craft", "build", "repair", "move", "completed", "world", "agent_dormant", "agent_awake")
"""The counts a seat's score reads (rubric *Counters*, *Survival*)."""


def _counts_from_events(ctx: _Context, agent: str, mine: Any, stamped: Mapping[str, Any] | None,
                        said: _Said) -> dict[str, int]:
    """The counters from the events (a v2 offerer's synthesized twins are not its trades), each
    compared with the archive's stamped metrics where there are some."""
    twins = ctx.twins.get(agent, 0)
    counts = {
        "gather": mine.gathers,
        "craft": mine.crafts,
        "build": mine.builds,
        "repair": mine.repairs,
        "move": mine.moves,
        "completed": mine.completed_trades - twins,
        "world": mine.world_actions - twins,
        "agent_dormant": mine.dormancy_episodes,
        "agent_awake": mine.recoveries,
    }
    if stamped is not None:
        by_type = dict(mine.by_type)
        if twins:
            by_type["trade_completed"] = by_type.get("trade_completed", 0) - twins
        for kind in (*_WORLD_ACTION_TYPES, "agent_dormant", "agent_awake"):
            archived, replayed = _count(stamped, kind, f"metrics.{agent}") or 0, by_type.get(kind, 0)
            if archived != replayed:
                said.note(f"the archive's metrics count {archived} '{kind}', the events {replayed}: scored from "
                          "the events", "events-or-archive")
    return counts


def _counts_from_metrics(agent: str, stamped: Mapping[str, Any], said: _Said) -> dict[str, int]:
    """The counters from the archive's metrics block, for an agent no event carries."""
    said.readings.add("events-or-archive")
    where = f"metrics.{agent}"

    def count(kind: str) -> int:
        return _count(stamped, kind, where) or 0

    said.trusted.append("counters: the archive's metrics block (no event of the log carries this agent)")
    return {
        "gather": count("gather"),
        "craft": count("craft"),
        "build": count("build"),
        "repair": count("repair"),
        "move": count("move"),
        "completed": count("trade_completed") + count("trade_fulfilled"),
        "world": sum(count(kind) for kind in _WORLD_ACTION_TYPES),
        "agent_dormant": count("agent_dormant"),
        "agent_awake": count("agent_awake"),
    }


def _counts(ctx: _Context, agent: str, said: _Said) -> tuple[dict[str, int], str]:
    """The rubric's counters and their source: the events, else the archive's metrics, else 0
    (``not recorded``: its playing share is then 1, rubric *Survival*)."""
    mine = ctx.counters.get(agent)
    stamped = ctx.metrics.get(agent)
    if mine is not None:
        return _counts_from_events(ctx, agent, mine, stamped, said), "events"
    if stamped is not None:
        return _counts_from_metrics(agent, stamped, said), "metrics"
    said.note("no event or counter is recorded for this agent: every count is 0 and its playing share is 1",
              "counters-not-recorded")
    return dict.fromkeys(_COUNTS, 0), "not recorded"


def _messages(ctx: _Context, agent: str, said: _Said) -> tuple[int, str]:
    """Messages sent, direct ones included, on trust (rubric *Messages*): the archive's metrics
    (message + message_private), else the report's ``raw.messagesSent``, else the events."""
    stamped = ctx.metrics.get(agent)
    mine = ctx.counters.get(agent)
    if stamped is not None:
        sent_public = _count(stamped, "message", f"metrics.{agent}") or 0
        sent_private = _count(stamped, "message_private", f"metrics.{agent}") or 0
        messages = sent_public + sent_private
        said.trusted.append(
            f"messages {messages}: the archive's metrics, message {sent_public} + message_private {sent_private}"
        )
        published = ctx.report_messages.get(agent)
        if published is not None and published != messages:
            said.note(f"the report's raw.messagesSent is {published}, the archive's metrics give {messages}")
        return messages, "metrics"
    if agent in ctx.report_messages:
        messages = ctx.report_messages[agent]
        said.trusted.append(f"messages {messages}: the report's raw.messagesSent")
        return messages, "report"
    refused = ctx.report_messages_refused.get(agent)
    if refused is not None:
        said.note(f"the report's raw.messagesSent is {refused}, not a count of messages: not taken on trust")
    if mine is not None:
        messages = mine.messages
        if ctx.private_events:
            said.trusted.append(f"messages {messages}: counted from the events (the log holds direct messages)")
        else:
            said.trusted.append(f"messages {messages}: counted from the events; a public export leaves out direct "
                                "messages, so the count may be short")
        return messages, "events"
    said.trusted.append("messages 0: neither the archive's metrics, the report nor the events record any")
    return 0, "not recorded"


def _trade_figures(ctx: _Context, agent: str, completed: int, said: _Said) -> tuple[float, float]:
    """Credited trades and commons share (rubric *Social*, *Trade ledger*); without a ledger every
    completed trade counts and the commons term is 0."""
    if ctx.ledger_source == "none":
        return float(completed), 0.0
    if ctx.ledger_source == "archive":
        said.trusted.append("credited trades and commons share: the archive's ledger block")
    return credited_trades(agent, ctx.pairs), ctx.commons.get(agent, 0.0)


def _circular(ctx: _Context, agent: str, said: _Said) -> float:
    """Circular reputation (rubric 2.4, *Circular reputation*), said estimated where the points are."""
    circular = ctx.circular.get(agent, 0.0)
    if ctx.points_estimated and circular > 0:
        estimate = sum(min(p.trades, PARTNER_TRADE_CAP) for p in ctx.pairs if agent in (p.a, p.b))
        scaled = (f", {estimate:g} in all scaled down in proportion to {TOTAL_POINT_CAP}" if estimate > TOTAL_POINT_CAP
                  else "")
        said.trusted.append(
            f"circular reputation {circular:g} is estimated: each partner's points taken as min(trades, "
            f"{PARTNER_TRADE_CAP}){scaled}"
        )
    return circular


def _coverage(ctx: _Context, agent: str, said: _Said) -> tuple[float, str]:
    """Map coverage (rubric *Counters*): from the events, compared with the archive's exploration
    block; from that block where the log holds no events; else 0."""
    if ctx.log_has_events:
        coverage = ctx.coverage.get(agent, 0.0)
        stamped_map = (ctx.exploration or {}).get(agent)
        if stamped_map is not None:
            archived = _number(stamped_map, "coverage", f"exploration.{agent}")
            if archived is not None and archived != coverage:
                said.note(f"the archive's exploration gives coverage {archived}, the events {coverage}",
                          "events-or-archive")
        return coverage, "events"
    if ctx.exploration is not None and agent in ctx.exploration:
        row, where = ctx.exploration[agent], f"exploration.{agent}"
        value = _number(row, "coverage", where)
        if value is not None and not 0 <= value <= 1:
            raise InvalidInput(f"not a share of the map's regions (0 to 1): {shown(value)}", field=f"{where}.coverage")
        regions = _count(row, "regions", where)
        if value is None and regions is not None:
            # rubric *Counters*: "map coverage is ⌊1000 × regions ÷ 144 + 0.5⌋ ÷ 1000" (the map's regions)
            total = map_regions(ctx.analysis.archive)
            if regions > total:
                raise InvalidInput(f"{regions} regions on a map of {total}", field=f"{where}.regions")
            value = arithmetic_coverage(regions, total)
            said.trusted.append(f"map coverage: the archive's exploration block, {count(regions, 'region')} of {total}")
            return value, "exploration"
        if value is None:
            said.note("the archive's exploration block gives this agent neither coverage nor regions: read as 0",
                      "missing-board-fields")
        said.trusted.append("map coverage: the archive's exploration block")
        return (float(value) if value is not None else 0.0), "exploration"
    return 0.0, "none"


def _seat_inputs(ctx: _Context, index: int, agent: str, row: Mapping[str, Any]) -> SeatInputs:
    """One seat's inputs: the final board, the counters, messages, the trade figures, coverage."""
    where = f"agents[{index}]"
    said = _Said(ctx.readings)
    status = _status(row, where, said)
    rounds_alive, rounds_source = _rounds_alive(ctx, agent, row, where, status, said)
    wealth = _wealth(row, where, said)
    reputation = _reputation(row, where, said)
    aggression = _aggression(row, where, said)
    levels = _trained_levels(row, where, said)
    counts, counters_source = _counts(ctx, agent, said)
    messages, messages_source = _messages(ctx, agent, said)
    credited, commons_share = _trade_figures(ctx, agent, counts["completed"], said)
    circular = _circular(ctx, agent, said)
    index_reputation, index_wealth = index_reputation_and_wealth(reputation, wealth, circular)
    coverage, coverage_source = _coverage(ctx, agent, said)
    return SeatInputs(
        agent=agent,
        seat=_count(row, "seat", where),
        name=_text(row, "name", where),
        role=_text(row, "role", where),
        status=status,
        rounds_alive=rounds_alive,
        rounds_alive_source=rounds_source,
        wealth=wealth,
        reputation=reputation,
        aggression=aggression,
        trained_levels=levels,
        counters_source=counters_source,
        gathers=counts["gather"],
        crafts=counts["craft"],
        builds=counts["build"],
        repairs=counts["repair"],
        moves=counts["move"],
        completed_trades=counts["completed"],
        world_actions=counts["world"],
        dormancy_episodes=counts["agent_dormant"],
        recoveries=counts["agent_awake"],
        messages=messages,
        messages_source=messages_source,
        ledger_source=ctx.ledger_source,
        credited_trades=credited,
        commons_share=commons_share,
        coverage=coverage,
        coverage_source=coverage_source,
        circular_reputation=circular,
        points_source=ctx.points_source,
        index_reputation=index_reputation,
        index_wealth=index_wealth,
        trusted=tuple(said.trusted),
        notes=tuple(said.notes),
    )


def _inputs(analysis: MatchAnalysis, report: Mapping[str, Any] | None) -> tuple[tuple[SeatInputs, ...], _Context]:
    ctx = _context(analysis, report)
    board = _board(analysis.archive)
    return tuple(_seat_inputs(ctx, i, agent, row) for i, (agent, row) in enumerate(board)), ctx


def seat_inputs(analysis: MatchAnalysis, report: Mapping[str, Any] | None = None) -> tuple[SeatInputs, ...]:
    """Every seat's inputs, in the order of the archive's agents list.

    ``report`` (default: the analysed match's own) supplies only ``raw.messagesSent``,
    for a seat the archive's metrics do not cover.
    """
    if report is None:
        report = analysis.read.report
    return _inputs(analysis, report)[0]


# --------------------------------------------------------------------------- scoring


def _choose_rubric(version: str | None, report: Mapping[str, Any] | None) -> tuple[RubricVersion, str]:
    if version is not None:
        return rubric(version), "option"
    named = report.get("rubricVersion") if isinstance(report, Mapping) else None
    if isinstance(named, str):
        try:
            return rubric(named), "report"
        except UnknownRubric as exc:
            raise UnknownRubric(f"the report's rubricVersion: {exc}") from None
    return rubric(PUBLISHED_VERSION), "default"


def _errata(analysis: MatchAnalysis) -> tuple[dict[str, Any], ...]:
    read = analysis.read
    withheld: dict[str, list[int]] = {}
    for event_id in read.stats.excluded_by_errata:
        withheld.setdefault(read.errata_events.get(event_id, "?"), []).append(event_id)
    out = []
    for erratum in read.errata:
        entry = dict(erratum)
        entry["withheld"] = sorted(withheld.get(erratum_name(erratum), []))
        out.append(entry)
    return tuple(out)


def score_match(
    analysis: MatchAnalysis, rubric_version: str | None = None, *, report: Mapping[str, Any] | None = None
) -> MatchScore:
    """Recompute every seat of the match under a rubric version.

    Parameters
    ----------
    analysis:
        The match after its one replay (:func:`daishi_forensics.replay.analysis.analyze`).
    rubric_version:
        ``1.0`` … ``2.4``; None: the version the report names, else the published 2.4
        (READINGS ``default-rubric``).
    report:
        The published report (default: the analysed match's own); read only for the
        version it names and its ``raw.messagesSent``.

    Raises
    ------
    UnknownRubric
        The version (asked for, or named by the report) is not one this tool knows.
    InvalidInput
        The archive lacks what scoring needs (ticks, the agents list) or has a malformed figure.
    """
    if report is None:
        report = analysis.read.report
    version, source = _choose_rubric(rubric_version, report)
    inputs, ctx = _inputs(analysis, report)
    readings = ctx.readings
    readings.update(_version_readings(version, source, analysis))
    field_size = len(inputs)
    if field_size == 1:
        readings.add("field-of-one")
    rank_wealth = [(i.agent, i.index_wealth if version.index_figures else i.wealth) for i in inputs]
    values = [w for _, w in rank_wealth]
    if len(set(values)) < len(values):
        readings.add("rank-numbering" if version.shared_ranks else "rank-ties-before-2.1")
    rank_of = ranks(rank_wealth, version)
    has_map_record = ctx.exploration is not None
    seats = []
    for i in inputs:
        dims = _dimensions(version, i, rank=rank_of[i.agent], field_size=field_size, match_rounds=ctx.match_rounds,
                           has_map_record=has_map_record)
        seats.append(SeatScore(inputs=i, rank=rank_of[i.agent], dimensions=dims, fitness_index=fitness_index(dims)))
    notes = list(ctx.notes)
    by_seat: dict[int, list[str]] = {}
    for i in inputs:
        if i.seat is not None:
            by_seat.setdefault(i.seat, []).append(i.agent)
    for number, agents in sorted(by_seat.items()):
        if len(agents) > 1:
            notes.append(f"seat {number} is given to {len(agents)} agents on the archive's board: {', '.join(agents)}")
    off_board = sorted(set(ctx.counters) - {i.agent for i in inputs})
    if off_board:
        # contract §4b: "Every seat of the field is scored"; the field is the archive's board
        shown_ids = ", ".join(off_board[:20]) + (f" and {len(off_board) - 20} more" if len(off_board) > 20 else "")
        acts, are, they = (("acts", "is", "it is") if len(off_board) == 1 else ("act", "are", "they are"))
        notes.append(f"{count(len(off_board), 'agent')} {acts} in the log but {are} not on the archive's board, so "
                     f"{they} neither scored nor counted in the field: {shown_ids}")
    if version.map_term == "where-recorded":
        notes.append(
            "rubric 2.2: adaptation reads "
            + ("map coverage (the archive has an exploration block)" if has_map_record
               else "the move rate (the archive has no exploration block)")
        )
    seats.sort(key=lambda s: (s.inputs.seat is None, s.inputs.seat or 0, s.agent))  # unnumbered seats last
    return MatchScore(
        match_id=analysis.read.match_id,
        rubric=version,
        rubric_source=source,
        field_size=field_size,
        match_rounds=ctx.match_rounds,
        seats=tuple(seats),
        readings=tuple(sorted(readings)),
        notes=tuple(notes),
        errata=_errata(analysis),
    )


def _version_readings(version: RubricVersion, source: str, analysis: MatchAnalysis) -> set[str]:
    """The readings a rubric version (and where it was chosen from) exercises on this match."""
    readings = {"competitiveness-clamp"}
    if source == "default":
        readings.add("default-rubric")
    if not version.rates:
        readings.add("rubric-1.0")
    if version.map_term == "where-recorded":
        readings.add("map-record")
    if any(e.get("scoresDepend") is True for e in analysis.read.errata):
        readings.add("errata-scores-depend")
    return readings


def _dimensions(version: RubricVersion, i: SeatInputs, *, rank: int, field_size: int, match_rounds: int,
                has_map_record: bool) -> dict[str, float]:
    """One seat's five dimensions under ``version`` (each one decimal, half up): under 2.4 the
    index wealth and reputation stand for the final ones (rubric *Circular reputation*)."""
    wealth = i.index_wealth if version.index_figures else i.wealth
    reputation = i.index_reputation if version.index_figures else i.reputation
    return {
        "survival": survival(
            version,
            status=i.status,
            rounds_alive=i.rounds_alive,
            match_rounds=match_rounds,
            world_actions=i.world_actions,
            dormancy_episodes=i.dormancy_episodes,
            recoveries=i.recoveries,
            counters_recorded=i.counters_recorded,
        ),
        "economy": economy(version, wealth=wealth, activity=i.activity, rounds_alive=i.rounds_alive,
                           match_rounds=match_rounds),
        "social": social(
            version,
            completed_trades=i.completed_trades,
            credited_trades=i.credited_trades,
            reputation=reputation,
            messages=i.messages,
            aggression=i.aggression,
            commons_share=i.commons_share,
            rounds_alive=i.rounds_alive,
            match_rounds=match_rounds,
        ),
        "adaptation": adaptation(
            version,
            trained_levels=i.trained_levels,
            crafts=i.crafts,
            moves=i.moves,
            coverage=i.coverage,
            has_map_record=has_map_record,
            rounds_alive=i.rounds_alive,
            match_rounds=match_rounds,
        ),
        "competitiveness": competitiveness(rank=rank, field_size=field_size, wealth=wealth, dead=i.dead),
    }


def scorecards(analysis: MatchAnalysis, rubric_version: str) -> dict[str, Any]:
    """A rubric-computed report for the match (contract §4b), ready to write as ``report.json``.

    Every seat of the archive's board, in seat order, with its rank, Fitness Index,
    five dimensions, wealth and reputation, the raw inputs (``messagesSent``,
    ``creditedTrades``, ``commonsShare``, ``coverage``) and, under 2.4, the index
    wealth and reputation and the circular reputation.  ``daishi-forensics score``
    reads such a report back as all ``same``.
    """
    return score_match(analysis, rubric_version).report()
