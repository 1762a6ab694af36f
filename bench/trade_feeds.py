"""A study of the feeder screen's level for feeds paid in trades (``trade_feeds_review``), and its gate.

    python bench/trade_feeds.py [--seeds 8] [--clean 100] [--scarce 40] [--monopolist 40] [--market 200]
                                [--noise none,light,medium,heavy] [--settings "default,150 ticks,..."]
                                [--first P,H,S,M,E] [--workers N]

The same matches are screened twice: with every feed allowed to reach ``flag`` (``trade_feeds_review`` false) and
with a feed whose one-sided exchanges the giver's way were all trades (none a gift) raised at ``review`` at most
(true).  A hub of feeds (rule 4) is a ``flag`` only where each of its spokes is, so a hub paid in trades by one of
its spokes is then a ``review``; a pooled test over gifts still lifts it to ``flag``.  The setting changes levels
only, never which pairs are raised, so what it can cost is planted feeder pairs raised at ``flag`` (an operator who
acts on ``flag`` alone no longer acts on them), and what it can gain is honest matches flagged where a seat everyone
pays in whole dear items (the ``monopolist`` scenario) is a hub of trades.

Printed per setting and noise level, for each way: the planted feeder pairs raised at any level and at ``flag``, the
planted matches of every kind whose verdict is ``flag``, and the honest matches (``clean``; ``scarce_seller`` and
``monopolist`` with ``--scarce`` / ``--monopolist``) not clear and flagged; with ``--market N``, the second honest
economy (``bench/market_world.py``) at its four levels.  Then every figure pooled.

By default every seed is a *tune* seed (planted from 1, honest from 1001, scarce_seller, monopolist and the second
economy from 1): the output says the figures are on seen seeds.  ``--first`` moves each set to other seeds (a gate's,
registered in the benchmark record before its run); the output then names them.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import print_ways  # noqa: E402
import screens  # noqa: E402  (bench/screens.py: the simulation, the planted pairs, the sweep's settings)
from feeder_hubs import DEFAULT, HONEST_WORLDS, firsts_of, jobs, market_lines, match_options, seeds_said  # noqa: E402  (the same matches as that study)

WAYS = ("flag", "review")
"""``trade_feeds_review`` false (a feed paid in trades may reach ``flag``), then true."""


def configs() -> dict[str, Any]:
    """The shipped configuration with ``trade_feeds_review`` false and true, every other setting as shipped."""
    from daishi_forensics.screens import load_config

    shipped = load_config()
    return {way: dataclasses.replace(shipped, screens={**shipped.screens, "feeder": {
        **shipped.screens["feeder"], "trade_feeds_review": way == "review"}}) for way in WAYS}


def read(job: tuple[Any, ...]) -> tuple[tuple[Any, ...], dict[str, tuple[set[Any], set[Any], str]], list[Any]]:
    """One simulated match screened each way: the feeder pairs raised (any level), those at ``flag``, the verdict."""
    from daishi_forensics.screens import screen_graph

    played = job[:-1] if job[4] != DEFAULT else job[:4]
    _split, kind, _seed, _level, graph, truth = screens.simulate(played)
    out = {}
    for way, config in configs().items():
        result = screen_graph(graph, config)
        feeder = [f for f in result.flags if f.screen == "feeder"]
        out[way] = ({screens._pair(*p) for f in feeder for p in f.pairs},
                    {screens._pair(*p) for f in feeder if f.level == "flag" for p in f.pairs}, result.verdict)
    return job[:-1], out, truth.get("planted", []) if kind in screens.KINDS else []


def read_market(job: tuple[int, str]) -> tuple[str, dict[str, str]]:
    """One match of the second economy, its verdict each way."""
    from market_world import market_world

    from daishi_forensics.screens import screen_graph

    seed, level = job
    graph = market_world(seed, level=level)
    return level, {way: screen_graph(graph, config).verdict for way, config in configs().items()}


def tally(rows: list[Any], keep: Any) -> dict[str, Counter[str]]:
    """Per way, the counts printed for the rows ``keep`` accepts (a job -> bool)."""
    out: dict[str, Counter[str]] = {way: Counter() for way in WAYS}
    for job, result, truth in rows:
        if not keep(job):
            continue
        for way in WAYS:
            raised, flagged, verdict = result[way]
            c = out[way]
            if job[1] == "clean" or job[1] in HONEST_WORLDS:
                world = "honest" if job[1] == "clean" else job[1]
                c[f"{world} matches"] += 1
                c[f"{world} not clear"] += verdict != "clear"
                c[f"{world} flag"] += verdict == "flag"
                continue
            c["planted matches"] += 1
            c["planted flag"] += verdict == "flag"
            mine = set().union(*(screens.planted_pairs(p) for p in truth if p["kind"] == "feeder"))
            c["feeder pairs"] += len(mine)
            c["feeder raised"] += len(mine & raised)
            c["feeder at flag"] += len(mine & flagged)
    return out


def line(c: Counter[str]) -> str:
    """One way's counts in words."""
    text = (f"feeder pairs raised {c['feeder raised']}/{c['feeder pairs']}, at flag {c['feeder at flag']}; "
            f"planted matches flag {c['planted flag']}/{c['planted matches']}; honest not clear "
            f"{c['honest not clear']}/{c['honest matches']}, flag {c['honest flag']}")
    for world in HONEST_WORLDS:
        if c[f"{world} matches"]:
            text += (f"; {world} not clear {c[f'{world} not clear']}/{c[f'{world} matches']}, "
                     f"flag {c[f'{world} flag']}")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    match_options(parser, noise="none,light,medium,heavy")
    args = parser.parse_args()
    firsts = firsts_of(args)
    sys.setrecursionlimit(10_000)
    levels, settings = args.noise.split(","), args.settings.split(",")
    todo = jobs(args.seeds, args.clean, args.scarce, levels, settings, (3,), args.monopolist, firsts)
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(read, todo, chunksize=2)
        market = pool.map(read_market, [(firsts.market + i, lv) for lv in ("none", "light", "medium", "heavy")
                                        for i in range(args.market)], chunksize=4)

    print(f"{len(rows) + len(market)} matches in {time.perf_counter() - started:.0f} s ({args.workers} workers); "
          + seeds_said(firsts, args.seeds, args.clean, args.scarce, args.monopolist, args.market))
    print_ways(rows, settings, levels, WAYS, tally, line, 16)
    moved = sum(1 for _job, result, _truth in rows if result["flag"][0] != result["review"][0])
    print(f"  matches whose raised feeder pairs differ between the two ways: {moved} (the setting moves levels only)")
    if market:
        print("  second economy, per level (not clear / flag):")
        market_lines(market, lambda mine: " | ".join(
            f"{way}: {sum(o[way] != 'clear' for o in mine)}/{len(mine)}, {sum(o[way] == 'flag' for o in mine)}"
            for way in WAYS))


if __name__ == "__main__":
    main()
