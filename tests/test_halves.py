"""The replay on two cores (``replay/_halves.py``): a forked child replays some passes over its own
read of the file; its passes are taken only when it read the same bytes; otherwise this process
replays them itself, or refuses a file that changed between its own two reads.  Never a mix.

Hand-built streams with hand-counted numbers, a pass that notes which process fed it, and a
simulated match whose behavior report must be the same bytes on one process and on two."""

from __future__ import annotations

import os
import pickle
import signal
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest
from daishi_forensics.errors import InputUnreadable
from daishi_forensics.jsonio import dumps
from daishi_forensics.read.boundary import MatchRead, read_match
from daishi_forensics.read.sources import MatchSource, open_match
from daishi_forensics.replay import World, analysis as replay_analysis
from daishi_forensics.replay import _halves
from daishi_forensics.replay import fork as forking
from daishi_forensics.replay.fork import ENV, allowed
from daishi_forensics.report.assembly import behavior_report
from daishi_forensics.report.passes import ASIDE, CATALOGUE, analyze

from .matchkit import archive, ev, write_match

AGENTS = ["a_1", "a_2", "a_3"]


class Tally:
    """Counts each agent's moves, and how many agents stood alive at each move (read off the world,
    which each side of the split keeps whole); notes the process that fed it."""

    types = frozenset({"move"})

    def __init__(self) -> None:
        self.moves: dict[str, int] = {}
        self.alive_seen = 0
        self.pids: set[int] = set()

    def observe(self, event: dict[str, Any], world: World) -> None:
        agent = event["agentId"]
        self.moves[agent] = self.moves.get(agent, 0) + 1
        self.alive_seen += len(world.living_agents())
        self.pids.add(os.getpid())


def _events(moves_of_a_2: int) -> list[dict[str, Any]]:
    """Three spawns at tick 0; a_3 dies at tick 1; a_1 moves 3 times, a_2 ``moves_of_a_2`` times."""
    events = [ev(k + 1, 0, "agent_spawned", agent, region="r_0_0") for k, agent in enumerate(AGENTS)]
    events.append(ev(4, 1, "agent_died", "a_3", cause="starvation"))
    next_id = 5
    for tick in (2, 3, 4):
        events.append(ev(next_id, tick, "move", "a_1", **{"from": "r_0_0", "to": "r_0_0"}))
        next_id += 1
    for tick in range(5, 5 + moves_of_a_2):
        events.append(ev(next_id, tick, "move", "a_2", **{"from": "r_0_0", "to": "r_0_0"}))
        next_id += 1
    return events


@pytest.fixture
def streams(tmp_path: Path) -> tuple[Path, Path]:
    """The match (a_2 moves twice) and another version of it (a_2 moves four times)."""
    first = write_match(tmp_path / "first", _events(2), archive(AGENTS, ended=20))
    second = write_match(tmp_path / "second", _events(4), archive(AGENTS, ended=20))
    return first, second


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The setting 1, and whether each split's child started.  (The test runner may leave an idle
    helper thread alive, which makes :func:`~daishi_forensics.replay.fork.fork` refuse; here the
    thread count is taken as one, so the split under test does happen: the rule itself is tested
    in :func:`test_no_fork_while_another_thread_runs`.)"""
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    started: list[bool] = []
    real = _halves.fork

    def watched(fn: Any) -> Any:
        child = real(fn)
        started.append(child is not None)
        return child

    monkeypatch.setattr(_halves, "fork", watched)
    return started


def _run(path: Path, reread: Any = None) -> dict[str, Tally]:
    read = read_match(open_match(str(path)))
    passes: dict[str, Any] = {"here": Tally(), "aside": Tally()}
    if reread is None:
        _halves.replay_in_halves(read, passes, {"aside"})
    else:
        _halves.replay_in_halves(read, passes, {"aside"}, reread=reread)
    return passes


def _in_child(parent: int, then: Any) -> Any:
    """A reread hook that does ``then(source)`` in the forked child and nothing in this process."""
    def reread(source: MatchSource) -> MatchSource:
        return then(source) if os.getpid() != parent else source
    return reread


def _source_of(path: Path) -> Any:
    return lambda source: open_match(str(path))


# 2 moves of a_2 + 3 of a_1; alive at each move: 2 (a_3 died at tick 1): 5 moves x 2 = 10
FIRST = ({"a_1": 3, "a_2": 2}, 10)


def test_the_child_replays_its_passes_and_they_are_taken(streams: tuple[Path, Path], forks: list[bool]) -> None:
    passes = _run(streams[0])
    assert forks == [True]
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen) == FIRST
    assert passes["here"].pids == {os.getpid()}
    assert len(passes["aside"].pids) == 1 and passes["aside"].pids != {os.getpid()}
    assert list(passes) == ["here", "aside"]


def test_setting_zero_never_forks(streams: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "0")
    monkeypatch.setattr(_halves, "fork", lambda fn: pytest.fail("forked with the setting 0"))
    passes = _run(streams[0])
    assert [(t.moves, t.alive_seen, t.pids) for t in passes.values()] == [(*FIRST, {os.getpid()})] * 2


def test_unset_setting_leaves_a_small_file_in_one_process(streams: tuple[Path, Path],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr(_halves, "fork", lambda fn: pytest.fail("forked for a small file"))
    assert _run(streams[0])["aside"].pids == {os.getpid()}
    assert streams[0].stat().st_size < _halves.SPLIT_BYTES


def test_a_bundle_is_never_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundle is parsed whole before the replay: there is no second read to split onto."""
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(_halves, "fork", lambda fn: pytest.fail("forked for a bundle"))
    bundle = write_match(tmp_path, _events(2), archive(AGENTS, ended=20), form="bundle")
    passes = _run(bundle)
    assert (passes["aside"].moves, passes["aside"].alive_seen) == FIRST


def test_child_that_read_other_bytes_is_not_taken(streams: tuple[Path, Path], forks: list[bool]) -> None:
    """The child reads another version of the file (same path, identity unchanged, as a rewrite
    in place that kept size and time would be): its digest differs, so this process replays the
    aside passes itself over its second read, which is the file it read first."""
    passes = _run(streams[0], reread=_in_child(os.getpid(), _source_of(streams[1])))
    assert forks == [True]
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen, tally.pids) == (*FIRST, {os.getpid()})


def test_file_that_changed_between_this_process_reads_is_refused(streams: tuple[Path, Path],
                                                                 forks: list[bool]) -> None:
    """Every later read sees the other version: the child's answer is refused, and so is this
    process's second read (its digest is not its first's): an error, not a mix."""
    with pytest.raises(InputUnreadable, match="changed while being read") as caught:
        _run(streams[0], reread=_source_of(streams[1]))
    assert caught.value.file == str(streams[0])
    assert forks == [True]


def test_file_replaced_on_disk_mid_run_is_refused(streams: tuple[Path, Path], forks: list[bool]) -> None:
    """The child replaces the file on disk (a new file under the same name) before it reads: the
    read boundary refuses the new file wherever it is read next (the child, this process's own
    read if not finished, its second read): a clear error whichever process gets there first."""
    first, second = streams

    def replace(source: MatchSource) -> MatchSource:
        os.replace(second, first)
        return source

    with pytest.raises(InputUnreadable, match="changed while being read"):
        _run(first, reread=_in_child(os.getpid(), replace))
    assert forks == [True]


@pytest.mark.parametrize("death", ["exit", "kill"])
def test_child_that_dies_is_replaced_by_this_process(streams: tuple[Path, Path], death: str,
                                                     forks: list[bool]) -> None:

    def die(source: MatchSource) -> MatchSource:
        if death == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        os._exit(3)

    passes = _run(streams[0], reread=_in_child(os.getpid(), die))
    assert forks == [True]
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen, tally.pids) == (*FIRST, {os.getpid()})


def test_no_fork_is_allowed_in_a_pool_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """``season`` runs matches in a process pool that already uses every core: a worker never forks,
    even with the setting 1 (a pool's workers are not daemon processes: the rule reads who started it)."""
    monkeypatch.setenv(ENV, "1")
    assert allowed(False)
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        assert pool.submit(allowed, True).result() is False


def test_no_fork_while_another_thread_runs(streams: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork copies only the calling thread: with another thread alive, the replay stays in one process."""
    monkeypatch.setenv(ENV, "1")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert forking.fork(lambda: None) is None
        passes = _run(streams[0])
    finally:
        stop.set()
        other.join()
    assert [(t.moves, t.alive_seen, t.pids) for t in passes.values()] == [(*FIRST, {os.getpid()})] * 2


def test_setting_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "0")
    assert not allowed(True)
    monkeypatch.setenv(ENV, "1")
    assert allowed(False)
    monkeypatch.delenv(ENV)
    assert not allowed(False)


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from daishi_forensics.simulate import simulate_to_dir

    return simulate_to_dir("mixed", 5, 3, tmp_path_factory.mktemp("halves"), "stream", truth_file=None,
                           n_agents=10, ticks=120)


def test_every_pass_pickles_to_an_equal_report(simulated: Path) -> None:
    """Every built-in pass, finished, survives the pipe: the report built from the pickled copies is
    the same bytes as the one built from the passes themselves."""
    direct = analyze(read_match(open_match(str(simulated))))
    copied = analyze(read_match(open_match(str(simulated))))
    copied.passes = pickle.loads(pickle.dumps(copied.passes, protocol=pickle.HIGHEST_PROTOCOL))
    assert set(ASIDE) < set(CATALOGUE.names)
    assert dumps(behavior_report(copied)) == dumps(behavior_report(direct))


def test_behavior_report_is_the_same_bytes_on_two_processes(simulated: Path, forks: list[bool],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    reports = {}
    for setting in ("0", "1"):
        monkeypatch.setenv(ENV, setting)
        reports[setting] = dumps(behavior_report(analyze(read_match(open_match(str(simulated))))))
    assert forks == [True]  # the second run was split (and its report sections computed aside)
    assert reports["1"] == reports["0"]


def test_read_stats_are_this_process_reading(simulated: Path, forks: list[bool]) -> None:
    """The caller's read is the one consumed and counted (its source given back as it was)."""
    read = read_match(open_match(str(simulated)))
    source = read.source
    done = replay_analysis.analyze(read, CATALOGUE, aside=ASIDE)
    assert done.read is read and read.source is source
    assert read.stats.records == read.stats.valid > 0
    assert isinstance(read, MatchRead)
    assert forks == [True]
