"""Text that reaches a terminal or a CI log: control characters are shown, never obeyed.

A match's strings are written by its agents (names, message text) or by whoever made
the file (type names, ids, region names).  Printed raw, an ``ESC`` starts a terminal
sequence (clear the screen, retitle the window, rewrite what was printed above) and a
newline followed by ``::error file=…::`` forges a GitHub annotation.  Every text,
Markdown and GitHub renderer, and every message on stderr, passes what came from data
through :func:`shown`, which writes each control character out as an escape a person
can read: ``\\x1b``, ``\\n``, ``\\u202e``.

Which characters: every C0 and C1 control and DEL (Unicode category ``Cc``: tab,
newline and carriage return included), the line and paragraph separators (U+2028,
U+2029, which some viewers break lines on) and the bidirectional controls (U+061C,
U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), which reorder what a reader sees
("Trojan Source"), and every other format character (Unicode category ``Cf``: the zero-width
space U+200B, the byte order mark U+FEFF, the soft hyphen U+00AD, the invisible tag characters
U+E0020-U+E007F...), which a reader does not see, so two names that look alike may differ.
A joiner in an emoji sequence is written out too (``\\u200d``).  Everything else, any script
and emoji included, is printed as it is.

>>> shown("a\\x1b]0;pwned\\x07b")
'a\\\\x1b]0;pwned\\\\x07b'
>>> shown("x\\n::error file=README.md::forged")
'x\\\\n::error file=README.md::forged'
>>> shown("Ash\\u200b"), shown("\\ufeffNyx"), shown("re\\u00adad"), shown("\\U000e0041")
('Ash\\\\u200b', '\\\\ufeffNyx', 're\\\\xadad', '\\\\U000e0041')
>>> shown_lines("line one\\nline \\x1b[2J two")
'line one\\nline \\\\x1b[2J two'
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["utf8_text", "shown", "shown_clipped", "shown_ends", "shown_name", "shown_lines", "is_neutral", "md_escape", "md_text", "md_bold", "MARKDOWN_CHARS", "CONTROLS"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_EXTRA = [0x2028, 0x2029, 0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_FORMAT_BLOCKS = ((0x0, 0x2100), (0xFE00, 0x10000), (0x11000, 0x14000), (0x1BC00, 0x1D200), (0xE0000, 0xE0080))
"""Where Unicode puts its format characters (category ``Cf``): only these are read at import, not all 1.1
million code points."""


def _escape(code: int) -> str:
    char = chr(code)
    if char in _NAMED:
        return _NAMED[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


CONTROLS: frozenset[str] = frozenset(
    [chr(c) for c in range(0xA0) if unicodedata.category(chr(c)) == "Cc"]
    + [chr(c) for c in _EXTRA]
    + [chr(c) for lo, hi in _FORMAT_BLOCKS for c in range(lo, hi) if unicodedata.category(chr(c)) == "Cf"]
)
"""Every character :func:`shown` writes out."""

_TABLE = {ord(c): _escape(ord(c)) for c in CONTROLS}
_TABLE_KEEP_NEWLINE = {k: v for k, v in _TABLE.items() if k != ord("\n")}


def shown(text: str) -> str:
    """``text`` on one line with every control character written out as an escape, and the lone surrogates a
    file name's bytes are decoded to (under an ASCII locale) as those bytes read as UTF-8 (:func:`utf8_text`):
    the characters a reader is shown, so a line wrapped on it is as wide as it looks (``dätä`` is four
    characters, not the six its bytes were).

    >>> shown("d\\udcc3\\udca4t\\udcc3\\udca4/m.jsonl")
    'dätä/m.jsonl'
    """
    return (text if text.isascii() else utf8_text(text)).translate(_TABLE)


def shown_clipped(text: str, most: int = 100) -> str:
    """:func:`shown` of at most the first ``most`` characters of ``text``, and how long it was when longer: for a
    value a user gave echoed in an error (a 100,000-character ``--agent`` is not printed back whole).

    >>> shown_clipped("Ash"), shown_clipped("A" * 12, most=5)
    ('Ash', 'AAAAA... (12 characters)')
    """
    if len(text) <= most:
        return shown(text)
    return f"{shown(text[:most])}... ({len(text):,} characters)"


def shown_ends(text: str) -> str:
    """:func:`shown`, and every space at either end (any Unicode space: U+0020, the no-break space U+00A0...)
    written out the same way (``\\x20``, ``\\xa0``): for a value a table cell would otherwise trim, so a seat
    named ``" Ash"`` is not shown as one named ``"Ash"``.  Spaces inside are kept as they are.

    >>> shown_ends(" Ash"), shown_ends("Nyx Vale\u00a0"), shown_ends("Ash"), shown_ends(" ")
    ('\\\\x20Ash', 'Nyx Vale\\\\xa0', 'Ash', '\\\\x20')
    """
    text = shown(text)
    body = text.strip()
    if body == text:
        return text
    lead = len(text) - len(text.lstrip())
    trail = text[lead + len(body):]
    return "".join(_escape(ord(c)) for c in text[:lead]) + body + "".join(_escape(ord(c)) for c in trail)


_HIDDEN_SPACES = re.compile(r"\s{2,}|[^\S\x20]")
"""Spaces inside a name a table or a page would not show as written: a run of two or more (a table and a
browser collapse it to one) and a lone space other than U+0020 (a no-break space reads as one)."""


def shown_name(text: str) -> str:
    """:func:`shown_ends`, and inside, every run of two or more spaces and every space other than U+0020
    written out the same way (``Ash\\x20\\x20Vale``): for a seat's name in a table cell or a page, which
    would show ``"Ash  Vale"`` and ``"Ash Vale"`` alike.  A lone U+0020 between two words is kept.

    >>> shown_name("Ash  Vale"), shown_name("Nyx\u00a0Vale"), shown_name(" Ash Vale"), shown_name("Ash Vale")
    ('Ash\\\\x20\\\\x20Vale', 'Nyx\\\\xa0Vale', '\\\\x20Ash Vale', 'Ash Vale')
    """
    return _HIDDEN_SPACES.sub(_written_out, shown_ends(text))


def _written_out(spaces: re.Match[str]) -> str:
    return "".join(_escape(ord(c)) for c in spaces.group())


def shown_lines(text: str) -> str:
    """``text`` with every control character but the newline written out: for a whole page a
    renderer built, whose newlines are its own (the data in it already went through :func:`shown`);
    a file name's bytes as :func:`shown` gives them."""
    return (text if text.isascii() else utf8_text(text)).translate(_TABLE_KEEP_NEWLINE)


def is_neutral(text: str, *, keep: str = "\n") -> bool:
    """Whether ``text`` holds no control character other than those in ``keep``."""
    return not any(ch in CONTROLS and ch not in keep for ch in text)


MARKDOWN_CHARS = "\\`*_[]<>#|~&$"
"""Characters Markdown (GitHub's) reads as markup in running text: emphasis, code, links and images,
raw HTML, headings, table cells, strikethrough (``~``), entities (``&amp;``) and math (``$``).  Each is
written with a backslash before it (CommonMark escapes every ASCII punctuation character that way)."""


_WORD = re.compile(r"[^\s`|]+")
"""A run of text a code span can hold as it is (no space, no backtick, no table cell's ``|``)."""

_LIVE = re.compile(
    r"://|www\.|@|#\d|\bgh-\d|\b(?:mailto|xmpp):"
    r"|:(?:[+-]1|[a-z0-9_+-]*[a-z][a-z0-9_+-]*):"
    r"|\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b",
    re.IGNORECASE,
)
"""What GitHub turns into a link, a notification or an emoji in an issue, a pull request or a comment,
escaped or not (its filters read the rendered text): a URL (``https://…``, ``www.…``, ``mailto:``), an
e-mail address or an ``@mention`` (``@org/team``), an issue or pull request reference (``#123``, ``GH-1``,
``owner/repo#1``), a commit (``a1b2c3d``: 7 to 40 hexadecimal digits, a digit and a letter among them;
``owner/repo@a1b2c3d``) and an emoji shortcode (``:rocket:``, ``:+1:``: an emoji's name has a letter, or is
``+1`` or ``-1``, so a time such as ``12:30:45`` is none).  Only text in a code span stays as it is."""


def _md_chars(text: str) -> str:
    for ch in MARKDOWN_CHARS:
        text = text.replace(ch, "\\" + ch)
    return text


def md_escape(text: str) -> str:
    """``text`` with every :data:`MARKDOWN_CHARS` character escaped, and every word GitHub would make live
    (:data:`_LIVE`: a URL, a mention, an issue reference, a commit, an emoji shortcode) in a code span: data shown
    as it is, never as markup, a link, a ping or a cross-reference.

    >>> md_escape("~~gone~~ &amp; <b>*x*</b>")
    '\\\\~\\\\~gone\\\\~\\\\~ \\\\&amp; \\\\<b\\\\>\\\\*x\\\\*\\\\</b\\\\>'
    >>> md_escape("ask @org/team, see (#123) at https://evil.example/x :rocket:")
    'ask `@org/team`, see (`#123`) at `https://evil.example/x` `:rocket:`'
    >>> md_escape("fixed in a1b2c3d and owner/repo@0f1e2d3c4b5a at 12:30:45, tick 1234567 :+1:")
    'fixed in `a1b2c3d` and `owner/repo@0f1e2d3c4b5a` at 12:30:45, tick 1234567 `:+1:`'
    """
    if _LIVE.search(text) is None:
        return _md_chars(text)
    out, start = [], 0
    for word in _WORD.finditer(text):
        if _LIVE.search(word.group()):
            begin, end = _live_core(word.group())
            begin, end = word.start() + begin, word.start() + end
            out += [_md_chars(text[start:begin]), "`", text[begin:end], "`"]
            start = end
    out.append(_md_chars(text[start:]))
    return "".join(out)


_OPENING = "([{\"'"
_CLOSING = ")]}.,;:!?\"'"


def _live_core(word: str) -> tuple[int, int]:
    """Where the code span of a live ``word`` starts and ends in it: without the brackets, quotes and
    punctuation around it (``(a1b2c3d),`` -> ``a1b2c3d``), when what is left is still live (``:rocket:``
    keeps its colons); else the whole word."""
    begin, end = 0, len(word)
    while begin < end and word[begin] in _OPENING:
        begin += 1
    while end > begin and word[end - 1] in _CLOSING:
        end -= 1
    if begin < end and _LIVE.search(word[begin:end]):
        return begin, end
    return 0, len(word)


_BLOCK_START = re.compile(r"^( {0,3})([-+=]|\d{1,9}(?=[.)]))")
"""What makes the start of a line a list item (``-``, ``+``, ``1.``, ``1)``), a thematic break (``---``) or a
heading underline (``===``, ``---``) in Markdown (after up to three spaces; four open a code block)."""


def md_text(text: str) -> str:
    """:func:`md_escape`, and the start of ``text`` never read as a list item, a rule, a heading underline or
    a code block:
    for a sentence that starts a paragraph or a list item, which may open with data (a seat's name).

    >>> md_text("1. Ash complied"), md_text("- Nyx"), md_text("-0.5 then")
    ('1\\\\. Ash complied', '\\\\- Nyx', '\\\\-0.5 then')
    """
    out = md_escape(text)
    spaces = len(out) - len(out.lstrip(" "))
    if spaces >= 4:  # four spaces open a code block: written as character references, they stay spaces
        out = "&#32;" * spaces + out[spaces:]
    match = _BLOCK_START.match(out)
    if match is None:
        return out
    lead, marker = match.groups()
    if marker[0].isdigit():
        end = match.end()
        return out[:end] + "\\" + out[end:]
    return lead + "\\" + out[len(lead):]


def md_bold(text: str) -> str:
    """Escaped Markdown ``text`` (:func:`md_escape`, :func:`md_text`) in bold, read as bold whatever its ends
    hold: ``** Ash **`` is no bold on GitHub (a space, or any Unicode space, inside the ``**`` stops them
    opening or closing), so a space at either end is written as its character reference, still a space;
    empty text stays empty.

    >>> md_bold(" Ash (a_1)\u00a0"), md_bold("Nyx"), md_bold("")
    ('**&#32;Ash (a_1)&#160;**', '**Nyx**', '')
    """
    if not text:
        return text
    body = text.strip()
    lead = len(text) - len(text.lstrip())
    trail = text[lead + len(body):]
    return "**" + "".join(f"&#{ord(c)};" for c in text[:lead]) + body + "".join(f"&#{ord(c)};" for c in trail) + "**"


def utf8_text(text: str) -> str:
    """``text`` as UTF-8 can hold it: the lone surrogates Python decodes a file name's bytes to (every
    byte past ASCII in a name under an ASCII locale, a byte that is no UTF-8 in any locale) turned back
    into those bytes read as UTF-8, so a name is written the same in every locale (``dätä``), and bytes
    that are no UTF-8 as U+FFFD, as a terminal shows them.  Text without a surrogate is returned as it is.

    >>> utf8_text("d\\udcc3\\udca4t\\udcc3\\udca4/m.jsonl"), utf8_text("bad\\udcff.jsonl"), utf8_text("plain · text")
    ('dätä/m.jsonl', 'bad\ufffd.jsonl', 'plain · text')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeEncodeError:  # a surrogate no byte decodes to: not a file name's
            return text.encode("utf-8", "replace").decode("utf-8")
    return text
