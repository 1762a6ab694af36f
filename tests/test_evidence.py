"""The events a report cites, fetched for a page: through the read boundary's checks, and without them only
for records the checks refused that the report cites."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.report.evidence import fetch_events

from .matchkit import archive, ev, write_match

AGENTS = ["a_1", "a_2"]


def _events() -> list[dict[str, Any]]:
    return [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
            ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
            ev(4, 2, "message", "a_1", text="my key is sk-live-0123456789abcdef0123", channel="local"),
            ev(5, 3, "move", "a_2", **{"from": "r_0_0", "to": "r_1_0"})]


def _unchecked(path: Path, ids: set[int]) -> dict[int, dict[str, Any]]:
    return {e["id"]: e for e in read_match(open_match(str(path)), validate=False).events() if e["id"] in ids}


def test_the_cited_events_are_those_a_read_without_checks_gives(tmp_path: Path) -> None:
    path = write_match(tmp_path, _events(), archive(AGENTS, ended=5))
    found = fetch_events(open_match(str(path)), [5, 3, 4], scrub=False)
    assert found == _unchecked(path, {3, 4, 5}) and sorted(found) == [3, 4, 5]
    assert found[4]["payload"]["text"].startswith("my key is sk-live")
    scrubbed = fetch_events(open_match(str(path)), [4])
    assert "sk-live-0123456789abcdef0123" not in scrubbed[4]["payload"]["text"]


def test_a_cited_record_the_checks_refused_is_fetched_too(tmp_path: Path) -> None:
    """Event 3 breaks its schema (a move with no destination): the invalid-events finding cites it, and the
    page shows it, read without the checks."""
    events = _events()
    del events[2]["payload"]["to"]
    path = write_match(tmp_path, events, archive(AGENTS, ended=5))
    assert 3 not in {e["id"] for e in read_match(open_match(str(path))).events()}  # the checks refuse it
    found = fetch_events(open_match(str(path)), [3, 5, 99], scrub=False)
    assert found == _unchecked(path, {3, 5}) and set(found) == {3, 5}  # 99 is in no read


def test_an_id_no_record_holds_costs_no_second_read(tmp_path: Path, monkeypatch: Any) -> None:
    """The log holds a refused record (event 3) the page does not cite; the cited id 99 is in no read: one
    read, through the checks, and no read without them."""
    import daishi_forensics.report.evidence as evidence

    events = _events()
    del events[2]["payload"]["to"]
    path = write_match(tmp_path, events, archive(AGENTS, ended=5))
    reads: list[bool] = []

    def counted(source: Any, validate: bool = True) -> Any:
        reads.append(validate)
        return read_match(source, validate=validate)

    monkeypatch.setattr(evidence, "read_match", counted)
    assert set(fetch_events(open_match(str(path)), [5, 99], scrub=False)) == {5}
    assert reads == [True]
    reads.clear()
    assert set(fetch_events(open_match(str(path)), [3, 99], scrub=False)) == {3}  # cited and refused: read again
    assert reads == [True, False]
