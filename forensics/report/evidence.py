"""The events a report cites, fetched for a page that lists them.

A report cites events by id (findings, screen flags, probe evidence, propagation
edges).  The HTML page shows each cited event in a table its links point to, so
:func:`cited_ids` gathers every cited id from the report and :func:`fetch_events`
reads the match once more (a second, separate read: the analysis itself never reads
twice) keeping only those events; a third read, without the checks, only where the report cites
records the checks refused.  Message text in them is scrubbed unless the
caller asks otherwise.
"""

from __future__ import annotations

from typing import Any, Iterable

from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import MatchSource

__all__ = ["cited_ids", "fetch_events", "MAX_CITED"]

MAX_CITED = 5_000
"""At most this many cited events are listed on a page (the lowest ids first)."""

_ID_KEYS = frozenset({"events", "evidence", "parent", "child", "event", "eventId", "messageId", "evidenceIds", "tiedWith",
                      "eventIds", "root"})


def _walk(node: Any, key: str | None, out: set[int]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _walk(v, k, out)
    elif isinstance(node, list):
        for v in node:
            _walk(v, key, out)
    elif key in _ID_KEYS and isinstance(node, int) and not isinstance(node, bool):
        out.add(node)


def cited_ids(report: dict[str, Any]) -> list[int]:
    """Every event id the report's findings, flags, probes and propagation cite, sorted."""
    out: set[int] = set()
    for section in ("findings", "screens", "probes", "propagation"):
        _walk(report.get(section), None, out)
    return sorted(out)[:MAX_CITED]


def fetch_events(source: MatchSource, ids: Iterable[int], *, scrub: bool = True) -> dict[int, dict[str, Any]]:
    """The events with these ids (v3 shape; the first event of an id), message text scrubbed.

    Read as the analysis read them, through the read boundary's checks (its fast path: about a third of
    the time of a read without them on a large match).  A report also cites records the checks refused
    (the invalid-events finding, which names them by the problems the read kept): when a missing id is
    one of those, or the read kept too few problems to tell, the match is read once more without the
    checks for the ids still missing, so they are shown too.  An id no record holds costs no second read."""
    wanted = set(ids)
    found: dict[int, dict[str, Any]] = {}
    if not wanted:
        return found
    read = read_match(source)
    _collect(read.events(), wanted, found, scrub)
    missing = wanted - found.keys()
    stats = read.stats
    refused = {p.event_id for p in stats.problems if p.severity == "error"}
    if missing and stats.invalid and (missing & refused or stats.problems_not_kept):
        _collect(read_match(source, validate=False).events(), missing, found, scrub)
    return found


def _collect(events: Iterable[dict[str, Any]], wanted: set[int], found: dict[int, dict[str, Any]],
             scrub: bool) -> None:
    """Add to ``found`` the first event of each id of ``wanted`` not in it yet; stop once all are."""
    left = len(wanted - found.keys())
    for event in events:
        event_id = event.get("id")
        if not isinstance(event_id, int) or isinstance(event_id, bool):  # an id the checks refused: none cited
            continue
        if event_id in wanted and event_id not in found:
            found[event_id] = _scrubbed(event) if scrub else event
            left -= 1
            if left == 0:
                break


def _scrubbed(event: dict[str, Any]) -> dict[str, Any]:
    payload = event.get("payload")
    if not isinstance(payload, dict) or not isinstance(payload.get("text"), str):
        return event
    from daishi_forensics.injection.secrets import scrub

    return {**event, "payload": {**payload, "text": scrub(payload["text"])}}
