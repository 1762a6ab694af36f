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
    assert section["verdict"] == "flag" and section["configVersion"] == "2.32.0"
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


def write(tmp_path: Path, events: list[dict[str, Any]], name: str, match_id: str | None = None) -> Path:
    """The match in folder ``name``; ``match_id``: another match's id than the kit's (its events' too)."""
    if match_id is not None:
        events = [{**e, "matchId": match_id} for e in events]
    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40, **({"matchId": match_id} if match_id else {}))
    return write_match(tmp_path / name, events, arch)


def test_cli_exit_codes(runner: CliRunner, tmp_path: Path) -> None:
    clean = write(tmp_path, [*SPAWNS, *fair_market(10)], "clean")
    fed = write(tmp_path, feeder_events(), "fed", "m_0000000000fe")  # two matches: two match ids
    ok = runner.invoke(main, ["screen", str(clean)])
    assert ok.exit_code == 0, ok.output
    # the verdict paragraph comes last (wrapped to the width: 100 off a terminal)
    last = ok.output.split("\nverdict ", 1)[1]
    assert ("verdict " + last).startswith("verdict clear: 1 clear, 0 review, 0 flag (screens config 2.32.0")
    assert "designed false alarms: at most 0.02 of honest matches review or flag, 0.005 flag" in " ".join(last.split())
    assert runner.invoke(main, ["screen", str(clean), str(fed)]).exit_code == 1
    missing = runner.invoke(main, ["screen", str(clean), str(tmp_path / "m_000000000000.json")])
    assert missing.exit_code == 3 and "NOT SCREENED" in missing.output
    assert runner.invoke(main, ["screen"]).exit_code == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"screens": {"feeder": {"nope": 1}}}')
    usage = runner.invoke(main, ["screen", "--config", str(bad), str(clean)])
    assert usage.exit_code == 2 and "unknown parameter screens.feeder.nope" in usage.output


def test_cli_help_and_readme_name_every_exit_1() -> None:
    """A match with invalid records, a truncated log or a header failing its schema screens 'clear' and exits 1:
    --help and the README said
    only review/flag (and, in the README, nothing of invalid records, a truncated log, 70 or 74)."""
    text = " ".join(CliRunner().invoke(main, ["screen", "--help"]).output.split())
    assert ("1 a match (or the season) is review or flag, or a match held invalid records or its log is truncated "
            "(its verdict does not cover the whole match) or its header fails its schema (read as it stands), or no "
            "target could be screened (every one invalid); 2 usage error") in text
    readme = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8").split())
    assert ("Exit codes: 0 all clear, 1 review/flag (or a match held invalid records or its log is truncated, so its "
            "verdict does not cover the whole match, or its header fails its schema, so the archive's roles, operators "
            "and models were read as they stand: JSON `invalidHeader`, with a note naming the first field), 2 usage (a bad option, an unusable `--config`), 3 a target "
            "could not be read (the others are still screened), 70 an internal error, 74 the output could not be "
            "written.") in readme


def test_cli_a_folder_without_a_match_says_so(runner: CliRunner, tmp_path: Path) -> None:
    """``screen exports/`` on a folder holding no match (empty today, or its matches not named m_<id>) said
    'exports, field archive.json: the folder has no archive.json', as if a match folder had lost its archive."""
    folder = tmp_path / "exports"
    folder.mkdir()
    (folder / "match1.jsonl").write_text("{}\n")
    result = runner.invoke(main, ["screen", "--format", "json", str(folder)])
    assert result.exit_code == 3
    assert json.loads(result.output)["matches"][0]["error"] == (
        f"{folder}: the folder holds no match (m_<id>.json[.gz], m_<id>.jsonl[.gz] or an m_<id> folder; other "
        "names are not read) and is no match folder (no archive.json)")
    lost = tmp_path / "m_0123456789ab"  # a match folder that lost its archive is still named as one
    lost.mkdir()
    doc = json.loads(runner.invoke(main, ["screen", "--format", "json", str(lost)]).output)
    assert doc["matches"][0]["error"] == f"{lost}, field archive.json: the folder has no archive.json"


def test_cli_formats(runner: CliRunner, tmp_path: Path) -> None:
    fed = str(write(tmp_path, feeder_events(), "fed"))
    doc = json.loads(runner.invoke(main, ["screen", "--format", "json", fed]).output)
    assert (doc["verdict"], doc["exitCode"], doc["configVersion"]) == ("flag", 1, "2.32.0")
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


@pytest.mark.parametrize("rate", ["5", "-0.02"])
def test_cli_config_false_alarm_rate_out_of_range_is_a_usage_error(runner: CliRunner, tmp_path: Path,
                                                                   rate: str) -> None:
    """A rate of 5 (meant as 5%) turned every match into review or flag, a negative one every match clear
    (exit 0 on a fed match): both are refused before anything is screened."""
    fed = str(write(tmp_path, feeder_events(), "fed"))
    override = tmp_path / "rate.json"
    override.write_text('{"general": {"false_alarm_rate": %s}}' % rate)
    result = runner.invoke(main, ["screen", "--format", "json", "--config", str(override), fed])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"daishi-forensics: error: {override}: general.false_alarm_rate must be a share in "
                             f"(0, 1), not {rate}\n")


def test_cli_sarif_fingerprint_is_the_flag_s_not_the_path_s(runner: CliRunner, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """One match screened as ``fed/m_….jsonl``, by its absolute path, through a linked folder and as a bundle
    gave its flag four ``partialFingerprints`` (a hash of the path as given), so code scanning saw a new
    alert whenever a workflow named the file another way: the fingerprint is now of the rule, the match id
    and the agents, the same however the match's file is named."""
    import hashlib
    fed = write(tmp_path, feeder_events(), "fed")
    write_match(tmp_path / "bundle", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40),
                form="bundle")
    (tmp_path / "link").symlink_to(tmp_path / "fed")
    monkeypatch.chdir(tmp_path)
    expected = hashlib.sha256(b"feeder/hub_and_spoke|m_0123456789ab|h|a_1|a_2|a_4").hexdigest()[:32]
    for target in (f"fed/{fed.name}", str(fed), f"link/{fed.name}", "./fed/" + fed.name,
                   "bundle/m_0123456789ab.json"):
        result = runner.invoke(main, ["screen", "--format", "sarif", target])
        assert result.exit_code == 1, result.output
        found = json.loads(result.output)["runs"][0]["results"][0]
        assert found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(target.lstrip("./"))
        assert found["partialFingerprints"] == {"daishiFlag/v1": expected}


def test_cli_sarif_message_never_carries_an_embedded_link(runner: CliRunner, tmp_path: Path) -> None:
    """A seat named ``[open](https://evil.example)`` by the match's author was written as it is into the SARIF
    message text, which a SARIF viewer reads as an embedded link: its brackets are now escaped (SARIF 3.11.6)."""
    hub = "[open](https://evil.example)"
    events = json.loads(json.dumps(feeder_events()).replace('"h"', json.dumps(hub)))
    fed = write_match(tmp_path / "fed", events, archive(["a_1", "a_2", "a_3", "a_4", hub], ended=40))
    sarif = json.loads(runner.invoke(main, ["screen", "--format", "sarif", str(fed)]).output)
    result = sarif["runs"][0]["results"][0]
    assert result["message"]["text"].startswith("\\[open\\](https://evil.example) received 432 in net value one way from 3 seats")
    assert "[open]" not in result["message"]["text"].replace("\\[open\\]", "")
    assert result["properties"]["agents"][0] == hub  # the data itself is kept as it is
    assert result["locations"][0]["logicalLocations"][0]["name"] == hub


def test_cli_output_files_suffix_picks_the_format(runner: CliRunner, tmp_path: Path) -> None:
    """``screen M -o screens.sarif`` wrote the text report into the .sarif file (exit 1, and the code-scanning
    upload failed on it): the suffix now picks the format unless --format says otherwise, as for behavior."""
    fed = str(write(tmp_path, feeder_events(), "fed"))
    sarif, as_json, text = tmp_path / "screens.sarif", tmp_path / "verdicts.json", tmp_path / "verdicts.txt"
    assert runner.invoke(main, ["screen", fed, "-o", str(sarif)]).exit_code == 1
    assert json.loads(sarif.read_text())["runs"][0]["results"][0]["ruleId"] == "feeder/hub_and_spoke"
    assert runner.invoke(main, ["screen", fed, "-o", str(as_json)]).exit_code == 1
    assert json.loads(as_json.read_text())["verdict"] == "flag"
    assert runner.invoke(main, ["screen", fed, "-o", str(text)]).exit_code == 1
    assert text.read_text().startswith("FLAG    ")
    assert runner.invoke(main, ["screen", fed, "--format", "github", "-o", str(sarif)]).exit_code == 1
    assert sarif.read_text().startswith("::error file=")
    assert runner.invoke(main, ["screen", fed]).output.startswith("FLAG    ")  # no -o: text


def test_cli_sarif_message_writes_control_characters_out(runner: CliRunner, tmp_path: Path) -> None:
    """A seat named with a terminal escape (``h\\x1b]0;pwned\\x07``) reached the SARIF message raw, for any viewer
    that prints it to a terminal or a CI log to obey: it is written out as the text and github formats write it."""
    hub = "h\x1b]0;pwned\x07\n::error::x"
    events = json.loads(json.dumps(feeder_events()).replace('"h"', json.dumps(hub)))
    fed = write_match(tmp_path / "fed", events, archive(["a_1", "a_2", "a_3", "a_4", hub], ended=40))
    sarif = json.loads(runner.invoke(main, ["screen", "--format", "sarif", str(fed)]).output)
    result = sarif["runs"][0]["results"][0]
    assert result["message"]["text"].startswith("h\\x1b\\]0;pwned\\x07\\n::error::x received 432 in net value")
    assert result["properties"]["agents"][0] == hub  # the data itself is kept as it is


def test_sarif_message_of_a_flag_without_a_null_carries_its_score_and_threshold() -> None:
    """A season-scale flag (a threshold, no p-value yet) read 'score 2 (threshold 2)' in text and github output
    but its SARIF message held the explanation alone: the message now carries the figure its verdict rests on."""
    from daishi_forensics.report.render.screens import render_sarif
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens.config import default_config
    from daishi_forensics.screens.flags import Flag
    from daishi_forensics.screens.screening import SeasonResult

    config = default_config()
    flag = Flag("feeder", "hub_and_spoke", "flag", ("o_1", "o_2", "o_3"), (("o_1", "o_2"), ("o_1", "o_3")), 2.0, 2.0,
                ("m_1#5",), "Across the season, operator o_1 was fed value one way.", match="season")
    season = SeasonResult("flag", config.version, config.digest, (), (flag,))
    doc = json.loads(render_sarif(ScreenRun(config, (MatchOutcome("m_1"),), season)))
    assert [r["message"]["text"] for r in doc["runs"][0]["results"]] == [
        "Across the season, operator o_1 was fed value one way. (score 2 (threshold 2))"]


def test_github_annotation_of_a_season_flag_names_no_file() -> None:
    """A season-scale flag was annotated '::error file=season,...': a file of that name is not in the repository
    (or is, and is not what the flag is about). It is annotated without a file now, as a target not screened is."""
    from daishi_forensics.report.render.screens import render_github
    from daishi_forensics.report.screening import ScreenRun
    from daishi_forensics.screens.config import default_config
    from daishi_forensics.screens.flags import Flag
    from daishi_forensics.screens.screening import SeasonResult

    config = default_config()
    flag = Flag("feeder", "hub_and_spoke", "flag", ("o_1", "o_2", "o_3"), (("o_1", "o_2"), ("o_1", "o_3")), 2.0, 2.0,
                ("m_1#5",), "Across the season, operator o_1 was fed value one way.", match="season")
    season = SeasonResult("flag", config.version, config.digest, (), (flag,))
    lines = render_github(ScreenRun(config, (), season)).splitlines()
    assert lines[0] == ("::error title=daishi-forensics feeder/hub_and_spoke::Across the season, operator o_1 was fed "
                        "value one way. Score 2 (threshold 2). Events: m_1#5.")


def test_cli_sarif_message_doubles_a_name_s_curly_braces(runner: CliRunner, tmp_path: Path) -> None:
    """A seat named ``{0}`` was written as it is into the SARIF message text, where a consumer reads ``{0}`` as the
    placeholder of a message argument (SARIF 3.11.5) and shows nothing or an error in the name's place: a
    literal brace is now doubled, as the standard asks; the agents in properties keep the name as it is."""
    hub = "{0}"
    events = json.loads(json.dumps(feeder_events()).replace('"h"', json.dumps(hub)))
    fed = write_match(tmp_path / "fed", events, archive(["a_1", "a_2", "a_3", "a_4", hub], ended=40))
    sarif = json.loads(runner.invoke(main, ["screen", "--format", "sarif", str(fed)]).output)
    result = sarif["runs"][0]["results"][0]
    assert result["message"]["text"].startswith("{{0}} received 432 in net value one way from 3 seats")
    assert result["properties"]["agents"][0] == hub


@pytest.mark.parametrize("setting, said", [
    ('{"screens": {"pair_outlier": {"value_floor": 0}}}', "screens.pair_outlier.value_floor must be a number in "
                                                          "(0, inf), not 0"),
    ('{"screens": {"fans": {"min_window": -1}}}', "screens.fans.min_window must be a number in (0, inf), not -1"),
    ('{"screens": {"fans": {"window_steps": 10000000}}}', "screens.fans.window_steps must be a whole number in "
                                                           "[1, 100], not 10000000"),
])
def test_cli_config_setting_out_of_its_domain_is_a_usage_error(runner: CliRunner, tmp_path: Path, setting: str,
                                                               said: str) -> None:
    """A floor of 0 divided by zero (exit 70, ZeroDivisionError), a negative window took a complex root (exit
    70), ten million windows ran for minutes: each is refused before anything is screened, naming the file
    and the setting."""
    fed = str(write(tmp_path, feeder_events(), "fed"))
    override = tmp_path / "bad.json"
    override.write_text(setting)
    result = runner.invoke(main, ["screen", "--format", "json", "--config", str(override), fed])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"daishi-forensics: error: {override}: {said}\n"


@pytest.mark.parametrize("ticks, section, name", [
    (10, "fans", "min_fan"),  # every seat tested as a fan's hub, those with no transfer that way too
    (1, "pair_outlier", "min_pairs"),  # the pairs scored of a match that had none (one round, no trade)
], ids=["fan of no counterparties", "population of no pairs"])
def test_cli_config_count_of_nothing_is_a_usage_error(runner: CliRunner, tmp_path: Path, ticks: int, section: str,
                                                      name: str) -> None:
    """fans.min_fan 0 on a short honest match (four seats, ten rounds) stopped screen with exit 70 (ValueError:
    zero-size array); pair_outlier.min_pairs 0 on a match of one round with no pairs, with exit 70 (IndexError).
    Each is refused before anything is screened; 1 screens the match."""
    from daishi_forensics.simulate import simulate_to_dir

    simulate_to_dir("clean", 1, 3, tmp_path, "stream", truth_file=None, ticks=ticks, n_agents=4)
    override = tmp_path / "override.json"
    override.write_text(json.dumps({"screens": {section: {name: 0}}}))
    result = runner.invoke(main, ["screen", "--format", "json", "--config", str(override), str(tmp_path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"daishi-forensics: error: {override}: screens.{section}.{name} must be a whole number "
                             "in [1, 9007199254740991], not 0\n")
    override.write_text(json.dumps({"screens": {section: {name: 1}}}))
    result = runner.invoke(main, ["screen", "--format", "json", "--config", str(override), str(tmp_path)])
    assert result.exit_code == 0 and json.loads(result.stdout)["verdict"] == "clear"


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


def test_cli_season_of_which_nothing_was_screened_has_no_verdict(runner: CliRunner, tmp_path: Path) -> None:
    """A season whose one match cannot be read was 'SEASON  clear (0 matches screened)' and 'verdict clear'
    (JSON "verdict": "clear") beside exit 3: nothing was screened, so there is no verdict."""
    season = tmp_path / "season"
    season.mkdir()
    (season / "m_000000000001.json").write_text("{}")
    text = runner.invoke(main, ["screen", "--season", str(season)])
    assert text.exit_code == 3
    lines = text.output.splitlines()
    at = lines.index("SEASON  no verdict (0 matches screened)")
    assert lines[at + 1] == "nothing screened: the target could not be screened (see above), so there is no verdict (screens"
    assert "clear" not in text.output
    result = runner.invoke(main, ["screen", "--format", "json", "--season", str(season)])
    doc = json.loads(result.output)
    assert (result.exit_code, doc["verdict"], doc["season"]["verdict"], doc["exitCode"]) == (3, None, None, 3)
    sarif = json.loads(runner.invoke(main, ["screen", "--format", "sarif", "--season", str(season)]).output)
    assert sarif["runs"][0]["properties"]["verdict"] is None
    github = runner.invoke(main, ["screen", "--format", "github", "--season", str(season)]).output
    assert github.splitlines()[-1].startswith("screens: nothing could be screened, no verdict (config ")


def test_cli_a_file_named_twice_is_screened_once(runner: CliRunner, tmp_path: Path) -> None:
    """``screen exports/ --season exports/`` (or a target also in the --season folder) screened every match of the
    folder twice: each listed twice and the verdict line counting '0 clear, 2 flag' of one flagged match."""
    season = tmp_path / "season"
    stream = write_match(season, feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    for args in (["screen", str(season), "--season", str(season)], ["screen", str(stream), str(stream)]):
        text = runner.invoke(main, args).output
        assert sum(line.startswith("FLAG    m_") for line in text.splitlines()) == 1
        assert "verdict flag: 0 clear, 0 review, 1 flag (" in text


def test_cli_season_counts_one_match_given_twice_once(runner: CliRunner, tmp_path: Path) -> None:
    """A season folder holding one match as a stream and as a gzipped bundle, or a target that is also in the
    season folder, was screened into the season twice ('SEASON  clear (2 matches screened)' of one match), so
    the season-scale rules, which count matches, read one match's feeds as two: it counts once now, and says so."""
    season = tmp_path / "season"
    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    stream = write_match(season, feeder_events(), arch)
    bundle = write_match(season, feeder_events(), arch, form="bundle-gz")
    result = runner.invoke(main, ["screen", "--format", "json", str(stream), "--season", str(season)])
    doc = json.loads(result.stdout)
    assert result.exit_code == 1 and [m["target"] for m in doc["matches"]] == [str(stream)]  # listed once, too
    assert doc["matches"][0]["alsoTargets"] == [str(bundle)]
    assert doc["season"]["notes"] == [f"{bundle} is {arch['matchId']} again (as {stream}): counted once in the season"]
    text = runner.invoke(main, ["screen", "--season", str(season)]).output
    assert "SEASON  clear (1 match screened)" in text.splitlines()


def test_cli_one_match_under_two_names_is_screened_once(runner: CliRunner, tmp_path: Path) -> None:
    """``screen a/m.jsonl b/m.jsonl`` (a copy in another folder) or a stream beside its bundle listed the match
    once per file ('FLAG    m_… (a/…)', 'FLAG    m_… (b/…)') and counted it in each ('0 clear, 0 review, 2 flag'),
    in every format (the github and sarif flags twice), and said nothing of it. It is screened once: listed
    once naming every file, and each later file said on stderr with the content digest the files share."""
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.screening import content_digest

    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    first = write_match(tmp_path / "a", feeder_events(), arch)
    copy = write_match(tmp_path / "b", feeder_events(), arch)
    bundle = write_match(tmp_path / "c", feeder_events(), arch, form="bundle-gz")
    digest = content_digest(open_match(str(first)))
    assert digest == content_digest(open_match(str(bundle)))  # one match, whatever its form
    mid = arch["matchId"]
    args = ["screen", str(first), str(copy), str(bundle)]
    text = runner.invoke(main, args, env={"COLUMNS": "1000"})
    assert text.exit_code == 1
    lines = text.stdout.splitlines()
    assert [line for line in lines if line.startswith(("FLAG", "CLEAR", "REVIEW", "NOT"))] == [
        f"FLAG    {mid} ({first}; the same match: {copy}, {bundle}) [16 tests, 5 counted]"]
    assert lines[-1].startswith("verdict flag: 0 clear, 0 review, 1 flag (")
    assert text.stderr.splitlines() == [
        f"daishi-forensics: warning: {other} is match {mid} again, with the same archive and events as {first} "
        f"(content sha256 {digest[:12]}): screened once, listed as {first}" for other in (copy, bundle)]
    result = runner.invoke(main, ["screen", "--format", "json", *args[1:]])
    doc = json.loads(result.stdout)
    assert (result.exit_code, doc["exitCode"], doc["verdict"]) == (1, 1, "flag")
    [entry] = doc["matches"]
    assert (entry["target"], entry["alsoTargets"], entry["contentSha256"]) == (str(first), [str(copy), str(bundle)],
                                                                              digest)
    github = runner.invoke(main, ["screen", "--format", "github", *args[1:]])
    annotations = [line for line in github.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == 2 and annotations[0].startswith(
        f"::error file={first},line=19,title=daishi-forensics feeder/")
    assert annotations[0].endswith(f" The same match: {copy}, {bundle} (screened once).")
    assert annotations[1] == (f"::warning file={first},title=daishi-forensics not screened whole::not screened: "
                              f"operator (no seat names its operator); the same match: {copy}, {bundle}")
    sarif = json.loads(runner.invoke(main, ["screen", "--format", "sarif", *args[1:]]).stdout)
    [found] = sarif["runs"][0]["results"]
    assert found["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == f"file://{first}"
    assert found["relatedLocations"] == [
        {"id": i, "message": {"text": f"the same match as {first}, screened once"},
         "physicalLocation": {"artifactLocation": {"uri": f"file://{other}"}, "region": {"startLine": line}}}
        for i, (other, line) in enumerate(((copy, 19), (bundle, 1)), 1)]  # (the copy's event 40: its line 19)


def test_cli_one_match_id_with_other_content_is_refused_naming_both(runner: CliRunner, tmp_path: Path) -> None:
    """Two files of one match id whose events differ are not one match: the later is not screened, and an
    error names both files and their content digests (exit 3, as for a target that cannot be read)."""
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.screening import content_digest

    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    first = write_match(tmp_path / "a", feeder_events(), arch)
    other = write_match(tmp_path / "b", feeder_events()[:-2], arch)
    mine, theirs = (content_digest(open_match(str(p)))[:12] for p in (other, first))
    error = (f"{other}: match {arch['matchId']} again, as {first}, but with another archive or other events "
             f"(content sha256 {mine} here, {theirs} there): not screened; give the one that is the match")
    result = runner.invoke(main, ["screen", str(first), str(other)], env={"COLUMNS": "1000"})
    assert result.exit_code == 3
    assert result.stderr.splitlines() == [f"daishi-forensics: error: {error}"]
    assert f"NOT SCREENED  {error}" in result.stdout.splitlines()
    doc = json.loads(runner.invoke(main, ["screen", "--format", "json", str(first), str(other)]).stdout)
    assert doc["exitCode"] == 3 and [m["target"] for m in doc["matches"]] == [str(first), str(other)]
    assert (doc["matches"][1]["verdict"], doc["matches"][1]["error"]) == (None, error)


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


def test_the_ring_screen_runs_beside_the_others_to_the_same_result(tmp_path: Path) -> None:
    """The feeder screen, run here while the ring screen runs beside, flags as in one process (the ring's own flag
    run beside: tests/test_screens.py)."""
    analysis = analysed(tmp_path, feeder_events())
    here = screen_match(analysis)
    assert [f.screen for f in here.flags] == ["feeder"]
    beside = Beside()
    assert screen_match(analysis, beside=beside) == here
    [handed] = beside.handed
    assert [screen for screen, _ in handed.args[2]] == ["ring"]
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


def _annotated(n_matches: int, *, unread_at: int | None = None, partial_at: int | None = None) -> Any:
    """A screen run of ``n_matches`` matches ``m_01``…, each with one flag and one review (a threshold rule: short
    annotations), the target at ``unread_at`` not screened, the match at ``partial_at`` screened not whole."""
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens.config import default_config
    from daishi_forensics.screens.flags import Flag
    from daishi_forensics.screens.screening import ScreenResult

    config = default_config()
    matches = []
    for i in range(1, n_matches + 1):
        name = f"m_{i:02d}"
        if i == unread_at:
            matches.append(MatchOutcome(f"{name}.jsonl", error=f"{name}.jsonl: no such file", error_code=3))
            continue
        flags = (Flag("feeder", "hub_and_spoke", "flag", ("h", "a", "b"), (("a", "h"), ("b", "h")), 2.0, 2.0,
                      (i,), f"{name}: h was fed."),
                 Flag("operator", "shared_operator", "review", ("a", "h"), (("a", "h"),), 1.0, 1.0, (i + 100,),
                      f"{name}: a and h share an operator."))
        partial = ("its log ends before the match did",) if i == partial_at else ()
        matches.append(MatchOutcome(name, name, ScreenResult("flag", config.version, config.digest, flags, partial),
                                    truncated=partial))
    return ScreenRun(config, tuple(matches))


def _github_flag(i: int) -> str:
    return (f"::error file=m_{i:02d},title=daishi-forensics feeder/hub_and_spoke::m_{i:02d}: h was fed. "
            f"Score 2 (threshold 2). Events: {i}.")


def _github_review(i: int) -> str:
    return (f"::warning file=m_{i:02d},title=daishi-forensics operator/shared_operator::m_{i:02d}: a and h share an "
            f"operator. Score 1 (threshold 1). Events: {i + 100}.")


def test_github_annotations_are_written_flags_first_then_reviews_then_warnings() -> None:
    """Two matches each with a flag and a review were annotated match by match (error, warning, error, warning):
    over many matches, GitHub, which shows the first 10 of each level in a step, could show reviews of the first
    matches and hide flags of the last. The flags come first now, then the targets not screened, the reviews,
    the parts not screened; each in the order of the matches. No more than 10 of a level: no count."""
    from daishi_forensics.report.render.screens import render_github

    run = _annotated(3, unread_at=2, partial_at=3)
    config = run.config
    assert render_github(run).splitlines() == [
        _github_flag(1), _github_flag(3),
        "::error title=daishi-forensics not screened::m_02.jsonl: no such file",
        _github_review(1), _github_review(3),
        "::warning file=m_03,title=daishi-forensics not screened whole::its log ends before the match did",
        f"screens verdict flag (config {config.version}, {config.digest})",
    ]


def test_github_annotations_past_what_github_shows_are_all_written_and_counted() -> None:
    """Twelve matches with a flag and a review each wrote 12 ::error and 12 ::warning annotations, of which GitHub
    shows 10 of each in a step and drops the rest without a word. Every annotation is still written, and a
    ::notice after them says how many of each level there are in all and that some may not be shown."""
    from daishi_forensics.report.render.screens import render_github

    run = _annotated(13, unread_at=7, partial_at=12)
    config = run.config
    screened = [i for i in range(1, 14) if i != 7]
    assert render_github(run).splitlines() == [
        *map(_github_flag, screened),
        "::error title=daishi-forensics not screened::m_07.jsonl: no such file",
        *map(_github_review, screened),
        "::warning file=m_12,title=daishi-forensics not screened whole::its log ends before the match did",
        "::notice title=daishi-forensics annotations::13 errors (12 flags, 1 target not screened) and 13 warnings "
        "(12 reviews, 1 part not screened) annotated in all; GitHub shows at most 10 annotations of each "
        "level in a step (and 50 in a job), so some may be missing from the annotations: every one is in this "
        "step's log",
        f"screens verdict flag (config {config.version}, {config.digest})",
    ]
    # ten of a level are all shown: no count
    assert not [line for line in render_github(_annotated(10)).splitlines() if line.startswith("::notice")]


def test_sarif_season_flags_have_rules_of_their_own_and_no_made_up_file() -> None:
    """With --season, a season-wide flag reused the per-match rule id (``feeder/hub_and_spoke``), whose entry
    showed the per-match settings (min_spoke_value ...), though the season rule is another one (a threshold on
    feeds counted over the season's matches, no p-value), and it was located in a file ``season`` that is not
    there. It has its own rule now (``season/feeder/hub_and_spoke``: its description and its settings), its agents
    as logical locations and, as its file (code scanning refuses a result without one), the first match file it is
    about (the matches its details list, in the run's order; the others as related locations), else the run's
    first screened match; a match's flag keeps its rule and its file."""
    from daishi_forensics.report.render.screens import _RULE_HELP, render_sarif
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens.config import default_config
    from daishi_forensics.screens.flags import Flag
    from daishi_forensics.screens.screening import ScreenResult, SeasonResult

    config = default_config()
    in_match = Flag("feeder", "hub_and_spoke", "flag", ("h", "a", "b"), (("a", "h"), ("b", "h")), 12.0, 1.0, (7,),
                    "h was fed.", p_value=0.0001, null="a coin", tests=3, p_adjusted=0.0003)
    hub = Flag("feeder", "hub_and_spoke", "flag", ("o_1", "o_2", "o_3"), (("o_1", "o_2"), ("o_1", "o_3")), 2.0, 2.0,
               ("m_1#5",), "Across the season, operator o_1 was fed value one way.", match="season")
    pair = Flag("operator", "recurring_pair", "review", ("o_2", "o_3"), (("o_2", "o_3"),), 3.0, 3.0, ("m_1#6",),
                "Operator o_3 passed value one way to operator o_2 in 3 of the 3 matches they both played.",
                details={"matches": ["m_2", "m_1", "m_9"]}, match="season")
    match = ScreenResult("flag", config.version, config.digest, (in_match,))
    other = ScreenResult("clear", config.version, config.digest, ())
    season = SeasonResult("flag", config.version, config.digest, (match, other), (hub, pair))
    run = ScreenRun(config, (MatchOutcome("m_1.jsonl", "m_1", match), MatchOutcome("s/m 2.jsonl", "m_2", other)),
                    season)
    doc = json.loads(render_sarif(run))
    [sarif_run] = doc["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["feeder/hub_and_spoke", "season/feeder/hub_and_spoke",
                                        "season/operator/recurring_pair"]
    assert rules[0]["properties"]["parameters"] == {"enabled": True, "min_directionality": 0.6, "min_spoke_value": 1.0,
                                                    "min_giver_share": 1 / 3, "whole_items": True, "hub_pool": True,
                                                    "hub_pool_trades": False, "trade_feeds_review": False,
                                                    "hub_bound_share": 0.5,
                                                    "hub_min_spoke_exchanges": 3}
    assert rules[1] == {
        "id": "season/feeder/hub_and_spoke",
        "name": "season.feeder.hub_and_spoke",
        "shortDescription": {"text": "Season-wide collusion screen feeder: hub and spoke"},
        "fullDescription": {"text": "A seat (or operator) fed value one way by min_spokes or more others, in two or "
                                    "more of the season's matches, counting only the feeds their own match did not "
                                    "flag. A threshold on the number of feeders, counted over the season's matches; "
                                    "no p-value."},
        "help": {"text": _RULE_HELP},
        "properties": {"screen": "feeder", "scope": "season", "section": "season",
                       "parameters": {"enabled": True, "min_feed_value": 5.0, "min_directionality": 0.6,
                                      "min_one_way_exchanges": 2, "min_spokes": 2}},
    }
    assert rules[2]["properties"]["parameters"] == {"enabled": True, "min_feed_value": 5.0, "min_directionality": 0.6,
                                                    "min_one_way_exchanges": 2, "min_matches": 3, "min_share": 0.5}
    results = sarif_run["results"]
    assert [(r["ruleId"], r["ruleIndex"], r["level"], r["locations"]) for r in results] == [
        ("feeder/hub_and_spoke", 0, "error", [{
            "physicalLocation": {"artifactLocation": {"uri": "m_1.jsonl"}, "region": {"startLine": 1}},
            "logicalLocations": [{"name": "h", "kind": "member"}, {"name": "a", "kind": "member"},
                                 {"name": "b", "kind": "member"}]}]),
        ("season/feeder/hub_and_spoke", 1, "error", [{
            "physicalLocation": {"artifactLocation": {"uri": "m_1.jsonl"}, "region": {"startLine": 1}},
            "logicalLocations": [{"name": "o_1", "kind": "member"}, {"name": "o_2", "kind": "member"},
                                 {"name": "o_3", "kind": "member"}]}]),
        ("season/operator/recurring_pair", 2, "warning", [{
            "physicalLocation": {"artifactLocation": {"uri": "m_1.jsonl"}, "region": {"startLine": 1}},
            "logicalLocations": [{"name": "o_2", "kind": "member"}, {"name": "o_3", "kind": "member"}]}]),
    ]
    assert "relatedLocations" not in results[1]
    assert results[2]["relatedLocations"] == [{"id": 1, "physicalLocation": {"artifactLocation": {"uri": "s/m%202.jsonl"},
                                                                          "region": {"startLine": 1}}}]
    assert [r["properties"]["match"] for r in results[1:]] == ["season", "season"]
    # what SARIF 2.1.0 requires of each object written: a rule's id, a result's message
    assert all(r["id"] for r in rules) and all(r["message"]["text"] for r in results)


def test_github_step_summary_is_a_table_of_every_finding_in_annotation_order() -> None:
    """The github format's annotations are all that a workflow run's page showed of the findings (10 of each level
    at most). Where $GITHUB_STEP_SUMMARY is set, a Markdown table of every finding, in the annotations' order,
    goes to the step summary; past its size budget, the rows not listed are counted."""
    from daishi_forensics.report.render.screens import render_step_summary

    run = _annotated(3, unread_at=2, partial_at=3)
    config = run.config
    rows = [
        "| flag | feeder/hub\\_and\\_spoke | m\\_01 | h, a, b | score 2 (threshold 2) | m\\_01: h was fed. | 1 |",
        "| flag | feeder/hub\\_and\\_spoke | m\\_03 | h, a, b | score 2 (threshold 2) | m\\_03: h was fed. | 3 |",
        "| error | not screened | m\\_02.jsonl | – | – | m\\_02.jsonl: no such file | – |",
        "| review | operator/shared\\_operator | m\\_01 | a, h | score 1 (threshold 1) | m\\_01: a and h share an "
        "operator. | 101 |",
        "| review | operator/shared\\_operator | m\\_03 | a, h | score 1 (threshold 1) | m\\_03: a and h share an "
        "operator. | 103 |",
        "| warning | not screened whole | m\\_03 | – | – | its log ends before the match did | – |",
    ]
    head = [
        "### daishi-forensics screen",
        "",
        f"screens verdict flag (config {config.version}, `{config.digest}`): 2 flags, 1 target not screened, 2 reviews, "
        "1 part not screened",
        "",
        "| level | finding | target | agents | significance | explanation | events |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    assert render_step_summary(run) == "\n".join([*head, *rows]) + "\n\n"
    budget = sum(len(line.encode()) + 1 for line in [*head, *rows[:4]])
    assert render_step_summary(run, budget=budget) == "\n".join([
        *head, *rows[:4], "",
        "2 more not listed here (a step summary holds at most 1 MiB): every one is annotated in this step's log.",
    ]) + "\n\n"


def test_github_step_summary_escapes_what_a_match_names() -> None:
    """A seat's name and a flag's words are data: in the step summary's table a '|' cannot open a cell, '<' no
    HTML, '@' no mention, a line break no new row."""
    from daishi_forensics.report.render.screens import render_step_summary
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens.config import default_config
    from daishi_forensics.screens.flags import Flag
    from daishi_forensics.screens.screening import ScreenResult

    config = default_config()
    hub = "h|<b>x</b>\n# @org/team"
    flag = Flag("feeder", "hub_and_spoke", "flag", (hub, "a"), (("a", hub),), 2.0, 2.0, (1,), f"{hub} was fed.")
    run = ScreenRun(config, (MatchOutcome("m_1", "m_1", ScreenResult("flag", config.version, config.digest,
                                                                     (flag,))),))
    assert render_step_summary(run).splitlines()[6] == (
        "| flag | feeder/hub\\_and\\_spoke | m\\_1 | h\\|\\<b\\>x\\</b\\>\\\\n\\# `@org/team`, a | score 2 (threshold 2) | "
        "h\\|\\<b\\>x\\</b\\>\\\\n\\# `@org/team` was fed. | 1 |")


def test_cli_github_format_adds_a_step_summary_where_a_workflow_sets_one(runner: CliRunner, tmp_path: Path) -> None:
    """--format github in a workflow step (where $GITHUB_STEP_SUMMARY names the step's summary file) adds the table
    of findings to that file, after what was there; other formats, or outside a workflow, write nothing there."""
    from daishi_forensics.textsafe import md_escape

    fed = str(write(tmp_path, feeder_events(), "fed"))
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step output\n")
    result = runner.invoke(main, ["screen", "--format", "github", fed], env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.exit_code == 1
    lines = summary.read_text().splitlines()
    assert lines[:3] == ["earlier step output", "### daishi-forensics screen", ""]
    assert lines[3:7] == ["screens verdict flag (config 2.32.0, `b6623d47a8d3`): 1 flag, 1 part not screened", "",
                          "| level | finding | target | agents | significance | explanation | events |",
                          "| --- | --- | --- | --- | --- | --- | --- |"]
    assert lines[7].startswith(f"| flag | feeder/hub\\_and\\_spoke | {md_escape(fed)} | h, a\\_1, a\\_2, a\\_4 | p 0.000488 "
                               "(adjusted 0.00293 over 5 tests); score 72 | h received 432 in net value one way ")
    assert lines[8:] == [f"| warning | not screened whole | {md_escape(fed)} | – | – | not screened: operator (no seat "
                         "names its operator) | – |", ""]  # a blank line: what a later step writes is apart
    # other formats, or no step summary set: nothing written there
    before = summary.read_text()
    assert runner.invoke(main, ["screen", "--format", "sarif", fed],
                         env={"GITHUB_STEP_SUMMARY": str(summary)}).exit_code == 1
    assert runner.invoke(main, ["screen", "--format", "github", fed]).exit_code == 1
    assert summary.read_text() == before
    # a summary that cannot be written: exit 74, naming it (the annotations are written already)
    bad = runner.invoke(main, ["screen", "--format", "github", fed], env={"GITHUB_STEP_SUMMARY": str(tmp_path)})
    assert bad.exit_code == 74 and str(tmp_path) in bad.stderr and bad.stdout.startswith("::error file=")
    # a summary that is the match itself: refused, said as what would happen to it (added to, not replaced)
    same = runner.invoke(main, ["screen", "--format", "github", fed], env={"GITHUB_STEP_SUMMARY": fed})
    assert same.exit_code == 74
    assert same.stderr.endswith(f"{fed}: is an input of this command: refused, the output would be added to it "
                                "(name another file)\n")


def test_a_season_check_left_unfinished_is_said_in_github_sarif_and_the_step_summary() -> None:
    """A season-scale check that could not finish (its search out of steps) was said in the text and JSON
    outputs only: the github annotations, the step summary and the SARIF notifications of the same run said
    nothing, so an operator reading CI saw a whole verdict."""
    from daishi_forensics.report.render.screens import render_github, render_sarif, render_step_summary
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens.config import default_config
    from daishi_forensics.screens.screening import ScreenResult, SeasonResult

    config = default_config()
    match = ScreenResult("clear", config.version, config.digest, ())
    reason = "feed cycles: the search ran out of steps (100 of 100)"
    season = SeasonResult("clear", config.version, config.digest, (match,), (), not_screened=(reason,))
    run = ScreenRun(config, (MatchOutcome("m_1.jsonl", "m_1", match),), season)
    assert render_github(run).splitlines()[0] == (
        "::warning title=daishi-forensics season not screened whole::" + reason)
    notes = json.loads(render_sarif(run))["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes == [{"level": "warning", "message": {"text": "season: " + reason}}]
    assert render_step_summary(run).splitlines()[2:] == [
        f"screens verdict clear (config {config.version}, `{config.digest}`): 1 part not screened", "",
        "| level | finding | target | agents | significance | explanation | events |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        "| warning | not screened whole | season | – | – | " + reason + " | – |", ""]
