"""One part of a report computed aside, in a forked child, while this process builds the rest.

The behavior report's sections are pure functions of the finished analysis.  On a large
match (:func:`worth_it`: at least :data:`ASIDE_EVENTS` events and a second CPU) the screens and injection sections, the slowest ones, are each computed by a forked copy of
this process while this one builds the other sections; each child sends its answer back
pickled through a pipe.  A fork shares the analysis as it stands (copy on write): nothing
is sent to the child and nothing is computed twice in sequence.

The rule that keeps the output identical: the child runs the very function this process
would run, on the same state; if anything goes wrong (no ``fork`` on this platform, other
threads running, the child fails or dies), :meth:`Aside.result` says so and the caller
computes the part itself.  Forking only happens on Linux, in a process with no other
thread (a fork copies only the calling thread; a lock another thread held would stay held
in the child).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
from typing import Any, Callable

__all__ = ["ASIDE_EVENTS", "ENV", "Aside", "aside", "worth_it"]

ASIDE_EVENTS = 200_000
"""Matches with at least this many events get their slowest sections computed aside (a smaller
one's report takes well under a second: a fork would cost more than it saves)."""

ENV = "DAISHI_FORENSICS_PARALLEL"
"""``0``: never compute aside; ``1``: always (tests use it); unset: by :func:`worth_it`'s rule."""


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def worth_it(events: int) -> bool:
    """Whether a report over ``events`` events should compute its slowest sections aside: the
    setting says so, or the match is large, a second CPU is available to this process, and this
    process is not a pool worker (``season`` already uses every core)."""
    setting = os.environ.get(ENV, "").strip()
    if setting == "0" or multiprocessing.current_process().daemon:
        return False
    if setting == "1":
        return True
    return events >= ASIDE_EVENTS and _cpus() >= 2


class Aside:
    """A forked child computing ``fn()``; :meth:`result` collects its answer (once)."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running any exit handler
            code = 1
            try:
                os.close(read_end)
                payload = pickle.dumps(fn(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write_end, "wb") as out:
                    out.write(payload)
                code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        self._fd = read_end
        self._pid = pid

    def result(self) -> tuple[bool, Any]:
        """``(True, value)`` from the child, or ``(False, None)`` if it failed."""
        chunks = []
        try:
            while chunk := os.read(self._fd, 1 << 20):
                chunks.append(chunk)
        except OSError:
            chunks = []
        finally:
            os.close(self._fd)
        _, status = os.waitpid(self._pid, 0)
        if status != 0 or not chunks:
            return False, None
        try:
            return True, pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 (a truncated answer: the caller computes it itself)
            return False, None


    def cancel(self) -> None:
        """Stop the child and forget its answer (the caller is giving up)."""
        try:
            os.kill(self._pid, signal.SIGKILL)
        except OSError:
            pass
        os.close(self._fd)
        os.waitpid(self._pid, 0)


def aside(fn: Callable[[], Any]) -> Aside | None:
    """``fn`` started in a forked child, or None where forking is not safe or not possible."""
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return None
    try:
        return Aside(fn)
    except OSError:  # no fork (out of processes or memory): the caller computes it
        return None
