"""The server form's paging must progress: loops, repeated pages and endless exports are refused.

A real ``http.server`` on loopback (the handler of :mod:`tests.test_server_hostile`); every
export below is built by hand, three events a page.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.errors import BadSetting, ServerError
from daishi_forensics.read.sources import SERVER_MAX_PAGES, Limits

from .matchkit import MATCH_ID, archive
from .test_server_hostile import EVENTS, EXPORT, FAST, Handler, Respond, read_ids

NAME = "{server}/api/matches/" + MATCH_ID + "/export"


def first_page(events: list[dict[str, object]], nxt: object) -> dict[str, object]:
    return {"matchId": MATCH_ID, "archive": archive(["a_1"], ended=10), "events": events, "errata": [], "next": nxt}


def exports() -> int:
    return sum(1 for r in Handler.requests if r.startswith(EXPORT))


def test_an_endless_export_repeating_its_last_event_is_refused(server: str, routes: dict[str, Respond],
                                                               tmp_path: Path) -> None:
    """A new cursor on every page, and every page after the second the same event again: refused at the
    first page that brings nothing new, not fetched for ever."""
    def endless(h: Handler, cursor: str | None) -> None:
        if cursor is None:
            h.send_json(200, first_page(EVENTS[:3], "1"))
        else:
            h.send_json(200, {"matchId": MATCH_ID, "events": EVENTS[3:4], "errata": [], "next": str(int(cursor) + 1)})

    routes[EXPORT] = endless
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (
        f"{NAME.format(server=server)}, field events: the export page at cursor '2' holds only events already "
        "fetched on earlier pages (event ids 4): the server repeats pages instead of progressing; refused")
    assert exports() == 3


def test_a_page_served_twice_under_two_cursors_is_refused(server: str, routes: dict[str, Respond],
                                                          tmp_path: Path) -> None:
    table = {None: (EVENTS[:3], "a"), "a": (EVENTS[3:7], "b"), "b": (EVENTS[3:7], None)}

    def twice(h: Handler, cursor: str | None) -> None:
        events, nxt = table[cursor]
        page = first_page(events, nxt) if cursor is None else {"matchId": MATCH_ID, "events": events, "next": nxt}
        h.send_json(200, page)

    routes[EXPORT] = twice
    with pytest.raises(ServerError, match=r"^.*: the export page at cursor 'b' holds only events already fetched "
                                          r"on earlier pages \(event ids 4, 5, 6, 7\): the server repeats pages"):
        read_ids(server, tmp_path)


def test_a_page_repeating_some_events_is_read_and_the_repeats_reported(server: str, routes: dict[str, Respond],
                                                                       tmp_path: Path) -> None:
    """A page that brings new events besides repeated ones progresses: it is read, and the repeated ids
    are the validation's finding (ids must increase), not a refusal."""
    table = {None: (EVENTS[:3], "a"), "a": (EVENTS[2:5], None)}

    def overlap(h: Handler, cursor: str | None) -> None:
        events, nxt = table[cursor]
        page = first_page(events, nxt) if cursor is None else {"matchId": MATCH_ID, "events": events, "next": nxt}
        h.send_json(200, page)

    routes[EXPORT] = overlap
    result = CliRunner().invoke(main, ["validate", MATCH_ID, "--server", server, "--store", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "records 6: 5 valid, 1 invalid" in result.stdout
    assert "event #3, id 3: $.id: event ids must increase strictly: 3 comes after 3" in result.stdout


def test_a_cursor_loop_is_refused(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    table = {None: (EVENTS[:2], "x"), "x": (EVENTS[2:4], "y"), "y": (EVENTS[4:6], "x")}

    def loop(h: Handler, cursor: str | None) -> None:
        events, nxt = table[cursor]
        h.send_json(200, first_page(events, nxt) if cursor is None else
                    {"matchId": MATCH_ID, "events": events, "next": nxt})

    routes[EXPORT] = loop
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    assert str(caught.value) == (
        f"{NAME.format(server=server)}, field next: the export pages loop: the export page at cursor 'y' gives "
        "as its next cursor 'x', a cursor already followed; refused")
    assert exports() == 3


def test_the_total_pages_are_capped(server: str, tmp_path: Path) -> None:
    """Three pages: a cap of 3 reads them, a cap of 2 refuses, saying how to raise it."""
    assert read_ids_capped(server, tmp_path, 3) == list(range(1, 8))
    with pytest.raises(ServerError) as caught:
        read_ids_capped(server, tmp_path, 2)
    assert str(caught.value) == (
        f"{NAME.format(server=server)}: the export has more than 2 pages (the last one fetched gives the next "
        "cursor 'c2'); refused: raise $DAISHI_SERVER_MAX_PAGES if this match is genuinely that long")


def read_ids_capped(server: str, tmp_path: Path, cap: int) -> list[int]:
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match

    limits = dataclasses.replace(FAST, server_max_pages=cap)
    return [e["id"] for e in read_match(open_match(MATCH_ID, store=tmp_path, server=server, limits=limits)).events()]


def test_the_page_cap_is_set_by_its_variable(server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DAISHI_SERVER_MAX_PAGES", raising=False)
    assert Limits().server_max_pages == SERVER_MAX_PAGES == 20_000
    runner = CliRunner()
    args = ["validate", MATCH_ID, "--server", server, "--store", str(tmp_path)]
    capped = runner.invoke(main, args, env={"DAISHI_SERVER_MAX_PAGES": "2"})
    assert capped.exit_code == 3, capped.output
    assert "the export has more than 2 pages" in capped.stdout and "$DAISHI_SERVER_MAX_PAGES" in capped.stdout
    assert runner.invoke(main, args, env={"DAISHI_SERVER_MAX_PAGES": "3"}).exit_code == 0
    bad = runner.invoke(main, args, env={"DAISHI_SERVER_MAX_PAGES": "lots"})
    assert bad.exit_code == 2
    assert bad.stderr == ("daishi-forensics: error: $DAISHI_SERVER_MAX_PAGES: must be a positive whole number of "
                          "pages, written in digits (for example 20000), not 'lots'\n")


@pytest.mark.parametrize("value", ["0", "-1", "1_000", "+5", "\u0663", "1.5", "9" * 5000])
def test_a_page_cap_not_written_as_positive_digits_is_refused(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # "0" was told it was no whole number; "1_000", "+5" and Arabic-Indic digits were taken, as int() takes them
    monkeypatch.setenv("DAISHI_SERVER_MAX_PAGES", value)
    with pytest.raises(BadSetting, match="must be a positive whole number of pages, written in digits"):
        Limits()


@pytest.mark.parametrize("value", ["0", "1_000", "+5", "\u0663", "4GB"])
def test_a_size_limit_not_written_as_positive_digits_is_refused(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the inflated-size limit reads its variable by the page cap's rule ("1_000" and "+5" were taken)
    monkeypatch.setenv("DAISHI_MAX_INFLATED_BYTES", value)
    with pytest.raises(BadSetting) as caught:
        Limits()
    assert str(caught.value) == (f"$DAISHI_MAX_INFLATED_BYTES: must be a positive whole number of bytes, written in "
                                 f"digits (for example {4 << 30}), not {value!r}")


def test_a_huge_page_cap_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAISHI_SERVER_MAX_PAGES", " " + "9" * 40 + " ")
    assert Limits().server_max_pages == int("9" * 40)


def test_the_page_cap_is_in_the_help() -> None:
    result = CliRunner().invoke(main, ["validate", "--help"], env={"COLUMNS": "200"})
    assert "At most 20,000 export pages are fetched per match: raise it with $DAISHI_SERVER_MAX_PAGES." in \
        " ".join(result.output.split())


def test_pages_out_of_order_are_read_not_refused(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    """Pages served out of order bring new events: read (validation says the ids go back), not refused."""
    table = {None: (EVENTS[:2], "a"), "a": (EVENTS[4:6], "b"), "b": (EVENTS[2:4], "c"), "c": (EVENTS[6:], None)}

    def shuffled(h: Handler, cursor: str | None) -> None:
        events, nxt = table[cursor]
        h.send_json(200, first_page(events, nxt) if cursor is None else
                    {"matchId": MATCH_ID, "events": events, "next": nxt})

    routes[EXPORT] = shuffled
    result = CliRunner().invoke(main, ["validate", MATCH_ID, "--server", server, "--store", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert "records 7: 5 valid, 2 invalid" in result.stdout


def test_the_fetched_ids_stay_exact_in_any_order() -> None:
    from daishi_forensics.read.sources import _IdSet

    order = [*range(200, 300), *range(100, 0, -1), 2**64, -(2**63)]
    for limit in (10_000, 50):  # past the limit of ids out of order, they move to a set: still exact
        ids = _IdSet()
        ids.OUT_OF_ORDER = limit
        for i in order:
            ids.add(i)
        assert all(i in ids for i in order)
        assert not any(i in ids for i in (0, 101, 199, 300, 2**64 + 1, "5", 5.5))


def test_a_long_cursor_is_followed_and_shown_cut(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    # a cursor is shown whole in every message and each was kept whole to detect a loop: a server's cursors of
    # any length made messages (and memory) of any length
    long = "k" * 5_000

    def looping(h: Handler, cursor: str | None) -> None:
        if cursor is None:
            h.send_json(200, first_page(EVENTS[:3], long))
        else:
            h.send_json(200, {"matchId": MATCH_ID, "events": EVENTS[3:4], "errata": [], "next": long})

    routes[EXPORT] = looping
    with pytest.raises(ServerError) as caught:
        read_ids(server, tmp_path)
    said = str(caught.value)
    assert said.startswith(f"{NAME.format(server=server)}, field next: the export pages loop: the export page at "
                           f"cursor '{'k' * 78}… gives as its next cursor '{'k' * 78}…, a cursor already followed")
    assert len(said) < 400
