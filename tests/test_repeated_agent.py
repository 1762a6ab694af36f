"""An archive whose ``agents`` list one agent id twice: validate names it, and every analysis refuses it
(as score did) instead of showing that agent's figures on two rows."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.simulate import simulate_to_dir

TWICE = ("'{agent}' is on the board twice (agents[1] and agents[4] name it): the board lists each agent once, "
         "so its seats cannot be told apart")


@pytest.fixture(scope="module")
def doubled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A simulated stream, and a copy whose archive lists its second agent again as a fifth seat."""
    folder = tmp_path_factory.mktemp("doubled")
    simulate_to_dir("clean", 2, 3, folder / "plain", "stream", truth_file=None, n_agents=4, ticks=40)
    (original,) = (folder / "plain").glob("m_*.jsonl")
    lines = original.read_text().splitlines()
    header = json.loads(lines[0])
    again = copy.deepcopy(header["archive"]["agents"][1])
    again.update(seat=5, name="Echo", wealth=5.0)
    header["archive"]["agents"].append(again)
    (folder / "twice").mkdir()
    changed = folder / "twice" / original.name
    changed.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return original, changed, again["agentId"]


def test_validate_names_the_repeated_agent_id(doubled: tuple[Path, Path, str]) -> None:
    """validate called such an archive valid (exit 0); it is a header error naming the file and the field."""
    _original, changed, agent = doubled
    result = CliRunner().invoke(main, ["validate", str(changed)])
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith(f"INVALID     {changed} (stream, ")
    assert f"  error: {changed}: $.archive.agents[4].agentId: {TWICE.format(agent=agent)}\n" in result.stdout
    assert "0 of 1 match valid" in result.stdout


@pytest.mark.parametrize(("command", "code"), [
    (["behavior"], 1), (["propagation"], 1), (["score"], 1), (["compare", "{original}"], 3),
])
def test_the_analyses_refuse_it_naming_file_and_field(doubled: tuple[Path, Path, str], command: list[str],
                                                      code: int) -> None:
    """behavior printed the agent on two seat rows (seat 2 shown as the second row's seat 5) and compare on
    two rows, exit 0; score refused it, unlike them.  All now refuse it with one message."""
    original, changed, agent = doubled
    args = [command[0], str(changed), *(a.format(original=original) for a in command[1:])]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    assert result.stderr == (f"daishi-forensics: error: {changed}, field agents[4].agentId: "
                             f"{TWICE.format(agent=agent)}\n")


def test_the_screen_says_it_is_not_screened(doubled: tuple[Path, Path, str]) -> None:
    _original, changed, agent = doubled
    result = CliRunner().invoke(main, ["screen", str(changed)], env={"COLUMNS": "1000"})
    assert result.exit_code == 1, result.output
    assert f"NOT SCREENED  {changed}, field agents[4].agentId: {TWICE.format(agent=agent)}\n" in result.stdout


def test_the_original_is_still_read(doubled: tuple[Path, Path, str]) -> None:
    original, _changed, _agent = doubled
    assert CliRunner().invoke(main, ["validate", str(original)]).exit_code == 0
    assert CliRunner().invoke(main, ["behavior", str(original)]).exit_code in (0, 1)


def test_validate_names_a_folders_archive_json(tmp_path: Path) -> None:
    simulate_to_dir("clean", 2, 3, tmp_path, "folder", truth_file=None, n_agents=4, ticks=40)
    (match,) = tmp_path.glob("m_*")
    archive = json.loads((match / "archive.json").read_text())
    archive["agents"].append(dict(archive["agents"][1], seat=5))
    (match / "archive.json").write_text(json.dumps(archive))
    result = CliRunner().invoke(main, ["validate", str(match)])
    assert result.exit_code == 1, result.output
    agent = archive["agents"][1]["agentId"]
    assert f"  error: {match}/archive.json: $.agents[4].agentId: {TWICE.format(agent=agent)}\n" in result.stdout
