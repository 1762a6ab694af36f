"""Recall of the wash-cycle test on planted wash cycles, as shipped and with the match's lean read as a coin.

    python bench/wash_cycle_recall.py [--split tune|report] [--seeds 40] [--noise none,light,medium,heavy]
                                      [--settings default,150 ticks,600 ticks,4 player seats,32 player seats]
                                      [--workers N]

The ring screen's wash-cycle test (goods that go round three seats or more and come back) is the one screen
the simulator's ``ring`` scenario never exercises: its rings trade the same goods back and forth within each
pair, and the wash-pair and ring tests find them first.  The ``wash_cycle`` scenario plants the other shape:
3 or 4 seats pass one raw good round a cycle, each paying its giver in another raw good at the reference
values, so after every lap no seat's goods changed while no pair ever traded a good both ways.  This bench
plays that scenario and reads, per setting and noise level:

- the planted cycles' pairs (each pair along the cycle) raised by a ``wash_cycle`` flag, and by any screen
  (Wilson 95%), and the precision of the pairs raised in those matches (both seats in the plant);
- the same recall with the lean read as a coin (each transfer's direction a fair coin, as before
  configuration 2.18.0, the same matches): what reading the match's lean costs;
- why each planted cycle with a pair not raised was missed: no wash cycle qualified on its seats (laps, the
  members' imbalance, the search), or one was tested and did not pass the match-level step (its p-value).

Nothing is tuned here.  Splits: ``tune`` (seeds 1...) is where the scenario's mechanics were checked and
this bench written; ``report`` (seeds 5001...) is held out.  Settings other than the simulator's defaults (8
player seats, 300 ticks, a 12 x 12 map) are ``bench/screens.py``'s sweep settings.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py, the collusion screens benchmark)

SPLITS = {"tune": 1, "report": 5001}
"""First seed of each split of planted wash-cycle matches."""
DEFAULT = "default"
"""The simulator's default size (8 player seats, 300 ticks, a 12 x 12 map)."""


@dataclass(frozen=True)
class Reading:
    """One planted match read: its planted pairs, those raised by a wash-cycle flag as shipped and with the lean
    read as a coin, those raised by any screen, every pair raised, the verdict, and why a cycle was missed."""

    planted: frozenset[tuple[str, str]]
    wash_cycle: frozenset[tuple[str, str]]
    coin: frozenset[tuple[str, str]]
    any_screen: frozenset[tuple[str, str]]
    raised: frozenset[tuple[str, str]]
    plant: frozenset[str]
    verdict: str
    miss: str | None


@contextmanager
def lean_as_coin() -> Iterator[None]:
    """The wash-cycle test with every lean fitted as the coin (configuration 2.18.0's lean off)."""
    from daishi_forensics.screens import wash_cycle

    fitted = wash_cycle.fit_lean
    wash_cycle.fit_lean = lambda counts: math.inf  # type: ignore[assignment]
    try:
        yield
    finally:
        wash_cycle.fit_lean = fitted  # type: ignore[assignment]


def raised_by(result: Any, kind: str | None = None) -> frozenset[tuple[str, str]]:
    """The pairs ``result``'s flags raised (of test ``kind`` only, when given)."""
    return frozenset(screens._pair(a, b) for f in result.flags if kind is None or f.kind == kind for a, b in f.pairs)


def why_missed(result: Any, plant: frozenset[str]) -> str:
    """Why a planted cycle was not raised whole: ``tested p=... min_p=...`` for the wash-cycle test made on seats of
    the plant with the smallest p-value (it did not pass the match-level step), else ``no qualifying cycle``."""
    tested = [t for t in result.tests if t.key[0] == "ring.cycle" and len(set(t.key[1]) & plant) >= 2]
    if not tested:
        return "no qualifying cycle"
    best = min(tested, key=lambda t: t.p_value)
    return f"tested p={best.p_value:.2g} min_p={best.min_p:.2g} family={result.testing.get('family')}"


def read(graph: nx.MultiDiGraph, truth: dict[str, Any]) -> Reading:
    """One planted match screened as shipped and with the lean as a coin."""
    from daishi_forensics.screens import load_config, screen_graph

    config = load_config()
    (plant,) = [p for p in truth["planted"] if p["kind"] == "wash_cycle"]
    cycle = plant["cycle"]
    pairs = frozenset(screens._pair(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle)))
    seats = frozenset(plant["agents"])
    result = screen_graph(graph, config)
    with lean_as_coin():
        coin = screen_graph(graph, config)
    shipped = raised_by(result, "wash_cycle")
    return Reading(pairs, shipped & pairs, raised_by(coin, "wash_cycle") & pairs, raised_by(result) & pairs,
                   raised_by(result), seats, result.verdict, None if pairs <= shipped else why_missed(result, seats))


def measure(job: tuple[str, str, int, str, str]) -> tuple[str, str, Reading]:
    """One planted wash-cycle match simulated, replayed and read: ``(setting, noise, reading)``."""
    split, kind, seed, noise, setting = job
    played = screens.simulate((split, kind, seed, noise) if setting == DEFAULT else job)
    return setting, noise, read(played[4], played[5])


def jobs(split: str, seeds: int, levels: Sequence[str], settings: Sequence[str]) -> list[tuple[str, str, int, str, str]]:
    """The split's first ``seeds`` planted seeds at every level and setting.

    >>> jobs("report", 2, ["none"], ["default", "150 ticks"])
    [('report', 'wash_cycle', 5001, 'none', 'default'), ('report', 'wash_cycle', 5002, 'none', 'default'), \
('report', 'wash_cycle', 5001, 'none', '150 ticks'), ('report', 'wash_cycle', 5002, 'none', '150 ticks')]
    """
    first = SPLITS[split]
    return [(split, "wash_cycle", s, noise, setting) for setting in settings for noise in levels
            for s in range(first, first + seeds)]


def report(rows: Sequence[tuple[str, str, Reading]], split: str) -> None:
    """Per setting and level: recall (wash-cycle flag as shipped, with the lean as a coin, any screen), the
    precision of every pair raised in these matches, the verdicts and the misses' reasons."""
    how = "held out" if split == "report" else "the scenario's mechanics checked and the bench written on it"
    print(f"\n== split {split} ({how}): planted wash cycles, pair level ==")
    print("  setting           noise    wash cycle, shipped [Wilson 95%]    lean as a coin                   "
          "any screen                       precision (any screen)           verdicts")
    cells: dict[tuple[str, str], list[Reading]] = {}
    for setting, noise, r in rows:
        cells.setdefault((setting, noise), []).append(r)
    for (setting, noise), mine in cells.items():
        n = sum(len(r.planted) for r in mine)
        raised = [pair for r in mine for pair in r.raised]
        right = sum(a in r.plant and b in r.plant for r in mine for a, b in r.raised)
        verdicts = Counter(r.verdict for r in mine)
        print(f"  {setting:17s} {noise:8s} {screens.rate_ci(sum(len(r.wash_cycle) for r in mine), n)}   "
              f"{screens.rate_ci(sum(len(r.coin) for r in mine), n)}   "
              f"{screens.rate_ci(sum(len(r.any_screen) for r in mine), n)}   {screens.rate_ci(right, len(raised))}   "
              + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    misses = Counter(r.miss.split(" p=")[0] for _s, _n, r in rows if r.miss)
    print("\n  planted cycles not raised whole, why: "
          + (", ".join(f"{k} {v}" for k, v in sorted(misses.items())) or "none"))
    for setting, noise, r in rows:
        if r.miss and r.miss.startswith("tested"):
            print(f"    {setting}, {noise}: {r.miss}")
    print(f"\n(split {split}: {how}; screens as shipped, nothing tuned here)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=sorted(SPLITS), default="report")
    parser.add_argument("--seeds", type=int, default=40, help="planted matches per setting and level (default 40)")
    parser.add_argument("--noise", default=",".join(screens.NOISE), help="noise levels, comma-separated")
    parser.add_argument("--settings", default=DEFAULT,
                        help=f"'{DEFAULT}' and any of bench/screens.py's sweep settings, comma-separated: "
                             + ", ".join(name for name, _ in screens.SCREEN_SWEEPS))
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    settings = args.settings.split(",")
    known = {DEFAULT, *(name for name, _ in screens.SCREEN_SWEEPS)}
    if unknown := [s for s in settings if s not in known]:
        parser.error(f"unknown settings: {', '.join(unknown)}")
    levels = args.noise.split(",")
    if unknown := [n for n in levels if n not in screens.NOISE]:
        parser.error(f"unknown noise levels: {', '.join(unknown)}")
    with Pool(args.workers) as pool:
        rows = pool.map(measure, jobs(args.split, args.seeds, levels, settings), chunksize=2)
    report(rows, args.split)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
