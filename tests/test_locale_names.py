"""A match whose path holds letters past ASCII is reported the same in every locale."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .matchkit import archive, ev, write_match

_CLI = [sys.executable, "-c", "from daishi_forensics.cli import main; main()"]


def _run(args: list[str | bytes], locale: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONIOENCODING"))}
    return subprocess.run([*_CLI, *args], env={**env, **locale, "PYTHONHASHSEED": "0", "COLUMNS": "100"},
                          capture_output=True, timeout=120)


_UTF8 = {"LC_ALL": "C.UTF-8"}
_ASCII = {"LC_ALL": "C", "PYTHONUTF8": "0"}  # what a locale without UTF-8 gives Python: file names as bytes


@pytest.mark.parametrize("args", [["validate", "--format", "json"], ["behavior", "--format", "json"],
                                  ["behavior", "--format", "markdown"], ["screen", "--format", "github"],
                                  ["behavior", "--format", "text"]])
def test_a_path_past_ascii_is_written_the_same_in_an_ascii_locale(tmp_path: Path, args: list[str]) -> None:
    """``validate --format json dätä/m_….jsonl`` (and ``behavior`` as JSON or Markdown, ``screen --format
    github``) stopped with an internal error (exit 70: "str is not valid UTF-8: surrogates not allowed") under
    a locale without UTF-8 (``LC_ALL=C PYTHONUTF8=0``), where Python reads the name's bytes as lone surrogates:
    the name is now written as its bytes read as UTF-8, the same bytes and exit code as in a UTF-8 locale (the
    text report, which did not stop, wrapped its opening line otherwise: the name was two characters a letter)."""
    spawns = [ev(i + 1, 0, "agent_spawned", a, region="r_0_0") for i, a in enumerate(["a_1", "a_2"])]
    path = write_match(tmp_path / "dätä", spawns, archive(["a_1", "a_2"], ended=5))
    target = os.fsencode(path)
    utf8, ascii_ = _run([*args, target], _UTF8), _run([*args, target], _ASCII)
    assert utf8.returncode in (0, 1), utf8.stderr
    assert (ascii_.returncode, ascii_.stdout) == (utf8.returncode, utf8.stdout)
    assert "dätä".encode() in utf8.stdout
    if args[1] == "json" and args[0] == "validate":
        assert json.loads(ascii_.stdout)["matches"][0]["target"] == str(path)


def test_a_path_whose_bytes_are_no_utf8_is_written_with_a_replacement_character(tmp_path: Path) -> None:
    """A folder named with a byte that is no UTF-8 (``bad\\xff``) stopped ``validate --format json`` and
    ``behavior --format json`` with exit 70 in any locale: the byte is now shown as U+FFFD."""
    spawns = [ev(i + 1, 0, "agent_spawned", a, region="r_0_0") for i, a in enumerate(["a_1", "a_2"])]
    path = write_match(tmp_path / os.fsdecode(b"bad\xff"), spawns, archive(["a_1", "a_2"], ended=5))
    for args in (["validate", "--format", "json"], ["behavior", "--format", "json"]):
        result = _run([*args, os.fsencode(path)], _UTF8)
        assert result.returncode in (0, 1), result.stderr
        assert f"{tmp_path}/bad\ufffd/".encode() in result.stdout
