"""The replay on two cores (``replay/_halves.py``): a forked child replays some passes over its own
read of the file; its passes are taken only when it read the same bytes; otherwise this process
replays them itself, or refuses a file that changed between its own two reads.  Never a mix.

Hand-built streams with hand-counted numbers, a pass that notes which process fed it, and a
simulated match whose behavior report must be the same bytes on one process and on two."""

from __future__ import annotations

import hashlib
import math
import os
import pickle
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import orjson
import pytest
from daishi_forensics.errors import InputUnreadable
from daishi_forensics.jsonio import dumps
from daishi_forensics.read.boundary import MatchRead, as_parsed, read_match
from daishi_forensics.read.sources import MatchSource, open_match
from daishi_forensics.replay import World, analysis as replay_analysis
from daishi_forensics.replay import _halves
from daishi_forensics.replay.split import parse_bytes
from daishi_forensics.replay import fork as forking
from daishi_forensics.replay.driver import replay
from daishi_forensics.replay.fork import ENV, allowed
from daishi_forensics.report.assembly import behavior_report
from daishi_forensics.report.passes import ASIDE, CATALOGUE, analyze

from .matchkit import archive, ev, to_v2, write_match

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


def test_child_that_read_other_bytes_is_not_taken(streams: tuple[Path, Path], forks: list[bool],
                                                  split: dict[str, list[Any]]) -> None:
    """The child reads another version of the file (same path, identity unchanged, as a rewrite
    in place that kept size and time would be), without checks: its digest differs, so this process
    replays the aside passes itself over its second read, which is the file it read first."""
    passes = _run(streams[0], reread=_in_child(os.getpid(), _source_of(streams[1])))
    assert forks == [True] and split == {"plain": [True], "child": ["waited"]}
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


def test_file_replaced_on_disk_mid_run_is_refused(streams: tuple[Path, Path], forks: list[bool],
                                                  split: dict[str, list[Any]]) -> None:
    """The child replaces the file on disk (a new file under the same name) before it reads (without
    checks, the file being plain): the source refuses the new file wherever it is read next (the child,
    this process's own read if not finished, its second read): a clear error whichever process gets
    there first."""
    first, second = streams

    def replace(source: MatchSource) -> MatchSource:
        os.replace(second, first)
        return source

    with pytest.raises(InputUnreadable, match="changed while being read"):
        _run(first, reread=_in_child(os.getpid(), replace))
    assert forks == [True] and split["plain"] == [True]


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
                                                           split: dict[str, list[Any]],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulated match is plain: the second run's child reads without checks, its passes are taken,
    and the report is the same bytes as one process's."""
    reports, reads = {}, {}
    for setting in ("0", "1"):
        monkeypatch.setenv(ENV, setting)
        reads[setting] = read_match(open_match(str(simulated)))
        reports[setting] = dumps(behavior_report(analyze(reads[setting])))
    assert forks == [True]  # the second run was split (and its report sections computed aside)
    assert split == {"plain": [True], "child": ["waited"]} and reads["1"].verbatim
    assert reports["1"] == reports["0"]


def test_a_text_heavy_match_keeps_its_tiers_here(tmp_path: Path) -> None:
    """A match whose messages bring :data:`TEXT_HEAVY` characters of new text an event or more leaves its message
    tiers to this process; one that repeats its texts hands them to the second process with the rest of
    :data:`ASIDE`.  Hand-counted: a spawn and three messages of 10 characters, all different (30 / 4 = 7.5), or
    the same three times (10 / 4 = 2.5)."""
    from daishi_forensics.report.passes import TEXT_HEAVY, aside_for, text_per_event

    assert 2.5 < TEXT_HEAVY <= 7.5
    for texts, expected, aside in ((("0123456789", "abcdefghij", "klmnopqrst"), 7.5, ASIDE - {"tiers"}),
                                   (("0123456789",) * 3, 2.5, ASIDE)):
        events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")]
        events += [ev(2 + k, 1, "message", "a_1", channel="local", text=t) for k, t in enumerate(texts)]
        path = write_match(tmp_path / str(expected), events, archive(["a_1"], ended=5))
        source = open_match(str(path))
        assert text_per_event(source) == expected and (expected >= TEXT_HEAVY) == (aside != ASIDE)
        assert aside_for(source) == aside


def test_a_file_whose_first_lines_cannot_be_read_gets_the_usual_split() -> None:
    """The sample of the first lines says nothing of a file it cannot read: the usual passes go to the second
    process, and the read boundary says what is wrong, where it always does."""
    from daishi_forensics.errors import InputTooLarge
    from daishi_forensics.report.passes import aside_for

    def refused() -> Any:
        raise InputTooLarge("a line is longer than 10 bytes; refused", file="m.jsonl", line=2)
        yield  # (a generator)

    assert aside_for(MatchSource("m.jsonl", "stream", {}, refused)) == ASIDE


def test_a_text_heavy_match_split_the_other_way_gives_the_same_bytes(simulated: Path, forks: list[bool],
                                                                   split: dict[str, list[Any]], tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """With the tiers kept here (the simulated match taken as text-heavy), the child replays the rest of
    :data:`ASIDE` and reads the propagation's edges ahead (they read no tier), and this process the tiers and
    the rest of the propagation: the report is the same bytes as one process's; the edges were read once
    either way, ahead by the child when split, by the propagation itself in one process (each reading, in
    whatever process, writes a line to a file)."""
    from daishi_forensics.injection import propagation as propagation_module
    from daishi_forensics.injection import summary
    from daishi_forensics.report import passes as report_passes

    monkeypatch.setattr(report_passes, "TEXT_HEAVY", 0.0)
    log = tmp_path / "readings.txt"
    real_reading = propagation_module.echo_reading

    def counted(by: str) -> Any:
        def reading(*args: Any, **kwargs: Any) -> Any:
            with open(log, "a", encoding="utf-8") as out:
                out.write(by + "\n")
            return real_reading(*args, **kwargs)

        return reading

    monkeypatch.setattr(propagation_module, "echo_reading", counted("propagation"))
    monkeypatch.setattr(summary, "echo_reading", counted("ahead"))
    moved: dict[str, bool] = {}
    real = replay_analysis.replay_in_halves

    def watched(read: MatchRead, instances: dict[str, Any], aside: Any, **kwargs: Any) -> Any:
        before = dict(instances)
        timeline = real(read, instances, aside, **kwargs)
        moved.update({name: instances[name] is not before[name] for name in instances})  # the child's copies
        return timeline

    monkeypatch.setattr(replay_analysis, "replay_in_halves", watched)
    reports, readings = {}, {}
    for setting in ("0", "1"):
        monkeypatch.setenv(ENV, setting)
        log.write_text("")
        reports[setting] = dumps(behavior_report(analyze(read_match(open_match(str(simulated))))))
        readings[setting] = log.read_text().split()
    assert forks == [True] and split["child"] == ["waited"]
    assert {name for name, by_child in moved.items() if by_child} == ASIDE - {"tiers"}
    assert readings == {"0": ["propagation"], "1": ["ahead"]}
    assert reports["1"] == reports["0"]


def _logging_forks(real: Any, log: Path) -> Any:
    """``real`` (a way to fork) that first writes a line to ``log``: the forking process's id, the function
    forked and its third argument (the screens' child: the screens it hands on)."""

    def logged(fn: Any) -> Any:
        inner = getattr(fn, "func", fn)
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {inner.__name__} {getattr(fn, 'args', ())[2:3]!r}\n")
        return real(fn)

    return logged


def test_the_screens_child_runs_the_ring_screen_in_a_child_of_its_own(
        simulated: Path, forks: list[bool], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the replay is over, the report's screens child hands the ring screen to a child of its own
    (the forks are logged to a file: the second one is made in the screens' child), and the report is the
    same bytes as one process's.  The replay is not split here, so the screens never start early (below,
    where they do)."""
    from daishi_forensics.report import assembly

    monkeypatch.setattr(_halves, "_worth_splitting", lambda source: False)

    log = tmp_path / "forks.log"
    logged = _logging_forks(assembly.aside, log)
    monkeypatch.setenv(ENV, "0")
    alone = dumps(behavior_report(analyze(read_match(open_match(str(simulated))))))
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(assembly, "aside", logged)
    assert dumps(behavior_report(analyze(read_match(open_match(str(simulated)))))) == alone
    lines = [line.split(" ", 2) for line in log.read_text(encoding="utf-8").splitlines()]
    here = {name for pid, name, _ in lines if int(pid) == os.getpid()}
    beside = [(name, steps) for pid, name, steps in lines if int(pid) != os.getpid()]
    assert here == {"_screens", "_injection"}
    assert [name for name, _ in beside] == ["_run_each"] and "'ring'" in beside[0][1]
    assert "'feeder'" not in beside[0][1]  # run with the others
    assert forks == []  # (no replay split)


def test_screens_started_early_hand_the_ring_screen_to_a_child_of_their_own(
        simulated: Path, forks: list[bool], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Split, this process done with its half first (the replay's child taken as still at work): the screens
    started early split as in the report (their child forks the ring screen), and the report is the same
    bytes as one process's."""
    from daishi_forensics.report import _aside

    log = tmp_path / "forks.log"
    logged = _logging_forks(_aside.aside, log)
    monkeypatch.setattr(forking.Forked, "ready", lambda self: False)
    monkeypatch.setenv(ENV, "0")
    alone = dumps(behavior_report(analyze(read_match(open_match(str(simulated))), early=True)))
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(_aside, "aside", logged)
    split = analyze(read_match(open_match(str(simulated))), early=True)
    assert forks == [True]
    assert dumps(behavior_report(split)) == alone
    lines = [line.split(" ", 2) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [name for pid, name, _ in lines if int(pid) == os.getpid()] == ["_screens"]  # started early
    beside = [(name, steps) for pid, name, steps in lines if int(pid) != os.getpid()]
    assert [name for name, _ in beside] == ["_run_each"] and "'ring'" in beside[0][1]


def test_read_stats_are_this_process_reading(simulated: Path, forks: list[bool]) -> None:
    """The caller's read is the one consumed and counted (its source given back as it was)."""
    read = read_match(open_match(str(simulated)))
    source = read.source
    done = replay_analysis.analyze(read, CATALOGUE, aside=ASIDE)
    assert done.read is read and read.source is source
    assert read.stats.records == read.stats.valid > 0
    assert isinstance(read, MatchRead)
    assert forks == [True]


# --------------------------------------------------------------------------- the child's read without checks

READS: dict[str, str] = {"now": "checked"}
"""How the process running a replay reads (set by :func:`_marked`, in whichever process reads)."""


class ReadTally(Tally):
    """A :class:`Tally` that also notes how the process feeding it read the file."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: set[str] = set()

    def observe(self, event: dict[str, Any], world: World) -> None:
        super().observe(event, world)
        self.reads.add(READS["now"])


@pytest.fixture
def split(monkeypatch: pytest.MonkeyPatch, forks: list[bool]) -> dict[str, list[Any]]:
    """Each split's guess of a plain read (``plain``) and what became of its child: its answer
    ``waited`` for, or the child ``stopped`` unheard; a read without checks marks :data:`READS`."""
    seen: dict[str, list[Any]] = {"plain": [], "child": []}
    guess, real_parsed, real_fork = _halves._reads_plainly, _halves.as_parsed, _halves.fork

    def plainly(read: MatchRead, source: MatchSource) -> bool:
        seen["plain"].append(guess(read, source))
        return bool(seen["plain"][-1])

    def parsed(source: MatchSource, withheld: Any = ()) -> Any:
        READS["now"] = "without checks"
        return real_parsed(source, withheld)

    class Watched:
        def __init__(self, child: Any) -> None:
            self.child = child

        def result(self) -> Any:
            seen["child"].append("waited")
            return self.child.result()

        def cancel(self) -> None:
            seen["child"].append("stopped")
            self.child.cancel()

    monkeypatch.setattr(_halves, "_reads_plainly", plainly)
    monkeypatch.setattr(_halves, "as_parsed", parsed)
    monkeypatch.setattr(_halves, "fork", lambda fn: (lambda c: None if c is None else Watched(c))(real_fork(fn)))
    monkeypatch.setitem(READS, "now", "checked")
    return seen


def _stream_of(path: Path, records: list[Any], arch: dict[str, Any]) -> Path:
    """A stream whose event lines are ``records`` (each a dict, or bytes written as they are)."""
    header = {"format": "daishi-match-export", "formatVersion": 1, "matchId": arch["matchId"], "archive": arch}
    lines = [r if isinstance(r, bytes) else orjson.dumps(r) for r in records]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\n".join([orjson.dumps(header), *lines]) + b"\n")
    return path


def _one_process(path: Path) -> tuple[dict[str, int], int]:
    """What one process, reading through the read boundary, counts with a :class:`Tally`."""
    read = read_match(open_match(str(path)))
    tally = Tally()
    replay(read.events(), read.archive, [tally])
    return tally.moves, tally.alive_seen


def _run_read(path: Path) -> tuple[MatchRead, dict[str, ReadTally]]:
    read = read_match(open_match(str(path)))
    passes: dict[str, Any] = {"here": ReadTally(), "aside": ReadTally()}
    _halves.replay_in_halves(read, passes, {"aside"})
    return read, passes


def test_a_plain_files_checked_read_is_its_records_as_parsed(streams: tuple[Path, Path]) -> None:
    """Every record takes the hot path: the checked read is verbatim, and its events are the records'
    data, equal one by one (the 3 spawns, the death, 5 moves)."""
    read = read_match(open_match(str(streams[0])))
    checked = list(read.events())
    assert read.verbatim and read.stats.records == len(checked) == 9
    assert list(as_parsed(open_match(str(streams[0])))) == checked
    assert [e["type"] for e in checked] == ["agent_spawned"] * 3 + ["agent_died"] + ["move"] * 5


def test_the_child_of_a_plain_file_reads_without_checks_and_is_taken(streams: tuple[Path, Path],
                                                                     split: dict[str, list[Any]]) -> None:
    read, passes = _run_read(streams[0])
    assert read.verbatim and split == {"plain": [True], "child": ["waited"]}
    assert passes["aside"].pids != {os.getpid()} and passes["aside"].reads == {"without checks"}
    assert passes["here"].pids == {os.getpid()} and passes["here"].reads == {"checked"}
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen) == FIRST


def _with_cold_record(kind: str) -> list[Any]:
    """The first stream's records with one cold record among them (``kind``)."""
    records: list[Any] = _events(2)
    if kind == "older version":  # a_1's second move logged at v2 (upcast to the same move)
        records[5] = to_v2([records[5]])[0]
    elif kind == "unknown type":  # a warning without --strict: kept, counted, not analysed
        records.insert(4, {**ev(5, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_0"}), "type": "dance"})
        for k, record in enumerate(records[5:], 6):
            record["id"] = k
    elif kind == "integral float":  # a_1's move at tick 3 written 3.0: read as 3, said (a warning)
        records[5] = orjson.dumps(records[5]).replace(b'"tick":3,', b'"tick":3.0,')
        assert b'"tick":3.0,' in records[5]
    elif kind == "off the map":  # a_2's last move to a region off the 12x12 map: refused, not analysed
        records[-1]["payload"]["to"] = "r_40_0"
    elif kind == "out of place":  # a_1's second move's id jumps ahead (99 between 6 and 8): it passes the
        records[5]["id"] = 99  # hot path, then the next record shows it out of place: dropped
    return records


# one process: the same counts, except the move refused (4 moves x 2 alive)
COLD = {"older version": FIRST, "unknown type": FIRST, "integral float": FIRST,
        "off the map": ({"a_1": 3, "a_2": 1}, 8), "out of place": ({"a_1": 2, "a_2": 2}, 8)}


@pytest.mark.parametrize("kind", list(COLD))
def test_a_cold_record_makes_this_process_replay_the_childs_passes(tmp_path: Path, kind: str,
                                                                   split: dict[str, list[Any]]) -> None:
    """One record off the hot path: this process's read is not verbatim, so the child (which read
    without checks) is stopped unheard and its passes replayed here: the one-process counts."""
    path = _stream_of(tmp_path / "m.jsonl", _with_cold_record(kind), archive(AGENTS, ended=20))
    assert _one_process(path) == COLD[kind]
    read, passes = _run_read(path)
    assert not read.verbatim and split == {"plain": [True], "child": ["stopped"]}
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen, tally.pids, tally.reads) == (*COLD[kind], {os.getpid()}, {"checked"})


ERRATUM = [{"id": "E1", "text": "never happened", "events": [8], "scoresDepend": False}]
"""An erratum naming a_2's first move (id 8): a_2 moves once, 4 moves x 2 alive."""


def test_an_erratum_is_withheld_alike_by_the_child_reading_without_checks(
        tmp_path: Path, split: dict[str, list[Any]]) -> None:
    """Both reads withhold the event the erratum names, by its id: this process's read is verbatim
    (every record took the hot path), the child's passes are taken, and they count without it."""
    path = write_match(tmp_path, _events(2), archive(AGENTS, ended=20, errata=ERRATUM))
    assert _one_process(path) == ({"a_1": 3, "a_2": 1}, 8)
    assert [e["id"] for e in as_parsed(open_match(str(path)), {8: "E1"})] == [1, 2, 3, 4, 5, 6, 7, 9]
    read, passes = _run_read(path)
    assert read.verbatim and read.stats.excluded_by_errata == [8]
    assert split == {"plain": [True], "child": ["waited"]}
    assert passes["aside"].pids != {os.getpid()} and passes["aside"].reads == {"without checks"}
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen) == ({"a_1": 3, "a_2": 1}, 8)


def test_an_erratum_beside_a_cold_record_is_replayed_here(tmp_path: Path, split: dict[str, list[Any]]) -> None:
    """The erratum and a cold record (a_1's move at tick 3 logged at v2): not verbatim, the child is
    stopped and its passes replayed here."""
    records = _with_cold_record("older version")
    path = _stream_of(tmp_path / "m.jsonl", records, archive(AGENTS, ended=20, errata=ERRATUM))
    assert _one_process(path) == ({"a_1": 3, "a_2": 1}, 8)
    read, passes = _run_read(path)
    assert not read.verbatim and split == {"plain": [True], "child": ["stopped"]}
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen, tally.pids) == ({"a_1": 3, "a_2": 1}, 8, {os.getpid()})


def test_an_older_log_makes_the_child_read_through_the_checks(tmp_path: Path, split: dict[str, list[Any]]) -> None:
    """A v2 log takes the cold path throughout: its first record says so before the fork, so the child
    reads through the read boundary and its passes are taken."""
    path = write_match(tmp_path, _events(2), archive(AGENTS, ended=20), version=2)
    read, passes = _run_read(path)
    assert not read.verbatim and split == {"plain": [False], "child": ["waited"]}
    assert passes["aside"].pids != {os.getpid()} and passes["aside"].reads == {"checked"}
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen) == FIRST


class Stalls:
    """Stands still for a minute on a move to a region off the map (an event the checks refuse)."""

    types = frozenset({"move"})

    def observe(self, event: dict[str, Any], world: World) -> None:
        if event["payload"]["to"] == "r_40_0":
            time.sleep(60)


def test_a_child_stuck_on_a_refused_record_is_not_waited_for(tmp_path: Path, split: dict[str, list[Any]]) -> None:
    """The child reading without checks meets the record the checks refuse and stalls on it: this process
    does not wait for it (its read was not verbatim) but stops it and replays its passes itself."""
    path = _stream_of(tmp_path / "m.jsonl", _with_cold_record("off the map"), archive(AGENTS, ended=20))
    read = read_match(open_match(str(path)))
    passes: dict[str, Any] = {"here": Tally(), "aside": Stalls()}
    started = time.monotonic()
    _halves.replay_in_halves(read, passes, {"aside"})
    assert time.monotonic() - started < 30
    assert split == {"plain": [True], "child": ["stopped"]}


# --------------------------------------------------------------------------- the child's lines left unparsed


class Spans(Tally):
    """A :class:`Tally` that also closes ticks: the ticks closed in all (integers summed, so a span
    closed whole or in two pieces adds the same) and how many calls closed them."""

    merges_spans = True

    def __init__(self) -> None:
        super().__init__()
        self.closed = 0
        self.calls = 0

    def close_ticks(self, start: int, stop: int, world: World) -> None:
        self.closed += stop - start
        self.calls += 1


def _sorted_lines(records: list[dict[str, Any]]) -> list[bytes]:
    """The records as a simulated export writes them: keys sorted, so ``type`` comes last."""
    return [orjson.dumps(r, option=orjson.OPT_SORT_KEYS) for r in records]


def _with_rests(*, regress: bool = False) -> list[Any]:
    """The first stream's records (moves at ticks 2..6), with rests: a_1 at tick 4 (beside its move),
    a_2 at ticks 7 and 8 (ticks only rests have), and one at tick 8 whose type is spelled with a
    ``\\u`` escape (parsed, never left out); ``regress``: the last rest at tick 8 comes before a move
    at tick 6 (a tick regression)."""
    records = _events(2)  # ids 1..9: spawns, death, a_1 moves at 2, 3, 4, a_2 moves at 5, 6
    rests = [ev(10, 4, "rest", "a_1"), ev(11, 7, "rest", "a_2"), ev(12, 8, "rest", "a_2")]
    lines = _sorted_lines(records + rests)
    escaped = orjson.dumps(ev(13, 8, "rest", "a_1"), option=orjson.OPT_SORT_KEYS).replace(
        b'"type":"rest"', b'"type":"r\\u0065st"')
    assert escaped.endswith(b'"type":"r\\u0065st"}')
    if regress:  # ids 1-7 (up to tick 4), then the rests at 7 and 8, then a_2's moves at 5 and 6
        return [*lines[:7], lines[10], lines[11], escaped, lines[7], lines[8], lines[9]]
    return [*lines[:7], lines[9], lines[7], lines[8], lines[10], lines[11], escaped]


def _renumbered(lines: list[Any]) -> list[bytes]:
    """The lines with ids 1, 2, ... in file order (the hot path wants them rising)."""
    out = []
    for k, line in enumerate(lines, 1):
        data = orjson.loads(line)
        out.append(line.replace(f'"id":{data["id"]},'.encode(), f'"id":{k},'.encode(), 1))
    return out


def test_the_types_a_child_may_leave_unparsed() -> None:
    """Every known type no pass of the group observes or counts and the world does not apply; none at
    all when one condition of the rule fails."""
    arch = archive(AGENTS, ended=20)
    tails = _halves._skipped_tails([Spans()], arch)
    assert b'rest"}\n' in tails and b'inference_usage"}\n' in tails
    assert not {b'move"}\n', b'agent_spawned"}\n', b'agent_died"}\n', b'agent_dormant"}\n'} & tails

    class Everything(Tally):
        types = None  # type: ignore[assignment]

    class Unsaid(Spans):
        merges_spans = False

    class CountsAll(Tally):
        def counted(self, tally: Any, world: World) -> None:
            pass

    class CountsRests(CountsAll):
        tallied = frozenset({"rest"})

    for passes in ([Everything()], [Tally(), Unsaid()], [CountsAll()]):
        assert _halves._skipped_tails(passes, arch) == frozenset()
    assert b'rest"}\n' not in _halves._skipped_tails([CountsRests()], arch)
    assert b'look"}\n' in _halves._skipped_tails([CountsRests()], arch)
    for missing in ("startedAtTick", "endedAtTick"):
        assert _halves._skipped_tails([Spans()], {k: v for k, v in arch.items() if k != missing}) == frozenset()


def test_a_child_leaves_the_unwanted_lines_unparsed_and_its_passes_are_the_same(tmp_path: Path) -> None:
    """The three rests written plainly are left unparsed (the escaped one is parsed), every line is in
    the digest, and the passes count as over every event: 5 moves, 10 alive seen, the 20 match
    ticks closed; in 8 spans where the whole replay closes 9 (0-1, 1-2, ..., 7-8, 8-20): the child
    reads no event at tick 7 (only a rest), so it closes 6-8 as one span."""
    path = _stream_of(tmp_path / "m.jsonl", _renumbered(_with_rests()), archive(AGENTS, ended=20))
    whole = Spans()
    read = read_match(open_match(str(path)))
    timeline = replay(read.events(), read.archive, [whole])
    assert read.verbatim and timeline.tick_regressions == 0
    assert (whole.moves, whole.alive_seen, whole.closed, whole.calls) == (*FIRST, 20, 9)
    full = _halves._replay_aside(read, open_match(str(path)), {"aside": Spans()}, True)
    group = {"aside": Spans()}
    tails = _halves._skipped_tails(group.values(), read.archive)
    digest, passes, skipped = _halves._replay_aside(read, open_match(str(path)), group, True, tails)
    assert skipped == 3 and full[2] == 0 and digest == full[0]
    left = passes["aside"]
    assert (left.moves, left.alive_seen, left.closed, left.calls) == (*FIRST, 20, 8)


def test_a_child_that_left_lines_unparsed_is_taken(tmp_path: Path, split: dict[str, list[Any]]) -> None:
    path = _stream_of(tmp_path / "m.jsonl", _renumbered(_with_rests()), archive(AGENTS, ended=20))
    read = read_match(open_match(str(path)))
    passes: dict[str, Any] = {"here": Spans(), "aside": Spans()}
    _halves.replay_in_halves(read, passes, {"aside"})
    assert read.verbatim and split == {"plain": [True], "child": ["waited"]}
    assert passes["aside"].pids != {os.getpid()} and passes["here"].pids == {os.getpid()}
    assert [(t.moves, t.alive_seen, t.closed, t.calls) for t in passes.values()] == [(*FIRST, 20, 9),
                                                                                     (*FIRST, 20, 8)]


def test_a_tick_regression_refuses_a_child_that_left_lines_unparsed(tmp_path: Path,
                                                                    split: dict[str, list[Any]]) -> None:
    """The rests at ticks 7 and 8 come before a_2's moves at 5 and 6: the whole replay applies those
    moves at tick 8 (3 regressions, with a_1's rest at tick 4 last), closing 7 spans (0-1, ..., 3-4,
    4-7, 7-8, 8-20); the child, which left the plain rests unparsed, would close 4-8 whole.  Its
    passes are not taken: this process replays them, and both sides count as one process does."""
    path = _stream_of(tmp_path / "m.jsonl", _renumbered(_with_rests(regress=True)), archive(AGENTS, ended=20))
    one = read_match(open_match(str(path)))
    alone = Spans()
    assert replay(one.events(), one.archive, [alone]).tick_regressions == 3
    read = read_match(open_match(str(path)))
    passes: dict[str, Any] = {"here": Spans(), "aside": Spans()}
    _halves.replay_in_halves(read, passes, {"aside"})
    assert read.verbatim and split == {"plain": [True], "child": ["waited"]}
    for tally in passes.values():
        assert tally.pids == {os.getpid()}
        assert (tally.moves, tally.alive_seen, tally.closed, tally.calls) == (
            alone.moves, alone.alive_seen, alone.closed, alone.calls) == (*FIRST, 20, 7)


# --------------------------------------------------------------------------- work done ahead, on both sides


def _count_computed_results(monkeypatch: pytest.MonkeyPatch, into: list[str]) -> None:
    """Append to ``into`` the name of every pass result an analysis computes from here on (one it already
    holds is not computed again)."""
    asked = replay_analysis.MatchAnalysis.result

    def result(self: Any, name: str) -> Any:
        if name not in self._results:
            into.append(name)
        return asked(self, name)

    monkeypatch.setattr(replay_analysis.MatchAnalysis, "result", result)


def test_the_report_is_the_same_bytes_with_work_done_ahead(simulated: Path, forks: list[bool],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Split, the child computes the message propagation into its exposure pass (it replayed the
    exposure and the tiers) and this process, done first (the child taken as still at work), starts
    the screens from its own passes meanwhile, in a child, and computes the ledger part and the
    results the report asks of its passes itself: the report is the same bytes as one process's,
    and computes none of them.  (The usual split: the match taken as not text-heavy, which its 3.3
    characters of new text an event would make it.)"""
    from daishi_forensics.report import passes as report_passes
    from daishi_forensics.report import sections
    from daishi_forensics.report._aside import Done
    from daishi_forensics.report.passes import EARLY_RESULTS

    monkeypatch.setattr(report_passes, "TEXT_HEAVY", math.inf)
    monkeypatch.setattr(forking.Forked, "ready", lambda self: False)
    monkeypatch.setenv(ENV, "0")
    alone = analyze(read_match(open_match(str(simulated))), early=True)
    assert alone.early == {} and "propagation" not in alone.passes["exposure"].memo
    expected = dumps(behavior_report(alone))
    monkeypatch.setenv(ENV, "1")
    split = analyze(read_match(open_match(str(simulated))), early=True)
    assert forks == [True] and {"exposure", "tiers"} <= ASIDE
    assert "propagation" in split.passes["exposure"].memo
    screens = next(s for s in sections.SECTIONS if s.name == "screens")
    ledger = next(s for s in sections.SECTIONS if s.name == "ledger")
    assert list(split.early) == [screens, ledger] and isinstance(split.early[screens], forking.Forked)
    assert isinstance(split.early[ledger], Done)
    assert not ASIDE & set(EARLY_RESULTS) and set(split._results) == set(EARLY_RESULTS)
    computed: list[str] = []
    import daishi_forensics.injection.summary as summary
    import daishi_forensics.report.screening as screening

    monkeypatch.setattr(screening, "screens_section", lambda a: computed.append("screens"))
    monkeypatch.setattr(sections, "ledger_part", lambda a: computed.append("ledger"))
    _count_computed_results(monkeypatch, computed)
    real = summary.propagation

    def counted(*args: Any, **kwargs: Any) -> Any:
        computed.append("propagation")
        return real(*args, **kwargs)

    monkeypatch.setattr(summary, "propagation", counted)
    monkeypatch.setenv(ENV, "0")  # this process computes every part the analysis lacks, where it is seen
    assert dumps(behavior_report(split)) == expected
    assert not set(computed) & {"screens", "propagation", "ledger", *EARLY_RESULTS}
    assert sorted(computed) == ["coverage", "promises"]  # the report's results of the child's passes


def test_the_screens_read_only_the_passes_they_name(simulated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The screens part from an analysis holding only the passes it names, without the context, is the
    part the report computes; and they are the screening module's passes."""
    from daishi_forensics.report.screening import SCREEN_PASSES
    from daishi_forensics.report.sections import SECTIONS, ReportContext
    from daishi_forensics.report.assembly import seat_ids
    from daishi_forensics.report.crosscheck import findings

    monkeypatch.setenv(ENV, "0")
    whole = analyze(read_match(open_match(str(simulated))))
    screens = next(s for s in SECTIONS if s.name == "screens")
    assert screens.reads == frozenset(SCREEN_PASSES)
    ids = seat_ids(whole)
    context = ReportContext(seats=tuple(ids), findings=tuple(findings(whole, ids)))
    only = replay_analysis.MatchAnalysis(read=whole.read, timeline=whole.timeline,
                                         passes={n: p for n, p in whole.passes.items() if n in screens.reads})
    assert dumps(screens.compute(only, ReportContext(seats=(), findings=()))) == dumps(screens.compute(whole, context))


def test_the_ledger_part_reads_only_the_passes_it_names(simulated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ledger part from an analysis holding only the passes it names, without the context, is the
    part the report computes."""
    from daishi_forensics.report.sections import SECTIONS, ReportContext

    monkeypatch.setenv(ENV, "0")
    whole = analyze(read_match(open_match(str(simulated))))
    ledger = next(s for s in SECTIONS if s.name == "ledger")
    assert ledger.reads == frozenset({"ledger", "reputation", "commons"}) and not ledger.slow
    only = replay_analysis.MatchAnalysis(read=whole.read, timeline=whole.timeline,
                                         passes={n: p for n, p in whole.passes.items() if n in ledger.reads})
    nothing = ReportContext(seats=(), findings=())
    assert dumps(ledger.compute(only, nothing)) == dumps(behavior_report(whole)["ledger"])


def test_the_early_results_are_those_the_report_asks_of_this_processs_passes(
        simulated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every result the behavior report asks of a pass this process replays is computed early, and no
    other: the screens' first."""
    from daishi_forensics.report.passes import EARLY_RESULTS
    from daishi_forensics.report.sections import SCREEN_PASSES

    monkeypatch.setenv(ENV, "0")
    whole = analyze(read_match(open_match(str(simulated))))
    asked: list[str] = []
    _count_computed_results(monkeypatch, asked)
    behavior_report(whole)
    assert sorted(n for n in asked if n not in ASIDE) == sorted(EARLY_RESULTS)
    screens = [n for n in EARLY_RESULTS if n in SCREEN_PASSES]
    assert EARLY_RESULTS[:len(screens)] == tuple(screens) and set(screens) == SCREEN_PASSES


def test_this_process_works_meanwhile_only_while_the_child_does(streams: tuple[Path, Path], forks: list[bool],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``meanwhile`` gets this process's timeline (5 moves, 9 events) and the names of its own passes,
    while the child is at work; with the child done already, it is not called."""
    seen: list[tuple[int, frozenset[str]]] = []
    for ready in (False, True):
        monkeypatch.setattr(forking.Forked, "ready", lambda self, ready=ready: ready)
        read = read_match(open_match(str(streams[0])))
        passes: dict[str, Any] = {"here": Tally(), "aside": Tally()}
        _halves.replay_in_halves(read, passes, {"aside"},
                                 meanwhile=lambda timeline, names: seen.append((timeline.events, names)))
        assert passes["aside"].pids != {os.getpid()}
    assert forks == [True, True] and seen == [(9, frozenset({"here"}))]


def test_a_child_whose_work_ahead_fails_is_replaced_by_this_process(streams: tuple[Path, Path],
                                                                   forks: list[bool]) -> None:
    def fails(passes: dict[str, Any], timeline: Any) -> None:
        raise RuntimeError("ahead")

    read = read_match(open_match(str(streams[0])))
    passes: dict[str, Any] = {"here": Tally(), "aside": Tally()}
    _halves.replay_in_halves(read, passes, {"aside"}, ahead=fails)
    assert forks == [True]
    for tally in passes.values():
        assert (tally.moves, tally.alive_seen, tally.pids) == (*FIRST, {os.getpid()})


def test_a_part_started_early_whose_child_fails_is_computed_by_the_report(
        simulated: Path, forks: list[bool], monkeypatch: pytest.MonkeyPatch) -> None:
    from daishi_forensics.report import sections

    monkeypatch.setenv(ENV, "0")
    whole = analyze(read_match(open_match(str(simulated))))
    expected = dumps(behavior_report(whole))
    screens = next(s for s in sections.SECTIONS if s.name == "screens")
    failed = forking.fork(lambda: 1 // 0)
    assert failed is not None
    whole.early = {screens: failed}
    assert dumps(behavior_report(whole)) == expected


@pytest.mark.parametrize("form", ["stream-gz", "folder"])
def test_a_child_leaves_lines_unparsed_in_every_file_form(tmp_path: Path, form: str) -> None:
    """A compressed stream (read again inflated) and a folder's events file (no header line to pass
    over): the same 3 plain rests left unparsed, the same digest as a read of every line, the same
    counts."""
    import gzip

    lines = _renumbered(_with_rests())
    arch = archive(AGENTS, ended=20)
    if form == "folder":
        path = tmp_path / "m"
        path.mkdir()
        (path / "archive.json").write_bytes(orjson.dumps(arch))
        (path / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    else:
        plain = _stream_of(tmp_path / "m.jsonl", lines, arch)
        path = tmp_path / "m.jsonl.gz"
        path.write_bytes(gzip.compress(plain.read_bytes()))
        plain.unlink()
    read = read_match(open_match(str(path)))
    whole = _halves._replay_aside(read, open_match(str(path)), {"aside": Spans()}, True)
    group = {"aside": Spans()}
    digest, passes, skipped = _halves._replay_aside(read, open_match(str(path)), group, True,
                                                    _halves._skipped_tails(group.values(), arch))
    assert (skipped, whole[2], digest) == (3, 0, whole[0])
    left = passes["aside"]
    assert (left.moves, left.alive_seen, left.closed, left.calls) == (*FIRST, 20, 8)



def test_a_child_that_leaves_lines_unparsed_digests_every_line_and_withholds_an_erratum(tmp_path: Path) -> None:
    """The rests are left unparsed and a_2's first move (named by an erratum) is withheld, in the parse
    itself: the digest is that of every event line's bytes (the header's aside), the same as a read of
    every line; the pass counts a_2's one other move (4 moves, 2 alive at each), the 20 match ticks."""
    lines = _renumbered(_with_rests())
    withheld = next(orjson.loads(line)["id"] for line in lines
                    if orjson.loads(line)["type"] == "move" and orjson.loads(line)["agentId"] == "a_2")
    erratum = [{"id": "E1", "text": "never happened", "events": [withheld], "scoresDepend": False}]
    path = _stream_of(tmp_path / "m.jsonl", lines, archive(AGENTS, ended=20, errata=erratum))
    read = read_match(open_match(str(path)))
    whole = Spans()
    replay(read.events(), read.archive, [whole])
    assert read.verbatim and read.stats.excluded_by_errata == [withheld]
    every = _halves._replay_aside(read, open_match(str(path)), {"aside": Spans()}, True)
    group = {"aside": Spans()}
    digest, passes, skipped = _halves._replay_aside(read, open_match(str(path)), group, True,
                                                    _halves._skipped_tails(group.values(), read.archive))
    assert digest == every[0] == hashlib.sha256(b"".join(line + b"\n" for line in lines)).hexdigest()
    assert (skipped, every[2]) == (3, 0)
    left = passes["aside"]
    assert (left.moves, left.alive_seen, left.closed) == (whole.moves, whole.alive_seen, whole.closed) \
        == ({"a_1": 3, "a_2": 1}, 8, 20)

_LOADED_AT_REPLAY = """
import sys
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.replay import analysis
from daishi_forensics.report.passes import analyze
seen = []
replay_in_halves = analysis.replay_in_halves
def spy(*args, **kwargs):
    seen.append("daishi_forensics.injection.summary" in sys.modules)
    return replay_in_halves(*args, **kwargs)
analysis.replay_in_halves = spy
analyze(read_match(open_match(sys.argv[1])), early=sys.argv[2] == "early")
print(seen)
"""


@pytest.mark.parametrize(("early", "loaded"), [("early", "[True]"), ("late", "[False]")])
def test_the_behavior_reports_analysis_loads_what_warm_needs_before_the_replay(early: str, loaded: str) -> None:
    """With ``early`` (the behavior report) the propagation's modules are loaded before the replay forks
    a child, which then finds them loaded; otherwise they are not loaded for it (a fresh interpreter)."""
    import subprocess
    import sys

    demo = Path(__file__).resolve().parents[1] / "forensics" / "demo" / "m_demo.jsonl.gz"
    proc = subprocess.run([sys.executable, "-c", _LOADED_AT_REPLAY, str(demo), early], capture_output=True,
                          text=True, timeout=120, check=True)
    assert proc.stdout.strip() == loaded


@pytest.mark.parametrize(("files", "expected"), [
    ({"cpu.max": "max 100000\n"}, None),
    ({"cpu.max": "150000 100000\n"}, 1.5),
    ({"cpu.max": "200000 100000\n"}, 2.0),
    ({"cpu.max": "garbage\n"}, None),
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
    ({"cpu/cpu.cfs_quota_us": "100000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 1.0),
    ({"cpu,cpuacct/cpu.cfs_quota_us": "350000\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"}, 3.5),
    ({"cpu/cpu.cfs_quota_us": "100000\n"}, None),  # no period: unreadable, no quota
    ({}, None),
], ids=["v2 no quota", "v2 1.5", "v2 2", "v2 unreadable", "v1 no quota", "v1 1", "v1 cpuacct 3.5", "v1 half",
        "no cgroup"])
def test_a_control_groups_cpu_quota_is_read(tmp_path: Path, files: dict[str, str], expected: float | None) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="ascii")
    assert forking.quota_cpus(tmp_path) == expected


@pytest.mark.parametrize(("quota", "expected"), [(None, 2), (1.0, 1), (1.5, 1), (0.5, 1), (2.0, 2), (8.0, 2)])
def test_the_cpus_a_process_may_use_are_its_affinity_within_its_quota(
        monkeypatch: pytest.MonkeyPatch, quota: float | None, expected: int) -> None:
    """Two CPUs to run on; a quota of less than two whole CPUs leaves one (no second process), and one
    above the affinity adds none."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(forking, "quota_cpus", lambda root=forking.CGROUP: quota)
    monkeypatch.delenv(ENV, raising=False)
    assert forking.cpus() == expected
    assert allowed(True) is (expected >= 2)


def test_a_gzip_file_counts_what_it_inflates_to_for_the_split(tmp_path: Path) -> None:
    """The split rule weighs the bytes a read parses: a gzip file's inflated size (its trailer), never
    less than the file's own; a plain file its size."""
    import gzip

    text = b'{"a": 1}\n' * 100_000  # 900,000 bytes, which compress to a few kilobytes
    plain, packed = tmp_path / "m.jsonl", tmp_path / "m.jsonl.gz"
    plain.write_bytes(text)
    packed.write_bytes(gzip.compress(text))
    assert parse_bytes(str(plain)) == len(text)
    assert packed.stat().st_size < 10_000 and parse_bytes(str(packed)) == len(text)
    short = tmp_path / "short.gz"
    short.write_bytes(b"\x1f\x8b")  # too short for a trailer: its own size (the read boundary refuses it)
    assert parse_bytes(str(short)) == 2
