"""No forked child outlives the command that forked it (``replay/fork.py``).

A ``screen`` or ``behavior`` run on a large match forks children (the replay's second half, the screens
and sections computed aside, Presidio ahead).  A SIGTERM to the command (a supervisor, ``timeout``,
``kill``) ended the command at once and left each child running until its work was done, 1 to 2 s on a
large match, or for good on work that never ends.  Each test runs a process of its own and sends it the
signal, then looks for the children's process ids."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forking happens on Linux only")

_FORKS = r"""
import os, sys, time
from daishi_forensics.replay.fork import fork

def inner():
    grandchild = fork(lambda: time.sleep(60))  # a child's own child
    os.write(1, f"grandchild {grandchild._pid}\n".encode())  # one write: never interleaved with the parent's
    time.sleep(60)

child = fork(inner if sys.argv[1] == "nested" else (lambda: time.sleep(60)))
os.write(1, f"child {child._pid}\n".encode())
child.result()  # waits for an answer that does not come before the signal
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended and waiting to be collected, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _started(how: str) -> tuple[subprocess.Popen[str], list[int]]:
    """The process forking as ``_FORKS`` does, and the ids of its descendants once all are forked: its
    child's, then (``nested``) its grandchild's."""
    process = subprocess.Popen([sys.executable, "-c", _FORKS, how], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    said = dict(process.stdout.readline().split() for _ in range(2 if how == "nested" else 1))
    pids = [int(said[name]) for name in ("child", "grandchild") if name in said]
    time.sleep(0.2)  # the parent waits in its child's pipe
    assert all(_alive(pid) for pid in pids)
    return process, pids


def _signalled(process: subprocess.Popen[str], signum: int) -> int:
    """Send ``signum``; the process's return code once it has ended."""
    process.send_signal(signum)
    try:
        return process.wait(timeout=10)
    finally:
        assert process.stdout is not None
        process.stdout.close()


def _ended_soon(pids: list[int], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(_alive(pid) for pid in pids)


def test_sigterm_ends_the_children_before_the_process_dies_of_it() -> None:
    """The child is stopped and collected by the time the process has ended, and the process still ends
    by the signal (a shell sees 143)."""
    process, [child] = _started("flat")
    assert _signalled(process, signal.SIGTERM) == -signal.SIGTERM
    assert not _alive(child)


def test_sigterm_ends_a_childs_own_children_too() -> None:
    process, [child, grandchild] = _started("nested")
    assert _signalled(process, signal.SIGTERM) == -signal.SIGTERM
    assert not _alive(child)
    assert _ended_soon([grandchild])


def test_ctrl_c_ends_the_children() -> None:
    """SIGINT is Python's ``KeyboardInterrupt``: the children end as the interpreter exits."""
    process, [child] = _started("flat")
    assert _signalled(process, signal.SIGINT) == -signal.SIGINT  # (Python's way to end on an uncaught Ctrl-C)
    assert not _alive(child)


def test_a_child_does_not_outlive_a_process_killed_outright() -> None:
    """SIGKILL cannot be handled: each child asked to die with the process that forked it."""
    process, pids = _started("nested")
    assert _signalled(process, signal.SIGKILL) == -signal.SIGKILL
    assert _ended_soon(pids)


def _descendants(root: int, depth: int = 1_000) -> set[int]:
    """The processes ``root`` forked, and theirs, to ``depth`` generations."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", encoding="ascii") as handle:
                    parents[int(name)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found: set[int] = set()
    frontier = {root}
    for _ in range(depth):
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        if not frontier:
            break
        found |= frontier
    return found


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A match whose children have work for a good part of a second (the screens' child) or more (the replay's)."""
    from daishi_forensics.simulate import simulate_to_dir

    return simulate_to_dir("ring", 3, 3, tmp_path_factory.mktemp("large"), "stream", truth_file=None, n_agents=12,
                           target_events=200_000)


@pytest.mark.parametrize(("command", "signum", "code"), [("screen", signal.SIGTERM, -signal.SIGTERM),
                                                         ("behavior", signal.SIGTERM, -signal.SIGTERM),
                                                         ("screen", signal.SIGINT, 130)])
def test_a_command_stopped_by_a_signal_leaves_no_child_running(command: str, signum: int, code: int, large: Path,
                                                              tmp_path: Path) -> None:
    """``screen`` or ``behavior`` of a match whose work is split (the setting forces it whatever the size) is
    sent SIGTERM (or SIGINT) once it has forked (``behavior``: once a child has been at work a moment; its
    first, Presidio's, stops at once on a match the replay splits): it ends by the signal (Ctrl-C: 130,
    'interrupted'), and every process it forked is gone with it, where a child went on with its work
    (screening, replaying) after the command had ended.  The signal is sent only while a child of the command is
    at work (so the command is not past its own work, where a late signal would find it exiting with its
    findings' code); a run that ended before one was caught at work tested nothing and is run again (three at
    most)."""
    age = 0.2 if command == "behavior" else 0.0
    env = {**os.environ, "DAISHI_FORENSICS_PARALLEL": "1"}
    for _attempt in range(3):  # a run that ended before any child was caught alive tested nothing: run it again
        with open(tmp_path / "err", "wb") as err:
            process = subprocess.Popen([sys.executable, "-c", "from daishi_forensics.cli import main; main()",
                                        command, str(large)], stdout=subprocess.DEVNULL, stderr=err, env=env)
            first: dict[int, float] = {}
            children: set[int] = set()
            sent = False
            deadline = time.monotonic() + 120
            while process.poll() is None and time.monotonic() < deadline:
                now = time.monotonic()
                running = _descendants(process.pid)
                for pid in running:
                    first.setdefault(pid, now)
                if any(now - first[pid] >= age for pid in running):
                    children = _descendants(process.pid, depth=1)
                    # a child still at work: the command is not past its work (it waits for that child), so it
                    # meets the signal there, not in its last moments
                    if any(_alive(pid) for pid in children):
                        process.send_signal(signum)
                        sent = True
                        break
                time.sleep(0.005)
            code_seen = process.wait(timeout=20)
        if sent:
            break
    assert first, "no child was forked"
    assert sent, "the command ended three times before a child of it was caught at work"
    assert code_seen == code
    assert not [pid for pid in children if _alive(pid)]  # collected before the command ended
    assert _ended_soon(list(first), 0.2), [pid for pid in first if _alive(pid)]  # and theirs with them
    if signum == signal.SIGINT:
        assert (tmp_path / "err").read_text().splitlines()[-1] == "daishi-forensics: interrupted"
