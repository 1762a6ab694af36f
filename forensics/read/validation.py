"""Event validation against the JSON Schemas in ``schemas/``.

The schema files are the single source of truth.  Two engines run them:

* the **fast path**: ``jsonschema-rs`` validators compiled once per event type from
  the inlined schemas, answering valid/invalid per event;
* the **detail path**: ``jsonschema`` (``Draft202012Validator`` with the schema
  registry) runs only on an event the fast path rejected, and produces every
  problem with its JSON path.

Version handling (contract §2): a v3 event is checked against its type's whole-event
schema.  A v1 or v2 event is checked against its own envelope, then upcast, and the
upcast event's ``agentId`` and ``payload`` are checked against the v3 type schema
without the v3 envelope (which requires fields an upcaster cannot derive, such as
``createdAtMs``).  Beyond the schemas: regions must lie on the archive's map.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator

import jsonschema
import jsonschema_rs

from daishi_forensics import schemas

__all__ = ["Problem", "EventChecker", "SchemaChecker", "MAX_MESSAGE"]

MAX_MESSAGE = 240


@dataclass(frozen=True)
class Problem:
    """One problem found in the input."""

    file: str
    """The file (or URL) it was found in."""
    message: str
    """What is wrong, in one sentence (instance values truncated)."""
    severity: str = "error"
    """``error`` (makes the input invalid) or ``warning``."""
    code: str = "schema"
    """Kind: ``json``, ``schema``, ``order``, ``match-id``, ``region``, ``unknown-type``, ``archive``, ``report``, ``header``."""
    event_id: int | None = None
    """The event's ``id`` where it has one."""
    line: int | None = None
    """1-based line of a stream file."""
    index: int | None = None
    """0-based position of the record in the log."""
    path: str = "$"
    """JSON path of the offending field within the record."""
    event_type: str | None = None
    """The record's ``type`` where it has one."""

    def location(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(f"line {self.line}")
        elif self.index is not None:
            parts.append(f"event #{self.index}")
        if self.event_id is not None:
            parts.append(f"id {self.event_id}")
        return ", ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "severity": self.severity,
            "code": self.code,
            "eventId": self.event_id,
            "line": self.line,
            "index": self.index,
            "path": self.path,
            "type": self.event_type,
            "message": self.message,
        }


def _short(text: str) -> str:
    text = text.replace("\n", " ").replace("\r", " ")
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _without_envelope(event_schema: dict[str, Any]) -> dict[str, Any]:
    """The v3 type schema's checks on ``type``, ``agentId`` and ``payload`` only."""
    partial = copy.deepcopy(event_schema)
    partial.pop("allOf", None)
    partial.pop("$id", None)
    props = partial.get("properties", {})
    partial["properties"] = {k: v for k, v in props.items() if k in ("type", "agentId", "payload")}
    partial["required"] = [k for k in partial.get("required", []) if k in ("type", "agentId", "payload")]
    partial.pop("unevaluatedProperties", None)
    return partial


class SchemaChecker:
    """One schema, compiled for the fast path, with jsonschema for detail."""

    def __init__(self, schema: dict[str, Any], detail_schema: dict[str, Any] | None = None) -> None:
        self._fast = jsonschema_rs.validator_for(schema)
        self._detail_schema = detail_schema if detail_schema is not None else schema

    @cached_property
    def _detail(self) -> jsonschema.Draft202012Validator:
        return jsonschema.Draft202012Validator(self._detail_schema, registry=schemas.registry())

    def is_valid(self, instance: Any) -> bool:
        return bool(self._fast.is_valid(instance))

    def errors(self, instance: Any) -> Iterator[tuple[str, str]]:
        """``(json path, message)`` for every problem (the detail path)."""
        found = False
        for error in sorted(self._detail.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
            found = True
            yield error.json_path, _short(_leaf(error).message)
        if not found:  # engines disagree (should not happen): still report
            yield "$", "does not match its schema"


def _leaf(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The most specific error inside an ``allOf``/``anyOf`` wrapper."""
    best = jsonschema.exceptions.best_match([error, *error.context]) if error.context else error
    return best or error


class EventChecker:
    """Validates raw event records of every schema version (see module docs)."""

    def __init__(self) -> None:
        self.types = frozenset(schemas.event_types())
        self._whole: dict[str, SchemaChecker] = {}
        self._partial: dict[str, SchemaChecker] = {}
        self._envelopes = {
            version: SchemaChecker(schemas.inlined(f"envelope-v{version}"), schemas.load(f"envelope-v{version}"))
            for version in (1, 2, 3)
        }

    def whole(self, event_type: str) -> SchemaChecker:
        checker = self._whole.get(event_type)
        if checker is None:
            name = f"event/{event_type}"
            checker = SchemaChecker(schemas.inlined(name), schemas.load(name))
            self._whole[event_type] = checker
        return checker

    def partial(self, event_type: str) -> SchemaChecker:
        checker = self._partial.get(event_type)
        if checker is None:
            name = f"event/{event_type}"
            checker = SchemaChecker(_without_envelope(schemas.inlined(name)), _without_envelope(schemas.load(name)))
            self._partial[event_type] = checker
        return checker

    def fast_v3(self) -> dict[str, Any]:
        """``type -> is_valid`` of the compiled whole-event validator, for every known type."""
        return {t: self.whole(t)._fast.is_valid for t in self.types}

    def envelope(self, version: int) -> SchemaChecker:
        return self._envelopes[version]


def header_problems(source: Any) -> list[Problem]:
    """Check a match's header: format marker, archive and report against their schemas."""
    problems: list[Problem] = []
    header = source.header
    name = source.name
    if source.form in ("bundle", "stream", "demo"):
        if header.get("format") != "daishi-match-export":
            problems.append(
                Problem(name, "'format' must be \"daishi-match-export\"", code="header", path="$.format")
            )
        if header.get("formatVersion") != 1:
            problems.append(
                Problem(name, "'formatVersion' must be 1 (the version this tool reads)", code="header", path="$.formatVersion")
            )
    for key, schema_name in (("archive", "archive"), ("report", "report")):
        value = header.get(key)
        if value is None:
            continue
        checker = _header_checker(schema_name)
        if not checker.is_valid(value):
            for path, message in checker.errors(value):
                problems.append(Problem(name, message, code=key, path="$." + key + path[1:]))
    archive_id = source.archive.get("matchId")
    if header.get("matchId") is not None and archive_id is not None and archive_id != header.get("matchId"):
        problems.append(
            Problem(name, f"archive matchId {archive_id!r} differs from the export's {header.get('matchId')!r}",
                    code="match-id", path="$.archive.matchId")
        )
    return problems


_HEADER_CHECKERS: dict[str, SchemaChecker] = {}


def _header_checker(name: str) -> SchemaChecker:
    if name not in _HEADER_CHECKERS:
        _HEADER_CHECKERS[name] = SchemaChecker(schemas.inlined(name), schemas.load(name))
    return _HEADER_CHECKERS[name]
