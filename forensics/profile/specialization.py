"""Specialization: what each seat spent its actions on, and how varied the match's roles were.

Seed 002 §2.8 (*Society metrics*, Project Sid): role-distribution entropy as the
specialization measure.  Project Sid infers roles from behaviour; here a seat's
role is the activity kind it did most, read from the event log.

Rules:

- **Activity kinds** and the event types (carrying the seat's ``agentId``) that
  count for each (:data:`ACTIVITY_OF_TYPE`):

  ===========  ==========================================================================
  kind         event types
  ===========  ==========================================================================
  gather       ``gather``
  craft        ``craft``
  build        ``build``, ``repair``
  trade        ``trade_offered``, ``trade_cancelled``, ``trade_completed``,
               ``trade_fulfilled`` (a completed trade is trading for both parties: after
               upcast each has its own event)
  fight        ``attack``, ``raid``, ``theft``
  talk         ``message``, ``message_private``
  explore      ``move``, ``look``
  ===========  ==========================================================================

  Not counted: ``rest``, ``train``, ``deposit``, ``withdraw`` and bookkeeping events.
- A seat's **distribution** is its count per kind over its total; its **entropy**
  is the Shannon entropy in bits, ``−Σ p log2 p`` over the kinds in the order above
  (0 = one activity only; at most log2 7 ≈ 2.807), and **normalized** entropy that
  over log2 7.  None for a seat with no activity.
- Its **role** is the kind with the highest count; a tie goes to the kind listed
  first above.  A seat with no activity has no role.
- The match's **role entropy** is the entropy (bits) of the distribution of roles
  over the seats that have one; normalized over log2 7.  High: seats took on
  different roles; 0: everyone did the same thing most.

>>> s = specialization({"a": {"gather": 3, "move": 1}, "b": {"message": 2}, "c": {"gather": 1}})
>>> s.seat("a").role, s.seat("a").entropy
('gather', 0.8112781244591328)
>>> s.roles, s.role_entropy
({'gather': 2, 'talk': 1}, 0.9182958340544896)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ._seats import find_seat

__all__ = ["ACTIVITY_KINDS", "ACTIVITY_OF_TYPE", "SeatActivity", "Specialization", "entropy_bits",
           "activity_counts", "specialization"]

ACTIVITY_KINDS: tuple[str, ...] = ("gather", "craft", "build", "trade", "fight", "talk", "explore")
"""The activity kinds, in report (and tie-break) order."""

ACTIVITY_OF_TYPE: Mapping[str, str] = {
    "gather": "gather",
    "craft": "craft",
    "build": "build", "repair": "build",
    "trade_offered": "trade", "trade_cancelled": "trade", "trade_completed": "trade", "trade_fulfilled": "trade",
    "attack": "fight", "raid": "fight", "theft": "fight",
    "message": "talk", "message_private": "talk",
    "move": "explore", "look": "explore",
}
"""Event type -> activity kind."""

_MAX_BITS = math.log2(len(ACTIVITY_KINDS))


def entropy_bits(counts: Mapping[str, int] | list[int]) -> float | None:
    """Shannon entropy in bits of a count distribution (in the given order); None when empty.

    >>> entropy_bits([1, 1])
    1.0
    >>> entropy_bits([5, 0])
    0.0
    """
    values = list(counts.values()) if isinstance(counts, Mapping) else list(counts)
    total = sum(values)
    if total <= 0:
        return None
    h = 0.0
    for n in values:
        if n > 0:
            p = n / total
            h -= p * math.log2(p)
    return h + 0.0  # never -0.0


def activity_counts(by_type: Mapping[str, int]) -> dict[str, int]:
    """Counts per activity kind (every kind, in order) from counts per event type."""
    out = {k: 0 for k in ACTIVITY_KINDS}
    for typ, n in by_type.items():
        kind = ACTIVITY_OF_TYPE.get(typ)
        if kind is not None:
            out[kind] += n
    return out


@dataclass(frozen=True, slots=True)
class SeatActivity:
    """One seat's activity distribution."""

    agent: str
    """The agent id."""
    counts: Mapping[str, int]
    """kind -> count (every kind)."""
    total: int
    """Σ counts."""
    entropy: float | None
    """Shannon entropy in bits; None with no activity."""
    normalized_entropy: float | None
    """entropy ÷ log2 7."""
    role: str | None
    """The most frequent kind (ties: first in :data:`ACTIVITY_KINDS`); None with no activity."""

    def share(self, kind: str) -> float | None:
        """count ÷ total; None with no activity."""
        return self.counts[kind] / self.total if self.total else None


@dataclass(frozen=True, slots=True)
class Specialization:
    """The match's specialization figures."""

    seats: tuple[SeatActivity, ...]
    """Every seat, sorted by id."""
    roles: Mapping[str, int]
    """role -> seats with it (only roles someone has, in :data:`ACTIVITY_KINDS` order)."""
    role_entropy: float | None
    """Entropy (bits) of the role distribution; None when no seat has a role."""
    normalized_role_entropy: float | None
    """role entropy ÷ log2 7."""

    def seat(self, agent: str) -> SeatActivity:
        """The seat's record (no activity when unknown)."""
        found = find_seat(self.seats, agent)
        return found if found is not None else SeatActivity(agent, {k: 0 for k in ACTIVITY_KINDS}, 0, None, None, None)


def specialization(by_agent: Mapping[str, Mapping[str, int]]) -> Specialization:
    """Specialization from event counts per agent and type (the archive ``metrics`` shape,
    or :meth:`daishi_forensics.economy.counters.Counters.metrics`)."""
    seats = []
    for agent in sorted(by_agent):
        counts = activity_counts(by_agent[agent])
        total = sum(counts.values())
        h = entropy_bits(counts)
        role = None
        if total:
            best = max(counts.values())
            role = next(k for k in ACTIVITY_KINDS if counts[k] == best)
        seats.append(SeatActivity(agent, counts, total, h, None if h is None else h / _MAX_BITS, role))
    roles = {k: 0 for k in ACTIVITY_KINDS}
    for s in seats:
        if s.role is not None:
            roles[s.role] += 1
    role_h = entropy_bits(roles)
    return Specialization(
        seats=tuple(seats),
        roles={k: n for k, n in roles.items() if n},
        role_entropy=role_h,
        normalized_role_entropy=None if role_h is None else role_h / _MAX_BITS,
    )
