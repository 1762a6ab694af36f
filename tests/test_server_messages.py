"""What the server form says when a server misbehaves: the page and cursor meant (a cursor is no
secret; a token is), a cursor that is no cursor, redirects, compressed answers, TLS, Retry-After."""

from __future__ import annotations

import gzip
import time
from pathlib import Path

import orjson
import pytest

from daishi_forensics.errors import MatchNotFound, ServerError
from daishi_forensics.read.sources import open_match, redact_url

from .matchkit import MATCH_ID, archive
from .test_server_hostile import EVENTS, EXPORT, Handler, Respond, pages, read_ids


def test_a_404_on_a_later_page_names_the_cursor_not_a_missing_match(server: str, routes: dict[str, Respond],
                                                                    tmp_path: Path) -> None:
    def lost(h: Handler, cursor: str | None) -> None:
        if cursor == "c2":
            h.send_json(404, {"error": "gone"})
        else:
            pages(h, cursor)

    routes[EXPORT] = lost
    with pytest.raises(ServerError) as caught:
        read_ids(f"{server}/?token=s3cret", tmp_path)
    assert not isinstance(caught.value, MatchNotFound)
    assert str(caught.value) == (
        f"{server}/api/matches/{MATCH_ID}/export?token=***&cursor=c2: the server has no export page at cursor "
        "'c2' (given as 'next' by the export page at cursor 'c1'): the cursor was not found, or expired while "
        "the pages were read (HTTP 404)")


def test_a_404_on_the_first_page_is_still_no_such_match(server: str, tmp_path: Path) -> None:
    with pytest.raises(MatchNotFound) as caught:
        open_match("m_ffffffffffff", store=tmp_path, server=f"{server}/?token=s3cret")
    assert str(caught.value) == (f"{server}/api/matches/m_ffffffffffff/export?token=***: the server has no such "
                                 "match (HTTP 404)")


def test_redact_url_hides_a_token_but_shows_a_cursor() -> None:
    assert redact_url("http://h/api/matches/m/export?token=abc&cursor=c2") == \
        "http://h/api/matches/m/export?token=***&cursor=c2"
    assert redact_url("http://u:pw@h/x?cursorx=1&key=2") == "http://***@h/x?cursorx=***&key=***"


@pytest.mark.parametrize(("following", "said"), [(False, "false"), (True, "true"), (2.5, "2.5"),
                                                 ({"page": 2}, "an object"), (["c1"], "an array"),
                                                 ("", "an empty string")])
def test_a_next_that_is_no_cursor_is_refused(server: str, routes: dict[str, Respond], tmp_path: Path,
                                             following: object, said: str) -> None:
    def weird(h: Handler, cursor: str | None) -> None:
        h.send_json(200, {"matchId": MATCH_ID, "archive": archive(["a_1"], ended=10), "events": EVENTS[:3],
                          "next": following})

    routes[EXPORT] = weird
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (
        f"{server}/api/matches/{MATCH_ID}/export, field next: the first export page gives as 'next' {said}: a "
        "cursor is a non-empty string or a whole number, and the last page gives null; refused")
    assert Handler.requests == [EXPORT]


def test_a_whole_number_cursor_is_followed(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    def numbered(h: Handler, cursor: str | None) -> None:
        table = {None: (EVENTS[:3], 7), "7": (EVENTS[3:], None)}
        events, nxt = table[cursor]
        page: dict[str, object] = {"matchId": MATCH_ID, "events": events, "next": nxt}
        if cursor is None:
            page["archive"] = archive(["a_1"], ended=10)
        h.send_json(200, page)

    routes[EXPORT] = numbered
    assert read_ids(server, tmp_path) == list(range(1, 8))
    assert Handler.requests[:2] == [EXPORT, EXPORT + "?cursor=7"]


def test_503_retry_after_is_honoured(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    busy = {"left": 1}

    def unavailable(h: Handler, cursor: str | None) -> None:
        if busy["left"]:
            busy["left"] -= 1
            h.send_json(503, {"error": "maintenance"}, {"Retry-After": "1"})
            return
        pages(h, cursor)

    routes[EXPORT] = unavailable
    started = time.monotonic()
    assert read_ids(server, tmp_path) == list(range(1, 8))
    assert time.monotonic() - started >= 1.0  # the backoff alone is 0.01 s


def test_503_asking_too_long_a_wait_is_an_error(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    routes[EXPORT] = lambda h, c: h.send_json(503, {"error": "down"}, {"Retry-After": "3600"})
    started = time.monotonic()
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (f"{server}/api/matches/{MATCH_ID}/export: the server answered HTTP 503 (service "
                                 "unavailable) asking to wait 3600 s, longer than the 2 s this client waits")
    assert time.monotonic() - started < 3 and Handler.requests == [EXPORT]


def send_raw(h: Handler, body: bytes, headers: dict[str, str]) -> None:
    h.send_bytes(200, body, headers)


def page_bytes(cursor: str | None) -> bytes:
    table = {None: (EVENTS[:3], "c1"), "c1": (EVENTS[3:6], "c2"), "c2": (EVENTS[6:], None)}
    events, nxt = table[cursor]
    page: dict[str, object] = {"matchId": MATCH_ID, "events": events, "next": nxt}
    if cursor is None:
        page["archive"] = archive(["a_1"], ended=10)
    return orjson.dumps(page)


def test_a_gzip_encoded_answer_is_inflated(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    routes[EXPORT] = lambda h, c: send_raw(h, gzip.compress(page_bytes(c)), {"Content-Encoding": "gzip"})
    assert read_ids(server, tmp_path) == list(range(1, 8))


@pytest.mark.parametrize(("body", "headers", "said"), [
    (gzip.compress(b"{}" * 10), {}, "the answer is gzip-compressed data the server did not declare (no "
                                    "Content-Encoding: gzip), not JSON"),
    (b"{}", {"Content-Encoding": "br"}, "the answer is compressed as 'br' (its Content-Encoding), which this "
                                        "client does not read; refused"),
    (gzip.compress(b"{}")[:-12], {"Content-Encoding": "gzip"},
     "the answer's gzip data is truncated (Content-Encoding: gzip)"),
    (gzip.compress(b" " * 3_000_000), {"Content-Encoding": "gzip"},
     f"the answer inflates past the limit of {1 << 20} bytes; refused"),
])
def test_a_compressed_answer_that_cannot_be_read_says_why(server: str, routes: dict[str, Respond], tmp_path: Path,
                                                          body: bytes, headers: dict[str, str], said: str) -> None:
    routes[EXPORT] = lambda h, c: send_raw(h, body, headers)
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == f"{server}/api/matches/{MATCH_ID}/export: {said}"


def test_a_redirect_loop_says_so(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    routes[EXPORT] = lambda h, c: h.send_json(302, {}, {"Location": EXPORT})
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (f"{server}/api/matches/{MATCH_ID}/export: the server's redirects loop (HTTP 302 "
                                 "back to an address already visited, or more than 5 redirects in a row); refused")


def test_a_redirect_to_https_says_to_use_https(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    secure = server.replace("http://", "https://")
    routes[EXPORT] = lambda h, c: h.send_json(301, {}, {"Location": secure + EXPORT})
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (
        f"{server}/api/matches/{MATCH_ID}/export: the server answered HTTP 301, a redirect from http to https on "
        f"the same host ({secure}{EXPORT}); refused: give the server's address as https://")


def test_https_to_a_plain_http_port_says_it_does_not_speak_tls(server: str, tmp_path: Path) -> None:
    secure = server.replace("http://", "https://")
    started = time.monotonic()
    with pytest.raises(ServerError) as caught:
        read_ids(secure, tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{secure}/api/matches/{MATCH_ID}/export: the server does not speak TLS (https) on "
                              "that port: the TLS handshake failed (")
    assert message.endswith("); if it serves plain HTTP there, give its address as http://")
    assert time.monotonic() - started < 5  # not retried


def test_a_gzip_answer_of_several_members_is_inflated_whole(server: str, routes: dict[str, Respond],
                                                            tmp_path: Path) -> None:
    # only the first member was inflated: the rest of the page was silently dropped
    def members(h: Handler, cursor: str | None) -> None:
        data = page_bytes(cursor)
        send_raw(h, gzip.compress(data[:20]) + gzip.compress(data[20:]), {"Content-Encoding": "gzip"})

    routes[EXPORT] = members
    assert read_ids(server, tmp_path) == list(range(1, 8))


def test_a_gzip_bomb_past_the_limit_over_several_members_is_refused(server: str, routes: dict[str, Respond],
                                                                    tmp_path: Path) -> None:
    member = gzip.compress(b" " * 600_000)
    routes[EXPORT] = lambda h, c: send_raw(h, member * 2, {"Content-Encoding": "gzip"})
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (f"{server}/api/matches/{MATCH_ID}/export: the answer inflates past the limit of "
                                 f"{1 << 20} bytes; refused")


@pytest.mark.parametrize("value", ["\u00b2", "\u00b2\u00b3"])
def test_a_retry_after_of_other_digits_is_not_read(server: str, routes: dict[str, Respond], tmp_path: Path,
                                                   value: str) -> None:
    # str.isdigit took '²' and float() then failed: an internal error
    busy = {"left": 1}

    def unavailable(h: Handler, cursor: str | None) -> None:
        if busy["left"]:
            busy["left"] -= 1
            h.send_json(503, {"error": "maintenance"}, {"Retry-After": value})
            return
        pages(h, cursor)

    routes[EXPORT] = unavailable
    assert read_ids(server, tmp_path) == list(range(1, 8))


def test_a_retry_after_date_far_ahead_is_an_error(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    routes[EXPORT] = lambda h, c: h.send_json(429, {"error": "slow down"},
                                              {"Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"})
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert "asking to wait" in str(caught.value) and "longer than the 2 s this client waits" in str(caught.value)


def test_redact_url_hides_a_bare_query_value() -> None:
    assert redact_url("http://h:1/?s3cret") == "http://h:1/?***"
    assert redact_url("http://h:1/x?s3cret&token=t&cursor=c") == "http://h:1/x?***&token=***&cursor=c"


def test_a_gzip_bomb_is_refused_by_its_stated_size_before_inflating(monkeypatch: pytest.MonkeyPatch) -> None:
    from daishi_forensics.read import sources

    bomb = bytearray(gzip.compress(b"\0" * (3 << 20)))  # 3 MiB in a few KiB, past a 1 MiB limit

    def inflating(*args: object, **kwargs: object) -> object:
        raise AssertionError("inflated")

    monkeypatch.setattr(sources.zlib, "decompressobj", inflating)
    with pytest.raises(ServerError, match="^x: the answer inflates past the limit of 1048576 bytes; refused$"):
        sources._decoded(bomb, "gzip", 1 << 20, "x")


def test_a_gzip_bomb_lying_about_its_size_is_refused_while_inflating() -> None:
    from daishi_forensics.read import sources

    bomb = bytearray(gzip.compress(b"\0" * (40 << 20)))  # several pieces of input
    bomb[-4:] = (100).to_bytes(4, "little")  # says 100 bytes
    with pytest.raises(ServerError, match="^x: the answer inflates past the limit of 1048576 bytes; refused$"):
        sources._decoded(bomb, "gzip", 1 << 20, "x")


def test_a_tls_connection_closed_during_the_handshake_is_retried(tmp_path: Path) -> None:
    # it was said to be a port of plain HTTP ("give its address as http://") and not retried
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[int] = []

    def close_each() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            accepted.append(1)
            conn.close()

    threading.Thread(target=close_each, daemon=True).start()
    try:
        with pytest.raises(ServerError) as caught:
            read_ids(f"https://127.0.0.1:{listener.getsockname()[1]}", tmp_path)
    finally:
        listener.close()
    message = str(caught.value)
    assert "no answer after 4 attempts" in message and "plain HTTP" not in message
    assert len(accepted) == 4


def test_a_retry_after_of_endless_digits_is_said_in_words(server: str, routes: dict[str, Respond],
                                                          tmp_path: Path) -> None:
    # 400 nines read as a float are inf: "asking to wait inf s"
    routes[EXPORT] = lambda h, c: h.send_json(503, {"error": "down"}, {"Retry-After": "9" * 400})
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (f"{server}/api/matches/{MATCH_ID}/export: the server answered HTTP 503 (service "
                                 "unavailable) asking to wait longer than 30,000 years, longer than the 2 s this "
                                 "client waits")
