"""Precision and recall of the propagation edges (who copied whom) on any labelled set of matches.

For measuring propagation on matches this project never generated (another simulator's
forwarding cascades, a real match whose copies someone labelled).  Each match is read and its
messages linked exactly as ``daishi-forensics propagation`` does it, once, and its text edges
compared with the truth.

**Truth.**  Beside each match ``m_x.jsonl`` (any form the tool reads), a file ``m_x.truth.json``,
or ``truth.json`` in a folder holding that one match (what ``daishi-forensics simulate`` writes).
Its ``propagation`` is either one object or a list of them (the simulator writes one per planted
cascade), each with::

    {"edges": [[parent, child], ...],       # event ids: the child copied the parent
     "messages": [{"event": id}, ...] or [id, ...],   # the messages this truth speaks for
     "decoys": {"events": [id, ...]}}       # optional: messages that copy nothing

or ``"labelled": "all"`` in place of ``messages`` when every message of the match is labelled
(a message of no edge is then a root).  A labelled message with no truth edge copies nothing.

**Figures** (95% Wilson intervals), strict: an edge is right when its parent is the true one.
Recall = true edges whose child got the true parent / true edges; precision = our edges into
labelled messages with the true parent / our edges into labelled messages.  Edges the tool links
by a probe's canary (exact tracking, not text reading) are counted neither way.  Also, as a
looser reading, right-or-tied: the true parent is the chosen one or among the candidates the
edge reports as tied (copies the texts cannot tell apart).  Nothing is tuned: the output names
the files the figures came from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _labelled import matches_in, rate, rate_line, truth_of  # noqa: E402











def read_truth(propagation: Any) -> tuple[dict[int, int], set[int] | None]:
    """(child -> true parent, the labelled messages; None when every message is labelled)."""
    parts = propagation if isinstance(propagation, list) else [propagation]
    parent: dict[int, int] = {}
    labelled: set[int] | None = set()
    for part in parts:
        for p, c in part.get("edges", []):
            parent[int(c)] = int(p)
        if part.get("labelled") == "all":
            labelled = None
        elif labelled is not None:
            labelled.update(int(m["event"]) if isinstance(m, Mapping) else int(m) for m in part.get("messages", []))
            labelled.update(int(e) for e in part.get("decoys", {}).get("events", []))
    if labelled is not None:
        labelled.update(parent)
        labelled.update(parent.values())
    return parent, labelled


def tally(matches: Iterable[tuple[list[tuple[int, int, str, tuple[int, ...]]], dict[int, int], set[int] | None]]
          ) -> dict[str, Any]:
    """Figures over matches, each ``([(child, parent, via, tied_with)] ours, true parents, labelled)``."""
    truth_n = found = tie_found = ours_n = right = tie_right = 0
    for ours, parent, labelled in matches:
        canary = {c for c, _p, via, _t in ours if via != "text"}
        mine = {c: (p, tied) for c, p, via, tied in ours if via == "text"}
        for child, true in parent.items():
            if child in canary:
                continue
            truth_n += 1
            got = mine.get(child)
            found += got is not None and got[0] == true
            tie_found += got is not None and (got[0] == true or true in got[1])
        for child, (p, tied) in mine.items():
            if labelled is not None and child not in labelled:
                continue
            ours_n += 1
            true = parent.get(child)
            right += true is not None and p == true
            tie_right += true is not None and (p == true or true in tied)
    return {"recall": rate(found, truth_n), "precision": rate(right, ours_n),
            "recallWithTies": rate(tie_found, truth_n), "precisionWithTies": rate(tie_right, ours_n)}




def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="Truth files: see the module docstring (python -m pydoc bench/labelled_cascades.py).")
    parser.add_argument("targets", nargs="+", type=Path, help="match files, or folders searched for m_* matches")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)

    from daishi_forensics.errors import ForensicsError
    from daishi_forensics.injection.summary import propagation_of
    from daishi_forensics.report.passes import analyze_target

    matches: list[Path] = []
    for target in args.targets:
        matches += matches_in(target) if target.is_dir() else [target]
    rows = []
    for match in matches:
        truth_path = truth_of(match)
        if truth_path is None:
            print(f"labelled_cascades: error: {match}: no truth file", file=sys.stderr)
            return 3
        try:
            parent, labelled = read_truth(json.loads(truth_path.read_text(encoding="utf-8"))["propagation"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"labelled_cascades: error: {truth_path}: not a truth file with a propagation entry ({exc!r})",
                  file=sys.stderr)
            return 3
        try:
            analysis = analyze_target(str(match), only=("exposure", "tiers"))
        except ForensicsError as exc:
            print(f"labelled_cascades: error: {exc}", file=sys.stderr)
            return 3
        edges = propagation_of(analysis).edges
        ours = [(e.child, e.parent, e.via, tuple(e.tied_with)) for e in edges]
        rows.append((ours, parent, labelled))
    figures = {"matches": len(rows), **tally(rows)}
    if args.json:
        print(json.dumps(figures, sort_keys=True))
        return 0
    print(f"{len(rows)} matches ({', '.join(str(t) for t in args.targets)}); strict edges, nothing tuned on them")
    for name in ("precision", "recall", "precisionWithTies", "recallWithTies"):
        print(rate_line(name, figures[name], 22))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
