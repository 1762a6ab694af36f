"""Finding one seat's row in a table sorted by agent id (private to the profile room)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Protocol, TypeVar


class _Row(Protocol):
    @property
    def agent(self) -> str: ...


R = TypeVar("R", bound=_Row)


def _agent(row: _Row) -> str:
    return row.agent


def find_seat(seats: Sequence[R], agent: str) -> R | None:
    """The row of ``agent`` in ``seats`` (sorted by agent id), or None: a bisection, so a
    report over every seat costs seats × log seats, not seats².

    >>> from collections import namedtuple
    >>> Row = namedtuple("Row", "agent n")
    >>> rows = (Row("a_1", 1), Row("a_2", 2))
    >>> find_seat(rows, "a_2"), find_seat(rows, "a_0")
    (Row(agent='a_2', n=2), None)
    """
    i = bisect_left(seats, agent, key=_agent)
    return seats[i] if i < len(seats) and seats[i].agent == agent else None
