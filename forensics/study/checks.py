"""The files checked against each other and against the page's own counts.

Seed 000, *Recomputing a study yourself*: the script closes with two counts kept
apart, the recomputed figures that match the page and "the checks of the files
against each other and against the page's own counts that agree".  This module
makes the second kind.  A :class:`Check` is one rule applied to one subject (a
file, a trial, an arm, a model); it agrees when no row breaks it, and otherwise
lists every row that does, with the row's number and what is wrong.

What the seed says is taken on trust is not rechecked here: which pairs each
comparison read beyond what the columns themselves show, why a verdict is
withheld, which trials played whole.  The checks below only ask whether the
columns tell one consistent story (a ``pair_out`` reason matches the ``no_value``
of the arm it names; a trial marked whole has no reason it could not be), and
whether the page's counts are the files' counts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from daishi_forensics.wording import count

from .files import (
    DIMENSION_COLUMNS,
    METER_COLUMNS,
    NOT_WHOLE_REASONS,
    SeatRow,
    StudyFiles,
    TrialRow,
    units,
)
from .fitness import half_up_units, seat_fitness, trial_value_units
from .metrics import LOG_RATIO, METRICS, metric_range
from .page import Page, Recipe

__all__ = [
    "Check",
    "harness_rubric",
    "study_kind",
    "field_size",
    "file_checks",
    "page_checks",
    "recipe_checks",
    "scale_checks",
]


@dataclass(frozen=True)
class Check:
    """One rule applied to one subject."""

    code: str
    """The rule's stable name (``pair-out``, ``seat-fitness``, ``page-arm``...)."""
    subject: str
    """What it was applied to (``trials.csv``, ``trial 4``, ``arm 1``, ``model gpt-x``...)."""
    what: str
    """The rule, in words."""
    problems: tuple[tuple[str, int | None, str], ...] = ()
    """Each break: the file, the row (None: not one row) and what is wrong."""

    @property
    def agrees(self) -> bool:
        """No row breaks the rule."""
        return not self.problems

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "code": self.code,
            "subject": self.subject,
            "what": self.what,
            "agrees": self.agrees,
            "problems": [{"file": f, "row": r, "problem": p} for f, r, p in self.problems],
        }


Problems = list[tuple[str, int | None, str]]

_HARNESS = re.compile(r"v?(\d+)\.(\d+)\.(\d+)")


def harness_rubric(harness: str | None) -> str | None:
    """The rubric a study's trial reads under, from the harness that played it (None: not a version).

    Seed 000, *Which version you get*: "every trial played on harness 0.6.10 or
    earlier reads under 2.3, and a trial on 0.6.11 or later under 2.4".

    >>> harness_rubric("0.6.10"), harness_rubric("0.6.11"), harness_rubric("1.0.0"), harness_rubric("x")
    ('2.3', '2.4', '2.4', None)
    """
    match = _HARNESS.fullmatch(harness or "")
    if match is None:
        return None
    return "2.4" if tuple(int(g) for g in match.groups()) >= (0, 6, 11) else "2.3"


def study_kind(files: StudyFiles) -> str:
    """``paired`` when a row names an arm past the control or a stopping rule, else ``series``."""
    if any(r.arm > 0 or r.stopping_rule is not None for r in files.trials):
        return "paired"
    return "series"


def field_size(files: StudyFiles) -> int:
    """The most seats any trial of the study has (1 without seats): rank's upper bound."""
    sizes = Counter((s.trial, s.arm) for s in files.seats)
    return max(sizes.values(), default=1)


def _check(code: str, subject: str, what: str, problems: Iterable[tuple[str, int | None, str]]) -> Check:
    return Check(code, subject, what, tuple(problems))


def _each_row(code: str, name: str, what: str, rows: Sequence[TrialRow] | Sequence[SeatRow],
              rule: Callable[..., str | None]) -> Check:
    problems: Problems = []
    for row in rows:
        problem = rule(row)
        if problem:
            problems.append((name, row.row, problem))
    return _check(code, name, what, problems)


def _constant(code: str, name: str, what: str, rows: Sequence[TrialRow] | Sequence[SeatRow],
              get: Callable[..., object]) -> Check:
    """Every row gives the first row's value."""
    problems: Problems = []
    if rows:
        first = get(rows[0])
        for row in rows[1:]:
            if get(row) != first:
                problems.append((name, row.row, f"{get(row)!r} where row {rows[0].row} gives {first!r}"))
    return _check(code, name, what, problems)


# --------------------------------------------------------------------------- trials.csv alone


def _order(name: str, rows: Sequence[TrialRow | SeatRow], key: Callable[..., tuple[int, ...]],
           what: str) -> Check:
    problems: Problems = []
    for before, row in zip(rows, rows[1:]):
        if key(row) <= key(before):
            problems.append((name, row.row, f"{key(row)} comes after {key(before)} (row {before.row})"))
    return _check("order", name, what, problems)


def _value_or_reason(row: TrialRow) -> str | None:
    if (row.value is None) == (row.no_value is None):
        return "value and no_value are both empty" if row.value is None else "both a value and a no_value reason"
    return None


def _value_places(row: TrialRow) -> str | None:
    if row.value is not None and row.value.places > 3:
        return f"value {row.value.text} has more than the three decimals the file holds"
    return None


def _rounds(row: TrialRow) -> str | None:
    played, planned = row.rounds_played, row.rounds_planned
    if played is None or planned is None:
        return None
    if played > planned:
        return f"played {played} rounds of {planned} planned"
    if row.no_value == "stopped_short" and played >= planned:
        return f"stopped_short, yet played {played} of {planned} rounds"
    if row.value is not None and played < planned:
        return f"has a value, yet played {played} of {planned} rounds and is not marked stopped_short"
    return None


def _resumed(row: TrialRow) -> str | None:
    if (row.resumed_at is not None) != (row.no_value == "resumed"):
        if row.resumed_at is not None:
            return f"resumed at round {row.resumed_at}, yet no_value is {row.no_value or 'empty'}, not resumed"
        return "no_value is resumed, yet resumed_at is empty"
    return None


def _version_tuple(name: str, rows: Sequence[TrialRow]) -> Check:
    def key(r: TrialRow) -> tuple[str, str, str, str]:
        return (r.scenario, r.scenario_hash, r.rubric, r.analysis)

    valued = [r for r in rows if r.value is not None]
    problems: Problems = []
    if valued:
        common, _ = Counter(key(r) for r in valued).most_common(1)[0]
        for row in valued:
            if key(row) != common:
                problems.append((name, row.row, f"scenario, scenario_hash, rubric, analysis {key(row)} where the "
                                                f"study's other valued trials give {common}"))
    return _check("version-tuple", name, "trials with a value share one version tuple (scenario, scenario "
                                         "hash, rubric, analysis): a figure never mixes two rubrics", problems)


def _design(name: str, rows: Sequence[TrialRow], kind: str) -> list[Check]:
    checks = [
        _constant("metric", name, "metric is the same on every row", rows, lambda r: r.metric),
        _constant("stopping-rule", name, "stopping_rule is the same on every row", rows, lambda r: r.stopping_rule),
        _constant("comparison-level", name, "comparison_level is the same on every row", rows,
                  lambda r: None if r.comparison_level is None else r.comparison_level.value),
    ]
    problems: Problems = []
    arms = sorted({r.arm for r in rows})
    if kind == "series":
        for row in rows:
            set_ = [c for c in ("pair", "pair_out", "in_comparison", "stopping_rule", "comparison_level")
                    if getattr(row, c) is not None]
            if row.arm != 0:
                problems.append((name, row.row, f"arm {row.arm} on a series (a series has arm 0 only)"))
            if set_:
                problems.append((name, row.row, f"{', '.join(set_)} set on a series, where they are empty"))
    else:
        if arms and arms != list(range(len(arms))):
            problems.append((name, None, f"arms {arms}: they number from 0 (the control) without gaps"))
        if len(arms) < 2:
            problems.append((name, None, "a paired experiment with no arm past the control"))
        for row in rows:
            missing = [c for c in ("pair", "stopping_rule", "comparison_level") if getattr(row, c) is None]
            if missing:
                problems.append((name, row.row, f"{', '.join(missing)} empty on a paired experiment"))
            if row.arm == 0 and row.in_comparison is not None:
                problems.append((name, row.row, "in_comparison set on the control"))
            if row.arm > 0 and row.in_comparison is None:
                problems.append((name, row.row, "in_comparison empty on an arm past the control"))
            if row.pair == "in" and row.pair_out is not None:
                problems.append((name, row.row, "pair_out set on a pair that is in"))
            if row.pair == "out" and row.pair_out is None:
                problems.append((name, row.row, "a pair left out without pair_out"))
    checks.append(_check("design", name, f"the columns a {kind} fills are set, the others empty", problems))
    return checks


def _reference_seeds(rows: Sequence[TrialRow]) -> tuple[int | None, int | None]:
    """The seeds most of a pair's rows share (ties: the lowest arm's)."""
    tally = Counter((r.map_seed, r.spawn_seed) for r in rows)
    best = max(tally.values())
    return next((r.map_seed, r.spawn_seed) for r in rows if tally[(r.map_seed, r.spawn_seed)] == best)


def _pair_checks(name: str, rows: Sequence[TrialRow], arms: Sequence[int]) -> list[Check]:
    """Per trial of a paired experiment: ``pair`` and ``pair_out`` say the same as the rows do."""
    by_trial: dict[int, list[TrialRow]] = {}
    for row in rows:
        by_trial.setdefault(row.trial, []).append(row)
    checks: list[Check] = []
    for trial in sorted(by_trial):
        group = by_trial[trial]
        problems: Problems = []
        first = group[0]
        for row in group[1:]:
            if (row.pair, row.pair_out) != (first.pair, first.pair_out):
                problems.append((name, row.row, f"pair {row.pair}, pair_out {_out_text(row.pair_out)} where row "
                                                f"{first.row} gives {first.pair}, {_out_text(first.pair_out)}"))
        present = {r.arm: r for r in group}
        reference = _reference_seeds(group)
        expected: dict[int, str] = {}
        for arm in arms:
            row_ = present.get(arm)
            if row_ is None:
                expected[arm] = "no_trial"
            elif row_.no_value is not None:
                expected[arm] = row_.no_value
            elif (row_.map_seed, row_.spawn_seed) != reference:
                expected[arm] = "other_seeds"
        named = dict(first.pair_out or ())
        if len(named) != len(first.pair_out or ()):
            problems.append((name, first.row, "pair_out names an arm twice"))
        if first.pair == "in" and expected:
            said = _out_text(tuple(sorted(expected.items())))
            problems.append((name, first.row, f"pair in, yet the rows say {said}"))
        if first.pair == "out":
            for arm in sorted(set(named) | set(expected)):
                if named.get(arm) != expected.get(arm):
                    row_ = present.get(arm)
                    said = f"{arm}:{named[arm]}" if arm in named else f"nothing of arm {arm}"
                    shown = f"{arm}:{expected[arm]}" if arm in expected else f"nothing of arm {arm}"
                    problems.append((name, row_.row if row_ else first.row,
                                     f"pair_out names {said}; the rows say {shown}"))
        checks.append(_check("pair", f"trial {trial}", "pair and pair_out agree with the pair's rows (each arm "
                             "that kept it out named, with its no_value, no_trial or other_seeds)", problems))
    return checks


def _out_text(entries: tuple[tuple[int, str], ...] | None) -> str:
    return ";".join(f"{a}:{r}" for a, r in entries) if entries else "(empty)"


def _comparison_checks(name: str, rows: Sequence[TrialRow], rule: str | None) -> list[Check]:
    """Per arm past the control: which pairs ``in_comparison`` says the comparison read."""
    checks: list[Check] = []
    for arm in sorted({r.arm for r in rows if r.arm > 0}):
        problems: Problems = []
        stopped_at: TrialRow | None = None
        for row in (r for r in rows if r.arm == arm):
            if row.in_comparison and row.pair != "in":
                problems.append((name, row.row, "in_comparison yes on a pair left out"))
            if rule == "fixed" and row.pair == "in" and row.in_comparison is False:
                problems.append((name, row.row, "in_comparison no on a pair that is in, under the fixed rule "
                                                "(which reads every pair)"))
            if rule != "anytime" or row.pair != "in":
                continue
            if row.in_comparison is False and stopped_at is None:
                stopped_at = row
            elif row.in_comparison and stopped_at is not None:
                problems.append((name, row.row, f"read after the comparison stopped (row {stopped_at.row} was "
                                                "not read)"))
        checks.append(_check("in-comparison", f"arm {arm}", "in_comparison yes only on pairs that are in; every "
                             "one under the fixed rule; under the anytime rule every one up to the stop", problems))
    return checks


# --------------------------------------------------------------------------- the two files together


def _seat_checks(files: StudyFiles, metric: str) -> list[Check]:
    """The seat rows against the trial rows: belonging, rubric, harness, whole trials, pooling, fitness,
    guests' meters and the trials' values."""
    tname, sname = files.trials_name, files.seats_name
    trials = {(r.trial, r.arm): r for r in files.trials}
    seats: dict[tuple[int, int], list[SeatRow]] = {}
    for seat in files.seats:
        seats.setdefault((seat.trial, seat.arm), []).append(seat)
    checks = [_check("seats-of-trial", f"{tname}, {sname}", "every seat row belongs to a trial row of the same "
                     "match, seats numbered from 1; every played trial has its seats",
                     _belonging_problems(tname, sname, trials, seats))]
    rubric: Problems = []
    whole: Problems = []
    harness: Problems = []
    for key, group in seats.items():
        trial = trials.get(key)
        if trial is None:
            continue
        rubric += _rubric_problems(tname, sname, trial, group)
        played = {s.harness for s in group if not s.guest and s.harness is not None}
        if len(played) > 1:
            harness.append((sname, group[0].row, f"trial {key[0]} arm {key[1]} names harnesses "
                                                 f"{', '.join(sorted(played))}"))
        whole += _whole_trial_problems(tname, sname, trial, group)
    checks.append(_check("seat-rubric", sname, "each seat names its trial's rubric, the one its harness reads "
                         "under (0.6.10 or earlier: 2.3; 0.6.11 or later: 2.4)", rubric))
    checks.append(_check("harness", sname, "the seats of one trial name one harness", harness))
    checks.append(_check("whole-trial", f"{tname}, {sname}", "whole_trial is the same on every seat of a trial, "
                         "yes exactly when the trial has no reason it did not play whole, and its seats are "
                         "scored", whole))
    pooled = Counter(s.rubric for s in files.seats if s.whole_trial and s.fitness_index is not None)
    common = pooled.most_common(1)[0][0] if pooled else None
    checks.append(_each_row("pooled-rubric", sname, "the seats the per-model table pools share one rubric",
                            files.seats, lambda s: (f"rubric {s.rubric} where the other whole-trial seats give "
                                                    f"{common}") if s.whole_trial and s.fitness_index is not None
                            and s.rubric != common else None))
    checks.append(_each_row("seat-fitness", sname, "each seat's Fitness Index is its five dimensions times their "
                            "weights, added left to right, held to 0 to 100, rounded half up to a tenth",
                            files.seats, _seat_fitness_problem))
    checks.append(_check("seat-range", sname, "each seat's scores within their ranges (the Fitness Index and its "
                         "five dimensions 0 to 100, coverage 0 to 1, rank 1 to the seats of its trial)",
                         [(sname, seat.row, problem) for seat in files.seats
                          if (problem := _seat_range_problem(seat, len(seats[(seat.trial, seat.arm)])))]))
    checks.append(_each_row("guest-meter", sname, "a guest seat's meter (turns, rounds sat out, error turns, "
                            "spend) is empty", files.seats, _guest_meter_problem))
    seat_metric = METRICS.get(metric)
    if seat_metric is not None:
        checks.append(_trial_values(files, seats, seat_metric.column))
    return checks


def _belonging_problems(tname: str, sname: str, trials: dict[tuple[int, int], TrialRow],
                        seats: dict[tuple[int, int], list[SeatRow]]) -> Problems:
    """Every seat row has a trial row of the same match, seats numbered from 1 in roster order; every played
    trial has its seats."""
    belong: Problems = []
    for key, group in seats.items():
        trial = trials.get(key)
        if trial is None:
            belong.extend((sname, s.row, f"trial {key[0]} arm {key[1]} has no row in {tname}") for s in group)
            continue
        belong.extend((sname, s.row, f"match {s.match} where {tname} row {trial.row} names {trial.match}")
                      for s in group if s.match != trial.match)
        numbers = [s.seat for s in group]
        if numbers != list(range(1, len(numbers) + 1)):
            belong.append((sname, group[0].row, f"seats {numbers} of trial {key[0]} arm {key[1]}: they number "
                                                "from 1 in roster order"))
    for key, trial in trials.items():
        if trial.match is not None and key not in seats:
            belong.append((tname, trial.row, f"match {trial.match} has no seats in {sname}"))
    return belong


def _rubric_problems(tname: str, sname: str, trial: TrialRow, group: Sequence[SeatRow]) -> Problems:
    """A seat names its trial's rubric, and the rubric its harness reads under."""
    rubric: Problems = []
    for seat in group:
        if seat.rubric is not None and seat.rubric != trial.rubric:
            rubric.append((sname, seat.row, f"rubric {seat.rubric} where {tname} row {trial.row} gives "
                                            f"{trial.rubric}"))
        expected = harness_rubric(seat.harness)
        if seat.rubric is not None and expected is not None and seat.rubric != expected:
            rubric.append((sname, seat.row, f"harness {seat.harness} reads under rubric {expected}, not "
                                            f"{seat.rubric}"))
    return rubric


def _whole_trial_problems(tname: str, sname: str, trial: TrialRow, group: Sequence[SeatRow]) -> Problems:
    """``whole_trial`` is one value on a trial's seats, yes exactly when the trial gives no reason it did not
    play whole, and a whole trial's seats have a Fitness Index."""
    whole: Problems = []
    flags = {s.whole_trial for s in group}
    if len(flags) > 1:
        whole.append((sname, group[0].row, f"whole_trial differs between the seats of trial {trial.trial} arm "
                                           f"{trial.arm}"))
    elif flags:
        is_whole = flags.pop()
        not_whole = trial.no_value in NOT_WHOLE_REASONS
        if is_whole and not_whole:
            whole.append((sname, group[0].row, f"whole_trial yes, yet {tname} row {trial.row} says "
                                               f"{trial.no_value}"))
        if not is_whole and not not_whole:
            whole.append((sname, group[0].row, f"whole_trial no, yet {tname} row {trial.row} gives "
                                               "no reason it did not play whole"))
        if is_whole:
            whole.extend((sname, s.row, "a seat of a whole trial without a Fitness Index")
                         for s in group if s.fitness_index is None)
    return whole


def _guest_meter_problem(seat: SeatRow) -> str | None:
    filled = [c for c in METER_COLUMNS if getattr(seat, c) is not None]
    return f"a guest seat with {', '.join(filled)}" if seat.guest and filled else None


def _seat_range_problem(seat: SeatRow, seats_in_trial: int) -> str | None:
    """Each of the seat's scores outside its metric's range (:data:`.metrics.METRICS`: 0 to 100 for the
    Fitness Index and its dimensions, 0 to 1 for coverage), and a rank past the seats of its trial (a rank
    counts the trial's seats from 1); None when every one is within.  Scores outside their range can
    cancel in the weighted sum, so the Fitness Index check alone does not see them.

    >>> from dataclasses import replace
    >>> from daishi_forensics.study.files import _SEATS_EXAMPLE, read_seats
    >>> (seat,) = read_seats(_SEATS_EXAMPLE)
    >>> _seat_range_problem(seat, 1) is None, _seat_range_problem(replace(seat, rank=3), 2)
    (True, 'rank 3 beyond the 2 seats of its trial')
    """
    problems = []
    for name in ("fitness_index", *DIMENSION_COLUMNS, "coverage"):
        value = getattr(seat, name)
        metric = METRICS[name]
        if value is not None and metric.high is not None and not metric.low <= value.value <= metric.high:
            problems.append(f"{name} {value.text} outside {metric.low:g} to {metric.high:g}")
    if seat.rank is not None and seat.rank > seats_in_trial:
        problems.append(f"rank {seat.rank} beyond the {count(seats_in_trial, 'seat')} of its trial")
    return "; ".join(problems) or None


def _seat_fitness_problem(seat: SeatRow) -> str | None:
    dims = {name: seat.score(name) for name in DIMENSION_COLUMNS}
    places = [c for c in ("fitness_index", *DIMENSION_COLUMNS)
              if getattr(seat, c) is not None and getattr(seat, c).places > 1]
    if places:
        return f"{', '.join(places)} at more than one decimal"
    if seat.fitness_index is None:
        return None
    if any(v is None for v in dims.values()):
        return "a Fitness Index without all five dimensions"
    recomputed = seat_fitness(dims)
    if recomputed is None or half_up_units(recomputed, 1) != units(seat.fitness_index, 1):
        return f"fitness_index {seat.fitness_index.text}, the dimensions give {recomputed}"
    return None


def _trial_values(files: StudyFiles, seats: dict[tuple[int, int], list[SeatRow]], column: str) -> Check:
    problems: Problems = []
    for trial in files.trials:
        if trial.value is None or trial.value.places > 3:
            continue
        focal = [s for s in seats.get((trial.trial, trial.arm), []) if s.focal]
        scores = [s.score(column) for s in focal]
        if not focal:
            problems.append((files.trials_name, trial.row, "a value on a seat score, yet no focal seat"))
            continue
        if any(score is None for score in scores):
            problems.append((files.trials_name, trial.row, f"a focal seat without {column}"))
            continue
        recomputed = trial_value_units([s for s in scores if s is not None])  # not None: scores were found
        if recomputed is not None and recomputed != units(trial.value):
            problems.append((files.trials_name, trial.row, f"value {trial.value.text}; its focal seats "
                                                            f"({', '.join(str(s.row) for s in focal)} of "
                                                            f"{files.seats_name}) give {recomputed / 1000:.3f}"))
    return _check("trial-value", files.trials_name, f"each trial's value is the mean {column} of its focal seats, "
                  "rounded half up to three decimals", problems)


def file_checks(files: StudyFiles, kind: str, canary: str | None = None) -> tuple[Check, ...]:
    """Every check of the files against each other (``canary``: the page's, when there is a page)."""
    tname, sname = files.trials_name, files.seats_name
    rows = files.trials
    metric = rows[0].metric if rows else ""
    checks: list[Check] = [
        _order(tname, rows, lambda r: (r.trial, r.arm), "rows in trial then arm order, each once"),
        _order(sname, files.seats, lambda s: (s.trial, s.arm, s.seat), "rows in trial, arm and seat order, each once"),
    ]
    study = rows[0].study if rows else None
    checks.append(_each_row("study", tname, "every row names the study", rows,
                            lambda r: f"study {r.study} where row 2 gives {study}" if r.study != study else None))
    checks.append(_each_row("study", sname, "every row names the study", files.seats,
                            lambda s: f"study {s.study} where {tname} gives {study}" if s.study != study else None))
    expected_canary = canary if canary is not None else (rows[0].canary if rows else None)
    where = "the page's" if canary is not None else f"{tname} row 2's"
    for name, group in ((tname, rows), (sname, files.seats)):
        checks.append(_each_row("canary", name, "every row ends with the contamination canary", group,
                                lambda r: f"canary {r.canary!r}, not {where} {expected_canary!r}"
                                if r.canary != expected_canary else None))
    checks.extend(_design(tname, rows, kind))
    value_range = metric_range(metric, field_size=field_size(files))
    checks.extend([
        _each_row("value-or-reason", tname, "each trial has either a value or a no_value reason", rows,
                  _value_or_reason),
        _each_row("value-places", tname, "values at three decimals at most", rows, _value_places),
        _each_row("value-range", tname, "values within the metric's range", rows,
                  lambda r: f"value {r.value.text} outside {value_range}" if value_range and r.value is not None
                  and not value_range[0] <= r.value.value <= value_range[1] else None),
        _each_row("rounds", tname, "rounds played within those planned; all of them for a trial with a value",
                  rows, _rounds),
        _each_row("resumed", tname, "resumed_at set exactly on a trial whose no_value is resumed", rows, _resumed),
        _version_tuple(tname, rows),
    ])
    labels: dict[int, TrialRow] = {}
    label_problems: Problems = []
    for row in rows:
        first = labels.setdefault(row.arm, row)
        if row.arm_label != first.arm_label:
            label_problems.append((tname, row.row, f"arm {row.arm} labelled {row.arm_label!r}, "
                                                   f"row {first.row} {first.arm_label!r}"))
    checks.append(_check("arm-label", tname, "each arm keeps one label", label_problems))
    if kind == "paired":
        arms = sorted({r.arm for r in rows})
        checks.extend(_pair_checks(tname, rows, arms))
        checks.extend(_comparison_checks(tname, rows, rows[0].stopping_rule if rows else None))
    checks.extend(_seat_checks(files, metric))
    return tuple(checks)


# --------------------------------------------------------------------------- against the page


def _map_key(row: TrialRow) -> int | str:
    """A pair's map: its control's map seed (a pair without one is a map of its own)."""
    return row.map_seed if row.map_seed is not None else f"trial {row.trial}"


def _same(code: str, subject: str, what: str, page_value: object, file_value: object, source: str) -> Check:
    problems: Problems = []
    if page_value != file_value:
        problems.append((source, None, f"the page says {page_value!r}, the files {file_value!r}"))
    return _check(code, subject, what, problems)


def _level_check(page: Page, first: TrialRow | None) -> Check:
    """The page's comparison level is the column's, to the places the column gives it."""
    column = first.comparison_level if first is not None else None
    problems: Problems = []
    if (page.comparison_level is None) != (column is None):
        problems.append((page.name, None, f"the page says {page.comparison_level}, the files "
                                          f"{column.text if column else None}"))
    elif page.comparison_level is not None and column is not None:
        if abs(page.comparison_level - column.value) > 0.5 * 10.0**-column.places:
            problems.append((page.name, None, f"the page says {page.comparison_level}, the files {column.text}"))
    return _check("page-level", page.name, "the page's comparison level is the files' (to the places the column "
                  "gives)", problems)


def scale_checks(files: StudyFiles, scale: str) -> tuple[Check, ...]:
    """On a log ratio every value a comparison reads is above zero (the ratio has no logarithm otherwise)."""
    if scale != LOG_RATIO:
        return ()
    controls = {r.trial: r for r in files.trials if r.arm == 0}
    problems: Problems = []
    for row in files.trials:
        if not row.in_comparison:
            continue
        for read in (row, controls.get(row.trial)):
            if read is not None and read.value is not None and read.value.value <= 0:
                problems.append((files.trials_name, read.row, f"value {read.value.text} on a log ratio, read by "
                                                              f"comparison {row.arm}"))
    return (_check("log-ratio-values", files.trials_name, "every value a log-ratio comparison reads is above "
                   "zero", sorted(set(problems), key=lambda p: (p[1] or 0, p[2]))),)


def page_checks(files: StudyFiles, page: Page, kind: str) -> tuple[Check, ...]:
    """The page's own counts and settings against the files': its settings, arms, pairs, comparisons, models."""
    comparisons = sorted({r.arm for r in files.trials if r.arm > 0}) if kind == "paired" else []
    checks = _page_setting_checks(files, page, kind, comparisons)
    checks += _page_arm_checks(files.trials, page)
    if kind == "paired":
        checks.append(_page_pairs_check(files.trials, page))
    checks += _page_comparison_checks(files.trials, page, comparisons)
    checks += _page_model_checks(files.seats, page)
    return tuple(checks)


def _page_setting_checks(files: StudyFiles, page: Page, kind: str, comparisons: Sequence[int]) -> list[Check]:
    """The page's study, kind, metric, stopping rule, levels (the comparison level is the declared one split
    across the comparisons) and metric range are the files'."""
    first = files.trials[0] if files.trials else None
    pname = page.name
    checks = [
        _same("page-study", pname, "the page is the files' study", page.study, first.study if first else None, pname),
        _same("page-kind", pname, "the page's kind (series or paired) is the files'", page.kind, kind, pname),
        _same("page-metric", pname, "the page's metric is the files'", page.metric, first.metric if first else None,
              pname),
        _same("page-rule", pname, "the page's stopping rule is the files'", page.stopping_rule,
              first.stopping_rule if first else None, pname),
        _level_check(page, first),
    ]
    split: Problems = []
    if page.declared_level is not None and page.comparison_level is not None and comparisons:
        expected = 1 - (1 - page.declared_level) / len(comparisons)
        if abs(expected - page.comparison_level) > 5e-7:
            split.append((pname, None, f"declared {page.declared_level} over {count(len(comparisons), 'comparison')} is "
                                       f"{expected:.6f} each, the page says {page.comparison_level}"))
    checks.append(_check("page-level-split", pname, "the comparison level is the declared level split across the "
                         "comparisons: 1 - (1 - declared) / comparisons", split))
    catalogue = metric_range(page.metric, field_size=field_size(files))
    if catalogue is not None:
        checks.append(_same("page-range", pname, "the page's metric range is the metric's", page.metric_range,
                            catalogue, pname))
    return checks


def _page_arm_checks(rows: Sequence[TrialRow], page: Page) -> list[Check]:
    """Each arm's trials (all, and with a value) and label are the page's; an arm on one side only is a problem."""
    pname = page.name
    checks = []
    page_arms = {a.arm: a for a in page.arms}
    for arm in sorted({r.arm for r in rows} | set(page_arms)):
        problems: Problems = []
        mine = [r for r in rows if r.arm == arm]
        shown = page_arms.get(arm)
        if shown is None:
            problems.append((pname, None, f"the files have arm {arm}; the page does not"))
        elif not mine:
            problems.append((pname, None, f"the page has arm {arm}; the files do not"))
        else:
            valued = sum(1 for r in mine if r.value is not None)
            if (shown.rows, shown.trials) != (len(mine), valued):
                problems.append((pname, None, f"the page counts {count(shown.rows, 'trial')}, {shown.trials} with a value; "
                                              f"the files {len(mine)}, {valued}"))
            if shown.label != mine[0].arm_label:
                problems.append((pname, None, f"the page labels it {shown.label!r}, the files {mine[0].arm_label!r}"))
        checks.append(_check("page-arm", f"arm {arm}", "the arm's trials (all, and with a value) and label are "
                             "the page's", problems))
    return checks


def _page_pairs_check(rows: Sequence[TrialRow], page: Page) -> Check:
    """A paired study's pairs in and out, and the reasons each arm kept one out, are the page's (a trial's
    first row speaks for its pair)."""
    pname = page.name
    pairs: dict[int, TrialRow] = {}
    for row in rows:
        pairs.setdefault(row.trial, row)
    pairs_in = sum(1 for r in pairs.values() if r.pair == "in")
    pairs_out = sum(1 for r in pairs.values() if r.pair == "out")
    tally = Counter(f"{a}:{why}" for r in pairs.values() if r.pair == "out" for a, why in (r.pair_out or ()))
    problems: Problems = []
    if (page.pairs_in, page.pairs_out) != (pairs_in, pairs_out):
        problems.append((pname, None, f"the page counts {count(page.pairs_in, 'pair')} in and {page.pairs_out} out; "
                                      f"the files {pairs_in} and {pairs_out}"))
    if page.pair_out != dict(tally):
        problems.append((pname, None, f"the page's reasons {dict(sorted(page.pair_out.items()))}, the files' "
                                      f"{dict(sorted(tally.items()))}"))
    return _check("page-pairs", pname, "pairs in and out, and the reasons each arm kept one out, are the "
                  "page's", problems)


def _page_comparison_checks(rows: Sequence[TrialRow], page: Page, comparisons: Sequence[int]) -> list[Check]:
    """Each comparison's pairs read (``in_comparison``) and maps are the page's; a page that withholds a verdict
    gives none."""
    pname = page.name
    checks = []
    page_comparisons = {c.arm: c for c in page.comparisons}
    controls = {r.trial: r for r in rows if r.arm == 0}
    for arm in sorted(set(comparisons) | set(page_comparisons)):
        problems: Problems = []
        shown_c = page_comparisons.get(arm)
        read = [r for r in rows if r.arm == arm and r.in_comparison]
        maps = {_map_key(controls.get(r.trial, r)) for r in read}
        if shown_c is None:
            problems.append((pname, None, f"the files compare arm {arm} with the control; the page does not"))
        elif arm not in comparisons:
            problems.append((pname, None, f"the page compares arm {arm}; the files have no such arm"))
        else:
            if shown_c.pairs != len(read):
                problems.append((pname, None, f"the page says the comparison read {count(shown_c.pairs, 'pair')}; "
                                              f"in_comparison marks {len(read)}"))
            if shown_c.maps != len(maps):
                problems.append((pname, None, f"the page counts {count(shown_c.maps, 'map')}; the pairs read have "
                                              f"{len(maps)}"))
            if shown_c.withheld is not None and shown_c.verdict is not None:
                problems.append((pname, None, f"the page withholds the verdict ({shown_c.withheld}) yet gives "
                                              f"{shown_c.verdict}"))
        checks.append(_check("page-comparison", f"comparison {arm}", "the pairs and maps the comparison read are "
                             "the page's", problems))
    return checks


def _page_model_checks(seats: Sequence[SeatRow], page: Page) -> list[Check]:
    """Each model's seats and trials in whole trials (guests and seats without a fitness left out) are the
    page's table's."""
    pname = page.name
    checks = []
    models: dict[str, tuple[list[int], set[tuple[int, int]]]] = {}
    for seat in seats:
        if seat.whole_trial and not seat.guest and seat.fitness_index is not None:
            counted, played = models.setdefault(seat.model, ([0], set()))
            counted[0] += 1
            played.add((seat.trial, seat.arm))
    page_models = {m.model: m for m in page.models}
    for model in sorted(set(models) | set(page_models)):
        problems: Problems = []
        shown_m = page_models.get(model)
        if shown_m is None:
            problems.append((pname, None, f"the files have seats of {model} in whole trials; the page's table "
                                          "does not"))
        elif model not in models:
            problems.append((pname, None, f"the page's table has {model}; no seat of it is in a whole trial"))
        else:
            counted, played = models[model]
            if (shown_m.seats, shown_m.trials) != (counted[0], len(played)):
                problems.append((pname, None, f"the page counts {count(shown_m.seats, 'seat')} in {count(shown_m.trials, 'trial')}; "
                                              f"the files {counted[0]} in {len(played)}"))
        checks.append(_check("page-model", f"model {model}", "the model's seats and trials in whole trials are the "
                             "page's", problems))
    return checks


def recipe_checks(files: StudyFiles, recipe: Recipe) -> tuple[Check, ...]:
    """The recipe's stopping rule is the files'; under the anytime rule it gives the tuning constant."""
    rule = files.trials[0].stopping_rule if files.trials else None
    problems: Problems = []
    if recipe.stopping_rule != rule:
        problems.append((recipe.name, None, f"the recipe's rule is {recipe.stopping_rule}, the files' {rule}"))
    if rule == "anytime" and recipe.sequence_tuning is None:
        problems.append((recipe.name, None, "the anytime rule without a tuning constant"))
    return (_check("recipe", recipe.name, "the recipe's stopping rule is the files'", problems),)
