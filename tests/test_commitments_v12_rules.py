"""The extractor's version 12 rules, one test per mechanism: hand-written cases (campsite style).

Written from the errors of the eleventh draw (``holdout-real-11``, scored once as the judge of rules v11 and then
read as the tune split ``tune-real-11``) beside the earlier tune splits, by mechanism, each with sentences made up
for it (none is a row of the labelled set):

* the speaker submitting the deal on the table is consent (the guide's R20: "submitting the deal"), with its
  object the proposal ("I will submit it", "I'll go ahead and submit it") or left out ("I will submit.",
  "I'll submit then"); not an order to the addressee ("go ahead and submit it"), a question, a new proposal
  ("I will submit a new offer", "my offer") or goods;
* the speaker making the deal on the table ("I am willing to make that deal"), as "let's make the deal" is a
  deal made (R20), not a hope ("I hope we can make that deal work") nor a refusal;
* a proposal called "agreeable" ("an agreeable compromise") or a "workable solution" is consent in other words
  (D1), as "a fair deal" is; not asked or negated;
* "I was thinking (that) I would get ..." and "I am thinking you ..." frame the proposal after them as "I think"
  does (R7 names "I think" among the words that are no hedge); "thinking about / of" an act still weighs it
  (R8), and another's thinking is a report.

Beside them the near misses each must leave alone.  Every sentence of the first list of each test reads
differently under version 11 (checked by running this file on it); the near misses read the same under both.
"""

from __future__ import annotations

import pytest

from .campkit import kinds, terms


@pytest.mark.parametrize("text", [
    "Sure. I will submit it now.",
    "ok I will submit.",
    "I'll go ahead and submit it.",
    "Great, I will submit then.",
    "We can submit this.",
])
def test_the_speaker_submitting_the_deal_on_the_table_consents(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "Go ahead and submit it.",
    "Can you submit the deal?",
    "I will submit a new offer.",
    "I will submit my offer.",
    "I submit that you are wrong.",
    "I will submit it if you give me 2 water.",
    "I won't submit it.",
])
def test_an_order_a_question_a_new_offer_or_a_condition_is_no_consent_by_submitting(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", [
    "Yes, I am willing to make that deal.",
    "I will make that deal.",
    "I would be happy to make this deal.",
])
def test_the_speaker_making_the_deal_on_the_table_consents(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "we make that deal",
    "I hope we can make that deal work.",
    "I can't make that deal.",
    "I will make a deal with you later.",
])
def test_a_deal_not_made_by_the_speaker_now_is_no_consent(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", [
    "yes I think that would be a workable solution.",
    "That is an agreeable compromise.",
    "Sounds like a very agreeable arrangement.",
])
def test_a_proposal_called_agreeable_or_a_workable_solution_is_consent(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "that is not a workable solution",
    "Is that a workable solution?",
    "I need a solution for the water.",
    "That sounds like an agreeable plan.",
])
def test_a_solution_negated_asked_or_needed_is_no_consent(text: str) -> None:
    assert "accept" not in kinds(text)


def test_i_was_thinking_frames_the_proposal_after_it() -> None:
    assert terms("Hey, I was thinking that I would get 2 firewood and you can have 2 food and 2 water.") == [
        ("trade", {"food": 2, "water": 2}, {"firewood": 2}, None)]
    assert terms("I was thinking you can have 3 food and I get 2 water.") == [
        ("trade", {"food": 3}, {"water": 2}, None)]
    assert terms("I am thinking that I will give you 2 water for 1 food.") == [
        ("trade", {"water": 2}, {"food": 1}, None)]


@pytest.mark.parametrize("text", [
    "I was thinking about giving you 2 water.",
    "I was thinking of giving you 2 water.",
    "You were thinking that I would give you 2 water.",
    "I am thinking that I could give you 2 water.",
    "I was wondering if I could get 2 water and you can have 3 food.",
])
def test_thinking_about_an_act_anothers_thinking_and_a_hedge_after_it_promise_nothing(text: str) -> None:
    assert kinds(text) == []
