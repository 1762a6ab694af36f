"""Recall of the wash-cycle test on planted wash cycles as shipped and with one of its rules the other way (the lean,
or the in-step rule), and what each costs on honest matches.

    python bench/wash_cycle_recall.py [--split tune|report|gate|gate2|gate3|gate4|gate5] [--seeds 40]
                                      [--noise none,light,medium,heavy]
                                      [--settings default,150 ticks,600 ticks,4 player seats,32 player seats]
                                      [--compare lean|in_step] [--clean FIRST-LAST] [--workers N]

The ring screen's wash-cycle test (goods that go round three seats or more and come back) is the one screen
the simulator's ``ring`` scenario never exercises: its rings trade the same goods back and forth within each
pair, and the wash-pair and ring tests find them first.  The ``wash_cycle`` scenario plants the other shape:
3 or 4 seats pass one raw good round a cycle, each paying its giver in another raw good at the reference
values, so after every lap no seat's goods changed while no pair ever traded a good both ways.  This bench
plays that scenario and reads, per setting and noise level:

- the planted cycles' pairs (each pair along the cycle) raised by a ``wash_cycle`` flag, and by any screen
  (Wilson 95%), and the precision of the pairs raised in those matches (both seats in the plant);
- the same recall with one rule the other way, on the same matches (``--compare``): ``lean`` (the default),
  ``wash_cycle_lean`` flipped: off (as shipped since configuration 2.19.0), each transfer's direction a coin; on
  (configuration 2.18.0's test), each pair of the cycle may lean as hard as the match's pairs outside it;
  ``in_step``, the in-step rule (configuration 2.21.0: the good passed on in step with what arrives) off, or at
  0.05 where a configuration has it off;
- why each planted cycle with a pair not raised was missed: no wash cycle qualified on its seats (laps, the
  members' imbalance, the search), none was in step (with ``--compare in_step``: one qualified with the rule
  off), or one was tested and did not pass the match-level step (its p-value);
- with ``--clean FIRST-LAST``, those honest seeds (scenario ``clean``) at each setting and level: the matches not
  clear, and those with a wash-cycle flag, either way.

Nothing is tuned here.  Splits of planted seeds: ``tune`` (seeds 1...) is where the scenario's mechanics were
checked and this bench written; ``report`` (seeds 5001...) was held out until its first look, under
configuration 2.18.0, which led to the lean's being turned off; ``gate`` (seeds 6001...) was kept for that
change's gate, ``gate2`` (seeds 7001...) for the gate of configuration 2.20.0 (rings joined by a pair of seats),
``gate3`` (seeds 8001...) for the gate of a first in-step rule (the phases between arrivals; it failed at 150
ticks and was not shipped), ``gate4`` (seeds 9001...) for the gate of configuration 2.21.0 (in step: each
member's arrivals and pass-ons alternate), ``gate5`` (seeds 10001...) for the gate of configuration 2.22.0 (the
order read with the direction in the test).  Settings other than the simulator's defaults (8 player seats, 300
ticks, a 12 x 12 map) are ``bench/screens.py``'s sweep settings.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py, the collusion screens benchmark)

SPLITS = {"tune": 1, "report": 5001, "gate": 6001, "gate2": 7001, "gate3": 8001, "gate4": 9001, "gate5": 10001}
"""First seed of each split of planted wash-cycle matches."""
HOW = {"tune": "the scenario's mechanics checked and the bench written on it",
       "report": "held out until its first look, under configuration 2.18.0; its second, under 2.21.0 with the "
                 "in-step rule on and off; its third, under 2.22.0, the same",
       "gate": "kept for the gate of configuration 2.19.0",
       "gate2": "kept for the gate of configuration 2.20.0",
       "gate3": "read once for the gate of an in-step rule that failed it (phases), not shipped",
       "gate4": "read for the gate of configuration 2.21.0 (in step: arrivals and pass-ons alternate), then once by "
                "this bench to check it (the same figures)",
       "gate5": "read once for the gate of configuration 2.22.0 (the order read with the direction), by a script "
                "reading 2.21.0's test beside it"}
"""How each split was used."""
DEFAULT = "default"
"""The simulator's default size (8 player seats, 300 ticks, a 12 x 12 map)."""

Pair = tuple[str, str]


@dataclass(frozen=True)
class Reading:
    """One planted match read: its planted pairs, those raised by a wash-cycle flag as shipped and with the
    compared rule the other way, those raised by any screen, every pair raised, the plant's seats, the
    verdict, and why a cycle was missed."""

    planted: frozenset[Pair]
    wash_cycle: frozenset[Pair]
    other: frozenset[Pair]
    any_screen: frozenset[Pair]
    raised: frozenset[Pair]
    plant: frozenset[str]
    verdict: str
    miss: str | None


@dataclass(frozen=True)
class Honest:
    """One honest match read as shipped and with the compared rule the other way: the verdicts, and whether a
    wash-cycle flag was raised."""

    verdict: str
    other_verdict: str
    wash_cycle: bool
    other_wash_cycle: bool


COMPARES = ("lean", "in_step")
"""The rules ``--compare`` can turn the other way."""


@cache
def configs(compare: str = "lean") -> tuple[Any, Any]:
    """The shipped configuration and the same with ``compare``'s rule the other way (read once a process):
    ``wash_cycle_lean`` flipped, or ``wash_cycle_in_step`` off (1) where it is on, at 0.05 where it is off."""
    from daishi_forensics.screens import load_config

    shipped = load_config()
    ring = shipped.screens["ring"]
    if compare == "lean":
        return shipped, load_config({"screens": {"ring": {"wash_cycle_lean": not bool(ring["wash_cycle_lean"])}}})
    if compare == "in_step":
        level = 0.05 if float(ring["wash_cycle_in_step"]) >= 1 else 1.0
        return shipped, load_config({"screens": {"ring": {"wash_cycle_in_step": level}}})
    raise ValueError(f"--compare must be one of {', '.join(COMPARES)}, not {compare!r}")


def other_name(compare: str = "lean") -> str:
    """What the comparison reads: ``lean on`` (as shipped, off) or ``lean off (coin)``; ``in step off`` (as
    shipped, on) or ``in step at 0.05``."""
    ring = configs(compare)[1].screens["ring"]
    if compare == "lean":
        return "lean on" if ring["wash_cycle_lean"] else "lean off (coin)"
    return "in step off" if float(ring["wash_cycle_in_step"]) >= 1 else "in step at 0.05"


def raised_by(result: Any, kind: str | None = None) -> frozenset[Pair]:
    """The pairs ``result``'s flags raised (of test ``kind`` only, when given)."""
    return frozenset(screens._pair(a, b) for f in result.flags if kind is None or f.kind == kind for a, b in f.pairs)


def _tested(result: Any, plant: frozenset[str]) -> list[Any]:
    """The wash-cycle tests ``result`` made on two seats of ``plant`` or more."""
    return [t for t in result.tests if t.key[0] == "ring.cycle" and len(set(t.key[1]) & plant) >= 2]


def why_missed(result: Any, plant: frozenset[str], without_in_step: Any = None) -> str:
    """Why a planted cycle was not raised whole: ``tested p=... min_p=...`` for the wash-cycle test made on seats of
    the plant with the smallest p-value (it did not pass the match-level step); ``out of step`` where no cycle
    qualified but one did with the in-step rule off (``without_in_step``, that reading, when given); else ``no
    qualifying cycle``."""
    tested = _tested(result, plant)
    if not tested:
        return "out of step" if without_in_step is not None and _tested(without_in_step, plant) else \
            "no qualifying cycle"
    best = min(tested, key=lambda t: t.p_value)
    return f"tested p={best.p_value:.2g} min_p={best.min_p:.2g} family={result.testing.get('family')}"


def read(graph: nx.MultiDiGraph, truth: dict[str, Any], compare: str = "lean") -> Reading:
    """One planted match screened as shipped and with ``compare``'s rule the other way."""
    from daishi_forensics.screens import screen_graph

    shipped, other = configs(compare)
    (plant,) = [p for p in truth["planted"] if p["kind"] == "wash_cycle"]
    cycle = plant["cycle"]
    pairs = frozenset(screens._pair(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle)))
    seats = frozenset(plant["agents"])
    result = screen_graph(graph, shipped)
    beside = screen_graph(graph, other)
    found = raised_by(result, "wash_cycle")
    off = beside if compare == "in_step" and float(other.screens["ring"]["wash_cycle_in_step"]) >= 1 else None
    return Reading(pairs, found & pairs, raised_by(beside, "wash_cycle") & pairs,
                   raised_by(result) & pairs, raised_by(result), seats, result.verdict,
                   None if pairs <= found else why_missed(result, seats, off))


def read_honest(graph: nx.MultiDiGraph, compare: str = "lean") -> Honest:
    """One honest match screened as shipped and with ``compare``'s rule the other way."""
    from daishi_forensics.screens import screen_graph

    shipped, other = configs(compare)
    a, b = screen_graph(graph, shipped), screen_graph(graph, other)
    return Honest(a.verdict, b.verdict, any(f.kind == "wash_cycle" for f in a.flags),
                  any(f.kind == "wash_cycle" for f in b.flags))


def measure(job: tuple[str, str, int, str, str], compare: str = "lean") -> tuple[str, str, Reading | Honest]:
    """One match simulated, replayed and read: ``(setting, noise, reading)``, an honest (``clean``) one's reading
    an :class:`Honest`."""
    split, kind, seed, noise, setting = job
    played = screens.simulate((split, kind, seed, noise) if setting == DEFAULT else job)
    return setting, noise, (read_honest(played[4], compare) if kind == "clean"
                            else read(played[4], played[5], compare))


def jobs(split: str, seeds: int, levels: Sequence[str], settings: Sequence[str]) -> list[tuple[str, str, int, str, str]]:
    """The split's first ``seeds`` planted seeds at every level and setting.

    >>> jobs("report", 2, ["none"], ["default", "150 ticks"])
    [('report', 'wash_cycle', 5001, 'none', 'default'), ('report', 'wash_cycle', 5002, 'none', 'default'), \
('report', 'wash_cycle', 5001, 'none', '150 ticks'), ('report', 'wash_cycle', 5002, 'none', '150 ticks')]
    """
    first = SPLITS[split]
    return [(split, "wash_cycle", s, noise, setting) for setting in settings for noise in levels
            for s in range(first, first + seeds)]


def honest_jobs(seeds: range, levels: Sequence[str], settings: Sequence[str]) -> list[tuple[str, str, int, str, str]]:
    """Honest matches (scenario ``clean``) of ``seeds`` at every level and setting.

    >>> honest_jobs(range(91801, 91803), ["heavy"], ["600 ticks"])
    [('honest', 'clean', 91801, 'heavy', '600 ticks'), ('honest', 'clean', 91802, 'heavy', '600 ticks')]
    """
    return [("honest", "clean", s, noise, setting) for setting in settings for noise in levels for s in seeds]


def seed_range(text: str) -> range:
    """``FIRST-LAST`` (both included) as a range.

    >>> seed_range("91801-92000")
    range(91801, 92001)
    """
    first, _, last = text.partition("-")
    if not (first.isdigit() and last.isdigit() and int(first) <= int(last)):
        raise ValueError(f"--clean must be FIRST-LAST, not {text!r}")
    return range(int(first), int(last) + 1)


def report(rows: Sequence[tuple[str, str, Reading]], split: str, compare: str = "lean") -> None:
    """Per setting and level: recall (wash-cycle flag as shipped, with the compared rule the other way, any screen), the
    precision of every pair raised in these matches, the verdicts and the misses' reasons."""
    how = HOW[split]
    print(f"\n== split {split} ({how}): planted wash cycles, pair level ==")
    print(f"  setting           noise    wash cycle, shipped [Wilson 95%]    {other_name(compare):33s}"
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
              f"{screens.rate_ci(sum(len(r.other) for r in mine), n)}   "
              f"{screens.rate_ci(sum(len(r.any_screen) for r in mine), n)}   {screens.rate_ci(right, len(raised))}   "
              + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    misses = Counter(r.miss.split(" p=")[0] for _s, _n, r in rows if r.miss)
    print("\n  planted cycles not raised whole, why: "
          + (", ".join(f"{k} {v}" for k, v in sorted(misses.items())) or "none"))
    for setting, noise, r in rows:
        if r.miss and r.miss.startswith("tested"):
            print(f"    {setting}, {noise}: {r.miss}")
    print(f"\n(split {split}: {how}; screens as shipped and with {other_name(compare)}, nothing tuned here)")


def report_honest(rows: Sequence[tuple[str, str, Honest]], seeds: range, compare: str = "lean") -> None:
    """Per setting and level: honest matches not clear and with a wash-cycle flag, as shipped and the other way."""
    other = other_name(compare)
    print(f"\n== honest matches (scenario clean, seeds {seeds.start} to {seeds.stop - 1}) ==")
    print(f"  setting           noise    not clear, shipped [Wilson 95%]    {'not clear, ' + other:33s}"
          f"wash-cycle flag, shipped / {other}")
    cells: dict[tuple[str, str], list[Honest]] = {}
    for setting, noise, h in rows:
        cells.setdefault((setting, noise), []).append(h)
    for (setting, noise), mine in cells.items():
        n = len(mine)
        print(f"  {setting:17s} {noise:8s} {screens.rate_ci(sum(h.verdict != 'clear' for h in mine), n)}   "
              f"{screens.rate_ci(sum(h.other_verdict != 'clear' for h in mine), n)}   "
              f"{sum(h.wash_cycle for h in mine)} / {sum(h.other_wash_cycle for h in mine)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=sorted(SPLITS), default="report")
    parser.add_argument("--seeds", type=int, default=40,
                        help="planted matches per setting and level (default 40; 0: honest seeds only)")
    parser.add_argument("--noise", default=",".join(screens.NOISE), help="noise levels, comma-separated")
    parser.add_argument("--settings", default=DEFAULT,
                        help=f"'{DEFAULT}' and any of bench/screens.py's sweep settings, comma-separated: "
                             + ", ".join(name for name, _ in screens.SCREEN_SWEEPS))
    parser.add_argument("--clean", default=None, metavar="FIRST-LAST",
                        help="also read these honest seeds (scenario clean) at every setting and level")
    parser.add_argument("--compare", choices=COMPARES, default="lean",
                        help="the rule read the other way beside the shipped reading (default lean)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    settings = args.settings.split(",")
    known = {DEFAULT, *(name for name, _ in screens.SCREEN_SWEEPS)}
    if unknown := [s for s in settings if s not in known]:
        parser.error(f"unknown settings: {', '.join(unknown)}")
    levels = args.noise.split(",")
    if unknown := [n for n in levels if n not in screens.NOISE]:
        parser.error(f"unknown noise levels: {', '.join(unknown)}")
    try:
        clean = seed_range(args.clean) if args.clean else range(0)
    except ValueError as exc:
        parser.error(str(exc))
    planted = jobs(args.split, args.seeds, levels, settings)
    with Pool(args.workers) as pool:
        rows = pool.map(partial(measure, compare=args.compare), planted + honest_jobs(clean, levels, settings),
                        chunksize=2)
    if planted:
        report([(s, n, r) for s, n, r in rows if isinstance(r, Reading)], args.split, args.compare)
    if clean:
        report_honest([(s, n, r) for s, n, r in rows if isinstance(r, Honest)], clean, args.compare)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
