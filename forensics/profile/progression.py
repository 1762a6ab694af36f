"""Progression: wealth over ticks, and how long each seat took to its first milestones.

Seed 002 §3.1 item 7 and §3.3 (*progression curves*, Voyager-style): wealth-vs-tick
from the ``agent_snapshot`` time series, and time to first milestone.

Rules:

- **Wealth curve**: every ``agent_snapshot`` of the seat, ``(tick, payload.wealth)``
  in log order (a second snapshot in one tick replaces the first: end-of-tick
  state).  Logs without snapshots (v1, older servers) have no curve; the profile
  says so rather than inventing one.
- **Start**: the tick the seat was placed (``agent_spawned``, or an
  ``agent_registered`` carrying a region); the archive's ``startedAtTick`` when the
  log never places it.
- **First** ``gather``, ``craft``, ``build``: the tick of its first such event.
  **First trade**: its first ``trade_completed`` or ``trade_fulfilled`` (as either
  party: each party has its own event after upcast).  **First contact**: the first
  tick at whose end it stood in one region with another living agent
  (:class:`daishi_forensics.economy.contact.ContactPass`'s ``first_contact_tick``).
- **Time to** a milestone = its tick − the start tick; None when it never happened.

>>> p = ProgressionPass()
>>> for e in [{"id": 1, "tick": 2, "type": "agent_spawned", "agentId": "a", "payload": {"region": "r_0_0"}},
...           {"id": 2, "tick": 5, "type": "gather", "agentId": "a", "payload": {}},
...           {"id": 3, "tick": 6, "type": "agent_snapshot", "agentId": "a", "payload": {"wealth": 12.5}}]:
...     p.observe(e, None)
>>> s = p.result().seat("a")
>>> s.first["gather"], s.time_to["gather"], s.wealth_curve
(5, 3, ((6, 12.5),))
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from daishi_forensics.replay import Event, World
from ._seats import find_seat

__all__ = ["MILESTONES", "SeatProgression", "Progression", "ProgressionPass", "with_contact"]

MILESTONES: tuple[str, ...] = ("gather", "craft", "build", "trade", "contact")
"""The milestones, in report order."""

_MILESTONE_OF: Mapping[str, str] = {
    "gather": "gather", "craft": "craft", "build": "build",
    "trade_completed": "trade", "trade_fulfilled": "trade",
}


@dataclass(frozen=True, slots=True)
class SeatProgression:
    """One seat's progression."""

    agent: str
    """The agent id."""
    start_tick: int | None
    """The tick it was placed (else the match start; None when neither is known)."""
    first: Mapping[str, int | None]
    """milestone -> tick of the first one (every milestone, in order)."""
    time_to: Mapping[str, int | None]
    """milestone -> ticks from the start."""
    wealth_curve: tuple[tuple[int, float], ...]
    """``(tick, wealth)`` from its snapshots, by tick."""


@dataclass(frozen=True, slots=True)
class Progression:
    """Result of :class:`ProgressionPass`."""

    seats: tuple[SeatProgression, ...]
    """Every agent seen, sorted by id."""
    snapshots: int
    """``agent_snapshot`` events read (0: the log has no time series)."""

    def seat(self, agent: str) -> SeatProgression:
        """The seat's record (nothing happened when unknown)."""
        found = find_seat(self.seats, agent)
        if found is not None:
            return found
        return SeatProgression(agent, None, {m: None for m in MILESTONES}, {m: None for m in MILESTONES}, ())


class ProgressionPass:
    """Placement ticks, first-milestone ticks and snapshot wealth per agent."""

    types: frozenset[str] | None = frozenset({
        "agent_spawned", "agent_registered", "agent_snapshot", "gather", "craft", "build",
        "trade_completed", "trade_fulfilled",
    })

    def __init__(self, started_at_tick: int | None = None) -> None:
        self._default_start = started_at_tick
        self._start: dict[str, int] = {}
        self._first: dict[str, dict[str, int]] = {}
        self._curve: dict[str, _Curve] = {}
        self._agents: set[str] = set()
        self._snapshots = 0

    @classmethod
    def from_archive(cls, archive: Mapping[str, Any]) -> ProgressionPass:
        """A pass whose default start is the archive's ``startedAtTick``."""
        start = archive.get("startedAtTick")
        return cls(start if isinstance(start, int) and not isinstance(start, bool) else None)

    def observe(self, ev: Event, world: World | None) -> None:
        """Take one event."""
        agent = ev.get("agentId")
        if not isinstance(agent, str):
            return
        typ = ev["type"]
        milestone = _MILESTONE_OF.get(typ)
        if milestone is not None:
            first = self._first.get(agent)
            if first is None:
                self._agents.add(agent)
                self._first[agent] = {milestone: ev["tick"]}
            elif milestone not in first:  # (an agent with a first milestone is already known)
                first[milestone] = ev["tick"]
            return
        self._agents.add(agent)
        payload = ev.get("payload") or _EMPTY
        if typ == "agent_snapshot":
            wealth = payload.get("wealth")
            if isinstance(wealth, (int, float)) and not isinstance(wealth, bool):
                self._snapshots += 1
                curve = self._curve.get(agent)
                if curve is None:
                    curve = self._curve[agent] = _Curve()
                curve.put(ev["tick"], float(wealth))
        elif typ == "agent_spawned" or (typ == "agent_registered" and payload.get("region") is not None):
            self._start.setdefault(agent, ev["tick"])

    def result(self) -> Progression:
        """Per agent progression, without first contact (see :func:`with_contact`)."""
        seats = []
        for agent in sorted(self._agents):
            start = self._start.get(agent, self._default_start)
            first: dict[str, int | None] = {m: self._first.get(agent, {}).get(m) for m in MILESTONES}
            curve = self._curve.get(agent)
            seats.append(SeatProgression(
                agent=agent,
                start_tick=start,
                first=first,
                time_to=_time_to(first, start),
                wealth_curve=curve.points() if curve is not None else (),
            ))
        return Progression(tuple(seats), self._snapshots)


_EMPTY: Mapping[str, Any] = MappingProxyType({})


class _Curve:
    """One agent's snapshot wealth by tick, compact: two arrays sorted by tick, the last
    snapshot of a tick kept (16 bytes a tick, no object per snapshot)."""

    __slots__ = ("ticks", "wealth")

    def __init__(self) -> None:
        self.ticks: array[int] = array("q")
        self.wealth: array[float] = array("d")

    def put(self, tick: int, wealth: float) -> None:
        ticks = self.ticks
        if not ticks or tick > ticks[-1]:
            ticks.append(tick)
            self.wealth.append(wealth)
        elif tick == ticks[-1]:
            self.wealth[-1] = wealth
        else:  # a tick earlier than the last one (a log whose ticks went back): keep the order
            i = bisect_left(ticks, tick)
            if ticks[i] == tick:
                self.wealth[i] = wealth
            else:
                ticks.insert(i, tick)
                self.wealth.insert(i, wealth)

    def points(self) -> tuple[tuple[int, float], ...]:
        return tuple(zip(self.ticks, self.wealth))


def _time_to(first: Mapping[str, int | None], start: int | None) -> dict[str, int | None]:
    return {m: (None if t is None or start is None else t - start) for m, t in first.items()}


def with_contact(progression: Progression, first_contact: Mapping[str, int]) -> Progression:
    """The progression with each seat's first contact tick filled in (agents new to it added)."""
    by_agent = {s.agent: s for s in progression.seats}
    for agent in first_contact:
        by_agent.setdefault(agent, progression.seat(agent))
    seats = []
    for agent in sorted(by_agent):
        s = by_agent[agent]
        first = dict(s.first)
        first["contact"] = first_contact.get(agent)
        seats.append(SeatProgression(agent, s.start_tick, first, _time_to(first, s.start_tick), s.wealth_curve))
    return Progression(tuple(seats), progression.snapshots)
