"""The trade ledger: who traded what with whom, and how much value it moved.

Rubric 2.4 (seed 000), *Trade ledger*: a pair's net share comes from its
``trade_completed`` events (``from`` gave ``give`` and got ``receive``; ``to``
the reverse): for each item, the absolute difference between what one of the
two received and what it gave, times the item's value, summed, over what it
received plus what it gave, times the value, summed; rounded to three decimal
places, halves up.  1 means every item moved one way (wood for food), 0 that
the same goods went back and forth.

Rubric 2.4, *Social*: credited trades are, summed over the agent's trading
partners, ``min(trades with that partner, 5) x that pair's net share``, rounded
to three decimal places, halves up.

Rubric *Counters*: an agent's completed trades count the ``trade_completed``
and ``trade_fulfilled`` events carrying its ``agentId``.

Reading the log (ARCHITECTURE.md, contract §2-§3):

* A v3 trade is logged twice, once per party (acceptor first), with the same
  ``tradeId``; a v2 one arrives with a synthesized offerer twin marked
  ``"upcast": "offerer"``.  The ledger counts **one trade per** ``tradeId``, the
  first event seen, and takes ``from``/``to``/``give``/``receive`` from its payload.
* The per-agent counter counts each (``tradeId``, ``agentId``) once: the acceptor's
  event and the offerer's (real or synthesized) each count for their own agent.
* ``trade_fulfilled`` (a market order filled) counts for the counter and is not
  part of the ledger.
* Nothing is dropped silently: a twin whose payload differs from the first event,
  a party event logged twice, an event whose ``agentId`` is not a party, and a
  trade of an agent with itself are kept as :class:`LedgerAnomaly` records.

Memory: the result lists every trade, so the pass keeps each one -- as a row of a
:class:`TradeTable` (agents and item maps as codes into tables kept once, the tick, the
event ids, the trade id as a dict key), not as parsed objects; besides, one counter per
agent and the anomalies.  The :class:`LedgerTrade` records are built by
:meth:`LedgerPass.result`, trades that moved the same goods sharing one item map.

>>> p = LedgerPass()
>>> p.observe({"id": 1, "tick": 3, "type": "trade_completed", "agentId": "a_2",
...            "payload": {"tradeId": "t1", "from": "a_1", "to": "a_2",
...                        "give": {"wood": 3}, "receive": {"food": 3}}}, None)
>>> ledger = p.result({"wood": 2.0, "food": 2.0})
>>> ledger.pairs[0].net_share, ledger.credited_trades["a_1"]
(1.0, 1.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from daishi_forensics.arithmetic import half_up
from daishi_forensics.errors import InvalidInput
from daishi_forensics.read.archive import MAX_MAGNITUDE, MAX_TICK, past_exact, unvalued_items, value_of
from daishi_forensics.jsonio import shown

from ._ledger_store import TradeId, TradeTable

__all__ = [
    "PARTNER_TRADE_CAP",
    "TradeId",
    "TradeTable",
    "LedgerTrade",
    "LedgerPair",
    "LedgerAnomaly",
    "Ledger",
    "LedgerPass",
    "SharedPair",
    "net_share",
    "credited_trades",
    "ArchivedPair",
    "ArchivedLedger",
    "archived_ledger",
]

PARTNER_TRADE_CAP = 5
"""Trades with one partner that count toward credited trades (rubric *Social*)."""

def pair_key(x: str, y: str) -> tuple[str, str]:
    """A pair of agents written ``(a, b)`` with ``a < b`` (ARCHITECTURE.md)."""
    return (x, y) if x < y else (y, x)


@dataclass(frozen=True, slots=True)
class LedgerTrade:
    """One completed trade, as the first ``trade_completed`` for its ``tradeId`` logged it.

    The ledger's records share one ``give``/``receive`` dict between the trades that moved
    the same goods: read them, do not change them."""

    trade_id: TradeId
    """``payload.tradeId``."""
    tick: int
    """Tick of the first event seen for the trade."""
    from_agent: str
    """``payload.from``: gave ``give`` and got ``receive``."""
    to_agent: str
    """``payload.to``: gave ``receive`` and got ``give``."""
    give: dict[str, int]
    """Goods ``from_agent`` handed over."""
    receive: dict[str, int]
    """Goods ``from_agent`` got back."""
    event_ids: tuple[int, ...]
    """Ids of every ``trade_completed`` event logged for this trade, in order, each once
    (a v2 synthesized twin shares its source's id, so a v2 trade has one)."""
    upcast_twin: bool
    """True when one of its events is a synthesized v2 offerer twin (``"upcast": "offerer"``)."""

    @property
    def is_gift(self) -> bool:
        """A gift: one side (or both) empty (contract §3)."""
        return not has_goods(self.give) or not has_goods(self.receive)

    @property
    def pair(self) -> tuple[str, str]:
        """The two parties, ``a < b``."""
        return pair_key(self.from_agent, self.to_agent)

    def payload(self) -> dict[str, Any]:
        """The trade as a ``trade_completed`` payload."""
        return {
            "tradeId": self.trade_id,
            "from": self.from_agent,
            "to": self.to_agent,
            "give": dict(self.give),
            "receive": dict(self.receive),
        }


@dataclass(frozen=True)
class LedgerPair:
    """Two agents that traded, with the pair's net share and the evidence behind it."""

    a: str
    """The smaller agent id."""
    b: str
    """The larger agent id."""
    trades: int
    """Completed trades between them (one per ``tradeId``, gifts included)."""
    net_share: float
    """Rubric net share, 3 places half-up (see :func:`net_share`)."""
    gifts: int
    """How many of ``trades`` were gifts (one side empty)."""
    value_a_gave: float
    """Value of everything ``a`` handed to ``b`` (item values x quantities)."""
    value_b_gave: float
    """Value of everything ``b`` handed to ``a``."""
    trade_ids: tuple[TradeId, ...]
    """The trades, in log order."""
    event_ids: tuple[int, ...]
    """Ids of the ``trade_completed`` events behind them, ascending."""

    def partner_of(self, agent: str) -> str:
        """The other agent of the pair."""
        if agent == self.a:
            return self.b
        if agent == self.b:
            return self.a
        raise ValueError(f"{agent} is not in the pair ({self.a}, {self.b})")

    def to_dict(self) -> dict[str, Any]:
        """JSON form, with the archive ledger block's key names where they exist."""
        return {
            "a": self.a,
            "b": self.b,
            "trades": self.trades,
            "netShare": self.net_share,
            "gifts": self.gifts,
            "valueAGave": self.value_a_gave,
            "valueBGave": self.value_b_gave,
            "tradeIds": list(self.trade_ids),
            "eventIds": list(self.event_ids),
        }


@dataclass(frozen=True, slots=True)
class LedgerAnomaly:
    """Something in the trade events the ledger did not count as it stands."""

    event_id: int | None
    """The event's ``id``."""
    trade_id: TradeId | None
    """Its ``payload.tradeId``."""
    kind: str
    """``twin_differs`` (the second event of a trade disagrees with the first; the first
    counts), ``duplicate_party_event`` (a party's event logged again; counted once),
    ``agent_not_party`` (``agentId`` is neither ``from`` nor ``to``; still counted for
    that agent, as the rubric counts events by ``agentId``), ``no_agent`` (no
    ``agentId``; counted for nobody), ``self_trade`` (``from`` = ``to``; left out of
    the pairs)."""
    detail: str
    """A sentence for a person."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "eventId": self.event_id,
            "tradeId": self.trade_id,
            "kind": self.kind,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Ledger:
    """The match's trade ledger (rubric *Trade ledger*, *Social*, *Counters*)."""

    pairs: tuple[LedgerPair, ...]
    """Every pair that completed a trade, sorted by ``(a, b)``."""
    trades: tuple[LedgerTrade, ...]
    """Every completed trade, one per ``tradeId``, in log order (self-trades included)."""
    credited_trades: dict[str, float]
    """Agent -> credited trades (3 places half-up); 0.0 for an agent with completed
    trades but no ledger pair."""
    completed_trades: dict[str, int]
    """Agent -> ``trade_completed`` + ``trade_fulfilled`` events carrying its ``agentId``."""
    anomalies: tuple[LedgerAnomaly, ...]
    """What was not counted as logged, in log order."""
    unvalued_items: frozenset[str]
    """Traded items the item values did not know (valued 0)."""

    def pair(self, x: str, y: str) -> LedgerPair | None:
        """The pair of ``x`` and ``y`` in either order, or None if they never traded."""
        a, b = pair_key(x, y)
        for pair in self.pairs:
            if pair.a == a and pair.b == b:
                return pair
        return None

    def net_shares(self) -> dict[tuple[str, str], float]:
        """``(a, b) -> net share`` for every pair."""
        return {(p.a, p.b): p.net_share for p in self.pairs}

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "pairs": [p.to_dict() for p in self.pairs],
            "creditedTrades": dict(self.credited_trades),
            "completedTrades": dict(self.completed_trades),
            "anomalies": [x.to_dict() for x in self.anomalies],
            "unvaluedItems": sorted(self.unvalued_items),
        }


def has_goods(items: object) -> bool:
    """True when an item map holds at least one item with a positive quantity (a trade side, not a gift)."""
    return isinstance(items, Mapping) and any(
        isinstance(q, (int, float)) and not isinstance(q, bool) and q > 0 for q in items.values()
    )


def _trade_parts(trade: LedgerTrade | Mapping[str, Any]) -> tuple[str, str, Mapping[str, int], Mapping[str, int]]:
    if isinstance(trade, LedgerTrade):
        return trade.from_agent, trade.to_agent, trade.give, trade.receive
    return trade["from"], trade["to"], trade.get("give") or {}, trade.get("receive") or {}


def net_share(
    trades_between_pair: Iterable[LedgerTrade | Mapping[str, Any]],
    values: Mapping[str, float],
) -> float:
    """A pair's net share (rubric 2.4, *Trade ledger*).

    Take one of the two agents (the rule is symmetric, so which does not matter;
    here the smaller id).  For each item, ``|received - gave| x value``, summed,
    over ``(received + gave) x value``, summed; rounded to three places, halves up
    on the double (``half_up``).  Items are summed in name order.

    A pair whose traded goods are worth 0 in total (only trades of nothing, or only
    items valued 0; also an empty list) has net share **0.0**.  Chosen because the
    rubric credits trades "for the value they moved": such a pair moved no value, so
    it earns no credited trades (``min(n, 5) x 0``), and any reputation it paid
    counts in full as circular (``points x (1 - 0)``), as reputation earned by
    moving nothing should.

    Parameters
    ----------
    trades_between_pair:
        The pair's trades, one per ``tradeId``: :class:`LedgerTrade` records or
        ``trade_completed`` payloads (``from``, ``to``, ``give``, ``receive``).
    values:
        Item values (:func:`daishi_forensics.read.archive.item_values`); an unknown item is worth 0.

    Raises
    ------
    ValueError
        The trades involve more than two agents, or an agent trades with itself.

    >>> v = {"wood": 2.0, "food": 2.0}
    >>> net_share([{"from": "a", "to": "b", "give": {"wood": 3}, "receive": {"food": 3}}], v)
    1.0
    >>> net_share([{"from": "a", "to": "b", "give": {"wood": 3}, "receive": {}},
    ...            {"from": "b", "to": "a", "give": {"wood": 3}, "receive": {}}], v)
    0.0
    """
    first: str | None = None
    pair: tuple[str, str] | None = None
    received: Counter[str] = Counter()
    gave: Counter[str] = Counter()
    for trade in trades_between_pair:
        giver, taker, give, receive = _trade_parts(trade)
        if giver == taker:
            raise ValueError(f"{giver} trades with itself")
        key = pair_key(giver, taker)
        if pair is None:
            pair, first = key, key[0]
        elif key != pair:
            raise ValueError(f"trades of more than one pair: {pair} and {key}")
        if giver == first:
            gave.update(give)
            received.update(receive)
        else:
            gave.update(receive)
            received.update(give)
    return _net_share_of(received, gave, values)


def _net_share_of(received: Mapping[str, Any], gave: Mapping[str, Any], values: Mapping[str, float]) -> float:
    """:func:`net_share` from the totals one agent of the pair received and gave, per item."""
    numerator = 0.0
    denominator = 0.0
    for item in sorted(set(received) | set(gave)):
        value = values.get(item, 0.0)
        got, out = received.get(item, 0), gave.get(item, 0)
        numerator += abs(got - out) * value
        denominator += (got + out) * value
    if denominator <= 0.0:
        return 0.0
    return half_up(numerator / denominator, 3)


class TradePair(Protocol):
    """A pair of agents that traded, as a :class:`LedgerPair` or :class:`ArchivedPair` holds it: the two
    agents, ``a < b``, and the trades between them (what the rubric's per-partner caps count); what
    :func:`~.reputation.estimated_points` reads of a pair."""

    @property
    def a(self) -> str: ...
    @property
    def b(self) -> str: ...
    @property
    def trades(self) -> int: ...


class SharedPair(TradePair, Protocol):
    """What :func:`credited_trades` reads of a pair (a :class:`LedgerPair` or :class:`ArchivedPair`): a
    :class:`TradePair` and its net share."""

    @property
    def net_share(self) -> float: ...


def credited_trades(agent: str, pairs: Iterable[SharedPair]) -> float:
    """An agent's credited trades (rubric 2.4, *Social*).

    Summed over the agent's trading partners (in partner-id order, left to right),
    ``min(trades with that partner, 5) x that pair's net share``; rounded to three
    places, halves up.  Pairs without ``agent`` are ignored; 0.0 when it has none.

    >>> class P:
    ...     def __init__(self, a, b, trades, net_share):
    ...         self.a, self.b, self.trades, self.net_share = a, b, trades, net_share
    >>> credited_trades("x", [P("x", "y", 7, 0.5), P("w", "x", 2, 1.0), P("v", "w", 9, 1.0)])
    4.5
    """
    terms: dict[str, float] = {}
    for pair in pairs:
        if agent not in (pair.a, pair.b):
            continue
        partner = pair.b if pair.a == agent else pair.a
        if partner in terms:
            raise ValueError(f"pair ({agent}, {partner}) listed twice")
        terms[partner] = min(pair.trades, PARTNER_TRADE_CAP) * pair.net_share
    total = 0.0
    for partner in sorted(terms):
        total += terms[partner]
    return half_up(total, 3)


def trade_payload(ev: Mapping[str, Any]) -> Mapping[str, Any]:
    """The payload of a trade event, checked for the fields the ledger reads."""
    payload = ev.get("payload")
    if (
        type(payload) is dict and "tradeId" in payload and type(payload.get("from")) is str
        and type(payload.get("to")) is str and type(payload.get("give")) is dict
        and type(payload.get("receive")) is dict
    ):
        return payload  # the usual shape, checked without the abstract-class look-ups below
    event_id = ev.get("id")
    if not isinstance(payload, Mapping):
        raise InvalidInput("trade event without a payload object", event_id=event_id, field="payload")
    if "tradeId" not in payload:
        raise InvalidInput("trade event without a tradeId", event_id=event_id, field="payload.tradeId")
    for name in ("from", "to"):
        if not isinstance(payload.get(name), str):
            raise InvalidInput(f"trade event without an agent in {name}", event_id=event_id, field=f"payload.{name}")
    for name in ("give", "receive"):
        if not isinstance(payload.get(name), Mapping):
            raise InvalidInput(f"trade event without an item map in {name}", event_id=event_id, field=f"payload.{name}")
    return payload


def _totals(times: Mapping[int, int], by_id: Mapping[int, Mapping[str, int]]) -> dict[str, int]:
    """Item -> quantity over the item maps (by ``id``) moved the given number of times."""
    totals: dict[str, int] = {}
    for key, n in times.items():
        for item, quantity in by_id[key].items():
            totals[item] = totals.get(item, 0) + quantity * n
    return totals


_UPCAST = 0b1
"""Row mark: one of the trade's events is a synthesized v2 offerer twin."""
_FROM_COUNTED = 0b10
"""Row mark: the event of the trade's ``from`` agent was counted."""
_TO_COUNTED = 0b100
"""Row mark: the event of the trade's ``to`` agent was counted."""


class LedgerPass:
    """Streaming pass building the :class:`Ledger` (replay protocol, ARCHITECTURE.md).

    Feed every event in log order to :meth:`observe`; call :meth:`result` once the
    stream ends.  Holds one counter per agent and, per trade, a row of a
    :class:`TradeTable` (the terms of its first event, its tick, its event ids) with
    the pass's marks for the upcast twin and the parties counted; a party event of an
    agent that is neither ``from`` nor ``to`` is remembered apart (rare), as are the
    anomalies.  :meth:`result` builds the :class:`LedgerTrade` records from the rows,
    the item maps shared between trades that moved the same goods.
    """

    types: frozenset[str] = frozenset({"trade_completed", "trade_fulfilled"})
    """The event types it reads (the replay driver feeds it only these)."""

    def __init__(self) -> None:
        self._table = TradeTable()
        self._other_parties: set[tuple[int, str]] = set()
        self._completed: Counter[str] = Counter()
        self._anomalies: list[LedgerAnomaly] = []

    def observe(self, ev: Mapping[str, Any], world: object | None) -> None:
        """Take one event (``world`` is not read)."""
        kind = ev.get("type")
        if kind == "trade_fulfilled":
            agent = ev.get("agentId")
            if isinstance(agent, str):
                self._completed[agent] += 1
            else:
                payload = ev.get("payload")
                named = payload.get("tradeId") if isinstance(payload, Mapping) else None
                self._anomaly(ev.get("id"), named, "no_agent", "trade_fulfilled without an agentId")
            return
        if kind != "trade_completed":
            return
        payload = trade_payload(ev)
        event_id = ev.get("id")
        trade_id: TradeId = payload["tradeId"]
        table = self._table
        row, new = table.row(trade_id, payload, event_id, ev.get("tick", 0))
        if new:
            if payload["from"] == payload["to"]:
                self._anomaly(event_id, trade_id, "self_trade", f"{payload['from']} trades with itself")
        elif not table.same_terms(row, payload):
            self._anomaly(
                event_id,
                trade_id,
                "twin_differs",
                "this event's from/to/give/receive differ from the trade's first event; the first counts",
            )
        marks = table.marks
        if ev.get("upcast") == "offerer":
            marks[row] |= _UPCAST

        agent = ev.get("agentId")
        if not isinstance(agent, str):
            self._anomaly(event_id, trade_id, "no_agent", "trade_completed without an agentId")
            return
        if agent == table.giver_of(row):
            counted = _FROM_COUNTED
        elif agent == table.taker_of(row):
            counted = _TO_COUNTED
        else:
            counted = 0
        if counted & marks[row] or (not counted and (row, agent) in self._other_parties):
            self._anomaly(
                event_id, trade_id, "duplicate_party_event", f"{agent}'s event for this trade logged again; counted once"
            )
            return
        if counted:
            marks[row] |= counted
        else:
            self._other_parties.add((row, agent))
        self._completed[agent] += 1
        if agent not in (payload["from"], payload["to"]):
            self._anomaly(event_id, trade_id, "agent_not_party", f"{agent} is neither from nor to")

    def _anomaly(self, event_id: int | None, trade_id: TradeId | None, kind: str, detail: str) -> None:
        self._anomalies.append(LedgerAnomaly(event_id, trade_id, kind, detail))

    def result(self, values: Mapping[str, float]) -> Ledger:
        """The ledger, valuing goods with ``values`` (:func:`daishi_forensics.read.archive.item_values`)."""
        table = self._table
        item_maps = table.item_maps()
        marks = table.marks
        trades = tuple(
            LedgerTrade(trade_id, tick, giver, taker, give, receive, event_ids, bool(marks[row] & _UPCAST))
            for row, ((trade_id, giver, taker, give, receive, event_ids), tick) in enumerate(
                zip(table.trades(item_maps), table.ticks)
            )
        )
        unvalued: set[str] = set()
        for items in item_maps:  # every kept map is some trade's give or receive
            unvalued |= unvalued_items(items, values)
        worth = {id(items): value_of(items, values) for items in item_maps}
        goods = {id(items): has_goods(items) for items in item_maps}
        counts_only = {id(items): items for code, items in enumerate(item_maps) if table.shapes.shared(code)}
        by_pair: dict[tuple[str, str], list[LedgerTrade]] = {}
        for trade in trades:
            if trade.from_agent == trade.to_agent:
                continue
            by_pair.setdefault(trade.pair, []).append(trade)

        pairs: list[LedgerPair] = []
        for (a, b), pair_trades in sorted(by_pair.items()):
            value_a_gave = 0.0
            value_b_gave = 0.0
            gifts = 0
            a_gave: dict[int, int] = {}  # id(item map) -> times a gave it
            a_got: dict[int, int] = {}
            for trade in pair_trades:
                give, receive = id(trade.give), id(trade.receive)
                value_from = worth[give]
                value_to = worth[receive]
                if trade.from_agent == a:
                    value_a_gave += value_from
                    value_b_gave += value_to
                else:
                    value_a_gave += value_to
                    value_b_gave += value_from
                    give, receive = receive, give
                a_gave[give] = a_gave.get(give, 0) + 1
                a_got[receive] = a_got.get(receive, 0) + 1
                if not goods[id(trade.give)] or not goods[id(trade.receive)]:
                    gifts += 1  # LedgerTrade.is_gift
            if counts_only.keys() >= a_gave.keys() and counts_only.keys() >= a_got.keys():
                # whole counts only: the per-item totals do not depend on the order they are summed in
                share = _net_share_of(_totals(a_got, counts_only), _totals(a_gave, counts_only), values)
            else:
                share = net_share(pair_trades, values)
            pairs.append(
                LedgerPair(
                    a=a,
                    b=b,
                    trades=len(pair_trades),
                    net_share=share,
                    gifts=gifts,
                    value_a_gave=value_a_gave,
                    value_b_gave=value_b_gave,
                    trade_ids=tuple(trade.trade_id for trade in pair_trades),
                    event_ids=tuple(sorted({i for trade in pair_trades for i in trade.event_ids})),
                )
            )

        agents = set(self._completed) | {p.a for p in pairs} | {p.b for p in pairs}
        credited = {agent: credited_trades(agent, pairs) for agent in sorted(agents)}
        return Ledger(
            pairs=tuple(pairs),
            trades=trades,
            credited_trades=credited,
            completed_trades={agent: self._completed[agent] for agent in sorted(self._completed)},
            anomalies=tuple(self._anomalies),
            unvalued_items=frozenset(unvalued),
        )


# -- the archive's own ledger block (contract §4) ------------------------------------------


@dataclass(frozen=True)
class ArchivedPair:
    """A pair as the archive's ``ledger.pairs`` stamped it."""

    a: str
    """The smaller agent id (swapped into order if the archive had it the other way)."""
    b: str
    """The larger agent id."""
    trades: int
    """``trades``."""
    net_share: float
    """``netShare``."""
    rep: dict[str, float] | None
    """``rep``: reputation points the pair paid each side (ledgers stamped since
    rubric 2.4); None when absent."""


@dataclass(frozen=True)
class ArchivedLedger:
    """The archive's ``ledger`` block (newer servers stamp it; contract §4)."""

    pairs: tuple[ArchivedPair, ...]
    """Its pairs, sorted by ``(a, b)``."""
    commons: dict[str, float]
    """``commons``: agent -> commons share."""

    def net_shares(self) -> dict[tuple[str, str], float]:
        """``(a, b) -> netShare``."""
        return {(p.a, p.b): p.net_share for p in self.pairs}

    @property
    def has_rep(self) -> bool:
        """True when every pair carries ``rep`` (and there is at least one pair)."""
        return bool(self.pairs) and all(p.rep is not None for p in self.pairs)


def _number(value: object, where: str, low: float | None = None, high: float | None = None, what: str = "") -> float:
    """``value`` as a float; an error naming ``where`` when it is not a number or lies outside
    ``[low, high]`` (``what`` says what the range is)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise InvalidInput(f"not a number: {shown(value)}", field=where)
    if (low is not None and not value >= low) or (high is not None and not value <= high):
        raise InvalidInput(f"{shown(value)} is not {what}", field=where)
    return float(value)


def archived_ledger(archive: Mapping[str, Any]) -> ArchivedLedger | None:
    """The archive's ``ledger`` block, checked, or None when the archive has none.

    Raises
    ------
    InvalidInput
        The block is malformed (the error names the field, e.g. ``ledger.pairs[2].netShare``).
    """
    block = archive.get("ledger")
    if block is None:
        return None
    if not isinstance(block, Mapping):
        raise InvalidInput("the ledger block is not an object", field="ledger")
    raw_pairs = block.get("pairs", [])
    if not isinstance(raw_pairs, list):
        raise InvalidInput("ledger pairs is not a list", field="ledger.pairs")
    pairs: list[ArchivedPair] = []
    seen: set[tuple[str, str]] = set()
    for index, raw in enumerate(raw_pairs):
        where = f"ledger.pairs[{index}]"
        if not isinstance(raw, Mapping):
            raise InvalidInput("a ledger pair is not an object", field=where)
        x, y = raw.get("a"), raw.get("b")
        if not isinstance(x, str) or not isinstance(y, str) or x == y:
            raise InvalidInput(f"a pair needs two distinct agents, got {shown(x)} and {shown(y)}", field=f"{where}.a")
        key = pair_key(x, y)
        if key in seen:
            raise InvalidInput(f"pair {key} listed twice", field=where)
        seen.add(key)
        trades = raw.get("trades")
        if isinstance(trades, float) and trades > MAX_TICK:  # an integer written past 64 bits: its double not quoted
            raise InvalidInput(past_exact(trades), field=f"{where}.trades")
        if not isinstance(trades, int) or isinstance(trades, bool) or trades < 0:
            raise InvalidInput(f"trades is not a count: {shown(trades)}", field=f"{where}.trades")
        if trades > MAX_TICK:
            raise InvalidInput(past_exact(trades), field=f"{where}.trades")
        # rubric *Trade ledger*: a net share is a part of the value moved, 0 to 1
        share = _number(raw.get("netShare"), f"{where}.netShare", 0.0, 1.0, "a net share (0 to 1)")
        rep_raw = raw.get("rep")
        rep: dict[str, float] | None = None
        if rep_raw is not None:
            if not isinstance(rep_raw, Mapping):
                raise InvalidInput("rep is not an object", field=f"{where}.rep")
            rep = {}
            for agent, points in rep_raw.items():
                if agent not in key:
                    raise InvalidInput(f"rep names {agent}, not one of the pair", field=f"{where}.rep")
                # rubric *Circular reputation (2.4)*: a side is paid for fewer than 5 trades with a partner
                rep[agent] = _number(points, f"{where}.rep.{agent}", 0.0, PARTNER_TRADE_CAP,
                                     f"a pair's reputation points (0 to {PARTNER_TRADE_CAP})")
        pairs.append(ArchivedPair(key[0], key[1], trades, share, rep))
    raw_commons = block.get("commons", {})
    if not isinstance(raw_commons, Mapping):
        raise InvalidInput("ledger commons is not an object", field="ledger.commons")
    commons = {agent: _number(share, f"ledger.commons.{agent}", 0.0, MAX_MAGNITUDE,
                              f"a commons share (0 to {MAX_MAGNITUDE:.0f})")
               for agent, share in sorted(raw_commons.items())}
    return ArchivedLedger(tuple(sorted(pairs, key=lambda p: (p.a, p.b))), commons)
