"""An archive seat whose ``operator`` is a list or an object (invalid: the schema says a string) stopped
``screen`` and ``behavior`` with an internal error (exit 70, "unhashable type: 'list'") in the operator
screen; the seat is now screened as naming no operator, with a note saying so, and validate still lists the
field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import header_of, simulated_stream, with_header


@pytest.mark.parametrize("operator", [["op", 1], {"name": "op"}])
def test_an_operator_that_names_nothing_is_a_note_not_a_crash(tmp_path: Path, operator: object) -> None:
    stream = simulated_stream(tmp_path / "m")
    header = header_of(stream)
    seat = header["archive"]["agents"][0]
    seat["operator"] = operator
    with_header(stream, header)
    kind = type(operator).__name__
    screened = CliRunner().invoke(main, ["screen", "--format", "json", str(stream)])
    assert screened.exit_code == 0, screened.output
    notes = json.loads(screened.output)["matches"][0]["notes"]
    assert (f"operator: {seat['agentId']}'s operator is a {kind}, which names no operator: the seat is screened "
            "as if it named none") in notes
    report = CliRunner().invoke(main, ["behavior", "--format", "json", str(stream)])
    assert report.exit_code in (0, 1), report.output
    validated = CliRunner().invoke(main, ["validate", str(stream)])
    assert validated.exit_code == 1 and "$.archive.agents[0].operator" in validated.output
