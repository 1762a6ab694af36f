"""Negotiation: a hand-built match of 17 events, every number worked out by hand below.

Item values (contract §4 defaults): wood 2, stone 3, ore 5, food 2, tool 12.

| trade | offer                         | what happened                      |
| ----- | ----------------------------- | ---------------------------------- |
| t1    | a_1 -> a_2: 3 wood for 2 ore  | completed (a_1 gave 6, got 10)     |
| t2    | a_1 -> a_3: 2 stone for 1 tool| cancelled by a_1                   |
| t3    | a_3 -> a_1: 5 food for 1 wood | left standing                      |
| t4    | a_2 -> a_1: 1 tool for nothing| completed: a gift of 12 to a_1     |
| t5    | (no offer in the log)         | a_3 gave 1 ore (5) for 2 wood (4)  |
| t6    | a_3 market order 4 food/2 stone| filled with a_1                   |

a_1: attempts {t1,t2,t3,t4} = 4, deals {t1,t4} = 2, gave 6, got 10 + 12 = 22,
     surplus 16: per deal 8, per attempt 4; completion 0.5; market fill +2 (got food 8, gave stone 6).
a_2: attempts {t1,t4,t5} = 3, deals 3, gave 10 + 12 + 4 = 26, got 6 + 0 + 5 = 11,
     surplus −15: per deal −5, per attempt −5; completion 1.
a_3: attempts {t2,t3,t5} = 3, deals 1, gave 5, got 4: per deal −1, per attempt −1/3;
     completion 1/3; one market order, fill −2.
Pairs: (a_1, a_2): ΣA = 10 + 12 = 22, ΣB = 6, (22 − 6)/28 = 4/7; (a_2, a_3): ΣA = 5, ΣB = 4 → 1/9.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from daishi_forensics.profile import negotiation as negotiation_module
from daishi_forensics.report.passes import analyze
from daishi_forensics.errors import InvalidInput
from daishi_forensics.profile.negotiation import NegotiationPass, relative_advantage
from daishi_forensics.report.profile import profile_section
from daishi_forensics.read.boundary import read_match
from daishi_forensics.replay import replay
from daishi_forensics.read.sources import open_match
from daishi_forensics.read.archive import item_values

from .matchkit import archive, ev, trade, write_match

AGENTS = ["a_1", "a_2", "a_3"]


def events() -> list[dict]:
    return [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 0, "agent_spawned", "a_3", region="r_0_1"),
        ev(4, 1, "trade_offered", "a_1", tradeId="t1", to="a_2", give={"wood": 3}, receive={"ore": 2}),
        *trade(5, 2, "t1", "a_1", "a_2", {"wood": 3}, {"ore": 2}),
        ev(7, 3, "trade_offered", "a_1", tradeId="t2", to="a_3", give={"stone": 2}, receive={"tool": 1}),
        ev(8, 4, "trade_cancelled", "a_1", tradeId="t2"),
        ev(9, 5, "trade_offered", "a_3", tradeId="t3", to="a_1", give={"food": 5}, receive={"wood": 1}),
        ev(10, 6, "trade_offered", "a_2", tradeId="t4", to="a_1", give={"tool": 1}, receive={}),
        *trade(11, 7, "t4", "a_2", "a_1", {"tool": 1}, {}),
        *trade(13, 8, "t5", "a_3", "a_2", {"ore": 1}, {"wood": 2}),
        ev(15, 9, "trade_offered", "a_3", tradeId="t6", to=None, give={"food": 4}, receive={"stone": 2}),
        ev(16, 10, "trade_fulfilled", "a_3", tradeId="t6", **{"from": "a_3"}, to="a_1",
           give={"food": 4}, receive={"stone": 2}),
        ev(17, 10, "trade_fulfilled", "a_1", tradeId="t6", **{"from": "a_3"}, to="a_1",
           give={"food": 4}, receive={"stone": 2}),
    ]


def run() -> negotiation_module.Negotiation:
    p = NegotiationPass()
    arch = archive(AGENTS, ended=20)
    replay(events(), arch, [p])
    return p.result(item_values(arch))


def test_doctests() -> None:
    assert doctest.testmod(negotiation_module).failed == 0


def test_seat_numbers() -> None:
    n = run()
    a1, a2, a3 = n.seat("a_1"), n.seat("a_2"), n.seat("a_3")
    assert (a1.offers_made, a1.offers_received, a1.offers_cancelled, a1.made_completed, a1.received_completed) == (
        2, 2, 1, 1, 1)
    assert (a1.attempts, a1.deals, a1.value_given, a1.value_received) == (4, 2, 6.0, 22.0)
    assert (a1.completion_rate, a1.surplus_per_deal, a1.surplus_per_attempt) == (0.5, 8.0, 4.0)
    assert (a1.gifts_given, a1.gifts_received) == (0, 1)
    assert (a1.market_orders, a1.market_fills, a1.market_surplus) == (0, 1, 2.0)

    assert (a2.offers_made, a2.offers_received, a2.attempts, a2.deals) == (1, 1, 3, 3)
    assert (a2.value_given, a2.value_received, a2.surplus) == (26.0, 11.0, -15.0)
    assert (a2.completion_rate, a2.surplus_per_deal, a2.surplus_per_attempt) == (1.0, -5.0, -5.0)
    assert a2.gifts_given == 1

    assert (a3.offers_made, a3.offers_received, a3.offers_cancelled, a3.attempts, a3.deals) == (1, 1, 0, 3, 1)
    assert a3.completion_rate == pytest.approx(1 / 3) and a3.surplus_per_attempt == pytest.approx(-1 / 3)
    assert a3.surplus_per_deal == -1.0
    assert (a3.market_orders, a3.market_fills, a3.market_surplus) == (1, 1, -2.0)

    nobody = n.seat("a_9")
    assert (nobody.attempts, nobody.completion_rate, nobody.surplus_per_deal) == (0, None, None)


def test_pairs() -> None:
    pairs = run().pairs
    assert [(p.a, p.b, p.trades) for p in pairs] == [("a_1", "a_2", 2), ("a_2", "a_3", 1)]
    assert (pairs[0].value_a_received, pairs[0].value_b_received) == (22.0, 6.0)
    assert pairs[0].relative_advantage == 16 / 28
    assert pairs[1].relative_advantage == 1 / 9
    assert pairs[0].event_ids == (5, 6, 11, 12)
    assert pairs[0].trade_ids == ("t1", "t4")


def test_relative_advantage_is_antisymmetric() -> None:
    assert relative_advantage(3.0, 1.0) == -relative_advantage(1.0, 3.0)
    assert relative_advantage(0.0, 5.0) == -1.0
    assert relative_advantage(0.0, 0.0) is None


def test_same_numbers_from_every_schema_version(tmp_path: Path) -> None:
    """v2 logs one trade_completed per trade (the reader adds the offerer twin); v1 too."""
    arch = archive(AGENTS, ended=20)
    expected = run()
    for version in (1, 2, 3):
        path = write_match(tmp_path / f"v{version}", events(), arch, version=version)
        analysis = analyze(read_match(open_match(str(path))))
        got = analysis.result("negotiation")
        assert got.seats == expected.seats, version
        assert [p.relative_advantage for p in got.pairs] == [p.relative_advantage for p in expected.pairs]
        # the twin a v3 engine logs has its own id; the upcast v1/v2 twin shares its source's
        ids = [(5, 6, 11, 12), (13, 14)] if version == 3 else [(5, 11), (13,)]
        assert [p.event_ids for p in got.pairs] == ids, version


def test_profile_block(tmp_path: Path) -> None:
    path = write_match(tmp_path, events(), archive(AGENTS, ended=20))
    seats, match = profile_section(analyze(read_match(open_match(str(path)))))
    a3 = seats["a_3"]["negotiation"]
    assert (a3["completionRate"], a3["surplusPerDeal"], a3["surplusPerAttempt"]) == (0.333, -1.0, -0.33)
    assert a3["market"] == {"orders": 1, "fills": 1, "surplus": -2.0}
    assert match["negotiation"]["pairs"][0]["relativeAdvantage"] == 0.571
    assert (match["negotiation"]["deals"], match["negotiation"]["marketFills"]) == (3, 2)


def test_the_analysis_ledger_gives_the_same_numbers(tmp_path: Path) -> None:
    """The report values the trades on the analysis' own ledger; the pass's own reading agrees."""
    for version in (2, 3):
        path = write_match(tmp_path / f"v{version}", events(), archive(AGENTS, ended=20), version=version)
        analysis = analyze(read_match(open_match(str(path))))
        own = analysis["negotiation"].result(analysis.values)
        shared = analysis["negotiation"].result(analysis.values, analysis.result("ledger"))
        assert own == shared, version
        assert own.seats == run().seats


def test_a_malformed_trade_is_refused_as_the_ledger_refuses_it() -> None:
    p = NegotiationPass()
    bad = ev(1, 1, "trade_completed", "a_1", tradeId="t1", to="a_2", give={"wood": 1}, receive={})
    with pytest.raises(InvalidInput):
        p.observe(bad, None)  # no "from"
