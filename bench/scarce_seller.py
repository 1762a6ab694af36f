"""The collusion screens on honest matches with a scarce seller: how often whole-item buying reads as feeding.

    python bench/scarce_seller.py [--seeds 100] [--first 1] [--noise none,medium,heavy]
                                  [--settings default,600 ticks,150 ticks] [--workers N]

The ``scarce_seller`` scenario plants nothing: one seat holds a cheap good two or three buyers lack, and each
buyer pays it one whole dear item (a tool, a cloth, a plank) for one of it, again and again, all one
way (the simulator's ``forensics/simulate/honest.py``).  Honest agents elsewhere pay a whole dear item for the one
cheap good they need now; here they do it with the one seat that has it.  The off-price screen never raises
whole-item overpayment; the feeder screen reads each of those trades as a one-sided exchange, so a buyer that
hands the seller most of what it hands anyone can come back as feeding it.

Printed per setting and noise level: the matches not ``clear`` and ``flag`` (Wilson 95%), what raised them, and
the seller-buyer pairs any screen raised (every one a false pair).  Nothing is tuned on this scenario: every run
is a report, and the screens are as shipped.  Settings other than the simulator's defaults (8 player seats, 300
ticks, a 12 x 12 map) are ``bench/screens.py``'s sweep settings.
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


def job_list(first: int, seeds: int, levels: list[str], settings: list[str]) -> list[tuple[Any, ...]]:
    """The jobs ``bench/screens.py``'s :func:`~screens.simulate` plays: scenario ``scarce_seller`` at each
    setting and level, seeds ``first`` on."""
    return [("scarce", "scarce_seller", s, level, *(() if setting == DEFAULT else (setting,)))
            for setting in settings for level in levels for s in range(first, first + seeds)]


def read(job: tuple[Any, ...]) -> dict[str, Any]:
    """One match screened as shipped: its verdict, what raised it, and the seller-buyer pairs raised."""
    from daishi_forensics.screens import screen_graph

    _split, _kind, seed, level, graph, truth = screens.simulate(job)
    result = screen_graph(graph)
    trading = {frozenset(h["agents"]) for h in truth["honest_suspicious"] if h["kind"] == "scarce_seller"}
    raised = {frozenset(p) for f in result.flags for p in f.pairs}
    return {"setting": job[4] if len(job) == 5 else DEFAULT, "level": level, "seed": seed,
            "verdict": result.verdict, "raised_by": sorted({f"{f.screen}/{f.kind}" for f in result.flags}),
            "pairs": len(trading), "pairs_raised": len(trading & raised)}


def report(rows: list[dict[str, Any]], first: int, seeds: int) -> None:
    """The table: per setting and level, matches not clear and flagged, what raised them, pairs raised."""
    print(f"\n== scenario scarce_seller (honest; seeds {first}-{first + seeds - 1}, nothing tuned on them), "
          "screens as shipped ==")
    print(f"  {'setting':15s} {'noise':8s} {'matches':>7s}   not clear [Wilson 95%]          flag [Wilson 95%]"
          "               seller-buyer pairs raised")
    for setting in dict.fromkeys(r["setting"] for r in rows):
        for level in dict.fromkeys(r["level"] for r in rows):
            mine = [r for r in rows if r["setting"] == setting and r["level"] == level]
            if not mine:
                continue
            n = len(mine)
            bad = sum(r["verdict"] != "clear" for r in mine)
            flagged = sum(r["verdict"] == "flag" for r in mine)
            pairs, raised = sum(r["pairs"] for r in mine), sum(r["pairs_raised"] for r in mine)
            print(f"  {setting:15s} {level:8s} {n:7d}   {screens.rate_ci(bad, n)}    {screens.rate_ci(flagged, n)}"
                  f"    {raised}/{pairs}")
            by = Counter(k for r in mine if r["verdict"] != "clear" for k in r["raised_by"])
            if by:
                print(f"  {'':15s} {'':8s} raised by {', '.join(f'{k}: {v}' for k, v in sorted(by.items()))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=100, help="matches per setting and noise level (default 100)")
    parser.add_argument("--first", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--noise", default="none,medium,heavy", help="noise levels (default none,medium,heavy)")
    parser.add_argument("--settings", default=f"{DEFAULT},600 ticks,150 ticks",
                        help=f"match sizes: {DEFAULT} and any of bench/screens.py's sweep settings "
                             f"(default {DEFAULT},600 ticks,150 ticks)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    try:
        jobs = job_list(args.first, args.seeds, screens.named_levels(args.noise),
                        screens.named_sizes(args.settings, DEFAULT))
    except ValueError as err:
        parser.error(str(err))
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(read, jobs, chunksize=2)
    print(f"simulated, replayed and screened {len(rows)} matches in {time.perf_counter() - started:.0f} s "
          f"({args.workers} workers)")
    report(rows, args.first, args.seeds)


if __name__ == "__main__":
    main()
