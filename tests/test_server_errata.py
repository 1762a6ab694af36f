"""A server's errata are checked as an archive's are: against the erratum schema, and for event ids the
export does not hold; each problem names the page's address (a token in it hidden, the cursor shown)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import MATCH_ID
from .test_server_hostile import EVENTS, EXPORT, Handler, Respond, pages


def validate_with(server: str, routes: dict[str, Respond], tmp_path: Path, errata: object) -> tuple[int, list[str]]:
    """``validate`` of the three-page export whose page at cursor c2 gives ``errata``: exit code and the
    lines of the problems."""
    def with_errata(h: Handler, cursor: str | None) -> None:
        if cursor != "c2":
            pages(h, cursor)
            return
        h.send_json(200, {"matchId": MATCH_ID, "events": EVENTS[6:], "errata": errata, "next": None})

    routes[EXPORT] = with_errata
    result = CliRunner().invoke(main, ["validate", MATCH_ID, "--server", f"{server}/?token=s3cret", "--store",
                                       str(tmp_path)])
    assert "s3cret" not in result.output
    return result.exit_code, [line.strip() for line in result.stdout.splitlines() if "error:" in line]


def page(server: str) -> str:
    return f"{server}/api/matches/{MATCH_ID}/export?token=***&cursor=c2"


def test_an_erratum_that_is_no_object_is_an_error(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    code, lines = validate_with(server, routes, tmp_path, [5])
    assert code == 1
    assert lines == [f"error: {page(server)}: $.errata[0]: 5 is not of type 'object'"]


def test_an_erratum_breaking_its_schema_is_an_error(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    code, lines = validate_with(server, routes, tmp_path, [{"id": "E1", "events": [2]},
                                                           {"id": "", "events": ["x"], "scoresDepend": "no"}])
    assert code == 1
    assert lines == [f"error: {page(server)}: $.errata[1].events[0]: 'x' is not of type 'integer'",
                     f"error: {page(server)}: $.errata[1].id: '' should be non-empty",
                     f"error: {page(server)}: $.errata[1].scoresDepend: 'no' is not of type 'boolean'"]


def test_an_erratum_naming_events_the_export_lacks_is_a_warning(server: str, routes: dict[str, Respond],
                                                                 tmp_path: Path) -> None:
    # a warning, as for an archive's erratum naming an event its log lacks (a public export may leave it out);
    # said once, with the page's address (not again at the archive's "$")
    errata = [{"id": "E1", "events": [2, 99, 7]}, {"id": "E2", "events": [100]}]
    code, lines = validate_with(server, routes, tmp_path, errata)
    assert (code, lines) == (0, [])
    result = CliRunner().invoke(main, ["validate", MATCH_ID, "--server", f"{server}/?token=s3cret", "--store",
                                       str(tmp_path)])  # the same pages again (validate_with set the route)
    said = [line.strip() for line in result.stdout.splitlines() if "erratum" in line]
    assert said == [
        f"warning: {page(server)}: $.errata[0].events: erratum 'E1' names an event id that no page of the export "
        "holds: 99: it withholds nothing",
        f"warning: {page(server)}: $.errata[1].events: erratum 'E2' names an event id that no page of the export "
        "holds: 100: it withholds nothing"]


def test_good_errata_leave_the_match_valid(server: str, routes: dict[str, Respond], tmp_path: Path) -> None:
    code, lines = validate_with(server, routes, tmp_path, [{"id": "E1", "text": "void", "events": [2, 7],
                                                            "scoresDepend": False}])
    assert (code, lines) == (0, [])
