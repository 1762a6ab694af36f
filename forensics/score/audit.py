"""The score audit: recompute a match's scorecards and set each figure beside the published one.

:func:`audit` scores the match with :func:`daishi_forensics.score.scoring.score_match` under
the rubric the report names (or the one asked for) and compares every figure of
every seat (:data:`~daishi_forensics.score.scoring.REPORT_FIELDS`) with the report's.  Each
comparison is a :class:`FigureCheck` whose status is one of

* ``same`` -- equal as doubles (the report's decimals parse to the very double the
  rubric's half-up rounding gives);
* ``DIFFERS`` -- not equal, or a seat one side has and the other lacks;
* ``not published`` -- the report leaves the figure out (or null); never the Fitness
  Index, which a report must give for every seat it scores (left out, it DIFFERS);
* ``unreadable`` -- the figure sits in something that is not a JSON object (``"dimensions":
  "x"``), so it cannot be read;
* ``not recomputed`` -- this version has no such figure (the index figures before 2.4);
* ``from the report`` -- the figure was itself taken from the report (a message count
  the archive does not carry), so it cannot be checked.

Beside the figures, each scorecard's ``seat``, ``name`` and ``role`` are set beside the
archive's.  A published value of another JSON type than the recomputed one (``"74.5"``, text,
for a number) DIFFERS, and its note says so.  The report is checked against its JSON Schema
(the one ``validate`` uses): each error is a finding.

A match with no report is recomputed and says there is nothing to compare.  A report that
cannot be read (not JSON, not a JSON object) is a finding: the match is still recomputed.  Exit
codes (:mod:`daishi_forensics.exitcodes`): 0 when every compared figure is the same or
there is no report, 1 when one differs or cannot be read, the report fails its schema, or
the report could not be read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from daishi_forensics import exitcodes
from daishi_forensics.economy.passes import PASSES as ECONOMY
from daishi_forensics.errors import InvalidInput
from daishi_forensics.jsonio import json_kind, json_text
from daishi_forensics.read.archive import MAX_TICK, past_exact
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.validation import header_failure, report_schema_errors
from daishi_forensics.replay.analysis import MatchAnalysis, analyze
from .rubric import READINGS, UnknownRubric, rubric
from .scoring import REPORT_FIELDS, MatchScore, SeatScore, score_match
from daishi_forensics.read.sources import Limits, open_match
from daishi_forensics.wording import count

__all__ = [
    "SAME",
    "DIFFERS",
    "NOT_PUBLISHED",
    "NOT_RECOMPUTED",
    "FROM_REPORT",
    "UNREADABLE",
    "IDENTITY_FIELDS",
    "FigureCheck",
    "SchemaError",
    "AuditResult",
    "audit",
    "audit_target",
]

SAME = "same"
DIFFERS = "DIFFERS"
NOT_PUBLISHED = "not published"
NOT_RECOMPUTED = "not recomputed"
FROM_REPORT = "from the report"
UNREADABLE = "unreadable"

IDENTITY_FIELDS: tuple[str, ...] = ("seat", "name", "role")
"""A scorecard's fields that say whose it is: each is set beside the archive's board."""
HEADLINE = "fitnessIndex"
"""The figure a report must give for every seat it scores."""

FORMAT = "daishi-forensics-score"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class FigureCheck:
    """One figure, recomputed beside published."""

    agent: str | None
    """The seat's agent id; None for a match-wide figure (``fieldSize``)."""
    figure: str
    """The report's field (``fitnessIndex``, ``dimensions.social``, ``raw.coverage``; the card's
    ``seat``, ``name`` and ``role``; ``seat`` also for a card one side lacks; match-wide
    ``matchId`` and ``fieldSize``)."""
    recomputed: Any
    """The recomputed value, or the archive's for ``seat``, ``name`` and ``role`` (None where there
    is none)."""
    published: Any
    """The report's value (None where it has none)."""
    status: str
    """``same``, ``DIFFERS``, ``not published``, ``unreadable``, ``not recomputed`` or ``from the
    report``."""
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
class SchemaError:
    """One way the report breaks its JSON Schema (the ``report`` schema ``validate`` checks)."""

    path: str
    """Where, as a JSON path from the report's root (``$.seats[1].dimensions``)."""
    message: str
    """What is wrong (``'x' is not of type 'object'``)."""

    def to_dict(self) -> dict[str, str]:
        """JSON form."""
        return {"path": self.path, "message": self.message}


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
    schema_errors: tuple[SchemaError, ...] = ()
    """Each way the report breaks its JSON Schema: a finding (exit 1); what can be read of it is
    still compared."""

    @property
    def differs(self) -> tuple[FigureCheck, ...]:
        """The checks that differ."""
        return tuple(c for c in self.checks if c.status == DIFFERS)

    @property
    def unreadable(self) -> tuple[FigureCheck, ...]:
        """The checks whose published figure cannot be read."""
        return tuple(c for c in self.checks if c.status == UNREADABLE)

    def counts(self) -> dict[str, int]:
        """Checks by status (every status present, 0 included)."""
        out = dict.fromkeys((SAME, DIFFERS, NOT_PUBLISHED, UNREADABLE, NOT_RECOMPUTED, FROM_REPORT), 0)
        for check in self.checks:
            out[check.status] += 1
        return out

    @property
    def exit_code(self) -> int:
        """1 when a figure differs or cannot be read, the report breaks its schema or could not be
        read, or the log had faults (invalid records, cut short), else 0 (also with no report)."""
        faulty = (self.differs or self.unreadable or self.schema_errors or self.report_error is not None
                  or self.input_faults)
        return exitcodes.FINDINGS if faulty else exitcodes.OK

    @property
    def scored_under_another_rubric(self) -> bool:
        """Whether the report names a rubric other than the one recomputed under.  The name is read
        as :func:`~.rubric.rubric` reads it (``v2.4``, `` 2.4 `` name 2.4), so the output never says
        the report was scored under another rubric when it names this one."""
        if self.published_rubric is None:
            return False
        return _named_version(self.published_rubric) != self.score.rubric.version

    def seat_checks(self, agent: str | None) -> tuple[FigureCheck, ...]:
        """The checks of one seat (None: the match-wide ones)."""
        return self._checks_by_agent.get(agent, ())

    @cached_property
    def _checks_by_agent(self) -> dict[str | None, tuple[FigureCheck, ...]]:
        """The checks grouped by agent once, in order (a scan of every check per seat made a
        field of 4,000 seats take seconds to print)."""
        grouped: dict[str | None, list[FigureCheck]] = {}
        for check in self.checks:
            grouped.setdefault(check.agent, []).append(check)
        return {agent: tuple(checks) for agent, checks in grouped.items()}

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
            "reportSchemaErrors": [e.to_dict() for e in self.schema_errors],
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


def _published(card: Mapping[str, Any], figure: str) -> tuple[Any, str | None]:
    """The card's value of a dotted figure, or None when it leaves it (or what holds it) out or
    null; with why it cannot be read when what should hold it is not a JSON object
    (``"dimensions": "x"``)."""
    value: Any = card
    parts = figure.split(".")
    for depth, part in enumerate(parts):
        if value is None:
            return None, None
        if not isinstance(value, Mapping):
            holder = ".".join(parts[:depth])
            return None, f"the report's {holder} is {json_kind(value)} ({json_text(value)}), not an object"
        value = value.get(part)
    return value, None


def _equal(recomputed: Any, published: Any) -> bool:
    """Equal as values: Python compares an int with an int, or with a double, exactly (never
    through ``float()``, which reads 2^53 + 1 as 2^53)."""
    return bool(recomputed == published)


def _type_note(recomputed: Any, published: Any) -> str | None:
    """What a published value of another JSON type than the recomputed one is, in words
    (``published "74.5" as text, not a number``); None when the types agree."""
    if recomputed is None or published is None or json_kind(recomputed) == json_kind(published):
        return None
    return f"published {json_text(published)} as {json_kind(published)}, not {json_kind(recomputed)}"


def _check(agent: str | None, figure: str, recomputed: Any, published: Any) -> FigureCheck:
    """Same when equal (integers exactly, numbers as values) and of one JSON type; a value of another type
    DIFFERS, saying so; none on either side: not published / not recomputed."""
    if recomputed is None and published is None:
        return FigureCheck(agent, figure, None, None, NOT_RECOMPUTED)
    if published is None:
        return FigureCheck(agent, figure, recomputed, None, NOT_PUBLISHED)
    if recomputed is None:
        return FigureCheck(agent, figure, None, published, NOT_RECOMPUTED,
                           "the rubric version scored under has no such figure")
    note = _type_note(recomputed, published)
    if note is not None:
        return FigureCheck(agent, figure, recomputed, published, DIFFERS, note)
    return FigureCheck(agent, figure, recomputed, published, SAME if _equal(recomputed, published) else DIFFERS)


def _figure_check(agent: str, figure: str, recomputed: Any, card: Mapping[str, Any]) -> FigureCheck:
    """One figure of a seat: unreadable when what should hold it is not an object; the Fitness
    Index left out (or null) DIFFERS, as a report must give it for each seat it scores."""
    published, unreadable = _published(card, figure)
    if unreadable is not None:
        return FigureCheck(agent, figure, recomputed, None, UNREADABLE, unreadable)
    if figure == HEADLINE and published is None and recomputed is not None:
        return FigureCheck(agent, figure, recomputed, None, DIFFERS,
                           "the report gives this seat no Fitness Index: left out or null")
    return _check(agent, figure, recomputed, published)


def _identity_checks(seat: SeatScore, card: Mapping[str, Any]) -> list[FigureCheck]:
    """The card's ``seat``, ``name`` and ``role`` beside the archive's board: a card the report
    leaves them out of is not published; one the archive does not say is not checked."""
    i = seat.inputs
    out = []
    for figure, archived in zip(IDENTITY_FIELDS, (i.seat, i.name, i.role)):
        published = card.get(figure)
        if archived is None and published is not None:
            out.append(FigureCheck(seat.agent, figure, None, published, NOT_RECOMPUTED,
                                   "the archive's board does not say"))
            continue
        check = _check(seat.agent, figure, archived, published)
        if check.status == DIFFERS and check.note is None:
            check = replace(check, note=f"the archive's {figure} is {json_text(archived)}; the report "
                                        f"claims {json_text(published)}")
        out.append(check)
    return out


def _compare(score: MatchScore, report: Mapping[str, Any]) -> list[FigureCheck]:
    checks = [_check(None, "fieldSize", score.field_size, report.get("fieldSize"))]
    if score.match_id is not None and report.get("matchId") is not None:
        checks.insert(0, _check(None, "matchId", score.match_id, report.get("matchId")))
    cards: dict[str, Mapping[str, Any]] = {}
    extra: list[FigureCheck] = []
    seats = report.get("seats")
    for card in seats if isinstance(seats, list) else []:
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
        checks += _identity_checks(seat, card)
        figures = seat.figures(score.rubric)
        for figure in REPORT_FIELDS:
            check = _figure_check(seat.agent, figure, figures[figure], card)
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
    if isinstance(report, Mapping):
        _exact_figures(report)
    score = score_match(analysis, rubric_version, report=report)
    result = _compared(analysis, score, report, rubric_version)
    header = [p for p in analysis.read.header_errors() if p.code != "report"]
    return replace(result, input_faults=input_faults(analysis.read.stats, header))


def _exact_figures(report: Mapping[str, Any]) -> None:
    """Refuse a figure the audit would set beside its own (``fieldSize``, ``rubricVersion``, each card's ``seat`` and
    :data:`~.scoring.REPORT_FIELDS`) that the report gives as a number past 2^53 - 1 read as a double (an integer
    written past 64 bits, or a number written with a fraction or an exponent): the double may not be the number
    written, so it can be neither compared nor quoted (it was printed as ``1.8446744073709552e+19``).  A
    :class:`InvalidInput` naming the field, as a count of the board past 2^53 - 1 is refused; an integer read
    exactly (``9007199254740993``) is compared and quoted as written.

    >>> _exact_figures({"fieldSize": 2**64, "seats": [{"rank": 9007199254740993, "wealth": 1e12}]})
    >>> _exact_figures({"seats": [{"rank": 1}, {"dimensions": {"social": 2.0**64}}]})
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.InvalidInput: field report.seats[1].dimensions.social: a number past 2^53 - 1 (9007199254740991), the largest integer the export format holds (not quoted: read as a double, it may not be the number written)
    """
    def exact(value: Any, field: str) -> None:
        if isinstance(value, float) and not -MAX_TICK <= value <= MAX_TICK:
            raise InvalidInput(past_exact(value), field=f"report.{field}")

    for key in ("fieldSize", "rubricVersion"):
        exact(report.get(key), key)
    seats = report.get("seats")
    for index, card in enumerate(seats if isinstance(seats, list) else []):
        if isinstance(card, Mapping):
            for figure in ("seat", *REPORT_FIELDS):
                exact(_published(card, figure)[0], f"seats[{index}].{figure}")


def input_faults(stats: Any, header: Sequence[Any] = ()) -> tuple[str, ...]:
    """The read's faults a recomputation must own up to: invalid records left out, a log that
    ends before the match did (its evidence), and the ``header``'s errors other than the report's (which
    :attr:`AuditResult.schema_errors` lists): an archive failing its schema in a field the scoring does not refuse
    (one it reads and cannot use is refused by name), a format marker or match id that is not the format's, read
    as it stands.

    >>> from types import SimpleNamespace as S
    >>> stats = S(invalid=0, truncated=())
    >>> input_faults(stats, [S(path="$.archive.config.season_ticks", message="'x' is not of type 'integer'")])
    ("the match's header fails validation in 1 place (the first: $.archive.config.season_ticks: 'x' is not of type 'integer'); the archive read as it stands (see `validate`)",)
    """
    out: list[str] = []
    if stats.invalid:
        out.append(f"{count(stats.invalid, 'invalid record')} {'was' if stats.invalid == 1 else 'were'} left out "
                   "(see `validate`); the figures stand on the rest")
    out += [f"the log looks cut short: {why}" for why in stats.truncated]
    if header:
        out.append(f"{header_failure(list(header))}; the archive read as it stands (see `validate`)")
    return tuple(out)


def _named_version(named: str) -> str:
    """The version a report's ``rubricVersion`` names, as :func:`~.rubric.rubric` reads it; one it
    does not know as it is written."""
    try:
        return rubric(named).version
    except UnknownRubric:
        return named


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
        notes.append(_unnamed_rubric(report, score))
    elif score.rubric_source == "option" and _named_version(published_rubric) != score.rubric.version:
        notes.append(
            f"the report was scored under rubric {published_rubric}; these figures are recomputed under "
            f"{score.rubric.version}, so differences are expected"
        )
    if any(e.get("scoresDepend") is True for e in score.errata):  # contract §4: a boolean; "no" is not true
        notes.append(
            "an erratum says published scores depend on events that never took effect; this recomputation "
            "left those events out, so a DIFFERS on the seats they touch may come from them"
        )
    errors = tuple(SchemaError(path, message) for path, message in report_schema_errors(report))
    return AuditResult(score, True, published_rubric, tuple(_compare(score, report)), tuple(notes),
                       schema_errors=errors)


def _unnamed_rubric(report: Mapping[str, Any], score: MatchScore) -> str:
    """Why the report's rubric version is not read: it names none, or it gives one that is not
    text (``2.3``, a number), which is not read as a version (it says which was used instead)."""
    if "rubricVersion" not in report:
        return "the report names no rubric version"
    named = report["rubricVersion"]
    return (f"the report's rubricVersion is {json_text(named)}, {json_kind(named)}, not text: it is not read as a "
            f"version; scored under {score.rubric.version}")


def audit_target(
    target: str,
    rubric_version: str | None = None,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
) -> AuditResult:
    """Open, read, analyse and audit one target (see :func:`daishi_forensics.read.sources.open_match`).

    A report that cannot be read (a folder's report.json that is not JSON, a report that is not a
    JSON object) does not stop the match being read: it is recomputed, and the report's fault is
    the finding (:attr:`AuditResult.report_error`)."""
    source = open_match(target, store=store, server=server, limits=limits, report_faults=True)
    try:
        analysis = analyze(read_match(source), ECONOMY)
        result = audit(analysis, rubric_version)
        if source.notes:  # what the read accepted (a byte-order mark, a file named for another match): said once
            result = replace(result, score=replace(result.score, notes=(*source.notes, *result.score.notes)))
        return result
    except InvalidInput as exc:  # an archive field the audit cannot go on without: name the file too
        if exc.file is None:
            exc.file = source.name
        raise
