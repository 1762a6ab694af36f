"""Rubric arithmetic: half-up rounding on IEEE 754 doubles; and reading a positive whole number
written in ASCII digits (:func:`positive_whole`, for settings and headers).

The rubric (seed 000, *Arithmetic* and *Rounding*) computes everything in double
precision and rounds a half *up on the double itself*: one decimal place is
``floor(x * 10 + 0.5) / 10``, a cent ``floor(x * 100 + 0.5) / 100``, map coverage
``floor(1000 * regions / 144 + 0.5) / 1000``.  Python's ``round`` (halves to even on
the exact binary value) and ``decimal`` can land on the other side of a half, so
every rubric figure goes through these helpers.

>>> half_up(0.6 * 84.25 + 0.4 * 37.5, 1)
65.6
>>> coverage(9, 144)
0.063
>>> half_up(321.025, 2)
321.02
"""

from __future__ import annotations

import math

__all__ = ["half_up", "coverage", "rate_per_100", "clamp", "positive_whole"]


def half_up(x: float, places: int) -> float:
    """Round ``x`` to ``places`` decimals, a half rounding up, on the double.

    Rubric 2.4, *Arithmetic*: ``floor(x * 10**places + 0.5) / 10**places``.
    """
    scale = 10.0**places
    return math.floor(x * scale + 0.5) / scale


def coverage(regions: int, total: int) -> float:
    """Map coverage: distinct regions stood in over the map's regions, 3 decimals half-up.

    Rubric *Counters*: ``floor(1000 * regions / total + 0.5) / 1000``.
    """
    if total <= 0:
        raise ValueError("a map has at least one region")
    return math.floor(1000 * regions / total + 0.5) / 1000


def rate_per_100(count: float, rounds_alive: int, match_rounds: int) -> float:
    """A flow as a rate per 100 rounds alive (rubric *Rates*, 2.x).

    ``count * 100 / max(rounds_alive, min(match_rounds, 300))``; 0 when the
    denominator is 0 (a match of no rounds).
    """
    denominator = max(rounds_alive, min(match_rounds, 300))
    if denominator <= 0:
        return 0.0
    return count * 100 / denominator


def clamp(x: float, low: float = 0.0, high: float = 100.0) -> float:
    """Keep ``x`` within ``[low, high]`` ("kept within 0 to 100")."""
    return min(max(x, low), high)


def positive_whole(text: str, most: int | None = None) -> int | None:
    """``text`` (around it, whitespace allowed) as a positive whole number written in ASCII digits
    (leading zeros allowed), else None: ``int()`` alone would also take ``1_000``, ``+5``, ``-0`` and
    other scripts' digits (``١٢``), and ``str.isdigit`` takes ``²``, which ``int()`` refuses.

    Given ``most``, a larger number reads as ``most`` (even one of thousands of digits); without it, a
    number of more digits than ``int()`` converts (about 4,300) is None.

    >>> positive_whole(" 0042 "), positive_whole("0"), positive_whole("1_000"), positive_whole("+5")
    (42, None, None, None)
    >>> positive_whole("²"), positive_whole("١٢"), positive_whole(""), positive_whole("9" * 5000, most=80)
    (None, None, None, 80)
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        return None
    digits = digits.lstrip("0")
    if not digits:
        return None
    if most is not None and len(digits) > len(str(most)):
        return most
    try:
        value = int(digits)
    except ValueError:  # more digits than int() converts
        return None
    return value if most is None else min(value, most)
