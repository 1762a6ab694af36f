"""A season's process pool on this machine: workers forked ready, fed in shrinking chunks.

**Start.**  A worker must start with every module a job needs (``preload``) already imported,
so that no match pays for an import, and the import is paid once, not once per worker
(:func:`start_pool`):

* on Linux, in a process that runs no other thread (:func:`forks_here`), this process imports
  ``preload`` and runs the job's ``warm_up`` (nothing to do when it holds them already: a caller
  that ran a season here before) and forks the workers from itself at once, before the caller
  starts its own threads;
* elsewhere, or beside other threads (a fork copies only the calling thread: a lock another thread
  held would stay held in the worker), the workers are forked from a fork server that imports
  ``preload`` once, started before the caller's first chunk is cut so that it imports while the
  caller goes on.  Each worker also imports them on start (nothing to do when forked from that
  server; the import paid once per worker when a fork server already ran without them) and runs
  ``warm_up`` (once per worker on this way).

**Orphans.**  Every worker is killed when the season's process ends (on Linux the kernel's
parent-death signal for a worker forked from it, else a thread of the worker that waits for it): a season stopped by a signal it cannot handle
(``kill``, a supervisor's SIGTERM) leaves no worker behind, blocked for ever on a pipe nobody reads
(:func:`die_with_parent`).  What a worker had written is kept: every file is renamed into place whole.

**Chunks** (guided scheduling).  Items go out in chunks of ``ceil(left / (4 x workers))``,
at most :data:`MAX_CHUNK`: a few round trips for many small matches at the start, one match at
a time at the end, so no worker sits idle while the other finishes a long chunk.  Each worker
has one chunk running and one waiting, so it never waits for the caller between chunks.

**Order.**  Results come back as chunks finish, each chunk in its own order; the season sorts
by target afterwards, so nothing it writes depends on that order.

**CPU.**  Every chunk's answer carries the worker's process id and CPU clock; :class:`PoolCpu`
keeps the last per worker, so the pool's CPU seconds (anything a worker imported included) are
known without any measuring from outside.
"""

from __future__ import annotations

import ctypes
import importlib
import math
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["MAX_CHUNK", "PoolCpu", "chunk_size", "die_with_parent", "forks_here", "map_chunks", "start_pool"]

MAX_CHUNK = 4
"""The most items one round trip to a worker carries."""

Item = TypeVar("Item")
Out = TypeVar("Out")


def chunk_size(left: int, workers: int) -> int:
    """Guided scheduling: a quarter of each worker's share of what is left, 1 to :data:`MAX_CHUNK`.

    >>> [chunk_size(n, 2) for n in (200, 32, 16, 9, 8, 1)]
    [4, 4, 2, 2, 1, 1]
    """
    return max(1, min(MAX_CHUNK, math.ceil(left / (4 * workers))))


@dataclass
class PoolCpu:
    """CPU seconds of the pool's worker processes, by process id (each one's own clock, which
    starts at zero when it is forked)."""

    by_worker: dict[int, float] = field(default_factory=dict)

    def note(self, pid: int, seconds: float) -> None:
        self.by_worker[pid] = max(seconds, self.by_worker.get(pid, 0.0))

    @property
    def seconds(self) -> float:
        return sum(self.by_worker.values())


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """In a worker, on Linux: have the kernel kill this process (SIGKILL) when the process that forked
    it ends; at once when ``parent`` (that process's id) has ended already.  Elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:  # it ended before the line above
        os._exit(1)


def _preload(modules: Sequence[str], warm_up: Callable[[], object] | None = None) -> None:
    """Import ``modules``, then run ``warm_up`` (what a job would otherwise build on its first match)."""
    for module in modules:
        importlib.import_module(module)
    if warm_up is not None:
        warm_up()


def _watch(parent: int) -> None:
    """Kill this process (SIGKILL) once process ``parent`` has ended (a thread's loop)."""
    try:
        fd = os.pidfd_open(parent)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])  # readable once the process has ended
    else:
        while True:
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGKILL)


def _start_worker(parent: int, modules: Sequence[str], warm_up: Callable[[], object] | None = None) -> None:
    """A worker forked from the fork server: it ends with the season's process ``parent`` (a thread
    that waits for that process to end: the fork server itself lives as long as any worker holds its
    connection to that process, so the kernel's parent-death signal would never come), then
    :func:`_preload`."""
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="season-parent-watch").start()
    _preload(modules, warm_up)


def _run_chunk(func: Callable[[Any], Any], chunk: Sequence[Any]) -> tuple[list[Any], int, float]:
    """Run ``func`` on each item of a chunk in a worker; the answers, the worker's pid and CPU clock."""
    out = [func(item) for item in chunk]
    return out, os.getpid(), time.process_time()


def forks_here() -> bool:
    """Whether the pool's workers can be forked from this process: on Linux, with no thread running
    but this one."""
    return (sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
            and threading.active_count() == 1)


def start_pool(workers: int, preload: Sequence[str],
               warm_up: Callable[[], object] | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that start with ``preload`` imported and ``warm_up`` run (what a
    job builds once per process: an engine, a compiled pattern set): where :func:`forks_here`, both done
    here, once, and the workers forked from this process now; else forked on the first chunks from a
    fork server that imports ``preload`` (spawned where there is no fork server), started here, which
    imports while the caller goes on, each worker running ``warm_up`` as it starts."""
    if forks_here():
        _preload(preload, warm_up)
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=die_with_parent, initargs=(os.getpid(),))
        pool.submit(os.getpid)  # a forking pool forks every worker on its first call, before any thread starts
        return pool
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        from multiprocessing import forkserver

        context.set_forkserver_preload(list(preload))
        forkserver.ensure_running()  # does not wait for the imports
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker,
                               initargs=(os.getpid(), tuple(preload), warm_up))


def map_chunks(pool: ProcessPoolExecutor, workers: int, func: Callable[[Item], Out], items: Sequence[Item],
               cpu: PoolCpu) -> Generator[tuple[Item, Out | BaseException], None, None]:
    """``(item, func(item))`` for every item, run in ``pool`` in guided chunks, as chunks finish;
    ``(item, exception)`` for each item of a chunk whose call failed (a worker that died, an
    answer that could not be sent back).  Closing the generator submits nothing more.

    Every item runs in a worker, never in this process: a match that crashes its process (out of
    memory, a fatal signal) takes a worker down, not the season.
    """
    left = deque(items)
    running: dict[Future[tuple[list[Out], int, float]], list[Item]] = {}
    broken: list[tuple[Item, BaseException]] = []

    def feed() -> None:
        while left and len(running) < 2 * workers:
            chunk = [left.popleft() for _ in range(chunk_size(len(left), workers))]
            try:
                running[pool.submit(_run_chunk, func, chunk)] = chunk
            except BrokenProcessPool as exc:  # a worker died: the pool takes no more work
                broken.extend((item, exc) for item in [*chunk, *left])
                left.clear()

    feed()
    while running or broken:
        yield from broken
        broken.clear()
        if not running:
            break
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        finished = [(running.pop(future), future) for future in done]
        feed()  # the workers' next chunks go out before this process reads the answers
        for chunk, future in finished:
            try:
                answers, pid, seconds = future.result()
            except Exception as exc:  # noqa: BLE001 - each item of the chunk carries its failure
                for item in chunk:
                    yield item, exc
                continue
            cpu.note(pid, seconds)
            yield from zip(chunk, answers)
