"""A pattern-constrained field ending in a newline: both engines refuse it, and the problem names it."""

from __future__ import annotations

from pathlib import Path

import jsonschema_rs
import pytest

from daishi_forensics import schemas
from daishi_forensics.read.validate import validate_targets

from .matchkit import MATCH_ID, archive, ev, write_match


@pytest.mark.parametrize(("definition", "good"), [
    ("regionId", "r_1_2"), ("matchId", MATCH_ID), ("sha256", "0" * 64),
])
@pytest.mark.parametrize("suffix", ["\n", "\r\n", " ", ""])
def test_the_detail_engine_anchors_like_the_fast_one(definition: str, good: str, suffix: str) -> None:
    rule = schemas.load("common")["$defs"][definition]
    value = good + suffix
    assert schemas.validator(rule).is_valid(value) is jsonschema_rs.validator_for(rule).is_valid(value) \
        is (suffix == "")


def test_ecma_pattern_keeps_escapes_and_classes() -> None:
    assert schemas.ecma_pattern(r"^[$]\$$").pattern == r"^[$]\$\Z"
    assert schemas.ecma_pattern(r"^[]$]x$").pattern == r"^[]$]x\Z"
    assert schemas.ecma_pattern(r"^[^]$]$").search("a") is not None


@pytest.mark.parametrize(("field", "path", "expected"), [
    ("region", "$.payload.region", "'r_0_0\\n' does not match '^r_[0-9]+_[0-9]+$'"),
    ("matchId", "$.matchId", "'m_0123456789ab\\n' does not match '^m_[0-9a-f]{12}$'"),
])
def test_a_trailing_newline_is_an_error_naming_the_field(tmp_path: Path, field: str, path: str,
                                                          expected: str) -> None:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)]
    if field == "region":
        events[1]["payload"]["region"] += "\n"
    else:
        events[1]["matchId"] += "\n"
    target = write_match(tmp_path, events, archive(["a_1"], ended=10))
    result = validate_targets([str(target)])
    assert result.exit_code == 1
    (problem,) = result.files[0].problems
    assert (problem.event_id, problem.path, problem.code, problem.message) == (2, path, "schema", expected)


def test_the_tools_own_anchors_refuse_a_final_newline() -> None:
    from daishi_forensics.read.boundary import REGION
    from daishi_forensics.read.sources import is_match_id

    assert is_match_id(MATCH_ID) and not is_match_id(MATCH_ID + "\n")
    assert REGION.match("r_1_2") and not REGION.match("r_1_2\n") and not REGION.match("r_\u0661_2")


def _patterns(node: object) -> set[str]:
    """Every ``pattern`` of a schema (and each ``patternProperties`` key), however deep."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                found.add(value)
            elif key == "patternProperties" and isinstance(value, dict):
                found.update(value)
            found |= _patterns(value)
    elif isinstance(node, list):
        for item in node:
            found |= _patterns(item)
    return found


_SAMPLES = ["r_1_2", MATCH_ID, "0" * 64, "12:left_out", "a", "ab", "a_1"]
"""Strings of which, for each shipped pattern, at least one matches (a new pattern needs one here)."""


@pytest.mark.parametrize("pattern", sorted(set().union(*(_patterns(schemas.load(n)) for n in schemas.schema_names()))))
def test_every_shipped_pattern_reads_the_same_in_both_engines(pattern: str) -> None:
    fast = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    detail = schemas.validator({"type": "string", "pattern": pattern})
    good = [s for s in _SAMPLES if fast.is_valid(s)]
    assert good, f"no sample matches {pattern!r}: add one to _SAMPLES"
    for sample in good:
        for value in (sample, sample + "\n", "\n" + sample, sample + "\r\n", sample + "\u0663", "\u0663" + sample):
            assert detail.is_valid(value) is fast.is_valid(value), (pattern, value)


@pytest.mark.parametrize("pattern", [
    r"^a\$$", r"^[$]$", r"^(?:a|b$)", r"^a(?=$)", r"^a\\$", r"^[\]$]+$", r"^[^\]$]$", r"a$|b", r"^\d+$",
    r"^\w+$", r"^[\d$]$", r"^\D$", r"^\W$", r"^\s$", r"^\S$", r"^[\s]$", r"^\bab\b$", r"^[\w-]+$",
])
def test_ecma_pattern_agrees_with_the_fast_engine(pattern: str) -> None:
    # a class opening with an escape ("[\]$]") was cut at the escaped "]" (then "\Z" inside a class: an
    # error); \d, \w took any script's digits and letters, \s missed U+FEFF and took U+0085
    fast = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    compiled = schemas.ecma_pattern(pattern)
    for value in ["a", "a\n", "\na", "a$", "$", "$\n", "b", "b\n", "a\\", "]", "]\n", "ab", "a-b", "x",
                  "\u0663", "\u00e9", "\u00a0", "\ufeff", "\x85", "\x0b", " ", "\u2028", "1", "12\n"]:
        assert (compiled.search(value) is not None) is fast.is_valid(value), (pattern, value)
