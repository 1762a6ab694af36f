"""The single read boundary: validate, upcast, slice the season, apply errata.

:func:`read_match` wraps a :class:`~daishi_forensics.read.sources.MatchSource`.  Its
:meth:`MatchRead.events` is a one-shot generator of **v3-shaped dicts**; everything
downstream (replay, ledger, screens, probes) sees only that.  While it runs it fills
:class:`ReadStats`: every record read is counted exactly once, as valid or invalid,
by stored type and version, so the printed counts always add up to the records in
the file.  Nothing is silently dropped:

* an invalid record is reported as a :class:`~daishi_forensics.read.validation.Problem`
  (file, line, event id, JSON path) and not passed on;
* an unknown event type is reported, counted and passed on unchanged (an error
  with ``strict``);
* a v1 log holding several seasons keeps only the last one (contract §2: a season
  starts at a ``world_reset``, or where ticks restart); earlier seasons are
  validated, counted as ``droppedEarlierSeason`` and said;
* an event an erratum names (archive ``errata[].events``, or a server page's
  ``errata``) never took effect in the world: it is validated, counted as
  ``excludedByErrata`` and withheld from the analyses.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator

from .sources import MatchSource
from .upcast import upcast
from .validation import EventChecker, Problem, header_problems

__all__ = ["ReadStats", "MatchRead", "read_match", "REGION"]

REGION = re.compile(r"^r_(\d+)_(\d+)$")

# Payload fields holding a region, per event type (bounds-checked against the map).
REGION_FIELDS: dict[str, tuple[str, ...]] = {
    "agent_spawned": ("region",),
    "agent_registered": ("region",),
    "move": ("from", "to"),
    "gather": ("region",),
    "build": ("region",),
    "attack": ("region",),
    "raid": ("region",),
    "theft": ("region",),
    "region_collapsed": ("region",),
    "agent_snapshot": ("region",),
}

_CHECKER: EventChecker | None = None


def _checker() -> EventChecker:
    global _CHECKER
    if _CHECKER is None:
        _CHECKER = EventChecker()
    return _CHECKER


@dataclass
class ReadStats:
    """What the read boundary saw.  ``records == valid + invalid`` always."""

    records: int = 0
    valid: int = 0
    invalid: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    by_version: Counter[int] = field(default_factory=Counter)
    upcast: int = 0
    synthesized: int = 0
    unknown_types: Counter[str] = field(default_factory=Counter)
    dropped_earlier_season: int = 0
    seasons_seen: int = 1
    excluded_by_errata: list[int] = field(default_factory=list)
    private_events: int = 0
    yielded: int = 0
    problems: list[Problem] = field(default_factory=list)
    problems_not_kept: int = 0
    errors: int = 0
    warnings: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "valid": self.valid,
            "invalid": self.invalid,
            "byType": dict(sorted(self.by_type.items())),
            "byVersion": {str(k): v for k, v in sorted(self.by_version.items())},
            "upcast": self.upcast,
            "synthesized": self.synthesized,
            "unknownTypes": dict(sorted(self.unknown_types.items())),
            "droppedEarlierSeason": self.dropped_earlier_season,
            "seasonsSeen": self.seasons_seen,
            "excludedByErrata": sorted(self.excluded_by_errata),
            "privateEvents": self.private_events,
            "analysed": self.yielded,
            "errors": self.errors,
            "warnings": self.warnings,
        }


class MatchRead:
    """A match being read through the boundary (see module docs)."""

    def __init__(
        self,
        source: MatchSource,
        *,
        strict: bool = False,
        max_problems: int = 10_000,
        validate: bool = True,
    ) -> None:
        self.source = source
        self.strict = strict
        self.validate = validate
        self.max_problems = max_problems
        self.stats = ReadStats()
        self._consumed = False
        self._upcast_cache: tuple[dict[str, Any], list[dict[str, Any]]] | None = None
        archive = source.archive
        config = archive.get("config")
        config = config if isinstance(config, dict) else {}
        grid = config.get("map")
        grid = grid if isinstance(grid, dict) else {}
        self.width = grid.get("width", 12) if isinstance(grid.get("width"), int) else 12
        self.height = grid.get("height", 12) if isinstance(grid.get("height"), int) else 12
        self.errata_events: dict[int, str] = {}
        for erratum in [*(archive.get("errata") or []), *source.errata]:
            if isinstance(erratum, dict):
                for event_id in erratum.get("events") or []:
                    if isinstance(event_id, int):
                        self.errata_events.setdefault(event_id, str(erratum.get("id", "?")))
        # where the reading stands (the cold path's state; the hot path keeps its own copy in locals)
        self._last_id: int | None = None
        self._season: list[dict[str, Any]] = []
        self._v1_mode = False
        self._last_tick = -1
        self._last_type = ""

    # ------------------------------------------------------------------ header

    @property
    def archive(self) -> dict[str, Any]:
        return self.source.archive

    @property
    def report(self) -> dict[str, Any] | None:
        return self.source.report

    @property
    def match_id(self) -> str | None:
        return self.source.match_id

    @property
    def errata(self) -> list[dict[str, Any]]:
        seen: dict[str, dict[str, Any]] = {}
        for erratum in [*(self.archive.get("errata") or []), *self.source.errata]:
            if isinstance(erratum, dict):
                seen.setdefault(str(erratum.get("id")), erratum)
        return [seen[k] for k in sorted(seen)]

    def header_problems(self) -> list[Problem]:
        """Problems in the header: the archive and the report against their schemas."""
        return header_problems(self.source)

    # ------------------------------------------------------------------ problems

    def _problem(self, problem: Problem) -> None:
        if problem.severity == "error":
            self.stats.errors += 1
        else:
            self.stats.warnings += 1
        if len(self.stats.problems) < self.max_problems:
            self.stats.problems.append(problem)
        else:
            self.stats.problems_not_kept += 1

    # ------------------------------------------------------------------ events

    def events(self) -> Iterator[dict[str, Any]]:
        """The match's events in the v3 shape, in log order (one pass only).

        Two paths.  The **hot path** takes a v3 record of a known type that passes its compiled
        schema, comes after the last id, belongs to this match and names only regions on the map:
        counted and yielded as it is.  Everything else -- other versions, unknown types, and every
        record with a problem -- takes the **cold path** (:meth:`_cold`), which says exactly what
        is wrong, upcasts, and slices v1 seasons."""
        if self._consumed:
            raise RuntimeError("MatchRead.events() can be iterated once; open the match again")
        self._consumed = True
        stats = self.stats
        match_id = self.match_id
        errata = self.errata_events
        fast = _checker().fast_v3() if self.validate else None
        width, height = self.width, self.height
        on_map = frozenset(f"r_{x}_{y}" for x in range(width) for y in range(height)) if width * height <= 1 << 20 \
            else None
        region_fields = REGION_FIELDS
        excluded = stats.excluded_by_errata
        hot_types: dict[str, int] = {}  # records the hot path passed on, by type (into the stats at the end)
        hot = 0  # records the hot path passed on (each valid, v3)
        hot_yielded = 0  # ... and yielded (not withheld by an erratum)
        private = 0
        records = 0
        try:
            for record in self.source.records():
                records += 1
                data = record[2]
                if fast is not None and type(data) is dict and data.get("schemaVersion") == 3:
                    type_name = data.get("type")
                    is_valid = fast.get(type_name) if type(type_name) is str else None
                    if is_valid is not None and is_valid(data):
                        eid = data["id"]
                        last = self._last_id
                        ok = (last is None or eid > last) and (match_id is None or data["matchId"] == match_id)
                        if ok and on_map is not None:
                            fields = region_fields.get(type_name)  # type: ignore[arg-type]
                            if fields is not None:
                                payload = data["payload"]
                                for key in fields:
                                    region = payload.get(key)
                                    if region is not None and region not in on_map:
                                        ok = False
                        if ok:
                            try:
                                hot_types[type_name] += 1  # type: ignore[index]
                            except KeyError:
                                hot_types[type_name] = 1  # type: ignore[index]
                            hot += 1
                            self._last_id = eid
                            if data["private"]:
                                private += 1
                            if errata and eid in errata:
                                excluded.append(eid)
                            else:
                                hot_yielded += 1
                                yield data
                            continue
                yield from self._cold(record)
            if self._season:
                for event in self._season:
                    yield from self._release(event, errata)
        finally:
            stats.records = records
            stats.by_type.update(hot_types)
            stats.by_version[3] += hot
            stats.valid += hot
            stats.yielded += hot_yielded
            stats.private_events += private
            if stats.by_version[3] == 0:
                del stats.by_version[3]  # as a Counter that never counted it

    def _cold(self, record: Any) -> Iterator[dict[str, Any]]:
        """The general path for one record: every check with its problem, the upcast, v1 seasons."""
        stats = self.stats
        name = self.source.name
        index, line, data, error = record
        if error is not None:
            stats.invalid += 1
            self._problem(Problem(name, error, code="json", line=line, index=index))
            return
        if not isinstance(data, dict):
            stats.invalid += 1
            self._problem(Problem(name, "an event must be a JSON object", line=line, index=index))
            return
        if not self.validate and data.get("schemaVersion") == 3:
            yield from self._unchecked(data)
            return
        event_id = data.get("id")
        event_type = data.get("type")
        version = data.get("schemaVersion", 1)
        type_name = event_type if isinstance(event_type, str) else "?"
        stats.by_type[type_name] += 1
        stats.by_version[version if isinstance(version, int) else 0] += 1
        eid = event_id if isinstance(event_id, int) and not isinstance(event_id, bool) else None
        last_id = self._last_id

        bad = False
        if self.validate:
            bad = self._check(_checker(), data, version, type_name, eid, line, index)
            if not bad and eid is not None and last_id is not None and eid <= last_id:
                self._problem(Problem(name, f"event ids must increase strictly: {eid} comes after {last_id}",
                                      code="order", event_id=eid, line=line, index=index, path="$.id",
                                      event_type=type_name))
                bad = True
            if not bad and self.match_id is not None:
                event_match = data.get("matchId")
                if event_match is not None and event_match != self.match_id:
                    self._problem(Problem(name, f"matchId {str(event_match)[:40]!r} differs from the export's "
                                                f"{self.match_id}", code="match-id", event_id=eid, line=line,
                                          index=index, path="$.matchId", event_type=type_name))
                    bad = True
            if not bad and type_name in REGION_FIELDS:
                bad = self._check_regions(data, type_name, eid, line, index, self.width, self.height)
        if eid is not None and (last_id is None or eid > last_id):
            self._last_id = eid
        if bad:
            stats.invalid += 1
            return
        stats.valid += 1

        if version != 3:
            stats.upcast += 1
            cached = self._upcast_cache
            produced = cached[1] if cached is not None and cached[0] is data else upcast(data, self.match_id)
            self._upcast_cache = None
            stats.synthesized += len(produced) - 1
        else:
            produced = [data]
        for event in produced:
            if event.get("private"):
                stats.private_events += 1

        if version == 1:
            self._season_event(data, type_name, produced)
            return
        for event in produced:
            yield from self._release(event, self.errata_events)

    def _unchecked(self, data: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """A v3 record read without validation (``validate=False``): counted and passed on."""
        stats = self.stats
        type_name = data.get("type")
        stats.by_type[type_name if isinstance(type_name, str) else "?"] += 1
        stats.by_version[3] += 1
        stats.valid += 1
        if data.get("private"):
            stats.private_events += 1
        if isinstance(data.get("id"), int):
            self._last_id = data["id"]
        if not (self.errata_events and data.get("id") in self.errata_events):
            stats.yielded += 1
            yield data
        else:
            stats.excluded_by_errata.append(data["id"])

    def _season_event(self, data: dict[str, Any], type_name: str, produced: list[dict[str, Any]]) -> None:
        """Contract §2: only the last season of a v1 log belongs to the match; a season starts at a
        ``world_reset`` (or a ``season_started`` whose tick restarts) and earlier ones are dropped."""
        tick = data.get("tick", 0)
        boundary = type_name == "world_reset" or (
            type_name == "season_started"
            and isinstance(tick, int)
            and tick < self._last_tick
            and self._last_type != "world_reset"
        )
        self._last_type = type_name
        if boundary and (self._season or self._v1_mode):
            self.stats.dropped_earlier_season += len(self._season)
            self.stats.seasons_seen += 1
            self._season = []
        self._v1_mode = True
        if isinstance(tick, int):
            self._last_tick = tick
        self._season.extend(produced)

    def _release(self, event: dict[str, Any], errata: dict[int, str]) -> Iterator[dict[str, Any]]:
        event_id = event.get("id")
        if errata and event_id in errata:
            if event.get("upcast") is None:
                self.stats.excluded_by_errata.append(event_id)
            return
        self.stats.yielded += 1
        yield event

    # ------------------------------------------------------------------ checks

    def _check(
        self,
        checker: EventChecker,
        data: dict[str, Any],
        version: Any,
        type_name: str,
        eid: int | None,
        line: int | None,
        index: int,
    ) -> bool:
        """Schema checks; returns True when the record is invalid."""
        name = self.source.name
        known = checker.types
        strict = self.strict
        if version not in (1, 2, 3) or isinstance(version, bool):
            self._problem(
                Problem(
                    name,
                    f"unknown schemaVersion {str(version)[:20]!r} (this tool reads 1, 2 and 3)",
                    event_id=eid,
                    line=line,
                    index=index,
                    path="$.schemaVersion",
                    event_type=type_name,
                )
            )
            return True
        if type_name not in known:
            envelope = checker.envelope(version)
            if not envelope.is_valid(data):
                self._report(envelope, data, eid, line, index, type_name)
                return True
            self.stats.unknown_types[type_name] += 1
            self._problem(
                Problem(
                    name,
                    f"unknown event type {type_name[:60]!r}: kept and counted, not analysed",
                    severity="error" if strict else "warning",
                    code="unknown-type",
                    event_id=eid,
                    line=line,
                    index=index,
                    path="$.type",
                    event_type=type_name,
                )
            )
            return strict
        if version == 3:
            whole = checker.whole(type_name)
            if whole.is_valid(data):
                return False
            self._report(whole, data, eid, line, index, type_name)
            return True
        envelope = checker.envelope(version)
        if not envelope.is_valid(data):
            self._report(envelope, data, eid, line, index, type_name)
            return True
        produced = upcast(data, self.match_id)
        for upcast_event in produced:
            partial = checker.partial(upcast_event["type"])
            if not partial.is_valid(upcast_event):
                self._report(partial, upcast_event, eid, line, index, type_name)
                return True
        self._upcast_cache = (data, produced)
        return False

    def _report(
        self, checker: Any, data: Any, eid: int | None, line: int | None, index: int, type_name: str
    ) -> None:
        for path, message in checker.errors(data):
            self._problem(
                Problem(
                    self.source.name,
                    message,
                    event_id=eid,
                    line=line,
                    index=index,
                    path=path,
                    event_type=type_name,
                )
            )

    def _check_regions(
        self,
        data: dict[str, Any],
        type_name: str,
        eid: int | None,
        line: int | None,
        index: int,
        width: int,
        height: int,
    ) -> bool:
        payload = data.get("payload") or {}
        bad = False
        for key in REGION_FIELDS[type_name]:
            region = payload.get(key)
            if region is None:
                continue
            match = REGION.match(region) if isinstance(region, str) else None
            if match is None or int(match.group(1)) >= width or int(match.group(2)) >= height:
                self._problem(
                    Problem(
                        self.source.name,
                        f"region {str(region)[:40]!r} is not on the {width}×{height} map",
                        code="region",
                        event_id=eid,
                        line=line,
                        index=index,
                        path=f"$.payload.{key}",
                        event_type=type_name,
                    )
                )
                bad = True
        return bad


def read_match(source: MatchSource, *, strict: bool = False, validate: bool = True) -> MatchRead:
    """Wrap a source in the read boundary."""
    return MatchRead(source, strict=strict, validate=validate)
