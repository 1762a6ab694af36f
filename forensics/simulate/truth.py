"""Ground truth of a simulated match: what was planted, and what only looks suspicious.

The sidecar (``truth.json``) is for tests and benchmarks of the screens; the
match log itself never names a scenario.  Shape (``format`` ``daishi-sim-truth``,
``version`` 1)::

    {"format": "daishi-sim-truth", "version": 1, "scenario": "feeder", "seed": 7,
     "matchId": "m_…", "schemaVersion": 3, "params": {...},
     "agents": [{"agentId", "seat", "name", "role", "operator", "tags": [...]}],
     "planted": [{"kind": "feeder", "agents": [...], "beneficiary": "a_…", "events": [...], ...}],
     "plantedNeverActed": [...],   # only when a plant logged no event (a match too short for it)
     "probes": [{"probeEventId", "probe", "target", "exposed", "reason", "complied",
                 "evidence", "heardTick", "evidenceTick", ...}],
     "propagation": [{"kind": "echo", "root", "edges": [[parent, child]], "generations",
                      "messages": [...], "decoys": {"text", "events", "senders"}}],
     "honest_suspicious": [{"kind": "hub_seller" | "frequent_traders" | "rivals" |
                            "co_located" | "lopsided_fair" | "shared_operator" | "favoured_partners" |
                            "scarce_seller", "agents": [a, b], ...}],
     "errata": [event ids]}

Agent lists are sorted; a pair is ``[a, b]`` with ``a < b``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["build_truth"]


def _pair(x: str, y: str) -> list[str]:
    return [x, y] if x < y else [y, x]


def _honest_suspicious(sim: Simulation, planted: list[dict[str, Any]]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """The honest pairs a screen might take for collusion (the organic play's strong seller and its buyers, frequent
    traders, rivals, neighbours, a lopsided but fair pair, seats of one operator, a scarce good's seller and buyers,
    favoured partners), by (kind, pair); none between two seats of one plant."""
    groups = [set(p["agents"]) | set(p.get("refillers", [])) for p in planted]

    def together(x: str, y: str) -> bool:
        return any(x in g and y in g for g in groups)

    honest: dict[tuple[str, str, str], dict[str, Any]] = {}

    def add(kind: str, x: str, y: str, **extra: Any) -> None:
        if x == y or together(x, y):
            return
        pair = _pair(x, y)
        honest[(kind, pair[0], pair[1])] = {"kind": kind, "agents": pair, **extra}

    org = sim.organic
    strong = org.get("strong")
    if strong is not None:
        for a in sim.players:
            n = sim.pair_trades(a, strong)
            if a is not strong and n >= 3:
                add("hub_seller", a.id, strong.id, hub=strong.id, trades=n)
    freq = org.get("frequent")
    if freq:
        n = sim.pair_trades(freq[0], freq[1])
        if n >= 2:
            add("frequent_traders", freq[0].id, freq[1].id, trades=n)
    for (x, y), rec in sim.pairs.items():  # any other pair that simply trades a lot
        if rec[0] >= 5 and ("frequent_traders", x, y) not in honest:
            add("frequent_traders", x, y, trades=rec[0])
    rivals = [(x.id, y.id) for x, y in org.get("rivals", [])]
    rivals += [(x, y) for (x, y) in sorted(sim.fights) if x < y and (y, x) in sim.fights]
    for x, y in rivals:
        xy, yx = sim.fights.get((x, y), 0), sim.fights.get((y, x), 0)
        if xy or yx:
            add("rivals", x, y, fights={x: xy, y: yx})
    hood = org.get("neighbours")
    if hood:
        add("co_located", hood[0].id, hood[1].id, home=sim.map.names[hood[0].home])
    lop = org.get("lopsided")
    if lop and org.get("lopsided_trades"):
        add("lopsided_fair", lop[0].id, lop[1].id, tradeIds=list(org["lopsided_trades"]))
    players = [a for a in sim.players if a.role == "player"]
    for i, one in enumerate(players):
        for two in players[i + 1:]:
            if one.operator == two.operator:
                add("shared_operator", one.id, two.id, operator=one.operator)

    scarce = org.get("scarce_seller")
    if scarce:
        seller = sim.by_id[scarce["seller"]]
        for b in scarce["buyers"]:
            n = sim.pair_trades(sim.by_id[b], seller)
            if n >= 3:
                price = {"price": scarce["price"]} if scarce.get("price", 1) != 1 else {}
                add("scarce_seller", b, seller.id, seller=seller.id, good=scarce["good"], trades=n, **price)

    noise = org.get("noise")
    if noise:
        for x, ys in noise["friends"].items():
            for y in ys:
                if sim.pair_trades(sim.by_id[x], sim.by_id[y]) >= 3:
                    add("favoured_partners", x, y, trades=sim.pair_trades(sim.by_id[x], sim.by_id[y]))
    return honest


def build_truth(sim: Simulation, params: dict[str, Any]) -> dict[str, Any]:
    """The ground truth of a finished simulation."""
    planted: list[dict[str, Any]] = []
    probes: list[dict[str, Any]] = []
    propagation: list[dict[str, Any]] = []
    for b in sim.behaviors:
        b.report(planted, probes, propagation)
    planted.sort(key=lambda p: (p["kind"], p["agents"]))
    probes.sort(key=lambda p: (p["probeEventId"], p["target"]))
    honest = _honest_suspicious(sim, planted)
    noise = sim.organic.get("noise")
    agents = [{"agentId": a.id, "seat": a.seat, "name": a.name, "role": a.role, "operator": a.operator,
               "tags": sorted(set(a.tags))} for a in sim.agents]
    return {
        "format": "daishi-sim-truth", "version": 1,
        "scenario": sim.scenario, "seed": sim.seed, "matchId": sim.match_id, "params": dict(params),
        "endedAtTick": sim.ended, "events": sim.n_events,
        "agents": agents,
        "planted": [p for p in planted if p.get("events", True)],
        # a plant that never acted (a match too short for it to start) is no plant of the log: named
        # apart, so a benchmark does not count it as a miss, nor its match as dishonest
        **({"plantedNeverActed": idle} if (idle := [p for p in planted if not p.get("events", True)]) else {}),
        "probes": probes,
        "propagation": propagation,
        "honest_suspicious": [honest[k] for k in sorted(honest)],
        "errata": [e for err in sim.errata for e in err["events"]],
        **({"noise": noise} if noise else {}),
    }
