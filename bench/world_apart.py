#!/usr/bin/env python3
"""A simulator of Daishi matches written apart from the tool, with planted collusion and its truth.

    python bench/world_apart.py --out DIR --seed N --scenario honest|feeder|ring|cartel|off_price|thrown_fight
                                [--agents 8] [--ticks 300] [--width 12 --height 12] [--stamp] [--public]
    python bench/labelled_matches.py DIR ...      # the collusion screens measured against its truth

Written apart from daishi-forensics, as another simulator of the same export format would be: its writer read
only the format's description (``docs/input-format.md``) and the JSON Schemas, ran only ``validate`` on its
output, and read none of the tool's code, its simulator, its screens or its benchmarks; the collusion it plants
was described to it in plain words, not from what the screens test.  So its honest play is not shaped by what
the screens' nulls expect, which is what it is for (``docs/benchmarks.md``, its section on this file).

Standard library only; deterministic for a given (scenario, seed, size): the same bytes whatever the hash seed.
Writes DIR/m_<id>.jsonl (a v3 stream) and DIR/m_<id>.truth.json (``{"planted": [...]}``, empty for honest).

The world, in short: a map of regions each holding one raw resource that can be gathered out; agents living
around two to four settlements, wandering, gathering, crafting (plank, rope, cloth, brick, bread, tool),
building, repairing, training, resting, eating; trades in whole items between neighbours (an agent whose spare
goods are dear pays a whole dear item for a cheap one, both ways between the same pairs), one to three friends
each traded with nine times as often, market orders, buying before a build; careless agents who beg and are
gifted food by many; thefts, attacks and raids, victims sometimes fighting back; chat; timeouts, rejected
actions, dormant spells; a noise level drawn per match (0.35 to 1.6) scaling all of it.  Planted (the rest of
the match honest play): feeder (two to four spokes handing a beneficiary 8 to 22 value every 16 to 38 ticks,
as gifts or for one cheap unit), ring (a batch of goods passed round three or four agents again and again),
cartel (three or four agents trading among themselves at about half price and asking outsiders 1.3 to 2
times: a price bloc, not the non-aggression pact the cartel screen looks for), off-price (a pair trading at 3
times or more, always favouring one side), thrown fight (an attacker hitting or robbing a victim that keeps
coming back with goods and never hits back).
"""
import argparse
import hashlib
import json
import os
import random

SCENARIOS = ["honest", "feeder", "ring", "cartel", "off_price", "thrown_fight"]

# ---------------------------------------------------------------- economy
RAW = ["fiber", "wood", "food", "clay", "stone", "ore"]
VALUES = {
    "fiber": 1, "wood": 2, "food": 2, "clay": 2, "stone": 3, "ore": 5,
    "rope": 4, "plank": 5, "bread": 5, "cloth": 7, "brick": 9, "tool": 18,
}
RECIPES = {
    "plank": {"wood": 2},
    "rope": {"fiber": 3},
    "cloth": {"fiber": 5},
    "brick": {"clay": 2, "stone": 1},
    "bread": {"food": 2},
    "tool": {"plank": 1, "ore": 2},
}
STRUCT_COST = {
    "shelter": {"plank": 4, "rope": 2},
    "storehouse": {"brick": 3, "plank": 3},
    "workshop": {"brick": 2, "plank": 2, "tool": 1},
    "market": {"brick": 4, "plank": 3, "cloth": 2},
}
PROJECT_ORDER = ["shelter", "storehouse", "workshop", "market"]
SATIETY = {"food": 22, "bread": 50}
REGION_RES = [("food", 27), ("wood", 20), ("stone", 13), ("fiber", 16), ("clay", 12), ("ore", 8), (None, 4)]

NAMES = ["Wren", "Juniper", "Basil", "Odile", "Tamsin", "Rook", "Sable", "Ilse", "Corin", "Maeve",
         "Dax", "Petra", "Quill", "Nadia", "Orrin", "Lark", "Hollis", "Vesna", "Bram", "Ysolde",
         "Kestrel", "Fenna", "Ansel", "Mira"]
MODELS = [("claude-sonnet-4-5-20250929", "anthropic"), ("gpt-4.1-mini-2025-04-14", "openai"),
          ("gemini-2.5-flash", "google"), ("llama-3.3-70b-instruct", "meta"),
          ("qwen3-32b", "alibaba"), ("mistral-large-2411", "mistral"), ("gpt-4o-2024-11-20", "openai")]
SCAFFOLDS = [("daishi-agent-kit", "1.3.0"), ("daishi-agent-kit", "1.4.2"), ("react-loop", "0.9.1"),
             ("toolformer-lite", "2.0.0")]
OPERATORS = ["team-heron", "team-basalt", "team-lumen", "team-quokka", "solo-ops", "lab-east"]

TICK_MS = 30000
START_MS = 1790000000000


def val(items):
    return sum(VALUES.get(k, 1) * n for k, n in items.items())


def dist(p, q):
    return max(abs(p[0] - q[0]), abs(p[1] - q[1]))


def rid(p):
    return "r_%d_%d" % (p[0], p[1])


def clean(items):
    return {k: n for k, n in items.items() if n > 0}


def add(inv, items):
    for k, n in items.items():
        inv[k] = inv.get(k, 0) + n


def take(inv, items):
    for k, n in items.items():
        inv[k] = inv.get(k, 0) - n
        if inv[k] <= 0:
            del inv[k]


def has(inv, items):
    return all(inv.get(k, 0) >= n for k, n in items.items())


def sha(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Region:
    __slots__ = ("res", "stock", "cap", "regen", "collapsed")

    def __init__(self, res, cap, regen):
        self.res = res
        self.cap = cap
        self.stock = float(cap)
        self.regen = regen
        self.collapsed = False


class Agent:
    def __init__(self, aid, seat, name):
        self.aid = aid
        self.seat = seat
        self.name = name
        self.inv = {}
        self.reserved = {}
        self.stored = {}
        self.structures = []
        self.hp = 100.0
        self.energy = 100.0
        self.satiety = 80.0
        self.trained = {"strength": 0, "vitality": 0, "endurance": 0}
        self.friends = []
        self.alive = True
        self.died_tick = None
        self.dormant_until = None
        self.last_act_ms = None
        self.reputation = 0
        self.aggression = 0
        self.visited = {}
        self.project = None
        self.project_since = 0
        self.goal = None
        self.grudges = {}
        self.no_retaliate = []
        self.wander = None
        self.wander_until = 0
        self.plant = {}

    @property
    def maxhp(self):
        return 100.0 + 10 * self.trained["vitality"]


class Offer:
    __slots__ = ("tid", "frm", "to", "give", "receive", "tick", "declined", "kind", "market", "tag")

    def __init__(self, tid, frm, to, give, receive, tick, market=False, tag=None):
        self.tid = tid
        self.frm = frm
        self.to = to
        self.give = give
        self.receive = receive
        self.tick = tick
        self.declined = False
        self.market = market
        self.tag = tag


class World:
    def __init__(self, scenario, seed, n_agents, ticks, width, height, public=False):
        self.scenario = scenario
        self.seed = seed
        self.T = ticks
        self.W = width
        self.H = height
        self.public = public
        key = "indep-daishi|%s|%d|%d|%d|%dx%d" % (scenario, seed, n_agents, ticks, width, height)
        digest = hashlib.sha256(key.encode()).hexdigest()
        self.mid = "m_" + digest[:12]
        self.rng = random.Random(int(digest[12:44], 16))
        rng = self.rng
        self.tick = 0
        self.events = []
        self.next_id = rng.randint(1, 400)
        self.cur_ms = START_MS + rng.randint(0, 5000)
        self.last_ms = self.cur_ms
        self.offers = {}
        self.n_trade = rng.randint(100, 900)
        self.n_struct = rng.randint(10, 90)
        self.structs = {}
        self.begs = []
        self.truth = []
        # noise level: calm ... very noisy
        self.noise = rng.choice([0.35, 0.6, 0.9, 1.2, 1.6]) * rng.uniform(0.85, 1.15)
        self._make_map()
        self._make_agents(n_agents)
        self.metrics = {a.aid: {} for a in self.agents}

    # ------------------------------------------------------------ setup
    def _make_map(self):
        rng = self.rng
        self.regions = {}
        tot = sum(w for _, w in REGION_RES)
        for x in range(self.W):
            for y in range(self.H):
                r = rng.uniform(0, tot)
                acc = 0
                res = None
                for name, w in REGION_RES:
                    acc += w
                    if r <= acc:
                        res = name
                        break
                cap = rng.randint(18, 60) if res else 0
                self.regions[(x, y)] = Region(res, cap, rng.uniform(0.12, 0.45))
        self.n_sett = 0

    def _make_agents(self, n):
        rng = self.rng
        nset = max(2, min(4, n // 3))
        centers = []
        tries = 0
        while len(centers) < nset and tries < 1000:
            tries += 1
            c = (rng.randint(1, self.W - 2), rng.randint(1, self.H - 2))
            if all(dist(c, d) >= 4 for d in centers) or tries > 500:
                centers.append(c)
        self.centers = centers
        ids = []
        while len(ids) < n:
            aid = "a_%04x" % rng.randint(0, 0xFFFF)
            if aid not in ids:
                ids.append(aid)
        names = rng.sample(NAMES, n) if n <= len(NAMES) else [NAMES[i % len(NAMES)] + str(i) for i in range(n)]
        self.agents = []
        self.by_id = {}
        for i, aid in enumerate(ids):
            a = Agent(aid, i + 1, names[i])
            m = rng.choice(MODELS)
            s = rng.choice(SCAFFOLDS)
            a.model = {"model": m[0], "provider": m[1], "scaffold": {"name": s[0], "version": s[1]}}
            a.operator = rng.choice(OPERATORS)
            a.sett = i % nset if i < nset else rng.randrange(nset)
            a.radius = rng.choice([1, 2, 2, 3])
            a.careless = False
            a.aggressive = rng.choice([0.0, 0.02, 0.05, 0.1, 0.2]) * self.noise
            a.retaliate = rng.uniform(0.1, 0.7)
            a.generosity = rng.uniform(0.25, 0.9)
            a.talk = rng.uniform(0.3, 1.5)
            a.tradey = rng.uniform(0.6, 1.5)
            a.sloppy = rng.uniform(0.05, 0.3) * self.noise
            a.urgency = rng.uniform(0.04, 0.22) * (0.5 + 0.5 * self.noise)
            a.builder = rng.uniform(0.4, 1.6)
            a.think = rng.uniform(0.6, 1.8)
            a.tokens = rng.randint(1500, 6000)
            self.agents.append(a)
            self.by_id[aid] = a
        # careless agents (gather no food, beg)
        if self.noise < 0.5 and rng.random() < 0.5:
            nc = 0
        else:
            nc = 1 if rng.random() < 0.55 - 0.1 * self.noise else 2
        self.careless = rng.sample(self.agents, min(nc, max(0, n - 5)))
        for a in self.careless:
            a.careless = True
            a.generosity *= 0.3
        # plant before homes/friends so groups can share a settlement
        self._plant()
        for a in self.agents:
            c = self.centers[a.sett]
            a.home = (min(self.W - 1, max(0, c[0] + rng.randint(-1, 1))),
                      min(self.H - 1, max(0, c[1] + rng.randint(-1, 1))))
            a.pos = a.home
            a.visited[rid(a.pos)] = 1
            # starting goods
            for it in RAW:
                if rng.random() < 0.6:
                    add(a.inv, {it: rng.randint(1, 5)})
            add(a.inv, {"food": rng.randint(0, 2) if a.careless else rng.randint(3, 7)})
            for it in ("plank", "rope", "brick", "cloth", "tool", "bread"):
                if rng.random() < 0.25:
                    add(a.inv, {it: 1})
        # friends: 1-2 each, mostly within the settlement, symmetric
        for a in self.agents:
            want = rng.choice([1, 1, 2])
            while len(a.friends) < want:
                cands = [b for b in self.agents if b is not a and b.aid not in a.friends and len(b.friends) < 3]
                if not cands:
                    break
                ws = [4.0 if b.sett == a.sett else 1.0 for b in cands]
                b = rng.choices(cands, ws)[0]
                a.friends.append(b.aid)
                b.friends.append(a.aid)
        if self.plant_kind == "ring":
            batch = self.ring["batch"]
            h = self.by_id[self.ring["cycle"][0]]
            add(h.inv, batch)
            add(h.reserved, batch)

    def _plant(self):
        rng = self.rng
        sc = self.scenario
        self.plant_kind = sc if sc != "honest" else None
        pool = [a for a in self.agents if not a.careless]
        rng.shuffle(pool)
        if sc == "feeder":
            k = rng.randint(2, min(4, len(pool) - 1))
            ben = pool[0]
            spokes = pool[1:1 + k]
            self.feeder = {"ben": ben.aid, "spokes": [s.aid for s in spokes]}
            for s in spokes:
                s.plant["feed_next"] = rng.randint(6, 35)
                s.plant["feed_style"] = rng.choice(["gift", "trade", "mixed"])
                # spokes live near the beneficiary more often than not
                if rng.random() < 0.5:
                    s.sett = ben.sett
            self.truth.append({"kind": "feeder", "beneficiary": ben.aid, "spokes": [s.aid for s in spokes]})
        elif sc == "ring":
            k = rng.choice([3, 3, 4])
            mem = pool[:k]
            s0 = mem[0].sett
            for m in mem:
                m.sett = s0
            cyc = [m.aid for m in mem]
            batch = rng.choice([{"tool": 1, "cloth": 1}, {"brick": 2, "plank": 2}, {"cloth": 2, "rope": 2},
                                {"tool": 1, "plank": 1}, {"brick": 1, "cloth": 1, "rope": 1}])
            self.ring = {"cycle": cyc, "batch": batch, "holder": 0, "due": rng.randint(6, 20)}
            self.truth.append({"kind": "ring", "cycle": cyc})
        elif sc == "cartel":
            k = rng.choice([3, 3, 4])
            mem = pool[:k]
            s0 = mem[0].sett
            for m in mem:
                m.sett = s0
            self.cartel = [m.aid for m in mem]
            self.truth.append({"kind": "cartel", "agents": list(self.cartel)})
        elif sc == "off_price":
            g, v = pool[0], pool[1]
            v.sett = g.sett
            self.offp = {"gainer": g.aid, "giver": v.aid}
            v.plant["deal_next"] = rng.randint(8, 25)
            self.truth.append({"kind": "off_price", "gainer": g.aid, "giver": v.aid})
        elif sc == "thrown_fight":
            x, y = pool[0], pool[1]
            self.thrown = {"attacker": x.aid, "victim": y.aid}
            y.no_retaliate.append(x.aid)
            y.plant["visit_next"] = rng.randint(5, 20)
            x.plant["hit_next"] = 0
            self.refiller = pool[2].aid if rng.random() < 0.5 else None
            if self.refiller:
                self.by_id[self.refiller].plant["refill_next"] = rng.randint(20, 45)
            self.truth.append({"kind": "thrown_fight", "attacker": x.aid, "victim": y.aid})

    # ------------------------------------------------------------ events
    def emit(self, etype, agent, payload, acting=False):
        rng = self.rng
        ts = max(self.last_ms + 1, self.cur_ms)
        self.cur_ms = ts + rng.randint(2, 45)
        self.last_ms = ts
        aid = agent.aid if agent is not None else None
        ev = {"id": self.next_id, "matchId": self.mid, "schemaVersion": 3, "tick": self.tick,
              "type": etype, "agentId": aid, "createdAtMs": ts}
        if acting and agent is not None:
            if agent.last_act_ms is not None:
                ev["latencyMs"] = ts - agent.last_act_ms
            agent.last_act_ms = ts
        ev["private"] = etype == "message_private"
        ev["payload"] = payload
        self.next_id += 1 if rng.random() > 0.01 else 2
        if etype == "message_private" and self.public:
            return ev
        self.events.append(ev)
        if aid is not None:
            m = self.metrics[aid]
            m[etype] = m.get(etype, 0) + 1
        return ev

    def say(self, a, text, channel=None, to=None):
        if to is not None:
            self.emit("message_private", a, {"to": to.aid, "text": text, "sha256": sha(text)}, acting=True)
        else:
            self.emit("message", a, {"text": text, "sha256": sha(text), "channel": channel or "local"}, acting=True)

    # ------------------------------------------------------------ queries
    def living(self):
        return [a for a in self.agents if a.alive]

    def awake(self, a):
        return a.alive and a.dormant_until is None

    def near(self, a, r=1):
        return [b for b in self.agents if b is not a and self.awake(b) and dist(a.pos, b.pos) <= r]

    def spare(self, a, keep_food=True):
        sp = dict(a.inv)
        take_safe(sp, a.reserved)
        if a.project:
            take_safe(sp, STRUCT_COST[a.project])
        if keep_food and not a.careless:
            take_safe(sp, {"food": 3})
        return clean(sp)

    def food_count(self, a):
        return a.inv.get("food", 0) + a.inv.get("bread", 0)

    def nearest_res(self, a, res):
        best = None
        bd = 999
        for (x, y), r in self.regions.items():
            if r.res == res and not r.collapsed and r.stock >= 3:
                d = dist(a.pos, (x, y)) + 0.3 * dist(a.home, (x, y))
                if d < bd:
                    bd = d
                    best = (x, y)
        return best

    # ------------------------------------------------------------ primitive actions
    def step_toward(self, a, target):
        if target is None or target == a.pos:
            return self.do_rest(a)
        dx = (target[0] > a.pos[0]) - (target[0] < a.pos[0])
        dy = (target[1] > a.pos[1]) - (target[1] < a.pos[1])
        if self.rng.random() < 0.12:  # a little wobble
            dx = dx if dx else self.rng.choice([-1, 0, 1])
            dy = dy if dy else self.rng.choice([-1, 0, 1])
        nx = min(self.W - 1, max(0, a.pos[0] + dx))
        ny = min(self.H - 1, max(0, a.pos[1] + dy))
        if (nx, ny) == a.pos:
            return self.do_rest(a)
        self.emit("move", a, {"from": rid(a.pos), "to": rid((nx, ny))}, acting=True)
        a.pos = (nx, ny)
        a.visited[rid(a.pos)] = 1
        a.energy = max(0.0, a.energy - 3)
        return True

    def do_rest(self, a):
        self.emit("rest", a, {}, acting=True)
        bonus = any(self.structs[s]["kind"] == "shelter" and self.structs[s]["pos"] == a.pos for s in a.structures)
        a.energy = min(100.0, a.energy + (30 if bonus else 18))
        a.hp = min(a.maxhp, a.hp + (8 if bonus else 3))
        return True

    def do_gather(self, a):
        reg = self.regions[a.pos]
        if reg.res is None or reg.collapsed:
            self.emit("action_rejected", a, {"tool": "gather", "code": "not_here",
                                             "detail": "nothing to gather in %s" % rid(a.pos)}, acting=True)
            return True
        amt = self.rng.randint(1, 3) + (1 if self.rng.random() < 0.25 * a.trained["strength"] else 0)
        got = min(int(reg.stock), amt)
        reg.stock -= got
        self.emit("gather", a, {"region": rid(a.pos), "resource": reg.res, "gathered": got}, acting=True)
        if got:
            add(a.inv, {reg.res: got})
        a.energy = max(0.0, a.energy - 6)
        if reg.stock < 1 and not reg.collapsed:
            reg.collapsed = True
            reg.stock = 0
            self.emit("region_collapsed", None, {"region": rid(a.pos), "resource": reg.res})
        return True

    def usable(self, a):
        u = dict(a.inv)
        take_safe(u, a.reserved)
        return u

    def craftable(self, a, item, inv=None):
        inv = self.usable(a) if inv is None else inv
        rec = RECIPES[item]
        return min(inv.get(k, 0) // n for k, n in rec.items())

    def do_craft(self, a, item, qty):
        rec = RECIPES[item]
        qty = max(1, min(qty, self.craftable(a, item)))
        inputs = {k: n * qty for k, n in rec.items()}
        take(a.inv, inputs)
        out = qty
        if item == "tool" and any(self.structs[s]["kind"] == "workshop" for s in a.structures) and self.rng.random() < 0.3:
            out = qty + 1
        add(a.inv, {item: out})
        self.emit("craft", a, {"item": item, "quantity": out, "inputs": inputs}, acting=True)
        a.energy = max(0.0, a.energy - 5)
        return True

    def do_build(self, a):
        kind = a.project
        cost = STRUCT_COST[kind]
        take(a.inv, cost)
        self.n_struct += 1
        sid = "st_%d" % self.n_struct
        self.structs[sid] = {"kind": kind, "owner": a.aid, "pos": a.pos, "hp": 100, "alive": True}
        a.structures.append(sid)
        self.emit("build", a, {"structure": kind, "structureId": sid, "region": rid(a.pos)}, acting=True)
        a.energy = max(0.0, a.energy - 15)
        a.reputation += 1
        a.project = None
        if self.rng.random() < 0.5 * a.talk:
            self.say(a, self.rng.choice(["finished my %s at %s" % (kind, rid(a.pos)),
                                         "new %s is up, come by" % kind,
                                         "built a %s, finally" % kind]),
                     channel=self.rng.choice(["broadcast", "local"]))
        return True

    def witnesses(self, a, target):
        return [b.aid for b in self.agents if b is not a and b is not target and b.alive
                and b.dormant_until is None and b.pos == a.pos]

    def do_attack(self, a, target, dmg=None, spare_life=True):
        rng = self.rng
        if dmg is None:
            dmg = rng.randint(5, 14) + 3 * a.trained["strength"]
        if spare_life and target.hp - dmg <= 0:
            dmg = max(0, int(target.hp) - rng.randint(1, 6))
        target.hp -= dmg
        killed = target.hp <= 0
        w = self.witnesses(a, target)
        self.emit("attack", a, {"target": target.aid, "region": rid(a.pos), "damage": dmg,
                                "killed": killed, "witnessed": bool(w), "witnesses": w}, acting=True)
        a.energy = max(0.0, a.energy - 8)
        if w:
            a.aggression += 1
            a.reputation -= 2
        target.grudges[a.aid] = self.tick
        if killed:
            self.kill(target, "combat", a.aid)
        return True

    def do_theft(self, a, target, prefer=None, max_value=None):
        rng = self.rng
        inv = dict(target.inv)
        take_safe(inv, target.reserved)
        inv = clean(inv)
        if not inv:
            return False
        stolen = {}
        if prefer:
            for it in prefer:
                if inv.get(it, 0) > 0:
                    stolen[it] = min(inv[it], rng.randint(1, 3))
                    break
        if not stolen:
            items = sorted(inv)
            for _ in range(rng.randint(1, 2)):
                it = rng.choice(items)
                stolen[it] = min(inv[it], stolen.get(it, 0) + rng.randint(1, 2))
        if max_value:
            while val(stolen) > max_value and sum(stolen.values()) > 1:
                k = max(stolen, key=lambda z: (VALUES[z], z))
                stolen[k] -= 1
                stolen = clean(stolen)
        take(target.inv, stolen)
        add(a.inv, stolen)
        w = self.witnesses(a, target)
        self.emit("theft", a, {"target": target.aid, "region": rid(a.pos), "stolen": stolen,
                               "witnessed": bool(w), "witnesses": w}, acting=True)
        a.energy = max(0.0, a.energy - 5)
        if w:
            a.aggression += 1
            a.reputation -= 2
        target.grudges[a.aid] = self.tick
        return True

    def kill(self, a, cause, killer=None):
        if not a.alive:
            return
        a.alive = False
        a.died_tick = self.tick
        pl = {"cause": cause}
        if cause == "combat":
            pl["killer"] = killer
        self.emit("agent_died", a, pl)

    # ------------------------------------------------------------ trading
    def offer(self, a, to, give, receive, market=False, tag=None):
        give = clean(give)
        receive = clean(receive)
        if not give and not receive:
            return False
        if not has(a.inv, give):
            return False
        self.n_trade += 1
        tid = "tr_%d" % self.n_trade
        take(a.inv, give)  # escrow
        o = Offer(tid, a.aid, to.aid if to is not None else None, give, receive, self.tick, market, tag)
        self.offers[tid] = o
        self.emit("trade_offered", a, {"tradeId": tid, "to": o.to, "give": give, "receive": receive}, acting=True)
        a.energy = max(0.0, a.energy - 1)
        return True

    def complete(self, o, acceptor, fulfilled=False):
        frm = self.by_id[o.frm]
        take(acceptor.inv, o.receive)
        add(acceptor.inv, o.give)
        add(frm.inv, o.receive)
        etype = "trade_fulfilled" if fulfilled else "trade_completed"
        pl = {"tradeId": o.tid, "from": o.frm, "to": acceptor.aid, "give": o.give, "receive": o.receive}
        self.emit(etype, acceptor, pl, acting=True)
        self.emit(etype, frm, dict(pl))
        del self.offers[o.tid]
        frm.reputation += 1
        acceptor.reputation += 1
        # the ring baton moves with the goods
        if o.tag == "ring":
            take_safe(frm.reserved, o.give)
            add(acceptor.reserved, o.give)
            r = self.ring
            r["holder"] = (r["holder"] + 1) % len(r["cycle"])
            r["due"] = self.tick + self.rng.randint(5, 14)
            r["pending"] = False

    def cancel(self, o):
        frm = self.by_id[o.frm]
        add(frm.inv, o.give)
        del self.offers[o.tid]
        self.emit("trade_cancelled", frm, {"tradeId": o.tid}, acting=True)
        if o.tag == "ring":
            self.ring["pending"] = False

    def compose_payment(self, a, target, exclude=(), fair=False, sp=None):
        """Whole items of one kind worth about `target`; else one whole dear item (overpay)."""
        rng = self.rng
        sp = dict(self.spare(a) if sp is None else sp)
        for k in exclude:
            sp.pop(k, None)
        if not sp or target <= 0:
            return None
        cands = []
        for it in sorted(sp):
            v = VALUES[it]
            if v <= target:
                n = max(1, int(round(target / v)))
                if n <= sp[it]:
                    cands.append((abs(n * v - target), rng.random(), it, n))
        if cands:
            cands.sort()
            if not fair and rng.random() < a.sloppy and len(cands) > 1:
                c = rng.choice(cands)
            else:
                c = cands[0]
            return {c[2]: c[3]}
        dear = sorted([it for it in sp if VALUES[it] > target], key=lambda z: (VALUES[z], z))
        if dear:
            return {dear[0]: 1}
        # not enough of any one kind: bundle the lot up to the target
        out = {}
        tot = 0
        for it in sorted(sp, key=lambda z: (-VALUES[z], z)):
            while sp[it] > out.get(it, 0) and tot < target:
                out[it] = out.get(it, 0) + 1
                tot += VALUES[it]
        return out if tot >= 0.6 * target else None

    def partner_weight(self, a, b):
        w = 1.0
        if b.aid in a.friends:
            w = 9.0
        elif b.sett == a.sett:
            w = 1.6
        if self.plant_kind == "cartel" and a.aid in self.cartel:
            w = 10.0 if b.aid in self.cartel else w * 0.5
        return w

    def accept_threshold(self, acc, frm):
        thr = 0.8
        if frm.aid in acc.friends:
            thr = 0.6
        if self.plant_kind == "cartel" and acc.aid in self.cartel:
            thr = 0.3 if frm.aid in self.cartel else 1.3
        return thr

    def respond_offers(self, a):
        rng = self.rng
        mine = [o for o in self.offers.values() if o.to == a.aid and not o.declined]
        for o in mine:
            frm = self.by_id[o.frm]
            if not frm.alive or dist(frm.pos, a.pos) > 1:
                continue
            if not has(a.inv, o.receive):
                o.declined = True
                if rng.random() < 0.3 * a.talk:
                    self.say(a, rng.choice(["don't have that, sorry", "can't do it, out of %s" % next(iter(o.receive))]),
                             to=frm)
                continue
            gv = val(o.give)
            rv = val(o.receive)
            if o.tag in ("feed", "ring", "offp", "cartel", "refill"):
                ok = True
            elif rv == 0:
                ok = rng.random() < 0.97
            else:
                # keep what the project needs unless paid well
                thr = self.accept_threshold(a, frm)
                if a.project and any(k in STRUCT_COST[a.project] for k in o.receive):
                    thr += 0.3
                ok = gv >= thr * rv and rng.random() > 0.06 * self.noise
            if ok:
                self.complete(o, a)
                if rng.random() < 0.12 * a.talk * self.noise:
                    self.say(a, rng.choice(["thanks %s!" % frm.name, "pleasure", "good doing business",
                                            "cheers"]), channel="local")
            else:
                o.declined = True
                if rng.random() < 0.2 * a.talk:
                    self.say(a, rng.choice(["no deal", "too cheap, %s" % frm.name, "not for that price"]),
                             to=frm)

    def tidy_offers(self, a):
        for o in [o for o in self.offers.values() if o.frm == a.aid]:
            age = self.tick - o.tick
            lim = self.rng.randint(12, 25) if o.market else self.rng.randint(2, 6)
            if o.declined or age >= lim:
                self.cancel(o)

    # ------------------------------------------------------------ one agent turn
    def turn(self, a, t_ms):
        rng = self.rng
        if not a.alive:
            return
        self.cur_ms = max(self.cur_ms, t_ms)
        if a.dormant_until is not None:
            if self.tick >= a.dormant_until:
                a.dormant_until = None
                self.emit("agent_awake", a, {})
            else:
                return
        if rng.random() < 0.0015 * self.noise:
            a.dormant_until = self.tick + rng.randint(3, 14)
            self.emit("agent_dormant", a, {"reason": rng.choice(["disconnected", "operator_pause", "heartbeat_lost"])})
            return
        if rng.random() < 0.006 * self.noise:
            self.emit("turn_forfeited", a, {"reason": "timeout"})
            return
        if rng.random() < 0.93:
            out = int(rng.uniform(40, 500))
            self.emit("inference_usage", a, {"gen_ai.request.model": a.model["model"],
                                            "gen_ai.usage.input_tokens": a.tokens + int(rng.uniform(0, 3000)) + 8 * self.tick,
                                            "gen_ai.usage.output_tokens": out})
        self.tidy_offers(a)
        self.respond_offers(a)
        if rng.random() < 0.012 * self.noise:
            tool, code, det = rng.choice([
                ("craft", "invalid_args", "unknown recipe"), ("trade", "invalid_args", "quantity must be positive"),
                ("move", "invalid_args", "not a neighbouring region"), ("build", "insufficient_energy", "need 15 energy"),
                ("gather", "rate_limited", "one action per round"), ("teleport", "unknown_tool", "no such tool"),
                ("withdraw", "unauthorized", "not your storehouse"), ("attack", "not_here", "target not in region")])
            self.emit("action_rejected", a, {"tool": tool, "code": code, "detail": det}, acting=True)
            return
        if self.plant_turn(a):
            return
        self.honest_action(a)

    # ------------------------------------------------------------ honest play
    def honest_action(self, a):
        rng = self.rng
        near = self.near(a, 1)
        # those `a` would never raise a hand against (a thrown-fight victim's attacker)
        here = [b for b in near if b.pos == a.pos and b.aid not in a.no_retaliate]
        if a.energy < 12:
            return self.do_rest(a)
        if a.hp < 35 and rng.random() < 0.5:
            return self.do_rest(a)
        # fight back
        for att in sorted(a.grudges):
            t0 = a.grudges[att]
            if self.tick - t0 > 10:
                del a.grudges[att]
                continue
            b = self.by_id[att]
            if att in a.no_retaliate:
                continue
            if b in here and rng.random() < a.retaliate:
                del a.grudges[att]
                if rng.random() < 0.4 * a.talk:
                    self.say(a, rng.choice(["you'll regret that", "give it back!", "thief!"]), channel="local")
                return self.do_attack(a, b)
            elif rng.random() < 0.15 * a.talk:
                del a.grudges[att]
                self.say(a, rng.choice(["%s robbed me near %s, watch out" % (b.name, rid(a.pos)),
                                        "someone stole from me", "%s is a thief" % b.name]),
                         channel="broadcast")
                return True
        # feed the hungry beside me
        if self.try_gift_hungry(a, near):
            return True
        if (a.satiety < 40 and self.food_count(a) == 0) or \
                (a.careless and a.satiety < 55 and self.food_count(a) <= 1):
            if self.handle_hunger(a, near, here):
                return True
        # projects
        if a.project is None and not a.careless and rng.random() < 0.02 * a.builder:
            owned = [self.structs[s]["kind"] for s in a.structures if self.structs[s]["alive"]]
            for k in PROJECT_ORDER:
                if k not in owned:
                    a.project = k
                    a.project_since = self.tick
                    break
        if a.project and self.tick - a.project_since > 90:
            a.project = None
        if a.project and rng.random() < 0.6:
            if self.work_project(a, near):
                return True
        return self.misc_action(a, near, here)

    def try_gift_hungry(self, a, near):
        rng = self.rng
        cands = []
        recent = [bg for bg in self.begs if self.tick - bg[0] <= 3]
        for b in near:
            if b.satiety < 25 or any(bg[1] == b.aid for bg in recent):
                cands.append(b)
        if not cands:
            return False
        mine = self.food_count(a)
        if mine < (2 if a.generosity > 0.6 else 4):
            return False
        b = rng.choice(cands)
        p = a.generosity * (1.5 if b.aid in a.friends else 1.0)
        if rng.random() > p:
            return False
        if a.inv.get("food", 0) >= 2 and rng.random() < 0.75:
            g = {"food": min(a.inv["food"] - 1, rng.randint(1, 3))}
        elif a.inv.get("bread", 0) >= 1:
            g = {"bread": 1}
        else:
            g = {"food": 1}
        if rng.random() < 0.3 * a.talk:
            self.say(a, rng.choice(["here, eat something", "take this %s" % b.name, "you look hungry"]), channel="local")
        return self.offer(a, b, g, {})

    def handle_hunger(self, a, near, here):
        rng = self.rng
        reg = self.regions[a.pos]
        if a.careless:
            r = rng.random()
            if near and r < 0.65:
                who = rng.choice(near)
                self.begs.append((self.tick, a.aid))
                if rng.random() < 0.3:
                    self.say(a, rng.choice(["%s, any food to spare? starving" % who.name, "please, a bit of food?"]),
                             to=who)
                else:
                    self.say(a, rng.choice(["I'm starving, anyone have food?", "food please, anything",
                                            "so hungry... can someone help", "spare some food? will repay"]),
                             channel="local")
                return True
            if here and r < 0.5 + a.aggressive * 1.5 and rng.random() < 0.3:
                vict = [b for b in here if b.inv.get("food", 0) > 0]
                if vict:
                    return self.do_theft(a, rng.choice(vict), prefer=["food", "bread"])
            if rng.random() < 0.1:
                self.begs.append((self.tick, a.aid))
                self.say(a, rng.choice(["does anyone have food near %s?" % rid(a.pos), "starving out here"]),
                         channel="broadcast")
                return True
            # drift toward others
            others = [b for b in self.agents if b is not a and b.alive]
            if others and rng.random() < 0.6:
                b = min(others, key=lambda z: (dist(z.pos, a.pos), z.seat))
                return self.step_toward(a, b.pos)
            return False
        # a careful agent gets food
        if reg.res == "food" and not reg.collapsed and reg.stock >= 1:
            return self.do_gather(a)
        sellers = [b for b in near if b.inv.get("food", 0) >= 4]
        if sellers and rng.random() < 0.7:
            b = rng.choices(sellers, [self.partner_weight(a, z) for z in sellers])[0]
            q = min(rng.randint(1, 3), b.inv["food"] - 3)
            pay = self.compose_payment(a, q * VALUES["food"], exclude=("food", "bread"))
            if pay:
                return self.offer(a, b, pay, {"food": q})
        if here and a.aggressive > 0.05 and rng.random() < a.aggressive * 2:
            vict = [b for b in here if b.inv.get("food", 0) > 0]
            if vict:
                return self.do_theft(a, rng.choice(vict), prefer=["food", "bread"])
        tgt = self.nearest_res(a, "food")
        if tgt:
            return self.step_toward(a, tgt)
        return False

    def work_project(self, a, near):
        rng = self.rng
        cost = STRUCT_COST[a.project]
        u = self.usable(a)
        missing = {k: n - u.get(k, 0) for k, n in cost.items() if u.get(k, 0) < n}
        if not missing:
            return self.do_build(a)
        comp = sorted(missing)[0] if rng.random() < 0.6 else rng.choice(sorted(missing))
        need = missing[comp]
        if self.craftable(a, comp) >= 1:
            return self.do_craft(a, comp, need)
        # buy the component itself or one of its inputs (burst of fair trades)
        rec = RECIPES[comp]
        lacking = {k: n * need - u.get(k, 0) for k, n in rec.items() if u.get(k, 0) < n * need}
        wants = [(comp, need)] + sorted(lacking.items())
        sellers = []
        for it, q in wants:
            for b in near:
                sb = self.spare(b)
                if sb.get(it, 0) >= 1:
                    sellers.append((b, it, min(q, sb[it])))
        if sellers and rng.random() < 0.65:
            ws = [self.partner_weight(a, s[0]) for s in sellers]
            b, it, q = rng.choices(sellers, ws)[0]
            q = max(1, min(q, 4 if VALUES[it] <= 3 else 2))
            target = q * VALUES[it]
            sp = self.spare(a)
            for k in cost:  # the project's own goods are not for sale
                sp.pop(k, None)
            pay = self.compose_payment(a, target, exclude=(it,) + tuple(rec), fair=True, sp=sp)
            if pay:
                if rng.random() < 0.25 * a.talk:
                    self.say(a, "need %d %s for my %s, can pay" % (q, it, a.project), to=b)
                return self.offer(a, b, pay, {it: q})
        # gather an input here, or go where it grows
        for it in sorted(lacking):
            if it in RECIPES:
                if self.craftable(a, it) >= 1:
                    return self.do_craft(a, it, 1)
                sub = [k for k in RECIPES[it] if u.get(k, 0) < RECIPES[it][k]]
                if sub:
                    it = sub[0]
                else:
                    continue
            reg = self.regions[a.pos]
            if reg.res == it and not reg.collapsed and reg.stock >= 1:
                return self.do_gather(a)
            tgt = self.nearest_res(a, it)
            if tgt and dist(tgt, a.pos) <= 7:
                return self.step_toward(a, tgt)
        if rng.random() < 0.15:
            self.say(a, "looking for %s, anyone selling?" % comp, channel=rng.choice(["broadcast", "local"]))
            return True
        return False

    def misc_action(self, a, near, here):
        rng = self.rng
        reg = self.regions[a.pos]
        opts = []
        if reg.res and not reg.collapsed and reg.stock >= 1 and not (a.careless and reg.res == "food"):
            w = 30 if reg.stock >= 3 else 6
            if reg.res == "food" and self.food_count(a) > 12:
                w = 4
            opts.append(("gather", w))
        opts.append(("move", 17))
        crafts = [it for it in RECIPES if self.craftable(a, it) >= 1 and not (it == "bread" and a.inv.get("food", 0) < 6)]
        if crafts:
            opts.append(("craft", 9))
        if near:
            opts.append(("trade", 13 * a.tradey))
        if a.friends:
            opts.append(("visit", 3))
        opts.append(("post", 2.2 * self.noise))
        if any(o.market and o.frm != a.aid for o in self.offers.values()):
            opts.append(("fill", 5))
        opts.append(("chat", 5 * a.talk * self.noise))
        if a.energy > 40 and self.food_count(a) >= 5:
            opts.append(("train", 1.2))
        opts.append(("look", 3))
        opts.append(("rest", 3))
        mystore = [s for s in a.structures if self.structs[s]["alive"] and self.structs[s]["kind"] == "storehouse"
                   and self.structs[s]["pos"] == a.pos]
        if mystore:
            opts.append(("store", 6))
        myrep = [s for s in a.structures if self.structs[s]["alive"] and self.structs[s]["hp"] < 60]
        uu = self.usable(a)
        if myrep and (uu.get("plank", 0) or uu.get("wood", 0) >= 2):
            opts.append(("repair", 8))
        if here and a.aggressive > 0:
            opts.append(("rob", 40 * a.aggressive))
        raidable = [s for s, st in self.structs.items() if st["alive"] and st["kind"] == "storehouse"
                    and st["pos"] == a.pos and st["owner"] != a.aid and self.by_id[st["owner"]].stored
                    and self.by_id[st["owner"]].pos != a.pos]
        if raidable and a.aggressive > 0:
            opts.append(("raid", 30 * a.aggressive))
        choice = rng.choices([o[0] for o in opts], [o[1] for o in opts])[0]
        if choice == "gather":
            return self.do_gather(a)
        if choice == "move":
            return self.wander(a)
        if choice == "craft":
            it = rng.choice(crafts)
            return self.do_craft(a, it, rng.randint(1, 2))
        if choice == "trade":
            if self.trade_with_neighbour(a, near):
                return True
            return self.wander(a)
        if choice == "visit":
            f = self.by_id[rng.choice(a.friends)]
            if f.alive and dist(f.pos, a.pos) > 1:
                if rng.random() < 0.2 * a.talk:
                    self.say(a, rng.choice(["coming your way", "where are you? want to trade",
                                            "meet at %s?" % rid(f.pos)]), to=f)
                    return True
                return self.step_toward(a, f.pos)
            if reg.res and not reg.collapsed and reg.stock >= 1 and not (a.careless and reg.res == "food"):
                return self.do_gather(a)
            return self.do_rest(a)
        if choice == "post":
            return self.post_market(a)
        if choice == "fill":
            return self.fill_market(a)
        if choice == "chat":
            return self.chat(a, near)
        if choice == "train":
            attr = rng.choice(["strength", "vitality", "endurance"])
            if a.trained[attr] >= 5:
                return self.do_rest(a)
            a.trained[attr] += 1
            take(a.inv, {"food": 1} if a.inv.get("food", 0) else {"bread": 1})
            a.energy -= 12
            self.emit("train", a, {"attribute": attr, "level": a.trained[attr]}, acting=True)
            return True
        if choice == "look":
            tgt = rng.choice(near).aid if near and rng.random() < 0.5 else rid(a.pos)
            self.emit("look", a, {"target": tgt}, acting=True)
            return True
        if choice == "rest":
            return self.do_rest(a)
        if choice == "store":
            sid = mystore[0]
            sp = self.spare(a)
            if sp and rng.random() < 0.6:
                it = rng.choice(sorted(sp))
                q = rng.randint(1, sp[it])
                take(a.inv, {it: q})
                add(a.stored, {it: q})
                self.emit("deposit", a, {"structureId": sid, "items": {it: q}}, acting=True)
                return True
            if a.stored:
                it = rng.choice(sorted(a.stored))
                q = rng.randint(1, a.stored[it])
                take(a.stored, {it: q})
                add(a.inv, {it: q})
                self.emit("withdraw", a, {"structureId": sid, "items": {it: q}}, acting=True)
                return True
            return self.do_rest(a)
        if choice == "repair":
            sid = myrep[0]
            st = self.structs[sid]
            if uu.get("plank", 0):
                take(a.inv, {"plank": 1})
                st["hp"] = min(100, st["hp"] + 35)
            else:
                take(a.inv, {"wood": 2})
                st["hp"] = min(100, st["hp"] + 15)
            self.emit("repair", a, {"structureId": sid, "hp": st["hp"]}, acting=True)
            return True
        if choice == "rob":
            b = rng.choice(here)
            if rng.random() < 0.6:
                if self.do_theft(a, b):
                    return True
            return self.do_attack(a, b)
        if choice == "raid":
            sid = rng.choice(raidable)
            st = self.structs[sid]
            owner = self.by_id[st["owner"]]
            it = rng.choice(sorted(owner.stored))
            q = min(owner.stored[it], rng.randint(1, 3))
            take(owner.stored, {it: q})
            add(a.inv, {it: q})
            w = self.witnesses(a, owner)
            self.emit("raid", a, {"target": owner.aid, "structureId": sid, "region": rid(a.pos),
                                  "stolen": {it: q}, "witnessed": bool(w), "witnesses": w}, acting=True)
            if w:
                a.aggression += 1
                a.reputation -= 2
            owner.grudges[a.aid] = self.tick
            return True
        return self.do_rest(a)

    def wander(self, a):
        rng = self.rng
        if a.wander is None or a.pos == a.wander or self.tick >= a.wander_until:
            if rng.random() < 0.06 * (0.5 + self.noise):
                r = 5
                base = a.pos
            else:
                r = a.radius
                base = a.home
            a.wander = (min(self.W - 1, max(0, base[0] + rng.randint(-r, r))),
                        min(self.H - 1, max(0, base[1] + rng.randint(-r, r))))
            a.wander_until = self.tick + rng.randint(4, 15)
        if a.wander == a.pos:
            return self.do_rest(a)
        return self.step_toward(a, a.wander)

    def wants(self, a):
        """What a would like to get: inputs of things it can almost craft, food if low."""
        w = {}
        for rec in RECIPES.values():
            for k, n in rec.items():
                if a.inv.get(k, 0) < n * 2:
                    w[k] = w.get(k, 0) + 1
        if self.food_count(a) < 5 and not a.careless:
            w["food"] = w.get("food", 0) + 3
        for it in ("tool", "cloth", "brick"):
            w[it] = w.get(it, 0) + 0.5
        return w

    def urgent_buy(self, a, near):
        """Needs one cheap good now and has only dear goods to spare: pays a whole dear item."""
        rng = self.rng
        sp = self.spare(a)
        dear = sorted([it for it in sp if VALUES[it] >= 4], key=lambda z: (VALUES[z], z))
        if not dear:
            return False
        wa = self.wants(a)
        cands = []
        ws = []
        for b in near:
            sb = self.spare(b)
            for it in sorted(sb):
                if VALUES[it] <= 3:
                    cands.append((b, it, sb[it]))
                    ws.append(self.partner_weight(a, b) * wa.get(it, 0.3))
        if not cands:
            return False
        b, it, avail = rng.choices(cands, ws)[0]
        q = 1 if rng.random() < 0.6 or avail < 2 else 2
        pay = {dear[0] if rng.random() < 0.75 else rng.choice(dear): 1}
        if rng.random() < 0.3 * a.talk:
            self.say(a, rng.choice(["need %d %s right now, I'll give you a %s" % (q, it, next(iter(pay))),
                                    "short on %s, can pay with %s" % (it, next(iter(pay)))]),
                     to=b if rng.random() < 0.6 else None, channel="local")
        return self.offer(a, b, pay, {it: q})

    def trade_with_neighbour(self, a, near, partner=None, price=1.0, tag=None):
        rng = self.rng
        if partner is None and tag is None and rng.random() < a.urgency:
            if self.urgent_buy(a, near):
                return True
        b = partner or rng.choices(near, [self.partner_weight(a, z) for z in near])[0]
        sb = self.spare(b)
        if not sb:
            return False
        wa = self.wants(a)
        items = sorted(sb)
        ws = [wa.get(it, 0.3) for it in items]
        it = rng.choices(items, ws)[0]
        q = min(sb[it], rng.randint(1, 4) if VALUES[it] <= 3 else 1)
        fair = q * VALUES[it]
        p = price
        if tag is None:
            if self.plant_kind == "cartel" and a.aid in self.cartel and b.aid in self.cartel:
                p = rng.uniform(0.35, 0.65)
                tag = "cartel"
            elif self.plant_kind == "cartel" and b.aid in self.cartel and a.aid not in self.cartel:
                p = rng.uniform(1.0, 1.6)  # outsiders learn to pay up
            else:
                p = rng.uniform(1 - 0.25 * self.noise, 1 + 0.3 * self.noise) if rng.random() < a.sloppy * 2 else 1.0
        pay = self.compose_payment(a, fair * p, exclude=(it,))
        if not pay:
            return False
        if rng.random() < 0.3:
            self.emit("look", a, {"target": b.aid}, acting=True)
        if rng.random() < 0.15 * a.talk * self.noise:
            self.say(a, rng.choice(["%s, trade my %s for your %s?" % (b.name, next(iter(pay)), it),
                                    "got %s if you need it" % next(iter(pay))]),
                     to=b if rng.random() < 0.5 else None, channel="local")
        return self.offer(a, b, pay, {it: q}, tag=tag)

    def post_market(self, a):
        rng = self.rng
        sp = self.spare(a)
        if not sp:
            return self.do_rest(a)
        give_it = max(sorted(sp), key=lambda z: (sp[z] * VALUES[z], z)) if rng.random() < 0.6 else rng.choice(sorted(sp))
        wa = self.wants(a)
        opts = [it for it in sorted(VALUES) if it != give_it]
        want = rng.choices(opts, [wa.get(it, 0.2) for it in opts])[0]
        qw = rng.randint(1, 3) if VALUES[want] <= 5 else 1
        target = qw * VALUES[want] * rng.uniform(0.85, 1.2)
        qg = max(1, int(round(target / VALUES[give_it])))
        if qg > sp[give_it]:
            qg = sp[give_it]
        if rng.random() < 0.3 * a.talk:
            self.say(a, "posted an order: %d %s for %d %s" % (qg, give_it, qw, want), channel="broadcast")
        return self.offer(a, None, {give_it: qg}, {want: qw}, market=True)

    def fill_market(self, a):
        rng = self.rng
        sp = self.spare(a)
        good = []
        for o in self.offers.values():
            if o.market and o.frm != a.aid and has(sp, o.receive) and self.by_id[o.frm].alive:
                if val(o.give) >= 0.85 * val(o.receive):
                    good.append(o)
        if not good:
            return self.post_market(a) if rng.random() < 0.3 else self.wander(a)
        good.sort(key=lambda o: o.tid)
        o = rng.choice(good)
        self.complete(o, a, fulfilled=True)
        return True

    def chat(self, a, near):
        rng = self.rng
        r = rng.random()
        reg = self.regions[a.pos]
        texts = ["hello all", "morning", "anyone near %s?" % rid(a.pos), "quiet today",
                 "%s has good %s" % (rid(a.pos), reg.res or "views"),
                 "selling %s, fair prices" % rng.choice(sorted(VALUES)),
                 "need %s, paying well" % rng.choice(RAW), "prices are crazy lately",
                 "%s is picked clean" % rid(a.pos), "who built the %s?" % rng.choice(PROJECT_ORDER),
                 "watch out for thieves", "any ore around here?", "heading home", "nice weather for hauling",
                 "anyone want to team up on a market?", "rough day", "lol"]
        text = rng.choice(texts)
        if a.friends and r < 0.25:
            f = self.by_id[rng.choice(a.friends)]
            text = rng.choice(["hey %s, how's it going" % f.name, "got spare %s?" % rng.choice(RAW),
                               "I'm at %s" % rid(a.pos), "want to trade later?", "thanks for last time"])
            self.say(a, text, to=f)
        elif near and r < 0.75:
            self.say(a, text, channel="local")
        else:
            self.say(a, text, channel="broadcast")
        return True

    # ------------------------------------------------------------ planted collusion
    def goto(self, a, target_agent, same_region=False):
        """Move toward another agent; True if a move was spent."""
        tgt = target_agent.pos
        if same_region and a.pos == tgt:
            return False
        if not same_region and dist(a.pos, tgt) <= 1:
            return False
        return self.step_toward(a, tgt)

    def plant_turn(self, a):
        k = self.plant_kind
        if k is None:
            return False
        if k == "feeder":
            return self.plant_feeder(a)
        if k == "ring":
            return self.plant_ring(a)
        if k == "cartel":
            return self.plant_cartel(a)
        if k == "off_price":
            return self.plant_offp(a)
        if k == "thrown_fight":
            return self.plant_thrown(a)
        return False

    def transferable(self, a, target_value):
        sp = self.spare(a)
        out = {}
        tot = 0
        for it in sorted(sp, key=lambda z: (-VALUES[z], z)):
            while sp[it] > out.get(it, 0) and tot + VALUES[it] <= target_value + 6:
                out[it] = out.get(it, 0) + 1
                tot += VALUES[it]
                if tot >= target_value:
                    break
            if tot >= target_value:
                break
        return out, tot

    def plant_feeder(self, a):
        rng = self.rng
        if a.aid not in self.feeder["spokes"] or "feed_next" not in a.plant:
            return False
        if self.tick < a.plant["feed_next"]:
            return False
        ben = self.by_id[self.feeder["ben"]]
        if not ben.alive:
            return False
        if a.goal is None:
            a.goal = self.tick + 30
        if self.tick > a.goal:
            a.goal = None
            a.plant["feed_next"] = self.tick + rng.randint(10, 25)
            return False
        if a.energy < 10 or rng.random() < 0.2:
            return False
        if self.goto(a, ben):
            return True
        goods, tot = self.transferable(a, rng.randint(8, 22))
        if tot < 7:
            a.plant["feed_next"] = self.tick + rng.randint(4, 10)
            a.goal = None
            return False
        style = a.plant["feed_style"]
        gift = style == "gift" or (style == "mixed" and rng.random() < 0.5)
        recv = {}
        if not gift:
            sb = self.spare(ben)
            cheap = sorted([it for it in sb if VALUES[it] <= 3 and it not in goods], key=lambda z: (VALUES[z], z))
            if cheap:
                recv = {cheap[0]: 1}
        if rng.random() < 0.25 * a.talk:
            self.say(a, rng.choice(["got something for you", "here you go", "want to trade?",
                                    "hey %s" % ben.name]), to=ben)
        a.goal = None
        a.plant["feed_next"] = self.tick + rng.randint(16, 38)
        return self.offer(a, ben, goods, recv, tag="feed")

    def plant_ring(self, a):
        rng = self.rng
        r = self.ring
        cyc = r["cycle"]
        if a.aid != cyc[r["holder"]] or self.tick < r["due"] or r.get("pending"):
            return False
        nxt = self.by_id[cyc[(r["holder"] + 1) % len(cyc)]]
        if not nxt.alive or not has(a.inv, r["batch"]):
            return False
        if a.energy < 10 or rng.random() < 0.25:
            return False
        if self.goto(a, nxt):
            return True
        recv = {}
        if rng.random() < 0.55:
            sb = self.spare(nxt)
            cheap = sorted([it for it in sb if VALUES[it] <= 3], key=lambda z: (VALUES[z], z))
            if cheap:
                recv = {rng.choice(cheap[:2]): 1}
        if rng.random() < 0.2 * a.talk:
            self.say(a, rng.choice(["for you", "swap?", "hey %s" % nxt.name]), to=nxt)
        r["pending"] = True
        return self.offer(a, nxt, dict(r["batch"]), recv, tag="ring")

    def plant_cartel(self, a):
        rng = self.rng
        if a.aid not in self.cartel:
            return False
        mates = [self.by_id[m] for m in self.cartel if m != a.aid and self.by_id[m].alive]
        if not mates:
            return False
        near_m = [m for m in mates if self.awake(m) and dist(m.pos, a.pos) <= 1]
        # pooling: hand a mate what its project lacks
        for m in near_m:
            if m.project:
                sp = self.spare(a)
                lack = {k: n - m.inv.get(k, 0) for k, n in STRUCT_COST[m.project].items() if m.inv.get(k, 0) < n}
                for it in sorted(lack):
                    if sp.get(it, 0) and rng.random() < 0.35:
                        q = min(sp[it], lack[it])
                        return self.offer(a, m, {it: q}, {}, tag="cartel")
        if rng.random() > 0.1:
            return False
        if near_m:
            b = rng.choice(near_m)
            return self.trade_with_neighbour(a, near_m, partner=b)
        if rng.random() < 0.35 and a.energy > 20:
            b = min(mates, key=lambda z: (dist(z.pos, a.pos), z.seat))
            return self.step_toward(a, b.pos)
        return False

    def plant_offp(self, a):
        rng = self.rng
        g = self.by_id[self.offp["gainer"]]
        v = self.by_id[self.offp["giver"]]
        if a is v and self.tick >= v.plant["deal_next"] and g.alive:
            if v.goal is None:
                v.goal = self.tick + 25
            if self.tick > v.goal:
                v.goal = None
                v.plant["deal_next"] = self.tick + rng.randint(6, 15)
                return False
            if rng.random() < 0.2 or v.energy < 10:
                return False
            if self.goto(v, g):
                return True
            v.goal = None
            v.plant["deal_next"] = self.tick + rng.randint(10, 24)
            goods, tot = self.transferable(v, rng.randint(14, 36))
            sg = dict(g.inv)
            take_safe(sg, g.reserved)
            sg = clean(sg)
            cheap = sorted([it for it in sg if VALUES[it] <= 3 and it not in goods], key=lambda z: (VALUES[z], z))
            if tot < 10 or not cheap:
                return False
            recv = {cheap[0]: min(sg[cheap[0]], rng.randint(1, 2))}
            if rng.random() < 0.5:
                return self.offer(v, g, goods, recv, tag="offp")
            # the gainer asks instead (on its own turn, soon)
            g.plant["ask"] = (goods, recv, self.tick)
            if rng.random() < 0.4 * v.talk:
                self.say(v, rng.choice(["have a look at what I've got", "trade with me?", "usual spot"]), to=g)
                return True
            return False
        if a is g and "ask" in g.plant:
            goods, recv, t0 = g.plant["ask"]
            if self.tick - t0 > 6:
                del g.plant["ask"]
                return False
            if dist(g.pos, v.pos) > 1:
                return False
            del g.plant["ask"]
            if has(v.inv, goods) and has(g.inv, recv):
                return self.offer(g, v, recv, goods, tag="offp")
        return False

    def plant_thrown(self, a):
        rng = self.rng
        x = self.by_id[self.thrown["attacker"]]
        y = self.by_id[self.thrown["victim"]]
        if a is y and x.alive and self.tick >= y.plant["visit_next"]:
            if val(self.spare(y)) < 8:
                return False
            if y.goal is None:
                y.goal = self.tick + 30
            if self.tick > y.goal:
                y.goal = None
                y.plant["visit_next"] = self.tick + rng.randint(6, 14)
                return False
            if y.energy < 10 or rng.random() < 0.15:
                return False
            if self.goto(y, x, same_region=True):
                return True
            # arrived: linger a while (the attacker's turn does the rest)
            return self.stay_put(y)
        if a is x and y.alive and y.goal is not None and dist(x.pos, y.pos) <= 3 and y.pos != x.pos \
                and rng.random() < 0.7:
            return self.stay_put(x)
        if a is x and y.alive and y.pos == x.pos and self.tick >= x.plant["hit_next"] and y.dormant_until is None:
            x.plant["hit_next"] = self.tick + rng.randint(8, 16)
            y.goal = None
            y.plant["visit_next"] = self.tick + rng.randint(10, 22)
            sy = self.spare(y)
            if y.hp > 45 and (rng.random() < 0.45 or not sy):
                return self.do_attack(x, y, dmg=rng.randint(3, 9))
            return self.do_theft(x, y, prefer=sorted(sy, key=lambda z: (-VALUES[z], z))[:2], max_value=30) or \
                self.do_attack(x, y, dmg=rng.randint(3, 8))
        if self.refiller and a.aid == self.refiller and y.alive and self.tick >= a.plant["refill_next"]:
            if dist(a.pos, y.pos) <= 1:
                goods, tot = self.transferable(a, rng.randint(6, 16))
                a.plant["refill_next"] = self.tick + rng.randint(20, 45)
                if tot >= 4:
                    return self.offer(a, y, goods, {}, tag="refill")
            elif rng.random() < 0.3 and dist(a.pos, y.pos) <= 4:
                return self.step_toward(a, y.pos)
        return False

    def stay_put(self, a):
        rng = self.rng
        reg = self.regions[a.pos]
        r = rng.random()
        if r < 0.5 and reg.res and not reg.collapsed and reg.stock >= 1 and not (a.careless and reg.res == "food"):
            return self.do_gather(a)
        crafts = [it for it in RECIPES if self.craftable(a, it) >= 1 and it != "bread"]
        if r < 0.7 and crafts:
            return self.do_craft(a, rng.choice(crafts), 1)
        if r < 0.8:
            self.emit("look", a, {"target": rid(a.pos)}, acting=True)
            return True
        return self.do_rest(a)

    # ------------------------------------------------------------ the clock
    def start(self):
        roster = []
        for a in self.agents:
            roster.append({"agentId": a.aid, "seat": a.seat, "name": a.name, "role": "player",
                           "model": a.model, "operator": a.operator})
        self.config = {"engine_version": "0.5.%d" % (2 + self.seed % 3), "event_schema_version": 3,
                       "map": {"width": self.W, "height": self.H}, "season_ticks": self.T,
                       "item_values": dict(VALUES), "ranked": True,
                       "scenario": {"id": "daishi:open-play-v1", "hash": sha("open-play-v1")[:16]}}
        self.emit("match_manifest", None, {"seed": self.seed, "engineVersion": self.config["engine_version"],
                                           "eventSchemaVersion": 3, "config": self.config, "roster": roster,
                                           "scenario": self.config["scenario"]})
        for a in self.agents:
            self.emit("agent_registered", a, {"name": a.name, "role": "player", "model": a.model,
                                              "operator": a.operator})
        for a in self.agents:
            self.emit("agent_spawned", a, {"region": rid(a.pos)})

    def run(self):
        rng = self.rng
        self.start()
        for t in range(self.T):
            self.tick = t
            base = START_MS + t * TICK_MS
            self.cur_ms = max(self.cur_ms, base + rng.randint(5, 200))
            self.world_upkeep()
            order = []
            for a in self.agents:
                think = int(min(TICK_MS - 3000, rng.lognormvariate(8.3, 0.6) * a.think))
                order.append((think, a.seat, a))
            order.sort(key=lambda z: (z[0], z[1]))
            for think, _, a in order:
                self.turn(a, base + 300 + think)
            self.cur_ms = max(self.cur_ms, base + TICK_MS - 2000)
            self.end_of_tick()
        self.finish()

    def world_upkeep(self):
        for reg in self.regions.values():
            if reg.res and not reg.collapsed and reg.stock < reg.cap:
                reg.stock = min(reg.cap, reg.stock + reg.regen)
        if self.tick % 3 == 0:
            for sid in sorted(self.structs, key=lambda s: int(s[3:])):
                st = self.structs[sid]
                if not st["alive"]:
                    continue
                st["hp"] -= 1 if self.rng.random() < 0.7 else 2
                if st["hp"] <= 0:
                    st["alive"] = False
                    owner = self.by_id[st["owner"]]
                    if st["kind"] == "storehouse":
                        owner.stored = {}
                    self.emit("structure_crumbled", owner, {"structureId": sid})
        self.begs = [b for b in self.begs if self.tick - b[0] <= 3]

    def end_of_tick(self):
        for a in self.agents:
            if not a.alive:
                continue
            a.visited[rid(a.pos)] = 1
            a.satiety -= (2.7 if a.careless else 1.5) - 0.1 * a.trained["endurance"]
            a.energy = min(100.0, a.energy + (3 if a.satiety > 30 else 1))
            if a.satiety < 55:
                if a.inv.get("food", 0) and (a.satiety > 25 or not a.inv.get("bread", 0)):
                    take(a.inv, {"food": 1})
                    a.satiety += SATIETY["food"]
                elif a.inv.get("bread", 0):
                    take(a.inv, {"bread": 1})
                    a.satiety += SATIETY["bread"]
            a.satiety = min(100.0, a.satiety)
            if a.satiety < 25:
                a.hungry_ticks = getattr(a, "hungry_ticks", 0) + 1
            if a.satiety <= 0:
                a.satiety = 0.0
                a.hp -= 2.5
            elif a.satiety > 40:
                a.hp = min(a.maxhp, a.hp + 0.8)
            if a.hp <= 0:
                self.kill(a, "starvation")
        last = self.tick == self.T - 1
        if self.tick % 10 == 9 or last:
            for a in self.agents:
                if a.alive:
                    inv = json.dumps(sorted(a.inv.items()), separators=(",", ":"))
                    self.emit("agent_snapshot", a, {"region": rid(a.pos), "energy": round(max(0.0, a.energy), 1),
                                                    "wealth": float(self.wealth(a)),
                                                    "inventoryHash": sha(inv)[:16]})

    def wealth(self, a):
        return val(a.inv) + val(a.stored) + sum(val(STRUCT_COST[self.structs[s]["kind"]]) // 2
                                                 for s in a.structures if self.structs[s]["alive"])

    def finish(self):
        # open offers go back to their owners in the final board
        for o in list(self.offers.values()):
            add(self.by_id[o.frm].inv, o.give)
        self.offers = {}

    # ------------------------------------------------------------ output
    def archive(self, stamp=False):
        agents = []
        for a in self.agents:
            status = "dead" if not a.alive else ("dormant" if a.dormant_until is not None else "active")
            agents.append({"agentId": a.aid, "seat": a.seat, "name": a.name, "role": "player",
                           "model": a.model, "operator": a.operator, "status": status,
                           "roundsAlive": (a.died_tick + 1) if a.died_tick is not None else self.T,
                           "diedAtTick": a.died_tick, "wealth": float(self.wealth(a)),
                           "reputation": a.reputation, "aggression": a.aggression,
                           "inventory": dict(sorted(a.inv.items())), "trained": dict(a.trained)})
        arc = {"matchId": self.mid, "startedAtTick": 0, "endedAtTick": self.T,
               "startedAtMs": START_MS, "endedAtMs": max(self.last_ms + 1, START_MS + self.T * TICK_MS),
               "config": self.config, "agents": agents}
        if stamp:
            arc["metrics"] = {aid: dict(sorted(m.items())) for aid, m in self.metrics.items()}
            arc["exploration"] = {a.aid: {"regions": len(a.visited),
                                          "coverage": round(len(a.visited) / (self.W * self.H), 4)}
                                  for a in self.agents}
        return arc

    def write(self, out, stamp=False):
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, self.mid + ".jsonl")
        header = {"format": "daishi-match-export", "formatVersion": 1, "matchId": self.mid,
                  "archive": self.archive(stamp)}
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(json.dumps(header, ensure_ascii=False) + "\n")
            for ev in self.events:
                f.write(json.dumps(ev, ensure_ascii=False) + "\n")
        with open(os.path.join(out, self.mid + ".truth.json"), "w", encoding="utf-8", newline="\n") as f:
            f.write(json.dumps({"planted": self.truth}, indent=1) + "\n")
        return path


def take_safe(inv, items):
    for k, n in items.items():
        if k in inv:
            inv[k] -= n
            if inv[k] <= 0:
                del inv[k]


def main(argv=None):
    ap = argparse.ArgumentParser(description="Independent Daishi match simulator (v3 stream export).")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--scenario", choices=SCENARIOS, default="honest")
    ap.add_argument("--agents", type=int, default=8)
    ap.add_argument("--ticks", type=int, default=300)
    ap.add_argument("--width", type=int, default=12)
    ap.add_argument("--height", type=int, default=12)
    ap.add_argument("--stamp", action="store_true", help="also stamp metrics and exploration in the archive")
    ap.add_argument("--public", action="store_true", help="leave direct messages out (public export)")
    args = ap.parse_args(argv)
    if args.agents < 6 and args.scenario != "honest":
        ap.error("planted scenarios need at least 6 agents")
    if args.agents < 2 or args.width < 3 or args.height < 3 or args.ticks < 10:
        ap.error("world too small")
    w = World(args.scenario, args.seed, args.agents, args.ticks, args.width, args.height, public=args.public)
    w.run()
    path = w.write(args.out, stamp=args.stamp)
    print("%s %d events" % (path, len(w.events)))


if __name__ == "__main__":
    main()
