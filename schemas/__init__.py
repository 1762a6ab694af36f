"""JSON Schemas of the Daishi match export, and a tiny loader.

The schemas (JSON Schema draft 2020-12) are package data next to this module and
follow the input contract (``shared/docs/daishi-export-format.md``):

- ``common``: shared ``$defs`` (ids, regions, item maps, probes, model info, config),
  ``common.json``;
- ``envelope-v1``, ``envelope-v2``, ``envelope-v3``: one event's envelope at that
  schema version (contract section 2), ``envelope-v<n>.json``;
- ``event/<type>``: one whole v3 event of that type (section 3), ``events/<type>.json``;
- ``archive``: the match archive (section 4), ``archive.json``;
- ``report``: the scorecards (section 4b), ``report.json``;
- ``bundle``: a bundle file ``m_<id>.json`` (section 1), ``bundle.json``;
- ``stream-header``: the first line of a ``m_<id>.jsonl`` stream, ``stream-header.json``.

Every schema's ``$id`` is ``urn:daishi-forensics:schema:<name>``, and schemas
refer to each other by those ids.  Two ways to validate:

>>> import jsonschema
>>> stock = jsonschema.Draft202012Validator(load("event/rest"), registry=registry())
>>> stock.is_valid({"id": 1, "matchId": "m_aa6f85fab659", "schemaVersion": 3, "tick": 0,
...     "type": "rest", "agentId": "a_1", "createdAtMs": 0, "private": False, "payload": {}})
True

or, for a validator without a registry (``jsonschema_rs``), :func:`inlined`.

A ``pattern`` is an ECMA-262 regular expression, whose ``$`` matches at the very end of the
text only; Python's ``re`` (which the stock ``jsonschema`` uses) also lets ``$`` match before a
final newline, so it would accept ``"r_1_2\\n"`` where ``jsonschema_rs`` and the contract refuse
it.  :func:`validator` is a ``Draft202012Validator`` with the ECMA-262 anchoring (and the schemas
under their ids); use it rather than the stock class for the same verdicts:

>>> validator(load("event/gather")).is_valid({"id": 1, "matchId": "m_aa6f85fab659", "schemaVersion": 3,
...     "tick": 0, "type": "gather", "agentId": "a_1", "createdAtMs": 0, "private": False,
...     "payload": {"region": "r_1_2\\n", "resource": "wood", "gathered": 1}})
False
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import re
from collections.abc import Iterator

from daishi_forensics.errors import OutputError
from daishi_forensics.jsonio import dumps
from daishi_forensics.outputs import write_file

if TYPE_CHECKING:  # imported when a validator or the registry is first asked for: listing, showing and
    import jsonschema  # exporting the schemas (and `schemas --help`) need neither
    import referencing

    Validator: Any

__all__ = ["ID_PREFIX", "Validator", "ecma_pattern", "role", "validator", "event_types", "export", "inlined", "load", "registry",
           "schema_names"]

ID_PREFIX = "urn:daishi-forensics:schema:"
"""Prefix of every schema's ``$id``; the rest is the schema's name."""

_EVENT_PREFIX = "event/"
_EVENT_DIR = "events"
_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default", "deprecated"})


def _relative_path(name: str) -> str:
    """The file of schema ``name``, relative to the package (``event/gather`` -> ``events/gather.json``)."""
    if name.startswith(_EVENT_PREFIX):
        return f"{_EVENT_DIR}/{name[len(_EVENT_PREFIX):]}.json"
    return f"{name}.json"


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    """Every schema of the package by name, read once (never hand these out: they are shared)."""
    root = resources.files(__name__)
    found: dict[str, dict[str, Any]] = {}
    for entry in root.iterdir():
        if entry.is_file() and entry.name.endswith(".json"):
            found[entry.name.removesuffix(".json")] = json.loads(entry.read_text(encoding="utf-8"))
    for entry in root.joinpath(_EVENT_DIR).iterdir():
        if entry.is_file() and entry.name.endswith(".json"):
            found[_EVENT_PREFIX + entry.name.removesuffix(".json")] = json.loads(entry.read_text(encoding="utf-8"))
    return found


def schema_names() -> list[str]:
    """Names of every schema, sorted: ``archive``, ``bundle``, ``common``, ``envelope-v1``, ..., ``event/gather``, ..."""
    return sorted(_schemas())


def event_types() -> list[str]:
    """The v3 event types that have a schema (``event/<type>``), sorted."""
    return sorted(name[len(_EVENT_PREFIX):] for name in _schemas() if name.startswith(_EVENT_PREFIX))


def load(name: str) -> dict[str, Any]:
    """A fresh deep copy of schema ``name`` (see :func:`schema_names`).

    Raises
    ------
    KeyError
        ``name`` is not a schema; the message lists the known names.
    """
    schemas = _schemas()
    if name not in schemas:
        hint = " (event schemas are named 'event/<type>')" if f"{_EVENT_PREFIX}{name}" in schemas else ""
        raise KeyError(f"unknown schema {name!r}{hint}; known: {', '.join(sorted(schemas))}")
    return copy.deepcopy(schemas[name])


@cache
def registry() -> referencing.Registry[Any]:
    """A :class:`referencing.Registry` holding every schema under its ``$id``.

    Use it with ``jsonschema``:
    ``jsonschema.Draft202012Validator(load("event/gather"), registry=registry())``.
    The registry is immutable, so the same one is returned on every call.
    """
    import referencing
    from referencing.jsonschema import DRAFT202012

    resources_ = [(schema["$id"], DRAFT202012.create_resource(schema)) for schema in _schemas().values()]
    return referencing.Registry().with_resources(resources_).crawl()


def _pointer(document: Any, fragment: str, ref: str) -> Any:
    """The part of ``document`` at JSON pointer ``fragment`` (``""`` is the whole document)."""
    node = document
    if not fragment:
        return node
    if not fragment.startswith("/"):
        raise ValueError(f"unsupported $ref {ref!r}: only JSON-pointer fragments are used in these schemas")
    for token in unquote(fragment).split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        try:
            node = node[int(token)] if isinstance(node, list) else node[token]
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"$ref {ref!r} points at nothing") from exc
    return node


def _inline(node: Any, base: str, stack: tuple[str, ...]) -> Any:
    """``node`` (a part of the schema whose ``$id`` is ``base``) with every ``$ref`` replaced."""
    if isinstance(node, list):
        return [_inline(item, base, stack) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref":
            continue
        # Property names, $defs names etc. are keys, never schemas: only values are walked.
        out[key] = _inline(value, base, stack)
    if "$ref" not in node:
        return out
    ref = node["$ref"]
    uri, _, fragment = ref.partition("#")
    target_base = uri or base
    if not target_base.startswith(ID_PREFIX) or target_base[len(ID_PREFIX):] not in _schemas():
        raise ValueError(f"$ref {ref!r} (in {base}) names no schema of this package")
    absolute = f"{target_base}#{fragment}"
    if absolute in stack:
        raise ValueError(f"$ref cycle cannot be inlined: {' -> '.join((*stack, absolute))}")
    target = _pointer(_schemas()[target_base[len(ID_PREFIX):]], fragment, ref)
    resolved = _inline(target, target_base, (*stack, absolute))
    if isinstance(resolved, dict) and not fragment:
        # An embedded whole document must not re-declare its identity, and its
        # definitions are already inlined wherever they were used.
        for keyword in ("$id", "$schema", "$defs"):
            resolved.pop(keyword, None)
    if not out:
        return resolved
    if isinstance(resolved, dict) and set(out) <= _ANNOTATIONS:
        # Only annotations beside the $ref: merge them in, the local ones winning.
        return {**resolved, **out}
    # A $ref beside other keywords applies both (draft 2020-12).
    out.setdefault("allOf", [])
    out["allOf"] = [resolved, *out["allOf"]]
    return out


def inlined(name: str) -> dict[str, Any]:
    """Schema ``name`` with every ``$ref`` replaced by what it points at, recursively.

    The result is self-contained (no ``$ref`` left, local ones included), so a
    validator without a registry, such as ``jsonschema_rs.validator_for``, gives
    the same verdicts as :func:`registry`-based validation.  The top-level ``$id``
    and ``$schema`` are kept; those of embedded documents are dropped.

    Raises
    ------
    KeyError
        ``name`` is not a schema.
    """
    schema = load(name)
    result: dict[str, Any] = _inline(schema, schema["$id"], (schema["$id"] + "#",))
    if "$defs" in result and name != "common":
        # Every local reference is inlined, so the definitions are no longer needed.
        del result["$defs"]
    return result


def export(directory: Path, *, inline: bool = False) -> list[Path]:
    """Write every schema to ``directory`` (pretty JSON, sorted keys), keeping the package layout.

    ``event/<type>`` goes to ``events/<type>.json``, the others to ``<name>.json``.  With ``inline``,
    each is :func:`inlined`: self-contained, for a validator that cannot resolve the ``urn:`` ids.
    Returns the written paths, sorted by schema name.
    """
    directory = Path(directory)
    written: list[Path] = []
    for name in schema_names():
        path = directory / _relative_path(name)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create the folder ({exc.strerror or exc})", file=str(path.parent)) from None
        write_file(path, dumps(inlined(name) if inline else load(name)))
        written.append(path)
    return written


_ECMA_SETS = {"d": "0-9", "w": "A-Za-z0-9_",
              "s": "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"}
"""ECMA-262's ``\\d``, ``\\w`` and ``\\s`` as members of a character class: ASCII digits and word
characters (Python's ``re`` takes every script's), and ECMA's white space (with U+FEFF, without U+0085)."""


def _ecma_escape(letter: str, in_class: bool) -> str:
    """The escape ``\\<letter>`` of an ECMA-262 pattern in Python's ``re``."""
    members = _ECMA_SETS.get(letter.lower())
    if members is None:
        return "(?a:\\b)" if letter == "b" and not in_class else "(?a:\\B)" if letter == "B" and not in_class \
            else "\\" + letter
    if letter.islower():
        return members if in_class else f"[{members}]"
    if in_class:
        raise ValueError(f"\\{letter} inside a character class is not supported")
    return f"[^{members}]"


@cache
def ecma_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled for Python with ECMA-262's meaning, as JSON Schema (and ``jsonschema_rs``)
    reads it: each ``$`` outside a character class and not escaped becomes ``\\Z`` (the very end, not
    also before a final newline), ``\\d`` and ``\\w`` take ASCII only and ``\\s`` ECMA's white space.

    >>> bool(ecma_pattern("^m_[0-9a-f]{12}$").search("m_0123456789ab\\n")), ecma_pattern(r"^[$]\\$$").pattern
    (False, '^[$]\\\\$\\\\Z')
    >>> bool(ecma_pattern(r"^\\d+$").search("\\u0663")), ecma_pattern(r"^[\\]$]$").pattern
    (False, '^[\\\\]$]\\\\Z')
    """
    out: list[str] = []
    in_class = False
    chars = iter(pattern)
    for char in chars:
        if char == "\\":
            out.append(_ecma_escape(next(chars, ""), in_class))
        elif in_class:
            in_class = char != "]"
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
            following = next(chars, "")  # a "]" or "^]" right after "[" is a member, not the end
            if following == "^":
                out.append(following)
                following = next(chars, "")
            if following == "\\":
                out.append(_ecma_escape(next(chars, ""), True))
            else:
                out.append(following)
        elif char == "$":
            out.append("\\Z")
        else:
            out.append(char)
    return re.compile("".join(out))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[jsonschema.ValidationError]:
    import jsonschema

    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def _validator_class() -> Any:
    """``jsonschema.Draft202012Validator`` whose ``pattern`` anchors ``$`` at the very end (ECMA-262), as
    ``jsonschema_rs`` does: the two engines give the same verdicts.  The module's ``Validator``, made when
    first asked for (jsonschema imported then)."""
    import jsonschema

    return jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})


def __getattr__(name: str) -> Any:
    """``Validator`` (:func:`_validator_class`), imported late: listing, showing or exporting the schemas
    imports no jsonschema."""
    if name == "Validator":
        return _validator_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@cache
def _unmarked_registry() -> referencing.Registry[Any]:
    """:func:`registry` with no ``$schema`` in any resource's contents: a ``$ref`` into one then keeps
    the validator's own class (``jsonschema`` picks the class of a referenced schema by its
    ``$schema``, which would be the stock one)."""
    import referencing
    from referencing.jsonschema import DRAFT202012

    resources_ = [(schema["$id"], DRAFT202012.create_resource({k: v for k, v in schema.items() if k != "$schema"}))
                  for schema in _schemas().values()]
    return referencing.Registry().with_resources(resources_).crawl()


def validator(schema: dict[str, Any]) -> Any:
    """A :data:`Validator` of ``schema`` (one of these schemas, or a part of one) that resolves the
    schemas' ids and keeps the ECMA-262 anchoring through every ``$ref``."""
    return _validator_class()({k: v for k, v in schema.items() if k != "$schema"}, registry=_unmarked_registry())


_ROLES: dict[str, tuple[str, str]] = {
    "archive": ("input", "a match's archive (validate, every analysis)"),
    "bundle": ("input", "a bundle file m_<id>.json (validate, every analysis)"),
    "common": ("shared", "definitions the other schemas refer to"),
    "report": ("input", "a match's scorecards (validate, every analysis)"),
    "stream-header": ("input", "the first line of a stream file m_<id>.jsonl (validate, every analysis)"),
    "study-page": ("input", "a study page's figures (study audit)"),
    "study-recipe": ("input", "a study's recipe (study audit)"),
    "behavior-report": ("output", "behavior --format json"),
    "compare": ("output", "compare --format json"),
    "study-audit": ("output", "study audit --json"),
}


def role(name: str) -> tuple[str, str]:
    """What schema ``name`` describes: ``("input", ...)`` (what this tool reads), ``("output", ...)`` (what
    it writes) or ``("shared", ...)``, and in words what and for which command.

    >>> role("event/gather"), role("compare")
    (('input', 'one v3 gather event (validate, every analysis)'), ('output', 'compare --format json'))
    """
    if name.startswith(_EVENT_PREFIX):
        return "input", f"one v3 {name[len(_EVENT_PREFIX):]} event (validate, every analysis)"
    if name.startswith("envelope-v"):
        return "input", f"one event's envelope at schema version {name[len('envelope-v'):]} (validate)"
    if name not in _ROLES:
        raise KeyError(f"no role for the schema {name!r}")
    return _ROLES[name]
