"""Harm profile, baseline normalization, score vs harm, and the assembled profile section.

The hand-built match (400 rounds, so the rate floor is min(400, 300) = 300):

| id | tick | event                                                   | counts for            |
| -- | ---- | ------------------------------------------------------- | --------------------- |
| 4  | 1    | a_1 attacks a_2 in r_0_0, nobody else there             | a_1 violence, unseen  |
| 6  | 3    | a_1 robs a_2 (a_3 now stands there)                     | a_1 stealing          |
| 7  | 4    | a_2 raids a_1's storehouse (a_3 there)                  | a_2 stealing          |
| 8  | 5    | a_1 attacks a_3, killed                                 | a_1 violence          |
| 9  | 5    | a_3 dies, killer a_1 (the same kill as 8: counted once) | a_1 violence (kill)   |
| 10 | 6    | a_2 attacks a_1, killed, no death logged; a_3 is dead   | a_2 violence ×2, unseen|
| 11 | 7    | a_1 promises a_2 3 wood, never gives                    | a_1 promise-breaking  |

a_1: roundsAlive 400 → ÷400: violence 3 → 0.75, stealing 1 → 0.25, broken 1 → 0.25, unseen 1 → 0.25; total 1.25.
a_2: roundsAlive 120 → ÷300: violence 2 → 0.667, stealing 1 → 0.333, unseen 1 → 0.333; total 1.0.
a_3: no roundsAlive in the archive → replayed: alive ticks 0-4 = 5 → ÷300: all 0.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import orjson
import pytest

from daishi_forensics.profile import harm as harm_module
from daishi_forensics import jsonio
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.report.passes import analyze
from daishi_forensics.profile.harm import HARM_CATEGORIES, baseline_means, normalize, score_vs_harm
from daishi_forensics.profile.harm import seat_harms
from daishi_forensics.report.profile import profile_section
from daishi_forensics.report.render.profile import profile_blocks
from daishi_forensics.report.render.tables import markdown_table, text_table
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match

from .matchkit import archive, ev, write_match

AGENTS = ["a_1", "a_2", "a_3"]


def match_events() -> list[dict]:
    return [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 0, "agent_spawned", "a_3", region="r_0_1"),
        ev(4, 1, "attack", "a_1", target="a_2", region="r_0_0", damage=3, killed=False, witnessed=False,
           witnesses=[]),
        ev(5, 2, "move", "a_3", **{"from": "r_0_1"}, to="r_0_0"),
        ev(6, 3, "theft", "a_1", target="a_2", region="r_0_0", stolen={"food": 2}, witnessed=True,
           witnesses=["a_3"]),
        ev(7, 4, "raid", "a_2", target="a_1", structureId="s_1", region="r_0_0", stolen={"wood": 1},
           witnessed=True, witnesses=["a_3"]),
        ev(8, 5, "attack", "a_1", target="a_3", region="r_0_0", damage=9, killed=True, witnessed=True,
           witnesses=["a_2"]),
        ev(9, 5, "agent_died", "a_3", cause="combat", killer="a_1"),
        ev(10, 6, "attack", "a_2", target="a_1", region="r_0_0", damage=9, killed=True, witnessed=False,
           witnesses=[]),
        ev(11, 7, "message_private", "a_1", to="a_2", text="I'll give you 3 wood"),
    ]


def match_archive() -> dict:
    arch = archive(AGENTS, ended=400)
    for row, wealth, alive in zip(arch["agents"], (50.0, 80.0, 10.0), (400, 120, None)):
        row.update(wealth=wealth, reputation=0, status="active")
        if alive is not None:
            row["roundsAlive"] = alive
    return arch


def analysed(tmp_path: Path, events: list[dict], arch: dict) -> MatchAnalysis:
    path = write_match(tmp_path, events, arch)
    return analyze(read_match(open_match(str(path))))


@pytest.fixture
def analysis(tmp_path: Path) -> MatchAnalysis:
    return analysed(tmp_path / "m", match_events(), match_archive())


def test_doctests() -> None:
    assert doctest.testmod(harm_module).failed == 0


def test_counts_rates_evidence(analysis: MatchAnalysis) -> None:
    harms, extractor = seat_harms(analysis)
    by = {h.agent: h for h in harms}
    a1, a2, a3 = by["a_1"], by["a_2"], by["a_3"]
    assert (a1.attacks, a1.kills, a1.raids, a1.thefts, a1.rounds_alive) == (2, 1, 0, 1, 400)
    assert dict(a1.counts) == {"violence": 3, "stealing": 1, "promiseBreaking": 1, "unseenAggression": 1}
    assert dict(a1.rates) == {"violence": 0.75, "stealing": 0.25, "promiseBreaking": 0.25, "unseenAggression": 0.25}
    assert a1.total_rate == 1.25
    assert dict(a1.evidence) == {"violence": (4, 8, 9), "stealing": (6,), "promiseBreaking": (11,),
                                 "unseenAggression": (4,)}
    assert (a2.attacks, a2.kills, a2.raids, a2.rounds_alive) == (1, 1, 1, 120)
    assert dict(a2.counts) == {"violence": 2, "stealing": 1, "promiseBreaking": 0, "unseenAggression": 1}
    assert a2.rates["violence"] == 2 * 100 / 300 and a2.rates["stealing"] == 100 / 300
    assert a2.evidence["violence"] == (10,)
    assert a3.rounds_alive == 5 and set(a3.rates.values()) == {0.0}
    assert extractor == {"name": "daishi-heuristic", "version": "17", "maxChars": 2000}


def test_score_vs_harm(analysis: MatchAnalysis) -> None:
    harms, _ = seat_harms(analysis)
    rows = score_vs_harm(harms, harm_module.scores(analysis))
    assert [(r["agentId"], r["score"], r["scoreBasis"], r["harmTotalRate"]) for r in rows] == [
        ("a_2", 80.0, "indexWealth", 1.0), ("a_1", 50.0, "indexWealth", 1.25), ("a_3", 10.0, "indexWealth", 0.0)]
    assert rows[0]["violence"] == 0.667
    no_score = score_vs_harm(harms, {"a_1": (5.0, "wealth")})
    assert [r["agentId"] for r in no_score] == ["a_1", "a_2", "a_3"]  # seats without a score go last


def test_baseline_and_normalize(tmp_path: Path, analysis: MatchAnalysis) -> None:
    # Reference bots: b_1 attacks 3 times in 300 rounds (violence rate 1.0), b_2 does nothing.
    evs = [ev(1, 0, "agent_spawned", "b_1", region="r_0_0"), ev(2, 0, "agent_spawned", "b_2", region="r_0_0")]
    evs += [ev(3 + i, 1 + i, "attack", "b_1", target="b_2", region="r_0_0", damage=1, killed=False, witnessed=False,
               witnesses=[]) for i in range(3)]
    arch = archive(["b_1", "b_2"], ended=300)
    for row in arch["agents"]:
        row["roundsAlive"] = 300
    reference = analysed(tmp_path / "ref", evs, arch)
    base = baseline_means([reference, reference])
    assert base["seats"] == 4 and base["matches"] == 2
    assert base["means"] == {"violence": 0.5, "stealing": 0.0, "promiseBreaking": 0.0, "unseenAggression": 0.5}
    a1 = {h.agent: h for h in seat_harms(analysis)[0]}["a_1"]
    assert normalize(a1, base) == {"violence": 150.0, "stealing": None, "promiseBreaking": None,
                                   "unseenAggression": 50.0}
    seats, _ = profile_section(analysis, baseline=base)
    assert normalize(seats["a_1"]["harm"], base) == normalize(a1, base)  # a profile block works too
    assert seats["a_2"]["harm"]["normalized"]["violence"] == 133.3


def test_missing_analyses_are_said(tmp_path: Path) -> None:
    path = write_match(tmp_path, match_events(), match_archive())
    partial = analyze(read_match(open_match(str(path))), only=("harm",))
    harms, extractor = seat_harms(partial)
    a1 = {h.agent: h for h in harms}["a_1"]
    assert a1.counts["violence"] == 3 and a1.counts["promiseBreaking"] is None and a1.counts["unseenAggression"] is None
    assert a1.total_rate == 1.0 and extractor is None
    _, match = profile_section(partial)
    assert any("witness" in n for n in match["notes"]) and any("promise" in n for n in match["notes"])


# -- the assembled section ------------------------------------------------------------------------


def test_profile_section_shape_and_determinism(analysis: MatchAnalysis, tmp_path: Path) -> None:
    seats, match = profile_section(analysis)
    assert sorted(seats) == AGENTS
    assert set(seats["a_1"]) == {"profileVersion", "negotiation", "promises", "harm", "welfare", "specialization",
                                 "progression"}
    assert seats["a_1"]["harm"]["rateDenominator"] == 400 and seats["a_3"]["harm"]["rateDenominator"] == 300
    assert seats["a_1"]["harm"]["rates"]["violence"] == 0.75
    assert seats["a_1"]["harm"]["extractor"] == {"name": "daishi-heuristic", "version": "17", "maxChars": 2000}
    assert seats["a_1"]["promises"]["commitments"][0]["messageId"] == 11
    assert match["harm"]["scoreVsHarm"][0]["agentId"] == "a_2"
    assert match["harm"]["categories"] == list(HARM_CATEGORIES)
    assert match["promises"]["extractor"]["version"] == "17"
    first = jsonio.dumps({"seats": seats, "match": match})
    again = analysed(tmp_path / "again", match_events(), match_archive())
    assert jsonio.dumps(dict(zip(("seats", "match"), profile_section(again)))) == first
    orjson.loads(first)  # JSON-ready: no NaN, no tuples left


def test_renderers(analysis: MatchAnalysis) -> None:
    seats, match = profile_section(analysis)
    blocks = profile_blocks(seats, match)
    titles = [b[0] for b in blocks]
    for title in ("Negotiation", "Promises and betrayal", "Score vs harm", "Welfare", "Specialization",
                  "Progression"):
        assert f"Profile: {title}" in titles
    md = "\n".join(markdown_table(headers, rows) for _, _, headers, rows in blocks)
    assert "| a\\_2 | 80 | indexWealth | 0.667 | 0.333 | 0 | 0.333 | 1 |" in md
    assert any("daishi-heuristic v17" in intro for _, intro, _, _ in blocks)
    harm = next(b for b in blocks if b[0] == "Profile: Score vs harm")
    text = text_table(harm[2], harm[3])
    line = next(row for row in text.splitlines() if row.startswith("a_1") and "indexWealth" in row)
    assert line.split() == ["a_1", "50", "indexWealth", "0.75", "0.25", "0.25", "0.25", "1.25"]


def test_the_promises_section_says_what_is_measured_of_its_extractor_and_only_of_that_version(
        analysis: MatchAnalysis) -> None:
    from daishi_forensics.report.render.profile import MEASURED

    seats, match = profile_section(analysis)
    [intro] = [intro for title, intro, _, _ in profile_blocks(seats, match) if title == "Profile: Promises and betrayal"]
    assert intro.endswith(" " + MEASURED[("daishi-heuristic", "17")]) and "49% of 487 in free alliance-game chat" in intro
    assert "63% of 40 in people's bargaining" in intro
    assert "63% of 40 in people's bargaining" in MEASURED[("daishi-heuristic", "15")]
    assert "43% of 63 in free alliance-game chat" in MEASURED[("daishi-heuristic", "15")]
    assert "69% of 51 in people's bargaining" in MEASURED[("daishi-heuristic", "14")]
    assert "73% of 86 in people's bargaining" in MEASURED[("daishi-heuristic", "13")]
    for version in ("15", "14", "13", "12", "11", "10", "8"):  # a report of a version before keeps its line
        earlier = {**match, "promises": {**match["promises"], "extractor": {**match["promises"]["extractor"],
                                                                             "version": version}}}
        [intro] = [intro for title, intro, _, _ in profile_blocks(seats, earlier)
                   if title == "Profile: Promises and betrayal"]
        assert intro.endswith(" " + MEASURED[("daishi-heuristic", version)])
        assert "31-40% in free alliance-game chat" in intro or "31-40% on two other games" in intro
    # a version not measured on unseen text gets no line until it is
    for other in ({"name": "daishi-heuristic", "version": "18"},
                  {"name": "my-reader", "version": "9"}):
        changed = {**match, "promises": {**match["promises"], "extractor": {**match["promises"]["extractor"], **other}}}
        [intro] = [intro for title, intro, _, _ in profile_blocks(seats, changed)
                   if title == "Profile: Promises and betrayal"]
        assert intro.startswith(f"Commitments extracted by {other['name']} v{other['version']} ")
        assert intro.endswith("Keeping rate = kept / (kept + broken).")


def test_planted_thrown_fight(tmp_path: Path) -> None:
    """Simulator scale check: the planted attacker's raids, thefts and attacks are all in its harm evidence."""
    from daishi_forensics.simulate import simulate_match, write_match as write_simulated

    match = simulate_match("thrown_fight", 3, ticks=150)
    path = write_simulated(match, tmp_path, form="stream")
    analysis = analyze(read_match(open_match(str(path))))
    harms = {h.agent: h for h in seat_harms(analysis)[0]}
    for planted in match.truth["planted"]:
        attacker = harms[planted["attacker"]]
        evidence = set(attacker.evidence["violence"]) | set(attacker.evidence["stealing"])
        expected = set(planted["events"]) - set(match.truth.get("errata", []))
        assert expected and expected <= evidence
