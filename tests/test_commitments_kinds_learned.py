"""The leave-one-game-out bench of learned message-level kinds: it reads tune rows only, leaves each game out,
and combines the classifier with the rules as documented."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

from .benchkit import load_bench

K = load_bench("commitments_kinds_learned")
VOCABULARY = {"items": [], "places": ["Tyrolia", "Venice"], "agents": ["Italy", "Austria"]}


def _row(game: int, index: int, text: str, kinds: list[str], split: str = "tune-diplomacy-9") -> dict[str, Any]:
    return {"id": f"diplomacy/train/g{game}/austria-italy/{index}", "text": text, "vocabulary": VOCABULARY,
            "speaker": "Italy", "addressee": "Austria", "style": "diplomacy-real", "split": split,
            "commitments": [{"kind": k} for k in kinds]}


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_the_examples_in_the_bench_hold() -> None:
    assert doctest.testmod(K).failed == 0


def test_a_row_outside_the_tune_splits_is_refused_naming_file_row_and_field(tmp_path: Path) -> None:
    path = _write(tmp_path / "rows.jsonl", [_row(1, 0, "Deal.", ["accept"]),
                                             _row(2, 0, "Agreed.", ["accept"], split="holdout-diplomacy-2")])
    with pytest.raises(ValueError, match=r"rows\.jsonl: row 'diplomacy/train/g2/austria-italy/0': field split"):
        K.tune_rows([path])
    retired = _write(tmp_path / "retired.jsonl", [_row(6, 0, "Deal.", ["accept"], split="holdout-diplomacy-1")])
    assert [r["id"] for r in K.tune_rows([retired])] == ["diplomacy/train/g6/austria-italy/0"]
    with pytest.raises(ValueError, match="field id"):
        K.game_of({"id": "casino/train/3/0"})


def test_each_game_is_predicted_by_models_that_never_saw_it() -> None:
    # game 1 says yes to everything, game 2 never: a model trained on game 2 alone has nothing to learn about
    # accept, so game 1's rows get its one class (0.0) -- game 1's own labels never reach its predictions
    rows = [_row(1, i, f"Yes, agreed, deal number {i}", ["accept"]) for i in range(4)]
    rows += [_row(2, i, f"The weather in Venice, part {i}", []) for i in range(4)]
    probabilities = K.held_out_probabilities(rows, C=4.0)
    assert {probabilities[r["id"], "accept"] for r in rows if K.game_of(r) == "g1"} == {0.0}
    assert {probabilities[r["id"], "accept"] for r in rows if K.game_of(r) == "g2"} == {1.0}
    assert len(probabilities) == len(rows) * len(K.KINDS)


def test_union_adds_a_kind_the_rules_missed_and_never_doubles_one_they_read() -> None:
    accept = ("accept", (), (), None, None)
    support = ("support", (), (), None, None)
    high = {"accept": 0.9, "support": 0.9, "no_attack": 0.1}
    assert K.combined([accept], high, "union", 0.5) == [accept, support]
    assert K.combined([accept], high, "rules", 0.5) == [accept]
    assert K.combined([accept], {"accept": 0.4, "support": 0.0, "no_attack": 0.0}, "replace", 0.5) == []
    with pytest.raises(ValueError, match="unknown variant"):
        K.combined([], high, "both", 0.5)
