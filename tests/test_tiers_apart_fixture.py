"""The texts written apart from the tier rules (tests/fixtures/tiers_apart/): the shape its README states, so
that a figure reported on its `report` split is on the rows it names."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

FILE = Path(__file__).resolve().parent / "fixtures" / "tiers_apart" / "texts.jsonl"


def test_the_set_holds_its_kinds_and_splits() -> None:
    rows = [json.loads(line) for line in FILE.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 600 and all(set(r) == {"text", "label", "kind", "split"} for r in rows)
    kinds = Counter((r["label"], r["kind"]) for r in rows)
    assert len(kinds) == 24 and set(kinds.values()) == {25}
    assert Counter(r["label"] for r in rows) == {"attack": 300, "none": 300}
    assert len({" ".join(r["text"].lower().split()) for r in rows}) == 600  # no two alike
    seen: Counter[tuple[str, str]] = Counter()
    for r in rows:  # in every label and kind, the first 12 in the file are tune, the other 13 report
        k = (r["label"], r["kind"])
        assert r["split"] == ("tune" if seen[k] < 12 else "report")
        seen[k] += 1
    assert Counter(r["split"] for r in rows) == {"tune": 288, "report": 312}
