"""ContactPass and hearers on a hand-built match; every number below was counted by hand.

Map of the match (archive ticks 0..19, endedAtTick 20):

    tick 0   a_1, a_2 spawn in r_0_0; a_3 in r_1_1; a_4 in r_5_5
    tick 1   a_4 goes dormant; a_1 broadcasts (heard: a_2, a_3 — not dormant a_4);
             a_3 speaks locally alone in r_1_1 (heard: nobody)
    tick 4   a_3 moves to r_0_0 (now a_1, a_2, a_3 there)
    tick 5   a_2 speaks locally (heard: a_1, a_3); a_1 -> a_2 private
    tick 6   a_4 wakes; a_3 broadcasts (heard: a_1, a_2, a_4)
    tick 10  a_1 moves to r_0_1
    tick 12  a_2 dies in r_0_0
    tick 13  a_3 broadcasts (heard: a_1, a_4; a_2 is dead)
    tick 14  a_4 -> a_1 private
    tick 16  a_1 moves back to r_0_0 (with a_3; dead a_2 is not there any more)
    ticks 17-19: no events

Together (end-of-tick, both alive):
    a_1/a_2: ticks 0-9 = 10, first 0
    a_1/a_3: ticks 4-9 and 16-19 = 6 + 4 = 10, first 4
    a_2/a_3: ticks 4-11 = 8, first 4
"""

from __future__ import annotations

from typing import Any

from daishi_forensics.economy.contact import Contact, ContactPass, PairContact, hearers
from daishi_forensics.replay import World, replay

_ids = iter(range(1, 1 << 30))


def at(tick: int, type_: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    return {"id": next(_ids), "tick": tick, "type": type_, "agentId": agent, "payload": payload}


def mv(tick: int, agent: str, frm: str, to: str) -> dict[str, Any]:
    return at(tick, "move", agent, **{"from": frm, "to": to})


def msg(tick: int, agent: str, channel: str) -> dict[str, Any]:
    return at(tick, "message", agent, text="hello", sha256="0" * 64, channel=channel)


def dm(tick: int, agent: str, to: str) -> dict[str, Any]:
    return at(tick, "message_private", agent, to=to, text="psst", sha256="0" * 64)


MATCH = [
    at(0, "agent_spawned", "a_1", region="r_0_0"),
    at(0, "agent_spawned", "a_2", region="r_0_0"),
    at(0, "agent_spawned", "a_3", region="r_1_1"),
    at(0, "agent_spawned", "a_4", region="r_5_5"),
    at(1, "agent_dormant", "a_4", reason="idle"),
    msg(1, "a_1", "broadcast"),
    msg(1, "a_3", "local"),
    mv(4, "a_3", "r_1_1", "r_0_0"),
    msg(5, "a_2", "local"),
    dm(5, "a_1", "a_2"),
    at(6, "agent_awake", "a_4"),
    msg(6, "a_3", "broadcast"),
    mv(10, "a_1", "r_0_0", "r_0_1"),
    at(12, "agent_died", "a_2", cause="starvation"),
    msg(13, "a_3", "broadcast"),
    dm(14, "a_4", "a_1"),
    mv(16, "a_1", "r_0_1", "r_0_0"),
]
ARCHIVE = {"startedAtTick": 0, "endedAtTick": 20}


def run(events: list[dict[str, Any]] = MATCH, archive: dict[str, Any] = ARCHIVE) -> Contact:
    p = ContactPass()
    replay(events, archive, [p])
    return p.result()


def test_pairs_exact() -> None:
    c = run()
    assert c.pairs == (
        PairContact("a_1", "a_2", 10, 0, direct_ab=1, direct_ba=0, broadcast_ab=1,
                    broadcast_ba=0, local_ab=0, local_ba=1),
        PairContact("a_1", "a_3", 10, 4, direct_ab=0, direct_ba=0, broadcast_ab=1,
                    broadcast_ba=2, local_ab=0, local_ba=0),
        PairContact("a_1", "a_4", 0, None, direct_ab=0, direct_ba=1, broadcast_ab=0,
                    broadcast_ba=0, local_ab=0, local_ba=0),
        PairContact("a_2", "a_3", 8, 4, direct_ab=0, direct_ba=0, broadcast_ab=0,
                    broadcast_ba=1, local_ab=1, local_ba=0),
        PairContact("a_3", "a_4", 0, None, direct_ab=0, direct_ba=0, broadcast_ab=2,
                    broadcast_ba=0, local_ab=0, local_ba=0),
    )
    assert c.pair("a_2", "a_1").messages == 3
    assert c.pair("a_4", "a_2") == PairContact("a_2", "a_4", 0, None, 0, 0, 0, 0, 0, 0)
    assert c.to_json()["pairs"][0]["ticksTogether"] == 10
    assert c.to_json()["pairs"][0]["firstContactTick"] == 0


def test_span_without_events_counts_in_bulk() -> None:
    # only spawns at tick 0, nothing until the end: 100 ticks in one close_ticks call
    events = [at(0, "agent_spawned", "a_1", region="r_0_0"), at(0, "agent_spawned", "a_2", region="r_0_0")]
    c = run(events, {"startedAtTick": 0, "endedAtTick": 100})
    assert c.pair("a_1", "a_2").ticks_together == 100
    assert c.pair("a_1", "a_2").first_contact_tick == 0


def test_first_contact_is_the_tick_they_end_together() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(0, "agent_spawned", "a_2", region="r_2_2"),
        mv(3, "a_2", "r_2_2", "r_1_1"),
        mv(7, "a_2", "r_1_1", "r_0_0"),  # meets a_1 from tick 7
        mv(8, "a_1", "r_0_0", "r_0_1"),  # a_1 leaves in tick 8
        mv(8, "a_1", "r_0_1", "r_0_0"),  # ... and comes back within the tick: still together
        mv(9, "a_2", "r_0_0", "r_1_0"),  # parted from tick 9
    ]
    c = run(events, {"startedAtTick": 0, "endedAtTick": 12})
    assert (c.pair("a_1", "a_2").first_contact_tick, c.pair("a_1", "a_2").ticks_together) == (7, 2)


def test_dead_agent_is_not_in_contact_after_death() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(0, "agent_spawned", "a_2", region="r_0_0"),
        at(3, "agent_died", "a_2", cause="combat", killer="a_1"),
    ]
    c = run(events, {"startedAtTick": 0, "endedAtTick": 10})
    assert c.pair("a_1", "a_2").ticks_together == 3  # ticks 0, 1, 2


def _world(*events: dict[str, Any]) -> World:
    w = World()
    for ev in events:
        w.apply(ev)
    return w


def test_hearers_broadcast_vs_local() -> None:
    w = _world(
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(0, "agent_spawned", "a_2", region="r_0_0"),
        at(0, "agent_spawned", "a_3", region="r_0_0"),  # goes dormant
        at(0, "agent_spawned", "a_4", region="r_3_3"),
        at(0, "agent_spawned", "a_5", region="r_0_0"),  # dies
        at(0, "agent_dormant", "a_3"),
        at(0, "agent_died", "a_5", cause="starvation"),
    )
    assert hearers(msg(1, "a_1", "broadcast"), w) == {"a_2", "a_4"}
    assert hearers(msg(1, "a_1", "local"), w) == {"a_2"}
    assert hearers(msg(1, "a_4", "local"), w) == frozenset()
    assert hearers(msg(1, "a_1", "whisper"), w) == frozenset()  # unknown channel: nobody
    assert hearers(dm(1, "a_1", "a_4"), w) == {"a_4"}
    assert hearers(dm(1, "a_1", "a_3"), w) == frozenset()  # dormant recipient did not hear it
    assert hearers(dm(1, "a_1", "a_5"), w) == frozenset()  # dead recipient
    assert hearers(at(1, "gather", "a_1"), w) == frozenset()


class PerEventHearers:
    """Reference: broadcast/local counts by calling hearers() on every message."""

    types = frozenset({"message"})

    def __init__(self) -> None:
        self.heard: dict[tuple[str, str, str], int] = {}

    def observe(self, ev: dict[str, Any], world: World) -> None:
        ch = ev["payload"]["channel"]
        for h in hearers(ev, world):
            key = (ch, ev["agentId"], h)
            self.heard[key] = self.heard.get(key, 0) + 1


def test_bulk_broadcast_tally_equals_per_event_hearers() -> None:
    from .test_replay import random_match

    for seed in range(5):
        events = random_match(seed)
        ref, p = PerEventHearers(), ContactPass()
        replay(events, {"startedAtTick": 0, "endedAtTick": 45}, [ref, p])
        got: dict[tuple[str, str, str], int] = {}
        for pc in p.result().pairs:
            for ch in ("broadcast", "local"):
                if n := getattr(pc, f"{ch}_ab"):
                    got[(ch, pc.a, pc.b)] = n
                if n := getattr(pc, f"{ch}_ba"):
                    got[(ch, pc.b, pc.a)] = n
        assert got == ref.heard
        assert sum(ref.heard.values()) > 0


def test_result_is_repeatable() -> None:
    p = ContactPass()
    replay(MATCH, ARCHIVE, [p])
    assert p.result() == p.result()
