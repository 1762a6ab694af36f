"""Compact columns for what a pass keeps per event.

A pass that must keep something for every message, trade or collapse until the end of
the match keeps it by column, not as one object per record:

- integers (event ids, ticks, counts) in an :class:`array.array` of the narrowest
  type their values fit (one byte each until a value does not fit), widened when one
  does not (:func:`widened`), and a plain list only for a value no array holds
  (beyond 64 bits, not an integer);
- repeated values (agent ids, regions, verdicts) as numbers into a :class:`Table` of
  their distinct values, one object each;
- variable-length rows of integers (the evidence of a verdict, the gathers of a pool)
  flattened in a :class:`Rows`;
- (sets of trade ids: :class:`daishi_forensics.replay._compact.TradeIdSet`).

Records are made when read.  Each structure answers exactly what a list, a dict or a
set of the same values would.

>>> t = Table()
>>> [t.add(v) for v in ("a_1", "a_2", "a_1")], t.values, list(t.column)
([0, 1, 0], ['a_1', 'a_2'], [0, 1, 0])
>>> rows = Rows()
>>> rows.append((3, 5)); rows.append(()); rows.append((2 ** 70, True))
>>> rows[0], rows[1], rows[2], len(rows)
((3, 5), (), (1180591620717411303424, True), 3)
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeVar, overload

T = TypeVar("T")

__all__ = ["widened", "push", "position", "Table", "Rows", "RecordLog"]

_CODES = ("B", "b", "H", "h", "I", "i", "Q", "q")
"""Integer array types, narrowest first."""
_LIMITS = {"B": (0, 0xFF), "H": (0, 0xFFFF), "I": (0, 0xFFFF_FFFF), "Q": (0, 0xFFFF_FFFF_FFFF_FFFF),
           "b": (-0x80, 0x7F), "h": (-0x8000, 0x7FFF), "i": (-0x8000_0000, 0x7FFF_FFFF),
           "q": (-0x8000_0000_0000_0000, 0x7FFF_FFFF_FFFF_FFFF)}


def widened(column: Any, value: Any) -> Any:
    """A copy of ``column`` (an array or a list) that can also hold ``value``: an array of
    the narrowest integer type that holds its values and ``value``, else (``value`` is not
    an ``int``: a bool, a float, None ...) a list, which keeps it as it is.

    >>> widened(array("B", [1, 2]), 300), widened(array("B", [1, 2]), -1)
    (array('H', [1, 2]), array('b', [1, 2]))
    >>> widened(array("b", [1]), -2 ** 40), widened(array("q", [1]), 2 ** 64), widened(array("b"), None)
    (array('q', [1]), [1], [])
    """
    if type(column) is array and column.typecode in _LIMITS and type(value) is int:
        lo = min(value, min(column)) if column else value
        hi = max(value, max(column)) if column else value
        for code in _CODES:
            low, high = _LIMITS[code]
            if low <= lo and hi <= high:
                return array(code, column)
    return list(column)


def push(column: Any, value: Any) -> Any:
    """Append ``value`` to ``column``; returns the column (a wider one when it had to widen,
    a list for a value that is not an ``int``, so that ``True`` stays ``True``).

    For cold paths; a hot loop inlines it on values it knows to be ints (``try:
    col.append(v) except OverflowError: ...``).
    """
    if type(value) is int or type(column) is list:
        try:
            column.append(value)
            return column
        except OverflowError:
            pass
    column = widened(column, value)
    column.append(value)
    return column

def position(column: Sequence[Any], key: Any) -> int:
    """Where ``key`` stands in the increasing ``column`` (a bisection), or -1 when it is not there
    (or cannot be compared with the column's values)."""
    try:
        k = bisect_left(column, key)
    except TypeError:
        return -1
    return k if k < len(column) and column[k] == key else -1



class Table:
    """Distinct values and a column of their numbers (one number a row, as narrow as the
    table is small: one byte up to 256 values).

    ``number`` (value -> number) is only needed to add: :meth:`forget` lets it go when
    nothing more is expected (the replay is over), and adding rebuilds it.
    """

    __slots__ = ("values", "number", "column")

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.number: dict[Any, int] | None = {}
        self.column: Any = array("B")

    def add(self, value: Any) -> int:
        """Append ``value``'s number to the column (numbering it if new)."""
        k = self.code(value)
        try:
            self.column.append(k)
        except OverflowError:
            self.column = widened(self.column, k)
            self.column.append(k)
        return k

    def new(self, value: Any) -> int:
        """Number a value not seen before (the column is left as it is)."""
        number = self.number if self.number is not None else self.remember()
        k = number[value] = len(self.values)
        self.values.append(value)
        return k

    def code(self, value: Any) -> int:
        """``value``'s number (numbering it if new; the column is left as it is)."""
        number = self.number if self.number is not None else self.remember()
        k = number.get(value)
        return self.new(value) if k is None else k

    def forget(self) -> None:
        """Let go of ``number`` (rebuilt by the next :meth:`add`, :meth:`code` or :meth:`new`)."""
        self.number = None

    def remember(self) -> dict[Any, int]:
        """``number``, rebuilt if it was let go."""
        if self.number is None:
            self.number = {v: k for k, v in enumerate(self.values)}
        return self.number


class Rows:
    """Rows of integers (tuples), flattened: row ``i`` is ``flat[ends[i - 1]:ends[i]]``."""

    __slots__ = ("flat", "ends")

    def __init__(self) -> None:
        self.flat: Any = array("B")
        self.ends: Any = array("B")

    def append(self, row: Iterable[Any]) -> None:
        """Add a row (its values: integers or, rarely, anything a list holds)."""
        flat = self.flat
        for v in row:
            flat = push(flat, v)
        self.flat = flat
        self.ends = push(self.ends, len(flat))

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, i: int) -> tuple[Any, ...]:
        ends = self.ends
        start = ends[i - 1] if i else 0
        return tuple(self.flat[start:ends[i]])

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for i in range(len(self.ends)):
            yield self[i]


_DIGITS = "0123456789"
_SLACK_BYTES = 4096




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
