"""What the read accepted of a match (``MatchSource.notes``: a byte-order mark read past, a file named for
another match) is said once by every command that reads it, not only by behavior, screen, score and validate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from click.testing import CliRunner

from daishi_forensics import exitcodes

from .matchkit import one_seat_match


_clean = one_seat_match


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


# --------------------------------------------------------------------------- compare


def test_compare_says_the_reads_notes_first_among_its_notes(tmp_path: Path) -> None:
    """``compare m_ffffffffffff.jsonl m_0123456789ac.jsonl`` (the first file holding match m_0123456789ab, the
    second starting with a byte-order mark) compared m_0123456789ab with m_0123456789ac without a word of
    either; the comparison's notes now begin with each note of the reads, once (a file given on both sides
    is read once, its note said once), in every format (exit code unchanged: 0)."""
    misnamed, bom = _misnamed(tmp_path), _with_bom(tmp_path)
    notes = [_misnamed_note(misnamed), _bom_note(bom)]
    result = _run("compare", "--format", "json", str(misnamed), str(bom))
    assert result.exit_code == exitcodes.OK
    doc = orjson.loads(result.stdout)
    assert doc["notes"][:3] == [*notes, "One match per side: the figures other than a seat's resistance have no "
                                "interval over matches (compare two sets of matches with --by model for that). "
                                "Seats are paired by seat number; a seat number only one side has is listed with "
                                "the other side empty."]
    assert (doc["a"]["matchId"], doc["b"]["matchId"]) == ("m_0123456789ab", "m_0123456789ac")
    result = _run("compare", "--format", "json", str(misnamed), str(misnamed))
    assert result.exit_code == exitcodes.OK
    assert [n for n in orjson.loads(result.stdout)["notes"] if "named for" in n] == notes[:1]
    text = _run("compare", "--format", "markdown", str(misnamed), str(bom))
    assert text.exit_code == exitcodes.OK and "byte-order mark" in text.stdout
    assert text.stdout.count("named for match m\\_ffffffffffff") == 1


def test_compare_by_model_says_each_reads_notes_once(tmp_path: Path) -> None:
    """Two folders compared by model: each match's notes are the first notes, once each."""
    misnamed, bom = _misnamed(tmp_path / "a"), _with_bom(tmp_path / "b")
    result = _run("compare", "--by", "model", "--format", "json", str(tmp_path / "a"), str(tmp_path / "b"))
    assert result.exit_code == exitcodes.OK
    assert orjson.loads(result.stdout)["notes"][:3] == [
        _misnamed_note(misnamed), _bom_note(bom),
        "A side's value in a match is the mean over its player seats there (resistance: pooled over the probes "
        "its seats heard; the screens: 1 when a flag, or a flag or review, names one of its seats); each match "
        "counts once."]


def test_compare_writes_a_notes_path_as_text_in_html(tmp_path: Path) -> None:
    folder = tmp_path / "<b>x"
    folder.mkdir()
    misnamed, other = _misnamed(folder), _clean(tmp_path, "m_0123456789ac")
    result = _run("compare", "--format", "html", str(misnamed), str(other))
    assert result.exit_code == exitcodes.OK
    assert "<b>x" not in result.stdout
    said = f"<li>{tmp_path}/&lt;b&gt;x/m_ffffffffffff.jsonl: the file is named for match m_ffffffffffff"
    assert said in result.stdout


# --------------------------------------------------------------------------- export


def test_export_says_the_reads_notes_on_stderr(tmp_path: Path) -> None:
    """``export m_ffffffffffff.jsonl --parquet lake`` (a file holding match m_0123456789ab) wrote the partition
    match_id=m_0123456789ab without a word of the name (a query for m_ffffffffffff finds nothing), nor of a
    byte-order mark read past; each note is now said once on stderr after the match's line (not with --quiet,
    which prints nothing but errors); exit code unchanged: 0."""
    misnamed, bom = _misnamed(tmp_path), _with_bom(tmp_path)
    result = _run("export", str(misnamed), str(bom), "--parquet", str(tmp_path / "lake"))
    assert result.exit_code == exitcodes.OK
    assert result.stdout == ("m_0123456789ab: 2 events, 1 seats, 0 pairs\n"  # the targets in the order given
                             "m_0123456789ac: 2 events, 1 seats, 0 pairs\n"
                             f"wrote {tmp_path / 'lake'}/events, seats, pairs\n")
    assert result.stderr == (f"daishi-forensics: note: {_misnamed_note(misnamed)}\n"
                             f"daishi-forensics: note: {_bom_note(bom)}\n")
    assert sorted(p.name for p in (tmp_path / "lake" / "events").iterdir()) == [
        "match_id=m_0123456789ab", "match_id=m_0123456789ac"]
    quiet = _run("export", "--quiet", str(misnamed), "--parquet", str(tmp_path / "lake2"))
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (exitcodes.OK, "", "")
