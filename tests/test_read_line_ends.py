"""Line ends of a stream and of a folder's events.jsonl: a line feed (``\\n``) or ``\\r\\n``; a file whose
lines end in a bare carriage return (``\\r``) is refused saying so (it was refused as a 'not valid JSON'
header, which said nothing of why)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.validate import validate_targets

from .matchkit import archive, ev, write_match

BARE = ("its lines end in a bare carriage return (\\r, as old Mac OS wrote them), so it reads as one line: a "
        "JSON Lines file's lines end in a line feed (\\n, or \\r\\n); convert it (tr '\\r' '\\n')")


def _match(tmp_path: Path, form: str) -> Path:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)]
    return write_match(tmp_path, events, archive(["a_1"], ended=10), form=form)


def _line_ends(path: Path, end: bytes) -> None:
    if path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(gzip.decompress(path.read_bytes()).replace(b"\n", end)))
    else:
        path.write_bytes(path.read_bytes().replace(b"\n", end))


@pytest.mark.parametrize("form", ["stream", "stream-gz"])
def test_a_stream_of_bare_carriage_returns_is_refused_saying_why(tmp_path: Path, form: str) -> None:
    # was: "UNREADABLE  m_….jsonl, line 1: the header line is not valid JSON: unexpected content after
    # document: line 1 column …" (exit 3)
    path = _match(tmp_path, form)
    _line_ends(path, b"\r")
    result = validate_targets([str(path)])
    assert result.exit_code == 3
    assert result.files[0].unreadable == f"{path}, line 1: {BARE}"
    run = CliRunner().invoke(main, ["validate", str(path)])
    assert run.exit_code == 3
    assert run.output.splitlines() == [f"UNREADABLE  {path}, line 1: {BARE}", "0 of 1 match valid"]


def test_a_folder_whose_events_end_in_bare_carriage_returns_is_refused(tmp_path: Path) -> None:
    # was: one record 'not valid JSON' (the whole file read as line 1), exit 1
    folder = _match(tmp_path, "folder")
    _line_ends(folder / "events.jsonl", b"\r")
    result = validate_targets([str(folder)])
    assert result.exit_code == 3
    assert result.files[0].unreadable == f"{folder / 'events.jsonl'}, line 1: {BARE}"
    assert result.files[0].unreadable_file == str(folder / "events.jsonl")


def test_a_stream_longer_than_the_line_limit_of_bare_carriage_returns_says_why(tmp_path: Path) -> None:
    from daishi_forensics.read.sources import Limits

    path = _match(tmp_path, "stream")
    _line_ends(path, b"\r")
    header = path.read_bytes().index(b"\r")
    result = validate_targets([str(path)], limits=Limits(max_line_bytes=header + 2))
    assert result.files[0].unreadable == f"{path}, line 1: {BARE}"


@pytest.mark.parametrize("form", ["stream", "stream-gz", "folder"])
def test_crlf_line_ends_still_read(tmp_path: Path, form: str) -> None:
    path = _match(tmp_path, form)
    _line_ends(path / "events.jsonl" if form == "folder" else path, b"\r\n")
    result = validate_targets([str(path)])
    assert (result.exit_code, result.files[0].problems, result.files[0].stats["records"]) == (0, (), 2)


def test_a_bare_carriage_return_inside_one_event_line_is_that_record_only(tmp_path: Path) -> None:
    # a line of a stream past its header that holds a bare \r is one record that is not JSON, as before
    path = _match(tmp_path, "stream")
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2] + b"\r{"
    path.write_bytes(b"\n".join(lines))
    result = validate_targets([str(path)])
    assert result.exit_code == 1
    assert [(p.line, p.code) for p in result.files[0].problems] == [(3, "json")]
