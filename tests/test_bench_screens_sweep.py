"""The collusion screens benchmark's settings sweep (bench/screens.py --sweep): its seeds share none with any
other split's, and the settings it plays are exactly those it prints.

The screens' clean-match rates were measured at the simulator's default match size only (8 player seats, 300
ticks, a 12 x 12 map); the sweep measures them at other sizes on seeds no split ever generated."""

from __future__ import annotations

import doctest
import itertools
from pathlib import Path

import networkx as nx
import pytest

from .benchkit import load_bench

bench = load_bench("screens")


def test_the_sweep_seeds_share_none_with_any_other_split() -> None:
    assert bench.SPLITS == {"tune": 1, "report": 5001, "fresh": 20001, "fresh2": 30001, "fresh3": 40001,
                            "fresh4": 50001, "fresh5": 60001, "fresh6": 65001, "fresh7": 500001, "sweep": 70001}
    planted, honest = bench.sweep_seeds(8, 200)
    assert (planted, honest) == (range(70001, 70009), range(71001, 71201))
    widest = bench.sweep_seeds(bench.SWEEP_MAX_SEEDS, bench.SWEEP_MAX_CLEAN)
    assert widest == (range(70001, 71001), range(71001, 80001))
    firsts = sorted(bench.SPLITS.values())
    for split, first in bench.SPLITS.items():
        if split == "sweep":
            continue
        # each other split's seeds, planted and honest, lie between its first seed and the next split's (the
        # last split's within the most a split draws: 1,000 planted, then SWEEP_MAX_CLEAN honest), clear of the
        # sweep's widest block
        later = [f for f in firsts if f > first]
        block = range(first, later[0] if later else first + 1000 + bench.SWEEP_MAX_CLEAN)
        assert block.stop <= 70001 or block.start > 80001, split
        assert not set(block) & (set(widest[0]) | set(widest[1])), split
        # and so do the seeds its jobs draw at the largest sizes any run used (80 planted seeds, 200 honest)
        assert {job[2] for job in bench.jobs(split, 80, 200, bench.NOISE)} <= set(block), split


def test_the_sweep_jobs_hold_exactly_its_seeds_settings_and_levels() -> None:
    jobs = bench.sweep_jobs(2, 3, ("none", "heavy"))
    names = [name for name, _ in bench.SCREEN_SWEEPS]
    assert len(jobs) == len(names) * 2 * (len(bench.KINDS) * 2 + 3)
    assert {j[0] for j in jobs} == {"sweep"}
    assert {j[2] for j in jobs if j[1] == "clean"} == {71001, 71002, 71003}
    assert {j[2] for j in jobs if j[1] != "clean"} == {70001, 70002}
    assert {j[1] for j in jobs if j[1] != "clean"} == set(bench.KINDS)
    assert {j[3] for j in jobs} == {"none", "heavy"}
    assert [j[4] for j in jobs if j[1] == "clean" and j[3] == "none" and j[2] == 71001] == names


def test_the_settings_table_holds_exactly_the_settings_printed() -> None:
    assert bench.SCREEN_SWEEPS == (
        ("4 player seats", {"n_agents": 4}),
        ("16 player seats", {"n_agents": 16}),
        ("32 player seats", {"n_agents": 32}),
        ("150 ticks", {"ticks": 150}),
        ("600 ticks", {"ticks": 600}),
        ("a 6 x 6 map", {"width": 6, "height": 6}),
        ("a 20 x 20 map", {"width": 20, "height": 20}),
    )
    assert [bench.sweep_settings(s) for _name, s in bench.SCREEN_SWEEPS] == [
        "4 player seats, 300 ticks, a 12 x 12 map",
        "16 player seats, 300 ticks, a 12 x 12 map",
        "32 player seats, 300 ticks, a 12 x 12 map",
        "8 player seats, 150 ticks, a 12 x 12 map",
        "8 player seats, 600 ticks, a 12 x 12 map",
        "8 player seats, 300 ticks, a 6 x 6 map",
        "8 player seats, 300 ticks, a 20 x 20 map",
    ]
    # each setting changes one of the defaults (a map's width and height together), and says so by its name
    for name, settings in bench.SCREEN_SWEEPS:
        assert name in bench.sweep_settings(settings), name
        assert bench.sweep_settings(settings) != bench.sweep_settings({}), name


def test_the_docstring_examples() -> None:
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(bench.sweep_settings) + doctest.DocTestFinder().find(bench.sweep_seeds):
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted == 5


def test_a_sweep_past_its_seeds_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="at most 1000 planted seeds a kind and 9000 honest seeds"):
        bench.sweep_seeds(1001, 1)
    with pytest.raises(ValueError):
        bench.sweep_seeds(1, 9001)


def _fight(values: list[float]) -> nx.MultiDiGraph:
    """x takes ``values`` from v (0: an attack) in the 120 ticks the two stood together, twelve times the median
    pair's 10 (the thrown-fight company gate); four outsiders trade fairly (a typical exchange of 6)."""
    g = nx.MultiDiGraph(contact={**{p: 10 for p in itertools.combinations("abcd", 2)}, ("v", "x"): 120}, ticks=300)
    event = itertools.count(1)
    for _ in range(2):
        for u, w in itertools.combinations("abcd", 2):
            e = next(event)
            g.add_edge(u, w, value=6.0, tick=e, event=e, exchange=e, goods={"wood": 6.0})
            g.add_edge(w, u, value=6.0, tick=e, event=e, exchange=e, goods={"food": 6.0})
    for k, value in enumerate(values):
        e = next(event)
        g.add_edge("v", "x", value=value, tick=10 + 30 * k, event=e, kind="theft" if value else "attack")
    for t in (5, 50):
        e = next(event)
        g.add_edge("v", "x", value=6.0, tick=t, event=e, exchange=e, goods={"wood": 6.0})
        g.add_edge("x", "v", value=6.0, tick=t, event=e, exchange=e, goods={"food": 6.0})
    return g


def test_sweep_compare_thrown_fight_prints_the_lowered_floor_against_it_off(capsys: pytest.CaptureFixture[str]) -> None:
    """``--sweep-compare thrown_fight``: an honest vendetta that kept company and took 5 beside its largest act
    (under one typical exchange) is a finding only with the floor past the gates off; a planted fight that took
    6 beside it (one typical exchange) is found either way."""
    honest = ("sweep", "clean", 71001, "heavy", _fight([4.0, 1.25, 1.25, 1.25, 1.25, 0.0]), {"planted": []})
    truth = {"planted": [{"kind": "thrown_fight", "attacker": "x", "victim": "v", "agents": ["v", "x"]}]}
    planted = ("sweep", "thrown_fight", 70001, "heavy", _fight([4.0, 1.5, 1.5, 1.5, 1.5, 0.0]), truth)
    bench.sweep_compare([honest, planted], ["150 ticks", "150 ticks"], "thrown_fight")
    out = capsys.readouterr().out
    assert "the thrown-fight screen with the floor left past its gates (as shipped) and without it (off)" in out
    row = next(line for line in out.splitlines() if "150 ticks" in line and " heavy " in line)
    assert "(  0/  1) /" in row and row.rstrip().endswith("0 / 1")
    found = next(line for line in out.splitlines() if "planted" in line and "thrown_fight pairs found" in line)
    assert "shipped  1.000" in found and "off  1.000" in found and "+0.000 of the planted pairs" in found


def _silent_and_small(value: float) -> nx.MultiDiGraph:
    """As tests/test_screens.py's silent victim (240 ticks beside x, where the match's victims hit back), x's six
    thefts taking ``value`` each."""
    from .test_screens import honest_market, take, trade

    outsiders = ["a", "b", "c", "d"]
    g = nx.MultiDiGraph(contact={**{p: 30 for p in itertools.combinations(outsiders, 2)}, ("v", "x"): 240}, ticks=300)
    honest_market(g, outsiders, rounds=2)
    for t in (3, 13, 23):
        take(g, "a", "b", t, 2.0, kind="theft")
        take(g, "b", "a", t + 1, 1.0, kind="attack")
    for t in (10, 40, 70, 100, 130, 160):
        take(g, "v", "x", t, value, kind="theft")
    for t in (5, 50):
        trade(g, "v", "x", t, {"wood": 6.0}, {"food": 6.0})
    return g


def test_a_missed_fight_whose_victim_kept_silent_is_read_as_silent_whatever_its_acts_took() -> None:
    """The misses' diagnosis reads the pair's test with every floor off: six thefts of 0.5 (2.5 beside the largest,
    under the one typical exchange of 6 left past the gates) by a pair whose victim kept silent are read as silent
    (then under the lowered floor), as six thefts of 2 are; with the lowered floor left on, the diagnosis read no
    test for the small ones and called them short of the silence level."""
    small, large = _silent_and_small(0.5), _silent_and_small(2.0)
    assert bench._ungated(small, "v", "x") is None  # no fight of v on x
    read = bench._ungated(small, "x", "v")
    assert read is not None and read.details["valueTakenAgain"] == 2.5
    assert bench._kept_silent(read) and bench._kept_silent(bench._ungated(large, "x", "v"))
    assert not bench._kept_silent(None)
    assert bench._thrown_test_figures(None, [], None) == " (no test)"


def test_sweep_compare_whole_items_prints_a_whole_item_buyer_raised_only_with_the_rule_off(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--sweep-compare whole_items``: a buyer paying one whole tool for a fiber from one seller, twelve times
    (tests/test_screens.py's: a lone feed for review when each trade is read at its values, 2 in 4096), is a feeder
    finding only with the rule off; no flag either way."""
    from .test_screens import _buyer

    honest = ("sweep", "clean", 71001, "heavy", _buyer(1), {"planted": []})
    bench.sweep_compare([honest], ["150 ticks"], "whole_items")
    out = capsys.readouterr().out
    assert "the feeder reading trades beyond one whole item (as shipped) and without it (off)" in out
    row = next(line for line in out.splitlines() if "150 ticks" in line and " heavy " in line)
    assert "(  0/  1) /" in row and row.split(" / ", 1)[1].startswith(" 1.000") and row.rstrip().endswith("0 / 0")


def test_sweep_compare_net_trades_prints_a_market_filler_raised_only_leg_by_leg(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--sweep-compare net_trades``: the honest 32-seat, 600-round match whose seat filling market orders reads,
    leg by leg, as a gather-scatter (a flag) is a typology finding only with the rule off; no planted kind is the
    rule's, so no planted line is printed."""
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.passes import analyze
    from daishi_forensics.report.screening import SCREEN_PASSES, match_graph
    from daishi_forensics.simulate import simulate_match, write_match

    path = write_match(simulate_match("clean", 150082, noise="medium", n_agents=32, ticks=600), tmp_path)
    graph = match_graph(analyze(read_match(open_match(str(path))), only=SCREEN_PASSES))
    bench.sweep_compare([("sweep", "clean", 71001, "medium", graph, {"planted": []})], ["600 ticks"], "net_trades")
    out = capsys.readouterr().out
    assert "the typologies reading a trade as one transfer (as shipped) and without it (off)" in out
    assert "honest with a finding (net_trades)" in out
    row = next(line for line in out.splitlines() if "600 ticks" in line and " medium " in line)
    assert row.split(" / ", 1)[0].endswith("(  0/  1)") and " 1.000 [" in row and row.rstrip().endswith("0 / 1")
    assert "planted" not in out


def test_the_pairs_report_plays_honest_seeds_at_sizes_the_sweep_never_combines() -> None:
    """``--pairs``: honest matches only, seeds from 150001, at eight sizes each changing two or three of the
    simulator's defaults together; none of them is a size of the sweep, and each names its settings in words."""
    jobs = bench.pairs_jobs(3, ("medium", "heavy"))
    assert len(jobs) == 8 * 2 * 3 and {j[:2] for j in jobs} == {("pairs", "clean")}
    assert {j[2] for j in jobs} == {150001, 150002, 150003}
    sweep = [settings for _name, settings in bench.SCREEN_SWEEPS]
    assert all(len(settings) >= 2 and settings not in sweep for _name, settings in bench.SCREEN_PAIRS)
    assert [bench.sweep_settings(s) for _name, s in bench.SCREEN_PAIRS][:2] == [
        "4 player seats, 150 ticks, a 12 x 12 map", "4 player seats, 600 ticks, a 12 x 12 map"]
    assert bench.PAIRS_LOOKED[0] == bench.PAIRS_FIRST


def test_the_sweep_s_second_draw_lies_in_its_block_past_every_seed_the_first_played() -> None:
    planted, honest = bench.sweep_seeds(500, 5000, draw=2)
    assert (planted, honest) == (range(70501, 71001), range(75001, 80001))
    block_planted, block_honest = bench.sweep_seeds(bench.SWEEP_MAX_SEEDS, bench.SWEEP_MAX_CLEAN)
    assert set(planted) <= set(block_planted) and set(honest) <= set(block_honest)
    # the first draw's largest runs allowed beside it (500 planted a kind, 4,000 honest) share no seed with it
    first_planted, first_honest = bench.sweep_seeds(500, 4000, draw=1)
    assert not (set(first_planted) | set(first_honest)) & (set(planted) | set(honest))
    jobs = bench.sweep_jobs(2, 3, ("none",), draw=2)
    assert {j[2] for j in jobs if j[1] == "clean"} == {75001, 75002, 75003}
    assert {j[2] for j in jobs if j[1] != "clean"} == {70501, 70502}
    with pytest.raises(ValueError, match="second draw"):
        bench.sweep_seeds(501, 10, draw=2)
    with pytest.raises(ValueError, match="draws 1, 2 and 3"):
        bench.sweep_seeds(1, 1, draw=4)


def test_the_sweep_s_third_draw_shares_no_seed_with_any_other_split_or_draw() -> None:
    planted, honest = bench.sweep_seeds(bench.SWEEP_MAX_SEEDS, bench.SWEEP_MAX_CLEAN, draw=3)
    assert (planted, honest) == (range(510001, 511001), range(511001, 520001))
    assert not set(planted) & set(honest)
    others = set()
    for draw in (1, 2):
        for seeds in bench.sweep_seeds(500, 4000 if draw == 1 else 5000, draw=draw):
            others |= set(seeds)
    for split in bench.SPLITS:
        if split != "sweep":
            others |= {job[2] for job in bench.jobs(split, 80, 200, bench.NOISE)}
    assert not (set(planted) | set(honest)) & others
    for split, first in bench.SPLITS.items():  # every split at the most it may draw, not only at the sizes run
        if split != "sweep":
            assert not (set(planted) | set(honest)) & set(range(first, first + 1000 + bench.SWEEP_MAX_CLEAN)), split
    assert {job[2] for job in bench.sweep_jobs(2, 3, ("none",), draw=3)} == {510001, 510002, 511001, 511002, 511003}


def test_drawn_seeds_hold_every_split_and_draw_at_its_largest() -> None:
    drawn = bench.drawn_seeds()
    for split, first in bench.SPLITS.items():
        seeds = bench.sweep_seeds(bench.SWEEP_MAX_SEEDS, bench.SWEEP_MAX_CLEAN) if split == "sweep" else \
            (range(first, first + 1000), range(first + 1000, first + 1000 + bench.SWEEP_MAX_CLEAN))
        assert set(seeds[0]) | set(seeds[1]) <= drawn, split
    for draw, most in ((2, (500, 5000)), (3, (bench.SWEEP_MAX_SEEDS, bench.SWEEP_MAX_CLEAN))):
        planted, honest = bench.sweep_seeds(*most, draw=draw)
        assert set(planted) | set(honest) <= drawn, draw
    assert 520001 not in drawn and 500000 not in drawn
