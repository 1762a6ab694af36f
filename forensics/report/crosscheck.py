"""Archive against events: every disagreement is a finding, not an error (contract §4).

Newer servers stamp ``metrics``, ``ledger``, ``exploration`` and each agent's
``aggression`` on the archive.  Where both exist, the events are the evidence:
each disagreement becomes a :class:`Finding` naming the seat (or pair), the field,
the archived and the recomputed value, and the events behind it.  Errata applied
by the read boundary, invalid records, a header that fails its schemas (the archive, the
published scorecards, the format marker: read as they stand), what the read accepted with a
warning (a key written twice, a tick outside the archive's rounds), unknown types, v1 seasons
dropped and agents missing from the archive are findings too, so the report says everything
it did not take at face value.

An archived count past 2^53 - 1 (``ledger.pairs[i].trades``, a ``metrics`` count, ``exploration``
regions, ``aggression``) is no disagreement: the export format holds no such integer, so it is
invalid input, refused naming its field (:func:`_count`), as ``score`` refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any, Mapping

from daishi_forensics.errors import InvalidInput
from daishi_forensics.jsonio import json_kind, shown
from daishi_forensics.read.archive import MAX_TICK, past_exact
from daishi_forensics.read.boundary import erratum_name
from daishi_forensics.read.validation import Problem
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.wording import count

__all__ = ["Finding", "findings"]

MAX_EVIDENCE = 50
"""At most this many event ids are listed per finding (the count is always given)."""


@dataclass(frozen=True)
class Finding:
    """One thing the report did not take at face value."""

    kind: str
    """``archive-disagreement``, ``erratum-applied``, ``invalid-header`` (the archive, the published scorecards or
    the format marker fails its schema; the report reads them as they stand), ``invalid-events``, ``read-warnings``
    (what the read accepted with a warning: a key written twice, a tick out of order...), ``unknown-event-types``,
    ``truncated``, ``agent-not-in-archive``, ``witness-mismatch``,
    ``ledger-anomaly``, ``report-unreadable`` (the server's report could not be read), ``input-note``
    (what reading accepted that the format does not ask for, such as a byte-order mark), ``archive-not-compared``
    (a part of the archive's stamped figures of the wrong kind, which the events could not be compared with)."""
    message: str
    """One sentence for a person."""
    agent_id: str | None = None
    pair: tuple[str, str] | None = None
    field: str | None = None
    archived: Any = None
    recomputed: Any = None
    events: tuple[int, ...] = ()
    event_count: int = 0
    extra: Mapping[str, Any] = dataclass_field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.agent_id is not None:
            out["agentId"] = self.agent_id
        if self.pair is not None:
            out["pair"] = list(self.pair)
        if self.field is not None:
            out["field"] = self.field
            out["archived"] = self.archived
            out["recomputed"] = self.recomputed
        out["events"] = list(self.events[:MAX_EVIDENCE])
        out["eventCount"] = self.event_count or len(self.events)
        out.update(self.extra)
        return out


def _differs(archived: Any, recomputed: Any) -> bool:
    if isinstance(archived, bool) or isinstance(recomputed, bool):
        return bool(archived != recomputed)
    if isinstance(archived, (int, float)) and isinstance(recomputed, (int, float)):
        return abs(float(archived) - float(recomputed)) > 1e-9
    return bool(archived != recomputed)


def _count(value: Any, field: str) -> Any:
    """An archived count to compare, as it is; :class:`InvalidInput` naming ``field`` when it is a number past
    :data:`~daishi_forensics.read.archive.MAX_TICK` (an integer the format cannot hold, or one read as a double),
    which is invalid input, not a disagreement.

    >>> _count(2**53 - 1, "metrics.a_1.move"), _count("x", "metrics.a_1.move")
    (9007199254740991, 'x')
    >>> _count(2**63, "ledger.pairs[0].trades")
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.InvalidInput: field ledger.pairs[0].trades: 9223372036854775808 is past 2^53 - 1 (9007199254740991), the largest integer the export format holds
    """
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > MAX_TICK:
        raise InvalidInput(past_exact(value), field=field)
    return value


def _read_findings(analysis: MatchAnalysis) -> list[Finding]:
    read = analysis.read
    stats = read.stats
    out: list[Finding] = []
    report_error = read.source.report_error
    if report_error is not None:
        out.append(Finding("report-unreadable",
                           f"the published scorecards (the match's report) could not be read, so nothing "
                           f"published is compared: {report_error}"))
    for note in read.source.notes:
        out.append(Finding("input-note", note))
    header_problems = read.header_problems()
    header = _header_finding(header_problems, read.source.name)
    if header is not None:
        out.append(header)
    by_erratum: dict[str, list[int]] = {}
    for event_id in stats.excluded_by_errata:
        by_erratum.setdefault(read.errata_events.get(event_id, "?"), []).append(event_id)
    for erratum in read.errata:
        erratum_id = erratum_name(erratum)
        applied = sorted(by_erratum.get(erratum_id, []))
        named = [e for e in erratum.get("events") or [] if isinstance(e, int)]
        out.append(
            Finding(
                "erratum-applied",
                f"erratum {erratum_id}: {len(applied)} of {count(len(named), 'named event')} withheld from the analysis "
                "as never having taken effect",
                events=tuple(applied),
                extra={
                    "erratum": erratum_id,
                    "text": erratum.get("text") if isinstance(erratum.get("text"), str) else shown(erratum.get("text")),
                    "scoresDepend": erratum.get("scoresDepend"),
                    "named": sorted(named),
                },
            )
        )
    if stats.invalid:
        ids = tuple(sorted({p.event_id for p in stats.problems if p.severity == "error" and type(p.event_id) is int}))
        out.append(
            Finding(
                "invalid-events",
                f"{count(stats.invalid, 'record')} failed validation and {'was' if stats.invalid == 1 else 'were'} left out of the analysis "
                "(run `daishi-forensics validate` for every problem)",
                events=ids,
                event_count=stats.invalid,
            )
        )
    warned = _warnings_finding([p for p in header_problems if p.severity == "warning"], stats)
    if warned is not None:
        out.append(warned)
    if stats.unknown_types:
        listed = ", ".join(f"{k} ({v})" for k, v in sorted(stats.unknown_types.items()))
        out.append(
            Finding(
                "unknown-event-types",
                f"event types this tool does not know were kept and counted, not analysed: {listed}",
                event_count=sum(stats.unknown_types.values()),
            )
        )
    if stats.truncated:
        out.append(
            Finding(
                "truncated",
                "the log ends before the match did: " + "; ".join(stats.truncated),
                extra={"evidence": list(stats.truncated)},
            )
        )
    # A v1 log's earlier seasons (before its last world_reset) are read as the format says: not part of the
    # match, and nothing wrong with the log.  The source says how many events they held (droppedEarlierSeason).
    return out


def _header_finding(problems: list[Problem], name: str) -> Finding | None:
    """The ``invalid-header`` finding for the header's errors
    (:meth:`~daishi_forensics.read.boundary.MatchRead.header_problems`: the archive and the published scorecards
    against their schemas, the format marker, the match ids; a server's errata pages), each named by its JSON path
    (and by its file where that is not the match's, ``name``: a server's errata page), at most
    :data:`MAX_EVIDENCE` listed; None when there are none (warnings, such as a key written twice, are
    :func:`_warnings_finding`'s).  The analysis reads the archive as it stands, so its figures may rest on a value
    its schema refuses: said, not passed over.

    >>> from daishi_forensics.read.validation import Problem
    >>> found = _header_finding([Problem("m.jsonl", "'lots' is not of type 'number'", path="$.archive.agents[0].wealth"),
    ...                          Problem("m.jsonl", "the key 'seat' is repeated", severity="warning")], "m.jsonl")
    >>> found.message
    "the match's header fails validation in 1 place ($.archive.agents[0].wealth: 'lots' is not of type 'number'); the report reads the archive as it stands (run `daishi-forensics validate` for every problem)"
    >>> found.as_dict()["problems"]
    [{'path': '$.archive.agents[0].wealth', 'message': "'lots' is not of type 'number'"}]
    """
    errors = [p for p in problems if p.severity == "error"]
    if not errors:
        return None
    first = errors[0]
    more = f"; the first: {first.path}: {first.message}" if len(errors) > 1 else f" ({first.path}: {first.message})"
    return Finding("invalid-header",
                   f"the match's header fails validation in {count(len(errors), 'place')}{more}; the report reads "
                   "the archive as it stands (run `daishi-forensics validate` for every problem)",
                   extra={"problems": [{**({"file": p.file} if p.file != name else {}), "path": p.path,
                                        "message": p.message} for p in errors[:MAX_EVIDENCE]],
                          "problemCount": len(errors)})


SAID_ELSEWHERE = frozenset({"unknown-type", "roster", "errata"})
"""Warnings of the read that another finding says: an event type this tool does not know (``unknown-event-types``),
events by an agent the archive does not list (``agent-not-in-archive``), an erratum naming no event of the log
(``erratum-applied``, its count of events withheld)."""


READ_EXACTLY = frozenset({"integral-float"})
"""Warnings of the read that lose nothing: an integer written with a fraction of zero (``7.0``) is read as the very
integer written (``validate`` lists it; the report says nothing of it)."""


def _warnings_finding(header: list[Problem], stats: Any) -> Finding | None:
    """The ``read-warnings`` finding: what the read accepted and read as it says, with a warning (``validate`` lists
    each), by kind, with how many and the first: a key written twice in one object (the last value kept), a lone
    surrogate escape (read as U+FFFD), a tick out of order or outside the archive's startedAtTick to endedAtTick
    (kept, analysed where it stands); the ``header``'s warnings first, then the events'
    (:attr:`~daishi_forensics.read.boundary.ReadStats.problems`, every one counted); None when there is none.
    Kinds another finding says (:data:`SAID_ELSEWHERE`) are left to it, and kinds read exactly
    (:data:`READ_EXACTLY`) are not said.  Each other is a reading the tool chose where the input is not what the
    format says, one that may lose what the input held, so it is said, not passed over.

    >>> from daishi_forensics.read.validation import Problem
    >>> from types import SimpleNamespace as S
    >>> late = Problem("m.jsonl", "tick 60 is past the match's end (the archive's endedAtTick is 59)",
    ...                severity="warning", code="tick-past-end", event_id=812, path="$.tick")
    >>> found = _warnings_finding([], S(problems=[late], problem_counts={"tick-past-end": 3}))
    >>> found.message
    "the read warned 3 times (each read as said; run `daishi-forensics validate` for every one): tick-past-end 3, the first event 812: tick 60 is past the match's end (the archive's endedAtTick is 59)"
    >>> found.as_dict()["warnings"], found.as_dict()["events"], found.as_dict()["eventCount"]
    ({'tick-past-end': 3}, [812], 3)
    """
    firsts: dict[str, Problem] = {}
    for problem in [*header, *(p for p in stats.problems if p.severity == "warning")]:
        if problem.code not in SAID_ELSEWHERE and problem.code not in READ_EXACTLY:
            firsts.setdefault(problem.code, problem)
    if not firsts:
        return None
    in_events = {p.code for p in stats.problems if p.severity == "warning"}  # each counted, kept or not
    counts = {code: sum(p.code == code for p in header) + (stats.problem_counts.get(code, 0) if code in in_events else 0)
              for code in firsts}
    total = sum(counts.values())

    def first(problem: Problem) -> str:
        where = f"event {problem.shown_id}" if problem.event_id is not None else problem.path
        return f"{where}: {problem.message}"

    listed = "; ".join(f"{code} {counts[code]}, the first {first(p)}" for code, p in firsts.items())
    events = tuple(p.event_id for p in stats.problems if p.severity == "warning" and p.code in firsts
                   and type(p.event_id) is int)
    return Finding("read-warnings",
                   f"the read warned {count(total, 'time')} (each read as said; run `daishi-forensics validate` for "
                   f"every one): {listed}",
                   events=events, event_count=total,
                   extra={"warnings": counts,
                          "first": [{"code": code, **({"eventId": p.event_id} if p.event_id is not None else {}),
                                     "path": p.path, "message": p.message} for code, p in firsts.items()]})


def _not_compared(value: Any, field: str, wanted: str) -> Finding:
    """The finding for a part of the archive's stamped figures that is not what the format says (``wanted``), so
    nothing in it was compared with the events: said, not passed over (``validate`` lists the field too).

    >>> _not_compared(5, "ledger.pairs", "an array").message
    "the archive's ledger.pairs is a number, not an array: not compared with the events"
    """
    return Finding("archive-not-compared",
                   f"the archive's {field} is {json_kind(value)}, not {wanted}: not compared with the events",
                   field=field, archived=value if not isinstance(value, (dict, list)) else None)


def _metrics_findings(analysis: MatchAnalysis) -> list[Finding]:
    archived = analysis.archive.get("metrics")
    if not isinstance(archived, dict):
        return [] if archived is None else [_not_compared(archived, "metrics", "an object")]
    recomputed = analysis.result("counters").metrics()
    out = []
    for agent in sorted(set(archived) | set(recomputed)):
        stamped = archived.get(agent)
        if not isinstance(stamped, dict):
            if agent in archived:
                out.append(_not_compared(stamped, f"metrics.{agent}", "an object"))
                continue
            stamped = {}
        counted = recomputed.get(agent, {})
        for kind in sorted(stamped):
            a, r = _count(stamped.get(kind), f"metrics.{agent}.{kind}"), counted.get(kind, 0)
            if _differs(a, r):
                out.append(
                    Finding(
                        "archive-disagreement",
                        f"{agent}: archive metrics count {shown(a)} '{kind}' events, the log carries {r}",
                        agent_id=agent,
                        field=f"metrics.{kind}",
                        archived=a,
                        recomputed=r,
                    )
                )
    return out


def _ledger_findings(analysis: MatchAnalysis) -> list[Finding]:
    block = analysis.archive.get("ledger")
    if not isinstance(block, dict):
        return [] if block is None else [_not_compared(block, "ledger", "an object")]
    ledger = analysis.result("ledger")
    points = analysis.result("reputation").points_by_pair()
    by_pair: dict[tuple[str, str], Any] = {}  # the ledger's pairs by (a, b), built once (not a scan per row)
    for p in ledger.pairs:
        by_pair.setdefault((p.a, p.b), p)
    out = []
    rows = block.get("pairs")
    if rows is not None and not isinstance(rows, list):
        out.append(_not_compared(rows, "ledger.pairs", "an array"))
    for index, row in enumerate(rows if isinstance(rows, list) else ()):  # not a list: no rows to compare
        if not isinstance(row, dict) or not isinstance(row.get("a"), str) or not isinstance(row.get("b"), str):
            out.append(_not_compared(row, f"ledger.pairs[{index}]", "a pair (an object whose a and b are text)"))
            continue
        _count(row.get("trades"), f"ledger.pairs[{index}].trades")
        a, b = sorted((row["a"], row["b"]))
        pair = by_pair.get((a, b))
        evidence = pair.event_ids if pair else ()
        recomputed = {"trades": pair.trades if pair else 0, "netShare": pair.net_share if pair else None}
        for key in ("trades", "netShare"):
            if key in row and _differs(row[key], recomputed[key]):
                out.append(
                    Finding(
                        "archive-disagreement",
                        f"pair {a}–{b}: archive ledger {key} {row[key]}, the events give {recomputed[key]}",
                        pair=(a, b),
                        field=f"ledger.{key}",
                        archived=row[key],
                        recomputed=recomputed[key],
                        events=evidence,
                    )
                )
        rep = row.get("rep")
        if rep is not None and not isinstance(rep, dict):
            out.append(_not_compared(rep, f"ledger.pairs[{index}].rep", "an object"))
        if isinstance(rep, dict):
            got = points.get((a, b), {})
            for agent in sorted(rep):
                if _differs(rep[agent], got.get(agent, 0)):
                    out.append(
                        Finding(
                            "archive-disagreement",
                            f"pair {a}–{b}: archive ledger pays {agent} {count(rep[agent], 'reputation point')}, "
                            f"the replay pays {got.get(agent, 0)}",
                            pair=(a, b),
                            agent_id=agent,
                            field="ledger.rep",
                            archived=rep[agent],
                            recomputed=got.get(agent, 0),
                            events=evidence,
                        )
                    )
    commons = block.get("commons")
    if commons is not None and not isinstance(commons, dict):
        out.append(_not_compared(commons, "ledger.commons", "an object"))
    if isinstance(commons, dict):
        result = analysis.result("commons")
        for agent in sorted(commons):
            a, r = commons[agent], result.share(agent)
            if _differs(a, r):
                record = result.shares.get(agent)
                out.append(
                    Finding(
                        "archive-disagreement",
                        f"{agent}: archive commons share {a}, the events give {r}",
                        agent_id=agent,
                        field="ledger.commons",
                        archived=a,
                        recomputed=r,
                        events=record.gather_event_ids if record else (),
                    )
                )
    return out


def _exploration_findings(analysis: MatchAnalysis) -> list[Finding]:
    block = analysis.archive.get("exploration")
    if not isinstance(block, dict):
        return [] if block is None else [_not_compared(block, "exploration", "an object")]
    coverage = {c.agent: c for c in analysis.result("coverage").agents}
    out = []
    for agent in sorted(block):
        row = block[agent]
        if not isinstance(row, dict):
            out.append(_not_compared(row, f"exploration.{agent}", "an object"))
            continue
        mine = coverage.get(agent)
        recomputed = {"regions": mine.regions if mine else 0, "coverage": mine.coverage if mine else 0.0}
        _count(row.get("regions"), f"exploration.{agent}.regions")
        for key in ("regions", "coverage"):
            if key in row and _differs(row[key], recomputed[key]):
                out.append(
                    Finding(
                        "archive-disagreement",
                        f"{agent}: archive exploration {key} {row[key]}, the events give {recomputed[key]}",
                        agent_id=agent,
                        field=f"exploration.{key}",
                        archived=row[key],
                        recomputed=recomputed[key],
                    )
                )
    return out


def _agent_findings(analysis: MatchAnalysis, seat_ids: list[str]) -> list[Finding]:
    archived = {a.get("agentId"): a for a in analysis.archive.get("agents") or []
                if isinstance(a, dict) and isinstance(a.get("agentId"), str)}  # a row naming no agent: none
    witnessing = {w.agent: w for w in analysis.result("witnesses").agents}
    out = []
    for agent in seat_ids:
        row = archived.get(agent)
        if row is None:
            out.append(
                Finding(
                    "agent-not-in-archive",
                    f"{agent} acts in the log but is missing from the archive's agents",
                    agent_id=agent,
                )
            )
            continue
        mine = witnessing.get(agent)
        _count(row.get("aggression"), f"agents[{shown(agent)}].aggression")
        if "aggression" in row and mine is not None and _differs(row["aggression"], mine.aggression):
            out.append(
                Finding(
                    "archive-disagreement",
                    f"{agent}: archive aggression {row['aggression']}, the log gives {mine.aggression} "
                    f"({mine.basis})",
                    agent_id=agent,
                    field="aggression",
                    archived=row["aggression"],
                    recomputed=mine.aggression,
                    events=mine.aggression_ids,
                )
            )
    for act in analysis.result("witnesses").mismatches:
        out.append(
            Finding(
                "witness-mismatch",
                f"event {act.event_id}: the logged witnesses disagree with who stood in {act.region} "
                f"(replayed: {', '.join(act.potential_witnesses) or 'nobody'}; logged: {', '.join(act.logged_witnesses or ()) or 'nobody'})",
                agent_id=act.actor,
                events=(act.event_id,) if act.event_id is not None else (),
            )
        )
    return out


def _ledger_anomalies(analysis: MatchAnalysis) -> list[Finding]:
    ledger = analysis.result("ledger")
    return [
        Finding(
            "ledger-anomaly",
            f"{anomaly.kind}: {anomaly.detail}",
            events=(anomaly.event_id,) if anomaly.event_id is not None else (),
            extra={"tradeId": anomaly.trade_id},
        )
        for anomaly in ledger.anomalies
    ]


def findings(analysis: MatchAnalysis, seat_ids: list[str]) -> list[Finding]:
    """Every finding of a match, in a stable order."""
    return [
        *_read_findings(analysis),
        *_agent_findings(analysis, seat_ids),
        *_metrics_findings(analysis),
        *_ledger_findings(analysis),
        *_exploration_findings(analysis),
        *_ledger_anomalies(analysis),
    ]
