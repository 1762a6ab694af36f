"""The extractor's version 13 rules, one test per mechanism: hand-written cases (campsite style).

Written from the errors of the twelfth draw (``holdout-real-12``, scored once as the judge of rules v12 and then
read as the tune split ``tune-real-12``) beside the earlier tune splits, by mechanism, each with sentences made up
for it (none is a row of the labelled set):

* a restatement checked by a question of check words alone, its copula dropped ("That correct right?", "that
  right?"), is R3's restatement made to check understanding, as "Is that correct?" is: no commitment;
* asking which proposal is meant while restating its terms ("are you talking about where I get 2 food and you
  get 1 water") checks understanding too (R3); asking about a good ("are you talking about the water?") does not;
* the speaker reporting its own earlier words ("I said I would get all 3 firewood", "I told you that ...") makes
  a claim about the past (R8), as a report of the addressee's words does; "like I said, ..." says the terms
  again as the speaker's own now;
* a reason given after a consent act ("we can do that since you gave me more water") closes its object, as a
  comma does: the consent stands.

Beside them the near misses each must leave alone.  Every sentence of the first list of each test reads
differently under version 12 (checked by running this file on it); the near misses read the same under both.
"""

from __future__ import annotations

import pytest

from .campkit import kinds, terms


@pytest.mark.parametrize("text", [
    "okay so you get 2 food and i get 1. I get 2 water and you get 1. That correct right?",
    "So you get 3 firewood and I get 2 water. That right?",
    "You take 2 food, I take 3 water. that correct?",
])
def test_a_restatement_checked_by_check_words_alone_commits_to_nothing(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("So you get 3 firewood and I get 2 water. Does that work?", [("trade", {"firewood": 3}, {"water": 2}, None)]),
    ("I will give you 3 firewood. Is that ok with you?", [("give", {"firewood": 3}, {}, None)]),
    ("That's right, I will give you 3 water.", [("give", {"water": 3}, {}, None)]),
])
def test_an_approval_check_or_a_right_that_opens_an_offer_leaves_it_standing(
        text: str, expected: list[tuple[str, dict[str, int | None], dict[str, int | None], str | None]]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize("text", [
    "are you talking about where i get 2 food and 2 water. And you get 1 food and 1 water.",
    "Are you talking about the split where I get 2 water. You get 3 food.",
])
def test_asking_which_proposal_is_meant_while_restating_it_commits_to_nothing(text: str) -> None:
    assert kinds(text) == []


def test_asking_about_a_good_leaves_the_offer_after_it_standing() -> None:
    assert terms("Are you talking about the water? You can have 2.") == [("give", {"water": 2}, {}, None)]


@pytest.mark.parametrize("text", [
    "I said I would get all 3 firewood and you would get all the food.",
    "I told you that I can give you 3 water.",
    "No, I said I will give you 2 food for 2 water.",
])
def test_the_speaker_reporting_its_own_earlier_words_commits_to_nothing(text: str) -> None:
    assert kinds(text) == []


def test_a_report_of_earlier_words_leaves_the_new_offer_after_it() -> None:
    assert terms("no i said i can trade you 3 water for 3 firewood, and then we can talk about food. "
                 "I'll take 1 food you can have 2") == [("trade", {"food": 2}, {"food": 1}, None)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Like I said, I can give you 3 water.", [("give", {"water": 3}, {}, None)]),
    ("As I said, you can have 2 food.", [("give", {"food": 2}, {}, None)]),
])
def test_terms_said_again_as_the_speakers_own_now_stand(
        text: str, expected: list[tuple[str, dict[str, int | None], dict[str, int | None], str | None]]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize("text", [
    "okay we can do that since you gave me more water",
    "I can do that because you need it more.",
    "sure, I can do that since you helped me with the water.",
])
def test_a_reason_after_a_consent_act_leaves_the_consent_standing(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I can't do that because I need the water.",
    "I will do that later since I am busy.",
    "I can accept that the lake is cold because it is winter.",
])
def test_a_refusal_a_later_act_or_another_object_is_no_consent_with_a_reason(text: str) -> None:
    assert kinds(text) == []
