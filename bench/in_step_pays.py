"""A study of the wash-cycle in-step rule read paying for the cycles met (``wash_cycle_in_step_pays``), and its gate.

    python bench/in_step_pays.py honest FIRST N [SETTINGS]          # honest matches, seeds FIRST..FIRST+N-1
    python bench/in_step_pays.py KIND FIRST N [SETTINGS]            # planted matches of KIND (wash_cycle, ring, ...)

The same matches are screened twice: with the in-step rule read at ``wash_cycle_in_step`` for every cycle met
(``off``, configuration 2.30.0) and at that level over the number of cycles met (``on``), with draws enough for a
cycle passed on in step at every arrival to reach it.  The in-step rule keeps a cycle whose good was passed on in
step with what arrived; every cycle the search met is tried, so over a long match, where cycles of friends are
many, one passes the rule by chance now and then, and the direction test (each transfer a coin) then reads friends
who lean one way as a wash.  SETTINGS: a comma-separated list of the settings sweep's sizes, ``3000 ticks`` and
``default`` (the default: ``default``), each at none / light / medium / heavy noise.

Printed for each way: the matches, those not clear and flagged, the ``wash_cycle`` flags, and the planted ring and
wash-cycle pairs the ring screen raised; then each match whose verdict, wash-cycle flags or raised planted pairs
differ.  Seeds: the caller's; the output says which and whether they are the tune split's (planted from 1, honest
from 1001) or seeds given (a gate's, registered in the benchmark record before its run).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py: the simulation, the settings)

WAYS = ("off", "on")
LEVELS = ("none", "light", "medium", "heavy")


def configs() -> dict[str, Any]:
    """The shipped configuration with ``wash_cycle_in_step_pays`` false and true."""
    from daishi_forensics.screens import load_config

    shipped = load_config()
    return {way: dataclasses.replace(shipped, screens={**shipped.screens, "ring": {
        **shipped.screens["ring"], "wash_cycle_in_step_pays": way == "on"}}) for way in WAYS}


def read(job: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, tuple[str, int, int, int]]]:
    """One match screened each way: its verdict, its ``wash_cycle`` flags, and the planted cycle pairs (ring and
    wash-cycle plants) the ring screen raised, of how many."""
    from daishi_forensics.screens import screen_graph

    _split, _kind, _seed, _level, graph, truth = screens.simulate(job)
    mine: set[tuple[str, str]] = set()
    for plant in truth.get("planted", []):
        if plant["kind"] in ("ring", "wash_cycle"):
            cycle = plant.get("cycle") or plant["agents"]
            mine |= {screens._pair(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))}
    out = {}
    for way, config in configs().items():
        result = screen_graph(graph, config)
        raised = {screens._pair(*p) for f in result.flags if f.screen == "ring" for p in f.pairs}
        out[way] = (result.verdict, sum(f.kind == "wash_cycle" for f in result.flags), len(mine & raised), len(mine))
    return job, out


def jobs(kind: str, first: int, n: int, settings: list[str]) -> list[tuple[Any, ...]]:
    """The matches :func:`read` plays.

    >>> jobs("clean", 1001, 1, ["default", "3000 ticks"])[:2]
    [('tune', 'clean', 1001, 'none'), ('tune', 'clean', 1001, 'light')]
    """
    split = "tune" if first in (1, 1001) else "held-out"
    return [(split, kind, first + i, lv, *(() if st == "default" else (st,))) for st in settings for lv in LEVELS
            for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", help="honest, or a planted scenario (wash_cycle, ring, ...)")
    parser.add_argument("first", type=int, help="the first seed")
    parser.add_argument("n", type=int, help="how many seeds")
    parser.add_argument("settings", nargs="?", default="default", help="sizes, comma-separated (default: default)")
    args = parser.parse_args()
    kind = "clean" if args.kind == "honest" else args.kind
    first, n, settings = args.first, args.n, args.settings.split(",")
    with Pool(2) as pool:
        rows = pool.map(read, jobs(kind, first, n, settings), chunksize=1)
    seen = first in (1, 1001)
    print(f"{len(rows)} {kind} matches, seeds {first}-{first + n - 1}, {', '.join(settings)}, none / light / medium / "
          f"heavy: {'the tune split: seen seeds' if seen else 'seeds given (held out only where no run played them)'}")
    totals = {way: Counter() for way in WAYS}
    for job, out in rows:
        for way in WAYS:
            verdict, cycles, raised, planted = out[way]
            t = totals[way]
            t["matches"] += 1
            t["not clear"] += verdict != "clear"
            t["flag"] += verdict == "flag"
            t["wash_cycle flags"] += cycles
            t["planted cycle pairs"] += planted
            t["raised"] += raised
        if out["off"][:3] != out["on"][:3]:
            print(f"  differs: seed {job[2]}, {job[3]}, {job[4] if len(job) > 4 else 'default'}: "
                  f"off {out['off'][:3]}, on {out['on'][:3]}")
    for way in WAYS:
        print(f"  {way}: " + ", ".join(f"{k} {v}" for k, v in totals[way].items()))


if __name__ == "__main__":
    main()
