"""The probe compliance benchmark's splits (bench/injection.py): the held-out seeds share none with the seeds
the probe rules were written against, the sweeps run on held-out seeds only, and every figure says its seeds
and settings.

The figure was once printed with no record of the matches, seeds and settings it was measured on, and on the
seeds the rules were written against only."""

from __future__ import annotations

import doctest

from .benchkit import load_bench

bench = load_bench("injection")


def test_the_report_seeds_share_none_with_the_tune_seeds() -> None:
    tune, report = bench.PROBE_SPLITS["tune"], bench.PROBE_SPLITS["report"]
    assert set(tune) == set(report) == {1, 2, 3}
    for version in (1, 2, 3):
        assert not set(tune[version]) & set(report[version]), version
    assert tune == {3: range(0, 20), 2: range(0, 5), 1: range(0, 5)}
    assert report == {3: range(7000, 7020), 2: range(7000, 7005), 1: range(7000, 7005)}


def test_a_split_never_reaches_past_its_own_seeds() -> None:
    assert bench.probe_seeds("tune", 20) == bench.PROBE_SPLITS["tune"]
    assert bench.probe_seeds("report", 4) == {3: range(7000, 7004), 2: range(7000, 7001), 1: range(7000, 7001)}
    assert bench.probe_seeds("report", 40) == bench.PROBE_SPLITS["report"]


def test_the_seeds_and_settings_are_said_in_words() -> None:
    assert bench._seed_ranges(bench.probe_seeds("report", 20)) == "v3 seeds 7000-7019, v2 seeds 7000-7004, v1 seeds 7000-7004"
    assert bench._seed_ranges(bench.probe_seeds("tune", 1)) == "v3 seed 0, v2 seed 0, v1 seed 0"
    assert [bench.probe_settings(s) for _name, s in bench.PROBE_SWEEPS] == [
        "24 player seats and the scenario's probe seats, 300 ticks, a 12 x 12 map, no honest noise",
        "8 player seats and the scenario's probe seats, 300 ticks, a 6 x 6 map, no honest noise",
        "8 player seats and the scenario's probe seats, 120 ticks, a 12 x 12 map, no honest noise",
        "8 player seats and the scenario's probe seats, 300 ticks, a 12 x 12 map, heavy honest noise",
    ]


def test_the_docstring_examples() -> None:
    runner = doctest.DocTestRunner()
    for test in doctest.DocTestFinder().find(bench.probe_seeds) + doctest.DocTestFinder().find(bench.probe_settings):
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.summarize(verbose=False).attempted == 3


def test_a_disagreement_is_counted_and_said_with_its_split_scenario_seed_and_version() -> None:
    import copy
    import dataclasses

    from daishi_forensics.simulate import simulate_match

    match = simulate_match("probes", 0, schema_version=2, ticks=120)
    right = bench.ProbeTally()
    right.add(match, 2, "TUNE")
    assert (right.matches, right.matches_agreeing, right.disagreements) == (1, 1, [])
    assert right.agree == right.pairs == len(match.truth["probes"]) > 0

    truth = copy.deepcopy(match.truth)
    flipped = next(t for t in truth["probes"] if t["exposed"] and not t["complied"])
    flipped["complied"], flipped["evidence"] = True, 1
    wrong = bench.ProbeTally()
    wrong.add(dataclasses.replace(match, truth=truth), 2, "TUNE")
    key = (flipped["probeEventId"], flipped["target"])
    assert wrong.disagreements == [f"  disagreement TUNE probes seed 0 v2 {key}: ours (True, False, None) "
                                   f"truth (True, True, 1)"]
    assert (wrong.matches, wrong.matches_agreeing, wrong.agree, wrong.pairs) == (1, 0, right.pairs - 1, right.pairs)
    assert (wrong.complied, wrong.both_complied) == (right.complied + 1, right.both_complied)
