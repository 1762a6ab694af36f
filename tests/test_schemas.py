"""The JSON Schemas of the export contract (shared/docs/daishi-export-format.md).

Each event type gets one hand-written valid v3 event and invalid variants (a
required field missing, a wrong type, a negative quantity, envelope mistakes).
Every case is checked twice: by ``jsonschema`` resolving ``$ref`` through
:func:`schemas.registry`, and by ``jsonschema_rs`` on :func:`schemas.inlined`.
"""

from __future__ import annotations

import copy
import doctest
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import pytest

from daishi_forensics import jsonio, schemas

MATCH = "m_aa6f85fab659"
SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"  # sha256("test")

# Contract section 3, in table order.
CONTRACT_TYPES = [
    "match_manifest", "season_started", "world_reset", "agent_registered", "agent_spawned",
    "move", "look", "rest", "gather", "craft", "build", "repair", "deposit", "withdraw",
    "train", "trade_offered", "trade_completed", "trade_fulfilled", "trade_cancelled",
    "attack", "raid", "theft", "agent_died", "agent_dormant", "agent_awake", "message",
    "message_private", "region_collapsed", "structure_crumbled", "action_rejected",
    "turn_forfeited", "agent_snapshot", "inference_usage",
]  # fmt: skip
WORLD_EVENTS = {"match_manifest", "season_started", "world_reset", "region_collapsed"}

CONFIG = {
    "engine_version": "0.5.2",
    "event_schema_version": 3,
    "map": {"width": 12, "height": 12},
    "season_ticks": 600,
    "item_values": {"wood": 2, "stone": 3, "ore": 5, "food": 2, "fiber": 1, "plank": 5, "tool": 12, "cloth": 6},
    "ranked": True,
    "scenario": {"id": "daishi:open-play-v1", "hash": "…"},
}

# type -> (payload with every field of the contract's table, the starred fields)
EXAMPLES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "match_manifest": (
        {
            "seed": 424242,
            "engineVersion": "0.5.2",
            "eventSchemaVersion": 3,
            "config": CONFIG,
            "roster": [
                {"agentId": "a_7f3c", "seat": 1, "name": "Wren", "role": "player",
                 "model": {"model": "m-1", "provider": "p", "scaffold": {"name": "h", "version": "1"}},
                 "operator": "ops@example.org"},
                {"agentId": "a_9", "seat": 2, "name": "Probe", "role": "probe", "probe": "gift-to-sender"},
            ],
            "scenario": {"id": "daishi:open-play-v1", "hash": "abc"},
        },
        ["seed", "engineVersion", "eventSchemaVersion", "config", "roster"],
    ),  # fmt: skip
    "season_started": ({"season": 3}, []),
    "world_reset": ({"season": 2}, []),
    "agent_registered": (
        {
            "name": "Wren",
            "role": "player",
            "region": "r_3_4",
            "model": {"model": "m-1", "provider": "p", "scaffold": {"name": "h", "version": "1"}},
            "operator": "ops@example.org",
        },
        ["name", "role"],
    ),
    "agent_spawned": ({"region": "r_0_0"}, ["region"]),
    "move": ({"from": "r_5_7", "to": "r_6_8"}, ["from", "to"]),
    "look": ({"target": "r_5_7"}, []),
    "rest": ({}, []),
    "gather": ({"region": "r_5_7", "resource": "wood", "gathered": 3}, ["region", "resource", "gathered"]),
    "craft": ({"item": "plank", "quantity": 2, "inputs": {"wood": 4}}, ["item", "quantity"]),
    "build": ({"structure": "storehouse", "structureId": "s_12", "region": "r_5_7"}, ["structure", "structureId", "region"]),
    "repair": ({"structureId": "s_12", "hp": 40}, ["structureId", "hp"]),
    "deposit": ({"structureId": "s_12", "items": {"wood": 5, "food": 1}}, ["structureId", "items"]),
    "withdraw": ({"structureId": "s_12", "items": {"wood": 2}}, ["structureId", "items"]),
    "train": ({"attribute": "strength", "level": 1}, ["attribute", "level"]),
    "trade_offered": ({"tradeId": "t_1", "to": "a_2", "give": {"wood": 3}, "receive": {"food": 2}}, ["tradeId", "give", "receive"]),
    "trade_completed": (
        {"tradeId": "t_1", "from": "a_7f3c", "to": "a_2", "give": {"wood": 3}, "receive": {"food": 2}},
        ["tradeId", "from", "to", "give", "receive"],
    ),
    "trade_fulfilled": (
        {"tradeId": 17, "from": "a_7f3c", "to": "a_2", "give": {"ore": 1}, "receive": {"tool": 1}},
        ["tradeId", "from", "to", "give", "receive"],
    ),
    "trade_cancelled": ({"tradeId": "t_1"}, ["tradeId"]),
    "attack": (
        {"target": "a_2", "region": "r_5_7", "damage": 12, "killed": False, "witnessed": True, "witnesses": ["a_3"]},
        ["target", "region", "damage"],
    ),
    "raid": (
        {"target": "a_2", "structureId": "s_12", "region": "r_5_7", "stolen": {"wood": 4}, "witnessed": False, "witnesses": []},
        ["target", "structureId", "region"],
    ),
    "theft": (
        {"target": "a_2", "region": "r_5_7", "stolen": {"food": 1}, "witnessed": True, "witnesses": ["a_3", "a_4"]},
        ["target", "region", "stolen"],
    ),
    "agent_died": ({"cause": "combat", "killer": "a_2"}, ["cause"]),
    "agent_dormant": ({"reason": "idle"}, []),
    "agent_awake": ({}, []),
    "message": (
        {
            "text": "test",
            "sha256": SHA,
            "channel": "broadcast",
            "probe": {"id": "broadcast-canary", "version": 1, "canary": "zq-17", "targets": ["a_2"]},
        },
        ["text", "sha256", "channel"],
    ),
    "message_private": (
        {"to": "a_2", "text": "test", "sha256": SHA, "probe": {"id": "move-to", "version": 1, "region": "r_1_1"}},
        ["to", "text", "sha256"],
    ),
    "region_collapsed": ({"region": "r_5_7", "resource": "wood"}, ["region", "resource"]),
    "structure_crumbled": ({"structureId": "s_12"}, ["structureId"]),
    "action_rejected": ({"tool": "gather", "code": "not_here", "detail": "no wood here"}, ["tool", "code"]),
    "turn_forfeited": ({"reason": "timeout"}, ["reason"]),
    "agent_snapshot": ({"region": "r_5_7", "energy": 71.5, "wealth": 120.25, "inventoryHash": "h:0f3a"}, ["region", "energy", "wealth", "inventoryHash"]),
    "inference_usage": (
        {"gen_ai.request.model": "m-1", "gen_ai.usage.input_tokens": 1200, "gen_ai.usage.output_tokens": 80},
        ["gen_ai.request.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"],
    ),
}

# type -> payload changes that must be rejected (wrong type, negative quantity, bad enum, ...)
BAD_PAYLOADS: dict[str, list[dict[str, Any]]] = {
    "match_manifest": [
        {"seed": 1.5}, {"engineVersion": 5}, {"eventSchemaVersion": 0}, {"config": []},
        {"roster": [{"agentId": "a_1"}]},
        {"roster": [{"agentId": "a_1", "seat": 1, "name": "x", "role": "boss"}]},
        {"scenario": "open-play"},
    ],
    "season_started": [{"season": -1}, {"season": None}],
    "world_reset": [{"season": []}],
    "agent_registered": [
        {"role": "admin"}, {"name": 3}, {"region": "r_1"}, {"model": {"model": 3}},
        {"model": {"scaffold": {"name": 1}}}, {"operator": 7},
    ],
    "agent_spawned": [{"region": "5_7"}, {"region": None}],
    "move": [{"to": "r_a_b"}, {"from": 3}],
    "look": [],
    "rest": [],
    "gather": [{"gathered": -1}, {"gathered": 1.5}, {"gathered": "3"}, {"resource": ""}, {"region": "x"}],
    "craft": [{"quantity": 0}, {"quantity": -1}, {"inputs": {"wood": 0}}, {"inputs": {"wood": -2}}, {"item": 5}],
    "build": [{"structure": "castle"}, {"structureId": None}, {"region": "r_1_x"}],
    "repair": [{"hp": -1}, {"hp": "full"}, {"structureId": ""}],
    "deposit": [{"items": {"wood": 0}}, {"items": []}],
    "withdraw": [{"items": {"": 1}}, {"items": {"wood": 1.5}}],
    "train": [{"attribute": "charisma"}, {"level": -1}],
    "trade_offered": [{"to": 5}, {"give": {"wood": -1}}, {"tradeId": None}, {"receive": None}],
    "trade_completed": [{"from": None}, {"to": None}, {"give": {"wood": 0}}, {"tradeId": -1}],
    "trade_fulfilled": [{"receive": "food"}, {"from": ""}],
    "trade_cancelled": [{"tradeId": 1.5}, {"tradeId": ""}],
    "attack": [
        {"damage": -1}, {"target": None}, {"killed": "yes"}, {"witnessed": 1},
        {"witnesses": ["a_1", 2]}, {"witnesses": "a_1"},
    ],
    "raid": [{"stolen": {"wood": 0}}, {"structureId": -1}, {"target": None}, {"witnesses": [""]}],
    "theft": [{"stolen": {"food": -3}}, {"stolen": None}, {"region": None}],
    "agent_died": [{"cause": "old_age"}, {"killer": 7}],
    "agent_dormant": [{"reason": 3}],
    "agent_awake": [],
    "message": [
        {"channel": "private"}, {"sha256": SHA.upper()}, {"sha256": SHA[:63]}, {"text": None},
        {"probe": {"id": "x"}}, {"probe": {"id": "x", "version": 0}},
        {"probe": {"id": "x", "version": 1, "targets": [1]}},
    ],
    "message_private": [{"to": None}, {"sha256": "abc"}, {"probe": {"version": 1}}],
    "region_collapsed": [{"region": "r__1"}, {"resource": ""}],
    "structure_crumbled": [{"structureId": None}],
    "action_rejected": [{"code": "boom"}, {"tool": ""}, {"detail": 5}],
    "turn_forfeited": [{"reason": "crash"}],
    "agent_snapshot": [{"energy": -0.5}, {"wealth": "rich"}, {"inventoryHash": ""}, {"region": None}],
    "inference_usage": [
        {"gen_ai.usage.input_tokens": -1}, {"gen_ai.usage.output_tokens": 1.5}, {"gen_ai.request.model": ""},
    ],
}  # fmt: skip

# type -> further payloads the contract allows (optional fields absent or null, gifts, ...)
GOOD_PAYLOADS: dict[str, list[dict[str, Any]]] = {
    "match_manifest": [{"seed": "0xbeef"}],
    "trade_offered": [{"to": None}, {"give": {}, "receive": {"food": 1}}],
    "trade_completed": [{"receive": {}}, {"give": {}}, {"tradeId": 9}],
    "trade_fulfilled": [{"give": {}}],
    "agent_died": [{"killer": None}],
    "message": [{"channel": "local"}, {"text": ""}],
}


def event(type_: str, payload: dict[str, Any], **envelope: Any) -> dict[str, Any]:
    """A v3 event of ``type_`` with a plausible envelope; ``envelope`` overrides keys."""
    ev: dict[str, Any] = {
        "id": 10423,
        "matchId": MATCH,
        "schemaVersion": 3,
        "tick": 57,
        "type": type_,
        "agentId": None if type_ in WORLD_EVENTS else "a_7f3c",
        "createdAtMs": 1790000000123,
        "latencyMs": 812,
        "private": type_ == "message_private",
        "payload": copy.deepcopy(payload),
    }
    ev.update(envelope)
    return ev


def without(mapping: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if k != key}


def _event_cases() -> list[tuple[str, str, Any, bool]]:
    """(case id, schema name, instance, valid?) for every event type."""
    cases: list[tuple[str, str, Any, bool]] = []
    for type_, (full, required) in EXAMPLES.items():
        name = f"event/{type_}"

        def add(label: str, instance: Any, valid: bool, name: str = name, type_: str = type_) -> None:
            cases.append((f"{type_}:{label}", name, instance, valid))

        add("full", event(type_, full), True)
        add("required-only", event(type_, {k: full[k] for k in required}), True)
        add("extra-keys", event(type_, {**full, "futureField": 1}, futureEnvelopeKey="x"), True)
        add("no-latency", without(event(type_, full), "latencyMs"), True)
        add("upcast-v1", without(event(type_, full, upcastPath=[1, 2, 3]), "createdAtMs"), True)
        for i, change in enumerate(GOOD_PAYLOADS.get(type_, [])):
            add(f"good{i}", event(type_, {**full, **change}), True)
        for key in required:
            add(f"missing-{key}", event(type_, without(full, key)), False)
        for i, change in enumerate(BAD_PAYLOADS[type_]):
            add(f"bad{i}-{','.join(change)}", event(type_, {**full, **change}), False)
        # Envelope mistakes.
        add("other-type", event(type_, full, type="gather" if type_ != "gather" else "move"), False)
        add("wrong-agentId", event(type_, full, agentId="a_1" if type_ in WORLD_EVENTS else None), False)
        add("empty-agentId", event(type_, full, agentId=""), False)
        add("wrong-private", event(type_, full, private=type_ != "message_private"), False)
        add("schemaVersion-2", event(type_, full, schemaVersion=2), False)
        add("negative-id", event(type_, full, id=-1), False)
        add("negative-tick", event(type_, full, tick=-1), False)
        add("string-tick", event(type_, full, tick="57"), False)
        add("bad-matchId", event(type_, full, matchId="m_AA6F85FAB659"), False)
        add("negative-latency", event(type_, full, latencyMs=-1), False)
        add("no-createdAtMs", without(event(type_, full), "createdAtMs"), False)
        add("bad-upcast-mark", event(type_, full, upcast="acceptor"), False)
        add("bad-upcastPath", event(type_, full, upcastPath=["2", "3"]), False)
        add("payload-not-object", {**event(type_, full), "payload": []}, False)
        add("no-payload", without(event(type_, full), "payload"), False)
        add("not-an-object", [event(type_, full)], False)
    return cases


GATHER_EXAMPLE = {
    "id": 10423, "matchId": "m_aa6f85fab659", "schemaVersion": 3, "tick": 57,
    "type": "gather", "agentId": "a_7f3c", "createdAtMs": 1790000000123,
    "latencyMs": 812, "private": False, "payload": {"region": "r_5_7", "resource": "wood", "gathered": 3},
}  # fmt: skip

# The contract's section 4 example; "m_…" replaced by a real match id (the only placeholder a pattern checks).
ARCHIVE_EXAMPLE = {
    "matchId": MATCH, "startedAtTick": 0, "endedAtTick": 600,
    "startedAtMs": 1790000000000, "endedAtMs": 1790003600000,
    "config": CONFIG,
    "agents": [{"agentId": "a_7f3c", "seat": 1, "name": "…", "role": "player",
                "model": {"model": "…", "provider": "…", "scaffold": {"name": "…", "version": "…"}},
                "operator": "…", "status": "active", "roundsAlive": 600, "diedAtTick": None,
                "wealth": 321.02, "reputation": 7, "aggression": 1,
                "inventory": {"wood": 12}, "trained": {"strength": 1, "vitality": 0, "endurance": 2}}],
    "metrics": {"a_7f3c": {"gather": 41, "craft": 5, "message": 12, "message_private": 3}},
    "ledger": {"pairs": [{"a": "a_1", "b": "a_2", "trades": 6, "netShare": 0.412,
                          "rep": {"a_1": 5, "a_2": 5}}],
               "commons": {"a_1": 0.37}},
    "exploration": {"a_7f3c": {"regions": 9, "coverage": 0.063}},
    "errata": [{"id": "E3", "text": "…", "events": [10423], "scoresDepend": False}],
}  # fmt: skip

# The contract's section 4b example, with "m_…" replaced.
REPORT_EXAMPLE = {
    "matchId": MATCH, "rubricVersion": "2.4", "fieldSize": 8,
    "seats": [{"agentId": "a_0e42", "seat": 1, "name": "Wren", "role": "player", "status": "active",
               "rank": 5, "fitnessIndex": 86.5,
               "dimensions": {"survival": 100.0, "economy": 76.2, "social": 98.9, "adaptation": 100.0,
                              "competitiveness": 51.1},
               "wealth": 305.0, "indexWealth": 296.72, "reputation": 20, "indexReputation": 15.86,
               "circularReputation": 4.14,
               "raw": {"messagesSent": 55, "creditedTrades": 19.317, "commonsShare": 0.422, "coverage": 0.465}}],
}  # fmt: skip


def _archive(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(ARCHIVE_EXAMPLE)
    doc.update(changes)
    return doc


def _archive_agent(**changes: Any) -> dict[str, Any]:
    agent = {**copy.deepcopy(ARCHIVE_EXAMPLE["agents"][0]), **changes}
    return _archive(agents=[agent])


def _seat(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(REPORT_EXAMPLE)
    doc["seats"][0].update(changes)
    return doc


def _bundle(**changes: Any) -> dict[str, Any]:
    doc = {
        "format": "daishi-match-export",
        "formatVersion": 1,
        "matchId": MATCH,
        "archive": copy.deepcopy(ARCHIVE_EXAMPLE),
        "events": [copy.deepcopy(GATHER_EXAMPLE)],
        "report": copy.deepcopy(REPORT_EXAMPLE),
    }
    doc.update(changes)
    return doc


V1_MESSAGE = {"id": 0, "tick": 0, "type": "message", "agentId": "a_1", "payload": {"text": "hi", "to": "a_2"}}
V2_TRADE = {
    "id": 5, "matchId": MATCH, "schemaVersion": 2, "tick": 3, "type": "trade_completed", "agentId": "a_2",
    "createdAtMs": 1790000000000, "private": False,
    "payload": {"tradeId": "t_1", "from": "a_1", "to": "a_2", "give": {"wood": 1}, "receive": {}},
}  # fmt: skip

DOCUMENT_CASES: list[tuple[str, str, Any, bool]] = [
    ("contract-gather", "event/gather", GATHER_EXAMPLE, True),
    ("contract-gather-on-envelope", "envelope-v3", GATHER_EXAMPLE, True),
    ("upcast-offerer-twin", "event/trade_completed",
     {**V2_TRADE, "schemaVersion": 3, "agentId": "a_1", "upcast": "offerer", "upcastPath": [2, 3]}, True),
    # envelopes
    ("v1-message", "envelope-v1", V1_MESSAGE, True),
    ("v1-world", "envelope-v1", {**V1_MESSAGE, "type": "world_reset", "agentId": None, "payload": {}}, True),
    ("v1-no-payload", "envelope-v1", without(V1_MESSAGE, "payload"), False),
    ("v1-no-agentId", "envelope-v1", without(V1_MESSAGE, "agentId"), False),
    ("v1-agentId-number", "envelope-v1", {**V1_MESSAGE, "agentId": 3}, False),
    ("v1-schemaVersion-2", "envelope-v1", {**V1_MESSAGE, "schemaVersion": 2}, False),
    ("v1-payload-string", "envelope-v1", {**V1_MESSAGE, "payload": "hi"}, False),
    ("v2-trade", "envelope-v2", V2_TRADE, True),
    ("v2-extra-key", "envelope-v2", {**V2_TRADE, "latencyMs": 3}, True),
    ("v2-no-createdAtMs", "envelope-v2", without(V2_TRADE, "createdAtMs"), False),
    ("v2-no-matchId", "envelope-v2", without(V2_TRADE, "matchId"), False),
    ("v2-no-private", "envelope-v2", without(V2_TRADE, "private"), False),
    ("v2-as-v3", "envelope-v2", {**V2_TRADE, "schemaVersion": 3}, False),
    ("v2-on-v3", "envelope-v3", V2_TRADE, False),
    ("v1-on-v3", "envelope-v3", V1_MESSAGE, False),
    ("v3-unknown-type", "envelope-v3", {**GATHER_EXAMPLE, "type": "season_ended", "agentId": None}, True),
    # archive
    ("contract-archive", "archive", ARCHIVE_EXAMPLE, True),
    ("archive-minimal", "archive",
     {"matchId": MATCH, "startedAtTick": 0, "endedAtTick": 10, "config": {}, "agents": [{"agentId": "a_1"}]}, True),
    ("archive-dead-agent", "archive", _archive_agent(status="dead", diedAtTick=412, reputation=-3), True),
    ("archive-empty-stock", "archive", _archive_agent(inventory={"wood": 0}), True),
    ("archive-commons-above-1", "archive", _archive(ledger={"commons": {"a_1": 1.4}}), True),
    *[(f"archive-missing-{k}", "archive", without(ARCHIVE_EXAMPLE, k), False)
      for k in ["matchId", "startedAtTick", "endedAtTick", "config", "agents"]],
    ("archive-bad-matchId", "archive", _archive(matchId="m_…"), False),
    ("archive-agent-no-id", "archive", _archive(agents=[{"seat": 1}]), False),
    ("archive-status", "archive", _archive_agent(status="zombie"), False),
    ("archive-diedAtTick", "archive", _archive_agent(diedAtTick=-1), False),
    ("archive-inventory", "archive", _archive_agent(inventory={"wood": -1}), False),
    ("archive-wealth", "archive", _archive_agent(wealth="321"), False),
    ("archive-reputation", "archive", _archive_agent(reputation=1.5), False),
    ("archive-trained", "archive", _archive_agent(trained={"strength": -1}), False),
    ("archive-roundsAlive", "archive", _archive_agent(roundsAlive=-5), False),
    ("archive-role", "archive", _archive_agent(role="spectator"), False),
    ("archive-item-value", "archive", _archive(config={**CONFIG, "item_values": {"wood": -2}}), False),
    ("archive-map", "archive", _archive(config={**CONFIG, "map": {"width": 0, "height": 12}}), False),
    ("archive-metrics", "archive", _archive(metrics={"a_1": {"gather": -1}}), False),
    ("archive-netShare", "archive", _archive(ledger={"pairs": [{"a": "a_1", "b": "a_2", "netShare": 1.5}]}), False),
    ("archive-pair-no-b", "archive", _archive(ledger={"pairs": [{"a": "a_1"}]}), False),
    ("archive-coverage", "archive", _archive(exploration={"a_1": {"regions": 9, "coverage": 2}}), False),
    ("archive-errata-events", "archive", _archive(errata=[{"id": "E1", "events": ["10423"]}]), False),
    ("archive-errata-no-events", "archive", _archive(errata=[{"id": "E1", "text": "x"}]), False),
    # report
    ("contract-report", "report", REPORT_EXAMPLE, True),
    ("report-minimal", "report", {"matchId": MATCH, "seats": []}, True),
    ("report-withheld", "report",
     _seat(rank=None, fitnessIndex=None, wealth=None, indexWealth=None, reputation=None,
           dimensions={"survival": None, "economy": 1.0, "social": None, "adaptation": None, "competitiveness": None},
           raw={"messagesSent": None, "creditedTrades": None, "commonsShare": None, "coverage": None}), True),
    ("report-no-seats", "report", without(REPORT_EXAMPLE, "seats"), False),
    ("report-no-matchId", "report", without(REPORT_EXAMPLE, "matchId"), False),
    ("report-seat-no-agent", "report", {"matchId": MATCH, "seats": [{"seat": 1}]}, False),
    ("report-fitness", "report", _seat(fitnessIndex="86.5"), False),
    ("report-rank", "report", _seat(rank=0), False),
    ("report-dimension", "report", _seat(dimensions={"economy": "high"}), False),
    ("report-messages", "report", _seat(raw={"messagesSent": -1}), False),
    ("report-status", "report", _seat(status="retired"), False),
    # bundle and stream header
    ("bundle", "bundle", _bundle(), True),
    ("bundle-no-report", "bundle", without(_bundle(), "report"), True),
    ("bundle-v1-events", "bundle", _bundle(events=[V1_MESSAGE]), True),
    ("bundle-format", "bundle", _bundle(format="daishi-export"), False),
    ("bundle-formatVersion", "bundle", _bundle(formatVersion=2), False),
    ("bundle-no-events", "bundle", without(_bundle(), "events"), False),
    ("bundle-event-no-id", "bundle", _bundle(events=[without(GATHER_EXAMPLE, "id")]), False),
    ("bundle-event-no-type", "bundle", _bundle(events=[without(GATHER_EXAMPLE, "type")]), False),
    ("bundle-bad-archive", "bundle", _bundle(archive=without(ARCHIVE_EXAMPLE, "agents")), False),
    ("bundle-bad-report", "bundle", _bundle(report={"matchId": MATCH}), False),
    ("stream-header", "stream-header", without(_bundle(), "events"), True),
    ("stream-header-no-report", "stream-header", without(without(_bundle(), "events"), "report"), True),
    ("stream-header-with-events", "stream-header", _bundle(), False),
    ("stream-header-no-archive", "stream-header", without(without(_bundle(), "events"), "archive"), False),
]  # fmt: skip

ALL_CASES = _event_cases() + DOCUMENT_CASES
CASE_IDS = [case[0] for case in ALL_CASES]


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schemas.load(name), registry=schemas.registry())


@cache
def _rs_validator(name: str) -> Any:
    return jsonschema_rs.validator_for(schemas.inlined(name))


# ---------------------------------------------------------------- the files themselves


@pytest.mark.parametrize("name", schemas.schema_names())
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    schema = schemas.load(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] and schema["description"]


def test_ids_are_unique_and_match_the_file() -> None:
    ids = [schemas.load(name)["$id"] for name in schemas.schema_names()]
    assert len(ids) == len(set(ids))
    for name, id_ in zip(schemas.schema_names(), ids, strict=True):
        assert id_ == f"urn:daishi-forensics:schema:{name}"
    schema_dir = Path(schemas.__file__).parent
    on_disk = {p.stem for p in schema_dir.glob("*.json")} | {f"event/{p.stem}" for p in schema_dir.glob("events/*.json")}
    assert on_disk == set(schemas.schema_names())


def test_names() -> None:
    names = schemas.schema_names()
    assert names == sorted(names)
    for name in ["common", "envelope-v1", "envelope-v2", "envelope-v3", "archive", "bundle", "report", "stream-header"]:
        assert name in names
    assert schemas.event_types() == sorted(CONTRACT_TYPES)
    assert [n for n in names if n.startswith("event/")] == [f"event/{t}" for t in schemas.event_types()]
    assert sorted(EXAMPLES) == sorted(CONTRACT_TYPES) == sorted(BAD_PAYLOADS)


@pytest.mark.parametrize("type_", CONTRACT_TYPES)
def test_required_payload_fields_are_the_contracts_stars(type_: str) -> None:
    payload = schemas.load(f"event/{type_}")["properties"]["payload"]
    assert sorted(payload.get("required", [])) == sorted(EXAMPLES[type_][1])


def test_load_returns_a_copy_and_names_unknown_schemas() -> None:
    schemas.load("event/gather")["properties"].clear()
    assert schemas.load("event/gather")["properties"]
    with pytest.raises(KeyError, match="event/gather"):
        schemas.load("gather")
    with pytest.raises(KeyError, match="nope"):
        schemas.load("nope")
    with pytest.raises(KeyError):
        schemas.inlined("nope")


def test_registry_holds_every_schema() -> None:
    registry = schemas.registry()
    for name in schemas.schema_names():
        assert registry.contents(f"urn:daishi-forensics:schema:{name}") == schemas.load(name)


@pytest.mark.parametrize("name", schemas.schema_names())
def test_inlined_has_no_refs(name: str) -> None:
    text = json.dumps(schemas.inlined(name))
    assert '"$ref"' not in text
    jsonschema.Draft202012Validator.check_schema(schemas.inlined(name))


def test_export_writes_every_schema(tmp_path: Path) -> None:
    written = schemas.export(tmp_path)
    assert len(written) == len(schemas.schema_names())
    assert (tmp_path / "events" / "gather.json") in written
    for name, path in zip(schemas.schema_names(), written, strict=True):
        assert path.read_text(encoding="utf-8") == jsonio.dumps(schemas.load(name))
        assert json.loads(path.read_text(encoding="utf-8")) == schemas.load(name)


def test_module_docstring_example() -> None:
    result = doctest.testmod(schemas, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


# ---------------------------------------------------------------- verdicts


@pytest.mark.parametrize(("case_id", "name", "instance", "valid"), ALL_CASES, ids=CASE_IDS)
def test_verdict(case_id: str, name: str, instance: Any, valid: bool) -> None:
    errors = list(_validator(name).iter_errors(instance))
    if valid:
        assert errors == [], [e.message for e in errors]
    else:
        assert errors, f"{case_id} should be rejected by {name}"


@pytest.mark.parametrize(("case_id", "name", "instance", "valid"), ALL_CASES, ids=CASE_IDS)
def test_inlined_verdict_matches(case_id: str, name: str, instance: Any, valid: bool) -> None:
    assert _rs_validator(name).is_valid(instance) is valid
    assert _validator(name).is_valid(instance) is valid


def test_every_event_example_is_also_a_valid_v3_envelope() -> None:
    envelope = _validator("envelope-v3")
    for type_, (full, _) in EXAMPLES.items():
        assert envelope.is_valid(event(type_, full)), type_
