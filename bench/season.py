"""Benchmark: a season of simulated matches through the season runner.

Prints, measured in this one run on this machine:
  matches per second at 1 worker (in this process) and at 2 workers (a local process pool), and
  the ratio (2 workers / 1 worker).  This process imports every module a job needs and builds
  what it builds once per process (the secrets scanner's engine) before the clock; the 1-worker
  runs use them, and the pool's workers are forked from this process with them: neither way pays
  an import inside the clock.  What the package memoises as it runs
  matches (a message text's tier...) is emptied before every run, so that no run, and no worker
  forked from here, starts with answers an earlier run computed;
  the same pool started as beside another thread, from a fork server that imports every module a
  job needs inside the clock (each worker forked from it builds the scanner's engine as it
  starts), and its ratio to 1 worker;
  the CPU seconds each way used: this process (the parent: with 1 worker every match, with the
  pool reading the workers' answers and writing the resume keys) with its busy share of the wall
  time (the rest it sleeps, waiting on the workers), the pool's workers (their own clocks) and the
  fork server (its imports), which depend less on what else the machine runs;
  the same season on a Dask ``distributed`` cluster of 2 worker processes on loopback
  (started before the clock, as an existing engine would be, and closed after its run, so
  that its scheduler does not take CPU from the other ways), and its overhead
  against the local pool;
  whether every way wrote the same bytes;
  the same 1 worker / 2 workers ratio as whole commands (``daishi-forensics season
  behavior DIR --out OUT -j N -q``), each a fresh process that imports everything itself
  (with 2 workers it imports the job's modules and forks its workers), as a user runs it (one round);
  the load average before and after.
Every run starts from an empty output folder (nothing resumed).
Each local way runs ROUNDS times in alternating order (1, pool, fork server, fork server, pool,
1, ...) and the best time counts, so that load from elsewhere on a shared machine drifting
during the run does not favour one way; the cluster's ROUNDS runs come after them (a Dask
client leaves a thread running in this process, beside which a pool would start from a fork
server).  A calibration line first says how much of a
second CPU this machine gives right now: a pure Python loop in 2 processes against 1.

Usage: python bench/season.py [MATCHES] [TICKS] [JOB] [ROUNDS] [COLD] [SEED]
(default 200 100 behavior 2 1 1000; COLD 0 skips the whole commands; SEED 1000 is the season the pool
was tuned on, SEED 5000 the one kept apart for reporting)
"""

from __future__ import annotations

import argparse
import functools
import gc
import importlib
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE, compiled_bytecode  # noqa: E402

CACHES: list[functools._lru_cache_wrapper] = []  # type: ignore[type-arg]  # noqa: SLF001
"""The package's memoised functions a run fills (:func:`run_caches`), emptied before every run."""


TUNE_SEED = 1000
"""First seed of the season the pool was tuned on (the default)."""
REPORT_SEED = 5000
"""First seed of a season kept apart for reporting (``SEED 5000``): not run while tuning."""
SPLITS = {TUNE_SEED: "the tune split", REPORT_SEED: "the report split"}


def simulated_season(matches: int, ticks: int, first_seed: int = TUNE_SEED) -> Path:
    """``matches`` simulated streams (every scenario in turn, 8 players; seeds from ``first_seed``), cached."""
    from daishi_forensics.simulate import SCENARIOS, simulate_to_dir

    name = f"season-{matches}-{ticks}" if first_seed == TUNE_SEED else f"season-{matches}-{ticks}-s{first_seed}"
    out = CACHE / name
    if out.exists() and len(list(out.glob("m_*.jsonl"))) == matches:
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    started = time.perf_counter()
    for i in range(matches):
        simulate_to_dir(SCENARIOS[i % len(SCENARIOS)], first_seed + i, 3, out, "stream", truth_file=None,
                        ticks=ticks)
    print(f"(simulated {matches} matches in {time.perf_counter() - started:.1f} s: {out})", file=sys.stderr)
    return out


def files_of(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def calibration() -> float:
    """Speed-up of a CPU-bound loop in 2 processes against 1 (2.0 on two idle cores)."""
    from concurrent.futures import ProcessPoolExecutor

    started = time.perf_counter()
    for _ in range(4):
        burn(3_000_000)
    one = time.perf_counter() - started
    # spawn, not the fork server: a fork server started here, without the season's imports, would be
    # the one every pool below forks from
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(burn, [10]))  # workers up before the clock
        started = time.perf_counter()
        list(pool.map(burn, [3_000_000] * 4))
        two = time.perf_counter() - started
    return one / two


def stop_fork_server() -> float:
    """Stop this process's fork server, if one runs, so that the next pool starts its own (with the
    season's imports, inside the clock, as in every command); the CPU seconds it used."""
    from multiprocessing import forkserver

    server = forkserver._forkserver  # noqa: SLF001 - the standard library keeps it private
    pid = server._forkserver_pid  # noqa: SLF001
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    server._stop()  # noqa: SLF001
    return seconds


def run_caches() -> list[functools._lru_cache_wrapper]:  # type: ignore[type-arg]
    """The package's memoised functions still empty once its modules are imported: what a process fills
    as it runs matches (a message text's tier, a seat's subset-sum tails...)."""
    return [f for f in gc.get_objects() if isinstance(f, functools._lru_cache_wrapper)  # noqa: SLF001
            and str(getattr(f, "__module__", "")).startswith("daishi_forensics") and f.cache_info().currsize == 0]


def timed(targets: list[str], job: str, out: Path, fork_server: bool = False,
          **how: object) -> tuple[float, dict[str, int], dict[str, float], str]:
    """Seconds, counts, CPU seconds (parent, workers, fork server) of one season and how its pool
    started; ``fork_server``: the pool from a fork server even where this process could fork it."""
    from daishi_forensics.batch import pool as pool_module
    from daishi_forensics.batch import season

    shutil.rmtree(out, ignore_errors=True)
    pool = "workers" in how and int(how["workers"]) > 1  # type: ignore[call-overload]
    if pool:
        stop_fork_server()
    for memo in CACHES:  # every run starts as a fresh process does: a pool forked from here inherits no answer
        memo.cache_clear()
    forks_here = pool_module.forks_here
    if fork_server:
        pool_module.forks_here = lambda: False  # as a caller running other threads starts it
    try:
        started = ("forked from this process" if pool_module.forks_here()
                   else "forked from a fork server") if pool else "no pool"
        cpu = time.process_time()
        begun = time.perf_counter()
        result = season.run_season(targets, job, out, resume=False, **how)  # type: ignore[arg-type]
        seconds = time.perf_counter() - begun
    finally:
        pool_module.forks_here = forks_here
    used = {"parent": time.process_time() - cpu, "workers": result.worker_cpu or 0.0,
            "fork server": stop_fork_server() if pool else 0.0}
    return seconds, result.summary["counts"], used, started


def command(folder: Path, job: str, out: Path, workers: int) -> tuple[float, float]:
    """Seconds and CPU seconds of one whole ``daishi-forensics season`` command: this process's child with
    every process it reaped (its workers forked from it; not a fork server's workers)."""
    shutil.rmtree(out, ignore_errors=True)
    code = "import sys; from daishi_forensics.cli import main; sys.exit(main())"
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, "season", job, str(folder), "--out", str(out),
                              "-j", str(workers), "-q"])
    _pid, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"season command failed with exit code {child.returncode}")
    return seconds, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("matches", nargs="?", type=int, default=200, help="matches in the season (default 200)")
    parser.add_argument("ticks", nargs="?", type=int, default=100, help="ticks per match (default 100)")
    parser.add_argument("job", nargs="?", default="behavior", help="the season job (default behavior)")
    parser.add_argument("rounds", nargs="?", type=int, default=2, help="runs of each way, best kept (default 2)")
    parser.add_argument("cold", nargs="?", type=int, default=1,
                        help="1: also time the whole commands in fresh processes; 0: skip them (default 1)")
    parser.add_argument("first_seed", nargs="?", type=int, default=TUNE_SEED,
                        help=f"the first match's seed (default {TUNE_SEED})")
    args = parser.parse_args()
    matches, ticks, job, rounds = args.matches, args.ticks, args.job, args.rounds
    cold, first_seed = args.cold > 0, args.first_seed
    print(compiled_bytecode())
    import dask
    from distributed import LocalCluster

    from daishi_forensics.batch.season import _PRELOAD, _warm_up, expand_targets

    folder = simulated_season(matches, ticks, first_seed)
    targets = expand_targets([str(folder)])
    size = sum(p.stat().st_size for p in folder.glob("m_*.jsonl"))
    print(f"season: {len(targets)} matches of {ticks} ticks ({size / 1e6:.0f} MB of JSON lines), job {job}, "
          f"{os.cpu_count()} CPUs, best of {rounds}; seeds from {first_seed} "
          f"({SPLITS.get(first_seed, 'ad hoc')})")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print(f"calibration: a CPU-bound loop in 2 processes runs {calibration():.2f}x as fast as in 1")
    begun = time.perf_counter()
    for module in _PRELOAD:  # outside the clock, as a caller holding the report would have them
        importlib.import_module(module)
    _warm_up()  # the secrets scanner's engine: each way would build it once here, on its first run
    CACHES.extend(run_caches())
    print(f"(the job's modules imported and its warm-up run in {time.perf_counter() - begun:.2f} s, outside the clock; "
          f"{len(CACHES)} memoised functions emptied before each run)")
    work = Path(tempfile.mkdtemp(prefix="daishi-season-bench-"))
    ways: dict[str, dict[str, object]] = {
        "1 worker (in process)": {"workers": 1},
        "2 workers (process pool)": {"workers": 2},
        "2 workers (pool, fork server)": {"workers": 2, "fork_server": True},
        "2 workers (Dask cluster)": {"cluster": None},
    }
    best: dict[str, float] = {}
    counts: dict[str, dict[str, int]] = {}
    cpu: dict[str, dict[str, float]] = {}
    starts: dict[str, set[str]] = {}
    order = list(ways)
    local = [label for label in order if "cluster" not in ways[label]]
    # the local ways alternate round by round, then the cluster's rounds: a Dask client leaves a thread
    # running in this process, beside which a pool no longer forks its workers from here
    schedule = [label for r in range(rounds) for label in (local if r % 2 == 0 else local[::-1])]
    schedule += [label for label in order if label not in local] * rounds
    for label in schedule:
        out = work / label.split()[0] / label.split()[-1][:-1]
        if "cluster" in ways[label]:
            # up only for its own runs (its scheduler and idle workers use CPU), before the clock;
            # spawned, not forked from this process's fork server: its children would keep that
            # server alive, and each pool run stops it to start its own
            begun = time.perf_counter()
            with dask.config.set({"distributed.worker.multiprocessing-method": "spawn"}):
                cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
            print(f"(Dask cluster of 2 worker processes up in {time.perf_counter() - begun:.1f} s, "
                  "outside the clock)")
            try:
                seconds, counts[label], used, started = timed(targets, job, out,
                                                              cluster=cluster.scheduler_address)
            finally:
                cluster.close()
        else:
            seconds, counts[label], used, started = timed(targets, job, out, **ways[label])
        starts.setdefault(label, set()).add(started)
        if seconds < best.get(label, float("inf")):
            best[label], cpu[label] = seconds, used
            cpu[label]["wall"] = seconds
    for label in order:
        print(f"{label:<30} {best[label]:7.2f} s  {len(targets) / best[label]:7.2f} matches/s  "
              f"(counts {counts[label]}; workers {' and '.join(sorted(starts[label]))})")
    one, two, served, on_cluster = (best[label] for label in order)
    print(f"ratio 2 workers / 1 worker:        {one / two:.2f}x (pool forked from this process), "
          f"{one / served:.2f}x (pool from a fork server, its imports inside the clock)")
    print(f"cluster overhead vs local pool:    {on_cluster / two - 1:+.1%} "
          f"({on_cluster - two:+.2f} s over {len(targets)} matches)")
    for label in order[:3]:
        used = cpu[label]
        print(f"CPU seconds, {label:<29} parent {used['parent']:6.2f} (busy {used['parent'] / used['wall']:4.0%} "
              f"of the wall), workers {used['workers']:6.2f}, fork server {used['fork server']:5.2f} (the best run)")
    outs = sorted(p for p in work.glob("*/*") if p.is_dir())
    same = all(files_of(outs[0]) == files_of(o) for o in outs[1:])
    print(f"same bytes from all {len(outs)} ways:       {'yes' if same else 'NO'}")
    try:
        if cold:
            runs = {n: command(folder, job, work / f"command-{n}", n) for n in (1, 2)}
            print(f"whole commands, fresh processes:   1 worker {runs[1][0]:.2f} s (its CPU {runs[1][1]:.2f} s), "
                  f"2 workers {runs[2][0]:.2f} s (its CPU with its workers' {runs[2][1]:.2f} s): "
                  f"{runs[1][0] / runs[2][0]:.2f}x")
            same = files_of(work / "command-1") == files_of(work / "command-2") == files_of(outs[0])
            print(f"same bytes from the commands:      {'yes' if same else 'NO'}")
        print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
