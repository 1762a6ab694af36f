"""The transfers of a graph as numpy arrays, and the graph's own null for the typology screens.

The typology screens (:mod:`~daishi_forensics.screens.fans`,
:mod:`~daishi_forensics.screens.scatter_gather`,
:mod:`~daishi_forensics.screens.value_cycles`) need only ``value`` and ``tick`` on each
edge, so they run on any transfer data: a bank's payments as well as a Daishi match.
They read the graph once into :class:`TransferArrays` (one row per transfer of known,
positive value between two screened nodes, voluntary or not: money moved either way).

**The null** every typology statistic is tested against is built from the same graph:
the *permutation null*, in which the structure (who paid whom, how often) is kept and
the ticks and the values of all transfers are shuffled among the transfers, each
independently.  Under it a transfer's tick is a draw from the graph's own ticks and its
value a draw from the graph's own values, so the chance that a transfer lands in a time
window ``[t, t + w]`` is the share of the graph's transfers whose tick is in that window
(:meth:`TransferArrays.tick_mass`), and the chance that it lands in a value band is the
share of transfers whose value is in it (:meth:`TransferArrays.value_mass`).  These shares
are exact for the permutation (up to drawing with replacement), so the screens compute
their p-values in closed form: no random draws, the same bytes on every run, and no
floor of ``1 / (draws + 1)`` on how small a p-value can be.

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> for i in range(4):
...     _ = G.add_edge(f"s{i}", "h", value=10.0 + i, tick=i, event=i)
>>> arrays = transfer_arrays(G)
>>> arrays.size, float(arrays.tick_mass(0.0, 1.0)), float(arrays.value_mass(10.0, 11.5))
(4, 0.5, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import networkx as nx
import numpy as np

from .errors import ScreenInputError

__all__ = ["PaymentIndex", "TransferArrays", "arrays_from", "fair_exchange", "net_trades", "poisson_tail",
           "step_up_cutoff", "transfer_arrays"]


@dataclass(frozen=True, eq=False)
class TransferArrays:
    """Every screened transfer of a graph, one row each, in edge order."""

    nodes: tuple[Any, ...]
    """Node ids; ``src``/``dst`` index into it (graph order)."""
    src: np.ndarray
    """Payer of each transfer (int index into ``nodes``)."""
    dst: np.ndarray
    """Payee of each transfer."""
    tick: np.ndarray
    """When (float)."""
    value: np.ndarray
    """Value moved (float, > 0)."""
    event: tuple[Any, ...]
    """The event id behind each transfer (what a flag cites)."""
    sorted_ticks: np.ndarray
    """Every tick, sorted: the graph's own time distribution."""
    sorted_values: np.ndarray
    """Every value, sorted: the graph's own value distribution."""
    dated: bool = False
    """Whether the ticks are dates (seconds since 1970-01-01 UTC, as a table of ISO 8601 times is
    read): explanations then name times as dates and spans in minutes, hours or days."""

    def when(self, t: float, *, word: bool = True) -> str:
        """A time as an explanation names it: ``tick 12`` (``12`` without ``word``), or the date.

        >>> from dataclasses import replace
        >>> a = arrays_from((0, 1), [0], [1], [0.0], [1.0], [0])
        >>> a.when(12.0), a.when(12.0, word=False), replace(a, dated=True).when(1704593940.0)
        ('tick 12', '12', '2024-01-07T02:19:00Z')

        A tick keeps every digit that tells it from its neighbours (a table's epoch seconds or milliseconds
        were all ``1.70925e+09``); a date keeps its milliseconds when it has some:

        >>> a.when(1709251250.0), a.when(1709251200123.0, word=False), a.when(2.5), a.when(0.1 + 0.2)
        ('tick 1709251250', '1709251200123', 'tick 2.5', 'tick 0.3')
        >>> replace(a, dated=True).when(1709251200.05), replace(a, dated=True).when(1709251200.0004)
        ('2024-03-01T00:00:00.050Z', '2024-03-01T00:00:00Z')
        """
        if not self.dated:
            return f"tick {t:.15g}" if word else f"{t:.15g}"
        whole = math.floor(t)
        ms = round((t - whole) * 1000)
        if ms == 1000:
            whole, ms = whole + 1, 0
        moment = datetime.fromtimestamp(whole, tz=timezone.utc)
        return moment.strftime("%Y-%m-%dT%H:%M:%S") + (f".{ms:03d}Z" if ms else "Z")

    def during(self, d: float) -> str:
        """A span of time as an explanation names it: ``20 ticks``, or seconds to days.

        >>> a = arrays_from((0, 1), [0], [1], [0.0], [1.0], [0], dated=True)
        >>> a.during(30.0), a.during(2999.1), a.during(36000.0), a.during(3 * 86400.0)
        ('30 seconds', '50 minutes', '10 hours', '3 days')
        """
        if not self.dated:
            return f"{d:g} ticks"
        for unit, size in (("days", 86400.0), ("hours", 3600.0), ("minutes", 60.0)):
            if d >= 2 * size:
                return f"{d / size:.3g} {unit}"
        return f"{d:.3g} seconds"

    @property
    def size(self) -> int:
        """Number of transfers."""
        return int(self.src.shape[0])

    @property
    def span(self) -> float:
        """Ticks from the first transfer to the last (0 when fewer than two distinct ticks)."""
        return float(self.sorted_ticks[-1] - self.sorted_ticks[0]) if self.size else 0.0

    def tick_mass(self, lo: Any, hi: Any) -> np.ndarray:
        """Share of the graph's transfers whose tick is in ``[lo, hi]`` (vectorised)."""
        st = self.sorted_ticks
        inside = np.searchsorted(st, hi, side="right") - np.searchsorted(st, lo, side="left")
        mass: np.ndarray = inside / max(self.size, 1)
        return mass

    def value_mass(self, lo: Any, hi: Any) -> np.ndarray:
        """Share of the graph's transfers whose value is in ``[lo, hi]`` (vectorised)."""
        sv = self.sorted_values
        inside = np.searchsorted(sv, hi, side="right") - np.searchsorted(sv, lo, side="left")
        mass: np.ndarray = inside / max(self.size, 1)
        return mass


class PaymentIndex:
    """Every transfer by (payer, tick): what an account paid within a window after a tick."""

    def __init__(self, arrays: TransferArrays, window: float) -> None:
        self.arrays = arrays
        self.window = window
        self.order = np.lexsort((np.arange(arrays.size), arrays.tick, arrays.src))
        self.stride = arrays.span * 2 + window + 2
        self.t0 = float(arrays.sorted_ticks[0]) if arrays.size else 0.0
        self.key = arrays.src[self.order] * self.stride + (arrays.tick[self.order] - self.t0)

    def spans(self, payer: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each ``(payer, after)``: the positions ``[lo, hi)`` in :attr:`order` of the payer's
        transfers with a tick in ``[after, after + window]``."""
        lo = np.searchsorted(self.key, payer * self.stride + (after - self.t0), side="left")
        hi = np.searchsorted(self.key, payer * self.stride + (after + self.window - self.t0), side="right")
        return lo, hi

    def following(self, rows: np.ndarray, limit: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
        """Every pair ``(i, next)``: ``next`` a transfer paid by the payee of ``rows[i]`` within the window
        after it (same tick allowed), as index arrays; None when there would be more than ``limit``."""
        lo, hi = self.spans(self.arrays.dst[rows], self.arrays.tick[rows])
        lengths = hi - lo
        total = int(lengths.sum())
        if limit is not None and total > limit:
            return None
        parent = np.repeat(np.arange(rows.shape[0]), lengths)
        offset = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        return parent, self.order[lo[parent] + offset]


def transfer_arrays(graph: nx.MultiDiGraph, exempt: Iterable[Any] = ()) -> TransferArrays:
    """Read ``graph`` into :class:`TransferArrays`.

    Kept: every edge between two distinct nodes, neither of them ``exempt``, whose
    ``value`` is known and positive (a transfer of nothing or of unknown value moves no
    money a typology could follow).  Raises :class:`ScreenInputError` (naming the edge
    and the attribute) when ``value`` or ``tick`` is not a finite number.
    """
    skip = frozenset(exempt)
    nodes = tuple(graph.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    src: list[int] = []
    dst: list[int] = []
    ticks: list[float] = []
    values: list[float] = []
    events: list[Any] = []
    isfinite = math.isfinite
    for u, v, data in graph.edges(data=True):
        value = data.get("value")
        tick = data.get("tick")
        if isinstance(tick, bool) or not isinstance(tick, (int, float)) or not isfinite(tick):
            raise ScreenInputError(f"edge {u!r} -> {v!r}: 'tick' must be a finite number, not {tick!r}")
        if value is None or u == v or u in skip or v in skip:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not isfinite(value):
            raise ScreenInputError(f"edge {u!r} -> {v!r}: 'value' must be a finite number, not {value!r}")
        if value <= 0:
            continue
        if "event" not in data:
            raise ScreenInputError(f"edge {u!r} -> {v!r}: no 'event'")
        src.append(index[u])
        dst.append(index[v])
        ticks.append(float(tick))
        values.append(float(value))
        events.append(data["event"])
    return arrays_from(nodes, src, dst, ticks, values, events, dated=bool(graph.graph.get("tick_dates")))


def arrays_from(nodes: tuple[Any, ...], src: list[int], dst: list[int], ticks: list[float], values: list[float],
                events: list[Any], *, dated: bool = False) -> TransferArrays:
    """:class:`TransferArrays` from the columns of the kept transfers, in edge order (``src``/``dst``
    index into ``nodes``)."""
    tick_arr = np.asarray(ticks, dtype=np.float64)
    value_arr = np.asarray(values, dtype=np.float64)
    return TransferArrays(nodes, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64), tick_arr,
                          value_arr, tuple(events), np.sort(tick_arr), np.sort(value_arr), dated)


def fair_exchange(gave: float, got: float, fair_ratio: float) -> bool:
    """Whether an exchange whose two sides are worth ``gave`` and ``got`` is fair: neither more than ``fair_ratio``
    times the other (the price band every screen reads as fair; the typical exchange value is read from fair ones).

    >>> fair_exchange(6.0, 5.0, 2.0), fair_exchange(18.0, 9.0, 2.0), fair_exchange(12.0, 2.0, 2.0)
    (True, True, False)
    """
    return max(gave, got) <= fair_ratio * min(gave, got)


def net_trades(arrays: TransferArrays, keys: Sequence[Any], unvalued: Collection[Any],
               fair_ratio: float) -> TransferArrays:
    """``arrays`` with each trade read as one transfer (the typologies' reading of a match's exchanges).

    ``keys`` gives each row the exchange it is a leg of, ``(exchange, i, j)`` with ``i < j`` the two nodes'
    indices, or None (a plain payment, a forced act).  A *trade* is an exchange with legs both ways: its two sides
    are one swap, not a payment in and a payment out.  It moves nothing when it is fair (the larger side at most
    ``fair_ratio`` times the smaller, the price band every screen reads as fair), else its net value, from the side
    that gave more to the other, at its earliest leg's tick, citing that side's first leg's event, in the place of
    its first leg.  A gift (legs one way), a forced act, a payment and an exchange in ``unvalued`` (a leg of unknown
    value: its sides cannot be weighed) stay as they are.

    >>> src, dst = [0, 1, 0, 1, 2], [1, 0, 1, 0, 1]  # a fair trade, an unfair one (18 for 4), a gift
    >>> arrays = arrays_from(("a", "b", "c"), src, dst, [3.0, 3.0, 5.0, 6.0, 7.0], [9.0, 8.0, 18.0, 4.0, 2.0],
    ...                      ["e1", "e2", "e3", "e4", "e5"])
    >>> net = net_trades(arrays, [("t1", 0, 1), ("t1", 0, 1), ("t2", 0, 1), ("t2", 0, 1), ("g", 1, 2)], (), 2.0)
    >>> [(net.nodes[s], net.nodes[d], float(t), float(v), e)
    ...  for s, d, t, v, e in zip(net.src, net.dst, net.tick, net.value, net.event)]
    [('a', 'b', 5.0, 14.0, 'e3'), ('c', 'b', 7.0, 2.0, 'e5')]
    """
    rows_of: dict[Any, list[int]] = {}
    for row, key in enumerate(keys):
        if key is not None and key not in unvalued:
            rows_of.setdefault(key, []).append(row)
    src, dst, tick, value, event = arrays.src, arrays.dst, arrays.tick, arrays.value, arrays.event
    dropped: set[int] = set()
    placed: dict[int, tuple[int, int, float, float, Any]] = {}
    for (_exchange, i, j), rows in rows_of.items():
        if len(rows) < 2:
            continue
        gave_i = gave_j = 0.0
        for r in rows:
            if src[r] == i:
                gave_i += float(value[r])
            else:
                gave_j += float(value[r])
        if gave_i == 0.0 or gave_j == 0.0:
            continue  # legs one way: a gift
        dropped.update(rows)
        if fair_exchange(gave_i, gave_j, fair_ratio):
            continue  # a fair trade moves nothing
        more, less = (gave_i, gave_j) if gave_i >= gave_j else (gave_j, gave_i)
        giver, taker = (i, j) if gave_i > gave_j else (j, i)
        first = next(r for r in rows if src[r] == giver)
        placed[rows[0]] = (giver, taker, min(float(tick[r]) for r in rows), more - less, event[first])
    if not dropped:
        return arrays
    new_src: list[int] = []
    new_dst: list[int] = []
    new_tick: list[float] = []
    new_value: list[float] = []
    new_event: list[Any] = []
    for r in range(arrays.size):
        kept = placed.get(r)
        if kept is None:
            if r in dropped:
                continue
            kept = (int(src[r]), int(dst[r]), float(tick[r]), float(value[r]), event[r])
        new_src.append(kept[0])
        new_dst.append(kept[1])
        new_tick.append(kept[2])
        new_value.append(kept[3])
        new_event.append(kept[4])
    return arrays_from(arrays.nodes, new_src, new_dst, new_tick, new_value, new_event, dated=arrays.dated)


def poisson_tail(k: Any, lam: Any) -> np.ndarray:
    """``P(X >= k)`` for ``X ~ Poisson(lam)`` (vectorised; 1 where ``k <= 0``).

    The count of chance coincidences among many unlikely, independent events (each
    counterparty landing in a window by chance) is close to Poisson; its tail is the
    p-value of a count at least that large.

    >>> [round(float(p), 6) for p in poisson_tail([0, 1, 3], 0.5)]
    [1.0, 0.393469, 0.014388]
    """
    from scipy.special import pdtrc

    k_arr = np.asarray(k, dtype=np.float64)
    lam_arr = np.maximum(np.asarray(lam, dtype=np.float64), 1e-300)
    out = np.where(k_arr <= 0, 1.0, pdtrc(np.maximum(k_arr - 1, 0), lam_arr))
    return np.asarray(out, dtype=np.float64)


def step_up_cutoff(p_values: Iterable[float], tests: int, alpha: float) -> float:
    """The Benjamini-Hochberg cut-off: the largest ``alpha * k / tests`` that the ``k``-th smallest
    p-value meets (0.0 when none does).  Flagging every candidate at or below it keeps the
    false-discovery rate at most ``alpha`` over ``tests`` tests (candidates not listed had
    larger p-values); where nothing is to be found, the chance of any flag is at most
    ``alpha``, as with Bonferroni.

    >>> step_up_cutoff([0.001, 0.004, 0.2], tests=10, alpha=0.05)
    0.01
    >>> step_up_cutoff([0.02], tests=10, alpha=0.05)
    0.0
    """
    ranked = sorted(float(p) for p in p_values)
    cutoff = 0.0
    for k, p in enumerate(ranked, start=1):
        if p <= alpha * k / max(tests, 1):
            cutoff = alpha * k / max(tests, 1)
    return cutoff
