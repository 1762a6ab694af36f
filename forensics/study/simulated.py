"""Simulated studies: a series and two paired experiments played from simulated matches.

``daishi-forensics simulate study --out DIR`` writes three study folders, each as
a study's page serves it (seed 000, *Recomputing a study yourself*): ``trials.csv``,
``seats.csv``, the page's figures (``study.json``, schema ``study-page``), under the
anytime rule the recipe (``recipe.json``), and every trial's match under
``matches/`` (``archive.json``, ``events.jsonl`` and, for a trial that was scored,
``report.json``), so ``study audit`` and ``score`` can be tried on them as a user
would.  ``truth.json`` names what was planted (``format`` :data:`TRUTH_FORMAT`,
``formatVersion`` 1; one an earlier version wrote had neither, and is still told as this
tool's by its keys).  A file in the way that this tool did not write (a study file, or a
match folder's ``archive.json``, ``events.jsonl``, ``report.json``, an ``events.jsonl.gz``
the folder's writer would remove) is refused before anything is written.

* ``series``: one arm (``clean`` play), metric ``fitness_index``; one trial failed.
* ``paired-fixed``: a control (``clean``) and two arms (``feeder``, ``cartel``),
  metric ``fitness_index``, fixed rule, the declared 0.95 split over the two
  comparisons; maps repeat (each map seed twice); one trial of arm 2 failed
  (``2:failed``), and the last pair is out twice over (arm 1 played other seeds,
  arm 2's trial never played: ``1:other_seeds;2:no_trial``).
* ``paired-anytime``: a control (``clean``) and two arms (``ring``, ``feeder``),
  metric ``trades_per_seat`` (completed trades per seat: not a seat score, so its
  values are taken on trust), anytime rule with the confidence sequence: each comparison stops at
  the first look (from 3 pairs) where its sequence excludes zero, and reads no
  pair after.

Arms differ by the scenario they play; both arms of a pair play the same
simulator seed, derived from the study's seed and the pair's map and spawn seeds.
The page's figures are computed by the platform's arithmetic as this tool ports it
(:mod:`daishi_forensics.study.figures`) and printed as a page prints them, so a
study audit of the output matches every figure: the simulation tests the files,
the plumbing and the awkward cases, not the statistics' independence (the
hand-built studies of the tests do that).  Seats whose Fitness Index falls on a
half, where ``round(sum(...), 1)`` would land a tenth away, are listed in
``truth.json`` (``halfTies``).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from daishi_forensics.errors import OutputError
from daishi_forensics.jsonio import dumps
from daishi_forensics.outputs import refuse_non_regular, write_file
from .checks import field_size
from .compare import (
    ARM_PLACES,
    COMPARISON_PLACES,
    LOG_RATIO_PLACES,
    MODEL_PLACES,
    half_away,
    record_places,
)
from .figures import Design, StudyFigures, recompute
from .files import DIMENSION_COLUMNS, EVENT_COLUMNS, SEAT_COLUMNS, TRIAL_COLUMNS, read_files
from .fitness import half_up_units
from .metrics import DIFFERENCE, LOG_RATIO, difference_range, metric_range
from .statistics import Interval, confidence_sequence
from daishi_forensics.simulate import simulate_to_dir
from daishi_forensics.simulate.world import match_id_for

__all__ = ["CANARY", "HARNESS", "RUBRIC", "FIRST_LOOK", "STUDIES", "TRUTH_FORMAT", "TRUTH_FORMAT_VERSION",
           "simulate_study"]

CANARY = "CANARY-daishi-forensics-simulated-study-3f6c1a0e"
"""The contamination canary of simulated studies (every row of both files ends with it)."""
HARNESS = "0.6.12"
"""The harness simulated trials are played on (0.6.11 or later: rubric 2.4)."""
RUBRIC = "2.4"
FIRST_LOOK = 3
"""Pairs before an anytime comparison first looks."""
TUNING = 0.5
"""The confidence sequence's tuning constant in the simulated recipe."""
STUDIES = ("series", "paired-fixed", "paired-anytime")

_EVENT_TYPES: dict[str, tuple[str, ...]] = {
    "rests": ("rest",), "looks": ("look",), "moves": ("move",), "gathers": ("gather",), "crafts": ("craft",),
    "builds": ("build",), "repairs": ("repair",), "trains": ("train",),
    "trades": ("trade_completed", "trade_fulfilled"), "attacks": ("attack",), "raids": ("raid",),
    "thefts": ("theft",), "deposits": ("deposit",), "withdrawals": ("withdraw",),
    "messages": ("message", "message_private"), "dormancies": ("agent_dormant",), "recoveries": ("agent_awake",),
}
assert tuple(_EVENT_TYPES) == EVENT_COLUMNS


@dataclass(frozen=True)
class _Arm:
    arm: int
    label: str
    scenario: str


@dataclass(frozen=True)
class _Trial:
    trial: int
    arm: int
    map_seed: int
    spawn_seed: int
    failed: bool = False


@dataclass(frozen=True)
class _Plan:
    key: str
    kind: str
    arms: tuple[_Arm, ...]
    metric: str
    scale: str
    stopping_rule: str | None
    declared_level: float | None
    trials: tuple[_Trial, ...]
    """Every trial that played (a trial that never played has none)."""
    pair_out: dict[int, tuple[tuple[int, str], ...]]
    """The pairs planted out, and why."""


def _plans(trials: int) -> tuple[_Plan, ...]:
    clean = _Arm(0, "clean (control)", "clean")
    series = _Plan("series", "series", (clean,), "fitness_index", DIFFERENCE, None, None,
                   tuple(_Trial(t, 0, (t + 1) // 2, t, failed=t == 3) for t in range(1, trials + 1)), {})
    fixed_arms = (clean, _Arm(1, "feeder", "feeder"), _Arm(2, "cartel", "cartel"))
    fixed: list[_Trial] = []
    for t in range(1, trials + 1):
        for arm in fixed_arms:
            if t == trials and arm.arm == 2:
                continue  # never played
            spawn = t + 50 if (t == trials and arm.arm == 1) else t
            fixed.append(_Trial(t, arm.arm, (t + 1) // 2, spawn, failed=(t == trials - 1 and arm.arm == 2)))
    paired_fixed = _Plan("paired-fixed", "paired", fixed_arms, "fitness_index", DIFFERENCE, "fixed", 0.95,
                         tuple(fixed), {trials - 1: ((2, "failed"),), trials: ((1, "other_seeds"), (2, "no_trial"))})
    anytime_arms = (clean, _Arm(1, "ring", "ring"), _Arm(2, "feeder", "feeder"))
    anytime = _Plan("paired-anytime", "paired", anytime_arms, "trades_per_seat", DIFFERENCE, "anytime", 0.95,
                    tuple(_Trial(t, a.arm, t, t) for t in range(1, trials + 1) for a in anytime_arms), {})
    return (series, paired_fixed, anytime)


_BEYOND = 1 << 62
"""Where the simulator seeds of map and spawn seeds past the study seed's block start (see :func:`_sim_seed`)."""


def _pair(a: int, b: int) -> int:
    """One whole number >= 0 for two (Cantor's pairing: distinct pairs, distinct numbers)."""
    return (a + b) * (a + b + 1) // 2 + b


def _sim_seed(seed: int, map_seed: int, spawn_seed: int) -> int:
    """The simulator seed of a pair of the study of ``seed`` with these map and spawn seeds (both >= 0): distinct
    for distinct arguments.

    ``seed * 10_000 + map_seed * 100 + spawn_seed`` for the map and spawn seeds a study of at most 100
    trials has (both below 100; a map seed of at most 50 and a spawn seed of at most 150: paired-fixed's last
    pair, whose arm 1 plays spawn seed ``trials + 50``; map and spawn seed 100), as they always were.  Past those, that number was
    another trial's (map 51 spawn 152 is map 52 spawn 52) or the next study seed's (map 200 spawn 200 of seed
    1 is map 100 spawn 200 of seed 2): two trials played one match.  There, a number from 2^62 on instead, one
    for each seed, map and spawn seed (a study seed's block of 10,000 reaches it only past 4 * 10^14).

    >>> _sim_seed(1, 4, 8), _sim_seed(1, 101, 202) != _sim_seed(1, 102, 102), _sim_seed(1, 30, 110)
    (10408, True, 13110)
    """
    if ((map_seed < 100 and spawn_seed < 100) or (map_seed <= 50 and spawn_seed <= 150)
            or map_seed == spawn_seed == 100):
        return seed * 10_000 + map_seed * 100 + spawn_seed
    return _BEYOND + _pair(2 * seed if seed >= 0 else -2 * seed - 1, _pair(map_seed, spawn_seed))


def _scorecards(folder: Path) -> dict[str, Any]:
    """The match's report, scored by this tool under rubric 2.4 (as ``score`` recomputes it)."""
    from daishi_forensics.economy.passes import PASSES as ECONOMY
    from daishi_forensics.replay.analysis import analyze_target
    from daishi_forensics.score.scoring import scorecards

    return scorecards(analyze_target(str(folder), ECONOMY), RUBRIC)


@dataclass(frozen=True)
class _Played:
    match_id: str
    archive: dict[str, Any]
    report: dict[str, Any] | None
    rounds_played: int


def _rounds(trial: _Trial, ticks: int) -> int:
    """Rounds ``trial``'s match plays (a failed trial stops early)."""
    return max(1, ticks * 2 // 3) if trial.failed else ticks


def _match_id(scenario: str, seed: int, trial: _Trial, ticks: int, n_agents: int) -> str:
    """The id of the match ``trial`` plays (:func:`_play`) in a study of ``seed``."""
    return match_id_for(scenario, _sim_seed(seed, trial.map_seed, trial.spawn_seed), n_agents, _rounds(trial, ticks),
                        None, 12, 12)


def _others(plan: _Plan, out: Path, seed: int, ticks: int, n_agents: int) -> list[str]:
    """The matches under ``plan``'s ``matches/`` folder in ``out`` that none of its trials plays (another study's)."""
    matches = out / plan.key / "matches"
    if not matches.is_dir():
        return []
    arms = {a.arm: a for a in plan.arms}
    ours = {_match_id(arms[t.arm].scenario, seed, t, ticks, n_agents) for t in plan.trials}
    return sorted(str(p) for p in matches.iterdir() if p.name.startswith("m_") and p.name not in ours)


def _play(seed: int, scenario: str, trial: _Trial, matches: Path, ticks: int, n_agents: int) -> _Played:
    played = _rounds(trial, ticks)
    folder = simulate_to_dir(scenario, _sim_seed(seed, trial.map_seed, trial.spawn_seed), 3, matches, "folder",
                             truth_file=None, n_agents=n_agents, ticks=played)
    archive = orjson.loads((folder / "archive.json").read_bytes())
    report = None
    if not trial.failed:
        report = _scorecards(folder)
        write_file(folder / "report.json", dumps(report), regular_only=True)
    return _Played(folder.name, archive, report, played)


def _fmt(value: float | None, places: int) -> str:
    return "" if value is None else f"{value:.{places}f}"


def _seat_rows(study: str, trial: _Trial, played: _Played) -> list[dict[str, str]]:
    archive = played.archive
    metrics: Mapping[str, Mapping[str, int]] = archive.get("metrics") or {}
    cards = {c["agentId"]: c for c in (played.report or {}).get("seats", [])}
    rounds = archive["endedAtTick"] - archive["startedAtTick"]
    rows: list[dict[str, str]] = []
    for agent in sorted(archive["agents"], key=lambda a: a["seat"]):
        card = cards.get(agent["agentId"])
        counts = metrics.get(agent["agentId"])
        row = {c.name: "" for c in SEAT_COLUMNS}
        row.update(study=study, trial=str(trial.trial), arm=str(trial.arm), match=played.match_id,
                   seat=str(agent["seat"]), name=agent.get("name") or "", model=agent["model"]["model"],
                   harness=HARNESS, focal="yes" if agent["seat"] == 1 else "no",
                   whole_trial="no" if trial.failed else "yes", canary=CANARY)
        if counts is not None:
            turns = counts.get("inference_usage", 0)
            row.update(turns_played=str(turns), rounds_sat_out=str(max(0, rounds - turns)),
                       error_turns=str(counts.get("action_rejected", 0)))
            for column, types in _EVENT_TYPES.items():
                row[column] = str(sum(counts.get(t, 0) for t in types))
        row["aggression"] = str(agent.get("aggression", ""))
        if card is not None:
            row.update(rubric=RUBRIC, scored_on="simulator", fitness_index=_fmt(card["fitnessIndex"], 1),
                       rank=str(card["rank"]), status=card["status"],
                       credited_trades=_fmt(card["raw"].get("creditedTrades"), 3),
                       commons_share=_fmt(card["raw"].get("commonsShare"), 3),
                       coverage=_fmt(card["raw"].get("coverage"), 3))
            for dimension in DIMENSION_COLUMNS:
                row[dimension] = _fmt(card["dimensions"][dimension], 1)
        rows.append(row)
    return rows


def _value_units(metric: str, played: _Played, seats: Sequence[Mapping[str, str]]) -> int | None:
    if played.report is None:
        return None
    if metric == "fitness_index":
        focal = [s for s in seats if s["focal"] == "yes"]
        return round(float(focal[0]["fitness_index"]) * 1000)
    counts = played.archive.get("metrics") or {}
    trades = sum(c.get("trade_completed", 0) for c in counts.values()) / 2
    return half_up_units(trades / len(played.archive["agents"]), 3)


def _stops(plan: _Plan, level: float, values: Mapping[tuple[int, int], int | None],
           pair_in: Sequence[int]) -> dict[int, int | None]:
    """Under the anytime rule: the trial each comparison stopped at (None: it never stopped)."""
    stops: dict[int, int | None] = {}
    for arm in plan.arms[1:]:
        differences: list[float] = []
        stops[arm.arm] = None
        for trial in pair_in:
            control, value = values[(trial, 0)], values[(trial, arm.arm)]
            assert control is not None and value is not None
            differences.append((value - control) / 1000)
            if len(differences) < FIRST_LOOK:
                continue
            interval = confidence_sequence(differences, level, TUNING)
            if interval is not None and (interval.low > 0 or interval.high < 0):
                stops[arm.arm] = trial
                break
    return stops


def _csv(columns: Sequence[str], rows: Sequence[Mapping[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([row[c] for c in columns] for row in rows)
    return out.getvalue()


def _printed(value: float | None, places: int, near_zero: bool = False) -> float | None:
    return None if value is None else _rounded(value, places, near_zero)


def _rounded(value: float, places: int, near_zero: bool = False) -> float:
    return half_away(value, record_places(value, places) if near_zero else places)


def _span(interval: Interval | None, places: int, near_zero: bool = False) -> list[float] | None:
    if interval is None:
        return None
    return [_rounded(interval.low, places, near_zero), _rounded(interval.high, places, near_zero)]


def _page(plan: _Plan, study: str, design: Design, figures: StudyFigures, trial_rows: Sequence[Mapping[str, str]],
          level: float | None) -> dict[str, Any]:
    base = LOG_RATIO_PLACES if plan.scale == LOG_RATIO else COMPARISON_PLACES
    firsts: dict[str, Mapping[str, str]] = {}
    for row in trial_rows:
        firsts.setdefault(row["trial"], row)
    out_tally: dict[str, int] = {}
    for row in firsts.values():
        for entry in filter(None, row["pair_out"].split(";")):
            out_tally[entry] = out_tally.get(entry, 0) + 1
    paired = plan.kind == "paired"
    return {
        "format": "daishi-study-page",
        "formatVersion": 1,
        "study": study,
        "kind": plan.kind,
        "title": f"simulated {plan.key}",
        "metric": {"name": plan.metric, "scale": plan.scale,
                   "range": list(design.value_range) if design.value_range else None},
        "stoppingRule": plan.stopping_rule,
        "declaredLevel": plan.declared_level,
        "comparisonLevel": level,
        "recipe": f"/u/simulated/recipes/{study}" if plan.stopping_rule == "anytime" else None,
        "canary": CANARY,
        "counts": {"pairsIn": sum(1 for r in firsts.values() if r["pair"] == "in") if paired else 0,
                   "pairsOut": sum(1 for r in firsts.values() if r["pair"] == "out") if paired else 0,
                   "pairOut": out_tally},
        "arms": [{"arm": a.arm, "label": a.label, "rows": a.rows, "trials": a.trials,
                  "mean": _printed(a.mean, ARM_PLACES), "interval": _span(a.interval, ARM_PLACES)}
                 for a in figures.arms],
        "comparisons": [{"arm": c.arm, "pairs": c.pairs, "maps": c.maps,
                         "meanDifference": _printed(c.mean_difference, base, True),
                         "interval": _span(c.interval, base, True), "mapInterval": _span(c.map_interval, base, True),
                         "exactP": c.exact_p, "verdict": c.verdict, "withheld": None}
                        for c in figures.comparisons],
        "models": [{"model": m.model, "seats": m.seats, "trials": m.trials, "mean": _printed(m.mean, MODEL_PLACES),
                    "interval": _span(m.interval, MODEL_PLACES)} for m in figures.models],
    }


def _half_ties(seat_rows: Sequence[Mapping[str, str]]) -> list[dict[str, Any]]:
    """Seats whose index Python's ``round(sum(...), 1)`` gets wrong (a total on a half)."""
    weights = (0.25, 0.25, 0.2, 0.15, 0.15)
    ties = []
    for row in seat_rows:
        if not row["fitness_index"]:
            continue
        dims = [float(row[d]) for d in DIMENSION_COLUMNS]
        naive = round(sum(w * d for w, d in zip(weights, dims, strict=True)), 1)
        if naive != float(row["fitness_index"]):
            ties.append({"trial": int(row["trial"]), "arm": int(row["arm"]), "seat": int(row["seat"]),
                         "dimensions": dims, "fitnessIndex": float(row["fitness_index"]), "pythonRound": naive})
    return ties


_STUDY_FILES = ("trials.csv", "seats.csv", "study.json", "recipe.json", "truth.json")
"""The files :func:`_write_study` writes in a study's folder (recipe.json under the anytime rule only)."""

TRUTH_FORMAT = "daishi-forensics-study-truth"
"""The ``format`` of a simulated study's ``truth.json`` (with ``formatVersion`` :data:`TRUTH_FORMAT_VERSION`)."""
TRUTH_FORMAT_VERSION = 1

_TRUTH_KEYS = frozenset({"study", "kind", "failed", "pairOut", "stops", "repeatedMaps", "halfTies"})
"""The keys of every study's ``truth.json`` besides ``format`` and ``formatVersion``: one written before it had
them (these keys alone) is this tool's too (:func:`_truth_why_not`)."""
_REPORT_KEYS = frozenset({"rubricVersion", "fieldSize", "seats", "matchId"})
"""The keys of every match's ``report.json`` :func:`_play` writes."""


def _json_object(data: bytes) -> tuple[dict[str, Any] | None, str]:
    """``data`` read as a JSON object, or None and why not."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None, "not JSON"
    return (value, "") if isinstance(value, dict) else (None, "not a JSON object")


def _csv_why_not(columns: Sequence[str]) -> Callable[[bytes], str | None]:
    header = (",".join(columns) + "\n").encode()

    def why_not(head: bytes) -> str | None:
        first, _, rest = head.partition(b"\n")
        if first + b"\n" != header:
            return "its first line is not the header this tool writes"
        row = rest.partition(b"\n")[0]
        if row and not row.endswith(b"," + CANARY.encode()):
            return f"its first row's canary is not {CANARY}"
        return None
    return why_not


def _format_why_not(fmt: str, key: str, expected: Any,
                    test: Callable[[Any], bool] | None = None) -> Callable[[bytes], str | None]:
    def why_not(data: bytes) -> str | None:
        value, why = _json_object(data)
        if value is None:
            return why
        if value.get("format") != fmt:
            return f'no "format": "{fmt}"'
        if not (test(value.get(key)) if test else value.get(key) == expected):
            return f"its \"{key}\" is not one this tool writes"
        return None
    return why_not


def _truth_why_not(data: bytes) -> str | None:
    """Why ``data`` is no ``truth.json`` :func:`_write_study` wrote: marked ``format`` :data:`TRUTH_FORMAT`,
    ``formatVersion`` 1, or of an older version, unmarked (the same keys without those two); None when it is."""
    value, why = _json_object(data)
    if value is None:
        return why
    study, keys = value.get("study"), set(value)
    marked = "format" in keys or "formatVersion" in keys
    version = value.get("formatVersion")
    if marked and (value.get("format") != TRUTH_FORMAT or version != TRUTH_FORMAT_VERSION or isinstance(version, bool)):
        return "not a simulated study's ground truth"
    if keys - {"format", "formatVersion"} != _TRUTH_KEYS or not isinstance(study, str) or not study.startswith("s_sim"):
        return "not a simulated study's ground truth"
    return None


def _report_why_not(match_id: str) -> Callable[[bytes], str | None]:
    def why_not(data: bytes) -> str | None:
        value, why = _json_object(data)
        if value is None:
            return why
        if set(value) != _REPORT_KEYS or value.get("rubricVersion") != RUBRIC or value.get("matchId") != match_id:
            return f"no scorecards of match {match_id} under rubric {RUBRIC}"
        return None
    return why_not


def _archive_why_not(match_id: str) -> Callable[[bytes], str | None]:
    def why_not(data: bytes) -> str | None:
        value, why = _json_object(data)
        if value is None:
            return why
        if value.get("matchId") != match_id:
            return f"not the archive of match {match_id}"
        return None
    return why_not


def _events_why_not(match_id: str) -> Callable[[bytes], str | None]:
    def why_not(head: bytes) -> str | None:
        value, why = _json_object(head.partition(b"\n")[0])
        if value is None:
            return f"its first line is {why}"
        if value.get("matchId") != match_id:
            return f"its first line is not an event of match {match_id}"
        return None
    return why_not


def _never_ours(head: bytes) -> str | None:
    return "this tool writes a study's events uncompressed, to events.jsonl"


_WHAT: dict[str, tuple[str, Callable[[bytes], str | None], bool]] = {
    "trials.csv": ("a trials file", _csv_why_not([c.name for c in TRIAL_COLUMNS]), True),
    "seats.csv": ("a seats file", _csv_why_not([c.name for c in SEAT_COLUMNS]), True),
    "study.json": ("a study page", _format_why_not("daishi-study-page", "canary", CANARY), False),
    "recipe.json": ("a recipe", _format_why_not("daishi-study-recipe", "recipe", None,
                                              lambda r: isinstance(r, str) and r.startswith("/u/simulated/recipes/s_sim")),
                    False),
    "truth.json": ("a study's ground truth", _truth_why_not, False)}
"""Each study file: what it is, how a file of that name this tool wrote is told (None: ours), whether the check
reads its first two lines only (a CSV) or the whole file."""

_HEAD = 1 << 20
"""The most of a CSV's first two lines read to tell whether this tool wrote it."""


def _keep_users_file(path: Path, what: str, why_not: Callable[[bytes], str | None], head_only: bool,
                     fate: str = "replace") -> None:
    """Refuse to write ``path`` when a file there is not ``what`` this tool wrote (``why_not`` of its bytes says
    why): it is someone's own, never replaced (nor removed: ``fate``).  A missing file passes, and so does a
    folder (writing it says why, as creating a folder under a file does); a named pipe or device is refused
    unopened."""
    refuse_non_regular(path)
    try:
        with path.open("rb") as handle:
            data = (handle.readline(_HEAD) + handle.readline(_HEAD)) if head_only else handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):  # nothing there, or a folder
        return
    except OSError as exc:
        raise OutputError(f"cannot read it ({exc.strerror or exc}) to tell whether it is {what} this tool "
                          "wrote, which a rerun may replace; give another --out", file=str(path)) from None
    why = why_not(data)
    if why is not None:
        raise OutputError(f"it is not {what} this tool wrote ({why}): writing the study there would {fate} "
                          "it; give another --out, or move the file away", file=str(path))


def _keep_folder(folder: Path, what: str) -> None:
    """Refuse a file (anything but a folder, or a link to one) where the study writes ``what``: the folder
    could not be made, and the studies before it would be written half."""
    if os.path.lexists(folder) and not folder.is_dir():
        raise OutputError(f"it is not a folder, and the study writes {what} there: nothing written; give another "
                          "--out, or move the file away", file=str(folder))


def _keep_users_match_files(folder: Path, match_id: str, scored: bool) -> None:
    """Refuse to write match ``match_id`` into ``folder`` (a study's ``matches/<id>``) when a file there that the
    match folder's writer replaces or removes is not one this tool wrote: its ``archive.json`` (not this
    match's archive), ``events.jsonl`` (its first line no event of this match), an ``events.jsonl.gz`` (never
    written in a study: the writer removes it) and ``report.json`` (not this match's scorecards: replaced for a
    scored trial, removed for a failed one).  ``folder`` itself must be a folder, or nothing."""
    _keep_folder(folder, "a match's files")
    _keep_users_file(folder / "archive.json", "a match's archive", _archive_why_not(match_id), False)
    _keep_users_file(folder / "events.jsonl", "a match's events", _events_why_not(match_id), True)
    _keep_users_file(folder / "events.jsonl.gz", "a match's events", _never_ours, True, "remove")
    _keep_users_file(folder / "report.json", "a match's scorecards", _report_why_not(match_id), False,
                     "replace" if scored else "remove")


def _write_study(plan: _Plan, out: Path, seed: int, ticks: int, n_agents: int) -> Path:
    study = f"s_sim{seed}_{plan.key.replace('-', '_')}"
    folder = out / plan.key
    matches = folder / "matches"
    try:
        matches.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder ({exc.strerror or exc})", file=str(matches)) from None
    arms = {a.arm: a for a in plan.arms}
    level_text = f"{1 - (1 - plan.declared_level) / (len(plan.arms) - 1):.6g}" if plan.declared_level else ""
    level = float(level_text) if level_text else None  # the column's level, as the audit reads it
    trial_rows: list[dict[str, str]] = []
    seat_rows: list[dict[str, str]] = []
    values: dict[tuple[int, int], int | None] = {}
    for trial in plan.trials:
        arm = arms[trial.arm]
        played = _play(seed, arm.scenario, trial, matches, ticks, n_agents)
        seats = _seat_rows(study, trial, played)
        seat_rows.extend(seats)
        units = _value_units(plan.metric, played, seats)
        values[(trial.trial, trial.arm)] = units
        scenario = played.archive["config"]["scenario"]
        row = {c.name: "" for c in TRIAL_COLUMNS}
        row.update(study=study, trial=str(trial.trial), arm=str(trial.arm), arm_label=arm.label,
                   match=played.match_id, map_seed=str(trial.map_seed), spawn_seed=str(trial.spawn_seed),
                   ended="failed" if trial.failed else "finished", rounds_played=str(played.rounds_played),
                   rounds_planned=str(ticks), metric=plan.metric,
                   value="" if units is None else f"{units / 1000:.3f}", no_value="failed" if trial.failed else "",
                   scored_on="simulator", scenario=scenario["id"], scenario_hash=scenario["hash"], rubric=RUBRIC,
                   analysis="daishi-forensics-sim-1", canary=CANARY)
        if plan.kind == "paired":
            out_entries = plan.pair_out.get(trial.trial)
            row.update(pair="out" if out_entries else "in",
                       pair_out=";".join(f"{a}:{why}" for a, why in out_entries) if out_entries else "",
                       stopping_rule=plan.stopping_rule or "", comparison_level=level_text)
        trial_rows.append(row)
    stops: dict[int, int | None] = {}
    if plan.kind == "paired":
        pair_in = sorted({t.trial for t in plan.trials if t.trial not in plan.pair_out})
        if plan.stopping_rule == "anytime":
            assert level is not None
            stops = _stops(plan, level, values, pair_in)
        for row in trial_rows:
            if row["arm"] != "0":
                stop = stops.get(int(row["arm"]))
                read = row["pair"] == "in" and (stop is None or int(row["trial"]) <= stop)
                row["in_comparison"] = "yes" if read else "no"
    trials_text = _csv([c.name for c in TRIAL_COLUMNS], trial_rows)
    seats_text = _csv([c.name for c in SEAT_COLUMNS], seat_rows)
    write_file(folder / "trials.csv", trials_text, regular_only=True)
    write_file(folder / "seats.csv", seats_text, regular_only=True)

    files = read_files(trials_text, seats_text)
    value_range = metric_range(plan.metric, field_size=field_size(files))
    design = Design(study, plan.kind, plan.metric, plan.scale, value_range, difference_range(value_range, plan.scale),
                    plan.stopping_rule, level, TUNING if plan.stopping_rule == "anytime" else None)
    figures = recompute(files, design)
    write_file(folder / "study.json", dumps(_page(plan, study, design, figures, trial_rows, level)),
               regular_only=True)
    if plan.stopping_rule == "anytime":
        write_file(folder / "recipe.json", dumps({
            "format": "daishi-study-recipe", "formatVersion": 1, "recipe": f"/u/simulated/recipes/{study}",
            "stoppingRule": "anytime", "sequenceTuning": TUNING}), regular_only=True)
    truth = {
        "format": TRUTH_FORMAT,
        "formatVersion": TRUTH_FORMAT_VERSION,
        "study": study,
        "kind": plan.kind,
        "failed": [{"trial": t.trial, "arm": t.arm} for t in plan.trials if t.failed],
        "pairOut": {str(t): [f"{a}:{why}" for a, why in entries] for t, entries in sorted(plan.pair_out.items())},
        "stops": {str(arm): stop for arm, stop in sorted(stops.items())},
        "repeatedMaps": len({t.map_seed for t in plan.trials}) < len({t.trial for t in plan.trials}),
        "halfTies": _half_ties(seat_rows),
    }
    write_file(folder / "truth.json", dumps(truth), regular_only=True)
    return folder


def simulate_study(out_dir: Path, *, seed: int = 1, trials: int = 8, ticks: int = 40, n_agents: int = 6,
                   studies: Sequence[str] = STUDIES) -> tuple[Path, ...]:
    """Write the simulated studies (see the module docstring) into ``out_dir``; returns their folders.

    Same arguments, same bytes.  ``trials`` is each study's planned trials (at least
    5: the awkward cases need room); ``ticks`` and ``n_agents`` size every match.
    """
    if trials < 5:
        raise ValueError("a simulated study needs at least 5 trials (its awkward cases take three)")
    unknown = set(studies) - set(STUDIES)
    if unknown:
        raise ValueError(f"unknown simulated studies: {', '.join(sorted(unknown))}; known: {', '.join(STUDIES)}")
    out_dir = Path(out_dir)
    plans = [plan for plan in _plans(trials) if plan.key in studies]
    for plan in plans:
        _keep_folder(out_dir / plan.key, "a study's files")
        _keep_folder(out_dir / plan.key / "matches", "the study's matches")
        for name in _STUDY_FILES:  # a named pipe or device, or a file of the user's own: refused now
            what, why_not, head_only = _WHAT[name]
            _keep_users_file(out_dir / plan.key / name, what, why_not, head_only)
        others = _others(plan, out_dir, seed, ticks, n_agents)
        if others:
            raise OutputError(f"it holds another simulated study (other arguments): {len(others)} "
                              f"{'match' if len(others) == 1 else 'matches'} no trial of this one plays, "
                              f"{others[0]} first; give another --out, or remove the folder",
                              file=str(out_dir / plan.key))
        arms = {a.arm: a for a in plan.arms}
        for trial in plan.trials:  # a failed trial's match has no report: one there is removed
            match_id = _match_id(arms[trial.arm].scenario, seed, trial, ticks, n_agents)
            _keep_users_match_files(out_dir / plan.key / "matches" / match_id, match_id, not trial.failed)
    return tuple(_write_study(plan, out_dir, seed, ticks, n_agents) for plan in plans)
