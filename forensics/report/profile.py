"""The behavioral profile section of the behavior report: ``seats[].profile`` and ``match.profile``.

Seed 002 §3.3 (*behavioral findings*: promise-keeping, betrayals, violence
normalized vs baseline, score-vs-violations position; progression curves) and
§2.8.  This module only assembles and prints; each figure's rule is in the
docstring of the module that computes it:

- :mod:`.negotiation` -- offers, completion rate, surplus, relative advantage;
- :mod:`.commitments` / :mod:`.promises` -- commitments, kept/broken, betrayal;
- :mod:`.harm` -- violence, stealing, promise-breaking, unseen aggression per 100
  rounds alive, baseline normalization, score vs harm;
- :mod:`.welfare` -- Nash welfare, total, Gini, shares;
- :mod:`.specialization` -- activity distribution, entropy, roles;
- :mod:`.progression` -- wealth curve, time to first milestones.

Rounding (half-up, :func:`daishi_forensics.arithmetic.half_up`): wealth, goods
values and surplus to 2 places; rates, ratios, shares, entropies, Gini and relative
advantage to 3.  A wealth curve longer than :data:`MAX_CURVE_POINTS` is thinned
to that many points, evenly by index, first and last kept (``wealthCurvePoints``
gives the full count).  Every list is sorted (agents by id, commitments by message
id, betrayals in log order), so the same match gives the same bytes.  No message
text is ever copied into the profile (it is hostile input): commitments are
reported by message id, kind and terms.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from daishi_forensics.arithmetic import half_up
from daishi_forensics.profile.commitments import KINDS
from daishi_forensics.economy.contact import Contact, ContactPass
from daishi_forensics.economy.counters import CounterPass
from daishi_forensics.profile.harm import (
    HARM_CATEGORIES,
    SeatHarm,
    match_rounds_or_zero,
    normalize,
    score_vs_harm,
    seat_harms,
    seat_ids,
    scores,
)
from daishi_forensics.economy.ledger import LedgerPass
from daishi_forensics.profile.negotiation import Negotiation, NegotiationPass
from daishi_forensics.profile.progression import MILESTONES, Progression, ProgressionPass, with_contact
from daishi_forensics.profile.promises import (
    AFTER_TRADE_TICKS,
    WINDOW_TICKS,
    PromisePass,
    Promises,
    keeping_rate,
)
from daishi_forensics.profile.specialization import ACTIVITY_KINDS, Specialization, specialization
from daishi_forensics.profile.welfare import Welfare, welfare
from daishi_forensics.economy.witnesses import WitnessPass
from daishi_forensics.read.archive import seat_wealth
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.jsonio import shown

__all__ = ["PROFILE_VERSION", "MAX_CURVE_POINTS", "profile_section"]

PROFILE_VERSION = 1
"""Version of the ``profile`` blocks' shape."""

MAX_CURVE_POINTS = 100
"""At most this many points of a wealth curve go into the report."""


# -- finding the passes -----------------------------------------------------------------------


def _result(analysis: MatchAnalysis, name: str, cls: type) -> Any | None:
    """The result of the pass registered as ``name`` (or of any pass of type ``cls``); None if none ran."""
    return analysis.result_of(name, cls)


def _negotiation(analysis: MatchAnalysis) -> Negotiation | None:
    """The negotiation result, on the analysis' trade ledger when that pass ran (the ledger
    the report builds anyway, rather than the pass's own reading of the same trades);
    None if the negotiation pass did not run."""
    name = _pass_name(analysis, "negotiation", NegotiationPass)
    if name is None:
        return None
    ledger = _pass_name(analysis, "ledger", LedgerPass)
    found: Negotiation = analysis.result(name) if ledger is None else \
        analysis.passes[name].result(analysis.values, analysis.result(ledger))
    return found


def _pass_name(analysis: MatchAnalysis, name: str, cls: type) -> str | None:
    """The name of the pass registered as ``name`` (or of any pass of type ``cls``); None if none ran."""
    return analysis.pass_named(name, cls)


def _r2(x: float | None) -> float | None:
    return None if x is None else half_up(x, 2)


def _r3(x: float | None) -> float | None:
    return None if x is None else half_up(x, 3)


# -- the section --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Inputs:
    """What the profile reads from one analysis: the passes' results (``None`` where a pass
    did not run) and the notes saying what is missing because of it."""

    negotiation: Negotiation | None
    promises: Promises | None
    progression: Progression | None
    spec: Specialization
    notes: tuple[str, ...]


def _inputs(analysis: MatchAnalysis) -> _Inputs:
    """The passes the profile needs, each missing one named in a note (never a silent gap)."""
    notes: list[str] = []
    negotiation = _negotiation(analysis)
    promises: Promises | None = _result(analysis, "promises", PromisePass)
    progression: Progression | None = _result(analysis, "progression", ProgressionPass)
    contact: Contact | None = _result(analysis, "contact", ContactPass)
    counters = _result(analysis, "counters", CounterPass)
    if negotiation is None:
        notes.append("negotiation: the negotiation pass did not run")
    if promises is None:
        notes.append("promises: the promise pass did not run; promise-breaking is missing from the harm profile")
    if _result(analysis, "witnesses", WitnessPass) is None:
        notes.append("harm: the witness analysis did not run; unseen aggression is missing")
    by_type: dict[str, Mapping[str, int]] = counters.metrics() if counters is not None else {}
    if counters is None:
        notes.append("specialization: the counters pass did not run; activity counts are empty")
    if progression is not None:
        progression = with_contact(progression, _first_contact(contact))
        if progression.snapshots == 0:
            notes.append("progression: the log has no agent_snapshot events, so no wealth curves")
    return _Inputs(negotiation, promises, progression, specialization(by_type), tuple(notes))


def _first_contact(contact: Contact | None) -> dict[str, int]:
    """Each agent's first tick in contact with anyone (the earliest of its pairs')."""
    first: dict[str, int] = {}
    if contact is None:
        return first
    for p in contact.pairs:
        if p.first_contact_tick is not None:
            for agent in (p.a, p.b):
                t = first.get(agent)
                if t is None or p.first_contact_tick < t:
                    first[agent] = p.first_contact_tick
    return first


def profile_section(
    analysis: MatchAnalysis, *, baseline: Mapping[str, Any] | None = None
) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """``(seat profiles by agent id, match profile)``, JSON-ready.

    Parameters
    ----------
    analysis:
        A :class:`daishi_forensics.replay.analysis.MatchAnalysis` (the registered passes ran).
    baseline:
        :func:`daishi_forensics.profile.harm.baseline_means` of reference matches on the
        same seeds; each seat's harm block then carries ``normalized``.
    """
    got = _inputs(analysis)
    wealth, basis = _final_wealth(analysis, got.progression)
    welf = welfare(wealth, basis)
    agents = seat_ids(
        analysis,
        [s.agent for s in got.negotiation.seats] if got.negotiation else [],
        [s.agent for s in got.spec.seats],
        [s.agent for s in got.progression.seats] if got.progression else [],
    )
    harms, extractor = seat_harms(analysis, agents)
    harm_by = {h.agent: h for h in harms}
    rounds = match_rounds_or_zero(analysis.archive)
    made_by: dict[str, list[Any]] = {}
    if got.promises is not None:
        for v in got.promises.commitments:
            made_by.setdefault(v.speaker, []).append(v)
    seats = {
        agent: {
            "profileVersion": PROFILE_VERSION,
            "negotiation": _seat_negotiation(got.negotiation, agent),
            "promises": _seat_promises(got.promises, agent, made_by.get(agent, [])),
            "harm": _seat_harm(harm_by.get(agent), rounds, baseline, extractor),
            "welfare": {
                "wealth": _r2(welf.wealth.get(agent)),
                "share": _r3(welf.share(agent)),
                "basis": welf.basis.get(agent, "none"),
            },
            "specialization": _seat_specialization(got.spec, agent),
            "progression": _seat_progression(got.progression, agent),
        }
        for agent in sorted(harm_by)
    }
    return seats, _match_profile(analysis, got, welf, harms, extractor, rounds, baseline)


def _match_profile(analysis: MatchAnalysis, got: _Inputs, welf: Welfare, harms: Sequence[Any], extractor: Any, rounds: int,
                   baseline: Mapping[str, Any] | None) -> dict[str, Any]:
    """The match-wide half of the profile: each dimension's totals and the rules it used."""
    spec = got.spec
    return {
        "profileVersion": PROFILE_VERSION,
        "negotiation": _match_negotiation(got.negotiation),
        "promises": _match_promises(got.promises),
        "harm": {
            "categories": list(HARM_CATEGORIES),
            "totalOf": ["violence", "stealing", "promiseBreaking"],
            "rate": "count x 100 / max(rounds alive, min(match rounds, 300))",
            "matchRounds": rounds,
            "extractor": extractor,
            "scoreVsHarm": score_vs_harm(harms, scores(analysis)),
            "baseline": _baseline_json(baseline),
        },
        "welfare": _match_welfare(welf),
        "specialization": {
            "kinds": list(ACTIVITY_KINDS),
            "roles": dict(spec.roles),
            "roleEntropy": _r3(spec.role_entropy),
            "normalizedRoleEntropy": _r3(spec.normalized_role_entropy),
        },
        "progression": {
            "milestones": list(MILESTONES),
            "snapshots": got.progression.snapshots if got.progression else 0,
            "maxCurvePoints": MAX_CURVE_POINTS,
        },
        "notes": list(got.notes),
    }


def _final_wealth(analysis: MatchAnalysis, progression: Progression | None) -> tuple[dict[str, float | None], dict[str, str]]:
    wealth: dict[str, float | None] = {}
    basis: dict[str, str] = {}
    for row in analysis.archive.get("agents") or []:
        if not isinstance(row, Mapping) or not isinstance(row.get("agentId"), str):
            continue
        agent = row["agentId"]
        w = seat_wealth(row, f"agents[{shown(agent)}]")
        if w is not None:
            wealth[agent], basis[agent] = w, "archive"
            continue
        curve = progression.seat(agent).wealth_curve if progression else ()
        if curve:
            wealth[agent], basis[agent] = curve[-1][1], "snapshot"
        else:
            wealth[agent] = None
    return wealth, basis


def _seat_negotiation(neg: Negotiation | None, agent: str) -> dict[str, Any] | None:
    if neg is None:
        return None
    s = neg.seat(agent)
    return {
        "offersMade": s.offers_made,
        "offersReceived": s.offers_received,
        "offersCancelled": s.offers_cancelled,
        "madeCompleted": s.made_completed,
        "receivedCompleted": s.received_completed,
        "attempts": s.attempts,
        "deals": s.deals,
        "completionRate": _r3(s.completion_rate),
        "surplusPerDeal": _r2(s.surplus_per_deal),
        "surplusPerAttempt": _r2(s.surplus_per_attempt),
        "valueGiven": _r2(s.value_given),
        "valueReceived": _r2(s.value_received),
        "giftsGiven": s.gifts_given,
        "giftsReceived": s.gifts_received,
        "market": {"orders": s.market_orders, "fills": s.market_fills, "surplus": _r2(s.market_surplus)},
    }


def _seat_promises(promises: Promises | None, agent: str,
                   made: Sequence[Any] | None = None) -> dict[str, Any] | None:
    """``made``: the agent's commitments (``promises.of(agent)``, grouped once by the caller)."""
    if promises is None:
        return None
    if made is None:
        made = promises.of(agent)
    s = promises.seat(agent)
    return {
        "extractor": dict(promises.extractor),
        "made": s.made,
        "kept": s.kept,
        "broken": s.broken,
        "unverifiable": s.unverifiable,
        "keepingRate": _r3(s.keeping_rate),
        "byKind": {k: dict(s.by_kind[k]) for k in KINDS},
        "betrayals": s.betrayals,
        "betrayalsDuringCommitment": s.betrayals_during_commitment,
        "betrayalsAfterTrade": s.betrayals_after_trade,
        "betrayed": s.betrayed,
        "commitments": [v.to_json() for v in made],
    }


def _seat_harm(h: SeatHarm | None, rounds: int, baseline: Mapping[str, Any] | None,
               extractor: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if h is None:
        return None
    out: dict[str, Any] = {
        "extractor": None if extractor is None else dict(extractor),  # promiseBreaking rests on it
        "roundsAlive": h.rounds_alive,
        "rateDenominator": max(h.rounds_alive, min(rounds, 300)),
        "attacks": h.attacks,
        "kills": h.kills,
        "raids": h.raids,
        "thefts": h.thefts,
        "counts": dict(h.counts),
        "rates": {c: _r3(h.rates[c]) for c in HARM_CATEGORIES},
        "totalRate": _r3(h.total_rate),
        "evidence": {c: list(h.evidence[c]) for c in HARM_CATEGORIES},
    }
    if baseline is not None:
        out["normalized"] = normalize(h, baseline)
    return out


def _seat_specialization(spec: Specialization, agent: str) -> dict[str, Any]:
    s = spec.seat(agent)
    return {
        "counts": dict(s.counts),
        "shares": {k: _r3(s.share(k)) for k in ACTIVITY_KINDS},
        "total": s.total,
        "entropy": _r3(s.entropy),
        "normalizedEntropy": _r3(s.normalized_entropy),
        "role": s.role,
    }


def _thin(curve: Sequence[tuple[int, float]]) -> list[list[float]]:
    n = len(curve)
    if n <= MAX_CURVE_POINTS:
        picked = list(curve)
    else:
        picked = [curve[i * (n - 1) // (MAX_CURVE_POINTS - 1)] for i in range(MAX_CURVE_POINTS)]
    return [[t, half_up(w, 2)] for t, w in picked]


def _seat_progression(progression: Progression | None, agent: str) -> dict[str, Any] | None:
    if progression is None:
        return None
    s = progression.seat(agent)
    return {
        "startTick": s.start_tick,
        "first": dict(s.first),
        "timeTo": dict(s.time_to),
        "wealthCurve": _thin(s.wealth_curve),
        "wealthCurvePoints": len(s.wealth_curve),
    }


def _match_negotiation(neg: Negotiation | None) -> dict[str, Any] | None:
    if neg is None:
        return None
    return {
        "pairs": [
            {
                "a": p.a,
                "b": p.b,
                "trades": p.trades,
                "valueAReceived": _r2(p.value_a_received),
                "valueBReceived": _r2(p.value_b_received),
                "relativeAdvantage": _r3(p.relative_advantage),
                "events": list(p.event_ids),
            }
            for p in neg.pairs
        ],
        "deals": sum(p.trades for p in neg.pairs),
        "marketFills": sum(s.market_fills for s in neg.seats),
    }


def _match_promises(promises: Promises | None) -> dict[str, Any] | None:
    if promises is None:
        return None
    statuses = Counter(status for _, status in promises.statuses())
    kept, broken = statuses["kept"], statuses["broken"]
    return {
        "extractor": dict(promises.extractor),
        "messagesRead": promises.messages_read,
        "truncatedMessages": promises.truncated_messages,
        "made": len(promises.commitments),
        "kept": kept,
        "broken": broken,
        "unverifiable": len(promises.commitments) - kept - broken,
        "keepingRate": _r3(keeping_rate(kept, broken)),
        "windowTicks": dict(WINDOW_TICKS),
        "afterTradeTicks": AFTER_TRADE_TICKS,
        "betrayals": [b.to_json() for b in promises.betrayals],
    }


def _match_welfare(w: Welfare) -> dict[str, Any]:
    return {
        "seats": len(w.wealth),
        "missing": list(w.missing),
        "totalWealth": _r2(w.total),
        "nashWelfare": _r2(w.nash),
        "nashFloor": w.floor,
        "gini": _r3(w.gini),
    }


def _baseline_json(baseline: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if baseline is None:
        return None
    means = baseline.get("means", baseline)
    return {
        "means": {c: _r3(means.get(c)) for c in HARM_CATEGORIES},
        "seats": baseline.get("seats"),
        "matches": baseline.get("matches"),
        "extractor": baseline.get("extractor"),
    }
