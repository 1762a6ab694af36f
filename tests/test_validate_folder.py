"""A match given as a folder: each problem names the file in it (a CI annotation points at a file)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.validate import validate_targets
from daishi_forensics.report.render.validation import render

from .matchkit import archive, ev, write_match


def _folder(tmp_path: Path) -> Path:
    arch = archive(["a_1"], ended=10)
    arch["agents"][0]["status"] = "zombie"
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)]
    events[1]["tick"] = "x"
    return write_match(tmp_path, events, arch, form="folder")


def test_problems_name_archive_json_and_events_jsonl(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    result = validate_targets([str(folder)])
    assert result.exit_code == 1
    assert result.files[0].target == str(folder)
    assert [(p.file, p.line, p.event_id, p.path, p.message) for p in result.files[0].problems] == [
        (str(folder / "archive.json"), None, None, "$.agents[0].status",
         "'zombie' is not one of ['active', 'dormant', 'dead']"),
        (str(folder / "events.jsonl"), 2, 2, "$.tick", "'x' is not of type 'integer'"),
    ]
    github = render(result, "github").splitlines()
    assert github[0].startswith(f"::error file={folder}/archive.json,title=daishi-forensics archive::")
    assert github[1].startswith(f"::error file={folder}/events.jsonl,line=2,title=daishi-forensics schema::")


def test_a_key_repeated_in_archive_json_names_it(tmp_path: Path) -> None:
    folder = write_match(tmp_path, [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")],
                         archive(["a_1"], ended=10), form="folder")
    text = (folder / "archive.json").read_bytes()
    (folder / "archive.json").write_bytes(b'{"endedAtTick": 3, ' + text[1:])
    (problem,) = validate_targets([str(folder)]).files[0].problems
    assert (problem.file, problem.code, problem.message) == (
        str(folder / "archive.json"), "repeated-key", "the key 'endedAtTick' is repeated; the last value is kept")


def test_a_byte_order_mark_names_its_file(tmp_path: Path) -> None:
    folder = write_match(tmp_path, [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")],
                         archive(["a_1"], ended=10), form="folder")
    (folder / "archive.json").write_bytes(b"\xef\xbb\xbf" + orjson.dumps(archive(["a_1"], ended=10)))
    (problem,) = validate_targets([str(folder)]).files[0].problems
    assert (problem.file, problem.code, problem.message) == (
        str(folder / "archive.json"), "header",
        "starts with a UTF-8 byte-order mark, which JSON does not allow; read without it")


@pytest.mark.parametrize("form", ["stream", "bundle"])
def test_a_byte_order_mark_of_a_file_match_names_its_file_once(tmp_path: Path, form: str) -> None:
    """A stream or bundle starting with a BOM was said as 'warning: m_….jsonl: $: m_….jsonl: starts with a
    UTF-8 byte-order mark, …' (the file named twice: as the problem's, and again in its message)."""
    path = write_match(tmp_path, [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")],
                       archive(["a_1"], ended=10), form=form)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    (problem,) = validate_targets([str(path)]).files[0].problems
    assert (problem.file, problem.code, problem.message) == (
        str(path), "header", "starts with a UTF-8 byte-order mark, which JSON does not allow; read without it")
    text = CliRunner().invoke(main, ["validate", str(path)])
    assert (f"  warning: {path}: $: starts with a UTF-8 byte-order mark, which JSON does not allow; read without it"
            in text.output.splitlines())


def test_a_report_of_another_match_is_an_error(tmp_path: Path) -> None:
    # the scorecards of another match passed validate (score then compared this match with them)
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player")]
    other = {"matchId": "m_ffffffffffff", "seats": []}
    folder = write_match(tmp_path / "folder", events, archive(["a_1"], ended=10), form="folder", report=other)
    (file_result,) = validate_targets([str(folder)]).files
    assert [(p.file, p.path, p.code, p.message) for p in file_result.problems] == [
        (str(folder / "report.json"), "$.matchId", "match-id",
         "report matchId 'm_ffffffffffff' differs from the match's 'm_0123456789ab' (the scorecards of another "
         "match)")]
    bundle = write_match(tmp_path / "bundle", events, archive(["a_1"], ended=10), form="bundle", report=other)
    (file_result,) = validate_targets([str(bundle)]).files
    assert [(p.path, p.code) for p in file_result.problems] == [("$.report.matchId", "match-id")]
    same = write_match(tmp_path / "same", events, archive(["a_1"], ended=10), form="bundle",
                       report={"matchId": "m_0123456789ab", "seats": []})
    assert validate_targets([str(same)]).files[0].problems == ()
