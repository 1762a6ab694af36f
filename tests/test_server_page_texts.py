"""What only an export page's text shows of its events, said as for a line of a stream: the keys an
event repeats, and its numbers a double may not be, quoted as the page writes them."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import MATCH_ID, archive, ev
from .test_server_hostile import EXPORT, Handler, Respond


def _page(*events: bytes) -> Respond:
    def respond(h: Handler, cursor: str | None) -> None:
        head = orjson.dumps({"matchId": MATCH_ID, "archive": archive(["a_1"], ended=10), "errata": [], "next": None})
        body = head[:-1] + b',"events":[' + b",".join(events) + b"]}"
        h.send_bytes(200, body)
    return respond


def _said(server: str, tmp_path: Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["validate", "--store", str(tmp_path), "--server", server, MATCH_ID])
    lines = [line.strip() for line in result.output.splitlines() if line.strip().startswith(("error:", "warning:"))]
    return result.exit_code, lines


@pytest.fixture
def routes() -> dict[str, Respond]:
    return {}


def test_a_key_repeated_in_a_server_page_event_is_said(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    """A page's event that repeats a key (``"tick": 1, "tick": 9``) kept the last value without a word
    (validate exit 0, nothing said), where a stream's line or a bundle's event gets a warning naming the
    key and the event."""
    repeated = orjson.dumps(ev(2, 1, "rest", "a_1")).replace(b'"tick":1,', b'"tick":1,"tick":2,')
    routes[EXPORT] = _page(orjson.dumps(ev(1, 0, "agent_spawned", "a_1", region="r_0_0")), repeated)
    address = f"{server}/api/matches/{MATCH_ID}/export"
    assert _said(server, tmp_path) == (0, [f"warning: {address}, event #1, id 2: $: the key 'tick' is repeated in "
                                           "this event; the last value is kept"])


def test_a_server_page_quotes_a_number_past_2_53_as_it_writes_it(server: str, routes: dict[str, Respond],
                                                                 tmp_path: Path) -> None:
    """A page's numbers were quoted as the doubles read: an id 18446744073709551616 was 'id
    1.8446744073709552e+19' ('…: $.id: 1.8446744073709552e+19 is past 2**53: …'), a tick
    9007199254740993.0 '9007199254740992 is greater than the maximum of 9007199254740991' beside a warning
    '9007199254740992.0 is written as a fraction where an integer goes' (exit 1).  Now each is quoted as
    written, as a stream's line is (exit 1 as before)."""
    big_id = orjson.dumps(ev(2, 1, "rest", "a_1")).replace(b'"id":2,', b'"id":18446744073709551616,')
    big_tick = orjson.dumps(ev(3, 1, "rest", "a_1")).replace(b'"tick":1,', b'"tick":9007199254740993.0,')
    routes[EXPORT] = _page(orjson.dumps(ev(1, 0, "agent_spawned", "a_1", region="r_0_0")), big_id, big_tick)
    address = f"{server}/api/matches/{MATCH_ID}/export"
    assert _said(server, tmp_path) == (1, [
        f"error: {address}, event #1, id 18446744073709551616: $.id: 18446744073709551616 (as written in the file; "
        "read as 1.8446744073709552e+19) is past 2**53: an integer this large cannot be read exactly",
        f"error: {address}, event #2, id 3: $.tick: 9007199254740993.0 (as written in the file; read as "
        "9007199254740992.0) is past 2**53: an integer this large cannot be read exactly"])
