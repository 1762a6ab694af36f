"""Tables for the terminal and for Markdown.

Hostile text stays text: every control character is written out by
:func:`daishi_forensics.textsafe.shown` (``\\x1b``, ``\\n``) before a cell reaches a page,
and Markdown's own characters are escaped.

A terminal table fits the width it is given and never cuts a cell: a cell too wide for
its column wraps (at spaces; a word longer than the column is broken across lines, not
dropped), and a table with more columns than fit is printed in several parts, each
repeating the first column, so every row can still be read across.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from daishi_forensics.jsonio import shown as bounded
from daishi_forensics.textsafe import md_bold, md_escape, shown, shown_ends

from .cells import MAX_IDS_TEXT, Agent, EventIds, Figure, Level, is_number

__all__ = ["cell", "text_table", "text_records", "markdown_table", "clean", "github_escape", "wrap",
           "paint", "COLORS", "display_width", "pad", "md_escape"]

SEP = "  "

COLORS = {"flag": "31;1", "review": "33;1", "clear": "32"}
"""ANSI colours of the levels on a terminal: flag red, review yellow, clear green."""


def paint(text: str, level: str | None, color: bool) -> str:
    """``text`` in the colour of ``level`` when ``color`` (the renderer's own escape codes, around text
    already made safe)."""
    code = COLORS.get(level or "")
    return f"\x1b[{code}m{text}\x1b[0m" if color and code and text else text


def clean(text: str) -> str:
    """One printable line: control characters written out (:func:`~daishi_forensics.textsafe.shown`),
    runs of spaces collapsed.  Nothing is cut."""
    return " ".join(shown(text).split())


CELL_DEPTH = 4
"""Lists inside a cell are joined to this depth; deeper (a value from the input), shown bounded."""


def _ids(value: EventIds, limit: int | None) -> str:
    ids = list(value.ids)
    listed = ids if limit is None else ids[:limit]
    more = value.count() - len(listed)
    if not listed and more > 0:
        return f"{more:,} event{'s' if more != 1 else ''} (ids not listed)"
    return ", ".join(map(str, listed)) + (f" (+{more} more)" if more > 0 else "")


def cell(value: Any, *, ids_limit: int | None = MAX_IDS_TEXT, _depth: int = CELL_DEPTH) -> str:
    """A value as a table cell: None -> '–', floats at three places at most, lists joined (to
    :data:`CELL_DEPTH`; deeper, and any mapping, shown bounded), a seat as ``Name (id)``, event ids
    listed (the first :data:`MAX_IDS_TEXT`, then how many more).  A seat's name or a text with a space at
    either end shows it written out (``\\x20Ash (a_2)``: :func:`~daishi_forensics.textsafe.shown_ends`), where
    a table would trim it, so ``" Ash"`` and ``"Ash"`` differ.  Inside a text, a run of spaces is one; inside a
    seat's name, a run of spaces (or a space other than U+0020) is written out too
    (:meth:`~.cells.Agent.shown_label`), so ``"Ash  Vale"`` and ``"Ash Vale"`` differ.

    >>> cell(Agent("a_2", " Ash")), cell(Agent("a_1", "Ash")), cell("gpt\u00a0"), cell(Agent("a_3"))
    ('\\\\x20Ash (a_2)', 'Ash (a_1)', 'gpt\\\\xa0', 'a_3')
    >>> cell(Agent("a_4", "Ash  Vale")), cell("Ash  Vale")
    ('Ash\\\\x20\\\\x20Vale (a_4)', 'Ash Vale')
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return str(value)
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:.0f}"
    if isinstance(value, Agent):
        return clean(value.shown_label())
    if isinstance(value, EventIds):
        return _ids(value, ids_limit)
    if isinstance(value, Level):
        return clean(value.level)
    if isinstance(value, Figure):
        return clean(value.text)
    if isinstance(value, (list, tuple)):
        if _depth <= 0:
            return clean(bounded(value))
        return ", ".join(cell(v, ids_limit=ids_limit, _depth=_depth - 1) for v in value)
    if isinstance(value, dict):
        return clean(bounded(value, limit=320))
    return clean(shown_ends(str(value)))


def _level(value: Any) -> str | None:
    return value.level if isinstance(value, Level) else None


_ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf"})
"""Marks drawn on the character before them (nonspacing and enclosing marks: an accent, a Thai vowel
sign, a variation selector) and format characters (zero-width space and joiner, word joiner, byte-order
mark): no column of their own."""


def _char_width(ch: str) -> int:
    """Columns a terminal gives ``ch``: 2 for a wide or full-width character (CJK, full-width forms,
    emoji), 0 for a mark or a zero-width format character (the soft hyphen excepted: it is shown), else 1."""
    if unicodedata.category(ch) in _ZERO_WIDTH_CATEGORIES and ch != "\u00ad":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal (:func:`_char_width` of each character).

    >>> display_width("Ash"), display_width("アッシュ"), display_width("e\u0301")
    (3, 8, 1)
    """
    return len(text) if text.isascii() else sum(_char_width(ch) for ch in text)


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (on the left when ``right``)."""
    fill = " " * max(width - display_width(text), 0)
    return fill + text if right else text + fill


def _chunks(word: str, width: int) -> list[str]:
    """A word longer than ``width`` columns, cut into pieces that fit (a wide character is never split)."""
    out, piece, used = [], "", 0
    for ch in word:
        w = _char_width(ch)
        if piece and used + w > width:
            out.append(piece)
            piece, used = "", 0
        piece += ch
        used += w
    return out + [piece] if piece else out


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns (words kept whole when they fit; a wide character
    counts two columns)."""
    if not text:
        return [""]
    width = max(width, 1)
    if all(_char_width(ch) == 1 for ch in text):
        return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]
    lines: list[str] = []
    line, used = "", 0
    for token in re.findall(r"\S+|\s+", text):
        size = display_width(token)
        if token.isspace():
            if line:
                line, used = line + token, used + size
            continue
        if used + size > width and line.strip():
            lines.append(line.rstrip())
            line, used = "", 0
        if size > width:
            pieces = _chunks(token, width)
            if line.strip():
                lines.append(line.rstrip())
            lines.extend(pieces[:-1])
            line, used = pieces[-1], display_width(pieces[-1])
            continue
        line, used = (line if line.strip() else "") + token, (used if line.strip() else 0) + size
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


NONE = "–"
"""How a cell with no value reads (:func:`cell` of ``None``); a text cell of a table may hold it too (no share
of probes, no promise): a column of numbers with it is still a column of numbers."""


def _numeric(rows: Sequence[Sequence[Any]], i: int) -> bool:
    """Whether column ``i`` is a column of numbers, aligned right: every cell a number as a page's numeric cell
    holds it (:func:`~.cells.is_number`: an int, a float, a :class:`~.cells.Figure`, or a text that is a number,
    an interval ``0.439–1.000``, a range ``0–239``, a share ``1/3``, a p-value ``5.96e-08``) or none (``None``,
    ``–``); a column whose every cell is the text ``–`` (a model no seat names) is text, as it was.

    >>> _numeric([[1, "1/3"], [None, "–"], [2.5, "0.439–1.000"]], 1), _numeric([["5.96e-08"], ["gpt-5"]], 0)
    (True, False)
    >>> _numeric([["–"], ["–"]], 0), _numeric([[None], [None]], 0)
    (False, True)
    """
    values = [r[i] for r in rows]
    return (bool(values) and all(v is None or v == NONE or is_number(v) for v in values)
            and not all(v == NONE for v in values))


def _longest_word(text: str) -> int:
    return max((display_width(w) for w in text.split()), default=0)


def _minimum(head: str, values: list[str], numeric: bool, cap: int) -> int:
    """The narrowest a column may be: its header's longest word; a number whole; a text's longest word
    (at most ``cap``: a longer word is broken), and never under 8 characters unless all of it is shorter."""
    natural = max([display_width(head), *(display_width(v) for v in values)])
    if numeric:
        need = max([display_width(v) for v in values] or [1])
    else:
        need = max(min(cap, max([_longest_word(v) for v in values] or [0])), min(natural, 8))
    return min(max(_longest_word(head), need, 1), natural)


def _fill(natural: list[int], minimum: list[int], room: int) -> list[int]:
    """Water-filling: every column ``max(its minimum, min(its natural width, L))`` for the largest level
    ``L`` that fits, so narrow columns stay whole and the widest wrap; what is left goes to the widest."""
    lo, hi = 0, max(natural, default=0)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if sum(max(m, min(n, mid)) for n, m in zip(natural, minimum)) <= room:
            lo = mid
        else:
            hi = mid - 1
    widths = [max(m, min(n, lo)) for n, m in zip(natural, minimum)]
    spare = room - sum(widths)
    for i in sorted(range(len(widths)), key=lambda k: (-natural[k], k)):
        if spare <= 0:
            break
        grow = min(natural[i] - widths[i], spare)
        if grow > 0:
            widths[i] += grow
            spare -= grow
    return widths


def _widths(natural: list[int], cells: list[int], minimum: list[int], room: int) -> list[int]:
    """Column widths within ``room``: natural when they fit; else headers wrap first (each column as wide
    as its widest cell), then cells wrap (:func:`_fill`)."""
    if sum(natural) <= room:
        return list(natural)
    base = [max(c, m) for c, m in zip(cells, minimum)]
    if sum(base) <= room:
        return _fill(natural, base, room)
    return _fill(base, minimum, room)


NARROWEST_TEXT = 6
"""The narrowest a text column is squeezed to so that a part of a table fits the width (its words are
broken to fit)."""


def _squeeze(widths: list[int], numeric: list[bool], room: int) -> list[int]:
    """``widths`` narrowed, widest text column first, until they fit ``room`` (the columns of a part whose
    key columns repeat: two names and a list of names at their minimum can be wider than the terminal).
    Numbers stay whole and a text column keeps at least :data:`NARROWEST_TEXT` columns, so a part may
    still be wider when even that does not fit."""
    out = list(widths)
    while sum(out) > room:
        text = [k for k in range(len(out)) if not numeric[k] and out[k] > NARROWEST_TEXT]
        if not text:
            break
        widest = max(text, key=lambda k: (out[k], -k))
        out[widest] -= 1
    return out


def _partition(widths: list[int], capacity: int) -> list[list[int]]:
    """Consecutive runs of column indexes whose widths (plus separators) stay within ``capacity``."""
    groups: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        need = w + len(SEP)
        if groups[-1] and used + need > capacity:
            groups.append([])
            used = 0
        groups[-1].append(i)
        used += need
    return groups


def _groups(widest: list[int], minimum: list[int], width: int, key: int) -> list[list[int]]:
    """The columns of each part of a table too wide for ``width``: every part starts with the first ``key``
    columns; the rest are split in order into as few parts as keep each cell unwrapped (as few as fit at
    all when even that is too wide), balanced so the parts are about as wide as each other."""
    n = len(widest)
    head = list(range(min(key, n)))
    rest = list(range(len(head), n))
    if not rest:
        return [head]
    base = sum(widest[i] for i in head) + len(SEP) * max(len(head) - 1, 0)
    room = width - base
    sizes = [widest[i] for i in rest]
    if sum(w + len(SEP) for w in sizes) <= room:
        return [head + rest]
    if max(sizes) + len(SEP) > room:
        sizes = [minimum[i] for i in rest]
        room = width - (sum(minimum[i] for i in head) + len(SEP) * max(len(head) - 1, 0))
    parts = len(_partition(sizes, max(room, 1)))
    lo, hi = max(sizes) + len(SEP), max(room, max(sizes) + len(SEP))
    while lo < hi:  # the narrowest capacity that still needs no more parts: balanced parts
        mid = (lo + hi) // 2
        if len(_partition(sizes, mid)) <= parts:
            hi = mid
        else:
            lo = mid + 1
    return [head + [rest[i] for i in group] for group in _partition(sizes, lo)]


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, width: int | None = None,
               color: bool = False, key: int = 1, marked: frozenset[int] = frozenset()) -> str:
    """A fixed-width table at most ``width`` columns wide (no limit when None); numbers right-aligned;
    levels coloured when ``color``; rows in ``marked`` start with ``>`` (the seat in focus)."""
    texts = [[cell(v) for v in row] for row in rows]
    heads = [clean(h) for h in headers]
    n = len(heads)
    numeric = [_numeric(rows, i) for i in range(n)]
    natural = [max([display_width(heads[i]), *(display_width(r[i]) for r in texts)]) for i in range(n)]
    widest = [max([_longest_word(heads[i]), *(display_width(r[i]) for r in texts)]) for i in range(n)]
    cap = max((width or 10_000) // 3, 12)
    minimum = [_minimum(heads[i], [r[i] for r in texts], numeric[i], cap) for i in range(n)]
    lead = "  " if marked else ""
    room = None if width is None else max(width - len(lead), 20)
    if room is None:
        groups = [list(range(n))]
    else:
        groups = _groups(widest, minimum, room, key)
    parts = []
    for cols in groups:
        sep_room = len(SEP) * (len(cols) - 1)
        fit = _widths([natural[i] for i in cols], [widest[i] for i in cols], [minimum[i] for i in cols],
                      (room - sep_room) if room is not None else 10**9)
        if room is not None:
            fit = _squeeze(fit, [numeric[i] for i in cols], room - sep_room)
        widths_of = dict(zip(cols, fit))
        parts.append(_render(cols, widths_of, heads, texts, rows, numeric, color, marked, lead))
    return "\n\n".join(parts)


def _render(cols: list[int], widths: dict[int, int], heads: list[str], texts: list[list[str]],
            rows: Sequence[Sequence[Any]], numeric: list[bool], color: bool, marked: frozenset[int],
            lead: str) -> str:
    def line(cells: dict[int, list[str]], k: int, levels: dict[int, str | None], prefix: str) -> str:
        out = []
        for i in cols:
            lines = cells[i]
            text = lines[k] if k < len(lines) else ""
            padded = pad(text, widths[i], right=numeric[i])
            if levels.get(i) and text:
                padded = padded.replace(text, paint(text, levels[i], color), 1)
            out.append(padded)
        return (prefix + SEP.join(out)).rstrip()

    def block(values: list[str], levels: dict[int, str | None], prefix: str) -> list[str]:
        cells = {i: wrap(values[i], widths[i]) for i in cols}
        height = max(len(c) for c in cells.values())
        return [line(cells, k, levels, prefix if k == 0 else " " * len(prefix)) for k in range(height)]

    out = block(heads, {}, lead)
    out.append(lead + SEP.join("-" * widths[i] for i in cols))
    for r, (values, row) in enumerate(zip(texts, rows)):
        levels = {i: _level(row[i]) for i in cols}
        out.extend(block(values, levels, ("> " if r in marked else "  ") if lead else ""))
    return "\n".join(out)


def text_records(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, width: int | None = None,
                 color: bool = False, title: Callable[[Sequence[Any]], str] | None = None,
                 skip: frozenset[int] = frozenset()) -> str:
    """One paragraph per row: a title line (``title(row)``, or the first cell), then ``header: value``
    lines, each value wrapped under itself.  For rows of long text (flags, findings) that no table could
    show whole at a terminal's width."""
    w = width or 10_000
    heads = [clean(h) for h in headers]
    label = max((display_width(h) for i, h in enumerate(heads) if i not in skip), default=0) + 2
    out: list[str] = []
    for row in rows:
        head = title(row) if title is not None else cell(row[0])
        lines = wrap(head, w)
        level = next((v.level for v in row if isinstance(v, Level)), None)
        if color and level and level.upper() in lines[0]:
            lines[0] = lines[0].replace(level.upper(), paint(level.upper(), level, color), 1)
        out.extend(lines)
        for i, (h, value) in enumerate(zip(heads, row)):
            if i in skip or (title is None and i == 0):
                continue
            text = cell(value)
            if text in ("", "–") and not isinstance(value, (int, float)):
                continue
            lines = wrap(text, max(w - 4 - label, 12))
            level = _level(value)
            first = paint(lines[0], level, color)
            out.append(f"    {pad(h + ':', label)}{first}".rstrip())
            out.extend(f"    {' ' * label}{rest}".rstrip() for rest in lines[1:])
        out.append("")
    return "\n".join(out).rstrip("\n")


_md_escape = md_escape


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *,
                   marked: frozenset[int] = frozenset(), align: bool = False) -> str:
    """A GitHub-flavoured Markdown table; every cell escaped; a marked row's cells in bold; with ``align``, a
    column of numbers aligned right (``---:``), as a text table aligns it."""
    lines = ["| " + " | ".join(_md_escape(h) for h in headers) + " |",
             "|" + "|".join(" ---: " if align and _numeric(rows, i) else " --- " for i in range(len(headers))) + "|"]
    for r, row in enumerate(rows):
        cells = [_md_escape(cell(v)) for v in row]
        if r in marked:
            cells = [md_bold(c) for c in cells]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def github_escape(text: str, prop: bool = False) -> str:
    """Escape text for a GitHub workflow command (``::error file=…::message``); ``prop`` for a property value.

    GitHub's rules: ``%``, ``\\r`` and ``\\n`` as ``%25``, ``%0D``, ``%0A`` everywhere, and ``:`` and
    ``,`` as ``%3A``, ``%2C`` in a property; every other control character written out.  A message is
    text shown to people: every control character in it, the carriage return and the newline included, is
    written out first (``\\n``), as every other output writes it, so data never breaks the annotation's
    lines; a property (a file's name) keeps its carriage returns and newlines, escaped, so that it reads back
    as the name it is.

    >>> github_escape("x\\n::error file=a::b 100%")
    'x\\\\n::error file=a::b 100%25'
    >>> github_escape("a:b,c\\n%", True)
    'a%3Ab%2Cc%0A%25'
    """
    if not prop:
        text = shown(text)
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return shown(text)
