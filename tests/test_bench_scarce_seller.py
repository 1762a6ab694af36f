"""The scarce-seller bench (bench/scarce_seller.py): its jobs, and its table from rows read by hand."""

from __future__ import annotations

import pytest

from .benchkit import load_bench

bench = load_bench("scarce_seller")


def test_the_jobs_play_the_honest_scenario_at_each_setting_and_level() -> None:
    jobs = bench.job_list(1001, 2, ["none", "heavy"], ["default", "150 ticks"])
    assert jobs == [("scarce", "scarce_seller", 1001, "none"), ("scarce", "scarce_seller", 1002, "none"),
                    ("scarce", "scarce_seller", 1001, "heavy"), ("scarce", "scarce_seller", 1002, "heavy"),
                    ("scarce", "scarce_seller", 1001, "none", "150 ticks"),
                    ("scarce", "scarce_seller", 1002, "none", "150 ticks"),
                    ("scarce", "scarce_seller", 1001, "heavy", "150 ticks"),
                    ("scarce", "scarce_seller", 1002, "heavy", "150 ticks")]


def test_the_table_counts_matches_not_clear_flags_and_pairs_raised(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"setting": "default", "level": "none", "seed": 1, "verdict": "review",
             "raised_by": ["feeder/one_way_feed"], "pairs": 2, "pairs_raised": 1},
            {"setting": "default", "level": "none", "seed": 2, "verdict": "clear", "raised_by": [], "pairs": 3,
             "pairs_raised": 0}]
    bench.report(rows, 1, 2)
    out = capsys.readouterr().out
    assert "seeds 1-2, nothing tuned on them" in out
    row = next(line for line in out.splitlines() if line.startswith("  default"))
    assert "0.500" in row and "(  1/  2)" in row and "(  0/  2)" in row and row.rstrip().endswith("1/5")
    assert "raised by feeder/one_way_feed: 1" in out
