"""The command line: exit codes, one-line errors, help that teaches (issue 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def good_match(tmp_path: Path) -> Path:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    return write_match(tmp_path, events, archive(["a_1"], ended=5))


def test_validate_valid_match_exits_0(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", str(good_match(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "1 of 1 match valid" in result.output


def test_validate_json_is_machine_readable(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["validate", "--format", "json", str(good_match(tmp_path))])
    doc = json.loads(result.output)
    assert doc["valid"] is True and doc["files"][0]["stats"]["records"] == 2


@pytest.mark.parametrize("command", ["validate", "behavior"])
def test_unreadable_input_is_one_line_and_exit_3(runner: CliRunner, tmp_path: Path, command: str) -> None:
    bad = tmp_path / "m_0123456789ab.json"
    bad.write_text('{"format": "daishi-match-export", "archive": {')
    result = runner.invoke(main, [command, str(bad)])
    assert result.exit_code == 3
    text = result.output.strip()
    assert "Traceback" not in text
    assert str(bad) in text and "truncated" in text
    assert len([line for line in text.splitlines() if "truncated" in line]) == 1


def test_usage_error_is_exit_2(runner: CliRunner) -> None:
    assert runner.invoke(main, ["validate", "--format", "yaml", "x"]).exit_code == 2
    assert runner.invoke(main, ["validate"]).exit_code == 2


def test_help_teaches_exit_codes(runner: CliRunner) -> None:
    for args in (["--help"], ["validate", "--help"], ["behavior", "--help"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0
        flat = " ".join(result.output.split())
        assert "Exit codes" in flat and "3 input could not be read" in flat


def test_behavior_text_when_piped_json_only_when_asked(runner: CliRunner, tmp_path: Path) -> None:
    """Format follows intent: text in a pipe as on a terminal; JSON with --format json or a .json file."""
    match = good_match(tmp_path)
    result = runner.invoke(main, ["behavior", str(match)])
    assert result.exit_code == 0
    assert result.output.startswith("Behavior report: m_0123456789ab\n") and "Verdict clear" in result.output
    asked = runner.invoke(main, ["behavior", "--format", "json", str(match)])
    assert json.loads(asked.output)["reportVersion"] == 1


@pytest.mark.parametrize(("name", "starts"), [("r.json", '{\n  "contact"'), ("r.html", "<!DOCTYPE html>"),
                                              ("r.md", "# Behavior report"), ("r.txt", "Behavior report"),
                                              ("r.report", "Behavior report")])
def test_behavior_output_suffix_picks_the_format(runner: CliRunner, tmp_path: Path, name: str,
                                                 starts: str) -> None:
    match = good_match(tmp_path)
    out = tmp_path / name
    assert runner.invoke(main, ["behavior", str(match), "-o", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8").startswith(starts)
    # --format says otherwise: it wins over the suffix
    assert runner.invoke(main, ["behavior", str(match), "--format", "text", "-o", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("Behavior report")


def test_behavior_markdown_escapes_hostile_names(runner: CliRunner, tmp_path: Path) -> None:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")]
    arch = archive(["a_1"], ended=5)
    arch["agents"][0]["name"] = "<script>alert(1)</script>|x"
    path = write_match(tmp_path, events, arch)
    result = runner.invoke(main, ["behavior", "--format", "markdown", str(path)])
    assert result.exit_code == 0
    assert "<script>" not in result.output and "\\<script\\>" in result.output


def test_schemas_commands(runner: CliRunner, tmp_path: Path) -> None:
    listed = runner.invoke(main, ["schemas", "list"]).output.split()
    assert "event/gather" in listed and "behavior-report" in listed and "envelope-v1" in listed
    shown = json.loads(runner.invoke(main, ["schemas", "show", "gather"]).output)
    assert shown["$id"] == "urn:daishi-forensics:schema:event/gather"
    result = runner.invoke(main, ["schemas", "export", str(tmp_path / "out")])
    assert result.exit_code == 0
    assert (tmp_path / "out" / "events" / "gather.json").is_file()
    assert runner.invoke(main, ["schemas", "show", "nope"]).exit_code == 2
    typo = runner.invoke(main, ["schemas", "show", "gathr"])
    assert typo.exit_code == 2 and "no schema named 'gathr' (did you mean event/gather?);" in typo.stderr
    assert "did you mean" not in runner.invoke(main, ["schemas", "show", "nope"]).stderr


def test_behavior_baseline_normalizes_harm(runner: CliRunner, tmp_path: Path) -> None:
    from daishi_forensics.simulate import simulate_to_dir

    baseline = tmp_path / "baseline"
    for seed in (1, 2):
        simulate_to_dir("clean", seed, 3, baseline, "stream", truth_file=None, ticks=60)
    result = runner.invoke(main, ["behavior", "m_demo", "--format", "json", "--baseline", str(baseline)])
    assert result.exit_code == 1, result.output  # the demo is planted with collusion: findings
    report = json.loads(result.output)
    harm = report["match"]["profile"]["harm"]
    assert harm["baseline"]["matches"] == 2 and harm["baseline"]["seats"] == 16
    assert all("normalized" in seat["profile"]["harm"] for seat in report["seats"])
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(main, ["behavior", "m_demo", "--baseline", str(empty)]).exit_code == 3
