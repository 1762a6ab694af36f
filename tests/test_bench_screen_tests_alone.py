"""The study of what keeps honest matches clear (bench/screen_tests_alone.py): the same tests and the same
match-level step as shipped, read with the floors and gates set aside, on the tune split's honest seeds only."""

from __future__ import annotations

import doctest

import pytest

from .benchkit import load_bench
from .test_bench_screens_sweep import _fight

bench = load_bench("screen_tests_alone")


def test_a_test_that_passes_the_step_for_a_candidate_the_floor_removed_is_counted_though_the_match_is_clear() -> None:
    """An honest vendetta that kept company (12 times the median pair) and took 5 beside its largest act, under the
    floor of one typical exchange left past the gates: its thrown-fight test passes the step, the match is clear.
    The same acts taking 6 beside the largest pass the floor: raised.  Either way the match made 15 tests (a
    round-trip test for each of its 7 trading pairs, the pair-outlier test of the same 7, the thrown fight), and
    only the thrown fight's can reach the Daishi screens' rate of 0.018 (the others' smallest p-values, 0.07 to
    0.17, cannot): a family of 1, the floor set aside or not."""
    dropped = bench.tests_alone(_fight([4.0, 1.25, 1.25, 1.25, 1.25, 0.0]), 0.02)
    assert (dropped.verdict, dropped.passed) == ("clear", ("thrown_fight",))
    kept = bench.tests_alone(_fight([4.0, 1.5, 1.5, 1.5, 1.5, 0.0]), 0.02)
    assert (kept.verdict, kept.passed) == ("flag", ("thrown_fight",))
    assert (kept.family, kept.tests) == (dropped.family, dropped.tests) == (1, 15)


def test_the_study_plays_the_tune_split_s_honest_seeds_only() -> None:
    """Honest seeds from 1001 (the tune split's), at every noise level; no seed of a held-out split."""
    jobs = bench.jobs(60)
    assert len(jobs) == 240 and {j[1] for j in jobs} == {"clean"}
    assert {j[2] for j in jobs} == set(range(1001, 1061)) and {j[3] for j in jobs} == set(bench.screens.NOISE)
    held_out = [first for split, first in bench.screens.SPLITS.items() if split != "tune"]
    assert all(j[2] < min(held_out) for j in jobs)
    assert doctest.testmod(bench).failed == 0


def test_the_report_split_plays_the_held_out_honest_seeds_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """``--split report``: honest seeds from 6001 (the report split's), none of the tune split's, and the printout
    names the split its figures come from."""
    jobs = bench.jobs(3, "report")
    assert len(jobs) == 12 and {j[0] for j in jobs} == {"report"}
    assert {j[2] for j in jobs} == {6001, 6002, 6003}
    reading = bench.Reading("clear", ("thrown_fight",), 1, 15)
    bench.report([[reading]] * 4, (0.02,), "report")
    out = capsys.readouterr().out
    assert "== split report: honest matches (4, every noise level)" in out
    assert "4/  4" in out and "thrown_fight 4" in out
    assert "(report split: honest seeds from 6001, held out from every rule" in out
