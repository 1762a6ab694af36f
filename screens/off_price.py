"""Off-price trades: value moved under the cover of a trade, one way between the same two.

The evaluation design's collusion screens: "trades priced far off ITEM_VALUES reference",
every deal valued at market-imputed valuations.  A trade in which one side is worth
``price_ratio`` times the other or more is *off-price*.  Honest agents make such trades
too: they trade in whole items, so an agent whose only spare goods are dear pays a whole
tool for the one wood it needs now, six times the reference, and between two agents that
trade often it happens again and again, to a friend more than to anyone else, and not
always both ways.  What whole items cannot explain is paying *more than one whole item
too much*: an honest agent that has only tools pays one tool for a wood, never four.
Collusion moves its surplus in lots far beyond one item, to the same partner, every time.

Rule: per payer and beneficiary, every pair that traded, each way (*the family*, below; a
pair is raised only where the payer gave the dearer side of at least one off-price trade with
the beneficiary).  Each trade's *excess* is the surplus its overpayer
handed over (what it gave minus what it got) beyond one whole item of the dearest good it
gave (:func:`excess`; the value of one item of each good is read from the match,
:func:`item_units`).  The statistic is the excess the payer handed the beneficiary over
all their trades, signed (the beneficiary's excess back counts against it), magnitudes
summed.  Two nulls, kept from the two seats' own behaviour with others, and both must fail
(the p-value is the larger: an intersection-union test):

- *the payer's*: its trades carry excess no more often with the beneficiary than with its
  other partners.  A seat that overpays by more than an item now and then overpays whoever
  it trades with;
- *the beneficiary's*: the trades it received excess in were no more often with the payer
  than with its other partners.  A seat that sells what everyone lacks is overpaid by
  everyone: the payer's excess is then nothing special among what it gets.

Each null is read two ways, and the smaller p-value, doubled, counts (:func:`seat_test`):
the exact permutation of the excess (:func:`~daishi_forensics.screens.stats.subset_sum_p`:
the chance that as many of the seat's trades, drawn from all of them, carry as much), and
the seat's rate of trades carrying excess, a beta-binomial whose Beta is the rest of the
match's rate (the trades of neither seat) with the weight of :data:`SEAT_PRIOR` trades,
updated with the seat's own other trades (:func:`rate_test`).  The permutation says little
when a seat trades mostly with one partner (a few other trades are few ways to deal them);
the rate then leans on how rarely anyone in the match overpays by more than an item.

A seat that traded with nobody else has nothing to compare with: its null is not asked
(when neither can be asked, nothing is flagged).

**A posted price** (``posted_price_sales``; 0 turns it off).  A holder of a scarce good asks its buyers
what they can pay, in whole dear items, and every buyer pays it: each seller-buyer pair is an off-price
pair, and honest.  Where the beneficiary sold the good it sold the payer off-price (that good alone, for
``price_ratio`` times its value or more, with excess) on such terms to another seat ``posted_price_sales``
times or more (:func:`posted_price`), the pair is not raised: a seller that asks every buyer the same is
pricing, not passing value to one partner.  Like the size floor it can only remove a flag (the pair's test
stays in the family).  A gainer that also sells so to a second colluder is not raised here; two payers
feeding one seat are the feeder screen's hub-and-spoke.

**The family.**  Every pair that traded is tested, each way (payer and partner), whether or not
excess changed hands between them: choosing the pairs to test by where the excess went would
choose the family from the outcome.  Tarone's rule then leaves out of the match's count every
test whose smallest attainable p-value (:func:`seat_floor`) could never pass, and that
smallest value is read from what the payer's null holds fixed (its trades with each partner,
counted, and the excess its trades carried, as a set), never from who got the excess.  A seat
none of whose trades carries excess can give no p-value below 1, so its pairs are not tests; a
test whose smallest attainable p-value is above the configured false-alarm rate (``alpha``,
which the screening step passes) can never count, and its p-value is not worked out (recorded
as 1).
Only a pair where the payer handed the beneficiary excess in an off-price trade is raised.
Whole-item overpayment, to friends or to anyone, has no excess, so it is never raised: how
often friends overpay each other one item at a time, and which way, no longer decides (the test between the two of
earlier versions, each off-price trade as likely to have gone either way, could never say
less than ``2 / 2^n`` for ``n`` trades, so a handful of trades was never evidence enough).

The excess the beneficiary received net over all their trades must be at least
``min_value`` typical exchanges of the match (a size floor that can only remove a flag).
Trades whose goods have no reference value are not priced (the report says "not screened").

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i in range(4):  # s overpays b by four tools every time, and trades fairly with c and d
...     _ = G.add_edge("s", "b", value=48.0, tick=5 * i, event=5 * i, goods={"tool": 48.0})
...     _ = G.add_edge("b", "s", value=2.0, tick=5 * i, event=5 * i, goods={"wood": 2.0})
...     for k, (x, y) in enumerate((("s", "c"), ("s", "d"), ("b", "c"), ("b", "d")), start=1):
...         _ = G.add_edge(x, y, value=12.0, tick=5 * i + k, event=5 * i + k, goods={"tool": 12.0})
...         _ = G.add_edge(y, x, value=12.0, tick=5 * i + k, event=5 * i + k, goods={"food": 12.0})
>>> [(c.flag.agents, round(c.flag.score, 2), round(c.flag.p_value, 6)) for c in off_price(TransferView(G),
...   {"price_ratio": 3.0, "min_value": 1.0})[0]]
[(('b', 's'), 11.33, 0.002797)]

(A tool is 12: the match moves it as 12 and 48.  Each trade with b hands over 46, 34 beyond
one tool.  s made 12 trades; the four with b carry all its excess, the others none: 1 of the
C(12, 4) = 495 ways to deal four of them, 0.00202.  Read as a rate: no trade here is of
neither seat, so the match's rate is the prior's one half, Beta(1, 1) with the weight of two
trades, updated with s's 8 other trades, none with excess: Beta(1, 9); four of four then has
chance (1 x 2 x 3 x 4) / (10 x 11 x 12 x 13) = 0.0013986.  The smaller, doubled: 0.002797.
b made 12 trades too, and got no excess from c and d: the same.  Net excess 4 x 34 = 136,
11.33 typical exchanges of 12.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .flags import Flag, ordered, pair_key
from .graph import Exchange, TransferView
from .stats import Candidate, SharedTails, Test, betabinom_sf, subset_sum_floor, subset_sum_p, subset_sum_share

__all__ = ["OFF_PRICE_NULL", "SEAT_PRIOR", "Trade", "excess", "item_units", "off_price", "posted_price", "price_ratio",
           "rate_test", "SeatTally", "seat_tally", "seat_test", "sold_off_price", "surplus_test", "whole_unit"]


def price_ratio(dear: float, cheap: float) -> float:
    """How many times the dearer side is worth the cheaper (inf when the cheaper is worth 0)."""
    if cheap <= 0:
        return float("inf") if dear > 0 else 1.0
    return dear / cheap


MAX_ITEMS = 12
"""The most items of one good a lot is read as (:func:`whole_unit`)."""


def whole_unit(amounts: Iterable[float]) -> float:
    """The value of one item of a good, from the amounts of it moved in single legs: the
    largest ``smallest / m`` (``m`` = 1 to :data:`MAX_ITEMS`) that every amount is a whole
    multiple of, else the smallest amount.  Never less than one item (amounts of whole items
    are multiples of it), so it can only understate an overpayment.

    >>> whole_unit([24.0, 36.0, 60.0])
    12.0
    >>> whole_unit([48.0])
    48.0
    >>> whole_unit([2.5, 3.7])
    2.5
    """
    found = sorted({round(float(a), 9) for a in amounts if a > 0})
    if not found:
        return 0.0
    smallest = found[0]
    for m in range(1, MAX_ITEMS + 1):
        unit = smallest / m
        if all(abs(a / unit - round(a / unit)) <= 1e-6 * max(1.0, a / unit) for a in found):
            return unit
    return smallest


def item_units(view: TransferView) -> dict[Any, float]:
    """Good -> the value of one item of it in this match (:func:`whole_unit` over every leg
    of a voluntary exchange that carried it)."""
    return view.once("off_price.units", lambda: _item_units(view))


def _item_units(view: TransferView) -> dict[Any, float]:
    amounts: dict[Any, list[float]] = {}
    for x in view.exchanges:
        for goods in x.goods.values():
            for good, worth in goods.items():
                amounts.setdefault(good, []).append(worth)
    return {good: whole_unit(found_amounts) for good, found_amounts in amounts.items()}


def excess(gave: float, got: float, goods: Mapping[Any, float], units: Mapping[Any, float]) -> float:
    """The surplus ``gave - got`` beyond one whole item of the dearest good given (``goods``:
    ``{good: value}`` of what was given), or 0: what paying in whole items cannot explain.

    >>> excess(48.0, 2.0, {"tool": 48.0}, {"tool": 12.0})  # four tools for a wood: 34 beyond one tool
    34.0
    >>> excess(12.0, 2.0, {"tool": 12.0}, {"tool": 12.0})  # one tool for a wood: whole items
    0.0
    """
    slack = max((units.get(good, worth) for good, worth in goods.items() if worth > 0), default=0.0)
    return max(0.0, gave - got - slack)


class Trade(NamedTuple):
    """One seat's side of a trade (goods both ways, known values)."""

    tick: float
    partner: Any
    overpaid: bool
    """The seat gave the dearer side, off-price."""
    surplus: float
    """Value it gave minus value it got."""
    excess: float
    """Its surplus beyond one whole item (:func:`excess`), signed: negative when the partner
    overpaid beyond one item."""
    exchange: Exchange


def _trades_of(view: TransferView, ratio_min: float) -> dict[Any, list[Trade]]:
    """Node -> its trades in time order."""
    return view.once(("off_price.trades", ratio_min), lambda: _trades_read(view, ratio_min))


def _trades_read(view: TransferView, ratio_min: float) -> dict[Any, list[Trade]]:
    units = item_units(view)
    out: dict[Any, list[Trade]] = {}
    exempt = view.exempt
    for x in view.exchanges:
        a, b = x.a, x.b
        if x.unvalued or a in exempt or b in exempt or not (x.legs.get(a, 0) > 0 and x.legs.get(b, 0) > 0):
            continue
        ga, gb = x.gave.get(a, 0.0), x.gave.get(b, 0.0)
        off = price_ratio(max(ga, gb), min(ga, gb)) >= ratio_min
        over = excess(ga, gb, x.goods.get(a, {}), units) - excess(gb, ga, x.goods.get(b, {}), units)
        out.setdefault(a, []).append(Trade(x.tick, b, off and ga > gb, ga - gb, over, x))
        out.setdefault(b, []).append(Trade(x.tick, a, off and gb > ga, gb - ga, -over, x))
    return out


def surplus_test(trades: list[Trade], partner: Any, sign: float = 1.0,
                 shared: SharedTails | None = None) -> tuple[float, float, int, int]:
    """One side's null (module rule): ``(p, smallest attainable p, trades with the partner,
    trades in all)``: the excess ``sign x`` (excess the seat gave) of its trades with
    ``partner``, summed, against the same number of its trades drawn at random (``shared``: tables
    worked out beforehand, :func:`~daishi_forensics.screens.stats.subset_sum_share`)."""
    return _surplus_test(trades, partner, [sign * t.excess for t in trades], shared)


def _surplus_test(trades: list[Trade], partner: Any, values: list[float],
                  shared: SharedTails | None) -> tuple[float, float, int, int]:
    """:func:`surplus_test` with the seat's signed excess ``values`` already read."""
    chosen = [t.partner == partner for t in trades]
    p, smallest = subset_sum_p(values, chosen, shared=shared)
    return p, smallest, sum(chosen), len(trades)


class SeatTally(NamedTuple):
    """A seat's trades counted once (:func:`seat_tally`), so that asking about each of its partners
    does not read its whole trade list again: a seat that trades with everyone (a hub) has as many
    partners as trades, and counting per partner grew as their product."""

    together: Counter[Any]
    """Partner -> the seat's trades with it."""
    carrying: Counter[Any]
    """Partner -> those of them whose excess went the side's way (``sign x excess > 0``)."""
    carrying_all: int
    """The seat's trades carrying excess that way, with anyone."""
    values: list[float]
    """Each trade's signed excess (``sign x excess``), in time order."""


def seat_tally(trades: list[Trade], sign: float = 1.0) -> SeatTally:
    """A seat's trades with each partner and those carrying excess its ``sign``'s way, counted in one
    pass (:class:`SeatTally`).

    >>> t = seat_tally([Trade(1, "b", True, 9.0, 5.0, None), Trade(2, "b", False, 0.0, 0.0, None),
    ...                 Trade(3, "c", False, -9.0, -5.0, None)])  # type: ignore[arg-type]
    >>> t.together["b"], t.carrying["b"], t.carrying["c"], t.carrying_all, t.values
    (2, 1, 0, 1, [5.0, 0.0, -5.0])
    """
    values = [sign * t.excess for t in trades]
    together: Counter[Any] = Counter(t.partner for t in trades)
    carrying: Counter[Any] = Counter(t.partner for t, v in zip(trades, values) if v > 0)
    return SeatTally(together, carrying, sum(carrying.values()), values)


SEAT_PRIOR = 2.0
"""Weight, in trades, of the rest of the match's rate of overpaying beyond one item in a seat's own
(:func:`rate_test`): a diffuse prior, so a seat's own few trades soon outweigh it."""


def rate_test(hits: int, trades: int, own_hits: int, own_trades: int, match_rate: float) -> tuple[float, float]:
    """One seat's rate reading (module rule): ``(p, smallest attainable p)``, the chance that
    ``hits`` or more of ``trades`` trades carry excess when each does with the seat's own chance,
    drawn from a Beta whose mean is ``match_rate`` with the weight of :data:`SEAT_PRIOR` trades,
    updated with its ``own_hits`` of ``own_trades`` other trades (beta-binomial).

    >>> [round(v, 6) for v in rate_test(2, 2, 0, 2, 0.25)]  # Beta(0.5, 3.5): (0.5 x 1.5) / (4 x 5)
    [0.0375, 0.0375]
    """
    alpha = match_rate * SEAT_PRIOR + own_hits
    strength = SEAT_PRIOR + own_trades
    mean = alpha / strength
    return betabinom_sf(hits, trades, mean, strength), betabinom_sf(trades, trades, mean, strength)


def seat_test(trades: list[Trade], partner: Any, match_rate: float, sign: float = 1.0,
              shared: SharedTails | None = None, tally: SeatTally | None = None) -> tuple[float, float]:
    """One side's null (module rule), read two ways and the smaller doubled: the exact
    permutation of the excess (:func:`surplus_test`), and the seat's rate of trades carrying
    excess (:func:`rate_test`) from its other trades and the rest of the match.  Returns ``(p,
    smallest attainable p)``; the smallest is :func:`seat_floor`'s (what the null holds fixed).
    ``tally``: the seat's trades counted beforehand (:func:`seat_tally` with the same ``sign``)."""
    counted = tally if tally is not None else seat_tally(trades, sign)
    p_perm, _, _, _ = _surplus_test(trades, partner, counted.values, shared)
    together = counted.together[partner]
    hits = counted.carrying[partner]
    p_rate, _ = rate_test(hits, together, counted.carrying_all - hits, len(trades) - together, match_rate)
    return min(1.0, 2 * min(p_perm, p_rate)), seat_floor(counted.values, together, match_rate)


def seat_floor(values: list[float], together: int, match_rate: float) -> float:
    """The smallest p-value :func:`seat_test` could give a seat with these signed excess ``values``
    over its trades (in any order) when ``together`` of them are with the partner: what its null
    holds fixed (the seat's trades with each partner, counted, and the excess its trades carried,
    as a set), never which partner got which.  Tarone's rule reads it to decide whether a pair's
    test could ever pass, so the family of tests is chosen without looking at the outcome.

    The permutation is at its smallest when the ``together`` largest values are the partner's;
    the rate when as many of the partner's trades as there are carry excess, the fewest of the
    others.

    >>> seat_floor([0.0, 0.0, 0.0], 1, 0.1)  # no excess anywhere: no trade can make it unusual
    1.0
    >>> round(seat_floor([34.0, 0.0, 0.0, 0.0], 1, 0.25), 6)  # 1 of 4 ways; Beta(0.5, 4.5) one in one: 0.1
    0.2
    """
    smallest_perm = subset_sum_floor(values, together)
    carrying = sum(1 for v in values if v > 0)
    hits = min(together, carrying)
    p_rate = rate_test(hits, together, carrying - hits, len(values) - together, match_rate)[0]
    return min(1.0, 2 * min(smallest_perm, p_rate))


class _SideCounts(NamedTuple):
    """Trade sides (one per seat per trade) and those that overpaid beyond one item: in the match,
    touching each seat, and between each pair."""

    sides: int
    hits: int
    by_node: Mapping[Any, tuple[int, int]]
    by_pair: Mapping[tuple[Any, Any], tuple[int, int]]


def _side_counts(by_node: Mapping[Any, list[Trade]]) -> _SideCounts:
    sides = hits = 0
    node_counts: dict[Any, tuple[int, int]] = {}
    pair_counts: dict[tuple[Any, Any], tuple[int, int]] = {}
    for node, trades in by_node.items():
        for t in trades:
            hit = int(t.excess > 0)
            sides += 1
            hits += hit
            for seat in (node, t.partner):  # a side touches its seat and its partner
                n, h = node_counts.get(seat, (0, 0))
                node_counts[seat] = (n + 1, h + hit)
            key = pair_key(node, t.partner)
            n, h = pair_counts.get(key, (0, 0))
            pair_counts[key] = (n + 1, h + hit)
    return _SideCounts(sides, hits, node_counts, pair_counts)


def _match_rate(counts: _SideCounts, payer: Any, winner: Any) -> float:
    """The chance one side of a trade overpaid beyond one item, among the trades of neither seat
    (half a trade's worth of prior: never 0): the match's sides less those touching either seat
    (the pair's own counted once)."""
    n_p, h_p = counts.by_node.get(payer, (0, 0))
    n_w, h_w = counts.by_node.get(winner, (0, 0))
    n_b, h_b = counts.by_pair.get(pair_key(payer, winner), (0, 0))
    sides = counts.sides - n_p - n_w + n_b
    hits = counts.hits - h_p - h_w + h_b
    return (hits + 0.5) / (sides + 1)


OFF_PRICE_NULL = ("two nulls, both rejected: the surplus beyond one whole item in the payer's trades was dealt to "
                  "its partners at random (the exact chance that as many of its trades carry as much), and the "
                  "surplus beyond one whole item the beneficiary received was dealt to its partners at random; the "
                  "larger p-value counts")
"""The off-price screen's null, in words."""


def off_price(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test]]:
    """Payers whose surplus beyond whole items went to one beneficiary (module rule):
    candidates and tests."""
    scale = view.scale
    if not scale:
        return [], []
    ratio_min = float(params["price_ratio"])
    alpha = float(params.get("alpha", 1.0))
    floor = float(params["min_value"]) * scale
    posted = int(params.get("posted_price_sales", 0))
    found: list[Candidate] = []
    tests: list[Test] = []
    by_node = _trades_of(view, ratio_min)
    counts = _side_counts(by_node)
    gave = {seat: seat_tally(trades) for seat, trades in by_node.items()}  # counted once a seat, each side
    got = {seat: seat_tally(trades, -1.0) for seat, trades in by_node.items()}
    family: list[tuple[Any, Any, float, float, bool]] = []  # payer, beneficiary, match rate, floor, raised
    for payer in ordered(by_node):
        trades = by_node[payer]
        overpaid = {t.partner for t in trades if t.overpaid and t.excess > 0}
        for winner in ordered(gave[payer].together):  # every trading pair, each way: the family
            match_rate = _match_rate(counts, payer, winner)
            smallest = _smallest_p(trades, by_node.get(winner, []), winner, match_rate, gave[payer], got.get(winner))
            family.append((payer, winner, match_rate, smallest, winner in overpaid))
    shared = _share_tables(by_node, [(payer, winner) for payer, winner, _, smallest, raised in family
                            if not _left_out(smallest, alpha, raised)])
    for payer, winner, match_rate, smallest, raised in family:
        trades, received = by_node[payer], by_node.get(winner, [])
        key = ("off_price", payer, winner)
        if _left_out(smallest, alpha, raised):
            if smallest < 1.0:  # never in the family: its p-value is not worked out (a floor of 1 is no test)
                tests.append(Test(key, 1.0, smallest))
            continue
        tested = _pair_test(trades, received, payer, winner, match_rate, shared, gave[payer], got.get(winner))
        tests.append(Test(key, tested.p, smallest))
        moved = sum(t.excess for t in trades if t.partner == winner)
        if not raised or moved < floor or not tested.asked:
            continue
        if posted and posted_price(by_node.get(winner, []), payer, posted, ratio_min):
            continue
        found.append(Candidate(_flag(view, scale, params, payer, winner, trades, received, tested), (key,)))
    return found, tests


def sold_off_price(received: list[Trade], ratio_min: float) -> dict[Any, Counter[Any]]:
    """A seller's off-price sales of one good: from its side of its trades (``received``), the good it gave ->
    the partners that paid it ``ratio_min`` times its value or more, with excess (more than one whole item too
    much), in a trade where it gave that good alone, with how often."""
    sales: dict[Any, Counter[Any]] = {}
    for t in received:
        mine = t.exchange.goods.get(t.exchange.other(t.partner), {})
        if t.excess < 0 and len(mine) == 1 and price_ratio(sum(mine.values()) - t.surplus, sum(mine.values())) \
                >= ratio_min:
            sales.setdefault(next(iter(mine)), Counter())[t.partner] += 1
    return sales


def posted_price(received: list[Trade], payer: Any, min_sales: int, ratio_min: float) -> bool:
    """Whether the beneficiary's excess from ``payer`` is its asking price (the module's posted-price rule):
    of a good it sold ``payer`` off-price, alone, with excess, it made ``min_sales`` or more such sales to some other
    seat (:func:`sold_off_price`).

    >>> import networkx as nx
    >>> from .graph import TransferView
    >>> G = nx.MultiDiGraph()  # a tool is 12 (x pays y one for wood); p and q pay s two tools for one fiber
    >>> _ = G.add_edge("x", "y", value=12.0, tick=0, event="xa", exchange="x", goods={"tool": 12.0})
    >>> _ = G.add_edge("y", "x", value=12.0, tick=0, event="xb", exchange="x", goods={"wood": 12.0})
    >>> for i, buyer in enumerate(["p", "p", "q", "q", "q"]):
    ...     _ = G.add_edge(buyer, "s", value=24.0, tick=i, event=f"{i}a", exchange=i, goods={"tool": 24.0})
    ...     _ = G.add_edge("s", buyer, value=2.0, tick=i, event=f"{i}b", exchange=i, goods={"fiber": 2.0})
    >>> received = _trades_of(TransferView(G), 3.0)["s"]
    >>> posted_price(received, "p", 3, 3.0), posted_price(received, "q", 3, 3.0), posted_price(received, "q", 2, 3.0)
    (True, False, True)
    """
    sales = sold_off_price(received, ratio_min)
    return any(buyers.get(payer, 0) >= 1 and any(n >= min_sales for q, n in buyers.items() if q != payer)
               for buyers in sales.values())


def _left_out(smallest: float, alpha: float, raised: bool) -> bool:
    """Whether a pair's p-value is not worked out (module rule, *the family*): its smallest attainable
    p-value can never pass (or is 1), and the payer handed the beneficiary no excess off-price."""
    return (smallest > alpha or smallest >= 1.0) and not raised


def _share_tables(by_node: Mapping[Any, list[Trade]], pairs: list[tuple[Any, Any]]) -> SharedTails:
    """The permutation tables the pairs' tests (:func:`_pair_test`) will read, worked out per seat and
    side at once (:func:`~daishi_forensics.screens.stats.subset_sum_share`): a seat that trades with
    many partners is asked about each, and partners with alike counts of trades share one table."""
    shared: SharedTails = {}
    wanted: dict[tuple[Any, float], set[int]] = {}
    partners: dict[Any, Counter[Any]] = {}  # a seat's trades with each partner, counted once per seat
    for payer, winner in pairs:
        if payer not in partners:
            partners[payer] = Counter(t.partner for t in by_node[payer])
        wanted.setdefault((payer, 1.0), set()).add(partners[payer][winner])
        if winner in by_node:
            if winner not in partners:
                partners[winner] = Counter(t.partner for t in by_node[winner])
            wanted.setdefault((winner, -1.0), set()).add(partners[winner][payer])
    for (seat, sign), together in wanted.items():
        subset_sum_share([sign * t.excess for t in by_node[seat]], together, shared)
    return shared


@dataclass(frozen=True, slots=True)
class _PairTest:
    """One pair's test, each way (module rule): the p-value and what it was made of."""

    p: float
    """The larger of the nulls asked (every null with something to compare with must fail); 1 if none."""
    p_payer: float
    """The payer's null: its trades with each partner and their excess fixed, not who got the excess."""
    p_taker: float
    """The beneficiary's null, the same from its side."""
    asked: bool
    """Some null had something to compare with (the payer or the beneficiary traded with others)."""


def _smallest_p(trades: list[Trade], received: list[Trade], winner: Any, match_rate: float,
                gave: SeatTally, got: SeatTally | None) -> float:
    """The smallest p-value the pair's test could give, for Tarone's rule: read from the payer's
    null (it holds the payer's trades with each partner and the excess they carried fixed, never
    who got it), or the beneficiary's when the payer traded with no one else; 1 if neither has
    anything to compare with.  The test's p is at least this.  ``gave`` and ``got``: the payer's
    and the beneficiary's trades counted (:func:`seat_tally`, each from its side)."""
    together = gave.together[winner]
    if together < len(trades):
        return seat_floor(gave.values, together, match_rate)
    if got is not None and together < len(received):
        return seat_floor(got.values, together, match_rate)
    return 1.0


def _pair_test(trades: list[Trade], received: list[Trade], payer: Any, winner: Any,
               match_rate: float, shared: SharedTails | None = None, gave: SeatTally | None = None,
               got: SeatTally | None = None) -> _PairTest:
    """The pair's test against both nulls; each null that has something to compare with must fail."""
    gave = gave if gave is not None else seat_tally(trades)
    together = gave.together[winner]
    p_payer = seat_test(trades, winner, match_rate, shared=shared, tally=gave)[0]
    p_taker = seat_test(received, payer, match_rate, sign=-1.0, shared=shared, tally=got)[0]
    asked = []
    if together < len(trades):
        asked.append(p_payer)
    if together < len(received):
        asked.append(p_taker)
    return _PairTest(max(asked, default=1.0), p_payer, p_taker, bool(asked))


def _is_fill(trade: Trade) -> bool:
    """The exchange was a filled market order (its key ``fill:<tradeId>``), not a trade of the ledger."""
    key = trade.exchange.key
    first = key[0] if isinstance(key, tuple) and key else key
    return isinstance(first, str) and first.startswith("fill:")


def _exchanges_said(between: list[Trade]) -> str:
    """``9 trades, 8 in the trade ledger and 1 market fill``: what the count holds, so it agrees with the trade
    ledger (which leaves market fills out); ``8 trades`` when there was no market fill."""
    fills = sum(1 for t in between if _is_fill(t))
    if not fills:
        return f"{len(between)} trades"
    return (f"{len(between)} trades, {len(between) - fills} in the trade ledger and {fills} market "
            f"fill{'s' if fills != 1 else ''}")


def _flag(view: TransferView, scale: float, params: Mapping[str, Any], payer: Any, winner: Any,
          trades: list[Trade], received: list[Trade], tested: _PairTest) -> Flag:
    """The off-price flag of a pair (its test ``tested``), its explanation and its figures; ``scale``
    the match's typical exchange value."""
    ratio_min = float(params["price_ratio"])
    between = [t for t in trades if t.partner == winner]
    together, total, taken_total = len(between), len(trades), len(received)
    moved = sum(t.excess for t in between)
    mine = [t for t in between if t.overpaid]
    back = [r for r in received if r.partner == payer and r.overpaid]
    surplus = sum(t.surplus for t in between)
    score = moved / scale
    worst = max(price_ratio(max(t.exchange.gave.values()), min(t.exchange.gave.values())) for t in mine)
    return Flag(
        screen="off_price",
        kind="off_price_trades",
        level="flag",
        agents=(winner, payer),
        pairs=(pair_key(winner, payer),),
        score=score,
        threshold=float(params["min_value"]),
        evidence=tuple(ordered({e for t in mine for e in t.exchange.events})),
        explanation=(
            f"{payer} traded with {winner} {len(mine)} times at prices {ratio_min:g} or more times off the "
            f"reference values in {winner}'s favour ({len(back)} the other way), handing over {moved:g} in "
            f"value beyond what paying in whole items explains ({score:.1f} typical exchanges; {surplus:g} "
            f"of surplus in all over their {_exchanges_said(between)}): more than {payer}'s other trades "
            f"({total - together}) and what {winner} got from others ({taken_total - together} trades) "
            f"would deal them."
        ),
        details={
            "beneficiary": winner,
            "payer": payer,
            "offPriceTrades": len(mine),
            "payerTrades": total,
            "beneficiaryTrades": taken_total,
            "surplus": surplus,
            "excess": moved,
            "pPayer": tested.p_payer,
            "pBeneficiary": tested.p_taker,
            "offPriceTradesBack": len(back),
            "valueMoved": sum(t.surplus for t in mine) - sum(r.surplus for r in back),
            "typicalExchangeValue": scale,
            "worstRatio": worst if worst != float("inf") else None,
            "tradesWithPair": len(view.pair(payer, winner).exchanges),
        },
        p_value=tested.p,
        null=OFF_PRICE_NULL,
    )
