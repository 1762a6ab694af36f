"""The extractor's version 8 rules, one test per mechanism: hand-written cases (campsite style).

Each case is a sentence made up for its rule (none is a row of the labelled set, none copied from one),
beside the near misses the rule must leave alone: a polite condition on the addressee's wish closing a
statement ("..., if you'd like?"); "am", whose subject can only be "I"; a preference conceded by "but";
consent by closing the deal, by a deal made or worked out, by "I have agreed to ...", by keeping to the
plan, and after "no problem"; the speaker's "have" as a share of the terms; the other party's share with
its verb left out ("and you 1"); "you are welcome to X"; "why don't you take X"; "but I need" taking a give
back only for the goods given; consent countered by "but" and terms asked; consent inside a concession;
consent to goods for the addressee; "safe" under a wish; the speaker putting the deal through; "would you
consider X for me?"; goods judged before "to you"; a give weighed as a preference; a hedge shared by a
split's two halves; "we have a fair arrangement"; a split's first half with its verb left out; "all" /
"more" after "give you"; terms taken "as you suggested"; "if you are asking for X"; "even if you get X";
consent "for both of us" and "suitable"; "let's make sure" checking the terms; "one for you", "two of mine",
"hang on to one", "one of each".

The second block of each test (``CARRY``) holds sentences written after the rules, for the same
mechanisms, to check that the rules carry beyond the sentences they were written against.
"""

from __future__ import annotations

import pytest

from .campkit import got

ACCEPT = [("accept", {}, {})]

CASES = [
    # R1 (rule 3): a condition on the addressee's wish after the last comma is a tag, like ", ok?"
    ("I can give you 2 food for 2 water, if you'd like?", [("trade", {"food": 2}, {"water": 2})]),
    ("I can give you all the firewood, if that works for you?", [("give", {"firewood": None}, {})]),
    # ... but a condition that names terms keeps the question, and a question stays one
    ("I can give you 2 food, if you give me 2 water?", []),
    ("Can you give me the water, if you'd like?", []),
    # R2 (rule 6): "am" agrees with "I" only, so a verb phrase after "but" opened by it is the speaker's
    ("I need water but am willing to give 3 food in exchange for 3 water.", [("trade", {"food": 3}, {"water": 3})]),
    ("I really need the water, so am happy to give you all of the firewood.",
     [("trade", {"firewood": None}, {"water": None})]),
    # R3 (rule 6): a preference conceded by "but" asks nothing; the terms after it stand
    ("I'd prefer some food but am willing to give 3 food for 3 water.", [("trade", {"food": 3}, {"water": 3})]),
    ("I would prefer the food, but I can give you the firewood for the water.",
     [("trade", {"firewood": None}, {"water": None})]),
    # ... a preference not conceded still prices an offer
    ("I would prefer the food. You can have the firewood.", [("trade", {"firewood": None}, {"food": None})]),
    # R4 (rule 16): closing the deal on the table, a deal made or worked out, consent in force now
    ("I'm ready to finalize.", ACCEPT),
    ("Yes, I am ready to finalize the deal.", ACCEPT),
    ("Glad we could make a deal!", ACCEPT),
    ("Glad we were able to work out something for both of us.", ACCEPT),
    ("We were able to work it out.", ACCEPT),
    ("I have agreed to the offer.", ACCEPT),
    ("I'm good with sticking to the original plan!", ACCEPT),
    ("I'll go with the original plan you've outlined.", ACCEPT),
    ("Not a problem, glad we could make a deal.", ACCEPT),
    # ... not negated, asked, hoped for, reported, or said of something else
    ("I am not ready to finalize.", []),
    ("Are you ready to finalize?", []),
    ("I hope we could make a deal.", []),
    ("We can work something out.", []),
    ("We have agreed to the offer before.", []),
    ("I'm good with sticking to my guns.", []),
    ("Not glad we could make a deal.", []),
    # R5 (rule 20): the speaker's "have" after the addressee's share, or in a condition on the deal
    ("You can have 2 water and I have more food.", [("trade", {"water": 2}, {"food": None})]),
    ("You get the firewood and I have the rest of the food.", [("trade", {"firewood": None}, {"food": None})]),
    ("You can have the firewood as long as I have enough food.", [("trade", {"firewood": None}, {"food": None})]),
    # ... "I have X" alone, or after "and" with no share of the addressee's, stays a claim
    ("I need food and I have water.", []),
    ("I have 3 water.", []),
    # R6 (rule 6): the other party's share with its verb left out
    ("I take 2 firewood and you 1.", [("trade", {"firewood": 1}, {"firewood": 2})]),
    ("i get 1 food you 2, me 2 water and you 1.", [("trade", {"food": 2, "water": 1}, {"food": 1, "water": 2})]),
    ("I get 0 firewood you 3, me 3 food and you 0.", [("trade", {"firewood": 3}, {"food": 3})]),
    # ... a second object of one "give" describes what the terms give, no elided verb
    ("That would give me 5 packages and you 4 packages.", []),
    ("That would give you 6 and me 3.", []),
    # R7 (rule 6): "you are welcome to X" is the speaker's leave to take it: an offer
    ("You are welcome to the water.", [("give", {"water": None}, {})]),
    ("You are more than welcome to take 2 food.", [("give", {"food": 2}, {})]),
    ("You are welcome to have the firewood if I can have the food.", [("trade", {"firewood": None}, {"food": None})]),
    # ... negated, or a thanks answered, none
    ("You're not welcome to the water.", []),
    ("You're welcome! I need the food.", []),
    # R8 (rule 3): "why don't you ..." not closed by "?" suggests, like an imperative
    ("Why don't you take 2 firewood and 1 water. Does that work for you?", [("give", {"firewood": 2, "water": 1}, {})]),
    # ... closed by "?" it is a question, and "why do you ..." asks
    ("Why don't you take 2 firewood?", []),
    ("Why do you need 2 firewood.", []),
    # R9 (rule 6): "but I need" takes a give back only when what it names first is the goods given
    ("I'd give you the food but I really need 2 water.", [("trade", {"food": None}, {"water": 2})]),
    ("I'd give you all the food but I need it.", []),
    ("I would give you the water but I need the water for cooking.", []),
    # R10 (rule 16, R21): consent, then "but" and terms asked both ways, is a counter
    ("That works for me, but how about I keep 2 food and you get all the firewood?", []),
    ("That works for me. How about I keep 2 food and you get all the firewood?", ACCEPT),
    # R11 (rule 16): consent inside a concession is no consent
    ("While your offer is fair, I am hoping to take three waters.", []),
    ("That is fair, although I need more water.", []),
    ("That works for me.", ACCEPT),
    # R12 (rule 6): consent to goods for the addressee hands them over (D5's mirror)
    ("I can agree to you taking 2 of the water and I would take 1.", [("trade", {"water": 2}, {"water": 1})]),
    ("I'm ok with you having all the firewood.", [("give", {"firewood": None}, {})]),
    ("I can't agree to you taking all of the water.", []),
    # R13 (rule 14): "safe" under a wish assures nothing
    ("I hope you stay safe on your trip!", []),
    ("You are safe with me.", [("no_attack", {}, {})]),
    # R14 (rule 16): the speaker putting the deal through
    ("Ok. Let me set the deal for us.", ACCEPT),
    ("Going to push it through now.", ACCEPT),
    ("I won't lock it in yet.", []),
    ("Can you set up the deal?", []),
    # R15 (rule 6): "would you consider X for me?" asks for X (the addressee weighs; the speaker hedges nothing)
    ("Would you consider 3 water for me? You can have the firewood.", [("trade", {"firewood": None}, {"water": 3})]),
    ("I would consider 3 water for me.", []),
    # R16 (rule 6): goods judged before "to you" say whom they suit, as before "for you"
    ("If so, the firewood would be very beneficial to you.", []),
    ("2 water to you, 1 to me.", [("trade", {"water": 2}, {"water": 1})]),
    # R17 (rule 6): a give weighed as a preference ("rather", "more ... than") promises nothing
    ("I'd be more willing to give up some firewood than water.", []),
    ("I'd rather give you the food than the water.", []),
    ("I'm more than happy to give you the food.", [("give", {"food": None}, {})]),
    # R18 (rule 6): a hedge on the first half of a split hedges the second
    ("I was thinking that maybe i could get two waters and you get one.", []),
    ("I will take two waters and you get one.", [("trade", {"water": 1}, {"water": 2})]),
    # R19 (rule 16): "we have a fair arrangement / a compromise" is a deal the two have
    ("I think that we have a fair arrangement.", ACCEPT),
    ("We have a compromise to make.", []),
    ("I hope we have a fair arrangement soon.", []),
    # R20 (rule 6): goods named with no verb before "and you can have Y" are the speaker's half
    ("3 food 2 firewood and you can have 3 food and 1 firewood",
     [("trade", {"food": 3, "firewood": 1}, {"food": 3, "firewood": 2})]),
    ("I need 2 water and you can have the food.", [("trade", {"food": None}, {"water": 2})]),
    # R21 (rule 7): "all" / "more" after a give verb and its person is the good named last
    ("I don't really need firewood. I can give you all if you give me the food.",
     [("trade", {"firewood": None}, {"food": None})]),
    ("I can give you all the food.", [("give", {"food": None}, {})]),
    # R22 (rule 16): taking terms as the addressee proposed them consents
    ("As you suggested, I will take 2 water 1 food and 1 firewood", ACCEPT),
    ("As you said, I need water.", []),
    ("As you suggested, I will not take the food.", []),
    # R23 (rule 6): "if you are asking for / looking for X" names the speaker's goods, as "if you want X"
    ("If you are asking for 3 packages of firewood, I'd like 3 packages of food.",
     [("trade", {"firewood": 3}, {"food": 3})]),
    ("I am asking for 3 water.", []),
    # R24 (rule 6): the addressee's gain under "even if" is a concession in an argument, no offer
    ("I think you are making out better even if you only get one water.", []),
    # R25 (rule 16): consent said of the two ("fair for both of us") and in the word "suitable"
    ("That is fair for both of us.", ACCEPT),
    ("That is fair for both of us to get water.", []),
    ("okay fine. now it is suitable for both of us", ACCEPT),
    # R26 (rules 3, 16): "let's make sure" checks the terms: no goods, and no consent inside it
    ("So let's make sure this is reasonable; Firewood - 2 for me, 1 for you; Water 2 for you, 1 for me.", []),
    # R27 (rule 7): "one for you" / "one for me" in a split is a number, its noun left out
    ("2 firewood for me, and one for you.", [("trade", {"firewood": 1}, {"firewood": 2})]),
    ("I have one for you.", []),
    # R28 (rule 7): "N of mine", "hang on to one": the good named last, with that number
    ("I need some water. I'll give you two of mine so that I can hang on to one.",
     [("trade", {"water": 2}, {"water": 1})]),
    # R29 (rule 7): "N of each" is N of every good named before it
    ("You can have 2 of the food and 2 of the water and I will take one of each.",
     [("trade", {"food": 2, "water": 2}, {"food": 1, "water": 1})]),
    ("I will take one of each.", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_v8_rules_on_made_up_sentences(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected


CARRY = [
    # R1
    ("You can have all of the food, if you want?", [("give", {"food": None}, {})]),
    ("I'll take the water and you take the firewood, if that is ok with you?",
     [("trade", {"firewood": None}, {"water": None})]),
    # R2
    ("Water is a must for me but am able to give you 2 firewood for 2 water.",
     [("trade", {"firewood": 2}, {"water": 2})]),
    # R3
    ("I'd rather have all the water, but I will give you 1 food for 2 water.", [("trade", {"food": 1}, {"water": 2})]),
    # R4
    ("Okay, I'm ready to finalize now.", ACCEPT),
    ("So glad we could reach a deal, enjoy the trip!", ACCEPT),
    ("No worries, I have agreed to your offer.", ACCEPT),
    ("I'm fine with going with your plan.", ACCEPT),
    ("I'm not fine with going with your plan.", []),
    # R5
    ("You can keep the food and I have the water.", [("trade", {"food": None}, {"water": None})]),
    ("Take the firewood, provided I have the water.", [("trade", {"firewood": None}, {"water": None})]),
    # R6
    ("I will take 2 water and you 1.", [("trade", {"water": 1}, {"water": 2})]),
    ("You get 2 food and me 1.", [("trade", {"food": 2}, {"food": 1})]),
    # R7
    ("You're welcome to take all of the firewood.", [("give", {"firewood": None}, {})]),
    # R8
    ("Ok. Why don't you take the food and I keep the water.", [("trade", {"food": None}, {"water": None})]),
    # R9
    ("I would give you 2 firewood but I really need 1 food.", [("trade", {"firewood": 2}, {"food": 1})]),
    ("I could give you 2 firewood but I really need 1 food.", []),  # "could" hedges the give (R7) either way
    # R10
    ("Sounds fair, but what if I take the water and you take the firewood?", []),
    # R11
    ("Although your offer is reasonable, I need all of the food.", []),
    # R12
    ("I'm fine with you keeping 2 food.", [("give", {"food": 2}, {})]),
    # R13
    ("Hopefully your kids are safe out there.", []),
    # R14
    ("Great, I'll lock in the deal now.", ACCEPT),
    # R15
    ("Would you consider giving me 2 food and 2 water for me? I can give you the firewood.",
     [("trade", {"firewood": None}, {"food": 2, "water": 2})]),
    # R16
    ("Extra water would be really helpful to you on a hike.", []),
    # R17
    ("I would rather part with the water than the food.", []),
    # R18
    ("Perhaps I could take the food and you can have 2 water.", []),
    # R19
    ("Great, we have a fair compromise then.", ACCEPT),
    # R20
    ("2 water, 1 food and you can have the rest of the firewood.",
     [("trade", {"firewood": None}, {"water": 2, "food": 1})]),
    # R21
    ("I don't need much water. I'll give you more if you give me 1 food.", [("trade", {"water": None}, {"food": 1})]),
    # R22
    ("As you proposed, we can do that split.", ACCEPT),
    # R23
    ("If you are looking for more food, I need 2 firewood.", [("trade", {"food": None}, {"firewood": 2})]),
    # R24
    ("You still do well even if you get only 1 food.", []),
    # R25
    ("I think this is suitable for the both of us.", ACCEPT),
    # R26
    ("Let's make sure that works: 2 water for me and 1 for you.", []),
    # R27
    ("Food: 2 for you and one for me.", [("trade", {"food": 2}, {"food": 1})]),
    # R28
    ("I don't need much firewood, you can have two of mine.", [("give", {"firewood": 2}, {})]),
    # R29
    ("I'll give you the food and the firewood if I can get 2 of each.",
     [("trade", {"food": None, "firewood": None}, {"food": 2, "firewood": 2})]),
]


@pytest.mark.parametrize(("text", "expected"), CARRY)
def test_v8_rules_carry_to_sentences_written_after_them(text: str, expected: list[tuple]) -> None:
    assert got(text) == expected
