"""What a folder given as a target holds: one rule for every command, a season that never blocks on
a named pipe, and matches that are not where their name says."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from daishi_forensics import exitcodes

from .matchkit import one_seat_match


def _cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The command in its own process (a hang fails the test by its timeout)."""
    return subprocess.run([sys.executable, "-c", "from daishi_forensics.cli import main; main()", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


_clean = one_seat_match


# --------------------------------------------------------------------------- a season and a named pipe


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_season_over_a_link_to_a_fifo_is_no_hang(tmp_path: Path) -> None:
    """``season screen in/`` where ``in/m_….jsonl`` is a link to a named pipe waited for ever (its resume key
    opened the pipe for its first 64 KiB); the match is now listed unreadable, saying why, and the season
    exits 3."""
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "m_0123456789ab.jsonl").symlink_to("../pipe")
    run = _cli("season", "screen", "in", "--out", "out", "-j", "1", "--quiet", cwd=tmp_path, timeout=60)
    assert (run.returncode, run.stdout, run.stderr) == (exitcodes.UNREADABLE, "", "")
    summary: dict[str, Any] = orjson.loads((tmp_path / "out" / "summary.json").read_bytes())
    assert summary["unreadable"] == [
        {"target": "in/m_0123456789ab.jsonl", "status": "unreadable",
         "error": "in/m_0123456789ab.jsonl: is not a regular file (it is a FIFO); refused"}]


# --------------------------------------------------------------------------- one rule for what a folder holds


def _hostile_folder(tmp_path: Path) -> Path:
    """A folder of matches beside what is none: a stream and a match folder, a half-copied match folder (no
    archive.json), a link to nothing, a ground truth, a hidden name, and (where there are any) a named pipe."""
    folder = tmp_path / "in"
    _clean(folder, "m_0123456789ab")
    _clean(folder, "m_0123456789ac", form="folder")
    (folder / "m_0123456789ad").mkdir()
    (folder / "m_0123456789ae.json").symlink_to("../nowhere.json")
    (folder / "truth.json").write_text("{}")
    (folder / "m_0123456789ab.truth.json").write_text('{"planted": []}')  # a labelled set's truth beside its match
    (folder / ".m_0123456789af.jsonl").write_text("")
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "m_0123456789b0.jsonl")
    return folder


def test_every_command_reads_a_folder_by_one_rule(tmp_path: Path) -> None:
    """``validate``/``screen``/``behavior`` (``read.validate.expand_targets``), ``season``/``compare``/``export``
    (``batch.season.expand_targets``) and a command of one match given a folder each had a rule of their own
    for which of its entries are matches; they now ask one (``read.sources.matches_in``), in one order (by
    name), the season keeping a half-copied match folder so that reading it says why."""
    from daishi_forensics.batch.season import expand_targets as season_targets
    from daishi_forensics.read.sources import matches_in
    from daishi_forensics.read.validate import expand_targets as validate_targets

    folder = _hostile_folder(tmp_path)
    pipe = ["m_0123456789b0.jsonl"] if hasattr(os, "mkfifo") else []
    read = ["m_0123456789ab.jsonl", "m_0123456789ac", "m_0123456789ae.json", *pipe]
    assert [p.name for p in matches_in(folder)] == read
    assert [p.name for p in matches_in(folder, half_copied=True)] == sorted([*read, "m_0123456789ad"])
    assert validate_targets([str(folder)]) == [str(folder / name) for name in read]
    assert season_targets([str(folder)]) == [str(folder / name) for name in sorted([*read, "m_0123456789ad"])]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_season_lists_a_named_pipe_and_a_folder_whose_archive_is_a_link_to_nothing(tmp_path: Path) -> None:
    """``season screen in/ half/`` skipped ``in/m_….jsonl`` without a word when it was a named pipe, and took
    ``half/``, whose ``archive.json`` is a link to nothing, for a folder of matches (holding none, it vanished
    from the season): ``validate`` lists both unreadable, saying why, and so does the season now (exit 3, as
    before for the half-copied match folder beside them)."""
    folder = _hostile_folder(tmp_path)
    half = tmp_path / "half"
    half.mkdir()
    (half / "archive.json").symlink_to("nowhere.json")
    run = _cli("season", "screen", "in", "half", "--out", "out", "-j", "1", "--quiet", cwd=tmp_path, timeout=120)
    assert (run.returncode, run.stdout, run.stderr) == (exitcodes.UNREADABLE, "", "")
    summary: dict[str, Any] = orjson.loads((tmp_path / "out" / "summary.json").read_bytes())
    assert [row["target"] for row in summary["results"]] == [
        "half", "in/m_0123456789ab.jsonl", "in/m_0123456789ac", "in/m_0123456789ad", "in/m_0123456789ae.json",
        "in/m_0123456789b0.jsonl"]
    assert [(row["target"], row["error"]) for row in summary["unreadable"]] == [
        ("half", "half/archive.json: cannot open (No such file or directory)"),
        ("in/m_0123456789ad", "in/m_0123456789ad, field archive.json: the folder has no archive.json"),
        ("in/m_0123456789ae.json", "in/m_0123456789ae.json: a link to ../nowhere.json, which does not exist"),
        ("in/m_0123456789b0.jsonl", "in/m_0123456789b0.jsonl: is not a regular file (it is a FIFO); refused")]
    assert folder.is_dir()


def test_a_command_of_one_match_reads_the_folders_only_match_beside_a_half_copied_one(tmp_path: Path) -> None:
    """A command of one match given a folder reads its one match: a half-copied match folder beside it is no
    match there (as before), nor is a ground truth (a simulator's ``truth.json``, or a labelled set's
    ``m_<id>.truth.json`` beside its match, which was read as a second match: "the folder holds 2 matches")."""
    folder = tmp_path / "in"
    _clean(folder, "m_0123456789ab")
    (folder / "m_0123456789ad").mkdir()
    (folder / "truth.json").write_text("{}")
    (folder / "m_0123456789ab.truth.json").write_text('{"planted": []}')
    run = _cli("score", "--format", "json", "in", cwd=tmp_path)
    assert run.returncode == exitcodes.OK, run.stderr
    assert orjson.loads(run.stdout)["matchId"] == "m_0123456789ab"


# --------------------------------------------------------------------------- a run ended by a signal


@pytest.mark.parametrize(("args", "planted", "said"), [
    (["validate", "m_demo"], "daishi_forensics.cli.validate.validate_targets", "daishi-forensics: interrupted\n"),
    (["season", "screen", "m_demo", "--out", "OUT", "-j", "1", "--quiet"], "daishi_forensics.cli.season.run_season",
     "daishi-forensics: interrupted; finished matches are kept, run the same command again to resume\n")])
def test_ctrl_c_is_the_tables_interrupted(args: list[str], planted: str, said: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C exits 130 from the command group and from ``season`` (which said it as a bare 130 of its own):
    the exit-code table now names it, ``exitcodes.INTERRUPTED``; a command's ``--help`` line of exit codes
    says what its run concluded and leaves it out, as the README's table does (its own paragraph says it)."""
    from click.testing import CliRunner

    from daishi_forensics.cli import main

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(planted, interrupted)
    result = CliRunner().invoke(main, [str(tmp_path / "OUT") if a == "OUT" else a for a in args])
    assert (result.exit_code, result.stdout, result.stderr) == (exitcodes.INTERRUPTED, "", said)
    assert exitcodes.INTERRUPTED == 130 and all(code != 130 for code, _ in exitcodes.TABLE)
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "Ctrl-C stops a command with 130 (`interrupted`)" in readme and "(a shell shows 143)" in readme
    assert "130" not in exitcodes.HELP_EPILOG


# --------------------------------------------------------------------------- a match not where its name says


def _misnamed(tmp_path: Path, form: str) -> Path:
    """A clean match (m_0123456789ab) under the name of another (m_ffffffffffff)."""
    path = _clean(tmp_path / "w", "m_0123456789ab", form=form)
    return path.rename(tmp_path / ("m_ffffffffffff" + path.name[len("m_0123456789ab"):]))


@pytest.mark.parametrize(("form", "what", "where"), [("stream", "file", "header"), ("bundle", "file", "header"),
                                                     ("folder", "folder", "archive.json")])
def test_every_command_says_once_that_a_match_is_named_for_another(form: str, what: str, where: str,
                                                                   tmp_path: Path) -> None:
    """``m_ffffffffffff.jsonl`` holding match m_0123456789ab: ``validate`` warned (match-id), but ``behavior``,
    ``screen`` and ``score`` read it without a word.  The read notes it, and each says it once: ``behavior``
    as a finding of the reading (``input-note``, as it says a byte-order mark read past: exit 1 where the
    match is otherwise clean), ``screen`` and ``score`` as a note (their exit codes unchanged); ``validate``
    keeps its own warning and does not say it again as a note."""
    from click.testing import CliRunner

    from daishi_forensics.cli import main

    path = _misnamed(tmp_path, form)
    note = (f"{path}: the {what} is named for match m_ffffffffffff, but its {where} names match 'm_0123456789ab': "
            "misnamed, or a copy of another match; read as 'm_0123456789ab'")

    def run(*args: str) -> Any:
        result = CliRunner().invoke(main, [*args, str(path)])
        return result.exit_code, orjson.loads(result.stdout)

    code, report = run("behavior", "--format", "json")
    assert code == exitcodes.FINDINGS
    assert [(f["kind"], f["message"]) for f in report["findings"]] == [("input-note", note)]
    code, screened = run("screen", "--format", "json")
    assert code == exitcodes.OK and screened["verdict"] == "clear"
    assert [n for m in screened["matches"] for n in m["notes"] if "named for" in n] == [note]
    code, scored = run("score", "--format", "json")
    assert code == exitcodes.OK and [n for n in scored["notes"] if "named for" in n] == [note]
    code, validated = run("validate", "--format", "json")
    assert code == exitcodes.OK
    assert [(p["code"], p["message"]) for p in validated["files"][0]["problems"]] == [
        ("match-id", f"the {what} is named for match m_ffffffffffff, but its {where} names match 'm_0123456789ab': "
                     "misnamed, or a copy of another match; validated as 'm_0123456789ab'")]


def test_a_match_named_for_itself_is_said_nothing_of(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from daishi_forensics.cli import main

    path = _clean(tmp_path, "m_0123456789ab")
    result = CliRunner().invoke(main, ["behavior", "--format", "json", str(path)])
    assert (result.exit_code, orjson.loads(result.stdout)["findings"]) == (exitcodes.OK, [])


def test_a_season_says_a_match_is_named_for_another_in_its_result(tmp_path: Path) -> None:
    """``season screen`` (which screens each match itself, not through ``screen``) kept no word of it in the
    match's result file; its notes now hold the read's note, as ``screen``'s do; ``season behavior``'s result
    holds the report's finding."""
    from daishi_forensics.batch.season import run_season

    path = _misnamed(tmp_path / "in", "stream")
    note = (f"{path}: the file is named for match m_ffffffffffff, but its header names match 'm_0123456789ab': "
            "misnamed, or a copy of another match; read as 'm_0123456789ab'")
    screened = run_season([str(path)], "screen", tmp_path / "screen", workers=1)
    assert screened.exit_code == exitcodes.OK
    result = orjson.loads((tmp_path / "screen" / "matches" / "m_ffffffffffff.json").read_bytes())
    assert [n for n in result["result"]["notes"] if "named for" in n] == [note]
    behaved = run_season([str(path)], "behavior", tmp_path / "behavior", workers=1)
    assert behaved.exit_code == exitcodes.FINDINGS
    report = orjson.loads((tmp_path / "behavior" / "matches" / "m_ffffffffffff.json").read_bytes())
    assert [(f["kind"], f["message"]) for f in report["result"]["report"]["findings"]] == [
        ("input-note", note)]
