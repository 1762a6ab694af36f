"""When a match's replay is split between two processes: the size rule alone (the replay's two-process
code is :mod:`daishi_forensics.replay._halves`; a caller that must leave the second CPU to it reads the
rule here, without importing the replay)."""

from __future__ import annotations

import os

__all__ = ["SPLIT_BYTES", "parse_bytes"]

SPLIT_BYTES = 16 << 20
"""A file of at least this many bytes to parse (about 60,000 events of a plain stream; a gzip file
counts what it inflates to) is replayed on two cores; a smaller one's replay takes about a second,
of which a second core would save little."""


def parse_bytes(path: str) -> int:
    """The bytes a read of ``path`` parses: its size; for a gzip file (``.gz``) the size it inflates
    to as its trailer says (gzip keeps it modulo 2^32, and of the last member only), never less than
    the file's own size.  Only the choice of one process or two rests on it."""
    size = os.stat(path).st_size
    if path.endswith(".gz") and size >= 18:  # (a gzip member's header and trailer alone take 18 bytes)
        with open(path, "rb") as handle:
            handle.seek(-4, os.SEEK_END)
            size = max(size, int.from_bytes(handle.read(4), "little"))
    return size
