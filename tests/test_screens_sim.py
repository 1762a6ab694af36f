"""Simulator-made matches: planted behaviours found, honest-but-suspicious pairs left clear.

A handful of seeds only (the full measurement is ``bench/screens.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from daishi_forensics.report.passes import analyze_target
from daishi_forensics.screens import load_config, screen_graph
from daishi_forensics.report.screening import match_graph
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
    ("feeder", "feeder", 3), ("ring", "ring", 3), ("off_price", None, 3), ("thrown_fight", "thrown_fight", 3),
])
def test_planted_pairs_are_found_and_nothing_else(tmp_path: Path, scenario: str, screen: str | None,
                                                  seed: int) -> None:
    result, truth = screened(tmp_path, scenario, seed)
    [planted] = truth["planted"]
    group = set(planted["agents"]) | set(planted.get("refillers", []))
    if screen is not None:  # strongly expressed plants; how often the others are found, see bench/screens.py
        # (the simulator's off-price pairs make 5 to 10 such trades: a sign-flip null allows 2 / 2^n, too few;
        # seed 3's thrown fight took 18.9 typical exchanges in 12 acts, the two 27.7 times the median pair)
        assert flagged_pairs(result, screen), f"no {screen} flag"
    assert all(a in group and b in group for a, b in flagged_pairs(result))  # every accused pair is planted
    honest = {tuple(h["agents"]) for h in truth["honest_suspicious"]}
    assert not honest & flagged_pairs(result)


def test_a_planted_ring_cut_to_its_first_round_is_found_by_the_rule_but_not_accused(tmp_path: Path) -> None:
    """The log keeps only the ring's first round (each pair trades once, then sends the goods
    back), amid the match's ordinary trade: too few laps for the cycle rule, too few round
    trips for the pair rule; the round-trip ring rule finds it.  But one round trip a pair is
    what put each pair in the search, so the count null has nothing to weigh (each pair's
    p-value given the search is 1), and nobody is accused: one round is below what the tests
    can tell from honest buy-backs."""
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.wash_ring import round_trip_rings

    match = simulate_match("ring", 2)
    graph = match_graph(analyze_target(str(write_match(match, tmp_path))))
    [planted] = match.truth["planted"]
    cycle = planted["cycle"]
    assert len(cycle) == 3
    ring_events = set(planted["events"])
    ring_edges = [(u, v, k, d) for u, v, k, d in graph.edges(keys=True, data=True) if d["event"] in ring_events]
    first_round = {e for _, e in sorted({(d["tick"], d["event"]) for *_, d in ring_edges})[:6]}
    for u, v, k, d in ring_edges:
        if d["event"] not in first_round:
            graph.remove_edge(u, v, k)
    kept_events = {e for *_, d in ring_edges if d["event"] in first_round for e in d["events"]}
    pairs = {tuple(sorted((cycle[i], cycle[(i + 1) % 3]))) for i in range(3)}
    [flag] = round_trip_rings(TransferView(graph), load_config().screens["ring"])[0]
    assert (flag.kind, set(flag.pairs), set(flag.evidence)) == ("wash_ring", pairs, kept_events)
    assert set(flag.details["pairPValuesGivenSearch"].values()) == {1.0}
    result = screen_graph(graph)
    assert not flagged_pairs(result, "ring")
    assert all(a in cycle and b in cycle for a, b in flagged_pairs(result))  # nobody else accused
