"""The HTML report fetches the events it cites; a cited record the checks refused is fetched again by a read
without the checks, where another invalid record's id may be an object: that stopped ``behavior --format html``
with an internal error (exit 70, "unhashable type: 'dict'"); such an id is no id cited, and is passed over."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.report.evidence import _collect


def test_an_object_id_is_passed_over_when_cited_events_are_collected() -> None:
    found: dict[int, dict[str, object]] = {}
    _collect([{"id": {"a": 1}}, {"id": [3]}, {"id": 3, "type": "rest"}], {3}, found, False)
    assert found == {3: {"id": 3, "type": "rest"}}


def test_html_report_of_a_match_with_an_object_id_and_a_cited_invalid_record(tmp_path: Path) -> None:
    made = CliRunner().invoke(main, ["simulate", "--scenario", "mixed", "--seed", "5", "--agents", "5", "--ticks", "40",
                                     "--schema-version", "1", "--out", str(tmp_path / "m")])
    assert made.exit_code == 0, made.output
    (stream,) = (tmp_path / "m").glob("m_*.jsonl")
    header, *events = [json.loads(line) for line in stream.read_text().splitlines()]
    message = next(e for e in events if e["type"] == "message")
    awake = next(e for e in events if e["type"] == "agent_awake")
    message["id"] = {"a": 1}  # invalid: read past by the checks, seen by a read without them
    awake["tick"] = "NaN"  # invalid and cited by the report's invalid-events finding
    stream.write_text("\n".join(json.dumps(e) for e in [header, *events]) + "\n")
    result = CliRunner().invoke(main, ["behavior", "--format", "html", "-o", str(tmp_path / "r.html"), str(stream)])
    assert result.exit_code == 1, result.output  # findings: the invalid records
    page = (tmp_path / "r.html").read_text()
    assert f"{awake['id']}" in page and "NaN" in page
