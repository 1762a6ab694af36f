"""Build tiny matches by hand, and store them in any form and schema version.

Tests write the v3 events of a match once; :func:`write_match` stores them as a
bundle, stream or folder at v3, v2 or v1 (downcasting as the engines logged them,
contract §2), so a test can assert the same numbers from every form and version.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path
from typing import Any

import orjson

MATCH_ID = "m_0123456789ab"
V1_ONLY_ABSENT = {"action_rejected", "agent_snapshot", "inference_usage", "turn_forfeited", "match_manifest"}


def ev(event_id: int, tick: int, kind: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    """A v3 event (``private`` set for ``message_private``; ``sha256`` filled for messages)."""
    if kind in ("message", "message_private") and "sha256" not in payload:
        payload["sha256"] = hashlib.sha256(payload["text"].encode()).hexdigest()
    return {
        "id": event_id,
        "matchId": MATCH_ID,
        "schemaVersion": 3,
        "tick": tick,
        "type": kind,
        "agentId": agent,
        "createdAtMs": 1_790_000_000_000 + tick * 60_000 + event_id,
        "private": kind == "message_private",
        "payload": payload,
    }


def trade(first_id: int, tick: int, trade_id: str, giver: str, taker: str,
          give: dict[str, int], receive: dict[str, int]) -> list[dict[str, Any]]:
    """A v3 completed trade: two events, acceptor (``taker``) first (contract §3)."""
    payload = {"tradeId": trade_id, "from": giver, "to": taker, "give": give, "receive": receive}
    return [ev(first_id, tick, "trade_completed", taker, **payload),
            ev(first_id + 1, tick, "trade_completed", giver, **dict(payload))]


def archive(agents: list[str], *, ended: int = 100, started: int = 0, width: int = 12, height: int = 12,
            **extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "matchId": MATCH_ID,
        "startedAtTick": started,
        "endedAtTick": ended,
        "config": {"engine_version": "0.5.2", "event_schema_version": 3,
                   "map": {"width": width, "height": height}, "season_ticks": ended},
        "agents": [{"agentId": a, "seat": i + 1, "name": a, "role": "player"} for i, a in enumerate(agents)],
    }
    base.update(extra)
    return base


def to_v2(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    seen_trades: set[str] = set()
    for e in events:
        e = orjson.loads(orjson.dumps(e))
        e["schemaVersion"] = 2
        e.pop("latencyMs", None)
        p = e["payload"]
        if e["type"] == "trade_completed":
            if p["tradeId"] in seen_trades:
                continue
            seen_trades.add(p["tradeId"])
            e["agentId"] = p["to"]
        if e["type"] in ("attack", "raid", "theft"):
            p.pop("witnesses", None)
        if e["type"] in ("message", "message_private"):
            p.pop("sha256", None)
        out.append(e)
    return out


def to_v1(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for e in to_v2(events):
        if e["type"] in V1_ONLY_ABSENT:
            continue
        e = {k: e[k] for k in ("id", "tick", "type", "agentId", "payload")}
        if e["type"] == "message_private":
            e["type"] = "message"
        if e["type"] in ("attack", "raid", "theft"):
            e["payload"].pop("witnessed", None)
        out.append(e)
    return out


def write_match(directory: Path, events: list[dict[str, Any]], arch: dict[str, Any], *,
                form: str = "stream", version: int = 3, report: dict[str, Any] | None = None) -> Path:
    """Store a match; ``form`` is bundle, bundle-gz, stream, stream-gz or folder."""
    directory.mkdir(parents=True, exist_ok=True)
    stored = events if version == 3 else to_v2(events) if version == 2 else to_v1(events)
    header: dict[str, Any] = {"format": "daishi-match-export", "formatVersion": 1, "matchId": arch["matchId"],
                              "archive": arch}
    if report is not None:
        header["report"] = report
    match_id = arch["matchId"]
    if form in ("bundle", "bundle-gz"):
        data = orjson.dumps({**header, "events": stored})
        path = directory / f"{match_id}.json"
        if form == "bundle-gz":
            path = path.with_name(path.name + ".gz")
            data = gzip.compress(data)
        path.write_bytes(data)
        return path
    lines = b"".join(orjson.dumps(e) + b"\n" for e in stored)
    if form in ("stream", "stream-gz"):
        data = orjson.dumps(header) + b"\n" + lines
        path = directory / f"{match_id}.jsonl"
        if form == "stream-gz":
            path = path.with_name(path.name + ".gz")
            data = gzip.compress(data)
        path.write_bytes(data)
        return path
    if form == "folder":
        folder = directory / match_id
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "archive.json").write_bytes(orjson.dumps(arch))
        (folder / "events.jsonl").write_bytes(lines)
        if report is not None:
            (folder / "report.json").write_bytes(orjson.dumps(report))
        return folder
    raise ValueError(form)


FORMS = ("bundle", "bundle-gz", "stream", "stream-gz", "folder")


def one_seat_match(directory: Path, match_id: str = "m_0123456789ab", form: str = "stream") -> Path:
    """A clean match of one seat and two events (spawned, rest) under ``match_id``, stored in ``form``."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    for event in events:
        event["matchId"] = match_id
    return write_match(directory, events, archive(["a_1"], ended=5, matchId=match_id), form=form)


def simulated_stream(out: Path, *, scenario: str = "clean", seed: int = 5, agents: int = 4, ticks: int = 12) -> Path:
    """A small simulated match written by ``simulate`` as a stream into ``out``: its path."""
    from click.testing import CliRunner

    from daishi_forensics.cli import main

    made = CliRunner().invoke(main, ["simulate", "--scenario", scenario, "--seed", str(seed), "--agents", str(agents),
                                     "--ticks", str(ticks), "--out", str(out)])
    assert made.exit_code == 0, made.output
    (stream,) = out.glob("m_*.jsonl")
    return stream


def with_header(stream: Path, header: dict[str, Any], to: Path | None = None) -> Path:
    """The stream's events under ``header`` (its first line replaced), written over it or to ``to``."""
    import json

    lines = stream.read_text(encoding="utf-8").splitlines()
    target = to or stream
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return target


def header_of(stream: Path) -> dict[str, Any]:
    """The stream's header line, parsed."""
    import json

    with stream.open(encoding="utf-8") as handle:
        return dict(json.loads(handle.readline()))
