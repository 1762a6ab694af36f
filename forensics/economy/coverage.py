"""Map coverage: the distinct regions each agent stood in, out of the map's regions.

Rubric 2.4 *Counters*: "Map coverage is the number of distinct regions the agent
stood in (its spawn region and every region it moved to) out of the map's regions
(144 on the 12 × 12 world), rounded to three decimal places, halves up.  The spawn
region is on the agent's ``agent_spawned`` event, or on ``agent_registered`` for an
agent that joined a running match."  The archive's ``exploration`` block (contract
§4) carries the same figures when a newer server stamped them.

Region names are counted as logged (the validator checks them against the map).
Regions an agent only passed through within a tick count: it stood in them.

>>> from daishi_forensics.replay import replay
>>> p = CoveragePass(144)
>>> moves = [{"id": i + 2, "tick": i + 1, "type": "move", "agentId": "a_1",
...           "payload": {"from": f"r_{i}_0", "to": f"r_{i + 1}_0"}} for i in range(8)]
>>> spawn = {"id": 1, "tick": 0, "type": "agent_spawned", "agentId": "a_1", "payload": {"region": "r_0_0"}}
>>> _ = replay([spawn, *moves], {}, [p])
>>> row = p.result().agents[0]
>>> row.regions, row.coverage
(9, 0.063)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from daishi_forensics import arithmetic
from daishi_forensics.replay import Event, Tally, World
from daishi_forensics.read.archive import map_regions

__all__ = ["AgentCoverage", "Coverage", "CoveragePass"]


@dataclass(frozen=True, slots=True)
class AgentCoverage:
    """One agent's exploration."""

    agent: str
    """The agent id."""
    regions: int
    """Distinct regions it stood in (spawn region and every ``move.to``)."""
    coverage: float
    """``regions`` over the map's regions, 3 decimals half-up (``arithmetic.coverage``)."""
    visited: tuple[str, ...]
    """Those regions, sorted."""

    def to_json(self) -> dict[str, Any]:
        """The record with the archive ``exploration`` block's keys (plus agent, visited)."""
        return {"agent": self.agent, "regions": self.regions, "coverage": self.coverage,
                "visited": list(self.visited)}


@dataclass(frozen=True, slots=True)
class Coverage:
    """Result of :class:`CoveragePass`."""

    map_regions: int
    """The map's region count the coverage divides by."""
    agents: tuple[AgentCoverage, ...]
    """Every agent spawned, registered or moving, sorted by id (0 regions included)."""

    def to_json(self) -> dict[str, Any]:
        """``{"mapRegions": n, "agents": [...]}``."""
        return {"mapRegions": self.map_regions, "agents": [a.to_json() for a in self.agents]}

    def exploration(self) -> dict[str, dict[str, float | int]]:
        """In the archive's ``exploration`` block shape: ``{agent: {"regions", "coverage"}}``."""
        return {a.agent: {"regions": a.regions, "coverage": a.coverage} for a in self.agents}


_PLACING: tuple[str, ...] = ("agent_spawned", "agent_registered", "move")
"""The event types that place an agent or move it: each of their agents has a row."""


class CoveragePass:
    """Each agent's spawn region and every region it moved to, read off the world at the end of
    the replay (the regions it was placed in or moved to, :meth:`World.regions_visited`), for every
    agent that spawned, registered or moved (the replay's tally): nothing per event."""

    types: frozenset[str] | None = frozenset()
    tallied: frozenset[str] | None = frozenset(_PLACING)

    def __init__(self, map_regions: int = 144) -> None:
        if map_regions <= 0:
            raise ValueError("a map has at least one region")
        self.map_regions = map_regions
        self._visited: defaultdict[str, set[str]] = defaultdict(set)

    @classmethod
    def for_archive(cls, archive: Mapping[str, Any]) -> CoveragePass:
        """A pass dividing by the archive's map (``values.map_regions``: width × height, 12 × 12 default)."""
        return cls(map_regions(archive))

    def observe(self, ev: Event, world: World) -> None:
        """Nothing: the pass reads the world once, at the end (:meth:`counted`)."""

    def counted(self, tally: Tally, world: World) -> None:
        """Every agent that spawned, registered or moved (one registered without a region: 0 regions),
        with the regions the world placed it in or moved it to."""
        for typ in _PLACING:
            for agent in tally.get(typ, ()):
                if agent is not None:
                    self._visited[agent].update(r for r in world.regions_visited(agent) if isinstance(r, str))

    def result(self) -> Coverage:
        """Per agent regions and coverage, sorted by agent id."""
        total = self.map_regions
        return Coverage(total, tuple(
            AgentCoverage(agent, len(seen), arithmetic.coverage(len(seen), total), tuple(sorted(seen)))
            for agent, seen in sorted(self._visited.items())
        ))
