"""Upcasting: v1 and v2 events to the current v3 shape (contract §2).

Each step does exactly one version and returns **new** dicts; the stored record is
never edited.  :data:`UPCASTERS` is the table of steps, one per stored version, and
:func:`upcast` is the one loop that runs them at the single read boundary
(:mod:`daishi_forensics.read.boundary`) so everything after it sees v3 only.  A v4
would be one more function and one more row.

* Every upcast event remembers its path in ``upcastPath`` (the stored version first,
  e.g. ``[1, 2, 3]``) so an audit can always show the original.
* :func:`upcast_v1_v2`: ``matchId`` from the bundle, ``schemaVersion`` 2,
  ``private``; a v1 direct message (a ``message`` whose payload has ``to``) becomes
  ``message_private`` with ``private: true``.  ``createdAtMs`` cannot be derived and
  stays absent.
* :func:`upcast_v2_v3`: ``schemaVersion`` 3; a missing message ``sha256`` is computed
  from the UTF-8 bytes of ``text``; a ``trade_completed`` (logged once, by the
  acceptor ``to``) gains the offerer's event: same ``id``, ``agentId`` = ``from``,
  envelope mark ``"upcast": "offerer"``, right after its source.  ``witnesses`` and
  ``latencyMs`` cannot be derived and stay absent: an upcaster never guesses.

>>> v2 = {"id": 7, "matchId": "m_aa6f85fab659", "schemaVersion": 2, "tick": 3,
...       "type": "trade_completed", "agentId": "a_2", "createdAtMs": 1, "private": False,
...       "payload": {"tradeId": "t1", "from": "a_1", "to": "a_2", "give": {"wood": 1}, "receive": {}}}
>>> [(e["agentId"], e.get("upcast"), e["upcastPath"]) for e in upcast(v2, "m_aa6f85fab659")]
[('a_2', None, [2, 3]), ('a_1', 'offerer', [2, 3])]
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["CURRENT_VERSION", "UPCASTERS", "upcast", "upcast_v1_v2", "upcast_v2_v3", "stored_version"]

CURRENT_VERSION = 3
Event = dict[str, Any]


def stored_version(event: Event) -> int:
    """The schema version an event was stored in: ``schemaVersion``, or 1 when absent (or no version: not an
    integer, or one below 1, which no upcaster starts from).

    >>> stored_version({"schemaVersion": 2}), stored_version({}), stored_version({"schemaVersion": 0})
    (2, 1, 1)
    """
    version = event.get("schemaVersion")
    return version if isinstance(version, int) and not isinstance(version, bool) and version >= 1 else 1


def _text_sha256(text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def upcast_v1_v2(event: Event, match_id: str | None) -> list[Event]:
    """One step, v1 → v2 (contract §2, *v1*)."""
    payload = event.get("payload")
    out: Event = dict(event)
    out["schemaVersion"] = 2
    if match_id is not None and "matchId" not in out:
        out["matchId"] = match_id
    is_direct = out.get("type") == "message" and isinstance(payload, dict) and payload.get("to") is not None
    if is_direct:
        out["type"] = "message_private"
    out["private"] = is_direct or out.get("type") == "message_private"
    out["upcastPath"] = [1, 2]
    return [out]


def upcast_v2_v3(event: Event, match_id: str | None = None) -> list[Event]:
    """One step, v2 → v3 (contract §2, *v2*)."""
    out: Event = dict(event)
    out["schemaVersion"] = 3
    out["upcastPath"] = [*event.get("upcastPath", [2]), 3]
    kind = out.get("type")
    payload = out.get("payload")
    if kind in ("message", "message_private") and isinstance(payload, dict) and "sha256" not in payload:
        digest = _text_sha256(payload.get("text"))
        if digest is not None:
            out["payload"] = {**payload, "sha256": digest}
    if kind == "trade_completed" and isinstance(payload, dict):
        offerer = payload.get("from")
        if isinstance(offerer, str) and offerer != out.get("agentId"):
            twin = dict(out)
            twin["agentId"] = offerer
            twin["upcast"] = "offerer"
            return [out, twin]
    return [out]


Upcaster = Callable[[Event, "str | None"], list[Event]]
"""One step: an event of version ``v`` (and the export's match id) to its events of version ``v + 1``."""

UPCASTERS: Mapping[int, Upcaster] = {1: upcast_v1_v2, 2: upcast_v2_v3}
"""The step from each stored version to the next."""


def upcast(event: Event, match_id: str | None) -> list[Event]:
    """Run the upcast chain from the event's stored version to v3: one step per version, each
    applied to every event the step before produced.

    Returns the event unchanged (in a one-element list) when it is already v3.
    """
    version = stored_version(event)
    events = [event]
    while version < CURRENT_VERSION:
        step = UPCASTERS[version]
        events = [out for before in events for out in step(before, match_id)]
        version += 1
    return events
