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


@pytest.mark.parametrize("role", [{"role": "anchor"}, ["anchor"]])
def test_a_role_that_is_no_text_makes_a_player_seat(tmp_path: Path, role: object) -> None:
    made = CliRunner().invoke(main, ["simulate", "--scenario", "probes", "--seed", "5", "--agents", "4",
                                     "--ticks", "12", "--out", str(tmp_path / "m")])
    assert made.exit_code == 0, made.output
    (stream,) = (tmp_path / "m").glob("m_*.jsonl")
    lines = stream.read_text().splitlines()
    header = json.loads(lines[0])
    (anchor,) = [s for s in header["archive"]["agents"] if s["role"] == "anchor"]
    anchor["role"] = role
    changed = tmp_path / "b" / stream.name
    changed.parent.mkdir()
    changed.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    result = CliRunner().invoke(main, ["compare", "--format", "json", str(stream), str(changed)])
    assert result.exit_code == 0, result.output
    compared = json.loads(result.stdout)
    (row,) = [r for r in compared["seats"] if r["a"]["agentId"] == anchor["agentId"]]
    assert (row["a"]["role"], row["b"]["role"]) == ("anchor", None)
    said = [n for n in compared["notes"] if n.startswith("1 anchor seat of side")]
    assert [n.split(" left out")[0] for n in said] == ["1 anchor seat of side A"]
