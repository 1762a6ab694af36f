"""The score audit: recompute a match's scorecards and set each figure beside the published one.

:func:`audit` scores the match with :func:`daishi_forensics.score.scoring.score_match` under
the rubric the report names (or the one asked for) and compares every figure of
every seat (:data:`~daishi_forensics.score.scoring.REPORT_FIELDS`) with the report's.  Each
comparison is a :class:`FigureCheck` whose status is one of

* ``same`` -- equal as doubles (the report's decimals parse to the very double the
  rubric's half-up rounding gives);
* ``DIFFERS`` -- not equal, or a seat one side has and the other lacks;
* ``not published`` -- the report leaves the figure out (or null);
* ``not recomputed`` -- this version has no such figure (the index figures before 2.4);
* ``from the report`` -- the figure was itself taken from the report (a message count
  the archive does not carry), so it cannot be checked.

A match with no report is recomputed and says there is nothing to compare.  Exit
codes (:mod:`daishi_forensics.exitcodes`): 0 when every compared figure is the same or
there is no report, 1 when one differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from daishi_forensics import exitcodes
from daishi_forensics.economy.passes import PASSES as ECONOMY
from daishi_forensics.replay.analysis import MatchAnalysis, analyze_target
from .rubric import READINGS
from .scoring import REPORT_FIELDS, MatchScore, score_match
from daishi_forensics.read.sources import Limits

__all__ = [
    "SAME",
    "DIFFERS",
    "NOT_PUBLISHED",
    "NOT_RECOMPUTED",
    "FROM_REPORT",
    "FigureCheck",
    "AuditResult",
    "audit",
    "audit_target",
]

SAME = "same"
DIFFERS = "DIFFERS"
NOT_PUBLISHED = "not published"
NOT_RECOMPUTED = "not recomputed"
FROM_REPORT = "from the report"

FORMAT = "daishi-forensics-score"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class FigureCheck:
    """One figure, recomputed beside published."""

    agent: str | None
    """The seat's agent id; None for a match-wide figure (``fieldSize``)."""
    figure: str
    """The report's field (``fitnessIndex``, ``dimensions.social``, ``raw.coverage``, ``seat``;
    match-wide ``matchId`` and ``fieldSize``)."""
    recomputed: Any
    """The recomputed value (None where there is none)."""
    published: Any
    """The report's value (None where it has none)."""
    status: str
    """``same``, ``DIFFERS``, ``not published``, ``not recomputed`` or ``from the report``."""
    note: str | None = None
    """Why, where the status needs a word."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        out: dict[str, Any] = {
            "figure": self.figure,
            "recomputed": self.recomputed,
            "published": self.published,
            "status": self.status,
        }
        if self.agent is not None:
            out["agentId"] = self.agent
        if self.note is not None:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class AuditResult:
    """A match's recomputed scorecards, each figure beside the published one."""

    score: MatchScore
    """The recomputation."""
    has_report: bool
    """Whether the match came with a report to compare with."""
    published_rubric: str | None
    """The ``rubricVersion`` the report names (None: no report, or it names none)."""
    checks: tuple[FigureCheck, ...]
    """Every comparison: match-wide first, then seat by seat in seat order, figures in
    :data:`~daishi_forensics.score.scoring.REPORT_FIELDS` order."""
    notes: tuple[str, ...]
    """What the comparison needs said (a version asked for that is not the report's...)."""
    report_error: str | None = None
    """Why the match's report could not be read (a server's failing report), when it could not:
    there is nothing to compare against, and the audit says so as a finding (exit 1)."""
    input_faults: tuple[str, ...] = ()
    """What the read found wrong with the log (invalid records left out, a log cut short): the
    recomputation stands on what remained, so each is a finding (exit 1), as in every command."""

    @property
    def differs(self) -> tuple[FigureCheck, ...]:
        """The checks that differ."""
        return tuple(c for c in self.checks if c.status == DIFFERS)

    def counts(self) -> dict[str, int]:
        """Checks by status (every status present, 0 included)."""
        out = dict.fromkeys((SAME, DIFFERS, NOT_PUBLISHED, NOT_RECOMPUTED, FROM_REPORT), 0)
        for check in self.checks:
            out[check.status] += 1
        return out

    @property
    def exit_code(self) -> int:
        """1 when a figure differs, the report could not be read or the log had faults (invalid
        records, cut short), else 0 (also with no report)."""
        faulty = self.differs or self.report_error is not None or self.input_faults
        return exitcodes.FINDINGS if faulty else exitcodes.OK

    def seat_checks(self, agent: str | None) -> tuple[FigureCheck, ...]:
        """The checks of one seat (None: the match-wide ones)."""
        return tuple(c for c in self.checks if c.agent == agent)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document ``score --format json`` prints."""
        score = self.score
        seats = []
        for seat in score.seats:
            entry = seat.to_dict(score.rubric)
            entry["figures"] = [c.to_dict() for c in self.seat_checks(seat.agent)]
            seats.append(entry)
        known = {s.agent for s in score.seats}
        return {
            "format": FORMAT,
            "formatVersion": FORMAT_VERSION,
            "matchId": score.match_id,
            "rubricVersion": score.rubric.version,
            "rubricSource": score.rubric_source,
            "rubric": score.rubric.to_dict(),
            "publishedRubricVersion": self.published_rubric,
            "hasReport": self.has_report,
            "reportError": self.report_error,
            "fieldSize": score.field_size,
            "matchRounds": score.match_rounds,
            "figures": [c.to_dict() for c in self.seat_checks(None)],
            "seats": seats,
            "unscoredSeats": [c.to_dict() for c in self.checks if c.agent is not None and c.agent not in known],
            "errata": [dict(e) for e in score.errata],
            "notes": [*score.notes, *self.notes],
            "inputFaults": list(self.input_faults),
            "undefined": [dict(r.to_dict(), exercised=r.key in score.readings) for r in READINGS],
            "summary": self.counts(),
            "exitCode": self.exit_code,
        }


def _published(card: Mapping[str, Any], figure: str) -> Any:
    value: Any = card
    for part in figure.split("."):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _equal(recomputed: Any, published: Any) -> bool:
    numeric = (int, float)
    if isinstance(recomputed, bool) or isinstance(published, bool):
        return recomputed == published
    if isinstance(recomputed, numeric) and isinstance(published, numeric):
        return float(recomputed) == float(published)
    return bool(recomputed == published)


def _check(agent: str | None, figure: str, recomputed: Any, published: Any) -> FigureCheck:
    if recomputed is None and published is None:
        return FigureCheck(agent, figure, None, None, NOT_RECOMPUTED)
    if published is None:
        return FigureCheck(agent, figure, recomputed, None, NOT_PUBLISHED)
    if recomputed is None:
        return FigureCheck(agent, figure, None, published, NOT_RECOMPUTED,
                           "the rubric version scored under has no such figure")
    return FigureCheck(agent, figure, recomputed, published, SAME if _equal(recomputed, published) else DIFFERS)


def _compare(score: MatchScore, report: Mapping[str, Any]) -> list[FigureCheck]:
    checks = [_check(None, "fieldSize", score.field_size, report.get("fieldSize"))]
    if score.match_id is not None and report.get("matchId") is not None:
        checks.insert(0, _check(None, "matchId", score.match_id, report.get("matchId")))
    cards: dict[str, Mapping[str, Any]] = {}
    extra: list[FigureCheck] = []
    for card in report.get("seats") or []:
        if not isinstance(card, Mapping) or not isinstance(card.get("agentId"), str):
            continue
        agent = card["agentId"]
        if agent in cards:
            extra.append(FigureCheck(agent, "seat", None, "scored twice", DIFFERS,
                                     "the report scores this agent more than once; the first card is compared"))
            continue
        cards[agent] = card
    for seat in score.seats:
        card = cards.get(seat.agent)
        if card is None:
            checks.append(FigureCheck(seat.agent, "seat", "scored", None, DIFFERS,
                                      "the report has no scorecard for this seat of the board"))
            continue
        figures = seat.figures(score.rubric)
        for figure in REPORT_FIELDS:
            check = _check(seat.agent, figure, figures[figure], _published(card, figure))
            if figure == "raw.messagesSent" and seat.inputs.messages_source == "report":
                check = FigureCheck(seat.agent, figure, check.recomputed, check.published, FROM_REPORT,
                                    "the archive's metrics do not carry this seat's messages")
            checks.append(check)
    known = {s.agent for s in score.seats}
    for agent in sorted(cards):
        if agent not in known:
            checks.append(FigureCheck(agent, "seat", None, "scored", DIFFERS,
                                      "the report scores an agent that is not on the archive's board"))
    return checks + extra


def audit(analysis: MatchAnalysis, rubric_version: str | None = None) -> AuditResult:
    """Recompute the match under ``rubric_version`` (None: the report's) and compare with its report.

    Raises
    ------
    UnknownRubric
        The version asked for, or the one the report names, is not one this tool knows.
    InvalidInput
        The archive lacks what scoring needs.
    """
    report = analysis.read.report
    score = score_match(analysis, rubric_version, report=report)
    result = _compared(analysis, score, report, rubric_version)
    return replace(result, input_faults=input_faults(analysis.read.stats))


def input_faults(stats: Any) -> tuple[str, ...]:
    """The read's faults a recomputation must own up to: invalid records left out, a log that
    ends before the match did (its evidence)."""
    out: list[str] = []
    if stats.invalid:
        out.append(f"{stats.invalid} invalid record(s) were left out (see `validate`); the figures stand on the rest")
    out += [f"the log looks cut short: {why}" for why in stats.truncated]
    return tuple(out)


def _compared(analysis: MatchAnalysis, score: MatchScore, report: Any, rubric_version: str | None) -> AuditResult:
    """The recomputation beside the report's figures (no report: nothing to compare)."""
    named = report.get("rubricVersion") if isinstance(report, Mapping) else None
    published_rubric = named if isinstance(named, str) else None
    notes: list[str] = []
    if report is None:
        error = analysis.read.source.report_error
        if error is not None:
            return AuditResult(score, False, None, (),
                               (f"the match's report could not be read ({error}): nothing to compare against",),
                               report_error=error)
        return AuditResult(score, False, None, (), ("the match has no report: nothing to compare",))
    if published_rubric is None:
        notes.append("the report names no rubric version")
    elif score.rubric_source == "option" and published_rubric.lstrip("vV") != score.rubric.version:
        notes.append(
            f"the report was scored under rubric {published_rubric}; these figures are recomputed under "
            f"{score.rubric.version}, so differences are expected"
        )
    if any(e.get("scoresDepend") for e in score.errata):
        notes.append(
            "an erratum says published scores depend on events that never took effect; this recomputation "
            "left those events out, so a DIFFERS on the seats they touch may come from them"
        )
    return AuditResult(score, True, published_rubric, tuple(_compare(score, report)), tuple(notes))


def audit_target(
    target: str,
    rubric_version: str | None = None,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
) -> AuditResult:
    """Open, read, analyse and audit one target (see :func:`daishi_forensics.read.sources.open_match`)."""
    analysis = analyze_target(target, ECONOMY, store=store, server=server, limits=limits)
    return audit(analysis, rubric_version)
