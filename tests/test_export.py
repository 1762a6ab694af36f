"""The Parquet export (issue 6, part 4): exact row counts in DuckDB and pyarrow, privacy, scrubbing.

Match A (v3 stream, 3 seats, 10 events): three spawns in r_0_0, a broadcast holding an
e-mail address and an API key, a private message a_1 -> a_2, a trade a_1 -> a_2 (two
events), an attack a_1 witnessed, a move, a local message.  Match B (v2 bundle, 2
seats, 3 stored records): two spawns and one v2 ``trade_completed``, which the read
boundary upcasts into two events (the acceptor's and the synthesized offerer's).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main
from daishi_forensics.batch.export import EVENT_SCHEMA, export_parquet

from .matchkit import archive, ev, trade, write_match

A, B = "m_e4a000000001", "m_e4a000000002"
EMAIL = "bob.trader@example.com"
KEY = "sk-proj-Zx81kQ2mWv7RtY4nB6pL0sDf3GhJ"
PRIVATE_TEXT = "psst a_2, meet me in r_0_1"


def _with_id(events: list[dict[str, Any]], match_id: str) -> list[dict[str, Any]]:
    for e in events:
        e["matchId"] = match_id
    return events


def build(directory: Path) -> tuple[Path, Path]:
    a_events = _with_id([
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 0, "agent_spawned", "a_3", region="r_0_0"),
        ev(4, 1, "message", "a_3", channel="broadcast", text=f"mail {EMAIL}, key {KEY}"),
        ev(5, 1, "message_private", "a_1", to="a_2", text=PRIVATE_TEXT),
        *trade(6, 2, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1}),
        ev(8, 3, "attack", "a_2", target="a_3", region="r_0_0", damage=4, witnessed=True, witnesses=["a_1"]),
        ev(9, 4, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
        ev(10, 5, "message", "a_2", channel="local", text="hello"),
    ], A)
    a_path = write_match(directory, a_events, archive(["a_1", "a_2", "a_3"], ended=10, matchId=A))
    b_events = _with_id([
        ev(1, 0, "agent_spawned", "a_1", region="r_2_2"),
        ev(2, 0, "agent_spawned", "a_2", region="r_2_2"),
        *trade(3, 1, "t9", "a_2", "a_1", {"stone": 2}, {"wood": 1}),
    ], B)
    b_path = write_match(directory, b_events, archive(["a_1", "a_2"], ended=10, matchId=B), form="bundle", version=2)
    return a_path, b_path


@pytest.fixture()
def matches(tmp_path: Path) -> tuple[Path, Path]:
    return build(tmp_path / "matches")


def sql(query: str) -> list[tuple[Any, ...]]:
    return duckdb.sql(query).fetchall()  # type: ignore[no-any-return]


def test_tables_open_in_duckdb_and_pyarrow_with_exact_rows(matches: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "lake"
    result = export_parquet([str(p) for p in matches], out, batch_rows=3)
    assert result.exit_code == exitcodes.OK
    assert [(m.match_id, m.events, m.seats, m.pairs, m.private_left_out) for m in result.matches] == [
        (A, 9, 3, 3, 1), (B, 4, 2, 1, 0)]
    events = f"read_parquet('{out}/events/*/*.parquet', hive_partitioning=true)"
    assert sql(f"SELECT match_id, count(*) FROM {events} GROUP BY 1 ORDER BY 1") == [(A, 9), (B, 4)]
    assert sql(f"SELECT count(*) FROM {events} WHERE type = 'message_private' OR private") == [(0,)]
    assert sql(f"SELECT count(*) FROM {events} WHERE payload LIKE '%meet me%'") == [(0,)]
    # flattened payload columns
    assert sql(f"SELECT tradeId, tradeFrom, tradeTo, give, receive FROM {events} "
               f"WHERE match_id = '{A}' AND type = 'trade_completed' ORDER BY agentId") == [
        ("t1", "a_1", "a_2", '{"wood":3}', '{"food":1}')] * 2
    assert sql(f"SELECT moveFrom, moveTo FROM {events} WHERE type = 'move'") == [("r_0_0", "r_0_1")]
    assert sql(f"SELECT target, damage, witnessed, witnesses FROM {events} WHERE type = 'attack'") == [
        ("a_3", 4.0, True, ["a_1"])]
    assert sql(f"SELECT channel, text FROM {events} WHERE type = 'message' ORDER BY id") [1] == ("local", "hello")
    # v2 upcast: the trade's two events, the offerer's synthesized, and the path each took
    assert sql(f"SELECT id, agentId, upcast, upcastPath FROM {events} "
               f"WHERE match_id = '{B}' AND type = 'trade_completed' ORDER BY agentId") == [
        (3, "a_1", None, [2, 3]), (3, "a_2", "offerer", [2, 3])]
    seats = f"read_parquet('{out}/seats/*/*.parquet', hive_partitioning=true)"
    assert sql(f"SELECT match_id, agentId, seat, completedTrades FROM {seats} ORDER BY 1, 2") == [
        (A, "a_1", 1, 1), (A, "a_2", 2, 1), (A, "a_3", 3, 0), (B, "a_1", 1, 1), (B, "a_2", 2, 1)]
    pairs = f"read_parquet('{out}/pairs/*/*.parquet', hive_partitioning=true)"
    assert sql(f"SELECT a, b, trades, valueAGave, valueBGave, events FROM {pairs} "
               f"WHERE match_id = '{A}' AND trades > 0") == [("a_1", "a_2", 1, 6.0, 2.0, [6, 7])]
    assert sql(f"SELECT count(*), sum(ticksTogether > 0::INT) FROM {pairs} WHERE match_id = '{A}'") == [(3, 3)]

    # pyarrow, as pandas.read_parquet(DIR) reads it: one dataset per table, match_id a column
    table = ds.dataset(out / "events", partitioning="hive").to_table()
    assert table.num_rows == 13
    assert sorted(set(table.column("match_id").to_pylist())) == [A, B]
    assert ds.dataset(out / "seats", partitioning="hive").count_rows() == 5
    assert ds.dataset(out / "pairs", partitioning="hive").count_rows() == 4
    # streamed in record batches of 3 rows: 9 events -> 3 row groups
    events_a = pq.ParquetFile(out / "events" / f"match_id={A}" / "part-0.parquet")
    assert events_a.metadata.num_row_groups == math.ceil(9 / 3)
    assert events_a.schema_arrow.metadata[b"daishi_forensics.batch.exportVersion"] == b"1"
    assert events_a.schema_arrow.remove_metadata() == EVENT_SCHEMA
    assert not list(out.rglob("*.tmp"))


def test_text_is_scrubbed_unless_asked_not_to(matches: tuple[Path, Path], tmp_path: Path) -> None:
    export_parquet([str(matches[0])], tmp_path / "scrubbed")
    text, payload = sql(f"SELECT text, payload FROM read_parquet('{tmp_path}/scrubbed/events/*/*.parquet') "
                        "WHERE channel = 'broadcast'")[0]
    for column in (text, orjson.loads(payload)["text"]):
        assert EMAIL not in column and KEY not in column and "<EMAIL_ADDRESS>" in column
    export_parquet([str(matches[0])], tmp_path / "raw", scrub=False)
    assert sql(f"SELECT text FROM read_parquet('{tmp_path}/raw/events/*/*.parquet') WHERE channel = 'broadcast'") == [
        (f"mail {EMAIL}, key {KEY}",)]


def test_private_messages_only_when_asked(matches: tuple[Path, Path], tmp_path: Path) -> None:
    result = export_parquet([str(matches[0])], tmp_path / "all", include_private=True, scrub=False)
    assert (result.matches[0].events, result.matches[0].private_left_out) == (10, 0)
    assert sql(f"SELECT agentId, messageTo, text, private FROM read_parquet('{tmp_path}/all/events/*/*.parquet') "
               "WHERE type = 'message_private'") == [("a_1", "a_2", PRIVATE_TEXT, True)]


def test_cli_reexport_replaces_and_unreadable_is_exit_3(matches: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "lake"
    bad = tmp_path / "matches" / "m_e4a0000000ff.jsonl"
    bad.write_bytes(b"")
    runner = CliRunner()
    first = runner.invoke(main, ["export", str(tmp_path / "matches"), "--parquet", str(out)])
    assert first.exit_code == exitcodes.UNREADABLE
    assert f"{A}: 9 events (1 private left out), 3 seats, 3 pairs" in first.stdout
    assert "m_e4a0000000ff.jsonl" in first.stderr and "empty" in first.stderr
    again = runner.invoke(main, ["export", str(matches[0]), "--parquet", str(out), "-q"])
    assert (again.exit_code, again.stdout) == (exitcodes.OK, "")
    assert sql(f"SELECT match_id, count(*) FROM read_parquet('{out}/events/*/*.parquet', hive_partitioning=true) "
               "GROUP BY 1 ORDER BY 1") == [(A, 9), (B, 4)]
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(
        f"{t}/match_id={m}/part-0.parquet" for t in ("events", "seats", "pairs") for m in (A, B))


def test_a_match_that_breaks_half_way_leaves_nothing(tmp_path: Path) -> None:
    events = _with_id([ev(i, i, "gather", "a_1", region="r_0_0", resource="wood", gathered=1)
                       for i in range(1, 12_000)], A)
    path = write_match(tmp_path / "m", events, archive(["a_1"], ended=12_000, matchId=A), form="stream-gz")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])  # the header reads; the events break off after 1 MiB
    result = export_parquet([str(path)], tmp_path / "lake", batch_rows=1000)
    (done,) = result.matches
    assert done.exit_code == exitcodes.UNREADABLE and "gzip" in (done.error or "")
    assert [p for p in (tmp_path / "lake").rglob("*") if p.is_file()] == []
    assert not (tmp_path / "lake" / "events" / f"match_id={A}").exists()


AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


@pytest.mark.parametrize(("text", "exported"), [
    (f"aws_secret_access_key={AWS_SECRET}", "<API_KEY>"),
    (f'export AWS_SECRET_ACCESS_KEY="{AWS_SECRET}" now', 'export <API_KEY>" now'),
    (f"aws AKIAIOSFODNN7EXAMPLE secret {AWS_SECRET}", "aws <API_KEY> secret <API_KEY>"),
])
def test_an_aws_secret_key_is_scrubbed_and_the_hash_is_of_the_text_exported(tmp_path: Path, text: str,
                                                                             exported: str) -> None:
    import hashlib

    events = _with_id([ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                       ev(2, 1, "message", "a_1", channel="broadcast", text=text),
                       ev(3, 2, "message", "a_1", channel="broadcast", text="plain hello")], A)
    path = write_match(tmp_path / "m", events, archive(["a_1"], ended=10, matchId=A))
    export_parquet([str(path)], tmp_path / "lake")
    rows = sql(f"SELECT text, sha256, payload FROM read_parquet('{tmp_path}/lake/events/*/*.parquet') "
               "WHERE type = 'message' ORDER BY id")
    (got, digest, payload), (plain, plain_digest, _) = rows
    assert got == exported and AWS_SECRET not in payload
    # the hash is of what was exported (a hash of the secret would confirm a guess at it), in the column and payload
    assert digest == hashlib.sha256(exported.encode()).hexdigest() == orjson.loads(payload)["sha256"]
    assert digest != hashlib.sha256(text.encode()).hexdigest()
    # a text the scrubbing leaves alone keeps the log's hash (the same thing)
    assert (plain, plain_digest) == ("plain hello", hashlib.sha256(b"plain hello").hexdigest())
    export_parquet([str(path)], tmp_path / "raw", scrub=False)
    assert sql(f"SELECT text, sha256 FROM read_parquet('{tmp_path}/raw/events/*/*.parquet') WHERE id = 2") == [
        (text, hashlib.sha256(text.encode()).hexdigest())]


def _with_invalid(directory: Path, match_id: str = A) -> Path:
    events = _with_id([ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                       ev(2, 1, "agent_spawned", "a_2", region="r_0_0"),
                       ev(3, 2, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"})], match_id)
    events[2]["payload"] = None  # an invalid record: not an event of the match
    return write_match(directory, events, archive(["a_1", "a_2"], ended=10, matchId=match_id))


@pytest.mark.parametrize("quiet", [False, True])
def test_invalid_records_are_counted_on_stderr_with_what_to_do(tmp_path: Path, quiet: bool) -> None:
    path = _with_invalid(tmp_path / "m")
    result = CliRunner().invoke(main, ["export", str(path), "--parquet", str(tmp_path / "lake"),
                                       *(["-q"] if quiet else [])])
    assert result.exit_code == exitcodes.FINDINGS
    assert result.stderr == (f"daishi-forensics: warning: {path}: 1 invalid record left out of the export (not events "
                             f"of the match): daishi-forensics validate {path} lists each with its line and field\n")
    assert result.stdout == ("" if quiet else f"{A}: 2 events, 2 seats, 1 pairs\nwrote {tmp_path / 'lake'}/events, "
                                              "seats, pairs\n")


def test_an_empty_folder_among_targets_is_an_error_and_the_others_are_exported(
        matches: tuple[Path, Path], tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["export", str(empty), str(matches[0]), "--parquet", str(tmp_path / "lake"),
                                       "-q"])
    assert (result.exit_code, result.stdout) == (exitcodes.UNREADABLE, "")
    assert result.stderr == f"daishi-forensics: error: no matches in {empty} (the other targets are exported)\n"
    assert (tmp_path / "lake" / "events" / f"match_id={A}" / "part-0.parquet").is_file()
    alone = CliRunner().invoke(main, ["export", str(empty), "--parquet", str(tmp_path / "lake2")])
    assert (alone.exit_code, alone.stderr) == (exitcodes.UNREADABLE, f"daishi-forensics: error: no matches in {empty}\n")


def test_parquet_naming_a_file_is_an_output_error(matches: tuple[Path, Path], tmp_path: Path) -> None:
    target = tmp_path / "afile"
    target.write_bytes(b"keep")
    result = CliRunner().invoke(main, ["export", str(matches[0]), "--parquet", str(target)])
    assert result.exit_code == exitcodes.OUTPUT == 74
    assert result.stderr == (f"daishi-forensics: error: {target}: not a folder (--parquet names the folder the "
                             "tables are written to)\n")
    assert target.read_bytes() == b"keep"


def test_temp_files_stay_out_of_the_tables_and_a_killed_export_s_are_cleared(matches: tuple[Path, Path],
                                                                            tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    out = tmp_path / "lake"
    export_parquet([str(matches[0])], out)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    dead = int(gone.stdout)  # a process that has ended: what a killed export was
    partition = out / "events" / f"match_id={A}"
    stale = [out / ".export-tmp" / f"part-0.parquet.{dead}.0123456789ab.tmp",
             partition / f".part-0.parquet.{dead}.0123456789ab.tmp"]  # where an earlier version wrote it
    (out / ".export-tmp").mkdir()
    for path in stale:
        path.write_bytes(b"PAR1 half written")
    live = out / ".export-tmp" / f"part-0.parquet.{os.getpid()}.ba9876543210.tmp"  # an export still at work
    live.write_bytes(b"PAR1")
    with pytest.raises(duckdb.Error):  # what a killed export's leftover did to a glob over the table
        sql(f"SELECT count(*) FROM read_parquet('{out}/events/**')")
    result = export_parquet([str(matches[1])], out)
    assert result.exit_code == exitcodes.OK
    assert [p.exists() for p in stale] == [False, False] and live.exists()
    assert sql(f"SELECT count(*) FROM read_parquet('{out}/events/**')") == [(13,)]
    live.unlink()
    export_parquet([str(matches[1])], out)
    assert not (out / ".export-tmp").exists()


def test_integers_beyond_64_bits_are_kept_with_every_digit_in_payload(tmp_path: Path) -> None:
    big, neg, nested = 123456789012345678901234567890, -99999999999999999999999, 2**70
    events = _with_id([ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                       ev(2, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1", "note": "BIG_A"}),
                       ev(3, 2, "custom_thing", "a_1", big="BIG_A", neg="BIG_B", deep={"n": ["BIG_C", 7]},
                          quantity="BIG_A"),
                       ev(4, 3, "custom_thing", "a_1", wide=2**64 - 1, small=12)], A)
    path = write_match(tmp_path / "m", events, archive(["a_1"], ended=10, matchId=A))
    data = path.read_bytes()
    for name, value in (("BIG_A", big), ("BIG_B", neg), ("BIG_C", nested)):
        data = data.replace(f'"{name}"'.encode(), str(value).encode())
    path.write_bytes(data)
    export_parquet([str(path)], tmp_path / "lake")
    rows = sql(f"SELECT id, quantity, payload FROM read_parquet('{tmp_path}/lake/events/*/*.parquet') "
               "WHERE id >= 2 ORDER BY id")
    assert rows == [
        (2, None, f'{{"from":"r_0_0","note":{big},"to":"r_0_1"}}'),
        (3, None, f'{{"big":{big},"deep":{{"n":[{nested},7]}},"neg":{neg},"quantity":{big}}}'),
        (4, None, f'{{"small":12,"wide":{2**64 - 1}}}'),
    ]


def test_clearing_leftovers_touches_only_a_dead_export_s_temp_files(tmp_path: Path) -> None:
    import fcntl
    import os
    import subprocess
    import sys

    from daishi_forensics.batch.export import _drop_if_empty, _tmp_in, clean_stale_tmp

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    dead = int(gone.stdout)
    out = tmp_path / "lake"
    tmp = out / ".export-tmp"
    tmp.mkdir(parents=True)
    (out / "events" / "notes").mkdir(parents=True)
    (out / "events" / f"match_id={A}").mkdir()
    stale = tmp / f"part-0.parquet.{dead}.0123456789ab.tmp"
    old_stale = out / "events" / f"match_id={A}" / f".part-0.parquet.{dead}.0123456789ab.tmp"
    # a user's files, named like temp files but never written so by an export: left alone
    mine = [out / "events" / "notes" / f".part-0.parquet.{dead}.0123456789ab.tmp",
            out / "events" / f"match_id={A}" / f"part-0.parquet.{dead}.0123456789ab.tmp",
            tmp / f".part-0.parquet.{dead}.0123456789ab.tmp",
            tmp / f"part-0.parquet.{dead}.0123456789ab.tmp.bak",
            out / f"part-0.parquet.{dead}.0123456789ab.tmp"]
    # a file another export holds the lock of (on another machine sharing the folder: its process id means
    # nothing here)
    held = tmp / f"part-0.parquet.{dead}.fedcba987654.tmp"
    for path in [stale, old_stale, *mine, held]:
        path.write_bytes(b"PAR1")
    lock = os.open(held, os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        assert clean_stale_tmp(out) == 2
    finally:
        os.close(lock)
    assert (stale.exists(), old_stale.exists(), held.exists()) == (False, False, True)
    assert all(p.read_bytes() == b"PAR1" for p in mine)
    assert clean_stale_tmp(out) == 1 and not held.exists()  # its lock let go: a leftover now
    # a temp file is there from the start: another export emptying the folder cannot remove it under it
    for path in mine:
        path.unlink()
    path, fd = _tmp_in(out)
    try:
        _drop_if_empty(tmp)
        assert path.exists() and clean_stale_tmp(out) == 0  # this process is alive and holds the lock
    finally:
        if fd is not None:
            os.close(fd)
        path.unlink()


def test_integers_beyond_64_bits_survive_the_upcast_of_a_v1_message(tmp_path: Path) -> None:
    # a v1 message has no sha256 (the upcast adds it) and a v1 direct message becomes message_private: the payload
    # as exported differs from the line's, and the integer was exported as 1.2345678901234568e+29
    big = 123456789012345678901234567890
    events = _with_id([ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                       ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
                       ev(3, 1, "message", "a_1", channel="broadcast", text="hello", note="BIG_A"),
                       ev(4, 2, "message_private", "a_1", to="a_2", text="psst", note=["BIG_A", 1])], A)
    path = write_match(tmp_path / "m", events, archive(["a_1", "a_2"], ended=10, matchId=A), version=1)
    path.write_bytes(path.read_bytes().replace(b'"BIG_A"', str(big).encode()))
    export_parquet([str(path)], tmp_path / "lake", include_private=True)
    rows = sql(f"SELECT id, type, payload FROM read_parquet('{tmp_path}/lake/events/*/*.parquet') "
               "WHERE id >= 3 ORDER BY id")
    assert [(i, t) for i, t, _ in rows] == [(3, "message"), (4, "message_private")]
    assert [orjson.loads(p.replace(str(big), '"BIG"'))["note"] for _, _, p in rows] == ["BIG", ["BIG", 1]]
    assert f'"note":{big},' in rows[0][2] and f'"note":[{big},1],' in rows[1][2]


@pytest.mark.parametrize(("exit_zero", "with_empty", "why", "code"), [
    (False, False, " (exit 1; --exit-zero makes it 0)", 1),
    (True, False, " (exit 0: --exit-zero)", 0),
    (False, True, "", 3),  # the exit is another error's (a folder holding no match), not the invalid records'
])
def test_the_invalid_records_summary_states_the_exit_there_is(tmp_path: Path, exit_zero: bool, with_empty: bool,
                                                              why: str, code: int) -> None:
    first, second = _with_invalid(tmp_path / "m1"), _with_invalid(tmp_path / "m2", "m_00000000000b")
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, [*(["--exit-zero"] if exit_zero else []), "export", str(first), str(second),
                                       *([str(empty)] if with_empty else []), "--parquet", str(tmp_path / "lake"),
                                       "-q"])
    assert result.exit_code == code
    assert result.stderr.splitlines()[-1] == ("daishi-forensics: warning: 2 invalid records in 2 of 2 matches "
                                              f"left out of the export{why}")


def _new_a(directory: Path) -> Path:
    """Match A exported again after a change: two seats, four events (the first export: three, nine)."""
    events = _with_id([ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                       ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
                       ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
                       ev(4, 2, "move", "a_2", **{"from": "r_0_0", "to": "r_1_0"})], A)
    return write_match(directory, events, archive(["a_1", "a_2"], ended=10, matchId=A))


def _rows_of_a(out: Path) -> list[int]:
    return [sql(f"SELECT count(*) FROM read_parquet('{out}/{t}/match_id={A}/part-0.parquet')")[0][0]
            for t in ("events", "seats", "pairs")]


def _files(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())


def test_an_export_killed_between_two_tables_is_finished_by_the_next(matches: tuple[Path, Path],
                                                                       tmp_path: Path) -> None:
    """Killed after the events table was renamed into place and before the seats table, an export used to
    leave match A's new events beside its old seats and pairs, for good."""
    import subprocess
    import sys

    out = tmp_path / "lake"
    export_parquet([str(matches[0])], out)
    assert _rows_of_a(out) == [9, 3, 3]
    new = _new_a(tmp_path / "new")
    script = ("import os, sys\n"
              "from pathlib import Path\n"
              "from daishi_forensics.batch import export\n"
              "swapped = []\n"
              "def swap(a, b):\n"
              "    if swapped:\n"
              "        os._exit(9)  # killed between the first table and the second\n"
              "    swapped.append(b)\n"
              "    os.replace(a, b)\n"
              "export._swap = swap\n"
              "export.export_parquet([sys.argv[1]], Path(sys.argv[2]))\n")
    killed = subprocess.run([sys.executable, "-c", script, str(new), str(out)], capture_output=True, text=True)
    assert killed.returncode == 9, killed.stderr
    assert _rows_of_a(out) == [4, 3, 3]  # the mix a kill leaves, until the next export to the folder
    (record,) = (out / ".export-tmp").glob("commit.*.json")
    assert orjson.loads(record.read_bytes())["replace"][1][1] == f"seats/match_id={A}/part-0.parquet"
    assert export_parquet([str(matches[1])], out).exit_code == exitcodes.OK
    assert _rows_of_a(out) == [4, 2, 1]
    assert _files(out) == sorted(f"{t}/match_id={m}/part-0.parquet" for t in ("events", "seats", "pairs")
                                 for m in (A, B))


def test_an_export_failing_between_two_tables_is_finished_by_the_next(matches: tuple[Path, Path],
                                                                        tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from daishi_forensics.batch import export

    out = tmp_path / "lake"
    export_parquet([str(matches[0])], out)
    calls: list[Path] = []

    def swap(source: Path, target: Path) -> None:
        calls.append(target)
        if len(calls) == 3:  # the pairs table, after events and seats
            raise OSError(28, "No space left on device")
        os.replace(source, target)

    monkeypatch.setattr(export, "_swap", swap)
    cli = CliRunner().invoke(main, ["export", str(_new_a(tmp_path / "new")), "--parquet", str(out), "-q"])
    assert cli.exit_code == exitcodes.OUTPUT
    assert cli.stderr == f"daishi-forensics: error: {out}: cannot write the tables (No space left on device)\n"
    assert _rows_of_a(out) == [4, 2, 3]
    monkeypatch.setattr(export, "_swap", os.replace)
    assert export_parquet([str(matches[1])], out).exit_code == exitcodes.OK
    assert _rows_of_a(out) == [4, 2, 1]
    assert not (out / ".export-tmp").exists()


def test_a_commit_record_naming_anything_else_moves_nothing(tmp_path: Path) -> None:
    import subprocess
    import sys

    from daishi_forensics.batch.export import finish_replacements

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    dead = int(gone.stdout)
    out = tmp_path / "lake"
    tmp = out / ".export-tmp"
    tmp.mkdir(parents=True)
    leftover = tmp / f"part-0.parquet.{dead}.0123456789ab.tmp"
    leftover.write_bytes(b"PAR1")
    for n, moves in enumerate([[[leftover.name, "../outside.parquet"]], [[leftover.name, "events/x/part-0.parquet"]],
                               "x"]):
        (tmp / f"commit.{dead}.00000000000{n}.json").write_bytes(orjson.dumps({"replace": moves}))
    (tmp / f"commit.{dead}.0000000000ff.json.part").write_bytes(b'{"repl')
    assert finish_replacements(out) == 0
    assert sorted(p.name for p in tmp.iterdir()) == [leftover.name]
    assert not (tmp_path / "outside.parquet").exists() and not (out / "events").exists()


@pytest.mark.parametrize("quiet", [False, True])
def test_a_truncated_log_is_said_on_stderr_and_is_exit_1(tmp_path: Path, quiet: bool) -> None:
    # a log that ends before its archive says the match did (an agent dead at tick 40, the log ending at tick 5)
    # was exported with exit 0 and no word, where validate, score, screen and propagation exit 1 and say so
    arch = archive(["a_1", "a_2"], ended=50, matchId=A)
    arch["agents"][1]["diedAtTick"] = 40
    arch["agents"][1]["status"] = "dead"
    events = _with_id([ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
                       ev(2, 0, "agent_spawned", "a_2", region="r_0_0"), ev(3, 5, "rest", "a_1")], A)
    path = write_match(tmp_path / "m", events, arch)
    result = CliRunner().invoke(main, ["export", str(path), "--parquet", str(tmp_path / "lake"),
                                       *(["-q"] if quiet else [])])
    assert result.exit_code == exitcodes.FINDINGS
    assert result.stderr == (f"daishi-forensics: warning: {path}: the log is truncated: the archive says 'a_2' died "
                             "at tick 40, but the log ends at tick 5; exported as it is, without what it no longer "
                             "holds\n")
    assert result.stdout == ("" if quiet else f"{A}: 3 events, 2 seats, 1 pairs\nwrote {tmp_path / 'lake'}/events, "
                                              "seats, pairs\n")
    assert (tmp_path / "lake" / "events" / f"match_id={A}" / "part-0.parquet").is_file()
    text = " ".join(CliRunner().invoke(main, ["export", "--help"], terminal_width=100).output.split())
    assert "or its log is truncated (the archive says more happened than it holds; said on stderr)" in text
