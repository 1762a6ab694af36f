"""``behavior --baseline DIR``: what the read accepted of each baseline match (``MatchSource.notes``: a
byte-order mark read past, a file named for another match) is said once, on stderr, as the commands that
report no finding of a read say it; the target's own notes stay a finding of the report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner

from daishi_forensics import exitcodes

from .matchkit import archive, ev, one_seat_match, write_match


_clean = one_seat_match


def _run(*args: str) -> Any:
    from daishi_forensics.cli import main

    return CliRunner().invoke(main, list(args))


def _baseline(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A baseline folder: one match in a file named for another, one starting with a byte-order mark."""
    folder = tmp_path / "ref"
    folder.mkdir()
    misnamed = _clean(tmp_path / "w", "m_0123456789ab").rename(folder / "m_ffffffffffff.jsonl")
    bom = _clean(folder, "m_0123456789ac")
    bom.write_bytes(b"\xef\xbb\xbf" + bom.read_bytes())
    return folder, misnamed, bom


def test_behavior_says_each_baseline_matchs_notes_once_on_stderr(tmp_path: Path) -> None:
    """``behavior TARGET --baseline ref`` (ref holding m_0123456789ab in a file named m_ffffffffffff.jsonl and
    m_0123456789ac starting with a byte-order mark) normalized the harm rates over both without a word of
    either; each note is now said once on stderr, in every format and with --quiet; the report's bytes and
    the exit code (0, a clean target) are unchanged."""
    folder, misnamed, bom = _baseline(tmp_path)
    target = _clean(tmp_path / "t", "m_0123456789ad")
    said = (f"daishi-forensics: note: {bom}: starts with a UTF-8 byte-order mark, which JSON does not allow; "
            "read without it\n"
            f"daishi-forensics: note: {misnamed}: the file is named for match m_ffffffffffff, but its header names "
            "match 'm_0123456789ab': misnamed, or a copy of another match; read as 'm_0123456789ab'\n")
    for args in (("--format", "json"), ("--format", "text"), ("--format", "markdown"), ("--quiet",)):
        result = _run("behavior", *args, "--baseline", str(folder), str(target))
        assert (result.exit_code, result.stderr) == (exitcodes.OK, said)
        assert "byte-order" not in result.stdout and "named for" not in result.stdout
    doc = orjson.loads(_run("behavior", "--format", "json", "--baseline", str(folder), str(target)).stdout)
    assert doc["findings"] == [] and doc["match"]["profile"]["harm"]["baseline"]["matches"] == 2


def test_a_baseline_match_folder_with_a_byte_order_mark_says_it_once(tmp_path: Path) -> None:
    """A baseline that is one match folder whose archive.json starts with a byte-order mark: said once."""
    folder = _clean(tmp_path, "m_0123456789ab", form="folder")
    archive_json = folder / "archive.json"
    archive_json.write_bytes(b"\xef\xbb\xbf" + archive_json.read_bytes())
    target = _clean(tmp_path / "t", "m_0123456789ad")
    result = _run("behavior", "--format", "json", "--baseline", str(folder), str(target))
    assert (result.exit_code, result.stderr) == (
        exitcodes.OK, f"daishi-forensics: note: {archive_json}: starts with a UTF-8 byte-order mark, which JSON "
                      "does not allow; read without it\n")


def test_a_clean_baseline_says_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "ref"
    _clean(folder, "m_0123456789ab")
    target = _clean(tmp_path / "t", "m_0123456789ad")
    result = _run("behavior", "--format", "json", "--baseline", str(folder), str(target))
    assert (result.exit_code, result.stderr) == (exitcodes.OK, "")


def test_a_baseline_matchs_invalid_records_and_truncation_are_said(tmp_path: Path) -> None:
    """A baseline match with a record that fails validation (a tick written as text) and another whose archive
    says a seat died after its log's last event were averaged into the harm rates without a word (exit 0,
    nothing on stderr), where the same match as a target gives an invalid-events and a truncated finding; each
    is now said once on stderr in the target's words, the report's bytes and the exit code unchanged."""
    folder = tmp_path / "ref"
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1"), ev(3, 2, "rest", "a_1")]
    for event in events:
        event["matchId"] = "m_0123456789ab"
    events[1]["tick"] = "1"
    invalid = write_match(folder, events, archive(["a_1"], ended=5, matchId="m_0123456789ab"))
    cut = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    for event in cut:
        event["matchId"] = "m_0123456789ac"
    arch = archive(["a_1"], ended=9, matchId="m_0123456789ac")
    arch["agents"][0]["diedAtTick"] = 7
    truncated = write_match(folder, cut, arch)
    target = _clean(tmp_path / "t", "m_0123456789ad")
    before = _run("behavior", "--format", "json", str(target)).stdout
    result = _run("behavior", "--format", "json", "--baseline", str(folder), str(target))
    assert (result.exit_code, result.stderr) == (
        exitcodes.OK,
        f"daishi-forensics: note: {invalid}: 1 record failed validation and was left out of the baseline (run "
        "`daishi-forensics validate` for every problem)\n"
        f"daishi-forensics: note: {truncated}: the log ends before the match did: the archive says 'a_1' died at "
        "tick 7, but the log ends at tick 1; its harm rates are over what it holds\n")
    doc = orjson.loads(result.stdout)
    assert doc["findings"] == [] and doc["match"]["profile"]["harm"]["baseline"]["matches"] == 2
    assert orjson.loads(before)["findings"] == []
