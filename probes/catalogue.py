"""The probe catalogue: declarative, versioned probe definitions (contract §5).

A probe is a scripted seat that sends a known payload to see whether a target
follows it.  Its message carries ``payload.probe = {"id", "version", "canary"?,
"targets"?, ...}``; the catalogue says, per ``(id, version)``, what the payload
asks and what counts as compliance.  One JSON file per definition in
``probes/catalogue/`` (package data), e.g. ``move-to.v1.json``::

    {"catalogueFormat": 1, "id": "move-to", "version": 1,
     "asks": "move to the region named in the payload (payload.probe.region)",
     "window": {"ticks": 20},
     "evidence": {"types": ["move"], "actor": "$target",
                  "all": [{"equals": ["payload.to", "$probe.region"]}]},
     "compliance": "the target's move with to = that region within 20 ticks"}

- ``window.ticks``: the evidence must come at most this many ticks after the
  probe message (the tick the target heard it), and after it in the log.
- ``evidence.types``: the event types that can be evidence.
- ``evidence.actor`` (optional): whose event it must be (a reference, below).
- ``evidence.all``: conditions, every one of which must hold
  (:data:`daishi_forensics.probes.rules.CONDITIONS` lists the kinds:
  ``equals``, ``contains``, ``gift``, ``heardBy``, ``revealsSecret``).
- References: ``$target`` (the addressed agent), ``$sender`` (the probe's seat),
  ``$probe.<key>`` (a field of the message's ``payload.probe``; a message whose
  probe block lacks a field its definition refers to is reported, not guessed).
  Anything else is a literal.

Adding a probe is adding a file; a new *kind* of condition is one function in
:mod:`.rules`.  A probe id or version the catalogue does not know is reported by
the compliance pass, never matched to a neighbouring version.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .rules import CONDITIONS, Condition

__all__ = [
    "CATALOGUE_FORMAT",
    "CatalogueError",
    "ProbeDefinition",
    "Catalogue",
    "parse_definition",
    "load_catalogue",
    "default_catalogue",
]

CATALOGUE_FORMAT = 1
"""The version of the definition file format this code reads."""


class CatalogueError(ValueError):
    """A catalogue file is not a valid definition (names the file and the field)."""


@dataclass(frozen=True, slots=True)
class ProbeDefinition:
    """One probe, at one version."""

    id: str
    """The probe id (``payload.probe.id``)."""
    version: int
    """The definition's version (``payload.probe.version``)."""
    asks: str
    """What the payload asks the target to do."""
    compliance: str
    """What counts as compliance, in words."""
    window_ticks: int
    """Evidence must come within this many ticks of hearing the payload."""
    types: frozenset[str]
    """Event types that can be evidence."""
    actor: str | None
    """Reference naming whose event the evidence must be (None: any party)."""
    conditions: tuple[Condition, ...]
    """Every one must hold."""
    requires: tuple[str, ...]
    """``payload.probe`` fields the definition refers to (``$probe.<key>``), sorted."""
    source: str = ""
    """Where the definition comes from (e.g. the contract section)."""

    @property
    def key(self) -> tuple[str, int]:
        """``(id, version)``."""
        return (self.id, self.version)

    @property
    def may_need_private(self) -> bool:
        """True if a ``message_private`` can be the evidence (a public export cannot show it)."""
        return "message_private" in self.types

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.version,
            "asks": self.asks,
            "compliance": self.compliance,
            "windowTicks": self.window_ticks,
            "types": sorted(self.types),
            "actor": self.actor,
            "conditions": [c.to_json() for c in self.conditions],
            "requires": list(self.requires),
            "source": self.source,
        }


def _fail(where: str, field: str, message: str) -> CatalogueError:
    return CatalogueError(f"{where}: field {field}: {message}")


def _refs(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if value.startswith("$"):
            yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _refs(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _refs(v)


def _check_ref(ref: str, where: str, field: str) -> None:
    if ref in ("$target", "$sender"):
        return
    if ref.startswith("$probe.") and len(ref) > len("$probe.") and "." not in ref[len("$probe."):]:
        return
    raise _fail(where, field, f"unknown reference {ref!r} (use $target, $sender or $probe.<key>)")


def parse_definition(obj: Any, where: str = "<definition>") -> ProbeDefinition:
    """Build a :class:`ProbeDefinition` from a parsed JSON object; raise :class:`CatalogueError`."""
    if not isinstance(obj, Mapping):
        raise CatalogueError(f"{where}: a definition must be a JSON object")
    fmt = obj.get("catalogueFormat")
    if fmt != CATALOGUE_FORMAT:
        raise _fail(where, "catalogueFormat", f"expected {CATALOGUE_FORMAT}, found {fmt!r}")
    pid = obj.get("id")
    if not isinstance(pid, str) or not pid:
        raise _fail(where, "id", "must be a non-empty string")
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _fail(where, "version", "must be an integer >= 1")
    asks = obj.get("asks")
    if not isinstance(asks, str) or not asks:
        raise _fail(where, "asks", "must be a non-empty string")
    compliance = obj.get("compliance", "")
    if not isinstance(compliance, str):
        raise _fail(where, "compliance", "must be a string")
    window = obj.get("window")
    ticks = window.get("ticks") if isinstance(window, Mapping) else None
    if not isinstance(ticks, int) or isinstance(ticks, bool) or ticks < 0:
        raise _fail(where, "window.ticks", "must be an integer >= 0")
    evidence = obj.get("evidence")
    if not isinstance(evidence, Mapping):
        raise _fail(where, "evidence", "must be an object")
    types = evidence.get("types")
    if not isinstance(types, list) or not types or not all(isinstance(t, str) and t for t in types):
        raise _fail(where, "evidence.types", "must be a non-empty list of event types")
    actor = evidence.get("actor")
    if actor is not None:
        if not isinstance(actor, str):
            raise _fail(where, "evidence.actor", "must be a reference string")
        _check_ref(actor, where, "evidence.actor")
    clauses = evidence.get("all", [])
    if not isinstance(clauses, list):
        raise _fail(where, "evidence.all", "must be a list of conditions")
    conditions: list[Condition] = []
    for i, clause in enumerate(clauses):
        field = f"evidence.all[{i}]"
        if not isinstance(clause, Mapping) or len(clause) != 1:
            raise _fail(where, field, "a condition is an object with exactly one key (its kind)")
        (kind, args), = clause.items()
        spec = CONDITIONS.get(kind)
        if spec is None:
            raise _fail(where, field, f"unknown condition {kind!r} (known: {', '.join(sorted(CONDITIONS))})")
        problem = spec.check(args)
        if problem:
            raise _fail(where, field, f"{kind}: {problem}")
        for ref in _refs(args):
            _check_ref(ref, where, field)
        conditions.append(Condition(kind, args))
    requires = sorted({
        ref[len("$probe."):]
        for ref in [*(_refs(clauses)), *([actor] if actor else [])]
        if ref.startswith("$probe.")
    })
    source = obj.get("source", "")
    return ProbeDefinition(
        id=pid,
        version=version,
        asks=asks,
        compliance=compliance,
        window_ticks=ticks,
        types=frozenset(types),
        actor=actor,
        conditions=tuple(conditions),
        requires=tuple(requires),
        source=source if isinstance(source, str) else "",
    )


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Every known probe definition, by ``(id, version)``."""

    definitions: Mapping[tuple[str, int], ProbeDefinition]
    """``(id, version)`` -> definition."""

    def get(self, probe_id: Any, version: Any) -> ProbeDefinition | None:
        """The definition of exactly this id and version, or None (never a neighbour)."""
        if not isinstance(probe_id, str) or not isinstance(version, int) or isinstance(version, bool):
            return None
        return self.definitions.get((probe_id, version))

    def versions(self, probe_id: str) -> tuple[int, ...]:
        """The versions known for ``probe_id``, ascending."""
        return tuple(sorted(v for (i, v) in self.definitions if i == probe_id))

    @property
    def evidence_types(self) -> frozenset[str]:
        """Every event type some definition accepts as evidence."""
        out: set[str] = set()
        for d in self.definitions.values():
            out |= d.types
        return frozenset(out)

    def to_json(self) -> list[dict[str, Any]]:
        """Every definition, sorted by id then version."""
        return [self.definitions[k].to_json() for k in sorted(self.definitions)]


def load_catalogue(folder: Path | None = None) -> Catalogue:
    """Read every ``*.json`` definition of ``folder`` (default: the packaged catalogue)."""
    files: list[tuple[str, str]] = []
    if folder is None:
        root = resources.files("daishi_forensics.probes").joinpath("catalogue")
        for entry in sorted(root.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".json"):
                files.append((f"probes/catalogue/{entry.name}", entry.read_text(encoding="utf-8")))
    else:
        for path in sorted(folder.glob("*.json")):
            files.append((str(path), path.read_text(encoding="utf-8")))
    definitions: dict[tuple[str, int], ProbeDefinition] = {}
    for where, text in files:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CatalogueError(f"{where}: not JSON: {exc}") from None
        definition = parse_definition(obj, where)
        if definition.key in definitions:
            raise _fail(where, "id/version", f"{definition.id} v{definition.version} is defined twice")
        definitions[definition.key] = definition
    return Catalogue(dict(sorted(definitions.items())))


_DEFAULT: Catalogue | None = None


def default_catalogue() -> Catalogue:
    """The packaged catalogue, read once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_catalogue()
    return _DEFAULT
