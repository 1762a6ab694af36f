"""Event validation against the JSON Schemas in ``schemas/``.

The schema files are the single source of truth.  Two engines run them:

* the **fast path**: ``jsonschema-rs`` validators compiled once per event type from
  the inlined schemas, answering valid/invalid per event;
* the **detail path**: ``jsonschema`` (``Draft202012Validator`` with the schema
  registry) runs only on an event the fast path rejected, and produces every
  problem with its JSON path.

Version handling (contract §2): a v3 event is checked against its type's whole-event
schema.  A v1 or v2 event is checked against its own envelope, then upcast, and the
upcast event's ``agentId``, ``private`` and ``payload`` are checked against the v3 type
schema without the v3 envelope (which requires fields an upcaster cannot derive, such as
``createdAtMs``), and its ``createdAtMs`` and ``latencyMs``, where present, by the v3
envelope's rules.  Beyond the schemas: regions must lie on the archive's map.
"""

from __future__ import annotations

import copy
import re
from decimal import Decimal, InvalidOperation
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

import jsonschema_rs

from daishi_forensics import schemas
from daishi_forensics.jsonio import SHOWN_LENGTH, shown

from .archive import past_exact, repeated_agents, twice_message

if TYPE_CHECKING:  # the detail path's engine, imported when a record is found invalid (the hot path needs none)
    import jsonschema

__all__ = ["Problem", "EventChecker", "SchemaChecker", "MAX_MESSAGE", "json_path", "IntegerPath", "IntegralFloat",
           "integer_paths", "as_integers", "as_draft4", "flattened", "stored_only", "ENVELOPE_INTEGERS", "EXACT_INTEGER",
           "UPCAST_MARKS", "report_schema_errors", "past_unbounded", "read_exactly", "written_fraction", "unread_said",
           "unread_code"]

MAX_MESSAGE = 240

SHOWN_STRING = 160
"""A string from the input is shown whole in a schema message up to this many characters (a
region name, a type: what a reader needs to find it), cut with ``…`` beyond."""


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
    """Kind: ``json``, ``schema``, ``order``, ``tick-order``, ``tick-past-end``, ``tick-before-start``, ``errata``, ``roster``, ``trade-offer`` (``validate`` only), ``match-id``, ``region``, ``unknown-type``, ``archive``, ``report``, ``header``."""
    event_id: int | str | None = None
    """The event's ``id`` where it has one: an integer, else as written (a string id; a number past 64
    bits as its text writes it, ``123456789012345678901234567890``), for the reader to find it."""
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
            parts.append(f"id {self.shown_id}")
        return ", ".join(parts)

    @property
    def shown_id(self) -> str:
        """The event id for a line of text: an integer or a number's text as is, a string id quoted and
        escaped (it is the input's: a control character in it is not printed)."""
        event_id = self.event_id
        if isinstance(event_id, str) and not _NUMBER_TEXT.fullmatch(event_id):
            return str(shown(event_id, 70))
        return str(event_id)

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


_NUMBER_TEXT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def _short(text: str) -> str:
    text = text.replace("\n", " ").replace("\r", " ")
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


_UPCAST_CHECKED = ("type", "agentId", "private", "payload")
"""The members of an upcast event its type's schema checks (:func:`_without_envelope`)."""

_CARRIED = ("createdAtMs", "latencyMs")
"""Envelope members an upcast carries over as the stored record has them: checked, where present,
by the v3 envelope's rules (an upcast event without them is valid: they cannot be derived)."""


def _without_envelope(event_schema: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    """The v3 type schema's checks on ``type``, ``agentId``, ``private`` and ``payload``, and the v3
    ``envelope``'s on ``createdAtMs`` and ``latencyMs`` where present (neither required)."""
    partial = copy.deepcopy(event_schema)
    partial.pop("allOf", None)
    partial.pop("$id", None)
    props = partial.get("properties", {})
    partial["properties"] = {k: v for k, v in props.items() if k in _UPCAST_CHECKED}
    for key in _CARRIED:
        partial["properties"][key] = copy.deepcopy(envelope["properties"][key])
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
        return schemas.validator(self._detail_schema)

    def is_valid(self, instance: Any) -> bool:
        return bool(self._fast.is_valid(instance))

    def error_paths(self, instance: Any) -> list[tuple[str, str | None]]:
        """The JSON path of each member the fast engine finds wrong, each once, but an object's path once
        per required member it lacks, as :meth:`errors` says each, with that member's name (else None;
        ``[("$", None)]`` when it finds none): how a problem past those listed is counted, at a fraction
        of :meth:`errors`' cost."""
        found: dict[tuple[str, str | None], None] = {}
        for error in self._fast.iter_errors(instance):
            kind = error.kind
            missing = kind.property if isinstance(kind, jsonschema_rs.ValidationErrorKind.Required) else None
            found[json_path(error.instance_path), missing] = None
        return list(found) or [("$", None)]

    def errors(self, instance: Any) -> Iterator[tuple[str, str]]:
        """``(json path, message)`` for every problem (the detail path).

        The detail engine writes the offending value into its messages; it is handed a copy
        whose containers and long strings print through :func:`~daishi_forensics.jsonio.shown`,
        so a value nested a thousand levels deep or megabytes long prints short."""
        errors = sorted(self._detail.iter_errors(_printable(instance)),
                        key=lambda e: [shown(part) for part in e.absolute_path])
        # a member that fails a rule of one type ("null" for an event by no agent) is told its type alone,
        # not also why it fails a wider rule's branch ("an agent id or null": '' should be non-empty)
        typed = {json_path(e.absolute_path) for e in errors if e.validator == "type"}
        leaves = [_leaf(e) for e in errors
                  if not (e.context and e.validator in ("anyOf", "oneOf") and json_path(e.absolute_path) in typed
                          and _leaf(e).validator != "type")]
        # the envelope and the type's schema may both check a member's type ("an agent id or null", "an
        # agent id"): the value must pass both, so the narrower says it, once
        # once; and a member whose values are listed ("false was expected", "is not one of [...]") is
        # told those rather than their type as well
        narrowest: dict[str, int] = {}
        listed: set[str] = set()
        for leaf in leaves:
            path = json_path(leaf.absolute_path)
            if leaf.validator == "type":
                narrowest[path] = min(narrowest.get(path, 99), len(_types(leaf.validator_value)))
            elif leaf.validator in ("const", "enum"):
                listed.add(path)
        said: set[tuple[str, str]] = set()
        for leaf in leaves:
            path = json_path(leaf.absolute_path)
            if leaf.validator == "type" and (path in listed or len(_types(leaf.validator_value)) > narrowest[path]):
                continue
            problem = path, _short(_message(leaf))
            if problem not in said:
                said.add(problem)
                yield problem
        if not leaves:  # engines disagree (should not happen): still report
            yield "$", "does not match its schema"


class _ShownList(list[Any]):
    """A list that prints bounded (see :func:`_printable`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return shown(self, json_literals=True)


class _ShownDict(dict[str, Any]):
    """An object that prints bounded (see :func:`_printable`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return shown(self, json_literals=True)


class _ShownStr(str):
    """A long string that prints bounded (see :func:`_printable`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return shown(str(self), SHOWN_STRING)


def _printable(value: Any) -> Any:
    """A copy of a JSON value whose lists, objects and long strings print through ``shown``
    (equal to the value and of the same JSON types, so it validates the same).  Built without
    recursion: the value may be nested as deep as the parser allows."""

    def convert(item: Any) -> Any:
        if isinstance(item, dict):
            copy_ = _ShownDict()
            pending.append((item, copy_))
            return copy_
        if isinstance(item, list):
            copy_l = _ShownList()
            pending.append((item, copy_l))
            return copy_l
        if isinstance(item, str) and len(item) > SHOWN_STRING:
            return _ShownStr(item)
        return item

    pending: list[tuple[Any, Any]] = []
    root = convert(value)
    while pending:
        original, copy_ = pending.pop()
        if isinstance(original, dict):
            for key, item in original.items():
                copy_[key] = convert(item)
        else:
            copy_.extend(convert(item) for item in original)
    return root


_PLAIN_KEY = re.compile(r"^[a-zA-Z][a-zA-Z0-9_]*$")


def json_path(parts: Iterable[Any]) -> str:
    """The JSON path of a field, as the detail engine writes it (``$.payload.give.wood``,
    ``$.roster[2]``, ``$['gen_ai.usage.input_tokens']``), each key cut to a bounded length."""
    out = ["$"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
            continue
        key = str(part)
        key = key if len(key) <= SHOWN_LENGTH else key[: SHOWN_LENGTH - 1] + "…"
        if _PLAIN_KEY.match(key):
            out.append("." + key)
        else:
            out.append("['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']")
    return "".join(out)


def _leaf(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """The most specific error inside an ``allOf``/``anyOf`` wrapper: a branch the value has the type of
    (``''`` for "an agent id or null": the agent id's "should be non-empty", not "is not of type
    'null'"); when the value has the type of none, one error naming every type."""
    import jsonschema

    if not error.context:
        return error
    here = [e for e in error.context if not e.relative_path]
    types = [e for e in here if e.validator == "type"]
    if types and len(types) == len(here) and all(e.validator == "type" for e in error.context):
        wanted = [t for e in types for t in ([e.validator_value] if isinstance(e.validator_value, str)
                                              else e.validator_value)]
        wanted = list(dict.fromkeys(wanted))
        joined = " or ".join(repr(t) for t in wanted)
        return jsonschema.ValidationError(f"{_json(error.instance)} is not of type {joined}", validator="type",
                                          validator_value=wanted, path=error.path, instance=error.instance)
    specific = [e for e in error.context if e.validator != "type"] if types else []
    best = jsonschema.exceptions.best_match(specific or [error, *error.context])
    return best or error


def _types(value: Any) -> list[Any]:
    """A ``type`` keyword's value as a list of types."""
    return list(value) if isinstance(value, list) else [value]


def _json(value: Any) -> str:
    """A value in a schema message: ``true``, ``false`` and ``null`` as JSON writes them, others as the
    detail engine does (a string in quotes)."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else "true" if value else "false"
    return repr(value)


def _message(error: jsonschema.ValidationError) -> str:
    """The detail engine's message, but JSON's ``true``, ``false`` and ``null`` where it writes Python's."""
    kind, expected, value = error.validator, error.validator_value, error.instance
    if kind == "const":
        return f"{_json(expected)} was expected"
    if kind == "enum" and isinstance(expected, list):
        return f"{_json(value)} is not one of [{', '.join(_json(v) for v in expected)}]"
    if kind == "type":
        if isinstance(expected, list):
            return f"{_json(value)} is not of type {' or '.join(repr(t) for t in expected)}"
        return f"{_json(value)} is not of type {expected!r}"
    return str(error.message)


class EventChecker:
    """Validates raw event records of every schema version (see module docs)."""

    def __init__(self) -> None:
        self.types = frozenset(schemas.event_types())
        self._whole: dict[str, SchemaChecker] = {}
        self._partial: dict[str, SchemaChecker] = {}
        self._integers: dict[str, tuple[IntegerPath, ...]] = {}
        self._hot: dict[str, Callable[[Any], bool]] | None = None
        self._trimmed: dict[Any, dict[str, Callable[[Any], bool]]] = {}
        self._private: frozenset[str] | None = None
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
            checker = SchemaChecker(_without_envelope(schemas.inlined(name), schemas.inlined("envelope-v3")),
                                    _without_envelope(schemas.load(name), schemas.load("envelope-v3")))
            self._partial[event_type] = checker
        return checker

    def fast_v3(self) -> dict[str, Callable[[Any], bool]]:
        """``type -> is_valid`` of the hot path's compiled whole-event validator, for every known type.

        The same checks as :meth:`whole`, and one more: an integer must be written as one (``57``,
        not ``57.0``).  JSON Schema 2020-12 counts ``57.0`` as an integer; draft 4 does not, so the
        hot path runs each schema rewritten to draft 4 (:func:`as_draft4`) and a record with an
        integral float goes to the cold path, which reads it as the integer and says so.  Each is
        :func:`flattened` first: the same verdicts, fewer keywords to evaluate."""
        if self._hot is None:
            self._hot = {
                t: jsonschema_rs.Draft4Validator(stored_only(flattened(as_draft4(schemas.inlined(f"event/{t}")))))
                .is_valid for t in self.types
            }
        return self._hot

    def hot_v3(self, match_id: str | None = None,
               region_fields: Mapping[str, tuple[str, ...]] | None = None) -> dict[str, Callable[[Any], bool]]:
        """:meth:`fast_v3`'s validators less the checks the read boundary's hot path makes by its own
        means, for that path alone (each validator is given only records of its own type):

        * ``type`` (present and equal to the type: the path picked the validator by it);
        * the ``matchId`` member's type and pattern, when ``match_id`` is given and passes them (the
          path compares every record's with it; the member stays required);
        * the pattern of each payload member ``region_fields`` names for the type, its type (a string)
          kept (the path takes a record only when each of those present names a region on the map,
          ``r_X_Y`` with X and Y written in digits, which the pattern accepts).

        So on a record of its type whose ``matchId`` is ``match_id`` (when given) and whose named
        payload members are absent or name regions on the map (when given), each gives
        :meth:`fast_v3`'s verdict; the path asks nothing else of it.  Made at most once per kind of
        match (whether its id passes, which members are checked on a map), not once per match."""
        known = match_id is not None and bool(jsonschema_rs.Draft4Validator(_MATCH_ID_RULE).is_valid(match_id))
        fields = tuple(sorted(region_fields.items())) if region_fields is not None else None
        key = (known, fields)
        hot = self._trimmed.get(key)
        if hot is None:
            hot = self._trimmed[key] = {
                t: jsonschema_rs.Draft4Validator(stored_only(_proven_out(
                    flattened(as_draft4(schemas.inlined(f"event/{t}"))), t, known,
                    (region_fields or {}).get(t, ())))).is_valid
                for t in self.types
            }
        return hot

    def integer_paths(self, event_type: str) -> tuple[IntegerPath, ...]:
        """Where an event of this type holds integers: the envelope's, and its payload's by its v3
        schema (an unknown type: the envelope's only)."""
        paths = self._integers.get(event_type)
        if paths is None:
            found = set(ENVELOPE_INTEGERS)
            if event_type in self.types:
                found.update(p for p in integer_paths(schemas.inlined(f"event/{event_type}")) if p[:1] == ("payload",))
            paths = self._integers[event_type] = tuple(sorted(found, key=lambda p: [str(k) for k in p]))
        return paths

    def private_types(self) -> frozenset[str]:
        """The types whose schema fixes ``private`` to true (the others fix it to false): the hot
        path counts private events by type."""
        if self._private is None:
            fixed = {t: (schemas.inlined(f"event/{t}").get("properties") or {}).get("private") for t in self.types}
            loose = sorted(t for t, rule in fixed.items() if rule not in ({"const": True}, {"const": False}))
            if loose:
                raise ValueError(f"the schemas of {loose} do not fix `private`: the hot path counts it by type")
            self._private = frozenset(t for t, rule in fixed.items() if rule == {"const": True})
        return self._private

    def colon_parts(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]] | None]:
        """``type -> (object keys, free-text keys)`` of its payload (None: neither), from its schema:
        where else than the envelope and the payload's own keys the text of a well-formed event
        holds colons (see :func:`~daishi_forensics.read.jsontext.colon_counter`)."""
        parts: dict[str, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}
        for event_type in self.types:
            properties: dict[str, Any] = {}
            for node in _nodes(schemas.inlined(f"event/{event_type}")):
                payload = (node.get("properties") or {}).get("payload")
                if isinstance(payload, dict):
                    for sub in _nodes(payload):
                        properties.update(sub.get("properties") or {})
            objects = tuple(sorted(k for k, v in properties.items() if v.get("type") == "object"))
            texts = tuple(sorted(k for k, v in properties.items() if v.get("type") == "string"
                                 and not set(v) & {"pattern", "enum", "const", "minLength", "format"}))
            parts[event_type] = (objects, texts) if objects or texts else None
        return parts

    def envelope(self, version: int) -> SchemaChecker:
        return self._envelopes[version]


_MATCH_ID_RULE: dict[str, Any] = {"type": "string", "pattern": "^m_[0-9a-f]{12}$"}
"""The ``matchId`` member's rule in every v3 event schema (as :func:`flattened` leaves it)."""

_REGION_RULE: dict[str, Any] = {"type": "string", "pattern": "^r_[0-9]+_[0-9]+$"}
"""A region member's rule in the v3 event schemas (as :func:`flattened` leaves it): every region on a
map (``r_X_Y``, X and Y written in digits) passes it."""


UPCAST_MARKS = ("upcastPath", "upcast")
"""Envelope members only this tool's upcast sets (the event schemas describe its output too, where
``upcastPath`` excuses a missing ``createdAtMs``): a stored record never carries them."""


def stored_only(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a flattened draft-4 whole-event one, changed in place and returned) refusing the
    :data:`UPCAST_MARKS` on a record: what a stored v3 record is held to (a forged mark would excuse a
    missing ``createdAtMs``).  ``{"not": {}}`` is draft 4's schema that nothing passes."""
    properties = schema.setdefault("properties", {})
    for mark in UPCAST_MARKS:
        properties[mark] = {"not": {}}
    return schema


def _proven_out(schema: dict[str, Any], event_type: str, match_id_known: bool,
                region_fields: Iterable[str]) -> dict[str, Any]:
    """A copy of ``schema`` (a flattened whole-event one) less the rules :meth:`EventChecker.hot_v3`
    names (``match_id_known``: the path's match id passes the ``matchId`` rule); each goes only where it
    reads exactly as stated there (a schema written otherwise keeps it)."""
    out = copy.deepcopy(schema)
    properties = out.get("properties")
    if not isinstance(properties, dict):
        return out
    rule = properties.get("type")
    if isinstance(rule, dict) and rule.get("enum") == [event_type] and set(rule) <= {"enum", "type", "minLength"} \
            and rule.get("type", "string") == "string" and rule.get("minLength", 0) <= len(event_type):
        del properties["type"]
        if isinstance(out.get("required"), list):
            out["required"] = [k for k in out["required"] if k != "type"]
    if match_id_known and properties.get("matchId") == _MATCH_ID_RULE:
        del properties["matchId"]
    payload = properties.get("payload")
    members = payload.get("properties") if isinstance(payload, dict) else None
    if isinstance(members, dict):
        for name in region_fields:
            if members.get(name) == _REGION_RULE:
                members[name] = {"type": "string"}
    return out


_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "deprecated"})
_DRAFT4_SAME = frozenset({"type", "minimum", "maximum", "minLength", "maxLength", "pattern", "required", "enum",
                          "minItems", "maxItems", "uniqueItems", "multipleOf", "minProperties", "maxProperties"})


def as_draft4(schema: Any) -> Any:
    """A 2020-12 schema of this package rewritten in JSON Schema draft 4, with the same verdicts
    except that an integer must be written without a fraction or exponent (draft 4's ``integer``).

    The rewrite knows each keyword the package's schemas use: ``const`` becomes a one-value
    ``enum`` (an integer constant also requires an integer), ``if``/``then``/``else`` the
    equivalent ``anyOf``, ``propertyNames: {minLength: 1}`` a ``not`` on the empty key; the
    others are the same in both drafts.  A keyword it does not know raises ``ValueError``, so a
    schema edit cannot silently change the hot path's verdicts (a test rewrites every schema)."""
    if isinstance(schema, bool):
        return {} if schema else {"not": {}}
    if not isinstance(schema, dict):
        raise ValueError(f"not a schema: {shown(schema)}")
    out: dict[str, Any] = {}
    extra: list[Any] = []
    for key, value in schema.items():
        if key in _ANNOTATIONS or key in ("$schema", "$id"):
            continue
        if key in _DRAFT4_SAME:
            out[key] = value
        elif key in ("properties", "patternProperties"):
            out[key] = {name: as_draft4(sub) for name, sub in value.items()}
        elif key in ("additionalProperties", "items", "not"):
            out[key] = as_draft4(value)
        elif key in ("allOf", "anyOf", "oneOf"):
            out[key] = [as_draft4(sub) for sub in value]
        elif key == "const":
            extra.append({"enum": [value]})
            if isinstance(value, int) and not isinstance(value, bool):
                extra.append({"type": "integer"})
        elif key == "if":
            # if -> then, and not if -> else: (not if or then) and (if or else); a clause whose
            # branch is absent always holds and is left out (the condition is then evaluated once)
            condition = as_draft4(value)
            if "then" in schema:
                extra.append({"anyOf": [{"not": condition}, as_draft4(schema["then"])]})
            if "else" in schema:
                extra.append({"anyOf": [condition, as_draft4(schema["else"])]})
        elif key in ("then", "else"):
            continue  # with their "if"
        elif key == "propertyNames" and value == {"minLength": 1}:
            extra.append({"not": {"required": [""]}})
        elif key == "exclusiveMinimum" or key == "exclusiveMaximum":
            bound = "minimum" if key == "exclusiveMinimum" else "maximum"
            extra.append({bound: value, key: True})
        else:
            raise ValueError(f"as_draft4 does not know the keyword {key!r}")
    out.update({"$schema": "http://json-schema.org/draft-04/schema#"} if "$schema" in schema else {})
    if extra:
        out = {"allOf": [out, *extra]} if out else {"allOf": extra}
    return out


_SIBLING_BOUND = frozenset({"$ref", "$schema", "id", "definitions", "additionalProperties", "patternProperties",
                            "additionalItems", "exclusiveMinimum", "exclusiveMaximum"})
"""Draft 4 keywords whose meaning depends on a sibling keyword (``$ref`` hides its siblings,
``additionalProperties`` reads ``properties``, ``exclusiveMinimum`` modifies ``minimum``...) or that
are no check at all: a schema holding one is never merged with another."""


def flattened(schema: Any) -> Any:
    """A draft 4 schema (:func:`as_draft4`'s) with the same verdict on every instance and fewer
    keywords for a validator to walk: each ``allOf`` member is merged into the schema that holds it.

    Draft 4's keywords are checked independently of one another, but for those in
    :data:`_SIBLING_BOUND`.  So a schema valid against all of ``allOf: [A, B]`` is one valid against
    the union of A's and B's keywords when neither holds such a keyword and no keyword is in both
    with different values, except three that combine exactly: ``properties`` (a property named in
    both is checked against ``allOf`` of its two schemas, itself flattened), ``required`` (the
    union) and ``allOf`` (the concatenation).  A member that cannot merge stays in ``allOf``.  And
    ``not: {not: X}`` is X, a one-member ``anyOf``/``oneOf`` its member, and an ``anyOf`` one of whose
    members only repeats keywords of the schema holding it always holds where that schema does: it
    goes.

    >>> flattened({"allOf": [{"type": "object", "required": ["a"]},
    ...                      {"required": ["b"], "properties": {"a": {"not": {"not": {"enum": [3]}}}}}]})
    {'type': 'object', 'required': ['a', 'b'], 'properties': {'a': {'enum': [3]}}}
    >>> flattened({"allOf": [{"minimum": 1}, {"minimum": 2}]})  # two bounds: kept apart
    {'minimum': 1, 'allOf': [{'minimum': 2}]}
    >>> flattened({"type": "string", "anyOf": [{"type": "string"}, {"type": "null"}]})
    {'type': 'string'}
    """
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    members: list[Any] = []
    for key, value in schema.items():
        if key in ("properties", "patternProperties") and isinstance(value, dict):
            out[key] = {name: flattened(sub) for name, sub in value.items()}
        elif key in ("additionalProperties", "not") or (key == "items" and isinstance(value, dict)):
            out[key] = flattened(value)
        elif key == "allOf" and isinstance(value, list):
            members.extend(flattened(sub) for sub in value)
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            subs = [flattened(sub) for sub in value]
            if len(subs) == 1:
                members.append(subs[0])
            else:
                out[key] = subs
        else:
            out[key] = value
    negated = out.get("not")
    if isinstance(negated, dict) and list(negated) == ["not"]:
        del out["not"]
        members.append(negated["not"])
    kept = [member for member in members if not _merged(out, member)]
    if kept:
        out["allOf"] = [*out.get("allOf", []), *kept]
    for key in ("anyOf", "oneOf"):
        if key == "anyOf" and any(_implied(out, member) for member in out.get(key, ())):
            del out[key]
    return out


def _implied(schema: dict[str, Any], member: Any) -> bool:
    """Every keyword of ``member`` is in ``schema`` with the same value (and none reads a sibling):
    whatever ``schema`` accepts, ``member`` accepts."""
    return isinstance(member, dict) and bool(member) and not _SIBLING_BOUND.intersection(member) and \
        not _SIBLING_BOUND.difference({"$schema"}).intersection(schema) and \
        all(key != "anyOf" and schema.get(key, _ABSENT) == value for key, value in member.items())


_ABSENT = object()


def _merged(into: dict[str, Any], member: Any) -> bool:
    """Merge the (flattened) schema ``member`` into ``into`` when that keeps every verdict (see
    :func:`flattened`); False, ``into`` untouched, when it would not."""
    if not isinstance(member, dict) or _SIBLING_BOUND.intersection(member) or \
            _SIBLING_BOUND.difference({"$schema"}).intersection(into):
        return False
    if any(key in into and key not in ("properties", "required", "allOf") and into[key] != value
           for key, value in member.items()):
        return False
    for key, value in member.items():
        if key not in into:
            into[key] = value
        elif key == "properties":
            both = dict(into[key])
            for name, sub in value.items():
                both[name] = flattened({"allOf": [both[name], sub]}) if name in both else sub
            into[key] = both
        elif key == "required":
            into[key] = list(dict.fromkeys([*into[key], *value]))
        elif key == "allOf":
            into[key] = [*into[key], *value]
    return True


IntegerPath = tuple["str | None", ...]
"""Where an integer goes in a record: keys from the root; ``None`` stands for every member of an
object (an item map's counts) or every item of an array."""

ENVELOPE_INTEGERS: tuple[IntegerPath, ...] = (
    ("id",), ("tick",), ("createdAtMs",), ("latencyMs",), ("schemaVersion",), ("upcastPath", None),
)
"""The envelope's integers, in every schema version."""

EXACT_INTEGER = 2**53
"""A number written with a fraction or exponent is read as a double, exact as an integer only up
to this magnitude."""


def integer_paths(schema: dict[str, Any]) -> set[IntegerPath]:
    """Every place ``schema`` allows an integer (``"type": "integer"``, alone or among other types)."""
    found: set[IntegerPath] = set()

    def walk(node: Any, path: IntegerPath) -> None:
        if not isinstance(node, dict):
            return
        kind = node.get("type")
        if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
            found.add(path)
        for key in ("allOf", "anyOf", "oneOf"):
            for sub in node.get(key) or []:
                walk(sub, path)
        for key in ("if", "then", "else"):
            walk(node.get(key), path)
        for name, sub in (node.get("properties") or {}).items():
            walk(sub, (*path, name))
        walk(node.get("additionalProperties"), (*path, None))
        walk(node.get("items"), (*path, None))

    walk(schema, ())
    return found


def _nodes(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A schema and the subschemas of its ``allOf``/``anyOf``/``oneOf`` (the same instance)."""
    yield schema
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key) or []:
            if isinstance(sub, dict):
                yield from _nodes(sub)


def _values_at(
    record: Any, paths: Iterable[IntegerPath], *, floats_only: bool = False
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """``(concrete path, value)`` of every value at ``paths`` in ``record`` (a path may name an array's position)."""
    for path in paths:
        stack: list[tuple[Any, tuple[Any, ...], int]] = [(record, (), 0)]
        while stack:
            node, where, depth = stack.pop()
            if depth == len(path):
                if not floats_only or type(node) is float:
                    yield where, node
                continue
            key = path[depth]
            if key is None:
                if isinstance(node, dict):
                    stack.extend((v, (*where, k), depth + 1) for k, v in node.items())
                elif isinstance(node, list):
                    stack.extend((v, (*where, i), depth + 1) for i, v in enumerate(node))
            elif isinstance(node, dict) and key in node:
                stack.append((node[key], (*where, key), depth + 1))
            elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):  # a concrete path's position
                stack.append((node[key], (*where, key), depth + 1))


@dataclass(frozen=True)
class IntegralFloat:
    """A number written with a fraction or exponent (``57.0``, ``5e3``) where an integer goes."""

    path: str
    """Its JSON path in the record."""
    value: float
    """The number as read."""
    exact: bool
    """True when it is an integer exactly (a magnitude up to 2**53, and a text, where known, that writes no
    fraction other than zero): read as that integer."""
    where: tuple[Any, ...] = ()
    """Its keys and array positions from the record's root."""
    written: str | None = None
    """The number as the file writes it, when the value read is not that number (a double cannot
    hold it: ``9007199254740993.0``, ``18446744073709551616``); None otherwise, or when unknown."""

    def quoted(self) -> str:
        """The number as a message quotes it: as written when the value read differs, else as read; once when
        the double read is shown as the file writes it (``1e+308``, which it is not exactly).

        >>> IntegralFloat("$.n", 1e308, False, written="1e+308").quoted()
        '1e+308'
        >>> IntegralFloat("$.n", 1e308, False, written="1e308").quoted()
        '1e308 (as written in the file; read as 1e+308)'
        """
        read = shown(self.value)
        return f"{self.written} (as written in the file; read as {read})" if self.written and self.written != read \
            else read


def as_integers(record: dict[str, Any], paths: Iterable[IntegerPath]) -> tuple[dict[str, Any], list[IntegralFloat]]:
    """``record`` with every integral float at ``paths`` turned into the integer it is, and the
    numbers found.  A float past 2**53 is not turned (it cannot be read exactly; the caller
    reports it), nor is a fraction (the schema rejects it).  The record is never edited: a
    changed record is a new dict, copied along the changed paths only."""
    found: list[IntegralFloat] = []
    fixes: list[tuple[tuple[Any, ...], int]] = []
    for where, value in _values_at(record, paths, floats_only=True):
        if not value.is_integer():
            continue
        exact = abs(value) <= EXACT_INTEGER
        found.append(IntegralFloat(json_path(where), value, exact, where))
        if exact:
            fixes.append((where, int(value)))
    if not fixes:
        return record, found
    out = dict(record)
    copied = {id(out)}
    for where, number in fixes:
        node: Any = out
        for key in where[:-1]:
            child = node[key]
            if id(child) not in copied:
                child = dict(child) if isinstance(child, dict) else list(child)
                copied.add(id(child))
                node[key] = child
            node = child
        node[where[-1]] = number
    return out, found


def header_failure(errors: list[Problem]) -> str:
    """The sentence every command says a header's ``errors`` with (:func:`header_problems`, its errors alone): how
    many, and the first by its JSON path.

    >>> header_failure([Problem("m.jsonl", "'x' is not of type 'integer'", path="$.archive.config.season_ticks")])
    "the match's header fails validation in 1 place (the first: $.archive.config.season_ticks: 'x' is not of type 'integer')"
    """
    places = "1 place" if len(errors) == 1 else f"{len(errors)} places"
    return f"the match's header fails validation in {places} (the first: {errors[0].path}: {errors[0].message})"


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
        said = [Problem(name, message, code="header", path=path)
                for path, message in _header_match_id_errors(header)]
        problems += said
        named_id = not said
    else:
        named_id = True
    past = {"$.archive" + number.path[1:]: number for number in getattr(source, "archive_past", ())}
    said_past: set[str] = set()
    for number in getattr(source, "archive_numbers", ()):  # read as the integers they are (MatchSource)
        problems.append(Problem(name, f"{number.quoted()} is written as a fraction where an integer goes; read as "
                                      f"{int(number.value)}", severity="warning", code="integral-float",
                                path="$.archive" + number.path[1:]))
    for key, schema_name in (("archive", "archive"), ("report", "report")):
        value = header.get(key)
        if value is None:
            continue
        checker = _header_checker(schema_name)
        if not checker.is_valid(value):
            for path, message in checker.errors(value):
                where = "$." + key + path[1:]
                number = past.pop(where, None) if key == "archive" else None
                if number is not None:  # a double there may not be the number written: not the schema's words
                    problems.append(Problem(name, _past_exact_said(number), code=unread_code(number, "archive"),
                                            path=where))
                    said_past.add(where)
                elif where not in said_past:
                    problems.append(Problem(name, message, code=key, path=where))
    for where, number in past.items():  # where the schema sets no bound (a seed, a version): past 2**53 all the same
        if where not in said_past:
            problems.append(Problem(name, _past_exact_said(number), code=unread_code(number, "archive"), path=where))
    archive_id = source.archive.get("matchId")
    if (named_id and header.get("matchId") is not None and archive_id is not None
            and archive_id != header.get("matchId")):
        problems.append(
            Problem(name, f"archive matchId {shown(archive_id)} differs from the export's "
                          f"{shown(header.get('matchId'))}",
                    code="match-id", path="$.archive.matchId")
        )
    archive = header.get("archive")
    for first, index, agent in repeated_agents(archive) if isinstance(archive, dict) else ():
        problems.append(Problem(name, twice_message(first, index, agent), code="archive",
                                path=f"$.archive.agents[{index}].agentId"))
    report = header.get("report")
    report_id = report.get("matchId") if isinstance(report, dict) else None
    expected = header.get("matchId") if header.get("matchId") is not None else archive_id
    if (isinstance(report_id, str) and isinstance(expected, str) and report_id != expected
            and not any(p.path == "$.report.matchId" for p in problems)):
        # the scorecards of another match: score would compare this match with them
        problems.append(Problem(name, f"report matchId {shown(report_id)} differs from the match's {shown(expected)} "
                                      "(the scorecards of another match)", code="match-id", path="$.report.matchId"))
    return problems


def server_errata_problems(source: Any) -> list[Problem]:
    """A server's errata (:attr:`~.sources.MatchSource.page_errata`) checked against the erratum schema,
    as an archive's ``errata`` are, and for event ids the export does not hold (a warning, as for an
    archive's erratum naming an event the log lacks): each problem names the page's address and the path
    in its answer."""
    problems: list[Problem] = []
    for page, errata, unknown in getattr(source, "page_errata", None) or []:
        checker = _errata_checker()
        if not checker.is_valid(errata):
            for path, message in checker.errors(errata):
                problems.append(Problem(page, message, code="errata", path="$.errata" + path[1:]))
        for position, missing in sorted(unknown.items()):
            erratum = errata[position]
            named = f"erratum {shown(erratum.get('id'), 40)}"
            listed = ", ".join(str(i) for i in missing[:10]) + (f" and {len(missing) - 10} more"
                                                                if len(missing) > 10 else "")
            plural = "an event id" if len(missing) == 1 else f"{len(missing)} event ids"
            problems.append(Problem(page, f"{named} names {plural} that no page of the export holds: {listed}: "
                                          "it withholds nothing", severity="warning", code="errata",
                                    path=f"$.errata[{position}].events"))
    return problems


def past_unbounded(source: Any) -> list[tuple[str, str]]:
    """``(path from the archive's root, message)`` for each integer of ``source``'s archive that cannot be read
    as the integer it is (:attr:`~.sources.MatchSource.archive_past`: read as a double of 2**53 or more, or
    written with a fraction other than zero) where the archive's schema sets no bound (a version, a
    reputation): refused all the same, as in an event, though no schema error says it."""
    numbers = getattr(source, "archive_past", ())
    if not numbers:
        return []
    archive = source.header.get("archive")
    checker = _header_checker("archive")
    refused = set() if checker.is_valid(archive) else {path for path, _ in checker.errors(archive)}
    return [(number.path, _past_exact_said(number)) for number in numbers if number.path not in refused]


def read_exactly(number: IntegralFloat) -> bool:
    """True when ``number``, an integer read as a double (:func:`as_integers`), is read as the integer it is:
    the rule of an event's numbers and of the archive's alike.  A text that writes a fraction other than zero
    never is, whatever the double (``4503599627370496.5`` is read as 2**52: it is no integer,
    :func:`written_fraction`).  Else a magnitude below 2**53 is (a double holds every integer there); one of
    2**53 exactly, only when the text the file writes there is at hand and is that number
    (``9007199254740992.0``, not ``9007199254740993.0``, which a double reads as 2**53 too); past 2**53, never.

    >>> [read_exactly(IntegralFloat("$.n", 2.0**53, True, written=w)) for w in ("9007199254740992.0",
    ...                                                                            "9007199254740993.0", None)]
    [True, False, False]
    >>> read_exactly(IntegralFloat("$.n", 57.0, True)), read_exactly(IntegralFloat("$.n", 2.0**54, False))
    (True, False)
    >>> read_exactly(IntegralFloat("$.n", 2.0**52, True, written="4503599627370496.5"))
    False
    """
    if written_fraction(number.written):
        return False
    magnitude = abs(number.value)
    if magnitude < EXACT_INTEGER:
        return True
    return magnitude == EXACT_INTEGER and number.written is not None and not _written_differs(number.written,
                                                                                              number.value)


def written_fraction(literal: str | None) -> bool:
    """True when ``literal``, a number as the file writes it, holds a fraction other than zero
    (``4503599627370496.5``, ``57.0000000000000001``, ``45e-1``): no integer, whatever the double it is read
    as; False for an integer's text (``57``, ``57.0``, ``5e3``) and when the text is unknown (None).

    >>> [written_fraction(t) for t in ("4503599627370496.5", "57.0000000000000001", "45e-1", "1e-400")]
    [True, True, True, True]
    >>> [written_fraction(t) for t in ("57", "-57.000", "5e3", "9007199254740993.0", "1e400", None)]
    [False, False, False, False, False, False]
    """
    if literal is None:
        return False
    try:
        number = Decimal(literal)
        return number.is_finite() and number != number.to_integral_value()
    except (InvalidOperation, ValueError, OverflowError):
        return False


def unread_said(number: IntegralFloat) -> str:
    """What an integer that cannot be read as the integer it is (:func:`read_exactly`) is told, in an event
    and in the archive alike, quoted as written: no integer when its text writes a fraction other than
    zero, else past 2**53.

    >>> unread_said(IntegralFloat("$.n", 2.0**52, False, written="4503599627370496.5"))
    '4503599627370496.5 (as written in the file; read as 4503599627370496.0) is not an integer: it is written with a fraction other than zero where an integer goes'
    >>> unread_said(IntegralFloat("$.n", 2.0**53, False, written="9007199254740993.0"))
    '9007199254740993.0 (as written in the file; read as 9007199254740992.0) is past 2**53: an integer this large cannot be read exactly'
    """
    if written_fraction(number.written):
        return f"{number.quoted()} is not an integer: it is written with a fraction other than zero where an integer goes"
    return f"{number.quoted()} is past 2**53: an integer this large cannot be read exactly"


def unread_code(number: IntegralFloat, schema_code: str = "schema") -> str:
    """The kind (:attr:`Problem.code`) of the problem :func:`unread_said` words: ``schema_code`` (what the
    schema says of ``57.5``) for a number written with a fraction other than zero, ``integer-range`` past 2**53."""
    return schema_code if written_fraction(number.written) else "integer-range"


def _past_exact_said(number: IntegralFloat) -> str:
    """What an archive's integer that cannot be read exactly is told: as a record's (:func:`unread_said`),
    quoted as written when its text was at hand and the double is not it; else without quoting the double
    (:func:`past_exact`)."""
    literal = number.written
    if literal is None:
        return past_exact(number.value)
    if not (_written_differs(literal, number.value) or literal.lstrip("-").isdigit()):
        number = replace(number, written=None)  # the double is the number written ("1e20"): shown as read
    return unread_said(number)


def _written_differs(literal: str, value: float) -> bool:
    try:
        return Decimal(literal) != Decimal(value)
    except (InvalidOperation, ValueError, OverflowError):
        return False


def _header_match_id_errors(header: dict[str, Any]) -> list[tuple[str, str]]:
    """``(json path, message)`` for a bundle's or stream header's ``matchId`` breaking its schema (required,
    ``m_`` and 12 hexadecimal digits): the match each event's ``matchId`` is checked against."""
    if "matchId" not in _HEADER_CHECKERS:
        rule = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["matchId"],
                "properties": {"matchId": schemas.inlined("stream-header")["properties"]["matchId"]}}
        _HEADER_CHECKERS["matchId"] = SchemaChecker(rule)
    checker = _HEADER_CHECKERS["matchId"]
    instance = {"matchId": header["matchId"]} if "matchId" in header else {}
    return [] if checker.is_valid(instance) else list(checker.errors(instance))


def _errata_checker() -> SchemaChecker:
    """The archive's ``errata`` array, checked alone."""
    if "errata" not in _HEADER_CHECKERS:
        fast = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                **schemas.inlined("archive")["properties"]["errata"]}
        detail = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                  "$ref": schemas.load("archive")["$id"] + "#/properties/errata"}
        _HEADER_CHECKERS["errata"] = SchemaChecker(fast, detail)
    return _HEADER_CHECKERS["errata"]


_HEADER_CHECKERS: dict[str, SchemaChecker] = {}


def report_schema_errors(report: Any) -> list[tuple[str, str]]:
    """``(json path, message)`` for every way a match's report breaks its ``report`` schema (the
    check :func:`header_problems` makes for ``validate``), paths from the report's own root."""
    checker = _header_checker("report")
    if checker.is_valid(report):
        return []
    return list(checker.errors(report))


def _header_checker(name: str) -> SchemaChecker:
    if name not in _HEADER_CHECKERS:
        _HEADER_CHECKERS[name] = SchemaChecker(schemas.inlined(name), schemas.load(name))
    return _HEADER_CHECKERS[name]
