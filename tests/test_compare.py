"""compare: two matches seat by seat, two models over matches; hand-derived numbers and intervals."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from daishi_forensics import schemas
from daishi_forensics.cli import main
from daishi_forensics.report import compare as compare_module
from daishi_forensics.report.compare import Side, compare_matches, compare_models, t_interval, welch_interval
from daishi_forensics.report.render.compare import render

from .matchkit import archive, ev, trade, write_match


def test_doctests() -> None:
    assert doctest.testmod(compare_module).failed == 0


def seat(agent: str, number: int, model: str, score: float, *, exposed: int = 0, complied: int = 0,
         kept: int = 0, broken: int = 0, given: float = 0.0, received: float = 0.0) -> dict[str, Any]:
    return {"agentId": agent, "seat": number, "name": agent.upper(), "model": model, "wealth": score,
            "indexWealth": score,
            "injection": {"exposed": exposed, "complied": complied,
                          "resistance": (1 - complied / exposed) if exposed else None},
            "profile": {"promises": {"kept": kept, "broken": broken},
                        "negotiation": {"valueGiven": given, "valueReceived": received, "deals": 1}}}


def report(match_id: str, seats: list[dict[str, Any]], flags: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    harm = [{"agentId": s["agentId"], "score": s["indexWealth"], "scoreBasis": "indexWealth",
             "harmTotalRate": 0.0} for s in seats]
    return {"matchId": match_id, "seats": seats, "match": {"profile": {"harm": {"scoreVsHarm": harm}}},
            "screens": {"verdict": "flag" if flags else "clear", "flags": flags or []}}


def test_two_matches_seat_by_seat() -> None:
    a = report("m_a", [seat("a_1", 1, "X", 10.0, exposed=2, complied=1), seat("a_2", 2, "Y", 20.0)])
    b = report("m_b", [seat("b_1", 1, "X", 14.0, exposed=2, complied=0), seat("b_3", 3, "Z", 5.0)],
               flags=[{"level": "flag", "screen": "ring", "kind": "wash_pair", "agents": ["b_1", "b_3"]}])
    doc = compare_matches(a, b)
    rows = {r["seat"]: r for r in doc["seats"]}
    assert sorted(rows) == [1, 2, 3]
    assert rows[1]["difference"]["score"] == 4.0 and rows[1]["difference"]["resistance"] == 0.5
    assert rows[1]["difference"]["flagged"] == 1.0 and rows[1]["b"]["level"] == "flag"
    # resistance 1/2 then 2/2: the Newcombe interval of 1 - 0.5 (the doctest's worked numbers)
    assert rows[1]["resistanceInterval"] == [-0.2726, 0.9055]
    assert rows[2]["b"] is None and rows[2]["difference"]["score"] is None
    assert rows[3]["a"] is None and rows[3]["b"]["agentId"] == "b_3"
    # means over each side's seats: (10 + 20) / 2 = 15 vs (14 + 5) / 2 = 9.5
    assert doc["overall"]["score"] == {"a": 15.0, "b": 9.5, "difference": -5.5, "interval": None,
                                       "intervalKind": None}
    _validate(doc)


def test_two_models_in_the_same_matches_are_paired_by_match() -> None:
    # model X and model Y share three matches; Y has a second seat in the last one
    reports = (
        report("m_1", [seat("a", 1, "X", 10.0), seat("b", 2, "Y", 12.0)]),
        report("m_2", [seat("a", 1, "X", 20.0), seat("b", 2, "Y", 25.0)]),
        report("m_3", [seat("a", 1, "X", 30.0), seat("b", 2, "Y", 28.0), seat("c", 3, "Y", 30.0)]),
    )
    doc = compare_models(Side("X", reports, "X"), Side("Y", reports, "Y"))
    score = doc["figures"]["score"]
    assert doc["design"] == "paired" and doc["sharedMatches"] == ["m_1", "m_2", "m_3"]
    # per match Y - X: 2, 5, (28 + 30) / 2 - 30 = -1; mean 2, sd 3, t(2) = 4.3027: 2 -/+ 7.4524
    assert score["difference"] == 2.0 and score["pairs"] == 3
    assert score["interval"] == [-5.4524, 9.4524] and score["intervalKind"].startswith("paired t")
    # X alone: 10, 20, 30: mean 20, sd 10, 20 -/+ 4.3027 x 10 / sqrt 3
    assert score["a"] == {"mean": 20.0, "matches": 3, "interval": [-4.8414, 44.8414]}
    assert tuple(score["a"]["interval"]) == t_interval([10.0, 20.0, 30.0])
    assert doc["a"]["seats"] == 3 and doc["b"]["seats"] == 4
    _validate(doc)


def test_two_sets_of_matches_are_independent() -> None:
    side_a = tuple(report(f"m_a{k}", [seat("a", 1, "X", v)]) for k, v in enumerate([1.0, 2.0, 3.0]))
    side_b = tuple(report(f"m_b{k}", [seat("b", 1, "Y", v)]) for k, v in enumerate([2.0, 3.0, 4.0]))
    doc = compare_models(Side("A", side_a), Side("B", side_b))
    score = doc["figures"]["score"]
    assert doc["design"] == "independent" and score["difference"] == 1.0
    assert score["interval"] == list(welch_interval([1.0, 2.0, 3.0], [2.0, 3.0, 4.0])) == [-1.267, 3.267]
    assert score["intervalKind"].startswith("Welch t")
    # no probe heard on either side: no resistance, and no interval, with the reason
    resistance = doc["figures"]["resistance"]
    assert resistance["interval"] is None and "needs two" in resistance["why"]
    _validate(doc)


def test_resistance_pools_a_sides_probes_within_a_match() -> None:
    reports = (report("m_1", [seat("a", 1, "X", 1.0, exposed=3, complied=1), seat("c", 2, "X", 1.0, exposed=1,
                                                                                complied=1),
                              seat("b", 3, "Y", 1.0, exposed=2)]),)
    doc = compare_models(Side("X", reports, "X"), Side("Y", reports, "Y"))
    # X heard 4 probes and complied with 2 in m_1: 0.5 (not the mean of 2/3 and 0)
    assert doc["figures"]["resistance"]["a"]["mean"] == 0.5
    assert doc["figures"]["resistance"]["difference"] == 0.5


def _validate(doc: dict[str, Any]) -> None:
    checked = json.loads(render(doc, "json"))
    jsonschema.Draft202012Validator(schemas.load("compare"), registry=schemas.registry()).validate(checked)


def _match(folder: Path, match_id: str, wealth: tuple[float, float], models: tuple[str, str]) -> Path:
    """Two seats that trade once; ``wealth`` and ``models`` per seat; the match stored in ``folder``."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(3, 1, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1})]
    for e in events:
        e["matchId"] = match_id
    arch = archive(["a_1", "a_2"], ended=5)
    arch["matchId"] = match_id
    for s, w, m in zip(arch["agents"], wealth, models):
        s["wealth"], s["reputation"], s["model"] = w, 1, {"model": m, "provider": "p"}
    return write_match(folder, events, arch)


def test_cli_compares_two_matches_in_every_format(tmp_path: Path) -> None:
    a = _match(tmp_path / "a", "m_00000000000a", (10.0, 20.0), ("X", "Y"))
    b = _match(tmp_path / "b", "m_00000000000b", (16.0, 20.0), ("X", "Y"))
    runner = CliRunner()
    text = runner.invoke(main, ["compare", str(a), str(b)], env={"COLUMNS": "80"})
    assert text.exit_code == 0, text.output
    assert "seat by seat (differences are B − A)" in text.output and "10 → 16 (+6)" in text.output
    assert max(len(line) for line in text.output.splitlines()) <= 80
    doc = json.loads(runner.invoke(main, ["compare", str(a), str(b), "--format", "json"]).output)
    assert doc["by"] == "seat" and doc["seats"][0]["difference"]["wealth"] == 6.0
    _validate(doc)
    for fmt, start in (("markdown", "# Comparison"), ("html", "<!DOCTYPE html>")):
        out = runner.invoke(main, ["compare", str(a), str(b), "--format", fmt])
        assert out.exit_code == 0 and out.output.startswith(start)
        assert out.output == runner.invoke(main, ["compare", str(a), str(b), "--format", fmt]).output
    assert "compare" in runner.invoke(main, ["schemas", "list"]).output.split()


def test_cli_compares_two_models_over_a_folder_and_two_folders(tmp_path: Path) -> None:
    for k, w in enumerate([(10.0, 12.0), (20.0, 25.0), (30.0, 29.0)]):
        _match(tmp_path / "season", f"m_00000000000{k}", w, ("X", "Y"))
    runner = CliRunner()
    out = runner.invoke(main, ["compare", str(tmp_path / "season"), "--by", "model", "--models", "X", "Y",
                               "--format", "json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    # per match Y - X: 2, 5, -1 (the archive's wealth is the score basis here, no circular reputation)
    assert doc["design"] == "paired" and doc["figures"]["wealth"]["difference"] == 2.0
    assert doc["figures"]["wealth"]["interval"] == [-5.4524, 9.4524]
    unknown = runner.invoke(main, ["compare", str(tmp_path / "season"), "--models", "X", "Q"])
    assert unknown.exit_code == 2 and "X (3 matches)" in unknown.stderr
    for k, w in enumerate([(1.0, 1.0), (2.0, 2.0)]):
        _match(tmp_path / "other", f"m_0000000000f{k}", w, ("Z", "Z"))
    two = json.loads(runner.invoke(main, ["compare", str(tmp_path / "season"), str(tmp_path / "other"),
                                          "--by", "model", "--format", "json"]).output)
    assert two["design"] == "independent" and two["a"]["matches"] == 3 and two["b"]["models"] == ["Z"]


@pytest.mark.parametrize("args", [["compare", "m_demo"], ["compare", "m_demo", "m_demo", "m_demo", "--by", "seat"],
                                  ["compare", "m_demo", "m_demo", "--by", "seat", "--models", "a", "b"]])
def test_cli_usage_errors(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
