"""One field of a small match changed at a time (removed, retyped, out of range, a key added, two lines swapped or one
repeated): whatever ``validate`` finds wrong, ``behavior`` says too.  A behavior report of exit 0 on a match that
``validate`` calls invalid, or warns about, read a field nobody was told of: it said an archive whose seat's wealth
was text "every record valid".  Neither command may fail inside (exit 70) on any of them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, trade, write_match

VALUES: list[Any] = [None, True, -1, 0, 2**63, 2**53, 1.5, "x", "", [], {}, "A" * 300, "r_0_0", "r_99_99", "a_9", 3]
"""What a field is changed to."""

QUIET_WARNINGS = ("is written as a fraction where an integer goes",)
"""Warnings ``validate`` gives that lose nothing (an integer written 7.0, read as 7): the report need not say them."""


def _lines(folder: Path) -> list[str]:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
              ev(4, 2, "message", "a_2", text="wood for food?", channel="local"),
              ev(5, 2, "trade_offered", "a_1", tradeId="t1", to="a_2", give={"wood": 3}, receive={"food": 1}),
              *trade(6, 3, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1}), ev(8, 4, "rest", "a_2")]
    stored = archive(["a_1", "a_2"], ended=10)
    for seat in stored["agents"]:
        seat.update(status="active", wealth=10.0, reputation=1, inventory={"wood": 2})
    return write_match(folder, events, stored).read_text(encoding="utf-8").splitlines()


def test_the_match_unchanged_is_clean(tmp_path: Path) -> None:
    path = tmp_path / "m" / "m_0123456789ab.jsonl"
    _lines(path.parent)
    checked = CliRunner().invoke(main, ["validate", str(path)])
    assert checked.exit_code == 0 and "warning" not in checked.output, checked.output
    assert CliRunner().invoke(main, ["behavior", str(path)]).exit_code == 0


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at] if at else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            found += _paths(item, (*at, index))
    return found


def _mutated(lines: list[str], rng: random.Random) -> tuple[list[str], str]:
    lines = list(lines)
    roll = rng.random()
    if roll < 0.05:
        i = rng.randrange(1, len(lines))
        return [*lines[:i], lines[i], *lines[i:]], f"line {i + 1} repeated"
    if roll < 0.1:
        i = rng.randrange(1, len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return lines, f"lines {i + 1} and {i + 2} swapped"
    i = rng.randrange(len(lines))
    record = json.loads(lines[i])
    path = rng.choice(_paths(record))
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    roll = rng.random()
    if roll < 0.25 and isinstance(parent, dict):
        del parent[path[-1]]
        said = f"line {i + 1}: {path} removed"
    elif roll < 0.32 and isinstance(parent, dict):
        parent["zz"] = rng.choice(VALUES)
        said = f"line {i + 1}: a key added beside {path}"
    else:
        parent[path[-1]] = value = rng.choice(VALUES)
        said = f"line {i + 1}: {path} set to {str(value)[:20]!r}"
    lines[i] = json.dumps(record)
    return lines, said


def _written(tmp_path: Path, seed: int, changes: int) -> Iterator[tuple[Path, str]]:
    """``changes`` mutated copies of the small match, each written to a folder of its own: (its path, the change)."""
    base = _lines(tmp_path / "base")
    rng = random.Random(seed)
    for n in range(changes):
        lines, said = _mutated(base, rng)
        path = tmp_path / f"{n}" / "m_0123456789ab.jsonl"
        path.parent.mkdir()
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        yield path, said


@pytest.mark.parametrize("seed", range(6))
def test_what_validate_finds_behavior_says(tmp_path: Path, seed: int) -> None:
    runner = CliRunner()
    for path, said in _written(tmp_path, seed, 12):
        checked = runner.invoke(main, ["validate", str(path)])
        reported = runner.invoke(main, ["behavior", str(path), "--format", "json"])
        assert 70 not in (checked.exit_code, reported.exit_code), (said, checked.output, reported.output)
        warned = [line for line in checked.output.splitlines() if line.strip().startswith("warning:")
                  and not any(quiet in line for quiet in QUIET_WARNINGS)]
        if checked.exit_code != 0 or warned:
            assert reported.exit_code in (1, 3), (said, checked.output, reported.output)


@pytest.mark.parametrize("seed", range(6, 10))
def test_what_validate_calls_invalid_every_command_says(tmp_path: Path, seed: int) -> None:
    """``screen``, ``score``, ``propagation`` and ``export`` on the same changes: none exits 0 on a match ``validate``
    calls invalid (``score`` exited 0 on an archive failing its schema where the score reads nothing)."""
    runner = CliRunner()
    for path, said in _written(tmp_path, seed, 10):
        invalid = runner.invoke(main, ["validate", str(path)]).exit_code != 0
        lake = path.parent / "lake"
        for command in (["screen"], ["score"], ["propagation"], ["export", "--parquet", str(lake)]):
            result = runner.invoke(main, [*command, str(path)])
            assert result.exit_code != 70, (said, command, result.output)
            if invalid:
                assert result.exit_code in (1, 3), (said, command, result.output)


@pytest.mark.parametrize("seed", range(10, 13))
def test_what_validate_calls_invalid_compare_names(tmp_path: Path, seed: int) -> None:
    """``compare`` describes (exit 0), so it says an invalid side in its first notes: the side, its file and the
    kinds (a header failing its schema, records left out...); a side that cannot be read exits 3."""
    runner = CliRunner()
    base = tmp_path / "base" / "m_0123456789ab.jsonl"
    for path, said in _written(tmp_path, seed, 8):
        checked = runner.invoke(main, ["validate", str(path)]).exit_code
        result = runner.invoke(main, ["compare", str(base), str(path), "--format", "json"])
        assert result.exit_code != 70, (said, result.output)
        if checked == 3:
            assert result.exit_code == 3, (said, result.output)
        elif checked != 0:
            assert result.exit_code == 0, (said, result.output)
            notes = json.loads(result.stdout)["notes"]
            assert str(path) in notes[0] and ("about the log itself" in notes[0] or "header" in notes[0]), (said, notes)
