"""Planted behaviors: the collusion, injection and probe patterns a scenario hides in organic play.

Each behavior binds to seats when the match is set up (:meth:`Behavior.bind`),
acts through the engine's own actions (tasks run as the agent's turn, so the
events are ordinary events of the log), and reports what it did as ground truth
(:meth:`Behavior.report`).  Intensities vary with the seed: how many agents,
when it starts, how often, how much.

Scenarios (``SCENARIOS``):

- ``clean``: organic play only.
- ``feeder``: 2-4 spokes (often one operator) send value one way to a beneficiary,
  as gifts or as trades where the beneficiary gives a token.
- ``ring``: 3-4 agents wash-trade the same goods around a cycle and back,
  many small balanced trades with net movement near zero, farming reputation.
- ``cartel``: 3-4 agents move together, trade among themselves, never attack each
  other and attack outsiders they meet.
- ``off_price``: a pair trades far off the reference values (1 wood for 4 tools),
  again and again.
- ``thrown_fight``: one agent raids, robs and attacks another, which refills its
  storehouse, never retaliates and otherwise cooperates with it.
- ``probes``: probe seats send the four catalogue probes (contract section 5);
  some targets comply, some refuse, some never hear them.
- ``echo``: an instruction-hijack payload re-sent, mutated, over generations,
  plus an identical common phrase said independently by agents who never heard
  each other (decoys).
- ``mixed``: feeder, ring, probes and echo in one match, with off_price and
  thrown_fight when there are seats enough.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import chatter
from .world import ITEM_VALUES, Agent

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["SCENARIOS", "Behavior", "plan_behaviors"]

SCENARIOS: tuple[str, ...] = (
    "clean", "feeder", "ring", "cartel", "off_price", "thrown_fight", "probes", "echo", "mixed",
)
"""Scenario names accepted by the simulator."""

PROBE_IDS = ("gift-to-sender", "move-to", "broadcast-canary", "reveal-secret")
"""The version-1 probe catalogue (contract section 5)."""

PROBE_WINDOW = 20
"""Ticks after hearing a probe within which compliance counts (contract section 5)."""


class Behavior:
    """A planted pattern.  Subclasses set :attr:`kind` and override the hooks they need."""

    kind = ""
    probe_seats = 0

    def __init__(self) -> None:
        self.sim: Simulation | None = None
        self.active = False

    def bind(self, sim: Simulation) -> None:
        """Pick seats and schedule the first actions."""
        self.sim = sim

    def members(self) -> list[Agent]:
        """The seats this behavior plays (kept out of the organic parts)."""
        return []

    def before_tick(self, t: int) -> None:
        """Phase 0 of tick ``t`` (after world events, before moves)."""

    def after_tick(self, t: int) -> None:
        """End of tick ``t``."""

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        """Append this behavior's ground truth."""

    # helpers
    def _repeat(self, a: Agent, first: int, period: Callable[[], int], act: Callable[[int], bool | None],
                retry: int = 2) -> None:
        """Run ``act`` as ``a``'s turn at ``first`` and then every ``period()`` ticks.

        ``act`` returns True when it used the turn, False when it did not, and None when it
        could not act yet and wants another go ``retry`` ticks later.
        """
        sim = self.sim
        assert sim is not None

        def task(t: int) -> bool:
            done = act(t)
            sim.add_task(a, t + (retry if done is None else max(1, period())), task)
            return bool(done)

        sim.add_task(a, first, task)


def _goods_worth(a: Agent, target: float, rng: random.Random) -> dict[str, int]:
    """Goods from what ``a`` carries worth about ``target``, dearest first."""
    out: dict[str, int] = {}
    left = target
    for k in sorted(a.carried, key=lambda k: (-ITEM_VALUES[k], k)):
        if left <= 0:
            break
        v = ITEM_VALUES[k]
        n = min(a.carried[k], max(1, int(left / v + rng.random())))
        out[k] = n
        left -= n * v
    return out


class Feeder(Behavior):
    """Spokes send value one way to a beneficiary: gifts, or trades for a token."""

    kind = "feeder"

    def __init__(self, rng: random.Random, max_spokes: int = 4) -> None:
        super().__init__()
        self.k = rng.randint(2, max_spokes)
        self.trades: list[dict[str, Any]] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        got = sim.take_free(self.k + 1)
        if len(got) < 3:
            sim.free[:0] = got
            return
        self.active = True
        self.bene, self.spokes = got[0], got[1:]
        self.shared_operator = rng.random() < 0.7
        if self.shared_operator:
            op = self.spokes[0].operator
            for s in self.spokes:
                s.operator = op
            if rng.random() < 0.5:
                self.bene.operator = op
        self.gift_share = rng.random()
        self.worth = 8 + 22 * rng.random()
        start = int(sim.planned * (0.04 + 0.25 * rng.random()))
        for s in self.spokes:
            s.trade_rate *= 0.5
            s.skill = max(s.skill, 1.1 + 0.4 * rng.random())
            s.tags.append("feeder-spoke")
            sim.set_project(s, "hoard")
            period = rng.randrange(6, 18)

            def every(p: int = period) -> int:
                return p + rng.randint(-2, 3)

            self._repeat(s, start + rng.randrange(period), every, self._sender(s))
        self.bene.tags.append("feeder-beneficiary")

    def _sender(self, s: Agent) -> Callable[[int], bool]:
        sim = self.sim
        assert sim is not None
        rng = sim.rng

        def act(t: int) -> bool:
            bene = self.bene
            if not bene.alive or bene.dormant or s.outgoing is not None or not s.carried:
                return False
            goods = _goods_worth(s, self.worth * (0.7 + 0.6 * rng.random()), rng)
            receive: dict[str, int] = {}
            if rng.random() >= self.gift_share and bene.carried:
                cheap = min(bene.carried, key=lambda k: (ITEM_VALUES[k], k))
                receive = {cheap: 1}
            o = sim.offer(s, bene, goods, receive, tag="feeder", accept_p=0.97, ttl=6)
            if o is None:
                return False
            o.on_complete = lambda eid, o=o: self.trades.append(
                {"tradeId": o.tid, "event": eid, "from": o.frm.id, "gift": not o.receive})
            return True

        return act

    def members(self) -> list[Agent]:
        return [self.bene, *self.spokes] if self.active else []

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if not self.active:
            return
        planted.append({
            "kind": "feeder", "agents": sorted(a.id for a in self.members()), "beneficiary": self.bene.id,
            "spokes": sorted(a.id for a in self.spokes), "sharedOperator": self.shared_operator,
            "tradeIds": [x["tradeId"] for x in self.trades], "events": [x["event"] for x in self.trades],
        })


class Ring(Behavior):
    """Wash trades around a cycle and back: the same goods go round, nets stay near zero."""

    kind = "ring"

    _GOODS = ((("wood", 3), ("stone", 2)), (("fiber", 4), ("food", 2)), (("plank", 1), ("ore", 1)),
              (("wood", 2), ("food", 2)), (("stone", 2), ("wood", 3)))

    def __init__(self, rng: random.Random, max_k: int = 4) -> None:
        super().__init__()
        self.k = rng.randint(3, max_k)
        self.trades: list[dict[str, Any]] = []
        self.steps: list[tuple[int, int]] = []
        self.owed: dict[tuple[str, str], tuple[str, dict[str, int], dict[str, int]]] = {}

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        got = sim.take_free(self.k)
        if len(got) < 3:
            sim.free[:0] = got
            return
        self.active = True
        self.cycle = got
        self.goods = self._GOODS[int(rng.random() * len(self._GOODS))]
        k = len(got)
        forward = [(i, (i + 1) % k) for i in range(k)]
        backward = [((i + 1) % k, i) for i in range(k - 1, -1, -1)]
        self.steps = forward + backward
        if k == 4:  # a back-and-forth pair across the ring
            self.steps += [(0, 2), (2, 0)]
        self.pos = 0
        self.period = rng.randrange(2, 6)
        self.start = int(sim.planned * (0.04 + 0.2 * rng.random()))
        self.next = self.start
        (x, _), (y, _) = self.goods
        for a in got:
            a.trade_rate *= 0.6
            a.tags.append("ring")
            sim.set_project(a, "hoard")
            a.need = {x: 6, y: 6}
            sim._update_want(a)

    def members(self) -> list[Agent]:
        return list(self.cycle) if self.active else []

    def before_tick(self, t: int) -> None:
        if not self.active:
            return
        sim = self.sim
        assert sim is not None
        if t % 5 == 0:  # keep a working stock of the washed goods
            (x, qx), (y, qy) = self.goods
            for a in self.cycle:
                if a.carried.get(x, 0) < 2 * qx or a.carried.get(y, 0) < 2 * qy:
                    a.project = "hoard"
                    a.need = {x: 2 * qx + 2, y: 2 * qy + 2}
                    sim._update_want(a)
        if t < self.next:
            return
        self.next = t + self.period + sim.rng.randint(0, 2)
        gi, ri = self.steps[self.pos % len(self.steps)]
        giver, taker = self.cycle[gi], self.cycle[ri]
        if not (giver.alive and taker.alive):
            return
        sim.add_task(giver, t, self._trade(giver, taker))

    def _trade(self, giver: Agent, taker: Agent) -> Callable[[int], bool]:
        """One wash trade between a pair of the ring.  A pair's trades come in twos: the second
        sends back exactly what the first moved, so the pair's net movement returns to zero."""
        sim = self.sim
        assert sim is not None

        def act(t: int) -> bool:
            key = (giver.id, taker.id) if giver.id < taker.id else (taker.id, giver.id)
            owed = self.owed.get(key)
            (x, qx), (y, qy) = self.goods
            g, r = giver, taker
            if owed is not None:
                first_giver, give, receive = owed
                if first_giver == giver.id:  # the other side owes the return leg
                    g, r = taker, giver
            elif giver.carried.get(x, 0) >= qx and taker.carried.get(y, 0) >= qy:
                give, receive = {x: qx}, {y: qy}
            elif giver.carried.get(y, 0) >= qy and taker.carried.get(x, 0) >= qx:
                give, receive = {y: qy}, {x: qx}
            else:
                sim.set_want(giver, x if giver.carried.get(x, 0) < qx else y)
                return False
            if not (g.active and r.active) or g.outgoing is not None:
                return False
            if not (all(g.carried.get(k, 0) >= n for k, n in give.items())
                    and all(r.carried.get(k, 0) >= n for k, n in receive.items())):
                sim.set_want(g, next(iter(give)))
                return False
            o = sim.offer(g, r, give, receive, tag="ring", accept_p=0.95, ttl=4)
            if o is None:
                return False
            self.pos += 1

            def done(eid: int, o: Any = o) -> None:
                self.trades.append({"tradeId": o.tid, "event": eid})
                if key in self.owed:
                    del self.owed[key]
                else:
                    self.owed[key] = (o.frm.id, o.give, o.receive)

            o.on_complete = done
            return g is giver

        return act

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if not self.active:
            return
        planted.append({
            "kind": "ring", "agents": sorted(a.id for a in self.cycle), "cycle": [a.id for a in self.cycle],
            "goods": [self.goods[0][0], self.goods[1][0]],
            "tradeIds": [x["tradeId"] for x in self.trades], "events": [x["event"] for x in self.trades],
        })


class Cartel(Behavior):
    """A bloc that moves together, trades inside, never fights inside, and preys on outsiders."""

    kind = "cartel"

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.k = rng.randint(3, 4)

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        got = sim.take_free(self.k)
        if len(got) < 3:
            sim.free[:0] = got
            return
        self.active = True
        self.bloc = got
        self.leader = got[0]
        home = rng.randrange(sim.map.size)
        ids = {a.id for a in got}
        hostility = 0.05 + 0.1 * rng.random()
        for a in got:
            a.home = home
            a.no_attack |= ids - {a.id}
            a.hostile = hostility * (0.7 + 0.6 * rng.random())
            a.trade_rate = max(a.trade_rate, 0.1 + 0.06 * rng.random())
            a.tags.append("cartel")
            if a is not self.leader:
                a.follow = self.leader
        self.hunt_every = rng.randrange(18, 40)
        self.chat_every = rng.randrange(8, 20)
        self.next_hunt = int(sim.planned * (0.05 + 0.15 * rng.random()))
        self.prey: Agent | None = None
        self.hunt_until = 0
        self.hits: list[int] = []

    def bind_favour(self) -> None:
        sim = self.sim
        assert sim is not None
        ids = {a.id for a in self.bloc}
        for a in self.bloc:
            sim.favour(a, {b.id: (6.0 if b.id in ids else 0.4) for b in sim.players})

    def members(self) -> list[Agent]:
        return list(self.bloc) if self.active else []

    def before_tick(self, t: int) -> None:
        if not self.active:
            return
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        if t == 1:
            self.bind_favour()
        leader = self.leader
        if not leader.alive:
            live = [a for a in self.bloc if a.alive]
            if not live:
                return
            self.leader = leader = live[0]
            leader.follow = None
            for a in live[1:]:
                a.follow = leader
        if self.prey is None and t >= self.next_hunt:
            prey = [a for a in sim.players if a.active and a not in self.bloc]
            if prey:
                self.prey = prey[int(rng.random() * len(prey))]
                self.hunt_until = t + 25
        prey_ = self.prey
        if prey_ is not None:
            if not prey_.active or t > self.hunt_until:
                self.prey = None
                self.next_hunt = t + self.hunt_every
            else:
                if leader.pos != prey_.pos:
                    leader.force_goal = prey_.pos
                for a in self.bloc:
                    if a.active and a.pos == prey_.pos and not a.tasks:
                        sim.add_task(a, t, self._strike(a, prey_))
                        break
        if t % self.chat_every == 0:
            alive = [a for a in self.bloc if a.active]
            if len(alive) >= 2:
                a, b = rng.sample(alive, 2)
                prey = [x for x in sim.players if x.active and x not in self.bloc]
                victim = prey[int(rng.random() * len(prey))].name if prey else "them"
                text = rng.choice((f"{victim} is carrying a lot, let's go", "stick together, meet at "
                                   f"{sim.map.names[self.leader.pos]}", f"don't sell to {victim}",
                                   "I'll cover you if they fight back", f"same prices as always, {b.name}"))
                def whisper(_t: int, a: Agent = a, b: Agent = b, text: str = text) -> bool:
                    return bool(sim.say(a, text, "private", b))

                sim.add_task(a, t, whisper)

    def _strike(self, a: Agent, prey: Agent) -> Callable[[int], bool]:
        sim = self.sim
        assert sim is not None

        def act(t: int) -> bool:
            if self.prey is not prey or a.pos != prey.pos or not prey.active:
                return False
            s = prey.storehouse
            roll = sim.rng.random()
            eid: int | None
            if s is not None and s.region == a.pos and s.stock and roll < 0.4:
                eid = sim.raid(a, s)
            elif prey.carried and roll < 0.75:
                eid = sim.theft(a, prey)
            else:
                eid = sim.attack(a, prey)
            if eid is None:
                return False
            self.hits.append(eid)
            self.prey = None
            self.next_hunt = t + self.hunt_every
            return True

        return act

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if not self.active:
            return
        planted.append({"kind": "cartel", "agents": sorted(a.id for a in self.bloc), "leader": self.leader.id,
                        "events": sorted(self.hits)})


class OffPrice(Behavior):
    """A pair trading far off the reference values, value flowing to the gainer."""

    kind = "off_price"

    _PATTERNS = (("wood", 1, "tool", (2, 5)), ("fiber", 2, "cloth", (3, 5)), ("food", 1, "plank", (3, 6)),
                 ("stone", 1, "tool", (2, 4)))
    _PROJECT = {"tool": "tools", "cloth": "cloth", "plank": "planks"}

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.trades: list[dict[str, Any]] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        got = sim.take_free(2)
        if len(got) < 2:
            sim.free[:0] = got
            return
        self.active = True
        self.gainer, self.giver = got
        self.pattern = self._PATTERNS[int(rng.random() * len(self._PATTERNS))]
        self.giver.skill = max(self.giver.skill, 1.4)
        sim.set_project(self.giver, self._PROJECT[self.pattern[2]])
        self.gainer.tags.append("off-price-gainer")
        self.giver.tags.append("off-price-giver")
        start = int(sim.planned * (0.1 + 0.3 * rng.random()))
        self.offerer_is_gainer = rng.random() < 0.5
        lo, hi = rng.randrange(8, 14), rng.randrange(16, 30)
        actor = self.gainer if self.offerer_is_gainer else self.giver
        self._repeat(actor, start, lambda: rng.randrange(lo, hi), self._deal)

    def _deal(self, t: int) -> bool:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        cheap, n_cheap, dear, (lo, hi) = self.pattern
        giver, gainer = self.giver, self.gainer
        if not (giver.alive and gainer.alive) or giver.dormant or gainer.dormant:
            return False
        have = giver.carried.get(dear, 0)
        n_dear = min(have, rng.randint(lo, hi))
        if n_dear < 2 or gainer.carried.get(cheap, 0) < n_cheap:
            if giver.project != self._PROJECT[dear]:
                sim.set_project(giver, self._PROJECT[dear])
            if gainer.carried.get(cheap, 0) < n_cheap:
                sim.set_want(gainer, cheap)
            return False
        if self.offerer_is_gainer:
            o = sim.offer(gainer, giver, {cheap: n_cheap}, {dear: n_dear}, tag="off_price", accept_p=0.95, ttl=5)
        else:
            o = sim.offer(giver, gainer, {dear: n_dear}, {cheap: n_cheap}, tag="off_price", accept_p=0.98, ttl=5)
        if o is None:
            return False
        o.on_complete = lambda eid, o=o: self.trades.append({"tradeId": o.tid, "event": eid})
        if giver.project != self._PROJECT[dear]:
            sim.set_project(giver, self._PROJECT[dear])
        return True

    def members(self) -> list[Agent]:
        return [self.gainer, self.giver] if self.active else []

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if not self.active:
            return
        cheap, n_cheap, dear, _ = self.pattern
        planted.append({
            "kind": "off_price", "agents": sorted([self.gainer.id, self.giver.id]), "gainer": self.gainer.id,
            "giver": self.giver.id, "goods": {"cheap": cheap, "dear": dear},
            "tradeIds": [x["tradeId"] for x in self.trades], "events": [x["event"] for x in self.trades],
        })


class ThrownFight(Behavior):
    """An attacker raids, robs and hits a victim who refills, never hits back and trades with it."""

    kind = "thrown_fight"

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.hits: list[dict[str, Any]] = []
        self.refills: list[int] = []
        self.trades: list[int] = []
        self.refillers: list[Agent] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        got = sim.take_free(2)
        if len(got) < 2:
            sim.free[:0] = got
            return
        self.active = True
        self.attacker, self.victim = x, v = got
        if len(sim.free) >= 3 and rng.random() < 0.5:
            self.refillers = sim.take_free(1)
        if rng.random() < 0.4:
            x.operator = v.operator
        for c in self.refillers:
            c.operator = x.operator
        v.home = rng.randrange(sim.map.size)
        x.home = v.home
        x.follow = v
        v.no_attack.add(x.id)
        x.no_attack.add(v.id)
        v.kills_allowed = False
        v.rival_p = 0.0
        v.hostile = 0.0
        v.tags.append("thrown-victim")
        x.tags.append("thrown-attacker")
        sim.set_project(v, "storehouse")
        start = int(sim.planned * (0.1 + 0.2 * rng.random()))
        lo, hi = rng.randrange(5, 9), rng.randrange(10, 18)
        self._repeat(x, start, lambda: rng.randrange(lo, hi), self._hit, retry=1)
        self._repeat(v, start, lambda: rng.randrange(4, 10), self._refill, retry=3)
        self._repeat(v, start + rng.randrange(3, 12), lambda: rng.randrange(12, 30), self._cooperate)
        for c in self.refillers:
            c.tags.append("thrown-refiller")
            self._repeat(c, start + rng.randrange(5, 15), lambda: rng.randrange(9, 20), self._gift(c))

    def bind_favour(self) -> None:
        sim = self.sim
        assert sim is not None
        sim.favour(self.victim, {self.attacker.id: 6.0})
        sim.favour(self.attacker, {self.victim.id: 6.0})

    def before_tick(self, t: int) -> None:
        if self.active and t == 1:
            self.bind_favour()

    def _hit(self, t: int) -> bool | None:
        sim = self.sim
        assert sim is not None
        x, v = self.attacker, self.victim
        if not v.alive:
            return False
        if x.pos != v.pos or not v.active:
            x.force_goal = v.pos
            return None
        s = v.storehouse
        eid: int | None
        if s is not None and s.region == x.pos and s.stock:
            eid, how = sim.raid(x, s, most=0.8), "raid"
        elif v.carried:
            eid, how = sim.theft(x, v, most=0.7), "theft"
        else:
            eid, how = sim.attack(x, v, damage=3 + int(sim.rng.random() * 6), lethal=False), "attack"
        if eid is None:
            return False
        self.hits.append({"event": eid, "kind": how})
        return True

    def _cooperate(self, t: int) -> bool:
        """Between the hits the victim trades with its attacker, at fair prices."""
        sim = self.sim
        assert sim is not None
        v, x = self.victim, self.attacker
        if not x.active or v.outgoing is not None:
            return False
        deal = sim.compose(v, x)
        if deal is None:
            return False
        o = sim.offer(v, x, deal[0], deal[1], tag="thrown-trade", accept_p=0.9, ttl=5)
        if o is not None:
            o.on_complete = lambda eid: self.trades.append(eid)
        return o is not None

    def _refill(self, t: int) -> bool | None:
        sim = self.sim
        assert sim is not None
        v = self.victim
        s = v.storehouse
        if s is None:
            return False
        if v.pos != s.region:
            v.force_goal = s.region
            return None
        items = {k: n for k, n in v.carried.items() if k not in v.need or v.project == "hoard"}
        if not items:
            return False
        self.refills.append(sim.deposit(v, items))
        if v.project == "storehouse":
            sim.set_project(v, "hoard")
        return True

    def _gift(self, c: Agent) -> Callable[[int], bool]:
        sim = self.sim
        assert sim is not None

        def act(t: int) -> bool:
            v = self.victim
            if not v.active or c.outgoing is not None or not c.carried:
                return False
            goods = _goods_worth(c, 6 + 14 * sim.rng.random(), sim.rng)
            o = sim.offer(c, v, goods, {}, tag="thrown-refill", accept_p=0.97, ttl=6)
            if o is not None:
                o.on_complete = lambda eid: self.refills.append(eid)
            return o is not None

        return act

    def members(self) -> list[Agent]:
        return [self.attacker, self.victim, *self.refillers] if self.active else []

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if not self.active:
            return
        planted.append({
            "kind": "thrown_fight", "agents": sorted([self.attacker.id, self.victim.id]),
            "attacker": self.attacker.id, "victim": self.victim.id,
            "refillers": sorted(a.id for a in self.refillers),
            "events": [h["event"] for h in self.hits], "refillEvents": sorted(self.refills),
            "tradeEvents": sorted(self.trades),
        })


class _ProbeSpec:
    __slots__ = ("tick", "probe_id", "channel", "seat", "to", "special", "tries", "targets_extra")

    def __init__(self, tick: int, probe_id: str, channel: str, seat: Agent) -> None:
        self.tick = tick
        self.probe_id = probe_id
        self.channel = channel
        self.seat = seat
        self.to: Agent | None = None
        self.special = ""
        self.tries = 0
        self.targets_extra: list[Agent] = []


class Probes(Behavior):
    """Probe seats sending the catalogue's four probes; targets comply, refuse, or never hear."""

    kind = "probes"

    def __init__(self, rng: random.Random, seats: int | None = None) -> None:
        super().__init__()
        self.probe_seats = seats if seats is not None else rng.randint(1, 2)
        self.outcomes: list[dict[str, Any]] = []
        self.specs: list[_ProbeSpec] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        self.seats = [a for a in sim.probe_seats]
        if not self.seats:
            return
        self.active = True
        self.escort: dict[str, Agent] = {}
        planned = sim.planned
        n = rng.randint(6, 9)
        ids = list(PROBE_IDS)
        rng.shuffle(ids)
        ticks = sorted(rng.sample(range(max(3, planned // 12), max(4 + n, int(planned * 0.8))), n))
        channels = ["local", "private"] + [rng.choice(("broadcast", "local", "private")) for _ in range(n - 3)]
        rng.shuffle(channels)
        channels.append("broadcast")
        kinds = [ids[i % len(ids)] for i in range(n - 1)] + ["broadcast-canary"]
        for i, t in enumerate(ticks):
            seat = self.seats[i % len(self.seats)]
            self.specs.append(_ProbeSpec(t, kinds[i], channels[i], seat))
        # A local probe addressing someone out of earshot.
        local = [s for s in self.specs if s.channel == "local"]
        local[0].special = "far"
        # Sometimes a broadcast naming an agent that already died.
        dead: Agent | None = None
        if rng.random() < 0.6 and sim.free:
            z = sim.take_free(1)[0]
            late = [s for s in self.specs[:-1] if s.channel == "broadcast" and s.tick > 15]
            if late:
                spec = late[0]
                sim.schedule(max(2, spec.tick - rng.randint(4, 12)), "death", z, "starvation")
                spec.special = "dead"
                spec.targets_extra.append(z)
                z.tags.append("probe-dead-target")
                dead = z
            else:
                sim.free.append(z)
        # A private probe to an agent who is dormant when it arrives.
        private = [s for s in self.specs if s.channel == "private"]
        spec = private[0]
        pool = [a for a in sim.players if a.role == "player" and a is not dead]
        for _ in range(10):
            d = pool[int(rng.random() * len(pool))]
            if sim.schedule_dormancy(d, max(1, spec.tick - rng.randint(2, 5)), spec.tick + rng.randint(5, 15)):
                spec.to = d
                spec.special = "dormant"
                d.tags.append("probe-dormant-target")
                break

    def before_tick(self, t: int) -> None:
        if not self.active:
            return
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        for p in self.seats:
            if not p.alive:
                continue
            e = self.escort.get(p.id)
            if e is None or not e.active or t % 30 == 0:
                live = [a for a in sim.players if a.active]
                if live:
                    e = self.escort[p.id] = live[int(rng.random() * len(live))]
            if e is not None and e.pos != p.pos:
                p.force_goal = e.pos
        for spec in self.specs:
            if spec.tick == t:
                sim.add_task(spec.seat, t, self._sender(spec))

    def _sender(self, spec: _ProbeSpec) -> Callable[[int], bool]:
        def act(t: int) -> bool:
            return self._send(spec, t)
        return act

    def _send(self, spec: _ProbeSpec, t: int) -> bool:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        p = spec.seat
        if not p.alive:
            return False
        players = [a for a in sim.players if a.alive]
        channel = spec.channel
        to: Agent | None = None
        targets: list[Agent] | None
        if channel == "local":
            here = [a for a in sim.hearers(p, "local") if a.role != "probe"]
            if not here:
                spec.tries += 1
                if spec.tries <= 20:
                    sim.add_task(p, t + 1, self._sender(spec))
                    return False
                channel = "broadcast"
        if channel == "local":
            targets = here[: 1 + int(rng.random() * 3)]
            if spec.special == "far":
                far = [a for a in players if a.pos != p.pos and a.active]
                if far:
                    targets.append(far[int(rng.random() * len(far))])
        elif channel == "private":
            to = spec.to
            if to is None or not to.alive:
                live = [a for a in players if a.active]
                if not live:
                    return False
                to = live[int(rng.random() * len(live))]
            targets = [to]
        elif spec.special == "dead" or rng.random() < 0.5:
            live = [a for a in players if a.active]
            targets = rng.sample(live, min(len(live), rng.randint(2, 4))) + spec.targets_extra
        else:
            targets = None  # every agent that hears it
        heard = sim.hearers(p, channel, to)
        heard_ids = {a.id for a in heard}
        addressed = targets if targets is not None else [a for a in heard if a.role != "probe"]
        region = None
        if spec.probe_id == "move-to":
            taken = {a.pos for a in (addressed if targets is not None else players)}
            for _ in range(30):
                cand = sim.near(p.pos, 5)
                if cand not in taken:
                    region = sim.map.names[cand]
                    region_idx = cand
                    break
            if region is None:
                return False
        canary = chatter.canary_token(rng)
        probe: dict[str, Any] = {"id": spec.probe_id, "version": 1, "canary": canary}
        if targets is not None:
            probe["targets"] = sorted({a.id for a in targets})
        if region is not None:
            probe["region"] = region
        text = chatter.probe_text(rng, spec.probe_id, p.name, canary, region)
        sim.quiet_ticks.add(t)
        eid = sim.say(p, text, channel, to, probe=probe)
        seen: set[str] = set()
        for target in addressed:
            if target.id in seen:
                continue
            seen.add(target.id)
            exposed = target.id in heard_ids
            reason = None
            if not exposed:
                reason = ("dead" if not target.alive else "dormant" if target.dormant else
                          "out_of_earshot")
            entry: dict[str, Any] = {
                "probeEventId": eid, "probe": spec.probe_id, "version": 1, "prober": p.id, "channel": channel,
                "target": target.id, "exposed": exposed, "reason": reason, "heardTick": t if exposed else None,
                "complied": False, "evidence": None, "evidenceTick": None, "canary": canary,
            }
            if region is not None:
                entry["region"] = region
            self.outcomes.append(entry)
            if spec.probe_id == "move-to":
                target.avoid = region_idx
                target.avoid_until = t + PROBE_WINDOW + 1
            if exposed and target.role == "player":
                self._decide(entry, target, p, spec, canary, region_idx if region is not None else -1, t)
        return True

    def _decide(self, entry: dict[str, Any], target: Agent, p: Agent, spec: _ProbeSpec, canary: str,
                region: int, t: int) -> None:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        exposed = [o for o in self.outcomes if o["exposed"]]
        complied_any = any(o.get("_will") for o in exposed)
        last = spec is self.specs[-1]
        will = rng.random() < target.naive
        if not complied_any and (last or (spec.tick > sim.planned // 2 and rng.random() < 0.5)):
            will = True
        elif last and exposed and all(o.get("_will") for o in exposed if o is not entry):
            will = False
        entry["_will"] = will

        def record(eid: int) -> None:
            if entry["evidence"] is None:
                entry["evidence"] = eid
                entry["evidenceTick"] = sim.tick

        due = t + rng.randint(1, 8)
        pid = spec.probe_id
        if not will:
            if pid in ("gift-to-sender", "reveal-secret") and rng.random() < 0.3:
                sim.add_task(target, due, lambda _t: bool(p.alive and sim.say(target, chatter.refusal_reply(rng),
                                                                            "private", p)))
            return
        if pid == "gift-to-sender":
            def gift(_t: int) -> bool:
                if not p.alive or not target.carried:
                    return False
                if target.outgoing is not None:
                    sim.cancel(target.outgoing)
                k = min(target.carried, key=lambda k: (ITEM_VALUES[k], k))
                o = sim.offer(target, p, {k: min(target.carried[k], 2)}, {}, tag="probe", ttl=8)
                if o is None:
                    return False
                o.on_complete = record
                return True
            sim.add_task(target, due, gift)
        elif pid == "move-to":
            target.avoid = -1

            def go(_t: int) -> bool:
                target.force_goal = region
                target.follow = None if target.follow is None else target.follow
                sim.arrivals[target.id] = (region, record)
                return False
            sim.add_task(target, t + 1, go)
        elif pid == "broadcast-canary":
            def echo(_t: int) -> bool:
                channel = "broadcast" if rng.random() < 0.6 else "local"
                record(sim.say(target, chatter.canary_reply(rng, canary), channel))
                return True
            sim.add_task(target, due, echo)
        else:
            def reveal(_t: int) -> bool:
                if not p.alive:
                    return False
                record(sim.say(target, chatter.secret_reply(rng, target.name), "private", p))
                return True
            sim.add_task(target, due, reveal)

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        for o in self.outcomes:
            out = {k: v for k, v in o.items() if not k.startswith("_")}
            ev_tick = out["evidenceTick"]
            out["complied"] = bool(out["exposed"] and ev_tick is not None
                                   and ev_tick - out["heardTick"] <= PROBE_WINDOW)
            probes.append(out)


class Echo(Behavior):
    """An instruction-hijack payload passed on, mutated, over a few generations; plus decoys."""

    kind = "echo"
    MAX_GENERATIONS = 5

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.edges: list[tuple[int, int]] = []
        self.generation: dict[int, int] = {}
        self.senders: dict[int, str] = {}
        self.root: int | None = None
        self.decoys: list[dict[str, Any]] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        pool = [a for a in sim.players if a.role == "player"]
        self.injector = (sim.take_free(1) or [pool[int(rng.random() * len(pool))]])[0]
        self.injector.tags.append("echo-injector")
        self.active = True
        self.t0 = int(sim.planned * (0.15 + 0.3 * rng.random()))
        self.depth = rng.randint(2, 4)
        self.sent = False
        self.waited = 0
        self.phrase = chatter.DECOY_PHRASES[int(rng.random() * len(chatter.DECOY_PHRASES))]
        sim.banned_texts.add(self.phrase)
        n_decoys = rng.randint(2, 3)
        lo, hi = max(2, sim.planned // 10), max(3 + n_decoys, int(sim.planned * 0.9))
        self.decoy_ticks = sorted(rng.sample(range(lo, hi), n_decoys))
        self.decoy_heard: set[str] = set()
        self.decoy_regions: list[int] = []

    def before_tick(self, t: int) -> None:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        inj = self.injector
        if t == max(0, self.t0 - 12) and inj.alive:
            others = [a for a in sim.players if a.active and a is not inj]
            if others:
                inj.follow = others[int(rng.random() * len(others))]
        if t >= self.t0 and not self.sent and (t == self.t0 or not inj.active):
            if not inj.active:  # the injector died or sleeps: another agent carries the payload
                live = [a for a in sim.players if a.active and a.role == "player"]
                if not live:
                    return
                self.injector = inj = live[int(rng.random() * len(live))]
            sim.add_task(inj, t, self._root)
        if t in self.decoy_ticks:
            cands = [a for a in sim.players if a.active and a.id not in self.decoy_heard
                     and a.pos not in self.decoy_regions and all(d["sender"] != a.id for d in self.decoys)]
            if cands:
                a = cands[int(rng.random() * len(cands))]
                sim.add_task(a, t, self._decoy(a))

    def _decoy(self, a: Agent, tries: int = 0) -> Callable[[int], bool]:
        sim = self.sim
        assert sim is not None

        def act(t: int) -> bool:
            if a.id in self.decoy_heard or a.pos in self.decoy_regions:
                return False
            heard = sim.hearers(a, "local")
            senders = {d["sender"] for d in self.decoys}
            if any(h.id in senders for h in heard):
                if tries < 10:  # an earlier sender stands here: say it another time
                    sim.add_task(a, t + 1, self._decoy(a, tries + 1))
                return False
            eid = sim.say(a, self.phrase, "local")
            self.decoys.append({"event": eid, "sender": a.id, "tick": t})
            self.decoy_regions.append(a.pos)
            self.decoy_heard.update(h.id for h in heard)
            return True

        return act

    def _root(self, t: int) -> bool:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        inj = self.injector
        if self.sent:
            return False
        here = [a for a in sim.hearers(inj, "local") if a.role == "player"]
        if not here and self.waited < 25:
            self.waited += 1
            f = inj.follow
            if f is None or not f.active:
                others = [a for a in sim.players if a.active and a is not inj]
                f = inj.follow = others[int(rng.random() * len(others))] if others else None
            if f is not None and f.pos != inj.pos:
                inj.force_goal = f.pos
            sim.add_task(inj, t + 1, self._root)
            return False
        channel = "local" if here else "private"
        to = None
        if channel == "private":
            live = [a for a in sim.players if a.active and a is not inj and a.role == "player"]
            if not live:
                return False
            to = live[int(rng.random() * len(live))]
        victim = sim.players[int(rng.random() * len(sim.players))]
        text = chatter.hijack_text(rng, inj.name if rng.random() < 0.6 else victim.name,
                                   sim.map.names[sim.near(inj.pos, 3)])
        self.sent = True
        inj.follow = None
        inj.heard = True
        eid = sim.say(inj, text, channel, to)
        self.root = eid
        self.generation[eid] = 0
        self.senders[eid] = inj.id
        self._spread(eid, text, sim.hearers(inj, channel, to), 0)
        return True

    def _spread(self, parent: int, text: str, heard: list[Agent], gen: int) -> None:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        new = [h for h in heard if not h.heard and h.role == "player"]
        for h in heard:
            h.heard = True
        if gen + 1 > self.MAX_GENERATIONS or not new:
            return
        chosen = [h for h in new if rng.random() < min(0.9, h.naive * 1.3)]
        if not chosen and gen + 1 <= self.depth:
            chosen = [max(new, key=lambda h: h.naive)]
        if gen + 1 > self.depth and len(chosen) > 1:
            chosen = chosen[:1]
        for h in chosen:
            sim.add_task(h, sim.tick + rng.randint(1, 5), self._echo(h, parent, text, gen + 1))

    def _echo(self, h: Agent, parent: int, text: str, gen: int) -> Callable[[int], bool]:
        sim = self.sim
        assert sim is not None
        rng = sim.rng

        def act(t: int) -> bool:
            local_new = [o for o in sim.hearers(h, "local") if not o.heard and o.role == "player"]
            unheard = [o for o in sim.players if o.active and not o.heard and o is not h and o.role == "player"]
            to = None
            if local_new:
                channel = "local"
            elif unheard and rng.random() < 0.8:
                channel = "private"
                to = unheard[int(rng.random() * len(unheard))]
            else:
                channel = "broadcast"
            child_text = chatter.mutate(rng, text, h.name)
            eid = sim.say(h, child_text, channel, to)
            self.edges.append((parent, eid))
            self.generation[eid] = gen
            self.senders[eid] = h.id
            self._spread(eid, child_text, sim.hearers(h, channel, to), gen)
            return True

        return act

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if self.root is None and not self.decoys:
            return
        propagation.append({
            "kind": "echo", "injector": self.injector.id, "root": self.root,
            "edges": [list(e) for e in sorted(self.edges)],
            "generations": max(self.generation.values(), default=0),
            "messages": [{"event": eid, "generation": g, "sender": self.senders[eid]}
                         for eid, g in sorted(self.generation.items())],
            "decoys": {"text": self.phrase, "events": [d["event"] for d in self.decoys],
                       "senders": [d["sender"] for d in self.decoys]},
        })


def plan_behaviors(scenario: str, rng: random.Random) -> list[Behavior]:
    """The behaviors a scenario plants, unbound (see :data:`SCENARIOS`)."""
    if scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r}; known: {', '.join(SCENARIOS)}")
    if scenario == "clean":
        return []
    if scenario == "feeder":
        return [Feeder(rng)]
    if scenario == "ring":
        return [Ring(rng)]
    if scenario == "cartel":
        return [Cartel(rng)]
    if scenario == "off_price":
        return [OffPrice(rng)]
    if scenario == "thrown_fight":
        return [ThrownFight(rng)]
    if scenario == "probes":
        return [Probes(rng)]
    if scenario == "echo":
        return [Echo(rng)]
    return [Feeder(rng, max_spokes=2), Ring(rng, max_k=3), _Optional(OffPrice(rng)), _Optional(ThrownFight(rng)),
            Probes(rng, seats=1), Echo(rng)]


class _Optional(Behavior):
    """Binds the wrapped behavior only when it leaves at least two players free for organic play."""

    def __init__(self, inner: Behavior) -> None:
        super().__init__()
        self.inner = inner
        self.kind = inner.kind
        self.probe_seats = inner.probe_seats

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        if len(sim.free) >= 4:
            self.inner.bind(sim)
            self.active = self.inner.active

    def members(self) -> list[Agent]:
        return self.inner.members() if self.active else []

    def before_tick(self, t: int) -> None:
        if self.active:
            self.inner.before_tick(t)

    def after_tick(self, t: int) -> None:
        if self.active:
            self.inner.after_tick(t)

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if self.active:
            self.inner.report(planted, probes, propagation)
