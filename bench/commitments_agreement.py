"""Agreement between two labellings of the same commitment rows (two passes, or two annotators).

Usage::

    python bench/commitments_agreement.py FIRST.jsonl SECOND.jsonl [--diff]

Both files hold rows in the form of ``tests/fixtures/commitments-general.jsonl``
(``id`` and ``commitments`` are read; the other fields are ignored).  Printed:

* **exact agreement**: the share of rows whose commitments are the same multiset
  (kind and every term: give, receive, region, target);
* **Cohen's kappa on kind presence**: for every row and every kind, "does the row
  carry a commitment of this kind?" -- pooled over all (row, kind) pairs, then per
  kind, then "does the row carry any commitment?".  Kappa corrects the raw agreement
  for what two labellers with the same base rates would reach by chance
  (``(p_o - p_e) / (1 - p_e)``); most rows carry nothing, so raw agreement alone
  would look better than it is.

* **the second scored against the first**: strict precision and recall of the second labelling's
  commitments taken as predictions of the first's, counted exactly as ``bench/commitments_general.py``
  counts an extractor's (kind and every term; 95% Wilson intervals), overall and per kind, and the same on
  kind alone.  This is the ceiling a labelling puts on any extractor scored against it: where two careful
  labellers reach strict precision 0.8 against each other, an extractor's 0.85 against one of them says
  as much about that labeller's habits as about the text.  (Precision of the second against the first is
  the first's recall against the second, so one direction is enough.)

Both are printed per style too.  ``--diff`` prints every row the two disagree on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from commitments_general import Score, Tally, label_key  # noqa: E402

KINDS: tuple[str, ...] = ("trade", "give", "accept", "no_attack", "meet", "stay_out", "support")
"""The kinds of the general labelling guide, in report order."""


def commitment_key(c: dict[str, Any]) -> tuple[Any, ...]:
    """A commitment as a hashable key: kind, give, receive, region, target."""
    give = tuple(sorted((c.get("give") or {}).items()))
    receive = tuple(sorted((c.get("receive") or {}).items()))
    return (c["kind"], give, receive, c.get("region"), c.get("target"))


def cohen_kappa(pairs: Iterable[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa of two binary labellings given as ``(first, second)`` pairs.

    ``None`` when chance agreement is 1 (both always say the same single value).

    >>> cohen_kappa([(True, True), (False, False), (True, False), (False, False)])
    0.5
    """
    pairs = list(pairs)
    if not pairs:
        return None
    n = len(pairs)
    both = sum(1 for a, b in pairs if a == b)
    first_yes = sum(1 for a, _ in pairs if a) / n
    second_yes = sum(1 for _, b in pairs if b) / n
    observed = both / n
    chance = first_yes * second_yes + (1 - first_yes) * (1 - second_yes)
    if chance == 1:
        return None
    return (observed - chance) / (1 - chance)


def agreement(first: Sequence[dict[str, Any]], second: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Exact agreement and kappas of two labellings of the same row ids."""
    a = {r["id"]: r for r in first}
    b = {r["id"]: r for r in second}
    if set(a) != set(b):
        missing = sorted(set(a) ^ set(b))[:5]
        raise ValueError(f"the two files label different rows (first differences: {missing})")
    ids = [r["id"] for r in first]
    exact = [Counter(map(commitment_key, a[i]["commitments"])) == Counter(map(commitment_key, b[i]["commitments"]))
             for i in ids]
    presence: dict[str, list[tuple[bool, bool]]] = {k: [] for k in KINDS}
    for i in ids:
        ka = {c["kind"] for c in a[i]["commitments"]}
        kb = {c["kind"] for c in b[i]["commitments"]}
        for k in KINDS:
            presence[k].append((k in ka, k in kb))
    any_pairs = [(bool(a[i]["commitments"]), bool(b[i]["commitments"])) for i in ids]
    pooled = [p for k in KINDS for p in presence[k]]
    return {
        "rows": len(ids),
        "exactAgreement": sum(exact) / len(ids) if ids else None,
        "rowsDisagreeing": [i for i, same in zip(ids, exact) if not same],
        "kappaKindPresence": cohen_kappa(pooled),
        "kappaPerKind": {k: cohen_kappa(presence[k]) for k in KINDS},
        "kappaAnyCommitment": cohen_kappa(any_pairs),
        "rowsWithKind": {k: (sum(1 for x, _ in presence[k] if x), sum(1 for _, y in presence[k] if y)) for k in KINDS},
    }


def scored(first: Sequence[dict[str, Any]], second: Sequence[dict[str, Any]]) -> Score:
    """The second labelling's commitments scored as an extractor's predictions of the first's (strict and
    kind alone, overall and per kind), as ``bench/commitments_general.py`` scores an extractor."""
    by_id = {r["id"]: r for r in second}
    if {r["id"] for r in first} != set(by_id):
        raise ValueError("the two files label different rows")
    result = Score()
    for row in first:
        result.add([label_key(c) for c in row["commitments"]], [label_key(c) for c in by_id[row["id"]]["commitments"]])
    return result


def _rate(t: Tally) -> str:
    def one(r: Any) -> str:
        return "n/a" if r.value is None else f"{r.text} ({r.successes}/{r.trials})"
    return f"precision {one(t.precision)}, recall {one(t.recall)}"


def _print_scored(result: Score) -> None:
    print(f"  the second scored against the first, strict: {_rate(result.strict)}")
    print(f"  kind alone: {_rate(result.kind)}")
    for kind in [k for k in KINDS if k in result.per_kind_strict]:
        print(f"    {kind:<10} strict {_rate(result.per_kind_strict[kind])}")


def load(path: Path) -> list[dict[str, Any]]:
    """The rows of a labelled file."""
    rows = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}: line {number}: not JSON ({e.msg})") from None
    return rows


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _print(title: str, result: dict[str, Any]) -> None:
    print(f"[{title}] {result['rows']} rows: exact agreement {_fmt(result['exactAgreement'])} "
          f"({result['rows'] - len(result['rowsDisagreeing'])} of {result['rows']}), "
          f"kappa on kind presence {_fmt(result['kappaKindPresence'])}, "
          f"kappa on any commitment {_fmt(result['kappaAnyCommitment'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--diff", action="store_true", help="print every row the two labellings disagree on")
    args = parser.parse_args(argv)
    first, second = load(args.first), load(args.second)
    result = agreement(first, second)
    _print("all", result)
    _print_scored(scored(first, second))
    print("  kappa per kind (rows with the kind: first / second):")
    for k in KINDS:
        x, y = result["rowsWithKind"][k]
        print(f"    {k:<10} {_fmt(result['kappaPerKind'][k])}  ({x} / {y})")
    styles = sorted({r["style"] for r in first})
    for style in styles:
        sub_a = [r for r in first if r["style"] == style]
        ids = {r["id"] for r in sub_a}
        _print(style, agreement(sub_a, [r for r in second if r["id"] in ids]))
    if args.diff:
        by_id = {r["id"]: r for r in second}
        for row in first:
            if row["id"] in result["rowsDisagreeing"]:
                print(json.dumps({"id": row["id"], "text": row["text"], "first": row["commitments"],
                                  "second": by_id[row["id"]]["commitments"]}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
