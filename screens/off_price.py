"""Off-price trades: value moved under the cover of a trade.

Seed 002 §2.9: "trades priced far off ITEM_VALUES reference"; §2.8 values every deal
with "market-imputed valuations".  A trade is an exchange with goods on both sides;
at the reference values an honest trade returns roughly what it takes (haggling, a
hungry seller, a lopsided *count* of cheap goods for one dear good all stay near
even).  A trade in which one side is worth ``price_ratio`` times the other or more is
a gift wearing a trade's clothes.

Rule: per pair and direction, the off-price trades that favoured the same side (it
received the dearer goods).  Flagged when there are at least ``min_trades`` of them and
the value they moved (dearer minus cheaper side, summed) is at least ``threshold``
typical exchanges of the match; the score is that figure.  Trades whose goods have
no reference value are not priced (the report says "not screened").

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i, (wood, tools) in enumerate([(3, 0), (2, 48), (2, 48), (4, 4)]):
...     _ = G.add_edge("s", "b", value=float(tools or 4), tick=i, event=i)
...     _ = G.add_edge("b", "s", value=float(wood), tick=i, event=i)
>>> [(f.agents, round(f.score, 2)) for f in off_price(TransferView(G),
...   {"price_ratio": 3.0, "min_trades": 2, "threshold": 3.0})]
[(('b', 's'), 24.53)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .flags import Flag, ordered, pair_key
from .graph import TransferView

__all__ = ["off_price", "price_ratio"]


def price_ratio(dear: float, cheap: float) -> float:
    """How many times the dearer side is worth the cheaper (inf when the cheaper is worth 0)."""
    if cheap <= 0:
        return float("inf") if dear > 0 else 1.0
    return dear / cheap


def off_price(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Pairs with repeated off-price trades favouring one side (module rule)."""
    scale = view.scale
    if not scale:
        return []
    ratio_min = float(params["price_ratio"])
    min_trades = int(params["min_trades"])
    threshold = float(params["threshold"])
    flags: list[Flag] = []
    for (a, b), pair in view.pairs.items():
        if a in view.exempt or b in view.exempt:
            continue
        favoured: dict[Any, list[tuple[float, float, Any]]] = {a: [], b: []}
        for x in pair.exchanges:
            if x.unvalued or not (x.legs.get(a, 0) > 0 and x.legs.get(b, 0) > 0):  # a trade: goods both ways
                continue
            ga, gb = x.gave.get(a, 0.0), x.gave.get(b, 0.0)
            dear, cheap, winner = (ga, gb, b) if ga >= gb else (gb, ga, a)
            ratio = price_ratio(dear, cheap)
            if ratio >= ratio_min:
                favoured[winner].append((dear - cheap, ratio, x))
        for winner, trades in favoured.items():
            if len(trades) < min_trades:
                continue
            moved = sum(t[0] for t in trades)
            score = moved / scale
            if score < threshold:
                continue
            payer = pair.other(winner)
            evidence = ordered({e for t in trades for e in t[2].events})
            worst = max(t[1] for t in trades)
            flags.append(Flag(
                screen="off_price",
                kind="off_price_trades",
                level="flag",
                agents=(winner, payer),
                pairs=(pair_key(winner, payer),),
                score=score,
                threshold=threshold,
                evidence=tuple(evidence),
                explanation=(
                    f"{payer} traded with {winner} {len(trades)} times at prices {ratio_min:g} or more times "
                    f"off the reference values in {winner}'s favour, moving {moved:g} in value "
                    f"({score:.1f} typical exchanges) under the cover of trades."
                ),
                details={
                    "beneficiary": winner,
                    "payer": payer,
                    "offPriceTrades": len(trades),
                    "valueMoved": moved,
                    "typicalExchangeValue": scale,
                    "worstRatio": worst if worst != float("inf") else None,
                    "tradesWithPair": len(pair.exchanges),
                },
            ))
    return flags
