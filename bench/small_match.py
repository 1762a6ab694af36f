"""Benchmark: ``behavior`` on a small match, with Presidio started by a second process and without.

Prints, measured in this one run, for each match (the embedded demo, and simulated streams of
about 20,000 and 60,000 events, small enough that the replay runs in one process):

  ahead  the command as a user runs it (a fresh process, the report written to a file): with a
         second CPU, a child forked at its start runs Presidio on the match's message texts
  here   the same with forking off (``DAISHI_FORENSICS_PARALLEL=0``): Presidio starts in the
         process that needs it, the way every run did before
  ratio  ahead / here, of the wall time's median and of the CPU's (the process and its children)
  same   whether the two ways wrote the same bytes (their SHA-256)

Each way runs ROUNDS times, in turn (ahead, here, ahead, ...), and the medians count, so load
drifting on a shared machine favours neither.  With one CPU the child is never started and the
ratio says so (about 1.0).

Usage: python bench/small_match.py [ROUNDS] (default 7)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import compiled_bytecode, simulated_stream  # noqa: E402

PROGRAM = """
import sys
from daishi_forensics.cli import main
sys.argv = ["daishi-forensics", *sys.argv[1:]]
main()
"""
COMMAND = [sys.executable, "-c", PROGRAM]


def run(target: str, out: Path, ahead: bool) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (the command and its children) and the output's SHA-256 of one run."""
    env = {k: v for k, v in os.environ.items() if k != "DAISHI_FORENSICS_PARALLEL"}
    if not ahead:
        env["DAISHI_FORENSICS_PARALLEL"] = "0"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*COMMAND, "behavior", target, "-o", str(out)], env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"behavior {target} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, hashlib.sha256(out.read_bytes()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rounds", nargs="?", type=int, default=7, help="runs of each way (default 7)")
    rounds = parser.parse_args().rounds
    print(compiled_bytecode())
    from daishi_forensics.replay.fork import cpus

    print(f"CPUs this process may use: {cpus()}; {rounds} runs each way, in turn; medians")
    targets = [("m_demo", "m_demo"),
               ("20k events", str(simulated_stream(20_000))),
               ("60k events", str(simulated_stream(60_000)))]
    with tempfile.TemporaryDirectory() as tmp:
        for label, target in targets:
            walls: dict[bool, list[float]] = {True: [], False: []}
            cpus_used: dict[bool, list[float]] = {True: [], False: []}
            digests: set[str] = set()
            for _ in range(rounds):
                for ahead in (True, False):
                    wall, cpu, digest = run(target, Path(tmp) / f"out-{ahead}.txt", ahead)
                    walls[ahead].append(wall)
                    cpus_used[ahead].append(cpu)
                    digests.add(digest)
            med = {k: statistics.median(v) for k, v in walls.items()}
            cpu_med = {k: statistics.median(v) for k, v in cpus_used.items()}
            print(f"{label:<11} ahead {med[True]:5.2f} s wall {cpu_med[True]:5.2f} s CPU | here {med[False]:5.2f} s "
                  f"wall {cpu_med[False]:5.2f} s CPU | ratio wall {med[True] / med[False]:.2f}x, CPU "
                  f"{cpu_med[True] / cpu_med[False]:.2f}x | same: "
                  f"{'identical' if len(digests) == 1 else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
