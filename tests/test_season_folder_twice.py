"""A folder holding no match given twice, or by two spellings (``d``, ``d/``, ``./d``): said and listed once,
with a warning for each other spelling, as a match given twice is counted once."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.batch.season import once_per_folder
from daishi_forensics.cli import main

from .test_season_hostile import _match, _summary

NO_MATCHES = "no matches in {} (bundles, streams or match folders)"


def _row(folder: str) -> dict[str, str]:
    return {"target": folder, "status": "unreadable", "error": NO_MATCHES.format(folder)}


@pytest.mark.parametrize("job", ["screen", "behavior"])
def test_an_empty_folder_given_twice_is_said_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, job: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path("d").mkdir()
    result = CliRunner().invoke(main, ["season", job, "d", "d", "--out", "out"])
    assert result.exit_code == exitcodes.UNREADABLE
    assert result.stderr == (f"daishi-forensics: error: {NO_MATCHES.format('d')}\n"
                             f"unreadable: {NO_MATCHES.format('d')}\n")
    assert _summary(Path("out"))["unreadable"] == [_row("d")]


def test_an_empty_folder_by_three_spellings_is_said_once_with_a_warning_for_each_other(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("d").mkdir()
    for order in (["d", "d/", "./d"], ["d/", "./d", "d"]):  # the first spelling in sorted order is the one said
        result = CliRunner().invoke(main, ["season", "screen", *order, "--out", "out"])
        assert result.exit_code == exitcodes.UNREADABLE, order
        assert result.stderr == (f"daishi-forensics: error: {NO_MATCHES.format('./d')}\n"
                                 "warning: d is the same folder as ./d: listed once\n"
                                 "warning: d/ is the same folder as ./d: listed once\n"
                                 f"unreadable: {NO_MATCHES.format('./d')}\n"), order
        summary = _summary(Path("out"))
        assert (summary["matches"], summary["exitCode"], summary["unreadable"], summary["duplicates"]) == (
            0, exitcodes.UNREADABLE, [_row("./d")], []), order
    quiet = CliRunner().invoke(main, ["season", "screen", "d", "d/", "--out", "out", "-q"])
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (
        exitcodes.UNREADABLE, "", f"daishi-forensics: error: {NO_MATCHES.format('d')}\n")


def test_beside_a_match_an_empty_folder_given_twice_is_said_once(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("d").mkdir()
    _match(Path("in"))
    result = CliRunner().invoke(main, ["season", "screen", "in", "d/", "d", "--out", "out", "-q"])
    assert result.exit_code == exitcodes.UNREADABLE
    assert result.stderr == ("daishi-forensics: error: no matches in d (bundles, streams or match folders; the "
                             "other targets run)\n")
    summary = _summary(Path("out"))
    assert (summary["matches"], summary["counts"]["ok"], summary["unreadable"]) == (1, 1, [_row("d")])


def test_once_per_folder_follows_links(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "d")
    folders = [str(tmp_path / "link"), str(tmp_path / "d"), str(tmp_path / "e")]
    assert once_per_folder(folders) == ([str(tmp_path / "d"), str(tmp_path / "e")],
                                        [{"target": str(tmp_path / "link"), "sameAs": str(tmp_path / "d")}])
