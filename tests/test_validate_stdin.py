"""``validate -``: one match read from standard input (a stream or a bundle, gzip-compressed or not),
named ``<stdin>`` (a github annotation names no file), with the checks and exit codes of the same match in
a file (``-`` was refused as 'no such file or folder, and not a match id', exit 3)."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.sources import open_stdin
from daishi_forensics.read.validate import validate_targets

from .matchkit import MATCH_ID, archive, ev, write_match


def _match(tmp_path: Path, form: str, *, invalid: bool = False) -> Path:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3),
              ev(3, 2, "trade_completed", "a_1", tradeId="t1", **{"from": "a_1", "to": "a_1"}, give={}, receive={})]
    if invalid:
        events[1]["tick"] = "x"
    return write_match(tmp_path, events, archive(["a_1"], ended=10), form=form)


def _validate(args: list[str], data: bytes | None = None) -> tuple[int, str]:
    run = CliRunner().invoke(main, ["validate", *args], input=data)
    return run.exit_code, run.output


@pytest.mark.parametrize("invalid", [False, True])
@pytest.mark.parametrize("form", ["stream", "stream-gz", "bundle", "bundle-gz"])
@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_stdin_says_what_the_file_says(tmp_path: Path, form: str, invalid: bool, fmt: str) -> None:
    path = _match(tmp_path, form, invalid=invalid)
    code, output = _validate(["--format", fmt, "-"], path.read_bytes())
    expected_code, expected = _validate(["--format", fmt, str(path)])
    assert (code, expected_code) == ((1, 1) if invalid else (0, 0))
    if fmt == "github":  # the annotations name no file (test_github_annotations_of_stdin_name_no_file); the log does
        assert [line for line in output.splitlines() if not line.startswith("::")] == \
            [line.replace(str(path), "<stdin>") for line in expected.splitlines() if not line.startswith("::")]
        assert "file=" not in output and len(output.splitlines()) == len(expected.splitlines())
    else:
        assert output == expected.replace(json.dumps(str(path))[1:-1] if fmt == "json" else str(path), "<stdin>")
    assert "<stdin>" in output


@pytest.mark.parametrize(("form", "where"), [("stream", ("line 3", "line 4")), ("stream-gz", ("line 3", "line 4")),
                                             ("bundle", ("event #1", "event #2"))])
def test_github_annotations_of_stdin_name_no_file(tmp_path: Path, form: str, where: tuple[str, str]) -> None:
    """``validate - --format github`` annotated its problems with ``file=<stdin>``, a file GitHub cannot link (and
    a repository file of that name would be the one marked); they name none, the title saying standard input
    and the message where in it, as a file's log line says."""
    path = _match(tmp_path, form, invalid=True)
    code, output = _validate(["--format", "github", "-"], path.read_bytes())
    assert code == 1
    assert [line for line in output.splitlines() if line.startswith("::")] == [
        f"::error title=daishi-forensics schema (standard input)::{where[0]}, id 2: $.tick: 'x' is not of type "
        "'integer'",
        f"::warning title=daishi-forensics trade-offer (standard input)::{where[1]}, id 3: $.payload.tradeId: "
        "trade_completed of trade 't1', which no trade_offered earlier in the log offers"]
    assert _validate(["--format", "github", "-"], b"") == (3, (
        "::error title=daishi-forensics unreadable (standard input)::<stdin>: standard input is empty: pipe a match "
        "into it (a .jsonl stream or a .json bundle)\nUNREADABLE  <stdin>: standard input is empty: pipe a match "
        "into it (a .jsonl stream or a .json bundle)\n0 of 1 match valid\n"))


def test_stdin_stream_lines_are_numbered_from_the_header(tmp_path: Path) -> None:
    path = _match(tmp_path, "stream", invalid=True)
    code, output = _validate(["-"], path.read_bytes())
    assert code == 1
    assert output.splitlines()[0] == f"INVALID     <stdin> (stream, {MATCH_ID})"
    assert "  error: <stdin>, line 3, id 2: $.tick: 'x' is not of type 'integer'" in output.splitlines()


def test_a_pretty_printed_bundle_reads(tmp_path: Path) -> None:
    document = json.loads(_match(tmp_path, "bundle").read_bytes())
    result = _validate(["-"], json.dumps(document, indent=2).encode())
    assert result[0] == 0
    assert result[1].splitlines()[0] == f"valid       <stdin> (bundle, {MATCH_ID})"


@pytest.mark.parametrize(("data", "message"), [
    (b"", "<stdin>: standard input is empty: pipe a match into it (a .jsonl stream or a .json bundle)"),
    (b'{"format": "daishi-match-export"}\n', "<stdin>, field archive: there is no 'archive' object"),
    (b'{"a": 1}\n{"b": 2}\n', "<stdin>, field archive: there is no 'archive' object"),
    (b'{"a": 1} x\n', "<stdin>: not valid JSON: unexpected content after document: line 1 column 10 (char 9)"),
    (gzip.compress(b'{"a": 1}\n' * 1000)[:20], "<stdin>: corrupt or truncated gzip data (Compressed file ended before the "
                                        "end-of-stream marker was reached)"),
    (b'{"a": 1}\r{"b": 2}\r', "<stdin>, line 1: its lines end in a bare carriage return (\\r, as old Mac OS wrote "
                              "them), so it reads as one line: a JSON Lines file's lines end in a line feed (\\n, or "
                              "\\r\\n); convert it (tr '\\r' '\\n')"),
])
def test_unreadable_stdin_exits_3_naming_it(data: bytes, message: str) -> None:
    assert _validate(["-"], data) == (3, f"UNREADABLE  {message}\n0 of 1 match valid\n")


def test_stdin_beside_a_file_and_given_twice(tmp_path: Path) -> None:
    path = _match(tmp_path, "stream")
    code, output = _validate(["-", str(path), "-"], path.read_bytes())
    assert code == 0
    assert [line for line in output.splitlines() if not line.startswith(" ")] == [
        f"valid       <stdin> (stream, {MATCH_ID})", f"valid       {path} (stream, {MATCH_ID})", "2 of 2 matches valid"]


def test_open_stdin_reads_its_records_once(tmp_path: Path) -> None:
    source = open_stdin(stdin=io.BytesIO(_match(tmp_path, "stream").read_bytes()))
    assert (source.name, source.form, source.match_id, source.file_records) == ("<stdin>", "stream", MATCH_ID, None)
    assert [(r[0], r[1], r[2]["id"]) for r in source.records()] == [(0, 2, 1), (1, 3, 2), (2, 4, 3)]
    assert list(source.records()) == []


def test_help_says_dash_reads_stdin() -> None:
    """The help said standard input is "named <stdin> in every message", but its github annotations name no
    file (test_github_annotations_of_stdin_name_no_file): it says so."""
    run = CliRunner().invoke(main, ["validate", "--help"], terminal_width=200)
    assert ("  TARGET - reads one match (a stream or a bundle, gzip-compressed or not) from standard input, named "
            "<stdin> (a github annotation names no file): cat m_<id>.jsonl | daishi-forensics validate -"
            ) in run.output.splitlines()
    assert "in every message" not in run.output


def test_validate_targets_names_stdin_when_unreadable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    result = validate_targets(["-"])
    assert (result.exit_code, result.files[0].target, result.files[0].unreadable_file) == (3, "<stdin>", None)
