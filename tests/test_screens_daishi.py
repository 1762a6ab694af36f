"""The screens on Daishi matches built by hand: the report section, bad input, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from daishi_forensics.report.passes import analyze_target
from daishi_forensics.cli import main
from daishi_forensics.report.screening import screen_match, screens_section

from .matchkit import archive, ev, trade, write_match

SPAWNS = [ev(i + 1, 0, "agent_spawned", a, region="r_0_0") for i, a in enumerate(["a_1", "a_2", "a_3", "a_4", "h"])]


def fair_market(first_id: int) -> list[dict[str, Any]]:
    """Six fair trades (wood 3 for food 3: 6 each side) among a_1..a_3: the typical exchange is 6."""
    out: list[dict[str, Any]] = []
    for i, (x, y) in enumerate([("a_1", "a_2"), ("a_2", "a_3"), ("a_1", "a_3")] * 2):
        out += trade(first_id + 2 * i, 1 + i, f"f{i}", x, y, {"wood": 3}, {"food": 3})
    return out


FEEDS = ["a_1", "a_2", "a_4"] * 12
"""Three spokes, twelve gifts each (a sign-flip p of 2 / 2^12 a spoke)."""


def feeder_events() -> list[dict[str, Any]]:
    events = [*SPAWNS, *fair_market(10)]
    for i, spoke in enumerate(FEEDS):
        events += trade(40 + 2 * i, 8 + i // 3, f"g{i}", spoke, "h", {"tool": 1}, {})  # a tool (12) as a gift
    return events


def analysed(tmp_path: Path, events: list[dict[str, Any]], agents: list[str] | None = None, **arch: Any) -> Any:
    path = write_match(tmp_path, events, archive(agents or ["a_1", "a_2", "a_3", "a_4", "h"], ended=40, **arch))
    return analyze_target(str(path))


def test_feeder_match_is_flagged_with_the_events_behind_it(tmp_path: Path) -> None:
    result = screen_match(analysed(tmp_path, feeder_events()))
    assert result.verdict == "flag"
    [feeder] = [f for f in result.flags if f.screen == "feeder"]
    assert feeder.agents == ("h", "a_1", "a_2", "a_4")
    assert feeder.score == pytest.approx(432.0 / 6.0)
    assert feeder.evidence == tuple(range(40, 40 + 2 * len(FEEDS)))  # both events of every gift
    assert feeder.p_value == 2 / 4096 and feeder.p_adjusted is not None and feeder.p_adjusted <= 0.005


def test_the_report_section(tmp_path: Path) -> None:
    section = screens_section(analysed(tmp_path, feeder_events()))
    assert list(section) == ["verdict", "configVersion", "configDigest", "flags", "notScreened", "notes", "testing"]
    assert section["verdict"] == "flag" and section["configVersion"] == "2.14.0"
    testing = section["testing"]  # one budget of 0.02: a tenth to the typologies, the rest to Holm
    assert testing["falseAlarmRate"] == 0.02 and testing["holmRate"] == 0.02 * 0.9
    assert testing["flagRate"] == 0.02 * 0.9 * 0.25 and testing["typologyRate"] == 0.02 * 0.1 / 3
    flag = section["flags"][0]
    assert set(flag) == {"screen", "kind", "level", "agents", "pairs", "score", "threshold", "evidence",
                         "explanation", "details", "pValue", "pAdjusted", "null", "tests"}
    assert flag["pValue"] == 0.000488281 and "sign-flip" in flag["null"]
    assert flag["agents"] == ["h", "a_1", "a_2", "a_4"] and flag["evidence"][:2] == [40, 41]
    assert json.dumps(section, sort_keys=True) == json.dumps(screens_section(analysed(tmp_path / "again",
                                                                                        feeder_events())),
                                                               sort_keys=True)


def test_a_fair_market_is_clear(tmp_path: Path) -> None:
    section = screens_section(analysed(tmp_path, [*SPAWNS, *fair_market(10)]))
    assert section["verdict"] == "clear" and section["flags"] == []


def test_one_agent(tmp_path: Path) -> None:
    section = screens_section(analysed(tmp_path, [ev(1, 0, "agent_spawned", "a_1", region="r_0_0")], ["a_1"]))
    assert section["verdict"] == "clear"
    assert section["notScreened"] == ["not screened: 1 agent to screen; collusion takes two"]


def test_no_trades(tmp_path: Path) -> None:
    section = screens_section(analysed(tmp_path, SPAWNS))
    assert section["verdict"] == "clear"
    assert "no trades or gifts: feeder, ring and off_price had nothing to screen" in section["notes"]


def test_agents_missing_from_the_archive(tmp_path: Path) -> None:
    section = screens_section(analysed(tmp_path, feeder_events(), ["a_1", "a_2"]))
    assert section["verdict"] == "flag"  # screened from their events
    assert section["notes"][0].startswith("agents not in the archive: a_3, a_4, h")


def test_item_values_missing_for_an_item_traded(tmp_path: Path) -> None:
    events = [*SPAWNS, *fair_market(10)]
    for i, spoke in enumerate(["a_1", "a_1", "a_2", "a_2"]):
        events += trade(40 + 2 * i, 20 + i, f"g{i}", spoke, "h", {"gem": 5}, {})  # gem: no reference value
    section = screens_section(analysed(tmp_path, events))
    assert section["verdict"] == "clear"  # no flag on missing data ...
    assert any(n.startswith("not screened: the archive has no value for item 'gem' (events 40, 41, 42, 43, 44")
               for n in section["notScreened"])  # ... but it says so


# -- the command line ----------------------------------------------------------------------


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def write(tmp_path: Path, events: list[dict[str, Any]], name: str) -> Path:
    return write_match(tmp_path / name, events, archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))


def test_cli_exit_codes(runner: CliRunner, tmp_path: Path) -> None:
    clean = write(tmp_path, [*SPAWNS, *fair_market(10)], "clean")
    fed = write(tmp_path, feeder_events(), "fed")
    ok = runner.invoke(main, ["screen", str(clean)])
    assert ok.exit_code == 0, ok.output
    # the verdict paragraph comes last (wrapped to the width: 100 off a terminal)
    last = ok.output.split("\nverdict ", 1)[1]
    assert ("verdict " + last).startswith("verdict clear: 1 clear, 0 review, 0 flag (screens config 2.14.0")
    assert "designed false alarms: at most 0.02 of honest matches review or flag, 0.005 flag" in " ".join(last.split())
    assert runner.invoke(main, ["screen", str(clean), str(fed)]).exit_code == 1
    missing = runner.invoke(main, ["screen", str(clean), str(tmp_path / "m_000000000000.json")])
    assert missing.exit_code == 3 and "NOT SCREENED" in missing.output
    assert runner.invoke(main, ["screen"]).exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"screens": {"feeder": {"nope": 1}}}')
    usage = runner.invoke(main, ["screen", "--config", str(bad), str(clean)])
    assert usage.exit_code == 2 and "unknown parameter screens.feeder.nope" in usage.output


def test_cli_formats(runner: CliRunner, tmp_path: Path) -> None:
    fed = str(write(tmp_path, feeder_events(), "fed"))
    doc = json.loads(runner.invoke(main, ["screen", "--format", "json", fed]).output)
    assert (doc["verdict"], doc["exitCode"], doc["configVersion"]) == ("flag", 1, "2.14.0")
    assert doc["matches"][0]["flags"][0]["screen"] == "feeder"
    assert {"pValue", "pAdjusted", "null", "tests"} <= set(doc["matches"][0]["flags"][0])
    sarif = json.loads(runner.invoke(main, ["screen", "--format", "sarif", fed]).output)
    run = sarif["runs"][0]
    assert sarif["version"] == "2.1.0" and run["results"][0]["ruleId"] == "feeder/hub_and_spoke"
    assert run["results"][0]["level"] == "error" and run["results"][0]["properties"]["evidence"][0] == 40
    assert run["results"][0]["properties"]["pValue"] == 0.000488281 and "null" in run["results"][0]["properties"]
    github = runner.invoke(main, ["screen", "--format", "github", fed]).output
    assert github.startswith("::error file=") and "title=daishi-forensics feeder/hub_and_spoke::" in github
    assert "P 0.000488 (adjusted" in github and "Null: each one-sided exchange" in github
    text = runner.invoke(main, ["screen", fed]).output
    assert "p 0.000488 (adjusted" in text and "null: each one-sided exchange" in text


def test_cli_config_override_is_stamped(runner: CliRunner, tmp_path: Path) -> None:
    fed = str(write(tmp_path, feeder_events(), "fed"))
    override = tmp_path / "loose.json"
    override.write_text('{"version": "ops-1", "screens": {"feeder": {"min_spoke_value": 500}}}')
    doc = json.loads(runner.invoke(main, ["screen", "--format", "json", "--config", str(override), fed]).output)
    assert doc["configVersion"] == "ops-1"
    assert not [f for f in doc["matches"][0]["flags"] if f["kind"] == "hub_and_spoke"]


def test_cli_season(runner: CliRunner, tmp_path: Path) -> None:
    season = tmp_path / "season"
    write_match(season, [*SPAWNS, *fair_market(10)], archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    result = runner.invoke(main, ["screen", "--format", "json", "--season", str(season)])
    doc = json.loads(result.output)
    assert result.exit_code == 0 and doc["season"]["verdict"] == "clear" and len(doc["matches"]) == 1


class Beside:
    """A stand-in for a second process: runs the work it is handed here, when asked for its answer,
    and says ``answer`` (None: it ran; ``(False, None)``: a failed child)."""

    def __init__(self, answer: tuple[bool, Any] | None = None, start: bool = True) -> None:
        self.handed: list[Any] = []
        self.cancelled = 0
        self.answer, self.start = answer, start

    def __call__(self, fn: Any) -> Any:
        self.handed.append(fn)
        return self if self.start else None

    def result(self) -> tuple[bool, Any]:
        return (True, self.handed[-1]()) if self.answer is None else self.answer

    def cancel(self) -> None:
        self.cancelled += 1


def test_the_ring_and_feeder_screens_run_beside_the_others_to_the_same_result(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, feeder_events())
    here = screen_match(analysis)
    assert [f.screen for f in here.flags] == ["feeder"]  # a flag of a screen run beside: the test can tell
    beside = Beside()
    assert screen_match(analysis, beside=beside) == here
    [handed] = beside.handed
    assert [screen for screen, _ in handed.args[2]] == ["feeder", "ring"]
    assert screen_match(analysis, beside=beside).to_dict() == here.to_dict()


@pytest.mark.parametrize("beside", [Beside(answer=(False, None)), Beside(start=False)],
                         ids=["the child failed", "no child started"])
def test_screens_handed_to_a_process_that_fails_or_never_starts_run_here(tmp_path: Path, beside: Beside) -> None:
    analysis = analysed(tmp_path, feeder_events())
    assert screen_match(analysis, beside=beside) == screen_match(analysis)
    assert len(beside.handed) == 1 and beside.cancelled == 0


def test_screens_run_beside_in_a_forked_child_give_the_same_result(tmp_path: Path) -> None:
    from daishi_forensics.replay.fork import fork

    analysis = analysed(tmp_path, feeder_events())
    assert screen_match(analysis, beside=fork).to_dict() == screen_match(analysis).to_dict()


def test_a_screen_failing_here_stops_the_screens_run_beside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import daishi_forensics.screens.screening as screening

    def broken(view: Any, params: Any) -> Any:
        raise RuntimeError("off_price broke")

    analysis = analysed(tmp_path, feeder_events())
    monkeypatch.setitem(screening._RUNNERS, "off_price", broken)
    beside = Beside()
    with pytest.raises(RuntimeError, match="off_price broke"):
        screen_match(analysis, beside=beside)
    assert beside.cancelled == 1
