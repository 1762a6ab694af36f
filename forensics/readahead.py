"""Schema checks read ahead on the second core (the read boundary's v3 fast path).

The read boundary (:meth:`daishi_forensics.reading.MatchRead.events`) checks every v3
record of a known type against its compiled JSON Schema before anything downstream
sees it; on a large stream that check is a fifth of the whole analysis.  When the
match is a local file (a stream, or a folder's ``events.jsonl``) of at least
:data:`READ_AHEAD_BYTES` on disk and a second CPU is available, the boundary starts
one helper process that reads **the same file with the same reader** and runs **the
same compiled validators** on the same records, and sends back, per block of
:data:`BLOCK` records, the indexes of the records that failed.

The rule that keeps the output identical: when the boundary starts a block, it takes
the helper's answer for that block if it has already arrived, and checks the block's
records itself otherwise.  Either way the same check decides each record, so the
report is the same bytes with or without the helper (only who spent the CPU differs);
a record the helper says failed goes down the boundary's general path, which checks it
again and reports the problem with its file, line, event id and JSON path as always.
The helper never blocks the boundary: if it is slow, dies, or cannot start, the
boundary simply keeps checking by itself.

When the helper is used: ``DAISHI_FORENSICS_READ_AHEAD=0`` never, ``=1`` always
(for a file source; tests use it), unset: for files of at least
:data:`READ_AHEAD_BYTES`, with two CPUs available to this process, outside a daemonic
process (a process-pool worker of ``season``: it already uses the cores).  The helper is a
plain child interpreter, ``python -m daishi_forensics.readahead`` (never a fork: the
caller may hold threads; never multiprocessing's spawn: that re-imports the caller's
script), writing one line per block to a pipe the boundary reads without waiting; it
is stopped when the read ends or is abandoned.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from typing import BinaryIO

from .sources import FileRecords, Limits, MatchSource

__all__ = ["BLOCK", "READ_AHEAD_BYTES", "ReadAhead", "read_ahead_for"]

BLOCK = 4096
"""Records per answer the helper sends (block ``k`` holds records ``k*BLOCK`` to ``(k+1)*BLOCK - 1``)."""

READ_AHEAD_BYTES = 32 << 20
"""Files at least this large on disk get the helper (a smaller one reads in about a second)."""

ENV = "DAISHI_FORENSICS_READ_AHEAD"


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def wanted(records: FileRecords | None) -> bool:
    """Whether a read of ``records`` should get the helper (module rules)."""
    if records is None:
        return False
    setting = os.environ.get(ENV, "").strip()
    if setting == "0":
        return False
    if multiprocessing.current_process().daemon:
        return False
    if setting == "1":
        return True
    try:
        size = os.stat(records.path).st_size
    except OSError:
        return False
    return size >= READ_AHEAD_BYTES and _cpus() >= 2


def _check_ahead(records: FileRecords, out: BinaryIO, block: int) -> None:
    """The helper: read the file, check each v3 record of a known type, and write one line per
    block: its first record's index, then the indexes that failed (``b"4096 5000 5012\\n"``)."""
    from .reading import _checker
    from .sources import _event_lines

    fast = _checker().fast_v3()
    bad: list[int] = []
    start = 0
    n = 0

    def send() -> None:
        out.write(b" ".join(str(k).encode() for k in (start, *bad)) + b"\n")
        out.flush()

    for index, _line, data, _error in _event_lines(Path(records.path), records.limits, records.skip_header):
        if type(data) is dict and data.get("schemaVersion") == 3:
            name = data.get("type")
            is_valid = fast.get(name) if type(name) is str else None
            if is_valid is not None and not is_valid(data):
                bad.append(index)
        n += 1
        if n == block:
            send()
            start += block
            n = 0
            bad = []
    if n:
        send()


def main(argv: list[str] | None = None) -> int:
    """``python -m daishi_forensics.readahead SPEC`` (SPEC: JSON of the file, reader settings and
    block size; the boundary starts this, nobody else needs to)."""
    spec = json.loads((argv if argv is not None else sys.argv[1:])[0])
    records = FileRecords(spec["path"], Limits(**spec["limits"]), spec["skip_header"])
    try:
        _check_ahead(records, sys.stdout.buffer, int(spec["block"]))
    except (BrokenPipeError, OSError):
        return 0  # the boundary stopped reading
    except Exception:  # noqa: BLE001 (the boundary meets the same input and reports it itself)
        return 1
    return 0


class ReadAhead:
    """The boundary's side of the helper: answers per block, when they have arrived."""

    def __init__(self, records: FileRecords, block: int | None = None) -> None:
        self.block = block = block or BLOCK
        spec = json.dumps({"path": records.path, "limits": dataclasses.asdict(records.limits),
                           "skip_header": records.skip_header, "block": block})
        # A plain child interpreter running this module: unlike multiprocessing's spawn it never
        # re-imports the caller's script (a library user's unguarded script would run twice).
        self._process = subprocess.Popen(
            [sys.executable, "-m", "daishi_forensics.readahead", spec],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={**os.environ, ENV: "0"},
        )
        assert self._process.stdout is not None
        self._fd = self._process.stdout.fileno()
        os.set_blocking(self._fd, False)
        self._pending = b""
        self._answers: dict[int, frozenset[int]] = {}
        self._alive = True
        self.taken = 0
        """Blocks whose answer came from the helper (the rest the boundary checked itself)."""

    def _drain(self, start: int) -> None:
        """Read what the helper has written so far (never waiting)."""
        chunks = [self._pending]
        while True:
            try:
                chunk = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                self._alive = False
                break
            if not chunk:  # the helper finished (or died)
                self._alive = False
                break
            chunks.append(chunk)
        data = b"".join(chunks)
        cut = data.rfind(b"\n") + 1
        self._pending = data[cut:]
        for line in data[:cut].splitlines():
            try:
                first, *failed = (int(x) for x in line.split())
            except ValueError:
                self._alive = False  # not the helper's answer: stop listening
                return
            if first >= start:
                self._answers[first] = frozenset(failed)

    def answer(self, start: int) -> frozenset[int] | None:
        """The indexes that failed in the block starting at record ``start``, if the helper's
        answer has arrived; None (check the block yourself) otherwise."""
        if self._alive:
            self._drain(start)
        answers = self._answers
        got = answers.pop(start, None)
        if answers and min(answers) < start:  # blocks the boundary has passed
            for key in [k for k in answers if k < start]:
                del answers[key]
        if got is not None:
            self.taken += 1
        return got

    def close(self) -> None:
        """Stop the helper (idempotent)."""
        self._alive = False
        process = self._process
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def read_ahead_for(source: MatchSource, validate: bool) -> ReadAhead | None:
    """A started helper for reading ``source``, or None when the module rules say no."""
    records = source.file_records
    if not validate or not wanted(records):
        return None
    try:
        return ReadAhead(records)  # type: ignore[arg-type]
    except (OSError, RuntimeError, ValueError):  # no interpreter to start: check here
        return None


if __name__ == "__main__":
    sys.exit(main())
