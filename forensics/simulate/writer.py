"""Writing a simulated match: schema versions (contract section 2) and file forms (section 1).

The simulator produces v3 events; :func:`downgrade` turns one into the shape an
older engine logged (``None`` when that engine logged no such event), and
:func:`archive_for` does the same for the archive.  :func:`write_export` writes
any form from an event iterator without holding the events: streams and
folders line by line, a bundle by pieces.  Every byte is deterministic: keys
sorted (orjson), gzip with ``mtime=0`` and no file name in its header.
"""

from __future__ import annotations

import gzip
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any, cast

import orjson

from daishi_forensics.arithmetic import half_up
from daishi_forensics.errors import OutputError
from daishi_forensics.jsonio import dumps as pretty_dumps
from daishi_forensics.outputs import atomic_file, refuse_non_regular, write_file
from .engine import ENGINE_VERSIONS
from .world import V1_ITEM_VALUES, derive_int

__all__ = [
    "FORMS",
    "SCHEMA_VERSIONS",
    "downgrade",
    "archive_for",
    "config_for",
    "season_markers",
    "write_export",
    "output_path",
]

FORMS = ("bundle", "bundle-gz", "stream", "stream-gz", "folder", "folder-gz")
"""File forms: ``m_<id>.json(.gz)``, ``m_<id>.jsonl(.gz)``, ``m_<id>/`` (``events.jsonl`` or ``.jsonl.gz``)."""

SCHEMA_VERSIONS = (1, 2, 3)

_OPT = orjson.OPT_SORT_KEYS
_GZ_LEVEL = 1
_FIGHTS = frozenset({"attack", "raid", "theft"})
_MESSAGES = frozenset({"message", "message_private"})
_NOT_IN_V1 = frozenset({"match_manifest", "action_rejected", "agent_snapshot", "inference_usage", "turn_forfeited"})


def config_for(config: dict[str, Any], version: int) -> dict[str, Any]:
    """The match config as an engine of schema ``version`` recorded it.

    v2 (engine 0.3.1) has no scenario record; v1 (engine 0.1.0) has no ``item_values``
    either (ore then defaults to 8).
    """
    out = dict(config)
    out["engine_version"] = ENGINE_VERSIONS[version]
    out["event_schema_version"] = version
    if version < 3:
        out.pop("scenario", None)
    if version < 2:
        out.pop("item_values", None)
    return out


def archive_for(archive: dict[str, Any], version: int) -> dict[str, Any]:
    """The archive of a v3 simulation as written for schema ``version``.

    v1 and v2 archives carry no ``metrics``, ``ledger`` or ``exploration`` block; a v1
    archive has no model identity, and its wealth values ore at 8 (engine 0.1.0).
    """
    if version == 3:
        return archive
    out = {k: v for k, v in archive.items() if k not in ("metrics", "ledger", "exploration")}
    out["config"] = config_for(archive["config"], version)
    if version == 1:
        agents = []
        for a in archive["agents"]:
            b = {k: v for k, v in a.items() if k not in ("model", "operator")}
            b["wealth"] = half_up(sum(V1_ITEM_VALUES[k] * n for k, n in a["inventory"].items()), 2)
            agents.append(b)
        out["agents"] = agents
    return out


def downgrade(ev: dict[str, Any], version: int) -> dict[str, Any] | None:
    """Event ``ev`` (v3) as schema ``version`` logged it, or None when that version has no such event.

    v2: no ``latencyMs``; one ``trade_completed`` per trade (the acceptor's); no ``witnesses``;
    no message ``sha256``.  v1 on top: only ``id``, ``tick``, ``type``, ``agentId``, ``payload``; a
    direct message is a ``message`` with ``to``; no ``witnessed``; no manifest, rejections,
    snapshots, usage or forfeits; no model identity at registration.
    """
    if version == 3:
        return ev
    typ = ev["type"]
    payload = ev["payload"]
    if typ == "trade_completed" and ev["agentId"] != payload["to"]:
        return None
    if version == 1 and typ in _NOT_IN_V1:
        return None
    if typ in _FIGHTS:
        payload = dict(payload)
        payload.pop("witnesses", None)
        if version == 1:
            payload.pop("witnessed", None)
    elif typ in _MESSAGES:
        payload = dict(payload)
        del payload["sha256"]
        if version == 1 and typ == "message_private":
            typ = "message"
    elif typ == "match_manifest":
        payload = dict(payload)
        payload["engineVersion"] = ENGINE_VERSIONS[version]
        payload["eventSchemaVersion"] = version
        payload["config"] = config_for(payload["config"], version)
        payload.pop("scenario", None)
    elif typ == "agent_registered" and version == 1:
        payload = {k: v for k, v in payload.items() if k not in ("model", "operator")}
    if version == 1:
        return {"id": ev["id"], "tick": ev["tick"], "type": typ, "agentId": ev["agentId"], "payload": payload}
    out = {k: v for k, v in ev.items() if k != "latencyMs"}
    out["schemaVersion"] = 2
    out["payload"] = payload
    return out


def season_markers(previous: list[dict[str, Any]], first_id: int, season: int, last_tick: int) -> list[dict[str, Any]]:
    """An earlier season's v1 events renumbered to end below ``first_id``, then ``world_reset`` and
    ``season_started`` (contract section 2: only the last season of a v1 log is the match)."""
    room = first_id - 3
    if room < 1:
        raise ValueError("no room for an earlier season below the match's first event id")
    previous = previous[-room:]
    start = first_id - len(previous) - 2
    out = []
    for i, ev in enumerate(previous):
        out.append({**ev, "id": start + i})
    nid = start + len(previous)
    out.append({"id": nid, "tick": last_tick, "type": "world_reset", "agentId": None, "payload": {"season": season}})
    out.append({"id": nid + 1, "tick": 0, "type": "season_started", "agentId": None, "payload": {"season": season + 1}})
    return out


def previous_season_seed(scenario: str, seed: int) -> int:
    """Seed of the earlier season a v1 log may carry before the match."""
    return derive_int("previous-season", scenario, seed) % (1 << 31)


def output_path(out_dir: Path, match_id: str, form: str) -> Path:
    """Where form ``form`` of match ``match_id`` goes in ``out_dir``."""
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; known: {', '.join(FORMS)}")
    if form.startswith("folder"):
        return out_dir / match_id
    ext = ".json" if form.startswith("bundle") else ".jsonl"
    return out_dir / (match_id + ext + (".gz" if form.endswith("-gz") else ""))


def _open(stack: ExitStack, path: Path, gz: bool) -> IO[bytes]:
    """``path`` for writing, replaced whole when the stack closes without an error (gzip on top)."""
    raw = stack.enter_context(atomic_file(path, binary=True, regular_only=True))
    if not gz:
        return raw
    gz_file = gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=_GZ_LEVEL, mtime=0)
    return cast(IO[bytes], stack.enter_context(gz_file))


def _write_events(fh: IO[bytes], events: Iterable[dict[str, Any]], sep: bytes, trailing: bool) -> int:
    """Serialize ``events`` to ``fh`` separated by ``sep`` (and after the last when ``trailing``)."""
    dump = orjson.dumps
    batch: list[bytes] = []
    n = 0
    first = True
    for ev in events:
        batch.append(dump(ev, option=_OPT))
        if len(batch) >= 4096:
            fh.write((b"" if first else sep) + sep.join(batch))
            first = False
            n += len(batch)
            batch.clear()
    if batch:
        fh.write((b"" if first else sep) + sep.join(batch))
        first = False
        n += len(batch)
    if trailing and not first:
        fh.write(sep)
    return n


def _header(match_id: str, archive: dict[str, Any], report: dict[str, Any] | None) -> dict[str, Any]:
    head: dict[str, Any] = {"format": "daishi-match-export", "formatVersion": 1, "matchId": match_id,
                            "archive": archive}
    if report is not None:
        head["report"] = report
    return head


def write_export(out_dir: Path, match_id: str, form: str, events: Iterable[dict[str, Any]],
                 archive: Callable[[], dict[str, Any]], *, report: dict[str, Any] | None = None,
                 archive_known: bool = True) -> Path:
    """Write one match in ``form`` to ``out_dir`` and return the file (or folder) written.

    ``events`` are written as they come (already in the target schema version).  ``archive()``
    is called once; with ``archive_known`` False it is called only after the events are
    exhausted (a single-pass simulation): streams and bundles are then spooled to a temporary
    file next to the output and assembled after.  A file in the way that is not a regular file
    (a named pipe, a device) is refused before anything is written, never opened.
    """
    out_dir = Path(out_dir)
    path = output_path(out_dir, match_id, form)
    gz = form.endswith("-gz")
    if form.startswith("folder"):
        for name in ("events.jsonl.gz" if gz else "events.jsonl", "archive.json", "report.json"):
            refuse_non_regular(path / name)
    else:
        refuse_non_regular(path)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        if form.startswith("folder"):
            path.mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder ({exc.strerror or exc})", file=str(out_dir)) from None
    if form.startswith("folder"):
        _write_folder(path, gz, events, archive, report)
    else:
        _write_file(out_dir, path, match_id, form.startswith("bundle"), gz, events, archive, report, archive_known)
    return path


def _write_folder(path: Path, gz: bool, events: Iterable[dict[str, Any]], archive: Callable[[], dict[str, Any]],
                  report: dict[str, Any] | None) -> None:
    """The folder form: the events file (the other compression's removed), ``archive.json``, and ``report.json``
    (removed when there is none)."""
    name = "events.jsonl.gz" if gz else "events.jsonl"
    other = path / ("events.jsonl" if gz else "events.jsonl.gz")
    if other.exists():
        other.unlink()
    with ExitStack() as stack:
        _write_events(_open(stack, path / name, gz), events, b"\n", True)
    write_file(path / "archive.json", pretty_dumps(archive()), regular_only=True)
    rep = path / "report.json"
    if report is not None:
        write_file(rep, pretty_dumps(report), regular_only=True)
    elif rep.exists():
        rep.unlink()


def _write_file(out_dir: Path, path: Path, match_id: str, bundle: bool, gz: bool, events: Iterable[dict[str, Any]],
                archive: Callable[[], dict[str, Any]], report: dict[str, Any] | None, archive_known: bool) -> None:
    """A stream (a header line, then an event a line) or a bundle (one document, the events spliced in after its
    archive); with the archive known only after the events, the events spooled beside the output first."""
    sep = b",\n" if bundle else b"\n"

    def prefix(arch: dict[str, Any]) -> bytes:
        head = orjson.dumps(_header(match_id, arch, report), option=_OPT)
        if not bundle:
            return head + b"\n"
        # {"archive":…,"events":[ … ],"format":…}: keys sorted, events spliced in after "archive".
        cut = head.index(b',"format":')
        return head[:cut] + b',"events":[\n'

    def suffix(arch: dict[str, Any]) -> bytes:
        if not bundle:
            return b""
        head = orjson.dumps(_header(match_id, arch, report), option=_OPT)
        return b"\n]" + head[head.index(b',"format":'):] + b"\n"

    if archive_known:
        arch = archive()
        with ExitStack() as stack:
            fh = _open(stack, path, gz)
            fh.write(prefix(arch))
            _write_events(fh, events, sep, not bundle)
            fh.write(suffix(arch))
        return
    spool = out_dir / f".{match_id}.{os.getpid()}.spool"
    try:
        try:
            with open(spool, "wb") as fh_spool:
                _write_events(fh_spool, events, sep, not bundle)
        except OSError as exc:
            raise OutputError(f"cannot write it ({exc.strerror or exc})", file=str(spool)) from None
        arch = archive()
        with ExitStack() as stack:
            fh = _open(stack, path, gz)
            fh.write(prefix(arch))
            with open(spool, "rb") as src:
                shutil.copyfileobj(src, fh, 1 << 20)
            fh.write(suffix(arch))
    finally:
        if spool.exists():
            spool.unlink()


def iter_downgraded(events: Iterable[dict[str, Any]], version: int) -> Iterator[dict[str, Any]]:
    """``events`` (v3) as schema ``version`` logged them."""
    if version == 3:
        yield from events
        return
    for ev in events:
        out = downgrade(ev, version)
        if out is not None:
            yield out
