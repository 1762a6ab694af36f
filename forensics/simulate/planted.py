"""The base of every planted behavior, and helpers they share."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .world import ITEM_VALUES, Agent

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["Behavior", "goods_worth"]


class Behavior:
    """A planted pattern.  Subclasses set :attr:`kind` and override the hooks they need."""

    kind = ""
    probe_seats = 0

    def __init__(self) -> None:
        self.sim: Simulation | None = None
        self.active = False

    def bind(self, sim: Simulation) -> None:
        """Pick seats and schedule the first actions."""
        self.sim = sim

    def claim(self, sim: Simulation, k: int, *, least: int) -> list[Agent]:
        """Up to ``k`` free seats for this behavior, or none (given back) if fewer than
        ``least`` are free; with seats it becomes :attr:`active`."""
        got = sim.take_free(k)
        if len(got) < least:
            sim.free[:0] = got
            return []
        self.active = True
        return got

    def members(self) -> list[Agent]:
        """The seats this behavior plays (kept out of the organic parts)."""
        return []

    def before_tick(self, t: int) -> None:
        """Phase 0 of tick ``t`` (after world events, before moves)."""

    def after_tick(self, t: int) -> None:
        """End of tick ``t``."""

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        """Append this behavior's ground truth."""

    # helpers
    def _repeat(self, a: Agent, first: int, period: Callable[[], int], act: Callable[[int], bool | None],
                retry: int = 2) -> None:
        """Run ``act`` as ``a``'s turn at ``first`` and then every ``period()`` ticks.

        ``act`` returns True when it used the turn, False when it did not, and None when it
        could not act yet and wants another go ``retry`` ticks later.
        """
        sim = self.sim
        assert sim is not None

        def task(t: int) -> bool:
            done = act(t)
            sim.add_task(a, t + (retry if done is None else max(1, period())), task)
            return bool(done)

        sim.add_task(a, first, task)


def goods_worth(a: Agent, target: float, rng: random.Random) -> dict[str, int]:
    """Goods from what ``a`` carries worth about ``target``, dearest first."""
    out: dict[str, int] = {}
    left = target
    for k in sorted(a.carried, key=lambda k: (-ITEM_VALUES[k], k)):
        if left <= 0:
            break
        v = ITEM_VALUES[k]
        n = min(a.carried[k], max(1, int(left / v + rng.random())))
        out[k] = n
        left -= n * v
    return out
