"""The rubric as data and its dimension functions, on numbers worked by hand.

Every expected value is worked in the comment beside it, on the double, as the
rubric (seed 000, *Arithmetic*) computes: half-up is floor(x x 10 + 0.5) / 10.
"""

from __future__ import annotations

import doctest
import math

import pytest

from daishi_forensics.score import rubric as rubric_module
from daishi_forensics.arithmetic import coverage, half_up
from daishi_forensics.economy.reputation import index_reputation_and_wealth
from daishi_forensics.score.rubric import (
    DIMENSIONS,
    READINGS,
    RUBRICS,
    VERSIONS,
    WEIGHTS,
    UnknownRubric,
    adaptation,
    competitiveness,
    economy,
    fitness_index,
    flow,
    playing_share,
    rank_points,
    ranks,
    rubric,
    social,
    survival,
)

R = RUBRICS


def test_exported_api_is_pinned() -> None:
    assert rubric_module.__all__ == [
        "DIMENSIONS", "WEIGHTS", "PUBLISHED_VERSION", "VERSIONS", "RubricVersion", "RUBRICS",
        "UnknownRubric", "rubric", "Reading", "READINGS", "flow", "playing_share", "survival",
        "economy", "social", "adaptation", "ranks", "rank_points", "competitiveness", "fitness_index",
    ]  # fmt: skip


def test_doctests() -> None:
    assert doctest.testmod(rubric_module).failed == 0


# -- the seed's worked examples ------------------------------------------------------------


def test_65_55_scores_65_6_not_python_round() -> None:
    # 0.6 x 84.25 + 0.4 x 37.5 is 65.55: half-up on the double gives 65.6, round() 65.5.
    x = 0.6 * 84.25 + 0.4 * 37.5
    assert half_up(x, 1) == 65.6
    assert round(x, 1) == 65.5
    # The same through the economy dimension: wealth 337 (100 x 337 / 400 = 84.25), activity
    # 45 in 300 rounds (rate 15; 100 x 15 / 40 = 37.5).
    assert economy(R["2.4"], wealth=337.0, activity=45, rounds_alive=300, match_rounds=300) == 65.6


def test_9_of_144_regions_is_0_063() -> None:
    assert coverage(9, 144) == 0.063
    assert round(9 / 144, 3) == 0.062  # what round() would have said
    # 30 x min(0.063 / 0.25, 1) = 7.56: adaptation of an agent with nothing else
    assert adaptation(R["2.4"], trained_levels=0, crafts=0, moves=8, coverage=0.063, has_map_record=True,
                      rounds_alive=600, match_rounds=600) == 7.6


def test_321_025_is_recorded_as_321_02() -> None:
    assert half_up(321.025, 2) == 321.02  # 321.025 is 321.02499... as a double


def test_small_field_with_a_tie_rank_points_and_competitiveness() -> None:
    # Field of 4, wealth 300, 250, 250, 100.  From 2.1 the two 250s share rank 2 and
    # the next is rank 4 (competition ranking, "1224").
    field = [("a", 300.0), ("b", 250.0), ("c", 250.0), ("d", 100.0)]
    assert ranks(field, R["2.1"]) == {"a": 1, "b": 2, "c": 2, "d": 4}
    # Rank points 100 x (4 - rank) / 3: 100, 66.67, 66.67, 0.
    assert [rank_points(r, 4) for r in (1, 2, 2, 4)] == [100.0, 200 / 3, 200 / 3, 0.0]
    # Competitiveness = mean(rank points, 100 x wealth / 500):
    # a (100 + 60) / 2 = 80; b, c (66.67 + 50) / 2 = 58.33 -> 58.3; d (0 + 20) / 2 = 10.
    scores = {agent: competitiveness(rank=r, field_size=4, wealth=w, dead=False)
              for (agent, w), r in zip(field, (1, 2, 2, 4))}
    assert scores == {"a": 80.0, "b": 58.3, "c": 58.3, "d": 10.0}
    # A tie for a place scores the same for everyone who tied.
    assert scores["b"] == scores["c"]
    # Under 2.0 the tie is not shared: board order decides, b 2 (58.3) and c 3 ((33.33 + 50) / 2 = 41.7).
    assert ranks(field, R["2.0"]) == {"a": 1, "b": 2, "c": 3, "d": 4}
    assert competitiveness(rank=3, field_size=4, wealth=250.0, dead=False) == 41.7


def test_the_contract_example_seat() -> None:
    # Contract §4b: wealth 305, reputation 20, circular 4.14 -> index 296.72 and 15.86;
    # rank 5 of 8 on index wealth: (100 x 3 / 7 + 100 x 296.72 / 500) / 2 = (42.857 + 59.344) / 2 = 51.1;
    # the index of its five dimensions, 25 + 19.05 + 19.78 + 15 + 7.665 = 86.495 -> 86.5.
    assert index_reputation_and_wealth(20, 305.0, 4.14) == (15.86, 296.72)
    assert competitiveness(rank=5, field_size=8, wealth=296.72, dead=False) == 51.1
    dims = {"survival": 100.0, "economy": 76.2, "social": 98.9, "adaptation": 100.0, "competitiveness": 51.1}
    assert fitness_index(dims) == 86.5


# -- the table -----------------------------------------------------------------------------


def test_the_version_table() -> None:
    # (rates, shared ranks, map term, playing share, credited social, index figures)
    expected = {
        "1.0": (False, False, "none", False, False, False),
        "2.0": (True, False, "none", False, False, False),
        "2.1": (True, True, "none", False, False, False),
        "2.2": (True, True, "where-recorded", False, False, False),
        "2.3": (True, True, "always", True, True, False),
        "2.4": (True, True, "always", True, True, True),
    }
    assert VERSIONS == tuple(expected)
    for version, row in expected.items():
        r = R[version]
        assert (r.rates, r.shared_ranks, r.map_term, r.playing_share, r.credited_social, r.index_figures) == row
        assert r.version == version


def test_each_adjacent_version_differs_in_exactly_what_the_seed_says() -> None:
    def changed(a: str, b: str) -> set[str]:
        x, y = R[a].to_dict(), R[b].to_dict()
        return {k for k in x if k != "version" and x[k] != y[k]}

    assert changed("1.0", "2.0") == {"rates"}
    assert changed("2.0", "2.1") == {"sharedRanks"}  # "the tie rule ... separates 2.1 from 2.0"
    assert changed("2.1", "2.2") == {"mapTerm"}
    assert changed("2.2", "2.3") == {"mapTerm", "playingShare", "creditedSocial"}
    assert changed("2.3", "2.4") == {"indexFigures"}


def test_rubric_lookup() -> None:
    assert rubric("2.4") is R["2.4"]
    assert rubric("v2.2") is R["2.2"]
    with pytest.raises(UnknownRubric, match="2.5"):
        rubric("2.5")


def test_weights_and_dimensions() -> None:
    assert WEIGHTS == (("survival", 0.25), ("economy", 0.25), ("social", 0.2), ("adaptation", 0.15),
                       ("competitiveness", 0.15))
    assert tuple(name for name, _ in WEIGHTS) == DIMENSIONS


def test_readings_have_unique_keys_and_text() -> None:
    keys = [r.key for r in READINGS]
    assert len(keys) == len(set(keys))
    assert all(r.silent and r.reading for r in READINGS)


# -- rates ---------------------------------------------------------------------------------


def test_a_late_joiners_300_round_floor() -> None:
    # 100 rounds alive in a 600-round match: 30 x 100 / max(100, min(600, 300)) = 10, not 30.
    assert flow(30, 100, 600, R["2.0"]) == 10.0
    # A match shorter than 300 rounds: the floor is the whole match, 30 x 100 / 200 = 15.
    assert flow(30, 100, 200, R["2.0"]) == 15.0
    # Alive past the floor: its own rounds, 30 x 100 / 500 = 6.
    assert flow(30, 500, 600, R["2.4"]) == 6.0
    # 1.0 reads lifetime counts.
    assert flow(30, 100, 600, R["1.0"]) == 30.0


# -- survival ------------------------------------------------------------------------------


def test_survival_base_by_status() -> None:
    common = dict(rounds_alive=600, match_rounds=600, world_actions=60, dormancy_episodes=0, recoveries=0)
    assert survival(R["2.4"], status="active", **common) == 100.0  # rate 10 -> share 1
    assert survival(R["2.4"], status="dormant", **common) == 55.0
    # dead after 150 of 600 rounds: 100 x 150 / 600 = 25; 60 actions over max(150, 300) -> rate 20 -> share 1
    dead = dict(common, rounds_alive=150)
    assert survival(R["2.4"], status="dead", **dead) == 25.0


def test_survival_playing_share_from_2_3() -> None:
    # 15 world actions over 300 rounds: rate 5, share min(5 / 10, 1) = 0.5
    common = dict(status="active", rounds_alive=300, match_rounds=300, world_actions=15, dormancy_episodes=0,
                  recoveries=0)
    assert survival(R["2.3"], **common) == 50.0
    assert survival(R["2.4"], **common) == 50.0
    assert survival(R["2.2"], **common) == 100.0  # "and under 2.2 and earlier"
    assert survival(R["1.0"], **common) == 100.0
    # "The share is 1 where the counters were not recorded"
    assert survival(R["2.4"], counters_recorded=False, **dict(common, world_actions=0)) == 100.0
    assert playing_share(R["2.4"], 0, 300, 300, counters_recorded=False) == 1.0


def test_dormancy_minus_12_and_recovery_plus_5() -> None:
    # dormant at the end: 55, two episodes and one recovery: 55 - 24 + 5 = 36 (share 1 under 2.2)
    assert survival(R["2.2"], status="dormant", rounds_alive=600, match_rounds=600, world_actions=0,
                    dormancy_episodes=2, recoveries=1) == 36.0
    # active with one episode and its recovery: 100 - 12 + 5 = 93
    assert survival(R["2.4"], status="active", rounds_alive=600, match_rounds=600, world_actions=60,
                    dormancy_episodes=1, recoveries=1) == 93.0
    # kept within 0 to 100: 55 x 0.1 - 5 x 12 is below 0; 100 + 5 is above 100
    assert survival(R["2.4"], status="dormant", rounds_alive=600, match_rounds=600, world_actions=6,
                    dormancy_episodes=5, recoveries=0) == 0.0
    assert survival(R["2.4"], status="active", rounds_alive=600, match_rounds=600, world_actions=60,
                    dormancy_episodes=0, recoveries=1) == 100.0


def test_a_dead_agents_survival_is_its_share_of_the_match() -> None:
    # 100 x 150 / 600 = 25, times share: 6 world actions over max(150, 300): rate 2, share 0.2 -> 5
    assert survival(R["2.4"], status="dead", rounds_alive=150, match_rounds=600, world_actions=6,
                    dormancy_episodes=0, recoveries=0) == 5.0
    assert survival(R["2.2"], status="dead", rounds_alive=150, match_rounds=600, world_actions=6,
                    dormancy_episodes=0, recoveries=0) == 25.0
    # 100 x 1 / 3 = 33.33 -> 33.3
    assert survival(R["2.0"], status="dead", rounds_alive=100, match_rounds=300, world_actions=0,
                    dormancy_episodes=0, recoveries=0) == 33.3


# -- economy, social, adaptation -----------------------------------------------------------


def test_economy_clamps_each_term_before_weighting() -> None:
    # wealth 1000 -> 250 -> 100; activity 300 over 600 rounds -> rate 50 -> 125 -> 100: 60 + 40
    assert economy(R["2.4"], wealth=1000.0, activity=300, rounds_alive=600, match_rounds=600) == 100.0
    # negative (index) wealth -> 0; activity 6 over 600 -> rate 1 -> 2.5 -> 0.4 x 2.5 = 1
    assert economy(R["2.4"], wealth=-3.0, activity=6, rounds_alive=600, match_rounds=600) == 1.0


def test_social_2_3_subtracts_after_its_first_clamp() -> None:
    # credited 30 over 300 rounds: rate 10 -> 220; reputation 5 -> 40; 300 messages: rate 100 -> min 15 -> 22.5:
    # 282.5 kept to 100, then - 8 x 2 aggression - 8 x (commons 1.5 over 300 -> rate 0.5 -> 4) = 80
    kw = dict(completed_trades=30, credited_trades=30.0, reputation=5, messages=300, aggression=2,
              commons_share=1.5, rounds_alive=300, match_rounds=300)
    assert social(R["2.3"], **kw) == 80.0
    # under 2.2 the same agent: 22 x 10 + 40 + 22.5 kept to 100, nothing taken away
    assert social(R["2.2"], **kw) == 100.0


def test_social_credited_against_completed_trades() -> None:
    # 6 completed trades but credited 1.5 (back-and-forth goods), over 300 rounds:
    # 2.3: 22 x 0.5 = 11; 2.2: 22 x 2 = 44.  Reputation 0, no messages.
    kw = dict(completed_trades=6, credited_trades=1.5, reputation=0, messages=0, aggression=0, commons_share=0.0,
              rounds_alive=300, match_rounds=300)
    assert social(R["2.3"], **kw) == 11.0
    assert social(R["2.2"], **kw) == 44.0
    # 1.0 reads lifetime counts: 22 x 6 = 132 -> 100
    assert social(R["1.0"], **kw) == 100.0


def test_social_reputation_can_be_negative() -> None:
    # 22 x 1 + 8 x -2 + 0 = 6
    assert social(R["2.4"], completed_trades=3, credited_trades=3.0, reputation=-2, messages=0, aggression=0,
                  commons_share=0.0, rounds_alive=300, match_rounds=300) == 6.0


def test_adaptation_last_term_by_version() -> None:
    # 2 levels (24), 6 crafts over 600 -> rate 1 (10); coverage 0.125 -> 30 x 0.5 = 15;
    # 90 moves over 600 -> rate 15 -> 1.5 x 15 = 22.5
    kw = dict(trained_levels=2, crafts=6, moves=90, coverage=0.125, rounds_alive=600, match_rounds=600)
    assert adaptation(R["2.4"], has_map_record=False, **kw) == 49.0  # 24 + 10 + 15
    assert adaptation(R["2.3"], has_map_record=False, **kw) == 49.0
    assert adaptation(R["2.2"], has_map_record=True, **kw) == 49.0
    assert adaptation(R["2.2"], has_map_record=False, **kw) == 56.5  # 24 + 10 + 22.5
    assert adaptation(R["2.1"], has_map_record=True, **kw) == 56.5
    assert adaptation(R["2.0"], has_map_record=True, **kw) == 56.5
    # 1.0: lifetime counts, no map term: 24 + 10 x 6 + 1.5 x min(90, 20) = 114 -> 100
    assert adaptation(R["1.0"], has_map_record=True, **kw) == 100.0


# -- competitiveness and the index ---------------------------------------------------------


def test_competitiveness_halved_for_the_dead() -> None:
    # rank 1 of 3, wealth 300: (100 + 60) / 2 = 80, dead: 40
    assert competitiveness(rank=1, field_size=3, wealth=300.0, dead=False) == 80.0
    assert competitiveness(rank=1, field_size=3, wealth=300.0, dead=True) == 40.0
    # the wealth term is kept within 0 to 100 before the mean: wealth 1000 -> 100; (0 + 100) / 2 = 50
    assert competitiveness(rank=3, field_size=3, wealth=1000.0, dead=False) == 50.0


def test_a_field_of_one() -> None:
    assert rank_points(1, 1) == 100.0
    assert competitiveness(rank=1, field_size=1, wealth=0.0, dead=False) == 50.0


def test_ties_in_every_version() -> None:
    field = [("x", 10.0), ("y", 10.0), ("z", 10.0)]
    for version in VERSIONS:
        got = ranks(field, R[version])
        if R[version].shared_ranks:
            assert got == {"x": 1, "y": 1, "z": 1}
        else:
            assert got == {"x": 1, "y": 2, "z": 3}  # board order


def test_fitness_index_adds_left_to_right() -> None:
    # 0.25 x 55 + 0.25 x 16.1 + 0.2 x 4.9 + 0.15 x 73.1 + 0.15 x 88.2 added left to right is 42.95 on the
    # double -> 43.0; a compensated sum (math.fsum, or sum() from Python 3.12) gives 42.949999999999996 -> 42.9.
    dims = {"survival": 55.0, "economy": 16.1, "social": 4.9, "adaptation": 73.1, "competitiveness": 88.2}
    assert fitness_index(dims) == 43.0
    assert half_up(math.fsum(w * dims[n] for n, w in WEIGHTS), 1) == 42.9


def test_fitness_index_rounds_halves_up_not_to_even() -> None:
    # 5.95 + 8.825 + 4.72 + 10.395 + 3.36 = 33.25 -> 33.3 (round() says 33.2)
    dims = {"survival": 23.8, "economy": 35.3, "social": 23.6, "adaptation": 69.3, "competitiveness": 22.4}
    total = 0.0
    for name, weight in WEIGHTS:
        total += weight * dims[name]
    assert round(total, 1) == 33.2
    assert fitness_index(dims) == 33.3


def test_fitness_index_is_held_to_0_100() -> None:
    assert fitness_index(dict.fromkeys(DIMENSIONS, 100.0)) == 100.0
    assert fitness_index(dict.fromkeys(DIMENSIONS, 0.0)) == 0.0
