"""The queryable history a replay leaves behind: who stood where, alive or dormant, at every tick."""

from __future__ import annotations

from collections.abc import Mapping

from ._tracks import Track, value_at
from .spans import Spans, merged

__all__ = ["Timeline"]


class Timeline:
    """The world's history, queryable after the pass, built without keeping events.

    Per agent, three sorted change lists (tick → region, alive, dormant), each
    holding the end-of-tick value from that tick on; a query is a bisection.
    Memory grows with agents and moves, not with events or ticks.

    Attributes: ``started_at_tick`` / ``ended_at_tick`` (the archive's, or None),
    ``events`` (events replayed), ``tick_regressions`` (events whose tick was lower
    than the tick before them: applied at the current tick, no tick closed; a log
    of several v1 seasons should be cut to its last season before replay),
    ``first_tick`` / ``last_tick`` (the first and the last event's tick, or None without events).
    """

    __slots__ = ("_tracks", "_visitors", "started_at_tick", "ended_at_tick", "events", "tick_regressions",
                 "first_tick", "last_tick")

    def __init__(
        self,
        tracks: Mapping[str, Track],
        started_at_tick: int | None,
        ended_at_tick: int | None,
        events: int,
        tick_regressions: int,
        first_tick: int | None = None,
        last_tick: int | None = None,
    ) -> None:
        self._tracks = dict(tracks)
        visitors: dict[str, set[str]] = {}
        for agent, tr in self._tracks.items():
            for region in set(tr.r_vals):
                visitors.setdefault(region, set()).add(agent)
        self._visitors = {region: tuple(sorted(a)) for region, a in visitors.items()}
        self.started_at_tick = started_at_tick
        self.ended_at_tick = ended_at_tick
        self.events = events
        self.tick_regressions = tick_regressions
        self.first_tick = first_tick
        self.last_tick = last_tick

    @property
    def agents(self) -> tuple[str, ...]:
        """Every agent the world ever tracked (placed, moved, died or went dormant), sorted."""
        return tuple(sorted(self._tracks))

    def region_at(self, agent: str, tick: int) -> str | None:
        """Its region at the end of ``tick``; after death, the region it died in; None before placement."""
        tr = self._tracks.get(agent)
        return None if tr is None else value_at(tr.r_ticks, tr.r_vals, tick, None)

    def alive_at(self, agent: str, tick: int) -> bool:
        """Alive at the end of ``tick`` (placed by then, not died by then)."""
        tr = self._tracks.get(agent)
        return tr is not None and bool(value_at(tr.a_ticks, tr.a_vals, tick, 0))

    def alive_spans(self, agent: str, start: int, stop: int) -> Spans:
        """The ticks of ``[start, stop)`` at whose end ``agent`` was alive, as spans
        (:mod:`.spans`): read off its alive change list, never tick by tick.

        >>> from ._tracks import record
        >>> tr = Track(); record(tr.a_ticks, tr.a_vals, 3, 1); record(tr.a_ticks, tr.a_vals, 7, 0)
        >>> record(tr.a_ticks, tr.a_vals, 10, 1)
        >>> Timeline({"a": tr}, 0, 20, 0, 0).alive_spans("a", 0, 2**53 - 1)
        ((3, 7), (10, 9007199254740991))
        """
        tr = self._tracks.get(agent)
        if tr is None or start >= stop:
            return ()
        ticks, vals = tr.a_ticks, tr.a_vals
        ends = [*ticks[1:], stop]
        return merged((max(t, start), min(end, stop)) for t, v, end in zip(ticks, vals, ends) if v)

    def dormant_at(self, agent: str, tick: int) -> bool:
        """Dormant at the end of ``tick``."""
        tr = self._tracks.get(agent)
        return tr is not None and bool(value_at(tr.d_ticks, tr.d_vals, tick, 0))

    def agents_at(self, region: str, tick: int) -> frozenset[str]:
        """Living agents in ``region`` at the end of ``tick`` (dormant ones included)."""
        return frozenset(
            a
            for a in self._visitors.get(region, ())
            if self.alive_at(a, tick) and self.region_at(a, tick) == region
        )
