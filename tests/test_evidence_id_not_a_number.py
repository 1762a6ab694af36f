"""A record whose ``id`` is an object or a list (the checks refuse it; it has no id to cite) stopped the HTML
page with an internal error (exit 70, "unhashable type: 'dict'") when another refused record the report cites
came after it: the cited records are read again without the checks, and the search for their ids compared each
record's id with them. A record whose id is no integer (true included) is now passed over there, as the ids a
report cites are integers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.sources import open_match
from daishi_forensics.report.evidence import fetch_events

from .matchkit import archive, ev, write_match


@pytest.mark.parametrize("bad_id", [{"a": 1}, [4], True])
def test_a_record_whose_id_is_no_number_is_passed_over_when_cited_records_are_fetched(
        tmp_path: Path, bad_id: object) -> None:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
              ev(4, 2, "move", "a_2", **{"from": "r_0_0", "to": "r_1_0"})]
    del events[3]["payload"]["to"]  # refused by the checks, cited by the invalid-events finding
    path = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=5))
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    assert record["id"] == 3
    record["id"] = bad_id
    lines[3] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shown = fetch_events(open_match(str(path)), [1, 4], scrub=False)
    assert sorted(shown) == [1, 4] and shown[4]["payload"] == {"from": "r_0_0"}
    page = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "html", "-o", str(page)])
    assert result.exit_code == 1, result.output
    assert '<tr id="ev-4"' in page.read_text(encoding="utf-8")
