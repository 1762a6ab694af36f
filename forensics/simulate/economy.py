"""The economy of a simulated match: gathering, crafting, building, storing and trading.

A mixin of :class:`~.engine.Simulation` (every method takes the simulation as
``self``).  Trades hold the offered goods in escrow until the offer is accepted
or cancelled; a completed trade is logged once per party, acceptor first (v3),
and feeds the trade ledger and the engine's trade reputation (seed 000, *Trade
ledger* and *Circular reputation*).
"""

# mypy: disable-error-code="misc"
# (methods of a mixin take the whole Simulation as self; mypy calls that an erased self type)
from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from daishi_forensics.simulate import chatter
from .world import (
    ITEM_VALUES,
    RECIPES,
    STRUCTURES,
    Agent,
    Offer,
    Structure,
    add_items,
    has_items,
    take_items,
    value_of,
)

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["Economy"]


class Economy:
    """Gather, craft, build, repair, deposit, withdraw, offer, accept, cancel, fill market orders."""

    def _gather(self: Simulation, a: Agent, res: str, t: int) -> int:
        m = self.map
        pos = a.pos
        avail = m.available(pos, res, t)
        n = 1 + int(self._rand() * 3 * a.skill)
        if n > avail:
            n = avail
        if avail:
            m.pools[pos][res] = avail - n
        eid = self.emit("gather", a, {"region": m.names[pos], "resource": res, "gathered": n})
        a.energy -= 4
        if n:
            inv = a.carried
            have = inv[res] = inv.get(res, 0) + n
            key = (pos, res)
            log = self.glog.get(key)
            if log is None:
                log = self.glog[key] = deque()
            log.append((t, a, n))
            while log[0][0] <= t - 50:
                log.popleft()
            if avail == n:
                self._collapse(pos, res, t, log)
            need = a.need.get(res, 0)
            if (need and have >= need) or (res == a.want and have >= 6):
                self._update_want(a)
                if a.project not in STRUCTURES and has_items(inv, a.need):
                    self._next_project(a)
        return eid

    def _collapse(self: Simulation, pos: int, res: str, t: int, log: deque[tuple[int, Agent, int]]) -> None:
        self.emit("region_collapsed", None, {"region": self.map.names[pos], "resource": res}, act=False)
        self.map.regrow_at[(pos, res)] = t + self.rng.randrange(40, 150)
        units: dict[str, int] = {}
        for _, who, n in log:
            units[who.id] = units.get(who.id, 0) + n
        total = sum(units.values())
        if len(units) >= 2 and total:
            for aid, n in units.items():
                self.commons[aid] = self.commons.get(aid, 0.0) + n / total

    def _craftable(self: Simulation, a: Agent) -> tuple[str, int] | None:
        inv = a.carried
        need = a.need
        wood = inv.get("wood", 0)
        if "tool" in need and inv.get("tool", 0) < need["tool"]:
            if inv.get("plank", 0) >= 1 and inv.get("ore", 0) >= 1:
                return "tool", min(need["tool"] - inv.get("tool", 0), inv["plank"], inv["ore"], 2)
            if wood >= 2:
                return "plank", 1
        if "plank" in need and inv.get("plank", 0) < need["plank"] and wood >= 2:
            return "plank", min(need["plank"] - inv.get("plank", 0), wood // 2, 3)
        if "cloth" in need and inv.get("cloth", 0) < need["cloth"] and inv.get("fiber", 0) >= 3:
            return "cloth", min(need["cloth"] - inv.get("cloth", 0), inv["fiber"] // 3, 2)
        if wood >= 10 and "wood" not in need:
            return "plank", 2
        if inv.get("fiber", 0) >= 9 and "fiber" not in need:
            return "cloth", 1
        return None

    def _craft(self: Simulation, a: Agent, item: str, q: int) -> int:
        inputs = {k: n * q for k, n in RECIPES[item].items()}
        take_items(a.carried, inputs)
        a.carried[item] = a.carried.get(item, 0) + q
        a.energy -= 3
        eid = self.emit("craft", a, {"item": item, "quantity": q, "inputs": inputs})
        self._update_want(a)
        if a.project not in STRUCTURES and all(a.carried.get(k, 0) >= v for k, v in a.need.items()):
            self._next_project(a)
        return eid

    def build(self: Simulation, a: Agent, kind: str) -> int:
        """``a`` builds a ``kind`` where it stands (the caller checked it holds the cost)."""
        cost, hp = STRUCTURES[kind]
        take_items(a.carried, cost)
        self._struct_n += 1
        sid = f"s_{self.id_prefix}{self._struct_n}"
        s = Structure(sid, kind, a, a.pos, hp, self.tick)
        a.structures.append(s)
        if kind == "storehouse" and a.storehouse is None:
            a.storehouse = s
        self._seq += 1
        heapq.heappush(self.crumble_heap, (self.tick + hp, self._seq, s))
        a.energy -= 10
        return self.emit("build", a, {"structure": kind, "structureId": sid, "region": self.map.names[a.pos]})

    def repair(self: Simulation, a: Agent, s: Structure) -> int:
        """``a`` repairs its structure ``s`` (+25 hp up to the maximum)."""
        hp = min(s.max_hp, s.hp_at(self.tick) + 25)
        s.hp = hp
        s.since = self.tick
        self._seq += 1
        heapq.heappush(self.crumble_heap, (self.tick + hp, self._seq, s))
        a.energy -= 3
        return self.emit("repair", a, {"structureId": s.sid, "hp": hp})

    def deposit(self: Simulation, a: Agent, items: dict[str, int]) -> int:
        """``a`` puts ``items`` (carried) into its storehouse.  One deposit of some matches is logged but
        never takes effect, and the archive names it in ``errata``."""
        s = a.storehouse
        assert s is not None
        self._deposits += 1
        eid = self.emit("deposit", a, {"structureId": s.sid, "items": dict(items)})
        if self._deposits == self._phantom_deposit:
            self.errata.append({
                "id": "E3", "events": [eid], "scoresDepend": False,
                "text": (f"The deposit logged at tick {self.tick} never took effect: the goods stayed "
                         "in the agent's inventory. No published score depends on it."),
            })
            return eid
        take_items(a.carried, items)
        add_items(s.stock, items)
        return eid

    def withdraw(self: Simulation, a: Agent, items: dict[str, int]) -> int:
        """``a`` takes ``items`` out of its storehouse."""
        s = a.storehouse
        assert s is not None
        take_items(s.stock, items)
        add_items(a.carried, items)
        eid = self.emit("withdraw", a, {"structureId": s.sid, "items": dict(items)})
        self._update_want(a)
        return eid

    def new_trade_id(self: Simulation) -> str:
        """A fresh trade id."""
        self._trade_n += 1
        return f"t_{self.id_prefix}{self._trade_n}"

    def offer(self: Simulation, a: Agent, to: Agent | None, give: dict[str, int], receive: dict[str, int], *,
              tag: str | None = None, ttl: int | None = None, accept_p: float | None = None) -> Offer | None:
        """``a`` offers ``give`` for ``receive`` to ``to`` (None: a market order).  The goods go into
        escrow.  None when ``a`` does not hold ``give`` or already has an offer out."""
        if a.outgoing is not None or not has_items(a.carried, give) or (not give and not receive):
            return None
        take_items(a.carried, give)
        ttl = ttl if ttl is not None else 3 + int(self.rng.random() * 5)
        o = Offer(self.new_trade_id(), a, to, dict(give), dict(receive), self.tick, self.tick + ttl, tag, accept_p)
        a.outgoing = o
        self.emit("trade_offered", a, {"tradeId": o.tid, "to": to.id if to is not None else None,
                                       "give": dict(give), "receive": dict(receive)})
        a.energy -= 1
        if to is None:
            self.market.append(o)
        else:
            to.incoming.append(o)
        return o

    def cancel(self: Simulation, o: Offer, act: bool = True) -> int:
        """The offerer withdraws offer ``o``; the escrowed goods come back."""
        a = o.frm
        a.outgoing = None
        add_items(a.carried, o.give)
        if o.to is None:
            if o in self.market:
                self.market.remove(o)
        elif o in o.to.incoming:
            o.to.incoming.remove(o)
        return self.emit("trade_cancelled", a, {"tradeId": o.tid}, act=act)

    def _respond(self: Simulation, b: Agent, t: int) -> bool:
        rng = self.rng
        for o in list(b.incoming):
            b.incoming.remove(o)
            if o.frm.outgoing is not o:
                continue
            if not has_items(b.carried, o.receive):
                continue
            if o.accept_p is not None:
                p = o.accept_p
            elif not o.receive:
                p = 0.9
            else:
                gain = value_of(o.give)
                cost = value_of(o.receive)
                p = 0.75 if gain >= b.fair * cost else (0.12 if gain >= 0.6 * cost else 0.02)
            if rng.random() < p:
                self.accept(b, o)
                return True
        return False

    def accept(self: Simulation, b: Agent, o: Offer) -> int:
        """``b`` accepts ``o``: two ``trade_completed`` events, acceptor first (v3)."""
        a = o.frm
        take_items(b.carried, o.receive)
        add_items(b.carried, o.give)
        add_items(a.carried, o.receive)
        a.outgoing = None
        if o in b.incoming:
            b.incoming.remove(o)
        payload = {"tradeId": o.tid, "from": a.id, "to": b.id, "give": o.give, "receive": o.receive}
        eid = self.emit("trade_completed", b, payload)
        self.emit("trade_completed", a, dict(payload), act=False)
        self._ledger(a, b, o.give, o.receive)
        self._update_want(a)
        self._update_want(b)
        if o.on_complete is not None:
            o.on_complete(eid)
        if b.llm and self.rng.random() < 0.12:
            self.say(b, chatter.thanks_line(self.rng, a.name), "private", a)
        return eid

    def _ledger(self: Simulation, a: Agent, b: Agent, give: dict[str, int], receive: dict[str, int]) -> None:
        """Trade ledger and the engine's trade reputation (seed 000, *Trade ledger*, *Circular reputation*)."""
        if a.id < b.id:
            lo, hi, lo_recv, lo_gave = a, b, receive, give
        else:
            lo, hi, lo_recv, lo_gave = b, a, give, receive
        key = (lo.id, hi.id)
        rec = self.pairs.get(key)
        if rec is None:
            rec = self.pairs[key] = [0, {}, {}, 0, 0]
        rec[0] += 1
        add_items(rec[1], lo_recv)
        add_items(rec[2], lo_gave)
        if give and receive:
            for side, other, slot in ((lo, hi, 3), (hi, lo, 4)):
                k = (side.id, other.id)
                with_partner = self.paid.get(k, 0)
                if with_partner < 5 and side.reputation < 20:
                    self.paid[k] = with_partner + 1
                    side.reputation += 1
                    rec[slot] += 1

    def _pick_partner(self: Simulation, a: Agent) -> Agent | None:
        fav = a.favour
        if not fav:
            return None
        total = fav[-1][1]
        rng = self.rng
        for _ in range(3):
            x = rng.random() * total
            b = fav[-1][0]
            for cand, edge in fav:
                if x < edge:
                    b = cand
                    break
            if b.alive and not b.dormant and b.role != "probe":
                return b
        return None

    def compose(self: Simulation, a: Agent, b: Agent,
                ratio: tuple[float, float] = (0.85, 1.2)) -> tuple[dict[str, int], dict[str, int]] | None:
        """A roughly value-balanced offer from ``a`` to ``b``: something ``b`` holds that ``a``
        wants, for goods ``a`` can spare."""
        rng = self.rng
        theirs = b.carried
        if not theirs or not a.carried:
            return None
        if theirs.get(a.want, 0) >= 1:
            r_item = a.want
        else:
            keys = list(theirs)
            r_item = keys[int(rng.random() * len(keys))]
        if r_item in a.carried and a.carried[r_item] > 6:
            return None
        r_qty = 1 + int(rng.random() * min(4, theirs[r_item]))
        rv = ITEM_VALUES[r_item] * r_qty
        mine = [k for k in a.carried if k != r_item]
        if not mine:
            return None
        spare = [k for k in mine if k not in a.need] or mine
        k = spare[int(rng.random() * len(spare))]
        target = rv * (ratio[0] + (ratio[1] - ratio[0]) * rng.random())
        q = max(1, round(target / ITEM_VALUES[k]))
        give = {k: min(q, a.carried[k])}
        gv = value_of(give)
        if gv < 0.75 * target and len(spare) > 1:
            k2 = spare[(spare.index(k) + 1) % len(spare)]
            q2 = max(1, round((target - gv) / ITEM_VALUES[k2]))
            give[k2] = min(q2, a.carried[k2])
            gv = value_of(give)
        if gv < 0.6 * rv:
            r_qty = max(1, min(theirs[r_item], round(gv / ITEM_VALUES[r_item])))
            rv = ITEM_VALUES[r_item] * r_qty
        if gv > 1.6 * rv:
            return None
        return give, {r_item: r_qty}

    def _organic_trade(self: Simulation, a: Agent, t: int) -> bool:
        b = self._pick_partner(a)
        if b is None:
            return False
        rng = self.rng
        if rng.random() < 0.025 and a.llm:
            keys = list(a.carried)
            k = keys[int(rng.random() * len(keys))]
            return self.offer(a, b, {k: min(a.carried[k], 1 + int(rng.random() * 2))}, {}) is not None
        deal = self.compose(a, b)
        if deal is None:
            return False
        return self.offer(a, b, deal[0], deal[1]) is not None

    def _lopsided_task(self: Simulation, a: Agent, b: Agent) -> Callable[[int], bool]:
        """Every so often ``a`` trades many cheap units to ``b`` for one dear one, at fair value."""

        def task(t: int) -> bool:
            self.add_task(a, t + self.rng.randrange(12, 30), task)
            if not b.alive or a.outgoing is not None:
                return False
            for cheap, dear in (("fiber", "tool"), ("wood", "tool"), ("fiber", "cloth"), ("wood", "plank")):
                n = ITEM_VALUES[dear] // ITEM_VALUES[cheap]
                if a.carried.get(cheap, 0) >= n and b.carried.get(dear, 0) >= 1:
                    o = self.offer(a, b, {cheap: n}, {dear: 1}, tag="lopsided", accept_p=0.8)
                    if o is not None:
                        self.organic.setdefault("lopsided_trades", []).append(o.tid)
                        return True
            return False

        return task

    def _post_market(self: Simulation, a: Agent, t: int) -> bool:
        inv = a.carried
        k = max(inv, key=inv.__getitem__)
        if inv[k] < 4 or k == a.want:
            return False
        q = min(inv[k] // 2, 6)
        r_q = max(1, round(q * ITEM_VALUES[k] / ITEM_VALUES[a.want]))
        return self.offer(a, None, {k: q}, {a.want: r_q}, ttl=6 + int(self.rng.random() * 10)) is not None

    def _fill_market(self: Simulation, b: Agent) -> bool:
        for o in self.market[:4]:
            if o.frm is b or not o.frm.alive:
                continue
            if has_items(b.carried, o.receive):
                self.market.remove(o)
                a = o.frm
                a.outgoing = None
                take_items(b.carried, o.receive)
                add_items(b.carried, o.give)
                add_items(a.carried, o.receive)
                payload = {"tradeId": o.tid, "from": a.id, "to": b.id, "give": o.give, "receive": o.receive}
                self.emit("trade_fulfilled", b, payload)
                self.emit("trade_fulfilled", a, dict(payload), act=False)
                return True
        return False

    def pair_trades(self: Simulation, x: Agent, y: Agent) -> int:
        """Completed trades (``trade_completed``) between ``x`` and ``y`` so far."""
        key = (x.id, y.id) if x.id < y.id else (y.id, x.id)
        rec = self.pairs.get(key)
        return rec[0] if rec else 0
