"""Same extractions from two installs: every commitment reading compared, text by text, by hash.

A change to the commitment extractor that must not change what it reads (a redesign of its
rules as tables, a split of its module, a faster path) is checked by running the extractor of
an install before it and of one after it on the same texts and comparing a SHA-256 of every
:class:`Extracted` (each commitment with its terms, ``conditional``, span and ``target``, the
``truncated`` flag and the mentions):

* every row of every labelled file ``tests/fixtures/commitments*.jsonl`` (the held-out splits
  included: their readings are hashed, never printed), each read by the extractor built for the
  row's game (its vocabulary), by one told only the row's goods, and by Daishi's default one;
  and each again in the label-keeping rewrites the general bench's sweep uses (upper case,
  typographic apostrophes, doubled spaces, line breaks);
* every text of the injection tiers' labelled corpus (``tests/fixtures/tiers/*.jsonl``), read by
  the default extractor (texts nobody wrote for the extractor);
* every extraction the promise pass makes while replaying simulated matches (the 96-seat quarter
  of ``bench/behavior.py`` and a small 9-seat match), in call order: the extractor the pass builds
  from the archive, and rebuilds when it learns an item.

With ``--cpu N`` it also times the extractor once over the distinct texts of the 96-seat quarter,
as ``bench/behavior.py``'s texts section does (a fresh extractor built from the archive): in N
processes per install, alternating old and new, each the best of three passes over the texts, and
prints the best CPU seconds of each; and the count of Python bytecodes one pass executes in
each (the interpreter's opcode tracing: a figure a busy machine cannot blur).

An install is a virtual environment folder, a ``daishi-forensics`` executable, or
``rev:<commit>`` (built from ``git archive`` of that commit, as ``bench/same_bytes.py`` does)::

    python bench/commitments_same.py --old rev:main --new .venv --cpu 3

Only row numbers are printed for a differing labelled row, never its text.
Exit status: 0 when every extraction is identical, 1 when one differs.
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

DIGESTS = r'''
import hashlib, json, sys
from pathlib import Path
from daishi_forensics.profile import commitments
from daishi_forensics.profile.commitments import HeuristicExtractor

repo, matches = Path(sys.argv[1]), sys.argv[2:]
out = {}

def digest(found):
    return hashlib.sha256(repr(found).encode()).hexdigest()[:24]

REWRITES = {
    "as-written": lambda t: t,
    "upper": str.upper,
    "apostrophes": lambda t: t.replace("'", "\u2019"),
    "spaces": lambda t: t.replace(" ", "  "),
    "lines": lambda t: t.replace(". ", ".\n"),
}
built = {}
def extractor(key, make):
    if key not in built:
        built[key] = make()
    return built[key]

for path in sorted((repo / "tests" / "fixtures").glob("commitments*.jsonl")):
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        if not line.strip():
            continue
        row = json.loads(line)
        vocab = row.get("vocabulary")
        readers = {"default": extractor("default", HeuristicExtractor)}
        if vocab is not None:
            key = json.dumps(vocab, sort_keys=True)
            readers["vocabulary"] = extractor("v" + key, lambda: HeuristicExtractor(vocab))
            readers["items"] = extractor("i" + key, lambda: HeuristicExtractor(items=vocab["items"]))
        for reader, ex in readers.items():
            for rewrite, change in REWRITES.items():
                out[f"fixture {path.name}:{n + 1} {reader} {rewrite}"] = digest(ex.extract(change(row["text"])))

default = extractor("default", HeuristicExtractor)
for path in sorted((repo / "tests" / "fixtures" / "tiers").glob("*.jsonl")):
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        if line.strip():
            out[f"tiers {path.name}:{n + 1}"] = digest(default.extract(json.loads(line)["text"]))

if matches:
    import os
    os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.replay.driver import replay
    from daishi_forensics.report.passes import CATALOGUE
    read_text = HeuristicExtractor.extract
    for match in matches:
        calls = []
        def recorded(self, text, calls=calls):
            found = read_text(self, text)
            calls.append(digest((self.vocabulary, text, found)))
            return found
        HeuristicExtractor.extract = recorded
        read = read_match(open_match(match))
        replay(read.events(), read.archive, list(CATALOGUE.build(read.archive, ["promises"]).values()))
        HeuristicExtractor.extract = read_text
        for n, d in enumerate(calls):
            out[f"match {Path(match).name} call {n + 1}"] = d
print(json.dumps(out))
'''
"""Run in an install's Python: every extraction's digest, by a key naming its text and reader."""

CPU = r'''
import json, os, sys, time
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.replay.driver import replay
from daishi_forensics.report.passes import CATALOGUE
from daishi_forensics.profile.commitments import HeuristicExtractor
read = read_match(open_match(sys.argv[1]))
texts = {}
read_text = HeuristicExtractor.extract
def recorded(self, text):
    texts.setdefault(text, None)
    return read_text(self, text)
HeuristicExtractor.extract = recorded
replay(read.events(), read.archive, list(CATALOGUE.build(read.archive, ["promises"]).values()))
HeuristicExtractor.extract = read_text
fresh = CATALOGUE.build(read.archive, ["promises"])["promises"].extractor
distinct = list(texts)
if sys.argv[2:] == ["bytecodes"]:  # the Python bytecodes the extraction executes: the same in every run
    count = 0
    def opcode(frame, event, arg):
        global count
        count += event == "opcode"
        return opcode
    def call(frame, event, arg):
        frame.f_trace_opcodes = True
        return opcode
    sys.settrace(call)
    for t in distinct:
        fresh.extract(t)
    sys.settrace(None)
    print(json.dumps({"texts": len(distinct), "seconds": count}))
    sys.exit()
best = None
for _ in range(3):  # the best of three passes: a busy machine slows a pass, never speeds it
    t0 = time.process_time(); [fresh.extract(t) for t in distinct]; t1 = time.process_time()
    best = t1 - t0 if best is None else min(best, t1 - t0)
print(json.dumps({"texts": len(distinct), "seconds": best}))
'''
"""Run in an install's Python: CPU seconds of one extraction of each distinct text of a match."""


def digests(python: Path, matches: list[Path]) -> dict[str, str]:
    """Every extraction's digest as the install of ``python`` reads it."""
    found: dict[str, str] = install_json(python, DIGESTS, [str(REPO), *map(str, matches)], "read the texts")
    return found


def cpu_seconds(python: Path, match: Path, bytecodes: bool = False) -> tuple[int, float]:
    """(distinct texts, CPU seconds) of extracting each distinct text of ``match`` once; with
    ``bytecodes``, the count of Python bytecodes executed instead of the seconds."""
    found = install_json(python, CPU, [str(match), *(["bytecodes"] if bytecodes else [])], "time the texts")
    return found["texts"], found["seconds"]



def main() -> int:
    opts = comparing_parser(__doc__.split("\n\n")[0], "the extractor").parse_args()
    pythons = pythons_of(opts)
    quarter = simulated_stream(opts.events, agents=96)
    matches = [quarter, simulated_stream(40_000)]
    old, new = (digests(pythons[name], matches) for name in ("old", "new"))
    differing = print_compared(old, new, "extractions")
    if opts.cpu:
        texts, best = best_alternating(opts.cpu, ("old", "new"), lambda name: cpu_seconds(pythons[name], quarter))
        counted = {name: cpu_seconds(pythons[name], quarter, bytecodes=True)[1] for name in ("old", "new")}
        print(f"bytecodes  the same texts: old {counted['old']:,.0f}, new {counted['new']:,.0f} "
              f"(new/old {counted['new'] / counted['old']:.4f}; interpreted work, the same in every run)")
        print_cpu(texts, best, quarter, opts.cpu, "extracted")
    print("identical" if not differing else f"{len(differing):,} extractions differ")
    return 0 if not differing else 1


if __name__ == "__main__":
    sys.exit(main())
