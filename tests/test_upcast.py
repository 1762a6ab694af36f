"""Upcasting v1 → v2 → v3, one step at a time (contract §2)."""

from __future__ import annotations

import copy
import hashlib

from daishi_forensics.read.upcast import stored_version, upcast, upcast_v1_v2, upcast_v2_v3

MID = "m_0123456789ab"


def test_v1_direct_message_becomes_message_private() -> None:
    v1 = {"id": 4, "tick": 2, "type": "message", "agentId": "a_1", "payload": {"text": "hi", "to": "a_2"}}
    original = copy.deepcopy(v1)
    (step,) = upcast_v1_v2(v1, MID)
    assert step["type"] == "message_private" and step["private"] is True
    assert step["matchId"] == MID and step["schemaVersion"] == 2 and "createdAtMs" not in step
    (v3,) = upcast(v1, MID)
    assert v3["payload"]["sha256"] == hashlib.sha256(b"hi").hexdigest()
    assert v3["upcastPath"] == [1, 2, 3] and v3["schemaVersion"] == 3
    assert v1 == original, "the stored record is never edited"


def test_v1_broadcast_stays_public() -> None:
    v1 = {"id": 4, "tick": 2, "type": "message", "agentId": "a_1", "payload": {"text": "é", "channel": "broadcast"}}
    (v3,) = upcast(v1, MID)
    assert v3["type"] == "message" and v3["private"] is False
    assert v3["payload"]["sha256"] == hashlib.sha256("é".encode()).hexdigest()


def test_v2_trade_gains_the_offerers_event() -> None:
    v2 = {"id": 9, "matchId": MID, "schemaVersion": 2, "tick": 5, "type": "trade_completed", "agentId": "a_2",
          "createdAtMs": 1, "private": False,
          "payload": {"tradeId": "t1", "from": "a_1", "to": "a_2", "give": {"wood": 2}, "receive": {"ore": 1}}}
    original = copy.deepcopy(v2)
    acceptor, offerer = upcast_v2_v3(v2)
    assert acceptor["agentId"] == "a_2" and "upcast" not in acceptor
    assert offerer["agentId"] == "a_1" and offerer["upcast"] == "offerer" and offerer["id"] == 9
    assert offerer["payload"] == v2["payload"] and acceptor["upcastPath"] == [2, 3]
    assert v2 == original


def test_v2_attack_keeps_witnesses_absent() -> None:
    v2 = {"id": 1, "matchId": MID, "schemaVersion": 2, "tick": 0, "type": "attack", "agentId": "a_1",
          "createdAtMs": 1, "private": False,
          "payload": {"target": "a_2", "region": "r_0_0", "damage": 3, "witnessed": True}}
    (v3,) = upcast(v2, MID)
    assert "witnesses" not in v3["payload"] and "latencyMs" not in v3


def test_v3_passes_through_unchanged() -> None:
    v3 = {"id": 1, "schemaVersion": 3, "type": "rest", "tick": 0, "agentId": "a", "payload": {}}
    assert upcast(v3, MID) == [v3] and upcast(v3, MID)[0] is v3
    assert stored_version(v3) == 3 and stored_version({"id": 1}) == 1
