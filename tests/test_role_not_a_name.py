"""An archive seat whose ``role`` is a list or an object (invalid: the schema says one of ``player``,
``anchor``, ``probe``) stopped ``screen``, ``behavior`` and ``export`` with an internal error (exit 70,
"unhashable type: 'dict'") where the screens set aside the exempt roles; such a role names no role, so the
seat is screened as any seat that names none, and validate still lists the field (``screen``, ``behavior`` and
``export`` say the header fails its schema there: exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.screens.graph import TransferView

from .matchkit import header_of, simulated_stream, with_header


@pytest.mark.parametrize("role", [["probe"], {"role": "probe"}])
def test_a_role_that_names_nothing_is_screened_not_a_crash(tmp_path: Path, role: object) -> None:
    stream = simulated_stream(tmp_path / "m")
    header = header_of(stream)
    header["archive"]["agents"][0]["role"] = role
    with_header(stream, header)
    screened = CliRunner().invoke(main, ["screen", "--format", "json", str(stream)])
    assert screened.exit_code == 1, screened.output  # clear, and the header's error said: exit 1
    match = json.loads(screened.output)["matches"][0]
    assert (match["verdict"], match["invalidHeader"]) == ("clear", 1)
    report = CliRunner().invoke(main, ["behavior", "--format", "json", str(stream)])
    assert report.exit_code == 1, report.output
    assert [(f["kind"], [p["path"] for p in f["problems"]]) for f in json.loads(report.stdout)["findings"]] == [
        ("invalid-header", ["$.archive.agents[0].role"])]
    exported = CliRunner().invoke(main, ["export", "--parquet", str(tmp_path / "pq"), str(stream)])
    assert exported.exit_code == 1, exported.output
    assert "header fails validation in 1 place (the first: $.archive.agents[0].role" in exported.stderr
    validated = CliRunner().invoke(main, ["validate", str(stream)])
    assert validated.exit_code == 1 and "$.archive.agents[0].role" in validated.output


def test_only_a_role_named_is_exempt() -> None:
    graph = nx.MultiDiGraph()
    graph.add_node("a", role="probe")
    graph.add_node("b", role={"role": "probe"})
    graph.add_node("c", role=["probe"])
    graph.add_node("d")
    assert TransferView(graph, exempt_roles=("probe",)).exempt == frozenset({"a"})
