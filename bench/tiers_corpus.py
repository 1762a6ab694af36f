"""Score a tier classifier on the labelled tier corpora (``tests/fixtures/tiers/*.jsonl``).

    python bench/tiers_corpus.py [--classifier MODULE:FUNCTION] [--no-model] [--split train,tune]
                                 [--holdout] [--errors N] [--counts] [--format text|json]

The classifier is any callable with the interface of ``daishi_forensics.injection.tiers.classify``:
it takes a message's text and returns an object whose ``tier`` is ``persuasion``, ``hijack``
or ``protocol`` (seed 002 §2.7).  For each split it prints

- recall on the attacks (gold ``hijack`` or ``protocol``; caught = any tier but persuasion),
  and exact tier agreement;
- the false-positive rate on the persuasion rows (anything but persuasion is a false
  positive), for the real negotiation turns and the written hard negatives apart;
- each with its 95% Wilson interval, per mechanism and per source, plus the confusion of
  gold mechanism against predicted tier;
- the same figures restricted to the rows the current rules were not written against
  (rows not marked ``seen``);
- which rule decided, for the attacks caught and for the persuasion rows flagged (counts
  only; ``learned-score`` when the learned model decided).

``--no-model`` passes ``model=False`` to the classifier (the shipped one: rules only);
``--also-no-model`` reports both, in one run (the rules-only figures labelled ``SPLIT/rules``).

Holdout figures are printed only with ``--holdout``, and ``--errors`` (the misclassified
texts) never shows holdout rows: holdout is read to report, never to write rules or choose
thresholds (see the corpora's README).  Every figure says which split it came from.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

CORPORA = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "tiers"
TIERS = ("persuasion", "hijack", "protocol")
ATTACK_TIERS = ("hijack", "protocol")
SPLITS = ("train", "tune", "holdout")
FIELDS = ("id", "text", "tier", "mechanism", "source", "license", "split")
OPTIONAL = ("origin", "seen", "placed")
Z95 = 1.959963984540054


class CorpusError(ValueError):
    """A corpus line that is not a legal row: names the file, line and field."""


@dataclass(frozen=True, slots=True)
class Row:
    """One labelled message."""

    id: str
    text: str
    tier: str
    """Gold tier: persuasion, hijack or protocol."""
    mechanism: str
    source: str
    license: str
    split: str
    seen: bool = False
    """The row is in the development corpus the current rules were written against."""
    placed: bool = False
    """A written row placed in ``train`` when it was written (training text for the learned scorer)."""


@dataclass(frozen=True, slots=True)
class Rate:
    """``k`` of ``n``, with its 95% Wilson interval."""

    k: int
    n: int
    low: float
    high: float

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else math.nan

    def __str__(self) -> str:
        if not self.n:
            return "n/a (0 rows)"
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}] ({self.k}/{self.n})"


def wilson(k: int, n: int, z: float = Z95) -> Rate:
    """The Wilson score interval of ``k`` successes in ``n`` trials.

    >>> r = wilson(0, 10); (round(r.low, 4), round(r.high, 4))
    (0.0, 0.2775)
    >>> r = wilson(5, 10); (round(r.low, 4), round(r.high, 4))
    (0.2366, 0.7634)
    """
    if n == 0:
        return Rate(0, 0, math.nan, math.nan)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Rate(k, n, max(0.0, centre - half), min(1.0, centre + half))


# --------------------------------------------------------------------------- reading


def parse_row(obj: Any, where: str) -> Row:
    """A corpus row from one decoded JSON line; ``where`` is ``file:line`` for errors."""
    if not isinstance(obj, dict):
        raise CorpusError(f"{where}: not a JSON object")
    for key in FIELDS:
        if not isinstance(obj.get(key), str) or not obj[key]:
            raise CorpusError(f"{where}: field {key!r} missing or not a non-empty string")
    extra = set(obj) - set(FIELDS) - set(OPTIONAL)
    if extra:
        raise CorpusError(f"{where}: unknown field(s) {sorted(extra)}")
    if obj["tier"] not in TIERS:
        raise CorpusError(f"{where} (id {obj['id']}): field 'tier' is {obj['tier']!r}, not one of {TIERS}")
    if obj["split"] not in SPLITS:
        raise CorpusError(f"{where} (id {obj['id']}): field 'split' is {obj['split']!r}, not one of {SPLITS}")
    for flag in ("seen", "placed"):
        if flag in obj and obj[flag] is not True:
            raise CorpusError(f"{where} (id {obj['id']}): field {flag!r} must be true when present")
    return Row(obj["id"], obj["text"], obj["tier"], obj["mechanism"], obj["source"], obj["license"],
               obj["split"], bool(obj.get("seen")), bool(obj.get("placed")))


def load_corpora(folder: Path = CORPORA) -> list[Row]:
    """Every row of every ``*.jsonl`` in ``folder``, in file then line order; ids must be unique."""
    rows: list[Row] = []
    where_of: dict[str, str] = {}
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise CorpusError(f"{folder}: no *.jsonl corpus files")
    for path in files:
        with path.open(encoding="utf-8", newline="\n") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                where = f"{path.name}:{number}"
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise CorpusError(f"{where}: not JSON ({exc.msg})") from exc
                r = parse_row(obj, where)
                if r.id in where_of:
                    raise CorpusError(f"{where}: field 'id' {r.id!r} already used at {where_of[r.id]}")
                where_of[r.id] = where
                rows.append(r)
    return rows


def load_classifier(spec: str) -> Callable[[str], Any]:
    """``module:function`` to the callable."""
    module, _, name = spec.partition(":")
    if not name:
        raise SystemExit(f"--classifier {spec!r}: expected MODULE:FUNCTION")
    return getattr(importlib.import_module(module), name)


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True, slots=True)
class Scored:
    row: Row
    predicted: str
    rule: str | None = None
    """The deciding rule, when the classifier says (its verdict's ``rule``)."""


def score(rows: Iterable[Row], classify: Callable[[str], Any]) -> list[Scored]:
    """Each row with the tier the classifier gives its text."""
    out = []
    for r in rows:
        verdict = classify(r.text)
        tier = verdict.tier
        if tier not in TIERS:
            raise ValueError(f"classifier returned tier {tier!r} for row {r.id}")
        out.append(Scored(r, tier, getattr(verdict, "rule", None)))
    return out


def deciding_rules(scored: Sequence[Scored]) -> dict[str, dict[str, int]]:
    """``{"attacks": {rule: n}, "false_positives": {rule: n}}``: which rule flagged what (a weak
    pair ``a+b`` is counted under its name; ``?`` when the classifier names none)."""
    attacks: Counter[str] = Counter()
    false: Counter[str] = Counter()
    for s in scored:
        if s.predicted == "persuasion":
            continue
        (attacks if is_attack(s.row) else false)[s.rule or "?"] += 1
    return {"attacks": dict(sorted(attacks.items())), "false_positives": dict(sorted(false.items()))}


def is_attack(r: Row) -> bool:
    return r.tier in ATTACK_TIERS


def recall(scored: Sequence[Scored]) -> Rate:
    """Attacks flagged with any tier but persuasion."""
    attacks = [s for s in scored if is_attack(s.row)]
    return wilson(sum(s.predicted != "persuasion" for s in attacks), len(attacks))


def exact(scored: Sequence[Scored]) -> Rate:
    """Attacks given exactly their gold tier."""
    attacks = [s for s in scored if is_attack(s.row)]
    return wilson(sum(s.predicted == s.row.tier for s in attacks), len(attacks))


def false_positive(scored: Sequence[Scored]) -> Rate:
    """Persuasion rows flagged hijack or protocol."""
    negatives = [s for s in scored if not is_attack(s.row)]
    return wilson(sum(s.predicted != "persuasion" for s in negatives), len(negatives))


def grouped(scored: Sequence[Scored], key: Callable[[Row], str]) -> dict[str, list[Scored]]:
    groups: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        groups[key(s.row)].append(s)
    return dict(sorted(groups.items()))


def confusion(scored: Sequence[Scored]) -> dict[str, dict[str, int]]:
    """Gold ``tier/mechanism`` against predicted tier, counts."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for s in scored:
        table[f"{s.row.tier}/{s.row.mechanism}"][s.predicted] += 1
    return {k: {t: v[t] for t in TIERS} for k, v in sorted(table.items())}


@dataclass(frozen=True, slots=True)
class SplitReport:
    """Every figure of one split (or one union of splits)."""

    split: str
    attacks: int
    negatives: int
    recall: Rate
    exact: Rate
    fp: Rate
    fp_real: Rate
    """On the real negotiation turns (source ``casino``)."""
    fp_written: Rate
    """On the written hard negatives."""
    recall_unseen: Rate
    fp_unseen: Rate
    recall_by_mechanism: dict[str, Rate]
    exact_by_mechanism: dict[str, Rate]
    fp_by_mechanism: dict[str, Rate]
    recall_by_source: dict[str, Rate]
    fp_by_source: dict[str, Rate]
    confusion: dict[str, dict[str, int]]
    deciding: dict[str, dict[str, int]]


def report_split(split: str, scored: Sequence[Scored]) -> SplitReport:
    attacks = [s for s in scored if is_attack(s.row)]
    negatives = [s for s in scored if not is_attack(s.row)]
    unseen = [s for s in scored if not s.row.seen]
    return SplitReport(
        split=split,
        attacks=len(attacks),
        negatives=len(negatives),
        recall=recall(scored),
        exact=exact(scored),
        fp=false_positive(scored),
        fp_real=false_positive([s for s in negatives if s.row.source == "casino"]),
        fp_written=false_positive([s for s in negatives if s.row.source == "written"]),
        recall_unseen=recall(unseen),
        fp_unseen=false_positive(unseen),
        recall_by_mechanism={k: recall(v) for k, v in grouped(attacks, lambda r: r.mechanism).items()},
        exact_by_mechanism={k: exact(v) for k, v in grouped(attacks, lambda r: r.mechanism).items()},
        fp_by_mechanism={k: false_positive(v) for k, v in grouped(negatives, lambda r: r.mechanism).items()},
        recall_by_source={k: recall(v) for k, v in grouped(attacks, lambda r: r.source).items()},
        fp_by_source={k: false_positive(v) for k, v in grouped(negatives, lambda r: r.source).items()},
        confusion=confusion(scored),
        deciding=deciding_rules(scored),
    )


def counts_table(rows: Sequence[Row]) -> list[tuple[str, str, str, str, int, int, int]]:
    """(tier, mechanism, source, license, train, tune, holdout) per stratum."""
    table: dict[tuple[str, str, str, str], Counter[str]] = defaultdict(Counter)
    for r in rows:
        table[(r.tier, r.mechanism, r.source, r.license)][r.split] += 1
    return [(*k, v["train"], v["tune"], v["holdout"]) for k, v in sorted(table.items())]


# --------------------------------------------------------------------------- printing


def print_report(rep: SplitReport) -> None:
    s = rep.split
    print(f"\n== split {s}: {rep.attacks} attacks, {rep.negatives} persuasion rows")
    print(f"  [{s}] recall (hijack or protocol caught)  {rep.recall}")
    print(f"  [{s}] exact tier agreement on attacks     {rep.exact}")
    print(f"  [{s}] false-positive rate, all persuasion {rep.fp}")
    print(f"  [{s}]   on real negotiation (casino)      {rep.fp_real}")
    print(f"  [{s}]   on written hard negatives         {rep.fp_written}")
    print(f"  [{s}] rows the current rules never saw: recall {rep.recall_unseen}, false positives {rep.fp_unseen}")
    print(f"  [{s}] recall by mechanism (exact tier alongside):")
    for k, r in rep.recall_by_mechanism.items():
        print(f"      {k:24s} {str(r):40s} exact {rep.exact_by_mechanism[k].value:.3f}")
    print(f"  [{s}] recall by source:")
    for k, r in rep.recall_by_source.items():
        print(f"      {k:28s} {r}")
    print(f"  [{s}] false-positive rate by mechanism:")
    for k, r in rep.fp_by_mechanism.items():
        print(f"      {k:24s} {r}")
    print(f"  [{s}] confusion, gold tier/mechanism -> predicted (persuasion / hijack / protocol):")
    for k, v in rep.confusion.items():
        print(f"      {k:36s} {v['persuasion']:5d} {v['hijack']:5d} {v['protocol']:5d}")
    for kind, title in (("attacks", "attacks caught"), ("false_positives", "persuasion rows flagged")):
        counts = rep.deciding[kind]
        shown = ", ".join(f"{rule} {n}" for rule, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
        print(f"  [{s}] deciding rule, {title}: {shown or 'none'}")


def print_errors(split: str, scored: Sequence[Scored], n: int) -> None:
    missed = [s for s in scored if is_attack(s.row) and s.predicted == "persuasion"]
    flagged = [s for s in scored if not is_attack(s.row) and s.predicted != "persuasion"]
    for title, items in (("missed attacks", missed), ("false positives", flagged)):
        print(f"\n  [{split}] {title} ({len(items)}; first {min(n, len(items))}):")
        for s in items[:n]:
            text = " ".join(s.row.text.split())
            print(f"      {s.row.id} ({s.row.mechanism}, predicted {s.predicted}): {text[:140]}")


def to_json(rep: SplitReport) -> dict[str, Any]:
    def rate(r: Rate) -> dict[str, Any]:
        return {**asdict(r), "value": None if math.isnan(r.value) else r.value}

    out: dict[str, Any] = {}
    for key, value in asdict(rep).items():
        if isinstance(value, dict) and "k" in value:
            out[key] = rate(getattr(rep, key))
        elif key.endswith(("_by_mechanism", "_by_source")):
            out[key] = {k: rate(v) for k, v in getattr(rep, key).items()}
        else:
            out[key] = value
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classifier", default="daishi_forensics.injection.tiers:classify",
                        help="MODULE:FUNCTION taking a text, returning an object with .tier")
    parser.add_argument("--no-model", action="store_true",
                        help="call the classifier with model=False (the shipped one: rules only)")
    parser.add_argument("--also-no-model", action="store_true",
                        help="report the classifier with and without model=False in this one run")
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--split", default="train,tune",
                        help="comma-separated splits to report, each alone (default train,tune)")
    parser.add_argument("--holdout", action="store_true",
                        help="also report the holdout split (to report only, never to tune)")
    parser.add_argument("--errors", type=int, default=0, metavar="N",
                        help="print up to N misclassified texts per kind (never for holdout)")
    parser.add_argument("--counts", action="store_true", help="print rows per stratum and split, then stop")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)

    try:
        rows = load_corpora(args.corpora)
    except CorpusError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.counts:
        print("| tier | mechanism | source | license | train | tune | holdout |")
        print("| --- | --- | --- | --- | ---: | ---: | ---: |")
        for t, m, s, lic, a, b, c in counts_table(rows):
            print(f"| {t} | {m} | {s} | {lic} | {a} | {b} | {c} |")
        return 0
    splits = [s for s in args.split.split(",") if s]
    if "holdout" in splits and not args.holdout:
        print("error: the holdout split is reported only with --holdout", file=sys.stderr)
        return 2
    for s in splits:
        if s not in SPLITS:
            print(f"error: --split {s!r} is not one of {SPLITS}", file=sys.stderr)
            return 2
    if args.holdout and "holdout" not in splits:
        splits.append("holdout")
    classify = load_classifier(args.classifier)
    if args.no_model:
        classify = functools.partial(classify, model=False)
    started = time.perf_counter()
    scored = score([r for r in rows if r.split in splits], classify)
    elapsed = time.perf_counter() - started
    reports = [report_split(s, [x for x in scored if x.row.split == s]) for s in splits]
    if args.also_no_model and not args.no_model:
        rules_only = functools.partial(load_classifier(args.classifier), model=False)
        plain = score([r for r in rows if r.split in splits], rules_only)
        reports += [report_split(f"{s}/rules", [x for x in plain if x.row.split == s]) for s in splits]
    if args.format == "json":
        print(json.dumps({"classifier": args.classifier, "model": not args.no_model,
                          "reports": [to_json(r) for r in reports]}, indent=1))
        return 0
    print(f"classifier {args.classifier}{' (model=False)' if args.no_model else ''} on {len(scored)} rows of "
          f"{args.corpora.name}/ "
          f"(splits {', '.join(splits)}): {len(scored) / max(elapsed, 1e-9):,.0f} messages/s")
    for rep in reports:
        print_report(rep)
        if args.errors and rep.split in splits and rep.split != "holdout":
            print_errors(rep.split, [x for x in scored if x.row.split == rep.split], args.errors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
