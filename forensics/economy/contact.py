"""Who met whom, and who heard whom: co-location and message exposure per pair.

:func:`hearers` answers "who heard this message" from the world as it stood when
the message was sent (it is pure, and reused by injection forensics);
:class:`ContactPass` adds up, for every pair of agents ``a < b`` (string order,
ARCHITECTURE.md), the ticks they stood together and the messages that passed
between them.

Rules (contract §3 ``message`` / ``message_private``, §5 *exposed*):

- a ``broadcast`` is heard by every living, non-dormant agent other than the sender;
- a ``local`` message by the living, non-dormant agents other than the sender that
  stand in the sender's region at that moment (the world just before the message
  is applied: same tick, after the tick's earlier events);
- a ``message_private`` by its ``payload.to``, if that agent is alive and not
  dormant (contract §5: a dead or dormant target never heard it);
- a ``message`` with any other (or no) ``channel`` has no audience we can derive:
  nobody (never guessed).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from operator import add, sub
from typing import Any

from daishi_forensics.replay import Event, World

__all__ = ["hearers", "PairContact", "Contact", "ContactPass"]

_EMPTY: frozenset[str] = frozenset()


def hearers(ev: Mapping[str, Any], world: World) -> frozenset[str]:
    """The agents that heard message event ``ev``, given ``world`` just before it applies.

    Returns an empty set for an event that is not a message.  The sender never
    hears itself.

    >>> w = World()
    >>> for a, r in [("a_1", "r_0_0"), ("a_2", "r_0_0"), ("a_3", "r_5_5")]:
    ...     w.apply({"type": "agent_spawned", "agentId": a, "payload": {"region": r}})
    >>> msg = {"type": "message", "agentId": "a_1", "payload": {"channel": "local"}}
    >>> sorted(hearers(msg, w))
    ['a_2']
    >>> sorted(hearers({**msg, "payload": {"channel": "broadcast"}}, w))
    ['a_2', 'a_3']
    """
    typ = ev.get("type")
    sender = ev.get("agentId")
    payload = ev.get("payload") or {}
    if typ == "message":
        channel = payload.get("channel")
        if channel == "broadcast":
            audience = world.listening_agents()
            return audience - {sender} if sender in audience else audience
        if channel == "local":
            if sender is None:
                return _EMPTY
            region = world.region_of(sender)
            if region is None:
                return _EMPTY
            asleep = world.dormant_agents()
            return frozenset([a for a in world.occupants(region) if a != sender and a not in asleep])
        return _EMPTY
    if typ == "message_private":
        to = payload.get("to")
        if to is None or to == sender or not world.is_alive(to) or world.is_dormant(to):
            return _EMPTY
        return frozenset((to,))
    return _EMPTY


@dataclass(frozen=True, slots=True)
class PairContact:
    """Contact between two agents ``a < b`` over the match rounds."""

    a: str
    """The first agent (string order)."""
    b: str
    """The second agent."""
    ticks_together: int
    """Match ticks at whose end both stood in the same region, both alive (dormant or not)."""
    first_contact_tick: int | None
    """The first such tick; None if they never stood together."""
    direct_ab: int
    """``message_private`` events sent by ``a`` to ``b`` (sent, whether or not ``b`` was awake)."""
    direct_ba: int
    """``message_private`` events sent by ``b`` to ``a``."""
    broadcast_ab: int
    """``a``'s broadcasts that ``b`` heard."""
    broadcast_ba: int
    """``b``'s broadcasts that ``a`` heard."""
    local_ab: int
    """``a``'s local messages that ``b`` heard."""
    local_ba: int
    """``b``'s local messages that ``a`` heard."""

    @property
    def messages(self) -> int:
        """Every message that passed between them, both directions, all channels."""
        return (
            self.direct_ab + self.direct_ba + self.broadcast_ab + self.broadcast_ba
            + self.local_ab + self.local_ba
        )

    def to_json(self) -> dict[str, Any]:
        """The record with the export's camelCase keys."""
        return {
            "a": self.a,
            "b": self.b,
            "ticksTogether": self.ticks_together,
            "firstContactTick": self.first_contact_tick,
            "directAB": self.direct_ab,
            "directBA": self.direct_ba,
            "broadcastAB": self.broadcast_ab,
            "broadcastBA": self.broadcast_ba,
            "localAB": self.local_ab,
            "localBA": self.local_ba,
            "messages": self.messages,
        }


@dataclass(frozen=True, slots=True)
class Contact:
    """Result of :class:`ContactPass`."""

    pairs: tuple[PairContact, ...]
    """Every pair that ever stood together or passed a message, sorted by ``(a, b)``.
    A pair not listed has all zeros and no first contact."""

    def pair(self, x: str, y: str) -> PairContact:
        """The record of agents ``x`` and ``y`` in either order (all zeros if not listed)."""
        a, b = (x, y) if x < y else (y, x)
        i = bisect_left(self.pairs, (a, b), key=_pair_key)
        if i < len(self.pairs) and _pair_key(self.pairs[i]) == (a, b):
            return self.pairs[i]
        return PairContact(a, b, 0, None, 0, 0, 0, 0, 0, 0)

    def to_json(self) -> dict[str, Any]:
        """``{"pairs": [...]}`` with camelCase keys."""
        return {"pairs": [p.to_json() for p in self.pairs]}


def _pair_key(p: PairContact) -> tuple[str, str]:
    return (p.a, p.b)


class _Tally:
    __slots__ = ("direct_ab", "direct_ba", "first", "local_ab", "local_ba", "together")

    def __init__(self) -> None:
        self.together = 0
        self.first: int | None = None
        self.direct_ab = self.direct_ba = 0
        self.local_ab = self.local_ba = 0


def _credit(stay: Mapping[str, tuple[int, int]], left: list[str], clock: int,
            tallies: dict[tuple[str, str], _Tally]) -> None:
    """The stays of ``left`` in a region end at ``clock``: each pair of one of them with
    another member (each pair once) gains the closed ticks since the later arrival."""
    done: set[str] = set()
    for x in left:
        cx, tx = stay[x]
        done.add(x)
        for y, (cy, ty) in stay.items():
            if y in done:
                continue
            n = clock - (cx if cx > cy else cy)
            if n > 0:
                key = (x, y) if x < y else (y, x)
                t = tallies.get(key)
                if t is None:
                    t = tallies[key] = _Tally()
                if t.first is None:
                    t.first = tx if tx > ty else ty
                t.together += n


class ContactPass:
    """Per pair ``a < b``: ticks together, first contact tick, messages each way.

    *Together* is counted on tick boundaries (:meth:`close_ticks`): for a span of
    ticks that ended with the world unchanged, every pair standing in one region,
    both alive, gains the span's length.  It is kept as a sweep over stays: each
    agent in a region holding two or more (``world.crowded_regions()``) notes the
    closed-tick clock and the tick it was first seen there; when it leaves (seen
    when who stands where changed, ``world.occupancy_version``), each pair it formed
    there gains the closed ticks since the later of the two arrivals.  So a tick
    boundary costs nothing, a change costs the regions' sizes, and a pair costs
    once per stay together: the cost grows with the pairs that met, not with
    pairs × ticks.  End-of-tick state: two agents that
    cross within a tick but end it apart did not stand together
    (ARCHITECTURE.md).  Dormant agents still stand where they are and count.

    Messages are counted as they are observed, with :func:`hearers`' rules.
    Broadcasts cost O(1) each: the pass keeps each sender's running count, notes
    it when a listener joins the audience (living, not dormant; seen through
    ``world.audience_version``) and credits the difference when it leaves or at
    the end, which gives the same numbers as calling :func:`hearers` on each.
    """

    types: frozenset[str] | None = frozenset({"message", "message_private"})

    merges_spans = True
    """``close_ticks(a, c)`` then ``close_ticks(c, b)`` with the world unchanged between is
    ``close_ticks(a, b)``: the stays are noted once per occupancy change, and the clock adds
    integers."""

    def __init__(self) -> None:
        self._tallies: dict[tuple[str, str], _Tally] = {}
        self._pairs_version = -1
        self._clock = 0  # closed ticks so far
        # crowded region -> member -> (clock, tick) when first seen there in this stay
        self._stays: dict[str, dict[str, tuple[int, int]]] = {}
        # broadcasts: a running count per sender (a list by sender index, so snapshots
        # and differences are C-level list operations); per listener, the counts when it
        # joined the audience; its share is settled into _bc_heard when it leaves
        self._bc_version = -1
        self._bc_audience: frozenset[str] = _EMPTY
        self._bc_index: dict[str, int] = {}
        self._bc_senders: list[str] = []
        self._bc_sent: list[int] = []
        self._bc_base: dict[str, list[int]] = {}
        self._bc_heard: dict[str, list[int]] = {}

    def _tally(self, x: str, y: str) -> _Tally:
        key = (x, y) if x < y else (y, x)
        t = self._tallies.get(key)
        if t is None:
            t = self._tallies[key] = _Tally()
        return t

    def close_ticks(self, start: int, stop: int, world: World) -> None:
        """Ticks ``[start, stop)`` ended: every co-located living pair gains ``stop − start``
        (credited when one of the two leaves, or at :meth:`result`)."""
        if world.occupancy_version != self._pairs_version:
            occupancy = world.occupancy()
            crowded = world.crowded_regions()
            for region in [r for r in self._stays if r not in crowded]:
                gone = self._stays.pop(region)
                _credit(gone, list(gone), self._clock, self._tallies)
            for region in crowded:
                members = occupancy[region]
                stay = self._stays.get(region)
                if stay is None:
                    stay = self._stays[region] = {}
                else:
                    left = [a for a in stay if a not in members]
                    if left:
                        _credit(stay, left, self._clock, self._tallies)
                        for a in left:
                            del stay[a]
                for a in members:
                    if a not in stay:
                        stay[a] = (self._clock, start)
            self._pairs_version = world.occupancy_version
        self._clock += stop - start

    def observe(self, ev: Event, world: World) -> None:
        """Count a message: direct by sender/recipient, broadcast/local by who heard it."""
        sender = ev.get("agentId")
        if sender is None:
            return
        if ev["type"] == "message_private":
            to = (ev.get("payload") or {}).get("to")
            if to is None or to == sender:
                return
            pair = self._tally(sender, to)
            if sender < to:
                pair.direct_ab += 1
            else:
                pair.direct_ba += 1
            return
        channel = (ev.get("payload") or {}).get("channel")
        if channel == "broadcast":
            if world.audience_version != self._bc_version:
                self._audience_changed(world.listening_agents())
                self._bc_version = world.audience_version
            i = self._bc_index.get(sender)
            if i is None:
                i = self._bc_index[sender] = len(self._bc_sent)
                self._bc_senders.append(sender)
                self._bc_sent.append(0)
            self._bc_sent[i] += 1
        elif channel == "local":  # hearers()' local rule, without building the set
            region = world.region_of(sender)
            if region is None:
                return
            asleep = world.dormant_agents()
            tallies = self._tallies
            for h in world.occupants(region):
                if h == sender or h in asleep:
                    continue
                if sender < h:
                    t = tallies.get((sender, h))
                    if t is None:
                        t = tallies[(sender, h)] = _Tally()
                    t.local_ab += 1
                else:
                    t = tallies.get((h, sender))
                    if t is None:
                        t = tallies[(h, sender)] = _Tally()
                    t.local_ba += 1

    def _audience_changed(self, audience: frozenset[str]) -> None:
        old = self._bc_audience
        if audience == old:
            return
        for h in old - audience:
            self._settle(h, self._bc_sent)
            del self._bc_base[h]
        joined = audience - old
        if joined:
            snapshot = self._bc_sent.copy()  # shared, never changed
            for h in joined:
                self._bc_base[h] = snapshot
        self._bc_audience = audience

    def _settle(self, hearer: str, now: list[int]) -> None:
        """Add to ``hearer`` the broadcasts sent since it joined the audience (by sender index)."""
        base = self._bc_base[hearer]
        diff = list(map(sub, now, base))
        diff.extend(now[len(base):])  # senders first heard of since it joined
        prev = self._bc_heard.get(hearer)
        if prev is None:
            self._bc_heard[hearer] = diff
        else:
            total = list(map(add, prev, diff))
            longer = diff if len(diff) > len(prev) else prev
            total.extend(longer[len(total):])
            self._bc_heard[hearer] = total

    def result(self) -> Contact:
        """The pairs, sorted by ``(a, b)`` (may be called again after more events)."""
        snapshot = self._bc_sent.copy()
        for h in sorted(self._bc_audience):
            self._settle(h, snapshot)
            self._bc_base[h] = snapshot
        broadcast: dict[tuple[str, str], list[int]] = {}  # (a, b) -> [a heard by b, b heard by a]
        senders = self._bc_senders
        for hearer, heard in self._bc_heard.items():
            for i, n in enumerate(heard):
                sender = senders[i]
                if n and sender != hearer:
                    if sender < hearer:
                        broadcast.setdefault((sender, hearer), [0, 0])[0] += n
                    else:
                        broadcast.setdefault((hearer, sender), [0, 0])[1] += n
        staying: dict[tuple[str, str], _Tally] = {}  # the stays not ended yet, as if ended now
        for stay in self._stays.values():
            _credit(stay, list(stay), self._clock, staying)
        none = _Tally()
        pairs = []
        for key in sorted(self._tallies.keys() | broadcast.keys() | staying.keys()):
            t = self._tallies.get(key, none)
            now = staying.get(key, none)
            first = t.first if t.first is not None else now.first
            ab, ba = broadcast.get(key, (0, 0))
            pairs.append(PairContact(key[0], key[1], t.together + now.together, first, t.direct_ab, t.direct_ba,
                                     ab, ba, t.local_ab, t.local_ba))
        return Contact(tuple(pairs))
