"""Benchmark of the injection forensics (issue 5), every figure measured in this one run.

    /work/venv/bin/python bench/injection.py [--probe-seeds 20] [--echo-seeds 20] [--messages 20000]

Prints:

1. probe compliance against the simulator's ground truth (``probes`` and ``mixed``
   scenarios, schema v3, v2 and v1): every (probe message, target) pair, agreeing on
   exposed, complied and the evidence event;
2. propagation edges on the simulator's ``echo`` cascades (mutated echoes, and decoy
   phrases sent by agents who never heard each other) at 8, 30 and 60 seats: precision
   and recall of the edges touching a planted message or decoy, and, for transparency,
   the edges found among the organic chatter (which the truth does not list) per 1,000
   messages;
3. the tier classifier on ``../shared/corpora/messages-dev.jsonl``: recall on the
   injections (overall and per kind), false-positive rate on the negotiation, precision,
   and throughput;
4. propagation on a simulated match of about ``--messages`` messages (target: under
   10 s), and, on a 2,000-message sample of it, the same pipeline against a full
   ``rapidfuzz.process.cdist`` with ``fuzz.ratio`` (all pairs), measured in this run;
   the full cdist over all messages is extrapolated (quadratic) from the sample, and
   measured too with ``--full-cdist``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from daishi_forensics.injection.exposure import Exposure, ExposurePass
from daishi_forensics.probes import ProbePass
from daishi_forensics.injection.propagation import echo_edges, normalize_text, propagation
from daishi_forensics.replay import replay
from daishi_forensics.simulate import simulate_match
from daishi_forensics.injection.tiers import classify

DEV = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "messages-dev.jsonl"


def exposure_of(match: Any) -> Exposure:
    p = ExposurePass(match.archive)
    replay(match.iter_events(), match.archive, [p])
    return p.result()


# --------------------------------------------------------------------------- 1. probes


def bench_probes(seeds: int) -> None:
    agree = disagree = matches = complied = exposed = 0
    for scenario in ("probes", "mixed"):
        for version in (3, 2, 1):
            for seed in range(seeds if version == 3 else max(1, seeds // 4)):
                match = simulate_match(scenario, seed, schema_version=version)
                p = ProbePass(match.archive)
                replay(_read_through_boundary(match, version), match.archive, [p])
                outcomes = {(o.event, o.target): o for o in p.result().outcomes}
                mine = {k: (o.exposed, o.complied, o.evidence if o.complied else None) for k, o in outcomes.items()}
                truth = {(t["probeEventId"], t["target"]):
                         (t["exposed"], t["complied"], t["evidence"] if t["complied"] else None)
                         for t in match.truth["probes"]}
                matches += 1
                for key in set(mine) | set(truth):
                    if mine.get(key) == truth.get(key):
                        agree += 1
                    else:
                        disagree += 1
                        ours = outcomes.get(key)
                        why = "" if ours is None or ours.evidence is None else (
                            f"; our evidence: event {ours.evidence} ({ours.evidence_type}, tick "
                            f"{ours.tick + (ours.delay or 0)}, {ours.detail})")
                        print(f"  disagreement {scenario} seed {seed} v{version} {key}: "
                              f"ours {mine.get(key)} truth {truth.get(key)}{why}")
                exposed += sum(1 for t in truth.values() if t[0])
                complied += sum(1 for t in truth.values() if t[1])
    total = agree + disagree
    print(f"probe compliance vs simulator truth: {matches} matches, {total} (probe, target) pairs "
          f"({exposed} exposed, {complied} complied): agree {agree}/{total} = {agree / total:.4f}")


def _read_through_boundary(match: Any, version: int) -> Any:
    """The match's events through the read boundary (validation + upcast), as the tool reads them."""
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.simulate import write_match
    from daishi_forensics.read.sources import open_path

    folder = Path(tempfile.mkdtemp(prefix="inj-bench-"))
    path = write_match(match, folder, schema_version=version, truth_file=None)
    return read_match(open_path(path)).events()


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


# --------------------------------------------------------------------------- 3. tiers


def bench_tiers() -> None:
    if not DEV.exists():
        print(f"tier classifier: {DEV} not found, skipped")
        return
    with DEV.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    started = time.perf_counter()
    verdicts = [classify(r["text"]) for r in rows]
    elapsed = time.perf_counter() - started
    inj = [(r, v) for r, v in zip(rows, verdicts) if r["label"] == "injection"]
    neg = [(r, v) for r, v in zip(rows, verdicts) if r["label"] != "injection"]
    tp = sum(v.tier != "persuasion" for _r, v in inj)
    fp = sum(v.tier != "persuasion" for _r, v in neg)
    print(f"tier classifier on messages-dev.jsonl ({len(inj)} injections, {len(neg)} negotiation turns): "
          f"recall {tp / len(inj):.4f}, false-positive rate {fp / len(neg):.4f} ({fp} lines), "
          f"precision {tp / max(1, tp + fp):.4f}; {len(rows) / elapsed:,.0f} messages/s")
    kinds = Counter(r["kind"] for r, _v in inj)
    caught = Counter(r["kind"] for r, v in inj if v.tier != "persuasion")
    print("  recall per kind: " + ", ".join(f"{k} {caught[k]}/{n}" for k, n in sorted(kinds.items())))
    tiers = Counter(v.tier for _r, v in inj)
    rules = Counter(v.rule.split("+")[0] if "+" in (v.rule or "") else v.rule for _r, v in inj)
    print("  injections by tier: " + ", ".join(f"{t} {n}" for t, n in sorted(tiers.items())))
    print("  deciding rule: " + ", ".join(f"{k} {n}" for k, n in rules.most_common() if k))


# --------------------------------------------------------------------------- 4. speed


def _timed(fn: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - started


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
    prop, t_prop = _timed(lambda: propagation(msgs, tiers, dormancy=exposure.dormancy))
    print(f"propagation on a simulated match of {len(msgs):,} messages ({match.n_events:,} events; simulated in "
          f"{t_sim:.1f} s): {t_prop:.2f} s for edges + chains + index ({len(prop.edges)} edges, "
          f"{len(prop.chains)} chains); replaying exposure {t_replay:.2f} s, classifying tiers {t_tiers:.2f} s")

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
    parser.add_argument("--probe-seeds", type=int, default=20)
    parser.add_argument("--echo-seeds", type=int, default=20)
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--full-cdist", action="store_true",
                        help="also measure the full cdist over every message (slow: about a minute)")
    args = parser.parse_args()
    started = time.perf_counter()
    bench_probes(args.probe_seeds)
    bench_echo(args.echo_seeds)
    bench_tiers()
    bench_speed(args.messages, args.full_cdist)
    print(f"(benchmark ran in {time.perf_counter() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
