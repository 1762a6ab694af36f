"""Where a match comes from: the five forms of contract §1.

This module is the I/O edge of the tool.  It resolves a *target* (a path, an
``m_<id>`` in a match store or on a Daishi server, or the embedded ``m_demo``) to a
:class:`MatchSource`, which knows the match's header (archive, report, match id)
and can iterate over its raw event records **once, streaming** — a ``.jsonl`` match
larger than memory is never held whole.

Each raw record is a :class:`RawRecord` tuple ``(index, line, data, error)``:
``index`` counts records from 0, ``line`` is the 1-based line of a stream file
(``None`` for a bundle or a server page), ``data`` the parsed JSON value (``None``
when it could not be parsed) and ``error`` the parse error of that record.  A record
that cannot be parsed is reported, never skipped.

Limits (refusing rather than exhausting memory):

* a gzip file inflates to at most ``max_inflated_bytes`` (default 4 GiB, or
  ``$DAISHI_MAX_INFLATED_BYTES``);
* a bundle (one JSON document, parsed whole) is at most ``max_bundle_bytes``
  (default 2 GiB): large matches come as streams;
* one line of a stream is at most ``max_line_bytes`` (default 64 MiB; a 5 MB
  message text is fine).
"""

from __future__ import annotations

import array
import base64
import bisect
import email.utils
import hashlib
import http.client
import io
import json
import os
import re
import socket
import ssl
import stat
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import weakref
import zlib
from contextlib import ExitStack, contextmanager
import dataclasses
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import IO, Any, BinaryIO, Callable, Generator, Iterator, NamedTuple

import orjson

from daishi_forensics import schemas
from daishi_forensics.wording import count
from daishi_forensics.arithmetic import positive_whole
from daishi_forensics.jsonio import json_kind, shown as shown_value
from daishi_forensics.outputs import note_input
from daishi_forensics.errors import BadSetting, ForensicsError, InputTooLarge, InputUnreadable, MatchNotFound, ServerError
from .validation import (EXACT_INTEGER, IntegerPath, IntegralFloat, as_integers, integer_paths, read_exactly,
                         written_fraction)
from .jsontext import (DocumentEvent, RepeatedKeys, key_path, loads_keeping_surrogates, may_repeat_keys,
                       replace_lone_surrogates, repeated_keys, with_lone_surrogates,
                       written_numbers)

__all__ = [
    "DEMO_ID",
    "EventSpool",
    "Limits",
    "MatchSource",
    "PageErrata",
    "RawRecord",
    "is_match_id",
    "is_match_folder",
    "matches_in",
    "MATCH_SUFFIXES",
    "misnamed_note",
    "named_for",
    "refuse_utf16",
    "GzipWords",
    "open_file",
    "read_regular",
    "json_lines",
    "open_match",
    "open_stdin",
    "STDIN",
    "STDIN_NAME",
    "default_store",
    "redact_url",
    "server_address",
    "split_credentials",
    "ServerClient",
]

MATCH_ID = re.compile(r"^m_[0-9a-f]{12}\Z")
DEMO_ID = "m_demo"
_GIB = 1 << 30


def is_match_id(text: str) -> bool:
    """True for ``m_`` followed by 12 lowercase hex digits (contract §1)."""
    return bool(MATCH_ID.match(text))


def _positive_setting(name: str, default: int, unit: str) -> int:
    """The environment variable ``name`` as a positive whole number written in ASCII digits, else
    ``default`` (unset or blank).  ``int()`` alone would also take ``1_000``, ``+5`` and other scripts'
    digits, which no one means as a limit.

    Raises
    ------
    BadSetting
        The variable is set to anything else (``0``, ``-5``, ``4GB``, ``1_000``...).
    """
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    value = positive_whole(text)
    if value is None:
        raise BadSetting(f"must be a positive whole number of {unit}, written in digits (for example {default}), "
                         f"not {text!r}", file=f"${name}")
    return value


def _inflated_limit() -> int:
    """``$DAISHI_MAX_INFLATED_BYTES`` (a whole number of bytes), else 4 GiB."""
    return _positive_setting("DAISHI_MAX_INFLATED_BYTES", 4 * _GIB, "bytes")


SERVER_MAX_PAGES = 20_000
"""The most export pages of one match fetched, unless ``$DAISHI_SERVER_MAX_PAGES`` says otherwise."""


def _max_pages() -> int:
    """``$DAISHI_SERVER_MAX_PAGES`` (a whole number of pages), else :data:`SERVER_MAX_PAGES`."""
    return _positive_setting("DAISHI_SERVER_MAX_PAGES", SERVER_MAX_PAGES, "pages")


@dataclass(frozen=True)
class Limits:
    """Size limits applied while reading, and the server client's bounds."""

    max_inflated_bytes: int = field(default_factory=_inflated_limit)
    """Refuse a gzip file that inflates past this many bytes."""
    max_bundle_bytes: int = 2 * _GIB
    """Refuse a bundle (parsed whole) larger than this."""
    max_line_bytes: int = 64 << 20
    """Refuse one stream line longer than this."""
    server_timeout_seconds: float = 30.0
    """A server that sends nothing for this long (connecting, or between two reads) has failed."""
    server_answer_seconds: float = 300.0
    """One answer (headers and whole body) must arrive within this many seconds."""
    server_answer_bytes: int = 256 << 20
    """Refuse an answer (one export page, the report) larger than this."""
    server_empty_pages: int = 100
    """Refuse an export that gives this many pages in a row without an event (and a new cursor)."""
    server_max_pages: int = field(default_factory=_max_pages)
    """Refuse an export of more pages than this (``$DAISHI_SERVER_MAX_PAGES``, default 20,000)."""
    server_retries: int = 3
    """Retries of a 5xx, a 429, a dropped connection or a timeout, before giving up."""
    server_backoff_seconds: float = 0.25
    """First wait before a retry (doubled each time)."""
    server_retry_after_seconds: float = 60.0
    """The longest ``Retry-After`` honoured; a server asking for more has failed."""


class RawRecord(NamedTuple):
    """One raw event record as read, before validation."""

    index: int  # type: ignore[assignment]  # a field named like tuple.index, read as an attribute only
    line: int | None
    data: Any
    error: str | None
    text: bytes | None = None
    """The line as read (a stream), for what only the text shows (repeated keys); None when the
    record came out of a whole document (its repeated keys are found there)."""


@dataclass(frozen=True)
class FileRecords:
    """How to read a source's records again, in another process: its file and reader settings."""

    path: str
    limits: Limits
    skip_header: bool


class PageErrata(NamedTuple):
    """The errata one export page of a server gave."""

    page: str
    """The page's address, as shown (:func:`_page_address`)."""
    errata: list[Any]
    """Its ``errata`` array, as served."""
    unknown: dict[int, list[int]]
    """By position in ``errata``: the event ids that erratum names and no page of the export holds."""


@dataclass
class MatchSource:
    """A match in one of the contract's forms, opened but not yet read.

    ``header`` is the bundle/stream header object (``format``, ``formatVersion``,
    ``matchId``, ``archive``, ``report``?) or its equivalent for the folder and
    server forms.  :meth:`records` iterates over the raw event records once.
    """

    name: str
    form: str
    header: dict[str, Any]
    _records: Callable[[], Iterator[RawRecord]]
    errata: list[dict[str, Any]] = field(default_factory=list)
    page_errata: list[PageErrata] = field(default_factory=list)
    """A server's errata page by page, as served: what validation checks against the erratum schema,
    as it checks an archive's, and against the events the export holds."""
    report_error: str | None = None
    """Why the match's report (its published scorecards) could not be read, when it could not:
    the match is still read, and the report says so as a finding."""
    notes: list[str] = field(default_factory=list)
    """What reading the input had to accept that the format does not ask for (a byte-order mark)."""
    file_records: FileRecords | None = None
    """For a stream or folder: the file its records are read from."""
    repeated_keys: list[str] = field(default_factory=list)
    """Keys the header's JSON text repeats (outside the events), as paths (the last value is kept)."""
    lone_surrogates: list[tuple[str, str]] = field(default_factory=list)
    """Strings of the header (outside the events) whose lone surrogate escapes were read as U+FFFD:
    ``(where, the string as written)``, where a path (a key: its object's path, then ``{key}``)."""
    number_texts: Callable[[int], dict[tuple[Any, ...], str]] | None = None
    """For a bundle: the numbers of the record at an index that were read as doubles at least 2**53
    in magnitude, as the file writes them, by their path in the record (found when first asked, by
    reading the file again: its text is not kept; from standard input, which cannot be read again, found
    in the text as it is parsed); a line's text is at hand, this is the document's."""
    archive_numbers: list[IntegralFloat] = field(default_factory=list)
    """Numbers of the archive written with a fraction or exponent where its schema puts an integer
    (``"endedAtTick": 600.0``), read as the integers they are (said as warnings), paths from the
    archive's root; one that cannot be read exactly (:attr:`archive_past`) stays as read."""

    archive_past: list[IntegralFloat] = field(default_factory=list)
    """Integers of the archive read as doubles of 2**53 or more in magnitude (``9007199254740993.0``), which
    cannot be read exactly, or whose text writes a fraction other than zero (``4503599627370496.5``), which
    are no integers: as written where the archive's text was at hand (a stream's header line, a bundle's
    document, a folder's ``archive.json``, a server's first export page: :func:`_archive_past`), paths from
    the archive's root.  One of 2**53 exactly that the text writes as such (``9007199254740992.0``) is read
    as that integer instead, as in an event (:func:`~.validation.read_exactly`)."""
    header_text: bytes | None = None
    """The header's text, where it is one line (a stream's first line)."""

    def __post_init__(self) -> None:
        archive = self.header.get("archive")
        if isinstance(archive, dict):
            found = as_integers(archive, _archive_integers())[1]
            if not self.archive_past:
                self.archive_past = _archive_past(found, self.header_text, ("archive",))
            # read as the integers they are, as an event's are (read_exactly): below 2**53, and 2**53 itself where
            # the text writes it; past that, or where the double may not be the number written, refused
            exact = [dataclasses.replace(n, written=None) for n in self.archive_past if read_exactly(n)]
            if exact:
                self.archive_past = [n for n in self.archive_past if not read_exactly(n)]
            refused = {n.where for n in self.archive_past}  # a fraction other than zero below 2**53 too
            numbers = [n for n in found if abs(n.value) < EXACT_INTEGER and n.where not in refused] + exact
            if numbers:
                read, _ = as_integers(archive, [tuple(n.where) for n in numbers])
                self.header = {**self.header, "archive": read}
                self.archive_numbers = [*self.archive_numbers, *numbers]

    @property
    def archive(self) -> dict[str, Any]:
        archive = self.header.get("archive")
        return archive if isinstance(archive, dict) else {}

    @property
    def report(self) -> dict[str, Any] | None:
        report = self.header.get("report")
        return report if isinstance(report, dict) else None

    @property
    def match_id(self) -> str | None:
        match_id = self.header.get("matchId") or self.archive.get("matchId")
        return match_id if isinstance(match_id, str) else None

    def records(self) -> Iterator[RawRecord]:
        """The raw event records, in log order, streamed."""
        return self._records()

    def tapped(self, tap: Callable[[bytes], object]) -> MatchSource:
        """A copy whose records hand ``tap`` (a digest's ``update``) each record's bytes as read, in
        log order, each before the record is handed on: a line of a stream or folder as read (a blank
        line is no record), else the text of the record's first four fields (``repr``).

        A stream's and a folder's line reader calls ``tap`` itself, on the line it has just read;
        other records are tapped as they pass."""
        records = self._records
        tapping = getattr(records, "tapped", None)
        if callable(tapping):
            return dataclasses.replace(self, _records=partial(tapping, tap))

        def passing() -> Iterator[RawRecord]:
            for record in records():
                text = record[4]
                tap(text if text is not None else repr(record[:4]).encode())
                yield record

        return dataclasses.replace(self, _records=passing)


# --------------------------------------------------------------------------- files

_CHUNK = 1 << 20
"""Bytes asked of the operating system at a time when a whole file is read."""


class _Identity(NamedTuple):
    """What says a file is still the one that was opened: where it lives and how it looked."""

    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, status: os.stat_result) -> _Identity:
        return cls(status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def _changed(name: str) -> InputUnreadable:
    return InputUnreadable(
        "changed while being read (replaced, rewritten or grown); refused rather than analyse a mix "
        "of two versions: read it again once it is complete",
        file=name,
    )


class _File:
    """A regular file opened for reading (never a FIFO, device or socket), which can tell
    whether it changed since it was opened (device, inode, size, modification time)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = str(path)
        flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO must not wait for a writer
        except OSError as exc:
            raise InputUnreadable(f"cannot open ({exc.strerror or exc})", file=self.name) from exc
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                raise InputUnreadable(f"is not a regular file (it is {_kind(status.st_mode)}); refused",
                                      file=self.name)
            os.set_blocking(fd, True)
            self.raw: BinaryIO = os.fdopen(fd, "rb", buffering=0)
        except BaseException:
            os.close(fd)
            raise
        self.identity = _Identity.of(status)
        note_input(status)  # an output of this process never replaces it

    def expect(self, identity: _Identity | None) -> None:
        """Refuse the file if it is not the one seen earlier (``identity``, None: nothing seen)."""
        if identity is not None and identity != self.identity:
            self.raw.close()
            raise _changed(self.name)

    def check_unchanged(self) -> None:
        """Refuse the file if it changed since it was opened, or its name now names another file."""
        try:
            now = _Identity.of(os.fstat(self.raw.fileno()))
            named = _Identity.of(os.stat(self.path))
        except OSError as exc:
            raise _changed(self.name) from exc
        if now != self.identity or named != self.identity:
            raise _changed(self.name)


def _kind(mode: int) -> str:
    for test, what in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return what
    return "not a regular file"


class GzipWords(NamedTuple):
    """What a reader of gzip data says when it refuses it (each caller names its input its own way)."""

    too_large: Callable[[], Exception]
    """The data inflates (or its last member's trailer says it inflates) past the limit."""
    invalid: Callable[[str], Exception]
    """The data is not gzip data (the reason, as zlib words it)."""
    truncated: Callable[[], Exception]
    """The data ends inside a member."""


_GZIP_PIECE = 16 << 10
"""Bytes of gzip data inflated at a time (deflate inflates at most about 1,032 times: about 16 MiB out)."""
_GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of a gzip member."""


class _Inflating(io.RawIOBase):
    """gzip data (``source``, a binary file or the bytes themselves) inflated as it is read, the one
    reader of gzip data in the read layer (a ``.gz`` file, a server's gzip-encoded answer):

    * every member is inflated, one after the other (RFC 1952: gzip data may be several); zero bytes
      after a member are padding, read past (as gzip and Python's gzip module read it);
    * at most ``limit`` bytes come out: past it, ``words.too_large()``, holding no more than one
      read's output; the data is taken a small piece at a time (a bomb never inflates a piece whole);
    * ``stated``, the inflated size the last member's trailer states (:func:`_stated_size`, when the
      data is at hand), past the limit is refused before a byte is inflated (inflating checks that
      size: were it a lie, the data would be refused as invalid); a stream is refused once it gets
      there, as it is read;
    * data that is not gzip is ``words.invalid(reason)``, data that ends inside a member
      ``words.truncated()``; no data at all is nothing when ``empty`` (an empty ``.gz`` file), else
      truncated.

    Closing it closes ``source`` (a file)."""

    def __init__(self, source: BinaryIO | memoryview, limit: int, words: GzipWords, *, empty: bool,
                 stated: int | None = None) -> None:
        self._source = source
        self._stated = stated
        self._position = 0  # (in a memoryview source)
        self._limit = limit
        self._left = limit
        self._words = words
        self._empty = empty
        self._pending: bytes | memoryview = b""  # input read and not inflated yet
        self._inflater: Any = None  # the member being inflated
        self._members = 0  # members inflated whole
        self._started = False
        self._done = False

    def readable(self) -> bool:
        return True

    def _piece(self) -> bytes | memoryview:
        """The next piece of input (empty at its end)."""
        source = self._source
        if isinstance(source, memoryview):
            piece = source[self._position:self._position + _GZIP_PIECE]
            self._position += len(piece)
            return piece
        try:
            return source.read(_GZIP_PIECE)
        except OSError as exc:
            raise self._words.invalid(str(exc)) from exc

    def _start(self) -> None:
        """The first read: refused by the stated size before inflating anything."""
        self._started = True
        if self._stated is not None and self._stated > self._limit:
            raise self._words.too_large()
        self._pending = self._piece()
        if not self._pending:
            if self._empty:
                self._done = True
                return
            raise self._words.truncated()

    def _next_member(self) -> bool:
        """Past the zero padding after a member, whether another one follows."""
        while True:
            if not self._pending:
                self._pending = self._piece()
                if not self._pending:
                    return False
            rest = bytes(self._pending).lstrip(b"\0")
            if rest:
                self._pending = rest
                return True
            self._pending = b""

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if not self._started:
            self._start()
        while not self._done and len(view):
            if self._inflater is None:
                if self._members and not self._next_member():
                    self._done = True
                    break
                self._inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
            ended = False
            if not self._pending:
                self._pending = self._piece()
                ended = not self._pending  # (the inflater may still hold output of the input it took)
            inflater = self._inflater
            try:  # (at most what the caller asked for: the rest of the input waits in unconsumed_tail)
                out = inflater.decompress(self._pending, len(view))
            except zlib.error as exc:
                raise self._words.invalid(str(exc)) from exc
            self._pending = inflater.unconsumed_tail
            if inflater.eof:
                self._pending = inflater.unused_data
                self._inflater = None
                self._members += 1
            if out:
                self._left -= len(out)
                if self._left < 0:
                    raise self._words.too_large()
                view[:len(out)] = out
                return len(out)
            if ended and self._inflater is not None:
                raise self._words.truncated()
        return 0

    def close(self) -> None:
        try:
            if not isinstance(self._source, memoryview):
                self._source.close()
        finally:
            super().close()


_DEFLATE_MOST = 1032
"""The most bytes deflate inflates one byte to (a match of 258 bytes in 2 bits)."""


def _stated_size(data: memoryview) -> int | None:
    """The inflated size gzip ``data`` states (its last member's trailer: the size mod 2**32), or None
    when its last four bytes cannot be that: the data is too short to hold a member (a header and a
    trailer alone take 18 bytes), does not start as gzip data (``1F 8B``), or states more than deflate
    can inflate it to (cut data, or bytes after the last member, end in bytes of another meaning)."""
    if len(data) < 18 or bytes(data[:2]) != _GZIP_MAGIC:
        return None
    stated = int.from_bytes(data[-4:], "little")
    return stated if stated <= _DEFLATE_MOST * len(data) else None


def _match_gzip_words(name: str, limit: int) -> GzipWords:
    """How gzip data of a match (a ``.gz`` file, gzip data on standard input) is refused, naming it."""
    return GzipWords(
        too_large=lambda: InputTooLarge(f"inflates past the size limit of {limit} bytes; refused (raise "
                                        "$DAISHI_MAX_INFLATED_BYTES if this match is genuine)", file=name),
        invalid=lambda reason: InputUnreadable(f"corrupt or truncated gzip data ({reason})", file=name),
        truncated=lambda: InputUnreadable("corrupt or truncated gzip data (Compressed file ended before the "
                                          "end-of-stream marker was reached)", file=name))


@contextmanager
def _opened(path: Path, limits: Limits, identity: _Identity | None = None) -> Iterator[tuple[BinaryIO, _File]]:
    """Open a regular file for binary reading, transparently inflating ``.gz``; ``identity``:
    the file must still be the one seen then.  Yields the reader and the file (whose
    :meth:`_File.check_unchanged` the caller runs once it has read to the end)."""
    file = _File(path)
    file.expect(identity)
    reader: BinaryIO
    if path.suffix == ".gz":
        limit = limits.max_inflated_bytes
        reader = io.BufferedReader(_Inflating(file.raw, limit, _match_gzip_words(file.name, limit), empty=True),
                                   _CHUNK)
    else:
        reader = io.BufferedReader(file.raw, 1 << 16)  # type: ignore[type-var]  # a raw binary file
    with reader:
        yield reader, file


def open_file(path: Path, words: GzipWords, limits: Limits | None = None) -> BinaryIO:
    """``path`` opened for binary reading as a match file is, for another table (the caller closes it):
    a regular file only (a FIFO, device or socket refused at once, never waited on), ``.gz`` (any
    case) inflated by the read layer's one gzip reader within ``limits.max_inflated_bytes``, its
    refusals worded by ``words``.

    Raises
    ------
    InputUnreadable
        The file cannot be opened, or is not a regular file.
    """
    if path.suffix.lower() != ".gz":
        return io.BufferedReader(_File(path).raw, 1 << 16)  # type: ignore[type-var]  # a raw binary file
    limit = (limits or Limits()).max_inflated_bytes  # (a bad setting refused before the file is opened)
    return io.BufferedReader(_Inflating(_File(path).raw, limit, words, empty=True), _CHUNK)


def _read_whole(path: Path, limits: Limits) -> bytearray:
    """Read a whole (possibly gzipped) file in chunks, refusing one over the bundle limit
    (a plain file by its size, before reading it) or one that changes while it is read."""
    limit = limits.max_bundle_bytes
    too_large = InputTooLarge(
        f"larger than {limit} bytes; a match this large must come as a .jsonl stream", file=str(path)
    )
    with _opened(path, limits) as (reader, file):
        if path.suffix != ".gz" and file.identity.size > limit:
            raise too_large
        data = bytearray()
        while True:
            chunk = reader.read(min(_CHUNK, limit + 1 - len(data)) or 1)
            if not chunk:
                break
            data += chunk
            if len(data) > limit:
                raise too_large
        file.check_unchanged()
    return data


def read_regular(path: Path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of a regular file (the caller refuses more than ``limit``).

    Only a regular file is read: a FIFO, device or socket is refused at once, never
    waited on (it is opened without blocking, then checked), as every match file is.

    Raises
    ------
    InputUnreadable
        The file cannot be opened, or is not a regular file.
    """
    file = _File(path)
    with file.raw:
        try:
            return _read_up_to(file.raw, limit + 1)
        except OSError as exc:
            raise InputUnreadable(f"cannot be read ({exc.strerror or exc})", file=file.name) from exc


def _read_up_to(raw: BinaryIO, size: int) -> bytes:
    """Up to ``size`` bytes of ``raw``, in chunks (a short read is not the end)."""
    data = bytearray()
    while len(data) < size:
        chunk = raw.read(min(_CHUNK, size - len(data)))
        if not chunk:
            break
        data += chunk
    return bytes(data)


BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark: JSON does not allow one; at the start of a file it is read past, and said."""


def refuse_utf16(start: bytes | bytearray, name: str) -> None:
    r"""Refuse a file whose first bytes show UTF-16 (a byte-order mark ``FF FE`` or ``FE FF``, or an
    opening ``{`` beside a zero byte): what a Windows shell's ``>`` redirect writes.  Every file this
    tool reads is UTF-8 (the export format's, a transfer table, a corpus); without this the file would be
    refused as "invalid UTF-8", or each line as not JSON, which says nothing of why.

    >>> refuse_utf16(b'{"a"', "m.jsonl")
    >>> refuse_utf16(b'\xff\xfe{\x00', "m.jsonl")
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.InputUnreadable: m.jsonl: the file is UTF-16 (what a Windows shell's '>' redirect writes); this tool reads UTF-8: convert it (iconv -f UTF-16 -t UTF-8)
    """
    head = bytes(start[:2])
    if head in (b"\xff\xfe", b"\xfe\xff", b"{\x00", b"\x00{"):
        raise InputUnreadable("the file is UTF-16 (what a Windows shell's '>' redirect writes); this tool reads "
                              "UTF-8: convert it (iconv -f UTF-16 -t UTF-8)", file=name)


GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of gzip data."""


def refuse_gzip(start: bytes | bytearray, name: str) -> None:
    r"""Refuse JSON Lines whose first bytes are gzip's (``1F 8B``) where they are read as plain text: a
    compressed file not named ``.gz``, compressed data on standard input, or a ``.gz`` compressed twice.
    Without this each chunk of compressed bytes would be reported as a line that is not JSON.

    >>> refuse_gzip(b'{"a"', "c.jsonl")
    >>> refuse_gzip(b'\x1f\x8b\x08', "-")
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.InputUnreadable: -: the data is gzip-compressed but is read as plain text (standard input is never inflated): inflate it first (gunzip -c FILE.gz | ...) or name the .gz file
    """
    if bytes(start[:2]) != GZIP_MAGIC:
        return
    if name == "-":
        why = "standard input is never inflated): inflate it first (gunzip -c FILE.gz | ...) or name the .gz file"
    elif name.endswith(".gz"):
        why = "it was compressed twice): inflate it once (gunzip -c) and name the result .gz"
    else:
        why = "only a name ending .gz is inflated): rename it to end in .gz, or inflate it (gunzip)"
    raise InputUnreadable(f"the data is gzip-compressed but is read as plain text ({why}", file=name)


def _without_bom(data: bytes | bytearray, name: str, notes: list[str]) -> bytes | bytearray:
    """``data`` without a byte-order mark at its start (a note says it was there); a bytearray
    loses it in place (a whole file is not copied)."""
    if data.startswith(BOM):
        notes.append(f"{name}: starts with a UTF-8 byte-order mark, which JSON does not allow; read without it")
        if isinstance(data, bytearray):
            del data[: len(BOM)]
            return data
        return data[len(BOM):]
    return data


def _parse_document(data: bytes | bytearray, name: str, lone: dict[tuple[Any, ...], str] | None = None) -> Any:
    """A whole JSON document (its byte-order mark, if any, already read past: :func:`_without_bom`).

    A lone surrogate escape (what JavaScript writes for a text cut inside an emoji) is read as U+FFFD,
    as in a line (:func:`~.jsontext.with_lone_surrogates`); each changed string goes into ``lone`` by
    its path, to be said."""
    if not data or data.isspace():
        raise InputUnreadable("the file is empty", file=name)
    refuse_utf16(data, name)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        rescued = with_lone_surrogates(data)
        if rescued is None:
            raise InputUnreadable(f"not valid JSON: {_json_reason(exc)}", file=name) from exc
        value, originals = rescued
        if lone is not None:
            lone.update(originals)
        return value


def _lone_path(path: tuple[Any, ...], prefix: str = "") -> str:
    """Where a string (or, ending in None, a key) with a lone surrogate sits: ``$.archive.name``."""
    where = "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path if part is not None)
    where = where + ".{key}" if path[-1:] == (None,) else where
    return f"{prefix}{where}"


def _json_reason(exc: ValueError) -> str:
    message = str(exc)
    if "byte order mark" in message:
        return "it starts with a UTF-8 byte-order mark (BOM), which JSON does not allow"
    if "depth limit" in message or "recursion" in message:
        return "nested too deeply (over 1024 levels)"
    if "UTF-8" in message:
        return "invalid UTF-8"
    if "unexpected end" in message:
        return "truncated (unexpected end of data)"
    return message


_PARSER_PLACE = re.compile(r": line 1 (column [0-9]+ \(char [0-9]+\))$")


def _line_reason(exc: ValueError) -> str:
    """:func:`_json_reason` for one line of a stream: the parser counts the lines of the text it was
    given, always one, so its place is the column alone (the problem names the file's line).

    >>> import orjson
    >>> try:
    ...     orjson.loads(b'{"id": 5,, "tick": 1}')
    ... except orjson.JSONDecodeError as exc:
    ...     print(_line_reason(exc))
    unexpected character, expected a string key: column 10 (char 9)
    """
    return _PARSER_PLACE.sub(r": \1", _json_reason(exc))


def _require_object(value: Any, what: str, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputUnreadable(f"{what} is not a JSON object", file=name)
    return value


def _repeated_in_document(data: bytes | bytearray, document: Any) -> tuple[dict[int, tuple[str, ...]], list[str]]:
    """A bundle's repeated keys: by event position (``events[i]``), and those outside the events."""
    if not may_repeat_keys(data, document):
        return {}, []
    by_event: dict[int, list[str]] = {}
    header: list[str] = []
    for path, key in repeated_keys(data):
        if len(path) >= 2 and path[0] == "events" and isinstance(path[1], int):
            by_event.setdefault(path[1], []).append(key_path(path[2:], key))
        else:
            header.append(key_path(path, key))
    return {i: tuple(keys) for i, keys in by_event.items()}, header


def _open_bundle(path: Path, limits: Limits) -> MatchSource:
    name = str(path)
    try:
        data = _read_whole(path, limits)
    except MemoryError:
        raise _no_memory(name) from None
    return _bundle_source(data, name, partial(_read_whole, path, limits))


def _no_memory(name: str) -> InputTooLarge:
    return InputTooLarge("does not fit in the memory this process may use; a match this large must come as "
                         "a .jsonl stream", file=name)


def _bundle_source(data: bytes | bytearray, name: str,
                   reread: Callable[[], bytes | bytearray] | None = None) -> MatchSource:
    """A bundle's source from its whole text (``data``, read within the bundle limit), named ``name``;
    ``reread`` reads that text again (a file), for the numbers a problem quotes as written
    (:attr:`MatchSource.number_texts`); without it (standard input), they are found in ``data`` now."""
    notes: list[str] = []
    try:
        data = _without_bom(data, name, notes)
        lone: dict[tuple[Any, ...], str] = {}
        document = _require_object(_parse_document(data, name, lone), "the bundle", name)
    except MemoryError:
        raise _no_memory(name) from None
    events = document.get("events")
    if not isinstance(events, list):
        raise InputUnreadable("the bundle has no 'events' array", file=name, field="events")
    repeated, header_repeated = _repeated_in_document(data, document)
    floats = [("events", i, "id") for i, event in enumerate(events) if type(event) is dict and type(event.get("id")) is float]
    written_ids = {where[1]: text for where, text in written_numbers(data, floats).items()} if floats else {}
    header = {k: v for k, v in document.items() if k != "events"}
    _require_archive(header, name)
    past = _archive_past(as_integers(header["archive"], _archive_integers())[1], data, ("archive",))
    texts = _number_texts(events, reread) if reread is not None else _number_texts_now(events, data)
    del data
    lone_events: dict[int, dict[tuple[Any, ...], str]] = {}
    header_lone: list[tuple[str, str]] = []
    for where, original in lone.items():
        if len(where) >= 2 and where[0] == "events" and isinstance(where[1], int):
            lone_events.setdefault(where[1], {})[where[2:]] = original
        else:
            header_lone.append((_lone_path(where), original))

    def records() -> Iterator[RawRecord]:
        for index, data in enumerate(events):
            keys = repeated.get(index)
            originals = lone_events.get(index)
            written_id = written_ids.get(index)
            if (originals is not None or written_id is not None) and isinstance(data, dict):
                data = DocumentEvent(data, originals, keys or (), written_id)
            elif keys is not None and isinstance(data, dict):
                data = RepeatedKeys(data, keys)
            yield RawRecord(index, None, data, None)

    return MatchSource(name, "bundle", header, records, notes=notes, repeated_keys=header_repeated,
                       lone_surrogates=header_lone, archive_past=past,
                       number_texts=texts)


@cache
def _archive_integers() -> tuple[IntegerPath, ...]:
    """Where the archive's schema puts an integer."""
    return tuple(sorted(integer_paths(schemas.inlined("archive")), key=lambda path: [str(k) for k in path]))


def _archive_past(found: list[IntegralFloat], text: bytes | bytearray | None,
                 prefix: tuple[Any, ...] = ()) -> list[IntegralFloat]:
    """The numbers of ``found`` (an archive's, :func:`~.validation.as_integers`) read as doubles of 2**53 or
    more in magnitude, or whose text writes a fraction other than zero (``4503599627370496.5``, read as
    2**52: :func:`~.validation.written_fraction`), each with its text as ``text`` writes it (the archive at
    ``prefix`` in that JSON text) where it is at hand: what :attr:`MatchSource.archive_past` holds.
    ``text`` is parsed again only when the archive holds an integer read as a double that its text may not write
    (one of 2**53 or more, or any where the text may write such a number: :data:`_MAY_DIFFER`).

    >>> found = as_integers({"seed": 9007199254740993.0, "n": 5.0, "m": 4503599627370496.0},
    ...                     [("seed",), ("n",), ("m",)])[1]
    >>> text = b'{"archive": {"seed": 9007199254740993.0, "n": 5.0, "m": 4503599627370496.5}}'
    >>> sorted((n.path, n.written) for n in _archive_past(found, text, ("archive",)))
    [('$.m', '4503599627370496.5'), ('$.seed', '9007199254740993.0')]
    """
    if not found:
        return []
    written: dict[tuple[Any, ...], str] = {}
    if text is not None and (any(abs(n.value) >= EXACT_INTEGER for n in found) or _MAY_DIFFER.search(text)):
        written = written_numbers(text, [(*prefix, *number.where) for number in found])
    past = [dataclasses.replace(number, written=written.get((*prefix, *number.where))) for number in found]
    return [number for number in past if abs(number.value) >= EXACT_INTEGER or written_fraction(number.written)]


def _number_texts(events: list[Any], reread: Callable[[], bytes | bytearray]) -> Callable[[int], dict[tuple[Any, ...], str]]:
    """A bundle's :attr:`MatchSource.number_texts`: when first asked, every event's doubles that are integers
    (where the double may not be the number written: ``9007199254740993.0`` is read as 2**53,
    ``18446744073709551616`` as ``1.8446744073709552e+19``, ``4503599627370496.5`` as 2**52) are found in the
    text read again, and those the read boundary needs are kept (:func:`_texts_at`); a text that no longer
    writes such a double there (the file changed since) gives none."""
    found: dict[int, dict[tuple[Any, ...], str]] | None = None

    def texts(index: int) -> dict[tuple[Any, ...], str]:
        nonlocal found
        if found is None:
            wanted = [("events", i, *where) for i, event in enumerate(events) for where in _integral_doubles(event)]
            try:
                data = reread() if wanted else b""
            except (ForensicsError, OSError, MemoryError):
                data = b""
            # parsed again only where a number's text may not be its double (a first look: _MAY_DIFFER)
            found = _texts_at(events, wanted, _without_bom(data, "", [])) if data and _MAY_DIFFER.search(data) else {}
        return found.get(index, {})

    return texts


_MAY_DIFFER = re.compile(rb"[:\[,]\s*-?(?:[0-9]{16}|[0-9.]{17}|[0-9]+(?:\.[0-9]+)?[eE])")
"""A number whose double may be an integer that the text does not write: 16 digits or more before any
fraction (a double of 2**53 or more), 16 digits or more with a fraction (``4503599627370496.5``,
``57.0000000000000001``: a number of at most 15 digits is read as the double nearest it, no integer when it
writes a fraction other than zero), or an exponent (``1e400``, ``5e-400``).  It may match inside a string too:
only a first look."""


def _number_texts_now(events: list[Any], data: bytes | bytearray) -> Callable[[int], dict[tuple[Any, ...], str]]:
    """:func:`_number_texts` of a bundle that cannot be read again (standard input): the texts are found now,
    in ``data``, the text just parsed, which is then let go (only the few numbers' texts are kept).  Events
    are looked at only when the text may write such a number (:data:`_MAY_DIFFER`).

    >>> events = [{"id": 1, "payload": {"n": 9007199254740992.0, "m": 4503599627370496.0, "k": 5.0}}]
    >>> text = b'{"events": [{"id": 1, "payload": {"n": 9007199254740993.0, "m": 4503599627370496.5, "k": 5.0}}]}'
    >>> sorted(_number_texts_now(events, text)(0).items())
    [(('payload', 'm'), '4503599627370496.5'), (('payload', 'n'), '9007199254740993.0')]
    >>> _number_texts_now(events, b'{"events": [{"id": 1, "payload": {"n": 1.5}}]}')(0)
    {}
    """
    found: dict[int, dict[tuple[Any, ...], str]] = {}
    if _MAY_DIFFER.search(data):
        wanted = [("events", i, *where) for i, event in enumerate(events) for where in _integral_doubles(event)]
        found = _texts_at(events, wanted, data) if wanted else {}
    return lambda index: found.get(index, {})


def _texts_at(events: list[Any], wanted: list[tuple[Any, ...]], data: bytes | bytearray
              ) -> dict[int, dict[tuple[Any, ...], str]]:
    """By event position, the text ``data`` writes at each of ``wanted`` (``("events", i, ...)``) that is read
    as the double the event holds there, where the read boundary needs it (:func:`_needed_text`)."""
    found: dict[int, dict[tuple[Any, ...], str]] = {}
    for where, text in written_numbers(data, wanted).items():
        value = _at(events, where[1:])
        if _reads_as(text, value) and _needed_text(text, value):
            found.setdefault(where[1], {})[where[2:]] = text
    return found


def _needed_text(text: str, value: Any) -> bool:
    """Whether the read boundary needs the text of ``value``, an integral double, to read it: at 2**53 or more
    (the double may not be the number written), or where the text writes a fraction other than zero (it is
    no integer); ``5.0`` is read as 5 without it.

    >>> [_needed_text(t, float(t)) for t in ("5.0", "4503599627370496.5", "9007199254740992.0")]
    [False, True, True]
    """
    return abs(value) >= EXACT_INTEGER or written_fraction(text)


def _integral_doubles(value: Any) -> list[tuple[Any, ...]]:
    """The path of each double in ``value`` that is an integer (every one at least 2**53 in magnitude is).

    >>> _integral_doubles({"id": 5, "tick": 9007199254740992.0, "payload": {"n": [1.5, -1e300, 7.0]}})
    [('payload', 'n', 1), ('payload', 'n', 2), ('tick',)]
    """
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    found = []
    while stack:
        node, where = stack.pop()
        if type(node) is dict:
            stack.extend((child, (*where, key)) for key, child in node.items())
        elif type(node) is list:
            stack.extend((child, (*where, i)) for i, child in enumerate(node))
        elif type(node) is float and node.is_integer():
            found.append(where)
    return sorted(found, key=lambda where: [str(part) for part in where])


def _at(value: Any, where: tuple[Any, ...]) -> Any:
    for key in where:
        value = value[key]
    return value


def _reads_as(text: str, value: Any) -> bool:
    """The number ``text`` writes is read as the double ``value`` (a text of the same file as parsed)."""
    try:
        return bool(float(text) == value)
    except (ValueError, OverflowError):
        return False


def _bare_returns(line: bytes | bytearray, name: str) -> InputUnreadable | None:
    r"""Why ``line``, the first line of a JSON Lines file, which could not be read (not JSON, or longer
    than the line limit), cannot be: the file's lines end in a bare carriage return (``\r`` alone, as
    old Mac OS wrote them), so the whole file reads as one line; None when that is not why (no ``\r``
    before its end, or what comes before the first one is no JSON value).

    A line ends at a line feed (``\n``; ``\r\n`` reads too, its ``\r`` being JSON whitespace): the
    input format's streams are JSON Lines.

    >>> str(_bare_returns(b'{"a": 1}\r{"b": 2}\r', "m.jsonl"))[:56]
    'm.jsonl, line 1: its lines end in a bare carriage return'
    >>> _bare_returns(b'{"a": \r 1} x\r\n', "m.jsonl") is None
    True
    """
    cut = line.find(b"\r")
    if cut < 0 or not line[cut:].strip(b"\r\n"):
        return None
    try:
        orjson.loads(line[:cut])
    except orjson.JSONDecodeError:
        return None
    return InputUnreadable("its lines end in a bare carriage return (\\r, as old Mac OS wrote them), so it "
                           "reads as one line: a JSON Lines file's lines end in a line feed (\\n, or \\r\\n); "
                           "convert it (tr '\\r' '\\n')", file=name, line=1)


def _parse_line(line: bytes) -> tuple[Any, str | None]:
    try:
        return orjson.loads(line), None
    except orjson.JSONDecodeError as exc:
        return None, f"not valid JSON: {_json_reason(exc)}"


def _event_lines(path: Path | BinaryIO, limits: Limits, skip_header: bool, *, identity: _Identity | None = None,
                 loads: Callable[[bytes], Any] = orjson.loads,
                 name: str | None = None, tap: Callable[[bytes], object] | None = None,
                 first_line: int = 1) -> Generator[RawRecord, None, None]:
    """Raw records of a stream's lines: one generator, one ``readline`` per line (bounded).

    ``path`` is a file (opened here, a regular file only; ``identity``: it must still be the
    file seen then, and it must not change while it is read) or an open binary reader (``-``,
    standard input).  ``loads`` parses a line (raising ``ValueError``).  Each record carries
    its line (``text``): the read boundary looks there for repeated keys.  ``tap`` (a digest's
    ``update``) is handed each record's line before the record is yielded (a blank line is no
    record): in this loop, not in a generator around it.  ``first_line``: the number of the reader's
    next line (2: a stream's header line was read from it already, :func:`open_stdin`)."""
    with ExitStack() as stack:
        file: _File | None = None
        if isinstance(path, Path):
            name = str(path)
            handle, file = stack.enter_context(_opened(path, limits, identity))
        else:
            handle, name = path, name or "-"
        limit = limits.max_line_bytes
        readline = handle.readline
        number = first_line - 1
        if skip_header:
            readline(limit + 1)
            number += 1
        elif number == 0 and hasattr(handle, "peek"):
            start = handle.peek(len(BOM))[: len(BOM)]
            refuse_utf16(start, name)
            refuse_gzip(start, name)
            if start == BOM:
                handle.read(len(BOM))  # said by the opener (MatchSource.notes)
        decode_error = ValueError
        index = 0
        # the lines by a C-level iterator (``readline`` called until it returns b""), each at most one
        # byte past the limit: no Python loop test or call per line
        for line in iter(partial(readline, limit + 1), b""):
            number += 1
            if len(line) > limit:
                refused = _bare_returns(line[:limit], name) if number == 1 else None
                raise refused or InputTooLarge(f"a line is longer than {limit} bytes; refused", file=name, line=number)
            try:
                data = loads(line)
            except decode_error as exc:
                if not line.strip():
                    continue
                refused = _bare_returns(line, name) if number == 1 else None
                if refused is not None:  # the first line of a file of \r line ends: the whole file
                    raise refused from None
                if tap is not None:
                    tap(line)
                yield RawRecord(index, number, None, f"not valid JSON: {_line_reason(exc)}", line)
            else:
                if tap is not None:
                    tap(line)
                yield (index, number, data, None, line)  # type: ignore[misc]  # a RawRecord-shaped tuple, built fast
            index += 1
        if file is not None:
            file.check_unchanged()


@dataclass(frozen=True)
class _FileLines:
    """A stream's or folder's records, read from its file (:func:`_event_lines`): called, the records;
    :meth:`tapped`, the records with each line handed to a tap as it is read
    (:meth:`MatchSource.tapped`)."""

    path: Path
    limits: Limits
    skip_header: bool
    identity: _Identity

    def __call__(self) -> Iterator[RawRecord]:
        return _event_lines(self.path, self.limits, self.skip_header, identity=self.identity)

    def tapped(self, tap: Callable[[bytes], object]) -> Iterator[RawRecord]:
        return _event_lines(self.path, self.limits, self.skip_header, identity=self.identity, tap=tap)


def _open_stream(path: Path, limits: Limits) -> MatchSource:
    name = str(path)
    with _opened(path, limits) as (handle, file):
        first = handle.readline(limits.max_line_bytes + 1)
        identity = file.identity
    notes: list[str] = []
    refuse_utf16(first, name)
    first = bytes(_without_bom(first, name, notes))
    if not first.strip():
        raise InputUnreadable("the file is empty (or its first line, the header, is blank)", file=name, line=1)
    if len(first) > limits.max_line_bytes:
        raise (_bare_returns(first[:limits.max_line_bytes], name)
               or InputTooLarge(f"the header line is longer than {limits.max_line_bytes} bytes", file=name, line=1))
    data, error = _parse_line(first)
    if error:
        raise _bare_returns(first, name) or InputUnreadable(f"the header line is {error}", file=name, line=1)
    header, repeated = _stream_header(data, first, name)
    return MatchSource(name, "stream", header, _FileLines(path, limits, True, identity), header_text=first,
                       notes=notes, file_records=FileRecords(str(path), limits, True), repeated_keys=repeated)


def _stream_header(data: Any, first: bytes, name: str) -> tuple[dict[str, Any], list[str]]:
    """A stream's header (``data``, its first line ``first`` parsed) checked, and the keys that line repeats."""
    header = _require_object(data, "the header line", name)
    _require_archive(header, name)
    repeated = [key_path(p, k) for p, k in repeated_keys(first)] if may_repeat_keys(first, header) else []
    return header, repeated


STDIN = "-"
"""The target that stands for standard input (``validate -``)."""
STDIN_NAME = "<stdin>"
"""How every message names standard input."""


def open_stdin(limits: Limits | None = None, stdin: BinaryIO | None = None) -> MatchSource:
    """One match read from standard input (or ``stdin``, a binary reader), named :data:`STDIN_NAME`:
    a stream (its first line the header object, then one event a line, read line by line as a file's)
    or a bundle (one JSON document, parsed whole within the bundle limit), told apart by the first
    line (a JSON object without ``events`` is a stream's header); gzip data (``1F 8B`` first) is
    inflated by the read layer's one gzip reader, within the limit.  The records can be read once
    (standard input is not read again); the source has no :attr:`~MatchSource.file_records`.

    Raises
    ------
    InputUnreadable
        Standard input is closed or empty, or holds no match (as a file would be refused).
    """
    limits = limits or Limits()
    name = STDIN_NAME
    raw = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)  # None: started with stdin closed
    if raw is None:
        raise InputUnreadable("standard input is closed: pipe a match into it", file=name)
    reader: Any = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw, 1 << 16)
    try:
        start = reader.peek(len(_GZIP_MAGIC))[: len(_GZIP_MAGIC)]
    except OSError as exc:
        raise InputUnreadable(f"standard input cannot be read ({exc.strerror or exc})", file=name) from exc
    if start == _GZIP_MAGIC:
        limit = limits.max_inflated_bytes
        reader = io.BufferedReader(_Inflating(reader, limit, _match_gzip_words(name, limit), empty=False), _CHUNK)
    limit = limits.max_line_bytes
    first = reader.readline(limit + 1)
    if not first:
        raise InputUnreadable("standard input is empty: pipe a match into it (a .jsonl stream or a .json "
                              "bundle)", file=name)
    refuse_utf16(first, name)
    notes: list[str] = []
    line = bytes(_without_bom(first, name, notes))
    if len(line) <= limit and line.strip():
        value, error = _parse_line(line)
        if error is None and isinstance(value, dict) and "events" not in value:
            header, repeated = _stream_header(value, line, name)
            records = partial(_event_lines, reader, limits, False, name=name, first_line=2)
            return MatchSource(name, "stream", header, records, notes=notes, repeated_keys=repeated, header_text=line)
    refused = _bare_returns(line[:limit], name)
    if refused is not None:
        raise refused
    bundle = limits.max_bundle_bytes
    whole = bytearray(first)
    try:
        while len(whole) <= bundle:
            chunk = reader.read(min(_CHUNK, bundle + 1 - len(whole)))
            if not chunk:
                break
            whole += chunk
    except MemoryError:
        raise _no_memory(name) from None
    if len(whole) > bundle:
        raise InputTooLarge(f"larger than {bundle} bytes read whole as a bundle (its first line is no stream's "
                            "header); a match this large must come as a .jsonl stream", file=name)
    return _bundle_source(whole, name)


def _read_object(path: Path, limits: Limits, what: str, notes: list[str],
                 lone: list[tuple[str, str]], past: list[IntegralFloat] | None = None) -> tuple[Any, list[str]]:
    """A whole JSON file of a folder, and its repeated keys (a byte-order mark: read past, in ``notes``;
    strings with lone surrogates, in ``lone``).  ``past``: the file is the archive; its integers read as
    doubles past 2**53 are added there as written (:func:`_archive_past`)."""
    data = _without_bom(_read_whole(path, limits), str(path), notes)
    originals: dict[tuple[Any, ...], str] = {}
    value = _parse_document(data, str(path), originals)
    lone += [(_lone_path(where, f"{what}: "), original) for where, original in originals.items()]
    repeated = [f"{what}: {key_path(p, k)}" for p, k in repeated_keys(data)] if may_repeat_keys(data, value) else []
    if past is not None and isinstance(value, dict):
        past += _archive_past(as_integers(value, _archive_integers())[1], data)
    return value, repeated


MATCH_SUFFIXES = (".jsonl.gz", ".jsonl", ".json.gz", ".json")
"""The endings of a match file's name: a stream or a bundle, each maybe gzip (longest first)."""
TRUTH_SUFFIX = ".truth.json"
"""The ending of a labelled match's truth file beside it (``m_<id>.truth.json``: what was planted, who copied
whom; the benchmarks that measure on labelled matches read it): no match, though its name looks like a bundle's."""


def is_match_folder(path: Path) -> bool:
    """Whether ``path`` is a folder that is one match: it holds an entry named ``archive.json`` (whatever that
    entry is: reading the folder says what is wrong with it), rather than a folder of matches."""
    return path.is_dir() and os.path.lexists(path / "archive.json")


def matches_in(folder: Path, *, half_copied: bool = False) -> list[Path]:
    """The entries of ``folder`` (a folder of matches, no match folder) that stand for matches, in the order
    they are read: by name.  The one rule of every command given a folder.

    An entry is a match when its name starts with ``m_`` (a simulator's ``truth.json``, a season's own
    ``summary.json`` beside the matches, a hidden name: none), is not a labelled set's truth beside its match
    (``m_<id>.truth.json``, :data:`TRUTH_SUFFIX`), and it is either a match folder
    (:func:`is_match_folder`) or no folder and named as a bundle or stream (:data:`MATCH_SUFFIXES`), whatever
    it is: a link to nothing or a named pipe is one, and reading it says why it cannot be read.  Other names
    are not read.  With ``half_copied`` (a season, which lists every match it could not read), an ``m_…``
    folder without ``archive.json`` is one too, so that reading it says it has none; without it (a command of
    one match reads the folder's only match) it is no match.
    """
    found = []
    for entry in folder.iterdir():
        if not entry.name.startswith("m_"):
            continue
        if entry.is_dir():
            if half_copied or os.path.lexists(entry / "archive.json"):
                found.append(entry)
        elif entry.name.endswith(MATCH_SUFFIXES) and not entry.name.endswith(TRUTH_SUFFIX):
            found.append(entry)
    return sorted(found, key=lambda p: p.name)


def _open_folder(path: Path, limits: Limits, report_faults: bool = False) -> MatchSource:
    name = str(path)
    archive_path = path / "archive.json"
    if not os.path.lexists(archive_path):
        if path.name.startswith("m_"):  # a match folder missing its archive
            raise InputUnreadable("the folder has no archive.json", file=name, field="archive.json")
        # a folder given for the matches in it: commands of many matches expand it before it gets
        # here; a command of one match reads the folder's one match, and refuses to choose among several
        inside = matches_in(path)
        if len(inside) == 1:
            return _open_path(inside[0], limits, report_faults)
        if inside:
            shown_ = ", ".join(p.name for p in inside[:5]) + (", …" if len(inside) > 5 else "")
            raise InputUnreadable(f"the folder holds {len(inside)} matches ({shown_}), and this command reads one: "
                                  "name its file (compare, export, screen, season and validate read every match "
                                  "of a folder)",
                                  file=name)
        raise InputUnreadable("the folder holds no match (m_<id>.json[.gz], m_<id>.jsonl[.gz] or an m_<id> "
                              "folder; other names are not read) and is no match folder (no archive.json)",
                              file=name)
    notes: list[str] = []
    lone: list[tuple[str, str]] = []
    past: list[IntegralFloat] = []
    archive, repeated = _read_object(archive_path, limits, "archive.json", notes, lone, past)
    archive = _require_object(archive, "archive.json", str(archive_path))
    for candidate in ("events.jsonl", "events.jsonl.gz"):
        events_path = path / candidate
        if os.path.lexists(events_path):
            break
    else:
        raise InputUnreadable("the folder has no events.jsonl (or events.jsonl.gz)", file=name)
    with _opened(events_path, limits) as (_handle, events_file):
        identity = events_file.identity  # a regular file, seen now: the one read later
    header: dict[str, Any] = {
        "format": "daishi-match-export",
        "formatVersion": 1,
        "matchId": archive.get("matchId"),
        "archive": archive,
    }
    report_path = path / "report.json"
    report_error: str | None = None
    if os.path.lexists(report_path):
        header["report"], in_report, report_error = _read_report(report_path, limits, notes, report_faults, lone)
        repeated += in_report
    with _opened(events_path, limits) as (handle, events_file):
        identity = events_file.identity  # a regular file, seen now: the one read later
        start = handle.read(len(BOM))
        refuse_utf16(start, str(events_path))
        _without_bom(start, str(events_path), notes)  # the reader skips it
    return MatchSource(name, "folder", header, _FileLines(events_path, limits, False, identity),
                       notes=notes, file_records=FileRecords(str(events_path), limits, False),
                       repeated_keys=repeated, report_error=report_error, lone_surrogates=lone, archive_past=past)


def _read_report(path: Path, limits: Limits, notes: list[str], report_faults: bool,
                 lone: list[tuple[str, str]]) -> tuple[Any, list[str], str | None]:
    """A folder's report.json, its repeated keys, and why it could not be read.

    The file must be a regular file within the limits, whatever is asked (else it is refused,
    as every file is).  A text that is no JSON document (empty, not JSON, UTF-16, ``NaN``) is
    refused too, unless ``report_faults``: then the report is left out and the reason kept,
    naming the file, so the match is still read and the fault said as a finding."""
    data = _without_bom(_read_whole(path, limits), str(path), notes)
    originals: dict[tuple[Any, ...], str] = {}
    try:
        value = _parse_document(data, str(path), originals)
    except InputUnreadable as exc:
        if not report_faults:
            raise
        return None, [], str(exc)
    lone += [(_lone_path(where, "report.json: "), original) for where, original in originals.items()]
    repeated = [f"report.json: {key_path(p, k)}" for p, k in repeated_keys(data)] if may_repeat_keys(data, value) else []
    return value, repeated, None


def _report_fault(source: MatchSource) -> str | None:
    """Why the report a match carries is no report (it is there, not null, and not a JSON object),
    naming the file and, outside a folder, the field; None when it is an object or absent."""
    report = source.header.get("report")
    if report is None or isinstance(report, dict):
        return None
    where = str(Path(source.name) / "report.json") if source.form == "folder" else f"{source.name}: the field 'report'"
    return f"{where} is {json_kind(report)}, not a JSON object"


def _require_archive(header: dict[str, Any], name: str) -> None:
    if not isinstance(header.get("archive"), dict):
        raise InputUnreadable("there is no 'archive' object", file=name, field="archive")


def open_path(path: Path, limits: Limits | None = None, *, report_faults: bool = False) -> MatchSource:
    """Open a bundle, stream or folder by its path (the form is read off the name).

    ``report_faults``: a report that cannot be read (a folder's report.json that is no JSON
    document, a report that is not a JSON object) leaves the match readable, the reason in
    :attr:`MatchSource.report_error`; otherwise only the folder's unparseable file is refused."""
    source = _open_path(path, limits or Limits(), report_faults)
    if report_faults and source.report_error is None:
        source.report_error = _report_fault(source)
    note = misnamed_note(source)
    if note is not None:
        source.notes.append(note)
    return source


def named_for(source: MatchSource) -> str | None:
    """The match a bundle, stream or folder is named for (``m_<id>.jsonl``, ``m_<id>.json[.gz]``, a folder
    ``m_<id>``) when its header names another match: misnamed, or overwritten by a copy of another match;
    else None.  The name is not binding (the input format names the files so): the match is read as the one
    its header names (a match store refuses such a file when asked for the match its name gives)."""
    if source.form not in ("bundle", "stream", "folder"):
        return None
    name = Path(source.name).name
    if source.form != "folder":
        name = next((name[: -len(end)] for end in MATCH_SUFFIXES if name.endswith(end)), "")
    held = source.match_id
    return name if is_match_id(name) and held is not None and held != name else None


def misnamed_note(source: MatchSource, *, taken: str = "read") -> str | None:
    """The note every command says of a match :func:`named_for` another (:attr:`MatchSource.notes`), once;
    None when its name names no other match.  ``taken``: what the command did with the match (``validate``
    says it without the file's name in front, as a problem of its own, "validated as")."""
    named = named_for(source)
    if named is None:
        return None
    what, where = ("folder", "archive.json") if source.form == "folder" else ("file", "header")
    held = shown_value(source.match_id)
    said = (f"the {what} is named for match {named}, but its {where} names match {held}: misnamed, or a copy of "
            f"another match; {taken} as {held}")
    return said if taken != "read" else f"{source.name}: {said}"


def _open_path(path: Path, limits: Limits, report_faults: bool) -> MatchSource:
    """Open a bundle, stream or folder by its path (the form is read off the name)."""
    if path.is_dir():
        return _open_folder(path, limits, report_faults)
    if not os.path.lexists(path):
        raise InputUnreadable("no such file or folder", file=str(path))
    suffixes = "".join(path.suffixes[-2:])
    if path.name.endswith((".jsonl", ".jsonl.gz")):
        return _open_stream(path, limits)
    if path.name.endswith((".json", ".json.gz")):
        return _open_bundle(path, limits)
    raise InputUnreadable(
        f"unknown form '{suffixes or path.suffix}': expected .json, .json.gz, .jsonl, .jsonl.gz or a folder",
        file=str(path),
    )


def json_lines(file: str, limits: Limits | None = None, *,
               loads: Callable[[bytes], Any] = orjson.loads) -> Generator[RawRecord, None, None]:
    """The records of any JSON Lines file (``-``: standard input), read as a match stream is:
    a regular file only, ``.gz`` inflated within the limit, each line within the line limit,
    a change while it is read refused.  ``loads`` parses one line (raising ``ValueError``)."""
    limits = limits or Limits()
    if file == "-":
        return _event_lines(sys.stdin.buffer, limits, False, loads=loads, name="-")
    return _event_lines(Path(file), limits, False, loads=loads)


class EventSpool:
    """Events held back in log order, in memory up to ``memory_bytes`` and in a temporary file
    beyond it, then read back once: a buffer whose memory is bounded whatever it holds.

    What is read back equals what went in (JSON values, written and read with the same
    parser)."""

    def __init__(self, memory_bytes: int = 8 << 20) -> None:
        self._file = tempfile.SpooledTemporaryFile(max_size=memory_bytes, mode="w+b")
        self.events = 0

    def append(self, event: dict[str, Any]) -> None:
        self._file.write(orjson.dumps(event) + b"\n")
        self.events += 1

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """The events, in the order they went in (once; the spool is closed after)."""
        handle = self._file
        handle.seek(0)
        try:
            for line in handle:
                yield orjson.loads(line)
        finally:
            handle.close()

    def close(self) -> None:
        self._file.close()


# --------------------------------------------------------------------------- store


def default_store() -> Path:
    """The match store: ``$DAISHI_MATCHES`` or ``./matches``."""
    return Path(os.environ.get("DAISHI_MATCHES", "matches"))


def _find_in_store(match_id: str, store: Path) -> Path | None:
    for candidate in (
        store / f"{match_id}.jsonl.gz",
        store / f"{match_id}.jsonl",
        store / f"{match_id}.json.gz",
        store / f"{match_id}.json",
        store / match_id,
    ):
        if candidate.exists():
            return candidate
    return None


def _of_match(source: MatchSource, match_id: str, path: Path) -> MatchSource:
    """``source``, found in the store under ``match_id``, if it holds that match: a file named for one
    match that holds another (misnamed, or overwritten by a copy) is refused, as a server's page of
    another match is, rather than analysed under the name asked for."""
    held = source.header.get("matchId")
    if held is None:
        archive = source.header.get("archive")
        held = archive.get("matchId") if isinstance(archive, dict) else None
    if held is not None and held != match_id:
        raise InputUnreadable(f"the match store's file for {match_id} holds match {held!r}: refused (a misnamed "
                              "or overwritten file); give its path to read it as what it is", file=str(path),
                              field="matchId")
    return source


def demo_path() -> Path:
    """The embedded demo match shipped as package data."""
    return Path(str(resources.files("daishi_forensics") / "demo" / "m_demo.jsonl.gz"))


# --------------------------------------------------------------------------- server


def server_address(text: str) -> str:
    """A Daishi server's base address, checked: ``http://`` or ``https://``, a host, no fragment.

    Raises
    ------
    BadSetting
        Not such an address (named ``--server`` / ``$DAISHI_SERVER``, credentials hidden).
    """
    where = "--server / $DAISHI_SERVER"
    try:
        parts = urllib.parse.urlsplit(text.strip())
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise BadSetting(f"{redact_url(text)!r} is not a valid URL ({exc})", file=where) from None
    if parts.scheme not in ("http", "https"):
        raise BadSetting(f"{redact_url(text)!r} is not a valid URL for a server: it must start with http:// "
                         "or https://", file=where)
    if not parts.hostname:
        raise BadSetting(f"{redact_url(text)!r} is not a valid URL: it names no host", file=where)
    if parts.fragment:
        raise BadSetting(f"{redact_url(text)!r} is not a valid URL for a server: it has a #fragment", file=where)
    odd = next((c for c in text.strip() if c.isspace() or not c.isprintable() or not c.isascii()), None)
    if odd is not None:
        raise BadSetting(f"{redact_url(text)!r} is not a valid URL for a server: it holds {odd!r}, which an "
                         "address must write percent-encoded (a space as %20, a non-ASCII letter as its UTF-8 "
                         "bytes, e.g. %C3%A4 for \u00e4)", file=where)
    return text.strip()


def _join(base: str, path: str) -> str:
    """The address of the API ``path`` (which may carry its own ``?query``) under the server address
    ``base``: the path goes after the base's path, before its query, and the two queries are joined.

    >>> _join("http://h:1/daishi/?token=abc", "/api/matches/m_1/export?cursor=5")
    'http://h:1/daishi/api/matches/m_1/export?token=abc&cursor=5'
    >>> _join("http://h:1", "/api/matches/m_1/report")
    'http://h:1/api/matches/m_1/report'
    """
    parts = urllib.parse.urlsplit(base)
    own_path, _, own_query = path.partition("?")
    query = "&".join(q for q in (parts.query, own_query) if q)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + own_path, query, ""))


def redact_url(url: str) -> str:
    """``url`` with its credentials and the values of its query hidden (``***@``, ``?token=***``),
    but for an export page's ``cursor``, which is no secret and tells which page is meant.  The whole
    user information goes, not only a password: a token is often given as the user name alone.
    Every command that prints an address prints it through this function.

    >>> redact_url("https://bob:pw@host/x?token=abc&cursor=c2")
    'https://***@host/x?token=***&cursor=c2'
    >>> redact_url("https://ghp_token@host/x")
    'https://***@host/x'
    >>> redact_url("https://host/x?s3cret&cursor=c2")
    'https://host/x?***&cursor=c2'
    >>> redact_url("http://bob:pw@[::1/x")
    'http://***@[::1/x'
    """
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:
        return re.sub(r"//[^/]*@", "//***@", url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = "***@" + netloc.rpartition("@")[2]
    query = "&".join(pair if pair.startswith("cursor=") or not pair else f"{pair.split('=', 1)[0]}=***"
                     if "=" in pair else "***" for pair in parts.query.split("&")) if parts.query else ""
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def split_credentials(url: str) -> tuple[str, dict[str, str]]:
    """``url`` without its user information (and fragment), and the headers that send that user information
    as HTTP Basic authentication (none when it holds none): ``urllib`` would take ``user:pw@host`` for a
    host name.

    >>> split_credentials("https://bob:pw@host:8/x?t=1")
    ('https://host:8/x?t=1', {'Authorization': 'Basic Ym9iOnB3'})
    >>> split_credentials("http://host/x")
    ('http://host/x', {})
    """
    parts = urllib.parse.urlsplit(url)
    headers: dict[str, str] = {}
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, netloc = netloc.rpartition("@")
        user, _, password = userinfo.partition(":")
        token = f"{urllib.parse.unquote(user)}:{urllib.parse.unquote(password)}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(token).decode()
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")), headers


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urllib.parse.urlsplit(url)
    default = 443 if parts.scheme == "https" else 80
    return parts.scheme, (parts.hostname or "").lower(), parts.port or default


class _Deadline:
    """Closes the connection of one answer when its time is up (headers and body together)."""

    def __init__(self, seconds: float) -> None:
        self.fired = False
        self._sock: Any = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: Any) -> None:
        with self._lock:
            self._sock = sock
            if self.fired:
                self._shut()

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            self._shut()

    def _shut(self) -> None:
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        """Stop the timer and wait for its thread to end (a thread left running, even briefly, keeps the
        process from forking safely)."""
        self._timer.cancel()
        self._timer.join(1.0)


def _watched(base: type[http.client.HTTPConnection], deadline: _Deadline) -> type[http.client.HTTPConnection]:
    class Watched(base):  # type: ignore[valid-type, misc]
        def connect(self) -> None:
            super().connect()
            deadline.watch(self.sock)

    return Watched


class _HTTP(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_watched(http.client.HTTPConnection, self._deadline), req)


class _HTTPS(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_watched(http.client.HTTPSConnection, self._deadline), req,
                            context=self._context)  # type: ignore[attr-defined]


class _SameServer(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the same scheme, host and port; refuses any other."""

    max_redirections = 5

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        here, there = _origin(req.full_url), _origin(newurl)
        if there != here:
            what, advice = _elsewhere(here, there)
            fp.close()  # the redirect's answer, not read further
            raise ServerError(f"the server answered HTTP {code}, {what} ({redact_url(newurl)}); refused{advice}",
                              file=redact_url(req.full_url))
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _elsewhere(here: tuple[str, str, int | None], there: tuple[str, str, int | None]) -> tuple[str, str]:
    """What a redirect from origin ``here`` to another, ``there``, changes, in words, and what to do."""
    if there[1] != here[1]:
        return "a redirect to another host", ""
    if there[0] == "https" and here[0] == "http":
        return "a redirect from http to https on the same host", ": give the server's address as https://"
    if there[0] == "http" and here[0] == "https":
        return "a redirect from https to plain http (unencrypted)", ""
    return "a redirect to another port of the same host", ""


class _Dropped(Exception):
    """The connection closed before the whole answer arrived (retried like a 5xx)."""


def _redirect_failure(exc: urllib.error.HTTPError) -> str:
    """Why a redirect was not followed (a loop, too many, no usable ``Location``), in words."""
    if "infinite loop" in str(exc.msg):
        return (f"the server's redirects loop (HTTP {exc.code} back to an address already visited, or more than "
                f"{_SameServer.max_redirections} redirects in a row); refused")
    return f"the server answered HTTP {exc.code}, a redirect without a usable Location; refused"


_PLAIN_HTTP_REASONS = frozenset({"WRONG_VERSION_NUMBER", "HTTP_REQUEST", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG",
                                 "UNKNOWN_PROTOCOL"})
"""OpenSSL's reasons for a handshake answered by something that is no TLS (a plain HTTP server's reply)."""

_TLS_DROPPED = (ssl.SSLEOFError, ssl.SSLZeroReturnError, ssl.SSLSyscallError)
"""TLS errors of a connection closed during the handshake: retried like any connection dropped."""


def _retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds (a number, or an HTTP date), or None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():  # str.isdigit also takes '²', which float() refuses
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass(frozen=True)
class ServerClient:
    """A Daishi server's export API, bounded in every way a server can misbehave.

    ``GET {server}/api/matches/{id}/export?cursor={c}`` pages the archive and events;
    ``GET {server}/api/matches/{id}/report`` answers the scorecards.  Per answer:
    nothing for ``server_timeout_seconds`` fails it, and the whole answer must arrive
    within ``server_answer_seconds`` and be at most ``server_answer_bytes`` (else a
    clear :class:`ServerError`, not retried).  A 5xx, a 429, a connection error, a timeout and
    a connection dropped mid-body are retried ``server_retries`` times with exponential
    backoff; a ``429`` or a ``503`` waits what its ``Retry-After`` asks when that is longer (at
    most ``server_retry_after_seconds``, else an error).  A 404 is :class:`MatchNotFound` at
    once.  A redirect is followed only to the same scheme, host and port.  Credentials in
    the address are sent as HTTP Basic authentication and never printed: every message
    names the address with its credentials and query values hidden (:func:`redact_url`).
    """

    base: str
    limits: Limits = field(default_factory=Limits)
    lone_surrogates: list[tuple[str, str]] = field(default_factory=list)
    """Strings of the answers (outside a page's events) whose lone surrogate escapes were read as U+FFFD,
    as :attr:`MatchSource.lone_surrogates` (where: the answer's address and path)."""

    def _url(self, path: str) -> tuple[str, dict[str, str]]:
        base, headers = split_credentials(self.base)
        headers = {"Accept": "application/json", "User-Agent": "daishi-forensics", **headers}
        return _join(base, path), headers

    def get_json(self, path: str, *, missing_ok: bool = False, missing: str | None = None) -> Any:
        """The JSON answer of ``GET base+path`` (None for a 404 when ``missing_ok``): :meth:`get_answer`'s value."""
        return self.get_answer(path, missing_ok=missing_ok, missing=missing)[0]

    def get_answer(self, path: str, *, missing_ok: bool = False,
                   missing: str | None = None) -> tuple[Any, bytes | bytearray]:
        """The JSON answer of ``GET base+path`` (None for a 404 when ``missing_ok``), and its text.

        A 404 is :class:`MatchNotFound`, or, given ``missing`` (what a 404 means for this request:
        an export page past the first), a :class:`ServerError` saying it.  Messages name the address
        with the server address's query values hidden (a token) and ``path``'s own shown (a cursor)."""
        url, headers = self._url(path)
        shown = _join(redact_url(self.base), path)
        if len(shown) > 400:  # a page's cursor may be of any length
            shown = shown[:399] + "…"
        limits = self.limits
        attempt = 0
        while True:
            wait = limits.server_backoff_seconds * (2**attempt)
            try:
                body = self._fetch(url, headers, shown)
                break
            except urllib.error.HTTPError as exc:
                exc.close()
                if exc.code == 404:
                    if missing_ok:
                        return None, b""
                    if missing is not None:
                        raise ServerError(f"{missing} (HTTP 404)", file=shown) from None
                    raise MatchNotFound("the server has no such match (HTTP 404)", file=shown) from None
                if exc.code in (429, 503):
                    asked = _retry_after(exc.headers.get("Retry-After") if exc.headers else None)
                    if asked is not None and asked > limits.server_retry_after_seconds:
                        what = "too many requests" if exc.code == 429 else "service unavailable"
                        raise ServerError(
                            f"the server answered HTTP {exc.code} ({what}) asking to wait "
                            f"{f'{asked:.0f} s' if asked < 1e12 else 'longer than 30,000 years'}, "
                            f"longer than the {limits.server_retry_after_seconds:g} s this client waits",
                            file=shown) from None
                    wait = max(wait, asked or 0.0)
                elif 300 <= exc.code < 400:
                    raise ServerError(_redirect_failure(exc), file=shown) from None
                elif exc.code < 500:
                    raise ServerError(f"the server answered HTTP {exc.code}", file=shown) from None
                if attempt >= limits.server_retries:
                    raise ServerError(f"the server answered HTTP {exc.code} after {count(attempt + 1, 'attempt')}",
                                      file=shown) from None
            except (urllib.error.URLError, http.client.HTTPException, _Dropped, OSError) as exc:
                tls = getattr(exc, "reason", None)
                if isinstance(tls, ssl.SSLCertVerificationError):
                    raise ServerError(f"the server's TLS certificate is not trusted ({tls.verify_message or tls}); "
                                      "refused", file=shown) from None
                if isinstance(tls, ssl.SSLError) and getattr(tls, "reason", None) in _PLAIN_HTTP_REASONS:
                    raise ServerError("the server does not speak TLS (https) on that port: the TLS handshake "
                                      f"failed ({tls.reason or tls}); if it serves plain HTTP there, give its "
                                      "address as http://", file=shown) from None
                if isinstance(tls, ssl.SSLError) and not isinstance(tls, _TLS_DROPPED):
                    # an alert (no protocol or cipher in common, a client certificate asked for): not retried
                    raise ServerError(f"the TLS handshake with the server failed ({tls.reason or tls}); refused",
                                      file=shown) from None
                # a connection closed during the handshake (SSLEOFError...) is retried as any dropped one
                if attempt >= limits.server_retries:
                    reason = getattr(exc, "reason", None) or exc or type(exc).__name__
                    raise ServerError(f"no answer after {count(attempt + 1, 'attempt')} ({redact_url(str(reason))})",
                                      file=shown) from None
            time.sleep(wait)
            attempt += 1
        try:
            return orjson.loads(body), body
        except orjson.JSONDecodeError as exc:
            rescued = _answer_with_lone_surrogates(body, shown, self.lone_surrogates)
            if rescued is not None:
                return rescued, body
            if body.startswith(b"\x1f\x8b"):
                raise ServerError("the answer is gzip-compressed data the server did not declare (no "
                                  "Content-Encoding: gzip), not JSON", file=shown) from None
            raise ServerError(f"the answer is not valid JSON: {_json_reason(exc)}", file=shown) from None

    def _fetch(self, url: str, headers: dict[str, str], shown: str) -> bytearray:
        """One attempt: the whole body, within the answer's time and size limits."""
        limits = self.limits
        deadline = _Deadline(limits.server_answer_seconds)
        opener = urllib.request.build_opener(_HTTP(deadline), _HTTPS(deadline), _SameServer())
        too_slow = ServerError(f"no complete answer within {limits.server_answer_seconds:g} s "
                               "(the server sends too slowly, or never stops)", file=shown)
        too_big = ServerError(f"the answer is larger than the limit of {limits.server_answer_bytes} bytes; refused",
                              file=shown)
        try:
            request = urllib.request.Request(url, headers=headers)
            try:
                answer = opener.open(request, timeout=limits.server_timeout_seconds)
            except (OSError, http.client.HTTPException):
                if deadline.fired:
                    raise too_slow from None
                raise
            with answer:
                declared = answer.headers.get("Content-Length")
                # (ASCII digits only: a '²' is a digit to str.isdigit and no number to int())
                expected = positive_whole(declared, most=limits.server_answer_bytes + 1) if declared else None
                if expected is not None and expected > limits.server_answer_bytes:
                    raise too_big
                body = bytearray()
                total = 0
                while True:
                    try:
                        chunk = answer.read(1 << 16)
                    except (OSError, http.client.HTTPException):
                        if deadline.fired:
                            raise too_slow from None
                        raise
                    if not chunk:
                        break
                    total += len(chunk)
                    if total > limits.server_answer_bytes:
                        raise too_big
                    body += chunk
                if deadline.fired:
                    raise too_slow
                if expected is not None and total < expected:
                    raise _Dropped(f"the connection closed after {total} of {expected} bytes")
                return _decoded(body, answer.headers.get("Content-Encoding"), limits.server_answer_bytes, shown)
        finally:
            deadline.cancel()


def _decoded(body: bytearray, encoding: str | None, limit: int, shown: str) -> bytearray:
    """``body`` as sent, or inflated when its ``Content-Encoding`` is gzip (within ``limit`` bytes);
    any other encoding is refused, named."""
    coding = (encoding or "").strip().lower()
    if coding in ("", "identity"):
        return body
    if coding not in ("gzip", "x-gzip"):
        raise ServerError(f"the answer is compressed as {encoding!r} (its Content-Encoding), which this client "
                          "does not read; refused", file=shown)
    words = GzipWords(
        too_large=lambda: ServerError(f"the answer inflates past the limit of {limit} bytes; refused", file=shown),
        invalid=lambda reason: ServerError("the answer says it is gzip-compressed (Content-Encoding: gzip) but is not "
                                           f"valid gzip data ({reason})", file=shown),
        truncated=lambda: ServerError("the answer's gzip data is truncated (Content-Encoding: gzip)", file=shown))
    view = memoryview(body)
    inflating = _Inflating(view, limit, words, empty=False, stated=_stated_size(view))
    data = bytearray()
    piece = bytearray(_CHUNK)
    while n := inflating.readinto(piece):
        data += memoryview(piece)[:n]
    return data


def _answer_with_lone_surrogates(body: bytes | bytearray, shown: str, lone: list[tuple[str, str]]) -> Any:
    r"""An answer orjson refused only for lone surrogate escapes (``"\ud83d"``: what JavaScript writes for a
    text cut inside an emoji), read as a bundle is: outside a page's events each is read as U+FFFD and
    the string goes into ``lone``; a page's events keep theirs, to be spooled as escapes and said by the
    read boundary as a line's are (:func:`_spooled`).  None when the answer is not JSON for another reason."""
    value = loads_keeping_surrogates(body) if b"\\u" in body else None
    if value is None:
        return None
    events = value.get("events") if isinstance(value, dict) else None
    if isinstance(events, list):
        value["events"] = []
    value, originals = replace_lone_surrogates(value)
    if isinstance(events, list):
        value["events"] = events
        if not originals and not _holds_lone_surrogate(events):
            return None
    elif not originals:
        return None
    lone += [(_lone_path(where, f"{shown}: "), original) for where, original in originals.items()]
    return value


def _holds_lone_surrogate(value: Any) -> bool:
    try:
        orjson.dumps(value)
    except orjson.JSONEncodeError:
        return True
    return False


def _page_texts(body: bytes | bytearray, page: dict[str, Any]) -> dict[int, tuple[tuple[str, ...], dict[tuple[Any, ...], str]]]:
    """What only the text ``body`` of an export page shows of its events, by their place in the page: the keys
    each repeats (:func:`_repeated_in_document`), and its numbers as written where the double read may not
    be the number (an ``id`` read as a double, any number at least 2**53 in magnitude, an integral double
    whose text writes a fraction other than zero), as a bundle's (:func:`_texts_at`)."""
    events = page["events"]
    repeated, _ = _repeated_in_document(body, page)
    ids = [("events", i, "id") for i, event in enumerate(events) if type(event) is dict and type(event.get("id")) is float]
    floats = [("events", i, *where) for i, event in enumerate(events) for where in _integral_doubles(event)
              if where != ("id",)] if _MAY_DIFFER.search(body) else []
    written: dict[int, dict[tuple[Any, ...], str]] = {}
    for where, text in (written_numbers(body, ids + floats).items() if ids or floats else ()):
        if where[2:] == ("id",) or _needed_text(text, _at(events, where[1:])):
            written.setdefault(where[1], {})[where[2:]] = text
    return {i: (repeated.get(i, ()), written.get(i, {})) for i in sorted({*repeated, *written})}


def _spooled(event: Any) -> bytes:
    """An event of a server page as a line of the spool; one holding a lone surrogate
    (:func:`_answer_with_lone_surrogates`) as JSON with the escape, which the read boundary reads as U+FFFD
    and says."""
    try:
        return orjson.dumps(event) + b"\n"
    except orjson.JSONEncodeError:
        return json.dumps(event, separators=(",", ":")).encode() + b"\n"


def _export_page(value: Any, name: str, match_id: str, cursor: str | None) -> dict[str, Any]:
    where = _page_name(cursor)
    if not isinstance(value, dict):
        raise ServerError(f"{where} is not a JSON object", file=name)
    page_match = value.get("matchId")
    if page_match is not None and page_match != match_id:
        raise ServerError(f"{where} is of match {page_match!r}, not {match_id}; refused", file=name,
                          field="matchId")
    if not isinstance(value.get("events"), list):
        raise ServerError(f"{where} has no 'events' array", file=name, field="events")
    errata = value.get("errata")
    if errata is not None and not isinstance(errata, list):
        raise ServerError(f"{where} has an 'errata' that is not an array", file=name, field="errata")
    return value


def _fetch_report(client: ServerClient, quoted: str, match_id: str) -> tuple[dict[str, Any] | None, str | None]:
    """The match's report, or ``(None, why it could not be read)``; ``(None, None)`` when it has none."""
    try:
        report = client.get_json(f"/api/matches/{quoted}/report", missing_ok=True)
    except ServerError as exc:
        return None, str(exc)
    if report is None:
        return None, None
    if not isinstance(report, dict):
        return None, "the server's report is not a JSON object"
    other = report.get("matchId")
    if other is not None and other != match_id:
        return None, f"the server's report is of match {other!r}, not {match_id}"
    return report, None


def _spool_pages(client: ServerClient, first: tuple[dict[str, Any], bytes | bytearray], spool: IO[bytes], name: str,
                 match_id: str, quoted: str, limits: Limits,
                 texts: dict[int, tuple[tuple[str, ...], dict[tuple[Any, ...], str]]]) -> list[PageErrata]:
    """Follow the export's pages from ``first`` (the page and its text), writing each event as a line to
    ``spool``; returns the errata of every page that has some, each erratum's event ids the export does
    not hold found.  What only a page's text shows of an event, the keys it repeats and its numbers a
    double may not be (:func:`_page_texts`), goes into ``texts`` by the event's place in the export.

    The export must progress: a cursor given a second time (a loop), a page that holds only
    events already fetched (their ids all seen on earlier pages), more than
    ``server_empty_pages`` pages in a row without an event and more than ``server_max_pages``
    pages in all are refused, each with a clear :class:`ServerError`."""
    errata: list[tuple[str, list[Any]]] = []
    page, body = first
    cursor: str | None = None
    spooled = 0
    seen: set[bytes] = set()  # the digest of each cursor followed: a server's cursors may be long
    fetched = _IdSet()
    empty_run = 0
    count = 1
    while True:
        if page.get("errata"):
            errata.append((_page_address(name, cursor), page["errata"]))
        ids = [data.get("id") if isinstance(data, dict) else None for data in page["events"]]
        if ids and all(isinstance(i, int) and not isinstance(i, bool) and i in fetched for i in ids):
            shown_ids = ", ".join(str(i) for i in ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            raise ServerError(f"{_page_name(cursor)} holds only events already fetched on earlier pages "
                              f"(event ids {shown_ids}): the server repeats pages instead of progressing; "
                              "refused", file=name, field="events")
        for position, said in _page_texts(body, page).items():
            texts[spooled + position] = said
        spooled += len(ids)
        for data, event_id in zip(page["events"], ids):
            spool.write(_spooled(data))
            if isinstance(event_id, int) and not isinstance(event_id, bool):
                fetched.add(event_id)
        empty_run = 0 if page["events"] else empty_run + 1
        if empty_run > limits.server_empty_pages:
            raise ServerError(f"more than {limits.server_empty_pages} pages in a row without an event "
                              f"(last cursor {_cursor_shown(cursor)}): the export does not progress; refused",
                              file=name)
        following = page.get("next")
        if following is None:
            return [PageErrata(address, listed, _unknown_ids(listed, fetched)) for address, listed in errata]
        if isinstance(following, bool) or not isinstance(following, (str, int)) or following == "":
            raise ServerError(f"{_page_name(cursor)} gives as 'next' {_cursor_kind(following)}: a cursor is a "
                              "non-empty string or a whole number, and the last page gives null; refused",
                              file=name, field="next")
        previous, cursor = cursor, str(following)
        digest = hashlib.sha256(cursor.encode("utf-8", "surrogatepass")).digest()
        if digest in seen:
            raise ServerError(f"the export pages loop: {_page_name(previous)} gives as its next cursor "
                              f"{_cursor_shown(cursor)}, a cursor already followed; refused", file=name,
                              field="next")
        if count >= limits.server_max_pages:
            raise ServerError(f"the export has more than {limits.server_max_pages} pages (the last one fetched "
                              f"gives the next cursor {_cursor_shown(cursor)}); refused: raise "
                              "$DAISHI_SERVER_MAX_PAGES if "
                              "this match is genuinely that long", file=name)
        seen.add(digest)
        count += 1
        missing = (f"the server has no export page at cursor {_cursor_shown(cursor)} (given as 'next' by "
                   f"{_page_name(previous)}): the cursor was not found, or expired while the pages were read")
        value, body = client.get_answer(f"/api/matches/{quoted}/export?cursor={urllib.parse.quote(cursor)}",
                                        missing=missing)
        page = _export_page(value, name, match_id, cursor)


class _IdSet:
    """The event ids fetched so far, in 8 bytes each: a sorted array (ids come in increasing order, so
    adding one is an append), an id out of order inserted in place, one past 64 bits in a set.  After
    :attr:`OUT_OF_ORDER` ids out of order (a log that does not keep the contract's order), every id
    goes to a set: more memory, but never an insertion costing the whole array.

    >>> ids = _IdSet()
    >>> for i in (3, 5, 9, 4, 2**70): ids.add(i)
    >>> [i in ids for i in (3, 4, 6, 9, 2**70)]
    [True, True, False, True, True]
    """

    OUT_OF_ORDER = 10_000

    def __init__(self) -> None:
        self._sorted = array.array("q")
        self._huge: set[int] = set()
        self._disorder = 0

    def add(self, value: int) -> None:
        ids = self._sorted
        if self._disorder > self.OUT_OF_ORDER or not -(2**63) <= value < 2**63:
            self._huge.add(value)
            return
        if not ids or value > ids[-1]:
            ids.append(value)
            return
        at = bisect.bisect_left(ids, value)
        if ids[at] != value:
            ids.insert(at, value)
            self._disorder += 1
            if self._disorder > self.OUT_OF_ORDER:
                self._huge.update(ids)
                self._sorted = array.array("q")

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int):
            return False
        if self._disorder > self.OUT_OF_ORDER or not -(2**63) <= value < 2**63:
            return value in self._huge
        ids = self._sorted
        at = bisect.bisect_left(ids, value)
        return at < len(ids) and ids[at] == value


def _unknown_ids(errata: list[Any], fetched: _IdSet) -> dict[int, list[int]]:
    """By position in ``errata``: the event ids an erratum names that are not in ``fetched``."""
    unknown: dict[int, list[int]] = {}
    for position, erratum in enumerate(errata):
        named = erratum.get("events") if isinstance(erratum, dict) else None
        if isinstance(named, list):
            missing = [i for i in named if isinstance(i, int) and not isinstance(i, bool) and i not in fetched]
            if missing:
                unknown[position] = missing
    return unknown


def _cursor_kind(value: Any) -> str:
    """What a ``next`` that is no cursor is, for a message: its JSON kind and (short) value."""
    if value == "":
        return "an empty string"
    if isinstance(value, (bool, float)):
        return orjson.dumps(value).decode()
    return json_kind(value)


def _page_address(name: str, cursor: str | None) -> str:
    """The address of the export page at ``cursor`` (None: the first page), as shown: ``name`` is the
    export's address as shown (its query values hidden), the cursor is no secret.

    >>> _page_address("http://h/api/matches/m_1/export?token=***", "c 2")
    'http://h/api/matches/m_1/export?token=***&cursor=c%202'
    """
    if cursor is None:
        return name
    quoted = urllib.parse.quote(cursor)
    return _join(name, f"?cursor={quoted if len(quoted) <= 200 else quoted[:199] + '…'}")


def _cursor_shown(cursor: str | None) -> str:
    """A cursor in a message: quoted as Python writes it, cut to 80 characters (a server's cursor may
    be of any length).

    >>> _cursor_shown("c2"), _cursor_shown("x" * 100)[-3:]
    ("'c2'", 'xx…')
    """
    return shown_value(cursor, 80)


def _page_name(cursor: str | None) -> str:
    """How a message names an export page: by the cursor that asked for it."""
    return "the first export page" if cursor is None else f"the export page at cursor {_cursor_shown(cursor)}"


def _open_server(match_id: str, server: str, limits: Limits) -> MatchSource:
    """Fetch every export page now (bounded), keeping the events in an unnamed temporary file.

    Errata may come on any page and name events of any page, so the whole export is read
    before the first event is handed on; the events wait on disk, never in memory.
    """
    base = server_address(server)
    client = ServerClient(base, limits)
    quoted = urllib.parse.quote(match_id)
    name = _join(redact_url(base), f"/api/matches/{quoted}/export")
    value, body = client.get_answer(f"/api/matches/{quoted}/export")
    first = _export_page(value, name, match_id, None)
    if not isinstance(first.get("archive"), dict):
        raise ServerError("the first export page has no 'archive' object", file=name, field="archive")
    spool = tempfile.TemporaryFile()
    try:
        texts: dict[int, tuple[tuple[str, ...], dict[tuple[Any, ...], str]]] = {}
        past = _archive_past(as_integers(first["archive"], _archive_integers())[1], body, ("archive",))
        page_errata = _spool_pages(client, (first, body), spool, name, match_id, quoted, limits, texts)
        del value, body
        report, report_error = _fetch_report(client, quoted, match_id)
    except BaseException:
        spool.close()
        raise
    header: dict[str, Any] = {"format": "daishi-match-export", "formatVersion": 1, "matchId": match_id,
                              "archive": first["archive"]}
    if report is not None:
        header["report"] = report

    def records() -> Iterator[RawRecord]:
        spool.seek(0)
        for index, line in enumerate(spool):
            try:
                data = orjson.loads(line)
            except orjson.JSONDecodeError as exc:  # a lone surrogate (_spooled): the read boundary reads the line
                yield RawRecord(index, None, None, f"not valid JSON: {_json_reason(exc)}", line)
                continue
            said = texts.get(index)
            if said is not None and isinstance(data, dict):
                keys, written = said
                data = DocumentEvent(data, None, keys, written.get(("id",)), written)
            yield RawRecord(index, None, data, None)

    errata = [erratum for page in page_errata for erratum in page.errata]
    source = MatchSource(name, "server", header, records, errata=errata, page_errata=page_errata,
                         report_error=report_error, lone_surrogates=client.lone_surrogates, archive_past=past)
    weakref.finalize(source, spool.close)
    return source


# --------------------------------------------------------------------------- targets


def open_match(
    target: str,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
    report_faults: bool = False,
) -> MatchSource:
    """Resolve a target to a :class:`MatchSource` (contract §1).

    A target is a path (bundle, stream or folder); ``m_demo`` (the embedded demo);
    or an ``m_<id>``, looked up in the store (``store``, else ``$DAISHI_MATCHES``,
    else ``./matches``) first and then on the server (``server``, else
    ``$DAISHI_SERVER``) if one is configured.  ``report_faults``: see :func:`open_path` (a
    server's report that cannot be read is always kept as the reason).
    """
    limits = limits or Limits()
    path = Path(target)
    if path.exists():
        return open_path(path, limits, report_faults=report_faults)
    if target == DEMO_ID:
        source = open_path(demo_path(), limits, report_faults=report_faults)
        source.form = "demo"
        source.name = DEMO_ID
        return source
    if is_match_id(target):
        found = _find_in_store(target, store or default_store())
        if found is not None:
            return _of_match(open_path(found, limits, report_faults=report_faults), target, found)
        server = server or os.environ.get("DAISHI_SERVER") or None
        if server:
            return _open_server(target, server, limits)
        raise MatchNotFound(
            f"not in the match store {store or default_store()} and no server configured (--server or $DAISHI_SERVER)",
            file=target,
        )
    raise InputUnreadable(
        "no such file or folder, and not a match id (m_ followed by 12 lowercase hex digits) or m_demo",
        file=target,
    )
