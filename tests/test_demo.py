"""The embedded demo match: shipped, valid, reproducible, and worth reading (issue 2)."""

from __future__ import annotations

import gzip
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.simulate import simulate_to_dir
from daishi_forensics.read.sources import demo_path, open_match
from daishi_forensics.read.validate import validate_targets

DEMO_RECIPE = {"scenario": "mixed", "seed": 1, "n_agents": 12, "ticks": 240}


def test_demo_is_exactly_the_documented_simulation(tmp_path: Path) -> None:
    made = simulate_to_dir(DEMO_RECIPE["scenario"], DEMO_RECIPE["seed"], 3, tmp_path, "stream-gz",
                           n_agents=DEMO_RECIPE["n_agents"], ticks=DEMO_RECIPE["ticks"])
    assert gzip.decompress(Path(made).read_bytes()) == gzip.decompress(demo_path().read_bytes())


def test_demo_is_valid_and_a_few_thousand_events() -> None:
    (result,) = validate_targets(["m_demo"]).files
    assert result.valid and result.form == "demo"
    assert 2_000 <= result.stats["records"] <= 10_000


def test_behavior_m_demo_finds_the_planted_collusion() -> None:
    result = CliRunner().invoke(main, ["behavior", "m_demo", "--format", "text"])
    assert result.exit_code == 1, result.output  # findings: the planted collusion is flagged
    assert "== Collusion screens ==" in result.output and "Verdict: flag" in result.output
    for planted in ("feeder", "ring"):
        assert planted in result.output
    assert open_match("m_demo").form == "demo"
