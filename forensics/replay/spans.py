"""Sets of ticks held as spans, so a count over ticks costs the changes, not the ticks.

A tick set is a sorted tuple of disjoint, non-adjacent half-open spans ``(start, stop)``.
Every "ticks alive in the match", "ticks in the windows after an exposure" count goes
through these: a log's ticks may run up to the schema bound (2^53 − 1), so no count may
walk the ticks one by one; it walks the spans and the ticks the log actually holds.

>>> merged([(5, 9), (0, 2), (8, 12), (2, 3)])
((0, 3), (5, 12))
>>> intersect(((0, 10), (20, 30)), ((5, 25),))
((5, 10), (20, 25))
>>> size(((0, 3), (5, 12)))
10
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

__all__ = ["Spans", "merged", "intersect", "size", "contains"]

Spans = tuple[tuple[int, int], ...]
"""Sorted, disjoint, non-adjacent half-open spans of ticks."""


def merged(spans: Iterable[tuple[int, int]]) -> Spans:
    """The union of half-open spans, sorted and merged (empty spans dropped)."""
    out: list[list[int]] = []
    for start, stop in sorted(s for s in spans if s[0] < s[1]):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], stop)
        else:
            out.append([start, stop])
    return tuple((a, b) for a, b in out)


def intersect(a: Spans, b: Spans) -> Spans:
    """The ticks in both span sets (a merge walk over the two)."""
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        start, stop = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if start < stop:
            out.append((start, stop))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def size(spans: Spans) -> int:
    """The number of ticks in the set."""
    return sum(stop - start for start, stop in spans)


def contains(spans: Spans, starts: Sequence[int], tick: int) -> bool:
    """Whether ``tick`` is in the set (``starts``: the spans' starts, for the bisection).

    >>> s = ((0, 3), (5, 12))
    >>> [contains(s, [0, 5], t) for t in (2, 3, 5, 12)]
    [True, False, True, False]
    """
    k = bisect_right(starts, tick) - 1
    return k >= 0 and tick < spans[k][1]
