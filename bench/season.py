"""Benchmark: a season of simulated matches through the season runner.

Prints, measured in this one run on this machine:
  matches per second at 1 worker (in this process) and at 2 workers (a local
  process pool), and the ratio (2 workers / 1 worker);
  the same season on a Dask ``distributed`` cluster of 2 worker processes on loopback
  (started before the clock, as an existing engine would be), and its overhead
  against the local pool;
  whether the three runs wrote the same bytes.
Every run starts from an empty output folder (nothing resumed); worker start-up is
inside the clock for the pool (it is part of every run) and outside it for the cluster.
Each way runs ROUNDS times in alternating order (1, pool, cluster, cluster, pool, 1, ...)
and the best time counts, so that load from elsewhere on a shared machine drifting
during the run does not favour one way.  A calibration line first says how much of a
second CPU this machine gives right now: a pure Python loop in 2 processes against 1.

Usage: python bench/season.py [MATCHES] [TICKS] [JOB] [ROUNDS]   (default 200 100 behavior 2)
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE  # noqa: E402


def simulated_season(matches: int, ticks: int) -> Path:
    """``matches`` simulated streams (every scenario in turn, 8 players), cached."""
    from daishi_forensics.simulate import SCENARIOS, simulate_to_dir

    out = CACHE / f"season-{matches}-{ticks}"
    if out.exists() and len(list(out.glob("m_*.jsonl"))) == matches:
        return out
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    started = time.perf_counter()
    for i in range(matches):
        simulate_to_dir(SCENARIOS[i % len(SCENARIOS)], 1000 + i, 3, out, "stream", truth_file=None, ticks=ticks)
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
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver")) as pool:
        list(pool.map(burn, [10]))  # workers up before the clock
        started = time.perf_counter()
        list(pool.map(burn, [3_000_000] * 4))
        two = time.perf_counter() - started
    return one / two


def timed(targets: list[str], job: str, out: Path, **how: object) -> tuple[float, dict[str, int]]:
    from daishi_forensics.batch.season import run_season

    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    result = run_season(targets, job, out, resume=False, **how)  # type: ignore[arg-type]
    return time.perf_counter() - started, result.summary["counts"]


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    ticks = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    job = sys.argv[3] if len(sys.argv) > 3 else "behavior"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    import dask
    from distributed import LocalCluster

    from daishi_forensics.batch.season import expand_targets

    folder = simulated_season(matches, ticks)
    targets = expand_targets([str(folder)])
    size = sum(p.stat().st_size for p in folder.glob("m_*.jsonl"))
    print(f"season: {len(targets)} matches of {ticks} ticks ({size / 1e6:.0f} MB of JSON lines), job {job}, "
          f"{os.cpu_count()} CPUs, best of {rounds}")
    print(f"calibration: a CPU-bound loop in 2 processes runs {calibration():.2f}x as fast as in 1")
    work = Path(tempfile.mkdtemp(prefix="daishi-season-bench-"))
    multiprocessing.set_forkserver_preload(["distributed"])
    started = time.perf_counter()
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
    print(f"(Dask cluster of 2 worker processes up in {time.perf_counter() - started:.1f} s, outside the clock)")
    ways: dict[str, dict[str, object]] = {
        "1 worker (in process)": {"workers": 1},
        "2 workers (process pool)": {"workers": 2},
        "2 workers (Dask cluster)": {"cluster": cluster.scheduler_address},
    }
    best: dict[str, float] = {}
    counts: dict[str, dict[str, int]] = {}
    try:
        order = list(ways)
        for r in range(rounds):
            for label in order if r % 2 == 0 else reversed(order):
                seconds, counts[label] = timed(targets, job, work / label.split()[0] / label.split()[-1][:-1],
                                               **ways[label])
                best[label] = min(best.get(label, seconds), seconds)
        for label in order:
            print(f"{label:<28} {best[label]:7.2f} s  {len(targets) / best[label]:7.2f} matches/s  "
                  f"(counts {counts[label]})")
        one, two, on_cluster = (best[label] for label in order)
        print(f"ratio 2 workers / 1 worker:        {one / two:.2f}x")
        print(f"cluster overhead vs local pool:    {on_cluster / two - 1:+.1%} "
              f"({on_cluster - two:+.2f} s over {len(targets)} matches)")
        outs = sorted(p for p in work.glob("*/*") if p.is_dir())
        same = all(files_of(outs[0]) == files_of(o) for o in outs[1:])
        print(f"same bytes from all three ways:    {'yes' if same else 'NO'}")
    finally:
        cluster.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
