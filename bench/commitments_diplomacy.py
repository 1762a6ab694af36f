"""Real Diplomacy chat labelled for commitments: the labels ship, the texts are rebuilt from your copy.

    python bench/commitments_diplomacy.py rebuild --corpus train.jsonl [--labels FILE] --out ROWS.jsonl
    python bench/commitments_general.py --fixture ROWS.jsonl --no-added --split all

The messages come from the public corpus of Diplomacy games of Peskov et al., *It Takes Two to Lie: One to
Lie, and One to Listen* (ACL 2020), whose repository states no licence for its text.  So this repository
ships the labels alone (``tests/fixtures/diplomacy-real-1.labels.jsonl``): every row as
``bench/commitments_general.py`` reads it, but with ``sha256`` (of the message's UTF-8 text) where ``text``
would be.  ``rebuild`` reads a copy of the corpus's ``data/train.jsonl`` (one dialog between two players a
line; ``data/validation.jsonl`` for ``diplomacy-real-5.labels.jsonl``, ``data/test.jsonl`` for ``-6`` and ``-7``),
finds each labelled message by its id -- ``diplomacy/<train, validation or test>/g<game>/<power>-<power>/<index>``:
the corpus file, the game, the dialog's two powers in alphabetical order, the message's index in the dialog --
checks that its text has the recorded digest, and writes the full rows.  A message it cannot find, or whose text
differs, is an error naming the id (nothing is left out silently).

The splits ``holdout-diplomacy-2``, ``-3`` and ``-7`` (``diplomacy-real-2.labels.jsonl``,
``diplomacy-real-3.labels.jsonl``, ``diplomacy-real-7.labels.jsonl``) are held out: no extraction rule was written
from them.  ``holdout-diplomacy-1`` (held out while two versions of the rules were written), ``holdout-diplomacy-4``,
``-5`` and ``-6`` (the judges of versions 17, 18 and 19) were retired to tune after their looks (see
``tests/fixtures/README.md`` for how each set was drawn and labelled, and ``docs/benchmarks.md`` for the figures
and how many times each held-out set has been scored).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

LABELS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "diplomacy-real-1.labels.jsonl"
ID = re.compile(r"^diplomacy/(?:train|validation|test)/g(\d+)/([a-z]+)-([a-z]+)/(\d+)$")


def digest(text: str) -> str:
    """The SHA-256 of ``text``'s UTF-8 bytes, in hex.

    >>> digest("Hi Italy!")[:12]
    '08d1213e147d'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_id(row_id: str) -> tuple[int, tuple[str, str], int]:
    """``(game, (power, power), index)`` of a row id; ``ValueError`` naming the id otherwise."""
    m = ID.match(row_id)
    if m is None:
        raise ValueError(f"row {row_id!r}: field id: not of the form diplomacy/<train, validation or test>/g<game>/"
                         "<power>-<power>/<index>")
    first, second = m.group(2), m.group(3)
    if first >= second:
        raise ValueError(f"row {row_id!r}: field id: the two powers must be distinct and in alphabetical order")
    return int(m.group(1)), (first, second), int(m.group(4))


def dialogs(lines: Iterable[str], where: str = "corpus") -> dict[tuple[int, tuple[str, str]], list[str]]:
    """The corpus's dialogs by ``(game, powers in alphabetical order)``: their messages in order."""
    out: dict[tuple[int, tuple[str, str]], list[str]] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
            messages = [str(m) for m in d["messages"]]
            named = d.get("players") or [*d["speakers"], *d["receivers"]]
            powers = sorted({str(p).lower() for p in named})
            game = int(d["game_id"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{where}: line {number}: not a dialog of the corpus ({e})") from None
        if not messages and len(powers) < 2:
            continue  # an empty dialog that names no pair (the corpus holds some): no message to find in it
        if len(powers) != 2:
            raise ValueError(f"{where}: line {number}: a dialog between {len(powers)} powers, not two")
        out[(game, (powers[0], powers[1]))] = messages
    return out


def rebuild(labels: Iterable[Mapping[str, Any]], found: Mapping[tuple[int, tuple[str, str]], list[str]]) -> list[dict[str, Any]]:
    """The labelled rows with their ``text`` from the corpus (``sha256`` dropped), each text checked."""
    rows = []
    for row in labels:
        game, powers, index = parse_id(row["id"])
        messages = found.get((game, powers))
        if messages is None or index >= len(messages):
            raise ValueError(f"row {row['id']!r}: field id: no such message in the corpus")
        text = messages[index]
        if digest(text) != row["sha256"]:
            raise ValueError(f"row {row['id']!r}: field sha256: the corpus's text differs from the labelled one")
        rows.append({**{k: v for k, v in row.items() if k != "sha256"}, "text": text})
    return rows


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("rebuild", help="write the labelled rows with their texts from a copy of the corpus")
    r.add_argument("--corpus", type=Path, required=True, help="the corpus's data/train.jsonl")
    r.add_argument("--labels", type=Path, default=LABELS)
    r.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        with args.corpus.open(encoding="utf-8") as f:
            found = dialogs(f, str(args.corpus))
        rows = rebuild(_read_jsonl(args.labels), found)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with args.out.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} rows written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
