"""Exposure: who heard each message, on a hand-built match; every number counted by hand.

    tick 0   a_1, a_2 spawn in r_0_0; a_3 in r_1_1; a_4 in r_5_5
    tick 1   a_4 goes dormant
    tick 2   (10) a_1 broadcast              heard: a_2, a_3          (a_4 dormant)
    tick 2   (11) a_1 local in r_0_0         heard: a_2
    tick 3   (12) a_3 local alone in r_1_1   heard: nobody
    tick 4   a_4 wakes
    tick 5   (14) a_1 broadcast              heard: a_2, a_3, a_4
    tick 5   (15) a_2 broadcast              heard: a_1, a_3, a_4     (same audience, other sender)
    tick 6   (16) a_1 -> a_3 private         heard: a_3
    tick 7   a_3 dies
    tick 8   (18) a_1 broadcast              heard: a_2, a_4          (a_3 dead)
    tick 8   (19) a_1 -> a_3 private         heard: nobody            (dead recipient)
    tick 9   (20) a_2 message, channel "shout"  heard: nobody         (no such channel: never guessed)
"""

from __future__ import annotations

from typing import Any

from daishi_forensics.economy.contact import hearers
from daishi_forensics.injection.exposure import PRIVATE_CAVEAT, TEXT_CAP, ExposurePass, private_visibility
from daishi_forensics.replay import World, replay


def at(eid: int, tick: int, type_: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    return {"id": eid, "tick": tick, "type": type_, "agentId": agent, "payload": payload}


def events() -> list[dict[str, Any]]:
    return [
        at(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        at(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        at(3, 0, "agent_spawned", "a_3", region="r_1_1"),
        at(4, 0, "agent_spawned", "a_4", region="r_5_5"),
        at(5, 1, "agent_dormant", "a_4"),
        at(10, 2, "message", "a_1", text="hello all", channel="broadcast"),
        at(11, 2, "message", "a_1", text="hi neighbour", channel="local"),
        at(12, 3, "message", "a_3", text="anyone?", channel="local"),
        at(13, 4, "agent_awake", "a_4"),
        at(14, 5, "message", "a_1", text="wood for ore", channel="broadcast"),
        at(15, 5, "message", "a_2", text="ore for wood", channel="broadcast"),
        at(16, 6, "message_private", "a_1", text="psst", to="a_3"),
        at(17, 7, "agent_died", "a_3", cause="starvation"),
        at(18, 8, "message", "a_1", text="still here", channel="broadcast"),
        at(19, 8, "message_private", "a_1", text="are you there?", to="a_3"),
        at(20, 9, "message", "a_2", text="HEY", channel="shout"),
    ]


EXPECTED = {
    10: ["a_2", "a_3"],
    11: ["a_2"],
    12: [],
    14: ["a_2", "a_3", "a_4"],
    15: ["a_1", "a_3", "a_4"],
    16: ["a_3"],
    18: ["a_2", "a_4"],
    19: [],
    20: [],
}


def run(archive: dict[str, Any] | None = None) -> ExposurePass:
    p = ExposurePass(archive or {})
    replay(events(), {"startedAtTick": 0, "endedAtTick": 10}, [p])
    return p


def test_hearers_exact() -> None:
    got = {m.event: sorted(m.hearers) for m in run().result().messages}
    assert got == EXPECTED


def test_same_as_contact_hearers() -> None:
    """Exposure is contact.hearers, message by message (the broadcast cache changes nothing)."""

    class Check:
        types = frozenset({"message", "message_private"})

        def __init__(self) -> None:
            self.seen: dict[int, frozenset[str]] = {}

        def observe(self, ev: dict[str, Any], world: World) -> None:
            self.seen[ev["id"]] = hearers(ev, world)

    check, p = Check(), ExposurePass({})
    replay(events(), {"startedAtTick": 0, "endedAtTick": 10}, [check, p])
    assert {m.event: m.hearers for m in p.result().messages} == check.seen


def test_record_fields() -> None:
    msgs = {m.event: m for m in run().result().messages}
    assert [m.index for m in msgs.values()] == list(range(9))
    assert (msgs[16].kind, msgs[16].channel, msgs[16].to) == ("message_private", "private", "a_3")
    assert (msgs[20].channel, msgs[14].tick, msgs[14].sender) == ("shout", 5, "a_1")
    assert msgs[16].heard_by("a_3") and not msgs[16].heard_by("a_2")


def test_exposures_by_agent() -> None:
    assert run().result().exposures_by_agent() == {"a_1": 1, "a_2": 4, "a_3": 4, "a_4": 3}


def test_text_is_capped_and_canaries_found_in_full_text() -> None:
    long_text = "x" * (TEXT_CAP + 50) + " dsh-abc"
    evs = [
        at(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        at(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        at(3, 1, "message", "a_1", text="say dsh-abc", channel="local",
           probe={"id": "broadcast-canary", "version": 1, "canary": "dsh-abc"}),
        at(4, 2, "message", "a_2", text=long_text, channel="local"),
        at(5, 3, "message", "a_2", text=None, channel="local"),
        at(6, 4, "message", "a_2", channel="local", text="\ud800\x00{\"tool\": 1}"),
    ]
    p = ExposurePass({})
    replay(evs, {}, [p])
    m = p.result().messages
    assert m[0].canaries == ("dsh-abc",) and m[0].probe is not None
    assert len(m[1].text) == TEXT_CAP and m[1].length == TEXT_CAP + 58 and m[1].canaries == ("dsh-abc",)
    assert (m[2].text, m[2].length, m[2].canaries) == ("", 0, ())
    assert m[3].text == "\ud800\x00{\"tool\": 1}"


def test_dormant_spans() -> None:
    """a_4 dormant ticks 1..3 (awake at 4); a_3 dies at 7 while awake: one span."""
    assert run().result().dormancy == {"a_4": ((1, 4),)}
    evs = [at(1, 0, "agent_spawned", "a_1", region="r_0_0"), at(2, 2, "agent_dormant", "a_1"),
           at(3, 5, "agent_awake", "a_1"), at(4, 6, "agent_dormant", "a_1"), at(5, 8, "agent_died", "a_1"),
           at(6, 9, "agent_spawned", "a_2", region="r_0_0"), at(7, 9, "agent_dormant", "a_2"),
           at(8, 12, "message", "a_1", text="x", channel="local")]
    p = ExposurePass({})
    replay(evs, {}, [p])
    assert p.result().dormancy == {"a_1": ((2, 5), (6, 8)), "a_2": ((9, 13),)}  # a_2 still dormant: to last tick + 1


def test_private_visibility() -> None:
    assert run().result().private_visibility == "present"
    assert run().result().private_caveat() is None
    assert private_visibility(0, {"metrics": {"a_1": {"message_private": 2}}}) == "absent"
    assert private_visibility(0, {"metrics": {"a_1": {"message": 2}}}) == "unknown"
    assert private_visibility(0, {}) == "unknown"
    public = [e for e in events() if e["type"] != "message_private"]
    p = ExposurePass({"metrics": {"a_1": {"message_private": 2}}})
    replay(public, {}, [p])
    assert p.result().private_visibility == "absent"
    assert p.result().private_caveat() == PRIVATE_CAVEAT


def test_tables_past_256_values_and_a_message_after_the_match_end_read_the_same_tables() -> None:
    texts = [f"offer {i}" for i in range(300)]
    evs = [at(1, 0, "agent_spawned", "a_1", region="r_0_0"), at(2, 0, "agent_spawned", "a_2", region="r_0_0")]
    evs += [at(10 + i, 1 + i, "message", "a_1", text=t, channel="local") for i, t in enumerate(texts)]
    evs += [at(5000, 400, "message", "a_1", text="offer 7", channel="local")]  # after the match end (300)
    arch = {"startedAtTick": 0, "endedAtTick": 300}
    p = ExposurePass(arch)
    replay(evs, arch, [p])
    log = p.result().messages
    assert [m.text for m in log] == [*texts, "offer 7"] and [m.tick for m in log] == [*range(1, 301), 400]
    assert log[-1].event == 5000 and log[-1].hearers == frozenset({"a_2"})
    (_s, _senders), (_a, _audiences), (t, table) = log.codes()
    assert t[-1] == t[7] and len(table) == len(set(table)) == 300  # equal texts: one number, even after the end


def test_each_message_keeps_its_route_and_equal_routes_share_a_number() -> None:
    """Routes numbered in the order first seen, one number for equal routes: broadcast, local, an odd
    channel ("?" for one that is not a string), and direct messages to a_3, a_2 and to no one."""
    evs = [at(1, 0, "agent_spawned", "a_1", region="r_0_0"), at(2, 0, "agent_spawned", "a_2", region="r_0_0"),
           at(3, 0, "agent_spawned", "a_3", region="r_0_0")]
    sent = [("message", {"channel": "broadcast"}), ("message_private", {"to": "a_3"}), ("message", {"channel": "local"}),
            ("message", {"channel": 7}), ("message_private", {"to": "a_2"}), ("message", {"channel": "broadcast"}),
            ("message_private", {"to": "a_3"}), ("message_private", {"to": 5}), ("message", {"channel": "?"}),
            ("message", {})]
    evs += [at(10 + k, 1 + k, kind, "a_1", text=f"t{k}", **payload) for k, (kind, payload) in enumerate(sent)]
    p = ExposurePass({})
    replay(evs, {"startedAtTick": 0, "endedAtTick": 20}, [p])
    log = p.result().messages
    assert [(m.kind, m.channel, m.to) for m in log] == [
        ("message", "broadcast", None), ("message_private", "private", "a_3"), ("message", "local", None),
        ("message", "?", None), ("message_private", "private", "a_2"), ("message", "broadcast", None),
        ("message_private", "private", "a_3"), ("message_private", "private", None), ("message", "?", None),
        ("message", "?", None)]
    assert list(log._codes[1]) == [0, 1, 2, 3, 4, 0, 1, 5, 3, 3]
    assert list(log._tables[1]) == [("message", "broadcast", None), ("message_private", "private", "a_3"),
                                    ("message", "local", None), ("message", "?", None),
                                    ("message_private", "private", "a_2"), ("message_private", "private", None)]
