"""A progress line on stderr while a slow command works.

Nothing is printed for work that ends within :data:`DELAY` seconds.  After that, on a
terminal, one line says what is being done and for how long, rewritten in place and
erased at the end; on anything else (a CI log, a file) nothing at all, unless
``--progress`` asks for it, and then a plain line every :data:`EVERY` seconds.
``--quiet`` silences it (giving both is a usage error).  It goes to stderr only, so the output itself never changes.

The line is drawn by a thread of its own, which a second process would not allow (a fork copies
only the calling thread): so the analysis may fork, the thread is stopped and waited for before
each fork and started again after it (:func:`daishi_forensics.replay.fork.pause_when_forking`).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO, TypeVar

import click

from daishi_forensics.replay.fork import pause_when_forking, stop_pausing
from daishi_forensics.textsafe import shown

__all__ = ["DELAY", "EVERY", "Progress", "not_both", "progress_options", "progress_for"]

F = TypeVar("F", bound=Callable[..., Any])

DELAY = 2.0
"""Seconds of work before the first progress line."""
EVERY = 10.0
"""Seconds between lines when the line cannot be rewritten in place (not a terminal)."""
TICK = 0.5
"""Seconds between rewrites on a terminal."""


class Progress:
    """``with Progress("behavior m_demo", enabled=True) as p: p.stage("reading"); ...``"""

    def __init__(self, label: str, *, enabled: bool, stream: TextIO | None = None,
                 in_place: bool | None = None) -> None:
        self.label = shown(label)
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and self.stream is not None  # None: started with standard error closed
        self.in_place = (self.stream is not None and self.stream.isatty()) if in_place is None else in_place
        self._stage = "working"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = 0.0
        self._due = 0.0  # (monotonic) when the next line is due
        self._drawn = False
        self._lock = threading.Lock()

    def stage(self, text: str) -> None:
        """What is being done now (``reading and analysing``, ``drawing the plots``...)."""
        self._stage = shown(text)

    def clear(self) -> None:
        """Erase the line drawn in place (before the command prints a line of its own on the same
        terminal); the next tick draws it again."""
        with self._lock:
            if self._drawn and self.in_place:
                self._write("\r\x1b[K")

    def __enter__(self) -> Progress:
        if self.enabled:
            self._start = time.monotonic()
            self._due = self._start + DELAY
            self._begin(DELAY)
            pause_when_forking(self)
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        stop_pausing(self)
        self.enabled = False  # (never resumed again)
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._drawn and self.in_place:
            self._write("\r\x1b[K")
        elif self._drawn:
            self._write(f"{self.label}: done in {time.monotonic() - self._start:.0f} s\n")

    def _line(self) -> str:
        return f"{self.label}: {self._stage} ({time.monotonic() - self._start:.0f} s)"

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the stream is gone: no more lines, not even after a fork
            self.enabled = False
            self._stop.set()

    def _begin(self, first: float) -> None:
        """Start the drawing thread, its first line after ``first`` seconds."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(self._stop, first), name="daishi-progress",
                                        daemon=True)
        self._thread.start()

    def pause(self, timeout: float) -> None:
        """Stop the drawing thread and wait for it to end, at most ``timeout`` seconds (before a fork)."""
        thread, self._thread = self._thread, None
        self._stop.set()
        if thread is not None:
            thread.join(timeout)

    def resume(self) -> None:
        """Start drawing again where it was (after a fork): the next line when it is due."""
        if self.enabled and self._thread is None:
            self._begin(max(0.0, self._due - time.monotonic()))

    def _run(self, stop: threading.Event, first: float) -> None:
        if stop.wait(first):
            return
        every = TICK if self.in_place else EVERY
        while True:
            with self._lock:
                self._drawn = True
                self._due = time.monotonic() + every
                if self.in_place:
                    self._write(f"\r{self._line()}\x1b[K")
                else:
                    self._write(self._line() + "\n")
            if stop.wait(every):
                return


def not_both(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    """The callback of ``-q/--quiet`` and ``--progress``: the two contradict each other (one asks for no
    progress line, the other for one even off a terminal), so giving both is a usage error (exit 2)
    rather than one of them silently losing.  Whichever of the two click reads second sees the first."""
    other = "progress" if param.name == "quiet" else "quiet"
    if value and ctx.params.get(other):
        raise click.UsageError("-q/--quiet and --progress contradict each other (no progress line, and a "
                               "progress line even off a terminal): give one of them", ctx)
    return value


def progress_options(func: F) -> F:
    """``-q/--quiet`` and ``--progress``, for every command that reads matches (never both)."""
    func = click.option("--progress", "progress", is_flag=True, callback=not_both,
                        help="Print the progress line even when stderr is not a terminal (a CI log). Not with "
                             "--quiet.")(func)
    func = click.option("-q", "--quiet", "quiet", is_flag=True, callback=not_both,
                        help="No progress line on stderr (it appears only on a terminal, when a match takes "
                             "more than 2 s). Not with --progress.")(func)
    return func


def progress_for(label: str, quiet: bool, progress: bool) -> Progress:
    """The progress line of one command run: on when asked, or on a terminal unless ``--quiet``."""
    # no standard error (started with it closed, ``2>&-``): no line to draw, and the command runs on
    return Progress(label, enabled=not quiet and (progress or (sys.stderr is not None and sys.stderr.isatty())))
