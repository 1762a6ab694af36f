"""Counts in the tool's own words take the noun their number takes: '1 match valid', '1 figure differs',
'1 invalid record was left out', never 'match(es)', 'figure(s) differ' or 'record(s) were'."""

from __future__ import annotations

import ast
import copy
import json
import re
from pathlib import Path

import networkx as nx
from click.testing import CliRunner

from daishi_forensics import wording
from daishi_forensics.cli import main
from daishi_forensics.screens.screening import screen_graph

from .test_audit import published, stored
from .test_exit_codes import clean_match, findings_match
from .test_layers import MODULES
from .test_scoring import match_a

HEDGED = re.compile(r"[A-Za-z]\((?:s|es|ies)\)")


def test_one_count_function_serves_every_room() -> None:
    assert [wording.count(n, "match", "matches") for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
    assert wording.count(1, "figure") == "1 figure" and wording.count(1234, "record", thousands=True) == "1,234 records"
    from daishi_forensics.report.render import cells
    from daishi_forensics.study import files

    assert not hasattr(cells, "count") and files.count is wording.count


def test_no_string_of_the_package_hedges_a_plural() -> None:
    """Every string literal (docstrings aside) of every module: no 'record(s)', 'match(es)', 'entr(ies)'."""
    found = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.value) for node in ast.walk(tree)
                      if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and HEDGED.search(node.value)):
                found.append(f"{module}:{node.lineno}: {node.value!r}")
    assert found == []


def test_validate_counts_one_match_and_two_matches(tmp_path: Path) -> None:
    one = CliRunner().invoke(main, ["validate", str(clean_match(tmp_path / "a"))])
    two = CliRunner().invoke(main, ["validate", str(clean_match(tmp_path / "b")), str(clean_match(tmp_path / "c"))])
    assert (one.exit_code, one.output.splitlines()[-1]) == (0, "1 of 1 match valid")
    assert (two.exit_code, two.output.splitlines()[-1]) == (0, "2 of 2 matches valid")
    github = CliRunner().invoke(main, ["validate", "--format", "github", str(clean_match(tmp_path / "d"))])
    assert (github.exit_code, github.output.splitlines()[-1]) == (0, "1 of 1 match valid")


def test_score_says_one_figure_differs(tmp_path: Path) -> None:
    events, arch = match_a()
    report = copy.deepcopy(published(tmp_path, events, arch, "2.4"))
    next(s for s in report["seats"] if s["agentId"] == "a_2")["fitnessIndex"] = 15.8
    result = CliRunner().invoke(main, ["score", str(stored(tmp_path, events, arch, report))])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "result: 77 same, 1 DIFFERS, 4 from the report; 1 figure differs; exit 1"


def test_one_invalid_record_is_one_record_in_every_note(tmp_path: Path) -> None:
    path = str(findings_match(tmp_path / "m"))
    score = CliRunner().invoke(main, ["score", "--format", "json", path])
    doc = json.loads(score.stdout)
    assert score.exit_code == 1
    assert doc["inputFaults"] == ["1 invalid record was left out (see `validate`); the figures stand on the rest"]
    assert "1 record of the log is invalid and was not analysed" in doc["notes"]
    behavior = CliRunner().invoke(main, ["behavior", "--format", "json", path])
    messages = [f["message"] for f in json.loads(behavior.stdout)["findings"] if f["kind"] == "invalid-events"]
    assert behavior.exit_code == 1
    assert messages == ["1 record failed validation and was left out of the analysis "
                        "(run `daishi-forensics validate` for every problem)"]
    screen = CliRunner().invoke(main, ["screen", "--format", "json", path])
    assert screen.exit_code == 1
    assert "not screened: 1 invalid record the read boundary rejected (run validate)" in screen.stdout


def test_one_agent_and_one_unvalued_transfer_are_singular() -> None:
    g = nx.MultiDiGraph()
    g.add_node("solo")
    assert screen_graph(g).not_screened == ("not screened: 1 agent to screen; collusion takes two",)
    g = nx.MultiDiGraph()
    g.add_edge("s1", "h", value=None, tick=0, event=100, kind="gift")
    for t in range(6):
        g.add_edge("s2", "h", value=5, tick=t, event=200 + t, kind="gift")
    notes = [n for n in screen_graph(g).not_screened if "whose value is unknown" in n]
    assert notes == ["not screened: 1 transfer event whose value is unknown (events 100); "
                     "left out of the value screens"]
