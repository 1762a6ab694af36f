"""How the process hands large freed buffers back to the system: at once, not when the heap's top is free.

The analyses build large arrays for a moment (a word table of every distinct text, the postings of a
match's rare words, the report's JSON text), tens of megabytes each, and free them.  The C library
(glibc) serves a request above its *mmap threshold* with pages of its own, returned to the system when
freed; below it, from the heap, which gives memory back only from its top.  glibc raises that
threshold each time such a block is freed (up to 32 MB), so after the first large array is freed the
next ones come from the heap, and a peak of the process's resident memory stays with it to the end,
where the next stage's peak adds to it.  Fixing the threshold at :data:`LARGE` keeps every block that
large on pages of its own (freed, returned); blocks below it (Python's objects, small arrays) are served
as before.  On the 9-seat million-event stream with real negotiation text for its messages, the
``behavior`` report's peak on one core fell from 548 to about 440 MiB with this alone, with the same CPU
time (at 128 KiB the page faults rose 25-fold and the system time doubled; at 4 and 8 MiB the same peak).

It changes no result: only where the allocator puts memory.  It is set once, when a command starts
(children forked later keep it); an operator's own ``MALLOC_MMAP_THRESHOLD_`` is left as it is, and
where the C library has no ``mallopt`` (not glibc: macOS, Windows) nothing is done.
"""

from __future__ import annotations

import os
import sys

LARGE = 8 << 20
"""The threshold, in bytes: a block this large or larger is given pages of its own (8 MiB: well above
the arrays made per message or per batch, where fresh pages each time would cost more than they save)."""

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter number for the threshold (``<malloc.h>``); setting it also stops the
threshold from moving."""


def return_large_buffers(threshold: int = LARGE) -> bool:
    """Fix the C allocator's mmap threshold at ``threshold`` bytes (module docstring); True when it took.

    >>> isinstance(return_large_buffers(), bool)
    True
    """
    if not sys.platform.startswith("linux") or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no such function in this C library
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, threshold))
