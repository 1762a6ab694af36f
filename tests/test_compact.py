"""The compact containers the trade passes keep their per-trade state in (forensics/compact.py)."""

from __future__ import annotations

import pytest

from daishi_forensics.replay import IntColumn, ShapeTable, TradeIdSet, TradeIndex


def test_int_column_gives_back_exactly_what_was_stored() -> None:
    stored = [0, 255, 256, 70_000, 2**40, 2**64 - 1, 2**64, -1, True, None, 2.5, 3]
    column = IntColumn()
    for value in stored:
        column.append(value)
    assert len(column) == len(stored)
    assert [column[i] for i in range(len(stored))] == stored
    assert [type(column[i]) for i in range(len(stored))] == [type(v) for v in stored]
    assert list(column) == stored
    column[8] = 7  # a plain value over an odd one
    column[9] = 2**33
    assert (column[8], column[9], type(column[8])) == (7, 2**33, int)


def test_int_column_widens_only_as_needed() -> None:
    column = IntColumn()
    for value in range(200):
        column.append(value)
    assert column.values.itemsize == 1
    column.append(1_000)
    assert column.values.itemsize == 2 and list(column) == [*range(200), 1_000]


@pytest.mark.parametrize("trade_id", ["t_0", "t_7", "t_5639", 5, "t_007", "t_", "x", "t_-1", "t_1_0", "t_\u0661", (1, 2)])
def test_trade_index_writes_every_id_back_as_it_came(trade_id: object) -> None:
    index = TradeIndex()
    assert index.index("t_3") == (0, True)
    assert index.index(trade_id) == (1, True)
    assert index.index(trade_id) == (1, False)
    assert index.find(trade_id) == 1 and trade_id in index
    assert list(index) == ["t_3", trade_id] and [type(x) for x in index] == [str, type(trade_id)]
    assert index.id_at(1) == trade_id


def test_trade_index_has_a_dicts_equality() -> None:
    index = TradeIndex()
    assert index.index(1) == (0, True)
    assert index.index(True) == (0, False)
    assert index.index(1.0) == (0, False)
    assert index.index("t_1") == (1, True)  # a string is not the number
    assert list(index) == [1, "t_1"]
    with pytest.raises(TypeError):
        index.index(["t_1"])  # unhashable, as in a dict


def test_trade_index_finds_an_id_kept_aside_before_its_table_grew() -> None:
    index = TradeIndex()
    index.index("t_20000")  # too far out for the ids so far: kept as given
    assert index.others == {"t_20000": 0}
    for n in range(3_000):
        index.index(f"t_{n}")
    assert index.index("t_21000") == (3_001, True)  # dense enough now: the table grows past 20000
    index.recent.clear()
    assert len(index.slots) > 20_000 and index.slots[20_000] == -1
    assert index.index("t_20000") == (0, False)
    assert index.find("t_20000") == 0
    assert index.index("t_20001") == (3_002, True)
    assert len(index) == 3_003
    assert list(index) == ["t_20000", *(f"t_{n}" for n in range(3_000)), "t_21000", "t_20001"]


def test_trade_index_stays_small_for_dense_ids() -> None:
    index = TradeIndex()
    for n in range(0, 40_000, 2):
        index.index(f"t_{n}")
    assert not index.others
    assert len(index.slots) * index.slots.itemsize <= 4 * 40_000 * 1.5


def test_trade_id_set() -> None:
    seen = TradeIdSet()
    assert seen.add("t_20000") and seen.add(5) and seen.add("t_01")
    assert not seen.add(5.0) and not seen.add("t_01")
    for n in range(3_000):
        assert seen.add(f"t_{n}")
    assert seen.add("t_21000")  # the flags grow past 20000
    seen.recent.clear()
    assert len(seen.flags) > 20_000 and not seen.flags[20_000]
    assert not seen.add("t_20000") and "t_20000" in seen
    assert "t_20001" not in seen and seen.add("t_20001")
    assert not seen.add("t_2999") and "t_3000" not in seen
    assert len(seen) == 3_005


def test_shape_table_shares_whole_count_maps_and_copies_the_others() -> None:
    shapes = ShapeTable()
    wood = shapes.code({"wood": 3, "food": 1})
    assert shapes.code({"wood": 3, "food": 1}) == wood
    assert shapes.code({"food": 1, "wood": 3}) != wood  # order is kept
    floats = shapes.code({"wood": 3.0, "food": 1})
    flags = shapes.code({"wood": True})
    assert len({wood, floats, flags}) == 3
    assert shapes.shared(wood) and not shapes.shared(floats) and not shapes.shared(flags)
    assert list(shapes.mapping(wood).items()) == [("wood", 3), ("food", 1)]
    assert [type(q) for q in shapes.mapping(floats).values()] == [float, int]
    assert shapes.mapping(flags)["wood"] is True
    assert shapes.equals(wood, {"food": 1, "wood": 3}) and shapes.equals(wood, {"wood": 3.0, "food": 1})
    assert not shapes.equals(wood, {"wood": 3})
    assert shapes.mapping(wood) is not shapes.mapping(wood)


def _deep_size(obj: object) -> int:
    """Bytes held by ``obj`` and everything it reaches (each object once)."""
    import sys
    from array import array

    seen: set[int] = set()
    stack, total = [obj], 0
    while stack:
        x = stack.pop()
        if id(x) in seen or isinstance(x, type):
            continue
        seen.add(id(x))
        total += sys.getsizeof(x)
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif not isinstance(x, (str, bytes, bytearray, int, float, array)):
            stack.extend(getattr(x, name) for cls in type(x).__mro__ for name in getattr(cls, "__slots__", ())
                         if hasattr(x, name))
            if hasattr(x, "__dict__"):
                stack.append(x.__dict__)
    return total


def _match(trades: int) -> list[dict[str, object]]:
    """A long v3 match: each trade offered, then logged by both parties; a few offers cancelled."""
    agents = [f"a_{i:04x}" for i in range(9)]
    goods = ["wood", "food", "ore", "stone"]
    events: list[dict[str, object]] = []
    for i in range(trades):
        giver, taker = agents[i % 9], agents[(i * 7 + 3) % 9]
        if giver == taker:
            taker = agents[(i + 1) % 9]
        give = {goods[i % 4]: 1 + i % 5}
        receive = {goods[(i + 1) % 4]: 1 + (i // 5) % 4}
        offered = {"tradeId": f"t_{2 * i}", "to": taker, "give": give, "receive": receive}
        events.append({"id": 4 * i, "tick": i // 10, "type": "trade_offered", "agentId": giver, "payload": offered})
        events.append({"id": 4 * i + 1, "tick": i // 10, "type": "trade_offered", "agentId": taker,
                       "payload": {**offered, "tradeId": f"t_{2 * i + 1}", "to": giver}})
        events.append({"id": 4 * i + 2, "tick": i // 10, "type": "trade_cancelled", "agentId": taker,
                       "payload": {"tradeId": f"t_{2 * i + 1}"}})
        for k, agent in enumerate((taker, giver)):
            events.append({"id": 4 * i + 3 + k * trades * 4, "tick": i // 10, "type": "trade_completed",
                           "agentId": agent, "payload": {"tradeId": f"t_{2 * i}", "from": giver, "to": taker,
                                                         "give": dict(give), "receive": dict(receive)}})
    return events


def test_the_trade_passes_keep_a_few_bytes_per_trade() -> None:
    """Issue 3: memory grows with agents, pairs and bundles, not with every event (the old
    passes kept ~1.2 KB per trade in the ledger alone)."""
    from daishi_forensics.economy.ledger import LedgerPass
    from daishi_forensics.profile.negotiation import NegotiationPass
    from daishi_forensics.economy.reputation import ReputationPass

    sizes = {}
    for trades in (2_000, 12_000):
        passes = [LedgerPass(), ReputationPass(), NegotiationPass()]
        for ev in _match(trades):
            for p in passes:
                if ev["type"] in p.types:
                    p.observe(ev, None)
        sizes[trades] = [_deep_size(p) for p in passes]
    per_trade = [(big - small) / 10_000 for small, big in zip(sizes[2_000], sizes[12_000])]
    ledger, reputation, negotiation = per_trade
    assert ledger < 40, per_trade
    assert reputation < 6, per_trade
    assert negotiation < 60, per_trade
