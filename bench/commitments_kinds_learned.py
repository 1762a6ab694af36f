"""Would learned message-level kinds help the rules on alliance-game chat?  Leave one game out, tune rows only.

    python bench/commitments_diplomacy.py rebuild --corpus train.jsonl --labels tests/fixtures/diplomacy-tune-1.labels.jsonl --out T1.jsonl
    ... (the same for each tune split)
    python bench/commitments_kinds_learned.py T1.jsonl T2.jsonl ... [--C 4.0] [--threshold 0.5]

Three kinds of the guide carry no terms in most alliance-game chat: ``accept``, ``support`` and ``no_attack``
(a place or a third party is rare there).  For them a commitment is a property of the whole message, which a
text classifier can learn.  Per kind, a logistic regression (balanced classes) over word 1-2-grams and
character 2-5-grams (tf-idf) says whether the message carries one.  Every game in turn is left out: the models
are trained on the other games' messages and predict the left-out game's, so each figure is on a game the
model never saw (the rules, though, were written from some of these games: their own figure is a tune figure).

Printed, strict (``bench/commitments_general.py``'s scoring, 95% Wilson intervals), pooled over the games and
per game as found / predicted / labelled:

* ``rules``: the heuristic extractor alone;
* ``union``: the rules, plus a term-less commitment of a kind the classifier finds in a message where the rules
  read none of that kind;
* ``replace``: the rules' readings of the three kinds dropped, the classifier's put in their place.

Only rows whose split names a tune split are read (``tune-diplomacy-*``, and ``holdout-diplomacy-1``, retired to
tune); any other row is refused, naming the file and row, so that a held-out split cannot be scored by mistake.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import commitments_general as cg  # noqa: E402
from commitments_diplomacy import parse_id  # noqa: E402

KINDS = ("accept", "support", "no_attack")
"""The kinds learned: those whose commitments carry no terms in most alliance-game chat."""
TUNE = ("holdout-diplomacy-1",)
"""Splits read as tune besides ``tune-diplomacy-*`` (retired held-out splits)."""
VARIANTS = ("rules", "union", "replace")


def game_of(row: Mapping[str, Any]) -> str:
    """The game of a Diplomacy row, ``g<game>`` (the id read by :func:`commitments_diplomacy.parse_id`, which
    refuses an id of another form, naming it).

    >>> game_of({"id": "diplomacy/train/g8/austria-italy/3"})
    'g8'
    """
    return f"g{parse_id(str(row['id']))[0]}"


def tune_rows(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The rows of ``paths``, each checked to be in a tune split (``ValueError`` naming file and row)."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        for row in cg.load(path):
            split = row["split"]
            if not (split.startswith("tune-diplomacy-") or split in TUNE):
                raise ValueError(f"{path}: row {row['id']!r}: field split: {split!r} is not a tune split; refused")
            rows.append(row)
    return rows


def held_out_probabilities(rows: Sequence[Mapping[str, Any]], C: float) -> dict[tuple[str, str], float]:
    """``{(row id, kind): probability}``, each from models trained on the other games' rows only."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    out: dict[tuple[str, str], float] = {}
    for game in sorted({game_of(r) for r in rows}):
        train = [r for r in rows if game_of(r) != game]
        test = [r for r in rows if game_of(r) == game]
        words = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
        chars = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), min_df=2, sublinear_tf=True)
        x_train = hstack([words.fit_transform([r["text"] for r in train]),
                          chars.fit_transform([r["text"] for r in train])]).tocsr()
        x_test = hstack([words.transform([r["text"] for r in test]), chars.transform([r["text"] for r in test])]).tocsr()
        for kind in KINDS:
            y = [any(c["kind"] == kind for c in r["commitments"]) for r in train]
            if len(set(y)) < 2:  # nothing to learn from: the kind is never (or always) there
                out.update({(r["id"], kind): float(y[0]) if y else 0.0 for r in test})
                continue
            model = LogisticRegression(C=C, max_iter=2000, class_weight="balanced").fit(x_train, y)
            out.update({(r["id"], kind): float(p) for r, p in zip(test, model.predict_proba(x_test)[:, 1])})
    return out


def combined(rules: Sequence[cg.Key], probability: Mapping[str, float], variant: str,
             threshold: float) -> list[cg.Key]:
    """One message's keys under ``variant`` (module docstring), from the rules' keys and the kinds' probabilities.

    >>> rules = [("meet", (), (), "Tyrolia", None)]
    >>> combined(rules, {"accept": 0.9, "support": 0.1, "no_attack": 0.0}, "union", 0.5)
    [('meet', (), (), 'Tyrolia', None), ('accept', (), (), None, None)]
    >>> combined([("support", (), (), None, None)], {"accept": 0.0, "support": 0.2, "no_attack": 0.0}, "replace", 0.5)
    []
    """
    keys = list(rules)
    if variant == "rules":
        return keys
    for kind in KINDS:
        found = probability[kind] >= threshold
        if variant == "replace":
            keys = [k for k in keys if k[0] != kind] + ([(kind, (), (), None, None)] if found else [])
        elif variant == "union":
            if found and not any(k[0] == kind for k in keys):
                keys.append((kind, (), (), None, None))
        else:
            raise ValueError(f"unknown variant {variant!r}")
    return keys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=Path, nargs="+", help="rebuilt rows (with text) of Diplomacy tune splits")
    parser.add_argument("--C", type=float, default=4.0, help="the logistic regressions' inverse regularisation")
    parser.add_argument("--threshold", type=float, default=0.5, help="the probability a kind is read at")
    args = parser.parse_args(argv)
    rows = tune_rows(args.rows)
    games = sorted({game_of(r) for r in rows})
    rules = cg.predictions(rows, cg.heuristic)
    probabilities = held_out_probabilities(rows, args.C)
    print(f"{len(rows)} tune rows of {len(games)} games ({', '.join(games)}); each game predicted by models trained "
          f"on the others (split: tune; the rules were written from some of these games)")
    for variant in VARIANTS:
        predicted = {r["id"]: combined(rules[r["id"]], {k: probabilities[r["id"], k] for k in KINDS}, variant,
                                       args.threshold) for r in rows}
        pooled = cg.score(rows, predicted)
        per_game = []
        for game in games:
            t = cg.score([r for r in rows if game_of(r) == game], predicted).strict
            per_game.append(f"{game} {t.tp}/{t.tp + t.fp}/{t.tp + t.fn}")
        print(f"  {variant:8s} strict {pooled.strict.precision.text} / {pooled.strict.recall.text}"
              f"  (found {pooled.strict.tp}, false {pooled.strict.fp}, missed {pooled.strict.fn})")
        print(f"           per game found/predicted/labelled: {'  '.join(per_game)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
