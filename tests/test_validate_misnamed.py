"""A match file (or folder) named for one match whose header names another: validate says so, naming the
file, the id in its name and the id in its header (a warning: the name is not binding; a match store
refuses such a file when asked for the match its name gives)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.validate import validate_targets

from .matchkit import MATCH_ID, archive, ev, write_match

OTHER = "m_ffffffffffff"


def _misnamed(tmp_path: Path, form: str) -> Path:
    path = write_match(tmp_path / "w", [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")],
                       archive(["a_1"], ended=10), form=form)
    suffix = path.name[len(MATCH_ID):]
    return path.rename(tmp_path / f"{OTHER}{suffix}")


@pytest.mark.parametrize("form", ["stream", "stream-gz", "bundle", "bundle-gz"])
def test_a_file_named_for_another_match_is_a_warning(tmp_path: Path, form: str) -> None:
    # was validated without a word ("valid", exit 0)
    path = _misnamed(tmp_path, form)
    result = validate_targets([str(path)])
    assert result.exit_code == 0
    (problem,) = result.files[0].problems
    assert (problem.file, problem.severity, problem.code, problem.path, problem.message) == (
        str(path), "warning", "match-id", "$.matchId",
        f"the file is named for match {OTHER}, but its header names match '{MATCH_ID}': misnamed, or a copy of "
        f"another match; validated as '{MATCH_ID}'")
    run = CliRunner().invoke(main, ["validate", str(path)])
    assert run.exit_code == 0
    assert (f"  warning: {path}: $.matchId: the file is named for match {OTHER}, but its header names match "
            f"'{MATCH_ID}': misnamed, or a copy of another match; validated as '{MATCH_ID}'") in run.output.splitlines()


def test_a_folder_named_for_another_match_is_a_warning(tmp_path: Path) -> None:
    folder = _misnamed(tmp_path, "folder")
    (problem,) = validate_targets([str(folder)]).files[0].problems
    assert (problem.file, problem.severity, problem.code, problem.message) == (
        str(folder), "warning", "match-id",
        f"the folder is named for match {OTHER}, but its archive.json names match '{MATCH_ID}': misnamed, or a "
        f"copy of another match; validated as '{MATCH_ID}'")


@pytest.mark.parametrize("name", [f"{MATCH_ID}.jsonl", "export.jsonl", f"{OTHER}-copy.jsonl", "m_FFFFFFFFFFFF.jsonl"])
def test_a_name_that_names_no_other_match_is_not_said(tmp_path: Path, name: str) -> None:
    path = write_match(tmp_path / "w", [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")],
                       archive(["a_1"], ended=10)).rename(tmp_path / name)
    result = validate_targets([str(path)])
    assert (result.exit_code, result.files[0].problems) == (0, ())


def test_the_store_still_refuses_a_file_of_another_match(tmp_path: Path) -> None:
    _misnamed(tmp_path, "stream")
    result = validate_targets([OTHER], store=tmp_path)
    assert result.exit_code == 3
    assert result.files[0].unreadable == (
        f"{tmp_path / (OTHER + '.jsonl')}, field matchId: the match store's file for {OTHER} holds match "
        f"'{MATCH_ID}': refused (a misnamed or overwritten file); give its path to read it as what it is")
