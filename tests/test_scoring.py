"""Scoring hand-built matches: every expected figure is worked by hand in the comments.

Match rounds are ``endedAtTick - startedAtTick``; a rate is count x 100 / max(rounds
alive, min(match rounds, 300)); every dimension is rounded half-up to a tenth on the
double, then the index (rubric seed 000).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from daishi_forensics import schemas
from daishi_forensics.score import scoring as scoring_module
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.report.passes import analyze, analyze_target
from daishi_forensics.read.boundary import read_match
from daishi_forensics.score.scoring import REPORT_FIELDS, score_match, scorecards, seat_inputs
from daishi_forensics.read.sources import open_match

from .matchkit import archive, ev, trade, write_match

# --------------------------------------------------------------------------- match A
#
# 600 rounds; four seats.
#   a_1  active, 600 rounds alive, wealth 337, reputation 3, aggression 1, trained 1 + 1 + 0
#        6 gathers (2 wood each), 3 crafts, 2 moves (r_0_0 -> r_1_0 -> r_2_0), 3 trades with a_2,
#        2 messages
#   a_2  dormant at the end, 600 rounds, wealth 250, reputation 2; 1 gather (2 wood), the 3 trades,
#        dormant -> awake -> dormant (2 episodes, 1 recovery)
#   a_3  dead at 150 (roundsAlive 150), wealth 250, 1 gather
#   a_4  joined at 500 (roundsAlive 100), wealth 60, 6 gathers, 1 move (r_9_9 -> r_10_9)
#
# Trades a_1 <-> a_2: t1 a_1 gives wood 3 for food 3; t2 a_2 gives wood 3 for food 3; t3 a_1 gives
# stone 2 for food 1.  From a_1's side: received food 4 wood 3, gave wood 3 food 3 stone 2:
#   net share = (|3-3| x 2 + |4-3| x 2 + |0-2| x 3) / ((3+3) x 2 + (4+3) x 2 + 2 x 3) = 8 / 32 = 0.25
#   credited  = min(3, 5) x 0.25 = 0.75 each
#   points    = 3 each (goods both ways), circular = 3 x (1 - 0.25) = 2.25 each
#   index     a_1: reputation 3 - 2.25 = 0.75, wealth 337 - 4.5 = 332.5
#             a_2: reputation 2 - 2.25 = -0.25, wealth 250 - 4.5 = 245.5
# Commons: r_0_0 wood collapses at tick 10; in its window a_1 drew 12 units, a_2 2:
#   a_1 12/14 = 0.857, a_2 2/14 = 0.143.
# Coverage: a_1 3 regions -> 3/144 = 0.021; a_2, a_3 1 -> 0.007; a_4 2 -> 0.014.


def match_a() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    events: list[dict[str, Any]] = []
    ids = iter(range(1, 10_000))

    def e(tick: int, kind: str, agent: str | None = None, **payload: Any) -> None:
        events.append(ev(next(ids), tick, kind, agent, **payload))

    e(0, "agent_spawned", "a_1", region="r_0_0")
    e(0, "agent_spawned", "a_2", region="r_0_0")
    e(0, "agent_spawned", "a_3", region="r_5_5")
    for tick in range(1, 7):
        e(tick, "gather", "a_1", region="r_0_0", resource="wood", gathered=2)
    e(6, "gather", "a_3", region="r_5_5", resource="stone", gathered=1)
    e(7, "gather", "a_2", region="r_0_0", resource="wood", gathered=2)
    e(10, "region_collapsed", None, region="r_0_0", resource="wood")
    for tick in (11, 12, 13):
        e(tick, "craft", "a_1", item="plank", quantity=1, inputs={"wood": 2})
    e(14, "move", "a_1", **{"from": "r_0_0", "to": "r_1_0"})
    e(15, "move", "a_1", **{"from": "r_1_0", "to": "r_2_0"})
    for trade_id, tick, giver, taker, give, receive in (
        ("t1", 20, "a_1", "a_2", {"wood": 3}, {"food": 3}),
        ("t2", 21, "a_2", "a_1", {"wood": 3}, {"food": 3}),
        ("t3", 22, "a_1", "a_2", {"stone": 2}, {"food": 1}),
    ):
        first = next(ids)
        next(ids)
        events.extend(trade(first, tick, trade_id, giver, taker, give, receive))
    e(25, "message", "a_1", text="hello", channel="broadcast")
    e(26, "message", "a_1", text="wood for food?", channel="local")
    e(30, "agent_dormant", "a_2", reason="idle")
    e(40, "agent_awake", "a_2")
    e(50, "agent_dormant", "a_2", reason="idle")
    e(150, "agent_died", "a_3", cause="starvation")
    e(500, "agent_registered", "a_4", name="late", role="player", region="r_9_9")
    for tick in range(501, 507):
        e(tick, "gather", "a_4", region="r_9_9", resource="fiber", gathered=1)
    e(507, "move", "a_4", **{"from": "r_9_9", "to": "r_10_9"})

    arch = archive(["a_1", "a_2", "a_3", "a_4"], ended=600)
    none = {"strength": 0, "vitality": 0, "endurance": 0}
    board = {
        "a_1": dict(status="active", roundsAlive=600, diedAtTick=None, wealth=337.0, reputation=3, aggression=1,
                    trained={"strength": 1, "vitality": 1, "endurance": 0}),
        "a_2": dict(status="dormant", roundsAlive=600, diedAtTick=None, wealth=250.0, reputation=2, aggression=0,
                    trained=none),
        "a_3": dict(status="dead", roundsAlive=150, diedAtTick=150, wealth=250.0, reputation=0, aggression=0,
                    trained=none),
        "a_4": dict(status="active", roundsAlive=100, diedAtTick=None, wealth=60.0, reputation=0, aggression=0,
                    trained=none),
    }
    for seat in arch["agents"]:
        seat.update(board[seat["agentId"]])
    return events, arch


def analysed(tmp_path: Path, events: list[dict[str, Any]], arch: dict[str, Any], *,
             report: dict[str, Any] | None = None, version: int = 3, name: str = "m") -> MatchAnalysis:
    path = write_match(tmp_path / name, events, arch, form="bundle", version=version, report=report)
    return analyze_target(str(path))


def dims(score: Any, agent: str) -> dict[str, float]:
    seat = score.seat(agent)
    return {**seat.dimensions, "index": seat.fitness_index, "rank": seat.rank}


def test_exported_api_is_pinned() -> None:
    assert scoring_module.__all__ == [
        "REPORT_FIELDS", "REQUIRED_PASSES", "SeatInputs", "SeatScore", "MatchScore", "seat_inputs", "score_match", "scorecards",
    ]  # fmt: skip


def test_match_a_inputs(tmp_path: Path) -> None:
    events, arch = match_a()
    assert 10 <= len(events) <= 50
    inputs = {i.agent: i for i in seat_inputs(analysed(tmp_path, events, arch))}
    a1, a2 = inputs["a_1"], inputs["a_2"]
    assert (a1.gathers, a1.crafts, a1.moves, a1.completed_trades, a1.world_actions, a1.messages) == (6, 3, 2, 3, 14, 2)
    assert (a2.dormancy_episodes, a2.recoveries, a2.world_actions) == (2, 1, 4)
    assert (a1.credited_trades, a2.credited_trades) == (0.75, 0.75)
    assert (a1.commons_share, a2.commons_share) == (0.857, 0.143)
    assert (a1.circular_reputation, a1.index_reputation, a1.index_wealth) == (2.25, 0.75, 332.5)
    assert (a2.circular_reputation, a2.index_reputation, a2.index_wealth) == (2.25, -0.25, 245.5)
    assert [inputs[a].coverage for a in ("a_1", "a_2", "a_3", "a_4")] == [0.021, 0.007, 0.007, 0.014]
    assert a1.messages_source == "events" and a1.ledger_source == "events"


def test_match_a_under_2_4(tmp_path: Path) -> None:
    score = score_match(analysed(tmp_path, *match_a()), "2.4")
    assert score.field_size == 4 and score.match_rounds == 600
    # Ranks on index wealth: a_1 332.5, a_3 250, a_2 245.5, a_4 60.
    #
    # a_1 (denominator max(600, 300) = 600)
    #   survival     100 x min(14 x 100 / 600 / 10, 1) = 100 x 0.2333 = 23.3
    #   economy      0.6 x (100 x 332.5 / 400 = 83.125) + 0.4 x (100 x (9 x 100 / 600 = 1.5) / 40 = 3.75)
    #                = 49.875 + 1.5 = 51.375 -> 51.4
    #   social       22 x 0.125 + 8 x 0.75 + 1.5 x 0.3333 = 2.75 + 6 + 0.5 = 9.25;
    #                - 8 x 1 - 8 x (0.857 x 100 / 600 = 0.14283) = 9.25 - 8 - 1.14267 = 0.107 -> 0.1
    #   adaptation   12 x 2 + 10 x 0.5 + 30 x (0.021 / 0.25 = 0.084) = 24 + 5 + 2.52 = 31.52 -> 31.5
    #   competitive  (100 + 100 x 332.5 / 500 = 66.5) / 2 = 83.25 -> 83.3
    #   index        5.825 + 12.85 + 0.02 + 4.725 + 12.495 = 35.915 -> 35.9
    assert dims(score, "a_1") == {"survival": 23.3, "economy": 51.4, "social": 0.1, "adaptation": 31.5,
                                  "competitiveness": 83.3, "index": 35.9, "rank": 1}
    # a_2, dormant
    #   survival     55 x (4 x 100 / 600 / 10 = 0.0667) = 3.667 - 24 + 5 < 0 -> 0.0
    #   economy      0.6 x 61.375 + 0.4 x (100 x 0.1667 / 40 = 0.4167) = 36.825 + 0.1667 = 36.99 -> 37.0
    #   social       2.75 + 8 x -0.25 + 0 = 0.75; - 8 x (0.143 x 100 / 600 = 0.02383) = 0.5593 -> 0.6
    #   adaptation   30 x 0.007 / 0.25 = 0.84 -> 0.8
    #   competitive  (100 x 1 / 3 + 100 x 245.5 / 500 = 49.1) / 2 = 41.217 -> 41.2
    #   index        0 + 9.25 + 0.12 + 0.12 + 6.18 = 15.67 -> 15.7
    assert dims(score, "a_2") == {"survival": 0.0, "economy": 37.0, "social": 0.6, "adaptation": 0.8,
                                  "competitiveness": 41.2, "index": 15.7, "rank": 3}
    # a_3, dead at 150 (denominator max(150, 300) = 300)
    #   survival     100 x 150 / 600 = 25, x (1 x 100 / 300 / 10 = 0.0333) = 0.833 -> 0.8
    #   economy      0.6 x 62.5 + 0.4 x (100 x 0.3333 / 40 = 0.8333) = 37.5 + 0.3333 = 37.83 -> 37.8
    #   adaptation   0.8 (as a_2)
    #   competitive  (100 x 2 / 3 + 50) / 2 = 58.33, halved: 29.17 -> 29.2
    #   index        0.2 + 9.45 + 0 + 0.12 + 4.38 = 14.149999999999999 on the double; x 10 is 141.5 (the
    #                product rounds), + 0.5, floor 142 -> 14.2 (the rubric's floor(x x 10 + 0.5) / 10)
    assert dims(score, "a_3") == {"survival": 0.8, "economy": 37.8, "social": 0.0, "adaptation": 0.8,
                                  "competitiveness": 29.2, "index": 14.2, "rank": 2}
    # a_4, the late joiner: 100 rounds alive, the 300-round floor
    #   survival     7 world actions x 100 / 300 = 2.333 -> share 0.2333 -> 23.3 (70.0 without the floor)
    #   economy      0.6 x 15 + 0.4 x (100 x (6 x 100 / 300 = 2) / 40 = 5) = 9 + 2 = 11.0
    #   adaptation   30 x 0.014 / 0.25 = 1.68 -> 1.7
    #   competitive  (0 + 12) / 2 = 6.0
    #   index        5.825 + 2.75 + 0 + 0.255 + 0.9 = 9.73 -> 9.7
    assert dims(score, "a_4") == {"survival": 23.3, "economy": 11.0, "social": 0.0, "adaptation": 1.7,
                                  "competitiveness": 6.0, "index": 9.7, "rank": 4}


def test_match_a_under_2_3_reads_archived_wealth_and_a_tie(tmp_path: Path) -> None:
    score = score_match(analysed(tmp_path, *match_a()), "2.3")
    # No index figures: ranks on archived wealth 337, 250, 250, 60 -> 1, 2, 2, 4 (a_2 and a_3 tie).
    assert [score.seat(a).rank for a in ("a_1", "a_2", "a_3", "a_4")] == [1, 2, 2, 4]
    # a_1 economy: 0.6 x 84.25 + 0.4 x 3.75 = 50.55 + 1.5 = 52.05 -> 52.1
    # a_1 social: 2.75 + 8 x 3 + 0.5 = 27.25, - 8 - 1.14267 = 18.107 -> 18.1
    # a_1 competitiveness: (100 + 67.4) / 2 = 83.7; index 5.825 + 13.025 + 3.62 + 4.725 + 12.555 = 39.75
    #   -> 39.8
    assert dims(score, "a_1") == {"survival": 23.3, "economy": 52.1, "social": 18.1, "adaptation": 31.5,
                                  "competitiveness": 83.7, "index": 39.8, "rank": 1}
    # a_2 and a_3 tie for 2nd: both read rank points 66.67.  a_2 (66.67 + 50) / 2 = 58.3;
    # a_3 the same, halved (dead): 29.2.
    assert score.seat("a_2").dimensions["competitiveness"] == 58.3
    assert score.seat("a_3").dimensions["competitiveness"] == 29.2
    assert "rank-numbering" in score.readings


def test_match_a_under_2_2_2_1_2_0_and_1_0(tmp_path: Path) -> None:
    analysis_runs = {v: score_match(analysed(tmp_path, *match_a(), name=v), v) for v in ("2.2", "2.1", "2.0", "1.0")}
    s22 = analysis_runs["2.2"]
    # 2.2: playing share 1 -> a_1 100, a_2 55 - 24 + 5 = 36, a_3 100 x 150 / 600 = 25, a_4 100.
    assert [s22.seat(a).dimensions["survival"] for a in ("a_1", "a_2", "a_3", "a_4")] == [100.0, 36.0, 25.0, 100.0]
    # 2.2 social, nothing taken away: a_1 22 x (3 x 100 / 600 = 0.5) + 8 x 3 + 0.5 = 35.5;
    # a_2 11 + 16 + 0 = 27.
    assert (s22.seat("a_1").dimensions["social"], s22.seat("a_2").dimensions["social"]) == (35.5, 27.0)
    # No exploration block: 2.2 reads the move term: a_1 24 + 5 + 1.5 x (2 x 100 / 600) = 29.5;
    # a_4 1.5 x (1 x 100 / 300) = 0.5.
    assert (s22.seat("a_1").dimensions["adaptation"], s22.seat("a_4").dimensions["adaptation"]) == (29.5, 0.5)
    assert "map-record" in s22.readings
    # a_1 index: 25 + 13.025 + 7.1 + 4.425 + 12.555 = 62.105 -> 62.1
    assert s22.seat("a_1").fitness_index == 62.1
    # 2.1 reads as 2.2 here (no map record): same figures.
    indexes_21 = {a.agent: a.fitness_index for a in analysis_runs["2.1"].seats}
    assert indexes_21 == {a.agent: a.fitness_index for a in s22.seats}
    # 2.0: the a_2 / a_3 tie is broken by board order: a_2 2, a_3 3 -> a_3 (33.33 + 50) / 2 / 2 = 20.8.
    s20 = analysis_runs["2.0"]
    assert (s20.seat("a_2").rank, s20.seat("a_3").rank) == (2, 3)
    assert s20.seat("a_3").dimensions["competitiveness"] == 20.8
    assert "rank-ties-before-2.1" in s20.readings
    # 1.0: lifetime counts.  a_4 economy 0.6 x 15 + 0.4 x (100 x 6 / 40 = 15) = 15.0;
    # a_1 social 22 x 3 + 8 x 3 + 1.5 x 2 = 93; a_1 adaptation 24 + 10 x 3 + 1.5 x 2 = 57.
    s10 = analysis_runs["1.0"]
    assert s10.seat("a_4").dimensions["economy"] == 15.0
    assert (s10.seat("a_1").dimensions["social"], s10.seat("a_1").dimensions["adaptation"]) == (93.0, 57.0)
    assert "rubric-1.0" in s10.readings


def test_the_2_2_map_term_with_an_exploration_block(tmp_path: Path) -> None:
    events, arch = match_a()
    arch["exploration"] = {"a_1": {"regions": 3, "coverage": 0.021}, "a_4": {"regions": 2, "coverage": 0.014}}
    score = score_match(analysed(tmp_path, events, arch), "2.2")
    # a map record: 2.2 reads coverage: a_1 24 + 5 + 2.52 = 31.52 -> 31.5
    assert score.seat("a_1").dimensions["adaptation"] == 31.5


def test_the_report_names_the_version(tmp_path: Path) -> None:
    events, arch = match_a()
    score = score_match(analysed(tmp_path, events, arch, report={"matchId": arch["matchId"], "rubricVersion": "2.0",
                                                                 "seats": []}))
    assert score.rubric.version == "2.0" and score.rubric_source == "report"
    score = score_match(analysed(tmp_path, events, arch, name="none"))
    assert score.rubric.version == "2.4" and score.rubric_source == "default"
    assert "default-rubric" in score.readings


# --------------------------------------------------------------------------- ore on 0.1.0


def ore_match(engine: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    # t1: a_1 gives ore 1 for wood 4; t2: a_1 gives wood 4 for ore 2.  From a_1: received wood 4 ore 2,
    # gave ore 1 wood 4: net share = |2 - 1| x ore / ((4 + 4) x 2 + (2 + 1) x ore).
    #   engine 0.1.0 (ore 8): 8 / (16 + 24) = 0.2 -> credited 2 x 0.2 = 0.4
    #   later engines (ore 5): 5 / (16 + 15) = 0.16129 -> 0.161 -> credited 0.322
    events = [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        *trade(3, 1, "t1", "a_1", "a_2", {"ore": 1}, {"wood": 4}),
        *trade(5, 2, "t2", "a_1", "a_2", {"wood": 4}, {"ore": 2}),
    ]
    arch = archive(["a_1", "a_2"], ended=300)
    arch["config"]["engine_version"] = engine
    for seat in arch["agents"]:
        seat.update(status="active", roundsAlive=300, wealth=100.0, reputation=0, aggression=0,
                    trained={"strength": 0, "vitality": 0, "endurance": 0})
    return events, arch


def test_ore_is_8_on_engine_0_1_0(tmp_path: Path) -> None:
    early = score_match(analysed(tmp_path, *ore_match("0.1.0"), name="early"), "2.3")
    late = score_match(analysed(tmp_path, *ore_match("0.5.2"), name="late"), "2.3")
    assert early.seat("a_1").inputs.credited_trades == 0.4
    assert late.seat("a_1").inputs.credited_trades == 0.322
    # social 2.3: 22 x (0.4 x 100 / 300 = 0.1333) = 2.933 -> 2.9; 22 x (0.322 / 3) = 2.361 -> 2.4
    assert early.seat("a_1").dimensions["social"] == 2.9
    assert late.seat("a_1").dimensions["social"] == 2.4
    # 2.4: 2 points each x (1 - 0.2) = 1.6 circular; index wealth 100 - 3.2 = 96.8
    early24 = score_match(analysed(tmp_path, *ore_match("0.1.0"), name="early24"), "2.4")
    assert early24.seat("a_1").inputs.index_wealth == 96.8


# --------------------------------------------------------------------------- sources


def test_messages_from_the_archive_metrics_then_the_report_then_the_events(tmp_path: Path) -> None:
    events, arch = match_a()
    report = {"matchId": arch["matchId"], "rubricVersion": "2.4",
              "seats": [{"agentId": "a_2", "raw": {"messagesSent": 9}}, {"agentId": "a_1", "raw": {"messagesSent": 4}}]}
    arch["metrics"] = {"a_1": {"gather": 6, "craft": 3, "move": 2, "trade_completed": 3, "message": 2,
                               "message_private": 5}}
    inputs = {i.agent: i for i in seat_inputs(analysed(tmp_path, events, arch, report=report))}
    assert (inputs["a_1"].messages, inputs["a_1"].messages_source) == (7, "metrics")
    assert any("raw.messagesSent is 4" in n for n in inputs["a_1"].notes)
    assert (inputs["a_2"].messages, inputs["a_2"].messages_source) == (9, "report")
    assert (inputs["a_3"].messages, inputs["a_3"].messages_source) == (0, "events")
    assert any("message_private 5" in t for t in inputs["a_1"].trusted)
    assert any("wealth 337" in t for t in inputs["a_1"].trusted)


def test_metrics_disagreeing_with_the_events_is_a_note(tmp_path: Path) -> None:
    events, arch = match_a()
    arch["metrics"] = {"a_1": {"gather": 7, "craft": 3, "move": 2, "trade_completed": 3, "message": 2}}
    a1 = seat_inputs(analysed(tmp_path, events, arch))[0]
    assert a1.gathers == 6 and a1.counters_source == "events"
    assert any("count 7 'gather', the events 6" in n for n in a1.notes)


def test_an_archive_ledger_disagreeing_with_the_events_is_a_note(tmp_path: Path) -> None:
    events, arch = match_a()
    arch["ledger"] = {"pairs": [{"a": "a_1", "b": "a_2", "trades": 3, "netShare": 0.3}],
                      "commons": {"a_1": 0.857, "a_2": 0.143}}
    score = score_match(analysed(tmp_path, events, arch), "2.4")
    assert score.seat("a_1").inputs.credited_trades == 0.75  # 3 x 0.25, from the events
    assert score.notes == ("pair a_1–a_2: the archive's ledger has 3 trades, net share 0.3; the events 3, 0.25: "
                           "scored from the events",)


def test_rounds_alive_derived_from_the_replay(tmp_path: Path) -> None:
    events, arch = match_a()
    for seat in arch["agents"]:
        seat.pop("roundsAlive")
    score = score_match(analysed(tmp_path, events, arch), "2.4")
    got = {s.agent: (s.inputs.rounds_alive, s.inputs.rounds_alive_source) for s in score.seats}
    # spawned at 0: alive at the end of ticks 0..599 (600); died at 150: ticks 0..149 (150);
    # registered at 500: ticks 500..599 (100)
    assert got == {"a_1": (600, "replay"), "a_2": (600, "replay"), "a_3": (150, "replay"), "a_4": (100, "replay")}
    assert "rounds-alive" in score.readings


def test_an_archive_with_no_events_and_no_counters(tmp_path: Path) -> None:
    # The earliest archives: no events, no counters, no ledger.  Every count is 0; playing share 1.
    arch = archive(["a_1", "a_2"], ended=600)
    arch["agents"][0].update(status="active", wealth=200.0, reputation=1, aggression=0,
                             trained={"strength": 1, "vitality": 0, "endurance": 0})
    arch["agents"][1].update(status="dead", diedAtTick=300, wealth=100.0, reputation=0, aggression=0,
                             trained={"strength": 0, "vitality": 0, "endurance": 0})
    score = score_match(analysed(tmp_path, [], arch), "2.4")
    a1, a2 = score.seat("a_1"), score.seat("a_2")
    assert a1.inputs.counters_source == "not recorded" and a1.inputs.ledger_source == "none"
    # rounds alive from the board: a_1 not dead -> 600; a_2 dead at 300 -> 300
    assert (a1.inputs.rounds_alive, a2.inputs.rounds_alive) == (600, 300)
    # a_1: survival 100 (share 1); economy 0.6 x 50 = 30; social 8 x 1 = 8; adaptation 12;
    #      competitiveness (100 + 40) / 2 = 70; index 25 + 7.5 + 1.6 + 1.8 + 10.5 = 46.4
    assert dims(score, "a_1") == {"survival": 100.0, "economy": 30.0, "social": 8.0, "adaptation": 12.0,
                                  "competitiveness": 70.0, "index": 46.4, "rank": 1}
    # a_2 dead: survival 100 x 300 / 600 = 50; economy 0.6 x 25 = 15; competitiveness (0 + 20) / 2 / 2 = 5;
    #      index 12.5 + 3.75 + 0 + 0 + 0.75 = 17.0
    assert dims(score, "a_2") == {"survival": 50.0, "economy": 15.0, "social": 0.0, "adaptation": 0.0,
                                  "competitiveness": 5.0, "index": 17.0, "rank": 2}
    assert {"counters-not-recorded", "no-ledger", "rounds-alive"} <= set(score.readings)


def test_an_archive_whose_events_are_gone_reads_its_blocks(tmp_path: Path) -> None:
    # No events; metrics, ledger (no rep: estimated points) and exploration stamped on the archive.
    arch = archive(["a_1", "a_2"], ended=600)
    for seat in arch["agents"]:
        seat.update(status="active", roundsAlive=600, wealth=200.0, reputation=4, aggression=0,
                    trained={"strength": 0, "vitality": 0, "endurance": 0})
    arch["metrics"] = {"a_1": {"gather": 60, "trade_completed": 7, "message": 3, "message_private": 3},
                       "a_2": {"gather": 30, "trade_completed": 7}}
    arch["ledger"] = {"pairs": [{"a": "a_1", "b": "a_2", "trades": 7, "netShare": 0.5}], "commons": {"a_1": 0.6}}
    arch["exploration"] = {"a_1": {"regions": 36, "coverage": 0.25}}
    score = score_match(analysed(tmp_path, [], arch), "2.4")
    a1 = score.seat("a_1")
    i = a1.inputs
    assert (i.counters_source, i.ledger_source, i.coverage_source, i.points_source) == (
        "metrics", "archive", "exploration", "estimate")
    # credited min(7, 5) x 0.5 = 2.5; estimated points min(7, 5) = 5, circular 5 x 0.5 = 2.5;
    # index reputation 4 - 2.5 = 1.5, wealth 200 - 5 = 195
    assert (i.credited_trades, i.commons_share, i.coverage) == (2.5, 0.6, 0.25)
    assert (i.circular_reputation, i.index_reputation, i.index_wealth) == (2.5, 1.5, 195.0)
    assert i.messages == 6
    assert any("estimated" in t for t in i.trusted)
    assert any("ledger block" in t for t in i.trusted)
    # survival: 67 world actions x 100 / 600 = 11.17 -> share 1 -> 100
    # economy: 0.6 x 48.75 + 0.4 x (100 x 10 / 40 = 25) = 29.25 + 10 = 39.25 -> 39.3
    # social: 22 x (2.5 / 6 = 0.41667) + 8 x 1.5 + 1.5 x 1 = 9.1667 + 12 + 1.5 = 22.667; - 8 x 0.1 = 21.867 -> 21.9
    # adaptation: 30 x min(0.25 / 0.25, 1) = 30
    assert {k: a1.dimensions[k] for k in ("survival", "economy", "social", "adaptation")} == {
        "survival": 100.0, "economy": 39.3, "social": 21.9, "adaptation": 30.0}


def test_a_v2_log_does_not_count_the_offerers_synthesized_twin(tmp_path: Path) -> None:
    events, arch = ore_match("0.5.2")
    v3 = {i.agent: i for i in seat_inputs(analysed(tmp_path, events, arch, name="v3"))}
    v2 = score_match(analysed(tmp_path, events, arch, version=2, name="v2"), "2.2")
    # v3: each party logs its own trade_completed: 2 completed trades each.
    assert (v3["a_1"].completed_trades, v3["a_2"].completed_trades) == (2, 2)
    # v2: logged once, for the acceptor (a_2); a_1's are upcast twins, not counted.
    assert (v2.seat("a_1").inputs.completed_trades, v2.seat("a_2").inputs.completed_trades) == (0, 2)
    # the ledger still counts both trades for the pair
    assert v2.seat("a_1").inputs.credited_trades == 0.322
    assert "v2-offerer-twins" in v2.readings


def test_missing_board_fields_are_notes(tmp_path: Path) -> None:
    events, arch = ore_match("0.5.2")
    for seat in arch["agents"]:
        for key in ("status", "wealth", "trained"):
            seat.pop(key)
    i = seat_inputs(analysed(tmp_path, events, arch))[0]
    assert (i.status, i.wealth, i.trained_levels) == ("active", 0.0, 0)
    assert any("no status" in n for n in i.notes) and any("no wealth" in n for n in i.notes)


# --------------------------------------------------------------------------- scorecards


def test_scorecards_write_a_valid_report(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, *match_a())
    validator = jsonschema.Draft202012Validator(schemas.load("report"), registry=schemas.registry())
    for version in ("1.0", "2.0", "2.1", "2.2", "2.3", "2.4"):
        report = scorecards(analysis, version)
        assert not list(validator.iter_errors(report)), version
        assert report["rubricVersion"] == version and report["fieldSize"] == 4
        assert [s["agentId"] for s in report["seats"]] == ["a_1", "a_2", "a_3", "a_4"]
        has_index = "indexWealth" in report["seats"][0]
        assert has_index == (version == "2.4")
    card = scorecards(analysis, "2.4")["seats"][0]
    assert card["fitnessIndex"] == 35.9 and card["rank"] == 1 and card["reputation"] == 3
    assert card["raw"] == {"messagesSent": 2, "creditedTrades": 0.75, "commonsShare": 0.857, "coverage": 0.021}
    assert (card["indexWealth"], card["indexReputation"], card["circularReputation"]) == (332.5, 0.75, 2.25)


def test_scoring_is_deterministic_and_independent_of_board_order(tmp_path: Path) -> None:
    events, arch = match_a()
    first = scorecards(analysed(tmp_path, events, arch, name="one"), "2.4")
    shuffled = copy.deepcopy(arch)
    shuffled["agents"].reverse()
    second = scorecards(analysed(tmp_path, events, shuffled, name="two"), "2.4")
    assert first == second  # no ties under 2.4 here, and seats print in seat order


def test_report_fields_cover_the_contract_scorecard() -> None:
    assert REPORT_FIELDS[:6] == ("fitnessIndex", "dimensions.survival", "dimensions.economy", "dimensions.social",
                                 "dimensions.adaptation", "dimensions.competitiveness")
    assert {"rank", "wealth", "indexWealth", "reputation", "indexReputation", "circularReputation",
            "raw.messagesSent", "raw.creditedTrades", "raw.commonsShare", "raw.coverage"} <= set(REPORT_FIELDS)


def test_scoring_names_the_passes_it_needs(tmp_path: Path) -> None:
    path = write_match(tmp_path / "m", *match_a(), form="bundle")
    partial = analyze(read_match(open_match(str(path))), only=("counters", "ledger"))
    with pytest.raises(ValueError, match="coverage, commons, reputation"):
        score_match(partial, "2.4")


def test_shared_ranks_on_a_large_field_are_competition_ranks_and_quick() -> None:
    """Rank = 1 + the agents with strictly more wealth; 0.0 and -0.0 are one double value.
    A field of 20,000 used to take seconds (each agent scanned the whole field): the work is counted, not
    timed, as the comparisons of wealth made, which a sort and a sorted search keep near n log2 n (515,000
    here, under 3 n log2 n; scanning the field per agent made 400 million)."""
    import math

    from daishi_forensics.score.rubric import RUBRICS, ranks

    class Wealth(float):
        """A wealth that counts the comparisons made of it (and of its negation)."""

        compared = 0

        def __neg__(self) -> Wealth:
            return Wealth(-float(self))

        def __lt__(self, other: float) -> bool:
            Wealth.compared += 1
            return float(self) < float(other)

        def __gt__(self, other: float) -> bool:
            Wealth.compared += 1
            return float(self) > float(other)

    assert ranks([("a", 0.0), ("b", -0.0), ("c", 5.0), ("d", -3.0), ("e", 5.0)], RUBRICS["2.4"]) == \
        {"c": 1, "e": 1, "a": 3, "b": 3, "d": 5}
    field = [(f"a{i}", Wealth(i % 500)) for i in range(20_000)]
    out = ranks(field, RUBRICS["2.4"])
    assert 0 < Wealth.compared <= 3 * 20_000 * math.log2(20_000)
    assert out["a499"] == 1 and out["a0"] == 20_000 - 39  # 40 agents hold each of the 500 values
