"""``bench/labelled_commitments.py``: the commitment extractor's precision and recall on any labelled
JSON-lines messages, counted exactly, its figures the general bench's on the same rows."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .benchkit import load_bench

CAMPSITE = {"items": ["food", "water", "firewood"], "places": [], "agents": ["camper_a", "camper_b"]}


def bench() -> ModuleType:
    return load_bench("labelled_commitments")


def write(tmp_path: Path, rows: list[dict[str, Any]]) -> Path:
    path = tmp_path / "labelled.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


ROWS: list[dict[str, Any]] = [
    # read as labelled: a trade, terms and all
    {"id": "c1", "text": "You can have all the firewood if I get 2 water.", "vocabulary": CAMPSITE, "game": "camp",
     "commitments": [{"kind": "trade", "give": {"firewood": None}, "receive": {"water": 2}}]},
    # the kind right, the terms not (labelled 3 water): strict misses it, kind alone counts it
    {"id": "c2", "text": "You can have all the firewood if I get 2 water.", "vocabulary": CAMPSITE, "game": "camp",
     "commitments": [{"kind": "trade", "give": {"firewood": None}, "receive": {"water": 3}}]},
    # an accept extracted where the label has none
    {"id": "c3", "text": "Deal!", "vocabulary": CAMPSITE, "game": "camp", "commitments": []},
    # no vocabulary: Daishi's default items (wood and stone are among them)
    {"id": "d1", "text": "I will give you 2 wood for 3 stone.", "game": "daishi",
     "commitments": [{"kind": "trade", "give": {"wood": 2}, "receive": {"stone": 3}}]},
    # a commitment the extractor does not find
    {"id": "d2", "text": "hello there", "game": "daishi", "commitments": [{"kind": "support"}]},
]


def test_counts_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench().main([str(write(tmp_path, ROWS)), "--by", "game", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    whole = out["all"]
    # strict: c1 and d1 right; c2's and c3's extractions wrong (2 fp); c2's label and d2's missed (2 fn)
    assert (whole["strict"]["tp"], whole["strict"]["fp"], whole["strict"]["fn"]) == (2, 2, 2)
    # kind alone: c2's trade counts; c3's accept is still false, d2's support still missed
    assert (whole["kind"]["tp"], whole["kind"]["fp"], whole["kind"]["fn"]) == (3, 1, 1)
    assert whole["rows"] == 5 and whole["labelled"] == 4 and whole["predicted"] == 4
    assert {(c["labelled"], c["predicted"]): c["count"] for c in whole["confusion"]} == {
        ("trade", "trade"): 3, ("none", "accept"): 1, ("support", "none"): 1}
    assert out["rowsWithoutVocabulary"] == 2 and out["extractor"]["name"] == "daishi-heuristic"
    camp, daishi = out["groups"]["camp"], out["groups"]["daishi"]
    assert (camp["strict"]["tp"], camp["strict"]["fp"], camp["strict"]["fn"]) == (1, 2, 1)
    assert (daishi["strict"]["tp"], daishi["strict"]["fp"], daishi["strict"]["fn"]) == (1, 0, 1)


def test_no_text_is_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A set meant to stay unseen can be measured without being read."""
    path = write(tmp_path, ROWS)
    assert bench().main([str(path), "--by", "game"]) == 0
    printed = capsys.readouterr().out
    assert str(path) in printed and "2 without a vocabulary" in printed
    assert not any(word in printed for word in ("firewood", "hello", "Deal", "stone"))


def test_the_general_bench_counts_the_same_on_the_same_rows(tmp_path: Path) -> None:
    general = load_bench("commitments_general")
    rows = [{**r, "vocabulary": r.get("vocabulary", bench().DAISHI_VOCABULARY), "addressee": None, "style": r["game"],
             "split": "tune"} for r in ROWS]
    expected = general.score(rows, general.predictions(rows, general.heuristic)).strict
    mine = bench().score_rows(bench().rows_of([write(tmp_path, ROWS)], "text", None),
                              bench().predict(bench().rows_of([write(tmp_path, ROWS)], "text", None),
                                              general.heuristic))[""].strict
    assert (mine.tp, mine.fp, mine.fn) == (expected.tp, expected.fp, expected.fn) == (2, 2, 2)


def test_a_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match=r"labelled_commitments: error: .*missing.jsonl: cannot be read"):
        bench().main([str(tmp_path / "missing.jsonl")])


def test_a_line_separator_inside_a_text_is_part_of_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "raw.jsonl"  # the separator written raw, as JSON allows
    path.write_text(json.dumps({"text": "Deal!\u2028See you", "commitments": [{"kind": "accept"}]},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    assert "\u2028" in path.read_text(encoding="utf-8")
    assert bench().main([str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["all"]["rows"] == 1


@pytest.mark.parametrize(("line", "message"), [
    ('{"id": "x", "commitments": []}', r"line 2 \(id 'x'\): field text: missing or not a string"),
    ('{"text": "hi"}', r"line 2: field commitments: missing"),
    ('{"text": "hi", "commitments": [{"kind": "promise"}]}', r"line 2: field commitments\[0\]: not an object whose kind"),
    ('{"text": "hi", "commitments": [], "vocabulary": {"items": "wood"}}', r"line 2: field vocabulary: not an object"),
    ("not json", r"line 2: not JSON"),
])
def test_a_bad_line_is_named_with_its_field(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "fine", "commitments": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"labelled_commitments: error: .*bad.jsonl, " + message):
        bench().main([str(path)])
