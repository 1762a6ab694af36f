"""Feeder: hub-and-spoke, one-directional value into one beneficiary.

Seed 002 §2.9: "the chip-dumping/gold-farming signature is hub-and-spoke
one-directional flow (MMORPG RMT literature)".  A feeder seat exists to make another
seat rich: it hands over goods (gifts, or trades at a price nobody would take) and
gets little or nothing back.  Honest trade moves value both ways: a fair trade
returns what it takes, so even a strong player everyone sells to receives no net
value from its partners.

Rule (voluntary transfers only: raids and thefts are the thrown-fight screen's):

1. An exchange is *one-sided* from ``s`` to ``h`` when its directionality
   ``(gave_s - gave_h) / (gave_s + gave_h)`` is at least ``min_directionality``: 0 for a
   fair trade, 1 for a gift.
2. ``s`` is a *spoke* of ``h`` when at least ``min_one_way_exchanges`` of their
   exchanges were one-sided from ``s`` to ``h``, the one-sided exchanges between them
   ran that way (their directionality, summed over both ways, is at least
   ``min_directionality``), and the net value ``s`` passed ``h`` over *all* their
   exchanges is at least ``min_spoke_value`` typical exchanges.  Fair trades between
   the two neither hide a feed nor make one.
3. ``h`` is flagged when it has ``min_spokes`` or more spokes and the net value they
   passed it, measured in typical exchanges of the match ("weighed against what honest
   trade would move"), is at least ``threshold``.  The score is that figure.
4. A hub with a single spoke is not hub-and-spoke, but a lone seat passing another
   ``single_spoke_threshold`` typical exchanges or more one way is raised for ``review``
   (kind ``one_way_feed``): a leaderboard place can be bought with one feeder too.

Exempt nodes (scripted seats such as Daishi probes, which ask for gifts by design) are
never hubs or spokes.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i, s in enumerate(["s1", "s1", "s2", "s2", "s3", "s3"]):
...     _ = G.add_edge(s, "h", value=10.0, tick=i, event=i, kind="gift")
>>> [(f.agents, f.score) for f in feeder(TransferView(G), {"min_directionality": 0.6,
...   "min_one_way_exchanges": 2, "min_spoke_value": 1.0, "min_spokes": 2, "threshold": 5.0,
...   "single_spoke_threshold": 10.0})]
[(('h', 's1', 's2', 's3'), 6.0)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .flags import Flag, ordered, pair_key
from .graph import Exchange, TransferView

__all__ = ["feeder", "one_way_feeds", "spokes_of"]


def _one_way(x: Exchange, giver: Any, min_dir: float) -> bool:
    g, r = x.given_by(giver), x.given_by(x.other(giver))
    return g > 0 and (g - r) / (g + r) >= min_dir


def one_way_feeds(view: TransferView, min_directionality: float, min_one_way_exchanges: int,
                  min_value: float) -> dict[tuple[Any, Any], tuple[float, float, int]]:
    """``(giver, taker) -> (net value, directionality of the one-sided exchanges, one-sided
    exchanges)`` for every pair where the giver feeds the taker (rule 2 of the module
    docstring; ``min_value`` in typical exchanges).  Empty when nothing of value was traded.
    """
    scale = view.scale
    feeds: dict[tuple[Any, Any], tuple[float, float, int]] = {}
    if not scale:
        return feeds
    floor = min_value * scale
    for a, b, pair, one_sided in _one_sided(view, min_directionality):
        for giver in (a, b):
            count, value = one_sided[giver]
            back = one_sided[pair.other(giver)][1]
            net = pair.net_from(giver)
            if count < min_one_way_exchanges or net < floor or value <= 0:
                continue
            direction = (value - back) / (value + back)
            if direction >= min_directionality:
                feeds[(giver, pair.other(giver))] = (net, direction, int(count))
    return feeds


def _one_sided(view: TransferView, min_dir: float) -> list[tuple[Any, Any, Any, dict[Any, tuple[int, float]]]]:
    """Per screened pair with exchanges: ``(a, b, pair, {giver: (one-sided exchanges from it, value
    they moved net)})`` (:func:`_one_way`); read once per view (the feeder, operator and season
    screens ask with their own thresholds)."""
    memo_key = ("feeder.one_sided", min_dir)
    found = view.memo.get(memo_key)
    if found is not None:
        rows: list[tuple[Any, Any, Any, dict[Any, tuple[int, float]]]] = found
        return rows
    rows = []
    exempt = view.exempt
    for (a, b), pair in view.pairs.items():
        if a in exempt or b in exempt or not pair.exchanges:
            continue
        count_a = count_b = 0
        value_a = value_b = 0.0
        for x in pair.exchanges:
            if x.unvalued:
                continue
            gave = x.gave
            ga, gb = gave.get(a, 0.0), gave.get(b, 0.0)
            if ga > 0 and (ga - gb) / (ga + gb) >= min_dir:
                count_a += 1
                value_a += ga - gb
            if gb > 0 and (gb - ga) / (gb + ga) >= min_dir:
                count_b += 1
                value_b += gb - ga
        rows.append((a, b, pair, {a: (count_a, value_a), b: (count_b, value_b)}))
    view.memo[memo_key] = rows
    return rows


def spokes_of(view: TransferView, params: Mapping[str, Any]) -> dict[Any, list[tuple[Any, float, float, int]]]:
    """Hub -> its spokes ``(spoke, net value, directionality, one-sided exchanges)`` (rule 2)."""
    hubs: dict[Any, list[tuple[Any, float, float, int]]] = {}
    feeds = one_way_feeds(view, float(params["min_directionality"]), int(params["min_one_way_exchanges"]),
                          float(params["min_spoke_value"]))
    for (giver, taker), (net, direction, count) in feeds.items():
        hubs.setdefault(taker, []).append((giver, net, direction, count))
    return hubs


def _lone(view: TransferView, hub: Any, spoke: Any, net: float, direction: float, count: int,
          threshold: float, min_dir: float) -> Flag:
    scale = view.scale or 1.0
    evidence = {e for x in view.pair(hub, spoke).exchanges if _one_way(x, spoke, min_dir) for e in x.events}
    return Flag(
        screen="feeder",
        kind="one_way_feed",
        level="review",
        agents=(hub, spoke),
        pairs=(pair_key(hub, spoke),),
        score=net / scale,
        threshold=threshold,
        evidence=tuple(ordered(evidence)),
        explanation=(
            f"{spoke} passed {hub} {net:g} in net value one way ({net / scale:.1f} typical exchanges of this "
            f"match, in {count} one-sided exchanges); a single feeder, not a hub-and-spoke."
        ),
        details={"beneficiary": hub, "spoke": spoke, "netValue": net, "directionality": round(direction, 4),
                 "oneWayExchanges": count, "typicalExchangeValue": view.scale},
    )


def feeder(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Hub-and-spoke feeds (module rule); one flag per hub."""
    flags: list[Flag] = []
    scale = view.scale
    if not scale:
        return flags
    threshold = float(params["threshold"])
    min_spokes = int(params["min_spokes"])
    min_dir = float(params["min_directionality"])
    single = float(params["single_spoke_threshold"])
    for hub, spokes in spokes_of(view, params).items():
        spokes = sorted(spokes, key=lambda s: (-s[1], repr(s[0])))
        total = sum(s[1] for s in spokes)
        score = total / scale
        if len(spokes) < min_spokes:
            for spoke, net, direction, count in spokes:
                if net / scale >= single:
                    flags.append(_lone(view, hub, spoke, net, direction, count, single, min_dir))
            continue
        if score < threshold:
            continue
        evidence: set[Any] = set()
        for spoke, *_ in spokes:
            for x in view.pair(hub, spoke).exchanges:
                if _one_way(x, spoke, min_dir):
                    evidence.update(x.events)
        names = ", ".join(str(s[0]) for s in spokes)
        flags.append(Flag(
            screen="feeder",
            kind="hub_and_spoke",
            level="flag",
            agents=(hub, *(s[0] for s in spokes)),
            pairs=tuple(ordered(pair_key(hub, s[0]) for s in spokes)),
            score=score,
            threshold=threshold,
            evidence=tuple(ordered(evidence)),
            explanation=(
                f"{hub} received {total:g} in net value one way from {len(spokes)} seats ({names}), "
                f"{score:.1f} times what a typical exchange of this match moves, and gave little back."
            ),
            details={
                "beneficiary": hub,
                "typicalExchangeValue": scale,
                "netValue": total,
                "spokes": [
                    {"agent": s, "netValue": net, "directionality": round(d, 4), "oneWayExchanges": n}
                    for s, net, d, n in spokes
                ],
            },
        ))
    return flags
