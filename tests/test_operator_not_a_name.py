"""An archive seat whose ``operator`` is a list or an object (invalid: the schema says a string) stopped
``screen`` and ``behavior`` with an internal error (exit 70, "unhashable type: 'list'") in the operator
screen; the seat is now screened as naming no operator, with a note saying so, and validate still lists the
field (as ``screen`` does, the header failing its schema: exit 1)."""

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
    assert screened.exit_code == 1, screened.output  # clear, but the header fails its schema: said, exit 1
    assert json.loads(screened.output)["matches"][0]["invalidHeader"] == 1
    notes = json.loads(screened.output)["matches"][0]["notes"]
    assert (f"operator: {seat['agentId']}'s operator is a {kind}, which names no operator: the seat is screened "
            "as if it named none") in notes
    report = CliRunner().invoke(main, ["behavior", "--format", "json", str(stream)])
    assert report.exit_code in (0, 1), report.output
    validated = CliRunner().invoke(main, ["validate", str(stream)])
    assert validated.exit_code == 1 and "$.archive.agents[0].operator" in validated.output


@pytest.mark.parametrize(("operator", "kind"), [(7, "an int"), (True, "a bool"), (2.5, "a float")])
def test_an_operator_that_is_a_number_or_a_boolean_is_noted_not_grouped(tmp_path: Path, operator: object,
                                                                         kind: str) -> None:
    """Three seats of operator 'copperleaf' (two of one model) with their operator written 7 (or true, 2.5): the
    screen grouped them as operator 7, "registration: seats … share operator 7 and model …", and its
    shared_operator flags named operator 7 (or True).  A number or a boolean names no operator, as a list or
    an object does not: each seat is noted and screened as naming none (exit code unchanged: 1, the match's
    planted feeder)."""
    stream = simulated_stream(tmp_path / "m", scenario="feeder", seed=3, agents=6, ticks=300)
    header = header_of(stream)
    seats = [seat for seat in header["archive"]["agents"] if seat.get("operator") == "copperleaf"]
    assert [seat["agentId"] for seat in seats] == ["a_8969", "a_b448", "a_6bb3"]
    before = json.loads(CliRunner().invoke(main, ["screen", "--format", "json", str(stream)]).output)["matches"][0]
    assert [f["kind"] for f in before["flags"] if f["screen"] == "operator"] == ["shared_operator"] * 2
    for seat in seats:
        seat["operator"] = operator
    with_header(stream, header)
    screened = CliRunner().invoke(main, ["screen", "--format", "json", str(stream)])
    assert screened.exit_code == 1, screened.output
    match = json.loads(screened.output)["matches"][0]
    assert [f for f in match["flags"] if f["screen"] == "operator"] == []
    assert [n for n in match["notes"] if "operator" in n] == [
        f"operator: {agent}'s operator is {kind}, which names no operator: the seat is screened as if it named none"
        for agent in ("a_6bb3", "a_8969", "a_b448")]
