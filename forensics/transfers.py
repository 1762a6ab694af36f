"""The net-transfer graph of a match: who moved value to whom, and the events behind it.

Seed 002 §2.9: "per-season net-transfer graphs (nodes = agents, edges = net value flow
from trades/gifts/thrown fights)".  This module is the Daishi adapter of the
collusion screens: it turns a match into the plain transfer multigraph
:mod:`daishi_forensics.screens.graph` describes, valued at the archive's item values
(contract §4, :func:`daishi_forensics.values.item_values`).

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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from .replay import Event, World
from .values import ItemValues, item_values

__all__ = [
    "ForcedTransfer",
    "MarketFill",
    "Seat",
    "Transfers",
    "TransfersPass",
    "season_graph",
    "transfer_graph",
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


def _items(value: Any) -> dict[str, float]:
    if not isinstance(value, Mapping):
        return {}
    return {str(k): v for k, v in value.items() if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0}


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
        self._fills: dict[Any, dict[str, Any]] = {}
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
                self._fills[trade_id] = {"tick": ev["tick"], "payload": payload, "ids": [ev.get("id")]}
            elif ev.get("id") not in fill["ids"]:
                fill["ids"].append(ev.get("id"))
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
            MarketFill(tid, f["tick"], f["payload"]["from"], f["payload"]["to"], _items(f["payload"].get("give")),
                       _items(f["payload"].get("receive")), tuple(i for i in f["ids"] if isinstance(i, int)))
            for tid, f in self._fills.items()
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
    for item in sorted(items):
        if item not in values:
            missing.add(item)
            continue
        v = items[item] * float(values[item])
        goods[item] = v
        total += v
    return (None if missing else total), goods, missing


def _leg(graph: nx.MultiDiGraph, u: str, v: str, items: Mapping[str, float], values: Mapping[str, float],
         missing: dict[str, set[Any]], **attrs: Any) -> None:
    value, goods, unknown = _valued(items, values)
    for item in unknown:
        missing.setdefault(item, set()).update(attrs.get("events", ()))
    graph.add_edge(u, v, value=value, goods=goods, **attrs)


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
        The ledger's trades (:class:`daishi_forensics.ledger.LedgerTrade`, one per ``tradeId``).
    transfers:
        :meth:`TransfersPass.result` (raids, thefts, attacks, market fills, roster).
    contact:
        Ticks together per pair (``ContactPass``); None when unknown.
    circular:
        Circular reputation per agent (rubric 2.4), carried for the ring screen's details.
    values:
        Item values; default :func:`~daishi_forensics.values.item_values` of the archive.
    name:
        The match id (default: the archive's ``matchId``).

    >>> g = transfer_graph({"matchId": "m_1", "agents": [{"agentId": "a_1"}, {"agentId": "a_2"}]},
    ...     [{"tradeId": "t1", "tick": 3, "from": "a_1", "to": "a_2", "give": {"wood": 3},
    ...       "receive": {"food": 3}, "event_ids": (7, 8)}])
    >>> sorted((u, v, d["value"], d["events"]) for u, v, d in g.edges(data=True))
    [('a_1', 'a_2', 6.0, (7, 8)), ('a_2', 'a_1', 6.0, (7, 8))]
    """
    values = item_values(archive) if values is None else values
    graph = nx.MultiDiGraph()
    graph.graph["name"] = name if name is not None else archive.get("matchId")
    raw_config = archive.get("config")
    config: Mapping[str, Any] = raw_config if isinstance(raw_config, Mapping) else {}
    ranked = config.get("ranked") if isinstance(config.get("ranked"), bool) else None
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
    missing: dict[str, set[Any]] = {}

    def node(agent: str) -> str:
        if agent not in graph:
            graph.add_node(agent)
        return agent

    for trade in trades:
        t = _trade_fields(trade)
        if t["from"] == t["to"]:
            continue
        give, receive = _items(t["give"]), _items(t["receive"])
        kind = "gift" if not give or not receive else "trade"
        common = {"tick": t["tick"], "event": t["event_ids"][0] if t["event_ids"] else f"trade:{t['tradeId']}",
                  "events": tuple(t["event_ids"]) or (f"trade:{t['tradeId']}",),
                  "exchange": f"trade:{t['tradeId']}", "kind": kind, "trade": t["tradeId"]}
        a, b = node(t["from"]), node(t["to"])
        if give:
            _leg(graph, a, b, give, values, missing, **common)
        if receive:
            _leg(graph, b, a, receive, values, missing, **common)
    if transfers is not None:
        for fill in transfers.fills:
            if fill.from_agent == fill.to_agent:
                continue
            ids: tuple[Any, ...] = fill.event_ids or (f"fill:{fill.trade_id}",)
            common = {"tick": fill.tick, "event": ids[0], "events": ids, "exchange": f"fill:{fill.trade_id}",
                      "kind": "market", "trade": fill.trade_id}
            a, b = node(fill.from_agent), node(fill.to_agent)
            if fill.give:
                _leg(graph, a, b, fill.give, values, missing, **common)
            if fill.receive:
                _leg(graph, b, a, fill.receive, values, missing, **common)
        for act in transfers.forced:
            if act.target is None or act.target == act.actor:
                continue
            attrs = {"tick": act.tick, "event": act.event_id, "events": (act.event_id,), "kind": act.type,
                     "present": act.present}
            victim, actor = node(act.target), node(act.actor)
            if act.type == "attack":
                graph.add_edge(victim, actor, value=0.0, goods={}, **attrs)
            else:
                _leg(graph, victim, actor, act.stolen, values, missing, **attrs)
    notes: list[str] = []
    absent = sorted(n for n in graph.nodes if not graph.nodes[n].get("inArchive"))
    if absent and archive.get("agents") is not None:
        notes.append(f"agents not in the archive: {', '.join(absent)} (screened from their events; "
                     "their operator and role are what the log says, if anything)")
    for item in sorted(missing):
        unvalued = sorted(missing[item], key=repr)
        notes.append(f"not screened: the archive has no value for item {item!r} (events "
                     f"{', '.join(map(str, unvalued[:10]))}{' …' if len(unvalued) > 10 else ''}); "
                     "transfers holding it are left out of the value screens")
    if isinstance(values, ItemValues) and values.defaulted and "item_values" not in config:
        notes.append("item values: the archive has none; the contract's defaults were used (contract §4)")
    graph.graph["not_screened"] = notes
    return graph


def _trade_fields(trade: Any) -> dict[str, Any]:
    if isinstance(trade, Mapping):
        return {"tradeId": trade.get("tradeId"), "tick": trade.get("tick", 0), "from": trade["from"],
                "to": trade["to"], "give": trade.get("give") or {}, "receive": trade.get("receive") or {},
                "event_ids": tuple(trade.get("event_ids") or ())}
    return {"tradeId": trade.trade_id, "tick": trade.tick, "from": trade.from_agent, "to": trade.to_agent,
            "give": trade.give, "receive": trade.receive, "event_ids": tuple(trade.event_ids)}


def season_graph(graphs: Sequence[nx.MultiDiGraph], key: str = "agent") -> nx.MultiDiGraph:
    """The same graph across a season of matches, keyed by ``agent`` or by ``operator``.

    Every transfer of every match, in season time (the match's position, then its tick),
    with event ids prefixed by the match id (``m_…#10423``); see
    :func:`daishi_forensics.screens.graph.combine_graphs`.
    """
    from .screens.graph import combine_graphs

    if key not in ("agent", "operator"):
        raise ValueError(f"a season graph is keyed by agent or operator, not {key!r}")
    return combine_graphs(graphs, key=None if key == "agent" else "operator")
