"""The extractor's version 18 rules, one test per mechanism: hand-written cases (alliance-game style).

Written from the errors of the seven alliance-game tune games (the six version 17 was written from and
``holdout-diplomacy-4``, game 10, retired to tune after its one look), by mechanism, each with sentences made up
for it (none is a message of the corpus), on the standard map's provinces and the seven powers:

* the orders of a list proposed to the addressee ("What do you think about", "If you order", "and then you
  order", each order on a line of its own) move the addressee's units: no promise of the speaker's;
* a move that is the object of a support ("A Ber S A Sil - Mun", "I'll support Gas - Mar") is the supported
  unit's, not the supporter's (R32);
* a peace to be discussed ("need to discuss nonaggression with France") is a topic, not an offer;
* "I will support." promises the support asked for (R31);
* "I will do.", "Yes, I'd like that." and "go for it" consent (D1);
* withdrawn: "That's the plan" as consent (its labels disagree across games) and "getting" a place as a move
  ("Nice job getting Mar" congratulates).

Beside them the near misses each must leave alone.  Every sentence of the first list of each test reads
differently under version 17 (checked by running this file on it); the near misses read the same under both.
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
    ("What do you think about this?\nA Bre - Gas\nF Eng - Mao", []),
    ("If you order\nF Kie - Den\nA Mun - Ruh\nthen I can hold Holland", [("meet", "Holland")]),
    ("I'll hold Belgium, and then you order\nA Kie - Swe", [("meet", "Belgium")]),
    ("What do you think about this?\nA Bre - Gas\nI will move to Burgundy", [("meet", "Burgundy")]),
    ("A Ber S A Sil - Mun", []),
    ("I'll support Gas - Mar this turn", [("support", None)]),
])
def test_orders_proposed_or_supported_are_not_the_speakers_moves(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Here are my orders:\nA Bre - Gas\nF Eng - Mao", [("meet", "Gascony"), ("meet", "Mid-Atlantic Ocean")]),
    ("Spring moves: A Vie-Gal, F Tri-Alb", [("meet", "Galicia"), ("meet", "Albania")]),
])
def test_orders_near_misses(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I will need to discuss nonaggression with France first", []),
    ("We should talk about a truce soon", []),
    ("I will support.", [("support", None)]),
    ("I will do.", [("accept", None)]),
    ("Yes, I'd like that.", [("accept", None)]),
    ("I totally understand, go for it", [("accept", None)]),
    ("That's the plan", []),
    ("Nice job getting Mar.", []),
])
def test_peace_talked_over_support_and_consent(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I offer you a truce", [("no_attack", None)]),
    ("Will you support?", []),
    ("I would like that fleet out of the Baltic", []),
    ("Go for Munich if you can", []),
])
def test_peace_support_and_consent_near_misses(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert read(text) == expected
