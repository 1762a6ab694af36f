"""An event with a schema error is still checked for the rest: its match id, regions and message hash."""

from __future__ import annotations

from pathlib import Path

from daishi_forensics.read.validate import validate_targets

from .matchkit import archive, ev, write_match


def _problems(tmp_path: Path, bad: dict) -> list[tuple[int | None, str, str]]:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"), bad]
    target = write_match(tmp_path, events, archive(["a_1"], ended=10))
    result = validate_targets([str(target)])
    assert result.exit_code == 1
    return [(p.event_id, p.code, p.path) for p in result.files[0].problems]


def test_a_region_off_the_map_is_said_beside_a_schema_error(tmp_path: Path) -> None:
    bad = ev(2, 1, "gather", "a_1", region="r_99_99", resource="wood", gathered=-1)
    assert _problems(tmp_path, bad) == [(2, "schema", "$.payload.gathered"), (2, "region", "$.payload.region")]


def test_another_matchs_id_is_said_beside_a_schema_error(tmp_path: Path) -> None:
    bad = ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=-1)
    bad["matchId"] = "m_000000000000"
    assert _problems(tmp_path, bad) == [(2, "schema", "$.payload.gathered"), (2, "match-id", "$.matchId")]


def test_a_wrong_hash_is_said_beside_a_schema_error(tmp_path: Path) -> None:
    bad = ev(2, 1, "message", "a_1", text="hi", channel="x", sha256="0" * 64)
    assert _problems(tmp_path, bad) == [(2, "schema", "$.payload.channel"), (2, "sha256", "$.payload.sha256")]


def test_a_field_the_schema_named_is_not_named_again(tmp_path: Path) -> None:
    """A region that is no string, or a payload that is no object: one problem, the schema's."""
    assert _problems(tmp_path, ev(2, 1, "gather", "a_1", region=5, resource="wood", gathered=1)) == \
        [(2, "schema", "$.payload.region")]
    bad = ev(2, 1, "gather", "a_1")
    bad["payload"] = [1]
    assert {code for _, code, _ in _problems(tmp_path / "b", bad)} == {"schema"}
