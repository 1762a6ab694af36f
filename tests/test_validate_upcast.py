"""v1 and v2 envelope members an upcast carries into the v3 shape are checked by the v3 rules."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from daishi_forensics.read.validate import validate_targets

from .matchkit import MATCH_ID, archive, ev, to_v1, to_v2


def _v_stream(tmp_path: Path, stored: list[dict]) -> Path:
    header = {"format": "daishi-match-export", "formatVersion": 1, "matchId": MATCH_ID,
              "archive": archive(["a_1", "a_2"], ended=10)}
    path = tmp_path / f"{MATCH_ID}.jsonl"
    path.write_bytes(b"".join(orjson.dumps(x) + b"\n" for x in [header, *stored]))
    return path


def _events() -> list[dict]:
    return [
        ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
        ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3),
        ev(3, 2, "message_private", "a_1", to="a_2", text="deal"),
    ]


def _errors(path: Path) -> list[tuple[str, int | None, str, str]]:
    (result,) = validate_targets([str(path)]).files
    return [(p.file, p.event_id, p.path, p.message) for p in result.problems if p.severity == "error"]


@pytest.mark.parametrize(("version", "event_id", "key", "value", "path"), [
    (2, 2, "private", True, "$.private"),            # a gather claiming to be private
    (2, 3, "private", False, "$.private"),           # a direct message claiming to be public
    (2, 2, "latencyMs", -5, "$.latencyMs"),
    (2, 2, "latencyMs", "fast", "$.latencyMs"),
    (1, 2, "createdAtMs", "yesterday", "$.createdAtMs"),
    (1, 2, "latencyMs", 1.5, "$.latencyMs"),
    (1, 2, "private", True, "$.private"),            # v1 has no private: one the upcast would overwrite
    (1, 3, "private", False, "$.private"),
])
def test_an_older_envelope_member_breaking_the_v3_rules_is_an_error_naming_it(
        tmp_path: Path, version: int, event_id: int, key: str, value: object, path: str) -> None:
    stored = to_v2(_events()) if version == 2 else to_v1(_events())
    (record,) = [r for r in stored if r["id"] == event_id]
    record[key] = value
    target = _v_stream(tmp_path, stored)
    result = validate_targets([str(target)])
    assert result.exit_code == 1
    errors = _errors(target)
    assert [(f, e, p) for f, e, p, _ in errors] == [(str(target), event_id, path)]


def test_a_v1_stored_private_naming_what_the_upcast_derives_is_fine(tmp_path: Path) -> None:
    stored = to_v1(_events())
    for record in stored:
        record["private"] = record["type"] == "message" and "to" in record["payload"]
    target = _v_stream(tmp_path, stored)
    assert validate_targets([str(target)]).exit_code == 0

