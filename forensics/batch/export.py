"""Parquet export: the events, seats and pairs of matches, for DuckDB, pandas, Spark.

:func:`export_parquet` reads each match once through the read boundary: the events
are streamed to Parquet in record batches of :data:`BATCH_ROWS` rows while the same
pass feeds the behavior analysis, whose report gives the seats and pairs.  Nothing
holds all events of a match as Python dicts.  Three tables, hive-partitioned by
match (the ``match_id`` column comes from the folder name, not from the file)::

    DIR/events/match_id=m_…/part-0.parquet   one row per event (v3 shape, upcast)
    DIR/seats/match_id=m_…/part-0.parquet    one row per seat of the behavior report
    DIR/pairs/match_id=m_…/part-0.parquet    one row per pair: trade ledger + contact

Read them without this tool::

    duckdb:  SELECT type, count(*) FROM read_parquet('DIR/events/*/*.parquet', hive_partitioning=true) GROUP BY 1
    pandas:  pandas.read_parquet("DIR/events")          (pyarrow engine; match_id is a column)
    pyarrow: pyarrow.dataset.dataset("DIR/events", partitioning="hive").to_table()

**Events.**  The envelope (``id``, ``schemaVersion``, ``tick``, ``type``, ``agentId``,
``createdAtMs``, ``latencyMs``, ``private``, ``upcast``, ``upcastPath``), the payload
fields a query needs as their own columns (see :data:`EVENT_SCHEMA`; ``to``/``from``
are split by meaning into ``moveFrom``/``moveTo`` (regions), ``tradeFrom``/``tradeTo``
(agents) and ``messageTo``; item maps ``give``/``receive``/``stolen`` are JSON text)
and the whole payload as JSON text (``payload``).  An integer beyond 64 bits (a stream's
payload field as hostile or careless data may carry) is null in its typed column and kept
with every digit in ``payload``, as the log writes it (never rounded to a double).  A field of an unexpected type
(an unknown event type's payload) is null in its column and kept in ``payload``.
Events an erratum names and invalid records are not events of the match (the read
boundary withholds them); the behavior report counts them.

**Privacy.**  Private events (``message_private``, a v1 direct message) are left out
unless ``include_private``.  Message ``text`` (in its column and in ``payload``) is
scrubbed of secrets unless ``scrub=False``; a scrubbed text's ``sha256`` (in its column and
in ``payload``) is the SHA-256 of the text as exported, never the log's hash of the text before
(a hash of a secret lets anyone holding a guess confirm it).  The pairs table keeps the report's
message *counts* per pair, private ones included (counts, not contents).

**Atomicity.**  Each file is written in ``DIR/.export-tmp/`` (:data:`TMP_FOLDER`: outside
every table's folder, so no glob over a table, ``DIR/events/**`` included, meets it) and renamed
into place when the match is complete; an export of a match already in ``DIR`` replaces its
three files.  The three renames are one replacement: before the first, a commit record
(``commit.<pid>.<hex>.json`` in :data:`TMP_FOLDER`, written whole) names the three files and where
they go, and it is removed after the last.  An export killed (or failing) between two renames
leaves the record and the files not yet renamed; the next export to ``DIR`` finishes those renames
before anything else, so the match's tables are never left a mix of two exports, and while a
record is there a reader knows the match's replacement is under way.  The temp files an export
killed half-way left are removed by the next export to ``DIR`` (those of a process still running
are left alone, and so are those whose lock an export holds, on another machine or in another
container sharing ``DIR``); no other file in ``DIR`` is touched.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import re
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: the process id alone tells a live export's temp files
    fcntl = None  # type: ignore[assignment]

import orjson
import pyarrow as pa
import pyarrow.parquet as pq

from daishi_forensics import exitcodes
from daishi_forensics.version import __version__
from daishi_forensics.report.passes import analyze
from daishi_forensics.errors import BadSetting, DuplicateMatch, ForensicsError, OutputError
from daishi_forensics.read.boundary import MatchRead
from daishi_forensics.report.assembly import behavior_report
from daishi_forensics.read.sources import Limits, MatchSource, open_match
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.injection.secrets import scrub as scrub_secrets

__all__ = [
    "EXPORT_VERSION",
    "BATCH_ROWS",
    "EVENT_SCHEMA",
    "SEAT_SCHEMA",
    "PAIR_SCHEMA",
    "MatchExport",
    "ExportResult",
    "export_parquet",
    "export_match",
    "clean_stale_tmp",
    "finish_replacements",
    "TMP_FOLDER",
]

EXPORT_VERSION = 1
"""Version of the tables' layout, stamped in every file's schema metadata."""

BATCH_ROWS = 50_000
"""Events per record batch (and Parquet row group)."""

_S, _I, _F, _B = pa.string(), pa.int64(), pa.float64(), pa.bool_()

EVENT_SCHEMA = pa.schema([
    ("id", _I), ("schemaVersion", pa.int32()), ("tick", _I), ("type", _S), ("agentId", _S),
    ("createdAtMs", _I), ("latencyMs", _I), ("private", _B), ("upcast", _S), ("upcastPath", pa.list_(pa.int32())),
    ("region", _S), ("moveFrom", _S), ("moveTo", _S), ("target", _S),
    ("resource", _S), ("gathered", _I), ("item", _S), ("quantity", _I),
    ("structure", _S), ("structureId", _S),
    ("tradeId", _S), ("tradeFrom", _S), ("tradeTo", _S), ("give", _S), ("receive", _S),
    ("stolen", _S), ("damage", _F), ("killed", _B), ("witnessed", _B), ("witnesses", pa.list_(_S)),
    ("cause", _S), ("killer", _S),
    ("channel", _S), ("messageTo", _S), ("text", _S), ("sha256", _S), ("probeId", _S),
    ("code", _S),
    ("payload", _S),
])
"""One row per event."""

SEAT_SCHEMA = pa.schema([
    ("agentId", _S), ("seat", _I), ("name", _S), ("role", _S), ("model", _S), ("operator", _S),
    ("status", _S), ("roundsAlive", _I), ("wealth", _F), ("reputation", _F), ("inArchive", _B),
    ("coverage", _F), ("regions", _I), ("creditedTrades", _F), ("completedTrades", _I),
    ("commonsShare", _F), ("circularReputation", _F), ("indexReputation", _F), ("indexWealth", _F),
    ("aggressionActs", _I), ("aggressionWitnessed", _I), ("aggressionUnseen", _I),
    ("aggressionWithPotentialWitness", _I), ("aggressionStealthRate", _F), ("aggressionRecomputed", _I),
    ("aggressionArchived", _F), ("aggressionBasis", _S),
    ("invalidActionRate", _F), ("rejected", _I),
    ("countersGathers", _I), ("countersCrafts", _I), ("countersBuilds", _I), ("countersRepairs", _I),
    ("countersMoves", _I), ("countersTrains", _I), ("countersAttacks", _I), ("countersRaids", _I),
    ("countersCompletedTrades", _I), ("countersWorldActions", _I), ("countersMessages", _I),
    ("countersDormancyEpisodes", _I), ("countersRecoveries", _I), ("countersForfeits", _I),
    ("record", _S),
])
"""One row per seat of the behavior report (nested objects flattened: ``aggression.acts``
is ``aggressionActs``); ``record`` is the whole seat as JSON text."""

PAIR_SCHEMA = pa.schema([
    ("a", _S), ("b", _S),
    ("trades", _I), ("gifts", _I), ("netShare", _F), ("valueAGave", _F), ("valueBGave", _F),
    ("points", _S), ("events", pa.list_(_I)),
    ("ticksTogether", _I), ("firstContactTick", _I), ("directAB", _I), ("directBA", _I),
    ("broadcastAB", _I), ("broadcastBA", _I), ("localAB", _I), ("localBA", _I), ("messages", _I),
    ("record", _S),
])
"""One row per pair ``a < b`` in the report's trade ledger or contact table (a pair in
only one of them has zeros in the other's columns, and no ``firstContactTick``);
``record`` is ``{"ledger": …, "contact": …}`` as JSON text."""


# --------------------------------------------------------------------------- values


def _str(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) and -(1 << 63) <= v < (1 << 63) else None


def _float(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _bool(v: Any) -> bool | None:
    return v if isinstance(v, bool) else None


def _json(v: Any) -> str | None:
    return None if v is None else orjson.dumps(v, option=orjson.OPT_SORT_KEYS).decode()


def _wide(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and not -(1 << 63) <= v < (1 << 64)


def _restore(read: Any, exact: Any) -> Any:
    """``read`` (a payload as the read boundary and the upcast left it: an integer beyond 64 bits a float)
    with each such float put back as the integer ``exact`` (the line read again) holds at the same place.
    Only a float equal to that integer's float is replaced: a field the upcast added (a v1 message's
    ``sha256``), renamed or changed, and the scrubbed ``text``, stay as read.

    >>> _restore({"n": 1.2345678901234568e+29, "sha256": "ab", "l": [2.0, 1.2345678901234568e+29]},
    ...          {"n": 123456789012345678901234567890, "l": [2, 123456789012345678901234567890]})
    {'n': 123456789012345678901234567890, 'sha256': 'ab', 'l': [2.0, 123456789012345678901234567890]}
    """
    if isinstance(read, dict) and isinstance(exact, dict):
        return {k: _restore(x, exact[k]) if k in exact else x for k, x in read.items()}
    if isinstance(read, list) and isinstance(exact, list) and len(read) == len(exact):
        return [_restore(x, y) for x, y in zip(read, exact, strict=True)]
    if isinstance(read, float) and _wide(exact) and read == float(exact):
        return exact
    return read


def _fragments(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _fragments(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_fragments(x) for x in v]
    return orjson.Fragment(str(v).encode()) if _wide(v) else v


def _json_exact(v: Any) -> str:
    """:func:`_json` of a value whose integers may be beyond 64 bits: written with every digit."""
    return orjson.dumps(_fragments(v), option=orjson.OPT_SORT_KEYS).decode()


_LONG_DIGITS = re.compile(rb"[:,\[][ \t]*-?[0-9]{19}")
"""A number with as many digits as the shortest integer beyond 64 bits may have (2**63 has 19)."""


def _noting_exact_ints(source: MatchSource, exact: dict[Any, dict[str, Any]]) -> MatchSource:
    """``source``, noting in ``exact`` the payload of each stream line holding an integer beyond 64 bits, read
    with every digit (the read boundary's parser reads it as a float: 2**70 would be exported as
    1.1805916207174113e+21).  Only lines with a long run of digits are read twice."""
    records = source.records

    def noting() -> Iterator[Any]:
        for record in records():
            text = record[4] if len(record) > 4 else None  # the line as read (a stream), a plain tuple or not
            if isinstance(text, (bytes, bytearray)) and _LONG_DIGITS.search(text) is not None:
                try:
                    data = json.loads(text)
                except (ValueError, RecursionError):
                    data = None
                if isinstance(data, dict) and isinstance(data.get("payload"), dict):
                    if any(_wide(x) for x in _leaves(data["payload"])):
                        exact[data.get("id")] = data["payload"]
            yield record

    return dataclasses.replace(source, _records=noting)


def _leaves(v: Any) -> Iterator[Any]:
    if isinstance(v, dict):
        for x in v.values():
            yield from _leaves(x)
    elif isinstance(v, list):
        for x in v:
            yield from _leaves(x)
    else:
        yield v


def _strs(v: Any) -> list[str] | None:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else None


def _ints(v: Any) -> list[int] | None:
    return [x for x in v if _int(x) is not None] if isinstance(v, list) else None


_CASTS: dict[pa.DataType, Callable[[Any], Any]] = {_S: _str, _I: _int, pa.int32(): _int, _F: _float, _B: _bool}


# --------------------------------------------------------------------------- rows

_SIMPLE_FIELDS = ("region", "target", "resource", "gathered", "item", "quantity", "structure", "structureId",
                  "tradeId", "damage", "killed", "witnessed", "cause", "killer", "channel", "text", "sha256", "code")


class _EventBatches:
    """Collects event rows column by column and hands out record batches."""

    def __init__(self, schema: pa.Schema, batch_rows: int, include_private: bool,
                 scrub: Callable[[str], str] | None) -> None:
        self.schema = schema
        self.batch_rows = batch_rows
        self.include_private = include_private
        self.scrub = scrub
        self.names = schema.names
        self.casts = {f.name: _CASTS[f.type] for f in schema if f.type in _CASTS}
        self.columns: dict[str, list[Any]] = {n: [] for n in self.names}
        self.rows = 0
        self.written = 0
        self.private_left_out = 0
        self.exact: dict[Any, dict[str, Any]] = {}
        """Payloads with an integer beyond 64 bits, read exactly (:func:`_noting_exact_ints`), by event id (the
        upcast may change an event's type: a v1 message with ``to`` is a ``message_private``)."""

    def add(self, event: Mapping[str, Any]) -> pa.RecordBatch | None:
        if event.get("private") and not self.include_private:
            self.private_left_out += 1
            return None
        payload = event.get("payload")
        payload = payload if isinstance(payload, dict) else {}
        kind = event.get("type")
        text = payload.get("text")
        if self.scrub is not None and isinstance(text, str) and text:
            scrubbed = self.scrub(text)
            if scrubbed != text:  # the hash the log carried would be a dictionary attack's check on the secret
                payload = {**payload, "text": scrubbed}
                if "sha256" in payload:
                    payload["sha256"] = hashlib.sha256(scrubbed.encode("utf-8", "surrogatepass")).hexdigest()
        c = self.columns
        casts = self.casts
        for name in ("id", "schemaVersion", "tick", "type", "agentId", "createdAtMs", "latencyMs", "private",
                     "upcast"):
            c[name].append(casts[name](event.get(name)))
        c["upcastPath"].append(_ints(event.get("upcastPath")))
        for name in _SIMPLE_FIELDS:
            c[name].append(casts[name](payload.get(name)))
        moving = kind == "move"
        trading = isinstance(kind, str) and kind.startswith("trade_")
        c["moveFrom"].append(_str(payload.get("from")) if moving else None)
        c["moveTo"].append(_str(payload.get("to")) if moving else None)
        c["tradeFrom"].append(_str(payload.get("from")) if trading else None)
        c["tradeTo"].append(_str(payload.get("to")) if trading else None)
        c["messageTo"].append(_str(payload.get("to")) if kind == "message_private" else None)
        for name in ("give", "receive", "stolen"):
            c[name].append(_json(payload.get(name)))
        c["witnesses"].append(_strs(payload.get("witnesses")))
        probe = payload.get("probe")
        c["probeId"].append(_str(probe.get("id")) if isinstance(probe, dict) else None)
        exact = self.exact.pop(event.get("id"), None) if self.exact else None
        if exact is not None:  # the payload as read and upcast (and scrubbed), its long integers exact
            c["payload"].append(_json_exact(_restore(payload, exact)))
        else:
            c["payload"].append(_json(payload))
        self.rows += 1
        if self.rows >= self.batch_rows:
            return self.flush()
        return None

    def flush(self) -> pa.RecordBatch | None:
        if not self.rows:
            return None
        batch = pa.RecordBatch.from_pydict(self.columns, schema=self.schema)
        self.written += self.rows
        self.columns = {n: [] for n in self.names}
        self.rows = 0
        return batch


def _flatten(record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in record.items():
        name = prefix + (key[:1].upper() + key[1:] if prefix else key)
        if isinstance(value, dict) and key in ("aggression", "counters"):
            out.update(_flatten(value, name))
        else:
            out[name] = value
    return out


def _table(rows: Iterable[Mapping[str, Any]], schema: pa.Schema) -> pa.Table:
    columns: dict[str, list[Any]] = {n: [] for n in schema.names}
    for row in rows:
        for f in schema:
            value = row.get(f.name)
            cast = _CASTS.get(f.type)
            if cast is not None:
                value = cast(value)
            elif f.type == pa.list_(_I):
                value = _ints(value)
            columns[f.name].append(value)
    return pa.Table.from_pydict(columns, schema=schema)


def seat_rows(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The seats table's rows from a behavior report (in the report's seat order)."""
    return [{**_flatten(seat), "record": _json(seat)} for seat in report.get("seats") or []]


def pair_rows(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The pairs table's rows from a behavior report, sorted by ``(a, b)``."""
    ledger = {(p["a"], p["b"]): p for p in (report.get("ledger") or {}).get("pairs") or []}
    contact = {(p["a"], p["b"]): p for p in (report.get("contact") or {}).get("pairs") or []}
    rows = []
    zeros = {"trades": 0, "gifts": 0, "netShare": 0.0, "valueAGave": 0.0, "valueBGave": 0.0,
             "ticksTogether": 0, "directAB": 0, "directBA": 0, "broadcastAB": 0, "broadcastBA": 0,
             "localAB": 0, "localBA": 0, "messages": 0}
    for key in sorted(set(ledger) | set(contact)):
        led, con = ledger.get(key), contact.get(key)
        row: dict[str, Any] = {**zeros, **(con or {}), **(led or {})}
        row["points"] = _json((led or {}).get("points", {}))
        row["events"] = (led or {}).get("events", [])
        row["record"] = _json({"ledger": led, "contact": con})
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- writing


def _metadata(table: str, include_private: bool, scrubbed: bool) -> dict[bytes, bytes]:
    return {
        b"daishi_forensics.batch.exportVersion": str(EXPORT_VERSION).encode(),
        b"daishi_forensics.table": table.encode(),
        b"daishi_forensics.toolVersion": __version__.encode(),
        b"daishi_forensics.privateIncluded": str(include_private).lower().encode(),
        b"daishi_forensics.textScrubbed": str(scrubbed).lower().encode(),
    }


TMP_FOLDER = ".export-tmp"
"""The folder under ``DIR`` where the tables are written before they are renamed into place: beside
``events/``, ``seats/`` and ``pairs/``, never inside them, so a glob over a table (DuckDB's
``DIR/events/**``) never meets a file half written, even one a killed export left behind."""


def _tmp_in(out_dir: Path) -> tuple[Path, int | None]:
    """A fresh temp file in ``out_dir``'s :data:`TMP_FOLDER` (named by this process's id), created
    here, and the descriptor that holds its lock (None where files cannot be locked): the file is
    there from the start, so another export emptying the folder never removes the folder under
    it, and the lock tells an export on another machine or in another container (whose process ids
    this one cannot see) that the file is in use.  The caller closes the descriptor."""
    folder = out_dir / TMP_FOLDER
    path = folder / f"part-0.parquet.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp"
    for attempt in range(5):
        folder.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # as open() would (umask applied)
        except FileNotFoundError:  # another export removed the folder, empty, between the two calls
            if attempt == 4:
                raise
            continue
        break
    if fcntl is None:
        os.close(fd)
        return path, None
    return path, _locking(fd)


def _locking(fd: int) -> int:
    """``fd``, its file's exclusive lock taken without waiting (on a file system without locks none is:
    the process id in the file's name alone tells whether its export still runs)."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pass
    return fd


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _locked(path: Path) -> bool:
    """Whether another export holds ``path``'s lock (it is at work, maybe on another machine)."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return True  # gone, or not ours to read: left alone
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:  # a file system without locks: the process id alone tells
        return False
    finally:
        os.close(fd)
    return False


_TMP_NAME = re.compile(r"^part-0\.parquet\.(\d+)\.[0-9a-f]{12}\.tmp$")
"""A temp file's name in :data:`TMP_FOLDER`."""
_OLD_TMP_NAME = re.compile(r"^\.part-0\.parquet\.(\d+)\.[0-9a-f]{12}\.tmp$")
"""A temp file's name in a partition (``match_id=...``), where earlier versions wrote them."""


_COMMIT_NAME = re.compile(r"^commit\.(\d+)\.[0-9a-f]{12}\.json$")
"""A commit record's name in :data:`TMP_FOLDER`."""
_TABLE_FILE = re.compile(r"^(events|seats|pairs)/match_id=[A-Za-z0-9_.-]+/part-0\.parquet$")
"""Where a commit record may send a file (relative to ``DIR``)."""

_UNDER_WAY: set[Path] = set()
"""The commit records of this process whose replacement is being done right now."""

_swap = os.replace
"""Renames a finished table into place (a name of its own so a test can fail it between tables)."""


def _write_commit(out_dir: Path, moves: list[tuple[str, str]]) -> tuple[Path, int | None]:
    """Write, whole, the commit record of one match's replacement (``moves``: each temp file's name in
    :data:`TMP_FOLDER` and where it goes, relative to ``DIR``), locked like a temp file; returns its path
    and the descriptor holding the lock (None where files cannot be locked)."""
    folder = out_dir / TMP_FOLDER
    path = folder / f"commit.{os.getpid()}.{uuid.uuid4().hex[:12]}.json"
    part = path.with_name(path.name + ".part")
    part.write_bytes(orjson.dumps({"replace": [list(m) for m in moves]}))
    fd = os.open(part, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(part, path)  # a record is there whole or not at all
    if fcntl is None:
        return path, None
    return path, _locking(os.open(path, os.O_RDONLY))


def finish_replacements(out_dir: Path) -> int:
    """Finish the replacements an export killed (or failing) between two renames left in ``out_dir``:
    each commit record of a process that is gone (or of this one, failed), whose lock no export holds,
    has the files it names
    that are still in :data:`TMP_FOLDER` renamed into place, then is removed.  A record that cannot be
    read, or names anything else than a temp file and a table file, moves nothing and is removed; a
    record's half-written ``.part`` (the export died before deciding) is removed.  Returns how many
    replacements were finished."""
    folder = Path(out_dir) / TMP_FOLDER
    if not folder.is_dir() or folder.is_symlink():
        return 0
    finished = 0
    for path in sorted(folder.iterdir()):
        name = path.name[:-len(".part")] if path.name.endswith(".part") else path.name
        m = _COMMIT_NAME.match(name)
        if m is None or not path.is_file() or path.is_symlink() or path in _UNDER_WAY or _locked(path):
            continue
        pid = int(m.group(1))
        if pid != os.getpid() and _alive(pid):  # this process's own: one that failed, no longer under way
            continue
        if path.name.endswith(".part"):
            path.unlink(missing_ok=True)
            continue
        try:
            moves = orjson.loads(path.read_bytes()).get("replace")
        except (orjson.JSONDecodeError, AttributeError):
            moves = None
        if isinstance(moves, list) and moves and all(
                isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m)
                and _TMP_NAME.fullmatch(m[0]) and _TABLE_FILE.fullmatch(m[1]) for m in moves):
            for tmp, final in moves:
                source = folder / tmp
                if source.is_file() and not source.is_symlink():
                    (Path(out_dir) / final).parent.mkdir(parents=True, exist_ok=True)
                    os.replace(source, Path(out_dir) / final)
            finished += 1
        path.unlink(missing_ok=True)
    return finished


def clean_stale_tmp(out_dir: Path) -> int:
    """Remove the temp files an export killed half-way left in ``out_dir`` (in :data:`TMP_FOLDER`,
    or hidden in a ``match_id=`` partition by earlier versions): those whose process is gone and
    whose lock no export holds.  A replacement such an export had decided is finished first
    (:func:`finish_replacements`): its files are renamed into place, not removed.  No other file
    is touched.  Returns how many were removed."""
    out_dir = Path(out_dir)
    if not out_dir.is_dir():
        return 0
    finish_replacements(out_dir)
    folders = [(out_dir / TMP_FOLDER, _TMP_NAME)] + [
        (p, _OLD_TMP_NAME) for t in ("events", "seats", "pairs") if (out_dir / t).is_dir()
        for p in sorted((out_dir / t).iterdir()) if p.name.startswith("match_id=") and p.is_dir()]
    removed = 0
    for folder, name in folders:
        if not folder.is_dir() or folder.is_symlink():
            continue
        for path in sorted(folder.iterdir()):
            m = name.match(path.name)
            if (m is not None and path.is_file() and not path.is_symlink() and not _alive(int(m.group(1)))
                    and not _locked(path)):
                path.unlink(missing_ok=True)
                removed += 1
    _drop_if_empty(out_dir / TMP_FOLDER)
    return removed


def _drop_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:  # not empty (another export at work), or gone
        pass


_SAFE = re.compile(r"^[A-Za-z0-9_.-]+$")


def _partition(match_id: str | None, target: str) -> str:
    if match_id and _SAFE.match(match_id) and not match_id.startswith("."):
        return match_id
    name = Path(target.rstrip("/\\")).name
    for suffix in (".jsonl.gz", ".json.gz", ".jsonl", ".json"):
        name = name.removesuffix(suffix)
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".") or "unknown"


class _TappedRead(MatchRead):
    """The read boundary, handing every event it yields to ``sink`` as well."""

    def __init__(self, source: MatchSource, sink: Callable[[dict[str, Any]], None]) -> None:
        super().__init__(source)
        self._sink = sink

    def events(self) -> Iterator[dict[str, Any]]:
        sink = self._sink
        for event in super().events():
            sink(event)
            yield event


@dataclass(frozen=True)
class MatchExport:
    """What was exported of one match."""

    target: str
    """The target as given."""
    match_id: str | None
    """The partition's ``match_id`` (``None`` when the target could not be read)."""
    events: int = 0
    """Rows in the events table."""
    seats: int = 0
    """Rows in the seats table."""
    pairs: int = 0
    """Rows in the pairs table."""
    private_left_out: int = 0
    """Private events not exported (without ``include_private``)."""
    invalid: int = 0
    """Invalid records in the input (not events of the match; counted in the report)."""
    truncated: tuple[str, ...] = ()
    """The evidence that the log is truncated (the archive says more happened than it holds), or ``()``."""
    invalid_header: int = 0
    """How many errors the header holds (the archive, the published scorecards, the format marker against their
    schemas: the report's ``invalid-header`` finding); the seats table reads the archive as it stands."""
    header_error: str | None = None
    """The header's first error, ``"path: message"`` (with :attr:`invalid_header`)."""
    error: str | None = None
    """The one-line error of a target that could not be read."""
    exit_code: int = exitcodes.OK
    """0, 1 (the input held invalid records or a header that fails its schemas, or its log is truncated), 2 (a match
    already exported by this run) or 3 (unreadable)."""
    notes: tuple[str, ...] = ()
    """What the read accepted (a byte-order mark read past, a file named for another match; no finding)."""


@dataclass(frozen=True)
class ExportResult:
    """Every match of one export."""

    out_dir: Path
    matches: list[MatchExport] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """2 if a target was refused as a match exported before, else 3 if any target was
        unreadable, else 1 if any held invalid records, a header that fails its schemas or a truncated log, else 0."""
        codes = {m.exit_code for m in self.matches}
        for code in (exitcodes.USAGE, exitcodes.UNREADABLE, exitcodes.FINDINGS):
            if code in codes:
                return code
        return exitcodes.OK


def export_match(
    target: str,
    out_dir: Path,
    *,
    include_private: bool = False,
    scrub: bool = True,
    batch_rows: int = BATCH_ROWS,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
    taken: Mapping[str, str] | None = None,
) -> MatchExport:
    """Export one match's events, seats and pairs to ``out_dir`` (see the module docs).

    ``taken`` maps the match ids already exported by this run to their targets: a target
    of one of them is refused before anything is written (it would replace that export).

    Raises
    ------
    DuplicateMatch
        The target's match id is in ``taken``.
    ForensicsError
        The target cannot be read (nothing of it is left in ``out_dir``).
    """
    out_dir = Path(out_dir)
    source = open_match(target, store=store, server=server, limits=limits)
    match_id = _partition(source.match_id, target)
    first = (taken or {}).get(match_id)
    if first is not None:
        raise DuplicateMatch(f"is match {match_id}, like {first} exported before it: refused, as its partition "
                             "would replace that one (give each match once, or export them to different folders)",
                             file=target)
    partition = f"match_id={match_id}"
    scrubbed = scrub
    batches = _EventBatches(EVENT_SCHEMA, batch_rows, include_private, _cached(scrub_secrets) if scrub else None)
    source = _noting_exact_ints(source, batches.exact)
    staged = _Staged(out_dir)
    try:
        schema = EVENT_SCHEMA.with_metadata(_metadata("events", include_private, scrubbed))
        analysis = _write_events(staged.tmp_for("events"), schema, source, batches)
        report = behavior_report(analysis, all_pairs=True)  # the pairs table holds every pair
        seats, pairs = seat_rows(report), pair_rows(report)
        for name, rows, table_schema in (("seats", seats, SEAT_SCHEMA), ("pairs", pairs, PAIR_SCHEMA)):
            table = _table(rows, table_schema.with_metadata(_metadata(name, include_private, scrubbed)))
            pq.write_table(table, staged.tmp_for(name), compression="zstd")
        staged.swap_in(partition)
    finally:
        staged.close()
    invalid = int(report["source"]["invalid"])
    truncated = tuple(analysis.read.stats.truncated or ())
    header = next((f for f in report["findings"] if f["kind"] == "invalid-header"), None)
    return MatchExport(
        target=target,
        match_id=partition.split("=", 1)[1],
        events=batches.written,
        seats=len(seats),
        pairs=len(pairs),
        private_left_out=batches.private_left_out,
        invalid=invalid,
        truncated=truncated,
        invalid_header=header["problemCount"] if header else 0,
        header_error=f"{header['problems'][0]['path']}: {header['problems'][0]['message']}" if header else None,
        exit_code=exitcodes.FINDINGS if invalid or truncated or header else exitcodes.OK,
        notes=tuple(source.notes),
    )


def _write_events(path: Path, schema: pa.Schema, source: MatchSource, batches: _EventBatches) -> MatchAnalysis:
    """The match analysed, every event it reads written to the events table at ``path`` as it goes (one read)."""
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        def sink(event: dict[str, Any]) -> None:
            batch = batches.add(event)
            if batch is not None:
                writer.write_batch(batch)

        analysis = analyze(_TappedRead(source, sink))
        last = batches.flush()
        if last is not None:
            writer.write_batch(last)
    return analysis


class _Staged:
    """One match's tables written beside ``out_dir`` (in :data:`TMP_FOLDER`, each temp file locked), then put
    in place together: a commit record names every rename before the first one, so that an export killed
    half-way is finished by the next (:func:`finish_replacements`); one that fails before deciding leaves
    nothing of it."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.tmps: dict[str, Path] = {}
        self.locks: list[int] = []
        self.commit: Path | None = None
        """The commit record, while the replacement it decided is under way."""

    def tmp_for(self, name: str) -> Path:
        """A new temp file for table ``name``, locked while this export runs."""
        self.tmps[name], lock = _tmp_in(self.out_dir)
        if lock is not None:
            self.locks.append(lock)
        return self.tmps[name]

    def swap_in(self, partition: str) -> None:
        """Decide the replacement (the commit record), then rename each table into its partition."""
        folders = {t: self.out_dir / t / partition for t in ("events", "seats", "pairs")}
        commit, lock = _write_commit(self.out_dir, [(tmp.name, f"{name}/{partition}/part-0.parquet")
                                                    for name, tmp in self.tmps.items()])
        self.commit = commit
        if lock is not None:
            self.locks.append(lock)
        _UNDER_WAY.add(commit)
        for name, tmp in self.tmps.items():  # decided: from here on the replacement is finished, now or later
            folders[name].mkdir(parents=True, exist_ok=True)
            _swap(tmp, folders[name] / "part-0.parquet")
        commit.unlink()
        _UNDER_WAY.discard(commit)
        self.commit = None

    def close(self) -> None:
        """Done or failed: a decided replacement left for the next export to finish, an undecided one's temp
        files removed, the locks released."""
        if self.commit is not None:
            _UNDER_WAY.discard(self.commit)  # failed: the next export to out_dir finishes it
        if self.commit is None:  # not decided, or done: nothing of it is left
            for tmp in self.tmps.values():
                tmp.unlink(missing_ok=True)
        for lock in self.locks:
            os.close(lock)
        _drop_if_empty(self.out_dir / TMP_FOLDER)


def _cached(scrub: Callable[[str], str]) -> Callable[[str], str]:
    """``scrub`` memoised: relayed and repeated messages are scrubbed once."""
    return functools.lru_cache(maxsize=1 << 14)(scrub)


def export_parquet(
    targets: Iterable[str],
    out_dir: Path,
    *,
    include_private: bool = False,
    scrub: bool = True,
    batch_rows: int = BATCH_ROWS,
    store: Path | None = None,
    server: str | None = None,
    on_match: Callable[[MatchExport], None] | None = None,
) -> ExportResult:
    """Export every target; a target that cannot be read, or that is a match already exported by
    this run (two targets of one match id), is recorded (with its error line) and the others go on."""
    result = ExportResult(Path(out_dir))
    try:
        clean_stale_tmp(Path(out_dir))
    except OSError as exc:
        raise OutputError(f"cannot clear the temp files of an earlier export ({exc.strerror or exc})",
                          file=str(out_dir)) from None
    taken: dict[str, str] = {}
    for target in targets:
        try:
            done = export_match(target, Path(out_dir), include_private=include_private, scrub=scrub,
                                batch_rows=batch_rows, store=store, server=server, taken=taken)
            if done.match_id is not None:
                taken[done.match_id] = target
        except BadSetting:
            raise  # the command line's fault, not this target's
        except OSError as exc:  # writing the tables (reading errors are ForensicsErrors)
            raise OutputError(f"cannot write the tables ({exc.strerror or exc})", file=str(out_dir)) from None
        except ForensicsError as exc:
            done = MatchExport(target, None, error=str(exc), exit_code=exc.exit_code)
        result.matches.append(done)
        if on_match is not None:
            on_match(done)
    return result
