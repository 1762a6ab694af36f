"""Plain columns for what a pass keeps per event (private to the replay room; its face
exports them).

A pass that must keep something for every message, trade or collapse until the end of
the match keeps it by column, not as one object per record:

- integers the schemas bound (event ids, ticks, counts, quantities: 0 to 2**53 - 1, the
  read boundary rejects anything else) in an ``array('q')`` (:func:`int_column`), eight
  bytes each, whatever the value;
- repeated values (agent ids, regions, verdicts) as codes into a :class:`Table` of their
  distinct values, one object each, the codes in an ``array('i')`` (:func:`code_column`;
  a table never holds 2**31 values: each is an object in memory);
- variable-length rows of such integers (the evidence of a verdict, the gathers of a
  pool) flattened in a :class:`Rows`;
- item maps (``{"wood": 3}``) as codes into a :class:`ShapeTable`, each distinct map once.

Records are made when read (:class:`RecordLog`).  Trade ids need no structure of their
own: a pass keeps them in a plain ``dict`` (id -> row) or ``set``.

>>> t = Table()
>>> [t.add(v) for v in ("a_1", "a_2", "a_1")], t.values, list(t.column)
([0, 1, 0], ['a_1', 'a_2'], [0, 1, 0])
>>> rows = Rows()
>>> rows.append((3, 5)); rows.append(()); rows.append((2 ** 53 - 1,))
>>> rows[0], rows[1], rows[2], len(rows)
((3, 5), (), (9007199254740991,), 3)
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")

__all__ = ["int_column", "code_column", "position", "Table", "Rows", "RecordLog", "ShapeTable"]


def int_column(values: Iterable[int] = ()) -> array[int]:
    """A column of integers the schemas bound (ids, ticks, counts): 64-bit signed, 8 bytes each.

    >>> int_column([7, 2 ** 53 - 1])
    array('q', [7, 9007199254740991])
    """
    return array("q", values)


def code_column(values: Iterable[int] = ()) -> array[int]:
    """A column of codes into a table of distinct values: 32-bit signed, 4 bytes each."""
    return array("i", values)


def position(column: Sequence[Any], key: Any) -> int:
    """Where ``key`` stands in the increasing ``column`` (a bisection), or -1 when it is not there
    (or cannot be compared with the column's values).

    >>> position(int_column([2, 5, 9]), 5), position(int_column([2, 5, 9]), 6)
    (1, -1)
    """
    try:
        k = bisect_left(column, key)
    except TypeError:
        return -1
    return k if k < len(column) and column[k] == key else -1


class Table:
    """Distinct values (:attr:`values`, one object each) and a column of their codes (one a row).

    :attr:`number` (value -> code) is only needed to add: :meth:`forget` lets it go when
    nothing more is expected (the replay is over), and adding rebuilds it.
    """

    __slots__ = ("values", "number", "column")

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.number: dict[Any, int] | None = {}
        self.column: array[int] = code_column()

    def add(self, value: Any) -> int:
        """Append ``value``'s code to the column (numbering it if new)."""
        number = self.number
        if number is None:
            number = self.remember()
        k = number.get(value)
        if k is None:  # :meth:`new`, inlined: a table is added to once per message or gather
            k = number[value] = len(self.values)
            self.values.append(value)
        self.column.append(k)
        return k

    def new(self, value: Any) -> int:
        """Number a value not seen before (the column is left as it is)."""
        number = self.number if self.number is not None else self.remember()
        k = number[value] = len(self.values)
        self.values.append(value)
        return k

    def code(self, value: Any) -> int:
        """``value``'s code (numbering it if new; the column is left as it is)."""
        number = self.number
        if number is None:
            number = self.remember()
        k = number.get(value)
        if k is None:
            k = number[value] = len(self.values)
            self.values.append(value)
        return k

    def forget(self) -> None:
        """Let go of :attr:`number` (rebuilt by the next :meth:`add`, :meth:`code` or :meth:`new`)."""
        self.number = None

    def remember(self) -> dict[Any, int]:
        """:attr:`number`, rebuilt if it was let go."""
        if self.number is None:
            self.number = {v: k for k, v in enumerate(self.values)}
        return self.number


class Rows:
    """Rows of bounded integers (tuples), flattened: row ``i`` is ``flat[ends[i - 1]:ends[i]]``."""

    __slots__ = ("flat", "ends")

    def __init__(self) -> None:
        self.flat = int_column()
        self.ends = int_column()

    def append(self, row: Iterable[int]) -> None:
        """Add a row."""
        self.flat.extend(row)
        self.ends.append(len(self.flat))

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, i: int) -> tuple[int, ...]:
        ends = self.ends
        start = ends[i - 1] if i else 0
        return tuple(self.flat[start:ends[i]])

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        for i in range(len(self.ends)):
            yield self[i]


class ShapeTable:
    """Item maps -> codes ``0, 1, 2 ...``, each distinct map (keys, counts and order) kept once.

    A map of ``str`` keys and ``int`` counts (what the schemas allow) is kept as its item
    tuple, shared by every map equal to it; any other map (a float or ``True`` count, which
    a tuple would not tell from an int) gets its own code and copy.  :meth:`mapping` gives
    a new dict equal to the map, in its order.
    """

    __slots__ = ("codes", "shapes")

    def __init__(self) -> None:
        self.codes: dict[tuple[tuple[str, int], ...], int] = {}
        self.shapes: list[tuple[tuple[str, int], ...] | dict[Any, Any]] = []

    def __len__(self) -> int:
        return len(self.shapes)

    def code(self, items: Mapping[Any, Any]) -> int:
        """The map's code (a new one for a map not seen before, or not of plain counts)."""
        key = tuple(items.items())
        for name, quantity in key:
            if type(quantity) is not int or type(name) is not str:
                self.shapes.append(dict(items))
                return len(self.shapes) - 1
        code = self.codes.get(key)
        if code is None:
            code = self.codes[key] = len(self.shapes)
            self.shapes.append(key)
        return code

    def equals(self, code: int, items: Mapping[Any, Any]) -> bool:
        """True when ``items`` equals the map kept as ``code`` (as dicts compare)."""
        shape = self.shapes[code]
        if type(shape) is tuple:
            return tuple(items.items()) == shape or dict(items) == dict(shape)
        return dict(items) == shape

    def mapping(self, code: int) -> dict[Any, Any]:
        """A new dict equal to the map kept as ``code``, in its order."""
        return dict(self.shapes[code])

    def shared(self, code: int) -> bool:
        """True when ``code`` stands for every map of its items and counts (a private copy otherwise)."""
        return type(self.shapes[code]) is tuple


class RecordLog(Sequence[T]):
    """A read-only sequence of records stored by column, each record made when read.

    A subclass gives ``__len__`` and ``_record(i)`` (the record at position ``i``, 0 to
    ``len - 1``); indexing (negative too), slicing (a tuple of records), iteration and
    equality with a tuple of the same records (or another log) come from here.
    """

    __slots__ = ()

    def _record(self, i: int) -> T:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[T, ...]: ...

    def __getitem__(self, i: int | slice) -> Any:
        n = len(self)
        if isinstance(i, slice):
            return tuple(self._record(k) for k in range(*i.indices(n)))
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"{type(self).__name__} index out of range")
        return self._record(i)

    def __iter__(self) -> Iterator[T]:
        for i in range(len(self)):
            yield self._record(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (RecordLog, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} records)"
