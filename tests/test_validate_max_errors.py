"""Past --max-errors of a kind, problems are counted without the detail engine's explanation."""

from __future__ import annotations

from pathlib import Path

import pytest

from daishi_forensics.read import validation
from daishi_forensics.read.validate import validate_targets

from .matchkit import archive, ev, write_match


def test_past_the_limit_the_detail_engine_is_not_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")]
    for n in range(2, 8):  # six invalid gathers; the last breaks two members
        events.append(ev(n, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=-1))
    events[-1]["tick"] = "x"
    target = write_match(tmp_path, events, archive(["a_1"], ended=10))
    asked: list[object] = []
    errors = validation.SchemaChecker.errors

    def counted(self: validation.SchemaChecker, instance: object):  # type: ignore[no-untyped-def]
        asked.append(instance)
        return errors(self, instance)

    monkeypatch.setattr(validation.SchemaChecker, "errors", counted)
    result = validate_targets([str(target)], max_errors=2)
    (file_result,) = result.files
    assert len(asked) == 2
    assert [(p.event_id, p.path, p.message) for p in file_result.problems] == [
        (2, "$.payload.gathered", "-1 is less than the minimum of 0"),
        (3, "$.payload.gathered", "-1 is less than the minimum of 0"),
    ]
    assert file_result.problem_counts == {"schema": 7}
    assert (file_result.problems_not_kept, file_result.error_count) == (5, 7)
    assert file_result.stats["invalid"] == 6


def _counts(target: Path, max_errors: int) -> tuple[dict[str, int], int, int]:
    (file_result,) = validate_targets([str(target)], max_errors=max_errors).files
    return dict(file_result.problem_counts), file_result.stats["invalid"], file_result.error_count


def test_counted_past_the_limit_as_listed_below_it(tmp_path: Path) -> None:
    # the counts do not depend on --max-errors: two required members missing are two problems (as the
    # listed ones say), a v1 message's sha256 the upcast could not derive is none (its text's error says
    # it), an event by no agent whose agentId is '' is told its type once
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")]
    for n in range(2, 6):
        events.append(ev(n, 1, "gather", "a_1", region="r_0_0"))
    for n in range(6, 9):
        events.append(ev(n, 2, "region_collapsed", "", region="r_1_1", resource="stone"))
    target = write_match(tmp_path / "v3", events, archive(["a_1"], ended=10))
    assert _counts(target, 1) == _counts(target, 1000) == ({"schema": 11}, 7, 11)
    (listed,) = validate_targets([str(target)], max_errors=1000).files
    assert [(p.event_id, p.path, p.message) for p in listed.problems if p.event_id == 6] == [
        (6, "$.agentId", "'' is not of type 'null'")]
    v1 = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
          ev(2, 0, "agent_registered", "a_2", name="Ash", role="player")]
    for n in range(3, 7):
        v1.append(ev(n, 1, "message", "a_1", text="hi", channel="local"))
    target = write_match(tmp_path / "v1", v1, archive(["a_1", "a_2"], ended=10), version=1)
    text = target.read_text().replace('"text":"hi"', '"text":[]')
    target.write_text(text)
    assert _counts(target, 1) == _counts(target, 1000) == ({"schema": 4}, 4, 4)
