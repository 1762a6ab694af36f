"""Ring: wash trading, goods going around with little net movement.

The scoring rubric, *Trade ledger* and *Circular reputation* (rubric 2.4): a pair's net share is 1 when
every item moved one way and 0 when "the same goods went back and forth"; the
reputation a pair's trades paid counts as circular in proportion to ``1 - net
share``.  Wash trading is trading for the count and the reputation, not for the
goods: the goods come back.

Three patterns, and the pairs inside them (voluntary transfers only):

Four rules, each in its own module, each a candidate tested against honest play in the same
match (the match-level step adjusts every p-value over every test of the match):

- **wash pair** (``wash_pair``, :mod:`.wash_pair`): two seats whose trades are undone by
  mirror trades sending the same goods back (:mod:`.mirrors`), tested against the match's
  pairs of about the same volume that share neither seat (:mod:`.round_trip_null`);
- **ring members** (:mod:`.wash_pair`): inside a ring already found, a pair of its seats at
  the lower ``member_threshold``, with its own round-trip test;
- **wash cycle** (``wash_cycle``, :mod:`.wash_cycle`): goods going round three seats or more
  lap after lap, each member passing them on in step with what arrives, tested on the direction
  of the good's transfers (binomial);
- **round-trip ring** (``wash_ring``, :mod:`.wash_ring`): round trips of one parcel on every
  pair of a cycle, all under way together (or every pair washing it at one tick), tested as one
  hypothesis that pays for the search.

Every pair's round-trip test is in the match's family, flagged or not.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for lap in range(3):
...     for i, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a")]):
...         _ = G.add_edge(u, v, value=6.0, tick=10 * lap + i, event=f"{lap}{i}", goods={"wood": 6.0})
>>> PARAMS = {"min_value": 3.0, "max_leg_ratio": 1.5, "pair_threshold": 0.85, "member_threshold": 0.5,
...     "max_cycle_length": 5, "cycle_threshold": 3, "max_member_imbalance": 0.3, "max_search_steps": 10000,
...     "ring_trips": 1, "ring_threshold": 0.5, "wash_cycle_lean": False,
...     "wash_cycle_in_step": 0.05}
>>> [(c.flag.kind, c.flag.agents, c.flag.score, c.flag.p_value) for c in ring(TransferView(G), PARAMS)[0]]
[('wash_cycle', ('a', 'b', 'c'), 3.0, 0.0028333976648642744)]

(nine transfers of wood, all the cycle's way round, 2 x 2^-9, each passed on in step, 8 / 2001 of a level of
0.05: Fisher's product of the two, as in :mod:`.wash_cycle`.)

One lap and back: wood for stone round ``a -> b -> c``, each trade then undone.

>>> G = nx.MultiDiGraph()
>>> for t, (u, v, out, back) in enumerate([("a", "b", "wood", "stone"), ("b", "c", "wood", "stone"),
...         ("c", "a", "wood", "stone"), ("a", "c", "wood", "stone"), ("c", "b", "wood", "stone"),
...         ("b", "a", "wood", "stone")]):
...     _ = G.add_edge(u, v, value=6.0, tick=t, event=f"t{t}", exchange=t, goods={out: 6.0})
...     _ = G.add_edge(v, u, value=6.0, tick=t, event=f"t{t}", exchange=t, goods={back: 6.0})
>>> [(c.flag.kind, c.flag.agents, c.flag.score, c.flag.details["allUnderWayAtTick"])
...  for c in ring(TransferView(G), PARAMS)[0]]
[('wash_ring', ('a', 'b', 'c'), 1.0, 2.0)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .flags import ordered
from .graph import TransferView
from .mirrors import mirrored_trips
from .round_trip_null import return_tests
from .stats import Candidate, Test
from .wash_cycle import wash_cycles
from .wash_pair import ring_members, wash_pairs
from .wash_ring import round_trip_rings

__all__ = ["mirrored_trips", "ring", "ring_members", "round_trip_rings", "wash_cycles", "wash_pairs"]


def ring(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test], list[str]]:
    """Wash pairs, wash cycles, round-trip rings and the pairs inside a ring (module rules), as
    candidates with the tests they rest on; every pair's round-trip test is in the family."""
    ratio = float(params["max_leg_ratio"])
    tests = [Test(("ring.pair", a, b), t[0], t[1]) for (a, b), t in return_tests(view, ratio).items()]
    cycles, notes = wash_cycles(view, params)
    rings, ring_notes = round_trip_rings(view, params)  # a wash pair or cycle is a candidate, not yet a finding
    found = wash_pairs(view, params) + cycles + rings
    notes = notes + ring_notes
    candidates: list[Candidate] = []
    for flag in found + ring_members(view, params, found):
        if flag.kind == "wash_pair":
            key: Any = ("ring.pair", *flag.pairs[0])
        elif flag.kind == "wash_cycle":
            key = ("ring.cycle", tuple(ordered(flag.agents)), flag.details["good"])
            tests.append(Test(key, flag.p_value or 1.0, flag.details["minP"]))
        else:
            key = ("ring.ring", tuple(ordered(flag.agents)))
            tests.append(Test(key, flag.p_value or 1.0, flag.details["minP"]))
        candidates.append(Candidate(flag, (key,)))
    return candidates, tests, notes
