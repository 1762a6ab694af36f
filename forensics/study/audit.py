"""The study audit: recompute a study's page from its two files and set each figure beside the page's.

Seed 000, *Recomputing a study yourself*.  :func:`audit_study` reads the files
strictly (:mod:`.files`), reads the page's figures and the recipe (:mod:`.page`),
recomputes every figure (:mod:`.figures`), checks the files against each other and
against the page's counts (:mod:`.checks`), and compares each figure at the seed's
tolerances (:mod:`.compare`).  It returns a frozen :class:`StudyAudit` with the two
counts kept apart (figures that match; checks that agree), what was taken on trust
and the readings used where the seed is silent.

Exit codes (the seed's, :data:`daishi_forensics.exitcodes.STUDY_TABLE`): 0 when every
figure matches and every check agrees, 1 when one does not; a study that cannot be
read raises :class:`~daishi_forensics.errors.StudyUnreadable` (exit 2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from daishi_forensics import exitcodes
from daishi_forensics.errors import StudyUnreadable

from .checks import Check, field_size, file_checks, page_checks, recipe_checks, scale_checks, study_kind
from .compare import (
    COMPARISON_PLACES,
    DIFFERS,
    LOG_RATIO_PLACES,
    SAME,
    arm_same,
    comparison_same,
    exact_same,
    model_same,
)
from .figures import Design, StudyFigures, recompute
from .files import StudyFiles, read_files
from .metrics import DIFFERENCE, LOG_RATIO, METRICS, difference_range, metric_range
from .page import Page, Recipe, Span, read_page, read_recipe
from .readings import READINGS
from .sources import StudyInputs
from .statistics import Interval

__all__ = ["FORMAT", "FORMAT_VERSION", "FigureCheck", "StudyAudit", "audit_study"]

FORMAT = "daishi-forensics-study-audit"
FORMAT_VERSION = 1

_COMPARISON_RULE = "same within one unit of the last decimal kept (3; 4 on a log ratio; up to 3 more near zero)"
_ARM_RULE = "same within one unit of the second decimal"
_MODEL_RULE = "the same at one decimal"
_EXACT_RULE = "exactly equal"


@dataclass(frozen=True)
class FigureCheck:
    """One recomputed figure beside the page's."""

    subject: str
    """``comparison 1``, ``arm 0``, ``model <name>``."""
    figure: str
    """``meanDifference``, ``interval.low``, ``mapInterval.high``, ``exactP``, ``verdict``, ``mean``..."""
    recomputed: float | str | None
    published: float | str | None
    rule: str
    """The tolerance applied."""
    status: str
    """``same`` or ``DIFFERS``."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"subject": self.subject, "figure": self.figure, "recomputed": self.recomputed,
                "published": self.published, "rule": self.rule, "status": self.status}


@dataclass(frozen=True)
class StudyAudit:
    """A study's page, recomputed from its files and compared."""

    files: StudyFiles
    page: Page | None
    recipe: Recipe | None
    design: Design
    figures: StudyFigures
    """The recomputation."""
    figure_checks: tuple[FigureCheck, ...]
    """Each recomputed figure beside the page's (none without a page)."""
    checks: tuple[Check, ...]
    """The files against each other and against the page's counts; a figure withheld on both sides."""
    trusted: tuple[str, ...]
    """What was taken on trust."""
    readings: tuple[str, ...]
    """The keys of the readings this study exercised (see :data:`.readings.READINGS`)."""
    notes: tuple[str, ...]
    address: str | None = None

    @property
    def figures_same(self) -> int:
        """Recomputed figures that match the page."""
        return sum(1 for f in self.figure_checks if f.status == SAME)

    @property
    def figures_differ(self) -> tuple[FigureCheck, ...]:
        """Those that do not."""
        return tuple(f for f in self.figure_checks if f.status == DIFFERS)

    @property
    def checks_agree(self) -> int:
        """Checks that agree."""
        return sum(1 for c in self.checks if c.agrees)

    @property
    def checks_disagree(self) -> tuple[Check, ...]:
        """Those that do not."""
        return tuple(c for c in self.checks if not c.agrees)

    @property
    def exit_code(self) -> int:
        """0 every figure matches and every check agrees, else 1."""
        return exitcodes.FINDINGS if self.figures_differ or self.checks_disagree else exitcodes.OK

    def to_dict(self) -> dict[str, Any]:
        """The JSON document ``study audit --json`` prints (schema ``study-audit``)."""
        d = self.design
        return {
            "format": FORMAT,
            "formatVersion": FORMAT_VERSION,
            "study": d.study,
            "kind": d.kind,
            "metric": {"name": d.metric, "scale": d.scale, "range": _span(d.value_range)},
            "stoppingRule": d.stopping_rule,
            "comparisonLevel": d.comparison_level,
            "sequenceTuning": d.tuning,
            "sources": {"trials": self.files.trials_name, "seats": self.files.seats_name,
                        "page": self.page.name if self.page else None,
                        "recipe": self.recipe.name if self.recipe else None, "address": self.address},
            "rows": {"trials": len(self.files.trials), "seats": len(self.files.seats)},
            "hasPage": self.page is not None,
            "comparisons": [{
                "arm": c.arm, "label": c.label, "pairs": c.pairs, "maps": c.maps,
                "meanDifference": c.mean_difference, "interval": _interval(c.interval),
                "mapInterval": _interval(c.map_interval), "exactP": c.exact_p,
                "bootstrapInterval": _interval(c.bootstrap), "verdict": c.verdict, "withheld": c.withheld,
                "differences": [{"trial": p.trial, "mapSeed": p.map_seed, "control": p.control, "value": p.value,
                                 "difference": p.difference} for p in c.differences],
            } for c in self.figures.comparisons],
            "arms": [{"arm": a.arm, "label": a.label, "rows": a.rows, "trials": a.trials, "mean": a.mean,
                      "interval": _interval(a.interval)} for a in self.figures.arms],
            "models": [{"model": m.model, "seats": m.seats, "trials": m.trials, "mean": m.mean,
                        "interval": _interval(m.interval)} for m in self.figures.models],
            "figures": [f.to_dict() for f in self.figure_checks],
            "checks": [c.to_dict() for c in self.checks],
            "trusted": list(self.trusted),
            "readings": [dict(r.to_dict(), exercised=r.key in self.readings) for r in READINGS],
            "notes": list(self.notes),
            "summary": {
                "figures": {"same": self.figures_same, "differ": len(self.figures_differ),
                            "total": len(self.figure_checks)},
                "checks": {"agree": self.checks_agree, "disagree": len(self.checks_disagree),
                           "total": len(self.checks)},
            },
            "exitCode": self.exit_code,
        }


def _span(span: tuple[float, float] | None) -> list[float] | None:
    return None if span is None else [span[0], span[1]]


def _interval(interval: Interval | None) -> list[float] | None:
    return None if interval is None else [interval.low, interval.high]


# --------------------------------------------------------------------------- comparing


def _ends(interval: Interval | None) -> tuple[float | None, float | None]:
    return (None, None) if interval is None else (interval.low, interval.high)


def _page_ends(span: Span | None) -> tuple[float | None, float | None]:
    return (None, None) if span is None else span


def _compare_mean(subject: str, ours: Any, page: Any, rule: str, same: Any, figures: list[FigureCheck],
                  checks: list[Check]) -> None:
    """An arm's or a model's mean and the two ends of its interval, each beside the page's."""
    _compare(subject, "mean", ours.mean, page.mean, rule, same, figures, checks)
    for name, ours_end, theirs_end in zip(("interval.low", "interval.high"), _ends(ours.interval),
                                          _page_ends(page.interval), strict=True):
        _compare(subject, name, ours_end, theirs_end, rule, same, figures, checks)


def _compare(subject: str, figure: str, ours: float | str | None, theirs: float | str | None, rule: str,
             same: Any, figures: list[FigureCheck], checks: list[Check], why_none: str | None = None) -> None:
    if ours is None and theirs is None:
        what = f"{figure} is withheld: none beside the page's none" + (f" ({why_none})" if why_none else "")
        checks.append(Check("withheld", subject, what))
        return
    if ours is None or theirs is None:
        figures.append(FigureCheck(subject, figure, ours, theirs, rule, DIFFERS))
        return
    figures.append(FigureCheck(subject, figure, ours, theirs, rule, SAME if same(ours, theirs) else DIFFERS))


def compare_page(figures: StudyFigures, page: Page, scale: str) -> tuple[tuple[FigureCheck, ...], tuple[Check, ...]]:
    """Each recomputed figure beside the page's; a figure withheld on both sides is a check that agrees."""
    out: list[FigureCheck] = []
    withheld: list[Check] = []
    base = LOG_RATIO_PLACES if scale == LOG_RATIO else COMPARISON_PLACES

    def near(ours: float, theirs: float) -> bool:
        return comparison_same(ours, theirs, base)

    shown = {c.arm: c for c in page.comparisons}
    for mine in figures.comparisons:
        page_c = shown.get(mine.arm)
        if page_c is None:
            continue  # the page-comparison check says so
        subject = f"comparison {mine.arm}"
        _compare(subject, "meanDifference", mine.mean_difference, page_c.mean_difference, _COMPARISON_RULE, near,
                 out, withheld)
        for name, ours_end, theirs_end in zip(("interval.low", "interval.high"), _ends(mine.interval),
                                              _page_ends(page_c.interval), strict=True):
            _compare(subject, name, ours_end, theirs_end, _COMPARISON_RULE, near, out, withheld)
        for name, ours_end, theirs_end in zip(("mapInterval.low", "mapInterval.high"), _ends(mine.map_interval),
                                              _page_ends(page_c.map_interval), strict=True):
            _compare(subject, name, ours_end, theirs_end, _COMPARISON_RULE, near, out, withheld,
                     "no map repeats" if mine.maps == mine.pairs else None)
        _compare(subject, "exactP", mine.exact_p, page_c.exact_p, _EXACT_RULE, exact_same, out, withheld)
        _compare(subject, "verdict", mine.verdict, page_c.verdict, _EXACT_RULE, exact_same, out, withheld,
                 f"the page's reason: {page_c.withheld}" if page_c.withheld else None)
    arms = {a.arm: a for a in page.arms}
    for arm in figures.arms:
        if arm.arm in arms:
            _compare_mean(f"arm {arm.arm}", arm, arms[arm.arm], _ARM_RULE, arm_same, out, withheld)
    models = {m.model: m for m in page.models}
    for model in figures.models:
        if model.model in models:
            _compare_mean(f"model {model.model}", model, models[model.model], _MODEL_RULE, model_same, out, withheld)
    return tuple(out), tuple(withheld)


# --------------------------------------------------------------------------- the audit


_ALWAYS_TRUSTED = (
    "Each seat's scores (Fitness Index, grade, rank, end status, dimensions) as the match's report published "
    "them; `daishi-forensics score` recomputes any one match from its record.",
    "Which trials played whole (whole_trial), beyond its agreeing with no_value.",
    "Which pairs each comparison read: pair and in_comparison are the page's own account, so a pair left out and "
    "the trial an early stop fell on are not rechecked beyond the columns agreeing with each other.",
    "Not recomputed: secondary outcomes, detectable gaps, debrief counts, output-per-turn tables, spend.",
    "Not shown: that the files are a true record of play, that a score measures what its name says, or that this "
    "analysis suits the question.",
)


def _computable_tuning(tuning: float, most: int) -> bool:
    """Whether the confidence sequence's ``n·ρ²`` (and ``(n·ρ² + 1) / (n·ρ²)``) is a positive finite double for
    every ``n`` from 1 to ``most`` (it grows with ``n``: the two ends tell).

    >>> _computable_tuning(0.5, 40), _computable_tuning(1e-300, 40), _computable_tuning(1e300, 40)
    (True, False, False)
    """
    for n in (1, max(most, 1)):
        v = n * tuning * tuning
        if not (0 < v < math.inf) or not math.isfinite((v + 1) / v):
            return False
    return True


def _design(files: StudyFiles, page: Page | None, recipe: Recipe | None, kind: str) -> Design:
    first = files.trials[0]
    value_range = metric_range(first.metric, field_size=field_size(files))
    if value_range is None and page is not None:
        value_range = page.metric_range
    scale = page.scale if page is not None else DIFFERENCE
    rule = first.stopping_rule
    tuning = None
    if kind == "paired" and rule == "anytime":
        if recipe is None:
            raise StudyUnreadable("the study stops under the anytime rule, and its confidence sequence needs the "
                                  "tuning constant in the study's recipe: none was read (a folder's recipe.json, "
                                  "--recipe, or the recipe the page names)", file=files.trials_name,
                                  field="stopping_rule")
        tuning = recipe.sequence_tuning
        if tuning is None:
            raise StudyUnreadable("the recipe gives no sequenceTuning for the anytime rule", file=recipe.name,
                                  field="sequenceTuning")
        if not _computable_tuning(tuning, len(files.trials)):
            raise StudyUnreadable(f"{tuning!r} is a tuning constant the confidence sequence cannot be computed "
                                  f"with: n·ρ² for 1 to {len(files.trials)} observations overflows, or underflows "
                                  "to zero, in double arithmetic", file=recipe.name, field="sequenceTuning")
    withheld = tuple((c.arm, c.withheld) for c in page.comparisons if c.withheld) if page is not None else ()
    return Design(
        study=first.study,
        kind=kind,
        metric=first.metric,
        scale=scale,
        value_range=value_range,
        difference_range=difference_range(value_range, scale),
        stopping_rule=rule if kind == "paired" else None,
        comparison_level=first.comparison_level.value if first.comparison_level is not None else None,
        tuning=tuning,
        withheld=withheld,
    )


def _exercised(design: Design, figures: StudyFigures, page: Page | None, recipe: Recipe | None) -> tuple[str, ...]:
    keys = {"file-columns", "field-forms", "row-numbers", "canary", "metric-names", "whole-trial", "exit-2"}
    if design.metric in METRICS:
        keys.add("trial-value")
    if design.value_range is not None:
        keys.add("interval-cut")
    if page is not None:
        keys |= {"page-json", "tolerance-places"}
    if recipe is not None:
        keys.add("recipe")
    if figures.models:
        keys.add("model-interval")
    if design.kind == "paired":
        keys |= {"comparison-level", "map-interval", "verdict", "exact-test", "other-seeds"}
        if design.stopping_rule == "anytime":
            keys.add("confidence-sequence")
        else:
            keys.add("bootstrap")
    if design.scale == LOG_RATIO:
        keys.add("log-ratio")
    values: list[Any] = [c.interval for c in figures.comparisons] + [a.interval for a in figures.arms]
    values += [m.interval for m in figures.models] + [c.mean_difference for c in figures.comparisons]
    if any(v is None for v in values):
        keys.add("small-samples")
    return tuple(sorted(keys))


def audit_study(inputs: StudyInputs) -> StudyAudit:
    """Audit one study from what :func:`.sources.load_study` gathered.

    Raises
    ------
    StudyUnreadable
        A file, the page or the recipe does not read; the files hold no trial; the
        anytime rule without a tuning constant.
    """
    files = read_files(inputs.trials_text, inputs.seats_text, trials_name=inputs.trials_name,
                       seats_name=inputs.seats_name)
    if not files.trials:
        raise StudyUnreadable("the file holds no trial (only its header)", file=files.trials_name)
    page = read_page(inputs.page, inputs.page_name or "study.json") if inputs.page is not None else None
    recipe = read_recipe(inputs.recipe, inputs.recipe_name or "recipe.json") if inputs.recipe is not None else None
    kind = study_kind(files)
    design = _design(files, page, recipe, kind)
    figures = recompute(files, design)
    checks: list[Check] = list(file_checks(files, kind, page.canary if page is not None else None))
    checks.extend(scale_checks(files, design.scale))
    figure_checks: tuple[FigureCheck, ...] = ()
    notes: list[str] = []
    if page is not None:
        checks.extend(page_checks(files, page, kind))
        figure_checks, withheld = compare_page(figures, page, design.scale)
        checks.extend(withheld)
    else:
        notes.append("no page figures were read (no study.json, --page or server): the figures are recomputed, "
                     "and only the files are checked against each other")
    if recipe is not None:
        checks.extend(recipe_checks(files, recipe))
    trusted = list(_ALWAYS_TRUSTED)
    if design.metric not in METRICS:
        trusted.append(f"Each trial's value: {design.metric} is not a seat score, so its values are the page's.")
    for arm, reason in design.withheld:
        trusted.append(f"Why comparison {arm}'s verdict is withheld: the page's reason, {reason!r}.")
    if design.tuning is not None:
        trusted.append(f"The confidence sequence's tuning constant, {design.tuning}, from the study's recipe.")
    return StudyAudit(files, page, recipe, design, figures, figure_checks, tuple(checks), tuple(trusted),
                      _exercised(design, figures, page, recipe), tuple(notes), inputs.address)

