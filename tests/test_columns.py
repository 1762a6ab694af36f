"""Compact columns: each structure answers exactly what a list, a dict or a set of the same values would."""

from __future__ import annotations

import doctest
import random
from array import array
from typing import Any

from daishi_forensics.replay import _columns as columns
from daishi_forensics.replay import Rows, Table, push
from daishi_forensics.replay import TradeIdSet as IdSet


def test_doctests() -> None:
    assert doctest.testmod(columns).failed == 0


def test_push_keeps_every_value_exactly() -> None:
    values: list[Any] = [0, 255, 256, -1, 70_000, -70_000, 2**31, 2**63 - 1, 2**63, -(2**63) - 1, True, None, 1.5, 3]
    column: Any = array("B")
    for i, v in enumerate(values):
        column = push(column, v)
        assert list(column) == values[: i + 1]
        assert [type(x) for x in column] == [type(x) for x in values[: i + 1]]  # True stays a bool
    assert type(column) is list


def test_a_column_is_as_narrow_as_its_values() -> None:
    column: Any = array("B")
    for v in range(300):
        column = push(column, v)
    assert column.typecode == "H" and list(column) == list(range(300))
    column = push(column, -5)
    assert column.typecode == "h"
    column = push(column, 1 << 20)
    assert column.typecode == "i" and list(column) == [*range(300), -5, 1 << 20]


def test_table_numbers_each_distinct_value_once_and_can_forget_its_lookup() -> None:
    t = Table()
    values = [f"a_{i % 300}" for i in range(600)]
    for v in values:
        t.add(v)
    assert len(t.values) == 300 and t.column.typecode == "H"
    assert [t.values[k] for k in t.column] == values
    t.forget()
    assert t.number is None
    assert (t.add("a_5"), t.code("new"), t.add("a_299")) == (5, 300, 299)  # the lookup rebuilt
    assert [t.values[k] for k in t.column] == [*values, "a_5", "a_299"]


def test_rows() -> None:
    rows = Rows()
    data: list[tuple[Any, ...]] = [(), (1, 2, 3), (300,), (), (-(2**40), 5), (None,), (7,)]
    for row in data:
        rows.append(row)
    assert len(rows) == len(data) and list(rows) == data and [rows[i] for i in range(len(data))] == data


def test_idset_is_a_set() -> None:
    rng = random.Random(7)
    pool: list[Any] = [f"t_{n}" for n in range(0, 3000, 3)]
    pool += ["t_0", "t_07", "t_-1", "x", "", "7", "07", "t_\u0661\u0662", "t_" + "9" * 30, f"t_{10**15}",
             5, 0, -3, 2**80, 5.0, 2.5, True, False, float("inf"), ("t", 1), None, 10**12]
    ids, ref = IdSet(), set()
    for _ in range(6000):
        x = rng.choice(pool) if rng.random() < 0.8 else f"t_{rng.randrange(10**6)}"
        assert ids.add(x) == (x not in ref)
        ref.add(x)
        y = rng.choice(pool)
        assert (y in ids) == (y in ref), y
    assert len(ids) == len(ref)
    assert all(x in ids for x in ref)


def test_idset_stays_small_for_far_off_and_scattered_ids() -> None:
    ids = IdSet()
    for k in range(500):  # 500 prefixes, each with one id far from 0
        ids.add("p" + chr(0x4E00 + k) + "_30000")
    ids.add(10**17)
    ids.add("t_99999999")
    assert len(ids) == 502 and "p\u4e00_30000" in ids and 10**17 in ids and "p\u4e00_29999" not in ids
    assert "t_99999999" in ids and "t_99999998" not in ids and len(ids.flags) <= 4096

def test_position_in_an_increasing_column() -> None:
    from array import array

    from daishi_forensics.replay import position

    column = array("i", [2, 5, 5, 9])
    assert [position(column, k) for k in (1, 2, 5, 6, 9, 10)] == [-1, 0, 1, -1, 3, -1]
    assert position([], 3) == -1
    assert position(["a", "c"], 3) == -1  # a key the values cannot be compared with: not there
