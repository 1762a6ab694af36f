"""The collusion screens' notes (what they observed without a flag: a registration anomaly, a match that does
not say whether it is ranked) are in the behavior report's text, Markdown and HTML, as in its JSON and in
``screen``'s text: they were dropped from every format but JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, trade, write_match


def _run(args: list[str], **env: str) -> Any:
    return CliRunner().invoke(main, args, env={"COLUMNS": None, "NO_COLOR": None, **env})


def _registered_twice(tmp_path: Path) -> str:
    """a_1 and a_2 share an operator (hostile text) and a model in a match that does not say it is ranked."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 0, "agent_spawned", "a_3", region="r_0_0"),
              *trade(4, 1, "t1", "a_1", "a_3", {"wood": 3}, {"food": 1})]
    arch = archive(["a_1", "a_2", "a_3"], ended=10)
    for seat, name, operator in zip(arch["agents"], ("Ash", "<b>Nyx</b>", "Bo"),
                                    ("op_*x*\x1b[2J", "op_*x*\x1b[2J", "other")):
        seat.update(name=name, operator=operator, model={"model": "m-1"})
    return str(write_match(tmp_path, events, arch))


RANKED = "operator: the match does not say whether it is ranked; screened as ranked"
SHARED = ("registration: seats {a} and {b} share operator {op} and model m-1 in a ranked match (one slot per "
          "(operator, model), the evaluation design{q}s governance rule); they moved no value one way between "
          "them, so no flag")


def test_every_screen_note_is_in_the_screens_block_of_every_format(tmp_path: Path) -> None:
    path = _registered_twice(tmp_path)
    report = _run(["behavior", path, "--format", "json"])
    assert report.exit_code == 0
    notes = json.loads(report.output)["screens"]["notes"]
    assert notes[1:] == [RANKED, SHARED.format(a="a_1", b="a_2", op="op_*x*\x1b[2J", q="'")]

    text = _run(["behavior", path], COLUMNS="2000")
    assert text.exit_code == 0
    intro = text.output.splitlines()[text.output.splitlines().index("== Collusion screens ==") + 1]
    assert intro.endswith(
        " Note: " + RANKED + ". Note: "
        + SHARED.format(a="Ash (a_1)", b="<b>Nyx</b> (a_2)", op="op_*x*\\x1b[2J", q="'") + "."), intro
    assert "\x1b" not in text.output

    md = _run(["behavior", path, "--format", "markdown"])
    assert md.exit_code == 0
    lines = md.output.splitlines()
    intro = lines[lines.index("## Collusion screens") + 2]
    assert intro.endswith(
        " Note: " + RANKED + ". Note: "
        + SHARED.format(a="Ash (a\\_1)", b="\\<b\\>Nyx\\</b\\> (a\\_2)", op="op\\_\\*x\\*\\\\x1b\\[2J", q="'")
        + "."), intro

    page = _run(["behavior", path, "--format", "html"])
    assert page.exit_code == 0
    intro = page.output.split('<section id="screens"><h2>Collusion screens</h2><p class="intro">', 1)[1]
    intro = intro.split("</p>", 1)[0]
    assert intro.endswith(
        " Note: " + RANKED + ". Note: "
        + SHARED.format(a="<bdi>Ash</bdi> (a_1)", b="<bdi>&lt;b&gt;Nyx&lt;/b&gt;</bdi> (a_2)", op="op_*x*\\x1b[2J",
                        q="&#x27;")
        + "."), intro
    assert "<b>Nyx" not in page.output and "\x1b" not in page.output


def test_the_demo_shows_its_registration_note() -> None:
    """The demo's one note (two seats of one operator and model in a ranked match) in the text report."""
    out = " ".join(_run(["behavior", "m_demo"], COLUMNS="100").output.split())
    assert ("Note: registration: seats Harrow (a_2fcd) and Cinder (a_718a) share operator ridgeline-ai and model "
            "kimi-k2-0905 in a ranked match (one slot per (operator, model), the evaluation design's governance "
            "rule); they moved no value one way between them, so no flag.") in out
