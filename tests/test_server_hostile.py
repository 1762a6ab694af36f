"""The server form against a hostile or broken server (a real ``http.server`` on loopback).

Each handler below misbehaves in one way: pages that never end, a body that trickles
or never stops, a connection dropped mid-body, rate limiting, errata on a later page,
another match's pages, a failing report, redirects elsewhere, credentials in the URL.
Every request loop is bounded by the client's own limits, set small here.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.errors import BadSetting, ServerError
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import Limits, open_match, redact_url, server_address

from .matchkit import MATCH_ID, archive, ev

EVENTS = [ev(i, i, "rest", "a_1") for i in range(1, 8)]
EXPORT = f"/api/matches/{MATCH_ID}/export"
REPORT = f"/api/matches/{MATCH_ID}/report"
FAST = Limits(server_answer_seconds=2.0, server_answer_bytes=1 << 20, server_empty_pages=5,
              server_retry_after_seconds=2.0, server_backoff_seconds=0.01)

Respond = Callable[["Handler", str | None], None]


class Handler(BaseHTTPRequestHandler):
    routes: dict[str, Respond] = {}
    requests: list[str] = []
    auth: list[str | None] = []
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def send_json(self, code: int, body: object, headers: dict[str, str] | None = None) -> None:
        self.send_bytes(code, orjson.dumps(body), headers)

    def send_bytes(self, code: int, data: bytes, headers: dict[str, str] | None = None) -> None:
        """An answer of these bytes as they are (a page whose text a test wrote by hand)."""
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        Handler.requests.append(self.path)
        Handler.auth.append(self.headers.get("Authorization"))
        url = urlsplit(self.path)
        cursor = parse_qs(url.query).get("cursor", [None])[0]
        respond = Handler.routes.get(url.path)
        if respond is None:
            self.send_json(404, {"error": "not found"})
        else:
            respond(self, cursor)


def pages(h: Handler, cursor: str | None, *, errata_on: str | None = "-", match_on: str | None = "-") -> None:
    table = {None: (EVENTS[:3], "c1"), "c1": (EVENTS[3:6], "c2"), "c2": (EVENTS[6:], None)}
    events, nxt = table[cursor]
    page: dict[str, object] = {"matchId": MATCH_ID, "events": events, "errata": [], "next": nxt}
    if cursor is None:
        page["archive"] = archive(["a_1"], ended=10)
    if cursor == errata_on:
        page["errata"] = [{"id": "E2", "text": "void", "events": [2]}]
    if cursor == match_on:
        page["matchId"] = "m_ffffffffffff"
    h.send_json(200, page)


def report(h: Handler, cursor: str | None) -> None:
    h.send_json(200, {"matchId": MATCH_ID, "rubricVersion": "2.4", "seats": []})


def serve(routes: dict[str, Respond]) -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Handler.routes = routes
    Handler.requests = []
    Handler.auth = []
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def read_ids(server: str, tmp_path: Path) -> list[int]:
    read = read_match(open_match(MATCH_ID, store=tmp_path, server=server, limits=FAST))
    return [e["id"] for e in read.events()]


# --------------------------------------------------------------------------- paging


def test_pages_without_progress_are_bounded(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    counter = iter(range(10**6))

    def endless(h: Handler, cursor: str | None) -> None:
        page: dict[str, object] = {"matchId": MATCH_ID, "events": [], "next": f"n{next(counter)}"}
        if cursor is None:
            page["archive"] = archive(["a_1"], ended=10)
        h.send_json(200, page)

    routes[EXPORT] = endless
    started = time.monotonic()
    with pytest.raises(ServerError, match="5 pages in a row without an event"):
        read_ids(server, tmp_path)
    assert time.monotonic() - started < 10
    assert sum(1 for r in Handler.requests if r.startswith(EXPORT)) == 6


def test_a_trickling_answer_hits_the_time_limit_per_answer(server: str, routes: dict[str, Respond],
                                                           tmp_path: Path) -> None:
    def trickle(h: Handler, cursor: str | None) -> None:
        h.send_response(200)
        h.send_header("Content-Length", "1000")
        h.end_headers()
        try:
            for _ in range(100):  # bounded: 100 bytes over 20 s at most
                h.wfile.write(b" ")
                h.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass

    routes[EXPORT] = trickle
    started = time.monotonic()
    with pytest.raises(ServerError, match="no complete answer within 2 s"):
        read_ids(server, tmp_path)
    assert time.monotonic() - started < 8


@pytest.mark.parametrize("declared", [True, False])
def test_an_answer_over_the_size_limit_is_refused(server: str, routes: dict[str, Respond], tmp_path: Path,
                                                  declared: bool) -> None:
    size = 3 << 20

    def huge(h: Handler, cursor: str | None) -> None:
        h.send_response(200)
        if declared:
            h.send_header("Content-Length", str(size))
        else:
            h.send_header("Connection", "close")
        h.end_headers()
        try:
            for _ in range(size // 65536):
                h.wfile.write(b" " * 65536)
        except OSError:
            pass

    routes[EXPORT] = huge
    with pytest.raises(ServerError, match="larger than the limit of 1048576 bytes"):
        read_ids(server, tmp_path)


@pytest.mark.parametrize("length", ["\u00b2", "\u00b9\u00b2"])
def test_a_content_length_not_in_ascii_digits_is_no_length(server: str, routes: dict[str, Respond], tmp_path: Path,
                                                           length: str) -> None:
    # "²" is a digit to str.isdigit and no number to int(): the client stopped on a ValueError (a crash);
    # a length that is no positive whole number in ASCII digits is no length (the body is read to its end)
    def odd(h: Handler, cursor: str | None) -> None:
        data = orjson.dumps({"matchId": MATCH_ID, "events": EVENTS, "errata": [], "next": None,
                             "archive": archive(["a_1"], ended=10)})
        h.send_response(200)
        h.send_header("Content-Length", length)  # (sent as Latin-1, as HTTP headers are)
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(data)
        h.close_connection = True

    routes[EXPORT] = odd
    assert read_ids(server, tmp_path) == list(range(1, 8))


def test_a_content_length_of_thousands_of_digits_is_over_the_limit(server: str, routes: dict[str, Respond],
                                                                   tmp_path: Path) -> None:
    # more digits than int() converts: a ValueError (a crash) before; now a length past the limit, refused
    def endless(h: Handler, cursor: str | None) -> None:
        h.send_response(200)
        h.send_header("Content-Length", "9" * 5000)
        h.end_headers()
        h.close_connection = True

    routes[EXPORT] = endless
    with pytest.raises(ServerError, match="larger than the limit of 1048576 bytes"):
        read_ids(server, tmp_path)


def test_a_connection_dropped_mid_body_is_retried(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    dropped = {"left": 2}

    def flaky(h: Handler, cursor: str | None) -> None:
        if dropped["left"]:
            dropped["left"] -= 1
            h.send_response(200)
            h.send_header("Content-Length", "5000")
            h.end_headers()
            h.wfile.write(b'{"matchId": ')
            h.wfile.flush()
            h.close_connection = True
            return
        pages(h, cursor)

    routes[EXPORT] = flaky
    assert read_ids(server, tmp_path) == list(range(1, 8))
    assert sum(1 for r in Handler.requests if r == EXPORT) == 3


def test_429_retry_after_is_honoured(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    limited = {"left": 1}

    def busy(h: Handler, cursor: str | None) -> None:
        if limited["left"]:
            limited["left"] -= 1
            h.send_json(429, {"error": "slow down"}, {"Retry-After": "1"})
            return
        pages(h, cursor)

    routes[EXPORT] = busy
    started = time.monotonic()
    assert read_ids(server, tmp_path) == list(range(1, 8))
    assert time.monotonic() - started >= 1.0


def test_429_asking_too_long_a_wait_is_an_error(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    routes[EXPORT] = lambda h, c: h.send_json(429, {"error": "go away"}, {"Retry-After": "3600"})
    started = time.monotonic()
    with pytest.raises(ServerError, match="HTTP 429.*3600 s"):
        read_ids(server, tmp_path)
    assert time.monotonic() - started < 3


# --------------------------------------------------------------------------- semantics


def test_errata_on_a_later_page_apply_to_the_whole_match(server: str, routes: dict[str, Respond],
                                                         tmp_path: Path) -> None:
    routes[EXPORT] = lambda h, c: pages(h, c, errata_on="c2")
    read = read_match(open_match(MATCH_ID, store=tmp_path, server=server, limits=FAST))
    assert [e["id"] for e in read.events()] == [1, 3, 4, 5, 6, 7]
    assert read.stats.excluded_by_errata == [2]
    assert [e["id"] for e in read.errata] == ["E2"]


@pytest.mark.parametrize("page", [None, "c1"])
def test_a_page_of_another_match_is_refused(server: str, routes: dict[str, Respond], tmp_path: Path,
                                            page: str | None) -> None:
    routes[EXPORT] = lambda h, c: pages(h, c, match_on=page)
    with pytest.raises(ServerError, match="m_ffffffffffff"):
        read_ids(server, tmp_path)


def test_a_failing_report_is_a_finding_not_a_failure(server: str, routes: dict[str, Respond],
                                                     tmp_path: Path) -> None:
    routes[REPORT] = lambda h, c: h.send_json(500, {"error": "report service down"})
    source = open_match(MATCH_ID, store=tmp_path, server=server, limits=FAST)
    assert source.report is None and "HTTP 500" in (source.report_error or "")
    runner = CliRunner()
    env = {"DAISHI_SERVER": server, "DAISHI_MATCHES": str(tmp_path)}
    result = runner.invoke(main, ["behavior", "--format", "json", MATCH_ID], env=env)
    assert result.exit_code == 1, result.output
    findings = orjson.loads(result.stdout)["findings"]
    unread = [f for f in findings if f["kind"] == "report-unreadable"]
    assert len(unread) == 1 and "published scorecards (the match's report) could not be read" in unread[0]["message"]
    validated = runner.invoke(main, ["validate", MATCH_ID], env=env)
    assert validated.exit_code == 0 and "warning:" in validated.stdout and "report could not be read" in validated.stdout
    scored = runner.invoke(main, ["score", "--format", "text", MATCH_ID], env=env)
    assert scored.exit_code == 1, scored.output
    assert "nothing to compare" in scored.stdout and "could not be read" in scored.stdout


def test_a_report_of_another_match_is_not_compared(server: str, routes: dict[str, Respond],
                                                   tmp_path: Path) -> None:
    routes[REPORT] = lambda h, c: h.send_json(200, {"matchId": "m_ffffffffffff", "seats": []})
    source = open_match(MATCH_ID, store=tmp_path, server=server, limits=FAST)
    assert source.report is None and "m_ffffffffffff" in (source.report_error or "")


def test_a_redirect_to_another_host_is_refused(routes: dict[str, Respond], tmp_path: Path) -> None:
    elsewhere = serve({EXPORT: pages, REPORT: report})
    other = next(elsewhere)
    try:
        moved = other.replace("127.0.0.1", "localhost")
        routes[EXPORT] = lambda h, c: h.send_json(302, {}, {"Location": moved + EXPORT})
        for server in serve(routes):
            with pytest.raises(ServerError, match="redirect.*another host.*refused"):
                read_ids(server, tmp_path)
    finally:
        elsewhere.close()


def test_a_redirect_on_the_same_server_is_followed(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    routes["/old"] = lambda h, c: pages(h, c)
    routes[EXPORT] = lambda h, c: (h.send_json(307, {}, {"Location": "/old" + ("?cursor=" + c if c else "")}))
    assert read_ids(server, tmp_path) == list(range(1, 8))


def test_credentials_in_the_url_are_sent_and_never_echoed(routes: dict[str, Respond], tmp_path: Path) -> None:
    routes[EXPORT] = lambda h, c: h.send_json(503, {"error": "down"})
    for server in serve(routes):
        secret_url = server.replace("http://", "http://alice:s3cr3t@")
        with pytest.raises(ServerError) as caught:
            read_ids(secret_url, tmp_path)
        assert "s3cr3t" not in str(caught.value) and "alice" not in str(caught.value) and "//***@127.0.0.1" in str(caught.value)
        assert Handler.auth[0] == "Basic " + base64.b64encode(b"alice:s3cr3t").decode()
        result = CliRunner().invoke(main, ["validate", MATCH_ID, "--server", secret_url, "--store", str(tmp_path)])
        assert result.exit_code == 3 and "s3cr3t" not in result.output
        out = tmp_path / "season"
        season = CliRunner().invoke(main, ["season", "screen", MATCH_ID, "--server", secret_url, "--store",
                                           str(tmp_path), "--out", str(out), "-j", "1"])
        assert season.exit_code == 3 and "s3cr3t" not in season.output
        for written in out.rglob("*"):
            assert not written.is_file() or b"s3cr3t" not in written.read_bytes(), written


def test_redact_url() -> None:
    assert redact_url("https://bob:pw@host:8/x?token=abc&y=1") == "https://***@host:8/x?token=***&y=***"
    assert redact_url("http://host/x") == "http://host/x"


# --------------------------------------------------------------------------- settings


def test_a_bad_server_address_is_a_usage_error() -> None:
    with pytest.raises(BadSetting, match="not a valid URL"):
        server_address("http://[::1")
    result = CliRunner().invoke(main, ["validate", "m_0123456789ab", "--server", "http://[::1"])
    assert result.exit_code == 2 and "--server" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["validate", "m_0123456789ab"], env={"DAISHI_SERVER": "ftp://x"})
    assert result.exit_code == 2 and "--server" in result.output


def test_a_bad_size_limit_variable_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["validate", "m_demo"], env={"DAISHI_MAX_INFLATED_BYTES": "4GB"})
    assert result.exit_code == 2, result.output
    assert "DAISHI_MAX_INFLATED_BYTES" in result.stderr and "Traceback" not in result.output


def test_a_null_threshold_in_a_config_is_a_config_error(tmp_path: Path) -> None:
    config = tmp_path / "screens.json"
    config.write_text('{"screens": {"feeder": {"threshold": null}}}')
    result = CliRunner().invoke(main, ["screen", "--config", str(config), "m_demo"])
    assert result.exit_code == 2, result.output
    assert "screens.feeder.threshold" in result.stderr and "Traceback" not in result.output


def test_an_answer_deadline_cancelled_leaves_no_thread_behind() -> None:
    """Its timer's thread has ended when ``cancel`` returns (a thread still running would make the analysis
    that follows refuse to fork)."""
    from daishi_forensics.read.sources import _Deadline

    deadline = _Deadline(30.0)
    deadline.cancel()
    assert not deadline._timer.is_alive() and not deadline.fired
