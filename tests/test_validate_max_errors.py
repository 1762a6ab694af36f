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
