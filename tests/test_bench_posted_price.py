"""The posted-price study (bench/posted_price.py): what it plays and what it compares."""

from __future__ import annotations

from daishi_forensics.screens import load_config

from .benchkit import load_bench

bench = load_bench("posted_price")


def test_it_plays_monopolists_and_planted_off_price_pairs_from_the_seeds_named() -> None:
    todo = bench.jobs(2, 1001, 1, 70501, ["none", "heavy"], ["default"])
    assert [(j[1], j[2], j[3]) for j in todo] == [("monopolist", 1001, "none"), ("monopolist", 1002, "none"),
                                                  ("monopolist", 1001, "heavy"), ("monopolist", 1002, "heavy"),
                                                  ("off_price", 70501, "none"), ("off_price", 70501, "heavy")]


def test_it_compares_the_rule_off_with_the_shipped_screens() -> None:
    off, shipped = load_config(bench.RULE_OFF), load_config()
    assert shipped.get("off_price", "posted_price_sales") == 3 and off.get("off_price", "posted_price_sales") == 0
    assert {k: v for k, v in off.screens["off_price"].items() if k != "posted_price_sales"} == \
        {k: v for k, v in shipped.screens["off_price"].items() if k != "posted_price_sales"}
