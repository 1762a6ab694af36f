"""gzip data is read by one reader (``read.sources._Inflating``) whether it is a ``.gz`` file or a
server's answer sent with ``Content-Encoding: gzip``: the same data inflates to the same bytes or is
refused in both, each saying it in its own words."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from daishi_forensics.errors import InputTooLarge, InputUnreadable, ServerError
from daishi_forensics.read import sources
from daishi_forensics.read.sources import Limits

LIMIT = 1 << 20
MEMBER = gzip.compress(b'{"a": 1}\n' * 50, mtime=0)


def _file(tmp_path: Path, data: bytes) -> bytes:
    path = tmp_path / "m.json.gz"
    path.write_bytes(data)
    return bytes(sources._read_whole(path, Limits(max_inflated_bytes=LIMIT)))


def _answer(data: bytes) -> bytes:
    return bytes(sources._decoded(bytearray(data), "gzip", LIMIT, "x"))


@pytest.mark.parametrize("data", [
    MEMBER, MEMBER * 3, MEMBER + b"\0" * 40, gzip.compress(b"", mtime=0) + MEMBER,
    # zero padding between two members: a .gz file read both, an answer was "not valid gzip data"
    MEMBER + b"\0\0" + MEMBER, MEMBER + b"\0" * 20_000 + MEMBER + b"\0",
    gzip.compress(b"x" * LIMIT, mtime=0),
], ids=["one", "three", "padded", "empty-member", "padded-between", "long-padding-between", "at-the-limit"])
def test_a_gzip_answer_inflates_as_the_same_gz_file(tmp_path: Path, data: bytes) -> None:
    whole = gzip.decompress(data)
    assert _answer(data) == whole
    assert _file(tmp_path, data) == whole


@pytest.mark.parametrize("data", [
    gzip.compress(b" " * (LIMIT + 1), mtime=0),
    gzip.compress(b" " * 600_000, mtime=0) * 2,
    # a bomb in one small piece whose trailer says 100 bytes: the answer inflated it whole (3 MB past a
    # 1 MiB limit) and then called it "not valid gzip data (incorrect length check)"
    gzip.compress(b" " * 3_000_000, mtime=0)[:-4] + (100).to_bytes(4, "little"),
], ids=["one-byte-over", "members", "lying-piece"])
def test_gzip_data_past_the_limit_is_refused_by_both(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(ServerError) as answer:
        _answer(data)
    assert str(answer.value) == f"x: the answer inflates past the limit of {LIMIT} bytes; refused"
    with pytest.raises(InputTooLarge) as file:
        _file(tmp_path, data)
    assert str(file.value) == (f"{tmp_path / 'm.json.gz'}: inflates past the size limit of {LIMIT} bytes; refused "
                               "(raise $DAISHI_MAX_INFLATED_BYTES if this match is genuine)")


@pytest.mark.parametrize(("data", "reason", "said"), [
    (MEMBER[:15], "Compressed file ended before the end-of-stream marker was reached",
     "the answer's gzip data is truncated (Content-Encoding: gzip)"),
    (MEMBER[:-3], "Compressed file ended before the end-of-stream marker was reached",
     "the answer's gzip data is truncated (Content-Encoding: gzip)"),
    (MEMBER + MEMBER[:9], "Compressed file ended before the end-of-stream marker was reached",
     "the answer's gzip data is truncated (Content-Encoding: gzip)"),
    (MEMBER[:-8] + b"\0\0\0\0" + MEMBER[-4:], "Error -3 while decompressing data: incorrect data check",
     "the answer says it is gzip-compressed (Content-Encoding: gzip) but is not valid gzip data (Error -3 while "
     "decompressing data: incorrect data check)"),
    (b"\0\0" + MEMBER, "Error -3 while decompressing data: incorrect header check",
     "the answer says it is gzip-compressed (Content-Encoding: gzip) but is not valid gzip data (Error -3 while "
     "decompressing data: incorrect header check)"),
    (MEMBER + b"\0\0ab", "Error -3 while decompressing data: incorrect header check",
     "the answer says it is gzip-compressed (Content-Encoding: gzip) but is not valid gzip data (Error -3 while "
     "decompressing data: incorrect header check)"),
], ids=["cut-short", "cut", "cut-second-member", "bad-crc", "zeros-first", "garbage-after-padding"])
def test_gzip_data_that_cannot_be_read_is_refused_by_both(tmp_path: Path, data: bytes, reason: str,
                                                          said: str) -> None:
    with pytest.raises(ServerError) as answer:
        _answer(data)
    assert str(answer.value) == f"x: {said}"
    with pytest.raises(InputUnreadable) as file:
        _file(tmp_path, data)
    assert type(file.value) is InputUnreadable
    assert str(file.value) == f"{tmp_path / 'm.json.gz'}: corrupt or truncated gzip data ({reason})"


def test_no_data_is_an_empty_file_but_a_truncated_answer(tmp_path: Path) -> None:
    assert _file(tmp_path, b"") == b""
    with pytest.raises(ServerError, match=r"^x: the answer's gzip data is truncated \(Content-Encoding: gzip\)$"):
        _answer(b"")


def test_a_gz_file_is_read_a_piece_at_a_time(tmp_path: Path) -> None:
    # at most what the reader asks for comes out of one read, whatever one piece of input inflates to
    path = tmp_path / "m.jsonl.gz"
    path.write_bytes(gzip.compress(b"\n" * (3 << 20), mtime=0))
    with sources._opened(path, Limits()) as (reader, _file_):
        raw = reader.raw  # type: ignore[attr-defined]
        buffer = bytearray(1000)
        assert raw.readinto(buffer) == 1000 and bytes(buffer) == b"\n" * 1000
        total = 1000 + sum(iter(lambda: raw.readinto(buffer), 0))
    assert total == 3 << 20


@pytest.mark.parametrize("data", [b"hello world, this is no gzip data at all", MEMBER + b"\x1f"],
                         ids=["not-gzip", "a-byte-after"])
def test_an_answer_is_refused_by_its_stated_size_only_when_the_trailer_can_be_one(data: bytes) -> None:
    # the last four bytes of data that is not gzip, or of gzip data followed by a stray byte, were read as
    # a stated size: "the answer inflates past the limit" for an answer that is no gzip data
    with pytest.raises(ServerError) as answer:
        _answer(data)
    assert "inflates past the limit" not in str(answer.value)
    assert str(answer.value) == ("x: the answer says it is gzip-compressed (Content-Encoding: gzip) but is not valid "
                                 "gzip data (Error -3 while decompressing data: incorrect header check)"
                                 if data[:1] == b"h" else "x: the answer's gzip data is truncated (Content-Encoding: gzip)")


def test_a_bomb_is_still_refused_by_its_stated_size_before_inflating() -> None:
    # deflate's best ratio, about 1,030 to 1: a stated size within 1,032 bytes per byte is believed
    bomb = gzip.compress(b"\0" * (256 << 20), mtime=0)
    assert sources._stated_size(memoryview(bomb)) == 256 << 20
    assert sources._stated_size(memoryview(bomb[:-4] + (1032 * len(bomb) + 1).to_bytes(4, "little"))) is None
