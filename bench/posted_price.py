"""The off-price screen's posted-price rule, off and on, on honest monopolists and planted off-price pairs.

    python bench/posted_price.py [--monopolist 20] [--monopolist-first 1] [--planted 8] [--planted-first 1]
                                 [--noise none,medium,heavy] [--settings "default,150 ticks,..."] [--workers N]

The screens as shipped raised honest ``monopolist`` matches (a scarce good's holder asking two whole dear items
for one, and paid by two or three buyers) through the off-price screen on the seller-buyer pairs, as they raise
planted ``off_price`` pairs.  The rule (``off_price.posted_price_sales``): a pair is not raised where the
beneficiary sold the good it sold the payer off-price, alone and with excess, on such terms to another seat three
times or more.  It can only remove a finding, so what it can cost is recall on planted off-price pairs, and what it
can gain is honest monopolist matches left clear.  Per setting, pooled over the noise levels: the monopolist
matches not clear and flagged and those with an off-price finding, and the planted off-price pairs the screen
raised, with the rule off (``posted_price_sales`` 0) and as shipped.

Seeds: ``--monopolist-first`` (the monopolist scenario's; 1 to 60 were looked at while writing the rule) and
``--planted-first`` (planted ``off_price`` matches'; the screens benchmark's tune split starts at 1, its sweep's
second draw at 70501).  The output names them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py: the simulation, the planted pairs, the sweep's settings)

DEFAULT = "default"
RULE_OFF = {"screens": {"off_price": {"posted_price_sales": 0}}}
"""The off-price screen without the posted-price rule (configuration 2.26.0's)."""


def jobs(monopolist: int, monopolist_first: int, planted: int, planted_first: int, levels: list[str],
         settings: list[str]) -> list[tuple[Any, ...]]:
    """The matches :func:`read` plays, at each setting and level: honest ``monopolist`` seeds from
    ``monopolist_first`` and planted ``off_price`` seeds from ``planted_first``.

    >>> [j for j in jobs(1, 1001, 1, 70501, ["heavy"], ["default", "150 ticks"])]
    [('scarce', 'monopolist', 1001, 'heavy', 'default'), ('scarce', 'monopolist', 1001, 'heavy', '150 ticks'), \
('planted', 'off_price', 70501, 'heavy', 'default'), ('planted', 'off_price', 70501, 'heavy', '150 ticks')]
    """
    out: list[tuple[Any, ...]] = [("scarce", "monopolist", monopolist_first + i, lv, st) for lv in levels
                                  for i in range(monopolist) for st in settings]
    out += [("planted", "off_price", planted_first + i, lv, st) for lv in levels for i in range(planted)
            for st in settings]
    return out


def read(job: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, tuple[str, bool, int]]]:
    """One match screened with the rule off and as shipped: the verdict, whether the off-price screen raised
    anything, and the planted off-price pairs it raised."""
    from daishi_forensics.screens import load_config, screen_graph

    played = job if job[4] != DEFAULT else job[:4]
    _split, _kind, _seed, _level, graph, truth = screens.simulate(played)
    planted = set().union(*(screens.planted_pairs(p) for p in truth.get("planted", []) if p["kind"] == "off_price"))
    out = {}
    for label, config in (("off", load_config(RULE_OFF)), ("shipped", load_config())):
        result = screen_graph(graph, config)
        raised = {screens._pair(*p) for f in result.flags if f.screen == "off_price" for p in f.pairs}
        out[label] = (result.verdict, bool(raised), len(planted & raised))
    return job + (len(planted),), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--monopolist", type=int, default=20, help="monopolist matches a setting and level")
    parser.add_argument("--monopolist-first", type=int, default=1)
    parser.add_argument("--planted", type=int, default=8, help="planted off-price matches a setting and level")
    parser.add_argument("--planted-first", type=int, default=1)
    parser.add_argument("--noise", default="none,medium,heavy")
    parser.add_argument("--settings", default=",".join([DEFAULT, *(name for name, _ in screens.SCREEN_SWEEPS)]))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)
    levels, settings = args.noise.split(","), args.settings.split(",")
    todo = jobs(args.monopolist, args.monopolist_first, args.planted, args.planted_first, levels, settings)
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(read, todo, chunksize=2)
    print(f"{len(rows)} matches in {time.perf_counter() - started:.0f} s ({args.workers} workers): monopolist seeds "
          f"{args.monopolist_first}-{args.monopolist_first + args.monopolist - 1}, planted off_price seeds "
          f"{args.planted_first}-{args.planted_first + args.planted - 1}, noise {', '.join(levels)} pooled")
    for st in settings:
        cells = []
        for label in ("off", "shipped"):
            mono = [o[label] for j, o in rows if j[1] == "monopolist" and j[4] == st]
            plants = [(o[label][2], j[5]) for j, o in rows if j[1] == "off_price" and j[4] == st]
            cells.append(f"{label}: monopolist not clear {sum(v[0] != 'clear' for v in mono)}/{len(mono)}, flag "
                         f"{sum(v[0] == 'flag' for v in mono)}, off-price {sum(v[1] for v in mono)}; planted off-price "
                         f"pairs {sum(f for f, _ in plants)}/{sum(n for _, n in plants)}")
        print(f"  {st:16s} " + " | ".join(cells))


if __name__ == "__main__":
    main()
