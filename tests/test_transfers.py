"""The Daishi adapter: a match's transfer graph (forensics/transfers.py), hand-built matches.

Default item values (contract §4): wood 2, stone 3, ore 5, food 2, fiber 1, plank 5, tool 12, cloth 6.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from daishi_forensics.report.passes import analyze_target
from daishi_forensics.screens import ScreenInputError, net_transfer_graph
from daishi_forensics.report.screening import match_graph
from daishi_forensics.screens.graph import TransferView
from daishi_forensics.economy.transfers import season_graph, transfer_graph, transfer_view

from .matchkit import MATCH_ID, archive, ev, trade, write_match


def fill(first_id: int, tick: int, trade_id: str, giver: str, taker: str,
         give: dict[str, int], receive: dict[str, int]) -> list[dict[str, Any]]:
    payload = {"tradeId": trade_id, "from": giver, "to": taker, "give": give, "receive": receive}
    return [ev(first_id, tick, "trade_fulfilled", taker, **payload),
            ev(first_id + 1, tick, "trade_fulfilled", giver, **dict(payload))]


EVENTS = [
    ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
    ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
    ev(3, 0, "agent_spawned", "a_3", region="r_1_1"),
    *trade(4, 1, "t1", "a_1", "a_2", {"wood": 3}, {"food": 3}),  # a fair trade
    *trade(6, 2, "t2", "a_2", "a_3", {"stone": 2}, {}),  # a gift
    ev(8, 3, "raid", "a_1", target="a_2", structureId="s_1", region="r_0_0", stolen={"ore": 1}, witnessed=True,
       witnesses=["a_2"]),
    ev(9, 4, "theft", "a_3", target="a_1", region="r_1_1", stolen={"food": 1}, witnessed=False, witnesses=[]),
    ev(10, 4, "attack", "a_2", target="a_1", region="r_0_0", damage=3, witnessed=False, witnesses=[]),
    *trade(11, 5, "t3", "a_1", "a_9", {"gem": 1}, {"wood": 1}),  # a_9 is not in the archive; gem has no value
    *fill(13, 6, "t4", "a_2", "a_3", {"plank": 1}, {"wood": 2}),  # a filled market order
]


def edges(g: nx.MultiDiGraph) -> list[tuple[Any, ...]]:
    return sorted(
        ((u, v, d["kind"], d["value"], d["events"], d.get("present")) for u, v, d in g.edges(data=True)),
        key=repr,
    )


def graph_of(tmp_path: Path, events: list[dict[str, Any]], **arch: Any) -> nx.MultiDiGraph:
    agents = arch.pop("agents", ["a_1", "a_2", "a_3"])
    path = write_match(tmp_path, events, archive(agents, ended=10, **arch))
    return match_graph(analyze_target(str(path)))


def test_every_transfer_becomes_an_edge_valued_at_the_item_values(tmp_path: Path) -> None:
    g = graph_of(tmp_path, EVENTS)
    assert edges(g) == sorted([
        ("a_1", "a_2", "trade", 6.0, (4, 5), None),
        ("a_2", "a_1", "trade", 6.0, (4, 5), None),
        ("a_2", "a_3", "gift", 6.0, (6, 7), None),
        ("a_2", "a_1", "raid", 5.0, (8,), ("a_2",)),  # victim -> raider; a_2 stood within reach
        ("a_1", "a_3", "theft", 2.0, (9,), ()),  # nobody else in r_1_1
        ("a_1", "a_2", "attack", 0.0, (10,), ("a_1",)),  # victim -> attacker, no goods
        ("a_1", "a_9", "trade", None, (11, 12), None),  # gem: value unknown
        ("a_9", "a_1", "trade", 2.0, (11, 12), None),
        ("a_2", "a_3", "market", 5.0, (13, 14), None),
        ("a_3", "a_2", "market", 4.0, (13, 14), None),
    ], key=repr)
    trade_leg = next(d for u, v, d in g.edges(data=True) if d["events"] == (4, 5) and u == "a_1")
    assert trade_leg["goods"] == {"wood": 6.0} and trade_leg["exchange"] == "trade:t1" and trade_leg["tick"] == 1


def test_graph_attributes_and_notes(tmp_path: Path) -> None:
    g = graph_of(tmp_path, EVENTS)
    assert g.graph["name"] == MATCH_ID and g.graph["ticks"] == 10
    assert g.graph["contact"] == {("a_1", "a_2"): 10}
    assert g.graph["not_screened"] == [
        ("agents not in the archive: a_9 (screened from their events; their operator and role are what the log "
         "says, if anything)"),
        ("not screened: the archive has no value for item 'gem' (events 11, 12); transfers holding it are left "
         "out of the value screens"),
        "item values: the archive has none; the export format's defaults were used",
    ]


def test_seats_carry_operator_model_role_and_registration(tmp_path: Path) -> None:
    manifest = ev(1, 0, "match_manifest", None, seed=1, engineVersion="0.5.2", eventSchemaVersion=3,
                  config={"ranked": True},
                  roster=[{"agentId": "a_1", "seat": 1, "name": "A", "role": "player", "operator": "op",
                           "model": {"model": "m-1", "provider": "p", "scaffold": {"name": "s", "version": "1"}}},
                          {"agentId": "a_2", "seat": 2, "name": "B", "role": "probe", "operator": "daishi"}])
    events = [manifest, *[{**e, "id": e["id"] + 100} for e in EVENTS[:5]]]
    g = graph_of(tmp_path, events, agents=["a_1", "a_2"])
    assert g.graph["ranked"] is True
    assert {k: g.nodes["a_1"][k] for k in ("operator", "model", "role", "registration")} == {
        "operator": "op", "model": "m-1", "role": "player", "registration": (1,)}
    assert g.nodes["a_2"]["role"] == "player"  # the archive's word wins over the manifest's


def test_net_transfer_graph_of_a_match(tmp_path: Path) -> None:
    net = net_transfer_graph(graph_of(tmp_path, EVENTS[:7]))
    assert sorted((u, v, d["value"], d["events"]) for u, v, d in net.edges(data=True)) == [
        ("a_1", "a_2", 0.0, [4, 5]),
        ("a_2", "a_3", 6.0, [6, 7]),
    ]


def test_season_graph_by_agent_and_by_operator() -> None:
    one = transfer_graph({"matchId": "m_1", "agents": [{"agentId": "x", "operator": "o1"},
                                                       {"agentId": "y", "operator": "o2"}]},
                         [{"tradeId": "t", "tick": 3, "from": "x", "to": "y", "give": {"wood": 1}, "receive": {},
                           "event_ids": (7, 8)}])
    two = transfer_graph({"matchId": "m_2", "agents": [{"agentId": "z", "operator": "o1"},
                                                       {"agentId": "w", "operator": "o2"}]},
                         [{"tradeId": "t", "tick": 1, "from": "w", "to": "z", "give": {"wood": 2}, "receive": {},
                           "event_ids": (5, 6)}])
    by_agent = season_graph([one, two], "agent")
    assert sorted(by_agent.nodes) == ["w", "x", "y", "z"]
    by_op = season_graph([one, two], "operator")
    assert sorted((u, v, d["value"], d["event"], d["tick"]) for u, v, d in by_op.edges(data=True)) == [
        ("o1", "o2", 2.0, "m_1#7", 3.0),
        ("o2", "o1", 4.0, "m_2#5", 1_000_000_001.0),
    ]


def view_state(view: TransferView) -> str:
    """Everything a view holds, in order (its exchanges' and acts' fields included, and the transfers the
    money-laundering typologies read, leg by leg and each trade as one: every one by its nodes, tick, value and
    event, in order)."""
    from daishi_forensics.screens.fans import arrays_of

    typologies = [(arrays.nodes, arrays.src.tolist(), arrays.dst.tolist(), arrays.tick.tolist(),
                   arrays.value.tolist(), arrays.event, arrays.dated)
                  for arrays in (arrays_of(view), arrays_of(view, {"net_trades": True}))]
    return repr((view.nodes, sorted(view.exempt), [(k, p) for k, p in view.pairs.items()], view.acts,
                 view.exchanges, view.scale, view.contact, view.ticks, sorted(map(repr, view.unvalued_events)),
                 typologies))


def test_transfer_view_is_the_view_of_the_transfer_graph(tmp_path: Path) -> None:
    from daishi_forensics.report.screening import _match_inputs

    analysis = analyze_target(str(write_match(tmp_path, EVENTS, archive(["a_1", "a_2", "a_3"], ended=10))))
    inputs, _ = _match_inputs(analysis)
    assert view_state(transfer_view(**inputs)) == view_state(TransferView(transfer_graph(**inputs)))
    assert transfer_view(**inputs).graph.graph == transfer_graph(**inputs).graph


@pytest.mark.parametrize("scenario, seed", [("mixed", 1), ("ring", 2), ("cartel", 3), ("clean", 4)])
def test_screening_a_match_reads_what_screening_its_graph_reads(tmp_path: Path, scenario: str, seed: int) -> None:
    from daishi_forensics.screens import screen_graph
    from daishi_forensics.report.screening import screen_match
    from daishi_forensics.report.screening import _match_inputs
    from daishi_forensics.simulate import simulate_match
    from daishi_forensics.simulate import write_match as write_simulated

    analysis = analyze_target(str(write_simulated(simulate_match(scenario, seed), tmp_path)))
    inputs, _ = _match_inputs(analysis)
    assert view_state(transfer_view(**inputs)) == view_state(TransferView(transfer_graph(**inputs)))
    assert screen_match(analysis).to_dict() == screen_graph(match_graph(analysis)).to_dict()


def _counted_by_hand(graph: nx.MultiDiGraph, exempt: frozenset[Any]) -> tuple[int, int]:
    """The typologies' transfers of a match graph counted from its edges, apart from the screens' code: every edge
    of value above 0 between two screened seats; and the same with each trade (an exchange with valued legs both
    ways and none unvalued) one transfer, none when fair (the larger side at most twice the smaller)."""
    legs = 0
    single = 0
    sides: dict[tuple[Any, frozenset[Any]], dict[Any, float]] = {}
    rows: dict[tuple[Any, frozenset[Any]], int] = {}
    unknown: set[tuple[Any, frozenset[Any]]] = set()
    for u, v, d in graph.edges(data=True):
        trade = d.get("kind", "trade") not in ("raid", "theft", "take", "attack")
        key = (d.get("exchange", d["event"]), frozenset((u, v)))
        if d["value"] is None:
            unknown.add(key)
            continue
        if u == v or u in exempt or v in exempt or d["value"] <= 0:
            continue
        legs += 1
        if trade:
            gave = sides.setdefault(key, {})
            gave[u] = gave.get(u, 0.0) + d["value"]
            rows[key] = rows.get(key, 0) + 1
        else:
            single += 1
    for key, gave in sides.items():
        if len(gave) < 2 or key in unknown:
            single += rows[key]
        elif max(gave.values()) > 2 * min(gave.values()):
            single += 1
    return legs, single


def test_behavior_s_screens_read_the_transfers_the_typologies_read_as_screen_does(tmp_path: Path) -> None:
    """The behavior report screens a match through :func:`transfer_view`, which reads the flows without storing
    each transfer in the graph; the typologies read their transfers off the graph's edges, so there they read
    none, and a match the ``screen`` command flags came back clear.  An honest match of 32 seats and 600 rounds
    where a seat fills market orders (four fair trades of 18 each way with four partners, ticks 568 to 596):
    read leg by leg (configuration 2.23.0's reading), its partners' legs are a fan-in and its own a fan-out, a
    gather-scatter, and the two ways see the same 1,840 transfers and flag it alike; each trade read as one (as
    shipped), the 234 transfers left are gifts, takes and unfair trades' net values, and both ways are clear."""
    from daishi_forensics.report.screening import _match_inputs, screen_match
    from daishi_forensics.screens import load_config, screen_graph
    from daishi_forensics.screens.fans import arrays_of
    from daishi_forensics.simulate import simulate_match
    from daishi_forensics.simulate import write_match as write_simulated

    analysis = analyze_target(str(write_simulated(
        simulate_match("clean", 150082, noise="medium", n_agents=32, ticks=600), tmp_path)))
    inputs, _ = _match_inputs(analysis)
    view, read = transfer_view(**inputs), TransferView(transfer_graph(**inputs))
    legs, trades = _counted_by_hand(transfer_graph(**inputs), read.exempt)
    assert arrays_of(view).size == arrays_of(read).size == legs == 1_840
    assert arrays_of(view, {"net_trades": True}).size == arrays_of(read, {"net_trades": True}).size == trades == 234
    legs = load_config({"general": {"net_trades": False}})
    by_match, by_graph = screen_match(analysis, legs), screen_graph(match_graph(analysis), legs)
    assert by_match.to_dict() == by_graph.to_dict()
    assert (by_match.verdict, [(f.kind, f.agents[0]) for f in by_match.flags]) == ("flag", [("gather_scatter",
                                                                                              "a_52f3")])
    shipped_match, shipped_graph = screen_match(analysis), screen_graph(match_graph(analysis))
    assert shipped_match.to_dict() == shipped_graph.to_dict()
    assert (shipped_match.verdict, shipped_match.flags) == ("clear", ())


def test_a_trade_with_a_leg_of_unknown_value_is_read_leg_by_leg() -> None:
    """Each trade read as one (``net_trades``): a fair trade moves nothing, an unfair one its net value from the
    side that gave more (at its first leg's tick, citing that side's leg), a gift as it is, and a trade with a
    leg of unknown value as its valued legs, since its sides cannot be weighed; the same through the graph."""
    import networkx as nx

    from daishi_forensics.screens.fans import arrays_of

    g = nx.MultiDiGraph()
    g.add_edge("a", "b", value=6.0, tick=1, event=1, exchange="t1", goods={"wood": 6.0})  # fair: nothing
    g.add_edge("b", "a", value=5.0, tick=1, event=2, exchange="t1", goods={"food": 5.0})
    g.add_edge("a", "c", value=12.0, tick=2, event=3, exchange="t2", goods={"tool": 12.0})  # 12 for 2: 10 net
    g.add_edge("c", "a", value=2.0, tick=3, event=4, exchange="t2", goods={"wood": 2.0})
    g.add_edge("b", "c", value=7.0, tick=4, event=5, exchange="t3", goods={"stone": 7.0})  # unknown: as it is
    g.add_edge("c", "b", value=None, tick=4, event=6, exchange="t3", goods={"gem": 1.0})
    g.add_edge("c", "a", value=3.0, tick=5, event=7, kind="gift")  # a gift: as it is
    arrays = arrays_of(TransferView(g), {"net_trades": True})
    assert [(arrays.nodes[s], arrays.nodes[d], float(t), float(v), e) for s, d, t, v, e in
            zip(arrays.src, arrays.dst, arrays.tick, arrays.value, arrays.event)] == [
        ("a", "c", 2.0, 10.0, 3), ("b", "c", 4.0, 7.0, 5), ("c", "a", 5.0, 3.0, 7)]
    assert arrays_of(TransferView(g)).size == 6


def test_transfer_view_leaves_unusual_numbers_to_the_graph() -> None:
    arch = {"matchId": "m_1", "agents": [{"agentId": "x"}, {"agentId": "y"}, {"agentId": "z"}]}
    trades = [{"tradeId": 1, "tick": 4, "from": "y", "to": "z", "give": {"wood": 1}, "receive": {}, "event_ids": (3,)},
              {"tradeId": "1", "tick": 2, "from": "z", "to": "y", "give": {"gem": 1}, "receive": {"ore": 1},
               "event_ids": (4,)}]  # two trades read as one exchange ("trade:1"), one of unknown value
    assert view_state(transfer_view(arch, trades)) == view_state(TransferView(transfer_graph(arch, trades)))
    trades.append({"tradeId": "t1", "tick": 3.5, "from": "x", "to": "y", "give": {"wood": 1},
                   "receive": {"food": 2}, "event_ids": (1, 2)})  # a tick that is not a whole number
    assert view_state(transfer_view(arch, trades)) == view_state(TransferView(transfer_graph(arch, trades)))
    with pytest.raises(ScreenInputError, match="'tick' must be a finite number"):
        transfer_view(arch, [{**trades[0], "tick": float("nan")}])


def test_the_pass_keeps_a_fill_not_its_payload() -> None:
    from daishi_forensics.economy.transfers import TransfersPass

    tp = TransfersPass()
    payload = {"tradeId": "t9", "from": "a", "to": "b", "give": {"wood": 2, "bad": True}, "receive": {"food": 1},
               "note": "x" * 1000}
    for eid in (5, 6, 6):
        tp.observe({"id": eid, "tick": 2, "type": "trade_fulfilled", "agentId": "a", "payload": payload}, None)
    [fill] = tp.result().fills
    assert (fill.trade_id, fill.tick, fill.from_agent, fill.to_agent, fill.give, fill.receive, fill.event_ids) == \
        ("t9", 2, "a", "b", {"wood": 2}, {"food": 1}, (5, 6))
    assert all(payload is not kept for kept in tp._fills["t9"])


def test_docstring_examples() -> None:
    import doctest

    import daishi_forensics.economy.transfers as module

    failed, attempted = doctest.testmod(module)
    assert attempted and not failed
