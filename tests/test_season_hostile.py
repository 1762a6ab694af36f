"""A season over a hostile folder: a match it cannot table, one match given twice, a limit that
changed, its own output beside its input, an interrupted run, too many workers, half-copied matches,
findings that are no flag."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.batch import season as season_module
from daishi_forensics.batch.season import (
    JOBS,
    SeasonMatch,
    expand_targets,
    resume_key,
    result_names,
    run_season,
    season_summary,
)
from daishi_forensics.cli import main

from .matchkit import archive, ev, trade, write_match


def _match(directory: Path, match_id: str = "m_0123456789ab", *, operator: Any = "op_x", form: str = "stream",
           extra: list[dict[str, Any]] | None = None) -> Path:
    """Two seats of one operator (the first one's operator given) that trade once: a_1 gives 4, a_2 gives 3."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(3, 5, "t1", "a_1", "a_2", {"wood": 2}, {"stone": 1}), ev(5, 6, "rest", "a_1"),
              *(extra or [])]
    for event in events:
        event["matchId"] = match_id
    arch = archive(["a_1", "a_2"], ended=50, matchId=match_id)
    arch["agents"][0]["operator"] = operator
    arch["agents"][1]["operator"] = "op_x"
    return write_match(directory, events, arch, form=form)


def _summary(out: Path) -> dict[str, Any]:
    summary: dict[str, Any] = orjson.loads((out / "summary.json").read_bytes())
    return summary


# --------------------------------------------------------------------------- a match the season cannot table


@pytest.mark.parametrize("job", ["screen", "behavior"])
def test_a_non_string_operator_is_unreadable_and_the_season_goes_on(tmp_path: Path, job: str) -> None:
    bad = _match(tmp_path / "in", "m_00000000000b", operator=5)
    good = _match(tmp_path / "in", "m_00000000000a")
    result = run_season([str(bad), str(good)], job, tmp_path / "out")
    summary = _summary(tmp_path / "out")
    assert result.exit_code == exitcodes.UNREADABLE and summary["exitCode"] == exitcodes.UNREADABLE
    assert summary["counts"] == {"ok": 1, "findings": 0, "unreadable": 1, "failed": 0}
    assert summary["unreadable"] == [{
        "target": str(bad), "status": "unreadable",
        "error": f"{bad}, field archive.agents[].operator: agent a_1's operator is 5, not a string: the season "
                 "cannot table this match by operator (validate lists every such field)"}]
    assert [(row["a"], row["b"], row["gross"]) for row in summary["graph"]["operatorPairs"]] == [("op_x", "op_x", 7.0)]
    again = run_season([str(bad), str(good)], job, tmp_path / "out")  # and so does every rerun
    assert (again.reused, again.exit_code) == (2, exitcodes.UNREADABLE)


def test_a_kept_result_with_a_non_string_operator_is_unreadable_in_the_summary() -> None:
    seats = [{"agentId": "a_1", "operator": 5}, {"agentId": "a_2", "operator": "op_x"}]
    transfers = [{"a": "a_1", "b": "a_2", "aGave": 4.0, "bGave": 3.0, "trades": 1}]
    kept = SeasonMatch("in/m_1.jsonl", "m_1", "ok", 0, None, "m_1", {"seats": seats, "transfers": transfers})
    summary = season_summary([kept], JOBS["behavior"], {})
    assert summary["exitCode"] == exitcodes.UNREADABLE
    assert summary["unreadable"][0]["error"] == ("in/m_1.jsonl: agent a_1's operator is 5, not a string: the "
                                                 "season cannot table this match (validate lists every such field)")
    assert summary["graph"]["agentPairs"] == [] and summary["graph"]["operatorPairs"] == []


def test_a_season_step_that_raises_still_writes_the_summary(tmp_path: Path) -> None:
    def broken(matches: Any, options: Any) -> dict[str, Any]:
        raise ValueError("boom")

    job = season_module.Job("screen", season_module.screen_job, JOBS["screen"].version, broken)
    result = run_season([str(_match(tmp_path / "in"))], job, tmp_path / "out")
    assert result.exit_code == exitcodes.INTERNAL
    assert _summary(tmp_path / "out")["season"] == {"verdict": "failed", "flags": [], "error": "ValueError: boom"}


# --------------------------------------------------------------------------- one match given twice


def test_one_match_in_two_forms_is_counted_once(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    stream = _match(folder)
    bundle = _match(folder, form="bundle")
    once = run_season([str(stream)], "screen", tmp_path / "once").summary
    twice = run_season(expand_targets([str(folder)]), "screen", tmp_path / "twice").summary
    assert twice["matches"] == 1 and twice["counts"] == once["counts"] and twice["verdicts"] == {"clear": 1}
    assert twice["graph"] == once["graph"]
    assert twice["graph"]["agentPairs"][0]["trades"] == 1 and twice["graph"]["agentPairs"][0]["gross"] == 7.0
    names = result_names([str(bundle), str(stream)])
    assert twice["duplicates"] == [{"target": str(stream), "file": f"matches/{names[str(stream)]}.json",
                                    "matchId": "m_0123456789ab", "sameAs": str(bundle)}]
    assert [row["target"] for row in twice["results"]] == [str(bundle)]
    # every result file is named in the summary: a result, or a duplicate's
    named = {row["file"] for row in twice["results"]} | {row["file"] for row in twice["duplicates"]}
    assert {f"matches/{p.name}" for p in (tmp_path / "twice" / "matches").iterdir()} == named


def test_one_path_given_twice_is_counted_once_and_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stream = _match(tmp_path / "in")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["season", "screen", "in/m_0123456789ab.jsonl", "./in/m_0123456789ab.jsonl",
                                       "--out", "out", "-j", "1"])
    assert result.exit_code == exitcodes.OK, result.output
    assert result.stdout.startswith("1 match: 1 ok (2 run, 0 kept from an earlier run)\n")
    assert ("warning: in/m_0123456789ab.jsonl is match m_0123456789ab, like ./in/m_0123456789ab.jsonl: "
            "counted once\n") in result.stderr
    assert _summary(tmp_path / "out")["graph"]["agentPairs"][0]["gross"] == 7.0
    assert stream.is_file()


# --------------------------------------------------------------------------- limits


def test_a_match_refused_for_a_limit_is_read_again_once_the_limit_changed(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    stream = _match(tmp_path / "in")
    packed = stream.with_name(stream.name + ".gz")
    packed.write_bytes(gzip.compress(stream.read_bytes()))
    stream.unlink()
    monkeypatch.setenv("DAISHI_MAX_INFLATED_BYTES", "100")
    refused = run_season([str(packed)], "screen", tmp_path / "out")
    assert refused.exit_code == exitcodes.UNREADABLE
    monkeypatch.delenv("DAISHI_MAX_INFLATED_BYTES")
    again = run_season([str(packed)], "screen", tmp_path / "out")
    assert (again.ran, again.reused, again.exit_code) == (1, 0, exitcodes.OK)


# --------------------------------------------------------------------------- the season's own output


def test_the_results_folder_as_input_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _match(tmp_path / "matches")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["season", "screen", "matches", "--out", "."])
    assert result.exit_code == exitcodes.USAGE
    assert ("matches is where the season writes its results (--out .): they would be read as matches on the next "
            "run; give another --out") in " ".join(result.stderr.split())
    assert not (tmp_path / "summary.json").exists()


def test_an_output_folder_inside_the_input_folder_is_no_match(tmp_path: Path) -> None:
    stream = _match(tmp_path / "in")
    out = tmp_path / "in" / "m_out"
    for _ in range(2):
        result = CliRunner().invoke(main, ["season", "screen", str(tmp_path / "in"), "--out", str(out), "-q"])
        assert result.exit_code == exitcodes.OK, result.output
    summary = _summary(out)
    assert [row["target"] for row in summary["results"]] == [str(stream)] and summary["unreadable"] == []


# --------------------------------------------------------------------------- an interrupted run


def test_a_result_a_worker_wrote_is_kept_though_its_record_never_came_back(tmp_path: Path) -> None:
    target = str(_match(tmp_path / "in"))
    out = tmp_path / "out"
    job = JOBS["screen"]
    name = result_names([target])[target]
    season_module._run_and_write((target, name, resume_key(target, job, {})), job.run, {}, job.name, str(out))
    resumed = run_season([target], job, out)  # the parent was stopped before it read the worker's answer
    assert (resumed.ran, resumed.reused, resumed.exit_code) == (0, 1, exitcodes.OK)


# --------------------------------------------------------------------------- workers


def test_workers_are_never_more_than_matches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = season_module.start_pool

    def spy(workers: int, *args: Any) -> Any:
        asked.append(workers)
        return real(workers, *args)

    monkeypatch.setattr(season_module, "start_pool", spy)
    targets = [str(_match(tmp_path / "in", f"m_00000000000{i}")) for i in (1, 2)]
    assert run_season(targets, "screen", tmp_path / "out", workers=200).exit_code == exitcodes.OK
    assert asked == [2]
    result = CliRunner().invoke(main, ["season", "screen", "--help"], terminal_width=200)
    assert "at most one per match" in " ".join(result.output.split())


# --------------------------------------------------------------------------- half-copied matches


def test_a_match_folder_without_archive_and_a_link_to_nothing_are_unreadable(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    stream = _match(folder)
    (folder / "m_47feeaa21c4d").mkdir()
    (folder / "m_dangling.jsonl").symlink_to("../nowhere.jsonl")
    targets = expand_targets([str(folder)])
    assert targets == [str(stream), str(folder / "m_47feeaa21c4d"), str(folder / "m_dangling.jsonl")]
    summary = run_season(targets, "screen", tmp_path / "out").summary
    assert summary["exitCode"] == exitcodes.UNREADABLE
    assert summary["unreadable"] == [
        {"target": str(folder / "m_47feeaa21c4d"), "status": "unreadable",
         "error": f"{folder / 'm_47feeaa21c4d'}, field archive.json: the folder has no archive.json"},
        {"target": str(folder / "m_dangling.jsonl"), "status": "unreadable",
         "error": f"{folder / 'm_dangling.jsonl'}: a link to ../nowhere.jsonl, which does not exist"},
    ]


# --------------------------------------------------------------------------- findings named


def test_a_match_with_findings_but_no_flag_is_named_with_why(tmp_path: Path) -> None:
    invalid = ev(6, 7, "rest", "a_1")
    invalid["tick"] = "x"
    _match(tmp_path / "in", "m_00000000000a")
    _match(tmp_path / "in", "m_00000000000b", extra=[invalid])
    result = CliRunner().invoke(main, ["season", "screen", str(tmp_path / "in"), "--out", str(tmp_path / "out"),
                                       "-j", "1"], terminal_width=200)
    assert result.exit_code == exitcodes.FINDINGS, result.output
    assert ("other matches with findings (1):\n"
            "  m_00000000000b: 1 invalid record (matches/m_00000000000b.json)\n") in result.stdout
    rows = _summary(tmp_path / "out")["results"]
    assert [row.get("reason") for row in rows] == [None, "1 invalid record"]


# --------------------------------------------------------------------------- an output folder that cannot be


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_output_folder_under_a_file_is_an_output_error(tmp_path: Path, workers: str) -> None:
    _match(tmp_path / "in", "m_00000000000a")
    _match(tmp_path / "in", "m_00000000000b")
    (tmp_path / "plain").write_bytes(b"x")
    out = tmp_path / "plain" / "out"
    result = CliRunner().invoke(main, ["season", "screen", str(tmp_path / "in"), "--out", str(out), "-j", workers])
    assert result.exit_code == exitcodes.OUTPUT, result.output
    assert result.stderr == f"daishi-forensics: error: {out}: cannot create the folder (Not a directory)\n"
    assert (tmp_path / "plain").read_bytes() == b"x"


def test_an_old_resume_key_that_cannot_be_removed_is_an_output_error(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    stream = _match(tmp_path / "in")
    out = tmp_path / "out"
    run_season([str(stream)], "screen", out)
    key = out / ".resume" / "m_0123456789ab.json"

    def refuse(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    result = CliRunner().invoke(main, ["season", "screen", str(stream), "--out", str(out), "--redo", "-j", "1"])
    assert result.exit_code == exitcodes.OUTPUT, result.output
    assert result.stderr == f"daishi-forensics: error: {key}: cannot remove an old resume key (Permission denied)\n"


def test_a_second_season_into_a_folder_in_use_stops_and_leaves_the_first_ones_results(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl
    import os

    monkeypatch.setattr(season_module, "LOCK_GRACE", 0.2)  # the wait for a season just killed, cut short
    first = _match(tmp_path / "a", "m_00000000000a")
    run_season([str(first)], "screen", tmp_path / "out")
    before = {p.name: p.read_bytes() for p in (tmp_path / "out" / "matches").iterdir()}
    fd = os.open(tmp_path / "out", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a season still running there holds it
    try:
        other = _match(tmp_path / "b", "m_00000000000b")
        result = CliRunner().invoke(main, ["season", "screen", str(other), "--out", str(tmp_path / "out"), "-j", "1"])
    finally:
        os.close(fd)
    assert result.exit_code == exitcodes.OUTPUT, result.output
    assert result.stderr == (f"daishi-forensics: error: {tmp_path / 'out'}: another season is writing into this "
                             "folder; wait for it to end or give another --out\n")
    assert {p.name: p.read_bytes() for p in (tmp_path / "out" / "matches").iterdir()} == before
    assert not (tmp_path / "out" / ".stale").exists()
    again = CliRunner().invoke(main, ["season", "screen", str(other), "--out", str(tmp_path / "out"), "-j", "1"])
    assert again.exit_code == exitcodes.OK, again.output


def test_a_season_waits_for_the_lock_of_one_just_ending(tmp_path: Path) -> None:
    """A season killed a moment ago holds OUTDIR's lock until its last worker has ended: the next one
    waits for it (up to LOCK_GRACE seconds) rather than saying another season is writing there."""
    import fcntl
    import os
    import threading

    out = tmp_path / "out"
    out.mkdir()
    fd = os.open(out, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    timer = threading.Timer(0.3, os.close, (fd,))  # the dying season's last worker ends
    timer.start()
    try:
        result = CliRunner().invoke(main, ["season", "screen", str(_match(tmp_path / "a", "m_00000000000a")),
                                           "--out", str(out), "-j", "1"])
    finally:
        timer.join()
    assert result.exit_code == exitcodes.OK, result.output


def test_an_empty_target_is_a_usage_error_not_the_current_folder(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _match(tmp_path / "in")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["season", "screen", "", "in", "--out", "out"])
    assert result.exit_code == exitcodes.USAGE, result.output
    assert result.stderr == ("daishi-forensics: error: a TARGET is empty: give a match file, a folder of matches "
                             "or a match id\n")
    assert not (tmp_path / "out").exists()
