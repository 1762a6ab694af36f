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


def test_two_sides_sharing_a_match_are_not_paired_on_it() -> None:
    # the same match m_s on both sides (every seat): pairing would give B − A = 0 from m_s alone
    shared = report("m_s", [seat("s", 1, "S", 5.0)])
    side_a = (report("m_a1", [seat("a", 1, "X", 1.0)]), report("m_a2", [seat("a", 1, "X", 3.0)]), shared)
    side_b = (shared, report("m_b1", [seat("b", 1, "Y", 8.0)]), report("m_b2", [seat("b", 1, "Y", 11.0)]))
    doc = compare_models(Side("A", side_a), Side("B", side_b))
    score = doc["figures"]["score"]
    assert doc["design"] == "independent" and doc["sharedMatches"] == ["m_s"]
    assert "same seats on both sides" in doc["designWhy"] and "m_s" in doc["designWhy"]
    # Welch over each side's own matches: A 1, 3, 5 (mean 3); B 5, 8, 11 (mean 8)
    assert score["a"]["mean"] == 3.0 and score["b"]["mean"] == 8.0 and score["difference"] == 5.0
    assert score["pairs"] is None and score["interval"] == list(welch_interval([1.0, 3.0, 5.0], [5.0, 8.0, 11.0]))
    _validate(doc)


def test_two_models_over_different_sets_of_matches_are_welch() -> None:
    # X sits in m_1, m_2; Y in m_2, m_3: partial overlap, so each side over its own matches
    reports = (report("m_1", [seat("a", 1, "X", 10.0)]),
               report("m_2", [seat("a", 1, "X", 20.0), seat("b", 2, "Y", 26.0)]),
               report("m_3", [seat("b", 2, "Y", 30.0)]))
    doc = compare_models(Side("X", reports, "X"), Side("Y", reports, "Y"))
    assert doc["design"] == "independent" and doc["figures"]["score"]["intervalKind"].startswith("Welch t")
    assert doc["designWhy"].startswith("the sides cover different sets of matches (1 shared, 1 only on side A, "
                                       "1 only on side B)")
    # means 15 and 28: B − A 13 (paired on m_2 alone it would have been 6)
    assert doc["figures"]["score"]["difference"] == 13.0
    same = compare_models(Side("X", reports[1:2], "X"), Side("Y", reports[1:2], "Y"))
    assert same["design"] == "paired" and same["designWhy"].startswith("both sides have different seats")


def test_a_match_given_twice_counts_once_and_is_named() -> None:
    one = report("m_1", [seat("a", 1, "X", 2.0)])
    side = (one, report("m_2", [seat("a", 1, "X", 4.0)]), one)
    other = (report("m_3", [seat("b", 1, "Y", 1.0)]), report("m_4", [seat("b", 1, "Y", 1.0)]))
    doc = compare_models(Side("A", side, None, ("d/m_1.jsonl", "d/m_2.jsonl", "d/m_1.json")), Side("B", other))
    assert doc["a"]["matchIds"] == ["m_1", "m_2"] and doc["a"]["matches"] == 2 and doc["a"]["matchesRead"] == 3
    assert doc["a"]["duplicates"] == [{"target": "d/m_1.json", "matchId": "m_1", "sameAs": "d/m_1.jsonl"}]
    # (2 + 4) / 2, not (2 + 4 + 2) / 3
    assert doc["figures"]["score"]["a"] == {"mean": 3.0, "matches": 2, "interval": list(t_interval([2.0, 4.0]))}
    assert "side A: d/m_1.json is match m_1, like d/m_1.jsonl: counted once" in doc["notes"]
    _validate(doc)


def _probe(agent: str, number: int) -> dict[str, Any]:
    out = seat(agent, number, "probe-script-v1", 0.0)
    out["role"] = "probe"
    return out


def test_probe_seats_are_in_no_mean() -> None:
    a = report("m_a", [seat("a_1", 1, "X", 10.0), seat("a_2", 2, "Y", 20.0)])
    b = report("m_b", [seat("b_1", 1, "X", 14.0), seat("b_2", 2, "Y", 16.0), _probe("p_1", 3)])
    doc = compare_matches(a, b)
    # B over its two players: (14 + 16) / 2 = 15, not (14 + 16 + 0) / 3 = 10
    assert doc["overall"]["score"] == {"a": 15.0, "b": 15.0, "difference": 0.0, "interval": None,
                                       "intervalKind": None}
    assert doc["seats"][2]["b"]["role"] == "probe"  # still listed seat by seat
    assert any(n.startswith("1 probe seat of side B left out of its means") and "P_1 (p_1)" in n
               for n in doc["notes"])
    _validate(doc)
    models = compare_models(Side("A", (a,)), Side("B", (b,)))
    assert models["figures"]["score"]["b"]["mean"] == 15.0 and models["b"]["seats"] == 2
    assert models["b"]["probeSeats"] == 1 and "probe-script-v1" not in models["b"]["models"]
    assert any("1 probe seat in 1 match of side B left out" in n for n in models["notes"])
    assert compare_module.split_models([a, b]) == {"X": 2, "Y": 2}
    _validate(models)


def test_cli_two_folders_sharing_a_match_and_one_match_in_two_forms(tmp_path: Path) -> None:
    for k, w in enumerate([(1.0, 1.0), (3.0, 3.0)]):
        _match(tmp_path / "a", f"m_00000000000{k}", w, ("X", "X"))
    for k, w in enumerate([(8.0, 8.0), (11.0, 11.0)]):
        _match(tmp_path / "b", f"m_0000000000b{k}", w, ("Y", "Y"))
    shared = _match(tmp_path / "s", "m_000000000005", (5.0, 5.0), ("Z", "Z"))
    for side in ("a", "b"):
        (tmp_path / side / shared.name).write_bytes(shared.read_bytes())
    # a second copy of one match of side a, under another file name
    first = next(p for p in sorted((tmp_path / "a").iterdir()) if p.name.startswith("m_000000000000"))
    copy = tmp_path / "a" / ("m_000000000000-copy" + "".join(first.suffixes))
    copy.write_bytes(first.read_bytes())
    out = CliRunner().invoke(main, ["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--by", "model",
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["design"] == "independent" and doc["sharedMatches"] == ["m_000000000005"]
    assert doc["a"]["matchIds"] == ["m_000000000000", "m_000000000001", "m_000000000005"]
    assert [d["matchId"] for d in doc["a"]["duplicates"]] == ["m_000000000000"]
    # A 1, 3, 5: mean 3; B 5, 8, 11: mean 8
    assert doc["figures"]["wealth"]["a"]["mean"] == 3.0 and doc["figures"]["wealth"]["difference"] == 5.0
    _validate(doc)


def _anchor(agent: str, number: int) -> dict[str, Any]:
    out = seat(agent, number, "greedy-harvester-v1", 40.0)
    out["role"] = "anchor"
    return out


def test_anchor_seats_are_scripted_and_in_no_mean() -> None:
    a = report("m_a", [seat("a_1", 1, "X", 10.0), _anchor("k_1", 2)])
    b = report("m_b", [seat("b_1", 1, "X", 14.0), _anchor("k_2", 2), _probe("p_1", 3)])
    doc = compare_matches(a, b)
    # each side over its one player: 10 and 14, not (10 + 40) / 2 and (14 + 40 + 0) / 3
    assert doc["overall"]["score"] == {"a": 10.0, "b": 14.0, "difference": 4.0, "interval": None,
                                       "intervalKind": None}
    assert doc["seats"][1]["a"]["role"] == "anchor"  # still listed seat by seat
    assert ("1 anchor seat of side A left out of its means (role anchor: scripted bots kept as a yardstick, not "
            "players): K_1 (k_1)") in doc["notes"]
    assert any(n.startswith("1 probe seat of side B") for n in doc["notes"])
    _validate(doc)
    models = compare_models(Side("A", (a,)), Side("B", (b,)))
    assert models["a"]["anchorSeats"] == 1 and models["a"]["probeSeats"] == 0 and models["a"]["seats"] == 1
    assert models["b"]["anchorSeats"] == 1 and models["b"]["probeSeats"] == 1
    assert "greedy-harvester-v1" not in models["a"]["models"]
    assert "1 anchor seat in 1 match of side A left out of its means (role anchor: scripted bots kept as a " \
           "yardstick, not players)" in models["notes"]
    assert compare_module.split_models([a, b]) == {"X": 2}
    _validate(models)


def test_one_match_given_twice_seat_by_seat_is_named() -> None:
    a = report("m_a", [seat("a_1", 1, "X", 10.0)])
    doc = compare_matches(a, report("m_a", [seat("a_1", 1, "X", 12.0)]))
    assert ("Both sides are match m_a: a difference shows only what differs between the two inputs of it (an "
            "export before and after errata, say)") in doc["notes"]
    assert not any("Both sides" in n for n in compare_matches(a, report("m_b", [seat("a_1", 1, "X", 1.0)]))["notes"])


def test_cli_warns_of_a_self_comparison_and_refuses_one_model_twice(tmp_path: Path) -> None:
    a = _match(tmp_path / "a", "m_00000000000a", (10.0, 20.0), ("X", "Y"))
    same = CliRunner().invoke(main, ["compare", str(a), str(a), "--format", "json"])
    assert same.exit_code == 0, same.output
    assert same.stderr.startswith(f"warning: both sides are the same input ({a}): a match compared with itself")
    assert any(n.startswith("Both sides are match m_00000000000a") for n in json.loads(same.stdout)["notes"])
    folder = tmp_path / "a"
    models = CliRunner().invoke(main, ["compare", str(folder), "--by", "model", "--models", "X", "X"])
    assert models.exit_code == 2 and "both sides are model 'X': give two different models" in models.output


def test_one_match_on_both_sides_is_counted_in_the_singular() -> None:
    """The design's reason said '1 match(es) hold the same seats on both sides', the notes '1 probe seat(s)'."""
    result = CliRunner().invoke(main, ["compare", "m_demo", "m_demo", "--by", "model", "--format", "markdown"])
    assert result.exit_code == 0
    flat = " ".join(result.stdout.split())
    assert ("independent: 1 match holds the same seats on both sides (the same match on both sides: "
            "m\\_32d5b4896ccb), so pairing would compare a match with itself") in flat
    assert "1 probe seat in 1 match of side m\\_demo left out of its means" in flat
    assert "(s)" not in flat and "(es)" not in flat


def test_a_seat_number_given_twice_keeps_both_seats_unpaired() -> None:
    # the archive gives seat 2 to two agents: both stay listed (neither replaces the other), unpaired
    a = report("m_a", [seat("a_1", 1, "X", 10.0), seat("a_2", 2, "Y", 20.0), seat("a_3", 2, "Z", 30.0)])
    b = report("m_b", [seat("b_1", 1, "X", 14.0), seat("b_2", 2, "Y", 25.0)])
    doc = compare_matches(a, b)
    rows = [(r["seat"], (r["a"] or {}).get("agentId"), (r["b"] or {}).get("agentId")) for r in doc["seats"]]
    assert rows == [(1, "a_1", "b_1"), (2, "a_2", None), (2, "a_3", None), (2, None, "b_2")]
    assert all(r["difference"]["score"] is None for r in doc["seats"][1:])
    assert ("Seat 2 of side A is held by 2 seats: A_2 (a_2), A_3 (a_3); each is listed on a row of its own, "
            "paired with no seat of the other side") in doc["notes"]
    assert doc["overall"]["score"]["a"] == 20.0
    _validate(doc)
    text = render(doc, "text", width=200)
    assert "A_2 (a_2)" in text and "A_3 (a_3)" in text


def test_a_seat_number_given_as_true_is_no_seat_number() -> None:
    # JSON true is not the seat number 1: the seat is listed apart (no number), never paired with seat 1,
    # and the JSON keeps to its schema (a seat is an integer or null)
    a = report("m_a", [seat("a_1", 1, "X", 10.0), {**seat("a_2", 2, "Y", 20.0), "seat": True}])
    b = report("m_b", [seat("b_1", 1, "X", 14.0)])
    doc = compare_matches(a, b)
    rows = [(r["seat"], (r["a"] or {}).get("agentId"), (r["b"] or {}).get("agentId")) for r in doc["seats"]]
    assert rows == [(1, "a_1", "b_1"), (None, "a_2", None)]
    assert not any(n.startswith("Seat ") for n in doc["notes"])
    _validate(doc)


def test_a_side_whose_seats_name_no_model_says_so() -> None:
    # the header listed a side's models as "(models: )" when no seat of it names one
    a = report("m_a", [{**seat("a_1", 1, "X", 10.0), "model": None}])
    b = report("m_b", [seat("b_1", 1, "X", 14.0)])
    doc = compare_models(Side("A", (a,)), Side("B", (b,)))
    text = render(doc, "text", width=200)
    assert "A: A: every player seat, 1 player seat in 1 of 1 match read (models: none named)." in text
    assert "B: B: every player seat, 1 player seat in 1 of 1 match read (models: X)." in text


def test_cli_a_folder_given_twice_by_model_is_said_once_and_read_once(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare --by model DIR DIR`` said nothing on stderr (other commands warn of a repeated target); with
    --models, the folder under a second name (``DIR /abs/DIR``) read every match twice and said '1 of 4
    matches read' of 2 matches. Each is now said once on stderr, and every match is read and counted once."""
    from daishi_forensics.cli import compare as compare_cli

    for k, w in enumerate([(10.0, 12.0), (20.0, 25.0)]):
        _match(tmp_path / "season", f"m_00000000000{k}", w, ("X", "Y"))
    folder = tmp_path / "season"
    other = tmp_path / "link"
    other.symlink_to(folder, target_is_directory=True)
    built: list[str] = []
    build = compare_cli.build_report

    def counted(target: str, **kwargs: Any) -> Any:
        built.append(target)
        return build(target, **kwargs)

    monkeypatch.setattr(compare_cli, "build_report", counted)
    runner = CliRunner()
    same = runner.invoke(main, ["compare", "--by", "model", str(folder), str(folder), "--format", "json"])
    assert same.exit_code == 0, same.output
    assert same.stderr.splitlines() == [
        f"warning: both sides are the same input ({folder}): its matches compared with themselves show no "
        "difference (give two folders, or one with --models M1 M2)"]
    doc = json.loads(same.stdout)
    assert (doc["a"]["matchesRead"], doc["b"]["matchesRead"], len(built)) == (2, 2, 2)
    built.clear()
    linked = runner.invoke(main, ["compare", "--by", "model", str(folder), str(other), "--format", "json"])
    assert linked.stderr.splitlines() == [
        f"warning: both sides are the same input ({folder}, as {other}): its matches compared with themselves show "
        "no difference (give two folders, or one with --models M1 M2)"]
    assert len(built) == 2  # each match read once, though named twice
    built.clear()
    pooled = runner.invoke(main, ["compare", "--by", "model", "--models", "X", "Y", str(folder), str(other),
                                  str(folder / "m_000000000001.jsonl"), str(folder), "--format", "json"])
    assert pooled.exit_code == 0, pooled.output
    assert pooled.stderr.splitlines() == [
        f"warning: {other} is the same input as {folder}: read and counted once",
        f"warning: {folder / 'm_000000000001.jsonl'} is given already (in {folder}): read and counted once",
        f"warning: {folder} is given twice: read and counted once"]
    doc = json.loads(pooled.stdout)
    assert (doc["a"]["matchesRead"], doc["a"]["matches"], doc["a"]["duplicates"], len(built)) == (2, 2, [], 2)
    assert doc["design"] == "paired" and doc["figures"]["wealth"]["difference"] == 3.5  # (2 + 5) / 2
    _validate(doc)


def test_a_model_column_with_no_model_known_is_text_left_aligned() -> None:
    """Seats whose archive names no model: the 'A model' and 'B model' columns, every cell '–', were
    right-aligned as numbers are; they are text, left-aligned as when a model is named."""
    def unnamed(agent: str, number: int, score: float) -> dict[str, Any]:
        out = seat(agent, number, "X", score)
        del out["model"]
        return out

    doc = compare_matches(report("m_a", [unnamed("a_1", 1, 10.0), unnamed("a_2", 2, 20.0)]),
                          report("m_b", [unnamed("b_1", 1, 14.0), unnamed("b_2", 2, 5.0)]))
    lines = render(doc, "text", width=200).splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("seat "))
    expected = ["seat  A          A model  B          B model  score",
                "----  ---------  -------  ---------  -------  -----",
                "   1  A_1 (a_1)  –        B_1 (b_1)  –        10 → 14 (+4)",
                "   2  A_2 (a_2)  –        B_2 (b_2)  –        20 → 5 (-15)"]
    assert [line[:len(e)] for line, e in zip(lines[at:at + 4], expected)] == expected
    assert "| 1 | A\\_1 (a\\_1) | – | B\\_1 (b\\_1) | – |" in render(doc, "markdown")  # as before
    assert "<td>1</td><td><bdi>A_1</bdi> (a_1)</td><td>–</td>" in render(doc, "html").replace('<td class="n">1</td>',
                                                                                             "<td>1</td>")


def _with_invalid_record(stream: Path, match_id: str) -> Path:
    """``stream`` with one more record, invalid (its agentId a list), after the others."""
    bad = {"schemaVersion": 3, "id": 99, "tick": 2, "type": "rest", "agentId": [], "matchId": match_id,
           "payload": {}}
    with stream.open("a", encoding="utf-8") as out:
        out.write(json.dumps(bad) + "\n")
    return stream


def test_a_side_whose_read_left_records_out_is_said(tmp_path: Path) -> None:
    a = _match(tmp_path / "a", "m_00000000000a", (10.0, 20.0), ("X", "Y"))
    b = _with_invalid_record(_match(tmp_path / "b", "m_00000000000b", (16.0, 20.0), ("X", "Y")), "m_00000000000b")
    runner = CliRunner()
    out = runner.invoke(main, ["compare", str(a), str(b), "--format", "json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["notes"][0] == (f"side B ({b}): 1 finding about the log itself (invalid records): its figures rest "
                               "on what the read kept; its behavior report says what each is")
    assert not any(n.startswith("side A (") for n in doc["notes"])
    # the figures are those of the records read: the seat's wealth difference as without the record
    assert doc["seats"][0]["difference"]["wealth"] == 6.0
    text = runner.invoke(main, ["compare", str(a), str(b)], env={"COLUMNS": "200"}).output
    assert "side B (" in text and "1 finding about the log itself (invalid records)" in text
    clean = json.loads(runner.invoke(main, ["compare", str(a), str(a), "--format", "json"]).stdout)
    assert not any("about the log itself" in n for n in clean["notes"])
    models = json.loads(runner.invoke(main, ["compare", str(tmp_path / "a"), str(tmp_path / "b"), "--by", "model",
                                             "--format", "json"]).output)
    assert models["notes"][0] == ("side " + str(tmp_path / "b") + ": 1 of 1 match holds findings about the log "
                                  "itself (invalid records in 1): m_00000000000b; their figures rest on what the read "
                                  "kept; their behavior reports say what each is")


def test_two_models_pooled_over_one_set_say_its_partial_reads_once(tmp_path: Path) -> None:
    for k, w in enumerate([(10.0, 12.0), (20.0, 25.0)]):
        _match(tmp_path / "season", f"m_00000000000{k}", w, ("X", "Y"))
    _with_invalid_record(tmp_path / "season" / "m_000000000001.jsonl", "m_000000000001")
    out = CliRunner().invoke(main, ["compare", str(tmp_path / "season"), "--by", "model", "--models", "X", "Y",
                                    "--format", "json"])
    assert out.exit_code == 0, out.output
    said = [n for n in json.loads(out.stdout)["notes"] if "about the log itself" in n]
    assert said == ["1 of 2 matches holds findings about the log itself (invalid records in 1): m_000000000001; "
                    "their figures rest on what the read kept; their behavior reports say what each is"]
