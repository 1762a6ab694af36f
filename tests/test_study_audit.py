"""`study audit` on hand-built studies: every figure derived by hand reads same; tampering differs exactly there.

Seed 000, *Recomputing a study yourself*.  Four small studies, each built here row
by row, with the page's figures derived by hand in the comments (Student t table
values at 0.975: t(2) 4.302653, t(3) 3.182446, t(4) 2.776445, t(5) 2.570582,
t(17) 2.109816; the model intervals' t(17) on 18 seats, one per trial).
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from daishi_forensics import schemas
from daishi_forensics.cli import main
from daishi_forensics.errors import StudyUnreadable
from daishi_forensics.study import audit_study, load_study, read_files, read_page, render
from daishi_forensics.study.audit import StudyAudit
from daishi_forensics.study.checks import page_checks
from daishi_forensics.study.readings import READINGS

from .studykit import CANARY, page, seat, trial, write_study

# --------------------------------------------------------------------------- study A: fixed rule, three arms

CONTROL = [50, 60, 55, 65, 52, 58]
ARM1 = [52, 63, 54, 69, 55, 60]  # d = 2, 3, -1, 4, 3, 2
ARM2 = [55, 66, 59, 72, 57, 64]  # d = 5, 6, 4, 7, 5, 6
GUEST_DIMS = ("93.0", "29.5", "74.3", "35.8", "17.3")  # index 53.5 half up on the double; round() says 53.4


def study_a_rows() -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """Six trials of three arms; maps repeat (trials 1-2 map 1, 3-4 map 2, 5-6 map 3); seat 1 (model-a) is
    focal, seat 2 (model-b) scores 40.0 / 44.0 / 42.0 by arm, seat 3 is a guest whose index is a half tie."""
    trials, seats = [], []
    for t in range(1, 7):
        for arm, values, other in ((0, CONTROL, "40.0"), (1, ARM1, "44.0"), (2, ARM2, "42.0")):
            trials.append(trial(t, arm, f"{values[t - 1]:.3f}", map_seed=(t + 1) // 2))
            seats.append(seat(t, arm, 1, f"{values[t - 1]:.1f}"))
            seats.append(seat(t, arm, 2, other))
            seats.append(seat(t, arm, 3, "53.5", dims=GUEST_DIMS, model="guest", turns_played=None,
                              rounds_sat_out=None, error_turns=None))
    return trials, seats


def study_a_page() -> dict[str, Any]:
    return page(
        # Declared 0.90 split over two comparisons: 1 - 0.10 / 2 = 0.95 each (the column's level).
        declaredLevel=0.90, comparisonLevel=0.95,
        counts={"pairsIn": 6, "pairsOut": 0, "pairOut": {}},
        arms=[
            # 50 60 55 65 52 58: mean 340/6 = 56.6667; SS 151.3333, s^2 30.2667, se 2.245984, +/- 5.773488.
            {"arm": 0, "label": "control", "rows": 6, "trials": 6, "mean": 56.67, "interval": [50.89, 62.44]},
            # 52 63 54 69 55 60: mean 353/6 = 58.8333; SS 206.8333, s^2 41.3667, se 2.625734, +/- 6.749671.
            {"arm": 1, "label": "arm 1", "rows": 6, "trials": 6, "mean": 58.83, "interval": [52.08, 65.58]},
            # 55 66 59 72 57 64: mean 373/6 = 62.1667; SS 202.8333, s^2 40.5667, se 2.600220, +/- 6.684079.
            {"arm": 2, "label": "arm 2", "rows": 6, "trials": 6, "mean": 62.17, "interval": [55.48, 68.85]},
        ],
        comparisons=[
            # d = 2 3 -1 4 3 2: mean 2.166667, se 0.703167, +/- 1.807555 -> [0.359, 3.974];
            # map means 2.5 1.5 2.5, se 0.333333, t(2) +/- 1.434218 -> [0.732, 3.601];
            # exact p 4/64 = 0.0625 > 0.05: inconclusive.
            {"arm": 1, "pairs": 6, "maps": 3, "meanDifference": 2.167, "interval": [0.359, 3.974],
             "mapInterval": [0.732, 3.601], "exactP": 0.0625, "verdict": "inconclusive", "withheld": None},
            # d = 5 6 4 7 5 6: mean 5.5, SS 5.5, s^2 1.1, se 0.428174, +/- 1.100666 -> [4.399, 6.601];
            # map means 5.5 5.5 5.5: se 0 -> [5.5, 5.5]; exact p 2/64 = 0.03125 <= 0.05; every bootstrap
            # resample mean lies in [4, 7], above zero: higher.
            {"arm": 2, "pairs": 6, "maps": 3, "meanDifference": 5.5, "interval": [4.399, 6.601],
             "mapInterval": [5.5, 5.5], "exactP": 0.03125, "verdict": "higher", "withheld": None},
        ],
        models=[
            # 18 seats, one per trial: see test_model_a_interval_by_hand.
            {"model": "model-a", "seats": 18, "trials": 18, "mean": 59.2, "interval": [56.1, 62.3]},
            # six 40, six 44, six 42: mean 42, SS 48, s^2 2.823529, se 0.396059, +/- 0.835611 -> [41.2, 42.8].
            {"model": "model-b", "seats": 18, "trials": 18, "mean": 42.0, "interval": [41.2, 42.8]},
        ],
    )


def test_model_a_interval_by_hand() -> None:
    # The 18 values of model-a (one seat per trial, so each trial is its own cluster): sum 1066, mean 59.222222;
    # sum of squares 50^2 + 60^2 + ... + 64^2 = 63784, about the mean 63784 - 1066^2 / 18 = 653.111111;
    # s^2 = 653.111111 / 17 = 38.418301, s = 6.198250, se = s / sqrt(18) = 1.460937;
    # t(17) = 2.109816 -> +/- 3.082309 -> [56.139913, 62.304531]: 56.1 and 62.3 at one decimal (the page's).
    values = CONTROL + ARM1 + ARM2
    assert sum(values) == 1066 and sum(v * v for v in values) == 63784
    (model_a,) = [m for m in study_a_page()["models"] if m["model"] == "model-a"]
    assert model_a["mean"] == 59.2 and model_a["interval"] == [56.1, 62.3]


def audited(folder: Path) -> StudyAudit:
    return audit_study(load_study(str(folder)))


def figure_statuses(audit: StudyAudit) -> dict[tuple[str, str], str]:
    return {(f.subject, f.figure): f.status for f in audit.figure_checks}


def disagreeing(audit: StudyAudit) -> set[tuple[str, str, tuple[int | None, ...]]]:
    return {(c.code, c.subject, tuple(r for _, r, _ in c.problems)) for c in audit.checks_disagree}


@pytest.fixture
def study_a(tmp_path: Path) -> Path:
    trials, seats = study_a_rows()
    return write_study(tmp_path / "a", trials, seats, study_a_page())


def test_hand_built_fixed_study_is_same_on_every_figure(study_a: Path) -> None:
    audit = audited(study_a)
    assert audit.figures_differ == () and audit.checks_disagree == ()
    assert audit.exit_code == 0
    # 2 comparisons x 7 figures, 3 arms x 3, 2 models x 3.
    assert (audit.figures_same, len(audit.figure_checks)) == (29, 29)
    c1, c2 = audit.figures.comparisons
    assert (c1.pairs, c1.maps, c1.exact_p, c1.verdict) == (6, 3, 0.0625, "inconclusive")
    assert (c2.pairs, c2.maps, c2.exact_p, c2.verdict) == (6, 3, 0.03125, "higher")
    assert c1.mean_difference == pytest.approx(13 / 6) and c2.mean_difference == 5.5
    assert c2.bootstrap is not None and 4.0 <= c2.bootstrap.low and c2.bootstrap.high <= 7.0
    # The guest (model "guest") is in no model row.
    assert [m.model for m in audit.figures.models] == ["model-a", "model-b"]
    assert "seat-fitness" in {c.code for c in audit.checks}


def test_tampered_page_differs_in_exactly_the_tampered_figures(study_a: Path) -> None:
    doc = json.loads((study_a / "study.json").read_text())
    doc["comparisons"][0]["meanDifference"] = 2.169  # two units off
    doc["comparisons"][0]["exactP"] = 0.03125
    doc["comparisons"][1]["interval"] = [4.398, 6.601]  # one unit off: still same
    doc["comparisons"][1]["verdict"] = "inconclusive"
    doc["arms"][1]["mean"] = 58.85  # two units off
    doc["arms"][2]["interval"] = [55.49, 68.85]  # one unit off: still same
    doc["models"][0]["interval"] = [56.1, 62.4]
    doc["arms"][0]["rows"] = 7  # a count: a check
    (study_a / "study.json").write_text(json.dumps(doc))
    audit = audited(study_a)
    differs = {k for k, status in figure_statuses(audit).items() if status == "DIFFERS"}
    assert differs == {("comparison 1", "meanDifference"), ("comparison 1", "exactP"), ("comparison 2", "verdict"),
                       ("arm 1", "mean"), ("model model-a", "interval.high")}
    assert disagreeing(audit) == {("page-arm", "arm 0", (None,))}
    assert audit.exit_code == 1


def test_tampered_files_differ_in_exactly_the_tampered_rows(study_a: Path) -> None:
    trials, seats = study_a_rows()
    trials[0]["value"] = "50.001"  # row 2: its focal seat says 50.0
    seats[2]["fitness_index"] = "53.4"  # row 4: the guest's half tie rounded as round() would
    seats[5]["canary"] = "not-the-canary"  # row 7
    write_study(study_a, trials, seats)
    audit = audited(study_a)
    assert disagreeing(audit) == {("trial-value", study_a.joinpath("trials.csv").as_posix(), (2,)),
                                  ("seat-fitness", study_a.joinpath("seats.csv").as_posix(), (4,)),
                                  ("canary", study_a.joinpath("seats.csv").as_posix(), (7,))}
    # d1 becomes 1.999: the mean 2.1665 still reads 2.167 within one unit, p is still 4/64, the guest is in no
    # model row: no figure differs.
    assert audit.figures_differ == ()
    assert audit.exit_code == 1


def test_same_files_same_bytes(study_a: Path) -> None:
    first = [render(audited(study_a), fmt) for fmt in ("text", "json", "markdown")]
    second = [render(audited(study_a), fmt) for fmt in ("text", "json", "markdown")]
    assert first == second


def test_json_follows_its_schema(study_a: Path) -> None:
    doc = json.loads(render(audited(study_a), "json"))
    jsonschema.Draft202012Validator(schemas.load("study-audit"), registry=schemas.registry()).validate(doc)
    assert doc["summary"] == {"figures": {"same": 29, "differ": 0, "total": 29},
                              "checks": {"agree": len(doc["checks"]), "disagree": 0, "total": len(doc["checks"])}}
    assert {r["key"] for r in doc["readings"] if r["exercised"]} >= {"bootstrap", "verdict", "map-interval"}


# --------------------------------------------------------------------------- study B: anytime rule, early stop

B_CONTROL = ["0.100", "0.120", "0.090", "0.110", "0.105", "0.095"]
B_ARM = ["0.150", "0.160", "0.140", "0.170", None, "0.150"]  # trial 5 failed


def study_b(folder: Path, **page_over: Any) -> Path:
    """Coverage under the anytime rule (rho 0.5): trial 5 of arm 1 failed (pair out, 1:failed); the comparison
    stopped after trial 4, so trial 6's pair is in but not read."""
    trials, seats = [], []
    for t in range(1, 7):
        for arm, values in ((0, B_CONTROL), (1, B_ARM)):
            value = values[t - 1]
            over: dict[str, Any] = {"metric": "coverage", "stopping_rule": "anytime"}
            if t == 5:
                over.update(pair="out", pair_out="1:failed")
            if arm == 1:
                over["in_comparison"] = "yes" if t <= 4 else "no"
            if value is None:
                over.update(no_value="failed", ended="failed", rounds_played=25)
            trials.append(trial(t, arm, value, **over))
            whole = "no" if value is None else "yes"
            seats.append(seat(t, arm, 1, None if value is None else "60.0", coverage=value, whole_trial=whole,
                              rubric=None if value is None else "2.4"))
            seats.append(seat(t, arm, 2, None if value is None else "50.0", coverage="0.080", whole_trial=whole,
                              rubric=None if value is None else "2.4"))
    doc = page(
        metric={"name": "coverage", "scale": "difference", "range": [0, 1]},
        stoppingRule="anytime", declaredLevel=0.95, comparisonLevel=0.95, recipe="/u/ada/recipes/r_b",
        counts={"pairsIn": 5, "pairsOut": 1, "pairOut": {"1:failed": 1}},
        arms=[
            # six values, mean 0.103333; SS 0.000583, s^2 0.000117, se 0.004410, t(5) +/- 0.011335.
            {"arm": 0, "label": "control", "rows": 6, "trials": 6, "mean": 0.10, "interval": [0.09, 0.11]},
            # five values (trial 5 failed), mean 0.154; SS 0.00052, s^2 0.00013, se 0.005099, t(4) +/- 0.014157.
            {"arm": 1, "label": "arm 1", "rows": 6, "trials": 5, "mean": 0.15, "interval": [0.14, 0.17]},
        ],
        comparisons=[
            # Pairs read: trials 1-4, d = 0.05 0.04 0.05 0.06, mean 0.05, se 0.004082; sequence multiplier at
            # n = 4, rho = 0.5: 3.656395 -> +/- 0.014927 -> [0.035, 0.065], wholly above zero: higher.
            # Maps all distinct: no map interval. Exact p: all four positive, 2/16 = 0.125.
            {"arm": 1, "pairs": 4, "maps": 4, "meanDifference": 0.05, "interval": [0.035, 0.065],
             "mapInterval": None, "exactP": 0.125, "verdict": "higher", "withheld": None},
        ],
        models=[
            # 11 whole trials: every model-a seat 60.0, every model-b seat 50.0: intervals of no width.
            {"model": "model-a", "seats": 11, "trials": 11, "mean": 60.0, "interval": [60.0, 60.0]},
            {"model": "model-b", "seats": 11, "trials": 11, "mean": 50.0, "interval": [50.0, 50.0]},
        ],
    )
    doc.update(page_over)
    recipe = {"format": "daishi-study-recipe", "formatVersion": 1, "recipe": "/u/ada/recipes/r_b",
              "stoppingRule": "anytime", "sequenceTuning": 0.5}
    return write_study(folder, trials, seats, doc, recipe)


def test_hand_built_anytime_study_is_same_on_every_figure(tmp_path: Path) -> None:
    audit = audited(study_b(tmp_path / "b"))
    assert audit.checks_disagree == () and audit.figures_differ == ()
    assert (audit.figures_same, len(audit.figure_checks)) == (5 + 6 + 6, 17)  # map interval: none beside none
    assert {c.what for c in audit.checks if c.code == "withheld"} == {
        "mapInterval.low is withheld: none beside the page's none (no map repeats)",
        "mapInterval.high is withheld: none beside the page's none (no map repeats)"}
    (c,) = audit.figures.comparisons
    assert [p.trial for p in c.differences] == [1, 2, 3, 4] and c.bootstrap is None
    assert audit.design.tuning == 0.5 and "confidence-sequence" in audit.readings


def test_a_withheld_verdict_is_none_beside_none_with_the_pages_reason(tmp_path: Path) -> None:
    folder = study_b(tmp_path / "b")
    doc = json.loads((folder / "study.json").read_text())
    doc["comparisons"][0].update(verdict=None, withheld="a look not reached")
    (folder / "study.json").write_text(json.dumps(doc))
    audit = audited(folder)
    assert audit.exit_code == 0 and audit.figures.comparisons[0].verdict is None
    assert ("comparison 1", "verdict") not in figure_statuses(audit)
    assert any(c.code == "withheld" and "a look not reached" in c.what for c in audit.checks)
    assert any("a look not reached" in t for t in audit.trusted)


def _rewrite_trials(folder: Path, edits: dict[tuple[int, str], str]) -> None:
    rows = list(csv.DictReader(io.StringIO((folder / "trials.csv").read_text())))
    for (index, column), value in edits.items():
        rows[index][column] = value
    write_study(folder, rows, list(csv.DictReader(io.StringIO((folder / "seats.csv").read_text()))))


def test_a_pair_out_reason_the_rows_do_not_give_is_a_finding(tmp_path: Path) -> None:
    folder = study_b(tmp_path / "b")
    # Trial 5's rows are rows 10 (control) and 11 (arm 1, whose no_value is failed): name cancelled instead.
    _rewrite_trials(folder, {(8, "pair_out"): "1:cancelled", (9, "pair_out"): "1:cancelled"})
    audit = audited(folder)
    assert disagreeing(audit) == {("pair", "trial 5", (11,)), ("page-pairs", str(folder / "study.json"), (None,))}
    assert audit.figures_differ == () and audit.exit_code == 1


def test_a_pair_read_after_the_stop_is_a_finding_and_moves_the_figures(tmp_path: Path) -> None:
    folder = study_b(tmp_path / "b")
    # Arm 1 now skips trial 4 (row 9) and reads trial 6 (row 13): read after it stopped.
    _rewrite_trials(folder, {(7, "in_comparison"): "no", (11, "in_comparison"): "yes"})
    audit = audited(folder)
    assert disagreeing(audit) == {("in-comparison", "arm 1", (13,))}
    # Pairs read: trials 1, 2, 3, 6 (still four pairs on four maps, so the page's counts agree);
    # d = 0.05 0.04 0.05 0.055: mean 0.04875 -> 0.049 (page 0.050: one unit, so same); s^2 0.00011875 / 3,
    # se 0.0031458, x 3.656395 = 0.0115022 -> [0.037, 0.060] (page [0.035, 0.065]: two and five units off);
    # p still 2/16, still higher.
    statuses = figure_statuses(audit)
    assert statuses[("comparison 1", "meanDifference")] == "same"
    assert {k for k, status in statuses.items() if status == "DIFFERS"} == {
        ("comparison 1", "interval.low"), ("comparison 1", "interval.high")}


def test_the_anytime_rule_without_a_recipe_cannot_be_read(tmp_path: Path) -> None:
    folder = study_b(tmp_path / "b")
    (folder / "recipe.json").unlink()
    with pytest.raises(StudyUnreadable, match="tuning constant"):
        audited(folder)
    result = CliRunner().invoke(main, ["study", "audit", str(folder)])
    assert result.exit_code == 2 and "tuning constant" in result.output


# --------------------------------------------------------------------------- study C: a series


def study_c(folder: Path) -> Path:
    """A series of three trials on coverage; trial 3 has two focal seats (0.940 and 0.960: value 0.950)."""
    series = {"pair": None, "in_comparison": None, "stopping_rule": None, "comparison_level": None,
              "metric": "coverage"}
    trials = [trial(1, 0, "0.990", **series), trial(2, 0, "1.000", **series), trial(3, 0, "0.950", **series)]
    seats = [seat(1, 0, 1, "61.5", coverage="0.990"), seat(1, 0, 2, "45.0", coverage="0.500"),
             seat(2, 0, 1, "58.0", coverage="1.000"), seat(2, 0, 2, "45.0", coverage="0.400"),
             seat(3, 0, 1, "70.0", coverage="0.940"), seat(3, 0, 2, "45.0", coverage="0.960", focal="yes")]
    doc = page(
        kind="series", metric={"name": "coverage", "scale": "difference", "range": [0, 1]}, stoppingRule=None,
        declaredLevel=None, comparisonLevel=None,
        # 0.990 1.000 0.950: mean 0.98, se 0.015275, t(2) +/- 0.065724 -> [0.914276, 1.045724], cut at 1.
        arms=[{"arm": 0, "label": "control", "rows": 3, "trials": 3, "mean": 0.98, "interval": [0.91, 1.0]}],
        models=[
            # 61.5 58.0 70.0: mean 63.166667, SS 76.166667, s^2 38.083333, se 3.562926, +/- 15.330037.
            {"model": "model-a", "seats": 3, "trials": 3, "mean": 63.2, "interval": [47.8, 78.5]},
            {"model": "model-b", "seats": 3, "trials": 3, "mean": 45.0, "interval": [45.0, 45.0]},
        ],
    )
    return write_study(folder, trials, seats, doc)


def test_hand_built_series_cuts_its_interval_and_reads_two_focal_seats(tmp_path: Path) -> None:
    audit = audited(study_c(tmp_path / "c"))
    assert audit.checks_disagree == () and audit.figures_differ == ()
    assert audit.design.kind == "series" and audit.figures.comparisons == ()
    (arm,) = audit.figures.arms
    assert arm.interval is not None and arm.interval.high == 1.0
    assert (audit.figures_same, len(audit.figure_checks)) == (9, 9)


# --------------------------------------------------------------------------- study D: a log ratio on trust


def study_d(folder: Path) -> Path:
    """tokens_per_turn (not a seat score) compared as a log ratio, fixed rule, four pairs."""
    over = {"metric": "tokens_per_turn"}
    control, arm1 = ["2.000", "4.000", "1.000", "5.000"], ["4.000", "6.000", "2.000", "5.000"]
    trials = [trial(t, arm, values[t - 1], **over) for t in range(1, 5) for arm, values in ((0, control), (1, arm1))]
    seats = [seat(t, arm, 1, "60.0") for t in range(1, 5) for arm in (0, 1)]
    doc = page(
        metric={"name": "tokens_per_turn", "scale": "logRatio", "range": None},
        counts={"pairsIn": 4, "pairsOut": 0, "pairOut": {}},
        arms=[
            # 2 4 1 5: mean 3, s^2 10/3, se 0.912871, t(3) +/- 2.905151 -> [0.09, 5.91]; no range, no cut.
            {"arm": 0, "label": "control", "rows": 4, "trials": 4, "mean": 3.0, "interval": [0.09, 5.91]},
            # 4 6 2 5: mean 4.25, SS 8.75, s^2 2.916667, se 0.853913, +/- 2.717529 -> [1.53, 6.97].
            {"arm": 1, "label": "arm 1", "rows": 4, "trials": 4, "mean": 4.25, "interval": [1.53, 6.97]},
        ],
        comparisons=[
            # ln 2, ln 1.5, ln 2, ln 1 = 0.693147 0.405465 0.693147 0: mean 0.447940; SS 0.322706, s^2 0.107569,
            # se 0.163989, t(3) +/- 0.521885 -> [-0.0739, 0.9698] at four places. Exact test on ten-thousandths
            # 6931 4055 6931 0: the zero set aside, three positive: 2/8 = 0.25. Inconclusive.
            {"arm": 1, "pairs": 4, "maps": 4, "meanDifference": 0.4479, "interval": [-0.0739, 0.9698],
             "mapInterval": None, "exactP": 0.25, "verdict": "inconclusive", "withheld": None},
        ],
        models=[{"model": "model-a", "seats": 8, "trials": 8, "mean": 60.0, "interval": [60.0, 60.0]}],
    )
    return write_study(folder, trials, seats, doc)


def test_hand_built_log_ratio_study_reads_four_places_and_trusts_the_values(tmp_path: Path) -> None:
    folder = study_d(tmp_path / "d")
    audit = audited(folder)
    assert audit.checks_disagree == () and audit.figures_differ == ()
    assert any("tokens_per_turn is not a seat score" in t for t in audit.trusted)
    assert "log-ratio" in audit.readings and "trial-value" not in audit.readings
    doc = json.loads((folder / "study.json").read_text())
    doc["comparisons"][0]["meanDifference"] = 0.4481  # two units of the fourth place
    (folder / "study.json").write_text(json.dumps(doc))
    assert {k for k, s in figure_statuses(audited(folder)).items() if s == "DIFFERS"} == {
        ("comparison 1", "meanDifference")}


# --------------------------------------------------------------------------- reading strictly


def test_a_malformed_file_cannot_be_read_and_names_rows_and_columns(study_a: Path) -> None:
    text = (study_a / "trials.csv").read_text().splitlines()
    fields = next(csv.reader([text[3]]))
    fields[12] = "5O.000"  # value, row 4
    fields[2] = "-1"  # arm, row 4
    text[3] = ",".join(fields)
    text[5] = text[5] + ",extra"  # row 6
    (study_a / "trials.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(StudyUnreadable) as caught:
        audited(study_a)
    message = str(caught.value)
    assert "row 4, column value" in message and "row 4, column arm" in message and "row 6: 26 fields" in message
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_a_renamed_column_cannot_be_read(study_a: Path) -> None:
    text = (study_a / "seats.csv").read_text().replace("whole_trial", "whole", 1)
    (study_a / "seats.csv").write_text(text)
    with pytest.raises(StudyUnreadable, match="missing whole_trial; not expected whole"):
        audited(study_a)


def test_an_empty_field_is_none_never_zero(study_a: Path) -> None:
    audit = audited(study_a)
    guest = audit.files.seats[2]
    assert guest.model == "guest" and guest.turns_played is None and guest.spend is None
    assert guest.counts["rests"] is None
    trials, seats = study_a_rows()
    seats[2]["turns_played"] = "0"  # a guest's meter is empty, and 0 is not empty
    write_study(study_a, trials, seats)
    assert disagreeing(audited(study_a)) == {("guest-meter", study_a.joinpath("seats.csv").as_posix(), (4,))}


def test_the_page_must_follow_its_schema(study_a: Path) -> None:
    doc = json.loads((study_a / "study.json").read_text())
    del doc["counts"]
    doc["arms"][0]["mean"] = "56.67"
    (study_a / "study.json").write_text(json.dumps(doc))
    with pytest.raises(StudyUnreadable, match="schema study-page") as caught:
        audited(study_a)
    assert "counts" in str(caught.value) and "arms/0/mean" in str(caught.value)


def test_without_a_page_the_files_are_still_checked(study_a: Path) -> None:
    (study_a / "study.json").unlink()
    audit = audited(study_a)
    assert audit.page is None and audit.figure_checks == () and audit.exit_code == 0
    assert "nothing to compare" in render(audit, "text")


def test_cli_formats_and_saved_copies(study_a: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["study", "audit", str(study_a)])
    assert text.exit_code == 0 and "result: 29 of 29 figures match the page" in text.output
    as_json = runner.invoke(main, ["study", "audit", str(study_a), "--json"])
    assert json.loads(as_json.output)["exitCode"] == 0
    saved = tmp_path / "saved"
    saved.mkdir()
    for name in ("trials.csv", "seats.csv", "study.json"):
        (saved / ("copy-" + name)).write_text((study_a / name).read_text())
    copies = runner.invoke(main, ["study", "audit", "--trials", str(saved / "copy-trials.csv"), "--seats",
                                  str(saved / "copy-seats.csv"), "--page", str(saved / "copy-study.json"), "--json"])
    assert copies.exit_code == 0, copies.output
    assert json.loads(copies.output)["sources"]["trials"].endswith("copy-trials.csv")
    assert runner.invoke(main, ["study", "audit", "--trials", str(saved / "copy-trials.csv")]).exit_code == 2
    assert runner.invoke(main, ["study", "audit", str(study_a), "--json", "--format", "markdown"]).exit_code == 2
    assert runner.invoke(main, ["study", "audit", str(tmp_path / "nowhere")]).exit_code == 2


def test_markdown_escapes_hostile_labels(tmp_path: Path) -> None:
    trials, seats = study_a_rows()
    for row in trials:
        if row["arm"] == "1":
            row["arm_label"] = "<script>alert(1)</script>|x"
    doc = study_a_page()
    doc["arms"][1]["label"] = "<script>alert(1)</script>|x"
    folder = write_study(tmp_path / "h", trials, seats, doc)
    out = CliRunner().invoke(main, ["study", "audit", str(folder), "--format", "markdown"]).output
    assert "<script>" not in out and "\\<script\\>alert(1)\\</script\\>\\|x" in out


def test_help_teaches(tmp_path: Path) -> None:
    flat = " ".join(CliRunner().invoke(main, ["study", "audit", "--help"]).output.split())
    assert "Examples:" in flat and "daishi-forensics study audit" in flat
    assert "Exit codes: 0" in flat and "2 the study cannot be read" in flat and "409" in flat


def test_the_exported_api_is_pinned() -> None:
    import daishi_forensics.study as study

    assert sorted(study.__all__) == sorted([
        "READINGS", "FORMATS", "Check", "FigureCheck", "Page", "Recipe", "StudyAudit", "StudyClient", "StudyFiles",
        "StudyInputs", "audit_study", "load_study", "read_files", "read_page", "read_recipe", "render"])


def test_a_copy_keeps_its_canary(study_a: Path) -> None:
    assert all(line.endswith(CANARY) for line in (study_a / "trials.csv").read_text().splitlines()[1:])
    assert copy.deepcopy(study_a_page())["canary"] == CANARY


def test_a_value_a_log_ratio_cannot_read_is_a_finding(tmp_path: Path) -> None:
    folder = study_d(tmp_path / "d")
    _rewrite_trials(folder, {(2, "value"): "0.000"})  # trial 2's control, row 4: ln(6 / 0) is no number
    audit = audited(folder)
    assert ("log-ratio-values", str(folder / "trials.csv"), (4,)) in disagreeing(audit)
    # The pair cannot be read, so the comparison reads three: p = 2/4 (two nonzero), not the page's 0.25.
    assert figure_statuses(audit)[("comparison 1", "exactP")] == "DIFFERS"
    assert audit.figures.comparisons[0].pairs == 3


def test_the_comparison_level_is_compared_at_the_columns_places(study_a: Path) -> None:
    trials, seats = study_a_rows()
    for row in trials:
        row["comparison_level"] = "0.983333"  # 1 - 0.05 / 3 at six places
    inputs = load_study(str(write_study(study_a, trials, seats)))
    rows = read_files(inputs.trials_text, inputs.seats_text)
    level = {c.code: c.agrees for c in page_checks(rows, read_page(page(comparisonLevel=1 - 0.05 / 3)), "paired")}
    assert level["page-level"] is True
    level = {c.code: c.agrees for c in page_checks(rows, read_page(page(comparisonLevel=0.9834)), "paired")}
    assert level["page-level"] is False


def test_a_value_with_too_many_places_is_a_finding_not_a_crash(study_a: Path) -> None:
    trials, seats = study_a_rows()
    trials[1]["value"] = "52.0004"  # trial 1, arm 1, row 3
    write_study(study_a, trials, seats)
    audit = audited(study_a)
    assert disagreeing(audit) == {("value-places", str(study_a / "trials.csv"), (3,))}
    # Kept to three places the pair reads as before: every figure is still the page's.
    assert audit.figures_differ == () and audit.exit_code == 1


def test_a_sign_flip_test_too_large_to_count_cannot_be_read(tmp_path: Path) -> None:
    # 41 pairs on a metric with no range, differences of about +-400,000 (alternating): more pairs than are
    # enumerated, and a table of about 8e9 cells: refused naming the file and column, never run out of memory.
    trials, seats = [], []
    for t in range(1, 42):
        difference = 400_000 + t if t % 2 else -(400_000 + t)
        for arm, value in ((0, "500000.000"), (1, f"{500_000 + difference}.{t:03d}")):  # (thousandths: no common
            trials.append(trial(t, arm, value, metric="trades_per_seat"))  # factor to divide them by)
            seats.append(seat(t, arm, 1, "50.0"))
    folder = write_study(tmp_path / "big", trials, seats,
                         page(metric={"name": "trades_per_seat", "scale": "difference", "range": None}))
    result = CliRunner().invoke(main, ["study", "audit", str(folder)])
    assert result.exit_code == 2, result.output
    assert f"{folder / 'trials.csv'}, field value: comparison of arm 1 against the control: the exact sign-flip " \
           "test of 41 pairs" in result.output


def _study_cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``study audit`` in its own process (a hang fails the test by its timeout)."""
    command = Path(sys.executable).parent / "daishi-forensics"
    return subprocess.run([str(command), "study", "audit", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_fifo_or_device_is_refused_never_waited_on(study_a: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    trials, seats, doc = (str(study_a / name) for name in ("trials.csv", "seats.csv", "study.json"))
    for args in (["--trials", str(fifo), "--seats", seats, "--page", doc],
                 ["--trials", trials, "--seats", str(fifo), "--page", doc],
                 ["--trials", trials, "--seats", seats, "--page", str(fifo)],
                 [str(study_a), "--recipe", str(fifo)]):
        run = _study_cli(args, tmp_path)
        assert run.returncode == 2, args
        assert f"{fifo}: is not a regular file (it is a FIFO); refused" in run.stdout + run.stderr, args
    run = _study_cli(["--trials", "/dev/null", "--seats", seats], tmp_path)
    assert run.returncode == 2 and "/dev/null: is not a regular file (it is a character device); refused" in \
        run.stdout + run.stderr
    (study_a / "trials.csv").unlink()
    os.mkfifo(study_a / "trials.csv")
    run = _study_cli([str(study_a)], tmp_path)
    assert run.returncode == 2 and f"{trials}: is not a regular file (it is a FIFO); refused" in \
        run.stdout + run.stderr


def _set_field(path: Path, row: int, column: str, text: str) -> None:
    """Set one field of a study file (``row`` numbered as a spreadsheet numbers it: the header is 1)."""
    rows = list(csv.reader(io.StringIO(path.read_text())))
    rows[row - 1][rows[0].index(column)] = text
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue())


def test_a_number_too_long_to_read_names_its_file_row_and_column(study_a: Path) -> None:
    _set_field(study_a / "trials.csv", 2, "value", "1" + "0" * 400)
    _set_field(study_a / "seats.csv", 3, "fitness_index", "1" + "0" * 300 + ".5")
    _set_field(study_a / "seats.csv", 4, "economy", "1" + "0" * 15)  # 16 digits: one too many
    _set_field(study_a / "seats.csv", 5, "economy", "9" * 15)  # 15 digits: reads
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert result.exit_code == 2 and "Traceback" not in result.output and "internal error" not in result.output
    assert (f"{study_a / 'trials.csv'}: 1 field does not read: row 2, column value: '100000000000000000000000…' "
            "(401 characters) is too large to read: more than 15 digits before the point") in result.output
    _set_field(study_a / "trials.csv", 2, "value", "50.000")
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert result.exit_code == 2
    assert (f"{study_a / 'seats.csv'}: 2 fields do not read: row 3, column fitness_index: "
            "'100000000000000000000000…' (303 characters) is too large to read: more than 15 digits before the "
            "point; row 4, column economy: '1000000000000000' is too large to read: more than 15 digits before the "
            "point") in result.output



def test_a_whole_number_is_ascii_digits_and_one_too_long_to_read_says_so(study_a: Path) -> None:
    # a trial number of 5,000 digits was refused in Python's own words ("Exceeds the limit (4300 digits) for integer
    # string conversion: ...; use sys.set_int_max_str_digits() to increase the limit"), exit 2; another script's
    # digit, or a '²', is no whole number (as it was)
    _set_field(study_a / "trials.csv", 2, "trial", "1" * 5000)
    _set_field(study_a / "trials.csv", 3, "map_seed", "-" + "2" * 4301)
    _set_field(study_a / "trials.csv", 4, "trial", "\u0663")
    _set_field(study_a / "seats.csv", 2, "seat", "\u00b2")
    _set_field(study_a / "seats.csv", 3, "rank", "\uff13")
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"daishi-forensics: error: {study_a / 'trials.csv'}: 3 fields do not read: row 2, column trial: "
        "'111111111111111111111111…' (5000 characters) is too large to read: 5,000 digits; row 3, column map_seed: "
        "'-22222222222222222222222…' (4302 characters) is too large to read: 4,301 digits; row 4, column trial: "
        "'\u0663' is not a whole number\n")
    _set_field(study_a / "trials.csv", 2, "trial", "1")
    _set_field(study_a / "trials.csv", 3, "map_seed", "1")
    _set_field(study_a / "trials.csv", 4, "trial", "2")
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert (result.exit_code, result.stderr) == (2, (
        f"daishi-forensics: error: {study_a / 'seats.csv'}: 2 fields do not read: row 2, column seat: '\u00b2' is not a "
        "whole number; row 3, column rank: '\uff13' is not a whole number\n"))


def test_a_field_that_does_not_read_is_shown_bounded(study_a: Path) -> None:
    # a field of 100,000 characters that does not read was printed whole in the error (100 KB of stderr a field)
    _set_field(study_a / "trials.csv", 2, "trial", "x" * 100_000)
    _set_field(study_a / "trials.csv", 3, "in_comparison", "y" * 100_000)
    _set_field(study_a / "trials.csv", 4, "pair_out", "1:" + "z" * 100_000)
    _set_field(study_a / "trials.csv", 5, "arm_label", " " + "w" * 100_000)
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"daishi-forensics: error: {study_a / 'trials.csv'}: 4 fields do not read: row 2, column trial: "
        "'xxxxxxxxxxxxxxxxxxxxxxxx…' (100000 characters) is not a whole number; row 3, column in_comparison: "
        "'yyyyyyyyyyyyyyyyyyyyyyyy…' (100000 characters) is neither yes nor no; row 4, column pair_out: "
        "'zzzzzzzzzzzzzzzzzzzzzzzz…' (100000 characters) is not a reason a pair is left out (failed, cancelled, "
        "seat_failed, stopped_short, resumed, version, unscored, unmeasured, no_trial, other_seeds); row 5, column arm_label: ' wwwwwwwwwwwwwwwwwwwwwww…' (100001 characters) has spaces "
        "around it\n")


def _escaped(text: str) -> str:
    for ch in "\\|`*_[]<>#":
        text = text.replace(ch, "\\" + ch)
    return text


def test_markdown_keeps_the_tools_own_sentences_whole(study_a: Path) -> None:
    audit = audited(study_a)
    out = render(audit, "markdown")
    assert "…" not in out
    used = [r for r in READINGS if r.key in audit.readings]
    longest = max(used, key=lambda r: len(r.silent) + len(r.reading))
    assert len(longest.reading) > 200
    assert f"- **{longest.key}**: {_escaped(longest.silent)} Read as: {_escaped(longest.reading)}\n" in out
    assert max(len(t) for t in audit.trusted) > 200
    for line in audit.trusted:
        assert f"- {_escaped(line)}\n" in out


def test_impossible_seat_scores_disagree_even_where_they_cancel(study_a: Path) -> None:
    # Row 2 is trial 1 arm 0 seat 1 (all five dimensions 50.0, index 50.0). Economy +100 and social -125
    # weigh 0.25 * 100 - 0.2 * 125 = 0: the index still reads 50.0, so only the ranges see them.
    _set_field(study_a / "seats.csv", 2, "economy", "150.0")  # +100 * 0.25 = 25
    _set_field(study_a / "seats.csv", 2, "social", "-75.0")  # -125 * 0.2 = -25
    _set_field(study_a / "seats.csv", 3, "rank", "4")  # trial 1 arm 0 has three seats
    _set_field(study_a / "seats.csv", 4, "coverage", "5.000")
    audit = audited(study_a)
    assert disagreeing(audit) == {("seat-range", str(study_a / "seats.csv"), (2, 3, 4))}
    (check,) = audit.checks_disagree
    assert [p for _, _, p in check.problems] == ["economy 150.0 outside 0 to 100; social -75.0 outside 0 to 100",
                                                 "rank 4 beyond the 3 seats of its trial",
                                                 "coverage 5.000 outside 0 to 1"]
    assert audit.exit_code == 1 and audit.figures_differ == ()


def test_csv_encoding_separator_and_blank_lines_are_named(study_a: Path) -> None:
    seats = study_a / "seats.csv"
    text = seats.read_text()
    seats.write_bytes(text.encode("utf-16"))  # a byte-order mark, then two bytes a character
    with pytest.raises(StudyUnreadable) as caught:
        audited(study_a)
    assert str(caught.value) == (f"{seats}: the file is UTF-16 (what a Windows shell's '>' redirect writes); this "
                                 "tool reads UTF-8: convert it (iconv -f UTF-16 -t UTF-8)")
    for codec in ("utf-16-le", "utf-16-be"):  # no byte-order mark: every other byte zero
        seats.write_bytes(text.encode(codec))
        with pytest.raises(StudyUnreadable) as caught:
            audited(study_a)
        assert str(caught.value) == (f"{seats}: the file is UTF-16 without a byte-order mark (every other byte is "
                                     "zero); this tool reads UTF-8: convert it (iconv -f UTF-16LE -t UTF-8, or "
                                     "UTF-16BE)")
    lines = text.splitlines(keepends=True)
    lines[2] = lines[2].replace("seat-2", "s\xe9at-2")
    seats.write_bytes("".join(lines).encode("cp1252"))  # é is the single byte E9
    with pytest.raises(StudyUnreadable) as caught:
        audited(study_a)
    byte = len("".join(lines[:2]).encode()) + lines[2].index("\xe9")
    assert str(caught.value) == f"{seats}, line 3: not UTF-8 text (byte {byte}); save it as UTF-8"
    seats.write_text(text)

    trials = study_a / "trials.csv"
    text = trials.read_text()
    trials.write_text(text.replace(",", ";"))
    with pytest.raises(StudyUnreadable) as caught:
        audited(study_a)
    assert str(caught.value) == (f"{trials}, line 1: the header is not the expected columns: its fields are "
                                 "separated by semicolons, not commas: save it as comma-separated CSV (UTF-8)")
    trials.write_text(text.replace(",", "\t"))
    with pytest.raises(StudyUnreadable, match="separated by tabs, not commas"):
        audited(study_a)
    trials.write_text(text + "\n\r\n\n")  # blank lines at the end: read past
    assert audited(study_a).exit_code == 0
    lines = text.splitlines(keepends=True)
    trials.write_text("".join(lines[:3]) + "\n" + "".join(lines[3:]))  # a blank line inside: named
    with pytest.raises(StudyUnreadable) as caught:
        audited(study_a)
    assert str(caught.value) == f"{trials}: 1 field does not read: row 4: a blank line"


def test_markdown_labels_never_link_or_ping_on_github(tmp_path: Path) -> None:
    """An arm label with a mention, an issue reference and a URL is shown in code spans (inert on GitHub)."""
    trials, seats = study_a_rows()
    label = "ask @org/team see #12 https://evil.example/x"
    for row in trials:
        if row["arm"] == "1":
            row["arm_label"] = label
    doc = study_a_page()
    doc["arms"][1]["label"] = label
    folder = write_study(tmp_path / "h", trials, seats, doc)
    out = CliRunner().invoke(main, ["study", "audit", str(folder), "--format", "markdown"]).output
    assert "(ask `@org/team` see `#12` `https://evil.example/x`)" in out and "ask @org" not in out


def test_counts_are_written_singular_or_plural(tmp_path: Path) -> None:
    """Counts said 'arm(s)', 'pair(s)', 'seat(s) in ... trial(s)': each is now the word its number takes."""
    trials, seats = study_a_rows()
    seats[0]["model"] = "solo"
    folder = write_study(tmp_path / "solo", trials, seats, study_a_page())
    text = CliRunner().invoke(main, ["study", "audit", str(folder)]).output.splitlines()
    assert text[0] == ("study s_hand: paired experiment, 3 arms; metric fitness_index (difference); fixed rule, each "
                       "comparison at level 0.95")
    assert "comparison 1 (arm 1) against the control: 6 pairs read, 3 maps" in text
    assert "arm 0 (control): mean over 6 trials with a value, of 6" in text
    assert "  model-a: 17 seats in 17 trials" in text and "  solo: 1 seat in 1 trial" in text
    markdown = CliRunner().invoke(main, ["study", "audit", str(folder), "--format", "markdown"]).output.splitlines()
    assert "### Comparison 1 (arm 1): 6 pairs, 3 maps" in markdown
    assert "### Arm 0 (control): 6 trials with a value, of 6" in markdown
    assert "### model-a: 17 seats in 17 trials" in markdown and "### solo: 1 seat in 1 trial" in markdown
    assert not [line for line in text + markdown if "(s)" in line]


def test_a_page_or_recipe_holding_null_is_refused_not_read_as_no_page(study_a: Path, tmp_path: Path) -> None:
    """study.json (or --page, --recipe) holding the JSON ``null`` is a page in no form the tool reads: exit 2
    naming it, never the 'no page: nothing to compare' audit that exits 0."""
    (study_a / "study.json").write_text("null\n")
    runner = CliRunner()
    folder = runner.invoke(main, ["study", "audit", str(study_a)])
    assert folder.exit_code == 2 and folder.stdout == ""
    assert folder.stderr == (f"daishi-forensics: error: {study_a / 'study.json'}: not in the form this tool reads "
                             "(schema study-page): (top): null is not an object\n")
    null = tmp_path / "null.json"
    null.write_text("null")
    saved = ["--trials", str(study_a / "trials.csv"), "--seats", str(study_a / "seats.csv")]
    page = runner.invoke(main, ["study", "audit", *saved, "--page", str(null)])
    assert page.exit_code == 2 and page.stderr.endswith("(schema study-page): (top): null is not an object\n")
    recipe = runner.invoke(main, ["study", "audit", *saved, "--recipe", str(null)])
    assert recipe.exit_code == 2 and recipe.stderr == (f"daishi-forensics: error: {null}: not in the form this tool "
                                                       "reads (schema study-recipe): (top): null is not an object\n")


def test_help_says_what_exit_0_means_without_a_page(study_a: Path) -> None:
    """A folder without study.json exits 0 when its files agree; --help and the readings say so, and no longer
    list 'the page missing' among the reasons for 2."""
    (study_a / "study.json").unlink()
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert result.exit_code == 0 and result.stdout.endswith("no page: nothing to compare the figures with; "
                                                            "34 of 34 checks agree; exit 0\n")
    words = " ".join(CliRunner().invoke(main, ["study", "audit", "--help"]).output.split())
    assert ("0 every figure matches the page and every check agrees (with no page, neither study.json nor --page: "
            "every check of the files agrees, no figure compared)") in words
    assert "a file missing or malformed, the page malformed or unreachable; a usage error" in words
    reading = next(r for r in READINGS if r.key == "exit-2")
    assert "page missing" not in reading.reading and "without study.json, given no --page" in reading.reading


def test_an_empty_target_is_a_usage_error_not_the_current_folder(study_a: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``study audit ""`` audited whatever study the current folder held (exit 0 there); it names the mistake."""
    monkeypatch.chdir(study_a)
    result = CliRunner().invoke(main, ["study", "audit", ""])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.endswith("Error: TARGET is empty: give a study folder or address, or --trials and --seats\n")


def test_json_with_an_explicit_format_text_is_a_usage_error(study_a: Path) -> None:
    """``--format text --json`` wrote JSON with exit 0, one of the two asks silently dropped; now both
    conflicting asks are refused alike (``--json --format json`` still agrees)."""
    runner = CliRunner()
    both = runner.invoke(main, ["study", "audit", str(study_a), "--format", "text", "--json"])
    assert both.exit_code == 2 and both.stdout == ""
    assert both.stderr.endswith("Error: --json and --format text ask for two formats; give one\n")
    agree = runner.invoke(main, ["study", "audit", str(study_a), "--format", "json", "--json"])
    assert agree.exit_code == 0 and json.loads(agree.stdout)["exitCode"] == 0


@pytest.mark.parametrize("tuning", [1e300, 1e-300])
def test_a_tuning_constant_past_double_arithmetic_is_refused_not_a_crash(tmp_path: Path, tuning: float) -> None:
    """A recipe's sequenceTuning of 1e300 (n·ρ² overflows: NaN) or 1e-300 (it underflows to 0: a division by
    zero) stopped the audit with an internal error, exit 70; it is now a recipe that cannot be read, exit 2."""
    folder = study_b(tmp_path / "b")
    recipe = json.loads((folder / "recipe.json").read_text())
    recipe["sequenceTuning"] = tuning
    (folder / "recipe.json").write_text(json.dumps(recipe))
    result = CliRunner().invoke(main, ["study", "audit", str(folder)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"daishi-forensics: error: {folder / 'recipe.json'}, field sequenceTuning: {tuning!r} is a "
                             "tuning constant the confidence sequence cannot be computed with: n·ρ² for 1 to 12 "
                             "observations overflows, or underflows to zero, in double arithmetic\n")


def test_the_output_files_name_picks_the_format_as_for_the_other_commands(study_a: Path, tmp_path: Path) -> None:
    """``study audit -o out.json`` wrote text into out.json (exit 0); as behavior, compare, propagation and
    screen do, the name given to -o now picks the format when --format is not given (.json, .md, .txt); an
    ending it cannot write (.html) keeps text, and --format or --json still decides over the name."""
    runner = CliRunner()
    expected = {fmt: runner.invoke(main, ["study", "audit", str(study_a), "--format", fmt]).stdout
                for fmt in ("text", "json", "markdown")}
    for name, fmt in [("out.json", "json"), ("out.JSON", "json"), ("out.md", "markdown"), ("out.markdown", "markdown"),
                      ("out.txt", "text"), ("out.html", "text"), ("out.sarif", "text"), ("out", "text")]:
        result = runner.invoke(main, ["study", "audit", str(study_a), "-o", str(tmp_path / name)])
        assert result.exit_code == 0 and result.stdout == "", (name, result.output)
        assert (tmp_path / name).read_text() == expected[fmt], name
    for args, fmt in [(["--format", "text"], "text"), (["--json"], "json"), (["--format", "markdown"], "markdown")]:
        out = tmp_path / "given.json"
        assert runner.invoke(main, ["study", "audit", str(study_a), "-o", str(out), *args]).exit_code == 0
        assert out.read_text() == expected[fmt], args
    assert runner.invoke(main, ["study", "audit", str(study_a), "-o", str(tmp_path / "x.md"), "--json"]).exit_code == 0
    assert (tmp_path / "x.md").read_text() == expected["json"]
    assert "Without it, the name given to -o decides: .md, .json, .txt." in \
        " ".join(runner.invoke(main, ["study", "audit", "--help"]).stdout.split())


def test_a_page_repeating_a_key_is_refused_naming_the_key(study_a: Path) -> None:
    """study.json repeating a key (two values for one published figure) was read as its last value, in silence:
    which one the author meant cannot be told, so the audit refuses it (exit 2), naming the key."""
    page = study_a / "study.json"
    text = page.read_text()
    assert text.lstrip().startswith("{")
    page.write_text('{"declaredLevel": 0.5, ' + text.lstrip()[1:])
    result = CliRunner().invoke(main, ["study", "audit", str(study_a)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"daishi-forensics: error: {page}: the key 'declaredLevel' is repeated: which of its values "
                             "is meant cannot be told; write each key once\n")
