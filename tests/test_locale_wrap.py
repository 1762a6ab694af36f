"""Under a locale without UTF-8, text naming a path past ASCII wraps and is written as in a UTF-8 locale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .matchkit import archive, ev, write_match

_CLI = [sys.executable, "-c", "from daishi_forensics.cli import main; main()"]
_UTF8 = {"LC_ALL": "C.UTF-8"}
_ASCII = {"LC_ALL": "C", "PYTHONUTF8": "0"}  # what a locale without UTF-8 gives Python: file names as bytes
FOLDER = "dätä_ünïcödé_földer_wïth_äää_löng_nämé_ünd_mörë_äöü"


def _run(args: list[str | bytes], locale: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8", "PYTHONIOENCODING"))}
    return subprocess.run([*_CLI, *args], env={**env, **locale, "PYTHONHASHSEED": "0", "COLUMNS": "60"},
                          capture_output=True, timeout=120)


def _match(tmp_path: Path) -> bytes:
    events = [ev(i + 1, 0, "agent_spawned", a, region="r_0_0") for i, a in enumerate(["a_1", "a_2"])]
    return os.fsencode(write_match(tmp_path / FOLDER, events, archive(["a_1", "a_2"], ended=5)))


@pytest.mark.parametrize("command", ["screen", "compare"])
def test_a_path_past_ascii_wraps_as_in_a_utf8_locale(tmp_path: Path, command: str) -> None:
    """``screen`` and ``compare`` text name the match's path in lines wrapped to the terminal (``COLUMNS=60``).
    Under ``LC_ALL=C PYTHONUTF8=0`` (where Python reads the name's bytes as lone surrogates) each letter past
    ASCII was counted as two characters: the line broke earlier than in a UTF-8 locale ('CLEAR   m_… (/tmp/…/
    dätä_ünïcödé_földer_' then 'wïth_…' rather than '…_wïth_äää_' then 'löng_…'), though the bytes written
    were the same.  The lines are measured on the text as shown now: the same bytes in both locales, none
    wider than 60 characters."""
    target = _match(tmp_path)
    args: list[str | bytes] = [command, target, *([target] if command == "compare" else [])]
    utf8, ascii_ = _run(args, _UTF8), _run(args, _ASCII)
    assert utf8.returncode in (0, 1), utf8.stderr
    assert FOLDER.encode() in utf8.stdout.replace(b"\n", b"")
    assert (ascii_.returncode, ascii_.stdout) == (utf8.returncode, utf8.stdout)
    assert max(len(line) for line in utf8.stdout.decode().splitlines()) <= 60


def test_an_error_naming_a_path_past_ascii_is_written_as_in_a_utf8_locale(tmp_path: Path) -> None:
    """An error on standard error wrote each letter past ASCII of the path as '??' under ``LC_ALL=C
    PYTHONUTF8=0`` ('error: /…/d??t??_…'); it is written as in a UTF-8 locale now (the same bytes, exit 1)."""
    target = _match(tmp_path)
    archive_path = Path(os.fsdecode(target))
    archive_path.write_bytes(archive_path.read_bytes().replace(b'"endedAtTick":5', b'"endedAtTick":-5', 1))
    utf8, ascii_ = _run(["behavior", target], _UTF8), _run(["behavior", target], _ASCII)
    assert utf8.returncode == 1 and FOLDER.encode() in utf8.stderr, utf8.stderr
    assert (ascii_.returncode, ascii_.stderr) == (utf8.returncode, utf8.stderr)
