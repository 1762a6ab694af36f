"""Trade reputation replay, circular reputation, index reputation and wealth, and the estimate.

Rubric 2.4 (seed 000), *Circular reputation (2.4)*.  Default item values: wood 2, food 2,
stone 3, ore 5, plank 5, tool 12.
"""

from __future__ import annotations

from typing import Any

import pytest

from daishi_forensics.economy import reputation as reputation_module
from daishi_forensics.economy.ledger import Ledger, LedgerPass, archived_ledger
from daishi_forensics.economy.reputation import (
    ReputationPass,
    ReputationPoints,
    circular_reputation,
    estimated_points,
    index_reputation_and_wealth,
    points_from_ledger,
)
from daishi_forensics.read.archive import item_values

VALUES = item_values({})


def ev(id_: int, tick: int, type_: str, agent: str | None, payload: dict[str, Any], **envelope: Any) -> dict[str, Any]:
    """One v3 event as the read boundary yields it."""
    return {
        "id": id_,
        "matchId": "m_00000000000b",
        "schemaVersion": 3,
        "tick": tick,
        "type": type_,
        "agentId": agent,
        "private": False,
        "payload": payload,
        **envelope,
    }


def trade(trade_id: str, giver: str, taker: str, give: dict[str, int], receive: dict[str, int]) -> dict[str, Any]:
    return {"tradeId": trade_id, "from": giver, "to": taker, "give": give, "receive": receive}


def replay(events: list[dict[str, Any]]) -> tuple[ReputationPoints, Ledger]:
    reputation, ledger = ReputationPass(), LedgerPass()
    for e in events:
        reputation.observe(e, None)
        ledger.observe(e, None)
    return reputation.result(), ledger.result(VALUES)


T1 = trade("t1", "a_1", "a_2", {"wood": 3}, {"food": 3})  # wood for food
T2 = trade("t2", "a_1", "a_3", {"stone": 2}, {"ore": 1})  # stone for ore ...
T3 = trade("t3", "a_3", "a_1", {"stone": 2}, {"ore": 1})  # ... and the same goods back
T4 = trade("t4", "a_2", "a_4", {"wood": 4}, {})  # a gift
T5 = trade("t5", "a_3", "a_4", {"plank": 2}, {"tool": 1})  # v2, with a synthesized twin

MATCH = [
    ev(1, 3, "trade_completed", "a_2", T1),
    ev(2, 3, "trade_completed", "a_1", T1),
    ev(3, 5, "trade_completed", "a_3", T2),
    ev(4, 5, "trade_completed", "a_1", T2),
    ev(5, 8, "trade_completed", "a_1", T3),
    ev(6, 8, "trade_completed", "a_3", T3),
    ev(7, 9, "trade_completed", "a_4", T4),
    ev(8, 9, "trade_completed", "a_2", T4),
    ev(9, 11, "trade_fulfilled", "a_1", trade("m1", "a_1", "a_2", {"fiber": 2}, {"food": 1})),  # pays nothing
    ev(10, 14, "trade_completed", "a_4", T5),
    ev(10, 14, "trade_completed", "a_3", T5, upcast="offerer"),
]


def test_exported_api_is_pinned() -> None:
    assert reputation_module.__all__ == [
        "PARTNER_POINT_CAP",
        "TOTAL_POINT_CAP",
        "PairPoints",
        "ReputationPoints",
        "ReputationPass",
        "TradePair",
        "circular_reputation",
        "index_reputation_and_wealth",
        "estimated_points",
        "points_from_ledger",
    ]


def test_replay_on_the_hand_built_match() -> None:
    points, _ = replay(MATCH)
    assert points.source == "events" and not points.estimated
    assert points.points_by_pair() == {
        ("a_1", "a_2"): {"a_1": 1, "a_2": 1},  # t1: goods both ways, a point each
        ("a_1", "a_3"): {"a_1": 2, "a_3": 2},  # t2 and t3
        ("a_2", "a_4"): {"a_2": 0, "a_4": 0},  # the gift pays nothing
        ("a_3", "a_4"): {"a_3": 1, "a_4": 1},  # the v2 trade and its twin: one trade, one point each
    }
    assert [p.paying_trade_ids for p in points.pairs] == [("t1",), ("t2", "t3"), (), ("t5",)]
    assert points.totals() == {"a_1": 3, "a_2": 1, "a_3": 3, "a_4": 1}


def test_circular_and_index_on_the_hand_built_match() -> None:
    points, ledger = replay(MATCH)
    # net shares: (a_1, a_2) 1.0, (a_1, a_3) 0.0 (same goods back and forth), (a_2, a_4) 1.0, (a_3, a_4) 1.0
    # a_1: 1 x (1 - 1.0) + 2 x (1 - 0.0) = 2.0;  a_3: 2 x (1 - 0.0) + 1 x (1 - 1.0) = 2.0;  a_2, a_4: 0
    circular = circular_reputation(points.points_by_pair(), ledger.net_shares())
    assert circular == {"a_1": 2.0, "a_2": 0.0, "a_3": 2.0, "a_4": 0.0}
    assert circular_reputation(points, ledger.net_shares()) == circular  # the record is accepted as is
    # a_1 ended with reputation 3 and wealth 100: 3 - 2 = 1.0, 100 - 2 x 2 = 96.0
    assert index_reputation_and_wealth(3, 100.0, circular["a_1"]) == (1.0, 96.0)
    # a_2's circular reputation is 0: both as archived
    assert index_reputation_and_wealth(4, 80.5, circular["a_2"]) == (4.0, 80.5)


def test_the_contract_report_example() -> None:
    # contract §4b: reputation 20, wealth 305.0, circular 4.14 -> 15.86 and 305 - 8.28 = 296.72
    assert index_reputation_and_wealth(20, 305.0, 4.14) == (15.86, 296.72)
    # negative reputation stays as archived when nothing is circular
    assert index_reputation_and_wealth(-3, 12.25, 0.0) == (-3.0, 12.25)


# The hub h trades wood for food with p1..p5.  Each row is one trade, written out; the
# helper logs it twice, acceptor first, as v3 does.
CAPS_ROWS = [
    # (tradeId, from, to, give, receive)
    ("t01", "h", "p1", {"wood": 1}, {"food": 1}),
    ("t02", "p1", "h", {"wood": 1}, {"food": 1}),
    ("t03", "h", "p1", {"wood": 1}, {"food": 1}),
    ("t04", "p1", "h", {"wood": 1}, {"food": 1}),
    ("t05", "h", "p1", {"wood": 1}, {"food": 1}),  # h and p1 each paid 5 with the other now
    ("t06", "p1", "h", {"wood": 1}, {"food": 1}),  # 6th with p1: pays neither (5 per partner)
    ("t07", "h", "p2", {"wood": 1}, {"food": 1}),
    ("t08", "h", "p2", {"wood": 1}, {"food": 1}),
    ("t09", "h", "p2", {"wood": 1}, {"food": 1}),
    ("t10", "h", "p2", {"wood": 1}, {"food": 1}),
    ("t11", "h", "p2", {"wood": 1}, {"food": 1}),  # h: 10
    ("t12", "h", "p3", {"wood": 1}, {"food": 1}),
    ("t13", "h", "p3", {"wood": 1}, {"food": 1}),
    ("t14", "h", "p3", {"wood": 1}, {"food": 1}),
    ("t15", "h", "p3", {"wood": 1}, {"food": 1}),
    ("t16", "h", "p3", {"wood": 1}, {"food": 1}),  # h: 15
    ("t17", "h", "p4", {"wood": 1}, {"food": 1}),
    ("t18", "h", "p4", {"wood": 1}, {"food": 1}),
    ("t19", "h", "p4", {"wood": 1}, {"food": 1}),  # h: 18
    ("t20", "h", "p5", {"wood": 1}, {"food": 1}),
    ("t21", "p5", "h", {"wood": 1}, {"food": 1}),  # h: 20, the cap in all
    ("t22", "h", "p5", {"wood": 1}, {"food": 1}),  # pays p5 only
    ("t23", "h", "p4", {"wood": 1}, {"food": 1}),  # pays p4 only
    ("t24", "h", "p4", {"wood": 1}, {"food": 1}),  # pays p4 only (its 5th with h)
    ("t25", "h", "p1", {"wood": 1}, {}),  # a gift: pays nothing
]


def caps_match() -> list[dict[str, Any]]:
    events = []
    for i, (trade_id, giver, taker, give, receive) in enumerate(CAPS_ROWS):
        payload = trade(trade_id, giver, taker, give, receive)
        events.append(ev(2 * i + 1, i, "trade_completed", taker, payload))
        events.append(ev(2 * i + 2, i, "trade_completed", giver, payload))
    return events


def test_the_5_per_partner_and_20_in_all_caps() -> None:
    points, _ = replay(caps_match())
    assert points.points_by_pair() == {
        ("h", "p1"): {"h": 5, "p1": 5},  # t06 and the gift t25 paid nothing
        ("h", "p2"): {"h": 5, "p2": 5},
        ("h", "p3"): {"h": 5, "p3": 5},
        ("h", "p4"): {"h": 3, "p4": 5},  # h hit 20 before t23, t24
        ("h", "p5"): {"h": 2, "p5": 3},  # h hit 20 after t21
    }
    assert points.totals()["h"] == 20
    assert points.pairs[0].paying_trade_ids == ("t01", "t02", "t03", "t04", "t05")
    assert points.pairs[3].paying_trade_ids == ("t17", "t18", "t19", "t23", "t24")


def test_circular_reputation_on_the_caps_match() -> None:
    points, ledger = replay(caps_match())
    # net shares from the ledger (h's side):
    #   p1: wood gave 3 + 1 (gift) = 4, got 3; food got 3, gave 3:
    #       (|3-4| x 2 + 0) / ((3+4) x 2 + (3+3) x 2) = 2 / 26 = 0.0769... -> 0.077
    #   p2, p3, p4: wood only out, food only in -> 1.0
    #   p5: wood gave 2, got 1; food got 2, gave 1: (2 + 2) / (6 + 6) = 0.333...-> 0.333
    assert ledger.net_shares() == {
        ("h", "p1"): 0.077,
        ("h", "p2"): 1.0,
        ("h", "p3"): 1.0,
        ("h", "p4"): 1.0,
        ("h", "p5"): 0.333,
    }
    circular = circular_reputation(points.points_by_pair(), ledger.net_shares())
    # h:  5 x (1 - 0.077) + 2 x (1 - 0.333) = 4.615 + 1.334 = 5.949
    # p1: 5 x 0.923 = 4.615;  p5: 3 x 0.667 = 2.001;  p2, p3, p4: 0
    assert circular == {"h": 5.949, "p1": 4.615, "p2": 0.0, "p3": 0.0, "p4": 0.0, "p5": 2.001}
    # h ended with reputation 20 and wealth 150: 20 - 5.949 = 14.051, 150 - 11.898 = 138.102
    assert index_reputation_and_wealth(20, 150.0, circular["h"]) == (14.051, 138.102)


def test_estimated_points_scale_in_proportion() -> None:
    _, ledger = replay(caps_match())
    # trades per pair: p1 7 (6 + the gift), p2 5, p3 5, p4 5, p5 3.
    # h: min(7,5) + 5 + 5 + 5 + 3 = 23 > 20, so each is x 20/23: 5 -> 100/23, 3 -> 60/23.
    # Each partner's own sum is at most 5: unscaled.
    estimate = estimated_points(ledger.pairs)
    assert estimate.estimated and estimate.source == "estimate"
    by_pair = estimate.points_by_pair()
    assert by_pair[("h", "p1")] == {"h": 5 * 20 / 23, "p1": 5}
    assert by_pair[("h", "p5")] == {"h": 3 * 20 / 23, "p5": 3}
    assert estimate.totals()["h"] == pytest.approx(20.0)
    circular = circular_reputation(estimate, ledger.net_shares())
    # h: 100/23 x 0.923 + 60/23 x 0.667 = (92.3 + 40.02) / 23 = 132.32 / 23 = 5.75304... -> 5.753
    # (against 5.949 replayed: the estimate spreads h's 20 points over all five partners)
    assert circular == {"h": 5.753, "p1": 4.615, "p2": 0.0, "p3": 0.0, "p4": 0.0, "p5": 2.001}


def test_estimate_below_the_cap_is_min_trades_5() -> None:
    archive = {"ledger": {"pairs": [{"a": "x", "b": "y", "trades": 9, "netShare": 0.5},
                                    {"a": "x", "b": "z", "trades": 2, "netShare": 0.0}]}}
    points = points_from_ledger(archived_ledger(archive))  # no rep: estimated
    assert points.estimated and points.source == "estimate"
    assert points.points_by_pair() == {("x", "y"): {"x": 5, "y": 5}, ("x", "z"): {"x": 2, "z": 2}}


def test_the_archive_ledger_rep_is_used_when_present() -> None:
    archive = {
        "ledger": {
            "pairs": [{"a": "a_1", "b": "a_2", "trades": 6, "netShare": 0.412, "rep": {"a_1": 5, "a_2": 4}}],
            "commons": {},
        }
    }
    block = archived_ledger(archive)
    assert block is not None
    points = points_from_ledger(block)
    assert points.source == "ledger" and not points.estimated
    circular = circular_reputation(points, block.net_shares())
    # a_1: 5 x (1 - 0.412) = 5 x 0.588 = 2.94;  a_2: 4 x 0.588 = 2.352
    assert circular == {"a_1": 2.94, "a_2": 2.352}
    # a_1 archived reputation 7, wealth 321.02: 7 - 2.94 = 4.06, 321.02 - 5.88 = 315.14
    assert index_reputation_and_wealth(7, 321.02, circular["a_1"]) == (4.06, 315.14)


def test_a_quarter_point_rounds_up_on_the_double() -> None:
    # Estimated points can be fractions: 8 partners of 4 trades sum to 32, scaled x 20/32,
    # so 4 -> 2.5 each.  With a pair net share of 0.975: 2.5 x 0.025 = 0.0625 on paper;
    # as doubles 1 - 0.975 = 0.025000000000000022, x 2.5 = 0.06250000000000006 -> 0.063.
    class Pair:
        def __init__(self, a: str, b: str, trades: int) -> None:
            self.a, self.b, self.trades = a, b, trades

    estimate = estimated_points([Pair("h", f"q{i}", 4) for i in range(8)])
    assert estimate.points_by_pair()[("h", "q0")] == {"h": 2.5, "q0": 4}
    shares = {("h", f"q{i}"): 1.0 for i in range(8)} | {("h", "q0"): 0.975}
    assert circular_reputation(estimate, shares)["h"] == 0.063


def test_circular_needs_a_net_share_for_every_paying_pair() -> None:
    with pytest.raises(ValueError):
        circular_reputation({("a", "b"): {"a": 1, "b": 1}}, {})
