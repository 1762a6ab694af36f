"""``season screen`` on a truncated log (the archive counts more events than the log holds) gave the match status
``ok`` and exit 0, where ``screen`` exits 1 and says that a clear verdict does not cover what the log no longer
holds; nor did a season's match result carry ``screen``'s not-screened notes (invalid records, a header failing its
schemas, a truncated log).  Both now read them from one function (``unscreened``)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import simulated_stream


def _cut(tmp_path: Path) -> Path:
    whole = simulated_stream(tmp_path / "whole")
    lines = whole.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "in" / whole.name
    cut.parent.mkdir()
    cut.write_bytes(b"".join(lines[: len(lines) // 2]))
    return cut


def test_a_truncated_log_is_a_finding_of_the_season_as_of_screen(tmp_path: Path) -> None:
    cut = _cut(tmp_path)
    screened = CliRunner().invoke(main, ["screen", str(cut), "--format", "json"])
    assert screened.exit_code == 1
    said = json.loads(screened.stdout)["matches"][0]["notScreened"]
    out = tmp_path / "out"
    season = CliRunner().invoke(main, ["season", "screen", str(cut.parent), "--out", str(out), "-q"])
    assert season.exit_code == 1
    (row,) = json.loads((out / "summary.json").read_text(encoding="utf-8"))["results"]
    assert (row["status"], row["verdict"], row["reason"]) == ("findings", "clear", "its log is truncated")
    result = json.loads((out / "matches" / f"{cut.stem}.json").read_text(encoding="utf-8"))["result"]
    assert result["notScreened"] == said
    assert result["truncated"] and result["truncated"][0].startswith("the archive's metrics count more events")


def test_a_whole_log_is_clear_in_both(tmp_path: Path) -> None:
    whole = simulated_stream(tmp_path / "in")
    assert CliRunner().invoke(main, ["screen", str(whole)]).exit_code == 0
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["season", "screen", str(whole.parent), "--out", str(out), "-q"]).exit_code == 0
    result = json.loads((out / "matches" / f"{whole.stem}.json").read_text(encoding="utf-8"))["result"]
    assert "truncated" not in result
    assert not any(n.startswith("not screened: what the log") for n in result["notScreened"])
