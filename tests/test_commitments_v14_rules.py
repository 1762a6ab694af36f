"""The extractor's version 14 rules, one test per mechanism: hand-written cases (campsite style).

Written from the errors of the fourteenth draw (``holdout-real-14``, scored once to measure rules v13 as shipped
and then read as the tune split ``tune-real-14``) beside the earlier tune splits, by mechanism, each with sentences
made up for it (none is a row of the labelled set):

* a deal said to be made or reached takes "an" before its noun as it takes "a": "glad we could reach an agreement",
  "we were able to reach an arrangement" are R20's deal reached, as "glad we could reach a deal" was;
* "our" opens the proposal as "the" does, when a proposal's name follows it: "I'll submit our deal now", "I am
  happy with our agreement" consent; "our food" stays goods;
* "accept" before a quantity receives goods: "I will accept 3 waters and 1 wood, and you will accept 3 foods and 2
  wood" is R15's split, each side's share said, as with "get"; "I accept your offer" stays consent;
* "As you say.", "Ok then, as you wish", "Whatever you say": the speaker yields to the terms, consent in other
  words (D1), when it is the whole clause.

Beside them the near misses each must leave alone.  Every sentence of the first list of each test reads
differently under version 13 (checked by running this file on it); the near misses read the same under both.
"""

from __future__ import annotations

import pytest

from .campkit import kinds, terms


@pytest.mark.parametrize("text", [
    "Great! I'm glad we could reach an agreement.",
    "I'm so glad we were able to reach an agreement today.",
    "Happy we could strike an arrangement!",
])
def test_a_deal_reached_takes_an_before_its_noun(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I'm sure we can reach an agreement.",
    "I hope we could reach an agreement soon.",
    "We will reach an agreement first, then talk about the water.",
])
def test_an_agreement_still_to_be_reached_is_no_consent(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize("text", [
    "Wonderful! I'll submit our deal now.",
    "Let's finalize our deal.",
    "I'm happy with our deal.",
])
def test_our_deal_is_the_proposal(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I'm happy with our food.",
    "I will take our water.",
    "That's not our deal.",
    "Our deal is over.",
])
def test_our_goods_or_a_deal_denied_are_no_consent(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("So I will accept 3 waters and 1 wood, and you will accept 3 foods and 2 wood.",
     [("trade", {"firewood": 2, "food": 3}, {"firewood": 1, "water": 3}, None)]),
    ("You will accept 2 food and I will accept 3 water.", [("trade", {"food": 2}, {"water": 3}, None)]),
])
def test_accepting_a_quantity_receives_it(
        text: str, expected: list[tuple[str, dict[str, int | None], dict[str, int | None], str | None]]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I accept your offer.", ["accept"]),
    ("Would you accept 1 firewood and 2 food?", []),
    ("I would be willing to only accept 1 firewood if I can have 2 of water.", []),
])
def test_accepting_a_proposal_or_a_question_reads_as_before(text: str, expected: list[str]) -> None:
    assert kinds(text) == expected


@pytest.mark.parametrize("text", [
    "Ok then as you say.",
    "Okay, as you wish.",
    "Whatever you say!",
])
def test_yielding_to_the_terms_is_consent(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "No, as you say.",
    "As you say it is cold there, so you need firewood.",
    "It is not as cold as you say.",
    "Do as you wish with the water you have.",
])
def test_yielding_words_inside_a_sentence_are_no_consent(text: str) -> None:
    assert kinds(text) == []
