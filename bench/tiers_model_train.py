"""Refit the learned tier scorer from the tier corpora (``tests/fixtures/tiers``), deterministically.

    python bench/tiers_model_train.py [--out FILE] [--check]

What it does (the evaluation design's injection tiers; the corpora's README says which
split is for what):

1. reads every row and keeps the ``train`` split only for fitting;
2. turns each text into the distinct n-grams of
   :func:`daishi_forensics.injection.tier_model.features` (over the normalized text the
   rules read), keeps the n-grams seen in at least ``Settings.min_rows`` train rows, and
   weighs each present n-gram 1/sqrt(the text's number of distinct n-grams);
3. fits an L2-regularized logistic regression (scikit-learn, liblinear, fixed seed):
   attacks (``hijack`` or ``protocol``) against persuasion, the two classes given equal
   total weight, and no source more than ``Settings.source_cap`` of the attack weight (the
   in-the-wild jailbreak collection is half the attacks and would otherwise teach the
   model its topics);
4. keeps the ``Settings.keep`` n-grams of largest weight (the rest weigh almost nothing);
5. chooses the threshold on the ``tune`` split: the lowest score at which the persuasion
   rows the classifier would flag by the score (those no rule decides and the score is
   heard on: a cue or a weak hint, or a long text against the threshold plus its margin)
   are at most ``Settings.fp_budget`` of the tune split's written lookalikes, and none of
   its real negotiation turns; then adds
   ``Settings.margin`` (text from other games sits further from the training data than the
   tune rows do);
6. writes the JSON the tool ships (sorted keys, weights rounded to 6 decimals): the same
   corpora give the same bytes.  ``--check`` compares with the file instead of writing.

The holdout split is never read here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from tiers_corpus import CORPORA, Row, load_corpora  # noqa: E402

from daishi_forensics.injection.tier_model import (  # noqa: E402
    FEATURE_SPEC,
    FORMAT,
    MODEL_FILE,
    features,
    model_from_json,
)
from daishi_forensics.injection import tiers  # noqa: E402
from daishi_forensics.injection.tier_rules import Text, cues, judge, normalize, signs  # noqa: E402

@dataclass(frozen=True)
class Settings:
    """What a fit is told: every knob of the learned scorer in one record."""

    min_rows: int = 2
    """An n-gram must occur in this many train rows to be a feature."""
    C: float = 4.0
    """Inverse regularization strength of the logistic regression."""
    source_cap: float = 0.25
    """No source carries more than this share of the attack class's weight."""
    keep: int = 6000
    """N-grams kept in the shipped model (largest absolute weight)."""
    fp_budget: float = 0.01
    """Share of the tune persuasion rows the learned score may flag."""
    margin: float = 1.5
    """Added to the threshold found on tune: the tune split holds only 75 written lookalikes, and
    short game talk of passwords, roles and replies from other games sits further from the
    training data than they do (a threshold just over them flags such talk).  Chosen out of fold
    (``bench/tiers_model_cv.py --grid margin``): with the 708 placed train rows the threshold found
    on tune alone sits 0.35 under the one found over all out-of-fold persuasion scores of train +
    tune, so 1.0 on tune is only 0.65 over the pooled one; 1.5 costs 0.9 points of out-of-fold
    recall (0.961 -> 0.952) at the same false positives, and keeps every written lookalike of the
    tests over 0.15 under the threshold."""


SETTINGS = Settings()
"""The settings of the shipped model.  ``bench/tiers_model_cv.py --grid margin`` compared C = 1, 4 and 16
out of fold on train + tune (at margins 1.0 and 1.5: 0.944 / 0.922, 0.961 / 0.952, 0.971 / 0.964, each
at 2 of 1,660 persuasion rows flagged, both by rules).  16 was best out of fold, but fitted on the whole
train split it scores the tests' hand-written in-game lookalikes ("Stay in character, the play starts
in five minutes!") 0.3 over its threshold: weaker regularization learns the written rows' phrasing,
which other games' chat does not share.  So 4 is kept.  Measured again with the skeleton and sign
features and 204 more written rows (``--grid capacity`` and ``--grid margin``, folds by author): C = 16
catches more out of fold (0.922 against 0.902 at margin 1.5, the same 2 of 1,690 persuasion rows
flagged), and margin 1.0 at C = 4 too (0.920), but fitted on the train split each flags written game
lookalikes of the tests ("Stay in character, the play starts in five minutes!", "In this game you play
the character of a merchant who trades wheat.") -- so C = 4 and margin 1.5 stay, and the margin is
relieved for long messages only (``tiers.LONG_RELIEF``)."""
PLACES = 6
"""Decimals kept of each weight."""


def is_attack(r: Row) -> bool:
    return r.tier != "persuasion"


def sample_weights(rows: Sequence[Row], source_cap: float = SETTINGS.source_cap) -> list[float]:
    """Equal total weight per class; within the attacks, no source over ``source_cap``."""
    attacks = [r for r in rows if is_attack(r)]
    negatives = len(rows) - len(attacks)
    per_source = Counter(r.source for r in attacks)
    cap = source_cap * len(attacks)
    raw = {s: (min(1.0, cap / n)) for s, n in per_source.items()}
    attack_total = sum(raw[r.source] for r in attacks)
    a_scale = (len(rows) / 2) / attack_total
    n_scale = (len(rows) / 2) / negatives
    return [raw[r.source] * a_scale if is_attack(r) else n_scale for r in rows]


def row_grams(rows: Sequence[Row]) -> list[frozenset[str]]:
    """The n-grams of each row's normalized text (what the model reads)."""
    out = []
    for r in rows:
        text = normalize(r.text)
        out.append(features(text.folded, signs(text)))
    return out


def fit(rows: Sequence[Row], settings: Settings = SETTINGS,
        grams: Sequence[frozenset[str]] | None = None) -> tuple[float, dict[str, float], dict[str, Any]]:
    """``(bias, weights, facts)`` of the model fitted on ``rows`` (``grams``: their n-grams, when
    already computed)."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    if grams is None:
        grams = row_grams(rows)
    df = Counter(g for gs in grams for g in gs)
    vocab = sorted(g for g, n in df.items() if n >= settings.min_rows)
    index = {g: k for k, g in enumerate(vocab)}
    data: list[float] = []
    cols: list[int] = []
    ptr = [0]
    for gs in grams:
        scale = 1.0 / math.sqrt(len(gs)) if gs else 0.0
        present = sorted(index[g] for g in gs if g in index)
        cols.extend(present)
        data.extend([scale] * len(present))
        ptr.append(len(cols))
    x = csr_matrix((np.array(data), np.array(cols, dtype=np.int64), np.array(ptr, dtype=np.int64)),
                   shape=(len(rows), len(vocab)))
    y = np.array([1 if is_attack(r) else 0 for r in rows])
    model = LogisticRegression(C=settings.C, solver="liblinear", random_state=0, max_iter=1000, tol=1e-6)
    model.fit(x, y, sample_weight=np.array(sample_weights(rows, settings.source_cap)))
    coef = model.coef_[0]
    order = sorted(range(len(vocab)), key=lambda k: (-abs(coef[k]), vocab[k]))[:settings.keep]
    weights = {vocab[k]: round(float(coef[k]), PLACES) for k in order if round(float(coef[k]), PLACES) != 0.0}
    facts = {"vocabulary": len(vocab), "kept": len(weights)}
    return round(float(model.intercept_[0]), PLACES), weights, facts


def hearing(text: Text) -> tuple[bool, float | None]:
    """``(ruled, offset)`` of a normalized text, as :func:`daishi_forensics.injection.tiers.classify`
    treats it: ``ruled`` when a rule decides (the score is never read); else ``offset`` is what the
    score must exceed the threshold by to flag it -- 0 with a cue or a weak hint,
    ``UNCUED_MARGIN`` for a long text without one, less ``LONG_RELIEF`` for a text of ``LONG_WORDS``
    words or more; None for a short text without one (never scored)."""
    verdict = judge(text)
    if verdict.rule is not None:
        return True, None
    words = len(text.folded.split())
    relief = tiers.LONG_RELIEF if words >= tiers.LONG_WORDS else 0.0
    if verdict.matched or cues(text):
        return False, 0.0 - relief
    if words >= tiers.UNCUED_WORDS:
        return False, tiers.UNCUED_MARGIN - relief
    return False, None


def choose_threshold(scored: Sequence[tuple[Row, bool, float | None]],
                     settings: Settings = SETTINGS) -> tuple[float, dict[str, Any]]:
    """The threshold from the tune rows: ``(row, flagged by the rules, heard score)``, the heard
    score being the learned score less the row's :func:`hearing` offset (None: never scored).

    The lowest candidate (a heard score of a tune row) at which the persuasion rows the
    classifier would flag by the score include no real negotiation turn and at most
    ``Settings.fp_budget`` of the written lookalikes (in-game talk of rules, passwords, roles
    and orders, the nearest thing to other games' chat); then ``settings.margin`` above it.
    The budget is counted on the lookalikes alone: counted on all persuasion rows, the many
    easy real turns would let the score flag several percent of the lookalikes.
    """
    negatives = [(r, ruled, s) for r, ruled, s in scored if not is_attack(r)]
    lookalikes = sum(r.source != "casino" for r, _ruled, _s in negatives)
    budget = math.floor(settings.fp_budget * lookalikes)
    open_negatives = sorted((s, r.source) for r, ruled, s in negatives if not ruled and s is not None)
    # walking down from the top: the k-th highest open negative score is a threshold that flags k-1
    threshold = open_negatives[-1][0] + 1e-6 if open_negatives else 0.0
    flagged = 0
    for s, source in reversed(open_negatives):
        if source == "casino" or flagged + 1 > budget:
            break
        flagged += 1
        threshold = s
    threshold = round(threshold + settings.margin, PLACES)
    facts = {"tune_persuasion_rows": len(negatives), "tune_lookalike_rows": lookalikes, "fp_budget_rows": budget,
             "margin": settings.margin, "threshold_before_margin": round(threshold - settings.margin, PLACES)}
    return threshold, facts


def corpus_digest(rows: Sequence[Row]) -> str:
    """SHA-256 of the train rows' ids, texts and labels (what the fit read)."""
    h = hashlib.sha256()
    for r in rows:
        h.update(json.dumps([r.id, r.text, r.tier], ensure_ascii=False).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


def build(folder: Path = CORPORA) -> str:
    """The model file's text, fitted on ``folder``'s train split and thresholded on its tune split."""
    rows = load_corpora(folder)
    train = [r for r in rows if r.split == "train"]
    tune = [r for r in rows if r.split == "tune"]
    bias, weights, fit_facts = fit(train)
    draft = model_from_json({"format": FORMAT, "version": 1, "bias": bias, "threshold": 0.0, "weights": weights,
                             "features": FEATURE_SPEC})
    scored = []
    for r in tune:
        text = normalize(r.text)
        ruled, offset = hearing(text)
        scored.append((r, ruled, None if offset is None else draft.score(text, signs(text)).value - offset))
    threshold, tune_facts = choose_threshold(scored)
    obj = {
        "format": FORMAT,
        "version": 1,
        "features": FEATURE_SPEC,
        "bias": bias,
        "threshold": threshold,
        "weights": weights,
        "meta": {
            "fitted_on": "tests/fixtures/tiers split train",
            "threshold_from": "tests/fixtures/tiers split tune",
            "train_rows": len(train),
            "train_attacks": sum(is_attack(r) for r in train),
            "train_digest": corpus_digest(train),
            "settings": {**asdict(SETTINGS), "solver": "liblinear", "seed": 0},
            **fit_facts,
            **tune_facts,
        },
    }
    return json.dumps(obj, sort_keys=True, ensure_ascii=True, indent=0) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    parser.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = parser.parse_args(argv)
    text = build(args.corpora)
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'same bytes' if same else 'DIFFERS from a refit'}")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    obj = json.loads(text)
    print(f"wrote {args.out} ({len(text):,} bytes): {obj['meta']['kept']} n-grams of {obj['meta']['vocabulary']}, "
          f"bias {obj['bias']}, threshold {obj['threshold']} (tune split; train split fitted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
