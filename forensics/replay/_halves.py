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
child read without checks, or the child failed, died or could not start) this process replays
the missing passes itself, over a second read of the file, and takes that replay only if its
digest is that of its first read; otherwise the file changed under it and it refuses with the
read boundary's error for a changed file.  So the analysis is that of a one-process run of the
file this process read, or an error: never a mix of two files.

The read boundary knows nothing of this: the digest is taken on the raw records a
:class:`~daishi_forensics.read.sources.MatchSource` hands over, in a copy of the source; the
boundary says only whether a read was verbatim, and reads without checks when asked.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Collection, Iterator
from typing import Any

from daishi_forensics.errors import InputUnreadable
from daishi_forensics.read.boundary import MatchRead, as_parsed
from daishi_forensics.read.sources import MatchSource, RawRecord

from .driver import replay
from .fork import allowed, fork
from .timeline import Timeline
from .world import Pass

__all__ = ["SPLIT_BYTES", "replay_in_halves"]

SPLIT_BYTES = 16 << 20
"""A file of at least this many bytes (about 60,000 events of a plain stream) is replayed on two
cores; a smaller one's replay takes about a second, of which a second core would save little."""

Reread = Callable[[MatchSource], MatchSource]
"""What a read after this process's first one reads (tests swap the file under it)."""


def _same(source: MatchSource) -> MatchSource:
    return source


def _digested(source: MatchSource, digest: Any) -> MatchSource:
    """A copy of ``source`` whose records feed ``digest`` (each record's bytes as read)."""
    records = source.records

    def tapped() -> Iterator[RawRecord]:
        update = digest.update
        for record in records():
            text = record[4]
            update(text if text is not None else repr(record[:4]).encode())
            yield record

    return dataclasses.replace(source, _records=tapped)


def _worth_splitting(source: MatchSource) -> bool:
    """The records come from a file (stream or folder: a second read reads the same file, which
    the read boundary checks) large enough (:data:`SPLIT_BYTES`), and a second process is allowed."""
    where = source.file_records
    if where is None:
        return False
    try:
        size = os.stat(where.path).st_size
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


def _replay_aside(read: MatchRead, source: MatchSource, passes: dict[str, Pass],
                  plain: bool) -> tuple[str, dict[str, Pass]]:
    """(In the child.)  ``passes`` replayed over a read of ``source`` (without checks when ``plain``),
    and the digest of what was read."""
    digest = hashlib.sha256()
    tapped = _digested(source, digest)
    events = as_parsed(tapped, read.errata_events) if plain else _read_again(read, tapped).events()
    replay(events, read.archive, list(passes.values()))
    return digest.hexdigest(), passes


def replay_in_halves(read: MatchRead, instances: dict[str, Pass], aside: Collection[str],
                     *, reread: Reread = _same) -> Timeline:
    """Replay every pass of ``instances`` over ``read``, those named in ``aside`` in a forked child
    when that is worth it (:func:`_worth_splitting`); return this process's timeline.

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
    group = {name: p for name, p in instances.items() if name in aside}
    source = read.source
    if not group or len(group) == len(instances) or not _worth_splitting(source):
        return replay(read.events(), read.archive, list(instances.values()))
    plain = _reads_plainly(read, source)
    child = fork(lambda: _replay_aside(read, reread(source), group, plain))
    if child is None:
        return replay(read.events(), read.archive, list(instances.values()))
    here = [p for name, p in instances.items() if name not in group]
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
        done, answer = child.result()
    if done and answer is not None and answer[0] == digest.hexdigest():
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
