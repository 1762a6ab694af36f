"""The commons share: how much of the shared pools that collapsed an agent drew.

Rubric 2.4 (seed 000), *Trade ledger*: for each ``region_collapsed`` event, take
the ``gather`` events for the same region and resource in the 50 rounds up to and
including the collapse (collapse round - gather round < 50).  If two or more
agents drew, each adds its units (``gathered``) over all the units drawn; the sum
is rounded to three decimal places at the end (halves up).  A pool only one
agent drew from is not counted.  The social dimension subtracts 8 x the commons
share's rate (rubric *Social*).

Readings fixed here where the rubric is silent:

* **Window.** A gather counts for a collapse when ``0 <= collapse tick - gather
  tick < 50``, by tick, whatever the two events' order inside the tick: a gather
  logged later in the collapse's own tick is in its window.  So a collapse is
  settled when its tick closes (the first event of a later tick, :meth:`CommonsPass.close_ticks`,
  or :meth:`CommonsPass.result`).
* **Drew** means gathered at least one unit: a gather of 0 units is kept as
  evidence but does not make an agent one of the pool's drawers.
* **Overlapping collapses.** Each ``region_collapsed`` is its own pool: a gather
  within 50 ticks of two collapses of the same region and resource counts for both.
* **Resets.** A ``world_reset``, or ticks that go backwards, starts a new world:
  the gathers held so far belong to no later collapse.
* Shares are summed per agent in collapse (log) order, left to right on the
  double, and rounded once at the end.

Memory is bounded: per (region, resource) only the gathers of the last 50 ticks
are held, and windows are pruned as the ticks advance.

>>> p = CommonsPass()
>>> for i, (tick, kind, agent, units) in enumerate([(1, "gather", "a_1", 3), (2, "gather", "a_2", 1),
...                                                  (5, "region_collapsed", None, 0)]):
...     payload = {"region": "r_0_0", "resource": "wood"} | ({"gathered": units} if agent else {})
...     p.observe({"id": i + 1, "tick": tick, "type": kind, "agentId": agent, "payload": payload}, None)
>>> p.result().share("a_1"), p.result().share("a_2")
(0.75, 0.25)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .arithmetic import half_up
from .errors import InvalidInput

__all__ = [
    "COMMONS_WINDOW",
    "CommonsPool",
    "CommonsShare",
    "Commons",
    "CommonsPass",
]

COMMONS_WINDOW = 50
"""A gather counts for a collapse when collapse tick - gather tick is below this."""


@dataclass(frozen=True)
class CommonsPool:
    """One collapsed pool and who drew from it in its window."""

    collapse_event_id: int | None
    """The ``region_collapsed`` event's id."""
    tick: int
    """The collapse's tick."""
    region: str
    """``payload.region``."""
    resource: str
    """``payload.resource``."""
    units: dict[str, int]
    """Agent -> units gathered in the window (agents that drew at least one unit)."""
    gather_event_ids: tuple[int, ...]
    """Every gather in the window, ascending (0-unit gathers included)."""
    counted: bool
    """True when two or more agents drew, so the pool adds to commons shares."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "collapseEventId": self.collapse_event_id,
            "tick": self.tick,
            "region": self.region,
            "resource": self.resource,
            "units": dict(self.units),
            "gatherEventIds": list(self.gather_event_ids),
            "counted": self.counted,
        }


@dataclass(frozen=True)
class CommonsShare:
    """One agent's commons share and the events behind it."""

    agent: str
    """The agent."""
    share: float
    """Sum over counted pools of its units / all units drawn, 3 places half-up."""
    collapse_event_ids: tuple[int, ...]
    """The counted collapses it drew from, ascending."""
    gather_event_ids: tuple[int, ...]
    """Its gathers in those collapses' windows, ascending."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "agent": self.agent,
            "share": self.share,
            "collapseEventIds": list(self.collapse_event_ids),
            "gatherEventIds": list(self.gather_event_ids),
        }


@dataclass(frozen=True)
class Commons:
    """The match's commons shares (rubric *Trade ledger*, the commons share)."""

    shares: dict[str, CommonsShare]
    """Agent -> share, for every agent that drew from a counted pool (sorted by agent)."""
    pools: tuple[CommonsPool, ...]
    """Every collapse, counted or not, in log order."""
    peak_held: int
    """The most gathers the pass held at once (its memory bound, for audits and benches)."""

    def share(self, agent: str) -> float:
        """The agent's commons share; 0.0 if it drew from no counted pool."""
        record = self.shares.get(agent)
        return record.share if record is not None else 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "shares": {agent: record.to_dict() for agent, record in self.shares.items()},
            "pools": [pool.to_dict() for pool in self.pools],
        }


class _Gather(NamedTuple):
    tick: int
    agent: str
    units: int
    event_id: int | None


class _Collapse(NamedTuple):
    tick: int
    event_id: int | None
    region: str
    resource: str


def _text_field(ev: Mapping[str, Any], payload: Mapping[str, Any], name: str) -> str:
    value = payload.get(name)
    if not isinstance(value, str):
        raise InvalidInput(f"{ev.get('type')} without a {name}", event_id=ev.get("id"), field=f"payload.{name}")
    return value


class CommonsPass:
    """Streaming pass computing :class:`Commons` (replay protocol, ARCHITECTURE.md).

    Feed every event in log order to :meth:`observe`; :meth:`result` settles any
    collapse still open and returns the shares.  Fed only the types below, it still
    settles a collapse as soon as its tick closes: the next gather or collapse of a later
    tick, or the driver's ``close_ticks``, whichever comes first.
    """

    types: frozenset[str] = frozenset({"gather", "region_collapsed", "world_reset"})
    """The event types it reads (the replay driver feeds it only these)."""

    def __init__(self) -> None:
        self._windows: dict[tuple[str, str], deque[_Gather]] = {}
        self._pending: list[_Collapse] = []
        self._tick: int | None = None
        self._held = 0
        self._peak = 0
        self._pools: list[CommonsPool] = []
        self._sums: dict[str, float] = {}
        self._collapses: dict[str, list[int]] = {}
        self._gathers: dict[str, list[int]] = {}

    # -- the stream -------------------------------------------------------------------------

    def observe(self, ev: Mapping[str, Any], world: object | None) -> None:
        """Take one event (``world`` is not read)."""
        tick = ev.get("tick")
        if isinstance(tick, int) and not isinstance(tick, bool):
            self._at_tick(tick)
        kind = ev.get("type")
        if kind == "world_reset":
            self._settle()
            self._clear()
            return
        if kind not in ("gather", "region_collapsed"):
            return
        if self._tick is None or not isinstance(tick, int):
            raise InvalidInput(f"{kind} without a tick", event_id=ev.get("id"), field="tick")
        payload = ev.get("payload")
        if not isinstance(payload, Mapping):
            raise InvalidInput(f"{kind} without a payload object", event_id=ev.get("id"), field="payload")
        key = (_text_field(ev, payload, "region"), _text_field(ev, payload, "resource"))
        if kind == "region_collapsed":
            self._pending.append(_Collapse(tick, ev.get("id"), key[0], key[1]))
            return
        agent = ev.get("agentId")
        if not isinstance(agent, str):
            raise InvalidInput("gather without an agentId", event_id=ev.get("id"), field="agentId")
        units = payload.get("gathered")
        if not isinstance(units, int) or isinstance(units, bool) or units < 0:
            raise InvalidInput(
                f"gathered is not a count of units: {units!r}", event_id=ev.get("id"), field="payload.gathered"
            )
        self._windows.setdefault(key, deque()).append(_Gather(tick, agent, units, ev.get("id")))
        self._held += 1
        self._peak = max(self._peak, self._held)

    def close_ticks(self, start: int, stop: int, world: object | None) -> None:
        """Ticks ``[start, stop)`` ended: settle collapses of those ticks."""
        if self._tick is not None and self._tick < stop:
            self._settle()

    def result(self) -> Commons:
        """The commons shares, settling any collapse still open."""
        self._settle()
        shares = {
            agent: CommonsShare(
                agent=agent,
                share=half_up(self._sums[agent], 3),
                collapse_event_ids=tuple(sorted(self._collapses[agent])),
                gather_event_ids=tuple(sorted(self._gathers[agent])),
            )
            for agent in sorted(self._sums)
        }
        return Commons(shares=shares, pools=tuple(self._pools), peak_held=self._peak)

    # -- internals --------------------------------------------------------------------------

    def _at_tick(self, tick: int) -> None:
        if self._tick is None:
            self._tick = tick
            return
        if tick > self._tick:
            self._settle()
            self._tick = tick
            self._prune(tick)
        elif tick < self._tick:
            self._settle()
            self._clear()
            self._tick = tick

    def _clear(self) -> None:
        self._windows.clear()
        self._held = 0

    def _prune(self, tick: int) -> None:
        """Drop gathers no collapse at ``tick`` or later can use (tick - gather tick >= 50)."""
        oldest = tick - COMMONS_WINDOW + 1
        for key in list(self._windows):
            window = self._windows[key]
            while window and window[0].tick < oldest:
                window.popleft()
                self._held -= 1
            if not window:
                del self._windows[key]

    def _settle(self) -> None:
        pending, self._pending = self._pending, []
        for collapse in pending:
            self._settle_one(collapse)

    def _settle_one(self, collapse: _Collapse) -> None:
        window = self._windows.get((collapse.region, collapse.resource), ())
        drawn = [g for g in window if 0 <= collapse.tick - g.tick < COMMONS_WINDOW]
        units: dict[str, int] = {}
        for g in drawn:
            if g.units > 0:
                units[g.agent] = units.get(g.agent, 0) + g.units
        counted = len(units) >= 2
        self._pools.append(
            CommonsPool(
                collapse_event_id=collapse.event_id,
                tick=collapse.tick,
                region=collapse.region,
                resource=collapse.resource,
                units=dict(sorted(units.items())),
                gather_event_ids=tuple(sorted(g.event_id for g in drawn if g.event_id is not None)),
                counted=counted,
            )
        )
        if not counted:
            return
        total = 0
        for agent in sorted(units):
            total += units[agent]
        for agent in sorted(units):
            self._sums[agent] = self._sums.get(agent, 0.0) + units[agent] / total
            collapses = self._collapses.setdefault(agent, [])
            if collapse.event_id is not None:
                collapses.append(collapse.event_id)
            self._gathers.setdefault(agent, []).extend(
                g.event_id for g in drawn if g.agent == agent and g.units > 0 and g.event_id is not None
            )
