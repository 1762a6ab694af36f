"""A season rerun after its inputs changed: results of matches no longer among the inputs are set aside
(never left in ``matches/`` looking current); a season that exits 1 for its season-scale flags alone says
so; a single match runs in the command's own process."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.batch import season as season_module
from daishi_forensics.batch.season import JOBS, Job, result_names, run_season
from daishi_forensics.cli import main

from .test_season_hostile import _match, _summary


def _names(folder: Path) -> list[str]:
    """The file names in a folder, hidden ones (temp files) left out, sorted."""
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) if folder.is_dir() else []


def _three(folder: Path) -> list[Path]:
    return [_match(folder, f"m_00000000000{c}") for c in "abc"]


# --------------------------------------------------------------------------- stale results


@pytest.mark.parametrize("workers", [1, 2])
def test_a_match_removed_from_the_inputs_leaves_no_result_in_matches(tmp_path: Path, workers: int) -> None:
    paths = _three(tmp_path / "in")
    out = tmp_path / "out"
    run_season([str(p) for p in paths], "screen", out, workers=workers)
    gone = (out / "matches" / "m_00000000000c.json").read_bytes()
    paths[2].unlink()
    again = run_season([str(p) for p in paths[:2]], "screen", out, workers=workers)
    assert (again.ran, again.reused) == (0, 2)
    assert _names(out / "matches") == ["m_00000000000a.json", "m_00000000000b.json"]
    assert _names(out / ".resume") == ["m_00000000000a.json", "m_00000000000b.json"]
    assert _names(out / ".stale" / "matches") == ["m_00000000000c.json"]
    assert (out / ".stale" / "matches" / "m_00000000000c.json").read_bytes() == gone  # moved, not lost
    summary = _summary(out)
    assert summary["matches"] == 2
    assert summary["stale"] == [{"file": "matches/m_00000000000c.json", "target": str(paths[2]),
                                 "movedTo": ".stale/matches/m_00000000000c.json"}]
    assert run_season([str(p) for p in paths[:2]], "screen", out).summary["stale"] == []  # once set aside


def test_the_stale_list_is_the_same_bytes_whatever_the_workers(tmp_path: Path) -> None:
    paths = _three(tmp_path / "in")
    for workers in (1, 3):
        run_season([str(p) for p in paths], "screen", tmp_path / f"out{workers}", workers=workers)
    paths[0].unlink()
    for workers in (1, 3):
        run_season([str(p) for p in paths[1:]], "screen", tmp_path / f"out{workers}", workers=workers, resume=False)
    assert (tmp_path / "out1" / "summary.json").read_bytes() == (tmp_path / "out3" / "summary.json").read_bytes()
    assert _summary(tmp_path / "out1")["stale"][0]["file"] == "matches/m_00000000000a.json"


def test_a_result_renamed_by_a_new_same_stem_file_is_set_aside(tmp_path: Path) -> None:
    stream = _match(tmp_path / "in", "m_0123456789ab")
    out = tmp_path / "out"
    run_season([str(stream)], "screen", out)
    bundle = _match(tmp_path / "in", "m_0123456789ab", form="bundle")  # the same stem: both names get a hash
    targets = [str(stream), str(bundle)]
    names = result_names(targets)
    run_season(targets, "screen", out)
    assert _names(out / "matches") == sorted(f"{names[t]}.json" for t in targets)
    assert _names(out / ".resume") == sorted(f"{names[t]}.json" for t in targets)
    assert _summary(out)["stale"] == [{"file": "matches/m_0123456789ab.json", "target": str(stream),
                                       "movedTo": ".stale/matches/m_0123456789ab.json"}]


def test_a_stale_key_without_its_result_is_removed_and_an_unreadable_stale_result_moved(tmp_path: Path) -> None:
    match = _match(tmp_path / "in")
    out = tmp_path / "out"
    (out / ".resume").mkdir(parents=True)
    (out / ".resume" / "m_old.json").write_bytes(b"{}")
    (out / "matches").mkdir()
    (out / "matches" / "m_cut.json").write_bytes(b"{\"target\": ")
    (out / "matches" / ".m_0123456789ab.json.tmp").write_bytes(b"half")  # a temp file is no result
    run_season([str(match)], "screen", out)
    assert _names(out / ".resume") == ["m_0123456789ab.json"]
    assert _names(out / "matches") == ["m_0123456789ab.json"]
    assert _summary(out)["stale"] == [{"file": "matches/m_cut.json", "target": None,
                                       "movedTo": ".stale/matches/m_cut.json"}]


def test_the_cli_warns_of_each_stale_result_and_refuses_the_stale_folder_as_input(tmp_path: Path) -> None:
    paths = _three(tmp_path / "in")
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(main, ["season", "screen", str(tmp_path / "in"), "--out", str(out), "-j", "1"]).exit_code == 0
    paths[1].unlink()
    again = runner.invoke(main, ["season", "screen", str(tmp_path / "in"), "--out", str(out), "-j", "1"])
    assert again.exit_code == exitcodes.OK
    assert again.stderr.splitlines() == [
        f"warning: matches/m_00000000000b.json (of {paths[1]}) is no match of this season's inputs: moved to "
        f"{out / '.stale' / 'matches' / 'm_00000000000b.json'}"]
    refused = runner.invoke(main, ["season", "screen", str(out / ".stale" / "matches"), "--out", str(out)])
    assert refused.exit_code == exitcodes.USAGE


# --------------------------------------------------------------------------- exit 1 from the season scale


def _flagging_step(matches: Any, options: Any) -> dict[str, Any]:
    """A season-scale step that flags one recurring pair whatever the matches."""
    return {"verdict": "review", "notScreened": [], "flags": [
        {"screen": "season", "kind": "recurring_pair", "level": "review", "agents": ["a_1", "a_2"],
         "explanation": "a_1 and a_2 traded in 3 of 3 matches"}]}


def test_a_season_of_clear_matches_that_flags_across_them_exits_1_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    job = Job("screen", season_module.screen_job, JOBS["screen"].version, _flagging_step)
    monkeypatch.setitem(season_module.JOBS, "screen", job)
    _three(tmp_path / "in")
    result = CliRunner().invoke(main, ["season", "screen", str(tmp_path / "in"), "--out", str(tmp_path / "out"),
                                       "-j", "1"])
    assert result.exit_code == exitcodes.FINDINGS
    summary = _summary(tmp_path / "out")
    assert summary["counts"] == {"ok": 3, "findings": 0, "unreadable": 0, "failed": 0}
    lines = result.stdout.splitlines()
    at = lines.index("season scale: review (1 flag across matches)")
    assert lines[at + 1:at + 3] == [
        "  REVIEW season/recurring_pair on a_1, a_2: a_1 and a_2 traded in 3 of 3 matches",
        "exit 1: no match has findings; the season-scale flags above are why"]


def test_the_season_scale_line_is_not_said_when_a_match_has_findings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    job = Job("screen", season_module.screen_job, JOBS["screen"].version, _flagging_step)
    monkeypatch.setitem(season_module.JOBS, "screen", job)
    _match(tmp_path / "in", extra=[{"id": 99, "tick": 7}])  # an invalid record: findings
    result = CliRunner().invoke(main, ["season", "screen", str(tmp_path / "in"), "--out", str(tmp_path / "out")])
    assert result.exit_code == exitcodes.FINDINGS
    assert "exit 1: no match has findings" not in result.stdout


def test_the_help_says_the_season_scale_makes_exit_1_and_where_stale_results_go() -> None:
    text = " ".join(CliRunner().invoke(main, ["season", "screen", "--help"]).output.split())
    assert "or the season-scale screens flagged across matches" in text
    assert ".stale/matches/" in text
    assert "1, or a single match left to run, runs in this process" in text


# --------------------------------------------------------------------------- in this process


def test_a_single_match_runs_in_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("no pool for one match")

    monkeypatch.setattr(season_module, "start_pool", no_pool)
    result = run_season([str(_match(tmp_path / "in"))], "screen", tmp_path / "out", workers=4)
    assert (result.ran, result.worker_cpu) == (1, None)
