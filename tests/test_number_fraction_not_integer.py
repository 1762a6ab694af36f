"""A number whose text writes a fraction other than zero where an integer goes (``4503599627370496.5``, 2**52 + 0.5,
which a double reads as the integer 2**52) is no integer: refused in an event and in the archive, in a stream, a
bundle (a file or standard input), a folder and a server's pages alike, named by file, event id (or archive path) and
field, quoted as written, and said to be no integer (not "past 2**53", which it is not)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.validation import IntegralFloat, read_exactly

from .matchkit import MATCH_ID, archive, ev, write_match
from .test_archive_past_unbounded import FIELDS, _match
from .test_server_hostile import EXPORT, Handler, Respond

HALF = "4503599627370496.5"
NOT_INTEGER = (f"{HALF} (as written in the file; read as 4503599627370496.0) is not an integer: it is written with a "
               "fraction other than zero where an integer goes")


def _lines(path: Path | str, *extra: str, stdin: bytes | None = None) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["validate", *extra, str(path)], input=stdin)
    return result.exit_code, [line.strip() for line in result.output.splitlines()
                              if line.strip().startswith(("error:", "warning:"))]


@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("form", ["bundle", "stream", "folder"])
def test_the_archive_refuses_it(tmp_path: Path, form: str, field: str) -> None:
    """It was read as 4503599627370496 with a warning ('4503599627370496.0 is written as a fraction where an integer
    goes; read as 4503599627370496'): validate exit 0, behavior, score and screen took it.  Now validate lists it
    as an error (exit 1) and every analysis refuses the match, naming the file and the field (exit 1)."""
    path = _match(tmp_path, form, field, HALF)
    where = f"{path / 'archive.json'}: $.{FIELDS[field]}" if form == "folder" else f"{path}: $.archive.{FIELDS[field]}"
    assert _lines(path) == (1, [f"error: {where}: {NOT_INTEGER}"])
    said = f"{path}, field {FIELDS[field]}: {NOT_INTEGER}"
    for command in ("behavior", "score"):
        result = CliRunner().invoke(main, [command, str(path), "--format", "json"])
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"daishi-forensics: error: {said}\n")
    result = CliRunner().invoke(main, ["screen", str(path), "--format", "json"])
    assert result.exit_code == 1 and '"error": "' + said + '"' in result.stdout


@pytest.mark.parametrize("form", ["bundle", "stream", "folder"])
def test_an_event_refuses_it_in_the_same_words(tmp_path: Path, form: str) -> None:
    """A stream's or folder's event refused it as 'past 2**53: an integer this large cannot be read exactly' (wrong:
    it is below 2**53); a bundle's read it as 4503599627370496 with a warning (exit 0).  Both refuse it now as no
    integer (exit 1)."""
    path = _match(tmp_path, form, "esv", HALF, manifest=True)
    name = path / "events.jsonl" if form == "folder" else path
    at = {"bundle": "event #0", "stream": "line 2", "folder": "line 1"}[form]
    assert _lines(path) == (1, [f"error: {name}, {at}, id 0: $.payload.eventSchemaVersion: {NOT_INTEGER}"])


def test_a_bundle_on_standard_input_too(tmp_path: Path) -> None:
    path = _match(tmp_path, "bundle", "esv", HALF, manifest=True)
    assert _lines("-", stdin=path.read_bytes()) == (
        1, [f"error: <stdin>, event #0, id 0: $.payload.eventSchemaVersion: {NOT_INTEGER}"])


@pytest.mark.parametrize("form", ["bundle", "stream"])
def test_a_small_fraction_in_a_bounded_field(tmp_path: Path, form: str) -> None:
    """``1.0000000000000001`` is read as the double 1.0: a tick, an id and the archive's endedAtTick written so were
    read as integers with a warning; each is refused now (exit 1)."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1"), ev(3, 2, "rest", "a_1")]
    arch = archive(["a_1"], ended=5)
    arch["endedAtTick"] = 777777
    path = write_match(tmp_path, events, arch, form=form)
    path.write_bytes(path.read_bytes().replace(b'"tick":1,', b'"tick":1.0000000000000001,')
                     .replace(b'"id":3,', b'"id":3.0000000000000001,').replace(b"777777", b"5.0000000000000001"))

    def no_integer(written: str) -> str:
        return (f"{written} (as written in the file; read as {float(written)}) is not an integer: it is written with a "
                "fraction other than zero where an integer goes")

    at = {"bundle": ("event #1", "event #2"), "stream": ("line 3", "line 4")}[form]
    assert _lines(path) == (1, [f"error: {path}: $.archive.endedAtTick: {no_integer('5.0000000000000001')}",
                                f"error: {path}, {at[0]}, id 2: $.tick: {no_integer('1.0000000000000001')}",
                                f"error: {path}, {at[1]}, id 3: $.id: {no_integer('3.0000000000000001')}"])
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "json"])
    assert (result.exit_code, result.stderr) == (
        1, f"daishi-forensics: error: {path}, field endedAtTick: {no_integer('5.0000000000000001')}\n")


def test_the_rule() -> None:
    from daishi_forensics.read.validation import unread_said, written_fraction

    assert [written_fraction(t) for t in (HALF, "57.0000000000000001", "45e-1", "57.0", "5e3", "1e20", None)] == [
        True, True, True, False, False, False, False]
    half = IntegralFloat("$.n", 2.0**52, True, ("n",), written=HALF)
    assert (read_exactly(half), unread_said(half)) == (False, NOT_INTEGER)
    # past 2**53 with a fraction: no integer either, said as such
    past = IntegralFloat("$.n", 2.0**53, False, ("n",), written="9007199254740992.5")
    assert unread_said(past).endswith("is not an integer: it is written with a fraction other than zero where an "
                                      "integer goes")


@pytest.fixture
def routes() -> dict[str, Respond]:
    return {}


def _page(reputation: bytes, esv: bytes) -> Respond:
    def respond(h: Handler, cursor: str | None) -> None:
        arch = archive(["a_1"], ended=10)
        arch["agents"][0]["reputation"] = 777777
        head = orjson.dumps({"matchId": MATCH_ID, "archive": arch, "errata": [], "next": None})
        head = head.replace(b"777777", reputation)
        manifest = ev(0, 0, "match_manifest", None, seed=5, engineVersion="0.5.2", eventSchemaVersion=888888,
                      config={}, roster=[{"agentId": "a_1", "seat": 1, "name": "a_1", "role": "player"}])
        events = [manifest, ev(1, 0, "agent_spawned", "a_1", region="r_0_0")]
        body = head[:-1] + b',"events":' + orjson.dumps(events).replace(b"888888", esv) + b"}"
        h.send_bytes(200, body)
    return respond


def test_a_server_page_refuses_it(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    """A server's archive and events were read as 4503599627370496 with a warning (exit 0); refused now (exit 1)."""
    address = f"{server}/api/matches/{MATCH_ID}/export"
    routes[EXPORT] = _page(HALF.encode(), HALF.encode())
    assert _lines(MATCH_ID, "--store", str(tmp_path), "--server", server) == (
        1, [f"error: {address}: $.archive.agents[0].reputation: {NOT_INTEGER}",
            f"error: {address}, event #0, id 0: $.payload.eventSchemaVersion: {NOT_INTEGER}"])
    routes[EXPORT] = _page(b"57.0", b"5.0")  # an integer written with a fraction of zero: read as before
    assert _lines(MATCH_ID, "--store", str(tmp_path / "again"), "--server", server) == (
        0, [f"warning: {address}: $.archive.agents[0].reputation: 57.0 is written as a fraction where an integer goes; "
            "read as 57",
            f"warning: {address}, event #0, id 0: $.payload.eventSchemaVersion: 5.0 is written as a fraction where an "
            "integer goes; read as 5"])


@pytest.mark.parametrize("form", ["bundle", "stream"])
def test_a_fraction_of_zero_costs_no_second_parse(tmp_path: Path, form: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``57.0`` in an archive and an event of a bundle is read as 57 with its warning, as before; its text is not
    looked for (a whole document parsed again), since no text of such a file may write a fraction a double loses."""
    from daishi_forensics.read import sources

    asked: list[int] = []
    real = sources.written_numbers
    monkeypatch.setattr(sources, "written_numbers", lambda *a: asked.append(1) or real(*a))
    path = _match(tmp_path / "a", form, "reputation", "57.0")
    event = _match(tmp_path / "e", form, "esv", "57.0", manifest=True)
    assert [_lines(p)[0] for p in (path, event)] == [0, 0]
    assert asked == []
