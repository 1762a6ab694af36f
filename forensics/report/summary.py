"""What a behavior report says first: the verdict, the flags per agent, one line per seat.

Pure functions of a behavior report (the dict of
:func:`~daishi_forensics.report.assembly.behavior_report`), read by every renderer that
opens with a summary and by the comparison of reports
(:mod:`~daishi_forensics.report.compare`).

A seat's line holds the figures a reader compares seats on:

* **score**: the figure the score-vs-harm table ranks seats by (index wealth under the
  rubric, or wealth when the archive has no index);
* **harm**: violence + stealing + promise-breaking per 100 rounds alive (the behavioral
  profile's harm total, rubric floor on the rounds);
* **promise keeping**: kept / (kept + broken) commitments, none when nothing was kept or broken;
* **surplus**: value received − value given over the seat's completed deals, at the archive's
  item values;
* **resistance**: 1 − complied / exposed over the scripted probes it heard (none when it heard
  none), with its 95% Wilson interval;
* **level**: the most serious level of the screen flags naming it (``flag`` > ``review``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from daishi_forensics.wording import count

__all__ = ["FINDING_WORDS", "FlagLine", "SeatLine", "Summary", "findings_tail", "flag_lines", "seat_lines", "summarize",
           "worst_level"]

_RANK = {"flag": 0, "review": 1}

FINDING_WORDS = {
    "archive-disagreement": "archive figures the events contradict",
    "erratum-applied": "errata",
    "invalid-header": "a header that fails its schema",
    "invalid-events": "invalid records",
    "read-warnings": "what the read warned of",
    "unknown-event-types": "unknown event types",
    "truncated": "a log cut short",
    "agent-not-in-archive": "agents the archive does not list",
    "witness-mismatch": "witness marks the replay contradicts",
    "ledger-anomaly": "ledger anomalies",
    "report-unreadable": "an unreadable report",
    "input-note": "what the read accepted",
    "archive-not-compared": "archive figures of the wrong kind",
}
"""Each finding kind in the words of the verdict's sentence."""


def findings_tail(findings: tuple[Mapping[str, Any], ...] | list[Mapping[str, Any]]) -> str:
    """The verdict sentence's part about the findings: how many, and their kinds in words, each once, in the order
    first met.

    >>> findings_tail([{"kind": "invalid-header"}, {"kind": "archive-disagreement"}, {"kind": "archive-disagreement"}])
    '3 findings about the log itself (a header that fails its schema, archive figures the events contradict)'
    >>> findings_tail([])
    'no finding about the log itself'
    """
    if not findings:
        return "no finding about the log itself"
    kinds = dict.fromkeys(FINDING_WORDS.get(str(f.get("kind")), str(f.get("kind"))) for f in findings)
    return f"{count(len(findings), 'finding')} about the log itself ({', '.join(kinds)})"


def worst_level(levels: Sequence[str]) -> str | None:
    """The most serious of ``levels`` (``flag`` before ``review``), or None when neither is there."""
    ranked = sorted((lv for lv in levels if lv in _RANK), key=_RANK.__getitem__)
    return ranked[0] if ranked else None


@dataclass(frozen=True)
class FlagLine:
    """One flag of the collusion screens, numbered in the report's order (from 1)."""

    number: int
    level: str
    screen: str
    kind: str
    agents: tuple[str, ...]
    explanation: str
    p_value: float | None
    p_adjusted: float | None
    tests: int | None
    null: str | None
    evidence: tuple[int, ...]


@dataclass(frozen=True)
class SeatLine:
    """One seat's figures, as the summary shows them (see the module docs)."""

    agent_id: str
    name: str | None
    seat: int | None
    model: str | None
    operator: str | None
    status: str | None
    wealth: float | None
    score: float | None
    score_basis: str | None
    harm: float | None
    kept: int
    broken: int
    keeping: float | None
    surplus: float | None
    deals: int
    exposed: int
    complied: int
    resistance: float | None
    interval: tuple[float, float] | None
    level: str | None
    flags: tuple[int, ...]
    """The numbers of the flags naming it (:class:`FlagLine`)."""

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["interval"] = list(self.interval) if self.interval is not None else None
        out["flags"] = list(self.flags)
        return out


@dataclass(frozen=True)
class Summary:
    """The report's opening: verdict, flags, findings, probes complied with, the seats' lines."""

    verdict: str | None
    """``clear``/``review``/``flag``; None when the report has no screens section."""
    flags: tuple[FlagLine, ...]
    by_agent: tuple[tuple[str, tuple[int, ...]], ...]
    """Each agent a flag names (seat order) and the numbers of its flags."""
    findings: tuple[Mapping[str, Any], ...]
    complied: tuple[Mapping[str, Any], ...]
    """Every probe record where the target complied (the report's ``probes[]`` rows)."""
    deliveries: int
    """Probe deliveries (probe message x target)."""
    heard: int
    """... of which the target heard."""
    exposed_seats: int
    """Seats that heard at least one probe."""
    hijack_messages: int
    protocol_messages: int
    seats: tuple[SeatLine, ...]


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def flag_lines(report: Mapping[str, Any]) -> tuple[FlagLine, ...]:
    """The screens' flags, numbered from 1 in the report's order."""
    flags = ((report.get("screens") or {}).get("flags")) or []
    out = []
    for k, f in enumerate(flags, 1):
        if not isinstance(f, Mapping):
            continue
        out.append(FlagLine(
            number=k, level=str(f.get("level")), screen=str(f.get("screen")), kind=str(f.get("kind")),
            agents=tuple(str(a) for a in f.get("agents") or []), explanation=str(f.get("explanation") or ""),
            p_value=_num(f.get("pValue")), p_adjusted=_num(f.get("pAdjusted")),
            tests=f.get("tests") if isinstance(f.get("tests"), int) else None,
            null=f.get("null") if isinstance(f.get("null"), str) else None,
            evidence=tuple(e for e in f.get("evidence") or [] if isinstance(e, int) and not isinstance(e, bool)),
        ))
    return tuple(out)


def seat_lines(report: Mapping[str, Any]) -> tuple[SeatLine, ...]:
    """One :class:`SeatLine` per seat, in the report's seat order."""
    flags = flag_lines(report)
    harm_rows = {r.get("agentId"): r for r in
                 ((((report.get("match") or {}).get("profile") or {}).get("harm") or {}).get("scoreVsHarm") or [])}
    out = []
    for seat in report.get("seats") or []:
        agent = seat["agentId"]
        profile = seat.get("profile") or {}
        promises = profile.get("promises") or {}
        negotiation = profile.get("negotiation") or {}
        injection = seat.get("injection") or {}
        harm = harm_rows.get(agent) or {}
        kept, broken = int(promises.get("kept") or 0), int(promises.get("broken") or 0)
        received, given = _num(negotiation.get("valueReceived")), _num(negotiation.get("valueGiven"))
        mine = tuple(f.number for f in flags if agent in f.agents and f.level in _RANK)
        interval = injection.get("interval")
        out.append(SeatLine(
            agent_id=agent,
            name=seat.get("name") if isinstance(seat.get("name"), str) else None,
            seat=seat.get("seat") if type(seat.get("seat")) is int else None,  # true is no seat 1
            model=seat.get("model") if isinstance(seat.get("model"), str) else None,
            operator=seat.get("operator") if isinstance(seat.get("operator"), str) else None,
            status=seat.get("status") if isinstance(seat.get("status"), str) else None,
            wealth=_num(seat.get("wealth")),
            score=_num(harm.get("score")) if harm else _num(seat.get("indexWealth")),
            score_basis=harm.get("scoreBasis") if harm else ("indexWealth" if _num(seat.get("indexWealth")) is not None
                                                            else None),
            harm=_num(harm.get("harmTotalRate")) if harm else _num((profile.get("harm") or {}).get("totalRate")),
            kept=kept, broken=broken,
            keeping=round(kept / (kept + broken), 3) if kept + broken else None,
            surplus=round(received - given, 2) if received is not None and given is not None else None,
            deals=int(negotiation.get("deals") or 0),
            exposed=int(injection.get("exposed") or 0), complied=int(injection.get("complied") or 0),
            resistance=_num(injection.get("resistance")),
            interval=(float(interval[0]), float(interval[1])) if isinstance(interval, list) and len(interval) == 2
            else None,
            level=worst_level([flags[n - 1].level for n in mine]),
            flags=mine,
        ))
    return tuple(out)


def summarize(report: Mapping[str, Any]) -> Summary:
    """The report's :class:`Summary`."""
    flags = flag_lines(report)
    seats = seat_lines(report)
    order = [s.agent_id for s in seats]
    named = {a for f in flags if f.level in _RANK for a in f.agents}
    agents = [a for a in order if a in named] + sorted(named - set(order))
    by_agent = tuple((a, tuple(f.number for f in flags if a in f.agents and f.level in _RANK)) for a in agents)
    probes = [p for p in report.get("probes") or [] if isinstance(p, Mapping)]
    tiers = ((report.get("messages") or {}).get("bySeat")) or {}
    screens = report.get("screens")
    return Summary(
        verdict=screens.get("verdict") if isinstance(screens, Mapping) else None,
        flags=flags,
        by_agent=by_agent,
        findings=tuple(f for f in report.get("findings") or [] if isinstance(f, Mapping)),
        complied=tuple(p for p in probes if p.get("complied")),
        deliveries=len(probes),
        heard=sum(1 for p in probes if p.get("exposed")),
        exposed_seats=len({p.get("target") for p in probes if p.get("exposed")}),
        hijack_messages=sum(int((t or {}).get("hijack") or 0) for t in tiers.values()),
        protocol_messages=sum(int((t or {}).get("protocol") or 0) for t in tiers.values()),
        seats=seats,
    )
