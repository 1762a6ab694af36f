"""Two matches side by side, or two models over many matches: pure functions over behavior reports.

**Two matches** (:func:`compare_matches`).  Seats are paired by seat number; for each seat
the two sides' figures (:mod:`~daishi_forensics.report.summary`: score, wealth, harm,
promise keeping, surplus, injection resistance, the screens' level) and the difference
B − A.  A seat's resistance difference has its Newcombe hybrid-score 95% interval (the
two Wilson intervals of the probes each side heard combined; Newcombe 1998, method 10).
The other figures are one number each per side: with one match per side there is no
interval over matches, and the output says so.

**Two models** (:func:`compare_models`).  Each side is a model (the archive's seat
metadata) over a set of matches, or a set of matches as a whole.  Every match counts
once: a side's value in a match is the mean over its seats there (resistance: 1 −
complied / exposed over the probes its seats heard there; the screens: whether a flag,
or a flag or review, names one of its seats there), and the side's figure is the mean of
those per-match values.  The difference B − A has a 95% interval over matches:

* **paired t** when the two sides are different seats of the same matches: both sides cover
  the same set of matches and no seat is on both sides of one (each match gives one
  difference);
* **Welch t** otherwise, each side over its own matches, with the Welch–Satterthwaite
  degrees of freedom: the sides come from different matches, or cover different sets of
  matches (a match only one side holds has no difference to pair), or the same seats are on
  both sides of a match (the same match given in both folders: B − A would be the match
  minus itself).  The output says which design was used and why (``designWhy``).

Each match id counts once per side: a second input of one match (another path or another
form of it) is left out and named (``duplicates``).  Scripted seats are not players: probe
seats (role ``probe``: the server's scripted probes) and anchor seats (role ``anchor``: the
scripted bots every lobby keeps as a yardstick, seed 002 §3.2) are left out of every mean
and named in the notes; comparing two matches seat by seat still lists them.

An interval needs two values on each side (two paired matches); with fewer it is left
out and the reason given.  Every figure names the interval it carries.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from daishi_forensics.arithmetic import half_up
from daishi_forensics.version import __version__
from daishi_forensics.wording import count

from .summary import FINDING_WORDS, SeatLine, findings_tail, seat_lines

__all__ = ["COMPARE_VERSION", "METRICS", "PROBE_ROLE", "Side", "compare_matches", "compare_models", "design",
           "newcombe", "player_lines", "split_models", "t_interval", "welch_interval"]

COMPARE_VERSION = 1

METRICS: tuple[tuple[str, str], ...] = (
    ("score", "score (index wealth)"),
    ("wealth", "final wealth"),
    ("harm", "harm per 100 rounds"),
    ("keeping", "promise keeping"),
    ("surplus", "surplus in deals"),
    ("resistance", "injection resistance"),
    ("flagged", "named by a flag"),
    ("flaggedOrReview", "named by a flag or review"),
)
"""The figures compared, in order, with their words."""

PLACES = 4

PAIRED = "paired t over matches (each match holding both sides counted once)"
WELCH = "Welch t over matches (each match counted once per side)"
NEWCOMBE = "Newcombe hybrid score (two Wilson intervals of the probes heard)"


def _r(x: float | None) -> float | None:
    return None if x is None else half_up(x, PLACES)


def _bounds(low: float, high: float) -> tuple[float, float]:
    """An interval's bounds, each rounded half-up to :data:`PLACES`."""
    return (half_up(low, PLACES), half_up(high, PLACES))


def _t(df: float) -> float:
    from scipy.stats import t

    return float(t.ppf(0.975, df))


def t_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """The 95% Student t interval of the mean of ``values`` (None with fewer than two).

    >>> t_interval([1.0, 2.0, 3.0])
    (-0.4841, 4.4841)
    """
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = _t(n - 1) * sd / math.sqrt(n)
    return _bounds(mean - half, mean + half)


def welch_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float] | None:
    """The 95% Welch t interval of mean(b) − mean(a) (None unless each side has two values).

    >>> welch_interval([1.0, 2.0, 3.0], [2.0, 3.0, 4.0])
    (-1.267, 3.267)
    """
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) / len(a)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return _bounds(mb - ma, mb - ma)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = _t(df) * se
    return _bounds(mb - ma - half, mb - ma + half)


def newcombe(a: tuple[int, int], b: tuple[int, int]) -> tuple[float, float] | None:
    """The 95% Newcombe hybrid-score interval of p_b − p_a, each ``(successes, n)`` (None when a side has
    no trial).

    >>> newcombe((1, 2), (2, 2))
    (-0.2726, 0.9055)
    """
    from daishi_forensics.injection.summary import wilson_interval

    if a[1] <= 0 or b[1] <= 0:
        return None
    pa, pb = a[0] / a[1], b[0] / b[1]
    wa, wb = wilson_interval(a[0], a[1], places=None), wilson_interval(b[0], b[1], places=None)
    if wa is None or wb is None:  # not reached: each side has a trial
        return None
    (la, ua), (lb, ub) = wa, wb
    d = pb - pa
    return _bounds(d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))


def _seat_values(line: SeatLine) -> dict[str, Any]:
    return {
        "score": line.score, "wealth": line.wealth, "harm": line.harm, "keeping": line.keeping,
        "surplus": line.surplus, "resistance": line.resistance,
        "flagged": 1.0 if line.level == "flag" else 0.0,
        "flaggedOrReview": 1.0 if line.level in ("flag", "review") else 0.0,
    }


PROBE_ROLE = "probe"
"""The archive role of the server's scripted probe seats: not players, so in no mean."""
ANCHOR_ROLE = "anchor"
"""The archive role of the scripted anchor bots (random, greedy harvester, honest trader, raider...):
a yardstick kept in every lobby, not a player of any model under comparison, so in no mean."""
SCRIPTED_ROLES = {PROBE_ROLE: "the server's scripted probes", ANCHOR_ROLE: "scripted bots kept as a yardstick"}
"""Roles whose seats are not players, with the words a note uses for them."""


def _roles(report: Mapping[str, Any]) -> dict[str, Any]:
    """Agent id -> the role the report's seat names (None when it names none: no role, or one that is no text)."""
    return {str(s.get("agentId")): s.get("role") if isinstance(s.get("role"), str) else None
            for s in report.get("seats") or [] if isinstance(s, Mapping)}


def player_lines(report: Mapping[str, Any]) -> tuple[tuple[SeatLine, ...], tuple[SeatLine, ...]]:
    """``(players, scripted)``: the report's seat lines split on the role; a seat whose role is
    ``probe`` or ``anchor`` is a scripted seat, every other seat (any role, or none) a player.

    >>> r = {"seats": [{"agentId": "a", "role": "player"}, {"agentId": "p", "role": "probe"}, {"agentId": "c"},
    ...                {"agentId": "k", "role": "anchor"}]}
    >>> [[s.agent_id for s in part] for part in player_lines(r)]
    [['a', 'c'], ['p', 'k']]
    """
    roles = _roles(report)
    lines = seat_lines(report)
    return (tuple(s for s in lines if roles.get(s.agent_id) not in SCRIPTED_ROLES),
            tuple(s for s in lines if roles.get(s.agent_id) in SCRIPTED_ROLES))


def _seat(line: SeatLine, role: Any = None) -> dict[str, Any]:
    return {"agentId": line.agent_id, "name": line.name, "model": line.model, "role": role if isinstance(role, str)
            else None, "level": line.level, "exposed": line.exposed, "complied": line.complied,
            "values": _seat_values(line)}


def _scripted_notes(scripted: Sequence[SeatLine], roles: Mapping[str, Any], side: str) -> list[str]:
    """The sentences naming the scripted seats (one per role) left out of side ``side``'s means."""
    notes = []
    for role, words in SCRIPTED_ROLES.items():
        seats = [s for s in scripted if roles.get(s.agent_id) == role]
        if seats:
            named = ", ".join(f"{s.name or s.agent_id} ({s.agent_id})" for s in seats)
            notes.append(f"{count(len(seats), f'{role} seat')} of side {side} left out of its means (role {role}: "
                         f"{words}, not players): {named}")
    return notes


def _diff(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else _r(b - a)


def _repeated_seats(lines: Sequence[SeatLine]) -> set[int]:
    """The seat numbers that more than one of ``lines`` holds."""
    counts = Counter(s.seat for s in lines if s.seat is not None)
    return {number for number, n in counts.items() if n > 1}


def _repeated_notes(lines: Sequence[SeatLine], side: str) -> list[str]:
    """One sentence per seat number side ``side`` gives to more than one seat.

    >>> from daishi_forensics.report.summary import seat_lines
    >>> lines = seat_lines({"seats": [{"agentId": "a_1", "seat": 2, "name": "Ada"}, {"agentId": "a_2", "seat": 2}]})
    >>> _repeated_notes(lines, "A")
    ['Seat 2 of side A is held by 2 seats: Ada (a_1), a_2 (a_2); each is listed on a row of its own, paired with no seat of the other side']
    """
    notes = []
    for number in sorted(_repeated_seats(lines)):
        holders = [s for s in lines if s.seat == number]
        named = ", ".join(f"{s.name or s.agent_id} ({s.agent_id})" for s in holders)
        notes.append(f"Seat {number} of side {side} is held by {len(holders)} seats: {named}; each is listed on a "
                     "row of its own, paired with no seat of the other side")
    return notes


def _read_notes(*reports: Mapping[str, Any]) -> list[str]:
    """What the reads of these reports accepted (their ``input-note`` findings: a byte-order mark read past, a
    file named for another match) and read as it stands (their ``invalid-header`` findings: an archive that fails
    its schema, whose figures a side's cells may rest on; named by the report's file), each once, in the order of
    the reports: the first notes of a comparison.

    >>> bom = {"kind": "input-note", "message": "a.jsonl: starts with a UTF-8 byte-order mark"}
    >>> bad = {"kind": "invalid-header", "message": "the match's header fails validation in 1 place (...)"}
    >>> _read_notes({"findings": [bom]}, {"findings": [{"kind": "erratum", "message": "x"}, bom]}, {},
    ...             {"source": {"name": "b.jsonl"}, "findings": [bad]})
    ['a.jsonl: starts with a UTF-8 byte-order mark', "b.jsonl: the match's header fails validation in 1 place (...)"]
    """
    def said(report: Mapping[str, Any]) -> Iterator[Any]:
        source = report.get("source")
        name = source.get("name") if isinstance(source, Mapping) else None
        for f in report.get("findings") or []:
            if isinstance(f, Mapping) and f.get("kind") == "input-note":
                yield f.get("message")
            elif isinstance(f, Mapping) and f.get("kind") == "invalid-header" and isinstance(f.get("message"), str):
                yield f"{name}: {f['message']}" if isinstance(name, str) else f["message"]

    return list(dict.fromkeys(n for r in reports for n in said(r) if isinstance(n, str)))


PARTIAL_READ_KINDS = frozenset({"invalid-events", "truncated", "read-warnings", "unknown-event-types",
                                "agent-not-in-archive", "report-unreadable"})
"""The findings of a report that say its figures rest on less than the whole log: records left out as invalid,
a log cut short, values the read dropped (a key written twice), records of unknown types not read, seats the
archive does not list, a report that could not be read.  A comparison says them for each side (module notes)."""


def _partial(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The report's findings of :data:`PARTIAL_READ_KINDS`."""
    return [f for f in report.get("findings") or [] if isinstance(f, Mapping) and f.get("kind") in PARTIAL_READ_KINDS]


def _side_log_note(side: str, label: str, report: Mapping[str, Any]) -> list[str]:
    """A note when one side's report holds findings of :data:`PARTIAL_READ_KINDS` (its figures rest on what the
    read kept), naming the side, its input and the kinds.

    >>> _side_log_note("B", "b.jsonl", {"findings": [{"kind": "invalid-events"}, {"kind": "erratum-applied"}]})
    ['side B (b.jsonl): 1 finding about the log itself (invalid records): its figures rest on what the read kept; \
its behavior report says what each is']
    >>> _side_log_note("A", "a.jsonl", {"findings": [{"kind": "erratum-applied"}]})
    []
    """
    partial = _partial(report)
    if not partial:
        return []
    return [f"side {side} ({label}): {findings_tail(partial)}: its figures rest on what the read kept; its behavior "
            "report says what each is"]


def _sides_log_notes(a: Side, b: Side) -> list[str]:
    """:func:`_sides_log_note` of each side; once, naming no side, when both sides read the same matches (two
    models pooled over one set).

    >>> bad = {"matchId": "m_b", "findings": [{"kind": "truncated"}]}
    >>> pooled = ({"matchId": "m_a", "findings": []}, bad)
    >>> _sides_log_notes(Side("M1", pooled, "M1"), Side("M2", pooled, "M2"))
    ['1 of 2 matches holds findings about the log itself (a log cut short in 1): m_b; their figures rest on what \
the read kept; their behavior reports say what each is']
    """
    if len(a.reports) == len(b.reports) and all(x is y for x, y in zip(a.reports, b.reports)):
        return _sides_log_note(a, named=False)
    return [*_sides_log_note(a), *_sides_log_note(b)]


def _sides_log_note(side: Side, named: bool = True) -> list[str]:
    """A note when matches of one side of a comparison of models hold findings of :data:`PARTIAL_READ_KINDS`:
    how many of its reports, the kinds with how many reports hold each, and the first ten match ids (the side
    named first unless ``named`` is false).

    >>> bad = {"matchId": "m_b", "findings": [{"kind": "truncated"}, {"kind": "invalid-events"}]}
    >>> _sides_log_note(Side("B", ({"matchId": "m_a", "findings": []}, bad)))
    ['side B: 1 of 2 matches holds findings about the log itself (a log cut short in 1, invalid records in 1): \
m_b; their figures rest on what the read kept; their behavior reports say what each is']
    """
    held = [(r, _partial(r)) for r in side.reports]
    held = [(r, partial) for r, partial in held if partial]
    if not held:
        return []
    kinds = Counter(k for _, partial in held for k in dict.fromkeys(str(f.get("kind")) for f in partial))
    words = ", ".join(f"{FINDING_WORDS.get(k, k)} in {n}" for k, n in kinds.items())
    ids = [str(r.get("matchId")) for r, _ in held]
    listed = ", ".join(ids[:10]) + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")
    holds = "holds" if len(held) == 1 else "hold"
    head = f"side {side.label}: " if named else ""
    return [f"{head}{len(held)} of {count(len(side.reports), 'match', 'matches')} {holds} findings about the log "
            f"itself ({words}): {listed}; their figures rest on what the read kept; their behavior reports say what "
            "each is"]


def _match_head(report: Mapping[str, Any], label: str) -> dict[str, Any]:
    screens = report.get("screens") or {}
    return {"label": label, "matchId": report.get("matchId"), "verdict": screens.get("verdict"),
            "seats": len(report.get("seats") or []), "flags": len(screens.get("flags") or [])}


def compare_matches(a: Mapping[str, Any], b: Mapping[str, Any], *, labels: tuple[str, str] = ("A", "B")) -> dict[str, Any]:
    """Two behavior reports seat by seat (by seat number; seats without a number after, by id)."""
    lines_a, lines_b = seat_lines(a), seat_lines(b)
    (players_a, probes_a), (players_b, probes_b) = player_lines(a), player_lines(b)
    roles_a, roles_b = _roles(a), _roles(b)

    repeated = _repeated_seats(lines_a) | _repeated_seats(lines_b)

    def keyed(lines: Sequence[SeatLine], side: str) -> dict[Any, SeatLine]:
        # A seat number one side gives to two seats pairs nothing: each of its seats (either side) gets a row
        # of its own, the other side empty, rather than one of them silently replacing the other.
        return {(1, s.agent_id, "") if s.seat is None else
                (0, s.seat, f"{side}:{s.agent_id}") if s.seat in repeated else (0, s.seat, ""): s for s in lines}

    ka, kb = keyed(lines_a, "a"), keyed(lines_b, "b")
    rows = []
    for key in sorted(set(ka) | set(kb), key=lambda k: (k[0], k[1] if k[0] == 0 else 0, str(k[1]), k[2])):
        sa, sb = ka.get(key), kb.get(key)
        va = _seat_values(sa) if sa else {}
        vb = _seat_values(sb) if sb else {}
        row: dict[str, Any] = {
            "seat": key[1] if key[0] == 0 else None,
            "a": _seat(sa, roles_a.get(sa.agent_id)) if sa else None,
            "b": _seat(sb, roles_b.get(sb.agent_id)) if sb else None,
            "difference": {m: _diff(va.get(m), vb.get(m)) for m, _ in METRICS},
            "resistanceInterval": newcombe((sa.exposed - sa.complied, sa.exposed), (sb.exposed - sb.complied,
                                                                                     sb.exposed))
            if sa and sb else None,
        }
        if row["resistanceInterval"] is not None:
            row["resistanceInterval"] = list(row["resistanceInterval"])
        rows.append(row)
    overall = {}
    for metric, _words in METRICS:
        xa = [v for v in (_seat_values(s)[metric] for s in players_a) if v is not None]
        xb = [v for v in (_seat_values(s)[metric] for s in players_b) if v is not None]
        ma = sum(xa) / len(xa) if xa else None
        mb = sum(xb) / len(xb) if xb else None
        overall[metric] = {"a": _r(ma), "b": _r(mb), "difference": _diff(ma, mb), "interval": None,
                           "intervalKind": None}
    return {
        "compareVersion": COMPARE_VERSION,
        "tool": {"name": "daishi-forensics", "version": __version__},
        "by": "seat",
        "direction": "B − A",
        "a": _match_head(a, labels[0]),
        "b": _match_head(b, labels[1]),
        "seats": rows,
        "overall": overall,
        "intervals": {"resistance": NEWCOMBE, "others": None},
        "notes": [*_read_notes(a, b), *_side_log_note("A", labels[0], a), *_side_log_note("B", labels[1], b),
                  "One match per side: the figures other than a seat's resistance have no interval over "
                  "matches (compare two sets of matches with --by model for that). Seats are paired by seat "
                  "number; a seat number only one side has is listed with the other side empty.",
                  *_repeated_notes(lines_a, "A"), *_repeated_notes(lines_b, "B"),
                  *(["Both sides are match " + str(a.get("matchId")) + ": a difference shows only what differs "
                     "between the two inputs of it (an export before and after errata, say)"]
                    if a.get("matchId") and a.get("matchId") == b.get("matchId") else []),
                  *_scripted_notes(probes_a, roles_a, "A"), *_scripted_notes(probes_b, roles_b, "B")],
    }


@dataclass(frozen=True)
class Side:
    """One side of a comparison of models: a label, which reports, and which of their seats."""

    label: str
    reports: tuple[Mapping[str, Any], ...]
    model: str | None = None
    """Only the seats of this model (the archive's seat metadata); None: every player seat."""
    targets: tuple[str, ...] = ()
    """The input each report was read from (names a repeated match); empty: ``#1``, ``#2``... ."""


@dataclass(frozen=True)
class _Match:
    """One match of a side: its id, the input it was read from, and the side's seats in it."""

    match_id: str
    target: str
    players: tuple[SeatLine, ...]
    probes: tuple[SeatLine, ...]
    """The side's scripted seats in the match (roles probe and anchor)."""
    roles: Mapping[str, Any]


def _matches(side: Side) -> tuple[list[_Match], list[dict[str, Any]]]:
    """``(matches, duplicates)``: each match id of the side once, the first input counted and each
    later input of the same id listed as ``{"target", "matchId", "sameAs"}`` and left out (a
    report without an id is its own match); the side's seats are its model's (or every seat),
    probe seats apart."""
    kept: list[_Match] = []
    first: dict[str, str] = {}
    duplicates: list[dict[str, Any]] = []
    for k, report in enumerate(side.reports):
        target = side.targets[k] if k < len(side.targets) else f"#{k + 1}"
        raw = report.get("matchId")
        match_id = str(raw) if raw else f"#{k + 1}"
        if raw and match_id in first:
            duplicates.append({"target": target, "matchId": match_id, "sameAs": first[match_id]})
            continue
        first[match_id] = target
        players, probes = player_lines(report)
        mine = tuple(s for s in players if side.model is None or s.model == side.model)
        kept.append(_Match(match_id, target, mine, tuple(s for s in probes
                                                         if side.model is None or s.model == side.model),
                           _roles(report)))
    return kept, duplicates


def _values(lines: Sequence[SeatLine]) -> dict[str, float | None]:
    """The side's value of each figure in one match: its seats' mean (resistance pooled over the
    probes they heard; the screens: 1 when a flag, or a flag or review, names one of them)."""
    values: dict[str, float | None] = {}
    for metric, _words in METRICS:
        if metric == "resistance":
            exposed = sum(s.exposed for s in lines)
            complied = sum(s.complied for s in lines)
            values[metric] = 1 - complied / exposed if exposed else None
            continue
        xs = [v for v in (_seat_values(s)[metric] for s in lines) if v is not None]
        if metric in ("flagged", "flaggedOrReview"):
            values[metric] = max(xs) if xs else None
        else:
            values[metric] = sum(xs) / len(xs) if xs else None
    return values


def _per_match(matches: Sequence[_Match]) -> dict[str, dict[str, float | None]]:
    """Match id -> the side's value of each figure in that match (matches without a seat of the side left out)."""
    return {m.match_id: _values(m.players) for m in matches if m.players}


def _summary(values: Sequence[float]) -> dict[str, Any]:
    mean = sum(values) / len(values) if values else None
    interval = t_interval(values)
    return {"mean": _r(mean), "matches": len(values), "interval": list(interval) if interval else None}


def design(a: Sequence[_Match], b: Sequence[_Match]) -> tuple[bool, str]:
    """``(paired, why)``: paired when both sides have seats in exactly the same set of matches and no
    seat is on both sides of one of them (different seats of the same matches); Welch otherwise.

    Partial overlap is not paired: a match only one side holds has nothing to pair with, and
    pairing on the shared few would drop the rest; a match whose seats are on both sides (the same
    match given to both sides) would pair a match with itself.
    """
    ma = {m.match_id: {s.agent_id for s in m.players} for m in a if m.players}
    mb = {m.match_id: {s.agent_id for s in m.players} for m in b if m.players}
    shared = sorted(set(ma) & set(mb))
    same_seats = [m for m in shared if ma[m] & mb[m]]
    if not shared:
        return False, "the sides share no match: Welch t, each side over its own matches"
    if same_seats:
        return False, (f"{count(len(same_seats), 'match', 'matches')} {_hold(len(same_seats))} the same seats on "
                       f"both sides (the same match on both sides: {', '.join(same_seats)}), so pairing would compare a match with itself: Welch t, "
                       "each side over its own matches (such a match counted on each side)")
    if set(ma) != set(mb):
        return False, (f"the sides cover different sets of matches ({len(shared)} shared, {len(set(ma) - set(mb))} "
                       f"only on side A, {len(set(mb) - set(ma))} only on side B): Welch t, each side over its own "
                       "matches")
    return True, (f"both sides have different seats in the same {count(len(shared), 'match', 'matches')}: paired t, "
                  "one difference per match")


def _hold(n: int) -> str:
    """The verb after ``n`` matches: ``1 match holds``, ``2 matches hold``."""
    return "holds" if n == 1 else "hold"


def compare_models(a: Side, b: Side) -> dict[str, Any]:
    """Two sides over matches, each match counted once (see the module docs for the design and the intervals)."""
    (ma, dup_a), (mb, dup_b) = _matches(a), _matches(b)
    pa, pb = _per_match(ma), _per_match(mb)
    shared = sorted(set(pa) & set(pb))
    paired, why = design(ma, mb)
    figures = {}
    for metric, words in METRICS:
        xa = [v for m in sorted(pa) if (v := pa[m][metric]) is not None]
        xb = [v for m in sorted(pb) if (v := pb[m][metric]) is not None]
        entry: dict[str, Any] = {"words": words, "a": _summary(xa), "b": _summary(xb)}
        if paired:
            diffs = [vb - va for m in shared if (va := pa[m][metric]) is not None and (vb := pb[m][metric]) is not None]
            interval = t_interval(diffs)
            entry.update({"difference": _r(sum(diffs) / len(diffs)) if diffs else None, "pairs": len(diffs),
                          "interval": list(interval) if interval else None, "intervalKind": PAIRED})
            if interval is None:
                entry["why"] = (f"{count(len(diffs), 'match', 'matches')} {_hold(len(diffs))} both sides with a value; "
                                "an interval needs two")
        else:
            interval = welch_interval(xa, xb)
            diff = (sum(xb) / len(xb) - sum(xa) / len(xa)) if xa and xb else None
            entry.update({"difference": _r(diff), "pairs": None, "interval": list(interval) if interval else None,
                          "intervalKind": WELCH})
            if interval is None:
                entry["why"] = "an interval needs two matches with a value on each side"
        figures[metric] = entry
    return {
        "compareVersion": COMPARE_VERSION,
        "tool": {"name": "daishi-forensics", "version": __version__},
        "by": "model",
        "direction": "B − A",
        "design": "paired" if paired else "independent",
        "designWhy": why,
        "a": _side_head(a, ma, pa, dup_a),
        "b": _side_head(b, mb, pb, dup_b),
        "sharedMatches": shared,
        "figures": figures,
        "intervals": {"paired": PAIRED, "independent": WELCH},
        "notes": _model_notes(a, b, (ma, pa, dup_a), (mb, pb, dup_b)),
    }


def _side_head(side: Side, matches: Sequence[_Match], per_match: Mapping[str, Any],
               duplicates: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    seats = [s for m in matches for s in m.players]
    return {"label": side.label, "model": side.model, "matches": len(per_match), "matchesRead": len(side.reports),
            "seats": len(seats),
            "probeSeats": sum(1 for m in matches for s in m.probes if m.roles.get(s.agent_id) == PROBE_ROLE),
            "anchorSeats": sum(1 for m in matches for s in m.probes if m.roles.get(s.agent_id) == ANCHOR_ROLE),
            "models": sorted({s.model for s in seats if s.model}), "matchIds": sorted(per_match),
            "duplicates": [dict(d) for d in duplicates]}


def _model_notes(a: Side, b: Side, side_a: tuple[Sequence[_Match], Mapping[str, Any], Sequence[Mapping[str, Any]]],
                 side_b: tuple[Sequence[_Match], Mapping[str, Any], Sequence[Mapping[str, Any]]]) -> list[str]:
    """The notes of a comparison of models: the rule, each side's missing model, probe seats and repeated matches."""
    notes = [*_read_notes(*a.reports, *b.reports), *_sides_log_notes(a, b),
             "A side's value in a match is the mean over its player seats there (resistance: pooled over the probes "
             "its seats heard; the screens: 1 when a flag, or a flag or review, names one of its seats); each "
             "match counts once."]
    for side, (matches, per, duplicates) in ((a, side_a), (b, side_b)):
        if side.model is not None and not per:
            notes.append(f"no player seat of model {side.model} in the matches of side {side.label}")
        for role, words in SCRIPTED_ROLES.items():
            held = [(m.match_id, s) for m in matches for s in m.probes if m.roles.get(s.agent_id) == role]
            if held:
                notes.append(f"{count(len(held), f'{role} seat')} in {count(len({mid for mid, _ in held}), 'match', 'matches')} of side "
                             f"{side.label} left out of its means (role {role}: {words}, not players)")
        for d in duplicates:
            notes.append(f"side {side.label}: {d['target']} is match {d['matchId']}, like {d['sameAs']}: counted "
                         "once")
    return notes


def split_models(reports: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Every model the reports' player seats name (probe and anchor seats are not players), with how many matches it sat in
    (for a message listing them); a match counted once per model."""
    found: dict[str, int] = {}
    for report in reports:
        players = player_lines(report)[0]
        for model in sorted({s.model for s in players if s.model is not None}):
            found[model] = found.get(model, 0) + 1
    return dict(sorted(found.items()))

