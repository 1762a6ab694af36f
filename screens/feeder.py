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
   flag: ``hub_and_spoke`` when two or more feeds into it are significant (a ``flag`` only where each of them
   reached it), else ``one_way_feed``, raised for ``review`` only (a single feeder is not a hub-and-spoke).
   A feed whose one-sided exchanges the giver's way were all trades (none a gift) has an honest reading the
   test cannot rule out -- a seller of a good the giver lacked, asking more than one whole item every time --
   which its flag says, with the other seats that handed over, anywhere in the match, the goods the giver
   bought (:func:`suppliers`); so does a hub whose every spoke paid so.  With ``trade_feeds_review`` (off as
   shipped) such a feed is raised for ``review`` at most, and so is a hub with such a spoke.

5. With ``hub_pool`` (on as shipped, over gifts alone: see the end of this rule), a pooled test per beneficiary
   (:func:`pooled_hubs`).  A seat's *bound partners* are the seats whose one-sided exchanges with it, their sizes
   summed whichever way each went, are at least ``hub_bound_share`` of the sizes of all their own one-sided
   exchanges with anyone (:func:`bound_partners`).  With two or more, the one-sided exchanges between the seat and
   them are pooled, each signed toward the seat, and tested with the same sign-flip test: one hypothesis per seat,
   in the feeder's family.  Which seats are pooled is read from sizes alone, never from which way an exchange
   went, so the pooled test is exact under its null as a pair's is.  A feeder ring spreads its feeding over
   several spokes, each too briefly to stand out alone among the hundreds of pairs of a large match (five gifts
   one way: p = 2/32 at best); the hub's spokes together made dozens.  Where the pooled test is significant and
   its sum ran toward the seat, the bound partners passing rule 3's floors as its feeders, each with at least
   ``hub_min_spoke_exchanges`` one-sided exchanges its way (two or more such partners), are one ``hub_and_spoke``
   flag, its chance the pooled test's, and any significant feed into the same seat joins it as a spoke
   (:func:`hubs`).  Its null is the pair test's, and honest play breaks it where one seat is everyone's seller:
   buyers that pay a scarce good's holder more than one whole dear item for it, again and again, pool into a feed
   that no pair alone would show.  So with ``hub_pool_trades`` false only gifts are pooled
   (:func:`pooled_exchanges`: exchanges with goods one way and nothing back, read from their legs, never from
   which way they went), and bound partners and named spokes are read over gifts too: a buyer pays its seller
   through trades, and a trade, however one-sided, stays with its pair's own test.

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

Two spokes, five gifts each (each pair alone: p = 2/32), pooled at their hub (p = 2/1024):

>>> G = nx.MultiDiGraph()
>>> for s in ("s1", "s2"):
...     for i in range(5):
...         _ = G.add_edge(s, "h", value=10.0, tick=i, event=f"{s}-{i}", kind="gift")
>>> found, tests = feeds(TransferView(G), {"min_directionality": 0.6, "min_spoke_value": 1.0,
...                                        "min_giver_share": 1 / 3, "hub_pool": True, "hub_bound_share": 0.5})
>>> sorted((t.key, t.p_value) for t in tests)
[(('feeder', 'h', 's1'), 0.0625), (('feeder', 'h', 's2'), 0.0625), (('feeder.hub', 'h'), 0.001953125)]
>>> [(c.flag.kind, c.flag.agents) for c in found if c.flag.details.get("pooled")]
[('hub_and_spoke', ('h', 's1', 's2'))]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dataclasses import replace

from daishi_forensics.wording import count as counted

from .flags import Flag, Level, listed, ordered, pair_key
from .graph import ANY_GOOD, Exchange, TransferView
from .off_price import excess, item_units
from .stats import Candidate, Test, sign_flip_p

__all__ = ["FEED_NULL", "HUB_GIFTS_NULL", "HUB_NULL", "bound_partners", "feed_test", "feeds", "given", "giver_share",
           "hubs", "one_sided_exchanges", "one_way_feeds", "pooled_exchanges", "pooled_hubs", "suppliers"]


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
    return view.once(("feeder.one_sided", min_dir, whole_items), lambda: _one_sided_rows(view, min_dir, whole_items))


def _one_sided_rows(view: TransferView, min_dir: float,
                    whole_items: bool) -> dict[tuple[Any, Any], list[tuple[Exchange, float]]]:
    rows: dict[tuple[Any, Any], list[tuple[Exchange, float]]] = {}
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
    return view.once(("feeder.given",), lambda: _given(view))


def _given(view: TransferView) -> dict[Any, float]:
    totals: dict[Any, float] = {}
    for (a, b), pair in view.pairs.items():
        for side in (a, b):
            totals[side] = totals.get(side, 0.0) + pair.gave.get(side, 0.0)
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
    return view.once(("feeder.test", min_dir, whole_items), lambda: _feed_tests(view, min_dir, whole_items))


def _feed_tests(view: TransferView, min_dir: float,
                whole_items: bool) -> dict[tuple[Any, Any], tuple[float, float, float, int]]:
    tested: dict[tuple[Any, Any], tuple[float, float, float, int]] = {}
    for key, rows in one_sided_exchanges(view, min_dir, whole_items).items():
        values = [v for _x, v in rows]
        p, smallest = sign_flip_p(values)
        tested[key] = (p, smallest, sum(values), len(values))
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
    trades_review = bool(params.get("trade_feeds_review", False))
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
        way, traded, back, evidence = _one_way(one_sided_exchanges(view, min_dir, whole)[(a, b)], sign)
        reading = _honest_reading(giver, taker, len(way), traded, whole)
        elsewhere = _other_suppliers(view, taker, way) if reading else {}
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
                     "oneWayTrades": traded, "oneWayBack": back, "typicalExchangeValue": scale, "giverShare": share,
                     **({"honestReading": reading + _supply_sentences(elsewhere, {giver: f"{giver} itself"}),
                         "otherSuppliers": elsewhere} if reading else {})},
            p_value=p,
            null=FEED_NULL,
        )
        found.append(Candidate(flag, (key,), most="review" if reading and trades_review else "flag"))
    if params.get("hub_pool", False):
        pooled, hub_tests = pooled_hubs(view, min_dir, floor, min_share, float(params.get("hub_bound_share", 0.5)),
                                        int(params.get("hub_min_spoke_exchanges", 3)), whole,
                                        bool(params.get("hub_pool_trades", False)))
        found += pooled
        tests += hub_tests
    return found, tests


def _one_way(rows: list[tuple[Exchange, float]], sign: float) -> tuple[list[Exchange], int, int, set[Any]]:
    """A pair's one-sided exchanges (``rows``, signed positive where its first seat gave) read from the giver's side
    (``sign`` 1 for the first seat, -1 for the second): ``(the exchanges its way, of them trades, exchanges the other
    way, the events of those its way)``."""
    way = [x for x, v in rows if v * sign > 0]
    return (way, sum(1 for x in way if x.two_sided), sum(1 for _x, v in rows if v * sign < 0),
            {e for x in way for e in x.events})


_PAID_WHOLE = "more than one whole item beyond what it got"
_PAID_VALUE = "more than what it got was worth"
"""What a payer paid in a one-way trade, read with whole items (rule 1) and at its values."""


def _honest_reading(giver: Any, taker: Any, one_way: int, traded: int, whole_items: bool) -> str:
    """What honest play would look the same as a feed whose one-sided exchanges the giver's way were all trades
    (none a gift): a seller of a good the giver lacked, asking more than one whole item of it every time (with
    ``whole_items``; else more than it was worth).  Empty where any of them was a gift.  It changes no verdict:
    the feed is raised for review, and this says what to rule out.

    >>> _honest_reading("b", "s", 8, 8, True)[:60]
    'Each of the 8 was a trade in which b paid s more than one wh'
    >>> _honest_reading("b", "s", 8, 7, True)
    ''
    """
    if not one_way or traded < one_way:
        return ""
    paid = _PAID_WHOLE if whole_items else _PAID_VALUE
    return (f"Each of the {one_way} was a trade in which {giver} paid {taker} {paid}: a seat selling a good {giver} "
            "lacked and could get nowhere else, asking that much every time, would look the same.")


def suppliers(view: TransferView) -> dict[Any, frozenset[Any]]:
    """Good -> the seats that handed it to anyone in a voluntary exchange of the match (a trade or a gift; goods
    named on the transfers only).  Read once per view."""
    return view.once(("feeder.suppliers",), lambda: _suppliers_of(view))


def _suppliers_of(view: TransferView) -> dict[Any, frozenset[Any]]:
    found: dict[Any, set[Any]] = {}
    for x in view.exchanges:
        for seat, goods in x.goods.items():
            for good in goods:
                if good != ANY_GOOD:
                    found.setdefault(good, set()).add(seat)
    return {good: frozenset(seats) for good, seats in found.items()}


def _other_suppliers(view: TransferView, taker: Any, way: list[Exchange]) -> dict[str, list[Any]]:
    """For each good ``taker`` handed over in the exchanges ``way`` (a giver's one-sided ones its way): the other
    seats than ``taker`` that handed that good to anyone in the match, the giver among them if it did (what tells
    the honest reading of :func:`_honest_reading` in or out: could the giver get the good elsewhere, did it lack
    it).  Goods in order of their names, seats in order."""
    bought = sorted({str(good) for x in way for good in x.goods.get(taker, {}) if good != ANY_GOOD})
    every = suppliers(view)
    return {good: ordered(every.get(good, frozenset()) - {taker}) for good in bought}


def _supply_sentences(elsewhere: Mapping[str, list[Any]], marked: Mapping[Any, str]) -> str:
    """:func:`_other_suppliers` in words, one sentence a good, each after a space; the seats of ``marked`` (the
    payers) named last, as it says.

    >>> _supply_sentences({"fiber": [], "stone": ["c", "b", "d"]}, {"b": "b itself"})
    ' In this match no other seat handed anyone fiber. In this match 3 other seats handed over stone too: c, d and b itself.'
    """
    out = []
    for good, seats in elsewhere.items():
        if not seats:
            out.append(f" In this match no other seat handed anyone {good}.")
            continue
        names = [str(x) for x in seats if x not in marked] + [marked[x] for x in seats if x in marked]
        out.append(f" In this match {counted(len(seats), 'other seat', thousands=True)} handed over {good} too: "
                   f"{listed(names)}.")
    return "".join(out)


HUB_NULL = ("each one-sided exchange between the beneficiary and the seats bound to it (each doing at least "
            "hub_bound_share of its one-sided trading with it, by size and whichever way) was as likely to have gone "
            "the other way, its size kept (exact two-sided sign-flip test over those exchanges pooled)")
"""The pooled hub test's null, in words (every one-sided exchange pooled)."""

HUB_GIFTS_NULL = ("each gift between the beneficiary and the seats bound to it (each making at least hub_bound_share "
                  "of its gifts, by size and whichever way, with it) was as likely to have gone the other way, its "
                  "size kept (exact two-sided sign-flip test over those gifts pooled)")
"""The pooled hub test's null, in words, over gifts alone (``hub_pool_trades`` false)."""


def pooled_exchanges(view: TransferView, min_dir: float, whole_items: bool = False,
                     trades: bool = False) -> dict[tuple[Any, Any], list[tuple[Exchange, float]]]:
    """The one-sided exchanges rule 5 pools (:func:`one_sided_exchanges`): all of them with ``trades``, else the
    gifts alone (exchanges with goods one way only); pairs left with none are left out.  Whether an exchange is a
    gift is read from its legs, never from which way it went."""
    rows_of = one_sided_exchanges(view, min_dir, whole_items)
    if trades:
        return rows_of
    return view.once(("feeder.pooled_gifts", min_dir, whole_items), lambda: _gifts_of(rows_of))


def _gifts_of(rows_of: Mapping[tuple[Any, Any], list[tuple[Exchange, float]]]
              ) -> dict[tuple[Any, Any], list[tuple[Exchange, float]]]:
    gifts: dict[tuple[Any, Any], list[tuple[Exchange, float]]] = {}
    for key, rows in rows_of.items():
        mine = [(x, v) for x, v in rows if not x.two_sided]
        if mine:
            gifts[key] = mine
    return gifts


def bound_partners(view: TransferView, min_dir: float, bound_share: float,
                   whole_items: bool = False, trades: bool = False) -> dict[Any, list[tuple[Any, tuple[Any, Any]]]]:
    """Rule 5's partners: per seat ``h``, the seats ``g`` whose pooled one-sided exchanges with ``h``
    (:func:`pooled_exchanges`: every one, or with ``trades`` false the gifts alone), their sizes summed whichever
    way each went, are at least ``bound_share`` of the sizes of all ``g``'s such exchanges with anyone, each with
    the pair's key; a seat with fewer than two is left out.  Which way any exchange went is not read, so the
    pooled sign-flip test stays exact under its null."""
    rows_of = pooled_exchanges(view, min_dir, whole_items, trades)
    sizes = {key: sum(abs(v) for _x, v in rows) for key, rows in rows_of.items()}
    totals: dict[Any, float] = {}
    for key, size in sizes.items():
        for g in key:
            totals[g] = totals.get(g, 0.0) + size
    partners: dict[Any, list[tuple[Any, tuple[Any, Any]]]] = {}
    for key, size in sizes.items():
        for g in key:
            h = key[1] if g == key[0] else key[0]
            if totals[g] > 0 and size / totals[g] >= bound_share:
                partners.setdefault(h, []).append((g, key))
    return {h: sorted(gs, key=lambda x: repr(x[0])) for h, gs in partners.items() if len(gs) >= 2}


def pooled_hubs(view: TransferView, min_dir: float, floor: float, min_share: float, bound_share: float,
                min_spoke_exchanges: int = 3, whole_items: bool = False,
                trades: bool = False) -> tuple[list[Candidate], list[Test]]:
    """Rule 5: per seat with two or more bound partners (:func:`bound_partners`), the one-sided exchanges between
    it and them pooled (every one, or with ``trades`` false the gifts alone: :func:`pooled_exchanges`), each signed
    toward the seat, tested with the exact sign-flip test (one test per seat, in the feeder's family); a
    ``hub_and_spoke`` candidate when the pooled sum ran toward the seat and two or more of the partners are named
    as its spokes (:func:`_named_spokes`)."""
    tests: list[Test] = []
    found: list[Candidate] = []
    rows_of = pooled_exchanges(view, min_dir, whole_items, trades)
    bound = bound_partners(view, min_dir, bound_share, whole_items, trades)
    for h in ordered(bound):
        partners = bound[h]
        values = [v * (1.0 if pair[0] == g else -1.0) for g, pair in partners for _x, v in rows_of[pair]]
        p, smallest = sign_flip_p(values)  # each value positive where the partner gave h
        test_key = ("feeder.hub", h)
        tests.append(Test(test_key, p, smallest))
        if sum(values) <= 0:
            continue
        spokes = _named_spokes(view, partners, min_dir, floor, min_share, min_spoke_exchanges, whole_items, trades)
        if len(spokes) >= 2:
            found.append(Candidate(_pooled_flag(view, h, partners, spokes, values, floor, p, trades), (test_key,)))
    return found, tests


def _named_spokes(view: TransferView, partners: list[tuple[Any, tuple[Any, Any]]], min_dir: float, floor: float,
                  min_share: float, min_spoke_exchanges: int, whole_items: bool,
                  trades: bool) -> list[dict[str, Any]]:
    """The bound partners a significant pooled test names: those passing rule 3's floors as feeders of the seat
    and with at least ``min_spoke_exchanges`` pooled one-sided exchanges its way; each with its figures and the
    events of those exchanges (``evidence``), by net value, largest first."""
    rows_of = pooled_exchanges(view, min_dir, whole_items, trades)
    pair_tests = feed_test(view, min_dir, whole_items)
    spokes = []
    for g, pair in partners:
        net = view.pair(*pair).net_from(g)
        share = giver_share(view, g, net)
        sign = 1.0 if pair[0] == g else -1.0
        way, traded, back, evidence = _one_way(rows_of[pair], sign)
        if net < floor or share < min_share or len(way) < min_spoke_exchanges:
            continue
        spokes.append({"agent": g, "netValue": net, "giverShare": share, "oneWayExchanges": len(way),
                       "oneWayTrades": traded,
                       "oneWayBack": back, "pValue": pair_tests[pair][0], "evidence": evidence})
    return sorted(spokes, key=lambda s: (-s["netValue"], repr(s["agent"])))


def _pooled_flag(view: TransferView, h: Any, partners: list[tuple[Any, tuple[Any, Any]]],
                 spokes: list[dict[str, Any]], values: list[float], floor: float, p: float,
                 trades: bool) -> Flag:
    """Rule 5's flag for seat ``h`` (its level set by the match-level step); ``trades``: whether every one-sided
    exchange was pooled, or the gifts alone (its words and null say which)."""
    total = sum(s["netValue"] for s in spokes)
    what = "one-sided exchanges" if trades else "gifts"
    scale = view.scale or 1.0
    names = ", ".join(str(s["agent"]) for s in spokes)
    n_one = sum(1 for v in values if v > 0)
    return Flag(
        screen="feeder",
        kind="hub_and_spoke",
        level="review",
        agents=(h, *(s["agent"] for s in spokes)),
        pairs=tuple(ordered(pair_key(h, s["agent"]) for s in spokes)),
        score=total / scale,
        threshold=floor / scale,
        evidence=tuple(ordered({e for s in spokes for e in s["evidence"]})),
        explanation=(
            f"{h} received {total:g} in net value one way from {len(spokes)} seats ({names}), "
            f"{total / scale:.1f} times what a typical exchange of this match moves; pooled over the "
            f"{len(partners)} seats bound to it, {n_one} of their {len(values)} {what} with it ran its way."
        ),
        details={
            "beneficiary": h,
            "pooled": True,
            "pooledOver": what,
            "typicalExchangeValue": view.scale,
            "netValue": total,
            "boundPartners": [g for g, _pair in partners],
            "oneWayExchanges": n_one,
            "oneSidedExchanges": len(values),
            "spokes": [{k: v for k, v in s.items() if k != "evidence"} | {"pAdjusted": None} for s in spokes],
        },
        p_value=p,
        null=HUB_NULL if trades else HUB_GIFTS_NULL,
    )


def hubs(view: TransferView, flags: list[Flag], pooled: list[Flag] | None = None, *,
         whole_items: bool = True) -> list[Flag]:
    """One flag per beneficiary from the significant feeds and pooled tests (already levelled by the
    match-level step; rules 4 and 5).  Two or more feeds: ``hub_and_spoke``, its p-values its weakest
    spoke's (every accused pair is significant), with the spokes of a significant pooled test into the same
    beneficiary that it does not already name added, at ``flag`` when either reached it.  Fewer, with a
    significant pooled test: the pooled flag (its p-values the pooled test's), a significant feed it does not
    name added as a spoke.  Else a lone feed is a ``one_way_feed`` at ``review``."""
    by_hub: dict[Any, list[Flag]] = {}
    for f in flags:
        by_hub.setdefault(f.details["beneficiary"], []).append(f)
    out: list[Flag] = []
    pooled_of = {f.details["beneficiary"]: f for f in pooled or ()}
    for hub in ordered(set(by_hub) | set(pooled_of)):
        spokes = sorted(by_hub.get(hub, []), key=lambda f: (-f.details["netValue"], repr(f.details["spoke"])))
        if len(spokes) >= 2:
            honest = hub not in pooled_of  # a significant pooled test of gifts: not a seller paid in trades
            out.append(_widened(view, _hub_of_feeds(view, hub, spokes, whole_items if honest else None),
                                pooled_of.get(hub)))
        elif hub in pooled_of:
            out.append(_joined(view, pooled_of[hub], spokes))
        elif len(spokes) == 1:
            [f] = spokes
            reading = f.details.get("honestReading")
            out.append(replace(f, level="review", explanation=f.explanation + "; a single feeder, not a "
                               "hub-and-spoke." + (f" {reading}" if reading else "")))
    return out


def _widened(view: TransferView, hub: Flag, pooled: Flag | None) -> Flag:
    """Rule 4's ``hub`` flag with the spokes a significant ``pooled`` test into the same beneficiary names that
    it does not (listed in its details as ``pooledSpokes``); at ``flag`` when either is."""
    if pooled is None:
        return hub
    extra = [s for s in pooled.details["spokes"] if s["agent"] not in hub.agents[1:]]
    level: Level = "flag" if "flag" in (hub.level, pooled.level) else "review"
    if not extra:
        return replace(hub, level=level)
    spokes = sorted([*hub.details["spokes"], *extra], key=lambda s: (-s["netValue"], repr(s["agent"])))
    total = sum(s["netValue"] for s in spokes)
    extra_pairs = [pair_key(hub.agents[0], s["agent"]) for s in extra]
    extra_events = set(pooled.evidence) & {e for p in extra_pairs for x in view.pair(*p).exchanges for e in x.events}
    names = ", ".join(str(s["agent"]) for s in extra)
    return replace(
        hub,
        level=level,
        agents=(hub.agents[0], *(s["agent"] for s in spokes)),
        pairs=tuple(ordered({*hub.pairs, *extra_pairs})),
        score=total / (view.scale or 1.0),
        evidence=tuple(ordered({*hub.evidence, *extra_events})),
        explanation=hub.explanation + (f" Pooled with the seats bound to it ({pooled.details['oneWayExchanges']} of "
                                       f"their {pooled.details['oneSidedExchanges']} {pooled.details['pooledOver']} "
                                       f"with it ran its way, p = {pooled.p_value:.3g}), {names} fed it too."),
        details={**hub.details, "netValue": total, "spokes": spokes, "pooledSpokes": [s["agent"] for s in extra]},
    )


def _hub_of_feeds(view: TransferView, hub: Any, spokes: list[Flag], whole_items: bool | None) -> Flag:
    """Rule 4's flag: two or more significant feeds into ``hub``, its p-values its weakest spoke's; unless
    ``whole_items`` is None (a significant pooled test over gifts into ``hub``), the honest reading of a hub paid in
    trades (:func:`_hub_reading`, trades read as rule 1 read them)."""
    total = sum(f.details["netValue"] for f in spokes)
    scale = view.scale or 1.0
    names = ", ".join(str(f.details["spoke"]) for f in spokes)
    low, high = (f"{x:.0%}" for x in (min(f.details["giverShare"] for f in spokes),
                                      max(f.details["giverShare"] for f in spokes)))
    shares = low if low == high else f"{low} to {high}"
    worst = max(spokes, key=lambda f: (f.p_adjusted or 0.0, f.p_value or 0.0))
    level: Level = "review" if any(f.level == "review" for f in spokes) else "flag"
    reading = _hub_reading(hub, spokes, whole_items) if whole_items is not None else None
    return Flag(
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
            f"the chance quoted is its least unusual spoke's, {worst.details['spoke']}'s." + (f" {reading[0]}" if reading else "")
        ),
        details={
            "beneficiary": hub,
            "typicalExchangeValue": view.scale,
            "netValue": total,
            "spokes": [_spoke(f) for f in spokes],
            **({"honestReading": reading[0], "otherSuppliers": reading[1]} if reading else {}),
        },
        p_value=worst.p_value,
        null=FEED_NULL,
        tests=worst.tests,
        p_adjusted=worst.p_adjusted,
    )


def _hub_reading(hub: Any, spokes: list[Flag], whole_items: bool) -> tuple[str, dict[str, list[Any]]] | None:
    """Rule 4's hub in the words of :func:`_honest_reading`, where every spoke's one-sided exchanges its way were
    trades (none a gift): a seller of goods its buyers lacked, asking each more than one whole item every time, would
    look the same; with the other seats than ``hub`` that handed those goods to anyone in the match
    (:func:`_other_suppliers`, the spokes among them said so).  None where any spoke gave a gift."""
    if not all(f.details.get("honestReading") for f in spokes):
        return None
    elsewhere: dict[str, set[Any]] = {}
    for f in spokes:
        for good, seats in f.details["otherSuppliers"].items():
            elsewhere.setdefault(good, set()).update(seats)
    listed = {good: ordered(seats) for good, seats in sorted(elsewhere.items())}
    named = {f.details["spoke"] for f in spokes}
    paid = _PAID_WHOLE if whole_items else _PAID_VALUE
    return (f"Each spoke's one-sided exchanges its way were trades in which it paid {hub} {paid}: a seat selling goods "
            "its buyers lacked and could get nowhere else, asking each that much every time, would look the same."
            + _supply_sentences(listed, {x: f"{x} (a spoke)" for x in named}), listed)


def _spoke(f: Flag) -> dict[str, Any]:
    """A significant feed, as a hub flag's spoke."""
    return {"agent": f.details["spoke"], "netValue": f.details["netValue"], "giverShare": f.details["giverShare"],
            "oneWayExchanges": f.details["oneWayExchanges"], "oneWayTrades": f.details["oneWayTrades"],
            "oneWayBack": f.details["oneWayBack"],
            "pValue": f.p_value, "pAdjusted": f.p_adjusted}


def _joined(view: TransferView, pooled: Flag, feeds: list[Flag]) -> Flag:
    """Rule 5's flag with the significant ``feeds`` into its beneficiary it does not already name added as
    spokes; at ``flag`` when the pooled test or the feeds' own hub-and-spoke (two or more, every one a flag)
    reached it."""
    named = set(pooled.agents[1:])
    extra = [f for f in feeds if f.details["spoke"] not in named]
    level: Level = pooled.level
    if len(feeds) >= 2 and all(f.level == "flag" for f in feeds):
        level = "flag"
    if not extra:
        return replace(pooled, level=level)
    spokes = sorted([*pooled.details["spokes"], *(_spoke(f) for f in extra)],
                    key=lambda s: (-s["netValue"], repr(s["agent"])))
    total = sum(s["netValue"] for s in spokes)
    scale = view.scale or 1.0
    added = ", ".join(str(f.details["spoke"]) for f in extra)
    return replace(
        pooled,
        level=level,
        agents=(pooled.agents[0], *(s["agent"] for s in spokes)),
        pairs=tuple(ordered({*pooled.pairs, *(p for f in extra for p in f.pairs)})),
        score=total / scale,
        evidence=tuple(ordered({*pooled.evidence, *(e for f in extra for e in f.evidence)})),
        explanation=pooled.explanation.removesuffix(".") + f"; beside them, {added} fed it one way on its own "
                                                          "(significant alone).",
        details={**pooled.details, "netValue": total, "spokes": spokes},
    )
