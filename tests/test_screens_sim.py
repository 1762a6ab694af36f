"""Simulator-made matches: planted behaviours found, honest-but-suspicious pairs left clear.

A handful of seeds only (the full measurement is ``bench/screens.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from daishi_forensics.analysis import analyze_target
from daishi_forensics.screens import match_graph, screen_graph
from daishi_forensics.simulate import simulate_match, write_match


def screened(tmp_path: Path, scenario: str, seed: int) -> tuple[Any, dict[str, Any]]:
    match = simulate_match(scenario, seed)
    path = write_match(match, tmp_path)
    return screen_graph(match_graph(analyze_target(str(path)))), match.truth


def flagged_pairs(result: Any, screen: str | None = None) -> set[tuple[str, str]]:
    return {p for f in result.flags if screen is None or f.screen == screen for p in f.pairs}


@pytest.mark.parametrize("seed", [1, 2])
def test_clean_matches_are_clear(tmp_path: Path, seed: int) -> None:
    result, truth = screened(tmp_path, "clean", seed)
    assert result.verdict == "clear", [f.explanation for f in result.flags]
    assert truth["honest_suspicious"]  # the match does hold honest-but-suspicious pairs


@pytest.mark.parametrize("scenario, screen, seed", [
    ("feeder", "feeder", 3), ("ring", "ring", 3), ("off_price", "off_price", 3), ("thrown_fight", None, 3),
])
def test_planted_pairs_are_found_and_nothing_else(tmp_path: Path, scenario: str, screen: str | None,
                                                  seed: int) -> None:
    result, truth = screened(tmp_path, scenario, seed)
    [planted] = truth["planted"]
    group = set(planted["agents"]) | set(planted.get("refillers", []))
    if screen is not None:  # strongly expressed plants; how often a thrown fight is, see bench/screens.py
        assert flagged_pairs(result, screen), f"no {screen} flag"
    assert all(a in group and b in group for a, b in flagged_pairs(result))  # every accused pair is planted
    honest = {tuple(h["agents"]) for h in truth["honest_suspicious"]}
    assert not honest & flagged_pairs(result)
