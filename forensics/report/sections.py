"""The behavior report's sections, as data.

A :class:`Section` is ``compute(analysis, context) -> part`` (pure) and
``apply(report, part)`` (puts the part in its places); :data:`SECTIONS` lists them in the
order they are applied (a section may add to the places an earlier one made: the profile adds
``seats[].profile`` to the seats).  A ``slow`` section may be computed in a forked child on a
large match (:func:`~daishi_forensics.report.assembly.behavior_report`); its part must pickle.
The tables each section shows live with the renderers (:mod:`daishi_forensics.report.render`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.replay.fork import Forked

from .core import contact_part, ledger_part, match_part, seats_part, source_part

__all__ = ["SECTIONS", "ReportContext", "Section"]


@dataclass(frozen=True)
class ReportContext:
    """What every section may read besides the analysis."""

    seats: tuple[str, ...]
    """The seats: archive agents in seat order, then agents seen only in the log."""
    findings: tuple[Any, ...]
    """The cross-checks' findings (:mod:`~daishi_forensics.report.crosscheck`)."""
    baseline: dict[str, Any] | None = None
    """Harm baseline means of reference matches, when given."""
    focus: str | None = None
    """The seat in focus (an agent id), when the reader asked for one (``--agent``)."""
    all_pairs: bool = False
    """List every pair in the contact table, however many (else it is cut past a limit)."""
    beside: Callable[[Callable[[], Any]], Forked | None] | None = None
    """How a section may start some of its own work in another process (the screens run their two
    costliest screens there): given by the report on a large match, once the replay is over and a
    second CPU is free; None: all in this process (the same part either way)."""


@dataclass(frozen=True)
class Section:
    """One part of the behavior report."""

    name: str
    """What the part is called (in messages and by a caller choosing sections)."""
    compute: Callable[[MatchAnalysis, ReportContext], Any]
    """The part, a pure function of the analysis."""
    apply: Callable[[dict[str, Any], Any], None]
    """Puts the part in its places in the report."""
    slow: bool = False
    """Worth computing in a forked child on a large match."""
    reads: frozenset[str] | None = None
    """When given: the only passes the part reads (with the read, the timeline and the archive), and
    nothing of the context; so it may be computed as soon as those passes are finished, from an
    analysis holding only them (:func:`~daishi_forensics.report.passes.early_parts`: in a forked
    child when ``slow``, else in this process)."""
    first: bool = False
    """Computed before the other parts this process computes (the parts are put in the report in the
    order of :data:`SECTIONS` all the same): a part whose own arrays are the largest of the report, so
    that its peak does not stand on what the others import and leave (the screens' graph library and
    sparse matrices, about 40 MB of modules)."""


SCREEN_PASSES = frozenset({"contact", "ledger", "reputation", "transfers"})
"""The passes the collusion screens read (the screening module's own list, which imports the graph
library: named here so that importing the sections does not)."""


LEDGER_PASSES = frozenset({"ledger", "reputation", "commons"})
"""The passes the trade ledger part reads (:func:`~daishi_forensics.report.core.ledger_part`)."""


def _put(key: str) -> Callable[[dict[str, Any], Any], None]:
    def apply(report: dict[str, Any], part: Any) -> None:
        report[key] = part

    return apply


def _screens(analysis: MatchAnalysis, context: ReportContext) -> dict[str, Any]:
    """``screens: {verdict, configVersion, flags[] ...}``: the collusion screens on the match."""
    from .screening import screens_section

    return screens_section(analysis, beside=context.beside)


def _injection(analysis: MatchAnalysis, context: ReportContext) -> dict[str, Any]:
    """Probes, unknown probes, per-seat injection figures, message tiers and propagation."""
    from daishi_forensics.injection.summary import (
        message_tiers,
        probes_section,
        propagation_section,
        seat_injection,
        unknown_probes,
    )

    return {"probes": probes_section(analysis), "unknownProbes": unknown_probes(analysis),
            "bySeat": seat_injection(analysis), "tiers": message_tiers(analysis),
            "propagation": propagation_section(analysis)}


def _apply_injection(report: dict[str, Any], parts: dict[str, Any]) -> None:
    """``probes[]``, ``unknownProbes``, ``seats[].injection``, ``seats[].messages``, ``propagation``,
    ``messages``."""
    report["probes"] = parts["probes"]
    report["unknownProbes"] = parts["unknownProbes"]
    by_seat, tiers = parts["bySeat"], parts["tiers"]
    for seat in report["seats"]:
        seat["injection"] = by_seat.get(seat["agentId"])
        seat["messages"] = tiers.get(seat["agentId"], {"persuasion": 0, "hijack": 0, "protocol": 0, "total": 0})
    report["propagation"] = parts["propagation"]
    report["messages"] = {"bySeat": tiers}


def _profile(analysis: MatchAnalysis, context: ReportContext) -> tuple[dict[str, Any], dict[str, Any]]:
    """The behavioral profile per seat and for the match (harm normalized against the baseline when
    given)."""
    from .profile import profile_section

    return profile_section(analysis, baseline=context.baseline)


def _apply_profile(report: dict[str, Any], part: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """``seats[].profile`` and ``match.profile``."""
    seats, match = part
    for seat in report["seats"]:
        seat["profile"] = seats.get(seat["agentId"])
    report["match"]["profile"] = match


def _focus(analysis: MatchAnalysis, context: ReportContext) -> Any:
    """The seat in focus: its own hijack and protocol messages and every message's tier (the rest of
    the focus is read from the finished report); None without a focus."""
    if context.focus is None:
        return None
    from .focus import focus_messages

    return focus_messages(analysis, context.focus)


def _apply_focus(report: dict[str, Any], part: Any) -> None:
    """``focus`` (only with a seat in focus): read from every part applied before it."""
    if part is not None:
        from .focus import focus_view

        report["focus"] = focus_view(report, part)


SECTIONS: tuple[Section, ...] = (
    Section("source", lambda a, c: source_part(a, len(c.findings)), _put("source")),
    Section("match", lambda a, c: match_part(a), _put("match")),
    Section("seats", lambda a, c: seats_part(a, list(c.seats)), _put("seats")),
    Section("ledger", lambda a, c: ledger_part(a), _put("ledger"), reads=LEDGER_PASSES),
    Section("contact", lambda a, c: contact_part(a, all_pairs=c.all_pairs), _put("contact")),
    Section("findings", lambda a, c: [f.as_dict() for f in c.findings], _put("findings")),
    Section("errata", lambda a, c: a.read.errata, _put("errata")),
    Section("screens", _screens, _put("screens"), slow=True, reads=SCREEN_PASSES),
    Section("injection", _injection, _apply_injection, slow=True, first=True),
    Section("profile", _profile, _apply_profile),
    Section("focus", _focus, _apply_focus),
)
"""Every section of the behavior report, in the order they are applied."""
