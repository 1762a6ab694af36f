"""Per-agent change lists shared by the live world and the timeline it leaves (private).

One agent's history is three sorted lists of ticks (``array('q')``) with the value that
holds from each tick on (region, alive, dormant); several changes in one tick keep only
the last (end-of-tick state), and the set of regions it passed through within a tick.  A
query is a bisection.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from typing import Any

class Track:
    """One agent's change lists: sorted ticks (``array``) and the value from then on.

    Several changes in one tick keep only the last (end-of-tick state).
    """

    __slots__ = ("r_ticks", "r_vals", "a_ticks", "a_vals", "d_ticks", "d_vals", "passed")

    def __init__(self) -> None:
        self.r_ticks: array[int] = array("q")
        self.r_vals: list[str] = []
        self.a_ticks: array[int] = array("q")
        self.a_vals: array[int] = array("b")
        self.d_ticks: array[int] = array("q")
        self.d_vals: array[int] = array("b")
        self.passed: set[str] = set()
        """The regions it stood in only within a tick (a later change of the same tick replaced them)."""

    def visited(self) -> frozenset[str]:
        """Every region it stood in: those its change list holds and those it passed through."""
        return frozenset(self.r_vals).union(self.passed)


def record(ticks: array[int], vals: Any, tick: int, value: Any) -> None:
    if ticks and ticks[-1] == tick:
        vals[-1] = value
    else:
        ticks.append(tick)
        vals.append(value)


def value_at(ticks: array[int], vals: Any, tick: int, default: Any) -> Any:
    i = bisect_right(ticks, tick)
    return vals[i - 1] if i else default
