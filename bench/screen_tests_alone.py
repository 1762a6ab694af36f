"""A study, nothing shipped: what keeps honest matches clear, the screens' tests or their floors.

    python bench/screen_tests_alone.py [--clean 60] [--rates 0.02,0.1,0.3] [--split tune|report] [--workers N]

Every collusion screen tests a finding against honest play in the same match, and the match-level step (Holm's
step-down at each screen's share of ``false_alarm_rate``) decides which candidates are raised.  But a candidate
must also pass its screen's floors and gates (a size in typical exchanges, the thrown fight's company or silence
gate, the feeder's share of what the giver handed anyone): they only remove a candidate, never a test.  So an
honest match can be clear because no test passed the step, or because the tests that passed it belonged to
candidates the floors removed.  The calibration curve of ``bench/screens.py`` (honest matches not clear against the
configured rate) cannot tell the two apart.

This benchmark plays the honest matches of ``bench/screens.py``'s tune split (seeds 1001..., every noise level,
``--clean`` a level: a split already looked at, not held out), or with ``--split report`` those of its report split
(seeds 6001...: held out from every rule, though screened once under each configuration version), and screens each
at every rate of ``--rates``:
it counts the matches not clear (floors and gates applied, as shipped) beside the matches where some test passed
the step (:func:`tests_alone`: the same tests, the same step, the floors and gates set aside), and names the
screens whose tests passed.  Where the second count is far above the rate, the tests' nulls do not hold for the
honest play of the simulator, and the floors are what hold the configured rate.

The matches are simulated and replayed by ``bench/screens.py``'s :func:`simulate` and screened as shipped.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import networkx as nx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py, the collusion screens benchmark)

RATES = (0.02, 0.1, 0.3)
"""The configured rates read: the shipped one, the calibration curve's largest, and one past it."""


@dataclass(frozen=True)
class Reading:
    """One honest match screened at one rate: its verdict as shipped, the screens whose tests passed the step with
    the floors and gates set aside, the tests counted in the family and the tests made."""

    verdict: str
    passed: tuple[str, ...]
    family: int
    tests: int


def tests_alone(graph: nx.MultiDiGraph, rate: float) -> Reading:
    """The graph screened at ``rate`` (``general.false_alarm_rate``): the shipped verdict, and the screens with a
    test whose adjusted p-value (Holm's step at the screen's share, as the match-level step reads it) is at most the
    Daishi screens' rate, whether or not a candidate of that test passed its floors and gates."""
    from daishi_forensics.screens import load_config, screen_graph
    from daishi_forensics.screens.screening import screen_of_test
    from daishi_forensics.screens.stats import adjust_shared

    result = screen_graph(graph, load_config({"general": {"false_alarm_rate": rate}}))
    alpha = float(result.testing["holmRate"])
    adjusted, family, _shared = adjust_shared(result.tests, alpha, screen_of_test)
    passed = tuple(sorted({str(screen_of_test(k)) for k, p in adjusted.items() if p <= alpha}))
    return Reading(result.verdict, passed, family, len(result.tests))


def jobs(clean: int, split: str = "tune") -> list[tuple[str, str, int, str]]:
    """``bench/screens.py`` :func:`simulate` jobs: the split's first ``clean`` honest seeds at every noise level.

    >>> jobs(2)[:3], len(jobs(2))
    ([('tune', 'clean', 1001, 'none'), ('tune', 'clean', 1002, 'none'), ('tune', 'clean', 1001, 'light')], 8)
    >>> jobs(1, "report")[0]
    ('report', 'clean', 6001, 'none')
    """
    first = screens.SPLITS[split] + 1000
    return [(split, "clean", s, noise) for noise in screens.NOISE for s in range(first, first + clean)]


def measure(job: tuple[Any, ...], rates: Sequence[float] = RATES) -> list[Reading]:
    """One honest match simulated, replayed and read at every rate."""
    graph = screens.simulate(job)[4]  # type: ignore[arg-type]
    return [tests_alone(graph, rate) for rate in rates]


SPLIT_NOTES = {
    "tune": "tune split: honest seeds from 1001, looked at while the screens were written, not held out",
    "report": "report split: honest seeds from 6001, held out from every rule (screened once under each configuration "
              "version)",
}
"""What each split's figures are, printed under them."""


def report(readings: Sequence[Sequence[Reading]], rates: Sequence[float], split: str = "tune") -> None:
    """Per rate: matches not clear as shipped, matches with a test passing the step (floors and gates aside,
    Wilson 95%), by screen."""
    n = len(readings)
    print(f"\n== split {split}: honest matches ({n}, every noise level), the tests alone against the shipped verdict ==")
    print("  rate     not clear as shipped [Wilson 95%]     a test passing the step, floors aside [Wilson 95%]   by screen")
    for i, rate in enumerate(rates):
        shipped = sum(r[i].verdict != "clear" for r in readings)
        alone = sum(bool(r[i].passed) for r in readings)
        by = Counter(s for r in readings for s in r[i].passed)
        print(f"  {rate:<7g}  {screens.rate_ci(shipped, n)}     {screens.rate_ci(alone, n)}                  "
              f"{', '.join(f'{k} {v}' for k, v in sorted(by.items())) or 'none'}")
    print(f"\n({SPLIT_NOTES[split]})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clean", type=int, default=60, help="honest matches per noise level (default 60)")
    parser.add_argument("--rates", default=",".join(map(str, RATES)), help="configured rates, comma-separated")
    parser.add_argument("--split", choices=tuple(SPLIT_NOTES), default="tune",
                        help="whose honest seeds: tune (from 1001, the default) or report (from 6001, held out)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    rates = tuple(float(r) for r in args.rates.split(","))
    with Pool(args.workers) as pool:
        readings = pool.starmap(measure, [(job, rates) for job in jobs(args.clean, args.split)], chunksize=4)
    report(readings, rates, args.split)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
