"""A command of one match given a folder that holds match files (as ``simulate --out`` writes): the
folder's one match is read; with several, the command refuses to choose and names them."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main


def _simulate(out: Path, scenario: str, seed: int) -> Path:
    result = CliRunner().invoke(main, ["simulate", "--scenario", scenario, "--seed", str(seed), "--agents", "4",
                                       "--ticks", "12", "--out", str(out)])
    assert result.exit_code == 0, result.output
    (stream,) = out.glob("m_*.jsonl")
    return stream


def test_behavior_and_score_read_the_one_match_of_a_folder(tmp_path: Path) -> None:
    """``behavior /tmp/m`` after ``simulate --out /tmp/m`` said 'the folder holds no match' (exit 3),
    though the folder held the match's stream beside its truth.json."""
    stream = _simulate(tmp_path / "m", "ring", 3)
    runner = CliRunner()
    by_folder = runner.invoke(main, ["behavior", "--format", "json", str(tmp_path / "m")])
    by_file = runner.invoke(main, ["behavior", "--format", "json", str(stream)])
    assert by_folder.exit_code == by_file.exit_code and by_folder.exit_code in (0, 1)
    assert by_folder.output == by_file.output  # the same report, the file named as its source
    assert json.loads(by_folder.output)["matchId"] == stream.name.removesuffix(".jsonl")
    score = runner.invoke(main, ["score", "--format", "json", str(tmp_path / "m")])
    assert score.output == runner.invoke(main, ["score", "--format", "json", str(stream)]).output


def test_a_folder_of_two_matches_is_refused_naming_them(tmp_path: Path) -> None:
    first = _simulate(tmp_path / "a", "ring", 3)
    second = _simulate(tmp_path / "b", "clean", 4)
    both = tmp_path / "both"
    both.mkdir()
    for stream in (first, second):
        (both / stream.name).write_bytes(stream.read_bytes())
    (both / "truth.json").write_text("{}")  # other names are not matches
    result = CliRunner().invoke(main, ["behavior", str(both)])
    assert result.exit_code == 3
    names = ", ".join(sorted((first.name, second.name)))
    assert result.output.strip().endswith(
        f"{both}: the folder holds 2 matches ({names}), and this command reads one: name its file (compare, "
        "export, screen, season and validate read every match of a folder)")


def test_the_help_of_each_command_of_one_match_says_so() -> None:
    for command in ("behavior", "score", "propagation"):
        text = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
        assert "A folder that holds match files (as `simulate --out` writes) stands for its one match" in text
