"""Precision and recall of the commitment extractor on any labelled set of messages.

For measuring the extractor on text this project never saw (another corpus of negotiation
chat, a labelled export of real matches), labelled with the project's scheme
(``docs/commitments-labelling.md``).  Each line of each JSON-lines file is one message:

- ``text`` (``--text`` names another field): the message;
- ``commitments``: its labelled commitments, each ``{"kind", "give", "receive", "region",
  "target"}`` (kind one of trade, give, accept, no_attack, meet, stay_out, support; the terms
  optional), ``[]`` for none;
- optional ``vocabulary``: ``{"items": [...], "places": [...], "agents": [...]}``, the game's
  goods, places and players, which the extractor is told (as the promise pass tells it an
  archive's); a row without one is read with Daishi's default items (:data:`DAISHI_VOCABULARY`);
- optional ``addressee``: a ``target`` equal to it counts as no target (the guide's convention);
- optional ``id``: named in errors (else the file and line).

``--by FIELD`` breaks the figures down by a field of the rows (a corpus, a style, a game).

Figures (95% Wilson intervals): precision and recall counting a commitment right when its kind
and terms both match (*strict*) and when its kind does (*kind*), per kind, and the confusion of
kinds (``none``: a commitment missed, or one extracted that no label has).  Nothing is tuned and no
text is printed (a labelled set meant to stay unseen can be measured without being read): the
output names the files the figures came from.

Usage::

    python bench/labelled_commitments.py FILE.jsonl [FILE ...] [--text FIELD] [--by FIELD]
                                         [--extractor heuristic|heuristic-default-items|module:factory]
                                         [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from commitments_general import (  # noqa: E402
    FACTORIES, KINDS, Factory, Score, factory_named, label_key, predicted_key, render,
)
from daishi_forensics.profile.commitments import CommitmentExtractor, HeuristicExtractor, extractor_info  # noqa: E402
from daishi_forensics.read.archive import DEFAULT_ITEM_VALUES  # noqa: E402

Row = dict[str, Any]

DAISHI_VOCABULARY: dict[str, list[str]] = {"items": sorted(DEFAULT_ITEM_VALUES), "places": [], "agents": []}
"""What a row without a vocabulary is read with: Daishi's default items, no places, no players."""


def _fail(where: str, message: str) -> SystemExit:
    return SystemExit(f"labelled_commitments: error: {where}: {message}")


def _commitments(value: Any, where: str) -> list[Mapping[str, Any]]:
    """The labelled commitments of a row, each checked: an object with a known kind."""
    if not isinstance(value, list):
        raise _fail(where, "field commitments: not a list")
    for number, c in enumerate(value):
        if not isinstance(c, Mapping) or c.get("kind") not in KINDS:
            raise _fail(where, f"field commitments[{number}]: not an object whose kind is one of {', '.join(KINDS)}")
    return value


def rows_of(paths: Sequence[Path], text: str, by: str | None) -> list[Row]:
    """Every labelled message of ``paths``: ``{"where", "text", "commitments", "vocabulary", "addressee",
    "group"}``; a line that is not such a row is an error naming the file, the line (and its id) and the
    field."""
    rows: list[Row] = []
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").split("\n")  # (not splitlines: a JSON string may hold U+2028)
        except (OSError, UnicodeDecodeError) as exc:
            raise _fail(str(path), f"cannot be read ({exc})") from None
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"{path}, line {number}"
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise _fail(where, f"not JSON ({exc})") from None
            if not isinstance(row, dict):
                raise _fail(where, "not a JSON object")
            if "id" in row:
                where += f" (id {row['id']!r})"
            if not isinstance(row.get(text), str):
                raise _fail(where, f"field {text}: missing or not a string")
            if "commitments" not in row:
                raise _fail(where, "field commitments: missing")
            vocabulary = row.get("vocabulary")
            if vocabulary is not None and not (isinstance(vocabulary, Mapping) and all(
                    isinstance(vocabulary.get(f, []), list) for f in ("items", "places", "agents"))):
                raise _fail(where, "field vocabulary: not an object of lists items, places and agents")
            rows.append({"where": where, "text": row[text],
                         "commitments": _commitments(row["commitments"], where),
                         "vocabulary": vocabulary, "addressee": row.get("addressee"),
                         "group": str(row.get(by, "")) if by else ""})
    return rows


def _vocabulary_key(vocabulary: Mapping[str, Any]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(v) for v in vocabulary.get(f, [])) for f in ("items", "places", "agents"))


def predict(rows: Sequence[Row], factory: Factory) -> list[list[Any]]:
    """Each row's extracted commitments as scoring keys, in row order: one extractor built per distinct
    vocabulary (:data:`DAISHI_VOCABULARY` for a row without); an extractor that raises is an error naming
    the row."""
    built: dict[Any, CommitmentExtractor] = {}
    out: list[list[Any]] = []
    for row in rows:
        vocabulary = DAISHI_VOCABULARY if row["vocabulary"] is None else row["vocabulary"]
        key = _vocabulary_key(vocabulary)
        extractor = built.get(key)
        if extractor is None:
            extractor = built[key] = factory(vocabulary)
        try:
            found = extractor.extract(row["text"]).commitments
        except Exception as exc:  # an extractor must be total: say which row broke it
            raise _fail(row["where"], f"field text: the extractor raised {exc!r}") from exc
        out.append([predicted_key(c, row["addressee"]) for c in found])
    return out


def score_rows(rows: Sequence[Row], predicted: Sequence[list[Any]]) -> dict[str, Score]:
    """The figures of every row (``""``) and of each group of ``--by``."""
    scores: dict[str, Score] = {"": Score()}
    for row, keys in zip(rows, predicted, strict=True):
        gold = [label_key(c) for c in row["commitments"]]
        scores[""].add(gold, keys)
        if row["group"]:
            scores.setdefault(row["group"], Score()).add(gold, keys)
    return scores


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path, help="JSON-lines files of labelled messages")
    parser.add_argument("--text", default="text", help="the field holding the message (default text)")
    parser.add_argument("--by", default=None, help="a field to break the figures down by")
    parser.add_argument("--extractor", default="heuristic",
                        help=f"{', '.join(FACTORIES)} or module:factory (a callable taking a row's vocabulary)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    rows = rows_of(args.files, args.text, args.by)
    factory = factory_named(args.extractor)
    scores = score_rows(rows, predict(rows, factory))
    without = sum(1 for r in rows if r["vocabulary"] is None)
    info = extractor_info(HeuristicExtractor()) if args.extractor in FACTORIES else {"name": args.extractor}
    if args.json:
        print(json.dumps({"files": [str(p) for p in args.files], "extractor": info, "rowsWithoutVocabulary": without,
                          "all": scores[""].to_json(),
                          "groups": {g: s.to_json() for g, s in sorted(scores.items()) if g}},
                         indent=1, sort_keys=True))
        return 0
    print(f"labelled commitments from {', '.join(map(str, args.files))}: {len(rows)} messages, read by "
          f"{info['name']}{' v' + str(info['version']) if 'version' in info else ''}"
          + (f" ({without} without a vocabulary, read with Daishi's default items)" if without else ""))
    print("\n".join(render("all", scores[""], detail=True)))
    for group, s in sorted(scores.items()):
        if group:
            print("\n".join(render(f"{args.by} = {group}", s, detail=False)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
