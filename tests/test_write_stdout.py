"""Standard output takes text and UTF-8 bytes alike: the same bytes reach it either way, and a stream
without bytes underneath gets the bytes as text."""

from __future__ import annotations

import io
import sys

import pytest

from daishi_forensics.outputs import write_stdout

TEXT = "caf\u00e9 \U0001f642 \u00b7\n"


def test_bytes_and_text_reach_standard_output_as_the_same_bytes(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    write_stdout(TEXT.encode("utf-8"))
    as_bytes = capsysbinary.readouterr().out
    write_stdout(TEXT)
    as_text = capsysbinary.readouterr().out
    assert as_bytes == as_text == b"caf\xc3\xa9 \xf0\x9f\x99\x82 \xc2\xb7\n"


def test_a_stream_without_bytes_underneath_gets_the_bytes_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    write_stdout(TEXT.encode("utf-8"))
    assert stream.getvalue() == TEXT
