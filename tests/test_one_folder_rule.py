"""A folder of matches read by the one rule every command asks (``read.sources.is_match_folder`` and
``matches_in``), and the match file endings it knows (``read.sources.MATCH_SUFFIXES``), everywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from daishi_forensics import exitcodes

from .matchkit import one_seat_match


_clean = one_seat_match


def _run(*args: str) -> Any:
    from daishi_forensics.cli import main

    return CliRunner().invoke(main, list(args))


# --------------------------------------------------------------------------- a baseline folder


def test_a_baseline_folder_is_read_by_the_rule_of_every_command(tmp_path: Path) -> None:
    """``behavior --baseline ref`` decided on its own whether ``ref`` is a match folder (an ``archive.json``
    that is a regular file) or a folder of matches: a match folder whose ``archive.json`` is a folder or a link
    to nothing was "no matches in the baseline folder", where every other command reads it as a match folder
    and says what is wrong with its archive.json.  It now asks the same rule (exit code unchanged: 3); a folder
    of matches and a folder holding none are as before."""
    from daishi_forensics.errors import InputUnreadable
    from daishi_forensics.report.behavior import baseline_from

    target = str(_clean(tmp_path, "m_0123456789ac"))
    broken, linked, empty = tmp_path / "broken", tmp_path / "linked", tmp_path / "empty"
    (broken / "archive.json").mkdir(parents=True)
    linked.mkdir()
    (linked / "archive.json").symlink_to("nowhere.json")
    empty.mkdir()
    (empty / "m_0123456789ad").mkdir()  # a half-copied match folder: no match
    cases = {broken: f"daishi-forensics: error: {broken}/archive.json: is not a regular file (it is a folder); "
                     "refused\n",
             linked: f"daishi-forensics: error: {linked}/archive.json: cannot open (No such file or directory)\n",
             empty: f"daishi-forensics: error: {empty}: no matches in the baseline folder\n"}
    for folder, said in cases.items():
        result = _run("behavior", "--format", "json", "--baseline", str(folder), target)
        assert (result.exit_code, result.stdout, result.stderr) == (exitcodes.UNREADABLE, "", said)
    one, many = _clean(tmp_path / "one", "m_0123456789ab", form="folder"), tmp_path / "many"
    _clean(many, "m_0123456789ab")
    _clean(many, "m_0123456789ae", form="folder")
    (many / "truth.json").write_text("{}")
    assert baseline_from(one)["matches"] == 1 and baseline_from(many)["matches"] == 2
    try:
        baseline_from(tmp_path / "nowhere")
    except InputUnreadable as exc:
        assert str(exc) == f"{tmp_path / 'nowhere'}: no matches in the baseline folder"
    else:
        raise AssertionError("a folder that is not there has no matches")


# --------------------------------------------------------------------------- the benchmarks' match files


def test_the_labelled_benchmarks_know_a_match_file_by_the_read_layers_endings(tmp_path: Path) -> None:
    """``bench/_labelled.py`` kept a list of its own of a match file's endings; it now reads the one the
    commands read (``read.sources.MATCH_SUFFIXES``), finding and naming the same files as before."""
    from daishi_forensics.read.sources import MATCH_SUFFIXES

    from .benchkit import load_bench

    labelled = load_bench("_labelled")
    assert labelled.MATCH_SUFFIXES is MATCH_SUFFIXES
    for name in ("m_1.json", "m_2.jsonl", "m_3.json.gz", "m_4.jsonl.gz", "m_1.truth.json", "m_5.csv", "x_6.json"):
        (tmp_path / "deep" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "deep" / name).write_text("")
    (tmp_path / "m_7.jsonl").mkdir()  # a folder so named: no match file
    found = labelled.matches_in(tmp_path)
    assert [p.name for p in found] == ["m_1.json", "m_2.jsonl", "m_3.json.gz", "m_4.jsonl.gz"]
    assert [labelled.truth_of(p) for p in found] == [tmp_path / "deep" / "m_1.truth.json", None, None, None]
    (tmp_path / "deep" / "m_4.truth.json").write_text("")
    assert labelled.truth_of(tmp_path / "deep" / "m_4.jsonl.gz") == tmp_path / "deep" / "m_4.truth.json"
