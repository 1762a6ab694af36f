"""The page's reading of a study, recomputed from its two files.

Seed 000, *Recomputing a study yourself*, *What it checks*:

* each comparison against the control (:func:`comparison_figures`): the mean paired
  difference, the interval (Student t cut to the metric's range, or the confidence
  sequence under the anytime rule), the interval that counts each map once where
  maps repeat, the exact sign-flip test, and the verdict with the percentile
  bootstrap the fixed rule runs inside it;
* each arm (:func:`arm_figures`): its mean over its trials and their 95% interval;
* each model (:func:`model_figures`): its mean Fitness Index over its seats in whole
  trials, whatever the study's metric, with the interval counting each trial once.

Which pairs a comparison reads is the files' own account (the ``in_comparison``
column), taken on trust; so is a withheld verdict's reason (the page's).  The
comparisons read each pair "at the three decimals the trials file holds".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .compare import LOG_RATIO_PLACES, half_away_units
from .files import Number, StudyFiles, TrialRow, units
from daishi_forensics.errors import StudyUnreadable
from .metrics import LOG_RATIO
from .statistics import (
    Interval,
    bootstrap_seed,
    clustered_interval,
    confidence_sequence,
    mean,
    percentile_bootstrap,
    SignFlipTooLarge,
    sign_flip_p,
    t_interval,
    verdict,
)

__all__ = [
    "ARM_LEVEL",
    "MODEL_LEVEL",
    "Design",
    "PairDifference",
    "ComparisonFigures",
    "ArmFigures",
    "ModelFigures",
    "StudyFigures",
    "pairs_read",
    "comparison_figures",
    "arm_figures",
    "model_figures",
    "recompute",
]

ARM_LEVEL = 0.95
"""An arm's interval: "their 95% interval"."""
MODEL_LEVEL = 0.95
"""A model's interval (the seed gives it no level; reading ``model-interval``)."""
FITNESS_RANGE = (0.0, 100.0)
"""The Fitness Index is held to 0 to 100."""


@dataclass(frozen=True)
class Design:
    """What the recomputation needs besides the rows."""

    study: str
    kind: str
    """``series`` or ``paired``."""
    metric: str
    scale: str
    """``difference`` or ``logRatio``."""
    value_range: tuple[float, float] | None
    """The range of a trial's value (an arm's interval is cut to it)."""
    difference_range: tuple[float, float] | None
    """The range of a paired difference (a comparison's intervals are cut to it)."""
    stopping_rule: str | None
    comparison_level: float | None
    tuning: float | None
    """The confidence sequence's tuning constant, under the anytime rule."""
    withheld: tuple[tuple[int, str], ...] = ()
    """Comparisons whose verdict the page withholds, and why (taken on trust)."""


@dataclass(frozen=True)
class PairDifference:
    """One pair a comparison read."""

    trial: int
    map_seed: int | None
    control: float
    value: float
    difference: float
    """The arm's value minus the control's, or on a log ratio ln(value / control)."""
    units: int
    """The difference on the exact test's grid: thousandths, or on a log ratio ten-thousandths."""


@dataclass(frozen=True)
class ComparisonFigures:
    """One comparison against the control, recomputed."""

    arm: int
    label: str
    pairs: int
    """Pairs read."""
    maps: int
    """Distinct maps among them."""
    mean_difference: float | None
    interval: Interval | None
    map_interval: Interval | None
    """Counting each map once; None unless a map repeats."""
    exact_p: float | None
    bootstrap: Interval | None
    """The percentile bootstrap inside the fixed rule's verdict (None under the anytime rule)."""
    verdict: str | None
    """None when the page withholds it."""
    withheld: str | None
    """The page's reason for withholding the verdict."""
    differences: tuple[PairDifference, ...]


@dataclass(frozen=True)
class ArmFigures:
    """One arm, recomputed."""

    arm: int
    label: str
    rows: int
    trials: int
    """Trials with a value."""
    mean: float | None
    interval: Interval | None


@dataclass(frozen=True)
class ModelFigures:
    """One model's Fitness Index over its seats in whole trials."""

    model: str
    seats: int
    trials: int
    mean: float | None
    interval: Interval | None


@dataclass(frozen=True)
class StudyFigures:
    """Everything recomputed."""

    comparisons: tuple[ComparisonFigures, ...]
    arms: tuple[ArmFigures, ...]
    models: tuple[ModelFigures, ...]


def _rows_by_key(files: StudyFiles) -> dict[tuple[int, int], TrialRow]:
    out: dict[tuple[int, int], TrialRow] = {}
    for row in files.trials:
        out.setdefault((row.trial, row.arm), row)
    return out


def pairs_read(files: StudyFiles, arm: int, scale: str) -> tuple[PairDifference, ...]:
    """The pairs comparison ``arm`` read, in trial order: its rows marked ``in_comparison``
    whose arm and control rows both hold a value (positive ones, on a log ratio).

    A row marked read whose pair cannot be read is left out here; :mod:`.checks`
    reports it.
    """
    rows = _rows_by_key(files)
    out: list[PairDifference] = []
    for row in files.trials:
        if row.arm != arm or row.in_comparison is not True:
            continue
        control = rows.get((row.trial, 0))
        if control is None or control.value is None or row.value is None:
            continue
        if scale == LOG_RATIO:
            if control.value.value <= 0 or row.value.value <= 0:
                continue
            difference = math.log(row.value.value / control.value.value)
            grid = half_away_units(difference, LOG_RATIO_PLACES)
        else:
            grid = _thousandths(row.value) - _thousandths(control.value)
            difference = grid / 1000
        out.append(PairDifference(row.trial, control.map_seed, control.value.value, row.value.value, difference,
                                  grid))
    return tuple(out)


def _thousandths(value: Number) -> int:
    """A value on the file's grid; one written with more places (a finding of its own) is first kept to three."""
    return units(value) if value.places <= 3 else half_away_units(value.value, 3)


def _labels(files: StudyFiles) -> dict[int, str]:
    labels: dict[int, str] = {}
    for row in files.trials:
        labels.setdefault(row.arm, row.arm_label)
    return labels


def _sign_flip(files: StudyFiles, arm: int, pairs: Sequence[PairDifference]) -> float | None:
    """The pairs' exact sign-flip p; a test too large to count in bounded memory is a study that cannot be
    audited here (exit 2), naming the trials file, its ``value`` column and the comparison."""
    try:
        return sign_flip_p([d.units for d in pairs])
    except SignFlipTooLarge as exc:
        raise StudyUnreadable(f"comparison of arm {arm} against the control: {exc}", file=files.trials_name,
                              field="value") from exc


def comparison_figures(files: StudyFiles, design: Design, arm: int) -> ComparisonFigures:
    """Comparison ``arm`` against the control (arm 0)."""
    pairs = pairs_read(files, arm, design.scale)
    differences = [p.difference for p in pairs]
    level = design.comparison_level if design.comparison_level is not None else 0.95
    anytime = design.stopping_rule == "anytime"
    tuning = design.tuning if anytime else None
    if anytime:
        if tuning is None:
            raise ValueError("the anytime rule needs the confidence sequence's tuning constant")
        interval = confidence_sequence(differences, level, tuning, design.difference_range)
    else:
        interval = t_interval(differences, level, design.difference_range)
    maps = [p.map_seed if p.map_seed is not None else f"trial {p.trial}" for p in pairs]
    repeated = len(set(maps)) < len(maps)
    map_interval = (clustered_interval(differences, level, clusters=maps, bounds=design.difference_range,
                                       tuning=tuning) if repeated else None)
    p = _sign_flip(files, arm, pairs)
    bootstrap = None if anytime else percentile_bootstrap(differences, level, bootstrap_seed(design.study, arm))
    withheld = dict(design.withheld).get(arm)
    decided = None if withheld is not None else verdict(design.stopping_rule or "fixed", level, interval, p, bootstrap)
    return ComparisonFigures(arm, _labels(files).get(arm, ""), len(pairs), len(set(maps)), mean(differences),
                             interval, map_interval, p, bootstrap, decided, withheld, pairs)


def arm_figures(files: StudyFiles, design: Design) -> tuple[ArmFigures, ...]:
    """Every arm's mean over its trials with a value, and their 95% interval cut to the metric's range."""
    labels = _labels(files)
    out: list[ArmFigures] = []
    for arm in sorted(labels):
        rows = [r for r in files.trials if r.arm == arm]
        values = [r.value.value for r in rows if r.value is not None]
        out.append(ArmFigures(arm, labels[arm], len(rows), len(values), mean(values),
                              t_interval(values, ARM_LEVEL, design.value_range)))
    return tuple(out)


def model_figures(files: StudyFiles) -> tuple[ModelFigures, ...]:
    """Every model's mean Fitness Index over its scored seats in whole trials, guests left out.

    The interval counts each trial (one match: a trial of one arm) once: the
    clustered standard error with the trials as clusters (reading ``model-interval``).
    """
    seats: dict[str, list[tuple[float, tuple[int, int]]]] = {}
    for seat in files.seats:
        if not seat.whole_trial or seat.guest or seat.fitness_index is None:
            continue
        seats.setdefault(seat.model, []).append((seat.fitness_index.value, (seat.trial, seat.arm)))
    out: list[ModelFigures] = []
    for model in sorted(seats):
        scores = [s for s, _ in seats[model]]
        clusters = [c for _, c in seats[model]]
        out.append(ModelFigures(model, len(scores), len(set(clusters)), mean(scores),
                                clustered_interval(scores, MODEL_LEVEL, clusters=clusters, bounds=FITNESS_RANGE)))
    return tuple(out)


def recompute(files: StudyFiles, design: Design, arms: Sequence[int] | None = None) -> StudyFigures:
    """Every figure of the page, from the files (``arms``: the comparisons to make; default every arm
    past the control on a paired experiment, none on a series)."""
    if arms is None:
        arms = sorted({r.arm for r in files.trials if r.arm > 0}) if design.kind == "paired" else []
    return StudyFigures(tuple(comparison_figures(files, design, arm) for arm in arms), arm_figures(files, design),
                        model_figures(files))
