"""The extractor on the shapes real negotiation turns take (campsite style): hand-written cases.

Each case is written here for its rule (none is a row of the labelled set): asks in another
sentence that price an offer (R14), a share of one good beside a trade (R15), a count that
trades nothing, a pronoun taken in part ("all of that", R11), a question run on after a
statement (R3), and consent phrases against their lookalikes (R20, R21); consent read by structure
(the speaker, a chain of modals, a verb or a state, the proposal as object), conditions that ask for
the speaker, and the shapes of chat (rule 18: emoji, "you may have", "happy to spare", "my supply").
"""

from __future__ import annotations

import pytest

from daishi_forensics.profile.commitments import HeuristicExtractor, tokens

from .campkit import got


@pytest.mark.parametrize(("text", "expected"), [
    # R14: an ask in another sentence names more of the price; goods already on the offer stay where they are
    ("I'd be glad for you to have two waters if I can have one. I would also like three food.",
     [("trade", {"water": 2}, {"water": 1, "food": 3})]),
    ("You take 2 water, but I get 2 food. I was looking for water too.",
     [("trade", {"water": 2}, {"food": 2})]),
    # two offers in one message keep their own prices (R19): the ask joins neither
    ("I'll give you 2 water for 1 food. I'll give you 3 firewood for 2 food. I need water.",
     [("trade", {"water": 2}, {"food": 1}), ("trade", {"firewood": 3}, {"food": 2})]),
])
def test_asks_in_other_sentences_price_the_one_offer(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R15: a share of one good beside a trade of the others is one allocation
    ("I will give you all the water if you give me all the firewood. I will keep 1 food and give you two.",
     [("trade", {"water": None, "food": 2}, {"firewood": None, "food": 1})]),
    # a share alone is a trade of its own (R15: "2 food for me and 1 for you")
    ("2 food for me and 1 for you.", [("trade", {"food": 1}, {"food": 2})]),
    # two exchanges of different goods are two commitments, not a share
    ("I'll give you 2 water for 1 food. I'll also give you 3 firewood for 2 food.",
     [("trade", {"water": 2}, {"food": 1}), ("trade", {"firewood": 3}, {"food": 2})]),
])
def test_a_share_of_one_good_joins_the_trade_beside_it(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


def test_the_same_count_on_both_sides_trades_nothing() -> None:
    # "4 for me and 4 for you" counts items the message does not name as goods: no exchange
    assert got("I need all 3 firewood. 4 for me and 4 for you sounds fair.") == [("accept", {}, {})]
    assert got("I need all 3 firewood. 4 for me and 4 for you.") == []
    # goods named on both sides stay the trade they say, even the same good
    assert got("market order up: 4 food for 4 food") == [("trade", {"food": 4}, {"food": 4})]


@pytest.mark.parametrize(("text", "expected"), [
    ("I don't need water that much, you can have all of that", [("give", {"water": None}, {})]),
    ("I brought 2 food. You can have both of them.", [("give", {"food": 2}, {})]),
    ("I have 3 firewood, you can have some of it.", [("give", {"firewood": 3}, {})]),
    # the speaker taking it is an ask, not a give (R9)
    ("I need firewood, I will take all of it.", []),
])
def test_a_pronoun_taken_in_part_keeps_its_antecedent(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("i am fine with that how many waters do you need?", [("accept", {}, {})]),
    ("I can give you 2 water can you give me 1 food?", [("trade", {"water": 2}, {"food": 1})]),
    # the whole sentence asks: an opener after "if" / "wonder" is inside it
    ("I wonder if can you give me 2 water?", []),
    ("Would you give me 2 water how many food do you need?", []),
    ("How about 2 water for me can you do that?", []),
])
def test_a_question_run_on_after_a_statement(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("ok, that works for me", [("accept", {}, {})]),
    ("Yup that should be okay.", [("accept", {}, {})]),
    ("That is okay for me.", [("accept", {}, {})]),
    ("That sounds like a fair compromise.", [("accept", {}, {})]),
    ("Glad we could come to an agreement!", [("accept", {}, {})]),
    # lookalikes: a relative "that", a hope of a deal to come, a deal refused or complained of (R6, R21)
    ("We should find a split that works for both of us.", []),
    ("I'm sure we can come to an agreement on how to share.", []),
    ("I hope we will come to an agreement soon.", []),
    ("No deal, I need the water.", []),
    ("That deal is not fair to me at all.", []),
    ("That was a bad deal for my family.", []),
])
def test_consent_and_its_lookalikes(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize("text", [
    # refusals and complaints that hold "deal" or a consent word are no commitment (R5, R6, R21)
    "I can't make that deal.", "That's not a deal I can take.", "The deal is off.",
    "I don't think that's a fair deal.", "You call that a deal?", "I would never accept that deal.",
    "That deal doesn't work for me.", "I'm not okay with that.", "That is not fair.",
    "This deal isn't fair to me.", "No, that deal won't work, I need the water.", "That's a deal breaker for me.",
    "That is a terrible deal", "Sorry, I can't agree to that.", "I'm hoping we can make a deal that works for both of us.",
    "that is fine but I need 2 water", "No deal unless you give me 2 water.", "I won't give you the firewood, no deal.",
    "You can't have all the food.",
])
def test_refusals_and_complaints_holding_deal_are_none(text: str) -> None:
    assert got(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    # R15: the split of the goods: what the addressee gets is given, what the speaker keeps or takes is received
    ("I take 2 food and you get 3 water and 1 firewood.", [("trade", {"water": 3, "firewood": 1}, {"food": 2})]),
    ("You get all the water and I keep the food.", [("trade", {"water": None}, {"food": None})]),
    ("All the food is yours if the water is mine.", [("trade", {"food": None}, {"water": None})]),
    ("You can have the food, the water is mine.", [("trade", {"food": None}, {"water": None})]),
    ("3 water is yours and 2 food is mine.", [("trade", {"water": 3}, {"food": 2})]),
    ("Firewood is all yours.", [("give", {"firewood": None}, {})]),
    ("The water is all yours if I get the food.", [("trade", {"water": None}, {"food": None})]),
    # goods said to be the speaker's alone are a claim, and a receive side alone is a request (R8, R9)
    ("The food is mine.", []),
    ("That firewood is mine and you know it.", []),
    ("I take 2 food, you can have the rest.", []),
])
def test_a_split_of_the_goods_is_one_trade(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R20 as a frame: the proposal ("that", "this", "it", "its"), a copula in any tense, a word of consent
    ("Ok that will be fine.", [("accept", {}, {})]),
    ("i think its fair, do you", [("accept", {}, {})]),
    ("That is perfectly acceptable to me.", [("accept", {}, {})]),
    ("This would be okay with me.", [("accept", {}, {})]),
    # lookalikes: said of something else, of a rule, asked, negated, conditional, or argued for (R20, R21)
    ("The water is fine.", []),
    ("It is fair to say I need water.", []),
    ("Is that fair?", []),
    ("That is not fair.", []),
    ("That is fine if you give me 2 water.", []),
    ("It's fair because we both get two of something.", []),
])
def test_consent_is_a_frame_not_a_list(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R20: a statement that the two now have a deal, with or without its article
    ("You are welcome. You have deal.", [("accept", {}, {})]),
    ("ok, lets make the deal", [("accept", {}, {})]),
    ("Yes, we can make a deal.", [("accept", {}, {})]),
    # a hope, a deal still to be found, a demand (R18, R20)
    ("I hope we can make a deal.", []),
    ("We should make a deal that works for both of us.", []),
    ("Give me 2 water and you have a deal.", []),
])
def test_a_deal_said_to_be_made_is_acceptance(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R8: what the addressee said or offered, or is thanked for, is a report: its goods are on no side
    ("You said I could have 2 water, so I will give you 3 food.", [("give", {"food": 3}, {})]),
    ("Thanks for offering me 2 water. I'll give you 1 food.", [("give", {"food": 1}, {})]),
    ("Earlier you told me you need food, so you can have 2 food.", [("give", {"food": 2}, {})]),
    # a reason: the addressee getting goods there describes the terms, it hands nothing over
    ("Since you are getting 3 water, I should get 2 food.", []),
    ("well since you are getting 2 water I think I should get 2 firewood", []),
    # the reason ends at its comma: the offer after it stands
    ("Since you need water, you can have 2 water.", [("give", {"water": 2}, {})]),
])
def test_reports_and_reasons_offer_nothing(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R14: "if I took X" in a question is a hypothetical ask, and prices the offer in the next sentence
    ("Would it be ok if I took 2 food? I can give you 3 water.", [("trade", {"water": 3}, {"food": 2})]),
    ("If I took the water I would be happy.", []),
    # R11: "N out of the M" is N of them
    ("You can have 2 out of the 3 water.", [("give", {"water": 2}, {})]),
    # R14: a good asked for twice is one ask, the later one; the numbers never add
    ("I'd like 3 water. You can have all the firewood. Actually I need 2 water.",
     [("trade", {"firewood": None}, {"water": 2})]),
    # R15 and R14: shares of single goods folded into one allocation take an ask of another sentence
    ("Food: you get 1, I get 2. Firewood: you get 2, I get 1. I need 2 water.",
     [("trade", {"food": 1, "firewood": 2}, {"food": 2, "firewood": 1, "water": 2})]),
])
def test_asks_said_in_other_shapes_price_the_offer(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the addressee's "you're getting X" describes the terms on the table: no offer (R8)
    ("That's not even. You're getting all of the food, so I'll take 3 water.", []),
    ("Hmm, you are getting my top item there.", []),
    # ... while "you get X" / "you can have X" hands it over (R13)
    ("You get all of the food, so I'll take 3 water.", [("trade", {"food": None}, {"water": 3})]),
    # R12: "as much as I can get" leaves its noun out: the good named last before it
    ("You can have 2 food. I was wondering about the firewood, I need as much as I can get.",
     [("trade", {"food": 2}, {"firewood": None})]),
    ("You can have 2 food, I need as much water as I can get.", [("trade", {"food": 2}, {"water": None})]),
    # R14: a later ask that names a good again without a number keeps the number asked before
    ("I'll give you 3 water. Can I get 3 food? I'll need the food for cooking.",
     [("trade", {"water": 3}, {"food": 3})]),
])
def test_descriptions_left_out_nouns_and_repeated_asks(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R21: consent followed by a further demand ("also", "still") is a counter, not an acceptance
    ("That sounds ok. I also need two packages of water.", []),
    ("That works for me, but I still need the firewood.", []),
    # a later sentence that is no further demand leaves the acceptance standing
    ("That works for me. I need to pack now.", [("accept", {}, {})]),
])
def test_a_further_demand_takes_consent_back(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R20: "accept / take your offer" is consent; the goods after it are no ask
    ("I will take your offer of 2 water.", [("accept", {}, {})]),
    ("I'm willing to accept your offer on food.", [("accept", {}, {})]),
    # "that way ..." says what an offer leads to: a description, no sides (R8)
    ("If I give you two firewood can I have one food? That way you can keep warm, and I'll have some food.", []),
    ("I'll give you 2 food. That way you can have the firewood too.", [("give", {"food": 2}, {})]),
])
def test_consent_to_an_offer_and_its_outcome_take_no_goods(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R14: an offer asked as a question commits to nothing (R3), but what it asks for prices the
    # statement beside it, as a bare ask in a question does
    ("Can I give you 2 food for 3 water? I can also give you the firewood.",
     [("trade", {"firewood": None}, {"water": 3})]),
    ("How about you take 2 firewood, I get 1? I'll give you the food.", [("trade", {"food": None}, {"firewood": 1})]),
    # the question alone stays none
    ("Can I give you 2 food for 3 water?", []),
])
def test_a_question_offer_prices_the_statement_beside_it(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # "sacrifice" hands over; "it" there is the good just asked for, and giving it up takes the ask back
    ("I need the water too but I'm willing to sacrifice it if I get all the food.",
     [("trade", {"water": None}, {"food": None})]),
    # a subject left out before "are more than happy to" is the speaker (as before "will pay")
    ("But are more than happy to give up all the firewood for all the food.",
     [("trade", {"firewood": None}, {"food": None})]),
    ("Are you happy to give me the food?", []),
    # "X for X" with no numbers is a use of the good, not a price
    ("I'd need wood for a bonfire, and food for meals.", []),
    ("market order up: 4 food for 4 food", [("trade", {"food": 4}, {"food": 4})]),
])
def test_give_verbs_elided_subjects_and_uses(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R15: a heading says whose the goods after it are: "for you, ..., me ..."
    ("so, for you, 2 water, 1 food, me 3 firewood 2 food",
     [("trade", {"water": 2, "food": 1}, {"firewood": 3, "food": 2})]),
    ("You: 2 food, 2 firewood. Me: 1 food, 3 water.",
     [("trade", {"food": 2, "firewood": 2}, {"food": 1, "water": 3})]),
    ("Thank you, 2 water is fine", []),
    # a heading is one of a split: alone, without its colon, "you" before a count heads nothing
    ("See you, 2 water is plenty for me.", []),
    ("Thank you, 3 food would help a lot.", []),
    # a description goes on through "and me N": no heading there
    ("That would give you 6 water and me 3. That is not fair.", []),
    # R19: a give that restates a trade's goods more fully is that trade, said again
    ("If you want 1 food and all the firewood then I need 2 water. So again, 1 food, 1 water, 3 firewood for you.",
     [("trade", {"food": 1, "water": 1, "firewood": 3}, {"water": 2})]),
    # R20: a deal said to be made, in other words
    ("I think we've come up with a good deal.", [("accept", {}, {})]),
    ("You have yourself a deal!", [("accept", {}, {})]),
])
def test_headings_restatements_and_deals_made(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R11: "N of M goods" is N of them; "one package" leaves its noun out after a measure word (R12)
    ("I get one package of water? I would be happy to let you have 2 of 3 food packages.",
     [("trade", {"food": 2}, {"water": 1})]),
    # a verb after ", and" shares the subject before it, through "willing to"
    ("Well, I have plenty of food with me, and would be willing to offer all 3 food in exchange for the 3 firewood.",
     [("trade", {"food": 3}, {"firewood": 3})]),
    # "if that works for you" says whom the terms suit: the goods before stay where they are
    ("I'm happy to give you all of the firewood, and I'll take the food, if that works for you.",
     [("trade", {"firewood": None}, {"food": None})]),
    # "receive" is a receive verb: the addressee receiving is the speaker's give (R13)
    ("I will get two packages of food and you will receive one.", [("trade", {"food": 1}, {"food": 2})]),
])
def test_counts_shared_subjects_and_receiving(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R20 with its subject left out, like "sounds fair"; not an opinion word ("sounds good") nor taken back
    ("Seems reasonable, would you be interested in one more firewood?", [("accept", {}, {})]),
    ("Sounds good to me.", []),
    ("Seems fine but I need water.", []),
    # a compromise or agreement reached is a deal made; a wish for one is not
    ("So, it looks like we have reached a compromise.", [("accept", {}, {})]),
    ("I hope we have reached an agreement soon.", []),
])
def test_consent_without_its_subject_and_compromises_reached(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # R20 as a frame: the speaker, a chain of modals that commit, a verb of consent, the proposal as object
    ("I would agree to that.", [("accept", {}, {})]),
    ("We can definitely accept your offer!", [("accept", {}, {})]),
    ("I'm happy to go with this split", [("accept", {}, {})]),
    ("I will settle for that, thanks", [("accept", {}, {})]),
    ("Alright, I will agree to me getting 2 water and 1 food.", [("accept", {}, {})]),
    # a hedge, a negation or a question breaks the chain; goods as the object are an ask, not consent
    ("I could agree to that.", []),
    ("I will not accept that", []),
    ("Would you accept this deal?", []),
    ("I take it you need firewood", []),
    ("I'll take the firewood.", []),
])
def test_consent_is_a_speaker_verb_with_the_proposal_as_object(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # D5: consent on goods for the speaker is a counter-offer, no accept; a give side makes it a trade
    ("I'd agree to that if I can also get one food", []),
    ("That works as long as I get the firewood", []),
    ("Deal, as long as I get the firewood and you take the food", [("trade", {"food": None}, {"firewood": None})]),
    ("That works if you give me the firewood", []),
    ("Sounds fine to me if I could keep both waters", []),
    ("I can accept that deal on water as long as you send me one food", []),
    # a condition that names no goods for the speaker leaves the consent standing (R17)
    ("I would agree to that as long as you are fine with it", [("accept", {}, {})]),
    # consent in a sentence of its own, then a further ask, is still consent
    ("I would agree to that. Can I also have a water?", [("accept", {}, {})]),
])
def test_consent_on_goods_for_the_speaker_is_a_counter(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # rule 7: "my supply" after a give verb is the speaker's stock of the good named in its clause
    ("We have plenty of firewood here, so I will give you some of my supply.", [("give", {"firewood": None}, {})]),
    ("Water is easy to find here, so I am happy to send you part of our surplus", [("give", {"water": None}, {})]),
    # not without a give verb, nor with the good named in another sentence (an ask there)
    ("Firewood is scarce; I am keeping my supply.", []),
    ("I need water. I will bring my supplies.", []),
])
def test_my_supply_stands_for_the_good_named_in_its_clause(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # rule 5: "N of M" takes N whether the numbers are digits or words
    ("You can have two of three waters", [("give", {"water": 2}, {})]),
    ("You can have one of two firewood", [("give", {"firewood": 1}, {})]),
    ("You can have 1 of 2 firewood", [("give", {"firewood": 1}, {})]),
])
def test_n_of_m_reads_number_words_like_digits(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # "to spare" after a frame of willingness is the give verb (R7), not "X to spare"
    ("I'm glad to spare 2 food if you hand over 1 water", [("trade", {"food": 2}, {"water": 1})]),
    ("I have 2 food to spare", [("give", {"food": 2}, {})]),
    # a wish stays a wish (R8)
    ("I would like to spare some water", []),
])
def test_happy_to_spare_is_a_give_verb(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


def test_a_condition_asked_with_able_to_is_a_counter_too() -> None:
    assert got("I would agree to that as long as I am able to keep the firewood") == []


@pytest.mark.parametrize(("text", "expected"), [
    # "you may have X" is permission: an offer (R7's hedge "may" is the speaker's)
    ("Fine, you may have the water", [("give", {"water": None}, {})]),
    ("I may give you the water", []),
    ("you may need the water", []),
])
def test_you_may_have_is_permission(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a question run on after a statement is cut off after an opening "Ok, " too (rule 3)
    ("Ok, we can work with that how much food do you need?", [("accept", {}, {})]),
    ("Ok, how much food do you need can I have 2?", []),
])
def test_a_run_on_question_after_an_opening_comma(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


def test_an_emoji_ends_a_sentence() -> None:
    # chat closes a sentence with an emoji; what follows is a sentence of its own
    assert [t for t, _ in tokens("deal \U0001f642 thanks")] == ["deal", "\n", "thanks"]
    assert got("Sure, I would agree to that \U0001f642 thanks a lot!") == [("accept", {}, {})]


@pytest.mark.parametrize(("text", "expected"), [
    # rule 7: "that" is the goods after any "you can / may have, take, keep", the clause going on after it
    ("Water is not my priority, you can keep all of that", [("give", {"water": None}, {})]),
    ("We have lots of food, you may take all of that if you send me 2 water",
     [("trade", {"food": None}, {"water": 2})]),
    ("I will keep it", []),
])
def test_that_after_you_can_take_or_keep_stands_for_goods(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


def test_a_consent_may_run_on_into_thanks() -> None:
    # a chat sentence often has no stop before its thanks
    assert got("Okay I would take it thank you") == [("accept", {}, {})]
    assert got("I would take it later") == []


@pytest.mark.parametrize(("text", "expected"), [
    # R20 as a state: the speaker, a copula in any tense, a word of contentment, "with" / "to" the proposal
    ("I'd be perfectly happy with that, thanks", [("accept", {}, {})]),
    ("We are agreeable to this split", [("accept", {}, {})]),
    ("Totally fine with that!", [("accept", {}, {})]),
    ("That seems like a reasonable trade", [("accept", {}, {})]),
    ("Let's go along with that", [("accept", {}, {})]),
    # another's contentment, the past, a question, a negation, a counter, goods as the object: none
    ("She is ok with that", []),
    ("I was happy with that deal", []),
    ("Are you fine with this?", []),
    ("I'm not comfortable with that", []),
    ("I'm ok with that if you give me all the water", []),
    ("I would be happy with 2 water", []),
    # "a good deal" may praise the speaker's own offer
    ("I am being generous. That is a good deal.", []),
])
def test_consent_is_a_state_of_the_speaker_toward_the_proposal(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # terms named as a gerund phrase and then judged are described, not offered (R6, R8)
    ("You getting all the food is not fair", []),
    ("I think me having the water and you having the wood would be a good start", []),
    ("You can have the food, I am getting the water", [("trade", {"food": None}, {"water": None})]),
    # a past plan and a negated opinion before the subject cancel the act (R8, R5)
    ("You were going to get the water", []),
    ("I don't think I can give you the water", []),
    ("I think I can give you the water", [("give", {"water": None}, {})]),
    ("I was hoping for 2 firewood. I can give you all 3 food.", [("trade", {"food": 3}, {"firewood": 2})]),
])
def test_judged_terms_past_plans_and_negated_opinions_offer_nothing(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # "ask for X" and "all I ask is for X" are the speaker's ask, like "looking for X" (rule 6)
    ("I can send you 3 food. All I ask is for one firewood.", [("trade", {"food": 3}, {"firewood": 1})]),
    ("I can send you 3 food. I only ask for one firewood.", [("trade", {"food": 3}, {"firewood": 1})]),
    ("Could I ask for one firewood?", []),
])
def test_ask_for_is_the_speakers_ask(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the receive side said in another sentence, in shapes other than a verb after "I" (R14)
    ("You may keep all the food. The water is what we need most.", [("trade", {"food": None}, {"water": None})]),
    ("I'd appreciate 2 water, and you can have the wood.", [("trade", {"firewood": None}, {"water": 2})]),
    ("You can take 3 food. In exchange, one water.", [("trade", {"food": 3}, {"water": 1})]),
    ("I'll hand you 3 food, I only need 2 back.", [("trade", {"food": 3}, {"food": 2})]),
    # consent to goods for the speaker is an ask (D5), so the offer beside it is a trade
    ("I'm okay with two water and you get all the food.", [("trade", {"food": None}, {"water": 2})]),
    ("I'm okay with you having the food.", [("give", {"food": None}, {})]),
    # an ask alone is still no commitment (R9)
    ("In exchange, one water please.", []),
    ("Firewood is what I want.", []),
])
def test_the_receive_side_in_other_shapes(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a heading that points at the terms after its colon: the terms are a statement of their own (R3)
    ("Here is what I propose: I take the water and you take the food.", [("trade", {"food": None}, {"water": None})]),
    ("What about this: you get 2 wood and I get 2 food.", [("trade", {"firewood": 2}, {"food": 2})]),
    # a heading that is itself the question, or terms asked after the colon, stay questions
    ("What about this: you get 2 wood and I get 2 food?", []),
    ("How about you get 2 wood and I get 2 food.", []),
])
def test_a_heading_before_a_colon_leaves_the_terms_stated(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # what terms lead to, options laid out, the addressee's proposal described: no sides (R6, R8)
    ("Which means you can have 2 food and 1 wood.", []),
    ("This would leave you with all the water.", []),
    ("With that you would get 3 food.", []),
    ("Another option: you take the firewood, I take the food.", []),
    ("Alternatively you get the water and I get the food.", []),
    ("Under your plan I would give you 3 water and get nothing.", []),
    ("Giving you all three food would leave us hungry.", []),
    # the same goods offered outright stay offers
    ("You can have 2 food and 1 wood.", [("give", {"food": 2, "firewood": 1}, {})]),
    ("Sending you all three food now.", [("give", {"food": 3}, {})]),
    ("With that, I will give you 3 food.", [("give", {"food": 3}, {})]),
])
def test_outcomes_options_and_described_proposals_offer_nothing(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # hedges, deliberation and attempts (R7, R8)
    ("Not sure I can let you have the wood.", []),
    ("Let me check whether I can give you the food.", []),
    ("I'll think about giving you 2 water.", []),
    ("We are trying to give you a fair amount of food.", []),
    ("I can let you have the wood.", [("give", {"firewood": None}, {})]),
    # goods that are the addressee's own, or come from a place, are not handed over (R13, R8)
    ("You get to keep all of your own water.", []),
    ("You can keep your 2 food and I'll give you 1 water.", [("give", {"water": 1}, {})]),
    ("You can get more water from the river.", []),
    ("You get 3 water in the end.", [("give", {"water": 3}, {})]),
    # advice to the addressee and a topic offer nothing
    ("If you need wood you should gather some.", []),
    ("If you need wood, I can give you 2.", [("give", {"firewood": 2}, {})]),
    ("I'll give you an answer about the water soon.", []),
    ("I'll give you about 3 water.", [("give", {"water": 3}, {})]),
    # a give that is only the condition of an outcome without terms is a hypothetical (R8)
    ("If we give you all the water we will be thirsty.", []),
    ("If we give you all the water we will need 2 food.", [("trade", {"water": None}, {"food": 2})]),
])
def test_hedged_deliberated_owned_sourced_and_hypothetical_goods_are_no_offer(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a wish for the addressee, sufficiency foretold, a refusal before the subject, a counterfactual (R5, R7, R8)
    ("We hope you can have a lot of wood.", []),
    ("You will have plenty of water after the trade.", []),
    ("No way we can give you 2 food.", []),
    ("If it were my choice, you would get the wood.", []),
    # an offer taken back by its outcome for the speaker (rule 6's "but")
    ("I would give you all the wood, but then we would be cold.", []),
    ("I would give you all the wood, but I would have nothing left.", []),
    # the same offers stated plainly stay
    ("You can have a lot of wood.", [("give", {"firewood": None}, {})]),
    ("You will have 2 water after the trade.", [("give", {"water": 2}, {})]),
    ("We can give you 2 food.", [("give", {"food": 2}, {})]),
    ("I would give you all the wood, and then we can talk about water.", [("give", {"firewood": None}, {})]),
])
def test_wishes_sufficiency_refusals_and_counterfactuals_offer_nothing(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the proposal named with a modifier is still the proposal (R20): consent, no goods taken
    ("I am willing to take your offered deal.", [("accept", {}, {})]),
    ("We will accept your last offer, thanks.", [("accept", {}, {})]),
    ("I'd be happy with your revised split.", [("accept", {}, {})]),
    ("I'll take your last water.", []),  # goods after the modifier: an ask, no consent
    # "I agree with you" closing its clause agrees with the addressee's proposal; with more after it, an opinion
    ("Alright. I agree with you!", [("accept", {}, {})]),
    ("I agree with you that firewood matters most.", []),
    ("I agree with Sam.", []),
    # the speaker finding the proposal acceptable (D1)
    ("Yes, I find that a reasonable split.", [("accept", {}, {})]),
    ("We find it fair, thanks.", [("accept", {}, {})]),
    ("I don't find that acceptable.", []),
    ("I find it fair to say that you need more food.", []),
    ("I find the water acceptable.", []),
])
def test_consent_to_a_named_proposal_agreement_and_finding_it_fair(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a deal worked out or made is consent (R20); a deal still to work out is not
    ("Nice, glad we could work this out.", [("accept", {}, {})]),
    ("We worked it out, thank you!", [("accept", {}, {})]),
    ("I hope we can work it out.", []),
    ("We can work it out later.", []),
    ("So we were able to make a fair deal.", [("accept", {}, {})]),
    ("We were able to make a deal that helps the kids.", []),
    # the proposal said to be what was agreed confirms it; an earlier agreement reported is no consent
    ("Yes, that's exactly what we agreed on.", [("accept", {}, {})]),
    ("That is what we agreed, but I need more now.", []),
    ("We agreed to split the food.", []),
    # agreeing to take what is offered takes the proposal; agreeing to give is read by the give rules
    ("Fine, I agree to take 1 food.", [("accept", {}, {})]),
    ("I agree to give you 2 water.", [("give", {"water": 2}, {})]),
])
def test_deals_worked_out_agreements_confirmed_and_taking_what_is_offered(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a consent that a question runs on from with no stop stands (R20, R3); the question alone is no consent
    ("Sure I agree how about the rest?", [("accept", {}, {})]),
    ("How about this split?", []),
    # a second clause run on with no stop after "I can do that" ends its object
    ("Yes I can do that seems fair.", [("accept", {}, {})]),
    ("I can do that tomorrow.", []),
    # "although" / "though" take a consent back like "but" (R21); "though" closing the clause does not
    ("That is fine, although I really need the water.", []),
    ("It sounds fair, though I wanted more food.", []),
    ("That works for us though.", [("accept", {}, {})]),
])
def test_run_on_consent_and_concessions_after_it(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a verb whose object is no goods ("a hit", "a loss") takes or hands over nothing: the goods after "on"
    # are what it is said of
    ("You get 3 water, and I'll take 2 food, since I'm taking a loss on the water.",
     [("trade", {"water": 3}, {"food": 2})]),
    ("I'll give you a discount on the firewood.", []),
    ("I'll give you a water on top.", [("give", {"water": 1}, {})]),
    # "I can make do with X" asks for X, as "I'd be fine with X" does (D5): the price of an offer beside it
    ("I can make do with 2 firewood. You can have all the food.", [("trade", {"food": None}, {"firewood": 2})]),
    ("You can have 3 water and I'll make do with the food.", [("trade", {"water": 3}, {"food": None})]),
    ("I can make do with 2 firewood.", []),
    # a give with "also" after a give with no price adds to it: one handover (R19: the same offer, more goods)
    ("I'll give you 2 food. I will also give you 1 water.", [("give", {"food": 2, "water": 1}, {})]),
    ("You can have 3 firewood. You can also have 1 food and 1 water.",
     [("give", {"firewood": 3, "food": 1, "water": 1}, {})]),
    # a priced offer, or the same good again, stays its own offer (R19)
    ("I'll give you 2 water for 1 food. I'll also give you 2 firewood.",
     [("trade", {"water": 2}, {"food": 1}), ("give", {"firewood": 2}, {})]),
    ("I'll give you 2 food. I'll also give you 1 water if you give me firewood.",
     [("give", {"food": 2}, {}), ("trade", {"water": 1}, {"firewood": None})]),
])
def test_acts_said_of_goods_settling_for_less_and_gives_added(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


SHOP = HeuristicExtractor({"items": ["bike", "lamp", "cash", "helmet"], "places": [], "agents": ["a", "b"]})


@pytest.mark.parametrize(("text", "expected"), [
    # a sum before "off" is a cut in a price, and the goods after "off" are priced lower: neither handed over
    ("I can knock $15 off the lamp for you.", []),
    ("I'll take $10 off.", []),
    # the sum as a price, or handed over, stays
    ("I'll sell you the lamp for $15.", [("trade", {"lamp": None}, {"cash": 15})]),
    ("I'll give you $15 for the lamp.", [("trade", {"cash": 15}, {"lamp": None})]),
])
def test_a_sum_before_off_is_a_price_cut(text: str, expected: list[tuple]) -> None:
    assert [(c.kind, dict(c.give), dict(c.receive)) for c in SHOP.extract(text).commitments] == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a restatement made to check understanding is no commitment (R3): opened by a check, or followed by a
    # question that is only "Correct?" / "Right?"
    ("So you take 3 food and I take 2 water. Correct?", []),
    ("So you take 3 food and I take 2 water. Right?", []),
    ("Just to be sure, you would get 3 food and I would get 2 water.", []),
    ("If I understand correctly, you get 3 food and I get 2 water.", []),
    ("Let me get this straight: you get 3 food and I get 2 water.", []),
    # a check that asks approval of the terms leaves the offer standing
    ("You take 3 food and I take 2 water. Sound good?", [("trade", {"food": 3}, {"water": 2})]),
])
def test_a_restatement_checked_for_understanding_commits_nothing(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # consent in other words (D1): "go for" the proposal, "this works", being in agreement, the proposal
    # suiting the speaker, a matter settled, "down for that"
    ("Ok, we'll go for your offer.", [("accept", {}, {})]),
    ("We will go for 3 food.", []),
    ("This works nicely for us.", [("accept", {}, {})]),
    ("We are in agreement.", [("accept", {}, {})]),
    ("Yes, that suits us.", [("accept", {}, {})]),
    ("Good, it is settled then.", [("accept", {}, {})]),
    ("Nothing is settled yet.", []),
    ("We are down for that!", [("accept", {}, {})]),
    ("We are down for 2 firewood.", []),
    # the proposal named as the subject of a word of consent, or by who made it
    ("Your split is fair.", [("accept", {}, {})]),
    ("Your split is not fair.", []),
    ("That deal was fair.", []),
    ("I'm happy with the split you suggested.", [("accept", {}, {})]),
    ("I'm happy with the split you suggested yesterday, but not this one.", []),
])
def test_consent_in_other_words_and_the_proposal_named(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a consent phrase inside an embedded clause ("how this works", "whether that works for me") is a
    # question or a topic, no consent
    ("I will show you how this works.", []),
    ("We can check whether that works for us.", []),
    ("Ok, this works for us.", [("accept", {}, {})]),
])
def test_a_consent_phrase_in_an_embedded_clause_is_no_consent(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected
