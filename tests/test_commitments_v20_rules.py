"""The extractor's version 20 rules, one test per mechanism: hand-written cases (alliance-game style).

Written from the errors of the alliance-game chat of nine Diplomacy tune games (``tune-diplomacy-1`` to ``-4`` and
the retired ``holdout-diplomacy-1``, ``-4``, ``-5`` and ``-6``), by mechanism, each with sentences made up for it
(none is a message of the corpus), on the standard map's provinces and the seven powers.  Version 19's rules (not
shipped: its judge found recall lower) come back as far as the nine games bear them out, narrowed where the ninth
game showed them wrong:

* an order in the game's notation is the speaker's move only where the clause makes it so: not a supported move
  (the unit's "S" or "support" before it: R32; the orders after it in a list are read each on its own), not one the
  clause gives the addressee or a third party by a pronoun as its subject ("if you ... move Kie - Hol", "if they
  were to do Pie - Trl"; "you" after a preposition is no subject: "I will cover Vie for you: Bud - Vie"), not one
  after a plan or advice ("I plan to do ...", "suggestions: ..."), not one reported as placed ("I've ordered ..."),
  and not one talked about (a predicate after it: "A Mar - Bur is unlikely", "my move to EAS puts us in conflict");
* the game's consonant abbreviations of place names ("NWG", "Nwy", "Trl", "Lvp") and a "Gulf of X" by its own name
  ("Lyo", "Bot") read as the places, as the game's other short forms do;
* support of a unit's order written with its letter ("support A Mun in", "support A Ser - Bul") and of "that" or
  "it" ("Okay, I will support that") promise support (R31);
* a build in a place puts the speaker's new unit there (D7): "I'll build a fleet in Rome", "build F Smy and A Con";
  "get into X", "make a play for X" and "aim to" move as "go for X" does (R27); "convoying out of X" leaves it;
* a place demilitarised is kept empty (R30);
* a reply's bare yes in the speaker's words ("Yes I will", "I would, yes.", "I will do.", "I'm down!", "I'm game.")
  accepts (D1);
* an "-ing" verb after a preposition is a gerund ("from taking Warsaw"), no report of the speaker's.

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
    ("A Boh S A Gal - Vie would be safer this spring", []),
    ("F Lyo S A Pie - Mar and hold the rest", []),
    ("If you take Ber and move Kie - Den we are fine", []),
    ("You should probably open with: A Ven - Tyr", []),
    ("A War - Gal is a real worry for Austria", []),
    ("Smy - Aeg definitely makes sense this fall", []),
    ("North Sea to Norway would settle it", []),
    ("I've ordered A Bud - Ser already", []),
    ("My move to Pic was only a feint", []),
])
def test_orders_supported_given_away_reported_or_talked_about_move_no_one(
        text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("A Vie - Gal, F Tri - Alb", [("meet", "Galicia"), ("meet", "Albania")]),
    ("Spring orders: A Par - Bur", [("meet", "Burgundy")]),
    ("I will move A Ber - Kie this turn", [("meet", "Kiel")]),
    ("If you want, I'll move A Ber - Kie", [("meet", "Kiel")]),
])
def test_near_misses_orders_that_stay_moves(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", [
    "I'm happy to support A Ber into Mun",
    "Sure, I can support A Ser - Bul this turn",
    "Okay, I will support that",
    "I can support it to hold next turn",
])
def test_support_of_a_units_order_or_of_that(text: str) -> None:
    assert read(text) == [("support", None)]


@pytest.mark.parametrize(("text", "expected"), [
    ("I can't support that", []),
    ("I support that idea in principle", []),
    ("If Russia were to support it, it could work", []),
    ("I'll support you into Munich", [("support", None)]),
])
def test_near_misses_support(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I'll build a fleet in Naples this winter", [("meet", "Naples")]),
    ("I'm going to build A Smyrna", [("meet", "Smyrna")]),
    ("I will build in Vienna and Budapest", [("meet", "Vienna"), ("meet", "Budapest")]),
    ("I'm building an army in Liverpool", [("meet", "Liverpool")]),
])
def test_a_build_puts_the_speakers_unit_in_the_place(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize("text", [
    "I won't build a fleet in Marseilles",
    "I plan to build A Venice later",
    "The easy build in Tunis is mine this turn",
    "Building an army in Venice would be safer",
    "You should build F Constantinople",
])
def test_near_misses_builds(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("Yes, I will be convoying out of Belgium", [("stay_out", "Belgium")]),
    ("I'll try to get into Bohemia", [("meet", "Bohemia")]),
    ("I won't get into Silesia", [("stay_out", "Silesia")]),
    ("I will make a play for Trieste in the fall", [("meet", "Trieste")]),
    ("Will aim to get into the Aegean this turn", [("meet", "Aegean Sea")]),
])
def test_other_ways_into_and_out_of_a_place(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I'll convoy you to Belgium", [("support", None)]),
    ("We can convoy to Naples if Italy lets us", []),
    ("If you get into Tyrolia we both win", []),
])
def test_near_misses_ways_into_a_place(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("We should demilitarize Galicia this year", [("stay_out", "Galicia")]),
    ("Let's demilitarize Piedmont", [("stay_out", "Piedmont")]),
])
def test_a_place_demilitarised_is_kept_empty(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


def test_near_miss_another_demilitarises() -> None:
    assert read("France wants to demilitarize Piedmont") == []


@pytest.mark.parametrize("text", ["Yes I will", "I would, yes.", "I will do.", "Yeah, I will.", "I'm down!",
                                  "Yeah I'm totally down", "I'm game."])
def test_a_replys_bare_yes_accepts(text: str) -> None:
    assert read(text) == [("accept", None)]


@pytest.mark.parametrize("text", ["I would, but I can't this turn", "If you ask, I will", "No, I will not",
                                  "I will see", "I'm down to two centres", "The game is long"])
def test_near_misses_bare_yes(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize("text", ["There is a build for you from taking Warsaw", "Good job getting Munich"])
def test_a_gerund_after_a_preposition_reports_nothing(text: str) -> None:
    assert read(text) == []


def test_near_miss_a_telegraphic_report_moves() -> None:
    assert read("Heading to Warsaw next turn") == [("meet", "Warsaw")]


@pytest.mark.parametrize(("text", "expected"), [
    ("F BAR - NWG", [("meet", "Norwegian Sea")]),
    ("A Tyr - Trl, F Edi - Nwy", [("meet", "Tyrolia"), ("meet", "Norway")]),
    ("F Wal - Lvp this spring", [("meet", "Liverpool")]),
    ("F Lon - NTH, A Yor - Lvp", [("meet", "Liverpool")]),  # North Sea, North Africa and the North Atlantic share "nth"
    ("F Mar - Lyo", [("meet", "Gulf of Lyon")]),
    ("F Swe - BOT", [("meet", "Gulf of Bothnia")]),
])
def test_the_games_consonant_abbreviations_and_gulfs_by_name(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("F SKA - NTH", []),  # North Sea, North Africa and the North Atlantic all hold "nth": none of them
    ("I will move to Trieste", [("meet", "Trieste")]),
])
def test_near_misses_abbreviations(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm building F Smy and A Con", [("meet", "Smyrna"), ("meet", "Constantinople")]),
    ("If they were to turn and do Pie - Tyr, that would help", []),
    ("So my suggestions: A Bur - Mun, A Ruh - Kie", []),
])
def test_lists_of_orders_read_each_on_its_own_and_in_their_frame(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I will cover Vie for you: Bud - Vie, Ser - Bud", [("meet", "Vienna"), ("meet", "Budapest")]),
    ("Here are my orders: A Par - Bur, F Bre - MAO", [("meet", "Burgundy"), ("meet", "Mid-Atlantic Ocean")]),
    ("So I propose A Bud S Ser - Tri, Ser - Tri, Gre - Alb", [("meet", "Trieste"), ("meet", "Albania")]),
    ("So I plan to do F Ion S F Nap - Tun, A Apu - Ven", []),  # the plan covers the order read on its own
])
def test_near_misses_lists_of_orders(text: str, expected: list[tuple[str, str]]) -> None:
    assert read(text) == expected
