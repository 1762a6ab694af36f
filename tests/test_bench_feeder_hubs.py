"""The pooled-hub study (bench/feeder_hubs.py): what it compares, and that it plays tune seeds only."""

from __future__ import annotations

from daishi_forensics.screens import load_config

from .benchkit import load_bench

bench = load_bench("feeder_hubs")
screens_bench = load_bench("screens")


def test_it_compares_the_shipped_screens_with_the_pooled_test_on_at_each_floor() -> None:
    shipped = load_config()
    (off_label, off), *on = bench.configs((2, 3))
    assert off_label == "off" and off.digest == shipped.digest and off.get("feeder", "hub_pool") is False
    assert [label for label, _ in on] == ["on (floor 2)", "on (floor 3)"]
    for (_label, config), floor in zip(on, (2, 3)):
        assert config.screens["feeder"] == {**shipped.screens["feeder"], "hub_pool": True,
                                            "hub_min_spoke_exchanges": floor}
        assert {k: v for k, v in config.screens.items() if k != "feeder"} == \
            {k: v for k, v in shipped.screens.items() if k != "feeder"}


def test_its_matches_are_the_tune_split_s_and_below_every_held_out_seed() -> None:
    """Planted from 1 and honest from 1001 (the screens benchmark's tune split), at most 1,000 of each: every
    seed below the first held-out split's."""
    todo = bench.jobs(1000, 1000, 0, ["none"], ["default"], (3,))
    planted = {j[2] for j in todo if j[1] != "clean"}
    honest = {j[2] for j in todo if j[1] == "clean"}
    assert (min(planted), max(planted), min(honest), max(honest)) == (1, 1000, 1001, 2000)
    assert {j[0] for j in todo} == {"tune"} and screens_bench.SPLITS["tune"] == 1
    assert max(honest) < min(first for name, first in screens_bench.SPLITS.items() if name != "tune")
    assert {j[1] for j in todo} == {*screens_bench.KINDS, "clean"}
