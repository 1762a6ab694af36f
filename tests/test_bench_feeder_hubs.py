"""The pooled-hub study (bench/feeder_hubs.py): what it compares, and that it plays tune seeds only."""

from __future__ import annotations

from daishi_forensics.screens import load_config

from .benchkit import load_bench

bench = load_bench("feeder_hubs")
screens_bench = load_bench("screens")


def test_it_compares_the_pooled_test_off_with_it_on_over_gifts_and_over_every_exchange_at_each_floor() -> None:
    shipped = load_config()
    (off_label, off), *on = bench.configs((2, 3))
    assert off_label == "off" and off.get("feeder", "hub_pool") is False
    assert [label for label, _ in on] == ["gifts (floor 2)", "all (floor 2)", "gifts (floor 3)", "all (floor 3)"]
    for (_label, config), (floor, trades) in zip(on, [(2, False), (2, True), (3, False), (3, True)]):
        assert config.screens["feeder"] == {**shipped.screens["feeder"], "hub_pool": True,
                                            "hub_pool_trades": trades, "hub_min_spoke_exchanges": floor}
    for _label, config in [(off_label, off), *on]:
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


def test_seeds_other_than_the_tune_split_s_are_named_held_out() -> None:
    firsts = bench.Firsts(134001, 150301, 3051, 2001, 12001)
    assert not firsts.tune and bench.Firsts().tune
    todo = bench.jobs(2, 2, 1, ["light"], ["default"], (3,), 1, firsts)
    assert {j[0] for j in todo if j[1] not in bench.HONEST_WORLDS} == {"held-out"}
    assert sorted({j[2] for j in todo if j[1] == "feeder"}) == [134001, 134002]
    assert sorted({j[2] for j in todo if j[1] == "clean"}) == [150301, 150302]
    assert [j[2] for j in todo if j[1] in bench.HONEST_WORLDS] == [3051, 2001]
