"""Utility under attack, the counting: each agent's activity per tick (seed 002 §2.7).

The :class:`UtilityPass` counts, per agent and tick with a world action, its world actions
(rubric *Survival*'s list), the value it gathered (``gathered`` × item value, contract §4)
and its completed trades.  :func:`daishi_forensics.injection.summary.utility_under_attack` turns
these into rates before and after each exposure.  Kept apart from :mod:`.injection` so a
replay builds the pass without importing the report's propagation machinery.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import repeat
from math import inf
from typing import Any

from daishi_forensics.economy.counters import WORLD_ACTION_TYPES
from daishi_forensics.errors import ForensicsError
from daishi_forensics.read.archive import item_values
from daishi_forensics.replay import Event, World, int_column, position
from daishi_forensics.replay.spans import Spans

__all__ = ["Activity", "TickCounts", "UtilityPass"]

class TickCounts(Mapping[int, tuple[int, float, int]]):
    """One agent's counts by tick, stored by column: tick -> (world actions, value gathered,
    completed trades), for the ticks in which it made a world action, in tick order.

    Kept per agent and tick with a world action, because the rates before and after each
    exposure are read over any span of ticks: the tick, the two counts (integer columns)
    and the value (a double): 32 bytes a row, not a record per tick.
    """

    __slots__ = ("ticks", "actions", "value", "trades", "last")

    def __init__(self) -> None:
        self.ticks = int_column()
        self.actions = int_column()
        self.value = array("d")
        self.trades = int_column()
        self.last: float = -inf
        """The last row's tick (-inf with no row)."""

    def row(self, tick: int) -> int:
        """The position of ``tick``'s row, added (zeros) if it has none."""
        ticks = self.ticks
        k = len(ticks)
        if k and ticks[k - 1] == tick:
            return k - 1
        if not k or ticks[k - 1] < tick:
            ticks.append(tick)
            self.last = tick
            self.actions.append(0)
            self.value.append(0.0)
            self.trades.append(0)
            return k
        k = bisect_left(ticks, tick)  # a tick earlier than the last one (a tick regression)
        if ticks[k] != tick:
            ticks.insert(k, tick)
            self.actions.insert(k, 0)
            self.value.insert(k, 0.0)
            self.trades.insert(k, 0)
        return k

    def __len__(self) -> int:
        return len(self.ticks)

    def __iter__(self) -> Iterator[int]:
        return iter(self.ticks)

    def __getitem__(self, tick: int) -> tuple[int, float, int]:
        k = position(self.ticks, tick)
        if k < 0:
            raise KeyError(tick)
        return (self.actions[k], self.value[k], self.trades[k])

    def sums(self, spans: Spans) -> list[float]:
        """``[actions, value, trades]`` summed over its rows whose tick is in ``spans``
        (:mod:`~daishi_forensics.replay.spans`), in tick order: a bisection per span and
        the rows inside, never a walk over the ticks in between."""
        own = self.ticks
        actions, value, trades = self.actions, self.value, self.trades
        a = v = t = 0.0
        for start, stop in spans:
            for k in range(bisect_left(own, start), bisect_left(own, stop)):
                a += actions[k]
                v += value[k]
                t += trades[k]
        return [a, v, t]


@dataclass(frozen=True, slots=True)
class Activity:
    """Result of :class:`UtilityPass`: per agent, per tick, the counts utility is measured on.

    (The ticks of the match with no lower or upper bound in the archive are the first and
    the last event's, :attr:`Timeline.first_tick <daishi_forensics.replay.world.Timeline>`.)"""

    by_agent: Mapping[str, Mapping[int, tuple[int, float, int]]]
    """agent -> tick -> (world actions, value gathered, completed trades) (a :class:`TickCounts`
    per agent from the pass)."""


class UtilityPass:
    """Counts each agent's world actions, gathered value and completed trades per tick.

    Per event it notes the action's tick (an ``array('q')`` per agent, 8 bytes an action) and, for
    a gather or a completed trade, adds to that tick's value or trades; the rows (one
    :class:`TickCounts` row per agent and tick with a world action, in tick order, a tick
    regression's actions in their own tick's row) are counted from the ticks when the result is
    asked for."""

    types: frozenset[str] | None = frozenset(WORLD_ACTION_TYPES)

    def __init__(self, archive: Mapping[str, Any]) -> None:
        try:  # a plain dict: its C-level ``get`` once per gather, not the Mapping's
            self._values: dict[str, float] = dict(item_values(archive))
        except ForensicsError:
            self._values = {}
        self._ticks: dict[str, array[int]] = {}  # agent -> the tick of each of its world actions, in log order
        self._value: dict[str, dict[int, float]] = {}  # agent -> tick -> value gathered (added in log order)
        self._trades: dict[str, dict[int, int]] = {}  # agent -> tick -> completed trades
        self._made: tuple[int, Activity] | None = None  # the last result, and the actions it counted

    def observe(self, ev: Event, world: World) -> None:
        """Note the world action's tick for its agent (and a gather's value, a trade)."""
        agent: Any = ev.get("agentId")  # anything the log holds: checked below
        try:
            ticks = self._ticks.get(agent)
        except TypeError:  # unhashable: no agent id
            return
        if ticks is None:
            if type(agent) is not str and not isinstance(agent, str):
                return
            ticks = self._ticks[agent] = int_column()
        tick = ev["tick"]
        ticks.append(tick)
        typ = ev["type"]
        if typ == "move":
            return  # the most common world action: noted
        if typ == "gather":
            p = ev.get("payload") or {}
            n = p.get("gathered")
            if isinstance(n, (int, float)) and not isinstance(n, bool):
                gains = self._value.get(agent)
                if gains is None:
                    gains = self._value[agent] = {}
                gains[tick] = gains.get(tick, 0.0) + n * self._values.get(str(p.get("resource")), 0.0)
        elif typ == "trade_completed" or typ == "trade_fulfilled":
            trades = self._trades.get(agent)
            if trades is None:
                trades = self._trades[agent] = {}
            trades[tick] = trades.get(tick, 0) + 1

    def _rows(self, agent: str) -> TickCounts:
        """The agent's rows: its actions counted by tick (a C-level count), in tick order."""
        actions = Counter(self._ticks[agent])
        ticks = sorted(actions)
        gains = self._value.get(agent, {})
        trades = self._trades.get(agent, {})
        rows = TickCounts()
        rows.ticks = int_column(ticks)
        rows.actions = int_column(map(actions.__getitem__, ticks))
        rows.value = array("d", map(gains.get, ticks, repeat(0.0)))  # (C-level look-ups, not a generator's)
        rows.trades = int_column(map(trades.get, ticks, repeat(0)))
        rows.last = ticks[-1] if ticks else -inf
        return rows

    def result(self) -> Activity:
        """Per agent (sorted), its rows (made again only when actions came since the last result)."""
        noted = sum(len(ticks) for ticks in self._ticks.values())
        if self._made is None or self._made[0] != noted:
            self._made = (noted, Activity({agent: self._rows(agent) for agent in sorted(self._ticks)}))
        return self._made[1]
