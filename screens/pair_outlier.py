"""Pair outliers: the collusion table (Mazrooei, Archibald and Bowling, AAAI 2013).

The evaluation design's collusion screens: "pattern-free collusion tables (pairwise mutual-advantage outliers,
AAAI 2013)".  Mazrooei et al. detect collusion without a model of *how* players
collude: for every pair they measure how much each helped the other, and flag the
pairs whose mutual advantage stands out from the population.  Here the table has one
row per pair ``a < b`` that interacted, with four measures of mutual advantage, each
oriented so that more is more advantage:

``oneWayValue``   net value moved between them (trades, gifts, raids, thefts), in
                  typical exchanges of the match: value moved each way, netted (fair
                  trade nets 0, rivals' raids on each other cancel);
``jointGain``     the smaller of the two's net gains from everyone else, in typical
                  exchanges: *both* grew richer at the others' expense (a single rich
                  player does not make each of its pairs a joint gain);
``restraint``     aggression between them that opportunity predicted but that did not
                  happen: each one's acts times the share of its time-together spent with
                  the other, summed, minus the acts between them (0 without co-location
                  data; negative for rivals);
``coLocation``    ticks they stood together over the match's ticks.

Against the match: each measure is standardised robustly (median and MAD; the centre of
a measure with a point of no advantage -- no value moved, no gain, no sparing -- is never
taken below that point, so a match where many pairs lose, as spokes do, does not make an
ordinary pair look advantaged; the MAD
floored at ``value_floor`` typical exchanges for the value measures, ``count_floor``
acts for restraint and ``share_floor`` for co-location, so that a match where nearly
every pair scores 0 does not turn a small difference into a huge z).  Only the
advantage side counts (``max(z, 0)``); the score is the root of the sum of squares.  A
pair is raised for ``review`` when the score is at least ``threshold`` *and* at least
``min_features`` measures each reach ``min_feature_z``: one extreme measure alone is the
honest cases (a pair that shares a region, a strong player's customers), mutual
advantage shows on several at once.

Against the season: the same rows of every match, pooled; location and scatter come
from scikit-learn's Minimum Covariance Determinant (:class:`sklearn.covariance.MinCovDet`):
the measures are correlated (co-located pairs trade more), so a per-measure z would
count one effect twice, and MCD fits the covariance of the honest majority while
ignoring up to half the rows as contamination, which a plain covariance would not.
It runs only where it helps: with at least ``season_min_rows`` rows (ten per measure
and more); otherwise, or when the covariance is singular, the per-measure robust z is
used.  Rows whose robust Mahalanobis distance is at least ``season_threshold`` and which
meet the ``min_features`` rule are raised for review.  MCD is fitted on at most
``season_fit_rows`` rows drawn at random (the honest majority's covariance does not need
every row, and the fit grows faster than linearly); its random start and the draw are
seeded, so the same season gives the same verdict.
"""

from __future__ import annotations

import math
import warnings
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from statistics import median
from typing import Any

from .flags import Flag, ordered
from .graph import TransferView
from .stats import Candidate, Test

__all__ = ["FEATURES", "PairRow", "pair_outlier", "pair_table", "season_outliers"]

_NEUTRAL = {"oneWayValue": 0.0, "jointGain": 0.0, "restraint": 0.0}
"""Measures with a point of no advantage: their centre is never taken below it."""

FEATURES: tuple[str, ...] = ("oneWayValue", "jointGain", "restraint", "coLocation")
"""The measures of mutual advantage, in table order."""


@dataclass(frozen=True)
class PairRow:
    """One row of the collusion table."""

    a: Any
    b: Any
    features: tuple[float, ...]
    """The measures, in :data:`FEATURES` order."""
    evidence: tuple[Any, ...]
    """Every event between the two."""
    match: str | None = None


def pair_table(view: TransferView, match: str | None = None) -> list[PairRow]:
    """The collusion table of one match: a row per pair of screened nodes that traded,
    fought or stood together (``match`` names the match on each row)."""
    scale = view.scale or 0.0
    nodes = view.screened_nodes()
    screened = set(nodes)
    gain: dict[Any, float] = {n: 0.0 for n in view.nodes}
    acts_by: dict[Any, int] = {n: 0 for n in view.nodes}
    net_between: dict[tuple[Any, Any], float] = {}
    for (a, b), flow in view.pairs.items():
        net_a = -flow.net_from(a)  # what a gained from b, voluntarily
        for act in flow.acts:
            acts_by[act.aggressor] = acts_by.get(act.aggressor, 0) + 1
            if act.value:
                net_a += act.value if act.aggressor == a else -act.value
        net_between[(a, b)] = net_a
        gain[a] = gain.get(a, 0.0) + net_a
        gain[b] = gain.get(b, 0.0) - net_a
    contact_total: dict[Any, float] = {}
    if view.contact is not None:
        for (x, y), t in view.contact.items():
            contact_total[x] = contact_total.get(x, 0.0) + t
            contact_total[y] = contact_total.get(y, 0.0) + t
    keys = {k for k in view.pairs if k[0] in screened and k[1] in screened}
    if view.contact is not None:
        keys |= {k for k, t in view.contact.items() if t > 0 and k[0] in screened and k[1] in screened}
    ticks = view.ticks
    max_contact = max(view.contact.values(), default=0.0) if view.contact else 0.0
    rows: list[PairRow] = []
    contact = view.contact or {}
    for a, b in sorted(keys, key=lambda k: (view._rank.get(k[0], -1), view._rank.get(k[1], -1))):
        pair = view.pairs.get((a, b))  # the keys are the view's own (pairs', contact's): no re-keying
        between = net_between.get((a, b), 0.0)
        joint = min(gain[a] - between, gain[b] + between)
        together = contact.get((a, b), 0.0)
        expected = 0.0
        for x in (a, b):
            if contact_total.get(x):
                expected += acts_by.get(x, 0) * together / contact_total[x]
        restraint = expected - (len(pair.acts) if pair is not None else 0)
        co = together / ticks if ticks else (together / max_contact if max_contact else 0.0)
        features = (
            abs(between) / scale if scale else 0.0,
            joint / scale if scale else 0.0,
            restraint,
            min(co, 1.0),
        )
        evidence = () if pair is None else \
            ordered({e for x in pair.exchanges for e in x.events} | {e for act in pair.acts for e in act.events})
        rows.append(PairRow(a, b, features, tuple(evidence), match))
    return rows


def _robust_z(rows: Sequence[PairRow], params: Mapping[str, Any]) -> list[list[float]]:
    floors = {"oneWayValue": float(params["value_floor"]), "jointGain": float(params["value_floor"]),
              "restraint": float(params["count_floor"]), "coLocation": float(params["share_floor"])}
    columns = list(zip(*(r.features for r in rows)))
    out: list[list[float]] = [[0.0] * len(FEATURES) for _ in rows]
    for j, name in enumerate(FEATURES):
        col = columns[j]
        center = median(col)
        if name in _NEUTRAL:  # never below "no advantage": a match full of feeding does not lower the bar
            center = max(center, _NEUTRAL[name])
        mad = 1.4826 * median(abs(x - center) for x in col)
        spread = max(mad, floors[name])
        for i, x in enumerate(col):
            out[i][j] = (x - center) / spread
    return out


def _combined(z: Sequence[float]) -> float:
    """The root of the summed squares of the positive robust z: a square past the largest double (a floor
    set far below the measures' spread) is summed without overflow (``hypot``), as large as it is."""
    try:
        return math.sqrt(sum(max(v, 0.0) ** 2 for v in z))
    except OverflowError:
        return math.hypot(*(max(v, 0.0) for v in z))


def _flag(row: PairRow, score: float, threshold: float, z: Sequence[float], scope: str) -> Flag:
    strong = [FEATURES[j] for j, v in enumerate(z) if v > 0]
    described = ", ".join(f"{name} {row.features[FEATURES.index(name)]:.2f}" for name in strong)
    return Flag(
        screen="pair_outlier",
        kind="mutual_advantage",
        level="review",
        agents=(row.a, row.b),
        pairs=((row.a, row.b),),
        score=score,
        threshold=threshold,
        evidence=row.evidence,
        explanation=(
            f"{row.a} and {row.b} stand out from the other pairs of the {scope} on several measures of "
            f"mutual advantage at once ({described})."
        ),
        details={
            "scope": scope,
            "features": {name: row.features[j] for j, name in enumerate(FEATURES)},
            "robustZ": {name: z[j] for j, name in enumerate(FEATURES)},
        },
        match=row.match if scope == "season" else None,
    )


def _raise(z: Sequence[float], params: Mapping[str, Any]) -> bool:
    return sum(1 for v in z if v >= float(params["min_feature_z"])) >= int(params["min_features"])


OUTLIER_NULL = ("the pair is one of the match's pairs taken at random (its rank among them on the combined "
                "measure: at best 1 in the number of pairs)")
"""The pair-outlier null, in words."""


def pair_outlier(view: TransferView, params: Mapping[str, Any],
                 rows: list[PairRow] | None = None) -> tuple[list[Candidate], list[Test]]:
    """Mutual-advantage outliers against the other pairs of the match (module rule): the
    p-value of a pair is its rank among the match's pairs (the match's own distribution), so
    it is never below one over the number of pairs, and raises a review only where the
    match has pairs enough for that to be rare (the multiple-testing step leaves it out
    otherwise)."""
    rows = pair_table(view) if rows is None else rows
    if len(rows) < int(params["min_pairs"]):
        return [], []
    threshold = float(params["threshold"])
    scored = [(row, z, _combined(z)) for row, z in zip(rows, _robust_z(rows, params))]
    ranked = sorted(s for _, _, s in scored)
    n = len(scored)
    found: list[Candidate] = []
    tests: list[Test] = []
    for row, z, score in scored:
        if not row.evidence:
            continue
        at_least = n - bisect_left(ranked, score)
        p = at_least / n
        key = ("pair_outlier", row.a, row.b)
        tests.append(Test(key, p, 1 / n))
        if score >= threshold and _raise(z, params):
            flag = replace(_flag(row, score, threshold, z, "match"), p_value=p, null=OUTLIER_NULL)
            found.append(Candidate(flag, (key,), "review"))
    return found, tests


def season_outliers(rows: Sequence[PairRow], params: Mapping[str, Any]) -> list[Flag]:
    """Mutual-advantage outliers against every pair of the season (module rule)."""
    if len(rows) < int(params["min_pairs"]):
        return []
    z = _robust_z(rows, params)
    distances = _mcd_distances(z, params) if len(rows) >= int(params["season_min_rows"]) else None
    threshold = float(params["season_threshold"])
    flags: list[Flag] = []
    for i, row in enumerate(rows):
        if not row.evidence or not _raise(z[i], params):
            continue
        score = distances[i] if distances is not None else _combined(z[i])
        if score >= threshold:
            flags.append(_flag(row, score, threshold, z[i], "season"))
    return flags


def _mcd_distances(z: Sequence[Sequence[float]], params: Mapping[str, Any]) -> list[float] | None:
    """Robust Mahalanobis distances (MinCovDet, seeded); None when the fit is singular."""
    import numpy as np
    from sklearn.covariance import MinCovDet

    data = np.asarray(z, dtype=float)
    rng = np.random.default_rng(int(params["season_seed"]))
    limit = int(params["season_fit_rows"])
    fit = data if len(data) <= limit else data[np.sort(rng.choice(len(data), size=limit, replace=False))]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            mcd = MinCovDet(random_state=int(params["season_seed"])).fit(fit)
        except (ValueError, np.linalg.LinAlgError):
            return None
    if caught or not np.all(np.isfinite(mcd.covariance_)) or np.linalg.det(mcd.covariance_) <= 1e-12:
        return None
    return [float(math.sqrt(max(d, 0.0))) for d in mcd.mahalanobis(data)]
