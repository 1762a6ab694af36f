"""Whether a recomputed figure is the page's: the tolerances of seed 000.

*Recomputing a study yourself*: "A comparison's figures read same within one unit
of their last digit (three decimals, four on a log ratio, and up to three more
where a difference near zero keeps its side of zero, in the record and in the
script) ... An arm's mean and interval read same within one unit of their second
decimal ... A model's mean and interval must match at their one decimal, and a
count, an exact test's p and a verdict must match exactly."  And: "The page prints
each figure from the value the record keeps, rounded half away from zero at the
places shown ... one recomputed from the files does once it is kept to the
record's places first".

So a recomputed figure is first kept to the places the record keeps
(:func:`record_places`) and rounded half away from zero (:func:`half_away_units`),
then set beside the page's in whole units of its last digit.

>>> comparison_same(0.1234, 0.123, 3), comparison_same(0.1251, 0.123, 3)
(True, False)
>>> record_places(0.0004, 3), comparison_same(0.0004, 0.0, 3)  # near zero the record keeps 4 places
(4, False)
>>> arm_same(63.2549, 63.26), model_same(63.25, 63.3), model_same(63.24, 63.3)
(True, True, False)
"""

from __future__ import annotations

import math

__all__ = [
    "SAME",
    "DIFFERS",
    "COMPARISON_PLACES",
    "LOG_RATIO_PLACES",
    "ARM_PLACES",
    "MODEL_PLACES",
    "NEAR_ZERO_EXTRA",
    "half_away_units",
    "half_away",
    "record_places",
    "comparison_same",
    "arm_same",
    "model_same",
    "exact_same",
]

SAME = "same"
DIFFERS = "DIFFERS"

COMPARISON_PLACES = 3
"""A comparison's figures on a difference: three decimals."""
LOG_RATIO_PLACES = 4
"""A comparison's figures on a log ratio: four decimals."""
ARM_PLACES = 2
"""An arm's mean and interval: two decimals (read same within one unit)."""
MODEL_PLACES = 1
"""A model's mean and interval: one decimal (must match)."""
NEAR_ZERO_EXTRA = 3
"""Places added, at most, so a comparison figure near zero keeps its side of zero."""


def half_away_units(x: float, places: int) -> int:
    """``x`` rounded half away from zero at ``places``, as whole units of ``10**-places``.

    >>> half_away_units(0.0125, 3), half_away_units(-0.0125, 3), half_away_units(2.675, 2)
    (13, -13, 268)
    """
    magnitude = math.floor(abs(x) * 10.0**places + 0.5)
    return -magnitude if x < 0 else magnitude


def half_away(x: float, places: int) -> float:
    """``x`` as the page prints it: rounded half away from zero at ``places``."""
    return half_away_units(x, places) / 10.0**places


def record_places(x: float, base: int) -> int:
    """The places a comparison figure is kept at: ``base``, or up to three more while it rounds to zero.

    >>> record_places(0.012, 3), record_places(-0.00004, 3), record_places(0.0, 3)
    (3, 5, 6)
    """
    for places in range(base, base + NEAR_ZERO_EXTRA + 1):
        if half_away_units(x, places) != 0:
            return places
    return base + NEAR_ZERO_EXTRA


def _page_units(page: float, places: int) -> int:
    scale: int = 10**places  # (places >= 0: an int)
    return round(page * scale)


def comparison_same(ours: float, page: float, base: int) -> bool:
    """A comparison's figure: same within one unit of the last digit kept, on the same side of zero.

    Both figures are kept to the finer of the places the record keeps for either
    (``base`` = 3 on a difference, 4 on a log ratio, and up to three more near zero).
    """
    places = max(record_places(ours, base), record_places(page, base))
    mine = half_away_units(ours, places)
    theirs = _page_units(page, places)
    if mine * theirs < 0:
        return False
    return abs(mine - theirs) <= 1


def arm_same(ours: float, page: float) -> bool:
    """An arm's mean or interval end: same within one unit of the second decimal."""
    return abs(half_away_units(ours, ARM_PLACES) - _page_units(page, ARM_PLACES)) <= 1


def model_same(ours: float, page: float) -> bool:
    """A model's mean or interval end: the same at one decimal."""
    return half_away_units(ours, MODEL_PLACES) == _page_units(page, MODEL_PLACES)


def exact_same(ours: object, page: object) -> bool:
    """A count, an exact test's p or a verdict: exactly equal."""
    if isinstance(ours, float) or isinstance(page, float):
        return isinstance(ours, (int, float)) and isinstance(page, (int, float)) and float(ours) == float(page)
    return ours == page
