"""Precision and recall of the commitment extractor on the labelled set, measured in one run.

Usage::

    python bench/commitments.py [--fixture PATH] [--errors] [--stream EVENTS]

The labelled set (``tests/fixtures/commitments.jsonl``) holds one
``{"text": ..., "commitments": [...]}`` a line; each commitment is
``{"kind", "give"?, "receive"?, "region"?}`` following the labelling guide in
:mod:`daishi_forensics.profile.commitments` (a quantity the text does not give is ``null``).

Two scores, both micro-averaged over commitments (a message's predicted and
labelled commitments are matched as multisets):

* **strict**: a prediction counts only if kind *and* terms (give, receive, region)
  equal a labelled one;
* **kind**: kind alone.

Every precision and recall carries its 95% Wilson interval (the one
``bench/commitments_general.py`` prints).  Then per kind (strict), the confusion by
kind (labelled kind × predicted kind, ``none`` for a miss or an invention), message-level
accuracy (all of a message's commitments right, none extra); the lines are of one style
(Daishi's own chatter), so there is no per-style block.  Then and the time the extractor takes on hostile texts (a
megabyte of text, a long run of one character, nested brackets), to show the
text cap and the linear tokenizer hold.  With ``--stream EVENTS`` it also times the
extractor on every message text of a simulated match of that many events (the
behavior benchmark's stream; 1,000,000 for the figure the README quotes): texts
per second, each text read afresh (the promise pass's cache would read a repeated
text once), beside the tokenizer alone on the same texts as a floor, measured in
the same run.

The set is written by the same hands as the extractor.  Each line carries a
``split``: ``dev`` lines were written first and the rules were tuned on them (their
score is optimistic by construction); ``heldout`` lines were written after the
extractor was frozen at version 1 and never tuned on, so their score is the
estimate to quote (version 2's two extra rules came from simulator chatter, not
from these lines, and score the same on them; version 3 was written against the
general set's tune split and ``dev`` lines only -- ``--errors`` prints ``dev`` lines
only).  Neither is an independent annotator's.  The lines predate the ``stay_out``
and ``support`` kinds: a promise the newer guide reads as ``stay_out`` ("not going to
r_3_3") counts here as an invention.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from daishi_forensics.profile.commitments import KINDS, CommitmentExtractor, HeuristicExtractor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from commitments_general import NONE, confusion_pairs, wilson  # noqa: E402

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "commitments.jsonl"


def _key(c: dict[str, Any], strict: bool) -> tuple[Any, ...]:
    if not strict:
        return (c["kind"],)
    give = tuple(sorted((c.get("give") or {}).items()))
    receive = tuple(sorted((c.get("receive") or {}).items()))
    return (c["kind"], give, receive, c.get("region"))


def load(path: Path) -> list[dict[str, Any]]:
    """The labelled rows."""
    rows = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    return rows


def score(extractor: CommitmentExtractor, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts and ratios (strict, kind, per kind, per message) and the misses."""
    tallies = {"strict": Counter(), "kind": Counter()}
    per_kind: dict[str, Counter[str]] = {k: Counter() for k in KINDS}
    messages_right = 0
    errors = []
    confusion: Counter[tuple[str, str]] = Counter()
    for row in rows:
        predicted = [c.to_json() for c in extractor.extract(row["text"]).commitments]
        gold = row["commitments"]
        confusion.update(confusion_pairs([c["kind"] for c in gold], [c["kind"] for c in predicted]))
        for mode in ("strict", "kind"):
            strict = mode == "strict"
            want = Counter(_key(c, strict) for c in gold)
            got = Counter(_key(c, strict) for c in predicted)
            hit = want & got
            tallies[mode]["tp"] += sum(hit.values())
            tallies[mode]["fp"] += sum((got - want).values())
            tallies[mode]["fn"] += sum((want - got).values())
            if strict:
                for key, n in hit.items():
                    per_kind[key[0]]["tp"] += n
                for key, n in (got - want).items():
                    per_kind[key[0]]["fp"] += n
                for key, n in (want - got).items():
                    per_kind[key[0]]["fn"] += n
                if want == got:
                    messages_right += 1
                else:
                    errors.append({"text": row["text"], "gold": gold, "predicted": predicted})
    return {
        "strict": _ratios(tallies["strict"]),
        "kind": _ratios(tallies["kind"]),
        "perKind": {k: _ratios(c) for k, c in per_kind.items()},
        "messages": len(rows),
        "messagesWithCommitments": sum(1 for r in rows if r["commitments"]),
        "labelled": sum(len(r["commitments"]) for r in rows),
        "messageAccuracy": messages_right / len(rows) if rows else None,
        "confusion": confusion,
        "errors": errors,
    }


def _ratios(c: Counter[str]) -> dict[str, Any]:
    tp, fp, fn = c["tp"], c["fp"], c["fn"]
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = 2 * precision * recall / (precision + recall) if precision and recall else None
    return {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall, "f1": f1,
            "precisionInterval": wilson(tp, tp + fp), "recallInterval": wilson(tp, tp + fn)}


def hostile_timings(extractor: CommitmentExtractor) -> list[tuple[str, int, float]]:
    """Seconds the extractor takes on texts built to hurt a regex engine."""
    cases = {
        "1 MB of offers": "I'll give you 3 wood for 2 ore. " * 32_768,
        "1 MB of one letter": "a" * (1 << 20),
        "1 MB of digits": "9" * (1 << 20),
        "nested brackets": "(" * 500_000 + ")" * 500_000,
        "1 MB no spaces": ("wood_for_ore'" * 80_000),
    }
    out = []
    for name, text in cases.items():
        t0 = time.perf_counter()
        extractor.extract(text)
        out.append((name, len(text), time.perf_counter() - t0))
    return out


def stream_timings(events: int) -> dict[str, Any]:
    """Seconds to extract every message text of a simulated match, and to tokenize them only."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _common import simulated_stream

    from daishi_forensics.profile.commitments import tokens

    path = simulated_stream(events)
    texts: list[str] = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            ev = json.loads(line)
            if ev.get("type") in ("message", "message_private"):
                text = (ev.get("payload") or {}).get("text")
                if isinstance(text, str):
                    texts.append(text)
    extractor = HeuristicExtractor()
    t0 = time.perf_counter()
    for text in texts:
        tokens(text[: extractor.max_chars])
    floor = time.perf_counter() - t0
    t0 = time.perf_counter()
    found = sum(len(extractor.extract(text).commitments) for text in texts)
    ours = time.perf_counter() - t0
    return {"events": events, "texts": len(texts), "distinct": len(set(texts)), "commitments": found,
            "tokenize_s": floor, "extract_s": ours}


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _with_interval(value: float | None, interval: tuple[float, float] | None) -> str:
    if value is None or interval is None:
        return "n/a"
    return f"{value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]"


_SPLIT_NOTE = {"heldout": "never tuned on: the estimate to quote", "dev": "tuned on: optimistic",
               "all": "both"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--stream", type=int, default=0, metavar="EVENTS",
                        help="also time the extractor on the messages of a simulated match of EVENTS events")
    parser.add_argument("--errors", action="store_true",
                        help="print every dev message the extractor got wrong (never the heldout ones)")
    args = parser.parse_args(argv)
    extractor = HeuristicExtractor()
    rows = load(args.fixture)
    print(f"extractor {extractor.name} v{extractor.version} (reads the first {extractor.max_chars} characters)")
    splits = sorted({r.get("split", "all") for r in rows}, key=lambda s: (s != "heldout", s))
    result: dict[str, Any] = {}
    for split in [*splits, "all"] if len(splits) > 1 else splits:
        subset = rows if split == "all" else [r for r in rows if r.get("split", "all") == split]
        result = score(extractor, subset)
        print(f"\n[{split}] ({_SPLIT_NOTE.get(split, split)}) {args.fixture.name}: {result['messages']} messages, "
              f"{result['messagesWithCommitments']} with commitments, {result['labelled']} commitments")
        for mode in ("strict", "kind"):
            r = result[mode]
            print(f"{mode:>6}: precision {_with_interval(r['precision'], r['precisionInterval'])}  "
                  f"recall {_with_interval(r['recall'], r['recallInterval'])}  f1 {_fmt(r['f1'])}  "
                  f"(tp {r['tp']}, fp {r['fp']}, fn {r['fn']})")
        print("  per kind (strict):")
        for kind, r in result["perKind"].items():
            print(f"    {kind:<10} precision {_with_interval(r['precision'], r['precisionInterval'])}  "
                  f"recall {_with_interval(r['recall'], r['recallInterval'])}  "
                  f"(tp {r['tp']}, fp {r['fp']}, fn {r['fn']})")
        columns = [*KINDS, NONE]
        print("  confusion (rows labelled, columns predicted):")
        print("    " + " " * 10 + "".join(f"{c[:9]:>10}" for c in columns))
        for a in columns:
            counts = [result["confusion"].get((a, b), 0) for b in columns]
            if any(counts):
                print(f"    {a[:10]:<10}" + "".join(f"{n:>10}" for n in counts))
        print(f"  messages fully right: {_fmt(result['messageAccuracy'])}")
    print()
    print("hostile texts:")
    for name, size, seconds in hostile_timings(extractor):
        print(f"  {name:<20} {size:>9} chars  {seconds * 1000:8.2f} ms")
    if args.stream:
        t = stream_timings(args.stream)
        print(f"\nmessages of a simulated {t['events']:,}-event match: {t['texts']:,} texts "
              f"({t['distinct']:,} distinct), {t['commitments']:,} commitments")
        print(f"  tokenizer alone  {t['tokenize_s']:.2f} s  ({t['texts'] / t['tokenize_s']:,.0f} texts/s)")
        print(f"  extractor        {t['extract_s']:.2f} s  ({t['texts'] / t['extract_s']:,.0f} texts/s), "
              f"{t['extract_s'] / t['tokenize_s']:.1f}x the tokenizer")
    if args.errors:
        for e in score(extractor, [r for r in rows if r.get("split", "dev") == "dev"])["errors"]:
            print(json.dumps(e, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
