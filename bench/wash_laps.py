"""Benchmark: the wash-cycle screen's laps where one leg's transfers all come after another's.

A lap takes, leg after leg, the earliest unused transfer no earlier than the one before and close in worth to
the lap's first.  Where a cycle's second leg runs wholly after its first (friends who trade at different times
of the match), every lap's search on the second leg starts at that leg's first transfer and, read one by one,
passes every transfer the earlier laps used: the work grows with the square of the leg.  The screen now lists
each leg's transfers close to a worth once and skips used ones by pointers.

For each size ``n`` (transfers a leg; three legs, each wholly after the one before) it prints, measured in this
one run, the CPU seconds of the laps read one by one (the search before, kept here as the yardstick) and of the
screen's laps, their ratio, and whether the two give the same laps.

Usage: python bench/wash_laps.py [--sizes 1000,4000,16000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import time
from bisect import bisect_left
from collections.abc import Callable
from functools import partial
from typing import Any

from daishi_forensics.screens import wash_cycle

Legs = dict[tuple[int, int], list[tuple[Any, ...]]]


def staggered(n: int) -> Legs:
    """Three legs of ``n`` transfers of one worth, the second wholly after the first, the third after both."""
    return {(0, 1): [(t, 5.0, (f"a{t}",)) for t in range(n)],
            (1, 2): [(n + t, 5.0, (f"b{t}",)) for t in range(n)],
            (2, 0): [(2 * n + t, 5.0, (f"c{t}",)) for t in range(n)]}


def laps_one_by_one(cycle: tuple[int, ...], legs: Legs, ratio: float) -> list[list[tuple[Any, ...]]]:
    """The search before: each later leg read from the tick on, one transfer at a time, used ones included."""
    edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
    queues = [legs[e] for e in edges]
    ticks = [[t[0] for t in q] for q in queues]
    used: list[set[int]] = [set() for _ in queues]
    laps = []
    for i0, first in enumerate(queues[0]):
        picks, tick = [(0, i0)], first[0]
        for k in range(1, len(edges)):
            pick = next((i for i in range(bisect_left(ticks[k], tick), len(queues[k]))
                         if i not in used[k] and wash_cycle._close(first[1], queues[k][i][1], ratio)), None)
            if pick is None:
                break
            picks.append((k, pick))
            tick = queues[k][pick][0]
        if len(picks) == len(edges):
            for k, i in picks:
                used[k].add(i)
            laps.append([queues[k][i] for k, i in picks])
    return laps


def best_cpu(fn: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    """The least CPU seconds of ``rounds`` calls, and the last call's result."""
    best, out = float("inf"), None
    for _ in range(rounds):
        started = time.process_time()
        out = fn()
        best = min(best, time.process_time() - started)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,4000,16000", help="transfers a leg, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="calls of each way; the least CPU counts")
    args = parser.parse_args()
    print(f"{'transfers a leg':>16} {'one by one':>11} {'the screen':>11} {'ratio':>8}  same laps")
    for n in (int(x) for x in args.sizes.split(",")):
        legs = staggered(n)
        before, old = best_cpu(partial(laps_one_by_one, (0, 1, 2), legs, 1.5), args.rounds)
        now, new = best_cpu(partial(wash_cycle._laps, (0, 1, 2), legs, 1.5), args.rounds)
        print(f"{n:>16,} {before:>10.3f}s {now:>10.3f}s {before / max(now, 1e-9):>7.1f}x  {old == new}")


if __name__ == "__main__":
    main()
