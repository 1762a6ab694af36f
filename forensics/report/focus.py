"""One seat in focus: the report's ``focus`` part (``behavior --agent NAME|ID``).

The focus gathers what a model developer looks for about their own agent, which the rest
of the report spreads over many tables:

* its **flags**: every collusion-screen flag (level ``flag`` or ``review``) naming it, by
  number in ``screens.flags`` (from 1), with the other agents the flag names;
* its **counterparties**: every seat it traded with, stood beside or heard from, with the
  value each way (the trade ledger: ``valueAGave``/``valueBGave``), gifts, net share, ticks
  together and messages heard (seat contact), largest trade value first;
* its **messages that mattered**, by event id and tier (the message tiers of the evaluation
  design: persuasion, hijack, protocol): the hijack and protocol messages it sent, the probes
  addressed to it (and whether it complied), the promises it broke, and the propagation
  chains it started or echoed.  Message text is not in the report; a page that shows it
  fetches the event and scrubs it;
* its **ranks** among the seats on each summary figure
  (:mod:`~daishi_forensics.report.summary`): 1 is the highest value.

:func:`resolve_agent` turns ``NAME|ID`` into a seat id (an id first, then an exact name,
then a name ignoring case; a name two seats share is refused, naming both).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from daishi_forensics.errors import BadSetting
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.textsafe import shown, shown_clipped
from daishi_forensics.wording import nearest

from .summary import seat_lines

__all__ = ["FocusPart", "MAX_MESSAGES", "focus_messages", "focus_view", "resolve_agent"]

MAX_MESSAGES = 200
"""At most this many messages that mattered are listed (the lowest event ids first); ``messagesTotal``
says how many there were."""

RANKED = ("score", "wealth", "harm", "keeping", "surplus", "resistance")
"""The summary figures a seat is ranked on."""


def resolve_agent(seats: Sequence[tuple[str, str | None]], query: str) -> str:
    """The seat id ``query`` names among ``seats`` (``(agent id, name)`` pairs).

    >>> resolve_agent([("a_1", "Ash"), ("a_2", "Nyx")], "nyx")
    'a_2'

    Raises
    ------
    BadSetting
        No seat, or more than one, goes by that name (exit 2); the message lists the seats, and offers those a
        few edits away (:func:`nearest_seats`).
    """
    ids = [a for a, _ in seats]
    if query in ids:
        return query
    exact = [a for a, n in seats if n == query]
    if len(exact) == 1:
        return exact[0]
    folded = [a for a, n in seats if isinstance(n, str) and n.casefold() == query.casefold()]
    if len(exact) > 1 or len(folded) > 1:
        both = exact if len(exact) > 1 else folded
        raise BadSetting(f"'{shown_clipped(query)}' names more than one seat ({', '.join(both)}): give the agent id",
                         file="--agent")
    if len(folded) == 1:
        return folded[0]
    listed = ", ".join(f"{n} ({a})" if n else a for a, n in seats[:40]) + (" ..." if len(seats) > 40 else "")
    near = nearest_seats(seats, query)
    hint = f" (did you mean {' or '.join(near)}?)" if near else ""
    raise BadSetting(f"no seat is called '{shown_clipped(query)}'{shown(hint)}; the seats: {shown(listed)}",
                     file="--agent")


def nearest_seats(seats: Sequence[tuple[str, str | None]], query: str, most: int = 3) -> list[str]:
    """Up to ``most`` seats whose name or id is a few edits from ``query`` (:func:`~daishi_forensics.wording.nearest`:
    a typo, two letters swapped, a letter of another alphabet or case, a blank pasted along), those the fewest edits
    away only, in seat order, each as ``Name (id)``.

    >>> seats = [("a_e0c0", "Ash"), ("a_143a", "Nyx"), ("a_c79a", "Thorne")]
    >>> nearest_seats(seats, "Ash "), nearest_seats(seats, "Ahs"), nearest_seats(seats, "A_E0C0")
    (['Ash (a_e0c0)'], ['Ash (a_e0c0)'], ['Ash (a_e0c0)'])
    >>> nearest_seats(seats, "Thorn"), nearest_seats(seats, "Zed")
    (['Thorne (a_c79a)'], [])
    """
    found = nearest(query, [[agent, name] if isinstance(name, str) else [agent] for agent, name in seats], most)
    return [f"{seats[k][1]} ({seats[k][0]})" if seats[k][1] else seats[k][0] for k in found]


@dataclass(frozen=True)
class FocusPart:
    """What the focus needs of the analysis itself: the seat, the tiers of its messages."""

    agent: str
    sent: tuple[tuple[int, str, str | None, int | None], ...]
    """``(event id, tier, rule, tick)`` of every hijack or protocol message the seat sent, in log order."""
    tier_of: Mapping[int, str] = field(repr=False, compare=False)
    """Any message's tier by event id."""


def focus_messages(analysis: MatchAnalysis, agent: str) -> FocusPart:
    """The seat's own hijack and protocol messages, and the tier of every message (the tiers pass)."""
    tiers = analysis.result("tiers")
    sent = tuple((m.event, m.verdict.tier, m.verdict.rule, m.tick) for m in tiers.messages
                 if m.sender == agent and m.verdict.tier != "persuasion")
    return FocusPart(agent, sent, tiers.tier_of())


def _rank(values: Mapping[str, float | None], agent: str) -> dict[str, Any]:
    mine = values.get(agent)
    known = [v for v in values.values() if v is not None]
    if mine is None:
        return {"value": None, "rank": None, "of": len(known)}
    return {"value": mine, "rank": 1 + sum(1 for v in known if v > mine), "of": len(known)}


def _counterparties(report: Mapping[str, Any], agent: str) -> list[dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}

    def row(other: str) -> dict[str, Any]:
        return rows.setdefault(other, {
            "agentId": other, "trades": 0, "gifts": 0, "valueGave": 0.0, "valueReceived": 0.0, "netShare": None,
            "ticksTogether": 0, "firstContactTick": None, "messagesHeard": 0, "messagesSent": 0,
        })

    for p in (report.get("ledger") or {}).get("pairs") or []:
        if agent not in (p.get("a"), p.get("b")):
            continue
        mine_is_a = p["a"] == agent
        r = row(p["b"] if mine_is_a else p["a"])
        r["trades"], r["gifts"], r["netShare"] = p.get("trades", 0), p.get("gifts", 0), p.get("netShare")
        r["valueGave"] = p.get("valueAGave" if mine_is_a else "valueBGave", 0.0)
        r["valueReceived"] = p.get("valueBGave" if mine_is_a else "valueAGave", 0.0)
    for p in (report.get("contact") or {}).get("pairs") or []:
        if agent not in (p.get("a"), p.get("b")):
            continue
        mine_is_a = p["a"] == agent
        r = row(p["b"] if mine_is_a else p["a"])
        r["ticksTogether"], r["firstContactTick"] = p.get("ticksTogether", 0), p.get("firstContactTick")
        heard = ("AB", "BA") if not mine_is_a else ("BA", "AB")  # heard: what the other sent to this seat
        r["messagesHeard"] = sum(int(p.get(k + heard[0]) or 0) for k in ("broadcast", "direct", "local"))
        r["messagesSent"] = sum(int(p.get(k + heard[1]) or 0) for k in ("broadcast", "direct", "local"))
    return sorted(rows.values(), key=lambda r: (-(float(r["valueGave"] or 0) + float(r["valueReceived"] or 0)),
                                                -int(r["ticksTogether"] or 0), r["agentId"]))


def _messages(report: Mapping[str, Any], part: FocusPart) -> list[dict[str, Any]]:
    agent = part.agent
    found: dict[tuple[int, str], dict[str, Any]] = {}

    def add(event: Any, why: str, **extra: Any) -> None:
        if isinstance(event, int) and not isinstance(event, bool):
            found.setdefault((event, why), {"event": event, "tier": part.tier_of.get(event), "why": why, **extra})

    for event, _tier, rule, tick in part.sent:
        add(event, "sent", rule=rule, tick=tick)
    rules = {event: rule for event, _tier, rule, _tick in part.sent}
    for p in report.get("probes") or []:
        event = p.get("event")
        if p.get("sender") == agent and isinstance(event, int) and not isinstance(event, bool):
            found.pop((event, "sent"), None)  # said once, as the probe it was
            entry = found.setdefault((event, "probe-sent"), {
                "event": event, "tier": part.tier_of.get(event), "why": "probe-sent", "probeId": p.get("probeId"),
                "rule": rules.get(event), "tick": p.get("tick"), "targets": [], "exposed": 0, "complied": 0})
            entry["targets"].append(p.get("target"))
            entry["exposed"] += 1 if p.get("exposed") else 0
            entry["complied"] += 1 if p.get("complied") else 0
        if p.get("target") == agent:
            add(p.get("event"), "probe", probeId=p.get("probeId"), exposed=p.get("exposed"),
                complied=p.get("complied"), evidence=p.get("evidence"), delay=p.get("delay"), tick=p.get("tick"))
    for seat in report.get("seats") or []:
        if seat.get("agentId") != agent:
            continue
        for c in (((seat.get("profile") or {}).get("promises") or {}).get("commitments")) or []:
            if c.get("status") == "broken":
                add(c.get("messageId"), "promise-broken", kind=c.get("kind"), tick=c.get("tick"),
                    evidence=c.get("evidence") or [])
    for chain in (report.get("propagation") or {}).get("chains") or []:
        if chain.get("sender") == agent and (chain.get("reach") or 0) > 0:
            add(chain.get("root"), "chain-started", reach=chain.get("reach"), tick=chain.get("tick"))
        elif agent in (chain.get("timeToReach") or {}):
            add(chain.get("root"), "chain-echoed", sender=chain.get("sender"), tick=chain.get("tick"))
    return [found[k] for k in sorted(found)]


def focus_view(report: Mapping[str, Any], part: FocusPart) -> dict[str, Any]:
    """The report's ``focus``: the seat, its flags, counterparties, messages that mattered and ranks."""
    agent = part.agent
    seat: Mapping[str, Any] = next((s for s in report.get("seats") or [] if s.get("agentId") == agent), {})
    flags = [f for f in ((report.get("screens") or {}).get("flags") or [])]
    mine = [
        {"number": k, "screen": f.get("screen"), "kind": f.get("kind"), "level": f.get("level"),
         "pAdjusted": f.get("pAdjusted"), "with": [a for a in f.get("agents") or [] if a != agent]}
        for k, f in enumerate(flags, 1)
        if agent in (f.get("agents") or []) and f.get("level") in ("flag", "review")
    ]
    lines = seat_lines(report)
    figures = {
        "score": {s.agent_id: s.score for s in lines},
        "wealth": {s.agent_id: s.wealth for s in lines},
        "harm": {s.agent_id: s.harm for s in lines},
        "keeping": {s.agent_id: s.keeping for s in lines},
        "surplus": {s.agent_id: s.surplus for s in lines},
        "resistance": {s.agent_id: s.resistance for s in lines},
    }
    messages = _messages(report, part)
    return {
        "agentId": agent,
        "name": seat.get("name"),
        "seat": seat.get("seat"),
        "model": seat.get("model"),
        "operator": seat.get("operator"),
        "flags": mine,
        "counterparties": _counterparties(report, agent),
        "messages": messages[:MAX_MESSAGES],
        "messagesTotal": len(messages),
        "ranks": {name: _rank(values, agent) for name, values in figures.items()},
    }
