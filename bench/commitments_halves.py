"""Carry-over of the commitment rules inside the tune split: two halves of its real dialogues.

Usage::

    python bench/commitments_halves.py [--errors A|B] [--json]

The tune split's real negotiation turns (style ``casino``, from every labelled file, only rows
whose ``split`` is ``tune``; no held-out row is read into the scoring) are cut in two by
dialogue: the dialogues are ordered by a SHA-256 of :data:`HALVES_SEED` and the dialogue's
source, and taken into half ``A`` in that order until it holds half the turns; the rest are
half ``B``.  Two turns of one dialogue are never on both sides.

A rule written while looking at the errors of one half is measured on the other: the figure on
the unseen half is the estimate of how far the rule carries to new dialogues.  ``--errors A``
prints the wrong rows of half ``A`` only (``--errors B`` those of ``B``).  Every ratio carries
its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
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
    >>> sorted(halves(rows).values())
    ['A', 'B', 'B']
    """
    turns = Counter(r["source"] for r in rows)
    side: dict[str, str] = {}
    in_a = 0
    for source in sorted(turns, key=_order):
        if in_a < sum(turns.values()) / 2:
            side[source] = "A"
            in_a += turns[source]
        else:
            side[source] = "B"
    return side


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", choices=("A", "B"), help="print the wrong rows of this half only")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    rows = tune_real_rows()
    side = halves(rows)
    predicted = general.predictions(rows, general.heuristic)
    data: dict[str, Any] = {}
    for half in ("A", "B"):
        part = [r for r in rows if side[r["source"]] == half]
        s = general.score(part, predicted)
        data[half] = s.to_json()
        if not args.json:
            print("\n".join(general.render(f"tune real turns, half {half} ({len(set(r['source'] for r in part))} "
                                           f"dialogues)", s, detail=True)))
    if args.json:
        print(json.dumps(data, indent=1, sort_keys=True))
    if args.errors:
        for row in rows:
            if side[row["source"]] != args.errors:
                continue
            got = predicted[row["id"]]
            want = [general.label_key(c) for c in row["commitments"]]
            if Counter(got) != Counter(want):
                print(json.dumps({"id": row["id"], "text": row["text"], "labelled": row["commitments"],
                                  "predicted": [list(k) for k in got]}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
