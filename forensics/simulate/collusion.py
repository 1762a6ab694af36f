"""Planted collusion: feeders, wash-trading rings, wash cycles, cartels, off-price pairs, thrown fights.

Seed 002, section 2.9: hub-and-spoke one-way flows, trades far off the reference
values, pairwise mutual advantage and thrown fights, each hidden in organic play.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .planted import Behavior, goods_worth
from .world import ITEM_VALUES, Agent

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["FEEDER_MODES", "Feeder", "Ring", "WashCycle", "Cartel", "OffPrice", "ThrownFight"]

FEEDER_MODES: tuple[str, ...] = ("offer", "ask")
"""Who sends a feeder's trades: ``offer``, each spoke offers its goods to the beneficiary (the default, as
every feeder was planted before); ``ask``, the beneficiary asks each spoke for them and the spoke grants it."""


def _enlist(sim: Simulation, seats: list[Agent], tag: str, need: dict[str, int]) -> None:
    """Seats of a wash: they trade less on their own and hoard ``need`` of the washed goods."""
    for a in seats:
        a.trade_rate *= 0.6
        a.tags.append(tag)
        sim.set_project(a, "hoard")
        a.need = dict(need)
        sim._update_want(a)


def _keep_stock(sim: Simulation, seats: list[Agent], stock: dict[str, int]) -> None:
    """Every seat holding less than ``stock`` of a washed good hoards again, up to two more of each."""
    for a in seats:
        if any(a.carried.get(k, 0) < n for k, n in stock.items()):
            a.project = "hoard"
            a.need = {k: n + 2 for k, n in stock.items()}
            sim._update_want(a)


class Feeder(Behavior):
    """Spokes send value one way to a beneficiary: gifts, or trades for a token.

    ``mode`` (:data:`FEEDER_MODES`): ``offer``, a spoke offers the goods (for nothing or for a token of the
    beneficiary's); ``ask``, the beneficiary offers a spoke nothing or a token for the goods and the spoke
    accepts, as often as a spoke's offer is accepted.  Same seats, goods, tokens and timing draws either way.
    """

    kind = "feeder"

    def __init__(self, rng: random.Random, max_spokes: int = 4, *, mode: str = "offer") -> None:
        super().__init__()
        if mode not in FEEDER_MODES:
            raise ValueError(f"feeder_mode must be one of {', '.join(FEEDER_MODES)}, got {mode!r}")
        self.k = rng.randint(2, max_spokes)
        self.mode = mode
        self.trades: list[dict[str, Any]] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        got = self.claim(sim, self.k + 1, least=3)
        if not got:
            return
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

            if self.mode == "ask":  # the beneficiary's turn: it asks this spoke on the spoke's schedule
                self._repeat(self.bene, start + rng.randrange(period), every, self._asker(s))
            else:
                self._repeat(s, start + rng.randrange(period), every, self._sender(s))
        self.bene.tags.append("feeder-beneficiary")

    def _sender(self, s: Agent) -> Callable[[int], bool]:
        """Spoke ``s`` offers the beneficiary goods worth about :attr:`worth`, for nothing or its cheapest good."""

        def act(t: int) -> bool:
            bene = self.bene
            if not bene.alive or bene.dormant or s.outgoing is not None or not s.carried:
                return False
            goods, token = self._terms(s)
            return self._offer(s, bene, goods, token, gift=not token)

        return act

    def _terms(self, s: Agent) -> tuple[dict[str, int], dict[str, int]]:
        """One trade's terms, whoever sends it: goods of spoke ``s`` worth about :attr:`worth`, and the token the
        beneficiary gives back (its cheapest good; none for a gift, with the chance :attr:`gift_share`)."""
        sim = self.sim
        assert sim is not None
        rng, bene = sim.rng, self.bene
        goods = goods_worth(s, self.worth * (0.7 + 0.6 * rng.random()), rng)
        token: dict[str, int] = {}
        if rng.random() >= self.gift_share and bene.carried:
            token = {min(bene.carried, key=lambda k: (ITEM_VALUES[k], k)): 1}
        return goods, token

    def _offer(self, frm: Agent, to: Agent, give: dict[str, int], receive: dict[str, int], *, gift: bool) -> bool:
        """Send one of the feed's trades (a spoke's offer, or the beneficiary's request), accepted with a
        spoke's chance; once completed it is listed in :attr:`trades` (``gift``: the beneficiary gives nothing)."""
        sim = self.sim
        assert sim is not None
        o = sim.offer(frm, to, give, receive, tag="feeder", accept_p=0.97, ttl=6)
        if o is None:
            return False
        o.on_complete = lambda eid, o=o: self.trades.append(
            {"tradeId": o.tid, "event": eid, "from": o.frm.id, "gift": gift})
        return True

    def _asker(self, s: Agent) -> Callable[[int], bool | None]:
        """The beneficiary asks spoke ``s`` for goods worth about :attr:`worth`, giving nothing or its
        cheapest good; ``s`` accepts on its next turn with the chance a spoke's own offer has.  While the
        beneficiary's one offer is out (another spoke's request), it asks again two ticks later."""

        def act(t: int) -> bool | None:
            bene = self.bene
            if not bene.alive or bene.dormant or not s.active or not s.carried:
                return False
            if bene.outgoing is not None:
                return None
            goods, token = self._terms(s)
            return self._offer(bene, s, token, goods, gift=not token)

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


class _CycleWash(Behavior):
    """A wash played round a cycle of 3 to ``max_k`` seats (:class:`Ring`, :class:`WashCycle`): the seats, one
    pattern of goods drawn from :attr:`_GOODS`, the trades made."""

    _GOODS: tuple[Any, ...] = ()

    def __init__(self, rng: random.Random, max_k: int = 4) -> None:
        super().__init__()
        self.k = rng.randint(3, max_k)
        self.trades: list[dict[str, Any]] = []

    def _claim_cycle(self, sim: Simulation) -> bool:
        """Claim the cycle's seats (at least three) and draw its goods; False when too few seats are free."""
        got = self.claim(sim, self.k, least=3)
        if not got:
            return False
        self.cycle = got
        self.goods = self._GOODS[int(sim.rng.random() * len(self._GOODS))]
        return True

    def members(self) -> list[Agent]:
        return list(self.cycle) if self.active else []


class Ring(_CycleWash):
    """Wash trades around a cycle and back: the same goods go round, nets stay near zero."""

    kind = "ring"

    _GOODS = ((("wood", 3), ("stone", 2)), (("fiber", 4), ("food", 2)), (("plank", 1), ("ore", 1)),
              (("wood", 2), ("food", 2)), (("stone", 2), ("wood", 3)))

    def __init__(self, rng: random.Random, max_k: int = 4) -> None:
        super().__init__(rng, max_k)
        self.steps: list[tuple[int, int]] = []
        self.owed: dict[tuple[str, str], tuple[str, dict[str, int], dict[str, int]]] = {}

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        if not self._claim_cycle(sim):
            return
        got = self.cycle
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
        _enlist(sim, got, "ring", {x: 6, y: 6})

    def before_tick(self, t: int) -> None:
        if not self.active:
            return
        sim = self.sim
        assert sim is not None
        if t % 5 == 0:  # keep a working stock of the washed goods
            (x, qx), (y, qy) = self.goods
            _keep_stock(sim, self.cycle, {x: 2 * qx, y: 2 * qy})
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


class WashCycle(_CycleWash):
    """One good passed round a cycle of seats, each paying its giver in another good at the reference values.

    ``A -> B -> C -> A``: A gives B the cycled good and B pays A, then B gives C the same good and C pays
    B, and so on round and again.  After a lap every seat gave and got the cycled good once and paid and
    was paid once: no seat's goods changed, yet every trade was a fair exchange between two seats, which
    the rubric's circular reputation counts.  Unlike :class:`Ring`, no pair ever trades a good both ways:
    each pair of the cycle looks like a steady one-way supplier and its customer.
    """

    kind = "wash_cycle"

    _GOODS = (("wood", 3, "stone", 2), ("stone", 2, "wood", 3), ("ore", 2, "stone", 3), ("fiber", 4, "food", 2),
              ("food", 3, "wood", 3))
    """``(cycled good, how many, payment good, how many)``, each a fair exchange at the reference values
    (within one unit's worth): nothing here is off price."""

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        if not self._claim_cycle(sim):
            return
        got = self.cycle
        self.pos = 0
        self.period = rng.randrange(2, 6)
        self.next = int(sim.planned * (0.04 + 0.2 * rng.random()))
        x, qx, y, qy = self.goods
        _enlist(sim, got, "wash-cycle", {x: 2 * qx + 2, y: 2 * qy + 2})

    def before_tick(self, t: int) -> None:
        if not self.active:
            return
        sim = self.sim
        assert sim is not None
        if t % 5 == 0:  # keep a working stock of both goods, so any seat can give or pay in its turn
            x, qx, y, qy = self.goods
            _keep_stock(sim, self.cycle, {x: 2 * qx, y: 2 * qy})
        if t < self.next:
            return
        self.next = t + self.period + sim.rng.randint(0, 2)
        i = self.pos % len(self.cycle)
        giver, taker = self.cycle[i], self.cycle[(i + 1) % len(self.cycle)]
        if giver.alive and taker.alive:
            sim.add_task(giver, t, self._pass_on(giver, taker))

    def _pass_on(self, giver: Agent, taker: Agent) -> Callable[[int], bool]:
        """``giver`` offers ``taker`` the cycled good for the payment good; the cycle moves on to the next
        seat once the offer is made (a declined one leaves the good where it was, as a lap skipped there)."""
        sim = self.sim
        assert sim is not None

        def act(t: int) -> bool:
            x, qx, y, qy = self.goods
            if not (giver.active and taker.active) or giver.outgoing is not None:
                return False
            if giver.carried.get(x, 0) < qx:
                sim.set_want(giver, x)
                return False
            if taker.carried.get(y, 0) < qy:
                sim.set_want(taker, y)
                return False
            o = sim.offer(giver, taker, {x: qx}, {y: qy}, tag="wash_cycle", accept_p=0.95, ttl=4)
            if o is None:
                return False
            self.pos += 1
            o.on_complete = lambda eid, o=o: self.trades.append({"tradeId": o.tid, "event": eid})
            return True

        return act

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if not self.active:
            return
        x, _, y, _ = self.goods
        planted.append({
            "kind": "wash_cycle", "agents": sorted(a.id for a in self.cycle), "cycle": [a.id for a in self.cycle],
            "goods": {"cycled": x, "payment": y},
            "tradeIds": [r["tradeId"] for r in self.trades], "events": [r["event"] for r in self.trades],
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
        # at least one outsider to prey on: a bloc of every seat would never act (a truth naming a
        # cartel the log never shows)
        got = self.claim(sim, min(self.k, len(sim.players) - 1), least=3)
        if not got:
            return
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
        got = self.claim(sim, 2, least=2)
        if not got:
            return
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
        got = self.claim(sim, 2, least=2)
        if not got:
            return
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
            goods = goods_worth(c, 6 + 14 * sim.rng.random(), sim.rng)
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
