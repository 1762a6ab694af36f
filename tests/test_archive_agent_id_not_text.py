"""An archive seat whose ``agentId`` is a list or an object (the schema says a string) stopped ``behavior``
and ``export`` with an internal error (exit 70, "unhashable type: 'list'") where the report set the board
beside the log's seats; such a row names no agent, as a row without ``agentId`` already did, so the seat that
acts in the log is reported missing from the archive's agents (a finding, exit 1), and validate and score still
name the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main


@pytest.mark.parametrize("agent_id", [[], ["a_1"], {"id": 1}])
def test_an_agent_id_that_is_no_text_names_no_agent(tmp_path: Path, agent_id: object) -> None:
    made = CliRunner().invoke(main, ["simulate", "--scenario", "clean", "--seed", "5", "--agents", "4",
                                     "--ticks", "12", "--out", str(tmp_path / "m")])
    assert made.exit_code == 0, made.output
    (stream,) = (tmp_path / "m").glob("m_*.jsonl")
    lines = stream.read_text().splitlines()
    header = json.loads(lines[0])
    seat = header["archive"]["agents"][0]
    agent = seat["agentId"]
    seat["agentId"] = agent_id
    stream.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    report = CliRunner().invoke(main, ["behavior", "--format", "json", str(stream)])
    assert report.exit_code == 1, report.output
    missing = [f for f in json.loads(report.stdout)["findings"] if f["kind"] == "agent-not-in-archive"]
    assert [(f["agentId"], f["message"]) for f in missing] == [
        (agent, f"{agent} acts in the log but is missing from the archive's agents")]
    exported = CliRunner().invoke(main, ["export", "--parquet", str(tmp_path / "pq"), str(stream)])
    assert exported.exit_code == 0, exported.output
    scored = CliRunner().invoke(main, ["score", str(stream)])
    assert scored.exit_code == 1 and "field agents[0].agentId" in scored.stderr
    validated = CliRunner().invoke(main, ["validate", str(stream)])
    assert validated.exit_code == 1 and "$.archive.agents[0].agentId" in validated.output
