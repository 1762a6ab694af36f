"""The simulated world: map, resources, recipes, agents and the roster.

Everything here is plain state; the tick loop lives in :mod:`.engine`.  Nothing
reads the wall clock or the global :mod:`random` state: every draw comes from the
one seeded :class:`random.Random` the engine hands in, and no set of strings is
ever iterated (their order changes with ``PYTHONHASHSEED``).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

__all__ = [
    "ITEM_VALUES",
    "V1_ITEM_VALUES",
    "RESOURCES",
    "RECIPES",
    "STRUCTURES",
    "GameMap",
    "Agent",
    "Structure",
    "Offer",
    "derive_int",
    "match_id_for",
    "written_id",
    "value_of",
    "add_items",
    "take_items",
    "has_items",
]

ITEM_VALUES: dict[str, int] = {
    "wood": 2, "stone": 3, "ore": 5, "food": 2, "fiber": 1, "plank": 5, "tool": 12, "cloth": 6,
}
"""Reference item values (contract section 4)."""

V1_ITEM_VALUES: dict[str, int] = {**ITEM_VALUES, "ore": 8}
"""Engine 0.1.0 values ore at 8 (archives of v1 matches carry no ``item_values``)."""

RESOURCES: tuple[str, ...] = ("wood", "stone", "ore", "food", "fiber")
"""Gatherable resources."""

RECIPES: dict[str, dict[str, int]] = {
    "plank": {"wood": 2},
    "tool": {"plank": 1, "ore": 1},
    "cloth": {"fiber": 3},
}
"""Inputs of one unit of each craftable item."""

STRUCTURES: dict[str, tuple[dict[str, int], int]] = {
    "shelter": ({"wood": 6}, 100),
    "storehouse": ({"plank": 3, "stone": 4}, 120),
    "workshop": ({"plank": 3, "stone": 2, "ore": 2}, 120),
    "market": ({"plank": 4, "stone": 6, "tool": 1}, 120),
}
"""Cost and full hp of each structure (seed 000, *Structures*)."""

_RESOURCE_WEIGHTS = (("wood", 30), ("stone", 20), ("ore", 14), ("food", 22), ("fiber", 14))


def derive_int(*parts: object) -> int:
    """A 64-bit integer from ``parts`` (SHA-256; stable across processes and platforms)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def match_id_for(scenario: str, seed: int, *params: Any) -> str:
    """``m_`` and 12 hex digits, derived from the scenario, the seed and every other parameter of
    the simulation (seats, rounds, target events, map size...), so two different simulated
    matches never share an id (a Parquet partition or a season result is keyed by it).

    >>> match_id_for("clean", 1, 8, 300) != match_id_for("clean", 1, 12, 300)
    True
    """
    key = ":".join(["daishi-sim", scenario, str(seed), *map(repr, params)])
    return "m_" + hashlib.sha256(key.encode()).hexdigest()[:12]


def written_id(played_id: str, schema_version: int, previous_season: bool = False) -> str:
    """The id of a match as written: the played match's id ``played_id`` for a v3 log without an
    earlier season (the default, so those ids never change), else ``m_`` and 12 hex digits derived
    from it, the schema version and the earlier season, so a v1, a v2 and a v1 with a previous
    season of one play are three matches with three ids.

    >>> written_id("m_146455db8a78", 3)
    'm_146455db8a78'
    >>> len({written_id("m_146455db8a78", v, p) for v, p in ((3, False), (2, False), (1, False), (1, True))})
    4
    """
    if schema_version == 3 and not previous_season:
        return played_id
    key = ":".join(["daishi-sim-written", played_id, f"v{schema_version}"] + (["previous-season"] if previous_season
                                                                                else []))
    return "m_" + hashlib.sha256(key.encode()).hexdigest()[:12]


def value_of(items: dict[str, int], values: dict[str, int] = ITEM_VALUES) -> int:
    """Reference value of an item map."""
    return sum(values[k] * n for k, n in items.items())


def add_items(inv: dict[str, int], items: dict[str, int]) -> None:
    """Put ``items`` into ``inv``."""
    for k, n in items.items():
        inv[k] = inv.get(k, 0) + n


def take_items(inv: dict[str, int], items: dict[str, int]) -> None:
    """Take ``items`` out of ``inv`` (the caller checked :func:`has_items`); empty stocks are removed."""
    for k, n in items.items():
        left = inv[k] - n
        if left:
            inv[k] = left
        else:
            del inv[k]


def has_items(inv: dict[str, int], items: dict[str, int]) -> bool:
    """Whether ``inv`` holds at least ``items``."""
    for k, n in items.items():  # noqa: SIM110 (a plain loop is the fastest here)
        if inv.get(k, 0) < n:
            return False
    return True


class GameMap:
    """A width x height grid of regions ``r_<x>_<y>``, each with resource pools.

    Regions are indexed ``y * width + x``.  A move goes to one of the up to 8
    neighbours.  Pools are drawn down by gathering; an emptied pool collapses and
    grows back to its cap some ticks later (no event marks the regrowth).
    """

    def __init__(self, width: int, height: int, rng: random.Random) -> None:
        self.width = width
        self.height = height
        self.size = width * height
        self.names: list[str] = [f"r_{i % width}_{i // width}" for i in range(self.size)]
        self.xy: list[tuple[int, int]] = [(i % width, i // width) for i in range(self.size)]
        self.neighbours: list[list[int]] = []
        for i in range(self.size):
            x, y = self.xy[i]
            near = []
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height:
                        near.append((y + dy) * width + x + dx)
            self.neighbours.append(near)
        # Resource pools: region -> {resource: units}, caps and regrowth ticks.
        self.pools: list[dict[str, int]] = []
        self.caps: list[dict[str, int]] = []
        self.regrow_at: dict[tuple[int, str], int] = {}
        self.regions_with: dict[str, list[int]] = {r: [] for r in RESOURCES}
        names = [r for r, _ in _RESOURCE_WEIGHTS]
        weights = [w for _, w in _RESOURCE_WEIGHTS]
        for i in range(self.size):
            kinds = rng.choices(names, weights, k=2 if rng.random() < 0.45 else 1)
            pool: dict[str, int] = {}
            for k in kinds:
                if k not in pool:
                    pool[k] = rng.randrange(14, 46)
            self.pools.append(pool)
            self.caps.append(dict(pool))
            for k in pool:
                self.regions_with[k].append(i)
        for r in RESOURCES:  # every resource somewhere, even on a tiny map
            if not self.regions_with[r]:
                i = rng.randrange(self.size)
                self.pools[i][r] = self.caps[i][r] = rng.randrange(14, 46)
                self.regions_with[r].append(i)

    def dist(self, a: int, b: int) -> int:
        """Moves needed from region ``a`` to region ``b`` (Chebyshev distance)."""
        ax, ay = self.xy[a]
        bx, by = self.xy[b]
        return max(abs(ax - bx), abs(ay - by))

    def step_toward(self, a: int, b: int) -> int:
        """The neighbour of ``a`` one move closer to ``b`` (``a`` itself when already there)."""
        ax, ay = self.xy[a]
        bx, by = self.xy[b]
        x = ax + (bx > ax) - (bx < ax)
        y = ay + (by > ay) - (by < ay)
        return y * self.width + x

    def available(self, region: int, resource: str, tick: int) -> int:
        """Units of ``resource`` left in ``region`` at ``tick`` (regrowing a collapsed pool when due)."""
        pool = self.pools[region]
        left = pool.get(resource)
        if left:
            return left
        if left is None:
            return 0
        if left == 0:
            due = self.regrow_at.get((region, resource))
            if due is not None and tick >= due:
                del self.regrow_at[(region, resource)]
                left = pool[resource] = self.caps[region][resource]
        return left

    def near_region_with(self, rng: random.Random, origin: int, resource: str, tick: int, radius: int = 4) -> int:
        """A region near ``origin`` holding ``resource`` (the nearest of a few sampled), or -1."""
        options = self.regions_with[resource]
        n = len(options)
        rand = rng.random
        xy = self.xy
        ox, oy = xy[origin]
        best, best_d = -1, 1 << 30
        for _ in range(5):
            r = options[int(rand() * n)]
            rx, ry = xy[r]
            d = max(abs(rx - ox), abs(ry - oy))
            if d <= radius and d < best_d and (self.pools[r][resource] or self.available(r, resource, tick) > 0):
                best, best_d = r, d
        return best


class Structure:
    """A built structure; its hp falls by 1 each round from ``hp`` set at ``since``."""

    __slots__ = ("sid", "kind", "owner", "region", "max_hp", "hp", "since", "stock")

    def __init__(self, sid: str, kind: str, owner: Agent, region: int, hp: int, tick: int) -> None:
        self.sid = sid
        self.kind = kind
        self.owner = owner
        self.region = region
        self.max_hp = hp
        self.hp = hp
        self.since = tick
        self.stock: dict[str, int] = {}

    def hp_at(self, tick: int) -> int:
        """Hit points at ``tick``."""
        return self.hp - (tick - self.since)


class Offer:
    """A pending trade offer (goods in escrow) or market order (``to`` is None)."""

    __slots__ = ("tid", "frm", "to", "give", "receive", "tick", "expires", "tag", "on_complete", "accept_p")

    def __init__(self, tid: str, frm: Agent, to: Agent | None, give: dict[str, int], receive: dict[str, int],
                 tick: int, expires: int, tag: str | None = None, accept_p: float | None = None) -> None:
        self.tid = tid
        self.frm = frm
        self.to = to
        self.give = give
        self.receive = receive
        self.tick = tick
        self.expires = expires
        self.tag = tag
        self.on_complete: Any = None
        self.accept_p = accept_p


class Agent:
    """One seat of the match and its live state."""

    __slots__ = (
        "id", "seat", "name", "role", "model", "operator", "index",
        "pos", "home", "goal", "carried", "structures", "storehouse",
        "energy", "hp", "alive", "dormant", "joined", "died", "trained",
        "skill", "trade_rate", "talk_rate", "aggr", "naive", "fair",
        "project", "want", "rivals", "no_attack", "enemies", "favour",
        "incoming", "outgoing", "tasks", "force_goal", "avoid",
        "follow", "last_ms", "visited", "metrics", "kills_allowed", "tags",
        "heard", "llm", "aggression", "reputation", "hostile", "rival_p", "need",
    )

    def __init__(self, agent_id: str, seat: int, name: str, role: str, model: dict[str, Any], operator: str,
                 index: int) -> None:
        self.id = agent_id
        self.seat = seat
        self.name = name
        self.role = role
        self.model = model
        self.operator = operator
        self.index = index
        self.pos = -1
        self.home = -1
        self.goal = -1
        self.carried: dict[str, int] = {}
        self.structures: list[Structure] = []
        self.storehouse: Structure | None = None
        self.energy = 100
        self.hp = 100
        self.alive = False
        self.dormant = False
        self.joined = -1
        self.died: int | None = None
        self.trained = {"strength": 0, "vitality": 0, "endurance": 0}
        self.skill = 1.0
        self.trade_rate = 0.08
        self.talk_rate = 0.2
        self.aggr = 0.0
        self.naive = 0.1
        self.fair = 0.85
        self.project = "shelter"
        self.want = "wood"
        self.rivals: list[Agent] = []
        self.no_attack: set[str] = set()
        self.enemies: list[Agent] = []
        self.favour: list[tuple[Agent, float]] = []
        self.incoming: list[Offer] = []
        self.outgoing: Offer | None = None
        self.tasks: list[tuple[int, int, Any]] = []
        self.force_goal = -1
        # regions a move-to probe named that this agent refused, each with the last tick it keeps out of it
        # (several at once: a second probe heard within the first one's window adds its region)
        self.avoid: dict[int, int] = {}
        self.follow: Agent | None = None
        self.last_ms = 0
        self.visited: set[int] = set()
        self.metrics: dict[str, int] = {}
        self.kills_allowed = True
        self.tags: list[str] = []
        self.heard = False
        self.llm = role == "player"
        self.aggression = 0
        self.reputation = 0
        self.hostile = 0.0
        self.rival_p = 0.0
        self.need: dict[str, int] = {"wood": 6}

    @property
    def active(self) -> bool:
        """Alive and not dormant: takes turns and hears messages."""
        return self.alive and not self.dormant

    def owned(self) -> dict[str, int]:
        """Everything the agent owns: carried goods plus its storehouses' stock."""
        inv = dict(self.carried)
        for s in self.structures:
            if s.stock:
                add_items(inv, s.stock)
        return inv
