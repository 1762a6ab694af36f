"""The tool's own words around a number (a count and its noun, singular for exactly one), and around a name that
names nothing (the names a typo away, for a "did you mean": :func:`nearest`).

Every room writes counts into its messages, notes and headings ("1 record was left out",
"3 figures differ"); a count is never hedged as ``record(s)`` or ``match(es)``.

>>> count(1, "match", "matches"), count(3, "region"), count(1200, "record", thousands=True)
('1 match', '3 regions', '1,200 records')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["count", "nearest"]


def count(n: Any, one: str, many: str | None = None, *, thousands: bool = False) -> str:
    """``1 round``, ``240 rounds``: a number and its noun, singular for exactly 1 (``many`` when the plural
    is not ``one`` + s; ``thousands``: the number written ``1,234``).

    >>> count(0, "map"), count(2, "match", "matches"), count(1.0, "point"), count(2.5, "point")
    ('0 maps', '2 matches', '1.0 point', '2.5 points')
    """
    text = f"{n:,}" if thousands and isinstance(n, int) else str(n)
    return f"{text} {one if n == 1 else (many or one + 's')}"


def _edits_within(wanted: str, form: str) -> int | None:
    """The edits (insertions, deletions, substitutions, swaps of two neighbours: optimal string alignment) from
    ``wanted`` to ``form``, when at most one per four characters of ``form`` (at least one); else None."""
    from rapidfuzz.distance import OSA

    most = max(1, len(form) // 4)
    edits = OSA.distance(wanted, form, score_cutoff=most)
    return edits if edits <= most else None


def nearest(query: str, options: Sequence[Sequence[str]], most: int = 3) -> list[int]:
    """The indexes of the ``options`` (each one or more names for one thing) a few edits from ``query`` (both
    case-folded, blanks around stripped; a typo, two letters swapped, a letter of another alphabet or case, a
    blank pasted along: at most one edit per four characters), those the fewest edits away only, in order, at
    most ``most``: what a "did you mean" offers for a name that names nothing.

    >>> nearest("Ahs", [["a_e0c0", "Ash"], ["a_143a", "Nyx"]]), nearest("behavior-reprot", [["behavior-report"]])
    ([0], [0])
    >>> nearest("Zed", [["Ash"]])
    []
    """
    wanted = query.strip().casefold()
    found: list[tuple[int, int]] = []
    for k, names in enumerate(options):
        edits = [e for e in (_edits_within(wanted, n.strip().casefold()) for n in names) if e is not None]
        if edits:
            found.append((min(edits), k))
    fewest = min((edits for edits, _ in found), default=0)
    return [k for edits, k in sorted(found) if edits == fewest][:most]
