"""A study of null models for the feeder screen, on tune seeds only (nothing here is shipped).

    python bench/feeder_nulls.py [--split feeder-tune] [--clean 150] [--seeds 12] [--asking 0] [--noise none,medium,heavy]
                                 [--workers N]

The feeder screen (``screens/feeder.py``) tests each pair's one-sided exchanges with an exact sign-flip
test: each could have gone either way with even chances.  A pair whose exchanges go one way by the nature of
honest play (a seat that gathers no food and asks whoever it meets; friends; whole items paid for cheap goods;
food given to the hungry) gets ``p = 2 / 2^n``, halving with every exchange however long the match.  This
benchmark measures, per pair, that p-value and those of candidate nulls built from honest play in the same
match, each keeping what every seat does on its own and breaking only who-gives-whom concentration:

``signflip``
    the sign-flip test (:func:`~daishi_forensics.screens.stats.sign_flip_p`) without a share floor: the screen as
    configuration 2.14.0 shipped it, for reference (since 2.15.0 the shipped screen is (i), below).
``propensity``
    (a) each seat's propensity to be the giving side of a one-sided exchange, read from its one-sided exchanges
    with everyone *but* the pair's other seat (a Bradley-Terry direction model, logit P(a gives b) = t_a - t_b,
    with a N(0, 1) prior on each t, refitted leaving the pair out); the pair's exchanges each go a's way with that
    chance, their sizes kept (:func:`direction_p`).
``asked``
    (d) the same model with one covariate: who offered the exchange (the log's ``trade_completed`` says so:
    its ``from`` is the offerer).  logit P(a gives b) = t_a - t_b + beta z, z = +1 when a offered, -1 when b
    did; beta is the match's (leave the pair out too), so "the receiver asked" is worth what it is worth in
    this match's honest play.
``receivers``
    (b) a giver's one-sided exchanges land among the seats it dealt with at all (its partners: any voluntary
    exchange), each in proportion to how often that seat is the receiving side of the match's one-sided
    exchanges from *others* (plus one): the count the pair's giver sent the pair's taker is binomial
    (:func:`receivers_p`); the smaller of the two directions, doubled.  Each seat's out- and in-counts are
    kept; only who sends to whom is broken.
``empirical``
    (c) the shipped sign-flip p-value read against the match's own pairs: as a half-normal score, divided by
    the match's robust scale of those scores (their median over 0.6745, over the pairs with at least
    :data:`EMPIRICAL_MIN` one-sided exchanges, never below 1: the null is only ever widened), a handful of
    planted pairs moving the median little (:func:`empirical_p`).
``pushed``
    (e) the sign-flip test over the one-sided exchanges the *giver* offered only: an exchange the receiver
    asked for (it offered, and it received) is the asker's doing, not the giver's, and is left out of the
    pair's test (:func:`pushed_p`).  Exchanges whose offerer the log does not say are kept.
``granted``
    (f) (e) for the exchanges the giver offered, plus a test of the request process for the ones the
    receiver asked for (:func:`granted_p`).  A *one-sided request* is a ``trade_offered`` from a seat (the
    asker) to another seat (not the market) whose terms, valued at the match's item values, would make the
    asker the receiving side of a one-sided exchange as the screen reads one
    (:func:`~daishi_forensics.screens.feeder.one_sided_exchanges`: the asker would receive ``r > 0`` and give
    ``g`` with ``(r - g) / (r + g) >= min_directionality``); it ended *granted*
    when the log holds a ``trade_completed`` or ``trade_fulfilled`` of its ``tradeId``, *refused* when it
    holds a ``trade_cancelled`` of it and no completion; one with neither (open when the log ends), or with
    an item the match does not value, is left out (:func:`requests_of`).  For each direction of the pair
    with requests, the asker's one-sided requests to the other are granted as often as the match's
    one-sided requests between every other pair (the pair left out, seats the screens exempt left out),
    rate ``(granted + 1) / (ended + 2)``: the count granted, binomial upper tail (:func:`request_p`).  The
    pair's p-value: the smallest of its tests that can reach below 1 (the sign flip over the pushed
    exchanges; each direction's request test) times their number (Bonferroni; chosen before measuring,
    over Fisher's combination: the tests look for two different plants, which do one or the other, so a
    strong p in one should not be diluted by a null one in the other, and it needs no independence between
    a pair's requests and its exchanges).
``granted-seats``
    (g) (f) with the grant rate read from the one-sided requests between seats other than the pair's two
    (both seats left out, not only the pair): a hub's other spokes grant its requests too, and (f)'s rate,
    read with them, explains the hub away.  Defined after a first run of (f) on planted seeds 90001 and
    90002 and honest seeds 91001 to 91003 of the split (every size, noise none and heavy) showed that;
    (f) was fixed before it.
``granter``
    (h) (e) for the exchanges the giver offered, plus, for the one-sided requests the receiver R made to
    the giver G (the requests as (f) reads them, :func:`requests_of`), a test of G's grants: the count of
    R's requests G granted, binomial upper tail, against G's own grant rate of the one-sided requests every
    *other* asker made to it, ``(granted + 1) / (ended + 2)`` (R's requests and those of seats the screens
    exempt left out; a G no one else asked has the rate 1/2) (:func:`granter_p`).  The two tests (and the
    request test of the other direction) combined as (f) combines them (Bonferroni over those that can reach
    below 1).  A plea for food can be granted only by a seat that holds food: the grant rate is the
    granter's, not the match's.  Defined after (f) and (g) were read on ``feeder-tune``, before any
    figure of ``feeder-tune2`` was read.

``share``
    (i) the shipped sign flip, unchanged, with a second floor beside rule 3's size floor: the giver's net
    value to the taker must be at least :data:`GIVER_SHARE` (a third) of all the value the giver handed
    anyone in the match's voluntary exchanges (:func:`~daishi_forensics.screens.feeder.giver_share`); a pair
    below it is no feed (its test stays in the family, as a pair under the size floor's does).  Not a null:
    an effect-size floor on what a feed is.  A feeder exists to make the beneficiary rich, so much of what
    it hands over goes there; an honest seat that keeps a beggar or a friend fed hands that seat a small
    part of what it trades with everyone.  Defined after reading, on ``feeder-tune`` (its planted 90001 to
    90015, offering and asking, and honest 91001 to 91100, every size and level), the giver's share of the
    pairs with three or more one-sided exchanges: the pairs the shipped screen raised in honest matches
    had a share of 0.06 to 0.37 (10th to 90th percentile per size), the planted spokes 0.49 to 0.93; a
    third, a round figure between, kept 1,007 of the 1,008 planted pairs the shipped screen raised and 2 of
    its 131 honest ones.  The operator screen (its shared-operator and duplicate-slot pairs are the
    feeder's test) takes the same floor.  Measured on ``feeder-tune3`` (no study, bench or test has
    generated its seeds) once with the rule final; it goes on to the held-out sweep only if there the
    honest matches with a feeder finding are at most 4 of 200 in every size and level, and the offering
    and the asking planted pairs found per size are not fewer than the sign flip's by more than 0.02 of
    the planted pairs.

Every candidate's p-values replace the feeder tests' (and their smallest attainable p-values, which Tarone's
reduction reads) in the screen's own match-level step (:func:`~daishi_forensics.screens.screening.calibrate`,
the other Daishi screens' tests as they are, the typologies' share as shipped), so the figures compare:
honest matches with a feeder finding (review or flag; other screens not counted), and the planted feeder
pairs the feeder screen raises (recall) and the raised pairs that belong to a planted group (precision).

Split ``feeder-tune``: planted ``feeder`` matches from seed 90001, honest ``clean`` matches from 91001, the
same seeds at every size and level; no benchmark or test generated them before.  With ``--asking N``, planted
matches of the same first N planted seeds with the beneficiary asking (``feeder_mode="ask"``: the same seats and
draws, the requests sent by the beneficiary and granted by the spokes).  Sizes: the simulator's
defaults, 600 ticks, 4 player seats, a 6 x 6 map (:data:`SIZES`).  The held-out ``sweep`` split of
``bench/screens.py`` (70001...) and every report and fresh split are not touched here.

Split ``feeder-tune3`` (``--split feeder-tune3``): planted seeds from 120001, honest seeds from 121001;
generated first for candidate (i).

Split ``feeder-tune2`` (``--split feeder-tune2``): planted seeds from 92001, honest seeds from 93001, laid out
as ``feeder-tune``'s; no benchmark, test or study generated them before (``feeder-tune`` was read by three
studies, (a) to (e), (f) and (g), and the screen alarms; its seeds stay below 92001).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import run_jobs  # noqa: E402
from _labelled import wilson  # noqa: E402  (the benches' one Wilson interval)

SPLIT = "feeder-tune"
FIRST_PLANTED = 90001
FIRST_CLEAN = 91001
MAX_SEEDS = 1000
"""Planted seeds stay below the honest ones; honest seeds below the next split's first seed (``MAX_CLEAN``)."""
MAX_CLEAN = 1000
SPLITS: dict[str, tuple[int, int, int]] = {
    SPLIT: (FIRST_PLANTED, FIRST_CLEAN, MAX_CLEAN),
    "feeder-tune2": (92001, 93001, 7000),
    "feeder-tune3": (120001, 121001, 1000),
}
"""Per split: its first planted seed, its first honest seed, and how many honest seeds it holds (at most
:data:`MAX_SEEDS` planted seeds each): ``feeder-tune`` 90001 to 92000 (it has used 90001 to 90015 and 91001 to
91200), ``feeder-tune2`` 92001 to 100000, ``feeder-tune3`` 120001 to 122000."""
SIZES: tuple[tuple[str, dict[str, int]], ...] = (
    ("default", {}),
    ("600 ticks", {"ticks": 600}),
    ("4 player seats", {"n_agents": 4}),
    ("a 6 x 6 map", {"width": 6, "height": 6}),
)
NOISE = ("none", "medium", "heavy")
NULLS = ("signflip", "propensity", "asked", "receivers", "empirical", "pushed", "granted", "granted-seats",
         "granter", "share")
PLANTED_KINDS = ("feeder", "feeder-asks")
"""The planted matches: the simulator's feeder (its spokes offer) and, on the same seeds, one whose
beneficiary asks (``feeder_mode="ask"``)."""
EMPIRICAL_MIN = 3
"""Pairs with fewer one-sided exchanges cannot show anything (their smallest p is 1/2 or 1): left out of the scale."""
GIVER_SHARE = 1.0 / 3.0
"""Candidate (i)'s floor: the giver's net value to the taker over all it handed anyone."""
PRIOR = 1.0
"""Precision of the N(0, 1) prior on each seat's propensity (and on beta)."""
GRID = 64
"""Sizes rounded to this many steps of the largest before :func:`direction_p` counts."""
HALF_NORMAL_MEDIAN = 0.6744897501960817


def seeds(planted: int, clean: int, split: str = SPLIT) -> tuple[range, range]:
    """The split's planted and honest seeds."""
    first_planted, first_clean, max_clean = SPLITS[split]
    if not 0 <= planted <= MAX_SEEDS or not 0 <= clean <= max_clean:
        raise ValueError(f"at most {MAX_SEEDS} planted and {max_clean} honest seeds")
    return range(first_planted, first_planted + planted), range(first_clean, first_clean + clean)


@dataclass(frozen=True)
class OneSided:
    """One one-sided exchange of a pair: who gave, who received, the net value, who offered (None: unknown)."""

    giver: str
    taker: str
    value: float
    offerer: str | None = None


@dataclass(frozen=True)
class Request:
    """One one-sided request that ended: ``asker`` offered ``to`` terms under which the asker receives the
    value (:func:`requests_of`); ``granted``: completed, else cancelled."""

    asker: str
    to: str
    granted: bool


# -- the candidate nulls' tests -----------------------------------------------------------------


def direction_p(values: Sequence[float], toward_a: Sequence[bool], q: Sequence[float]) -> tuple[float, float]:
    """Exact test of the value a passed b over a pair's one-sided exchanges, each gone a's way with chance
    ``q[i]``, its size kept: ``(p, smallest attainable p)``, the smaller tail doubled (at ``q = 1/2`` it is
    the two-sided sign-flip test: six equal gifts one way, 2/64).

    >>> direction_p([5.0] * 6, [True] * 6, [0.5] * 6)
    (0.03125, 0.03125)
    >>> [round(p, 9) for p in direction_p([5.0] * 6, [True] * 6, [0.8] * 6)]
    [0.524288, 0.000128]
    """
    sizes = [abs(float(v)) for v in values]
    if not sizes or max(sizes) <= 0:
        return 1.0, 1.0
    unit = max(sizes) / GRID
    ints = [int(round(s / unit)) for s in sizes]
    total = sum(ints)
    dist = np.zeros(total + 1)
    dist[0] = 1.0
    for size, qi in zip(ints, q):
        nxt = dist * (1.0 - qi)
        if size:
            nxt[size:] += dist[:total + 1 - size] * qi
        else:
            nxt += dist * qi
        dist = nxt
    observed = sum(i for i, t in zip(ints, toward_a) if t)
    upper = float(dist[observed:].sum())
    lower = float(dist[:observed + 1].sum())
    p = min(1.0, 2.0 * min(upper, lower))
    smallest = min(1.0, 2.0 * min(float(dist[total]), float(dist[0])))
    return p, smallest


def fit_propensity(rows: Sequence[tuple[int, int, float]], seats: int, with_beta: bool,
                   iterations: int = 25) -> tuple[np.ndarray, float]:
    """Bradley-Terry direction model by Newton's method: ``rows`` are ``(giver, taker, z)`` (z = +1 when the
    giver offered, -1 when the taker did, 0 unknown), logit P(giver gives) = t_giver - t_taker + beta z;
    N(0, 1 / PRIOR) priors.  Returns ``(t, beta)`` (beta 0 when not fitted)."""
    k = seats + (1 if with_beta else 0)
    theta = np.zeros(k)
    if not rows:
        return theta[:seats], 0.0
    g = np.array([r[0] for r in rows])
    t = np.array([r[1] for r in rows])
    z = np.array([r[2] for r in rows], dtype=float)
    n = len(rows)
    X = np.zeros((n, k))
    X[np.arange(n), g] += 1.0
    X[np.arange(n), t] -= 1.0
    if with_beta:
        X[:, seats] = z
    for _ in range(iterations):
        eta = X @ theta
        mu = 1.0 / (1.0 + np.exp(-eta))
        grad = X.T @ (1.0 - mu) - PRIOR * theta
        w = mu * (1.0 - mu)
        hess = (X * w[:, None]).T @ X + PRIOR * np.eye(k)
        step = np.linalg.solve(hess, grad)
        theta = theta + step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return theta[:seats], float(theta[seats]) if with_beta else 0.0


def propensity_p(pair: tuple[str, str], exchanges: Sequence[OneSided], others: Sequence[OneSided],
                 seats: Sequence[str], with_beta: bool) -> tuple[float, float]:
    """Candidates (a) and (d): the pair's one-sided ``exchanges`` tested by :func:`direction_p` with the
    direction chances of the model fitted on ``others`` (every other one-sided exchange of the match)."""
    index = {s: i for i, s in enumerate(seats)}
    rows = [(index[x.giver], index[x.taker], _z(x)) for x in others]
    t, beta = fit_propensity(rows, len(seats), with_beta)
    a, b = pair
    qs = []
    for x in exchanges:
        za = 0.0 if x.offerer is None else (1.0 if x.offerer == a else -1.0)
        eta = float(t[index[a]] - t[index[b]]) + beta * za
        qs.append(1.0 / (1.0 + math.exp(-eta)))
    return direction_p([x.value for x in exchanges], [x.giver == a for x in exchanges], qs)


def _z(x: OneSided) -> float:
    if x.offerer is None:
        return 0.0
    return 1.0 if x.offerer == x.giver else -1.0


def receivers_p(pair: tuple[str, str], one_sided: Sequence[OneSided],
                partners: Mapping[str, set[str]]) -> tuple[float, float]:
    """Candidate (b): for each direction (giver -> taker) the pair's exchanges took, the chance that the
    giver's one-sided exchanges (all of them, with anyone) sent the taker at least as many, each landing on one
    of the giver's partners in proportion to that partner's one-sided receipts from others, plus one; the
    smaller of the two directions' chances, doubled.  Smallest attainable: all of them to the taker."""
    from daishi_forensics.screens.stats import binom_sf

    p_best, floor_best = 1.0, 1.0
    for giver, taker in (pair, pair[::-1]):
        sent = [x for x in one_sided if x.giver == giver]
        count = sum(1 for x in sent if x.taker == taker)
        mates = partners.get(giver, set())
        if not sent or taker not in mates:
            continue
        received = Counter(x.taker for x in one_sided if x.giver != giver)
        weights = {m: received.get(m, 0) + 1.0 for m in mates}
        share = weights[taker] / sum(weights.values())
        floor_best = min(floor_best, share ** len(sent))
        if count:
            p_best = min(p_best, binom_sf(count, len(sent), share))
    return min(1.0, 2.0 * p_best), min(1.0, 2.0 * floor_best)


def pushed_p(pair: tuple[str, str], exchanges: Sequence[OneSided]) -> tuple[float, float]:
    """Candidate (e): the shipped sign-flip test over the pair's one-sided exchanges that the receiver did not
    ask for (its offerer is not the receiver)."""
    from daishi_forensics.screens.stats import sign_flip_p

    signed = [x.value if x.giver == pair[0] else -x.value for x in exchanges if x.offerer != x.taker]
    return sign_flip_p(signed)


def requests_of(events: Any, values: Mapping[str, float], min_dir: float) -> list[Request]:
    """The one-sided requests of a log that ended, in the order offered: every ``trade_offered`` to another
    seat whose asker would receive at least ``min_dir`` of the value (the screen's one-sided rule, ``one_sided_exchanges``, read from
    the asker's side: it receives ``r > 0``, gives ``g``, ``(r - g) / (r + g) >= min_dir``), granted when a
    ``trade_completed`` or ``trade_fulfilled`` of its ``tradeId`` follows, refused when only a
    ``trade_cancelled`` does; open ones and ones with an item ``values`` lacks are left out.

    >>> log = [{"type": "trade_offered", "agentId": "b", "payload": {"tradeId": "t1", "to": "a",
    ...         "give": {}, "receive": {"food": 2}}},
    ...        {"type": "trade_completed", "agentId": "a", "payload": {"tradeId": "t1"}}]
    >>> requests_of(log, {"food": 2.0}, 0.6)
    [Request(asker='b', to='a', granted=True)]
    """
    offered: dict[Any, tuple[str, str]] = {}
    ends: dict[Any, bool] = {}
    for e in events:
        kind = e.get("type")
        payload = e.get("payload") or {}
        tid = payload.get("tradeId")
        if kind == "trade_offered":
            asker, to = e.get("agentId"), payload.get("to")
            if tid in offered or not isinstance(asker, str) or not isinstance(to, str) or to == asker:
                continue
            give, receive = payload.get("give") or {}, payload.get("receive") or {}
            if any(k not in values for k in (*give, *receive)):
                continue
            r = sum(n * values[k] for k, n in receive.items())
            g = sum(n * values[k] for k, n in give.items())
            if r > 0 and (r - g) / (r + g) >= min_dir:
                offered[tid] = (asker, to)
        elif kind in ("trade_completed", "trade_fulfilled"):
            ends[tid] = True
        elif kind == "trade_cancelled":
            ends.setdefault(tid, False)
    return [Request(asker, to, ends[tid]) for tid, (asker, to) in offered.items() if tid in ends]


def request_p(asker: str, to: str, requests: Sequence[Request], seats_out: bool = False,
              granter: bool = False) -> tuple[float, float] | None:
    """The request test of ``asker``'s one-sided requests to ``to``: how many were granted, against the grant
    rate of the match's one-sided requests between every other pair (``seats_out``: between seats other than
    these two; ``granter``: the requests every other asker made to ``to``) as ``(granted + 1) / (ended + 2)``,
    a binomial upper tail; ``(p, smallest attainable p)``, None when the asker made none."""
    from daishi_forensics.screens.stats import binom_sf

    mine = [r for r in requests if r.asker == asker and r.to == to]
    if not mine:
        return None
    pair = {asker, to}
    if granter:
        others = [r for r in requests if r.to == to and r.asker != asker]
    elif seats_out:
        others = [r for r in requests if r.asker not in pair and r.to not in pair]
    else:
        others = [r for r in requests if {r.asker, r.to} != pair]
    rate = (sum(1 for r in others if r.granted) + 1.0) / (len(others) + 2.0)
    granted = sum(1 for r in mine if r.granted)
    return binom_sf(granted, len(mine), rate), rate ** len(mine)


def granted_p(pair: tuple[str, str], exchanges: Sequence[OneSided], requests: Sequence[Request],
              seats_out: bool = False, granter: bool = False) -> tuple[float, float]:
    """Candidate (f) (``seats_out``: (g); ``granter``: (h)): (e)'s sign flip over the pair's one-sided
    exchanges their receiver did not ask for, and each direction's :func:`request_p`; of those whose smallest
    attainable p is below 1, the smallest p times their number (and the smallest attainable likewise)."""
    parts = [pushed_p(pair, exchanges)]
    for asker, to in (pair, pair[::-1]):
        found = request_p(asker, to, requests, seats_out, granter)
        if found is not None:
            parts.append(found)
    testable = [t for t in parts if t[1] < 1.0]
    if not testable:
        return 1.0, 1.0
    m = len(testable)
    return min(1.0, m * min(p for p, _ in testable)), min(1.0, m * min(q for _, q in testable))


def granter_p(pair: tuple[str, str], exchanges: Sequence[OneSided], requests: Sequence[Request]) -> tuple[float, float]:
    """Candidate (h): :func:`granted_p` with each request test read against the granter's own grant rate of
    the one-sided requests of every other asker.

    >>> asks = [Request("r", "g", True)] * 4 + [Request("x", "g", False)] * 2 + [Request("x", "g", True)]
    >>> [round(p, 12) for p in granter_p(("g", "r"), [], asks)]  # 4 of 4 against (1 + 1) / (3 + 2): 0.4 ** 4
    [0.0256, 0.0256]
    """
    return granted_p(pair, exchanges, requests, granter=True)


def _score(p: float) -> float:
    """The half-normal score of a two-sided p-value."""
    from statistics import NormalDist

    return -NormalDist().inv_cdf(max(p, 1e-300) / 2.0) if p < 1.0 else 0.0


def empirical_scale(tested: Sequence[tuple[float, int]]) -> float:
    """Candidate (c)'s scale: the median half-normal score of the match's pairs with at least
    :data:`EMPIRICAL_MIN` one-sided exchanges (``(p, n)``), over the half-normal median, never below 1."""
    scores = sorted(_score(p) for p, n in tested if n >= EMPIRICAL_MIN)
    if not scores:
        return 1.0
    mid = len(scores) // 2
    median = scores[mid] if len(scores) % 2 else (scores[mid - 1] + scores[mid]) / 2.0
    return max(1.0, median / HALF_NORMAL_MEDIAN)


def empirical_p(p: float, smallest: float, scale: float) -> tuple[float, float]:
    """Candidate (c): the sign-flip ``p`` (and its smallest attainable) read at the match's scale."""
    from statistics import NormalDist

    def widen(x: float) -> float:
        return min(1.0, 2.0 * NormalDist().cdf(-_score(x) / scale)) if x < 1.0 else 1.0

    return widen(p), widen(smallest)


# -- one match -----------------------------------------------------------------------------------


def one_sided_of(view: Any, min_dir: float, offerers: Mapping[Any, str]) -> dict[tuple[str, str], list[OneSided]]:
    """Per screened pair, its one-sided exchanges as the feeder screen reads them
    (:func:`~daishi_forensics.screens.feeder.one_sided_exchanges`), with their offerers where the log says."""
    from daishi_forensics.screens.feeder import one_sided_exchanges

    return {(a, b): [OneSided(*((a, b) if v > 0 else (b, a)), abs(v), offerer_of(x.key, offerers)) for x, v in rows]
            for (a, b), rows in one_sided_exchanges(view, min_dir).items()}


def offerer_of(key: Any, offerers: Mapping[Any, str]) -> str | None:
    """Who offered the exchange ``key`` (the match adapter names a trade's exchange ``trade:<tradeId>``)."""
    found = offerers.get(key)
    if found is None and isinstance(key, str) and ":" in key:
        found = offerers.get(key.split(":", 1)[1])
    return found


def partners_of(view: Any) -> dict[str, set[str]]:
    """Every seat's partners: the seats it made any valued voluntary exchange with."""
    mates: dict[str, set[str]] = {}
    for (a, b), pair in view.pairs.items():
        if any(not x.unvalued for x in pair.exchanges):
            mates.setdefault(a, set()).add(b)
            mates.setdefault(b, set()).add(a)
    return mates


def null_tests(view: Any, min_dir: float, offerers: Mapping[Any, str],
               requests: Sequence[Request] = ()) -> dict[str, dict[tuple[str, str], tuple[float, float]]]:
    """Per candidate null, per tested pair ``(a, b)``: ``(p, smallest attainable p)``; ``requests`` are the
    match's one-sided requests (:func:`requests_of`), of which those of seats the screens exempt are left out."""
    from daishi_forensics.screens.stats import sign_flip_p

    pairs = one_sided_of(view, min_dir, offerers)
    every = [x for rows in pairs.values() for x in rows]
    seats = sorted({s for x in every for s in (x.giver, x.taker)})
    mates = partners_of(view)
    asks = [r for r in requests if r.asker not in view.exempt and r.to not in view.exempt]
    out: dict[str, dict[tuple[str, str], tuple[float, float]]] = {name: {} for name in NULLS}
    flips: list[tuple[float, int]] = []
    for key, rows in pairs.items():
        signed = [x.value if x.giver == key[0] else -x.value for x in rows]
        out["signflip"][key] = sign_flip_p(signed)
        flips.append((out["signflip"][key][0], len(rows)))
        others = [x for x in every if {x.giver, x.taker} != set(key)]
        out["propensity"][key] = propensity_p(key, rows, others, seats, False)
        out["asked"][key] = propensity_p(key, rows, others, seats, True)
        out["receivers"][key] = receivers_p(key, every, mates)
        out["pushed"][key] = pushed_p(key, rows)
        out["granted"][key] = granted_p(key, rows, asks)
        out["granted-seats"][key] = granted_p(key, rows, asks, seats_out=True)
        out["granter"][key] = granter_p(key, rows, asks)
    scale = empirical_scale(flips)
    for key, (p, smallest) in out["signflip"].items():
        out["empirical"][key] = empirical_p(p, smallest, scale)
    out["share"] = dict(out["signflip"])  # (i) tests as shipped; its floor is applied to the feeds
    return out


def feeder_flags_under(view: Any, config: Any, result: Any, tests: Mapping[tuple[str, str], tuple[float, float]],
                       giver_share: float = 0.0) -> list[Any]:
    """The feeder screen's flags when its tests (and the operator screen's, which are the feeder's
    hypotheses) take ``tests``' p-values, through the screen's own match-level step; ``giver_share``:
    candidate (i)'s floor on the feeds (0 for the others, as they were measured: the screens of configuration
    2.14.0; since 2.15.0 the shipped screen is (i))."""
    from dataclasses import replace

    from daishi_forensics.screens.feeder import feeds
    from daishi_forensics.screens.screening import TYPOLOGIES, calibrate, typology_share
    from daishi_forensics.screens.stats import Test

    params = dict(config.screens["feeder"])
    params["min_giver_share"] = giver_share  # candidates (a) to (h) were measured without the floor
    found, _ = feeds(view, params)
    new_tests = []
    for t in result.tests:
        key = t.key
        if isinstance(key, tuple) and key and key[0] == "feeder":
            p, smallest = tests.get((key[1], key[2]), (1.0, 1.0))
            new_tests.append(Test(key, p, smallest))
        else:
            new_tests.append(t)
    candidates = []
    for c in found:
        key = c.keys[0]
        p = tests.get((key[1], key[2]), (1.0, 1.0))[0]
        candidates.append(replace(c, flag=replace(c.flag, p_value=p)))
    typologies = [s for s in TYPOLOGIES if s in config.screens and config.enabled(s)]
    share = typology_share(config, new_tests, typologies)
    flags, _ = calibrate(candidates, new_tests, config, view, holm_alpha=config.false_alarm_rate * (1.0 - share))
    return [f for f in flags if f.screen == "feeder"]


def measure(job: tuple[str, int, str, str]) -> dict[str, Any]:
    """One match of the split: simulated, replayed, screened as shipped, then its feeder tests under each
    candidate null through the match-level step.  Returns the raised feeder pairs per null, the planted
    groups and pairs, and the seconds each part took."""
    from daishi_forensics.read.archive import item_values
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match
    from daishi_forensics.report.passes import analyze
    from daishi_forensics.report.screening import SCREEN_PASSES, match_graph
    from daishi_forensics.screens import load_config
    from daishi_forensics.screens.graph import TransferView
    from daishi_forensics.screens.screening import screen_view
    from daishi_forensics.simulate import simulate_match, write_match

    kind, seed, noise, size = job
    started = time.perf_counter()
    if kind == "feeder-asks":
        match = simulate_match("feeder", seed, noise=noise, feeder_mode="ask", **dict(SIZES)[size])
    else:
        match = simulate_match(kind, seed, noise=noise, **dict(SIZES)[size])
    offerers: dict[Any, str] = {}
    trading: list[dict[str, Any]] = []
    for e in match.iter_events():
        if e.get("type") in ("trade_completed", "trade_fulfilled"):
            payload = e.get("payload") or {}
            offerers.setdefault(payload.get("tradeId"), payload.get("from"))
        if e.get("type") in ("trade_offered", "trade_completed", "trade_fulfilled", "trade_cancelled"):
            trading.append(e)
    with tempfile.TemporaryDirectory() as tmp:
        path = write_match(match, Path(tmp))
        graph = match_graph(analyze(read_match(open_match(str(path))), only=SCREEN_PASSES))
    simulated = time.perf_counter() - started
    config = load_config()
    started = time.perf_counter()
    view = TransferView(graph, exempt_roles=config.exempt_roles, fair_ratio=float(config.general.get("fair_ratio", 2.0)))
    result = screen_view(view, config)
    screened = time.perf_counter() - started
    shipped = sorted(tuple(sorted(p)) for f in result.flags if f.screen == "feeder" for p in f.pairs)
    min_dir = float(config.screens["feeder"]["min_directionality"])
    started = time.perf_counter()
    requests = requests_of(trading, item_values(match.archive), min_dir)
    tested = null_tests(view, min_dir, offerers, requests)
    costs = {"nulls": time.perf_counter() - started}
    costs["requests"] = len(requests)
    costs["granted"] = sum(1 for r in requests if r.granted)
    sided = [x for rows in one_sided_of(view, min_dir, offerers).values() for x in rows]
    costs["offererKnown"] = sum(1 for x in sided if x.offerer is not None) / len(sided) if sided else 1.0
    costs["askedShare"] = sum(1 for x in sided if x.offerer == x.taker) / len(sided) if sided else 0.0
    raised: dict[str, list[tuple[str, str]]] = {}
    for name in NULLS:
        flags = feeder_flags_under(view, config, result, tested[name], GIVER_SHARE if name == "share" else 0.0)
        raised[name] = sorted({tuple(sorted(p)) for f in flags for p in f.pairs})  # type: ignore[misc]
    planted = [p for p in match.truth["planted"] if p["kind"] == "feeder"]
    bene = {(p["beneficiary"], s) for p in planted for s in p["spokes"]}
    costs["plantRequests"] = sum(1 for r in requests if (r.asker, r.to) in bene)
    costs["plantGranted"] = sum(1 for r in requests if (r.asker, r.to) in bene and r.granted)
    return {"kind": kind, "seed": seed, "noise": noise, "size": size, "raised": raised, "shipped": shipped,
            "groups": [sorted(p["agents"]) for p in match.truth["planted"]],
            "planted": sorted(tuple(sorted((p["beneficiary"], s))) for p in planted for s in p["spokes"]),
            "simulated": simulated, "screened": screened, **costs}


# -- the run ---------------------------------------------------------------------------------------


def rate_ci(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} {k / n if n else 0:.3f} [{lo:.3f}, {hi:.3f}]"


def jobs(planted: int, clean: int, noise: Sequence[str], asking: int = 0,
         split: str = SPLIT) -> list[tuple[str, int, str, str]]:
    """Every match of a run: per size and level, the planted feeder seeds, the first ``asking`` of them again
    with the beneficiary asking (``feeder-asks``), and the honest seeds, of ``split``."""
    p_seeds, c_seeds = seeds(planted, clean, split)
    if not 0 <= asking <= planted:
        raise ValueError("the asking plants are played on the planted seeds: at most as many")
    out = []
    for size, _ in SIZES:
        for level in noise:
            out += [("feeder", s, level, size) for s in p_seeds]
            out += [("feeder-asks", s, level, size) for s in p_seeds[:asking]]
            out += [("clean", s, level, size) for s in c_seeds]
    return out


def _planted_figures(plant: Sequence[Mapping[str, Any]], name: str) -> tuple[int, int, int, int]:
    """Planted pairs found, planted pairs, raised pairs of a planted group, raised pairs."""
    found = sum(len(set(map(tuple, r["planted"])) & set(map(tuple, r["raised"][name]))) for r in plant)
    total = sum(len(r["planted"]) for r in plant)
    raised = sum(len(r["raised"][name]) for r in plant)
    right = sum(1 for r in plant for a, b in r["raised"][name] if any(a in g and b in g for g in r["groups"]))
    return found, total, right, raised


def report(rows: Sequence[Mapping[str, Any]], noise: Sequence[str]) -> None:
    """Print the figures per candidate, size and level: honest matches with a feeder finding, and recall and
    precision on each kind of planted match the run holds."""
    mismatched = [r for r in rows if sorted(map(tuple, r["raised"]["share"])) != sorted(map(tuple, r["shipped"]))]
    print(f"(i) through this bench's step against the shipped screen (configuration 2.15.0 on): {len(mismatched)} "
          "matches differ")
    kinds = [k for k in PLANTED_KINDS if any(r["kind"] == k for r in rows)]
    for name in NULLS:
        print(f"\n== {name} ==")
        print("  size             noise    honest with a feeder finding   "
              + "".join(f"{k + ' recall':28s}{k + ' precision':28s}" for k in kinds))
        pooled = {k: [0, 0, 0, 0] for k in kinds}
        alarms_all = honest_all = 0
        for size, _ in SIZES:
            for level in noise:
                cell = [r for r in rows if r["size"] == size and r["noise"] == level]
                honest = [r for r in cell if r["kind"] == "clean"]
                alarms = sum(1 for r in honest if r["raised"][name])
                alarms_all += alarms
                honest_all += len(honest)
                line = f"  {size:16s} {level:8s} {rate_ci(alarms, len(honest)):30s} "
                for k in kinds:
                    found, total, right, raised = _planted_figures([r for r in cell if r["kind"] == k], name)
                    pooled[k] = [x + y for x, y in zip(pooled[k], (found, total, right, raised))]
                    line += f"{rate_ci(found, total):28s}{rate_ci(right, raised):28s}"
                print(line)
        line = f"  {'pooled':16s} {'':8s} {rate_ci(alarms_all, honest_all):30s} "
        for k in kinds:
            found, total, right, raised = pooled[k]
            line += f"{rate_ci(found, total):28s}{rate_ci(right, raised):28s}"
        print(line)
    print("\n== cost (s per match, mean) ==")
    for size, _ in SIZES:
        mine = [r for r in rows if r["size"] == size]
        if mine:
            print(f"  {size:16s} simulate+replay {np.mean([r['simulated'] for r in mine]):.3f}  "
                  f"screen {np.mean([r['screened'] for r in mine]):.3f}  "
                  f"candidate nulls (all eight) {np.mean([r['nulls'] for r in mine]):.4f}")
    print("\n== one-sided exchanges and requests (means per match) ==")
    for kind in (*kinds, "clean"):
        for size, _ in SIZES:
            for level in noise:
                mine = [r for r in rows if r["size"] == size and r["noise"] == level and r["kind"] == kind]
                if not mine:
                    continue
                requests = sum(r["requests"] for r in mine)
                granted = sum(r["granted"] for r in mine)
                plant = sum(r["plantRequests"] for r in mine)
                plant_granted = sum(r["plantGranted"] for r in mine)
                print(f"  {kind:12s} {size:16s} {level:8s} offerer known {np.mean([r['offererKnown'] for r in mine]):.3f}, "
                      f"asked for by the receiver {np.mean([r['askedShare'] for r in mine]):.3f}; one-sided requests "
                      f"ended {requests / len(mine):.1f}, granted {granted / requests if requests else 0:.3f}; "
                      f"the beneficiary's to its spokes {plant / len(mine):.1f}, granted "
                      f"{plant_granted / plant if plant else 0:.3f}")
    print("\n== honest seeds with a finding, per candidate (size, level: seeds) ==")
    for name in NULLS:
        for size, _ in SIZES:
            for level in noise:
                hit = [r["seed"] for r in rows if r["size"] == size and r["noise"] == level and r["kind"] == "clean"
                       and r["raised"][name]]
                if hit:
                    print(f"  {name:10s} {size:16s} {level:8s} {hit}")
    print("\n== planted pairs missed, per candidate (kind, size, level: seed and pair) ==")
    for name in ("signflip", "pushed", "granted", "granted-seats", "granter", "share"):
        for r in rows:
            if r["kind"] in kinds:
                missed = sorted(set(map(tuple, r["planted"])) - set(map(tuple, r["raised"][name])))
                if missed:
                    print(f"  {name:10s} {r['kind']:12s} {r['size']:16s} {r['noise']:8s} {r['seed']} {missed}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clean", type=int, default=150, help="honest matches per size and level")
    parser.add_argument("--seeds", type=int, default=12, help="planted feeder matches per size and level")
    parser.add_argument("--asking", type=int, default=0,
                        help="of those planted seeds, how many to play again with the beneficiary asking")
    parser.add_argument("--noise", default=",".join(NOISE), help="noise levels, comma-separated")
    parser.add_argument("--split", choices=sorted(SPLITS), default=SPLIT, help="the study split's seeds")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    noise = tuple(args.noise.split(","))
    todo = jobs(args.seeds, args.clean, noise, args.asking, args.split)
    first_planted, first_clean, _ = SPLITS[args.split]
    print(f"split {args.split}: planted seeds {first_planted}..{first_planted + args.seeds - 1}, honest seeds "
          f"{first_clean}..{first_clean + args.clean - 1}, the first {args.asking} planted seeds also with the "
          f"beneficiary asking; {len(todo)} matches; load average {os.getloadavg()[0]:.2f}")
    rows = run_jobs(measure, todo, args.workers, every=250)
    report(rows, noise)
    return 0


if __name__ == "__main__":
    sys.exit(main())
