"""Compact containers for streaming passes: state that grows with trades in a few bytes each.

A pass that must remember something per trade (the ledger keeps every trade for its
result) pays per Python object: a small dict is ~200 bytes, a tuple of two ~56, a
parsed string ~55, an int above 256 ~28.  These containers keep the same facts in
arrays of machine integers and tables of the few values that repeat:

* :class:`IntColumn` -- a growable column of integers, one to eight bytes each (it
  widens as larger values arrive); any other value (a negative or non-``int``
  number, ``True``, ``None``) is kept as given, aside, so nothing is changed by storing.
* :class:`TradeIndex` -- trade ids to ``0, 1, 2 ...`` in first-seen order.  An id
  written ``t_<n>`` (the engine's form) is kept as the number ``n`` and written
  back identically; any other id is kept as given.  :class:`TradeIdSet` -- a set of
  trade ids, kept the same way.
* (strings that repeat, such as agent ids: :class:`daishi_forensics.replay._columns.Table`.)
* :class:`ShapeTable` -- item maps (``{"wood": 3}``) to small numbers, each
  distinct map kept once (most trades move one of a few bundles).

The numbers of the last 1024 trade id strings read are remembered module-wide
(:data:`_SERIALS`), so a trade's id is read once for its offer, completions and fills
across the passes; that is the only state shared between them, and it changes no result.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["IntColumn", "TradeIndex", "TradeIdSet", "ShapeTable", "append_code"]

_WIDER = {"B": "H", "H": "I", "I": "Q"}
"""The next wider unsigned type code of an :class:`IntColumn`."""

_INT64 = 1 << 64


class IntColumn:
    """A list of integers stored as an unsigned array, widened as needed.

    Plain non-negative ``int`` values below 2**64 go in the array; anything else is
    kept as given in a side dict (the array holds 0 there), so ``column[i]`` returns
    exactly what was stored (``True`` stays ``True``, ``None`` stays ``None``).
    """

    __slots__ = ("values", "limit", "others")

    def __init__(self) -> None:
        self.values: array[int] = array("B")
        self.limit = 1 << 8
        self.others: dict[int, Any] | None = None

    def __len__(self) -> int:
        return len(self.values)

    def append(self, value: Any) -> None:
        if type(value) is int and 0 <= value < self.limit:
            self.values.append(value)
        else:
            self.values.append(0)
            self[len(self.values) - 1] = value

    def __getitem__(self, index: int) -> Any:
        others = self.others
        if others is not None and index in others:
            return others[index]
        return self.values[index]

    def __setitem__(self, index: int, value: Any) -> None:
        if index < 0:
            index += len(self.values)
        others = self.others
        if type(value) is int and 0 <= value < _INT64:
            while value >= self.limit:
                code = _WIDER[self.values.typecode]
                self.values = array(code, self.values)
                self.limit = 1 << (8 * self.values.itemsize)
            self.values[index] = value
            if others is not None:
                others.pop(index, None)
        else:
            self.values[index] = 0
            if others is None:
                others = self.others = {}
            others[index] = value

    def __iter__(self) -> Iterator[Any]:
        if not self.others:
            return iter(self.values)
        return (self[i] for i in range(len(self.values)))


_SERIALS: dict[str, int] = {}
"""The numbers of the trade id strings read last (at most :data:`_SERIALS_KEPT`): the
passes read a trade's id from its offer, its two completions, its fills, one after
another, each pass in its own table -- the string is read once for them all."""

_SERIALS_KEPT = 1024


def _serial(trade_id: object) -> int:
    """``n`` when ``trade_id`` is the string ``t_<n>`` written canonically (so ``f"t_{n}"``
    gives it back), else -1."""
    if type(trade_id) is not str:
        return -1
    n = _SERIALS.get(trade_id)
    if n is None:
        n = -1
        if trade_id[:2] == "t_":
            digits = trade_id[2:]
            if digits.isdigit() and digits.isascii() and len(digits) <= 15 and (digits[0] != "0" or len(digits) == 1):
                n = int(digits)
        if len(_SERIALS) >= _SERIALS_KEPT:
            _SERIALS.clear()
        _SERIALS[trade_id] = n
    return n


_RECENT = 256
"""Ids a :class:`TradeIndex` answers from a small dict first (a trade's twin event follows
its first one closely)."""


_SERIALS_LIMIT = (1 << 31) - 1
"""Ids ``t_<n>`` are kept by ``n`` below this; a larger ``n`` is kept as an other id."""


def _dense(n: int, count: int, size: int) -> int:
    """The size a table ``n -> ...`` of ``size`` entries grows to for ``n`` with ``count`` ids
    kept: 0 when ``n`` is too far out for the ids to be dense (more than 8 entries per id,
    plus 8192), else at least ``n + 1``."""
    bound = 8 * (count + 1024)
    if not 0 <= n < min(bound, _SERIALS_LIMIT):
        return 0
    return min(max(n + 1, size + size // 2), bound)


class TradeIndex:
    """Trade ids -> ``0, 1, 2 ...`` in the order first added, a few bytes per id.

    An id ``t_<n>`` is kept as its place in a table ``n -> index`` that grows while the
    ids are dense (at most 32 bytes of table per id added, plus 32 KB); the id is written
    back from ``n``.  Any other id -- an integer, another string, an ``n`` too far out --
    is kept as given in a dict, with a dict's equality (``1`` and ``1.0`` are one id).
    The last few ids added are also kept as given, to answer their twins quickly.
    """

    __slots__ = ("count", "slots", "others", "recent")

    def __init__(self) -> None:
        self.count = 0
        """Ids added."""
        self.slots: array[int] = array("i")
        """``n -> index`` (-1: no such id)."""
        self.others: dict[Any, int] = {}
        """Other ids -> index."""
        self.recent: dict[Any, int] = {}
        """The last ids added (at most :data:`_RECENT`) -> index."""

    def __len__(self) -> int:
        return self.count

    def find(self, trade_id: Any) -> int:
        """The id's index, or -1 when it was never added."""
        found = self.recent.get(trade_id)
        if found is not None:
            return found
        n = _serial(trade_id)
        if 0 <= n < len(self.slots):
            found = self.slots[n]
            if found >= 0:
                return found
        if self.others:
            return self.others.get(trade_id, -1)
        return -1

    def index(self, trade_id: Any) -> tuple[int, bool]:
        """``(index, True)`` after adding a new id; ``(index, False)`` for one seen before."""
        recent = self.recent
        found = recent.get(trade_id)
        if found is not None:
            return found, False
        n = _SERIALS.get(trade_id)
        if n is None:
            n = _serial(trade_id)
        slots = self.slots
        if 0 <= n < len(slots):
            found = slots[n]
            if found >= 0:
                return found, False
            if not self.others:  # the usual new id: a free slot, nothing kept aside to look at
                index = slots[n] = self.count
                self.count = index + 1
                if len(recent) >= _RECENT:
                    recent.clear()
                recent[trade_id] = index
                return index, True
        return self._add(trade_id, n)

    def _add(self, trade_id: Any, n: int) -> tuple[int, bool]:
        """:meth:`index` for an id not found in the recent ids or the table."""
        if self.others:
            found = self.others.get(trade_id)
            if found is not None:
                return found, False
        slots = self.slots
        index = self.count
        if n >= len(slots):
            size = _dense(n, index, len(slots))
            if size:
                slots.extend(array("i", [-1]) * (size - len(slots)))
        if 0 <= n < len(slots):
            slots[n] = index
        else:
            self.others[trade_id] = index
        self.count = index + 1
        recent = self.recent
        if len(recent) >= _RECENT:
            recent.clear()
        recent[trade_id] = index
        return index, True

    def add(self, trade_id: Any) -> int:
        """Add an id (if new) and return its index."""
        return self.index(trade_id)[0]

    def __contains__(self, trade_id: Any) -> bool:
        return self.find(trade_id) >= 0

    def id_at(self, index: int) -> Any:
        """The id added as ``index`` (an equal string for ``t_<n>``)."""
        if not 0 <= index < self.count:
            raise IndexError(index)
        for trade_id, found in self.others.items():
            if found == index:
                return trade_id
        return f"t_{self.slots.index(index)}"

    def __iter__(self) -> Iterator[Any]:
        """Every id, in the order added."""
        serial = array("i", [-1]) * self.count  # index -> n
        for n, index in enumerate(self.slots):
            if index >= 0:
                serial[index] = n
        other_ids = {index: trade_id for trade_id, index in self.others.items()}
        for index, n in enumerate(serial):
            yield f"t_{n}" if n >= 0 else other_ids[index]


class TradeIdSet:
    """A set of trade ids, a byte or so each: ``t_<n>`` as a flag at ``n`` while the ids
    are dense (as :class:`TradeIndex`), any other id kept as given in a set.  The last
    few ids added are also kept as given, to answer their twins quickly."""

    __slots__ = ("flags", "count", "others", "recent")

    def __init__(self) -> None:
        self.flags = bytearray()
        self.count = 0
        self.others: set[Any] = set()
        self.recent: set[Any] = set()

    def __len__(self) -> int:
        return self.count

    def __contains__(self, trade_id: Any) -> bool:
        if trade_id in self.recent:
            return True
        n = _serial(trade_id)
        if 0 <= n < len(self.flags) and self.flags[n]:
            return True
        return bool(self.others) and trade_id in self.others

    def add(self, trade_id: Any) -> bool:
        """Add the id; True when it was not in the set."""
        recent = self.recent
        if trade_id in recent:
            return False
        n = _SERIALS.get(trade_id)
        if n is None:
            n = _serial(trade_id)
        flags = self.flags
        if 0 <= n < len(flags):
            if flags[n]:
                return False
            if not self.others:  # the usual new id
                flags[n] = 1
                self.count += 1
                if len(recent) >= _RECENT:
                    recent.clear()
                recent.add(trade_id)
                return True
        if self.others and trade_id in self.others:
            return False
        if n >= len(flags):
            size = _dense(n, self.count, len(flags))
            if size:
                flags.extend(bytes(size - len(flags)))
        if 0 <= n < len(flags):
            flags[n] = 1
        else:
            self.others.add(trade_id)
        self.count += 1
        if len(recent) >= _RECENT:
            recent.clear()
        recent.add(trade_id)
        return True


def append_code(column: array[int], code: int) -> array[int]:
    """Append a non-negative ``code`` to an unsigned array, widened first if it must be;
    returns the array (a new one when widened)."""
    while True:
        try:
            column.append(code)
            return column
        except OverflowError:
            column = array(_WIDER[column.typecode], column)


class ShapeTable:
    """Item maps -> ``0, 1, 2 ...``, each distinct map (keys, counts and order) kept once.

    A map of ``str`` keys and plain ``int`` counts is kept as its item tuple and shared;
    any other map (a float or ``True`` count, which a tuple would not tell from an int)
    is kept as its own copy.  :meth:`mapping` gives a dict equal to the map, in its order.
    """

    __slots__ = ("codes", "shapes", "pairs")

    def __init__(self) -> None:
        self.codes: dict[tuple[tuple[str, int], ...], int] = {}
        self.shapes: list[tuple[tuple[str, int], ...] | dict[Any, Any]] = []
        self.pairs: dict[tuple[str, int], tuple[str, int]] = {}
        """Each ``(item, count)`` pair of the shared maps, kept once."""

    def __len__(self) -> int:
        return len(self.shapes)

    def code(self, items: Mapping[Any, Any]) -> int:
        key = tuple(items.items())
        for name, quantity in key:
            if type(quantity) is not int or type(name) is not str:
                self.shapes.append(dict(items))
                return len(self.shapes) - 1
        code = self.codes.get(key)
        if code is None:
            pairs = self.pairs  # a new map: its (item, count) pairs shared with the other maps
            key = tuple([pairs.setdefault(pair, pair) for pair in key])
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
        """True when ``code`` stands for every map of its goods (a private copy otherwise)."""
        return type(self.shapes[code]) is tuple
