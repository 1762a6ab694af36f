"""The promise pass's store: closed commitments and betrayals by column (private to the
profile room; :mod:`.promises` makes the records).

The pass reports every commitment ever made and every betrayal, so it keeps each one
until the end of the match -- not as an object (a record is ~200 bytes with its tuples),
but by column:

* :class:`VerdictStore`, per closed commitment: the message id, its index in the message,
  the tick (``array('q')``); codes of the speaker, the addressee set, the commitment and the
  verdict ``(addressed by, status, reason)`` into tables of their distinct values (a
  commitment repeated in many messages is kept once); its evidence ids, flattened.  About
  40 bytes a commitment, plus each distinct value once.
* :class:`BetrayalStore`, per betrayal: event id, tick; codes of the type, the actor and the
  target; the ids of the commitment messages, and the last trade ``(event id, tick)``,
  flattened.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from daishi_forensics.replay import Rows, Table, code_column, int_column

from .commitments import Commitment

__all__ = ["VerdictStore", "BetrayalStore"]

Verdict = tuple[int, int, int, str, tuple[str, ...], str, Commitment, str, str, tuple[int, ...]]
"""A closed commitment as stored: ``(message id, index, tick, speaker, addressees (sorted),
addressed by, commitment, status, reason, evidence)``."""


class VerdictStore:
    """The verdicts of closed commitments, in the order they closed (module docstring)."""

    __slots__ = ("message", "index", "tick", "speaker", "audience", "commitment", "verdict", "evidence",
                 "speakers", "audiences", "addressees", "commitments", "numbered", "verdicts")

    def __init__(self) -> None:
        self.message = int_column()
        self.index = int_column()
        self.tick = int_column()
        self.speaker = code_column()
        self.audience = code_column()
        self.commitment = code_column()
        self.verdict = code_column()
        self.evidence = Rows()
        self.speakers = Table()
        """Distinct speakers (their codes are :attr:`speaker`)."""
        self.audiences = Table()
        """Distinct addressee sets (codes in :attr:`audience`) ..."""
        self.addressees: list[tuple[str, ...]] = []
        """... and each of them sorted, by code."""
        self.commitments: list[Commitment] = []
        """The commitments by code: each distinct plain one once, every other one apart."""
        self.numbered: dict[Commitment, int] | None = {}
        """Plain commitment -> code (only adding needs it: :meth:`forget` lets it go)."""
        self.verdicts = Table()
        """Distinct ``(addressed by, status, reason)`` (codes in :attr:`verdict`)."""

    def __len__(self) -> int:
        return len(self.message)

    def add(self, message_id: int, index: int, tick: int, speaker: str, addressees: frozenset[str],
            addressed_by: str, commitment: Commitment, status: str, reason: str, evidence: Iterable[int]) -> None:
        """Keep one closed commitment and its verdict."""
        self.message.append(message_id)
        self.index.append(index)
        self.tick.append(tick)
        self.speaker.append(self.speakers.code(speaker))
        audience = self.audiences.code(addressees)
        if audience == len(self.addressees):
            self.addressees.append(tuple(sorted(addressees)))
        self.audience.append(audience)
        self.commitment.append(self._commitment_code(commitment))
        self.verdict.append(self.verdicts.code((addressed_by, status, reason)))
        self.evidence.append(evidence)

    def _commitment_code(self, commitment: Commitment) -> int:
        """An equal plain commitment's code (numbering it if new); a commitment that is not plain
        gets a code of its own (an equal one of other types, ``1`` for ``True``, is not it)."""
        if _plain(commitment):
            numbered = self.numbered
            if numbered is None:
                numbered = self.numbered = {c: k for k, c in enumerate(self.commitments) if _plain(c)}
            code = numbered.get(commitment)
            if code is not None:
                return code
            numbered[commitment] = len(self.commitments)
        self.commitments.append(commitment)
        return len(self.commitments) - 1

    def fields(self, j: int) -> Verdict:
        """Row ``j``: ``(message id, index, tick, speaker, addressees, addressed by, commitment,
        status, reason, evidence)``."""
        addressed_by, status, reason = self.verdicts.values[self.verdict[j]]
        return (self.message[j], self.index[j], self.tick[j], self.speakers.values[self.speaker[j]],
                self.addressees[self.audience[j]], addressed_by, self.commitments[self.commitment[j]],
                status, reason, self.evidence[j])

    def by_message(self) -> array[int]:
        """The rows sorted by ``(message id, index)``."""
        message, index = self.message, self.index
        return int_column(sorted(range(len(message)), key=lambda j: (message[j], index[j])))

    def rows_of(self, agent: str, rows: Iterable[int]) -> Iterator[int]:
        """The rows among ``rows`` (in their order) whose speaker is ``agent``."""
        k = self.speakers.remember().get(agent)
        if k is None:
            return
        speaker = self.speaker
        for j in rows:
            if speaker[j] == k:
                yield j

    def kinds_and_statuses(self, rows: Iterable[int]) -> Iterator[tuple[str, str, str]]:
        """``(speaker, kind, status)`` of each row among ``rows``, in their order."""
        names = self.speakers.values
        kinds = [c.kind for c in self.commitments]
        statuses = [v[1] for v in self.verdicts.values]
        speaker, commitment, verdict = self.speaker, self.commitment, self.verdict
        for j in rows:
            yield names[speaker[j]], kinds[commitment[j]], statuses[verdict[j]]

    def with_status(self, status: str, rows: Iterable[int]) -> dict[str, list[int]]:
        """Speaker -> message ids of the rows among ``rows`` (in their order) whose status is ``status``."""
        names = self.speakers.values
        wanted = {k for k, v in enumerate(self.verdicts.values) if v[1] == status}
        out: dict[str, list[int]] = {}
        if not wanted:
            return out
        speaker, verdict, message = self.speaker, self.verdict, self.message
        for j in rows:
            if verdict[j] in wanted:
                out.setdefault(names[speaker[j]], []).append(message[j])
        return out

    def forget(self) -> None:
        """The replay is over: let go of what only adding needs (rebuilt if more comes)."""
        self.numbered = None


def _plain(c: Commitment) -> bool:
    """Every field of the type the heuristic extractor gives (so equal commitments are alike)."""
    if type(c.kind) is not str or type(c.conditional) is not bool or type(c.start) is not int \
            or type(c.end) is not int or (c.region is not None and type(c.region) is not str):
        return False
    for items in (c.give, c.receive):
        for item, quantity in items:
            if type(item) is not str or (quantity is not None and type(quantity) is not int):
                return False
    return True


class BetrayalStore:
    """The betrayals, in log order (module docstring)."""

    __slots__ = ("event_ids", "ticks", "types", "actors", "targets", "messages", "trades")

    def __init__(self) -> None:
        self.event_ids = int_column()
        self.ticks = int_column()
        self.types = Table()
        self.actors = Table()
        self.targets = Table()
        self.messages = Rows()  # the commitment messages' ids
        self.trades = Rows()    # (trade event id, trade tick), or () when none

    def __len__(self) -> int:
        return len(self.event_ids)

    def add(self, event_id: int, tick: int, type_: str, actor: str, target: str, messages: Iterable[int],
            trade: tuple[int, int] | None) -> None:
        """Keep one betrayal: the act, its open commitments' messages, the last trade ``(event id, tick)``."""
        self.event_ids.append(event_id)
        self.ticks.append(tick)
        self.types.add(type_)
        self.actors.add(actor)
        self.targets.add(target)
        self.messages.append(messages)
        self.trades.append(trade or ())

    def fields(self, i: int) -> tuple[int, int, str, str, str, tuple[int, ...], Any, Any]:
        """Row ``i``: ``(event id, tick, type, actor, target, commitment messages, trade event id,
        trade tick)`` (the last two None when there was no recent trade)."""
        trade = self.trades[i]
        return (self.event_ids[i], self.ticks[i], self.types.values[self.types.column[i]],
                self.actors.values[self.actors.column[i]], self.targets.values[self.targets.column[i]],
                self.messages[i], trade[0] if trade else None, trade[1] if trade else None)
