"""An archive seat whose ``agentId`` is a list or an object (the schema says a string) stopped ``behavior``
and ``export`` with an internal error (exit 70, "unhashable type: 'list'") where the report set the board
beside the log's seats; such a row names no agent, as a row without ``agentId`` already did, so the seat that
acts in the log is reported missing from the archive's agents (a finding, exit 1), and validate and score still
name the field; ``behavior`` and ``export`` name it too (the header fails its schema: exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import header_of, simulated_stream, with_header


@pytest.mark.parametrize("agent_id", [[], ["a_1"], {"id": 1}])
def test_an_agent_id_that_is_no_text_names_no_agent(tmp_path: Path, agent_id: object) -> None:
    stream = simulated_stream(tmp_path / "m")
    header = header_of(stream)
    seat = header["archive"]["agents"][0]
    agent = seat["agentId"]
    seat["agentId"] = agent_id
    with_header(stream, header)
    report = CliRunner().invoke(main, ["behavior", "--format", "json", str(stream)])
    assert report.exit_code == 1, report.output
    missing = [f for f in json.loads(report.stdout)["findings"] if f["kind"] == "agent-not-in-archive"]
    assert [(f["agentId"], f["message"]) for f in missing] == [
        (agent, f"{agent} acts in the log but is missing from the archive's agents")]
    header_said = [f for f in json.loads(report.stdout)["findings"] if f["kind"] == "invalid-header"]
    assert [p["path"] for f in header_said for p in f["problems"]] == ["$.archive.agents[0].agentId"]
    exported = CliRunner().invoke(main, ["export", "--parquet", str(tmp_path / "pq"), str(stream)])
    assert exported.exit_code == 1, exported.output  # exported all the same, the header's error said
    assert "header fails validation in 1 place (the first: $.archive.agents[0].agentId" in exported.stderr
    scored = CliRunner().invoke(main, ["score", str(stream)])
    assert scored.exit_code == 1 and "field agents[0].agentId" in scored.stderr
    validated = CliRunner().invoke(main, ["validate", str(stream)])
    assert validated.exit_code == 1 and "$.archive.agents[0].agentId" in validated.output
