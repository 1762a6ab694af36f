"""The extractor's version 15 rules, one test per mechanism: hand-written cases (campsite style).

Written from the errors of the fifteenth draw (``holdout-real-15``, scored once as the judge of rules v14 and then
read as the tune split ``tune-real-15``) beside the earlier tune splits, by mechanism, each with sentences made up
for it (none is a row of the labelled set):

* a consent that is the consequent of a condition stated before it -- an "if" followed by "so", or by a "then"
  before the consent -- holds only once the condition does (the guide's D5): "If so, I'm ready to submit the
  deal" and "if you add a water, then I can agree to that" are no ``accept``; "If you're sure, I'm happy to take
  your offer" still is;
* every noun of a deal made reads alike: "glad we could come to a compromise", "we reached an arrangement" consent
  as "... came to an agreement" did;
* "Ok, will do." reads as "Will do." and "Ok then, as you say.": a whole-clause idiom of consent, its opening
  interjections and commas passed;
* "hunt" / "hunting" attack someone only with a person after them: "I don't plan on hunting or fishing" promises
  nothing about anyone, "I won't hunt you down" is still ``no_attack``;
* "leave you" + goods, said by the speaker, gives them: "I will leave you all the firewood and 1 food, and I will
  take 2 food and 3 water" is a trade; "that would leave you with 3 food" still describes an outcome (R6).

Beside them the near misses each must leave alone.  Every sentence of the first list of each test reads
differently under version 14 (checked by running this file on it); the near misses read the same under both.
"""

from __future__ import annotations

import pytest

from .campkit import kinds, terms


@pytest.mark.parametrize("text", [
    "Would you take 2 water instead of 3? If so, I am ready to submit the deal.",
    "I'd be okay if you can add another water, and then I can agree to that.",
    "If you can spare one more wood, then I agree.",
])
def test_a_consent_on_a_condition_stated_before_it_is_no_consent(text: str) -> None:
    assert "accept" not in kinds(text)


@pytest.mark.parametrize("text", [
    "If you're sure, I'm happy to take your offer.",
    "Sounds good, I will take your deal if you want.",
    "Deal. If you need anything else, let me know.",
])
def test_a_condition_on_the_addressee_or_after_the_consent_leaves_it_standing(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I'm glad we could come to a compromise!",
    "Great, we came to an arrangement.",
    "Good, we reached a compromise.",
])
def test_every_deal_noun_reads_alike(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", [
    "I hope we can come to a compromise.",
    "I'm sure we can come to a compromise on the water.",
    "We never reached a compromise last time.",
])
def test_a_deal_still_to_come_or_denied_is_no_consent(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize("text", ["Ok, will do.", "Alright, will do!", "Okay then, can do!"])
def test_will_do_after_an_interjection_and_a_comma_is_consent(text: str) -> None:
    assert kinds(text) == ["accept"]


@pytest.mark.parametrize("text", ["No, will do it later.", "Ok, I will do some fishing.", "What will do for you?"])
def test_will_do_inside_a_longer_clause_is_no_consent(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize("text", [
    "I don't plan on hunting or fishing.",
    "We will not hunt on this trip, so we need food.",
])
def test_hunting_game_is_no_promise_about_anyone(text: str) -> None:
    assert kinds(text) == []


@pytest.mark.parametrize("text", ["I won't hunt you down.", "I will not attack you."])
def test_hunting_or_attacking_a_person_is_still_refused(text: str) -> None:
    assert kinds(text) == ["no_attack"]


@pytest.mark.parametrize(("text", "expected"), [
    ("Okay, I will leave you all the firewood and 1 food, and I will take 2 food and 3 water.",
     [("trade", {"firewood": None, "food": 1}, {"food": 2, "water": 3}, None)]),
    ("I can leave you 2 water.", [("give", {"water": 2}, {}, None)]),
])
def test_leaving_the_addressee_goods_gives_them(
        text: str, expected: list[tuple[str, dict[str, int | None], dict[str, int | None], str | None]]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize("text", [
    "That would leave you with 3 food.",
    "I will leave you alone about the water.",
])
def test_what_the_terms_leave_or_leaving_someone_alone_gives_nothing(text: str) -> None:
    assert "give" not in kinds(text) and "trade" not in kinds(text)
