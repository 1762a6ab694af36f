"""Benchmark: ``behavior --format json`` end to end on a 1,000,000-event stream (issue 3).

Prints, measured in this one run:
  (floor)  a plain-Python loop that only parses each line with json.loads
  (ours)   `daishi-forensics behavior FILE --format json` in a fresh process:
           events per second and peak memory (ru_maxrss)
  the ratio ours/floor (target: within 3x) and, to show memory grows with agents and
  pairs rather than with events, the peak memory on a quarter of the match beside the
  whole one (target: peak < 500 MB).

On a second core, forked children build the report's screens and injection sections while
this process builds the rest (``report/_aside.py``); the output is the same bytes either way.  So that nothing is hidden, the CPU
seconds of all processes and the children's peak memory are printed too, and the run is
repeated with the second core's help switched off (``DAISHI_FORENSICS_PARALLEL=0``).

Each way runs ROUNDS times, interleaved, and the best time of each counts.

Usage: python bench/behavior.py [EVENTS] [ROUNDS]   (default 1000000 2)
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
import json, resource, sys, time
from daishi_forensics.report.behavior import behavior
from daishi_forensics.jsonio import dumps
started = time.perf_counter()
report = behavior(sys.argv[1]).report
text = dumps(report)
elapsed = time.perf_counter() - started
me, helper = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"records": report["source"]["records"], "seconds": elapsed, "bytes": len(text),
                  "seats": len(report["seats"]), "pairs": len(report["ledger"]["pairs"]),
                  "cpu": me.ru_utime + me.ru_stime, "helper_cpu": helper.ru_utime + helper.ru_stime,
                  "peak_mb": me.ru_maxrss / 1024, "helper_peak_mb": helper.ru_maxrss / 1024}))
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


def ours(path: Path, read_ahead: bool = True) -> dict:
    env = {**os.environ, "DAISHI_FORENSICS_PARALLEL": "1" if read_ahead else "0"}
    proc = subprocess.run([sys.executable, "-c", OURS, str(path)], capture_output=True, text=True, check=True,
                          env=env)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    quarter = simulated_stream(events // 4)
    whole = simulated_stream(events)
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    # Each way runs `rounds` times, interleaved (floor, ours, alone, floor, ...), and the best time
    # of each counts: a shared machine's load drifting during the run favours none of them.
    floors, bigs, alones = [], [], []
    for _ in range(rounds):
        floors.append(floor_seconds(whole))
        bigs.append(ours(whole))
        alones.append(ours(whole, read_ahead=False))
    n, floor = min(floors, key=lambda f: f[1])
    big = min(bigs, key=lambda r: r["seconds"])
    alone = min(alones, key=lambda r: r["seconds"])
    small = ours(quarter)
    print(f"match: {whole.name}, {n:,} events, {big['seats']} seats, {big['pairs']} trading pairs; "
          f"best of {rounds} interleaved runs each")
    print(f"floor  json.loads only      {n / floor:>12,.0f} events/s  ({floor:.1f} s)")
    print(f"ours   behavior --format json {big['records'] / big['seconds']:>10,.0f} events/s  ({big['seconds']:.1f} s)")
    print(f"ratio  ours time / floor    {big['seconds'] / floor:>12.2f}x   (target <= 3x)")
    print(f"cpu    all processes        {big['cpu'] + big['helper_cpu']:>12.1f} s   "
          f"(this process {big['cpu']:.1f} s; on the second core {big['helper_cpu']:.1f} s: schema checks, "
          f"the promises pass, the screens and injection sections)")
    print(f"alone  one core only        {alone['records'] / alone['seconds']:>12,.0f} events/s  "
          f"({alone['seconds']:.1f} s, ratio {alone['seconds'] / floor:.2f}x)")
    print(f"peak   memory, whole match  {big['peak_mb']:>12,.0f} MB  (target < 500 MB; "
          f"the largest child's peak {big['helper_peak_mb']:,.0f} MB)")
    print(f"peak   memory, 1/4 match    {small['peak_mb']:>12,.0f} MB  ({small['records']:,} events): "
          f"growth {big['peak_mb'] - small['peak_mb']:,.0f} MB for {big['records'] - small['records']:,} more events")


if __name__ == "__main__":
    main()
