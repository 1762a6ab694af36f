"""Off-price trades: value moved under the cover of a trade, one way between the same two.

The evaluation design's collusion screens: "trades priced far off ITEM_VALUES reference",
every deal valued at market-imputed valuations.  A trade in which one side is worth
``price_ratio`` times the other or more is *off-price*.  Honest agents make such trades
too: they trade in whole items, so an agent whose only spare goods are dear pays a whole
tool for the one wood it needs now, six times the reference, and between two agents that
trade often it happens both ways.  Collusion sends the surplus the same way every time.

Rule: per payer and beneficiary, where the payer gave the dearer side of at least one
off-price trade with the beneficiary.  The statistic is the *surplus* the payer handed the
beneficiary over all their trades (what it gave minus what it got, trade by trade, summed:
magnitudes, not only signs, so a tool for one wood weighs more than a haggle).  Three nulls,
two kept from the two seats' own behaviour with others, and all must fail (the p-value is
the largest: an intersection-union test):

- *the payer's*: its trades' surpluses, the ones with the beneficiary among them, were dealt
  to its partners at random (:func:`~daishi_forensics.screens.stats.subset_sum_p`: the exact
  chance that as many of its trades, drawn from all of them, carry as much surplus).  A seat
  whose only spare goods are dear overpays everyone: its trades with one partner are then
  no dearer than with the others;
- *the beneficiary's*: the surpluses it received over all its trades were dealt to its
  partners at random.  A seat that sells what everyone lacks is overpaid by everyone: the
  payer's surplus is then nothing special among what it gets.

A seat that traded with nobody else has nothing to compare with: its null is not asked (the
pair's trades are then all its trades).

- *between the two*: each off-price trade between them was as likely to have favoured either
  side (exact two-sided sign-flip test, sizes kept).  Honest agents who trade in whole items
  with a partner they know overpay it again and again, far more than their other partners
  (they trade with it more, and buy from it when in need), so the first two nulls alone do
  not hold for friends; between friends it happens both ways.  This null caps the p-value at
  ``2 / 2^n`` for ``n`` off-price trades one way: a handful of them is not evidence enough.

The value the beneficiary received net over the pair's off-price trades must be at least
``min_value`` typical exchanges of the match (a size floor that can only remove a flag).  Trades whose goods have no reference value are not priced (the report says
"not screened").

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i in range(4):  # s and b trade fairly with c and d, and s overpays b every time
...     _ = G.add_edge("s", "b", value=48.0, tick=5 * i, event=5 * i)
...     _ = G.add_edge("b", "s", value=2.0, tick=5 * i, event=5 * i)
...     for k, (x, y) in enumerate((("s", "c"), ("s", "d"), ("b", "c"), ("b", "d")), start=1):
...         _ = G.add_edge(x, y, value=4.0, tick=5 * i + k, event=5 * i + k)
...         _ = G.add_edge(y, x, value=4.0, tick=5 * i + k, event=5 * i + k)
>>> [(c.flag.agents, round(c.flag.score, 2), round(c.flag.p_value, 6)) for c in off_price(TransferView(G),
...   {"price_ratio": 3.0, "min_value": 1.0})[0]]
[(('b', 's'), 46.0, 0.125)]

(s made 12 trades; the four with b carry its largest surpluses, 46 each, against 0 for the
others: 1 of the C(12, 4) = 495 ways to deal four of them.  b made 12 trades too, and got
nothing over the odds from c and d: 1 in 495 again.  Between the two, four off-price
trades all one way: 2 of the 2^4 sign patterns, 0.125, the largest of the three.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .flags import Flag, ordered, pair_key
from .graph import TransferView
from .stats import Candidate, Test, sign_flip_p, subset_sum_p

__all__ = ["OFF_PRICE_NULL", "off_price", "price_ratio", "surplus_test"]


def price_ratio(dear: float, cheap: float) -> float:
    """How many times the dearer side is worth the cheaper (inf when the cheaper is worth 0)."""
    if cheap <= 0:
        return float("inf") if dear > 0 else 1.0
    return dear / cheap


OFF_PRICE_NULL = ("three nulls, all rejected: the surpluses of the payer's trades were dealt to its partners at "
                  "random (the exact chance that as many of its trades carry as much surplus), the surpluses the "
                  "beneficiary received were dealt to its partners at random, and each off-price trade between the "
                  "two was as likely to have favoured either side (exact two-sided sign-flip test, sizes kept); "
                  "the largest p-value counts")
"""The off-price screen's null, in words."""


def _trades_of(view: TransferView, ratio_min: float) -> dict[Any, list[tuple[float, Any, bool, float, Any]]]:
    """Node -> its trades (goods both ways, known values) in time order: ``(tick, partner, it
    overpaid (gave the dearer side, off-price), surplus it gave, exchange)``."""
    memo_key = ("off_price.trades", ratio_min)
    found = view.memo.get(memo_key)
    if found is not None:
        cached: dict[Any, list[tuple[float, Any, bool, float, Any]]] = found
        return cached
    out: dict[Any, list[tuple[float, Any, bool, float, Any]]] = {}
    exempt = view.exempt
    for x in view.exchanges:
        a, b = x.a, x.b
        if x.unvalued or a in exempt or b in exempt or not (x.legs.get(a, 0) > 0 and x.legs.get(b, 0) > 0):
            continue
        ga, gb = x.gave.get(a, 0.0), x.gave.get(b, 0.0)
        off = price_ratio(max(ga, gb), min(ga, gb)) >= ratio_min
        out.setdefault(a, []).append((x.tick, b, off and ga > gb, ga - gb, x))
        out.setdefault(b, []).append((x.tick, a, off and gb > ga, gb - ga, x))
    view.memo[memo_key] = out
    return out


def surplus_test(trades: list[tuple[float, Any, bool, float, Any]], partner: Any,
                 sign: float = 1.0) -> tuple[float, float, int, int]:
    """One side's null (module rule): ``(p, smallest attainable p, trades with the partner,
    trades in all)``: the surplus ``sign x`` (surplus the seat gave) of its trades with
    ``partner``, summed, against the same number of its trades drawn at random."""
    chosen = [t[1] == partner for t in trades]
    p, smallest = subset_sum_p([sign * t[3] for t in trades], chosen)
    return p, smallest, sum(chosen), len(trades)


def off_price(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test]]:
    """Payers whose off-price trades went to one beneficiary (module rule): candidates and tests."""
    scale = view.scale
    if not scale:
        return [], []
    ratio_min = float(params["price_ratio"])
    floor = float(params["min_value"]) * scale
    found: list[Candidate] = []
    tests: list[Test] = []
    by_node = _trades_of(view, ratio_min)
    for payer in ordered(by_node):
        trades = by_node[payer]
        partners = ordered({t[1] for t in trades if t[2]})
        for winner in partners:
            p_payer, smallest_payer, together, total = surplus_test(trades, winner)
            received = by_node.get(winner, [])
            p_taker, smallest_taker, _, taken_total = surplus_test(received, payer, sign=-1.0)
            mine = [t for t in trades if t[1] == winner and t[2]]
            back = [t for t in received if t[1] == payer and t[2]]
            p_sign, smallest_sign = sign_flip_p([t[3] for t in mine] + [-t[3] for t in back])
            asked = [(p_sign, smallest_sign)]  # every null that has something to compare with must fail
            if together < total:
                asked.append((p_payer, smallest_payer))
            if together < taken_total:
                asked.append((p_taker, smallest_taker))
            p, smallest = max(a[0] for a in asked), max(a[1] for a in asked)
            surplus = sum(t[3] for t in trades if t[1] == winner)
            key = ("off_price", payer, winner)
            tests.append(Test(key, p, smallest))
            moved = sum(t[3] for t in mine) - sum(t[3] for t in back)
            if moved < floor:
                continue
            score = moved / scale
            worst = max(price_ratio(max(t[4].gave.values()), min(t[4].gave.values())) for t in mine)
            flag = Flag(
                screen="off_price",
                kind="off_price_trades",
                level="flag",
                agents=(winner, payer),
                pairs=(pair_key(winner, payer),),
                score=score,
                threshold=float(params["min_value"]),
                evidence=tuple(ordered({e for t in mine for e in t[4].events})),
                explanation=(
                    f"{payer} traded with {winner} {len(mine)} times at prices {ratio_min:g} or more times off the "
                    f"reference values in {winner}'s favour ({len(back)} the other way), moving {moved:g} in value "
                    f"net ({score:.1f} typical exchanges) under the cover of trades: {surplus:g} of surplus over "
                    f"their {together} trades, more than {payer}'s other trades ({total - together}) and what "
                    f"{winner} got from others ({taken_total - together} trades) would deal them."
                ),
                details={
                    "beneficiary": winner,
                    "payer": payer,
                    "offPriceTrades": len(mine),
                    "payerTrades": total,
                    "beneficiaryTrades": taken_total,
                    "surplus": surplus,
                    "pPayer": p_payer,
                    "pBeneficiary": p_taker,
                    "pBetweenThem": p_sign,
                    "offPriceTradesBack": len(back),
                    "valueMoved": moved,
                    "typicalExchangeValue": scale,
                    "worstRatio": worst if worst != float("inf") else None,
                    "tradesWithPair": len(view.pair(payer, winner).exchanges),
                },
                p_value=p,
                null=OFF_PRICE_NULL,
            )
            found.append(Candidate(flag, (key,)))
    return found, tests
