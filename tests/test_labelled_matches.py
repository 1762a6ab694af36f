"""``bench/labelled_matches.py``: the screens' pair precision and recall and the honest-match alarm
rate on any labelled set of matches, counted exactly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .benchkit import load_bench

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "forensics" / "demo"


def bench() -> ModuleType:
    return load_bench("labelled_matches")


def test_truth_shapes_give_their_pairs() -> None:
    b = bench()
    assert b.planted_pairs({"kind": "ring", "cycle": ["c", "a", "b"]}) == {("a", "c"), ("a", "b"), ("b", "c")}
    assert b.planted_pairs({"kind": "feeder", "beneficiary": "z", "spokes": ["x", "y"]}) == {("x", "z"), ("y", "z")}
    assert b.planted_pairs({"kind": "off-price", "gainer": "g", "giver": "f"}) == {("f", "g")}
    assert b.planted_pairs({"kind": "thrown_fight", "attacker": "x", "victim": "v"}) == {("v", "x")}
    assert b.planted_pairs({"kind": "cartel", "agents": ["a", "b", "c"]}) == {("a", "b"), ("a", "c"), ("b", "c")}
    assert b.planted_pairs({"kind": "ring", "pairs": [["b", "a"]]}) == {("a", "b")}
    assert b.group_of({"kind": "thrown_fight", "attacker": "x", "victim": "v", "refillers": ["r"]}) == {"x", "v", "r"}


def test_tally_counts_by_hand() -> None:
    ring = {"kind": "ring", "cycle": ["a", "b", "c"]}
    cartel = {"kind": "cartel", "agents": ["p", "q"]}
    results: list[tuple[str, list[tuple[str, tuple[str, str]]], list[dict[str, Any]]]] = [
        # two of the ring's three pairs raised by the ring screen, one by the feeder screen; one wrong pair
        ("flag", [("ring", ("a", "b")), ("ring", ("b", "c")), ("feeder", ("a", "c")), ("ring", ("a", "x"))], [ring]),
        # the cartel missed
        ("clear", [], [cartel]),
        # three honest matches: one raised for review (its pair wrong), one flagged, one clear
        ("review", [("off_price", ("h", "i"))], []),
        ("flag", [("ring", ("h", "j"))], []),
        ("clear", [], []),
    ]
    out = bench().tally(results)
    assert out["honestMatches"] == 3
    assert (out["honestNotClear"]["k"], out["honestNotClear"]["n"]) == (2, 3)
    assert (out["honestFlag"]["k"], out["honestFlag"]["n"]) == (1, 3)
    assert {k: (r["k"], r["n"]) for k, r in out["recall"].items()} == {"cartel": (0, 1), "ring": (2, 3)}
    assert {k: (r["k"], r["n"]) for k, r in out["recallAnyScreen"].items()} == {"cartel": (0, 1), "ring": (3, 3)}
    assert {k: (r["k"], r["n"]) for k, r in out["precision"].items()} == {
        "feeder": (1, 1), "off_price": (0, 1), "ring": (2, 4)}
    assert (out["precisionAll"]["k"], out["precisionAll"]["n"]) == (3, 6)


def test_the_demo_and_a_simulated_folder_read_with_their_truth(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(DEMO / "m_demo.jsonl.gz", tmp_path / "m_demo.jsonl.gz")
    shutil.copy(DEMO / "m_demo.truth.json", tmp_path / "m_demo.truth.json")
    honest = tmp_path / "honest"
    honest.mkdir()
    shutil.copy(DEMO / "m_demo.jsonl.gz", honest / "m_other.jsonl.gz")
    (honest / "truth.json").write_text(json.dumps({"planted": []}))
    assert bench().main([str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matches"] == 2 and out["honestMatches"] == 1 and out["notScreened"] == []
    # the demo's truth plants a feeder of two spokes, one off-price pair, a ring of three and one thrown fight
    assert {k: r["n"] for k, r in out["recall"].items()} == {"feeder": 2, "off_price": 1, "ring": 3, "thrown_fight": 1}
    # the same events called honest: every pair the screens raise there counts against precision
    assert out["precisionAll"]["n"] >= 2 * out["precisionAll"]["k"]


def test_a_match_without_truth_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(DEMO / "m_demo.jsonl.gz", tmp_path / "m_demo.jsonl.gz")
    assert bench().main([str(tmp_path)]) == 3
    assert "no truth file" in capsys.readouterr().err
