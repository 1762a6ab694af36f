"""The feeder screen's pooled hub test (rule 5, on as shipped over gifts alone): hand-built transfer graphs, exact
p-values."""

from __future__ import annotations

import networkx as nx

from daishi_forensics.screens import load_config, screen_graph
from daishi_forensics.screens.feeder import HUB_GIFTS_NULL, bound_partners, feeds
from daishi_forensics.screens.graph import TransferView

ON = load_config()
"""The shipped configuration: the pooled test on, over gifts alone."""
OFF = load_config({"screens": {"feeder": {"hub_pool": False}}})
"""The pooled test off (configuration 2.27.0's feeder)."""
ALL = load_config({"screens": {"feeder": {"hub_pool_trades": True}}})
"""The pooled test over every one-sided exchange (configuration 2.26.0's rule 5, turned on)."""
PARAMS = {"min_directionality": 0.6, "min_spoke_value": 1.0, "min_giver_share": 1 / 3, "hub_pool": True,
          "hub_bound_share": 0.5, "whole_items": True}


def _gifts(G: nx.MultiDiGraph, giver: str, taker: str, n: int, value: float = 10.0, start: int = 0) -> None:
    for i in range(n):
        G.add_edge(giver, taker, value=value, tick=start + i, event=f"{giver}>{taker}#{start + i}", kind="gift")


def _trades(G: nx.MultiDiGraph, a: str, b: str, n: int, start: int = 100) -> None:
    """``n`` fair trades (10 for 10): no one-sided exchange, a typical exchange value for the match."""
    for i in range(n):
        x = f"x{a}{b}{start + i}"
        G.add_edge(a, b, value=10.0, tick=start + i, event=f"{x}a", exchange=x, goods={"wood": 10.0})
        G.add_edge(b, a, value=10.0, tick=start + i, event=f"{x}b", exchange=x, goods={"stone": 10.0})


def _hub_match() -> nx.MultiDiGraph:
    """Two spokes hand the hub five gifts each; six honest seats trade fairly among themselves and with the spokes."""
    G = nx.MultiDiGraph()
    _gifts(G, "s1", "h", 5)
    _gifts(G, "s2", "h", 5, start=10)
    honest = ["a", "b", "c", "d", "e", "f"]
    for i, x in enumerate(honest):
        _trades(G, x, honest[(i + 1) % len(honest)], 3, start=100 + 10 * i)
    _trades(G, "s1", "a", 2, start=200)
    _trades(G, "s2", "b", 2, start=210)
    return G


def test_each_spoke_alone_is_no_feed_but_the_pooled_hub_is() -> None:
    """Five gifts one way: 2/32 a pair; ten pooled at the hub: 2/1024, under the screens' share of the rate."""
    G = _hub_match()
    found, tests = feeds(TransferView(G), PARAMS)
    ps = {t.key: t.p_value for t in tests}
    assert ps[("feeder", "h", "s1")] == ps[("feeder", "h", "s2")] == 2 / 32
    assert ps[("feeder.hub", "h")] == 2 / 1024
    result = screen_graph(G, ON)
    [flag] = [f for f in result.flags if f.screen == "feeder"]
    assert (flag.kind, flag.agents, flag.p_value) == ("hub_and_spoke", ("h", "s1", "s2"), 2 / 1024)
    assert flag.details["pooled"] is True
    assert flag.details["boundPartners"] == ["s1", "s2"]
    assert (flag.details["oneWayExchanges"], flag.details["oneSidedExchanges"]) == (10, 10)
    assert [s["agent"] for s in flag.details["spokes"]] == ["s1", "s2"]
    assert flag.pairs == (("h", "s1"), ("h", "s2"))
    assert len(flag.evidence) == 10


def test_with_the_pooled_test_off_the_spokes_alone_raise_nothing() -> None:
    assert (load_config().get("feeder", "hub_pool"), load_config().get("feeder", "hub_pool_trades")) == (True, False)
    result = screen_graph(_hub_match(), OFF)
    assert [f for f in result.flags if f.screen == "feeder"] == []
    assert result.testing["family"] == screen_graph(_hub_match(), ON).testing["family"] - 1


def test_which_seats_are_pooled_is_read_from_sizes_not_directions() -> None:
    """Reversing every gift leaves the bound partners as they were (the test's exactness rests on it)."""
    G, R = nx.MultiDiGraph(), nx.MultiDiGraph()
    for giver, taker, n in (("s1", "h", 4), ("s2", "h", 3), ("h", "s2", 2), ("t", "h", 1), ("t", "u", 3)):
        _gifts(G, giver, taker, n, start=10 * len(G.edges))
        _gifts(R, taker, giver, n, start=10 * len(R.edges))
    bound = bound_partners(TransferView(G), 0.6, 0.5)
    assert bound == bound_partners(TransferView(R), 0.6, 0.5)
    # t does a quarter of its one-sided trading with h (1 of 4 gifts): not bound to it
    assert [g for g, _key in bound["h"]] == ["s1", "s2"]


def test_a_hub_whose_bound_partners_give_both_ways_is_not_raised() -> None:
    """Pooled: 5 + 5 gifts to h, 5 + 5 from it: the sum is 0, p = 1."""
    G = _hub_match()
    _gifts(G, "h", "s1", 5, start=300)
    _gifts(G, "h", "s2", 5, start=310)
    found, tests = feeds(TransferView(G), PARAMS)
    assert {t.key: t.p_value for t in tests}[("feeder.hub", "h")] == 1.0
    assert not [c for c in found if c.flag.details.get("pooled")]


def test_one_bound_partner_is_no_pooled_test() -> None:
    G = nx.MultiDiGraph()
    _gifts(G, "s1", "h", 12)
    _trades(G, "a", "b", 3)
    _, tests = feeds(TransferView(G), PARAMS)
    assert [t.key for t in tests] == [("feeder", "h", "s1")]


def test_a_significant_feed_joins_the_pooled_flag_as_a_spoke() -> None:
    """s3 hands h twelve gifts (2/4096 alone) and keeps half its one-sided trading elsewhere (bound to no one):
    the pooled flag of s1 and s2 names it too; one flag for the hub."""
    G = _hub_match()
    _gifts(G, "s3", "h", 12, start=400)
    _gifts(G, "s3", "c", 12, value=9.0, start=500)
    _gifts(G, "c", "s3", 12, value=9.0, start=600)
    result = screen_graph(G, ON)
    feeder = [f for f in result.flags if f.screen == "feeder"]
    assert [(f.kind, f.agents) for f in feeder] == [("hub_and_spoke", ("h", "s3", "s1", "s2"))]
    [flag] = feeder
    assert flag.p_value == 2 / 1024
    assert "ran its way; beside them, s3 fed it one way on its own (significant alone). Chance under" in flag.explanation
    assert [s["agent"] for s in flag.details["spokes"]] == ["s3", "s1", "s2"]


def test_spokes_significant_alone_make_one_flag_either_way() -> None:
    """Twelve gifts from each of two spokes: each pair 2/4096 alone, pooled 2/2^24; one hub flag with the
    pooled test on and off, rule 4's (its chance its weakest spoke's), ``flag``: the pooled test names no
    other spoke."""
    G = nx.MultiDiGraph()
    _gifts(G, "s1", "h", 12)
    _gifts(G, "s2", "h", 12, start=20)
    for i, x in enumerate("abcdef"):
        _trades(G, x, "abcdef"[(i + 1) % 6], 3, start=100 + 10 * i)
    on = [f for f in screen_graph(G, ON).flags if f.screen == "feeder"]
    off = [f for f in screen_graph(G, OFF).flags if f.screen == "feeder"]
    assert [(f.kind, f.level, f.agents, f.p_value) for f in on] == [("hub_and_spoke", "flag", ("h", "s1", "s2"),
                                                                     2 / 4096)]
    assert "Pooled with" not in on[0].explanation and "pooledSpokes" not in on[0].details
    assert [(f.kind, f.level, f.agents, f.p_value) for f in off] == [("hub_and_spoke", "flag", ("h", "s1", "s2"),
                                                                      2 / 4096)]


def test_the_pooled_test_adds_a_spoke_too_brief_to_stand_out_alone_to_rule_four_s_flag() -> None:
    """s1 and s2 twelve gifts each (2/4096 alone); s3 five (2/32 alone, under any level): rule 4's flag for s1
    and s2, and the pooled test over all 29 gifts (2/2^29) names s3 as well."""
    G = nx.MultiDiGraph()
    _gifts(G, "s1", "h", 12)
    _gifts(G, "s2", "h", 12, start=20)
    _gifts(G, "s3", "h", 5, start=40)
    for i, x in enumerate("abcdef"):
        _trades(G, x, "abcdef"[(i + 1) % 6], 3, start=100 + 10 * i)
    [flag] = [f for f in screen_graph(G, ON).flags if f.screen == "feeder"]
    assert (flag.kind, flag.level, flag.agents, flag.p_value) == ("hub_and_spoke", "flag", ("h", "s1", "s2", "s3"),
                                                                  2 / 4096)
    assert flag.pairs == (("h", "s1"), ("h", "s2"), ("h", "s3"))
    assert len(flag.evidence) == 29
    assert "(29 of their 29 gifts with it ran its way, p = 3.73e-09), s3 fed it too." in flag.explanation
    assert [(s["agent"], s["oneWayExchanges"], s["pValue"]) for s in flag.details["spokes"]] == [
        ("s1", 12, 2 / 4096), ("s2", 12, 2 / 4096), ("s3", 5, 2 / 32)]
    assert flag.details["netValue"] == 290.0
    assert flag.details["pooledSpokes"] == ["s3"]


def test_a_beggar_helped_twice_by_each_of_its_helpers_names_no_spoke() -> None:
    """Six seats whose only one-sided trading is food for a beggar, twice each: bound to it, and the twelve
    gifts pooled run its way (2/4096, significant), but none gave three times: no spoke named, no flag."""
    G = nx.MultiDiGraph()
    for i in range(6):
        _gifts(G, f"g{i}", "beggar", 2, value=6.0, start=10 * i)
    for i, x in enumerate("abcdef"):
        _trades(G, x, "abcdef"[(i + 1) % 6], 3, start=100 + 10 * i)
    found, tests = feeds(TransferView(G), PARAMS | {"hub_min_spoke_exchanges": 3})
    assert {t.key: t.p_value for t in tests}[("feeder.hub", "beggar")] == 2 / 4096
    assert not [c for c in found if c.flag.details.get("pooled")]
    assert screen_graph(G, ON).verdict == "clear"
    # with a floor of two, the same gifts name all six
    found, _ = feeds(TransferView(G), PARAMS | {"hub_min_spoke_exchanges": 2})
    assert [c.flag.agents for c in found if c.flag.details.get("pooled")] == [
        ("beggar", "g0", "g1", "g2", "g3", "g4", "g5")]


def _monopolist_graph() -> nx.MultiDiGraph:
    """Three buyers pay the one seat holding fiber two whole tools (24) for one fiber (2), eight times each, and
    trade fairly otherwise."""
    g = nx.MultiDiGraph()
    t = 0
    g.add_edge("x", "y", value=12.0, tick=t, event="e0a", exchange="e0", goods={"tool": 12.0})
    g.add_edge("y", "x", value=12.0, tick=t, event="e0b", exchange="e0", goods={"wood": 12.0})
    for _ in range(8):
        for buyer in ("p", "q", "r"):
            for seller, gave, got in (("s", {"tool": 24.0}, {"fiber": 2.0}), ("x", {"wood": 6.0}, {"food": 6.0})):
                t += 1
                g.add_edge(buyer, seller, value=sum(gave.values()), tick=t, event=f"e{t}a", exchange=f"e{t}",
                           goods=gave)
                g.add_edge(seller, buyer, value=sum(got.values()), tick=t, event=f"e{t}b", exchange=f"e{t}",
                           goods=got)
    return g


def test_why_trades_are_not_pooled_as_shipped_a_seller_everyone_overpays_pools_into_a_feed() -> None:
    """Three buyers pay the one seat holding fiber two whole tools (24) for one fiber (2), eight times each, and
    trade fairly otherwise: beyond one whole tool, each such trade is one-sided.  Each pair alone, 2/2^8, stays
    under the alarm level (clear as shipped, where no gift is pooled); with trades pooled, the 24 trades run the
    seller's way, 2/2^24: raised."""
    g = _monopolist_graph()
    assert screen_graph(g).verdict == screen_graph(g, OFF).verdict == "clear"
    every = screen_graph(g, ALL)
    [flag] = [f for f in every.flags if f.screen == "feeder"]
    assert (flag.kind, flag.agents, flag.p_value) == ("hub_and_spoke", ("s", "p", "q", "r"), 2 / 2 ** 24)


GIFTS = PARAMS | {"hub_pool_trades": False}
"""Rule 5 over gifts alone (as shipped, and what a parameter set without ``hub_pool_trades`` means)."""
EVERY = PARAMS | {"hub_pool_trades": True}
"""Rule 5 over every one-sided exchange."""


def test_over_gifts_alone_a_seller_everyone_overpays_is_no_hub() -> None:
    """The same 24 one-sided trades: pooled with every exchange, 2/2^24 at the seller; over gifts alone nothing
    is pooled (no seat made a gift), so no pooled test is made at all."""
    view = TransferView(_monopolist_graph())
    _, every = feeds(view, EVERY)
    assert {t.key: t.p_value for t in every}[("feeder.hub", "s")] == 2 / 2 ** 24
    assert bound_partners(view, 0.6, 0.5, whole_items=True, trades=False) == {}
    found, gifts = feeds(TransferView(_monopolist_graph()), GIFTS)
    assert [t.key for t in gifts if t.key[0] == "feeder.hub"] == []
    assert not [c for c in found if c.flag.details.get("pooled")]


def test_over_gifts_alone_the_gifts_are_pooled_and_the_trades_are_not() -> None:
    """s1 and s2 hand h five gifts each and trade it three tools for a token wood (one-sided beyond one whole tool,
    a tool's worth read from the match) four times each.  Every exchange pooled: 18 one-sided exchanges, 2/2^18; gifts alone: the 10
    gifts, 2/1024, and the flag names the gifts as its evidence."""
    G = _hub_match()
    t = 300
    for s in ("s1", "s2"):
        for _ in range(4):
            t += 1
            G.add_edge(s, "h", value=36.0, tick=t, event=f"t{t}a", exchange=f"t{t}", goods={"tool": 36.0})
            G.add_edge("h", s, value=2.0, tick=t, event=f"t{t}b", exchange=f"t{t}", goods={"wood": 2.0})
    G.add_edge("x", "y", value=12.0, tick=0, event="f0a", exchange="f0", goods={"tool": 12.0})  # a tool is 12
    G.add_edge("y", "x", value=12.0, tick=0, event="f0b", exchange="f0", goods={"wood": 12.0})
    _, every = feeds(TransferView(G), EVERY)
    assert {t.key: t.p_value for t in every}[("feeder.hub", "h")] == 2 / 2 ** 18
    found, gifts = feeds(TransferView(G), GIFTS)
    assert {t.key: t.p_value for t in gifts}[("feeder.hub", "h")] == 2 / 1024
    assert {t.key: t.p_value for t in feeds(TransferView(G), PARAMS)[1]}[("feeder.hub", "h")] == 2 / 1024
    [flag] = [c.flag for c in found if c.flag.details.get("pooled")]
    assert (flag.agents, flag.details["oneWayExchanges"], flag.details["oneSidedExchanges"]) == (("h", "s1", "s2"),
                                                                                                  10, 10)
    assert all(e.startswith(("s1>h#", "s2>h#")) for e in flag.evidence) and len(flag.evidence) == 10
    assert flag.null == HUB_GIFTS_NULL and flag.details["pooledOver"] == "gifts"
    assert flag.explanation.endswith("pooled over the 2 seats bound to it, 10 of their 10 gifts with it ran its way.")


def test_over_gifts_alone_a_partner_is_bound_by_its_gifts() -> None:
    """s1 gives h three gifts and gives no one else any, while trading fairly elsewhere: bound to h over gifts
    alone; s2, whose gifts go mostly to u, is not."""
    G = nx.MultiDiGraph()
    _gifts(G, "s1", "h", 3)
    _gifts(G, "s3", "h", 3, start=5)
    _gifts(G, "s2", "h", 1, start=10)
    _gifts(G, "s2", "u", 3, start=20)
    _trades(G, "s1", "a", 4)
    bound = bound_partners(TransferView(G), 0.6, 0.5, trades=False)
    assert [g for g, _key in bound["h"]] == ["s1", "s3"]


def _buys_fiber(g: nx.MultiDiGraph) -> None:
    """p pays s two whole tools (a tool is 12) for one fiber twelve times; six other seats trade fairly in a ring."""
    for t in range(1, 13):
        g.add_edge("p", "s", value=24.0, tick=t, event=f"e{t}a", exchange=f"e{t}", goods={"tool": 24.0})
        g.add_edge("s", "p", value=2.0, tick=t, event=f"e{t}b", exchange=f"e{t}", goods={"fiber": 2.0})
    for i, x in enumerate("abcdef"):
        _trades(g, x, "abcdef"[(i + 1) % 6], 3, start=100 + 10 * i)


def test_a_one_way_feed_made_of_trades_alone_says_what_honest_seller_would_look_the_same() -> None:
    """One buyer pays the fiber's holder two whole tools for one fiber twelve times (2/4096): a one-way feed for
    review, every one of its one-sided exchanges a trade, so the flag names the honest reading beside it; the
    same value handed over as gifts names none."""
    g = nx.MultiDiGraph()
    g.add_edge("x", "y", value=12.0, tick=0, event="e0a", exchange="e0", goods={"tool": 12.0})
    g.add_edge("y", "x", value=12.0, tick=0, event="e0b", exchange="e0", goods={"wood": 12.0})
    _buys_fiber(g)
    [flag] = [f for f in screen_graph(g).flags if f.screen == "feeder"]
    assert (flag.kind, flag.level, flag.agents, flag.p_value) == ("one_way_feed", "review", ("s", "p"), 2 / 4096)
    assert (flag.details["oneWayExchanges"], flag.details["oneWayTrades"]) == (12, 12)
    reading = ("Each of the 12 was a trade in which p paid s more than one whole item beyond what it got: a seat "
               "selling a good p lacked and could get nowhere else, asking that much every time, would look the same. "
               "In this match no other seat handed anyone fiber.")
    assert flag.details["honestReading"] == reading and flag.details["otherSuppliers"] == {"fiber": []}
    assert f"; a single feeder, not a hub-and-spoke. {reading} Chance under honest play" in flag.explanation
    G = nx.MultiDiGraph()
    _gifts(G, "p", "s", 12)
    for i, x in enumerate("abcdef"):
        _trades(G, x, "abcdef"[(i + 1) % 6], 3, start=100 + 10 * i)
    [gifted] = [f for f in screen_graph(G).flags if f.screen == "feeder"]
    assert gifted.details["oneWayTrades"] == 0 and "honestReading" not in gifted.details and "otherSuppliers" not in gifted.details
    assert "would look the same" not in gifted.explanation


def test_the_honest_reading_of_a_one_way_feed_names_who_else_handed_over_what_the_payer_bought() -> None:
    """The buyer of the feed above could have had fiber elsewhere (x sold y fiber) and had some to hand on itself
    (it paid a fiber in a fair trade with a): both said beside the honest reading, no verdict changed."""
    g = nx.MultiDiGraph()
    g.add_edge("x", "y", value=12.0, tick=0, event="e0a", exchange="e0", goods={"fiber": 12.0})
    g.add_edge("y", "x", value=12.0, tick=0, event="e0b", exchange="e0", goods={"tool": 12.0})
    g.add_edge("p", "a", value=2.0, tick=50, event="e50a", exchange="e50", goods={"fiber": 2.0})
    g.add_edge("a", "p", value=2.0, tick=50, event="e50b", exchange="e50", goods={"wood": 2.0})
    _buys_fiber(g)
    [flag] = [f for f in screen_graph(g).flags if f.screen == "feeder"]
    assert (flag.kind, flag.level, flag.agents, flag.p_value) == ("one_way_feed", "review", ("s", "p"), 2 / 4096)
    assert flag.details["otherSuppliers"] == {"fiber": ["p", "x"]}
    assert flag.details["honestReading"].endswith(
        "would look the same. In this match 2 other seats handed over fiber too: x and p itself.")
