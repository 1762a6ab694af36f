"""The season runner (issue 6, part 3): summary numbers, determinism, resume, failures, cluster.

A season of five tiny hand-built matches (stream, gzipped bundle, folder, stream; one
with an invalid record) and one unreadable file.  Operators: ``north`` seats a_1 and a_3,
``south`` seats a_2 and a_4.  Values (contract §4 defaults): wood 2, food 2, stone 3,
tool 12.

======  ================  =========================================================
match   seats             what moved
======  ================  =========================================================
m1      a_1 a_2 a_3       a_1 gifts a_2 wood 3 (6)
m2      a_1 a_2           a_1 gives wood 2 (4) for a_2's food 1 (2)
m3      a_2 a_3 a_4       a_4 gifts a_2 a tool (12); a_3 gifts a_2 stone 1 (3)
m4      a_1 a_2           a_2 gifts a_1 food 1 (2); one invalid record (findings)
bad     —                 not JSON (unreadable)
======  ================  =========================================================
"""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main
from daishi_forensics.batch.season import JOBS, Job, expand_targets, run_season, season_graph

from .matchkit import archive, ev, trade, write_match

OPERATORS = {"a_1": "north", "a_2": "south", "a_3": "north", "a_4": "south"}
M1, M2, M3, M4 = "m_5ea500000001", "m_5ea500000002", "m_5ea500000003", "m_5ea500000004"


def _match(directory: Path, match_id: str, agents: list[str], moves: list[dict[str, Any]], form: str,
           extra: list[dict[str, Any]] = ()) -> Path:  # type: ignore[assignment]
    events = [ev(i + 1, 0, "agent_spawned", a, region="r_0_0") for i, a in enumerate(agents)]
    events += moves + list(extra)
    for e in events:
        e["matchId"] = match_id
    arch = archive(agents, ended=10, matchId=match_id)
    for seat in arch["agents"]:
        seat["operator"] = OPERATORS[seat["agentId"]]
    return write_match(directory, events, arch, form=form)


def build_season(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    _match(directory, M1, ["a_1", "a_2", "a_3"], trade(10, 1, "t1", "a_1", "a_2", {"wood": 3}, {}), "stream")
    _match(directory, M2, ["a_1", "a_2"], trade(10, 1, "t1", "a_1", "a_2", {"wood": 2}, {"food": 1}), "bundle-gz")
    _match(directory, M3, ["a_2", "a_3", "a_4"],
           [*trade(10, 1, "t1", "a_4", "a_2", {"tool": 1}, {}), *trade(12, 2, "t2", "a_3", "a_2", {"stone": 1}, {})],
           "folder")
    _match(directory, M4, ["a_1", "a_2"], trade(10, 1, "t1", "a_2", "a_1", {"food": 1}, {}), "stream",
           extra=[ev(20, 3, "gather", "a_1", region="r_99_0", resource="wood", gathered=1)])
    (directory / "m_5ea5000000ff.jsonl").write_bytes(b'{"format": "daishi-match-ex')
    return directory


@pytest.fixture(scope="module")
def season_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_season(tmp_path_factory.mktemp("season") / "matches")


def files_of(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def summary_of(out: Path) -> dict[str, Any]:
    return orjson.loads((out / "summary.json").read_bytes())  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- cluster


@pytest.fixture(scope="module")
def cluster() -> Any:
    """A real two-process Dask cluster on loopback, closed at the end of the module.

    Workers start from a forkserver with ``distributed`` preloaded (about 3 s, against
    about 7 s for spawn, which re-imports everything in each worker).
    """
    import dask
    from distributed import LocalCluster

    multiprocessing.set_forkserver_preload(["distributed", "daishi_forensics.batch.season", "daishi_forensics.report.behavior"])
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        local = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                             dashboard_address=None)
    try:
        yield local
    finally:
        local.close()


# --------------------------------------------------------------------------- tests


def test_a_folder_stands_for_its_matches_only(tmp_path: Path) -> None:
    # simulate writes truth.json beside its matches; a season written into its own input folder its summary
    (tmp_path / "truth.json").write_text("{}")
    (tmp_path / "summary.json").write_text("{}")
    (tmp_path / ".m_hidden.jsonl").write_text("")
    (tmp_path / "m_0123456789ab.jsonl").write_text("")
    (tmp_path / "m_0123456789ac").mkdir()
    (tmp_path / "m_0123456789ac" / "archive.json").write_text("{}")
    (tmp_path / "m_0123456789ad").mkdir()  # no archive.json: kept, so that reading it says why it is no match
    assert [Path(t).name for t in expand_targets([str(tmp_path)])] == ["m_0123456789ab.jsonl", "m_0123456789ac",
                                                                        "m_0123456789ad"]


def test_expand_targets(season_dir: Path) -> None:
    found = expand_targets([str(season_dir)])
    assert [Path(t).name for t in found] == [f"{M1}.jsonl", f"{M2}.json.gz", M3, f"{M4}.jsonl",
                                             "m_5ea5000000ff.jsonl"]
    # a match folder is a match, not a folder of matches
    assert expand_targets([str(season_dir / M3)]) == [str(season_dir / M3)]


def test_same_bytes_one_worker_two_workers_and_cluster(season_dir: Path, tmp_path: Path, cluster: Any) -> None:
    targets = expand_targets([str(season_dir)])
    first = run_season(targets, "behavior", tmp_path / "one", workers=1)
    on_cluster = run_season(targets, "behavior", tmp_path / "cluster", cluster=cluster.scheduler_address)
    pooled = run_season(list(reversed(targets)), "behavior", tmp_path / "two", workers=2)
    assert first.ran == pooled.ran == on_cluster.ran == 5
    one = files_of(tmp_path / "one")
    assert len(one) == 1 + 5 + 5  # the summary, a result and a resume key per match
    assert one == files_of(tmp_path / "two") == files_of(tmp_path / "cluster")


def test_summary_numbers(season_dir: Path, tmp_path: Path) -> None:
    result = run_season(expand_targets([str(season_dir)]), "behavior", tmp_path / "out")
    summary = result.summary
    assert result.exit_code == exitcodes.UNREADABLE  # 3 wins over the findings of m4
    assert summary["counts"] == {"ok": 3, "findings": 1, "unreadable": 1, "failed": 0}
    rows = {r["matchId"] or r["target"]: r for r in summary["results"]}
    assert rows[M4]["status"] == "findings" and rows[M4]["exitCode"] == 1
    (bad,) = summary["unreadable"]
    assert bad["target"].endswith("m_5ea5000000ff.jsonl")
    assert "not valid JSON" in bad["error"] and "\n" not in bad["error"]

    graph = summary["graph"]
    pairs = {(r["a"], r["b"]): r for r in graph["agentPairs"]}
    # a_1/a_2: m1 (a_1 6), m2 (a_1 4, a_2 2), m4 (a_2 2) -> 10 vs 4, net 6 from a_1
    assert pairs[("a_1", "a_2")] | {} == {
        "a": "a_1", "b": "a_2", "matchesTogether": 3, "matchesMoved": 3, "matches": [M1, M2, M4],
        "trades": 3, "valueAGave": 10.0, "valueBGave": 4.0, "gross": 14.0, "net": 6.0, "netFrom": "a_1"}
    # a_2/a_3 seated together in m1 and m3, moved value only in m3: not recurring
    assert (pairs[("a_2", "a_3")]["matchesTogether"], pairs[("a_2", "a_3")]["matchesMoved"]) == (2, 1)
    assert pairs[("a_2", "a_3")]["netFrom"] == "a_3" and pairs[("a_2", "a_3")]["net"] == 3.0
    assert [(r["a"], r["b"]) for r in graph["recurringAgentPairs"]] == [("a_1", "a_2")]
    operators = {(r["a"], r["b"]): r for r in graph["operatorPairs"]}
    # north -> south: 6 + 4 + 3 = 13, south -> north: 2 + 2 = 4, in all four matches
    ns = operators[("north", "south")]
    assert (ns["matchesMoved"], ns["matchesTogether"], ns["valueAGave"], ns["valueBGave"], ns["net"],
            ns["netFrom"]) == (4, 4, 13.0, 4.0, 9.0, "north")
    # south with itself: a_4 gifted a_2 a tool in m3, the one match with two south seats
    ss = operators[("south", "south")]
    assert (ss["matchesMoved"], ss["matchesTogether"], ss["gross"]) == (1, 1, 12.0)
    assert [(r["a"], r["b"]) for r in graph["recurringOperatorPairs"]] == [("north", "south")]

    # one result per match, complete JSON, naming its target
    for row in summary["results"]:
        record = orjson.loads((tmp_path / "out" / row["file"]).read_bytes())
        assert record["target"] == row["target"] and record["status"] == row["status"]


def test_season_graph_is_invariant_to_relabelling() -> None:
    from daishi_forensics.batch.season import SeasonMatch

    def season(names: dict[str, str]) -> dict[str, Any]:
        seats = [{"agentId": names[a], "operator": "x"} for a in ("p", "q")]
        a, b = sorted([names["p"], names["q"]])
        gave = {names["p"]: 5.0, names["q"]: 1.0}
        transfer = {"a": a, "b": b, "aGave": gave[a], "bGave": gave[b], "trades": 1}
        return season_graph([SeasonMatch(t, t, "ok", 0, None, t, {"seats": seats, "transfers": [transfer]})
                             for t in ("m1", "m2")])

    one, other = season({"p": "a_1", "q": "a_9"}), season({"p": "a_9", "q": "a_1"})
    row1, row2 = one["recurringAgentPairs"][0], other["recurringAgentPairs"][0]
    assert (row1["net"], row1["gross"], row1["matchesMoved"]) == (row2["net"], row2["gross"], row2["matchesMoved"])
    assert (row1["netFrom"], row2["netFrom"]) == ("a_1", "a_9")  # whoever p is


def results_of(out: Path) -> dict[str, bytes]:
    return {name: data for name, data in files_of(out).items() if not name.startswith(".resume")}


def test_resume_redoes_only_what_changed(tmp_path: Path) -> None:
    folder = build_season(tmp_path / "matches")
    out = tmp_path / "out"
    targets = expand_targets([str(folder)])
    run_season(targets, "behavior", out)
    before = files_of(out)
    again = run_season(targets, "behavior", out)
    assert (again.ran, again.reused) == (0, 5)
    assert files_of(out) == before

    # a changed input is redone (its size and mtime changed)
    m1 = folder / f"{M1}.jsonl"
    m1.write_bytes(m1.read_bytes() + b"\n")
    assert run_season(targets, "behavior", out).ran == 1
    # a result that is not the one its key was written with (half written, edited) is redone
    (out / "matches" / f"{M2}.json").write_bytes(b'{"seasonVersion": 1, "tar')
    assert run_season(targets, "behavior", out).ran == 1
    assert results_of(out) == {k: v for k, v in before.items() if not k.startswith(".resume")}
    # a missing key is redone
    (out / ".resume" / f"{M4}.json").unlink()
    assert run_season(targets, "behavior", out).ran == 1
    # a leftover temp file of an interrupted write is not a result
    (out / "matches" / f".{M3}.json.123.abc.tmp").write_bytes(b"{")
    assert run_season(targets, "behavior", out).ran == 0
    # other options (here: a match store) make another key: everything is redone
    other = run_season(targets, "behavior", out, options={"store": str(folder)})
    assert other.ran == 5 and other.summary["job"]["options"] == {"store": str(folder)}
    assert run_season(targets, "behavior", out, options={"store": str(folder)}).ran == 0
    assert run_season(targets, "behavior", out, options={"store": str(folder)}, resume=False).ran == 5
    # an unreadable input that cannot be fingerprinted (gone) is tried every time
    gone = [*targets, str(folder / "m_5ea5000000ee.jsonl")]
    assert run_season(gone, "behavior", out, options={"store": str(folder)}).ran == 1
    assert run_season(gone, "behavior", out, options={"store": str(folder)}).ran == 1


def _interrupt_on_m3(target: str, options: Any) -> dict[str, Any]:
    if M3 in target:
        raise KeyboardInterrupt
    return JOBS["behavior"].run(target, options)


def _crash(target: str, options: Any) -> dict[str, Any]:
    raise ValueError(f"no luck with\n{Path(target).name}")


def test_interrupted_run_resumes_without_redoing_finished_matches(tmp_path: Path) -> None:
    folder = build_season(tmp_path / "matches")
    out = tmp_path / "out"
    targets = expand_targets([str(folder)])
    interrupted = Job("behavior", _interrupt_on_m3, JOBS["behavior"].version)
    with pytest.raises(KeyboardInterrupt):
        run_season(targets, interrupted, out, workers=1)
    assert not (out / "summary.json").exists()
    assert sorted(p.name for p in (out / "matches").iterdir()) == [f"{M1}.json", f"{M2}.json"]
    seen: list[tuple[str, bool]] = []
    resumed = run_season(targets, "behavior", out, on_match=lambda m, reused: seen.append((m.name, reused)))
    assert (resumed.ran, resumed.reused) == (3, 2)
    assert sorted(seen) == [(M1, True), (M2, True), (M3, False), (M4, False), ("m_5ea5000000ff", False)]
    run_season(targets, "behavior", tmp_path / "fresh")
    assert files_of(out) == files_of(tmp_path / "fresh")


def test_a_crashing_job_is_recorded_and_retried(tmp_path: Path, season_dir: Path) -> None:
    crashing = Job("crash", _crash, lambda options: "1")
    result = run_season(expand_targets([str(season_dir)])[:2], crashing, tmp_path / "out")
    assert result.exit_code == exitcodes.INTERNAL  # a crash is a bug (70), not an unreadable input (3)
    assert result.summary["counts"]["failed"] == 2
    assert result.summary["unreadable"][0]["error"] == f"ValueError: no luck with {M1}.jsonl"
    assert not (tmp_path / "out" / ".resume").exists()  # a failed match has no key: tried again
    assert run_season(expand_targets([str(season_dir)])[:2], crashing, tmp_path / "out").ran == 2


def test_exit_codes(season_dir: Path, tmp_path: Path) -> None:
    targets = expand_targets([str(season_dir)])
    clean = [t for t in targets if M1 in t or M2 in t]
    assert run_season(clean, "behavior", tmp_path / "a").exit_code == exitcodes.OK
    assert run_season(clean + [t for t in targets if M4 in t], "behavior", tmp_path / "b").exit_code == 1


def test_cli_quiet_and_summary(season_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    quiet = runner.invoke(main, ["season", "behavior", str(season_dir), "--out", str(tmp_path / "q"), "-q", "-j", "1"])
    assert quiet.exit_code == exitcodes.UNREADABLE
    assert quiet.output == "" and quiet.stderr == ""  # no progress bar off a terminal, nothing for cron
    loud = runner.invoke(main, ["season", "behavior", str(season_dir), "--out", str(tmp_path / "l"), "-j", "1"])
    assert loud.exit_code == exitcodes.UNREADABLE
    assert loud.stdout.splitlines()[0] == (
        "5 matches: 3 ok, 1 findings, 1 unreadable (5 run, 0 kept from an earlier run)")
    assert "recurring pairs: 1 of agents, 1 of operators" in loud.stdout
    assert loud.stderr.startswith("unreadable: ") and "\r" not in loud.stderr
    assert files_of(tmp_path / "q") == files_of(tmp_path / "l")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(main, ["season", "behavior", str(empty), "--out", str(tmp_path / "e")]).exit_code == 3
    assert runner.invoke(main, ["season", "behavior", str(season_dir)]).exit_code == exitcodes.USAGE


def test_season_screen(season_dir: Path, tmp_path: Path) -> None:
    targets = [t for t in expand_targets([str(season_dir)]) if "ff" not in t]
    result = run_season(targets, "screen", tmp_path / "out")
    summary = result.summary
    assert summary["job"]["name"] == "screen" and "screens config" in summary["job"]["version"]
    assert sum(summary["verdicts"].values()) == 4
    assert set(summary["season"]) == {"verdict", "flags", "notScreened"}
    record = orjson.loads((tmp_path / "out" / "matches" / f"{M1}.json").read_bytes())
    assert record["result"]["verdict"] in ("clear", "review", "flag")
    assert {"configVersion", "configDigest", "flags", "graph"} <= set(record["result"])
    # the same season table as the behavior job (both read the trade ledger)
    behavior = run_season(targets, "behavior", tmp_path / "b").summary
    assert summary["graph"] == behavior["graph"]


def test_the_fork_server_preloads_every_module_a_behavior_job_imports(tmp_path: Path) -> None:
    """A worker forked from the preloaded server runs a match without importing any module of the package:
    each worker's first match costs what the others do (the tier rules compile their patterns on import)."""
    import subprocess
    import sys

    from daishi_forensics.simulate import simulate_to_dir

    path = simulate_to_dir("clean", 3, 3, tmp_path, "stream", target_events=4000)
    code = (
        "import importlib, sys\n"
        "from daishi_forensics.batch import season\n"
        "[importlib.import_module(m) for m in season._PRELOAD]\n"
        "before = set(sys.modules)\n"
        f"season.run_match({str(path)!r}, season.JOBS['behavior'].run, {{}})\n"
        "print(sorted(m for m in set(sys.modules) - before if m.startswith('daishi_forensics')))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr


_FIRST_MATCH = """
import sys
from daishi_forensics.batch import season
from daishi_forensics.batch.pool import _preload

_preload(season._PRELOAD, season._warm_up if sys.argv[2] == "warm" else None)
before = set(sys.modules)
record = season.run_match(sys.argv[1], season.JOBS["behavior"].run, {})
assert record["status"] != "failed", record
print(" ".join(sorted(set(sys.modules) - before)))
"""


def test_a_worker_started_with_the_warm_up_imports_nothing_to_scrub_a_message(tmp_path: Path) -> None:
    """The secrets scanner's engine (Presidio on spaCy, about a thousand modules) is built the first time a
    process scrubs a text: a pool builds it once before its workers fork, not once in each worker."""
    import subprocess
    import sys

    from daishi_forensics.simulate import simulate_to_dir

    # planted probes: the report cites their messages, scrubbed of secrets
    match = simulate_to_dir("probes", 1006, 3, tmp_path, "stream", truth_file=None, ticks=100)

    def first_match(how: str) -> set[str]:
        run = subprocess.run([sys.executable, "-c", _FIRST_MATCH, str(match), how], capture_output=True, text=True,
                             timeout=300, check=True)
        return set(run.stdout.split())

    assert "presidio_analyzer" in first_match("cold")  # the match needs the engine
    assert first_match("warm") == set()


# --------------------------------------------------------------------------- kills


def _die_on_m3(target: str, options: Any) -> dict[str, Any]:
    """The behavior job, but the worker that gets m3 dies on the spot (as the kernel's OOM killer would)."""
    import os
    import signal

    if M3 in target:
        if multiprocessing.parent_process() is None:
            raise RuntimeError("m3 ran in the season's own process, not in a worker")
        os.kill(os.getpid(), signal.SIGKILL)
    return JOBS["behavior"].run(target, options)


def _slow_behavior(target: str, options: Any) -> dict[str, Any]:
    import time

    time.sleep(1.0)
    return JOBS["behavior"].run(target, options)


def assert_every_key_has_its_whole_result(out: Path) -> int:
    """The resume guarantee: a match with a key has its result file, and the file's bytes are those the
    key was written with.  The number of keys."""
    import hashlib

    keys = sorted((out / ".resume").glob("*.json")) if (out / ".resume").is_dir() else []
    for key in keys:
        result = out / "matches" / key.name
        assert result.is_file(), key.name
        assert orjson.loads(key.read_bytes())["resultSha256"] == hashlib.sha256(result.read_bytes()).hexdigest()
    return len(keys)


def without_temp_files(files: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in files.items() if not name.endswith(".tmp")}


def test_a_worker_killed_mid_run_fails_its_matches_and_a_resumed_run_gives_the_same_outputs(tmp_path: Path) -> None:
    folder = build_season(tmp_path / "matches")
    out = tmp_path / "out"
    targets = expand_targets([str(folder)])
    dying = Job("behavior", _die_on_m3, JOBS["behavior"].version)
    killed = run_season(targets, dying, out, workers=2)
    assert killed.exit_code == exitcodes.INTERNAL
    failed = [r for r in killed.summary["results"] if r["status"] == "failed"]
    assert any(M3 in r["target"] for r in failed)  # the match that killed its worker, and what was in flight
    assert all("BrokenProcessPool" in r["error"] for r in failed)
    assert assert_every_key_has_its_whole_result(out) == 5 - len(failed)
    resumed = run_season(targets, "behavior", out, workers=2)
    assert (resumed.ran, resumed.reused) == (len(failed), 5 - len(failed))
    run_season(targets, "behavior", tmp_path / "fresh", workers=1)
    assert files_of(out) == files_of(tmp_path / "fresh")


def test_a_season_killed_whole_mid_run_resumes_to_the_same_outputs(tmp_path: Path) -> None:
    """SIGKILL to the parent, its fork server and its workers at once, after two matches were kept."""
    import os
    import signal
    import subprocess
    import sys
    import time

    folder = build_season(tmp_path / "matches")
    out = tmp_path / "out"
    code = (
        "from daishi_forensics.batch.season import JOBS, Job, expand_targets, run_season\n"
        "from tests.test_season import _slow_behavior\n"
        "if __name__ == '__main__':\n"
        f"    run_season(expand_targets([{str(folder)!r}]), Job('behavior', _slow_behavior, JOBS['behavior'].version),"
        f" {str(out)!r}, workers=2)\n"
    )
    script = tmp_path / "season_run.py"
    script.write_text(code)
    root = Path(__file__).resolve().parent.parent
    run = subprocess.Popen([sys.executable, str(script)], cwd=root, start_new_session=True,
                           env={**os.environ, "PYTHONPATH": str(root)})
    try:
        deadline = time.monotonic() + 240
        while len(list((out / ".resume").glob("*.json")) if (out / ".resume").is_dir() else []) < 2:
            assert run.poll() is None and time.monotonic() < deadline, "the season ended before it could be killed"
            time.sleep(0.02)
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
    assert not (out / "summary.json").exists()
    kept = assert_every_key_has_its_whole_result(out)
    assert 2 <= kept < 5
    resumed = run_season(expand_targets([str(folder)]), "behavior", out, workers=2)
    assert resumed.reused == kept and resumed.ran == 5 - kept
    run_season(expand_targets([str(folder)]), "behavior", tmp_path / "fresh", workers=1)
    assert without_temp_files(files_of(out)) == files_of(tmp_path / "fresh")


def test_an_empty_folder_among_targets_is_an_error_and_the_others_run(tmp_path: Path) -> None:
    # a folder given as a target that holds no match was skipped without a word (exit 0), where validate,
    # screen and export exit 3 naming it
    good = write_match(tmp_path / "in", [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                                         ev(2, 0, "agent_spawned", "a_2", region="r_0_0"), ev(3, 1, "rest", "a_1")],
                       archive(["a_1", "a_2"], ended=5))
    empty = tmp_path / "empty"
    empty.mkdir()
    alone = CliRunner().invoke(main, ["season", "screen", str(good), "--out", str(tmp_path / "o1"), "-q"])
    assert (alone.exit_code, alone.output) == (exitcodes.OK, "")
    result = CliRunner().invoke(main, ["season", "screen", str(empty), str(good), "--out", str(tmp_path / "o2"),
                                       "-q"])
    assert result.exit_code == exitcodes.UNREADABLE
    assert result.stderr == (f"daishi-forensics: error: no matches in {empty} (bundles, streams or match folders; "
                             "the other targets run)\n")
    assert summary_of(tmp_path / "o2")["matches"] == 1  # the other target ran
    text = " ".join(CliRunner().invoke(main, ["season", "screen", "--help"], terminal_width=100).output.split())
    assert "or a folder given holds no match (said on stderr, the other targets run; summary.json lists it as " \
           "unreadable)" in text


def test_an_empty_folder_among_targets_is_listed_in_the_summary(tmp_path: Path) -> None:
    # the command exited 3 naming the folder on stderr, but summary.json did not list it and said
    # "exitCode": 0 (a machine reading the summary could not tell the folder was given)
    good = write_match(tmp_path / "in", [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                                         ev(2, 0, "agent_spawned", "a_2", region="r_0_0"), ev(3, 1, "rest", "a_1")],
                       archive(["a_1", "a_2"], ended=5))
    empty, also = tmp_path / "empty", tmp_path / "zz-empty"
    empty.mkdir()
    also.mkdir()
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["season", "screen", str(also), str(empty), str(good), str(empty),
                                       "--out", str(out)])
    assert result.exit_code == exitcodes.UNREADABLE
    summary = summary_of(out)
    assert summary["unreadable"] == [
        {"target": str(empty), "status": "unreadable",
         "error": f"no matches in {empty} (bundles, streams or match folders)"},
        {"target": str(also), "status": "unreadable",
         "error": f"no matches in {also} (bundles, streams or match folders)"},
    ]
    assert summary["exitCode"] == exitcodes.UNREADABLE
    assert (summary["matches"], summary["counts"]) == (1, {"ok": 1, "findings": 0, "unreadable": 0, "failed": 0})
    assert [row["target"] for row in summary["results"]] == [str(good)]
    assert result.stderr.splitlines()[-2:] == [
        f"unreadable: no matches in {empty} (bundles, streams or match folders)",
        f"unreadable: no matches in {also} (bundles, streams or match folders)",
    ]
    # a failed match still wins over the folder: 70 in the command and in the summary
    failed = run_season([str(good)], Job("crash", _crash, lambda options: "1"), tmp_path / "o3", empty_folders=[str(empty)])
    assert failed.exit_code == exitcodes.INTERNAL
    assert [row["status"] for row in failed.summary["unreadable"]] == ["unreadable", "failed"]


def test_a_season_into_a_folder_holding_the_other_command_s_season_is_refused(tmp_path: Path) -> None:
    """``season behavior`` into the folder of a ``season screen`` run replaced its results without a word (exit
    0; summary.json then held behavior results where a cron job looked for the screen's verdicts).  Now the
    other command's folder is refused before anything is written (exit 74), by its summary or, for a run
    stopped before its summary, by a resume key; the same command resumes as before."""
    import shutil

    from daishi_forensics.batch.season import job_written
    from daishi_forensics.simulate import simulate_to_dir

    runner = CliRunner()
    source = tmp_path / "in"
    source.mkdir()
    simulate_to_dir("clean", 3, 3, source, "stream", target_events=3000)
    out = tmp_path / "out"
    first = runner.invoke(main, ["season", "screen", str(source), "--out", str(out), "--quiet"])
    assert first.exit_code == 0, first.output
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert job_written(out) == "screen"
    again = runner.invoke(main, ["season", "behavior", str(source), "--out", str(out)])
    assert again.exit_code == 74
    assert again.stderr.endswith(f"daishi-forensics: error: {out}: this folder holds a `season screen` run's results; "
                                 "a `season behavior` run would replace them: give each command its own --out, or "
                                 "remove the folder first\n")
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert runner.invoke(main, ["season", "screen", str(source), "--out", str(out), "--quiet"]).exit_code == 0
    (out / "summary.json").unlink()  # a run stopped before its summary: its resume keys say whose it is
    assert job_written(out) == "screen"
    assert runner.invoke(main, ["season", "behavior", str(source), "--out", str(out), "--quiet"]).exit_code == 74
    shutil.rmtree(out)
    # (1: this small match's behavior report has findings; the season ran)
    assert runner.invoke(main, ["season", "behavior", str(source), "--out", str(out), "--quiet"]).exit_code == 1
    assert job_written(out) == "behavior"
