"""The real Diplomacy labels: their form, and the rebuild of their texts from a copy of the corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from .benchkit import load_bench
from .test_commitment_labels import KIND_FIELDS

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "fixtures" / "diplomacy-real-1.labels.jsonl"
TUNE = ROOT / "tests" / "fixtures" / "diplomacy-tune-1.labels.jsonl"
SECOND = ROOT / "tests" / "fixtures" / "diplomacy-real-2.labels.jsonl"
TUNE_2 = ROOT / "tests" / "fixtures" / "diplomacy-tune-2.labels.jsonl"
TUNE_3 = ROOT / "tests" / "fixtures" / "diplomacy-tune-3.labels.jsonl"
TUNE_4 = ROOT / "tests" / "fixtures" / "diplomacy-tune-4.labels.jsonl"
THIRD = ROOT / "tests" / "fixtures" / "diplomacy-real-3.labels.jsonl"
FOURTH = ROOT / "tests" / "fixtures" / "diplomacy-real-4.labels.jsonl"
FIFTH = ROOT / "tests" / "fixtures" / "diplomacy-real-5.labels.jsonl"
SIXTH = ROOT / "tests" / "fixtures" / "diplomacy-real-6.labels.jsonl"
SEVENTH = ROOT / "tests" / "fixtures" / "diplomacy-real-7.labels.jsonl"
SPLITS = {LABELS: "holdout-diplomacy-1", TUNE: "tune-diplomacy-1", SECOND: "holdout-diplomacy-2",
          TUNE_2: "tune-diplomacy-2", TUNE_3: "tune-diplomacy-3", TUNE_4: "tune-diplomacy-4",
          THIRD: "holdout-diplomacy-3", FOURTH: "holdout-diplomacy-4", FIFTH: "holdout-diplomacy-5",
          SIXTH: "holdout-diplomacy-6", SEVENTH: "holdout-diplomacy-7"}


D = load_bench("commitments_diplomacy")
CORPUS = [
    json.dumps({"messages": ["Hi Italy!", "Hello. I will stay out of Tyrolia.", "Deal."],
                "speakers": ["germany", "italy", "germany"], "receivers": ["italy", "germany", "italy"],
                "game_id": 3}),
    json.dumps({"messages": ["Bonjour"], "speakers": ["france"], "receivers": ["england"], "game_id": 3}),
]


def _label(row_id: str, text: str, **more: Any) -> dict[str, Any]:
    return {"id": row_id, "sha256": D.digest(text), "commitments": [], **more}


def test_rebuild_finds_each_message_by_game_powers_and_index_and_checks_its_digest() -> None:
    found = D.dialogs(CORPUS)
    assert sorted(found) == [(3, ("england", "france")), (3, ("germany", "italy"))]
    labels = [_label("diplomacy/train/g3/germany-italy/1", "Hello. I will stay out of Tyrolia.", speaker="Italy"),
              _label("diplomacy/train/g3/england-france/0", "Bonjour")]
    rows = D.rebuild(labels, found)
    assert [r["text"] for r in rows] == ["Hello. I will stay out of Tyrolia.", "Bonjour"]
    assert rows[0] == {"id": "diplomacy/train/g3/germany-italy/1", "commitments": [], "speaker": "Italy",
                       "text": "Hello. I will stay out of Tyrolia."}


def test_rebuild_names_the_row_and_field_it_cannot_rebuild() -> None:
    found = D.dialogs(CORPUS)
    with pytest.raises(ValueError, match=r"diplomacy/train/g3/germany-italy/1'.*field sha256"):
        D.rebuild([_label("diplomacy/train/g3/germany-italy/1", "Hello.")], found)
    with pytest.raises(ValueError, match=r"g3/germany-italy/7'.*no such message"):
        D.rebuild([_label("diplomacy/train/g3/germany-italy/7", "x")], found)
    with pytest.raises(ValueError, match="alphabetical order"):
        D.parse_id("diplomacy/train/g3/italy-germany/0")
    assert D.parse_id("diplomacy/validation/g11/germany-italy/3") == (11, ("germany", "italy"), 3)
    assert D.parse_id("diplomacy/test/g12/russia-turkey/3") == (12, ("russia", "turkey"), 3)
    with pytest.raises(ValueError, match="field id"):
        D.parse_id("diplomacy/dev/g11/germany-italy/3")  # the corpus has no such file
    with pytest.raises(ValueError, match="field id"):
        D.parse_id("casino/train/3/0")
    with pytest.raises(ValueError, match="line 1: not a dialog"):
        D.dialogs(["{\"messages\": []}"])
    with pytest.raises(ValueError, match="line 1: a dialog between 3 powers"):
        D.dialogs([json.dumps({"messages": ["x"], "speakers": ["italy"], "receivers": ["france"], "game_id": 1,
                               "players": ["italy", "france", "turkey"]})])


def test_an_empty_dialog_of_the_corpus_is_passed_over_and_players_name_the_pair() -> None:
    lines = [json.dumps({"messages": [], "speakers": [], "receivers": [], "game_id": 1}),
             json.dumps({"messages": [], "speakers": [], "receivers": [], "game_id": 1,
                         "players": ["turkey", "germany"]}),
             *CORPUS]
    found = D.dialogs(lines)
    assert found[(1, ("germany", "turkey"))] == []
    assert found[(3, ("germany", "italy"))] == ["Hi Italy!", "Hello. I will stay out of Tyrolia.", "Deal."]
    assert len(found) == 3


def test_the_command_writes_rows_the_commitment_bench_reads(tmp_path: Path) -> None:
    corpus = tmp_path / "train.jsonl"
    corpus.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps(_label("diplomacy/train/g3/germany-italy/2", "Deal.")) + "\n", encoding="utf-8")
    out = tmp_path / "rows.jsonl"
    assert D.main(["rebuild", "--corpus", str(corpus), "--labels", str(labels), "--out", str(out)]) == 0
    assert [json.loads(line)["text"] for line in out.read_text(encoding="utf-8").splitlines()] == ["Deal."]
    labels.write_text(json.dumps(_label("diplomacy/train/g3/germany-italy/2", "No deal.")) + "\n", encoding="utf-8")
    assert D.main(["rebuild", "--corpus", str(corpus), "--labels", str(labels), "--out", str(out)]) == 2


@pytest.mark.parametrize("path", sorted(SPLITS), ids=lambda p: p.name)
def test_shipped_labels_hold_no_text_and_legal_commitments(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 100
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert "text" not in row
        assert re.fullmatch(r"[0-9a-f]{64}", row["sha256"])
        D.parse_id(row["id"])
        assert row["split"] == SPLITS[path]
        vocabulary = row["vocabulary"]
        assert row["speaker"] in vocabulary["agents"] and row["addressee"] in vocabulary["agents"]
        for c in row["commitments"]:
            required, optional = KIND_FIELDS[c["kind"]]
            assert required <= set(c) - {"kind"} <= required | optional, (row["id"], c)
            assert c.get("region") is None or c["region"] in vocabulary["places"], (row["id"], c)
            assert c.get("target") is None or c["target"] in vocabulary["agents"], (row["id"], c)


def test_the_draws_share_no_game() -> None:
    def games_of(path: Path) -> set[str]:
        return {json.loads(line)["id"].split("/")[2] for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()}
    games = [games_of(path) for path in sorted(SPLITS)]
    assert all(not a & b for i, a in enumerate(games) for b in games[i + 1:])
