"""Presidio's findings on a small match's messages, computed by a second process from the start.

The report asks Presidio about message texts (the probes' *reveals a secret* check during the replay,
the scrubbed snippets and evidence afterwards).  Presidio's first use costs about a second: importing it
and spaCy and building its engine, longer than the replay of a small match.  With a second CPU free,
:func:`start` forks a child at the command's start, before the report's own imports; the child opens the
match itself, collects its message texts, and runs Presidio on every chunk the report can hand it
(:func:`~daishi_forensics.injection.secrets.scan_ahead`).  The first chunk this process asks about waits
for the child's answer; a chunk the answer holds is answered from it, any other (and every one, if the
child failed) by Presidio here.  Each answer is the same function of the same characters either way, so
the report is the same bytes; only the wall time differs.

Started only for a target read from this machine: a regular file, a folder, the demo, or a match id
looked up in the store (never the server: the child would fetch the match a second time; never
standard input, a pipe or anything else a second reader would take bytes from).  Not started with one
CPU (or the parallel setting off), where a fork is not possible, or for a file large enough for the
replay to read on two processes (the second CPU is the replay's); the child stops at once for such a
match found in the store, and for one whose messages hold more to scan than the report is likely to
ask about (:data:`MAX_CHUNKS`).  The module imports nothing heavy, so a command can call :func:`start`
before importing the report.
"""

from __future__ import annotations

import os
import re
import stat
import threading
from pathlib import Path
from typing import Any

from daishi_forensics.injection import secrets
from daishi_forensics.replay.fork import Forked, allowed, fork
from daishi_forensics.replay.split import SPLIT_BYTES, parse_bytes

__all__ = ["ScansAhead", "start"]

MESSAGE_TYPES = frozenset({"message", "message_private"})
"""The events whose ``text`` the child reads."""

MAX_CHUNKS = 100
"""The child scans at most this many chunks (about 3 ms of Presidio each for a short message); beyond,
it stops before Presidio reads anything, and the report asks Presidio about the few chunks it needs
itself (it would otherwise wait for every one)."""

MAX_CHARS = 100_000
"""... and at most this many characters in them, for the same reason."""


class ScansAhead:
    """The child computing the findings; :meth:`cancel` once the report is done (or abandoned)."""

    def __init__(self, child: Forked) -> None:
        self._child = child
        self._lock = threading.Lock()
        self._taken = False
        self._parent = os.getpid()

    def result(self) -> secrets.Scans | None:
        """The child's findings (waiting for them), or None if it failed or was cancelled; once, and only
        in the process that started it (another one forked later must not read its pipe)."""
        with self._lock:
            if self._taken or os.getpid() != self._parent:
                return None
            self._taken = True
        ok, value = self._child.result()
        return value if ok and isinstance(value, dict) else None

    def cancel(self) -> None:
        """Forget the findings, and stop the child if nobody collected it."""
        secrets.forget_scans()
        with self._lock:
            if self._taken or os.getpid() != self._parent:
                return
            self._taken = True
        self._child.cancel()


def start(target: str, *, store: Path | None = None) -> ScansAhead | None:
    """The child scanning ``target``'s messages, expected by :mod:`~daishi_forensics.injection.secrets`;
    None where it is not worth starting (see the module docs)."""
    if not _local(target) or _large(target) or not allowed(True):
        return None
    child = fork(lambda: _scan(target, store))
    if child is None:
        return None
    ahead = ScansAhead(child)
    secrets.expect_scans(ahead.result)
    return ahead


_MATCH_ID = re.compile(r"m_[0-9a-f]{12}")


def _local(target: str) -> bool:
    """Whether a second reader of ``target`` takes nothing from this process: the demo, a match id (the
    child looks in the store only), a regular file or a folder.

    >>> _local("m_demo"), _local("-"), _local("https://daishi.ai/m_0123456789ab"), _local("/dev/null")
    (True, False, False, False)
    """
    if target == "m_demo" or _MATCH_ID.fullmatch(target):
        return True
    try:
        mode = os.stat(target).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(mode) or stat.S_ISDIR(mode)


def _large(target: str) -> bool:
    """Whether ``target`` is a file, or a folder whose events file is one, of at least
    :data:`~daishi_forensics.replay.split.SPLIT_BYTES` to parse: the replay's second process is
    likely (a bundle that large is never split, but parsing it a second time would cost as much).
    A match id is checked by the child, once the store has named its file."""
    path = Path(target)
    try:
        if path.is_dir():
            found = [path / name for name in ("events.jsonl", "events.jsonl.gz") if (path / name).is_file()]
            return bool(found) and parse_bytes(str(found[0])) >= SPLIT_BYTES
        return path.is_file() and parse_bytes(target) >= SPLIT_BYTES
    except OSError:
        return False


def _scan(target: str, store: Path | None) -> secrets.Scans | None:
    """In the child: the findings on every chunk of the match's message texts, or None where the match
    is not for scanning ahead (a large file, or one only a server holds: it is not opened here)."""
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.replay.analysis import two_processes

    os.environ.pop("DAISHI_SERVER", None)  # (this process's own copy) a match id is looked up in the store only
    source = open_match(target, store=store, server=None)
    if two_processes(source):
        return None
    from daishi_forensics.injection.propagation import SNIPPET
    texts: list[str] = []
    for record in source.records():
        data: Any = record[2]
        if type(data) is dict and data.get("type") in MESSAGE_TYPES:
            payload = data.get("payload")
            if isinstance(payload, dict) and isinstance(payload.get("text"), str):
                texts.append(payload["text"])
    return secrets.scan_ahead(texts, (secrets.SECRET_CAP, SNIPPET * 3), max_chunks=MAX_CHUNKS, max_chars=MAX_CHARS)
