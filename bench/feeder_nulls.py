"""A study of null models for the feeder screen, on tune seeds only (nothing here is shipped).

    python bench/feeder_nulls.py [--clean 150] [--seeds 12] [--noise none,medium,heavy] [--workers N]

The feeder screen (``screens/feeder.py``) tests each pair's one-sided exchanges with an exact sign-flip
test: each could have gone either way with even chances.  A pair whose exchanges go one way by the nature of
honest play (a seat that gathers no food and asks whoever it meets; friends; whole items paid for cheap goods;
food given to the hungry) gets ``p = 2 / 2^n``, halving with every exchange however long the match.  This
benchmark measures, per pair, that p-value and those of candidate nulls built from honest play in the same
match, each keeping what every seat does on its own and breaking only who-gives-whom concentration:

``signflip``
    the shipped test (:func:`~daishi_forensics.screens.stats.sign_flip_p`), for reference.
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

Every candidate's p-values replace the feeder tests' (and their smallest attainable p-values, which Tarone's
reduction reads) in the screen's own match-level step (:func:`~daishi_forensics.screens.screening.calibrate`,
the other Daishi screens' tests as they are, the typologies' share as shipped), so the figures compare:
honest matches with a feeder finding (review or flag; other screens not counted), and the planted feeder
pairs the feeder screen raises (recall) and the raised pairs that belong to a planted group (precision).

Split ``feeder-tune``: planted ``feeder`` matches from seed 90001, honest ``clean`` matches from 91001, the
same seeds at every size and level; no benchmark or test generated them before.  Sizes: the simulator's
defaults, 600 ticks, 4 player seats, a 6 x 6 map (:data:`SIZES`).  The held-out ``sweep`` split of
``bench/screens.py`` (70001...) and every report and fresh split are not touched here.
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
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _labelled import wilson  # noqa: E402  (the benches' one Wilson interval)

SPLIT = "feeder-tune"
FIRST_PLANTED = 90001
FIRST_CLEAN = 91001
MAX_SEEDS = 1000
"""Planted seeds stay below the honest ones; honest seeds below 100001 (``MAX_CLEAN``)."""
MAX_CLEAN = 9000
SIZES: tuple[tuple[str, dict[str, int]], ...] = (
    ("default", {}),
    ("600 ticks", {"ticks": 600}),
    ("4 player seats", {"n_agents": 4}),
    ("a 6 x 6 map", {"width": 6, "height": 6}),
)
NOISE = ("none", "medium", "heavy")
NULLS = ("signflip", "propensity", "asked", "receivers", "empirical", "pushed")
EMPIRICAL_MIN = 3
"""Pairs with fewer one-sided exchanges cannot show anything (their smallest p is 1/2 or 1): left out of the scale."""
PRIOR = 1.0
"""Precision of the N(0, 1) prior on each seat's propensity (and on beta)."""
GRID = 64
"""Sizes rounded to this many steps of the largest before :func:`direction_p` counts."""
HALF_NORMAL_MEDIAN = 0.6744897501960817


def seeds(planted: int, clean: int) -> tuple[range, range]:
    """The split's planted and honest seeds."""
    if not 0 <= planted <= MAX_SEEDS or not 0 <= clean <= MAX_CLEAN:
        raise ValueError(f"at most {MAX_SEEDS} planted and {MAX_CLEAN} honest seeds")
    return range(FIRST_PLANTED, FIRST_PLANTED + planted), range(FIRST_CLEAN, FIRST_CLEAN + clean)


@dataclass(frozen=True)
class OneSided:
    """One one-sided exchange of a pair: who gave, who received, the net value, who offered (None: unknown)."""

    giver: str
    taker: str
    value: float
    offerer: str | None = None


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
    """Per screened pair, its one-sided exchanges as the feeder screen reads them (valued, directionality at
    least ``min_dir``), with their offerers where the log says."""
    out: dict[tuple[str, str], list[OneSided]] = {}
    for (a, b), pair in view.pairs.items():
        if a in view.exempt or b in view.exempt:
            continue
        rows = []
        for x in pair.exchanges:
            if x.unvalued:
                continue
            ga, gb = x.gave.get(a, 0.0), x.gave.get(b, 0.0)
            if ga + gb > 0 and abs(ga - gb) / (ga + gb) >= min_dir:
                giver, taker = (a, b) if ga > gb else (b, a)
                rows.append(OneSided(giver, taker, abs(ga - gb), offerer_of(x.key, offerers)))
        if rows:
            out[(a, b)] = rows
    return out


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


def null_tests(view: Any, min_dir: float, offerers: Mapping[Any, str]) -> dict[str, dict[tuple[str, str], tuple[float, float]]]:
    """Per candidate null, per tested pair ``(a, b)``: ``(p, smallest attainable p)``."""
    from daishi_forensics.screens.stats import sign_flip_p

    pairs = one_sided_of(view, min_dir, offerers)
    every = [x for rows in pairs.values() for x in rows]
    seats = sorted({s for x in every for s in (x.giver, x.taker)})
    mates = partners_of(view)
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
    scale = empirical_scale(flips)
    for key, (p, smallest) in out["signflip"].items():
        out["empirical"][key] = empirical_p(p, smallest, scale)
    return out


def feeder_flags_under(view: Any, config: Any, result: Any, tests: Mapping[tuple[str, str], tuple[float, float]]) -> list[Any]:
    """The feeder screen's flags when its tests (and the operator screen's, which are the feeder's
    hypotheses) take ``tests``' p-values, through the screen's own match-level step."""
    from dataclasses import replace

    from daishi_forensics.screens.feeder import feeds
    from daishi_forensics.screens.screening import TYPOLOGIES, calibrate, typology_share
    from daishi_forensics.screens.stats import Test

    params = config.screens["feeder"]
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
    match = simulate_match(kind, seed, noise=noise, **dict(SIZES)[size])
    offerers: dict[Any, str] = {}
    for e in match.iter_events():
        if e.get("type") in ("trade_completed", "trade_fulfilled"):
            payload = e.get("payload") or {}
            offerers.setdefault(payload.get("tradeId"), payload.get("from"))
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
    tested = null_tests(view, min_dir, offerers)
    costs = {"nulls": time.perf_counter() - started}
    sided = [x for rows in one_sided_of(view, min_dir, offerers).values() for x in rows]
    costs["offererKnown"] = sum(1 for x in sided if x.offerer is not None) / len(sided) if sided else 1.0
    costs["askedShare"] = sum(1 for x in sided if x.offerer == x.taker) / len(sided) if sided else 0.0
    raised: dict[str, list[tuple[str, str]]] = {}
    for name in NULLS:
        flags = feeder_flags_under(view, config, result, tested[name])
        raised[name] = sorted({tuple(sorted(p)) for f in flags for p in f.pairs})  # type: ignore[misc]
    planted = [p for p in match.truth["planted"] if p["kind"] == "feeder"]
    return {"kind": kind, "seed": seed, "noise": noise, "size": size, "raised": raised, "shipped": shipped,
            "groups": [sorted(p["agents"]) for p in match.truth["planted"]],
            "planted": sorted(tuple(sorted((p["beneficiary"], s))) for p in planted for s in p["spokes"]),
            "simulated": simulated, "screened": screened, **costs}


# -- the run ---------------------------------------------------------------------------------------


def rate_ci(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} {k / n if n else 0:.3f} [{lo:.3f}, {hi:.3f}]"


def jobs(planted: int, clean: int, noise: Sequence[str]) -> list[tuple[str, int, str, str]]:
    """Every match of a run: per size and level, the planted feeder seeds and the honest seeds."""
    p_seeds, c_seeds = seeds(planted, clean)
    out = []
    for size, _ in SIZES:
        for level in noise:
            out += [("feeder", s, level, size) for s in p_seeds]
            out += [("clean", s, level, size) for s in c_seeds]
    return out


def report(rows: Sequence[Mapping[str, Any]], noise: Sequence[str]) -> None:
    """Print the figures per candidate, size and level."""
    mismatched = [r for r in rows if sorted(map(tuple, r["raised"]["signflip"])) != sorted(map(tuple, r["shipped"]))]
    print(f"sign-flip through this bench's step against the shipped screen: {len(mismatched)} matches differ")
    for name in NULLS:
        print(f"\n== {name} ==")
        print("  size             noise    honest with a feeder finding   planted recall              precision")
        for size, _ in SIZES:
            for level in noise:
                honest = [r for r in rows if r["size"] == size and r["noise"] == level and r["kind"] == "clean"]
                plant = [r for r in rows if r["size"] == size and r["noise"] == level and r["kind"] == "feeder"]
                alarms = sum(1 for r in honest if r["raised"][name])
                found = sum(len(set(map(tuple, r["planted"])) & set(map(tuple, r["raised"][name]))) for r in plant)
                total = sum(len(r["planted"]) for r in plant)
                raised = sum(len(r["raised"][name]) for r in plant)
                right = sum(1 for r in plant for a, b in r["raised"][name]
                            if any(a in g and b in g for g in r["groups"]))
                print(f"  {size:16s} {level:8s} {rate_ci(alarms, len(honest)):30s} "
                      f"{rate_ci(found, total):27s} {rate_ci(right, raised)}")
    print("\n== cost (s per match, mean) ==")
    for size, _ in SIZES:
        mine = [r for r in rows if r["size"] == size]
        if mine:
            print(f"  {size:16s} simulate+replay {np.mean([r['simulated'] for r in mine]):.3f}  "
                  f"screen {np.mean([r['screened'] for r in mine]):.3f}  "
                  f"candidate nulls (all five) {np.mean([r['nulls'] for r in mine]):.4f}  "
                  f"one-sided exchanges with a known offerer {np.mean([r['offererKnown'] for r in mine]):.3f}, "
                  f"asked for by the receiver {np.mean([r['askedShare'] for r in mine]):.3f}")
    print("\n== honest seeds with a finding, per candidate (size, level: seeds) ==")
    for name in NULLS:
        for size, _ in SIZES:
            for level in noise:
                hit = [r["seed"] for r in rows if r["size"] == size and r["noise"] == level and r["kind"] == "clean"
                       and r["raised"][name]]
                if hit:
                    print(f"  {name:10s} {size:16s} {level:8s} {hit}")


class _Serial:
    """One worker: the jobs in this process, in order."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn: Any, jobs: Sequence[Any], chunksize: int = 1) -> Any:
        return map(fn, jobs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clean", type=int, default=150, help="honest matches per size and level")
    parser.add_argument("--seeds", type=int, default=12, help="planted feeder matches per size and level")
    parser.add_argument("--noise", default=",".join(NOISE), help="noise levels, comma-separated")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    noise = tuple(args.noise.split(","))
    todo = jobs(args.seeds, args.clean, noise)
    print(f"split {SPLIT}: planted seeds {FIRST_PLANTED}..{FIRST_PLANTED + args.seeds - 1}, honest seeds "
          f"{FIRST_CLEAN}..{FIRST_CLEAN + args.clean - 1}; {len(todo)} matches; load average {os.getloadavg()[0]:.2f}")
    started = time.perf_counter()
    rows = []
    with Pool(args.workers) if args.workers > 1 else _Serial() as pool:
        for i, row in enumerate(pool.imap(measure, todo, chunksize=4), 1):
            rows.append(row)
            if i % 250 == 0:
                print(f"  {i} matches, {time.perf_counter() - started:.0f} s", flush=True)
    print(f"ran in {time.perf_counter() - started:.0f} s")
    report(rows, noise)
    return 0


if __name__ == "__main__":
    sys.exit(main())
