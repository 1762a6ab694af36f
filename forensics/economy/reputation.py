"""Trade reputation, circular reputation, and the index reputation and wealth.

Rubric 2.4 (seed 000), *Circular reputation (2.4)*:

* Replay the engine's trade reputation from the ``trade_completed`` events in log
  order: a trade with goods on both sides pays each side a point while that side
  has been paid for fewer than 5 trades with that partner and fewer than 20 in
  all; a gift pays nothing.
* An agent's circular reputation is, summed over its partners, the points that
  pair paid it x (1 - the pair's net share), rounded to three places, halves up.
* Where it is above 0, the agent's index reputation is its final reputation less
  it, and its index wealth is its final wealth less 2 x it, each rounded to three
  places, halves up; otherwise both are as archived.
* Ledgers stamped since 2.4 carry each pair's points as ``rep``.  Scoring an older
  ledger whose events are gone, each partner's points are estimated as
  ``min(trades with that partner, 5)``, all scaled down in proportion when they
  sum past 20, and the figure is flagged as estimated.

Readings fixed here where the rubric is silent:

* One trade per ``tradeId`` (the first event seen), as in the ledger; a trade of
  an agent with itself pays nothing.  "Goods on a side" means at least one item
  with a quantity above 0.
* The estimate scales each point as ``points x 20 / sum`` (on the double, unrounded);
  the rounding happens once, in :func:`circular_reputation`.
* An archive ledger whose pairs do not all carry ``rep`` is estimated as a whole:
  the 20-point cap ties an agent's partners together, so mixing paid and estimated
  points would be neither figure.

Memory: :class:`ReputationPass` keeps the ``tradeId``\\ s it has seen (a plain set: one
entry a trade), the points per pair and agent, and the trades that paid -- at most 20
per agent, by the caps -- so it grows with the trades, agents and pairs, not with the
other events.

>>> p = ReputationPass()
>>> p.observe({"id": 1, "type": "trade_completed", "agentId": "a_2", "payload": {"tradeId": "t1",
...     "from": "a_1", "to": "a_2", "give": {"wood": 1}, "receive": {"food": 1}}}, None)
>>> points = p.result()
>>> points.points_by_pair()
{('a_1', 'a_2'): {'a_1': 1, 'a_2': 1}}
>>> circular_reputation(points.points_by_pair(), {("a_1", "a_2"): 0.25})
{'a_1': 0.75, 'a_2': 0.75}
>>> index_reputation_and_wealth(7, 120.5, 0.75)
(6.25, 119.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from daishi_forensics.arithmetic import half_up
from daishi_forensics.errors import InvalidInput
from .ledger import ArchivedLedger, TradeId, TradePair, has_goods, pair_key

__all__ = [
    "PARTNER_POINT_CAP",
    "TOTAL_POINT_CAP",
    "PairPoints",
    "ReputationPoints",
    "ReputationPass",
    "TradePair",
    "circular_reputation",
    "index_reputation_and_wealth",
    "estimated_points",
    "points_from_ledger",
]

PARTNER_POINT_CAP = 5
"""Trades with one partner an agent is paid reputation for."""

TOTAL_POINT_CAP = 20
"""Trades in all an agent is paid reputation for."""


@dataclass(frozen=True)
class PairPoints:
    """The reputation points one pair's trades paid each side."""

    a: str
    """The smaller agent id."""
    b: str
    """The larger agent id."""
    points: dict[str, float]
    """``{a: points paid to a, b: points paid to b}`` (integers when replayed)."""
    paying_trade_ids: tuple[TradeId, ...]
    """Trades that paid at least one side, in log order (empty when not replayed)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``rep`` as the archive ledger block names it)."""
        return {"a": self.a, "b": self.b, "rep": dict(self.points), "payingTradeIds": list(self.paying_trade_ids)}


@dataclass(frozen=True)
class ReputationPoints:
    """Reputation points per pair, and where they came from."""

    pairs: tuple[PairPoints, ...]
    """Every pair, sorted by ``(a, b)``."""
    source: str
    """``events`` (replayed from the log), ``ledger`` (the archive ledger's ``rep``) or
    ``estimate`` (from trade counts, for an older ledger whose events are gone)."""
    estimated: bool
    """True when the points are an estimate; a scorecard must say so."""

    def points_by_pair(self) -> dict[tuple[str, str], dict[str, float]]:
        """``(a, b) -> {agent: points}``, the input of :func:`circular_reputation`."""
        return {(p.a, p.b): dict(p.points) for p in self.pairs}

    def totals(self) -> dict[str, float]:
        """Agent -> points paid over all its partners (partner order, left to right)."""
        totals: dict[str, float] = {}
        for pair in self.pairs:
            for agent in (pair.a, pair.b):
                totals[agent] = totals.get(agent, 0) + pair.points.get(agent, 0)
        return dict(sorted(totals.items()))

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"pairs": [p.to_dict() for p in self.pairs], "source": self.source, "estimated": self.estimated}


class ReputationPass:
    """Streaming pass replaying the engine's trade reputation (rubric *Circular reputation (2.4)*).

    Feed every event in log order to :meth:`observe`; :meth:`result` gives the points
    each pair paid each side.  Holds the seen ``tradeId``\\ s (a set), the points per
    pair and agent, and the trades that paid (at most 20 per agent, by the caps).
    """

    types: frozenset[str] = frozenset({"trade_completed"})
    """The event types it reads (the replay driver feeds it only these)."""

    def __init__(self) -> None:
        self._seen: set[TradeId] = set()
        self._paid_with: dict[tuple[str, str], int] = {}
        self._paid_total: dict[str, int] = {}
        self._pairs: dict[tuple[str, str], list[TradeId]] = {}

    def observe(self, ev: Mapping[str, Any], world: object | None) -> None:
        """Take one event (``world`` is not read); only the first ``trade_completed`` of a trade pays."""
        if ev.get("type") != "trade_completed":
            return
        payload = ev.get("payload")
        if (type(payload) is not dict and not isinstance(payload, Mapping)) or "tradeId" not in payload:
            raise InvalidInput("trade_completed without a tradeId", event_id=ev.get("id"), field="payload.tradeId")
        trade_id: TradeId = payload["tradeId"]
        if trade_id in self._seen:
            return
        self._seen.add(trade_id)
        giver, taker = payload.get("from"), payload.get("to")
        for name, agent in (("from", giver), ("to", taker)):
            if not isinstance(agent, str):
                raise InvalidInput(f"trade_completed without an agent in {name}", event_id=ev.get("id"),
                                   field=f"payload.{name}")
        assert isinstance(giver, str) and isinstance(taker, str)
        if giver == taker:
            return
        key = pair_key(giver, taker)
        paying = self._pairs.get(key)
        if paying is None:
            paying = self._pairs[key] = []
        if not (has_goods(payload.get("give")) and has_goods(payload.get("receive"))):
            return  # a gift pays nothing
        paid_any = False
        for side, partner in ((giver, taker), (taker, giver)):
            with_partner = self._paid_with.get((side, partner), 0)
            in_all = self._paid_total.get(side, 0)
            if with_partner < PARTNER_POINT_CAP and in_all < TOTAL_POINT_CAP:
                self._paid_with[(side, partner)] = with_partner + 1
                self._paid_total[side] = in_all + 1
                paid_any = True
        if paid_any:
            paying.append(trade_id)

    def result(self) -> ReputationPoints:
        """The points each pair paid each side (``source="events"``, not estimated)."""
        pairs = tuple(
            PairPoints(
                a=a,
                b=b,
                points={a: self._paid_with.get((a, b), 0), b: self._paid_with.get((b, a), 0)},
                paying_trade_ids=tuple(paying),
            )
            for (a, b), paying in sorted(self._pairs.items())
        )
        return ReputationPoints(pairs=pairs, source="events", estimated=False)


def circular_reputation(
    points_by_pair: Mapping[tuple[str, str], Mapping[str, float]] | ReputationPoints,
    net_shares: Mapping[tuple[str, str], float],
) -> dict[str, float]:
    """Each agent's circular reputation (rubric *Circular reputation (2.4)*).

    Summed over its partners (in partner-id order, left to right on the double),
    ``points that pair paid it x (1 - the pair's net share)``; rounded to three
    places, halves up.  Every agent named in ``points_by_pair`` gets a figure (0.0
    when it earned nothing or every pair moved value one way).

    Parameters
    ----------
    points_by_pair:
        ``(a, b) -> {agent: points}`` (either order of the pair), or a :class:`ReputationPoints`.
    net_shares:
        ``(a, b) -> net share`` (either order), e.g. :meth:`daishi_forensics.economy.ledger.Ledger.net_shares`.

    Raises
    ------
    ValueError
        A pair has points but no net share, or points for an agent not in the pair.

    >>> circular_reputation({("x", "y"): {"x": 5, "y": 3}, ("x", "z"): {"x": 2, "z": 2}},
    ...                     {("x", "y"): 0.412, ("z", "x"): 1.0})
    {'x': 2.94, 'y': 1.764, 'z': 0.0}
    """
    if isinstance(points_by_pair, ReputationPoints):
        points_by_pair = points_by_pair.points_by_pair()
    shares = {pair_key(*pair): share for pair, share in net_shares.items()}
    terms: dict[str, dict[str, float]] = {}
    for pair, points in points_by_pair.items():
        key = pair_key(*pair)
        if key not in shares:
            raise ValueError(f"pair {key} paid reputation points but has no net share")
        share = shares[key]
        for agent, paid in points.items():
            if agent not in key:
                raise ValueError(f"points for {agent} under pair {key}")
            partner = key[1] if agent == key[0] else key[0]
            terms.setdefault(agent, {})[partner] = paid * (1 - share)
    circular: dict[str, float] = {}
    for agent in sorted(terms):
        total = 0.0
        for partner in sorted(terms[agent]):
            total += terms[agent][partner]
        circular[agent] = half_up(total, 3)
    return circular


def index_reputation_and_wealth(
    final_reputation: float, final_wealth: float, circular: float
) -> tuple[float, float]:
    """The reputation and wealth the 2.4 index reads (rubric *Circular reputation (2.4)*).

    Where ``circular > 0``: ``(reputation - circular, wealth - 2 x circular)``, each
    rounded to three places, halves up.  Otherwise both as archived.

    >>> index_reputation_and_wealth(20, 305.0, 4.14)
    (15.86, 296.72)
    >>> index_reputation_and_wealth(-2, 50.0, 0.0)
    (-2.0, 50.0)
    """
    if circular > 0:
        return half_up(final_reputation - circular, 3), half_up(final_wealth - 2 * circular, 3)
    return float(final_reputation), float(final_wealth)


def estimated_points(ledger_pairs: Iterable[TradePair]) -> ReputationPoints:
    """Estimated reputation points for a ledger whose events are gone (rubric *Circular reputation (2.4)*).

    Each partner's points are ``min(trades with that partner, 5)``; when an agent's
    points sum past 20, each is scaled to ``points x 20 / sum`` (unrounded).  The
    result is flagged ``estimated=True``.

    >>> class P:
    ...     def __init__(self, a, b, trades):
    ...         self.a, self.b, self.trades = a, b, trades
    >>> est = estimated_points([P("h", f"p{i}", 9) for i in range(5)] + [P("p0", "q", 2)])
    >>> est.points_by_pair()[("h", "p0")], est.estimated
    ({'h': 4.0, 'p0': 5}, True)
    """
    raw: dict[str, dict[str, int]] = {}
    keys: list[tuple[str, str]] = []
    for pair in ledger_pairs:
        key = pair_key(pair.a, pair.b)
        if key in keys:
            raise ValueError(f"pair {key} listed twice")
        keys.append(key)
        points = min(pair.trades, PARTNER_POINT_CAP)
        raw.setdefault(key[0], {})[key[1]] = points
        raw.setdefault(key[1], {})[key[0]] = points
    scaled: dict[str, dict[str, float]] = {}
    for agent, by_partner in raw.items():
        total = 0
        for partner in sorted(by_partner):
            total += by_partner[partner]
        if total > TOTAL_POINT_CAP:
            scaled[agent] = {p: by_partner[p] * TOTAL_POINT_CAP / total for p in by_partner}
        else:
            scaled[agent] = dict(by_partner)
    pairs = tuple(
        PairPoints(a=a, b=b, points={a: scaled[a][b], b: scaled[b][a]}, paying_trade_ids=())
        for a, b in sorted(keys)
    )
    return ReputationPoints(pairs=pairs, source="estimate", estimated=True)


def points_from_ledger(ledger: ArchivedLedger) -> ReputationPoints:
    """Reputation points from an archive's ``ledger`` block.

    Its ``rep`` when every pair carries one (``source="ledger"``, a side it leaves out
    paid 0); otherwise :func:`estimated_points` over its pairs.
    """
    if ledger.has_rep:
        pairs = tuple(
            PairPoints(
                a=p.a,
                b=p.b,
                points={p.a: (p.rep or {}).get(p.a, 0), p.b: (p.rep or {}).get(p.b, 0)},
                paying_trade_ids=(),
            )
            for p in ledger.pairs
        )
        return ReputationPoints(pairs=pairs, source="ledger", estimated=False)
    return estimated_points(ledger.pairs)
