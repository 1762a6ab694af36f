"""A JSON text with a lone surrogate escape nested past Python's recursion limit is read again without recursion
(``read.jsontext``): the same value the standard library's reader gives, and no setting of the process touched."""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

import pytest

from daishi_forensics.read import jsontext
from daishi_forensics.read.jsontext import ORJSON_DEPTH, loads_keeping_surrogates


def _nested(levels: int, inner: bytes = b'"\\ud83d"') -> bytes:
    return b'{"x":' + b"[" * (levels - 1) + inner + b"]" * (levels - 1) + b"}"


def _levels(value: Any) -> tuple[int, Any]:
    """How many containers ``value`` of :func:`_nested`'s shape nests, and what the innermost holds (compared
    without recursion: ``==`` on 1,024 levels runs out of the recursion limit itself)."""
    assert isinstance(value, dict) and list(value) == ["x"]
    levels, value = 1, value["x"]
    while isinstance(value, list):
        assert len(value) == 1
        levels, value = levels + 1, value[0]
    return levels, value


def test_a_text_past_the_recursion_limit_is_read_without_raising_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # the retry raised the process's recursion limit (sys.setrecursionlimit) for the time of the read: a setting of
    # every thread, lowered again under any other thread reading then; it now reads with a stack of its own
    def refuse(limit: int) -> None:
        raise AssertionError(f"the recursion limit set to {limit}")

    monkeypatch.setattr(sys, "setrecursionlimit", refuse)
    assert _levels(loads_keeping_surrogates(_nested(ORJSON_DEPTH))) == (ORJSON_DEPTH, "\ud83d")
    assert loads_keeping_surrogates(_nested(ORJSON_DEPTH + 1)) is None  # past what orjson reads, as before
    assert loads_keeping_surrogates(_nested(ORJSON_DEPTH, b'"\\ud83d", NaN')) is None
    assert loads_keeping_surrogates(_nested(ORJSON_DEPTH, b'"\\ud83d",')) is None


def test_the_verdict_does_not_hang_on_the_callers_stack_nor_its_thread() -> None:
    got: list[Any] = []

    def deep(n: int) -> None:
        if n:
            deep(n - 1)
        else:
            got.append(_levels(loads_keeping_surrogates(_nested(ORJSON_DEPTH))))

    deep(sys.getrecursionlimit() - 60)
    worker = threading.Thread(target=lambda: got.append(_levels(loads_keeping_surrogates(_nested(ORJSON_DEPTH)))))
    worker.start()
    worker.join()
    assert got == [(ORJSON_DEPTH, "\ud83d")] * 2


TEXTS = [
    '{}', '[]', ' [ ] ', '{"a": 1, "a": 2, "b": [true, false, null]}', '"\\ud83d\\ude00"', '"\\udc00x"', '[1, 2.5, -0, '
    '-0.0, 1e5, 1E-5, 2.5e+3, 18446744073709551616, -9223372036854775809, 123456789012345678901234567890]', '0', '-1',
    '{"a":{"b":{"c":[{}]}}}', '["\\u0041\\n\\t\\"\\\\\\/"]', '[1,]', '{"a":1,}', '[01]', '[1.]', '[.5]', '[1e]', '[-]',
    '[+1]', '[NaN]', '[Infinity]', '[-Infinity]', '[nul]', '[true false]', '{"a" 1}', '{a: 1}', "{'a': 1}", '[1] x',
    '', ' ', '["a\nb"]', '["\\x"]', '["\\ud83"]', '[1 2]', '{"a":1 "b":2}', '[', ']', '{', '{"a"', '{"a":', '"', '[tru]',
    '[\u00a01]', '[\uff11]', '[1\u00a0]', '\ufeff[1]', '[1e400]', '[-1e400]', '[0.1e-400]', '{"":0}', '[[[[]]], [[]]]',
    '[-Infinityx]', '[truex]', '{"a":[1,{"b":null}],"c":"\\ud83d"}', '[1.5E+2]', '["\u2028"]', '\r\n[\t1\r]\n',
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_flat_reader_reads_as_the_standard_library_does(text: str) -> None:
    raw = text.encode("utf-8")

    def read(reader: Any) -> Any:
        try:
            return ("value", reader(raw))
        except ValueError:
            return ("refused", None)

    expected = read(lambda r: json.loads(r, parse_int=jsontext._orjson_like_int,
                                         parse_constant=jsontext._refuse_constant))
    got = read(lambda r: jsontext._loads_flat(r, ORJSON_DEPTH))
    assert repr(got) == repr(expected)  # (repr: -0.0 and 0, nan-free, types shown)
