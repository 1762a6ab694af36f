"""Who heard each message: the exposure record every injection figure starts from.

Seed 002 §2.7 ("message events need provenance forensics: sender id, turn,
channel, verbatim bytes") and §3.1 item 10; contract §3 (``message``,
``message_private``) and §5 (*exposed*).  The audience of a message is
:func:`daishi_forensics.economy.contact.hearers` evaluated on the world just before the
message applies:

- ``broadcast``: every living, non-dormant agent other than the sender;
- ``local``: the living, non-dormant agents in the sender's region at that moment;
- ``message_private``: its ``payload.to``, if alive and not dormant;
- any other channel: nobody (never guessed).

:class:`ExposurePass` keeps every message, because the propagation chains (and the
injection summary built on them) read them all after the replay: per message, what a
:class:`HeardMessage` holds: ids, tick, sender, channel, the hearers, the first
:data:`TEXT_CAP` characters of the text (what the fuzzy matcher and the secret
detector look at), the full length, the probe block if any, and the broadcast-canary
tokens the *full* text contains (exact substring search, linear).  It stores them by
column (:class:`MessageLog`: ids and ticks in integer columns, 8 bytes each; sender,
route, audience and text as codes into tables of their distinct values, 4 bytes each)
and makes the :class:`HeardMessage` records on demand, so memory grows with messages
by about 32 bytes each, plus each distinct text and audience once, not with messages
× agents.  When the replay reaches the match end it lets go of the tables' look-ups
(value -> code), which only adding a message needs.  (Broadcast audiences are
computed once per sender while the audience is unchanged, ``world.audience_version``.)
It also keeps each agent's dormant spans (:attr:`Exposure.dormancy`): an agent cannot
pass a message on while it is dormant, so propagation counts delays in awake ticks.

**Private messages.**  A public export leaves out ``message_private`` events
(contract §1).  :class:`Exposure` says what this log shows (``private_visibility``):
``"present"`` (the log holds direct messages: an operator's store), ``"absent"``
(the archive's ``metrics`` count direct messages the log does not hold: a public
export) or ``"unknown"`` (none in the log, and nothing says whether there were
any).  Every figure that depends on direct messages carries that caveat
(:meth:`Exposure.private_caveat`).

>>> from daishi_forensics.replay import replay
>>> events = [
...     {"id": 1, "tick": 0, "type": "agent_spawned", "agentId": "a_1", "payload": {"region": "r_0_0"}},
...     {"id": 2, "tick": 0, "type": "agent_spawned", "agentId": "a_2", "payload": {"region": "r_0_0"}},
...     {"id": 3, "tick": 0, "type": "agent_spawned", "agentId": "a_3", "payload": {"region": "r_4_4"}},
...     {"id": 4, "tick": 1, "type": "message", "agentId": "a_1",
...      "payload": {"channel": "local", "text": "wood for ore?"}},
... ]
>>> p = ExposurePass({})
>>> _ = replay(events, {}, [p])
>>> [(m.event, sorted(m.hearers)) for m in p.result().messages]
[(4, ['a_2'])]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from daishi_forensics.replay import Table, int_column
from daishi_forensics.economy.contact import hearers
from daishi_forensics.replay import Event, World

__all__ = [
    "TEXT_CAP",
    "MIN_CANARY",
    "PRIVATE_CAVEAT",
    "HeardMessage",
    "MessageLog",
    "Exposure",
    "ExposurePass",
    "private_visibility",
]

TEXT_CAP = 4096
"""Characters of a message text kept for the fuzzy matcher and the secret detector
(a longer text is represented by its first 4,096 characters; canaries are still
searched in the whole text)."""

MIN_CANARY = 6
"""Shortest canary token tracked (a one-letter "canary" would be found in every text)."""

PRIVATE_CAVEAT = (
    "this log holds no direct messages (message_private): a public export leaves them out, "
    "so anything that only happened in a direct message is not seen here"
)

Visibility = Literal["present", "absent", "unknown"]


@dataclass(frozen=True, slots=True)
class HeardMessage:
    """One message and its audience."""

    index: int
    """Position among the match's messages (0, 1, 2 ... in log order)."""
    event: int
    """The event id."""
    tick: int
    """The tick it was sent in."""
    sender: str
    """The sending agent."""
    kind: str
    """``message`` or ``message_private``."""
    channel: str
    """``broadcast``, ``local``, ``private`` (a ``message_private``) or the payload's other value."""
    to: str | None
    """The recipient of a ``message_private``."""
    hearers: frozenset[str]
    """Who heard it (:func:`~daishi_forensics.economy.contact.hearers`); possibly shared with other messages."""
    text: str
    """The first :data:`TEXT_CAP` characters of ``payload.text`` ("" if absent or not a string)."""
    length: int
    """Length of the full text, in characters."""
    probe: Mapping[str, Any] | None
    """``payload.probe`` (contract §5) if present and an object."""
    canaries: tuple[str, ...]
    """Broadcast-canary tokens (from earlier or this probe's ``payload.probe.canary``) the full text contains."""

    def heard_by(self, agent: str) -> bool:
        """True if ``agent`` heard this message."""
        return agent in self.hearers


class MessageLog(Sequence[HeardMessage]):
    """Every message of a match in log order, stored by column; a read-only sequence of
    :class:`HeardMessage` (records are made when read; a slice is a log too).

    Ids and ticks are arrays; sender, route, audience and text are numbers into tables of
    their distinct values (:meth:`codes`), so hot loops (:mod:`.propagation`) read them
    without making a record per message.
    """

    __slots__ = ("_start", "_events", "_ticks", "_codes", "_tables", "_lengths", "_probes", "_canaries", "_indexes")

    def __init__(
        self,
        events: Sequence[int],
        ticks: Sequence[int],
        codes: tuple[Sequence[int], Sequence[int], Sequence[int], Sequence[int]],
        tables: tuple[Sequence[str], Sequence[tuple[str, str, str | None]], Sequence[frozenset[str]], Sequence[str]],
        lengths: Mapping[int, int] | None = None,
        probes: Mapping[int, Mapping[str, Any]] | None = None,
        canaries: Mapping[int, tuple[str, ...]] | None = None,
        start: int = 0,
        indexes: Sequence[int] | None = None,
    ) -> None:
        self._start = start
        self._indexes = indexes  # each record's index, when not start, start + 1, ...
        self._events = events
        self._ticks = ticks
        self._codes = codes    # (sender, route, audience, text) numbers, one per message
        self._tables = tables  # (senders, routes, audiences, texts): the distinct values
        self._lengths = lengths or {}
        self._probes = probes or {}
        self._canaries = canaries or {}

    @classmethod
    def of(cls, messages: Sequence[HeardMessage]) -> MessageLog:
        """The log of ``messages`` (records in log order; reading it gives the same records)."""
        tables = (Table(), Table(), Table(), Table())
        indexes = [m.index for m in messages]
        start = indexes[0] if indexes else 0
        for m in messages:
            tables[0].add(m.sender)
            tables[1].add((m.kind, m.channel, m.to))
            tables[2].add(m.hearers)
            tables[3].add(m.text)
        return cls(
            [m.event for m in messages], [m.tick for m in messages],
            (tables[0].column, tables[1].column, tables[2].column, tables[3].column),
            (tables[0].values, tables[1].values, tables[2].values, tables[3].values),
            {i: m.length for i, m in enumerate(messages) if m.length != len(m.text)},
            {i: m.probe for i, m in enumerate(messages) if m.probe is not None},
            {i: m.canaries for i, m in enumerate(messages) if m.canaries},
            start,
            None if indexes == list(range(start, start + len(indexes))) else indexes,
        )

    def __len__(self) -> int:
        return len(self._events)

    def _record(self, i: int) -> HeardMessage:
        senders, routes, audiences, texts = self._tables
        s, r, a, t = self._codes
        kind, channel, to = routes[r[i]]
        text = texts[t[i]]
        return HeardMessage(
            index=self._start + i if self._indexes is None else self._indexes[i],
            event=self._events[i],
            tick=self._ticks[i],
            sender=senders[s[i]],
            kind=kind,
            channel=channel,
            to=to,
            hearers=audiences[a[i]],
            text=text,
            length=self._lengths.get(i, len(text)),
            probe=self._probes.get(i),
            canaries=self._canaries.get(i, ()),
        )

    @overload
    def __getitem__(self, i: int) -> HeardMessage: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[HeardMessage]: ...

    def __getitem__(self, i: int | slice) -> Any:
        n = len(self._events)
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if step != 1:
                return tuple(self._record(k) for k in range(start, stop, step))
            stop = max(start, stop)

            def sparse(m: Mapping[int, Any]) -> dict[int, Any]:
                return {k - start: v for k, v in m.items() if start <= k < stop}

            return MessageLog(
                self._events[start:stop], self._ticks[start:stop],
                tuple(c[start:stop] for c in self._codes),  # type: ignore[arg-type]
                self._tables, sparse(self._lengths), sparse(self._probes), sparse(self._canaries),
                self._start + start, None if self._indexes is None else self._indexes[start:stop],
            )
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("message index out of range")
        return self._record(i)

    def __iter__(self) -> Iterator[HeardMessage]:
        for i in range(len(self._events)):
            yield self._record(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MessageLog):
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"MessageLog({len(self)} messages)"

    @property
    def events(self) -> Sequence[int]:
        """The event ids, in log order (shared: do not modify)."""
        return self._events

    @property
    def ticks(self) -> Sequence[int]:
        """The ticks, in log order (shared: do not modify)."""
        return self._ticks

    @property
    def canaries(self) -> Mapping[int, tuple[str, ...]]:
        """Position -> the canary tokens of that message (only messages holding one)."""
        return self._canaries

    def senders(self) -> list[str]:
        """The senders, in log order."""
        table = self._tables[0]
        return [table[k] for k in self._codes[0]]

    def audiences(self) -> list[frozenset[str]]:
        """Who heard each message, in log order."""
        table = self._tables[2]
        return [table[k] for k in self._codes[2]]

    def texts(self) -> list[str]:
        """The (capped) texts, in log order."""
        table = self._tables[3]
        return [table[k] for k in self._codes[3]]

    def codes(self) -> tuple[tuple[Sequence[int], Sequence[str]], tuple[Sequence[int], Sequence[frozenset[str]]],
                             tuple[Sequence[int], Sequence[str]]]:
        """``((sender numbers, senders), (audience numbers, audiences), (text numbers, texts))``:
        per message the number of its value in a table of the distinct values (equal values
        have one number)."""
        (s, _r, a, t), (senders, _routes, audiences, texts) = self._codes, self._tables
        return (s, senders), (a, audiences), (t, texts)


@dataclass(frozen=True, slots=True)
class Exposure:
    """Result of :class:`ExposurePass`."""

    messages: Sequence[HeardMessage]
    """Every message in log order (a :class:`MessageLog`)."""
    private_visibility: Visibility
    """Whether this log shows direct messages (module docstring)."""
    private_messages: int
    """``message_private`` events in the log."""
    dormancy: Mapping[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    """Agent -> its dormant spans ``(from tick, to tick)`` (``agent_dormant`` to ``agent_awake``
    or ``agent_died``; a span still open at the end runs to the last tick seen + 1), sorted."""

    def private_caveat(self) -> str | None:
        """The caveat to attach to a figure that depends on direct messages, or None."""
        return None if self.private_visibility == "present" else PRIVATE_CAVEAT

    def exposures_by_agent(self) -> dict[str, int]:
        """Agent -> messages it heard (sorted by agent)."""
        counts: dict[str, int] = {}
        audiences = (self.messages.audiences() if isinstance(self.messages, MessageLog)
                     else [m.hearers for m in self.messages])
        for heard in audiences:
            for a in heard:
                counts[a] = counts.get(a, 0) + 1
        return dict(sorted(counts.items()))


def private_visibility(private_messages: int, archive: Mapping[str, Any]) -> Visibility:
    """``present`` if the log holds direct messages; ``absent`` if the archive's
    ``metrics`` count some the log lacks (a public export); else ``unknown``."""
    if private_messages:
        return "present"
    metrics = archive.get("metrics")
    if isinstance(metrics, Mapping):
        for counts in metrics.values():
            if isinstance(counts, Mapping):
                n = counts.get("message_private")
                if isinstance(n, int) and not isinstance(n, bool) and n > 0:
                    return "absent"
    return "unknown"


class ExposurePass:
    """Records every message with its audience (see the module docstring)."""

    types: frozenset[str] | None = frozenset(
        {"message", "message_private", "agent_dormant", "agent_awake", "agent_died"}
    )

    merges_spans = True
    """``close_ticks(a, c)`` then ``close_ticks(c, b)`` with nothing observed between is
    ``close_ticks(a, b)``: it only lets go of look-ups, once a span reaches the match end."""

    def __init__(self, archive: Mapping[str, Any]) -> None:
        self._archive = archive
        self._asleep: dict[str, int] = {}
        self._spans: dict[str, list[tuple[int, int]]] = {}
        self._last_tick = 0
        # the messages, by column (MessageLog)
        self._events = int_column()
        self._ticks = int_column()
        self._senders = Table()
        self._routes = Table()
        self._audiences = Table()
        self._texts = Table()
        # a message's route by its public channel or its addressee, without making its triple
        self._public_routes: dict[str, int] = {}
        self._private_routes: dict[str | None, int] = {}
        self._lengths: dict[int, int] = {}
        self._probes: dict[int, Mapping[str, Any]] = {}
        self._found: dict[int, tuple[str, ...]] = {}
        self._canaries: list[str] = []
        self._private = 0
        self._bc_version = -1
        self._bc_cache: dict[str, frozenset[str]] = {}
        end = archive.get("endedAtTick")
        self._end = end if isinstance(end, int) and not isinstance(end, bool) else None
        self._sealed = False  # the tables' look-ups let go (the replay reached the match end)
        self._result: Exposure | None = None
        self.memo: dict[str, Any] = {}
        """Results derived from this exposure (propagation...), computed once per analysis."""

    def _dormancy(self, ev: Event, agent: str) -> None:
        tick = ev["tick"]
        if ev["type"] == "agent_dormant":
            self._asleep.setdefault(agent, tick)
            return
        start = self._asleep.pop(agent, None)
        if start is not None:
            self._spans.setdefault(agent, []).append((start, tick))

    def observe(self, ev: Event, world: World) -> None:
        """Record the message and who heard it (world as it stood just before it)."""
        sender = ev.get("agentId")
        if not isinstance(sender, str):
            return
        tick = ev["tick"]
        if tick > self._last_tick:
            self._last_tick = tick
        kind = ev["type"]
        if kind != "message" and kind != "message_private":
            self._dormancy(ev, sender)
            return
        payload = ev.get("payload")
        if type(payload) is not dict and not isinstance(payload, Mapping):
            payload = {}
        raw = payload.get("channel")
        if kind == "message_private":
            self._private += 1
            channel = "private"
            to = payload.get("to")
            if not isinstance(to, str):
                to = None
            route = self._private_routes.get(to)
            if route is None:
                route = self._private_routes[to] = self._routes.code((kind, channel, to))
            heard = hearers(ev, world)
        else:
            channel = raw if isinstance(raw, str) else "?"
            to = None
            route = self._public_routes.get(channel)
            if route is None:
                route = self._public_routes[channel] = self._routes.code((kind, channel, to))
            if raw == "broadcast":
                # same answer as hearers(); computed once per sender while the audience is unchanged
                if world.audience_version != self._bc_version:
                    self._bc_version = world.audience_version
                    self._bc_cache = {}
                heard = self._bc_cache.get(sender)  # type: ignore[assignment]
                if heard is None:
                    heard = self._bc_cache[sender] = hearers(ev, world)
            else:
                heard = hearers(ev, world)
        text = payload.get("text")
        if not isinstance(text, str):
            text = ""
        position = len(self._events)
        probe = payload.get("probe")
        if probe is not None and (type(probe) is dict or isinstance(probe, Mapping)):
            self._probes[position] = probe
            canary = probe.get("canary")
            if isinstance(canary, str) and len(canary) >= MIN_CANARY and canary not in self._canaries:
                self._canaries.append(canary)
        if self._canaries and text:
            found = tuple(c for c in self._canaries if c in text)
            if found:
                self._found[position] = found
        self._result = None  # a new message: a result made before is stale
        self._events.append(ev["id"])
        self._ticks.append(tick)
        if len(text) > TEXT_CAP:
            self._lengths[position] = len(text)
            text = text[:TEXT_CAP]
        # the codes of sender, route, audience and text in their tables
        if self._sealed:
            self._unseal()
        self._senders.add(sender)
        self._routes.column.append(route)  # its code in the table of routes (numbered when first seen)
        self._audiences.add(heard)
        self._texts.add(text)

    def close_ticks(self, start: int, stop: int, world: World) -> None:
        """At the match end (``endedAtTick``), let go of the look-ups of the tables' values
        (value -> number: only adding a message needs them; one coming later rebuilds them)."""
        if not self._sealed and self._end is not None and stop >= self._end:
            for table in (self._senders, self._routes, self._audiences, self._texts):
                table.forget()
            self._sealed = True

    def _unseal(self) -> None:
        for table in (self._senders, self._routes, self._audiences, self._texts):
            table.remember()
        self._sealed = False

    def result(self) -> Exposure:
        """Every message with its audience, and what the log shows of direct messages."""
        if self._result is None:
            spans = {a: list(v) for a, v in self._spans.items()}
            for agent, start in self._asleep.items():
                spans.setdefault(agent, []).append((start, self._last_tick + 1))
            self._result = Exposure(
                MessageLog(
                    self._events, self._ticks,
                    (self._senders.column, self._routes.column, self._audiences.column, self._texts.column),
                    (self._senders.values, self._routes.values, self._audiences.values, self._texts.values),
                    self._lengths, self._probes, self._found,
                ),
                private_visibility(self._private, self._archive),
                self._private,
                {a: tuple(sorted(v)) for a, v in sorted(spans.items())},
            )
        return self._result
