"""The cascade generator written apart from the tool (bench/cascades_apart.py): the same bytes for a seed, a
match the tool reads without a problem, and a truth whose edges join messages of that match, each child
later than its parent and sent by another agent."""

from __future__ import annotations

import json
from pathlib import Path

from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match

from .benchkit import load_bench

bench = load_bench("cascades_apart")


def _one(out: Path, seed: int) -> tuple[Path, Path]:
    assert bench.main(["--out", str(out), "--seed", str(seed), "--ticks", "60"]) == 0
    (match,) = sorted(out.glob("m_*.jsonl"))
    return match, match.with_name(match.name.replace(".jsonl", ".truth.json"))


def test_a_seed_gives_the_same_bytes(tmp_path: Path) -> None:
    one, truth_one = _one(tmp_path / "a", 5)
    two, truth_two = _one(tmp_path / "b", 5)
    assert one.name == two.name and one.read_bytes() == two.read_bytes()
    assert truth_one.read_bytes() == truth_two.read_bytes()


def test_the_match_reads_clean_and_its_truth_joins_earlier_messages_of_others(tmp_path: Path) -> None:
    match, truth_path = _one(tmp_path, 2)
    read = read_match(open_match(str(match)))
    events = list(read.events())
    assert read.stats.errors == 0 and events
    messages = {e["id"]: e for e in events if e["type"] in ("message", "message_private")}
    truth = json.loads(truth_path.read_text(encoding="utf-8"))["propagation"]
    assert truth["labelled"] == "all" and truth["edges"]
    for parent, child in truth["edges"]:
        assert parent in messages and child in messages
        assert messages[parent]["tick"] < messages[child]["tick"]
        assert messages[parent]["agentId"] != messages[child]["agentId"]
