"""Writing what a command produces: files replaced whole or not at all, a stdout that may close.

**Files** (:func:`atomic_file`, :func:`write_file`).  The new content goes to a hidden
temporary file in the same folder, which is flushed and ``fsync``-ed and then renamed
over the target (``os.replace``, atomic on one file system), and the folder is synced.
A full disk, a missing folder or a permission error leaves the file that was there
before untouched and raises :class:`~daishi_forensics.errors.OutputError` (exit 74),
naming the path and the reason.  A target that exists and is not a regular file
(``/dev/null``, ``/dev/stdout``, a named pipe) is written in place: renaming over a
device would replace it.  A symbolic link is followed, so the link stays a link.  A
replaced file keeps its permission bits.  A writer that must not wait on such a file (the simulator,
whose outputs are only ever regular files) passes ``regular_only`` or calls :func:`refuse_non_regular`
first: the file is refused, naming it, and never opened.  Within a command's run (:func:`inputs_kept`), a
file it read as input (:func:`note_input`: the read boundary notes each match file it
opens, the transfer and study readers theirs) is never replaced: the command stops with an
:class:`~daishi_forensics.errors.OutputError` instead.

**Standard output** (:func:`write_stdout`).  The text is written and flushed at once, as UTF-8 bytes
when the stream's encoding lacks one of its characters (an ASCII or Latin-1 locale).
A reader that went away (``| head -1``) ends the output quietly: the rest is thrown away
and the command still exits with its own code, so ``validate … | head`` under
``pipefail`` still says whether the input was valid.  Any other failure (stdout on a
full disk) is an :class:`~daishi_forensics.errors.OutputError`.  Either way standard
output is pointed at ``/dev/null`` afterwards, so the interpreter's last flush cannot
fail again with a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from daishi_forensics.errors import OutputError
from daishi_forensics.textsafe import utf8_text

__all__ = ["append_file", "atomic_file", "inputs_kept", "note_input", "refuse_non_regular", "write_file",
           "write_stdout"]

_INPUTS: set[tuple[int, int, int, int]] | None = None
"""The files the running command read as input (:func:`note_input`): device, inode, size and modification
time (the last two so that a later file given a deleted input's inode is not taken for it); None outside a
command (:func:`inputs_kept`)."""


@contextlib.contextmanager
def inputs_kept() -> Iterator[None]:
    """A command's run: within it, a file noted as input (:func:`note_input`) is never replaced by an output
    (:func:`atomic_file`).  Outside one (a program using the package) nothing is noted: it may well write a
    file it read earlier, as the simulator regenerating a match does."""
    global _INPUTS
    before, _INPUTS = _INPUTS, set()
    try:
        yield
    finally:
        _INPUTS = before


def note_input(status: os.stat_result) -> None:
    """Remember a file the running command reads as input (its ``stat``): :func:`atomic_file` refuses to
    replace it, so an output never overwrites the evidence it was made from (``-o`` naming the match)."""
    if _INPUTS is not None:
        _INPUTS.add(_identity(status))


def _identity(status: os.stat_result) -> tuple[int, int, int, int]:
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


def _an_input(status: os.stat_result | None) -> bool:
    return status is not None and _INPUTS is not None and _identity(status) in _INPUTS


def _refused(name: str, done: str = "replace it") -> OutputError:
    return OutputError(f"is an input of this command: refused, the output would {done} (name another file)",
                       file=name)


def _reason(exc: OSError) -> str:
    """Why a file could not be written, in words: a missing folder is said as one only where the folder the
    system could not make the file in is indeed missing (``/proc`` exists, and makes no file)."""
    if exc.errno == errno.ENOENT:
        folder = Path(exc.filename).parent if isinstance(exc.filename, str) else None
        if folder is not None and folder.is_dir():
            return "the folder exists, but no file can be made in it"
        return "no such folder"
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    return exc.strerror or str(exc)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _kind(mode: int) -> str:
    for test, what in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return what
    return "not a regular file"


def _not_regular(name: str, mode: int) -> OutputError:
    return OutputError(f"is {_kind(mode)}, not a regular file: refused, never opened (remove it, or write "
                       "elsewhere)", file=name)


def refuse_non_regular(path: Path | str) -> None:
    """Raise :class:`~daishi_forensics.errors.OutputError` when ``path`` exists (a symbolic link followed) and is
    not a regular file (a named pipe, a device, a socket): for a writer that would otherwise wait on it or
    write into it.  A missing file, a folder, or one that cannot be looked at passes (writing it says why)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise _not_regular(str(path), mode)


@contextlib.contextmanager
def atomic_file(path: Path | str, *, binary: bool = False, sync: bool = True,
                regular_only: bool = False) -> Iterator[IO[Any]]:
    """A handle whose content replaces ``path`` only when the block ends without an error.

    An exception raised inside the block goes through unchanged (and nothing is replaced).
    ``sync=False`` leaves out the ``fsync`` of the file and its folder, for a caller that
    syncs many files in batches itself (the rename is atomic all the same).  ``regular_only``
    refuses a target that exists and is neither a regular file nor a folder (a named pipe, a
    device), never opening it, where it is otherwise written in place.

    Raises
    ------
    OutputError
        The file could not be written; the old one (if any) is untouched.
    """
    target = Path(os.path.realpath(path))
    name = str(path)
    encoding = None if binary else "utf-8"
    try:
        existing = os.stat(target)
    except OSError:
        existing = None
    if _an_input(existing):
        raise _refused(name)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        if regular_only and not stat.S_ISDIR(existing.st_mode):
            raise _not_regular(name, existing.st_mode)
        yield from _in_place(target, name, binary)
        return
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        handle = open(tmp, "xb" if binary else "x", encoding=encoding)
    except OSError as exc:
        raise OutputError(f"cannot write it ({_reason(exc)})", file=name) from None
    try:
        yield handle
        try:
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
            handle.close()
            if _an_input(existing):  # read as input while this was written (a streaming command opens it late)
                raise _refused(name)
            if existing is not None:
                os.chmod(tmp, stat.S_IMODE(existing.st_mode))
            os.replace(tmp, target)
        except OSError as exc:
            raise OutputError(f"cannot write it ({_reason(exc)}); the file there before is untouched",
                              file=name) from None
        if sync:
            _sync_folder(target.parent)
    finally:
        with contextlib.suppress(OSError):
            handle.close()
        with contextlib.suppress(OSError):
            tmp.unlink()


def _in_place(target: Path, name: str, binary: bool) -> Iterator[IO[Any]]:
    """Write a device, pipe or other non-regular file directly."""
    try:
        handle = open(target, "wb" if binary else "w", encoding=None if binary else "utf-8")
    except OSError as exc:
        raise OutputError(f"cannot write it ({_reason(exc)})", file=name) from None
    try:
        yield handle
        handle.flush()
    except OSError as exc:
        raise OutputError(f"cannot write it ({_reason(exc)})", file=name) from None
    finally:
        with contextlib.suppress(OSError):
            handle.close()


def write_file(path: Path | str, data: str | bytes, *, sync: bool = True, regular_only: bool = False) -> None:
    """Replace ``path`` with ``data`` (see :func:`atomic_file`)."""
    with atomic_file(path, binary=isinstance(data, bytes), sync=sync, regular_only=regular_only) as handle:
        handle.write(data if isinstance(data, bytes) else utf8_text(data))


def append_file(path: Path | str, text: str) -> None:
    """Add ``text`` (UTF-8) at the end of ``path``, created when missing: for a file that others write to as
    well (a CI step's summary), never replaced.  A file this command read as input is refused, as
    :func:`atomic_file` refuses it; a named pipe no one reads is an error, not a wait.

    Raises
    ------
    OutputError
        The file could not be written.
    """
    name = str(path)
    try:
        existing = os.stat(path)
    except OSError:
        existing = None
    if _an_input(existing):
        raise _refused(name, "be added to it")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
        with open(fd, "a", encoding="utf-8", closefd=True) as handle:
            handle.write(utf8_text(text))
    except OSError as exc:
        raise OutputError(f"cannot write it ({_reason(exc)})", file=name) from None


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null (nothing more reaches the closed or full stream)."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _write_utf8(text: str | bytes) -> None:
    """``text`` to standard output as UTF-8 bytes (``bytes`` are UTF-8 already), whatever the stream's own
    encoding: what JSON must be (RFC 8259) and what the reports are written in; a terminal of another encoding
    shows the few characters it lacks garbled, where writing in its encoding would stop the command.  A stream
    without bytes underneath gets those characters escaped (``\\xb7``)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        chars = text.decode("utf-8") if isinstance(text, bytes) else text
        encoding = getattr(sys.stdout, "encoding", None) or "ascii"
        sys.stdout.write(chars.encode(encoding, "backslashreplace").decode(encoding))
        return
    sys.stdout.flush()
    buffer.write(text if isinstance(text, bytes) else text.encode("utf-8"))


def write_stdout(text: str | bytes) -> None:
    """Write ``text`` to standard output and flush it (see the module docs); ``bytes`` are UTF-8 text
    already, written as they are (a stream without bytes underneath gets them as text).

    Raises
    ------
    OutputError
        Standard output failed for another reason than a reader that went away.
    """
    if sys.stdout is None:  # started with standard output closed (``>&-``): Python has no stream for it
        raise OutputError("cannot write it (it is closed)", file="standard output")
    if isinstance(text, bytes) and getattr(sys.stdout, "buffer", None) is None:
        text = text.decode("utf-8")  # a stream without bytes underneath: written as text
    try:
        if isinstance(text, bytes):
            _write_utf8(text)
        else:
            text = utf8_text(text)  # a file name's bytes: the same characters in every locale
            try:
                sys.stdout.write(text)
            except UnicodeEncodeError:  # a stream whose encoding lacks a character (an ASCII or Latin-1 locale)
                _write_utf8(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    except OSError as exc:
        _silence_stdout()
        raise OutputError(f"cannot write it ({_reason(exc)})", file="standard output") from None
