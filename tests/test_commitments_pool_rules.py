"""The extractor's version 7 rules, one test per mechanism: hand-written cases (campsite style).

Each case is a sentence made up for its rule (none is a row of the labelled set), beside the near
misses the rule must leave alone: help that names no act and help asked for in goods; consent that
compares offers or seeks a deal, and consent said in other words; quantities of one unit, "parts" and
a number five words back; goods with "no" / "zero"; a give to a third person; the speaker's giving
supposed under "if"; a bare give restated by a trade; "to you" after a judgement; "as much X as you
want for Y"; purposes ("to cook the food", "foraging for my food").
"""

from __future__ import annotations

import pytest

from .campkit import got


@pytest.mark.parametrize(("text", "expected"), [
    # help that names no act is a wish to get along, no support (R31)
    ("We can surely help each other out here.", []),
    ("I'm happy to help out!", []),
    ("I would love to help you with that.", []),
    # help promised to the person, or with an act named, is support, as before
    ("I'll help you, trust me.", [("support", {}, {})]),
    ("I'll help you set up your tent.", [("support", {}, {})]),
    # help in goods from the speaker is a give (R32), as before
    ("I can help you with 2 firewood.", [("give", {"firewood": 2}, {})]),
])
def test_help_that_names_no_act_is_no_support(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # help in goods asked for the speaker is an ask: it prices the offer beside it
    ("Can you help me with some water? You can have the firewood.",
     [("trade", {"firewood": None}, {"water": None})]),
    ("I really need some help with the water. I can give you 2 food.", [("trade", {"food": 2}, {"water": None})]),
    # an order alone asks and offers nothing
    ("Help me with the food", []),
])
def test_help_in_goods_asked_for_the_speaker_is_an_ask(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a comparison of offers is no consent
    ("This one is more reasonable than your last.", []),
    ("That seems less fair to me.", []),
    ("That is more than fair.", [("accept", {}, {})]),
    # a deal still sought is no consent; the proposal itself is
    ("I hope we find a split that works for us.", []),
    ("Yes that works for us.", [("accept", {}, {})]),
])
def test_a_comparison_or_a_deal_still_sought_is_no_consent(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # an adverb inside a consent phrase
    ("That really will work for me.", [("accept", {}, {})]),
    ("That definitely works for me.", [("accept", {}, {})]),
    # consent in other words (D1)
    ("Sounds like a great deal to me!", [("accept", {}, {})]),
    ("It looks like it will work for both of us.", [("accept", {}, {})]),
    ("I think we are all set then.", [("accept", {}, {})]),
    # asked, it is no consent
    ("Are we all set?", []),
    # a speaker's own terms called fair for both stay an argument
    ("I can give you 2 food and 3 firewood. I believe it is fair for both of us.",
     [("give", {"food": 2, "firewood": 3}, {})]),
])
def test_consent_in_other_words(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # "a <unit> of X" is one of X; "a lot of X" is no number
    ("I can give you a bottle of the water.", [("give", {"water": 1}, {})]),
    ("I'll give you two parts of firewood and a bag of food.", [("give", {"firewood": 2, "food": 1}, {})]),
    ("I will give you a lot of water.", [("give", {"water": None}, {})]),
    # a number five words before its good
    ("I will give you all 2 of my bags of food.", [("give", {"food": 2}, {})]),
])
def test_quantities_of_one_unit_and_five_words_back(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a good with "no" or "zero" is on no side (D3)
    ("You can have 3 water and no food.", [("give", {"water": 3}, {})]),
    ("I'll give you 2 firewood and zero water for 3 food.", [("trade", {"firewood": 2}, {"food": 3})]),
    ("I will give you no water.", []),
    ("You can have all the food and none of the water.", [("give", {"food": None}, {})]),
])
def test_a_good_with_no_or_zero_is_on_no_side(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a give to a third person before the goods reaches no player
    ("I will give them 2 food, not you.", []),
    ("I will give them to you now.", []),
    ("I'll give my kids the food.", []),
    ("I need to give my family some water.", []),
    # goods named as the speaker's own stock stay given
    ("I can give my share of food", [("give", {"food": None}, {})]),
    ("I'll give you my 2 food", [("give", {"food": 2}, {})]),
    # the speaker's giving under "if" with nothing asked back is a supposition
    ("If I can give you 2 water and 1 food, would that be alright?", []),
    ("if we offer you all the firewood and the food.", []),
    # a condition after the give leaves it a give; a price after the condition makes a trade
    ("I'll give you 2 food if I can.", [("give", {"food": 2}, {})]),
    ("If I give you the water, I'd like all the firewood.", [("trade", {"water": None}, {"firewood": None})]),
])
def test_gives_that_reach_no_player_or_are_supposed(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a bare give said before a trade that gives the same goods is that trade's give side
    ("We have some extra food to spare. I'll give you 2 food for 2 water.", [("trade", {"food": 2}, {"water": 2})]),
    # other goods stay a give of their own
    ("We have extra firewood to spare. I'll give you 2 food for 2 water.",
     [("give", {"firewood": None}, {}), ("trade", {"food": 2}, {"water": 2})]),
])
def test_a_bare_give_restated_by_a_later_trade(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # "to you" after a word of judgement names the judge: the goods stay the speaker's ask
    ("I'd take all the water, if that seems fair to you.", []),
    ("I'll take the firewood if that is ok with you.", []),
    ("I will give 2 food to you.", [("give", {"food": 2}, {})]),
])
def test_to_you_after_a_judgement_names_the_judge(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the addressee's want says how much; the price after it stands
    ("I will give you as much water as you like for the firewood.", [("trade", {"water": None}, {"firewood": None})]),
    ("I'll give you the food you need in exchange for 2 water.", [("trade", {"food": None}, {"water": 2})]),
])
def test_as_much_as_you_want_for_prices_the_offer(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # goods after "to" and a verb that moves no goods are a purpose
    ("I need the firewood to cook my food, so I can give you 1 water.", [("trade", {"water": 1}, {"firewood": None})]),
    # a verb of goods after "to" is read as ever
    ("I will give up all the water to get the firewood.", [("trade", {"water": None}, {"firewood": None})]),
    ("I'll give you 2 firewood to keep you warm.", [("give", {"firewood": 2}, {})]),
    # "for" after a gerund that moves no goods: the goods the act is for
    ("I like fishing for my food, so I need water.", []),
    ("I'm trading 2 food for 3 water.", [("trade", {"food": 2}, {"water": 3})]),
])
def test_goods_of_a_purpose_are_on_no_side(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # "I'd be more than happy to give": the subject two words further back than the window reaches
    ("I'd be more than happy to give you the water.", [("give", {"water": None}, {})]),
    ("I would be more than happy to give you 2 water for 2 firewood.", [("trade", {"water": 2}, {"firewood": 2})]),
    # "give you (all of) it": the pronoun after the give verb's person is the good named last before it (rule 7)
    ("I have lots of firewood. I will give you all of it.", [("give", {"firewood": None}, {})]),
    ("I don't need much firewood. I would be willing to give you all of it in exchange for the water.",
     [("trade", {"firewood": None}, {"water": None})]),
    # the addressee's give is no give of the speaker's
    ("I need water. You give you it.", []),
])
def test_the_speaker_further_back_and_the_pronoun_after_the_person(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected
