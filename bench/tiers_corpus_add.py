"""Add written rows to ``tests/fixtures/tiers/written.jsonl`` without moving any old row.

    python bench/tiers_corpus_add.py --tier persuasion --mechanism alliance-talk FILE

``FILE`` holds one new message a line (a literal ``\\n`` inside a line stands for a line
break).  Each becomes a ``written`` row (Apache-2.0, the project's own text) with the id
``w-<mechanism>-<first 8 hex of its SHA-256>``; a text already in the corpora (after
casefolding and collapsing blanks) is skipped.  Splits are given as
``bench/tiers_corpus_build.py`` gives them: near duplicates across *all* the corpora form a
group that takes one split (a group with an old row keeps that row's split), and new groups
fill their stratum's quotas (about 50 / 20 / 30) in the order of a seeded SHA-256 of the group
id.  Old rows keep their split and their bytes; the file is rewritten sorted by id, as the
builder writes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from tiers_corpus_build import (  # noqa: E402
    APACHE,
    KEYS,
    OUT,
    assign_splits,
    digest,
    near_duplicate_groups,
    norm,
    row,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--tier", choices=("persuasion", "hijack", "protocol"), required=True)
    parser.add_argument("--mechanism", required=True)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--split", choices=("train", "tune"),
                        help="put every new row in this split (a near twin of an old row elsewhere is left out)")
    args = parser.parse_args(argv)

    old: list[dict[str, object]] = []
    for path in sorted(args.out.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                old.append(json.loads(line))
    known = {norm(str(r["text"])) for r in old}
    new = []
    for line in args.file.read_text(encoding="utf-8").split("\n"):
        text = line.strip().replace("\\n", "\n")
        if not text or norm(text) in known:
            continue
        known.add(norm(text))
        new.append(row(f"w-{args.mechanism}-{digest(text, 8)}", text, args.tier, args.mechanism, "written", APACHE))
    rows = old + new
    groups = near_duplicate_groups(rows)
    if args.split:
        held = {groups[str(r["id"])]: r["split"] for r in old}
        kept = [r for r in new if held.get(groups[str(r["id"])], args.split) == args.split]
        print(f"left out {len(new) - len(kept)} rows: near twins of old rows in another split")
        for r in kept:
            r["split"] = args.split
            r["placed"] = True
        rows, new = old + kept, kept
    else:
        assign_splits(rows, groups)
    written = sorted((r for r in rows if r["source"] == "written"), key=lambda r: str(r["id"]))
    with (args.out / "written.jsonl").open("w", encoding="utf-8", newline="\n") as handle:
        for r in written:
            handle.write(json.dumps({k: r[k] for k in KEYS if k in r}, ensure_ascii=False) + "\n")
    splits = {s: sum(r["split"] == s for r in new) for s in ("train", "tune", "holdout")}
    print(f"added {len(new)} rows to {args.out / 'written.jsonl'}: " + ", ".join(f"{k} {v}" for k, v in splits.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
