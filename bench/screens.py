"""Benchmark of the collusion screens: detection, the clean-match rates, calibration and speed.

    python bench/screens.py [--seeds 12] [--clean 60] [--split report|fresh|fresh2|fresh3|fresh4|fresh5|fresh6|fresh7] [--workers N] [--tune-noise none,medium]
    python bench/screens.py --sweep [--sweep-clean 200] [--sweep-seeds 8] [--sweep-noise none,light,medium,heavy] [--sweep-compare [feeder|whole_items|thrown_fight|net_trades]]
                            [--workers N]

Nothing is tuned here: the screens run with the shipped configuration, and every figure
says which split it comes from.

Splits.  Simulated matches come in two disjoint sets of seeds: ``tune`` (seeds 1...) is the
only set the screens' choices (the nulls, the size floors, the rate split) were ever
looked at on, at noise levels ``none`` and ``medium`` (and, for the diagnosis of what the
screens miss, ``heavy``: ``--tune-noise none,medium,heavy``); ``report`` (seeds 5001...)
was not looked at while choosing, and the level ``light`` was never used for choosing on
those two splits until configuration 2.10.0, whose diagnosis read the tune seeds at light
(cartels) and heavy (rings) too.  ``--split report`` (the default) prints the report split only.  The report split has
since been run once under every version of the configuration, so it is no longer quite held
out; ``fresh`` (seeds 20001..., every noise level) was added before the thrown-fight and
feeder diagnosis under configuration 2.8.1 and run once its rules were final.  That look found
honest robberies passing the thrown-fight size floor, and the floor was changed for it
(configuration 2.9.0), so ``fresh`` is now looked at too; ``fresh2`` (seeds 30001..., every
noise level), added before that change, was first run once 2.9.0 was final; ``fresh3`` (seeds
40001..., every noise level) was added before the ring, cartel and thrown-fight work of
configuration 2.10.0 and first run once its rules were final, when the fresh2 split had its
second look; ``fresh4`` (seeds 50001..., every noise level) was added before the thrown-fight,
ring and off-price work of configuration 2.11.0 and first run once its rules were final, when
the fresh3 split had its second look; ``fresh5`` (seeds 60001..., every noise level) was added
once the round-trip ring rule of configuration 2.12.0 was final, and first run then; ``fresh6`` (seeds
65001..., every noise level; its seeds inside fresh5's old block, past any seed fresh5 ever drew) was added under
configuration 2.25.0, with the criteria of its first look written down before it was run; ``fresh7`` (seeds
500001..., every noise level; a block no bench had drawn from) was added under configuration 2.32.0 to measure the
configuration as shipped on matches nobody had played, its criteria written down before its first run (the README
records how many looks each split has had).

The settings sweep (``--sweep``, run alone).  Every split above is played at the simulator's defaults (8
player seats, 300 ticks, a 12 x 12 map).  ``sweep`` (honest seeds from 71001, planted seeds from 70001, never
generated before it) is played only at other sizes, one setting changed at a time (:data:`SCREEN_SWEEPS`: 4, 16
and 32 player seats; 150 and 600 ticks; a 6 x 6 and a 20 x 20 map), at every noise level, and prints per setting
and level the honest matches not ``clear`` and ``flag`` (Wilson 95%; every level pooled too), what raised the
ones not clear and their seeds, and the planted kinds' recall and precision as for the other splits.  Those seeds
are the sweep's first draw, looked at thirteen times; ``--sweep-draw 2`` plays a second draw inside the same block
(planted from 70501, honest from 75001), which no run generated before configuration 2.25.0; ``--sweep-draw 3`` a
third draw in a block of its own (planted from 510001, honest from 511001), first played under 2.32.0.  One
simulated and replayed match costs 0.04 to 0.5 s (the 32-seat ones the dearest), so the defaults (200 honest
matches per setting and level, 8 planted seeds per kind: 6,720 matches) take about ten minutes on two idle
workers (6,160 matches, 4 planted seeds a kind, took 15 minutes on one worker of a shared machine); 200 is
the fewest with which a setting and level with no alarm has its interval's top under the 2% target (and the 800
of a setting's four levels pooled, with no flag, under the 0.5% flag target).  ``--sweep-compare`` screens the
same matches again with the feeder's share floor off (configuration 2.14.0's feeder, operator and season
screens) and prints both: the honest matches with a finding of the feeder's test and the planted feeder pairs
found, per setting; ``--sweep-compare whole_items`` does the same with every trade read at its values
(configuration 2.22.0's feeder, operator and season screens); ``--sweep-compare thrown_fight`` does the same with
the floor left past the thrown-fight screen's company and silence gates off (configuration 2.16.0's thrown fights);
``--sweep-compare net_trades`` counts the honest matches with a typology finding with every leg of a trade read
as a payment (configuration 2.23.0's typologies; no planted kind is theirs).  ``--pairs`` runs the pairs report
instead: honest matches (seeds from 150001, ``--pairs-clean`` a size and level) at eight sizes where two or three of
the sweep's settings change together, which the sweep never plays, screened as shipped.

Printed, each measured in this one run:

- per noise level (none, light, medium, heavy) and planted kind (feeder, ring, cartel,
  off_price, thrown_fight): pair-level recall (planted pairs the kind's screen raised) and
  precision (pairs raised by any screen in matches with a plant that belong to a planted
  group), each with a Wilson 95% interval;
- per noise level, on honest matches (``clean`` with that noise): the share not ``clear``
  and the share ``flag`` (targets: at most 2% and 0.5%), with a Wilson 95% interval;
- why each planted feeder, ring and cartel pair its screen missed was missed (the statistic
  at its ceiling, the multiple testing, or a finding no more unusual than honest play), and
  how many honest matches of the same split and level have a test of that screen as small;
- the thrown-fight gate: at size floors 0, 2, 5 and 10 typical exchanges, with the company
  gate off and as shipped, the honest matches raised by the thrown-fight screen and the planted
  fights found;
- the calibration curve: the configured false-alarm rate against the observed share of
  honest matches not ``clear`` (report split, every noise level pooled);
- the same clean rate on a second honest economy written apart from the simulator
  (``bench/market_world.py``: random matching, whole-unit barter) at each of its levels, with
  Wilson intervals, and which screens raised the matches not clear: its tune seeds (1...) were
  looked at (the round-trip null, its fit and the wash-cycle test were changed because of their
  false alarms), its report seeds (from 10001) never;
- seconds to screen a 10,000-event match (null models and the multiple-testing step
  included) and a dense graph of 10,000 transfers.

Planted pairs (from ``truth.json``): feeder, the beneficiary with each spoke; ring, each
pair along the cycle; cartel, every pair of the bloc; off_price, the gainer and the giver;
thrown_fight, the attacker and the victim.  A raised pair counts as correct when both
agents belong to one planted group (a thrown fight's refillers included).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import tempfile
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import networkx as nx

KINDS = ("feeder", "ring", "cartel", "off_price", "thrown_fight")
NOISE = ("none", "light", "medium", "heavy")
TUNED_NOISE = ("none", "medium")
"""The noise levels the screens' choices were made on (tune split only)."""
SPLITS = {"tune": 1, "report": 5001, "fresh": 20001, "fresh2": 30001, "fresh3": 40001, "fresh4": 50001, "fresh5": 60001,
          "fresh6": 65001, "fresh7": 500001, "sweep": 70001}
"""First seed of each split (planted matches from it, honest ones from 1,000 past it).  ``sweep`` is played only
at the settings of :data:`SCREEN_SWEEPS` (``--sweep``), never at the simulator's defaults."""
SCREEN_SWEEPS: tuple[tuple[str, dict[str, int]], ...] = (
    ("4 player seats", {"n_agents": 4}),
    ("16 player seats", {"n_agents": 16}),
    ("32 player seats", {"n_agents": 32}),
    ("150 ticks", {"ticks": 150}),
    ("600 ticks", {"ticks": 600}),
    ("a 6 x 6 map", {"width": 6, "height": 6}),
    ("a 20 x 20 map", {"width": 20, "height": 20}),
)
"""The settings sweep's match sizes, each changing one of the simulator's defaults (8 player seats, 300 ticks, a
12 x 12 map): half, twice and four times the seats, half and twice the ticks, a quarter and nearly three times
the regions.  The screens' nulls are built from the match itself, so their clean-match rates should not depend
on its size; the default splits measure them at the defaults only."""
SCREEN_PAIRS: tuple[tuple[str, dict[str, int]], ...] = (
    ("4 seats, 150 ticks", {"n_agents": 4, "ticks": 150}),
    ("4 seats, 600 ticks", {"n_agents": 4, "ticks": 600}),
    ("32 seats, 150 ticks", {"n_agents": 32, "ticks": 150}),
    ("32 seats, 600 ticks", {"n_agents": 32, "ticks": 600}),
    ("16 seats, a 6 x 6 map", {"n_agents": 16, "width": 6, "height": 6}),
    ("4 seats, a 20 x 20 map", {"n_agents": 4, "width": 20, "height": 20}),
    ("a 6 x 6 map, 600 ticks", {"width": 6, "height": 6, "ticks": 600}),
    ("16 seats, a 20 x 20 map, 150 ticks", {"n_agents": 16, "width": 20, "height": 20, "ticks": 150}),
)
"""The pairs report's match sizes (``--pairs``): two or three of the sweep's settings changed together, never run
together by the sweep, which changes one at a time (small and short, large and long, crowded and sparse maps)."""
SCREEN_LONG: tuple[tuple[str, dict[str, int]], ...] = (
    ("3000 ticks", {"ticks": 3000}),
)
"""A long match (ten times the default ticks), which neither the sweep nor the pairs report plays: only the studies
that name it (``bench/ring_members.py``).  Over many rounds honest pairs make a few round trips each, by chance."""
PAIRS_FIRST = 150001
"""The pairs report's first honest seed (its matches are honest only)."""
PAIRS_LOOKED = range(150001, 150101)
"""The pairs report's seeds read while a rule was written (configuration 2.24.0's trades read as one transfer)."""
PAIRS_HOW = "looked at (150001-150100), held out beyond"
"""How the pairs report's figures were chosen, for its table."""
SWEEP_MAX_SEEDS = 1000
"""The sweep's planted seeds per kind stay below its honest ones (``SPLITS["sweep"] + 1000``)."""
SWEEP_MAX_CLEAN = 9000
"""The sweep's honest seeds stay below the next 10,000 (80001), where no split starts."""
NOMINAL = (0.005, 0.01, 0.02, 0.05, 0.1)
"""Configured false-alarm rates of the calibration curve."""


def _how(split: str, noise: str) -> str:
    """How a figure's matches were used: tuned on, looked at (tune seeds at a level added for
    diagnosis only; the fresh split, whose first look changed a rule), or held out."""
    if split == "fresh":
        return "looked at"
    if split != "tune":
        return "held out"
    return "tuned on" if noise in TUNED_NOISE else "looked at"


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def planted_pairs(p: dict[str, Any]) -> set[tuple[str, str]]:
    kind = p["kind"]
    if kind == "feeder":
        return {_pair(p["beneficiary"], s) for s in p["spokes"]}
    if kind == "ring":
        c = p["cycle"]
        return {_pair(c[i], c[(i + 1) % len(c)]) for i in range(len(c))}
    if kind == "off_price":
        return {_pair(p["gainer"], p["giver"])}
    if kind == "thrown_fight":
        return {_pair(p["attacker"], p["victim"])}
    a = p["agents"]
    return {_pair(x, y) for i, x in enumerate(a) for y in a[i + 1:]}


def simulate(job: tuple[str, str, int, str] | tuple[str, str, int, str, str],
             ) -> tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]:
    """One simulated match: its transfer graph (the screens' passes only) and truth.  A job of the
    settings sweep names its settings fifth (a name of :data:`SCREEN_SWEEPS`); every other job is
    played at the simulator's defaults."""
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.passes import analyze
    from daishi_forensics.report.screening import SCREEN_PASSES, match_graph
    from daishi_forensics.simulate import simulate_match, write_match

    split, kind, seed, noise = job[0], job[1], job[2], job[3]
    settings = dict(SCREEN_SWEEPS + SCREEN_PAIRS + SCREEN_LONG)[job[4]] if len(job) == 5 else {}
    match = simulate_match(kind, seed, noise=noise, **settings)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_match(match, Path(tmp))
        graph = match_graph(analyze(read_match(open_match(str(path))), only=SCREEN_PASSES))
    return split, kind, seed, noise, graph, match.truth


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of ``k`` successes in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate_ci(k: int, n: int) -> str:
    """``k/n = share [Wilson 95%]``."""
    if n == 0:
        return "   n/a (0)        "
    lo, hi = wilson(k, n)
    return f"{k / n:6.3f} [{lo:.3f}, {hi:.3f}] ({k:3d}/{n:3d})"


def detection(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], split: str) -> None:
    from daishi_forensics.screens import load_config, screen_graph

    config = load_config()
    print(f"\n== split {split}: planted kinds (pair level) ==")
    print("  noise    kind          recall [Wilson 95%]              precision (any planted group)     how chosen")
    for noise in NOISE:
        mine = [r for r in rows if r[0] == split and r[3] == noise and r[1] in KINDS]
        if not mine:
            continue
        tp: Counter[str] = Counter()
        flagged: Counter[str] = Counter()
        planted_n: Counter[str] = Counter()
        found: Counter[str] = Counter()
        for _s, kind, _seed, _noise, graph, truth in mine:
            result = screen_graph(graph, config)
            groups = [set(p["agents"]) | set(p.get("refillers", [])) for p in truth["planted"]]
            by_screen: dict[str, set[tuple[str, str]]] = {}
            raised: set[tuple[str, str]] = set()
            for f in result.flags:
                for a, b in f.pairs:
                    by_screen.setdefault(f.screen, set()).add(_pair(a, b))
                    raised.add(_pair(a, b))
            for a, b in raised:
                flagged[kind] += 1
                tp[kind] += any(a in g and b in g for g in groups)
            for p in truth["planted"]:
                pairs = planted_pairs(p)
                planted_n[p["kind"]] += len(pairs)
                found[p["kind"]] += len(pairs & by_screen.get(p["kind"], set()))
        how = _how(split, noise)
        for kind in KINDS:
            print(f"  {noise:8s} {kind:13s} {rate_ci(found[kind], planted_n[kind])}   "
                  f"{rate_ci(tp[kind], flagged[kind])}   {how}")
        print(f"  {noise:8s} {'all kinds':13s} {rate_ci(sum(found.values()), sum(planted_n.values()))}   "
              f"{rate_ci(sum(tp.values()), sum(flagged.values()))}   {how}")


def thrown_misses(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], split: str) -> None:
    """Why planted thrown fights were missed: under the size floor (short of the company gate and of the
    silence level, or past one of them and under the lower floor left there: what the acts took, in typical
    exchanges, in all and leaving the largest act out as the floor reads it, and what kind of act took it;
    how long the two stood together, in median pairs) or a test that did not pass the match's family (then
    its p-value, the count's and the silence's parts, the cut it had to pass, and how many honest matches of the same
    split and level have a thrown-fight test as small, gates or not: where that is a few in a hundred,
    no procedure that keeps honest matches clear at the shipped rate could find the fight with this test)."""
    from daishi_forensics.screens import load_config, screen_graph
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.thrown_fight import taken_again

    config = load_config()
    floor = float(config.screens["thrown_fight"]["min_value"])
    gate = float(config.screens["thrown_fight"]["company_ratio"])
    gated_floor = float(config.screens["thrown_fight"].get("min_value_gated", 0.0))
    print(f"\n== split {split}: planted thrown fights missed, and why ==")
    for noise in NOISE:
        mine = [r for r in rows if r[0] == split and r[3] == noise and r[1] == "thrown_fight"]
        if not mine:
            continue
        clean = [screen_graph(r[4], config) for r in rows if r[0] == split and r[3] == noise and r[1] == "clean"]
        planted = under = untested = 0
        notes = []
        for _s, _kind, seed, _noise, graph, truth in mine:
            result = screen_graph(graph, config)
            view = TransferView(graph)
            for p in truth["planted"]:
                if p["kind"] != "thrown_fight":
                    continue
                planted += 1
                x, v = p["attacker"], p["victim"]
                if any(f.screen == "thrown_fight" and set(f.agents) == {x, v} for f in result.flags):
                    continue
                acts = view.pair(x, v).acts_by(x)
                taken = sum(a.value or 0.0 for a in acts) / (view.scale or 1.0)
                again = taken_again(acts) / (view.scale or 1.0)
                ratio = view.contact_of(x, v) / (view.typical_contact or 1.0)
                kinds = Counter(a.kind for a in acts)
                by_kind = {k: round(sum(a.value or 0.0 for a in acts if a.kind == k) / (view.scale or 1.0), 1)
                           for k in sorted(kinds)}
                read = _ungated(graph, x, v)
                gated = (gate > 0 and view.contact is not None and ratio >= gate) or _kept_silent(read)
                if again < (gated_floor if gated else floor):
                    under += 1
                    why = (f"under the floor of {gated_floor:g} left for a pair that kept company or kept silent"
                           if gated else "under the floor, short of the company gate and the silence level")
                else:
                    untested += 1
                    why = "test" + _thrown_test_figures(result, clean, read)
                notes.append(f"seed {seed}: {why}, {len(acts)} acts took {taken:.1f} typical exchanges, "
                             f"{again:.1f} leaving the largest out "
                             f"({', '.join(f'{k} {kinds[k]}: {by_kind[k]}' for k in sorted(kinds))}), "
                             f"together {ratio:.1f} median pairs")
        print(f"  {noise:8s} {planted - under - untested}/{planted} found; missed under the size floor of "
              f"{floor:g} typical exchanges (leaving the largest act out; {gated_floor:g} past the company gate of "
              f"{gate:g} median pairs or the silence level) {under}, by the test {untested}")
        for note in notes:
            print(f"             {note}")


def _ungated(graph: nx.MultiDiGraph, x: str, v: str) -> Any:
    """The pair's thrown-fight finding (``x`` on ``v``) with every size floor and the company gate off: what its
    test read, whatever the floors; None where the screen made no test of it."""
    from daishi_forensics.screens import load_config
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.thrown_fight import thrown_fight

    params = dict(load_config().screens["thrown_fight"])
    found, _tests = thrown_fight(TransferView(graph), {**params, "min_value": 0.0, "min_value_gated": 0.0,
                                                       "company_ratio": 0.0})
    return next((c.flag for c in found if c.flag.agents == (x, v)), None)


def _kept_silent(flag: Any) -> bool:
    """Whether a pair's victim's silence alone passed the thrown-fight gates (``flag``, :func:`_ungated`: its
    silence p-value at most the shipped ``silence_level``, where the match's victims answer)."""
    from daishi_forensics.screens import load_config
    from daishi_forensics.screens.thrown_fight import MIN_ANSWER_RATE

    level = float(load_config().screens["thrown_fight"].get("silence_level", 0.0))
    return (flag is not None and level > 0 and flag.details["answerRate"] >= MIN_ANSWER_RATE
            and flag.details["pSilence"] <= level)


def _thrown_test_figures(result: Any, clean: list[Any], flag: Any) -> str:
    """A thrown fight its test missed (``flag``, :func:`_ungated`): ``p (the count's and the silence's parts, the
    acts expected, the victim's answer rate), the screen's share of the match's rate; honest matches with a
    thrown-fight test as small``."""
    if flag is None:
        return " (no test)"
    d = flag.details
    shared = int(result.testing.get("screensSharing", 1)) or 1
    rate = float(result.testing.get("holmRate", 0.0)) / shared
    honest = sum(honest_least(c, ("thrown_fight",)) <= flag.p_value for c in clean)
    return (f" p {flag.p_value:.2g} (count {d['pConcentration']:.2g} with {d['expectedActs']:.1f} acts expected, "
            f"silence {d['pSilence']:.2g} at answer rate {d['answerRate']:.2f}), the screen's share {rate:.3g} "
            f"({shared} screens sharing); honest matches with a thrown-fight test as small: {honest}/{len(clean)}")


SCREEN_OF = {"feeder": ("feeder",), "ring": ("ring.pair", "ring.cycle", "ring.ring"), "cartel": ("cartel",)}
"""The tests of each planted kind's screen (the first item of a test's key)."""


def _names(key: Any) -> set[Any]:
    """Every seat a test's key names (keys nest tuples of seats)."""
    out: set[Any] = set()
    for part in key if isinstance(key, tuple) else (key,):
        out |= _names(part) if isinstance(part, tuple) else {part}
    return out


def honest_least(result: Any, screen_tests: tuple[str, ...]) -> float:
    """The smallest p-value any test of a screen gave in one (honest) match: 1 when it made none."""
    return min((t.p_value for t in result.tests if isinstance(t.key, tuple) and t.key and t.key[0] in screen_tests),
               default=1.0)


def why_one(result: Any, screen_tests: tuple[str, ...], a: str, b: str) -> tuple[str, str]:
    """Why a planted pair its screen did not raise was missed: ``(cause, figures)``.  Read from the
    tests of the kind's screen that name both seats, the best (smallest p-value) of them:

    - ``no test``: none names both (the pattern the screen tests was never met);
    - ``statistic at its ceiling``: the best p-value is the smallest its test could give (every
      exchange the test reads went the colluders' way), and that could not pass the family: the
      statistic is too weak for the evidence there is, however the family is counted;
    - ``multiple testing``: the best p-value is at most the screen's share of the match's rate
      (alone it would pass) but not its share of the screen's family;
    - ``not unusual``: the best p-value is above the rate although the test could have said
      less: the null is wider than the colluders' evidence, or it is spread over several tests.

    The family here is the screen's own testable tests at its share (the match-level step:
    the screens that could reject share the rate equally, Holm within each)."""
    from daishi_forensics.screens.screening import screen_of_test
    from daishi_forensics.screens.stats import testable_family

    shared = int(result.testing.get("screensSharing", 1)) or 1
    rate = float(result.testing.get("holmRate", 0.0)) / shared  # the screen's share of the match's rate
    screen = screen_of_test((screen_tests[0],))
    own = {t.key: t for t in result.tests if screen_of_test(t.key) == screen}
    family = len(testable_family(own.values(), rate)) or 1
    mine: dict[Any, Any] = {}
    for t in result.tests:
        if isinstance(t.key, tuple) and t.key and t.key[0] in screen_tests and {a, b} <= _names(t.key):
            if t.key not in mine or t.p_value < mine[t.key].p_value:
                mine[t.key] = t
    if not mine:
        return "no test", f"family {family}"
    best = min(mine.values(), key=lambda t: (t.p_value, repr(t.key)))
    figures = (f"best {best.key[0]} p {best.p_value:.2g} (smallest it could give {best.min_p:.2g}), "
               f"the screen's share {rate:.3g} ({shared} screens sharing) over its family of {family} "
               f"({rate / family:.2g} each)")
    if best.p_value <= best.min_p * (1 + 1e-9):
        return "statistic at its ceiling", figures
    if best.p_value <= rate:
        return "multiple testing", figures
    return "not unusual", figures


def _best_p(result: Any, screen_tests: tuple[str, ...], a: str, b: str) -> float:
    return min((t.p_value for t in result.tests if isinstance(t.key, tuple) and t.key and t.key[0] in screen_tests
                and {a, b} <= _names(t.key)), default=1.0)


def why_missed(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], split: str) -> None:
    """Every planted feeder, ring and cartel pair its screen missed, and why (:func:`why_one`); and,
    for each, how many honest matches of the same split and level have a test of that screen at
    least as small (:func:`honest_least`): where that is a few in a hundred or more, no procedure
    that keeps honest matches clear at the shipped rate could find the pair with this statistic."""
    from daishi_forensics.screens import load_config, screen_graph

    config = load_config()
    print(f"\n== split {split}: planted feeder, ring and cartel pairs missed, and why ==")
    for noise in NOISE:
        clean = [screen_graph(r[4], config) for r in rows if r[0] == split and r[3] == noise and r[1] == "clean"]
        for kind in SCREEN_OF:
            mine = [r for r in rows if r[0] == split and r[3] == noise and r[1] == kind]
            if not mine:
                continue
            causes: Counter[str] = Counter()
            planted = 0
            notes = []
            for _s, _kind, seed, _noise, graph, truth in mine:
                result = screen_graph(graph, config)
                raised = {_pair(a, b) for f in result.flags if f.screen == kind for a, b in f.pairs}
                for p in truth["planted"]:
                    if p["kind"] != kind:
                        continue
                    for a, b in sorted(planted_pairs(p)):
                        planted += 1
                        if (a, b) in raised:
                            continue
                        cause, figures = why_one(result, SCREEN_OF[kind], a, b)
                        causes[cause] += 1
                        best = _best_p(result, SCREEN_OF[kind], a, b)
                        honest = sum(honest_least(c, SCREEN_OF[kind]) <= best for c in clean)
                        notes.append(f"seed {seed} {a}~{b}: {cause}; {figures}; honest matches with a {kind} "
                                     f"test as small: {honest}/{len(clean)}")
            shown = ", ".join(f"{c} {n}" for c, n in sorted(causes.items())) or "none"
            print(f"  {noise:8s} {kind:7s} missed {sum(causes.values())}/{planted}: {shown}")
            for note in notes:
                print(f"             {note}")


def thrown_floor(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], split: str,
                 floors: tuple[float, ...] = (0.0, 2.0, 5.0, 10.0)) -> None:
    """Whether the thrown-fight gate is needed: at each size floor (typical exchanges), with the
    company gate off and as shipped, the honest matches where the thrown-fight screen raised a pair,
    and the planted thrown fights found.  The screen's test is in the match's family whatever the
    gate (it only removes candidates), so a gate changes what is raised, never the family."""
    from daishi_forensics.screens import load_config, screen_graph

    shipped = float(load_config().screens["thrown_fight"]["company_ratio"])
    print(f"\n== split {split}: the thrown-fight gate, honest matches raised and planted fights found ==")
    print("  noise    floor  company  honest matches raised by thrown_fight [Wilson 95%]   planted found [Wilson 95%]")
    for noise in NOISE:
        clean = [r for r in rows if r[0] == split and r[3] == noise and r[1] == "clean"]
        planted = [r for r in rows if r[0] == split and r[3] == noise and r[1] == "thrown_fight"]
        if not clean and not planted:
            continue
        for gate in (0.0, shipped):
            for floor in floors:
                config = load_config({"screens": {"thrown_fight": {"min_value": floor, "company_ratio": gate}}})
                raised = sum(any(f.screen == "thrown_fight" for f in screen_graph(r[4], config).flags) for r in clean)
                found = total = 0
                for r in planted:
                    result = screen_graph(r[4], config)
                    for p in r[5]["planted"]:
                        if p["kind"] == "thrown_fight":
                            total += 1
                            found += any(f.screen == "thrown_fight" and set(f.agents) == {p["attacker"], p["victim"]}
                                         for f in result.flags)
                shown = "off" if gate <= 0 else f"{gate:g}"
                print(f"  {noise:8s} {floor:5g}  {shown:>7s}  {rate_ci(raised, len(clean))}              "
                      f"{rate_ci(found, total)}")


def clean_rates(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], split: str) -> None:
    from daishi_forensics.screens import load_config, screen_graph

    config = load_config()
    print(f"\n== split {split}: honest matches (clean, with noise) at the shipped rate "
          f"{config.false_alarm_rate:g} ==")
    print("  noise    matches   not clear [Wilson 95%]          flag [Wilson 95%]               how chosen")
    for noise in NOISE:
        mine = [r for r in rows if r[0] == split and r[3] == noise and r[1] == "clean"]
        if not mine:
            continue
        verdicts = Counter(screen_graph(r[4], config).verdict for r in mine)
        n = len(mine)
        bad = n - verdicts["clear"]
        how = _how(split, noise)
        print(f"  {noise:8s} {n:5d}     {rate_ci(bad, n)}   {rate_ci(verdicts['flag'], n)}   {how}")


def calibration(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], split: str) -> None:
    from daishi_forensics.screens import load_config, screen_graph

    mine = [r for r in rows if r[0] == split and r[1] == "clean"]
    print(f"\n== split {split}: calibration curve, honest matches of every noise level pooled ({len(mine)}) ==")
    print("  configured rate   observed not clear [Wilson 95%]       observed flag [Wilson 95%] (at rate x flag_share)")
    for alpha in NOMINAL:
        config = load_config({"general": {"false_alarm_rate": alpha}})
        verdicts = Counter(screen_graph(r[4], config).verdict for r in mine)
        n = len(mine)
        print(f"  {alpha:8.3f}          {rate_ci(n - verdicts['clear'], n)}   {rate_ci(verdicts['flag'], n)} "
              f"at {alpha * config.flag_share:.4f}")


def _second(job: tuple[int, str, tuple[float, ...]]) -> tuple[str, str, str, tuple[str, ...]]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from market_world import market_world

    from daishi_forensics.screens import load_config, screen_graph

    seed, level, rates = job
    graph = market_world(seed, level=level)
    verdicts = []
    raised: tuple[str, ...] = ()
    for i, alpha in enumerate(rates):
        result = screen_graph(graph, load_config({"general": {"false_alarm_rate": alpha}}))
        verdicts.append(result.verdict)
        if i == 0:
            raised = tuple(sorted({f"{f.screen}/{f.kind}" for f in result.flags}))
    return level, verdicts[0], ",".join(verdicts), raised


def second_world(n: int, split: str, workers: int, rates: tuple[float, ...] = (0.02, 0.05, 0.1)) -> None:
    """The clean rate of the second economy (``bench/market_world.py``) at each of its levels, on its
    ``split``'s first ``n`` seeds, and which screens raised the matches not clear at the shipped rate."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from market_world import LEVELS, SPLITS

    first = SPLITS[split]
    levels = tuple(LEVELS)
    print(f"\n== a second honest economy (bench/market_world.py), {split} split: seeds {first}-{first + n - 1} "
          f"at each level ==")
    print("  level    configured rate   not clear [Wilson 95%]          flag [Wilson 95%]               how chosen")
    with Pool(workers) as pool:
        rows = pool.map(_second, [(first + i, level, rates) for level in levels for i in range(n)], chunksize=4)
    how = "looked at" if split == "tune" else "held out"
    for level in levels:
        mine = [r[2].split(",") for r in rows if r[0] == level]
        for i, alpha in enumerate(rates):
            verdicts = Counter(v[i] for v in mine)
            bad = len(mine) - verdicts["clear"]
            print(f"  {level:8s} {alpha:8.3f}          {rate_ci(bad, len(mine))}   "
                  f"{rate_ci(verdicts['flag'], len(mine))}   {how}")
    print(f"  what raised the matches not clear at {rates[0]:g} (screen/kind: matches):")
    for level in levels:
        raised = Counter(k for r in rows if r[0] == level for k in r[3])
        shown = ", ".join(f"{k}: {c}" for k, c in sorted(raised.items())) or "nothing"
        print(f"  {level:8s} {shown}")


def speed() -> None:
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.passes import analyze
    from daishi_forensics.report.screening import SCREEN_PASSES, match_graph
    from daishi_forensics.screens import load_config, screen_graph
    from daishi_forensics.simulate import simulate_match, write_match

    config = load_config()
    print("\n== speed (one core) ==")
    for scenario, noise in (("mixed", None), ("honest-noisy", "heavy")):
        match = simulate_match(scenario, 11, target_events=10_000, noise=noise)
        with tempfile.TemporaryDirectory() as tmp:
            path = write_match(match, Path(tmp))
            graph = match_graph(analyze(read_match(open_match(str(path))), only=SCREEN_PASSES))
        runs = []
        cpu = []
        for _ in range(3):
            started, started_cpu = time.perf_counter(), time.process_time()
            result = screen_graph(graph, config)
            runs.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        print(f"  {scenario} ({noise or 'no'} noise), {match.n_events:,} events, {graph.number_of_edges()} transfers: "
              f"screens with nulls and multiple testing {sorted(runs)[1]:.3f} s, CPU {sorted(cpu)[1]:.3f} s "
              f"(medians of 3; target < 2 s; verdict {result.verdict}, {result.testing.get('tests')} tests, "
              f"family {result.testing.get('family')})")
    dense = nx.MultiDiGraph(name="dense")
    nodes = [f"n{i:02d}" for i in range(40)]
    for e in range(5_000):  # 10,000 transfers: 5,000 two-leg trades among 40 seats
        a, b = nodes[(7 * e) % 40], nodes[(13 * e + 5) % 40]
        if a == b:
            b = nodes[(13 * e + 6) % 40]
        dense.add_edge(a, b, value=6.0, tick=e // 10, event=e, exchange=e, goods={"wood": 6.0})
        dense.add_edge(b, a, value=6.0, tick=e // 10, event=e, exchange=e, goods={"food": 6.0})
    started, started_cpu = time.perf_counter(), time.process_time()
    screen_graph(dense, config)
    print(f"  a graph of 10,000 transfers among 40 seats: screens {time.perf_counter() - started:.3f} s, "
          f"CPU {time.process_time() - started_cpu:.3f} s")


def jobs(split: str, seeds: int, clean: int, tune_levels: tuple[str, ...] = TUNED_NOISE,
         ) -> list[tuple[str, str, int, str]]:
    first = SPLITS[split]
    levels = tune_levels if split == "tune" else NOISE
    out = [(split, k, first + s, noise) for noise in levels for k in KINDS for s in range(seeds)]
    out += [(split, "clean", first + 1000 + s, noise) for noise in levels for s in range(clean)]
    return out


def named_sizes(text: str, default: str) -> list[str]:
    """The match sizes a comma-separated ``text`` names: ``default`` (the simulator's own size) and the names of
    :data:`SCREEN_SWEEPS`; ValueError naming the first unknown one.

    >>> named_sizes("default, 600 ticks", "default")
    ['default', '600 ticks']
    """
    sizes = [s.strip() for s in text.split(",") if s.strip()]
    known = {name for name, _ in SCREEN_SWEEPS} | {default}
    unknown = [s for s in sizes if s not in known]
    if unknown:
        raise ValueError(f"unknown setting {unknown[0]!r}; known: {', '.join(sorted(known))}")
    return sizes


def named_levels(text: str) -> list[str]:
    """The honest-noise levels a comma-separated ``text`` names (the simulator's ``NOISE_LEVELS``); ValueError
    naming the first unknown one.

    >>> named_levels("none, extreme")
    ['none', 'extreme']
    """
    from daishi_forensics.simulate.noise import NOISE_LEVELS

    levels = [s.strip() for s in text.split(",") if s.strip()]
    wrong = [level for level in levels if level not in NOISE_LEVELS]
    if wrong:
        raise ValueError(f"unknown noise level {wrong[0]!r}; known: {', '.join(NOISE_LEVELS)}")
    return levels


def sweep_settings(settings: dict[str, int]) -> str:
    """The simulator's settings a sweep match is played with, in words: ``settings`` over
    :func:`~daishi_forensics.simulate.simulate_match`'s defaults, read from its signature.

    >>> sweep_settings({})
    '8 player seats, 300 ticks, a 12 x 12 map'
    >>> sweep_settings({"width": 6, "height": 6})
    '8 player seats, 300 ticks, a 6 x 6 map'
    """
    import inspect

    from daishi_forensics.simulate import simulate_match

    given = {k: p.default for k, p in inspect.signature(simulate_match).parameters.items()
             if p.default is not inspect.Parameter.empty} | settings
    return f"{given['n_agents']} player seats, {given['ticks']} ticks, a {given['width']} x {given['height']} map"


SWEEP_SECOND_DRAW = (70501, 75001)
"""The sweep's second draw: its first planted seed and its first honest seed, inside the sweep's block and past every
seed its first draw (``sweep_seeds(..., draw=1)``: planted from 70001, honest from 71001) ever played (70008 and
71200).  Draw 1 stays below them: at most 500 planted seeds a kind and 4,000 honest ones when both are run."""

SWEEP_THIRD_DRAW = (510001, 511001)
"""The sweep's third draw: its first planted seed and its first honest seed, in a block of their own past every other
split's (``fresh7``'s ends by 510001; nothing else draws there), added under configuration 2.32.0 to measure the
configuration as shipped at the sweep's sizes on matches nobody had played: at most 1,000 planted seeds a kind and
9,000 honest ones."""


def sweep_seeds(seeds: int, clean: int, draw: int = 1) -> tuple[range, range]:
    """The sweep split's planted seeds (per kind) and honest seeds, the same at every setting and noise level:
    its first draw (``draw`` 1, the seeds every earlier look played), its second (``draw`` 2, from
    :data:`SWEEP_SECOND_DRAW`: at most 500 planted seeds a kind and 5,000 honest ones, so as to stay in the block)
    or its third (``draw`` 3, from :data:`SWEEP_THIRD_DRAW`).

    >>> sweep_seeds(8, 200)
    (range(70001, 70009), range(71001, 71201))
    >>> sweep_seeds(8, 200, draw=2)
    (range(70501, 70509), range(75001, 75201))
    >>> sweep_seeds(8, 200, draw=3)
    (range(510001, 510009), range(511001, 511201))
    """
    if not 0 <= seeds <= SWEEP_MAX_SEEDS or not 0 <= clean <= SWEEP_MAX_CLEAN:
        raise ValueError(f"the sweep holds at most {SWEEP_MAX_SEEDS} planted seeds a kind and "
                         f"{SWEEP_MAX_CLEAN} honest seeds")
    if draw == 1:
        first = SPLITS["sweep"]
        return range(first, first + seeds), range(first + 1000, first + 1000 + clean)
    if draw == 3:
        planted, honest = SWEEP_THIRD_DRAW
        return range(planted, planted + seeds), range(honest, honest + clean)
    if draw != 2:
        raise ValueError(f"the sweep has draws 1, 2 and 3, not {draw}")
    if seeds > 500 or clean > 5000:
        raise ValueError("the sweep's second draw holds at most 500 planted seeds a kind and 5,000 honest seeds")
    planted, honest = SWEEP_SECOND_DRAW
    return range(planted, planted + seeds), range(honest, honest + clean)


def drawn_seeds() -> set[int]:
    """Every seed this benchmark may draw, at the most each split and sweep draw allows: a split's planted seeds from
    its first and its honest ones from 1,000 past it (at most :data:`SWEEP_MAX_CLEAN` of them), and each sweep
    draw's seeds at its largest.  Other benchmarks' seeds keep clear of all of them."""
    seeds: set[int] = set()
    for split, first in SPLITS.items():
        if split != "sweep":
            seeds.update(range(first, first + 1000 + SWEEP_MAX_CLEAN))
    for draw, most in ((1, (SWEEP_MAX_SEEDS, SWEEP_MAX_CLEAN)), (2, (500, 5000)), (3, (SWEEP_MAX_SEEDS, SWEEP_MAX_CLEAN))):
        for block in sweep_seeds(*most, draw=draw):
            seeds.update(block)
    return seeds


def _span(seeds: range) -> str:
    """``seeds 71001-71200``, ``seed 70001`` or ``no seeds``."""
    if not seeds:
        return "no seeds"
    return f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {seeds[0]}-{seeds[-1]}"


def sweep_jobs(seeds: int, clean: int, levels: tuple[str, ...], draw: int = 1) -> list[tuple[str, str, int, str, str]]:
    """The settings sweep's jobs for :func:`simulate`: at each setting of :data:`SCREEN_SWEEPS` and noise
    level, ``clean`` honest matches and ``seeds`` matches of each planted kind (:func:`sweep_seeds` of ``draw``)."""
    planted, honest = sweep_seeds(seeds, clean, draw)
    out = [("sweep", k, s, noise, name) for name, _ in SCREEN_SWEEPS for noise in levels for k in KINDS
           for s in planted]
    out += [("sweep", "clean", s, noise, name) for name, _ in SCREEN_SWEEPS for noise in levels for s in honest]
    return out


def pairs_jobs(clean: int, levels: tuple[str, ...]) -> list[tuple[str, str, int, str, str]]:
    """The pairs report's jobs for :func:`simulate`: ``clean`` honest matches at each size of :data:`SCREEN_PAIRS`
    and noise level, seeds from :data:`PAIRS_FIRST`.

    >>> jobs = pairs_jobs(2, ("medium",))
    >>> len(jobs), jobs[0], jobs[-1]
    (16, ('pairs', 'clean', 150001, 'medium', '4 seats, 150 ticks'), ('pairs', 'clean', 150002, 'medium', \
'16 seats, a 20 x 20 map, 150 ticks'))
    """
    return [("pairs", "clean", s, noise, name) for name, _ in SCREEN_PAIRS for noise in levels
            for s in range(PAIRS_FIRST, PAIRS_FIRST + clean)]


def sweep_clean(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], names: list[str],
                honest: range, sizes: tuple[tuple[str, dict[str, int]], ...] = SCREEN_SWEEPS,
                split: str = "sweep", how: str = "held out") -> None:
    """Honest matches of the sweep (``names[i]`` the setting of ``rows[i]``; ``sizes``, ``split``, ``how``: the pairs
    report's instead): at each setting and noise level, and every level pooled, the share not ``clear`` and ``flag``
    with Wilson intervals, what raised the matches not clear (screen/kind: matches) and their seeds."""
    from daishi_forensics.screens import load_config, screen_graph

    config = load_config()
    print(f"\n== split {split}: honest matches (clean, with noise) at settings outside the defaults, at the shipped "
          f"rate {config.false_alarm_rate:g} ({_span(honest)} at every setting and level) ==")
    print("  setting                                    noise    matches   not clear [Wilson 95%]          "
          "flag [Wilson 95%]               how chosen")
    notes: list[str] = []
    for name, settings in sizes:
        said = sweep_settings(settings)
        verdicts: Counter[str] = Counter()
        levels = [level for level in NOISE
                  if any(r[1] == "clean" and r[3] == level and n == name for r, n in zip(rows, names))]
        for level in levels:
            mine = [r for r, n in zip(rows, names) if r[1] == "clean" and r[3] == level and n == name]
            here: Counter[str] = Counter()
            raised: Counter[str] = Counter()
            odd = []
            for r in mine:
                result = screen_graph(r[4], config)
                here[result.verdict] += 1
                if result.verdict != "clear":
                    raised.update({f"{f.screen}/{f.kind}" for f in result.flags})
                    odd.append(f"{r[2]} ({result.verdict})")
            verdicts.update(here)
            n = len(mine)
            print(f"  {said:42s} {level:8s} {n:5d}     {rate_ci(n - here['clear'], n)}   "
                  f"{rate_ci(here['flag'], n)}   {how}")
            if odd:
                shown = ", ".join(f"{k}: {c}" for k, c in sorted(raised.items()))
                notes.append(f"  {said:42s} {level:8s} raised by {shown}; seeds {', '.join(odd)}")
        n = sum(verdicts.values())
        if len(levels) > 1:
            print(f"  {said:42s} {'pooled':8s} {n:5d}     {rate_ci(n - verdicts['clear'], n)}   "
                  f"{rate_ci(verdicts['flag'], n)}   {how}")
    print("  what raised the matches not clear (screen/kind: matches), and their seeds:")
    for note in notes or ["  nothing: every honest match clear"]:
        print(note)


FLOOR_OFF = {"screens": {name: {"min_giver_share": 0} for name in ("feeder", "operator", "season")}}
"""The screens with the feeder's share floor off (as under configuration 2.14.0), for ``--sweep-compare feeder``."""

GATED_FLOOR_OFF = {"screens": {"thrown_fight": {"min_value_gated": 0}}}
"""The screens with the thrown-fight floor left past its company and silence gates off (as under configuration
2.16.0: a pair that passed a gate passed whatever its acts took), for ``--sweep-compare thrown_fight``."""


def feed_findings(result: Any, level: str | None = None) -> bool:
    """Whether a screening result holds a finding of the feeder's test (the feeder screen's, or the
    operator screen's shared-operator and duplicate-slot pairs, which read it), at ``level`` if named."""
    return any((f.screen == "feeder" or f.kind in ("shared_operator", "duplicate_slot"))
               and level in (None, f.level) for f in result.flags)


def thrown_findings(result: Any, level: str | None = None) -> bool:
    """Whether a screening result holds a thrown-fight finding, at ``level`` if named."""
    return any(f.screen == "thrown_fight" and level in (None, f.level) for f in result.flags)


def typology_findings(result: Any, level: str | None = None) -> bool:
    """Whether a screening result holds a finding of a money-laundering typology (fans, scatter-gather or
    gather-scatter, value cycles), at ``level`` if named."""
    from daishi_forensics.screens.screening import TYPOLOGIES

    return any(f.screen in TYPOLOGIES and level in (None, f.level) for f in result.flags)


NET_TRADES_OFF = {"general": {"net_trades": False}}
"""The typologies reading every leg of a trade as a payment (as under configuration 2.23.0), for ``--sweep-compare
net_trades``."""

WHOLE_ITEMS_OFF = {"screens": {name: {"whole_items": False} for name in ("feeder", "operator", "season")}}
"""The screens with every trade read at its values (as under configuration 2.22.0: one whole tool paid for a wood is
a one-sided exchange), for ``--sweep-compare whole_items``."""

COMPARISONS: dict[str, tuple[dict[str, Any], Any, str, str | None]] = {
    "feeder": (FLOOR_OFF, feed_findings, "the feeder's test with its share floor", "feeder"),
    "whole_items": (WHOLE_ITEMS_OFF, feed_findings, "the feeder reading trades beyond one whole item", "feeder"),
    "thrown_fight": (GATED_FLOOR_OFF, thrown_findings, "the thrown-fight screen with the floor left past its gates",
                     "thrown_fight"),
    "net_trades": (NET_TRADES_OFF, typology_findings, "the typologies reading a trade as one transfer", None),
}
"""``--sweep-compare`` choices: the change's configuration turned off, the findings it reads (a screening
result's), what is compared, in words, and the planted kind whose pairs are compared (None: no planted kind is
the change's; the honest matches alone)."""


def sweep_compare(rows: list[tuple[str, str, int, str, nx.MultiDiGraph, dict[str, Any]]], names: list[str],
                  change: str = "feeder") -> None:
    """A shipped change (``change``, a name of :data:`COMPARISONS`) against the screens without it, on the same sweep
    matches: per setting and level, the honest matches with a finding the change reads and the ones ``flag``ged by
    it, and per setting, every level pooled, the planted pairs of the change's kind its screen raised, and the
    difference as a share of the planted pairs."""
    from daishi_forensics.screens import load_config, screen_graph

    override, findings, what, kind = COMPARISONS[change]
    shipped, off = load_config(), load_config(override)
    print(f"\n== split sweep: {what} (as shipped) and without it (off) ==")
    print(f"  setting                                    noise    honest with a finding ({kind or change}): shipped / off   "
          "of them flag: shipped / off")
    for name, settings in SCREEN_SWEEPS:
        said = sweep_settings(settings)
        found = {"shipped": 0, "off": 0}
        planted_n = 0
        for level in NOISE:
            honest = [r for r, n in zip(rows, names) if n == name and r[1] == "clean" and r[3] == level]
            if honest:
                counts = {"shipped": [0, 0], "off": [0, 0]}
                for r in honest:
                    for label, config in (("shipped", shipped), ("off", off)):
                        result = screen_graph(r[4], config)
                        counts[label][0] += findings(result)
                        counts[label][1] += findings(result, "flag")
                n = len(honest)
                print(f"  {said:42s} {level:8s} {rate_ci(counts['shipped'][0], n)} / {rate_ci(counts['off'][0], n)}   "
                      f"{counts['shipped'][1]} / {counts['off'][1]}")
            for r in (r for r, n in zip(rows, names) if kind is not None and n == name and r[1] == kind
                      and r[3] == level):
                plants = [p for p in r[5]["planted"] if p["kind"] == kind]
                pairs = set().union(*(planted_pairs(p) for p in plants)) if plants else set()
                planted_n += len(pairs)
                for label, config in (("shipped", shipped), ("off", off)):
                    raised = {_pair(a, b) for f in screen_graph(r[4], config).flags if f.screen == kind
                              for a, b in f.pairs}
                    found[label] += len(pairs & raised)
        if planted_n:
            print(f"  {said:42s} {'planted':8s} {kind} pairs found: shipped {rate_ci(found['shipped'], planted_n)}, "
                  f"off {rate_ci(found['off'], planted_n)}; shipped - off {(found['shipped'] - found['off']) / planted_n:+.3f} "
                  "of the planted pairs")


def run_sweep(args: argparse.Namespace) -> None:
    """The settings sweep (``--sweep``): simulated on the ``sweep`` split with :func:`simulate` and the
    worker pool, then the honest matches' rates (:func:`sweep_clean`) and the planted kinds' recall and
    precision at each setting (:func:`detection`, the split named with the setting)."""
    levels = tuple(level for level in NOISE if level in args.sweep_noise.split(","))
    planted, honest = sweep_seeds(args.sweep_seeds, args.sweep_clean, args.sweep_draw)
    todo = sweep_jobs(args.sweep_seeds, args.sweep_clean, levels, args.sweep_draw)
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(simulate, todo, chunksize=2)
    names = [job[4] for job in todo]
    print(f"simulated and replayed {len(rows)} matches of the sweep split (draw {args.sweep_draw}) in {time.perf_counter() - started:.0f} s "
          f"({args.workers} workers): at each of {len(SCREEN_SWEEPS)} settings and noise levels "
          f"{', '.join(levels)}, honest {_span(honest)}, planted {_span(planted)} a kind")
    sweep_clean(rows, names, honest)
    if args.sweep_compare:
        sweep_compare(rows, names, args.sweep_compare)
    if planted:
        for name, settings in SCREEN_SWEEPS:
            label = f"sweep ({sweep_settings(settings)}; {_span(planted)} a kind and level)"
            detection([(label, *r[1:]) for r, n in zip(rows, names) if n == name and r[1] in KINDS], label)
    print(f"\n(sweep, draw {args.sweep_draw}: honest seeds from {honest.start} and planted seeds from {planted.start}, played "
          f"only at the settings above (each one of the defaults of 8 player seats, 300 ticks and a 12 x 12 map "
          f"changed); every run is a look at this held-out split, counted in docs/benchmarks.md; intervals: Wilson 95%)")


def run_pairs(args: argparse.Namespace) -> None:
    """The pairs report (``--pairs``): honest matches at :data:`SCREEN_PAIRS`, screened as shipped
    (:func:`sweep_clean`)."""
    levels = tuple(level for level in NOISE if level in args.pairs_noise.split(","))
    todo = pairs_jobs(args.pairs_clean, levels)
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = pool.map(simulate, todo, chunksize=2)
    names = [job[4] for job in todo]
    honest = range(PAIRS_FIRST, PAIRS_FIRST + args.pairs_clean)
    print(f"simulated and replayed {len(rows)} matches of the pairs report in {time.perf_counter() - started:.0f} s "
          f"({args.workers} workers): at each of {len(SCREEN_PAIRS)} sizes and noise levels {', '.join(levels)}, "
          f"honest {_span(honest)}")
    sweep_clean(rows, names, honest, SCREEN_PAIRS, "pairs", PAIRS_HOW)
    print(f"\n(pairs: honest seeds from {PAIRS_FIRST}, played only at the sizes above, two or three of the simulator's "
          f"defaults changed together; {PAIRS_LOOKED[0]}-{PAIRS_LOOKED[-1]} were looked at while configuration 2.24.0 "
          "was written (its first look found the rule), later seeds held out; every run is a look, counted in "
          "docs/benchmarks.md; intervals: Wilson 95%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=12, help="seeds per planted kind and noise level (default 12)")
    parser.add_argument("--clean", type=int, default=60, help="honest matches per noise level (default 60)")
    parser.add_argument("--split", choices=("tune", "report", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "both"), default="report",
                        help="which seeds: tune (from 1, the only ones choices were made on), report (from 5001, "
                             "run once under every configuration version), fresh (from 20001, held out until "
                             "configuration 2.8.1's rules were final, then looked at for 2.9.0's size floor), "
                             "fresh2 (from 30001, held out until 2.9.0 was final), fresh3 (from 40001, held out "
                             "until 2.10.0's rules were final), fresh4 (from 50001, held out until 2.11.0's rules "
                             "were final), fresh5 (from 60001, held out until 2.12.0's rules were final), fresh6 (from 65001, "
                             "held out until 2.25.0), fresh7 (from 500001, held out until 2.32.0), both (tune and report); "
                             "default report")
    parser.add_argument("--second", type=int, default=200, help="matches of the second economy, on its tune seeds with --split tune, else on its report seeds "
                        "(default 200; 0: skip it)")
    parser.add_argument("--second-rates", default="0.02,0.05,0.1",
                        help="configured false-alarm rates the second economy is screened at (default 0.02,0.05,0.1)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--tune-noise", default=",".join(TUNED_NOISE),
                        help="noise levels of the tune split (default none,medium, the levels tuned on; add heavy "
                             "to look at heavy noise on tune seeds, as the misses' diagnosis did)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the simulated graphs in this folder and reuse them (the simulator changes, the "
                             "cache does not notice)")
    parser.add_argument("--sweep", action="store_true",
                        help="run only the settings sweep: the sweep split (honest seeds from 71001, planted from "
                             "70001) at 4, 16 and 32 player seats, 150 and 600 ticks, a 6 x 6 and a 20 x 20 map, "
                             "one setting changed at a time")
    parser.add_argument("--sweep-clean", type=int, default=200,
                        help="honest matches per setting and noise level of the sweep (default 200: with none "
                             "alarmed, the interval's top is under the 2%% target)")
    parser.add_argument("--sweep-seeds", type=int, default=8,
                        help="seeds per planted kind, setting and noise level of the sweep (default 8; 0: none)")
    parser.add_argument("--sweep-compare", nargs="?", const="feeder", choices=sorted(COMPARISONS), default=None,
                        help="with --sweep: also screen the sweep's matches with one change turned off and print both: "
                             "feeder (the default: the feeder's share floor; honest matches with a finding of the "
                             "feeder's test, planted feeder pairs found), whole_items (the feeder reading trades "
                             "beyond one whole item; the same figures), thrown_fight (the floor left past the "
                             "thrown-fight gates; honest matches with a thrown-fight finding, planted fights found) "
                             "or net_trades (the typologies reading a trade as one transfer; honest matches with a "
                             "typology finding)")
    parser.add_argument("--sweep-draw", type=int, choices=(1, 2, 3), default=1,
                        help="the sweep's seeds: 1 (the default: honest from 71001, planted from 70001, every earlier "
                             "look's), 2 (honest from 75001, planted from 70501: a second draw, first played under "
                             "configuration 2.25.0) or 3 (honest from 511001, planted from 510001: a third draw, first "
                             "played under configuration 2.32.0)")
    parser.add_argument("--sweep-noise", default=",".join(NOISE),
                        help="noise levels of the sweep (default none,light,medium,heavy)")
    parser.add_argument("--pairs", action="store_true",
                        help="run only the pairs report: honest matches (seeds from 150001) where two or three of the "
                             "sweep's settings change together (4 or 32 seats with 150 or 600 ticks, 16 seats on a "
                             "6 x 6 map, 4 seats on a 20 x 20 map, a 6 x 6 map with 600 ticks, 16 seats on a 20 x 20 "
                             "map with 150 ticks)")
    parser.add_argument("--pairs-clean", type=int, default=100,
                        help="honest matches per size and noise level of the pairs report (default 100)")
    parser.add_argument("--pairs-noise", default="medium,heavy",
                        help="noise levels of the pairs report (default medium,heavy)")
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)
    if args.pairs:
        if not 0 < args.pairs_clean <= SWEEP_MAX_CLEAN:
            parser.error(f"--pairs-clean must be from 1 to {SWEEP_MAX_CLEAN}")
        run_pairs(args)
        return
    if args.sweep:
        if not 0 <= args.sweep_seeds <= SWEEP_MAX_SEEDS or not 0 <= args.sweep_clean <= SWEEP_MAX_CLEAN:
            parser.error(f"--sweep-seeds must be from 0 to {SWEEP_MAX_SEEDS} and --sweep-clean from 0 to "
                         f"{SWEEP_MAX_CLEAN} (the sweep split's seeds)")
        if args.sweep_draw == 1 and (args.sweep_seeds > 500 or args.sweep_clean > 4000):
            parser.error("--sweep-draw 1 holds at most 500 planted seeds a kind and 4,000 honest ones (the second "
                         "draw's seeds start past them)")
        if args.sweep_draw == 2 and (args.sweep_seeds > 500 or args.sweep_clean > 5000):
            parser.error("--sweep-draw 2 holds at most 500 planted seeds a kind and 5,000 honest ones")
        run_sweep(args)
        return
    splits = ("tune", "report") if args.split == "both" else (args.split,)
    tune_levels = tuple(level for level in NOISE if level in args.tune_noise.split(","))
    todo = [j for s in splits for j in jobs(s, args.seeds, args.clean, tune_levels)]
    started = time.perf_counter()
    stored = (args.cache / f"screens-{args.split}-{args.seeds}-{args.clean}-{'-'.join(tune_levels)}.pickle"
              if args.cache else None)
    if stored is not None and stored.exists():
        rows = pickle.loads(stored.read_bytes())
        print(f"read {len(rows)} simulated matches from {stored}")
    else:
        with Pool(args.workers) as pool:
            rows = pool.map(simulate, todo, chunksize=2)
        print(f"simulated and replayed {len(rows)} matches in {time.perf_counter() - started:.0f} s "
              f"({args.workers} workers)")
        if stored is not None:
            stored.parent.mkdir(parents=True, exist_ok=True)
            stored.write_bytes(pickle.dumps(rows))
    for split in splits:
        detection(rows, split)
        thrown_misses(rows, split)
        why_missed(rows, split)
        thrown_floor(rows, split)
        clean_rates(rows, split)
        calibration(rows, split)
    if args.second:  # the second economy has two splits of its own: its tune seeds for ours, its report seeds else
        for split in dict.fromkeys("tune" if s == "tune" else "report" for s in splits):
            second_world(args.second, split, args.workers, tuple(float(r) for r in args.second_rates.split(",")))
    if not args.no_speed:
        speed()
    print("\n(tune: seeds from 1, noise none and medium, and heavy for the diagnosis of misses, the only matches "
          "looked at while choosing; report: seeds from 5001 and every noise level, never looked at while choosing "
          "(run once a configuration version); fresh: seeds from 20001 and every noise level, run once 2.8.1's "
          "rules were final, then looked at for 2.9.0's size floor; fresh2: seeds from 30001 and every noise level, "
          "first run once 2.9.0 was final; fresh3: seeds from 40001 and every noise level, first run once 2.10.0's "
          "rules were final; fresh4: seeds from 50001 and every noise level, first run once 2.11.0's rules were "
          "final; fresh5: seeds from 60001 and every noise level, first run once 2.12.0's rules were final; fresh6: "
          "seeds from 65001 and every noise level, first run under 2.25.0, its criteria written down before; fresh7: seeds from 500001 and every noise level, first run under 2.32.0, its criteria written down before; light was used on the tune split only for 2.10.0's diagnosis; the second economy: tune seeds from 1 looked at, report seeds from 10001 "
          "never; intervals: Wilson 95%)")


if __name__ == "__main__":
    main()
