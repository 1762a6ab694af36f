"""Tarone's reduction (``stats.testable_family``) counts the tests that can reach a level by
bisection: the same family, in the same order, as counting them level by level."""

from __future__ import annotations

import random

from daishi_forensics.screens import stats


def _level_by_level(tests: list[stats.Test], alpha: float) -> list[stats.Test]:
    """The rule as stated: the smallest K such that at most K tests can reach alpha / K."""
    for k in range(1, len(tests) + 1):
        family = [t for t in tests if t.min_p <= alpha / k]
        if len(family) <= k:
            return family
    return tests


def test_hand_made_family() -> None:
    # floors 0.009, 0.004, 0.5, 0.001 at alpha 0.02: K=1 admits three (<= 0.02), K=2 three (<= 0.01),
    # K=3 two (<= 0.0067): 2 <= 3, so the family is a and b, in the order given
    tests = [stats.Test("c", 0.3, 0.009), stats.Test("a", 0.2, 0.004), stats.Test("d", 0.9, 0.5), stats.Test("b", 0.1, 0.001)]
    assert [t.key for t in stats.testable_family(tests, 0.02)] == ["a", "b"]


def test_same_family_as_level_by_level() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        n = rng.randint(0, 60)
        tests = [stats.Test(i, 1.0, rng.choice([0.0, 1.0, rng.random() * 0.05, rng.random(), 0.01 / rng.randint(1, 30)]))
                 for i in range(n)]
        alpha = rng.choice([0.02, 0.05, 0.001])
        assert [t.key for t in stats.testable_family(tests, alpha)] == [t.key for t in _level_by_level(tests, alpha)]
