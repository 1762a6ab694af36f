"""WitnessPass on a hand-built match; numbers counted by hand.

    tick 0  a_1, a_2, a_3, a_5 spawn in r_0_0; a_4, a_6 in r_2_2
    tick 1  a_5 goes dormant (a bystander who sees nothing)
    tick 2  a_4 attacks a_6 in r_2_2: nobody else there -> unseen (log: witnessed false, [])
    tick 3  a_1 attacks a_2 in r_0_0: potential witness a_3 (a_5 dormant) -> log agrees
    tick 4  a_1 steals from a_3: potential a_2; log lists a_2 and a_5 -> a_5 is not a potential witness
    tick 5  a_3 raids a_6's storehouse in r_0_0: potential a_1, a_2; no witnessed flag (v1-like)
    tick 6  a_4 attacks a_6 in r_2_2: log says witnessed, nobody there -> flag mismatch
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daishi_forensics.read.boundary import read_match
from daishi_forensics.replay import replay
from daishi_forensics.read.sources import open_match
from daishi_forensics.economy.witnesses import AgentWitnessing, Witnesses, WitnessPass

from .matchkit import archive, ev, write_match

_ids = iter(range(1, 1 << 30))


def at(tick: int, type_: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    return {"id": next(_ids), "tick": tick, "type": type_, "agentId": agent, "payload": payload}


MATCH = [
    at(0, "agent_spawned", "a_1", region="r_0_0"),
    at(0, "agent_spawned", "a_2", region="r_0_0"),
    at(0, "agent_spawned", "a_3", region="r_0_0"),
    at(0, "agent_spawned", "a_5", region="r_0_0"),
    at(0, "agent_spawned", "a_4", region="r_2_2"),
    at(0, "agent_spawned", "a_6", region="r_2_2"),
    at(1, "agent_dormant", "a_5", reason="idle"),
    at(2, "attack", "a_4", target="a_6", region="r_2_2", damage=3, witnessed=False, witnesses=[]),
    at(3, "attack", "a_1", target="a_2", region="r_0_0", damage=2, witnessed=True, witnesses=["a_3"]),
    at(4, "theft", "a_1", target="a_3", region="r_0_0", stolen={"wood": 1}, witnessed=True,
      witnesses=["a_5", "a_2"]),
    at(5, "raid", "a_3", target="a_6", structureId="s_1", region="r_0_0", stolen={"ore": 2}),
    at(6, "attack", "a_4", target="a_6", region="r_2_2", damage=1, witnessed=True),
]
IDS = [e["id"] for e in MATCH]
A4_UNSEEN, A1_ATTACK, A1_THEFT, A3_RAID, A4_FLAGGED = IDS[7:12]


def run(events: list[dict[str, Any]] = MATCH) -> Witnesses:
    p = WitnessPass()
    replay(events, {"startedAtTick": 0, "endedAtTick": 10}, [p])
    return p.result()


def test_per_act_witnesses_and_mismatches() -> None:
    w = run()
    acts = {a.event_id: a for a in w.acts}
    assert [a.event_id for a in w.acts] == [A4_UNSEEN, A1_ATTACK, A1_THEFT, A3_RAID, A4_FLAGGED]
    unseen = acts[A4_UNSEEN]
    assert unseen.potential_witnesses == () and unseen.unseen and not unseen.witness_mismatch
    attack = acts[A1_ATTACK]  # dormant a_5 stands there but is no witness
    assert attack.potential_witnesses == ("a_3",) and not attack.witness_mismatch
    theft = acts[A1_THEFT]
    assert theft.potential_witnesses == ("a_2",)
    assert theft.logged_witnesses == ("a_2", "a_5")
    assert (theft.unlogged_potential, theft.logged_not_potential) == ((), ("a_5",))
    assert theft.witness_mismatch
    raid = acts[A3_RAID]  # the target of a raid is the structure owner (a_6, elsewhere anyway)
    assert raid.potential_witnesses == ("a_1", "a_2") and raid.logged_witnessed is None
    assert raid.logged_witnesses is None and not raid.witness_mismatch
    flagged = acts[A4_FLAGGED]
    assert flagged.flag_mismatch and flagged.logged_witnesses is None
    assert [a.event_id for a in w.mismatches] == [A1_THEFT, A4_FLAGGED]


def test_per_agent_exact() -> None:
    rows = {r.agent: r for r in run().agents}
    assert sorted(rows) == ["a_1", "a_2", "a_3", "a_4", "a_5", "a_6"]
    assert rows["a_1"] == AgentWitnessing(
        agent="a_1", acts=2, attacks=1, raids=0, thefts=1, with_potential_witness=2,
        marked_witnessed=2, unseen=0, stealth_rate=0.0, aggression=2, basis="witnessed-flag",
        act_ids=(A1_ATTACK, A1_THEFT), potential_witness_ids=(A1_ATTACK, A1_THEFT),
        witnessed_ids=(A1_ATTACK, A1_THEFT), unseen_ids=(), aggression_ids=(A1_ATTACK, A1_THEFT),
    )
    assert rows["a_3"] == AgentWitnessing(
        agent="a_3", acts=1, attacks=0, raids=1, thefts=0, with_potential_witness=1,
        marked_witnessed=0, unseen=0, stealth_rate=0.0, aggression=1, basis="potential-witness",
        act_ids=(A3_RAID,), potential_witness_ids=(A3_RAID,), witnessed_ids=(), unseen_ids=(),
        aggression_ids=(A3_RAID,),
    )
    assert rows["a_4"] == AgentWitnessing(
        agent="a_4", acts=2, attacks=2, raids=0, thefts=0, with_potential_witness=0,
        marked_witnessed=1, unseen=2, stealth_rate=1.0, aggression=1, basis="witnessed-flag",
        act_ids=(A4_UNSEEN, A4_FLAGGED), potential_witness_ids=(), witnessed_ids=(A4_FLAGGED,),
        unseen_ids=(A4_UNSEEN, A4_FLAGGED), aggression_ids=(A4_FLAGGED,),
    )
    for quiet in ("a_2", "a_5", "a_6"):
        r = rows[quiet]
        assert (r.acts, r.stealth_rate, r.aggression, r.basis) == (0, None, 0, "none")


def test_mixed_basis_and_stealth_rate() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(0, "agent_spawned", "a_2", region="r_0_0"),
        at(0, "agent_spawned", "a_3", region="r_0_0"),
        at(1, "attack", "a_1", target="a_2", region="r_0_0", damage=1),  # no flag, a_3 around
        at(2, "move", "a_3", **{"from": "r_0_0", "to": "r_0_1"}),
        at(3, "attack", "a_1", target="a_2", region="r_0_0", damage=1, witnessed=False),
        at(4, "attack", "a_1", target="a_2", region="r_0_0", damage=1),  # no flag, nobody around
    ]
    r = run(events).agents[0]
    assert (r.acts, r.unseen, r.aggression, r.basis) == (3, 2, 1, "mixed")
    assert r.stealth_rate == 2 / 3
    assert r.aggression_ids == (events[3]["id"],)


def test_v1_log_through_the_read_boundary(tmp_path: Path) -> None:
    """A v1 log has no witnessed flag: the counter falls back to potential witnesses."""
    events = [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 0, "agent_spawned", "a_3", region="r_0_0"),
        ev(4, 1, "attack", "a_1", target="a_2", region="r_0_0", damage=1, witnessed=True, witnesses=["a_3"]),
        ev(5, 2, "agent_dormant", "a_3", reason="idle"),
        ev(6, 3, "theft", "a_1", target="a_2", region="r_0_0", stolen={"wood": 1}, witnessed=False,
           witnesses=[]),
    ]
    arch = archive(["a_1", "a_2", "a_3"], ended=10)
    for version, basis in ((3, "witnessed-flag"), (1, "potential-witness")):
        read = read_match(open_match(str(write_match(tmp_path / f"v{version}", events, arch, version=version))))
        p = WitnessPass()
        replay(read.events(), read.archive, [p])
        row = p.result().agents[0]
        assert (row.agent, row.acts, row.unseen, row.aggression, row.basis) == ("a_1", 2, 1, 1, basis)
