"""A seat's Fitness Index from its row, and a trial's value from its seats.

Seed 000, *Recomputing a study yourself*, ``seats.csv``: "A seat's Fitness Index is
its five dimensions as the row gives them, each times its weight (survival 0.25,
economy 0.25, social 0.2, adaptation 0.15, competitiveness 0.15), added from left
to right in that order, held to 0 to 100 and rounded to a tenth with halves
rounded up.  Python's ``sum()``, which compensates its float sums from 3.12, and
``round()``, which rounds halves to even, can land a tenth away on a seat whose
total falls on a half."  That is the rubric's own index
(:func:`daishi_forensics.score.rubric.fitness_index`), used here as is: the weights and
the adding order are defined once.

A trial's value, where the metric is a seat score, is the mean of its focal seats'
scores, added left to right and rounded half up to three decimals on the double
(*Arithmetic*; reading ``trial-value``).

>>> seat_fitness({"survival": 93.0, "economy": 29.5, "social": 74.3, "adaptation": 35.8,
...               "competitiveness": 17.3})  # 53.449999999999996 on the double: 53.5, round() says 53.4
53.5
>>> trial_value_units([61.5, 58.25])  # (61.5 + 58.25) / 2 = 59.875
59875
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from daishi_forensics.score.rubric import WEIGHTS, fitness_index

__all__ = ["WEIGHTS", "seat_fitness", "half_up_units", "trial_value_units"]


def seat_fitness(dimensions: Mapping[str, float | None]) -> float | None:
    """The Fitness Index of a seat's five dimensions as its row gives them; None when one is empty."""
    given = {name: dimensions.get(name) for name, _ in WEIGHTS}
    if any(value is None for value in given.values()):
        return None
    return fitness_index({name: float(value) for name, value in given.items() if value is not None})


def half_up_units(x: float, places: int) -> int:
    """``x`` rounded half up on the double, as a whole number of ``10**-places``.

    ``floor(x · 10^places + 0.5)`` (rubric *Arithmetic*): the numerator of
    :func:`daishi_forensics.arithmetic.half_up`.

    >>> half_up_units(0.6 * 84.25 + 0.4 * 37.5, 1), round(0.6 * 84.25 + 0.4 * 37.5, 1)
    (656, 65.5)
    """
    return math.floor(x * 10.0**places + 0.5)


def trial_value_units(scores: Sequence[float]) -> int | None:
    """A trial's value from its focal seats' scores, in thousandths; None without a score.

    The scores are added left to right (not ``sum()``), divided by their number and
    rounded half up to three decimals on the double.
    """
    if not scores:
        return None
    total = 0.0
    for score in scores:
        total = total + score
    return half_up_units(total / len(scores), 3)
