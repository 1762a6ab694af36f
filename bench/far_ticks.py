"""Benchmark: a match whose ticks run to the schema bound costs what a near one costs.

The far match of tests/test_far_ticks.py (a probe at tick 10^12, a last event at tick
2^53 − 1, archive rounds to 2^53 − 1) against the same ten events with every tick divided
down to under 100 (the same match, near).  For `behavior`, `score` and `screen`, each in a
fresh process: wall and CPU seconds and peak memory, and the ratio far / near of the CPU
time (a per-tick loop anywhere would make it ~10^10).

Usage: python bench/far_ticks.py
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests import test_far_ticks  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from _common import compiled_bytecode, run_measured  # noqa: E402


def near_match(directory: Path) -> Path:
    """The far match with its ticks mapped down (0, 3, 4, T, T+2, T+5, 2T, bound -> 0..99)."""
    path = test_far_ticks.far_match(directory)
    far = {0: 0, 3: 3, 4: 4, test_far_ticks.T: 10, test_far_ticks.T + 2: 12, test_far_ticks.T + 5: 15,
           2 * test_far_ticks.T: 20, test_far_ticks.BOUND: 99}
    text = path.read_text()
    for old in sorted(far, reverse=True):
        text = text.replace(f'"tick":{old},', f'"tick":{far[old]},')
    text = text.replace(f'"endedAtTick":{test_far_ticks.BOUND}', '"endedAtTick":100')
    text = text.replace(f'"season_ticks":{test_far_ticks.BOUND}', '"season_ticks":100')
    path.write_text(text)
    return path


CHILD = """
import json, resource, sys, time
from click.testing import CliRunner
from daishi_forensics.cli import main
t = time.perf_counter()
result = CliRunner().invoke(main, sys.argv[1:])
assert result.exit_code == 0, result.output
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": time.perf_counter() - t, "cpu": u.ru_utime + u.ru_stime, "peak_mb": u.ru_maxrss / 1024}))
"""


def measure(command: str, path: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MiB) of one command in a fresh process (CPU and peak include start-up)."""
    r = run_measured(CHILD, command, str(path), "--format", "json")
    return r["wall"], r["cpu"], r["peak_mb"]


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    print(compiled_bytecode())
    load = os.getloadavg()[0]
    print(f"load average {load:.2f} on {os.cpu_count()} cores" + (" (machine loaded)" if load > 1 else ""))
    with tempfile.TemporaryDirectory() as tmp:
        far = test_far_ticks.far_match(Path(tmp) / "far")
        near = near_match(Path(tmp) / "near")
        print(f"{'command':<10}{'near cpu s':>12}{'far cpu s':>12}{'far wall s':>12}{'far peak MiB':>14}{'far/near':>10}")
        for command in ("behavior", "score", "screen"):
            _, near_cpu, _ = measure(command, near)
            wall, cpu, peak = measure(command, far)
            print(f"{command:<10}{near_cpu:>12.2f}{cpu:>12.2f}{wall:>12.2f}{peak:>14.0f}{cpu / near_cpu:>10.2f}")


if __name__ == "__main__":
    main()
