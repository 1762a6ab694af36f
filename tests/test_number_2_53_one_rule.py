"""2**53 written with a fraction (``9007199254740992.0``) where an integer goes and nothing bounds it: read as that
integer, with a warning, in an event and in the archive alike (one rule: :func:`read_exactly`); a number the
double read is not (``9007199254740993.0``, read as 2**53 too) refused in both."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.boundary import as_written
from daishi_forensics.read.validation import IntegralFloat, read_exactly

from .matchkit import MATCH_ID, archive, ev
from .test_archive_past_unbounded import FIELDS, _match
from .test_server_hostile import EXPORT, Handler, Respond

WARNED = "9007199254740992.0 is written as a fraction where an integer goes; read as 9007199254740992"
PAST = "is past 2**53: an integer this large cannot be read exactly"


def _lines(path: Path | str, *extra: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["validate", *extra, str(path)])
    return result.exit_code, [line.strip() for line in result.output.splitlines()
                              if line.strip().startswith(("error:", "warning:"))]


@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("form", ["bundle", "stream", "folder"])
def test_the_archive_reads_2_53_written_with_a_fraction_as_an_event_does(tmp_path: Path, form: str,
                                                                         field: str) -> None:
    """The archive refused it ('9007199254740992.0 is past 2**53: an integer this large cannot be read exactly':
    validate exit 1, behavior and score exit 1) where an event read it as 2**53 with a warning; now the archive
    does as the event does: validate exit 0 with the event's warning, behavior reads it (exit 0)."""
    path = _match(tmp_path, form, field, "9007199254740992.0")
    where = f"{path / 'archive.json'}: $.{FIELDS[field]}" if form == "folder" else f"{path}: $.archive.{FIELDS[field]}"
    assert _lines(path) == (0, [f"warning: {where}: {WARNED}"])
    behavior = CliRunner().invoke(main, ["behavior", str(path), "--format", "json"])
    assert (behavior.exit_code, behavior.stderr) == (0, "")
    if field == "reputation":
        seats = orjson.loads(behavior.stdout)["seats"]
        assert [seat.get("reputation") for seat in seats] == [9007199254740992]
    event = _match(tmp_path / "event", form, "esv", "9007199254740992.0", manifest=True)
    code, said = _lines(event)
    assert (code, [line.split(": $.payload.eventSchemaVersion: ")[1] for line in said]) == (0, [WARNED])


@pytest.mark.parametrize("form", ["bundle", "stream", "folder"])
def test_a_number_the_double_is_not_is_refused_in_both(tmp_path: Path, form: str) -> None:
    quoted = f"9007199254740993.0 (as written in the file; read as 9007199254740992.0) {PAST}"
    path = _match(tmp_path, form, "reputation", "9007199254740993.0")
    where = f"{path / 'archive.json'}: $.agents[0]" if form == "folder" else f"{path}: $.archive.agents[0]"
    assert _lines(path) == (1, [f"error: {where}.reputation: {quoted}"])
    event = _match(tmp_path / "event", form, "esv", "9007199254740993.0", manifest=True)
    code, said = _lines(event)
    assert (code, [line.split(": $.payload.eventSchemaVersion: ")[1] for line in said]) == (1, [quoted])


def test_the_rule() -> None:
    at = [IntegralFloat("$.n", 2.0**53, True, ("n",), written=w) for w in ("9007199254740992.0", "9.007199254740992e15",
                                                                           "9007199254740993.0", None)]
    assert [read_exactly(n) for n in at] == [True, True, False, False]
    assert [read_exactly(IntegralFloat("$.n", v, abs(v) <= 2**53)) for v in (57.0, -(2.0**53 - 2), 2.0**53 + 2)] == [
        True, True, False]
    # an event's 2**53 whose text is no longer found where it was read (a bundle changed since): not taken as exact
    [lost] = as_written([IntegralFloat("$.n", 2.0**53, True, ("n",))], None, {})
    [seen] = as_written([IntegralFloat("$.n", 2.0**53, True, ("n",))], None, {("n",): "9007199254740992.0"})
    assert (lost.exact, seen.exact, seen.written) == (False, True, None)


@pytest.fixture
def routes() -> dict[str, Respond]:
    return {}


def _page(reputation: bytes) -> Respond:
    def respond(h: Handler, cursor: str | None) -> None:
        arch = archive(["a_1"], ended=10)
        arch["agents"][0]["reputation"] = 777777
        head = orjson.dumps({"matchId": MATCH_ID, "archive": arch, "errata": [], "next": None})
        head = head.replace(b"777777", reputation)
        body = head[:-1] + b',"events":[' + orjson.dumps(ev(1, 0, "agent_spawned", "a_1", region="r_0_0")) + b"]}"
        h.send_bytes(200, body)
    return respond


def test_a_server_archive_is_read_by_the_same_rule(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    """A server's archive was read without its text: 2**53 written 9007199254740992.0 was refused ('a number past
    2^53 - 1 ... (not quoted ...)', exit 1) and 9007199254740993.0 was not quoted as written.  Its first export
    page's text is looked at now, as a file's is."""
    address = f"{server}/api/matches/{MATCH_ID}/export"
    routes[EXPORT] = _page(b"9007199254740992.0")
    assert _lines(MATCH_ID, "--store", str(tmp_path), "--server", server) == (
        0, [f"warning: {address}: $.archive.agents[0].reputation: {WARNED}"])
    routes[EXPORT] = _page(b"9007199254740993.0")
    assert _lines(MATCH_ID, "--store", str(tmp_path), "--server", server) == (
        1, [f"error: {address}: $.archive.agents[0].reputation: 9007199254740993.0 (as written in the file; read as "
            f"9007199254740992.0) {PAST}"])
