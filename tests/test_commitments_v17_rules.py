"""The extractor's version 17 rules, one test per mechanism: hand-written cases (alliance-game style).

They were written as version 16, which was not shipped (its judge found one held-out commitment fewer), and
shipped as 17 with one narrowing: a peace is another's to make when a pronoun ("he", "she", "they") stands before
it, not a player's name (the addressee called by name, or the speaker naming themself).

Written from the errors of the alliance-game chat of six Diplomacy tune games (``tune-diplomacy-1`` to ``-4`` and
the retired ``holdout-diplomacy-1``), by mechanism, each with sentences made up for it (none is a message of the
corpus), on the standard map's provinces and the seven powers:

* places' short forms: where two names share their first three letters the one-word name takes them ("Tyr" is
  Tyrolia, not the Tyrrhenian Sea); a name opening with a word shorter than three letters is shortened with the
  next word's initial ("StP"); a short form that is also an English word ("Rum", "Con", "War") is the place where
  the message writes it as a name, capitalised inside a sentence, and stays a word otherwise;
* a strike with a place as its object moves on it ("I can cut Kiel": R27; negated, R25's ``stay_out``); orders
  written "Sev to Rum" and units named by their place sent ("send Sevastopol to Rumania") move to the second place,
  while a place right after "move" names the unit, not where it goes ("I can't move Boh this season");
* "put" a unit in a place, "get" a place; "you can take X", "you are welcome to take X", "a DMZ in X", "X as a DMZ"
  hand the place over;
* the past ("I was supporting you", "I didn't hit") and likelihood or reluctance ("very likely", "hesitant") are no
  promise (R7, R8);
* a peace said to be held, another's to make, or of mind promises nothing; intent to harm disclaimed ("no ill
  will", "zero reason to stab you", "I won't take your dots"), neutrality and "leave each other be" promise no
  attack (R23);
* "you have my help", "you have support to X", "get you into X" and "support the retreat" promise support (R31);
* consent idioms said as a part of their own ("Will do, ...", "You got it.", "Consider it done", "So be it",
  "Agree.") accept (D1).

Beside them the near misses each must leave alone.  Every sentence of the first list of each test reads
differently under version 15 (checked by running this file on it); the near misses read the same under both.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daishi_forensics.profile.commitments import HeuristicExtractor

VOCABULARY = json.loads((Path(__file__).resolve().parent / "fixtures" / "diplomacy-tune-1.labels.jsonl")
                        .read_text(encoding="utf-8").splitlines()[0])["vocabulary"]
"""The standard map's 75 provinces and the seven powers, as the labelled alliance-game rows name them."""
MAP = HeuristicExtractor(VOCABULARY)


def read(text: str) -> list[tuple[str, str | None]]:
    """Each commitment as kind and place."""
    return [(c.kind, c.region) for c in MAP.extract(text).commitments]


@pytest.mark.parametrize(("text", "expected"), [
    ("I'll move my army to Tyr this turn", [("meet", "Tyrolia")]),
    ("I won't go into StP this year", [("stay_out", "St Petersburg")]),
    ("Next turn I'll go for Rum", [("meet", "Rumania")]),
    ("My fleet will head to Con in the fall", [("meet", "Constantinople")]),
])
def test_short_forms_shared_or_english_read_as_the_place(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I'll move my fleet to the Tyrrhenian Sea", [("meet", "Tyrrhenian Sea")]),
    ("We should go to war with France", []),
    ("Rum is what I drink when I lose a center", []),
])
def test_short_forms_near_misses(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I can cut Kiel this spring", [("meet", "Kiel")]),
    ("I will not hit Gal this turn", [("stay_out", "Galicia")]),
    ("Spring orders: Sev to Rum, Ukr to War", [("meet", "Rumania"), ("meet", "Warsaw")]),
    ("I'll send Sevastopol to Rumania", [("meet", "Rumania")]),
    ("I can't move Boh this season", []),
    ("I won't put an army in Silesia", [("stay_out", "Silesia")]),
    ("I'm getting Belgium this fall", [("meet", "Belgium")]),
])
def test_strikes_orders_and_units_named_by_their_place(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I'll attack your Vienna", []),
    ("you send Ankara to Constantinople", []),
    ("I won't move into Bohemia", [("stay_out", "Bohemia")]),
    ("I won't put my orders in late", []),
])
def test_moves_near_misses(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("You can take Warsaw next year", [("stay_out", "Warsaw")]),
    ("You are welcome to take Sevastopol", [("stay_out", "Sevastopol")]),
    ("Let's make a DMZ in the Black Sea", [("stay_out", "Black Sea")]),
    ("I'm fine with Piedmont as a DMZ", [("stay_out", "Piedmont")]),
])
def test_places_handed_over(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", ["If you take Warsaw I will be upset", "Germany can take Warsaw"])
def test_places_handed_over_near_misses(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize("text", [
    "I was supporting you into Munich last turn",
    "I wasn't moving to Galicia",
    "I will very likely move to Galicia in the spring",
    "I'm hesitant to leave Greece open",
    "Of course I wasn't stabbing you anyway",
])
def test_the_past_and_likelihood_promise_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("I will support you into Munich", [("support", None)]),
    ("I will move to Galicia in the spring", [("meet", "Galicia")]),
    ("I won't stab you", [("no_attack", None)]),
])
def test_the_past_near_misses(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", [
    "I have a non-aggression pact with Germany already",
    "If he agreed to a truce it would help",
    "That would give me real peace of mind",
])
def test_a_peace_held_or_anothers_promises_nothing(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize("text", [
    "I bear you no ill will",
    "I have zero reason to stab you",
    "I won't take your home centers",
    "I propose neutrality between us",
    "Let's just leave each other be",
])
def test_intent_to_harm_disclaimed_promises_no_attack(text: str) -> None:
    assert read(text) == [("no_attack", None)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Let's have a truce", [("no_attack", None)]),
    ("Italy offers you peace", [("no_attack", None)]),  # (17) a speaker naming themself (R23b): not a third party
    ("I will take your centers", []),
    ("They leave each other be", []),
])
def test_no_attack_near_misses(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", [
    "You have my help against Turkey",
    "You have support to Trieste if you want it",
    "I can get you into Trieste",
    "I'll support the retreat",
])
def test_support_offered_in_other_words(text: str) -> None:
    assert read(text) == [("support", None)]


@pytest.mark.parametrize("text", ["I need your help", "You don't have support to Trieste", "Can you get me Sweden?"])
def test_support_near_misses(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize("text", [
    "Will do, thanks for the heads up",
    "You got it.",
    "Consider it done",
    "So be it.",
    "Agree.",
])
def test_consent_idioms_said_as_a_part_of_their_own(text: str) -> None:
    assert read(text) == [("accept", None)]


@pytest.mark.parametrize("text", ["You can do that", "If you want it, you got it", "Did you get it?"])
def test_consent_idioms_near_misses(text: str) -> None:
    assert read(text) == []
