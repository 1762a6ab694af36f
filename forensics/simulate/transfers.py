"""Simulated payment graphs with planted money-laundering typologies, and their ground truth.

A transfer-graph generator for benchmarking the typology screens
(:mod:`daishi_forensics.screens.fans`, :mod:`~daishi_forensics.screens.scatter_gather`,
:mod:`~daishi_forensics.screens.value_cycles`) on data that is not a Daishi match.  It
follows the mechanism of the public transaction simulators used in anti-money-laundering
research (``docs/typologies.md`` says what that mechanism is), in its own code and with
its own parameters:

**Background.**  Every account has an activity weight drawn from a heavy-tailed (Pareto)
law and a typical amount (log-normal).  Each account pays a few beneficiaries, chosen in
proportion to their activity (so in-degrees are heavy-tailed too), following one *normal
model*: ``single`` (one payment, at a random tick), ``periodic`` (one beneficiary after
another at a fixed interval from a random offset), ``mutual`` (periodic, paying back
whoever paid it last), ``forward`` (passes a payment it received on, whole, a few ticks
later: honest relaying), ``payroll`` (an honest fan-out hub: all its employees paid at
one tick, every period, alike amounts) and ``merchant`` (an honest fan-in hub: many
customers, each paying at its own random ticks across the whole period, at the
merchant's few prices).  Amounts carry multiplicative noise (``amount_noise``).

**Typologies.**  Members are picked as the simulators do: around a busy account (it and
its counterparties), topped up at random -- so launderers also have honest activity.
Each typology runs inside a window of ``window`` ticks starting at a random tick, with a
schedule drawn per case: all at one tick, at a fixed interval, or at random ticks in the
window.

- ``fan_in``: ``fan_size`` payers each pay one beneficiary once; amounts a base times
  ``1 + amount_spread * U(0, 1)`` (alike: one scale).
- ``fan_out``: one payer pays ``fan_size`` beneficiaries once each, the same way.
- ``scatter_gather``: a source pays ``fan_size`` intermediaries, each passes it on to one
  destination within the window, keeping a cut of about ``cut``.
- ``gather_scatter``: ``fan_size`` payers pay a hub, which then pays the total, less a cut,
  split evenly among ``fan_size`` payees.
- ``cycle``: ``cycle_length`` accounts pass one amount round, each hop later than the one
  before (in the window), each keeping a cut of about ``cut``.

Same settings and seed, same graph: every draw comes from one seeded generator.

>>> sim = simulate_transfers(TransferSettings(accounts=300, seed=3))
>>> sim.graph.number_of_edges() == simulate_transfers(TransferSettings(accounts=300, seed=3)).graph.number_of_edges()
True
>>> sorted({case.kind for case in sim.cases})
['cycle', 'fan_in', 'fan_out', 'gather_scatter', 'scatter_gather']
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import networkx as nx
import numpy as np

__all__ = ["TYPOLOGIES", "PlantedCase", "SimulatedTransfers", "TransferSettings", "simulate_transfers"]

TYPOLOGIES: tuple[str, ...] = ("fan_in", "fan_out", "scatter_gather", "gather_scatter", "cycle")
"""The planted typologies."""


@dataclass(frozen=True)
class TransferSettings:
    """Every knob of the generator (the bench sweeps them)."""

    accounts: int = 2000
    """Number of accounts."""
    ticks: int = 200
    """Length of the period (ticks: days, say)."""
    seed: int = 0
    degree: float = 2.0
    """Background density: mean number of beneficiaries per account."""
    hub_share: float = 0.01
    """Share of accounts that are honest hubs: half payroll (fan-out), half merchants (fan-in)."""
    amount_noise: float = 0.2
    """Sigma of the multiplicative (log-normal) noise on honest amounts."""
    cases_per_typology: float = 0.004
    """Planted cases of each typology per account (0: no laundering)."""
    fan_size: tuple[int, int] = (5, 10)
    """Range of counterparties of a fan (and of intermediaries of a scatter-gather)."""
    cycle_length: tuple[int, int] = (3, 6)
    window: int = 10
    """Ticks a typology runs within."""
    cut: float = 0.05
    """Mean share kept by each intermediary (scatter-gather, gather-scatter, cycle hops)."""
    amount_spread: float = 1.0
    """Fan amounts are a base times 1 + amount_spread x U(0, 1)."""
    laundering_scale: float = 5.0
    """Laundered amounts are this many times an honest account's typical amount (median)."""


@dataclass(frozen=True)
class PlantedCase:
    """One planted typology case."""

    kind: str
    """One of :data:`TYPOLOGIES`."""
    nodes: tuple[int, ...]
    """Its accounts."""
    events: tuple[int, ...]
    """The event ids of its transfers."""


@dataclass(frozen=True)
class SimulatedTransfers:
    """A generated graph and its ground truth."""

    graph: nx.MultiDiGraph
    """One edge per transfer: ``value``, ``tick``, ``event``."""
    settings: TransferSettings
    cases: tuple[PlantedCase, ...]
    honest_hubs: tuple[int, ...] = field(default=())
    """Payroll and merchant accounts (honest fan-out and fan-in hubs)."""

    @property
    def laundering_nodes(self) -> frozenset[int]:
        """Every account in a planted case."""
        return frozenset(n for c in self.cases for n in c.nodes)

    def nodes_of(self, kind: str) -> frozenset[int]:
        """Accounts in planted cases of ``kind``."""
        return frozenset(n for c in self.cases if c.kind == kind for n in c.nodes)


Transfer = tuple[int, int, float, int]
"""``(payer, payee, value, tick)``."""


def _background(s: TransferSettings, rng: np.random.Generator) -> tuple[list[Transfer], list[list[int]], list[int]]:
    n, T = s.accounts, s.ticks
    weight = rng.pareto(1.5, n) + 1.0
    typical = rng.lognormal(4.0, 1.0, n)
    cumulative = np.cumsum(weight / weight.sum())

    def pick(size: int) -> np.ndarray:
        """Accounts drawn in proportion to their activity."""
        return np.minimum(np.searchsorted(cumulative, rng.random(size), side="right"), n - 1)

    n_hubs = int(round(s.hub_share * n))
    kinds = rng.choice(["single", "periodic", "mutual", "forward"], size=n, p=[0.3, 0.4, 0.15, 0.15]).tolist()
    hubs = rng.choice(n, size=n_hubs, replace=False).tolist() if n_hubs else []
    for i, h in enumerate(hubs):
        kinds[h] = "payroll" if i % 2 == 0 else "merchant"
    benes: list[list[int]] = []
    out_degree = 1 + rng.poisson(max(s.degree - 1, 0) * weight / weight.mean())
    for a in range(n):
        d = int(min(out_degree[a], 50))
        if kinds[a] == "payroll":
            d = int(rng.integers(10, 40))
        chosen = {int(x) for x in pick(d)} - {a}
        benes.append(sorted(chosen))
    transfers: list[Transfer] = []

    def noisy(base: float) -> float:
        return float(round(base * rng.lognormal(0.0, s.amount_noise), 2))

    for a in range(n):
        kind, mine = kinds[a], benes[a]
        if not mine or kind in ("merchant", "forward"):
            continue
        if kind == "single":
            transfers.append((a, mine[int(rng.integers(len(mine)))], noisy(typical[a]), int(rng.integers(T))))
        elif kind in ("periodic", "mutual"):
            interval = int(rng.integers(15, 60))
            for k, t in enumerate(range(int(rng.integers(interval)), T, interval)):
                transfers.append((a, mine[k % len(mine)], noisy(typical[a]), t))
        elif kind == "payroll":
            interval = int(rng.integers(14, 31))
            salary = {b: float(typical[a]) * float(rng.uniform(0.8, 1.2)) for b in mine}
            for t in range(int(rng.integers(interval)), T, interval):
                for b in mine:
                    transfers.append((a, b, noisy(salary[b]), t))
    for m in (h for h in hubs if kinds[h] == "merchant"):
        prices = [float(typical[m]) * float(x) for x in rng.uniform(0.5, 2.0, 3)]
        for _ in range(int(rng.integers(30, 200))):
            c = int(pick(1)[0])
            if c == m:
                continue
            for _ in range(1 + int(rng.poisson(0.5))):
                transfers.append((c, m, noisy(prices[int(rng.integers(3))]), int(rng.integers(T))))
    # mutual pays back its last payer; forward passes payments on, whole, a few ticks later
    received: dict[int, list[Transfer]] = {}
    for tr in transfers:
        received.setdefault(tr[1], []).append(tr)
    more: list[Transfer] = []
    for a in range(n):
        got = sorted(received.get(a, []), key=lambda x: x[3])
        if kinds[a] == "mutual" and got:
            for payer, _, value, t in got[: 1 + len(got) // 3]:
                if t + 1 < T:
                    more.append((a, payer, noisy(value), int(rng.integers(t + 1, min(T, t + 30)))))
        if kinds[a] == "forward" and benes[a]:
            for _, _, value, t in got:
                if rng.random() < 0.5 and t + 1 < T:
                    more.append((a, benes[a][int(rng.integers(len(benes[a])))], value,
                                 int(rng.integers(t + 1, min(T, t + 15)))))
    return transfers + more, benes, hubs


def _members(k: int, benes: list[list[int]], busy: np.ndarray, used: set[int], rng: np.random.Generator) -> list[int]:
    """``k`` distinct accounts around a busy one (it and its beneficiaries), topped up at random."""
    n = len(benes)
    centre = int(busy[int(rng.integers(len(busy)))])
    pool = [x for x in [centre, *benes[centre]] if x not in used]
    rng.shuffle(pool)
    chosen = pool[:k]
    while len(chosen) < k:
        x = int(rng.integers(n))
        if x not in used and x not in chosen:
            chosen.append(x)
    return [int(x) for x in chosen]


def _schedule(k: int, start: int, s: TransferSettings, rng: np.random.Generator) -> list[int]:
    """``k`` ticks in ``[start, start + window)``: all at once, at a fixed interval, or at random (sorted)."""
    how = int(rng.integers(3))
    if how == 0:
        return [start] * k
    if how == 1:
        step = max(s.window // max(k, 1), 1)
        return [min(start + step * i, start + s.window - 1) for i in range(k)]
    return sorted(int(x) for x in rng.integers(start, start + s.window, k))


def _plant(kind: str, s: TransferSettings, benes: list[list[int]], busy: np.ndarray, used: set[int],
           base: float, rng: np.random.Generator) -> tuple[list[int], list[Transfer]]:
    T = s.ticks
    start = int(rng.integers(0, max(T - 2 * s.window, 1)))
    k = int(rng.integers(s.fan_size[0], s.fan_size[1] + 1))
    amount = base * float(rng.lognormal(0.0, 0.5))

    def fan_amount() -> float:
        return round(amount / k * (1.0 + s.amount_spread * float(rng.random())), 2)

    def kept() -> float:
        return 1.0 - s.cut * float(rng.uniform(0.5, 1.5))

    if kind in ("fan_in", "fan_out"):
        nodes = _members(k + 1, benes, busy, used, rng)
        hub, others = nodes[0], nodes[1:]
        ticks = _schedule(k, start, s, rng)
        if kind == "fan_in":
            return nodes, [(o, hub, fan_amount(), t) for o, t in zip(others, ticks)]
        return nodes, [(hub, o, fan_amount(), t) for o, t in zip(others, ticks)]
    if kind == "scatter_gather":
        nodes = _members(k + 2, benes, busy, used, rng)
        source, sink, mids = nodes[0], nodes[1], nodes[2:]
        ticks = _schedule(k, start, s, rng)
        out: list[Transfer] = []
        for m, t in zip(mids, ticks):
            x = fan_amount()
            out.append((source, m, x, t))
            out.append((m, sink, round(x * kept(), 2), t + int(rng.integers(0, s.window))))
        return nodes, out
    if kind == "gather_scatter":
        k_out = int(rng.integers(s.fan_size[0], s.fan_size[1] + 1))
        nodes = _members(k + k_out + 1, benes, busy, used, rng)
        hub, payers, payees = nodes[0], nodes[1:k + 1], nodes[k + 1:]
        ins = [(p, hub, fan_amount(), t) for p, t in zip(payers, _schedule(k, start, s, rng))]
        total = sum(x[2] for x in ins) * kept()
        later = max(x[3] for x in ins)
        outs = [(hub, q, round(total / k_out, 2), t) for q, t in zip(payees, _schedule(k_out, later, s, rng))]
        return nodes, ins + outs
    length = int(rng.integers(s.cycle_length[0], s.cycle_length[1] + 1))
    nodes = _members(length, benes, busy, used, rng)
    ticks = _schedule(length, start, s, rng)
    out = []
    x = round(amount, 2)
    for i in range(length):
        out.append((nodes[i], nodes[(i + 1) % length], x, ticks[i]))
        x = round(x * kept(), 2)
    return nodes, out


def simulate_transfers(settings: TransferSettings) -> SimulatedTransfers:
    """Generate one graph (module rule) with its planted cases."""
    s = settings
    if s.accounts < 50:
        raise ValueError(f"accounts must be at least 50, not {s.accounts}")
    rng = np.random.default_rng([s.seed, 7919])
    transfers, benes, hubs = _background(s, rng)
    degree = np.bincount([t[0] for t in transfers] + [t[1] for t in transfers], minlength=s.accounts)
    busy = np.flatnonzero(degree >= np.quantile(degree, 0.9))
    if busy.shape[0] == 0:
        busy = np.arange(s.accounts)
    base = float(np.median([t[2] for t in transfers])) * s.laundering_scale if transfers else 100.0
    used: set[int] = set()
    planted: list[tuple[str, list[int], int, int]] = []
    count = int(round(s.cases_per_typology * s.accounts))
    for kind in TYPOLOGIES:
        for _ in range(count):
            nodes, mine = _plant(kind, s, benes, busy, used, base, rng)
            used.update(nodes)
            planted.append((kind, nodes, len(transfers), len(transfers) + len(mine)))
            transfers.extend(mine)
    order = sorted(range(len(transfers)), key=lambda i: (transfers[i][3], i))
    event_of = {i: e for e, i in enumerate(order, start=1)}
    graph = nx.MultiDiGraph(name=f"transfers-{s.seed}", ticks=s.ticks)
    graph.add_nodes_from(range(s.accounts))
    graph.add_edges_from((transfers[i][0], transfers[i][1], {"value": transfers[i][2], "tick": transfers[i][3],
                                                            "event": event_of[i]}) for i in order)
    cases = tuple(PlantedCase(kind, tuple(sorted(nodes)), tuple(sorted(event_of[i] for i in range(lo, hi))))
                  for kind, nodes, lo, hi in planted)
    return SimulatedTransfers(graph, s, cases, tuple(sorted(hubs)))


def scaled(settings: TransferSettings, **changes: Any) -> TransferSettings:
    """``settings`` with ``changes`` (a sweep step)."""
    return replace(settings, **changes)
