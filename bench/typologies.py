"""Benchmark of the money-laundering typology screens on generated payment graphs, and speed.

    python bench/typologies.py [--seeds 8] [--accounts 3000] [--clean 20] [--split report|tune]

The graphs come from :mod:`daishi_forensics.simulate.transfers` (only ``value`` and
``tick`` on the edges).  Seeds ``0 .. seeds-1`` are split in two: the first half is the
*tune* split (the only one looked at while choosing rules and parameters), the second
half the *report* split.  Every figure printed is from the report split (``--split tune``
prints the tune split instead, for tuning), and says so; the *untuned* settings are
sweeps of the generator's knobs that were never run while tuning.

Prints, each measured in this one run:

- per setting: node precision and recall of the typology screens (``fans``,
  ``scatter_gather``, ``value_cycles``) per typology and overall, with 95% Wilson
  intervals.  Recall of a typology: its planted accounts found in any typology flag;
  precision of a flag kind: its flagged accounts that are planted accounts (of any
  typology).  Also the overall precision of every screen of ``screen_graph`` together
  (the Daishi screens included), for the record;
- graphs with no planted typology: the share with any typology flag (false-flag rate),
  and flagged accounts per graph;
- seconds to screen one graph of 20,000 accounts and about 120,000 transfers, everything
  included (reading the graph, every screen, the nulls), and the typology screens alone;
- honest simulated Daishi matches (scenario ``clean``): how many were not ``clear``, and
  how many raised a typology flag;
- on a second payment economy written apart (``bench/payments_world.py``: wages, rent, shops,
  bill splitting, savings circles, with smurfing, layering loops, dispersal and mule relays
  planted): node precision and recall of every screen together, and what a year with nothing
  planted raises.  Its odd seeds were looked at while teaching the screens honest settling-up
  (``--split tune``); the report split is its even seeds, plus settings never run while tuning
  (a bigger town, more friends per household, more dinners);
- on a third economy (``bench/neighbourhood_world.py``: flat-shares, friend groups, car pools,
  savings circles, office collections, with AMLSim-style fan-in and cycle cases planted
  around busy accounts), written before those rules and at first only reported on: now a
  tuning world, its odd seeds the tune split (looked at while teaching the screens long loops,
  honest friend webs and communities with a common employer), its even seeds the report split
  (reported on more than once), and a fresh report split (seeds 3001-3008, printed with the
  report split only; added under screens config 2.12.0, before any later rule was written), and a
  second fresh report split (seeds 4001-4008, likewise; added under 2.13.0, before any later rule, and first
  reported on under 2.14.0);
- on a fourth economy (``bench/trades_world.py``: a market town's people and small firms --
  invoices, subcontracting, bills, second-hand sales, birthdays, club fees, loans among
  friends, fundraisers -- with AMLSim-style fan-in cases and cycles of 3 to 12 hops planted),
  written before the rules for long loops and friend webs and at first only reported on (seeds
  1-4); now its tune split is seeds 1001-1008 (looked at while teaching the fans stated sums) and
  its report split seeds 2001-2008.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _labelled import wilson  # noqa: E402

TYPOLOGY_SCREENS = ("fans", "scatter_gather", "value_cycles")
KIND_TO_TYPOLOGY = {"fan_in": "fan_in", "fan_out": "fan_out", "scatter_gather": "scatter_gather",
                    "gather_scatter": "gather_scatter", "value_cycle": "cycle"}



def fmt(k: int, n: int) -> str:
    if n == 0:
        return "   n/a (0)"
    lo, hi = wilson(k, n)
    return f"{k / n:.3f} [{lo:.3f}, {hi:.3f}] ({k}/{n})"


def settings_table(accounts: int) -> dict[str, tuple[Any, bool]]:
    """Setting name -> (settings, tuned on it)."""
    from daishi_forensics.simulate.transfers import TransferSettings

    base = TransferSettings(accounts=accounts)
    return {
        "default": (base, True),
        "dense background (degree 4)": (replace(base, degree=4.0), False),
        "many honest hubs (8%)": (replace(base, hub_share=0.08), False),
        "noisy amounts (sigma 0.6)": (replace(base, amount_noise=0.6), False),
        "small fans (3-5)": (replace(base, fan_size=(3, 5)), False),
        "large fans (12-25)": (replace(base, fan_size=(12, 25)), False),
        "long window (30 ticks)": (replace(base, window=30), False),
        "short window (3 ticks)": (replace(base, window=3), False),
        "big cut (15%)": (replace(base, cut=0.15), False),
        "no cut (0%)": (replace(base, cut=0.0), False),
        "spread amounts (x3)": (replace(base, amount_spread=2.0), False),
        "laundering at honest scale (x1)": (replace(base, laundering_scale=1.0), False),
        "long period (600 ticks)": (replace(base, ticks=600), False),
    }


def measure(settings: Any, seeds: list[int]) -> dict[str, Counter[str]]:
    from daishi_forensics.screens import screen_graph
    from daishi_forensics.simulate.transfers import TYPOLOGIES, simulate_transfers

    tally: dict[str, Counter[str]] = {"recall": Counter(), "planted": Counter(), "tp": Counter(), "flagged": Counter(),
                                      "all": Counter()}
    for seed in seeds:
        sim = simulate_transfers(replace(settings, seed=seed))
        result = screen_graph(sim.graph)
        truth = sim.laundering_nodes
        by_kind: dict[str, set[Any]] = {}
        every: set[Any] = set()
        for f in result.flags:
            every.update(f.agents)
            if f.screen in TYPOLOGY_SCREENS:
                by_kind.setdefault(KIND_TO_TYPOLOGY[f.kind], set()).update(f.agents)
        found = set().union(*by_kind.values()) if by_kind else set()
        for typology in TYPOLOGIES:
            mine = sim.nodes_of(typology)
            tally["planted"][typology] += len(mine)
            tally["recall"][typology] += len(mine & found)
            flagged = by_kind.get(typology, set())
            tally["flagged"][typology] += len(flagged)
            tally["tp"][typology] += len(flagged & truth)
        tally["planted"]["overall"] += len(truth)
        tally["recall"]["overall"] += len(truth & found)
        tally["flagged"]["overall"] += len(found)
        tally["tp"]["overall"] += len(found & truth)
        tally["all"]["flagged"] += len(every)
        tally["all"]["tp"] += len(every & truth)
        tally["all"]["found"] += len(every & truth)
    return tally


def report_setting(name: str, tuned: bool, tally: dict[str, Counter[str]], split: str, seeds: list[int]) -> None:
    from daishi_forensics.simulate.transfers import TYPOLOGIES

    where = f"{split} split, seeds {seeds[0]}-{seeds[-1]}" + ("" if tuned else ", setting never tuned on")
    print(f"\n{name}  [{where}]")
    print(f"  {'typology':16s} {'node recall':34s} {'node precision (its flags)':34s}")
    for typology in (*TYPOLOGIES, "overall"):
        print(f"  {typology:16s} {fmt(tally['recall'][typology], tally['planted'][typology]):34s} "
              f"{fmt(tally['tp'][typology], tally['flagged'][typology]):34s}")
    print(f"  every screen of screen_graph together: precision "
          f"{fmt(tally['all']['tp'], tally['all']['flagged'])}, recall "
          f"{fmt(tally['all']['found'], tally['planted']['overall'])}")


def false_flags(settings: Any, seeds: list[int], split: str) -> None:
    from daishi_forensics.screens import screen_graph
    from daishi_forensics.simulate.transfers import simulate_transfers

    graphs = with_flag = nodes = 0
    kinds: Counter[str] = Counter()
    for seed in seeds:
        for _name, s in (("default", settings), ("many honest hubs", replace(settings, hub_share=0.08)),
                        ("dense", replace(settings, degree=4.0))):
            sim = simulate_transfers(replace(s, seed=seed, cases_per_typology=0.0))
            flags = [f for f in screen_graph(sim.graph).flags if f.screen in TYPOLOGY_SCREENS]
            graphs += 1
            with_flag += bool(flags)
            nodes += len({a for f in flags for a in f.agents})
            kinds.update(f.kind for f in flags)
    print(f"\nno planted typology ({graphs} graphs: default, many honest hubs, dense; {split} split seeds): "
          f"graphs with any typology flag {fmt(with_flag, graphs)}; flagged accounts per graph "
          f"{nodes / max(graphs, 1):.2f}; by kind {dict(sorted(kinds.items())) or '{}'}")


def speed() -> None:
    from daishi_forensics.screens import load_config, screen_graph
    from daishi_forensics.screens.fans import fans
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.scatter_gather import gather_scatter, scatter_gather
    from daishi_forensics.screens.value_cycles import value_cycles
    from daishi_forensics.simulate.transfers import TransferSettings, simulate_transfers

    sim = simulate_transfers(TransferSettings(accounts=20_000, seed=10_001))
    graph = sim.graph
    started, started_cpu = time.perf_counter(), time.process_time()
    result = screen_graph(graph)
    whole = time.perf_counter() - started
    whole_cpu = time.process_time() - started_cpu
    config = load_config()
    started = time.perf_counter()
    view = TransferView(graph)
    read = time.perf_counter() - started
    started = time.perf_counter()
    full = TransferView(graph)
    _ = full.pairs  # what every read cost before: the per-pair structures of the exchange screens too
    read_full = time.perf_counter() - started
    level = result.testing["typologyRate"]  # each typology's level, as screen_graph set it for this graph
    fan, sg, vc = ({**config.screens[s], "alpha": level} for s in ("fans", "scatter_gather", "value_cycles"))
    started = time.perf_counter()
    fans(view, fan)
    scatter_gather(view, sg)
    gather_scatter(view, sg, fan)
    value_cycles(view, vc)
    typology = time.perf_counter() - started
    print(f"\nspeed (one core; graph of {graph.number_of_nodes():,} accounts and {graph.number_of_edges():,} transfers, "
          f"seed 10001, not in either split):")
    print(f"  screen_graph, everything included: {whole:.1f} s, CPU {whole_cpu:.1f} s ({whole / 60:.2f} of the 60 s "
          f"budget; verdict {result.verdict}, {len(result.flags)} flags)")
    print(f"  of which reading the graph into the shared view: {read:.1f} s (with the per-pair structures the "
          f"exchange screens read, which plain payments no longer build: {read_full:.1f} s, "
          f"{read_full / max(read, 1e-9):.1f} times as long); the typology screens alone "
          f"(arrays, candidates, nulls): {typology:.1f} s ({typology / whole:.2f} of the whole)")


def _world_figures(label: str, worlds: list[Any], kinds: tuple[str, ...]) -> None:
    """Every screen of ``screen_graph`` together on generated worlds with planted cases: node
    recall per kind and overall, node precision, flags by screen."""
    from daishi_forensics.screens import screen_graph

    planted: Counter[str] = Counter()
    found: Counter[str] = Counter()
    by_screen: Counter[str] = Counter()
    tp = flagged = 0
    seconds = 0.0
    for world in worlds:
        started = time.perf_counter()
        result = screen_graph(world.graph)
        seconds += time.perf_counter() - started
        every = {a for f in result.flags for a in f.agents}
        by_screen.update(f.screen for f in result.flags)
        tp += len(every & world.laundering)
        flagged += len(every)
        for kind in kinds:
            mine = world.of(kind)
            planted[kind] += len(mine)
            found[kind] += len(mine & every)
    print(f"  {label} ({seconds / max(len(worlds), 1):.1f} s a graph):")
    for kind in kinds:
        print(f"    {kind:12s} node recall {fmt(found[kind], planted[kind])}")
    print(f"    overall      node recall {fmt(sum(found.values()), sum(planted.values()))}; "
          f"node precision {fmt(tp, flagged)}; flags by screen {dict(sorted(by_screen.items()))}")


def _nothing_planted(label: str, worlds: list[Any]) -> None:
    """Years with nothing planted: the share with any flag and the flagged accounts per graph."""
    from daishi_forensics.screens import screen_graph

    with_flag = nodes = 0
    kinds: Counter[str] = Counter()
    for world in worlds:
        result = screen_graph(world.graph)
        with_flag += bool(result.flags)
        nodes += len({a for f in result.flags for a in f.agents})
        kinds.update(f"{f.screen}.{f.kind}" for f in result.flags)
    print(f"  {label}: graphs with any flag {fmt(with_flag, len(worlds))}; flagged accounts per graph "
          f"{nodes / max(len(worlds), 1):.2f}; by kind {dict(sorted(kinds.items())) or '{}'}")


def second_payments(count: int, accounts: int, split: str) -> None:
    """Every screen of ``screen_graph`` together on the second payment economy
    (``bench/payments_world.py``): odd seeds are the tune split (looked at while teaching the
    fans and cycles what honest settling-up looks like), even seeds the report split; the
    settings marked untuned were never run while tuning."""
    from payments_world import KINDS, payments_world

    seeds = [2 * i + (1 if split == "tune" else 2) for i in range(count)]
    where = f"{split} split, seeds {', '.join(map(str, seeds))}"
    print(f"\nsecond payment economy (bench/payments_world.py; {where}):")
    settings: list[tuple[str, dict[str, int], bool]] = [
        (f"default ({accounts} accounts)", {}, True),
        (f"bigger town ({2 * accounts} accounts)", {"accounts": 2 * accounts}, False),
        ("more friends per household (8)", {"friends": 8}, False),
        ("more dinners (up to 14 a household)", {"dinners": 15}, False),
    ]
    for name, knobs, tuned in settings:
        if split == "tune" and not tuned:
            continue  # untuned settings are never run while tuning
        size, friends, dinners = knobs.get("accounts", accounts), knobs.get("friends", 4), knobs.get("dinners", 6)
        label = name + ("" if tuned else ", never tuned on")
        _world_figures(label, [payments_world(size, seed, friends=friends, dinners=dinners) for seed in seeds], KINDS)
        _nothing_planted(f"{name}, nothing planted",
                         [payments_world(size, seed, launder=False, friends=friends, dinners=dinners) for seed in seeds])


def third_payments(count: int, accounts: int, split: str) -> None:
    """Every screen of ``screen_graph`` together on the third economy (``bench/neighbourhood_world.py``),
    with AMLSim-style fan-in and cycle cases planted.  Written before the rules that tell honest
    settling-up from laundering and at first only reported on; now a tuning world: its odd seeds
    were looked at while teaching the screens long loops and honest friend webs (``--split tune``),
    the report split is its even seeds."""
    from neighbourhood_world import KINDS, neighbourhood_world

    seeds = [2 * i + (1 if split == "tune" else 2) for i in range(count)]
    print(f"\nthird economy (bench/neighbourhood_world.py; {split} split, seeds {', '.join(map(str, seeds))}):")
    _world_figures(f"{accounts} accounts a year", [neighbourhood_world(accounts, seed) for seed in seeds], KINDS)
    _nothing_planted("nothing planted", [neighbourhood_world(accounts, seed, launder=False) for seed in seeds])


def third_fresh(count: int, accounts: int) -> None:
    """The third economy's fresh report split (seeds from 3001), added under screens config 2.12.0 before
    any later rule was written, and never run while one was: its even seeds 2-8 had been reported on
    under 2.4.0, 2.5.0, 2.11.0 and 2.12.0.  Printed only with the report split."""
    from neighbourhood_world import KINDS, neighbourhood_world

    seeds = list(range(3001, 3001 + count))
    print(f"\nthird economy (bench/neighbourhood_world.py; fresh report split, seeds {seeds[0]}-{seeds[-1]}):")
    _world_figures(f"{accounts} accounts a year", [neighbourhood_world(accounts, seed) for seed in seeds], KINDS)
    _nothing_planted("nothing planted", [neighbourhood_world(accounts, seed, launder=False) for seed in seeds])


def third_fresh2(count: int, accounts: int) -> None:
    """The third economy's second fresh report split (seeds from 4001), added under screens config 2.13.0
    before any later rule was written, and never run while one was: the first fresh split (seeds from
    3001) was reported on under 2.13.0.  First reported on under 2.14.0.  Printed only with the report split."""
    from neighbourhood_world import KINDS, neighbourhood_world

    seeds = list(range(4001, 4001 + count))
    print(f"\nthird economy (bench/neighbourhood_world.py; second fresh report split, seeds {seeds[0]}-{seeds[-1]}):")
    _world_figures(f"{accounts} accounts a year", [neighbourhood_world(accounts, seed) for seed in seeds], KINDS)
    _nothing_planted("nothing planted", [neighbourhood_world(accounts, seed, launder=False) for seed in seeds])


def fourth_payments(count: int, accounts: int, split: str) -> None:
    """Every screen of ``screen_graph`` together on the fourth economy (``bench/trades_world.py``: a
    market town's people and small firms, with AMLSim-style fan-in cases and cycles of 3 to 12
    hops planted).  Its first seeds (1-4) were run only to report, under configs 2.4.0, 2.5.0 and
    2.11.0; since 2.12.0 it has a tune split (seeds from 1001, looked at while teaching the fans
    stated sums) and a report split (seeds from 2001, first run once that rule was final)."""
    from trades_world import KINDS, trades_world

    first = 1001 if split == "tune" else 2001
    seeds = list(range(first, first + count))
    print(f"\nfourth economy (bench/trades_world.py; {split} split, seeds {seeds[0]}-{seeds[-1]}):")
    _world_figures(f"{accounts} accounts a year", [trades_world(accounts, seed) for seed in seeds], KINDS)
    _nothing_planted("nothing planted", [trades_world(accounts, seed, launder=False) for seed in seeds])


def daishi_clean(count: int) -> None:
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.passes import analyze
    from daishi_forensics.report.screening import SCREEN_PASSES, match_graph
    from daishi_forensics.screens import screen_graph
    from daishi_forensics.simulate import simulate_match, write_match

    not_clear = typology = 0
    kinds: Counter[str] = Counter()
    for seed in range(5000, 5000 + count):
        match = simulate_match("clean", seed)
        with tempfile.TemporaryDirectory() as tmp:
            path = write_match(match, Path(tmp))
            graph = match_graph(analyze(read_match(open_match(str(path))), only=SCREEN_PASSES))
        result = screen_graph(graph)
        not_clear += result.verdict != "clear"
        mine = [f for f in result.flags if f.screen in TYPOLOGY_SCREENS]
        typology += bool(mine)
        kinds.update(f.kind for f in mine)
    print(f"\nhonest Daishi matches (scenario clean, seeds 5000-{5000 + count - 1}): not clear {fmt(not_clear, count)}; "
          f"with a typology flag {fmt(typology, count)} {dict(sorted(kinds.items())) or ''}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="seeds per setting, split in half (tune / report)")
    parser.add_argument("--accounts", type=int, default=3000)
    parser.add_argument("--clean", type=int, default=20, help="honest Daishi matches to screen")
    parser.add_argument("--split", choices=("report", "tune"), default="report")
    parser.add_argument("--only", default=None, help="run only the settings whose name contains this")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--second", type=int, default=4, help="years of the second payment economy per split (0: none)")
    parser.add_argument("--second-accounts", type=int, default=3000)
    parser.add_argument("--third", type=int, default=4, help="years of the third economy per split (0: none)")
    parser.add_argument("--third-accounts", type=int, default=3000)
    parser.add_argument("--third-fresh", type=int, default=8,
                        help="years of the third economy's fresh report split, seeds from 3001 (report only; 0: none)")
    parser.add_argument("--third-fresh2", type=int, default=8,
                        help="years of the third economy's second fresh report split, seeds from 4001 (report only; 0: none)")
    parser.add_argument("--fourth", type=int, default=8, help="years of the fourth economy per split (0: none)")
    parser.add_argument("--fourth-accounts", type=int, default=3000)
    args = parser.parse_args()
    half = args.seeds // 2
    seeds = list(range(half)) if args.split == "tune" else list(range(half, args.seeds))
    print(f"typology screens bench: {args.accounts} accounts per graph; tune split = seeds 0-{half - 1}, "
          f"report split = seeds {half}-{args.seeds - 1}; printing the {args.split} split")
    table = settings_table(args.accounts)
    for name, (settings, tuned) in table.items():
        if args.only and args.only not in name:
            continue
        if args.split == "tune" and not tuned:
            continue  # untuned settings are never run while tuning
        report_setting(name, tuned, measure(settings, seeds), args.split, seeds)
    false_flags(table["default"][0], seeds, args.split)
    if not args.no_speed:
        speed()
    if args.second:
        second_payments(args.second, args.second_accounts, args.split)
    if args.third:
        third_payments(args.third, args.third_accounts, args.split)
    if args.third_fresh and args.split == "report":
        third_fresh(args.third_fresh, args.third_accounts)
    if args.third_fresh2 and args.split == "report":
        third_fresh2(args.third_fresh2, args.third_accounts)
    if args.fourth:
        fourth_payments(args.fourth, args.fourth_accounts, args.split)
    if args.clean:
        daishi_clean(args.clean)


if __name__ == "__main__":
    main()
