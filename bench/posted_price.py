"""A lead, on seen seeds only: does an off-price flag's beneficiary sell the same good on such terms to others?

    python bench/posted_price.py [--seeds 20] [--noise none] [--workers N]

The screens as shipped raise honest ``monopolist`` matches (a scarce good's holder asking two whole dear items
for one, and paid by two or three buyers) through the off-price screen on the seller-buyer pairs, as they raise
planted ``off_price`` pairs.  What may tell them apart is a posted price: a seller asks every buyer of its good the
same.  For every off-price flag of the screens as shipped, in ``monopolist`` matches (seeds 1 to N) and planted
``off_price`` matches (the screens benchmark's tune seeds 1 to N), this counts the flags whose beneficiary also
received, from some seat other than the flag's payer, at least :data:`MIN_SALES` trades in which it gave that
seat one good only (one the payer had bought from it on such terms too) and got at least :data:`LOPSIDED` times its
value back.  Nothing is shipped on it: a lead for a rule to be tuned on these seeds and gated on new ones.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter, defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import screens  # noqa: E402  (bench/screens.py: the simulation)

LOPSIDED = 3.0
"""A sale on lopsided terms: the buyer gave at least this many times the value of the one good it got."""
MIN_SALES = 3
"""Lopsided sales of the good to one other seat that make it a posted price."""


def lopsided_sales(view: Any) -> dict[tuple[Any, Any], Counter[Any]]:
    """``(seller, good) -> {buyer: sales}``: trades in which the seller gave one good only and got at least
    :data:`LOPSIDED` times its value.

    >>> import networkx as nx
    >>> from daishi_forensics.screens.graph import TransferView
    >>> G = nx.MultiDiGraph()
    >>> for i, buyer in enumerate(["p", "p", "q"]):
    ...     _ = G.add_edge(buyer, "s", value=24.0, tick=i, event=f"{i}a", exchange=i, goods={"tool": 24.0})
    ...     _ = G.add_edge("s", buyer, value=2.0, tick=i, event=f"{i}b", exchange=i, goods={"fiber": 2.0})
    >>> dict(lopsided_sales(TransferView(G)))
    {('s', 'fiber'): Counter({'p': 2, 'q': 1})}
    """
    out: dict[tuple[Any, Any], Counter[Any]] = defaultdict(Counter)
    for (a, b), pair in view.pairs.items():
        for x in pair.exchanges:
            if not x.two_sided:
                continue
            for seller, buyer in ((a, b), (b, a)):
                sold, paid = x.goods.get(seller, {}), x.goods.get(buyer, {})
                if len(sold) == 1 and sum(paid.values()) >= LOPSIDED * sum(sold.values()) > 0:
                    out[(seller, next(iter(sold)))][buyer] += 1
    return out


def read(job: tuple[str, str, int, str]) -> tuple[str, int, int]:
    """One match: its scenario, its off-price flags, and how many of them have a posted-price beneficiary."""
    from daishi_forensics.screens import screen_graph
    from daishi_forensics.screens.graph import TransferView

    _split, kind, _seed, _level, graph, _truth = screens.simulate(job)
    sales = lopsided_sales(TransferView(graph))
    flags = posted = 0
    for f in screen_graph(graph).flags:
        if f.screen != "off_price":
            continue
        gainer, payer = f.details.get("beneficiary"), f.details.get("payer")
        flags += 1
        posted += any(seller == gainer and buyers.get(payer, 0) >= 1
                      and any(n >= MIN_SALES for q, n in buyers.items() if q != payer)
                      for (seller, _good), buyers in sales.items())
    return kind, flags, posted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--noise", default="none")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    levels = args.noise.split(",")
    todo = [("scarce", "monopolist", 1 + i, lv) for lv in levels for i in range(args.seeds)]
    todo += [("tune", "off_price", 1 + i, lv) for lv in levels for i in range(args.seeds)]
    with Pool(args.workers) as pool:
        rows = pool.map(read, todo)
    print(f"seen seeds 1-{args.seeds} (monopolist; off_price: the screens benchmark's tune split), noise "
          f"{', '.join(levels)}, the screens as shipped:")
    for kind in ("monopolist", "off_price"):
        mine = [r for r in rows if r[0] == kind]
        print(f"  {kind:11s} off-price flags {sum(r[1] for r in mine)}, of them with a posted-price beneficiary "
              f"{sum(r[2] for r in mine)}")


if __name__ == "__main__":
    main()
