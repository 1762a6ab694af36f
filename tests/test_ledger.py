"""The trade ledger on tiny hand-built matches (rubric 2.4 *Trade ledger*, *Social*, *Counters*).

Default item values (contract §4): wood 2, stone 3, ore 5, food 2, fiber 1, plank 5, tool 12, cloth 6.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from daishi_forensics.economy import ledger as ledger_module
from daishi_forensics.arithmetic import half_up
from daishi_forensics.errors import InvalidInput
from daishi_forensics.economy.ledger import (
    LedgerPair,
    LedgerPass,
    archived_ledger,
    credited_trades,
    net_share,
)
from daishi_forensics.read.archive import item_values

VALUES = item_values({"config": {"engine_version": "0.5.2"}})


def ev(id_: int, tick: int, type_: str, agent: str | None, payload: dict[str, Any], **envelope: Any) -> dict[str, Any]:
    """One v3 event as the read boundary yields it."""
    return {
        "id": id_,
        "matchId": "m_00000000000a",
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


T1 = trade("t1", "a_1", "a_2", {"wood": 3}, {"food": 3})  # wood for food
T2 = trade("t2", "a_1", "a_3", {"stone": 2}, {"ore": 1})  # a_1 sends stone, gets ore ...
T3 = trade("t3", "a_3", "a_1", {"stone": 2}, {"ore": 1})  # ... and a_3 sends the same goods back
T4 = trade("t4", "a_2", "a_4", {"wood": 4}, {})  # a gift
T5 = trade("t5", "a_3", "a_4", {"plank": 2}, {"tool": 1})  # v2: logged once, twin synthesized
M1 = trade("m1", "a_1", "a_3", {"fiber": 2}, {"food": 1})  # a market fill: counters only

MATCH = [
    ev(1, 0, "agent_spawned", "a_1", {"region": "r_0_0"}),
    ev(2, 3, "trade_completed", "a_2", T1),  # v3: acceptor first ...
    ev(3, 3, "trade_completed", "a_1", T1),  # ... then the offerer, same tradeId
    ev(4, 5, "trade_completed", "a_3", T2),
    ev(5, 5, "trade_completed", "a_1", T2),
    ev(6, 8, "trade_completed", "a_1", T3),
    ev(7, 8, "trade_completed", "a_3", T3),
    ev(8, 9, "trade_completed", "a_4", T4),
    ev(9, 9, "trade_completed", "a_2", T4),
    ev(10, 12, "trade_fulfilled", "a_1", M1),
    ev(11, 12, "trade_fulfilled", "a_3", M1),
    ev(12, 14, "trade_completed", "a_4", T5, upcastPath=[2, 3]),  # stored v2 event (acceptor)
    ev(12, 14, "trade_completed", "a_3", T5, upcast="offerer", upcastPath=[2, 3]),  # synthesized twin
    ev(13, 15, "move", "a_1", {"from": "r_0_0", "to": "r_0_1"}),
]


def run(events: list[dict[str, Any]], values: Any = VALUES) -> ledger_module.Ledger:
    p = LedgerPass()
    for e in events:
        p.observe(e, None)
    return p.result(values)


def test_exported_api_is_pinned() -> None:
    assert ledger_module.__all__ == [
        "PARTNER_TRADE_CAP",
        "TradeId",
        "TradeTable",
        "LedgerTrade",
        "LedgerPair",
        "LedgerAnomaly",
        "Ledger",
        "LedgerPass",
        "SharedPair",
        "net_share",
        "credited_trades",
        "ArchivedPair",
        "ArchivedLedger",
        "archived_ledger",
    ]


def test_the_hand_built_match() -> None:
    ledger = run(MATCH)
    assert [(p.a, p.b, p.trades, p.net_share, p.gifts) for p in ledger.pairs] == [
        # wood for food: a_1 received 3 food (6) and gave 3 wood (6): (6 + 6) / (6 + 6) = 1
        ("a_1", "a_2", 1, 1.0, 0),
        # stone and ore both ways: a_1 received 2 stone and 1 ore and gave the same:
        # (|2-2| x 3 + |1-1| x 5) / ((2+2) x 3 + (1+1) x 5) = 0 / 22 = 0
        ("a_1", "a_3", 2, 0.0, 0),
        # the gift: a_2 gave 4 wood (8) and got nothing: 8 / 8 = 1; a ledger trade all the same
        ("a_2", "a_4", 1, 1.0, 1),
        # the v2 trade, counted once: a_3 gave 2 plank (10), got 1 tool (12): 22 / 22 = 1
        ("a_3", "a_4", 1, 1.0, 0),
    ]
    assert ledger.pair("a_3", "a_1") == ledger.pairs[1]
    assert ledger.pair("a_1", "a_4") is None


def test_evidence_behind_each_pair() -> None:
    ledger = run(MATCH)
    pair_12, pair_13, pair_24, pair_34 = ledger.pairs
    assert (pair_12.trade_ids, pair_12.event_ids) == (("t1",), (2, 3))
    assert (pair_13.trade_ids, pair_13.event_ids) == (("t2", "t3"), (4, 5, 6, 7))
    # the v2 trade and its synthesized twin share the event id 12
    assert (pair_34.trade_ids, pair_34.event_ids) == (("t5",), (12,))
    # gross value each way: a_1 gave 2 stone (6) then 1 ore (5); a_3 the reverse
    assert (pair_13.value_a_gave, pair_13.value_b_gave) == (11.0, 11.0)
    assert (pair_24.value_a_gave, pair_24.value_b_gave) == (8.0, 0.0)
    assert (pair_34.value_a_gave, pair_34.value_b_gave) == (10.0, 12.0)
    t5 = ledger.trades[-1]
    assert t5.trade_id == "t5" and t5.upcast_twin and not t5.is_gift
    assert ledger.trades[3].is_gift
    assert [t.trade_id for t in ledger.trades] == ["t1", "t2", "t3", "t4", "t5"]  # m1 is not a ledger trade
    assert ledger.anomalies == ()
    assert ledger.unvalued_items == frozenset()


def test_credited_and_completed_trades() -> None:
    ledger = run(MATCH)
    # credited: sum over partners of min(trades, 5) x net share
    #   a_1: 1 x 1.0 (a_2) + 2 x 0.0 (a_3) = 1.0
    #   a_2: 1 x 1.0 (a_1) + 1 x 1.0 (a_4, the gift) = 2.0
    #   a_3: 2 x 0.0 (a_1) + 1 x 1.0 (a_4) = 1.0
    #   a_4: 1 x 1.0 (a_2) + 1 x 1.0 (a_3) = 2.0
    assert ledger.credited_trades == {"a_1": 1.0, "a_2": 2.0, "a_3": 1.0, "a_4": 2.0}
    # completed: trade_completed + trade_fulfilled events carrying the agent's id, one per trade
    #   a_1: t1, t2, t3 + fill m1 = 4;  a_2: t1, t4 = 2
    #   a_3: t2, t3, t5 (the synthesized offerer twin) + fill m1 = 4;  a_4: t4, t5 = 2
    assert ledger.completed_trades == {"a_1": 4, "a_2": 2, "a_3": 4, "a_4": 2}


def test_a_v2_duplicate_is_one_trade() -> None:
    # the v2 trade alone: one stored event and its synthesized offerer twin
    ledger = run([e for e in MATCH if e["id"] == 12])
    assert [(p.a, p.b, p.trades) for p in ledger.pairs] == [("a_3", "a_4", 1)]
    assert ledger.completed_trades == {"a_3": 1, "a_4": 1}
    assert ledger.credited_trades == {"a_3": 1.0, "a_4": 1.0}


def test_net_share_is_the_same_from_either_side_and_under_relabelling() -> None:
    trades = [T2, T3, trade("t9", "a_3", "a_1", {"wood": 5}, {"cloth": 1})]
    # a_1: stone 2-2, ore 1-1, wood received 5, cloth gave 1:
    # (0 + 0 + 5 x 2 + 1 x 6) / (12 + 10 + 10 + 6) = 16 / 38 = 0.42105... -> 0.421
    assert net_share(trades, VALUES) == 0.421
    relabelled = [
        {**t, "from": {"a_1": "z_9", "a_3": "b_0"}[t["from"]], "to": {"a_1": "z_9", "a_3": "b_0"}[t["to"]]}
        for t in trades
    ]
    assert net_share(relabelled, VALUES) == 0.421
    assert net_share(list(reversed(trades)), VALUES) == 0.421


def test_net_share_rounds_a_half_up_on_the_double() -> None:
    # x gives 8 wood for 1 fiber, then gives the fiber back for 7 wood.
    # x: wood received 7, gave 8 -> |7-8| x 2 = 2; fiber received 1, gave 1 -> 0.
    # denominator: wood (7+8) x 2 = 30, fiber (1+1) x 1 = 2 -> 32.  2 / 32 = 0.0625,
    # exactly a half at the fourth place (1/16 is exact in binary): half-up gives 0.063,
    # where Python's round(0.0625, 3) gives 0.062 (halves to even).
    trades = [trade("t1", "x", "y", {"wood": 8}, {"fiber": 1}), trade("t2", "x", "y", {"fiber": 1}, {"wood": 7})]
    assert 2 / 32 == 0.0625
    assert round(0.0625, 3) == 0.062
    assert net_share(trades, VALUES) == 0.063


def test_half_up_follows_the_double_not_the_decimal() -> None:
    # 1/16 + 11/25 is exactly 0.5025, but the double holding the sum is 0.50249999999999994...
    # (the nearest double to 0.5025 lies below it): the rubric rounds the double, so 0.502,
    # where exact decimals would give 0.503.  Commons shares are summed exactly this way.
    x = 1 / 16 + 11 / 25
    assert Fraction(x) < Fraction(5025, 10000)
    assert x * 1000 + 0.5 < 503
    assert half_up(x, 3) == 0.502
    assert half_up(0.0625, 3) == 0.063


def test_net_share_of_nothing_moved_is_zero() -> None:
    empty = [trade("t1", "a", "b", {}, {}), trade("t2", "b", "a", {}, {})]
    assert net_share(empty, VALUES) == 0.0
    assert net_share([], VALUES) == 0.0
    # goods valued 0 move no value either
    assert net_share([trade("t1", "a", "b", {"wood": 3}, {})], {"wood": 0.0}) == 0.0
    ledger = run([ev(1, 1, "trade_completed", "b", empty[0]), ev(2, 1, "trade_completed", "a", empty[0])])
    assert ledger.pairs[0].net_share == 0.0 and ledger.pairs[0].gifts == 1
    assert ledger.credited_trades == {"a": 0.0, "b": 0.0}


def test_net_share_refuses_more_than_one_pair() -> None:
    with pytest.raises(ValueError):
        net_share([T1, T2], VALUES)
    with pytest.raises(ValueError):
        net_share([trade("t1", "a", "a", {"wood": 1}, {})], VALUES)


def test_credited_trades_caps_each_partner_at_5() -> None:
    # Pairs given directly: a_1 traded 7 times with a_2 (net share 1.0) and 6 times with a_3 (0.5).
    pairs = [
        LedgerPair("a_1", "a_2", 7, 1.0, 0, 0.0, 0.0, (), ()),
        LedgerPair("a_1", "a_3", 6, 0.5, 0, 0.0, 0.0, (), ()),
        LedgerPair("a_2", "a_3", 2, 0.25, 0, 0.0, 0.0, (), ()),
    ]
    assert credited_trades("a_1", pairs) == 7.5  # 5 x 1.0 + 5 x 0.5
    assert credited_trades("a_3", pairs) == 3.0  # 5 x 0.5 + 2 x 0.25
    assert credited_trades("a_9", pairs) == 0.0

    events = []
    for i in range(7):  # seven wood-for-food trades, each logged by both parties
        t = trade(f"t{i}", "a_1", "a_2", {"wood": 1}, {"food": 1})
        events += [ev(2 * i + 1, i, "trade_completed", "a_2", t), ev(2 * i + 2, i, "trade_completed", "a_1", t)]
    ledger = run(events)
    assert ledger.pairs[0].trades == 7
    assert ledger.credited_trades == {"a_1": 5.0, "a_2": 5.0}
    assert ledger.completed_trades == {"a_1": 7, "a_2": 7}


def test_credited_trades_rounds_the_sum() -> None:
    # 3 x 0.421 + 1 x 0.333 = 1.263 + 0.333 = 1.596 (the doubles land a hair off; 3 places half-up)
    pairs = [
        LedgerPair("a", "b", 3, 0.421, 0, 0.0, 0.0, (), ()),
        LedgerPair("a", "c", 1, 0.333, 0, 0.0, 0.0, (), ()),
    ]
    assert credited_trades("a", pairs) == 1.596


def test_anomalies_are_kept_not_dropped() -> None:
    events = [
        ev(1, 1, "trade_completed", "a_2", T1),
        ev(2, 1, "trade_completed", "a_1", {**T1, "give": {"wood": 4}}),  # twin disagrees: the first counts
        ev(3, 1, "trade_completed", "a_1", T1),  # a_1's event again: counted once
        ev(4, 2, "trade_completed", "a_9", T2),  # a_9 is not a party
        ev(5, 3, "trade_completed", "a_5", trade("t7", "a_5", "a_5", {"wood": 1}, {})),  # self-trade
        ev(6, 4, "trade_completed", "a_1", {**T1, "tradeId": "t8", "give": {"herb": 2}}),
    ]
    ledger = run(events)
    assert [(x.event_id, x.trade_id, x.kind) for x in ledger.anomalies] == [
        (2, "t1", "twin_differs"),
        (3, "t1", "duplicate_party_event"),
        (4, "t2", "agent_not_party"),
        (5, "t7", "self_trade"),
    ]
    assert ledger.pair("a_1", "a_2").trades == 2  # t1 (as first logged) and t8
    assert ledger.pair("a_1", "a_2").event_ids == (1, 2, 3, 6)
    assert ledger.completed_trades == {"a_1": 2, "a_2": 1, "a_5": 1, "a_9": 1}
    assert all(p.a != p.b for p in ledger.pairs)
    assert ledger.unvalued_items == frozenset({"herb"})


def test_a_trade_without_a_trade_id_names_event_and_field() -> None:
    with pytest.raises(InvalidInput) as caught:
        run([ev(7, 1, "trade_completed", "a_1", {"from": "a_1", "to": "a_2", "give": {}, "receive": {}})])
    assert (caught.value.event_id, caught.value.field) == (7, "payload.tradeId")


def test_output_is_deterministic_json() -> None:
    from daishi_forensics.jsonio import dumps

    assert dumps(run(MATCH).to_dict()) == dumps(run(MATCH).to_dict())
    assert run(MATCH).to_dict()["pairs"][0] == {
        "a": "a_1",
        "b": "a_2",
        "trades": 1,
        "netShare": 1.0,
        "gifts": 0,
        "valueAGave": 6.0,
        "valueBGave": 6.0,
        "tradeIds": ["t1"],
        "eventIds": [2, 3],
    }


def test_archived_ledger_block() -> None:
    archive = {
        "ledger": {
            "pairs": [
                {"a": "a_2", "b": "a_1", "trades": 6, "netShare": 0.412, "rep": {"a_1": 5, "a_2": 5}},
                {"a": "a_1", "b": "a_3", "trades": 2, "netShare": 1},
            ],
            "commons": {"a_1": 0.37},
        }
    }
    block = archived_ledger(archive)
    assert block is not None
    assert [(p.a, p.b, p.trades, p.net_share, p.rep) for p in block.pairs] == [
        ("a_1", "a_2", 6, 0.412, {"a_1": 5.0, "a_2": 5.0}),  # written b < a in the archive: put in order
        ("a_1", "a_3", 2, 1.0, None),
    ]
    assert block.commons == {"a_1": 0.37}
    assert not block.has_rep
    # the archived pairs feed credited_trades directly: 5 x 0.412 + 2 x 1.0 = 4.06
    assert credited_trades("a_1", block.pairs) == 4.06
    assert archived_ledger({}) is None
    with pytest.raises(InvalidInput) as caught:
        archived_ledger({"ledger": {"pairs": [{"a": "a_1", "b": "a_2", "trades": 1, "netShare": "x"}]}})
    assert caught.value.field == "ledger.pairs[0].netShare"


def test_pair_figures_equal_the_rule_over_the_trades_whatever_the_counts() -> None:
    """The pass sums whole counts per bundle (order does not matter for them) and replays
    fractional ones trade by trade: both give :func:`net_share` over the pair's trades."""
    bundles = [{"wood": 3}, {"food": 1, "ore": 2}, {}, {"stone": 1.5}, {"wood": 0.1}, {"food": 7}]
    events = []
    for i in range(60):
        giver, taker = ("a_1", "a_2") if i % 3 else ("a_2", "a_1")
        if i % 7 == 0:
            giver, taker = "a_1", "a_3"
        payload = trade(f"t_{i}", giver, taker, dict(bundles[i % 6]), dict(bundles[(i * 5 + 1) % 6]))
        events.append(ev(2 * i, i, "trade_completed", taker, payload))
        events.append(ev(2 * i + 1, i, "trade_completed", giver, payload))
    values = {"wood": 0.7, "food": 2.0, "ore": 5.0, "stone": 3.3}
    whole = [e for e in events if all(type(q) is int for m in ("give", "receive") for q in e["payload"][m].values())]
    for log in (events, whole):
        ledger = run(log, values)
        for pair in ledger.pairs:
            trades = [t for t in ledger.trades if {t.from_agent, t.to_agent} == {pair.a, pair.b}]
            assert pair.net_share == net_share(trades, values)
            assert pair.trades == len(trades) and pair.trade_ids == tuple(t.trade_id for t in trades)
        assert [t.trade_id for t in ledger.trades] == list(dict.fromkeys(e["payload"]["tradeId"] for e in log))
    # trades that moved the same goods share one item map
    ledger = run(whole, values)
    woods = [t.give for t in ledger.trades if t.give == {"wood": 3}]
    assert len(woods) > 1 and all(w is woods[0] for w in woods)


def test_the_trade_table_keeps_a_row_per_trade_id_and_every_event_id_once() -> None:
    """The ledger's store, by hand: terms of the first event, the tick, event ids in the order
    noted (each once, a third and later apart), the id as a plain dict key (1 and 1.0 are one id)."""
    from daishi_forensics.economy.ledger import TradeTable

    table = TradeTable()
    t1 = {"tradeId": "t_5", "from": "a_1", "to": "a_2", "give": {"wood": 3}, "receive": {"ore": 1}}
    t2 = {"tradeId": 1, "from": "a_2", "to": "a_3", "give": {"wood": 3}, "receive": {}}
    assert table.row("t_5", t1, 10, 4) == (0, True)
    assert table.row("t_5", {**t1, "give": {"wood": 4}}, 11, 9) == (0, False)  # the first terms stay
    assert table.row("t_5", t1, 10, 9) == (0, False)  # an id noted already
    assert table.row("t_5", t1, 12, 9) == (0, False)
    assert table.row("t_5", t1, 11, 9) == (0, False)
    assert table.row(1, t2, 20, 6) == (1, True)
    assert table.row(1.0, t2, None, 6) == (1, False)  # not an int id: nothing noted
    assert (len(table), list(table.rows), list(table.ticks)) == (2, ["t_5", 1], [4, 6])
    assert table.event_ids(0) == (10, 11, 12) and table.event_ids(1) == (20,)
    assert (table.giver_of(0), table.taker_of(0), table.giver_of(1)) == ("a_1", "a_2", "a_2")
    assert table.agents.values == ["a_1", "a_2", "a_3"] and list(table.give) == [0, 0]  # one map, kept once
    assert table.same_terms(0, {**t1, "give": {"wood": 3.0}}) and not table.same_terms(0, {**t1, "to": "a_3"})
    assert list(table.trades()) == [("t_5", "a_1", "a_2", {"wood": 3}, {"ore": 1}, (10, 11, 12)),
                                    (1, "a_2", "a_3", {"wood": 3}, {}, (20,))]
    maps = table.item_maps()
    rows = list(table.trades(maps))
    assert rows[0][3] is rows[1][3] is maps[0]  # trades that moved the same goods share one map
