"""Deterministic JSON in and out, and values from the input shown in a message.

Every JSON document the tool writes goes through :func:`dumps`: keys sorted,
two-space indent, UTF-8, a trailing newline, and no NaN or Infinity (a non-finite
number is a bug, not data).  Same input, same bytes.

Every value taken from the input and printed in a message (an error, a problem, a
finding) goes through :func:`shown`: bounded in depth and length, so a value nested a
thousand levels deep or a line of 60 MB prints as a few dozen characters, never as a
``RecursionError`` or a screenful.

JSON escapes the C0 controls itself; the characters it may leave raw but a terminal or
a viewer would obey or hide (DEL, the C1 controls, the line and paragraph separators, the
bidirectional controls and the other format characters of
:data:`daishi_forensics.textsafe.CONTROLS`) are written as ``\\uXXXX`` escapes too (a
surrogate pair beyond the BMP).  They can only stand inside a string, where the escape means
the very same character, so a parser reads the same document.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from daishi_forensics.textsafe import CONTROLS, utf8_text

__all__ = ["dumps", "dumps_bytes", "dumps_line", "loads", "shown", "json_kind", "json_text", "SHOWN_LENGTH", "SHOWN_DEPTH"]

SHOWN_LENGTH = 60
"""At most this many characters of a value are shown (then ``…``)."""
SHOWN_DEPTH = 3
"""Containers nested deeper than this are shown as ``[…]`` / ``{…}``."""

loads = orjson.loads


def json_text(value: Any) -> str:
    """A scalar as JSON writes it, on one line (text in double quotes, cut after
    :data:`SHOWN_LENGTH` characters with ``…``); an array or object as :func:`shown` gives it.

    >>> json_text("74.5"), json_text(2.3), json_text(None)
    ('"74.5"', '2.3', 'null')
    """
    if isinstance(value, str):
        cut = value if len(value) <= SHOWN_LENGTH else value[:SHOWN_LENGTH] + "…"
        return orjson.dumps(cut).decode()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # any size (the writer stops at 64 bits)
    if value is None or isinstance(value, (bool, float)):
        return orjson.dumps(value).decode()
    return shown(value)


def json_kind(value: Any) -> str:
    """What JSON type a value is, in words: ``text``, ``a number``, ``true or false``, ``null``,
    ``an array`` or ``an object``.

    >>> json_kind("74.5"), json_kind(74.5), json_kind(True), json_kind([])
    ('text', 'a number', 'true or false', 'an array')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "an array"
    return "an object"


WRITTEN_DEPTH = 128
"""A value copied from the input into a document is written to this depth; deeper, as its
:func:`shown` text (the writer stops at 255 levels, and no document of this tool nests deeper
than a few dozen of its own)."""


def _utf8_pattern(chars: list[str]) -> re.Pattern[bytes]:
    """A pattern matching the UTF-8 bytes of any of ``chars``: their encodings grouped by all but the last
    byte, each group one prefix and a class of last bytes (UTF-8 is self-synchronizing, so a match never
    starts inside another character).

    >>> _utf8_pattern(["\\x7f", "\\u200b", "\\u200c"]).pattern
    b'[\\x7f]|\\xe2\\x80[\\x8b\\x8c]'
    """
    by_prefix: dict[bytes, list[int]] = {}
    for char in chars:
        code = char.encode("utf-8")
        by_prefix.setdefault(code[:-1], []).append(code[-1])
    return re.compile(b"|".join(re.escape(prefix) + b"[" + b"".join(re.escape(bytes([last])) for last in sorted(lasts))
                                + b"]" for prefix, lasts in sorted(by_prefix.items())))


_RAW = _utf8_pattern(sorted(c for c in CONTROLS if ord(c) >= 0x20))
_RAW_ASCII = tuple(sorted(c.encode("ascii") for c in CONTROLS if 0x20 <= ord(c) < 0x80))
"""Those of them ASCII text may hold (DEL)."""


def _escape_raw(data: bytes) -> bytes:
    """Controls JSON leaves raw, as ``\\uXXXX`` (only ever inside a string), in the UTF-8 bytes of a
    document (searched as bytes: a text of emoji would be four bytes a character as a string, and its search
    slower by far).  ASCII bytes are searched only for the ASCII ones (:data:`_RAW_ASCII`).

    >>> _escape_raw("a\\u202eb\\x7f".encode())
    b'a\\\\u202eb\\\\u007f'
    """
    if data.isascii():
        if not any(c in data for c in _RAW_ASCII):
            return data
    elif _RAW.search(data) is None:
        return data
    return _RAW.sub(lambda m: _json_escape(m.group().decode("utf-8")).encode("ascii"), data)


def _json_escape(char: str) -> str:
    """``char`` as JSON escapes it: ``\\uXXXX``, or a UTF-16 surrogate pair beyond the BMP (a tag character).

    >>> _json_escape("\\u200b"), _json_escape("\\U000e0041")
    ('\\\\u200b', '\\\\udb40\\\\udc41')
    """
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


_PRETTY = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE
"""The options of :func:`dumps` and :func:`dumps_bytes` (pretty, key-sorted, a newline appended by the encoder)."""


def dumps(obj: Any) -> str:
    """Pretty, key-sorted JSON text ending in a newline (appended by the encoder: a large report's text is not
    copied once more to end it; the escapes leave a line feed as it is)."""
    return _dumps(obj, _PRETTY).decode("utf-8")


def dumps_bytes(obj: Any) -> bytes:
    """:func:`dumps` as its UTF-8 bytes, made without the text: for a large document written to a file or a
    pipe (a report of real messages, whose emoji make its text four bytes a character in memory)."""
    return _dumps(obj, _PRETTY)


def dumps_line(obj: Any) -> str:
    """Compact, key-sorted JSON on one line (for JSON Lines output), with newline."""
    return _dumps(obj, orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE).decode("utf-8")


def _dumps(obj: Any, option: int) -> bytes:
    try:
        return _escape_raw(orjson.dumps(obj, option=option))
    except orjson.JSONEncodeError as exc:
        if "surrogates" in str(exc):  # a file name's bytes as Python decodes them (:func:`utf8_text`)
            return _dumps(_utf8_strings(obj), option)
        if "Recursion" not in str(exc):
            raise
        return _escape_raw(orjson.dumps(_within_depth(obj, WRITTEN_DEPTH), option=option))


def _utf8_strings(value: Any) -> Any:
    """``value`` with every string in it (keys too) as :func:`~daishi_forensics.textsafe.utf8_text` gives it."""
    if isinstance(value, str):
        return utf8_text(value)
    if isinstance(value, dict):
        return {(utf8_text(k) if isinstance(k, str) else k): _utf8_strings(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_utf8_strings(v) for v in value]
    return value


def _within_depth(value: Any, depth: int) -> Any:
    """``value`` with every list or object nested deeper than ``depth`` written as its ``shown`` text."""
    if isinstance(value, dict):
        return {k: _within_depth(v, depth - 1) for k, v in value.items()} if depth > 0 else shown(value)
    if isinstance(value, (list, tuple)):
        return [_within_depth(v, depth - 1) for v in value] if depth > 0 else shown(value)
    return value


def shown(value: Any, limit: int = SHOWN_LENGTH, depth: int = SHOWN_DEPTH, *, json_literals: bool = False) -> str:
    """``value`` as a short text for a message: Python's ``repr`` of a scalar, a list or
    object to ``depth`` levels, at most ``limit`` characters (cut with ``…``); with
    ``json_literals``, ``true``, ``false`` and ``null`` as JSON writes them (not ``True``...).

    The work is bounded by ``limit`` and ``depth``, whatever the size of ``value``.

    >>> shown("wood")
    "'wood'"
    >>> shown([[[[[1]]]], 2])
    '[[[[…]]], 2]'
    >>> shown("x" * 100, limit=10)
    "'xxxxxxxx…"
    >>> shown([True, None, {"a": False}], json_literals=True)
    "[true, null, {'a': false}]"
    """
    parts: list[str] = []
    _show(value, depth, limit + 1, parts, json_literals)
    text = "".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _show(value: Any, depth: int, budget: int, parts: list[str], literals: bool = False) -> int:
    """Append the text of ``value`` to ``parts``, stopping once ``budget`` characters are out;
    returns the budget left."""
    if budget <= 0:
        return 0
    if isinstance(value, str):
        text = repr(value[:budget])
    elif literals and (isinstance(value, bool) or value is None):
        text = "null" if value is None else "true" if value else "false"
    elif isinstance(value, bool) or value is None or isinstance(value, float):
        text = repr(value)
    elif isinstance(value, int):
        text = repr(value) if value.bit_length() <= 256 else f"<an integer of {value.bit_length()} bits>"
    elif isinstance(value, (list, tuple, dict)):
        is_dict = isinstance(value, dict)
        open_, close = ("{", "}") if is_dict else ("[", "]")
        if depth <= 0:
            text = open_ + "…" + close if value else open_ + close
        else:
            parts.append(open_)
            budget -= 1
            items = iter(value.items()) if isinstance(value, dict) else iter(value)
            for n, item in enumerate(items):
                if budget <= 0:
                    return 0
                if n:
                    parts.append(", ")
                    budget -= 2
                if is_dict:
                    budget = _show(item[0], depth - 1, budget, parts, literals)
                    parts.append(": ")
                    budget = _show(item[1], depth - 1, budget - 2, parts, literals)
                else:
                    budget = _show(item, depth - 1, budget, parts, literals)
            parts.append(close)
            return budget - 1
    else:
        text = f"<{type(value).__name__}>"
    parts.append(text)
    return budget - len(text)
