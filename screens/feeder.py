"""Feeder: one-directional value into a beneficiary, tested against the pair's own exchanges.

The evaluation design's collusion screens: "the chip-dumping/gold-farming signature is
hub-and-spoke one-directional flow".  A feeder seat exists to make another seat rich: it
hands over goods (gifts, or trades at a price nobody would take) again and again and
gets little or nothing back.  Honest play moves value one way too -- a gift of food to a
hungry partner, a beggar helped by whoever passes, a whole tool paid for one wood -- but
between the same two seats it goes one way, then the other, and in small numbers.

Rule (voluntary transfers only: raids and thefts are the thrown-fight screen's):

1. An exchange is *one-sided* when its directionality ``|gave_a - gave_b| / (gave_a + gave_b)``
   is at least ``min_directionality`` (0 for a fair trade, 1 for a gift).  With ``whole_items``, a
   trade's overpayer is read at what it got plus its excess beyond one whole item of the dearest
   good it gave (the off-price screen's :func:`~daishi_forensics.screens.off_price.excess`): a buyer
   whose spare goods are dear pays one whole tool for the one wood it needs, again and again where
   one seat has it, and that is whole items, not a gift.  A gift is read as it is.
2. Per pair, the one-sided exchanges' net values (signed by direction) are tested with an
   exact two-sided sign-flip test (:func:`~daishi_forensics.screens.stats.sign_flip_p`):
   the null keeps how many one-sided exchanges the two made and how big each was, and
   lets each one have gone either way.  Six gifts of one size all the same way: p = 2/64.
3. A pair is a *feed* (giver -> taker, the way the sum runs) when the net value the giver
   passed over *all* their exchanges is at least ``min_spoke_value`` typical exchanges of
   the match (a size floor: it can only remove a feed), and at least ``min_giver_share`` of
   all the value the giver handed anyone in the match's voluntary exchanges (:func:`given`; a
   share floor, which can only remove a feed too).  A feeder exists to make the beneficiary
   rich, so much of what it hands over goes there; an honest seat that keeps a beggar or a
   friend fed hands that seat a small part of what it trades with everyone.
4. After the match-level multiple-testing step, the feeds into one beneficiary are one
   flag: ``hub_and_spoke`` when two or more feeds into it are significant, else
   ``one_way_feed``, raised for ``review`` only (a single feeder is not a hub-and-spoke).

Exempt nodes (scripted seats such as Daishi probes, which ask for gifts by design) are
never beneficiaries or feeders.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i in range(6):
...     _ = G.add_edge("s", "h", value=10.0, tick=i, event=i, kind="gift")
>>> [(c.flag.agents, c.flag.p_value) for c in feeds(TransferView(G), {"min_directionality": 0.6,
...   "min_spoke_value": 1.0, "min_giver_share": 1 / 3})[0]]
[(('h', 's'), 0.03125)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dataclasses import replace

from .flags import Flag, Level, ordered, pair_key
from .graph import Exchange, TransferView
from .off_price import excess, item_units
from .stats import Candidate, Test, sign_flip_p

__all__ = ["FEED_NULL", "feed_test", "feeds", "given", "giver_share", "hubs", "one_sided_exchanges", "one_way_feeds"]


def one_way_feeds(view: TransferView, min_directionality: float, min_one_way_exchanges: int,
                  min_value: float, min_share: float = 0.0,
                  whole_items: bool = False) -> dict[tuple[Any, Any], tuple[float, float, int]]:
    """``(giver, taker) -> (net value, directionality of the one-sided exchanges, one-sided
    exchanges)`` for every pair where the giver feeds the taker (rule 2 of the module
    docstring; ``min_value`` in typical exchanges, ``min_share`` rule 3's share floor, ``whole_items`` rule 1's
    reading of trades, :func:`one_sided_exchanges`).  Empty when nothing of value was traded.
    """
    scale = view.scale
    feeds: dict[tuple[Any, Any], tuple[float, float, int]] = {}
    if not scale:
        return feeds
    floor = min_value * scale
    for a, b, pair, one_sided in _one_sided(view, min_directionality, whole_items):
        for giver in (a, b):
            count, value = one_sided[giver]
            back = one_sided[pair.other(giver)][1]
            net = pair.net_from(giver)
            if count < min_one_way_exchanges or net < floor or value <= 0 or giver_share(view, giver, net) < min_share:
                continue
            direction = (value - back) / (value + back)
            if direction >= min_directionality:
                feeds[(giver, pair.other(giver))] = (net, direction, int(count))
    return feeds


def one_sided_exchanges(view: TransferView, min_dir: float,
                        whole_items: bool = False) -> dict[tuple[Any, Any], list[tuple[Exchange, float]]]:
    """Per screened pair ``(a, b)`` with any: its valued one-sided exchanges (rule 1: ``|gave_a - gave_b| /
    (gave_a + gave_b)`` at least ``min_dir``) in time order, each with its signed net value (positive: ``a``
    gave).  With ``whole_items``, a trade's overpayer is read as having given what it got plus its excess beyond
    one whole item of the dearest good it gave (:func:`~daishi_forensics.screens.off_price.excess`, an item's
    value read from the match): one tool paid for a wood is whole items, not a gift.  The feeder's test, its
    spoke counts and the operator and season screens read this one reading; read once per view.

    >>> import networkx as nx
    >>> from .graph import TransferView
    >>> G = nx.MultiDiGraph()
    >>> for i, tools in enumerate([1, 1, 3]):  # s pays h one tool (12) for a wood (2), twice; then three tools
    ...     _ = G.add_edge("s", "h", value=12.0 * tools, tick=i, event=i, exchange=i, goods={"tool": 12.0 * tools})
    ...     _ = G.add_edge("h", "s", value=2.0, tick=i, event=i, exchange=i, goods={"wood": 2.0})
    >>> [v for _x, v in one_sided_exchanges(TransferView(G), 0.6)[("h", "s")]]
    [-10.0, -10.0, -34.0]
    >>> [v for _x, v in one_sided_exchanges(TransferView(G), 0.6, whole_items=True)[("h", "s")]]
    [-22.0]
    """
    memo_key = ("feeder.one_sided", min_dir, whole_items)
    found = view.memo.get(memo_key)
    if found is not None:
        rows: dict[tuple[Any, Any], list[tuple[Exchange, float]]] = found
        return rows
    rows = {}
    exempt = view.exempt
    units = item_units(view) if whole_items else {}
    for (a, b), pair in view.pairs.items():
        if a in exempt or b in exempt:
            continue
        mine = []
        for x in pair.exchanges:
            if x.unvalued:
                continue
            ga, gb = x.gave.get(a, 0.0), x.gave.get(b, 0.0)
            if whole_items and x.two_sided and ga != gb:  # a trade: what whole items explain is no gift
                if ga > gb:
                    ga = gb + excess(ga, gb, x.goods.get(a, {}), units)
                else:
                    gb = ga + excess(gb, ga, x.goods.get(b, {}), units)
            if ga + gb > 0 and abs(ga - gb) / (ga + gb) >= min_dir:
                mine.append((x, ga - gb))
        if mine:
            rows[(a, b)] = mine
    view.memo[memo_key] = rows
    return rows


def _one_sided(view: TransferView, min_dir: float,
               whole_items: bool = False) -> list[tuple[Any, Any, Any, dict[Any, tuple[int, float]]]]:
    """Per screened pair with one-sided exchanges: ``(a, b, pair, {giver: (one-sided exchanges from it,
    value they moved net)})`` (:func:`one_sided_exchanges`)."""
    out = []
    for (a, b), rows in one_sided_exchanges(view, min_dir, whole_items).items():
        from_a = [v for _x, v in rows if v > 0]
        from_b = [-v for _x, v in rows if v < 0]
        out.append((a, b, view.pair(a, b), {a: (len(from_a), sum(from_a)), b: (len(from_b), sum(from_b))}))
    return out


def given(view: TransferView) -> dict[Any, float]:
    """Every node's voluntary value handed to anyone: its side of every pair's exchanges (valued legs only).
    Read once per view."""
    memo_key = ("feeder.given",)
    found = view.memo.get(memo_key)
    if found is not None:
        totals: dict[Any, float] = found
        return totals
    totals = {}
    for (a, b), pair in view.pairs.items():
        for side in (a, b):
            totals[side] = totals.get(side, 0.0) + pair.gave.get(side, 0.0)
    view.memo[memo_key] = totals
    return totals


def giver_share(view: TransferView, giver: Any, net: float) -> float:
    """``net`` (value ``giver`` passed one seat, net) as a share of all the value ``giver`` handed anyone
    (:func:`given`; rule 3's share floor); 0 when it handed nothing."""
    total = given(view).get(giver, 0.0)
    return net / total if total > 0 else 0.0


FEED_NULL = ("each one-sided exchange between the two was as likely to have gone the other way, its size "
             "kept (exact two-sided sign-flip test over the pair's one-sided exchanges)")
"""The feeder screen's null, in words."""


def feed_test(view: TransferView, min_dir: float,
              whole_items: bool = False) -> dict[tuple[Any, Any], tuple[float, float, float, int]]:
    """Per screened pair ``(a, b)`` with one-sided exchanges: ``(p, smallest attainable p, signed
    sum (positive: a gave b), one-sided exchanges)`` (rule 2; ``whole_items``: rule 1's reading of trades,
    :func:`one_sided_exchanges`).  Read once per view."""
    memo_key = ("feeder.test", min_dir, whole_items)
    found = view.memo.get(memo_key)
    if found is not None:
        tested: dict[tuple[Any, Any], tuple[float, float, float, int]] = found
        return tested
    tested = {}
    for key, rows in one_sided_exchanges(view, min_dir, whole_items).items():
        values = [v for _x, v in rows]
        p, smallest = sign_flip_p(values)
        tested[key] = (p, smallest, sum(values), len(values))
    view.memo[memo_key] = tested
    return tested


def feeds(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test]]:
    """One candidate per pair whose one-sided exchanges ran one way, giver to taker (rules 1-3),
    kind ``one_way_feed``, agents ``(taker, giver)``; and every pair's test."""
    scale = view.scale
    if not scale:
        return [], []
    min_dir = float(params["min_directionality"])
    floor = float(params["min_spoke_value"]) * scale
    min_share = float(params["min_giver_share"])
    whole = bool(params.get("whole_items", False))
    tests: list[Test] = []
    found: list[Candidate] = []
    for (a, b), (p, smallest, total, count) in feed_test(view, min_dir, whole).items():
        key = ("feeder", a, b)
        tests.append(Test(key, p, smallest))
        giver, taker = (a, b) if total > 0 else (b, a)
        pair = view.pair(a, b)
        net = pair.net_from(giver)
        if total == 0 or net < floor:
            continue
        share = giver_share(view, giver, net)
        if share < min_share:
            continue
        sign = 1.0 if giver == a else -1.0  # the one-sided exchanges the test read, the giver's way and back
        rows = one_sided_exchanges(view, min_dir, whole)[(a, b)]
        evidence = {e for x, v in rows if v * sign > 0 for e in x.events}
        back = sum(1 for _x, v in rows if v * sign < 0)
        flag = Flag(
            screen="feeder",
            kind="one_way_feed",
            level="review",
            agents=(taker, giver),
            pairs=(pair_key(taker, giver),),
            score=net / scale,
            threshold=float(params["min_spoke_value"]),
            evidence=tuple(ordered(evidence)),
            explanation=(
                f"{giver} passed {taker} {net:g} in net value ({net / scale:.1f} typical exchanges of this match, "
                f"{share:.0%} of all {giver} handed anyone) in {count - back} one-sided exchanges, against {back} the "
                "other way"
            ),
            details={"beneficiary": taker, "spoke": giver, "netValue": net, "oneWayExchanges": count - back,
                     "oneWayBack": back, "typicalExchangeValue": scale, "giverShare": share},
            p_value=p,
            null=FEED_NULL,
        )
        found.append(Candidate(flag, (key,)))
    return found, tests


def hubs(view: TransferView, flags: list[Flag]) -> list[Flag]:
    """The significant feeds (already levelled by the match-level step), one flag per
    beneficiary: ``hub_and_spoke`` with two or more, else ``one_way_feed`` at ``review`` (rule 4).
    The hub flag's p-values are its weakest spoke's (every accused pair is significant)."""
    by_hub: dict[Any, list[Flag]] = {}
    for f in flags:
        by_hub.setdefault(f.details["beneficiary"], []).append(f)
    out: list[Flag] = []
    for hub in ordered(by_hub):
        spokes = sorted(by_hub[hub], key=lambda f: (-f.details["netValue"], repr(f.details["spoke"])))
        if len(spokes) == 1:
            [f] = spokes
            out.append(replace(f, level="review", explanation=f.explanation + "; a single feeder, not a "
                               "hub-and-spoke."))
            continue
        total = sum(f.details["netValue"] for f in spokes)
        scale = view.scale or 1.0
        names = ", ".join(str(f.details["spoke"]) for f in spokes)
        low, high = (f"{x:.0%}" for x in (min(f.details["giverShare"] for f in spokes),
                                          max(f.details["giverShare"] for f in spokes)))
        shares = low if low == high else f"{low} to {high}"
        worst = max(spokes, key=lambda f: (f.p_adjusted or 0.0, f.p_value or 0.0))
        level: Level = "review" if any(f.level == "review" for f in spokes) else "flag"
        out.append(Flag(
            screen="feeder",
            kind="hub_and_spoke",
            level=level,
            agents=(hub, *(f.details["spoke"] for f in spokes)),
            pairs=tuple(ordered(p for f in spokes for p in f.pairs)),
            score=total / scale,
            threshold=spokes[0].threshold,
            evidence=tuple(ordered({e for f in spokes for e in f.evidence})),
            explanation=(
                f"{hub} received {total:g} in net value one way from {len(spokes)} seats ({names}; each passed it {shares} "
                f"of all it handed anyone), "
                f"{total / scale:.1f} times what a typical exchange of this match moves, and gave little back; "
                f"the chance quoted is its least unusual spoke's, {worst.details['spoke']}'s."
            ),
            details={
                "beneficiary": hub,
                "typicalExchangeValue": view.scale,
                "netValue": total,
                "spokes": [{"agent": f.details["spoke"], "netValue": f.details["netValue"],
                            "giverShare": f.details["giverShare"],
                            "oneWayExchanges": f.details["oneWayExchanges"], "oneWayBack": f.details["oneWayBack"],
                            "pValue": f.p_value, "pAdjusted": f.p_adjusted} for f in spokes],
            },
            p_value=worst.p_value,
            null=FEED_NULL,
            tests=worst.tests,
            p_adjusted=worst.p_adjusted,
        ))
    return out

