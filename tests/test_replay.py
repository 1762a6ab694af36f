"""The replay driver, World and Timeline on tiny hand-built matches with exact numbers,
and relabelling agents (a bijection) relabels every pass's results and changes no number."""

from __future__ import annotations

import random
from typing import Any

import pytest
from daishi_forensics.economy.contact import ContactPass
from daishi_forensics.economy.counters import CounterPass
from daishi_forensics.economy.coverage import CoveragePass
from daishi_forensics.replay import Timeline, World, replay
from daishi_forensics.economy.witnesses import WitnessPass

_ids = iter(range(1, 1 << 30))


def at(tick: int, type_: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    """A v3 event (ids increase in creation order)."""
    return {"id": next(_ids), "tick": tick, "type": type_, "agentId": agent, "payload": payload}


ARCHIVE = {"startedAtTick": 0, "endedAtTick": 12}


class Recorder:
    """Records what the driver shows a pass: spans closed and the world before each event."""

    def __init__(self, types: frozenset[str] | None = None) -> None:
        self.types = types
        self.spans: list[tuple[int, int]] = []
        self.seen: list[tuple[int, str, str | None]] = []
        self.occupants_at_close: list[tuple[int, int, dict[str, list[str]]]] = []

    def observe(self, ev: dict[str, Any], world: World) -> None:
        agent = ev.get("agentId")
        self.seen.append((world.tick, ev["type"], world.region_of(agent) if agent else None))

    def close_ticks(self, start: int, stop: int, world: World) -> None:
        self.spans.append((start, stop))
        self.occupants_at_close.append(
            (start, stop, {r: sorted(m) for r, m in sorted(world.occupancy().items())})
        )


def test_joiner_spawns_from_agent_registered() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(3, "agent_registered", "a_8", name="x", role="player"),  # no region: not placed
        at(5, "agent_registered", "a_9", name="y", role="player", region="r_3_3"),
        at(6, "move", "a_9", **{"from": "r_3_3", "to": "r_3_4"}),
    ]
    tl = replay(events, ARCHIVE, [])
    assert tl.region_at("a_9", 4) is None and not tl.alive_at("a_9", 4)
    assert tl.region_at("a_9", 5) == "r_3_3" and tl.alive_at("a_9", 5)
    assert tl.agents_at("r_3_3", 5) == frozenset({"a_9"})
    assert tl.region_at("a_9", 6) == "r_3_4"
    assert tl.agents_at("r_3_3", 6) == frozenset()
    assert tl.region_at("a_8", 10) is None and not tl.alive_at("a_8", 10)


def test_dead_agent_keeps_last_region_but_stands_nowhere() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_1_1"),
        at(0, "agent_spawned", "a_2", region="r_1_1"),
        at(7, "agent_died", "a_2", cause="combat", killer="a_1"),
        at(9, "look", "a_1", target="r_1_1"),
    ]
    rec = Recorder()
    tl = replay(events, ARCHIVE, [rec])
    assert tl.region_at("a_2", 9) == "r_1_1"  # kept for reporting
    assert not tl.alive_at("a_2", 7) and tl.alive_at("a_2", 6)
    assert tl.agents_at("r_1_1", 6) == frozenset({"a_1", "a_2"})
    assert tl.agents_at("r_1_1", 7) == frozenset({"a_1"})
    # the world the passes saw: after the death only a_1 stands in r_1_1
    assert rec.occupants_at_close == [
        (0, 7, {"r_1_1": ["a_1", "a_2"]}),
        (7, 9, {"r_1_1": ["a_1"]}),
        (9, 12, {"r_1_1": ["a_1"]}),
    ]


def test_a_living_agent_spawned_again_moves_there() -> None:
    # a spawn of an agent already alive is the move it amounts to: one region, the occupancies and the
    # crowded regions follow it, and where it stood earlier in the tick counts as visited
    world = World()
    for ev in (at(0, "agent_spawned", "a_1", region="r_0_0"), at(0, "agent_spawned", "a_2", region="r_0_0")):
        world.apply(ev)
    assert world.crowded_regions() == {"r_0_0"} and world.occupancy_version == 2
    world.tick = 4
    world.apply(at(4, "agent_spawned", "a_1", region="r_1_1"))
    world.apply(at(4, "agent_spawned", "a_1", region="r_2_2"))
    assert world.region_of("a_1") == "r_2_2" and world.is_alive("a_1")
    assert world.agents_in("r_0_0") == frozenset({"a_2"}) and world.agents_in("r_2_2") == frozenset({"a_1"})
    assert world.agents_in("r_1_1") == frozenset() and world.crowded_regions() == set()
    assert world.regions_visited("a_1") == frozenset({"r_0_0", "r_1_1", "r_2_2"})
    assert (world.occupancy_version, world.audience_version) == (4, 2)
    world.apply(at(4, "agent_spawned", "a_1", region="r_2_2"))  # where it stands: nothing changes
    assert world.occupancy_version == 4
    tl = replay([at(0, "agent_spawned", "a_1", region="r_0_0"), at(3, "agent_spawned", "a_1", region="r_1_0")],
                ARCHIVE, [])
    assert [tl.region_at("a_1", t) for t in (2, 3)] == ["r_0_0", "r_1_0"] and tl.alive_at("a_1", 3)


def test_end_of_tick_state_and_observe_before_apply() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(3, "move", "a_1", **{"from": "r_0_0", "to": "r_1_0"}),
        at(3, "move", "a_1", **{"from": "r_1_0", "to": "r_2_0"}),
    ]
    rec = Recorder(frozenset({"move"}))
    tl = replay(events, ARCHIVE, [rec])
    assert rec.seen == [(3, "move", "r_0_0"), (3, "move", "r_1_0")]  # before applying
    assert tl.region_at("a_1", 2) == "r_0_0"
    assert tl.region_at("a_1", 3) == "r_2_0"  # end-of-tick: the passing r_1_0 is gone
    assert tl.agents_at("r_1_0", 3) == frozenset()


def test_close_ticks_spans_cover_the_match_rounds_only() -> None:
    events = [
        at(0, "match_manifest"),
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(3, "rest", "a_1"),
        at(3, "rest", "a_1"),
        at(7, "rest", "a_1"),
        at(14, "rest", "a_1"),  # after endedAtTick: nothing past 12 is closed
    ]
    rec = Recorder()
    replay(events, {"startedAtTick": 2, "endedAtTick": 12}, [rec])
    assert rec.spans == [(2, 3), (3, 7), (7, 12)]
    rec2 = Recorder()
    replay(events[:5], {"startedAtTick": 0, "endedAtTick": 12}, [rec2])
    assert rec2.spans == [(0, 3), (3, 7), (7, 12)]
    rec3 = Recorder()  # first event after startedAtTick: the empty ticks are closed too
    replay(events[2:5], {"startedAtTick": 0, "endedAtTick": 8}, [rec3])
    assert rec3.spans == [(0, 3), (3, 7), (7, 8)]
    assert rec3.occupants_at_close[0] == (0, 3, {})


def test_dormancy_and_unknown_types() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(2, "agent_dormant", "a_1", reason="idle"),
        at(4, "mystery_event", "a_1", foo=1),
        at(5, "agent_awake", "a_1"),
    ]
    everything = Recorder()
    tl = replay(events, ARCHIVE, [everything])
    assert [s[1] for s in everything.seen] == [
        "agent_spawned", "agent_dormant", "mystery_event", "agent_awake"
    ]
    assert [tl.dormant_at("a_1", t) for t in range(7)] == [False, False, True, True, True, False, False]
    assert tl.agents_at("r_0_0", 3) == frozenset({"a_1"})  # dormant still stands there
    assert tl.events == 4 and tl.tick_regressions == 0


def test_typed_dispatch_and_tick_regression() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(5, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
        at(4, "move", "a_1", **{"from": "r_0_1", "to": "r_0_2"}),  # tick goes back
    ]
    moves = Recorder(frozenset({"move"}))
    tl = replay(events, ARCHIVE, [moves])
    assert [s[1] for s in moves.seen] == ["move", "move"]
    assert [s[0] for s in moves.seen] == [5, 5]  # applied at the current tick
    assert tl.tick_regressions == 1
    assert tl.region_at("a_1", 5) == "r_0_2"
    assert moves.spans == [(0, 5), (5, 12)]


def test_no_events_closes_the_whole_match() -> None:
    rec = Recorder()
    tl = replay([], {"startedAtTick": 0, "endedAtTick": 5}, [rec])
    assert rec.spans == [(0, 5)] and tl.agents == () and tl.events == 0


class Tallied:
    """A counting pass: sees moves one by one, and the replay's tally once, at the end."""

    types = frozenset({"move"})

    def __init__(self) -> None:
        self.moves = 0
        self.tallies: list[tuple[dict[str, dict[Any, int]], list[str], list[str]]] = []

    def observe(self, ev: dict[str, Any], world: World) -> None:
        self.moves += 1

    def counted(self, tally: Any, world: World) -> None:
        self.tallies.append(({t: dict(a) for t, a in tally.items()}, sorted(world.regions_visited("a_1")),
                             sorted(world.regions_visited("a_9"))))


def test_a_counting_pass_gets_every_event_by_type_and_agent_once_at_the_end() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(0, "agent_registered", "a_2", name="late"),  # no region: placed nowhere
        at(1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
        at(1, "move", "a_1", **{"from": "r_0_1", "to": "r_0_2"}),  # r_0_1 only within tick 1
        at(2, "region_collapsed", None, region="r_0_0", resource="wood"),
        at(3, "inference_usage", "a_2"),
    ]
    p, rec = Tallied(), Recorder()
    tl = replay(events, ARCHIVE, [p, rec])
    assert p.moves == 2 and len(rec.seen) == 6
    assert p.tallies == [({"agent_spawned": {"a_1": 1}, "agent_registered": {"a_2": 1}, "move": {"a_1": 2},
                           "region_collapsed": {None: 1}, "inference_usage": {"a_2": 1}},
                          ["r_0_0", "r_0_1", "r_0_2"], [])]
    assert tl.region_at("a_1", 1) == "r_0_2"  # the end-of-tick state is unchanged


def test_the_tally_holds_the_types_counting_passes_name() -> None:
    events = [
        at(0, "agent_spawned", "a_1", region="r_0_0"),
        at(1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
        at(2, "inference_usage", "a_1"),
        at(3, "mystery", "a_1"),  # a type no pass names
    ]
    named = Tallied()
    named.tallied = frozenset({"move", "mystery"})  # type: ignore[attr-defined]
    replay(events, ARCHIVE, [named])
    assert named.tallies[0][0] == {"move": {"a_1": 1}, "mystery": {"a_1": 1}}
    every, rec = Tallied(), Recorder(frozenset({"agent_spawned"}))
    replay(events, ARCHIVE, [named, every, rec])  # one pass counting every type: all are counted
    assert every.tallies[0][0] == {"agent_spawned": {"a_1": 1}, "move": {"a_1": 1}, "inference_usage": {"a_1": 1},
                                   "mystery": {"a_1": 1}}
    assert named.tallies[1][0] == every.tallies[0][0] and [s[1] for s in rec.seen] == ["agent_spawned"]


def test_counting_passes_satisfy_the_protocol() -> None:
    from daishi_forensics.replay import CountingPass

    assert isinstance(Tallied(), CountingPass) and isinstance(CounterPass(), CountingPass)
    assert isinstance(CoveragePass(9), CountingPass) and not isinstance(Recorder(), CountingPass)


# -- relabelling property ---------------------------------------------------------

AGENT_FIELDS = ("to", "from", "target", "killer")


def random_match(seed: int, n_agents: int = 7, ticks: int = 40) -> list[dict[str, Any]]:
    """A small random but legal-enough match: moves, messages, aggression, dormancy, deaths, trades."""
    rng = random.Random(seed)
    agents = [f"a_{i}" for i in range(n_agents)]
    region = {a: f"r_{rng.randrange(3)}_{rng.randrange(3)}" for a in agents}
    events: list[dict[str, Any]] = []
    eid = 0

    def add(tick: int, type_: str, agent: str | None, **payload: Any) -> None:
        nonlocal eid
        eid += 1
        events.append({"id": eid, "tick": tick, "type": type_, "agentId": agent, "payload": payload})

    for a in agents[:-1]:
        add(0, "agent_spawned", a, region=region[a])
    alive = set(agents[:-1])
    dormant: set[str] = set()
    for t in range(1, ticks):
        if t == 5:
            add(t, "agent_registered", agents[-1], name="late", role="player", region=region[agents[-1]])
            alive.add(agents[-1])
        for _ in range(rng.randrange(6)):
            a = rng.choice(sorted(alive))
            k = rng.random()
            others = sorted(alive - {a})
            if k < 0.3:
                x, y = (int(v) for v in region[a][2:].split("_"))
                to = f"r_{max(0, min(2, x + rng.choice((-1, 0, 1))))}_{max(0, min(2, y + rng.choice((-1, 0, 1))))}"
                add(t, "move", a, **{"from": region[a], "to": to})
                region[a] = to
            elif k < 0.45:
                add(t, "message", a, text="hi", sha256="0" * 64, channel=rng.choice(("broadcast", "local")))
            elif k < 0.55 and others:
                add(t, "message_private", a, to=rng.choice(others), text="psst", sha256="0" * 64)
            elif k < 0.7 and others:
                victim = rng.choice(others)
                typ = rng.choice(("attack", "raid", "theft"))
                present = sorted(
                    b for b in alive - dormant - {a, victim} if region[b] == region[a]
                )
                extra: dict[str, Any] = {}
                if rng.random() < 0.7:
                    extra["witnessed"] = bool(present)
                    if rng.random() < 0.5:
                        extra["witnesses"] = present[:1]
                add(t, typ, a, target=victim, region=region[a], **extra)
            elif k < 0.8 and others:
                b = rng.choice(others)
                tid = f"t_{t}_{a}"
                add(t, "trade_completed", b, tradeId=tid, **{"from": a, "to": b}, give={"wood": 1}, receive={})
                add(t, "trade_completed", a, tradeId=tid, **{"from": a, "to": b}, give={"wood": 1}, receive={})
            elif k < 0.86:
                if a in dormant:
                    add(t, "agent_awake", a)
                    dormant.discard(a)
                else:
                    add(t, "agent_dormant", a, reason="idle")
                    dormant.add(a)
            elif k < 0.9:
                add(t, "action_rejected", a, tool="move", code="invalid_args")
            elif k < 0.92 and len(alive) > 3:
                add(t, "agent_died", a, cause="combat", killer=rng.choice(others))
                alive.discard(a)
                dormant.discard(a)
            else:
                add(t, "gather", a, region=region[a], resource="wood", gathered=2)
    return events


def relabel_events(events: list[dict[str, Any]], m: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for ev in events:
        p = dict(ev["payload"])
        for f in AGENT_FIELDS:
            if p.get(f) in m:
                p[f] = m[p[f]]
        if "witnesses" in p:
            p["witnesses"] = [m[w] for w in p["witnesses"]]
        agent = ev["agentId"]
        out.append({**ev, "agentId": m.get(agent, agent), "payload": p})
    return out


def run_all(events: list[dict[str, Any]]) -> tuple[Timeline, Any, Any, Any, Any]:
    passes = (ContactPass(), WitnessPass(), CoveragePass(9), CounterPass())
    tl = replay(events, {"startedAtTick": 0, "endedAtTick": 45}, passes)
    return (tl, *(p.result() for p in passes))  # type: ignore[return-value]


def contact_facts(contact: Any, m: dict[str, str]) -> dict[Any, Any]:
    """Direction-aware, order-free facts, with agents mapped through ``m``."""
    facts: dict[Any, Any] = {}
    for p in contact.pairs:
        a, b = m.get(p.a, p.a), m.get(p.b, p.b)
        facts[("together", frozenset((a, b)))] = (p.ticks_together, p.first_contact_tick)
        for kind in ("direct", "broadcast", "local"):
            facts[(kind, a, b)] = getattr(p, f"{kind}_ab")
            facts[(kind, b, a)] = getattr(p, f"{kind}_ba")
    return facts


@pytest.mark.parametrize("seed", range(6))
def test_relabelling_agents_relabels_results(seed: int) -> None:
    events = random_match(seed)
    agents = sorted({e["agentId"] for e in events if e["agentId"]})
    rng = random.Random(1000 + seed)
    shuffled = agents[:]
    rng.shuffle(shuffled)
    m = {a: f"b_{rng.randrange(10**6):06d}_{i}" for i, a in enumerate(shuffled)}  # order changes too
    tl1, contact1, wit1, cov1, cnt1 = run_all(events)
    tl2, contact2, wit2, cov2, cnt2 = run_all(relabel_events(events, m))

    assert contact_facts(contact1, m) == contact_facts(contact2, {})
    assert sum(p.ticks_together for p in contact1.pairs) > 0

    rows2 = {r.agent: r for r in wit2.agents}
    for r in wit1.agents:
        assert r.to_json() | {"agent": m[r.agent]} == rows2[m[r.agent]].to_json()
    for a1, a2 in zip(wit1.acts, wit2.acts, strict=True):
        assert tuple(sorted(m[w] for w in a1.potential_witnesses)) == a2.potential_witnesses
        assert (a1.unseen, a1.witness_mismatch) == (a2.unseen, a2.witness_mismatch)

    cov2_rows = {r.agent: r for r in cov2.agents}
    for r in cov1.agents:
        assert (r.regions, r.coverage, r.visited) == (
            cov2_rows[m[r.agent]].regions, cov2_rows[m[r.agent]].coverage, cov2_rows[m[r.agent]].visited
        )
    cnt2_rows = {r.agent: r for r in cnt2.agents}
    for r in cnt1.agents:
        assert r.to_json() | {"agent": m[r.agent]} == cnt2_rows[m[r.agent]].to_json()

    for a in agents:
        for t in range(45):
            assert tl1.region_at(a, t) == tl2.region_at(m[a], t)
            assert tl1.alive_at(a, t) == tl2.alive_at(m[a], t)
            assert tl1.dormant_at(a, t) == tl2.dormant_at(m[a], t)
    for r in {f"r_{x}_{y}" for x in range(3) for y in range(3)}:
        for t in range(0, 45, 4):
            assert frozenset(m[a] for a in tl1.agents_at(r, t)) == tl2.agents_at(r, t)


def test_timeline_agrees_with_the_world_at_every_tick_boundary() -> None:
    """What close_ticks saw (live world) is what the Timeline answers afterwards."""
    events = random_match(42)
    rec = Recorder()
    tl = replay(events, {"startedAtTick": 0, "endedAtTick": 45}, [rec])
    for start, stop, occ in rec.occupants_at_close:
        for t in (start, stop - 1):
            for region, members in occ.items():
                assert sorted(tl.agents_at(region, t)) == members


# -- exported API and docstring examples ------------------------------------------

def test_exported_api_is_pinned() -> None:
    import daishi_forensics.economy.contact as contact
    import daishi_forensics.economy.counters as counters
    import daishi_forensics.economy.coverage as coverage
    import daishi_forensics.economy.witnesses as witnesses
    import daishi_forensics.replay as replay_mod

    # the storage names: plain fixed-width columns (trade ids are plain dicts and sets, no class)
    assert replay_mod.__all__ == [
        "Catalogue", "CountingPass", "Event", "MatchAnalysis", "Pass", "PassFactory", "PassSpec", "RecordLog", "Rows",
        "ShapeTable", "Table", "Tally", "TickClosingPass", "Timeline", "World", "analyze", "analyze_target", "code_column",
        "int_column", "lazy", "paused_cycle_collection", "position", "replay",
    ]
    assert contact.__all__ == ["hearers", "PairContact", "Contact", "ContactPass"]
    assert witnesses.__all__ == [
        "AGGRESSIVE_TYPES", "AggressiveAct", "AgentWitnessing", "Witnesses", "WitnessPass",
        "potential_witnesses",
    ]
    assert coverage.__all__ == ["AgentCoverage", "Coverage", "CoveragePass"]
    assert counters.__all__ == [
        "ACTION_TYPES", "WORLD_ACTION_TYPES", "AgentCounters", "Counters", "CounterPass"
    ]
    for module in (contact, counters, coverage, replay_mod, witnesses):
        for name in module.__all__:
            assert hasattr(module, name), (module.__name__, name)


def test_docstring_examples() -> None:
    import doctest

    import daishi_forensics.economy.contact as contact
    import daishi_forensics.economy.coverage as coverage
    import daishi_forensics.replay.driver as replay_mod

    for module in (replay_mod, contact, coverage):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_passes_satisfy_the_protocol() -> None:
    from daishi_forensics.replay import Pass, TickClosingPass

    for p in (ContactPass(), WitnessPass(), CoveragePass(144), CounterPass()):
        assert isinstance(p, Pass)
    assert isinstance(ContactPass(), TickClosingPass)
    assert not isinstance(CounterPass(), TickClosingPass)
