"""Many matches, partial failure: one match id per simulation, one partition per match, a
resume that can be told to read every byte, a cluster nobody answers at, a byte-order mark."""

from __future__ import annotations

import codecs
import gzip
import os
from pathlib import Path

import dask.config
import distributed  # noqa: F401 (its configuration's defaults loaded before a test sets one of them: see below)
import orjson
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.batch.season import expand_targets, run_season
from daishi_forensics.cli import main
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.simulate import simulate_match

from .matchkit import archive, ev, write_match


def test_simulated_match_ids_depend_on_every_parameter() -> None:
    base = simulate_match("clean", 1, n_agents=4, ticks=5).match_id
    assert simulate_match("clean", 1, n_agents=4, ticks=5).match_id == base
    others = {simulate_match("clean", 1, n_agents=5, ticks=5).match_id,
              simulate_match("clean", 1, n_agents=4, ticks=6).match_id,
              simulate_match("clean", 1, n_agents=4, ticks=5, width=13).match_id,
              simulate_match("clean", 2, n_agents=4, ticks=5).match_id}
    assert base not in others and len(others) == 4


def test_export_refuses_two_targets_of_one_match(tmp_path: Path) -> None:
    big = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), *(ev(i, i, "rest", "a_1") for i in range(2, 40))]
    first = write_match(tmp_path / "one", big, archive(["a_1"], ended=50))
    second = write_match(tmp_path / "two", big[:3], archive(["a_1"], ended=50), form="folder")
    lake = tmp_path / "lake"
    result = CliRunner().invoke(main, ["export", str(first), str(second), "--parquet", str(lake)])
    assert result.exit_code == exitcodes.USAGE, result.output
    assert str(first) in result.stderr and str(second) in result.stderr and "refused" in result.stderr
    events = pq.read_table(lake / "events" / "match_id=m_0123456789ab" / "part-0.parquet")
    assert events.num_rows == 39  # the first target's rows, not replaced by the second's 3


def test_export_refuses_the_second_target_given_of_one_match(tmp_path: Path) -> None:
    """The help and the README say the second target of one match is refused; export sorted its targets by
    path first, so `export two/m_… one/m_…` exported one/ (given second) and refused two/ (given first)."""
    big = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), *(ev(i, i, "rest", "a_1") for i in range(2, 40))]
    second = write_match(tmp_path / "one", big, archive(["a_1"], ended=50))
    first = write_match(tmp_path / "two", big[:3], archive(["a_1"], ended=50), form="folder")
    lake = tmp_path / "lake"
    result = CliRunner().invoke(main, ["export", str(first), str(second), "--parquet", str(lake)])
    assert result.exit_code == exitcodes.USAGE, result.output
    assert result.stderr == (f"daishi-forensics: error: {second}: is match m_0123456789ab, like {first} exported "
                             "before it: refused, as its partition would replace that one (give each match once, "
                             "or export them to different folders)\n")
    events = pq.read_table(lake / "events" / "match_id=m_0123456789ab" / "part-0.parquet")
    assert events.num_rows == 3  # the target given first, not replaced by the one given second


def _season_match(directory: Path) -> Path:
    """A stream longer than 64 KiB whose last event can be edited without changing its size."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")]
    events += [ev(i, i, "rest", "a_1") for i in range(2, 1200)]
    events.append(ev(1200, 1200, "gather", "a_1", region="r_0_0", resource="wood", gathered=1))
    path = write_match(directory, events, archive(["a_1"], ended=1300))
    assert path.stat().st_size > 64 << 10
    return path


def _edit_past_64k(path: Path) -> None:
    """Change the last event's region (same length) and put the mtime back."""
    stat = path.stat()
    data = path.read_bytes()
    cut = data.rindex(b'"region":"r_0_0"')
    assert cut > 64 << 10
    path.write_bytes(data[:cut] + b'"region":"r_9_9"' + data[cut + 16:])
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns


def test_season_verify_sees_an_edit_past_64k(tmp_path: Path) -> None:
    path = _season_match(tmp_path / "in")
    targets = expand_targets([str(tmp_path / "in")])
    for verify in (False, True):
        out = tmp_path / f"out-{verify}"
        assert run_season(targets, "behavior", out, verify=verify).ran == 1
    _edit_past_64k(path)
    assert run_season(targets, "behavior", tmp_path / "out-False").reused == 1  # the documented trade-off
    again = run_season(targets, "behavior", tmp_path / "out-True", verify=True)
    assert again.ran == 1 and again.reused == 0
    result = CliRunner().invoke(main, ["season", "behavior", str(tmp_path / "in"), "--out", str(tmp_path / "cli"),
                                       "-j", "1", "--quiet", "--verify"])
    assert result.exit_code in (exitcodes.OK, exitcodes.FINDINGS), result.output
    key = orjson.loads(next((tmp_path / "cli" / ".resume").iterdir()).read_bytes())["key"]
    assert set(key["input"][0]) == {"name", "size", "sha256"}


def test_an_unreachable_cluster_is_a_usage_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = write_match(tmp_path / "in", [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")], archive(["a_1"]))
    # Dask reads its environment once, when first imported (earlier in a test session): its configuration is
    # set here instead, which is what the command reads (a connect timeout of 2 s, not Dask's 30 s); distributed
    # is imported at the top, since dask.config.set removes on exit a section it created, defaults added since too
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        result = CliRunner().invoke(main, ["season", "screen", str(path), "--out", str(tmp_path / "out"),
                                           "--cluster", f"tcp://127.0.0.1:{port}"])
    assert result.exit_code == exitcodes.USAGE, result.output
    assert "--cluster" in result.stderr and "no Dask scheduler answered" in result.stderr


@pytest.mark.parametrize("form", ["stream", "bundle", "folder"])
def test_a_byte_order_mark_is_read_and_said(tmp_path: Path, form: str) -> None:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    path = write_match(tmp_path, events, archive(["a_1"], ended=5), form=form)
    marked = path / "archive.json" if form == "folder" else path
    marked.write_bytes(codecs.BOM_UTF8 + marked.read_bytes())
    source = open_match(str(path))
    assert [e["id"] for e in read_match(source).events()] == [1, 2]
    assert source.notes == [f"{marked}: starts with a UTF-8 byte-order mark, which JSON does not allow; "
                            "read without it"]
    report = CliRunner().invoke(main, ["behavior", "--format", "json", str(path)])
    notes = [f for f in orjson.loads(report.stdout)["findings"] if f["kind"] == "input-note"]
    assert len(notes) == 1 and "byte-order mark" in notes[0]["message"]
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert validated.exit_code == exitcodes.OK  # said as a warning: the events are valid
    assert "warning:" in validated.stdout and "byte-order mark" in validated.stdout


def test_a_byte_order_mark_elsewhere_is_named(tmp_path: Path) -> None:
    """Two streams concatenated: the second's mark starts line 3, a record that is not JSON."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    path = write_match(tmp_path, events, archive(["a_1"], ended=5))
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[0], lines[1], codecs.BOM_UTF8 + lines[2]]))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == exitcodes.FINDINGS
    assert "invalid UTF-8" not in result.output
    assert "line 3" in result.output and "starts with a UTF-8 byte-order mark" in result.output


UTF16 = "the file is UTF-16 (what a Windows shell's '>' redirect writes); this tool reads UTF-8"


@pytest.mark.parametrize("form", ["stream", "bundle", "folder", "folder-events", "stream-gz"])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_match_is_refused_as_such(tmp_path: Path, form: str, encoding: str) -> None:
    """A match written by a Windows shell's '>' redirect (UTF-16, with or without its byte-order mark)
    is refused with that reason, naming the file, not as "invalid UTF-8"."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    path = write_match(tmp_path, events, archive(["a_1"], ended=5),
                       form={"folder-events": "folder", "stream-gz": "stream-gz"}.get(form, form))
    if form == "folder":
        recoded = path / "archive.json"
    elif form == "folder-events":
        recoded = path / "events.jsonl"
    else:
        recoded = path
    if form == "stream-gz":
        recoded.write_bytes(gzip.compress(gzip.decompress(recoded.read_bytes()).decode().encode(encoding)))
    else:
        recoded.write_bytes(recoded.read_bytes().decode().encode(encoding))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == exitcodes.UNREADABLE
    assert f"{recoded}: {UTF16}" in result.output and "invalid UTF-8" not in result.output


def test_a_utf16_table_and_corpus_are_refused_as_such(tmp_path: Path) -> None:
    table = tmp_path / "transfers.csv"
    table.write_bytes("from,to,value,tick\na,b,5,1\n".encode("utf-16"))
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_bytes('{"text": "hello"}\n'.encode("utf-16"))
    for args, named in ((["screen-transfers", str(table)], table), (["tiers", str(corpus)], corpus)):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == exitcodes.UNREADABLE, result.output
        assert f"{named}: {UTF16}" in result.stderr
