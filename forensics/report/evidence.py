"""The events a report cites, fetched for a page that lists them.

A report cites events by id (findings, screen flags, probe evidence, propagation
edges).  The HTML page shows each cited event in a table its links point to, so
:func:`cited_ids` gathers every cited id from the report and :func:`fetch_events`
reads the match once more (a second, separate read: the analysis itself never reads
twice) keeping only those events.  Message text in them is scrubbed unless the
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
    """The events with these ids (v3 shape; the first event of an id), message text scrubbed."""
    wanted = set(ids)
    found: dict[int, dict[str, Any]] = {}
    if not wanted:
        return found
    for event in read_match(source, validate=False).events():
        event_id = event.get("id")
        if event_id in wanted and event_id not in found:
            found[event_id] = _scrubbed(event) if scrub else event
            if len(found) == len(wanted):
                break
    return found


def _scrubbed(event: dict[str, Any]) -> dict[str, Any]:
    payload = event.get("payload")
    if not isinstance(payload, dict) or not isinstance(payload.get("text"), str):
        return event
    from daishi_forensics.injection.secrets import scrub

    return {**event, "payload": {**payload, "text": scrub(payload["text"])}}
