"""The collusion screens as graph functions, on tiny hand-built transfer graphs.

Every graph here is a plain ``networkx.MultiDiGraph`` of transfers (conventions in
``daishi_forensics.screens.graph``); nothing Daishi-specific.  Exact numbers are
asserted; the honest cases of issue 4 (frequent fair traders, a strong player
everyone sells to, a lopsided but fair trade, a shared region, rivals) come out clear.
"""

from __future__ import annotations

import itertools
import math
import re
from typing import Any

import networkx as nx
import numpy as np
import pytest
from daishi_forensics.screens import (
    SCREENS,
    ConfigError,
    ScreenInputError,
    TransferView,
    default_config,
    load_config,
    net_transfer_graph,
    screen_graph,
)
from daishi_forensics.screens.flags import Flag, verdict_of
from daishi_forensics.screens.off_price import off_price
from daishi_forensics.screens.wash_ring import round_trip_rings

_ids = itertools.count(1)


def trade(g: nx.MultiDiGraph, a: str, b: str, tick: int, give: dict[str, float], get: dict[str, float]) -> int:
    """``a`` gives goods ``give`` (values) to ``b`` and gets ``get`` back: one exchange, one event id."""
    eid = next(_ids)
    if give:
        g.add_edge(a, b, value=sum(give.values()), tick=tick, event=eid, exchange=eid, goods=give)
    if get:
        g.add_edge(b, a, value=sum(get.values()), tick=tick, event=eid, exchange=eid, goods=get)
    return eid


def gift(g: nx.MultiDiGraph, a: str, b: str, tick: int, value: float, good: str = "wood") -> int:
    return trade(g, a, b, tick, {good: value}, {})


def take(g: nx.MultiDiGraph, victim: str, aggressor: str, tick: int, value: float, kind: str = "raid",
         present: tuple[str, ...] | None = None) -> int:
    eid = next(_ids)
    attrs: dict[str, Any] = {"value": value, "tick": tick, "event": eid, "kind": kind}
    if present is not None:
        attrs["present"] = present
    g.add_edge(victim, aggressor, **attrs)
    return eid


def all_of(k: int, alpha: float, strength: float) -> float:
    """The beta-binomial chance that all of ``k`` trials succeed, the chance drawn from a Beta with
    ``alpha`` and ``alpha + beta = strength``: the product of ``(alpha + i) / (strength + i)``."""
    return math.prod((alpha + i) / (strength + i) for i in range(k))


def honest_market(g: nx.MultiDiGraph, agents: list[str], rounds: int = 3, start: int = 0) -> None:
    """Fair trades of different goods between every pair: the busy honest economy."""
    tick = start
    for _ in range(rounds):
        for x, y in itertools.combinations(agents, 2):
            trade(g, x, y, tick, {"wood": 6.0}, {"food": 6.0})
            tick += 1


def yardstick(g: nx.MultiDiGraph, start: int = 500) -> None:
    """Honest play beside what a test plants: four outsiders trading fairly, two rounds a pair (each
    pair two exchanges, none undone), so the round-trip tests have the match's other pairs to
    compare with (a graph of one pair has no honest play to weigh it against)."""
    honest_market(g, ["x1", "x2", "x3", "x4"], rounds=2, start=start)


def busy_yardstick(g: nx.MultiDiGraph, start: int = 500) -> None:
    """Honest play of some volume beside what a test plants: four outsiders trading fairly, six rounds
    a pair (each pair six exchanges, none undone).  The round-trip null reads the rate at a pair's
    volume from the pairs sharing none of its seats: with only two exchanges a pair, a busy pair's
    rate is an extrapolation (the prior's slope), so a test of a busy pair needs busy honest pairs."""
    honest_market(g, ["x1", "x2", "x3", "x4"], rounds=6, start=start)


def ring_rule(g: nx.MultiDiGraph) -> list[Flag]:
    """What the round-trip ring rule finds (its candidates, before any test decides)."""
    return round_trip_rings(TransferView(g), load_config().screens["ring"])[0]


def flags_of(g: nx.MultiDiGraph, screen: str | None = None, **config: Any) -> list[Flag]:
    result = screen_graph(g, config or None)
    return [f for f in result.flags if screen is None or f.screen == screen]


# -- feeder --------------------------------------------------------------------------------


def test_feeder_hub_and_spoke_exact() -> None:
    g = nx.MultiDiGraph()
    honest_market(g, ["h", "x", "y"], rounds=2)  # typical exchange: 6
    evidence = [gift(g, s, "h", 10 + i, 12.0) for i, s in enumerate(["s1"] * 12 + ["s2"] * 12 + ["s3"])]
    result = screen_graph(g)
    [flag] = [f for f in result.flags if f.screen == "feeder"]
    assert flag.kind == "hub_and_spoke" and flag.level == "flag"
    assert flag.agents == ("h", "s1", "s2")  # beneficiary first, then spokes by value; s3 gave once: no spoke
    assert flag.pairs == (("h", "s1"), ("h", "s2"))
    assert flag.score == pytest.approx(288.0 / 6.0)
    assert flag.evidence == tuple(evidence[:24])
    assert flag.details["typicalExchangeValue"] == 6.0
    # twelve gifts of one size, all one way: 2 of the 2^12 sign patterns are as far from even
    assert flag.p_value == 2 / 4096
    # the screens sharing the Daishi screens' 0.018 (Tarone's rule on each screen's most testable test): the
    # feeder (the spokes' sign-flip tests, smallest p 2/4096) and the ring (h~s1 and h~s2, six trips possible
    # each, weighed against x~y with no trip of one possible and the prior pair at one half: a rate of
    # (0 + 1/2) / (1 + 1) = 1/4, at any volume since one volume says nothing of the slope and its prior is flat;
    # smallest p, all six under a Beta(2, 6), (2 x 3 x ... x 7) / (8 x 9 x ... x 13) = 0.0041): both at most
    # 0.018 / 2; the pair outliers' smallest, 1/6, cannot be.  x~y, against h~s1 and h~s2 (none of 12 possible):
    # a rate of 1/26, its smallest p too large; h~x and h~y have no pair sharing neither seat (their yardstick
    # the prior alone, one half: smallest p 0.5); s3's single gift (smallest p 1).  The feeder's pooled test at h
    # (rule 5, over gifts: s1, s2 and s3 each make all their gifts to h, so all three are bound to it; 25 gifts
    # its way, 2/2^25) is the feeder's third.  Each screen at 0.009: the feeder's Holm over its three, the hub's
    # first (3 x 2/2^25), then its two spokes, 2 x 2/4096, times the 2 screens sharing; the ring's family h~s1,
    # h~s2.  The pooled test names s1 and s2 (s3 gave once), whom rule 4's flag already names.
    assert (flag.tests, flag.p_adjusted) == (5, 8 / 4096)
    assert result.testing["family"] == 5 and result.testing["screensSharing"] == 2 and "sign" in (flag.null or "")
    assert "1 in 2,048" in flag.explanation and "1 in 512 counting the 5 tests here that could reach the alarm level" in flag.explanation
    assert "Pooled with" not in flag.explanation


def test_json_keeps_a_spokes_small_p_value() -> None:
    # 24 gifts one way from each spoke: a sign-flip p-value of 2 / 2^24 = 1.19209e-07 per spoke, which
    # six decimal places wrote as 0.0 in the flag's details (the flag's own pValue said 1.19209e-07)
    g = nx.MultiDiGraph()
    honest_market(g, ["h", "x", "y"], rounds=2)
    for i, s in enumerate(["s1"] * 24 + ["s2"] * 24):
        gift(g, s, "h", 10 + i, 12.0)
    [flag] = [f for f in screen_graph(g).flags if f.kind == "hub_and_spoke"]
    data = flag.to_dict()
    assert data["pValue"] == 1.19209e-07
    assert [s["pValue"] for s in data["details"]["spokes"]] == [1.19209e-07, 1.19209e-07]
    assert [s["pAdjusted"] for s in data["details"]["spokes"]] == [data["pAdjusted"]] * 2 != [0.0, 0.0]


def test_a_sign_flip_on_six_one_way_exchanges_is_two_in_sixty_four() -> None:
    g = nx.MultiDiGraph()
    honest_market(g, ["a", "b", "c"], rounds=2)
    for t in range(6):
        gift(g, "s", "h", 20 + t, 12.0)
    result = screen_graph(g)
    assert result.verdict == "clear"  # 2/64 cannot reach the false-alarm rate, whatever the family
    from daishi_forensics.screens.feeder import feed_test
    p, smallest, total, count = feed_test(TransferView(g), 0.6)[("h", "s")]
    assert (p, smallest, total, count) == (2 / 64, 2 / 64, -72.0, 6)


WHOLE_ITEMS_OFF = {"screens": {name: {"whole_items": False} for name in ("feeder", "operator", "season")}}
"""Every trade read at its values (the feeder before configuration 2.23.0)."""


def _buyer(tools: int) -> nx.MultiDiGraph:
    """p buys a fiber (1) from s twelve times, paying ``tools`` whole tools (12 each) every time, and trades fairly
    with x (6 for 6, twelve times); one tool is worth 12 in this match (x sold y one for 12 of wood: an item's value
    is read from the match, the largest all its lots are multiples of)."""
    g = nx.MultiDiGraph()
    honest_market(g, ["s", "x", "y"], rounds=2)
    trade(g, "x", "y", 5, {"tool": 12.0}, {"wood": 12.0})
    t = itertools.count(10)
    for _ in range(12):
        trade(g, "p", "s", next(t), {"tool": 12.0 * tools}, {"fiber": 1.0})
        trade(g, "p", "x", next(t), {"wood": 6.0}, {"food": 6.0})
    return g


def test_one_whole_item_for_a_cheap_good_is_no_gift() -> None:
    """A buyer whose spare goods are dear pays one whole tool for the one fiber it needs, from the one seat that has
    it, twelve times: whole items explain all of it (nothing beyond one tool), so none of the twelve is a one-sided
    exchange and the match is clear.  Read at its values (before 2.23.0) each was one (12 against 1), all one way:
    2 of the 2^12 sign patterns, and p handed s 132 net of the 216 it handed anyone, a lone feed for review."""
    from daishi_forensics.screens.feeder import one_sided_exchanges

    g = _buyer(1)
    assert ("p", "s") not in one_sided_exchanges(TransferView(g), 0.6, whole_items=True)
    assert screen_graph(g).verdict == "clear"
    [flag] = flags_of(g, None, **WHOLE_ITEMS_OFF)
    assert (flag.kind, flag.level, flag.agents, flag.p_value) == ("one_way_feed", "review", ("s", "p"), 2 / 4096)
    assert flag.details["giverShare"] == 132 / 216  # no off-price finding either way: whole items carry no excess


def test_a_lot_beyond_one_whole_item_is_still_a_feed() -> None:
    """Three tools for a fiber: 23 beyond one tool each time (36 - 1 - 12), read as 24 against 1, one-sided; twelve
    all one way are 2 in 4096 either way, and the lone feed is raised for review as before (the off-price screen
    raises the same excess, s getting it from p alone)."""
    from daishi_forensics.screens.feeder import one_sided_exchanges

    g = _buyer(3)
    rows = one_sided_exchanges(TransferView(g), 0.6, whole_items=True)[("p", "s")]
    assert [v for _x, v in rows] == [23.0] * 12
    for config in (None, WHOLE_ITEMS_OFF):
        [flag] = flags_of(g, "feeder", **(config or {}))
        assert (flag.kind, flag.level, flag.agents, flag.p_value) == ("one_way_feed", "review", ("s", "p"), 2 / 4096)


def test_a_feed_dressed_as_token_trades() -> None:
    g = nx.MultiDiGraph()
    honest_market(g, ["a", "b", "c"], rounds=2)
    trade(g, "b", "c", 5, {"tool": 12.0}, {"wood": 12.0})  # one tool is worth 12 in this match
    t = itertools.count(10)
    for _ in range(12):
        for s in ("s1", "s2"):
            trade(g, s, "h", next(t), {"tool": 24.0}, {"fiber": 1.0})  # two tools for one fiber: 11 beyond one tool
            trade(g, s, "a", next(t), {"wood": 6.0}, {"food": 6.0})  # and fair trade with a
    kinds = {(f.screen, f.kind) for f in flags_of(g)}
    assert ("feeder", "hub_and_spoke") in kinds
    # h is overpaid alike by both seats it trades with: to the off-price screen that is a seller everyone
    # overpays (the beneficiary's null: s1's twelve trades carry no more excess than s2's, p = 1), so the feed is
    # the feeder screen's finding, not an off-price one
    # (read with the posted-price rule off: h sold s2 fiber on the same terms twelve times, so as shipped the
    # off-price screen raises neither pair before any null is asked)
    assert off_price(TransferView(g), load_config().screens["off_price"])[0] == []
    rule_off = load_config({"screens": {"off_price": {"posted_price_sales": 0}}}).screens["off_price"]
    [found, _] = [c.flag for c in off_price(TransferView(g), rule_off)[0]]
    # read as a rate: h got excess in all 12 of its trades with s2, so its chance is Beta(2m + 12, 2 - 2m) with m
    # the rest of the match's rate (no excess in the 19 trades of neither s1 nor h: 0.5 / 39); all twelve with
    # s1 then have chance all_of(12, ...), about 0.26, doubled (the smaller of two readings)
    rate = all_of(12, 2 * 0.5 / 39 + 12, 14)
    assert found.agents == ("h", "s1")
    assert found.details["pBeneficiary"] == found.p_value == pytest.approx(2 * rate) and found.p_value > 0.5
    assert ("off_price", "off_price_trades") not in kinds


def test_strong_player_everyone_sells_to_at_fair_prices_is_clear() -> None:
    g = nx.MultiDiGraph()
    for i, seller in enumerate(["a", "b", "c", "d", "e"] * 4):
        trade(g, seller, "strong", i, {"wood": 10.0}, {"tool": 12.0 if i % 2 else 8.0})  # within haggling
    result = screen_graph(g)
    assert result.verdict == "clear" and result.flags == ()


def test_fair_trades_do_not_hide_a_feed() -> None:
    g = nx.MultiDiGraph()
    honest_market(g, ["a", "b", "c"], rounds=3)  # typical exchange: 6
    for i, s in enumerate(["s1", "s2"]):
        trade(g, s, "h", i, {"wood": 40.0}, {"food": 40.0})  # one big fair trade each ...
        for k in range(12):
            gift(g, s, "h", 10 + 12 * i + k, 12.0)  # ... and twelve gifts
    [flag] = flags_of(g, "feeder")
    assert flag.agents == ("h", "s1", "s2")
    assert flag.score == pytest.approx(288.0 / 6.0)
    assert [s["oneWayExchanges"] for s in flag.details["spokes"]] == [12, 12]
    assert flag.p_value == 2 / 4096  # the fair trade is not a one-sided exchange: it is not in the test


def test_lone_spoke_is_review_only() -> None:
    g = nx.MultiDiGraph()
    honest_market(g, ["a", "b", "c"], rounds=2)
    for t in range(14):
        gift(g, "s", "h", 20 + t, 12.0)
    [flag] = flags_of(g, "feeder")
    assert (flag.kind, flag.level, flag.agents) == ("one_way_feed", "review", ("h", "s"))
    assert flag.score == pytest.approx(168.0 / 6.0) and flag.p_value == 2 / 2 ** 14
    assert flag.p_adjusted is not None and flag.p_adjusted <= 0.005  # flag-level evidence, yet one feeder: review


def test_a_beggar_helped_by_many_is_clear() -> None:
    """A careless seat that starves and begs: twelve seats give it food once or twice each."""
    g = nx.MultiDiGraph()
    givers = [f"g{i:02d}" for i in range(12)]
    honest_market(g, givers[:6], rounds=1)
    for i, giver in enumerate(givers):
        for k in range(1 + i % 2):
            gift(g, giver, "beggar", 50 + 2 * i + k, 4.0, "food")
    assert screen_graph(g).verdict == "clear"


def test_a_feed_is_at_least_a_third_of_all_the_giver_handed_anyone() -> None:
    """The share floor (feeder rule 3): fourteen gifts of 12 one way, and fair trades with someone else.
    With 336 handed out in fair trades, the gifts are 168 of 504, a third exactly: a feed.  One more fair
    trade of 6 and they are 168 of 510: no feed, though the sign-flip test is the same."""
    from daishi_forensics.screens.feeder import feed_test, giver_share

    g = nx.MultiDiGraph()
    honest_market(g, ["a", "b", "c"], rounds=2)
    for t in range(14):
        gift(g, "s", "h", 20 + t, 12.0)
    for t in range(7):
        trade(g, "s", "a", 40 + t, {"wood": 48.0}, {"food": 48.0})
    view = TransferView(g)
    assert giver_share(view, "s", 168.0) == 1 / 3
    [flag] = flags_of(g, "feeder")
    assert (flag.kind, flag.agents, flag.p_value) == ("one_way_feed", ("h", "s"), 2 / 2 ** 14)
    assert flag.details["giverShare"] == 1 / 3 and "33% of all s handed anyone" in flag.explanation
    trade(g, "s", "a", 60, {"wood": 6.0}, {"food": 6.0})
    view = TransferView(g)
    assert giver_share(view, "s", 168.0) == 168.0 / 510.0
    assert feed_test(view, 0.6)[("h", "s")] == (2 / 2 ** 14, 2 / 2 ** 14, -168.0, 14)
    assert flags_of(g, "feeder") == []


def test_a_friend_who_keeps_a_beggar_fed_out_of_a_busy_trade_is_clear() -> None:
    """A seat gives its friend, a beggar, food twenty times and nothing comes back (a sign-flip p of
    2 / 2^20), while it trades fairly and much with three others: the food is 40 of the 400 it handed
    anyone, a tenth, so no feed."""
    g = nx.MultiDiGraph()
    honest_market(g, ["x", "y", "z"], rounds=2)
    for t in range(20):
        gift(g, "friend", "beggar", 10 + t, 2.0, "food")
    for t, other in enumerate(["x", "y", "z"] * 5):
        trade(g, "friend", other, 40 + t, {"wood": 24.0}, {"stone": 24.0})
    from daishi_forensics.screens.feeder import giver_share

    assert giver_share(TransferView(g), "friend", 40.0) == 0.1
    assert flags_of(g, "feeder") == [] and screen_graph(g).verdict == "clear"


def test_two_seats_short_of_food_that_give_each_other_food_are_no_wash_pair() -> None:
    """Eight gifts of 6 food, back and forth: each is a gift (goods one way), which pays no reputation and
    mirrors nothing (rubric 2.4, circular reputation), so no round trip.  The same goods sent as trades (food
    for wood, then wood for food) are a wash pair."""
    from daishi_forensics.screens.mirrors import mirrored_trips

    def pair_graph(as_trades: bool) -> nx.MultiDiGraph:
        g = nx.MultiDiGraph()
        yardstick(g)
        for t in range(8):
            giver, taker = ("p", "q") if t % 2 == 0 else ("q", "p")
            if as_trades:  # the giver sends the food for wood; the next trade sends both back
                trade(g, giver, taker, 10 + t, {"food": 6.0}, {"wood": 6.0})
            else:
                gift(g, giver, taker, 10 + t, 6.0, "food")
        return g

    gifts = pair_graph(False)
    assert mirrored_trips(TransferView(gifts).pair("p", "q").exchanges, 1.5) == []
    assert not [f for f in flags_of(gifts, "ring") if f.kind == "wash_pair"]
    trades = pair_graph(True)
    assert len(mirrored_trips(TransferView(trades).pair("p", "q").exchanges, 1.5)) == 4
    assert [f.agents for f in flags_of(trades, "ring") if f.kind == "wash_pair"] == [("p", "q")]


def test_whole_items_paid_both_ways_between_friends_are_clear() -> None:
    """Two friends trade often; each, short of a cheap good, pays a whole tool for one wood, in both
    directions: off-price trades, but no side is favoured and nobody else is involved."""
    g = nx.MultiDiGraph()
    honest_market(g, ["a", "b", "c", "d"], rounds=2)
    for t in range(16):
        payer, other = ("a", "b") if t % 2 else ("b", "a")
        trade(g, payer, other, 100 + t, {"tool": 12.0}, {"wood": 2.0})
        trade(g, "a", "b", 200 + t, {"fiber": 6.0}, {"food": 6.0})
    assert screen_graph(g).verdict == "clear"


def test_probe_seats_are_exempt() -> None:
    g = nx.MultiDiGraph()
    g.add_node("probe", role="probe")
    honest_market(g, ["a", "b", "c"], rounds=1)
    for i, s in enumerate(["a", "a", "b", "b", "c", "c"]):
        gift(g, s, "probe", 10 + i, 12.0)
    assert flags_of(g) == []


# -- ring ----------------------------------------------------------------------------------


def ring_graph(nodes: list[str], laps: int = 3) -> nx.MultiDiGraph:
    """Wood goes round ``nodes`` ``laps`` times (gifts), in order."""
    g = nx.MultiDiGraph()
    tick = 0
    for _ in range(laps):
        for i, u in enumerate(nodes):
            gift(g, u, nodes[(i + 1) % len(nodes)], tick, 6.0)
            tick += 1
    return g


def test_wash_cycle_exact() -> None:
    g = ring_graph(["a", "b", "c"])
    [flag] = flags_of(g, "ring")
    assert (flag.kind, flag.agents, flag.score, flag.threshold) == ("wash_cycle", ("a", "b", "c"), 3.0, 3.0)
    assert flag.pairs == (("a", "b"), ("a", "c"), ("b", "c"))
    assert len(flag.evidence) == 9
    assert flag.details["pairNetShare"] == {"a~b": 1.0, "b~c": 1.0, "a~c": 1.0}  # each pair looks one-way
    assert flag.explanation.startswith("Goods went around a -> b -> c -> a 3 times and came back where they started, "
                                       "each seat passing them on between one arrival and the next (in step: p 0.004)")


OUT_OF_STEP = {("a", "b"): (0, 20, 22, 60, 64), ("b", "c"): (10, 12, 50, 70, 72), ("c", "a"): (15, 30, 55, 75, 76)}
"""Wood round a -> b -> c in four time-ordered laps (0, 10, 15; 20, 50, 55; 22, 70, 75; 60, 72, 76), the members'
arrivals and pass-ons not alternating: b ``in out out in in out in in out out``, c ``in in out out in out in in
out out``, a ``out in out out in in out out in in``: 6 runs each, 18 of a most of 30."""


def _out_of_step() -> nx.MultiDiGraph:
    """The gifts of :data:`OUT_OF_STEP`, wood worth 6 each."""
    g = nx.MultiDiGraph()
    for (u, v), ticks in OUT_OF_STEP.items():
        for t in ticks:
            gift(g, u, v, t, 6.0)
    return g


def test_a_cycle_passed_on_out_of_step_is_no_wash_cycle() -> None:
    """Four laps of wood, every transfer the cycle's way (the coin: 2 x 2^-15), but the members' arrivals and
    pass-ons do not alternate: not unusual against their order shuffled (p 1154 / 2001), so no wash cycle, no
    flag; with the rule off (1), the cycle is raised on the coin as before 2.21.0.  Passed on one tick after each
    arrival (three laps), it is in step: every member ``in out in out in out`` (a: ``out in ...``), 6 runs each,
    18 in all, the most any order can make, which 7 of the 2,000 shuffles of the nine transfers reach too:
    p = 8 / 2001."""
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.wash_cycle import in_step, wash_cycles

    g = _out_of_step()
    legs = {e: [(t,) for t in ticks] for e, ticks in OUT_OF_STEP.items()}
    p, n = in_step(("a", "b", "c"), legs)
    assert (n, p) == (15, 1154 / 2001)
    params = {**WASH_PARAMS, "wash_cycle_lean": False, "wash_cycle_in_step": 0.05}
    assert wash_cycles(TransferView(g), params)[0] == []
    [flag], _ = wash_cycles(TransferView(g), {**params, "wash_cycle_in_step": 1.0})
    assert flag.agents == ("a", "b", "c") and flag.details["inStep"] == {"p": p, "transfers": 15}
    assert "in step" not in flag.explanation  # raised with the rule off, and not in step: not said to be
    assert flag.p_value == pytest.approx(2 * 0.5 ** 15, rel=1e-12)  # all 15 transfers the cycle's way: the coin
    [flag] = flags_of(ring_graph(["a", "b", "c"]), "ring")
    assert flag.details["inStep"] == {"p": 8 / 2001, "transfers": 9}


def test_a_wash_cycle_in_step_is_tested_on_its_direction_and_its_order() -> None:
    """Three laps of wood round a -> b -> c, each passed on a tick after it arrives: the direction alone is the
    coin's 2 x 2^-9 (with the rule off, as before 2.22.0); with the rule on at 0.05, the order's p-value 8 / 2001
    read within the level, 0.07996, and Fisher's product of the two, t (1 - ln t) with t = 2^-8 x 0.07996:
    0.0028334 (one cycle met); the null says so."""
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.wash_cycle import CYCLE_NULL, ORDER_NULL, wash_cycles

    params = {**WASH_PARAMS, "wash_cycle_lean": False}
    [off], _ = wash_cycles(TransferView(ring_graph(["a", "b", "c"])), params)
    [on], _ = wash_cycles(TransferView(ring_graph(["a", "b", "c"])), {**params, "wash_cycle_in_step": 0.05})
    assert (off.p_value, off.null) == (2 * 2 ** -9, CYCLE_NULL)
    t = 2 ** -8 * (8 / 2001) / 0.05
    assert on.p_value == pytest.approx(t * (1 - math.log(t)), rel=1e-12) and round(on.p_value, 7) == 0.0028334
    assert on.null == CYCLE_NULL + ORDER_NULL
    u = 2 ** -8 * (1 / 2001) / 0.05  # the least: nine along, and the order at the simulation's floor
    assert on.details["minP"] == pytest.approx(u * (1 - math.log(u)), rel=1e-12)
    assert on.details["inStep"] == off.details["inStep"] == {"p": 8 / 2001, "transfers": 9}


def _every_order(each: int) -> np.ndarray:
    """Every order of three legs' transfers, ``each`` a leg (rows of leg labels 0, 1, 2)."""
    n = 3 * each
    rows = []
    for zeros in itertools.combinations(range(n), each):
        rest = [i for i in range(n) if i not in zeros]
        for ones in itertools.combinations(rest, each):
            row = np.full(n, 2, dtype=np.int16)
            row[list(zeros)] = 0
            row[list(ones)] = 1
            rows.append(row)
    return np.array(rows)


def test_the_in_step_simulation_agrees_with_the_exact_null() -> None:
    """The shuffle's exact law, every order counted: of the 9! / (3!)^3 = 1,680 orders of three legs of three, the
    runs reach 18 (every member alternating) in 6, the six orders of the three legs repeated three times (012012012,
    021021021, ...): chance 1/280, so 2,000 draws expect 7.1 at the top; the seeded draws put 7 there (p = 8 /
    2001).  Of the 15! / (5!)^3 = 756,756 orders of three legs of five, 428,688 reach the out-of-step cycle's 18
    runs (0.5665); the simulated 1154 / 2001 lies within one standard error (0.011) of it."""
    from daishi_forensics.screens.wash_cycle import _runs

    small = _runs(_every_order(3), 3)
    assert (len(small), int((small >= 18).sum())) == (1680, 6)
    assert abs((8 / 2001) - 6 / 1680) < 3 * math.sqrt(6 / 1680 / 2000)
    large = _runs(_every_order(5), 3)
    assert (len(large), int((large >= 18).sum())) == (756756, 428688)
    exact = 428688 / 756756
    assert abs(1154 / 2001 - exact) < math.sqrt(exact * (1 - exact) / 2000)


def test_the_in_step_draws_come_in_pieces_and_stop_past_the_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """The null's draws made seven at a time are the draws made all at once (the same p-values); at a level, the
    draws stop once the p-value is past it whatever the rest, and return a lower bound above the level, while an
    in-step cycle reads every draw and gets the same p-value as with no level."""
    from daishi_forensics.screens import wash_cycle as W

    legs = {e: [(t,) for t in ticks] for e, ticks in OUT_OF_STEP.items()}
    step = {("a", "b"): [(0,), (3,), (6,)], ("b", "c"): [(1,), (4,), (7,)], ("c", "a"): [(2,), (5,), (8,)]}
    monkeypatch.setattr(W, "IN_STEP_ROWS", 7)
    assert W.in_step(("a", "b", "c"), legs) == (1154 / 2001, 15)
    assert W.in_step(("a", "b", "c"), step, level=0.05) == W.in_step(("a", "b", "c"), step) == (8 / 2001, 9)
    p, _ = W.in_step(("a", "b", "c"), legs, level=0.05)
    above = round(p * 2001) - 1  # stopped after the piece whose draws took the count past 0.05 x 2001 - 1 = 99.05
    assert 0.05 < p and 100 <= above < 100 + 7 and above < 1153


def test_the_in_step_null_holds_on_independent_legs() -> None:
    """Legs timed each on its own (eight uniform random ticks each, a fixed seed): the in-step p-value is about
    uniform (the cycle's legs shuffled together, as one leg is a member's pass-ons and the next one's arrivals), so
    the rule keeps about its level's share of such cycles: 24 of 400 at 0.05 (0.06), within 2% to 10%.  Shuffling
    each member's order on its own kept 37 of 400 (3 to 12 ticks a leg), too many."""
    import random

    from daishi_forensics.screens.wash_cycle import in_step

    rng = random.Random(7)
    kept = 0
    for _ in range(400):
        legs = {e: [(t,) for t in sorted(rng.sample(range(300), 8))] for e in (("a", "b"), ("b", "c"), ("c", "a"))}
        kept += in_step(("a", "b", "c"), legs, draws=400)[0] <= 0.05
    assert 8 <= kept <= 40


def _triangles(second: str) -> nx.MultiDiGraph:
    """Wood round a -> b -> c three times; then stone round a -> ``second`` three times (a triangle)."""
    g = ring_graph(["a", "b", "c"])
    tick = 100
    for _ in range(3):
        for u, v in zip(second, second[1:] + second[0]):
            gift(g, u, v, tick, 6.0, good="stone")
            tick += 1
    return g


def test_cycles_sharing_one_seat_are_rings_of_their_own_and_cycles_sharing_a_pair_one_ring() -> None:
    """Two wash triangles sharing seat a only (wood round a, b, c; stone round a, x, y) are two rings, two flags,
    each its own test: nine transfers along, the coin's 2 x 2^-9, times the two cycles the search met.  Sharing
    the pair a, b (stone round a, b, y), they are one ring of four seats, its best cycle's test."""
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.wash_cycle import rings_of, wash_cycles

    params = {**WASH_PARAMS, "wash_cycle_lean": False}
    apart, _notes = wash_cycles(TransferView(_triangles("axy")), params)
    assert [(f.agents, f.pairs, f.p_value, f.details["good"]) for f in apart] == [
        (("a", "b", "c"), (("a", "b"), ("a", "c"), ("b", "c")), 2 * 2 ** -9 * 2, "wood"),
        (("a", "x", "y"), (("a", "x"), ("a", "y"), ("x", "y")), 2 * 2 ** -9 * 2, "stone")]
    [joined], _notes = wash_cycles(TransferView(_triangles("aby")), params)
    assert set(joined.agents) == {"a", "b", "c", "y"} and joined.details["cyclesFound"] == 2
    assert joined.p_value == 2 * 2 ** -9 * 2
    assert rings_of([("a", "b", "c"), ("a", "x", "y")]) == [[0], [1]]
    assert rings_of([("a", "b", "c"), ("a", "x", "y"), ("b", "c", "x", "y")]) == [[0, 1, 2]]


@pytest.mark.parametrize("start", [0, 1, 2, 3])
def test_a_ring_is_found_whatever_node_starts_it(start: int) -> None:
    nodes = ["w", "x", "y", "z"]
    rotated = nodes[start:] + nodes[:start]
    [flag] = flags_of(ring_graph(rotated), "ring")
    assert flag.kind == "wash_cycle" and set(flag.agents) == set(nodes) and flag.score == 3.0


def test_a_ring_with_slightly_varying_quantities_is_still_a_ring() -> None:
    g = nx.MultiDiGraph()
    tick = 0
    for value in [6.0, 8.0, 5.0]:
        for i, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a")]):
            gift(g, u, v, tick, value + (i % 2))  # a unit more or less on some legs
            tick += 1
    [flag] = flags_of(g, "ring")
    assert flag.kind == "wash_cycle" and flag.score == 3.0


def test_a_crowd_trading_the_same_goods_every_way_is_one_ring_found_in_bounded_time() -> None:
    import time

    g = nx.MultiDiGraph()
    seats = [f"s{i:02d}" for i in range(16)]
    for _ in range(3):
        for a, b in itertools.permutations(seats, 2):
            trade(g, a, b, next(_ids), {"wood": 6.0}, {"food": 6.0})
    started = time.process_time()  # the work done (one process, one core), not a shared machine's wall clock
    result = screen_graph(g)
    assert time.process_time() - started < 5.0
    assert "ring: the cycle search stopped after 200000 steps; some cycles may be missing" in result.notes
    # no cycle passes the in-step rule paid for its thousands of cycles met, so none joins a ring that would let the
    # others be skipped: the shuffles run out, and the result says so
    [unread] = [re.fullmatch(r"ring: the in-step rule stopped after shuffling 20,000,000 places; ([\d,]+) cycles "
                             r"were not read and may be missing", n) for n in result.notes if "in-step" in n]
    assert unread is not None and int(unread.group(1).replace(",", "")) > 0
    # every pair undoes its own trades: against the match's other pairs, no pair stands out (the null
    # is honest play in the same match, and here every pair does the same), and wood goes every way
    # round every cycle as often: clear.  A world like this shows at season scale, not within it.
    assert result.flags == () and result.testing["tests"] >= 120


def test_two_laps_are_not_a_ring() -> None:
    assert flags_of(ring_graph(["a", "b", "c"], laps=2), "ring") == []


def test_ring_out_of_time_order_is_not_a_lap() -> None:
    g = nx.MultiDiGraph()
    for lap in range(3):  # each round runs the legs backwards: c -> a, b -> c, a -> b
        gift(g, "c", "a", 10 * lap, 6.0)
        gift(g, "b", "c", 10 * lap + 1, 6.0)
        gift(g, "a", "b", 10 * lap + 2, 6.0)
    # a lap must take its legs in time order, so three rounds make only two laps
    assert flags_of(g, "ring") == []


def test_wash_pair_exact() -> None:
    g = nx.MultiDiGraph()
    yardstick(g)
    for t in range(4):  # wood for stone, then back
        trade(g, "a", "b", 2 * t, {"wood": 6.0}, {"stone": 6.0})
        trade(g, "b", "a", 2 * t + 1, {"wood": 6.0}, {"stone": 6.0})
    [flag] = flags_of(g, "ring")
    assert (flag.kind, flag.agents, flag.score) == ("wash_pair", ("a", "b"), 1.0)
    assert flag.details["netShare"] == 0.0 and flag.details["roundTrips"] == 4  # 8 trades, each undone
    # the six honest pairs (two exchanges each: one trip possible) made none: at their volume the rate is
    # (6 x 0 + 1/2) / (6 + 1) = 1/14 (the prior pair at one half sits at their median volume, two exchanges);
    # with every pair at one volume the data say nothing of the slope, so it is the prior's, flat: the rate at
    # eight exchanges is 1/14 too.  One trip possible a pair says nothing of the spread either: strength 8.
    # All 4 possible trips made under a Beta(8/14, 8 - 8/14) rate: prod (4/7 + i) / (8 + i), i < 4
    expected = math.prod((4 / 7 + i) / (8 + i) for i in range(4))
    assert flag.details["nullReturnRate"] == round(1 / 14, 4) and flag.details["nullStrength"] == 8.0
    assert flag.details["tripsPossible"] == 4 and flag.p_value == pytest.approx(expected)


def test_a_wash_pair_alone_has_no_yardstick() -> None:
    g = nx.MultiDiGraph()
    for t in range(4):
        trade(g, "a", "b", 2 * t, {"wood": 6.0}, {"stone": 6.0})
        trade(g, "b", "a", 2 * t + 1, {"wood": 6.0}, {"stone": 6.0})
    # no other pair: the rate is the prior one half, and 8 of 8 under Beta(4, 4) is 0.0256
    assert flags_of(g, "ring") == []


def test_a_pair_inside_a_ring_is_held_to_the_member_threshold() -> None:
    g = nx.MultiDiGraph()
    busy_yardstick(g)
    t = itertools.count()
    for x, y, rounds in (("a", "b", 6), ("b", "c", 6), ("a", "c", 3)):
        for _ in range(rounds):  # wood for stone, then the same stone for the same wood
            trade(g, x, y, next(t), {"wood": 6.0}, {"stone": 6.0})
            trade(g, y, x, next(t), {"wood": 6.0}, {"stone": 6.0})
    for _ in range(3):  # a and c also trade fiber for food: half their value is not sent back
        trade(g, "a", "c", next(t), {"fiber": 12.0}, {"food": 12.0})
    pairs = {f.pairs[0]: f for f in flags_of(g, "ring") if f.kind == "wash_pair"}
    assert set(pairs) == {("a", "b"), ("b", "c"), ("a", "c")}
    member = pairs[("a", "c")]
    assert (member.score, member.threshold, member.details["ring"]) == (0.5, 0.5, ["a", "b", "c"])


def test_two_honest_traders_who_trade_often_and_fairly_are_clear() -> None:
    g = nx.MultiDiGraph()
    for t in range(30):
        trade(g, "a", "b", t, {"wood": 6.0}, {"food": 6.0 + (t % 3) - 1})
    assert screen_graph(g).verdict == "clear"


def test_an_occasional_buy_back_is_not_wash_trading() -> None:
    g = nx.MultiDiGraph()
    for t in range(10):
        trade(g, "a", "b", t, {"wood": 6.0}, {"food": 6.0})
    trade(g, "b", "a", 20, {"wood": 6.0}, {"food": 6.0})  # a buys wood back once
    assert flags_of(g, "ring") == []


def short_ring(g: nx.MultiDiGraph, nodes: list[str], laps: int, tick: int, value: float = 6.0,
               ordinary: dict[int, tuple[str, str, dict[str, float], dict[str, float]]] | None = None) -> list[int]:
    """``laps`` times: wood for stone round ``nodes`` (each to the next), then every one of those
    trades undone by a trade sending the same goods back, last first.  ``ordinary`` trades
    ``(a, b, give, get)`` are made at the given steps in between (one tick per step).  Returns
    the ring's event ids."""
    k = len(nodes)
    steps: list[tuple[str, str]] = []
    for _ in range(laps):
        steps += [(nodes[i], nodes[(i + 1) % k]) for i in range(k)]
        steps += [(nodes[(i + 1) % k], nodes[i]) for i in reversed(range(k))]  # the same goods back
    ordinary = ordinary or {}
    ring_events = []
    for step, (u, v) in enumerate(steps):
        if step in ordinary:
            a, b, give, get = ordinary[step]
            trade(g, a, b, tick, give, get)
            tick += 1
        ring_events.append(trade(g, u, v, tick, {"wood": value}, {"stone": value}))
        tick += 1
    return ring_events


def ordinary_market(g: nx.MultiDiGraph, start: int) -> None:
    """Outsiders trading fairly with the ring's seats and each other: goods that move for good."""
    for t, (a, b) in enumerate([("x", "a"), ("y", "b"), ("x", "c"), ("y", "a"), ("x", "y"), ("y", "c")]):
        trade(g, a, b, start + t, {"fiber": 6.0}, {"food": 6.0})


def test_a_one_lap_ring_mixed_with_ordinary_trade_is_found_by_the_rule_but_not_accused() -> None:
    g = nx.MultiDiGraph()
    ordinary_market(g, 0)
    # once round a -> b -> c -> a and back, a and b also trading fiber for food in between
    events = short_ring(g, ["a", "b", "c"], laps=1, tick=10, ordinary={3: ("a", "b", {"fiber": 6.0}, {"food": 6.0})})
    ordinary_market(g, 30)
    [flag] = ring_rule(g)
    assert (flag.kind, flag.agents, flag.pairs) == ("wash_ring", ("a", "b", "c"), (("a", "b"), ("a", "c"), ("b", "c")))
    # a~b: 36 traded, net share 1/3 (the fiber and food moved); a~c and b~c: 24 each, net share 0
    assert flag.score == pytest.approx(1 - 12 / 84) and flag.threshold == 0.4
    assert flag.evidence == tuple(events)  # the six ring trades, not the ordinary ones
    assert flag.details["roundTrips"] == {"a~b": 1, "a~c": 1, "b~c": 1}
    assert flag.details["pairNetShare"] == {"a~b": 0.333, "a~c": 0.0, "b~c": 0.0}
    assert (flag.details["good"], flag.details["lap"], flag.details["handOffTicks"]) == \
        ("wood", ["a", "b", "c"], [10.0, 11.0, 12.0])
    assert flag.details["allUnderWayAtTick"] == 12.0
    assert flag.explanation.startswith("wood went round a -> b -> c -> a and every pair sent it back, all under way "
                                       "together at tick 12, each leg of one value: 86% of their trade went back")
    # but one lap is no evidence the round-trip counts can weigh: given that each pair made the one round trip
    # that put it in the search, its p-value is 1; and against any cycle of the match, each pair's single trip
    # of one possible, at the rate of x~y (the only pair outside the ring: no trip, prior one half), is common
    assert flag.details["pairPValuesGivenSearch"] == {"a~b": 1.0, "b~c": 1.0, "a~c": 1.0}
    assert flag.p_value == 1.0 and screen_graph(g).verdict == "clear"


def test_a_one_lap_ring_was_missed_by_the_lap_and_pair_rules() -> None:
    g = nx.MultiDiGraph()
    yardstick(g)
    short_ring(g, ["a", "b", "c"], laps=1, tick=10)
    assert flags_of(g, "ring", screens={"ring": {"ring_threshold": 1.01}}) == []  # the round-trip ring rule off
    assert [f.kind for f in ring_rule(g)] == ["wash_ring"]  # the rule finds it (whether a test can, above)


def test_a_two_lap_ring_mixed_with_ordinary_trade_is_flagged() -> None:
    g = nx.MultiDiGraph()
    ordinary_market(g, 0)
    ordinary = {1: ("a", "b", {"fiber": 6.0}, {"food": 6.0}), 5: ("b", "c", {"plank": 6.0}, {"ore": 6.0}),
                8: ("c", "a", {"cloth": 12.0}, {"tool": 12.0})}
    events = short_ring(g, ["a", "b", "c"], laps=2, tick=10, ordinary=ordinary)
    ordinary_market(g, 40)
    busy_yardstick(g)
    [flag] = flags_of(g, "ring")
    assert (flag.kind, flag.agents, flag.pairs) == ("wash_ring", ("a", "b", "c"), (("a", "b"), ("a", "c"), ("b", "c")))
    # a~b and b~c: 60 traded, 12 moved for good each; a~c: 72 traded, 24 moved
    assert flag.score == pytest.approx(1 - 48 / 192) and flag.evidence == tuple(events)
    assert flag.details["roundTrips"] == {"a~b": 2, "a~c": 2, "b~c": 2}
    # two laps, two round trips a pair mixed with other trade: neither the lap nor the pair rule sees it
    assert flags_of(g, "ring", screens={"ring": {"ring_threshold": 1.01}}) == []


def test_the_ring_screen_run_beside_the_others_finds_the_same_ring() -> None:
    """With a second process offered, the ring screen runs there (the only one that does) while this one runs
    the others and then the typologies: the same result, its ring flag among it."""
    from .test_screens_daishi import Beside

    g = nx.MultiDiGraph()
    ordinary_market(g, 0)
    short_ring(g, ["a", "b", "c"], laps=2, tick=10, ordinary={1: ("a", "b", {"fiber": 6.0}, {"food": 6.0})})
    ordinary_market(g, 40)
    busy_yardstick(g)
    here = screen_graph(g)
    assert [f.kind for f in here.flags] == ["wash_ring"]  # a flag of the screen run beside: the test can tell
    beside = Beside()
    assert screen_graph(g, beside=beside).to_dict() == here.to_dict()
    [handed] = beside.handed
    assert [screen for screen, _ in handed.args[2]] == ["ring"]


def test_typologies_run_while_the_ring_screen_runs_beside_are_run_again_at_the_level_its_tests_leave(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The typologies' level depends on whether any Daishi test can reach the rate (the ring's among them): run
    while the ring screen runs beside, they are run at the usual share; if the tests leave them the whole rate
    (none can reach it), they are run again at that level, and the result is the one run in one process."""
    import daishi_forensics.screens.screening as screening

    from .test_screens_daishi import Beside

    g = nx.MultiDiGraph()
    trade(g, "a", "b", 1, {"wood": 6.0}, {"food": 6.0})  # one fair trade: no test can reach any rate
    levels: list[float] = []
    run = screening._run_typologies

    def spy(view: Any, config: Any, typologies: Any, level: float) -> Any:
        levels.append(level)
        return run(view, config, typologies, level)

    monkeypatch.setattr(screening, "_run_typologies", spy)
    here = screen_graph(g)
    assert levels == [0.02 / 3]  # the whole rate, split among the three typologies
    assert screen_graph(g, beside=Beside()).to_dict() == here.to_dict()
    assert levels == [0.02 / 3, 0.02 * 0.1 / 3, 0.02 / 3]  # guessed a tenth, then run again


def test_an_honest_triangle_of_fair_trade_is_clear() -> None:
    """Three producers: food pays for wood, stone and fiber, which move for good.  The food goes
    round the triangle lap after lap, and each pair even buys back once, all at the same time,
    in the same food and of the same value; yet every pair's trade moved goods (net share
    well above 0) and each seat ends with other goods than it started with."""
    g = nx.MultiDiGraph()
    t = 0
    for _ in range(6):
        trade(g, "a", "b", t, {"wood": 6.0}, {"food": 6.0})  # b buys a's wood with food
        trade(g, "b", "c", t + 1, {"stone": 6.0}, {"food": 6.0})  # c buys b's stone
        trade(g, "c", "a", t + 2, {"fiber": 6.0}, {"food": 6.0})  # a buys c's fiber
        t += 3
    # a buy-back on every pair, under way together (a changed mind each, on the same day)
    trade(g, "b", "a", 30, {"wood": 6.0}, {"food": 6.0})
    trade(g, "c", "b", 31, {"stone": 6.0}, {"food": 6.0})
    trade(g, "a", "c", 32, {"fiber": 6.0}, {"food": 6.0})
    trade(g, "a", "b", 33, {"wood": 6.0}, {"food": 6.0})
    trade(g, "b", "c", 34, {"stone": 6.0}, {"food": 6.0})
    trade(g, "c", "a", 35, {"fiber": 6.0}, {"food": 6.0})
    result = screen_graph(g)
    assert result.verdict == "clear", [f.explanation for f in result.flags]
    view = TransferView(g)
    assert view.pair("a", "b").net_share == pytest.approx(0.75)  # 12 of 16 trades' goods moved for good


def test_a_currency_going_round_an_honest_triangle_is_not_a_wash_cycle() -> None:
    g = nx.MultiDiGraph()
    for lap in range(6):  # food goes round a -> c -> b -> a six times, paying for goods that move
        trade(g, "a", "b", 3 * lap, {"wood": 6.0}, {"food": 6.0})
        trade(g, "b", "c", 3 * lap + 1, {"stone": 6.0}, {"food": 6.0})
        trade(g, "c", "a", 3 * lap + 2, {"fiber": 6.0}, {"food": 6.0})
    assert screen_graph(g).verdict == "clear"
    g2 = nx.MultiDiGraph()
    for lap in range(6):  # the same laps, paid back in the goods that went round the other way: a wash
        trade(g2, "a", "b", 3 * lap, {"wood": 6.0}, {"food": 6.0})
        trade(g2, "b", "c", 3 * lap + 1, {"wood": 6.0}, {"food": 6.0})
        trade(g2, "c", "a", 3 * lap + 2, {"wood": 6.0}, {"food": 6.0})
    [flag] = flags_of(g2, "ring")
    assert (flag.kind, flag.score, flag.details["memberImbalance"]) == ("wash_cycle", 6.0, 0.0)


def _cycle_beside(outside: list[tuple[str, str, int, int]]) -> nx.MultiDiGraph:
    """Wood goes round a -> b -> c four times (12 transfers, all the cycle's way); beside it, pairs sharing no
    seat with the cycle pass wood ``(x, y, x to y, y to x)`` times."""
    g = ring_graph(["a", "b", "c"], laps=4)
    tick = 100
    for x, y, forth, back in outside:
        for u, v, k in ((x, y, forth), (y, x, back)):
            for _ in range(k):
                gift(g, u, v, tick, 6.0)
                tick += 1
    return g


WASH_PARAMS = {"max_leg_ratio": 1.5, "max_cycle_length": 5, "cycle_threshold": 3, "max_member_imbalance": 0.3,
               "max_search_steps": 10000, "wash_cycle_lean": True,
               "wash_cycle_in_step": 1.0}  # the direction alone: the tests of the lean and of rings read it so
LEAN_ON = {"screens": {"ring": {"wash_cycle_lean": True}}}


def test_a_wash_cycle_is_read_against_how_hard_the_matchs_other_pairs_lean_in_its_good() -> None:
    """With the lean on: twelve transfers of wood round a -> b -> c, all the cycle's way.  Where the pairs outside
    the cycle pass wood back and forth evenly (2 and 2 each), no pair leans: the coin, 2 x 2^-12.  Where each of
    them passes it one way only (4 and 0, 0 and 4, 4 and 0), pairs lean as hard as a symmetric Beta(0.05, 0.05)
    allows (the fit's smallest alpha): each leg's 4 of 4 along has chance B(4 + a, a) / B(a, a), the three legs'
    twelve along that cubed, doubled: not unusual, and no flag."""
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.wash_cycle import LEAN_NULL, fit_lean, wash_cycles

    even = _cycle_beside([("d", "e", 2, 2), ("f", "g", 2, 2), ("h", "i", 2, 2)])
    [flag], _notes = wash_cycles(TransferView(even), WASH_PARAMS)
    assert flag.p_value == pytest.approx(2 * 0.5 ** 12, rel=1e-12) and flag.details["minP"] == 2 * 0.5 ** 12
    assert flag.details["lean"] is None and flag.null == LEAN_NULL
    assert [f.kind for f in flags_of(even, "ring", **LEAN_ON)] == ["wash_cycle"]

    leaning = _cycle_beside([("d", "e", 4, 0), ("f", "g", 0, 4), ("h", "i", 4, 0)])
    alpha = fit_lean([(4, 0), (0, 4), (4, 0)])
    assert alpha == pytest.approx(0.05)
    a = 0.05
    leg = math.exp(math.lgamma(4 + a) + math.lgamma(2 * a) - math.lgamma(4 + 2 * a) - math.lgamma(a))
    [flag], _notes = wash_cycles(TransferView(leaning), WASH_PARAMS)
    assert flag.p_value == pytest.approx(2 * leg ** 3) and flag.p_value > 0.1
    assert flag.details["lean"] == pytest.approx(0.05)
    assert [f for f in flags_of(leaning, "ring", **LEAN_ON) if f.kind == "wash_cycle"] == []


def test_as_shipped_a_wash_cycle_is_read_as_coins_however_the_matchs_other_pairs_lean() -> None:
    """The lean is off as shipped: the same twelve transfers round a -> b -> c beside pairs that pass wood one way
    only are the coin's 2 x 2^-12 (no lean read, the binomial's null in words), and raised; as shipped (the in-step
    rule on, paying for the cycles met, its order read with the direction) the flag is the same as beside pairs
    trading evenly."""
    from daishi_forensics.screens import load_config
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.wash_cycle import CYCLE_NULL, ORDER_PAYS_NULL, wash_cycles

    assert load_config().screens["ring"]["wash_cycle_lean"] is False
    leaning = _cycle_beside([("d", "e", 4, 0), ("f", "g", 0, 4), ("h", "i", 4, 0)])
    [flag], _notes = wash_cycles(TransferView(leaning), {**WASH_PARAMS, "wash_cycle_lean": False})
    assert flag.p_value == pytest.approx(2 * 0.5 ** 12, rel=1e-12) and flag.details["minP"] == 2 * 0.5 ** 12
    assert flag.details["lean"] is None and flag.null == CYCLE_NULL
    [shipped] = [f for f in flags_of(leaning, "ring") if f.kind == "wash_cycle"]
    even = _cycle_beside([("d", "e", 2, 2), ("f", "g", 2, 2), ("h", "i", 2, 2)])
    [beside_even] = [f for f in flags_of(even, "ring") if f.kind == "wash_cycle"]
    assert (shipped.p_value, shipped.null, shipped.agents) == (beside_even.p_value, CYCLE_NULL + ORDER_PAYS_NULL,
                                                               ("a", "b", "c"))


def test_too_few_outside_pairs_in_the_good_read_the_lean_from_every_good() -> None:
    """Two outside pairs moved wood (fewer than three): the lean is read from every good those pairs moved, each
    pair and good a unit (wood 4 and 0, 0 and 4; stone 4 and 0 and food 0 and 4 between h and i).  With no
    outside pair at all: nothing to read, the coin."""
    from daishi_forensics.screens.wash_cycle import _good_flows, outside_counts
    from daishi_forensics.screens.graph import TransferView

    g = _cycle_beside([("d", "e", 4, 0), ("f", "g", 0, 4)])
    tick = 300
    for _ in range(4):
        trade(g, "h", "i", tick, {"stone": 6.0}, {"food": 6.0})
        tick += 1
    flows = _good_flows(TransferView(g))
    assert sorted(outside_counts(flows, "wood", {"a", "b", "c"})) == [(0, 4), (0, 4), (4, 0), (4, 0)]
    assert outside_counts(_good_flows(TransferView(ring_graph(["a", "b", "c"]))), "wood", {"a", "b", "c"}) == []
    # a pair on another wash cycle is under test itself, no yardstick: d~e left out
    assert sorted(outside_counts(flows, "wood", {"a", "b", "c"}, {frozenset(("d", "e"))})) == [(0, 4), (0, 4), (4, 0)]


def test_round_trips_at_different_times_are_not_a_ring() -> None:
    g = nx.MultiDiGraph()
    for t, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a")]):  # three buy-backs, one after another
        trade(g, u, v, 10 * t, {"wood": 6.0}, {"stone": 6.0})
        trade(g, v, u, 10 * t + 5, {"wood": 6.0}, {"stone": 6.0})
    assert ring_rule(g) == [] and flags_of(g, "ring") == []
    trade(g, "a", "b", 2, {"fiber": 6.0}, {"food": 6.0})  # nor are they, with anything else in between
    assert ring_rule(g) == [] and flags_of(g, "ring") == []


def test_round_trips_of_different_parcels_are_not_a_ring() -> None:
    g = nx.MultiDiGraph()
    yardstick(g)
    short_ring(g, ["a", "b", "c"], laps=1, tick=0)
    assert ring_rule(g)  # the same parcel round the cycle: the rule finds it
    g = nx.MultiDiGraph()
    for t, (u, v, value, good) in enumerate([("a", "b", 6.0, "wood"), ("b", "c", 30.0, "wood"),
                                             ("c", "a", 6.0, "wood")]):
        trade(g, u, v, t, {good: value}, {"stone": value})
    for t, (u, v, value) in enumerate([("a", "c", 6.0), ("c", "b", 30.0), ("b", "a", 6.0)]):
        trade(g, u, v, 3 + t, {"wood": value}, {"stone": value})
    # the b~c round trip is five times the others: another parcel
    assert ring_rule(g) == [] and flags_of(g, "ring") == []
    g = nx.MultiDiGraph()
    for t, (u, v, good) in enumerate([("a", "b", "wood"), ("b", "c", "fiber"), ("c", "a", "wood")]):
        trade(g, u, v, t, {good: 6.0}, {"ore" if good == "fiber" else "stone": 6.0})
    for t, (u, v, good) in enumerate([("a", "c", "wood"), ("c", "b", "fiber"), ("b", "a", "wood")]):
        trade(g, u, v, 3 + t, {good: 6.0}, {"ore" if good == "fiber" else "stone": 6.0})
    assert ring_rule(g) == [] and flags_of(g, "ring") == []  # no good goes all round: each pair swapped its own


def test_cycle_search_never_uses_simple_cycles(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("simple_cycles over the whole graph")

    monkeypatch.setattr(nx, "simple_cycles", refuse)
    assert flags_of(ring_graph(["a", "b", "c"]), "ring")


# -- cartel --------------------------------------------------------------------------------


def cartel_graph(contact: dict[tuple[str, str], int] | None, victims: tuple[str, ...] = ("x", "y")) -> nx.MultiDiGraph:
    """a and b trade, and each robs an outsider (x, y) it stood beside for 10 ticks."""
    g = nx.MultiDiGraph()
    if contact is not None:
        g.graph["contact"] = contact
    trade(g, "a", "b", 0, {"wood": 4.0}, {"food": 4.0})
    take(g, victims[0], "a", 1, 3.0, kind="theft")
    take(g, victims[-1], "b", 2, 3.0, kind="theft")
    return g


BLOC = {("a", "b"): 120, ("a", "x"): 10, ("b", "y"): 10, ("x", "y"): 10}


def test_cartel_exact() -> None:
    [flag] = flags_of(cartel_graph(BLOC), "cartel")
    assert (flag.kind, flag.agents, flag.pairs) == ("non_aggression_bloc", ("a", "b"), (("a", "b"),))
    # each robbed 1 outsider per 10 ticks beside outsiders, and stood 120 ticks beside the other:
    # 12 + 12 victims expected among themselves; chance of none e**-24
    assert flag.score == pytest.approx(24 / math.log(10))
    assert flag.details["victims"] == ["x", "y"] and flag.details["expectedVictimsInside"] == 24.0


def test_a_bloc_that_never_met_is_not_a_pact() -> None:
    assert flags_of(cartel_graph({("a", "x"): 10, ("b", "y"): 10, ("x", "y"): 10}), "cartel") == []


def test_one_rival_is_a_rivalry_not_a_bloc() -> None:
    assert flags_of(cartel_graph(BLOC, victims=("x",)), "cartel") == []


def test_sparing_friends_proves_little_for_one_who_spares_most_outsiders() -> None:
    contact = {**BLOC, ("a", "z"): 400, ("b", "z"): 400}  # z: an outsider they stood beside and never hit
    assert flags_of(cartel_graph(contact), "cartel") == []


def straying_bloc(a_hits_c: bool = False) -> nx.MultiDiGraph:
    """l leads a, b and c; a and c, its followers at either side, stood together only 10 ticks
    (the median pair's), short of the allies' floor (3 x 10): two cliques, {a, b, l} and {b, c, l}.
    a robs x and c robs y, each beside its victim 10 ticks; a and b trade."""
    contact = {("a", "l"): 60, ("b", "l"): 60, ("c", "l"): 60, ("a", "b"): 60, ("b", "c"): 60, ("a", "c"): 10,
               ("a", "x"): 10, ("c", "y"): 10, ("x", "y"): 10, ("l", "x"): 10, ("b", "y"): 10}
    g = nx.MultiDiGraph(contact=contact)
    trade(g, "a", "b", 0, {"wood": 4.0}, {"food": 4.0})
    take(g, "x", "a", 1, 3.0, kind="theft")
    take(g, "y", "c", 2, 3.0, kind="theft")
    if a_hits_c:
        take(g, "c", "a", 3, 0.0, kind="attack")
    return g


def test_a_bloc_whose_followers_stray_apart_is_one_bloc() -> None:
    [flag] = flags_of(straying_bloc(), "cartel")
    assert flag.agents == ("a", "b", "c", "l") and ("a", "c") in flag.pairs
    # a: 1 victim per 10 ticks beside outsiders, 60 + 60 + 10 ticks beside l, b and c: 13 expected;
    # c the same: 26 in all, chance of none e**-26
    assert flag.details["expectedVictimsInside"] == 26.0
    assert flag.p_value == pytest.approx(math.exp(-26.0))


def test_chained_cliques_are_a_bloc_only_if_no_member_hit_another() -> None:
    # a attacked c: {a, b, c, l} is no pact; {a, b, l} hit two outsiders (x, and c) and is tested alone
    assert [f.agents for f in flags_of(straying_bloc(a_hits_c=True), "cartel")] == [("a", "b", "l")]


def test_an_ally_the_bloc_spared_only_as_often_as_chance_allows_is_not_named() -> None:
    """a and b stood together 2,000 ticks; each robbed one outsider and stood beside nine (210 ticks: a hazard of
    1/210); c stood 80 ticks beside each, past the allies' floor (3 x the median pair's 25), and was never hit.
    The bloc's test is the three's: 2,080 ticks beside fellow members each, 4,160 / 210 = 19.81 victims expected
    inside.  c's own share is 160 / 210 (chance of being spared e**-0.762 = 0.467), a's and b's about 19: with
    ``member_level`` 0.2 the flag names a and b, with the test (and its p-value) the three's; at 1, all three."""
    contact = {**BLOC, ("a", "b"): 2000, ("a", "c"): 80, ("b", "c"): 80,
               **{("a", f"z{i}"): 25 for i in range(8)}, **{("b", f"w{i}"): 25 for i in range(8)}}
    graph = cartel_graph(contact)
    [named] = [f for f in screen_graph(graph).flags if f.screen == "cartel"]
    [every] = [f for f in screen_graph(graph, {"screens": {"cartel": {"member_level": 1}}}).flags
               if f.screen == "cartel"]
    assert (named.agents, named.pairs) == (("a", "b"), (("a", "b"),))
    assert every.agents == ("a", "b", "c") and every.pairs == (("a", "b"), ("a", "c"), ("b", "c"))
    assert named.p_value == every.p_value == pytest.approx(math.exp(-4160 / 210))
    assert named.details["notNamed"] == {"c": round(math.exp(-160 / 210), 4)} == {"c": 0.4668}
    assert named.details["testedMembers"] == ["a", "b", "c"] and "notNamed" not in every.details
    assert ("Named: the 2 of them each spared beyond chance on its own; c stood with them and was never hit, but only "
            "as often as chance allows (its chance 0.47), and is not named." in named.explanation)


def test_cartel_needs_colocation_data() -> None:
    result = screen_graph(cartel_graph(None))
    assert not [f for f in result.flags if f.screen == "cartel"]
    assert "not screened: cartel (the graph has no co-location data)" in result.not_screened


def test_rivals_who_fight_each_other_are_clear() -> None:
    g = nx.MultiDiGraph(contact={("a", "b"): 80})
    for t in range(6):
        take(g, "b", "a", 2 * t, 5.0, present=("b",))
        take(g, "a", "b", 2 * t + 1, 5.0, present=("a",))
    assert screen_graph(g).verdict == "clear"


def test_agents_that_happen_to_share_a_region_are_clear() -> None:
    g = nx.MultiDiGraph(contact={("a", "b"): 290, ("a", "c"): 10, ("b", "c"): 10}, ticks=300)
    honest_market(g, ["a", "b", "c"], rounds=2)
    assert screen_graph(g).verdict == "clear"


# -- off_price -----------------------------------------------------------------------------


def test_off_price_exact() -> None:
    g = nx.MultiDiGraph()
    honest_market(g, ["a", "b", "c"], rounds=1)  # typical 6
    t = itertools.count(10)
    for i in range(12):  # the giver overpays the gainer every time, and trades fairly with a and b
        trade(g, "giver", "gainer", next(t), {"tool": 48.0 if i % 2 else 36.0}, {"wood": 2.0})
        trade(g, "giver", "a", next(t), {"wood": 6.0}, {"food": 6.0})
        trade(g, "giver", "b", next(t), {"wood": 6.0}, {"food": 6.0})
    for other in ("a", "b", "a", "b"):  # and the gainer four times with a and b
        trade(g, "gainer", other, next(t), {"wood": 6.0}, {"food": 6.0})
    [flag] = flags_of(g, "off_price")
    assert (flag.agents, flag.pairs) == (("gainer", "giver"), (("gainer", "giver"),))
    # four tools and three: the match moves tools as 36 and 48, one tool is 12.  Beyond one tool, each trade hands
    # over 34 or 22: 6 x 34 + 6 x 22 = 336 in all, 56 typical exchanges of 6
    assert flag.details["excess"] == 336.0 and flag.score == pytest.approx(336.0 / 6.0)
    assert flag.details["valueMoved"] == 6 * 46.0 + 6 * 34.0
    assert flag.details["worstRatio"] == 24.0
    # each null is read two ways, the smaller doubled.  The rest of the match (the three trades among a, b and c)
    # has no excess: a rate of 0.5 / 7 with the weight of two trades.  The gainer made 16 trades, the twelve
    # with the giver carry all the excess it got: 1 of the C(16, 12) = 1,820 ways to deal twelve of them; as a
    # rate, its 4 other trades without excess make Beta(1/7, 6 - 1/7), and all twelve: all_of(12, 1/7, 6)
    m = 0.5 / 7
    assert flag.details["pBeneficiary"] == pytest.approx(2 * min(1 / 1820, all_of(12, 2 * m, 6)))
    assert flag.details["pBeneficiary"] == pytest.approx(2 * all_of(12, 2 * m, 6))  # about 5.8e-6
    # the giver made 36 trades, the twelve with the gainer carry all its excess: 1 of C(36, 12), or as a rate
    # with its 24 other trades, all_of(12, 1/7, 26): far smaller.  The larger of the two nulls counts
    assert flag.details["pPayer"] == pytest.approx(2 * min(1 / math.comb(36, 12), all_of(12, 2 * m, 26)))
    assert flag.p_value == flag.details["pBeneficiary"]
    assert (flag.details["payerTrades"], flag.details["beneficiaryTrades"]) == (36, 16)


def test_whole_items_paid_to_whoever_is_around_are_clear() -> None:
    """An agent that pays a whole tool for one wood now and then, to whichever partner it is
    trading with at the time (both directions happen too): off-price, not concentrated."""
    g = nx.MultiDiGraph()
    partners = ["a", "b", "c", "d"]
    t = itertools.count(0)
    for k in range(40):
        other = partners[k % 4]
        if k % 5 == 0:
            trade(g, "x", other, next(t), {"tool": 12.0}, {"wood": 2.0})
        elif k % 5 == 3:
            trade(g, other, "x", next(t), {"tool": 12.0}, {"wood": 2.0})
        else:
            trade(g, "x", other, next(t), {"wood": 6.0}, {"food": 6.0})
    assert not flags_of(g, "off_price")


def test_a_friend_paid_one_whole_item_at_a_time_one_way_is_clear() -> None:
    """Whole-item lumpiness between friends need not go both ways: x pays its friend f a whole tool for one
    wood ten times, never the other way, and trades fairly with a and b.  Four times the surplus of its other
    trades, all to one partner, one way (the test between the two of earlier versions: 2 / 2^10); but never
    more than one tool too much, which paying in whole items explains."""
    g = nx.MultiDiGraph()
    t = itertools.count(0)
    for _ in range(10):
        trade(g, "x", "f", next(t), {"tool": 12.0}, {"wood": 2.0})
        trade(g, "x", "a", next(t), {"wood": 6.0}, {"food": 6.0})
        trade(g, "f", "b", next(t), {"wood": 6.0}, {"food": 6.0})
    found, tests = off_price(TransferView(g), load_config().screens["off_price"])
    # no trade carries excess: every trading pair is asked, but none could ever say less than 1, so none is a
    # test (nor ever in Tarone's family); nothing is raised
    assert not found and not tests
    assert not flags_of(g, "off_price")


def test_a_handful_of_trades_far_beyond_whole_items_is_evidence() -> None:
    """Five trades are enough when each hands over three tools too many: the payer's other ten trades and the
    beneficiary's carry no excess."""
    g = nx.MultiDiGraph()
    t = itertools.count(0)
    trade(g, "a", "b", next(t), {"tool": 12.0}, {"wood": 12.0})  # one tool is worth 12 in this match
    for i in range(10):
        if i % 2 == 0:
            trade(g, "g", "h", next(t), {"tool": 48.0}, {"wood": 2.0})
        trade(g, "g", "ab"[i % 2], next(t), {"wood": 6.0}, {"food": 6.0})
        trade(g, "h", "ab"[i % 2], next(t), {"wood": 6.0}, {"food": 6.0})
    [flag] = flags_of(g, "off_price")
    assert flag.agents == ("h", "g") and flag.details["offPriceTrades"] == 5
    # each of the five hands over 46, 34 beyond one tool: 170 in all; g's five among its 15 trades and h's five
    # among its 15 carry all the excess either has: 1 of C(15, 5) = 3,003 ways each.  As a rate: the one trade
    # of neither seat has no excess (0.5 / 3), each seat's ten others none: Beta(1/3, 12 - 1/3), all five
    # (1/3 x 4/3 x 7/3 x 10/3 x 13/3) / (12 x 13 x 14 x 15 x 16) = 2.858e-5; the smaller, doubled
    assert flag.details["excess"] == 170.0
    rate = (1 * 4 * 7 * 10 * 13 / 3 ** 5) / (12 * 13 * 14 * 15 * 16)
    assert rate == pytest.approx(all_of(5, 1 / 3, 12)) and rate < 1 / 3003
    assert flag.details["pPayer"] == flag.details["pBeneficiary"] == flag.p_value == pytest.approx(2 * rate)


def test_a_lopsided_but_fair_trade_is_clear() -> None:
    g = nx.MultiDiGraph()
    for t in range(5):  # 24 fiber for 2 tools: lopsided count, fair value
        trade(g, "a", "b", t, {"fiber": 24.0}, {"tool": 24.0})
    assert screen_graph(g).verdict == "clear"


# -- thrown_fight --------------------------------------------------------------------------


def test_thrown_fight_exact() -> None:
    outsiders = ["a", "b", "c", "d"]
    contact = {pair: 30 for pair in itertools.combinations(outsiders, 2)}  # 6 pairs, 180 ticks together
    g = nx.MultiDiGraph(contact={**contact, ("v", "x"): 90}, ticks=300)
    honest_market(g, outsiders, rounds=2)
    take(g, "b", "a", 3, 2.0, kind="theft")  # one honest theft in the rest of the match
    acts = [take(g, "v", "x", t, 12.0) for t in (10, 40, 70, 100, 130, 160)]
    deals = [trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0}) for t in (5, 50)]
    [flag] = flags_of(g, "thrown_fight")
    assert (flag.agents, flag.score) == (("x", "v"), 6.0)
    assert flag.evidence == tuple(sorted(acts + deals))
    assert flag.details["ticksTogether"] == 90 and flag.details["togetherRatio"] == 3.0
    # x hit nobody else and met nobody else: its rate is the rest of the match's, (1 act + 1/2) over
    # (180 ticks + the median pair's 30), for the 90 ticks it stood with v
    expected = 1.5 / 210 * 90
    assert flag.threshold == pytest.approx(round(expected, 4))
    from daishi_forensics.screens.stats import poisson_sf, product_p
    p_count = poisson_sf(6, expected)  # about 1 in 18,000
    assert flag.details["pConcentration"] == pytest.approx(p_count)
    # v's silence: the one other theft went unanswered (its answer rate per act, (0 + 1/2) / (1 + 1) = 0.25, is
    # at least 0.1: silence is weighed), read per tick beside the aggressor: a never hit b back in its 30 ticks
    # beside b, so the match's victims hit back at (0 + 1/2) over (30 ticks + the median pair's 30), a Gamma
    # of weight 60 ticks; none in v's 90 ticks beside x has chance (60 / (60 + 90)) ** (1/120 x 60) = 0.4 ** 0.5
    silence = 0.4 ** 0.5
    assert flag.details["pSilence"] == pytest.approx(silence)
    assert flag.p_value == pytest.approx(product_p([p_count, silence]))
    assert flag.details["keptSilent"] is False


def _small_thrown_fight() -> tuple[nx.MultiDiGraph, list[int]]:
    """:func:`test_thrown_fight_exact`'s match with every act taking 2 instead of 12: the same test
    (the count and the victim's silence never read the value), 12 taken in all."""
    outsiders = ["a", "b", "c", "d"]
    contact = {pair: 30 for pair in itertools.combinations(outsiders, 2)}
    g = nx.MultiDiGraph(contact={**contact, ("v", "x"): 90}, ticks=300)
    honest_market(g, outsiders, rounds=2)
    take(g, "b", "a", 3, 2.0, kind="theft")
    acts = [take(g, "v", "x", t, 2.0) for t in (10, 40, 70, 100, 130, 160)]
    for t in (5, 50):
        trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0})
    return g, acts


def test_a_small_thrown_fight_is_found_by_its_test_and_kept_out_by_the_floor_only() -> None:
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.stats import poisson_sf, product_p

    g, acts = _small_thrown_fight()
    assert TransferView(g).scale == 6.0  # every exchange moved 6 each way: 12 taken is 2 typical exchanges
    p = product_p([poisson_sf(6, 1.5 / 210 * 90), 0.4 ** 0.5])
    shipped = screen_graph(g)
    assert [f for f in shipped.flags if f.screen == "thrown_fight"] == []  # under the floor of 10
    unfloored = screen_graph(g, {"screens": {"thrown_fight": {"min_value": 0.0}}})
    [flag] = [f for f in unfloored.flags if f.screen == "thrown_fight"]
    assert (flag.agents, flag.details["valueTaken"], flag.p_value) == (("x", "v"), 12.0, pytest.approx(p))
    assert set(acts) <= set(flag.evidence)
    # the floor removes the candidate, never its test: both runs weigh the same tests, the same family
    assert shipped.testing["tests"] == unfloored.testing["tests"]
    assert shipped.testing["family"] == unfloored.testing["family"]
    assert ("thrown_fight", "x", "v") in {t.key for t in shipped.tests}


def test_a_small_thrown_fight_that_kept_company_passes_the_floor() -> None:
    from daishi_forensics.screens.stats import poisson_sf

    outsiders = ["a", "b", "c", "d"]
    contact = {pair: 10 for pair in itertools.combinations(outsiders, 2)}  # 6 pairs of 10 ticks: the median pair
    g = nx.MultiDiGraph(contact={**contact, ("v", "x"): 120}, ticks=300)  # x and v: 12 times the median pair
    honest_market(g, outsiders, rounds=2)
    acts = [take(g, "v", "x", t, 2.0, kind="theft") for t in (10, 40, 70, 100, 130, 160)]
    for t in (5, 50):
        trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0})
    shipped = screen_graph(g)
    [flag] = [f for f in shipped.flags if f.screen == "thrown_fight"]
    # 12 taken, 2 typical exchanges (under the floor of 10), but 120 ticks together, 12 times the median pair's 10
    assert (flag.details["valueTaken"], flag.details["togetherRatio"], flag.details["keptCompany"]) == (12.0, 12.0, True)
    assert set(acts) <= set(flag.evidence)
    # x hit and met nobody else: the rest of the match's rate, (0 acts + 1/2) over (60 ticks + the median
    # pair's 10), for its 120 ticks with v; nobody else fought, so no silence to weigh
    assert flag.p_value == pytest.approx(poisson_sf(6, 0.5 / 70 * 120))
    # the gate only removes a candidate: off, or set above the pair's ratio, the same tests and family, no flag
    for ratio in (0.0, 12.5):
        gated = screen_graph(g, {"screens": {"thrown_fight": {"company_ratio": ratio}}})
        assert gated.verdict == "clear"
        assert (gated.testing["tests"], gated.testing["family"]) == (shipped.testing["tests"], shipped.testing["family"])


def _vendetta_in_company(values: list[float]) -> nx.MultiDiGraph:
    """x takes ``values`` from v (0: an attack) in the 120 ticks the two stood together, twelve times the
    median pair's 10 (the company gate); the two traded twice; nobody else fought."""
    outsiders = ["a", "b", "c", "d"]
    contact = {pair: 10 for pair in itertools.combinations(outsiders, 2)}
    g = nx.MultiDiGraph(contact={**contact, ("v", "x"): 120}, ticks=300)
    honest_market(g, outsiders, rounds=2)
    for k, value in enumerate(values):
        take(g, "v", "x", 10 + 30 * k, value, kind="theft" if value else "attack")
    for t in (5, 50):
        trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0})
    return g


def test_company_lowers_the_floor_to_one_typical_exchange_taken_again_but_does_not_remove_it() -> None:
    """Six acts on a partner kept company with (12 times the median pair): the company gate holds them to
    min_value_gated, one typical exchange (6 here) taken leaving the largest act out, not to nothing.  4
    and four thefts of 1.5 took 6 beside the largest (exactly one typical exchange): raised.  4 and four of
    1.25 took 5 beside it (an honest vendetta's pilfering, an attack among the acts): under the floor,
    although the test is the same (six acts, the same ticks together) and stays in the family."""
    from daishi_forensics.screens.thrown_fight import passes_floor

    kept = screen_graph(_vendetta_in_company([4.0, 1.5, 1.5, 1.5, 1.5, 0.0]))
    [flag] = [f for f in kept.flags if f.screen == "thrown_fight"]
    assert (flag.details["valueTaken"], flag.details["valueTakenAgain"], flag.details["keptCompany"]) == (10.0, 6.0, True)
    small = _vendetta_in_company([4.0, 1.25, 1.25, 1.25, 1.25, 0.0])
    dropped = screen_graph(small)
    assert [f for f in dropped.flags if f.screen == "thrown_fight"] == []
    assert {t.key: t.p_value for t in dropped.tests}[("thrown_fight", "x", "v")] == pytest.approx(flag.p_value)
    assert (dropped.testing["tests"], dropped.testing["family"]) == (kept.testing["tests"], kept.testing["family"])
    # 0 turns the lowered floor off: the gate passes whatever the acts took, as under 2.16.0
    [old] = [f for f in screen_graph(small, {"screens": {"thrown_fight": {"min_value_gated": 0.0}}}).flags
             if f.screen == "thrown_fight"]
    assert (old.agents, old.details["valueTakenAgain"]) == (("x", "v"), 5.0)
    # nothing taken at all never passes; a pair passing no gate is held to min_value
    assert not passes_floor(0.0, 0.0, 60.0, 0.0, True)
    assert passes_floor(70.0, 60.0, 60.0, 6.0, False) and not passes_floor(70.0, 59.0, 60.0, 6.0, False)


def _silent_victim(together: int) -> nx.MultiDiGraph:
    """Rivals a and b hit each other three times each in their 30 ticks together (victims here hit back);
    x takes 2 from v six times, under the floor and never hit back, in ``together`` ticks beside it."""
    outsiders = ["a", "b", "c", "d"]
    contact = {pair: 30 for pair in itertools.combinations(outsiders, 2)}  # the median pair: 30 ticks
    g = nx.MultiDiGraph(contact={**contact, ("v", "x"): together}, ticks=300)
    honest_market(g, outsiders, rounds=2)
    for t in (3, 13, 23):
        take(g, "a", "b", t, 2.0, kind="theft")
        take(g, "b", "a", t + 1, 1.0, kind="attack")
    for t in (10, 40, 70, 100, 130, 160):
        take(g, "v", "x", t, 2.0, kind="theft")
    for t in (5, 50):
        trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0})
    return g


def test_a_victim_that_never_hits_back_where_victims_do_passes_the_gates_by_its_silence() -> None:
    """x's six thefts took 12 (2 typical exchanges, under the floor of 10) and the two stood together 240 ticks,
    8 times the median pair (short of the company gate of 12), but v never hit back in those 240 ticks where
    the match's victims hit back: a and b hit each other 6 times in their 2 x 30 ticks, a rate of (6 + 1/2)
    over (60 + the median pair's 30) ticks, a Gamma of weight 90 ticks.  None in 240 ticks has chance
    (90 / 330) ** 6.5, 2.1e-4: under the silence level of 1 in 1,000, so the pair passes the gates."""
    from daishi_forensics.screens.thrown_fight import silence_ticks_p

    silence = (90 / 330) ** 6.5
    assert silence_ticks_p(0, 240.0, 6.5 / 90, 90.0) == pytest.approx(silence)
    g = _silent_victim(240)
    shipped = screen_graph(g)
    [flag] = [f for f in shipped.flags if f.screen == "thrown_fight"]
    assert (flag.agents, flag.details["valueTaken"], flag.details["togetherRatio"]) == (("x", "v"), 12.0, 8.0)
    assert (flag.details["keptCompany"], flag.details["keptSilent"]) == (False, True)
    assert flag.details["pSilence"] == pytest.approx(silence)
    # the gate only removes a candidate: off, the same tests and family, no flag
    off = screen_graph(g, {"screens": {"thrown_fight": {"silence_level": 0.0}}})
    assert [f for f in off.flags if f.screen == "thrown_fight"] == []
    assert (off.testing["tests"], off.testing["family"]) == (shipped.testing["tests"], shipped.testing["family"])
    # 90 ticks beside its aggressor: (90 / 180) ** 6.5 = 0.011, not silence enough to pass the gates
    assert [f for f in screen_graph(_silent_victim(90)).flags if f.screen == "thrown_fight"] == []


def test_one_big_haul_does_not_pass_the_floor_but_taking_again_and_again_does() -> None:
    """The floor reads what the acts took leaving the largest out: six acts taking 72 in all (12 typical
    exchanges of 6) pass it when each took 12 (60 without the largest: 10 typical exchanges), and do not when
    one theft of a dear good took 62 and the others 2 each (10 without it) -- a robbery, not a transfer."""
    from daishi_forensics.screens.thrown_fight import taken_again

    def fight(values: list[float]) -> nx.MultiDiGraph:
        outsiders = ["a", "b", "c", "d"]
        contact = {pair: 30 for pair in itertools.combinations(outsiders, 2)}
        g = nx.MultiDiGraph(contact={**contact, ("v", "x"): 90}, ticks=300)
        honest_market(g, outsiders, rounds=2)
        take(g, "b", "a", 3, 2.0, kind="theft")
        for t, value in zip((10, 40, 70, 100, 130, 160), values, strict=True):
            take(g, "v", "x", t, value, kind="theft")
        for t in (5, 50):
            trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0})
        return g

    again, haul = fight([12.0] * 6), fight([62.0] + [2.0] * 5)
    [flag] = flags_of(again, "thrown_fight")
    assert (flag.agents, flag.details["valueTaken"]) == (("x", "v"), 72.0)
    assert flags_of(haul, "thrown_fight") == []
    # the same test either way (the count and the silence never read the value), only the floor differs
    tests = [{t.key: t.p_value for t in screen_graph(g).tests} for g in (again, haul)]
    assert tests[0] == tests[1] and ("thrown_fight", "x", "v") in tests[0]
    from daishi_forensics.screens.graph import TransferView
    view = TransferView(haul)
    assert taken_again(view.pair("x", "v").acts_by("x")) == 10.0 and view.scale == 6.0


def test_an_honest_small_theft_is_not_flagged_even_without_the_floor() -> None:
    g, _ = _small_thrown_fight()
    h = nx.MultiDiGraph(contact=g.graph["contact"], ticks=300)
    h.add_edges_from((u, v, d) for u, v, d in g.edges(data=True) if d.get("kind") not in ("raid", "theft"))
    take(h, "v", "x", 10, 2.0, kind="theft")  # the match's one theft, of a trading partner, unanswered
    result = screen_graph(h, {"screens": {"thrown_fight": {"min_value": 0.0}}})
    assert result.verdict == "clear"
    # x's rate is the rest of the match's: (0 acts + 1/2) over (270 - 90 ticks + the median pair's 30), for its
    # 90 ticks with v: 0.214 acts expected, P(X >= 1) = 1 - e^-0.214 = 0.19; no other pair fought, so no
    # victim's answers to weigh its silence against
    [test] = [t for t in result.tests if t.key == ("thrown_fight", "x", "v")]
    assert test.p_value == pytest.approx(1 - math.exp(-0.5 / 210 * 90))


def test_a_persistent_thief_is_not_a_partner() -> None:
    g = nx.MultiDiGraph(contact={("v", "x"): 12, ("a", "b"): 3, ("a", "v"): 3}, ticks=300)
    honest_market(g, ["a", "b"], rounds=2)
    for t in (10, 40, 70, 100):
        take(g, "v", "x", t, 12.0, kind="theft")
    for t in (5, 50, 80):  # the naive victim keeps trading with its thief ...
        trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0})
    assert flags_of(g, "thrown_fight") == []  # ... but never kept its company


def test_thrown_fight_without_colocation_data_reads_dealing() -> None:
    g = nx.MultiDiGraph()
    acts = [take(g, "v", "x", t, 12.0, kind="theft") for t in range(10, 130, 10)]
    deals = [trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0}) for t in (41, 50, 80)]
    for other in ("o1", "o2", "o3"):
        trade(g, "x", other, 200, {"wood": 6.0}, {"food": 6.0})  # x deals with others and hits none of them
    [flag] = flags_of(g, "thrown_fight")
    assert flag.evidence == tuple(sorted(acts + deals))


def test_a_victim_that_hits_back_is_a_rival() -> None:
    g = nx.MultiDiGraph(contact={("v", "x"): 90}, ticks=300)
    for t in (10, 40, 70, 100):
        take(g, "v", "x", t, 12.0)
    take(g, "x", "v", 101, 1.0, kind="attack")
    assert flags_of(g, "thrown_fight") == []


# -- pair_outlier --------------------------------------------------------------------------


def test_pair_outlier_needs_several_measures() -> None:
    from daishi_forensics.screens.pair_outlier import pair_outlier

    agents = [f"p{i:02d}" for i in range(11)]
    contact = {pair: 10 for pair in itertools.combinations(agents, 2)}
    g = nx.MultiDiGraph(contact=dict(contact), ticks=300)
    honest_market(g, agents, rounds=1)
    params = default_config().screens["pair_outlier"]
    # p00 and p01 only stand together a lot: the honest shared region -> no candidate
    g.graph["contact"][("p00", "p01")] = 250
    assert pair_outlier(TransferView(g), params)[0] == []
    # ... and p01 also passes p00 a lot one way: two measures -> a candidate, the top of 55 pairs
    for t in range(4):
        gift(g, "p01", "p00", 100 + t, 9.0)
    [candidate], tests = pair_outlier(TransferView(g), params)
    assert candidate.flag.agents == ("p00", "p01") and candidate.most == "review"
    assert candidate.flag.details["features"]["oneWayValue"] == pytest.approx(6.0)
    assert candidate.flag.p_value == 1 / 55 and len(tests) == 55
    # but every pair was ranked, and one of 55 is always on top: 55 tests whose best is 1 in 55 can
    # never reach the rate, so the match's step leaves them out and raises nothing (the table feeds
    # the season, where pairs are many)
    result = screen_graph(g)
    assert not [f for f in result.flags if f.screen == "pair_outlier"] and result.testing["family"] == 0


def test_a_pair_outlier_floor_far_below_the_spread_scores_without_overflow() -> None:
    """Floors of 1e-300 (above 0, so usable) made the robust z of the fed pair about 1e300, whose square
    overflowed: screen stopped with exit 70 (OverflowError). The score is now summed as large as it is, and
    the pair is the same candidate, the top of 55."""
    from daishi_forensics.screens.pair_outlier import pair_outlier

    agents = [f"p{i:02d}" for i in range(11)]
    g = nx.MultiDiGraph(contact={pair: 10 for pair in itertools.combinations(agents, 2)}, ticks=300)
    honest_market(g, agents, rounds=1)
    g.graph["contact"][("p00", "p01")] = 250
    for t in range(4):
        gift(g, "p01", "p00", 100 + t, 9.0)
    params = load_config({"screens": {"pair_outlier": {"value_floor": 1e-300, "count_floor": 1e-300,
                                                       "share_floor": 1e-300}}}).screens["pair_outlier"]
    [candidate], tests = pair_outlier(TransferView(g), params)
    assert candidate.flag.agents == ("p00", "p01") and candidate.flag.p_value == 1 / 55 and len(tests) == 55
    assert 1e300 < candidate.flag.score < math.inf


def test_a_pair_outlier_among_few_pairs_is_never_raised() -> None:
    agents = [f"p{i}" for i in range(6)]  # 15 pairs: being the most extreme is 1 in 15
    g = nx.MultiDiGraph(contact={pair: 10 for pair in itertools.combinations(agents, 2)}, ticks=300)
    honest_market(g, agents, rounds=1)
    g.graph["contact"][("p0", "p1")] = 250
    for t in range(4):
        gift(g, "p1", "p0", 100 + t, 9.0)
    assert not flags_of(g, "pair_outlier")


# -- operator ------------------------------------------------------------------------------


def operator_graph(ranked: bool | None, feed: bool, same_model: bool = True) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph(ranked=ranked)
    g.add_node("a", operator="op1", model="m1", registration=(1,))
    g.add_node("b", operator="op1", model="m1" if same_model else "m2", registration=(2,))
    g.add_node("c", operator="op2", model="m1")
    honest_market(g, ["a", "b", "c"], rounds=1)
    if feed:
        for t in range(12):
            gift(g, "b", "a", 10 + t, 12.0)
    return g


def test_duplicate_slot_that_feeds_is_flagged() -> None:
    [flag] = flags_of(operator_graph(True, feed=True), "operator")
    assert (flag.kind, flag.level, flag.agents) == ("duplicate_slot", "flag", ("a", "b"))
    assert 1 in flag.evidence and 2 in flag.evidence  # the registrations


def test_shared_operator_with_different_models_is_review() -> None:
    [flag] = flags_of(operator_graph(True, feed=True, same_model=False), "operator")
    assert (flag.kind, flag.level) == ("shared_operator", "review")


def test_seats_of_one_operator_that_move_nothing_are_clear_with_a_note() -> None:
    result = screen_graph(operator_graph(True, feed=False))
    assert result.verdict == "clear"
    assert any(n.startswith("registration: seats a and b share operator op1") for n in result.notes)


def test_seats_of_one_operator_feeding_a_small_share_are_clear_with_a_note() -> None:
    # b gives a twelve gifts of 12 (net 144), and hands c 480 more in fair trades: 144 of 636 (6 + 150 + 480)
    g = operator_graph(True, feed=True)
    for t in range(10):
        trade(g, "b", "c", 40 + t, {"wood": 48.0}, {"food": 48.0})
    result = screen_graph(g)
    assert not [f for f in result.flags if f.screen == "operator"]
    assert ("registration: seats a and b share operator op1 and model m1 in a ranked match (one slot per (operator, "
            "model), the evaluation design's governance rule); b passed a 23% of all it handed anyone, under the "
            "floor of 33%, so no flag") in result.notes


def test_unranked_match_is_not_screened_for_slots() -> None:
    result = screen_graph(operator_graph(False, feed=True))
    assert not [f for f in result.flags if f.screen == "operator"]
    assert "not screened: operator (the match is not ranked)" in result.not_screened


# -- properties ----------------------------------------------------------------------------


def everything_graph() -> nx.MultiDiGraph:
    g = ring_graph(["r1", "r2", "r3"])
    honest_market(g, ["h1", "h2", "h3"], rounds=2, start=50)
    for i, s in enumerate(["s1"] * 12 + ["s2"] * 12):
        gift(g, s, "hub", 60 + i, 15.0)
    for t in range(3):
        trade(g, "g1", "g2", 100 + t, {"tool": 48.0}, {"wood": 2.0})
    return g


def test_relabelling_agents_relabels_flags() -> None:
    g = everything_graph()
    mapping = {n: f"z_{i:02d}" for i, n in enumerate(sorted(g.nodes, reverse=True))}
    before = screen_graph(g)
    after = screen_graph(nx.relabel_nodes(g, mapping))
    assert before.verdict == after.verdict == "flag"

    def key(f: Flag) -> tuple[Any, ...]:
        return (f.screen, f.kind, frozenset(f.agents), f.pairs, round(f.score, 9), f.evidence)

    assert sorted(map(key, (f.relabelled(mapping) for f in before.flags))) == sorted(map(key, after.flags))


def test_the_same_graph_gives_the_same_bytes_whatever_the_insertion_order() -> None:
    from daishi_forensics.jsonio import dumps

    g = everything_graph()
    backwards = nx.MultiDiGraph(**g.graph)
    backwards.add_nodes_from(reversed(list(g.nodes(data=True))))
    backwards.add_edges_from(reversed(list(g.edges(data=True))))
    assert dumps(screen_graph(g).to_dict()) == dumps(screen_graph(backwards).to_dict())


def test_bank_transfers_screen_too() -> None:
    """Another kind of transfer data: value-only payments.  Plain payments (no transfer says it
    was a trade or a gift) are one way by nature, so the screens that read one-way flow between
    traders step aside and say so (the typologies read them); labelled as gifts and trades, the
    same transfers are screened as a match's would be."""
    def bank(labelled: bool) -> nx.MultiDiGraph:
        g = nx.MultiDiGraph()
        tx = itertools.count(1000)
        gift = {"kind": "gift"} if labelled else {}
        for day in range(12):
            for mule in ("acct-7", "acct-8", "acct-9"):
                g.add_edge(mule, "acct-1", value=950.0, tick=day, event=next(tx), **gift)
        for day in range(16):
            e = next(tx)
            leg = {"exchange": f"x{e}"} if labelled else {}
            g.add_edge("acct-2", "acct-3", value=400.0, tick=day, event=e, **leg)
            g.add_edge("acct-3", "acct-2", value=400.0, tick=day, event=next(tx), **leg)
        return g

    plain = screen_graph(bank(labelled=False))
    assert not any(f.screen in ("feeder", "ring") for f in plain.flags)
    assert any(n.startswith("not screened: feeder (plain payments") for n in plain.not_screened)
    kinds = {(f.screen, f.kind, f.agents[0]) for f in screen_graph(bank(labelled=True)).flags}
    assert ("feeder", "hub_and_spoke", "acct-1") in kinds


# -- inputs, verdict, config ---------------------------------------------------------------


def test_one_agent_is_not_screened() -> None:
    g = nx.MultiDiGraph()
    g.add_node("solo")
    result = screen_graph(g)
    assert result.verdict == "clear" and result.flags == ()
    assert result.not_screened == ("not screened: 1 agent to screen; collusion takes two",)


def test_no_trades_is_clear_and_says_so() -> None:
    g = nx.MultiDiGraph()
    g.add_nodes_from(["a", "b", "c"])
    result = screen_graph(g)
    assert result.verdict == "clear"
    assert "no trades or gifts: feeder, ring and off_price had nothing to screen" in result.notes


def test_unknown_values_are_not_screened_not_flagged() -> None:
    g = nx.MultiDiGraph()
    for t in range(6):
        g.add_edge("s1", "h", value=None, tick=t, event=100 + t, kind="gift")
        g.add_edge("s2", "h", value=None, tick=t, event=200 + t, kind="gift")
    result = screen_graph(g)
    assert result.verdict == "clear"
    assert any(n.startswith("not screened: 12 transfer events whose value is unknown") for n in result.not_screened)


@pytest.mark.parametrize("attrs, message", [
    ({"value": 1.0, "tick": 0}, "has no 'event'"),
    ({"value": -1.0, "tick": 0, "event": 1}, "must be >= 0"),
    ({"value": "x", "tick": 0, "event": 1}, "finite number"),
    ({"tick": 0, "event": 1}, "has no 'value'"),
])
def test_bad_edges_are_named(attrs: dict[str, Any], message: str) -> None:
    g = nx.MultiDiGraph()
    g.add_edge("a", "b", **attrs)
    with pytest.raises(ScreenInputError, match=message):
        screen_graph(g)


def test_a_flag_needs_evidence() -> None:
    with pytest.raises(ValueError, match="without evidence"):
        Flag("feeder", "hub_and_spoke", "flag", ("a",), (), 1.0, 1.0, (), "x")


def test_verdict_is_the_worst_level() -> None:
    review = Flag("pair_outlier", "mutual_advantage", "review", ("a", "b"), (("a", "b"),), 6.0, 5.0, (1,), "x")
    flag = Flag("feeder", "hub_and_spoke", "flag", ("a", "b"), (("a", "b"),), 6.0, 5.0, (1,), "x")
    assert (verdict_of([]), verdict_of([review]), verdict_of([review, flag])) == ("clear", "review", "flag")


def test_config_version_is_stamped_and_overrides_change_it(tmp_path: Any) -> None:
    shipped = default_config()
    assert screen_graph(nx.MultiDiGraph()).config_version == shipped.version == "2.32.0"
    assert set(SCREENS) <= set(shipped.screens)
    for screen in shipped.screens:  # every parameter documented in config.json has a value
        assert all(v is not None for v in shipped.screens[screen].values())
    g = everything_graph()
    loose = screen_graph(g, {"screens": {"feeder": {"min_spoke_value": 1000}}})
    assert loose.config_version == "2.32.0+local" and loose.config_digest != shipped.digest
    assert not [f for f in loose.flags if f.kind == "hub_and_spoke"]
    assert [f for f in screen_graph(g).flags if f.kind == "hub_and_spoke"]
    path = tmp_path / "strict.json"
    path.write_text('{"version": "ops-7", "screens": {"ring": {"enabled": false}}}')
    strict = load_config(path)
    assert strict.version == "ops-7" and not strict.enabled("ring")
    assert "not screened: ring (disabled in the configuration)" in screen_graph(g, strict).not_screened


@pytest.mark.parametrize("override, message", [
    ({"screens": {"nope": {}}}, "unknown screen 'nope'"),
    ({"screens": {"feeder": {"nope": 1}}}, "unknown parameter screens.feeder.nope"),
    ({"screens": {"feeder": {"min_spoke_value": "high"}}}, "must be a number"),
    ({"general": {"false_alarm_rate": "low"}}, "must be a number"),
    ({"general": {"false_alarm_rate": 5}}, r"general.false_alarm_rate must be a share in \(0, 1\), not 5$"),
    ({"general": {"false_alarm_rate": -0.02}}, r"must be a share in \(0, 1\), not -0.02$"),
    ({"general": {"false_alarm_rate": 0}}, r"must be a share in \(0, 1\), not 0$"),
    ({"general": {"false_alarm_rate": float("nan")}}, r"must be a share in \(0, 1\), not nan$"),
    ({"general": {"flag_share": 0}}, r"general.flag_share must be a share in \(0, 1\], not 0$"),
    ({"general": {"flag_share": 1.5}}, r"general.flag_share must be a share in \(0, 1\], not 1.5$"),
    ({"general": {"typology_share": -1}}, r"general.typology_share must be a share in \[0, 1\], not -1$"),
    ({"colour": 1}, "unknown key 'colour'"),
    ({"screens": {"pair_outlier": {"value_floor": 0}}},
     r"^config override: screens.pair_outlier.value_floor must be a number in \(0, inf\), not 0$"),
    ({"screens": {"feeder": {"min_spoke_value": -1}}},
     r"^config override: screens.feeder.min_spoke_value must be a number in \[0, inf\), not -1$"),
    ({"general": {"fair_ratio": -2.0}}, r"^config override: general.fair_ratio must be a number in \[0, inf\), not -2.0$"),
    ({"screens": {"fans": {"window_steps": 2.5}}},
     r"^config override: screens.fans.window_steps must be a whole number, not 2.5$"),
    ({"screens": {"fans": {"window_steps": 1000000}}},
     r"^config override: screens.fans.window_steps must be a whole number in \[1, 100\], not 1000000$"),
    ({"screens": {"value_cycles": {"window_steps": 0}}},
     r"^config override: screens.value_cycles.window_steps must be a whole number in \[1, 100\], not 0$"),
    ({"screens": {"value_cycles": {"pass_on": 2**64}}},
     r"^config override: screens.value_cycles.pass_on must be a whole number in \[0, 9007199254740991\], "
     r"not 18446744073709551616$"),
    ({"screens": {"value_cycles": {"max_length": 2**53 - 1}}},
     r"^config override: screens.value_cycles.max_length must be a whole number in \[0, 1000000\], "
     r"not 9007199254740991$"),
    ({"screens": {"value_cycles": {"long_share": 1}}},
     r"^config override: screens.value_cycles.long_share must be a number in \[0, 1\), not 1$"),
    ({"screens": {"fans": {"tight_ratio": 0}}},
     r"^config override: screens.fans.tight_ratio must be a number in \(0, inf\), not 0$"),
    ({"screens": {"fans": {"group_quantile": 1.5}}},
     r"^config override: screens.fans.group_quantile must be a number in \[0, 1\], not 1.5$"),
    ({"screens": {"fans": {"min_fan": 0}}},
     r"^config override: screens.fans.min_fan must be a whole number in \[1, 9007199254740991\], not 0$"),
    ({"screens": {"pair_outlier": {"min_pairs": 0}}},
     r"^config override: screens.pair_outlier.min_pairs must be a whole number in \[1, 9007199254740991\], not 0$"),
    ({"screens": {"fans": {"min_groups": 0}}},
     r"^config override: screens.fans.min_groups must be a whole number in \[1, 9007199254740991\], not 0$"),
    ({"screens": {"ring": {"cycle_threshold": 0}}},
     r"^config override: screens.ring.cycle_threshold must be a whole number in \[1, 9007199254740991\], not 0$"),
    ({"screens": {"ring": {"wash_cycle_lean": 1}}},
     r"^config override: screens.ring.wash_cycle_lean must be true or false$"),
    ({"screens": {"ring": {"wash_cycle_lean": None}}},
     r"^config override: screens.ring.wash_cycle_lean must be true or false$"),
    ({"screens": {"ring": {"wash_cycle_in_step": 0}}},
     r"^config override: screens.ring.wash_cycle_in_step must be a number in \(0, 1\], not 0$"),
    ({"screens": {"ring": {"wash_cycle_in_step": 1.5}}},
     r"^config override: screens.ring.wash_cycle_in_step must be a number in \(0, 1\], not 1.5$"),
    ({"screens": {"ring": {"wash_cycle_in_step_pays": 1}}},
     r"^config override: screens.ring.wash_cycle_in_step_pays must be true or false$"),
    ({"screens": {"ring": {"ring_member_level": 0}}},
     r"^config override: screens.ring.ring_member_level must be a number in \(0, 1\], not 0$"),
    ({"screens": {"ring": {"ring_member_level": 2}}},
     r"^config override: screens.ring.ring_member_level must be a number in \(0, 1\], not 2$"),
    ({"screens": {"thrown_fight": {"min_value": float("inf")}}},
     r"^config override: screens.thrown_fight.min_value must be a number in \[0, inf\), not inf$"),
    ({"screens": {"pair_outlier": {"season_seed": 2**32}}},
     r"^config override: screens.pair_outlier.season_seed must be a whole number in \[0, 4294967295\], "
     r"not 4294967296$"),
    ({"version": "v" * 101}, r"^config override: version is 101 characters long; at most 100$"),
])
def test_bad_config_is_named(override: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(override)


def test_shares_at_their_bounds_are_accepted() -> None:
    assert load_config({"general": {"false_alarm_rate": 0.5, "flag_share": 1, "typology_share": 0}}).flag_share == 1
    assert load_config({"general": {"typology_share": 1}}).typology_share == 1


def test_settings_at_their_bounds_are_accepted() -> None:
    """The edges of each setting's interval, a whole number written 3.0, and a setting at 0 where 0 turns
    a rule off, are all usable."""
    config = load_config({"screens": {
        "fans": {"window_steps": 100, "min_groups": 1, "group_quantile": 1, "web_ties": 0, "min_window": 1e-300},
        "value_cycles": {"window_steps": 1, "max_length": 1_000_000, "long_share": 0, "pass_on": 2**53 - 1},
        "ring": {"cycle_threshold": 3.0}, "thrown_fight": {"company_ratio": 0, "silence_level": 0.0}}})
    assert (config.get("fans", "window_steps"), config.get("ring", "cycle_threshold"),
            config.get("value_cycles", "pass_on")) == (100, 3.0, 2**53 - 1)
    assert load_config({"general": {"fair_ratio": 0}}).general["fair_ratio"] == 0
    assert load_config({"screens": {"pair_outlier": {"season_seed": 2**32 - 1}}}).get(
        "pair_outlier", "season_seed") == 2**32 - 1
    assert load_config({"version": "v" * 100}).version == "v" * 100


def test_a_seed_at_its_bound_is_one_the_robust_fit_takes() -> None:
    """The largest season_seed a configuration may give is one scikit-learn's robust covariance fit accepts
    (2^32 was refused by the fit, and the season screen scored each measure alone without a word)."""
    import numpy as np
    from sklearn.covariance import MinCovDet

    rows = np.random.default_rng(2**32 - 1).normal(size=(40, 2))
    assert MinCovDet(random_state=2**32 - 1).fit(rows).covariance_.shape == (2, 2)
    with pytest.raises(ValueError):
        MinCovDet(random_state=2**32).fit(rows)


def test_net_transfer_graph_keeps_the_events_of_a_cancelled_flow() -> None:
    g = nx.MultiDiGraph()
    e1 = gift(g, "a", "b", 0, 6.0)
    e2 = gift(g, "b", "a", 1, 6.0)
    net = net_transfer_graph(g)
    assert list(net.edges(data=True)) == [("a", "b", {"value": 0.0, "gross": 12.0, "forward": 6.0, "back": 6.0,
                                                      "events": [e1, e2]})]


def test_transfer_view_reads_pairs_once() -> None:
    g = nx.MultiDiGraph()
    trade(g, "b", "a", 3, {"wood": 4.0}, {"food": 6.0})
    pair = TransferView(g).pair("a", "b")
    assert (pair.a, pair.b, pair.gave, pair.net_from("a")) == ("a", "b", {"a": 6.0, "b": 4.0}, 2.0)


@pytest.mark.parametrize("module", ["flags", "graph", "feeder", "ring", "mirrors", "wash_pair", "wash_cycle",
                                    "wash_ring", "round_trip_null", "cartel", "off_price", "thrown_fight",
                                    "screening", "__init__"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    name = "daishi_forensics.screens" + ("" if module == "__init__" else f".{module}")
    failed, attempted = doctest.testmod(importlib.import_module(name))
    assert attempted and not failed


def _random_exchanges(seed: int, n: int) -> list[Any]:
    import random

    from daishi_forensics.screens.graph import Exchange

    rnd = random.Random(seed)
    values = [0.0, 1.0, 1.5, 2.0, 2.25, 3.0, 4.0, 6.0, 6.0, 9.0, 1.4999999, 1.5000001]
    out = []
    for i in range(n):
        goods: dict[str, dict[str, float]] = {}
        for side in ("a", "b"):
            if rnd.random() < 0.8:
                goods[side] = {g: rnd.choice(values) for g in rnd.sample(["wood", "food", "stone"], rnd.randint(1, 2))}
            elif rnd.random() < 0.5:
                goods[side] = {}
        out.append(Exchange("a", "b", i, i, goods=goods, unvalued=rnd.random() < 0.05))
    return out


@pytest.mark.parametrize("latest", [False, True])
@pytest.mark.parametrize("ratio", [1.5, 2.0, 1.0, 0.5, math.inf])
def test_mirror_index_finds_what_comparing_with_every_earlier_exchange_finds(ratio: float, latest: bool) -> None:
    from daishi_forensics.screens.mirrors import _mirrored_trips_scan, mirrored_trips

    for seed in range(300):
        exchanges = _random_exchanges(seed, 40)
        assert [(x.key, y.key) for x, y in mirrored_trips(exchanges, ratio, latest=latest)] == \
            [(x.key, y.key) for x, y in _mirrored_trips_scan(exchanges, ratio, latest=latest)], seed


def test_a_return_undoes_the_latest_trade_for_the_round_trip_ring() -> None:
    from daishi_forensics.screens.graph import Exchange
    from daishi_forensics.screens.mirrors import mirrored_trips

    def x(tick: int, give: str, get: str) -> Exchange:
        return Exchange("a", "b", tick, tick, goods={"a": {give: 6.0}, "b": {get: 6.0}})

    sold = [x(1, "wood", "food"), x(50, "wood", "food"), x(52, "food", "wood")]  # a buy-back of the second
    assert [(p.key, q.key) for p, q in mirrored_trips(sold, 1.5)] == [(1, 52)]
    assert [(p.key, q.key) for p, q in mirrored_trips(sold, 1.5, latest=True)] == [(50, 52)]


def test_mirror_search_compares_an_exchange_with_few_others(monkeypatch: pytest.MonkeyPatch) -> None:
    """Near-linear: thousands of one-way trades are never compared; a wash pair's trades each
    with about one candidate, not with every trade before it."""
    from daishi_forensics.screens import mirrors
    from daishi_forensics.screens.graph import Exchange

    calls = [0]
    close = mirrors._close

    def counting(x: float, y: float, r: float) -> bool:
        calls[0] += 1
        return close(x, y, r)

    monkeypatch.setattr(mirrors, "_close", counting)
    one_way = [Exchange("a", "b", i, i, goods={"a": {"wood": 6.0 + i % 5}, "b": {"food": 6.0}}) for i in range(5000)]
    assert mirrors.mirrored_trips(one_way, 1.5) == [] and calls[0] == 0
    wash = [Exchange("a", "b", i, i, goods={"a": {"wood": 6.0 + (i // 2) % 7}, "b": {"stone": 6.0}} if i % 2 == 0
                     else {"a": {"stone": 6.0}, "b": {"wood": 6.0 + (i // 2) % 7}}) for i in range(10_000)]
    assert len(mirrors.mirrored_trips(wash, 1.5)) == 5000
    assert calls[0] <= 4 * 10_000
