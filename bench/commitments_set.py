"""How the general commitment set was drawn and split: the seeded sample of real turns and the split rule.

Usage::

    python bench/commitments_set.py sample --corpus PATH [--n 280] [--seed 20260815]
    python bench/commitments_set.py split FILE [--write]

``sample`` draws the real negotiation turns that ``tests/fixtures/commitments-general.jsonl``
labels: from a message corpus in the one-message-a-line form (``{"text", "label",
"kind", "source"}``), the lines whose ``kind`` is ``negotiation`` (the CaSiNo
campsite-negotiation turns, CC BY 4.0), a seeded uniform sample of ``n`` of them,
in corpus order, printed as unlabelled rows.  The choice depends on the seed and the
corpus only -- never on what any extractor makes of a line -- and every sampled line
is labelled, commitment or not.

``split`` recomputes the ``split`` of every row of a labelled file (and rewrites the
file with ``--write``; without it, it only reports rows whose split differs).  The
rule (:func:`assign_splits`): rows are grouped (a real turn by its conversation, so
two turns of one dialogue never straddle the split; a written row by its id); within
each style the groups are ordered by a seeded SHA-256 of the group key, and groups
go to ``holdout`` in that order until half of the style's rows are there; the rest
are ``tune``.  Each style therefore has both splits, and about half its rows in each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

SAMPLE_SEED = 20260815
"""The seed of the real-turn sample."""

SAMPLE_SIZE = 280
"""How many real turns the set labels."""

SPLIT_SEED = "commitments-general-v1"
"""The salt of the split hash."""

REAL_STYLE = "casino"
"""The style of the real (human-written) turns."""

CASINO_LICENSE = "CC BY 4.0"
CASINO_VOCABULARY: Mapping[str, list[str]] = {
    "items": ["food", "water", "firewood"],
    "places": [],
    "agents": ["camper_a", "camper_b"],
}
"""Every CaSiNo turn negotiates three goods; the two campers are anonymous, so the
speaker is ``camper_a`` and the addressee ``camper_b`` throughout."""


def sample_casino(lines: Iterable[str], n: int = SAMPLE_SIZE, seed: int = SAMPLE_SEED) -> list[dict[str, Any]]:
    """A seeded uniform sample of ``n`` negotiation turns, in corpus order, as unlabelled rows.

    A row's id is ``casino/<split>/<dialogue>/<turn>`` from the line's ``source``
    (``CaSiNo/<split>/<dialogue>``) and the turn's position among that dialogue's
    lines in the corpus.

    >>> rows = sample_casino([json.dumps({"text": t, "label": "benign", "kind": "negotiation",
    ...     "source": "CaSiNo/test/1"}) for t in ["hi", "3 water?", "deal"]], n=2, seed=1)
    >>> [(r["id"], r["text"]) for r in rows]
    [('casino/test/1/0', 'hi'), ('casino/test/1/2', 'deal')]
    """
    turns: list[dict[str, Any]] = []
    seen: dict[str, int] = defaultdict(int)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("kind") != "negotiation":
            continue
        source = row["source"]
        parts = source.split("/")
        if len(parts) != 3 or parts[0] != "CaSiNo":
            raise ValueError(f"corpus line {number}: field source: expected CaSiNo/<split>/<dialogue>, got {source!r}")
        turn = seen[source]
        seen[source] += 1
        turns.append({
            "id": f"casino/{parts[1]}/{parts[2]}/{turn}",
            "text": row["text"],
            "source": source,
        })
    if n > len(turns):
        raise ValueError(f"asked for {n} turns, the corpus has {len(turns)} negotiation lines")
    chosen = sorted(random.Random(seed).sample(range(len(turns)), n))
    return [{
        "id": turns[i]["id"],
        "text": turns[i]["text"],
        "vocabulary": {k: list(v) for k, v in CASINO_VOCABULARY.items()},
        "speaker": "camper_a",
        "addressee": "camper_b",
        "commitments": [],
        "style": REAL_STYLE,
        "source": turns[i]["source"],
        "license": CASINO_LICENSE,
    } for i in chosen]


def group_key(row: Mapping[str, Any]) -> str:
    """What keeps rows together across the split: a real turn's dialogue, else the row id."""
    if row["style"] == REAL_STYLE:
        return str(row["source"])
    return str(row["id"])


def _rank(key: str) -> str:
    return hashlib.sha256(f"{SPLIT_SEED}\x00{key}".encode()).hexdigest()


def assign_splits(rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """``{row id: "tune" | "holdout"}``: per style, groups in seeded-hash order fill half the rows.

    >>> rows = [{"id": f"x{i}", "style": "s"} for i in range(4)]
    >>> sorted(assign_splits(rows).values())
    ['holdout', 'holdout', 'tune', 'tune']
    """
    by_style: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        by_style[row["style"]][group_key(row)].append(row["id"])
    out: dict[str, str] = {}
    for groups in by_style.values():
        total = sum(len(ids) for ids in groups.values())
        held = 0
        for key in sorted(groups, key=_rank):
            split = "holdout" if held < total / 2 else "tune"
            if split == "holdout":
                held += len(groups[key])
            for row_id in groups[key]:
                out[row_id] = split
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_sample = sub.add_parser("sample", help="print the seeded sample of real negotiation turns (unlabelled)")
    p_sample.add_argument("--corpus", type=Path, required=True, help="the message corpus (.jsonl)")
    p_sample.add_argument("--n", type=int, default=SAMPLE_SIZE)
    p_sample.add_argument("--seed", type=int, default=SAMPLE_SEED)
    p_split = sub.add_parser("split", help="recompute the split of a labelled file")
    p_split.add_argument("file", type=Path)
    p_split.add_argument("--write", action="store_true", help="rewrite the file with the computed splits")
    args = parser.parse_args(argv)
    if args.command == "sample":
        with args.corpus.open(encoding="utf-8") as f:
            for row in sample_casino(f, args.n, args.seed):
                print(json.dumps(row, ensure_ascii=False))
        return 0
    lines = [line for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [json.loads(line) for line in lines]
    splits = assign_splits(rows)
    wrong = [r["id"] for r in rows if r.get("split") != splits[r["id"]]]
    if args.write:
        with args.file.open("w", encoding="utf-8") as f:
            for row in rows:
                row["split"] = splits[row["id"]]
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{args.file}: {len(rows)} rows, {len(wrong)} splits changed")
        return 0
    for row_id in wrong:
        print(f"{args.file}: row {row_id}: field split: expected {splits[row_id]}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
