"""The single read boundary: validate, upcast, slice the season, apply errata.

:func:`read_match` wraps a :class:`~daishi_forensics.sources.MatchSource`.  Its
:meth:`MatchRead.events` is a one-shot generator of **v3-shaped dicts**; everything
downstream (replay, ledger, screens, probes) sees only that.  While it runs it fills
:class:`ReadStats`: every record read is counted exactly once, as valid or invalid,
by stored type and version, so the printed counts always add up to the records in
the file.  Nothing is silently dropped:

* an invalid record is reported as a :class:`~daishi_forensics.validation.Problem`
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
from .readahead import ReadAhead, read_ahead_for
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
        read_ahead: bool = True,
    ) -> None:
        self.source = source
        self.read_ahead = read_ahead
        """Let a helper process check schemas ahead (:mod:`~daishi_forensics.readahead`; same output)."""
        self.read_ahead_blocks = 0
        """Blocks of records whose schema check the helper did (0 without one)."""
        self.slow_records: list[int] | None = None
        """When a list: the index of every record the fast path did not take is appended to it
        (the helper tells the boundary these; :mod:`~daishi_forensics.readahead`)."""
        self.helped = False
        """Whether a read-ahead helper was started: a large file with a second CPU to spare
        (the report's builder then also uses the second CPU; :mod:`~daishi_forensics.aside`)."""
        self._ahead: ReadAhead | None = None
        self._delegated: tuple[str, ...] = ()
        self.strict = strict
        self.validate = validate
        self.max_problems = max_problems
        self.stats = ReadStats()
        self._consumed = False
        self._upcast_cache: tuple[dict[str, Any], list[dict[str, Any]]] | None = None
        archive = source.archive
        config = archive.get("config") if isinstance(archive.get("config"), dict) else {}
        grid = config.get("map") if isinstance(config.get("map"), dict) else {}
        self.width = grid.get("width", 12) if isinstance(grid.get("width"), int) else 12
        self.height = grid.get("height", 12) if isinstance(grid.get("height"), int) else 12
        self.errata_events: dict[int, str] = {}
        for erratum in [*(archive.get("errata") or []), *source.errata]:
            if isinstance(erratum, dict):
                for event_id in erratum.get("events") or []:
                    if isinstance(event_id, int):
                        self.errata_events.setdefault(event_id, str(erratum.get("id", "?")))

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
        """The match's events in the v3 shape, in log order (one pass only)."""
        if self._consumed:
            raise RuntimeError("MatchRead.events() can be iterated once; open the match again")
        self._consumed = True
        checker = _checker()
        known = checker.types
        stats = self.stats
        name = self.source.name
        match_id = self.match_id
        errata = self.errata_events
        strict = self.strict
        validate = self.validate
        by_type = stats.by_type
        by_version = stats.by_version
        last_id: int | None = None
        # v1 season slicing state
        season: list[dict[str, Any]] = []
        v1_mode = False
        last_tick = -1
        last_type = ""
        width, height = self.width, self.height
        # The v3 fast path: one compiled validator per type, map regions as a set, no helper calls.
        fast = checker.fast_v3() if validate else {}
        on_map = frozenset(f"r_{x}_{y}" for x in range(width) for y in range(height)) if width * height <= 1 << 20 \
            else None
        region_fields = REGION_FIELDS
        records = 0
        # Schema checks of the fast path read ahead on the second core (readahead module): per
        # block of records, the helper's list of failures when it has arrived, else None (check here).
        ahead = self._ahead
        if ahead is None and self.read_ahead:
            ahead = self._ahead = read_ahead_for(self.source, validate)
        self.helped = self.helped or ahead is not None
        slow = self.slow_records
        block_end = 0
        failed: frozenset[int] | None = None
        # A helper that runs the whole boundary itself (one running passes) vouches for every record
        # of an answered block outside its answer: v3, a known type, valid, in order, this match's,
        # on the map -- each check the fast path below would make, made on the same record by the
        # same code.  Those records skip straight to being counted and yielded.
        vouches = bool(getattr(ahead, "vouches", False))
        vouched: frozenset[int] | None = None
        fast_types: dict[str, int] = {}  # records the fast path passed on, by type
        fast_valid = 0  # records the fast path passed on (each: valid, v3)
        fast_yielded = 0  # ... and yielded (not withheld by an erratum)

        try:
            for record in self.source.records():
                records += 1
                if ahead is not None and records > block_end:
                    failed = ahead.answer(records - 1)
                    block_end = records - 1 + ahead.block
                    vouched = failed if vouches else None
                data = record[2]
                ok = False
                if vouched is not None and record[0] not in vouched:
                    ok = True  # the helper made every check below on this very record
                    type_name = data["type"]
                    eid = data["id"]
                elif type(data) is dict and data.get("schemaVersion") == 3:
                    type_name = data.get("type")
                    is_valid = fast.get(type_name) if type(type_name) is str else None  # type: ignore[arg-type]
                    if is_valid is not None and (is_valid(data) if failed is None else record[0] not in failed):
                        eid = data["id"]
                        ok = (last_id is None or eid > last_id) and (match_id is None or data["matchId"] == match_id)
                        if ok and on_map is not None:
                            fields = region_fields.get(type_name)  # type: ignore[arg-type]
                            if fields is not None:
                                payload = data["payload"]
                                for key in fields:
                                    region = payload.get(key)
                                    if region is not None and region not in on_map:
                                        ok = False
                    elif not validate:
                        by_type[type_name if isinstance(type_name, str) else "?"] += 1
                        by_version[3] += 1
                        stats.valid += 1
                        if data.get("private"):
                            stats.private_events += 1
                        if isinstance(data.get("id"), int):
                            last_id = data["id"]
                        if not (errata and data.get("id") in errata):
                            stats.yielded += 1
                            yield data
                        else:
                            stats.excluded_by_errata.append(data["id"])
                        continue
                if ok:
                    try:  # counted in a plain dict, into the stats in one go (finally, below)
                        fast_types[type_name] += 1  # type: ignore[index]
                    except KeyError:
                        fast_types[type_name] = 1  # type: ignore[index]
                    fast_valid += 1  # counted into the stats in one go (finally, below)
                    last_id = eid
                    if data["private"]:
                        stats.private_events += 1
                    if errata and eid in errata:
                        stats.excluded_by_errata.append(eid)
                    else:
                        fast_yielded += 1
                        yield data
                    continue
                # the general path: other versions, unknown types, and every record with a problem
                index, line, data, error = record
                if slow is not None:
                    slow.append(index)
                if error is not None:
                    stats.invalid += 1
                    self._problem(Problem(name, error, code="json", line=line, index=index))
                    continue
                if not isinstance(data, dict):
                    stats.invalid += 1
                    self._problem(Problem(name, "an event must be a JSON object", line=line, index=index))
                    continue
                event_id = data.get("id")
                event_type = data.get("type")
                version = data.get("schemaVersion", 1)
                type_name = event_type if isinstance(event_type, str) else "?"
                by_type[type_name] += 1
                by_version[version if isinstance(version, int) else 0] += 1
                eid = event_id if isinstance(event_id, int) and not isinstance(event_id, bool) else None

                bad = False
                if validate:
                    bad = self._check(checker, known, data, version, type_name, eid, line, index, strict)
                    if not bad and eid is not None:
                        if last_id is not None and eid <= last_id:
                            self._problem(
                                Problem(
                                    name,
                                    f"event ids must increase strictly: {eid} comes after {last_id}",
                                    code="order",
                                    event_id=eid,
                                    line=line,
                                    index=index,
                                    path="$.id",
                                    event_type=type_name,
                                )
                            )
                            bad = True
                    if not bad and match_id is not None:
                        event_match = data.get("matchId")
                        if event_match is not None and event_match != match_id:
                            self._problem(
                                Problem(
                                    name,
                                    f"matchId {str(event_match)[:40]!r} differs from the export's {match_id}",
                                    code="match-id",
                                    event_id=eid,
                                    line=line,
                                    index=index,
                                    path="$.matchId",
                                    event_type=type_name,
                                )
                            )
                            bad = True
                    if not bad and type_name in REGION_FIELDS:
                        bad = self._check_regions(data, type_name, eid, line, index, width, height)
                if eid is not None and (last_id is None or eid > last_id):
                    last_id = eid
                if bad:
                    stats.invalid += 1
                    continue
                stats.valid += 1

                if version != 3:
                    stats.upcast += 1
                    cached = self._upcast_cache
                    produced = cached[1] if cached is not None and cached[0] is data else upcast(data, match_id)
                    self._upcast_cache = None
                    stats.synthesized += len(produced) - 1
                else:
                    produced = [data]

                for event in produced:
                    if event.get("private"):
                        stats.private_events += 1

                if version == 1:
                    # contract §2: only the last season of a v1 log belongs to the match
                    tick = data.get("tick", 0)
                    boundary = type_name == "world_reset" or (
                        type_name == "season_started"
                        and isinstance(tick, int)
                        and tick < last_tick
                        and last_type != "world_reset"
                    )
                    last_type = type_name
                    if boundary and (season or v1_mode):
                        stats.dropped_earlier_season += len(season)
                        stats.seasons_seen += 1
                        season = []
                    v1_mode = True
                    if isinstance(tick, int):
                        last_tick = tick
                    season.extend(produced)
                    continue

                for event in produced:
                    yield from self._release(event, errata)

            if season:
                for event in season:
                    yield from self._release(event, errata)
        finally:
            stats.records = records
            by_type.update(fast_types)
            by_version[3] += fast_valid
            stats.valid += fast_valid
            stats.yielded += fast_yielded
            if by_version[3] == 0:
                del by_version[3]  # as a Counter that never counted it
            if ahead is not None:
                self.read_ahead_blocks = ahead.taken
                if not self._delegated:
                    self.close_read_ahead()  # (a helper running passes goes on: delegated_passes)

    # ------------------------------------------------------------------ passes in the helper

    def delegate(self, names: tuple[str, ...]) -> tuple[str, ...]:
        """Ask for a read-ahead helper that also runs these registered passes over the same
        events (:mod:`~daishi_forensics.readahead`); the names it took, () when no helper starts
        (the module's rules: a large file, two CPUs, ...).  Call before :meth:`events`."""
        if not names or self._consumed or self._ahead is not None or not (self.read_ahead and self.validate):
            return ()
        self._ahead = read_ahead_for(self.source, True, passes=names, strict=self.strict)
        self._delegated = names if self._ahead is not None else ()
        return self._delegated

    def delegated_passes(self) -> dict[str, Any] | None:
        """The delegated passes after their replay in the helper (waiting for it), or None if it
        failed; the helper is stopped either way."""
        ahead = self._ahead
        if ahead is None or not self._delegated:
            return None
        try:
            got = ahead.passes()
        finally:
            self.close_read_ahead()
        return got if got is not None and sorted(got) == sorted(self._delegated) else None

    def close_read_ahead(self) -> None:
        """Stop the read-ahead helper, if any (idempotent)."""
        ahead, self._ahead = self._ahead, None
        if ahead is not None:
            ahead.close()

    def _release(self, event: dict[str, Any], errata: dict[int, str]) -> Iterator[dict[str, Any]]:
        event_id = event.get("id")
        if errata and event_id in errata:
            if event.get("upcast") is None:
                self.stats.excluded_by_errata.append(event_id)  # type: ignore[arg-type]
            return
        self.stats.yielded += 1
        yield event

    # ------------------------------------------------------------------ checks

    def _check(
        self,
        checker: EventChecker,
        known: frozenset[str],
        data: dict[str, Any],
        version: Any,
        type_name: str,
        eid: int | None,
        line: int | None,
        index: int,
        strict: bool,
    ) -> bool:
        """Schema checks; returns True when the record is invalid."""
        name = self.source.name
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
