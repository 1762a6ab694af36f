"""Wash cycles: goods that go round three seats or more and come back where they started.

The scoring rubric, *Trade ledger* and *Circular reputation* (rubric 2.4).  ``A -> B -> C ->
A``: each pair looks one-way (wood one way, food the other: net share 1, no circular
reputation), yet the wood comes back to where it started.

**Wash cycle** (``wash_cycle``).  Per good, the flow graph is cut to its strongly connected
components; inside each, simple cycles of 3 to ``max_cycle_length`` nodes are searched
depth-first from their smallest node, extending only along legs whose value stays within
``max_leg_ratio`` of the others (value consistency) -- never ``simple_cycles`` over the whole
graph; the search stops after ``max_search_steps`` steps and says so.  A *lap* is one
transfer along every leg in time order (each no earlier than the one before, worth within
``max_leg_ratio`` of the first).  A cycle qualifies when it ran at least ``cycle_threshold``
laps and, on its laps, every member passed on what it received (``|in - out| / (in + out)``
at most ``max_member_imbalance``) and ended where it started: its net share over the
exchanges that carried the laps, every good they moved counted, is at most
``max_member_imbalance`` too: the goods came back and nothing moved.  Food going round an
honest triangle as a currency, paying for wood, stone and fiber that move for good, leaves
each member's goods changed (net share about 0.5): trade, not a wash.  Qualifying cycles
that share a pair of seats are one ring (:func:`rings_of`): one flag per ring, its best cycle
first; the score is that cycle's laps.  Cycles that share one seat only are rings of their own,
each its own flag and test: a seat of a wash that also passes some good round with honest
friends does not bring them into the wash (configuration 2.20.0; before, any seat in common
joined two cycles, and the ring's p-value was its best cycle's).

**In step** (``wash_cycle_in_step``, configuration 2.21.0).  A wash member passes the good on after it
arrives and before the next one arrives: its arrivals and pass-ons alternate, ``in out in out``, however
irregular the ticks between them.  Honest friends who each pass a good friend-ward trade when their own needs
say, and one leg's transfers fall between the other's at random.  Every transfer of the good along the cycle is
put in tick order; per member ``m`` of ``p -> m -> n``, the runs in its arrivals (``p -> m``) and pass-ons
(``m -> n``) are counted (a run: a stretch of one kind), summed over the members, and tested against the same
counts in an order shuffled, all the legs together (:func:`in_step`).  A cycle whose order is not unusual at
``wash_cycle_in_step`` (0.05) is not a wash cycle: it gets no flag and no test, like a cycle short of laps (1
turns the rule off).  Where one leg's transfers all come before the other's (friends trading at different
times of the match), the shuffle alternates more than the match did: such a cycle is never in step.  A wash
that passes two parcels round together (``in in out out``) does not alternate either, nor one whose seats keep a
stock and pass the good on each on a schedule of its own: in the log that is what a cycle of friends looks like,
and it is left out too.  Every cycle the search met is tried, so the rule pays for them (configuration 2.31.0,
``wash_cycle_in_step_pays``): each cycle is read at the level over the cycles met, with draws enough
(``2 / level`` and at least :data:`IN_STEP_DRAWS`) for a cycle passed on in step at every arrival to reach it.
Over a long match cycles of friends are many, and one of them passing the rule at 0.05 by chance was then read
by the direction test, which takes friends leaning one way for a wash; read at 0.05 each, honest matches of
3,000 rounds were flagged this way (3 of 400 on seeds never played, none since).  A cycle so long that its draws
alone would shuffle more places than the match's budget (:data:`IN_STEP_BUDGET`; at some 50,000 rounds a wash
cycle carries thousands of transfers, and tens of thousands of draws each) is read by a bound on the shuffle's tail
instead (configuration 2.32.0, :func:`in_step_bound`): the runs a shuffle gives are the sum of many small parts, and
the chance that they reach the observed count is at most ``exp(-2 t^2 / ((n - 1) 8^2))``, ``t`` the count's excess
over its exact mean and ``n`` the transfers (a martingale over the places, one at a time; one swap of two places
moves the count by 8 at most).  The bound is never below the exact chance the shuffles estimate, so the rule stays
at its level; it reaches the level only when the cycle is clearly in step (a wash passed on at every arrival: from a
few hundred transfers), and costs no shuffle.

**The test.**  The direction of every transfer of the cycled good between neighbours of the
cycle: a wash sends it the cycle's way every time, honest trade of one good both ways.  Each transfer
is read as a coin (binomial), the direction's p-value twice the tail of the count along.  With the in-step rule
on, the order is evidence too (configuration 2.22.0): the direction's p-value and the order's given that the cycle
passed the rule (its p-value over the level, uniform under honest play) are combined by Fisher's product
(:func:`with_order`); the two are independent under honest play (the shuffle reads how many transfers each leg
carried, not which way they went).  The cycle's p-value is that, times the cycles the search met.

**The lean, an option** (``wash_cycle_lean``, off as shipped since configuration 2.19.0).  Honest
pairs lean: friends pass dear goods friend-ward in near-fair trades (ore for a little less in
stone), and along a cycle of friends such a good goes round.  With the option on, the null keeps
each transfer's direction even on average and lets each pair of the cycle lean one way or the
other as hard as the match's pairs that share no seat with the cycle lean in the same good
(:func:`outside_counts`; in every good where fewer than :data:`MIN_LEAN_UNITS` of them moved it
twice; pairs on a wash cycle, under test themselves, left out): each leg's count along is
beta-binomial with a symmetric Beta(alpha, alpha) fitted to those pairs (:func:`fit_lean`), the legs
independent, and the cycle's p-value is twice the tail of their total (:func:`lean_tail`), times
the cycles the search met; where those pairs trade as evenly as coins (the fit at its largest
alpha) or are too few, the coin.  But a wash cycle is itself a cycle of pairs each leaning one
way: where the match's pairs lean hard, the lean explains it away (on simulated wash cycles, held
out, it raised 38% to 70% of the planted pairs where the coin raises all of them), which is why
it is off unless a user's honest play makes cycles of friends.

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> for lap in range(3):
...     for i, (u, v) in enumerate([("a", "b"), ("b", "c"), ("c", "a")]):
...         _ = G.add_edge(u, v, value=6.0, tick=10 * lap + i, event=f"{lap}{i}", goods={"wood": 6.0})
>>> PARAMS = {"max_leg_ratio": 1.5, "max_cycle_length": 5, "cycle_threshold": 3, "max_member_imbalance": 0.3,
...     "max_search_steps": 10000, "wash_cycle_lean": False, "wash_cycle_in_step": 0.05}
>>> [(f.kind, f.agents, f.score, f.p_value) for f in wash_cycles(TransferView(G), PARAMS)[0]]
[('wash_cycle', ('a', 'b', 'c'), 3.0, 0.0028333976648642744)]

(nine transfers of wood, all the cycle's way round: the coin, 2 x 2^-9 = 0.0039; with the lean on, the same here:
no pair outside the cycle to read a lean from.  Each member passes the wood on after it arrives and before the next
arrival: in step, 7 of 2,000 shuffles of the nine transfers' order alternate as much, p = 8 / 2001, which is 0.08 of
the level 0.05; Fisher's product of 0.0039 and 0.08: t (1 - ln t) with t = 0.00031, 0.0028.)
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

import networkx as nx
import numpy as np

from .flags import Flag, ordered, pair_key
from .graph import Exchange, TransferView
from .mirrors import _close
from .stats import binom_sf, product_p

__all__ = ["CYCLE_NULL", "LEAN_NULL", "ORDER_NULL", "fit_lean", "in_step", "in_step_bound", "lean_tail", "rings_of",
           "wash_cycles", "with_order"]

Transfer = tuple[Any, ...]
"""``(tick, value, event ids)`` of one good along one leg; here also the :class:`Exchange`
that carried it (4th), whose other goods tell whether the members' positions changed."""

CYCLE_NULL = ("each transfer of the good between neighbours of the cycle was as likely to go either way "
              "(binomial, two-sided)")
"""The wash-cycle null, in words (the lean off, as shipped)."""

LEAN_NULL = ("each transfer of the good between neighbours of the cycle was as likely to go either way, each pair "
             "leaning one way or the other as hard as the match's pairs outside the cycle lean in that good "
             "(beta-binomial per pair, the lean a symmetric Beta fitted to those pairs; two-sided)")
"""The wash-cycle null with ``wash_cycle_lean`` on, in words."""


IN_STEP_DRAWS = 2000
"""Draws of the in-step null (:func:`in_step`): its p-value in steps of 1/2001, read against a level of 0.05."""

IN_STEP_CELLS = 250_000
"""Places shuffled at a time by :func:`in_step` (draws times transfers): a long cycle's null is drawn in pieces, so
its working memory stays at a few megabytes."""

IN_STEP_ROWS = 250
"""Draws made at a time by :func:`in_step` at most: a cycle clearly out of step stops after the first few."""

IN_STEP_FIRST_ROWS = 8
"""Draws made in :func:`in_step`'s first piece; each piece after it twice the last, up to :data:`IN_STEP_ROWS`
(a cycle out of step, most of those met, is past the level after a few draws)."""

IN_STEP_BUDGET = 20_000_000
"""Places the in-step rule shuffles in one match at most when it pays for the cycles met (``wash_cycle_in_step_pays``):
a crowd trading the same goods every way meets thousands of cycles, none joining a ring that would let the others be
skipped, each read with many draws; past it the cycles left are not read (none is a wash cycle) and the result says
so.  The simulated matches of its gate shuffled at most 2.5 million (a sample of them).  A cycle whose draws alone
would shuffle more than this is read by :func:`in_step_bound` instead, at no cost to it (configuration 2.32.0: the
simulator's 9-seat stream of 58,116 ticks, whose four longest cycles ran it out before, no longer does)."""

IN_STEP_SWAP = 8
"""How far one swap of two places in a cycle's order moves the runs (:func:`_runs`) at most: each leg is one
member's pass-ons and the next one's arrivals, so the two legs swapped touch four members at most (three, where the
legs meet at a member); a member holding one of them loses a place and gains one (its runs move by 2 at most), one
holding both sees two places change kind (4 at most): 8 in all, either way."""

IN_STEP_SAID = 0.05
"""The in-step p-value at most which a flag says its cycle was passed on in step, the rule on or off (the rule's
shipped level)."""

IN_STEP_SEED = 2021
"""The in-step null's fixed seed: the same match gives the same p-value, byte for byte."""

ORDER_NULL = ("; and each member's arrivals and pass-ons of the good in an order as likely as any other (the "
              "cycle's transfers shuffled, all its legs together), read within the in-step level, the two combined "
              "by Fisher's product")
ORDER_PAYS_NULL = ("; and each member's arrivals and pass-ons of the good in an order as likely as any other (the "
                   "cycle's transfers shuffled, all its legs together), read within the in-step level over the cycles "
                   "met, the two combined by Fisher's product")
"""What the wash-cycle null adds with the in-step rule on, in words."""

ORDER_BOUND_NULL = (" (the order's chance read by a bound on the shuffle's tail, the cycle too long to shuffle: "
                    "exp(-2 t^2 / ((n - 1) 64)), t the runs' excess over their mean, n its transfers)")
"""What a flag whose best cycle's order was read by :func:`in_step_bound` adds to its null."""

LEAN_GRID: tuple[float, ...] = tuple(0.05 * 1.25 ** i for i in range(48))
"""The symmetric Beta's ``alpha`` values the lean is fitted over (0.05 to about 1,800, each 1.25 times the last):
small, pairs lean hard one way or the other; at the top, every pair trades as evenly as a coin."""

MIN_LEAN_UNITS = 3
"""Fewest outside pairs (or pair-goods) that moved the good at least twice for the lean to be read from them."""


def _beta_binom_pmf(n: int, alpha: float) -> list[float]:
    """The chances of 0..``n`` transfers going one way when each pair's chance is drawn from a symmetric
    Beta(``alpha``, ``alpha``) (beta-binomial; finite ``alpha``: :func:`lean_tail` reads the coin itself).

    >>> [round(p, 4) for p in _beta_binom_pmf(2, 1.0)], [round(p, 4) for p in _beta_binom_pmf(2, 1000.0)]
    ([0.3333, 0.3333, 0.3333], [0.2501, 0.4998, 0.2501])
    """
    base = 2 * math.lgamma(alpha) - math.lgamma(2 * alpha)
    return [math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                     + math.lgamma(k + alpha) + math.lgamma(n - k + alpha) - math.lgamma(n + 2 * alpha) - base)
            for k in range(n + 1)]


def fit_lean(counts: list[tuple[int, int]]) -> float:
    """How hard the match's pairs lean one way in a good: ``alpha`` of the symmetric Beta that best explains
    ``counts`` (each pair's transfers one way and the other; those moving the good fewer than twice say nothing
    of a lean and are left out), by maximum likelihood over :data:`LEAN_GRID`.  Infinite (the coin) when fewer
    than :data:`MIN_LEAN_UNITS` pairs are left or the grid's largest ``alpha`` fits best.

    >>> fit_lean([(4, 0), (0, 4), (5, 0), (0, 3)]) < 0.1, fit_lean([(2, 2), (3, 3), (2, 2)]), fit_lean([(4, 0)])
    (True, inf, inf)
    """
    units = Counter((a, b) for a, b in counts if a + b >= 2)
    if sum(units.values()) < MIN_LEAN_UNITS:
        return math.inf
    best, best_alpha = -math.inf, math.inf
    for alpha in LEAN_GRID:
        # each unit's log chance under Beta(alpha, alpha), less the binomial coefficient (the same at every alpha)
        base = 2 * math.lgamma(alpha) - math.lgamma(2 * alpha)
        ll = math.fsum(k * (math.lgamma(a + alpha) + math.lgamma(b + alpha) - math.lgamma(a + b + 2 * alpha) - base)
                       for (a, b), k in sorted(units.items()))
        if ll > best:
            best, best_alpha = ll, alpha
    return math.inf if best_alpha == LEAN_GRID[-1] else best_alpha


def lean_tail(legs: list[tuple[int, int]], alpha: float) -> tuple[float, float]:
    """The cycle's direction test under a lean (module rule *the test*): each leg's ``(along, back)`` transfers,
    the count along beta-binomial with a symmetric Beta(``alpha``, ``alpha``) (the coin when infinite), the legs
    independent; twice the tail of the total along at least as far from half as observed (two-sided), and the
    smallest such value (every transfer along).

    >>> lean_tail([(3, 0), (3, 0), (3, 0)], math.inf)  # nine transfers along: 2 x 2^-9
    (0.00390625, 0.00390625)
    """
    if math.isinf(alpha):  # the coin: the total along is binomial (the same figures as the plain test)
        both = sum(a + b for a, b in legs)
        along = sum(a for a, _ in legs)
        return min(1.0, 2 * binom_sf(max(along, both - along), both, 0.5)), min(1.0, 2 * 0.5 ** both)
    dist = [1.0]
    for along, back in legs:
        pmf = _beta_binom_pmf(along + back, alpha)
        new = [0.0] * (len(dist) + len(pmf) - 1)
        for i, p in enumerate(dist):
            if p:
                for k, q in enumerate(pmf):
                    new[i + k] += p * q
        dist = new
    total = len(dist) - 1
    along = sum(a for a, _ in legs)
    far = max(along, total - along)
    return min(1.0, 2 * math.fsum(dist[far:])), min(1.0, 2 * dist[total])


def in_step(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]],
            draws: int | None = None, level: float = 1.0, budget: list[int] | None = None) -> tuple[float, int]:
    """Whether the cycle's members pass its good on in step with what arrives (module rule *in step*): the
    p-value and how many transfers it read.  Every transfer of the good along the cycle's legs, in tick order (at a
    tick they share, in the cycle's order from its first seat); per member, its arrivals and pass-ons in that order
    and the runs in them (stretches of one kind: ``in out in out`` is 4, ``in in out out`` 2), summed over the
    members (:func:`_runs`).  The null keeps each leg's count and shuffles which leg each place in the order
    belongs to, all the cycle's legs together (a leg is one member's pass-ons and the next one's arrivals), ``draws``
    (:data:`IN_STEP_DRAWS`) times from a fixed seed: ``p = (1 + draws at or above) / (1 + draws)``.  No transfer, 1.
    The draws are made in pieces, :data:`IN_STEP_FIRST_ROWS` first, each piece twice the last up to
    :data:`IN_STEP_ROWS` draws and :data:`IN_STEP_CELLS` places (the same draws, in the same order, as all at
    once), and stop once so many reached the statistic that the p-value is above
    ``level`` whatever the rest: the value returned is then that count's, a lower bound above ``level`` (a cycle
    out of step is never flagged, so no p-value it reads is shown).  ``budget`` (``[places left to shuffle, cycles
    not read]``, shared by a match's cycles: :data:`IN_STEP_BUDGET`) runs down by each piece drawn; a cycle met when
    it has run out is not read (1) and counted.

    >>> legs = {("a", "b"): [(0,), (10,), (20,)], ("b", "c"): [(1,), (11,), (21,)], ("c", "a"): [(2,), (12,), (22,)]}
    >>> in_step(("a", "b", "c"), legs)  # every member: in out in out in out (a: out in out in out in)
    (0.00399800099950025, 9)
    >>> legs = {("a", "b"): [(0,), (2,), (40,), (42,)], ("b", "c"): [(10,), (12,), (50,), (52,)],
    ...         ("c", "a"): [(20,), (22,), (60,), (62,)]}
    >>> in_step(("a", "b", "c"), legs)[0] > 0.05  # two at a time: in in out out in in out out
    True
    """
    size = len(cycle)
    order = _order(cycle, legs)
    n = order.shape[1]
    if not n:
        return 1.0, 0
    observed = int(_runs(order, size)[0])
    draws = IN_STEP_DRAWS if draws is None else draws
    rng = np.random.Generator(np.random.PCG64(IN_STEP_SEED))
    enough = level * (1 + draws) - 1  # more draws at or above than this: p above the level
    rows = max(1, min(IN_STEP_ROWS, IN_STEP_CELLS // n))
    piece = min(rows, IN_STEP_FIRST_ROWS)  # the pieces double up to ``rows``: a cycle out of step stops soon
    above = done = 0
    while done < draws and above <= enough:
        take = min(piece, draws - done)
        piece = min(rows, 2 * piece)
        if budget is not None:
            if budget[0] <= 0:
                budget[1] += 1
                return 1.0, n
            budget[0] -= take * n
        null = _runs(rng.permuted(np.repeat(order, take, axis=0), axis=1), size)
        above += int(np.count_nonzero(null >= observed))
        done += take
    return (1 + above) / (1 + draws), n


def _order(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]]) -> np.ndarray:
    """The cycle's order (module rule *in step*): one row, each of its good's transfers along the cycle in tick
    order as the leg it went along (leg ``k`` from seat ``k`` to seat ``k + 1``; at a tick they share, in the
    cycle's order from its first seat)."""
    size = len(cycle)
    marked = sorted((t[0], k) for k in range(size) for t in legs.get((cycle[k], cycle[(k + 1) % size]), ()))
    return np.array([[k for _, k in marked]], dtype=np.int16).reshape(1, len(marked))


def in_step_bound(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]]
                  ) -> tuple[float, int, tuple[int, float], float]:
    """The in-step rule's p-value for a cycle too long to shuffle (module rule *in step*): a bound on the chance
    that the order shuffled (:func:`in_step`'s null) gives at least the runs observed, without drawing any.

    Under the shuffle each member's places hold its arrivals and pass-ons in a uniformly random order, so the
    runs' mean is exact: ``1 + 2 a b / (a + b)`` for a member with ``a`` arrivals and ``b`` pass-ons (Wald and
    Wolfowitz), summed over the members.  Reveal the shuffled order one place at a time: the expected runs given
    what has been revealed is a martingale, and two values of the next place can be coupled by one swap of two
    places, which moves the runs by :data:`IN_STEP_SWAP` (8) at most; so each step moves the martingale within a
    range of 8, and by Hoeffding and Azuma the chance of an excess ``t`` over the mean is at most
    ``exp(-2 t^2 / ((n - 1) 64))``, ``n`` the transfers (1 where the runs are at or below the mean).  It returns
    ``(p, transfers, runs and their mean, smallest p the bound can give)``; the smallest is the bound at the most
    runs each member could show (every place a change of kind), which is what the test's floor reads.

    >>> laps = [(10 * lap,) for lap in range(30)]
    >>> legs = {("a", "b"): laps, ("b", "c"): [(t + 1,) for t, in laps], ("c", "a"): [(t + 2,) for t, in laps]}
    >>> p, n, (runs, mean), least = in_step_bound(("a", "b", "c"), legs)  # in out in out ..., 30 laps
    >>> (round(p, 4), n, runs, mean)  # exp(-2 x 87^2 / (89 x 64)) = 0.0701
    (0.0701, 90, 180, 93.0)
    """
    size = len(cycle)
    order = _order(cycle, legs)
    n = order.shape[1]
    if n < 2:
        return 1.0, n, (n, float(n)), 1.0
    counts = np.bincount(order[0], minlength=size).tolist()
    mean = most = 0.0
    for k in range(size):
        a, b = counts[(k - 1) % size], counts[k]
        if a + b:
            mean += 1 + 2 * a * b / (a + b)
            most += min(a + b, 2 * min(a, b) + 1)
    runs = int(_runs(order, size)[0])

    def tail(excess: float) -> float:
        return 1.0 if excess <= 0 else math.exp(-2 * excess * excess / ((n - 1) * IN_STEP_SWAP ** 2))

    return tail(runs - mean), n, (runs, mean), tail(most - mean)


def _runs(order: np.ndarray, size: int) -> np.ndarray:
    """Per row of ``order`` (each place the leg of the cycle a transfer went along, leg ``k`` from seat ``k`` to
    seat ``k + 1``), the runs summed over the members: member ``k`` reads leg ``k - 1`` (its arrivals) and leg ``k``
    (its pass-ons), a run each time the kind changes, and one to start.

    The rows are shuffles of one order (as :func:`in_step`'s are), so each holds a member's places equally often:
    its kinds are read row by row as one block (a member's places in order, side by side).

    >>> int(_runs(np.array([[0, 1, 2, 0, 1, 2]]), 3)[0]), int(_runs(np.array([[0, 0, 1, 1, 2, 2]]), 3)[0])
    (12, 6)
    >>> _runs(np.array([[0, 1, 2, 0, 1, 2], [0, 0, 1, 2, 2, 1]]), 3).tolist()  # one order shuffled
    [12, 7]
    """
    rows = order.shape[0]
    total = np.zeros(rows, dtype=np.int64)
    for k in range(size):
        mine = (order == (k - 1) % size) | (order == k)
        held = int(np.count_nonzero(mine[0]))
        if held:
            kinds = order[mine].reshape(rows, held)  # the member's kinds, row by row, in order
            total += 1 + np.count_nonzero(kinds[:, 1:] != kinds[:, :-1], axis=1)
    return total


def _good_flows(view: TransferView) -> dict[Any, dict[tuple[Any, Any], list[Transfer]]]:
    """Good -> (giver, taker) -> transfers of that good ``(tick, value, events, exchange)``,
    in time order."""
    flows: dict[Any, dict[tuple[Any, Any], list[Transfer]]] = {}
    exempt = view.exempt
    for x in view.exchanges:
        a, b = x.a, x.b
        if x.unvalued or a in exempt or b in exempt:
            continue
        for giver, taker in ((a, b), (b, a)):
            given = x.goods.get(giver)
            if not given:
                continue
            for good, value in given.items():
                if value > 0:
                    legs = flows.get(good)
                    if legs is None:
                        legs = flows[good] = {}
                    transfers = legs.get((giver, taker))
                    if transfers is None:
                        legs[(giver, taker)] = [(x.tick, value, x.events, x)]
                    else:
                        transfers.append((x.tick, value, x.events, x))
    return flows


def _cycles_in(component: nx.DiGraph, values: Mapping[tuple[Any, Any], float], max_len: int,
               ratio: float, budget: list[int]) -> list[tuple[Any, ...]]:
    """Simple cycles of 3..max_len nodes in one SCC, each found once from its smallest node,
    extending only along legs whose value stays within ``ratio`` of the path's others."""
    order = {n: i for i, n in enumerate(ordered(component.nodes))}
    successors = {n: ordered(component.successors(n)) for n in component.nodes}
    found: list[tuple[Any, ...]] = []
    for start in ordered(component.nodes):
        _extend(start, [start], {start}, float("inf"), 0.0, order, successors, values, max_len, ratio,
                budget, found)
    return found


def _extend(start: Any, path: list[Any], on_path: set[Any], lo: float, hi: float, order: Mapping[Any, int],
            successors: Mapping[Any, list[Any]], values: Mapping[tuple[Any, Any], float], max_len: int,
            ratio: float, budget: list[int], found: list[tuple[Any, ...]]) -> None:
    """Depth-first step of :func:`_cycles_in` (depth at most ``max_len``)."""
    node = path[-1]
    for nxt in successors[node]:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        value = values[(node, nxt)]
        nlo, nhi = min(lo, value), max(hi, value)
        if nhi > ratio * nlo:
            continue
        if nxt == start:
            if len(path) >= 3:
                found.append(tuple(path))
            continue
        if order[nxt] <= order[start] or nxt in on_path or len(path) >= max_len:
            continue
        path.append(nxt)
        on_path.add(nxt)
        _extend(start, path, on_path, nlo, nhi, order, successors, values, max_len, ratio, budget, found)
        path.pop()
        on_path.discard(nxt)


def _laps(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]], ratio: float,
          ticks_of: dict[tuple[Any, Any], list[Any]] | None = None,
          close_of: dict[tuple[Any, Any], dict[float, _Close]] | None = None) -> list[list[Transfer]]:
    """Time-consistent laps around ``cycle`` starting with its first leg (module docstring):
    each lap takes, leg after leg, the earliest unused transfer no earlier than the one
    before and worth within ``ratio`` of the lap's first.

    ``ticks_of`` keeps each leg's ticks across the cycles of one good (a long leg is in many of
    them: read once, not once per cycle and starting leg), and ``close_of`` each leg's transfers close to a
    first's worth (:class:`_Close`).  A leg found with no unused transfer
    close to a first worth ``x`` from tick ``t`` on has none from any later tick either (transfers
    are only used up): a later lap of a first worth ``x`` that reaches it at ``t`` or later stops
    there unread.  A first transfer later than the second leg's last unused one can start no lap,
    nor can any after it: the search stops there.  Per leg, the transfers close in worth to a first
    worth ``x`` are listed once (:class:`_Close`), and the earliest unused among them from a tick on is
    found by skipping the used ones a pointer at a time."""
    edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
    queues = [legs[e] for e in edges]  # sorted by tick (:func:`_good_flows`)
    ticks_of = {} if ticks_of is None else ticks_of
    ticks = [ticks_of[e] if e in ticks_of else ticks_of.setdefault(e, [t[0] for t in legs[e]]) for e in edges]
    used: list[set[int]] = [set() for _ in queues]
    last_free = len(queues[1]) - 1  # the second leg's last unused transfer
    spent: list[dict[Any, Any]] = [{} for _ in queues]  # per leg: a first's worth -> the tick it found none from
    close_of = {} if close_of is None else close_of
    near_of = [close_of.setdefault(e, {}) for e in edges]  # per leg: a first's worth -> its close transfers
    skips: list[dict[Any, dict[int, int]]] = [{} for _ in queues]  # per leg and first's worth: used ones skipped
    second = ticks[1]
    later = range(1, len(edges))
    laps: list[list[Transfer]] = []
    for i0, first in enumerate(queues[0]):
        tick, worth = first[0], first[1]
        if last_free < 0 or tick > second[last_free]:
            break  # none of the second leg's unused is this late (the first leg's ticks only grow)
        picks = [(0, i0)]
        for k in later:
            since = spent[k].get(worth)
            if since is not None and tick >= since:
                break
            near = near_of[k].get(worth)
            if near is None:
                near = near_of[k][worth] = _Close(queues[k], ticks[k], worth, ratio)
            skip = skips[k].get(worth)
            if skip is None:
                skip = skips[k][worth] = {}
            pick = near.first_unused(tick, used[k], skip)
            if pick is None:
                spent[k][worth] = tick if since is None else min(since, tick)
                break
            picks.append((k, pick))
            tick = queues[k][pick][0]
        if len(picks) < len(edges):
            continue
        for k, i in picks:
            used[k].add(i)
        while last_free >= 0 and last_free in used[1]:
            last_free -= 1
        laps.append([queues[k][i] for k, i in picks])
    return laps


class _Close:
    """One leg's transfers worth within ``ratio`` of ``worth`` (:func:`_laps`), in tick order: read once per
    good (kept across its cycles, as the legs' ticks are), and the earliest of them not yet used from a tick
    on.  Used transfers are only added, so each is skipped by a pointer to the next candidate once found used
    (``skip``, one cycle's: its own used transfers), the pointers shortened as they are followed.

    >>> queue = [(1, 5.0), (2, 9.0), (3, 5.5), (4, 5.0)]  # (tick, worth): 9.0 is not within 1.5 of 5.0
    >>> near, skip = _Close(queue, [1, 2, 3, 4], 5.0, 1.5), {}
    >>> near.first_unused(2, set(), skip), near.first_unused(1, {0, 2}, skip), near.first_unused(1, {0, 2, 3}, skip)
    (2, 3, None)
    >>> skip = {}
    >>> near.first_unused(1, {0}, skip), near.first_unused(1, {0}, skip)  # found but not used (its lap failed)
    (2, 2)
    """

    __slots__ = ("index", "ticks")

    def __init__(self, queue: list[Transfer], ticks: list[Any], worth: float, ratio: float) -> None:
        self.index = [i for i, t in enumerate(queue) if _close(worth, t[1], ratio)]
        self.ticks = [ticks[i] for i in self.index]

    def first_unused(self, tick: Any, used: set[int], skip: dict[int, int]) -> int | None:
        """The leg's index of the earliest candidate at or after ``tick`` that is not in ``used``, or ``None``;
        ``skip`` maps a candidate found used to a later one (kept across one cycle's calls)."""
        index = self.index
        start = q = bisect_left(self.ticks, tick)
        n = len(index)
        while q < n:
            r = skip.get(q)
            if r is not None:
                q = r
            elif index[q] in used:
                skip[q] = q = q + 1
            else:
                break
        while start < q:  # shorten the pointers followed
            skip[start], start = q, skip[start]
        return index[q] if q < n else None


def _qualifying(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]], ratio: float,
                threshold: float, max_imbalance: float,
                ticks_of: dict[tuple[Any, Any], list[Any]] | None = None,
                close_of: dict[tuple[Any, Any], dict[float, _Close]] | None = None
                ) -> tuple[list[list[Transfer]], float] | None:
    """The cycle's laps (best starting leg) and member imbalance, when it is a wash cycle (``ticks_of`` and
    ``close_of``: the good's legs' ticks and close transfers, kept across its cycles)."""
    close_of = {} if close_of is None else close_of
    most = min(len(legs[(cycle[k], cycle[(k + 1) % len(cycle)])]) for k in range(len(cycle)))  # a lap a transfer
    laps: list[list[Transfer]] = []
    for k in range(len(cycle)):  # the best starting leg: the first with the most laps
        turned = _laps(cycle[k:] + cycle[:k], legs, ratio, ticks_of, close_of)
        if not k or len(turned) > len(laps):
            laps = turned
        if len(laps) >= most:
            break  # no start can do better
    if len(laps) < threshold:
        return None
    size = len(cycle)
    inflow = [0.0] * size
    outflow = [0.0] * size
    for lap in laps:
        for k, t in enumerate(lap):
            outflow[k] += t[1]
            inflow[(k + 1) % size] += t[1]
    imbalance = max(abs(inflow[k] - outflow[k]) / (inflow[k] + outflow[k]) for k in range(size))
    if imbalance > max_imbalance:
        return None
    moved = _members_net_share([t[3] for lap in laps for t in lap if len(t) > 3])
    if moved > max_imbalance:
        return None  # the goods came back, but what paid for them moved for good: trade, not a wash
    return laps, max(imbalance, moved)


def _members_net_share(exchanges: list[Exchange]) -> float:
    """The largest member's net share over ``exchanges`` (each counted once): per member, for
    each good, ``|received - given|`` summed over ``received + given`` summed (the scoring rubric's *Trade
    ledger*, taken over a member's side of the lap exchanges).  0 when every member got back
    what it handed on -- the goods went round, nothing moved; about 0.5 when a currency went
    round paying for goods that moved for good (wood for food, food for fiber)."""
    gave: dict[tuple[Any, Any], float] = {}  # (member, good) -> value handed over
    got: dict[tuple[Any, Any], float] = {}
    for x in {id(x): x for x in exchanges}.values():  # each exchange once
        a, b = x.a, x.b
        for giver, taker in ((a, b), (b, a)):
            given = x.goods.get(giver)
            if given:
                for good, value in given.items():
                    k = (giver, good)
                    gave[k] = gave.get(k, 0.0) + value
                    k = (taker, good)
                    got[k] = got.get(k, 0.0) + value
    moved: dict[Any, float] = {}
    total: dict[Any, float] = {}
    for k in [*gave, *(k for k in got if k not in gave)]:  # in a fixed order: sums reproduce exactly
        out, back = gave.get(k, 0.0), got.get(k, 0.0)
        member = k[0]
        moved[member] = moved.get(member, 0.0) + abs(back - out)
        total[member] = total.get(member, 0.0) + back + out
    return max((moved[m] / total[m] for m in total if total[m] > 0), default=0.0)


Met = tuple[Any, dict[tuple[Any, Any], list[Transfer]], tuple[Any, ...]]
"""One cycle the search met: ``(good, that good's legs, the cycle's seats)``."""


def _met_cycles(flows: Mapping[Any, dict[tuple[Any, Any], list[Transfer]]], max_len: int, ratio: float,
                min_transfers: int, budget: list[int]) -> list[Met]:
    """Every cycle the search meets (module rule *wash cycle*): per good of ``flows`` (:func:`_good_flows`), legs
    of at least ``min_transfers`` transfers, cut to strongly connected components of three seats or more,
    searched within ``ratio`` (value consistency) and the ``budget`` of steps."""
    met: list[Met] = []
    for good, legs in flows.items():
        flow = nx.DiGraph()
        values: dict[tuple[Any, Any], float] = {}
        for (u, v), transfers in legs.items():
            if len(transfers) >= min_transfers:
                flow.add_edge(u, v)
                values[(u, v)] = sum(t[1] for t in transfers) / len(transfers)
        for nodes in nx.strongly_connected_components(flow):
            if len(nodes) >= 3:
                met += [(good, legs, c) for c in _cycles_in(flow.subgraph(nodes), values, max_len, ratio, budget)]
    return met


def outside_counts(flows: Mapping[Any, Mapping[tuple[Any, Any], list[Transfer]]], good: Any,
                   members: set[Any], suspects: frozenset[frozenset[Any]] | set[frozenset[Any]] = frozenset(),
                   ) -> list[tuple[int, int]]:
    """What the cycle's lean is read from (module rule *the test*): each pair sharing no seat with ``members``
    and not among ``suspects`` (pairs on a wash cycle), its transfers of ``good`` one way and the other; where
    fewer than :data:`MIN_LEAN_UNITS` such pairs moved it twice or more, every good's, each pair and good a unit
    (a pair leans towards a friend in its goods alike)."""
    def counts(goods: list[Any]) -> list[tuple[int, int]]:
        out: dict[tuple[Any, Any, Any], list[int]] = {}
        for g in goods:
            for (u, v), transfers in flows[g].items():
                if u in members or v in members or frozenset((u, v)) in suspects:
                    continue
                key = (g, *ordered((u, v)))
                out.setdefault(key, [0, 0])[0 if u == key[1] else 1] += len(transfers)
        return [(a, b) for a, b in out.values()]

    same = counts([good])
    if sum(a + b >= 2 for a, b in same) >= MIN_LEAN_UNITS:
        return same
    return counts(list(flows))


def with_order(direction: float, order: float, level: float) -> float:
    """A wash cycle's p-value with the in-step rule on (module rule *the test*): Fisher's product of the
    direction's p-value and the order's given that the cycle passed the rule at ``level``, ``order / level``
    (under honest play the order's p-value of a cycle that passed is uniform up to the level, and the shuffle reads
    the legs' counts, not which way each transfer went: the two are independent).

    >>> round(with_order(0.001, 0.0005, 0.05), 6), round(with_order(0.001, 0.025, 0.05), 6)
    (0.000125, 0.0043)
    """
    return product_p([direction, min(1.0, order / level)])


def _cycle_test(cycle: tuple[Any, ...], legs: Mapping[tuple[Any, Any], list[Transfer]], searched: int,
                lean: float = math.inf, order: float | None = None, level: float = 1.0,
                draws: int = IN_STEP_DRAWS, order_least: float | None = None) -> dict[str, Any]:
    """The cycle's test (module rule *the test*): the transfers of its good between neighbours
    of the cycle, ``along`` its way of ``transfers`` both ways, each leg's count along beta-binomial with a
    symmetric Beta(``lean``, ``lean``) (:func:`lean_tail`; infinite: each transfer a coin); with the in-step rule
    on (``level`` below 1), read with the ``order``'s p-value (:func:`in_step`, ``draws`` draws, its smallest
    ``1 / (1 + draws)``; or :func:`in_step_bound`, its smallest ``order_least``) by :func:`with_order`; the
    p-value and its smallest attainable value times the ``searched`` cycles the flagged one was chosen among."""
    edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
    counts = [(len(legs[(u, v)]), len(legs.get((v, u), ()))) for u, v in edges]
    p, least = lean_tail(counts, lean)
    if order is not None and level < 1:
        floor = 1 / (1 + draws) if order_least is None else order_least
        p, least = with_order(p, order, level), with_order(least, floor, level)
    along = sum(a for a, _ in counts)
    return {"p": min(1.0, p * searched), "min_p": min(1.0, least * searched), "along": along,
            "transfers": along + sum(b for _, b in counts), "searched": searched,
            "lean": None if math.isinf(lean) else lean}


def _qualified_cycles(met: list[Met], ratio: float, threshold: float, max_imbalance: float,
                      flows: Mapping[Any, Mapping[tuple[Any, Any], list[Transfer]]] | None = None,
                      level: float = 1.0, pays: bool = False,
                      shuffles: list[int] | None = None) -> tuple[nx.Graph, list[dict[str, Any]]]:
    """The cycles met that are wash cycles (:func:`_qualifying`, and :func:`in_step` at most ``level``), each with
    its test, and the graph of seats their legs join (a cycle adding no leg to a ring already found is skipped).
    With ``flows`` (the lean on), each test reads its lean (:func:`outside_counts`) from them without the pairs on
    any wash cycle: those are under test, no yardstick of honest play (two washes in one good would otherwise
    explain each other away); without, each transfer is a coin.  With ``pays`` (module rule *in step*,
    ``wash_cycle_in_step_pays``) the in-step rule reads each cycle at ``level`` over the cycles met, with draws
    enough for a cycle passed on in step at every arrival to reach it, within ``shuffles`` (``[places left to
    shuffle, cycles not read]``, :data:`IN_STEP_BUDGET` where not given); a cycle whose draws alone would shuffle
    more places than :data:`IN_STEP_BUDGET` is read by :func:`in_step_bound` instead, at no cost to it.  A
    cycle's ``in_step`` is ``(p, transfers, (runs, their mean) or None where shuffled, the smallest p)``."""
    searched = max(1, len(met))  # every cycle met is a hypothesis the flags are chosen among
    draws = IN_STEP_DRAWS
    budget: list[int] | None = None
    if pays and level < 1:
        level = level / searched
        draws = max(IN_STEP_DRAWS, math.ceil(2 / level))
        budget = shuffles if shuffles is not None else [IN_STEP_BUDGET, 0]
    rings = nx.Graph()
    found: list[tuple[Any, dict[tuple[Any, Any], list[Transfer]], tuple[Any, ...], list[list[Transfer]], float,
                      tuple[float, int, tuple[int, float] | None, float | None]]] = []
    ticks_of: dict[int, dict[tuple[Any, Any], list[Any]]] = {}  # per good's legs (by identity): each leg's ticks
    close_of: dict[int, dict[tuple[Any, Any], dict[float, _Close]]] = {}  # and its transfers close to a worth
    for good, legs, cycle in met:
        edges = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
        if all(rings.has_edge(u, v) for u, v in edges):
            continue  # adds nothing to a ring already found
        qualified = _qualifying(cycle, legs, ratio, threshold, max_imbalance, ticks_of.setdefault(id(legs), {}),
                                close_of.setdefault(id(legs), {}))
        if qualified is None:
            continue
        timing: tuple[float, int, tuple[int, float] | None, float | None]
        if budget is not None and sum(len(legs.get(e, ())) for e in edges) * draws > IN_STEP_BUDGET:
            timing = in_step_bound(cycle, legs)
        else:
            timing = (*in_step(cycle, legs, draws=draws, level=level, budget=budget), None, None)
        if timing[0] > level:
            continue  # the good was not passed on in step with what arrived: friends' trades, not a wash
        rings.add_edges_from(edges)
        found.append((good, legs, cycle, *qualified, timing))
    suspects = {frozenset(e) for e in rings.edges}
    cycles: list[dict[str, Any]] = []
    for good, legs, cycle, laps, imbalance, timing in found:
        lean = fit_lean(outside_counts(flows, good, set(cycle), suspects)) if flows else math.inf
        cycles.append({"cycle": cycle, "good": good, "laps": len(laps), "imbalance": imbalance,
                       "events": {e for lap in laps for t in lap for e in t[2]}, "in_step": timing,
                       **_cycle_test(cycle, legs, searched, lean, timing[0], level, draws, timing[3])})
    return rings, cycles


def rings_of(cycles: list[tuple[Any, ...]]) -> list[list[int]]:
    """The rings the qualifying ``cycles`` make (module rule *wash cycle*): the indices of the cycles in each,
    cycles joined when they share a pair of seats (two seats; through others too), each ring's in the cycles'
    order, the rings in the order of their first cycle.

    >>> rings_of([("a", "b", "c"), ("b", "x", "y"), ("a", "c", "d"), ("x", "y", "z")])
    [[0, 2], [1, 3]]
    """
    joined = nx.Graph()
    joined.add_nodes_from(range(len(cycles)))
    first: dict[frozenset[Any], int] = {}  # each pair of seats: the first cycle holding it
    for i, cycle in enumerate(cycles):
        for pair in combinations(cycle, 2):
            joined.add_edge(first.setdefault(frozenset(pair), i), i)
    joined.remove_edges_from(nx.selfloop_edges(joined))
    return sorted((sorted(ring) for ring in nx.connected_components(joined)), key=lambda ring: ring[0])


def _ring_flag(view: TransferView, members: list[Any], inside: list[dict[str, Any]], rings: nx.Graph,
               threshold: float, circular: Mapping[Any, Any], null: str = CYCLE_NULL,
               in_step_level: float = IN_STEP_SAID) -> Flag:
    """One ring's flag (``members``, its seats in order; ``inside``, its cycles): its best cycle (most laps, then
    smallest p-value, then shortest) named first, every cycle inside it as evidence, its pairs' net shares in the
    explanation, and that it was passed on in step where its order's p-value is at most ``in_step_level`` (the
    rule's level, or :data:`IN_STEP_SAID` with the rule off); ``null`` the test's, in words."""
    best = max(inside, key=lambda c: (c["laps"], -c["p"], -len(c["cycle"])))
    cycle = best["cycle"]
    pairs = ordered({pair_key(u, v) for u, v in rings.subgraph(members).edges})
    shares = {f"{a}~{b}": round(view.pair(a, b).net_share, 3) for a, b in pairs}
    least = min(shares.values())
    path = " -> ".join(str(n) for n in (*cycle, cycle[0]))
    others = [n for n in members if n not in cycle]
    details: dict[str, Any] = {
        "cycle": list(cycle),
        "laps": best["laps"],
        "cycles": [{"cycle": list(c["cycle"]), "good": c["good"], "laps": c["laps"]}
                   for c in sorted(inside, key=lambda c: (-c["laps"], repr(c["cycle"])))[:10]],
        "cyclesFound": len(inside),
        "memberImbalance": round(best["imbalance"], 4),
        "pairNetShare": shares,
        "good": best["good"],
        "transfersAlong": best["along"],
        "transfers": best["transfers"],
        "minP": best["min_p"],
        "cyclesSearched": best["searched"],
        "lean": None if best["lean"] is None else round(best["lean"], 4),
        "inStep": {"p": best["in_step"][0], "transfers": best["in_step"][1]},
    }
    bound = best["in_step"][2]
    if bound is not None:  # read by the bound on the shuffle's tail (too long to shuffle)
        details["inStep"]["bound"] = {"runs": bound[0], "mean": round(bound[1], 3)}
    if circular:
        details["circularReputation"] = {str(n): circular[n] for n in members if n in circular}
    return Flag(
        screen="ring",
        kind="wash_cycle",
        level="flag",
        agents=(*cycle, *others),
        pairs=tuple(pairs),
        score=float(best["laps"]),
        threshold=threshold,
        evidence=tuple(ordered({e for c in inside for e in c["events"]})),
        explanation=(
            f"Goods went around {path} {best['laps']} times and came back where they started"
            + (f" ({len(inside)} such cycles among {len(members)} seats)" if len(inside) > 1 else "")
            + (f", each seat passing them on between one arrival and the next (in step: p {best['in_step'][0]:.2g}"
               + (f", a bound: {bound[0]:,} runs where a shuffle gives {bound[1]:,.0f} on average)"
                  if bound is not None else ")")
               if best["in_step"][0] <= in_step_level else "")
            + (f", though each pair's trades look one-way (net share {least:.3f} or more), "
               "which circular reputation cannot see."
               if least >= 0.5 else
               f", farming trades and reputation (pairs' net share as low as {least:.3f}).")
        ),
        details=details,
        p_value=best["p"],
        null=null + (ORDER_BOUND_NULL if bound is not None else ""),
    )


def wash_cycles(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Flag], list[str]]:
    """Goods that go around a cycle of three or more, passed on in step at ``params["wash_cycle_in_step"]`` (module
    rules *wash cycle*, *in step*), tested as coins or, with ``params["wash_cycle_lean"]``, against the match's lean
    (module rules *the test*, *the lean*).

    Cycles that share a pair of seats are one ring (:func:`rings_of`): one flag per ring, naming its
    best cycle first.  Returns the flags and notes (e.g. the search budget ran out).
    """
    ratio = float(params["max_leg_ratio"])
    threshold = float(params["cycle_threshold"])
    budget = [int(params["max_search_steps"])]
    flows = _good_flows(view)
    met = _met_cycles(flows, int(params["max_cycle_length"]), ratio, max(1, int(threshold)), budget)
    lean = bool(params["wash_cycle_lean"])
    level = float(params["wash_cycle_in_step"])
    pays = bool(params.get("wash_cycle_in_step_pays"))
    shuffles = [IN_STEP_BUDGET, 0]
    rings, cycles = _qualified_cycles(met, ratio, threshold, float(params["max_member_imbalance"]),
                                      flows if lean else None, level, pays, shuffles)
    notes: list[str] = []
    if budget[0] <= 0:
        notes.append(f"ring: the cycle search stopped after {int(params['max_search_steps'])} steps; "
                     "some cycles may be missing")
    if shuffles[1]:
        notes.append(f"ring: the in-step rule stopped after shuffling {IN_STEP_BUDGET:,} places; {shuffles[1]:,} "
                     f"{'cycle was' if shuffles[1] == 1 else 'cycles were'} not read and may be missing")
    circular = view.graph.graph.get("circular_reputation") or {}
    groups = [[cycles[i] for i in ring] for ring in rings_of([c["cycle"] for c in cycles])]
    seated = sorted(((ordered({n for c in inside for n in c["cycle"]}), inside) for inside in groups),
                    key=lambda group: repr(group[0]))
    null = (LEAN_NULL if lean else CYCLE_NULL) + ((ORDER_PAYS_NULL if pays else ORDER_NULL) if level < 1 else "")
    flags = [_ring_flag(view, members, inside, rings, threshold, circular, null, min(level, IN_STEP_SAID))
             for members, inside in seated]
    return flags, notes
