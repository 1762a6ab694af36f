"""Schema messages: each said once, JSON's spellings, the branch the value has the type of."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from daishi_forensics.read.validate import validate_targets

from .matchkit import MATCH_ID, archive, ev, to_v2, write_match


def _errors(tmp_path: Path, bad: dict) -> list[tuple[str, str]]:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"), bad]
    target = write_match(tmp_path, events, archive(["a_1"], ended=10))
    result = validate_targets([str(target)])
    assert result.exit_code == 1
    return [(p.path, p.message) for p in result.files[0].problems if p.severity == "error"]


def _gather(**envelope: object) -> dict:
    event = ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)
    event.update(envelope)
    return event


@pytest.mark.parametrize(("bad", "expected"), [
    (_gather(agentId=5), [("$.agentId", "5 is not of type 'string'")]),
    (_gather(agentId=None), [("$.agentId", "null is not of type 'string'")]),
    (_gather(private=True), [("$.private", "false was expected")]),
    (_gather(private="no"), [("$.private", "false was expected")]),
    (ev(2, 1, "trade_offered", "a_1", tradeId="t1", to="", give={"wood": 1}, receive={}),
     [("$.payload.to", "'' should be non-empty")]),
    (ev(2, 1, "trade_offered", "a_1", tradeId="t1", to=5, give={"wood": 1}, receive={}),
     [("$.payload.to", "5 is not of type 'string' or 'null'")]),
    (ev(2, 1, "message", "a_1", text="hi", channel=None),
     [("$.payload.channel", "null is not one of ['broadcast', 'local']")]),
    (dict(_gather(), payload=[1]), [("$.payload", "[1] is not of type 'object'")]),
])
def test_schema_messages(tmp_path: Path, bad: dict, expected: list[tuple[str, str]]) -> None:
    assert _errors(tmp_path, bad) == expected


def test_v2_private_gather_message(tmp_path: Path) -> None:
    stored = to_v2([ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
                    _gather()])
    stored[1]["private"] = True
    header = {"format": "daishi-match-export", "formatVersion": 1, "matchId": MATCH_ID,
              "archive": archive(["a_1"], ended=10)}
    target = tmp_path / f"{MATCH_ID}.jsonl"
    target.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in [header, *stored]))
    (problem,) = validate_targets([str(target)]).files[0].problems
    assert (problem.event_id, problem.path, problem.message) == (2, "$.private", "false was expected")


def test_json_literals_inside_a_shown_value(tmp_path: Path) -> None:
    bad = _gather()
    bad["payload"] = [True, None]
    assert _errors(tmp_path, bad) == [("$.payload", "[true, null] is not of type 'object'")]


@pytest.mark.parametrize(("version", "shown"), [(True, "true"), (None, "null"), (4, "4"), ("3", "'3'")])
def test_an_unknown_schema_version_is_shown_as_json_writes_it(tmp_path: Path, version: object, shown: str) -> None:
    """A record's ``"schemaVersion": true`` was said as ``unknown schemaVersion True`` (Python's spelling)."""
    assert _errors(tmp_path, _gather(schemaVersion=version)) == [
        ("$.schemaVersion", f"unknown schemaVersion {shown} (this tool reads 1, 2 and 3)")]
