"""A bundle piped on standard input: a number past 2**53 is quoted as written, as from the bundle's file."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.sources import open_stdin

from .matchkit import archive, ev, write_match

PAST = "is past 2**53: an integer this large cannot be read exactly"


def _bundle(tmp_path: Path, written: bytes, *, where: str = "event") -> Path:
    """A bundle whose first event (a match_manifest) has ``written`` as its seed, or (``where="archive"``) whose
    archive has it as a seat's reputation."""
    events = [ev(0, 0, "match_manifest", None, seed=777777, engineVersion="0.5.2", eventSchemaVersion=3, config={},
                 roster=[{"agentId": "a_1", "seat": 1, "name": "a_1", "role": "player"}]),
              ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    arch = archive(["a_1"], ended=5)
    if where == "archive":
        events[0]["payload"]["seed"] = 5
        arch["agents"][0]["reputation"] = 777777
    path = write_match(tmp_path, events, arch, form="bundle")
    path.write_bytes(path.read_bytes().replace(b"777777", written))
    return path


def _errors(args: list[str], data: bytes | None = None) -> tuple[int, list[str]]:
    run = CliRunner().invoke(main, ["validate", *args], input=data)
    return run.exit_code, [line.strip() for line in run.output.splitlines()
                           if line.strip().startswith(("error:", "warning:"))]


@pytest.mark.parametrize(("written", "read"), [(b"9007199254740993.0", "9007199254740992.0"),
                                               (b"18446744073709551617", "1.8446744073709552e+19"),
                                               (b"-18446744073709551617", "-1.8446744073709552e+19")])
@pytest.mark.parametrize("gzipped", [False, True])
def test_an_event_number_past_2_53_on_stdin_is_quoted_as_written(tmp_path: Path, written: bytes, read: str,
                                                                 gzipped: bool) -> None:
    """From the file, the seed is quoted as written; piped, '18446744073709551617' was said as
    '$.payload.seed: 1.8446744073709552e+19 is past 2**53', and '9007199254740993.0' was not refused at all:
    'warning: ... 9007199254740992.0 is written as a fraction where an integer goes; read as 9007199254740992'
    (exit 0), a number the input does not hold.  Piped, it is said as from the file now (exit 1)."""
    path = _bundle(tmp_path, written)
    said = f"$.payload.seed: {written.decode()} (as written in the file; read as {read}) {PAST}"
    assert _errors([str(path)]) == (1, [f"error: {path}, event #0, id 0: {said}"])
    data = path.read_bytes()
    assert _errors(["-"], gzip.compress(data) if gzipped else data) == (1, [f"error: <stdin>, event #0, id 0: {said}"])


def test_an_archive_number_past_2_53_on_stdin_is_quoted_as_written(tmp_path: Path) -> None:
    path = _bundle(tmp_path, b"9007199254740993.0", where="archive")
    said = f"$.archive.agents[0].reputation: 9007199254740993.0 (as written in the file; read as 9007199254740992.0) {PAST}"
    assert _errors([str(path)]) == (1, [f"error: {path}: {said}"])
    assert _errors(["-"], path.read_bytes()) == (1, [f"error: <stdin>: {said}"])


def test_a_bundle_without_such_a_number_keeps_no_text(tmp_path: Path) -> None:
    """The texts are looked for only where the input may write such a number: none for a plain bundle."""
    path = _bundle(tmp_path, b"12")
    source = open_stdin(stdin=io.BytesIO(path.read_bytes()))
    assert source.number_texts is not None and source.number_texts(0) == {}
    assert _errors(["-"], path.read_bytes()) == (0, [])
