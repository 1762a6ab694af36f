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

**Passes in the helper.**  :func:`~daishi_forensics.analysis.analyze` also hands the helper
the passes in :data:`~daishi_forensics.analysis.HELPER_PASSES` (the promises pass: about a
fifth of the replay's work on a large match).  The helper then runs the whole read boundary
itself (its own schema checks; per block it tells the indexes of the records its fast path
did not take, which the boundary then checks on its general path), replays the same events
through those passes, and sends them back pickled after a line ``R <bytes>``; the boundary's
process runs every other pass meanwhile, and leaves those to the helper.  Both boundaries are
the same code over the same file, so the passes see exactly the events they would have seen
here.  For the same reason such a helper's answer vouches for every other record of its block
(v3, a known type, valid, in order, this match's, on the map: each check the fast path makes),
and the boundary takes those records without checking them again (``ReadAhead.vouches``).  If the helper fails (it dies, or sends something that is not its answer), the
analysis runs those passes itself over a second read of the file: slower, the same result.
The helper is handed the match's header, errata and settings on its stdin.

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
import pickle
import subprocess
import sys
import threading
from pathlib import Path
from collections.abc import Iterable
from typing import Any, BinaryIO

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


def _send_block(out: BinaryIO, start: int, indexes: Iterable[int]) -> None:
    """One block's answer: its first record's index, then the indexes named (``b"4096 5000 5012\\n"``)."""
    out.write(b" ".join(str(k).encode() for k in (start, *indexes)) + b"\n")
    out.flush()


def _check_ahead(records: FileRecords, out: BinaryIO, block: int) -> None:
    """The helper: read the file, check each v3 record of a known type, and write one line per
    block: its first record's index, then the indexes that failed (``b"4096 5000 5012\\n"``)."""
    from .reading import _checker
    from .sources import _event_lines

    fast = _checker().fast_v3()
    bad: list[int] = []
    start = 0
    n = 0
    for index, _line, data, _error in _event_lines(Path(records.path), records.limits, records.skip_header):
        if type(data) is dict and data.get("schemaVersion") == 3:
            name = data.get("type")
            is_valid = fast.get(name) if type(name) is str else None
            if is_valid is not None and not is_valid(data):
                bad.append(index)
        n += 1
        if n == block:
            _send_block(out, start, bad)
            start += block
            n = 0
            bad = []
    if n:
        _send_block(out, start, bad)


class _Announcer:
    """Stands in the helper's own boundary where a helper's answers would be read (so it never
    starts a helper itself): asked for the answer of the block starting at record ``start``, it
    has finished every record before it, and sends the indexes of that block's records its
    fast path did not take; :meth:`close` (the read ended) sends the last block's."""

    taken = 0

    def __init__(self, out: BinaryIO, block: int, slow: list[int]) -> None:
        self.block = block
        self._out = out
        self._slow = slow
        self._start = 0

    def answer(self, start: int) -> None:
        if start > self._start:
            self._send()
            self._start = start
        return None  # the helper checks every record itself

    def _send(self) -> None:
        _send_block(self._out, self._start, self._slow)
        self._slow.clear()

    def close(self) -> None:
        self._send()


def _analyse_ahead(records: FileRecords, context: dict[str, Any], out: BinaryIO, block: int) -> None:
    """The helper that also runs passes: the whole read boundary on the same file (its own schema
    checks), writing per block the indexes of the records the boundary's fast path did not take
    (a record that failed its schema, and any other the general path must look at); then a replay
    of the named passes over the boundary's events, and the passes themselves, pickled, after a
    line ``R <bytes>``."""
    from .analysis import build_passes, paused_cycle_collection
    from .reading import MatchRead
    from .replay import replay
    from .sources import MatchSource, _event_lines

    path, limits, skip = Path(records.path), records.limits, records.skip_header
    source = MatchSource(context["name"], context["form"], context["header"],
                         lambda: _event_lines(path, limits, skip), errata=list(context["errata"]))
    read = MatchRead(source, strict=bool(context["strict"]), read_ahead=False)
    read.slow_records = []
    read._ahead = _Announcer(out, block, read.slow_records)  # type: ignore[assignment]
    archive = source.archive
    passes = build_passes(context["passes"], archive)
    with paused_cycle_collection():
        replay(read.events(), archive, list(passes.values()))
    payload = pickle.dumps(passes, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(b"R %d\n" % len(payload))
    out.write(payload)
    out.flush()


def main(argv: list[str] | None = None) -> int:
    """``python -m daishi_forensics.readahead SPEC`` (SPEC: JSON of the file, reader settings and
    block size; the boundary starts this, nobody else needs to)."""
    spec = json.loads((argv if argv is not None else sys.argv[1:])[0])
    records = FileRecords(spec["path"], Limits(**spec["limits"]), spec["skip_header"])
    try:
        if spec.get("passes"):
            # the match's header, errata and settings come on stdin (pickled by the boundary)
            context = pickle.load(sys.stdin.buffer)
            _analyse_ahead(records, context, sys.stdout.buffer, int(spec["block"]))
        else:
            _check_ahead(records, sys.stdout.buffer, int(spec["block"]))
    except (BrokenPipeError, OSError):
        return 0  # the boundary stopped reading
    except Exception:  # noqa: BLE001 (the boundary meets the same input and reports it itself)
        return 1
    return 0


class ReadAhead:
    """The boundary's side of the helper: answers per block, when they have arrived; and, when
    the helper runs passes too (``context``), those passes after the read (:meth:`passes`)."""

    def __init__(self, records: FileRecords, block: int | None = None,
                 context: dict[str, Any] | None = None) -> None:
        self.block = block = block or BLOCK
        spec = json.dumps({"path": records.path, "limits": dataclasses.asdict(records.limits),
                           "skip_header": records.skip_header, "block": block,
                           "passes": bool(context and context.get("passes"))})
        feed = pickle.dumps(context, protocol=pickle.HIGHEST_PROTOCOL) if context and context.get("passes") else None
        # A plain child interpreter running this module: unlike multiprocessing's spawn it never
        # re-imports the caller's script (a library user's unguarded script would run twice).
        self._process = subprocess.Popen(
            [sys.executable, "-m", "daishi_forensics.readahead", spec],
            stdin=subprocess.PIPE if feed is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={**os.environ, ENV: "0"},
        )
        if feed is not None:
            # written by a short-lived thread: a header larger than the pipe holds would otherwise
            # keep the boundary waiting until the child has started and read it
            threading.Thread(target=_feed, args=(self._process.stdin, feed), daemon=True).start()
        assert self._process.stdout is not None
        self._fd = self._process.stdout.fileno()
        os.set_blocking(self._fd, False)
        self._pending = b""
        self._answers: dict[int, frozenset[int]] = {}
        self._alive = True
        self._payload: bytearray | None = None  # the pickled passes, once their line has come
        self._payload_size = -1
        self.taken = 0
        """Blocks whose answer came from the helper (the rest the boundary checked itself)."""
        self.vouches = feed is not None
        """The helper runs the whole boundary (with passes): its answer for a block names every
        record the boundary's fast path would not take, not only those that failed a schema."""

    def _take(self, data: bytes, start: int) -> None:
        """Take the helper's output: block lines, then (with passes) ``R <bytes>`` and the payload."""
        if self._payload is not None:
            self._payload += data
            return
        data = self._pending + data
        at = 0
        while True:
            end = data.find(b"\n", at)
            if end < 0:
                break
            line = data[at:end]
            at = end + 1
            if line.startswith(b"R "):
                try:
                    self._payload_size = int(line[2:])
                except ValueError:
                    self._alive = False
                    return
                self._payload = bytearray(data[at:])
                self._pending = b""
                return
            try:
                first, *failed = (int(x) for x in line.split())
            except ValueError:
                self._alive = False  # not the helper's answer: stop listening
                return
            if first >= start:
                self._answers[first] = frozenset(failed)
        self._pending = data[at:]

    def _drain(self, start: int) -> None:
        """Read what the helper has written so far (never waiting)."""
        chunks = []
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
        if chunks:
            self._take(b"".join(chunks), start)

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

    def passes(self) -> dict[str, Any] | None:
        """The passes the helper ran, waiting for it to finish them; None if it failed (it died,
        or wrote something that is not its answer)."""
        try:
            os.set_blocking(self._fd, True)
            while self._alive:
                chunk = os.read(self._fd, 1 << 20)
                if not chunk:
                    break
                self._take(chunk, 1 << 62)
        except OSError:
            return None
        finally:
            self._alive = False
        payload = self._payload
        if payload is None or len(payload) != self._payload_size or self._process.wait() != 0:
            return None
        try:
            got = pickle.loads(payload)
        except Exception:  # noqa: BLE001 (a truncated or foreign payload: the caller runs the passes itself)
            return None
        return got if isinstance(got, dict) else None

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


def _feed(pipe: Any, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except OSError:  # the helper is gone: the boundary finds out by itself
        pass


def read_ahead_for(source: MatchSource, validate: bool, *, passes: tuple[str, ...] = (),
                   strict: bool = False) -> ReadAhead | None:
    """A started helper for reading ``source``, or None when the module rules say no.  With
    ``passes``, the helper also runs those (registered) passes over the same events."""
    records = source.file_records
    if not validate or not wanted(records):
        return None
    context = None
    if passes:
        context = {"passes": list(passes), "name": source.name, "form": source.form, "header": source.header,
                   "errata": source.errata, "strict": strict}
    try:
        return ReadAhead(records, context=context)  # type: ignore[arg-type]
    except (OSError, RuntimeError, ValueError, pickle.PicklingError):  # no interpreter to start: check here
        return None


if __name__ == "__main__":
    sys.exit(main())
