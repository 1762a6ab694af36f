"""Welfare and dispersion of a match: Nash welfare, total wealth, Gini, each seat's share.

Seed 002 §2.8 (*Population-level outcomes*, Welfare Diplomacy): report per-match
Nash welfare (the geometric mean of final utilities) and score dispersion
alongside individual rank.

Rules:

- **Final wealth** is the archive's ``agents[].wealth`` (contract §4b: the seeds do
  not publish the wealth formula, so it is taken on trust).  A seat whose archive
  row has no wealth takes its last ``agent_snapshot`` wealth (``basis:
  "snapshot"``); with neither it is left out of every figure and listed in
  ``missing``.  Every seat of the archive counts (players, anchors and probes).
- **Nash welfare** = ``exp(mean(log(max(w, floor))))`` with the floor
  :data:`NASH_WEALTH_FLOOR` = 1: one seat ending at 0 (or in debt) would otherwise
  make the geometric mean 0 whatever everyone else did; with the floor it pulls the
  mean down as a seat worth 1 would.  The sum of logs is exact
  (:func:`math.fsum`), so the figure does not depend on seat order.
- **Total** = Σ wealth (:func:`math.fsum`).  **Share** = wealth ÷ total (None when
  the total is not positive).
- **Gini** = Σ_i Σ_j |w_i − w_j| ÷ (2 n² · mean), computed as
  Σ_k (2k − n − 1) · w_(k) ÷ (n · Σ w) over the wealth sorted ascending (k from 1);
  0 = equal, towards 1 = one seat holds everything; None with no seat or a total
  that is not positive.  Wealth is taken as archived (a negative wealth is
  possible in principle and can push the figure past 1).

Unrounded here; :mod:`.profile` rounds.

>>> w = welfare({"a": 10.0, "b": 30.0, "c": 0.0})
>>> w.total, round(w.nash, 4), w.gini
(40.0, 6.6943, 0.5)
>>> w.share("b")
0.75
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["NASH_WEALTH_FLOOR", "Welfare", "nash_welfare", "gini", "welfare"]

NASH_WEALTH_FLOOR = 1.0
"""Wealth below this counts as this in the Nash welfare (stated in every report)."""


def nash_welfare(wealth: list[float], floor: float = NASH_WEALTH_FLOOR) -> float | None:
    """Geometric mean of ``max(w, floor)``; None for no seat.

    Computed as ``exp(fsum(log) / n)`` (a product of many wealths would overflow), so
    it is exact only to the last bits of the double; the report rounds it to cents.

    >>> round(nash_welfare([4.0, 9.0]), 9)
    6.0
    >>> round(nash_welfare([0.0, 100.0]), 9)
    10.0
    """
    if not wealth:
        return None
    return math.exp(math.fsum(math.log(max(w, floor)) for w in wealth) / len(wealth))


def gini(wealth: list[float]) -> float | None:
    """Gini coefficient of ``wealth``; None for no seat or a total that is not positive.

    >>> gini([1.0, 1.0, 1.0])
    0.0
    >>> gini([0.0, 0.0, 3.0])
    0.6666666666666666
    """
    n = len(wealth)
    total = math.fsum(wealth)
    if n == 0 or total <= 0:
        return None
    ordered = sorted(wealth)
    weighted = math.fsum((2 * k - n - 1) * w for k, w in enumerate(ordered, 1))
    return weighted / (n * total)


@dataclass(frozen=True, slots=True)
class Welfare:
    """A match's welfare figures."""

    wealth: Mapping[str, float]
    """agent -> final wealth (sorted by agent)."""
    basis: Mapping[str, str]
    """agent -> ``archive`` or ``snapshot``."""
    missing: tuple[str, ...]
    """Seats with no wealth anywhere (left out)."""
    total: float
    """Σ wealth."""
    nash: float | None
    """Nash welfare with :data:`NASH_WEALTH_FLOOR`."""
    gini: float | None
    """Gini coefficient."""
    floor: float = NASH_WEALTH_FLOOR
    """The floor used."""

    def share(self, agent: str) -> float | None:
        """The agent's share of the total; None when it has no wealth or the total is not positive."""
        if agent not in self.wealth or self.total <= 0:
            return None
        return self.wealth[agent] / self.total


def welfare(
    wealth: Mapping[str, float | None],
    basis: Mapping[str, str] | None = None,
) -> Welfare:
    """The welfare figures of ``wealth`` (agent -> final wealth or None)."""
    have = {a: float(w) for a, w in sorted(wealth.items()) if w is not None}
    missing = tuple(sorted(a for a, w in wealth.items() if w is None))
    values = [have[a] for a in sorted(have)]
    return Welfare(
        wealth=have,
        basis={a: (basis or {}).get(a, "archive") for a in have},
        missing=missing,
        total=math.fsum(values),
        nash=nash_welfare(values),
        gini=gini(values),
    )
