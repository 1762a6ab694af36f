"""A season's files on disk: written whole by whoever made them, made durable in batches.

A season writes, per match, a result file and then its resume key, both by the worker
that ran the match, right after one another.  Each is written
to a hidden temporary file beside it and renamed over it (:func:`replace_file`), so a
reader, or a run resumed after a kill, sees the old file or the new one, never half of
one.  Neither is ``fsync``-ed on the spot: that would stop a worker (or the parent) on
the disk once or twice per match.  A :class:`Syncer` thread in the parent syncs the
files the season wrote in batches, off the path of the matches, and :meth:`Syncer.close`
waits for the last batch, so every file is on disk when the season returns.

**What stays true after a kill** (the process, a worker or the machine, at any point):
a match counts as done on resume only when its key equals the key this run computes
*and* the sha-256 of its result file equals the one the key was written with (see
:mod:`daishi_forensics.batch.season`, *Resume*).  A key is written only after its
result file was renamed into place, and a key or result that did not reach the disk
(a power cut before its batch was synced) fails that check: the match is redone.  So a
report counted as done always exists with its full bytes, and a kill costs at most the
matches written since the last synced batch.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterable
from pathlib import Path

from daishi_forensics.errors import OutputError
from daishi_forensics.outputs import write_file

__all__ = ["Syncer", "replace_file"]


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def replace_file(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` whole (:func:`~daishi_forensics.outputs.write_file`: a
    temporary file renamed over it), creating the folder if needed; not synced (see
    :class:`Syncer`).

    Raises
    ------
    OutputError
        The folder or the file could not be written; a file there before is untouched.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder ({_reason(exc)})", file=str(path.parent)) from None
    write_file(path, data, sync=False)


def remove_file(path: Path, what: str = "the file") -> None:
    """Remove ``path`` if it is there.  A folder on the way that is missing, or a file rather than a
    folder, means there is nothing to remove (writing there then fails with its own reason).

    Raises
    ------
    OutputError
        The file is there and could not be removed (a read-only folder).
    """
    try:
        path.unlink(missing_ok=True)
    except NotADirectoryError:
        return
    except OSError as exc:
        raise OutputError(f"cannot remove {what} ({_reason(exc)})", file=str(path)) from None


def _fsync(path: Path) -> None:
    """``fsync`` a file or folder by name (a file gone since, replaced by a later write, is skipped)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Syncer:
    """A thread that syncs files to disk in batches: every file handed to :meth:`add`, then
    each folder they are in, once per batch.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with Syncer() as syncer:
    ...     replace_file(folder / "a.json", b"{}")
    ...     syncer.add([folder / "a.json"])
    >>> syncer.synced, (folder / "a.json").read_bytes()
    (1, b'{}')
    """

    def __init__(self) -> None:
        self._paths: queue.SimpleQueue[Path | None] = queue.SimpleQueue()
        self._error: OutputError | None = None
        self.synced = 0
        """Files synced so far."""
        self._thread = threading.Thread(target=self._work, name="season-syncer", daemon=True)
        self._thread.start()

    def add(self, paths: Iterable[Path]) -> None:
        """Sync ``paths`` (and their folders) in the next batch.

        Raises
        ------
        OutputError
            An earlier batch could not be synced.
        """
        if self._error is not None:
            raise self._error
        for path in paths:
            self._paths.put(path)

    def _work(self) -> None:
        closing = False
        while not closing:
            batch: list[Path] = []
            item = self._paths.get()  # wait for the first file of a batch, then take what is queued
            while True:
                if item is None:
                    closing = True
                else:
                    batch.append(item)
                try:
                    item = self._paths.get_nowait()
                except queue.Empty:
                    break
            try:
                for path in batch:
                    _fsync(path)
                for folder in sorted({p.parent for p in batch}):
                    _fsync(folder)
            except OSError as exc:
                self._error = OutputError(f"cannot sync it to disk ({_reason(exc)})", file=str(batch[0]))
                return
            self.synced += len(batch)

    def close(self) -> None:
        """Wait until every file added is synced.

        Raises
        ------
        OutputError
            A file could not be synced.
        """
        self._paths.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error

    def __enter__(self) -> Syncer:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        try:
            self.close()
        except OutputError:
            if exc_type is None:
                raise  # else the error already on its way says more
