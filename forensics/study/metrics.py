"""What a study's ``metric`` column can name, and the range a trial's value lies in.

Seed 000, *Recomputing a study yourself*: the script recomputes "each trial's value
from its seats, where the metric is a seat score: the Fitness Index, one of its five
dimensions, rank, survival or map coverage"; on any other metric it takes each
trial's value on trust.  Intervals are "cut to the metric's range".

>>> METRICS["coverage"].column, METRICS["coverage"].low, METRICS["coverage"].high
('coverage', 0.0, 1.0)
>>> metric_range("rank", field_size=8)
(1.0, 8.0)
>>> metric_range("trades_per_seat", field_size=8) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SeatMetric", "METRICS", "DIFFERENCE", "LOG_RATIO", "SCALES", "metric_range", "difference_range"]

DIFFERENCE = "difference"
"""A comparison reads each pair as arm's value minus the control's."""
LOG_RATIO = "logRatio"
"""A comparison reads each pair as ln(arm's value / control's value) (four decimals; seed: "four on a log ratio")."""
SCALES = (DIFFERENCE, LOG_RATIO)


@dataclass(frozen=True)
class SeatMetric:
    """A metric that is a seat score: each trial's value follows from its focal seats."""

    name: str
    """The ``metric`` column's value."""
    column: str
    """The ``seats.csv`` column holding each seat's score."""
    low: float
    """Lowest value a seat can score."""
    high: float | None
    """Highest value (None: the field size, for rank)."""


METRICS: dict[str, SeatMetric] = {
    m.name: m
    for m in (
        SeatMetric("fitness_index", "fitness_index", 0.0, 100.0),
        SeatMetric("survival", "survival", 0.0, 100.0),
        SeatMetric("economy", "economy", 0.0, 100.0),
        SeatMetric("social", "social", 0.0, 100.0),
        SeatMetric("adaptation", "adaptation", 0.0, 100.0),
        SeatMetric("competitiveness", "competitiveness", 0.0, 100.0),
        SeatMetric("rank", "rank", 1.0, None),
        SeatMetric("coverage", "coverage", 0.0, 1.0),
    )
}
"""The seat-score metrics, by the name the ``metric`` column gives (reading ``metric-names``)."""


def metric_range(name: str, *, field_size: int) -> tuple[float, float] | None:
    """The range of a trial's value on metric ``name`` (None: not a seat score, no known range).

    Rank runs from 1 to the field size (the most seats any trial of the study has).
    """
    metric = METRICS.get(name)
    if metric is None:
        return None
    high = float(field_size) if metric.high is None else metric.high
    return (metric.low, high)


def difference_range(value_range: tuple[float, float] | None, scale: str) -> tuple[float, float] | None:
    """The range a paired difference lies in, to which a comparison's interval is cut.

    A difference of two values in ``[lo, hi]`` lies in ``[-(hi - lo), hi - lo]``; a log
    ratio has no bound (reading ``interval-cut``).

    >>> difference_range((0.0, 100.0), DIFFERENCE)
    (-100.0, 100.0)
    >>> difference_range((0.0, 100.0), LOG_RATIO) is None
    True
    """
    if value_range is None or scale == LOG_RATIO:
        return None
    width = value_range[1] - value_range[0]
    return (-width, width)
