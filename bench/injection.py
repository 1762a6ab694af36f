"""Benchmark of the injection forensics, every figure measured in this one run.

    python bench/injection.py [--probe-seeds 20] [--probe-split tune|report|both] [--probes-only]
                              [--echo-seeds 20] [--cascade-seeds 40]
                              [--cascades report|report-b|report-c|tune|both|all] [--cascades-only]
                              [--messages 20000]

Prints:

1. probe compliance against the simulator's ground truth (``probes`` and ``mixed``
   scenarios, schema v3, v2 and v1, each match written in its version and read through the
   read boundary): every (probe message, target) pair, agreeing on exposed, complied and the
   evidence event, with 95% Wilson intervals, and every disagreement with its scenario, seed and
   version.  Each figure says its split, seeds and settings (:data:`PROBE_SPLITS`): ``TUNE``
   (seeds 0-19 for v3 and 0-4 for v2 and v1, the seeds the probe rules were written against, at
   the simulator's defaults) or ``REPORT`` (seeds 7000-7019 and 7000-7004, never generated with
   these scenarios before the split was added, at the defaults), plus sweeps on the first half of
   the REPORT seeds of settings outside the simulator's defaults (24 player seats, a 6 x 6 map,
   120 ticks, heavy honest noise: :data:`PROBE_SWEEPS`);
2. propagation edges on the simulator's ``echo`` cascades (mutated echoes, and decoy
   phrases sent by agents who never heard each other) at 8, 30 and 60 seats: precision
   and recall of the edges touching a planted message or decoy, and, for transparency,
   the edges found among the organic chatter (which the truth does not list) per 1,000
   messages;
2b. propagation edges on the independent forwarding-cascade generator
   (``daishi_forensics.simulate.cascades``, which shares no code with the ``echo``
   scenario; its archive's goods and seats' names read as the tool reads them,
   ``specifics_of``), where every message is labelled, so every edge counts: precision and
   recall with 95% Wilson intervals, overall, per mutation kind, for forwarders who had
   heard two copies or more, by the edges' confidence, and the false edges on
   lookalikes.  Each figure says its split: ``TUNE`` (the seeds, the half of every word
   list and the mutation kinds the rules were tuned on), ``REPORT`` (other seeds, the
   other half of every word list, every kind -- title case, stacked prefixes, cuts at
   the start and synonyms never generated while tuning) or ``REPORT-B`` (REPORT's word
   lists and kinds on a third set of seeds, added once REPORT had been looked at several
   times: a split never looked at while the rules were written) or ``REPORT-C`` (the same on a
   fourth set of seeds, added once REPORT-B had been looked at twice), plus sweeps on half of
   the split's seeds of settings outside the generator's defaults (60 agents, three
   times the chatter, forwarders twice as slow: tuned against on the TUNE seeds, reported
   on the held-out seeds).  Per kind, the true edges missed entirely and those given a
   wrong parent are counted apart.  A reported tie holding the true parent is counted right in one
   figure of its own, so ambiguity the texts cannot resolve is visible; the edges whose
   true parent no other copy the forwarder heard repeats word for word (the generator's
   ``sameText``: where the text can tell the parent at all) are counted strictly apart,
   and the ties reported with the candidates they name; and, of the edges whose parent's
   very text the forwarder heard from two copies or more, how many a perfect reading of
   every text could get right by their place in the order heard, and how many other edges have a
   child word for word another heard copy than its parent (its own changes gave that copy's very
   text: a reading that follows inheritance picks the copy): how far a strict figure can go on the
   split;
3. propagation on a simulated match of about ``--messages`` messages (target: under
   10 s), and, on a 2,000-message sample of it, the same pipeline against a full
   ``rapidfuzz.process.cdist`` with ``fuzz.ratio`` (all pairs), measured in this run;
   the full cdist over all messages is extrapolated (quadratic) from the sample, and
   measured too with ``--full-cdist``; and the edges alone on an independent cascade
   match of at least ``--messages`` messages, wall clock and CPU (the machine may be
   shared: the CPU time is the figure that does not depend on the load).

The tier classifier's figures come from ``bench/tiers_corpus.py``, on labelled corpora split
train / tune / holdout.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from collections.abc import Sequence
from typing import Any

from daishi_forensics.injection.exposure import Exposure, ExposurePass
from daishi_forensics.probes import ProbePass, ProbeReport
from daishi_forensics.injection.propagation import echo_edges, normalize_text, propagation, specifics_of
from daishi_forensics.replay import replay
from daishi_forensics.simulate import simulate_match
from daishi_forensics.injection.tiers import classify



def exposure_of(match: Any) -> Exposure:
    p = ExposurePass(match.archive)
    replay(match.iter_events(), match.archive, [p])
    return p.result()


# --------------------------------------------------------------------------- 1. probes

PROBE_SCENARIOS = ("probes", "mixed")
"""The simulator's scenarios that plant probe seats."""
PROBE_SPLITS: dict[str, dict[int, range]] = {
    "tune": {3: range(0, 20), 2: range(0, 5), 1: range(0, 5)},
    "report": {3: range(7_000, 7_020), 2: range(7_000, 7_005), 1: range(7_000, 7_005)},
}
"""Each split's seeds per schema version, for both of :data:`PROBE_SCENARIOS`.  ``tune``: the seeds the probe
compliance figure was measured on while the probe rules were written (the only ones this benchmark ran before the
splits were added); ``report``: seeds never generated with these scenarios before it was added, run only to
measure a finished version."""
PROBE_SWEEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("24 player seats", {"n_agents": 24}),
    ("a 6 x 6 map", {"width": 6, "height": 6}),
    ("120 ticks", {"ticks": 120}),
    ("heavy honest noise", {"noise": "heavy"}),
)
"""Settings of the simulator the probe rules were not written for, each changing who hears a probe and what its
targets do: three times the seats (more hearers of a broadcast or local probe), a quarter of the map's regions
(crowded regions: more hearers of a local probe, a move-to region nearer), two fifths of the ticks (the probes
closer together, their windows overlapping) and heavy honest noise (honest agents trading, gifting and begging
far more, beside the probes' targets)."""


def probe_seeds(split: str, seeds: int) -> dict[int, range]:
    """The seeds of ``split`` per schema version: its first ``seeds`` for v3 and ``seeds // 4`` (at least one) for
    v2 and v1, never past the split's own.

    >>> probe_seeds("report", 20)
    {3: range(7000, 7020), 2: range(7000, 7005), 1: range(7000, 7005)}
    >>> probe_seeds("tune", 8)
    {3: range(0, 8), 2: range(0, 2), 1: range(0, 2)}
    """
    return {v: r[: seeds if v == 3 else max(1, seeds // 4)] for v, r in PROBE_SPLITS[split].items()}


def _seed_ranges(by_version: dict[int, range]) -> str:
    """``v3 seeds 0-19, v2 seeds 0-4, v1 seeds 0-4``."""
    return ", ".join(f"v{v} seed{'s' if len(r) > 1 else ''} {r[0]}" + (f"-{r[-1]}" if len(r) > 1 else "")
                     for v, r in by_version.items() if len(r))


def probe_settings(settings: dict[str, Any]) -> str:
    """The simulator's settings a probe match is played with, in words: ``settings`` over
    :func:`~daishi_forensics.simulate.simulate_match`'s defaults, read from its signature.

    >>> probe_settings({})
    "8 player seats and the scenario's probe seats, 300 ticks, a 12 x 12 map, no honest noise"
    """
    import inspect

    given = {k: p.default for k, p in inspect.signature(simulate_match).parameters.items()
             if p.default is not inspect.Parameter.empty} | settings
    noise = given["noise"] or "none"
    return (f"{given['n_agents']} player seats and the scenario's probe seats, {given['ticks']} ticks, "
            f"a {given['width']} x {given['height']} map, {'no' if noise == 'none' else noise} honest noise")


class ProbeTally:
    """Agreement of :class:`ProbePass` with the simulator's truth over (probe message, target) pairs."""

    def __init__(self) -> None:
        self.matches = self.matches_agreeing = 0
        self.pairs = self.agree = 0
        self.exposed = self.complied = self.ours_complied = self.both_complied = 0
        self.disagreements: list[str] = []

    def add(self, match: Any, version: int, label: str) -> None:
        """Compare one match's outcomes, read through the read boundary in ``version``, with its truth."""
        outcomes = {(o.event, o.target): o for o in _probe_outcomes(match, version).outcomes}
        mine = {k: (o.exposed, o.complied, o.evidence if o.complied else None) for k, o in outcomes.items()}
        truth = {(t["probeEventId"], t["target"]):
                 (t["exposed"], t["complied"], t["evidence"] if t["complied"] else None)
                 for t in match.truth["probes"]}
        self.matches += 1
        before = len(self.disagreements)
        for key in sorted(set(mine) | set(truth)):
            ours, true = mine.get(key), truth.get(key)
            self.pairs += 1
            self.exposed += bool(true and true[0])
            self.complied += bool(true and true[1])
            self.ours_complied += bool(ours and ours[1])
            self.both_complied += bool(ours and true and ours[1] and ours == true)
            if ours == true:
                self.agree += 1
                continue
            o = outcomes.get(key)
            why = "" if o is None or o.evidence is None else (
                f"; our evidence: event {o.evidence} ({o.evidence_type}, tick {o.tick + (o.delay or 0)}, {o.detail})")
            self.disagreements.append(f"  disagreement {label} {match.scenario} seed {match.seed} v{version} "
                                      f"{key}: ours {ours} truth {true}{why}")
        self.matches_agreeing += len(self.disagreements) == before

    def summary(self) -> str:
        return (f"{self.pairs} (probe, target) pairs, {self.exposed} exposed and {self.complied} complied by the "
                f"truth: exposed, complied and evidence all agree {_rate(self.agree, self.pairs)}; matches with "
                f"every pair agreeing {_rate(self.matches_agreeing, self.matches)} (a match's pairs are not "
                f"independent: this interval is the cautious one); complied with the truth's evidence: recall "
                f"{_rate(self.both_complied, self.complied)}, precision {_rate(self.both_complied, self.ours_complied)}")


def probe_tally(seeds: dict[int, range], settings: dict[str, Any], label: str) -> ProbeTally:
    """Every match of :data:`PROBE_SCENARIOS` on ``seeds`` (per schema version) played with ``settings``."""
    tally = ProbeTally()
    for scenario in PROBE_SCENARIOS:
        for version, pool in seeds.items():
            for seed in pool:
                tally.add(simulate_match(scenario, seed, schema_version=version, **settings), version, label)
    return tally


def bench_probes(split: str, seeds: int) -> None:
    """Probe compliance against the simulator's truth on ``split`` (:data:`PROBE_SPLITS`), with the simulator's
    defaults; on ``report``, also :data:`PROBE_SWEEPS` on the first half of its seeds.  Every figure names its split,
    scenarios, seeds and settings, with a 95% Wilson interval; every disagreement is printed."""
    pool = probe_seeds(split, seeds)
    what = ("the seeds the probe rules were written and checked against" if split == "tune" else
            "held out: seeds never generated with these scenarios before, computed once for the version measured")
    tally = probe_tally(pool, {}, split.upper())
    print(f"probe compliance vs the simulator's truth, {split.upper()} split ({what}): scenarios "
          f"{' and '.join(PROBE_SCENARIOS)}; {_seed_ranges(pool)} ({tally.matches} matches); settings: the "
          f"simulator's defaults ({probe_settings({})})")
    print("\n".join(tally.disagreements + [f"  {tally.summary()}"]))
    if split == "tune":
        return
    half = {v: r[: max(1, len(r) // 2)] for v, r in pool.items()}
    for name, settings in PROBE_SWEEPS:
        sweep = probe_tally(half, settings, f"{split.upper()} sweep ({name})")
        print(f"  sweep ({split.upper()} split's seeds, a setting outside the simulator's defaults), {name}: "
              f"{_seed_ranges(half)} ({sweep.matches} matches); settings: {probe_settings(settings)}")
        print("\n".join(sweep.disagreements + [f"    {sweep.summary()}"]))


def _probe_outcomes(match: Any, version: int) -> ProbeReport:
    """The match's :class:`ProbeReport`, its events written in ``version`` and read through the read boundary
    (validation + upcast), as the tool reads them."""
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.simulate import write_match
    from daishi_forensics.read.sources import open_path

    with tempfile.TemporaryDirectory(prefix="inj-bench-") as folder:
        path = write_match(match, Path(folder), schema_version=version, truth_file=None)
        p = ProbePass(match.archive)
        replay(read_match(open_path(path)).events(), match.archive, [p])
    return p.result()


# --------------------------------------------------------------------------- 2. echo cascades


def bench_echo(seeds: int) -> None:
    for n_agents, n_seeds in ((8, seeds), (30, max(1, seeds // 2)), (60, max(1, seeds // 4))):
        tp = fp = fn = organic = messages = cascades = 0
        for seed in range(n_seeds):
            match = simulate_match("echo", 1000 * n_agents + seed, n_agents=n_agents)
            exposure = exposure_of(match)
            msgs = exposure.messages
            edges, _stock = echo_edges(msgs, dormancy=exposure.dormancy)
            truth: set[tuple[int, int]] = set()
            planted: set[int] = set()
            for c in match.truth["propagation"]:
                truth |= {(a, b) for a, b in c["edges"]}
                planted |= {m["event"] for m in c["messages"]} | set(c["decoys"]["events"])
                cascades += 1
            mine = {(e.parent, e.child) for e in edges if e.parent in planted or e.child in planted}
            tp += len(mine & truth)
            fp += len(mine - truth)
            fn += len(truth - mine)
            organic += sum(1 for e in edges if e.parent not in planted and e.child not in planted)
            messages += len(msgs)
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        print(f"echo cascades, {n_agents} seats, {n_seeds} matches ({cascades} cascades, {tp + fn} planted edges): "
              f"precision {precision:.4f}, recall {recall:.4f}; organic-chatter edges "
              f"{organic} = {1000 * organic / max(1, messages):.1f} per 1,000 messages")


# --------------------------------------------------------------------------- 2b. independent cascades

TUNE_KINDS = ("exact", "capitals", "prefix", "quote", "suffix", "cut_end", "abbreviation", "typo", "punctuation",
              "reorder")
"""Mutation kinds the rules were tuned on (on the tune seeds and the tune half of the word lists)."""
HELD_OUT_KINDS = ("title_case", "stacked_prefixes", "cut_start", "synonym")
"""Mutation kinds never generated while tuning: reported on the report seeds only."""
TUNE_SEEDS = range(0, 40)
REPORT_SEEDS = range(10_000, 10_040)
REPORT_B_SEEDS = range(20_000, 20_040)
"""A second held-out split: seeds disjoint from every seed the cascades were ever generated with (TUNE,
REPORT, the speed match, the tests), with REPORT's word lists and every kind.  Added after REPORT had been
computed four times, and run only to measure a finished version."""
REPORT_C_SEEDS = range(30_000, 30_040)
"""A third held-out split, the size of REPORT-B: seeds never generated before it was added (after REPORT had
been computed six times and REPORT-B twice), REPORT's word lists and every kind.  Run only to measure a
finished version."""
SPLIT_SEEDS = {"tune": TUNE_SEEDS, "report": REPORT_SEEDS, "report-b": REPORT_B_SEEDS, "report-c": REPORT_C_SEEDS}
"""Each split's seeds; ``report-b`` and ``report-c`` draw from REPORT's half of the word lists."""


def _cascade_edges(match: Any) -> tuple[Any, Exposure, float]:
    edges, exposure, seconds, _cpu = _cascade_edges_timed(match)
    return edges, exposure, seconds


def _cascade_edges_timed(match: Any) -> tuple[Any, Exposure, float, float]:
    """The edges of a generated match, with the wall and CPU seconds of the edges alone."""
    p = ExposurePass(match.archive)
    replay(iter(match.events), match.archive, [p])
    exposure = p.result()
    started, cpu = time.perf_counter(), time.process_time()
    edges, _stock = echo_edges(exposure.messages, dormancy=exposure.dormancy, goods=specifics_of(match.archive))
    return edges, exposure, time.perf_counter() - started, time.process_time() - cpu


class Tally:
    """Edge counts per mutation kind (and for the messages that echo nothing)."""

    def __init__(self) -> None:
        self.found: Counter[str] = Counter()      # truth edges found, per kind of the child
        self.missed: Counter[str] = Counter()     # truth edges whose child got no edge at all, per kind
        self.wrong: Counter[str] = Counter()      # truth edges whose child got another parent, per kind
        self.truth: Counter[str] = Counter()      # truth edges, per kind
        self.ours: Counter[str] = Counter()       # our edges, per kind of the child (or "no edge")
        self.right: Counter[str] = Counter()      # our edges that are truth edges
        self.tie_right: Counter[str] = Counter()  # ... or whose tied candidates hold the truth parent
        self.tie_found: Counter[str] = Counter()  # truth edges found, or held by a reported tie
        self.heard_several = Counter[str]()       # truth edges whose forwarder had heard two copies or more
        self.heard_several_found = Counter[str]()
        self.told: Counter[str] = Counter()       # truth edges whose parent no other heard copy repeats verbatim
        self.told_found: Counter[str] = Counter()
        self.told_ours: Counter[str] = Counter()  # our edges whose child is such a truth edge's
        self.told_right: Counter[str] = Counter()
        self.tie_sizes: list[int] = []            # candidates named per reported tie (the choice and the tied)
        self.bands: Counter[tuple[int, bool]] = Counter()  # (confidence band, right)
        self.alike_places: Counter[str] = Counter()  # edges whose parent's very text came by 2+ heard copies:
        # "all", and which of those copies was the parent ("first", "latest", "between")
        self.seconds = 0.0
        self.messages = 0

    def add(self, match: Any) -> None:
        edges, exposure, seconds = _cascade_edges(match)
        self.seconds += seconds
        self.messages += len(exposure.messages)
        truth = {e["child"]: e for e in match.truth["edges"]}
        mine = {e.child: e for e in edges if e.via == "text"}
        self.count_alike_places(match, exposure)
        for child, t in truth.items():
            kinds = t["kinds"] if len(t["kinds"]) == 1 else [*t["kinds"], "combination"]
            ok = child in mine and mine[child].parent == t["parent"]
            tie = child in mine and t["parent"] in mine[child].tied_with
            for k in kinds + ["all"]:
                self.truth[k] += 1
                self.found[k] += ok
                self.tie_found[k] += ok or tie
                self.missed[k] += child not in mine
                self.wrong[k] += child in mine and not ok
                if t["heard"] > 1:
                    self.heard_several[k] += 1
                    self.heard_several_found[k] += ok
                if not t["sameText"]:
                    self.told[k] += 1
                    self.told_found[k] += ok
        for child, e in mine.items():
            t = truth.get(child)
            kinds = ["no edge"] if t is None else (t["kinds"] if len(t["kinds"]) == 1 else [*t["kinds"], "combination"])
            ok = t is not None and t["parent"] == e.parent
            tied = e.tied_with
            if tied:
                self.tie_sizes.append(1 + len(tied))
            if t is not None and not t["sameText"]:
                self.told_ours["all"] += 1
                self.told_right["all"] += ok
            for k in kinds + ["all"]:
                self.ours[k] += 1
                self.right[k] += ok
                self.tie_right[k] += ok or (t is not None and t["parent"] in tied)
            self.bands[(min(4, int(e.confidence * 5)), ok)] += 1


    def count_alike_places(self, match: Any, exposure: Exposure) -> None:
        """Of the edges whose parent's very text the forwarder heard from two copies or more (nothing in
        the texts tells those apart), how a rule that reads every text perfectly and then chooses among
        the identical copies by their place among all the copies of the story it heard would fare:
        preferring the latest heard (else the first heard, else the earliest of them), or the first heard
        (else the latest, else the earliest).  The better of the two bounds what texts and order tell.
        Of the other edges, those whose child is word for word another copy of the story its sender heard
        than its parent (``child elsewhere``: its own changes happened to give another heard copy's very
        text; a reading that follows what a child inherits picks that copy)."""
        by_event = {m.event: m for m in exposure.messages}
        story = {r: s["story"] for s in match.truth["stories"] for r in s["roots"]}
        story.update((e["child"], e["story"]) for e in match.truth["edges"])
        told = sorted(story)
        for t in match.truth["edges"]:
            child, parent = t["child"], t["parent"]
            sender = by_event[child].sender
            heard = [m for m in told if m < child and story[m] == t["story"] and sender in by_event[m].hearers]
            alike = [m for m in heard if by_event[m].text == by_event[parent].text]
            if len(alike) < 2 or parent not in alike:
                if any(m != parent and by_event[m].text == by_event[child].text for m in heard):
                    self.alike_places["child elsewhere"] += 1
                continue
            self.alike_places["all"] += 1
            for rule, order in (("latest", (heard[-1], heard[0])), ("first", (heard[0], heard[-1]))):
                pick = next((m for m in order if m in alike), alike[0])
                self.alike_places[rule] += pick == parent


def _rate(k: int, n: int) -> str:
    from daishi_forensics.injection.summary import wilson_interval

    if not n:
        return "   -   (0)"
    lo, hi = wilson_interval(k, n, places=3) or (0.0, 1.0)
    return f"{k / n:.3f} [{lo:.3f}, {hi:.3f}] ({k}/{n})"


def print_tally(label: str, tally: Tally, kinds: Sequence[str], held_out: Sequence[str] = ()) -> None:
    print(f"{label}: {tally.messages:,} messages, {tally.seconds:.2f} s propagation")
    print(f"  all edges: precision {_rate(tally.right['all'], tally.ours['all'])}, "
          f"recall {_rate(tally.found['all'], tally.truth['all'])}; "
          f"counting a reported tie that holds the true parent as right: precision "
          f"{_rate(tally.tie_right['all'], tally.ours['all'])}, "
          f"recall {_rate(tally.tie_found['all'], tally.truth['all'])}")
    print(f"  forwarders who had heard two copies or more: recall "
          f"{_rate(tally.heard_several_found['all'], tally.heard_several['all'])}")
    print(f"  edges whose true parent no other copy the forwarder heard repeats word for word (the text can "
          f"tell it): precision {_rate(tally.told_right['all'], tally.told_ours['all'])}, recall "
          f"{_rate(tally.told_found['all'], tally.told['all'])}")
    places = tally.alike_places
    best = max(places["first"], places["latest"])
    print(f"  edges whose parent's very text the forwarder heard from two copies or more: {places['all']}; with "
          f"every text read perfectly, choosing among those copies the latest heard of all the story's copies "
          f"(else the first) gets {places['latest']} right, the first heard (else the latest) {places['first']}: "
          f"with the better, strict recall could reach about "
          f"{1 - (places['all'] - best) / max(1, tally.truth['all']):.3f} here; of the other edges, "
          f"{places['child elsewhere']} have a child word for word another copy its sender heard than its parent "
          f"(its own changes gave another copy's very text): a reading that follows what a child inherits "
          f"chooses that copy, and with those strict recall could reach about "
          f"{1 - (places['all'] - best + places['child elsewhere']) / max(1, tally.truth['all']):.3f}")
    sizes = tally.tie_sizes
    print(f"  ties reported: {len(sizes)} of {tally.ours['all']} edges, "
          f"{sum(sizes) / max(1, len(sizes)):.2f} candidates named per tie on average")
    print("  precision by the edges' confidence: " + ", ".join(
        f"[{b / 5:.1f}, {(b + 1) / 5:.1f}{']' if b == 4 else ')'} "
        f"{_rate(tally.bands[(b, True)], tally.bands[(b, True)] + tally.bands[(b, False)])}"
        for b in range(5)))
    for k in [*kinds, "combination", "no edge"]:
        tag = "never tuned on" if k in held_out else ("lookalikes" if k == "no edge" else "tuned kind")
        if k == "no edge":
            print(f"    {k:<17} ({tag}): false edges {tally.ours[k]}")
            continue
        print(f"    {k:<17} ({tag}): recall {_rate(tally.found[k], tally.truth[k])}; "
              f"precision {_rate(tally.right[k], tally.ours[k])}; a tie holding the true parent counted right: "
              f"recall {tally.tie_found[k] / max(1, tally.truth[k]):.3f}, "
              f"precision {tally.tie_right[k] / max(1, tally.ours[k]):.3f}; true edges missed entirely "
              f"{tally.missed[k]}, given a wrong parent {tally.wrong[k]}")


def bench_cascades(split: str, seeds: int) -> None:
    """Edges on the independent forwarding-cascade generator: ``tune`` (tune seeds, tune word lists, tune kinds
    only), ``report``, ``report-b`` or ``report-c`` (their own seeds, the other half of the word lists, every kind), plus
    sweeps of settings outside the generator's defaults on half the split's seeds (:func:`bench_sweeps`)."""
    from daishi_forensics.simulate.cascades import MUTATION_KINDS, cascade_match

    pool = list(SPLIT_SEEDS[split])[:seeds]
    tally = Tally()
    if split == "tune":
        for seed in pool:
            tally.add(cascade_match(seed, split="tune", kinds=TUNE_KINDS))
        print_tally(f"independent cascades, TUNE split ({len(pool)} seeds, tune kinds only)", tally, TUNE_KINDS)
        every = Tally()
        for seed in pool:
            every.add(cascade_match(seed, split="tune", kinds=MUTATION_KINDS))
        print(f"  TUNE seeds and wording with every kind (the four held-out kinds too, on the tune half of the word "
              f"lists): precision {_rate(every.right['all'], every.ours['all'])}, recall "
              f"{_rate(every.found['all'], every.truth['all'])}; a tie holding the true parent counted right: "
              f"precision {_rate(every.tie_right['all'], every.ours['all'])}, recall "
              f"{_rate(every.tie_found['all'], every.truth['all'])}; false edges on lookalikes {every.ours['no edge']}")
    else:
        for seed in pool:
            tally.add(cascade_match(seed, split="report", kinds=MUTATION_KINDS))
        print_tally(f"independent cascades, {split.upper()} split (held out: {len(pool)} seeds "
                    f"{pool[0]}-{pool[-1]} never run while tuning, the other half of every word list, every kind)",
                    tally, MUTATION_KINDS, HELD_OUT_KINDS)
    bench_sweeps(split, seeds)


SWEEPS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("60 agents", {"n_agents": 60}), ("chatter x3", {"chatter": 0.12}), ("forwarders twice as slow", {"lag_scale": 2.0}))
"""Settings of the generator the rules were not written for (their defaults: 12 to 40 agents, chatter
0.015 to 0.06 a tick, forwarders' delays as drawn)."""


def bench_sweeps(split: str, seeds: int) -> None:
    """:data:`SWEEPS` on half the seeds of ``split`` (``tune``: tune kinds only, as tuned; ``report``: every kind)."""
    from daishi_forensics.simulate.cascades import MUTATION_KINDS, cascade_match

    kinds = TUNE_KINDS if split == "tune" else MUTATION_KINDS
    for name, kw in SWEEPS:
        sweep = Tally()
        for seed in list(SPLIT_SEEDS[split])[: max(1, seeds // 2)]:
            sweep.add(cascade_match(seed, split="tune" if split == "tune" else "report", kinds=kinds, **kw))
        print(f"  sweep ({split.upper()} split, a setting outside the generator's defaults), {name}: precision "
              f"{_rate(sweep.right['all'], sweep.ours['all'])}, "
              f"recall {_rate(sweep.found['all'], sweep.truth['all'])}; a tie holding the true parent "
              f"counted right: precision {_rate(sweep.tie_right['all'], sweep.ours['all'])}, "
              f"recall {_rate(sweep.tie_found['all'], sweep.truth['all'])}; false edges on lookalikes "
              f"{sweep.ours['no edge']}")


# --------------------------------------------------------------------------- 3. speed


def _timed(fn: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - started


def bench_cascade_speed(messages: int) -> None:
    """The independent cascade generator grown to at least ``messages`` messages (120 agents, a long
    match, chatter 0.1 a tick; agents die as the match goes on, so the ticks grow until enough): the
    time of the edges alone, wall and CPU."""
    from daishi_forensics.simulate.cascades import cascade_match

    ticks = max(200, messages // 12)
    while True:
        match = cascade_match(1, split="tune", n_agents=120, ticks=ticks, chatter=0.1)
        said = sum(1 for e in match.events if e["type"] in ("message", "message_private"))
        if said >= messages:
            break
        ticks = int(ticks * messages / max(1, said) * 1.05)
    edges, exposure, seconds, cpu = _cascade_edges_timed(match)
    print(f"  edges on an independent cascade match of {len(exposure.messages):,} messages ({len(edges)} edges): "
          f"{seconds:.2f} s wall, CPU {cpu:.2f} s (target under 10 s; the wall clock on a shared machine)")


def bench_speed(messages: int, full_cdist: bool = False) -> None:
    from rapidfuzz import fuzz, process

    target_events = int(messages / 0.1)
    while True:  # the share of messages among a simulated match's events varies: grow until enough
        match, t_sim = _timed(lambda n=target_events: simulate_match("echo", 7, n_agents=40, target_events=n))
        exposure, t_replay = _timed(lambda m=match: exposure_of(m))
        msgs = exposure.messages
        if len(msgs) >= messages:
            break
        target_events = int(target_events * messages / max(1, len(msgs)) * 1.05)
    tiers, t_tiers = _timed(lambda: {m.event: classify(m.text).tier for m in msgs})
    cpu = time.process_time()
    prop, t_prop = _timed(lambda: propagation(msgs, tiers, dormancy=exposure.dormancy))
    cpu = time.process_time() - cpu
    print(f"propagation on a simulated match of {len(msgs):,} messages ({match.n_events:,} events; simulated in "
          f"{t_sim:.1f} s): {t_prop:.2f} s for edges + chains + index (CPU {cpu:.2f} s; target under 10 s; "
          f"{len(prop.edges)} edges, {len(prop.chains)} chains); replaying exposure {t_replay:.2f} s, "
          f"classifying tiers {t_tiers:.2f} s")
    bench_cascade_speed(messages)

    sample = msgs[:2000]
    texts = [normalize_text(m.text) for m in sample]
    _full, t_cdist = _timed(lambda: process.cdist(texts, texts, scorer=fuzz.ratio, processor=None))
    sample_tiers = {m.event: tiers[m.event] for m in sample}
    _p, t_ours = _timed(lambda: propagation(sample, sample_tiers, dormancy=exposure.dormancy))
    scale = (len(msgs) / len(sample)) ** 2
    print(f"  2,000-message sample: full cdist (fuzz.ratio, all {len(sample) ** 2:,} pairs) {t_cdist:.2f} s, "
          f"ours {t_ours:.3f} s: ratio {t_cdist / t_ours:.1f}x")
    print(f"  full cdist over all {len(msgs):,} messages, extrapolated x{scale:.0f}: {t_cdist * scale:.0f} s "
          f"against ours {t_prop:.2f} s: ratio {t_cdist * scale / t_prop:.0f}x")
    if full_cdist:
        every = [normalize_text(m.text) for m in msgs]
        _all, t_all = _timed(lambda: process.cdist(every, every, scorer=fuzz.ratio, processor=None,
                                                   dtype="uint8"))
        print(f"  full cdist over all {len(msgs):,} messages, measured: {t_all:.0f} s: ratio {t_all / t_prop:.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe-seeds", type=int, default=20,
                        help="probe compliance: the split's first N seeds for schema v3 and N/4 for v2 and v1 "
                             "(at most 20 and 5: the split's own; default 20)")
    parser.add_argument("--probe-split", choices=("tune", "report", "both"), default="both",
                        help="which split of the probe compliance figure to print (tune: seeds 0-19 and 0-4, the "
                             "seeds the probe rules were written against; report: seeds 7000-7019 and 7000-7004, "
                             "held out, with the sweeps of settings outside the simulator's defaults on half of "
                             "them; both: tune then report)")
    parser.add_argument("--probes-only", action="store_true",
                        help="print only the probe compliance figures (skip the echo scenario, the independent "
                             "cascades and speed)")
    parser.add_argument("--echo-seeds", type=int, default=20)
    parser.add_argument("--cascade-seeds", type=int, default=40)
    parser.add_argument("--cascades", choices=("report", "report-b", "report-c", "tune", "both", "all"), default="report",
                        help="which split of the independent cascades to print (tune: the part tuned on; both: "
                             "tune and report; all: tune, report, report-b and report-c)")
    parser.add_argument("--cascades-only", action="store_true",
                        help="print only the independent cascades (skip probes, the echo scenario and speed)")
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--full-cdist", action="store_true",
                        help="also measure the full cdist over every message (slow: about a minute)")
    args = parser.parse_args()
    if not 1 <= args.probe_seeds <= len(PROBE_SPLITS["tune"][3]):
        parser.error(f"--probe-seeds must be from 1 to {len(PROBE_SPLITS['tune'][3])} (a split's seeds), "
                     f"got {args.probe_seeds}")
    if args.probes_only and args.cascades_only:
        parser.error("--probes-only and --cascades-only exclude each other")
    started = time.perf_counter()
    if not args.cascades_only:
        for split in ("tune", "report") if args.probe_split == "both" else (args.probe_split,):
            bench_probes(split, args.probe_seeds)
        if args.probes_only:
            print(f"(benchmark ran in {time.perf_counter() - started:.0f} s)", file=sys.stderr)
            return
        bench_echo(args.echo_seeds)
    splits = {"both": ("tune", "report"), "all": ("tune", "report", "report-b", "report-c")}.get(args.cascades, (args.cascades,))
    for split in splits:
        if split != "tune":
            print(f"({split.upper()}: a held-out split, computed here once for the version measured)")
        bench_cascades(split, args.cascade_seeds)
    if not args.cascades_only:
        bench_speed(args.messages, args.full_cdist)
    print(f"(benchmark ran in {time.perf_counter() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
