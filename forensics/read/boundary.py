"""The single read boundary: validate, upcast, slice the season, apply errata.

:func:`read_match` wraps a :class:`~daishi_forensics.read.sources.MatchSource`.  Its
:meth:`MatchRead.events` is a one-shot generator of **v3-shaped dicts**; everything
downstream (replay, ledger, screens, probes) sees only that.  While it runs it fills
:class:`ReadStats`: every record read is counted exactly once, as valid or invalid,
by stored type and version, so the printed counts always add up to the records in
the file.  Nothing is silently dropped:

* an invalid record is reported as a :class:`~daishi_forensics.read.validation.Problem`
  (file, line, event id, JSON path) and not passed on;
* ids increase strictly.  One record whose id jumps ahead of its neighbours (``…, 5000,
  99999999, 5001, …``) is the one out of place: it is reported and left out, and the
  records after it are compared with the last good id, so one bad id costs one problem.
  (To tell it from the record after it, the boundary holds each record back until the
  next one has been read.)  A repeated or lower id is reported on the record that carries it;
* ticks never go back within a season, none is past the archive's ``endedAtTick`` (a tick
  equal to it is the end-of-match snapshot's), and no v2 or v3 record's is below its
  ``startedAtTick`` (said, a warning; the record kept).  A tick lower than the last one (but where a v1
  season starts again) or past the end is said (a warning) and the record kept; a tick past the
  end is not the one later ticks are compared with, and a v1 record's is said only when its
  season is the match's;
* every integer the boundary hands on is a Python ``int``.  A number written with a
  fraction or exponent where the schema puts an integer (``"tick": 57.0``, ``"id": 5e3``)
  is read as that integer and said (a warning); one past 2**53, which a double cannot
  hold exactly, is an error, and so is one whose text writes a fraction other than zero
  (``4503599627370496.5``, read as the double 2**52), which is no integer;
* a key the record's JSON text repeats is reported (a warning; the last value is kept);
* a stream line orjson refuses only for an escaped lone surrogate (``"\\ud83d"``, legal JSON
  grammar) is read by the standard library, each lone surrogate as U+FFFD, and said (a warning
  per string); the record is then checked as any other (see :meth:`MatchRead._check_hash` for
  its message hash).  Only lines orjson refuses are read again;
* a number the problem quotes is quoted as written when the value read is not that number;
* an unknown event type is reported, counted and passed on unchanged (an error
  with ``strict``);
* a v1 log holding several seasons keeps only the match's (contract §2, see
  :meth:`MatchRead._season_event`); events of other seasons are validated, counted as
  ``droppedEarlierSeason`` and said;
* an event an erratum names (archive ``errata[].events``, or a server page's
  ``errata``) never took effect in the world: it is validated, counted as
  ``excludedByErrata`` and withheld from the analyses; an erratum naming an id no valid
  event of the match's log carries is said (a warning);
* a log that ends before the archive says the match did is reported as truncated,
  with its evidence (see :func:`truncation_evidence`).

Problems are kept up to ``max_per_kind`` of each kind (code) and counted beyond.
"""

from __future__ import annotations

import re
from collections import Counter
from hashlib import sha256
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from operator import itemgetter
from typing import Any, Collection, Iterator, Mapping

from daishi_forensics.errors import InvalidInput
from daishi_forensics.jsonio import json_text, shown
from .jsontext import (DocumentEvent, RepeatedKeys, colon_counter, key_path, lone_surrogates, repeated_keys, repeats_no_key,
                       with_lone_surrogates, written_numbers)
from .sources import EventSpool, MatchSource, RawRecord
from .upcast import upcast
from .validation import (EXACT_INTEGER, UPCAST_MARKS, EventChecker, IntegralFloat, Problem, as_integers,
                         header_problems, json_path, past_unbounded, server_errata_problems, unread_code, unread_said)

__all__ = ["ReadStats", "MatchRead", "read_match", "as_parsed", "REGION", "SEASON_MARKERS", "truncation_evidence",
           "erratum_name", "usable_type", "UNTYPED"]

REGION = re.compile(r"^r_([0-9]+)_([0-9]+)\Z")

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

SEASON_MARKERS = frozenset({"world_reset", "season_started"})
"""The events that mark where a v1 season ends or starts; they alone do not make a season played."""

PUBLIC_EXPORT_OMITS = frozenset({"message_private"})

_FORGED = {"upcastPath": "it would excuse a missing createdAtMs",
           "upcast": "it would pass the record off as the offerer's event an upcast adds to a v2 trade"}
"""What each upcast mark on a stored record would pass off (:data:`~.validation.UPCAST_MARKS`)."""

HASHED_TEXT_TYPES = frozenset({"message", "message_private"})
"""Types whose payload's ``sha256`` is the SHA-256 of its ``text``'s UTF-8 bytes (the export format's
definition; an upcast computes it where an old log has none).  A stored one that is not is refused: the
text or its hash was changed after the event was logged."""
"""Event types a public export leaves out (contract §1): the archive may count them, the log not."""

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
    by_version: Counter[int | str] = field(default_factory=Counter)
    """Records by their ``schemaVersion`` as an integer; one that is no integer (``"3"``, ``2.5``, ``null``,
    ``true``) under ``"?"``, apart from a written ``0``."""
    upcast: int = 0
    synthesized: int = 0
    unknown_types: Counter[str] = field(default_factory=Counter)
    dropped_earlier_season: int = 0
    seasons_seen: int = 1
    excluded_by_errata: list[int] = field(default_factory=list)
    private_events: int = 0
    yielded: int = 0
    problems: list[Problem] = field(default_factory=list)
    """The problems kept: the first ``max_per_kind`` of each kind (code), in log order."""
    problems_not_kept: int = 0
    problem_counts: Counter[str] = field(default_factory=Counter)
    """Every problem counted by kind (code), kept or not."""
    errors: int = 0
    warnings: int = 0
    truncated: tuple[str, ...] = ()
    """The evidence that the log ends before the match did (empty: none)."""

    def versions(self) -> dict[str, int]:
        """:attr:`by_version` with its versions as text, in order, ``"?"`` last.

        >>> ReadStats(by_version=Counter({3: 5, "?": 2, 0: 1, 1: 4})).versions()
        {'0': 1, '1': 4, '3': 5, '?': 2}
        """
        return {str(k): v for k, v in sorted(self.by_version.items(), key=lambda kv: (type(kv[0]) is str, kv[0]))}

    def as_dict(self) -> dict[str, Any]:
        return {
            "records": self.records,
            "valid": self.valid,
            "invalid": self.invalid,
            "byType": dict(sorted(self.by_type.items())),
            "byVersion": self.versions(),
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


@dataclass
class _Held:
    """A cold-path record that passed every check, held back until the next record confirms its
    id.  (A hot-path record is held as it is: its raw record, whose data is the event.)"""

    record: Any
    """The raw record."""
    event_id: int
    type_name: str
    produced: list[dict[str, Any]]
    """Its v3 events."""
    version: int = 3
    late: Problem | None = None
    """A v1 record's tick past the match's end, said only if its season is the match's."""


@dataclass
class _Season:
    """The events of one v1 season, spooled (bounded memory)."""

    spool: EventSpool = field(default_factory=EventSpool)
    played: bool = False
    """It holds an event other than the season markers."""
    closed: bool = False
    """A ``world_reset`` ended it."""
    late: list[Problem] = field(default_factory=list)
    """Its records' ticks past the match's end (the first ``max_per_kind``), said if it is the match's."""
    late_more: int = 0
    """... and how many more."""


def _map_size(archive: Mapping[str, Any]) -> tuple[int, int]:
    """The map's width and height as the archive's ``config.map`` gives them (:func:`_dimension`)."""
    config = archive.get("config")
    config = config if isinstance(config, dict) else {}
    grid = config.get("map")
    grid = grid if isinstance(grid, dict) else {}
    return _dimension(grid.get("width")), _dimension(grid.get("height"))


def _withheld(archive: Mapping[str, Any], source: MatchSource) -> dict[int, str]:
    """Each event id an erratum names (the archive's errata, then the source's own), with the name of the
    first erratum naming it."""
    withheld: dict[int, str] = {}
    for erratum in [*(archive.get("errata") or []), *source.errata]:
        if isinstance(erratum, dict) and isinstance(erratum.get("events"), list):
            for event_id in erratum["events"]:
                if isinstance(event_id, int) and not isinstance(event_id, bool):
                    withheld.setdefault(event_id, erratum_name(erratum))
    return withheld


class MatchRead:
    """A match being read through the boundary (see module docs)."""

    def __init__(
        self,
        source: MatchSource,
        *,
        strict: bool = False,
        max_per_kind: int = 1_000,
        validate: bool = True,
    ) -> None:
        self.source = source
        self.strict = strict
        self.validate = validate
        self.max_per_kind = max_per_kind
        self.stats = ReadStats()
        self.verbatim = False
        """The read went to the end and every record took the hot path: none took the cold path, none
        was found out of place.  The events were then exactly :func:`as_parsed` of the same records
        with the same errata."""
        self._consumed = False
        self._upcast_cache: tuple[dict[str, Any], list[dict[str, Any]]] | None = None
        archive = source.archive
        self.width, self.height = _map_size(archive)
        for key in ("agents", "errata"):  # contract §4: both are arrays; every reader iterates them
            if archive.get(key) is not None and not isinstance(archive.get(key), list):
                raise InvalidInput(f"the archive's {key} is not a list: {shown(archive.get(key))}", file=source.name,
                                   field=key)
        self.errata_events: dict[int, str] = _withheld(archive, source)
        """The event ids an erratum names (the archive's, then the source's), each with the first erratum's name."""
        # where the reading stands (the hot path keeps copies in locals and hands them over)
        self._last_id: int | None = None
        """The id of the last record that passed (held or released)."""
        self._before_last: int | None = None
        """The id that passed before it (None: unknown)."""
        self._held: Any = None
        """The last record that passed, not yet released: a :class:`_Held`, or a hot-path raw record."""
        self._hot_dropped: list[Any] = []
        """Hot-path raw records found out of place after they passed (their counts are undone at the end)."""
        self._cold_types: Counter[str] = Counter()
        """Cold-path records by the v3 type of what they produced (stored type when invalid)."""
        self._untyped = 0
        """Records without a usable type (not JSON, not an object, no type or an empty one: :func:`usable_type`)."""
        self._last_tick: int | None = None
        """The tick of the last record that passed: where the log ends (truncation).  Not
        :attr:`_order_tick`, which leaves out a tick past the end and forgets the tick of a record found
        out of place."""
        ended = archive.get("endedAtTick")
        self.ended: int | None = ended if isinstance(ended, int) and not isinstance(ended, bool) else None
        """The archive's ``endedAtTick`` (None: not an integer); a tick past it is said."""
        started = archive.get("startedAtTick")
        self.started: int | None = started if isinstance(started, int) and not isinstance(started, bool) \
            and started > 0 else None
        """The archive's ``startedAtTick`` when above 0 (None: 0, or not an integer); a v2 or v3 record's tick
        below it is said."""
        self._order_tick: float = -1
        """The tick records are checked against: the last one that passed, but one past the end or one of
        a record later found out of place (-1: none, or unknown; on the hot path, half a tick before the
        archive's start).  Within a season ticks never go back."""
        self._before_tick: float = -1
        """The tick records were checked against before :attr:`_order_tick` (-1: none, or unknown; on the
        hot path, the floor): a record whose tick jumped ahead is out of line with both neighbours when the
        next one's comes back between the two."""
        self._tick_from = -1
        """The index of the record that set :attr:`_order_tick` (the first of the records at that tick)."""
        self._floor: float = -1
        """The hot path's floor (half a tick before the archive's start; -1), standing for "none"."""
        self._after_reset = False
        """The last record that passed is a v1 ``world_reset``: the next one starts a season."""
        self._lone: dict[tuple[Any, ...], str] = {}
        """The record being checked: each string whose lone surrogates were read as U+FFFD, as written
        (by its path; see :func:`~.jsontext.with_lone_surrogates`)."""
        self._said_paths: frozenset[str] = frozenset()
        """Paths of the record being checked whose number :meth:`_numbers` already reported."""
        self._written_id: tuple[int, str] | None = None
        """The record being checked, when its ``id`` is no integer within 64 bits: its index and the id as
        written (a string, or the number's text), which its problems name."""
        self._actors: set[Any] = set()
        """The ``agentId`` of every event of the match's log that passed (the archive should list each)."""
        self._schema_paths: set[str] = set()
        """Paths of the record being checked a schema error named (no other check names them again)."""
        self._counters: dict[str, tuple[Any, bool]] = {}
        """Per event type, how to count the colons its payload's members hold (repeated keys)."""
        self._colon_parts: dict[str, tuple[tuple[str, ...], tuple[str, ...]] | None] = {}
        """Per event type, its payload's item-map and free-text members (what the counter counts)."""
        # v1 seasons
        self._season: _Season | None = None
        self._kept_season: _Season | None = None
        self._v1_last_tick = -1
        self._v1_last_type = ""

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
                seen.setdefault(erratum_name(erratum), erratum)
        return [seen[k] for k in sorted(seen)]

    def header_problems(self) -> list[Problem]:
        """Problems in the header: the archive and the report against their schemas, and keys its
        JSON text repeats."""
        problems = header_problems(self.source) + server_errata_problems(self.source)
        for key in self.source.repeated_keys:
            problems.append(Problem(self.source.name, f"the key {shown(key)} is repeated; the last value is kept",
                                    severity="warning", code="repeated-key", path="$"))
        for where, original in self.source.lone_surrogates:
            problems.append(Problem(self.source.name, f"{where}: {_lone_sentence(original, where.endswith('{key}'))}",
                                    severity="warning", code="surrogate", path="$"))
        return problems

    def header_errors(self) -> list[Problem]:
        """The errors among :meth:`header_problems` (its warnings left out): what makes the header invalid, which
        every analysis reads as it stands and every command says."""
        return [p for p in self.header_problems() if p.severity == "error"]

    # ------------------------------------------------------------------ problems

    def _problem(self, problem: Problem) -> None:
        written = self._written_id
        if written is not None and problem.event_id is None and problem.index == written[0]:
            problem = replace(problem, event_id=written[1])
        stats = self.stats
        if problem.severity == "error":
            stats.errors += 1
        else:
            stats.warnings += 1
        stats.problem_counts[problem.code] += 1
        if stats.problem_counts[problem.code] <= self.max_per_kind:
            stats.problems.append(problem)
        else:
            stats.problems_not_kept += 1

    # ------------------------------------------------------------------ events

    def events(self) -> Iterator[dict[str, Any]]:
        """The match's events in the v3 shape, in log order (one pass only).

        Two paths.  The **hot path** takes a v3 record of a known type that passes its compiled
        schema, holds integers where integers go, comes after the last id, belongs to this match
        and names only regions on the map: counted, held back one record (see the module docs)
        and yielded as it is (a tick going back or past the end is said there, :meth:`_hot_tick`).
        Everything else -- other versions, unknown types, and every record with a problem -- takes
        the **cold path** (:meth:`_cold`), which says exactly what is wrong, upcasts, and slices v1
        seasons."""
        if self._consumed:
            raise RuntimeError("MatchRead.events() can be iterated once; open the match again")
        self._consumed = True
        stats = self.stats
        match_id = self.match_id
        errata = self.errata_events
        checker = _checker()
        colon_parts = checker.colon_parts()
        counters = self._counters = {t: (None, False) if parts is None else (colon_counter(*parts), bool(parts[1]))
                                     for t, parts in colon_parts.items()}
        self._colon_parts = colon_parts
        width, height = self.width, self.height
        on_map = frozenset(f"r_{x}_{y}" for x in range(width) for y in range(height)) if width * height <= 1 << 20 \
            else None
        # a region field passes when it is absent (None) or names a region on the map (its schema made
        # each present one a string); a loop over a type's one or two fields costs about half what one
        # C-level superset test over ``map(payload.get, fields)`` does (its map object made per record)
        placed = on_map | {None} if on_map is not None else None
        region_fields = REGION_FIELDS
        # the compiled schemas less what this path checks itself below: the type it picks the validator by,
        # the match id it compares, the regions it finds on the map (EventChecker.hot_v3)
        fast = checker.hot_v3(match_id, region_fields if placed is not None else None) if self.validate else {}
        # per type, all the hot path asks of it in one look-up: its validator, the region fields it checks
        # on the map (None: none, or no map check), how to count the colons of its payload's members
        hot = {t: (is_valid, region_fields.get(t) if placed is not None else None, *counters[t],
                   t in HASHED_TEXT_TYPES) for t, is_valid in fast.items()}
        checking = bool(hot)  # validation off: every record takes the cold path
        excluded = stats.excluded_by_errata
        hot_types: dict[str, int] = {}  # records the hot path passed, by type (each valid, v3, unless found
        # out of place later; into the stats at the end)
        hot_yielded = 0  # ... and yielded (not withheld by an erratum)
        record = None
        # ids: -1 stands for "none yet" in the loop (a valid id is >= 0), None outside it
        last, before, held = _or_minus_one(self._last_id), _or_minus_one(self._before_last), self._held
        # ticks: the one records are checked against (-1: none), and the match's end (a record whose tick
        # goes back or is past it is said by _check_tick, and kept)
        # a tick below the archive's startedAtTick is said too: the path starts from half a tick before it
        # (the floor, which no tick equals; -1 when the match starts at 0), standing for "none" as -1 does
        # outside the loop
        floor: float = self.started - 0.5 if self.started is not None else -1
        self._floor = floor
        last_tick = self._order_tick if self._order_tick != -1 else floor
        before_tick = self._before_tick if self._before_tick != -1 else floor
        tick_from = self._tick_from
        ended = self.ended if self.ended is not None else 1 << 62
        cold_held = None  # a record the cold path holds (a _Held); `held` is a hot-path raw record
        actor = self._actors.add
        finished = False
        try:
            for record in self.source.records():  # noqa: B007 (the last one's index: the count, at the end)
                data = record[2]
                # a plain object (a whole document's record whose text repeats a key is a RepeatedKeys: cold),
                # a v3 record of a known type (its compiled schema wants `"schemaVersion": 3`)
                if type(data) is dict and checking:
                    try:
                        type_name = data["type"]
                        is_valid, fields, counter, has_texts, hashed = hot[type_name]
                    except (KeyError, TypeError):  # no type, an unknown one, or one not even a string (unhashable)
                        is_valid = _refused
                    if is_valid(data):
                        eid = data["id"]
                        payload = data["payload"]
                        ok = eid > last and (match_id is None or data["matchId"] == match_id)
                        text = record[4]  # repeated keys: a colon count first (see jsontext)
                        if text is not None and ok:
                            colons = text.count(b":")
                            if colons != len(data) + len(payload):
                                ok = repeats_no_key(text, data, counter, has_texts, colons)
                        if fields is not None and ok:
                            for key in fields:
                                if payload.get(key) not in placed:  # type: ignore[operator]
                                    ok = False
                                    break
                        if hashed and ok:  # the schema made both strings
                            ok = sha256(payload["text"].encode()).hexdigest() == payload["sha256"]
                        if ok:
                            tick = data["tick"]
                            if tick != last_tick:  # most records share the last one's tick (never past the end)
                                if last_tick < tick <= ended:
                                    before_tick, last_tick, tick_from = last_tick, tick, record[0]
                                else:  # a tick back or past the end: said, and the record stays on this path
                                    last_tick, before_tick, tick_from = self._hot_tick(
                                        record, type_name, (last_tick, before_tick, tick_from),
                                        held if held is not None else cold_held)
                            try:
                                hot_types[type_name] += 1
                            except KeyError:
                                hot_types[type_name] = 1
                            actor(data["agentId"])
                            if held is not None:  # the record before, confirmed: out (a hot-path record)
                                if errata and held[2]["id"] in errata:
                                    excluded.append(held[2]["id"])
                                else:
                                    hot_yielded += 1
                                    yield held[2]
                            elif cold_held is not None:  # ... or the cold path's
                                yield from self._release(cold_held)
                                cold_held = None
                                if self._season is not None:  # a v3 record ends the v1 seasons spooled before it
                                    yield from self._season_end()
                            held = record
                            before = last
                            last = eid
                            continue
                self._last_id, self._before_last = _or_none(last), _or_none(before)
                self._held = held if held is not None else cold_held
                if held is not None:  # the last record that passed took the hot path: no v1 reset
                    self._after_reset = False
                self._order_tick = last_tick if last_tick != floor else -1
                self._before_tick, self._tick_from = before_tick if before_tick != floor else -1, tick_from
                yield from self._cold(record)
                last, before, held = _or_minus_one(self._last_id), _or_minus_one(self._before_last), self._held
                last_tick = self._order_tick if self._order_tick != -1 else floor
                before_tick = self._before_tick if self._before_tick != -1 else floor
                tick_from = self._tick_from
                held, cold_held = (None, held) if type(held) is _Held else (held, None)
            held = held if held is not None else cold_held
            self._last_id, self._before_last, self._held = _or_none(last), _or_none(before), held
            if held is not None:
                self._held = None
                self._last_tick = _tick(held)
                yield from self._release(held)
            yield from self._season_end()
            finished = True
        finally:
            self._settle(hot_types, hot_yielded, record[0] + 1 if record is not None else 0, checker)
        if finished:
            self.verbatim = sum(hot_types.values()) == stats.records and not self._hot_dropped
        if finished and self.validate:
            self._check_truncation(hot_types, checker)
            self._check_errata()
            self._check_roster()

    def _settle(self, hot_types: dict[str, int], hot_yielded: int, records: int, checker: EventChecker) -> None:
        """Book the hot path's records into the stats (records count from 0, blank lines aside; a hot record
        found out of place later counts invalid) and close the season spools.  Runs however the reading
        ended."""
        stats = self.stats
        dropped = self._hot_dropped  # raw records
        hot = sum(hot_types.values())
        private = sum(hot_types.get(t, 0) for t in checker.private_types())  # the schema fixes `private`
        stats.records = records
        stats.by_type.update(hot_types)
        stats.by_version[3] += hot
        stats.valid += hot - len(dropped)
        stats.invalid += len(dropped)
        stats.yielded += hot_yielded
        stats.private_events += private - sum(1 for r in dropped if r[2].get("private"))
        if stats.by_version[3] == 0:
            del stats.by_version[3]  # as a Counter that never counted it
        if self._season is not None:
            self._season.spool.close()
        if self._kept_season is not None:
            self._kept_season.spool.close()

    def _check_truncation(self, hot_types: dict[str, int], checker: EventChecker) -> None:
        """A log read to its end is truncated when the archive's counts say more happened than it holds
        (:func:`truncation_evidence`): a problem of the whole log."""
        stats = self.stats
        counts = Counter(self._cold_types)
        counts.update(hot_types)
        evidence = truncation_evidence(self.archive, counts, self._untyped, stats.private_events > 0,
                                       self._last_tick, stats.records, checker.types)
        if evidence:
            stats.truncated = evidence
            self._problem(Problem(self.source.name, "the log is truncated: " + "; ".join(evidence),
                                  code="truncated", path="$"))

    def _check_roster(self) -> None:
        """Agents acting in the match's log whom the archive's ``agents`` do not list: said (a warning, at
        the archive's agents), when it lists any."""
        listed = {a.get("agentId") for a in self.archive.get("agents") or []
                  if isinstance(a, dict) and isinstance(a.get("agentId"), str)}  # another type: not hashable
        listed.discard(None)
        if not listed:
            return
        unlisted = sorted(a for a in self._actors if isinstance(a, str) and a not in listed)
        if not unlisted:
            return
        names = ", ".join(shown(a, 40) for a in unlisted[:8]) + (f" and {len(unlisted) - 8} more"
                                                               if len(unlisted) > 8 else "")
        agents = "an agent" if len(unlisted) == 1 else f"{len(unlisted)} agents"
        self._problem(Problem(self.source.name, f"the log has events by {agents} the archive's agents do not list: "
                                                f"{names}", severity="warning", code="roster",
                              path="$.archive.agents"))

    def _check_errata(self) -> None:
        """An archive erratum naming an event id that no valid event of the match's log carries withholds
        nothing: said (a warning; the contract has errata name logged events), at the id in the archive (a
        server page's errata are checked with the page, :func:`~.validation.server_errata_problems`)."""
        stats = self.stats
        withheld = set(stats.excluded_by_errata)
        missing = sorted(event_id for event_id in self.errata_events if event_id not in withheld)
        if not missing:
            return
        paths: dict[int, str] = {}
        for i, erratum in enumerate(self.archive.get("errata") or []):
            if isinstance(erratum, dict) and isinstance(erratum.get("events"), list):
                for j, event_id in enumerate(erratum["events"]):
                    if isinstance(event_id, int) and not isinstance(event_id, bool):
                        paths.setdefault(event_id, f"$.archive.errata[{i}].events[{j}]")
        public = " (a public export leaves out direct messages: it may name one)" if not stats.private_events else ""
        for event_id in (e for e in missing if e in paths):  # a server page's erratum only: said with its page
            self._problem(Problem(self.source.name, f"erratum {shown(self.errata_events[event_id])} names event "
                                                    f"{event_id}, but the match's log holds no valid event with "
                                                    f"that id: it withholds nothing{public}", severity="warning",
                                  code="errata", path=paths[event_id]))

    def _cold(self, record: Any) -> Iterator[dict[str, Any]]:
        """The general path for one record: every check with its problem, the upcast, v1 seasons."""
        stats = self.stats
        name = self.source.name
        record, data, error, written = self._as_read(record)
        index, line, text = record[0], record[1], record[4]
        if error is not None:
            stats.invalid += 1
            self._untyped += 1
            self._problem(Problem(name, error, code="json", line=line, index=index))
            return
        if not isinstance(data, dict):
            stats.invalid += 1
            self._untyped += 1
            self._problem(Problem(name, "an event must be a JSON object", line=line, index=index))
            return
        type_name = usable_type(data.get("type"))
        data = self._keys_once(data, text, type_name, line, index)
        if self._lone:
            self._say_lone_surrogates(_int_id(data.get("id")), line, index, type_name)
        data, numbers = self._integers(data, text, index, type_name, written)
        if not self.validate and (data.get("schemaVersion") == 3 or not _read_version(data)):
            yield from self._unchecked(data, record)
            return
        event_id = data.get("id")
        version = data.get("schemaVersion", 1)
        missing = missing_version(data, type_name) if self.validate else None
        stats.by_type[type_name] += 1
        stats.by_version[_tallied_version(version)] += 1
        eid = _int_id(event_id)
        if type_name == UNTYPED:
            self._untyped += 1

        bad = False
        if self.validate:
            # every check is made, a schema error or not, but none about a field a check before it named
            self._schema_paths = set()
            if missing is not None:  # read as version 1, it would pass what its version's checks refuse
                self._problem(Problem(name, missing, event_id=eid, line=line, index=index, path="$.schemaVersion",
                                      event_type=type_name))
                stats.invalid += 1
                self._cold_types[type_name] += 1
                return
            bad = self._fails_checks(data, numbers, version, type_name, eid, line, index)
        late = None
        if not bad and self.validate:
            late = self._check_tick(data.get("tick"), version, type_name, eid, line, index)
        if bad:
            stats.invalid += 1
            self._cold_types[type_name] += 1
            return
        yield from self._hand_over(record, data, version, type_name, eid, late)

    def _as_read(self, record: Any) -> tuple[Any, Any, str | None, dict[tuple[Any, ...], str]]:
        """The record as the cold path reads it, its data and its parse error, and the texts of its numbers as
        a whole document wrote them (empty but for a server page's): a line that is not JSON for its lone
        surrogate escapes alone read on (each as U+FFFD, kept in ``_lone`` to be said); an event of a whole
        document as its text showed it (repeated keys, lone surrogates, its id as written).  The id as
        written is kept (``_written_id``) when it is not an integer."""
        index, line, data, error = record[:4]
        text = record[4]
        self._lone = {}
        self._written_id = None
        written_id = None
        written: dict[tuple[Any, ...], str] = {}
        if error is not None and text is not None:
            rescued = with_lone_surrogates(text)
            if rescued is not None:  # read on: each lone surrogate as U+FFFD, said below
                data, self._lone = rescued
                error = None
                record = RawRecord(index, line, data, None, text)
        elif type(data) is DocumentEvent:  # an event of a whole document: what its text showed, found there
            self._lone, written_id, written = data.originals, data.written_id, data.written
            data = RepeatedKeys(data, data.repeated) if data.repeated else dict(data)
            record = RawRecord(index, line, data, None, text)
        if isinstance(data, dict):
            raw_id = data.get("id")
            if raw_id is not None and _int_id(raw_id) is None:
                id_text = _id_as_written(raw_id, text, written_id)
                self._written_id = (index, id_text) if id_text is not None else None
        return record, data, error, written

    def _keys_once(self, data: dict[str, Any], text: bytes | None, type_name: str, line: int | None,
                   index: int) -> dict[str, Any]:
        """``data`` with each repeated key said (a warning; the last value is kept, as parsed)."""
        if text is not None and not self._repeats_no_key(text, data, type_name):
            data = RepeatedKeys(data, tuple(key_path(p, k) for p, k in repeated_keys(text)))
        if isinstance(data, RepeatedKeys):
            for key in data.repeated:
                self._problem(Problem(self.source.name, f"the key {shown(key)} is repeated in this event; the last "
                                                        "value is kept", severity="warning", code="repeated-key",
                                      event_id=_int_id(data.get("id")), line=line, index=index, path="$",
                                      event_type=type_name))
            data = dict(data)
        return data

    def _integers(self, data: dict[str, Any], text: bytes | None, index: int, type_name: str,
                  written: dict[tuple[Any, ...], str]) -> tuple[dict[str, Any], Any]:
        """``data`` with the integers its type's schema wants as integers, and the numbers that are not (each
        with its text as written, where the line, the whole document or a server's page shows it)."""
        data, numbers = as_integers(data, _checker().integer_paths(type_name))
        if numbers and text is not None:
            numbers = as_written(numbers, text)
        elif numbers and self.source.number_texts is not None:
            # a whole document's: the texts of the numbers a double may not be, found there
            numbers = as_written(numbers, None, self.source.number_texts(index))
        elif numbers and written:  # a whole document's (a server's page): the texts found there
            numbers = as_written(numbers, None, written)
        return data, numbers

    def _fails_checks(self, data: dict[str, Any], numbers: Any, version: Any, type_name: str, eid: int | None,
                      line: int | None, index: int) -> bool:
        """Every check of a record whose version is known, each refusal said; True when one refused it: its
        numbers, its schema, its match id, its regions on the map, its text's hash, its id's order (none about
        a field a check before it named)."""
        name = self.source.name
        bad = self._numbers(numbers, eid, line, index, type_name)
        bad = self._check(_checker(), data, version, type_name, eid, line, index) or bad
        named = self._schema_paths | self._said_paths
        if self.match_id is not None and "$.matchId" not in named:
            event_match = data.get("matchId")
            if "matchId" in data and event_match != self.match_id:  # a null one too (a v1 record may omit it)
                self._problem(Problem(name, f"matchId {shown(event_match, 40, json_literals=True)} differs from "
                                            f"the export's {self.match_id}", code="match-id", event_id=eid, line=line,
                                      index=index, path="$.matchId", event_type=type_name))
                bad = True
        if type_name in REGION_FIELDS:
            bad = self._check_regions(data, type_name, eid, line, index, self.width, self.height, named) or bad
        if type_name in HASHED_TEXT_TYPES and not named & {"$.payload.text", "$.payload.sha256"}:
            bad = self._check_hash(data, type_name, eid, line, index) or bad
        if not bad and eid is not None:
            bad = not self._in_order(eid, line, index, type_name)
        return bad

    def _hand_over(self, record: Any, data: dict[str, Any], version: Any, type_name: str, eid: int | None,
                   late: Any) -> Iterator[dict[str, Any]]:
        """A record that passed: upcast to v3 (a v1 season's first record may start over), the record held
        before it released, and this one held in its place (released at once with validation off: nothing
        to order by)."""
        if version != 3:
            cached = self._upcast_cache
            produced = cached[1] if cached is not None and cached[0] is data else upcast(data, self.match_id)
        else:
            produced = [data]
        self._upcast_cache = None
        for event in produced:
            kind = event.get("type")
            self._cold_types[usable_type(kind)] += 1
        held = self._held
        if held is not None:
            self._held = None
            yield from self._release(held)
        if eid is None:  # validation off: nothing to order by
            yield from self._release(_Held(record, -1, type_name, produced, _stored_version(version)))
            return
        self._held = _Held(record, eid, type_name, produced, _stored_version(version), late)
        self._before_last = self._last_id
        self._last_id = eid

    def _say_lone_surrogates(self, eid: int | None, line: int | None, index: int, type_name: str) -> None:
        """A warning for each string (or object's keys) whose lone surrogate escapes were read as
        U+FFFD (:func:`~.jsontext.with_lone_surrogates`): the record is then checked as read."""
        for where, original in sorted(self._lone.items(), key=lambda item: [shown(part) for part in item[0]]):
            key = where[-1:] == (None,)
            path = json_path(where[:-1] if key else where)
            self._problem(Problem(self.source.name, _lone_sentence(original, key), severity="warning",
                                  code="surrogate", event_id=eid, line=line, index=index, path=path,
                                  event_type=type_name))

    def _repeats_no_key(self, text: bytes, data: dict[str, Any], type_name: str) -> bool:
        """The hot path's test for repeated keys (a colon count first), on any record."""
        payload = data.get("payload")
        if text.count(b":") == len(data) + (len(payload) if type(payload) is dict else 0):
            return True
        counter = self._counters.get(type_name) if type(payload) is dict else None
        parts = self._colon_parts.get(type_name) if counter is not None else None
        if parts is not None and not (all(type(payload.get(k, {})) is dict for k in parts[0])  # type: ignore[union-attr]
                                      and all(type(payload.get(k, "")) is str for k in parts[1])):  # type: ignore[union-attr]
            counter = None  # the counter counts a checked payload's members (item maps, texts): not these
        return repeats_no_key(text, data, *(counter or (None, False)))

    def _hot_tick(self, record: Any, type_name: str, ticks: tuple[float, float, int],
                  previous: Any) -> tuple[float, float, int]:
        """The hot path's record whose tick goes back or is past the end: said (:meth:`_check_tick`), the
        record kept on the hot path.  ``ticks``: the hot path's tick it is checked against, the one before
        and the index of the record that set it; returned as they stand after it.  ``previous``: the
        record that passed before it (a hot-path raw record or a :class:`_Held`)."""
        data = record[2]
        self._order_tick, self._before_tick, self._tick_from = ticks
        self._after_reset = False
        self._check_tick(data["tick"], 3, type_name, data["id"], record[1], record[0], previous)
        return self._order_tick, self._before_tick, self._tick_from

    def _check_tick(self, tick: Any, version: Any, type_name: str, eid: int | None, line: int | None,
                    index: int, previous: Any = None) -> Problem | None:
        """Say (a warning; the record stays valid) a tick lower than the last one within a season, or past
        the archive's ``endedAtTick``.  A v1 season starts again at a ``season_started`` or after a
        ``world_reset`` (:meth:`_season_event`): no tick before it is compared.  A tick past the end is
        not the one later ticks are compared with; a v1 record's is returned, to be said only if its
        season is the match's.

        A tick back that comes between the two ticks before it blames the record before it when that one
        alone jumped ahead (it is out of line with both neighbours: the warning names it, not this
        one).  ``previous``: the record that passed last (None: the held one)."""
        if not isinstance(tick, int) or isinstance(tick, bool):
            return None
        v1 = version == 1 and not isinstance(version, bool)
        restarts = v1 and (self._after_reset or type_name == "season_started")
        self._after_reset = v1 and type_name == "world_reset"
        name = self.source.name
        if not v1 and self.started is not None and tick < self.started:
            self._problem(Problem(name, f"tick {tick} is before the match's start (the archive's startedAtTick is "
                                        f"{self.started})", severity="warning", code="tick-before-start",
                                  event_id=eid, line=line, index=index, path="$.tick", event_type=type_name))
            return None
        last = self._order_tick
        before = self._before_tick
        after_back: float = -1  # the tick before this one, when this one goes back
        if tick < last and not restarts:
            jumped = self._jumped(previous) if before <= tick and before not in (-1, self._floor) else None
            if jumped is not None:  # the record before alone jumped ahead: out of line with both neighbours
                raw, jumped_type = jumped
                self._problem(Problem(name, f"ticks must not go back within a season: tick {last} is out of line "
                                            f"between tick {before} and tick {tick}",
                                      severity="warning", code="tick-order", event_id=_int_id(raw[2].get("id")),
                                      line=raw[1], index=raw[0], path="$.tick", event_type=jumped_type))
                after_back = before
            else:
                self._problem(Problem(name, f"ticks must not go back within a season: tick {tick} comes after "
                                            f"tick {last}", severity="warning", code="tick-order",
                                      event_id=eid, line=line, index=index, path="$.tick", event_type=type_name))
        ended = self.ended
        if ended is not None and tick > ended:
            late = Problem(name, f"tick {tick} is past the match's end (the archive's endedAtTick is {ended})",
                           severity="warning", code="tick-past-end", event_id=eid, line=line, index=index,
                           path="$.tick", event_type=type_name)
            if not v1:
                self._problem(late)
                return None
            return late
        if tick != last:
            self._before_tick = after_back if restarts or tick < last else last
            self._tick_from = index
        self._order_tick = tick
        return None

    def _jumped(self, previous: Any) -> tuple[Any, str] | None:
        """The record that passed last (``previous``; None: the held one) with its type, when it alone set
        the tick records are checked against (the first record at it); None otherwise."""
        held = previous if previous is not None else self._held
        if held is None:
            return None
        raw = held.record if type(held) is _Held else held
        if raw[0] != self._tick_from:
            return None
        return raw, held.type_name if type(held) is _Held else raw[2]["type"]

    def _in_order(self, eid: int, line: int | None, index: int, type_name: str) -> bool:
        """Check ``eid`` against the last good id; True when in order.  One record whose id jumped
        ahead (the held one, when this id fits between the two ids before it) is the record out of
        place: reported and dropped, and this one is in order."""
        last = self._last_id
        if last is None or eid > last:
            return True
        held = self._held
        before = self._before_last
        name = self.source.name
        if held is not None and eid < last and (before is None or eid > before):
            raw = held.record if type(held) is _Held else held
            h_index, h_line = raw[0], raw[1]
            held_type = held.type_name if type(held) is _Held else raw[2]["type"]
            around = f"{before} and {eid}" if before is not None else f"the start and {eid}"
            self._problem(Problem(name, f"event ids must increase strictly: {last} is out of place between "
                                        f"{around}", code="order", event_id=last, line=h_line, index=h_index,
                                  path="$.id", event_type=held_type))
            self._held = None
            self._last_id = before
            self._before_last = None
            self._order_tick = self._before_tick = -1  # the tick before the dropped record's is not kept
            self._after_reset = False
            if type(held) is _Held:
                self.stats.invalid += 1
            else:
                self._hot_dropped.append(held)
            return True
        self._problem(Problem(name, f"event ids must increase strictly: {eid} comes after {last}",
                              code="order", event_id=eid, line=line, index=index, path="$.id", event_type=type_name))
        return False

    def _release(self, held: Any) -> Iterator[dict[str, Any]]:
        """A record confirmed in order: counted valid, then its events to the season (v1) or out."""
        stats = self.stats
        if self._season is not None and (type(held) is not _Held or held.version != 1):
            yield from self._season_end()  # a record of a later version ends the v1 seasons before it: log order
        if type(held) is not _Held:  # a hot-path record (counted by the hot path)
            event = held[2]
            if self.errata_events and event["id"] in self.errata_events:
                stats.excluded_by_errata.append(event["id"])
            else:
                stats.yielded += 1
                yield event
            return
        produced = held.produced
        stats.valid += 1
        if held.version != 3:
            stats.upcast += 1
            stats.synthesized += len(produced) - 1
        for event in produced:
            if event.get("private"):
                stats.private_events += 1
        self._last_tick = _tick(held)
        if held.version == 1:
            self._season_event(held.type_name, held.record[2], produced, held.late)
            return
        for event in produced:
            yield from self._out(event)

    def _out(self, event: dict[str, Any]) -> Iterator[dict[str, Any]]:
        actor = event.get("agentId")
        if type(actor) is str:  # unchecked (validation off), it could be anything
            self._actors.add(actor)
        errata = self.errata_events
        event_id = event.get("id")
        if errata and event_id in errata:
            if event.get("upcast") is None:
                self.stats.excluded_by_errata.append(event_id)
            return
        self.stats.yielded += 1
        yield event

    def _unchecked(self, data: dict[str, Any], record: Any) -> Iterator[dict[str, Any]]:
        """A v3 record read without validation (``validate=False``): counted and passed on.  So is a record
        whose ``schemaVersion`` is none this tool reads (``"3"``, ``0``, ``null``: :func:`_read_version`), as
        written: no upcast starts from it, so it is not shown as upcast from version 1."""
        stats = self.stats
        held = self._held
        if held is not None:  # what came before it goes out first
            self._held = None
            yield from self._release(held)
        if self._season is not None:  # ... and the v1 seasons spooled before it (log order)
            yield from self._season_end()
        type_name = data.get("type")
        stats.by_type[usable_type(type_name)] += 1
        version = data.get("schemaVersion")
        stats.by_version[_tallied_version(version)] += 1
        stats.valid += 1
        if data.get("private"):
            stats.private_events += 1
        eid = _int_id(data.get("id"))
        if eid is not None:
            self._last_id = eid
        yield from self._out(data)

    # ------------------------------------------------------------------ v1 seasons

    def _season_event(self, type_name: str, stored: dict[str, Any], produced: list[dict[str, Any]],
                      late: Problem | None = None) -> None:
        """Contract §2: a v1 log may hold several seasons and only the match's belongs to the match.

        The reading (assumed where the contract is silent):

        * a ``world_reset`` ends the season it is logged in (it carries that season's last tick)
          and belongs to it; the next event starts a new season;
        * a ``season_started`` whose tick goes back (not right after a reset) starts a new season;
        * the match's season is the **last season played** -- the last one holding an event other
          than the two markers.  So a log that ends with a ``world_reset`` (or with a reset and a
          ``season_started`` and nothing else) is the season that reset closed, not an empty one.

        Every other season's events are counted as ``droppedEarlierSeason``.  Seasons are spooled
        (memory bounded whatever their size) and released when the log ends, or when a record of a later
        version comes (a v3 log holding a record without ``schemaVersion``, read as v1): the events keep
        the log's order."""
        tick = stored.get("tick")
        season = self._season
        starts = season is not None and (
            season.closed
            or (
                type_name == "season_started"
                and isinstance(tick, int)
                and tick < self._v1_last_tick
                and self._v1_last_type != "world_reset"
            )
        )
        if season is None or starts:
            if season is not None:
                self.stats.seasons_seen += 1
                if season.played:
                    self._drop(self._kept_season)
                    self._kept_season = season
                else:
                    self._drop(season)
            season = self._season = _Season()
        self._v1_last_type = type_name
        if isinstance(tick, int):
            self._v1_last_tick = tick
        for event in produced:
            season.spool.append(event)
        if late is not None:
            if len(season.late) < self.max_per_kind:
                season.late.append(late)
            else:
                season.late_more += 1
        if type_name == "world_reset":
            season.closed = True
        elif type_name not in SEASON_MARKERS and not season.played:
            season.played = True
            self._drop(self._kept_season)
            self._kept_season = None

    def _drop(self, season: _Season | None) -> None:
        if season is not None:
            self.stats.dropped_earlier_season += season.spool.events
            season.spool.close()

    def _season_end(self) -> Iterator[dict[str, Any]]:
        """The log ended, or a record of a later version came (a log mixing versions keeps its order): release the
        match's season (see :meth:`_season_event`)."""
        season, kept = self._season, self._kept_season
        self._season = self._kept_season = None
        if season is None:
            return
        if kept is not None and not season.played:
            self._drop(season)
            season = kept
        for problem in season.late:  # the match's season: its ticks past the end are said
            self._problem(problem)
        if season.late_more:
            stats = self.stats
            stats.warnings += season.late_more
            stats.problem_counts["tick-past-end"] += season.late_more
            stats.problems_not_kept += season.late_more
        for event in season.spool:
            yield from self._out(event)

    # ------------------------------------------------------------------ checks

    def _numbers(self, numbers: list[IntegralFloat], eid: int | None, line: int | None, index: int,
                 type_name: str) -> bool:
        """Say each number written as a float where an integer goes; True when one cannot be read
        exactly (past 2**53, or written with a fraction other than zero: :func:`~.validation.unread_said`).
        The schema's own complaint about such a number (its maximum) is not said again (:attr:`_said_paths`)."""
        bad = False
        self._said_paths = frozenset(n.path for n in numbers if not n.exact)
        for number in numbers:
            if number.exact:
                self._problem(Problem(self.source.name, f"{number.quoted()} is written as a fraction where an "
                                      f"integer goes; read as {int(number.value)}", severity="warning",
                                      code="integral-float", event_id=eid, line=line, index=index,
                                      path=number.path, event_type=type_name))
            else:
                bad = True
                self._problem(Problem(self.source.name, unread_said(number), code=unread_code(number), event_id=eid,
                                      line=line, index=index, path=number.path, event_type=type_name))
        return bad

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
        if version not in (1, 2, 3) or isinstance(version, bool):
            self._problem(
                Problem(
                    name,
                    f"unknown schemaVersion {shown(version, 20, json_literals=True)} (this tool reads 1, 2 and 3)",
                    event_id=eid,
                    line=line,
                    index=index,
                    path="$.schemaVersion",
                    event_type=type_name,
                )
            )
            return True
        marks = [mark for mark in UPCAST_MARKS if mark in data]
        for mark in marks:
            self._problem(Problem(name, f"{mark} is set only by this tool's upcast of an older record; a stored "
                                        f"record may not carry it ({_FORGED[mark]})", code="upcast-mark",
                                  event_id=eid, line=line, index=index, path=f"$.{mark}", event_type=type_name))
        if marks:
            return True
        if type_name not in checker.types:
            return self._check_unknown_type(checker, data, version, type_name, eid, line, index)
        if version == 3:
            whole = checker.whole(type_name)
            if whole.is_valid(data):
                return False
            self._report(whole, data, eid, line, index, type_name)
            return True
        return self._check_upcast(checker, data, version, type_name, eid, line, index)

    def _check_unknown_type(self, checker: EventChecker, data: dict[str, Any], version: Any, type_name: str,
                            eid: int | None, line: int | None, index: int) -> bool:
        """A record of a type this tool does not know: its envelope checked; kept and counted, said (an error
        when reading strictly, which refuses it)."""
        envelope = checker.envelope(version)
        if not envelope.is_valid(data):
            self._report(envelope, data, eid, line, index, type_name)
            return True
        self.stats.unknown_types[type_name] += 1
        self._problem(
            Problem(
                self.source.name,
                f"unknown event type {shown(type_name)}: kept and counted, not analysed",
                severity="error" if self.strict else "warning",
                code="unknown-type",
                event_id=eid,
                line=line,
                index=index,
                path="$.type",
                event_type=type_name,
            )
        )
        return self.strict

    def _check_upcast(self, checker: EventChecker, data: dict[str, Any], version: Any, type_name: str,
                      eid: int | None, line: int | None, index: int) -> bool:
        """A v1 or v2 record: its envelope, then what the upcast makes of it, each event checked against its
        v3 type's schema (a v1 record's stored ``private`` the upcast would overwrite is refused); the upcast
        kept for the cold path to hand on."""
        name = self.source.name
        envelope = checker.envelope(version)
        if not envelope.is_valid(data):
            self._report(envelope, data, eid, line, index, type_name)
            return True
        produced = upcast(data, self.match_id)
        if version == 1 and "private" in data and data["private"] is not produced[0].get("private"):
            # the upcast derives `private` (a v1 record has none): a stored one it would overwrite is said
            derived = "private" if produced[0].get("private") else "public"
            self._problem(Problem(name, f"private is {json_text(data['private'])}, but this v1 "
                                        f"{shown(type_name)} is {derived} (a v1 record carries no private: a "
                                        "direct message is a message with a `to`)", event_id=eid, line=line,
                                  index=index, path="$.private", event_type=type_name))
            return True
        for upcast_event in produced:
            partial = checker.partial(upcast_event["type"])
            if not partial.is_valid(upcast_event):
                self._report(partial, upcast_event, eid, line, index, type_name, _upcast_added(data, upcast_event))
                return True
        self._upcast_cache = (data, produced)
        return False

    def _report(
        self, checker: Any, data: Any, eid: int | None, line: int | None, index: int, type_name: str,
        added: frozenset[str] = frozenset(),
    ) -> None:
        """Say each schema error of ``data``; not one :attr:`_said_paths` already said, nor one about a
        payload member in ``added`` (a member the upcast derives, which the stored version never
        carries: :func:`_upcast_added`), unless it is the only one."""
        said = self._said_paths
        if self.stats.problem_counts["schema"] >= self.max_per_kind:
            # as many listed as asked: the rest are counted, one per member wrong, without the detail
            # engine's explanation (which costs 30 to 150 times the fast engine's verdict)
            for path, missing in checker.error_paths(data):
                required = f"{missing!r} is a required property" if missing is not None else ""
                if path in said or (added and _about_member(path, required, added)):
                    continue
                self._schema_paths.add(path)
                self._problem(Problem(self.source.name, "", event_id=eid, line=line, index=index, path=path,
                                      event_type=type_name))
            return
        errors = list(checker.errors(data))
        if added:
            kept = [(path, message) for path, message in errors if not _about_member(path, message, added)]
            errors = kept or errors
        for path, message in errors:
            if path in said:
                continue
            self._schema_paths.add(path)
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

    def _check_hash(self, data: dict[str, Any], type_name: str, eid: int | None, line: int | None,
                    index: int) -> bool:
        """A stored ``sha256`` that is not the SHA-256 of the text's UTF-8 bytes (:data:`HASHED_TEXT_TYPES`):
        True, and said.  A v1 or v2 message without one is hashed by the upcast, so only a stored hash
        is checked; the schema has made both strings where both are present.

        A text whose lone surrogate escapes were read as U+FFFD (:meth:`_say_lone_surrogates`) has no
        UTF-8 bytes of its own, and how the server hashed it is unknown: its hash is accepted when it is
        that of the text as read (what a JavaScript server's UTF-8 encoder hashes: each lone surrogate
        as U+FFFD) or that of the text's code points as written, each lone surrogate encoded as it
        stands (Python's ``surrogatepass``).  Either binds the text the analyses read."""
        payload = data.get("payload")
        if not isinstance(payload, dict):
            return False
        text, stored = payload.get("text"), payload.get("sha256")
        if not isinstance(text, str) or not isinstance(stored, str):
            return False
        actual = sha256(text.encode("utf-8")).hexdigest()
        if actual == stored:
            return False
        original = self._lone.get(("payload", "text"))
        if original is not None and sha256(original.encode("utf-8", "surrogatepass")).hexdigest() == stored:
            return False
        self._problem(Problem(self.source.name, f"sha256 {shown(stored, 70)} is not the SHA-256 of the text's UTF-8 "
                                                f"bytes ({actual}): the text or its hash was changed after the "
                                                "event was logged", code="sha256", event_id=eid, line=line,
                              index=index, path="$.payload.sha256", event_type=type_name))
        return True

    def _check_regions(
        self,
        data: dict[str, Any],
        type_name: str,
        eid: int | None,
        line: int | None,
        index: int,
        width: int,
        height: int,
        named: Collection[str] = (),
    ) -> bool:
        """Say each region field not on the map (but one at a path in ``named``, already said)."""
        payload = data.get("payload")
        if not isinstance(payload, dict):
            return False
        bad = False
        for key in REGION_FIELDS[type_name]:
            region = payload.get(key)
            if region is None or f"$.payload.{key}" in named:
                continue
            match = REGION.match(region) if isinstance(region, str) else None
            if match is None or int(match.group(1)) >= width or int(match.group(2)) >= height:
                self._problem(
                    Problem(
                        self.source.name,
                        f"region {shown(region, 40)} is not on the {width}×{height} map",
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


def truncation_evidence(
    archive: dict[str, Any],
    counts: Counter[str],
    untyped: int,
    private_present: bool,
    last_tick: int | None,
    records: int,
    known: Collection[str] = (),
) -> tuple[str, ...]:
    """Why the log must end before the match did: the evidence, each a sentence (empty: none).

    A short log is not a truncated one: a match may end early, or quietly, with nobody acting in
    its last ticks.  Only what the archive itself states can show that events are missing:

    * **counts**: the archive's ``metrics`` count more events of a type (summed over agents) than
      the log holds, beyond the records without a usable type (unreadable lines, a type missing,
      null, not a string or empty: :func:`usable_type`), which could be any type.  Only the event types in ``known`` (the schemas' types) are compared: a metrics key
      that is no event type (a server's own counter) says nothing about the log's length.  Types
      a public export leaves out are not compared when the log holds no private event;
    * **deaths**: the archive says an agent died at a tick after the log's last event;
    * **presence**: the archive lists agents that lived (``roundsAlive`` > 0), and the log
      registers or spawns fewer agents than that (every agent enters the world by an
      ``agent_registered`` or ``agent_spawned`` event).

    ``counts`` are the log's records by their v3 type (an upcast record by what it became),
    every record counted, valid or not, held or dropped: a record in the log is not missing.
    ``last_tick`` is the tick of the last record that passed, ``records`` how many were read."""
    evidence: list[str] = []
    metrics = archive.get("metrics")
    if isinstance(metrics, dict):
        stamped: Counter[str] = Counter()
        for per_agent in metrics.values():
            if isinstance(per_agent, dict):
                for kind, count in per_agent.items():
                    if isinstance(kind, str) and isinstance(count, int) and not isinstance(count, bool) and count > 0:
                        stamped[kind] += count
        short = []
        for kind in sorted(stamped):
            if kind not in known or (kind in PUBLIC_EXPORT_OMITS and not private_present):
                continue
            missing = stamped[kind] - counts.get(kind, 0)
            if missing > 0:
                short.append((kind, stamped[kind], counts.get(kind, 0), missing))
        if sum(m for *_, m in short) > untyped:
            listed = ", ".join(f"{kind} {held:,} of {said:,}" for kind, said, held, _ in short[:8])
            more = f" and {len(short) - 8} more types" if len(short) > 8 else ""
            evidence.append(f"the archive's metrics count more events than the log holds ({listed}{more})")
    agents = [a for a in archive.get("agents") or [] if isinstance(a, dict)]
    died = sorted(
        ((a["diedAtTick"], shown(a.get("agentId"))) for a in agents
         if isinstance(a.get("diedAtTick"), int) and not isinstance(a.get("diedAtTick"), bool)),
        reverse=True,
    )
    if died and (last_tick is None or died[0][0] > last_tick):
        ends = f"ends at tick {last_tick}" if last_tick is not None else "holds no event"
        evidence.append(f"the archive says {died[0][1]} died at tick {died[0][0]}, but the log {ends}")
    lived = sum(1 for a in agents
                if isinstance(a.get("roundsAlive"), int) and not isinstance(a.get("roundsAlive"), bool)
                and a["roundsAlive"] > 0)
    entered = counts.get("agent_registered", 0) + counts.get("agent_spawned", 0)
    if lived and entered < lived and entered + untyped < lived:
        evidence.append(f"the archive lists {lived} agents that lived, but the log registers or spawns "
                        f"{'none' if not entered else entered}" + ("" if records else " (it holds no events)"))
    return tuple(evidence)


def erratum_name(erratum: dict[str, Any]) -> str:
    """An erratum's id as text: itself when it is a short string, else bounded (``shown``)."""
    value = erratum.get("id")
    if isinstance(value, str) and len(value) <= 60:
        return value
    return shown(value) if value is not None else "None"


UNTYPED = "?"
"""The type a record is counted under when it has no usable one (:func:`usable_type`)."""


def usable_type(value: Any) -> str:
    """The record's type when it is one the envelope accepts (a string of at least one character);
    :data:`UNTYPED` otherwise.  A record without a usable type -- none, null, a number, an empty
    string -- could have been any type: the truncation check counts it as such
    (:func:`truncation_evidence`), and the counts show it under ``?``.

    >>> usable_type("gather"), usable_type(""), usable_type(None), usable_type(5)
    ('gather', '?', '?', '?')
    """
    return value if isinstance(value, str) and value else UNTYPED


def as_written(numbers: list[IntegralFloat], text: bytes | bytearray | None,
               written: dict[tuple[Any, ...], str] | None = None) -> list[IntegralFloat]:
    """``numbers`` with each one the value read does not show as the file writes it given as written in
    ``text`` (:attr:`~.validation.IntegralFloat.written`): a number the double it was read as is not
    (``9007199254740993.0`` is read as 2**53), or an integer written without fraction or exponent
    but read as a double (one beyond 64 bits: ``18446744073709551616`` would show as
    ``1.8446744073709552e+19``).  A number the double is not is not exact, whatever the double:
    ``9007199254740993.0`` is past 2**53, so it cannot be read exactly (an error, not "read as
    9007199254740992").  Nor is 2**53 whose text is not found (the text read again no longer writes it
    there): the rule of the archive's numbers too (:func:`~.validation.read_exactly`).  Nor, at any
    magnitude, is a number whose text writes a fraction other than zero (``4503599627370496.5``, read as
    2**52): it is no integer (:func:`~.validation.written_fraction`).  ``written``: the literals already
    found (by path), when there is no text.

    >>> [n] = as_written([IntegralFloat("$.id", 2.0**53, True, ("id",))], b'{"id": 9007199254740993.0}')
    >>> n.exact, n.quoted()
    (False, '9007199254740993.0 (as written in the file; read as 9007199254740992.0)')
    >>> [n] = as_written([IntegralFloat("$.n", 2.0**52, True, ("n",))], b'{"n": 4503599627370496.5}')
    >>> n.exact, n.written
    (False, '4503599627370496.5')
    """
    if text is not None:
        written = written_numbers(text, [number.where for number in numbers])
    written = written or {}
    out = []
    for number in numbers:
        literal = written.get(number.where)
        if literal is not None and _differs(literal, number.value):  # a fraction other than zero differs too
            number = replace(number, written=literal, exact=False)
        elif literal is not None and literal.lstrip("-").isdigit():
            number = replace(number, written=literal)
        elif literal is None and number.exact and abs(number.value) >= EXACT_INTEGER:
            number = replace(number, exact=False)  # 2**53, its text not found: it may be 9007199254740993.0
        out.append(number)
    return out


def _differs(literal: str, value: float) -> bool:
    """The number ``literal`` writes is not ``value`` (a double could not hold it)."""
    try:
        return Decimal(literal) != Decimal(value)
    except (InvalidOperation, ValueError, OverflowError):
        return False


def _upcast_added(stored: dict[str, Any], produced: dict[str, Any]) -> frozenset[str]:
    """The payload members an upcast derives that the stored (v1 or v2) record does not carry: a
    message's ``sha256``, which the upcast computes from its text.  An error about one (missing,
    because the text it is computed from is missing or not a string) would ask for a field the
    stored version never has; the text's own error says what is wrong.

    >>> _upcast_added({"type": "message", "payload": {}}, {"type": "message", "payload": {}})
    frozenset({'sha256'})
    >>> _upcast_added({"type": "message", "payload": {"sha256": "x"}}, {"type": "message", "payload": {}})
    frozenset()
    """
    payload = stored.get("payload")
    if produced.get("type") in HASHED_TEXT_TYPES and isinstance(payload, dict) and "sha256" not in payload:
        return frozenset({"sha256"})
    return frozenset()


def _about_member(path: str, message: str, members: frozenset[str]) -> bool:
    """A schema error about one of the payload's ``members``: at its path, or the payload's
    "'name' is a required property".

    >>> _about_member("$.payload", "'sha256' is a required property", frozenset({"sha256"}))
    True
    >>> _about_member("$.payload", "'text' is a required property", frozenset({"sha256"}))
    False
    """
    if path == "$.payload":
        return any(message == f"{member!r} is a required property" for member in members)
    return any(path == f"$.payload.{member}" or path.startswith(f"$.payload.{member}.") for member in members)


def _dimension(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 12


def _refused(_data: Any) -> bool:
    """The hot path's verdict on a record it has no validator for: the cold path's."""
    return False


def _or_minus_one(event_id: int | None) -> int:
    return -1 if event_id is None else event_id


def _or_none(event_id: int) -> int | None:
    return None if event_id < 0 else event_id


NOT_IN_V1 = frozenset({"match_manifest", "action_rejected", "agent_snapshot", "inference_usage", "turn_forfeited",
                       "message_private"})
"""Event types a version 1 log never holds (engine 0.1.0 logged none; its direct message is a ``message``
with a ``to``)."""


def missing_version(data: dict[str, Any], type_name: str) -> str | None:
    """Why a record without ``schemaVersion`` cannot be read as version 1, the version a record without one
    is: its type is one version 1 never has (:data:`NOT_IN_V1`).  None when it has one, or may be a version
    1 record (a record of a type version 1 has is read as version 1, in any log: a whole version 1 log
    leaves it out everywhere).

    >>> missing_version({"type": "agent_snapshot"}, "agent_snapshot")
    'schemaVersion is missing: a record without one is read as version 1, and version 1 has no agent_snapshot events'
    >>> missing_version({"type": "gather"}, "gather") is None
    True
    >>> missing_version({"type": "agent_snapshot", "schemaVersion": 3}, "agent_snapshot") is None
    True
    """
    if "schemaVersion" in data or type_name not in NOT_IN_V1:
        return None
    return (f"schemaVersion is missing: a record without one is read as version 1, and version 1 has no "
            f"{type_name} events")


def _read_version(data: dict[str, Any]) -> bool:
    """Whether a record's ``schemaVersion`` is one this tool reads (1, 2 or 3, or absent: version 1), as the
    schema check asks (an unknown one is invalid, named as written)."""
    version = data.get("schemaVersion", 1)
    return version in (1, 2, 3) and not isinstance(version, bool)


def _tallied_version(version: Any) -> int | str:
    """A record's ``schemaVersion`` as :attr:`ReadStats.by_version` counts it: an integer as itself, anything
    else (``"3"``, ``2.5``, ``null``, ``true``) as ``"?"``, so a written ``0`` and a version that is no number
    are told apart."""
    return version if isinstance(version, int) and not isinstance(version, bool) else "?"


def _stored_version(version: Any) -> int:
    return version if version in (1, 2) and not isinstance(version, bool) else 3


def _int_id(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _id_as_written(value: Any, text: bytes | None, written: str | None) -> str | None:
    """An ``id`` that is no integer within 64 bits, as written, for a problem to name: a string (cut past
    64 characters), a number as its text writes it (``written``, else found in ``text``, else as read);
    None for anything else (a boolean, an object).

    >>> _id_as_written(1.2345678901234568e+29, b'{"id": 123456789012345678901234567890}', None)
    '123456789012345678901234567890'
    >>> _id_as_written("e-4", None, None), _id_as_written(True, None, None)
    ('e-4', None)
    """
    if isinstance(value, str):
        return value if len(value) <= 64 else value[:63] + "…"
    if type(value) is float:
        if written is None and text is not None:
            written = written_numbers(text, [("id",)]).get(("id",))
        return written if written is not None else repr(value)
    return None


def _lone_sentence(original: str, key: bool) -> str:
    """What a string (``key``: one of an object's keys) with lone surrogate escapes read as U+FFFD is told."""
    escapes = lone_surrogates(original)
    listed = ", ".join(escapes[:3]) + (f" and {len(escapes) - 3} more" if len(escapes) > 3 else "")
    what = "a key of this object holds" if key else "this string holds"
    return (f"{what} a lone surrogate escape ({listed}), which is no character (half of a pair: a text cut "
            "inside an emoji); read as U+FFFD")


def _tick(held: Any) -> int | None:
    tick = held.produced[0].get("tick") if type(held) is _Held else held[2].get("tick")
    return tick if isinstance(tick, int) and not isinstance(tick, bool) else None


def as_parsed(source: MatchSource, withheld: Collection[int] = ()) -> Iterator[Any]:
    """Each of the source's records as parsed (its ``data``), in log order, but those whose id is in
    ``withheld`` (the ids errata name, :attr:`MatchRead.errata_events`): nothing checked or counted,
    so it costs the parse alone.

    It is what :meth:`MatchRead.events` yields over the same records, with those errata, whenever
    that read was :attr:`~MatchRead.verbatim`: the hot path hands on each record's data itself (no
    copy, no change), one event per record, in order, and withholds a record whose id an erratum
    names, as this does; if every record took it and none was found out of place, the events
    are these.  Without that rule it may hold anything (a record that is not an event, ``None``
    for a line that is not JSON).

    >>> from daishi_forensics.read.sources import RawRecord
    >>> records = [RawRecord(0, 2, {"id": 1}, None), RawRecord(1, 3, {"id": 2}, None)]
    >>> source = MatchSource("m", "stream", {"archive": {}}, lambda: iter(records))
    >>> list(as_parsed(source)), list(as_parsed(source, {1: "E1"}))
    ([{'id': 1}, {'id': 2}], [{'id': 2}])
    """
    parsed = map(itemgetter(2), source.records())
    if not withheld:
        return parsed
    return (data for data in parsed if type(data) is not dict or data.get("id") not in withheld)


def read_match(source: MatchSource, *, strict: bool = False, validate: bool = True,
               max_per_kind: int = 1_000) -> MatchRead:
    """Wrap a source in the read boundary, for an analysis.

    Raises
    ------
    InvalidInput
        An integer of the archive is read as a double past 2**53 where its schema sets no bound (its
        ``config.event_schema_version``, a seat's ``reputation``): it cannot be read exactly, as in an event;
        named by its field, quoted as written where its text was at hand.  (``validate`` lists it among the
        archive's problems: :func:`~.validation.header_problems`.)
    """
    for path, message in past_unbounded(source)[:1]:
        raise InvalidInput(message, file=source.name, field=path[2:])
    return MatchRead(source, strict=strict, validate=validate, max_per_kind=max_per_kind)
