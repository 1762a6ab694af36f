"""What the JSON text says that the parsed value no longer shows: repeated keys.

JSON leaves an object with a repeated key undefined; the parser keeps the last value
and says nothing, and another reader may keep the first.  A repeated key in an event
(``"tick": 5, ..., "tick": 900``) is therefore reported (a warning naming the key and
the event), never silently resolved.

Finding them costs a byte scan only where one is possible.  A colon appears in JSON
text only after a key or inside a string, so a text holds at least as many colons as
its parsed value has keys plus colons inside its strings -- and exactly as many when no
key repeats (a ``\\u003a`` escape puts a colon in a string the text does not show, so
a text holding one is always scanned).  The parsed value's count is the colon count of
its canonical re-serialisation.  Only a text whose counts differ (or with such an
escape) is scanned token by token, which names each repeated key and where it is.

>>> raw = b'{"id": 1, "tick": 5, "payload": {"a": "x:y"}, "tick": 9}'
>>> import orjson; value = orjson.loads(raw)
>>> may_repeat_keys(raw, value)
True
>>> repeated_keys(raw)
[((), 'tick')]
>>> may_repeat_keys(b'{"a": "x:y"}', {"a": "x:y"})
False
"""

from __future__ import annotations

import json
import json.decoder
import re
from typing import Any, Callable, Iterable, cast

import orjson

__all__ = ["RepeatedKeys", "may_repeat_keys", "repeated_keys", "repeats_no_key", "colon_counter", "ColonCounter",
           "key_path", "COLON_ESCAPE", "with_lone_surrogates", "lone_surrogates", "written_numbers", "REPLACEMENT",
           "DocumentEvent", "loads_keeping_surrogates", "replace_lone_surrogates"]

Path = tuple[Any, ...]
"""Where an object sits in a document: its keys and array positions from the root."""

_TOKEN = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\]:,]')
COLON_ESCAPE = b"\\u003"
"""How a text may write a colon (``\\u003a``) that its parsed strings hold and its bytes do not."""


class RepeatedKeys(dict[str, Any]):
    """A parsed JSON object whose text repeated some keys (the last value of each is kept).

    A plain ``dict`` otherwise; the read boundary reports :attr:`repeated` and hands on a
    plain copy."""

    __slots__ = ("repeated",)

    def __init__(self, value: dict[str, Any], repeated: tuple[str, ...]) -> None:
        super().__init__(value)
        self.repeated = repeated
        """Each repeated key, as a path inside the object (``tick``, ``payload.give.wood``)."""


class DocumentEvent(dict[str, Any]):
    """A parsed event of a whole document (a bundle) with what only its text showed: strings or keys
    that held lone surrogate escapes, each read as U+FFFD (:func:`with_lone_surrogates`), keys it
    repeats, an id beyond 64 bits as written.

    A plain ``dict`` otherwise; the read boundary says each (as it does for a line) and hands on a
    plain copy."""

    __slots__ = ("originals", "repeated", "written_id", "written")

    def __init__(self, value: dict[str, Any], originals: dict[Path, str] | None = None,
                 repeated: tuple[str, ...] = (), written_id: str | None = None,
                 written: dict[Path, str] | None = None) -> None:
        super().__init__(value)
        self.originals = originals or {}
        """Each changed string as decoded before, by its path inside the event (a key: its object's path
        and ``None``)."""
        self.repeated = repeated
        """Keys the event's text repeats, as :attr:`RepeatedKeys.repeated`."""
        self.written_id = written_id
        """The event's ``id`` as written, when it is a number read as a double (past 64 bits)."""
        self.written = written if written is not None else {("id",): written_id} if written_id is not None else {}
        """Numbers of the event as written, by their path inside it, where the double read may not be the
        number written: its ``id`` read as a double, one at least 2**53 in magnitude, and an integral double
        whose text writes a fraction other than zero (``4503599627370496.5`` is read as 2**52,
        ``57.0000000000000001`` as 57: no integer, :func:`~.validation.written_fraction`)."""


def may_repeat_keys(raw: bytes | bytearray, value: Any) -> bool:
    """False when the text ``raw`` of the parsed ``value`` certainly repeats no key (see the
    module docs); True when it may (then :func:`repeated_keys` says)."""
    try:
        canonical = orjson.dumps(value)
    except orjson.JSONEncodeError:  # nested past the writer's depth: scan
        return True
    return raw.count(b":") != canonical.count(b":") or COLON_ESCAPE in raw


ColonCounter = Callable[[dict[str, Any]], int]
"""``payload -> colons``: the colons a well-formed event's text holds inside its payload's members."""


def colon_counter(objects: tuple[str, ...], texts: tuple[str, ...]) -> ColonCounter:
    """For an event type whose payload has these object members (item maps: one level of keys) and
    free-text members (colons inside): how many colons those hold in the text, counted in C.

    Used on a payload its schema has already accepted (objects are objects, texts strings)."""
    empty_objects: tuple[dict[str, Any], ...] = ({},) * len(objects)
    empty_texts = ("",) * len(texts)
    colon = (":",) * len(texts)
    count = str.count

    def colons(payload: dict[str, Any]) -> int:
        inner = sum(map(len, map(payload.get, objects, empty_objects))) if objects else 0
        if texts:
            inner += sum(map(count, map(payload.get, texts, empty_texts), colon))
        return inner

    return colons


def repeats_no_key(raw: bytes, event: dict[str, Any], counter: ColonCounter | None, has_texts: bool,
                   colons: int | None = None) -> bool:
    """True when the text ``raw`` of an event (holding more colons than its envelope and payload
    have keys) certainly repeats no key.

    ``counter`` counts the colons the payload's object and free-text members hold (see
    :func:`colon_counter`); only when the counts still differ, or a text member may hide a colon
    behind an escape, does it fall back to :func:`may_repeat_keys`.  ``colons``: the colons of
    ``raw`` when the caller has counted them (None: counted here)."""
    if counter is not None:
        payload = event["payload"]
        if colons is None:
            colons = raw.count(b":")
        if colons == len(event) + len(payload) + counter(payload) and not (has_texts and COLON_ESCAPE in raw):
            return True
    return not may_repeat_keys(raw, event)


def repeated_keys(raw: bytes | bytearray) -> list[tuple[Path, str]]:
    """Every repeated key of a JSON text, as ``(path of its object, key)`` in text order.

    A token scan (strings, brackets, colons, commas), without recursion: any depth."""
    found: list[tuple[Path, str]] = []
    # one frame per open container: [is_object, keys seen, path, key or index of the current member]
    stack: list[list[Any]] = []
    last_string: bytes | None = None
    for match in _TOKEN.finditer(raw):
        token = match.group()
        first = token[0]
        if first == 0x22:  # a string
            last_string = token
            continue
        if token == b":":
            if stack and stack[-1][0] and last_string is not None:
                frame = stack[-1]
                key = _decode(last_string)
                if key in frame[1]:
                    found.append((frame[2], key))
                frame[1].add(key)
                frame[3] = key
        elif token in (b"{", b"["):
            parent = stack[-1] if stack else None
            path: Path = (*parent[2], parent[3]) if parent is not None else ()
            stack.append([token == b"{", set(), path, 0])
        elif token in (b"}", b"]"):
            if stack:
                stack.pop()
        elif token == b"," and stack and not stack[-1][0]:
            stack[-1][3] += 1
        last_string = None
    return found


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point left alone in a decoded string (a pair decodes to one character)."""

REPLACEMENT = "\ufffd"


def _orjson_like_int(digits: str) -> int | float:
    """An integer literal as orjson reads it: an ``int`` within 64 bits (signed or unsigned), a
    ``float`` beyond (so both readers hand the checks the same value)."""
    value = int(digits)
    return value if -(1 << 63) <= value < (1 << 64) else float(digits)


def _refuse_constant(name: str) -> Any:
    """``NaN``, ``Infinity``: not JSON (orjson refuses them; so does this reader)."""
    raise ValueError(f"{name} is not valid JSON")


def with_lone_surrogates(raw: bytes | bytearray) -> tuple[Any, dict[Path, str]] | None:
    r"""A JSON text that orjson refused only for an escaped lone surrogate (``"\\ud83d"`` alone: legal
    JSON grammar, what JavaScript's ``JSON.stringify`` writes for a string cut inside an emoji),
    read with the standard library: ``(value, originals)``, each lone surrogate in a string (or
    key) replaced by U+FFFD, and ``originals`` holding each changed string as decoded before
    (by its path; a key by its object's path and ``None``).  None when the text is not JSON for
    another reason too, or holds no lone surrogate: then orjson's verdict stands.

    >>> value, originals = with_lone_surrogates(b'{"a": ["x\\ud83d"], "b": "\\ud83d\\ude00"}')
    >>> value == {"a": ["x\ufffd"], "b": "\U0001f600"}, originals == {("a", 0): "x\ud83d"}
    (True, True)
    >>> with_lone_surrogates(b'{"a": "\\ud83d", "b": NaN}') is None
    True
    """
    if b"\\u" not in raw:
        return None
    value = loads_keeping_surrogates(raw)
    if value is None:
        return None
    value, originals = replace_lone_surrogates(value)
    return (value, originals) if originals else None


def loads_keeping_surrogates(raw: bytes | bytearray) -> Any:
    r"""A JSON text read by the standard library, which keeps a lone surrogate escape as the lone
    code point (orjson refuses the text): integers as orjson reads them, ``NaN`` refused; None when
    the text is not JSON to it either.

    >>> loads_keeping_surrogates(b'["\\ud83d", 1]') == ["\ud83d", 1]
    True
    """
    try:
        return json.loads(raw, parse_int=_orjson_like_int, parse_constant=_refuse_constant)
    except ValueError:
        return None
    except RecursionError:
        pass
    # nested deeper than Python's recursion limit leaves room for, from here: read again without recursion
    # (:func:`_loads_flat`), so the verdict does not hang on how deep the call stack already is, and no
    # setting of the process (its recursion limit, raised for a retry here before) changes under another
    # thread; a text nested deeper than orjson reads (its limit) stays refused
    try:
        return _loads_flat(raw, ORJSON_DEPTH)
    except ValueError:
        return None


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WORDS: dict[str, Any] = {"null": None, "true": True, "false": False}
_CONSTANTS = ("NaN", "Infinity", "-Infinity")
_scanstring = cast(Callable[[str, int, bool], tuple[str, int]], vars(json.decoder)["scanstring"])
"""The standard library's string reader (its C one where built): the text after an opening quote, to its end."""


def _loads_flat(raw: bytes | bytearray, deepest: int) -> Any:
    r"""``json.loads`` as :func:`loads_keeping_surrogates` calls it, read with a stack of the open containers
    instead of recursion (the standard library's reader recurses once a level): the same value, or a ValueError
    where that reader raises one, and where the text nests more than ``deepest`` containers.  Its strings are
    read by the standard library's own string reader (a lone surrogate escape kept).

    >>> _loads_flat(b' {"a": [1, 2.5, "\\ud83d", {}], "a": [true, null, []]} ', 3) == {"a": [True, None, []]}
    True
    >>> value, depth = _loads_flat(b"[" * 5000 + b"]" * 5000, 5000), 1
    >>> while value:
    ...     value, depth = value[0], depth + 1
    >>> depth
    5000
    """
    text = raw.decode(json.detect_encoding(raw), "surrogatepass")  # as json.loads decodes bytes
    def skip(at: int) -> int:
        """Past the whitespace at ``at``."""
        return cast(re.Match[str], _WHITESPACE.match(text, at)).end()

    stack: list[tuple[dict[str, Any] | list[Any], str | None]] = []  # each open container, its key being read

    def fail(what: str, at: int) -> ValueError:
        return json.JSONDecodeError(what, text, at)

    def key_at(at: int) -> tuple[str, int]:
        """An object's key at ``at`` (its opening quote), and where its value starts."""
        if text[at:at + 1] != '"':
            raise fail("Expecting property name enclosed in double quotes", at)
        key, at = _scanstring(text, at + 1, True)
        at = skip(at)
        if text[at:at + 1] != ":":
            raise fail("Expecting ':' delimiter", at)
        return key, skip(at + 1)

    at = skip(0)
    while True:
        # a value starts at ``at``
        char = text[at:at + 1]
        value: Any
        if char in ("{", "["):
            if len(stack) >= deepest:
                raise fail("nested too deeply", at)
            at = skip(at + 1)
            if text[at:at + 1] == ("}" if char == "{" else "]"):
                value = {} if char == "{" else []
                at += 1
            elif char == "{":
                key, at = key_at(at)
                stack.append(({}, key))
                continue
            else:
                stack.append(([], None))
                continue
        elif char == '"':
            value, at = _scanstring(text, at + 1, True)
        else:
            number = _NUMBER.match(text, at)
            if number is not None:
                whole, fraction, exponent = number.groups()
                value = float(number.group()) if fraction or exponent else _orjson_like_int(whole)
                at = number.end()
            else:
                word = next((w for w in (*_WORDS, *_CONSTANTS) if text.startswith(w, at)), None)
                if word is None:
                    raise fail("Expecting value", at)
                value = _WORDS[word] if word in _WORDS else _refuse_constant(word)
                at += len(word)
        # the value is whole: into its container, and each container that closes after it into its own
        while True:
            at = skip(at)
            if not stack:
                if at != len(text):
                    raise fail("Extra data", at)
                return value
            container, member = stack[-1]
            if isinstance(container, dict):
                container[cast(str, member)] = value
            else:
                container.append(value)
            char = text[at:at + 1]
            if char == ",":
                at = skip(at + 1)
                if isinstance(container, dict):
                    key, at = key_at(at)
                    stack[-1] = (container, key)
                break
            if char != ("}" if isinstance(container, dict) else "]"):
                raise fail("Expecting ',' delimiter", at)
            stack.pop()
            value, at = container, at + 1


ORJSON_DEPTH = 1024
"""The nesting orjson reads (containers within containers; past it: "nested too deeply")."""


def replace_lone_surrogates(value: Any) -> tuple[Any, dict[Path, str]]:
    """``value`` (parsed, nested containers changed in place) with each lone surrogate in a string or key
    replaced by U+FFFD, and each changed string as it was, by its path (a key: its object's path and
    ``None``, the first such key of the object)."""
    originals: dict[Path, str] = {}
    value = _replaced(value, (), originals)
    pending: list[tuple[Any, Path]] = [(value, ())]
    while pending:
        node, path = pending.pop()
        if isinstance(node, dict):
            lone_keys = [key for key in node if _LONE_SURROGATE.search(key)]
            if lone_keys:
                originals[(*path, None)] = lone_keys[0]
                members = list(node.items())
                node.clear()
                node.update((_LONE_SURROGATE.sub(REPLACEMENT, key), item) for key, item in members)
            for key, item in node.items():
                node[key] = _replaced(item, (*path, key), originals)
                pending.append((item, (*path, key)))
        elif isinstance(node, list):
            for position, item in enumerate(node):
                node[position] = _replaced(item, (*path, position), originals)
                pending.append((item, (*path, position)))
    return value, originals


def _replaced(item: Any, path: Path, originals: dict[Path, str]) -> Any:
    """A string with each lone surrogate replaced by U+FFFD (its original kept in ``originals``)."""
    if isinstance(item, str) and _LONE_SURROGATE.search(item):
        originals[path] = item
        return _LONE_SURROGATE.sub(REPLACEMENT, item)
    return item


class _Written(str):
    """A number literal as the text writes it."""

    __slots__ = ()


def written_numbers(raw: bytes | bytearray, paths: Iterable[Path]) -> dict[Path, str]:
    """The number literal at each of ``paths`` in the JSON text ``raw``, as written (``1e400``,
    ``18446744073709551616``), for those a number is at; empty when the text is not JSON to the
    standard library (a parse of the whole text: for the few records whose numbers need it).

    >>> written_numbers(b'{"id": 18446744073709551616, "p": {"n": [9007199254740993.0]}}',
    ...                 [("id",), ("p", "n", 0), ("p",)])
    {('id',): '18446744073709551616', ('p', 'n', 0): '9007199254740993.0'}
    """
    try:
        value = json.loads(raw, parse_int=_Written, parse_float=_Written, parse_constant=_Written)
    except (ValueError, RecursionError):
        return {}
    found: dict[Path, str] = {}
    for path in paths:
        node = value
        for key in path:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                node = None
                break
        if isinstance(node, _Written):
            found[path] = str(node)
    return found


def lone_surrogates(text: str) -> list[str]:
    r"""The lone surrogates of ``text``, each as the JSON escape that wrote it.

    >>> lone_surrogates("a\ud83d b\udc00")
    ['\\ud83d', '\\udc00']
    """
    return [f"\\u{ord(char):04x}" for char in _LONE_SURROGATE.findall(text)]


def key_path(path: Path, key: str) -> str:
    """``payload.give.wood`` for the key ``wood`` of the object at ``("payload", "give")``."""
    return ".".join([*(str(p) for p in path), key])


def _decode(token: bytes) -> str:
    try:
        decoded = orjson.loads(token)
    except orjson.JSONDecodeError:
        return token[1:-1].decode("utf-8", "replace")
    return decoded if isinstance(decoded, str) else str(decoded)
