"""The wash-pair null's sums run over kinds of pair (same round trips, trips possible and
exchanges) instead of over every pair: the same yardsticks as the sum over every pair."""

from __future__ import annotations

import numpy as np

from daishi_forensics.screens import round_trip_null as rtn


def _per_pair(trips: np.ndarray, possible: np.ndarray, logn: np.ndarray, keep: np.ndarray,
              at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The yardsticks summed pair by pair (the rule as its docstring states it)."""
    rates = trips / possible
    floor = 1.0 / (1.0 + rtn.SPREAD)
    room = (possible - 1).astype(float)
    w = keep * possible[None, :].astype(float)
    centre = np.array([float(np.median(logn[k])) if k.any() else float(np.median(logn)) for k in keep])
    b0, b1 = rtn._fit(rates, w, logn, centre)
    fitted = np.clip(rtn._expit(b0[:, None] + b1[:, None] * logn[None, :]), 1e-9, 1 - 1e-9)
    excess = (trips[None, :] - possible[None, :] * fitted) ** 2 / (possible[None, :] * fitted * (1 - fitted)) - 1.0
    excess = np.where(room[None, :] > 0, np.minimum(excess, room[None, :]), 0.0)
    rho = ((keep * excess).sum(axis=1) + floor * rtn.PRIOR_ROOM) / ((keep * room[None, :]).sum(axis=1)
                                                                      + rtn.PRIOR_ROOM)
    rho = np.where(keep.sum(axis=1) > 0, rho, floor)
    rate = np.clip(rtn._expit(b0 + b1 * at), 1e-9, 1 - 1e-9)
    return rate, 1.0 / np.clip(rho, floor, 1.0 - 1e-6) - 1.0


def test_kinds_of_pair_give_the_per_pair_yardsticks() -> None:
    rng = np.random.default_rng(7)
    for size in (1, 5, 40, 300):
        exchanges = rng.integers(2, 30, size)
        possible = exchanges // 2
        trips = rng.binomial(possible, 0.2)
        trips[: size // 10] = possible[: size // 10]  # a few pairs that send everything back
        logn = np.log(exchanges.astype(float))
        keep = rng.random((7, size)) < 0.8
        keep[0] = False  # a row that keeps no pair
        at = logn[:7] if size >= 7 else np.resize(logn, 7)
        got = rtn.yardsticks(trips, possible, logn, keep, at)
        want = _per_pair(trips, possible, logn, keep, at)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=0)


def test_a_kind_weighs_as_many_pairs_as_it_holds() -> None:
    # three pairs of one kind: a row keeping all three weighs the kind three times, a row keeping one once
    trips, possible = np.array([1, 1, 1, 4]), np.array([3, 3, 3, 5])
    logn = np.log(np.array([6.0, 6.0, 6.0, 10.0]))
    keep = np.array([[True, True, True, True], [True, False, False, True]])
    got = rtn.yardsticks(trips, possible, logn, keep, logn[:2])
    want = _per_pair(trips, possible, logn, keep, logn[:2])
    assert not np.allclose(got[0][0], got[0][1])  # the rows keep different pairs, so their rates differ
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=0)
