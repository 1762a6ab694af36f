"""Season scale: feeds that only show across matches (screens/season.py), hand-built graphs."""

from __future__ import annotations

import itertools
from typing import Any

import networkx as nx
import pytest
from daishi_forensics.screens import screen_graph, screen_season

_ids = itertools.count(1)


def match(name: str, feeds: list[tuple[str, str]], operators: dict[str, str] | None = None,
          gifts: int = 3) -> nx.MultiDiGraph:
    """A match with a fair market among h1..h3 (typical exchange 6) and, per feed, ``gifts``
    gifts of 12 from giver to taker (3 gifts: 6 typical exchanges, a feed the match itself
    does not flag)."""
    g = nx.MultiDiGraph(name=name)
    for node, op in (operators or {}).items():
        g.add_node(node, operator=op)
    for t, (x, y) in enumerate(itertools.combinations(["h1", "h2", "h3"], 2)):
        e = next(_ids)
        g.add_edge(x, y, value=6.0, tick=t, event=e, exchange=e, goods={"wood": 6.0})
        g.add_edge(y, x, value=6.0, tick=t, event=e, exchange=e, goods={"food": 6.0})
    for giver, taker in feeds:
        for k in range(gifts):
            g.add_edge(giver, taker, value=12.0, tick=10 + k, event=next(_ids), kind="gift")
    return g


def season_flags(graphs: list[nx.MultiDiGraph]) -> list[Any]:
    return list(screen_season(graphs).flags)


def test_each_feed_alone_is_clear_in_its_match() -> None:
    assert screen_graph(match("m_1", [("A", "B")])).verdict == "clear"


def test_feeds_round_a_cycle_across_matches() -> None:
    legs = [("A", "B"), ("B", "C"), ("C", "A")] * 2
    graphs = [match(f"m_{i}", [leg]) for i, leg in enumerate(legs)]
    cycles = [f for f in season_flags(graphs) if f.kind == "feed_cycle"]
    assert [(f.agents, f.score, f.details["keyedBy"], f.match) for f in cycles] == [
        (("A", "B", "C"), 2.0, "agent", "season")]
    assert cycles[0].evidence[0].startswith("m_0#")


def test_one_lap_across_matches_is_not_a_cycle() -> None:
    graphs = [match(f"m_{i}", [leg]) for i, leg in enumerate([("A", "B"), ("B", "C"), ("C", "A")])]
    assert not [f for f in season_flags(graphs) if f.kind == "feed_cycle"]


def test_a_hub_fed_in_different_matches() -> None:
    graphs = [match("m_1", [("S1", "H")]), match("m_2", [("S2", "H")]), match("m_3", [])]
    [hub] = [f for f in season_flags(graphs) if f.kind == "hub_and_spoke"]
    assert (hub.agents, hub.score, hub.details["matches"]) == (("H", "S1", "S2"), 2.0, ["m_1", "m_2"])


def test_a_hub_one_match_already_flagged_is_not_reported_again() -> None:
    graphs = [match("m_1", [("S1", "H"), ("S2", "H")], gifts=12), match("m_2", [])]  # twelve gifts each: significant
    result = screen_season(graphs)
    assert result.matches[0].verdict == "flag"
    assert not [f for f in result.flags if f.kind == "hub_and_spoke"]


def test_operators_that_keep_feeding_each_other() -> None:
    graphs = []
    for i in range(4):
        x, y = f"x{i}", f"y{i}"
        graphs.append(match(f"m_{i}", [(x, y)] if i < 3 else [], {x: "op-x", y: "op-y"}))
    recurring = [f for f in season_flags(graphs) if f.kind == "recurring_pair"]
    assert [(f.agents, f.level, f.score, f.details["matchesTogether"]) for f in recurring] == [
        (("op-y", "op-x"), "review", 3.0, 4)]


def test_an_honest_season_is_clear() -> None:
    graphs = [match(f"m_{i}", []) for i in range(30)]
    result = screen_season(graphs)
    assert result.verdict == "clear" and result.flags == ()


def test_the_season_cycle_search_never_uses_simple_cycles(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("simple_cycles over the whole graph")

    monkeypatch.setattr(nx, "simple_cycles", refuse)
    legs = [("A", "B"), ("B", "C"), ("C", "A")] * 2
    assert season_flags([match(f"m_{i}", [leg]) for i, leg in enumerate(legs)])


def test_a_hub_whose_givers_hand_it_a_small_share_is_no_season_feeder() -> None:
    """The feeder screen's share floor holds at season scale: S1 and S2 each give H three gifts of 12
    (36) but hand H's neighbour N 80 in fair trades, 36 of 116 (under a third): no feed, no hub."""
    def busy(name: str, giver: str) -> nx.MultiDiGraph:
        g = match(name, [(giver, "H")])
        for k in range(2):
            e = next(_ids)
            g.add_edge(giver, "N", value=40.0, tick=20 + k, event=e, exchange=e, goods={"wood": 40.0})
            g.add_edge("N", giver, value=40.0, tick=20 + k, event=e, exchange=e, goods={"stone": 40.0})
        return g

    assert [f.kind for f in season_flags([match("m_1", [("S1", "H")]), match("m_2", [("S2", "H")])])] == [
        "hub_and_spoke"]
    assert season_flags([busy("m_1", "S1"), busy("m_2", "S2")]) == []
    off = {"screens": {"season": {"min_giver_share": 0}}}  # the floor alone decides: without it, a hub
    assert [f.kind for f in screen_season([busy("m_1", "S1"), busy("m_2", "S2")], off).flags] == ["hub_and_spoke"]
