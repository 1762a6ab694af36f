"""The read boundary: every form, every version, bad input (contract §1–§2, issue 2)."""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import orjson
import pytest

from daishi_forensics.errors import InputTooLarge, InputUnreadable, MatchNotFound
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import Limits, open_match
from daishi_forensics.read.validate import validate_targets

from .matchkit import FORMS, MATCH_ID, archive, ev, trade, write_match


def small_match() -> tuple[list[dict], dict]:
    events = [
        ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
        ev(2, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(3, 0, "agent_registered", "a_2", name="Ash", role="player"),
        ev(4, 0, "agent_spawned", "a_2", region="r_0_1"),
        ev(5, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3),
        ev(6, 2, "move", "a_2", **{"from": "r_0_1", "to": "r_0_0"}),
        *trade(7, 3, "t1", "a_1", "a_2", {"wood": 2}, {"food": 1}),
        ev(9, 4, "message", "a_1", text="anyone trading wood for ore?", channel="broadcast"),
        ev(10, 5, "message_private", "a_2", to="a_1", text="deal"),
        ev(11, 6, "attack", "a_2", target="a_1", region="r_0_0", damage=2, witnessed=False, witnesses=[]),
    ]
    return events, archive(["a_1", "a_2"], ended=10)


def read_all(path: Path) -> tuple[list[dict], object]:
    read = read_match(open_match(str(path)))
    return list(read.events()), read


def test_a_v3_stream_on_the_map_reads_verbatim_and_older_versions_never(tmp_path: Path) -> None:
    """Registrations without a region, spawns, gathers, moves and attacks on the map all take the hot
    path (the read is verbatim); the same match stored as v2 takes the cold path, record by record."""
    events, arch = small_match()
    for version, verbatim in ((3, True), (2, False)):
        path = write_match(tmp_path / str(version), events, arch, form="stream", version=version)
        got, read = read_all(path)
        assert read.verbatim is verbatim and read.stats.invalid == 0  # type: ignore[attr-defined]
        assert read.stats.by_version == {version: len(got) - (version < 3)}  # type: ignore[attr-defined]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("version", [1, 2, 3])
def test_every_form_and_version_reads_to_the_same_v3_events(tmp_path: Path, form: str, version: int) -> None:
    events, arch = small_match()
    path = write_match(tmp_path, events, arch, form=form, version=version)
    got, read = read_all(path)
    assert read.stats.invalid == 0 and read.stats.problems == []
    assert read.stats.records == {3: 11, 2: 10, 1: 10}[version]
    assert read.stats.records == read.stats.valid + read.stats.invalid
    # the same trades, messages and actions whatever the stored version
    kinds = [(e["id"], e["type"], e["agentId"]) for e in got]
    assert (7, "trade_completed", "a_2") in kinds and ((8 if version == 3 else 7), "trade_completed", "a_1") in kinds
    assert (10, "message_private", "a_2") in kinds
    assert all(e["schemaVersion"] == 3 for e in got)
    assert all(e["payload"].get("sha256") for e in got if e["type"].startswith("message"))
    if version < 3:
        assert read.stats.upcast == read.stats.records and read.stats.synthesized == 1
        offerer = [e for e in got if e.get("upcast") == "offerer"]
        assert [(e["id"], e["agentId"]) for e in offerer] == [(7, "a_1")]


def test_v1_log_keeps_only_the_last_season(tmp_path: Path) -> None:
    events, arch = small_match()
    earlier = [
        {"id": 1, "tick": 0, "type": "agent_spawned", "agentId": "a_9", "payload": {"region": "r_3_3"}},
        {"id": 2, "tick": 5, "type": "gather", "agentId": "a_9",
         "payload": {"region": "r_3_3", "resource": "wood", "gathered": 1}},
        {"id": 3, "tick": 6, "type": "world_reset", "agentId": None, "payload": {"season": 2}},
        {"id": 4, "tick": 0, "type": "season_started", "agentId": None, "payload": {"season": 2}},
    ]
    later = []
    for e in events:
        e = dict(e)
        e["id"] += 10
        later.append(e)
    path = write_match(tmp_path, later, arch, version=1)
    lines = path.read_text().splitlines()
    import orjson
    path.write_text("\n".join([lines[0], *(orjson.dumps(e).decode() for e in earlier), *lines[1:]]) + "\n")
    got, read = read_all(path)
    assert read.stats.seasons_seen == 2
    # the world_reset ends the earlier season (it carries that season's last tick, 6): it is dropped
    # with it, and the match's clock starts at the season_started's tick 0
    assert read.stats.dropped_earlier_season == 3
    assert [e["type"] for e in got][:2] == ["season_started", "agent_registered"]
    assert [e["tick"] for e in got] == sorted(e["tick"] for e in got) and got[0]["tick"] == 0
    assert "a_9" not in {e["agentId"] for e in got}
    assert read.stats.records == 14 and read.stats.valid == 14


def test_errata_withhold_events_and_say_so(tmp_path: Path) -> None:
    events, arch = small_match()
    arch["errata"] = [{"id": "E3", "text": "deposit never happened", "events": [5], "scoresDepend": False}]
    got, read = read_all(write_match(tmp_path, events, arch))
    assert 5 not in {e["id"] for e in got}
    assert read.stats.excluded_by_errata == [5]
    assert read.stats.yielded == len(got) == 10


def test_unknown_type_is_kept_counted_and_warned(tmp_path: Path) -> None:
    events, arch = small_match()
    events.append(ev(12, 7, "weather_changed", None, sky="grey"))
    got, read = read_all(write_match(tmp_path, events, arch))
    assert got[-1]["type"] == "weather_changed"
    assert read.stats.unknown_types == {"weather_changed": 1}
    assert [p.severity for p in read.stats.problems] == ["warning"]
    strict = validate_targets([str(tmp_path / f"{MATCH_ID}.jsonl")], strict=True)
    assert strict.exit_code == 1


def _stream(tmp_path: Path, body: bytes) -> Path:
    events, arch = small_match()
    path = write_match(tmp_path, events[:2], arch)
    path.write_bytes(path.read_bytes() + body)
    return path


BAD_LINES = {
    "not json": (b"this is not json\n", "not valid JSON", "$"),
    "truncated line": (b'{"id": 99, "tick": 3, "type": "rest"\n', "truncated", "$"),
    "invalid utf-8": (b'{"id": 99, "tick": 3, "type": "rest", "agentId": "\xff", "payload": {}}\n', "UTF-8", "$"),
    "wrong type": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": "3", "type": "rest", '
                   b'"agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {}}\n', "not of type", "$.tick"),
    "missing field": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, "type": "gather", '
                      b'"agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {"region": "r_0_0", '
                      b'"resource": "wood"}}\n', "'gathered' is a required property", "$.payload"),
    "negative quantity": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, "type": "gather", '
                          b'"agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {"region": "r_0_0", '
                          b'"resource": "wood", "gathered": -2}}\n', "minimum", "$.payload.gathered"),
    "id not increasing": (b'{"id": 1, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, "type": "rest", '
                          b'"agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {}}\n', "increase strictly",
                          "$.id"),
    # the schemas bound ids, ticks and counts at 2**53 - 1 (what a JSON number holds exactly)
    "id beyond 2**53 - 1": (b'{"id": 9007199254740992, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, '
                            b'"type": "rest", "agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {}}\n',
                            "9007199254740992 is greater than the maximum of 9007199254740991", "$.id"),
    "tick beyond 2**53 - 1": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 9007199254740992, '
                              b'"type": "rest", "agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {}}\n',
                              "greater than the maximum of 9007199254740991", "$.tick"),
    "quantity beyond 2**53 - 1": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, '
                                  b'"type": "gather", "agentId": "a_1", "createdAtMs": 1, "private": false, "payload": '
                                  b'{"region": "r_0_0", "resource": "wood", "gathered": 9007199254740992}}\n',
                                  "greater than the maximum of 9007199254740991", "$.payload.gathered"),
    "v1 tick beyond 2**53 - 1": (b'{"id": 99, "tick": 9007199254740992, "type": "rest", "agentId": "a_1", '
                                 b'"payload": {}}\n', "greater than the maximum of 9007199254740991", "$.tick"),
    "deep nesting": (b'{"id": 99, "payload": ' + b"[" * 10_000 + b"]" * 10_000 + b"}\n", "nested too deeply", "$"),
    "off the map": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, "type": "move", '
                    b'"agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {"from": "r_0_0", '
                    b'"to": "r_0_12"}}\n', "not on the 12", "$.payload.to"),
    "came from off the map": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, "type": "move", '
                              b'"agentId": "a_1", "createdAtMs": 1, "private": false, "payload": {"from": "r_12_0", '
                              b'"to": "r_0_0"}}\n', "not on the 12", "$.payload.from"),
    "spawned off the map": (b'{"id": 99, "matchId": "m_0123456789ab", "schemaVersion": 3, "tick": 3, '
                            b'"type": "agent_spawned", "agentId": "a_1", "createdAtMs": 1, "private": false, '
                            b'"payload": {"region": "r_5_12"}}\n', "not on the 12", "$.payload.region"),
}


@pytest.mark.parametrize("case", sorted(BAD_LINES))
def test_bad_event_is_reported_with_line_id_and_path(tmp_path: Path, case: str) -> None:
    body, expected, path_expected = BAD_LINES[case]
    path = _stream(tmp_path, body)
    result = validate_targets([str(path)])
    assert result.exit_code == 1
    (file_result,) = result.files
    (problem,) = [p for p in file_result.problems if p.severity == "error"]
    assert expected in problem.message
    assert problem.line == 4 and problem.path == path_expected and problem.file == str(path)
    assert file_result.stats["records"] == 3 == file_result.stats["valid"] + file_result.stats["invalid"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("version", [1, 2, 3])
def test_a_count_beyond_the_bound_never_reaches_an_analysis(tmp_path: Path, form: str, version: int) -> None:
    """A gather of 2**53 units (more than a JSON number holds exactly) is reported, named by its
    id and field, and not passed on; the analyses see the rest of the match."""
    from daishi_forensics import analyze

    events, arch = small_match()
    events.append(ev(12, 7, "gather", "a_2", region="r_0_1", resource="wood", gathered=2**53))
    events.append(ev(13, 8, "gather", "a_2", region="r_0_1", resource="wood", gathered=2**53 - 1))
    path = write_match(tmp_path, events, arch, form=form, version=version)
    seen, read = read_all(path)
    assert [e["id"] for e in seen if e["type"] == "gather"] == [5, 13]
    (problem,) = [p for p in read.stats.problems if p.severity == "error"]
    assert (problem.event_id, problem.path) == (12, "$.payload.gathered")
    assert "greater than the maximum of 9007199254740991" in problem.message
    counters = analyze(read_match(open_match(str(path))), only=("counters",)).result("counters")
    assert {c.agent: c.gathers for c in counters.agents} == {"a_1": 1, "a_2": 1}


def test_five_megabyte_message_is_valid(tmp_path: Path) -> None:
    events, arch = small_match()
    events.append(ev(12, 7, "message", "a_1", text="x" * 5_000_000, channel="local"))
    result = validate_targets([str(write_match(tmp_path, events, arch))])
    assert result.exit_code == 0, result.files[0].problems


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b'{"format": "daishi-match-export", "matchId": "m_0123456789ab", "archive": {"match', "truncated"),
        (b"[1, 2]", "not a JSON object"),
    ],
)
def test_unreadable_bundle_is_exit_3(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "m_0123456789ab.json"
    path.write_bytes(content)
    with pytest.raises(InputUnreadable, match=message):
        open_match(str(path))
    result = validate_targets([str(path)])
    assert result.exit_code == 3 and message in (result.files[0].unreadable or "")


def test_folder_without_archive(tmp_path: Path) -> None:
    folder = tmp_path / MATCH_ID
    folder.mkdir()
    (folder / "events.jsonl").write_text("")
    with pytest.raises(InputUnreadable, match="no archive.json"):
        open_match(str(folder))


def test_gzip_bomb_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m_0123456789ab.json.gz"
    with gzip.open(path, "wb") as out:
        chunk = b" " * (1 << 20)
        for _ in range(8):
            out.write(chunk)
    with pytest.raises(InputTooLarge, match="size limit"):
        open_match(str(path), limits=Limits(max_inflated_bytes=4 << 20))
    stream = tmp_path / "m_0123456789ab.jsonl.gz"
    events, arch = small_match()
    import orjson
    with gzip.open(stream, "wb") as out:
        out.write(orjson.dumps({"format": "daishi-match-export", "formatVersion": 1, "matchId": MATCH_ID,
                                "archive": arch}) + b"\n")
        for _ in range(8):
            out.write(b"\n" * (1 << 20))
    source = open_match(str(stream), limits=Limits(max_inflated_bytes=4 << 20))
    with pytest.raises(InputTooLarge):
        list(read_match(source).events())


def test_store_lookup_and_missing_match(tmp_path: Path) -> None:
    events, arch = small_match()
    write_match(tmp_path, events, arch, form="bundle-gz")
    assert open_match(MATCH_ID, store=tmp_path).form == "bundle"
    with pytest.raises(MatchNotFound, match="no server configured"):
        open_match("m_ffffffffffff", store=tmp_path)


@pytest.mark.parametrize("form", ["stream", "bundle-gz", "folder"])
def test_a_store_file_holding_another_match_is_refused(tmp_path: Path, form: str) -> None:
    """A file the store names for one match but holding another (misnamed, or overwritten by a copy)
    is refused, naming the file and both ids, not analysed under the name asked for."""
    events, arch = small_match()
    path = write_match(tmp_path, events, arch, form=form)
    other = "m_bbbbbbbbbbbb"
    path.rename(path.with_name(path.name.replace(MATCH_ID, other)))
    with pytest.raises(InputUnreadable, match=f"file for {other} holds match '{MATCH_ID}': refused") as caught:
        open_match(other, store=tmp_path)
    assert caught.value.field == "matchId" and other in str(caught.value.file)


@pytest.mark.parametrize("version", [3, 2])
def test_a_message_whose_text_is_not_what_its_sha256_hashes_is_refused(tmp_path: Path, version: int) -> None:
    """A stored sha256 is the SHA-256 of the text's UTF-8 bytes: a text edited after logging (or a hash
    copied from another message) is an invalid record naming the event and the field, on the hot path (v3)
    and the cold one (v2, whose message carries a hash here)."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
              ev(2, 1, "message", "a_1", text="meet at dawn", channel="broadcast"),
              ev(3, 2, "message", "a_1", text="bring wood", channel="broadcast")]
    events[1]["payload"]["text"] = "meet at dusk"  # edited, its hash kept
    events[2]["payload"]["sha256"] = hashlib.sha256(b"meet at dawn").hexdigest()  # another message's hash
    path = write_match(tmp_path, events, archive(["a_1"], ended=5), version=version)
    if version == 2:  # v2 messages carry no hash: put the stored ones back
        lines = path.read_bytes().splitlines()
        for k, stored in ((2, events[1]), (3, events[2])):
            record = orjson.loads(lines[k])
            record["payload"]["sha256"] = stored["payload"]["sha256"]
            lines[k] = orjson.dumps(record)
        path.write_bytes(b"\n".join(lines) + b"\n")
    got, read = read_all(path)
    assert [e["id"] for e in got] == [1]
    assert read.stats.invalid == 2
    said = [(p.event_id, p.path, p.code) for p in read.stats.problems if p.severity == "error"]
    assert said == [(2, "$.payload.sha256", "sha256"), (3, "$.payload.sha256", "sha256")]
    assert "the text or its hash was changed after the event was logged" in read.stats.problems[0].message


@pytest.mark.parametrize("version", [3, 2])
def test_a_stored_record_carrying_an_upcast_mark_is_refused(tmp_path: Path, version: int) -> None:
    """upcastPath and upcast are set only by the upcast: a stored record carrying one (which would excuse
    a missing createdAtMs, or pass itself off as a synthesized offerer's event) is invalid, naming the
    field, on the hot path (v3) and the cold one (v2)."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1"), ev(3, 2, "rest", "a_1"),
              ev(4, 3, "rest", "a_1")]
    path = write_match(tmp_path, events, archive(["a_1"], ended=5), version=version)
    lines = path.read_bytes().splitlines()
    for k, marks in ((2, {"upcastPath": [1, 2, 3]}), (3, {"upcast": "offerer"})):
        record = orjson.loads(lines[k])
        if version == 3 and k == 2:
            del record["createdAtMs"]
        lines[k] = orjson.dumps({**record, **marks})
    path.write_bytes(b"\n".join(lines) + b"\n")
    got, read = read_all(path)
    assert [e["id"] for e in got] == [1, 4]
    said = [(p.event_id, p.path, p.code) for p in read.stats.problems if p.severity == "error"]
    assert said == [(2, "$.upcastPath", "upcast-mark"), (3, "$.upcast", "upcast-mark")]


def test_counts_add_up_to_the_lines(tmp_path: Path) -> None:
    events, arch = small_match()
    path = write_match(tmp_path, events, arch)
    path.write_bytes(path.read_bytes() + b"garbage\n" + b'{"id": 50}\n')
    got, read = read_all(path)
    assert read.stats.records == 13 == read.stats.valid + read.stats.invalid
    assert read.stats.invalid == 2 and len(got) == 11


def test_stream_lines_blank_bad_and_too_long(tmp_path: Path) -> None:
    """Blank lines count as lines, not records; a bad line is a record with its error; a line
    longer than the limit (its newline counted) is refused with its line number, after every
    record before it."""
    from daishi_forensics.read.sources import _event_lines

    path = tmp_path / "events.jsonl"
    path.write_bytes(b'{"h":1}\n{"a":1}\n\n  \r\nnope\n' + b'"' + b"x" * 21 + b'"\n' + b'{"b":2}\n' +
                     b'"' + b"y" * 22 + b'"\n{"c":3}\n')
    got: list[tuple[int, int, object, bool]] = []
    with pytest.raises(InputTooLarge, match="longer than 24 bytes") as refused:
        for index, number, data, error, _text in _event_lines(path, Limits(max_line_bytes=24), True):
            got.append((index, number, data, error is not None))
    assert got == [(0, 2, {"a": 1}, False), (1, 5, None, True), (2, 6, "x" * 21, False), (3, 7, {"b": 2}, False)]
    assert refused.value.line == 8


@pytest.mark.parametrize("form", FORMS)
def test_a_tapped_source_hands_each_records_bytes_before_the_record(tmp_path: Path, form: str) -> None:
    """`MatchSource.tapped`: the tap gets each record's bytes, in log order, before the record is handed
    on: a stream's or folder's line as read (its line reader taps, no generator around it; a blank line
    is no record, a bad line is one), another form's record as the repr of its first four fields."""
    events, arch = small_match()
    path = write_match(tmp_path, events, arch, form=form)
    if form in ("stream", "folder"):
        lines = path / "events.jsonl" if form == "folder" else path
        written = lines.read_bytes()
        lines.write_bytes(written + b"\n  \nnope\n" + b'{"id": 50}\n')
        events_bytes = written.split(b"\n", 1)[1] if form == "stream" else written  # (a stream's header aside)
    source = open_match(str(path))
    seen: list[bytes] = []
    tapped = source.tapped(seen.append)
    records = list(zip(tapped.records(), source.records()))
    assert len(records) == len(list(source.records())) >= len(events)
    taps = []
    for record, plain in records:
        assert record[:5] == plain[:5]
        taps.append(record[4] if record[4] is not None else repr(tuple(record[:4])).encode())
    assert seen == taps
    if form in ("stream", "folder"):
        assert taps[-2:] == [b"nope\n", b'{"id": 50}\n'] and len(taps) == len(events) + 2
        assert b"".join(taps) == events_bytes + b"nope\n" + b'{"id": 50}\n'
        assert tapped.records().gi_code.co_name == "_event_lines"  # the line reader itself taps
    seen.clear()
    for n, _record in enumerate(tapped.records(), 1):
        assert len(seen) == n  # tapped before it came out


def test_bad_input_reads_under_an_address_space_limit(tmp_path: Path) -> None:
    """Every bad input above, read by `validate` and `behavior` with the address space limited to
    2,000,000 KiB (`ulimit -v 2000000`): the same exit codes and one-line errors, no traceback, no
    MemoryError (a read never reserves more than it reads)."""
    import json
    import resource
    import subprocess
    import sys

    cases: dict[str, tuple[Path, int]] = {}
    for case, (body, _expected, _path) in BAD_LINES.items():
        cases[case] = (_stream(tmp_path / case.replace(" ", "-"), body), 1)
    for number, content in enumerate([b"", b'{"format": "daishi-match-export", "archive": {"match', b"[1, 2]"]):
        path = tmp_path / f"unreadable-{number}" / "m_0123456789ab.json"
        path.parent.mkdir()
        path.write_bytes(content)
        cases[f"unreadable bundle {number}"] = (path, 3)
    folder = tmp_path / "no-archive" / MATCH_ID
    folder.mkdir(parents=True)
    (folder / "events.jsonl").write_text("")
    cases["folder without archive"] = (folder, 3)
    bomb = tmp_path / "bomb" / "m_0123456789ab.json.gz"
    bomb.parent.mkdir()
    with gzip.open(bomb, "wb") as out:
        for _ in range(8):
            out.write(b" " * (1 << 20))
    cases["gzip bomb"] = (bomb, 3)
    driver = """
import json, sys
from click.testing import CliRunner
from daishi_forensics.cli import main
out = {}
for name, path in json.loads(sys.argv[1]).items():
    for command in ("validate", "behavior"):
        run = CliRunner().invoke(main, [command, path, "--format", "json"])
        failed = run.exception if not isinstance(run.exception, SystemExit) else None
        out[name + " " + command] = [run.exit_code, type(failed).__name__ if failed else None,
                                     "Traceback" in run.output]
print(json.dumps(out))
"""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2_000_000 * 1024, 2_000_000 * 1024))

    run = subprocess.run([sys.executable, "-c", driver, json.dumps({k: str(p) for k, (p, _) in cases.items()})],
                         capture_output=True, text=True, timeout=600, preexec_fn=limit,
                         env={**os.environ, "DAISHI_MAX_INFLATED_BYTES": str(4 << 20)})
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert results == {f"{name} {command}": [code, None, False] for name, (_, code) in cases.items()
                       for command in ("validate", "behavior")}
