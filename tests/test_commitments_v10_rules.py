"""The extractor's version 10 rules, one test per mechanism: hand-written cases (campsite style).

Three kinds of consent in other words (the guide's D1) that version 9 read as nothing, written from the
consent that the eighth draw (``holdout-real-8``, scored under versions 8 and 9 and then read) holds and the
extractor missed, each as a mechanism with sentences made up for it (none is a row of the labelled set): the
proposal said to be no trouble ("I have no problem with that", "I don't see any issue with your offer", "no
objections to that"); a verb of making room for it ("I can accommodate that", also as chat misspells it); and
"sounds like deal" with its article dropped.  Beside them the near misses each must leave alone: trouble not
denied, trouble with goods, a condition or a "but" that makes it a counter-offer, a question, a negated verb,
"no problem" as thanks.

Every consenting sentence below reads as no consent under version 9 (checked by running this file on it); the
near misses hold under both versions.
"""

from __future__ import annotations

import pytest

from .campkit import kinds


@pytest.mark.parametrize("text", [
    "I have no problem with that.",
    "Sure, no problem with this at all!",
    "We don't have any problem with that, thanks",
    "I do not see an issue with your offer.",
    "I don't really see any issues with that deal",
    "No objections to your proposal.",
    "Honestly I have no complaints with that",
])
def test_the_proposal_said_to_be_no_trouble_is_consent(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I have a problem with that.",
    "I see a big issue with your offer",
    "No problem with the water, you can keep it?",
    "No problem! Thanks for asking.",
    "I have no problem with that if I get all the food.",
    "If you give me 2 water I don't see a problem with that",
    "I have no problem with that, but I need the firewood.",
    "Do you have a problem with that?",
])
def test_trouble_not_denied_said_of_goods_or_made_a_condition_is_no_consent(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", [
    "Okay, I can accommodate that.",
    "We can definitely accommodate that",
    "I can accomodate that for you.",
])
def test_making_room_for_the_proposal_is_consent(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "Can you accommodate that?",
    "I can't accommodate that.",
    "I can accommodate your family with some water",
    "We might accommodate that",
])
def test_asked_negated_hedged_or_said_of_others_it_is_not(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", ["Ok sounds like deal then.", "looks like deal!", "Seems like deal to me"])
def test_sounds_like_deal_without_its_article_is_consent(text: str) -> None:
    assert kinds(text) == ["accept"]


def test_no_deal_said_without_its_article_is_still_no_consent() -> None:
    assert "accept" not in kinds("That does not sound like deal to me, sorry")
