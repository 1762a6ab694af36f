"""What --help says of the match id and --noise: a level given is part of the id, even the scenario's own."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main


def _events(out: Path, *extra: str) -> tuple[str, list[dict[str, object]]]:
    result = CliRunner().invoke(main, ["simulate", "--seed", "3", "--agents", "4", "--ticks", "6", "--out", str(out),
                                       *extra])
    assert result.exit_code == 0, result.output
    (stream,) = out.glob("m_*.jsonl")
    events = [json.loads(line) for line in stream.read_text().splitlines()[1:]]
    return stream.name, [{k: v for k, v in e.items() if k != "matchId"} for e in events]


def test_noise_none_for_clean_is_the_same_events_under_another_id(tmp_path: Path) -> None:
    plain, plain_events = _events(tmp_path / "a")
    version, version_events = _events(tmp_path / "b", "--schema-version", "3")
    named, named_events = _events(tmp_path / "c", "--noise", "none")
    assert plain == version and plain_events == version_events  # a default given adds nothing
    assert named != plain and named_events == plain_events  # a noise level given is part of the id
    text = " ".join(CliRunner().invoke(main, ["simulate", "--help"]).output.split())
    assert "A --noise given is part of the id even when it names the scenario's own level" in text
