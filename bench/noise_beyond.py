"""The collusion screens at honest noise past the heaviest level any split was set or reported at.

    python bench/noise_beyond.py [--honest 200] [--seeds 12] [--noise heavy,extreme]
                                 [--settings default,600 ticks,32 player seats] [--workers N]

The simulator's honest noise (whole-item trades, favoured partners, gifts to the hungry, beggars, buying before a
build, market fills, trade with whoever stands near) has four levels every split of ``bench/screens.py`` plays:
``none``, ``light``, ``medium`` and ``heavy``.  ``extreme`` is 1.9 times ``heavy``: nearly every turn of an
honest agent tries one of those before its ordinary business.  No rule, null or threshold of the screens was
chosen at it, so this is a measurement of how the screens' nulls (built from the same match) carry to honest play
noisier than anything they were set on: the honest matches not ``clear`` and ``flag`` against the configured
rates, and the planted kinds' pair recall and precision beside ``heavy`` on the same seeds.

Seeds: planted from :data:`PLANTED_FIRST` (``--seeds`` a kind, setting and level), honest from
:data:`HONEST_FIRST` (``--honest`` a setting and level), a block no other benchmark draws from.  Nothing is tuned
here: every run is a report, with the screens as shipped.  Settings other than the simulator's defaults (8 player
seats, 300 ticks, a 12 x 12 map) are ``bench/screens.py``'s sweep settings.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py, the collusion screens benchmark)

DEFAULT = "default"
"""The simulator's default size."""
PLANTED_FIRST = 910001
"""The first planted seed (the same seeds for every kind, setting and level)."""
HONEST_FIRST = 911001
"""The first honest seed."""
MAX_PLANTED = 1000
"""Planted seeds a kind stay below the honest ones."""
MAX_HONEST = 9000
"""Honest seeds stay inside the block."""


def job_list(seeds: int, honest: int, levels: list[str], settings: list[str]) -> list[tuple[Any, ...]]:
    """The jobs ``bench/screens.py``'s :func:`~screens.simulate` plays: each planted kind ``seeds`` times and
    ``honest`` clean matches, at each setting and level."""
    if not 0 <= seeds <= MAX_PLANTED or not 0 <= honest <= MAX_HONEST:
        raise ValueError(f"at most {MAX_PLANTED} planted seeds a kind and {MAX_HONEST} honest ones")
    out: list[tuple[Any, ...]] = []
    for setting in settings:
        size = () if setting == DEFAULT else (setting,)
        for level in levels:
            out += [("beyond", kind, PLANTED_FIRST + s, level, *size) for kind in screens.KINDS for s in range(seeds)]
            out += [("beyond", "clean", HONEST_FIRST + s, level, *size) for s in range(honest)]
    return out


def read(job: tuple[Any, ...]) -> dict[str, Any]:
    """One match screened as shipped: its verdict, what raised it, and for a planted one the pairs of each
    planted kind, those that kind's screen raised, and the pairs any screen raised inside and outside a plant."""
    from daishi_forensics.screens import screen_graph

    _split, kind, seed, level, graph, truth = screens.simulate(job)
    result = screen_graph(graph)
    row: dict[str, Any] = {"setting": job[4] if len(job) == 5 else DEFAULT, "level": level, "seed": seed,
                           "kind": kind, "verdict": result.verdict,
                           "raised_by": sorted({f"{f.screen}/{f.kind}" for f in result.flags})}
    if kind == "clean":
        return row
    groups = [set(p["agents"]) | set(p.get("refillers", [])) for p in truth["planted"]]
    by_screen: dict[str, set[tuple[str, str]]] = {}
    raised: set[tuple[str, str]] = set()
    for f in result.flags:
        for a, b in f.pairs:
            by_screen.setdefault(f.screen, set()).add(screens._pair(a, b))
            raised.add(screens._pair(a, b))
    planted = found = 0
    for p in truth["planted"]:
        pairs = screens.planted_pairs(p)
        planted += len(pairs)
        found += len(pairs & by_screen.get(p["kind"], set()))
    row.update(planted=planted, found=found, raised=len(raised),
               right=sum(any(a in g and b in g for g in groups) for a, b in raised))
    return row


def report(rows: list[dict[str, Any]], seeds: int, honest: int) -> None:
    """The tables: honest matches not clear and flagged (and what raised them), then per kind recall and
    precision, per setting and level."""
    span = f"seeds {HONEST_FIRST}-{HONEST_FIRST + honest - 1}" if honest else "no seeds"
    print(f"\n== honest matches ({span} a setting and level, nothing tuned on them), screens as shipped ==")
    print(f"  {'setting':16s} {'noise':8s} {'matches':>7s}   not clear [Wilson 95%]          flag [Wilson 95%]")
    for setting in dict.fromkeys(r["setting"] for r in rows):
        for level in dict.fromkeys(r["level"] for r in rows):
            mine = [r for r in rows if r["setting"] == setting and r["level"] == level and r["kind"] == "clean"]
            if not mine:
                continue
            n = len(mine)
            bad = sum(r["verdict"] != "clear" for r in mine)
            flagged = sum(r["verdict"] == "flag" for r in mine)
            print(f"  {setting:16s} {level:8s} {n:7d}   {screens.rate_ci(bad, n)}    {screens.rate_ci(flagged, n)}")
            by = Counter(k for r in mine if r["verdict"] != "clear" for k in r["raised_by"])
            if by:
                seen = ", ".join(str(r["seed"]) for r in mine if r["verdict"] != "clear")
                print(f"  {'':16s} {'':8s} raised by {', '.join(f'{k}: {v}' for k, v in sorted(by.items()))} "
                      f"(seeds {seen})")
    span = f"seeds {PLANTED_FIRST}-{PLANTED_FIRST + seeds - 1}" if seeds else "no seeds"
    print(f"\n== planted kinds ({span} a kind, setting and level; pair level, by the kind's own screen) ==")
    print(f"  {'setting':16s} {'noise':8s} {'kind':13s} recall [Wilson 95%]              "
          "precision (any screen, inside a plant)")
    for setting in dict.fromkeys(r["setting"] for r in rows):
        for level in dict.fromkeys(r["level"] for r in rows):
            planted = [r for r in rows if r["setting"] == setting and r["level"] == level and r["kind"] != "clean"]
            if not planted:
                continue
            for kind in (*screens.KINDS, "all kinds"):
                mine = planted if kind == "all kinds" else [r for r in planted if r["kind"] == kind]
                if not mine:
                    continue
                print(f"  {setting:16s} {level:8s} {kind:13s} "
                      f"{screens.rate_ci(sum(r['found'] for r in mine), sum(r['planted'] for r in mine))}   "
                      f"{screens.rate_ci(sum(r['right'] for r in mine), sum(r['raised'] for r in mine))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--honest", type=int, default=200,
                        help="honest matches per setting and noise level (default 200: with none raised, the "
                             "interval's top is under 2%%)")
    parser.add_argument("--seeds", type=int, default=12, help="planted seeds per kind, setting and level (default 12)")
    parser.add_argument("--noise", default="heavy,extreme", help="noise levels (default heavy,extreme)")
    parser.add_argument("--settings", default=DEFAULT,
                        help=f"match sizes: {DEFAULT} and any of bench/screens.py's sweep settings, comma-separated "
                             f"(default {DEFAULT})")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    try:
        jobs = job_list(args.seeds, args.honest, screens.named_levels(args.noise),
                        screens.named_sizes(args.settings, DEFAULT))
    except ValueError as err:
        parser.error(str(err))
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(read, jobs, chunksize=2)
    print(f"simulated, replayed and screened {len(rows)} matches in {time.perf_counter() - started:.0f} s "
          f"({args.workers} workers)")
    report(rows, args.seeds, args.honest)


if __name__ == "__main__":
    main()
