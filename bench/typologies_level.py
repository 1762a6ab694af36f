"""How the typologies' level trades recall for precision on payment graphs, on tune splits only.

    python bench/typologies_level.py [--rates 0.02,0.05]

A payment graph with no Daishi data (no goods, no co-location) gives the money-laundering typologies the
whole ``general.false_alarm_rate`` of ``screens/config.json`` (a third to each typology).  This bench screens
the tune splits of the four generated worlds under each rate given and prints, per world, node recall and
precision of every screen of ``screen_graph`` together (counts in brackets: planted accounts found of all
planted, and accounts flagged), and the accounts flagged per year with nothing planted (third and fourth
economies, four years each).  Tune splits only: the third economy's odd seeds 1-15 (``bench/neighbourhood_world.py``),
the fourth economy's 1001-1008 (``bench/trades_world.py``), the payment economy's 1, 3, 5, 7
(``bench/payments_world.py``), the generator's seeds 0-3 (``daishi_forensics.simulate.transfers``).
About three to four minutes a rate on one core.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from neighbourhood_world import neighbourhood_world  # noqa: E402
from payments_world import payments_world  # noqa: E402
from trades_world import trades_world  # noqa: E402

WORLDS = ("third", "fourth", "payments", "generator")


def tune_worlds() -> list[tuple[str, Any, set[Any]]]:
    """``(world, graph, laundering accounts)`` of every tune split."""
    from daishi_forensics.simulate.transfers import TransferSettings, simulate_transfers

    out: list[tuple[str, Any, set[Any]]] = []
    for seed in range(1, 16, 2):
        w = neighbourhood_world(3000, seed)
        out.append(("third", w.graph, w.laundering))
    for seed in range(1001, 1009):
        w = trades_world(3000, seed)
        out.append(("fourth", w.graph, w.laundering))
    for seed in (1, 3, 5, 7):
        w = payments_world(3000, seed)
        out.append(("payments", w.graph, w.laundering))
    for seed in range(4):
        sim = simulate_transfers(replace(TransferSettings(accounts=3000), seed=seed))
        out.append(("generator", sim.graph, sim.laundering_nodes))
    return out


def nothing_planted() -> list[tuple[str, Any]]:
    """Years with nothing planted of the third and fourth economies' tune seeds."""
    out: list[tuple[str, Any]] = []
    for seed in (1, 3, 5, 7):
        out.append(("third", neighbourhood_world(3000, seed, launder=False).graph))
        out.append(("fourth", trades_world(3000, 1000 + seed, launder=False).graph))
    return out


def flagged(graph: Any, config: Any) -> set[Any]:
    """Every account any flag of ``screen_graph`` names."""
    from daishi_forensics.screens import screen_graph

    return {a for f in screen_graph(graph, config).flags for a in f.agents}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", default="0.02,0.05", help="false-alarm rates to try, comma-separated")
    args = parser.parse_args(argv)
    from daishi_forensics.screens import load_config

    worlds, clean = tune_worlds(), nothing_planted()
    print("tune splits only (third economy odd seeds 1-15, fourth 1001-1008, payment economy 1, 3, 5, 7, generator 0-3)")
    for rate in (float(r) for r in args.rates.split(",")):
        config = load_config({"general": {"false_alarm_rate": {"value": rate}}})
        tp: Counter[str] = Counter()
        hit: Counter[str] = Counter()
        planted: Counter[str] = Counter()
        for name, graph, truth in worlds:
            every = flagged(graph, config)
            tp[name] += len(every & truth)
            hit[name] += len(every)
            planted[name] += len(truth)
        quiet: Counter[str] = Counter()
        for name, graph in clean:
            quiet[name] += len(flagged(graph, config))
        print(f"rate {rate}:")
        for name in WORLDS:
            print(f"  {name:<9} recall {tp[name] / planted[name]:.3f} ({tp[name]}/{planted[name]}), precision "
                  f"{tp[name] / max(hit[name], 1):.3f} ({hit[name]} flagged)")
        print("  nothing planted, accounts flagged a year: "
              + ", ".join(f"{name} {quiet[name] / 4:.1f}" for name in ("third", "fourth")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
