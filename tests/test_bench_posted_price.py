"""The posted-price lead (bench/posted_price.py): its reading of lopsided sales, on a hand-built graph."""

from __future__ import annotations

import networkx as nx

from daishi_forensics.screens.graph import TransferView

from .benchkit import load_bench

bench = load_bench("posted_price")


def _sale(G: nx.MultiDiGraph, buyer: str, seller: str, i: int, paid: dict[str, float], sold: dict[str, float]) -> None:
    G.add_edge(buyer, seller, value=sum(paid.values()), tick=i, event=f"{i}a", exchange=i, goods=paid)
    G.add_edge(seller, buyer, value=sum(sold.values()), tick=i, event=f"{i}b", exchange=i, goods=sold)


def test_a_sale_is_lopsided_at_three_times_the_good_s_value_and_one_good_sold() -> None:
    G = nx.MultiDiGraph()
    _sale(G, "p", "s", 0, {"tool": 24.0}, {"fiber": 2.0})  # 12 times: lopsided
    _sale(G, "q", "s", 1, {"wood": 6.0}, {"fiber": 2.0})  # exactly 3 times: lopsided
    _sale(G, "r", "s", 2, {"wood": 5.0}, {"fiber": 2.0})  # 2.5 times: not
    _sale(G, "t", "s", 3, {"tool": 24.0}, {"fiber": 2.0, "wood": 2.0})  # two goods sold: not a sale of one
    assert dict(bench.lopsided_sales(TransferView(G))) == {("s", "fiber"): {"p": 1, "q": 1}}
