"""The SARIF of ``screen`` and ``screen-transfers`` checked against what a code-scanning service takes.

Beyond the SARIF 2.1.0 schema, GitHub code scanning documents what it needs of an uploaded file: every
result's ``ruleId`` among the run's rules (their ids unique), a ``level`` of the SARIF enum, a non-empty
message, at least one location with ``physicalLocation.artifactLocation.uri`` (a relative path, or an absolute
``file:`` URI it makes relative to the checkout) and ``region.startLine`` of 1 or more, fingerprints as strings;
and at most 20 runs, 25,000 rules and 25,000 results a run (the 5,000 most severe kept), 1,000 locations a
result. :func:`code_scanning_problems` checks those rules by hand on the documents the tests write.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, write_match
from .test_screens_daishi import feeder_events

LEVELS = ("none", "note", "warning", "error")


def code_scanning_problems(doc: dict[str, Any]) -> list[str]:
    """What GitHub code scanning would refuse or misplace in a SARIF document (empty: nothing)."""
    problems: list[str] = []
    if doc.get("version") != "2.1.0":
        problems.append("version is not 2.1.0")
    runs = doc.get("runs")
    if not isinstance(runs, list) or not 1 <= len(runs) <= 20:
        return [*problems, "runs: not 1 to 20 runs"]
    for r, run in enumerate(runs):
        driver = run["tool"]["driver"]
        if not driver.get("name"):
            problems.append(f"run {r}: the driver has no name")
        ids = [rule["id"] for rule in driver.get("rules", [])]
        if len(set(ids)) != len(ids) or not all(ids):
            problems.append(f"run {r}: rule ids empty or repeated: {ids}")
        for rule in driver.get("rules", []):
            if not all(rule.get(k, {}).get("text", "").strip() for k in ("shortDescription", "fullDescription", "help")):
                problems.append(f"run {r}: rule {rule['id']!r} without a short and full description and help")
            if len(rule.get("properties", {}).get("tags", [])) > 20:
                problems.append(f"run {r}: rule {rule['id']!r} with more than 20 tags")
        if len(ids) > 25_000:
            problems.append(f"run {r}: {len(ids)} rules")
        for invocation in run.get("invocations", []):
            if not isinstance(invocation.get("executionSuccessful"), bool):
                problems.append(f"run {r}: an invocation without executionSuccessful")
            for note in invocation.get("toolExecutionNotifications", []):
                if note.get("level", "warning") not in LEVELS or not note.get("message", {}).get("text"):
                    problems.append(f"run {r}: notification {note!r}")
        results = run.get("results")
        if not isinstance(results, list):
            problems.append(f"run {r}: no results array")
            continue
        if len(results) > 25_000:
            problems.append(f"run {r}: {len(results)} results")
        for i, result in enumerate(results):
            where = f"run {r} result {i}"
            rule = result.get("ruleId")
            if rule not in ids:
                problems.append(f"{where}: ruleId {rule!r} is not a rule of the run")
            elif "ruleIndex" in result and ids[result["ruleIndex"]] != rule:
                problems.append(f"{where}: ruleIndex {result['ruleIndex']} is not rule {rule!r}")
            if result.get("level", "warning") not in LEVELS:
                problems.append(f"{where}: level {result.get('level')!r}")
            text = result.get("message", {}).get("text")
            if not isinstance(text, str) or not text.strip():
                problems.append(f"{where}: no message text")
            locations = result.get("locations") or []
            if not 1 <= len(locations) <= 1000:
                problems.append(f"{where}: {len(locations)} locations")
            for location in [*locations, *result.get("relatedLocations", [])]:
                physical = location.get("physicalLocation") or {}
                uri = physical.get("artifactLocation", {}).get("uri")
                if not isinstance(uri, str) or not uri:
                    problems.append(f"{where}: a location without physicalLocation.artifactLocation.uri")
                elif uri.startswith(("/", "../")) or uri == ".." or ("://" in uri and not uri.startswith("file:///")):
                    problems.append(f"{where}: uri {uri!r} is neither a path in the repository nor a file: URI")
                start = physical.get("region", {}).get("startLine")
                if not isinstance(start, int) or isinstance(start, bool) or start < 1:
                    problems.append(f"{where}: region.startLine {start!r} (uri {uri!r})")
            for key, value in (result.get("partialFingerprints") or {}).items():
                if not isinstance(value, str):
                    problems.append(f"{where}: partialFingerprints[{key!r}] is not a string")
    return problems


def _sarif(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(main, [*args, "--format", "sarif"])
    assert result.exit_code == 1, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_every_location_has_a_region(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``screen fed/m_….jsonl --format sarif`` located each result by its file alone, with no ``region``: GitHub
    code scanning takes no location without ``region.startLine`` (1 or more), so the upload could not place the
    alert. Every location (and related location) now has the region ``{"startLine": 1}``: the match's file, from
    its first line (a flag is about a match, not about one line of it)."""
    write_match(tmp_path / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    write_match(tmp_path / "copy", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    monkeypatch.chdir(tmp_path)
    doc = _sarif(["screen", "fed/m_0123456789ab.jsonl", "copy/m_0123456789ab.jsonl"])
    (result,) = doc["runs"][0]["results"]
    # the line of the flag's first evidence event (40), since it is read a record a line; the copy's too, in its file
    assert result["locations"] == [{
        "physicalLocation": {"artifactLocation": {"uri": "fed/m_0123456789ab.jsonl"}, "region": {"startLine": 19}},
        "logicalLocations": [{"name": agent, "kind": "member"} for agent in ("h", "a_1", "a_2", "a_4")],
    }]
    assert result["relatedLocations"] == [{
        "id": 1,
        "physicalLocation": {"artifactLocation": {"uri": "copy/m_0123456789ab.jsonl"}, "region": {"startLine": 19}},
        "message": {"text": "the same match as fed/m_0123456789ab.jsonl, screened once"},
    }]
    assert (result["ruleId"], result["ruleIndex"], result["level"]) == ("feeder/hub_and_spoke", 0, "error")
    assert [rule["id"] for rule in doc["runs"][0]["tool"]["driver"]["rules"]] == ["feeder/hub_and_spoke"]
    assert code_scanning_problems(doc) == []


def test_a_file_outside_the_working_folder_is_a_file_uri(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``screen /abs/path/m_….jsonl --format sarif`` (or ``../exports/m_….jsonl``) wrote the path as it was given
    as the artifact's uri: ``/home/runner/work/r/r/exports/m_….jsonl`` and ``../exports/m_….jsonl`` are relative
    references, which code scanning reads as paths in the repository (a file it does not have). A path that is
    absolute or leaves the folder the command ran in is now an absolute ``file:`` URI of the path made absolute
    (code scanning makes it relative to the checkout); a relative path inside the folder stays as it was."""
    fed = write_match(tmp_path / "exports" / "my fed", feeder_events(),
                      archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    encoded = f"file://{tmp_path}/exports/my%20fed/m_0123456789ab.jsonl"
    for target, uri in ((str(fed), encoded), ("../exports/my fed/m_0123456789ab.jsonl", encoded),
                        (f"{tmp_path}/work/../exports/./my fed/m_0123456789ab.jsonl", encoded)):
        doc = _sarif(["screen", target])
        (result,) = doc["runs"][0]["results"]
        assert result["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": uri},
                                                              "region": {"startLine": 19}}, target
        assert code_scanning_problems(doc) == []
    monkeypatch.chdir(tmp_path / "exports")
    doc = _sarif(["screen", "my fed/m_0123456789ab.jsonl"])
    assert doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "my%20fed/m_0123456789ab.jsonl"}
    # the same for a table of transfers (screen-transfers)
    from .transferkit import background_rows, cycle_rows, write_csv

    table = write_csv(tmp_path / "exports" / "tx.csv", background_rows() + cycle_rows())
    columns = ["--from", "SENDER", "--to", "RECEIVER", "--value", "AMOUNT", "--tick", "STEP", "--id", "TX"]
    for target in (str(table), "../exports/tx.csv"):
        monkeypatch.chdir(tmp_path / "work")
        doc = _sarif(["screen-transfers", target, *columns])
        assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]} \
            == {f"file://{tmp_path}/exports/tx.csv"}
        assert code_scanning_problems(doc) == []


def test_a_run_s_sarif_places_its_files_from_the_folder_it_ran_in(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering is a function of the run: the folder the targets were opened from travels with it (``workdir``),
    so a run rendered after the working folder changed (or in another process) places ``../`` targets where they
    were, and a target that leaves its folder through a subfolder (``st/../../``) is an absolute ``file:`` URI
    too, not a relative reference out of the checkout."""
    from daishi_forensics.report.render.screens import render_sarif
    from daishi_forensics.report.screening import screen_targets

    write_match(tmp_path / "exports" / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    (tmp_path / "work" / "st").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "work")
    run = screen_targets(["../exports/fed/m_0123456789ab.jsonl", "st/../../exports/fed"])
    assert run.workdir == str(tmp_path / "work")
    monkeypatch.chdir(tmp_path)
    doc = json.loads(render_sarif(run))
    (result,) = doc["runs"][0]["results"]
    uri = f"file://{tmp_path}/exports/fed/m_0123456789ab.jsonl"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
    assert [r["physicalLocation"]["artifactLocation"]["uri"] for r in result["relatedLocations"]] == [uri]
    assert code_scanning_problems(doc) == []


def _many(n_matches: int) -> Any:
    """A screen run of ``n_matches`` matches, each with one flag and one review (``m_1`` … in the run's order)."""
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens.config import default_config
    from daishi_forensics.screens.flags import Flag
    from daishi_forensics.screens.screening import ScreenResult

    config = default_config()
    flags = (Flag("feeder", "hub_and_spoke", "flag", ("h", "a"), (("a", "h"),), 2.0, 2.0, (1,), "h was fed."),
             Flag("operator", "shared_operator", "review", ("a", "h"), (("a", "h"),), 1.0, 1.0, (2,), "a and h."))
    result = ScreenResult("flag", config.version, config.digest, flags)
    return ScreenRun(config, tuple(MatchOutcome(f"m_{i}.jsonl", f"m_{i}", result) for i in range(1, n_matches + 1)))


def test_past_the_results_code_scanning_takes_a_run_says_so_and_stays_within_it() -> None:
    """A screen of 12,501 matches each with a flag and a review wrote 25,002 results in one run: GitHub code
    scanning refuses a file with more than 25,000 results a run (nothing of it shown), and shows only the 5,000
    most severe of a run. Past 5,000 a warning notification now says so (every result still written); past
    25,000 the flags come first, then the reviews, up to 25,000 (each in the run's order), a warning counts those
    left out, and the run's properties say how many (``resultsLeftOut``)."""
    from daishi_forensics.report.render.screens import render_sarif

    up_to_shown = json.loads(render_sarif(_many(2_500)))["runs"][0]
    assert len(up_to_shown["results"]) == 5_000 and up_to_shown["invocations"][0]["toolExecutionNotifications"] == []
    assert "resultsLeftOut" not in up_to_shown["properties"]

    shown = json.loads(render_sarif(_many(2_501)))
    (run,) = shown["runs"]
    assert len(run["results"]) == 5_002 and "resultsLeftOut" not in run["properties"]
    assert run["invocations"][0]["toolExecutionNotifications"] == [{"level": "warning", "message": {"text": (
        "5,002 results (2,501 flags, 2,501 reviews): GitHub code scanning shows the 5,000 most severe of a run "
        "(the flags first) and drops the others; every one is in this file, and in --format json")}}]
    assert run["invocations"][0]["executionSuccessful"] is True
    assert code_scanning_problems(shown) == []

    over = json.loads(render_sarif(_many(12_501)))
    (run,) = over["runs"]
    results = run["results"]
    assert len(results) == 25_000 and run["properties"]["resultsLeftOut"] == 2
    assert run["invocations"][0]["toolExecutionNotifications"] == [{"level": "warning", "message": {"text": (
        "25,002 results (12,501 flags, 12,501 reviews): more than the 25,000 results of a run GitHub code scanning "
        "takes (it refuses a file with more): the flags first, then the reviews, up to 25,000 are written, 0 flags "
        "and 2 reviews left out (the last in the order of the matches); --format json lists every one")}}]
    # every flag kept; the reviews of the last match and the one before left out; the rest in the run's order
    assert sum(r["level"] == "error" for r in results) == 12_501
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert uris[:4] == ["m_1.jsonl", "m_1.jsonl", "m_2.jsonl", "m_2.jsonl"]
    assert uris[-3:] == ["m_12499.jsonl", "m_12500.jsonl", "m_12501.jsonl"]
    assert [r["level"] for r in results[-3:]] == ["warning", "error", "error"]
    assert code_scanning_problems(over) == []


def fed_folder(where: Path, gz: bool) -> str:
    """A feeder match written as a folder under ``where`` (``m_0123456789ab/``), its events gzipped when ``gz``:
    the events file's name (``events.jsonl`` or ``events.jsonl.gz``)."""
    import gzip

    folder = write_match(where, feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40), form="folder")
    if not gz:
        return "events.jsonl"
    (folder / "events.jsonl.gz").write_bytes(gzip.compress((folder / "events.jsonl").read_bytes()))
    (folder / "events.jsonl").unlink()
    return "events.jsonl.gz"


@pytest.mark.parametrize("gz", [False, True])
def test_a_match_folder_is_placed_in_its_events_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     gz: bool) -> None:
    """``screen fed/m_0123456789ab --format sarif`` (a match folder: archive.json, events.jsonl) gave the folder as
    the artifact's uri, and ``--format github`` as the annotation's ``file=``: code scanning and workflow
    annotations place a finding in a file, not a folder (a line of a folder is nothing to show). Both now name
    the folder's events file (``events.jsonl``, or ``events.jsonl.gz``), which the evidence's events are in; the
    messages still name the target as given."""
    events = fed_folder(tmp_path / "fed", gz)
    monkeypatch.chdir(tmp_path)
    doc = _sarif(["screen", "fed/m_0123456789ab"])
    (result,) = doc["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"] == {  # (the line of event 40: no header line)
        "artifactLocation": {"uri": f"fed/m_0123456789ab/{events}"}, "region": {"startLine": 18}}
    assert code_scanning_problems(doc) == []
    github = CliRunner().invoke(main, ["screen", "fed/m_0123456789ab", "--format", "github"])
    assert github.exit_code == 1
    assert [line.split("::")[1] for line in github.stdout.splitlines() if line.startswith("::")] == [
        f"error file=fed/m_0123456789ab/{events},line=18,title=daishi-forensics feeder/hub_and_spoke",
        f"warning file=fed/m_0123456789ab/{events},title=daishi-forensics not screened whole"]
    assert "fed/m_0123456789ab" in CliRunner().invoke(main, ["screen", "fed/m_0123456789ab"]).stdout


def test_a_simulated_season_s_sarif_holds_to_what_code_scanning_takes(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Three simulated matches (a feeder, a ring, a thrown fight) and two short feeder matches (40 rounds) screened
    as a season: every result under a rule of the run, each rule once, each located in its match's file at the line
    of its first evidence event (a season-wide one, in its first match's file at the line of the event it cites first
    there, its other matches as related locations at theirs), and nothing code scanning refuses. The three alone
    raised no season-wide flag, so the season-wide checks never ran: the two short matches' feeds are too few for
    their own match to flag, and make an operator a hub fed across both (``season/feeder/hub_and_spoke``); the test
    fails if no season-wide result is checked."""
    runner = CliRunner()
    season = tmp_path / "season"
    # feeder seed 3: seed 1's second spoke pays one dear item for a token each time, whole items since screens
    # config 2.23.0, so that match holds a lone feed (a review), not a hub
    made_with = {"feeder": ["--scenario", "feeder", "--seed", "3"], "ring": ["--scenario", "ring", "--seed", "1"],
                 "thrown_fight": ["--scenario", "thrown_fight", "--seed", "1"],
                 **{f"short{seed}": ["--scenario", "feeder", "--ticks", "40", "--seed", seed] for seed in ("10", "12")}}
    for name, how in made_with.items():
        made = runner.invoke(main, ["simulate", *how, "--out", str(tmp_path / name)])
        assert made.exit_code == 0, made.output
        (stream,) = (tmp_path / name).glob("m_*.jsonl")
        season.mkdir(exist_ok=True)
        (season / stream.name).write_bytes(stream.read_bytes())
    monkeypatch.chdir(tmp_path)
    files = sorted(f"season/{p.name}" for p in season.iterdir())
    doc = _sarif(["screen", *files, "--season", "season"])
    assert code_scanning_problems(doc) == []
    (run,) = doc["runs"]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    # each rule once: a match's rules in order, then the season's (their own, ``season/…``) in order
    assert rules == sorted(set(rules), key=lambda rule: (rule.startswith("season/"), rule))
    assert {r["ruleId"] for r in run["results"]} == set(rules)
    assert {"feeder/hub_and_spoke", "ring/wash_ring", "thrown_fight/thrown_fight"} <= set(rules)

    def event_at(physical: dict[str, Any]) -> Any:
        """The id of the event on the location's line of its file."""
        return json.loads((tmp_path / physical["artifactLocation"]["uri"]).read_text()
                          .split("\n")[physical["region"]["startLine"] - 1])["id"]

    season_wide = []
    for result in run["results"]:
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"]["uri"] in files
        assert rules[result["ruleIndex"]] == result["ruleId"] and result["level"] in ("error", "warning")
        if result["ruleId"].startswith("season/"):  # each line holds the event it cites first in that match
            season_wide.append(result)
            places = [physical, *(r["physicalLocation"] for r in result.get("relatedLocations", []))]
            for place in places:
                assert place["artifactLocation"]["uri"] in files and place["region"]["startLine"] >= 1, place
                stem = Path(place["artifactLocation"]["uri"]).name.removesuffix(".jsonl")
                # a feed's event is written with its match (m_1#5); a season outlier's is a bare id of the match
                # its flag names (properties.match)
                evidence = result["properties"]["evidence"]
                cited = [int(e.rpartition("#")[2]) for e in evidence if isinstance(e, str) and e.startswith(f"{stem}#")]
                cited += [e for e in evidence if isinstance(e, int) and result["properties"].get("match") == stem]
                assert event_at(place) == min(cited), (result["ruleId"], place)
        else:  # the line holds the first evidence event
            assert event_at(physical) == result["properties"]["evidence"][0], result["ruleId"]
    # the season-wide branch ran: the short matches' hub, in the first of them, the second as a related location
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             [x["physicalLocation"]["artifactLocation"]["uri"] for x in r["relatedLocations"]]) for r in season_wide] \
        == [("season/feeder/hub_and_spoke", "season/m_8520d3b71773.jsonl", ["season/m_ba5e9b5f6aca.jsonl"])]


def test_hostile_account_names_are_data_in_sarif_and_plain_text_in_its_message(tmp_path: Path) -> None:
    """A value cycle round accounts named with an escape sequence, a right-to-left override, ``{0}`` braces and
    a Markdown link: the message writes the controls out, escapes the brackets and doubles the braces (SARIF
    3.11.5, 3.11.6); the logical locations keep each name as it is; nothing code scanning refuses."""
    from .transferkit import background_rows, cycle_rows, write_csv

    names = {"a": "x\x1b[2J\x07", "b": "rtl\u202eevil\u200b", "c": "{0} {{1}}", "d": "[open](https://x.example)"}
    rows = background_rows() + [{**r, "SENDER": names[r["SENDER"]], "RECEIVER": names[r["RECEIVER"]]}
                                for r in cycle_rows()]
    table = write_csv(tmp_path / "tx.csv", rows)
    doc = _sarif(["screen-transfers", str(table), "--from", "SENDER", "--to", "RECEIVER", "--value", "AMOUNT",
                  "--tick", "STEP", "--id", "TX"])
    assert code_scanning_problems(doc) == []
    (result,) = doc["runs"][0]["results"]
    assert result["message"]["text"].startswith(
        "1000 went round x\\x1b\\[2J\\x07 -> rtl\\u202eevil\\u200b -> {{0}} {{{{1}}}} -> \\[open\\](https://x.example)"
        " -> x\\x1b\\[2J\\x07 from tick 100 to 106")
    assert [loc["name"] for loc in result["locations"][0]["logicalLocations"]] == list(names.values())


def test_every_rule_has_a_full_description_and_help(tmp_path: Path) -> None:
    """A match's rule (``feeder/hub_and_spoke``) had only a short description, and a season rule no help: GitHub
    code scanning asks every rule for ``shortDescription``, ``fullDescription`` and ``help`` text, and shows the
    last two on each alert. Each rule now has all three; a match's rule says how its verdict is reached, with
    the run's false-alarm rate and flag share."""
    fed = write_match(tmp_path / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    doc = _sarif(["screen", str(fed)])
    (rule,) = doc["runs"][0]["tool"]["driver"]["rules"]
    assert {k: rule[k] for k in ("id", "shortDescription", "fullDescription", "help")} == {
        "id": "feeder/hub_and_spoke",
        "shortDescription": {"text": "Collusion screen feeder: hub and spoke"},
        "fullDescription": {"text": (
            "Collusion screen feeder: hub and spoke. Each finding is tested against a null model of the same match "
            "or table (named in the result, with its p-value) and adjusted over the tests there (Holm): a review "
            "(warning) when the adjusted p-value is within the false-alarm rate its screen is given "
            "(general.false_alarm_rate 0.02, shared among the screens), a flag (error) within 0.25 of it. A finding "
            "with no p-value meets a threshold on its score instead (both in the result's properties).")},
        "help": {"text": (
            "What each screen finds, against which null, and its settings: `daishi-forensics screen --help` and the "
            "README's Collusion screens section. A result's properties hold its agents, its score and threshold, "
            "for a tested finding its p-value (raw and adjusted), the number of tests and the null, and the events "
            "to open (evidence); `daishi-forensics behavior MATCH --agent AGENT` shows what a seat did.")},
    }
    assert code_scanning_problems(doc) == []


def _keys(value: Any) -> set[str]:
    """Every key of every object in ``value``, however deep."""
    if isinstance(value, dict):
        return set(value).union(*map(_keys, value.values()))
    if isinstance(value, list):
        return set().union(*map(_keys, value))
    return set()


def test_no_address_the_project_does_not_declare(tmp_path: Path) -> None:
    """``screen … --format sarif`` and ``screen-transfers … --format sarif`` wrote ``helpUri``
    ``https://github.com/daishi/daishi-forensics#collusion-screens`` on every rule and ``informationUri``
    ``https://github.com/daishi/daishi-forensics`` on the driver: an address the project declares nowhere (its
    package metadata names no URL), which code scanning shows as a link that may lead to nothing or to someone
    else's page. Neither is written now (both are optional; every rule carries its ``help`` text), and no
    address but the schema's is in the file."""
    from .transferkit import background_rows, cycle_rows, write_csv

    fed = write_match(tmp_path / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    table = write_csv(tmp_path / "tx.csv", background_rows() + cycle_rows())
    for args in (["screen", str(fed)], ["screen-transfers", str(table), "--from", "SENDER", "--to", "RECEIVER",
                                        "--value", "AMOUNT", "--tick", "STEP", "--id", "TX"]):
        result = CliRunner().invoke(main, [*args, "--format", "sarif"])
        assert result.exit_code == 1, result.output
        doc = json.loads(result.stdout)
        assert doc["runs"][0]["results"] and doc["runs"][0]["tool"]["driver"]["rules"]
        assert {key for key in _keys(doc) if key.lower().endswith("uri") and key != "uri"} == set(), args
        assert set(doc["runs"][0]["tool"]["driver"]) == {"name", "semanticVersion", "rules"}
        assert result.stdout.count("https://") == result.stdout.count("http") == 1  # the $schema alone
        assert code_scanning_problems(doc) == []


def test_each_command_s_run_has_its_own_category(tmp_path: Path) -> None:
    """``screen … --format sarif`` and ``screen-transfers … --format sarif`` wrote no ``automationDetails.id``:
    uploaded in one workflow, code scanning took both for the same analysis (one category of the commit) and the
    later replaced the earlier's alerts; two seasons screened in one workflow did the same, and the upload action's
    ``category`` input cannot tell them apart. Each run now has the id ``daishi-forensics/screen/`` or
    ``daishi-forensics/screen-transfers/`` (a trailing slash: a category, no run instance), and
    ``--sarif-category NAME`` makes it ``daishi-forensics/<command>/NAME/``; a name outside the rule is a usage
    error (exit 2). The other formats are unchanged."""
    from .transferkit import background_rows, cycle_rows, write_csv

    fed = write_match(tmp_path / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    table = write_csv(tmp_path / "tx.csv", background_rows() + cycle_rows())
    columns = ["--from", "SENDER", "--to", "RECEIVER", "--value", "AMOUNT", "--tick", "STEP", "--id", "TX"]
    runs = {
        ("screen", None): ["screen", str(fed)],
        ("screen", "2026-09"): ["screen", str(fed), "--sarif-category", "2026-09"],
        ("screen", "seasons/2026_10.b"): ["screen", str(fed), "--sarif-category", "seasons/2026_10.b"],
        ("screen-transfers", None): ["screen-transfers", str(table), *columns],
        ("screen-transfers", "bank-a"): ["screen-transfers", str(table), *columns, "--sarif-category", "bank-a"],
    }
    ids = {}
    for key, args in runs.items():
        doc = _sarif(args)
        (run,) = doc["runs"]
        ids[key] = run["automationDetails"]
        assert code_scanning_problems(doc) == []
    assert ids == {
        ("screen", None): {"id": "daishi-forensics/screen/"},
        ("screen", "2026-09"): {"id": "daishi-forensics/screen/2026-09/"},
        ("screen", "seasons/2026_10.b"): {"id": "daishi-forensics/screen/seasons/2026_10.b/"},
        ("screen-transfers", None): {"id": "daishi-forensics/screen-transfers/"},
        ("screen-transfers", "bank-a"): {"id": "daishi-forensics/screen-transfers/bank-a/"},
    }
    # a name outside the rule: a usage error, nothing screened
    for bad in ("", "a b", "a//b", "/a", "a/", "..", "a/../b", "a\x1b[2Jb", "é", "x" * 65, "a/b/c/d/e"):
        refused = CliRunner().invoke(main, ["screen", str(fed), "--format", "sarif", "--sarif-category", bad])
        assert refused.exit_code == 2, (bad, refused.output)
        assert "is not a category: give one to four names" in refused.stderr and refused.stdout == "", bad
    # the other formats: the same bytes with the option as without it
    for fmt in ("json", "text", "github"):
        plain = CliRunner().invoke(main, ["screen", str(fed), "--format", fmt])
        named = CliRunner().invoke(main, ["screen", str(fed), "--format", fmt, "--sarif-category", "2026-09"])
        assert (plain.exit_code, plain.stdout) == (named.exit_code, named.stdout) and plain.exit_code == 1


def _first_line(args: list[str]) -> dict[str, Any]:
    """The one result's physical location of a ``--format sarif`` run of ``args``."""
    doc = _sarif(args)
    assert code_scanning_problems(doc) == []
    (result,) = doc["runs"][0]["results"]
    assert result["properties"]["evidence"][0] == 40
    physical: dict[str, Any] = result["locations"][0]["physicalLocation"]
    return physical


@pytest.mark.parametrize("form", ["stream", "stream-gz", "folder", "bundle", "bundle-gz"])
def test_a_result_is_at_the_line_of_its_first_evidence_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             form: str) -> None:
    """``screen fed/m_….jsonl --format sarif`` placed its feeder flag (evidence: events 40, 41, …) at line 1 of the
    file, the header, whatever the events it cites: code scanning showed the match's archive, not a record of the
    flag. In a file a record a line (a stream, a folder's events file, plain or gzip: the lines of the text
    inflated) the result is now at the line of its first evidence event, found by reading the file again for the
    ids the flags cite (blank lines counted, as the line reader counts them); a bundle (one document) keeps line 1.
    Here the stream has its header on line 1, two blank lines, then the events (id 40 the 18th): line 21."""
    import gzip

    events = feeder_events()
    assert [e["id"] for e in events].index(40) == 17
    path = write_match(tmp_path / "fed", events, archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40),
                       form=form if form.startswith("bundle") else "stream" if form != "folder" else "folder")
    if form.startswith("stream"):
        head, rest = path.read_bytes().split(b"\n", 1)
        data = head + b"\n\n \n" + rest
        if form == "stream-gz":
            path.unlink()
            path = path.with_name(path.name + ".gz")
            data = gzip.compress(data)
        path.write_bytes(data)
    monkeypatch.chdir(tmp_path)
    target = str(path.relative_to(tmp_path))
    expected = {"stream": ("fed/m_0123456789ab.jsonl", 21), "stream-gz": ("fed/m_0123456789ab.jsonl.gz", 21),
                "folder": ("fed/m_0123456789ab/events.jsonl", 18), "bundle": ("fed/m_0123456789ab.json", 1),
                "bundle-gz": ("fed/m_0123456789ab.json.gz", 1)}[form]
    assert _first_line(["screen", target]) == {"artifactLocation": {"uri": expected[0]},
                                               "region": {"startLine": expected[1]}}
    if form == "stream":  # the line holds event 40
        assert json.loads(path.read_text().split("\n")[20])["id"] == 40


def test_an_evidence_id_two_records_hold_stays_at_the_first_line(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream holding a second record of id 40 out of place (refused by the read boundary, the flag still
    raised): which of the two the screens read is not known without reading the match again, so the result is
    at the file's line 1, as before, not at either record's line; the other formats are as they were."""
    path = write_match(tmp_path / "fed", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    lines = path.read_bytes().split(b"\n")
    lines.insert(40, lines[18])  # event 40 again, between 62 and 63
    path.write_bytes(b"\n".join(lines))
    monkeypatch.chdir(tmp_path)
    assert _first_line(["screen", "fed/m_0123456789ab.jsonl"])["region"] == {"startLine": 1}


def test_the_demo_stays_at_line_1() -> None:
    """The demo (a stream shipped inside the package, named ``m_demo``: no file of the repository) keeps its results
    at line 1: a line of the package's file would be no line of the artifact the result names."""
    demo = CliRunner().invoke(main, ["screen", "m_demo", "--format", "sarif"])
    assert demo.exit_code == 1, demo.output
    results = json.loads(demo.stdout)["runs"][0]["results"]
    assert results and {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {"m_demo"}
    assert {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results} == {1}
