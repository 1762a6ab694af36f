"""Reporters for :class:`~daishi_forensics.score.audit.AuditResult`: ``text`` and ``json``."""

from __future__ import annotations

from typing import Any

from daishi_forensics.score.audit import DIFFERS, IDENTITY_FIELDS, SAME, UNREADABLE, AuditResult, FigureCheck
from daishi_forensics.jsonio import dumps, json_kind, json_text
from daishi_forensics.textsafe import shown
from daishi_forensics.score.rubric import READINGS
from daishi_forensics.score.scoring import REPORT_FIELDS
from daishi_forensics.wording import count

__all__ = ["FORMATS", "render", "render_text", "render_json"]

FORMATS = ("text", "json")

_SOURCE = {
    "option": "asked for with --rubric",
    "report": "named by the report",
    "default": "the published rubric; nothing named one",
}


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _published(check: FigureCheck) -> str:
    """The published value as the report writes it (JSON, quotes and all) when its JSON type is not
    the recomputed one's, so ``"74.5"`` (text) never reads as the number 74.5."""
    if check.recomputed is not None and check.published is not None \
            and json_kind(check.recomputed) != json_kind(check.published):
        return json_text(check.published)
    return _fmt(check.published)


def _seat_title(result: AuditResult, agent: str) -> str:
    seat = result.score.seat(agent)
    if seat is None:
        return f"{agent} (not on the archive's board)"
    i = seat.inputs
    parts = [f"seat {i.seat}" if i.seat is not None else "seat ?", agent]
    if i.name:
        parts.append(i.name)
    parts.append(f"({i.role or 'role ?'}, {i.status}, rank {seat.rank})")
    return "  ".join(parts)


def render_text(result: AuditResult) -> str:
    """A page for a person: each seat's figures beside the published ones, then errata and readings."""
    out = _head_lines(result)
    score = result.score
    for seat in score.seats:
        out.append("")
        out += _seat_lines(result, seat)
    for check in result.checks:
        if check.agent is not None and score.seat(check.agent) is None:  # a published seat not scored
            out += ["", _seat_title(result, check.agent or "?"), f"  {check.status}: {check.note}"]
    out.append("")
    out += _errata_lines(score)
    notes = [*score.notes, *(result.notes if result.has_report else ())]
    if notes:
        out.append("notes:")
        out.extend(f"  - {n}" for n in notes)
    used = [r for r in READINGS if r.key in score.readings]
    out.append(f"where the rubric is silent, this recomputation read ({len(used)} of {len(READINGS)}; "
               "all in --format json, 'undefined'):")
    for r in used:
        out.append(f"  - {r.key}: {r.silent}")
        out.append(f"    read as: {r.reading}")
    out += _result_lines(result)
    return "\n".join(shown(line) for line in out) + "\n"


def _head_lines(result: AuditResult) -> list[str]:
    """The match, its rubric and field, the rubric the report was scored under, and the match's own figures."""
    score = result.score
    out = [
        f"{score.match_id or 'match'}: recomputed under rubric {score.rubric.version} "
        f"({_SOURCE.get(score.rubric_source, score.rubric_source)}); "
        f"field of {score.field_size}, {score.match_rounds} match rounds"
    ]
    if result.scored_under_another_rubric:
        out.append(f"the report was scored under rubric {result.published_rubric}")
    for check in result.seat_checks(None):
        mark = "" if check.status == "same" else f"  {check.note or ''}"
        out.append(f"{check.figure}: {_fmt(check.recomputed)} beside {_fmt(check.published)}  {check.status}{mark}")
    return out


def _source(what: str, source: str) -> str:
    """``counters from events``; ``counters not recorded`` (never ``from not recorded`` / ``from none``)."""
    if source in ("none", "not recorded"):
        return f"{what} not recorded"
    return f"{what} from {source}"


def _seat_lines(result: AuditResult, seat: Any) -> list[str]:
    """One seat: its figures (beside the published ones when there is a report), then what was read from
    where, what was taken on trust, and its notes."""
    score = result.score
    out = [_seat_title(result, seat.agent)]
    checks = result.seat_checks(seat.agent) if result.has_report else []
    if result.has_report and not (len(checks) == 1 and checks[0].figure == "seat"):
        out.append(f"  {'figure':<28}{'recomputed':>12}  {'published':>12}  status")
        for check in checks:
            line = (f"  {check.figure:<28}{_fmt(check.recomputed):>12}  "
                    f"{_published(check):>12}  {check.status}")
            if check.note and check.status != "same":
                line += f" ({check.note})"
            out.append(line)
    else:
        if result.has_report:  # the report has no such seat: its one check says so
            out.append(f"  {checks[0].status}: {checks[0].note}")
        else:
            out.append(f"  {'figure':<28}{'recomputed':>12}")
        figures = seat.figures(score.rubric)
        out.extend(f"  {figure:<28}{_fmt(figures[figure]):>12}" for figure in REPORT_FIELDS
                   if figures[figure] is not None)
    i = seat.inputs
    out.append(
        f"  read: rounds alive {i.rounds_alive} ({i.rounds_alive_source}); {_source('counters', i.counters_source)}; "
        f"{_source('ledger', i.ledger_source)}; {_source('coverage', i.coverage_source)}; "
        f"{_source('reputation points', i.points_source)}"
    )
    out.append("  took on trust:")
    out.extend(f"    - {t}" for t in i.trusted)
    if i.notes:
        out.append("  notes:")
        out.extend(f"    - {n}" for n in i.notes)
    return out


def _errata_lines(score: Any) -> list[str]:
    """Each erratum: its text, its events, what the recomputation left out, and whether scores depend on it."""
    if not score.errata:
        return ["errata: none"]
    out = ["errata:"]
    for erratum in score.errata:
        events = ", ".join(str(e) for e in erratum.get("events") or []) or "none"
        withheld = ", ".join(str(e) for e in erratum.get("withheld") or []) or "none"
        depend = erratum.get("scoresDepend")
        depend_text = ("yes" if depend is True else "no" if depend is False else "not said" if depend is None
                       else f"not said ({json_text(depend)} is not true or false)")
        out.append(f"  {erratum.get('id')}: {erratum.get('text') or '(no text)'}")
        out.append(f"    events {events}; left out of the recomputation: {withheld}; "
                   f"published scores depend on them: {depend_text}")
    return out


def _result_lines(result: AuditResult) -> list[str]:
    """The log's faults, the differences, and the verdict with its exit code."""
    out: list[str] = []
    counts = result.counts()
    if result.input_faults:
        out.append("the log's faults (a finding, exit 1):")
        out.extend(f"  - {fault}" for fault in result.input_faults)
    if result.schema_errors:
        out.append("the report fails its schema (a finding, exit 1):")
        out.extend(f"  - {e.path}: {e.message}" for e in result.schema_errors)
    if result.differs:
        out.append("differences:")
        out.extend(_difference_line(check) for check in result.differs)
    if result.unreadable:
        out.append("figures that cannot be read:")
        out.extend(f"  {check.agent or 'match'} {check.figure}: {check.note}" for check in result.unreadable)
    if result.report_error is not None:
        out.append(f"nothing to compare: the match's report could not be read ({result.report_error}); "
                   f"exit {result.exit_code}")
    elif not result.has_report:
        out.append(f"nothing to compare: the match has no report; exit {result.exit_code}")
    else:
        listed = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
        out.append(f"result: {listed or 'no figure'}; {_verdict(result)}; exit {result.exit_code}")
    return out


def _difference_line(check: FigureCheck) -> str:
    """One difference: a figure recomputed beside published; a card's seat, name or role as the
    archive gives it beside the report's claim."""
    who = check.agent or "match"
    on_card = check.figure != "seat" or isinstance(check.recomputed, int)  # not a card one side lacks
    if check.figure in IDENTITY_FIELDS and check.agent is not None and on_card:
        line = f"  {who} {check.figure}: the archive {_fmt(check.recomputed)}, the report {_published(check)}"
    else:
        line = f"  {who} {check.figure}: recomputed {_fmt(check.recomputed)}, published {_published(check)}"
    return line + (f" ({check.note})" if check.note else "")


def _verdict(result: AuditResult) -> str:
    """Every compared figure the same only when one was compared and nothing else is wrong."""
    counts = result.counts()
    faults = []
    if result.schema_errors:
        faults.append(f"the report fails its schema ({count(len(result.schema_errors), 'error')})")
    if counts[DIFFERS]:
        faults.append(f"{count(counts[DIFFERS], 'figure')} {'differs' if counts[DIFFERS] == 1 else 'differ'}")
    if counts[UNREADABLE]:
        faults.append(f"{count(counts[UNREADABLE], 'figure')} cannot be read")
    if faults:
        return "; ".join(faults)
    if not counts[SAME]:
        return "no figure was compared"
    return "every compared figure is the same"


def render_json(result: AuditResult) -> str:
    """The audit as one deterministic JSON document (see :meth:`AuditResult.to_dict`)."""
    return dumps(result.to_dict())


def render(result: AuditResult, fmt: str) -> str:
    """Render in ``text`` or ``json``."""
    if fmt == "json":
        return render_json(result)
    return render_text(result)
