"""Who heard each message: the exposure record every injection figure starts from.

Seed 002 §2.7 ("message events need provenance forensics: sender id, turn,
channel, verbatim bytes") and §3.1 item 10; contract §3 (``message``,
``message_private``) and §5 (*exposed*).  The audience of a message is
:func:`daishi_forensics.contact.hearers` evaluated on the world just before the
message applies:

- ``broadcast``: every living, non-dormant agent other than the sender;
- ``local``: the living, non-dormant agents in the sender's region at that moment;
- ``message_private``: its ``payload.to``, if alive and not dormant;
- any other channel: nobody (never guessed).

:class:`ExposurePass` keeps, per message, a compact :class:`HeardMessage`: ids,
tick, sender, channel, the hearers, the first :data:`TEXT_CAP` characters of the
text (what the fuzzy matcher and the secret detector look at), the full length,
the probe block if any, and the broadcast-canary tokens the *full* text contains
(exact substring search, linear).  Broadcast audiences are shared between the
messages sent while the audience is unchanged (``world.audience_version``), so
memory grows with messages, not with messages × agents.  It also keeps each
agent's dormant spans (:attr:`Exposure.dormancy`): an agent cannot pass a message
on while it is dormant, so propagation counts delays in awake ticks.

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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .contact import hearers
from .replay import Event, World

__all__ = [
    "TEXT_CAP",
    "MIN_CANARY",
    "PRIVATE_CAVEAT",
    "HeardMessage",
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
    """Who heard it (:func:`~daishi_forensics.contact.hearers`); possibly shared with other messages."""
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


@dataclass(frozen=True, slots=True)
class Exposure:
    """Result of :class:`ExposurePass`."""

    messages: tuple[HeardMessage, ...]
    """Every message in log order."""
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
        for m in self.messages:
            for a in m.hearers:
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


def _text_of(payload: Mapping[str, Any]) -> str:
    text = payload.get("text")
    return text if isinstance(text, str) else ""


class ExposurePass:
    """Records every message with its audience (see the module docstring)."""

    types: frozenset[str] | None = frozenset(
        {"message", "message_private", "agent_dormant", "agent_awake", "agent_died"}
    )

    def __init__(self, archive: Mapping[str, Any]) -> None:
        self._archive = archive
        self._asleep: dict[str, int] = {}
        self._spans: dict[str, list[tuple[int, int]]] = {}
        self._last_tick = 0
        self._messages: list[HeardMessage] = []
        self._canaries: list[str] = []
        self._private = 0
        self._bc_version = -1
        self._bc_cache: dict[str, frozenset[str]] = {}
        self._result: Exposure | None = None
        self.memo: dict[str, Any] = {}
        """Results derived from this exposure (propagation...), computed once per analysis."""

    def _audience(self, ev: Event, world: World, sender: str, channel: Any) -> frozenset[str]:
        if ev["type"] == "message" and channel == "broadcast":
            # same answer as hearers(); shared while the audience is unchanged
            if world.audience_version != self._bc_version:
                self._bc_version = world.audience_version
                self._bc_cache = {}
            got = self._bc_cache.get(sender)
            if got is None:
                got = self._bc_cache[sender] = hearers(ev, world)
            return got
        return hearers(ev, world)

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
        self._last_tick = max(self._last_tick, ev["tick"])
        if ev["type"] not in ("message", "message_private"):
            self._dormancy(ev, sender)
            return
        payload = ev.get("payload")
        if not isinstance(payload, Mapping):
            payload = {}
        kind = ev["type"]
        if kind == "message_private":
            self._private += 1
            channel = "private"
            to = payload.get("to") if isinstance(payload.get("to"), str) else None
        else:
            raw = payload.get("channel")
            channel = raw if isinstance(raw, str) else "?"
            to = None
        text = _text_of(payload)
        probe = payload.get("probe") if isinstance(payload.get("probe"), Mapping) else None
        if probe is not None:
            canary = probe.get("canary")
            if isinstance(canary, str) and len(canary) >= MIN_CANARY and canary not in self._canaries:
                self._canaries.append(canary)
        found = tuple(c for c in self._canaries if c in text) if text else ()
        eid = ev.get("id")
        self._messages.append(HeardMessage(
            index=len(self._messages),
            event=eid if isinstance(eid, int) else -1,
            tick=ev["tick"],
            sender=sender,
            kind=kind,
            channel=channel,
            to=to,
            hearers=self._audience(ev, world, sender, payload.get("channel")),
            text=text[:TEXT_CAP],
            length=len(text),
            probe=probe,
            canaries=found,
        ))

    def result(self) -> Exposure:
        """Every message with its audience, and what the log shows of direct messages."""
        if self._result is None:
            spans = {a: list(v) for a, v in self._spans.items()}
            for agent, start in self._asleep.items():
                spans.setdefault(agent, []).append((start, self._last_tick + 1))
            self._result = Exposure(
                tuple(self._messages),
                private_visibility(self._private, self._archive),
                self._private,
                {a: tuple(sorted(v)) for a, v in sorted(spans.items())},
            )
        return self._result
