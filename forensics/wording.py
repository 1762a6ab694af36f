"""The tool's own words around a number: a count and its noun, singular for exactly one.

Every room writes counts into its messages, notes and headings ("1 record was left out",
"3 figures differ"); a count is never hedged as ``record(s)`` or ``match(es)``.

>>> count(1, "match", "matches"), count(3, "region"), count(1200, "record", thousands=True)
('1 match', '3 regions', '1,200 records')
"""

from __future__ import annotations

from typing import Any

__all__ = ["count"]


def count(n: Any, one: str, many: str | None = None, *, thousands: bool = False) -> str:
    """``1 round``, ``240 rounds``: a number and its noun, singular for exactly 1 (``many`` when the plural
    is not ``one`` + s; ``thousands``: the number written ``1,234``).

    >>> count(0, "map"), count(2, "match", "matches"), count(1.0, "point"), count(2.5, "point")
    ('0 maps', '2 matches', '1.0 point', '2.5 points')
    """
    text = f"{n:,}" if thousands and isinstance(n, int) else str(n)
    return f"{text} {one if n == 1 else (many or one + 's')}"
