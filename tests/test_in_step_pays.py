"""The wash-cycle in-step rule read paying for the cycles met (``wash_cycle_in_step_pays``): three laps of wood round
a, b and c, each passed on a tick after it arrives (in step: p 8 / 2001, the most runs any order of the nine
transfers makes, which 7 of the 2,000 shuffles reach too)."""

from __future__ import annotations

import math

import networkx as nx
import pytest

from daishi_forensics.screens.graph import TransferView
from daishi_forensics.screens.wash_cycle import IN_STEP_DRAWS, _good_flows, _qualified_cycles


def _lapped() -> nx.MultiDiGraph:
    """Wood round a -> b -> c three times, a gift a tick, in order."""
    graph = nx.MultiDiGraph()
    tick = 0
    for _ in range(3):
        for u, v in (("a", "b"), ("b", "c"), ("c", "a")):
            graph.add_edge(u, v, value=6.0, tick=tick, event=f"e{tick}", kind="gift", goods={"wood": 6.0})
            tick += 1
    return graph


def _met(others: int) -> list[tuple[object, object, tuple[str, ...]]]:
    """The cycle a, b, c with its wood, and ``others`` cycles met that carried nothing (none qualifies: no lap)."""
    flows = _good_flows(TransferView(_lapped()))
    [(good, legs)] = list(flows.items())
    empty = {("x", "y"): [], ("y", "z"): [], ("z", "x"): []}
    return [(good, legs, ("a", "b", "c")), *[(good, empty, ("x", "y", "z"))] * others]


def test_one_cycle_met_reads_the_rule_as_before() -> None:
    """One cycle met: the level over one cycle is the level, the draws the usual 2,000: the same cycle and test
    either way, its order shuffled (no bound read: ``(p, transfers, None, None)``)."""
    _rings, off = _qualified_cycles(_met(0), 1.5, 3, 0.3, None, 0.05)
    _rings, on = _qualified_cycles(_met(0), 1.5, 3, 0.3, None, 0.05, pays=True)
    assert on == off and [c["cycle"] for c in on] == [("a", "b", "c")]
    assert on[0]["in_step"] == (8 / (IN_STEP_DRAWS + 1), 9, None, None)


def test_twenty_cycles_met_read_it_at_a_twentieth() -> None:
    """Twenty cycles met (nineteen carry nothing): the rule reads a, b, c at 0.05 / 20 = 0.0025, with 2,000 draws
    (2 / 0.0025 = 800 fewer), and its order's 8 / 2001 = 0.004 no longer passes; without paying it does, its test
    paying for the twenty cycles in the direction's reading (Fisher's product of 2^-8 and 0.004 / 0.05, times 20)."""
    _rings, on = _qualified_cycles(_met(19), 1.5, 3, 0.3, None, 0.05, pays=True)
    _rings, off = _qualified_cycles(_met(19), 1.5, 3, 0.3, None, 0.05)
    assert on == []
    [cycle] = off
    t = 2 ** -8 * (8 / 2001) / 0.05
    assert math.isclose(cycle["p"], min(1.0, 20 * t * (1 - math.log(t))), rel_tol=1e-12)


def test_the_first_pieces_size_changes_no_p_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draws come in pieces that double from :data:`IN_STEP_FIRST_ROWS`: the same draws in the same order
    whatever the first piece, so the same p-value where every draw is read (no level, or a cycle in step); a cycle
    out of step read at 0.05 stops past the level whatever the pieces (its p-value only a bound above it)."""
    from daishi_forensics.screens import wash_cycle as W

    out = {("a", "b"): [(0,), (20,), (22,), (60,), (64,)], ("b", "c"): [(10,), (12,), (50,), (70,), (72,)],
           ("c", "a"): [(15,), (30,), (55,), (75,), (76,)]}
    step = {("a", "b"): [(0,), (3,), (6,)], ("b", "c"): [(1,), (4,), (7,)], ("c", "a"): [(2,), (5,), (8,)]}
    seen = set()
    for first in (1, 8, 250):
        monkeypatch.setattr(W, "IN_STEP_FIRST_ROWS", first)
        got = (W.in_step(("a", "b", "c"), out), W.in_step(("a", "b", "c"), step, level=0.05))
        seen.add(got)
        assert W.in_step(("a", "b", "c"), out, level=0.05)[0] > 0.05
    assert seen == {((1154 / 2001, 15), (8 / 2001, 9))}
