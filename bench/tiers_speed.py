"""How fast the tier classifier reads messages, every figure measured in this one run.

    python bench/tiers_speed.py [--messages 20000] [--baseline DIR] [--rounds 3]

Workloads (no holdout row is read):

1. ``pass``: a simulated match's first ``--messages`` message events (the ``echo`` scenario, 40
   agents: organic chatter plus planted injections, many repeated texts) through
   :class:`TierPass`, as the behavior report runs it (repeated texts are remembered);
2. ``distinct``: the same messages made distinct (a counter appended), so each one is
   classified from scratch;
3. ``corpus``: the train and tune rows of the tier corpora (long jailbreak prompts among them).

Each is run with the rules only (``model=False``), with the rules and the learned score, and --
with ``--baseline DIR`` (a folder holding an older ``injection/tiers.py``, e.g. a checkout of an
earlier commit's ``forensics/``) -- with that older classifier, loaded from its file; the
ratios to it are printed.  The best of ``--rounds`` runs is kept for each, in CPU seconds of
this process (``time.process_time``: on a shared machine wall time measures the neighbours too);
the classifiers' memo of recent texts is emptied before every run.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from tiers_corpus import load_corpora  # noqa: E402

from daishi_forensics.injection.tiers import TierPass, classify  # noqa: E402
from daishi_forensics.simulate import simulate_match  # noqa: E402


def message_events(n: int) -> list[dict[str, Any]]:
    """The first ``n`` message events of a simulated match (grown until it has that many)."""
    target = n * 10
    while True:
        match = simulate_match("echo", 7, n_agents=40, target_events=target)
        events = [ev for ev in match.iter_events() if ev["type"] in ("message", "message_private")]
        if len(events) >= n:
            return events[:n]
        target = int(target * n / max(1, len(events)) * 1.1)


def load_baseline(folder: Path) -> ModuleType:
    """An older ``injection/tiers.py`` (or a flat ``tiers.py``) under ``folder``, loaded from its file.

    When ``folder/injection`` is a package, it is loaded as the package ``baseline_injection``, so
    that its relative imports (``.tier_rules``, ``.tier_model``) read the older files beside it."""
    package = folder / "injection" / "__init__.py"
    if package.exists():
        spec = importlib.util.spec_from_file_location("baseline_injection", package,
                                                      submodule_search_locations=[str(package.parent)])
        assert spec is not None and spec.loader is not None
        parent = importlib.util.module_from_spec(spec)
        sys.modules["baseline_injection"] = parent
        spec.loader.exec_module(parent)
        return importlib.import_module("baseline_injection.tiers")
    for candidate in (folder / "injection" / "tiers.py", folder / "tiers.py"):
        if candidate.exists():
            spec = importlib.util.spec_from_file_location("baseline_tiers", candidate)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules["baseline_tiers"] = module
            spec.loader.exec_module(module)
            return module
    raise SystemExit(f"--baseline {folder}: no injection/tiers.py or tiers.py there")


def best(fn: Callable[[], object], rounds: int, module: ModuleType) -> float:
    times = []
    for _ in range(rounds):
        forget = getattr(module, "_classify_short", None)
        if forget is not None:  # the memo of recent texts: start each run empty
            forget.cache_clear()
        started = time.process_time()
        fn()
        times.append(time.process_time() - started)
    return min(times)


def run_pass(make: Callable[[], Any], events: Sequence[dict[str, Any]]) -> None:
    p = make()
    for ev in events:
        p.observe(ev, None)
    p.result()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--baseline", type=Path, help="folder with an older injection/tiers.py to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)

    events = message_events(args.messages)
    texts = [str((ev.get("payload") or {}).get("text", "")) for ev in events]
    distinct = [f"{t} {k}" for k, t in enumerate(texts)]
    corpus = [r.text for r in load_corpora() if r.split in ("train", "tune")]
    print(f"{len(events):,} simulated message events ({len(set(texts)):,} distinct texts); "
          f"{len(corpus):,} corpus rows (train and tune splits)")

    current = sys.modules[TierPass.__module__]
    variants: list[tuple[str, Callable[[], Any], Callable[[str], Any], ModuleType]] = [
        ("rules only", lambda: TierPass(model=False), lambda t: classify(t, model=False), current),
        ("rules + learned score", lambda: TierPass(model=True), lambda t: classify(t, model=True), current),
    ]
    if args.baseline is not None:
        old = load_baseline(args.baseline)
        variants.append(("baseline", old.TierPass, old.classify, old))

    rates: dict[tuple[str, str], float] = {}
    for name, make_pass, one, module in variants:
        for workload, n, fn in (
            ("pass", len(events), lambda make=make_pass: run_pass(make, events)),
            ("distinct", len(distinct), lambda f=one: [f(t) for t in distinct]),
            ("corpus", len(corpus), lambda f=one: [f(t) for t in corpus]),
        ):
            seconds = best(fn, args.rounds, module)
            rates[(name, workload)] = n / seconds
            print(f"  {name:22s} {workload:9s} {n:7,} messages in {seconds:6.2f} CPU s: {n / seconds:9,.0f} messages/s")
    if args.baseline is not None:
        for name in ("rules only", "rules + learned score"):
            ratios = ", ".join(f"{w} {rates[(name, w)] / rates[('baseline', w)]:.2f}x"
                               for w in ("pass", "distinct", "corpus"))
            print(f"  {name} against the baseline (messages/s ratio, measured in this run): {ratios}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
