"""CounterPass: the rubric's counters and the invalid-action rate, counted by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daishi_forensics.economy.counters import AgentCounters, CounterPass, Counters
from daishi_forensics.read.boundary import read_match
from daishi_forensics.replay import replay
from daishi_forensics.read.sources import open_match

from .matchkit import archive, ev, trade, write_match

_ids = iter(range(1, 1 << 30))


def at(tick: int, type_: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    return {"id": next(_ids), "tick": tick, "type": type_, "agentId": agent, "payload": payload}


T1 = {"tradeId": "t_1", "from": "a_1", "to": "a_2", "give": {"wood": 2}, "receive": {"food": 1}}
MATCH = [
    at(0, "match_manifest", seed=1),
    at(0, "agent_spawned", "a_1", region="r_0_0"),
    at(0, "agent_spawned", "a_2", region="r_0_0"),
    at(0, "agent_spawned", "a_3", region="r_5_5"),
    at(1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3),
    at(1, "gather", "a_1", region="r_0_0", resource="wood", gathered=1),
    at(1, "action_rejected", "a_1", tool="move", code="invalid_args"),
    at(2, "trade_offered", "a_1", tradeId="t_1", to="a_2", give={"wood": 2}, receive={"food": 1}),
    at(3, "trade_completed", "a_2", **T1),  # acceptor first
    at(3, "trade_completed", "a_1", **T1),  # the offerer's own event
    at(4, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
    at(4, "action_rejected", "a_1", tool="gather", code="not_here"),
    at(5, "trade_fulfilled", "a_1", tradeId="m_1", **{"from": "a_1", "to": "a_9"}, give={"ore": 1}, receive={}),
    at(5, "message", "a_1", text="hi", sha256="0" * 64, channel="broadcast"),
    at(5, "message_private", "a_1", to="a_2", text="psst", sha256="0" * 64),
    at(6, "inference_usage", "a_1", **{"gen_ai.request.model": "m", "gen_ai.usage.input_tokens": 1,
                                      "gen_ai.usage.output_tokens": 1}),
    at(6, "agent_snapshot", "a_1", region="r_0_1", energy=5, wealth=10, inventoryHash="h"),
    at(6, "turn_forfeited", "a_1", reason="timeout"),
    at(7, "craft", "a_1", item="plank", quantity=1),
    at(7, "attack", "a_1", target="a_3", region="r_0_1", damage=1),
    at(7, "agent_dormant", "a_2", reason="idle"),
    at(8, "agent_awake", "a_2"),
    at(8, "agent_dormant", "a_2", reason="idle"),
    at(8, "build", "a_2", structure="shelter", structureId="s_1", region="r_0_0"),
    at(8, "repair", "a_2", structureId="s_1", hp=100),
    at(8, "train", "a_2", attribute="strength", level=1),
    at(9, "raid", "a_2", target="a_3", structureId="s_9", region="r_0_0"),
    at(9, "action_rejected", "a_2", tool="craft", code="insufficient_energy"),
    at(9, "look", "a_2", target="r_0_0"),
    at(9, "rest", "a_2"),
    at(9, "agent_snapshot", "a_3", region="r_5_5", energy=1, wealth=0, inventoryHash="h"),
    at(9, "region_collapsed", None, region="r_0_0", resource="wood"),
]


def run(events: list[dict[str, Any]] = MATCH) -> Counters:
    p = CounterPass()
    tl = replay(events, {"startedAtTick": 0, "endedAtTick": 10}, [p])
    assert tl.tick_regressions == 0
    return p.result()


def test_counters_exact() -> None:
    rows = {r.agent: r for r in run().agents}
    assert sorted(rows) == ["a_1", "a_2", "a_3"]  # world events count for nobody
    a1, a2, a3 = rows["a_1"], rows["a_2"], rows["a_3"]
    assert (a1.gathers, a1.crafts, a1.moves, a1.attacks, a1.completed_trades) == (2, 1, 1, 1, 2)
    assert a1.world_actions == 7  # 2 gathers + craft + move + 2 completed trades + attack
    assert a1.messages == 2 and a1.forfeits == 1 and a1.rejected == 2
    # actions: 2 gathers, offer, move, message, private message, craft, attack = 8
    # (its trade_completed as offerer and its trade_fulfilled are not actions)
    assert a1.actions == 8 and a1.invalid_action_rate == 2 / 10
    assert a1.rejections_by_code == {"invalid_args": 1, "not_here": 1}

    assert a2 == AgentCounters(
        agent="a_2", gathers=0, crafts=0, builds=1, repairs=1, moves=0, trains=1, attacks=0,
        raids=1, completed_trades=1, dormancy_episodes=2, recoveries=1, world_actions=5,
        messages=0, rejected=1, actions=7, invalid_action_rate=0.125, forfeits=0,
        by_type={"action_rejected": 1, "agent_awake": 1, "agent_dormant": 2, "agent_spawned": 1,
                 "build": 1, "look": 1, "raid": 1, "repair": 1, "rest": 1, "trade_completed": 1,
                 "train": 1},
        rejections_by_code={"insufficient_energy": 1},
    )
    assert (a3.actions, a3.rejected, a3.invalid_action_rate) == (0, 0, None)
    assert run().metrics()["a_3"] == {"agent_snapshot": 1, "agent_spawned": 1}


def test_trade_counts_for_both_parties_through_the_read_boundary(tmp_path: Path) -> None:
    """v2 logs a completed trade once (acceptor); the upcast offerer twin counts for the offerer."""
    events = [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        *trade(3, 1, "t_1", "a_1", "a_2", {"wood": 2}, {"food": 1}),
        ev(5, 2, "agent_dormant", "a_2", reason="idle"),
        ev(6, 3, "agent_awake", "a_2"),
    ]
    arch = archive(["a_1", "a_2"], ended=10)
    for version in (3, 2):
        read = read_match(open_match(str(write_match(tmp_path / f"v{version}", events, arch, version=version))))
        rows = {r.agent: r for r in run(list(read.events())).agents}
        assert rows["a_1"].completed_trades == rows["a_2"].completed_trades == 1
        assert (rows["a_1"].actions, rows["a_2"].actions) == (0, 1)  # accepting is a_2's call
        assert (rows["a_2"].dormancy_episodes, rows["a_2"].recoveries) == (1, 1)


def test_an_event_without_agent_id_counts_for_nobody_and_the_rest_still_count() -> None:
    """Events without the ``agentId`` key among others (a hand-driven log): each counts for nobody
    and the events after it are counted; a null id counts for nobody either."""
    events = [
        {"id": 1, "tick": 0, "type": "match_manifest", "payload": {}},
        at(0, "rest", "a_1"),
        {"id": 2, "tick": 0, "type": "region_collapsed", "payload": {"region": "r_0_0"}},
        {"id": 3, "tick": 1, "type": "region_collapsed", "payload": {"region": "r_0_1"}},
        at(1, "rest", "a_1"),
        at(1, "look", "a_2"),
        at(1, "region_collapsed", None, region="r_0_2"),
    ]
    counters = run(events)
    assert counters.metrics() == {"a_1": {"rest": 2}, "a_2": {"look": 1}}
