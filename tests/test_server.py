"""The Daishi server form, against a real HTTP server on loopback (contract §1)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import orjson
import pytest

from daishi_forensics.errors import MatchNotFound, ServerError
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match

from .matchkit import MATCH_ID, archive, ev

EVENTS = [ev(i, i, "rest", "a_1") for i in range(1, 8)]
PAGES = {None: (EVENTS[:3], "c1"), "c1": (EVENTS[3:6], "c2"), "c2": (EVENTS[6:], None)}


class Handler(BaseHTTPRequestHandler):
    failures_left: dict[str, int] = {}
    requests: list[str] = []

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def _send(self, code: int, body: object) -> None:
        data = orjson.dumps(body)
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        Handler.requests.append(self.path)
        url = urlsplit(self.path)
        left = Handler.failures_left.get(url.path, 0)
        if left:
            Handler.failures_left[url.path] = left - 1
            self._send(503, {"error": "busy"})
            return
        if url.path == f"/api/matches/{MATCH_ID}/export":
            cursor = parse_qs(url.query).get("cursor", [None])[0]
            events, nxt = PAGES[cursor]
            page = {"matchId": MATCH_ID, "events": events, "errata": [], "next": nxt}
            if cursor is None:
                page["archive"] = archive(["a_1"], ended=10)
            self._send(200, page)
        elif url.path == f"/api/matches/{MATCH_ID}/report":
            self._send(200, {"matchId": MATCH_ID, "rubricVersion": "2.4", "seats": []})
        elif url.path == "/api/matches/m_000000000bad/export":
            self._send(500, {"error": "always broken"})
        else:
            self._send(404, {"error": "not found"})


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Handler.requests = []
    Handler.failures_left = {}
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_pages_are_followed_in_order(server: str, tmp_path) -> None:
    source = open_match(MATCH_ID, store=tmp_path, server=server)
    assert source.form == "server" and source.report == {"matchId": MATCH_ID, "rubricVersion": "2.4", "seats": []}
    read = read_match(source)
    assert [e["id"] for e in read.events()] == list(range(1, 8))
    assert read.stats.problems == []


def test_5xx_is_retried_then_succeeds(server: str, tmp_path) -> None:
    Handler.failures_left = {f"/api/matches/{MATCH_ID}/export": 2}
    read = read_match(open_match(MATCH_ID, store=tmp_path, server=server))
    assert len(list(read.events())) == 7
    assert sum(1 for r in Handler.requests if r == f"/api/matches/{MATCH_ID}/export") == 3


def test_404_is_match_not_found(server: str, tmp_path) -> None:
    with pytest.raises(MatchNotFound, match="HTTP 404"):
        open_match("m_ffffffffffff", store=tmp_path, server=server)


def test_persistent_5xx_gives_up_after_bounded_retries(server: str, tmp_path) -> None:
    with pytest.raises(ServerError, match="HTTP 500"):
        open_match("m_000000000bad", store=tmp_path, server=server)
    assert sum(1 for r in Handler.requests if "m_000000000bad" in r) == 4


def test_connection_refused_is_a_clear_error(tmp_path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ServerError, match="no answer after 4 attempts"):
        open_match(MATCH_ID, store=tmp_path, server=f"http://127.0.0.1:{port}")


def test_an_address_with_a_query_keeps_the_api_path_before_it(server: str, tmp_path) -> None:
    """A token in the server address's query goes with every request; the API path goes before it."""
    source = open_match(MATCH_ID, store=tmp_path, server=f"{server}/?token=s3cret")
    read = read_match(source)
    assert [e["id"] for e in read.events()] == list(range(1, 8))
    assert source.report == {"matchId": MATCH_ID, "rubricVersion": "2.4", "seats": []}
    assert sorted(Handler.requests) == sorted([
        f"/api/matches/{MATCH_ID}/export?token=s3cret",
        f"/api/matches/{MATCH_ID}/export?token=s3cret&cursor=c1",
        f"/api/matches/{MATCH_ID}/export?token=s3cret&cursor=c2",
        f"/api/matches/{MATCH_ID}/report?token=s3cret",
    ])


@pytest.mark.parametrize("address", ["http://127.0.0.1:1/a b/", "http://127.0.0.1:1/d\u00e4/",
                                     "http://127.0.0.1:1/?token=a b", "http://127.0.0.1:1/x\ty"])
def test_an_address_with_a_space_or_non_ascii_is_a_usage_error(address: str) -> None:
    """Such an address is refused when read (a usage error), not retried as a network failure or a crash."""
    from daishi_forensics.errors import BadSetting
    from daishi_forensics.read.sources import server_address

    with pytest.raises(BadSetting, match="percent-encoded"):
        server_address(address)
