"""Welfare: Nash welfare with its floor, total, Gini and shares, by hand.

Wealth 10, 30, 0 (and a seat with no wealth anywhere):
total 40; shares 0.25, 0.75, 0; Nash = (10 · 30 · max(0, 1))^(1/3) = 300^(1/3) = 6.694...;
Gini over sorted (0, 10, 30): Σ (2k − n − 1)·w = −2·0 + 0·10 + 2·30 = 60, ÷ (3 · 40) = 0.5.
"""

from __future__ import annotations

import doctest
import math
from pathlib import Path

from daishi_forensics.profile import welfare as welfare_module
from daishi_forensics.report.passes import analyze
from daishi_forensics.report.profile import profile_section
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.profile.welfare import NASH_WEALTH_FLOOR, gini, nash_welfare, welfare

from .matchkit import archive, ev, write_match


def test_doctests() -> None:
    assert doctest.testmod(welfare_module).failed == 0


def test_by_hand() -> None:
    w = welfare({"a_1": 10.0, "a_2": 30.0, "a_3": 0.0, "a_4": None})
    assert w.total == 40.0
    assert w.nash == math.exp((math.log(10) + math.log(30) + math.log(1)) / 3)
    assert abs(w.nash - 300 ** (1 / 3)) < 1e-12
    assert w.gini == 0.5
    assert (w.share("a_1"), w.share("a_2"), w.share("a_3"), w.share("a_4")) == (0.25, 0.75, 0.0, None)
    assert w.missing == ("a_4",) and w.floor == NASH_WEALTH_FLOOR == 1.0


def test_properties() -> None:
    assert gini([7.0, 7.0, 7.0, 7.0]) == 0.0
    assert gini([0.0, 0.0, 0.0, 100.0]) == 0.75  # (n − 1) / n when one holds everything
    assert gini([]) is None and gini([0.0, 0.0]) is None
    assert nash_welfare([]) is None
    assert nash_welfare([0.0, 0.0]) == 1.0  # the floor
    assert abs(nash_welfare([5.0, 5.0]) - 5.0) < 1e-12
    # invariant to the order (and the names) of the seats
    a = welfare({"x": 1.0, "y": 9.0, "z": 4.0})
    b = welfare({"c": 4.0, "a": 9.0, "b": 1.0})
    assert (a.total, a.nash, a.gini) == (b.total, b.nash, b.gini)


def test_profile_blocks(tmp_path: Path) -> None:
    """Archive wealth first, the last snapshot where the archive has none.

    Wealth 10, 30.5 and (snapshot) 20: total 60.5; shares 0.165, 0.504, 0.331;
    Nash 6100^(1/3) = 18.27; Gini (−2·10 + 0·20 + 2·30.5) / (3 · 60.5) = 41 / 181.5 = 0.226.
    """
    events = [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 0, "agent_spawned", "a_3", region="r_0_0"),
        ev(4, 5, "agent_snapshot", "a_3", region="r_0_0", energy=5, wealth=7.0, inventoryHash="h"),
        ev(5, 9, "agent_snapshot", "a_3", region="r_0_0", energy=5, wealth=20.0, inventoryHash="h"),
    ]
    arch = archive(["a_1", "a_2", "a_3", "a_4"], ended=10)
    arch["agents"][0]["wealth"] = 10
    arch["agents"][1]["wealth"] = 30.5
    path = write_match(tmp_path, events, arch)
    seats, match = profile_section(analyze(read_match(open_match(str(path)))))
    assert seats["a_3"]["welfare"] == {"wealth": 20.0, "share": 0.331, "basis": "snapshot"}
    assert seats["a_2"]["welfare"] == {"wealth": 30.5, "share": 0.504, "basis": "archive"}
    assert seats["a_1"]["welfare"]["share"] == 0.165
    assert seats["a_4"]["welfare"] == {"wealth": None, "share": None, "basis": "none"}
    assert match["welfare"] == {"seats": 3, "missing": ["a_4"], "totalWealth": 60.5,
                                "nashWelfare": 18.27, "nashFloor": 1.0, "gini": 0.226}
