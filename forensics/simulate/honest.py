"""Honest patterns a scenario sets up on purpose: play that looks like collusion to the screens and is not.

Unlike the behaviors of :mod:`.collusion`, these plant nothing: truth lists their seats under
``honest_suspicious``, never under ``planted``, so a benchmark counts any flag on them as a false alarm.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .planted import Behavior
from .world import Agent

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["ScarceSeller"]


class ScarceSeller(Behavior):
    """A seat holds a cheap good its buyers lack, and each of two or three buyers pays it one whole dear item for
    one of it, again and again (``price`` whole dear items with a ``price`` above one: a monopolist's asking).

    Honest whole-item trading at its most one-sided: a buyer whose spare goods are dear (a tool, a cloth, a
    plank it crafted) pays one of them for the one cheap good it needs now, up to twelve times its reference value,
    and buys it from the one seat that has it each time, never the other way.  Each buyer's trades with the
    seller are whole-item overpayments all one way; the seller is overpaid by everyone it sells to.  Truth lists
    each buyer with the seller as ``honest_suspicious`` kind ``scarce_seller`` (with three trades or more).

    With ``price`` 2 (scenario ``monopolist``) the seller asks two of the buyer's dear items for one, and it is
    paid: honest still (a buyer that needs the good now pays what its only holder asks), and beyond one whole
    item each such trade reads as value handed over, which the feeder screen's pooled test, with trades pooled
    (not as shipped), pools into a feed.
    """

    kind = "scarce_seller"

    def __init__(self, price: int = 1) -> None:
        super().__init__()
        self.price = price

    _GOODS = ("fiber", "wood", "stone", "food")
    """The cheap good the seller holds (one per match)."""
    _DEAR = {"tool": "tools", "cloth": "cloth", "plank": "planks"}
    """Dear item a buyer pays with -> the project that crafts it."""

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        got = self.claim(sim, 1 + rng.randint(2, 3), least=3)
        if not got:
            return
        self.seller, self.buyers = got[0], got[1:]
        self.good = self._GOODS[int(rng.random() * len(self._GOODS))]
        self.seller.tags.append("scarce-seller")
        sim.set_want(self.seller, self.good)
        sim.organic["scarce_seller"] = {"seller": self.seller.id, "buyers": [b.id for b in self.buyers],
                                        "good": self.good, "price": self.price}
        dear = sorted(self._DEAR)
        for buyer in self.buyers:
            item = dear[int(rng.random() * len(dear))]
            buyer.tags.append("scarce-buyer")
            sim.set_project(buyer, self._DEAR[item])
            period = rng.randrange(8, 20)
            start = int(sim.planned * (0.05 + 0.2 * rng.random())) + rng.randrange(period)

            def every(p: int = period) -> int:
                return p + rng.randint(-2, 3)

            self._repeat(buyer, start, every, self._buy(buyer, item))

    def before_tick(self, t: int) -> None:
        if self.active and t % 5 == 0 and self.seller.carried.get(self.good, 0) < 4:
            assert self.sim is not None
            self.sim.set_want(self.seller, self.good)  # keeps a stock of what it sells

    def _buy(self, buyer: Agent, item: str) -> Callable[[int], bool | None]:
        """``buyer``'s turn: ``price`` of ``item`` for one of the seller's good; None (try again soon) while either
        side lacks its part."""
        sim = self.sim
        assert sim is not None

        def act(t: int) -> bool | None:
            seller, good = self.seller, self.good
            if not (buyer.active and seller.active) or buyer.outgoing is not None:
                return False
            if buyer.carried.get(item, 0) < self.price:
                if buyer.project != self._DEAR[item]:
                    sim.set_project(buyer, self._DEAR[item])
                return None
            if seller.carried.get(good, 0) < 1:
                sim.set_want(seller, good)
                return None
            return sim.offer(buyer, seller, {item: self.price}, {good: 1}, tag="scarce", accept_p=0.9,
                             ttl=6) is not None

        return act
