"""An archive that fails its schema (a seat's wealth written as text, a status the format does not know) was read
as it stands by ``behavior``, ``screen``, ``season`` and ``export``: the behavior report said "every record valid"
and showed the bad values, and each command exited 0, while ``validate`` said the match was invalid.  The header's
errors are now said by each (an ``invalid-header`` finding in the behavior report; ``invalidHeader`` and a note in
the screens' output and a season's results; a warning from ``export``), and each exits 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, trade, write_match

WEALTH = "'lots' is not of type 'number'"
STATUS = "'zombie' is not one of ['active', 'dormant', 'dead']"


def _match(folder: Path, *, broken: bool = True, form: str = "stream") -> Path:
    """Two seats, one trade; with ``broken``, seat 1's wealth is text and seat 2's status unknown."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(4, 1, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1})]
    stored = archive(["a_1", "a_2"], ended=10)
    if broken:
        stored["agents"][0]["wealth"] = "lots"
        stored["agents"][1]["status"] = "zombie"
    return write_match(folder, events, stored, form=form)


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_behavior_says_the_header_fails_its_schema_and_exits_1(tmp_path: Path) -> None:
    path = _match(tmp_path)
    result = _run("behavior", str(path), "--format", "json")
    assert result.exit_code == 1
    found = [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "invalid-header"]
    assert found == [{
        "kind": "invalid-header",
        "message": f"the match's header fails validation in 2 places; the first: $.archive.agents[0].wealth: {WEALTH}; "
                   "the report reads the archive as it stands (run `daishi-forensics validate` for every problem)",
        "events": [], "eventCount": 0, "problemCount": 2,
        "problems": [{"path": "$.archive.agents[0].wealth", "message": WEALTH},
                     {"path": "$.archive.agents[1].status", "message": STATUS}],
    }]
    text = _run("behavior", str(path)).stdout
    assert "every record valid" not in text
    assert "invalid-header: the match's header fails validation in 2 places" in " ".join(text.split())


def test_the_same_finding_from_a_folder(tmp_path: Path) -> None:
    result = _run("behavior", str(_match(tmp_path, form="folder")), "--format", "json")
    assert result.exit_code == 1
    (found,) = [f for f in json.loads(result.stdout)["findings"] if f["kind"] == "invalid-header"]
    assert [p["path"] for p in found["problems"]] == ["$.archive.agents[0].wealth", "$.archive.agents[1].status"]


def test_a_valid_header_makes_no_finding(tmp_path: Path) -> None:
    result = _run("behavior", str(_match(tmp_path, broken=False)), "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["findings"] == []


def test_a_warning_is_no_header_error(tmp_path: Path) -> None:
    """A key written twice in the archive is a warning (``validate`` lists it, the match stays valid): no
    ``invalid-header`` finding, but the read's warnings say it (the first value is lost)."""
    folder = _match(tmp_path, broken=False, form="folder")
    text = (folder / "archive.json").read_text(encoding="utf-8")
    (folder / "archive.json").write_text(text.replace('"startedAtTick":0', '"startedAtTick":0,"startedAtTick":0'),
                                         encoding="utf-8")
    checked = _run("validate", str(folder))
    assert checked.exit_code == 0 and "repeated" in checked.stdout
    result = _run("behavior", str(folder), "--format", "json")
    assert [(f["kind"], f["warnings"]) for f in json.loads(result.stdout)["findings"]] == [
        ("read-warnings", {"repeated-key": 1})]


def test_screen_notes_it_and_exits_1(tmp_path: Path) -> None:
    path = _match(tmp_path)
    result = _run("screen", str(path), "--format", "json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    (match,) = out["matches"]
    assert (out["verdict"], out["exitCode"], match["invalidHeader"]) == ("clear", 1, 2)
    assert (f"not screened as the format defines it: the match's header fails validation in 2 places (the first: "
            f"$.archive.agents[0].wealth: {WEALTH}), so its archive was read as it stands (run validate)"
            ) in match["notScreened"]
    github = _run("screen", str(path), "--format", "github")
    assert "::warning" in github.stdout and "header fails validation in 2 places" in github.stdout
    assert _run("--exit-zero", "screen", str(path)).exit_code == 0
    clean = json.loads(_run("screen", str(_match(tmp_path / "ok", broken=False)), "--format", "json").stdout)
    assert "invalidHeader" not in clean["matches"][0]


def test_season_screen_gives_the_reason(tmp_path: Path) -> None:
    _match(tmp_path / "in")
    out = tmp_path / "out"
    result = _run("season", "screen", str(tmp_path / "in"), "--out", str(out), "-q")
    assert result.exit_code == 1
    (row,) = json.loads((out / "summary.json").read_text(encoding="utf-8"))["results"]
    assert (row["status"], row["verdict"], row["reason"]) == ("findings", "clear",
                                                               "its header fails validation in 2 places")


def test_export_warns_and_exits_1(tmp_path: Path) -> None:
    path = _match(tmp_path)
    result = _run("export", str(path), "--parquet", str(tmp_path / "lake"), "-q")
    assert result.exit_code == 1
    assert (f"warning: {path}: the match's header fails validation in 2 places (the first: "
            f"$.archive.agents[0].wealth: {WEALTH}); exported as it stands") in result.stderr
    assert (tmp_path / "lake" / "seats").is_dir()


def test_propagation_says_it_and_exits_1(tmp_path: Path) -> None:
    path = _match(tmp_path)
    result = _run("propagation", str(path), "--format", "json", "-q")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["read"] == {"invalidRecords": 0, "invalidHeader": 2, "truncated": [],
                                                 "excludedByErrata": []}
    assert (f"warning: {path}: the match's header fails validation in 2 places (the first: $.archive.agents[0].wealth: "
            f"{WEALTH}): read as it stands") in result.stderr
    clean = _run("propagation", str(_match(tmp_path / "ok", broken=False)), "--format", "json", "-q")
    assert (clean.exit_code, json.loads(clean.stdout)["read"]["invalidRecords"]) == (0, 0)
    assert "invalidHeader" not in json.loads(clean.stdout)["read"]


def test_compare_notes_the_side_read_as_it_stands(tmp_path: Path) -> None:
    bad, good = _match(tmp_path / "bad"), _match(tmp_path / "good", broken=False)
    result = _run("compare", str(bad), str(good), "--format", "json")
    assert result.exit_code == 0  # compared: the comparison's own exit codes
    assert json.loads(result.stdout)["notes"][0] == (
        f"{bad}: the match's header fails validation in 2 places; the first: $.archive.agents[0].wealth: {WEALTH}; "
        "the report reads the archive as it stands (run `daishi-forensics validate` for every problem)")
    plain = _run("compare", str(good), str(good), "--format", "json")
    assert not any("header" in n for n in json.loads(plain.stdout)["notes"])
