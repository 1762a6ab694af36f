"""Deterministic JSON in and out.

Every JSON document the tool writes goes through :func:`dumps`: keys sorted,
two-space indent, UTF-8, a trailing newline, and no NaN or Infinity (a non-finite
number is a bug, not data).  Same input, same bytes.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps", "dumps_line", "loads"]

loads = orjson.loads


def dumps(obj: Any) -> str:
    """Pretty, key-sorted JSON text ending in a newline."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode() + "\n"


def dumps_line(obj: Any) -> str:
    """Compact, key-sorted JSON on one line (for JSON Lines output), with newline."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode() + "\n"
