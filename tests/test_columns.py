"""The replay room's plain columns: each structure answers exactly what a list, a dict or a
tuple of the same values would, in fixed-width arrays."""

from __future__ import annotations

import doctest
import json
from array import array
from pathlib import Path

import pytest

from daishi_forensics.replay import RecordLog, Rows, ShapeTable, Table, code_column, int_column, position
from daishi_forensics.replay import _columns as columns

SAFE = 2**53 - 1
"""The largest integer the schemas allow (what a JSON number holds exactly)."""


def test_doctests() -> None:
    assert doctest.testmod(columns).failed == 0


def test_an_int_column_is_eight_bytes_a_value_and_holds_the_schema_bound() -> None:
    column = int_column()
    for v in (0, 1, 255, 256, 70_000, 2**31, SAFE):
        column.append(v)
    assert column.typecode == "q" and column.itemsize == 8
    assert list(column) == [0, 1, 255, 256, 70_000, 2**31, SAFE]
    assert int_column(range(3)) == array("q", [0, 1, 2])


def test_the_schemas_bound_every_integer_a_column_keeps() -> None:
    """Ids, ticks and quantities in the schemas stop at 2**53 - 1, which an int column holds."""
    schemas = Path(__file__).resolve().parent.parent / "schemas"
    common = json.loads((schemas / "common.json").read_text(encoding="utf-8"))["$defs"]
    for name in ("eventId", "tick", "nonNegativeInt", "positiveInt"):
        assert common[name]["maximum"] == SAFE, name
    for name in ("itemMap", "inventory"):
        assert common[name]["additionalProperties"]["maximum"] == SAFE, name
    assert int_column([common["eventId"]["maximum"]])[0] == SAFE


def test_a_code_column_is_four_bytes_a_code() -> None:
    column = code_column([0, 5, 2**31 - 1])
    assert column.typecode == "i" and column.itemsize == 4 and list(column) == [0, 5, 2**31 - 1]


def test_table_numbers_each_distinct_value_once_and_can_forget_its_lookup() -> None:
    t = Table()
    values = [f"a_{i % 300}" for i in range(600)]
    for v in values:
        t.add(v)
    assert len(t.values) == 300 and t.column.typecode == "i" and len(t.column) == 600
    assert [t.values[k] for k in t.column] == values
    assert t.code("a_7") == 7 and len(t.column) == 600  # code() numbers, never appends
    t.forget()
    assert t.number is None
    assert (t.add("a_5"), t.code("new"), t.add("a_299")) == (5, 300, 299)  # the lookup rebuilt
    assert [t.values[k] for k in t.column] == [*values, "a_5", "a_299"]
    assert t.new("newer") == 301 and t.values[-1] == "newer"


def test_rows() -> None:
    rows = Rows()
    data: list[tuple[int, ...]] = [(), (1, 2, 3), (300,), (), (SAFE, 5), (7,)]
    for row in data:
        rows.append(row)
    assert len(rows) == len(data) and list(rows) == data and [rows[i] for i in range(len(data))] == data
    assert list(rows.flat) == [1, 2, 3, 300, SAFE, 5, 7] and list(rows.ends) == [0, 3, 4, 4, 6, 7]
    rows.append(iter([4, 4]))  # any iterable
    assert rows[6] == (4, 4) and rows[-1] == (4, 4)


def test_position_in_an_increasing_column() -> None:
    column = int_column([2, 5, 5, 9])
    assert [position(column, k) for k in (1, 2, 5, 6, 9, 10)] == [-1, 0, 1, -1, 3, -1]
    assert position(int_column(), 3) == -1
    assert position(["a", "c"], 3) == -1  # a key the values cannot be compared with: not there


def test_shape_table_shares_whole_count_maps_and_copies_the_others() -> None:
    shapes = ShapeTable()
    wood = shapes.code({"wood": 3, "food": 1})
    assert shapes.code({"wood": 3, "food": 1}) == wood
    assert shapes.code({"food": 1, "wood": 3}) != wood  # order is kept
    floats = shapes.code({"wood": 3.0, "food": 1})
    flags = shapes.code({"wood": True})
    assert len({wood, floats, flags}) == 3 and len(shapes) == 4
    assert shapes.code({"wood": True}) == 4  # a map that is not of plain counts: a code and copy of its own
    assert shapes.shared(wood) and not shapes.shared(floats) and not shapes.shared(flags)
    assert list(shapes.mapping(wood).items()) == [("wood", 3), ("food", 1)]
    assert [type(q) for q in shapes.mapping(floats).values()] == [float, int]
    assert shapes.mapping(flags)["wood"] is True
    assert shapes.equals(wood, {"food": 1, "wood": 3}) and shapes.equals(wood, {"wood": 3.0, "food": 1})
    assert not shapes.equals(wood, {"wood": 3})
    assert shapes.mapping(wood) is not shapes.mapping(wood)


class _Squares(RecordLog[int]):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def _record(self, i: int) -> int:
        return i * i


def test_a_record_log_is_a_read_only_sequence_of_records_made_when_read() -> None:
    log = _Squares(4)
    assert list(log) == [0, 1, 4, 9] and log[-1] == 9 and log[1:3] == (1, 4) and log[::-2] == (9, 1)
    assert log == (0, 1, 4, 9) and log == _Squares(4) and log != (0, 1, 4) and log != [0, 1, 4, 9]
    assert repr(log) == "_Squares(4 records)"
    with pytest.raises(IndexError):
        log[4]
    with pytest.raises(TypeError):
        hash(log)


# -- what the trade passes keep per trade --------------------------------------------------


def _deep_size(obj: object) -> int:
    """Bytes held by ``obj`` and everything it reaches (each object once)."""
    import sys

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


def test_the_trade_passes_keep_a_row_per_trade_not_its_events() -> None:
    """Memory grows with trades by a row each, not by the parsed events (the first passes kept
    ~1.2 KB per trade in the ledger alone).

    Bytes per trade, counting the trade id strings the passes keep (~56 bytes each here;
    in a replay they are the parsed event's own string, shared by the passes) and a plain
    dict's or set's slot (~40-50 bytes at its usual fill):

    * ledger: the id in a dict (~56 + ~50), 4 codes (16), tick and two event ids (24), 2
      bytes of counts and marks, the arrays' spare room: ~160;
    * reputation: the id in a set: ~56 + ~40;
    * negotiation: a ledger row, plus two offers (each an id in a dict, two codes and a
      flag: ~135): ~430.
    """
    from daishi_forensics.economy.ledger import LedgerPass
    from daishi_forensics.economy.reputation import ReputationPass
    from daishi_forensics.profile.negotiation import NegotiationPass

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
    assert ledger < 180, per_trade
    assert reputation < 110, per_trade
    assert negotiation < 480, per_trade
