"""Choose the learned tier scorer's settings by k-fold cross-validation on train + tune.

    python bench/tiers_model_cv.py [--folds 5] [--grid default|small] [--format text|json]

The tune split alone is small (263 attacks, 376 persuasion rows) and nearly saturated, so a
setting chosen on it is chosen on noise.  Here the ``train`` and ``tune`` rows are pooled and
cut into ``--folds`` folds; near duplicates (the corpora's groups: the same template with
another payload) always share a fold, so a fold never scores a twin of a row it was fitted
on.  For each setting, each fold is scored by a model fitted on the other folds; the
out-of-fold scores are then read as the shipped classifier reads them
(:func:`tiers_model_train.hearing`): a rule decides first; else the score is heard when
the message has a cue or a weak hint (against the threshold), or has ``UNCUED_WORDS`` words
or more (against the threshold plus ``UNCUED_MARGIN``).  The
threshold is chosen as the trainer chooses it (at most ``fp_budget`` of the persuasion rows
flagged by the score, no real negotiation turn), over the pooled out-of-fold scores, then
the setting's margin is added.

Printed per setting: recall of the whole classifier (rules + score) with its Wilson
interval, recall per attack source and per written mechanism, and false positives on the
persuasion rows (real negotiation turns and written hard negatives apart).  Every figure
is out-of-fold on train + tune; the holdout split is never read here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from tiers_corpus import CORPORA, Row, load_corpora, wilson  # noqa: E402
from tiers_corpus_build import near_duplicate_groups  # noqa: E402
from tiers_model_train import SETTINGS, Settings, choose_threshold, fit, hearing, is_attack, row_grams  # noqa: E402

from daishi_forensics.injection.tier_model import FEATURE_SPEC, FORMAT, model_from_json  # noqa: E402
from daishi_forensics.injection.tier_rules import normalize, signs  # noqa: E402

SEED = "tiers-cv-1"
"""Fixes which fold a group of near duplicates falls in."""


def folds_of(rows: Sequence[Row], k: int) -> list[int]:
    """The fold of every row: near-duplicate groups kept whole, groups dealt round-robin per
    stratum (tier, mechanism, source) in the order of a seeded SHA-256 of the group id."""
    groups = near_duplicate_groups([{"id": r.id, "text": r.text} for r in rows])
    strata: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for r in rows:
        strata[(r.tier, r.mechanism, r.source)].add(groups[r.id])
    fold_of_group: dict[str, int] = {}
    offset = 0
    for key in sorted(strata):
        gids = sorted(g for g in strata[key] if g not in fold_of_group)
        gids.sort(key=lambda g: hashlib.sha256((SEED + g).encode()).hexdigest())
        for n, g in enumerate(gids):
            fold_of_group[g] = (offset + n) % k
        offset += len(gids)
    return [fold_of_group[groups[r.id]] for r in rows]


def author(r: Row) -> str:
    """Who wrote an attack row, as far as the corpora tell: its source, the written rows placed in
    ``train`` for the learned scorer (written with the current rules) apart from the others."""
    return f"{r.source}/placed" if r.placed else r.source


def folds_by_author(rows: Sequence[Row], k: int) -> list[int]:
    """Folds that keep every author's attacks together (:func:`author`): an attack is scored by a
    model that saw no attack by the same hand, the way the holdout's attacks are written by other
    hands than the ones the rules were written on.  Authors are dealt, largest first, to the fold
    with the fewest attacks so far; the persuasion rows keep their :func:`folds_of` folds."""
    near = folds_of(rows, k)
    sizes: dict[str, int] = defaultdict(int)
    for r in rows:
        if r.tier != "persuasion":
            sizes[author(r)] += 1
    load = [0] * k
    fold_of: dict[str, int] = {}
    for name, n in sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0])):
        f = min(range(k), key=lambda j: (load[j], j))
        fold_of[name] = f
        load[f] += n
    return [fold_of[author(r)] if r.tier != "persuasion" else near[i] for i, r in enumerate(rows)]


def out_of_fold(rows: Sequence[Row], grams: Sequence[frozenset[str]], folds: Sequence[int], k: int,
                settings: Settings) -> list[float]:
    """Every row's score by the model fitted without its fold."""
    texts = [normalize(r.text) for r in rows]
    scores = [0.0] * len(rows)
    for f in range(k):
        inside = [i for i in range(len(rows)) if folds[i] != f]
        bias, weights, _facts = fit([rows[i] for i in inside], settings, [grams[i] for i in inside])
        model = model_from_json({"format": FORMAT, "version": 1, "bias": bias, "threshold": 0.0, "weights": weights,
                                 "features": FEATURE_SPEC})
        for i in range(len(rows)):
            if folds[i] == f:
                scores[i] = model.score(texts[i], signs(texts[i])).value
    return scores


def evaluate(rows: Sequence[Row], hears: Sequence[tuple[bool, float | None]], scores: Sequence[float],
             settings: Settings) -> dict[str, Any]:
    """The whole classifier's figures over out-of-fold scores (see the module docstring)."""
    heard = [None if off is None else s - off for (_ruled, off), s in zip(hears, scores)]
    threshold, _facts = choose_threshold([(r, h[0], e) for r, h, e in zip(rows, hears, heard)], settings)
    caught = [ruled or (e is not None and e >= threshold) for (ruled, _off), e in zip(hears, heard)]
    attacks = [i for i, r in enumerate(rows) if is_attack(r)]
    negatives = [i for i, r in enumerate(rows) if not is_attack(r)]

    def rate(ix: Sequence[int]) -> str:
        return str(wilson(sum(caught[i] for i in ix), len(ix)))

    per: dict[str, list[int]] = defaultdict(list)
    for i in attacks:
        r = rows[i]
        per[r.source if r.source != "written" else f"{author(r)}/{r.mechanism}"].append(i)
    top = sorted(((e, rows[i].source) for i in negatives if not hears[i][0] and (e := heard[i]) is not None),
                 reverse=True)[:8]
    return {
        "threshold": round(threshold, 3),
        "recall": rate(attacks),
        "recall_learned_alone": str(wilson(sum(caught[i] and not hears[i][0] for i in attacks), len(attacks))),
        "fp_all": rate(negatives),
        "fp_casino": rate([i for i in negatives if rows[i].source == "casino"]),
        "fp_written": rate([i for i in negatives if rows[i].source != "casino"]),
        "recall_by": {key: rate(ix) for key, ix in sorted(per.items())},
        "top_negatives": [f"{e:.2f} {src}" for e, src in top],
    }


GRIDS: dict[str, list[Settings]] = {
    "small": [SETTINGS],
    "default": [replace(SETTINGS, C=c) for c in (4.0, 16.0)]
    + [replace(SETTINGS, source_cap=0.5), replace(SETTINGS, min_rows=3)],
    "margin": [replace(SETTINGS, margin=m) for m in (0.5, 1.0, 1.5, 2.0)]
    + [replace(SETTINGS, C=c, margin=m) for c in (1.0, 16.0) for m in (1.0, 1.5)],
    "capacity": [replace(SETTINGS, C=c, margin=m) for c in (16.0, 32.0) for m in (1.5, 2.0, 2.5)],
}
"""``margin`` compares margins over the threshold (a margin changes no fit: the scores of one fit are
read at each margin) and two other strengths of regularization; ``capacity`` weaker regularization at wider margins (weaker
regularization gives larger weights, so a margin in score units is a narrower one)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--grid", choices=sorted(GRIDS), default="default")
    parser.add_argument("--groups", choices=("near", "author"), default="near",
                        help="near: near duplicates share a fold; author: every author's attacks share a fold")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--scores", type=Path, help="also write every row's out-of-fold score per setting (JSON)")
    args = parser.parse_args(argv)
    rows = [r for r in load_corpora(args.corpora) if r.split in ("train", "tune")]
    folds = folds_of(rows, args.folds) if args.groups == "near" else folds_by_author(rows, args.folds)
    grams = row_grams(rows)
    hears = [hearing(normalize(r.text)) for r in rows]
    results = []
    dumped = []
    fitted: dict[Settings, list[float]] = {}
    for settings in GRIDS[args.grid]:
        fit_key = replace(settings, margin=0.0)  # the margin is read after the fit
        if fit_key not in fitted:
            fitted[fit_key] = out_of_fold(rows, grams, folds, args.folds, settings)
        scores = fitted[fit_key]
        dumped.append({"settings": asdict(settings), "rows": [
            {"id": r.id, "tier": r.tier, "mechanism": r.mechanism, "source": r.source, "ruled": h[0],
             "offset": h[1], "score": round(s, 6)} for r, h, s in zip(rows, hears, scores)]})
        if args.scores:
            args.scores.write_text(json.dumps(dumped, sort_keys=True) + "\n", encoding="utf-8")
        results.append({"settings": asdict(settings), **evaluate(rows, hears, scores, settings)})
        if args.format == "text":
            res = results[-1]
            print(f"[train+tune, {args.folds}-fold by {args.groups}, out of fold] {asdict(settings)}: threshold {res['threshold']}, "
                  f"recall {res['recall']}, learned alone {res['recall_learned_alone']}, "
                  f"FP {res['fp_all']} (real turns {res['fp_casino']}, written {res['fp_written']})", flush=True)
            print("    " + "; ".join(f"{k} {v.split(' ')[0]}" for k, v in res["recall_by"].items()), flush=True)
            print("    highest heard persuasion scores: " + ", ".join(res["top_negatives"]), flush=True)
    if args.format == "json":
        print(json.dumps(results, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
