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

import re
from typing import Any, Callable

import orjson

__all__ = ["RepeatedKeys", "may_repeat_keys", "repeated_keys", "repeats_no_key", "colon_counter", "ColonCounter",
           "key_path", "COLON_ESCAPE"]

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


def key_path(path: Path, key: str) -> str:
    """``payload.give.wood`` for the key ``wood`` of the object at ``("payload", "give")``."""
    return ".".join([*(str(p) for p in path), key])


def _decode(token: bytes) -> str:
    try:
        decoded = orjson.loads(token)
    except orjson.JSONDecodeError:
        return token[1:-1].decode("utf-8", "replace")
    return decoded if isinstance(decoded, str) else str(decoded)
