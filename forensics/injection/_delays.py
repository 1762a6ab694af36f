"""How long this match's agents take to pass a text on: the lag window of :mod:`.propagation` rule 6,
learnt from the match instead of fixed.

Seed 002 §2.7 (a propagation index: how far payloads cascade).  A window too short loses the
slow forwarders' echoes; too long, it lets coincidences in.  The window starts at
:data:`~.propagation.MAX_LAG` awake ticks; the children whose parent is unambiguous (one heard copy
qualified) tell how long forwarding takes here.  Their delays, in awake ticks, are read as a
mixture: a geometric delay (each awake tick, the forwarder passes it on with chance ``p``) --
truncated, because only delays inside the window were seen -- and a share of lookalikes whose
delay is any tick of the window alike (:func:`fit_delays`, expectation-maximisation).  The window
is then the delay that all but :data:`TAIL` of the geometric delays stay within
(:func:`learnt_window`), never below the starting window and at most :data:`MAX_WIDEN` times it.
The window stays when the match says too little: fewer than :data:`MIN_CHILDREN` such children, or
delays spread so evenly over the window that the fit reads more than :data:`MAX_LOOKALIKES` of them
as lookalikes (a near-flat geometric and lookalikes cannot be told apart: widening on such delays
would let in more lookalikes, not more forwards).

>>> slow = [k for k in range(21) for _ in range(round(100 * 0.85 ** k))]   # forwarders slow to pass on
>>> fit = fit_delays(slow, 20)
>>> round(fit.p, 2), round(fit.lookalikes, 2), learnt_window(slow, 20)  # a little of the flat tail read as lookalikes
(0.16, 0.02, 27)
>>> quick = [k for k in range(21) for _ in range(round(100 * 0.7 ** k))]
>>> learnt_window(quick, 20)                    # all but 1% within 12 ticks: the window stays
20
>>> learnt_window(list(range(21)) * 3, 20)      # as many at every delay: read as lookalikes, the window stays
20
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["TAIL", "MAX_WIDEN", "MIN_CHILDREN", "MAX_LOOKALIKES", "DelayFit", "fit_delays", "learnt_window"]

TAIL = 0.01
"""Share of the geometric delays allowed beyond the learnt window."""

MAX_WIDEN = 3
"""The learnt window is at most this many times the starting window."""

MIN_CHILDREN = 12
"""Children with an unambiguous parent needed before the window is learnt."""

MAX_LOOKALIKES = 0.5
"""The window is learnt only when the fit reads at most this share of the delays as lookalikes."""

_GRID = 400
"""Values of ``p`` tried in (0, 1) (the geometric's truncated likelihood has no closed form)."""


@dataclass(frozen=True, slots=True)
class DelayFit:
    """The mixture read from the delays seen (module docstring)."""

    p: float
    """Chance per awake tick that a forwarder passes the text on."""
    lookalikes: float
    """Share of the delays that look like any tick of the window alike."""
    children: int
    """Delays read."""


def _truncated_geometric(p: np.ndarray, window: int) -> np.ndarray:
    """Per value of ``p`` (rows), P(delay = d | delay <= window) for d = 0..window (columns)."""
    q = 1.0 - p[:, None]
    d = np.arange(window + 1, dtype=np.float64)[None, :]
    return p[:, None] * q ** d / (1.0 - q ** (window + 1))


def fit_delays(delays: Sequence[int], window: int, rounds: int = 500) -> DelayFit:
    """The geometric delay and the lookalike share that make ``delays`` (each in ``0..window``, awake
    ticks) most likely, by expectation-maximisation; ``p`` chosen on a grid of :data:`_GRID` values."""
    seen = np.bincount(np.clip(np.asarray(delays, dtype=np.int64), 0, window), minlength=window + 1).astype(
        np.float64) if len(delays) else np.zeros(window + 1)
    n = float(seen.sum())
    if not n:
        return DelayFit(1.0, 0.0, 0)
    uniform = 1.0 / (window + 1)
    grid = (np.arange(_GRID, dtype=np.float64) + 0.5) / _GRID
    tables = _truncated_geometric(grid, window)
    logs = np.log(tables)
    best, share = _GRID // 2, 0.1
    for _round in range(rounds):
        pmf = tables[best]
        # E: per delay, the chance it is a forward's (not a lookalike's)
        weight = (1 - share) * pmf / ((1 - share) * pmf + share * uniform)
        share = float((seen * (1 - weight)).sum() / n)
        # M: the p whose truncated geometric best explains the forwards' delays (the first best on the grid)
        best = int(np.argmax(logs @ (seen * weight)))
    return DelayFit(float(grid[best]), share, int(n))


def learnt_window(delays: Sequence[int], window: int) -> int:
    """The lag window for this match (module docstring): ``window`` unless :data:`MIN_CHILDREN`
    delays or more, at most :data:`MAX_LOOKALIKES` of them read as lookalikes, show forwarding slower
    than it, then the delay all but :data:`TAIL` of the
    geometric delays stay within, at most :data:`MAX_WIDEN` times ``window``."""
    if len(delays) < MIN_CHILDREN or window <= 0:
        return window
    fit = fit_delays(delays, window)
    if fit.p >= 1.0 or fit.lookalikes > MAX_LOOKALIKES:
        return window
    within = math.ceil(math.log(TAIL) / math.log(1.0 - fit.p)) - 1
    return max(window, min(MAX_WIDEN * window, within))
