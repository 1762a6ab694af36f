"""The campsite extractor the commitment rule tests read their made-up sentences with, and its readings.

Every rule test of the extractor's later versions (``test_commitments_v8_rules.py`` to ``v13``, the gives, the
pool's rules and the real turns) writes campsite-style sentences: the three goods of a campsite-supplies
negotiation, no places, two campers.  They share the extractor built for that vocabulary (built once: an
extractor remembers nothing between texts) and read it one of three ways.
"""

from __future__ import annotations

from daishi_forensics.profile.commitments import HeuristicExtractor

CAMP = HeuristicExtractor({"items": ["food", "water", "firewood"], "places": [], "agents": ["a", "b"]})
"""The extractor for campsite sentences: food, water and firewood, no places, agents ``a`` and ``b``."""


def kinds(text: str) -> list[str]:
    """The kinds of the commitments ``text`` holds, in order."""
    return [c.kind for c in CAMP.extract(text).commitments]


def terms(text: str) -> list[tuple[str, dict[str, int | None], dict[str, int | None], str | None]]:
    """Each commitment's terms: kind, give side, receive side and region."""
    return [c.terms() for c in CAMP.extract(text).commitments]


def got(text: str) -> list[tuple[str, dict[str, int | None], dict[str, int | None]]]:
    """Each commitment as kind, give side and receive side."""
    return [(c.kind, dict(c.give), dict(c.receive)) for c in CAMP.extract(text).commitments]
