"""Plain tables for the terminal and for Markdown.

Cells are strings; a renderer escapes what it must (Markdown pipes, control
characters) before a cell reaches the page.  Hostile text stays text.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

from daishi_forensics.jsonio import shown

__all__ = ["cell", "text_table", "markdown_table", "clean", "github_escape"]


def clean(text: str, limit: int = 80) -> str:
    """One printable line: control characters become spaces, length capped (…)."""
    out = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text[: limit * 4])
    out = " ".join(out.split())
    return out if len(out) <= limit else out[: limit - 1] + "…"


CELL_DEPTH = 4
"""Lists inside a cell are joined to this depth; deeper (a value from the input), shown bounded."""


def cell(value: Any, _depth: int = CELL_DEPTH) -> str:
    """A value as a table cell: None → '–', floats without noise, lists joined."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}"
    if isinstance(value, (list, tuple)):
        if _depth <= 0:
            return clean(shown(value))
        return ", ".join(cell(v, _depth - 1) for v in value)
    if isinstance(value, dict):
        return clean(shown(value, limit=320))
    return clean(str(value))


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A fixed-width table; numbers right-aligned."""
    cells = [[cell(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    numeric = [all(isinstance(r[i], (int, float)) or r[i] is None for r in rows) and rows for i in range(len(headers))]

    def fmt(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if numeric[i] else v.ljust(w) for i, (v, w) in enumerate(zip(values, widths))]
        return "  ".join(parts).rstrip()

    lines = [fmt(headers), "  ".join("-" * w for w in widths)]
    lines.extend(fmt(row) for row in cells)
    return "\n".join(lines)


def _md_escape(text: str) -> str:
    for ch in "\\|`*_[]<>#":
        text = text.replace(ch, "\\" + ch)
    return text


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table; every cell escaped."""
    lines = ["| " + " | ".join(_md_escape(h) for h in headers) + " |",
             "|" + "|".join(" --- " for _ in headers) + "|"]
    lines.extend("| " + " | ".join(_md_escape(cell(v)) for v in row) + " |" for row in rows)
    return "\n".join(lines)


def github_escape(text: str, prop: bool = False) -> str:
    """Escape text for a GitHub workflow command (``::error file=…::message``); ``prop`` for a property value."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text
