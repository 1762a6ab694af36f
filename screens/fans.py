"""Fan-in and fan-out: many one-off counterparties in a short window, with alike amounts.

Money-laundering typologies *fan-in* (many accounts pay one: placement split across
mules, collected by one beneficiary) and *fan-out* (one account pays many: the proceeds
split to mules).  What tells them from an honest hub is not the degree (a shop has many
customers, an employer many employees) but the **coordination**: many *distinct*
counterparties, each a one-off relationship with the hub, inside one short window, with
amounts alike.  An honest merchant's customers pay spread over the whole period; an
employer pays the same employees period after period (a recurring relationship, not a
one-off one).

**The rule, per node and direction.**  A counterparty is *one-off in a window* when every
transfer between it and the node (in that direction) lies in the window.  For each
transfer ``a`` of the node that is the first of a one-off counterparty (the *anchor*), the
box is the window ``[t_a, t_a + w]`` and the amount band ``[x_a / r, x_a * r]``; ``k`` is the
number of distinct counterparties whose first transfer lies in the box and who are
one-off in the window (the anchor's own included).  ``w`` runs over ``window_steps``
windows from ``min_window`` to ``max_window`` (shares of the graph's time span, on a
geometric grid), ``r`` over ``tight_ratio`` and ``loose_ratio``.

**The null** (:mod:`~daishi_forensics.screens.transfer_arrays`): ticks and values shuffled
among all the graph's transfers.  A counterparty with ``m`` transfers to the node then
lands in the box, one-off, with chance about ``q_t ** m * min(1, m * q_x)``.  ``q_t`` is the
share of the graph's transfers with a tick in the window -- or the share of the node's
*other* dealings (its transfers either way, the box's own left out) that fall in the
window, whichever is larger: a node busy then for its own reasons (a burst of income it
passes on) is measured against its own rhythm.  ``q_x`` is the share of the graph's
transfers with a value in the band -- or the share of the node's *other* transfers in
that direction (the box's left out) in the band, whichever is larger: a shop that sells at
one price has alike amounts by nature.  For a counterparty that deals with the node once
(``m = 1``, what a member of the box is) both shares are read among *one-off* payments only: the
share of the graph's one-off payments (a payer's only payment to that payee; the box's own left
out, shrunk towards the share of all payments with ``_ONE_OFF_PRIOR`` pseudo-payments) in the band,
or the node's own other one-off payments in it, whichever is larger.  The shuffle is then one of
amounts among one-off payments: where strangers pay households dinner shares and gifts, a stranger
paying one six hundred is rare, however many salaries of that size the graph holds (and a salary in
the band no longer makes it ordinary for the household that receives it); a shop whose one-off
customers pay its prices is still measured against them.  The expected count is the sum over the node's other counterparties,
``lambda``; the box's p-value is the Poisson tail ``P(X >= k - 1)``.  The node's p-value is
the smallest over its boxes, each times the number of boxes of its cell (the node's
anchors for that window) and the number of cells of the grid: Bonferroni inside the
node.  ``tests`` is the number of nodes with at least ``min_fan`` counterparties in that
direction; nodes are flagged by the Benjamini-Hochberg step-up rule over those tests at
level ``alpha`` (:func:`~daishi_forensics.screens.transfer_arrays.step_up_cutoff`): the
false-discovery rate is at most ``alpha`` per direction, and on a graph with nothing to
find the chance of any flag is at most ``alpha``.  The flag's threshold is the cut-off.

**Groups that recur (fan-in).**  Where people settle up in small groups -- friends paying one
of them back their share of a dinner on one evening, a savings circle paying its taker -- a
few one-off payers at one tick with alike amounts are real coordination, but honest: the
shuffled null cannot tell them from placement.  What the graph itself shows is how big such
groups are: the same test, run on counterparties whose dealings with the node *outlast* the
window (the same friends again and again: they cannot be one-off mules), finds each node's
largest recurring group more coordinated than its own rhythm and the shuffled graph explain
(chance of a counterparty with ``m`` transfers landing in the box ``1 - (1 - q_t) ** m``,
Bonferroni over the node's anchors and the grid, at ``alpha / tests``).  The graph's *honest
group size* ``g`` for a box is read at the box's scale: the ``group_quantile`` quantile (the
median), over the nodes that have one (at least ``min_groups`` of them), of their largest recurring
group that pays alike (found in the tight band) in that window or a narrower one, whose anchor's amount
is within a factor ``group_scale`` of the box's (:func:`_group_size_at`): friends splitting dinners of
forty say nothing about strangers paying six hundred each, and a landlord's tenants, each paying its own
rent of one scale, are no group paying one share.  A group pays alike shares, so it explains only the
members of the box that pay alike: at most the members within the tight band squared of the anchor's
amount (each within the tight band of one share), less one.  A one-off box is then tested on the
members beyond one such group: ``P(X >= k - g)`` (``k - g + 1 >= 2``).  Not where the hub *passes the
money on*: what it pays out from the box's start to the shortest window after the box's end (at once)
is within ``pass_cut`` of what came in through the box (the gather-scatter rule's margin), and more
than it pays out in any other span that long, starting at one of its payments (:func:`_largest_elsewhere`):
the onward wire is out of the ordinary for the hub.  Friends paying back a dinner do not see that sum
wired onward at once; a collector's deposits are.  A household's rent, bills and shopping match a
dinner's few shares by chance, as they do in other weeks of its year, and are no evidence.
On a graph where nobody pays in recurring groups (``g = 0``), nothing changes.  Fan-outs
are not adjusted: a fan-out that recurs is a payroll, and its staff are not one-off.

**Honest friend webs** (fan-in; ``web_ties``, 0 turns it off).  Friends who settle up with one of them also
settle up with each other: the members of an honest group pay each other at other times (one of
them hosted last month), so a box of them is a web of people who know each other.  A laundering
fan's members are one-off counterparties of the hub drawn from anywhere: strangers to each
other, even where one of them is the hub's own contact, or a busy account whose contacts are
drawn in with it (a star, not a web).  So a member that dealt, either way, at any time, with at
least ``web_ties`` (two) other members of the box is *webbed* and left out of the count: the box is
tested on ``k - webbed`` members (less the group above).  Leaving members out only lowers the
count against the same chance count ``lambda``, so the p-value stays valid under the shuffled null
(it errs on the strict side).  Only boxes that could be flagged without it (adjusted p at most
``alpha``, which bounds the step-up cut-off) are read member by member.

**A community in common** (fan-in; ``shared_level``, 0 turns it off).  Colleagues chipping in for a
gift are one-off payers with alike amounts in a short window, the organiser spends the sum at once (as
a collector passes money on), and colleagues seldom pay each other (no web): every rule above reads
them as smurfing.  What they share is an employer: a counterparty that pays each of them again and
again and few others.  A laundering fan's payers are drawn from anywhere.  So each member's *standing
counterparties* (:func:`standing_counterparties`: dealt with, either way, at least ``shared_transfers``
times) are read, and a counterparty other than the hub that more of the box's members share than
members drawn at random would (:func:`shared_community`: binomial in its own standing counterparties'
share of the graph, Bonferroni over the counterparties the members have, at ``shared_level``) makes
those members one community, left out of the count as the webbed ones are (``k - webbed - shared``;
the p-value stays valid, on the strict side).  A counterparty of much of the graph (a utility, an
employer of half the town) makes no community.

**A stated sum** (fan-in; ``stated_sums``, 0 turns it off).  A club's members paying the season's fee to
its treasurer, a fundraiser's donors giving ten or twenty, relatives sending a birthday's customary fifty:
one-off payers, alike amounts, a short window, the sum passed on soon after (to the league, the charity),
strangers to each other with no employer in common -- every rule above reads smurfing.  What they pay is
a sum someone *stated* (the collector, or custom), the very same amount (to twelve significant digits, whatever the unit): many payers made one
choice.  Payers who each move a share of proceeds, or an amount drawn for them, pay amounts of one scale
but seldom the very same amount.  So the members left (neither webbed nor shared) are counted once per
amount they paid: those beyond the first at each amount are *stated* and left out of the count
(``k - webbed - shared - stated``), as the others are; the p-value stays valid, on the strict side.

**Regulars in the box** (fan-in; ``regular_payers``, 0 turns it off).  A laundering fan-in's members
are drawn from anywhere, the hub's own contacts among them: those already paid the hub, are not one-off,
and are no member of the box.  Once a box is flagged, the hub's regular payers (two or more payments to
it; :func:`regulars_in`) that paid it an amount *new for them* -- no other of their payments to the hub
within ``regular_novel`` of it -- from the box's window as long again before its start to its end (a
case's members drawn from the hub's contacts often paid days before its first one-off member), at the box
members' scale (their smallest amount over ``regular_margin`` to their largest times it), are counted,
``k``, against their chance count.  A flatmate's monthly rent share, a car pool's fuel share, a circle's
dues are the same amount every time: not new.  Each regular with ``m`` payments to the hub pays a new one
there with chance at most ``m * q_t * q_x * (1 - q_n) ** (m - 1)``: ``q_t`` the graph's share of transfers
in the window or the hub's own other dealings' (the box's and the counted ones left out), whichever is
larger, ``q_x`` the graph's share in the band, ``q_n`` a floor of the graph's share within ``regular_novel``
of an amount of the band (:func:`_share_floor`; under the shuffle each other payment of the regular misses
that factor with at least chance ``1 - q_n``).  The sum is ``lambda``, the p-value ``P(X >= k)``, Poisson,
valid under the shuffled null (on the strict side); the flagged boxes' regulars are named with them by
the Benjamini-Hochberg step-up rule at ``alpha`` over the flagged boxes.  A test of its own: the box was
chosen by its one-off members, which the shuffle moves independently of the regulars.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i in range(300):  # background: thirty accounts paying each other now and then over 300 ticks
...     _ = G.add_edge(f"b{i % 30}", f"b{(i * 7 + 3) % 30}", value=5.0 + i % 13, tick=i, event=f"n{i}")
>>> for i in range(8):  # eight one-off senders within three ticks, alike amounts
...     _ = G.add_edge(f"m{i}", "hub", value=100.0 + i, tick=50 + i % 4, event=f"f{i}")
>>> [(f.kind, f.agents[0], len(f.agents) - 1) for f in fans(TransferView(G), DEFAULTS)]
[('fan_in', 'hub', 8)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from .flags import Flag, ordered, pair_key
from .graph import TransferView
from .stats import binom_sf
from .transfer_arrays import TransferArrays, net_trades, poisson_tail, step_up_cutoff

__all__ = ["DEFAULTS", "FanBox", "Regulars", "Standing", "arrays_of", "fan_boxes", "fan_boxes_of", "fan_flag", "fans",
           "regulars_in", "shared_community", "standing_counterparties", "web_ties", "window_grid"]

DEFAULTS: Mapping[str, Any] = {
    "alpha": 0.01, "min_fan": 3, "min_window": 0.005, "max_window": 0.1, "window_steps": 4,
    "tight_ratio": 1.05, "loose_ratio": 2.0, "group_quantile": 0.5, "min_groups": 3, "pass_cut": 0.2,
    "web_ties": 2, "shared_transfers": 3, "shared_level": 0.001, "group_scale": 2.0, "stated_sums": 1,
    "regular_payers": 1, "regular_novel": 1.25, "regular_margin": 1.25,
}
"""The shipped parameters (``screens/config.json``), for doctests and callers without a config."""

_M_BUCKETS = 5
"""Counterparties with 5 or more transfers are counted as 5 in the null (conservative: the
chance term ``q_t ** m * m * q_x`` falls with ``m``)."""


_ONE_OFF_PRIOR = 10.0
"""Pseudo-payments by which the share of the graph's one-off payments in a band is shrunk towards the
share of all its payments: a graph with few one-off payments besides the box is measured mostly
against all its amounts, not against the box alone."""


_M_RECURRING = 12
"""A recurring counterparty with 12 or more transfers is counted as 12 in the group null (its
chance of landing in a box, ``1 - (1 - q_t) ** m``, grows with ``m``: counting fewer is strict on
what counts as an honest group)."""

@dataclass(frozen=True)
class FanBox:
    """The most coordinated box of one node in one direction."""

    hub: int
    """Node index (into :attr:`TransferArrays.nodes`)."""
    direction: str
    """``in`` (fan-in: counterparties pay the hub) or ``out`` (fan-out)."""
    p_value: float
    """Bonferroni-adjusted within the node (boxes x grid)."""
    raw_p: float
    """The box's own Poisson tail."""
    count: int
    """Distinct one-off counterparties in the box (``k``)."""
    expected: float
    """``lambda``: how many the null expects besides the anchor's."""
    window: float
    """Window width, in ticks."""
    ratio: float
    """Amount band ratio ``r``."""
    start: float
    """Tick of the anchor (the window starts there)."""
    members: tuple[int, ...]
    """Counterparty node indices in the box, in order of their first transfer."""
    rows: tuple[int, ...]
    """Transfer rows (into the arrays) of the members with the hub, in the window."""
    value: float
    """Total value the members moved with the hub in the window."""
    explained: int = 0
    """Members (besides the first) that one honest group of the graph accounts for, left out of the test."""
    webbed: int = 0
    """Members that deal with another member of the box (either way, at any time): a web of people who
    know each other, left out of the test (*honest friend webs*)."""
    shared: int = 0
    """Members (not webbed) that share a standing counterparty with others of the box far beyond chance:
    colleagues of one employer, members of one club, left out of the test (*a community in common*)."""
    stated: int = 0
    """Members (neither webbed nor shared) that paid the very amount another of them paid: a sum
    stated by the collector (a fee, a ticket, a customary gift), counted once per amount (*a stated sum*)."""
    anchor: float = 0.0
    """The anchor's amount: the band is ``[anchor / ratio, anchor * ratio]``."""


def window_grid(span: float, params: Mapping[str, Any]) -> list[float]:
    """The windows scanned, in ticks: ``window_steps`` shares of ``span`` from ``min_window``
    to ``max_window``, geometric.

    >>> window_grid(200.0, {"min_window": 0.005, "max_window": 0.1, "window_steps": 3})
    [1.0, 4.472136, 20.0]
    """
    lo, hi = float(params["min_window"]), float(params["max_window"])
    steps = max(int(params["window_steps"]), 1)
    if steps == 1:
        return [round(span * hi, 6)]
    return [round(span * lo * (hi / lo) ** (i / (steps - 1)), 6) for i in range(steps)]


def arrays_of(view: TransferView, params: Mapping[str, Any] | None = None) -> TransferArrays:
    """The view's :class:`TransferArrays` (read once per view, shared by the typology screens): with
    ``params["net_trades"]`` (the general setting, handed to each typology), each trade read as one transfer of
    its net value, a fair one as none (:func:`~daishi_forensics.screens.transfer_arrays.net_trades`, at the view's
    ``fair_ratio``); else every leg."""
    found: TransferArrays = view.memo[("transfer_arrays",)]  # made as the view read the graph (or its flows)
    if params is None or not params.get("net_trades"):
        return found
    return view.once(("transfer_arrays", "net"), lambda: _net_arrays(view, found))


def _net_arrays(view: TransferView, found: TransferArrays) -> TransferArrays:
    keys, unvalued = view.memo[("transfer_legs",)]  # made with the arrays: each row's exchange
    return net_trades(found, keys, unvalued, view.fair_ratio)


@dataclass(frozen=True)
class _FanIndex:
    """One direction's transfers of the tested hubs, sorted by (hub, tick, value, row), with the per-pair and
    per-node arrays every box reads (built once by :func:`_fan_index`)."""

    arrays: TransferArrays
    direction: str
    n_nodes: int
    min_fan: int
    tests: int
    other_all: np.ndarray
    """The counterparty of every transfer of the graph (its payer for a fan-in)."""
    pair_m: np.ndarray
    pair_tmin: np.ndarray
    pair_tmax: np.ndarray
    pair_hub: np.ndarray
    by_m: np.ndarray
    """Counterparties per hub by their transfers with it (capped at ``_M_BUCKETS``)."""
    edges_of: np.ndarray
    rows: np.ndarray
    hub: np.ndarray
    tick: np.ndarray
    value: np.ndarray
    pair: np.ndarray
    logv: np.ndarray
    own_key: np.ndarray
    """The node's own values, sorted per hub (``hub * stride_v + log value - lmin``)."""
    lmin: float
    stride_v: float
    first_of_pair: np.ndarray
    windows: list[float]
    ratios: list[float]
    grid: int
    stride_t: float
    t0: float
    activity_key: np.ndarray
    """Every transfer of each node, either direction, by (node, tick): the node's own activity."""
    activity: np.ndarray
    out_key: np.ndarray
    """Every payment of each node by (payer, tick), with running totals ``out_cum``."""
    out_cum: np.ndarray
    one_off_values: np.ndarray
    """The values of the transfers of pairs that dealt once in this direction, sorted: the amounts one-off
    payments take in this graph."""
    own_one_key: np.ndarray
    """The node's own one-off values, sorted per hub (as ``own_key``)."""
    one_offs_of: np.ndarray
    """One-off transfers per node in this direction."""


_Best = tuple[float, float, int, int, float, float, float, int, int, int, int]
"""A hub's best box so far: adjusted and raw p, count, anchor position, window, band, chance count,
explained, webbed, shared and stated members."""


@dataclass(frozen=True)
class _Known:
    """Who knows whom, for a fan-in's members (*honest friend webs*, *a community in common*)."""

    ties: set[int]
    """Pairs that dealt with each other at all (:func:`web_ties`)."""
    web: int
    """``web_ties``: a member tied to this many others of the box is webbed."""
    standing: Standing | None
    """Standing counterparties of every node (None: the shared rule is off)."""
    level: float
    """``shared_level``."""
    stated: bool = False
    """``stated_sums``: members paying the very same amount are counted once per amount."""


def _known_of(arrays: TransferArrays, direction: str, params: Mapping[str, Any]) -> _Known | None:
    """The ties the fan-in's member rules read (None for a fan-out, or with both rules off)."""
    web = int(params["web_ties"])
    level = float(params["shared_level"])
    stated = float(params["stated_sums"]) > 0
    if direction != "in" or (web <= 0 and level <= 0 and not stated):
        return None
    stand = standing_counterparties(arrays, int(params["shared_transfers"])) if level > 0 else None
    return _Known(web_ties(arrays, 1) if web > 0 else set(), web, stand, level, stated)


def fan_boxes(arrays: TransferArrays, direction: str, params: Mapping[str, Any]) -> tuple[list[FanBox], int]:
    """The best box of every node with at least ``min_fan`` counterparties in ``direction``,
    and ``tests`` (how many such nodes).  Vectorised over all the graph's transfers."""
    if direction not in ("in", "out"):
        raise ValueError(f"direction is 'in' or 'out', not {direction!r}")
    if arrays.size == 0 or arrays.span <= 0:
        return [], 0
    ix = _fan_index(arrays, direction, params)
    if ix is None:
        return [], 0
    best_p = np.ones(ix.n_nodes)
    best: dict[int, _Best] = {}
    known = _known_of(arrays, direction, params)
    groups = _honest_groups(ix, params)
    for w in ix.windows:
        _scan_window(ix, w, groups, params, known, best_p, best)
    boxes: list[FanBox] = []
    for h in sorted(best):
        adj_p, raw_p, k, pos, w, r, lam_h, explained, webbed_h, shared_h, stated_h = best[h]
        boxes.append(_box(arrays, direction, h, ix.rows, ix.pair, ix.pair_tmax, ix.first_of_pair, ix.hub, ix.tick,
                          ix.logv, pos, w, r, adj_p, raw_p, k, lam_h, ix.other_all, explained, webbed_h, shared_h,
                          stated_h))
    return boxes, ix.tests


def _fan_index(arrays: TransferArrays, direction: str, params: Mapping[str, Any]) -> _FanIndex | None:
    """The sorted transfers and per-pair arrays of one direction (None: no node has ``min_fan``
    counterparties in it)."""
    hub_all, other_all = (arrays.dst, arrays.src) if direction == "in" else (arrays.src, arrays.dst)
    n_nodes = len(arrays.nodes)
    min_fan = int(params["min_fan"])
    # pairs (hub, counterparty): transfers, first and last tick
    pair_code = hub_all * n_nodes + other_all
    pairs, pair_of, pair_m = np.unique(pair_code, return_inverse=True, return_counts=True)
    pair_tmin = np.full(pairs.shape[0], np.inf)
    pair_tmax = np.full(pairs.shape[0], -np.inf)
    np.minimum.at(pair_tmin, pair_of, arrays.tick)
    np.maximum.at(pair_tmax, pair_of, arrays.tick)
    pair_hub = pairs // n_nodes
    counterparties = np.bincount(pair_hub, minlength=n_nodes)
    tested = counterparties >= min_fan
    tests = int(tested.sum())
    if tests == 0:
        return None
    by_m = np.zeros((_M_BUCKETS + 1, n_nodes))
    np.add.at(by_m, (np.minimum(pair_m, _M_BUCKETS), pair_hub), 1.0)
    edges_of = np.bincount(hub_all, minlength=n_nodes)
    # every row of a tested hub, by (hub, tick, value, row)
    rows = np.flatnonzero(tested[hub_all])
    rows = rows[np.lexsort((rows, arrays.value[rows], arrays.tick[rows], hub_all[rows]))]
    hub, tick, value = hub_all[rows], arrays.tick[rows], arrays.value[rows]
    pair = pair_of[rows]
    logv = np.log(value)
    # the node's own values, sorted per hub, for its own share of a band
    own = rows[np.lexsort((arrays.value[rows], hub_all[rows]))]
    lmin = float(np.log(arrays.sorted_values[0]))
    stride_v = float(np.log(arrays.sorted_values[-1])) - lmin + 2 * math.log(max(float(params["loose_ratio"]), 1.0)) + 2
    own_key = hub_all[own] * stride_v + (np.log(arrays.value[own]) - lmin)
    first_of_pair = np.zeros(rows.shape[0], dtype=bool)
    seen = np.full(pairs.shape[0], -1)
    order_first = np.arange(rows.shape[0])[::-1]
    seen[pair[order_first]] = order_first  # last write wins: the earliest position of each pair
    first_of_pair[seen[seen >= 0]] = True
    windows = window_grid(arrays.span, params)
    ratios = sorted({float(params["tight_ratio"]), float(params["loose_ratio"])})
    grid = len(windows) * len(ratios)
    stride_t = arrays.span * 2 + max(windows) + 2
    t0 = float(arrays.sorted_ticks[0])
    # every transfer of each node, either direction, by (node, tick): the node's own activity
    ends = np.concatenate([arrays.src, arrays.dst])
    activity_key = np.sort(ends * stride_t + (np.concatenate([arrays.tick, arrays.tick]) - t0))
    activity = np.bincount(ends, minlength=n_nodes)
    # every payment of each node by (payer, tick), with running totals: what a hub passed on after a box
    out_order = np.lexsort((arrays.tick, arrays.src))
    out_key = arrays.src[out_order] * stride_t + (arrays.tick[out_order] - t0)
    out_cum = np.concatenate([[0.0], np.cumsum(arrays.value[out_order])])
    single = pair_m[pair_of] == 1
    one_off_values = np.sort(arrays.value[single])
    own_one = own[single[own]]
    own_one_key = hub_all[own_one] * stride_v + (np.log(arrays.value[own_one]) - lmin)
    one_offs_of = np.bincount(hub_all[single], minlength=n_nodes)
    return _FanIndex(arrays, direction, n_nodes, min_fan, tests, other_all, pair_m, pair_tmin, pair_tmax, pair_hub,
                     by_m, edges_of, rows, hub, tick, value, pair, logv, own_key, lmin, stride_v, first_of_pair,
                     windows, ratios, grid, stride_t, t0, activity_key, activity, out_key, out_cum,
                     one_off_values, own_one_key, one_offs_of)


def _shares(ix: _FanIndex, c_hub: np.ndarray, t: np.ndarray, x: np.ndarray, q_glob_t: np.ndarray | None,
            busy_c: np.ndarray | None, k: np.ndarray, w: float, r: float,
            one_off: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The chance a counterparty's transfer lands in the box's window and band: the graph's
    share, or the node's own (the box's ``k`` transfers left out), whichever is larger."""
    arrays = ix.arrays
    band = math.log(r) + 1e-12
    lv = np.log(x)
    q_glob = arrays.value_mass(x / r, x * r)
    lo_key = c_hub * ix.stride_v + (lv - band - ix.lmin)
    hi_key = c_hub * ix.stride_v + (lv + band - ix.lmin)
    # the node's other transfers (the box's left out) in the band, as a share of all of them
    in_band = np.searchsorted(ix.own_key, hi_key, side="right") - np.searchsorted(ix.own_key, lo_key, side="left")
    rest = ix.edges_of[c_hub] - k
    q_own = np.where(rest > 0, (in_band - k) / np.maximum(rest, 1), 0.0)
    q_x = np.maximum(q_glob, np.clip(q_own, 0.0, 1.0))
    if one_off is not None:
        one = ix.one_off_values
        in_band_one = np.searchsorted(one, x * r, side="right") - np.searchsorted(one, x / r, side="left")
        # the box's own left out, shrunk towards the graph's share with _ONE_OFF_PRIOR pseudo-payments
        q_one = np.clip((in_band_one - k + _ONE_OFF_PRIOR * q_glob) / (one.shape[0] - k + _ONE_OFF_PRIOR), 0.0, 1.0)
        in_one = (np.searchsorted(ix.own_one_key, hi_key, side="right")
                  - np.searchsorted(ix.own_one_key, lo_key, side="left"))
        rest_one = ix.one_offs_of[c_hub] - k
        own_one = np.where(rest_one > 0, (in_one - k) / np.maximum(rest_one, 1), 0.0)
        one_off[:] = np.maximum(q_one, np.clip(own_one, 0.0, 1.0))
    # the node's other dealings (its transfers beyond the box's) in the window, as a share of all
    # of them: a node busy then for its own reasons is measured against its own rhythm
    if q_glob_t is None or busy_c is None:
        q_glob_t = arrays.tick_mass(t, t + w)
        a_key = c_hub * ix.stride_t + (t - ix.t0)
        busy_c = (np.searchsorted(ix.activity_key, a_key + w, side="right")
                  - np.searchsorted(ix.activity_key, a_key, side="left"))
    others = ix.activity[c_hub] - k
    own_t = np.where(others > 0, (busy_c - k) / np.maximum(others, 1), 0.0)
    return np.maximum(q_glob_t, np.clip(own_t, 0.0, 1.0)), q_x


def _honest_groups(ix: _FanIndex, params: Mapping[str, Any]) -> dict[tuple[float, float], Groups]:
    """The graph's honest groups per cell (module rule, *groups that recur*): fan-ins only; a group
    found paying alike (in the tight band) in a narrower window is one in a wider, in either band."""
    found: dict[tuple[float, float], Groups] = {}
    if ix.direction == "out":
        return {(w, r): Groups.none() for w in ix.windows for r in ix.ratios}
    for w in ix.windows:
        recurring = (ix.pair_tmax - ix.pair_tmin) > w  # pairs whose dealings outlast the window
        by_m_rec = np.zeros((_M_RECURRING + 1, ix.n_nodes))
        np.add.at(by_m_rec, (np.minimum(ix.pair_m[recurring], _M_RECURRING), ix.pair_hub[recurring]), 1.0)
        for r in ix.ratios:
            found[(w, r)] = _recurring_groups(np.flatnonzero(recurring[ix.pair]), ix.hub, ix.tick, ix.logv, ix.pair,
                                              ix.pair_m, by_m_rec, partial(_shares, ix), w, r, ix.min_fan, ix.grid,
                                              ix.n_nodes, float(params["alpha"]) / ix.tests)
    tight = min(ix.ratios)  # a group pays alike shares: its size is read where groups pay alike
    return {(w, r): Groups.joined([g for (w2, r2), g in found.items() if w2 <= w and r2 <= tight])
            for w in ix.windows for r in ix.ratios}


def _passes_on(ix: _FanIndex, p_hub: np.ndarray, p_tick: np.ndarray, total: np.ndarray, w: float,
               pass_cut: float) -> np.ndarray:
    """Whether the hub pays out about what came in through the box (within ``pass_cut``) from the box's
    start to the shortest window after its end, and more than it pays out in any other span that long
    (module rule, *groups that recur*: a collector passing the money on)."""
    start = p_hub * ix.stride_t + (p_tick - ix.t0)
    span = w + min(ix.windows)  # the box, and the shortest window after it: at once
    passed = (ix.out_cum[np.searchsorted(ix.out_key, start + span, side="right")]
              - ix.out_cum[np.searchsorted(ix.out_key, start, side="left")])
    ok: np.ndarray = np.abs(passed - total) <= pass_cut * total
    if ok.any():
        ok[ok] = passed[ok] > _largest_elsewhere(ix, p_hub[ok], start[ok], span)
    return ok


def _largest_elsewhere(ix: _FanIndex, p_hub: np.ndarray, start: np.ndarray, span: float) -> np.ndarray:
    """Each hub's largest outflow in a span of ``span`` ticks that starts at one of its own payments and
    does not overlap ``[start, start + span]`` (``start`` keyed as ``out_key``; 0 where there is none).

    A span's outflow is read from the running totals; a hub's largest before and after the box from running
    maxima over its own payments (each lifted by the payer's index times more than any outflow, so a
    running maximum over all payers never crosses from one payer to the next)."""
    key = ix.out_key
    n = key.shape[0]
    if n == 0:
        return np.zeros(p_hub.shape[0])
    sums = ix.out_cum[np.searchsorted(key, key + span, side="right")] - ix.out_cum[:n]
    payer = (key // ix.stride_t).astype(np.int64)
    lift = float(sums.max()) + 1.0
    up = payer * lift
    down = (int(payer[-1]) - payer) * lift
    before_max = np.maximum.accumulate(sums + up) - up
    after_max = (np.maximum.accumulate((sums + down)[::-1]) - down[::-1])[::-1]
    first = np.searchsorted(key, p_hub * ix.stride_t, side="left")
    last = np.searchsorted(key, (p_hub + 1) * ix.stride_t, side="left")
    lo = np.searchsorted(key, start - span, side="left")  # spans starting from start - span overlap the box's
    hi = np.searchsorted(key, start + span, side="right")  # ... up to those starting at start + span
    before = np.where(lo > first, before_max[np.maximum(lo - 1, 0)], 0.0)
    after = np.where(hi < last, after_max[np.minimum(hi, n - 1)], 0.0)
    return np.maximum(before, after)


def _scan_window(ix: _FanIndex, w: float, groups: Mapping[tuple[float, float], Groups], params: Mapping[str, Any],
                 known: _Known | None, best_p: np.ndarray, best: dict[int, _Best]) -> None:
    """Every box of window ``w`` (both bands), each hub's best kept in ``best_p`` and ``best``."""
    is_point = ix.first_of_pair & ((ix.pair_tmax[ix.pair] - ix.pair_tmin[ix.pair]) <= w)
    pts = np.flatnonzero(is_point)
    if pts.shape[0] == 0:
        return
    p_hub, p_tick = ix.hub[pts], ix.tick[pts]
    key = p_hub * ix.stride_t + (p_tick - ix.t0)
    end = np.searchsorted(key, key + w, side="right")
    span_len = end - np.arange(pts.shape[0])
    q_t = ix.arrays.tick_mass(p_tick, p_tick + w)
    anchors = np.bincount(p_hub, minlength=ix.n_nodes)
    busy = (np.searchsorted(ix.activity_key, key + w, side="right")
            - np.searchsorted(ix.activity_key, key, side="left"))
    for r in ix.ratios:
        _scan_cell(ix, pts, span_len, q_t, anchors, busy, w, r, groups[(w, r)], params, known, best_p, best)


def _scan_cell(ix: _FanIndex, pts: np.ndarray, span_len: np.ndarray, q_t: np.ndarray, anchors: np.ndarray,
               busy: np.ndarray, w: float, r: float, groups: Groups, params: Mapping[str, Any], known: _Known | None,
               best_p: np.ndarray, best: dict[int, _Best]) -> None:
    """Every box of one cell (window ``w``, band ``r``): its count, the members an honest group explains,
    the chance count, the Poisson tail (less the webbed members where it could be flagged)."""
    p_hub, p_tick, p_logv, p_pair = ix.hub[pts], ix.tick[pts], ix.logv[pts], ix.pair[pts]
    alpha = float(params["alpha"])
    band = math.log(r) + 1e-12
    count, total = _box_counts(p_logv, p_pair, span_len, band, ix.pair_tmax[p_pair], p_tick + w, None,
                               ix.value[pts])
    # members beyond what one honest group of the graph explains; a group that pays one of them back
    # does not see its money passed on at once: where the hub does, no member is explained
    explained = np.zeros(pts.shape[0], dtype=np.int64)
    some = np.flatnonzero(count >= ix.min_fan)
    explained[some] = np.maximum(_group_size_at(groups, p_logv[some], float(params["group_scale"]),
                                                float(params["group_quantile"]), int(params["min_groups"])) - 1, 0)
    tight = 2 * math.log(min(ix.ratios)) + 1e-12
    if band > tight and some.shape[0]:  # a group pays alike shares: it explains only the members alike within the tight band
        alike, _ = _box_counts(p_logv, p_pair, span_len, tight, ix.pair_tmax[p_pair], p_tick + w)
        explained = np.minimum(explained, np.maximum(alike - 1, 0))
    told = some[explained[some] > 0]
    explained[told[_passes_on(ix, p_hub[told], p_tick[told], total[told], w, float(params["pass_cut"]))]] = 0
    extra = count - explained
    cand = np.flatnonzero((count >= ix.min_fan) & (extra >= 2))
    if cand.shape[0] == 0:
        return
    c_hub = p_hub[cand]
    q_one = np.zeros(cand.shape[0])
    qt, q_x = _shares(ix, c_hub, p_tick[cand], ix.value[pts[cand]], q_t[cand], busy[cand], count[cand], w, r, q_one)
    lam = ix.by_m[1, c_hub] * qt * q_one  # a counterparty that pays once: at the amounts one-off payments take here
    for m in range(2, _M_BUCKETS + 1):
        lam += ix.by_m[m, c_hub] * qt ** m * np.minimum(1.0, m * q_x)
    m_a = np.minimum(ix.pair_m[p_pair[cand]], _M_BUCKETS)
    lam = np.maximum(lam - qt ** m_a * np.where(m_a == 1, q_one, np.minimum(1.0, m_a * q_x)), 0.0)
    raw = poisson_tail(extra[cand] - 1, lam)
    adj = np.minimum(1.0, raw * anchors[c_hub] * ix.grid)
    webbed = np.zeros(cand.shape[0], dtype=np.int64)
    shared = np.zeros(cand.shape[0], dtype=np.int64)
    stated = np.zeros(cand.shape[0], dtype=np.int64)
    maybe = np.flatnonzero(adj <= alpha) if known is not None else np.zeros(0, dtype=np.int64)
    if maybe.shape[0] and known is not None:  # only a box that could be flagged is read member by member
        webbed[maybe], shared[maybe], stated[maybe] = _acquainted(
            cand[maybe], p_logv, span_len, ix.pair_tmax[p_pair], p_tick + w, band, ix.other_all[ix.rows[pts]], p_hub,
            known, ix.n_nodes, ix.value[pts])
        left = extra[cand[maybe]] - webbed[maybe] - shared[maybe] - stated[maybe]
        raw[maybe] = np.where(left >= 2, poisson_tail(np.maximum(left - 1, 0), lam[maybe]), 1.0)
        adj[maybe] = np.minimum(1.0, raw[maybe] * anchors[c_hub[maybe]] * ix.grid)
    for i in _improving(adj, c_hub, best_p, best):
        h = int(c_hub[i])
        best_p[h] = adj[i]
        best[h] = (float(adj[i]), float(raw[i]), int(count[cand[i]]), int(pts[cand[i]]), w, r,
                   float(lam[i]), int(explained[cand[i]]), int(webbed[i]), int(shared[i]), int(stated[i]))


def web_ties(arrays: TransferArrays, min_transfers: int) -> set[int]:
    """Every pair of accounts with at least ``min_transfers`` transfers between them, either way, as
    ``min * n + max`` (``n`` the node count).

    >>> import networkx as nx
    >>> from .transfer_arrays import transfer_arrays
    >>> G = nx.MultiDiGraph([("a", "b"), ("c", "b")])
    >>> for i, (u, v, k) in enumerate(G.edges(keys=True)):
    ...     G.edges[u, v, k].update(value=1.0, tick=i, event=i)
    >>> sorted(web_ties(transfer_arrays(G), 1)), sorted(web_ties(transfer_arrays(G), 2))
    ([1, 5], [])
    """
    n = len(arrays.nodes)
    lo, hi = np.minimum(arrays.src, arrays.dst), np.maximum(arrays.src, arrays.dst)
    codes, counts = np.unique(lo * n + hi, return_counts=True)
    return set(codes[counts >= min_transfers].tolist())


@dataclass(frozen=True)
class Standing:
    """Every node's standing counterparties (dealt with, either way, at least ``shared_transfers``
    times), as compressed rows: ``indices[indptr[i]:indptr[i + 1]]`` are node ``i``'s, sorted."""

    indptr: np.ndarray
    indices: np.ndarray

    def of(self, node: int) -> np.ndarray:
        """Node ``node``'s standing counterparties."""
        return self.indices[self.indptr[node]:self.indptr[node + 1]]


def standing_counterparties(arrays: TransferArrays, min_transfers: int) -> Standing:
    """Every node's counterparties with at least ``min_transfers`` transfers between them, either way
    (an employer and its staff, a club and its members, a household and its usual shop).

    >>> import networkx as nx
    >>> from .transfer_arrays import transfer_arrays
    >>> G = nx.MultiDiGraph([("a", "b"), ("b", "a"), ("c", "b")])
    >>> for i, (u, v, k) in enumerate(G.edges(keys=True)):
    ...     G.edges[u, v, k].update(value=1.0, tick=i, event=i)
    >>> s = standing_counterparties(transfer_arrays(G), 2)
    >>> [s.of(i).tolist() for i in range(3)]
    [[1], [0], []]
    """
    n = len(arrays.nodes)
    lo, hi = np.minimum(arrays.src, arrays.dst), np.maximum(arrays.src, arrays.dst)
    codes, counts = np.unique(lo * n + hi, return_counts=True)
    kept = codes[(counts >= min_transfers) & (codes // n != codes % n)]
    a, b = kept // n, kept % n
    left, right = np.concatenate([a, b]), np.concatenate([b, a])
    order = np.lexsort((right, left))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(left, minlength=n))])
    return Standing(indptr.astype(np.int64), right[order].astype(np.int64))


def shared_community(members: list[int], hub: int, standing: Standing, n_nodes: int, level: float) -> set[int]:
    """The members of a fan-in's box that share a standing counterparty (not the hub, not a member) with
    other members far beyond chance (module rule, *a community in common*): for each such counterparty
    ``c``, with ``d`` standing counterparties of its own among the graph's ``n`` accounts, the chance that
    as many of ``k`` members drawn from anywhere are among them, ``P(Binomial(k, d / (n - 1)) >= n_c)``,
    times the counterparties the members have (Bonferroni), is at most ``level``; at least two members.

    >>> import networkx as nx
    >>> from .transfer_arrays import transfer_arrays
    >>> G = nx.MultiDiGraph()
    >>> for i in range(200):  # a background of 200 accounts, each with one standing payer of its own
    ...     for j in range(3):
    ...         _ = G.add_edge(f"p{i}", f"a{i}", value=1.0, tick=j, event=f"b{i}.{j}")
    >>> for m in range(4):  # four colleagues, each paid by the employer three times
    ...     for j in range(3):
    ...         _ = G.add_edge("employer", f"a{m}", value=2.0, tick=j, event=f"e{m}.{j}")
    >>> A = transfer_arrays(G)
    >>> idx = {x: i for i, x in enumerate(A.nodes)}
    >>> box = [idx[f"a{m}"] for m in (0, 1, 2, 3, 50, 60)]
    >>> s = standing_counterparties(A, 3)
    >>> sorted(A.nodes[m] for m in shared_community(box, idx["a99"], s, len(A.nodes), 0.001))
    ['a0', 'a1', 'a2', 'a3']
    """
    inside = set(members)
    reach = [standing.of(m) for m in members]
    seen = np.concatenate(reach) if reach else np.zeros(0, dtype=np.int64)
    seen = seen[(seen != hub) & ~np.isin(seen, members)]
    if seen.shape[0] == 0:
        return set()
    common, n_c = np.unique(seen, return_counts=True)
    k = len(inside)
    out: set[int] = set()
    for c, n in zip(common[n_c >= 2].tolist(), n_c[n_c >= 2].tolist(), strict=True):
        d = int(standing.indptr[c + 1] - standing.indptr[c])
        if binom_sf(int(n), k, min(1.0, d / max(n_nodes - 1, 1))) * common.shape[0] <= level:
            out.update(m for m, r in zip(members, reach, strict=True) if np.any(r == c))
    return out


_AMOUNT_DIGITS = 12
"""Significant digits two amounts must share to be *the very same amount* (a stated sum)."""


def same_amount_keys(values: np.ndarray) -> list[float]:
    """Each amount rounded to ``_AMOUNT_DIGITS`` significant digits: two amounts are the very same amount
    when their keys are equal.  The rule reads no unit: amounts in cents, in dollars or in millions of
    them give the same keys up to the scale, so scaling every amount of a table changes no verdict; the
    last bits a sum or a change of unit leaves are read away.

    >>> same_amount_keys(np.array([100.0, 100.01, 1e-6 * 100.0, 1e-6 * 100.01, 0.1 + 0.2, 0.3]))
    [100.0, 100.01, 0.0001, 0.00010001, 0.3, 0.3]
    """
    return [float(f"{v:.{_AMOUNT_DIGITS}g}") for v in values.tolist()]


def _acquainted(points: np.ndarray, logv: np.ndarray, span_len: np.ndarray, last: np.ndarray, until: np.ndarray,
                band: float, counterpart: np.ndarray, hubs: np.ndarray, known: _Known,
                n_nodes: int, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each box (anchored at ``points``, as :func:`_box_counts` counts it), how many of its members
    deal with at least ``web_ties`` other members, either way, at any time (module rule, *honest friend
    webs*), how many of the others share a standing counterparty beyond chance (*a community in
    common*), and how many of the rest paid the very amount another of the rest paid, beyond the
    first at each amount (*a stated sum*; ``values``: each point's amount)."""
    webbed = np.zeros(points.shape[0], dtype=np.int64)
    shared = np.zeros(points.shape[0], dtype=np.int64)
    stated = np.zeros(points.shape[0], dtype=np.int64)
    for i, a in enumerate(points.tolist()):
        j = np.arange(a, a + int(span_len[a]))
        j = j[(np.abs(logv[j] - logv[a]) <= band) & (last[j] <= until[a])]
        paid = dict(zip(counterpart[j].tolist(), same_amount_keys(values[j]), strict=True))
        members = sorted(paid)
        web: set[int] = set()
        if known.web > 0:
            degree = [0] * len(members)
            for x_i, x in enumerate(members):
                for y_i in range(x_i + 1, len(members)):
                    if x * n_nodes + members[y_i] in known.ties:
                        degree[x_i] += 1
                        degree[y_i] += 1
            web = {m for m, d in zip(members, degree, strict=True) if d >= known.web}
        webbed[i] = len(web)
        community: set[int] = set()
        if known.standing is not None:
            community = shared_community(members, int(hubs[a]), known.standing, n_nodes, known.level) - web
            shared[i] = len(community)
        if known.stated:
            rest = [paid[m] for m in members if m not in web and m not in community]
            stated[i] = len(rest) - len(set(rest))
    return webbed, shared, stated


def _box_counts(logv: np.ndarray, pair: np.ndarray, span_len: np.ndarray, band: float, last: np.ndarray | None,
                until: np.ndarray, previous: np.ndarray | None = None,
                values: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """For each point (sorted by hub and tick, ``span_len`` of them from it within the window), how
    many other pairs have a point in its window with an amount within ``band`` (log) of its own,
    itself included; with ``last``, only pairs whose last dealing is by ``until``; with
    ``previous`` (each point's previous point of the same pair, -1 if none), each pair once.  And
    the total of the counted points' ``values`` (zeros without them).

    Read point by point, a window is read whole: the work is the points' windows summed, which grows
    as the square of a long match (each window a share of its span).  With ``previous``, a pair is
    counted at its first point after the anchor, so where a stretch of overlapping windows has fewer
    pairs than points in a window, each pair's first point after each anchor is looked up instead
    (:func:`_first_points`): the work is then at most the stretch's points times its pairs (a line, for
    a match's seats), and the counts are the same."""
    count = np.ones(logv.shape[0], dtype=np.int64)
    total = np.zeros(logv.shape[0]) if values is None else values.astype(np.float64).copy()
    looked = np.zeros(logv.shape[0], dtype=bool)
    if previous is not None and values is None:  # (a total by pairs would add in another order)
        looked = _first_points(logv, pair, span_len, band, last, until, count)
    active = np.flatnonzero((span_len > 1) & ~looked)
    d = 1
    while active.shape[0]:
        j = active + d
        ok = (np.abs(logv[j] - logv[active]) <= band) & (pair[j] != pair[active])
        if last is not None:
            ok &= last[j] <= until[active]
        if previous is not None:
            ok &= previous[j] < active
        count[active] += ok
        if values is not None:
            total[active] += np.where(ok, values[j], 0.0)
        d += 1
        active = active[span_len[active] > d]
    return count, total


_LOOKUP_COST = 4
"""A first-point lookup (a binary search) costs about this many reads of a window's point."""


def _first_points(logv: np.ndarray, pair: np.ndarray, span_len: np.ndarray, band: float, last: np.ndarray | None,
                  until: np.ndarray, count: np.ndarray) -> np.ndarray:
    """:func:`_box_counts` with ``previous`` by pairs: for each stretch of overlapping windows where
    looking up each of its pairs' first point after each anchor reads less than the windows, each
    anchor's count added up pair by pair, in place; returns which anchors were done so.

    A pair other than the anchor's is counted where its first point after the anchor lies in the window
    (that point, and no other of the pair, has its previous point before the anchor)."""
    n = logv.shape[0]
    if n == 0:
        return np.zeros(0, dtype=bool)
    idx = np.arange(n)
    ends = idx + np.maximum(span_len, 1)
    # a stretch starts where no earlier window reaches: windows never cross it
    reach = np.maximum.accumulate(ends)
    starts = np.flatnonzero(np.concatenate([[True], reach[:-1] <= idx[1:]]))
    stretch = np.repeat(np.arange(starts.shape[0]), np.diff(np.concatenate([starts, [n]])))
    combos = np.unique(stretch * (int(pair.max()) + 1) + pair)
    c_stretch = combos // (int(pair.max()) + 1)
    c_pair = combos % (int(pair.max()) + 1)
    pairs_in = np.bincount(c_stretch, minlength=starts.shape[0])
    reads = np.bincount(stretch, weights=span_len.astype(np.float64), minlength=starts.shape[0])
    points = np.bincount(stretch, minlength=starts.shape[0])
    chosen = _LOOKUP_COST * points * pairs_in < reads
    looked = chosen[stretch]
    if not looked.any():
        return looked
    offset = np.concatenate([[0], np.cumsum(pairs_in)])
    by_pair = np.lexsort((idx, pair))
    codes = pair[by_pair].astype(np.int64) * n + by_pair
    anchors = np.flatnonzero(looked)
    for slot in range(int(pairs_in[chosen].max())):
        anchors = anchors[pairs_in[stretch[anchors]] > slot]
        p = c_pair[offset[stretch[anchors]] + slot]
        at = np.searchsorted(codes, p * n + anchors, side="right")
        at = np.minimum(at, n - 1)
        j = by_pair[at]
        ok = (pair[j] == p) & (j > anchors) & (j < anchors + span_len[anchors]) & (p != pair[anchors])
        ok &= np.abs(logv[j] - logv[anchors]) <= band
        if last is not None:
            ok &= last[j] <= until[anchors]
        count[anchors] += ok
    return looked


@dataclass(frozen=True)
class Groups:
    """Honest recurring groups found in one cell (or several): each by its hub, its size (members,
    the anchor's included) and the log of its anchor's amount."""

    hub: np.ndarray
    size: np.ndarray
    logv: np.ndarray

    @staticmethod
    def none() -> Groups:
        """No group."""
        return Groups(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0))

    @staticmethod
    def joined(found: list[Groups]) -> Groups:
        """The groups of several cells together, sorted by amount (then hub, size)."""
        if not found:
            return Groups.none()
        hub = np.concatenate([g.hub for g in found]).astype(np.int64)
        size = np.concatenate([g.size for g in found]).astype(np.int64)
        logv = np.concatenate([g.logv for g in found]).astype(np.float64)
        order = np.lexsort((size, hub, logv))
        return Groups(hub[order], size[order], logv[order])


_SCALE_STEP = 0.05
"""Boxes' amounts are read to the nearest 5% (in log) when the honest group size at their scale is
looked up: one lookup per step of amount, not per box."""


def _group_size_at(groups: Groups, logv: np.ndarray, scale: float, quantile: float, min_groups: int) -> np.ndarray:
    """The graph's honest group size at each box's amount (``logv``, its anchor's log amount): each
    node's largest recurring group whose anchor's amount is within a factor ``scale`` of the box's (in
    the cell or a narrower one: a group paying within a day pays within a week), the ``quantile``
    (the median: the typical group, not the largest tenancy) over the nodes that have one, where at
    least ``min_groups`` do (fewer: the graph shows no habit of paying in groups at that scale); else
    0.  Friends paying back a dinner of forty say nothing about strangers paying six hundred each.

    >>> g = Groups(np.array([0, 1, 2, 3, 3]), np.array([3, 4, 5, 6, 9]), np.log([40.0, 42, 45, 50, 900]))
    >>> _group_size_at(g, np.log([41.0, 600.0, 800.0]), 2.0, 0.5, 3).tolist()
    [4, 0, 0]
    >>> _group_size_at(g, np.log([41.0, 600.0]), 100.0, 0.5, 3).tolist()
    [4, 4]
    """
    out = np.zeros(logv.shape[0], dtype=np.int64)
    if groups.hub.shape[0] < min_groups or logv.shape[0] == 0:
        return out
    band = math.log(max(scale, 1.0)) + 1e-12
    steps = np.round(logv / _SCALE_STEP).astype(np.int64)
    for step in np.unique(steps).tolist():
        centre = step * _SCALE_STEP
        lo = int(np.searchsorted(groups.logv, centre - band, side="left"))
        hi = int(np.searchsorted(groups.logv, centre + band, side="right"))
        if hi - lo < min_groups:
            continue
        largest: dict[int, int] = {}
        for h, k in zip(groups.hub[lo:hi].tolist(), groups.size[lo:hi].tolist(), strict=True):
            largest[h] = max(largest.get(h, 0), k)
        if len(largest) >= min_groups:
            out[steps == step] = int(np.quantile(np.array(sorted(largest.values())), quantile, method="lower"))
    return out


def _recurring_groups(rec: np.ndarray, hub: np.ndarray, tick: np.ndarray, logv: np.ndarray, pair: np.ndarray,
                      pair_m: np.ndarray, by_m_rec: np.ndarray, shares: Any, w: float, r: float,
                      min_fan: int, grid: int, n_nodes: int, level: float) -> Groups:
    """Every honest group in this window and band, by its anchor (module rule, *groups that
    recur*): counterparties whose dealings with the node outlast the window -- the same
    friends, the same circle -- paying it together, alike amounts, more of them than its own
    rhythm and the shuffled graph explain (Poisson, Bonferroni over the node's anchors and the
    grid, at ``level``)."""
    if rec.shape[0] < min_fan:
        return Groups.none()
    r_hub, r_tick, r_logv, r_pair = hub[rec], tick[rec], logv[rec], pair[rec]
    stride = float(r_tick.max() - r_tick.min()) * 2 + w + 2
    key = r_hub * stride + (r_tick - r_tick.min())
    span_len = np.searchsorted(key, key + w, side="right") - np.arange(rec.shape[0])
    order = np.lexsort((np.arange(rec.shape[0]), r_pair))
    previous = np.full(rec.shape[0], -1)
    same = r_pair[order[1:]] == r_pair[order[:-1]]
    previous[order[1:][same]] = order[:-1][same]
    count, _ = _box_counts(r_logv, r_pair, span_len, math.log(r) + 1e-12, None, r_tick, previous)
    cand = np.flatnonzero(count >= min_fan)
    if cand.shape[0] == 0:
        return Groups.none()
    c_hub = r_hub[cand]
    qt, q_x = shares(c_hub, r_tick[cand], np.exp(r_logv[cand]), None, None, count[cand], w, r)
    lam = np.zeros(cand.shape[0])
    for m in range(1, _M_RECURRING + 1):  # a recurring counterparty lands in the box once in m tries
        lam += by_m_rec[m, c_hub] * -np.expm1(m * np.log1p(-np.minimum(qt, 1 - 1e-12))) * np.minimum(1.0, m * q_x)
    m_a = np.minimum(pair_m[r_pair[cand]], _M_RECURRING)
    lam = np.maximum(lam - -np.expm1(m_a * np.log1p(-np.minimum(qt, 1 - 1e-12))) * np.minimum(1.0, m_a * q_x), 0.0)
    anchors = np.bincount(r_hub, minlength=n_nodes)
    sig = poisson_tail(count[cand] - 1, lam) * anchors[c_hub] * grid <= level
    return Groups(c_hub[sig], count[cand[sig]], r_logv[cand[sig]])


def _improving(adj: np.ndarray, hubs: np.ndarray, best_p: np.ndarray, best: Mapping[int, Any]) -> list[int]:
    """The best candidate of each hub (earliest on ties), where it beats the hub's best so far
    (or the hub has none yet): the first box found wins a tie."""
    order = np.lexsort((np.arange(adj.shape[0]), adj))
    _, first = np.unique(hubs[order], return_index=True)
    return [int(i) for i in order[first]
            if adj[i] < best_p[hubs[i]] or (adj[i] == best_p[hubs[i]] and int(hubs[i]) not in best)]


def _box(arrays: TransferArrays, direction: str, h: int, rows: np.ndarray, pair: np.ndarray, pair_tmax: np.ndarray,
         first_of_pair: np.ndarray, hub: np.ndarray, tick: np.ndarray, logv: np.ndarray, pos: int, w: float,
         r: float, adj_p: float, raw_p: float, k: int, lam: float, other_all: np.ndarray, explained: int,
         webbed: int = 0, shared: int = 0, stated: int = 0) -> FanBox:
    """The members and rows of the box anchored at sorted position ``pos``."""
    t_a, lv_a = tick[pos], logv[pos]
    band = math.log(r) + 1e-12
    stop = pos
    while stop < hub.shape[0] and hub[stop] == h and tick[stop] <= t_a + w:
        stop += 1
    members: list[int] = []
    member_pairs: set[int] = set()
    for i in range(pos, stop):
        if first_of_pair[i] and abs(logv[i] - lv_a) <= band and pair_tmax[pair[i]] <= t_a + w:
            if pair[i] not in member_pairs:
                member_pairs.add(int(pair[i]))
                members.append(int(other_all[rows[i]]))
    picked = [int(rows[i]) for i in range(pos, stop) if int(pair[i]) in member_pairs]
    total = float(arrays.value[picked].sum())
    return FanBox(h, direction, adj_p, raw_p, k, lam, w, r, float(t_a), tuple(members), tuple(sorted(picked)), total,
                  explained, webbed, shared, stated, float(arrays.value[rows[pos]]))


def fan_flag(arrays: TransferArrays, box: FanBox, tests: int, cutoff: float, kind: str | None = None,
             regulars: Regulars | None = None) -> Flag:
    """The flag of one fan box."""
    nodes = arrays.nodes
    hub = nodes[box.hub]
    members = [nodes[m] for m in box.members] + ([nodes[m] for m in regulars.members] if regulars else [])
    kind = kind or ("fan_in" if box.direction == "in" else "fan_out")
    verb = "received from" if box.direction == "in" else "paid"
    return Flag(
        screen="fans",
        kind=kind,
        level="flag",
        agents=(hub, *members),
        pairs=tuple(ordered(pair_key(hub, m) for m in members)),
        score=-math.log10(max(box.p_value, 1e-300)),
        threshold=-math.log10(cutoff),
        evidence=tuple(ordered({arrays.event[i] for i in (*box.rows, *(regulars.rows if regulars else ()))})),
        explanation=(
            f"{hub} {verb} {box.count} counterparties with no other dealings with it in {arrays.during(box.window)} "
            f"from {arrays.when(box.start)}, amounts within a factor {box.ratio:g} of each other ({box.value:g} in all); "
            + (f"{box.webbed} of them deal with each other at other times (people who know each other, not "
               f"counted), " if box.webbed else "")
            + (f"{box.shared} of them share a standing counterparty far more than members drawn from anywhere would "
               f"(colleagues, one club: not counted), " if box.shared else "")
            + (f"{box.stated} of them paid the very amount another of them paid (a sum stated by the "
               f"collector: counted once per amount), " if box.stated else "")
            + (f"one group of the size that pays together again and again in this graph accounts for "
               f"{box.explained} of them besides the first, and " if box.explained else "")
            + f"shuffling the graph's ticks and amounts expects {box.expected:.2g} besides "
            f"{'those' if box.explained or box.webbed or box.shared or box.stated else 'the first'} "
            f"(p = {box.p_value:.2g}, {tests} {'node' if tests == 1 else 'nodes'} tested)."
            + (f" Besides them, {len(regulars.members)} of its regular payers paid it an amount new for them "
               f"(no other of their payments to it within a factor {regulars.novel:g}) from {arrays.when(regulars.start)} to "
               f"{arrays.when(regulars.end, word=False)}, between {regulars.low:.4g} and {regulars.high:.4g}, where their payments and the "
               f"shuffled graph expect {regulars.expected:.2g} (p = {regulars.p_value:.2g}): named with them."
               if regulars else "")
        ),
        details={"hub": hub, "direction": box.direction, "counterparties": box.count, "expected": box.expected,
                 "window": box.window, "amountRatio": box.ratio, "start": box.start, "value": box.value,
                 "rawP": box.raw_p, "explained": box.explained, "webbed": box.webbed,
                 "shared": box.shared, "stated": box.stated,
                 **({"regulars": len(regulars.members), "regularsExpected": regulars.expected,
                     "regularsP": regulars.p_value} if regulars else {})},
        p_value=box.p_value,
        null=_NULL,
        tests=tests,
    )


_NULL = ("the graph's own transfers with ticks and amounts shuffled among them (amount bands also measured "
         "against the node's own amounts, whichever is wider): the chance count of one-off counterparties "
         "in such a window and band, Poisson, Bonferroni over the node's windows")


def fan_boxes_of(view: TransferView, params: Mapping[str, Any]) -> dict[str, tuple[list[FanBox], int]]:
    """The fan boxes of both directions, computed once per view and parameters (the fans and
    the gather-scatter screens share them)."""
    fan_params = {k: params[k] for k in DEFAULTS}
    key = ("fan_boxes", tuple(sorted(fan_params.items())), bool(params.get("net_trades")))
    return view.once(key, lambda: _both_directions(arrays_of(view, params), fan_params))


def _both_directions(arrays: TransferArrays, fan_params: Mapping[str, Any]) -> dict[str, tuple[list[FanBox], int]]:
    return {d: fan_boxes(arrays, d, fan_params) for d in ("in", "out")}


@dataclass(frozen=True)
class Regulars:
    """A fan-in box's regular payers that paid in it (module rule, *regulars in the box*)."""

    members: tuple[int, ...]
    """Their node indices, in order."""
    rows: tuple[int, ...]
    """Their transfers in the box."""
    p_value: float
    """``P(X >= k)`` for ``k`` of them, ``X`` Poisson at the chance count."""
    expected: float
    """The chance count: how many of the hub's regular payers the null puts in the box."""
    low: float
    """The amount band read: from ``low`` ..."""
    high: float
    """... to ``high`` (the box members' amounts, widened by ``regular_margin`` either way)."""
    start: float
    """The window read: from ``start`` (the box's window as long again before it) ..."""
    end: float
    """... to ``end`` (the box's window's end)."""
    novel: float
    """A payment is new for its payer when no other of its payments to the hub is within this factor."""


def _share_floor(arrays: TransferArrays, low: float, high: float, novel: float) -> float:
    """A floor of the graph's share of transfers within a factor ``novel`` of an amount, over every amount
    in ``[low, high]``: cut the band where each piece is narrower than ``novel``; for any amount ``x`` in the
    piece ``[a, b]``, ``[x / novel, x * novel]`` holds ``[b / novel, a * novel]``.

    >>> from .transfer_arrays import arrays_from
    >>> A = arrays_from((0, 1), [0] * 4, [1] * 4, [0.0, 1, 2, 3], [10.0, 12.0, 30.0, 100.0], [0, 1, 2, 3])
    >>> _share_floor(A, 10.0, 12.0, 1.25), _share_floor(A, 10.0, 100.0, 1.25)
    (0.5, 0.0)
    """
    step = math.sqrt(novel)
    pieces = max(1, math.ceil(math.log(high / low) / math.log(step) - 1e-9)) if high > low else 1
    cuts = low * (high / low) ** (np.arange(pieces + 1) / pieces)
    return float(np.min(arrays.value_mass(cuts[1:] / novel * (1 - 1e-12), cuts[:-1] * novel * (1 + 1e-12))))


def regulars_in(arrays: TransferArrays, box: FanBox, novel: float, margin: float) -> Regulars:
    """The hub's regular payers (two or more payments to it; not members of the box) that paid it an amount
    new for them in a fan-in box's window, or as long before it, at the members' scale (their amounts, widened
    by ``margin`` either way), and the chance that as many would (module rule, *regulars in the box*).  A
    payment is new for its payer when no other payment of the payer to the hub is within a factor ``novel``
    of it (a flatmate's monthly share is not); each regular with ``m`` payments to the hub pays one there with
    chance at most ``m * q_t * q_x * (1 - q_n) ** (m - 1)``, ``q_t`` the share of the graph's transfers (or of
    the hub's own dealings, the box's and the counted ones left out, whichever is larger) in the window,
    ``q_x`` the graph's share in the band, ``q_n`` a floor of the graph's share within a factor ``novel`` of
    an amount of the band."""
    hub, w = box.hub, box.window
    lo_t, hi_t = box.start - w, box.start + w
    paid = arrays.value[np.asarray(box.rows, dtype=np.int64)]
    lo_x, hi_x = float(paid.min()) / margin, float(paid.max()) * margin
    into = np.flatnonzero(arrays.dst == hub)
    payer = arrays.src[into]
    payers, of, m = np.unique(payer, return_inverse=True, return_counts=True)
    tick, value = arrays.tick[into], arrays.value[into]
    # new for its payer: no other payment of the payer to the hub within a factor ``novel``
    lv = np.log(value)
    stride = float(lv.max() - lv.min()) + 2 * math.log(novel) + 2
    key = of * stride + (lv - float(lv.min()))
    ranked = np.sort(key)
    near = (np.searchsorted(ranked, key + math.log(novel) + 1e-12, side="right")
            - np.searchsorted(ranked, key - math.log(novel) - 1e-12, side="left"))
    regular = (m >= 2) & ~np.isin(payers, np.asarray(box.members, dtype=np.int64))  # the box's members are tested
    hit_row = ((tick >= lo_t) & (tick <= hi_t) & (value >= lo_x * (1 - 1e-12)) & (value <= hi_x * (1 + 1e-12))
               & (near == 1) & regular[of])
    q_x = float(arrays.value_mass(lo_x, hi_x))
    q_n = _share_floor(arrays, lo_x, hi_x, novel)
    dealings = (arrays.src == hub) | (arrays.dst == hub)
    boxed = len(box.rows) + int(np.count_nonzero(hit_row))  # the box's own and the counted ones left out
    busy = int(np.count_nonzero(dealings & (arrays.tick >= lo_t) & (arrays.tick <= hi_t))) - boxed
    others = int(np.count_nonzero(dealings)) - boxed
    q_t = max(float(arrays.tick_mass(lo_t, hi_t)), busy / others if others > 0 else 0.0)
    chance = np.minimum(1.0, m * q_t * q_x * (1.0 - q_n) ** (m - 1))
    lam = float(chance[regular].sum())
    named = sorted(set(payers[of[hit_row]].tolist()))
    k = len(named)
    p = float(poisson_tail(k, lam)) if k else 1.0
    rows = tuple(sorted(int(i) for i in into[hit_row]))
    return Regulars(tuple(named), rows, p, lam, lo_x, hi_x, lo_t, hi_t, novel)


def fans(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Fan-in and fan-out flags (module rule); one flag per node and direction."""
    arrays = arrays_of(view, params)
    alpha = float(params["alpha"])
    flags: list[Flag] = []
    found = fan_boxes_of(view, params)
    for direction in ("in", "out"):
        boxes, tests = found[direction]
        cutoff = step_up_cutoff([b.p_value for b in boxes if b.count >= int(params["min_fan"])], tests, alpha)
        flagged = [box for box in boxes if box.p_value <= cutoff]
        regs: list[Regulars | None] = [None] * len(flagged)
        if direction == "in" and float(params["regular_payers"]) > 0 and flagged:
            found_r = [regulars_in(arrays, box, float(params["regular_novel"]), float(params["regular_margin"]))
                       for box in flagged]
            cut_r = step_up_cutoff([x.p_value for x in found_r], len(found_r), alpha)
            regs = [x if x.p_value <= cut_r else None for x in found_r]
        for box, regulars in zip(flagged, regs, strict=True):
            flags.append(fan_flag(arrays, box, tests, cutoff, regulars=regulars))
    return flags

