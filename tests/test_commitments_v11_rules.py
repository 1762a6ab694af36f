"""The extractor's version 11 rules, one test per mechanism: hand-written cases (campsite style).

Written from the errors of the ninth and tenth draws (``holdout-real-9`` and ``holdout-real-10``, each scored as a
first look and then read as the tune splits ``tune-real-9`` and ``tune-real-10``), by mechanism, each with sentences
made up for it (none is a row of the labelled set):

* a consent whose object is amended ("I'll take the deal minus 1 food", "that works except the water") takes the
  proposal on terms of the speaker's own, a counter-offer (the guide's D5), no ``accept``;
* a consent just after the speaker's own share with a number ("I will take 2, it will be fair") judges the
  speaker's own terms, no ``accept``;
* a give with no price said after the message's one trade, in a later sentence, is more of that trade's give
  side (R14: one message with a give side and a receive side is one trade);
* a number before "items" or "things" ("you get 6 items") counts every good together, no one good left out;
* consent in other words: "I can spare that", "I can do that no problem", an emphatic "does" in the copula
  ("that does seem fair"), a degree word inside a consent phrase ("sounds like a pretty great deal").

Beside them the near misses each must leave alone.  Every sentence of the first list of each test reads
differently under version 10 (checked by running this file on it); the near misses read the same under both.
"""

from __future__ import annotations

import pytest

from .campkit import kinds, terms


@pytest.mark.parametrize("text", [
    "I will take the deal minus 1 pack of food.",
    "Ok, I accept your offer except the firewood.",
    "I'll take that deal plus one more water.",
    "That works for me without the water.",
])
def test_a_consent_with_its_object_amended_is_a_counter_not_consent(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", [
    "I will take the deal.",
    "That works for me without a doubt.",
    "I accept your offer without any problem.",
    "Ok, I'll take the deal, thanks!",
])
def test_a_consent_not_amended_stands(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I will take 2 it will be fair.",
    "So I get 3, that is fine.",
    "We keep 2 that seems fair",
])
def test_the_speakers_own_share_called_fair_is_no_consent(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", [
    "You take 2, that is fine.",
    "I think that is fair.",
    "Okay, that seems fair to me.",
])
def test_a_share_not_the_speakers_or_no_share_leaves_consent(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize(("text", "expected"), [
    ("I can give you 2 food if I get all the water. You can have most of the firewood.",
     [("trade", {"food": 2, "firewood": None}, {"water": None}, None)]),
    ("I'd give you 3 water for 2 firewood. You can have 1 food.",
     [("trade", {"food": 1, "water": 3}, {"firewood": 2}, None)]),
])
def test_a_give_said_after_the_one_trade_is_more_of_its_give_side(
        text: str, expected: list[tuple[str, dict[str, int | None], dict[str, int | None], str | None]]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # an alternative, not more of the same trade
    ("I'd give you 3 water for 2 firewood. Or you can have all the food.",
     [("trade", {"water": 3}, {"firewood": 2}, None), ("give", {"food": None}, {}, None)]),
    # said as an addition: a second offer beside the priced one (R19)
    ("I'd give you 3 water for 2 firewood. You can have 1 food as well.",
     [("trade", {"water": 3}, {"firewood": 2}, None), ("give", {"food": 1}, {}, None)]),
    # two trades: which one the give belongs to is not said
    ("I'll give you 2 water for 1 food. I'll give you 1 firewood for 2 water. Then you can have all the food.",
     [("trade", {"water": 2}, {"food": 1}, None), ("trade", {"firewood": 1}, {"water": 2}, None),
      ("give", {"food": None}, {}, None)]),
])
def test_an_alternative_or_a_second_trade_is_not_joined(
        text: str, expected: list[tuple[str, dict[str, int | None], dict[str, int | None], str | None]]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize("text", [
    "You can have 5 items, and I take 2 food.",
    "I will give you 4 items if I get the firewood.",
    "You can have five packages of items. I need 2 water.",
    "I can give you 3 things for 2 water.",
])
def test_a_count_of_items_names_no_good(text: str) -> None:
    assert kinds(text) == []


def test_a_number_before_a_measure_word_or_a_good_is_still_read() -> None:
    assert terms("I'll give you 3 packages of water.") == [("give", {"water": 3}, {}, None)]
    assert terms("You can have 2 items of food.") == [("give", {"food": 2}, {}, None)]


@pytest.mark.parametrize("text", [
    "Sure, I can spare that.",
    "I can do that no problem.",
    "That actually does seem fair.",
    "Yes, that does sound fair to me.",
    "That sounds like a pretty great deal.",
])
def test_consent_in_other_words(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I can spare 2 water.",
    "I can't spare that.",
    "I can do that later.",
    "That does not seem fair.",
    "Does that seem fair?",
    "That sounds like a pretty big family!",
])
def test_near_misses_of_consent_in_other_words(text: str) -> None:
    assert "accept" not in kinds(text)


def test_instead_splits_a_clause_into_the_offer_and_the_one_it_replaces() -> None:
    """Rule 3 splits at "instead" and "else" as at "or" (since version 11; version 10 read both goods as given)."""
    assert terms("I can give you 2 water instead of 3 food.") == [("give", {"water": 2}, {}, None)]
    assert terms("You can have 2 firewood, or else 1 food.") == [("give", {"firewood": 2}, {}, None)]
