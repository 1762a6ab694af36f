"""The noise-beyond bench (bench/noise_beyond.py): its jobs, its seeds, and its tables from rows made by hand;
and the simulator's ``extreme`` level it plays."""

from __future__ import annotations

import pytest
from daishi_forensics.simulate import SimulatedMatch, simulate_match
from daishi_forensics.simulate.noise import NOISE_LEVELS

from .benchkit import load_bench

bench = load_bench("noise_beyond")
screens_bench = load_bench("screens")


def test_the_jobs_play_every_kind_and_honest_matches_at_each_setting_and_level() -> None:
    jobs = bench.job_list(2, 3, ["heavy", "extreme"], ["default", "600 ticks"])
    kinds = ("feeder", "ring", "cartel", "off_price", "thrown_fight")
    assert len(jobs) == 2 * 2 * (5 * 2 + 3)
    assert jobs[:2] == [("beyond", "feeder", 910001, "heavy"), ("beyond", "feeder", 910002, "heavy")]
    assert [j for j in jobs if j[1] == "clean" and len(j) == 4 and j[3] == "extreme"] == [
        ("beyond", "clean", 911001, "extreme"), ("beyond", "clean", 911002, "extreme"),
        ("beyond", "clean", 911003, "extreme")]
    assert {j[1] for j in jobs} == {*kinds, "clean"}
    assert {j[4] for j in jobs if len(j) == 5} == {"600 ticks"}
    with pytest.raises(ValueError, match="at most"):
        bench.job_list(1001, 1, ["heavy"], ["default"])


def test_the_seeds_share_none_with_the_screens_benchmark() -> None:
    ours = {j[2] for j in bench.job_list(bench.MAX_PLANTED, bench.MAX_HONEST, ["extreme"], ["default"])}
    assert not ours & screens_bench.drawn_seeds()
    assert max(j[2] for j in bench.job_list(bench.MAX_PLANTED, 0, ["extreme"], ["default"])) < bench.HONEST_FIRST


def test_the_tables_count_honest_alarms_and_planted_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [
        {"setting": "default", "level": "extreme", "seed": 911001, "kind": "clean", "verdict": "review",
         "raised_by": ["cartel/cartel"]},
        {"setting": "default", "level": "extreme", "seed": 911002, "kind": "clean", "verdict": "clear",
         "raised_by": []},
        {"setting": "default", "level": "extreme", "seed": 910001, "kind": "ring", "verdict": "flag",
         "raised_by": ["ring/wash_ring"], "planted": 4, "found": 3, "raised": 4, "right": 3},
        {"setting": "default", "level": "extreme", "seed": 910001, "kind": "feeder", "verdict": "clear",
         "raised_by": [], "planted": 2, "found": 0, "raised": 0, "right": 0},
    ]
    bench.report(rows, 1, 2)
    out = capsys.readouterr().out
    honest = next(line for line in out.splitlines() if line.startswith("  default") and "  2   " in line)
    assert "0.500" in honest and "(  1/  2)" in honest and "(  0/  2)" in honest
    assert "raised by cartel/cartel: 1 (seeds 911001)" in out
    ring = next(line for line in out.splitlines() if " ring " in line)
    assert "0.750" in ring and "(  3/  4)" in ring
    pooled = next(line for line in out.splitlines() if "all kinds" in line)
    assert "(  3/  6)" in pooled and "(  3/  4)" in pooled


def test_extreme_noise_is_a_level_past_heavy_and_seeded() -> None:
    assert list(NOISE_LEVELS)[-2:] == ["heavy", "extreme"] and NOISE_LEVELS["extreme"] == 1.9
    heavy = simulate_match("clean", 5, ticks=80, noise="heavy")
    extreme = simulate_match("clean", 5, ticks=80, noise="extreme")
    again = simulate_match("clean", 5, ticks=80, noise="extreme")
    assert list(extreme.iter_events()) == list(again.iter_events())
    assert extreme.truth["noise"]["level"] == "extreme"

    def gifts(match: SimulatedMatch) -> int:  # offers asking nothing back: the noise's gifts of food among them
        return sum(1 for ev in match.iter_events()
                   if ev["type"] == "trade_offered" and ev["payload"]["give"] and not ev["payload"]["receive"])

    assert gifts(extreme) > gifts(heavy)


def test_a_size_or_level_not_known_is_named() -> None:
    assert screens_bench.named_levels("heavy, extreme") == ["heavy", "extreme"]
    assert screens_bench.named_sizes("default,32 player seats", "default") == ["default", "32 player seats"]
    with pytest.raises(ValueError, match="unknown noise level 'loud'"):
        screens_bench.named_levels("heavy,loud")
    with pytest.raises(ValueError, match="unknown setting 'huge'"):
        screens_bench.named_sizes("default,huge", "default")
