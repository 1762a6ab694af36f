"""Same tier verdicts from two installs: every verdict, cue and sign compared, text by text, by hash.

A change to the tier classifier that must not change what it says (a faster gate, a plan of the
rules remembered, a redesign of the engine) is checked by running the classifier of an install
before it and of one after it on the same texts and comparing a SHA-256 of what each says of
every text: the verdict with the learned score and with the rules only (tier, rule, reason,
score, truncated), and what the rules see of the normalized text (the rules' own verdict with its
matched spans, the first cue, every sign):

* every row of the injection tiers' labelled corpus (``tests/fixtures/tiers/*.jsonl``), every
  split, the held-out one included: its readings are hashed, never printed nor scored;
* every distinct message text of the 96-seat quarter of ``bench/behavior.py`` (a simulated match:
  chatter and planted injections).

With ``--cpu N`` it also times the classifier once over the quarter's distinct texts, as
``bench/behavior.py``'s texts section does (the learned score on, nothing remembered): in N
processes per install, alternating old and new, each the best of three passes, and prints the
best CPU seconds of each.

An install is a virtual environment folder, a ``daishi-forensics`` executable, or
``rev:<commit>`` (built from ``git archive`` of that commit, as ``bench/same_bytes.py`` does)::

    python bench/tiers_same.py --old rev:main --new .venv --cpu 3

Only the key of a differing text (a corpus file and line, or a text's number) is printed.
Exit status: 0 when every reading is identical, 1 when one differs.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import simulated_stream  # noqa: E402
from _installs import (  # noqa: E402
    best_alternating,
    comparing_parser,
    install_json,
    print_compared,
    print_cpu,
    pythons_of,
)

REPO = Path(__file__).resolve().parent.parent

QUARTER_TEXTS = r'''
def quarter_texts(match):
    import os
    os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
    from daishi_forensics.injection import tiers
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.replay.driver import replay
    from daishi_forensics.report.passes import CATALOGUE
    read = read_match(open_match(match))
    texts = {}
    classify = tiers._classify
    def recorded(text, model):
        texts.setdefault(text, None)
        return classify(text, model)
    tiers._classify = recorded
    tiers._classify_short.cache_clear()
    replay(read.events(), read.archive, list(CATALOGUE.build(read.archive, ["tiers"]).values()))
    tiers._classify = classify
    tiers._classify_short.cache_clear()
    return list(texts)
'''

DIGESTS = QUARTER_TEXTS + r'''
import hashlib, json, sys
from pathlib import Path
from daishi_forensics.injection import tiers
from daishi_forensics.injection.tier_rules import cues, judge, normalize, signs

repo, matches = Path(sys.argv[1]), sys.argv[2:]
out = {}

def said(m):
    return [(x.rule.name, x.span) for x in m]

def digest(text):
    norm = normalize(text)
    verdict = judge(norm)
    seen = (verdict.tier, verdict.rule, said(verdict.matched), said(cues(norm)), signs(norm))
    tiers._classify_short.cache_clear()
    return hashlib.sha256(repr((tiers.classify(text).to_json(), tiers.classify(text, model=False).to_json(),
                                seen)).encode()).hexdigest()[:24]

for path in sorted((repo / "tests" / "fixtures" / "tiers").glob("*.jsonl")):
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        if line.strip():
            out[f"corpus {path.name}:{n + 1}"] = digest(json.loads(line)["text"])
for match in matches:
    for n, text in enumerate(quarter_texts(match)):
        out[f"match {Path(match).name} text {n + 1}"] = digest(text)
print(json.dumps(out))
'''
"""Run in an install's Python: every text's digest, by a key naming the text."""

CPU = QUARTER_TEXTS + r'''
import json, sys, time
from daishi_forensics.injection import tiers
distinct = quarter_texts(sys.argv[1])
best = None
for _ in range(3):  # the best of three passes: a busy machine slows a pass, never speeds it
    t0 = time.process_time(); [tiers._classify(t, True) for t in distinct]; t1 = time.process_time()
    best = t1 - t0 if best is None else min(best, t1 - t0)
print(json.dumps({"texts": len(distinct), "seconds": best}))
'''
"""Run in an install's Python: CPU seconds of classifying each distinct text of a match once."""


def digests(python: Path, matches: list[Path]) -> dict[str, str]:
    """Every text's digest as the install of ``python`` reads it."""
    found: dict[str, str] = install_json(python, DIGESTS, [str(REPO), *map(str, matches)], "read the texts")
    return found


def cpu_seconds(python: Path, match: Path) -> tuple[int, float]:
    """(distinct texts, CPU seconds) of classifying each distinct text of ``match`` once."""
    found = install_json(python, CPU, [str(match)], "time the texts")
    return found["texts"], found["seconds"]


def main() -> int:
    opts = comparing_parser(__doc__.split("\n\n")[0], "the classifier").parse_args()
    pythons = pythons_of(opts)
    quarter = simulated_stream(opts.events, agents=96)
    matches = [quarter]
    old, new = (digests(pythons[name], matches) for name in ("old", "new"))
    differing = print_compared(old, new, "readings")
    if opts.cpu:
        texts, best = best_alternating(opts.cpu, ("old", "new"), lambda name: cpu_seconds(pythons[name], quarter))
        print_cpu(texts, best, quarter, opts.cpu, "classified")
    print("identical" if not differing else f"{len(differing):,} readings differ")
    return 0 if not differing else 1


if __name__ == "__main__":
    sys.exit(main())
