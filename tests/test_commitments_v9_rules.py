"""The extractor's version 9 rules, one test per mechanism: hand-written cases (campsite style).

Each case is a sentence made up for its rule (none is a row of the labelled set, none copied from one), beside
the near misses the rule must leave alone: a "then" (or "and") with only interjections before it is a
discourse word, and the consent after it stands, while one after a demand keeps reading as a demand (R18); and
what stands before a "but" ahead of a consent is a concession, negating and hedging nothing after it, while a
"but" after the consent still takes it back (R21).

Six of the consenting sentences read as no consent under version 8 (checked by running this file on it); three
("Alright then, we have a deal", "Not what I hoped for, but that works for me.", "It's not much but I can live
with that, deal.") were already read as consent by other rules, and stay as cases the new rules must not break.
The near misses hold under both versions: they guard the rules' edges.
"""

from __future__ import annotations

import pytest

from .campkit import kinds


@pytest.mark.parametrize("text", [
    "Okay, then we have a deal.",
    "Then we have a deal!",
    "Alright then, we have a deal",
    "Yes, and we have a deal.",
    "Great, then you have yourself a deal.",
])
def test_a_discourse_then_leaves_the_consent_standing(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "Give me 3 water and you have a deal.",
    "Add one firewood then we have a deal.",
    "If you throw in the food then we have a deal",
])
def test_a_demand_before_then_is_still_a_demand(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", [
    "not ideal but I can work with that",
    "Not what I hoped for, but that works for me.",
    "It's not much but I can live with that, deal.",
    "No extra water? Fine, not perfect but I can work with that.",
])
def test_a_concession_before_but_negates_nothing_after_it(text: str) -> None:
    assert "accept" in kinds(text)


@pytest.mark.parametrize("text", [
    "I can't work with that",
    "That works but I need all the water.",
    "Sounds fair, but I need 3 firewood.",
    "I would not agree to that",
])
def test_a_negation_of_the_consent_itself_or_a_but_after_it_still_takes_it_back(text: str) -> None:
    assert "accept" not in kinds(text)
