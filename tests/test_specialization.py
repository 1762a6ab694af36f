"""Specialization: activity distribution, entropy and roles, by hand.

a_1: 3 gathers, 1 move        -> gather 3, explore 1: H = −(¾·log2 ¾ + ¼·log2 ¼) = 0.8113; role gather
a_2: 2 messages, 2 direct     -> talk 4: H = 0; role talk
a_3: 2 crafts, 1 build, 1 repair -> craft 2, build 2: H = 1; tie -> craft (listed first)
a_4: 5 rests, 1 train         -> nothing counted: no entropy, no role
a_5: offer, completed trade, attack, look -> trade 2, fight 1, explore 1: H = 1.5; role trade
Roles gather, talk, craft, trade: one seat each -> role entropy log2 4 = 2 bits, normalized 2 / log2 7.
"""

from __future__ import annotations

import doctest
import math
from pathlib import Path

from daishi_forensics.profile import specialization as specialization_module
from daishi_forensics.report.passes import analyze
from daishi_forensics.report.profile import profile_section
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.profile.specialization import ACTIVITY_KINDS, activity_counts, entropy_bits, specialization

from .matchkit import archive, ev, trade, write_match

BY_TYPE = {
    "a_1": {"gather": 3, "move": 1},
    "a_2": {"message": 2, "message_private": 2},
    "a_3": {"craft": 2, "build": 1, "repair": 1},
    "a_4": {"rest": 5, "train": 1, "agent_snapshot": 9},
    "a_5": {"trade_offered": 1, "trade_completed": 1, "attack": 1, "look": 1},
}


def test_doctests() -> None:
    assert doctest.testmod(specialization_module).failed == 0


def test_by_hand() -> None:
    s = specialization(BY_TYPE)
    a1, a2, a3, a4, a5 = (s.seat(a) for a in sorted(BY_TYPE))
    assert a1.counts == {"gather": 3, "craft": 0, "build": 0, "trade": 0, "fight": 0, "talk": 0, "explore": 1}
    assert a1.entropy == -(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25)) and a1.role == "gather"
    assert (a1.share("gather"), a1.share("explore")) == (0.75, 0.25)
    assert (a2.entropy, a2.role) == (0.0, "talk")
    assert (a3.entropy, a3.role) == (1.0, "craft")
    assert (a4.total, a4.entropy, a4.normalized_entropy, a4.role, a4.share("gather")) == (0, None, None, None, None)
    assert (a5.entropy, a5.role) == (1.5, "trade")
    assert a5.normalized_entropy == 1.5 / math.log2(7)
    assert dict(s.roles) == {"gather": 1, "craft": 1, "trade": 1, "talk": 1}
    assert s.role_entropy == 2.0 and s.normalized_role_entropy == 2.0 / math.log2(7)


def test_properties() -> None:
    assert entropy_bits([1] * 7) == math.log2(7)
    assert entropy_bits({}) is None
    everyone_gathers = specialization({"a": {"gather": 5}, "b": {"gather": 1, "move": 1}})
    assert everyone_gathers.role_entropy == 0.0  # a tie between gather and explore goes to gather
    assert specialization({}).role_entropy is None
    assert list(activity_counts({"theft": 2, "raid": 1, "unknown_type": 4})) == list(ACTIVITY_KINDS)
    # relabelling agents changes nothing but the labels
    renamed = specialization({f"z{k}": v for k, v in BY_TYPE.items()})
    assert renamed.role_entropy == specialization(BY_TYPE).role_entropy


def test_profile_counts_the_log(tmp_path: Path) -> None:
    events = [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=2),
        ev(4, 2, "gather", "a_1", region="r_0_0", resource="wood", gathered=2),
        ev(5, 3, "move", "a_1", **{"from": "r_0_0"}, to="r_0_1"),
        *trade(6, 4, "t1", "a_2", "a_1", {"wood": 1}, {}),
        ev(8, 5, "message", "a_2", channel="broadcast", text="hello"),
    ]
    path = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=10))
    seats, match = profile_section(analyze(read_match(open_match(str(path)))))
    assert seats["a_1"]["specialization"] == {
        "counts": {"gather": 2, "craft": 0, "build": 0, "trade": 1, "fight": 0, "talk": 0, "explore": 1},
        "shares": {"gather": 0.5, "craft": 0.0, "build": 0.0, "trade": 0.25, "fight": 0.0, "talk": 0.0,
                   "explore": 0.25},
        "total": 4, "entropy": 1.5, "normalizedEntropy": 0.534, "role": "gather"}
    assert seats["a_2"]["specialization"]["role"] == "trade"  # trade 1, talk 1: trade is listed first
    assert match["specialization"]["roles"] == {"gather": 1, "trade": 1}
    assert match["specialization"]["roleEntropy"] == 1.0
