"""A study of who a round-trip ring's flag names (``ring_member_level``), and its gate.

    python bench/ring_members.py [--seeds 8] [--clean 0] [--level L] [--kinds ring,...]
                                 [--noise none,light,medium,heavy] [--settings "default,600 ticks,3000 ticks,..."]
                                 [--first P,H] [--workers N]

The same matches are screened twice: with every seat of the ring's qualifying cycles named (``ring_member_level``
1, configuration 2.29.0's naming) and with only the members that carry their own evidence (``ring_member_level``
``L``: a member whose pairs on the ring's cycles among the named members, read against the pairs outside them given
the search, leave a chance above ``L`` is not named, the weakest first, as long as the others keep a qualifying
cycle).  The setting changes who a ``wash_ring`` flag names and which pairs it raises, never a p-value or a level,
so what it can cost is planted ring pairs no longer raised, and what it can gain is pairs raised outside any planted
group.  In a long match honest pairs make a round trip or two each, by chance, and a planted ring's cycles reach
them through its members' other partners.

Printed per setting and noise level, for each way: the planted ring pairs the ring screen raised (recall), the pairs
``wash_ring`` flags raised and those of them outside any planted group, in the matches of each planted kind
(``--kinds``; ``ring`` by default), and the honest matches' (``--clean``) pairs raised by ``wash_ring``; then the
matches whose verdict differs between the two ways (none: levels do not move) and those whose named seats differ.

By default every seed is a *tune* seed (planted from 1, honest from 1001): the output says the figures are on seen
seeds.  ``--first`` moves each set to other seeds (a gate's, registered in the benchmark record before its run); the
output then names them.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_ways  # noqa: E402
import screens  # noqa: E402  (bench/screens.py: the simulation, the planted pairs, the settings)

DEFAULT = "default"
WAYS = ("every", "own")
"""``ring_member_level`` 1 (every seat of the ring's cycles named), then the level studied."""


def configs(level: float) -> dict[str, Any]:
    """The shipped configuration with ``ring_member_level`` 1 and ``level``, every other setting as shipped."""
    from daishi_forensics.screens import load_config

    shipped = load_config()
    return {way: dataclasses.replace(shipped, screens={**shipped.screens, "ring": {
        **shipped.screens["ring"], "ring_member_level": 1.0 if way == "every" else level}}) for way in WAYS}


def read(job: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, tuple[set[Any], set[Any], str, tuple[Any, ...]]],
                                        list[Any]]:
    """One simulated match screened each way: the pairs the ring screen raised, those ``wash_ring`` flags raised,
    the verdict, and the seats each ``wash_ring`` flag named."""
    from daishi_forensics.screens import screen_graph

    played = job[:5] if job[4] != DEFAULT else job[:4]
    _split, kind, _seed, _level, graph, truth = screens.simulate(played)
    out = {}
    for way, config in configs(job[5]).items():
        result = screen_graph(graph, config)
        ring = [f for f in result.flags if f.screen == "ring"]
        out[way] = ({screens._pair(*p) for f in ring for p in f.pairs},
                    {screens._pair(*p) for f in ring if f.kind == "wash_ring" for p in f.pairs}, result.verdict,
                    tuple(tuple(f.agents) for f in ring if f.kind == "wash_ring"))
    return job, out, truth.get("planted", []) if kind in screens.KINDS else []


def jobs(seeds: int, clean: int, kinds: list[str], levels: list[str], settings: list[str], level: float,
         first: tuple[int, int]) -> list[tuple[Any, ...]]:
    """The matches :func:`read` plays: ``seeds`` seeds of each planted kind of ``kinds`` and ``clean`` honest seeds,
    from ``first`` (planted, honest), at each setting and noise level.

    >>> [j[:5] for j in jobs(1, 1, ["ring"], ["heavy"], ["3000 ticks"], 0.05, (1, 1001))]
    [('tune', 'ring', 1, 'heavy', '3000 ticks'), ('tune', 'clean', 1001, 'heavy', '3000 ticks')]
    """
    split = "tune" if first == (1, 1001) else "held-out"
    out: list[tuple[Any, ...]] = [(split, k, first[0] + i, lv, st, level) for st in settings for lv in levels
                                  for k in kinds for i in range(seeds)]
    out += [(split, "clean", first[1] + i, lv, st, level) for st in settings for lv in levels for i in range(clean)]
    return out


def tally(rows: list[Any], keep: Any) -> dict[str, Counter[str]]:
    """Per way, the counts printed for the rows ``keep`` accepts (a job -> bool)."""
    out: dict[str, Counter[str]] = {way: Counter() for way in WAYS}
    for job, result, truth in rows:
        if not keep(job):
            continue
        groups = [set(p["agents"]) | set(p.get("refillers", [])) for p in truth]
        mine = set().union(*(screens.planted_pairs(p) for p in truth if p["kind"] == "ring"))
        for way in WAYS:
            raised, ringed, _verdict, _named = result[way]
            c = out[way]
            world = "honest" if job[1] == "clean" else "planted"
            c[f"{world} matches"] += 1
            c[f"{world} wash_ring pairs"] += len(ringed)
            c[f"{world} wash_ring outside"] += sum(1 for a, b in ringed if not any(a in g and b in g for g in groups))
            c["ring pairs"] += len(mine)
            c["ring raised"] += len(mine & raised)
    return out


def line(c: Counter[str]) -> str:
    """One way's counts in words."""
    text = (f"planted ring pairs raised {c['ring raised']}/{c['ring pairs']}; wash_ring pairs in planted matches "
            f"{c['planted wash_ring pairs']}, outside a plant {c['planted wash_ring outside']}")
    if c["honest matches"]:
        text += f"; in honest matches {c['honest wash_ring pairs']}"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=8, help="planted seeds a kind, from 1 (default 8)")
    parser.add_argument("--clean", type=int, default=0, help="honest seeds, from 1001 (default 0)")
    parser.add_argument("--level", type=float, default=None,
                        help="ring_member_level studied (default: the shipped one, or 0.05 where it ships as 1)")
    parser.add_argument("--kinds", default="ring", help="planted kinds (default ring)")
    parser.add_argument("--noise", default="none,light,medium,heavy")
    parser.add_argument("--settings", default=",".join([DEFAULT, "600 ticks", "3000 ticks"]))
    parser.add_argument("--first", default="", metavar="P,H",
                        help="first seeds of the planted and honest matches (default 1,1001: the tune split's; any "
                             "other pair is named held out in the output)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    from daishi_forensics.screens import load_config

    shipped = float(load_config().screens["ring"].get("ring_member_level", 1.0))
    level = args.level if args.level is not None else (shipped if shipped < 1 else 0.05)
    first = (1, 1001) if not args.first else tuple(int(x) for x in args.first.split(","))
    levels, settings, kinds = args.noise.split(","), args.settings.split(","), args.kinds.split(",")
    todo = jobs(args.seeds, args.clean, kinds, levels, settings, level, first)  # type: ignore[arg-type]
    sys.setrecursionlimit(10_000)
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(read, todo, chunksize=1)
    seen = first == (1, 1001)
    print(f"{len(rows)} matches in {time.perf_counter() - started:.0f} s ({args.workers} workers); ring_member_level "
          f"{level:g} against 1; split: {'tune' if seen else 'seeds given by --first'} (planted {first[0]}-"
          f"{first[0] + args.seeds - 1} of {', '.join(kinds)}"
          + (f", honest {first[1]}-{first[1] + args.clean - 1}" if args.clean else "") + "): "
          + ("every figure below is on seen seeds" if seen else
             "held out only where no earlier run played these seeds (the benchmark record says which)"))
    print_ways(rows, settings, levels, WAYS, tally, line, 11)
    moved = sum(1 for _job, result, _truth in rows if result["every"][2] != result["own"][2])
    named = sum(1 for _job, result, _truth in rows if result["every"][3] != result["own"][3])
    print(f"  matches whose verdict differs between the two ways: {moved} (the setting names seats, it moves no level)")
    print(f"  matches whose wash_ring flags name other seats: {named}")


if __name__ == "__main__":
    main()
