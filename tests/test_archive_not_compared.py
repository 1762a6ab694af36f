"""A part of the archive's stamped figures of the wrong kind (the schema says an object or an array) was passed
over by the behavior report's cross-check without a word, so a broken archive read as one that agreed with its
events (exit 0); each such part is now an ``archive-not-compared`` finding naming its field (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, trade, write_match


def _report(folder: Path, change: Any) -> tuple[int, list[dict[str, Any]]]:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(4, 1, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1})]
    path = write_match(folder, events, archive(["a_1", "a_2"], ended=10, ledger={"pairs": []}), form="folder")
    stored = json.loads((path / "archive.json").read_text(encoding="utf-8"))
    change(stored)
    (path / "archive.json").write_text(json.dumps(stored), encoding="utf-8")
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "json"])
    return result.exit_code, [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "archive-not-compared"]


@pytest.mark.parametrize(("field", "value", "wanted"), [
    ("ledger", [], "an object"),
    ("ledger.pairs", 3, "an array"),
    ("ledger.pairs[0]", "a_1-a_2", "a pair (an object whose a and b are text)"),
    ("ledger.pairs[0].rep", 2, "an object"),
    ("ledger.commons", [0.5], "an object"),
    ("metrics", "x", "an object"),
    ("metrics.a_1", 4, "an object"),
    ("exploration", 1, "an object"),
    ("exploration.a_2", [], "an object"),
])
def test_a_part_of_the_wrong_kind_is_said_not_passed_over(tmp_path: Path, field: str, value: Any,
                                                            wanted: str) -> None:
    def change(stored: dict[str, Any]) -> None:
        if field == "ledger.pairs[0]":
            stored["ledger"]["pairs"] = [value]
        elif field == "ledger.pairs[0].rep":
            stored["ledger"]["pairs"] = [{"a": "a_1", "b": "a_2", "rep": value}]
        elif "." in field:
            block, key = field.split(".")
            stored.setdefault(block, {})[key] = value
        else:
            stored[field] = value

    code, said = _report(tmp_path, change)
    assert code == 1
    kind = {str: "text", int: "a number", list: "an array"}[type(value)]
    assert [(f["field"], f["message"]) for f in said] == [
        (field, f"the archive's {field} is {kind}, not {wanted}: not compared with the events")]
