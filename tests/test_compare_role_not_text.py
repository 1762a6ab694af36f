"""``compare`` of two matches, one with an archive seat whose ``role`` is an object or a list (the schema says
player, anchor or probe), stopped with an internal error (exit 70, "unhashable type: 'dict'") where the seats
were split into players and scripted seats; such a role names no role, and a seat naming none is a player, as
the command's help says (every seat but probe and anchor seats), so the seat is counted as one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import header_of, simulated_stream, with_header


@pytest.mark.parametrize("role", [{"role": "anchor"}, ["anchor"]])
def test_a_role_that_is_no_text_makes_a_player_seat(tmp_path: Path, role: object) -> None:
    stream = simulated_stream(tmp_path / "m", scenario="probes")
    header = header_of(stream)
    (anchor,) = [s for s in header["archive"]["agents"] if s["role"] == "anchor"]
    anchor["role"] = role
    changed = with_header(stream, header, tmp_path / "b" / stream.name)
    result = CliRunner().invoke(main, ["compare", "--format", "json", str(stream), str(changed)])
    assert result.exit_code == 0, result.output
    compared = json.loads(result.stdout)
    (row,) = [r for r in compared["seats"] if r["a"]["agentId"] == anchor["agentId"]]
    assert (row["a"]["role"], row["b"]["role"]) == ("anchor", None)
    said = [n for n in compared["notes"] if n.startswith("1 anchor seat of side")]
    assert [n.split(" left out")[0] for n in said] == ["1 anchor seat of side A"]
