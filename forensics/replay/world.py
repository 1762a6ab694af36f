"""One pass over a match's events: the live :class:`World`, the :class:`Timeline` it
leaves behind, and the :func:`replay` driver that feeds every analysis (*pass*).

Contract: ``docs/input-format.md`` (events in log order, v3
shape after the read boundary); protocol: ``docs/ARCHITECTURE.md`` *Replay protocol*.

Rules the world follows (the contract's, and where it is silent, ours):

- **Placement.** An agent is placed, and alive, from its ``agent_spawned``
  (``payload.region``) or, for an agent that joined a running match, from its
  ``agent_registered`` carrying ``payload.region`` (rubric *Counters*: "the spawn
  region is on the agent's ``agent_spawned`` event, or on ``agent_registered``").
  Every ``move`` then sets its region to ``payload.to``.
- **Death.** ``agent_died`` makes it dead: it leaves :meth:`World.agents_in` and
  every occupancy, for good (a later ``agent_spawned`` would place it again).
  :meth:`World.region_of` / :meth:`Timeline.region_at` keep answering the region
  it died in (*for reporting*); :meth:`World.is_alive` says it is dead.  A dead
  agent is not dormant.
- **Dormancy.** ``agent_dormant`` until ``agent_awake``.  A dormant agent still
  stands in its region (it is in :meth:`World.agents_in`); whoever needs "awake"
  (hearing, witnessing) filters it out.
- **Not placed.** An agent never spawned (nor registered with a region) is not
  alive, even if it moves: its ``move`` sets the region :meth:`World.region_of`
  answers, but it stands in no occupancy.  (Assumed: the brief's "alive = spawned or
  registered with a region and not dead"; a ``move`` is not a spawn.)
- Every other event type, known or not, leaves the world unchanged.

Ticks (contract §2: rounds and ticks are the same thing).  The region, life and
dormancy of an agent *at tick t* is its state after every event of tick ``t``
(end-of-tick state, ARCHITECTURE.md).  The match rounds are the ticks
``startedAtTick`` … ``endedAtTick − 1`` of the archive (rubric *Rates*: match rounds
= ``endedAtTick − startedAtTick``).  :func:`replay` tells the passes which ticks have
ended through ``close_ticks(start, stop, world)``, only ever inside the match
rounds.

(The driver, :func:`~daishi_forensics.replay.driver.replay`, shows a replay in its doctest.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from ._tracks import Track, record

__all__ = ["CountingPass", "Event", "Pass", "TickClosingPass", "Tally", "World"]

Event = dict[str, Any]
"""An event in the v3 shape the read boundary yields (ARCHITECTURE.md)."""

_EMPTY: frozenset[str] = frozenset()

Tally = Mapping[str, Mapping[Any, int]]
"""The events a replay fed, counted by type, then by ``agentId`` (``None`` for a world event):
``{"move": {"a_1": 12, ...}, "region_collapsed": {None: 3}}`` (a type without events is absent)."""


@runtime_checkable
class Pass(Protocol):
    """An analysis fed by :func:`replay`.

    ``observe(ev, world)`` is called for an event *before* the world applies it.
    A pass may declare ``types: frozenset[str] | None`` (class or instance
    attribute): the event types it wants; ``None`` or no attribute means every
    event.  The driver builds its dispatch table from it once.
    """

    def observe(self, ev: Event, world: World) -> None:
        """See one event, with the world as it stood just before it."""


@runtime_checkable
class TickClosingPass(Pass, Protocol):
    """A pass that also wants to know when ticks end.

    ``close_ticks(start, stop, world)``: the ticks ``start`` … ``stop − 1`` ended,
    all with the world in the state it is in now (the end-of-tick state of
    ``start``, unchanged since).  Called once per span, never per tick, so a pass
    multiplies by ``stop − start``.
    """

    def close_ticks(self, start: int, stop: int, world: World) -> None:
        """Ticks ``[start, stop)`` ended with ``world`` unchanged."""


@runtime_checkable
class CountingPass(Pass, Protocol):
    """A pass that reads how many events of each type each agent carried from the replay's own
    tally instead of counting them one call per event.

    ``counted(tally, world)`` is called once, after the last event (and the last
    ``close_ticks``), with the :data:`Tally` of the events the replay fed, whatever types the
    pass declares for ``observe``, and the world as the replay left it (read what is needed
    then; never keep it).  A pass may declare ``tallied: frozenset[str] | None`` (class or
    instance attribute): the event types it reads from the tally (``None`` or no attribute:
    every type); the tally holds at least those (a type with no event: absent).  The driver
    counts a type only when a pass asks for it.
    """

    def counted(self, tally: Tally, world: World) -> None:
        """The replay is over: every event it fed, by type and agent; the world at the end."""

class World:
    """The live state of the match at the current point of the stream.

    Read by passes (never written).  ``tick`` is the tick of the event being
    processed (or, during ``close_ticks``, of the last event applied).

    Beyond the ARCHITECTURE.md interface (``tick``, ``region_of``, ``is_alive``,
    ``is_dormant``, ``agents_in``, ``living_agents``, ``spawned_agents``, ``regions_visited``) it offers
    allocation-free views for hot passes: :meth:`occupants`, :meth:`occupancy`,
    :meth:`crowded_regions`, :meth:`listening_agents`, and two counters, ``occupancy_version`` (changes
    whenever who stands where among the living changes) and ``audience_version``
    (changes whenever the set of living, non-dormant agents changes), so a pass can
    cache what it derives from them.
    """

    __slots__ = (
        "tick",
        "occupancy_version",
        "audience_version",
        "_region",
        "_alive",
        "_dormant",
        "_spawned",
        "_occupants",
        "_crowded",
        "_occupancy_view",
        "_listening",
        "_listening_version",
        "_tracks",
        "_names",
        "_handler_table",
    )

    def __init__(self, tick: int = 0) -> None:
        self.tick: int = tick
        self.occupancy_version: int = 0
        self.audience_version: int = 0
        self._region: dict[str, str] = {}
        self._alive: set[str] = set()
        self._dormant: set[str] = set()
        self._spawned: set[str] = set()
        self._occupants: dict[str, set[str]] = {}
        self._crowded: set[str] = set()
        self._occupancy_view: Mapping[str, set[str]] = MappingProxyType(self._occupants)
        self._listening: frozenset[str] = _EMPTY
        self._listening_version: int = -1
        self._tracks: dict[str, Track] = {}
        self._names: dict[str, str] = {}  # one object per region name: the change lists share it
        self._handler_table = self._handlers()

    # -- queries ---------------------------------------------------------------

    def region_of(self, agent: str) -> str | None:
        """The agent's region now; a dead agent's is the region it died in; None if never placed."""
        return self._region.get(agent)

    def is_alive(self, agent: str) -> bool:
        """Placed (spawned, or registered with a region) and not died since."""
        return agent in self._alive

    def is_dormant(self, agent: str) -> bool:
        """Between an ``agent_dormant`` and its ``agent_awake`` (and not dead)."""
        return agent in self._dormant

    def dormant_agents(self) -> AbstractSet[str]:
        """Live set of the dormant agents (:meth:`is_dormant` for many at once): read it, never
        change it or keep it."""
        return self._dormant

    def agents_in(self, region: str) -> frozenset[str]:
        """Living agents standing in ``region`` now, dormant ones included (a copy)."""
        occ = self._occupants.get(region)
        return frozenset(occ) if occ else _EMPTY

    def occupants(self, region: str) -> AbstractSet[str]:
        """As :meth:`agents_in` but the live set itself: read it, never change it or keep it."""
        return self._occupants.get(region) or _EMPTY

    def occupancy(self) -> Mapping[str, AbstractSet[str]]:
        """Read-only live view: every region with living agents in it -> those agents."""
        return self._occupancy_view

    def crowded_regions(self) -> AbstractSet[str]:
        """Live set of the regions with two or more living agents: read it, never change it or keep it."""
        return self._crowded

    def living_agents(self) -> frozenset[str]:
        """Every agent alive now (dormant ones included)."""
        return frozenset(self._alive)

    def listening_agents(self) -> frozenset[str]:
        """Every agent alive and not dormant now (cached until ``audience_version`` changes)."""
        if self._listening_version != self.audience_version:
            self._listening = frozenset(self._alive - self._dormant)
            self._listening_version = self.audience_version
        return self._listening

    def regions_visited(self, agent: str) -> frozenset[str]:
        """Every region the agent was placed in (spawn, registration) or moved to so far, those it
        left again within a tick included; empty if never placed nor moved."""
        tr = self._tracks.get(agent)
        return _EMPTY if tr is None else tr.visited()

    def spawned_agents(self) -> frozenset[str]:
        """Every agent ever placed (spawned, or registered with a region), dead or alive."""
        return frozenset(self._spawned)

    # -- applying events (the driver calls these after the passes observed) -------

    def _track(self, agent: str) -> Track:
        tr = self._tracks.get(agent)
        if tr is None:
            tr = self._tracks[agent] = Track()
        return tr

    def _enter(self, region: str, agent: str) -> None:
        members = self._occupants.get(region)
        if members is None:
            self._occupants[region] = {agent}
        else:
            members.add(agent)
            if len(members) == 2:
                self._crowded.add(region)

    def _leave(self, region: str, agent: str) -> None:
        members = self._occupants.get(region)
        if members is not None:
            members.discard(agent)
            n = len(members)
            if n == 0:
                del self._occupants[region]
            elif n == 1:
                self._crowded.discard(region)

    def _place(self, agent: str, region: str) -> None:
        """Spawn (or re-spawn) ``agent`` in ``region``; for a living agent, a move."""
        region = self._names.setdefault(region, region)
        if agent in self._alive:
            self._on_move({"agentId": agent, "payload": {"to": region}}, self)  # the move it amounts to
            return
        tr = self._track(agent)
        self._region[agent] = region
        if tr.r_ticks and tr.r_ticks[-1] == self.tick:
            tr.passed.add(tr.r_vals[-1])
        record(tr.r_ticks, tr.r_vals, self.tick, region)
        self._alive.add(agent)
        self._spawned.add(agent)
        self._enter(region, agent)
        self.occupancy_version += 1
        self.audience_version += 1
        record(tr.a_ticks, tr.a_vals, self.tick, 1)

    def _on_spawned(self, ev: Event, _world: World) -> None:
        agent = ev.get("agentId")
        region = (ev.get("payload") or {}).get("region")
        if agent is not None and region is not None:
            self._place(agent, region)

    _on_registered = _on_spawned  # only a joiner's registration carries a region

    def _on_move(self, ev: Event, _world: World) -> None:
        # the hot path: the occupancy kept inline (no call per move).  A dead or never-placed agent's
        # move is remembered for region_of; it stands nowhere.  A living agent's re-spawn comes here too
        # (_place), as the move it amounts to.
        agent = ev.get("agentId")
        payload = ev.get("payload")
        to = payload.get("to") if payload else None
        if agent is None or to is None:
            return
        to = self._names.setdefault(to, to)  # the region's one shared object (each move's own copy is freed)
        region = self._region
        old = region.get(agent)
        region[agent] = to
        tr = self._tracks.get(agent)
        if tr is None:
            tr = self._track(agent)
        ticks = tr.r_ticks
        tick = self.tick
        if ticks and ticks[-1] == tick:
            vals = tr.r_vals
            tr.passed.add(vals[-1])  # where it stood earlier in the tick: visited all the same
            vals[-1] = to
        else:
            ticks.append(tick)
            tr.r_vals.append(to)
        if old != to and agent in self._alive:
            occ = self._occupants
            if old is not None:
                members = occ.get(old)
                if members is not None:
                    members.discard(agent)
                    n = len(members)
                    if n == 0:
                        del occ[old]
                    elif n == 1:
                        self._crowded.discard(old)
            members = occ.get(to)
            if members is None:
                occ[to] = {agent}
            else:
                members.add(agent)
                if len(members) == 2:
                    self._crowded.add(to)
            self.occupancy_version += 1

    def _on_died(self, ev: Event, _world: World) -> None:
        agent = ev.get("agentId")
        if agent is None:
            return
        tr = self._track(agent)
        if agent in self._alive:
            self._alive.discard(agent)
            region = self._region.get(agent)
            if region is not None:
                self._leave(region, agent)
            self.occupancy_version += 1
            self.audience_version += 1
        record(tr.a_ticks, tr.a_vals, self.tick, 0)
        if agent in self._dormant:
            self._dormant.discard(agent)
            record(tr.d_ticks, tr.d_vals, self.tick, 0)

    def _on_dormant(self, ev: Event, _world: World) -> None:
        agent = ev.get("agentId")
        if agent is None or agent in self._dormant:
            return
        if agent in self._spawned and agent not in self._alive:
            return  # a dead agent is not dormant
        self._dormant.add(agent)
        if agent in self._alive:
            self.audience_version += 1
        tr = self._track(agent)
        record(tr.d_ticks, tr.d_vals, self.tick, 1)

    def _on_awake(self, ev: Event, _world: World) -> None:
        agent = ev.get("agentId")
        if agent is None or agent not in self._dormant:
            return
        self._dormant.discard(agent)
        if agent in self._alive:
            self.audience_version += 1
        tr = self._track(agent)
        record(tr.d_ticks, tr.d_vals, self.tick, 0)

    def apply(self, ev: Event) -> None:
        """Apply one event (what :func:`replay` does after the passes observed it).

        For a hand-driven world (tests, doctests); the driver uses a dispatch table.
        """
        handler = self._handler_table.get(ev.get("type", ""))
        if handler is not None:
            handler(ev, self)

    def _handlers(self) -> dict[str, Callable[[Event, World], None]]:
        return {
            "agent_spawned": self._on_spawned,
            "agent_registered": self._on_registered,
            "move": self._on_move,
            "agent_died": self._on_died,
            "agent_dormant": self._on_dormant,
            "agent_awake": self._on_awake,
        }
