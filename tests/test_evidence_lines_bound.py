"""``evidence_lines`` of a file whose first read refused records (an id may be held twice): the reading again stops
once every id asked for was seen twice (none of them can have a line), else it reads to the file's end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from daishi_forensics.read.sources import open_match
from daishi_forensics.report.screening import evidence_lines

from .matchkit import archive, ev, write_match


def _stream(folder: Path) -> Path:
    """A stream of 40 events (ids 1 to 40, one a line after the header) in which event 5 is held again (line 9)
    and event 6 again (line 10), after event 7: a log the read boundary refuses records of."""
    events = [ev(i, i, "rest", "a_1") for i in range(1, 41)]
    events[7:7] = [ev(5, 7, "rest", "a_1"), ev(6, 7, "rest", "a_1")]
    return write_match(folder, events, archive(["a_1"], ended=50))


def _counted(path: Path) -> tuple[Any, list[int]]:
    """The source of ``path``, and a list its records read again are counted in."""
    source = open_match(str(path))
    read = [0]
    records = source._records

    def counting() -> Iterator[Any]:
        for record in records():
            read[0] += 1
            yield record

    source._records = counting
    return source, read


def test_reading_again_stops_once_every_id_asked_for_was_seen_twice(tmp_path: Path) -> None:
    """Ids 5 and 6, each held twice (lines 6 and 9, 7 and 10), were looked for through all 42 records of the
    file; the reading now stops at the ninth record (line 10's: the second 6), with the same answer: no line."""
    source, read = _counted(_stream(tmp_path))
    assert evidence_lines(source, [5, 6], in_order=False) == {}
    assert read == [9]


def test_an_id_held_once_is_still_read_to_the_file_s_end(tmp_path: Path) -> None:
    """One id held twice and one held once: the one held once might come again later, so the whole file is read;
    the line of id 30 (line 33: the header, 29 events, two more) is known, id 5's is not."""
    source, read = _counted(_stream(tmp_path))
    assert evidence_lines(source, [5, 30], in_order=False) == {30: 33}
    assert read == [42]
