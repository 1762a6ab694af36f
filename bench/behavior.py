"""Benchmark: ``behavior --format json`` end to end on a 1,000,000-event stream (issue 3).

Prints, measured in this one run:
  (floor)  a plain-Python loop that only parses each line with json.loads
  (ours)   `daishi-forensics behavior FILE --format json` in a fresh process:
           events per second and peak memory (ru_maxrss)
  the ratio ours/floor (target: within 3x) and, to show memory grows with agents and
  pairs rather than with events, the peak memory on a quarter of the match beside the
  whole one (target: peak < 500 MB).

Usage: python bench/behavior.py [EVENTS]
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import simulated_stream  # noqa: E402

OURS = """
import json, resource, sys, time
from daishi_forensics.behavior import behavior
from daishi_forensics.jsonio import dumps
started = time.perf_counter()
report = behavior(sys.argv[1]).report
text = dumps(report)
elapsed = time.perf_counter() - started
print(json.dumps({"records": report["source"]["records"], "seconds": elapsed, "bytes": len(text),
                  "seats": len(report["seats"]), "pairs": len(report["ledger"]["pairs"]),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
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


def ours(path: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", OURS, str(path)], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    quarter = simulated_stream(events // 4)
    whole = simulated_stream(events)
    n, floor = floor_seconds(whole)
    small = ours(quarter)
    big = ours(whole)
    print(f"match: {whole.name}, {n:,} events, {big['seats']} seats, {big['pairs']} trading pairs")
    print(f"floor  json.loads only      {n / floor:>12,.0f} events/s  ({floor:.1f} s)")
    print(f"ours   behavior --format json {big['records'] / big['seconds']:>10,.0f} events/s  ({big['seconds']:.1f} s)")
    print(f"ratio  ours time / floor    {big['seconds'] / floor:>12.2f}x   (target <= 3x)")
    print(f"peak   memory, whole match  {big['peak_mb']:>12,.0f} MB  (target < 500 MB)")
    print(f"peak   memory, 1/4 match    {small['peak_mb']:>12,.0f} MB  ({small['records']:,} events): "
          f"growth {big['peak_mb'] - small['peak_mb']:,.0f} MB for {big['records'] - small['records']:,} more events")


if __name__ == "__main__":
    main()
