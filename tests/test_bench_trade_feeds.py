"""The study of feeds paid in trades (bench/trade_feeds.py): what it compares and how it counts."""

from __future__ import annotations

from collections import Counter

from daishi_forensics.screens import load_config

from .benchkit import load_bench

bench = load_bench("trade_feeds")


def test_it_compares_the_shipped_screens_with_trade_feeds_review_off_and_on() -> None:
    shipped = load_config()
    ways = bench.configs()
    assert list(ways) == ["flag", "review"]
    for way, config in ways.items():
        assert config.screens["feeder"] == {**shipped.screens["feeder"], "trade_feeds_review": way == "review"}
        assert {k: v for k, v in config.screens.items() if k != "feeder"} == \
            {k: v for k, v in shipped.screens.items() if k != "feeder"}


def test_it_counts_planted_feeder_pairs_at_each_level_and_honest_verdicts_each_way() -> None:
    planted = [{"kind": "feeder", "beneficiary": "h", "spokes": ["s1", "s2"]}]
    pairs = set().union(*(bench.screens.planted_pairs(p) for p in planted))
    rows = [
        (("tune", "feeder", 1, "none", "default"), {"flag": (pairs, pairs, "flag"), "review": (pairs, set(), "review")},
         planted),
        (("scarce", "monopolist", 1, "none", "default"), {"flag": (set(), set(), "flag"),
                                                          "review": (set(), set(), "review")}, []),
        (("tune", "clean", 1001, "none", "default"), {"flag": (set(), set(), "clear"),
                                                      "review": (set(), set(), "clear")}, []),
    ]
    counts = bench.tally(rows, lambda job: True)
    assert counts["flag"] == Counter({"feeder pairs": len(pairs), "feeder raised": len(pairs), "feeder at flag":
                                      len(pairs), "planted matches": 1, "planted flag": 1, "monopolist matches": 1,
                                      "monopolist not clear": 1, "monopolist flag": 1, "honest matches": 1})
    assert counts["review"]["feeder at flag"] == 0 and counts["review"]["monopolist flag"] == 0
    assert bench.line(counts["review"]) == (
        f"feeder pairs raised {len(pairs)}/{len(pairs)}, at flag 0; planted matches flag 0/1; honest not clear 0/1, "
        "flag 0; monopolist not clear 1/1, flag 0")
