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

Memory: per (region, resource) only the gathers of the last 50 ticks are held, and
they are pruned as the ticks advance (oldest first, across all pools).  The result lists
every collapse with its evidence, so each settled collapse is kept, by column (:class:`PoolLog`: its id and tick in integer columns, its
pool as a code into a table of the distinct pools, the gather ids of its window
flattened in a :class:`~daishi_forensics.replay.Rows`, and its drawers' units as one
tuple of ``(agent code, units)``: a sum of gathers, which no schema bounds, so kept
as Python integers); per agent, its share and the ids behind it, in integer columns.
:class:`CommonsPool` records are made when read.

>>> p = CommonsPass()
>>> for i, (tick, kind, agent, units) in enumerate([(1, "gather", "a_1", 3), (2, "gather", "a_2", 1),
...                                                  (5, "region_collapsed", None, 0)]):
...     payload = {"region": "r_0_0", "resource": "wood"} | ({"gathered": units} if agent else {})
...     p.observe({"id": i + 1, "tick": tick, "type": kind, "agentId": agent, "payload": payload}, None)
>>> p.result().share("a_1"), p.result().share("a_2")
(0.75, 0.25)
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from daishi_forensics.arithmetic import half_up
from daishi_forensics.replay import RecordLog, Rows, Table, int_column
from daishi_forensics.errors import InvalidInput
from daishi_forensics.jsonio import shown

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

    collapse_event_id: int
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
    pools: Sequence[CommonsPool]
    """Every collapse, counted or not, in log order (a :class:`PoolLog`: a read-only sequence,
    equal to the tuple of its records)."""
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


class PoolLog(RecordLog[CommonsPool]):
    """The collapses of a match, stored by column; a read-only sequence of :class:`CommonsPool`
    (records are made when read).  Holds the first ``n`` rows of columns the pass may still
    append to (a result stays as it was)."""

    __slots__ = ("_n", "_ids", "_ticks", "_keys", "_pools", "_agents", "_units", "_gathers")

    def __init__(self, n: int, ids: Sequence[int], ticks: Sequence[int], keys: Sequence[int],
                 pools: Sequence[tuple[str, str]], agents: Sequence[str], units: Sequence[tuple[int, ...]],
                 gathers: Rows) -> None:
        self._n = n
        self._ids = ids          # collapse event ids
        self._ticks = ticks
        self._keys = keys        # numbers into pools: (region, resource)
        self._pools = pools
        self._agents = agents    # the agents, by number
        self._units = units      # per collapse: agent number, units, agent number, units ... (agents sorted)
        self._gathers = gathers  # per collapse: the gather ids, ascending

    def __len__(self) -> int:
        return self._n

    def _record(self, i: int) -> CommonsPool:
        region, resource = self._pools[self._keys[i]]
        row = self._units[i]
        agents = self._agents
        return CommonsPool(
            collapse_event_id=self._ids[i],
            tick=self._ticks[i],
            region=region,
            resource=resource,
            units={agents[row[k]]: row[k + 1] for k in range(0, len(row), 2)},
            gather_event_ids=self._gathers[i],
            counted=len(row) >= 4,
        )


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
        self._keys = Table()  # (region, resource) -> number; its column: each collapse's pool
        self._agents = Table()  # agent -> number
        # the gathers held: per pool number, those of the last 50 ticks as (tick, agent number,
        # units, event id); and the pool numbers of all of them in log order (oldest first)
        self._windows: dict[int, deque[tuple[int, int, int, int]]] = {}
        self._order: deque[int] = deque()
        self._pending: list[tuple[int, int, int]] = []  # collapses not settled: (tick, id, pool number)
        self._tick: int | None = None
        self._held = 0
        self._peak = 0
        # the settled collapses, by column (PoolLog)
        self._ids = int_column()
        self._ticks = int_column()
        self._units: list[tuple[int, ...]] = []  # per collapse: agent number, units, agent number, units ...
        self._gathers = Rows()
        # per agent (name): the sum of its shares, its counted collapses and its gathers in them
        self._sums: dict[str, float] = {}
        self._collapses: dict[str, array[int]] = {}
        self._gathered: dict[str, array[int]] = {}

    # -- the stream -------------------------------------------------------------------------

    def observe(self, ev: Mapping[str, Any], world: object | None) -> None:
        """Take one event (``world`` is not read)."""
        tick = ev.get("tick")
        if type(tick) is int or (isinstance(tick, int) and not isinstance(tick, bool)):
            if tick != self._tick:  # the same tick as the last event's: nothing to settle or prune
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
        if type(payload) is not dict and not isinstance(payload, Mapping):  # (a dict: no abstract-class look-up)
            raise InvalidInput(f"{kind} without a payload object", event_id=ev.get("id"), field="payload")
        region, resource = payload.get("region"), payload.get("resource")
        if type(region) is str and type(resource) is str:
            key = (region, resource)
        else:  # a missing or odd field: the error names it
            key = (_text_field(ev, payload, "region"), _text_field(ev, payload, "resource"))
        # the tables' codes looked up in place (Table.code numbers what is new, or a table let go)
        keys = self._keys.number
        number = keys.get(key) if keys is not None else None
        if number is None:
            number = self._keys.code(key)
        if kind == "region_collapsed":
            self._pending.append((tick, ev["id"], number))
            return
        agent = ev.get("agentId")
        if type(agent) is not str and not isinstance(agent, str):
            raise InvalidInput("gather without an agentId", event_id=ev.get("id"), field="agentId")
        units = payload.get("gathered")
        if type(units) is not int and (not isinstance(units, int) or isinstance(units, bool)) or units < 0:
            raise InvalidInput(
                f"gathered is not a count of units: {shown(units)}", event_id=ev.get("id"), field="payload.gathered"
            )
        agents = self._agents.number
        who = agents.get(agent) if agents is not None else None
        if who is None:
            who = self._agents.code(agent)
        window = self._windows.get(number)
        if window is None:
            window = self._windows[number] = deque()
        window.append((tick, who, units, ev["id"]))
        self._order.append(number)
        self._held += 1
        if self._held > self._peak:
            self._peak = self._held

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
                gather_event_ids=tuple(sorted(self._gathered[agent])),
            )
            for agent in sorted(self._sums)
        }
        pools = PoolLog(len(self._ids), self._ids, self._ticks, self._keys.column, self._keys.values,
                        self._agents.values, self._units, self._gathers)
        return Commons(shares=shares, pools=pools, peak_held=self._peak)

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
        self._order.clear()
        self._held = 0

    def _prune(self, tick: int) -> None:
        """Drop gathers no collapse at ``tick`` or later can use (tick - gather tick >= 50).

        Gathers come in tick order (a tick going back starts a new world), so the oldest
        held is the first of :attr:`_order`, and the first of its pool's window."""
        oldest = tick - COMMONS_WINDOW + 1
        order, windows = self._order, self._windows
        while order:
            number = order[0]
            window = windows[number]
            if window[0][0] >= oldest:
                break
            order.popleft()
            window.popleft()
            self._held -= 1
            if not window:
                del windows[number]

    def _settle(self) -> None:
        pending, self._pending = self._pending, []
        for collapse in pending:
            self._settle_one(*collapse)

    def _settle_one(self, tick: int, event_id: int, number: int) -> None:
        window = self._windows.get(number, ())
        drawn = [g for g in window if 0 <= tick - g[0] < COMMONS_WINDOW]
        units: dict[int, int] = {}
        gathers: dict[int, list[int]] = {}  # each agent's gathers of some units, in log order
        for _, who, n, gather_id in drawn:
            if n > 0:
                got = gathers.get(who)
                if got is None:
                    units[who] = n
                    gathers[who] = [gather_id]
                else:
                    units[who] += n
                    got.append(gather_id)
        names = self._agents.values
        drew = sorted(units, key=names.__getitem__)  # by agent id
        self._ids.append(event_id)
        self._ticks.append(tick)
        self._keys.column.append(number)
        self._units.append(tuple(x for who in drew for x in (who, units[who])))
        self._gathers.append(sorted(g[3] for g in drawn))
        if len(units) < 2:
            return
        total = 0
        for who in drew:
            total += units[who]
        for who in drew:
            agent = names[who]
            self._sums[agent] = self._sums.get(agent, 0.0) + units[who] / total
            collapses = self._collapses.get(agent)
            if collapses is None:
                collapses = self._collapses[agent] = int_column()
                self._gathered[agent] = int_column()
            collapses.append(event_id)
            self._gathered[agent].extend(gathers[who])
