"""The simulator written apart from the tool (bench/world_apart.py): the same bytes for a seed, a match the
tool reads without a problem, and a truth naming seats of that match in the labelled-matches shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match

from .benchkit import load_bench

bench = load_bench("world_apart")


def _one(out: Path, seed: int, scenario: str) -> tuple[Path, dict]:
    bench.main(["--out", str(out), "--seed", str(seed), "--scenario", scenario, "--ticks", "60"])
    (match,) = sorted(out.glob("m_*.jsonl"))
    return match, json.loads(match.with_name(match.name.replace(".jsonl", ".truth.json")).read_text())


def test_a_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    one, _ = _one(tmp_path / "a", 4, "ring")
    two, _ = _one(tmp_path / "b", 4, "ring")
    assert one.name == two.name and one.read_bytes() == two.read_bytes()


@pytest.mark.parametrize(("scenario", "keys"), [("honest", None), ("feeder", {"beneficiary", "spokes"}),
                                                ("off_price", {"gainer", "giver"})])
def test_the_match_reads_clean_and_its_truth_names_its_seats(tmp_path: Path, scenario: str,
                                                             keys: set[str] | None) -> None:
    match, truth = _one(tmp_path, 2, scenario)
    read = read_match(open_match(str(match)))
    seats = {e["agentId"] for e in read.events() if e.get("agentId")}
    assert read.stats.errors == 0 and seats
    if keys is None:
        assert truth == {"planted": []}
        return
    (entry,) = truth["planted"]
    assert entry["kind"] == scenario and keys <= set(entry)
    named = {v for k in keys for v in ([entry[k]] if isinstance(entry[k], str) else entry[k])}
    assert named <= seats
