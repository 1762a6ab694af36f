"""Scatter-gather and gather-scatter: value split through intermediaries and joined again.

*Scatter-gather* (layering): a source pays several intermediaries, each of which soon
passes what it got on, less a small cut, to one and the same destination.  *Gather-scatter*:
an account collects from many one-off payers in a short window (a fan-in) and soon pays
the money out to many one-off payees (a fan-out), keeping little of it.

**Scatter-gather rule.**  A *relay* is a transfer ``s -> m`` followed by ``m -> d`` (``d`` not
``s``) within ``max_window`` (a share of the graph's time span; same tick allowed), worth
between ``1 - max_cut`` times the first and the first.  ``k`` is the number of distinct
intermediaries ``m`` that relayed from ``s`` to ``d``; a pair ``(s, d)`` with at least
``min_relays`` is a candidate.  **Null**: ticks and values shuffled among the graph's
transfers.  A transfer ``s -> m`` is relayed by chance with probability ``q`` = (share of the
graph's transfers with a tick in ``[t, t + window]``) x (share with a value in
``[x (1 - max_cut), x]``), once for each transfer ``m -> d``; summing over every account that
both ``s`` pays and pays ``d`` gives the expected count ``lambda``, and the p-value is the
Poisson tail ``P(X >= k)``.  ``tests`` is the number of pairs ``(s, d)`` with at least
``min_relays`` common intermediaries in the structure; flagged by the Benjamini-Hochberg
step-up rule at level ``alpha`` over those tests (false-discovery rate at most ``alpha``; on
a graph with nothing to find, any flag at all has chance at most ``alpha``).

**Gather-scatter rule.**  A node whose best fan-in box and best fan-out box
(:mod:`~daishi_forensics.screens.fans`, the same windows and bands) follow each other --
the fan-out starting no earlier than the fan-in and within the fan-in's window plus
``max_window`` after it -- and pass the value on (paid out between ``1 - max_cut`` and
``1 + max_cut`` times what came in).  Under the null the two boxes are independent, so the
p-value is the product of the two (each already adjusted for the node's boxes);
``tests`` is the number of nodes tested for both; flagged by the same step-up rule.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i in range(400):  # background
...     _ = G.add_edge(f"b{i % 40}", f"b{(i * 7 + 3) % 40}", value=5.0 + (i * 37) % 97, tick=i, event=f"n{i}")
>>> for i in range(4):  # s splits 400 over four mules, each passes it on to d a tick later, less 5%
...     _ = G.add_edge("s", f"m{i}", value=100.0 + i, tick=200, event=f"a{i}")
...     _ = G.add_edge(f"m{i}", "d", value=(100.0 + i) * 0.95, tick=201, event=f"b{i}")
>>> [(f.kind, f.agents) for f in scatter_gather(TransferView(G), DEFAULTS)[0]]
[('scatter_gather', ('s', 'd', 'm0', 'm1', 'm2', 'm3'))]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .fans import arrays_of, fan_boxes_of
from .flags import Flag, ordered, pair_key
from .graph import TransferView
from .transfer_arrays import PaymentIndex, TransferArrays, poisson_tail, step_up_cutoff

__all__ = ["DEFAULTS", "gather_scatter", "relays", "scatter_gather"]

DEFAULTS: Mapping[str, Any] = {"alpha": 0.01, "min_relays": 3, "max_window": 0.1, "max_cut": 0.2,
                               "max_pairs": 2_000_000}
"""The shipped parameters (``screens/config.json``)."""


def relays(arrays: TransferArrays, window: float, cut: float,
           limit: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Every relay (module rule) as rows ``(first, second)``, vectorised; None when more than
    ``limit`` pairs of transfers would have to be compared."""
    src, dst, value = arrays.src, arrays.dst, arrays.value
    found = PaymentIndex(arrays, window).following(np.arange(arrays.size), limit)
    if found is None:
        return None
    first, second = found
    ok = (value[second] <= value[first]) & (value[second] >= value[first] * (1.0 - cut)) & (dst[second] != src[first])
    return first[ok], second[ok]


def _structural_pairs(arrays: TransferArrays, min_relays: int) -> int:
    """Pairs ``(s, d)``, ``s != d``, with at least ``min_relays`` accounts that ``s`` pays and that pay ``d``."""
    from scipy.sparse import csr_matrix

    n = len(arrays.nodes)
    a = csr_matrix((np.ones(arrays.size), (arrays.src, arrays.dst)), shape=(n, n))
    a.sum_duplicates()
    a.data[:] = 1.0
    two = (a @ a).tocoo()
    return int(((two.data >= min_relays) & (two.row != two.col)).sum())


def scatter_gather(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Flag], list[str]]:
    """Scatter-gather flags (module rule), one per (source, destination); and a note when the
    graph has more than ``max_pairs`` pairs of transfers to compare."""
    arrays = arrays_of(view, params)
    if arrays.size < 2 or arrays.span <= 0:
        return [], []
    window = float(params["max_window"]) * arrays.span
    cut = float(params["max_cut"])
    min_relays = int(params["min_relays"])
    found = relays(arrays, window, cut, int(params["max_pairs"]))
    if found is None:
        return [], [f"not screened: scatter_gather (more than {int(params['max_pairs'])} pairs of transfers "
                    "within the window of each other to compare)"]
    first, second = found
    if first.shape[0] == 0:
        return [], []
    n = len(arrays.nodes)
    s, m, d = arrays.src[first], arrays.dst[first], arrays.dst[second]
    triple = np.unique((s * n + d) * n + m)
    pair_code, k = np.unique(triple // n, return_counts=True)
    candidates = pair_code[k >= min_relays]
    if candidates.shape[0] == 0:
        return [], []
    tests = max(_structural_pairs(arrays, min_relays), int(candidates.shape[0]))
    scored = _scored_pairs(arrays, candidates, s * n + d, m, window, cut)
    cutoff = step_up_cutoff([x[0] for x in scored], tests, float(params["alpha"]))
    return [_sg_flag(arrays, first, second, p, code, picked, mids, lam, window, cut, cutoff, tests)
            for p, code, picked, mids, lam in scored if p <= cutoff], []


def _scored_pairs(arrays: Any, candidates: np.ndarray, pair_of: np.ndarray, m: np.ndarray, window: float,
                  cut: float) -> list[tuple[float, int, np.ndarray, list[int], float]]:
    """Each candidate (source, destination): the intermediaries that relayed, and the Poisson p-value of
    their number against the chance count (module rule): over the source's payments to each intermediary
    that paid the destination later, the chance one of those later payments fell within the window and the
    cut of it under the shuffled ticks and amounts, at most one per intermediary."""
    n = len(arrays.nodes)
    q_lim = arrays.tick_mass(arrays.tick, arrays.tick + window) \
        * arrays.value_mass(arrays.value * (1.0 - cut), arrays.value)
    out_rows: dict[int, list[int]] = {}
    for row in np.flatnonzero(np.isin(arrays.src, candidates // n)):
        out_rows.setdefault(int(arrays.src[row]), []).append(int(row))
    in_count: dict[tuple[int, int], int] = {}
    targets = set((candidates % n).tolist())
    for row in np.flatnonzero(np.isin(arrays.dst, candidates % n)):
        key = (int(arrays.src[row]), int(arrays.dst[row]))
        if key[1] in targets:
            in_count[key] = in_count.get(key, 0) + 1
    scored: list[tuple[float, int, np.ndarray, list[int], float]] = []
    for code in candidates.tolist():
        src_node, dst_node = divmod(int(code), n)
        chance: dict[int, float] = {}
        for paid in out_rows.get(src_node, []):
            mid = int(arrays.dst[paid])
            later = in_count.get((mid, dst_node), 0)
            if later and mid != dst_node:
                chance[mid] = chance.get(mid, 0.0) + float(q_lim[paid]) * later
        lam = sum(min(1.0, c) for c in chance.values())
        picked = np.flatnonzero(pair_of == code)
        mids = ordered({int(x) for x in m[picked]})
        scored.append((float(poisson_tail(len(mids), lam)), code, picked, mids, lam))
    return scored


def _sg_flag(arrays: Any, first: np.ndarray, second: np.ndarray, p: float, code: int, picked: np.ndarray,
             mids: list[int], lam: float, window: float, cut: float, cutoff: float, tests: int) -> Flag:
    """The ``scatter_gather`` flag of one source and destination: the relays' story, their events and
    figures."""
    n = len(arrays.nodes)
    count = len(mids)
    src_node, dst_node = divmod(int(code), n)
    rows = sorted({int(r) for r in first[picked]} | {int(r) for r in second[picked]})
    nodes = arrays.nodes
    source, sink = nodes[src_node], nodes[dst_node]
    members = [nodes[i] for i in mids]
    sent = float(arrays.value[np.unique(first[picked])].sum())
    arrived = float(arrays.value[np.unique(second[picked])].sum())
    return _flag(
        arrays, "scatter_gather", p, cutoff, tests, rows,
        agents=(source, sink, *members),
        pairs=tuple(ordered({pair_key(source, x) for x in members} | {pair_key(x, sink) for x in members})),
        explanation=(
            f"{source} paid {sent:g} through {count} intermediaries ({', '.join(map(str, members))}), each of "
            f"which passed it on to {sink} within {arrays.during(window)} keeping at most {cut:.0%} ({arrived:g} "
            f"arrived); shuffling the graph's ticks and amounts expects {lam:.2g} such relays "
            f"(p = {p:.2g}, {tests} {'pair' if tests == 1 else 'pairs'} tested)."
        ),
        details={"source": source, "destination": sink, "intermediaries": count, "expected": lam,
                 "sent": sent, "arrived": arrived, "window": window},
        null=_NULL_SG,
    )


def _flag(arrays: TransferArrays, kind: str, p: float, cutoff: float, tests: int, rows: Iterable[int], *,
          agents: tuple[Any, ...], pairs: tuple[tuple[Any, Any], ...], explanation: str, details: Mapping[str, Any],
          null: str) -> Flag:
    """A flag of this screen, of ``kind`` (``scatter_gather`` or ``gather_scatter``), for a finding of p-value
    ``p`` among ``tests``: scored ``-log10 p`` (p floored at 1e-300) against the step-up rule's ``-log10
    cutoff``, its evidence the events of the transfers ``rows``, each once, in order."""
    return Flag(
        screen="scatter_gather",
        kind=kind,
        level="flag",
        agents=agents,
        pairs=pairs,
        score=-math.log10(max(p, 1e-300)),
        threshold=-math.log10(cutoff),
        evidence=tuple(ordered({arrays.event[r] for r in rows})),
        explanation=explanation,
        details=details,
        p_value=p,
        null=null,
        tests=tests,
    )


_NULL_SG = ("the graph's own transfers with ticks and amounts shuffled among them: the chance count of "
            "intermediaries passing a payment on that soon with that small a cut, Poisson")
_NULL_GS = ("the graph's own transfers with ticks and amounts shuffled among them: the fan-in and the fan-out "
            "boxes' chances multiplied (independent under the shuffle), each Bonferroni over the node's windows")


def gather_scatter(view: TransferView, params: Mapping[str, Any], fan_params: Mapping[str, Any]) -> list[Flag]:
    """Gather-scatter flags (module rule), one per node."""
    arrays = arrays_of(view, params)
    if arrays.size < 2 or arrays.span <= 0:
        return []
    boxes = fan_boxes_of(view, fan_params)
    ins = {b.hub: b for b in boxes["in"][0]}
    outs = {b.hub: b for b in boxes["out"][0]}
    both = _tested_both(arrays, int(fan_params["min_fan"]))
    if both == 0:
        return []
    alpha = float(params["alpha"])
    window = float(params["max_window"]) * arrays.span
    cut = float(params["max_cut"])
    flags: list[Flag] = []
    pairs_found = []
    for hub in sorted(set(ins) & set(outs)):
        b_in, b_out = ins[hub], outs[hub]
        if not (b_in.start <= b_out.start <= b_in.start + b_in.window + window):
            continue
        if not ((1.0 - cut) * b_in.value <= b_out.value <= (1.0 + cut) * b_in.value):
            continue
        pairs_found.append((b_in.p_value * b_out.p_value, hub, b_in, b_out))
    cutoff = step_up_cutoff([x[0] for x in pairs_found], both, alpha)
    for p, hub, b_in, b_out in pairs_found:
        if p > cutoff:
            continue
        nodes = arrays.nodes
        name = nodes[hub]
        payers = [nodes[i] for i in b_in.members]
        payees = [nodes[i] for i in b_out.members]
        rows = set(b_in.rows) | set(b_out.rows)
        flags.append(_flag(
            arrays, "gather_scatter", p, cutoff, both, rows,
            agents=(name, *payers, *[x for x in payees if x not in payers]),
            pairs=tuple(ordered({pair_key(name, x) for x in payers} | {pair_key(name, x) for x in payees})),
            explanation=(
                f"{name} collected {b_in.value:g} from {b_in.count} one-off payers from {arrays.when(b_in.start)} and paid "
                f"{b_out.value:g} out to {b_out.count} one-off payees from {arrays.when(b_out.start)}; shuffling the graph's "
                f"ticks and amounts makes both together p = {p:.2g} ({both} {'node' if both == 1 else 'nodes'} tested)."
            ),
            details={"hub": name, "gathered": b_in.value, "scattered": b_out.value, "payers": b_in.count,
                     "payees": b_out.count, "gatherStart": b_in.start, "scatterStart": b_out.start,
                     "gatherP": b_in.p_value, "scatterP": b_out.p_value},
            null=_NULL_GS,
        ))
    return flags


def _tested_both(arrays: TransferArrays, min_fan: int) -> int:
    """Nodes with at least ``min_fan`` payers and ``min_fan`` payees."""
    n = len(arrays.nodes)
    code = np.unique(arrays.src * n + arrays.dst)
    payees = np.bincount(code // n, minlength=n)
    payers = np.bincount(code % n, minlength=n)
    return int(((payees >= min_fan) & (payers >= min_fan)).sum())
