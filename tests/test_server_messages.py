"""What the server form says when a server misbehaves: the page and cursor meant (a cursor is no
secret; a token is), a cursor that is no cursor, redirects, compressed answers, TLS, Retry-After."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from daishi_forensics.errors import MatchNotFound, ServerError
from daishi_forensics.read.sources import open_match, redact_url

from .matchkit import MATCH_ID, archive
from .test_server_hostile import EVENTS, EXPORT, REPORT, Handler, Respond, pages, read_ids, report, serve


@pytest.fixture
def routes() -> dict[str, Respond]:
    return {EXPORT: pages, REPORT: report}


@pytest.fixture
def server(routes: dict[str, Respond]) -> Iterator[str]:
    yield from serve(routes)


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
    assert redact_url("http://u:pw@h/x?cursorx=1&key=2") == "http://u:***@h/x?cursorx=***&key=***"


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
