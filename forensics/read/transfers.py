"""A table of transfers from any system, read into the transfer graph the screens take.

The collusion screens are functions of a plain transfer graph (one edge per transfer, with its
``value`` and ``tick``), so a bank's transactions, another game's trades or a laundering
simulator's output screen the same way a Daishi match does; the money-laundering typologies
(fan-in, fan-out, scatter-gather, value cycles) need nothing else.  This module is the edge that
turns such a table into that graph.

**The table.**  CSV with a header row, or JSON lines (one object per line), either optionally
gzipped (``.gz``); the form is told by the name (``.csv``, ``.jsonl``, ``.ndjson``, ``.json``).  It is
opened as a match file is (``sources.open_file``): a regular file only, never waiting on a FIFO, and a
``.gz`` table inflates to at most ``$DAISHI_MAX_INFLATED_BYTES`` (default 4 GiB); a line (ended by
``\n``, ``\r`` or ``\r\n``) is at most a match stream's line limit, 64 MiB (a longer one is refused
naming its line, never held whole), and a CSV cell at most that many characters (a quoted cell holding
line breaks too).
Each row is one transfer, read from four columns named by :class:`TransferColumns`:

==========  ===================================================================================
column      rule
==========  ===================================================================================
``from``    who paid: any non-empty text (an account id)
``to``      who was paid: any non-empty text, not the payer
``value``   how much: a plain decimal number (:data:`_DECIMAL`), 0 or from ``1 / MAX_VALUE``
            to :data:`MAX_VALUE`; an empty cell (JSON ``null``) is an unknown value,
            kept as a transfer and left out by the screens that need value (they say so)
``tick``    when: a plain decimal number within ``MAX_VALUE`` of 0, or an ISO 8601 date or
            date-time, extended or basic form (``2026-11-30T09:30:00Z``, ``20261130T093000Z``;
            read as seconds since
            1970-01-01 UTC; a time without a zone is read as UTC), the same kind in every row
            (a table mixing numbers and dates is refused: a step count and a date cannot be
            placed on one time line).  Only order and relative spacing matter: the
            typologies' windows are shares of the table's own time span.  A flag's
            explanation names dated times as dates and spans in minutes, hours or days
            (its details keep the seconds).  A tick of 8 digits that reads as a date
            ``YYYYMMDD`` of a year from 1900 to 2200 (``20261130``, text or a JSON number) is
            both: it is a date in a table of dates, a number beside a tick that is only a
            number, and when every tick of the table is one, a date (read as a number, 30
            November to 1 December would be 71 apart, December to January 8,870), which the
            output's notes say.  The ``tick_kind`` ``number`` or ``date`` (on the command line,
            ``--tick-kind``) reads every tick as that kind instead, refusing the other
``id``      optional: the transfer's id, cited as the evidence of a flag (default: the row's
            line number in the file); ids must be distinct
==========  ===================================================================================

Every other column is ignored.  The text is UTF-8; a byte-order mark at its start (as a
spreadsheet's "CSV UTF-8" export writes) is read as the encoding's mark, not as part of the first
column's name.  A CSV row has as many cells as the header has columns (a short row is no row of
unknown values).  Nothing is dropped silently: a row that breaks a rule stops
the read with an error naming the file, the line (a CSV row's first, when a quoted cell holds line
breaks) and the column (:class:`InputUnreadable`,
exit 3), as a malformed match does.  An empty table is an error too (nothing to screen).

>>> rows = [{"src": "a", "dst": "b", "amount": "10.5", "step": "3"},
...         {"src": "b", "dst": "c", "amount": "", "step": "4"}]
>>> g = transfer_graph(rows, TransferColumns(source="src", target="dst", value="amount", tick="step"), "t.csv")
>>> sorted((u, v, d["value"], d["tick"], d["event"]) for u, v, d in g.edges(data=True))
[('a', 'b', 10.5, 3.0, '2'), ('b', 'c', None, 4.0, '3')]
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import re
import sys
from collections.abc import Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import IO, Any, cast

import networkx as nx
import orjson

from daishi_forensics.errors import InputTooLarge, InputUnreadable
from daishi_forensics.jsonio import json_text

from .sources import GzipWords, Limits, open_file, refuse_utf16

__all__ = ["TICK_KINDS", "TransferColumns", "read_transfer_table", "table_rows", "transfer_graph"]

_FORMS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}


@dataclass(frozen=True)
class TransferColumns:
    """The names of the columns a transfer is read from (``id`` optional: None means the row's
    line number)."""

    source: str = "from"
    target: str = "to"
    value: str = "value"
    tick: str = "tick"
    id: str | None = None


def _form(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    form = _FORMS.get(suffixes[-1]) if suffixes else None
    if form is None:
        raise InputUnreadable("a transfer table must be named .csv or .jsonl (optionally .gz)", file=str(path))
    return form


def _words(path: Path) -> GzipWords:
    """What reading a gzipped table says when it refuses it."""
    file = str(path)
    return GzipWords(
        too_large=lambda: InputTooLarge(f"inflates past the size limit of {Limits().max_inflated_bytes} bytes; "
                                        "refused (raise $DAISHI_MAX_INFLATED_BYTES if this table is genuine)",
                                        file=file),
        invalid=lambda reason: InputUnreadable(f"cannot read: {reason}", file=file),
        truncated=lambda: InputUnreadable("cannot read: Compressed file ended before the end-of-stream marker was "
                                          "reached", file=file))


_LINE_END = re.compile(rb"[\r\n]")


def _line_ends(data: bytes, after_cr: bool) -> int:
    """How many lines end in ``data`` (at ``\n``, ``\r`` or ``\r\n``, as the text reader splits them);
    ``after_cr``: the byte before ``data`` was ``\r`` (a ``\n`` first ends no other line)."""
    return (data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
            - (1 if after_cr and data[:1] == b"\n" else 0))


class _LineBound(io.RawIOBase):
    """A table's bytes, refusing a line longer than the line limit as soon as that much of it is read
    (:class:`InputTooLarge` naming the file and the line), as a match stream's line is: the text reader
    above never holds more of one line.  A line ends at ``\n``, ``\r`` or ``\r\n``, as that reader's
    lines do (so the line named is the one its rows are numbered by)."""

    def __init__(self, inner: IO[bytes], limit: int, file: str) -> None:
        super().__init__()
        self._inner = inner
        self._limit = limit
        self._file = file
        self._run = 0  # bytes of the line being read, so far (its line break not counted)
        self._ended = 0  # lines ended before it
        self._cr = False  # the last byte read was "\r"

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = cast(io.BufferedReader, self._inner).read1(len(buffer))
        size = len(data)
        buffer[:size] = data
        if not size:
            return 0
        if self._run + size > self._limit:  # a line may pass the limit here: look at each line
            start = 0
            for end in _LINE_END.finditer(data):
                self._refuse_past(self._run + end.start() - start, data[:start])
                self._run, start = 0, end.end()
            self._refuse_past(self._run + size - start, data[:start])
        last = max(data.rfind(b"\n"), data.rfind(b"\r"))
        self._run = self._run + size if last < 0 else size - last - 1
        self._ended += _line_ends(data, self._cr)
        self._cr = data.endswith(b"\r")
        return size

    def _refuse_past(self, run: int, before: bytes) -> None:
        """Refuse a line of ``run`` bytes past the limit; ``before``: the bytes of this read before it."""
        if run > self._limit:
            raise InputTooLarge(f"a line is longer than {self._limit} bytes; refused", file=self._file,
                                line=self._ended + _line_ends(before, self._cr) + 1)

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            super().close()


def _text(path: Path, limits: Limits) -> IO[str]:
    # a regular file only (a FIFO was waited on for ever), .gz inflated within the match files' limit
    raw = cast(IO[bytes], open_file(path, _words(path), limits))  # (its opening notes the input, never replaced)
    try:
        refuse_utf16(cast(io.BufferedReader, raw).peek(2)[:2], str(path))  # a Windows shell's redirect
    except (OSError, EOFError) as exc:  # a gzip member cut short or corrupt (a reader that failed once reads
        raw.close()                     # nothing more: said now, as the rows' reader says it)
        raise InputUnreadable(f"cannot read: {exc}", file=str(path)) from None
    except InputUnreadable:
        raw.close()
        raise
    # each line within the line limit, as a match stream's (a line is otherwise held whole, however long)
    bounded = io.BufferedReader(_LineBound(raw, limits.max_line_bytes, str(path)), 1 << 16)
    # "utf-8-sig": a byte-order mark at the start is taken off (a spreadsheet's UTF-8 export writes
    # one); anywhere else it stays text, and the rest is strict UTF-8
    return io.TextIOWrapper(bounded, encoding="utf-8-sig", errors="strict", newline="")


_FIELD_LIMIT = "field larger than field limit"
"""How the csv module starts refusing a cell past its own limit (:func:`csv.field_size_limit`)."""


def _cell_too_long(limit: int, file: str, line: int, column: str | None = None) -> InputTooLarge:
    return InputTooLarge(f"a cell is longer than {limit} characters (a cell is at most a line's limit); refused",
                         file=file, line=line, field=column)


def _csv_rows(handle: IO[str], file: str, limit: int) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """Each row as a mapping with the line it starts on (a quoted cell may hold line breaks, so a row
    can span lines: the line named is its first).  A cell is at most ``limit`` characters (the line
    limit: a cell of one line is within it anyway, and a quoted cell holding line breaks is held to it)."""
    # the csv module refuses a cell past its own limit, 131,072 characters unless raised (a 200 KB
    # message in a cell was "not CSV"); that limit is one for the process (the caller's, and any other
    # reader's in it), so it is raised only while this reader reads a row, never lowered, and put back
    # as it was found before the row is handed on; each cell is held to this table's limit below
    reader = csv.reader(handle, strict=True)
    header: list[str] | None = None
    while True:
        start = reader.line_num + 1
        found = csv.field_size_limit()
        try:
            if found < limit:
                csv.field_size_limit(min(limit, sys.maxsize))
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if str(exc).startswith(_FIELD_LIMIT):
                raise _cell_too_long(limit, file, start) from None
            if reader.line_num > start or "end of data" in str(exc):
                raise InputUnreadable(f"a quoted cell opened in the row starting here is never closed (the file "
                                      f"ends inside it, at line {reader.line_num})", file=file, line=start) from None
            raise InputUnreadable(f"not CSV: {exc}", file=file, line=start) from None
        finally:  # (a row refused, a line past its limit, bytes not UTF-8: the setting is put back all the same)
            csv.field_size_limit(found)
        if not cells:
            continue  # a blank line
        # a row of one line holds no cell past the line limit; one spanning lines may (the csv module's limit
        # may be another reader's, higher)
        if reader.line_num > start and max(map(len, cells)) > limit:
            long = next(i for i, cell in enumerate(cells) if len(cell) > limit)
            raise _cell_too_long(limit, file, start, header[long] if header is not None and long < len(header)
                                 else None)
        if header is None:
            header = cells
            if len(set(header)) != len(header):
                repeated = sorted({h for h in header if header.count(h) > 1})
                raise InputUnreadable(f"the header names a column twice: {', '.join(map(repr, repeated))}",
                                      file=file, line=start)
            continue
        if len(cells) > len(header):
            raise InputUnreadable(f"more cells than the header has columns ({len(cells)}, not {len(header)})",
                                  file=file, line=start)
        if len(cells) < len(header):
            missing = header[len(cells)]
            raise InputUnreadable(f"fewer cells than the header has columns ({len(cells)}, not {len(header)}): no "
                                  f"cell for column {missing!r}", file=file, line=start, field=missing)
        yield start, dict(zip(header, cells, strict=True))


_LONG_DIGITS = re.compile(r"[0-9]{20}")
"""A run of digits as long as an integer beyond 64 bits: such a line is read by the standard library, which
keeps the integer whole (orjson makes it a float, or refuses it as infinite): an account id of 30 digits is
that id, not ``1.111111111111111e+29``."""


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _refuse_lone_surrogates(value: Any) -> None:
    texts = [value] if isinstance(value, str) else (
        [*value.keys(), *value.values()] if isinstance(value, dict) else value if isinstance(value, list) else [])
    for text in texts:
        if isinstance(text, str):
            if any("\ud800" <= c <= "\udfff" for c in text):
                raise ValueError("a lone surrogate escape (\\ud800 to \\udfff) is no character")
        elif isinstance(text, (dict, list)):
            _refuse_lone_surrogates(text)


def _jsonl_rows(handle: IO[str], file: str) -> Iterator[tuple[int, Mapping[str, Any]]]:
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            if _LONG_DIGITS.search(line):
                row = json.loads(line, parse_constant=_refuse_constant)
                _refuse_lone_surrogates(row)  # as orjson does (no writer takes one)
            else:
                row = orjson.loads(line)
        except (ValueError, RecursionError) as exc:  # orjson's JSONDecodeError is a ValueError
            raise InputUnreadable(f"not JSON: {exc}", file=file, line=number) from None
        if not isinstance(row, dict):
            raise InputUnreadable("not a JSON object", file=file, line=number)
        yield number, row


_PIECE = 1 << 16
"""How much of a line :func:`_first_not_utf8` holds at once (a line may be as long as the file)."""


def _first_not_utf8(path: Path) -> tuple[int | None, int, int]:
    """Where the text at ``path`` stops being UTF-8: its line (1 the first), the byte's offset in the
    (uncompressed) text, and the byte; read again as the table was (:func:`sources.open_file`: a regular
    file only, ``.gz`` within the inflated-size limit), a piece of a line at a time, never a whole line
    (a line break is never inside a character; a character cut by a piece's end is read with the next).
    ``(None, 0, 0)`` when every line reads (the text changed since).  A line ends at ``\n``, ``\r`` or
    ``\r\n``, as the rows' reader's lines do (a file of ``\r`` line ends was all "line 1")."""
    offset = 0  # of ``pending``'s first byte in the text
    ended = 0  # lines ended before it
    after_cr = False  # the byte before it was "\r"
    pending = b""
    with contextlib.suppress(OSError, EOFError), open_file(path, _words(path)) as raw:
        for piece in iter(partial(raw.readline, _PIECE), b""):
            data = pending + piece
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as exc:
                if not (exc.end == len(data) and exc.reason == "unexpected end of data"):
                    return ended + _line_ends(data[:exc.start], after_cr) + 1, offset + exc.start, data[exc.start]
                done, pending = data[:exc.start], data[exc.start:]  # a character the piece's end cut: read
            else:                                                   # with the next piece
                done, pending = data, b""
            ended += _line_ends(done, after_cr)
            after_cr = done.endswith(b"\r") if done else after_cr
            offset += len(done)
        if pending:  # the text ends inside a character
            return ended + 1, offset, pending[0]
    return None, 0, 0


def table_rows(path: Path, limits: Limits | None = None) -> Generator[tuple[int, Mapping[str, Any]], None, None]:
    """Each row of the table at ``path`` with its line number (CSV: the header is line 1; JSON lines:
    blank lines skipped), read by the module's rules for the form within ``limits`` (default: the match
    files' limits); errors name the file and line."""
    if path.is_dir():
        raise InputUnreadable("is a folder: a transfer table is one file (.csv or .jsonl, optionally .gz)",
                              file=str(path))
    form = _form(path)
    file = str(path)
    limits = limits or Limits()
    with _text(path, limits) as handle:
        try:
            yield from (_csv_rows(handle, file, limits.max_line_bytes) if form == "csv" else _jsonl_rows(handle, file))
        except UnicodeDecodeError:
            line, where, byte = _first_not_utf8(path)
            raise InputUnreadable(f"not UTF-8: byte 0x{byte:02x} at byte {where:,} of the file (save the table as "
                                  "UTF-8)", file=file, line=line) from None
        except (OSError, EOFError) as exc:  # a cut or corrupt gzip member
            raise InputUnreadable(f"cannot read: {exc}", file=file) from None
        except csv.Error as exc:
            raise InputUnreadable(f"not CSV: {exc}", file=file) from None


def _cell(raw: Any) -> str:
    """A cell as an error shows it: a CSV cell's text quoted (``'1_000'``), a JSON value as JSON writes it
    (``true``, ``{"x":1}``, not Python's ``True``); at most 40 characters.

    >>> _cell("1_000"), _cell(True), _cell({"x": 1}), _cell(1e400)
    ("'1_000'", 'true', '{"x":1}', 'inf')
    """
    if isinstance(raw, str):
        return repr(raw[:40])
    if isinstance(raw, float) and not math.isfinite(raw):
        return repr(raw)
    try:
        text = orjson.dumps(raw).decode()
    except (TypeError, orjson.JSONEncodeError):  # nested past the writer's depth
        text = json_text(raw)
    return text if len(text) <= 40 else text[:40] + "…"


def _account(row: Mapping[str, Any], column: str, file: str, line: int) -> str:
    value = row.get(column)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise InputUnreadable("an account is required", file=file, line=line, field=column)
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputUnreadable(f"an account is text or a whole number, not {_cell(value)}",
                              file=file, line=line, field=column)
    return str(value).strip()


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A plain number as a person or a program writes it: ASCII digits, an optional sign, decimal point
and exponent (``12``, ``-3.5``, ``.5``, ``4.517e-05``).  Not ``1_000`` nor ``1,000``, no other script's
digits (Arabic-Indic, fullwidth), no ``inf`` or ``nan``: Python's ``float`` takes all of those, and a
cell that only looks like a number to it is a cell to question."""

_PLAIN_HINT = " (a number is written in plain ASCII decimal digits: 1000, 4.5, 4.517e-05)"
_TICK_HINT = (" (a number is written in plain ASCII decimal digits: 1000, 4.5, 4.517e-05; a date-time as "
              "2024-01-31, 2024-01-31T09:30:00Z or 2024-01-31 09:30:00+01:00)")

MAX_VALUE = 1e100
"""The largest value a transfer may have (and the smallest positive one is ``1 / MAX_VALUE``).  The screens
read amounts only as ratios of each other, so the unit is free, but they add and multiply them: inside
this range no sum or band overflows or underflows a float, and nothing real lies outside it."""


def _number(raw: Any) -> float | None:
    """A finite number from a cell (a JSON number, or its text as :data:`_DECIMAL` reads it), else None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, (int, float)):
        try:
            number = float(raw)
        except OverflowError:  # a JSON integer past any float
            return None
    elif isinstance(raw, str):
        text = raw.strip()
        if not _DECIMAL.fullmatch(text):
            return None
        number = float(text)
    else:
        return None
    return number + 0.0 if math.isfinite(number) else None  # + 0.0: "-0" is 0 (never "tick -0" in a report)


def _value(row: Mapping[str, Any], column: str, file: str, line: int) -> float | None:
    raw = row.get(column)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    number = _number(raw)
    if number is None or number < 0:
        raise InputUnreadable(f"a value is a finite number >= 0 (or empty when unknown), not {_cell(raw)}"
                              f"{_PLAIN_HINT if isinstance(raw, str) and not _DECIMAL.fullmatch(raw.strip()) else ''}",
                              file=file, line=line, field=column)
    if number > MAX_VALUE or 0 < number < 1 / MAX_VALUE:
        fix = "divide" if number > MAX_VALUE else "multiply"  # a unit too small, or too large
        raise InputUnreadable(f"a value is 0 or between {1 / MAX_VALUE:g} and {MAX_VALUE:g} (the screens add and "
                              f"multiply amounts; any unit is fine, so {fix} the column by a power of ten), "
                              f"not {_cell(raw)}", file=file, line=line, field=column)
    return number


TICK_KINDS = ("auto", "number", "date")
"""How a table's ticks are read: ``auto`` (numbers or dates as written; a table of basic-form dates, all
of them 8 digits such as ``20261130``, as dates: :func:`transfer_graph`), ``number`` or ``date`` (every
tick that kind, the other refused)."""

_BASIC_YEARS = (1900, 2200)
"""The years an ``auto`` read takes an 8-digit tick for a date in (``20261130``), when every tick is one."""

_EIGHT_DIGITS = re.compile(r"[0-9]{8}")


def _basic_date(raw: Any) -> tuple[float, int] | None:
    """A tick written as a calendar date in ISO 8601's basic form, ``YYYYMMDD`` (the text of 8 ASCII
    digits, or a JSON whole number of 8 digits): its seconds since 1970-01-01 UTC (its midnight, UTC)
    and its year; else None.

    >>> _basic_date("20261130"), _basic_date(20261201), _basic_date("20261131"), _basic_date(2026113)
    ((1795996800.0, 2026), (1796083200.0, 2026), None, None)
    """
    if isinstance(raw, int) and not isinstance(raw, bool):
        text = str(raw)
    elif isinstance(raw, str):
        text = raw.strip()
    else:
        return None
    if not _EIGHT_DIGITS.fullmatch(text):
        return None
    try:
        day = datetime(int(text[:4]), int(text[4:6]), int(text[6:]), tzinfo=timezone.utc)
    except ValueError:
        return None
    return day.timestamp(), day.year


def _moment(raw: Any) -> float | None:
    """A tick written as an ISO 8601 date or date-time (extended or basic form, as the standard library
    reads it; a time without a zone is UTC): its seconds since 1970-01-01 UTC; else None."""
    if not isinstance(raw, str) or not raw.strip():
        return None
    try:
        moment = datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def _tick(row: Mapping[str, Any], column: str, file: str, line: int, kind: str = "auto") -> tuple[float, str]:
    """The row's time and how it was written: ``"number"``, ``"date"``, or (``kind`` ``auto``) ``"either"``:
    a number of 8 digits that is a calendar date ``YYYYMMDD`` of a year in :data:`_BASIC_YEARS` (returned
    as the number; :func:`transfer_graph` decides).  ``kind`` (:data:`TICK_KINDS`) refuses the other kind."""
    raw = row.get(column)
    if kind == "date":
        basic = _basic_date(raw)
        if basic is not None:
            return basic[0], "date"
    number = _number(raw)
    if number is not None:
        if kind == "date":
            raise InputUnreadable(f"a tick is an ISO 8601 date or date-time (the ticks are read as dates: "
                                  f"--tick-kind date), not {_cell(raw)}", file=file, line=line, field=column)
        if abs(number) > MAX_VALUE:
            raise InputUnreadable(f"a tick is between {-MAX_VALUE:g} and {MAX_VALUE:g} (the screens subtract ticks; "
                                  f"only order and spacing matter), not {_cell(raw)}", file=file, line=line,
                                  field=column)
        if kind == "auto":
            basic = _basic_date(raw)
            if basic is not None and _BASIC_YEARS[0] <= basic[1] <= _BASIC_YEARS[1]:
                return number, "either"
        return number, "number"
    moment = _moment(raw)
    if moment is not None:
        if kind == "number":
            raise InputUnreadable(f"a tick is a number (the ticks are read as numbers: --tick-kind number), not "
                                  f"{_cell(raw)}", file=file, line=line, field=column)
        return moment, "date"
    raise InputUnreadable(f"a tick is a finite number or an ISO 8601 date-time, not {_cell(raw)}"
                          f"{_TICK_HINT if isinstance(raw, str) and raw.strip() else ''}", file=file, line=line,
                          field=column)


def _as_dates(graph: nx.MultiDiGraph) -> None:
    """Every edge's tick, an 8-digit number ``YYYYMMDD`` read as such so far, read as that date."""
    for _, _, data in graph.edges(data=True):
        data["tick"] = cast(tuple[float, int], _basic_date(int(data["tick"])))[0]


def _require(row: Mapping[str, Any], columns: TransferColumns, file: str, line: int) -> None:
    """Every column the transfer is read from is in the row (the row's columns listed if not)."""
    wanted = [columns.source, columns.target, columns.value, columns.tick]
    if columns.id is not None:
        wanted.append(columns.id)
    for column in wanted:
        if column not in row:
            have = ", ".join(repr(k) for k in list(row)[:12]) + (", ..." if len(row) > 12 else "")
            raise InputUnreadable(f"no column {column!r} (the row has {have or 'none'}; on the command line "
                                  "--from, --to, --value, --tick and --id name the table's columns)", file=file, line=line, field=column)


def transfer_graph(rows: Iterable[Mapping[str, Any]] | Iterable[tuple[int, Mapping[str, Any]]],
                   columns: TransferColumns, file: str, *, tick_kind: str = "auto") -> nx.MultiDiGraph:
    """The transfer graph of ``rows`` (mappings, or ``(line, mapping)`` pairs; plain mappings
    are numbered from line 2, under a header), read by the module's rules; ``file`` names the
    source in errors and is the graph's ``name``.

    ``tick_kind`` (:data:`TICK_KINDS`) says how the ticks are read.  ``auto``: a number is a number and
    an ISO 8601 date or date-time a date, except the ticks of 8 digits that read as a calendar date
    ``YYYYMMDD`` of a year from 1900 to 2200 (``20261130``: ISO 8601's basic form, a common export): in
    a table whose other ticks are dates they are dates; in a table whose every tick is one, they are
    dates too (as numbers, 30 November to 1 December would be 71 ticks apart), and the graph's notes say
    so; only beside a tick that is a number (``5``, ``20261331``) are they numbers.  ``number``: every
    tick a number (a date refused); ``date``: every tick a date, any 8 digits ``YYYYMMDD`` included (a
    number refused).

    Where every row came with its line (``(line, mapping)`` pairs: a file's rows, :func:`table_rows`), the
    graph's ``lines`` maps each transfer's id (its ``event``) to its line: a CSV row's first line, as the reader
    numbers it, a JSON line's own."""
    if tick_kind not in TICK_KINDS:
        raise ValueError(f"tick_kind is one of {', '.join(TICK_KINDS)}, not {tick_kind!r}")
    graph = nx.MultiDiGraph(name=file)
    seen: dict[str, int] = {}
    located = True  # every row came with its line (a file's, as table_rows numbers them)
    first: dict[str, int] = {}  # the first line of a tick that is a number, and of one that is a date
    either: tuple[int, Any] | None = None  # the first tick that reads as both (its line and cell), while undecided
    for number, item in enumerate(rows, start=2):
        if isinstance(item, tuple):
            line, row = item
        else:
            line, row, located = number, item, False
        _require(row, columns, file, line)
        source = _account(row, columns.source, file, line)
        target = _account(row, columns.target, file, line)
        if source == target:
            raise InputUnreadable(f"the payer and the payee are the same account ({source[:40]!r})",
                                  file=file, line=line, field=columns.target)
        value = _value(row, columns.value, file, line)
        tick, kind = _tick(row, columns.tick, file, line, tick_kind)
        if kind == "either":
            if "date" in first:
                tick = cast(tuple[float, int], _basic_date(row.get(columns.tick)))[0]
            elif "number" not in first and either is None:
                either = (line, row.get(columns.tick))
        elif kind not in first:
            other = "number" if kind == "date" else "date"
            if other in first:
                raise InputUnreadable(f"a tick is a {kind} here and a {other} on line {first[other]}: a table's "
                                      "ticks are all numbers or all ISO 8601 dates, never both", file=file,
                                      line=line, field=columns.tick)
            first[kind] = line
            if kind == "date" and either is not None:  # the 8-digit ticks before it were dates
                _as_dates(graph)
                either = None
        event = str(line) if columns.id is None else _account(row, columns.id, file, line)
        if event in seen:
            raise InputUnreadable(f"the id {event[:40]!r} was already used on line {seen[event]}",
                                  file=file, line=line, field=columns.id)
        seen[event] = line
        graph.add_edge(source, target, value=value, tick=tick, event=event)
    if not seen:
        raise InputUnreadable("the table holds no transfer", file=file)
    if either is not None and not first:  # every tick is 8 digits that read as a date
        _as_dates(graph)
        cell = str(either[1]).strip()
        graph.graph["not_screened"] = [
            f"ticks read as dates: every tick is 8 digits that read as a date YYYYMMDD (ISO 8601's basic form: "
            f"line {either[0]}'s {cell} is {cell[:4]}-{cell[4:6]}-{cell[6:]}), not as numbers (step counts that only "
            "look like dates: --tick-kind number)"]
    if "date" in first or (either is not None and not first):
        graph.graph["tick_dates"] = True  # the explanations name times as dates, spans in minutes to days
    if located:
        graph.graph["lines"] = seen  # where each transfer is, by its id: a flag's place in the file (SARIF, github)
    return graph


def read_transfer_table(path: Path, columns: TransferColumns | None = None, *,
                        limits: Limits | None = None, tick_kind: str = "auto") -> nx.MultiDiGraph:
    """The transfer graph of the table at ``path`` (:func:`transfer_graph`; errors name the file,
    the line and the column); the file is closed when it returns or raises (a row refused midway
    leaves no file open behind it, held by the error's traceback); ``limits``: :func:`table_rows`'s; ``tick_kind``: :func:`transfer_graph`'s."""
    rows = table_rows(path, limits)
    try:
        return transfer_graph(rows, columns or TransferColumns(), str(path), tick_kind=tick_kind)
    finally:
        rows.close()
