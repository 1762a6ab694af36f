"""Plain tables for the terminal and for Markdown.

Cells are strings; a renderer escapes what it must (Markdown pipes, control
characters) before a cell reaches the page.  Hostile text stays text: every control
character is written out by :func:`daishi_forensics.textsafe.shown` (``\\x1b``, ``\\n``).
"""

from __future__ import annotations

from typing import Any, Sequence

from daishi_forensics.jsonio import shown as bounded
from daishi_forensics.textsafe import shown

__all__ = ["cell", "text_table", "markdown_table", "clean", "github_escape"]


def clean(text: str, limit: int = 80) -> str:
    """One printable line: control characters written out (:func:`~daishi_forensics.textsafe.shown`),
    runs of spaces collapsed, length capped (…)."""
    out = " ".join(shown(text[: limit * 4]).split())
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
            return clean(bounded(value))
        return ", ".join(cell(v, _depth - 1) for v in value)
    if isinstance(value, dict):
        return clean(bounded(value, limit=320))
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
    """Escape text for a GitHub workflow command (``::error file=…::message``); ``prop`` for a property value.

    GitHub's rules: ``%``, ``\\r`` and ``\\n`` as ``%25``, ``%0D``, ``%0A`` everywhere, and ``:`` and
    ``,`` as ``%3A``, ``%2C`` in a property; then every other control character written out.

    >>> github_escape("x\\n::error file=a::b")
    'x%0A::error file=a::b'
    >>> github_escape("a:b,c", True)
    'a%3Ab%2Cc'
    """
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return shown(text)
