"""The replay on two cores: a forked child replays some of the passes over its own read of the
same file while this process replays the others; the child sends its passes back, finished.

Why it is the same analysis.  Every pass sees the events and the world, nothing of another
pass (ARCHITECTURE.md, *Replay protocol*), and the driver keeps the whole world for every replay
whatever passes it feeds, so a pass replayed beside fewer others ends in the same state.  What
each side needs is the same sequence of events; both sides read the file through the read
boundary, which refuses a file that is not the one opened (device, inode, size, modification
time) or that changed while it was read.  On top of that each side takes a digest (SHA-256) of
the bytes of every record it read: the events a pass sees are a function of those bytes and of
the header, read once before the fork.  The child's passes are taken only when its digest is
this process's.

How the child reads.  When its read is likely to be plain (:func:`_reads_plainly`: this
process checks its records and the first record is a v3 event object), the child reads without
the read boundary's checks (:func:`~daishi_forensics.read.boundary.as_parsed`: each record's
data as parsed, but those an erratum names; the parse alone).  That is this process's events
exactly when this process's own, checked, read was
:attr:`~daishi_forensics.read.boundary.MatchRead.verbatim` (every record took the hot path,
which hands on each record's data as parsed and withholds those an erratum names, and none was
found out of place) and both read the same bytes (the digests).  So a child that read without
checks is waited for only when this process's read was verbatim; otherwise it is stopped at once
(the records its checks refused may be anything, and the child's passes are not taken whatever
they did) and its passes are replayed here.  Otherwise the child reads through the read boundary
with this process's settings, as this process does.

When its passes are not taken (the digests differ, this process's read was not verbatim after a
child read without checks, the child left lines unparsed and this process's replay met a tick
regression, or the child failed, died or could not start) this process replays
the missing passes itself, over a second read of the file, and takes that replay only if its
digest is that of its first read; otherwise the file changed under it and it refuses with the
read boundary's error for a changed file.  So the analysis is that of a one-process run of the
file this process read, or an error: never a mix of two files.

What the child does not parse.  A child reading without checks skips, unparsed, each line that
provably holds an event no pass of its own nor the world wants (:func:`_skipped_tails`): a line
ending in ``,"type":"T"}`` and a line feed, for a type ``T`` that none of its passes observes or
counts and the world does not apply.  Such a line is one JSON object (this process's read being
verbatim, the only case its passes are taken in), the ``}`` ends it, and the bytes before it are
its last member, the key ``type`` (unescaped quotes: no backslash before them) with the value
``T`` written out: its type is ``T`` (a repeated key is off the hot path; the last one counts
anyway).  Every line still goes into the digest.  Leaving those events out changes one thing
for the child's passes: a tick only such events had is never entered, so the ticks closed
around it come as one span, ``close_ticks(a, b)``, where a full replay calls
``close_ticks(a, c)`` then ``close_ticks(c, b)`` with nothing observed nor applied between.  So
the child skips only when each of its tick-closing passes says that is the same
(``merges_spans``: exact integer arithmetic, settling in the same order), with every pass
naming the types it observes (and counts), and the archive naming both ``startedAtTick`` and
``endedAtTick`` (without them the first and the last event's ticks bound the spans closed);
and its passes are taken only when this process's replay met no tick lower than the one before
it (a regression leaves the world at the higher tick, which a skipped event may have set).
The rest of its replay sees the very events, at the very ticks, with the very world.

Work beside the replay.  The caller may hand the child work to do on its passes once replayed
(``ahead``: results a pass keeps, the same whichever process computes them), and this process
work to do once its own half is replayed while the child is still at work (``meanwhile``: given
only its own, finished, passes).  A failing ``ahead`` fails the child (its passes are replayed
here, as above).

The read boundary knows nothing of this: the digest is taken on the raw records a
:class:`~daishi_forensics.read.sources.MatchSource` hands over, in a copy of the source; the
boundary says only whether a read was verbatim, and reads without checks when asked.  The
child that skips reads the file again with :func:`~daishi_forensics.read.sources.json_lines`
(the stream's reader: the same limits, a parse per line that may skip): it has no file identity
to check, and needs none, its digest being compared.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Collection, Iterator, Mapping
from functools import partial
from itertools import islice
from operator import is_not
from typing import Any

import orjson

from daishi_forensics import schemas
from daishi_forensics.errors import InputUnreadable
from daishi_forensics.read.boundary import MatchRead, as_parsed
from daishi_forensics.read.sources import MatchSource, RawRecord, json_lines

from .driver import replay
from .fork import allowed, fork
from .split import SPLIT_BYTES, parse_bytes
from .timeline import Timeline
from .world import Pass, World

__all__ = ["SPLIT_BYTES", "Ahead", "Aside", "Meanwhile", "replay_in_halves"]


Aside = Collection[str] | Callable[[MatchSource], Collection[str]]
"""The passes a child replays, by name; or what names them for a source worth splitting (read once, before the
fork: the caller's choice, say by what the file's first lines hold; the analysis is the same whichever it names)."""

Reread = Callable[[MatchSource], MatchSource]
"""What a read after this process's first one reads (tests swap the file under it)."""


def _same(source: MatchSource) -> MatchSource:
    return source


def _digested(source: MatchSource, digest: Any) -> MatchSource:
    """A copy of ``source`` whose records feed ``digest`` (each record's bytes as read,
    :meth:`~daishi_forensics.read.sources.MatchSource.tapped`)."""
    return source.tapped(digest.update)


def _worth_splitting(source: MatchSource) -> bool:
    """The records come from a file (stream or folder: a second read reads the same file, which
    the read boundary checks) large enough (:data:`SPLIT_BYTES` to parse, :func:`~daishi_forensics.replay.split.parse_bytes`), and a
    second process is allowed."""
    where = source.file_records
    if where is None:
        return False
    try:
        size = parse_bytes(where.path)
    except OSError:
        return False  # the read boundary says why, in this process
    return allowed(size >= SPLIT_BYTES)


def _read_again(read: MatchRead, source: MatchSource) -> MatchRead:
    """A fresh read of ``source`` with the settings of ``read``."""
    return MatchRead(source, strict=read.strict, max_per_kind=read.max_per_kind, validate=read.validate)


def _reads_plainly(read: MatchRead, source: MatchSource) -> bool:
    """Whether the child should read without checks (:func:`~daishi_forensics.read.boundary.as_parsed`):
    this process's read checks its records and the file's first record is a v3 event object (a log
    of an older schema version takes the cold path throughout).  A guess, which only picks the
    child's read: whether its passes are taken is the rule of :func:`replay_in_halves`."""
    if not read.validate:
        return False
    records = source.records()
    try:
        first = next(records, None)
    except InputUnreadable:
        return False  # this process's read says why
    finally:
        close = getattr(records, "close", None)
        if callable(close):
            close()
    return first is not None and type(first[2]) is dict and first[2].get("schemaVersion") == 3


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _skipped_tails(passes: Collection[Pass], archive: Mapping[str, Any]) -> frozenset[bytes]:
    """The line endings (``T"}`` and a line feed, after ``,"type":"``) of the known event types
    ``T`` a replay of ``passes`` can leave unparsed (see the module docs): none when a pass wants
    every type (no ``types``, or counting without ``tallied``), a tick-closing pass does not
    say ``merges_spans``, or the archive lacks ``startedAtTick`` or ``endedAtTick``.

    >>> class Moves:
    ...     types = frozenset({"move"})
    ...     def observe(self, ev, world): pass
    >>> tails = _skipped_tails([Moves()], {"startedAtTick": 0, "endedAtTick": 9})
    >>> b'inference_usage"}\\n' in tails, b'move"}\\n' in tails, b'agent_spawned"}\\n' in tails
    (True, False, False)
    >>> _skipped_tails([Moves()], {"startedAtTick": 0})
    frozenset()
    """
    if not (_is_int(archive.get("startedAtTick")) and _is_int(archive.get("endedAtTick"))):
        return frozenset()
    wanted = set(World(0)._handlers())
    for p in passes:
        types = getattr(p, "types", None)
        if types is None:
            return frozenset()
        wanted.update(types)
        if callable(getattr(p, "counted", None)):
            tallied = getattr(p, "tallied", None)
            if tallied is None:
                return frozenset()
            wanted.update(tallied)
        if callable(getattr(p, "close_ticks", None)) and getattr(p, "merges_spans", False) is not True:
            return frozenset()
    return frozenset(f'{t}"}}\n'.encode() for t in schemas.event_types() if t not in wanted)


_SKIPPED = object()
"""What the child's parse gives for a line it left unparsed."""


_COMMON_TAILS = tuple(f',"type":"{t}"}}\n'.encode() for t in (
    "inference_usage", "gather", "rest", "craft", "agent_snapshot", "look", "build"))
"""The endings of the types most lines of a match hold (on a simulated 96-seat match, 60% of the lines
and 97% of those left unparsed): tried first, as the test of a line's ending stops at the first
ending that matches (the others after them, in byte order: the same endings, tried in another order)."""


def _tried_first(end: bytes) -> tuple[int, bytes]:
    """Where ``end`` comes in the order the endings are tried (:data:`_COMMON_TAILS` first)."""
    return (_COMMON_TAILS.index(end) if end in _COMMON_TAILS else len(_COMMON_TAILS), end)


def _skipping(source: MatchSource, tails: frozenset[bytes], digest: Any,
              withheld: Collection[int] = ()) -> tuple[MatchSource, list[int]]:
    """A copy of ``source`` (a stream or folder) read again from its file, each record's data the
    line parsed, or :data:`_SKIPPED` for a line ending in ``,"type":"`` and one of ``tails`` and for
    an event whose id is in ``withheld`` (:func:`~daishi_forensics.read.boundary.as_parsed`'s
    rule), every record's bytes into ``digest`` as read; and a counter of the lines skipped (its
    one item, once the records are read).

    One step per line, in the parse the line reader calls: the digest taken, the line skipped or
    parsed, an erratum's event withheld (no generator between the reader and the replay).  A line
    that is not JSON raises in the parse before its bytes reach the digest, so a read that met one
    never has this process's digest: its passes are not taken (this process's read met the same
    line, and was not verbatim anyway)."""
    where = source.file_records
    assert where is not None  # a file: _worth_splitting
    ends = tuple(sorted((b',"type":"' + tail for tail in tails), key=_tried_first))
    loads = orjson.loads
    skipped = [0]
    update: Callable[[bytes], Any] = digest.update

    def header(line: bytes) -> None:  # a stream's first line, read when it was opened: not a record
        nonlocal update
        update = digest.update

    if where.skip_header:
        update = header

    # one parse, the erratum test first asking whether the match has errata at all (most have none): that
    # test costs about 1% of a line's parse here, far less of its replay
    def parse(line: bytes) -> Any:
        if line.endswith(ends):
            update(line)
            skipped[0] += 1
            return _SKIPPED
        data = loads(line)
        update(line)
        if withheld and type(data) is dict and data.get("id") in withheld:
            return _SKIPPED
        return data

    def records() -> Iterator[RawRecord]:
        lines = json_lines(where.path, where.limits, loads=parse)
        # a stream's first line is its header (read when it was opened): not an event
        return islice(lines, 1, None) if where.skip_header else lines

    return dataclasses.replace(source, _records=records), skipped


Ahead = Callable[[dict[str, Pass], Timeline], None]
"""Work the child does on its finished passes before it sends them (given its own timeline, which
is not this process's when it left lines unparsed): results a pass keeps, which are the same
whichever process computes them from the same pass."""


Meanwhile = Callable[[Timeline, frozenset[str]], None]
"""Work this process does once its own half is replayed, while the child is still replaying: given
its timeline and the names of the passes it replayed (finished; the others are not yet)."""


def _replay_aside(read: MatchRead, source: MatchSource, passes: dict[str, Pass],
                  plain: bool, tails: frozenset[bytes] = frozenset(),
                  ahead: Ahead | None = None) -> tuple[str, dict[str, Pass], int]:
    """(In the child.)  ``passes`` replayed over a read of ``source`` (without checks when ``plain``,
    leaving unparsed the lines ending in one of ``tails`` when ``plain``), then ``ahead`` on them;
    the digest of what was read, and how many lines it left unparsed."""
    digest = hashlib.sha256()
    skipped = [0]
    events: Iterator[Any]
    if plain and tails and source.file_records is not None:
        source, skipped = _skipping(source, tails, digest, read.errata_events)
        events = filter(partial(is_not, _SKIPPED), as_parsed(source))  # the digest and errata: in the parse
    elif plain:
        events = as_parsed(_digested(source, digest), read.errata_events)
    else:
        events = _read_again(read, _digested(source, digest)).events()
    timeline = replay(events, read.archive, list(passes.values()))
    if ahead is not None:
        ahead(passes, timeline)
    return digest.hexdigest(), passes, skipped[0]


def replay_in_halves(read: MatchRead, instances: dict[str, Pass], aside: Aside,
                     *, reread: Reread = _same, ahead: Ahead | None = None,
                     meanwhile: Meanwhile | None = None) -> Timeline:
    """Replay every pass of ``instances`` over ``read``, those named in ``aside`` (:data:`Aside`: asked of
    the source when it is a function) in a forked child when that is worth it (:func:`_worth_splitting`);
    return this process's timeline.  The child
    runs ``ahead`` (:data:`Ahead`) on its passes once replayed; if it fails, so does the child
    (its passes are replayed here, and ``ahead`` is not run here: its work is done when asked for).
    This process runs ``meanwhile`` (:data:`Meanwhile`) once its half is replayed, if the child is
    still at work then (never otherwise: no split, a child not waited for, or one already done).

    ``instances`` is updated in place: a pass the child replayed is replaced by the child's
    finished copy (same name, same place), when the module's rule takes it.  ``read`` is
    consumed, and its stats are this process's reading of the file.  ``reread`` gives the
    source any later read reads (the child's, and this process's second one): the identity,
    unless a test swaps the file.

    Raises
    ------
    InputUnreadable
        the file changed between this process's two reads (see the module docs); or whatever
        the read boundary raises for the first read.
    """
    source = read.source
    if not _worth_splitting(source):
        return replay(read.events(), read.archive, list(instances.values()))
    names = aside(source) if callable(aside) else aside
    group = {name: p for name, p in instances.items() if name in names}
    if not group or len(group) == len(instances):
        return replay(read.events(), read.archive, list(instances.values()))
    plain = _reads_plainly(read, source)
    tails = _skipped_tails(group.values(), read.archive) if plain else frozenset()
    child = fork(lambda: _replay_aside(read, reread(source), group, plain, tails, ahead))
    if child is None:
        return replay(read.events(), read.archive, list(instances.values()))
    here_names = [name for name in instances if name not in group]
    here = [instances[name] for name in here_names]
    digest = hashlib.sha256()
    read.source = _digested(source, digest)
    try:
        timeline = replay(read.events(), read.archive, here)
    except BaseException:
        child.cancel()
        raise
    finally:
        read.source = source
    done, answer = False, None
    if plain and not read.verbatim:  # the child's events may not be this process's: not waited for
        child.cancel()
    else:
        ready = getattr(child, "ready", None)
        if meanwhile is not None and not (callable(ready) and ready()):
            try:
                meanwhile(timeline, frozenset(here_names))
            except BaseException:
                child.cancel()
                raise
        done, answer = child.result()
    if done and answer is not None and answer[0] == digest.hexdigest() and (
            answer[2] == 0 or timeline.tick_regressions == 0):  # a child that skipped: no regression
        instances.update(answer[1])
        return timeline
    # the child's passes are not taken: replay them here (they are untouched copies)
    second = hashlib.sha256()
    again = _read_again(read, _digested(reread(source), second))
    replay(again.events(), again.archive, list(group.values()))
    if second.hexdigest() != digest.hexdigest():
        raise InputUnreadable(
            "changed while being read (read twice, to different bytes); refused rather than analyse a mix "
            "of two versions: read it again once it is complete",
            file=source.name,
        )
    return timeline
