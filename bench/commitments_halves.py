"""Carry-over of the commitment rules inside the tune split: two halves of its real dialogues.

Usage::

    python bench/commitments_halves.py [--errors A|B] [--paraphrase] [--show-changes A|B] [--json]

The tune split's real negotiation turns (style ``casino``, from every labelled file, only rows
whose ``split`` is ``tune``; no held-out row is read into the scoring) are cut in two by
dialogue: the dialogues are ordered by a SHA-256 of :data:`HALVES_SEED` and the dialogue's
source, and taken into half ``A`` in that order until it holds half the turns; the rest are
half ``B``.  Two turns of one dialogue are never on both sides.

A rule written while looking at the errors of one half is measured on the other: the figure on
the unseen half is the estimate of how far the rule carries to new dialogues.  ``--errors A``
prints the wrong rows of half ``A`` only (``--errors B`` those of ``B``).  Every ratio carries
its 95% Wilson interval.

**Paraphrases** (``--paraphrase``): each row is rewritten in ways that keep its labels (digits
and number words swapped, "I'll" and "I will", "will" and "can", "I am happy / willing / would be
glad to", "you can have" as "you may have" or "you can take", "firewood" as "wood", "N water" as
"N bottles of water", an opening "Ok, " or "Hi there! ", a closing "Thanks so much!" or emoji, no
closing stop, a lower-case first letter), and the bench counts, per half and per rewrite, the rows
whose predictions change: a rule that reads structure gives the same answer; one fitted to a
phrasing does not.  No label is needed, so it measures rows nobody labelled for it.
``--show-changes A`` prints half ``A``'s changed rows.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import commitments_general as general  # noqa: E402

HALVES_SEED = "commitments-tune-halves-v1"
"""The salt of the dialogue order that cuts the tune split's real turns in two."""

REAL_STYLE = "casino"
"""The style of the real negotiation turns."""


def tune_real_rows() -> list[dict[str, Any]]:
    """The tune split's real turns from every labelled file, in file order."""
    rows = general.load(general.FIXTURE)
    rows += general.load_added(general.ADDED, (r["id"] for r in rows))
    rows += general.load_added(general.REAL_ADDED, (r["id"] for r in rows), ("tune", general.HOLDOUT_REAL))
    rows += general.load_added(general.REAL_SECOND, (r["id"] for r in rows), ("tune", general.HOLDOUT_REAL_2))
    return [r for r in rows if r["split"] == "tune" and r["style"] == REAL_STYLE]


def _order(source: str) -> str:
    return hashlib.sha256(f"{HALVES_SEED}:{source}".encode()).hexdigest()


def halves(rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """``{dialogue source: "A" or "B"}``: dialogues in seeded-hash order fill ``A`` to half the turns.

    >>> rows = [{"source": s} for s in ("d1", "d1", "d2", "d3", "d3", "d3")]
    >>> halves(rows)  # seeded order d2, d3, d1: the dialogue that crosses half the turns goes to A whole
    {'d2': 'A', 'd3': 'A', 'd1': 'B'}
    """
    turns = Counter(r["source"] for r in rows)
    side: dict[str, str] = {}
    in_a, half = 0, sum(turns.values()) / 2
    for source in sorted(turns, key=_order):
        if in_a < half:
            side[source] = "A"
            in_a += turns[source]
        else:
            side[source] = "B"
    return side


_NUMBER = {"1": "one", "2": "two", "3": "three", "4": "four", "5": "five"}
_DIGIT = {v: k for k, v in _NUMBER.items()}


def _expanded(t: str) -> str:
    return re.sub(r"\bI'll\b", "I will", re.sub(r"\bI'd\b", "I would", t))


def _modal(replacement: str) -> Callable[[str], str]:
    return lambda t: re.sub(r"\b(I|we) (will|can)\b", r"\1 " + replacement, _expanded(t), flags=re.I)


PARAPHRASES: dict[str, Callable[[str], str]] = {
    "digits as words": lambda t: re.sub(r"\b([1-5])\b", lambda m: _NUMBER[m[1]], t),
    "words as digits": lambda t: re.sub(r"\b(one|two|three|four|five)\b", lambda m: _DIGIT[m[1].lower()], t,
                                        flags=re.I),
    "I'll as I will": _expanded,
    "I will as I'll": lambda t: re.sub(r"\bI will\b", "I'll", re.sub(r"\bI would\b", "I'd", t)),
    "will as can": _modal("can"),
    "can as will": lambda t: re.sub(r"\b(I|we) can\b", r"\1 will", t, flags=re.I),
    "am happy to": _modal("am happy to"),
    "am willing to": _modal("am willing to"),
    "would be glad to": _modal("would be glad to"),
    "you may have": lambda t: re.sub(r"\byou can have\b", "you may have", t, flags=re.I),
    "you can take": lambda t: re.sub(r"\byou can have\b", "you can take", t, flags=re.I),
    "firewood as wood": lambda t: re.sub(r"\bfirewood\b", "wood", t, flags=re.I),
    "bottles of water": lambda t: re.sub(r"\b([1-5]|one|two|three) waters?\b", r"\1 bottles of water", t, flags=re.I),
    "opening Ok,": lambda t: "Ok, " + t[:1].lower() + t[1:],
    "opening Hi there!": lambda t: "Hi there! " + t,
    "closing thanks": lambda t: t.rstrip() + " Thanks so much!",
    "closing emoji": lambda t: t.rstrip() + " \U0001f642",
    "no closing stop": lambda t: t.rstrip().rstrip(".!"),
    "lower-case start": lambda t: t[:1].lower() + t[1:],
}
"""Rewrites that keep a row's labels (the campsite goods; "will", "can", "would", "happy to" are no
hedges, R7)."""


def paraphrase_changes(rows: Sequence[Mapping[str, Any]], predicted: Mapping[str, list[Any]]
                       ) -> dict[str, tuple[int, list[tuple[str, list[Any], list[Any]]]]]:
    """``{rewrite: (rows it changed, [(new text, old prediction, new prediction) for rows whose
    prediction changed])}``."""
    out: dict[str, tuple[int, list[tuple[str, list[Any], list[Any]]]]] = {}
    for name, rewrite in PARAPHRASES.items():
        changed = [dict(r, text=rewrite(r["text"])) for r in rows]
        changed = [c for c, r in zip(changed, rows) if c["text"] != r["text"]]
        now = general.predictions(changed, general.heuristic)
        out[name] = (len(changed), [(c["text"], predicted[c["id"]], now[c["id"]]) for c in changed
                                    if Counter(now[c["id"]]) != Counter(predicted[c["id"]])])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", choices=("A", "B"), help="print the wrong rows of this half only")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--paraphrase", action="store_true",
                        help="count the rows whose predictions change under rewrites that keep the labels")
    parser.add_argument("--show-changes", choices=("A", "B"), help="with --paraphrase: print this half's changes")
    args = parser.parse_args(argv)
    rows = tune_real_rows()
    side = halves(rows)
    predicted = general.predictions(rows, general.heuristic)
    data: dict[str, Any] = {}
    parts = {half: [r for r in rows if side[r["source"]] == half] for half in ("A", "B")}
    for half, part in parts.items():
        s = general.score(part, predicted)
        data[half] = s.to_json()
        if not args.json:
            print("\n".join(general.render(f"tune real turns, half {half} ({len(set(r['source'] for r in part))} "
                                           f"dialogues)", s, detail=True)))
    if args.paraphrase:
        for half, part in parts.items():
            changes = paraphrase_changes(part, predicted)
            flipped = sum(len(v[1]) for v in changes.values())
            touched = sum(v[0] for v in changes.values())
            data[half]["paraphrase"] = {k: {"rewritten": v[0], "changed": len(v[1])} for k, v in changes.items()}
            if not args.json:
                print(f"[tune real turns, half {half}, paraphrases] predictions changed on {flipped} of {touched} "
                      f"rewritten rows")
                for name, (n, flips) in changes.items():
                    print(f"  {name:20s} {len(flips):3d} of {n:3d}")
                    if args.show_changes == half:
                        for text, old, new in flips:
                            print("    " + json.dumps({"text": text, "before": old, "after": new}, ensure_ascii=False))
    if args.json:
        print(json.dumps(data, indent=1, sort_keys=True))
    if args.errors:
        general.print_errors(parts[args.errors], predicted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
