"""Pair precision and recall of the collusion screens, and the honest-match alarm rate, on any
labelled set of matches.

For measuring the screens on matches this project never generated (another simulator of the
same export format, a labelled season of real matches).  Each match is read, replayed and
screened exactly as ``daishi-forensics screen`` does it, once, with the shipped configuration (or
``--config``), and compared with its truth.

**Truth.**  Beside each match ``m_x.jsonl`` (any form the tool reads), a file ``m_x.truth.json``,
or ``truth.json`` in a folder holding that one match (what ``daishi-forensics simulate`` writes).
It is a JSON object whose ``planted`` list names what was planted (empty for an honest match)::

    {"planted": [{"kind": "ring", "pairs": [["a_1", "a_2"], ["a_2", "a_3"], ["a_3", "a_1"]]},
                 {"kind": "cartel", "agents": ["a_4", "a_5", "a_6"]}]}

An entry names its pairs with ``pairs``, or the simulator's own shapes: a feeder's
``beneficiary`` and ``spokes``, a ring's ``cycle``, off-price's ``gainer`` and ``giver``, a thrown
fight's ``attacker`` and ``victim`` (and its ``refillers``), or ``agents`` (every pair of them).
``kind`` is one of feeder, ring, cartel, off_price, thrown_fight (``-`` read as ``_``).

**Figures** (95% Wilson intervals): honest matches (nothing planted) not ``clear`` and ``flag``;
per planted kind, pair recall (a planted pair raised by the screen of its kind; and by any
screen); pair precision per screen and overall (a raised pair is right when both agents belong
to one planted entry of its match; every pair raised in an honest match is wrong).  Nothing is
tuned: the output says which files the figures came from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _labelled import matches_in, rate, rate_line, truth_of  # noqa: E402

KINDS = ("feeder", "ring", "cartel", "off_price", "thrown_fight")




def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def kind_of(entry: Mapping[str, Any]) -> str:
    return str(entry.get("kind", "")).strip().lower().replace("-", "_")


def planted_pairs(entry: Mapping[str, Any]) -> set[tuple[str, str]]:
    """The pairs one truth entry plants (module docstring)."""
    if "pairs" in entry:
        return {pair(str(a), str(b)) for a, b in entry["pairs"]}
    kind = kind_of(entry)
    if kind == "feeder" and "beneficiary" in entry:
        return {pair(entry["beneficiary"], s) for s in entry["spokes"]}
    if kind == "ring" and "cycle" in entry:
        c = entry["cycle"]
        return {pair(c[i], c[(i + 1) % len(c)]) for i in range(len(c))}
    if kind == "off_price" and "gainer" in entry:
        return {pair(entry["gainer"], entry["giver"])}
    if kind == "thrown_fight" and "attacker" in entry:
        return {pair(entry["attacker"], entry["victim"])}
    a = [str(x) for x in entry.get("agents", [])]
    return {pair(x, y) for i, x in enumerate(a) for y in a[i + 1:]}


def group_of(entry: Mapping[str, Any]) -> set[str]:
    """Every agent one truth entry involves (a raised pair inside it is right)."""
    agents = {str(a) for p in planted_pairs(entry) for a in p}
    return agents | {str(a) for a in entry.get("agents", [])} | {str(a) for a in entry.get("refillers", [])}








def tally(results: Iterable[tuple[str, list[tuple[str, tuple[str, str]]], list[Mapping[str, Any]]]]) -> dict[str, Any]:
    """The figures of screened matches: each ``(verdict, [(screen, raised pair)], truth entries)``."""
    honest = not_clear = flagged = 0
    planted: Counter[str] = Counter()
    found: Counter[str] = Counter()
    found_any: Counter[str] = Counter()
    raised_n: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for verdict, raised, entries in results:
        if not entries:
            honest += 1
            not_clear += verdict != "clear"
            flagged += verdict == "flag"
        groups = [group_of(e) for e in entries]
        by_screen: dict[str, set[tuple[str, str]]] = {}
        for screen, p in raised:
            by_screen.setdefault(screen, set()).add(p)
        every = set().union(*by_screen.values()) if by_screen else set()
        for screen, pairs in by_screen.items():
            for a, b in pairs:
                raised_n[screen] += 1
                right[screen] += any(a in g and b in g for g in groups)
        for entry in entries:
            kind = kind_of(entry)
            pairs = planted_pairs(entry)
            planted[kind] += len(pairs)
            found[kind] += len(pairs & by_screen.get(kind, set()))
            found_any[kind] += len(pairs & every)
    return {
        "honestMatches": honest,
        "honestNotClear": rate(not_clear, honest),
        "honestFlag": rate(flagged, honest),
        "recall": {k: rate(found[k], planted[k]) for k in sorted(planted)},
        "recallAnyScreen": {k: rate(found_any[k], planted[k]) for k in sorted(planted)},
        "precision": {s: rate(right[s], raised_n[s]) for s in sorted(raised_n)},
        "precisionAll": rate(sum(right.values()), sum(raised_n.values())),
    }




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "),
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Truth files: see the module docstring (python -m pydoc bench/labelled_matches.py).")
    parser.add_argument("targets", nargs="+", type=Path, help="match files, or folders searched for m_* matches")
    parser.add_argument("--config", type=Path, default=None, help="a screens configuration override (JSON)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)

    from daishi_forensics.report.screening import screen_one
    from daishi_forensics.screens.config import load_config

    config = load_config(args.config)
    matches: list[Path] = []
    for target in args.targets:
        matches += matches_in(target) if target.is_dir() else [target]
    rows = []
    unread: list[str] = []
    for match in matches:
        truth_path = truth_of(match)
        if truth_path is None:
            print(f"labelled_matches: error: {match}: no truth file ({match.name}'s .truth.json beside it, "
                  "or truth.json in a folder holding this one match)", file=sys.stderr)
            return 3
        try:
            entries = json.loads(truth_path.read_text(encoding="utf-8"))["planted"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"labelled_matches: error: {truth_path}: not a truth file with a planted list ({exc})",
                  file=sys.stderr)
            return 3
        outcome, _graph = screen_one(str(match), config)
        if outcome.result is None:
            unread.append(f"{match}: {outcome.error}")
            continue
        raised = [(f.screen, pair(a, b)) for f in outcome.result.flags for a, b in f.pairs]
        rows.append((outcome.result.verdict, raised, entries))
    figures = {"matches": len(rows), "notScreened": unread, "configVersion": config.version, **tally(rows)}
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 3 if unread else 0
    print(f"{len(rows)} matches screened ({', '.join(str(t) for t in args.targets)}); screens config "
          f"{config.version}; nothing tuned on them")
    for line in unread:
        print(f"  NOT SCREENED {line}")
    print(rate_line(f"honest not clear ({figures['honestMatches']})", figures["honestNotClear"]))
    print(rate_line("honest flag", figures["honestFlag"]))
    for kind, r in figures["recall"].items():
        print(rate_line(f"recall {kind}", r) + f"   any screen {figures['recallAnyScreen'][kind]['k']}")
    for screen, r in figures["precision"].items():
        print(rate_line(f"precision {screen}", r))
    print(rate_line("precision, every screen", figures["precisionAll"]))
    return 3 if unread else 0


if __name__ == "__main__":
    raise SystemExit(main())
