"""``bench/labelled_cascades.py``: propagation edges against any labelled truth, counted exactly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from .benchkit import load_bench

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "forensics" / "demo"


def bench() -> ModuleType:
    return load_bench("labelled_cascades")


def test_truth_of_the_simulator_and_of_a_fully_labelled_match() -> None:
    b = bench()
    cascades = [{"edges": [[1, 2], [2, 3]], "messages": [{"event": 1}, {"event": 2}, {"event": 3}],
                 "decoys": {"events": [7, 9]}}, {"edges": [[4, 5]], "messages": [4, 5]}]
    assert b.read_truth(cascades) == ({2: 1, 3: 2, 5: 4}, {1, 2, 3, 4, 5, 7, 9})
    assert b.read_truth({"edges": [[1, 2]], "labelled": "all"}) == ({2: 1}, None)


def test_tally_by_hand() -> None:
    parent = {2: 1, 3: 2, 5: 4, 6: 4}
    labelled = {1, 2, 3, 4, 5, 6, 7}
    ours = [
        (2, 1, "text", ()),        # right
        (3, 1, "text", (2,)),      # wrong parent, the true one tied
        (5, 4, "canary", ()),      # a canary echo: counted neither way (nor its true edge)
        (7, 1, "text", ()),        # a decoy linked: wrong
        (8, 1, "text", ()),        # chatter nobody labelled: not counted
    ]
    out = bench().tally([(ours, parent, labelled)])
    # true edges 2, 3, 6 (5 is a canary echo): 2 found; with ties 2 and 3
    assert (out["recall"]["k"], out["recall"]["n"]) == (1, 3)
    assert (out["recallWithTies"]["k"], out["recallWithTies"]["n"]) == (2, 3)
    # our edges into labelled messages: 2, 3, 7
    assert (out["precision"]["k"], out["precision"]["n"]) == (1, 3)
    assert (out["precisionWithTies"]["k"], out["precisionWithTies"]["n"]) == (2, 3)
    every = bench().tally([(ours, parent, None)])
    assert every["precision"]["n"] == 4  # the chatter edge counts once every message is labelled


def test_the_demo_with_its_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(DEMO / "m_demo.jsonl.gz", tmp_path / "m_demo.jsonl.gz")
    shutil.copy(DEMO / "m_demo.truth.json", tmp_path / "m_demo.truth.json")
    assert bench().main([str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    truth = json.loads((DEMO / "m_demo.truth.json").read_text())["propagation"]
    assert out["matches"] == 1 and out["recall"]["n"] == sum(len(c["edges"]) for c in truth) == 2
    # the demo's cascade 9735 -> 9793 -> 9915 (each copy heard from its parent alone, as the truth says) is
    # read whole, and its decoys (11841, 14306: agents who never heard the root) link to nothing
    assert (out["recall"]["k"], out["precision"]["k"], out["precision"]["n"]) == (2, 2, 2)


def test_a_match_without_truth_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(DEMO / "m_demo.jsonl.gz", tmp_path / "m_demo.jsonl.gz")
    assert bench().main([str(tmp_path)]) == 3
    assert "no truth file" in capsys.readouterr().err
