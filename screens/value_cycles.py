"""Value cycles: money sent round a loop of accounts, each passing it on soon, keeping a small cut.

The *cycle* typology of money laundering (layering): value leaves an account and comes
back to it through a chain of others, each hop made soon after the one before, each
worth a little less than the one before (every intermediary keeps a small cut; or
nothing at all).  An honest loop of payments exists (A pays B, B pays C, C pays A), but
its amounts are unrelated to each other and its hops are spread in time.

**The rule.**  A *value chain* is a sequence of transfers ``e0, e1, ..., e(L-1)``, each
paid by the account the previous one paid, each made within ``max_window`` (a share of
the graph's time span) after the previous one (same tick allowed), each worth between
``1 - max_cut`` times the previous one's value and the previous one's value, through
distinct accounts; it is a *value cycle* when the last one pays the first payer, with
``3 <= L <= max_length`` (twelve).  Chains are grown from every transfer forward, breadth first
and vectorised over all of them at once, never by enumerating the graph's structural cycles;
each hop follows *the money passed on*: of the payments the intermediary made within the window
after it received, in the band, only the first ``pass_on`` (and any at the same tick as the last
of them).  A launderer passes the money on at once; following every later payment of about that
size as well would grow the search as the number of alike payments to the power of the loop's
length in a dense web of friends.  The search stops before holding more than ``max_states``
partial chains and says so.  A cycle is reported once per set of accounts, from its first payer
in time: whichever account one starts reading it from, the money entered at the earliest hop.

**The null** (:mod:`~daishi_forensics.screens.transfer_arrays`): ticks and values
shuffled among all the graph's transfers.  A cycle is priced in a grid of limits: windows
(``window_steps`` of them from ``min_window`` to ``max_window`` of the span, geometric) times
cuts (``tight_cut`` and ``max_cut``).  In a cell whose limits the cycle keeps, hop ``i`` falls
inside them by chance with probability ``q_i`` = (share of the graph's transfers with a
tick within the window after hop ``i - 1``) x (share with a value between ``1 - cut`` times
hop ``i - 1``'s and hop ``i - 1``'s) -- or the hop's payer's own share of payments in that
band, whichever is larger (:func:`own_band_share`): a member of a savings circle pays the
same dues every month, so the same sum going round it by turns is its habit, not a chance
match; a shell that pays nothing else is measured against the graph; a pair that made ``m``
transfers had ``m`` chances, ``1 - (1 - q_i) ** m``.  A hop between two accounts with a
*standing relationship* (:func:`standing`: transfers both ways, at least ``standing_transfers``
in all: a car pool paying its drivers by turns, a savings circle) counts as certain, chance 1:
an honest web's loop is no evidence, and a laundering loop's members are one-off counterparties
in sequence.  The chance of the whole cycle is the product over its hops after the first (an
exact probability of the event, not a product of p-values); the cycle's p-value is the smallest
over the cells that contain it, times the number of cells.  ``tests``: the candidate cycles of
each length ``L`` are the closed walks of ``L`` steps on the graph of paying pairs, the first
step counted once per transfer (every choice of first transfer is a candidate), counted exactly
up to ``exact_length`` steps and bounded above beyond (:func:`candidate_cycles`; a walk may repeat
an account, so the count errs on the strict side).  The error ``alpha`` is shared among the
lengths: ``1 - long_share`` of it equally among the lengths up to ``exact_length``, ``long_share``
equally among the longer ones; a cycle of length ``L`` is flagged when its p-value is at most
``alpha x its lengths' share / (lengths sharing it x candidates of length L)``, and
``lengths / share x candidates`` is its ``tests``.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i in range(400):  # background: forty accounts paying each other over 400 ticks
...     _ = G.add_edge(f"b{i % 40}", f"b{(i * 7 + 3) % 40}", value=5.0 + (i * 37) % 97, tick=i, event=f"n{i}")
>>> for hop, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]):
...     _ = G.add_edge(u, v, value=1000.0 * 0.9 ** hop, tick=100 + 2 * hop, event=f"c{hop}")
>>> [(f.kind, f.agents) for f in value_cycles(TransferView(G), DEFAULTS)[0]]
[('value_cycle', ('a', 'b', 'c', 'd'))]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .fans import arrays_of, window_grid
from .flags import Flag, ordered, pair_key
from .graph import TransferView
from .transfer_arrays import PaymentIndex, TransferArrays

__all__ = ["DEFAULTS", "OwnAmounts", "ValueCycle", "candidate_cycles", "cycle_p_values", "find_value_cycles", "limit_grid",
           "own_band_share", "standing", "value_cycles"]

DEFAULTS: Mapping[str, Any] = {"alpha": 0.01, "max_length": 12, "min_window": 0.005, "max_window": 0.1,
                               "window_steps": 3, "tight_cut": 0.05, "max_cut": 0.2, "max_states": 1_000_000,
                               "own_prior": 10.0, "standing_transfers": 6, "exact_length": 6, "pass_on": 1,
                               "long_share": 0.05}
"""The shipped parameters (``screens/config.json``)."""

@dataclass(frozen=True)
class ValueCycle:
    """One value cycle: its transfers in hop order."""

    rows: tuple[int, ...]
    """Rows (into the arrays) of its hops, in order; the first is the earliest."""
    nodes: tuple[int, ...]
    """Payers in hop order (node indices)."""
    p_value: float
    """Product over hops of the chance of a hop that tight (module rule)."""


def _pair_counts(arrays: TransferArrays) -> np.ndarray:
    """For each row, how many transfers its (payer, payee) pair made."""
    n = len(arrays.nodes)
    code = arrays.src * n + arrays.dst
    _, inverse, counts = np.unique(code, return_inverse=True, return_counts=True)
    return counts[inverse]


def find_value_cycles(arrays: TransferArrays, params: Mapping[str, Any]) -> tuple[list[ValueCycle], bool]:
    """Every value cycle (module rule), the best per set of accounts; and whether the search
    stopped before holding more than ``max_states`` partial chains.  Vectorised level by level: each partial chain
    is a row of a matrix of transfer rows, extended by every transfer its last payee made
    within the window and the cut."""
    if arrays.size < 3 or arrays.span <= 0:
        return [], False
    grid = limit_grid(arrays.span, params)
    window = max(w for w, _ in grid)
    cut = float(params["max_cut"])
    max_len = int(params["max_length"])
    max_states = int(params["max_states"])
    src, dst, value = arrays.src, arrays.dst, arrays.value
    multiplicity = _pair_counts(arrays).astype(np.float64)
    index = PaymentIndex(arrays, window)
    pass_on = int(params["pass_on"])
    webbed = standing(arrays, int(params["standing_transfers"]))
    chains = np.arange(arrays.size)[:, None]  # level 0: every transfer starts a chain
    closed: list[np.ndarray] = []
    truncated = False
    total_states = arrays.size
    for hops in range(1, max_len):
        if chains.shape[0] == 0:
            break
        parent, nxt = _passed_on(index, chains[:, -1], value, cut, pass_on)
        if total_states + parent.shape[0] > max_states:
            truncated = True
            break
        to = dst[nxt]
        closes = to == src[chains[parent, 0]]
        revisit = (dst[chains[parent]] == to[:, None]).any(axis=1)
        if hops >= 2 and closes.any():
            closed.append(np.concatenate([chains[parent[closes]], nxt[closes][:, None]], axis=1))
        keep = ~closes & ~revisit
        if hops == max_len - 1:
            break
        chains = np.concatenate([chains[parent[keep]], nxt[keep][:, None]], axis=1)
        total_states += chains.shape[0]
    cycles: list[ValueCycle] = []
    own = OwnAmounts(arrays, float(params["own_prior"]))
    for rows in closed:
        p = cycle_p_values(arrays, rows, multiplicity, grid, own, webbed)
        nodes = src[rows]
        members = np.sort(nodes, axis=1)
        # the best (smallest p, then earliest rows) per set of accounts of this length
        rank = np.lexsort((*[rows[:, j] for j in range(rows.shape[1] - 1, -1, -1)], p,
                           *[members[:, j] for j in range(members.shape[1] - 1, -1, -1)]))
        _, first = np.unique(members[rank], axis=0, return_index=True)
        for i in rank[first]:
            cycles.append(ValueCycle(tuple(int(r) for r in rows[i]), tuple(int(x) for x in nodes[i]), float(p[i])))
    best: dict[frozenset[int], ValueCycle] = {}
    for c in cycles:
        k = frozenset(c.nodes)
        if k not in best or (c.p_value, c.rows) < (best[k].p_value, best[k].rows):
            best[k] = c
    return sorted(best.values(), key=lambda c: (c.p_value, c.rows)), truncated


def standing(arrays: TransferArrays, min_transfers: int) -> np.ndarray:
    """For each row, whether its two accounts have a *standing relationship*: transfers both ways
    and at least ``min_transfers`` between them in all (module rule, *honest webs*).  Friends
    settling up, a car pool's riders and drivers, a savings circle's members pay each other again
    and again, both ways; a laundering loop's members are one-off counterparties in sequence.

    >>> import networkx as nx
    >>> from .transfer_arrays import transfer_arrays
    >>> G = nx.MultiDiGraph([("a", "b"), ("b", "a"), ("a", "b"), ("b", "c")])
    >>> for i, (u, v, k) in enumerate(G.edges(keys=True)):
    ...     G.edges[u, v, k].update(value=1.0, tick=i, event=i)
    >>> [(G.edges[e]["event"], bool(x)) for e, x in zip(G.edges(keys=True), standing(transfer_arrays(G), 3))]
    [(0, True), (1, True), (2, True), (3, False)]
    """
    n = len(arrays.nodes)
    if arrays.size == 0:
        return np.zeros(0, dtype=bool)
    lo, hi = np.minimum(arrays.src, arrays.dst), np.maximum(arrays.src, arrays.dst)
    code = lo * n + hi
    _, pair, total = np.unique(code, return_inverse=True, return_counts=True)
    forward = np.bincount(pair, weights=(arrays.src == lo).astype(np.float64), minlength=total.shape[0])
    both = (forward > 0) & (forward < total)
    return np.asarray((both & (total >= min_transfers))[pair], dtype=bool)


_PAIRS_READ = 2_000_000
"""At most this many payments are read at once when chains are extended (:func:`_passed_on`)."""


def _passed_on(index: PaymentIndex, last: np.ndarray, value: np.ndarray, cut: float, pass_on: int,
               batch: int = 20_000, pairs: int = _PAIRS_READ) -> tuple[np.ndarray, np.ndarray]:
    """Every pair ``(i, next)``: ``next`` one of the first ``pass_on`` payments (and any at the same tick
    as the last of them) that the payee of ``last[i]`` made within the window after it, worth between
    ``1 - cut`` times its value and its value: where the money it received went on.  In batches of at
    most ``batch`` chains and, beyond the first chain of a batch, ``pairs`` payments read, so that a
    crowd paying alike amounts all the time, or a long match whose window (a share of its span) holds
    thousands of a payee's payments, costs memory in proportion to what is kept."""
    parents: list[np.ndarray] = []
    nexts: list[np.ndarray] = []
    tick = index.arrays.tick
    spans = index.spans(index.arrays.dst[last], tick[last])
    read = np.cumsum(spans[1] - spans[0])
    bounds = [0]
    while bounds[-1] < last.shape[0]:
        at = bounds[-1]
        before = int(read[at - 1]) if at else 0
        bounds.append(min(at + batch, max(at + 1, int(np.searchsorted(read, before + pairs, side="right")))))
    for lo, up in zip(bounds, bounds[1:]):
        rows = last[lo:up]
        first, through = spans[0][lo:up], spans[1][lo:up]
        # the first _FIRST_READ payments of each window; a window whose kept payments all lie in them is done
        parent, nxt, done = _kept(index, rows, first, np.minimum(through, first + _FIRST_READ), value, cut, pass_on)
        done |= through - first <= _FIRST_READ
        mine = done[parent]
        parent, nxt = parent[mine], nxt[mine]
        rest = np.flatnonzero(~done)
        if rest.shape[0]:  # the others read through their whole window
            more, more_nxt, _ = _kept(index, rows[rest], first[rest], through[rest], value, cut, pass_on)
            parent = np.concatenate([parent, rest[more]])
            nxt = np.concatenate([nxt, more_nxt])
            order = np.argsort(parent, kind="stable")  # chain by chain, each chain's payments in tick order
            parent, nxt = parent[order], nxt[order]
        parents.append(parent + lo)
        nexts.append(nxt)
    if not parents:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(parents), np.concatenate(nexts)


_FIRST_READ = 32
"""Payments of a window read first when a chain is extended (:func:`_passed_on`): where money is passed on,
the kept ones are among them, and the rest of a long match's window (a share of its span) is not read."""


def _kept(index: PaymentIndex, rows: np.ndarray, first: np.ndarray, through: np.ndarray, value: np.ndarray,
          cut: float, pass_on: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_passed_on`'s pairs ``(i, next)`` among the payments at positions ``[first, through)`` of
    :attr:`PaymentIndex.order` for each of ``rows``; and for each row whether they are all its pairs in
    its whole window: the ``pass_on``-th payment in the band was read and so was a later payment at a
    later tick (the window's payments come in tick order, so none read later could be kept)."""
    tick = index.arrays.tick
    lengths = through - first
    total = int(lengths.sum())
    parent = np.repeat(np.arange(rows.shape[0]), lengths)
    position = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    nxt = index.order[first[parent] + position]
    x = value[rows][parent]
    ok = (value[nxt] <= x) & (value[nxt] >= x * (1.0 - cut))
    parent, nxt = parent[ok], nxt[ok]
    done = np.zeros(rows.shape[0], dtype=bool)
    if parent.shape[0] == 0:
        return parent, nxt, done
    # rank within each parent (payments come in tick order): keep up to the pass_on-th one's tick
    start = np.flatnonzero(np.concatenate([[True], parent[1:] != parent[:-1]]))
    counts = np.diff(np.append(start, parent.shape[0]))
    rank = np.arange(parent.shape[0]) - np.repeat(start, counts)
    limit_at = np.minimum(start + pass_on - 1, np.append(start[1:], parent.shape[0]) - 1)
    group = np.repeat(np.arange(start.shape[0]), counts)
    keep = (rank < pass_on) | (tick[nxt] <= tick[nxt[limit_at[group]]])
    owners = parent[start]
    read_last = tick[index.order[np.maximum(through[owners] - 1, first[owners])]]
    done[owners] = (counts >= pass_on) & (read_last > tick[nxt[limit_at]])
    return parent[keep], nxt[keep], done


def candidate_cycles(arrays: TransferArrays, max_length: int, keep: np.ndarray | None = None,
                     exact_length: int = 6) -> dict[int, int]:
    """How many candidate cycles of each length 3 to ``max_length`` a search tests: closed
    walks of that many steps on the graph of paying pairs (the rows in ``keep``, every row
    without it), the first step counted once per transfer (every choice of first transfer is a
    candidate): ``trace(W A^(L-1))`` with ``A`` the pairs' adjacency and ``W`` their transfer
    counts.  Up to ``exact_length`` steps it is computed exactly with sparse products (meeting in
    the middle: no power above ``A^3`` for loops of up to seven); longer, it is bounded above by
    ``S r^(L-1)`` (:func:`_walk_growth`: ``r`` about the largest eigenvalue of ``A``, the rate at
    which closed walks multiply with each step).  A closed walk may repeat an account, so either
    way this counts at least every simple cycle: the test count errs on the strict side.  At
    least 1 per length.

    >>> import networkx as nx
    >>> from .transfer_arrays import transfer_arrays
    >>> G = nx.MultiDiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "a")])
    >>> for i, (u, v, k) in enumerate(G.edges(keys=True)):
    ...     G.edges[u, v, k].update(value=1.0, tick=i, event=i)
    >>> candidate_cycles(transfer_arrays(G), 4)
    {3: 4, 4: 1}
    """
    from scipy.sparse import csr_matrix

    n = len(arrays.nodes)
    out = {length: 1 for length in range(3, max_length + 1)}
    src, dst = (arrays.src, arrays.dst) if keep is None else (arrays.src[keep], arrays.dst[keep])
    if src.shape[0] == 0 or max_length < 3:
        return out
    weights = csr_matrix((np.ones(src.shape[0]), (src, dst)), shape=(n, n))
    weights.sum_duplicates()
    adjacency = weights.copy()
    adjacency.data[:] = 1.0
    exact_lengths = range(3, min(max_length, exact_length) + 1)
    if _dense_walks(adjacency, n):
        out.update({length: max(1, int(round(c))) for length, c in _closed_walks_in_blocks(
            adjacency, weights, exact_lengths).items()})
        exact_lengths = range(0)
    powers = {0: None, 1: adjacency}
    weighted = {0: weights}
    for length in exact_lengths:
        steps = length - 1
        right = (steps + 1) // 2
        left = steps - right
        for k in range(2, right + 1):
            if k not in powers:
                powers[k] = powers[k - 1] @ adjacency
        for k in range(1, left + 1):
            if k not in weighted:
                weighted[k] = weighted[k - 1] @ adjacency
        closed = weighted[left].multiply(powers[right].T).sum()
        out[length] = max(1, int(round(float(closed))))
    if max_length > exact_length:
        rate, spread = _walk_growth(adjacency, weights)
        for length in range(max(3, exact_length + 1), max_length + 1):
            try:
                bound = spread * rate ** (length - 1)
            except OverflowError:
                bound = math.inf
            out[length] = max(1, int(math.ceil(bound))) if math.isfinite(bound) else _BEYOND_A_DOUBLE
    return out


_BEYOND_A_DOUBLE = 2**1024
"""The bound on a length's candidate cycles where ``S r^(L-1)`` passes the largest double (a long
``max_length`` on a web whose closed walks multiply fast): more than any count a double holds."""


_BLOCK_CELLS = 1 << 21
"""Cells of one block of dense rows in :func:`_closed_walks_in_blocks` (16 MB of float64)."""


def _dense_walks(adjacency: Any, n: int) -> bool:
    """Whether the powers of ``adjacency`` fill in (two-step paths, an upper bound on the nonzeros of
    ``A^2``, past a million and sixteen times ``A``'s) on few enough accounts (at most 20,000) that
    :func:`_closed_walks_in_blocks` counts the walks in bounded memory: the sparse powers of a dense-ish
    web of 5,000 accounts and 180,000 transfers held 1.6 GB."""
    if n > 20_000:
        return False
    outdeg = np.diff(adjacency.indptr)
    indeg = np.bincount(adjacency.indices, minlength=n)
    two_step = float(np.dot(outdeg.astype(np.float64), indeg.astype(np.float64)))
    bound: float = max(1e6, 16.0 * adjacency.nnz)
    return two_step > bound


def _closed_walks_in_blocks(adjacency: Any, weights: Any, lengths: Iterable[int]) -> dict[int, float]:
    """``trace(W A^(L-1))`` for each length ``L``, as :func:`candidate_cycles` computes it with sparse powers,
    a block of rows at a time: rows ``B`` of ``W A^left`` times rows ``B`` of ``(A^T)^right``, summed, never a
    whole power held (the counts are whole numbers: the same sums, in another order, exactly)."""
    n = adjacency.shape[0]
    lengths = list(lengths)
    if not lengths:
        return {}
    splits = {length: ((length - 1) - (length // 2), length // 2) for length in lengths}  # (left, right)
    need_left = max(left for left, _ in splits.values())
    need_right = max(right for _, right in splits.values())
    a_t = adjacency.T.tocsr()
    block = max(1, min(n, _BLOCK_CELLS // max(n, 1)))
    closed = dict.fromkeys(lengths, 0.0)
    for lo in range(0, n, block):
        hi = min(n, lo + block)
        left_rows = [weights[lo:hi].toarray()]  # rows B of W A^k, k = 0, 1, ...
        for _ in range(need_left):
            left_rows.append(np.asarray(a_t @ left_rows[-1].T).T)
        right_rows = [None, a_t[lo:hi].toarray()]  # rows B of (A^T)^k, k = 1, 2, ...
        for _ in range(need_right - 1):
            right_rows.append(np.asarray(adjacency @ right_rows[-1].T).T)
        for length, (left, right) in splits.items():
            closed[length] += float(np.sum(left_rows[left] * right_rows[right]))
    return closed


def _walk_growth(adjacency: Any, weights: Any) -> tuple[float, float]:
    """``(r, S)`` such that ``trace(W A^k) <= S r^k`` for every ``k`` (Collatz-Wielandt): for any positive
    vector ``x``, with ``r = max_i (A x)_i / x_i``, ``A^k x <= r^k x``, so ``(A^k)_ji <= r^k x_j / x_i`` and
    ``trace(W A^k) <= r^k sum_ij W_ij x_j / x_i``.  The bound holds for any ``x``; it is tight when ``x`` is
    near the Perron vector, taken here as ``x = sum_k (A / s)^k 1`` with ``s`` a little above the growth
    rate of ``(A + I)^k 1`` (a fixed number of sparse products: the same on every run)."""
    size = adjacency.shape[0]
    probe = np.ones(size)
    growth = 0.0
    for _ in range(60):  # the growth of (A + I)^k 1: about the largest eigenvalue of A, plus one
        nxt = adjacency @ probe + probe
        growth = float(nxt.sum() / probe.sum())
        probe = nxt / nxt.max()
    scale = max(growth - 1.0, 1e-6) * 1.05
    x = np.ones(size)
    for _ in range(400):
        x_new = 1.0 + (adjacency @ x) / scale
        if not np.isfinite(x_new).all() or x_new.max() > 1e200:
            scale *= 2.0  # above the growth rate after all: start again with a wider margin
            x = np.ones(size)
            continue
        x = x_new
    rate = float(np.max((adjacency @ x) / x))
    coo = weights.tocoo()
    spread = float(np.sum(coo.data * x[coo.col] / x[coo.row]))
    return rate, spread


def limit_grid(span: float, params: Mapping[str, Any]) -> list[tuple[float, float]]:
    """The (window in ticks, cut) cells a cycle is priced in: ``window_steps`` windows from
    ``min_window`` to ``max_window`` of ``span`` (geometric) times the cuts ``tight_cut`` and
    ``max_cut``.

    >>> limit_grid(200.0, DEFAULTS)
    [(1.0, 0.05), (1.0, 0.2), (4.472136, 0.05), (4.472136, 0.2), (20.0, 0.05), (20.0, 0.2)]
    """
    windows = window_grid(span, params)
    cuts = sorted({float(params["tight_cut"]), float(params["max_cut"])})
    return [(w, c) for w in windows for c in cuts]


class OwnAmounts:
    """Every transfer by (payer, log value): how many of an account's own payments fall in a
    band of amounts; ``prior`` is the pseudo-count of :func:`own_band_share` (``own_prior``)."""

    def __init__(self, arrays: TransferArrays, prior: float) -> None:
        self.prior = prior
        logv = np.log(arrays.value)
        self.lmin = float(logv.min()) if arrays.size else 0.0
        self.stride = (float(logv.max()) - self.lmin + 4.0) if arrays.size else 1.0
        self.key = np.sort(arrays.src * self.stride + (logv - self.lmin))
        self.paid = np.bincount(arrays.src, minlength=len(arrays.nodes))

    def share(self, payer: np.ndarray, lo: np.ndarray, hi: np.ndarray, glob: np.ndarray) -> np.ndarray:
        """:func:`own_band_share` for each payer, band ``[lo, hi]`` and graph share ``glob``."""
        base = payer * self.stride
        lo_key = base + (np.log(np.maximum(lo, 1e-300)) - self.lmin) - 1e-9
        hi_key = base + (np.log(np.maximum(hi, 1e-300)) - self.lmin) + 1e-9
        in_band = np.searchsorted(self.key, hi_key, side="right") - np.searchsorted(self.key, lo_key, side="left")
        return own_band_share(in_band - 1, self.paid[payer] - 1, glob, self.prior)


def own_band_share(in_band: Any, others: Any, glob: Any, prior: float) -> np.ndarray:
    """The chance a hop's amount falls in its band, for a payer with ``others`` payments besides
    the hop, ``in_band`` of them in the band: the larger of the graph's share ``glob`` and the
    payer's own share, shrunk towards the graph's by ``prior`` pseudo-payments (``own_prior``: a
    payer with few other payments is measured mostly against the graph's amounts, not against one
    coincidence).  A member of a savings circle pays the same dues every month: the same sum again
    is ordinary for it.

    >>> [round(float(x), 3) for x in own_band_share([11, 1, 0], [30, 5, 0], [0.02, 0.02, 0.02], 10.0)]
    [0.28, 0.08, 0.02]
    """
    in_band, others, glob = (np.asarray(x, dtype=np.float64) for x in (in_band, others, glob))
    own = (np.maximum(in_band, 0.0) + prior * glob) / (np.maximum(others, 0.0) + prior)
    shares: np.ndarray = np.maximum(glob, own)
    return shares


def cycle_p_values(arrays: TransferArrays, rows: np.ndarray, multiplicity: np.ndarray,
                   grid: list[tuple[float, float]], own: OwnAmounts, ordinary: np.ndarray | None = None) -> np.ndarray:
    """Each cycle's p-value (module rule; one cycle per row of ``rows``, its hops' transfer
    rows in order): the smallest over the cells that contain it of the chance that every
    hop after the first falls inside the cell's limits, times the cells.  A hop's amount is
    measured against the graph's amounts or its payer's own (:func:`own_band_share`),
    whichever makes it less surprising; a hop on a row marked ``ordinary`` (a standing
    relationship, :func:`standing`) counts as certain (chance 1: no evidence).  Vectorised."""
    tick, value = arrays.tick, arrays.value
    prev, nxt = rows[:, :-1], rows[:, 1:]
    gaps = (tick[nxt] - tick[prev]).max(axis=1)
    cuts = (1.0 - value[nxt] / value[prev]).max(axis=1)
    best = np.ones(rows.shape[0])
    for w, c in grid:
        fits = (gaps <= w + 1e-9) & (cuts <= c + 1e-9)
        if not fits.any():
            continue
        lo, hi = value[prev] * (1.0 - c), value[prev]
        q = arrays.tick_mass(tick[prev], tick[prev] + w) * own.share(arrays.src[nxt], lo, hi, arrays.value_mass(lo, hi))
        chance = -np.expm1(multiplicity[nxt] * np.log1p(-np.minimum(q, 1 - 1e-16)))
        if ordinary is not None:
            chance = np.where(ordinary[nxt], 1.0, chance)
        best = np.where(fits, np.minimum(best, chance.prod(axis=1)), best)
    return np.minimum(1.0, best * len(grid))


_NULL = ("the graph's own transfers with ticks and amounts shuffled among them: the chance that each hop "
         "follows the one before as soon and keeps as much of its value, multiplied over the hops")


def value_cycles(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Flag], list[str]]:
    """Value-cycle flags (module rule), and a note when the search was cut short."""
    arrays = arrays_of(view, params)
    cycles, truncated = find_value_cycles(arrays, params)
    notes = []
    if truncated:
        notes.append(f"value_cycles: the search stopped before holding more than {int(params['max_states'])} "
                     "partial chains; longer cycles may be missed")
    if not cycles:
        return [], notes
    counts = candidate_cycles(arrays, int(params["max_length"]), None, int(params["exact_length"]))
    alpha = float(params["alpha"])
    exact = int(params["exact_length"])
    share = float(params["long_share"])
    short = sum(1 for length in counts if length <= exact)
    long_ = len(counts) - short
    flags = []
    for c in cycles:
        length = len(c.rows)
        if long_ == 0:
            lengths = float(short)
        elif length <= exact:
            lengths = short / (1.0 - share)
        else:
            lengths = long_ / share
        family = lengths * counts[length] if counts[length] < _BEYOND_A_DOUBLE else math.inf
        if not math.isfinite(family):
            continue  # more tests than a double counts: the cycle is not flagged (the strict side)
        tests = int(math.ceil(family))
        if c.p_value <= alpha / tests:
            flags.append(_flag(arrays, c, tests, alpha))
    return flags, notes


def _percent(share: float) -> str:
    """A share as a percentage of two significant digits, never rounded to nothing.

    >>> _percent(0.002), _percent(0.05), _percent(0.1234), _percent(0.0)
    ('0.2%', '5%', '12%', '0%')
    """
    return f"{100 * share:.2g}%"


def _flag(arrays: TransferArrays, cycle: ValueCycle, tests: int, alpha: float) -> Flag:
    nodes = arrays.nodes
    members = tuple(nodes[i] for i in cycle.nodes)
    values = [float(arrays.value[r]) for r in cycle.rows]
    ticks = [float(arrays.tick[r]) for r in cycle.rows]
    cuts = [1 - values[i] / values[i - 1] for i in range(1, len(values))]
    route = " -> ".join(map(str, (*members, members[0])))
    return Flag(
        screen="value_cycles",
        kind="value_cycle",
        level="flag",
        agents=members,
        pairs=tuple(ordered(pair_key(members[i], members[(i + 1) % len(members)]) for i in range(len(members)))),
        score=-math.log10(max(cycle.p_value, 1e-300)),
        threshold=-math.log10(alpha / tests),
        evidence=tuple(ordered({arrays.event[r] for r in cycle.rows})),
        explanation=(
            f"{values[0]:g} went round {route} from {arrays.when(ticks[0])} to {arrays.when(ticks[-1], word=False)}, each hop soon after the one "
            f"before and keeping at most {_percent(max(cuts))} of it, and {values[-1]:g} came back; chance under "
            f"shuffled ticks and amounts p = {cycle.p_value:.2g} ({tests} candidate cycles of its length and "
            f"the other lengths' share of the error)."
        ),
        details={"values": values, "ticks": ticks, "cuts": [round(c, 6) for c in cuts], "hops": len(values)},
        p_value=cycle.p_value,
        null=_NULL,
        tests=tests,
    )
