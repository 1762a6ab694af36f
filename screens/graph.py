"""The transfer graph every screen reads, and the one view of it the screens share.

The input of every screen is a plain :class:`networkx.MultiDiGraph` of transfers.
Nothing in it is Daishi-specific, so a bank's transactions or another game's trades
screen the same way; the Daishi match is one adapter
(:func:`daishi_forensics.economy.transfers.transfer_graph`).

**Edges.**  One edge ``u -> v`` per transfer: value moved from ``u`` to ``v``.

=============  ===========================================================================
attribute      meaning
=============  ===========================================================================
``value``      required: value moved, a number >= 0, or ``None`` when it is unknown (an item
               without a reference value); screens that need value leave such a transfer out
               and say so ("not screened: ...").
``tick``       required: when (a number; only its order matters).
``event``      required: the id of the event behind it (the evidence a flag cites).
``kind``       ``trade`` (default: a leg of a voluntary exchange), ``gift``, or a *forced*
               kind: ``raid``, ``theft``, ``take`` (value taken from ``u`` by ``v``) or
               ``attack`` (``v`` attacked ``u``; ``value`` 0).  A forced edge always runs
               victim -> aggressor, the way value goes.
``exchange``   the legs of one exchange share it (default: ``event``): a trade is two legs,
               a gift one.
``goods``      ``{good: value}`` the leg carried (default ``{"*": value}``: one fungible good).
               Wash trading is the *same goods* going back and forth, so it is read here.
``events``     every event id behind the transfer (default ``(event,)``).
``present``    (forced edges, optional) the nodes that stood where it happened, the actor
               excluded: whom else it could have hit (the cartel screen counts the acts
               done with a fellow member within reach).
=============  ===========================================================================

**Nodes** may carry ``operator``, ``model``, ``role`` and ``exempt`` (True: a scripted
seat, such as a Daishi probe, never screened as a colluder).

**Graph attributes** (all optional): ``contact`` ``{(a, b): ticks together}`` (co-location;
the cartel screen needs it), ``ticks`` (length of the match), ``ranked`` (bool),
``name`` (match id), ``circular_reputation`` ``{node: points}``, ``not_screened``
(notes from the adapter), ``scripted_roles``.

:class:`TransferView` reads the graph once: per pair, the voluntary exchanges and the
forced acts between them; the typical exchange value of the match (the scale every
value threshold is measured in).

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> _ = G.add_edge("a", "b", value=6.0, tick=1, event=1, exchange="t1", goods={"wood": 6.0})
>>> _ = G.add_edge("b", "a", value=6.0, tick=1, event=1, exchange="t1", goods={"food": 6.0})
>>> view = TransferView(G)
>>> view.pair("b", "a").gave, view.scale
({'a': 6.0, 'b': 6.0}, 6.0)
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from statistics import median
from typing import Any, TypeVar, cast

import networkx as nx

from .errors import ScreenInputError
from .flags import ordered
from .transfer_arrays import arrays_from, fair_exchange

_T = TypeVar("_T")

__all__ = [
    "FORCED_KINDS",
    "Act",
    "Exchange",
    "PairFlow",
    "ScreenInputError",
    "TransferView",
    "combine_graphs",
    "net_share_of_goods",
    "net_transfer_graph",
]

FORCED_KINDS: frozenset[str] = frozenset({"raid", "theft", "take", "attack"})
"""Edge kinds that are forced (victim -> aggressor); every other kind is voluntary."""

ANY_GOOD = "*"
"""The one fungible good of an edge without ``goods``."""


def _leg_key(exchange: Any, i: int, j: int) -> tuple[Any, int, int]:
    """The exchange a leg between nodes ``i`` and ``j`` (indices) belongs to, the same either way round."""
    return (exchange, i, j) if i < j else (exchange, j, i)


@dataclass(slots=True)
class _TypologyRows:
    """The typologies' transfers as a view reads them, a column each, and the exchange each row is a leg of
    (``(exchange, i, j)`` with ``i < j`` the nodes' indices; None: a plain payment or a forced act)."""

    src: list[int] = field(default_factory=list)
    dst: list[int] = field(default_factory=list)
    ticks: list[float] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)
    keys: list[Any] = field(default_factory=list)

    def store(self, memo: dict[Any, Any], graph: nx.MultiDiGraph, unvalued: frozenset[Any]) -> None:
        """Into a view's memo: the arrays (``transfer_arrays``) and, for reading each trade as one transfer, the rows'
        exchanges and those with a leg of unknown value (``transfer_legs``)."""
        memo[("transfer_arrays",)] = arrays_from(tuple(graph.nodes), self.src, self.dst, self.ticks, self.values,
                                                 self.events, dated=bool(graph.graph.get("tick_dates")))
        memo[("transfer_legs",)] = (tuple(self.keys), unvalued)


@dataclass(slots=True)
class Exchange:
    """One voluntary exchange between ``a`` and ``b`` (``a < b``): a trade, or a gift."""

    a: Any
    b: Any
    tick: float
    """The earliest tick of its legs."""
    key: Any
    """Its ``exchange`` key."""
    gave: dict[Any, float] = field(default_factory=dict)
    """``{a: value a gave, b: value b gave}`` (known values only)."""
    goods: dict[Any, dict[Any, float]] = field(default_factory=dict)
    """``{a: {good: value a gave}, b: {...}}``."""
    legs: dict[Any, int] = field(default_factory=dict)
    """``{a: legs a gave, b: legs b gave}``: a side with a leg gave goods, valued or not."""
    events: tuple[Any, ...] = ()
    """Every event id behind it, each once, in order (:func:`~daishi_forensics.screens.flags.ordered`)."""
    unvalued: bool = False
    """A leg's value is unknown."""

    @property
    def two_sided(self) -> bool:
        """Goods went both ways (a trade, not a gift)."""
        return self.legs.get(self.a, 0) > 0 and self.legs.get(self.b, 0) > 0

    def given_by(self, node: Any) -> float:
        """Value ``node`` handed over in it."""
        return self.gave.get(node, 0.0)

    def other(self, node: Any) -> Any:
        """The other party."""
        return self.b if node == self.a else self.a


@dataclass(frozen=True, slots=True)
class Act:
    """One forced transfer: ``aggressor`` raided, stole from or attacked ``victim``."""

    aggressor: Any
    victim: Any
    tick: float
    value: float | None
    """Value taken (0 for an attack; None when unknown)."""
    kind: str
    event: Any
    events: tuple[Any, ...]
    present: tuple[Any, ...] | None
    """Nodes that stood there (actor excluded), when the graph says."""


@dataclass(slots=True)
class PairFlow:
    """Everything between two nodes ``a < b``."""

    a: Any
    b: Any
    exchanges: list[Exchange] = field(default_factory=list)
    """Voluntary exchanges, in time order (after :meth:`TransferView` finishes)."""
    gave: dict[Any, float] = field(default_factory=dict)
    """Voluntary value each side gave the other."""
    goods: dict[Any, dict[Any, float]] = field(default_factory=dict)
    """Voluntary goods each side gave the other: ``{side: {good: value}}``."""
    acts: list[Act] = field(default_factory=list)
    """Forced acts between them, either way, in time order."""

    def other(self, node: Any) -> Any:
        """The other node of the pair."""
        return self.b if node == self.a else self.a

    def net_from(self, node: Any) -> float:
        """Voluntary value ``node`` gave minus what it got back."""
        return self.gave.get(node, 0.0) - self.gave.get(self.other(node), 0.0)

    @property
    def gross(self) -> float:
        """Voluntary value moved both ways."""
        return self.gave.get(self.a, 0.0) + self.gave.get(self.b, 0.0)

    @property
    def two_sided(self) -> int:
        """Exchanges with goods both ways."""
        return sum(1 for x in self.exchanges if x.two_sided)

    def acts_by(self, aggressor: Any) -> list[Act]:
        """Forced acts ``aggressor`` did to the other."""
        return [act for act in self.acts if act.aggressor == aggressor]

    @property
    def net_share(self) -> float:
        """Net share of the pair's voluntary goods (rubric *Trade ledger*, by value)."""
        return net_share_of_goods(self.goods.get(self.a, {}), self.goods.get(self.b, {}))


def net_share_of_goods(gave: Mapping[Any, float], got: Mapping[Any, float]) -> float:
    """Rubric 2.4 *Trade ledger* net share, on goods already valued.

    For each good, ``|got - gave|`` over ``got + gave``, summed, divided: 1 means every good
    moved one way (wood for food), 0 that the same goods went back and forth.  (The rubric
    multiplies quantities by the item value; value per good is the same product.)  Unrounded;
    0.0 when nothing of value moved.

    >>> net_share_of_goods({"wood": 6.0}, {"food": 6.0}), net_share_of_goods({"wood": 6.0}, {"wood": 6.0})
    (1.0, 0.0)
    """
    num = 0.0
    den = 0.0
    for good in ordered(set(gave) | set(got)):
        x, y = gave.get(good, 0.0), got.get(good, 0.0)
        num += abs(x - y)
        den += x + y
    return num / den if den > 0 else 0.0


def _number(value: Any, what: str, edge: tuple[Any, Any], allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ScreenInputError(f"edge {edge[0]!r} -> {edge[1]!r}: '{what}' must be a finite number, not {value!r}")
    return float(value)


@contextmanager
def _no_gc() -> Iterator[None]:
    """The cyclic garbage collector paused while a graph is read: reading allocates many small
    containers that live as long as the view, and the collector would walk them again and again
    (a third of the read, on a graph of 100,000 transfers).  Restored as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _exchange_order(x: Exchange) -> tuple[float, str]:
    return (x.tick, repr(x.key))


def _act_order(act: Act) -> tuple[float, str]:
    return (act.tick, repr(act.event))


class TransferView:
    """One read of a transfer graph, shared by every screen (see the module conventions).

    Attributes: ``graph``; ``nodes`` (sorted); ``pairs`` ``{(a, b): PairFlow}``;
    ``acts`` (every forced act, in time order); ``exchanges`` (every voluntary exchange);
    ``scale`` (the typical exchange value, or None); ``contact`` (``{(a, b): ticks}`` or None);
    ``ticks``; ``exempt`` (nodes never screened as colluders); ``unvalued_events``.
    """

    def __init__(self, graph: nx.MultiDiGraph, *, exempt_roles: Iterable[str] = (),
                 fair_ratio: float = 2.0,
                 flows: tuple[Iterable[Exchange], Iterable[Act], Iterable[Any],
                              Iterable[tuple[Any, Any, float, float, Any, Any]]] | None = None) -> None:
        """Read ``graph``.

        ``flows``, when given, is what reading the graph's edges would give, made by an
        adapter that builds them itself (the graph then holds the nodes and attributes
        only): ``(exchanges, acts, unvalued event ids, payments)``, the exchanges and acts in the
        order the edges would have made them, and every edge of value above 0 between two nodes as
        ``(u, v, tick, value, event, exchange)`` in edge order (``exchange`` None for a forced act), the transfers
        the money-laundering typologies read
        (see :func:`daishi_forensics.economy.transfers.transfer_view`)."""
        if not isinstance(graph, nx.MultiDiGraph):
            raise ScreenInputError(f"a transfer graph is a networkx.MultiDiGraph, not {type(graph).__name__}")
        self.graph = graph
        self.nodes: list[Any] = ordered(graph.nodes)
        self._rank = {n: i for i, n in enumerate(self.nodes)}
        roles = set(exempt_roles)
        self.exempt: frozenset[Any] = frozenset(
            n for n, d in graph.nodes(data=True)
            if d.get("exempt") or (isinstance(d.get("role"), str) and d.get("role") in roles)  # a role is a name
        )
        self._pairs: dict[tuple[Any, Any], PairFlow] = {}
        self.acts: list[Act] = []
        """Every forced act, in time order."""
        self.unvalued_events: set[Any] = set()
        """Event ids of transfers whose value is unknown."""
        self.described: bool = False
        """Whether any voluntary transfer says what it was (``kind``, ``exchange`` or ``goods``):
        without any, the graph is plain payments, one way by nature, and the screens that read
        one-way flow between traders (feeder, ring, off_price, pair_outlier, operator) have
        nothing to read."""
        self.voluntary: int = 0
        """Voluntary transfers between two distinct nodes (trades, gifts, payments)."""
        self._fair_ratio = fair_ratio
        self._exchanges: list[Exchange] | None = None
        self._scale: float | None = None
        self.memo: dict[Any, Any] = {}
        """What the screens derive from the view and share, computed once (keyed by screen and
        parameters); it lives as long as the view."""
        if flows is None:
            with _no_gc():
                self._scan(graph)
        else:
            read, acts, unvalued, payments = flows
            self.described = True  # flows read from a match: every exchange is a trade or a gift
            self.acts.extend(acts)
            self.unvalued_events.update(unvalued)
            read = list(read)
            self._payments(graph, payments, [(x.key, x.a, x.b) for x in read if x.unvalued])
            self.voluntary = len(read)
            self._finish(read)
        raw_contact = graph.graph.get("contact")
        self.contact: dict[tuple[Any, Any], float] | None = None
        if isinstance(raw_contact, Mapping):
            self.contact = {}
            for (x, y), ticks in raw_contact.items():
                if x != y and ticks:
                    self.contact[self.key(x, y)] = float(ticks)
        ticks = graph.graph.get("ticks")
        self.ticks: float | None = float(ticks) if isinstance(ticks, (int, float)) and ticks > 0 else None

    # -- the per-pair structures, built when a screen first asks -------------------------

    @property
    def pairs(self) -> dict[tuple[Any, Any], PairFlow]:
        """``{(a, b): PairFlow}`` (``a < b``): every pair that exchanged or fought."""
        if self._exchanges is None:
            self._build()
        return self._pairs

    @property
    def exchanges(self) -> list[Exchange]:
        """Every voluntary exchange, in time order."""
        if self._exchanges is None:
            self._build()
        assert self._exchanges is not None
        return self._exchanges

    @property
    def scale(self) -> float | None:
        """The typical exchange value of the match (:func:`typical_exchange_value`), or None."""
        if self._exchanges is None:
            self._build()
        return self._scale

    def _build(self) -> None:
        """Group the voluntary transfers into exchanges and pairs (the exchange screens read them;
        the typologies read the arrays made by the first pass, so plain payments never pay for this)."""
        exchanges: dict[tuple[Any, Any, Any], Exchange] = {}
        events_of: dict[tuple[Any, Any, Any], set[Any]] = {}
        exchange = self._exchange_leg
        with _no_gc():
            for u, v, data in self.graph.edges(data=True):  # checked by the first pass already
                if u == v or data.get("kind", "trade") in FORCED_KINDS:
                    continue
                value = data["value"]
                exchange(u, v, data, None if value is None else float(value), float(data["tick"]), exchanges, events_of)
        for xkey, x in exchanges.items():
            x.events = tuple(ordered(events_of[xkey]))
        self._finish(list(exchanges.values()))

    def _finish(self, read: list[Exchange]) -> None:
        for act in self.acts:  # the pairs that fought first, in the order of their acts (edge order)
            self._pair(act.victim, act.aggressor).acts.append(act)
        pairs = self._pairs
        rank = self._rank
        for x in read:
            a, b = x.a, x.b
            pair = pairs.get((a, b))
            if pair is None:
                pair = pairs[(a, b)] = PairFlow(a, b)
            pair.exchanges.append(x)
            gave, goods = x.gave, x.goods
            for side in (a, b):
                pair.gave[side] = pair.gave.get(side, 0.0) + gave.get(side, 0.0)
                mine = pair.goods.get(side)
                if mine is None:
                    mine = pair.goods[side] = {}
                given = goods.get(side)
                if given:
                    for good, val in given.items():
                        mine[good] = mine.get(good, 0.0) + val
        for pair in pairs.values():
            pair.exchanges.sort(key=_exchange_order)
            pair.acts.sort(key=_act_order)
        self.acts.sort(key=_act_order)
        self._exchanges = sorted(read, key=lambda x: (x.tick, repr(x.key), rank[x.a], rank[x.b]))
        self._scale = typical_exchange_value(self._exchanges, self._fair_ratio)

    # -- building ----------------------------------------------------------------------

    def key(self, x: Any, y: Any) -> tuple[Any, Any]:
        """The pair ``(x, y)`` with the smaller node first."""
        rx, ry = self._rank.get(x), self._rank.get(y)
        if rx is None or ry is None:
            first, second = ordered([x, y])
            return (first, second)
        return (x, y) if rx < ry else (y, x)

    def _pair(self, x: Any, y: Any) -> PairFlow:
        k = self.key(x, y)
        pair = self._pairs.get(k)
        if pair is None:
            pair = self._pairs[k] = PairFlow(k[0], k[1])
        return pair

    def _scan(self, graph: nx.MultiDiGraph) -> None:
        """The one pass over the edges: check each (naming the edge and the attribute), keep the
        forced acts, the unknown values and whether any transfer says what it was, set the
        voluntary ones aside for :meth:`_build`, and make the typologies' arrays
        (:func:`~daishi_forensics.screens.transfer_arrays.transfer_arrays`: every transfer of known,
        positive value between two screened nodes) in the same pass."""
        exempt = self.exempt
        index = {n: i for i, n in enumerate(graph.nodes)}
        rows = _TypologyRows()
        add_src, add_dst, add_tick, add_value, add_event, add_key = (rows.src.append, rows.dst.append,
                                                                     rows.ticks.append, rows.values.append,
                                                                     rows.events.append, rows.keys.append)
        unvalued_trades: set[Any] = set()  # exchanges with a leg of unknown value
        unvalued = self.unvalued_events
        described = False
        forced = 0
        loops = 0
        isfinite = math.isfinite
        for u, v, data in graph.edges(data=True):
            try:
                event, raw_tick, value = data["event"], data["tick"], data["value"]
            except KeyError:
                for name, what in (("event", "no 'event' (a flag needs evidence)"), ("tick", "no 'tick'"),
                                   ("value", "no 'value'")):
                    if name not in data:
                        raise ScreenInputError(f"edge {u!r} -> {v!r} has {what}") from None
                raise
            if type(value) is not float or value - value != 0.0:  # else: a finite float, as it stands
                value = _number(value, "value", (u, v), allow_none=True)
            if value is not None and value < 0:
                raise ScreenInputError(f"edge {u!r} -> {v!r}: 'value' must be >= 0, not {value!r}")
            if type(raw_tick) is int:
                tick = float(raw_tick)
            elif type(raw_tick) is float and isfinite(raw_tick):
                tick = raw_tick
            else:
                tick = _number(raw_tick, "tick", (u, v))  # type: ignore[assignment]
            if u == v:
                loops += 1
                continue  # a node moving value to itself moves nothing between agents
            plain = len(data) == 3  # value, tick and event only: a plain payment
            kind = "trade" if plain else data.get("kind", "trade")
            if value is None:
                unvalued.update(data.get("events") or (event,))
                if not plain and kind not in FORCED_KINDS:
                    unvalued_trades.add(_leg_key(data.get("exchange", event), index[u], index[v]))
            elif value > 0 and u not in exempt and v not in exempt:
                iu, iv = index[u], index[v]
                add_src(iu)
                add_dst(iv)
                add_tick(tick)
                add_value(value)
                add_event(event)
                add_key(None if plain or kind in FORCED_KINDS else _leg_key(data.get("exchange", event), iu, iv))
            if plain:
                continue
            if not described and ("kind" in data or "exchange" in data or "goods" in data):
                described = kind not in FORCED_KINDS or "exchange" in data or "goods" in data
            if kind in FORCED_KINDS:
                present = data.get("present")
                self.acts.append(Act(aggressor=v, victim=u, tick=tick, value=value, kind=kind, event=event,
                                     events=tuple(data.get("events") or (event,)),
                                     present=tuple(present) if present is not None else None))
                forced += 1
        voluntary = graph.number_of_edges() - loops - forced
        self.described = described
        self.voluntary = voluntary
        rows.store(self.memo, graph, frozenset(unvalued_trades))

    def _payments(self, graph: nx.MultiDiGraph, payments: Iterable[tuple[Any, Any, float, float, Any, Any]],
                  unvalued_trades: Iterable[tuple[Any, Any, Any]]) -> None:
        """The typologies' arrays from flows' payments ``(u, v, tick, value, event, exchange)``, as :meth:`_scan`
        makes them from the edges: every transfer of value above 0 between two screened nodes, in edge order, each
        with the exchange it is a leg of (``exchange`` None: a forced act); ``unvalued_trades``: ``(exchange, u, v)``
        of every exchange with a leg of unknown value."""
        exempt = self.exempt
        index = {n: i for i, n in enumerate(graph.nodes)}
        rows = _TypologyRows()
        for u, v, tick, value, event, exchange in payments:
            if u not in exempt and v not in exempt:
                iu, iv = index[u], index[v]
                rows.src.append(iu)
                rows.dst.append(iv)
                rows.ticks.append(tick)
                rows.values.append(value)
                rows.events.append(event)
                rows.keys.append(None if exchange is None else _leg_key(exchange, iu, iv))
        rows.store(self.memo, graph, frozenset(_leg_key(x, index[u], index[v]) for x, u, v in unvalued_trades))

    def _exchange_leg(self, u: Any, v: Any, data: Mapping[str, Any], value: float | None, tick: float,
                      exchanges: dict[tuple[Any, Any, Any], Exchange],
                      events_of: dict[tuple[Any, Any, Any], set[Any]]) -> None:
        """One voluntary transfer into its exchange (the legs of one exchange share its key)."""
        event = data["event"]
        events = data.get("events") or (event,)
        rank = self._rank
        ru, rv = rank.get(u), rank.get(v)
        if ru is None or rv is None:
            a, b = self.key(u, v)
        else:
            a, b = (u, v) if ru < rv else (v, u)
        xkey = (data.get("exchange", event), a, b)
        x = exchanges.get(xkey)
        if x is None:
            x = exchanges[xkey] = Exchange(a, b, tick, xkey[0])
            events_of[xkey] = set(events)
        else:
            if tick < x.tick:
                x.tick = tick
            events_of[xkey].update(events)
        x.legs[u] = x.legs.get(u, 0) + 1
        if value is None:
            x.unvalued = True
            return
        gave = x.gave
        gave[u] = gave.get(u, 0.0) + value
        goods = data.get("goods")
        mine = x.goods.get(u)
        if mine is None:
            mine = x.goods[u] = {}
        if isinstance(goods, Mapping) and goods:
            for good, gv in goods.items():
                if type(gv) is not float or gv - gv != 0.0:
                    gv = _number(gv, f"goods.{good}", (u, v))
                mine[good] = mine.get(good, 0.0) + gv
        else:
            mine[ANY_GOOD] = mine.get(ANY_GOOD, 0.0) + value

    # -- queries -----------------------------------------------------------------------

    @property
    def fair_ratio(self) -> float:
        """The price band of a fair exchange the view was read with (the larger side at most this times the
        smaller)."""
        return self._fair_ratio

    def once(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        """``compute()``, worked out once per view and ``key`` and kept in :attr:`memo`: what a screen derives
        from the view and shares with the others (the key names the screen, the concept and its parameters).

        >>> view = TransferView(nx.MultiDiGraph())
        >>> calls = []
        >>> [view.once(("demo", 2), lambda: calls.append(1) or len(calls)) for _ in range(3)], calls
        ([1, 1, 1], [1])
        """
        memo = self.memo
        if key in memo:
            return cast(_T, memo[key])
        value: _T = compute()
        memo[key] = value
        return value

    def pair(self, x: Any, y: Any) -> PairFlow:
        """The flows between ``x`` and ``y`` (empty if nothing passed)."""
        return self.pairs.get(self.key(x, y)) or PairFlow(*self.key(x, y))

    def contact_of(self, x: Any, y: Any) -> float:
        """Ticks ``x`` and ``y`` stood together (0 when unknown)."""
        if self.contact is None:
            return 0.0
        return self.contact.get(self.key(x, y), 0.0)

    @property
    def typical_contact(self) -> float | None:
        """Median ticks together over the pairs that ever stood together (None without contact data)."""
        if not self.contact:
            return None
        return float(median(self.contact.values()))

    def screened_nodes(self) -> list[Any]:
        """Nodes that may be screened as colluders (not exempt), sorted."""
        return [n for n in self.nodes if n not in self.exempt]

    def attr(self, node: Any, name: str) -> Any:
        """A node attribute (None when absent)."""
        return self.graph.nodes[node].get(name) if node in self.graph else None


def typical_exchange_value(exchanges: Iterable[Exchange], fair_ratio: float = 2.0) -> float | None:
    """The value one side moves in a typical fair exchange of the match: the scale of every
    value threshold ("weighed against what honest trade would move": the evaluation design's collusion screens).

    Each pair's median, over its *fair-looking* exchanges (goods both ways, known values,
    neither side worth more than ``fair_ratio`` times the other), of the mean of the two
    sides; then the median over pairs, so that one prolific pair (a wash-trading pair
    repeating a small trade forty times) does not set the yardstick for everyone.  Where
    no exchange looks fair, the same over every two-sided exchange; where none is
    two-sided, over the larger side of every exchange; None when nothing of value moved.
    Measuring against fair exchanges keeps a match's own off-price trades and gifts from
    inflating the yardstick they are measured with.

    >>> fair = Exchange("a", "b", 0, "t", gave={"a": 4.0, "b": 6.0}, legs={"a": 1, "b": 1})
    >>> dumped = Exchange("a", "b", 1, "u", gave={"a": 90.0, "b": 2.0}, legs={"a": 1, "b": 1})
    >>> small = [Exchange("c", "d", i, i, gave={"c": 1.0, "d": 1.0}, legs={"c": 1, "d": 1}) for i in range(40)]
    >>> typical_exchange_value([fair, dumped, dumped, *small])
    3.0
    """
    fair: dict[tuple[Any, Any], list[float]] = {}
    two_sided: dict[tuple[Any, Any], list[float]] = {}
    any_side: dict[tuple[Any, Any], list[float]] = {}
    for x in exchanges:
        if x.unvalued:
            continue
        a, b = x.a, x.b
        key = (a, b)
        ga, gb = x.gave.get(a, 0.0), x.gave.get(b, 0.0)
        legs = x.legs
        if ga > 0 and gb > 0 and legs.get(a, 0) > 0 and legs.get(b, 0) > 0:  # two-sided, both valued
            mean = (ga + gb) / 2
            two_sided.setdefault(key, []).append(mean)
            if fair_exchange(ga, gb, fair_ratio):
                fair.setdefault(key, []).append(mean)
        if max(ga, gb) > 0:
            any_side.setdefault(key, []).append(max(ga, gb))
    for sample in (fair, two_sided, any_side):
        if sample:
            return float(median(median(values) for values in sample.values()))
    return None


def net_transfer_graph(graph: nx.MultiDiGraph, *, forced: bool = True) -> nx.DiGraph:
    """The net-transfer graph: one edge ``u -> v`` per pair that moved value, weighted by
    the net value ``u`` passed to ``v`` (the evaluation design's collusion screens).

    Each edge keeps ``value`` (net), ``gross`` (both ways), ``forward`` and ``back``
    (value each way) and ``events`` (the event ids behind the flow, sorted).  A pair whose
    flows cancel keeps an edge of net value 0 from the smaller node, so the events are
    not lost (a net view alone would erase a two-party wash trade; the multigraph is the
    gross view).  ``forced=False`` leaves out raids, thefts and attacks.

    >>> G = nx.MultiDiGraph()
    >>> _ = G.add_edge("s", "h", value=10.0, tick=1, event=1, kind="gift")
    >>> _ = G.add_edge("h", "s", value=2.0, tick=2, event=2)
    >>> N = net_transfer_graph(G)
    >>> N["s"]["h"]["value"], N["s"]["h"]["events"]
    (8.0, [1, 2])
    """
    totals: dict[tuple[Any, Any], float] = {}
    events: dict[tuple[Any, Any], set[Any]] = {}
    for u, v, data in graph.edges(data=True):
        if u == v or (not forced and data.get("kind", "trade") in FORCED_KINDS):
            continue
        value = data.get("value") or 0.0
        totals[(u, v)] = totals.get((u, v), 0.0) + float(value)
        a, b = ordered([u, v])
        events.setdefault((a, b), set()).update(data.get("events") or (data["event"],))
    net = nx.DiGraph()
    net.add_nodes_from(graph.nodes(data=True))
    for (a, b), evs in sorted(events.items(), key=lambda kv: (repr(kv[0][0]), repr(kv[0][1]))):
        forward, back = totals.get((a, b), 0.0), totals.get((b, a), 0.0)
        u, v = (a, b) if forward >= back else (b, a)
        net.add_edge(u, v, value=abs(forward - back), gross=forward + back,
                     forward=max(forward, back), back=min(forward, back), events=ordered(evs))
    return net


def combine_graphs(graphs: Iterable[nx.MultiDiGraph], *, key: str | None = None) -> nx.MultiDiGraph:
    """One graph across many (a season): every edge of every graph, in a season time.

    Each edge keeps its attributes, with ``tick`` made ``position × 10⁹ + tick`` (the
    graph's position in ``graphs``, then its own tick, so time runs across matches),
    ``event``/``events``/``exchange`` prefixed with the graph's ``name`` (``m_…#10423``),
    and ``match`` = the name.  ``key`` names a node attribute to key nodes by (e.g.
    ``operator``): a node without it keeps its id.  Edges between two nodes that map to
    one key are dropped (a node moving value to itself).  ``contact`` is summed per pair.
    """
    out = nx.MultiDiGraph()
    contact: dict[tuple[Any, Any], float] = {}
    for position, graph in enumerate(graphs):
        name = str(graph.graph.get("name", position))
        mapping: dict[Any, Any] = {}
        for n, d in graph.nodes(data=True):
            k = d.get(key) if key is not None else n
            mapping[n] = n if k is None else k
            if mapping[n] not in out:
                out.add_node(mapping[n], **({} if key is not None else dict(d)))
            if d.get("exempt"):
                out.nodes[mapping[n]]["exempt"] = True
        for u, v, data in graph.edges(data=True):
            mu, mv = mapping.get(u, u), mapping.get(v, v)
            if mu == mv:
                continue
            attrs = dict(data)
            attrs["tick"] = position * 1_000_000_000 + float(data["tick"])
            attrs["event"] = f"{name}#{data['event']}"
            attrs["events"] = tuple(f"{name}#{e}" for e in (data.get("events") or (data["event"],)))
            attrs["exchange"] = f"{name}#{data.get('exchange', data['event'])}"
            if data.get("present") is not None:
                attrs["present"] = tuple(mapping.get(p, p) for p in data["present"])
            attrs["match"] = name
            out.add_edge(mu, mv, **attrs)
        raw = graph.graph.get("contact")
        if isinstance(raw, Mapping):
            for (x, y), ticks in raw.items():
                mx, my = mapping.get(x, x), mapping.get(y, y)
                if mx != my:
                    lo, hi = ordered([mx, my])
                    contact[(lo, hi)] = contact.get((lo, hi), 0.0) + float(ticks)
    out.graph["contact"] = contact
    return out
