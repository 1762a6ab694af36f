"""A record without ``schemaVersion`` is read as version 1; one of a type version 1 never has is an error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match

UNVERSIONED = {
    "agent_snapshot": ev(4, 2, "agent_snapshot", "a_1", region="r_0_0", energy=5, wealth=3.0, inventoryHash="ab"),
    "action_rejected": ev(4, 2, "action_rejected", "a_1", tool="move", code="not_here"),
    "inference_usage": ev(4, 2, "inference_usage", "a_1", **{"gen_ai.request.model": "m",
                                                             "gen_ai.usage.input_tokens": 5,
                                                             "gen_ai.usage.output_tokens": 7}),
    "turn_forfeited": ev(4, 2, "turn_forfeited", "a_1", reason="timeout"),
    "message_private": ev(4, 2, "message_private", "a_1", text="hi", to="a_2"),
    "match_manifest": ev(4, 2, "match_manifest", None, seed=5, engineVersion="0.5.2", eventSchemaVersion=3, config={},
                         roster=[{"agentId": "a_1", "seat": 1, "name": "a_1", "role": "player"}]),
}


def _match(tmp_path: Path, record: dict[str, Any], form: str = "stream") -> Path:
    """A v3 log whose fourth record is ``record`` without its ``schemaVersion``."""
    record = json.loads(json.dumps(record))
    del record["schemaVersion"]
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 1, "rest", "a_1"), record, ev(6, 3, "rest", "a_2")]
    return write_match(tmp_path, events, archive(["a_1", "a_2"], ended=5), form=form)


@pytest.mark.parametrize("form", ["stream", "bundle"])
@pytest.mark.parametrize("kind", sorted(UNVERSIONED))
def test_a_record_of_a_type_version_1_lacks_without_schema_version_is_an_error(tmp_path: Path, kind: str,
                                                                             form: str) -> None:
    """A v3 agent_snapshot (or action_rejected, inference_usage, turn_forfeited, message_private,
    match_manifest) without its schemaVersion, in a log of v3 records, was read as a version 1 record and
    passed (validate: valid, 'schema versions: v1 1, v3 4', exit 0), though version 1 has no such event, and
    it passed checks version 3 makes (createdAtMs, matchId).  It is an error now, naming the event and the field
    (exit 1), and the record is left out of every analysis (behavior: an invalid-events finding)."""
    path = _match(tmp_path, UNVERSIONED[kind], form)
    result = CliRunner().invoke(main, ["validate", str(path)])
    errors = [line.strip() for line in result.output.splitlines() if line.strip().startswith("error:")]
    where = f"{path}, line 5, id 4" if form == "stream" else f"{path}, event #3, id 4"
    assert (result.exit_code, errors) == (1, [
        f"error: {where}: $.schemaVersion: schemaVersion is missing: a record without one is read as version 1, "
        f"and version 1 has no {kind} events"])
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "json"])
    report = json.loads(result.stdout)
    assert (result.exit_code, [finding["kind"] for finding in report["findings"]]) == (1, ["invalid-events"])
    assert report["source"]["invalid"] == 1


def test_a_record_of_a_type_version_1_has_is_read_as_version_1_as_before(tmp_path: Path) -> None:
    """A gather without schemaVersion is a version 1 record, in any log (as a whole version 1 log is read)."""
    path = _match(tmp_path, ev(4, 2, "gather", "a_1", region="r_0_0", resource="wood", gathered=3))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "schema versions: v1 1, v3 4" in result.output


def test_a_whole_version_1_log_is_read_as_before(tmp_path: Path) -> None:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              UNVERSIONED["message_private"], ev(5, 3, "gather", "a_2", region="r_0_0", resource="wood", gathered=2)]
    path = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=5), version=1)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "schema versions: v1 4" in result.output
    assert "analysed 4 (upcast 4, synthesized 0)" in result.output
