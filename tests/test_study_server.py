"""`study audit` against a real HTTP server on loopback: a study address, 409 with its reason, the recipe.

Seed 000, *Recomputing a study yourself*: the files are at the study's address
followed by /trials.csv and /seats.csv; until every trial is published they answer
409 with the page's reason, and the script exits 2.
"""

from __future__ import annotations

import base64
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner
from daishi_forensics.cli import main
from daishi_forensics.errors import StudyNotPublished, StudyUnreadable
from daishi_forensics.study import StudyClient, audit_study, load_study

from .studykit import write_study
from .test_study_audit import study_a_page, study_a_rows, study_b


class Handler(BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, bytes, str]] = {}
    failures_left: dict[str, int] = {}
    requests: list[str] = []
    auth: list[str | None] = []

    def log_message(self, *args: object) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server API)
        Handler.requests.append(self.path)
        Handler.auth.append(self.headers.get("Authorization"))
        left = Handler.failures_left.get(self.path, 0)
        if left:
            Handler.failures_left[self.path] = left - 1
            code, body, kind = 503, b'{"error": "busy"}', "application/json"
        else:
            code, body, kind = Handler.routes.get(self.path, (404, b'{"error": "not found"}', "application/json"))
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _serve_folder(handle: str, folder: Path) -> None:
    base = f"/u/{handle}/studies/s_hand"
    Handler.routes[f"{base}/trials.csv"] = (200, (folder / "trials.csv").read_bytes(), "text/csv")
    Handler.routes[f"{base}/seats.csv"] = (200, (folder / "seats.csv").read_bytes(), "text/csv")
    entry = json.loads((folder / "study.json").read_text())
    profile = {"handle": handle, "studies": [{"study": "s_other", "kind": "series"}, entry]}
    Handler.routes[f"/u/{handle}?format=json"] = (200, json.dumps(profile).encode(), "application/json")
    if (folder / "recipe.json").exists():
        Handler.routes[f"{entry['recipe']}?format=json"] = (200, (folder / "recipe.json").read_bytes(),
                                                             "application/json")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    trials, seats = study_a_rows()
    Handler.routes = {}
    Handler.failures_left = {}
    Handler.requests = []
    Handler.auth = []
    _serve_folder("ada", write_study(tmp_path / "a", trials, seats, study_a_page()))
    _serve_folder("bob", study_b(tmp_path / "b"))
    reason = {"error": "not yet published", "reason": "2 trials of arm 1 are still playing"}
    for name in ("trials.csv", "seats.csv"):
        Handler.routes[f"/u/ada/studies/s_playing/{name}"] = (409, json.dumps(reason).encode(), "application/json")
    Handler.routes["/u/ada/studies/s_text/trials.csv"] = (409, b"the study is paused by its owner", "text/plain")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_served_study_reads_same(server: str) -> None:
    result = CliRunner().invoke(main, ["study", "audit", f"{server}/u/ada/studies/s_hand", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["summary"]["figures"] == {"same": 29, "differ": 0, "total": 29}
    assert doc["sources"]["address"] == f"{server}/u/ada/studies/s_hand"
    assert Handler.requests == ["/u/ada/studies/s_hand/trials.csv", "/u/ada/studies/s_hand/seats.csv",
                                "/u/ada?format=json"]


def test_a_path_on_the_server_and_the_anytime_recipe(server: str) -> None:
    result = CliRunner().invoke(main, ["study", "audit", "u/bob/studies/s_hand", "--server", server])
    assert result.exit_code == 0, result.output
    assert "/u/ada/recipes/r_b?format=json" in Handler.requests
    assert "sequence tuning 0.5" in result.output


def test_409_prints_the_pages_reason_and_exits_2(server: str) -> None:
    result = CliRunner().invoke(main, ["study", "audit", f"{server}/u/ada/studies/s_playing"])
    assert result.exit_code == 2
    assert "not yet published (HTTP 409): 2 trials of arm 1 are still playing" in result.output
    assert "Traceback" not in result.output
    with pytest.raises(StudyNotPublished, match="the study is paused by its owner"):
        load_study(f"{server}/u/ada/studies/s_text")


def test_a_missing_study_and_a_bad_address_exit_2(server: str) -> None:
    runner = CliRunner()
    missing = runner.invoke(main, ["study", "audit", f"{server}/u/ada/studies/s_gone"])
    assert missing.exit_code == 2 and "HTTP 404" in missing.output
    bad = runner.invoke(main, ["study", "audit", f"{server}/u/ada/matches/m_1"])
    assert bad.exit_code == 2 and "not a study address" in bad.output
    Handler.routes["/u/carol?format=json"] = (200, b'{"studies": []}', "application/json")
    for name in ("trials.csv", "seats.csv"):
        Handler.routes[f"/u/carol/studies/s_hand/{name}"] = Handler.routes[f"/u/ada/studies/s_hand/{name}"]
    no_entry = runner.invoke(main, ["study", "audit", f"{server}/u/carol/studies/s_hand"])
    assert no_entry.exit_code == 2 and "no entry for study s_hand" in no_entry.output


def test_5xx_is_retried(server: str) -> None:
    Handler.failures_left = {"/u/ada/studies/s_hand/trials.csv": 2}
    audit = audit_study(load_study(f"{server}/u/ada/studies/s_hand", client=StudyClient(backoff=0.0)))
    assert audit.exit_code == 0
    assert Handler.requests.count("/u/ada/studies/s_hand/trials.csv") == 3
    Handler.failures_left = {"/u/ada/studies/s_hand/trials.csv": 5}
    with pytest.raises(StudyUnreadable, match="HTTP 503"):
        load_study(f"{server}/u/ada/studies/s_hand", client=StudyClient(retries=2, backoff=0.0))


def test_saved_copies_with_the_served_page(server: str, tmp_path: Path) -> None:
    trials, seats = study_a_rows()
    trials[0]["value"] = "50.001"  # a copy that no longer matches its focal seat
    saved = write_study(tmp_path / "saved", trials, seats)
    result = CliRunner().invoke(main, ["study", "audit", f"{server}/u/ada/studies/s_hand", "--trials",
                                       str(saved / "trials.csv"), "--seats", str(saved / "seats.csv")])
    assert result.exit_code == 1
    assert "trial-value" in result.output and "row 2" in result.output
    assert Handler.requests == ["/u/ada?format=json"]  # the files were not fetched


@pytest.mark.parametrize(("args", "message"), [
    (["http://[::1/u/ada/studies/s_1"], "http://[::1/u/ada/studies/s_1: not a study address (Invalid IPv6 URL)"),
    (["u/ada/studies/s_1", "--server", "http://[::1"], "http://[::1: not a valid server address (Invalid IPv6 URL)"),
])
def test_an_address_that_does_not_split_exits_2_not_70(args: list[str], message: str) -> None:
    """An unclosed IPv6 bracket in the study address or --server stopped the audit with an internal error
    (ValueError, exit 70) before any request; it is an address that cannot be read: exit 2, named."""
    result = CliRunner().invoke(main, ["study", "audit", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"daishi-forensics: error: {message}\n"


def test_credentials_in_a_study_address_are_sent_and_never_printed(server: str) -> None:
    """``study audit https://user:secret@host/…`` printed ``user:secret@`` as typed in every message (a
    connection refused, an HTTP error, a bad address) and in the report's sources, and sent no credentials
    (urllib took ``user:secret@host`` for a host name); they are sent as HTTP Basic authentication and
    every address is shown as ``***@host``, as the match server reader shows it."""
    runner = CliRunner()
    host = server.removeprefix("http://")
    secret = f"http://alice:s3cr3t@{host}"
    result = runner.invoke(main, ["study", "audit", f"{secret}/u/ada/studies/s_hand", "--json"])
    assert result.exit_code == 0, result.output
    assert "s3cr3t" not in result.output and "alice" not in result.output
    assert json.loads(result.output)["sources"] == {
        "trials": f"http://***@{host}/u/ada/studies/s_hand/trials.csv",
        "seats": f"http://***@{host}/u/ada/studies/s_hand/seats.csv",
        "page": f"http://***@{host}/u/ada?format=json (study s_hand)", "recipe": None,
        "address": f"http://***@{host}/u/ada/studies/s_hand"}
    assert Handler.auth == ["Basic " + base64.b64encode(b"alice:s3cr3t").decode()] * 3
    text = runner.invoke(main, ["study", "audit", f"{secret}/u/ada/studies/s_hand"])
    assert text.exit_code == 0 and "s3cr3t" not in text.output and f"http://***@{host}/u/ada" in text.output
    cases = [
        ([f"{secret}/u/ada/studies/s_gone"],
         f"http://***@{host}/u/ada/studies/s_gone/trials.csv: the server has no such study or file (HTTP 404)"),
        ([f"{secret}/u/ada/studies/s_playing"],
         f"http://***@{host}/u/ada/studies/s_playing/trials.csv: not yet published (HTTP 409): 2 trials of arm 1 "
         "are still playing"),
        ([f"{secret}/u/ada/matches/m_1"],
         f"http://***@{host}/u/ada/matches/m_1: not a study address (expected <server>/u/<handle>/studies/<id>)"),
        (["u/ada/studies/s_gone", "--server", secret],
         f"http://***@{host}/u/ada/studies/s_gone/trials.csv: the server has no such study or file (HTTP 404)"),
        (["u/ada/studies/s_1", "--server", "ftp://alice:s3cr3t@h"],
         "ftp://***@h: the server address must be http:// or https://, not 'ftp://***@h'"),
        (["http://alice:s3cr3t@[::1/u/ada/studies/s_1"],
         "http://***@[::1/u/ada/studies/s_1: not a study address (Invalid IPv6 URL)"),
        (["https://ghp_t0ken@[::1/u/ada/studies/s_1"],
         "https://***@[::1/u/ada/studies/s_1: not a study address (Invalid IPv6 URL)"),
    ]
    for args, message in cases:
        failed = runner.invoke(main, ["study", "audit", *args, "--progress"])
        assert failed.exit_code == 2, (args, failed.output)
        assert "s3cr3t" not in failed.stderr and "t0ken" not in failed.stderr and "alice" not in failed.stderr
        assert failed.stderr.endswith(f"daishi-forensics: error: {message}\n"), failed.stderr


def test_a_refused_connection_to_a_credentialed_address_hides_the_credentials() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(StudyUnreadable) as caught:
        load_study(f"http://alice:s3cr3t@127.0.0.1:{port}/u/ada/studies/s_1",
                   client=StudyClient(retries=0, backoff=0.0))
    assert str(caught.value) == (f"http://***@127.0.0.1:{port}/u/ada/studies/s_1/trials.csv: no answer after 1 "
                                 "attempt ([Errno 111] Connection refused)")


@pytest.mark.parametrize(("args", "message"), [
    (["https://alice:s3cr3t@127.0.0.1:99999/u/ada/studies/s_1"],
     "https://***@127.0.0.1:99999/u/ada/studies/s_1: not a study address: its port '99999' is not a port "
     "(a whole number from 0 to 65535)"),
    (["u/ada/studies/s_1", "--server", "http://127.0.0.1:99999/"],
     "http://127.0.0.1:99999/: not a valid server address: its port '99999' is not a port "
     "(a whole number from 0 to 65535)"),
    (["u/ada/studies/s_1", "--server", "http://127.0.0.1:http"],
     "http://127.0.0.1:http: not a valid server address: its port 'http' is not a port "
     "(a whole number from 0 to 65535)"),
])
def test_a_port_out_of_range_is_named_not_a_refused_connection(args: list[str], message: str) -> None:
    """``study audit https://host:99999/…`` tried four times and said "Connection refused" (exit 2, after
    the retries' waits); a port no connection can use is refused at once, the address named."""
    result = CliRunner().invoke(main, ["study", "audit", *args])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"daishi-forensics: error: {message}\n"
