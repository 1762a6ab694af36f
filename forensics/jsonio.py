"""Deterministic JSON in and out.

Every JSON document the tool writes goes through :func:`dumps`: keys sorted,
two-space indent, UTF-8, a trailing newline, and no NaN or Infinity (a non-finite
number is a bug, not data).  Same input, same bytes.

JSON escapes the C0 controls itself; the characters it may leave raw but a terminal or
a viewer would obey (DEL, the C1 controls, the line and paragraph separators and the
bidirectional controls of :data:`daishi_forensics.textsafe.CONTROLS`) are written as
``\\uXXXX`` escapes too.  They can only stand inside a string, where the escape means
the very same character, so a parser reads the same document.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from daishi_forensics.textsafe import CONTROLS

__all__ = ["dumps", "dumps_line", "loads"]

loads = orjson.loads


_RAW = re.compile("[" + "".join(sorted(c for c in CONTROLS if ord(c) >= 0x20)) + "]")


def _escape_raw(text: str) -> str:
    """Controls JSON leaves raw, as ``\\uXXXX`` (only ever inside a string)."""
    if _RAW.search(text) is None:
        return text
    return _RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def dumps(obj: Any) -> str:
    """Pretty, key-sorted JSON text ending in a newline."""
    return _escape_raw(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode()) + "\n"


def dumps_line(obj: Any) -> str:
    """Compact, key-sorted JSON on one line (for JSON Lines output), with newline."""
    return _escape_raw(orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode()) + "\n"
