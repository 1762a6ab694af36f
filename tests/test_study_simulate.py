"""`simulate study`: simulated studies round-trip through `study audit`, with the awkward cases planted.

Also: `simulate` became a group, and every single-match invocation still works.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from daishi_forensics.cli import main
from daishi_forensics.study.simulated import CANARY, simulate_study
from daishi_forensics.study.fitness import seat_fitness


@pytest.fixture(scope="module")
def studies(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("studies")
    result = CliRunner().invoke(main, ["simulate", "study", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.split() == [str(out / name) for name in ("series", "paired-fixed", "paired-anytime")]
    yield out


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("name", ["series", "paired-fixed", "paired-anytime"])
def test_a_simulated_study_round_trips_as_all_same(studies: Path, name: str) -> None:
    result = CliRunner().invoke(main, ["study", "audit", str(studies / name), "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    doc = json.loads(result.output)
    assert doc["summary"]["figures"]["differ"] == 0 and doc["summary"]["checks"]["disagree"] == 0
    assert doc["summary"]["figures"]["same"] > 20
    assert all(f["status"] == "same" for f in doc["figures"])


def test_the_awkward_cases_are_planted(studies: Path) -> None:
    # A failed trial: no value, not whole, seats unscored, no report beside its match.
    fixed = rows(studies / "paired-fixed" / "trials.csv")
    failed = [r for r in fixed if r["no_value"] == "failed"]
    assert [(r["trial"], r["arm"], r["value"], r["ended"]) for r in failed] == [("7", "2", "", "failed")]
    assert int(failed[0]["rounds_played"]) < int(failed[0]["rounds_planned"])
    match = studies / "paired-fixed" / "matches" / failed[0]["match"]
    assert (match / "archive.json").is_file() and not (match / "report.json").exists()
    failed_seats = [s for s in rows(studies / "paired-fixed" / "seats.csv") if s["match"] == failed[0]["match"]]
    assert failed_seats and all(s["whole_trial"] == "no" and s["fitness_index"] == "" for s in failed_seats)
    # Pairs left out with their reasons: 2:failed, and 1:other_seeds with 2:no_trial (arm 2 has no row).
    out = {r["trial"]: r["pair_out"] for r in fixed if r["pair"] == "out"}
    assert out == {"7": "2:failed", "8": "1:other_seeds;2:no_trial"}
    assert not [r for r in fixed if r["trial"] == "8" and r["arm"] == "2"]
    eight = {r["arm"]: (r["map_seed"], r["spawn_seed"]) for r in fixed if r["trial"] == "8"}
    assert eight["0"] != eight["1"] and eight["0"][0] == eight["1"][0]
    # Repeated maps: each map seed twice.
    maps = [r["map_seed"] for r in fixed if r["arm"] == "0"]
    assert len(set(maps)) < len(maps)
    # Early stops under the anytime rule: pairs that are in but no longer read.
    anytime = rows(studies / "paired-anytime" / "trials.csv")
    assert {r["stopping_rule"] for r in anytime} == {"anytime"}
    unread = {(r["arm"], r["trial"]) for r in anytime if r["pair"] == "in" and r["in_comparison"] == "no"}
    truth = json.loads((studies / "paired-anytime" / "truth.json").read_text())
    stops = {arm: stop for arm, stop in truth["stops"].items() if stop is not None}
    assert stops and unread == {(arm, str(t)) for arm, stop in stops.items() for t in range(stop + 1, 9)}
    assert (studies / "paired-anytime" / "recipe.json").is_file()
    # The canary ends every row of both files.
    for name in ("series", "paired-fixed", "paired-anytime"):
        for file in ("trials.csv", "seats.csv"):
            lines = (studies / name / file).read_text().splitlines()
            assert lines[0].endswith(",canary") and all(line.endswith("," + CANARY) for line in lines[1:])


def test_a_half_tie_in_the_fitness_index_is_planted_and_read_half_up(studies: Path) -> None:
    weights = (0.25, 0.25, 0.2, 0.15, 0.15)
    names = ("survival", "economy", "social", "adaptation", "competitiveness")
    ties = []
    for name in ("series", "paired-fixed", "paired-anytime"):
        for seat in rows(studies / name / "seats.csv"):
            if not seat["fitness_index"]:
                continue
            dims = [float(seat[n]) for n in names]
            assert seat_fitness(dict(zip(names, dims, strict=True))) == float(seat["fitness_index"])
            if round(sum(w * d for w, d in zip(weights, dims, strict=True)), 1) != float(seat["fitness_index"]):
                ties.append((name, seat["trial"], seat["arm"], seat["seat"]))
    listed = [(name, str(t["trial"]), str(t["arm"]), str(t["seat"]))
              for name in ("series", "paired-fixed", "paired-anytime")
              for t in json.loads((studies / name / "truth.json").read_text())["halfTies"]]
    assert ties and ties == listed


def test_a_simulated_match_reads_same_under_score(studies: Path) -> None:
    trial = rows(studies / "series" / "trials.csv")[0]
    result = CliRunner().invoke(main, ["score", str(studies / "series" / "matches" / trial["match"])])
    assert result.exit_code == 0, result.output[-1500:]


def test_same_arguments_same_bytes(tmp_path: Path) -> None:
    first = simulate_study(tmp_path / "a", trials=5, ticks=12, n_agents=4, studies=["paired-fixed"])[0]
    second = simulate_study(tmp_path / "b", trials=5, ticks=12, n_agents=4, studies=["paired-fixed"])[0]
    for name in ("trials.csv", "seats.csv", "study.json", "truth.json"):
        assert (first / name).read_bytes() == (second / name).read_bytes()
    with pytest.raises(ValueError, match="at least 5"):
        simulate_study(tmp_path / "c", trials=4)


def test_simulate_is_a_group_that_keeps_every_single_match_invocation(tmp_path: Path) -> None:
    runner = CliRunner()
    single = runner.invoke(main, ["simulate", "--scenario", "ring", "--seed", "3", "--out", str(tmp_path / "m"),
                                  "--ticks", "12", "--form", "folder"])
    assert single.exit_code == 0, single.output
    assert Path(single.output.strip()).is_dir() and (tmp_path / "m" / "truth.json").is_file()
    assert runner.invoke(main, ["simulate"]).exit_code == 2  # --out is still required for one match
    mixed = runner.invoke(main, ["simulate", "--seed", "2", "study", "--out", str(tmp_path / "s")])
    assert mixed.exit_code == 2 and "--seed belongs to the single-match form" in mixed.output
    helped = " ".join(runner.invoke(main, ["simulate", "study", "--help"]).output.split())
    assert "study audit" in helped and "truth.json" in helped and "Exit codes" in helped


def test_a_study_of_short_matches_round_trips_as_all_same(tmp_path: Path) -> None:
    # three rounds a match: the failed trial plays two, where a late joiner's seat never joined,
    # and seats.csv numbered that trial's seats 1, 3, 4 (study audit: 1 check disagreed, exit 1)
    folder = simulate_study(tmp_path, trials=5, ticks=3, n_agents=4, studies=["series"])[0]
    result = CliRunner().invoke(main, ["study", "audit", str(folder), "--json"])
    assert result.exit_code == 0, result.output[-2000:]
    assert json.loads(result.output)["summary"]["checks"]["disagree"] == 0


def test_a_folder_holding_another_simulated_study_is_refused(tmp_path: Path) -> None:
    # a second study with another --seed into the same --out was written beside the first (exit 0):
    # its matches/ then held the first study's matches too, which no trial of the new one named
    runner = CliRunner()
    args = ["simulate", "study", "--out", str(tmp_path), "--trials", "5", "--ticks", "6", "--agents", "4", "-q"]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    again = runner.invoke(main, args)  # the same study: replaced, the same bytes
    assert again.exit_code == 0 and {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    other = runner.invoke(main, [*args, "--seed", "2"])
    assert other.exit_code == 74
    first_match = sorted((tmp_path / "series" / "matches").iterdir())[0]
    assert other.output == (f"daishi-forensics: error: {tmp_path / 'series'}: it holds another simulated study "
                            f"(other arguments): 5 matches no trial of this one plays, {first_match} first; give "
                            "another --out, or remove the folder\n")
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before  # nothing written


def test_a_study_file_that_cannot_be_written_is_exit_74_and_the_old_one_is_kept(tmp_path: Path) -> None:
    """`simulate study --out DIR` wrote trials.csv, seats.csv, study.json, recipe.json and truth.json in place:
    one that could not be written (a folder in its way, an --out under a file) was an internal error (exit 70,
    'IsADirectoryError'), where the help says 74; each is now written whole or not at all, as every file
    `simulate` writes (a temporary file renamed over the old one)."""
    runner = CliRunner()
    args = ["simulate", "study", "--trials", "5", "--ticks", "6", "--agents", "4", "-q"]
    (tmp_path / "a" / "series" / "trials.csv").mkdir(parents=True)
    blocked = runner.invoke(main, [*args, "--out", str(tmp_path / "a")])
    assert blocked.exit_code == 74
    assert blocked.output == (f"daishi-forensics: error: {tmp_path / 'a' / 'series' / 'trials.csv'}: cannot write "
                              "it (Is a directory)\n")
    (tmp_path / "file").write_text("x")
    under = runner.invoke(main, [*args, "--out", str(tmp_path / "file" / "out")])
    assert under.exit_code == 74
    assert under.output == (f"daishi-forensics: error: {tmp_path / 'file' / 'out' / 'series' / 'matches'}: cannot "
                            "create the folder (Not a directory)\n")
    good = runner.invoke(main, [*args, "--out", str(tmp_path / "b")])
    assert good.exit_code == 0
    seats = tmp_path / "b" / "series" / "seats.csv"
    before = seats.read_bytes()
    (tmp_path / "b" / "series" / "study.json").unlink()
    (tmp_path / "b" / "series" / "study.json").mkdir()
    again = runner.invoke(main, [*args, "--out", str(tmp_path / "b")])
    assert again.exit_code == 74 and seats.read_bytes() == before
    assert not [p.name for p in (tmp_path / "b" / "series").iterdir() if p.name.endswith(".tmp")]


def test_ticks_with_events_is_a_usage_error(tmp_path: Path) -> None:
    # --events "overrides --ticks", yet --ticks still changed the match played (another id, other events,
    # exit 0): --events 3000 --ticks 5 and --events 3000 alone wrote two different matches of the same length
    runner = CliRunner()
    both = runner.invoke(main, ["simulate", "--events", "3000", "--ticks", "5", "--out", str(tmp_path / "a"), "-q"])
    assert both.exit_code == 2 and not (tmp_path / "a").exists()
    assert "Error: --ticks and --events: give one (--events sets how long the match plays, and --ticks would " \
           "still change the match it plays)" in " ".join(both.output.split())
    alone = runner.invoke(main, ["simulate", "--events", "300", "--out", str(tmp_path / "b"), "-q"])
    assert alone.exit_code == 0, alone.output
    assert json.loads((tmp_path / "b" / "truth.json").read_bytes())["params"]["ticks"] == 300


@pytest.mark.parametrize("args", [["simulate", "--ticks", "2"], ["simulate", "study", "--ticks", "3"]])
def test_an_empty_out_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    # --out "" (an unset shell variable) was read as the current folder: the match, or three studies,
    # were written there with exit 0
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*args, "--out", "", "-q"])
    assert result.exit_code == 2
    assert "Invalid value for '--out': the folder name is empty: give a folder to write into ('.' for this " \
           "one)" in " ".join(result.output.split())
    assert list(tmp_path.iterdir()) == []
    dot = CliRunner().invoke(main, [*args, "--out", ".", "-q", "--agents", "4"])
    assert dot.exit_code == 0, dot.output  # the current folder, named


@pytest.mark.parametrize("trials", [99, 100, 102, 200])
def test_two_trials_play_one_match_only_when_they_share_seed_map_and_spawn(trials: int) -> None:
    # the simulator seed was seed * 10,000 + map * 100 + spawn, past its block from a map seed of 100 on: with 102
    # trials, paired-fixed's trial 102 of arm 1 (map 51, spawn 152) played paired-anytime's trial 52 of arm 2 (map
    # 52, spawn 52), one feeder match; with 200, study seed 1's map 200 spawn 200 played seed 2's map 100 spawn 200
    from daishi_forensics.study.simulated import _match_id, _plans, _sim_seed

    played: dict[str, set[tuple[int, int, int]]] = {}
    for seed in (1, 2):
        for plan in _plans(trials):
            arms = {a.arm: a.scenario for a in plan.arms}
            for trial in plan.trials:
                key = _match_id(arms[trial.arm], seed, trial, 40, 6)
                played.setdefault(key, set()).add((seed, trial.map_seed, trial.spawn_seed))
                if trials <= 100:  # the seeds of a study of at most 100 trials are as they were
                    assert _sim_seed(seed, trial.map_seed, trial.spawn_seed) == (
                        seed * 10_000 + trial.map_seed * 100 + trial.spawn_seed)
    assert [sorted(seeds) for seeds in played.values() if len(seeds) > 1] == []
    assert len(played) == {99: 1184, 100: 1196, 102: 1220, 200: 2396}[trials]  # (a study's control trial t: one match in the three)


@pytest.mark.parametrize("name", ["trials.csv", "truth.json"])
def test_a_named_pipe_at_a_study_file_is_refused_never_opened(tmp_path: Path, name: str) -> None:
    # a named pipe at one of the files `simulate study` writes was opened and written in place: the command
    # waited forever for a reader
    import os

    (tmp_path / "series").mkdir()
    os.mkfifo(tmp_path / "series" / name)
    result = CliRunner().invoke(main, ["simulate", "study", "--out", str(tmp_path), "--trials", "5", "--ticks", "6",
                                       "--agents", "4", "-q"])
    assert result.exit_code == 74
    assert result.output == (f"daishi-forensics: error: {tmp_path / 'series' / name}: is a named pipe, not a "
                             "regular file: refused, never opened (remove it, or write elsewhere)\n")
    assert [p.name for p in (tmp_path / "series").iterdir()] == [name]  # nothing written


_OWN = [("series/trials.csv", b"study,trial\nmine,1\n", "a trials file", "its first line is not the header this tool writes"),
        ("series/seats.csv", b"my notes\n", "a seats file", "its first line is not the header this tool writes"),
        ("series/study.json", b'{"format": "daishi-study-page", "canary": "mine"}', "a study page",
         'its "canary" is not one this tool writes'),
        ("paired-anytime/recipe.json", b'{"format": "my-recipe"}', "a recipe", 'no "format": "daishi-study-recipe"'),
        ("series/truth.json", b"my notes\n", "a study's ground truth", "not JSON"),
        ("paired-fixed/truth.json", b'{"format": "daishi-sim-truth"}', "a study's ground truth",
         "not a simulated study's ground truth")]


@pytest.mark.parametrize(("name", "own", "what", "why"), _OWN)
def test_a_file_of_the_users_own_in_a_study_folder_is_refused_never_replaced(
        tmp_path: Path, name: str, own: bytes, what: str, why: str) -> None:
    # a file of the user's own at one of the names `simulate study` writes (trials.csv, seats.csv, study.json,
    # recipe.json, truth.json) was replaced by the study's without a word, exit 0: the user's file was lost
    path = tmp_path / name
    path.parent.mkdir()
    path.write_bytes(own)
    result = CliRunner().invoke(main, ["simulate", "study", "--out", str(tmp_path), "--trials", "5", "--ticks", "6",
                                       "--agents", "4", "-q"])
    assert result.exit_code == 74
    assert result.output == (f"daishi-forensics: error: {path}: it is not {what} this tool wrote ({why}): writing "
                             "the study there would replace it; give another --out, or move the file away\n")
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == [path] and path.read_bytes() == own  # nothing written


def test_a_study_csv_of_another_study_and_a_report_of_the_users_own_are_refused(tmp_path: Path) -> None:
    # a study's own trials.csv (the header this tool writes, another canary) and a report.json of the user's own in
    # a trial's match folder were replaced by the simulated study's, exit 0; a rerun still replaces this tool's files
    runner = CliRunner()
    args = ["simulate", "study", "--out", str(tmp_path), "--trials", "5", "--ticks", "6", "--agents", "4", "-q"]
    assert runner.invoke(main, args).exit_code == 0
    trials = tmp_path / "series" / "trials.csv"
    ours = trials.read_bytes()
    theirs = ours.replace(b"CANARY-daishi-forensics-simulated-study-3f6c1a0e", b"CANARY-theirs")
    trials.write_bytes(theirs)
    result = runner.invoke(main, args)
    assert result.exit_code == 74 and trials.read_bytes() == theirs
    assert result.output == (f"daishi-forensics: error: {trials}: it is not a trials file this tool wrote (its first "
                             "row's canary is not CANARY-daishi-forensics-simulated-study-3f6c1a0e): writing the "
                             "study there would replace it; give another --out, or move the file away\n")
    trials.write_bytes(ours)
    report = next(p for p in sorted((tmp_path / "series" / "matches").glob("*/report.json")))
    report.write_bytes(b'{"rubricVersion": "2.4", "seats": []}')
    result = runner.invoke(main, args)
    assert result.exit_code == 74 and report.read_bytes() == b'{"rubricVersion": "2.4", "seats": []}'
    assert result.output == (f"daishi-forensics: error: {report}: it is not a match's scorecards this tool wrote (no "
                             f"scorecards of match {report.parent.name} under rubric 2.4): writing the study there "
                             "would replace it; give another --out, or move the file away\n")
    report.unlink()
    assert runner.invoke(main, args).exit_code == 0 and trials.read_bytes() == ours and report.is_file()


_STUDY_ARGS = ["--trials", "5", "--ticks", "6", "--agents", "4", "-q"]


@pytest.fixture(scope="module")
def series_matches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The series study's match ids under ``_STUDY_ARGS``: ``scored`` (its first trial's) and ``failed``."""
    out = tmp_path_factory.mktemp("ref")
    assert CliRunner().invoke(main, ["simulate", "study", "--out", str(out), *_STUDY_ARGS]).exit_code == 0
    trials = rows(out / "series" / "trials.csv")
    return {"scored": trials[0]["match"], "failed": next(r["match"] for r in trials if r["ended"] == "failed")}


_OWN_IN_MATCH = [
    ("scored", "archive.json", b"my notes\n", "a match's archive", "not JSON", "replace"),
    ("scored", "archive.json", b'{"matchId": "m_000000000000"}', "a match's archive",
     "not the archive of match {id}", "replace"),
    ("failed", "events.jsonl", b"my notes\n", "a match's events", "its first line is not JSON", "replace"),
    ("scored", "events.jsonl", b'{"matchId": "m_000000000000"}\n', "a match's events",
     "its first line is not an event of match {id}", "replace"),
    ("scored", "events.jsonl.gz", b"my notes\n", "a match's events",
     "this tool writes a study's events uncompressed, to events.jsonl", "remove"),
    ("failed", "report.json", b"my notes\n", "a match's scorecards", "not JSON", "remove"),
]


@pytest.mark.parametrize(("trial", "name", "own", "what", "why", "fate"), _OWN_IN_MATCH)
def test_a_file_of_the_users_own_in_a_study_match_folder_is_refused_never_replaced(
        tmp_path: Path, series_matches: dict[str, str], trial: str, name: str, own: bytes, what: str, why: str,
        fate: str) -> None:
    # a file of the user's own at a trial's matches/<id>/archive.json or events.jsonl was replaced by the match's
    # without a word, exit 0 (an events.jsonl.gz there, or a report.json in a failed trial's folder, was deleted)
    match_id = series_matches[trial]
    path = tmp_path / "series" / "matches" / match_id / name
    path.parent.mkdir(parents=True)
    path.write_bytes(own)
    result = CliRunner().invoke(main, ["simulate", "study", "--out", str(tmp_path), *_STUDY_ARGS])
    assert result.exit_code == 74
    assert result.output == (f"daishi-forensics: error: {path}: it is not {what} this tool wrote "
                             f"({why.format(id=match_id)}): writing the study there would {fate} it; give another "
                             "--out, or move the file away\n")
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == [path] and path.read_bytes() == own  # nothing written


@pytest.mark.parametrize(("where", "what"), [("series/matches/{scored}", "a match's files"),
                                             ("paired-fixed/matches", "the study's matches"),
                                             ("paired-anytime", "a study's files")])
def test_a_file_where_a_study_folder_goes_is_refused_before_anything_is_written(
        tmp_path: Path, series_matches: dict[str, str], where: str, what: str) -> None:
    # a file named as a trial's match folder, a study's matches/ folder or a study's folder stopped the studies
    # half-written: exit 74 ("cannot create the folder (File exists)") after the studies before it were written
    path = tmp_path / where.format(**series_matches)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"my notes\n")
    result = CliRunner().invoke(main, ["simulate", "study", "--out", str(tmp_path), *_STUDY_ARGS])
    assert result.exit_code == 74
    assert result.output == (f"daishi-forensics: error: {path}: it is not a folder, and the study writes {what} "
                             "there: nothing written; give another --out, or move the file away\n")
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == [path]  # nothing written


def test_a_rerun_replaces_the_match_files_it_wrote(tmp_path: Path, series_matches: dict[str, str]) -> None:
    # the match files this tool wrote are its own: a rerun (one stopped half-way included) replaces them
    args = ["simulate", "study", "--out", str(tmp_path), *_STUDY_ARGS]
    assert CliRunner().invoke(main, args).exit_code == 0
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    (tmp_path / "series" / "matches" / series_matches["scored"] / "archive.json").unlink()  # stopped before it
    assert CliRunner().invoke(main, args).exit_code == 0
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_a_study_truth_is_marked_and_an_unmarked_one_of_an_earlier_version_is_still_this_tools(
        tmp_path: Path) -> None:
    # a study's truth.json had no format key (it was told by its exact set of keys); it is marked now, and one
    # written before the mark is still recognised as this tool's: a rerun replaces it
    args = ["simulate", "study", "--out", str(tmp_path), *_STUDY_ARGS]
    assert CliRunner().invoke(main, args).exit_code == 0
    path = tmp_path / "series" / "truth.json"
    marked = path.read_bytes()
    truth = json.loads(marked)
    assert (truth["format"], truth["formatVersion"]) == ("daishi-forensics-study-truth", 1)
    assert sorted(truth) == ["failed", "format", "formatVersion", "halfTies", "kind", "pairOut", "repeatedMaps",
                             "stops", "study"]
    assert marked.startswith(b'{\n  "failed": [\n')  # sorted keys, as every JSON file of the tool
    unmarked = {k: v for k, v in truth.items() if k not in ("format", "formatVersion")}
    path.write_text(json.dumps(unmarked))
    assert CliRunner().invoke(main, args).exit_code == 0 and path.read_bytes() == marked
    for other in ({**truth, "formatVersion": 2}, {**truth, "formatVersion": True}, {**truth, "format": "mine"},
                  {**unmarked, "format": "daishi-forensics-study-truth"}, {**truth, "mine": 1}):
        path.write_text(json.dumps(other))
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 74
        assert result.output == (f"daishi-forensics: error: {path}: it is not a study's ground truth this tool wrote "
                                 "(not a simulated study's ground truth): writing the study there would replace it; "
                                 "give another --out, or move the file away\n")
        assert json.loads(path.read_bytes()) == other


def test_a_single_match_into_a_study_folder_names_the_study_truth(tmp_path: Path) -> None:
    # `simulate --out STUDY` said the study's truth.json was "not a ground truth this tool wrote"
    assert CliRunner().invoke(main, ["simulate", "study", "--out", str(tmp_path), *_STUDY_ARGS]).exit_code == 0
    truth = tmp_path / "series" / "truth.json"
    before = truth.read_bytes()
    result = CliRunner().invoke(main, ["simulate", "--ticks", "5", "--agents", "4", "-q", "--out",
                                       str(tmp_path / "series")])
    assert result.exit_code == 74
    assert result.output == (f"daishi-forensics: error: {truth}: it is the ground truth of a simulated study, not "
                             "of a match: writing the match's truth there would replace it; give another --out (one "
                             "folder a match)\n")
    assert truth.read_bytes() == before and sorted(p.name for p in (tmp_path / "series").iterdir()) == [
        "matches", "seats.csv", "study.json", "trials.csv", "truth.json"]
