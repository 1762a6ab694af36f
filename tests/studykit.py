"""Tiny hand-built studies for the study-audit tests: rows as dicts, written as the two files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from daishi_forensics.study.files import SEAT_COLUMNS, TRIAL_COLUMNS

CANARY = "DAISHI-CANARY-test-0f3c"
STUDY = "s_hand"


def trial(trial: int, arm: int, value: str | None, **over: Any) -> dict[str, str]:
    """A trials.csv row (fields as the file writes them; None is an empty field)."""
    row: dict[str, Any] = {
        "study": STUDY, "trial": trial, "arm": arm, "arm_label": "control" if arm == 0 else f"arm {arm}",
        "match": f"m_{trial:06d}{arm:06d}", "map_seed": trial, "spawn_seed": 100 + trial, "ended": "finished",
        "rounds_played": 40, "rounds_planned": 40, "resumed_at": None, "metric": "fitness_index", "value": value,
        "no_value": None, "pair": "in", "pair_out": None, "in_comparison": None if arm == 0 else "yes",
        "stopping_rule": "fixed", "comparison_level": "0.95", "scored_on": "daishi.ai", "scenario": "open-play",
        "scenario_hash": "cf11", "rubric": "2.4", "analysis": "a1", "canary": CANARY,
    }
    row.update(over)
    return {k: "" if v is None else str(v) for k, v in row.items()}


def seat(trial: int, arm: int, seat: int, fitness: str | None, dims: tuple[str, ...] | None = None,
         **over: Any) -> dict[str, str]:
    """A seats.csv row; ``dims`` are the five dimensions (default: all equal to ``fitness``, whose
    index is then ``fitness`` itself, since the weights add to 1)."""
    if dims is None and fitness is not None:
        dims = (fitness,) * 5
    row: dict[str, Any] = {c.name: None for c in SEAT_COLUMNS}
    row.update({
        "study": STUDY, "trial": trial, "arm": arm, "match": f"m_{trial:06d}{arm:06d}", "seat": seat,
        "name": f"seat-{seat}", "model": "model-a" if seat == 1 else "model-b", "harness": "0.6.12",
        "focal": "yes" if seat == 1 else "no", "whole_trial": "yes", "rubric": "2.4", "scored_on": "daishi.ai",
        "fitness_index": fitness, "rank": seat, "status": "active", "turns_played": 40, "rounds_sat_out": 0,
        "error_turns": 0, "canary": CANARY,
    })
    if dims is not None:
        row.update(dict(zip(("survival", "economy", "social", "adaptation", "competitiveness"), dims, strict=True)))
    row.update(over)
    return {k: "" if v is None else str(v) for k, v in row.items()}


def csv_text(columns: list[str], rows: list[dict[str, str]]) -> str:
    """The rows as CSV text under ``columns``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row[c] for c in columns])
    return out.getvalue()


def write_study(folder: Path, trials: list[dict[str, str]], seats: list[dict[str, str]],
                page: dict[str, Any] | None = None, recipe: dict[str, Any] | None = None) -> Path:
    """Write a study folder (trials.csv, seats.csv, study.json, recipe.json)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "trials.csv").write_text(csv_text([c.name for c in TRIAL_COLUMNS], trials), encoding="utf-8")
    (folder / "seats.csv").write_text(csv_text([c.name for c in SEAT_COLUMNS], seats), encoding="utf-8")
    if page is not None:
        (folder / "study.json").write_text(json.dumps(page, indent=2), encoding="utf-8")
    if recipe is not None:
        (folder / "recipe.json").write_text(json.dumps(recipe, indent=2), encoding="utf-8")
    return folder


def page(**over: Any) -> dict[str, Any]:
    """A study page (schema study-page) with the defaults of :func:`trial`; override what a test needs."""
    doc: dict[str, Any] = {
        "format": "daishi-study-page", "formatVersion": 1, "study": STUDY, "kind": "paired",
        "metric": {"name": "fitness_index", "scale": "difference", "range": [0, 100]},
        "stoppingRule": "fixed", "declaredLevel": 0.95, "comparisonLevel": 0.95, "recipe": None,
        "canary": CANARY, "counts": {"pairsIn": 0, "pairsOut": 0, "pairOut": {}},
        "arms": [], "comparisons": [], "models": [],
    }
    doc.update(over)
    return doc
