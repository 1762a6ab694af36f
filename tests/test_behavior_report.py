"""The behavior report on a hand-built match: exact numbers, every form and version (issue 3)."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from daishi_forensics import schemas
from daishi_forensics.report.behavior import behavior
from daishi_forensics.jsonio import dumps

from .matchkit import FORMS, archive, ev, trade, write_match


def hand_match() -> tuple[list[dict], dict]:
    """Three agents, 20 ticks.

    a_1 and a_2 spawn in r_0_0, a_3 in r_5_5.  a_1 trades wood 2 -> food 2 with a_2 and then the
    same goods back (net share 0); a_3 gifts a_2 one tool.  a_1 and a_2 both gather the wood of
    r_0_0, which collapses at tick 6 (a_1 3 units, a_2 1 unit: shares 0.75 and 0.25).  a_3 alone
    gathers the stone of r_5_5, which collapses too (one drawer: not counted).  a_3 walks to
    r_0_1 then r_0_0 (3 regions); a_2 attacks a_3 in r_0_0 with a_1 standing there (one potential
    witness); a_2 leaves for r_1_1, and a_3 attacks a_1 at tick 12 with nobody else in r_0_0
    (unseen).  a_1 dies at tick 15.
    """
    events = [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 0, "agent_spawned", "a_3", region="r_5_5"),
        ev(4, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3),
        ev(5, 2, "gather", "a_2", region="r_0_0", resource="wood", gathered=1),
        ev(6, 2, "gather", "a_3", region="r_5_5", resource="stone", gathered=4),
        *trade(7, 3, "t1", "a_1", "a_2", {"wood": 2}, {"food": 2}),
        *trade(9, 4, "t2", "a_2", "a_1", {"wood": 2}, {"food": 2}),
        *trade(11, 5, "t3", "a_3", "a_2", {"tool": 1}, {}),
        ev(13, 6, "region_collapsed", None, region="r_0_0", resource="wood"),
        ev(14, 6, "region_collapsed", None, region="r_5_5", resource="stone"),
        ev(15, 7, "move", "a_3", **{"from": "r_5_5", "to": "r_0_1"}),
        ev(16, 8, "move", "a_3", **{"from": "r_0_1", "to": "r_0_0"}),
        ev(17, 9, "attack", "a_2", target="a_3", region="r_0_0", damage=3, witnessed=True, witnesses=["a_1"]),
        ev(18, 10, "move", "a_2", **{"from": "r_0_0", "to": "r_1_1"}),
        ev(19, 12, "attack", "a_3", target="a_1", region="r_0_0", damage=5, witnessed=False, witnesses=[]),
        ev(20, 15, "agent_died", "a_1", cause="combat", killer="a_3"),
    ]
    arch = archive(["a_1", "a_2", "a_3"], ended=20)
    return events, arch


def report_for(tmp_path: Path, form: str = "stream", version: int = 3) -> dict:
    events, arch = hand_match()
    return behavior(str(write_match(tmp_path, events, arch, form=form, version=version))).report


def seat(report: dict, agent: str) -> dict:
    return next(s for s in report["seats"] if s["agentId"] == agent)


def test_exact_numbers(tmp_path: Path) -> None:
    report = report_for(tmp_path)
    jsonschema.Draft202012Validator(schemas.load("behavior-report"), registry=schemas.registry()).validate(report)
    pairs = {(p["a"], p["b"]): p for p in report["ledger"]["pairs"]}
    # a_1/a_2 moved wood 2 and food 2 each way: |0| / 16 -> net share 0
    assert pairs[("a_1", "a_2")]["trades"] == 2 and pairs[("a_1", "a_2")]["netShare"] == 0.0
    # the gift is a trade, all one way
    assert pairs[("a_2", "a_3")]["trades"] == 1 and pairs[("a_2", "a_3")]["netShare"] == 1.0
    # credited: a_1 = min(2,5) x 0 = 0; a_2 = 0 + 1 x 1 = 1; a_3 = 1
    assert [seat(report, a)["creditedTrades"] for a in ("a_1", "a_2", "a_3")] == [0.0, 1.0, 1.0]
    # commons: the wood pool had two drawers (3 and 1 units); the stone pool only one
    assert [seat(report, a)["commonsShare"] for a in ("a_1", "a_2", "a_3")] == [0.75, 0.25, 0.0]
    # reputation: t1 and t2 pay both a point (goods both ways), the gift pays nothing;
    # circular = 2 x (1 - 0) = 2 for a_1 and a_2
    assert [seat(report, a)["circularReputation"] for a in ("a_1", "a_2", "a_3")] == [2.0, 2.0, 0.0]
    # coverage: a_3 stood in r_5_5, r_0_1, r_0_0 -> 3/144 = 0.0208 -> 0.021
    assert seat(report, "a_3")["regions"] == 3 and seat(report, "a_3")["coverage"] == 0.021
    assert seat(report, "a_2")["regions"] == 2 and seat(report, "a_2")["coverage"] == 0.014
    # aggression: a_2's attack had a_1 watching; a_3's attack had nobody else in r_0_0
    assert (seat(report, "a_2")["aggression"]["acts"], seat(report, "a_2")["aggression"]["unseen"]) == (1, 0)
    assert (seat(report, "a_3")["aggression"]["acts"], seat(report, "a_3")["aggression"]["unseen"]) == (1, 1)
    contact = {(p["a"], p["b"]): p for p in report["contact"]["pairs"]}
    # a_1 and a_2 together from tick 0 to the end of tick 9 (a_2 left at 10): 10 ticks
    assert contact[("a_1", "a_2")]["ticksTogether"] == 10 and contact[("a_1", "a_2")]["firstContactTick"] == 0
    # a_1 and a_3 together at the end of ticks 8..14 (a_1 died at 15): 7 ticks
    assert contact[("a_1", "a_3")]["ticksTogether"] == 7 and contact[("a_1", "a_3")]["firstContactTick"] == 8
    # a_2 and a_3: ticks 8 and 9
    assert contact[("a_2", "a_3")]["ticksTogether"] == 2


VERSION_INVARIANT = ("coverage", "regions", "creditedTrades", "commonsShare", "circularReputation")


def _invariant(report: dict) -> dict:
    return {
        "seats": [{k: s[k] for k in VERSION_INVARIANT} | {"acts": s["aggression"]["acts"],
                                                           "unseen": s["aggression"]["unseen"]}
                  for s in report["seats"]],
        "ledger": [{k: p[k] for k in ("a", "b", "trades", "netShare", "points")} for p in report["ledger"]["pairs"]],
        "contact": report["contact"],
    }


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("version", [1, 2, 3])
def test_same_numbers_in_every_form_and_version(tmp_path: Path, form: str, version: int) -> None:
    baseline = _invariant(report_for(tmp_path / "base"))
    assert _invariant(report_for(tmp_path / "x", form=form, version=version)) == baseline


def test_same_input_same_bytes(tmp_path: Path) -> None:
    first = dumps(report_for(tmp_path / "one"))
    second = dumps(report_for(tmp_path / "one"))
    assert first == second


def test_archive_disagreements_are_findings(tmp_path: Path) -> None:
    events, arch = hand_match()
    arch["metrics"] = {"a_1": {"gather": 2}, "a_2": {"gather": 1}}
    arch["exploration"] = {"a_3": {"regions": 3, "coverage": 0.02}}
    arch["ledger"] = {"pairs": [{"a": "a_1", "b": "a_2", "trades": 2, "netShare": 0.4}], "commons": {"a_1": 0.75}}
    arch["agents"][1]["aggression"] = 0
    arch["errata"] = [{"id": "E3", "text": "never happened", "events": [6], "scoresDepend": False}]
    report = behavior(str(write_match(tmp_path, events, arch))).report
    got = {(f["kind"], f.get("field"), f.get("agentId"), tuple(f.get("pair") or ())) for f in report["findings"]}
    assert ("archive-disagreement", "metrics.gather", "a_1", ()) in got
    assert ("archive-disagreement", "exploration.coverage", "a_3", ()) in got
    assert ("archive-disagreement", "ledger.netShare", None, ("a_1", "a_2")) in got
    assert ("archive-disagreement", "aggression", "a_2", ()) in got
    assert ("erratum-applied", None, None, ()) in got
    assert ("archive-disagreement", "metrics.gather", "a_2", ()) not in got
    aggression = next(f for f in report["findings"] if f.get("field") == "aggression")
    assert aggression["archived"] == 0 and aggression["recomputed"] == 1 and aggression["events"] == [17]
    assert report["source"]["excludedByErrata"] == [6]
    assert report["source"]["findingsCount"] == len(report["findings"])


def test_logged_witnesses_that_disagree_are_a_finding(tmp_path: Path) -> None:
    events, arch = hand_match()
    # event 17: a_2 attacks a_3 with a_1 standing there; the log claims nobody saw it
    attack = next(e for e in events if e["id"] == 17)
    attack["payload"]["witnessed"] = False
    attack["payload"]["witnesses"] = []
    report = behavior(str(write_match(tmp_path, events, arch))).report
    (finding,) = [f for f in report["findings"] if f["kind"] == "witness-mismatch"]
    assert finding["events"] == [17] and finding["agentId"] == "a_2"
    assert "replayed: a_1" in finding["message"] and "logged: nobody" in finding["message"]


def _simulated_report(tmp_path: Path, version: int, form: str) -> dict:
    from daishi_forensics.simulate import simulate_to_dir

    path = simulate_to_dir("mixed", 4, version, tmp_path / f"{version}-{form}", form, truth_file=None, ticks=90)
    return behavior(str(path)).report


@pytest.mark.parametrize("form", ["bundle-gz", "stream", "folder"])
def test_simulated_match_same_numbers_v2_v3_and_forms(tmp_path: Path, form: str) -> None:
    """v2 and v3 of one simulated match share their archive's item values, so every figure agrees;
    v1 (engine 0.1.0) values ore at 8, so there only the value-free figures must agree."""
    v3 = _invariant(_simulated_report(tmp_path, 3, "stream"))
    assert _invariant(_simulated_report(tmp_path, 3, form)) == v3
    v2 = _simulated_report(tmp_path, 2, form)
    assert _invariant(v2) == v3
    v1 = _invariant(_simulated_report(tmp_path, 1, form))
    free = ("coverage", "regions", "acts", "unseen")
    assert [{k: s[k] for k in free} for s in v1["seats"]] == [{k: s[k] for k in free} for s in v3["seats"]]
    assert [(p["a"], p["b"], p["trades"]) for p in v1["ledger"]] == [(p["a"], p["b"], p["trades"]) for p in v3["ledger"]]
    assert v1["contact"] == v3["contact"]
