"""The replay driver: one loop over the events feeding every pass (ARCHITECTURE.md, *Replay protocol*).

>>> events = [
...     {"id": 1, "tick": 0, "type": "agent_spawned", "agentId": "a_1", "payload": {"region": "r_0_0"}},
...     {"id": 2, "tick": 0, "type": "agent_spawned", "agentId": "a_2", "payload": {"region": "r_0_0"}},
...     {"id": 3, "tick": 2, "type": "move", "agentId": "a_2", "payload": {"from": "r_0_0", "to": "r_1_0"}},
... ]
>>> tl = replay(events, {"startedAtTick": 0, "endedAtTick": 4}, [])
>>> sorted(tl.agents_at("r_0_0", 1)), sorted(tl.agents_at("r_0_0", 2))
(['a_1', 'a_2'], ['a_1'])
>>> tl.region_at("a_2", 3)
'r_1_0'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .timeline import Timeline
from .world import Event, Pass, Tally, World

__all__ = ["replay"]

Handler = Callable[[Event, World], None]
"""What an event is handed to: a pass's ``observe`` or the world's own handler for its type."""

Closer = Callable[[int, int], None]
"""Closes the ticks ``[start, stop)`` (clipped to the match rounds) on every tick-closing pass."""


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


Route = tuple[tuple[Handler, ...], "dict[Any, int] | None"]
"""What the loop does with an event of one type: its handlers, in order, and the type's tally by
``agentId`` (None when no pass counts the type)."""


def _tallied(passes: Sequence[Pass]) -> frozenset[str] | None:
    """The event types some pass counts from the tally (None: every type; empty: no counting pass)."""
    types: set[str] = set()
    for p in passes:
        if callable(getattr(p, "counted", None)):
            wanted = getattr(p, "tallied", None)
            if wanted is None:
                return None
            types.update(wanted)
    return frozenset(types)


def _everyone(passes: Sequence[Pass]) -> tuple[Handler, ...]:
    """The handlers of the passes that want every event (``types`` None or absent)."""
    return tuple(p.observe for p in passes if getattr(p, "types", None) is None)


def _routes(passes: Sequence[Pass], world: World, counting: frozenset[str] | None,
            tally: dict[str, dict[Any, int]]) -> tuple[dict[str, Route], Callable[[str], Route]]:
    """The route of each event type named (the handlers of every pass that wants it, in the order
    given, then the world's handler for the type; its count in ``tally`` if it is in ``counting``,
    None standing for every type), and how to route a type no one named (to the passes that want
    every event: ``types`` None or absent), remembered once made."""
    everyone = _everyone(passes)
    wanted: set[str] = set()
    for p in passes:
        types = getattr(p, "types", None)
        if types is not None:
            wanted.update(types)
    world_handlers = world._handlers()
    wanted.update(world_handlers)
    if counting is not None:
        wanted.update(counting)
    routes: dict[str, Route] = {}

    def count(typ: str) -> dict[Any, int] | None:
        if counting is None or typ in counting:
            by_agent = tally[typ] = {}
            return by_agent
        return None

    for typ in wanted:
        chain: list[Handler] = [
            p.observe
            for p in passes
            if (types := getattr(p, "types", None)) is None or typ in types
        ]
        if typ in world_handlers:
            chain.append(world_handlers[typ])
        routes[typ] = (tuple(chain), count(typ))

    def unnamed(typ: str) -> Route:
        route = routes[typ] = (everyone, count(typ))
        return route

    return routes, unnamed


def _closer(passes: Sequence[Pass], world: World, low: int, high: int) -> Closer | None:
    """``close(start, stop)``: the ticks ``[start, stop)`` clipped to ``[low, high)`` handed to every
    pass's ``close_ticks`` with the world as it stands (nothing when the clipped span is empty);
    None when no pass closes ticks."""
    closers: tuple[Callable[[int, int, World], None], ...] = tuple(
        closer for p in passes if callable(closer := getattr(p, "close_ticks", None))
    )
    if not closers:
        return None

    def close(start: int, stop: int) -> None:
        s = start if start > low else low
        e = stop if stop < high else high
        if s < e:
            for c in closers:
                c(s, e, world)

    return close


def _close_rest(close: Closer, cur: int | None, lo: int | None, hi: int | None) -> None:
    """After the last event: the ticks from the last event's (``cur``) up to ``hi`` (or that tick
    alone, without ``hi``); with no event at all, the match rounds ``[lo, hi)`` when both are known."""
    if cur is None:
        if lo is not None and hi is not None:
            close(lo, hi)
    else:
        close(cur, hi if hi is not None else cur + 1)


def replay(
    events: Iterable[Event],
    archive: Mapping[str, Any],
    passes: Sequence[Pass] = (),
) -> Timeline:
    """Run every pass over the events in ONE loop; return the :class:`Timeline`.

    For each event: (1) if its tick is greater than the current tick, the ticks
    from the current one up to it ended: ``close_ticks(current, tick, world)`` on
    every pass that defines it, with the world in the end-of-tick state of the
    current tick; (2) ``observe(ev, world)`` on every pass that wants its type, in
    the order given; (3) the world applies it.  After the last event, the remaining
    ticks up to the archive's ``endedAtTick`` are closed.  Then every pass that reads the tally
    (:class:`~daishi_forensics.replay.world.CountingPass`) is handed the count of the events by
    type and ``agentId`` (of every type, or of those the counting passes name in ``tallied``),
    which the loop keeps (only then) in place of a call per event.

    Closed spans are clipped to the match rounds ``[startedAtTick, endedAtTick)``
    (rubric *Rates*): a tick outside them is never closed.  Without
    ``startedAtTick`` there is no lower bound; without ``endedAtTick`` the last
    event's tick is the last tick closed.  If ``startedAtTick`` is before the first
    event's tick, the empty ticks in between are closed with the empty world.

    Parameters
    ----------
    events:
        v3 event dicts in log order (the read boundary's output); consumed once.
    archive:
        the match archive (contract §4); ``startedAtTick`` / ``endedAtTick`` are read.
    passes:
        the analyses (:class:`Pass`, optionally :class:`TickClosingPass`).
    """
    lo = _int_or_none(archive.get("startedAtTick"))
    hi = _int_or_none(archive.get("endedAtTick"))
    world = World(lo if lo is not None else 0)
    tally: dict[str, dict[Any, int]] = {}
    counting = _tallied(passes)
    routes, unnamed = _routes(passes, world, counting, tally)
    close = _closer(passes, world, lo if lo is not None else -(1 << 62), hi if hi is not None else 1 << 62)

    cur: int | None = None
    first: int | None = None
    t: int | None = None
    regressions = 0
    count = 0

    def advance(t: int) -> None:
        """The event's tick differs from the current one: close the ticks it ends, or count a regression."""
        nonlocal cur, first, regressions
        if cur is None:
            if close and lo is not None and t > lo:
                close(lo, t)
            cur = first = t
            world.tick = t
        elif t > cur:
            if close:
                close(cur, t)
            cur = t
            world.tick = t
        else:
            regressions += 1

    # two loops, so that a replay without a tally pays nothing for it
    if counting is None or counting:
        for count, ev in enumerate(events, 1):  # noqa: B007 (the total, read after the loop)
            t = ev["tick"]
            if t != cur:
                advance(t)
            try:  # a subscript, not a call of `get`: a type is unnamed once at most
                handlers, by_agent = routes[ev["type"]]
            except KeyError:
                handlers, by_agent = unnamed(ev["type"])
            if by_agent is not None:
                try:  # a subscript and an add, no call: an agent's first event of a type is the exception
                    by_agent[ev["agentId"]] += 1
                except KeyError:  # (or an event without an agentId: counted under None)
                    agent = ev.get("agentId")
                    by_agent[agent] = by_agent.get(agent, 0) + 1
            for handle in handlers:
                handle(ev, world)
    else:
        plain = {typ: handlers for typ, (handlers, _) in routes.items()}.get
        everyone = _everyone(passes)
        for count, ev in enumerate(events, 1):  # noqa: B007
            t = ev["tick"]
            if t != cur:
                advance(t)
            for handle in plain(ev["type"], everyone):
                handle(ev, world)

    if close:
        _close_rest(close, cur, lo, hi)
    counts: Tally = {typ: by_agent for typ, by_agent in tally.items() if by_agent}
    for p in passes:
        counted: Callable[[Tally, World], None] | None = getattr(p, "counted", None)
        if callable(counted):
            counted(counts, world)
    return Timeline(world._tracks, lo, hi, count, regressions, first, t)
