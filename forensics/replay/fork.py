"""Work done in a forked child, its answer sent back pickled through a pipe; and the one rule that
says when a second process may be used at all.

Two places use a second CPU: the replay (:mod:`~daishi_forensics.replay._halves`: a child replays
some of the passes while this process replays the others) and the behavior report (its slowest
sections computed aside).  Both go through :func:`fork` and :func:`allowed`, so one setting
governs them and one set of safety rules applies:

* ``DAISHI_FORENSICS_PARALLEL`` (:data:`ENV`): ``0`` never forks, ``1`` always does (where
  forking is possible), unset lets the caller's size rule decide, with a second CPU available
  (:func:`cpus`: the CPUs this process may run on, fewer where a container's CPU quota allows fewer);
* a process started by ``multiprocessing`` (a pool's worker: ``season`` already keeps every
  core busy) never forks, nor does a daemon process;
* forking only happens on Linux, in a process with no other thread (a fork copies only the
  calling thread; a lock another thread held would stay held in the child).  A thread that only
  shows something while the work goes on (the command line's progress line) registers its owner
  (:func:`pause_when_forking`): it is stopped and waited for before each fork and started again
  after it, in the process that registered it only (never in a child).

A child computes, pickles its answer into the pipe and leaves without running any exit handler.
If anything goes wrong (no fork, the child fails or dies, its answer is cut short),
:meth:`Forked.result` says so and the caller does the work itself: slower, never different.

No child outlives the work it was forked for.  A process that forked keeps each child it has not
collected (:func:`end_children` stops them): on SIGTERM (where nothing else handles it) it ends them
and then dies of the signal, as it would have without them (a shell sees 143); on Ctrl-C or any other
exit of the interpreter (a ``KeyboardInterrupt``, exit 130) an exit handler ends them; and a child that
ends (its work done or failed, or a SIGTERM of its own) ends its own children first.  A process killed
outright (SIGKILL, which nothing can handle) leaves its children to the kernel: each asks, when forked,
to be killed with the process that forked it (Linux's parent-death signal; forking happens on Linux
only), and leaves at once if that process is gone already.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import pickle
import select
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Protocol

__all__ = ["CGROUP", "ENV", "PAUSE_SECONDS", "Forked", "Pausable", "allowed", "cpus", "end_children", "fork",
           "pause_when_forking", "quota_cpus", "stop_pausing"]

ENV = "DAISHI_FORENSICS_PARALLEL"
"""``0``: never use a second process; ``1``: always (tests use it); unset: the caller's size rule
and a second CPU decide (:func:`allowed`)."""


CGROUP = Path("/sys/fs/cgroup")
"""Where Linux shows this process's control group (a container's own, inside a container)."""


def quota_cpus(root: Path = CGROUP) -> float | None:
    """The CPUs a CPU quota of this process's control group allows (quota / period: ``1.5`` for
    ``docker run --cpus 1.5``), or None when there is none or it cannot be read.  Version 2 keeps
    both in ``cpu.max`` (``max 100000``: no quota); version 1 in ``cpu.cfs_quota_us`` (``-1``: none)
    and ``cpu.cfs_period_us``, under ``cpu`` or ``cpu,cpuacct``.

    >>> quota_cpus(Path("/nonexistent")) is None
    True
    """
    try:
        quota, period = (root / "cpu.max").read_text(encoding="ascii").split()[:2]
        return None if quota == "max" else _ratio(quota, period)
    except (OSError, ValueError):
        pass
    for folder in ("cpu", "cpu,cpuacct"):
        try:
            quota = (root / folder / "cpu.cfs_quota_us").read_text(encoding="ascii").strip()
            period = (root / folder / "cpu.cfs_period_us").read_text(encoding="ascii").strip()
        except (OSError, ValueError):
            continue
        return _ratio(quota, period)
    return None


def _ratio(quota: str, period: str) -> float | None:
    """``quota / period`` when both are positive whole numbers, else None (no quota, or unreadable)."""
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    return q / p if q > 0 and p > 0 else None


def cpus() -> int:
    """The CPUs this process may use: those it may run on (its affinity, where the platform tells it),
    fewer where its control group's CPU quota allows fewer (:func:`quota_cpus`, whole CPUs only: a
    quota of 1.5 counts as 1, at least 1)."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        count = os.cpu_count() or 1
    quota = quota_cpus()
    return count if quota is None else max(1, min(count, int(quota)))


def allowed(large: bool) -> bool:
    """Whether to use a second process for work the caller judges ``large`` (worth a fork).

    Never in a pool worker (a process ``multiprocessing`` started, or a daemon); otherwise
    :data:`ENV` decides when set (``0`` no, ``1`` yes), else the work is large and a second
    CPU is available."""
    if multiprocessing.parent_process() is not None or multiprocessing.current_process().daemon:
        return False
    setting = os.environ.get(ENV, "").strip()
    if setting == "0":
        return False
    if setting == "1":
        return True
    return large and cpus() >= 2


class Forked:
    """A forked child computing ``fn()``; :meth:`result` collects its answer (once), :meth:`cancel`
    gives up on it."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        read_end, write_end = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child: compute, send, and leave without running any exit handler
            code = 1
            try:
                _die_with(parent)
                os.close(read_end)
                payload = pickle.dumps(fn(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write_end, "wb") as out:
                    out.write(payload)
                code = 0
            finally:
                try:
                    end_children()
                finally:
                    os._exit(code)
        _CHILDREN[pid] = parent
        os.close(write_end)
        self._fd = read_end
        self._pid = pid

    def ready(self) -> bool:
        """Whether the child has finished (its answer, or its end, is waiting in the pipe): not waiting."""
        try:
            return bool(select.select([self._fd], [], [], 0)[0])
        except (OSError, ValueError):
            return True

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
        status = _collect(self._pid)
        if status != 0 or not chunks:
            return False, None
        try:
            return True, pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 (a truncated answer: the caller does the work itself)
            return False, None

    def cancel(self) -> None:
        """Stop the child and forget its answer (the caller is giving up)."""
        try:
            os.kill(self._pid, signal.SIGKILL)
        except OSError:
            pass
        os.close(self._fd)
        _collect(self._pid)


_CHILDREN: dict[int, int] = {}
"""Every child forked and not yet collected, by process id: the process that forked it (a child's copy
of its parent's entries is not its own)."""

_PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal this process gets when the thread that forked it ends."""


def _collect(pid: int) -> int:
    """Wait for child ``pid`` to end and forget it: its exit status (-1 if it was collected already)."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = -1
    _CHILDREN.pop(pid, None)
    return status


def end_children() -> None:
    """Stop (SIGKILL) and collect every child this process forked and has not collected: a process that
    ends before its children's answers leaves none of them running."""
    here = os.getpid()
    for pid, parent in list(_CHILDREN.items()):
        if parent != here:
            continue
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        _collect(pid)


def _die_with(parent: int) -> None:
    """In a child: be killed (SIGKILL) when process ``parent`` that forked it ends (Linux's parent-death
    signal), and leave at once if it has ended already."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


_GUARDED: set[int] = set()
"""The processes that have set up :func:`_guard` (a child inherits its parent's, but not as its own)."""


def _guard() -> None:
    """In a process about to fork its first child: end the children at the interpreter's exit (Ctrl-C's
    ``KeyboardInterrupt`` included), and on SIGTERM where nothing else handles it (:func:`_terminated`)."""
    here = os.getpid()
    if here in _GUARDED:
        return
    _GUARDED.add(here)
    atexit.register(end_children)
    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread: the exit handler and the children's parent-death signal remain
        pass


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM: end the children, then die of the signal as the process would have without them."""
    end_children()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    os._exit(128 + signum)  # (only if the signal did not end the process)


class Pausable(Protocol):
    """The owner of a thread that may be stopped around a fork and started again."""

    def pause(self, timeout: float) -> None:
        """Stop the thread and wait for it to end, at most ``timeout`` seconds."""

    def resume(self) -> None:
        """Start the thread again (it goes on where it was)."""


PAUSE_SECONDS = 1.0
"""How long a fork waits for a registered thread to end; one still running then means no fork."""

_PAUSABLE: dict[int, tuple[Pausable, int]] = {}
"""The registered owners, by ``id``: each with the process that registered it."""


def pause_when_forking(owner: Pausable) -> None:
    """Have :func:`fork` pause ``owner``'s thread around each fork this process makes."""
    _PAUSABLE[id(owner)] = (owner, os.getpid())


def stop_pausing(owner: Pausable) -> None:
    """Forget ``owner`` (its thread has ended for good)."""
    _PAUSABLE.pop(id(owner), None)


@contextmanager
def _paused() -> Iterator[None]:
    """The registered threads of this process stopped (and waited for) inside, started again after."""
    here = os.getpid()
    paused: list[Pausable] = []
    try:
        for owner, pid in list(_PAUSABLE.values()):
            if pid == here:
                paused.append(owner)
                owner.pause(PAUSE_SECONDS)
        yield
    finally:
        for owner in paused:
            owner.resume()


def fork(fn: Callable[[], Any]) -> Forked | None:
    """``fn`` started in a forked child, or None where forking is not safe or not possible.  The
    registered threads (:func:`pause_when_forking`) are paused around it."""
    if not sys.platform.startswith("linux"):
        return None
    with _paused():
        if threading.active_count() != 1:
            return None
        _guard()
        try:
            return Forked(fn)
        except OSError:  # no fork (out of processes or memory): the caller does the work
            return None
