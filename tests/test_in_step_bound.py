"""The wash-cycle in-step rule's bound for a cycle too long to shuffle: the constant it rests on (one swap of two
places moves the runs by 8 at most), the exact mean, the bound never below the exact tail, and a long cycle read by
it in the screen."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import numpy as np
import pytest

from daishi_forensics.screens import wash_cycle as W
from daishi_forensics.screens.graph import TransferView

PARAMS = {"max_leg_ratio": 1.5, "max_cycle_length": 5, "cycle_threshold": 3, "max_member_imbalance": 0.3,
          "max_search_steps": 10000, "wash_cycle_lean": False, "wash_cycle_in_step": 0.05,
          "wash_cycle_in_step_pays": True}


def _orders(counts: tuple[int, ...]) -> np.ndarray:
    """Every distinct order of legs ``0 .. len(counts) - 1``, leg ``k`` ``counts[k]`` times (rows)."""
    labels = [k for k, c in enumerate(counts) for _ in range(c)]
    return np.array(sorted(set(itertools.permutations(labels))), dtype=np.int16)


def _mean(counts: tuple[int, ...]) -> float:
    """The runs' mean by the Wald-Wolfowitz formula, summed over the members (member ``k`` reads legs ``k - 1``
    and ``k``)."""
    size = len(counts)
    pairs = [(counts[(k - 1) % size], counts[k]) for k in range(size)]
    return sum(1 + 2 * a * b / (a + b) for a, b in pairs if a + b)


def test_one_swap_of_two_places_moves_the_runs_by_eight_at_most_and_eight_is_reached() -> None:
    """Random orders of three to five legs, every swap of two places: the runs move by 8 at most (the constant the
    bound rests on).  And 8 is reached (the constant is not loose): legs ``2 1 1 1 2 0 0 2 0`` show 9 runs (4, 2
    and 3 for the members reading legs 2 and 0, 0 and 1, 1 and 2); places 2 and 6 swapped, ``2 1 0 1 2 0 1 2 0``,
    17 (6, 6 and 5)."""
    rng = random.Random(3)
    for size in (3, 4, 5):
        for _ in range(200):
            row = [rng.randrange(size) for _ in range(rng.randint(4, 14))]
            base = int(W._runs(np.array([row], dtype=np.int16), size)[0])
            swapped = []
            for i, j in itertools.combinations(range(len(row)), 2):
                other = row[:]
                other[i], other[j] = other[j], other[i]
                swapped.append(other)
            assert int(np.abs(W._runs(np.array(swapped, dtype=np.int16), size) - base).max()) <= W.IN_STEP_SWAP == 8
    before, after = [2, 1, 1, 1, 2, 0, 0, 2, 0], [2, 1, 0, 1, 2, 0, 1, 2, 0]
    assert W._runs(np.array([after, before], dtype=np.int16), 3).tolist() == [17, 9]


@pytest.mark.parametrize("counts", [(3, 3, 3), (2, 3, 4), (4, 1, 3), (2, 2, 1, 2), (1, 2, 1, 2, 1)])
def test_the_runs_mean_is_exact_and_the_bound_never_falls_below_the_exact_tail(counts: tuple[int, ...]) -> None:
    """Every order of the legs counted: the runs' mean is the Wald-Wolfowitz sum, and for every count of runs an
    order can show, the chance of at least that many is at most the bound :func:`in_step_bound` reads."""
    orders = _orders(counts)
    runs = W._runs(orders, len(counts))
    assert float(runs.mean()) == pytest.approx(_mean(counts), rel=1e-12)
    n = sum(counts)
    for r in sorted(set(runs.tolist())):
        exact = float((runs >= r).mean())
        excess = r - _mean(counts)
        bound = 1.0 if excess <= 0 else math.exp(-2 * excess ** 2 / ((n - 1) * 64))
        assert exact <= bound


def _long_cycle(laps: int) -> tuple[nx.MultiDiGraph, dict[tuple[str, str], list[tuple[int]]]]:
    """Wood round a -> b -> c ``laps`` times, each seat passing it on a tick after it arrives (gifts, worth 6)."""
    graph = nx.MultiDiGraph()
    legs: dict[tuple[str, str], list[tuple[int]]] = {("a", "b"): [], ("b", "c"): [], ("c", "a"): []}
    for lap in range(laps):
        for i, (u, v) in enumerate((("a", "b"), ("b", "c"), ("c", "a"))):
            tick = 3 * lap + i
            graph.add_edge(u, v, value=6.0, tick=tick, event=f"e{tick}", exchange=f"e{tick}", goods={"wood": 6.0})
            legs[(u, v)].append((tick,))
    return graph, legs


def test_in_step_bound_by_hand() -> None:
    """Sixty laps, every member ``in out in out ...``: 120 places each, 360 runs (the most any order shows); the
    mean 3 x (1 + 2 x 60 x 60 / 120) = 183; the excess 177 over 180 transfers: exp(-2 x 177^2 / (179 x 64)) =
    0.004214; the smallest the bound can give is the same (these runs are the most)."""
    _graph, legs = _long_cycle(60)
    p, n, (runs, mean), least = W.in_step_bound(("a", "b", "c"), legs)
    assert (n, runs, mean) == (180, 360, 183.0)
    assert p == least == pytest.approx(math.exp(-2 * 177 ** 2 / (179 * 64)), rel=1e-12)
    assert round(p, 6) == 0.004214
    assert W.in_step_bound(("a", "b", "c"), {("a", "b"): [(0,)]})[0] == 1.0  # one transfer: nothing to bound


def test_a_cycle_whose_draws_would_outrun_the_budget_is_read_by_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same sixty laps, the match's shuffle budget cut to 100,000 places: the cycle's 2,000 draws of 180 places
    (360,000) would outrun it, so its order is read by the bound, 0.004214, within the level 0.05 (one cycle met):
    a wash cycle, its flag saying how its order was read, the null naming the bound, and no cycle left unread.
    With the budget as shipped the same cycle is shuffled: the same seats flagged, the order at the draws' floor
    1 / 2001 and no bound in the flag."""
    graph, _legs = _long_cycle(60)
    shuffled, notes = W.wash_cycles(TransferView(graph), PARAMS)
    assert notes == [] and [f.agents for f in shuffled] == [("a", "b", "c")]
    assert shuffled[0].details["inStep"] == {"p": 1 / 2001, "transfers": 180}
    monkeypatch.setattr(W, "IN_STEP_BUDGET", 100_000)
    [flag], notes = W.wash_cycles(TransferView(graph), PARAMS)
    assert notes == [] and flag.agents == ("a", "b", "c") and flag.kind == "wash_cycle"
    p = math.exp(-2 * 177 ** 2 / (179 * 64))
    assert flag.details["inStep"] == {"p": pytest.approx(p, rel=1e-12), "transfers": 180,
                                      "bound": {"runs": 360, "mean": 183.0}}
    assert flag.null == W.CYCLE_NULL + W.ORDER_PAYS_NULL + W.ORDER_BOUND_NULL
    assert ("(in step: p 0.0042, a bound: 360 runs where a shuffle gives 183 on average)" in flag.explanation)
    # Fisher's product of the coin (all 180 along: two-sided, 2 x 2^-180) and the order over the level (p / 0.05):
    # t (1 - ln t) = 1.4027e-53 (no absolute tolerance: the default one would pass any number this small)
    t = 2 * 0.5 ** 180 * (p / 0.05)
    assert flag.p_value == pytest.approx(t * (1 - math.log(t)), rel=1e-9, abs=0)
    assert f"{flag.p_value:.4e}" == "1.4027e-53"
