"""Operator: seats of one operator in one ranked match, and pairs that recur over a season.

The evaluation design's collusion screens: classic graph sybil detection fails in an open world, so "anchor sybil
resistance in registration (verified operator identity per key, one ranked-lobby
slot per (operator, model)) and use graph analysis as a secondary batch signal";
its governance rule: "one ranked-lobby slot per verified (operator, model)".

Rules (nodes carry ``operator`` and ``model``; exempt nodes, the server's own scripted
seats, are left out; an ``operator`` that is not text, a number, a boolean, a list or an object,
names no operator: the seat is noted and screened as naming none):

- ``duplicate_slot`` (flag): in a ranked match (graph attribute ``ranked`` true), two
  seats of one (operator, model) -- which the registration rule forbids -- moved value
  one way between them, by the feeder screen's test (its one-sided exchanges, at
  directionality ``min_directionality`` or more, ran one way beyond what the sign-flip null
  allows, the net value is at least ``min_value`` typical exchanges, and at least
  ``min_giver_share`` of all the value the giver handed anyone in the match: the feeder
  screen's share floor, :func:`~daishi_forensics.screens.feeder.giver_share`).  The score is that
  net value in typical exchanges; the level follows the adjusted p-value.
- ``shared_operator`` (review): the same, between two seats of one operator with
  different models (which the rule allows).
- Seats of one operator that merely play in the same match are not flagged: the
  one-slot rule is enforced at registration (the evaluation design anchors sybil resistance
  there), and an operator may field several models.  Two seats of one (operator,
  model) in a ranked match are still *noted* in the result, for the registration
  audit.
- ``recurring_pair`` (review, season scale, :func:`recurring_pairs`): two operators (or
  two agents) whose seats fed one another (the season's feed test, :mod:`.season`) in
  at least ``min_matches`` matches and in at least ``min_share`` of the matches both
  played.  Honest operators meet every week; only a feed that repeats is a signal.

An unranked match is not screened for the slot rule (the report says so); a match whose
``ranked`` is unknown is screened as ranked and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .feeder import FEED_NULL, feed_test, giver_share
from .flags import Flag, ordered, pair_key
from .graph import TransferView
from .stats import Candidate, Test

__all__ = ["operator", "recurring_pairs"]


def _registration(view: TransferView, node: Any) -> tuple[Any, ...]:
    reg = view.attr(node, "registration")
    if reg is None:
        return ()
    return tuple(reg) if isinstance(reg, (list, tuple)) else (reg,)


def operator(view: TransferView, params: Mapping[str, Any]) -> tuple[list[Candidate], list[Test], list[str]]:
    """The per-match operator rules (module docstring): candidates, tests and notes.  The test
    of a pair is the feeder screen's (:func:`~daishi_forensics.screens.feeder.feed_test`): one
    hypothesis, counted once in the match's family."""
    notes: list[str] = []
    ranked = view.graph.graph.get("ranked")
    by_operator = _seats_by_operator(view, notes)
    if not by_operator:
        notes.append("not screened: operator (no seat names its operator)")
        return [], [], notes
    if ranked is False:
        notes.append("not screened: operator (the match is not ranked)")
        return [], [], notes
    if ranked is None:
        notes.append("operator: the match does not say whether it is ranked; screened as ranked")
    found: list[Candidate] = []
    tests: list[Test] = []
    scale = view.scale
    tested = feed_test(view, float(params["min_directionality"]), bool(params.get("whole_items", False))) if scale else {}
    for op in ordered(by_operator):
        seats = by_operator[op]
        for i, a in enumerate(seats):
            for b in seats[i + 1:]:
                flagged = _seat_pair(view, params, op, a, b, tested.get(view.key(a, b)), notes)
                if flagged is not None:
                    found.append(flagged[0])
                    tests.append(flagged[1])
    return found, tests, notes


def _seats_by_operator(view: TransferView, notes: list[str]) -> dict[Any, list[Any]]:
    """The screened seats by the operator each names (in seat order); a seat whose operator is not text
    names none, said in ``notes``."""
    by_operator: dict[Any, list[Any]] = {}
    for node in view.screened_nodes():
        op = view.attr(node, "operator")
        if op is not None and not isinstance(op, str):  # names no operator (an archive's is text): not grouped by
            kind = type(op).__name__  # an int or a bool as a list or an object: none is an operator's name
            notes.append(f"operator: {node}'s operator is {'an' if kind[0] in 'aeiou' else 'a'} {kind}, which names "
                         "no operator: the seat is screened as if it named none")
        elif op is not None:
            by_operator.setdefault(op, []).append(node)
    return by_operator


def _registration_note(a: Any, b: Any, op: Any, model: Any, why: str) -> str:
    """The note on two seats of one (operator, model) in a ranked match that are not flagged, and ``why``."""
    return (f"registration: seats {a} and {b} share operator {op} and model {model} in a ranked match (one slot per "
            f"(operator, model), the evaluation design's governance rule); {why}, so no flag")


def _seat_pair(view: TransferView, params: Mapping[str, Any], op: Any, a: Any, b: Any,
               result: tuple[float, float, float, int] | None, notes: list[str]) -> tuple[Candidate, Test] | None:
    """Two seats of operator ``op`` (module rules ``duplicate_slot`` and ``shared_operator``): the candidate and
    its test when value moved one way between them by the feeder screen's test (``result``: its p-value, the
    least it could reach, the signed sum, positive when the pair's first seat gave, and the count), at least
    ``min_value`` typical exchanges and at least ``min_giver_share`` of all the giver handed anyone; else None (two
    seats of one model noted)."""
    scale = view.scale
    model = view.attr(a, "model")
    same = model is not None and model == view.attr(b, "model")
    k = view.key(a, b)
    pair = view.pair(a, b)
    giver = None
    if result is not None and result[2] != 0:
        giver = k[0] if result[2] > 0 else k[1]
    net = pair.net_from(giver) if giver is not None else 0.0
    if result is None or giver is None or net < float(params["min_value"]) * (scale or 0.0) or net <= 0:
        if same:
            notes.append(_registration_note(a, b, op, model, "they moved no value one way between them"))
        return None
    share = giver_share(view, giver, net)
    min_share = float(params["min_giver_share"])
    if share < min_share:
        if same:
            notes.append(_registration_note(a, b, op, model, f"{giver} passed {b if giver == a else a} {share:.0%} of "
                                            f"all it handed anyone, under the floor of {min_share:.0%}"))
        return None
    key = ("feeder", k[0], k[1])
    taker = b if giver == a else a
    evidence = {e for x in pair.exchanges for e in x.events}
    evidence.update(_registration(view, a) + _registration(view, b))
    what = f"the same model {model}, which one ranked slot allows once" if same else "different models"
    flag = Flag(
        screen="operator",
        kind="duplicate_slot" if same else "shared_operator",
        level="flag" if same else "review",
        agents=(taker, giver),
        pairs=(pair_key(a, b),),
        score=net / (scale or 1.0),
        threshold=float(params["min_value"]),
        evidence=tuple(ordered(evidence)),
        explanation=(
            f"{giver} and {taker} are both seats of operator {op} ({what}), and {giver} passed {taker} "
            f"{net:g} in net value one way ({net / (scale or 1.0):.1f} typical exchanges, {share:.0%} of all "
            f"{giver} handed anyone)."
        ),
        details={"operator": op, "models": [view.attr(a, "model"), view.attr(b, "model")],
                 "giver": giver, "receiver": taker, "netValue": net, "giverShare": share},
        p_value=result[0],
        null=FEED_NULL,
    )
    return Candidate(flag, (key,), "flag" if same else "review"), Test(key, result[0], result[1])


def recurring_pairs(feeds: Sequence[Any], present: Sequence[Mapping[Any, Any]], params: Mapping[str, Any],
                    label: str) -> list[Flag]:
    """Pairs of keys (agents, or operators) whose seats fed each other in several matches.

    ``feeds`` are the season's :class:`~daishi_forensics.screens.season.Feed` records with
    ``giver``/``taker`` already keyed; ``present[i]`` maps each node of match ``i`` to its
    key (who played).  Flagged for review when a key fed the same other key in at least
    ``min_matches`` matches and in at least ``min_share`` of the matches both played.
    """
    met: dict[tuple[Any, Any], int] = {}
    for keys in present:
        here = ordered({k for k in keys.values() if k is not None})
        for i, x in enumerate(here):
            for y in here[i + 1:]:
                met[(x, y)] = met.get((x, y), 0) + 1
    fed: dict[tuple[Any, Any], dict[str, list[Any]]] = {}
    for feed in feeds:
        if feed.giver is None or feed.taker is None or feed.giver == feed.taker:
            continue
        fed.setdefault((feed.giver, feed.taker), {}).setdefault(feed.match, []).append(feed)
    min_matches = int(params["min_matches"])
    min_share = float(params["min_share"])
    flags: list[Flag] = []
    for (giver, taker), by_match in sorted(fed.items(), key=lambda kv: (repr(kv[0][0]), repr(kv[0][1]))):
        together = met.get(pair_key(giver, taker), 0)
        if len(by_match) < min_matches or together == 0 or len(by_match) / together < min_share:
            continue
        matches = ordered(by_match)
        total = sum(f.scaled for fs in by_match.values() for f in fs)
        flags.append(Flag(
            screen="operator",
            kind="recurring_pair",
            level="review",
            agents=(taker, giver),
            pairs=(pair_key(giver, taker),),
            score=float(len(by_match)),
            threshold=float(min_matches),
            evidence=tuple(ordered({e for fs in by_match.values() for f in fs for e in f.events})),
            explanation=(
                f"{label.capitalize()} {giver} passed value one way to {label} {taker} in {len(by_match)} of the "
                f"{together} matches they both played ({total:.1f} typical exchanges in all)."
            ),
            details={"keyedBy": label, "giver": giver, "receiver": taker, "matches": matches,
                     "matchesTogether": together, "typicalExchanges": round(total, 3)},
            match="season",
        ))
    return flags
