"""Benchmark: ``behavior --format json`` end to end on two 1,000,000-event streams (9 and about 100 seats).

Prints, measured in this one run, for each stream:

  floor     a plain-Python loop that only parses each line with ``json.loads``
  two cores ``behavior`` in a fresh process as a user runs it (with a second CPU, the report's
            screens and injection sections are computed in forked children)
  one core  the same pinned to one CPU (``sched_setaffinity``) with the forked sections off
            (``DAISHI_FORENSICS_PARALLEL=0``)
  peak      the largest resident set of the process (and of any child), one core and two
  growth    the peak on a quarter of the match beside the whole one: memory grows with agents
            and pairs, not with events

and the ratios to the floor (targets: two cores <= 2.0x, one core <= 2.5x, peak < 400 MB).
Each way runs ROUNDS times, interleaved (floor, two, one, floor, ...) and the best time of each
counts, so load drifting on a shared machine favours none of them.  Then the profile's top
lines (cProfile, by own time) on a quarter of the 96-seat stream, to show where the time goes.

Usage: python bench/behavior.py [EVENTS] [ROUNDS] [--no-profile]   (default 1000000 2)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import simulated_stream  # noqa: E402

OURS = """
import json, os, resource, sys, time
if os.environ.get("BENCH_ONE_CPU") == "1":
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from daishi_forensics.report.behavior import behavior
from daishi_forensics.jsonio import dumps
started = time.perf_counter()
report = behavior(sys.argv[1]).report
text = dumps(report)
elapsed = time.perf_counter() - started
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"records": report["source"]["records"], "seconds": elapsed, "bytes": len(text),
                  "seats": len(report["seats"]), "pairs": len(report["ledger"]["pairs"]),
                  "cpu": me.ru_utime + me.ru_stime, "children_cpu": kids.ru_utime + kids.ru_stime,
                  "peak_mb": me.ru_maxrss / 1024, "children_peak_mb": kids.ru_maxrss / 1024}))
"""

PROFILE = """
import cProfile, io, os, pstats, sys
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
from daishi_forensics.report.behavior import behavior
from daishi_forensics.jsonio import dumps
profile = cProfile.Profile()
profile.enable()
dumps(behavior(sys.argv[1]).report)
profile.disable()
out = io.StringIO()
pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(int(sys.argv[2]))
print(out.getvalue())
"""


def floor_seconds(path: Path) -> tuple[int, float]:
    started = time.perf_counter()
    n = 0
    with open(path, "rb") as handle:
        handle.readline()
        for line in handle:
            json.loads(line)
            n += 1
    return n, time.perf_counter() - started


def ours(path: Path, one_cpu: bool) -> dict:
    env = {**os.environ, "DAISHI_FORENSICS_PARALLEL": "0" if one_cpu else "", "BENCH_ONE_CPU": "1" if one_cpu else "0"}
    proc = subprocess.run([sys.executable, "-c", OURS, str(path)], capture_output=True, text=True, check=True,
                          env=env)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_stream(events: int, agents: int | None, rounds: int) -> None:
    whole = simulated_stream(events, agents=agents)
    quarter = simulated_stream(events // 4, agents=agents)
    floors, twos, ones = [], [], []
    for _ in range(rounds):
        floors.append(floor_seconds(whole))
        twos.append(ours(whole, one_cpu=False))
        ones.append(ours(whole, one_cpu=True))
    n, floor = min(floors, key=lambda f: f[1])
    two = min(twos, key=lambda r: r["seconds"])
    one = min(ones, key=lambda r: r["seconds"])
    small = ours(quarter, one_cpu=True)
    print(f"== {whole.name}: {n:,} events, {two['seats']} seats, {two['pairs']} trading pairs; "
          f"best of {rounds} interleaved runs each")
    print(f"floor      json.loads only   {n / floor:>10,.0f} events/s  ({floor:.1f} s; every floor run: "
          + ", ".join(f"{f:.1f}" for _, f in floors) + " s)")
    print(f"two cores  behavior          {two['records'] / two['seconds']:>10,.0f} events/s  ({two['seconds']:.1f} s)  "
          f"ratio {two['seconds'] / floor:.2f}x  (target <= 2.0x)")
    print(f"one core   behavior          {one['records'] / one['seconds']:>10,.0f} events/s  ({one['seconds']:.1f} s)  "
          f"ratio {one['seconds'] / floor:.2f}x  (target <= 2.5x)")
    print(f"cpu        two cores         {two['cpu'] + two['children_cpu']:>10.1f} s  (this process {two['cpu']:.1f} s, "
          f"forked sections {two['children_cpu']:.1f} s)")
    print(f"peak       one core          {one['peak_mb']:>10,.0f} MB  (target < 400 MB); two cores {two['peak_mb']:,.0f} MB, "
          f"largest child {two['children_peak_mb']:,.0f} MB (mostly pages shared with the parent)")
    print(f"growth     1/4 match         {small['peak_mb']:>10,.0f} MB at {small['records']:,} events: "
          f"{one['peak_mb'] - small['peak_mb']:+,.0f} MB for {one['records'] - small['records']:,} more events")
    print()


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    events = int(args[0]) if args else 1_000_000
    rounds = int(args[1]) if len(args) > 1 else 2
    for agents in (None, 96):  # the simulator's default (8 players and a probe seat), and 96 players
        bench_stream(events, agents, rounds)
    if "--no-profile" not in sys.argv:
        quarter = simulated_stream(events // 4, agents=96)
        print(f"== where the time goes: cProfile on {quarter.name} (one core, by own time; cProfile itself "
              "slows small calls, so read it for ranks, not seconds)")
        proc = subprocess.run([sys.executable, "-c", PROFILE, str(quarter), "25"], capture_output=True, text=True,
                              check=True)
        lines = proc.stdout.splitlines()
        start = next((k for k, line in enumerate(lines) if "ncalls" in line), 0)
        print("\n".join(lines[start:start + 27]))


if __name__ == "__main__":
    main()
