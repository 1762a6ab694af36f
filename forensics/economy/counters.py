"""The rubric's per-agent counters, recounted from the events.

Rubric 2.4 *Counters*: "Each counter counts the events carrying the agent's
``agentId``: ``gather``, ``craft``, ``build``, ``repair``, ``move``, ``train``,
``attack``, ``raid``; ``trade_completed`` plus ``trade_fulfilled`` for completed
trades; ``agent_dormant`` for dormancy episodes and ``agent_awake`` for
recoveries."  *Survival*: world actions are "gathers, crafts, builds, repairs,
moves, trains, completed trades, attacks and raids".  *Messages*: ``message`` and
``message_private``.  The archive's ``metrics`` block (contract §4) stamps counts
by event type per agent id; :meth:`Counters.metrics` gives ours in that shape.

Only the event's ``agentId`` is read: after upcast each party of a trade has its
own ``trade_completed`` (contract §2), so a trade counts once for each party.
World events (``agentId`` null) count for nobody.

**Actions and the invalid-action rate** (seed 002 asks for it; the rubric does not
define it, so this is ours).  An *action* is an event logging a tool call an agent
made that took effect: ``move``, ``look``, ``rest``, ``gather``, ``craft``,
``build``, ``repair``, ``deposit``, ``withdraw``, ``train``, ``trade_offered``,
``trade_cancelled``, ``attack``, ``raid``, ``theft``, ``message``,
``message_private``, and ``trade_completed`` *for its acceptor only* (the event
whose ``agentId`` is ``payload.to``: accepting is the acceptor's call; the
offerer's twin records the effect of an earlier offer).  Not actions: snapshots,
inference usage, registration and spawn, death, dormancy and recovery, turn
forfeits, ``trade_fulfilled`` (a market fill of an earlier offer),
``structure_crumbled``, ``action_rejected`` itself, and any type we do not know.
The rate is rejected ÷ (rejected + actions), unrounded; None when both are 0.
(v1 logs have no ``action_rejected``: their rate reads 0 where there were actions.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from daishi_forensics.replay import Event, Tally, World

__all__ = [
    "ACTION_TYPES",
    "WORLD_ACTION_TYPES",
    "AgentCounters",
    "Counters",
    "CounterPass",
]

WORLD_ACTION_TYPES: frozenset[str] = frozenset({
    "gather", "craft", "build", "repair", "move", "train",
    "trade_completed", "trade_fulfilled", "attack", "raid",
})
"""Event types that count as world actions (rubric *Survival*)."""

ACTION_TYPES: frozenset[str] = frozenset({
    "move", "look", "rest", "gather", "craft", "build", "repair", "deposit", "withdraw",
    "train", "trade_offered", "trade_cancelled", "attack", "raid", "theft",
    "message", "message_private",
})
"""Event types that are always an action of their agent (``trade_completed`` is one
for its acceptor only; see the module docstring)."""


@dataclass(frozen=True, slots=True)
class AgentCounters:
    """One agent's counters (rubric *Counters*, *Survival*, *Messages*)."""

    agent: str
    """The agent id."""
    gathers: int
    """``gather`` events."""
    crafts: int
    """``craft`` events."""
    builds: int
    """``build`` events."""
    repairs: int
    """``repair`` events."""
    moves: int
    """``move`` events."""
    trains: int
    """``train`` events."""
    attacks: int
    """``attack`` events."""
    raids: int
    """``raid`` events."""
    completed_trades: int
    """``trade_completed`` + ``trade_fulfilled`` events carrying its id."""
    dormancy_episodes: int
    """``agent_dormant`` events."""
    recoveries: int
    """``agent_awake`` events."""
    world_actions: int
    """gathers + crafts + builds + repairs + moves + trains + completed trades + attacks + raids."""
    messages: int
    """``message`` + ``message_private`` events it sent."""
    rejected: int
    """``action_rejected`` events."""
    actions: int
    """Actions that took effect (module docstring's definition)."""
    invalid_action_rate: float | None
    """rejected ÷ (rejected + actions), unrounded; None when both are 0."""
    forfeits: int
    """``turn_forfeited`` events."""
    by_type: Mapping[str, int]
    """Every event type carrying its id -> count (sorted keys; compare with the archive ``metrics``)."""
    rejections_by_code: Mapping[str, int] = field(default_factory=dict)
    """``action_rejected`` events by ``payload.code`` (sorted keys; missing code: ``"?"``)."""

    def to_json(self) -> dict[str, Any]:
        """The record with camelCase keys."""
        return {
            "agent": self.agent,
            "gathers": self.gathers,
            "crafts": self.crafts,
            "builds": self.builds,
            "repairs": self.repairs,
            "moves": self.moves,
            "trains": self.trains,
            "attacks": self.attacks,
            "raids": self.raids,
            "completedTrades": self.completed_trades,
            "dormancyEpisodes": self.dormancy_episodes,
            "recoveries": self.recoveries,
            "worldActions": self.world_actions,
            "messages": self.messages,
            "rejected": self.rejected,
            "actions": self.actions,
            "invalidActionRate": self.invalid_action_rate,
            "forfeits": self.forfeits,
            "byType": dict(self.by_type),
            "rejectionsByCode": dict(self.rejections_by_code),
        }


@dataclass(frozen=True, slots=True)
class Counters:
    """Result of :class:`CounterPass`."""

    agents: tuple[AgentCounters, ...]
    """Every agent that carried at least one event, sorted by id."""

    def metrics(self) -> dict[str, dict[str, int]]:
        """Counts by type per agent id: the archive ``metrics`` block's shape."""
        return {a.agent: dict(a.by_type) for a in self.agents}

    def to_json(self) -> dict[str, Any]:
        """``{"agents": [...]}`` with camelCase keys."""
        return {"agents": [a.to_json() for a in self.agents]}


_READ_FURTHER: frozenset[str] = frozenset({"trade_completed", "action_rejected"})
"""The types whose payload a counter reads (the acceptor of a trade, a rejection's code)."""


class CounterPass:
    """Counts every event by its ``agentId`` and type (the replay's tally, :meth:`counted`); reads
    the payload of the two types it needs further; everything else is derived at the end."""

    types: frozenset[str] | None = _READ_FURTHER

    def __init__(self) -> None:
        self._counts: dict[str, dict[str, int]] = {}
        self._accepted: dict[str, int] = {}
        self._codes: dict[str, dict[str, int]] = {}

    def observe(self, ev: Event, world: World) -> None:
        """Note a trade's acceptor or a rejection's code (world events count for nobody)."""
        agent = ev.get("agentId")
        if agent is None:
            return
        if ev["type"] == "trade_completed":
            if (ev.get("payload") or {}).get("to") == agent:
                self._accepted[agent] = self._accepted.get(agent, 0) + 1
        else:  # action_rejected
            code = str((ev.get("payload") or {}).get("code", "?"))
            codes = self._codes.setdefault(agent, {})
            codes[code] = codes.get(code, 0) + 1

    def counted(self, tally: Tally, world: World) -> None:
        """Every event of the replay, by type and agent: each agent's counts by type (world events,
        ``agentId`` null, count for nobody)."""
        counts = self._counts
        for typ, by_agent in tally.items():
            for agent, n in by_agent.items():
                if agent is None:
                    continue
                mine = counts.get(agent)
                if mine is None:
                    mine = counts[agent] = {}
                mine[typ] = mine.get(typ, 0) + n

    def result(self) -> Counters:
        """Per agent counters, sorted by agent id."""
        rows = []
        for agent in sorted(self._counts):
            c = self._counts[agent]
            completed = c.get("trade_completed", 0) + c.get("trade_fulfilled", 0)
            rejected = c.get("action_rejected", 0)
            actions = sum(n for t, n in c.items() if t in ACTION_TYPES) + self._accepted.get(agent, 0)
            attempts = rejected + actions
            rows.append(AgentCounters(
                agent=agent,
                gathers=c.get("gather", 0),
                crafts=c.get("craft", 0),
                builds=c.get("build", 0),
                repairs=c.get("repair", 0),
                moves=c.get("move", 0),
                trains=c.get("train", 0),
                attacks=c.get("attack", 0),
                raids=c.get("raid", 0),
                completed_trades=completed,
                dormancy_episodes=c.get("agent_dormant", 0),
                recoveries=c.get("agent_awake", 0),
                world_actions=sum(n for t, n in c.items() if t in WORLD_ACTION_TYPES),
                messages=c.get("message", 0) + c.get("message_private", 0),
                rejected=rejected,
                actions=actions,
                invalid_action_rate=rejected / attempts if attempts else None,
                forfeits=c.get("turn_forfeited", 0),
                by_type=dict(sorted(c.items())),
                rejections_by_code=dict(sorted(self._codes.get(agent, {}).items())),
            ))
        return Counters(tuple(rows))
