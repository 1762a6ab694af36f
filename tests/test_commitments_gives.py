"""Gives read where none or a trade was meant: the extractor's mechanisms, one hand-written case each.

Every sentence here was written for its rule (none is a row of the labelled set).  Two ways a
``give`` comes out wrong: the speaker's receive side takes a shape the walk did not read as an ask
(what the speaker ends up with, holds on to, or gets as the purpose of the give; the speaker's
share after a comma), so a trade loses its price; or nothing is offered at all (a condition
contrary to fact, the outcome of another's proposal, terms judged by a negated verb, a relative
"which" that judges the terms)."""

from __future__ import annotations

import pytest

from .campkit import got


@pytest.mark.parametrize(("text", "expected"), [
    # what the speaker ends up with is the speaker's share (R14, R15)
    ("I'll hand you 3 food and I would end up with the water.", [("trade", {"food": 3}, {"water": None})]),
    ("You may have the firewood, and I'll be left with 2 water.", [("trade", {"firewood": None}, {"water": 2})]),
    ("I can send you 2 food, leaving me with all 3 water.", [("trade", {"food": 2}, {"water": 3})]),
    ("You get all the food, which leaves me 2 water.", [("trade", {"food": None}, {"water": 2})]),
    ("I'll give you 1 firewood. That leaves me 2 firewood.", [("trade", {"firewood": 1}, {"firewood": 2})]),
    ("I'll give you 3 food with me keeping the water.", [("trade", {"food": 3}, {"water": None})]),
    ("I'll walk away with the water and you can have all the food.", [("trade", {"food": None}, {"water": None})]),
    # another's outcome, or a negated one, asks for nothing
    ("I'll give you 2 food and you end up with more food than me.", [("give", {"food": 2}, {})]),
    # goods the speaker holds on to, or that stay with the speaker
    ("I'll give you 2 food and hang on to the water.", [("trade", {"food": 2}, {"water": None})]),
    ("You can have the firewood, I'll hold onto the water.", [("trade", {"firewood": None}, {"water": None})]),
    ("You can have all the food. The water stays with me.", [("trade", {"food": None}, {"water": None})]),
    # the speaker's share named as such, or after the comma of a split
    ("I'll give you the firewood. My share would be 2 water.", [("trade", {"firewood": None}, {"water": 2})]),
    ("You can have 2 food, 3 firewood for me.", [("trade", {"food": 2}, {"firewood": 3})]),
    ("I can give you 2 food and the 3 water would come to me.", [("trade", {"food": 2}, {"water": 3})]),
    ("All the food for you, all the water for me.", [("trade", {"food": None}, {"water": None})]),
    # a receive verb as the purpose of the give is its price
    ("I'm willing to give up all the firewood to get all the water.",
     [("trade", {"firewood": None}, {"water": None})]),
    ("I need 3 food to get through the night.", []),
    ("I can part with the firewood to have the food.", [("trade", {"firewood": None}, {"food": None})]),
    # a verb after "and" shares the speaker as subject across the object "you"
    ("I'm giving you 2 food and taking 2 water.", [("trade", {"food": 2}, {"water": 2})]),
])
def test_the_receive_side_in_other_shapes(text: str, expected: list[tuple[object, ...]]) -> None:
    assert got(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a condition contrary to fact promises nothing (R8)
    ("I would give you the food if I didn't need it so much.", []),
    ("If I had more water I would send you some water.", []),
    ("I'd give you the firewood if I was not camping in the cold.", []),
    ("If we had any spare water, we would give you some water.", []),
    # ... but the addressee's act, or "if I got X", is the price of a conditional offer (R7, R17)
    ("I would give you the food if you gave me the water.", [("trade", {"food": None}, {"water": None})]),
    ("I would give you 2 food if I got 2 water.", [("trade", {"food": 2}, {"water": 2})]),
    # the outcome of another proposal, or the terms as they stand, described (R8)
    ("In that case you would get 3 food.", []),
    ("You would get 2 food in that case, which is too much.", []),
    ("You already get most of the food.", []),
    ("In that case I will give you 3 food.", [("give", {"food": 3}, {})]),
    ("You would get 3 food.", [("give", {"food": 3}, {})]),
    # terms named as a gerund phrase and judged by a negated verb (R6)
    ("You having all the food doesn't work for me.", []),
    ("Me giving you 3 food would not work.", []),
    ("Handing you all the water is out of the question.", []),
    ("Sending you 2 food now.", [("give", {"food": 2}, {})]),
    # a relative "which" after a comma judges the terms before it; it opens no question (R3, R6)
    ("I would be giving you all my food, which is too much.", []),
    ("I'll give you 2 food, which do you prefer?", [("give", {"food": 2}, {})]),
])
def test_no_give_where_nothing_is_offered(text: str, expected: list[tuple[object, ...]]) -> None:
    assert got(text) == expected
