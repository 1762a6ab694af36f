"""A season whose every target is a folder holding no match: it runs with none, so that nothing an earlier
run wrote into ``OUT`` is left looking current."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.batch import season as season_module
from daishi_forensics.batch.season import JOBS
from daishi_forensics.cli import main
from daishi_forensics.version import __version__

from .test_season_hostile import _match, _summary


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden temp files left out), by path relative to it."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".")} if folder.is_dir() else {}


def _no_matches(folder: Path) -> dict[str, Any]:
    return {"target": str(folder), "status": "unreadable",
            "error": f"no matches in {folder} (bundles, streams or match folders)"}


def _emptied_season(tmp_path: Path, job: str) -> tuple[Path, Path, Path, dict[str, bytes]]:
    """``in/`` with two matches and a season of it in ``out/``; then ``in/`` emptied and a second empty folder
    ``zz/``.  ``(in, zz, out, the result files of the first run by name)``."""
    folder = tmp_path / "in"
    for match_id in ("m_00000000000a", "m_00000000000b"):
        _match(folder, match_id)
    out = tmp_path / "out"
    first = CliRunner().invoke(main, ["season", job, str(folder), "--out", str(out), "-j", "1", "-q"])
    assert first.exit_code == exitcodes.OK, first.output
    results = {p.name: p.read_bytes() for p in (out / "matches").iterdir()}
    assert sorted(results) == ["m_00000000000a.json", "m_00000000000b.json"]
    for match in folder.iterdir():
        match.unlink()
    zz = tmp_path / "zz"
    zz.mkdir()
    return folder, zz, out, results


@pytest.mark.parametrize("job", ["screen", "behavior"])
def test_a_season_of_empty_folders_writes_its_summary_and_sets_the_old_results_aside(tmp_path: Path,
                                                                                    job: str) -> None:
    # every target a folder holding no match: the command exited 3 before it started, and the summary.json
    # and matches/ of the earlier run into the same OUT were left in place, still looking current (a cron job
    # reading OUT/summary.json saw the earlier season's verdicts)
    folder, zz, out, results = _emptied_season(tmp_path, job)
    result = CliRunner().invoke(main, ["season", job, str(zz), str(folder), "--out", str(out), "-q"])
    assert result.exit_code == exitcodes.UNREADABLE
    assert result.stdout == ""
    assert result.stderr == (f"daishi-forensics: error: no matches in {zz} (bundles, streams or match folders)\n"
                             f"daishi-forensics: error: no matches in {folder} (bundles, streams or match "
                             "folders)\n")
    expected: dict[str, Any] = {
        "seasonVersion": 1,
        "tool": {"name": "daishi-forensics", "version": __version__},
        "job": {"name": job, "version": JOBS[job].version({}), "options": {}},
        "matches": 0,
        "counts": {"ok": 0, "findings": 0, "unreadable": 0, "failed": 0},
        "verdicts": {},
        "flagCounts": {},
        "exitCode": exitcodes.UNREADABLE,
        "results": [],
        "unreadable": [_no_matches(folder), _no_matches(zz)],
        "duplicates": [],
        "stale": [{"file": f"matches/{name}", "target": str(folder / name.replace(".json", ".jsonl")),
                   "movedTo": f".stale/matches/{name}"} for name in sorted(results)],
        "graph": {"recur": 2, "agentPairs": [], "operatorPairs": [], "recurringAgentPairs": [],
                  "recurringOperatorPairs": []},
    }
    if job == "screen":  # as a season whose every match is unreadable says it: nothing screened
        expected["season"] = {"verdict": "clear", "flags": [], "notScreened": ["no match could be read"]}
    assert _summary(out) == expected
    assert _files(out) == {"summary.json": (out / "summary.json").read_bytes(),
                           **{f".stale/matches/{name}": data for name, data in results.items()}}
    assert sorted(p.name for p in (out / ".resume").iterdir()) == []
    assert sorted(p.name for p in (out / "matches").iterdir()) == []


def test_a_season_of_one_empty_folder_prints_its_summary_and_redo_and_verify_say_the_same(tmp_path: Path) -> None:
    folder, _zz, out, results = _emptied_season(tmp_path, "screen")
    result = CliRunner().invoke(main, ["season", "screen", str(folder), "--out", str(out)])
    assert result.exit_code == exitcodes.UNREADABLE
    assert result.stdout == ("0 matches: none (0 run, 0 kept from an earlier run)\n"
                             "recurring pairs: 0 of agents, 0 of operators (moved value in >= 2 matches)\n"
                             "season scale: clear (0 flags across matches; not screened: no match could be read)\n"
                             f"summary: {out / 'summary.json'}\n")
    stale = [out / ".stale" / "matches" / name for name in sorted(results)]
    assert result.stderr == (
        f"daishi-forensics: error: no matches in {folder} (bundles, streams or match folders)\n"
        + "".join(f"warning: matches/{p.name} (of {folder / p.name.replace('.json', '.jsonl')}) is no match of "
                  f"this season's inputs: moved to {p}\n" for p in stale)
        + f"unreadable: no matches in {folder} (bundles, streams or match folders)\n")
    summary = (out / "summary.json").read_bytes()
    aside = _files(out / ".stale")
    for flags in (["--redo"], ["--verify"], []):  # nothing left to set aside: the same summary but for stale
        again = CliRunner().invoke(main, ["season", "screen", str(folder), "--out", str(out), "-q", *flags])
        assert (again.exit_code, again.stdout) == (exitcodes.UNREADABLE, ""), flags
        assert _summary(out) == {**orjson.loads(summary), "stale": []}, flags
        assert _files(out / ".stale") == aside, flags
    # the matches back: they run again (their keys went with their results) and the summary is theirs
    for match_id in ("m_00000000000a", "m_00000000000b"):
        _match(folder, match_id)
    back = CliRunner().invoke(main, ["season", "screen", str(folder), "--out", str(out), "-q"])
    assert back.exit_code == exitcodes.OK
    assert (_summary(out)["matches"], _summary(out)["stale"], _summary(out)["unreadable"]) == (2, [], [])
    assert {p.name: p.read_bytes() for p in (out / "matches").iterdir()} == results
    assert _files(out / ".stale") == aside


def test_a_season_of_empty_folders_into_a_folder_in_use_stops_and_leaves_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl
    import os

    monkeypatch.setattr(season_module, "LOCK_GRACE", 0.2)
    folder, _zz, out, _results = _emptied_season(tmp_path, "screen")
    before = _files(out)
    fd = os.open(out, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a season still running there holds it
    try:
        result = CliRunner().invoke(main, ["season", "screen", str(folder), "--out", str(out), "-q"])
    finally:
        os.close(fd)
    assert result.exit_code == exitcodes.OUTPUT
    assert result.stderr == (f"daishi-forensics: error: no matches in {folder} (bundles, streams or match folders)\n"
                             f"daishi-forensics: error: {out}: another season is writing into this folder; wait "
                             "for it to end or give another --out\n")
    assert _files(out) == before
    assert not (out / ".stale").exists()


def test_a_season_of_an_empty_folder_into_a_new_out_writes_only_its_summary(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["season", "behavior", str(empty), "--out", str(out), "-q"])
    assert (result.exit_code, result.stdout) == (exitcodes.UNREADABLE, "")
    assert list(_files(out)) == ["summary.json"]
    summary = _summary(out)
    assert (summary["matches"], summary["exitCode"], summary["stale"], summary["unreadable"]) == (
        0, exitcodes.UNREADABLE, [], [_no_matches(empty)])
    assert "season" not in summary


def test_the_help_says_a_season_of_empty_folders_still_writes_its_summary() -> None:
    group = " ".join(CliRunner().invoke(main, ["season", "--help"], terminal_width=100).output.split())
    assert ("When no target holds a match (every one a folder holding none), the season still runs, with none: "
            "summary.json lists each folder as unreadable (exit code 3, every count 0, no match verdict) and the "
            "results of an earlier run move to OUTDIR/.stale/matches/, so nothing left in OUTDIR looks "
            "current.") in group
    for job in ("screen", "behavior"):
        text = " ".join(CliRunner().invoke(main, ["season", job, "--help"], terminal_width=100).output.split())
        assert ("the results of matches no longer among the inputs move to .stale/matches/ (listed as stale in "
                "summary.json), all of them when no target holds a match.") in text
