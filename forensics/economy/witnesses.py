"""Who could have seen each attack, raid and theft, and the public aggression counter.

Rubric 2.4 *Social*: "Aggression is the final board's public counter (attacks,
raids and thefts that someone witnessed)"; contract §4: ``aggression`` is "the
final public counter of witnessed attacks, raids and thefts"; contract §3: the
acts carry ``witnessed`` (v2, v3) and ``witnesses`` (v3 only), and an upcaster
never guesses them (§2).

Rules (ours where the contract is silent, stated here):

- An *aggressive act* is an ``attack``, ``raid`` or ``theft`` event; its actor is
  the event's ``agentId``, its target ``payload.target`` (for a raid, the
  structure's owner).
- Its *potential witnesses* are the agents standing in the act's region
  (``payload.region``; the actor's region if absent) at that moment — the world
  just before the act is applied — alive and not dormant, other than the actor
  and the target.
- An act is *unseen* when it has no potential witness; an agent's *stealth rate*
  is unseen ÷ acts (None with no acts), unrounded.
- The recomputed aggression counter counts, per act, the log's ``witnessed`` flag
  where the event carries it; where it does not (v1 logs), "had at least one
  potential witness" stands in, and the agent's ``basis`` says which was used.
- Where the log carries ``witnesses``, the potential witnesses are compared with
  it, and either difference is recorded on the act as evidence; so is a
  ``witnessed`` flag that disagrees with whether anyone was around.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from daishi_forensics.replay import Event, World

__all__ = [
    "AGGRESSIVE_TYPES",
    "AggressiveAct",
    "AgentWitnessing",
    "Witnesses",
    "WitnessPass",
    "potential_witnesses",
]

AGGRESSIVE_TYPES: frozenset[str] = frozenset({"attack", "raid", "theft"})
"""The event types the aggression counter counts (rubric *Social*)."""

Basis = Literal["witnessed-flag", "potential-witness", "mixed", "none"]


@dataclass(frozen=True, slots=True)
class AggressiveAct:
    """One attack, raid or theft, with who could have seen it."""

    event_id: int
    """The event's ``id``."""
    tick: int
    """The tick it happened in."""
    type: str
    """``attack``, ``raid`` or ``theft``."""
    actor: str
    """The agent that did it (``agentId``)."""
    target: str | None
    """``payload.target``: the victim (for a raid, the structure's owner)."""
    region: str | None
    """Where it happened (``payload.region``, else the actor's region)."""
    potential_witnesses: tuple[str, ...]
    """Living, non-dormant agents there then, actor and target excluded, sorted."""
    logged_witnessed: bool | None
    """The log's ``witnessed`` flag; None where the event has none (v1)."""
    logged_witnesses: tuple[str, ...] | None
    """The log's ``witnesses`` list, sorted; None where the event has none (v1, v2)."""
    unlogged_potential: tuple[str, ...]
    """Potential witnesses the logged list leaves out (empty when there is no list)."""
    logged_not_potential: tuple[str, ...]
    """Logged witnesses that were not potential witnesses by the replay (empty when no list)."""
    flag_mismatch: bool
    """The ``witnessed`` flag disagrees with "someone was around" (False when no flag)."""

    @property
    def unseen(self) -> bool:
        """Nobody could have seen it."""
        return not self.potential_witnesses

    @property
    def witness_mismatch(self) -> bool:
        """The logged list or flag disagrees with the replay: evidence worth opening."""
        return bool(self.unlogged_potential or self.logged_not_potential or self.flag_mismatch)

    def to_json(self) -> dict[str, Any]:
        """The record with camelCase keys."""
        return {
            "eventId": self.event_id,
            "tick": self.tick,
            "type": self.type,
            "actor": self.actor,
            "target": self.target,
            "region": self.region,
            "potentialWitnesses": list(self.potential_witnesses),
            "loggedWitnessed": self.logged_witnessed,
            "loggedWitnesses": None if self.logged_witnesses is None else list(self.logged_witnesses),
            "unloggedPotential": list(self.unlogged_potential),
            "loggedNotPotential": list(self.logged_not_potential),
            "flagMismatch": self.flag_mismatch,
            "unseen": self.unseen,
        }


@dataclass(frozen=True, slots=True)
class AgentWitnessing:
    """One agent's aggressive acts and how visible they were."""

    agent: str
    """The agent id."""
    acts: int
    """Attacks + raids + thefts it did."""
    attacks: int
    """Its ``attack`` events."""
    raids: int
    """Its ``raid`` events."""
    thefts: int
    """Its ``theft`` events."""
    with_potential_witness: int
    """Acts with at least one potential witness."""
    marked_witnessed: int
    """Acts the log marks ``witnessed: true``."""
    unseen: int
    """Acts with no potential witness."""
    stealth_rate: float | None
    """unseen ÷ acts, unrounded; None with no acts."""
    aggression: int
    """Recomputed public counter: acts marked witnessed, or (no flag) with a potential witness."""
    basis: Basis
    """What ``aggression`` counted: ``witnessed-flag`` (every act had the flag),
    ``potential-witness`` (none had it: v1), ``mixed``, or ``none`` (no acts)."""
    act_ids: tuple[int, ...]
    """Event ids of every act, in log order."""
    potential_witness_ids: tuple[int, ...]
    """Event ids of the acts with a potential witness."""
    witnessed_ids: tuple[int, ...]
    """Event ids of the acts marked witnessed."""
    unseen_ids: tuple[int, ...]
    """Event ids of the unseen acts."""
    aggression_ids: tuple[int, ...]
    """Event ids of the acts ``aggression`` counted."""

    def to_json(self) -> dict[str, Any]:
        """The record with camelCase keys."""
        return {
            "agent": self.agent,
            "acts": self.acts,
            "attacks": self.attacks,
            "raids": self.raids,
            "thefts": self.thefts,
            "withPotentialWitness": self.with_potential_witness,
            "markedWitnessed": self.marked_witnessed,
            "unseen": self.unseen,
            "stealthRate": self.stealth_rate,
            "aggression": self.aggression,
            "basis": self.basis,
            "actIds": list(self.act_ids),
            "potentialWitnessIds": list(self.potential_witness_ids),
            "witnessedIds": list(self.witnessed_ids),
            "unseenIds": list(self.unseen_ids),
            "aggressionIds": list(self.aggression_ids),
        }


@dataclass(frozen=True, slots=True)
class Witnesses:
    """Result of :class:`WitnessPass`."""

    agents: tuple[AgentWitnessing, ...]
    """Every agent placed, registered or acting, sorted by id (zero rows included)."""
    acts: tuple[AggressiveAct, ...]
    """Every aggressive act, in log order."""

    @property
    def mismatches(self) -> tuple[AggressiveAct, ...]:
        """The acts whose logged witnesses or flag disagree with the replay."""
        return tuple(a for a in self.acts if a.witness_mismatch)

    def to_json(self) -> dict[str, Any]:
        """``{"agents": [...], "acts": [...]}`` with camelCase keys."""
        return {"agents": [a.to_json() for a in self.agents], "acts": [a.to_json() for a in self.acts]}


def potential_witnesses(
    world: World, region: str | None, exclude: tuple[str | None, ...]
) -> tuple[str, ...]:
    """Living, non-dormant agents in ``region`` now, minus ``exclude``, sorted."""
    if region is None:
        return ()
    return tuple(sorted(
        a for a in world.occupants(region) if a not in exclude and not world.is_dormant(a)
    ))


class WitnessPass:
    """Replays every attack, raid and theft against who stood there (see the module rules)."""

    types: frozenset[str] | None = AGGRESSIVE_TYPES | {"agent_spawned", "agent_registered"}

    def __init__(self) -> None:
        self._agents: set[str] = set()
        self._raw: list[tuple[Any, ...]] = []

    def observe(self, ev: Event, world: World) -> None:
        """Record an act with its potential witnesses (world just before the act)."""
        actor = ev.get("agentId")
        if actor is None:
            return
        self._agents.add(actor)
        typ = ev["type"]
        if typ not in AGGRESSIVE_TYPES:
            return
        payload = ev.get("payload") or {}
        target = payload.get("target")
        region = payload.get("region") or world.region_of(actor)
        # only what the moment decides is taken here; the record is built in result()
        present = world.occupants(region) if region is not None else ()
        potential = [a for a in present if a != actor and a != target and not world.is_dormant(a)]
        self._raw.append((ev.get("id", -1), ev["tick"], typ, actor, target, region, potential,
                          payload.get("witnessed"), payload.get("witnesses")))

    @staticmethod
    def _act(raw: tuple[Any, ...]) -> AggressiveAct:
        event_id, tick, typ, actor, target, region, present, flag, listed = raw
        potential = tuple(sorted(present))
        flag = flag if isinstance(flag, bool) else None
        logged = tuple(sorted(str(w) for w in listed)) if isinstance(listed, list) else None
        if logged is None:
            unlogged: tuple[str, ...] = ()
            extra: tuple[str, ...] = ()
        else:
            seen, around = set(logged), set(potential)  # sets: a crowd of witnesses costs its size, not squared
            unlogged = tuple(w for w in potential if w not in seen)
            extra = tuple(w for w in logged if w not in around)
        return AggressiveAct(
            event_id=event_id,
            tick=tick,
            type=typ,
            actor=actor,
            target=target,
            region=region,
            potential_witnesses=potential,
            logged_witnessed=flag,
            logged_witnesses=logged,
            unlogged_potential=unlogged,
            logged_not_potential=extra,
            flag_mismatch=flag is not None and flag != bool(potential),
        )

    def result(self) -> Witnesses:
        """Per agent counts and evidence ids, and every act."""
        all_acts = tuple(self._act(raw) for raw in self._raw)
        by_actor: dict[str, list[AggressiveAct]] = {a: [] for a in self._agents}
        for act in all_acts:
            by_actor[act.actor].append(act)
        rows = []
        for agent in sorted(by_actor):
            acts = by_actor[agent]
            flagged = sum(1 for a in acts if a.logged_witnessed is not None)
            counted = [
                a for a in acts
                if (a.logged_witnessed if a.logged_witnessed is not None else bool(a.potential_witnesses))
            ]
            basis: Basis = (
                "none" if not acts
                else "witnessed-flag" if flagged == len(acts)
                else "potential-witness" if flagged == 0
                else "mixed"
            )
            unseen = [a.event_id for a in acts if a.unseen]
            rows.append(AgentWitnessing(
                agent=agent,
                acts=len(acts),
                attacks=sum(1 for a in acts if a.type == "attack"),
                raids=sum(1 for a in acts if a.type == "raid"),
                thefts=sum(1 for a in acts if a.type == "theft"),
                with_potential_witness=len(acts) - len(unseen),
                marked_witnessed=sum(1 for a in acts if a.logged_witnessed),
                unseen=len(unseen),
                stealth_rate=len(unseen) / len(acts) if acts else None,
                aggression=len(counted),
                basis=basis,
                act_ids=tuple(a.event_id for a in acts),
                potential_witness_ids=tuple(a.event_id for a in acts if not a.unseen),
                witnessed_ids=tuple(a.event_id for a in acts if a.logged_witnessed),
                unseen_ids=tuple(unseen),
                aggression_ids=tuple(a.event_id for a in counted),
            ))
        return Witnesses(tuple(rows), all_acts)
