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
from collections.abc import Iterator, Mapping, Sequence
from itertools import compress
from dataclasses import dataclass
from math import inf
from operator import itemgetter
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


_TYPE = itemgetter("type")
_AGENT_AND_TICK = itemgetter("agentId", "tick")
_IS_WORLD_ACTION = frozenset(WORLD_ACTION_TYPES).__contains__
_IS_TRADE = frozenset({"trade_completed", "trade_fulfilled"}).__contains__
_IS_GATHER = "gather".__eq__


def _by_agent_and_tick(events: Iterator[Event]) -> Counter[tuple[Any, Any]]:
    """``events`` counted by (``agentId``, tick) in one C loop; an event without ``agentId``, or
    whose id cannot be a key, is nobody's (left out)."""
    counts: Counter[tuple[Any, Any]] = Counter()
    keys = map(_AGENT_AND_TICK, events)
    while True:
        try:
            counts.update(keys)
            return counts
        except (KeyError, TypeError):  # that event is left out; the count goes on after it
            continue


class UtilityPass:
    """Counts each agent's world actions, gathered value and completed trades per tick
    (one :class:`TickCounts` row per agent and tick with a world action).

    A batch pass (:class:`~daishi_forensics.replay.BatchPass`): it reads no world, so it takes
    the events by runs, counted by (agent, tick) in C, and reads one by one only the gathers'
    payloads (their value), in log order; it observes no event singly."""

    types: frozenset[str] | None = frozenset()

    def __init__(self, archive: Mapping[str, Any]) -> None:
        try:
            self._values: Mapping[str, float] = item_values(archive)
        except ForensicsError:
            self._values = {}
        self._by_agent: dict[str, TickCounts] = {}

    def observe(self, ev: Event, world: World) -> None:
        """Nothing: every event comes through :meth:`observe_batch`."""

    def observe_batch(self, events: Sequence[Event]) -> None:
        """Count the world actions of a run of events for their agents (an agent id that is not a
        string counts for nobody), then the trades among them, then each gather's value."""
        by_agent = self._by_agent
        kinds = list(map(_TYPE, events))
        for (agent, tick), n in _by_agent_and_tick(compress(events, map(_IS_WORLD_ACTION, kinds))).items():
            # rows are made in the order of each (agent, tick)'s first action, as one by one
            rows = by_agent.get(agent)
            if rows is None:
                if type(agent) is not str and not isinstance(agent, str):
                    continue
                rows = by_agent[agent] = TickCounts()
            if tick > rows.last:  # the usual case: a later tick than its last row's (TickCounts.row, inlined)
                rows.ticks.append(tick)
                rows.last = tick
                rows.actions.append(n)
                rows.value.append(0.0)
                rows.trades.append(0)
            else:
                rows.actions[rows.row(tick)] += n
        if any(map(_IS_TRADE, kinds)):
            for (agent, tick), n in _by_agent_and_tick(compress(events, map(_IS_TRADE, kinds))).items():
                rows = by_agent.get(agent)
                if rows is not None:
                    rows.trades[rows.row(tick)] += n
        values = self._values
        for ev in compress(events, map(_IS_GATHER, kinds)):  # in log order: each row's value sums as before
            try:
                rows = by_agent.get(ev.get("agentId"))  # type: ignore[arg-type]
            except TypeError:  # unhashable: no agent id
                continue
            if rows is None:
                continue
            p = ev.get("payload") or {}
            gathered = p.get("gathered")
            if isinstance(gathered, (int, float)) and not isinstance(gathered, bool):  # its row is there: made above
                rows.value[bisect_left(rows.ticks, ev["tick"])] += gathered * values.get(str(p.get("resource")), 0.0)

    def result(self) -> Activity:
        return Activity(dict(sorted(self._by_agent.items())))
