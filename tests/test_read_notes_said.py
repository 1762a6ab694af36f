"""What the read accepted of a match (``MatchSource.notes``: a byte-order mark read past, a file named for
another match) is said once by every command that reads it, not only by behavior, screen, score and validate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner

from daishi_forensics import exitcodes

from .matchkit import archive, ev, write_match


def _clean(directory: Path, match_id: str, form: str = "stream") -> Path:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    for event in events:
        event["matchId"] = match_id
    return write_match(directory, events, archive(["a_1"], ended=5, matchId=match_id), form=form)


def _misnamed(tmp_path: Path) -> Path:
    """A clean match (m_0123456789ab) in a file named for another (m_ffffffffffff)."""
    return _clean(tmp_path / "w", "m_0123456789ab").rename(tmp_path / "m_ffffffffffff.jsonl")


def _with_bom(tmp_path: Path) -> Path:
    """A clean match (m_0123456789ac) whose file starts with a UTF-8 byte-order mark."""
    path = _clean(tmp_path, "m_0123456789ac")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    return path


def _misnamed_note(path: Path) -> str:
    return (f"{path}: the file is named for match m_ffffffffffff, but its header names match 'm_0123456789ab': "
            "misnamed, or a copy of another match; read as 'm_0123456789ab'")


def _bom_note(path: Path) -> str:
    return f"{path}: starts with a UTF-8 byte-order mark, which JSON does not allow; read without it"


def _run(*args: str) -> Any:
    from daishi_forensics.cli import main

    return CliRunner().invoke(main, list(args))


# --------------------------------------------------------------------------- propagation


def test_propagation_says_the_reads_notes_on_stderr(tmp_path: Path) -> None:
    """``propagation m_ffffffffffff.jsonl`` (a file holding match m_0123456789ab) wrote the chains of
    m_0123456789ab without a word of the name, nor of a byte-order mark read past; each note is now said
    once on stderr, in either format and with --quiet (exit code unchanged: 0, the match clean)."""
    misnamed, bom = _misnamed(tmp_path), _with_bom(tmp_path)
    for path, note in ((misnamed, _misnamed_note(misnamed)), (bom, _bom_note(bom))):
        for args in ((), ("--format", "json"), ("--quiet",)):
            result = _run("propagation", *args, str(path))
            assert (result.exit_code, result.stderr) == (exitcodes.OK, f"daishi-forensics: note: {note}\n")
            assert "named for" not in result.stdout and "byte-order" not in result.stdout
        doc = orjson.loads(_run("propagation", "--format", "json", str(path)).stdout)
        assert doc["matchId"] == ("m_0123456789ab" if path == misnamed else "m_0123456789ac")


def test_propagation_of_a_match_named_for_itself_says_nothing_more(tmp_path: Path) -> None:
    path = _clean(tmp_path, "m_0123456789ab")
    result = _run("propagation", str(path))
    assert (result.exit_code, result.stderr) == (exitcodes.OK, "")
