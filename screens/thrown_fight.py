"""Thrown fights: raids and thefts a victim lets happen, again and again, from a partner.

The evaluation design's collusion screens count "thrown fights" among the flows of the
net-transfer graph, and read aggression and betrayal from attacks and raids.  A raid
between rivals is the game: the victim defends, retaliates, or stays away and stops
dealing with its aggressor.  A thrown fight is a transfer dressed as a fight: the victim
never hits back and keeps cooperating with the one who takes, and the one who takes hits
it far more often than it hits anyone else it stands beside.

Rule, per aggressor ``X`` and victim ``V``:

- the pattern: ``V`` never hit ``X`` back (at most ``max_retaliation`` acts), and the two
  otherwise cooperate -- they dealt with each other (at least ``min_cooperation``
  voluntary exchanges) or kept close company (stood together at least
  ``min_together_ratio`` times as long as the median pair of the match that met);
- the test: the number of forced acts ``X`` did on ``V`` against a Poisson count whose mean
  is ``X``'s own rate of hitting the others it stood beside (acts per tick together),
  shrunk towards the rate of the rest of the match (without this pair; half an act of prior)
  with the weight of one typical pair's ticks together, times the ticks ``X`` and ``V``
  stood together.  An aggressive seat that hits whoever it
  meets has a high rate, so hitting a partner proves little; one that hits nobody else and
  its partner again and again does not.  Honest aggression is lumpy (rivalries): the count
  is read as negative binomial whose spread is the match's own (Pearson's dispersion of the
  other aggressor-victim pairs against their Poisson means), so a match full of feuds asks
  more of a concentration.  Without co-location data, acts per partner dealt with stand in
  for acts per tick;
- the victim's silence: a victim hits back an aggressor it stands beside (rivals do); a thrown
  fight's victim stands beside its taker tick after tick and never does.  With co-location
  data, the chance that the victim hit back as seldom as it did (never, under the pattern) in
  the ticks it stood beside the aggressor, at the rate the match's victims hit back per tick
  beside one who had hit them (:func:`silence_ticks_p`: every hit pair but those where the
  aggressor hit or was hit, the victim's replies to its other aggressors among them; half a
  reply over one typical pair's ticks of prior), and no surer than the ticks that rate was
  read from (negative binomial: a Gamma with those ticks as its weight).  Without co-location
  data, per act: each act answered at the victim's own rate of answering its *other*
  aggressors, shrunk towards the rate of the match's pairs involving neither seat with the
  weight of ``ANSWER_PRIOR`` acts (beta-binomial).  Combined with the count by Fisher's product
  (the two independent under honest play), where the victims' answer rate per act is at least
  ``MIN_ANSWER_RATE`` (where victims do not answer, silence says nothing; where no other pair
  fought, there is no yardstick and only the count is read);
- a size floor, lowered by company or silence (:func:`passes_floor`): the acts took at least
  ``min_value`` typical exchanges leaving the largest act out (:func:`taken_again`: a thrown fight
  is a transfer, one side letting the other *take its goods* again and again; one theft of a dear
  good, a tool worth ten exchanges, is a robbery, and it made honest robberies pass a floor on the
  whole); where the two stood together at least ``company_ratio`` times as long as the match's
  median pair (they kept company far beyond any meeting of rivals) or the victim's silence alone
  is at most ``silence_level`` (:func:`kept_silent`: an honest victim passes it that seldom), at
  least ``min_value_gated`` (one typical exchange: the gates lower the floor, they do not remove
  it, since acts that took less than one ordinary exchange's worth again moved nothing, however
  long the two stood together).  The gate only removes a candidate: the pair's test is in the
  match's family whatever the acts took.

What tells a thrown fight from an honest one, from what the log and the transfer graph give
(forced acts with their kind, tick, value taken and who stood there; the pair's voluntary
exchanges; ticks together per pair; what the victim did to the aggressor):

- *the victim never answers* (the pattern), although victims elsewhere in the match do (the
  silence).  An honest victim hits back or stays away.  But in a quiet match nobody answers
  anybody, and then silence is no evidence;
- *the aggressor singles the victim out* (the count).  An honest vendetta does too, by
  construction: a seat hits its one rival and nobody else.  The count tells a thrown fight from
  a bully that hits whoever it meets, never from a vendetta;
- *the two keep dealing* (the pattern).  Neighbours trade with whoever stands beside them,
  rivals included: weak evidence;
- *the two keep company*.  A raider takes and moves on, and rivals meet where their paths
  cross; a thrown fight's pair stays together between the acts (the taker stays by its source,
  the victim never avoids it).  On the simulator's tune seeds (noise none, medium and heavy) the
  planted pairs stood together 7.6 to 48 times as long as the median pair (most over 12); the
  honest unanswered fights raised without the gate, 1.25 to 11.5 times;
- *the fight moves value*.  A thrown fight is a transfer; an honest vendetta harms (an attack
  takes nothing) and its thefts take little: planted fights took 2.2 to 59 typical exchanges in
  4 to 22 acts, the honest ones raised without the gate 0.4 to 7.0 in 1 to 8.  What the gates let
  through shows it again (configuration 2.17.0): honest vendettas passed by company or silence with
  one to six acts, attacks among most, taking 0 to 0.9 typical exchanges beside the largest (7 of
  the 10 honest thrown-fight flags in 8,800 honest study matches of every size), the planted fights
  2.2 and more everywhere but in 150-tick matches (0.36 to 0.91 in three of 25 found there).

Neither the company nor the size is yet a calibrated statistic: the nulls tried from the same
match (the value taken against the match's other acts, leaving the pair out; the victim's
answers per tick together against the match's; the ticks together against the match's pairs
under an exponential or a log-normal law) either have no yardstick where the vendetta is the
match's only fight (the commonest false alarm: 12 of the 20 honest matches of the tune seeds
raised without the gate had no other fight) or are decided by the law assumed (an exponential
law calls the longest honest company unusual, a log-normal one not the planted fights).  So
both are gates, set relative to the match (typical exchanges, the median pair's ticks
together), and ``bench/screens.py`` measures what each lets through.  Refills from the
aggressor's side (gifts to the victim by the aggressor's operator's seats) and the acts' timing
against the victim's other fights were not used: the first shows only where a fight has a
refiller, the second is the simulator's schedule.

Why silence per tick beside the aggressor, not per act (configuration 2.11.0).  A victim's
answers per act were read against the match's victims' answers per act: where the match's
rivals fight often, a victim hit seven to fifteen times without hitting back was worth 0.01 to
0.04, and the count could not help (an aggressor that stood beside almost nobody but its victim
is read at the match's rate).  What an honest victim does is hit back when it next stands beside
the one who hit it; a thrown fight's victim stands beside its taker for most of the match.  On
the tune seeds (1-80, every noise level) the planted victims' silence per tick was worth 1e-13 to
0.05, and among the honest unanswered fights (800 honest matches and the honest pairs beside the
planted fights) none below 0.0099.  Read so, planted thrown fights found at noise none, light,
medium and heavy went from 75, 71, 74 and 76 of 80 to 75, 74, 78 and 78; the silence gate (at
0.001) took them to 76, 75, 79 and 79, honest matches not clear unchanged (4 of 800, feeder reviews
at heavy) and no thrown fight raised that 2.10.0 did not.  The silence is still the match's
victims' rate, not the victim's own: a victim that hits back nobody (a pacifist) is read at the
match's rate, which is what the gate's level pays for.

What the fights missed under 2.10.0 showed (tune seeds, noise none and medium, and heavy read for the
diagnosis only; 40 planted fights a level; read with the floor on the whole, before it left the
largest act out, which adds three fights whose size was mostly one raid, 10.9 to 11.8 median
pairs together, to the first sort): the misses are of two sorts, and neither is a statistic too
weak for evidence there is.  At noise none, three small fights (4 to 6 acts taking
2.2 to 8 typical exchanges, 7.6 to 8.9 median pairs together) pass the test easily (p 1e-6 to
8e-4) but neither gate; honest unanswered fights with as small a p-value stood together up to
6.5 median pairs at none and medium and up to 11.5 at heavy, took up to 7 typical exchanges, and
spent up to 0.88 of a seat's ticks in company together (the planted pairs 0.60 to 1.00), so no
lower gate, nor a gate on that share, admits the small fights without admitting honest ones.  At
medium and heavy, five fights pass the gates and fail the test (p 0.02 to 0.09 against the screen's share of 0.0045 to
0.009): the aggressor stood beside almost nobody but its victim, so its own rate is the match's,
and the match's rivals fight often per tick together, so the acts expected are about as many as
were done (6 to 14); the silence of a victim that hits nobody (a pacifist, as an honest victim
may be) is worth 0.009 to 0.03; and 7 to 14 of 100 honest matches of the same level have a
thrown-fight test as small.  A test that rested on the victim's silence more surely would find
them, and would raise the honest vendettas whose victims were as silent where the match's other
victims answered (p of the silence 1e-4 to 4e-3 at heavy): what the gates keep out.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for t in (1, 5, 9):
...     _ = G.add_edge("v", "x", value=12.0, tick=t, event=t, kind="raid")
>>> _ = G.add_edge("v", "x", value=4.0, tick=6, event=6, kind="gift")
>>> _ = G.add_edge("o", "x", value=4.0, tick=7, event=7, kind="gift")
>>> [(c.flag.agents, c.flag.score, round(c.flag.p_value, 6)) for c in thrown_fight(TransferView(G),
...   {"min_value": 1.0, "max_retaliation": 0, "min_cooperation": 1, "min_together_ratio": 6.0})[0]]
[(('x', 'v'), 3.0, 0.000296)]

Without co-location data, x's rate is its acts per partner dealt with elsewhere (none with o,
its one other partner), shrunk towards the rest of the match's (no act but the half-act prior,
over 1 pair plus the weight of 1: 0.25) with weight 1: (0 + 0.25) / (1 + 1) = 0.125 acts for v;
3 or more of a Poisson(0.125) is 1 - e^-0.125 (1 + 0.125 + 0.0078125) = 0.000296.  No other
pair fought, so no victim's answers to compare with: silence is not weighed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .flags import Flag, ordered, pair_key
from .graph import Act, TransferView
from .stats import Candidate, Test, betabinom_sf, nbinom_sf, poisson_sf, product_p, rate

__all__ = ["MIN_ANSWER_RATE", "THROWN_NULL", "kept_company", "kept_silent", "passes_floor", "silence_ticks_p",
           "taken_again", "thrown_fight"]


THROWN_NULL = ("two parts, combined as independent (Fisher's product): the aggressor hit this victim at its own "
               "rate of hitting the others it stood beside, shrunk towards the match's rate, over the ticks the two "
               "stood together, as unevenly as aggression falls on victims elsewhere in the match (negative "
               "binomial, its spread from the other pairs); and the victim hit back, in the ticks it stood beside "
               "the aggressor, at the rate the match's victims hit back per tick beside one who had hit them "
               "(negative binomial; without co-location data, each act answered at its own rate of answering its "
               "other aggressors, shrunk towards the match's, beta-binomial)")
"""The thrown-fight screen's null, in words."""


def _rates(view: TransferView) -> tuple[dict[Any, float], dict[Any, float], dict[tuple[Any, Any], int], float, float]:
    """``(acts by aggressor, exposure by node, acts by (aggressor, victim), match rate, prior
    weight)``: exposure is ticks beside others (with co-location data) or partners dealt with."""
    acts: dict[Any, float] = {}
    between: dict[tuple[Any, Any], int] = {}
    for act in view.acts:
        if act.victim == act.aggressor:
            continue
        acts[act.aggressor] = acts.get(act.aggressor, 0.0) + 1
        between[(act.aggressor, act.victim)] = between.get((act.aggressor, act.victim), 0) + 1
    exposure: dict[Any, float] = {}
    if view.contact is not None:
        for (x, y), ticks in view.contact.items():
            exposure[x] = exposure.get(x, 0.0) + ticks
            exposure[y] = exposure.get(y, 0.0) + ticks
        weight = view.typical_contact or 1.0
    else:
        for (x, y), pair in view.pairs.items():
            if pair.exchanges or pair.acts:
                exposure[x] = exposure.get(x, 0.0) + 1
                exposure[y] = exposure.get(y, 0.0) + 1
        weight = 1.0
    total_exposure = sum(exposure.values()) / 2
    match_rate = sum(acts.values()) / total_exposure if total_exposure > 0 else 0.0
    return acts, exposure, between, match_rate, weight


def _pearson_term(observed: float, expected: float) -> float:
    return (observed - expected) ** 2 / expected if expected > 0 else 0.0


def _dispersion(view: TransferView, acts_by: dict[Any, float], exposure: dict[Any, float],
                between: dict[tuple[Any, Any], int], match_rate: float, weight: float) -> tuple[float, int]:
    """Pearson's chi-square of the acts between every (aggressor, victim) that stood together
    against the Poisson means, and its degrees of freedom: how much more aggression
    concentrates on one victim in this match than the Poisson null allows (rivalries do).
    Each test leaves its own pair out and divides by the rest (quasi-Poisson)."""
    total = 0.0
    count = 0
    seen: set[tuple[Any, Any]] = set()
    met: dict[Any, list[tuple[Any, float]]] = {}  # each seat's contact partners, in the contact table's order
    for (x, y), ticks in (view.contact or {}).items():
        met.setdefault(x, []).append((y, ticks))
        if y != x:
            met.setdefault(y, []).append((x, ticks))
    for aggressor in ordered(acts_by):
        partners = met.get(aggressor, [])
        if view.contact is None:
            partners = [(pair.other(aggressor), 1.0) for k, pair in view.pairs.items() if aggressor in k]
        rate_x = rate(acts_by[aggressor], exposure.get(aggressor, 0.0), match_rate, weight)
        for victim, ticks in partners:
            if (aggressor, victim) in seen or victim in view.exempt:
                continue
            seen.add((aggressor, victim))
            total += _pearson_term(between.get((aggressor, victim), 0), rate_x * max(ticks, 1.0))
            count += 1
    return total, count - len(acts_by)


Answers = dict[tuple[Any, Any], tuple[int, int]]
"""``(aggressor, victim) -> (forced acts, acts the victim answered)``: answered acts are the
victim's acts on that aggressor, as many as it received at most."""


def _answers(view: TransferView) -> Answers:
    out: Answers = {}
    for (a, b), pair in view.pairs.items():
        for aggressor in (a, b):
            k = len(pair.acts_by(aggressor))
            if k:
                out[(aggressor, pair.other(aggressor))] = (k, min(k, len(pair.acts_by(pair.other(aggressor)))))
    return out


Replies = dict[tuple[Any, Any], tuple[int, float]]
"""``(aggressor, victim) -> (the victim's acts on that aggressor, ticks the two stood together)``:
every pair where the aggressor hit the victim at least once."""


def _replies(view: TransferView) -> Replies:
    out: Replies = {}
    for (a, b), pair in view.pairs.items():
        for aggressor in (a, b):
            if pair.acts_by(aggressor):
                out[(aggressor, pair.other(aggressor))] = (len(pair.acts_by(pair.other(aggressor))),
                                                           view.contact_of(a, b))
    return out


def _reply_rate(replies: Replies, aggressor: Any, victim: Any, typical: float) -> tuple[float, float] | None:
    """The rate at which the match's victims hit back, per tick they stood beside one who had hit them
    (module rule), as a Gamma: ``(mean, weight in ticks)``.  Read from every hit pair but this one and
    those where the aggressor hit or was hit (the victim's replies to its other aggressors count with
    the rest), half a reply over one ``typical`` pair's ticks of prior: the rate's posterior.  None where
    no such pair stood together: no yardstick."""
    replied = ticks = 0.0
    for (x, v), (r, t) in replies.items():
        if aggressor not in (x, v) and (v == victim or x != victim):
            replied += r
            ticks += t
    if ticks <= 0:
        return None
    return (replied + 0.5) / (ticks + typical), ticks + typical


def silence_ticks_p(replied: int, ticks: float, mean: float, weight: float) -> float:
    """The chance a victim hit back ``replied`` times or fewer in ``ticks`` beside its aggressor, its
    rate per tick drawn from a Gamma with ``mean`` and ``weight`` ticks (negative binomial: what it and
    the match showed, no surer than that).

    >>> round(silence_ticks_p(0, 30.0, 0.1, 10.0), 6)  # Gamma(1, 10): (10 / (10 + 30)) ** 1
    0.25
    """
    if ticks <= 0 or mean <= 0:
        return 1.0
    shape = mean * weight
    q = weight / (weight + ticks)
    total = 0.0
    for j in range(replied + 1):
        total += math.exp(math.lgamma(j + shape) - math.lgamma(shape) - math.lgamma(j + 1)
                          + shape * math.log(q) + j * math.log1p(-q))
    return min(1.0, total)


def _answer_rate(answers: Answers, aggressor: Any, victim: Any) -> tuple[float, float]:
    """The victim's chance of answering one act (module rule), as a Beta: ``(mean, weight in
    acts)``.  Its own answers to its other aggressors, shrunk towards the rate of the pairs
    involving neither seat (half an answer in one act of prior, so never 0 or 1; 0 when no such
    pair fought) with the weight of :data:`ANSWER_PRIOR` acts."""
    own_acts = own_answered = rest_acts = rest_answered = 0
    for (x, v), (k, answered) in answers.items():
        if v == victim and x != aggressor:
            own_acts += k
            own_answered += answered
        elif not ({x, v} & {aggressor, victim}):
            rest_acts += k
            rest_answered += answered
    rest = (rest_answered + 0.5) / (rest_acts + 1) if rest_acts else 0.0  # no pair: none answered, the most cautious
    return rate(own_answered, own_acts, rest, ANSWER_PRIOR), own_acts + ANSWER_PRIOR


def silence_p(answered: int, acts: int, mean: float, weight: float) -> float:
    """The chance a victim answered ``answered`` or fewer of ``acts`` acts, its chance of
    answering each drawn from a Beta with ``mean`` and ``weight`` (beta-binomial: what it and
    the match showed, no surer than that).

    >>> round(silence_p(0, 3, 0.5, 2.0), 6)  # Beta(1, 1): (1 x 2 x 3) / (2 x 3 x 4)
    0.25
    """
    return max(0.0, 1.0 - betabinom_sf(answered + 1, acts, mean, weight))


MIN_ANSWER_RATE = 0.1
"""Below this answer rate silence says little, and combining it would only dilute the count."""

ANSWER_PRIOR = 5.0
"""Weight, in acts received, of the match's answer rate in a victim's own."""


@dataclass(frozen=True)
class _Yardstick:
    """What every pair's test reads from the whole match: acts and exposure per seat, the total exposure,
    the match rate's prior weight, the over-dispersion of aggression (Pearson's statistic and its degrees of
    freedom) and who answered whom."""

    acts_by: Mapping[Any, float]
    exposure: Mapping[Any, float]
    total_exposure: float
    weight: float
    pearson: float
    df: int
    answers: Any
    replies: Replies
    typical: float


@dataclass(frozen=True)
class _PairTest:
    """One aggressor and victim's test: the acts expected, the combined p-value and its two parts, and the
    victim's answer rate it was read against."""

    expected: float
    p: float
    p_count: float
    p_silence: float
    answer_rate: float


def thrown_fight(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test]]:
    """Unanswered, cooperative aggression concentrated on one partner (module rule)."""
    if not view.acts:
        return [], []
    min_value = float(params["min_value"]) * (view.scale or 0.0)
    max_retaliation = int(params["max_retaliation"])
    min_cooperation = int(params["min_cooperation"])
    min_ratio = float(params["min_together_ratio"])
    min_gated = float(params.get("min_value_gated", 0.0)) * (view.scale or 0.0)
    company_ratio = float(params.get("company_ratio", 0.0))
    silence_level = float(params.get("silence_level", 0.0))
    typical = view.typical_contact
    found: list[Candidate] = []
    tests: list[Test] = []
    acts_by, exposure, between, match_rate, weight = _rates(view)
    pearson, df = _dispersion(view, acts_by, exposure, between, match_rate, weight)
    yardstick = _Yardstick(acts_by, exposure, sum(exposure.values()) / 2, weight, pearson, df, _answers(view),
                           _replies(view), float(typical or 1.0))
    for (a, b), pair in view.pairs.items():
        if not pair.acts or a in view.exempt or b in view.exempt:
            continue
        for aggressor in (a, b):
            victim = pair.other(aggressor)
            acts = pair.acts_by(aggressor)
            if not acts:
                continue
            answered = len(pair.acts_by(victim))
            if answered > max_retaliation:
                continue
            together = view.contact_of(a, b)
            ratio = together / typical if typical else 0.0
            dealing = len(pair.exchanges) >= min_cooperation
            if not (dealing or (view.contact is not None and ratio >= min_ratio)):
                continue
            test = _pair_test(view, yardstick, aggressor, victim, len(acts), answered, together)
            key = ("thrown_fight", aggressor, victim)
            tests.append(Test(key, test.p, 0.0))
            taken = sum(act.value or 0.0 for act in acts)
            company = kept_company(view, ratio, company_ratio)
            silent = kept_silent(test, silence_level)
            again = taken_again(acts)
            if not passes_floor(taken, again, min_value, min_gated, company or silent):
                continue
            flag = _thrown_flag(view, pair, aggressor, victim, test, answered, together, ratio, dealing, (taken, again),
                                acts_by.get(aggressor, 0.0) - len(acts), company, silent)
            found.append(Candidate(flag, (key,)))
    return found, tests


def taken_again(acts: list[Act]) -> float:
    """What the acts took leaving the largest out (module rule): the value a pair's aggressor
    took again and again, which one big haul does not make.

    >>> from .graph import Act
    >>> def theft(value: float) -> Act:
    ...     return Act("x", "v", 1.0, value, "theft", 1, (1,), None)
    >>> taken_again([theft(49.0), theft(3.0), theft(1.0)]), taken_again([theft(4.0), theft(4.0)])
    (4.0, 4.0)
    """
    values = [act.value or 0.0 for act in acts]
    return sum(values) - max(values, default=0.0)


def passes_floor(taken: float, again: float, min_value: float, min_gated: float, gated: bool) -> bool:
    """Whether the acts pass the size floor (module rule): what they took again (leaving the largest
    out, :func:`taken_again`) at least ``min_value`` for every pair, at least ``min_gated`` for a pair that
    kept company or kept silent (``gated``).  The gates lower the floor, they do not remove it: a thrown
    fight is a transfer, and acts that took less than one ordinary exchange's worth again moved nothing
    worth a look, whoever stood by.  Acts that took nothing at all (``taken``) never pass.

    >>> passes_floor(40.0, 12.0, 60.0, 6.0, False), passes_floor(40.0, 12.0, 60.0, 6.0, True)
    (False, True)
    >>> passes_floor(30.0, 5.0, 60.0, 6.0, True), passes_floor(30.0, 0.0, 60.0, 0.0, True)  # a gated floor of 0: off
    (False, True)
    """
    if taken <= 0:
        return False
    return again >= (min_gated if gated else min_value)


def kept_company(view: TransferView, ratio: float, company_ratio: float) -> bool:
    """Whether a pair that stood together ``ratio`` times as long as the match's median pair kept
    company (module rule): at least ``company_ratio`` times (0: never; without co-location data, never).

    >>> import networkx as nx
    >>> view = TransferView(nx.MultiDiGraph(contact={("v", "x"): 60, ("a", "b"): 5}))
    >>> kept_company(view, 12.0, 12.0), kept_company(view, 11.5, 12.0), kept_company(view, 12.0, 0.0)
    (True, False, False)
    """
    return company_ratio > 0 and view.contact is not None and ratio >= company_ratio


def kept_silent(test: _PairTest, silence_level: float) -> bool:
    """Whether the victim's silence alone is evidence (module rule): where the match's victims hit
    back, the chance of a victim hitting back as seldom as this one did beside its aggressor is at
    most ``silence_level`` (0: never).

    >>> kept_silent(_PairTest(2.0, 1e-6, 0.01, 0.0005, 0.8), 0.001), kept_silent(_PairTest(2.0, 1e-6, 0.01, 0.002, 0.8), 0.001)
    (True, False)
    >>> kept_silent(_PairTest(2.0, 1e-6, 0.01, 0.0005, 0.05), 0.001)  # victims here seldom answer: silence says nothing
    False
    """
    return silence_level > 0 and test.answer_rate >= MIN_ANSWER_RATE and test.p_silence <= silence_level


def _pair_test(view: TransferView, yardstick: _Yardstick, aggressor: Any, victim: Any, k: int, answered: int,
               together: float) -> _PairTest:
    """The pair's test (module rule): the aggressor's ``k`` acts on the victim against its own rate of hitting
    others per tick together, shrunk to the match's without this pair (half an act prior), as lumpy as
    aggression elsewhere (negative binomial when over-dispersed, else Poisson); with the victim's silence
    against its own answer rate where victims answer (Fisher's product of the two)."""
    own = max(together, 1.0) if view.contact is not None else 1.0
    others_acts = yardstick.acts_by.get(aggressor, 0.0) - k
    pair_exposure = together if view.contact is not None else 1.0
    others_exposure = max(yardstick.exposure.get(aggressor, 0.0) - pair_exposure, 0.0)
    weight = yardstick.weight
    # the match's rate without this pair (its own acts do not set its yardstick), half an act prior
    rest = (sum(yardstick.acts_by.values()) - k + 0.5) / max(yardstick.total_exposure - pair_exposure + weight,
                                                              weight)
    expected = rate(others_acts, others_exposure, rest, weight) * own
    term = _pearson_term(k, expected)
    df = yardstick.df
    phi = max(1.0, (yardstick.pearson - term) / (df - 1)) if df > 1 else 1.0
    p_count = poisson_sf(k, expected) if phi <= 1.0 else nbinom_sf(k, expected, phi)
    answer_rate, answer_weight = _answer_rate(yardstick.answers, aggressor, victim)
    p_silence = silence_p(answered, k, answer_rate, answer_weight)
    reply = _reply_rate(yardstick.replies, aggressor, victim, yardstick.typical) if view.contact is not None else None
    if reply is not None:  # with co-location data, silence is read per tick beside the aggressor
        p_silence = silence_ticks_p(answered, together, reply[0], reply[1])
    # the silence is weighed only where victims answer (a choice made on the other pairs, never on this one)
    p = product_p([p_count, p_silence]) if answer_rate >= MIN_ANSWER_RATE else p_count
    return _PairTest(expected, p, p_count, p_silence, answer_rate)


def _thrown_flag(view: TransferView, pair: Any, aggressor: Any, victim: Any, test: _PairTest, answered: int,
                 together: float, ratio: float, dealing: bool, value: tuple[float, float], others_acts: float,
                 company: bool, silent: bool = False) -> Flag:
    """The ``thrown_fight`` flag of one aggressor and victim: its story, its evidence (the acts and the
    exchanges between them) and its figures; ``value`` what the acts took, in all and leaving the largest
    out (:func:`taken_again`), as the floor read them."""
    taken, again = value
    acts = pair.acts_by(aggressor)
    cooperation = pair.exchanges
    k = len(acts)
    refills = len({act.tick for act in acts if act.value is not None and act.value > 0}) - 1
    evidence: set[Any] = set()
    for act in acts:
        evidence.update(act.events)
    for x in cooperation:
        evidence.update(x.events)
    expected = test.expected
    return Flag(
        screen="thrown_fight",
        kind="thrown_fight",
        level="flag",
        agents=(aggressor, victim),
        pairs=(pair_key(aggressor, victim),),
        score=float(k),
        threshold=round(expected, 4),
        evidence=tuple(ordered(evidence)),
        explanation=(
            f"{aggressor} raided, robbed or attacked {victim} {k} times, taking {taken:g} in value, where "
            f"its dealings with the others it met predicted {expected:.2f}; {victim} never hit back"
            + (f", kept its company ({together:g} ticks together, {ratio:.1f} times the match's typical pair)"
               if view.contact is not None else "")
            + (f" and dealt with it ({len(cooperation)} exchanges)" if dealing else "")
            + "."
        ),
        details={
            "aggressor": aggressor,
            "victim": victim,
            "acts": k,
            "expectedActs": round(expected, 4),
            "aggressorActsOnOthers": int(others_acts),
            "valueTaken": taken,
            "valueTakenAgain": again,
            "refills": refills,
            "retaliations": answered,
            "answerRate": round(test.answer_rate, 4),
            "pConcentration": test.p_count,
            "pSilence": test.p_silence,
            "exchanges": len(cooperation),
            "ticksTogether": together,
            "togetherRatio": round(ratio, 3),
            "keptCompany": company,
            "keptSilent": silent,
        },
        p_value=test.p,
        null=THROWN_NULL,
    )
