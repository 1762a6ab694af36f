"""CoveragePass: distinct regions stood in, over the map (rubric *Counters*)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from daishi_forensics.economy.coverage import AgentCoverage, Coverage, CoveragePass
from daishi_forensics.replay import replay

_ids = iter(range(1, 1 << 30))


def at(tick: int, type_: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    return {"id": next(_ids), "tick": tick, "type": type_, "agentId": agent, "payload": payload}


def walk(agent: str, path: list[str], first_tick: int = 1) -> list[dict[str, Any]]:
    return [at(first_tick + i, "move", agent, **{"from": a, "to": b}) for i, (a, b) in enumerate(pairwise(path))]


# a_1: spawn r_0_0, then 9 moves through 9 distinct regions (one revisit) -> 9 regions
A1_PATH = ["r_0_0", "r_1_0", "r_2_0", "r_2_1", "r_1_1", "r_0_1", "r_0_2", "r_1_2", "r_2_2", "r_1_1"]
MATCH = [
    at(0, "match_manifest"),
    at(0, "agent_spawned", "a_1", region="r_0_0"),
    at(0, "agent_registered", "a_3", name="idle", role="player"),  # never placed: 0 regions
    *walk("a_1", A1_PATH),
    at(4, "agent_registered", "a_2", name="late", role="player", region="r_7_7"),  # joiner
    *walk("a_2", ["r_7_7", "r_7_8", "r_7_7"], first_tick=5),
]


def run(total: int = 144, archive: dict[str, Any] | None = None) -> Coverage:
    p = CoveragePass.for_archive(archive) if archive is not None else CoveragePass(total)
    replay(MATCH, {"startedAtTick": 0, "endedAtTick": 20}, [p])
    return p.result()


def test_nine_of_144_is_0_063() -> None:
    cov = run()
    assert cov.map_regions == 144
    assert cov.agents == (
        AgentCoverage("a_1", 9, 0.063, tuple(sorted(set(A1_PATH)))),
        AgentCoverage("a_2", 2, 0.014, ("r_7_7", "r_7_8")),  # spawn from agent_registered
        AgentCoverage("a_3", 0, 0.0, ()),
    )
    assert cov.exploration()["a_1"] == {"regions": 9, "coverage": 0.063}


def test_map_size_from_the_archive() -> None:
    cov = run(archive={"config": {"map": {"width": 8, "height": 10}}})
    assert cov.map_regions == 80
    assert cov.agents[0].coverage == 0.113  # 1000 * 9 / 80 = 112.5 exactly: a half rounds up
    assert run(archive={}).map_regions == 144
