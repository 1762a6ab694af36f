"""The money-laundering typology screens on tiny hand-built transfer graphs.

Each graph has a background: forty accounts paying each other now and then over 400
ticks (``value`` and ``tick`` only), so the null built from the graph (its ticks and
amounts shuffled) has something to shuffle.  Then one pattern is planted by hand, and
the flags are asserted exactly.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from daishi_forensics.screens import Flag, screen_graph
from daishi_forensics.screens.fans import DEFAULTS as FAN_DEFAULTS
from daishi_forensics.screens import fans as fans_module
from daishi_forensics.screens.fans import arrays_of, fan_boxes, fans
from daishi_forensics.screens.graph import ScreenInputError, TransferView
from daishi_forensics.screens.scatter_gather import DEFAULTS as SG_DEFAULTS
from daishi_forensics.screens.scatter_gather import scatter_gather
from daishi_forensics.screens.transfer_arrays import poisson_tail, transfer_arrays
from daishi_forensics.screens.value_cycles import DEFAULTS as CYCLE_DEFAULTS
from daishi_forensics.screens.value_cycles import OwnAmounts, candidate_cycles, own_band_share, value_cycles
from daishi_forensics.simulate.transfers import TransferSettings, simulate_transfers

TYPOLOGY_SCREENS = ("fans", "scatter_gather", "value_cycles")


def background(n_edges: int = 400) -> nx.MultiDiGraph:
    """Forty accounts ``b0..b39`` paying each other over ``n_edges`` ticks, amounts 5..101."""
    g = nx.MultiDiGraph()
    for i in range(n_edges):
        g.add_edge(f"b{i % 40}", f"b{(i * 7 + 3) % 40}", value=5.0 + (i * 37) % 97, tick=i, event=f"n{i}")
    return g


def typology_flags(g: nx.MultiDiGraph) -> list[Flag]:
    return [f for f in screen_graph(g).flags if f.screen in TYPOLOGY_SCREENS]


LEVEL = 0.02 / 3
"""The level each typology screen tests at on these graphs: none of the Daishi screens' tests can
speak without goods or co-location, so the three typologies share the whole budget of 0.02."""


def test_the_typologies_share_the_whole_budget_where_no_daishi_test_can_speak() -> None:
    assert screen_graph(background()).testing["typologyRate"] == pytest.approx(LEVEL)


def add_cycle(g: nx.MultiDiGraph, members: list[str], start: int, gap: int, values: list[float]) -> None:
    for hop, value in enumerate(values):
        u, v = members[hop], members[(hop + 1) % len(members)]
        g.add_edge(u, v, value=value, tick=start + gap * hop, event=f"c{hop}")


CUT_10 = [1000.0, 900.0, 810.0, 729.0]


# -- value cycles ---------------------------------------------------------------------


@pytest.mark.parametrize("rotation", range(4))
def test_cycle_with_ten_percent_cut_found_whichever_account_pays_first(rotation: int) -> None:
    members = ["a", "b", "c", "d"]
    members = members[rotation:] + members[:rotation]
    g = background()
    add_cycle(g, members, 100, 2, CUT_10)
    flags = typology_flags(g)
    assert [(f.screen, f.kind, f.agents) for f in flags] == [("value_cycles", "value_cycle", tuple(members))]
    flag = flags[0]
    assert flag.evidence == ("c0", "c1", "c2", "c3")
    assert flag.details["cuts"] == [0.1, 0.1, 0.1]
    assert flag.details["ticks"] == [100.0, 102.0, 104.0, 106.0]
    assert flag.p_value is not None and flag.tests is not None and flag.null is not None
    assert flag.p_value <= LEVEL / flag.tests
    assert flag.score == pytest.approx(-math.log10(flag.p_value))
    assert flag.threshold == pytest.approx(-math.log10(LEVEL / flag.tests))


def test_cycle_p_value_is_the_hand_computed_chance() -> None:
    g = background()
    add_cycle(g, ["a", "b", "c", "d"], 100, 2, CUT_10)
    arrays = transfer_arrays(g)
    (flag,), _ = value_cycles(TransferView(g), CYCLE_DEFAULTS)
    # span 399 ticks; the cells: windows 399 x (0.005, 0.02236, 0.1) = 1.995, 8.92, 39.9 ticks; cuts 5% and 20%.
    # The gaps are 2 ticks and the cuts 10%: the tightest cell that holds it is (8.92 ticks, 20%).
    n = arrays.size  # 404 transfers
    window = 399 * 0.005 * (0.1 / 0.005) ** 0.5
    chance = 1.0
    for tick, value in [(100, 1000.0), (102, 900.0), (104, 810.0)]:
        in_window = sum(1 for _, _, d in g.edges(data=True) if tick <= d["tick"] <= tick + window)
        in_band = sum(1 for _, _, d in g.edges(data=True) if value * 0.8 <= d["value"] <= value)
        chance *= (in_window / n) * (in_band / n)
    assert flag.p_value == pytest.approx(chance * 6, rel=1e-9)


def test_cycle_with_random_amounts_is_not_found() -> None:
    g = background()
    add_cycle(g, ["a", "b", "c", "d"], 100, 2, [1000.0, 430.0, 2210.0, 75.0])
    assert typology_flags(g) == []


def test_cycle_spread_over_a_long_time_is_not_found() -> None:
    g = background()
    add_cycle(g, ["a", "b", "c", "d"], 20, 110, CUT_10)  # a hop every 110 ticks of 400
    assert typology_flags(g) == []


def test_cycle_whose_amounts_grow_is_not_a_cut() -> None:
    g = background()
    add_cycle(g, ["a", "b", "c", "d"], 100, 2, list(reversed(CUT_10)))
    assert typology_flags(g) == []


def test_candidate_cycles_counted_exactly() -> None:
    # a -> b -> c -> a twice over (two transfers on c -> a), plus d -> a, a -> d: one 3-cycle per
    # first transfer (4), and the 2-step back-and-forth a <-> d makes closed walks of 4 steps: a d a d... no,
    # closed walks of 4 steps: a->d->a->d->a (first step a->d or d->a: 2).
    g = nx.MultiDiGraph()
    for i, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a"), ("c", "a"), ("d", "a"), ("a", "d")]):
        g.add_edge(u, v, value=1.0, tick=i, event=i)
    assert candidate_cycles(transfer_arrays(g), 4) == {3: 4, 4: 2}


# -- fans -----------------------------------------------------------------------------------


def add_fan_in(g: nx.MultiDiGraph, hub: str, senders: int, ticks: list[int], value: float = 100.0) -> None:
    for i in range(senders):
        g.add_edge(f"m{i}", hub, value=value + i, tick=ticks[i % len(ticks)], event=f"f{i}")


def test_fan_in_of_eight_within_three_ticks_with_alike_amounts_found() -> None:
    g = background()
    add_fan_in(g, "hub", 8, [200, 201, 202])
    flags = typology_flags(g)
    assert [(f.kind, f.agents) for f in flags] == [("fan_in", ("hub", "m0", "m3", "m6", "m1", "m4", "m7", "m2", "m5"))]
    flag = flags[0]
    assert flag.evidence == tuple(f"f{i}" for i in range(8))
    assert flag.details["counterparties"] == 8
    assert flag.p_value is not None and flag.p_value <= LEVEL / flag.tests


def test_fan_in_p_value_is_the_poisson_tail() -> None:
    g = background()
    add_fan_in(g, "hub", 8, [200, 201, 202])
    for i in range(10):  # ten small one-off payments elsewhere, 40 ticks apart
        g.add_edge(f"o{i}", f"b{i}", value=10.0, tick=5 + 40 * i, event=f"o{i}")
    (flag,) = fans(TransferView(g), FAN_DEFAULTS)
    # The box starts at the first payment, m0's 100.0 at tick 200. The hub has 8 counterparties, one
    # transfer each: lambda = 7 x q_t x q_x, where q_t is the graph's share of ticks in the window (the
    # hub has no other dealings) and q_x the share of the graph's other one-off payments (a payer's only
    # payment to its payee; the box's 8 left out) with an amount in the band, shrunk towards the share of
    # all its payments with 10 pseudo-payments (the hub has no other transfers). Then P(X >= 7), times 8
    # anchors and 4 windows x 2 bands.
    window, ratio = flag.details["window"], flag.details["amountRatio"]
    edges = [d for _, _, d in g.edges(data=True)]
    q_t = sum(1 for d in edges if 200 <= d["tick"] <= 200 + window) / len(edges)
    q_all = sum(1 for d in edges if 100.0 / ratio <= d["value"] <= 100.0 * ratio) / len(edges)
    once = [d for u, v in set(g.edges()) if g.number_of_edges(u, v) == 1 for d in g.get_edge_data(u, v).values()]
    in_band = sum(1 for d in once if 100.0 / ratio <= d["value"] <= 100.0 * ratio)
    q_x = (in_band - 8 + 10 * q_all) / (len(once) - 8 + 10)
    assert (len(once), in_band, q_x) == (18, 8, pytest.approx(q_all / 2))
    lam = 7 * q_t * q_x
    tail = 1 - sum(math.exp(-lam) * lam ** j / math.factorial(j) for j in range(7))
    assert flag.details["expected"] == pytest.approx(lam, rel=1e-9)
    assert flag.details["rawP"] == pytest.approx(tail, rel=1e-6)
    assert flag.p_value == pytest.approx(tail * 8 * 8, rel=1e-6)


def test_merchant_at_one_price_with_many_customers_not_found() -> None:
    g = background()
    for i in range(40):  # forty one-off customers, ten ticks apart, all paying the one price
        g.add_edge(f"c{i}", "shop", value=20.0, tick=5 + 10 * i % 400, event=f"s{i}")
    assert typology_flags(g) == []


def test_honest_merchant_with_eight_payments_spread_over_the_period_not_found() -> None:
    g = background()
    add_fan_in(g, "shop", 8, [10, 60, 110, 160, 210, 260, 310, 360])
    assert typology_flags(g) == []


def test_payroll_paying_the_same_employees_every_period_not_found() -> None:
    g = background()
    for period, tick in enumerate(range(5, 400, 30)):
        for e in range(10):
            g.add_edge("employer", f"e{e}", value=300.0 + e, tick=tick, event=f"p{period}-{e}")
    assert typology_flags(g) == []


def test_fan_out_in_one_go_found() -> None:
    g = background()
    for i in range(6):
        g.add_edge("boss", f"mule{i}", value=250.0, tick=300, event=f"o{i}")
    assert [(f.kind, f.agents[0], len(f.agents)) for f in typology_flags(g)] == [("fan_out", "boss", 7)]


# -- scatter-gather -----------------------------------------------------------------------------


def test_scatter_gather_found_and_its_p_value() -> None:
    g = background()
    for i in range(4):
        g.add_edge("s", f"m{i}", value=100.0 + i, tick=200, event=f"a{i}")
        g.add_edge(f"m{i}", "d", value=(100.0 + i) * 0.95, tick=201, event=f"b{i}")
    flags, _ = scatter_gather(TransferView(g), SG_DEFAULTS)
    assert [(f.kind, f.agents) for f in flags] == [("scatter_gather", ("s", "d", "m0", "m1", "m2", "m3"))]
    (flag,) = flags
    arrays = transfer_arrays(g)
    window = 0.1 * arrays.span
    lam = 0.0
    for i in range(4):
        x = 100.0 + i
        q_t = float(arrays.tick_mass(200, 200 + window))
        q_x = float(arrays.value_mass(x * 0.8, x))
        lam += q_t * q_x
    assert flag.details["expected"] == pytest.approx(lam)
    assert flag.p_value == pytest.approx(float(poisson_tail(4, lam)))
    assert flag.evidence == ("a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3")


def test_scatter_gather_with_random_amounts_on_the_second_leg_not_found() -> None:
    g = background()
    for i, back in enumerate([10.0, 300.0, 55.0, 160.0]):
        g.add_edge("s", f"m{i}", value=100.0 + i, tick=200, event=f"a{i}")
        g.add_edge(f"m{i}", "d", value=back, tick=201, event=f"b{i}")
    # s paying four one-off counterparties at one tick is still a fan-out; no value was relayed to d
    assert [(f.kind, f.agents[0]) for f in typology_flags(g)] == [("fan_out", "s")]


# -- properties --------------------------------------------------------------------------------


def _with_everything() -> nx.MultiDiGraph:
    g = background()
    add_cycle(g, ["a", "b", "c", "d"], 100, 2, CUT_10)
    add_fan_in(g, "hub", 8, [200, 201, 202])
    return g


def test_relabelling_nodes_does_not_change_the_result() -> None:
    g = _with_everything()
    mapping = {n: f"x{i:03d}" for i, n in enumerate(sorted(g.nodes, reverse=True))}
    before = {(f.kind, frozenset(mapping[a] for a in f.agents), f.evidence, round(f.p_value or 0, 15), f.tests)
              for f in typology_flags(g)}
    after = {(f.kind, frozenset(f.agents), f.evidence, round(f.p_value or 0, 15), f.tests)
             for f in typology_flags(nx.relabel_nodes(g, mapping))}
    assert before == after and len(before) == 2


def test_p_values_deterministic_same_bytes_on_rerun() -> None:
    import orjson

    first = orjson.dumps(screen_graph(_with_everything()).to_dict())
    second = orjson.dumps(screen_graph(_with_everything()).to_dict())
    assert first == second
    doc = orjson.loads(first)
    cycle = next(f for f in doc["flags"] if f["kind"] == "value_cycle")
    assert {"pValue", "null", "tests"} <= set(cycle)


def test_flag_json_unchanged_without_p_value() -> None:
    flag = Flag("feeder", "hub_and_spoke", "flag", ("a", "b"), (("a", "b"),), 6.0, 5.0, (1,), "x")
    assert list(flag.to_dict()) == ["screen", "kind", "level", "agents", "pairs", "score", "threshold", "evidence",
                                    "explanation", "details"]
    tested = Flag("fans", "fan_in", "flag", ("a", "b"), (("a", "b"),), 6.0, 5.0, (1,), "x", p_value=1.25e-9,
                  null="shuffled", tests=12)
    assert tested.to_dict()["pValue"] == 1.25e-9 and tested.to_dict()["tests"] == 12
    assert tested.relabelled({"a": "z"}).p_value == 1.25e-9


def test_bad_tick_names_the_edge() -> None:
    g = nx.MultiDiGraph()
    g.add_edge("a", "b", value=1.0, tick="noon", event=1)
    with pytest.raises(ScreenInputError, match="'a' -> 'b': 'tick' must be a finite number"):
        transfer_arrays(g)


def test_no_typology_flag_on_background_alone() -> None:
    assert typology_flags(background()) == []


# -- generated graphs (scale) ------------------------------------------------------------------


def test_generator_is_deterministic_and_plants_every_typology() -> None:
    one = simulate_transfers(TransferSettings(accounts=400, seed=5))
    two = simulate_transfers(TransferSettings(accounts=400, seed=5))
    assert list(one.graph.edges(data=True)) == list(two.graph.edges(data=True))
    assert one.cases == two.cases
    assert {c.kind for c in one.cases} == {"fan_in", "fan_out", "scatter_gather", "gather_scatter", "cycle"}
    events = {d["event"] for _, _, d in one.graph.edges(data=True)}
    assert all(set(c.events) <= events for c in one.cases)


def test_generated_graph_typologies_found_and_honest_graph_quiet() -> None:
    sim = simulate_transfers(TransferSettings(accounts=1500, seed=101))
    flags = typology_flags(sim.graph)
    found = {a for f in flags for a in f.agents}
    truth = sim.laundering_nodes
    assert len(found & truth) / len(found) >= 0.95
    assert len(found & truth) / len(truth) >= 0.5
    honest = simulate_transfers(TransferSettings(accounts=1500, seed=101, cases_per_typology=0.0))
    assert typology_flags(honest.graph) == []


@pytest.mark.parametrize("module", ["daishi_forensics.screens.transfer_arrays", "daishi_forensics.screens.fans",
                                    "daishi_forensics.screens.scatter_gather",
                                    "daishi_forensics.screens.value_cycles",
                                    "daishi_forensics.simulate.transfers"])
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    failed, attempted = doctest.testmod(importlib.import_module(module))
    assert attempted and not failed


# -- honest settling-up: recurrence ------------------------------------------------------


def test_own_band_share_shrinks_a_payer_own_share_towards_the_graph() -> None:
    # 11 of 30 other payments in the band, graph share 0.02: (11 + 10 x 0.02) / (30 + 10) = 0.28
    assert float(own_band_share(11, 30, 0.02, 10.0)) == pytest.approx(0.28, rel=1e-12)
    # no other payment: the graph's share
    assert float(own_band_share(0, 0, 0.02, 10.0)) == 0.02


def test_own_amounts_count_the_payer_own_payments_in_a_band() -> None:
    g = nx.MultiDiGraph()
    for i, v in enumerate([100.0, 100.0, 50.0, 99.0]):
        g.add_edge("a", f"x{i}", value=v, tick=i, event=i)
    g.add_edge("b", "a", value=100.0, tick=9, event=9)
    arrays = transfer_arrays(g)
    a = arrays.nodes.index("a")
    # a's band [95, 100] holds 100, 100 and 99: leaving the hop out, 2 of its 3 others;
    # (2 + 10 x glob) / (3 + 10) with the graph's share glob = 4 / 5
    share = OwnAmounts(arrays, 10.0).share(np.array([a]), np.array([95.0]), np.array([100.0]), np.array([0.8]))
    assert float(share[0]) == 0.8
    share = OwnAmounts(arrays, 10.0).share(np.array([a]), np.array([95.0]), np.array([100.0]), np.array([0.0]))
    assert float(share[0]) == pytest.approx(2 / 13, rel=1e-12)


def test_a_savings_circle_passing_its_dues_round_every_month_is_not_a_value_cycle() -> None:
    g = background()
    members = ["c0", "c1", "c2", "c3"]
    for month in range(12):  # each month the others pay the taker 200, the taker changes by turns
        taker = members[month % 4]
        for m in members:
            if m != taker:
                g.add_edge(m, taker, value=200.0, tick=10 + 30 * month + 3, event=f"d{month}-{m}")
    assert [f for f in typology_flags(g) if f.kind == "value_cycle"] == []


def test_a_one_off_loop_of_the_same_sum_is_still_a_value_cycle() -> None:
    g = background()
    add_cycle(g, ["a", "b", "c", "d"], 100, 2, [1000.0, 1000.0, 1000.0, 1000.0])
    assert [(f.kind, f.agents) for f in typology_flags(g)] == [("value_cycle", ("a", "b", "c", "d"))]


def dinner_town(one_off: int) -> nx.MultiDiGraph:
    """The background, three hosts whose eight friends pay them back their share of a dinner on
    one evening, three times a year; and a host ``new`` paid back once by ``one_off`` one-off friends."""
    g = background()
    for h in range(3):
        for d in range(3):
            for f in range(8):
                g.add_edge(f"f{h}-{f}", f"host{h}", value=40.0 + f % 3, tick=30 + 120 * d + 40 * h, event=f"din{h}-{d}-{f}")
    for f in range(one_off):
        g.add_edge(f"g{f}", "new", value=40.0 + f % 3, tick=250, event=f"new{f}")
    return g


def test_a_one_off_dinner_no_bigger_than_the_graph_recurring_groups_is_not_a_fan() -> None:
    # the hosts' recurring groups are eight: a one-off group of eight is what friends do here (without
    # the recurring groups, eight one-off payers on one tick would be a fan: see the next test's twelve)
    assert [f for f in fans(TransferView(dinner_town(8)), FAN_DEFAULTS) if f.agents[0] == "new"] == []


ALONE = {**FAN_DEFAULTS, "stated_sums": 0}
"""The fan rules without *a stated sum*: the dinner town's friends pay three amounts (40, 41, 42), which that
rule would count once each; the group rules are tested on their own."""


def test_a_one_off_fan_bigger_than_the_graph_recurring_groups_is_still_found() -> None:
    (flag,) = [f for f in fans(TransferView(dinner_town(16)), ALONE) if f.agents[0] == "new"]
    assert (flag.kind, len(flag.agents) - 1, flag.details["explained"]) == ("fan_in", 16, 7)


def test_a_one_off_group_at_a_scale_where_nobody_pays_in_groups_is_a_fan() -> None:
    # the hosts' groups of eight pay 40 to 42 each; eight one-off payers of 600 to 602 each are of
    # another scale (more than a factor two away): no group of the graph explains any of them
    g = background()
    for h in range(3):
        for d in range(3):
            for f in range(8):
                g.add_edge(f"f{h}-{f}", f"host{h}", value=40.0 + f % 3, tick=30 + 120 * d + 40 * h, event=f"din{h}-{d}-{f}")
    for f in range(8):
        g.add_edge(f"g{f}", "new", value=600.0 + f % 3, tick=250, event=f"new{f}")
    (flag,) = [f for f in fans(TransferView(g), FAN_DEFAULTS) if f.agents[0] == "new"]
    assert (flag.kind, len(flag.agents) - 1, flag.details["explained"]) == ("fan_in", 8, 0)
    # at the hosts' scale the same eight are what friends do here (the test above with eight)
    assert [f for f in fans(TransferView(dinner_town(8)), FAN_DEFAULTS) if f.agents[0] == "new"] == []


def test_a_group_explains_only_members_paying_alike_shares() -> None:
    # eight one-off payers at the hosts' scale, but each paying 14% more than the one before (40 to 100):
    # no two within the tight band squared (1.1025) of each other, so no member pays a group's alike
    # share and the hosts' groups of eight explain none of them
    g = background()
    for h in range(3):
        for d in range(3):
            for f in range(8):
                g.add_edge(f"f{h}-{f}", f"host{h}", value=40.0 + f % 3, tick=30 + 120 * d + 40 * h, event=f"din{h}-{d}-{f}")
    for f in range(8):
        g.add_edge(f"g{f}", "new", value=round(40.0 * 1.14 ** f, 2), tick=250, event=f"new{f}")
    # within a factor two of the first (40 to 77.0): six of them in the box, none explained
    assert new_box(g) == (6, 2.0, 0)
    # the same eight paying 40 to 42, alike: a group of the graph's size, seven explained, one left: no box
    assert new_box(dinner_town(8)) is None


def test_tenants_paying_rents_of_one_scale_set_no_group_size_for_alike_shares() -> None:
    # three landlords' eight tenants pay together every time, each its own rent (40 to 78, ten per cent
    # apart): recurring, within a factor two of one another, but no two within the tight band. A group pays
    # alike shares, and its size is read where groups pay alike: these set none, and eight one-off payers
    # of 40 to 42 on one tick are a fan (the dinner town's hosts, whose friends pay alike, explain them)
    g = background()
    for h in range(3):
        for d in range(3):
            for f in range(8):
                g.add_edge(f"t{h}-{f}", f"landlord{h}", value=round(40.0 * 1.1 ** f, 2), tick=30 + 120 * d + 40 * h,
                           event=f"rent{h}-{d}-{f}")
    for f in range(8):
        g.add_edge(f"g{f}", "new", value=40.0 + f % 3, tick=250, event=f"new{f}")
    (flag,) = [f for f in fans(TransferView(g), ALONE) if f.agents[0] == "new"]
    assert (flag.kind, len(flag.agents) - 1, flag.details["explained"]) == ("fan_in", 8, 0)
    assert [f for f in fans(TransferView(dinner_town(8)), ALONE) if f.agents[0] == "new"] == []
    # the group size at 40, cell by cell: the tenants are a recurring group of eight in the loose band
    # (each landlord), none in the tight; the size is read from the tight band's, in either band's box
    params = {**ALONE, "alpha": 0.01}
    index = fans_module._fan_index(arrays_of(TransferView(g)), "in", params)
    assert index is not None
    groups = fans_module._honest_groups(index, params)
    at_40 = {cell: int(fans_module._group_size_at(found, np.log([40.0]), 2.0, 0.5, 3)[0])
             for cell, found in groups.items()}
    assert set(at_40.values()) == {0}
    dinner = fans_module._fan_index(arrays_of(TransferView(dinner_town(8))), "in", params)
    assert dinner is not None
    assert {int(fans_module._group_size_at(found, np.log([40.0]), 2.0, 0.5, 3)[0])
            for found in fans_module._honest_groups(dinner, params).values()} == {8}


def new_box(g: nx.MultiDiGraph) -> tuple[int, float, int] | None:
    """The count, band and explained members of the fan-in box of the account ``new`` (None: it has none)."""
    arrays = arrays_of(TransferView(g))
    boxes, _ = fan_boxes(arrays, "in", {**FAN_DEFAULTS, "alpha": 0.01})
    found = [(b.count, b.ratio, b.explained) for b in boxes if arrays.nodes[b.hub] == "new"]
    return found[0] if found else None


def test_a_one_off_group_whose_money_the_hub_wires_on_at_once_is_a_fan() -> None:
    # the same eight as above, 327 in all at tick 250; the hub pays 310 on the next tick: within 20% of
    # what came in, and more than it pays out in such a span as a rule (20 x 30 over 400 ticks: 6 in four)
    g = dinner_town(8)
    for i in range(20):
        g.add_edge("new", "grocer", value=30.0, tick=5 + 20 * i, event=f"shop{i}")
    assert [f for f in fans(TransferView(g), ALONE) if f.agents[0] == "new"] == []
    g.add_edge("new", "exit", value=100.0, tick=251, event="part")  # a third of it: not passing it on
    assert [f for f in fans(TransferView(g), ALONE) if f.agents[0] == "new"] == []
    g.remove_edge("new", "exit")
    # 207 fifty ticks later: with its shopping (4 x 30) from tick 250 to 330, 327 went out, but not at once
    # (by tick 292, the largest window and the shortest after it, 60 went out): no passing on
    g.add_edge("new", "exit", value=207.0, tick=300, event="late")
    assert [f for f in fans(TransferView(g), ALONE) if f.agents[0] == "new"] == []
    g.remove_edge("new", "exit")
    g.add_edge("new", "exit", value=310.0, tick=251, event="wire")
    (flag,) = [f for f in fans(TransferView(g), ALONE) if f.agents[0] == "new"]
    assert (flag.kind, len(flag.agents) - 1, flag.details["explained"]) == ("fan_in", 8, 0)


def test_a_household_paying_what_it_pays_every_month_is_not_passing_the_money_on() -> None:
    # the eight friends pay ``new`` back 327 at tick 250; ``new`` pays its landlord 350 every forty ticks,
    # one of them at tick 251: within 20% of what came in, and above its average outflow in such a span,
    # but no more than it pays in any other span that long: its rent, not the dinner's money wired on
    g = dinner_town(8)
    for i in range(10):
        g.add_edge("new", "landlord", value=350.0, tick=11 + 40 * i, event=f"rent{i}")
    assert [f for f in fans(TransferView(g), ALONE) if f.agents[0] == "new"] == []
    # the same 350 at tick 251 where its rent is 300 at the other times: the largest outflow of its year,
    # the money passed on
    g = dinner_town(8)
    for i in range(10):
        g.add_edge("new", "landlord", value=350.0 if 11 + 40 * i == 251 else 300.0, tick=11 + 40 * i, event=f"rent{i}")
    (flag,) = [f for f in fans(TransferView(g), ALONE) if f.agents[0] == "new"]
    assert (flag.kind, len(flag.agents) - 1, flag.details["explained"]) == ("fan_in", 8, 0)


def test_regular_payers_in_a_flagged_box_are_named_against_their_chance_count() -> None:
    g = background()
    add_fan_in(g, "hub", 8, [200, 201, 202])  # m0..m7, 100 to 107, one-off: the flagged box
    for r in range(5):  # five regulars pay it 30 at other times, and 120 just before the box
        for tick, value in ((20, 30.0), (320, 30.0), (199, 120.0)):
            g.add_edge(f"r{r}", "hub", value=value, tick=tick, event=f"r{r}-{tick}")
    for tick in (50, 350):  # a regular paying 30 twice, not in the box
        g.add_edge("s", "hub", value=30.0, tick=tick, event=f"s-{tick}")
    for i in range(20):  # a flatmate paying its share of 110 every twenty ticks: in the box by its habit
        g.add_edge("f", "hub", value=110.0, tick=1 + 20 * i, event=f"flat{i}")
    for tick, value in ((60, 100.0), (204, 115.0)):  # 115 in the box, within a factor 1.25 of its 100: not new
        g.add_edge("u", "hub", value=value, tick=tick, event=f"u-{tick}")
    (flag,) = fans(TransferView(g), FAN_DEFAULTS)
    members = 1 + flag.details["counterparties"]  # the hub and the box's one-off members (m0..m5: the tight band)
    assert flag.agents[members:] == ("r0", "r1", "r2", "r3", "r4") and "f" not in flag.agents and "u" not in flag.agents
    assert {f"r{r}-199" for r in range(5)} <= set(flag.evidence)
    # read: from the box's window before its start (tick 200) to its end, the members' amounts (100 to 105)
    # widened by 1.25 either way. The five regulars' 120 is new for them (their other payments, 30, are not
    # within a factor 1.25); the flatmate's 110 and u's 115 are not. Each regular with m payments lands a new
    # one there with chance at most m q_t q_x (1 - q_n) ** (m - 1): q_t the larger of the graph's share of ticks
    # in the window and the hub's own other dealings' (the box's rows and the five counted left out), q_x the
    # graph's share of amounts in the band, q_n the floor of the graph's share within a factor 1.25 of an amount
    # of the band (the band cut into pieces narrower than the square root of 1.25; for a piece [a, b], the share
    # in [b / 1.25, a * 1.25]); Poisson tail of 5
    window = flag.details["window"]
    lo_t, hi_t, lo_x, hi_x = 200 - window, 200 + window, 100.0 / 1.25, 105.0 * 1.25
    edges = [d for _, _, d in g.edges(data=True)]
    values = [d["value"] for d in edges]
    hub_ticks = [d["tick"] for u, v, d in g.edges(data=True) if "hub" in (u, v)]
    q_glob_t = sum(1 for d in edges if lo_t <= d["tick"] <= hi_t) / len(edges)
    boxed = members - 1 + 5  # the box's own rows (its six members') and the five regulars' counted
    q_own_t = (sum(1 for t in hub_ticks if lo_t <= t <= hi_t) - boxed) / (len(hub_ticks) - boxed)
    q_t = max(q_glob_t, q_own_t)
    q_x = sum(1 for x in values if lo_x <= x <= hi_x) / len(values)
    pieces = math.ceil(math.log(hi_x / lo_x) / math.log(math.sqrt(1.25)))
    cuts = [lo_x * (hi_x / lo_x) ** (i / pieces) for i in range(pieces + 1)]
    q_n = min(sum(1 for x in values if b / 1.25 <= x <= a * 1.25) / len(values) for a, b in zip(cuts, cuts[1:]))
    assert q_own_t > q_glob_t and 0.0 < q_n < q_x < 1.0  # the hub's own rhythm is read (m6, m7, f and u then)
    lam = (5 * 3 * q_t * q_x * (1 - q_n) ** 2 + 2 * q_t * q_x * (1 - q_n)  # r0..r4, s
           + 20 * q_t * q_x * (1 - q_n) ** 19 + 2 * q_t * q_x * (1 - q_n))  # f, u
    tail = 1 - sum(math.exp(-lam) * lam ** j / math.factorial(j) for j in range(5))
    assert flag.details["regulars"] == 5 and tail <= FAN_DEFAULTS["alpha"]  # one flagged box: the step-up at alpha
    assert flag.details["regularsExpected"] == pytest.approx(lam, rel=1e-9)
    assert flag.details["regularsP"] == pytest.approx(tail, rel=1e-6)
    # off: the box alone
    (alone,) = fans(TransferView(g), {**FAN_DEFAULTS, "regular_payers": 0})
    assert alone.agents == flag.agents[:members] and "regulars" not in alone.details


# -- honest friend webs and long loops ---------------------------------------------------


def friends_fan(tied: list[tuple[int, int]]) -> nx.MultiDiGraph:
    """The background and eight one-off payers ``m0..m7`` paying ``hub`` alike amounts within three
    ticks (the doctest of the fans module), and a payment for each pair in ``tied`` (members who deal
    with each other at other times, ten ticks apart)."""
    g = background(300)
    for i in range(8):
        g.add_edge(f"m{i}", "hub", value=100.0 + i, tick=50 + i % 4, event=f"f{i}")
    for j, (a, b) in enumerate(tied):
        g.add_edge(f"m{a}", f"m{b}", value=7.0, tick=20 + 10 * j, event=f"t{j}")
    return g


def test_fan_members_who_deal_with_each_other_are_left_out_of_the_count() -> None:
    # strangers: all eight counted
    (flag,) = fans(TransferView(friends_fan([])), FAN_DEFAULTS)
    assert (flag.kind, len(flag.agents) - 1, flag.details["webbed"]) == ("fan_in", 8, 0)
    # m3, m6 and m7 all know each other (each dealt with two other members): three left out, the five
    # strangers still a fan, with a larger p-value
    (webbed,) = fans(TransferView(friends_fan([(3, 6), (6, 7), (7, 3)])), FAN_DEFAULTS)
    assert (webbed.kind, len(webbed.agents) - 1, webbed.details["webbed"]) == ("fan_in", 8, 3)
    assert webbed.p_value is not None and flag.p_value is not None and webbed.p_value > flag.p_value
    # the same box, tested on its five strangers: the Poisson tail of four beyond the first
    assert webbed.details["rawP"] == pytest.approx(float(poisson_tail(4, webbed.details["expected"])), rel=1e-12)


def stated_fan(amounts: list[float]) -> nx.MultiDiGraph:
    """The background and eight one-off payers ``m0..m7`` paying ``hub`` the given amounts within three ticks."""
    g = background(300)
    for i, x in enumerate(amounts):
        g.add_edge(f"m{i}", "hub", value=x, tick=50 + i % 4, event=f"f{i}")
    return g


def test_fan_members_paying_one_stated_sum_are_counted_once_per_amount() -> None:
    # three of the eight pay 100 to the cent: two of them beyond the first are left out, the box tested on six
    # (the Poisson tail of five beyond the first)
    (flag,) = fans(TransferView(stated_fan([100.0, 100.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0])), FAN_DEFAULTS)
    assert (flag.kind, len(flag.agents) - 1, flag.details["stated"], flag.details["webbed"]) == ("fan_in", 8, 2, 0)
    assert flag.details["rawP"] == pytest.approx(float(poisson_tail(5, flag.details["expected"])), rel=1e-12)
    assert "paid the very amount another of them paid" in flag.explanation
    # amounts that differ by a cent are different amounts: all eight counted
    (apart,) = fans(TransferView(stated_fan([100.0, 100.01, 100.02, 101.0, 102.0, 103.0, 104.0, 105.0])), FAN_DEFAULTS)
    assert (len(apart.agents) - 1, apart.details["stated"]) == (8, 0)
    assert apart.details["rawP"] == pytest.approx(float(poisson_tail(7, apart.details["expected"])), rel=1e-12)
    # a club's fee: eight members paying one sum are one choice, not a fan; without the rule they are
    assert fans(TransferView(stated_fan([60.0] * 8)), FAN_DEFAULTS) == []
    (fee,) = fans(TransferView(stated_fan([60.0] * 8)), {**FAN_DEFAULTS, "stated_sums": 0})
    assert (fee.kind, len(fee.agents) - 1, fee.details["stated"]) == ("fan_in", 8, 0)


def test_a_busy_account_and_its_contacts_in_a_fan_are_a_star_not_a_web() -> None:
    # m0 paid each of the others once: m0 dealt with seven members, each of them with one: only m0 left out
    (flag,) = fans(TransferView(friends_fan([(0, i) for i in range(1, 8)])), FAN_DEFAULTS)
    assert (flag.kind, len(flag.agents) - 1, flag.details["webbed"]) == ("fan_in", 8, 1)


def test_a_web_of_friends_paying_one_of_them_back_is_not_a_fan() -> None:
    web = [(i, j) for i in range(8) for j in range(i + 1, 8)]  # every member paid every other at some time
    assert fans(TransferView(friends_fan(web)), FAN_DEFAULTS) == []
    assert [f.kind for f in fans(TransferView(friends_fan(web)), {**FAN_DEFAULTS, "web_ties": 0})] == ["fan_in"]


def colleagues_fan(colleagues: int, employs_everyone: bool = False) -> nx.MultiDiGraph:
    """:func:`friends_fan` with no ties, in a town of 150 more pairs of accounts with a standing
    relationship each (three payments), and an employer paying ``m0..m{colleagues-1}`` three times
    each (and every ``c`` account too, with ``employs_everyone``)."""
    g = friends_fan([])
    for i in range(150):
        for j in range(3):
            g.add_edge(f"c{i}", f"d{i}", value=20.0, tick=10 + 100 * j + i % 50, event=f"c{i}.{j}")
    staff = [f"m{m}" for m in range(colleagues)] + ([f"c{i}" for i in range(150)] if employs_everyone else [])
    for x in staff:
        for j in range(3):
            g.add_edge("employer", x, value=900.0, tick=100 + 30 * j, event=f"w{x}.{j}")
    return g


def test_fan_members_with_a_selective_standing_counterparty_in_common_are_left_out() -> None:
    # strangers: all eight counted
    (flag,) = fans(TransferView(colleagues_fan(0)), FAN_DEFAULTS)
    assert (flag.kind, len(flag.agents) - 1, flag.details["shared"]) == ("fan_in", 8, 0)
    # three of them are the only staff of one employer among 200 accounts (chance of three of eight drawn at
    # random about 6e-5): left out, the box tested on its five others (the Poisson tail of four beyond the first)
    (flag3,) = fans(TransferView(colleagues_fan(3)), FAN_DEFAULTS)
    assert (flag3.kind, len(flag3.agents) - 1, flag3.details["shared"], flag3.details["webbed"]) == ("fan_in", 8, 3, 0)
    assert flag3.details["rawP"] == pytest.approx(float(poisson_tail(4, flag3.details["expected"])), rel=1e-12)
    assert flag3.p_value is not None and flag.p_value is not None and flag3.p_value > flag.p_value
    assert "share a standing counterparty" in flag3.explanation
    # colleagues chipping in for a gift: not a fan
    assert fans(TransferView(colleagues_fan(8)), FAN_DEFAULTS) == []
    assert [f.kind for f in fans(TransferView(colleagues_fan(8)), {**FAN_DEFAULTS, "shared_level": 0})] == ["fan_in"]


def test_a_counterparty_of_nearly_everyone_makes_no_community() -> None:
    # the same employer also pays 150 of the town's other accounts: eight of its staff in a box is no surprise
    (flag,) = fans(TransferView(colleagues_fan(8, employs_everyone=True)), FAN_DEFAULTS)
    assert (flag.kind, len(flag.agents) - 1, flag.details["shared"]) == ("fan_in", 8, 0)


def test_standing_counterparties_need_the_transfers_either_way() -> None:
    from daishi_forensics.screens.fans import standing_counterparties

    g = nx.MultiDiGraph()
    for i, (u, v) in enumerate([("a", "b"), ("b", "a"), ("a", "b"), ("c", "d"), ("c", "d"), ("e", "f")]):
        g.add_edge(u, v, value=1.0, tick=i, event=f"e{i}")
    arrays = transfer_arrays(g)
    s = standing_counterparties(arrays, 2)
    named = {arrays.nodes[i]: [arrays.nodes[j] for j in s.of(i).tolist()] for i in range(len(arrays.nodes))}
    assert named == {"a": ["b"], "b": ["a"], "c": ["d"], "d": ["c"], "e": [], "f": []}


def test_an_office_collection_in_a_simulated_economy_is_a_community_not_a_fan() -> None:
    # a simulated economy of 400 accounts with nothing planted; an employer pays twelve staff ten times over the
    # span; on one day nine of them chip in 10 or 20 for a gift to the first, who spends the sum at a shop
    sim = simulate_transfers(TransferSettings(accounts=400, seed=3, cases_per_typology=0.0))
    g = sim.graph.copy()
    ticks = sorted(d["tick"] for _, _, d in g.edges(data=True))
    lo, hi = ticks[0], ticks[-1]
    staff = [f"staff{i}" for i in range(12)]
    for i, x in enumerate(staff):
        for j in range(10):
            g.add_edge("employer", x, value=1500.0, tick=lo + (hi - lo) * j / 10, event=f"wage{i}.{j}")
    day = lo + (hi - lo) * 0.4
    for i, x in enumerate(staff[1:10]):
        g.add_edge(x, staff[0], value=10.0 if i % 3 else 20.0, tick=day + i % 2, event=f"gift{i}")
    g.add_edge(staff[0], sorted(sim.graph.nodes)[5], value=120.0, tick=day + 2, event="shop")
    level = {**FAN_DEFAULTS, "alpha": 0.0067}
    assert fans(TransferView(g), level) == []
    # without the rule (nor the stated-sum rule: they chip in 10 or 20) the nine colleagues are a fan-in (and
    # nothing else in the graph is)
    (flag,) = fans(TransferView(g), {**level, "shared_level": 0, "stated_sums": 0})
    assert (flag.kind, flag.agents[0], len(flag.agents) - 1) == ("fan_in", "staff0", 9)


def test_a_standing_relationship_is_both_ways_and_recurring() -> None:
    from daishi_forensics.screens.value_cycles import standing

    g = nx.MultiDiGraph()
    for i, (u, v) in enumerate([("a", "b"), ("b", "a"), ("a", "b"), ("c", "d"), ("c", "d"), ("c", "d"),
                                ("e", "f"), ("f", "e")]):
        g.add_edge(u, v, value=1.0, tick=i, event=i)
    # a-b: both ways, three in all; c-d: three, one way only; e-f: both ways, two in all
    assert standing(transfer_arrays(g), 3).tolist() == [True, True, True, False, False, False, False, False]
    assert standing(transfer_arrays(g), 2).tolist() == [True, True, True, False, False, False, True, True]


def test_a_car_pool_passing_the_same_fuel_share_round_is_not_a_value_cycle() -> None:
    # four neighbours drive by turns; the others pay the week's driver 25; the loop a -> b -> c -> d -> a of
    # alike sums within days is there every week, but every pair pays both ways, again and again
    g = background()
    pool = ["a", "b", "c", "d"]
    for week in range(40):
        driver = pool[week % 4]
        for r in pool:
            if r != driver:
                g.add_edge(r, driver, value=25.0, tick=week * 10 + pool.index(r) % 2, event=f"w{week}-{r}")
    assert [f for f in typology_flags(g) if f.kind == "value_cycle"] == []


def test_a_ten_hop_loop_is_found() -> None:
    g = background()
    members = [f"x{i}" for i in range(10)]
    add_cycle(g, members, 100, 1, [1000.0 * 0.97 ** i for i in range(10)])
    (flag,) = typology_flags(g)
    assert (flag.kind, flag.agents, flag.details["hops"]) == ("value_cycle", tuple(members), 10)


def test_long_loops_are_counted_with_an_upper_bound() -> None:
    # a directed triangle with each pair paid once: closed walks of 6 steps go round twice, from each of the
    # 3 transfers: 3.  Beyond exact_length the bound S r^(L-1): every account alike, so x is constant,
    # r = (A x)_i / x_i = 1 and S = sum W_ij x_j / x_i = 3: three for every length
    g = nx.MultiDiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    for i, (u, v, k) in enumerate(g.edges(keys=True)):
        g.edges[u, v, k].update(value=1.0, tick=i, event=i)
    arrays = transfer_arrays(g)
    assert candidate_cycles(arrays, 7, exact_length=7) == {3: 3, 4: 1, 5: 1, 6: 3, 7: 1}
    assert candidate_cycles(arrays, 9, exact_length=6) == {3: 3, 4: 1, 5: 1, 6: 3, 7: 3, 8: 3, 9: 3}


def test_a_bound_past_the_largest_double_is_no_crash() -> None:
    """A long max_length (a million, a usable setting) on a web whose closed walks multiply with each step:
    S r^(L-1) passed the largest double, and screen stopped with exit 70 (OverflowError: cannot convert
    float infinity to integer). Such a length's count is now more than any double (2^1024), and a cycle
    tested against it is not flagged (the strict side); the exact counts are as before, and a planted loop
    of ten, whose own length's bound is a double, is tested (and flagged) against the million lengths."""
    g = nx.MultiDiGraph([(u, v) for u in "abcd" for v in "abcd" if u != v])
    for i, (u, v, k) in enumerate(g.edges(keys=True)):
        g.edges[u, v, k].update(value=1.0, tick=i, event=i)
    counts = candidate_cycles(transfer_arrays(g), 1000, exact_length=6)
    assert counts[6] == candidate_cycles(transfer_arrays(g), 6)[6] and counts[1000] == 2**1024
    g = background()
    members = [f"x{i}" for i in range(10)]
    add_cycle(g, members, 100, 1, [1000.0 * 0.97 ** i for i in range(10)])
    result = screen_graph(g, {"screens": {"value_cycles": {"max_length": 1_000_000}}})
    (flag,) = [f for f in result.flags if f.kind == "value_cycle"]
    assert flag.agents == tuple(members) and flag.tests == 8199950800


def test_the_bound_is_never_below_the_exact_count() -> None:
    sim = simulate_transfers(TransferSettings(accounts=200, seed=3))
    arrays = transfer_arrays(sim.graph)
    exact = candidate_cycles(arrays, 9, exact_length=9)
    bounded = candidate_cycles(arrays, 9, exact_length=2)
    assert all(bounded[length] >= exact[length] for length in range(3, 10))
    # the rate is about right (near the Perron vector); the prefactor counts every transfer as a start
    assert bounded[9] < 1000 * exact[9]


# -- honest hubs of real payment data: none is a fan ----------------------------------------


def test_a_shop_with_many_one_off_customers_paying_its_supplier_weekly_is_not_a_fan() -> None:
    # 150 customers each buy once, at prices from 3 to 40, two a day through the year; every week the
    # shop pays its supplier 70% of what came in (it passes money on, steadily)
    g = background()
    week: dict[int, float] = {}
    for i in range(150):
        tick, price = 2 + (i * 131) % 396, 3.0 + (i * 17) % 38
        g.add_edge(f"c{i}", "shop", value=price, tick=tick, event=f"buy{i}")
        week[tick // 7] = week.get(tick // 7, 0.0) + price
    for w, came in sorted(week.items()):
        g.add_edge("shop", "supplier", value=round(0.7 * came, 2), tick=7 * w + 6, event=f"settle{w}")
    assert [f.agents[0] for f in typology_flags(g) if f.kind in ("fan_in", "gather_scatter")] == []


def test_an_account_paying_its_bills_on_one_day_every_month_is_not_a_fan_out() -> None:
    g = background()
    for month in range(13):
        for b in range(6):  # six bills, the same payees every month, amounts that vary
            g.add_edge("household", f"bill{b}", value=20.0 + 7 * b + month % 5, tick=3 + 30 * month, event=f"b{month}-{b}")
    assert [f for f in typology_flags(g) if f.agents[0] == "household"] == []


def test_an_exchange_passing_on_a_steady_stream_of_one_off_customers_is_not_a_fan() -> None:
    # 200 one-off customers through the year, amounts from 50 to 1,000, each sum paid on the same day
    # to one of three banks, less 1%: one-off payers, the money passed on at once, but steadily
    g = background()
    for i in range(200):
        tick, amount = 1 + (i * 53) % 398, 50.0 + (i * 389) % 951
        g.add_edge(f"x{i}", "exchange", value=amount, tick=tick, event=f"in{i}")
        g.add_edge("exchange", f"bank{i % 3}", value=round(0.99 * amount, 2), tick=tick, event=f"out{i}")
    assert [f for f in typology_flags(g) if "exchange" in f.agents[:1]] == []


@pytest.mark.parametrize("scale", [10.0, 100.0, 0.01, 1e-6, 1e6])
def test_a_stated_sum_reads_no_unit_scaling_every_amount_changes_no_flag(scale: float) -> None:
    # the same fans in another unit (every amount of the graph, background and box, times the scale): the same
    # boxes, the same stated members, the same p-values (the chance counts are shares of the graph's own amounts)
    def scaled(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
        out = nx.MultiDiGraph()
        for u, v, d in g.edges(data=True):
            out.add_edge(u, v, **{**d, "value": d["value"] * scale})
        return out

    def read(flags: list[Flag]) -> list[tuple]:
        return [(f.kind, f.agents, f.details["stated"], f.details["count"] if "count" in f.details else None,
                 f.p_value, f.evidence) for f in flags]

    for amounts in ([100.0, 100.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0],
                    [100.0, 100.01, 100.02, 101.0, 102.0, 103.0, 104.0, 105.0],
                    [45.17, 45.17, 48.31, 49.99, 9.58 * 5, 46.0, 47.5, 47.51]):
        g = stated_fan(amounts)
        assert read(fans(TransferView(scaled(g)), FAN_DEFAULTS)) == read(fans(TransferView(g), FAN_DEFAULTS))
    assert fans(TransferView(scaled(stated_fan([60.0] * 8))), FAN_DEFAULTS) == []


def test_candidate_cycles_of_a_dense_web_are_counted_in_blocks_the_same() -> None:
    # three hundred accounts, twenty thousand payments: the powers of the paying graph fill in, so the walks are
    # counted a block of rows at a time (bounded memory), to the same whole numbers as the sparse powers give
    from scipy.sparse import csr_matrix

    from daishi_forensics.screens import value_cycles as vc
    from daishi_forensics.screens.transfer_arrays import arrays_from

    rng = np.random.default_rng(7)
    src, dst = rng.integers(0, 300, 20_000), rng.integers(0, 300, 20_000)
    keep = src != dst
    src, dst = src[keep].tolist(), dst[keep].tolist()
    arrays = arrays_from(tuple(range(300)), src, dst, [float(i) for i in range(len(src))], [1.0] * len(src),
                         list(range(len(src))))
    adjacency = csr_matrix((np.ones(len(src)), (src, dst)), shape=(300, 300))
    adjacency.sum_duplicates()
    adjacency.data[:] = 1.0
    assert vc._dense_walks(adjacency, 300)
    blocked = vc.candidate_cycles(arrays, 8, None, 6)
    sparse_only = vc._dense_walks
    try:
        vc._dense_walks = lambda a, n: False  # type: ignore[assignment]
        assert vc.candidate_cycles(arrays, 8, None, 6) == blocked
    finally:
        vc._dense_walks = sparse_only
    assert blocked[3] > 0 and list(blocked) == [3, 4, 5, 6, 7, 8]


def test_one_node_tested_is_said_in_the_singular() -> None:
    (flag,) = fans(TransferView(stated_fan([100.0, 101.0, 102.0, 103.0, 104.0, 105.0, 106.0, 107.0])), FAN_DEFAULTS)
    assert flag.explanation.count(", 1 node tested).") == 1 and "1 nodes" not in flag.explanation
