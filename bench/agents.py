"""Benchmark: cost in agents, against the pairs that actually interact.

A deterministic generator (:func:`idle_match`) writes a v3 stream of ``n`` agents that
spawn at tick 0 and rest for a few ticks, in one of two shapes:

- ``one-region``: every agent in one region, so every pair stands together
  (n(n−1)/2 interacting pairs: the worst case the pair tables must still carry; sizes past
  :data:`MAX_PAIRS` such pairs are skipped);
- ``spread``: each agent alone in its own region of a square map, plus one pair of
  neighbours every hundred agents that trade once (n/100 interacting pairs).

For each size and shape, ``behavior`` (JSON report) and ``screen`` run in a fresh process;
printed: wall and CPU seconds, peak memory, report size, the interacting pairs, and CPU
microseconds per (agent + interacting pair), the figure that must stay flat as n grows.

Usage: python bench/agents.py [SIZES...]   (default 1000 10000 50000)
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import compiled_bytecode, run_measured  # noqa: E402

MATCH_ID = "m_a9e7150c0a11"
REST_TICKS = 6
MAX_PAIRS = 5_000_000
"""A shape whose agents genuinely form more pairs than this is not run: every one of those
pairs met, so its cost is that many pair records (printed as skipped, with the count)."""


def _event(eid: int, tick: int, kind: str, agent: str | None, **payload: Any) -> dict[str, Any]:
    return {"id": eid, "matchId": MATCH_ID, "schemaVersion": 3, "tick": tick, "type": kind, "agentId": agent,
            "createdAtMs": 1_790_000_000_000 + tick * 60_000 + eid, "private": False, "payload": payload}


def idle_match(directory: Path, n: int, shape: str) -> tuple[Path, int]:
    """Write the match; return its path and its number of interacting pairs."""
    side = 1 if shape == "one-region" else math.isqrt(n - 1) + 1
    agents = [f"a_{i:05d}" for i in range(n)]
    region = [f"r_{i % side}_{i // side}" for i in range(n)] if shape == "spread" else ["r_0_0"] * n
    arch = {"matchId": MATCH_ID, "startedAtTick": 0, "endedAtTick": REST_TICKS + 1,
            "config": {"engine_version": "0.5.2", "event_schema_version": 3,
                       "map": {"width": max(side, 2), "height": max(side, 2)}, "season_ticks": REST_TICKS + 1},
            "agents": [{"agentId": a, "seat": i + 1, "name": a, "role": "player"} for i, a in enumerate(agents)]}
    header = {"format": "daishi-match-export", "formatVersion": 1, "matchId": MATCH_ID, "archive": arch}
    lines = [orjson.dumps(header)]
    eid = 0
    for a, r in zip(agents, region):
        eid += 1
        lines.append(orjson.dumps(_event(eid, 0, "agent_spawned", a, region=r)))
    pairs = n * (n - 1) // 2 if shape == "one-region" else 0
    for tick in range(1, REST_TICKS + 1):
        for k, a in enumerate(agents):
            eid += 1
            lines.append(orjson.dumps(_event(eid, tick, "rest", a)))
            if shape == "spread" and tick == 3 and k % 100 == 0 and k + 1 < n:
                b = agents[k + 1]  # a neighbour in the next region: a gift across the border
                trade = {"tradeId": f"t{k}", "from": a, "to": b, "give": {"wood": 1}, "receive": {}}
                lines.append(orjson.dumps(_event(eid + 1, tick, "trade_completed", b, **trade)))
                lines.append(orjson.dumps(_event(eid + 2, tick, "trade_completed", a, **trade)))
                eid += 2
                pairs += 1
    path = directory / f"{MATCH_ID}.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path, pairs


CHILD = """
import json, resource, sys, time
from click.testing import CliRunner
from daishi_forensics.cli import main
t = time.perf_counter()
result = CliRunner().invoke(main, sys.argv[1:])
assert result.exit_code in (0, 1), result.output[-2000:]
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": time.perf_counter() - t, "cpu": u.ru_utime + u.ru_stime, "peak_mb": u.ru_maxrss / 1024,
                  "out_bytes": len(result.output.encode())}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, metavar="SIZE",
                        help="agents per match (default 1000 10000 50000)")
    sizes = parser.parse_args().sizes or [1000, 10_000, 50_000]
    print(compiled_bytecode())
    load = os.getloadavg()[0]
    print(f"load average {load:.2f} on {os.cpu_count()} cores" + (" (machine loaded: compare ratios, not seconds)"
                                                                  if load > 1 else ""))
    print(f"{'shape':<11}{'agents':>7}{'input MB':>9}{'pairs':>10}{'command':>9}{'wall s':>8}{'cpu s':>8}"
          f"{'peak MiB':>9}{'out MB':>8}{'us/(agent+pair)':>16}")
    with tempfile.TemporaryDirectory() as tmp:
        for shape in ("one-region", "spread"):
            for n in sizes:
                if shape == "one-region" and n * (n - 1) // 2 > MAX_PAIRS:
                    print(f"{shape:<11}{n:>7}  skipped: all {n * (n - 1) // 2:,} pairs meet (over {MAX_PAIRS:,})")
                    continue
                folder = Path(tmp) / f"{shape}-{n}"
                folder.mkdir()
                path, pairs = idle_match(folder, n, shape)
                digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
                for command in ("behavior", "screen"):
                    r = run_measured(CHILD, command, str(path), "--format", "json")
                    per = r["cpu"] * 1e6 / (n + pairs)
                    print(f"{shape:<11}{n:>7}{path.stat().st_size / 1e6:>9.1f}{pairs:>10}{command:>9}"
                          f"{r['wall']:>8.1f}{r['cpu']:>8.1f}{r['peak_mb']:>9.0f}{r['out_bytes'] / 1e6:>8.2f}"
                          f"{per:>16.1f}   input {digest}", flush=True)


if __name__ == "__main__":
    main()
