"""A study of the feeder screen's pooled test per beneficiary (rule 5, ``hub_pool``), and its gate.

    python bench/feeder_hubs.py [--seeds 8] [--clean 100] [--noise none,medium,heavy]
                                [--settings "default,150 ticks,32 player seats,..."] [--floors 3]
                                [--scarce 60] [--monopolist 60] [--market 200] [--first P,H,S,M,E] [--workers N]

The same matches are screened with the pooled test off, on over gifts alone (``gifts``: ``hub_pool_trades`` false)
and on over every one-sided exchange (``all``), at each floor of ``--floors`` (``hub_min_spoke_exchanges``: how
many pooled one-sided exchanges a named spoke made the hub's way); every other setting as shipped.
Printed per setting and noise level: the planted feeder pairs the feeder screen raised (recall), the feeder
pairs it raised that belong to no plant, in matches of every planted kind, and the honest matches not clear and
with a pooled finding.  With ``--scarce N``, the honest ``scarce_seller`` scenario at the same settings and levels,
and with ``--monopolist N`` the honest ``monopolist`` one (the same seller asking two whole dear items for one: the
case that pooling trades breaks); with ``--market N``, the second honest economy (``bench/market_world.py``) at its
four levels.

By default every seed is a *tune* seed: the screens benchmark's tune split (planted from 1, honest from 1001), the
scarce seller's and the monopolist's first seeds, the second economy's tune split; the output says the figures are
on seen seeds.  ``--first`` moves each set to other seeds (a gate's, registered in the benchmark record before its
run); the output then names the seeds and says they are held out only where no earlier run played them.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py: the simulation, the planted pairs, the sweep's settings)

DEFAULT = "default"


def configs(floors: tuple[int, ...]) -> list[tuple[str, Any]]:
    """``off`` (the pooled test off), then at each floor the pooled test on over gifts alone (``gifts``) and over
    every one-sided exchange (``all``); every other setting as shipped."""
    from daishi_forensics.screens import load_config

    shipped = load_config()

    def with_feeder(**changes: Any) -> Any:
        feeder = {**shipped.screens["feeder"], **changes}
        return dataclasses.replace(shipped, screens={**shipped.screens, "feeder": feeder})

    out: list[tuple[str, Any]] = [("off", with_feeder(hub_pool=False))]
    for floor in floors:
        for label, trades in (("gifts", False), ("all", True)):
            out.append((f"{label} (floor {floor})", with_feeder(hub_pool=True, hub_pool_trades=trades,
                                                                 hub_min_spoke_exchanges=floor)))
    return out


def _pooled(flag: Any) -> bool:
    """Whether a flag rests on the pooled test: its own, or rule 4's with spokes the pooled test added."""
    return bool(flag.details.get("pooled") or flag.details.get("pooledSpokes"))


def read(job: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, tuple[set[tuple[str, str]], str, bool]], list[Any]]:
    """One simulated match screened under each configuration: the feeder pairs raised, the verdict, and whether a
    pooled flag was among them."""
    from daishi_forensics.screens import screen_graph

    floors = job[-1]
    played = job[:-1] if job[4] != DEFAULT else job[:4]
    _split, kind, _seed, _level, graph, truth = screens.simulate(played)
    out = {}
    for label, config in configs(floors):
        result = screen_graph(graph, config)
        raised = {screens._pair(*p) for f in result.flags if f.screen == "feeder" for p in f.pairs}
        pooled = any(_pooled(f) for f in result.flags)
        out[label] = (raised, result.verdict, pooled)
    return job[:-1], out, truth.get("planted", []) if kind in screens.KINDS else []


def read_market(job: tuple[int, str, tuple[int, ...]]) -> tuple[str, dict[str, tuple[str, bool]]]:
    """One match of the second economy under each configuration: verdict, pooled finding."""
    from market_world import market_world

    from daishi_forensics.screens import screen_graph

    seed, level, floors = job
    graph = market_world(seed, level=level)
    out = {}
    for label, config in configs(floors):
        result = screen_graph(graph, config)
        out[label] = (result.verdict, any(_pooled(f) for f in result.flags))
    return level, out


HONEST_WORLDS = ("scarce_seller", "monopolist")
"""The simulator's honest scenarios with a seat everyone pays in whole dear items."""


@dataclasses.dataclass(frozen=True)
class Firsts:
    """The first seed of each set of matches :func:`jobs` plays; the defaults are the tune split's (seen)."""

    planted: int = 1
    clean: int = 1001
    scarce: int = 1
    monopolist: int = 1
    market: int = 1

    @property
    def tune(self) -> bool:
        """Whether every set starts where the tune split's does (the figures are then on seen seeds)."""
        return self == Firsts()


def seeds_said(firsts: Firsts, seeds: int, clean: int, scarce: int, monopolist: int, market: int) -> str:
    """Which split the matches of :func:`jobs` come from, their seeds, and whether the figures are on seen seeds.

    >>> seeds_said(Firsts(), 8, 100, 0, 40, 0)
    'split: tune (planted seeds 1-8 a kind, honest 1001-1100, monopolist 1-40): every figure below is on seen seeds'
    """
    def span(first: int, n: int) -> str:
        return f"{first}-{first + n - 1}"

    return (f"split: {'tune' if firsts.tune else 'seeds given by --first'} (planted seeds "
            f"{span(firsts.planted, seeds)} a kind, honest {span(firsts.clean, clean)}"
            f"{f', scarce_seller {span(firsts.scarce, scarce)}' if scarce else ''}"
            f"{f', monopolist {span(firsts.monopolist, monopolist)}' if monopolist else ''}"
            f"{f', second economy {span(firsts.market, market)}' if market else ''}): "
            + ("every figure below is on seen seeds" if firsts.tune else
               "held out only where no earlier run played these seeds (the benchmark record says which)"))


def jobs(seeds: int, clean: int, scarce: int, levels: list[str], settings: list[str],
         floors: tuple[int, ...], monopolist: int = 0, firsts: Firsts = Firsts()) -> list[tuple[Any, ...]]:
    """The matches :func:`read` plays: ``seeds`` seeds of every planted kind and ``clean`` honest seeds (from 1 and
    1001 by default: the screens benchmark's tune split), ``scarce`` of ``scarce_seller`` and ``monopolist`` of the
    honest ``monopolist`` scenario, each set from its seed in ``firsts``, at each setting and level.

    >>> [j[:5] for j in jobs(1, 1, 1, ["heavy"], ["150 ticks"], (3,), 1)][-3:]
    [('tune', 'clean', 1001, 'heavy', '150 ticks'), ('scarce', 'scarce_seller', 1, 'heavy', '150 ticks'), \
('scarce', 'monopolist', 1, 'heavy', '150 ticks')]
    >>> [j[:3] for j in jobs(1, 1, 0, ["none"], ["default"], (3,), 1, Firsts(134001, 150301, 3051, 2001))][-3:]
    [('held-out', 'thrown_fight', 134001), ('held-out', 'clean', 150301), ('scarce', 'monopolist', 2001)]
    """
    split = "tune" if firsts.tune else "held-out"
    out: list[tuple[Any, ...]] = [(split, k, firsts.planted + i, lv, st, floors) for st in settings for lv in levels
                                  for k in screens.KINDS for i in range(seeds)]
    out += [(split, "clean", firsts.clean + i, lv, st, floors) for st in settings for lv in levels
            for i in range(clean)]
    out += [("scarce", world, first + i, lv, st, floors)
            for world, n, first in zip(HONEST_WORLDS, (scarce, monopolist), (firsts.scarce, firsts.monopolist))
            for st in settings for lv in levels for i in range(n)]
    return out


def match_options(parser: argparse.ArgumentParser, noise: str) -> None:
    """The options that say which matches a study of the feeder plays (:func:`jobs`): its sizes, noise levels
    (``noise``, the default), settings, honest worlds, first seeds and workers."""
    parser.add_argument("--seeds", type=int, default=8, help="planted seeds a kind, from 1 (default 8)")
    parser.add_argument("--clean", type=int, default=100, help="honest seeds, from 1001 (default 100)")
    parser.add_argument("--noise", default=noise)
    parser.add_argument("--settings", default=",".join([DEFAULT, *(name for name, _ in screens.SCREEN_SWEEPS)]))
    parser.add_argument("--scarce", type=int, default=0, help="honest scarce_seller matches, seeds 1 to N")
    parser.add_argument("--monopolist", type=int, default=0, help="honest monopolist matches, seeds 1 to N")
    parser.add_argument("--market", type=int, default=0, help="second-economy matches a level, tune seeds 1 to N")
    parser.add_argument("--first", default="", metavar="P,H,S,M,E",
                        help="first seeds of the planted, honest, scarce_seller, monopolist and second-economy matches "
                             "(default 1,1001,1,1,1: the tune split's; any other set is named held out in the output)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)


def market_lines(market: list[tuple[str, Any]], cell: Callable[[list[Any]], str]) -> None:
    """One line per noise level of the second economy's matches (``market``: ``(level, outcome)``), ``cell`` of
    that level's outcomes."""
    for lv in ("none", "light", "medium", "heavy"):
        print(f"    {lv:7s} " + cell([out for level, out in market if level == lv]))


def firsts_of(args: argparse.Namespace) -> Firsts:
    """The first seeds ``--first`` names (:func:`match_options`), the tune split's without it."""
    return Firsts(*(int(x) for x in args.first.split(","))) if args.first else Firsts()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    match_options(parser, noise="none,medium,heavy")
    parser.add_argument("--floors", default="3", help="hub_min_spoke_exchanges values to try (default 3, shipped)")
    args = parser.parse_args()
    firsts = firsts_of(args)
    sys.setrecursionlimit(10_000)
    levels = args.noise.split(",")
    settings = args.settings.split(",")
    floors = tuple(int(f) for f in args.floors.split(","))
    labels = [label for label, _ in configs(floors)]
    if firsts.tune and (not 0 <= args.seeds <= 1000 or not 0 <= args.clean <= 1000):
        parser.error("the tune split holds planted seeds 1 to 1000 a kind and honest seeds 1001 to 2000")
    todo = jobs(args.seeds, args.clean, args.scarce, levels, settings, floors, args.monopolist, firsts)
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(read, todo, chunksize=2)
        market = pool.map(read_market, [(firsts.market + i, lv, floors) for lv in ("none", "light", "medium", "heavy")
                                        for i in range(args.market)], chunksize=4)

    print(f"{len(rows) + len(market)} matches in {time.perf_counter() - started:.0f} s ({args.workers} workers); "
          + seeds_said(firsts, args.seeds, args.clean, args.scarce, args.monopolist, args.market))
    for st in settings:
        for lv in levels:
            cells = []
            for label in labels:
                found = planted = outside = honest = not_clear = pooled = 0
                worlds = {w: [0, 0, 0] for w in HONEST_WORLDS}  # matches, not clear, with a pooled finding
                for job, out, truth in rows:
                    if job[4] != st or job[3] != lv:
                        continue
                    raised, verdict, has_pooled = out[label]
                    if job[1] == "clean":
                        honest += 1
                        not_clear += verdict != "clear"
                        pooled += has_pooled
                    elif job[1] in worlds:
                        counts = worlds[job[1]]
                        counts[0] += 1
                        counts[1] += verdict != "clear"
                        counts[2] += has_pooled
                    else:
                        every = set().union(*(screens.planted_pairs(p) for p in truth))
                        outside += len(raised - every)
                        if job[1] == "feeder":
                            mine = set().union(*(screens.planted_pairs(p) for p in truth if p["kind"] == "feeder"))
                            planted += len(mine)
                            found += len(mine & raised)
                cell = (f"{label}: feeder pairs {found}/{planted}, outside plants {outside}; honest not clear "
                        f"{not_clear}/{honest}, pooled {pooled}")
                for world, (n, nc, with_pooled) in worlds.items():
                    if n:
                        cell += f"; {world} not clear {nc}/{n}, pooled {with_pooled}"
                cells.append(cell)
            print(f"  {st:16s} {lv:7s} " + " | ".join(cells))
    if market:
        print("  second economy (tune seeds), per level:")
        market_lines(market, lambda mine: " | ".join(
            f"{label}: not clear {sum(o[label][0] != 'clear' for o in mine)}/{len(mine)}, pooled "
            f"{sum(o[label][1] for o in mine)}" for label in labels))


if __name__ == "__main__":
    main()
