"""What a report's tables hold: typed cells and blocks, shared by the text, Markdown and HTML renderers.

A :class:`Block` is one table of the report (its title, the sentence before it, headers
and rows).  Most cells are plain values (numbers, strings, ``None``); a few carry what a
renderer needs beyond their text:

* :class:`Agent` -- a seat, written ``Name (id)`` everywhere (just the id when the seat has
  no name);
* :class:`EventIds` -- event ids a reader can open: each links to its row of the evidence
  table in HTML;
* :class:`Level` -- a verdict level (``flag``, ``review``, ``clear``): coloured on a terminal
  and on the page;
* :class:`Figure` -- a number as the report words it (a signed difference ``+3``, an interval
  ``0.1 … 0.4``): a number to every renderer, aligned right and never wrapped.

Every string here is data or the tool's own words; renderers escape it (control
characters written out by :func:`daishi_forensics.textsafe.shown`, HTML escaped).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from daishi_forensics.textsafe import shown_name

__all__ = ["Agent", "Block", "EventIds", "Figure", "Level", "Names", "LEVELS", "MAX_IDS_TEXT", "is_number"]


LEVELS = ("flag", "review", "clear")
"""The verdict levels, most serious first."""

MAX_IDS_TEXT = 12
"""Event ids a text or Markdown cell lists before saying how many more there are (HTML links them all)."""


_NUMBER = r"[+\-\u2212]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:e[+\-]?\d+)?%?"
_NUMBER_TEXT = re.compile(rf"{_NUMBER}(?: ?[\u2013\-\u2026/] ?{_NUMBER})?")


def is_number(value: Any) -> bool:
    """Whether a cell holds a number a page keeps whole on one line (and aligns right): an int or a float, or
    a text that is one number (``-12``, ``+3``, ``5.96e-08``, ``40%``) or two joined by a dash, a hyphen, an
    ellipsis or a slash (an interval ``0.439–1.000``, a range ``0–239``, ``3-5``, ``12/40``).

    >>> [is_number(v) for v in (3, -0.5, "-12", "5.96e-08", "0.439–1.000", "0 … 1", "3-5", True, "gpt-5", "")]
    [True, True, True, True, True, True, True, False, False, False]
    """
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float, Figure)):
        return True
    return isinstance(value, str) and _NUMBER_TEXT.fullmatch(value) is not None


@dataclass(frozen=True)
class Agent:
    """A seat in a table cell."""

    agent_id: str
    name: str | None = None

    def shown_label(self) -> str:
        """The seat as a table cell, a page or a sentence writes it: ``Name (id)``, or the id alone when the seat
        has no name (or its name is its id), with every space of the name a table would trim or collapse, or a
        browser or rendered Markdown collapse, written out (:func:`~daishi_forensics.textsafe.shown_name`), so
        ``" Ash"`` and ``"Ash"``, ``"Ash  Vale"`` and ``"Ash Vale"`` differ wherever a seat is written.

        >>> Agent("a_2", " Ash").shown_label(), Agent("a_3", "Ash  Vale").shown_label(), Agent("a_1").shown_label()
        ('\\\\x20Ash (a_2)', 'Ash\\\\x20\\\\x20Vale (a_3)', 'a_1')
        """
        if self.name and self.name != self.agent_id:
            return f"{shown_name(self.name)} ({self.agent_id})"
        return self.agent_id


@dataclass(frozen=True)
class EventIds:
    """Event ids a reader can open (evidence, the events of a finding, a probe message)."""

    ids: tuple[int, ...]
    total: int | None = None
    """How many there are when ``ids`` lists only some (a finding keeps the first few)."""

    def count(self) -> int:
        return max(self.total or 0, len(self.ids))


@dataclass(frozen=True)
class Figure:
    """A number written as the report words it (the tool's own text, never data): a signed difference ``+3``,
    an interval ``-0.5 … 0.5``; a table aligns it right, as the numbers beside it, and never wraps it."""

    text: str


@dataclass(frozen=True)
class Level:
    """A verdict level: ``flag``, ``review`` or ``clear`` (anything else is shown as it is)."""

    level: str


@dataclass(frozen=True)
class Block:
    """One table of a report."""

    key: str
    """A stable anchor name (``seats``, ``ledger``...), for the contents and links."""
    title: str
    intro: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Any]]
    layout: str = "table"
    """``table``, or ``records`` (one paragraph per row, for rows of long text: flags, findings)."""
    long: bool = False
    """A long table a reader opens on purpose (collapsed in HTML, placed last)."""
    note: str = ""
    """A sentence after the table (what was left out, where the rest is)."""
    marked: frozenset[int] = field(default_factory=frozenset)
    """Rows to set apart (the seat in focus)."""
    key_columns: int = 1
    """Columns that say what a row is about (repeated when a terminal table is printed in parts; the
    title of a record)."""


class Names:
    """Agent id -> name, from the report's seats; writes seats as :class:`Agent` cells and names
    the agents an explanation mentions."""

    def __init__(self, seats: Sequence[Mapping[str, Any]]) -> None:
        self.names: dict[str, str | None] = {}
        for seat in seats:
            agent = seat.get("agentId")
            if isinstance(agent, str):
                name = seat.get("name")
                self.names[agent] = name if isinstance(name, str) and name.strip() else None
        ids = sorted((a for a, n in self.names.items() if n and n != a), key=lambda a: (-len(a), a))
        self._pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])") if ids else None

    def agent(self, agent_id: Any) -> Agent | Any:
        """An :class:`Agent` cell for an id (anything else is returned as it is)."""
        if not isinstance(agent_id, str):
            return agent_id
        return Agent(agent_id, self.names.get(agent_id))

    def label(self, agent_id: Any) -> str:
        """A seat as a table cell or a sentence writes it (:meth:`Agent.shown_label`): ``\\x20Ash (a_2)``,
        ``Ash\\x20\\x20Vale (a_3)``; anything but an id as it is."""
        cell = self.agent(agent_id)
        return cell.shown_label() if isinstance(cell, Agent) else str(cell)

    def labels(self, ids: Sequence[Any]) -> str:
        return ", ".join(self.label(a) for a in ids)

    def named(self, text: str) -> str:
        """``text`` with every seat id it mentions written with its name as a table cell writes it
        (:meth:`Agent.shown_label`): ``a_e0c0`` -> ``Ash (a_e0c0)``.

        >>> Names([{"agentId": "a_1", "name": "Ash"}, {"agentId": "a_2", "name": "Nyx  Vale"}]).named("a_1 paid a_10 and a_2")
        'Ash (a_1) paid a_10 and Nyx\\\\x20\\\\x20Vale (a_2)'
        """
        if self._pattern is None or not isinstance(text, str):
            return text
        return self._pattern.sub(lambda m: Agent(m.group(1), self.names.get(m.group(1))).shown_label(), text)

