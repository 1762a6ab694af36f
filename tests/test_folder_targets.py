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

from .matchkit import archive, ev, write_match


def _cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The command in its own process (a hang fails the test by its timeout)."""
    return subprocess.run([sys.executable, "-c", "from daishi_forensics.cli import main; main()", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


def _clean(directory: Path, match_id: str = "m_0123456789ab", form: str = "stream") -> Path:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    for event in events:
        event["matchId"] = match_id
    return write_match(directory, events, archive(["a_1"], ended=5, matchId=match_id), form=form)


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
