"""The commitment extractor's frame-word table and the small rules that read it (``profile/_frames.py``,
``profile/_consent.py``): each rule on a hand-made sentence, and the table's invariants the readers rely on."""

from __future__ import annotations

import pytest

from daishi_forensics.profile._consent import accepts
from daishi_forensics.profile._frames import (
    FRAME_PHRASES,
    FRAME_WORDS,
    GIVE_VERBS,
    OFFER_VERBS,
    RECEIVE_VERBS,
    ROLE_NOTES,
    VERB_CUE_WORDS,
    cancelled,
    roles_of,
    verb_role,
)
from daishi_forensics.profile.commitments import HeuristicExtractor

CAMP = {"items": ["food", "water", "firewood"], "places": [], "agents": []}


def test_roles_of_reads_the_table_backwards() -> None:
    for role, words in FRAME_WORDS.items():
        assert ROLE_NOTES[role]
        for word in words:
            assert role in roles_of(word)
    assert roles_of("offered") == frozenset({"past", "reported", "to frame"})
    assert roles_of("firewood") == frozenset()


def test_the_verbs_of_goods_hold_one_role_each() -> None:
    # verb_role answers one role per word: a word both given and received would be read as given
    assert not GIVE_VERBS & OFFER_VERBS
    assert not GIVE_VERBS & RECEIVE_VERBS
    assert not OFFER_VERBS & RECEIVE_VERBS
    assert VERB_CUE_WORDS == GIVE_VERBS | OFFER_VERBS | RECEIVE_VERBS | {"part", "leave", "leaving"}


def test_verb_role() -> None:
    assert verb_role("i can part with 2 wood".split(), 2) == "give verb"
    assert verb_role("i can part 2 wood".split(), 2) is None  # "part" alone is no verb of goods
    assert verb_role("i will leave you 2 food".split(), 2) == "give verb"  # (v15) "leave you" + goods
    assert verb_role("i will leave 2 food".split(), 2) is None  # "leave" alone is no verb of goods
    assert verb_role("selling 3 ore".split(), 0) == "offer verb"
    assert verb_role("i need ore".split(), 1) == "receive verb"
    assert verb_role("i need ore".split(), 2) is None
    assert FRAME_PHRASES["give verb phrase"] == (("part", "with"), ("leave", "you"), ("leaving", "you"))


@pytest.mark.parametrize(("text", "verb", "expected"), [
    ("i will give you the food", 2, False),
    ("i will not give you the food", 3, True),  # negation between subject and verb
    ("i may give you the food", 2, True),  # a hedge
    ("you may have the firewood", 2, False),  # permission: the addressee's "may" licenses the act
    ("i do not mind giving you the food", 4, False),  # "not mind" licenses it
    ("let me see if i can give you the firewood", 6, True),  # deliberation before the subject
    ("you were going to get the water", 4, True),  # a past plan
    ("maybe i will give you 2 food", 3, True),  # a hedge just before the subject
    ("i do not think i can give you water", 6, True),  # a negated opinion before the subject
    ("i am not sure i can let you have the food", 6, True),  # "not sure" before the subject
    ("i hope you will have water", 4, True),  # a wish for the addressee
    ("there is no way i can give you food", 6, True),  # a refusal before the subject
    ("no , give me food", 2, False),  # a comma ends the look back
])
def test_cancelled_reads_each_rule(text: str, verb: int, expected: bool) -> None:
    assert cancelled(text.split(), verb) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ("ok , deal", True),  # "deal" opening its comma part
    ("ok , that works for me", True),  # a consent phrase
    ("that will be fine", True),  # the proposal, a copula, a word of consent
    ("i would agree to that", True),  # the speaker, a modal chain, a verb of consent
    ("i would be happy with that", True),  # the speaker's contentment with the proposal
    ("we have made a deal", True),  # a deal said to be made
    ("10 works", True),
    ("that works if i can have 2 food", False),  # a counter-offer (D5)
    ("sounds fair , but i need all the water", False),  # taken back
    ("i hope we can make a deal", False),  # a wish
    ("i would be happy with 2 food", False),  # contentment with goods is an ask
    ("make it 3 food and you have a deal", False),  # a demand
])
def test_accepts(text: str, expected: bool) -> None:
    assert accepts(text.split()) is expected


@pytest.mark.parametrize(("text", "terms"), [
    # a past tense after "if I" asks: its goods price the offer
    ("You can have 3 firewood. It would be fine if I took 2 food.", [("trade", {"firewood": 3}, {"food": 2}, None)]),
    # a past tense claims: its goods are on no side
    ("You can have 3 firewood. I took 2 food.", [("give", {"firewood": 3}, {}, None)]),
    ("I gave you 2 food.", []),
    # another's agreement is a report; the speaker's own is not
    ("You agreed to 2 water for 3 food.", []),
    ("I agree to 2 water for 3 food.", [("trade", {"water": 2}, {"food": 3}, None)]),
    # "part with" is a give verb; "accept your offer" consents and takes no goods
    ("I am willing to part with 2 firewood.", [("give", {"firewood": 2}, {}, None)]),
    ("I am willing to accept your offer on food.", [("accept", {}, {}, None)]),
    # what the speaker has before "to trade" is offered
    ("I have firewood to trade for water.", [("trade", {"firewood": None}, {"water": None}, None)]),
])
def test_past_and_verb_readings(text: str, terms: list[tuple[object, ...]]) -> None:
    assert [c.terms() for c in HeuristicExtractor(CAMP).extract(text).commitments] == terms


@pytest.mark.parametrize(("text", "expected"), [
    ("i am in", True),
    ("i am in the north", False),  # "in" ends the phrase's part or it says where
    ("i agree", True),
    ("i agree to that", True),
    ("i agree that the lake has water", False),  # an opinion
    ("i agree water is needed", False),  # an opinion
    ("i agree to give you 2 food", False),  # an act, read by the give rules
    ("agreed", True),
    ("ash and i agreed that", False),  # a report
    ("alliance it is", True),
    ("what it is", False),
    ("$ 35 works", True),
    ("will do", True),
    ("i will do that later", False),
    ("no deal", False),
])
def test_each_guard_of_the_consent_phrases_and_parts(text: str, expected: bool) -> None:
    assert accepts(text.split()) is expected


def test_the_consent_phrases_read_what_no_structural_frame_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # "works" is no word of consent to the frames: without the phrase table the clause consents to nothing
    from daishi_forensics.profile import _consent
    assert accepts("ok , that works for me".split())
    monkeypatch.setattr(_consent, "ACCEPT_BY_FIRST", {})
    assert not accepts("ok , that works for me".split())
    assert accepts("that will be fine".split())  # a frame, read without the table
