"""The feeder screen's feeds paid in trades alone: the honest reading a hub of them says, who else handed over what
its payers bought, and ``trade_feeds_review`` (such a feed raised for review at most). Hand-built transfer graphs,
exact p-values."""

from __future__ import annotations

import networkx as nx

from daishi_forensics.screens import Flag, load_config, screen_graph
from daishi_forensics.screens.config import ScreenConfig

REVIEW = load_config({"screens": {"feeder": {"trade_feeds_review": True}}})
"""A feed paid in trades alone reaches ``review`` at most."""
FLAG = load_config({"screens": {"feeder": {"trade_feeds_review": False}}})
"""Every feed may reach ``flag`` (as shipped)."""


def _fair_trades(g: nx.MultiDiGraph) -> None:
    """Six honest seats trading fairly in a ring, three trades a pair (10 for 10): the match's typical exchange."""
    for i, a in enumerate("abcdef"):
        b = "abcdef"[(i + 1) % 6]
        for k in range(3):
            x = f"x{a}{b}{k}"
            g.add_edge(a, b, value=10.0, tick=100 + 10 * i + k, event=f"{x}a", exchange=x, goods={"wood": 10.0})
            g.add_edge(b, a, value=10.0, tick=100 + 10 * i + k, event=f"{x}b", exchange=x, goods={"stone": 10.0})


def _buys(g: nx.MultiDiGraph, buyer: str, seller: str = "s", n: int = 12) -> None:
    """``buyer`` pays ``seller`` two whole tools for one fiber ``n`` times (a tool is 12: one trade of x and y)."""
    for t in range(1, n + 1):
        g.add_edge(buyer, seller, value=24.0, tick=t, event=f"{buyer}{t}a", exchange=f"{buyer}{t}", goods={"tool": 24.0})
        g.add_edge(seller, buyer, value=2.0, tick=t, event=f"{buyer}{t}b", exchange=f"{buyer}{t}", goods={"fiber": 2.0})


def _gives(g: nx.MultiDiGraph, giver: str, taker: str = "s", n: int = 12) -> None:
    """``giver`` hands ``taker`` ``n`` gifts of a tool and a half (22)."""
    for t in range(1, n + 1):
        g.add_edge(giver, taker, value=22.0, tick=t, event=f"{giver}{t}g", kind="gift", goods={"plank": 22.0})


def _market(*spokes: tuple[str, str]) -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    g.add_edge("x", "y", value=12.0, tick=0, event="e0a", exchange="e0", goods={"tool": 12.0})
    g.add_edge("y", "x", value=12.0, tick=0, event="e0b", exchange="e0", goods={"wood": 12.0})
    for spoke, how in spokes:
        (_buys if how == "trades" else _gives)(g, spoke)
    _fair_trades(g)
    return g


def _feeder(g: nx.MultiDiGraph, config: ScreenConfig) -> Flag:
    [flag] = [f for f in screen_graph(g, config).flags if f.screen == "feeder"]
    return flag


READING = ("Each spoke's one-sided exchanges its way were trades in which it paid s more than one whole item beyond "
           "what it got: a seat selling goods its buyers lacked and could get nowhere else, asking each that much every "
           "time, would look the same. In this match no other seat handed anyone fiber.")


def test_as_shipped_a_feed_paid_in_trades_may_reach_flag() -> None:
    """The setting's gate fell short on one criterion (planted feeder pairs at flag 5.07% fewer, 5% allowed)."""
    assert load_config().screens["feeder"]["trade_feeds_review"] is False
    assert _feeder(_market(("p", "trades"), ("q", "trades")), load_config()).level == "flag"


def test_a_hub_paid_in_trades_alone_is_raised_for_review_and_says_what_honest_seller_looks_the_same() -> None:
    """Two buyers each pay the fiber's only holder two whole tools for one fiber twelve times (each pair 2/4096): a
    hub of two feeds, at flag when every feed may reach it, and for review when feeds paid in trades may not; the
    same p-values, the same pairs, and the honest reading either way.  Adjusted by hand: the feeder's two tests
    (2/4096 each) under Holm, at the feeder's half of the rate (two screens share it; four tests counted): 2 x 2 x
    2/4096 = 8/4096 on the match's scale."""
    g = _market(("p", "trades"), ("q", "trades"))
    flagged, reviewed = _feeder(g, FLAG), _feeder(g, REVIEW)
    assert (flagged.kind, flagged.level, reviewed.kind, reviewed.level) == ("hub_and_spoke", "flag", "hub_and_spoke",
                                                                             "review")
    for f in (flagged, reviewed):
        assert (f.agents, f.p_value, f.p_adjusted, f.tests) == (("s", "p", "q"), 2 / 4096, 8 / 4096, 4)
        assert f.details["honestReading"] == READING and f.details["otherSuppliers"] == {"fiber": []}
        assert f"the chance quoted is its least unusual spoke's, p's. {READING} Chance under honest play" in f.explanation


def test_a_hub_with_one_spoke_paid_in_gifts_is_for_review_when_the_other_paid_in_trades() -> None:
    """q gives s twelve gifts, p buys from s in trades: the hub's flag rests on both spokes, and p's is for review at
    most, so the hub is too; it says no honest reading (a gift has none)."""
    g = _market(("p", "trades"), ("q", "gifts"))
    flagged, reviewed = _feeder(g, FLAG), _feeder(g, REVIEW)
    assert (flagged.kind, flagged.level, reviewed.level) == ("hub_and_spoke", "flag", "review")
    assert flagged.agents == reviewed.agents == ("s", "p", "q")
    assert "honestReading" not in reviewed.details and "would look the same" not in reviewed.explanation
    assert [s["oneWayTrades"] for s in reviewed.details["spokes"]] == [12, 0]


def test_a_hub_of_gifts_is_flagged_either_way() -> None:
    g = _market(("p", "gifts"), ("q", "gifts"))
    assert _feeder(g, FLAG).level == _feeder(g, REVIEW).level == "flag"
    assert "honestReading" not in _feeder(g, REVIEW).details


def test_a_hub_names_the_other_seats_that_handed_over_what_its_spokes_bought() -> None:
    """x sold y fiber and p (a spoke) paid a fiber to a in a fair trade: both named, p as a spoke."""
    g = _market(("p", "trades"), ("q", "trades"))
    g.add_edge("x", "y", value=2.0, tick=60, event="e60a", exchange="e60", goods={"fiber": 2.0})
    g.add_edge("y", "x", value=2.0, tick=60, event="e60b", exchange="e60", goods={"wood": 2.0})
    g.add_edge("p", "a", value=2.0, tick=61, event="e61a", exchange="e61", goods={"fiber": 2.0})
    g.add_edge("a", "p", value=2.0, tick=61, event="e61b", exchange="e61", goods={"wood": 2.0})
    hub = _feeder(g, REVIEW)
    assert (hub.kind, hub.level) == ("hub_and_spoke", "review")
    assert hub.details["otherSuppliers"] == {"fiber": ["p", "x"]}
    assert hub.details["honestReading"].endswith(
        "would look the same. In this match 2 other seats handed over fiber too: x and p (a spoke).")


def test_a_hub_paid_in_trades_that_a_pooled_test_of_gifts_also_finds_says_no_honest_reading() -> None:
    """Beside the two buyers, r1 and r2 each hand s five gifts (each pair alone 2/32; pooled with s, significant):
    the hub's spokes now include seats that gave, so the reading of a seller paid in trades is not said."""
    g = _market(("p", "trades"), ("q", "trades"))
    for r in ("r1", "r2"):
        _gives(g, r, n=5)
    hub = _feeder(g, FLAG)
    assert (hub.kind, hub.agents[0], set(hub.agents[1:])) == ("hub_and_spoke", "s", {"p", "q", "r1", "r2"})
    assert hub.details["pooledSpokes"] == ["r1", "r2"]
    assert "honestReading" not in hub.details and "would look the same" not in hub.explanation


def test_a_hub_read_without_whole_items_says_its_spokes_paid_more_than_what_they_got_was_worth() -> None:
    """With every trade read at its values (whole_items false), the hub's reading says what its spokes' readings
    say: paid more than what it got was worth."""
    hub = _feeder(_market(("p", "trades"), ("q", "trades")), load_config({"screens": {"feeder": {"whole_items": False}}}))
    assert hub.kind == "hub_and_spoke"
    assert hub.details["honestReading"].startswith(
        "Each spoke's one-sided exchanges its way were trades in which it paid s more than what it got was worth: ")
