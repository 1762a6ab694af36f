"""The net-transfer graph of a match: who moved value to whom, and the events behind it.

Seed 002 §2.9: "per-season net-transfer graphs (nodes = agents, edges = net value flow
from trades/gifts/thrown fights)".  This module is the Daishi adapter of the
collusion screens: it turns a match into the plain transfer multigraph
:mod:`daishi_forensics.screens.graph` describes, valued at the archive's item values
(contract §4, :func:`daishi_forensics.read.archive.item_values`).

What becomes an edge ``u -> v`` (value moved from ``u`` to ``v``):

- each completed trade (``trade_completed``, one per ``tradeId``, from the ledger pass):
  a leg ``from -> to`` carrying ``give`` and a leg ``to -> from`` carrying ``receive``,
  sharing one ``exchange``; a gift (one side empty) is one leg, kind ``gift``;
- each filled market order (``trade_fulfilled``, one per ``tradeId``): the same, kind
  ``market`` (it is not part of the rubric ledger, but value moved between two seats);
- each ``raid`` and ``theft``: a leg victim (``payload.target``) -> raider carrying
  ``stolen``, kind ``raid`` / ``theft``;
- each ``attack``: a leg target -> attacker of value 0, kind ``attack`` (aggression
  without goods).

Forced legs carry ``present``: the living agents standing in the act's region just
before it (the world the replay passes in), the actor excluded: whom else the actor
could have hit (cartel screen).  Every leg carries ``value`` (``None`` when an item has
no reference value), ``goods`` ``{item: quantity × value}``, ``tick``, ``event`` (its
first event id) and ``events`` (every id behind it).

Nodes are every agent the archive, the manifest's roster, a registration or a transfer
names, with ``seat``, ``name``, ``role``, ``model`` (the model string), ``operator`` and
``registration`` (the event ids naming the seat) where known.  Graph attributes:
``name`` (match id), ``contact`` (ticks together per pair, from the contact pass),
``ticks`` (match rounds), ``ranked``, ``circular_reputation`` (rubric 2.4, per agent),
``not_screened`` (what the adapter could not value or place).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from daishi_forensics.replay import Event, World
from daishi_forensics.read.archive import ItemValues, item_values
from daishi_forensics.jsonio import shown

if TYPE_CHECKING:  # networkx is imported when a graph is built, not when the pass runs
    import networkx as nx

    from daishi_forensics.screens.graph import TransferView

__all__ = [
    "ForcedTransfer",
    "MarketFill",
    "Seat",
    "Transfers",
    "TransfersPass",
    "season_graph",
    "transfer_graph",
    "transfer_view",
]

FORCED_TYPES: frozenset[str] = frozenset({"raid", "theft", "attack"})


@dataclass(frozen=True, slots=True)
class ForcedTransfer:
    """One raid, theft or attack."""

    event_id: int
    tick: int
    type: str
    """``raid``, ``theft`` or ``attack``."""
    actor: str
    """The raider, thief or attacker (``agentId``)."""
    target: str | None
    """``payload.target``: the victim (for a raid, the structure's owner)."""
    stolen: Mapping[str, float]
    """Goods taken (empty for an attack)."""
    present: tuple[str, ...]
    """Living agents in the act's region just before it, the actor excluded, sorted."""


@dataclass(frozen=True, slots=True)
class MarketFill:
    """One filled market order (``trade_fulfilled``), the first event seen for its ``tradeId``."""

    trade_id: Any
    tick: int
    from_agent: str
    to_agent: str
    give: Mapping[str, float]
    receive: Mapping[str, float]
    event_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Seat:
    """What the log says about a seat: from the manifest roster and its registration."""

    agent: str
    seat: int | None
    name: str | None
    role: str | None
    model: str | None
    operator: str | None
    registration: tuple[int, ...]
    """Ids of the events naming the seat (``match_manifest``, ``agent_registered``)."""


@dataclass(frozen=True)
class Transfers:
    """Result of :class:`TransfersPass`."""

    forced: tuple[ForcedTransfer, ...]
    """Every raid, theft and attack, in log order."""
    fills: tuple[MarketFill, ...]
    """Every filled market order, in log order."""
    seats: Mapping[str, Seat]
    """Agent -> what the manifest and registrations said."""
    ranked: bool | None
    """The manifest's ``config.ranked``, when it says."""


_EXACT_NUMBERS = frozenset({int, float})


def _items(value: Any) -> dict[str, float]:
    """The goods of a payload field: ``{item: quantity}`` for each positive number (bools are not)."""
    if type(value) is not dict and not isinstance(value, Mapping):
        return {}
    return {k if type(k) is str else str(k): v for k, v in value.items()
            if (type(v) in _EXACT_NUMBERS or (isinstance(v, (int, float)) and not isinstance(v, bool))) and v > 0}


def _model_name(model: Any) -> str | None:
    if isinstance(model, Mapping):
        name = model.get("model")
        return str(name) if name is not None else None
    return str(model) if isinstance(model, str) else None


class TransfersPass:
    """Collects raids, thefts, attacks (with who stood within reach), market fills and the
    roster (replay protocol, ARCHITECTURE.md).  Trades come from the ledger pass."""

    types: frozenset[str] | None = FORCED_TYPES | {"trade_fulfilled", "match_manifest", "agent_registered"}

    def __init__(self) -> None:
        self._forced: list[ForcedTransfer] = []
        self._fills: dict[Any, tuple[int, str, str, dict[str, float], dict[str, float], list[Any]]] = {}
        """tradeId -> (tick, from, to, give, receive, event ids) of its first event: only what a fill
        needs, not the payload."""
        self._seats: dict[str, dict[str, Any]] = {}
        self._ranked: bool | None = None

    def observe(self, ev: Event, world: World) -> None:
        """Record one event (the world as it stood just before it)."""
        typ = ev.get("type")
        payload = ev.get("payload") or {}
        if typ in FORCED_TYPES:
            actor = ev.get("agentId")
            if not isinstance(actor, str):
                return
            region = payload.get("region") or world.region_of(actor)
            present = tuple(sorted(a for a in world.occupants(region) if a != actor)) if region else ()
            target = payload.get("target")
            self._forced.append(ForcedTransfer(
                event_id=ev.get("id", -1), tick=ev["tick"], type=typ, actor=actor,
                target=target if isinstance(target, str) else None,
                stolen=_items(payload.get("stolen")), present=present,
            ))
        elif typ == "trade_fulfilled":
            trade_id = payload.get("tradeId")
            if trade_id is None or not isinstance(payload.get("from"), str) or not isinstance(payload.get("to"), str):
                return
            fill = self._fills.get(trade_id)
            if fill is None:
                self._fills[trade_id] = (ev["tick"], payload["from"], payload["to"], _items(payload.get("give")),
                                         _items(payload.get("receive")), [ev.get("id")])
            elif ev.get("id") not in fill[5]:
                fill[5].append(ev.get("id"))
        elif typ == "match_manifest":
            config = payload.get("config")
            if isinstance(config, Mapping) and isinstance(config.get("ranked"), bool):
                self._ranked = config["ranked"]
            for entry in payload.get("roster") or ():
                if isinstance(entry, Mapping) and isinstance(entry.get("agentId"), str):
                    self._seat(entry["agentId"], entry, ev.get("id"))
        elif typ == "agent_registered":
            agent = ev.get("agentId")
            if isinstance(agent, str):
                self._seat(agent, payload, ev.get("id"))

    def _seat(self, agent: str, info: Mapping[str, Any], event_id: Any) -> None:
        seat = self._seats.setdefault(agent, {"registration": []})
        for key in ("seat", "name", "role", "operator"):
            if info.get(key) is not None:
                seat[key] = info[key]
        if info.get("model") is not None:
            seat["model"] = _model_name(info["model"])
        if isinstance(event_id, int) and event_id not in seat["registration"]:
            seat["registration"].append(event_id)

    def result(self) -> Transfers:
        """Everything collected."""
        fills = tuple(
            MarketFill(tid, tick, giver, taker, dict(give), dict(receive), tuple(i for i in ids if isinstance(i, int)))
            for tid, (tick, giver, taker, give, receive, ids) in self._fills.items()
        )
        seats = {
            agent: Seat(agent, s.get("seat"), s.get("name"), s.get("role"), s.get("model"), s.get("operator"),
                        tuple(s["registration"]))
            for agent, s in sorted(self._seats.items())
        }
        return Transfers(tuple(self._forced), fills, seats, self._ranked)


# -- the graph -----------------------------------------------------------------------------

def _valued(items: Mapping[str, float], values: Mapping[str, float]) -> tuple[float | None, dict[str, float], set[str]]:
    goods: dict[str, float] = {}
    missing: set[str] = set()
    total = 0.0
    for item in sorted(items) if len(items) > 1 else items:
        if item not in values:
            missing.add(item)
            continue
        v = items[item] * float(values[item])
        goods[item] = v
        total += v
    return (None if missing else total), goods, missing


def _seat_info(archive: Mapping[str, Any], transfers: Transfers | None) -> dict[str, dict[str, Any]]:
    info: dict[str, dict[str, Any]] = {}
    if transfers is not None:
        for agent, seat in transfers.seats.items():
            info[agent] = {k: v for k, v in (("seat", seat.seat), ("name", seat.name), ("role", seat.role),
                                              ("model", seat.model), ("operator", seat.operator)) if v is not None}
            if seat.registration:
                info[agent]["registration"] = seat.registration
    for entry in archive.get("agents") or ():
        if not isinstance(entry, Mapping) or not isinstance(entry.get("agentId"), str):
            continue
        node = info.setdefault(entry["agentId"], {})
        for key in ("seat", "name", "role", "operator"):
            if entry.get(key) is not None:
                node[key] = entry[key]
        if entry.get("model") is not None:
            node["model"] = _model_name(entry["model"])
        node["inArchive"] = True
    return info


def transfer_graph(
    archive: Mapping[str, Any],
    trades: Iterable[Any],
    transfers: Transfers | None = None,
    *,
    contact: Mapping[tuple[str, str], int] | None = None,
    circular: Mapping[str, float] | None = None,
    values: ItemValues | Mapping[str, float] | None = None,
    name: str | None = None,
) -> nx.MultiDiGraph:
    """The transfer multigraph of one match (module docstring), the gross view.

    Parameters
    ----------
    archive:
        The match archive (contract §4): item values, agents, ranked, match rounds.
    trades:
        The ledger's trades (:class:`daishi_forensics.economy.ledger.LedgerTrade`, one per ``tradeId``).
    transfers:
        :meth:`TransfersPass.result` (raids, thefts, attacks, market fills, roster).
    contact:
        Ticks together per pair (``ContactPass``); None when unknown.
    circular:
        Circular reputation per agent (rubric 2.4), carried for the ring screen's details.
    values:
        Item values; default :func:`~daishi_forensics.read.archive.item_values` of the archive.
    name:
        The match id (default: the archive's ``matchId``).

    >>> g = transfer_graph({"matchId": "m_1", "agents": [{"agentId": "a_1"}, {"agentId": "a_2"}]},
    ...     [{"tradeId": "t1", "tick": 3, "from": "a_1", "to": "a_2", "give": {"wood": 3},
    ...       "receive": {"food": 3}, "event_ids": (7, 8)}])
    >>> sorted((u, v, d["value"], d["events"]) for u, v, d in g.edges(data=True))
    [('a_1', 'a_2', 6.0, (7, 8)), ('a_2', 'a_1', 6.0, (7, 8))]
    """
    walk = _Walk(archive, transfers, contact=contact, circular=circular, values=values, name=name)
    add = walk.graph.add_edge
    for legs, tick, event, events, exchange, kind, trade, present in walk.records(trades):
        if exchange is not None:
            for u, v, value, goods in legs:
                add(u, v, value=value, goods=goods, tick=tick, event=event, events=events, exchange=exchange,
                    kind=kind, trade=trade)
        else:
            for u, v, value, goods in legs:
                add(u, v, value=value, goods=goods, tick=tick, event=event, events=events, kind=kind,
                    present=present)
    return walk.finish()


def transfer_view(
    archive: Mapping[str, Any],
    trades: Iterable[Any],
    transfers: Transfers | None = None,
    *,
    contact: Mapping[tuple[str, str], int] | None = None,
    circular: Mapping[str, float] | None = None,
    values: ItemValues | Mapping[str, float] | None = None,
    name: str | None = None,
    exempt_roles: Iterable[str] = (),
    fair_ratio: float = 2.0,
) -> TransferView:
    """``TransferView(transfer_graph(...))`` (:class:`~daishi_forensics.screens.graph.TransferView`,
    same arguments), built without storing each transfer in the graph first.

    The graph gets its nodes and attributes only; the exchanges and forced acts the view
    would read from its edges are made here (:class:`_Flows`), from the trades, fills and
    acts directly, and handed over in the order the edges would have given them (so every
    sum adds up in the same order: the same view, the same answer from the screens).  A
    match whose numbers break the graph's conventions is read through the graph, which says why.
    """
    from daishi_forensics.screens.graph import TransferView

    walk = _Walk(archive, transfers, contact=contact, circular=circular, values=values, name=name)
    flows = _Flows(walk.index)
    try:
        for legs, tick, event, events, exchange, kind, _trade, present in walk.records(trades):
            if type(tick) is not int:
                raise _NotPlain
            when = float(tick)
            placed = flows.place(legs)
            flows.pay(placed, when, event, exchange)
            if exchange is None:  # a forced act: victim u -> aggressor v
                flows.act(placed, when, kind, event, events, present)
            elif not flows.whole(placed, when, exchange, events):
                flows.leg_by_leg(placed, when, exchange, events)
    except _NotPlain:
        graph = transfer_graph(archive, trades, transfers, contact=contact, circular=circular, values=values,
                               name=name)
        return TransferView(graph, exempt_roles=exempt_roles, fair_ratio=fair_ratio)
    return TransferView(walk.finish(), exempt_roles=exempt_roles, fair_ratio=fair_ratio, flows=flows.finished())


Placed = tuple[int, str, str, "float | None", dict[str, float]]
"""A leg ``(where, u, v, value, goods)``: ``where`` is the place the graph lists its edge at."""


class _Flows:
    """The exchanges and forced acts :func:`transfer_view` hands the view, made record by record
    from a :class:`_Walk` in the order the graph's edges would give them."""

    def __init__(self, node_index: Mapping[str, int]) -> None:
        from daishi_forensics.screens.graph import ANY_GOOD, Act, Exchange

        self._act, self._exchange, self._any_good = Act, Exchange, ANY_GOOD
        self.node_index = node_index
        self.targets: dict[str, dict[str, int]] = {}
        """Per source node, its targets in the order of their first edge."""
        self.exchanges: dict[tuple[Any, str, str], Any] = {}
        self.first: dict[tuple[Any, str, str], int] = {}
        """(exchange, a, b) -> where the graph lists its first edge."""
        self.events_of: dict[tuple[Any, str, str], set[Any]] = {}
        """The events of exchanges made leg by leg."""
        self.acts: list[tuple[int, Any]] = []
        self.payments: list[tuple[int, str, str, float, float, Any, Any]] = []
        """Every leg of value above 0 between two nodes, ``(where, u, v, tick, value, event, exchange)``
        (``exchange`` None: a forced act): the typologies' transfers, as the view reads them off the graph's edges
        (its ``transfer_arrays``)."""
        self.unvalued: set[Any] = set()
        self.seq = 0
        """Edges placed so far (the last key of an edge's place)."""

    def place(self, legs: Iterable[tuple[str, str, float | None, dict[str, float]]]) -> list[Placed]:
        """Each leg with its place: the graph lists edges by source node, then by target (first edge
        first), then in order.  A value that is not a finite float at least 0, or a node that is
        not a string (the screens' node order is plain string order only for strings), is left to
        the graph (:class:`_NotPlain`)."""
        placed = []
        targets = self.targets
        for u, v, value, goods in legs:
            if value is not None and (type(value) is not float or not 0.0 <= value < _INF):
                raise _NotPlain
            if type(u) is not str or type(v) is not str:
                raise _NotPlain
            known = targets.get(u)
            if known is None:
                known = targets[u] = {}
            position = known.get(v)
            if position is None:
                position = known[v] = len(known)
            placed.append(((self.node_index[u] << 64) | (position << 32) | self.seq, u, v, value, goods))
            self.seq += 1
        return placed

    def pay(self, placed: list[Placed], when: float, event: Any, exchange: Any) -> None:
        """Each leg of a record that moved value (above 0, between two nodes) as a payment: the money-laundering
        typologies read every transfer of the graph, a trade's legs, a gift, a raid's take, by value and tick
        (``exchange``: the exchange the legs belong to; None for a forced act)."""
        for where, u, v, value, _goods in placed:
            if value is not None and value > 0.0 and u != v:
                self.payments.append((where, u, v, when, value, event, exchange))

    def act(self, placed: list[Placed], when: float, kind: str, event: Any, events: tuple[Any, ...],
            present: Sequence[str] | None) -> None:
        """A forced act, one per leg (victim ``u`` -> aggressor ``v``); an unvalued one's events noted."""
        for where, u, v, value, _goods in placed:
            if value is None:
                self.unvalued.update(events)
            self.acts.append((where, self._act(aggressor=v, victim=u, tick=when, value=value, kind=kind, event=event,
                                               events=events, present=tuple(present) if present is not None else None)))

    def whole(self, placed: list[Placed], when: float, exchange: Any, events: tuple[Any, ...]) -> bool:
        """The common case, made at once: one new exchange between two seats, every leg valued above
        0 with plain goods, each side giving one leg.  False (nothing made) otherwise.  (``placed``
        is put in the graph's order: the second leg first when its edge comes first.)"""
        if len(placed) == 2 and placed[1][0] < placed[0][0]:
            placed.reverse()
        if not placed:
            return False
        for p in placed:
            if p[3] is None or not p[3] > 0.0 or not _plain_goods(p[4]):
                return False
        u, v = placed[0][1], placed[0][2]
        a, b = (u, v) if u < v else (v, u)
        xkey = (exchange, a, b)
        if xkey in self.exchanges:
            return False
        x = self._exchange(a, b, when, exchange, gave={p[1]: p[3] for p in placed if p[3] is not None},
                           goods={p[1]: p[4] for p in placed}, legs={p[1]: 1 for p in placed},
                           events=_in_order(events))
        if len(x.legs) != len(placed):  # two legs from one side: added one by one
            return False
        self.exchanges[xkey] = x
        self.first[xkey] = placed[0][0]
        return True

    def leg_by_leg(self, placed: list[Placed], when: float, exchange: Any, events: tuple[Any, ...]) -> None:
        """Each leg added to its exchange (made at its first leg): the earliest tick and place, the
        events, the legs per side, the value and goods each side gave (an unvalued leg marks the
        exchange and its events unvalued)."""
        exchanges, first, events_of = self.exchanges, self.first, self.events_of
        for where, u, v, value, goods in placed:
            if value is None:
                self.unvalued.update(events)
            a, b = (u, v) if u < v else (v, u)
            xkey = (exchange, a, b)
            found = exchanges.get(xkey)
            if found is None:
                x = exchanges[xkey] = self._exchange(a, b, when, exchange)
                first[xkey] = where
                events_of[xkey] = set(events)
            else:
                x = found
                if when < x.tick:
                    x.tick = when
                if where < first[xkey]:
                    first[xkey] = where
                events_of.setdefault(xkey, set(x.events)).update(events)
            x.legs[u] = x.legs.get(u, 0) + 1
            if value is None:
                x.unvalued = True
                continue
            x.gave[u] = x.gave.get(u, 0.0) + value
            mine = x.goods.get(u)
            if mine is None:
                mine = x.goods[u] = {}
            if goods:
                for good, worth in goods.items():
                    if type(worth) is not float or not 0.0 <= worth < _INF:
                        raise _NotPlain
                    mine[good] = mine.get(good, 0.0) + worth
            else:
                mine[self._any_good] = mine.get(self._any_good, 0.0) + value

    def finished(self) -> tuple[list[Any], list[Any], set[Any], list[tuple[str, str, float, float, Any, Any]]]:
        """The view's flows: the exchanges in the order of their first edge (the events of those made
        leg by leg each once, in order), the acts in edge order, the unvalued events, and the payments
        ``(u, v, tick, value, event, exchange)`` in edge order."""
        from daishi_forensics.screens.flags import ordered

        for xkey, events in self.events_of.items():
            self.exchanges[xkey].events = tuple(ordered(events))
        in_order = [self.exchanges[xkey] for xkey in sorted(self.first, key=self.first.__getitem__)]
        self.acts.sort(key=_first)
        self.payments.sort(key=_first)
        return in_order, [act for _, act in self.acts], self.unvalued, [row[1:] for row in self.payments]


def _in_order(events: tuple[Any, ...]) -> tuple[Any, ...]:
    """``events`` each once, in order (as the view keeps an exchange's events): the log's ids of
    a trade already are (increasing), so they are kept as they are."""
    try:
        if len(events) == 2:
            if events[0] < events[1]:
                return events
        elif len(events) < 2 or all(events[i] < events[i + 1] for i in range(len(events) - 1)):
            return events
    except TypeError:
        pass
    from daishi_forensics.screens.flags import ordered

    return tuple(ordered(set(events)))


def _first(item: tuple[int, Any] | tuple[int, str, str, float, float, Any, Any]) -> int:
    return item[0]


def _plain_goods(goods: Mapping[str, float]) -> bool:
    """Goods the view may keep as they are: some, each a positive finite float (adding each to
    0.0, as the view does, gives it back unchanged)."""
    if not goods:
        return False
    for w in goods.values():
        if type(w) is not float or not 0.0 < w < _INF:
            return False
    return True


_MAPPING_TYPES: dict[type, bool] = {dict: True}
"""Whether a trade's type is a mapping (asked once per type, not once per trade)."""


class _NotPlain(Exception):
    """A number :func:`transfer_view` leaves to the graph's own checks."""


_INF = float("inf")

Record = tuple[tuple[tuple[str, str, "float | None", dict[str, float]], ...], Any, Any, tuple[Any, ...],
               "str | None", str, Any, "tuple[str, ...] | None"]
"""One exchange or act of :meth:`_Walk.records`: ``(legs, tick, event, events, exchange, kind, trade,
present)``, each leg ``(u, v, value, goods)``; ``exchange`` is None for a forced act."""


class _Walk:
    """One walk over a match's transfers: the graph's nodes and attributes, and every
    exchange and act behind its edges, in the order the edges are added (module docstring)."""

    def __init__(self, archive: Mapping[str, Any], transfers: Transfers | None, *,
                 contact: Mapping[tuple[str, str], int] | None, circular: Mapping[str, float] | None,
                 values: ItemValues | Mapping[str, float] | None, name: str | None) -> None:
        import networkx as nx

        self.archive = archive
        self.transfers = transfers
        self.values = values = item_values(archive) if values is None else values
        try:  # a plain dict of floats, for speed
            self.table: Mapping[str, float] = {k: float(v) for k, v in values.items()}
        except (TypeError, ValueError):
            self.table = values  # let the item that uses a bad value fail as it always did
        self.graph = graph = nx.MultiDiGraph()
        graph.graph["name"] = name if name is not None else archive.get("matchId")
        raw_config = archive.get("config")
        self.config: Mapping[str, Any] = raw_config if isinstance(raw_config, Mapping) else {}
        ranked = self.config.get("ranked") if isinstance(self.config.get("ranked"), bool) else None
        if ranked is None and transfers is not None:
            ranked = transfers.ranked
        graph.graph["ranked"] = ranked
        start, end = archive.get("startedAtTick"), archive.get("endedAtTick")
        if isinstance(start, int) and isinstance(end, int) and end > start:
            graph.graph["ticks"] = end - start
        if contact is not None:
            graph.graph["contact"] = dict(contact)
        if circular:
            graph.graph["circular_reputation"] = dict(circular)
        info = _seat_info(archive, transfers)
        for agent in sorted(info):
            graph.add_node(agent, **info[agent])
        self.index: dict[str, int] = {n: i for i, n in enumerate(graph)}
        """Node -> its position in the graph (nodes are added as the walk meets them)."""
        self.missing: dict[str, set[Any]] = {}

    def _node(self, agent: str) -> None:
        if agent not in self.index:
            self.graph.add_node(agent)
            self.index[agent] = len(self.index)

    def _valued(self, u: str, v: str, items: Mapping[str, float], events: tuple[Any, ...]) -> tuple[Any, ...]:
        if len(items) == 1:  # the common case, inline: one good
            [(item, quantity)] = items.items()
            price = self.table.get(item)
            if type(price) is float:
                worth = quantity * price
                return (u, v, 0.0 + worth, {item: worth})
        value, goods, unknown = _valued(items, self.table)
        for item in unknown:
            self.missing.setdefault(item, set()).update(events)
        return (u, v, value, goods)

    def records(self, trades: Iterable[Any]) -> Iterator[Record]:
        """Every trade (in the order given), market fill and forced act, as :data:`Record`."""
        index, node, valued = self.index, self._node, self._valued
        for trade in trades:
            kind = type(trade)
            mapping = _MAPPING_TYPES.get(kind)
            if mapping is None:
                mapping = _MAPPING_TYPES[kind] = issubclass(kind, Mapping)
            if not mapping:  # a LedgerTrade
                tid, tick, a, b, give, receive, ids = (trade.trade_id, trade.tick, trade.from_agent,
                                                       trade.to_agent, trade.give, trade.receive, trade.event_ids)
                if type(ids) is not tuple:
                    ids = tuple(ids)
            else:
                t = _trade_fields(trade)
                tid, tick, a, b, give, receive, ids = (t["tradeId"], t["tick"], t["from"], t["to"], t["give"],
                                                       t["receive"], t["event_ids"])
            if a == b:
                continue
            give, receive = _items(give), _items(receive)
            exchange = f"trade:{tid}"
            events = ids or (exchange,)
            if a not in index:
                node(a)
            if b not in index:
                node(b)
            if give and receive:
                legs: tuple[Any, ...] = (valued(a, b, give, events), valued(b, a, receive, events))
            elif give:
                legs = (valued(a, b, give, events),)
            elif receive:
                legs = (valued(b, a, receive, events),)
            else:
                legs = ()
            yield (legs, tick, ids[0] if ids else exchange, events, exchange, "trade" if give and receive else "gift",
                   tid, None)
        if self.transfers is None:
            return
        for fill in self.transfers.fills:
            if fill.from_agent == fill.to_agent:
                continue
            ids = fill.event_ids or (f"fill:{fill.trade_id}",)
            a, b = fill.from_agent, fill.to_agent
            node(a)
            node(b)
            legs = tuple(valued(u, v, items, ids) for u, v, items in ((a, b, fill.give), (b, a, fill.receive))
                         if items)
            yield (legs, fill.tick, ids[0], ids, f"fill:{fill.trade_id}", "market", fill.trade_id, None)
        for act in self.transfers.forced:
            if act.target is None or act.target == act.actor:
                continue
            victim, actor = act.target, act.actor
            node(victim)
            node(actor)
            events = (act.event_id,)
            if act.type == "attack":
                leg: tuple[Any, ...] = (victim, actor, 0.0, {})
            else:
                leg = valued(victim, actor, act.stolen, events)
            yield ((leg,), act.tick, act.event_id, events, None, act.type, None, act.present)

    def finish(self) -> nx.MultiDiGraph:
        """The graph, with its ``not_screened`` notes (after :meth:`records` ran)."""
        graph, archive, values = self.graph, self.archive, self.values
        notes: list[str] = []
        absent = sorted(n for n, d in graph.nodes(data=True) if not d.get("inArchive"))
        if absent and archive.get("agents") is not None:
            notes.append(f"agents not in the archive: {', '.join(absent)} (screened from their events; "
                         "their operator and role are what the log says, if anything)")
        for item in sorted(self.missing):
            unvalued = sorted(self.missing[item], key=repr)
            notes.append(f"not screened: the archive has no value for item {shown(item)} (events "
                         f"{', '.join(map(str, unvalued[:10]))}{' …' if len(unvalued) > 10 else ''}); "
                         "transfers holding it are left out of the value screens")
        if isinstance(values, ItemValues) and values.defaulted and "item_values" not in self.config:
            notes.append("item values: the archive has none; the export format's defaults were used")
        graph.graph["not_screened"] = notes
        return graph


def _trade_fields(trade: Mapping[str, Any]) -> dict[str, Any]:
    return {"tradeId": trade.get("tradeId"), "tick": trade.get("tick", 0), "from": trade["from"],
            "to": trade["to"], "give": trade.get("give") or {}, "receive": trade.get("receive") or {},
            "event_ids": tuple(trade.get("event_ids") or ())}


def season_graph(graphs: Sequence[nx.MultiDiGraph], key: str = "agent") -> nx.MultiDiGraph:
    """The same graph across a season of matches, keyed by ``agent`` or by ``operator``.

    Every transfer of every match, in season time (the match's position, then its tick),
    with event ids prefixed by the match id (``m_…#10423``); see
    :func:`daishi_forensics.screens.graph.combine_graphs`.
    """
    from daishi_forensics.screens.graph import combine_graphs

    if key not in ("agent", "operator"):
        raise ValueError(f"a season graph is keyed by agent or operator, not {key!r}")
    return combine_graphs(graphs, key=None if key == "agent" else "operator")
