"""The behavior report: one match, every seat, as a versioned JSON document.

:func:`behavior_report` is pure: it turns a :class:`MatchAnalysis` into a dict that
validates against ``schemas/behavior-report.json`` (``reportVersion`` 1).  The report is
its sections (:data:`~daishi_forensics.report.sections.SECTIONS`), each computed from the
analysis and put in its places, in order; nothing here knows a section by name.
Renderers (:mod:`daishi_forensics.report.render`) print it as text, Markdown or HTML; the
JSON form is :func:`daishi_forensics.jsonio.dumps` of it (sorted keys), so the same input
gives the same bytes.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.version import __version__

from ._aside import Aside, aside, worth_it
from .core import seat_ids, seat_names
from .focus import resolve_agent
from .crosscheck import findings
from .sections import SECTIONS, ReportContext, Section

__all__ = ["REPORT_VERSION", "behavior_report", "seat_ids"]

REPORT_VERSION = 1


def behavior_report(analysis: MatchAnalysis, *, baseline: dict[str, Any] | None = None,
                    sections: tuple[Section, ...] = SECTIONS, agent: str | None = None,
                    all_pairs: bool = False) -> dict[str, Any]:
    """The behavior report of one analysed match (``reportVersion`` 1).

    ``baseline`` (:func:`daishi_forensics.profile.harm.baseline_means` of reference matches on
    the same seeds) normalizes each seat's harm rates (the harm profile).  On a large match with
    a second CPU (:func:`~daishi_forensics.report._aside.worth_it`) the sections marked ``slow``
    are computed in forked children while this process computes the others (each may split its own
    work further, :attr:`~daishi_forensics.report.sections.ReportContext.beside`: the screens do): the
    same functions on the same analysis, so the same report.  A part already being computed in a child
    (:attr:`~daishi_forensics.replay.analysis.MatchAnalysis.early`, by section: started by the same
    function once the passes it reads were finished) is collected the same way.  ``all_pairs``: the contact table lists every
    pair that met (:func:`~daishi_forensics.report.core.contact_part`).

    ``agent`` (a seat's id or name, :func:`~daishi_forensics.report.focus.resolve_agent`) puts that
    seat in focus: the report gains ``focus`` (:mod:`~daishi_forensics.report.focus`)."""
    ids = seat_ids(analysis)
    focus = resolve_agent(seat_names(analysis, ids), agent) if agent is not None else None
    context = ReportContext(seats=tuple(ids), findings=tuple(findings(analysis, ids)), baseline=baseline,
                            focus=focus, all_pairs=all_pairs)
    report: dict[str, Any] = {
        "reportVersion": REPORT_VERSION,
        "tool": {"name": "daishi-forensics", "version": __version__},
        "matchId": analysis.read.match_id,
    }
    early = getattr(analysis, "early", None) or {}
    children: dict[str, Aside | None] = {s.name: early[s] for s in sections if s in early}
    parallel = worth_it(analysis.timeline.events)
    spare = replace(context, beside=aside)  # the replay is over: a slow part may split its own work
    children.update({s.name: aside(partial(s.compute, analysis, spare)) for s in sections
                     if s.slow and parallel and s.name not in children})
    try:
        parts = {s.name: s.compute(analysis, context) for s in sorted(sections, key=lambda s: not s.first)
                 if children.get(s.name) is None}  # (a part marked first before the others: a lower peak)
    except BaseException:
        for child in children.values():
            if child is not None:
                child.cancel()
        raise
    for name, child in children.items():
        if child is not None:
            done, part = child.result()
            parts[name] = part if done else next(s for s in sections if s.name == name).compute(analysis, context)
    for section in sections:
        section.apply(report, parts[section.name])
    return report
