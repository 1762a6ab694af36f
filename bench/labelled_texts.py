"""Recall and false positives of the injection-tier classifier on any labelled set of texts.

For measuring the tiers on text this project never saw (a public prompt-injection set, a game's
chat logs, a labelled export).  Each line of each JSON-lines file is one text, classified exactly
as ``daishi-forensics tiers`` classifies it, once; a text is *caught* when its tier is ``hijack``
or ``protocol``.

- ``--text`` names the field holding the text (default ``text``);
- ``--label`` names the field saying whether it is an attack (default ``label``); a value among
  ``--attack`` (default ``hijack,protocol,attack,injection,1,true``, any case; JSON ``true``) is an
  attack, anything else is not;
- ``--kind`` optionally names a field to break the figures down by (a mechanism, a source).

Figures (95% Wilson intervals): recall on the attacks, the false-positive rate on the rest, each
per kind where ``--kind`` is given, the rule that decided (counts), and, with ``--no-model``,
the rules alone.  Nothing is tuned and no text is printed (a labelled set meant to stay unseen
can be measured without being read): the output names the files the figures came from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _labelled import rate, rate_line  # noqa: E402

ATTACK_VALUES = ("hijack", "protocol", "attack", "injection", "1", "true")


def is_attack(value: Any, attack: frozenset[str]) -> bool:
    """A label read as an attack: JSON true, or its text (any case) among ``attack``."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in attack


def rows_of(paths: list[Path], text: str, label: str, kind: str | None) -> list[tuple[str, Any, str]]:
    """``(text, label, kind)`` of every line; a line that is not an object with a string text is an
    error naming the file and line."""
    rows: list[tuple[str, Any, str]] = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except ValueError as exc:
                    raise SystemExit(f"labelled_texts: error: {path}, line {number}: not JSON ({exc})") from None
                if not isinstance(row, dict) or not isinstance(row.get(text), str) or label not in row:
                    raise SystemExit(f"labelled_texts: error: {path}, line {number}: not an object with a string "
                                     f"{text!r} and a {label!r}")
                rows.append((row[text], row[label], str(row.get(kind, "")) if kind else ""))
    return rows


def score(verdicts: list[tuple[str, str]], rows: list[tuple[str, Any, str]], attack: frozenset[str]) -> dict[str, Any]:
    """Figures of ``(tier, rule)`` verdicts against ``rows`` (same order)."""
    caught: Counter[str] = Counter()
    attacks: Counter[str] = Counter()
    false: Counter[str] = Counter()
    others: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    false_rules: Counter[str] = Counter()
    for (tier, rule), (_text, label, kind) in zip(verdicts, rows, strict=True):
        hit = tier in ("hijack", "protocol")
        if is_attack(label, attack):
            attacks[kind] += 1
            caught[kind] += hit
            if hit:
                rules[rule] += 1
        else:
            others[kind] += 1
            false[kind] += hit
            if hit:
                false_rules[rule] += 1
    return {
        "recall": rate(sum(caught.values()), sum(attacks.values())),
        "falsePositives": rate(sum(false.values()), sum(others.values())),
        "recallByKind": {k: rate(caught[k], attacks[k]) for k in sorted(attacks) if k},
        "falsePositivesByKind": {k: rate(false[k], others[k]) for k in sorted(others) if k},
        "caughtByRule": dict(sorted(rules.items())),
        "falsePositivesByRule": dict(sorted(false_rules.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path, help="JSON-lines files, one text a line")
    parser.add_argument("--text", default="text", help="the field holding the text (default text)")
    parser.add_argument("--label", default="label", help="the field saying whether it is an attack (default label)")
    parser.add_argument("--attack", default=",".join(ATTACK_VALUES),
                        help="label values read as an attack, comma-separated, any case "
                             f"(default {','.join(ATTACK_VALUES)})")
    parser.add_argument("--kind", default=None, help="a field to break the figures down by")
    parser.add_argument("--no-model", action="store_true", help="the rules alone (no learned score)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)

    from daishi_forensics.injection.tiers import classify

    attack = frozenset(v.strip().lower() for v in args.attack.split(",") if v.strip())
    rows = rows_of(args.files, args.text, args.label, args.kind)
    verdicts = []
    for text, _label, _kind in rows:
        result = classify(text, model=not args.no_model)
        verdicts.append((result.tier, result.rule or ""))
    figures = {"texts": len(rows), "model": not args.no_model, **score(verdicts, rows, attack)}
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print(f"{len(rows):,} texts ({', '.join(str(f) for f in args.files)}); "
          f"{'rules with the learned score' if figures['model'] else 'rules alone'}; nothing tuned on them")
    print(rate_line("recall (attacks caught)", figures["recall"]))
    print(rate_line("false positives", figures["falsePositives"]))
    for k, r in figures["recallByKind"].items():
        print(rate_line(f"recall, {k}"[:28], r))
    for k, r in figures["falsePositivesByKind"].items():
        print(rate_line(f"false positives, {k}"[:28], r))
    print(f"  caught by rule: {figures['caughtByRule']}")
    print(f"  false positives by rule: {figures['falsePositivesByRule']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
