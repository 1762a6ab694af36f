"""Lone surrogate escapes in a document read whole (a bundle, a folder's archive, a server's page) are read
as they are in a line of a stream: each as U+FFFD, said as a warning naming the event and the field."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.read.validate import validate_targets

from .matchkit import MATCH_ID, archive, ev, write_match
from .test_server_hostile import EXPORT, FAST, REPORT, Handler, Respond, report, serve

SAID = ("this string holds a lone surrogate escape (\\ud83d), which is no character (half of a pair: a text cut "
        "inside an emoji); read as U+FFFD")
SPAWNS = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0")]


def cut_events() -> list[dict[str, object]]:
    """Spawns, a message whose text is "cut here X" (X to become a lone high surrogate), a rest."""
    message = ev(3, 1, "message", "a_1", text="cut here X", channel="broadcast")
    message["payload"]["sha256"] = "0" * 64  # replaced below by the hash of the text as read
    return [*SPAWNS, message, ev(4, 1, "rest", "a_1")]


def cut(data: bytes) -> bytes:
    from hashlib import sha256
    digest = sha256("cut here \ufffd".encode()).hexdigest().encode()
    return data.replace(b"cut here X", b"cut here \\ud83d").replace(b"0" * 64, digest)


def problems(path: Path) -> tuple[int, list[tuple[object, ...]]]:
    result = validate_targets([str(path)])
    return result.exit_code, [(p.severity, p.code, p.event_id, p.index, p.path, p.message)
                              for p in result.files[0].problems]


@pytest.mark.parametrize("form", ["bundle", "bundle-gz"])
def test_a_lone_surrogate_in_a_bundle_event_is_read_as_in_a_line(tmp_path: Path, form: str) -> None:
    import gzip
    path = write_match(tmp_path, cut_events(), archive(["a_1", "a_2"], ended=10), form=form)
    data = path.read_bytes()
    path.write_bytes(gzip.compress(cut(gzip.decompress(data))) if form == "bundle-gz" else cut(data))
    code, said = problems(path)
    assert code == 0
    assert said == [("warning", "surrogate", 3, 2, "$.payload.text", SAID)]
    read = read_match(open_match(str(path)))
    got = list(read.events())
    assert [e["id"] for e in got] == [1, 2, 3, 4] and got[2]["payload"]["text"] == "cut here \ufffd"
    assert (read.stats.valid, read.stats.invalid) == (4, 0)


def test_a_bundle_event_with_a_lone_surrogate_and_a_repeated_key_says_both(tmp_path: Path) -> None:
    path = write_match(tmp_path, cut_events(), archive(["a_1", "a_2"], ended=10), form="bundle")
    path.write_bytes(cut(path.read_bytes()).replace(b'"channel":"broadcast"', b'"channel":"x","channel":"broadcast"'))
    code, said = problems(path)
    assert code == 0
    assert [s[:5] for s in said] == [("warning", "repeated-key", 3, 2, "$"),
                                     ("warning", "surrogate", 3, 2, "$.payload.text")]


def test_a_lone_surrogate_in_a_bundle_header_is_said(tmp_path: Path) -> None:
    arch = archive(["a_1", "a_2"], ended=10)
    arch["title"] = "cut here Y"
    path = write_match(tmp_path, SPAWNS, arch, form="bundle")
    path.write_bytes(path.read_bytes().replace(b"cut here Y", b"cut here \\ud83d"))
    code, said = problems(path)
    assert code == 0
    assert [(s[0], s[1], s[5]) for s in said if s[1] == "surrogate"] == [
        ("warning", "surrogate", f"$.archive.title: {SAID}")]


def test_a_lone_surrogate_in_a_folder_archive_is_said(tmp_path: Path) -> None:
    arch = archive(["a_1", "a_2"], ended=10)
    arch["title"] = "cut here Y"
    folder = write_match(tmp_path, SPAWNS, arch, form="folder")
    target = folder / "archive.json"
    target.write_bytes(target.read_bytes().replace(b"cut here Y", b"cut here \\ud83d"))
    code, said = problems(folder)
    assert code == 0
    assert [(s[1], s[5]) for s in said if s[1] == "surrogate"] == [("surrogate", f"archive.json: $.title: {SAID}")]


def test_a_bundle_not_json_for_another_reason_too_is_still_refused(tmp_path: Path) -> None:
    path = write_match(tmp_path, cut_events(), archive(["a_1", "a_2"], ended=10), form="bundle")
    path.write_bytes(cut(path.read_bytes()).replace(b'"tick":1,', b'"tick":NaN,', 1))
    result = validate_targets([str(path)])
    assert result.exit_code == 3
    assert result.files[0].unreadable == (f"{path}: not valid JSON: unexpected character, expected a JSON value: "
                                          "line 1 column 805 (char 804)")


# ------------------------------------------------------------------ a server's pages

def _send_raw(h: Handler, data: bytes) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(data)))
    h.end_headers()
    h.wfile.write(data)


def cut_pages(h: Handler, cursor: str | None) -> None:
    events = cut_events()
    if cursor is None:
        page = {"matchId": MATCH_ID, "events": events[:2], "errata": [], "next": "c1",
                "archive": archive(["a_1", "a_2"], ended=10)}
        _send_raw(h, orjson.dumps(page))
    else:
        page = {"matchId": MATCH_ID, "events": events[2:], "errata": [], "next": None}
        _send_raw(h, cut(orjson.dumps(page)))


@pytest.fixture
def routes() -> dict[str, Respond]:
    return {EXPORT: cut_pages, REPORT: report}


@pytest.fixture
def server(routes: dict[str, Respond]) -> Iterator[str]:
    yield from serve(routes)


def test_a_lone_surrogate_in_a_server_page_is_read_as_in_a_line(server: str, tmp_path: Path) -> None:
    read = read_match(open_match(MATCH_ID, store=tmp_path, server=server, limits=FAST))
    got = list(read.events())
    assert [e["id"] for e in got] == [1, 2, 3, 4] and got[2]["payload"]["text"] == "cut here \ufffd"
    assert [(p.severity, p.code, p.event_id, p.index, p.path, p.message) for p in read.stats.problems] == [
        ("warning", "surrogate", 3, 2, "$.payload.text", SAID)]
    assert (read.stats.valid, read.stats.invalid) == (4, 0)


def test_a_lone_surrogate_in_a_server_archive_is_said(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    def titled(h: Handler, cursor: str | None) -> None:
        arch = archive(["a_1", "a_2"], ended=10)
        arch["title"] = "cut here Y"
        page = {"matchId": MATCH_ID, "events": cut_events()[:2], "errata": [], "next": None, "archive": arch}
        _send_raw(h, orjson.dumps(page).replace(b"cut here Y", b"cut here \\ud83d"))

    routes[EXPORT] = titled
    read = read_match(open_match(MATCH_ID, store=tmp_path, server=server, limits=FAST))
    assert [e["id"] for e in read.events()] == [1, 2]
    assert read.archive["title"] == "cut here \ufffd"
    assert [(p.code, p.message) for p in read.header_problems() if p.code == "surrogate"] == [
        ("surrogate", f"{server}/api/matches/{MATCH_ID}/export: $.archive.title: {SAID}")]
