"""The nulls of the round-trip, off-price and thrown-fight tests, on hand-built inputs with
hand-derived p-values; and the one-pass read of plain payments."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import numpy as np
import pytest
from daishi_forensics.screens import load_config, screen_graph
from daishi_forensics.screens.graph import ScreenInputError, TransferView
from daishi_forensics.screens.off_price import off_price
from daishi_forensics.screens.mirrors import pair_trips
from daishi_forensics.screens.round_trip_null import pair_nulls, repeat_rates, round_trip_counts
from daishi_forensics.screens.screening import screen_view
from daishi_forensics.screens.stats import binom_cdf, subset_sum_p
from daishi_forensics.screens.thrown_fight import thrown_fight
from daishi_forensics.screens.wash_ring import round_trip_rings

_ids = itertools.count(1)


def trade(g: nx.MultiDiGraph, a: str, b: str, tick: int, give: dict[str, float], get: dict[str, float]) -> int:
    eid = next(_ids)
    g.add_edge(a, b, value=sum(give.values()), tick=tick, event=eid, exchange=eid, goods=give)
    g.add_edge(b, a, value=sum(get.values()), tick=tick, event=eid, exchange=eid, goods=get)
    return eid


# -- subset sums ------------------------------------------------------------------------------


def test_subset_sum_p_is_the_share_of_subsets_as_large() -> None:
    # four values, two chosen (10 and 9): of the C(4, 2) = 6 pairs only {10, 9} sums to 19 or more
    assert subset_sum_p([10.0, 9.0, 1.0, 0.0], [True, True, False, False]) == (1 / 6, 1 / 6)
    # the chosen pair {9, 1} = 10: pairs summing to 10 or more are {10, 9}, {10, 1}, {10, 0}, {9, 1}
    assert subset_sum_p([10.0, 9.0, 1.0, 0.0], [False, True, True, False])[0] == pytest.approx(4 / 6)
    # negative values are surpluses the other way; all chosen, or none: nothing to compare
    assert subset_sum_p([-4.0, 4.0], [False, True]) == (0.5, 0.5)
    assert subset_sum_p([1.0, 2.0], [True, True]) == (1.0, 1.0)


@pytest.mark.parametrize("share", [0.4, 0.85])
def test_subset_sum_p_matches_every_subset_counted(share: float) -> None:
    """Against every subset counted, with few values chosen and with most of them (the table's rows the
    values left cannot take to k are skipped)."""
    rng = random.Random(7)
    for _ in range(20):
        values = [float(rng.randrange(-5, 40)) for _ in range(11)]  # integers: no rounding in the test
        chosen = [rng.random() < share for _ in values]
        k = sum(chosen)
        if k in (0, len(values)):
            continue
        observed = sum(v for v, c in zip(values, chosen) if c)
        sums = [sum(s) for s in itertools.combinations(values, k)]
        exact = sum(1 for x in sums if x >= observed - 1e-9) / len(sums)
        p, smallest = subset_sum_p(values, chosen, grid=int(max(values) - min(values)))  # steps of 1: exact
        assert p == pytest.approx(exact) and smallest == pytest.approx(sums.count(max(sums)) / len(sums))


def _hypergeometric_tail(ones: int, n: int, k: int, hits: int) -> float:
    """The share of the C(n, k) subsets of n values, ``ones`` of them 1 and the rest 0, that hold
    ``hits`` or more of the ones (a hypergeometric upper tail, in exact integers)."""
    return sum(math.comb(ones, j) * math.comb(n - ones, k - j) for j in range(hits, min(ones, k) + 1)) / math.comb(n, k)


def test_subset_sum_p_on_a_seat_too_long_for_the_table_is_a_valid_bound() -> None:
    """A seat of 3,000 trades, 1,500 of them with one partner: C(3000, 1500) is about 10^901 subsets,
    more than a float counts, and the table would be billions of cells.  The values are 0 or 1, so
    the exact share is a hypergeometric tail; the bound is at or above it (a valid p-value) and
    still says how unusual: all 300 ones with the partner is about 2^-300 by chance, and the bound
    from the 1,500 not chosen (none of them a one: at most 0.9^1500 when drawn with replacement) is
    about 10^-69."""
    n, k, ones = 3000, 1500, 300
    values = [1.0] * ones + [0.0] * (n - ones)
    chosen = [True] * k + [False] * (n - k)  # every 1 chosen
    p, smallest = subset_sum_p(values, chosen)
    exact = _hypergeometric_tail(ones, n, k, ones)
    assert exact <= p == pytest.approx(0.9 ** 1500, rel=1e-6) and smallest == p  # the largest sum is the one observed
    # 160 of the 300 ones with the partner, where 150 are expected: nothing unusual, and the bound knows
    half = [True] * 160 + [False] * 140 + [True] * (k - 160) + [False] * (n - ones - (k - 160))
    p_half, _ = subset_sum_p(values, half)
    assert _hypergeometric_tail(ones, n, k, 160) <= p_half <= 1.0 and p_half > 0.3
    # 2,900 chosen, every one among them: the 100 left are all zeros, at most 0.9^100 by chance
    most = [True] * 2900 + [False] * 100
    assert _hypergeometric_tail(ones, n, 2900, ones) <= subset_sum_p(values, most)[0] <= 0.9 ** 100 * (1 + 1e-9)


def test_binom_cdf_small_tail() -> None:
    assert binom_cdf(0, 10, 0.5) == pytest.approx(2 ** -10)
    assert binom_cdf(0, 30, 0.7) == pytest.approx(0.3 ** 30, rel=1e-9)  # no cancellation in the tiny tail
    assert binom_cdf(3, 3, 0.2) == 1.0


# -- the round-trip null -----------------------------------------------------------------------


def test_the_round_trip_rate_is_read_from_pairs_sharing_no_seat() -> None:
    seats = np.array([[0, 1], [2, 3], [4, 5]])
    trips, possible, exchanges = np.array([0, 0, 2]), np.array([2, 2, 2]), np.array([4, 4, 4])
    rate, strength = pair_nulls(trips, possible, exchanges, seats)
    # pair 2 against pairs 0 and 1: no trip of 4 possible, plus the prior pair (one trial at one half), all at
    # one volume: (0 + 1/2) / (4 + 1) = 0.1.  Their spread: (0 - 2 x 0.1)^2 / (2 x 0.1 x 0.9) - 1 = -7/9 each,
    # over one trip of room each, with 20 trips' worth of the prior 1/9: (-14/9 + 20/9) / 22 < 1/9: strength 8
    assert rate[2] == pytest.approx(0.1) and strength[2] == pytest.approx(8.0)
    # pair 0 against pairs 1 and 2: 2 trips of 4, plus the prior: (2 + 1/2) / (4 + 1) = 0.5; each of them
    # (0 or 2 of 2 against 1) is 1 above binomial, one trip of room: (1 + 1 + 20/9) / (2 + 20) = 19/99
    assert rate[0] == pytest.approx(0.5)
    assert strength[0] == pytest.approx(1 / (19 / 99) - 1)


def test_busier_pairs_find_more_mirrors_by_chance() -> None:
    # four pairs at 4 exchanges with no trip, four at 16 with 4 of 8: a pair at 16 is read against the curve
    seats = np.array([[2 * i, 2 * i + 1] for i in range(9)])
    trips = np.array([0, 0, 0, 0, 4, 4, 4, 4, 8])
    possible = np.array([2, 2, 2, 2, 8, 8, 8, 8, 8])
    exchanges = np.array([4, 4, 4, 4, 16, 16, 16, 16, 16])
    rate, _strength = pair_nulls(trips, possible, exchanges, seats)
    assert rate[8] > 0.4 and rate[0] < 0.2  # the yardstick grows with volume


def test_the_round_trip_rate_follows_volume_exactly_where_the_curve_fits() -> None:
    # three pairs at 4 exchanges (2 trips possible) made 0, 1 and 2 round trips: 3 of 6, a rate of 1/2; three at
    # 16 (8 possible) made 0, 4 and 8: 12 of 24, 1/2 too.  Pair 6 (32 exchanges) is read from the six: the rate is
    # one half at both volumes, where the prior pair sits at their median volume (log 8) and where the slope's
    # prior pulls (flat): logit r = 0 zeroes every part of the likelihood's gradient, so it is the fit, and a
    # pair at 32 exchanges is read at 1/2.  (Under the prior of screens config 2.9, whose slope was pulled
    # towards 1, the busier pair would have been read at a higher rate than the match's pairs show.)
    seats = np.array([[2 * i, 2 * i + 1] for i in range(7)])
    trips, possible = np.array([0, 1, 2, 0, 4, 8, 3]), np.array([2, 2, 2, 8, 8, 8, 16])
    rate, strength = pair_nulls(trips, possible, np.array([4, 4, 4, 16, 16, 16, 32]), seats)
    assert rate[6] == pytest.approx(0.5, rel=1e-9)
    # the spread: (t - m r)^2 / (m r (1 - r)) - 1 per pair, at most m - 1.  At 4 (m r (1 - r) = 1/2): 1 for no
    # trip, -1 for one, 1 for two.  At 16 (2, mean 4): no trip 16/2 - 1 = 7, 4 trips -1, 8 trips 7.  In all 14,
    # over the room of 3 x 1 + 3 x 7 = 24 trips, with 20 trips' worth of the prior 1/9:
    # rho = (14 + 20/9) / (24 + 20) = 73/198, strength 198/73 - 1 = 125/73
    assert strength[6] == pytest.approx(125 / 73, rel=1e-9)


def test_the_round_trip_rate_of_one_parcel_is_not_assumed_to_grow_with_volume() -> None:
    # four pairs, all at 4 exchanges, none made a round trip: nothing says how the rate changes with volume, and
    # the prior does not assume it grows (a pair's round trips of one parcel and the trips it could make both
    # grow with its exchanges): a pair at 64 exchanges is read at the rate at 4, (0 + 1/2) / (4 x 2 + 1) = 1/18
    seats = np.array([[2 * i, 2 * i + 1] for i in range(5)])
    rate, _strength = pair_nulls(np.array([0, 0, 0, 0, 10]), np.array([2, 2, 2, 2, 32]),
                                 np.array([4, 4, 4, 4, 64]), seats)
    assert rate[4] == pytest.approx(1 / 18, rel=1e-9)


def test_a_ring_is_one_hypothesis_that_pays_for_its_search() -> None:
    g = nx.MultiDiGraph()
    for i in range(4):  # four pairs of outsiders, four fair trades each, none undone
        for _ in range(4):
            trade(g, f"x{2 * i}", f"x{2 * i + 1}", 100 + i, {"wood": 6.0}, {"food": 6.0})
    for _ in range(2):  # twice: wood for stone round a -> b -> c, then every trade undone, last first
        for u, v in (("a", "b"), ("b", "c"), ("c", "a"), ("a", "c"), ("c", "b"), ("b", "a")):
            trade(g, u, v, 0, {"wood": 6.0}, {"stone": 6.0})
    [flag] = round_trip_rings(TransferView(g), load_config().screens["ring"])[0]
    assert (flag.kind, flag.agents) == ("wash_ring", ("a", "b", "c"))
    # each ring pair: 4 exchanges, both possible round trips made.  Its yardstick is the four outside pairs (all
    # at its volume): no trip of 8 possible, plus the prior pair at one half: r = (0 + 1/2) / (8 + 1) = 1/18; their
    # spread below the prior's (each (0 - 2/18)^2 / (2 x 1/18 x 17/18) - 1 = -15/17): strength 8, a Beta(4/9,
    # 68/9).  P(T >= 2) = (4/9)(13/9) / (8 x 9) = 13/1458.  Given the search (the first round trip of the
    # parcel put the pair there): its one further trip possible, made, at the match's repeat rate.  No outside
    # pair made a round trip, so none shows how often a parcel comes back a second time: the rate is the prior,
    # the round-trip rate at its volume, 1/18; one trial: P(R >= 1) = 1/18
    plain, given = 13 / 1458, 1 / 18
    assert flag.details["pairPValues"] == {k: pytest.approx(plain) for k in ("a~b", "b~c", "a~c")}
    assert flag.details["pairPValuesGivenSearch"] == {k: pytest.approx(given) for k in ("a~b", "b~c", "a~c")}
    # given the search: Fisher's product times the one cycle the search completed, over the best cycle and over
    # the whole ring (here the same three pairs), the smaller doubled
    assert flag.details["cyclesSearched"] == 1
    fisher = lambda p: p ** 3 * (1 - 3 * math.log(p) + (3 * math.log(p)) ** 2 / 2)  # noqa: E731
    assert flag.details["pGivenSearch"] == pytest.approx(fisher(given))
    assert flag.details["pWholeRing"] == pytest.approx(fisher(given))
    assert flag.p_value == pytest.approx(2 * fisher(given))


def test_a_ring_is_read_over_its_every_pair_too() -> None:
    g = nx.MultiDiGraph()
    for i in range(4):  # four pairs of outsiders, four fair trades each, none undone
        for _ in range(4):
            trade(g, f"x{2 * i}", f"x{2 * i + 1}", 100 + i, {"wood": 6.0}, {"food": 6.0})
    for _ in range(2):  # twice: wood for stone round a -> b -> c -> d and across a -> c, then every trade undone
        for u, v in (("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("a", "c")):
            trade(g, u, v, 0, {"wood": 6.0}, {"stone": 6.0})
        for u, v in (("a", "c"), ("d", "a"), ("c", "d"), ("b", "c"), ("a", "b")):
            trade(g, v, u, 0, {"wood": 6.0}, {"stone": 6.0})
    [flag] = round_trip_rings(TransferView(g), load_config().screens["ring"])[0]
    assert flag.agents == ("a", "b", "c", "d")
    # five pairs, each 2 round trips of 2 possible; given the search each is worth 1/18 (the repeat rate's prior,
    # as in the ring that pays for its search above).  The search completed three cycles (a-b-c, a-c-d and
    # a-b-c-d).  The best cycle is the four-seat one: Fisher's product of four 1/18, times 3; the whole ring,
    # its five pairs: Fisher's product of five, times 3, smaller; doubled
    assert flag.details["cyclesSearched"] == 3
    assert flag.details["pairPValuesGivenSearch"] == {k: pytest.approx(1 / 18) for k in ("a~b", "b~c", "c~d", "a~d")}

    def fisher(p: float, k: int) -> float:
        x = -k * math.log(p)
        return p ** k * sum(x ** j / math.factorial(j) for j in range(k))

    assert flag.details["pGivenSearch"] == pytest.approx(3 * fisher(1 / 18, 4))
    assert flag.details["pWholeRing"] == pytest.approx(3 * fisher(1 / 18, 5))
    assert flag.p_value == pytest.approx(6 * fisher(1 / 18, 5))
    assert flag.p_value < 2 * flag.details["pGivenSearch"]


def test_the_round_trip_count_is_of_one_parcel() -> None:
    g = nx.MultiDiGraph()
    # a and b buy back three times, other goods each time; c and d swap wood for stone and back three times
    for give, get in (({"wood": 6.0}, {"food": 6.0}), ({"stone": 6.0}, {"fiber": 6.0}), ({"ore": 6.0}, {"plank": 6.0})):
        trade(g, "a", "b", 0, give, get)
        trade(g, "a", "b", 1, get, give)
        trade(g, "c", "d", 0, {"wood": 6.0}, {"stone": 6.0})
        trade(g, "c", "d", 1, {"stone": 6.0}, {"wood": 6.0})
    view = TransferView(g)
    assert len(pair_trips(view, view.pair("a", "b"), 1.5)) == 3  # three mirror round trips each
    assert len(pair_trips(view, view.pair("c", "d"), 1.5)) == 3
    # of one parcel: the honest pair's buy-backs are three parcels, one each; the wash pair's one parcel, three times
    assert round_trip_counts(view, view.pair("a", "b"), 1.5) == (1, 6)
    assert round_trip_counts(view, view.pair("c", "d"), 1.5) == (3, 6)


def test_the_repeat_rate_is_read_from_the_outside_pairs_that_made_a_round_trip() -> None:
    # rows read pairs 0-3: pair 0 made 1 round trip of 3 possible (2 further possible, none made), pair 1 made 3
    # of 4 (2 further of 3), pair 2 none (not counted), pair 3 is the row's own and left out: (0 + 2 + 4 x 0.25)
    # / (2 + 3 + 4) = 1/3; the second row keeps only pair 2, which made none: the prior, 0.1
    keep = np.array([[True, True, True, False], [False, False, True, False]])
    rates = repeat_rates(np.array([1, 3, 0, 5]), np.array([3, 4, 2, 5]), keep, np.array([0.25, 0.1]))
    assert rates[0] == pytest.approx(1 / 3) and rates[1] == pytest.approx(0.1)


def test_a_ring_whose_washing_interleaves_is_found_and_said_so() -> None:
    g = nx.MultiDiGraph()
    for i in range(4):  # four pairs of outsiders, four fair trades each, none undone
        for _ in range(4):
            trade(g, f"x{2 * i}", f"x{2 * i + 1}", 100 + i, {"wood": 6.0}, {"food": 6.0})
    # wood for stone on a~b, then b~c, then c~a, each undone at once, twice over: no tick has every pair's
    # parcel out, but from tick 4 (c~a's first) to tick 11 (a~b's last return) every pair is washing
    for lap in range(2):
        for k, (u, v) in enumerate((("a", "b"), ("b", "c"), ("c", "a"))):
            trade(g, u, v, 10 * lap + 2 * k, {"wood": 6.0}, {"stone": 6.0})
            trade(g, u, v, 10 * lap + 2 * k + 1, {"stone": 6.0}, {"wood": 6.0})
    [flag] = round_trip_rings(TransferView(g), load_config().screens["ring"])[0]
    assert (flag.kind, flag.agents) == ("wash_ring", ("a", "b", "c"))
    assert flag.details["allUnderWayAtTick"] is None and flag.details["washingInterleavedAtTick"] == 4.0
    assert "every pair washing it at tick 4 (between its first round trip and its last)" in flag.explanation
    # each pair: 2 round trips of 2 possible.  Given the search, its one further trip possible, made, at the repeat
    # rate: no outside pair made a round trip, so the prior, the round-trip rate at its volume, 1/18 (as in the
    # ring that pays for its search above); the search completed the one cycle
    assert flag.details["pairPValuesGivenSearch"] == {k: pytest.approx(1 / 18) for k in ("a~b", "b~c", "a~c")}
    assert flag.details["cyclesSearched"] == 1


def test_buy_backs_at_different_times_are_still_no_ring() -> None:
    g = nx.MultiDiGraph()
    for k, (u, v) in enumerate((("a", "b"), ("b", "c"), ("c", "a"))):  # each pair once, one after the other
        trade(g, u, v, 2 * k, {"wood": 6.0}, {"stone": 6.0})
        trade(g, u, v, 2 * k + 1, {"stone": 6.0}, {"wood": 6.0})
    assert round_trip_rings(TransferView(g), load_config().screens["ring"])[0] == []


# -- off-price --------------------------------------------------------------------------------


def test_a_seller_everyone_overpays_is_not_one_payers_beneficiary() -> None:
    g = nx.MultiDiGraph()
    t = itertools.count()
    trade(g, "x", "y", next(t), {"tool": 12.0}, {"wood": 12.0})  # one tool is worth 12 in this match
    for _ in range(8):  # s sells what everyone lacks: p, q and r each pay two tools for its one fiber
        for buyer in ("p", "q", "r"):
            trade(g, buyer, "s", next(t), {"tool": 24.0}, {"fiber": 2.0})
            trade(g, buyer, "x", next(t), {"wood": 6.0}, {"food": 6.0})
    # as shipped, the posted-price rule raises none of the three pairs (s sold fiber on the same terms to the
    # other two, eight times each); the beneficiary's null, read with the rule off, explains them too
    assert off_price(TransferView(g), load_config().screens["off_price"])[0] == []
    rule_off = load_config({"screens": {"off_price": {"posted_price_sales": 0}}}).screens["off_price"]
    found = {c.flag.agents: c.flag for c in off_price(TransferView(g), rule_off)[0]}
    # each payer's eight trades with s carry all its excess (10 beyond one tool each): 1 of C(16, 8) = 12,870,
    # or read as a rate (the 17 trades of neither p nor s have no excess: 0.5 / 35, with the weight of two
    # trades; p's 8 others none) all eight: far less; the smaller, doubled
    m = 0.5 / 35
    flag = found[("s", "p")]
    payer_rate = math.prod((2 * m + i) / (10 + i) for i in range(8))
    assert flag.details["pPayer"] == pytest.approx(2 * min(1 / math.comb(16, 8), payer_rate))
    # but s got the same from all three: p's eight among s's 24 trades carry no more than any eight (1), and as
    # a rate, s got excess in all 16 of its other trades: Beta(2m + 16, 2 - 2m), all eight about 0.4
    beneficiary_rate = math.prod((2 * m + 16 + i) / (18 + i) for i in range(8))
    assert flag.details["pBeneficiary"] == flag.p_value == pytest.approx(min(1.0, 2 * beneficiary_rate))
    assert flag.p_value > 0.5
    assert screen_graph(g).verdict == "clear"


# -- thrown fights ----------------------------------------------------------------------------


def test_a_victim_that_never_answers_where_victims_do() -> None:
    g = nx.MultiDiGraph()
    for i in range(4):  # a raids b four times, and b answers two of them: the match's victims answer half
        g.add_edge("b", "a", value=3.0, tick=i, event=f"r{i}", kind="raid")
    for i in range(2):
        g.add_edge("a", "b", value=3.0, tick=10 + i, event=f"s{i}", kind="raid")
    for i in range(3):  # x raids v three times; v never answers, and trades with it
        g.add_edge("v", "x", value=20.0, tick=20 + 5 * i, event=f"x{i}", kind="raid")
    g.add_edge("v", "x", value=4.0, tick=22, event="t1", exchange="t1", goods={"wood": 4.0})
    g.add_edge("x", "v", value=4.0, tick=22, event="t1", exchange="t1", goods={"food": 4.0})
    params = {"min_value": 1.0, "max_retaliation": 0, "min_cooperation": 1, "min_together_ratio": 6.0}
    [found] = [c.flag for c in thrown_fight(TransferView(g), params)[0] if c.flag.agents == ("x", "v")]
    # v was raided by nobody else: its answer rate is the rest of the match's, with nothing of its own to
    # weigh: b answered 2 of a's 4 raids, and a answered both of b's 2 (an answer is an act back, counted at
    # most as many as received): 4 of 6, with half an answer in one act of prior, 4.5 / 7.  Its chance of
    # answering is no surer than five acts of that: Beta(5 x 4.5 / 7, 5 x 2.5 / 7), and none of three answered
    # is the product of (beta + i) / (5 + i) for i < 3 (beta-binomial)
    assert found.details["answerRate"] == pytest.approx(4.5 / 7, abs=1e-4)
    beta = 5 * 2.5 / 7
    silence = beta * (beta + 1) * (beta + 2) / (5 * 6 * 7)
    assert found.details["pSilence"] == pytest.approx(silence, rel=1e-9)
    # the count: no co-location, so exposure is partners dealt with (a, b, x and v one each, 2 pairs). x hit
    # nobody else (0 acts in 0 exposure): its rate is the rest of the match's, a's 4 and b's 2 raids plus half
    # an act over the other pair plus the weight of one, (6 + 0.5) / (1 + 1) = 3.25 acts for v; three
    # aggressors over three aggressor-victim pairs leave no degree of freedom for a spread: Poisson
    assert found.details["expectedActs"] == 3.25
    p_count = 1 - math.exp(-3.25) * (1 + 3.25 + 3.25 ** 2 / 2)  # 3 or more of a Poisson(3.25): 0.6304
    assert found.details["pConcentration"] == pytest.approx(p_count, rel=1e-12)
    t = p_count * silence
    assert found.p_value == pytest.approx(t * (1 - math.log(t)), rel=1e-9)  # Fisher's product of the two


# -- reading plain payments -------------------------------------------------------------------


def test_plain_payments_never_build_the_per_pair_structures() -> None:
    g = nx.MultiDiGraph()
    for i in range(30):
        g.add_edge(f"p{i % 7}", f"q{i % 5}", value=10.0 + i, tick=i, event=i)
    view = TransferView(g)
    result = screen_view(view, load_config())
    assert view._exchanges is None  # no exchange screen ran, so nothing asked for pairs
    assert view.voluntary == 30 and not view.described
    assert any("plain payments" in n for n in result.not_screened)
    # asked for, the pairs are what the edges make: each payment its own exchange
    assert len(view.exchanges) == 30 and view.pair("p0", "q0").gave == {"p0": 10.0, "q0": 0.0}


def test_a_bad_edge_is_named_in_the_first_pass() -> None:
    g = nx.MultiDiGraph()
    g.add_edge("a", "b", value=1.0, tick=float("nan"), event=1)
    with pytest.raises(ScreenInputError, match="'a' -> 'b': 'tick' must be a finite number"):
        TransferView(g)
    g = nx.MultiDiGraph()
    g.add_edge("a", "b", value=1.0, tick=1)
    with pytest.raises(ScreenInputError, match="has no 'event'"):
        TransferView(g)


def test_a_posted_price_is_three_sales_to_another_seat_on_such_terms() -> None:
    """The off-price screen's posted-price rule: p pays s two tools for one fiber eight times (one tool beyond
    the one that buys it); s sells q fiber so twice, then a third time.  Two such sales to another seat are no
    price of s's: the pair is raised; three are: it is not."""
    def match(sales_to_q: int) -> nx.MultiDiGraph:
        g = nx.MultiDiGraph()
        t = itertools.count()
        trade(g, "x", "y", next(t), {"tool": 12.0}, {"wood": 12.0})  # one tool is worth 12 in this match
        for _ in range(8):
            trade(g, "p", "s", next(t), {"tool": 24.0}, {"fiber": 2.0})
            for seat in ("p", "s", "q"):
                trade(g, seat, "x", next(t), {"wood": 6.0}, {"food": 6.0})
        for _ in range(sales_to_q):
            trade(g, "q", "s", next(t), {"tool": 24.0}, {"fiber": 2.0})
        return g

    params = load_config().screens["off_price"]
    assert [c.flag.agents for c in off_price(TransferView(match(2)), params)[0]] == [("s", "p")]
    assert off_price(TransferView(match(3)), params)[0] == []
