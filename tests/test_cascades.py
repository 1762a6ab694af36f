"""The independent forwarding-cascade generator: deterministic, its truth consistent with who
heard what, its splits apart, its matches readable by the tool."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.injection.exposure import ExposurePass
from daishi_forensics.replay import replay
from daishi_forensics.simulate.cascades import MUTATION_KINDS, _Words, cascade_match

from .matchkit import write_match


def test_same_arguments_same_match() -> None:
    a, b = cascade_match(3), cascade_match(3)
    assert a.events == b.events and a.truth == b.truth
    assert cascade_match(4).events != a.events
    assert cascade_match(3, split="report").events != a.events


def test_truth_edges_were_heard_and_use_only_the_kinds_asked() -> None:
    kinds = ("exact", "capitals", "cut_start", "typo")
    for seed in range(4):
        match = cascade_match(seed, kinds=kinds)
        p = ExposurePass(match.archive)
        replay(iter(match.events), match.archive, [p])
        by_event = {m.event: m for m in p.result().messages}
        assert match.truth["edges"]
        for e in match.truth["edges"]:
            parent, child = by_event[e["parent"]], by_event[e["child"]]
            assert parent.event < child.event and parent.sender != child.sender
            assert child.sender in parent.hearers        # the tool's own reading of who heard what
            assert set(e["kinds"]) <= set(kinds) and e["heard"] >= 1
            assert 0 <= e["sameText"] < e["heard"]  # other heard copies word for word the parent's
        assert {d["kind"] for d in match.truth["decoys"]} <= {"twin", "template", "stock_share"}


def test_splits_draw_from_disjoint_word_lists() -> None:
    tune, report = _Words.of("tune"), _Words.of("report")
    for field in ("stories", "clauses", "events", "templates", "chatter", "prefixes", "suffixes", "quotes",
                  "synonyms", "abbreviations"):
        assert tune.__getattribute__(field) and not set(tune.__getattribute__(field)) & set(
            report.__getattribute__(field)), field
    assert set(MUTATION_KINDS) >= {"title_case", "stacked_prefixes", "cut_start", "synonym"}


def test_a_generated_match_through_the_cli(tmp_path: Path) -> None:
    match = cascade_match(1, ticks=120)
    path = write_match(tmp_path, list(match.events), match.archive)
    result = CliRunner().invoke(main, ["propagation", str(path), "--format", "json", "--no-scrub"])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.output)
    truth = {(e["parent"], e["child"]) for e in match.truth["edges"]}
    found = {(e["parent"], e["child"]) for e in doc["propagation"]["edges"]}
    assert len(found & truth) >= 0.7 * len(truth)
    assert all({"confidence", "reason", "tiedWith", "mutations"} <= set(e) for e in doc["propagation"]["edges"])
