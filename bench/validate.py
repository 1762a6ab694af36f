"""Benchmark: parse + validate + upcast of a 1,000,000-event v3 stream.

Prints, measured in this one run on this machine:
  (floor)  a loop that only runs json.loads on each line
  (plain)  json.loads + jsonschema.Draft202012Validator per event type (on a sample:
           it is ~100x slower, so the first N events are timed and the rate extrapolated)
  (ours)   daishi-forensics' read boundary (orjson + jsonschema-rs fast path + upcast),
           in a fresh process, with its peak memory
and the ratios: ours / plain (target >= 50x) and ours vs floor (target: within 2x).

Usage: python bench/validate.py [EVENTS] [PLAIN_SAMPLE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import compiled_bytecode, run_measured, simulated_stream  # noqa: E402

OURS = """
import json, resource, sys, time
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
t = time.perf_counter()
read = read_match(open_match(sys.argv[1]))
n = 0
for _ in read.events():
    n += 1
elapsed = time.perf_counter() - t
print(json.dumps({"records": read.stats.records, "invalid": read.stats.invalid, "seconds": elapsed,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def floor_rate(path: Path) -> tuple[int, float]:
    started = time.perf_counter()
    n = 0
    with open(path, "rb") as handle:
        handle.readline()
        for line in handle:
            json.loads(line)
            n += 1
    return n, n / (time.perf_counter() - started)


def plain_rate(path: Path, sample: int) -> float:
    import jsonschema

    from daishi_forensics import schemas

    registry = schemas.registry()
    validators = {t: jsonschema.Draft202012Validator(schemas.load(f"event/{t}"), registry=registry)
                  for t in schemas.event_types()}
    started = time.perf_counter()
    n = 0
    with open(path, "rb") as handle:
        handle.readline()
        for line in handle:
            event = json.loads(line)
            validators[event["type"]].is_valid(event)
            n += 1
            if n >= sample:
                break
    return n / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", nargs="?", type=int, default=1_000_000, help="events in the stream (default 1,000,000)")
    parser.add_argument("plain_sample", nargs="?", type=int, default=20_000,
                        help="events the plain jsonschema loop times (default 20,000)")
    args = parser.parse_args()
    events, sample = args.events, args.plain_sample
    print(compiled_bytecode())
    path = simulated_stream(events)
    size_mb = path.stat().st_size / 1e6
    n, floor = floor_rate(path)
    plain = plain_rate(path, sample)
    ours = run_measured(OURS, str(path))
    rate = ours["records"] / ours["seconds"]
    print(f"match: {path.name}, {n:,} events, {size_mb:,.0f} MB")
    print(f"floor  json.loads only          {floor:>12,.0f} events/s")
    print(f"plain  json.loads + jsonschema  {plain:>12,.0f} events/s  (first {sample:,} events)")
    print(f"ours   parse+validate+upcast    {rate:>12,.0f} events/s  ({ours['invalid']} invalid)")
    print(f"ratio  ours / plain jsonschema  {rate / plain:>12.1f}x   (target >= 50x)")
    print(f"ratio  ours time / floor time   {floor / rate:>12.2f}x   (target <= 2x)")
    print(f"peak   memory (ours, process)   {ours['peak_mb']:>12,.0f} MiB  ({ours['peak_mb'] * 1.048576:,.0f} MB; "
          "target < 300 MB)")


if __name__ == "__main__":
    main()
