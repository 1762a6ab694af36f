"""Hostile input and partial failure at the read boundary: limits, seasons, ids, truncation, printing.

Each test builds its input by hand (or with the simulator, for scale) and states the reading the
read boundary must give it; the module docs of ``read/boundary.py`` and ``read/sources.py`` say why.
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import subprocess
import sys
import textwrap
from hashlib import sha256
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.errors import InputTooLarge, InputUnreadable
from daishi_forensics.jsonio import shown
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import EventSpool, Limits, open_match
from daishi_forensics.read.validate import validate_targets
from daishi_forensics.report.behavior import behavior
from daishi_forensics.report.passes import analyze_target
from daishi_forensics.report.screening import screen_match

from .matchkit import MATCH_ID, archive, ev, trade, write_match

HEADER = {"format": "daishi-match-export", "formatVersion": 1, "matchId": MATCH_ID}


def stream(tmp_path: Path, lines: list[bytes], arch: dict[str, Any] | None = None, name: str | None = None) -> Path:
    """A stream file: the header (with ``arch``), then these raw lines."""
    arch = arch if arch is not None else archive(["a_1", "a_2"], ended=10)
    path = tmp_path / (name or f"{MATCH_ID}.jsonl")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps({**HEADER, "archive": arch}) + b"\n" + b"".join(line + b"\n" for line in lines))
    return path


def line(event: dict[str, Any]) -> bytes:
    return orjson.dumps(event)


def rests(ids: list[int], tick: int = 1) -> list[bytes]:
    return [line(ev(i, tick, "rest", "a_1")) for i in ids]


SPAWNS = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0")]


def cli(args: list[str]) -> Any:
    """Run a command in-process; it must end by its exit code, never by an uncaught exception."""
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.output)
    return result


def read_all(path: Path) -> tuple[list[dict[str, Any]], Any]:
    read = read_match(open_match(str(path)))
    return list(read.events()), read


def errors(result: Any) -> list[Any]:
    return [p for p in result.files[0].problems if p.severity == "error"]


# ------------------------------------------------------------------ 1. v1 seasons and the replay clock


def v1_line(event_id: int, tick: int, kind: str, agent: str | None = None, **payload: Any) -> bytes:
    return line({"id": event_id, "tick": tick, "type": kind, "agentId": agent, "payload": payload})


def test_v1_earlier_season_does_not_move_the_match_clock(tmp_path: Path) -> None:
    """The world_reset that ends an earlier season carries that season's last tick; the match's
    ticks restart at 0.  Contact and first contact are the same with or without the earlier season."""
    from daishi_forensics.simulate import simulate_match, write_match as write_sim

    match = simulate_match("clean", 7, schema_version=1, ticks=120)
    with_season = write_sim(match, tmp_path / "with", form="stream", previous_season=True, truth_file=None)
    without = write_sim(match, tmp_path / "without", form="stream", previous_season=False, truth_file=None)
    a, b = behavior(str(with_season)).report, behavior(str(without)).report
    assert a["source"]["droppedEarlierSeason"] > 0 and b["source"]["droppedEarlierSeason"] == 0
    pairs = {(p["a"], p["b"]): p for p in b["contact"]["pairs"]}
    assert len(pairs) == 28
    assert [pairs[(p["a"], p["b"])] for p in a["contact"]["pairs"]] == a["contact"]["pairs"]
    assert a["contact"] == b["contact"] and a["seats"] == b["seats"]


def test_v1_log_ending_with_a_world_reset_is_the_season_that_reset_closed(tmp_path: Path) -> None:
    lines = [v1_line(1, 0, "agent_spawned", "a_1", region="r_0_0"),
             v1_line(2, 0, "agent_spawned", "a_2", region="r_0_0"),
             v1_line(3, 4, "rest", "a_1"), v1_line(4, 7, "world_reset", None, season=1)]
    got, read = read_all(stream(tmp_path, lines))
    assert [e["id"] for e in got] == [1, 2, 3, 4]
    assert read.stats.dropped_earlier_season == 0 and read.stats.seasons_seen == 1
    # a reset and an unplayed season_started after it: still the played season
    path = stream(tmp_path / "b", [*lines, v1_line(5, 0, "season_started", None, season=2)])
    got, read = read_all(path)
    assert [e["id"] for e in got] == [1, 2, 3, 4]
    assert read.stats.dropped_earlier_season == 1 and read.stats.seasons_seen == 2


def test_v1_trailing_reset_keeps_the_screen_verdict(tmp_path: Path) -> None:
    from .test_screens_daishi import feeder_events

    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    plain = write_match(tmp_path / "plain", feeder_events(), arch, version=1)
    assert screen_match(analyze_target(str(plain))).verdict == "flag"
    reset = write_match(tmp_path / "reset", feeder_events(), arch, version=1)
    reset.write_bytes(reset.read_bytes() + v1_line(90, 39, "world_reset", None, season=1) + b"\n")
    assert screen_match(analyze_target(str(reset))).verdict == "flag"
    result = cli(["screen", str(reset), "--format", "json"])
    assert result.exit_code == 1 and json.loads(result.output)["verdict"] == "flag"


def test_event_spool_spills_to_disk_and_reads_back_the_same() -> None:
    spool = EventSpool(memory_bytes=4096)
    events = [{"id": i, "tick": i // 10, "payload": {"text": "x" * 50, "n": [i, None, 1.5]}} for i in range(500)]
    for event in events:
        spool.append(event)
    assert spool._file._rolled  # past its memory: in a temporary file
    assert spool.events == 500 and list(spool) == events


# ------------------------------------------------------------------ 2. integers written as floats


def test_an_id_written_as_a_float_is_an_integer_and_a_replay_is_caught(tmp_path: Path) -> None:
    attack = ev(3, 2, "attack", "a_2", target="a_1", region="r_0_0", damage=2, witnessed=True, witnesses=["a_1"])
    replayed = line(attack).replace(b'"id":3', b'"id":3.0')
    path = stream(tmp_path, [*map(line, SPAWNS), line(attack), replayed, line(ev(4, 3, "rest", "a_1"))])
    result = validate_targets([str(path)])
    assert result.exit_code == 1
    kinds = sorted((p.code, p.severity, p.line) for p in result.files[0].problems)
    assert kinds == [("integral-float", "warning", 5), ("order", "error", 5)]
    got, read = read_all(path)
    assert [e["id"] for e in got] == [1, 2, 3, 4] and all(type(e["id"]) is int for e in got)
    assert read.stats.by_type["attack"] == 2 and read.stats.invalid == 1
    report = behavior(str(path)).report
    assert {s["agentId"]: s["aggression"]["acts"] for s in report["seats"]}["a_2"] == 1


def test_an_id_past_two_to_the_64_is_refused_not_skipped(tmp_path: Path) -> None:
    huge = line(ev(3, 1, "rest", "a_1")).replace(b'"id":3', b'"id":18446744073709551616')
    path = stream(tmp_path, [*map(line, SPAWNS), huge])
    result = validate_targets([str(path)])
    assert result.exit_code == 1
    [problem] = errors(result)
    assert problem.code == "integer-range" and problem.path == "$.id" and problem.line == 4


def test_ticks_and_quantities_written_as_floats_are_read_as_integers(tmp_path: Path) -> None:
    gather = line(ev(3, 57, "gather", "a_1", region="r_0_0", resource="wood", gathered=3))
    gather = gather.replace(b'"tick":57', b'"tick":57.0').replace(b'"gathered":3', b'"gathered":3e0')
    offer = line(ev(4, 58, "trade_offered", "a_1", tradeId="t1", to="a_2", give={"wood": 2}, receive={}))
    deal = [line(e).replace(b'"wood":2', b'"wood":2.0') for e in trade(5, 58, "t1", "a_1", "a_2", {"wood": 2}, {})]
    path = stream(tmp_path, [*map(line, SPAWNS), gather, offer, *deal], archive(["a_1", "a_2"], ended=60))
    result = validate_targets([str(path)])
    assert result.exit_code == 0
    warned = sorted((p.line, p.path) for p in result.files[0].problems)
    assert warned == [(4, "$.payload.gathered"), (4, "$.tick"), (6, "$.payload.give.wood"), (7, "$.payload.give.wood")]
    got, _ = read_all(path)
    assert type(got[2]["tick"]) is int and type(got[2]["payload"]["gathered"]) is int
    assert type(got[3]["payload"]["give"]["wood"]) is int
    assert cli(["behavior", str(path), "--format", "json"]).exit_code == 0
    assert cli(["score", str(path), "--format", "json"]).exit_code in (0, 1)


def test_the_hot_path_validator_is_the_schema_with_strict_integers() -> None:
    from daishi_forensics.read.validation import UPCAST_MARKS, EventChecker, as_draft4

    from .test_schemas import ALL_CASES

    checker = EventChecker()
    hot = checker.fast_v3()
    compared = marked = 0
    for _case, name, instance, _valid in ALL_CASES:
        if name.startswith("event/"):
            # the hot path reads stored records: the schema's verdict, less any record carrying an upcast mark
            stored = not (isinstance(instance, dict) and any(mark in instance for mark in UPCAST_MARKS))
            assert hot[name[6:]](instance) is (checker.whole(name[6:]).is_valid(instance) and stored)
            compared += 1
            marked += not stored
    assert compared > 800 and marked > 30
    event = {"id": 1, "matchId": MATCH_ID, "schemaVersion": 3, "tick": 0, "type": "rest", "agentId": "a_1",
             "createdAtMs": 0, "private": False, "payload": {}}
    assert hot["rest"](event) and checker.whole("rest").is_valid({**event, "tick": 0.0})
    assert not hot["rest"]({**event, "tick": 0.0}) and not hot["rest"]({**event, "schemaVersion": 3.0})
    with pytest.raises(ValueError, match="does not know the keyword 'unevaluatedProperties'"):
        as_draft4({"unevaluatedProperties": False})


def _mutations(value: Any, depth: int = 0) -> Any:
    """Every record one change away from ``value``: a member removed or replaced by an odd value,
    down to three levels (a trade's item counts)."""
    odd = [None, True, -1, 0, 1, 2.5, 2**53, "", "x", "r_0_0", [], [1], {}, {"a": 1}]
    if isinstance(value, dict):
        for key, item in value.items():
            yield {k: v for k, v in value.items() if k != key}
            for other in odd:
                yield {**value, key: other}
            if depth < 2:
                for changed in _mutations(item, depth + 1):
                    yield {**value, key: changed}
        yield {**value, "extra": 1}
    elif isinstance(value, list):
        yield []
        for i, item in enumerate(value):
            for changed in _mutations(item, depth + 1):
                yield [*value[:i], changed, *value[i + 1:]]


def test_the_flattened_validators_give_the_schema_s_verdicts() -> None:
    """The hot path's validators are the draft 4 schemas flattened (``allOf`` merged): on every
    schema case and every record one change away from a valid one, the same verdict as the schema
    before flattening."""
    import jsonschema_rs

    from daishi_forensics import schemas
    from daishi_forensics.read.validation import EventChecker, as_draft4, stored_only

    from .test_schemas import ALL_CASES

    checker = EventChecker()
    hot = checker.fast_v3()
    # both held to what a stored record is (no upcast mark): flattening is what is compared
    plain = {t: jsonschema_rs.Draft4Validator(stored_only(as_draft4(schemas.inlined(f"event/{t}")))).is_valid
             for t in checker.types}
    compared = rejected = 0
    valid_types = set()
    for _case, name, instance, _valid in ALL_CASES:
        if not name.startswith("event/"):
            continue
        kind = name[6:]
        records = [instance]
        if plain[kind](instance):
            valid_types.add(kind)
            records.extend(_mutations(instance))
        for record in records:
            verdict = plain[kind](record)
            assert hot[kind](record) is verdict, (kind, record)
            compared += 1
            rejected += not verdict
    assert valid_types == set(checker.types)  # every type has a valid case to change
    assert compared > 20_000 and rejected > 10_000


def test_the_read_path_validators_leave_out_only_what_the_path_checks_itself() -> None:
    """``hot_v3`` (the validators the read boundary's hot path runs) gives ``fast_v3``'s verdict on
    every record the path would hand it and then take: of the validator's own type, with the match id
    it compares, its region members absent or on the map; on every schema case and every record one
    change away from a valid one.  And what it leaves out is left out: a record of another type, a
    matchId off its pattern, a region off its pattern would pass it."""
    from daishi_forensics.read.boundary import REGION_FIELDS
    from daishi_forensics.read.validation import EventChecker

    from .test_schemas import ALL_CASES

    checker = EventChecker()
    full = checker.fast_v3()
    cases_match = "m_aa6f85fab659"  # the schema cases' match id
    trimmed = checker.hot_v3(cases_match, REGION_FIELDS)
    on_map = {f"r_{x}_{y}" for x in range(12) for y in range(12)}

    def taken(kind: str, record: Any) -> bool:
        """The path's own checks, as it makes them after the validator's verdict."""
        payload = record.get("payload")
        return record.get("type") == kind and record.get("matchId") == cases_match and all(
            payload.get(key) is None or (isinstance(payload.get(key), str) and payload.get(key) in on_map)
            for key in REGION_FIELDS.get(kind, ()))

    compared = agreed_valid = 0
    for _case, name, instance, _valid in ALL_CASES:
        if not name.startswith("event/"):
            continue
        kind = name[6:]
        records = [instance, *_mutations(instance)] if full[kind](instance) else [instance]
        for record in records:
            if isinstance(record, dict) and isinstance(record.get("payload"), dict) and taken(kind, record):
                assert trimmed[kind](record) is full[kind](record), (kind, record)
                compared += 1
                agreed_valid += full[kind](record)
    assert compared > 10_000 and agreed_valid > 1_000
    move = {"id": 1, "matchId": cases_match, "schemaVersion": 3, "tick": 0, "type": "move", "agentId": "a_1",
            "createdAtMs": 0, "private": False, "payload": {"from": "r_0_0", "to": "r_0_1"}}
    assert full["move"](move) and trimmed["move"](move)
    for odd in ({"type": "rest"}, {"matchId": "m_x"}, {"payload": {"from": "r_0_0", "to": "nowhere"}}):
        assert not full["move"]({**move, **odd}) and trimmed["move"]({**move, **odd})
    assert not trimmed["move"]({**move, "payload": {"from": "r_0_0", "to": 7}})  # the type stays
    untrusted = checker.hot_v3("not-a-match-id", None)  # a header id off the pattern: the pattern is kept
    assert not untrusted["move"]({**move, "matchId": "not-a-match-id"})
    assert not untrusted["move"]({**move, "payload": {"from": "r_0_0", "to": "nowhere"}})


# ------------------------------------------------------------------ 3. one bad id, one problem; capped output


def test_one_id_out_of_place_is_one_problem(tmp_path: Path) -> None:
    ids = list(range(3, 40))
    lines = [line(ev(i, 1, "rest", "a_1")) for i in ids]
    lines.insert(10, line(ev(99999999, 1, "rest", "a_1")))
    path = stream(tmp_path, [*map(line, SPAWNS), *lines])
    result = validate_targets([str(path)])
    [problem] = errors(result)
    assert problem.code == "order" and problem.event_id == 99999999 and problem.line == 14
    assert "99999999 is out of place between 12 and 13" in problem.message
    got, read = read_all(path)
    assert [e["id"] for e in got] == [1, 2, *ids] and read.stats.invalid == 1
    assert read.stats.records == read.stats.valid + read.stats.invalid == 40
    report = behavior(str(path)).report
    assert report["source"]["invalid"] == 1 and report["source"]["analysed"] == 39


@pytest.mark.parametrize("ids, bad, kept", [
    ([1, 2, 3, 3, 4], [(3, 5)], [1, 2, 3, 4]),          # a repeated id: the later record
    ([1, 2, 3, 1, 4], [(1, 5)], [1, 2, 3, 4]),          # a lower id: that record
    ([9, 1, 2, 3], [(9, 2)], [1, 2, 3]),                # the first record jumped ahead
    ([1, 2, 90, 80, 3, 4], [(90, 4), (80, 5)], [1, 2, 3, 4]),
])
def test_order_problems_fall_on_the_record_out_of_place(tmp_path: Path, ids: list[int], bad: list[tuple[int, int]],
                                                       kept: list[int]) -> None:
    path = stream(tmp_path, [line(ev(i, 1, "rest", "a_1")) for i in ids], archive(["a_1"], ended=10))
    got, read = read_all(path)
    assert [(p.event_id, p.line) for p in read.stats.problems if p.code == "order"] == bad
    assert [e["id"] for e in got] == kept


def _ticked(ticks: list[int]) -> list[dict[str, Any]]:
    """Spawns at tick 0 (ids 1, 2), then a rest at each of ``ticks`` (ids 3, 4, ...)."""
    return [*SPAWNS, *(ev(i, tick, "rest", "a_1") for i, tick in enumerate(ticks, 3))]


def tick_problems(read: Any) -> list[tuple[str, int | None, int | None, str, str]]:
    return [(p.code, p.event_id, p.line, p.path, p.severity) for p in read.stats.problems]


@pytest.mark.parametrize("version", [3, 2, 1])
def test_a_tick_going_back_is_a_warning_on_its_record_which_stays_valid(tmp_path: Path, version: int) -> None:
    """Ticks 0 0 | 2 3 1 4 4: the record at tick 1 (id 5, line 6) goes back and is said; it and the
    rest are valid and analysed.  Ticks shifted back from one record on are one warning, not one each."""
    path = write_match(tmp_path / "one", _ticked([2, 3, 1, 4, 4]), archive(["a_1", "a_2"], ended=10),
                       version=version)
    got, read = read_all(path)
    assert tick_problems(read) == [("tick-order", 5, 6, "$.tick", "warning")]
    assert "tick 1 comes after tick 3" in read.stats.problems[0].message
    assert [e["id"] for e in got] == [1, 2, 3, 4, 5, 6, 7]
    assert read.stats.valid == read.stats.records == 7 and read.stats.invalid == 0
    assert read.verbatim is (version == 3)  # a v3 record said so stays on the hot path
    run = cli(["validate", str(path)])
    assert run.exit_code == 0 and "line 6, id 5: $.tick: ticks must not go back" in run.output
    shifted = write_match(tmp_path / "shifted", _ticked([5, 6, 7, 1, 2, 3, 3]), archive(["a_1", "a_2"], ended=10),
                          version=version)
    assert tick_problems(read_all(shifted)[1]) == [("tick-order", 6, 7, "$.tick", "warning")]


@pytest.mark.parametrize("version", [3, 1])
def test_a_tick_past_the_end_is_a_warning_and_the_end_tick_is_not(tmp_path: Path, version: int) -> None:
    """endedAtTick 10: tick 10 (the end-of-match snapshots) is no problem, tick 1,000,000 is; later
    ticks are compared with the last one before it, so the record after it is in order."""
    path = write_match(tmp_path, _ticked([2, 1_000_000, 3, 10]), archive(["a_1", "a_2"], ended=10), version=version)
    got, read = read_all(path)
    assert tick_problems(read) == [("tick-past-end", 4, 5, "$.tick", "warning")]
    assert "tick 1000000 is past the match's end (the archive's endedAtTick is 10)" in read.stats.problems[0].message
    assert [e["id"] for e in got] == [1, 2, 3, 4, 5, 6] and read.stats.invalid == 0
    result = validate_targets([str(path)])
    assert result.exit_code == 0 and [p.code for p in result.files[0].problems] == ["tick-past-end"]


def test_v1_ticks_start_again_with_a_season_and_an_earlier_season_may_outlast_the_match(tmp_path: Path) -> None:
    """An earlier season running to tick 30 (past the match's end, 10), a world_reset, a season_started
    at tick 0: no problem.  A tick going back inside the match's season with no marker is said."""
    earlier = [v1_line(1, 0, "agent_spawned", "a_9", region="r_3_3"), v1_line(2, 30, "rest", "a_9"),
               v1_line(3, 30, "world_reset", None, season=2), v1_line(4, 0, "season_started", None, season=2)]
    match = [v1_line(5, 0, "agent_spawned", "a_1", region="r_0_0"), v1_line(6, 3, "rest", "a_1"),
             v1_line(7, 10, "rest", "a_1")]
    got, read = read_all(stream(tmp_path / "a", [*earlier, *match]))
    assert read.stats.problems == [] and read.stats.seasons_seen == 2
    assert [e["id"] for e in got] == [4, 5, 6, 7]
    # the reset alone starts the next season, whatever its first event
    got, read = read_all(stream(tmp_path / "b", [*earlier[:3], *match]))
    assert read.stats.problems == [] and [e["id"] for e in got] == [5, 6, 7]
    # no marker: one season, and its tick going back is said
    back = [*match, v1_line(8, 2, "rest", "a_1")]
    got, read = read_all(stream(tmp_path / "c", back))
    assert tick_problems(read) == [("tick-order", 8, 5, "$.tick", "warning")]
    # the match's own tick past the end is said
    got, read = read_all(stream(tmp_path / "d", [*earlier, *match, v1_line(8, 11, "rest", "a_1")]))
    assert tick_problems(read) == [("tick-past-end", 8, 9, "$.tick", "warning")]


def test_ordered_ticks_raise_no_tick_problem_and_read_verbatim(tmp_path: Path) -> None:
    for source in (open_match(str(simulated_stream(tmp_path))), open_match("m_demo")):
        read = read_match(source)
        ticks = [e["tick"] for e in read.events()]
        assert read.verbatim and read.stats.problems == [] and read.stats.warnings == 0
        assert ticks == sorted(ticks) and ticks[-1] <= read.archive["endedAtTick"]


def test_tick_warnings_are_capped_like_other_problems(tmp_path: Path) -> None:
    ticks = [t for k in range(1, 61) for t in (k + 1, k)]  # 60 ticks going back
    path = stream(tmp_path, [*map(line, _ticked(ticks))], archive(["a_1", "a_2"], ended=100))
    run = cli(["validate", "--max-errors", "5", "--format", "json", str(path)])
    doc = json.loads(run.output)["files"][0]
    assert run.exit_code == 0 and doc["problemCounts"] == {"tick-order": 60}
    assert len(doc["problems"]) == 5 and doc["problemsNotKept"] == 55


def test_max_errors_lists_the_first_of_each_kind_and_counts_the_rest(tmp_path: Path) -> None:
    bad = [line(ev(i, 1, "gather", "a_1", region="r_0_0", resource="wood")) for i in range(3, 123)]
    path = stream(tmp_path, [*map(line, SPAWNS), *bad, b"not json"])
    run = cli(["validate", str(path)])
    assert run.exit_code == 1
    assert run.output.count("'gathered' is a required property") == 50
    assert "… and 70 more like this (schema)" in run.output
    run = cli(["validate", "--max-errors", "5", "--format", "json", str(path)])
    doc = json.loads(run.output)["files"][0]
    assert len(doc["problems"]) == 6 and doc["problemCounts"] == {"json": 1, "schema": 120}
    assert doc["problemsNotKept"] == 115


def test_github_annotations_stop_where_github_stops_showing_them(tmp_path: Path) -> None:
    bad = [line(ev(i, 1, "gather", "a_1", region="r_0_0", resource="wood")) for i in range(3, 33)]
    unknown = [line(ev(i, 1, "weather", None, sky="grey")) for i in range(40, 55)]
    path = stream(tmp_path, [*map(line, SPAWNS), *bad, *unknown])
    run = cli(["validate", "--format", "github", str(path)])
    annotations = [x for x in run.output.splitlines() if x.startswith("::")]
    assert sum(1 for x in annotations if x.startswith("::error")) == 10
    assert sum(1 for x in annotations if x.startswith("::warning")) == 10
    assert "::error title=daishi-forensics::21 more errors not annotated" in run.output
    assert "::warning title=daishi-forensics::6 more warnings not annotated" in run.output
    assert sum(1 for x in run.output.splitlines() if x.startswith("error: ")) == 30


# ------------------------------------------------------------------ 4. truncation


def simulated_stream(tmp_path: Path) -> Path:
    from daishi_forensics.simulate import simulate_match, write_match as write_sim

    return write_sim(simulate_match("clean", 11, ticks=60), tmp_path, form="stream", truth_file=None)


def test_a_stream_cut_at_a_line_boundary_is_truncated(tmp_path: Path) -> None:
    path = simulated_stream(tmp_path / "whole")
    assert validate_targets([str(path)]).exit_code == 0
    lines = path.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut" / path.name
    cut.parent.mkdir()
    cut.write_bytes(b"".join(lines[: len(lines) // 2]))
    result = validate_targets([str(cut)])
    assert result.exit_code == 1
    [problem] = errors(result)
    assert problem.code == "truncated"
    assert "the archive's metrics count more events than the log holds" in problem.message
    outcome = behavior(str(cut))
    assert outcome.exit_code == 1
    [finding] = [f for f in outcome.report["findings"] if f["kind"] == "truncated"]
    assert finding["evidence"] and "metrics" in finding["evidence"][0]


def test_screening_a_truncated_log_says_so_in_every_format(tmp_path: Path) -> None:
    """The screens read only what a truncated log holds: a clear verdict there does not clear the match,
    so the run exits 1 and says why (text, JSON, GitHub, SARIF), as it does for invalid records."""
    import orjson

    path = simulated_stream(tmp_path / "whole")
    assert cli(["screen", str(path)]).exit_code == 0
    lines = path.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut" / path.name
    cut.parent.mkdir()
    cut.write_bytes(b"".join(lines[: len(lines) // 2]))
    text = cli(["screen", str(cut)])
    assert text.exit_code == 1 and "not screened: what the log no longer holds; the log is truncated: " in text.output
    doc = orjson.loads(cli(["screen", str(cut), "--format", "json"]).output)
    [match] = doc["matches"]
    assert doc["exitCode"] == 1 and "metrics" in match["truncated"][0]
    github = cli(["screen", str(cut), "--format", "github"]).output
    assert github.startswith(f"::warning file={cut},title=daishi-forensics not screened whole::not screened: ")
    sarif = orjson.loads(cli(["screen", str(cut), "--format", "sarif"]).output)
    [invocation] = sarif["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] and invocation["exitCode"] == 1
    assert [n["level"] for n in invocation["toolExecutionNotifications"]] == ["warning"]


def test_a_header_only_stream_is_truncated(tmp_path: Path) -> None:
    path = simulated_stream(tmp_path / "whole")
    header_only = tmp_path / path.name
    header_only.write_bytes(path.read_bytes().splitlines(keepends=True)[0])
    result = validate_targets([str(header_only)])
    assert result.exit_code == 1 and errors(result)[0].code == "truncated"
    assert "registers or spawns none (it holds no events)" in errors(result)[0].message
    assert cli(["behavior", str(header_only), "--format", "json"]).exit_code == 1


def test_an_honestly_short_match_is_not_truncated(tmp_path: Path) -> None:
    """The archive says the match ran to tick 600; the log's last event is at tick 3: a quiet end
    (nobody acted), not evidence of missing events."""
    events = [*SPAWNS, ev(3, 3, "rest", "a_1")]
    arch = archive(["a_1", "a_2"], ended=600,
                   metrics={"a_1": {"agent_spawned": 1, "rest": 1}, "a_2": {"agent_spawned": 1, "message_private": 4}})
    for seat in arch["agents"]:
        seat["roundsAlive"] = 600
    assert validate_targets([str(write_match(tmp_path, events, arch))]).exit_code == 0


def test_a_death_after_the_last_event_is_evidence(tmp_path: Path) -> None:
    arch = archive(["a_1", "a_2"], ended=600)
    arch["agents"][1].update(status="dead", diedAtTick=300, roundsAlive=300)
    result = validate_targets([str(write_match(tmp_path, [*SPAWNS, ev(3, 57, "rest", "a_1")], arch))])
    [problem] = errors(result)
    assert problem.code == "truncated" and "'a_2' died at tick 300, but the log ends at tick 57" in problem.message


# ------------------------------------------------------------------ 5. v1 has no witness flags


def test_v1_witnessed_is_unknown_not_zero(tmp_path: Path) -> None:
    events = [*SPAWNS, ev(3, 1, "attack", "a_2", target="a_1", region="r_0_0", damage=2, witnessed=True, witnesses=[])]
    arch = archive(["a_1", "a_2"], ended=5)
    v1 = behavior(str(write_match(tmp_path / "v1", events, arch, version=1))).report
    v3 = behavior(str(write_match(tmp_path / "v3", events, arch))).report
    assert {s["agentId"]: s["aggression"]["witnessed"] for s in v1["seats"]} == {"a_1": 0, "a_2": None}
    assert {s["agentId"]: s["aggression"]["witnessed"] for s in v3["seats"]} == {"a_1": 0, "a_2": 1}
    path = str(write_match(tmp_path / "v1b", events, arch, version=1))
    for fmt in ("text", "html"):
        run = cli(["behavior", path, "--format", fmt])
        assert run.exit_code == 0 and "not recorded" in run.output


# ------------------------------------------------------------------ 7. memory: chunks, sizes, limits


def _limited(code: str, cwd: Path, limit_kib: int = 2_000_000,
             timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run Python code with the address space limited (``ulimit -v``)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_kib * 1024, limit_kib * 1024))

    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=limit)


def test_a_small_bundle_reads_under_an_address_space_limit(tmp_path: Path) -> None:
    path = write_match(tmp_path, [*SPAWNS, ev(3, 1, "rest", "a_1")], archive(["a_1", "a_2"], ended=5), form="bundle")
    run = _limited(f"""
        from daishi_forensics.read.validate import validate_targets
        print(validate_targets([{str(path)!r}]).exit_code)
    """, tmp_path)
    assert run.returncode == 0 and run.stdout.strip() == "0", run.stderr


def test_a_bundle_over_the_limit_is_refused_by_its_size(tmp_path: Path) -> None:
    big = tmp_path / "m_0123456789ab.json"
    with open(big, "wb") as out:
        out.truncate((2 << 30) + 1)  # sparse: 2 GiB + 1 byte, nothing to read
    run = _limited(f"""
        from daishi_forensics.read.sources import open_match
        from daishi_forensics.errors import InputTooLarge
        try:
            open_match({str(big)!r})
        except InputTooLarge as exc:
            print(exc)
    """, tmp_path, timeout=60)
    assert run.returncode == 0 and "larger than 2147483648 bytes" in run.stdout, run.stderr
    with pytest.raises(InputTooLarge):
        open_match(str(big), limits=Limits(max_bundle_bytes=1 << 20))


def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "m_0123456789ab.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(InputUnreadable, match="not a regular file .it is a character device"):
        open_match(str(link))


# ------------------------------------------------------------------ 8. printing values from the input


def deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


def test_shown_is_bounded_in_depth_and_length() -> None:
    nested: Any = []
    for _ in range(5000):
        nested = [nested]
    assert shown(nested) == "[[[[…]]]]"
    assert len(shown(list(range(10**6)))) == 60 and shown(list(range(10**6))).endswith("…")
    assert shown({"a": "x" * 10**6}).startswith("{'a': 'xxx") and len(shown({"a": "x" * 10**6})) == 60
    assert shown(2**5000) == "<an integer of 5001 bits>"


@pytest.mark.parametrize("field", ["payload", "matchId", "schemaVersion", "type", "agentId", "tick"])
def test_values_nested_a_thousand_deep_are_reported_briefly(tmp_path: Path, field: str) -> None:
    record = line(ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}))
    value = {"payload": b'{"from": "r_0_0", "to": ' + deep(1000) + b"}"}.get(field, deep(1000))
    key = b'"' + field.encode() + b'":'
    record = record.replace(key, key + value + b',"x' + field.encode() + b'":', 1)  # the field deep, "x<field>" as it was
    path = stream(tmp_path, [*map(line, SPAWNS), record])
    result = validate_targets([str(path)])
    assert result.exit_code == 1
    assert all(len(p.message) <= 240 for p in result.files[0].problems)
    for command in ("validate", "behavior", "score", "screen"):
        assert cli([command, str(path), "--format", "json"]).exit_code in (0, 1)


# ------------------------------------------------------------------ 9. the evidence table of the HTML page


def test_html_cites_invalid_events_whose_payload_is_not_an_object(tmp_path: Path) -> None:
    rest = line(ev(3, 1, "rest", "a_1"))
    path = stream(tmp_path, [*map(line, SPAWNS), rest.replace(b'"payload":{}', b'"payload":[1,2]'),
                             line(ev(4, 1, "rest", "a_1")).replace(b'"payload":{}', b'"payload":"x"'),
                             line(ev(5, 1, "rest", "a_1")).replace(b'"payload":{}', b'"payload":' + deep(1000))])
    out = tmp_path / "page.html"
    assert cli(["behavior", str(path), "--format", "html", "-o", str(out)]).exit_code == 1
    page = out.read_text(encoding="utf-8")
    assert 'id="ev-3"' in page and 'id="ev-4"' in page and 'id="ev-5"' in page
    assert "[1, 2]" in page and "[[[[…]]]]" in page


# ------------------------------------------------------------------ 10. numbers past what arithmetic holds


@pytest.mark.parametrize("where", ["item_values", "wealth", "negative wealth"])
def test_huge_archive_numbers_are_a_clear_error(tmp_path: Path, where: str) -> None:
    """Values validate accepted led to overflow and NaN tracebacks; the schemas bound them at 10^12
    and every analysis that computes with one refuses it, naming the field."""
    arch = archive(["a_1", "a_2"], ended=5)
    if where == "item_values":
        arch["config"]["item_values"] = {"wood": 1e308}
    else:
        for seat in arch["agents"]:
            seat["wealth"] = 1e308
        if where == "negative wealth":
            arch["agents"][0]["wealth"] = -1e308
    path = write_match(tmp_path, [*SPAWNS, *trade(3, 2, "t1", "a_1", "a_2", {"wood": 5}, {})], arch)
    assert validate_targets([str(path)]).exit_code == 1
    field = "config.item_values.wood" if where == "item_values" else "wealth"
    for command in ("behavior", "score"):
        run = cli([command, str(path), "--format", "json"])
        assert run.exit_code == 1, (command, run.output)
        assert "error:" in run.output and field in run.output and "(at most 1000000000000)" in run.output
    screened = cli(["screen", str(path), "--format", "json"])
    if where == "item_values":  # the screens value goods: not screened, and why
        assert screened.exit_code == 1 and "(at most 1000000000000)" in screened.output
    else:  # the screens do not read wealth
        assert screened.exit_code in (0, 1)


# ------------------------------------------------------------------ 11. tiers reads with the same limits


def test_tiers_refuses_a_line_past_the_limit(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl.gz"
    with gzip.open(corpus, "wb") as out:
        out.write(b'{"text": "' + b"a" * (65 << 20) + b'"}\n')
    run = cli(["tiers", str(corpus)])
    assert run.exit_code == 3 and "longer than" in run.output


def test_tiers_deep_lines_and_non_numbers(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_bytes(b'{"text": ' + deep(100_000) + b"}\n" + b'{"text": "x", "n": NaN}\n' +
                       b'{"text": "x", "n": 1e400}\n' + b'{"text": "\\ud800 hi"}\n')
    run = cli(["tiers", str(corpus)])
    assert run.exit_code == 1
    rows = [json.loads(x) for x in run.output.splitlines()]
    assert [r["tier"] for r in rows] == [None, None, None, "persuasion"]
    assert "nested too deeply" in rows[0]["reason"]
    assert "n" not in rows[1] and "n" not in rows[2]  # not read as null: not read at all
    assert "NaN" in rows[1]["reason"] or "not JSON" in rows[1]["reason"]


def test_tiers_truncated_gzip_is_unreadable_and_leaves_no_output(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl.gz"
    corpus.write_bytes(gzip.compress(b'{"text": "hello"}\n' * 20_000)[:-200])
    out = tmp_path / "o.jsonl"
    run = cli(["tiers", str(corpus), "-o", str(out)])
    assert run.exit_code == 3 and "Aborted" not in run.output and "truncated gzip" in run.output
    assert not out.exists()


# ------------------------------------------------------------------ 13. FIFOs and devices


def _run_cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed command in its own process (a hang fails the test by its timeout)."""
    command = Path(sys.executable).parent / "daishi-forensics"
    return subprocess.run([str(command), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_a_fifo_is_refused_never_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "m_0123456789ab.jsonl"
    os.mkfifo(fifo)
    run = _run_cli(["validate", str(fifo)], tmp_path)
    assert run.returncode == 3 and "is not a regular file (it is a FIFO)" in run.stdout + run.stderr
    run = _run_cli(["validate", str(tmp_path)], tmp_path)  # a folder being validated
    assert run.returncode == 3 and "is not a regular file (it is a FIFO)" in run.stdout


def test_a_folder_whose_events_file_is_a_fifo_says_so(tmp_path: Path) -> None:
    folder = write_match(tmp_path, [*SPAWNS], archive(["a_1", "a_2"], ended=5), form="folder")
    (folder / "events.jsonl").unlink()
    os.mkfifo(folder / "events.jsonl")
    run = _run_cli(["validate", str(folder)], tmp_path)
    assert run.returncode == 3
    assert "events.jsonl: is not a regular file (it is a FIFO)" in run.stdout and "has no events" not in run.stdout


# ------------------------------------------------------------------ 18. a file changed while it is read


def test_a_stream_changed_after_its_header_was_read_is_refused(tmp_path: Path) -> None:
    path = stream(tmp_path, rests([3, 4, 5]))
    source = open_match(str(path))
    with open(path, "ab") as out:
        out.write(line(ev(6, 2, "rest", "a_1")) + b"\n")
    with pytest.raises(InputUnreadable, match="changed while being read"):
        list(read_match(source).events())


def test_a_stream_replaced_while_it_is_read_is_refused(tmp_path: Path) -> None:
    path = stream(tmp_path, rests(list(range(3, 3000))))
    events = read_match(open_match(str(path))).events()
    next(events)
    other = stream(tmp_path / "other", rests(list(range(3, 3000))))
    os.replace(other, path)
    with pytest.raises(InputUnreadable, match="changed while being read"):
        list(events)


def test_a_folder_events_file_rewritten_in_place_is_refused(tmp_path: Path) -> None:
    folder = write_match(tmp_path, [*SPAWNS, ev(3, 1, "rest", "a_1")], archive(["a_1", "a_2"], ended=5), form="folder")
    events = read_match(open_match(str(folder))).events()
    next(events)
    with open(folder / "events.jsonl", "ab") as out:
        out.write(line(ev(4, 2, "rest", "a_1")) + b"\n")
    with pytest.raises(InputUnreadable, match="changed while being read"):
        list(events)


# ------------------------------------------------------------------ 25. repeated keys


def test_a_repeated_key_in_an_event_is_a_warning_naming_it(tmp_path: Path) -> None:
    rest = line(ev(3, 1, "rest", "a_1"))
    twice = rest[:-1] + b',"tick":900}'
    message = line(ev(4, 2, "message", "a_1", text="note: a\\u003a b", channel="broadcast"))
    hidden = message.replace(b'"channel":"broadcast"', b'"channel":"local","channel":"broadcast"')
    escaped = message.replace(b"note: a\\\\u003a b", b"note\\u003a a")
    deal = line(trade(5, 3, "t1", "a_1", "a_2", {"wood": 2}, {})[0]).replace(b'"wood":2', b'"wood":1,"wood":2')
    escaped, deal = escaped.replace(b'"id":4', b'"id":6'), deal.replace(b'"id":5', b'"id":7')
    path = stream(tmp_path, [*map(line, SPAWNS), twice, hidden, escaped, deal])
    result = validate_targets([str(path)])
    repeated = sorted((p.event_id, p.message) for p in result.files[0].problems if p.code == "repeated-key")
    assert repeated == [(3, "the key 'tick' is repeated in this event; the last value is kept"),
                        (4, "the key 'payload.channel' is repeated in this event; the last value is kept"),
                        (7, "the key 'payload.give.wood' is repeated in this event; the last value is kept")]
    got, _ = read_all(path)
    assert got[2]["tick"] == 900


def test_repeated_keys_in_a_bundle_and_a_header(tmp_path: Path) -> None:
    bundle = write_match(tmp_path, [*SPAWNS, ev(3, 1, "rest", "a_1")], archive(["a_1", "a_2"], ended=5), form="bundle")
    text = bundle.read_bytes().replace(b'"type":"rest"', b'"type":"rest","type":"rest"')
    text = text.replace(b'"endedAtTick":5', b'"endedAtTick":5,"endedAtTick":5')
    bundle.write_bytes(text)
    result = validate_targets([str(bundle)])
    assert [(p.event_id, p.message) for p in result.files[0].problems if p.code == "repeated-key"] == [
        (None, "the key 'archive.endedAtTick' is repeated; the last value is kept"),
        (3, "the key 'type' is repeated in this event; the last value is kept")]


def test_well_formed_events_raise_no_repeated_key_warning() -> None:
    result = validate_targets(["m_demo"])
    assert result.exit_code == 0 and result.files[0].problems == ()


# ------------------------------------------------------------------ all of the above under `ulimit -v`


def _hostile_inputs(tmp_path: Path) -> dict[str, Path]:
    """One input per hostile case of this module, each a match the commands read."""
    attack = ev(3, 2, "attack", "a_2", target="a_1", region="r_0_0", damage=2, witnessed=True, witnesses=["a_1"])
    record = line(ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}))
    rich = archive(["a_1", "a_2"], ended=5)
    for seat in rich["agents"]:
        seat["wealth"] = 1e308
    cases: dict[str, Path] = {
        "float id replayed": stream(tmp_path / "a", [*map(line, SPAWNS), line(attack),
                                                     line(attack).replace(b'"id":3', b'"id":3.0')]),
        "id past 2**64": stream(tmp_path / "b", [*map(line, SPAWNS), line(ev(3, 1, "rest", "a_1")).replace(
            b'"id":3', b'"id":18446744073709551616')]),
        "tick as a float": stream(tmp_path / "c", [*map(line, SPAWNS), line(ev(3, 1, "rest", "a_1")).replace(
            b'"tick":1', b'"tick":1.0')]),
        "one id out of place": stream(tmp_path / "d", [*map(line, SPAWNS), *rests([3, 99999999, 4, 5])]),
        "deep value": stream(tmp_path / "e", [*map(line, SPAWNS), record.replace(
            b'"payload":', b'"payload":{"from": "r_0_0", "to": ' + deep(1000) + b'},"xpayload":', 1)]),
        "payload a list": stream(tmp_path / "f", [*map(line, SPAWNS), line(ev(3, 1, "rest", "a_1")).replace(
            b'"payload":{}', b'"payload":[1,2]')]),
        "wealth 1e308": write_match(tmp_path / "g", [*SPAWNS, ev(3, 1, "rest", "a_1")], rich),
        "repeated key": stream(tmp_path / "h", [*map(line, SPAWNS), line(ev(3, 1, "rest", "a_1"))[:-1] +
                                                b',"tick":2}']),
        "v1 ending with a reset": stream(tmp_path / "i", [v1_line(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                                                          v1_line(2, 4, "rest", "a_1"),
                                                          v1_line(3, 7, "world_reset", None, season=1)]),
    }
    whole = simulated_stream(tmp_path / "j")
    lines = whole.read_bytes().splitlines(keepends=True)
    for name, kept in (("cut at a line", lines[: len(lines) // 2]), ("header only", lines[:1])):
        cut = tmp_path / name.replace(" ", "-") / whole.name
        cut.parent.mkdir()
        cut.write_bytes(b"".join(kept))
        cases[name] = cut
    return cases


HOSTILE_COMMANDS = (("validate",), ("behavior",), ("behavior", "--format", "html"), ("score",), ("screen",))


def test_every_hostile_case_reads_the_same_under_an_address_space_limit(tmp_path: Path) -> None:
    """Each case above, through every command that reads a match, in a process whose address space
    is limited to 2,000,000 KiB (``ulimit -v 2000000``): the exit codes are those of an unlimited
    run, each one of the README's table for its meaning (never 70, an internal error), and no
    output holds a traceback."""
    cases = {name: str(path) for name, path in _hostile_inputs(tmp_path).items()}
    driver = f"""
        import json, sys
        from click.testing import CliRunner
        from daishi_forensics.cli import main
        out = {{}}
        for name, path in json.loads(sys.argv[1]).items():
            for command in {HOSTILE_COMMANDS!r}:
                args = [*command, path] if "--format" in command else [*command, path, "--format", "json"]
                run = CliRunner().invoke(main, args)
                failed = run.exception if not isinstance(run.exception, SystemExit) else None
                out[name + ": " + " ".join(command)] = [run.exit_code, type(failed).__name__ if failed else None,
                                                        "Traceback" in run.output]
        print(json.dumps(out))
    """

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2_000_000 * 1024, 2_000_000 * 1024))

    run = subprocess.run([sys.executable, "-c", textwrap.dedent(driver), json.dumps(cases)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=900, preexec_fn=limit)
    assert run.returncode == 0, run.stderr
    limited = json.loads(run.stdout)
    unlimited = {}
    for name, path in cases.items():
        for command in HOSTILE_COMMANDS:
            args = [*command, path] if "--format" in command else [*command, path, "--format", "json"]
            result = cli(args)
            assert "Traceback" not in result.output, (name, command)
            unlimited[f"{name}: {' '.join(command)}"] = [result.exit_code, None, False]
    assert limited == unlimited
    assert {code for code, _, _ in limited.values()} <= {0, 1, 3}
    # the cases whose meaning is plain: a finding (1) for each reading command
    for name in ("float id replayed", "id past 2**64", "one id out of place", "cut at a line", "header only"):
        assert limited[f"{name}: validate"][0] == 1 and limited[f"{name}: behavior"][0] == 1
    assert limited["tick as a float: validate"][0] == 0


# ------------------------------------------------------------------ records without a usable type, v1/v2 texts


@pytest.mark.parametrize("kind", [b'""', b"null", b"5"])
def test_a_record_without_a_usable_type_sets_off_no_truncation(tmp_path: Path, kind: bytes) -> None:
    """An empty type is no type: like a null or numeric one, it could be any type, so the gather the
    archive counts may be this record (no "truncated" error), and it is counted under ``?``."""
    gather = line(ev(3, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=1))
    broken = gather.replace(b'"type":"gather"', b'"type":' + kind)
    arch = archive(["a_1", "a_2"], ended=10, metrics={"a_1": {"gather": 1}})
    path = stream(tmp_path, [*map(line, SPAWNS), broken], arch)
    result = validate_targets([str(path)])
    said = {b'""': "'' should be non-empty", b"null": "null is not of type 'string'",
            b"5": "5 is not of type 'string'"}[kind]
    assert [(p.code, p.path, p.message) for p in errors(result)] == [("schema", "$.type", said)]
    _, read = read_all(path)
    assert read.stats.by_type["?"] == 1 and "" not in read.stats.by_type and read.stats.truncated == ()


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize(("text", "said"), [(None, ("$.payload", "'text' is a required property")),
                                            (5, ("$.payload.text", "5 is not of type 'string'"))])
def test_a_v1_v2_message_without_a_text_is_told_of_the_text_alone(tmp_path: Path, version: int, text: Any,
                                                                    said: tuple[str, str]) -> None:
    """v1 and v2 messages carry no sha256 (the upcast computes it from the text): a missing or
    non-string text is said once, with no "'sha256' is a required property" beside it."""
    events = [*SPAWNS, ev(3, 1, "message", "a_1", text="hello", channel="broadcast")]
    path = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=10), version=version)
    stored = path.read_bytes().splitlines()
    message = orjson.loads(stored[3])
    if text is None:
        del message["payload"]["text"]
    else:
        message["payload"]["text"] = text
    path.write_bytes(b"\n".join([*stored[:3], orjson.dumps(message)]) + b"\n")
    result = validate_targets([str(path)])
    assert [(p.event_id, p.path, p.message) for p in errors(result)] == [(3, *said)]


# ------------------------------------------------------------------ lone surrogate escapes


def sha256_hex(data: bytes) -> str:
    return sha256(data).hexdigest()


def _cut_message(digest: str | None) -> bytes:
    """A message whose text ends in a lone high surrogate escape, as JavaScript writes a string cut
    inside an emoji; ``digest`` its sha256 (None: the message's as built, of another text)."""
    event = ev(3, 1, "message", "a_1", text="cut here X", channel="broadcast")
    if digest is not None:
        event["payload"]["sha256"] = digest
    return line(event).replace(b"cut here X", b"cut here \\ud83d")


@pytest.mark.parametrize("digest", [
    sha256_hex("cut here \ud83d".encode("utf-8", "surrogatepass")),  # the code points as written
    sha256_hex("cut here \ufffd".encode()),  # the text as read (a JavaScript server's UTF-8 bytes)
])
def test_a_lone_surrogate_escape_is_read_as_u_fffd_and_said(tmp_path: Path, digest: str) -> None:
    path = stream(tmp_path, [*map(line, SPAWNS), _cut_message(digest), *rests([4])])
    result = validate_targets([str(path)])
    assert result.exit_code == 0
    assert [(p.severity, p.code, p.event_id, p.line, p.path, p.message) for p in result.files[0].problems] == [
        ("warning", "surrogate", 3, 4, "$.payload.text", "this string holds a lone surrogate escape (\\ud83d), "
         "which is no character (half of a pair: a text cut inside an emoji); read as U+FFFD")]
    got, read = read_all(path)
    assert [e["id"] for e in got] == [1, 2, 3, 4] and got[2]["payload"]["text"] == "cut here \ufffd"
    assert (read.stats.valid, read.stats.invalid) == (4, 0)


@pytest.mark.parametrize("levels", [10, 1000, 1022])
def test_a_lone_surrogate_escape_nested_as_deep_as_json_goes_is_still_a_warning(tmp_path: Path, levels: int) -> None:
    """A lone surrogate in a list 1,000 deep (orjson reads 1,024 levels) made the record 'not valid JSON: no
    low surrogate in string' (an error, exit 1): the standard library's reader, which keeps the escape, ran
    out of Python's recursion limit, so the verdict hung on how deep the call stack already was; it is now
    the warning (exit 0) it is at any depth orjson reads."""
    event = line(ev(3, 1, "rest", "a_1")).replace(b'"payload":{}', b'"payload":{"x":' + b"[" * levels + b'"\\ud83d"'
                                                     + b"]" * levels + b"}", 1)
    path = stream(tmp_path, [*map(line, SPAWNS), event, *rests([4])])
    result = validate_targets([str(path)])
    assert result.exit_code == 0
    assert [(p.severity, p.code, p.event_id, p.line, p.path[:14]) for p in result.files[0].problems] == [
        ("warning", "surrogate", 3, 4, "$.payload.x[0]")]


def test_a_lone_surrogate_escape_nested_past_what_orjson_reads_is_nested_too_deeply(tmp_path: Path) -> None:
    """1,025 levels in all (the record, its payload, 1,023 lists): refused as without the escape."""
    event = line(ev(3, 1, "rest", "a_1")).replace(b'"payload":{}', b'"payload":{"x":' + b"[" * 1023 + b'"\\ud83d"'
                                                     + b"]" * 1023 + b"}", 1)
    path = stream(tmp_path, [*map(line, SPAWNS), event, *rests([4])])
    result = validate_targets([str(path)])
    assert result.exit_code == 1
    assert [(p.code, p.line, p.message) for p in result.files[0].problems] == [
        ("json", 4, "not valid JSON: nested too deeply (over 1024 levels)")]


def test_a_lone_surrogate_escape_keeps_the_usual_rules(tmp_path: Path) -> None:
    """Read as U+FFFD, the event is still checked: a hash of neither form is refused (with its event
    id), and a line that is not JSON for another reason too stays "not valid JSON"."""
    nan = _cut_message(None).replace(b'"tick":1', b'"tick":NaN')
    path = stream(tmp_path, [*map(line, SPAWNS), _cut_message("0" * 64), nan])
    result = validate_targets([str(path)])
    assert [(p.code, p.event_id, p.line, p.path) for p in errors(result)] == [
        ("sha256", 3, 4, "$.payload.sha256"), ("json", None, 5, "$")]
    assert [p.code for p in result.files[0].problems if p.severity == "warning"] == ["surrogate"]
    assert errors(result)[1].message.startswith("not valid JSON: ")


def test_a_lone_surrogate_escape_in_a_v1_message_is_read_on(tmp_path: Path) -> None:
    """v1: the upcast hashes the text as read; the season slicing gets the stored record."""
    cut = v1_line(3, 1, "message", "a_1", text="cut here X", channel="broadcast")
    cut = cut.replace(b"cut here X", b"cut here \\udc00")
    path = stream(tmp_path, [v1_line(1, 0, "agent_spawned", "a_1", region="r_0_0"), cut])
    result = validate_targets([str(path)])
    assert result.exit_code == 0 and [p.code for p in result.files[0].problems] == ["surrogate"]
    got, _ = read_all(path)
    assert got[1]["payload"] == {"text": "cut here \ufffd", "channel": "broadcast",
                                 "sha256": sha256_hex("cut here \ufffd".encode())}


# ------------------------------------------------------------------ numbers a double does not show as written


def test_a_number_a_double_cannot_show_is_quoted_as_written(tmp_path: Path) -> None:
    huge = line(ev(3, 1, "rest", "a_1")).replace(b'"id":3', b'"id":18446744073709551616')
    gather = line(ev(4, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=1))
    gather = gather.replace(b'"gathered":1', b'"gathered":9007199254740993.0')
    path = stream(tmp_path, [*map(line, SPAWNS), huge, gather])
    result = validate_targets([str(path)])
    assert [(p.code, p.line, p.path, p.message) for p in errors(result)] == [
        ("integer-range", 4, "$.id", "18446744073709551616 (as written in the file; read as 1.8446744073709552e+19) "
         "is past 2**53: an integer this large cannot be read exactly"),
        ("integer-range", 5, "$.payload.gathered", "9007199254740993.0 (as written in the file; read as "
         "9007199254740992.0) is past 2**53: an integer this large cannot be read exactly")]
