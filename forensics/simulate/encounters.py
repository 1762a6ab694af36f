"""Encounters in a simulated match: who stands where, who sees a fight, who hears a message.

A mixin of :class:`~.engine.Simulation`.  Witnesses of an attack, raid or theft
and the hearers of a ``local`` message are the active agents standing in the
region when it happens, which (moves come first in a tick) is where they stand
at the end of the tick.
"""

# mypy: disable-error-code="misc"
# (methods of a mixin take the whole Simulation as self; mypy calls that an erased self type)
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from daishi_forensics.simulate import chatter
from .world import Agent, Structure, add_items, take_items

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["Encounters"]


class Encounters:
    """Fights (attack, raid, theft, death) and talk (broadcast, local, private)."""

    def witnesses(self: Simulation, a: Agent, target: Agent | None) -> list[str]:
        """Ids of the active agents standing with ``a`` now, other than ``a`` and ``target``."""
        return sorted(o.id for o in self.occ[a.pos].values() if o is not a and o is not target and o.active)

    def _maybe_fight(self: Simulation, a: Agent, t: int) -> bool:
        here = self.occ[a.pos]
        if len(here) < 2:
            return False
        rng = self.rng
        target = None
        for o in here.values():
            if o is a or not o.active or o.role == "probe" or o.id in a.no_attack:
                continue
            p = a.rival_p if o in a.rivals else a.hostile
            if p and rng.random() < p:
                target = o
                break
        if target is None:
            return False
        s = target.storehouse
        roll = rng.random()
        if s is not None and s.region == a.pos and s.stock and roll < 0.35:
            self.raid(a, s)
        elif target.carried and roll < 0.65:
            self.theft(a, target)
        else:
            self.attack(a, target)
        if a.llm and rng.random() < 0.3:
            self.say(a, chatter.threat_line(rng, target.name, self.map.names), "local")
        return True

    def _count_fight(self: Simulation, a: Agent, target: Agent) -> None:
        key = (a.id, target.id)
        self.fights[key] = self.fights.get(key, 0) + 1

    def _provoked(self: Simulation, target: Agent, a: Agent) -> None:
        if a.id in target.no_attack or target.role == "probe" or a in target.rivals:
            return
        target.rivals.append(a)
        target.rival_p = max(target.rival_p, 0.15 + 0.15 * self.rng.random())

    def attack(self: Simulation, a: Agent, target: Agent, damage: int | None = None, lethal: bool = True) -> int:
        """``a`` attacks ``target`` where both stand."""
        rng = self.rng
        if damage is None:
            damage = max(1, 4 + int(rng.random() * 11) + 3 * a.trained["strength"] - 2 * target.trained["vitality"])
        target.hp -= damage
        killed = False
        if target.hp <= 0:
            if lethal and target.kills_allowed and self.deaths_left > 0 and self.tick not in self.quiet_ticks:
                killed = True
            else:
                target.hp = 1 + int(rng.random() * 5)
        w = self.witnesses(a, target)
        eid = self.emit("attack", a, {"target": target.id, "region": self.map.names[a.pos], "damage": damage,
                                      "killed": killed, "witnessed": bool(w), "witnesses": w})
        a.energy -= 8
        if w:
            a.aggression += 1
        self._count_fight(a, target)
        self._provoked(target, a)
        if killed:
            self.kill(target, "combat", a)
        return eid

    def theft(self: Simulation, a: Agent, target: Agent, most: float = 0.5) -> int | None:
        """``a`` steals from what ``target`` carries."""
        inv = target.carried
        if not inv:
            return None
        rng = self.rng
        keys = list(inv)
        stolen: dict[str, int] = {}
        for _ in range(1 if rng.random() < 0.6 else 2):
            k = keys[int(rng.random() * len(keys))]
            if k not in stolen:
                stolen[k] = 1 + int(rng.random() * max(1, int(inv[k] * most)))
        take_items(inv, stolen)
        add_items(a.carried, stolen)
        w = self.witnesses(a, target)
        eid = self.emit("theft", a, {"target": target.id, "region": self.map.names[a.pos], "stolen": stolen,
                                     "witnessed": bool(w), "witnesses": w})
        a.energy -= 4
        if w:
            a.aggression += 1
        self._count_fight(a, target)
        self._provoked(target, a)
        self.set_want(target, next(iter(stolen)))
        return eid

    def raid(self: Simulation, a: Agent, s: Structure, most: float = 0.6) -> int:
        """``a`` raids structure ``s`` (a storehouse) where both are."""
        rng = self.rng
        stock = s.stock
        stolen: dict[str, int] = {}
        keys = list(stock)
        for _ in range(1 + int(rng.random() * 3)):
            if not keys:
                break
            k = keys.pop(int(rng.random() * len(keys)))
            stolen[k] = 1 + int(rng.random() * max(1, int(stock[k] * most)))
        take_items(stock, stolen)
        add_items(a.carried, stolen)
        w = self.witnesses(a, s.owner)
        payload: dict[str, Any] = {"target": s.owner.id, "structureId": s.sid, "region": self.map.names[a.pos]}
        if stolen:
            payload["stolen"] = stolen
        payload["witnessed"] = bool(w)
        payload["witnesses"] = w
        eid = self.emit("raid", a, payload)
        a.energy -= 6
        if w:
            a.aggression += 1
        self._count_fight(a, s.owner)
        self._provoked(s.owner, a)
        return eid

    def kill(self: Simulation, a: Agent, cause: str, killer: Agent | None = None) -> int:
        """``a`` dies (``agent_died``); its open offer is cancelled."""
        payload: dict[str, Any] = {"cause": cause}
        if killer is not None:
            payload["killer"] = killer.id
        eid = self.emit("agent_died", a, payload, act=False)
        a.alive = False
        a.died = self.tick
        self.deaths_left -= 1
        del self.occ[a.pos][a.id]
        if a.outgoing is not None:
            self.cancel(a.outgoing, act=False)
        a.incoming.clear()
        a.tasks.clear()
        a.force_goal = -1
        return eid

    def hearers(self: Simulation, sender: Agent, channel: str, to: Agent | None = None) -> list[Agent]:
        """Who hears a message now: ``broadcast`` every active agent, ``local`` the active agents in the
        sender's region, ``private`` the recipient if active (contract section 3)."""
        if channel == "private":
            return [to] if to is not None and to.alive and not to.dormant else []
        if channel == "local":
            return [o for o in self.occ[sender.pos].values() if o is not sender and o.alive and not o.dormant]
        return [o for o in self.agents if o is not sender and o.alive and not o.dormant]

    def say(self: Simulation, a: Agent, text: str, channel: str, to: Agent | None = None,
            probe: dict[str, Any] | None = None) -> int:
        """``a`` sends ``text``: ``broadcast``/``local`` as ``message``, ``private`` as ``message_private``."""
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if channel == "private":
            assert to is not None
            payload: dict[str, Any] = {"to": to.id, "text": text, "sha256": sha}
            typ = "message_private"
        else:
            payload = {"text": text, "sha256": sha, "channel": channel}
            typ = "message"
        if probe is not None:
            payload["probe"] = probe
        return self.emit(typ, a, payload)

    def _talk(self: Simulation, a: Agent, t: int) -> None:
        rng = self.rng
        names = self._others[a.id]
        regions = self.map.names
        r = rng.random()
        to = None
        if r < 0.36:
            channel, text = "broadcast", chatter.broadcast_line(rng, names, regions)
        elif r < 0.74:
            if len(self.occ[a.pos]) > 1:
                channel, text = "local", chatter.local_line(rng, names, regions)
            else:
                channel, text = "broadcast", chatter.broadcast_line(rng, names, regions)
        else:
            to = self._pick_partner(a)
            if to is None:
                return
            channel, text = "private", chatter.private_line(rng, names, regions)
        if text in self.banned_texts:
            return
        self.say(a, text, channel, to)
