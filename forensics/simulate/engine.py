"""The tick loop of a simulated Daishi match: organic play, and the actions planted behaviors use.

A tick runs in phases, so that every position an event depends on is the
position the analyzer's replay sees (the end-of-tick state, ARCHITECTURE.md):

0. world: late joiners, dormancy, scheduled deaths, crumbling structures,
   then each planted behavior's ``before_tick``;
1. moves: every agent that moves this tick moves;
2. turns: every other agent acts (gather, craft, build, trade, fight, ...) and
   may talk; witnesses and the hearers of a ``local`` message are the agents
   standing in the region now, which is where they stand at the end of the tick;
3. snapshots (every 25 ticks).

Events are produced in v3 shape (contract section 2); :mod:`.writer` turns them
into older schema versions.  Everything is drawn from one seeded
:class:`random.Random`; no set of strings is ever iterated.
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import math
import random
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from daishi_forensics.arithmetic import coverage, half_up
from .behaviors import plan_behaviors
from .collusion import FEEDER_MODES
from .economy import Economy
from .encounters import Encounters
from .noise import NOISE_LEVELS, HonestNoise
from .roster import make_agents
from .world import (
    ITEM_VALUES,
    RESOURCES,
    STRUCTURES,
    Agent,
    GameMap,
    Offer,
    Structure,
    derive_int,
    has_items,
    match_id_for,
    value_of,
)

__all__ = ["Simulation", "ENGINE_VERSIONS", "EVENTS_PER_AGENT_TICK", "GAME_SCENARIO"]

ENGINE_VERSIONS = {1: "0.1.0", 2: "0.3.1", 3: "0.5.2"}
"""Engine version stamped on a match of each event schema version."""

EVENTS_PER_AGENT_TICK = 2.3
"""Rough events per agent per tick of organic play (used to size a ``target_events`` match)."""

GAME_SCENARIO = {
    "id": "daishi:open-play-v1",
    "hash": hashlib.sha256(b"daishi:open-play-v1").hexdigest(),
}
"""The game scenario every simulated match plays (not the planted scenario, which the log never names)."""

_SORT = orjson.OPT_SORT_KEYS
_DORMANT_REASONS = ("no_actions", "disconnected", "budget_exhausted")
_REJECT_CODES = (
    ("invalid_args", 30), ("not_here", 22), ("insufficient_energy", 14),
    ("rate_limited", 22), ("unauthorized", 6), ("unknown_tool", 6),
)
_REJECT_TOOLS = ("gather", "move", "craft", "build", "offer_trade", "accept_trade", "attack", "deposit", "say")
_UNKNOWN_TOOLS = ("teleport", "sell_all", "admin_give", "get_map_full")
_PROJECTS = ("tools", "planks", "cloth", "hoard", "tools", "hoard")
_RAW = {"plank": "wood", "tool": "ore", "cloth": "fiber"}


def _check_settings(n_agents: int, ticks: int, target_events: int | None, width: int, height: int,
                    noise: str | None) -> None:
    """A simulation's settings are usable: at least 4 seats, a tick, a positive event target, a 2 x 2 map,
    a known noise level (a ``ValueError`` names the first that is not)."""
    if n_agents < 4:
        raise ValueError(f"n_agents must be at least 4, got {n_agents}")
    if ticks < 1:
        raise ValueError(f"ticks must be at least 1, got {ticks}")
    if target_events is not None and target_events < 1:
        raise ValueError(f"target_events must be positive, got {target_events}")
    if width < 2 or height < 2:
        raise ValueError("the map is at least 2 x 2 regions")
    if noise is not None and noise not in NOISE_LEVELS:
        raise ValueError(f"noise must be one of {', '.join(NOISE_LEVELS)}, got {noise!r}")


def _given_noise(noise: str | None) -> tuple[tuple[str, str], ...]:
    """What ``noise`` adds to the match id: nothing when not given (the ids of earlier matches
    stay as they were), else ``("noise", level)`` (a noise level plays another match)."""
    return () if noise is None else (("noise", noise),)


def _given_feeder_mode(feeder_mode: str) -> tuple[tuple[str, str], ...]:
    """What ``feeder_mode`` adds to the match id: nothing for ``offer`` (every feeder as it always was
    planted, the ids unchanged), else ``("feeder_mode", mode)``: the same draws, another match."""
    if feeder_mode not in FEEDER_MODES:
        raise ValueError(f"feeder_mode must be one of {', '.join(FEEDER_MODES)}, got {feeder_mode!r}")
    return () if feeder_mode == "offer" else (("feeder_mode", feeder_mode),)


class Simulation(Economy, Encounters, HonestNoise):
    """One simulated match.  Iterate :meth:`run` for its v3 events; afterwards
    :attr:`archive` and :meth:`truth` describe how it ended.

    Parameters
    ----------
    scenario, seed:
        Which planted behaviors (see :data:`daishi_forensics.simulate.SCENARIOS`), and the seed
        every draw derives from.
    n_agents:
        Player seats (an anchor bot may take one); probe seats come on top.
    ticks:
        Rounds to play, unless ``target_events`` is given: then the match plays
        until it has logged at least that many events (ending at a tick boundary).
    first_id:
        Id of the first event (default: drawn from the seed, between 2000 and 60000).
    id_prefix:
        Marks trade and structure ids (used for an earlier season in one v1 log).
    noise:
        Honest noise (:mod:`.noise`): ``none``, ``light``, ``medium``, ``heavy`` or ``extreme``; None: ``medium``
        for the ``honest-noisy`` scenario, else ``none`` (the other scenarios draw what they always drew).
    feeder_mode:
        Who sends a planted feeder's trades (:data:`~.collusion.FEEDER_MODES`): ``offer`` (the spokes) or
        ``ask`` (the beneficiary asks, the spokes grant it).  Every draw is the same either way; ``ask`` is
        part of the match id.
    """

    def __init__(self, scenario: str, seed: int, *, n_agents: int = 8, ticks: int = 300,
                 target_events: int | None = None, width: int = 12, height: int = 12,
                 first_id: int | None = None, id_prefix: str = "", noise: str | None = None,
                 feeder_mode: str = "offer") -> None:
        _check_settings(n_agents, ticks, target_events, width, height, noise)
        given_mode = _given_feeder_mode(feeder_mode)
        self.scenario = scenario
        self.seed = seed
        self.noise = NOISE_LEVELS[noise or ("medium" if scenario == "honest-noisy" else "none")]
        self.nrng = random.Random(derive_int("daishi-noise", scenario, seed, n_agents, ticks, target_events,
                                             width, height, id_prefix, noise or ""))
        self.noise_friends: dict[str, list[str]] = {}
        self.noise_beggars: set[str] = set()
        self.n_agents = n_agents
        self.target = target_events
        self.rng = rng = random.Random(derive_int("daishi-sim", scenario, seed, n_agents, ticks, target_events,
                                                  width, height, id_prefix))
        self._rand = rng.random
        self.match_id = match_id_for(scenario + id_prefix, seed, n_agents, ticks, target_events, width, height,
                                     *_given_noise(noise), *given_mode)
        self.world_seed = derive_int("world", scenario, seed, id_prefix) % (1 << 31)
        self.map = GameMap(width, height, rng)
        if target_events is None:
            self.planned = ticks
        else:
            self.planned = max(60, math.ceil(target_events / (n_agents * EVENTS_PER_AGENT_TICK)))
        self.first_id = first_id if first_id is not None else rng.randrange(2000, 60000)
        self.id_prefix = id_prefix
        self.base_ms = 1_790_000_000_000 + rng.randrange(0, 90) * 86_400_000 + rng.randrange(0, 86_400) * 1000

        # Emission state.
        self.buf: list[dict[str, Any]] = []
        self.n_events = 0
        self._next_id = self.first_id
        self._ms = self.base_ms
        self._ms_cap = self.base_ms + 59_999
        self._ms_step = max(2, 45_000 // max(1, int(n_agents * EVENTS_PER_AGENT_TICK)))
        self._step = 1 + self._ms_step // 2
        self.tick = 0
        self.ended = 0

        # World state.
        self.occ: list[dict[str, Agent]] = [{} for _ in range(self.map.size)]
        self.market: list[Offer] = []
        self.crumble_heap: list[tuple[int, int, Structure]] = []
        self._seq = 0
        self._trade_n = rng.randrange(100, 900)
        self._struct_n = rng.randrange(10, 90)
        self.sched: dict[int, list[tuple[str, Agent, Any]]] = {}
        self._dormancy_spans: dict[str, list[tuple[int, int]]] = {}
        self.arrivals: dict[str, tuple[int, Callable[[int], None]]] = {}
        self.quiet_ticks: set[int] = set()
        self.deaths_left = max(1, n_agents // 4)
        self.glog: dict[tuple[int, str], deque[tuple[int, Agent, int]]] = {}
        self.commons: dict[str, float] = {}
        self.pairs: dict[tuple[str, str], list[Any]] = {}   # (a, b) -> [trades, recv_a, gave_a, rep_a, rep_b]
        self.paid: dict[tuple[str, str], int] = {}          # (agent, partner) -> reputation points paid
        self.errata: list[dict[str, Any]] = []
        self._deposits = 0
        self._phantom_deposit = rng.randrange(1, 5) if rng.random() < 0.4 else -1
        self.fights: dict[tuple[str, str], int] = {}       # (attacker, target) -> attacks, raids, thefts
        self.banned_texts: set[str] = set()                 # organic chatter never says these exactly
        self.organic: dict[str, Any] = {}

        # Seats and behaviors.
        self.behaviors = plan_behaviors(scenario, rng, feeder_mode=feeder_mode)
        n_probes = sum(b.probe_seats for b in self.behaviors)
        self.agents: list[Agent] = make_agents(rng, n_agents, n_probes, anchor=rng.random() < 0.5)
        self.by_id = {a.id: a for a in self.agents}
        self.players = [a for a in self.agents if a.role != "probe"]
        self.probe_seats = [a for a in self.agents if a.role == "probe"]
        self.free = [a for a in self.players if a.role == "player"]
        rng.shuffle(self.free)
        self._names = [a.name for a in self.players]
        self._others = {a.id: [b.name for b in self.players if b is not a] for a in self.agents}
        self._base_traits()
        for b in self.behaviors:
            b.bind(self)
        self._organic_setup()
        self._noise_setup()

    # ------------------------------------------------------------------ setup

    def take_free(self, k: int) -> list[Agent]:
        """Up to ``k`` players not yet given a planted or organic part."""
        got = self.free[:k]
        del self.free[:k]
        return got

    def _base_traits(self) -> None:
        rng = self.rng
        for a in self.agents:
            a.skill = 0.8 + 0.5 * rng.random()
            a.trade_rate = 0.04 + 0.08 * rng.random()
            a.talk_rate = 0.1 + 0.22 * rng.random()
            a.naive = 0.4 + 0.4 * rng.random() if rng.random() < 0.3 else 0.04 + 0.2 * rng.random()
            a.fair = 0.8 + 0.15 * rng.random()
            a.hostile = 0.01 * rng.random() if rng.random() < 0.4 else 0.0
            a.joined = 0
            if a.role == "probe":
                a.trade_rate = 0.0
                a.talk_rate = 0.0
                a.naive = 0.0
                a.llm = False
            elif a.role == "anchor":
                a.llm = False
                a.naive = 0.0

    def _organic_setup(self) -> None:
        """Organic parts (strong player, steady traders, rivals, neighbours, lopsided traders), homes,
        trade partners, first projects, a late joiner, dormancy and the odd natural death, in this order
        (the order of the draws is part of a seed's bytes)."""
        planted_ids = {a.id for b in self.behaviors for a in b.members()}
        organic_pool = [a for a in self.players if a.id not in planted_ids]
        self._plant_strong(organic_pool)
        self._plant_frequent()
        rivals = self._plant_rivals(organic_pool)
        self._plant_neighbours()
        self._plant_lopsided(organic_pool)
        rng = self.rng
        for a in self.agents:  # homes for everyone else
            if a.home < 0:
                a.home = rng.randrange(self.map.size)
            a.pos = a.home
        for a in self.players:  # everyone sells to the strong player; steady traders favour each other
            self._set_favour(a)
        for a in self.players:  # first projects
            if not a.need or a.need == {"wood": 6}:
                self.set_project(a, "shelter" if rng.random() < 0.7 else rng.choice(_PROJECTS))
            if "strong" in a.tags:
                self.set_project(a, "tools")
        self._plant_late_joiner(organic_pool, rivals)
        self._plant_dormancy()
        self._plant_death(organic_pool)

    def _plant_strong(self, organic_pool: list[Agent]) -> None:
        """A strong player many sell to (fair prices)."""
        spare = [a for a in organic_pool if a.role == "player" and not a.tags]
        strong = (self.take_free(1) or spare[:1] or [a for a in self.players if a.role == "player"][:1])
        if strong:
            s = strong[0]
            s.skill = 2.0 + 0.5 * self.rng.random()
            s.fair = 0.9
            s.trade_rate = max(s.trade_rate, 0.08)
            self.organic["strong"] = s
            s.tags.append("strong")

    def _plant_frequent(self) -> None:
        """Two steady honest traders."""
        pair = self.take_free(2)
        if len(pair) == 2:
            for a in pair:
                a.trade_rate = 0.16 + 0.06 * self.rng.random()
                a.tags.append("frequent")
            self.organic["frequent"] = pair

    def _plant_rivals(self, organic_pool: list[Agent]) -> list[tuple[Agent, Agent]]:
        """One or two pairs of rivals who fight each other both ways and live close enough to meet;
        steady trading partners are not also rivals."""
        rng = self.rng
        candidates = [a for a in organic_pool if a.role != "probe" and "strong" not in a.tags]
        rng.shuffle(candidates)
        rivals: list[tuple[Agent, Agent]] = []
        want_pairs = 2 if rng.random() < 0.5 else 1
        while len(candidates) >= 2 and len(rivals) < want_pairs:
            x = candidates.pop(0)
            y = next((c for c in candidates if not ("frequent" in x.tags and "frequent" in c.tags)), None)
            if y is None:
                break
            candidates.remove(y)
            rivals.append((x, y))
        for x, y in rivals:
            p = 0.25 + 0.2 * rng.random()
            x.rivals.append(y)
            y.rivals.append(x)
            x.rival_p = max(x.rival_p, p)
            y.rival_p = max(y.rival_p, p * (0.6 + 0.6 * rng.random()))
            if x.home < 0:
                x.home = rng.randrange(self.map.size)
            if y.home < 0:
                y.home = self._near(x.home, 1)
        self.organic["rivals"] = rivals
        return rivals

    def _plant_neighbours(self) -> None:
        """Two neighbours who happen to share a home region."""
        hood = self.take_free(2)
        if len(hood) == 2:
            h = hood[0].home if hood[0].home >= 0 else self.rng.randrange(self.map.size)
            hood[0].home = hood[1].home = h
            self.organic["neighbours"] = hood

    def _plant_lopsided(self, organic_pool: list[Agent]) -> None:
        """Lopsided-but-fair traders (many cheap units for one dear one), from a tick drawn early on."""
        lop = self.take_free(2) or []
        if len(lop) < 2:
            lop = [a for a in organic_pool if a.role == "player"][-2:]
        if len(lop) == 2 and lop[0] is not lop[1]:
            self.organic["lopsided"] = lop
            due = self.rng.randrange(20, max(25, self.planned // 3))
            self.add_task(lop[0], due, self._lopsided_task(lop[0], lop[1]))

    def _plant_late_joiner(self, organic_pool: list[Agent], rivals: list[tuple[Agent, Agent]]) -> None:
        """Now and then a player (not the strong one, not a rival) joins late; never on a tick the match
        does not reach (a match of one or two rounds), where the seat would never join: the truth would
        name a player the log never registers."""
        rng = self.rng
        late_pool = [a for a in organic_pool if a.role == "player" and "strong" not in a.tags
                     and not any(a in p for p in rivals)]
        if late_pool and rng.random() < 0.4:
            j = late_pool[-1]
            joined = rng.randrange(max(2, self.planned // 12), max(3, self.planned // 4))
            if joined < self.planned:
                j.joined = joined
                self.schedule(j.joined, "join", j)
                self.organic["late"] = j

    def _plant_dormancy(self) -> None:
        """Up to two dormancy episodes of 4 to 30 ticks; one starting late may never end."""
        rng = self.rng
        for episode in range(2):
            if rng.random() < (0.55 if episode == 0 else 0.25):
                a = self.players[int(rng.random() * len(self.players))]
                start = rng.randrange(max(1, self.planned // 10), max(2, self.planned - 5))
                length = rng.randrange(4, 31)
                end = None if (start > 0.75 * self.planned and rng.random() < 0.3) else start + length
                self.schedule_dormancy(a, start, end)

    def _plant_death(self, organic_pool: list[Agent]) -> None:
        """A natural death now and then (never the strong player's, never a late joiner's)."""
        rng = self.rng
        if rng.random() < 0.2 and organic_pool:
            a = organic_pool[int(rng.random() * len(organic_pool))]
            if "strong" not in a.tags and a.joined == 0:
                self.schedule(rng.randrange(self.planned // 3, max(self.planned // 3 + 1, self.planned - 10)),
                              "death", a, rng.choice(("starvation", "exposure")))

    def _near(self, region: int, radius: int) -> int:
        x, y = self.map.xy[region]
        x = min(self.map.width - 1, max(0, x + self.rng.randint(-radius, radius)))
        y = min(self.map.height - 1, max(0, y + self.rng.randint(-radius, radius)))
        return y * self.map.width + x

    def near(self, region: int, radius: int) -> int:
        """A region within ``radius`` moves of ``region``."""
        return self._near(region, radius)

    def _set_favour(self, a: Agent, weights: dict[str, float] | None = None) -> None:
        org = self.organic
        strong = org.get("strong")
        freq = org.get("frequent", [])
        extra = weights or {}
        cum: list[tuple[Agent, float]] = []
        total = 0.0
        for b in self.players:
            if b is a:
                continue
            w = 1.0
            if b is strong:
                w = 4.0
            if a in freq and b in freq:
                w = 7.0
            w *= extra.get(b.id, 1.0)
            if w <= 0:
                continue
            total += w
            cum.append((b, total))
        a.favour = cum

    def favour(self, a: Agent, weights: dict[str, float]) -> None:
        """Reweight ``a``'s choice of trading partners (``weights`` multiplies by agent id)."""
        self._set_favour(a, weights)

    def set_project(self, a: Agent, project: str) -> None:
        """Give ``a`` a new goal: a structure, a stock of crafted goods, or a hoard of one resource."""
        a.project = project
        if project in STRUCTURES:
            a.need = dict(STRUCTURES[project][0])
        elif project == "tools":
            a.need = {"tool": a.carried.get("tool", 0) + 2}
        elif project == "planks":
            a.need = {"plank": a.carried.get("plank", 0) + 4}
        elif project == "cloth":
            a.need = {"cloth": a.carried.get("cloth", 0) + 2}
        else:
            res = RESOURCES[int(self.rng.random() * len(RESOURCES))]
            a.need = {res: a.carried.get(res, 0) + 8}
        self._update_want(a)

    def _update_want(self, a: Agent) -> None:
        inv = a.carried
        raw: dict[str, int] = {}
        planks_needed = 0
        for item, n in a.need.items():
            missing = n - inv.get(item, 0)
            if missing <= 0:
                continue
            if item == "tool":
                planks_needed += missing
                raw["ore"] = raw.get("ore", 0) + missing
            elif item == "plank":
                planks_needed += missing
            elif item == "cloth":
                raw["fiber"] = raw.get("fiber", 0) + 3 * missing
            else:
                raw[item] = raw.get(item, 0) + missing
        if planks_needed:
            short = planks_needed - (inv.get("plank", 0) if "plank" not in a.need else 0)
            if short > 0:
                raw["wood"] = raw.get("wood", 0) + 2 * short
        best, best_n = "", 0
        for k, n in raw.items():
            n -= inv.get(k, 0) if k not in a.need else 0
            if n > best_n:
                best, best_n = k, n
        if best:
            a.want = best
        elif a.want not in RESOURCES or self.rng.random() < 0.3:
            a.want = RESOURCES[int(self.rng.random() * len(RESOURCES))]

    def set_want(self, a: Agent, item: str) -> None:
        """Make ``a`` go after the raw resource behind ``item`` (planks need wood, tools ore, cloth fiber)."""
        a.want = _RAW.get(item, item)

    def _next_project(self, a: Agent) -> None:
        rng = self.rng
        kinds = {s.kind for s in a.structures}
        if "strong" in a.tags:
            self.set_project(a, "storehouse" if "storehouse" not in kinds and rng.random() < 0.3 else "tools")
        elif "shelter" not in kinds and rng.random() < 0.7:
            self.set_project(a, "shelter")
        elif "storehouse" not in kinds and rng.random() < 0.5:
            self.set_project(a, "storehouse")
        elif "workshop" not in kinds and rng.random() < 0.12:
            self.set_project(a, "workshop")
        elif "market" not in kinds and rng.random() < 0.04:
            self.set_project(a, "market")
        else:
            self.set_project(a, _PROJECTS[int(rng.random() * len(_PROJECTS))])

    # -------------------------------------------------------------- scheduling

    def schedule(self, tick: int, kind: str, agent: Agent, data: Any = None) -> None:
        """A world event for phase 0 of ``tick``: ``join``, ``sleep``, ``wake`` or ``death``."""
        self.sched.setdefault(tick, []).append((kind, agent, data))

    def schedule_dormancy(self, a: Agent, start: int, end: int | None, reason: str | None = None) -> bool:
        """``a`` goes dormant at ``start`` and wakes at ``end`` (never, when None).  False if that
        would overlap a dormancy already planned for ``a``."""
        mine = self._dormancy_spans.setdefault(a.id, [])
        stop = end if end is not None else 1 << 40
        for s, e in mine:
            if start <= e + 2 and s <= stop + 2:
                return False
        mine.append((start, stop))
        self.schedule(start, "sleep", a, reason or self.rng.choice(_DORMANT_REASONS))
        if end is not None:
            self.schedule(end, "wake", a)
        return True

    def is_dormant_at(self, a: Agent, tick: int) -> bool:
        """Whether a planned dormancy of ``a`` covers ``tick``."""
        return any(s <= tick < e for s, e in self._dormancy_spans.get(a.id, []))

    def add_task(self, a: Agent, due: int, fn: Callable[[int], bool]) -> None:
        """Run ``fn(tick)`` as ``a``'s turn at ``due`` or the first turn after; it returns whether it
        used the turn.  An agent with a task due holds its position that tick, unless it is
        walking to a ``force_goal``."""
        self._seq += 1
        bisect.insort(a.tasks, (due, self._seq, fn))

    # ---------------------------------------------------------------- emission

    def emit(self, typ: str, agent: Agent | None, payload: dict[str, Any], act: bool = True) -> int:
        """Log one v3 event and return its id.  ``act``: the agent's own action (gets ``latencyMs``)."""
        nid = self._next_id
        self._next_id = nid + 1
        ms = self._ms + self._step
        if ms > self._ms_cap:
            ms = self._ms_cap
        self._ms = ms
        if agent is None:
            ev: dict[str, Any] = {
                "id": nid, "matchId": self.match_id, "schemaVersion": 3, "tick": self.tick, "type": typ,
                "agentId": None, "createdAtMs": ms, "private": False, "payload": payload,
            }
        else:
            ev = {
                "id": nid, "matchId": self.match_id, "schemaVersion": 3, "tick": self.tick, "type": typ,
                "agentId": agent.id, "createdAtMs": ms, "private": typ == "message_private", "payload": payload,
            }
            m = agent.metrics
            m[typ] = m.get(typ, 0) + 1
            if act:
                if agent.last_ms:
                    ev["latencyMs"] = ms - agent.last_ms
                agent.last_ms = ms
        self.buf.append(ev)
        self.n_events += 1
        return nid

    # -------------------------------------------------------------------- run

    def run(self) -> Iterator[dict[str, Any]]:
        """Play the match, yielding its v3 events in log order; afterwards :attr:`archive` is set."""
        self._start()
        buf = self.buf
        self.buf = []
        yield from buf
        t = 0
        target = self.target
        while (t < self.planned) if target is None else (self.n_events < target):
            self._tick(t)
            buf = self.buf
            self.buf = []
            yield from buf
            t += 1
        self.ended = t
        self._finish()

    def config(self) -> dict[str, Any]:
        """The v3 match config (archive ``config`` and manifest ``config``)."""
        return {
            "engine_version": ENGINE_VERSIONS[3], "event_schema_version": 3,
            "map": {"width": self.map.width, "height": self.map.height},
            "season_ticks": self.planned, "item_values": dict(ITEM_VALUES), "ranked": True,
            "scenario": dict(GAME_SCENARIO),
        }

    def roster(self) -> list[dict[str, Any]]:
        """The manifest roster, in seat order (a late joiner's seat included)."""
        out = []
        for a in self.agents:
            entry: dict[str, Any] = {"agentId": a.id, "seat": a.seat, "name": a.name, "role": a.role,
                                     "model": a.model, "operator": a.operator}
            if a.role == "probe":
                entry["probe"] = {"catalogueVersion": 1}
            out.append(entry)
        return out

    def _start(self) -> None:
        self.tick = 0
        self.emit("match_manifest", None, {
            "seed": self.world_seed, "engineVersion": ENGINE_VERSIONS[3], "eventSchemaVersion": 3,
            "config": self.config(), "roster": self.roster(), "scenario": dict(GAME_SCENARIO),
        }, act=False)
        starters = [a for a in self.agents if a.joined == 0]
        for a in starters:
            self.emit("agent_registered", a, {"name": a.name, "role": a.role, "model": a.model,
                                              "operator": a.operator}, act=False)
        for a in starters:
            self.emit("agent_spawned", a, {"region": self.map.names[a.pos]}, act=False)
            self._place(a, a.pos)

    def _place(self, a: Agent, region: int) -> None:
        a.alive = True
        a.pos = region
        a.visited.add(region)
        self.occ[region][a.id] = a

    def _tick(self, t: int) -> None:
        self.tick = t
        rand = self._rand
        base = self.base_ms + t * 60_000
        if self._ms < base:
            self._ms = base + int(rand() * 400)
        self._ms_cap = base + 59_999
        self._step = 1 + int(rand() * self._ms_step)
        if rand() < 0.25:  # other matches' events and server-side records interleave in the table
            self._next_id += 1 + int(rand() * 4)
        self._world_phase(t)
        for b in self.behaviors:
            b.before_tick(t)
        rand = self.rng.random
        order = [a for a in self.agents if a.alive and not a.dormant]
        order.sort(key=lambda _a: rand())
        moved = [a for a in order if self._phase_move(a, t)]
        moved_ids = {a.index for a in moved}
        for a in order:
            if a.alive and not a.dormant:
                self._turn(a, t, a.index in moved_ids)
        for b in self.behaviors:
            b.after_tick(t)
        if t % 25 == 0:
            self._snapshots()

    def _world_phase(self, t: int) -> None:
        todo = self.sched.pop(t, None)
        if todo:
            for kind, a, data in todo:
                if kind == "join" and not a.alive and a.died is None:
                    region = a.home
                    self.emit("agent_registered", a, {"name": a.name, "role": a.role, "model": a.model,
                                                      "operator": a.operator, "region": self.map.names[region]},
                              act=False)
                    a.joined = t
                    self._place(a, region)
                elif kind == "sleep" and a.alive and not a.dormant:
                    self.emit("agent_dormant", a, {"reason": data}, act=False)
                    a.dormant = True
                elif kind == "wake" and a.alive and a.dormant:
                    self.emit("agent_awake", a, {}, act=False)
                    a.dormant = False
                elif kind == "death" and a.alive:
                    self.kill(a, data)
        heap = self.crumble_heap
        while heap and heap[0][0] <= t:
            due, _, s = heapq.heappop(heap)
            if s.owner.structures and s in s.owner.structures and s.since + s.hp == due:
                self.emit("structure_crumbled", s.owner, {"structureId": s.sid}, act=False)
                s.owner.structures.remove(s)
                if s.owner.storehouse is s:
                    s.owner.storehouse = None
                s.stock = {}

    # ----------------------------------------------------------------- moving

    def _phase_move(self, a: Agent, t: int) -> bool:
        m = self.map
        fg = a.force_goal
        if fg < 0 and a.tasks and a.tasks[0][0] <= t:
            return False
        if fg >= 0:
            if a.pos == fg:
                a.force_goal = -1
                return False
            nxt = m.step_toward(a.pos, fg)
            if a.avoid and t <= a.avoid.get(nxt, -1):
                # never into a region a probe asked this agent to go to (it did not comply)
                options = [n for n in m.neighbours[a.pos] if t > a.avoid.get(n, -1)]
                if not options:
                    return False  # every way out leads into such a region: it waits
                nxt = min(options, key=lambda n: (m.dist(n, fg), n))
            self._move(a, nxt)
            return True
        if a.role == "probe" or a.energy < 20 or a.incoming:
            return False
        rng = self.rng
        rand = rng.random
        f = a.follow
        if f is not None and f.alive and f.pos != a.pos and rand() < 0.75:
            nxt = m.step_toward(a.pos, f.pos)
        else:
            g = a.goal
            if g == a.pos:
                a.goal = g = -1
            if a.rivals and rand() < 0.05:
                r = a.rivals[int(rand() * len(a.rivals))]
                if r.alive and r.pos != a.pos:
                    a.goal = g = r.pos
            elif g < 0 and a.structures and rand() < 0.05:
                s = a.structures[int(rand() * len(a.structures))]
                if s.region != a.pos and (s.hp_at(t) < 80 or (s is a.storehouse and len(a.carried) > 3)):
                    a.goal = g = s.region
            if g < 0:
                if m.pools[a.pos].get(a.want) or m.available(a.pos, a.want, t) > 0:
                    if rand() >= 0.03:
                        return False
                    nb = m.neighbours[a.pos]
                    nxt = nb[int(rand() * len(nb))]
                else:
                    g = m.near_region_with(rng, a.home if rand() < 0.5 else a.pos, a.want, t)
                    if g < 0:
                        g = self._near(a.home, 3)
                    a.goal = g
                    if g == a.pos:
                        return False
                    nxt = m.step_toward(a.pos, g)
            else:
                if rand() >= 0.85:
                    return False
                nxt = m.step_toward(a.pos, g)
        if a.avoid and t <= a.avoid.get(nxt, -1):
            options = [n for n in m.neighbours[a.pos] if t > a.avoid.get(n, -1)]
            if not options:
                return False
            nxt = options[int(rand() * len(options))]
        if nxt == a.pos:
            return False
        if rand() < 0.006:
            self.emit("action_rejected", a, {"tool": "move", "code": "invalid_args",
                                             "detail": f"{m.names[nxt]} is not adjacent"})
            return True
        self._move(a, nxt)
        return True

    def _move(self, a: Agent, to: int) -> int:
        names = self.map.names
        eid = self.emit("move", a, {"from": names[a.pos], "to": names[to]})
        del self.occ[a.pos][a.id]
        self.occ[to][a.id] = a
        a.pos = to
        a.visited.add(to)
        a.energy -= 2
        if self.arrivals:
            hook = self.arrivals.get(a.id)
            if hook is not None and hook[0] == to:
                del self.arrivals[a.id]
                hook[1](eid)
        return eid

    # ------------------------------------------------------------------ turns

    def _turn(self, a: Agent, t: int, moved: bool) -> None:
        o = a.outgoing
        if o is not None and t >= o.expires:
            self.cancel(o)
        if moved:
            self._after_turn(a, t)
            return
        if a.tasks and a.tasks[0][0] <= t:
            _, _, fn = a.tasks.pop(0)
            if fn(t):
                self._after_turn(a, t)
                return
            if not (a.alive and not a.dormant):
                return
        if a.role == "probe":
            self._probe_turn(a, t)
            return
        rng = self.rng
        r = rng.random()
        if r < 0.004 and a.llm:
            self.emit("turn_forfeited", a, {"reason": "timeout"}, act=False)
            return
        if r < 0.028:
            self._reject(a)
            self._after_turn(a, t)
            return
        if a.incoming and self._respond(a, t):
            self._after_turn(a, t)
            return
        if a.energy < 25 or a.hp < 35:
            self._rest(a)
        elif not ((a.rival_p or a.hostile) and self._maybe_fight(a, t)):
            self._organic_action(a, t)
        self._after_turn(a, t)

    def _after_turn(self, a: Agent, t: int) -> None:
        rand = self._rand
        if rand() < a.talk_rate and a.alive:
            self._talk(a, t)
        if a.llm:
            # the metering gateway logs one usage record per model turn (rubric-neutral telemetry)
            r = rand()
            self.emit("inference_usage", a, {
                "gen_ai.request.model": a.model["model"],
                "gen_ai.usage.input_tokens": 1500 + int(r * 9001) + a.seat * 37,
                "gen_ai.usage.output_tokens": 60 + int(r * 7919) % 900,
            }, act=False)
        if a.hp < 100:
            a.hp += 1

    def _probe_turn(self, a: Agent, t: int) -> None:
        if a.incoming:
            for o in list(a.incoming):
                if o.frm.alive and o.frm.outgoing is o and not o.receive:
                    self.accept(a, o)
                    return
            a.incoming.clear()
        r = self.rng.random()
        if r < 0.15:
            self.emit("look", a, {"target": self.map.names[a.pos]})
        elif r < 0.25:
            self._rest(a)

    def _reject(self, a: Agent) -> None:
        rng = self.rng
        total = sum(w for _, w in _REJECT_CODES)
        x = rng.random() * total
        code = _REJECT_CODES[-1][0]
        for c, w in _REJECT_CODES:
            x -= w
            if x < 0:
                code = c
                break
        tool = _REJECT_TOOLS[int(rng.random() * len(_REJECT_TOOLS))]
        if code == "unknown_tool":
            tool = _UNKNOWN_TOOLS[int(rng.random() * len(_UNKNOWN_TOOLS))]
            detail = f"no tool named {tool}"
        elif code == "invalid_args":
            detail = rng.choice(("quantity must be a positive integer", "unknown item 'iron'",
                                 "missing argument: region", "give and receive must not both be empty"))
        elif code == "not_here":
            detail = rng.choice(("nothing to gather here", "target is not in this region",
                                 "no structure of yours here"))
        elif code == "insufficient_energy":
            detail = f"needs 10 energy, has {max(0, a.energy)}"
        elif code == "rate_limited":
            detail = "1 action per 2 s"
        else:
            detail = "that structure belongs to another agent"
        self.emit("action_rejected", a, {"tool": tool, "code": code, "detail": detail})

    def _rest(self, a: Agent) -> None:
        self.emit("rest", a, {})
        a.energy = min(100, a.energy + 18 + 4 * a.trained["endurance"])
        a.hp = min(100, a.hp + 10 + 3 * a.trained["vitality"])

    def _organic_action(self, a: Agent, t: int) -> None:
        """One turn of ordinary play: gather, craft, build, repair, store, trade, train, look or rest,
        each weighted by what makes sense where the agent stands (:meth:`_organic_choices`); one draw
        picks among them in proportion to their weights."""
        if self.noise and self._noise_turn(a, t):
            return
        choices = self._organic_choices(a, t)
        total = 0.0
        for weight, _ in choices:
            total += weight
        x = self._rand() * total
        for weight, act in choices[:-1]:
            if x < weight:
                act()
                return
            x -= weight
        choices[-1][1]()

    def _organic_choices(self, a: Agent, t: int) -> list[tuple[float, Callable[[], object]]]:
        """The weighted actions of one ordinary turn, in the order the draw reads them; resting, last,
        takes whatever the others leave."""
        m = self.map
        pos = a.pos
        inv = a.carried
        pool = m.pools[pos]
        other = ""
        if pool.get(a.want) or m.available(pos, a.want, t) > 0:
            w_gather = 5.0
        else:
            w_gather = 0.0
            for res in pool:
                if m.available(pos, res, t) > 0:
                    w_gather, other = 1.5, res
                    break
        craft = self._craftable(a)
        fix = next((s for s in a.structures if s.region == pos and s.hp_at(t) < 75), None) if a.structures else None
        sh = a.storehouse
        w_deposit = w_withdraw = 0.0
        if sh is not None and sh.region == pos:
            if len(inv) > 2:
                w_deposit = 2.5
            if sh.stock and any(k in sh.stock for k in a.need):
                w_withdraw = 1.0
        trading = bool(inv) and a.outgoing is None
        return [
            (w_gather, lambda: self._gather(a, other or a.want, t)),
            (3.0 if craft is not None else 0.0, lambda: self._craft(a, craft[0], craft[1]) if craft else None),
            (9.0 if a.project in STRUCTURES and has_items(inv, a.need) else 0.0, lambda: self._build_next(a)),
            (3.0 if fix is not None else 0.0, lambda: self.repair(a, fix) if fix is not None else None),
            (w_deposit, lambda: self._deposit_spare(a)),
            (w_withdraw, lambda: self._withdraw_needed(a)),
            (a.trade_rate * 12 if trading else 0.0, lambda: self._or_gather(self._organic_trade(a, t), a, t)),
            (0.08 if trading else 0.0, lambda: self._or_gather(self._post_market(a, t), a, t)),
            (0.25 if self.market and inv else 0.0, lambda: self._or_gather(self._fill_market(a), a, t)),
            (0.3 if a.energy > 60 else 0.0, lambda: self._train(a)),
            (0.3, lambda: self._look(a)),
            (0.35 if a.energy >= 50 else 0.85, lambda: self._rest(a)),
        ]

    def _or_gather(self, done: bool, a: Agent, t: int) -> None:
        """When the chosen action could not be done, gather or look instead."""
        if not done:
            self._gather_or_look(a, t)

    def _build_next(self, a: Agent) -> None:
        """Build the project the agent has gathered for, then choose the next one."""
        self.build(a, a.project)
        self._next_project(a)

    def _deposit_spare(self, a: Agent) -> None:
        """Store up to three kinds of what the agent carries, what it does not need first."""
        keep = a.need
        items = {k: n for k, n in a.carried.items() if k not in keep} or dict(a.carried)
        self.deposit(a, dict(list(items.items())[:3]))

    def _withdraw_needed(self, a: Agent) -> None:
        """Take out of the storehouse what the agent's project needs."""
        sh = a.storehouse
        assert sh is not None
        self.withdraw(a, {k: sh.stock[k] for k in a.need if k in sh.stock})

    def _train(self, a: Agent) -> None:
        """Train one attribute drawn at random, up to level 5; past it, rest instead."""
        attr = ("strength", "vitality", "endurance")[int(self.rng.random() * 3)]
        if a.trained[attr] < 5:
            a.trained[attr] += 1
            a.energy -= 12
            self.emit("train", a, {"attribute": attr, "level": a.trained[attr]})
        else:
            self._rest(a)

    def _look(self, a: Agent) -> None:
        """Look at someone standing here (half the time, when there is anyone) or at the region."""
        here = [o for o in self.occ[a.pos].values() if o is not a]
        rng = self.rng
        target = here[int(rng.random() * len(here))].id if here and rng.random() < 0.5 else self.map.names[a.pos]
        self.emit("look", a, {"target": target})
        a.energy -= 1

    def _gather_or_look(self, a: Agent, t: int) -> None:
        m = self.map
        for res in m.pools[a.pos]:
            if m.available(a.pos, res, t) > 0:
                self._gather(a, res, t)
                return
        self.emit("look", a, {"target": m.names[a.pos]})

    # -------------------------------------------------------------- snapshots

    def _snapshots(self) -> None:
        for a in self.agents:
            if a.alive:
                inv = a.owned()
                self.emit("agent_snapshot", a, {
                    "region": self.map.names[a.pos], "energy": max(0, a.energy),
                    "wealth": half_up(value_of(inv), 2),
                    "inventoryHash": hashlib.sha256(orjson.dumps(inv, option=_SORT)).hexdigest()[:16],
                }, act=False)

    # ----------------------------------------------------------------- ending

    def _finish(self) -> None:
        ended = self.ended
        agents_out = []
        for a in self.agents:
            if a.joined < 0 or (a.joined > 0 and not a.visited):
                continue  # a late joiner the match ended before
            inv = {k: n for k, n in sorted(a.owned().items()) if n > 0}
            status = "dead" if a.died is not None else ("dormant" if a.dormant else "active")
            agents_out.append({
                "agentId": a.id, "seat": a.seat, "name": a.name, "role": a.role, "model": a.model,
                "operator": a.operator, "status": status,
                "roundsAlive": (a.died if a.died is not None else ended) - a.joined,
                "diedAtTick": a.died, "wealth": half_up(value_of(inv), 2), "reputation": a.reputation,
                "aggression": a.aggression, "inventory": inv, "trained": dict(a.trained),
            })
        pairs = []
        for (lo, hi), (trades, recv, gave, rep_lo, rep_hi) in sorted(self.pairs.items()):
            num = sum(abs(recv.get(k, 0) - gave.get(k, 0)) * ITEM_VALUES[k] for k in set(recv) | set(gave))
            den = sum((recv.get(k, 0) + gave.get(k, 0)) * ITEM_VALUES[k] for k in set(recv) | set(gave))
            pairs.append({"a": lo, "b": hi, "trades": trades, "netShare": half_up(num / den, 3) if den else 0.0,
                          "rep": {lo: rep_lo, hi: rep_hi}})
        size = self.map.size
        spawned = [a for a in self.agents if a.visited]
        self.archive: dict[str, Any] = {
            "matchId": self.match_id, "startedAtTick": 0, "endedAtTick": ended,
            "startedAtMs": self.base_ms, "endedAtMs": self.base_ms + ended * 60_000,
            "config": self.config(),
            "agents": agents_out,
            "metrics": {a.id: dict(sorted(a.metrics.items())) for a in sorted(self.agents, key=lambda x: x.id)
                        if a.metrics},
            "ledger": {"pairs": pairs,
                       "commons": {k: half_up(v, 3) for k, v in sorted(self.commons.items())}},
            "exploration": {a.id: {"regions": len(a.visited), "coverage": coverage(len(a.visited), size)}
                            for a in sorted(spawned, key=lambda x: x.id)},
            "errata": list(self.errata),
        }
