"""The page's own figures and the study's recipe, in the JSON form this tool reads them.

Seed 000, *Recomputing a study yourself*: the script "fetches the two files below
and the profile's public JSON (under the anytime rule, the study's recipe too, for
the sequence's tuning constant)" and prints each recomputed figure beside the
page's.  The seed does not spell out that JSON, so this tool assumes one form
(reading ``page-json``), described by the schema ``study-page``
(``daishi-forensics schemas show study-page``): per comparison, per arm and per
model, each figure as the page prints it, a withheld one as null, and the page's
own counts.  The recipe's form is the schema ``study-recipe`` (reading ``recipe``).

Both are validated against their schema; a page or recipe that does not validate
is a study that cannot be read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from daishi_forensics import schemas
from daishi_forensics.errors import StudyUnreadable

__all__ = ["Span", "PageArm", "PageComparison", "PageModel", "Page", "Recipe", "read_page", "read_recipe"]

Span = tuple[float, float]
"""An interval as (low, high)."""


@dataclass(frozen=True)
class PageArm:
    """One arm as the page prints it."""

    arm: int
    label: str
    rows: int
    """Published trials of the arm."""
    trials: int
    """Those with a value."""
    mean: float | None
    interval: Span | None


@dataclass(frozen=True)
class PageComparison:
    """One comparison against the control as the page prints it."""

    arm: int
    pairs: int
    maps: int
    mean_difference: float | None
    interval: Span | None
    map_interval: Span | None
    exact_p: float | None
    verdict: str | None
    withheld: str | None
    """The page's reason for withholding the verdict (taken on trust)."""


@dataclass(frozen=True)
class PageModel:
    """One model's row of the page's per-model table."""

    model: str
    seats: int
    trials: int
    mean: float | None
    interval: Span | None


@dataclass(frozen=True)
class Page:
    """The page's reading of the study (schema ``study-page``)."""

    study: str
    kind: str
    """``series`` or ``paired``."""
    metric: str
    scale: str
    """``difference`` or ``logRatio``."""
    metric_range: Span | None
    stopping_rule: str | None
    declared_level: float | None
    comparison_level: float | None
    recipe: str | None
    canary: str
    pairs_in: int
    pairs_out: int
    pair_out: dict[str, int]
    """How many pairs left out each ``arm:reason`` names."""
    arms: tuple[PageArm, ...]
    comparisons: tuple[PageComparison, ...]
    models: tuple[PageModel, ...]
    name: str = "study.json"
    """Where the page was read from."""

    def comparison(self, arm: int) -> PageComparison | None:
        """The page's comparison of ``arm`` with the control."""
        return next((c for c in self.comparisons if c.arm == arm), None)


@dataclass(frozen=True)
class Recipe:
    """The part of the study's recipe the audit reads (schema ``study-recipe``)."""

    stopping_rule: str
    sequence_tuning: float | None
    """The confidence sequence's tuning constant (rho)."""
    name: str = "recipe.json"


def _validate(document: Any, schema: str, name: str) -> None:
    validator = schemas.validator(schemas.load(schema))
    errors = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        shown = "; ".join(f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}" for e in errors[:10])
        more = f" (and {len(errors) - 10} more)" if len(errors) > 10 else ""
        raise StudyUnreadable(f"not in the form this tool reads (schema {schema}): {shown}{more}",
                              file=name)


def _span(value: Any) -> Span | None:
    return None if value is None else (float(value[0]), float(value[1]))


def _number(value: Any) -> float | None:
    return None if value is None else float(value)


def read_page(document: Any, name: str = "study.json") -> Page:
    """The page's figures from its JSON (see the schema ``study-page``).

    Raises
    ------
    StudyUnreadable
        The document does not validate against the schema (every problem listed, up to ten).
    """
    _validate(document, "study-page", name)
    doc: Mapping[str, Any] = document
    counts = doc["counts"]
    return Page(
        study=doc["study"],
        kind=doc["kind"],
        metric=doc["metric"]["name"],
        scale=doc["metric"]["scale"],
        metric_range=_span(doc["metric"]["range"]),
        stopping_rule=doc["stoppingRule"],
        declared_level=_number(doc["declaredLevel"]),
        comparison_level=_number(doc["comparisonLevel"]),
        recipe=doc["recipe"],
        canary=doc["canary"],
        pairs_in=counts["pairsIn"],
        pairs_out=counts["pairsOut"],
        pair_out=dict(counts["pairOut"]),
        arms=tuple(PageArm(a["arm"], a["label"], a["rows"], a["trials"], _number(a["mean"]), _span(a["interval"]))
                   for a in doc["arms"]),
        comparisons=tuple(
            PageComparison(c["arm"], c["pairs"], c["maps"], _number(c["meanDifference"]), _span(c["interval"]),
                           _span(c["mapInterval"]), _number(c["exactP"]), c["verdict"], c["withheld"])
            for c in doc["comparisons"]),
        models=tuple(PageModel(m["model"], m["seats"], m["trials"], _number(m["mean"]), _span(m["interval"]))
                     for m in doc["models"]),
        name=name,
    )


def read_recipe(document: Any, name: str = "recipe.json") -> Recipe:
    """The recipe's stopping rule and tuning constant (see the schema ``study-recipe``).

    Raises
    ------
    StudyUnreadable
        The document does not validate against the schema.
    """
    _validate(document, "study-recipe", name)
    return Recipe(document["stoppingRule"], _number(document["sequenceTuning"]), name)
