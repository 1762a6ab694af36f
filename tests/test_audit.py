"""The score audit and ``daishi-forensics score``: round trips, tampering, exit codes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.score import audit as audit_module
from daishi_forensics.report.passes import analyze_target
from daishi_forensics.score.audit import (
    DIFFERS, FROM_REPORT, NOT_PUBLISHED, SAME, UNREADABLE, SchemaError, audit, audit_target,
)
from daishi_forensics.cli import main
from daishi_forensics.score.rubric import READINGS, VERSIONS
from daishi_forensics.score.scoring import scorecards

from .matchkit import FORMS, archive, write_match
from .test_scoring import match_a, ore_match


def stored(tmp_path: Path, events: list[dict[str, Any]], arch: dict[str, Any], report: dict[str, Any] | None,
           *, name: str = "m", form: str = "bundle", version: int = 3) -> Path:
    return write_match(tmp_path / name, events, arch, form=form, version=version, report=report)


def published(tmp_path: Path, events: list[dict[str, Any]], arch: dict[str, Any], rubric: str,
              *, version: int = 3) -> dict[str, Any]:
    """A report computed by the rubric (scorecards) for the match, as a server would publish it."""
    path = stored(tmp_path, events, arch, None, name=f"src-{rubric}-{version}", version=version)
    return scorecards(analyze_target(str(path)), rubric)


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["score", *args])


def test_exported_api_is_pinned() -> None:
    assert audit_module.__all__ == [
        "SAME", "DIFFERS", "NOT_PUBLISHED", "NOT_RECOMPUTED", "FROM_REPORT", "UNREADABLE", "IDENTITY_FIELDS",
        "FigureCheck", "SchemaError", "AuditResult", "audit", "audit_target",
    ]  # fmt: skip


# -- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("rubric", VERSIONS)
def test_a_rubric_computed_report_round_trips_as_all_same(tmp_path: Path, rubric: str) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, rubric)
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert result.score.rubric.version == rubric and result.score.rubric_source == "report"
    counts = result.counts()
    assert counts[DIFFERS] == 0
    # 17 figures a seat and its seat, name and role; the message count is the report's own (no
    # metrics in match A); the three index figures exist only under 2.4.  Plus matchId and fieldSize.
    per_seat = 19 if rubric == "2.4" else 16
    assert counts[SAME] == 4 * per_seat + 2
    assert counts[FROM_REPORT] == 4
    assert result.exit_code == 0


@pytest.mark.parametrize("form", FORMS)
def test_round_trip_in_every_form(tmp_path: Path, form: str) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    result = audit_target(str(stored(tmp_path, events, arch, report, form=form)))
    assert result.exit_code == 0 and not result.differs


def test_round_trip_on_v2_and_v1_logs(tmp_path: Path) -> None:
    for version in (2, 1):
        events, arch = ore_match("0.1.0" if version == 1 else "0.3.0")
        report = published(tmp_path, events, arch, "2.4", version=version)
        result = audit_target(str(stored(tmp_path, events, arch, report, name=f"v{version}", version=version)))
        assert not result.differs, version


def test_round_trip_on_archives_without_events(tmp_path: Path) -> None:
    arch = archive(["a_1", "a_2"], ended=600)
    for seat in arch["agents"]:
        seat.update(status="active", roundsAlive=600, wealth=200.0, reputation=4, aggression=0,
                    trained={"strength": 0, "vitality": 0, "endurance": 0})
    arch["metrics"] = {"a_1": {"gather": 60, "trade_completed": 7, "message": 3}}
    arch["ledger"] = {"pairs": [{"a": "a_1", "b": "a_2", "trades": 7, "netShare": 0.5}], "commons": {"a_1": 0.6}}
    for rubric in VERSIONS:
        report = published(tmp_path, [], arch, rubric)
        assert not audit_target(str(stored(tmp_path, [], arch, report, name=rubric))).differs


# -- tampering -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("dimensions", "social"), 0.7),  # a_2's social is 0.6
        (("fitnessIndex",), 15.8),  # 15.7
        (("rank",), 2),  # 3
        (("raw", "coverage"), 0.008),  # 0.007
        (("indexWealth",), 245.51),  # 245.5
    ],
)
def test_one_tampered_figure_differs_and_exits_1(tmp_path: Path, path: tuple[str, ...], value: Any) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    tampered = copy.deepcopy(report)
    card = next(s for s in tampered["seats"] if s["agentId"] == "a_2")
    target: dict[str, Any] = card
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    result = audit_target(str(stored(tmp_path, events, arch, tampered)))
    assert [(c.agent, c.figure, c.published) for c in result.differs] == [("a_2", ".".join(path), value)]
    assert result.exit_code == 1
    cli = run(str(stored(tmp_path, events, arch, tampered, name="cli")))
    assert cli.exit_code == 1
    assert "DIFFERS" in cli.output


def test_a_missing_seat_and_a_stranger_differ(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    report["seats"] = [s for s in report["seats"] if s["agentId"] != "a_4"]
    report["seats"].append({"agentId": "a_9", "fitnessIndex": 1.0})
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert {(c.agent, c.figure) for c in result.differs} == {("a_4", "seat"), ("a_9", "seat")}
    assert result.exit_code == 1
    assert [c["agentId"] for c in result.to_dict()["unscoredSeats"]] == ["a_9"]


def test_a_wrong_field_size_differs(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    report["fieldSize"] = 5
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert [(c.agent, c.figure) for c in result.differs] == [(None, "fieldSize")]


def test_figures_the_report_leaves_out_are_not_published(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    for card in report["seats"]:
        del card["raw"]
        card["rank"] = None
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert not result.differs
    statuses = {c.figure: c.status for c in result.seat_checks("a_1")}
    assert statuses["rank"] == NOT_PUBLISHED and statuses["raw.coverage"] == NOT_PUBLISHED
    assert statuses["fitnessIndex"] == SAME


def test_messages_taken_from_the_report_are_marked(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    check = next(c for c in result.seat_checks("a_1") if c.figure == "raw.messagesSent")
    assert check.status == FROM_REPORT
    # with the archive's metrics carrying the count, the report's figure is checked
    arch["metrics"] = {"a_1": {"gather": 6, "craft": 3, "move": 2, "trade_completed": 3, "message": 2}}
    report["seats"][0]["raw"]["messagesSent"] = 3
    result = audit_target(str(stored(tmp_path, events, arch, report, name="metrics")))
    check = next(c for c in result.seat_checks("a_1") if c.figure == "raw.messagesSent")
    assert (check.status, check.recomputed, check.published) == (DIFFERS, 2, 3)


def test_another_rubric_than_the_reports_says_so(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    result = audit(analyze_target(str(stored(tmp_path, events, arch, report))), "2.2")
    assert result.score.rubric.version == "2.2" and result.published_rubric == "2.4"
    assert any("scored under rubric 2.4" in n for n in result.notes)
    assert result.differs  # 2.2 survival has no playing share, among others


# -- no report, errata, the output ---------------------------------------------------------


def test_no_report_recomputes_and_exits_0(tmp_path: Path) -> None:
    events, arch = match_a()
    path = stored(tmp_path, events, arch, None)
    result = audit_target(str(path))
    assert not result.has_report and result.checks == () and result.exit_code == 0
    cli = run(str(path))
    assert cli.exit_code == 0
    assert "nothing to compare" in cli.output
    assert "35.9" in cli.output  # a_1's index


def test_errata_are_listed_and_their_events_left_out(tmp_path: Path) -> None:
    events, arch = match_a()
    gather = next(e for e in events if e["type"] == "gather" and e["agentId"] == "a_1")
    arch["errata"] = [{"id": "E3", "text": "a gather that never took effect", "events": [gather["id"]],
                       "scoresDepend": True}]
    result = audit_target(str(stored(tmp_path, events, arch, None)))
    assert result.score.seat("a_1").inputs.gathers == 5
    (erratum,) = result.score.errata
    assert (erratum["id"], erratum["withheld"], erratum["scoresDepend"]) == ("E3", [gather["id"]], True)
    assert "errata-scores-depend" in result.score.readings
    text = run(str(stored(tmp_path, events, arch, None, name="cli"))).output
    assert "E3: a gather that never took effect" in text
    assert "published scores depend on them: yes" in text


def test_json_output(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    path = stored(tmp_path, events, arch, report)
    cli = run(str(path), "--format", "json")
    assert cli.exit_code == 0
    doc = json.loads(cli.output)
    assert doc["format"] == "daishi-forensics-score" and doc["formatVersion"] == 1
    assert doc["rubricVersion"] == "2.4" and doc["rubricSource"] == "report" and doc["hasReport"] is True
    assert doc["summary"]["DIFFERS"] == 0 and doc["exitCode"] == 0
    assert [r["key"] for r in doc["undefined"]] == [r.key for r in READINGS]
    seat = doc["seats"][0]
    assert seat["agentId"] == "a_1" and seat["fitnessIndex"] == 35.9
    assert any("wealth 337" in t for t in seat["trusted"])
    assert {f["figure"] for f in seat["figures"]} >= {"fitnessIndex", "dimensions.social", "rank"}
    # deterministic: same input, same bytes
    assert run(str(path), "--format", "json").output == cli.output


def test_text_output_prints_each_figure_beside_the_published(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.3")
    cli = run(str(stored(tmp_path, events, arch, report)))
    assert cli.exit_code == 0, cli.output
    assert "recomputed under rubric 2.3 (named by the report)" in cli.output
    assert "took on trust:" in cli.output
    assert "where the rubric is silent" in cli.output
    line = next(x for x in cli.output.splitlines() if x.strip().startswith("fitnessIndex"))
    assert line.split()[-1] == "same"


# -- exit codes ----------------------------------------------------------------------------


def test_rubric_option_and_usage_errors(tmp_path: Path) -> None:
    events, arch = match_a()
    path = stored(tmp_path, events, arch, published(tmp_path, events, arch, "2.4"))
    assert run(str(path), "--rubric", "2.4").exit_code == 0
    assert run(str(path), "--rubric", "2.2").exit_code == 1
    assert run(str(path), "--rubric", "9.9").exit_code == 2
    assert run(str(path), "--format", "yaml").exit_code == 2


@pytest.mark.parametrize("written", ["v2.2", "V2.2"])
def test_rubric_option_takes_a_leading_v_as_the_rubric_writes_it(tmp_path: Path, written: str) -> None:
    """--rubric v2.4 (as the rubric names itself) used to be a usage error (exit 2) while 2.4 worked."""
    events, arch = match_a()
    path = stored(tmp_path, events, arch, published(tmp_path, events, arch, "2.4"))
    bare, prefixed = run(str(path), "--rubric", "2.2"), run(str(path), "--rubric", written)
    assert prefixed.exit_code == bare.exit_code == 1
    assert prefixed.output == bare.output
    doc = json.loads(run(str(path), "--rubric", written, "--format", "json").output)
    assert (doc["rubricVersion"], doc["rubricSource"]) == ("2.2", "option")


def test_an_unknown_rubric_option_lists_the_versions_known(tmp_path: Path) -> None:
    events, arch = match_a()
    path = stored(tmp_path, events, arch, None)
    cli = run(str(path), "--rubric", "v9.9")
    assert cli.exit_code == 2
    assert cli.output.splitlines()[-1] == (
        "Error: Invalid value for '--rubric': v9.9 is not a rubric version this tool knows; "
        "it knows 1.0, 2.0, 2.1, 2.2, 2.3, 2.4 (also written v2.4)")


def test_a_report_naming_an_unknown_rubric_is_a_usage_error(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    report["rubricVersion"] = "3.0"
    path = stored(tmp_path, events, arch, report)
    cli = run(str(path))
    assert cli.exit_code == 2
    assert "3.0" in cli.output and "--rubric" in cli.output
    assert run(str(path), "--rubric", "2.4").exit_code == 0


def test_unreadable_input_exits_3(tmp_path: Path) -> None:
    assert run(str(tmp_path / "m_000000000000.json")).exit_code == 3
    broken = tmp_path / "m_0123456789ab.json"
    broken.write_text("{not json")
    assert run(str(broken)).exit_code == 3


# -- a report that cannot be read, or breaks its schema ------------------------------------


@pytest.mark.parametrize(("form", "report", "said"), [
    ("folder", [], "/report.json is an array, not a JSON object"),
    ("bundle", "x", ": the field 'report' is text, not a JSON object"),
    ("bundle", 5, ": the field 'report' is a number, not a JSON object"),
])
def test_a_report_that_is_not_an_object_is_a_finding(tmp_path: Path, form: str, report: Any, said: str) -> None:
    events, arch = match_a()
    path = write_match(tmp_path / "m", events, arch, form=form, report=report)
    result = audit_target(str(path))
    assert result.report_error == f"{path}{said}"
    assert not result.has_report and result.exit_code == 1
    assert result.score.seat("a_1").fitness_index == 35.9  # still recomputed
    cli = run(str(path))
    assert cli.exit_code == 1
    assert cli.output.splitlines()[-1] == f"nothing to compare: the match's report could not be read ({result.report_error}); exit 1"


@pytest.mark.parametrize(("text", "why"), [
    (b"{not json", "not valid JSON: unexpected character, expected a string key: line 1 column 2 (char 1)"),
    (b"", "the file is empty"),
    (b'{"matchId": NaN}', "not valid JSON: unexpected character, expected a JSON value: line 1 column 13 (char 12)"),
])
def test_an_unreadable_report_file_is_a_finding_and_the_match_is_scored(tmp_path: Path, text: bytes, why: str) -> None:
    events, arch = match_a()
    folder = write_match(tmp_path / "m", events, arch, form="folder", report={"matchId": arch["matchId"], "seats": []})
    (folder / "report.json").write_bytes(text)
    result = audit_target(str(folder))
    assert result.report_error == f"{folder}/report.json: {why}"
    assert result.exit_code == 1 and result.score.seat("a_1").fitness_index == 35.9
    cli = run(str(folder))
    assert cli.exit_code == 1
    assert "35.9" in cli.output
    assert cli.output.splitlines()[-1] == f"nothing to compare: the match's report could not be read ({result.report_error}); exit 1"
    # other commands still refuse the folder as before (exit 3)
    assert CliRunner().invoke(main, ["validate", str(folder)]).exit_code == 3


def test_a_report_breaking_its_schema_is_a_finding_and_its_figures_unreadable(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    report["seats"][1]["dimensions"] = "x"  # a_2
    report["seats"][2]["fitnessIndex"] = None  # a_3: allowed by the schema, but the headline figure
    del report["seats"][3]["fitnessIndex"]  # a_4
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert result.schema_errors == (SchemaError("$.seats[1].dimensions", "'x' is not of type 'object'"),)
    assert [(c.agent, c.figure, c.status, c.note) for c in result.unreadable] == [
        ("a_2", f"dimensions.{d}", UNREADABLE, "the report's dimensions is text (\"x\"), not an object")
        for d in ("survival", "economy", "social", "adaptation", "competitiveness")
    ]
    assert [(c.agent, c.figure, c.recomputed, c.published, c.note) for c in result.differs] == [
        ("a_3", "fitnessIndex", result.score.seat("a_3").fitness_index, None,
         "the report gives this seat no Fitness Index: left out or null"),
        ("a_4", "fitnessIndex", result.score.seat("a_4").fitness_index, None,
         "the report gives this seat no Fitness Index: left out or null"),
    ]
    assert result.exit_code == 1
    doc = result.to_dict()
    assert doc["reportSchemaErrors"] == [{"path": "$.seats[1].dimensions", "message": "'x' is not of type 'object'"}]
    assert doc["summary"]["unreadable"] == 5 and doc["exitCode"] == 1
    cli = run(str(stored(tmp_path, events, arch, report, name="cli")))
    assert cli.exit_code == 1
    lines = cli.output.splitlines()
    assert "the report fails its schema (a finding, exit 1):" in lines
    assert "  - $.seats[1].dimensions: 'x' is not of type 'object'" in lines
    assert "  a_2 dimensions.social: the report's dimensions is text (\"x\"), not an object" in lines
    assert lines[-1] == ("result: 71 same, 2 DIFFERS, 5 unreadable, 4 from the report; "
                         "the report fails its schema (1 error); "
                         "2 figures differ; 5 figures cannot be read; exit 1")


def test_a_report_of_bare_seats_is_not_certified(tmp_path: Path) -> None:
    events, arch = match_a()
    report = {"seats": [{"agentId": a} for a in ("a_1", "a_2", "a_3", "a_4")]}
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert result.schema_errors == (SchemaError("$", "'matchId' is a required property"),)
    assert [(c.agent, c.figure) for c in result.differs] == [(a, "fitnessIndex") for a in ("a_1", "a_2", "a_3", "a_4")]
    assert result.counts()[SAME] == 0 and result.exit_code == 1
    last = run(str(stored(tmp_path, events, arch, report, name="cli"))).output.splitlines()[-1]
    assert last == ("result: 4 DIFFERS, 77 not published; the report fails its schema (1 error); "
                    "4 figures differ; exit 1")


def test_a_rubric_version_written_as_a_number_is_said_so(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.3")
    report["rubricVersion"] = 2.3
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert result.schema_errors == (SchemaError("$.rubricVersion", "2.3 is not of type 'string'"),)
    assert result.notes == ("the report's rubricVersion is 2.3, a number, not text: it is not read as a version; "
                            "scored under 2.4",)
    assert result.exit_code == 1
    cli = run(str(stored(tmp_path, events, arch, report, name="cli")))
    assert "names no rubric version" not in cli.output
    assert "  - the report's rubricVersion is 2.3, a number, not text" in cli.output


def test_a_scorecards_seat_name_and_role_are_checked(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    card = report["seats"][1]  # a_2, seat 2, a player
    card.update(seat=9, name="Impostor", role="anchor")
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    assert [(c.agent, c.figure, c.recomputed, c.published, c.note) for c in result.differs] == [
        ("a_2", "seat", 2, 9, "the archive's seat is 2; the report claims 9"),
        ("a_2", "name", "a_2", "Impostor", "the archive's name is \"a_2\"; the report claims \"Impostor\""),
        ("a_2", "role", "player", "anchor", "the archive's role is \"player\"; the report claims \"anchor\""),
    ]
    same = {(c.figure, c.status) for c in result.seat_checks("a_1") if c.figure in ("seat", "name", "role")}
    assert same == {("seat", SAME), ("name", SAME), ("role", SAME)}
    cli = run(str(stored(tmp_path, events, arch, report, name="cli")))
    assert cli.exit_code == 1
    lines = cli.output.splitlines()
    assert "  a_2 seat: the archive 2, the report 9 (the archive's seat is 2; the report claims 9)" in lines
    assert ("  a_2 role: the archive player, the report anchor (the archive's role is \"player\"; "
            "the report claims \"anchor\")") in lines
    row = next(x for x in lines if x.startswith("  name") and "Impostor" in x)
    assert row.split()[1:] == ["a_2", "Impostor", "DIFFERS", "(the", "archive's", "name", "is", "\"a_2\";", "the",
                               "report", "claims", "\"Impostor\")"]


def test_a_number_published_as_text_says_so(tmp_path: Path) -> None:
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    report["seats"][1]["fitnessIndex"] = "15.7"  # a_2's index is 15.7
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    note = 'published "15.7" as text, not a number'
    assert [(c.agent, c.figure, c.recomputed, c.published, c.note) for c in result.differs] == [
        ("a_2", "fitnessIndex", 15.7, "15.7", note)]
    doc = json.loads(run(str(stored(tmp_path, events, arch, report, name="json")), "--format", "json").output)
    figure = next(f for f in doc["seats"][1]["figures"] if f["figure"] == "fitnessIndex")
    assert figure == {"agentId": "a_2", "figure": "fitnessIndex", "recomputed": 15.7, "published": "15.7",
                      "status": DIFFERS, "note": note}
    lines = run(str(stored(tmp_path, events, arch, report, name="text"))).output.splitlines()
    assert f'  a_2 fitnessIndex: recomputed 15.7, published "15.7" ({note})' in lines
    row = next(x for x in lines if x.startswith("  fitnessIndex") and "DIFFERS" in x)
    assert row.split()[:4] == ["fitnessIndex", "15.7", '"15.7"', "DIFFERS"]


# -- hostile board values ---------------------------------------------------------------------


@pytest.mark.parametrize(("reputation", "said"), [
    (1e308, "is past 2**53: an integer this large cannot be read exactly"),
    (-1e308, "is past 2**53: an integer this large cannot be read exactly"),
    (1e13, "is past the magnitude this tool computes with (at most 1000000000000)"),
])
def test_a_reputation_past_the_magnitude_is_an_error_naming_the_field(tmp_path: Path, reputation: float,
                                                                      said: str) -> None:
    """a_1 trades in a ring (circular reputation 2.25), so the index reputation rounds
    reputation - 2.25 on the double: 1e308 used to overflow there (exit 70).  A reputation (an integer)
    of 1e308 is past 2**53 as well, which the read refuses first, as it refuses that number in an event."""
    events, arch = match_a()
    arch["agents"][0]["reputation"] = reputation
    result = run(str(stored(tmp_path, events, arch, None)))
    assert result.exit_code == 1
    assert "field agents[0].reputation:" in result.output
    assert said in result.output
    assert "internal error" not in result.output


@pytest.mark.parametrize("value", [2**53, 2**63])
@pytest.mark.parametrize(("where", "field"), [
    (("agents", 0, "aggression"), "agents[0].aggression"),
    (("agents", 0, "roundsAlive"), "agents[0].roundsAlive"),
    (("agents", 1, "seat"), "agents[1].seat"),
    (("agents", 2, "diedAtTick"), "agents[2].diedAtTick"),
    (("agents", 0, "trained", "strength"), "agents[0].trained.strength"),
    (("metrics", "a_1", "gather"), "metrics.a_1.gather"),
])
def test_a_board_count_past_2_53_is_an_error_naming_the_file_and_field(
        tmp_path: Path, where: tuple[Any, ...], field: str, value: int) -> None:
    """The schemas bound counts, seats and ticks at 2^53 - 1; aggression 2^63 used to be scored (exit 0)
    through doubles that no longer hold it, and seat 2^63 was ordered after the seats with no number."""
    events, arch = match_a()
    arch["metrics"] = {"a_1": {"gather": 6}}
    holder: Any = arch
    for key in where[:-1]:
        holder = holder[key]
    holder[where[-1]] = value
    path = stored(tmp_path, events, arch, None)
    result = run(str(path))
    assert result.exit_code == 1
    assert result.stderr == (f"daishi-forensics: error: {path}, field {field}: {value} is past 2^53 - 1 "
                             "(9007199254740991), the largest integer the export format holds\n")


def test_a_seat_numbered_2_53_minus_1_is_scored_before_an_unnumbered_one(tmp_path: Path) -> None:
    events, arch = match_a()
    arch["agents"][0]["seat"] = 2**53 - 1
    del arch["agents"][1]["seat"]
    doc = json.loads(run(str(stored(tmp_path, events, arch, None)), "--format", "json").output)
    assert [(s["agentId"], s.get("seat")) for s in doc["seats"]] == [
        ("a_3", 3), ("a_4", 4), ("a_1", 2**53 - 1), ("a_2", None)]


def test_a_reputation_at_the_magnitude_is_scored(tmp_path: Path) -> None:
    events, arch = match_a()
    arch["agents"][0]["reputation"] = 1e12
    result = run(str(stored(tmp_path, events, arch, None)), "--format", "json")
    assert result.exit_code == 0
    seat = json.loads(result.output)["seats"][0]
    assert seat["indexReputation"] == 999999999997.75  # 1e12 - 2.25, three places half-up
    assert seat["dimensions"]["social"] == 90.9  # 100 (held) - 8 x 1 aggression - 8 x 0.857 x 100 / 600


def _two_seats() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    from .matchkit import ev
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_1_0")]
    arch = archive(["a_1", "a_2"], ended=100)
    for seat in arch["agents"]:
        seat.update(status="active", roundsAlive=100, diedAtTick=None, wealth=100.0, reputation=0, aggression=0,
                    trained={"strength": 0, "vitality": 0, "endurance": 0})
    return events, arch


def test_an_unvalued_item_and_a_trade_not_counted_as_logged_are_said(tmp_path: Path) -> None:
    """Both move the net shares the score reads; they used to leave no word in the output.
    t1: a_1 gives a diamond (no value: worth 0) for food 1, so the net share is 1 and each side
    is credited min(1, 5) x 1 = 1 (social 22 x 1). t2's second event says other goods than its
    first (the first counts)."""
    from .matchkit import trade
    events, arch = _two_seats()
    events += trade(3, 10, "t1", "a_1", "a_2", {"diamond": 1}, {"food": 1})
    t2 = trade(5, 11, "t2", "a_1", "a_2", {"wood": 1}, {"food": 1})
    t2[1]["payload"]["give"] = {"wood": 2}
    events += t2
    result = run(str(stored(tmp_path, events, arch, None)), "--format", "json")
    assert result.exit_code == 0
    out = json.loads(result.output)
    assert ("traded item with no value in the archive's item values, valued 0 in the net shares: diamond"
            in out["notes"])
    assert [n for n in out["notes"] if n.startswith("event 6 (trade t2): ")], out["notes"]
    text = run(str(stored(tmp_path, events, arch, None, name="t")))
    assert "valued 0 in the net shares: diamond" in text.output


def test_messages_sent_written_as_a_whole_double_are_taken_on_trust(tmp_path: Path) -> None:
    """JSON has one number type: 3.0 is the count 3 (it used to be refused silently, the
    events' 0 read instead, and both raw.messagesSent and social DIFFERed with no word why)."""
    events, arch = _two_seats()
    for messages in (3, 3.0):
        report = published(tmp_path, events, arch, "2.4")
        report["seats"][0]["raw"]["messagesSent"] = messages
        result = run(str(stored(tmp_path, events, arch, report, name=f"m{messages!r}")), "--format", "json")
        out = json.loads(result.output)
        seat = out["seats"][0]
        assert seat["inputs"]["messages"] == 3 and seat["inputs"]["messagesSource"] == "report"
        assert seat["trusted"][-1] == "messages 3: the report's raw.messagesSent"
        assert seat["dimensions"]["social"] == 4.5  # 1.5 x min(3 x 100 / 100, 15)


@pytest.mark.parametrize(("messages", "shown_as"), [(2.5, "2.5"), (-1, "-1"), ("3", '"3"'), (True, "true")])
def test_messages_sent_that_is_not_a_count_is_said_not_taken(tmp_path: Path, messages: Any, shown_as: str) -> None:
    events, arch = _two_seats()
    report = published(tmp_path, events, arch, "2.4")
    report["seats"][0]["raw"]["messagesSent"] = messages
    result = run(str(stored(tmp_path, events, arch, report)), "--format", "json")
    assert result.exit_code == 1
    seat = json.loads(result.output)["seats"][0]
    assert seat["inputs"]["messagesSource"] == "events"
    assert (f"the report's raw.messagesSent is {shown_as}, not a count of messages: not taken on trust"
            in seat["notes"])


@pytest.mark.parametrize("named", [" 2.4 ", "v2.4", "V2.4"])
def test_a_rubric_named_with_a_v_or_spaces_is_not_said_to_be_another(tmp_path: Path, named: str) -> None:
    """The name is read as 2.4, so neither the text nor the --rubric note may say the report was
    scored under another rubric (' 2.4 ' used to print 'the report was scored under rubric  2.4 ')."""
    events, arch = _two_seats()
    report = published(tmp_path, events, arch, "2.4")
    report["rubricVersion"] = named
    path = str(stored(tmp_path, events, arch, report))
    for args in ((), ("--rubric", "2.4")):
        result = run(path, *args)
        assert result.exit_code == 0, result.output
        assert "scored under rubric" not in result.output
    other = run(path, "--rubric", "2.3")
    assert f"the report was scored under rubric {named}" in other.output


@pytest.mark.parametrize(("trained", "said"), [([1], "[1]"), ("x", "'x'"), (5, "5")])
def test_trained_levels_that_are_not_an_object_are_an_error_naming_the_field(tmp_path: Path, trained: Any,
                                                                            said: str) -> None:
    """They used to be read as 0 with the note 'the archive gives no trained levels'."""
    events, arch = _two_seats()
    arch["agents"][1]["trained"] = trained
    result = run(str(stored(tmp_path, events, arch, None)))
    assert result.exit_code == 1
    assert f"field agents[1].trained: not an object of trained levels: {said}" in result.output


def test_trained_levels_left_out_read_as_0_with_a_note(tmp_path: Path) -> None:
    events, arch = _two_seats()
    del arch["agents"][1]["trained"]
    result = run(str(stored(tmp_path, events, arch, None)), "--format", "json")
    assert result.exit_code == 0
    assert "the archive gives no trained levels: read as 0" in json.loads(result.output)["seats"][1]["notes"]


@pytest.mark.parametrize(("metrics", "field", "said"), [
    ([1], "metrics", "not an object of counters by agent: [1]"),
    ({"a_1": 5}, "metrics.a_1", "not an object of counters: 5"),
    ({"a_1": {"gather": "3"}}, "metrics.a_1.gather", "not a count: '3'"),
    ({"a_1": {"move": 1.5}}, "metrics.a_1.move", "not a count: 1.5"),
])
def test_a_metrics_block_that_cannot_be_read_is_an_error_naming_the_field(tmp_path: Path, metrics: Any, field: str,
                                                                         said: str) -> None:
    """Such a block used to be skipped without a word (its message counts then came from the events),
    or set beside the events as 'the archive's metrics count 3' for the text "3"."""
    events, arch = _two_seats()
    arch["metrics"] = metrics
    result = run(str(stored(tmp_path, events, arch, None)))
    assert result.exit_code == 1
    assert f"field {field}: {said}" in result.output


def _no_events_with(exploration: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    _, arch = _two_seats()
    arch["exploration"] = exploration
    return [], arch


@pytest.mark.parametrize(("exploration", "field", "said"), [
    ([5], "exploration", "not an object of coverage by agent: [5]"),
    ({"a_1": 5}, "exploration.a_1", "not an object: 5"),
    ({"a_1": {"coverage": 5}}, "exploration.a_1.coverage", "not a share of the map's regions (0 to 1): 5"),
    ({"a_1": {"coverage": -0.5}}, "exploration.a_1.coverage", "not a share of the map's regions (0 to 1): -0.5"),
    ({"a_1": {"regions": 145}}, "exploration.a_1.regions", "145 regions on a map of 144"),
])
def test_an_exploration_block_that_cannot_be_read_is_an_error_naming_the_field(
        tmp_path: Path, exploration: Any, field: str, said: str) -> None:
    """Such a block used to be skipped without a word (coverage 0), or a coverage of 5 read as is."""
    events, arch = _no_events_with(exploration)
    result = run(str(stored(tmp_path, events, arch, None)))
    assert f"field {field}: {said}" in result.output
    assert result.exit_code == 1


def test_an_exploration_row_of_regions_alone_scores_its_coverage(tmp_path: Path) -> None:
    """Rubric *Counters*: 9 regions of 144 is coverage 0.063 (not 0.062), adaptation
    30 x 0.063 / 0.25 = 7.56 -> 7.6. It used to read as coverage 0."""
    events, arch = _no_events_with({"a_1": {"regions": 9}, "a_2": {}})
    out = json.loads(run(str(stored(tmp_path, events, arch, None)), "--format", "json").output)
    a_1, a_2 = out["seats"]
    assert a_1["raw"]["coverage"] == 0.063 and a_1["dimensions"]["adaptation"] == 7.6
    assert "map coverage: the archive's exploration block, 9 regions of 144" in a_1["trusted"]
    assert a_2["raw"]["coverage"] == 0.0
    assert "the archive's exploration block gives this agent neither coverage nor regions: read as 0" in a_2["notes"]


def _no_events_with_ledger(**pair: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    _, arch = _two_seats()
    arch["ledger"] = {"pairs": [{"a": "a_1", "b": "a_2", "trades": 6, "netShare": 0.412,
                                 "rep": {"a_1": 5, "a_2": 5}, **pair}], "commons": {}}
    return [], arch


@pytest.mark.parametrize(("pair", "field", "said"), [
    ({"netShare": 5}, "ledger.pairs[0].netShare", "5 is not a net share (0 to 1)"),
    ({"netShare": -1}, "ledger.pairs[0].netShare", "-1 is not a net share (0 to 1)"),
    ({"rep": {"a_1": 1e308, "a_2": 5}}, "ledger.pairs[0].rep.a_1", "1e+308 is not a pair's reputation points (0 to 5)"),
    ({"rep": {"a_1": -5, "a_2": 5}}, "ledger.pairs[0].rep.a_1", "-5 is not a pair's reputation points (0 to 5)"),
])
def test_a_ledger_block_figure_out_of_its_range_is_an_error_naming_the_field(
        tmp_path: Path, pair: dict[str, Any], field: str, said: str) -> None:
    """A net share of 5 used to credit 25 trades, rep 1e308 overflowed the circular reputation's
    rounding (exit 70)."""
    events, arch = _no_events_with_ledger(**pair)
    result = run(str(stored(tmp_path, events, arch, None)))
    assert f"field {field}: {said}" in result.output
    assert result.exit_code == 1


@pytest.mark.parametrize("share", [-1, 1e308])
def test_a_ledger_commons_share_out_of_its_range_is_an_error(tmp_path: Path, share: float) -> None:
    events, arch = _no_events_with_ledger()
    arch["ledger"]["commons"] = {"a_1": share}
    result = run(str(stored(tmp_path, events, arch, None)))
    assert "field ledger.commons.a_1: " in result.output and "is not a commons share" in result.output
    assert result.exit_code == 1


def test_a_ledger_block_in_range_scores(tmp_path: Path) -> None:
    """credited min(6, 5) x 0.412 = 2.06; circular 5 x (1 - 0.412) = 2.94."""
    events, arch = _no_events_with_ledger()
    out = json.loads(run(str(stored(tmp_path, events, arch, None)), "--format", "json").output)
    assert out["seats"][0]["raw"]["creditedTrades"] == 2.06
    assert out["seats"][0]["circularReputation"] == 2.94


def test_agents_acting_off_the_board_are_said_and_an_empty_field_is_no_field_of_one(tmp_path: Path) -> None:
    """Their events used to be dropped without a word; a board of none listed the field-of-one reading."""
    events, arch = _two_seats()
    arch["agents"] = []
    out = json.loads(run(str(stored(tmp_path, events, arch, None)), "--format", "json").output)
    assert out["fieldSize"] == 0 and out["seats"] == []
    assert ("2 agents act in the log but are not on the archive's board, so they are neither scored nor "
            "counted in the field: a_1, a_2") in out["notes"]
    assert "field-of-one" not in [r["key"] for r in out["undefined"] if r["exercised"]]
    events, arch = _two_seats()
    arch["agents"] = arch["agents"][1:]
    out = json.loads(run(str(stored(tmp_path, events, arch, None, name="one")), "--format", "json").output)
    assert out["fieldSize"] == 1 and out["seats"][0]["rank"] == 1
    assert any(n.startswith("1 agent acts in the log but is not on the archive's board, so it is neither") and n.endswith(": a_1") for n in out["notes"])
    assert "field-of-one" in [r["key"] for r in out["undefined"] if r["exercised"]]


def test_rounds_alive_past_the_match_is_said(tmp_path: Path) -> None:
    """a_1: roundsAlive 150 in a match of 100; no world action (share 0), so survival 0; the
    figure is scored as given (the rate divides by 150) and now said."""
    events, arch = _two_seats()
    arch["agents"][0]["roundsAlive"] = 150
    out = json.loads(run(str(stored(tmp_path, events, arch, None)), "--format", "json").output)
    assert ("the archive's roundsAlive 150 is more than the match's 100 rounds; scored as given (rates divide "
            "by it, survival is kept within 0 to 100)") in out["seats"][0]["notes"]
    assert not [n for n in out["seats"][1]["notes"] if "roundsAlive" in n]


@pytest.mark.parametrize(("key", "value", "said"), [("name", 5, "5"), ("role", ["player"], "['player']")])
def test_a_seat_name_or_role_that_is_not_text_is_an_error(tmp_path: Path, key: str, value: Any, said: str) -> None:
    """It used to be read as absent, and the scorecard's claim set beside it as 'not recomputed
    (the archive's board does not say)'."""
    events, arch = _two_seats()
    arch["agents"][0][key] = value
    result = run(str(stored(tmp_path, events, arch, None)))
    assert result.exit_code == 1
    assert f"field agents[0].{key}: not text: {said}" in result.output


def test_two_agents_in_one_seat_are_said(tmp_path: Path) -> None:
    events, arch = _two_seats()
    arch["agents"][1]["seat"] = 1
    out = json.loads(run(str(stored(tmp_path, events, arch, None)), "--format", "json").output)
    assert "seat 1 is given to 2 agents on the archive's board: a_1, a_2" in out["notes"]


def test_seat_checks_are_the_checks_of_that_seat_in_order(tmp_path: Path) -> None:
    """seat_checks groups the checks once (it used to scan them all per seat: quadratic in the field)."""
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    report["seats"][1]["fitnessIndex"] = 1.0
    report["seats"].append({**report["seats"][0], "agentId": "a_9"})
    result = audit_target(str(stored(tmp_path, events, arch, report)))
    for agent in (None, "a_1", "a_2", "a_3", "a_4", "a_9", "nobody"):
        assert result.seat_checks(agent) == tuple(c for c in result.checks if c.agent == agent)
    assert [c.figure for c in result.seat_checks("a_2") if c.status == "DIFFERS"] == ["fitnessIndex"]


def test_the_read_line_says_not_recorded_rather_than_from_none(tmp_path: Path) -> None:
    """It used to print 'counters from not recorded; ledger from none'."""
    _, arch = _two_seats()
    out = run(str(stored(tmp_path, [], arch, None))).output
    assert ("  read: rounds alive 100 (archive); counters not recorded; ledger not recorded; coverage not recorded; "
            "reputation points not recorded") in out
    assert "from none" not in out and "from not recorded" not in out
    events, arch = _two_seats()
    out = run(str(stored(tmp_path, events, arch, None, name="e"))).output
    assert "counters from events; ledger from events; coverage from events; reputation points from events" in out


@pytest.mark.parametrize(("depend", "said", "exercised"), [
    ("no", 'not said ("no" is not true or false)', False),
    (1, "not said (1 is not true or false)", False),
    (True, "yes", True),
    (False, "no", False),
])
def test_an_erratum_says_scores_depend_only_with_true(tmp_path: Path, depend: Any, said: str, exercised: bool) -> None:
    """scoresDepend "no" used to read as yes (any truthy value), with the note that a DIFFERS may
    come from the erratum."""
    events, arch = _two_seats()
    arch["errata"] = [{"id": "E1", "text": "t", "events": [1], "scoresDepend": depend}]
    report = published(tmp_path, events, arch, "2.4")
    result = run(str(stored(tmp_path, events, arch, report)))
    assert f"published scores depend on them: {said}" in result.output
    assert ("errata-scores-depend:" in result.output) is exercised
    assert ("an erratum says published scores depend on events" in result.output) is exercised


def test_an_unknown_rubric_named_by_the_report_says_where_it_was_named(tmp_path: Path) -> None:
    events, arch = _two_seats()
    report = published(tmp_path, events, arch, "2.4")
    report["rubricVersion"] = "9"
    cli = run(str(stored(tmp_path, events, arch, report)))
    assert cli.exit_code == 2
    assert ("error: the report's rubricVersion: unknown rubric version '9' (this tool knows 1.0, 2.0, 2.1, 2.2, "
            "2.3, 2.4); pass --rubric to choose one") in cli.output


def test_an_estimated_circular_reputation_says_scaled_only_where_it_was(tmp_path: Path) -> None:
    """a_x trades 6 times with each of 5 partners (net share 0.5), ledger without rep: its points
    min(6, 5) x 5 = 25 are scaled to 20 (4 each), circular 5 x 4 x 0.5 = 10; each partner's 5 points
    are not scaled, circular 5 x 0.5 = 2.5 (it used to say 'scaled to 20 in all' there too)."""
    agents = ["a_x", "a_1", "a_2", "a_3", "a_4", "a_5"]
    arch = archive(agents, ended=300)
    for seat in arch["agents"]:
        seat.update(status="active", roundsAlive=300, wealth=200.0, reputation=25, aggression=0)
    arch["ledger"] = {"pairs": [{"a": "a_x", "b": p, "trades": 6, "netShare": 0.5} for p in agents[1:]]}
    out = json.loads(run(str(stored(tmp_path, [], arch, None)), "--format", "json").output)
    x, one = out["seats"][0], out["seats"][1]
    assert (x["circularReputation"], one["circularReputation"]) == (10.0, 2.5)
    assert ("circular reputation 10 is estimated: each partner's points taken as min(trades, 5), 25 in all scaled "
            "down in proportion to 20") in x["trusted"]
    assert "circular reputation 2.5 is estimated: each partner's points taken as min(trades, 5)" in one["trusted"]


def test_messages_sent_are_read_from_the_first_card_of_an_agent_scored_twice(tmp_path: Path) -> None:
    """The first card is the one compared; its messagesSent is the one taken on trust (the last
    card's used to be)."""
    events, arch = _two_seats()
    report = published(tmp_path, events, arch, "2.4")
    first = copy.deepcopy(report["seats"][0])
    first["raw"]["messagesSent"] = 3
    second = copy.deepcopy(first)
    second["raw"]["messagesSent"] = 9
    report["seats"][0] = first
    report["seats"].append(second)
    out = json.loads(run(str(stored(tmp_path, events, arch, report)), "--format", "json").output)
    assert out["seats"][0]["inputs"]["messages"] == 3
    assert out["seats"][0]["trusted"][-1] == "messages 3: the report's raw.messagesSent"


def test_a_stamped_coverage_that_is_not_a_number_is_an_error_when_the_events_score_too(tmp_path: Path) -> None:
    """Beside the events it used to be skipped without a word (and with no events it was already an error)."""
    events, arch = _two_seats()
    arch["exploration"] = {"a_1": {"regions": 1, "coverage": "x"}}
    result = run(str(stored(tmp_path, events, arch, None)))
    assert result.exit_code == 1
    assert "field exploration.a_1.coverage: not a number: 'x'" in result.output


@pytest.mark.parametrize(("key", "value", "said"), [("agents", 5, "5"), ("agents", 1.5, "1.5"), ("errata", 5, "5"),
                                                    ("errata", "x", "'x'")])
def test_an_archive_agents_or_errata_that_is_not_a_list_is_an_error_not_a_crash(
        tmp_path: Path, key: str, value: Any, said: str) -> None:
    """Both used to stop every command with an internal error (exit 70); errata "x" was read as an
    erratum named x."""
    events, arch = _two_seats()
    arch[key] = value
    path = str(stored(tmp_path, events, arch, None))
    for command in (["score", path], ["behavior", path]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1, (command, result.output)
        assert f"field {key}: the archive's {key} is not a list: {said}" in result.output


@pytest.mark.parametrize("seats", [1.5, 5, "x", {"a_1": {}}])
def test_report_seats_of_another_type_are_a_schema_finding_not_a_crash(tmp_path: Path, seats: Any) -> None:
    """seats 1.5 used to stop score with an internal error (exit 70) while reading messagesSent."""
    events, arch = _two_seats()
    report = published(tmp_path, events, arch, "2.4")
    report["seats"] = seats
    result = run(str(stored(tmp_path, events, arch, report)))
    assert result.exit_code == 1
    assert "internal error" not in result.output
    assert "the report has no scorecard for this seat of the board" in result.output


@pytest.mark.parametrize("agent_id", [["a_1"], {"id": "a_1"}])
def test_an_agent_id_that_is_a_list_or_object_is_an_error_not_a_crash(tmp_path: Path, agent_id: Any) -> None:
    """It used to stop every command with 'unhashable type' (exit 70) in the roster check."""
    events, arch = _two_seats()
    arch["agents"][1]["agentId"] = agent_id
    result = run(str(stored(tmp_path, events, arch, None)))
    assert result.exit_code == 1
    assert "field agents[1].agentId: a seat without an agentId" in result.output


def test_a_ledger_pair_s_trades_past_2_53_is_an_error_naming_the_field(tmp_path: Path) -> None:
    """The schemas bound a ledger pair's trades at 2^53 - 1; 2^63 used to be read as a count (exit 0)."""
    events, arch = match_a()
    arch["ledger"] = {"pairs": [{"a": "a_1", "b": "a_2", "trades": 2**63, "netShare": 0.25}]}
    path = stored(tmp_path, events, arch, None)
    result = run(str(path))
    assert result.exit_code == 1
    assert result.stderr == (f"daishi-forensics: error: {path}, field ledger.pairs[0].trades: {2**63} is past "
                             "2^53 - 1 (9007199254740991), the largest integer the export format holds\n")


@pytest.mark.parametrize(("wealth", "said"), [(1234567.25, "1234567.25"), (999999999999.5, "999999999999.5"),
                                              (337, "337"), (1e12, "1000000000000")])
def test_the_wealth_taken_on_trust_is_said_as_the_archive_gives_it(tmp_path: Path, wealth: float, said: str) -> None:
    """It was written with six significant digits: 1234567.25 read "wealth 1.23457e+06"."""
    events, arch = match_a()
    arch["agents"][0]["wealth"] = wealth
    doc = json.loads(run(str(stored(tmp_path, events, arch, None)), "--format", "json").output)
    assert doc["seats"][0]["trusted"][0] == (f"wealth {said}: the archive's final wealth (the published rubric "
                                             "does not give the wealth formula)")
