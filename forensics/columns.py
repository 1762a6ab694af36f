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
- sets of ids (trade ids) in an :class:`IdSet`: ids of the usual form (``t_716``)
  as bits.

Records are made when read.  Each structure answers exactly what a list, a dict or a
set of the same values would.

>>> t = Table()
>>> [t.add(v) for v in ("a_1", "a_2", "a_1")], t.values, list(t.column)
([0, 1, 0], ['a_1', 'a_2'], [0, 1, 0])
>>> rows = Rows()
>>> rows.append((3, 5)); rows.append(()); rows.append((2 ** 70, True))
>>> rows[0], rows[1], rows[2], len(rows)
((3, 5), (), (1180591620717411303424, True), 3)
>>> ids = IdSet()
>>> [ids.add(x) for x in ("t_716", 3, "x", 3.0)]
[True, True, True, False]
>>> "t_716" in ids, "t_715" in ids, 3 in ids, 3.0 in ids, "3" in ids, "x" in ids, len(ids)
(True, False, True, True, False, True, 3)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["widened", "Table", "Rows", "IdSet"]

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


class IdSet:
    """A set of ids, compact for the usual ones.

    An id of the form ``<prefix><number>`` (``t_716``: a prefix not ending in a digit,
    then a number written without leading zeros, below 10^18) is a bit in that
    prefix's bitmap, and so is a non-negative int (an int-valued float or a bool is the
    int it equals, as in a set); the bitmaps together grow to at most 8 bytes per id
    they hold, plus 4 KiB, so a far-off number goes, like any other id, to a plain set.
    For ids as JSON gives them (strings, numbers, booleans, null), membership is a
    set's: ``x in ids`` after ``ids.add(y)`` exactly when ``x == y`` for some ``y``.
    """

    __slots__ = ("_bits", "_other", "_count", "_bytes")

    def __init__(self) -> None:
        self._bits: dict[str | None, bytearray] = {}
        self._other: set[Any] = set()
        self._count = 0  # ids held in bitmaps
        self._bytes = 0  # bytes of all bitmaps

    @staticmethod
    def _split(x: Any) -> tuple[str | None, int] | None:
        """``(prefix, number)`` of an id a bitmap can hold (one way only: the id is
        ``prefix + str(number)``, or the int ``number`` when the prefix is None)."""
        t = type(x)
        if t is str:
            prefix = x.rstrip(_DIGITS)
            n = len(x) - len(prefix)
            if 0 < n <= 18 and (n == 1 or x[len(prefix)] != "0"):
                return prefix, int(x[len(prefix):])
            return None
        if t is int or t is bool:
            return (None, int(x)) if x >= 0 else None
        if t is float and x.is_integer() and x >= 0:
            return None, int(x)
        return None

    def __contains__(self, x: Any) -> bool:
        split = self._split(x)
        if split is not None:
            bits = self._bits.get(split[0])
            n = split[1]
            if bits is not None and (n >> 3) < len(bits) and bits[n >> 3] & (1 << (n & 7)):
                return True
        return bool(self._other) and x in self._other

    def add(self, x: Any) -> bool:
        """Add ``x``; False if an equal id was in already (nothing changes then)."""
        if type(x) is str:  # the usual case, inline (as _split)
            prefix = x.rstrip(_DIGITS)
            at = len(prefix)
            n = len(x) - at
            split = (prefix, int(x[at:])) if 0 < n <= 18 and (n == 1 or x[at] != "0") else None
        else:
            split = self._split(x)
        if split is None:
            if x in self._other:
                return False
            self._other.add(x)
            return True
        prefix, n = split
        byte = n >> 3
        mask = 1 << (n & 7)
        bits = self._bits.get(prefix)
        size = 0 if bits is None else len(bits)
        if byte < size and bits[byte] & mask:  # type: ignore[index]
            return False
        if self._other and x in self._other:  # put there while its bitmap was too small for it
            return False
        if byte >= size:
            limit = 8 * (self._count + 1) + _SLACK_BYTES - self._bytes + size  # this bitmap's most
            if byte >= limit:
                self._other.add(x)
                return True
            grown = min(max(byte + 1, size + size // 2), limit)
            if bits is None:
                bits = self._bits[prefix] = bytearray(grown)
            else:
                bits.extend(bytes(grown - size))
            self._bytes += grown - size
        bits[byte] |= mask  # type: ignore[index]
        self._count += 1
        return True

    def __len__(self) -> int:
        return self._count + len(self._other)
