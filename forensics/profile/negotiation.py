"""Negotiation per seat: offers, completion, surplus, and each pair's relative advantage.

Seed 002 §2.8 (*Negotiation*; NegotiationArena, GTBench, Davidson et al.): report
three numbers per negotiator -- completion rate, mean surplus over completed deals,
mean surplus over all attempts -- so a pushover (completes everything at a loss)
and a deal-killer (completes nothing) can be told apart; and per pair the
normalized relative advantage ``(ΣA − ΣB) / (ΣA + ΣB)``.

Rules (the contract's where it has one, ours where it is silent, all stated):

- **Values.** Goods are valued at the archive's item values
  (:func:`daishi_forensics.read.archive.item_values`: contract §4 defaults where missing).
- **One trade per** ``tradeId``.  Completed trades are read as the trade ledger
  (:class:`~daishi_forensics.economy.ledger.LedgerPass`) reads them -- the pass reads them
  itself so its result needs nothing else, and takes the analysis' ledger instead
  when given one -- which counts a v3 trade's two ``trade_completed``
  events and a v2 trade's synthesized offerer twin (``"upcast": "offerer"``) once.
  A trade of an agent with itself is left out.
- **Offer.** A ``trade_offered`` with an agent in ``to`` is a *direct offer* from
  its ``agentId`` (the offerer) to ``to``.  With ``to`` null it is a *market order*,
  counted apart with the market fills.  An offer logged twice under one ``tradeId``
  counts once (the first).
- **Attempt.** A seat's attempts are the distinct ``tradeId``\\ s of the direct offers
  it made or received, together with those of the completed trades it was a party
  to (a completed trade whose offer the log does not hold is still an attempt).
- **Deal.** A completed trade the seat was a party to.  Completion rate = deals ÷
  attempts (None with no attempt).  Gifts (one side empty) are deals.
- **Surplus** of a deal for a seat = value it received − value it gave.  Surplus
  per deal = Σ surplus ÷ deals; per attempt = Σ surplus ÷ attempts (an attempt that
  did not complete adds 0).  Both None when their denominator is 0.
- **Relative advantage** of a pair ``a < b``: ``ΣA`` = value ``a`` received from ``b``
  over their completed trades, ``ΣB`` = value ``b`` received from ``a``;
  ``(ΣA − ΣB) / (ΣA + ΣB)`` in [−1, 1], positive when ``a`` came out ahead; None when
  nothing of value moved.  (Quantities, not utilities: item values are the market's
  price, as seed 002 prescribes, "market-imputed valuations".)
- **Market.** ``trade_fulfilled`` events are market fills, counted per
  ``(tradeId, agentId)`` once, with their own surplus; they are not deals.
- ``trade_cancelled`` counts against the offer of its ``tradeId`` (the offerer
  withdrew it).

Everything is unrounded here; :mod:`.profile` rounds for the report.

Memory: the pass keeps a row per completed trade (a
:class:`~daishi_forensics.economy.ledger.TradeTable` row), per offer (its trade id as a dict
key, the two agents' codes, a cancelled flag) and per market fill (the agent's code, its side,
the item maps' codes); agents and item maps are kept once, in tables.

>>> neg = NegotiationPass()
>>> evs = [
...   {"id": 1, "tick": 1, "type": "trade_offered", "agentId": "a_1",
...    "payload": {"tradeId": "t1", "to": "a_2", "give": {"wood": 3}, "receive": {"ore": 2}}},
...   {"id": 2, "tick": 2, "type": "trade_completed", "agentId": "a_2",
...    "payload": {"tradeId": "t1", "from": "a_1", "to": "a_2", "give": {"wood": 3}, "receive": {"ore": 2}}},
...   {"id": 3, "tick": 2, "type": "trade_offered", "agentId": "a_1",
...    "payload": {"tradeId": "t2", "to": "a_2", "give": {"wood": 1}, "receive": {"ore": 5}}}]
>>> for e in evs:
...     neg.observe(e, None)
>>> result = neg.result({"wood": 2.0, "ore": 5.0})
>>> s = result.seat("a_1")
>>> s.attempts, s.deals, s.completion_rate, s.surplus_per_deal, s.surplus_per_attempt
(2, 1, 0.5, 4.0, 2.0)
>>> result.pairs[0].relative_advantage
0.25
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from daishi_forensics.economy.ledger import Ledger, TradeId, TradeTable, has_goods, trade_payload
from daishi_forensics.replay import Event, World, code_column
from daishi_forensics.read.archive import value_of
from ._seats import find_seat

__all__ = ["SeatNegotiation", "PairAdvantage", "Negotiation", "NegotiationPass", "relative_advantage"]


def relative_advantage(value_a_received: float, value_b_received: float) -> float | None:
    """Normalized relative advantage ``(ΣA − ΣB) / (ΣA + ΣB)``; None when both are 0.

    >>> relative_advantage(10.0, 6.0)
    0.25
    >>> relative_advantage(0.0, 0.0) is None
    True
    """
    total = value_a_received + value_b_received
    if total <= 0.0:
        return None
    return (value_a_received - value_b_received) / total


@dataclass(frozen=True, slots=True)
class SeatNegotiation:
    """One seat's negotiation record (see the module rules)."""

    agent: str
    """The agent id."""
    offers_made: int
    """Direct offers it made (one per ``tradeId``)."""
    offers_received: int
    """Direct offers addressed to it."""
    offers_cancelled: int
    """Its direct offers it cancelled."""
    made_completed: int
    """Its direct offers that completed."""
    received_completed: int
    """Offers addressed to it that completed (it accepted)."""
    attempts: int
    """Distinct trades it negotiated: offers made or received, and completed trades."""
    deals: int
    """Completed trades it was a party to (gifts included)."""
    gifts_given: int
    """Deals in which it gave goods and received nothing."""
    gifts_received: int
    """Deals in which it received goods and gave nothing."""
    value_given: float
    """Value of everything it handed over in its deals."""
    value_received: float
    """Value of everything it got in its deals."""
    completion_rate: float | None
    """deals ÷ attempts; None with no attempt."""
    surplus_per_deal: float | None
    """(value received − value given) ÷ deals; None with no deal."""
    surplus_per_attempt: float | None
    """(value received − value given) ÷ attempts; None with no attempt."""
    market_orders: int
    """``trade_offered`` with ``to`` null it placed."""
    market_fills: int
    """``trade_fulfilled`` events carrying its id (one per ``tradeId``)."""
    market_surplus: float
    """Σ (value received − value given) over its market fills."""

    @property
    def surplus(self) -> float:
        """value received − value given over its deals."""
        return self.value_received - self.value_given


@dataclass(frozen=True, slots=True)
class PairAdvantage:
    """Two agents ``a < b`` that completed at least one trade."""

    a: str
    """The smaller agent id."""
    b: str
    """The larger agent id."""
    trades: int
    """Completed trades between them."""
    value_a_received: float
    """ΣA: value ``a`` received from ``b``."""
    value_b_received: float
    """ΣB: value ``b`` received from ``a``."""
    relative_advantage: float | None
    """(ΣA − ΣB) ÷ (ΣA + ΣB); positive when ``a`` came out ahead; None when nothing of value moved."""
    trade_ids: tuple[TradeId, ...]
    """The trades, in log order."""
    event_ids: tuple[int, ...]
    """The ``trade_completed`` events behind them."""


@dataclass(frozen=True, slots=True)
class Negotiation:
    """Result of :meth:`NegotiationPass.result`."""

    seats: tuple[SeatNegotiation, ...]
    """Every agent that offered, was offered, traded or filled an order, sorted by id."""
    pairs: tuple[PairAdvantage, ...]
    """Every pair that completed a trade, sorted by ``(a, b)``."""

    def seat(self, agent: str) -> SeatNegotiation:
        """The seat's record (all zeros when it never negotiated)."""
        found = find_seat(self.seats, agent)
        if found is not None:
            return found
        return SeatNegotiation(agent, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.0, 0.0, None, None, None, 0, 0, 0.0)


class NegotiationPass:
    """Collects offers, cancellations, market fills and completed trades.

    Completed trades are read as the ledger reads them (one per ``tradeId``, the
    first event's terms, every event id) into a :class:`~daishi_forensics.economy.ledger.TradeTable`
    (agents and item maps as codes into tables kept once), so the result needs nothing
    else; the behavior report passes the analysis' own ledger (:meth:`result`'s
    ``ledger``) rather than reading them twice.  An offer is kept as its trade id (a
    dict key), the offerer's and addressee's codes and a cancelled flag; a market fill
    as its agent's code, its sign for the agent and its item maps' codes.
    """

    types: frozenset[str] | None = frozenset({"trade_offered", "trade_cancelled", "trade_fulfilled", "trade_completed"})

    def __init__(self) -> None:
        self._trades = TradeTable()
        self._offers: dict[TradeId, int] = {}  # tradeId -> its offer's row in the columns below
        self._offerer = code_column()  # agent code
        self._offered_to = code_column()  # agent code + 1; 0 for a market order (``to`` null)
        self._cancelled = bytearray()
        self._filled: set[tuple[TradeId, str]] = set()  # (tradeId, agent) of each market fill counted
        self._fills = code_column()  # per fill, in order: agent code, side + 1, give map code, receive map code

    def observe(self, ev: Event, world: World | None) -> None:
        """Take one event (``world`` is not read)."""
        typ = ev.get("type")
        if typ == "trade_completed":
            payload = trade_payload(ev)
            self._trades.row(payload["tradeId"], payload, ev.get("id"), ev.get("tick", 0))
            return
        payload = ev.get("payload") or {}
        trade_id = payload.get("tradeId")
        agent = ev.get("agentId")
        if trade_id is None or not isinstance(agent, str):
            return
        if typ == "trade_offered":
            if trade_id not in self._offers:
                agents = self._trades.agents
                to = payload.get("to")
                self._offers[trade_id] = len(self._offers)
                self._offerer.append(agents.code(agent))
                self._offered_to.append(agents.code(to) + 1 if isinstance(to, str) else 0)
                self._cancelled.append(0)
        elif typ == "trade_cancelled":
            offer = self._offers.get(trade_id)
            if offer is not None and self._trades.agents.values[self._offerer[offer]] == agent:
                self._cancelled[offer] = 1
        elif typ == "trade_fulfilled":
            if (trade_id, agent) not in self._filled:
                self._filled.add((trade_id, agent))
                code = self._trades.agents.code(agent)
                given, received = payload.get("give"), payload.get("receive")
                give = given if isinstance(given, Mapping) else {}
                receive = received if isinstance(received, Mapping) else {}
                if payload.get("from") == agent:
                    side = 1  # surplus: value received - value given
                elif payload.get("to") == agent:
                    side = -1
                else:
                    side = 0
                shape = self._trades.shapes.code
                self._fills.extend((code, side + 1, shape(give), shape(receive)))

    def result(self, values: Mapping[str, float], ledger: Ledger | None = None) -> Negotiation:
        """Combine the offers with the completed trades, valued at ``values``.

        ``ledger``: a ledger built over the same events, to use instead of the pass's own
        reading of the trades (same trades, same order, same numbers).
        """
        trades: list[_TradeRow]
        if ledger is None:
            trades = [row for row in self._trades.trades() if row[1] != row[2]]
        else:
            trades = [(t.trade_id, t.from_agent, t.to_agent, t.give, t.receive, t.event_ids)
                      for t in ledger.trades if t.from_agent != t.to_agent]
        prices = values if type(values) is dict else dict(values)  # plain look-ups, same numbers
        offers = self._offer_tallies({row[0] for row in trades})
        deals = _deal_tallies(trades, prices, offers.attempts)
        fills = self._fill_tallies(prices)
        agents = sorted(set(offers.attempts) | set(offers.market_orders) | set(fills.count))
        seats = tuple(_seat(agent, offers, deals, fills) for agent in agents)
        pairs = tuple(
            PairAdvantage(a, b, row[0], row[1], row[2], relative_advantage(row[1], row[2]),
                          tuple(row[3]), tuple(sorted(set(row[4]))))
            for (a, b), row in sorted(deals.pairs.items())
        )
        return Negotiation(seats, pairs)

    def _offer_tallies(self, completed_ids: set[TradeId]) -> _OfferTally:
        """Offers made, received, cancelled and completed per agent (an offer to oneself is
        not one; an offer to nobody is a market order)."""
        t = _OfferTally()
        names = self._trades.agents.values
        for trade_id, offerer_code, to_code, was_cancelled in zip(
            self._offers, self._offerer, self._offered_to, self._cancelled
        ):
            offerer = names[offerer_code]
            if not to_code:
                t.market_orders[offerer] = t.market_orders.get(offerer, 0) + 1
                continue
            to = names[to_code - 1]
            if to == offerer:
                continue
            t.made[offerer] = t.made.get(offerer, 0) + 1
            t.received[to] = t.received.get(to, 0) + 1
            t.attempts.setdefault(offerer, set()).add(trade_id)
            t.attempts.setdefault(to, set()).add(trade_id)
            if was_cancelled:
                t.cancelled[offerer] = t.cancelled.get(offerer, 0) + 1
            if trade_id in completed_ids:
                t.made_done[offerer] = t.made_done.get(offerer, 0) + 1
                t.received_done[to] = t.received_done.get(to, 0) + 1
        return t

    def _fill_tallies(self, prices: Mapping[str, float]) -> _FillTally:
        """Market fills per agent and the surplus each took (what it got less what it gave,
        valued at ``prices``; the side says which leg was the agent's)."""
        t = _FillTally()
        names = self._trades.agents.values
        mapping = self._trades.shapes.mapping
        fills = self._fills
        for i in range(0, len(fills), 4):
            agent, side, give_code, receive_code = names[fills[i]], fills[i + 1] - 1, fills[i + 2], fills[i + 3]
            v_give = value_of(mapping(give_code), prices)
            v_recv = value_of(mapping(receive_code), prices)
            if side > 0:
                surplus = v_recv - v_give
            elif side < 0:
                surplus = v_give - v_recv
            else:
                surplus = 0.0
            t.count[agent] = t.count.get(agent, 0) + 1
            t.surplus[agent] = t.surplus.get(agent, 0.0) + surplus
        return t


_TradeRow = tuple[TradeId, str, str, Mapping[str, Any], Mapping[str, Any], tuple[int, ...]]
"""A completed trade as :meth:`NegotiationPass.result` reads it: id, giver, taker, the goods
each way, its events."""


@dataclass
class _OfferTally:
    """Per-agent offer counts, filled by :meth:`NegotiationPass._offer_tallies`."""

    attempts: dict[str, set[TradeId]] = field(default_factory=dict)
    made: dict[str, int] = field(default_factory=dict)
    received: dict[str, int] = field(default_factory=dict)
    cancelled: dict[str, int] = field(default_factory=dict)
    made_done: dict[str, int] = field(default_factory=dict)
    received_done: dict[str, int] = field(default_factory=dict)
    market_orders: dict[str, int] = field(default_factory=dict)


@dataclass
class _DealTally:
    """Per-agent completed trades, value each way and gifts, and per-pair rows
    ``[trades, value to the first, value to the second, trade ids, event ids]``."""

    deals: dict[str, int] = field(default_factory=dict)
    given: dict[str, float] = field(default_factory=dict)
    got: dict[str, float] = field(default_factory=dict)
    gifts_given: dict[str, int] = field(default_factory=dict)
    gifts_received: dict[str, int] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[Any]] = field(default_factory=dict)


@dataclass
class _FillTally:
    """Per-agent market fills and the surplus taken in them."""

    count: dict[str, int] = field(default_factory=dict)
    surplus: dict[str, float] = field(default_factory=dict)


def _deal_tallies(trades: list[_TradeRow], prices: Mapping[str, float],
                  attempts: dict[str, set[TradeId]]) -> _DealTally:
    """Completed trades per agent, the value each gave and got (at ``prices``), gifts (goods one
    way, none back) and the per-pair rows; every completed trade also counts as an attempt of
    both sides (added to ``attempts``)."""
    t = _DealTally()
    worth: dict[int, tuple[float, bool]] = {}  # id(item map) -> (value, has goods); the maps stay alive in trades
    for trade_id, giver, taker, give, receive, event_ids in trades:
        known = worth.get(id(give))
        if known is None:
            known = worth[id(give)] = (value_of(give, prices), has_goods(give))
        v_give, goods_give = known  # from -> to
        known = worth.get(id(receive))
        if known is None:
            known = worth[id(receive)] = (value_of(receive, prices), has_goods(receive))
        v_recv, goods_recv = known  # to -> from
        for agent, out_v, in_v in ((giver, v_give, v_recv), (taker, v_recv, v_give)):
            seen = attempts.get(agent)
            if seen is None:
                attempts[agent] = {trade_id}
            else:
                seen.add(trade_id)
            t.deals[agent] = t.deals.get(agent, 0) + 1
            t.given[agent] = t.given.get(agent, 0.0) + out_v
            t.got[agent] = t.got.get(agent, 0.0) + in_v
        if goods_give and not goods_recv:  # a gift from the giver
            t.gifts_given[giver] = t.gifts_given.get(giver, 0) + 1
            t.gifts_received[taker] = t.gifts_received.get(taker, 0) + 1
        elif goods_recv and not goods_give:  # a gift from the taker
            t.gifts_given[taker] = t.gifts_given.get(taker, 0) + 1
            t.gifts_received[giver] = t.gifts_received.get(giver, 0) + 1
        pair = (giver, taker) if giver < taker else (taker, giver)
        row = t.pairs.get(pair)
        if row is None:
            row = t.pairs[pair] = [0, 0.0, 0.0, [], []]
        row[0] += 1
        if giver == pair[0]:
            row[1] += v_recv  # a received `receive`
            row[2] += v_give
        else:
            row[1] += v_give
            row[2] += v_recv
        row[3].append(trade_id)
        row[4].extend(event_ids)
    return t


def _seat(agent: str, offers: _OfferTally, deals: _DealTally, fills: _FillTally) -> SeatNegotiation:
    """One seat's negotiation figures: completion rate = deals / attempts, surplus = value
    received - value given, per deal and per attempt (``None`` where the denominator is 0)."""
    n_attempts = len(offers.attempts.get(agent, ()))
    n_deals = deals.deals.get(agent, 0)
    surplus = deals.got.get(agent, 0.0) - deals.given.get(agent, 0.0)
    return SeatNegotiation(
        agent=agent,
        offers_made=offers.made.get(agent, 0),
        offers_received=offers.received.get(agent, 0),
        offers_cancelled=offers.cancelled.get(agent, 0),
        made_completed=offers.made_done.get(agent, 0),
        received_completed=offers.received_done.get(agent, 0),
        attempts=n_attempts,
        deals=n_deals,
        gifts_given=deals.gifts_given.get(agent, 0),
        gifts_received=deals.gifts_received.get(agent, 0),
        value_given=deals.given.get(agent, 0.0),
        value_received=deals.got.get(agent, 0.0),
        completion_rate=n_deals / n_attempts if n_attempts else None,
        surplus_per_deal=surplus / n_deals if n_deals else None,
        surplus_per_attempt=surplus / n_attempts if n_attempts else None,
        market_orders=offers.market_orders.get(agent, 0),
        market_fills=fills.count.get(agent, 0),
        market_surplus=fills.surplus.get(agent, 0.0),
    )
