"""The season's local pool: guided chunks, every item answered once by a worker, a dead worker's items
failed, the workers' CPU clocks; workers forked from the season's own process when it holds the job's
modules and runs no other thread, else from a fork server, with the same bytes either way."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import orjson
import pytest

from daishi_forensics.batch.pool import PoolCpu, chunk_size, forks_here, map_chunks, start_pool
from daishi_forensics.batch.season import expand_targets, run_season

from .test_season import build_season, files_of


def _square(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _die_on_7(n: int) -> tuple[int, int]:
    if n == 7:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n, os.getpid()


def test_chunks_shrink_to_one_item_at_the_end() -> None:
    # 2 workers, ceil(left / 8) capped at 4: 44 chunks of 4 (200 -> 24), 3 of 3 (-> 15), 4 of 2 (-> 7), 7 of 1
    sizes = []
    left = 200
    while left:
        sizes.append(chunk_size(left, 2))
        left -= sizes[-1]
    assert sizes == [4] * 44 + [3] * 3 + [2] * 4 + [1] * 7  # 58 round trips for 200 items


def test_every_item_is_answered_once_by_a_worker() -> None:
    pool = start_pool(2, ["json"])
    cpu = PoolCpu()
    try:
        answers = list(map_chunks(pool, 2, _square, list(range(40)), cpu))
    finally:
        pool.shutdown(wait=True)
    assert sorted(item for item, _ in answers) == list(range(40))
    assert all(answer[0] == item * item for item, answer in answers)  # type: ignore[index]
    workers = {answer[1] for _, answer in answers}  # type: ignore[index]
    assert os.getpid() not in workers and set(cpu.by_worker) == workers and 1 <= len(workers) <= 2
    assert cpu.seconds > 0


def test_a_dead_worker_fails_its_chunk_and_what_was_left() -> None:
    pool = start_pool(2, ["json"])
    try:
        answers = dict(map_chunks(pool, 2, _die_on_7, list(range(20)), PoolCpu()))
    finally:
        pool.shutdown(wait=True)
    assert sorted(answers) == list(range(20))  # nothing dropped
    assert isinstance(answers[7], BrokenProcessPool)
    done = [n for n, a in answers.items() if not isinstance(a, BaseException)]
    assert all(answers[n][0] == n * n for n in done)  # type: ignore[index]
    assert all(isinstance(answers[n], BrokenProcessPool) for n in range(20) if n not in done)


def _where(target: str, options: Any) -> dict[str, Any]:
    """A job that says which process ran it and that process's parent."""
    return {"exitCode": 0, "pid": os.getpid(), "parent": os.getppid(),
            "inWorker": multiprocessing.parent_process() is not None}


def test_workers_fork_here_only_with_no_other_thread() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not forks_here()  # a fork would copy only this thread
    finally:
        stop.set()
        other.join()


_SEASON_IN_A_FRESH_PROCESS = """
import os, sys, threading
from daishi_forensics.batch import season
from daishi_forensics.batch.pool import forks_here
from tests.test_season_pool import _where

if __name__ == "__main__":
    folder, out, threaded = sys.argv[1], sys.argv[2], sys.argv[3] == "threaded"
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    if threaded:
        other.start()
    print(os.getpid(), forks_here())
    targets = season.expand_targets([folder])
    season.run_season(targets, season.Job("where", _where, lambda options: "1"), out + "-where", workers=2)
    season.run_season(targets, "behavior", out, workers=2)
    stop.set()
"""


def _season_in_a_fresh_process(folder: Path, out: Path, threaded: bool) -> tuple[int, bool]:
    """Run a ``where`` season and a behavior season with 2 workers in a fresh interpreter (none of this
    test session's threads), with a second thread running or not; its pid and whether it forks itself."""
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, "-c", _SEASON_IN_A_FRESH_PROCESS, str(folder), str(out),
                          "threaded" if threaded else "alone"], cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
                         capture_output=True, text=True, timeout=300, check=True)
    pid, here = run.stdout.split()
    return int(pid), here == "True"


def test_the_season_forks_its_workers_itself_unless_another_thread_runs_with_the_same_bytes(tmp_path: Path) -> None:
    folder = build_season(tmp_path / "matches")
    run_season(expand_targets([str(folder)]), "behavior", tmp_path / "one", workers=1)
    for threaded in (False, True):
        out = tmp_path / ("threaded" if threaded else "alone")
        pid, here = _season_in_a_fresh_process(folder, out, threaded)
        assert here is not threaded
        where = sorted((tmp_path / f"{out.name}-where").glob("matches/*"))
        ran = [orjson.loads(p.read_bytes())["result"] for p in where]
        assert len(ran) == 5 and all(r["inWorker"] and r["pid"] != pid for r in ran)
        # forked from the season's process itself, or from the fork server it started
        assert all((r["parent"] == pid) is not threaded for r in ran)
        assert files_of(out) == files_of(tmp_path / "one")


_ORPHAN = r"""
import os, signal, sys, threading, time
from daishi_forensics.batch.pool import start_pool
if sys.argv[1] == "thread":  # beside another thread: the workers come from a fork server
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
pool = start_pool(2, [])
pids = {pool.submit(os.getpid).result() for _ in range(8)}
futures = [pool.submit(time.sleep, 30) for _ in range(2)]
time.sleep(0.5)
print(" ".join(map(str, sorted(pids))), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # as a kill the season cannot handle
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
@pytest.mark.parametrize("how", ["fork", "thread"])
def test_workers_end_with_a_season_killed_mid_match(how: str) -> None:
    done = subprocess.run([sys.executable, "-c", _ORPHAN, how], capture_output=True, text=True, timeout=20)
    assert done.returncode == -signal.SIGKILL, done.stderr
    pids = [int(pid) for pid in done.stdout.split()]
    assert pids
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in pids)
