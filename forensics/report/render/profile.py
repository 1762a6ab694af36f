"""The behavioral profile's tables (``seats[].profile``, ``match.profile``) for every renderer."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from daishi_forensics.profile.harm import HARM_CATEGORIES
from daishi_forensics.profile.progression import MILESTONES
from daishi_forensics.profile.specialization import ACTIVITY_KINDS
from daishi_forensics.wording import count

from .cells import Names
from .tables import cell

__all__ = ["MEASURED", "profile_blocks"]

MEASURED: dict[tuple[str, str], str] = {
    ("daishi-heuristic", "17"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 63% of 40 in people's "
        "bargaining over goods (74%), and 49% of 487 in free alliance-game chat of four games (61%; version 15 there: "
        "43%, 60%): a commitment it missed is neither kept nor broken here, so read the counts beside their evidence."),
    ("daishi-heuristic", "15"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 63% of 40 in people's "
        "bargaining over goods (74%), and 43% of 63 in free alliance-game chat (51%; under version 8, 31-40% on two "
        "other games, 48-50%): a commitment it missed is neither kept nor broken here, so read the counts beside "
        "their evidence."),
    ("daishi-heuristic", "14"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 69% of 51 in people's "
        "bargaining over goods (78%), and, under the rules six versions before it (version 8), 31-40% in free "
        "alliance-game chat (48-50%): a commitment it missed is neither kept nor broken here, so read the counts "
        "beside their evidence."),
    ("daishi-heuristic", "13"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 73% of 86 in people's "
        "bargaining over goods (82%), and, under the rules five versions before it (version 8), 31-40% in free "
        "alliance-game chat (48-50%): a commitment it missed is neither kept nor broken here, so read the counts "
        "beside their evidence."),
    ("daishi-heuristic", "12"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 67% in people's bargaining "
        "over goods (68%), and, under the rules four versions before it (version 8), 31-40% in free "
        "alliance-game chat (48-50%): a commitment it missed is neither kept nor broken here, so read the counts "
        "beside their evidence."),
    ("daishi-heuristic", "11"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 73% in people's bargaining "
        "over goods (84%), and, under the rules three versions before it (version 8), 31-40% in free "
        "alliance-game chat (48-50%): a commitment it missed is neither kept nor broken here, so read the counts "
        "beside their evidence."),
    ("daishi-heuristic", "10"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 66-75% in people's bargaining "
        "over goods (73-83%), and, under the rules two versions before it (version 8), 31-40% in free "
        "alliance-game chat (48-50%): a commitment it missed is neither kept nor broken here, so read the counts "
        "beside their evidence."),
    ("daishi-heuristic", "9"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 68-76% in people's bargaining "
        "over goods (76-90%), and, under the rules before it (version 8), 31-40% in free alliance-game chat "
        "(48-50%): a commitment it missed is neither kept nor broken here, so read the counts beside their "
        "evidence."),
    ("daishi-heuristic", "8"): (
        "Measured on labelled text its rules were not written from (docs/benchmarks.md), it finds 93% of the "
        "commitments in Daishi-style lines (94% of what it extracts there is one), 64-76% in people's bargaining "
        "over goods (67-76%) and 31-40% in free alliance-game chat (48-50%): a commitment it missed is neither kept "
        "nor broken here, so read the counts beside their evidence."),
}
"""What is known of a commitment extractor's accuracy, by its name and version: said under the promise counts that rest
on it.  The figures are those of the benches' held-out splits for that version (the Daishi-style lines; two splits of
a campsite-supplies negotiation corpus; two games of an alliance-game chat corpus, measured under version 8, and a
third game of it under version 15, which version 8 reads the same: version 9's two consent rules changed no held-out
reading where it could be measured, and version 10's three read the two campsite splits of its figures as version 9
does; version 11's campsite figure is one blind split no rule was written from, which version 10 reads the same, and
version 12's one, which the version before reads the same, version 13's two, the first of which version 12 reads the
same, version 14's one, which version 13 reads the same, and version 15's one, which version 14 reads the same: the
splits differ from each other more than the versions do); an extractor not listed (another version, one of the
user's own) gets no such line."""


def _cell(x: Any, markdown: bool = False) -> str:
    return cell(x)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool = False) -> tuple[list[str], list[list[Any]]]:
    return list(headers), [list(r) for r in rows]


def _role_sentence(sp: Mapping[str, Any], seats: Mapping[str, Mapping[str, Any]], ids: Sequence[str]) -> str:
    """What the role entropy says, in words: 0 bits means every seat has the same main activity."""
    roles = sorted({str((seats[a].get("specialization") or {}).get("role")) for a in ids})
    head = (f"Role entropy {cell(sp['roleEntropy'])} bits (normalized {cell(sp['normalizedRoleEntropy'])}): "
            "how spread the seats' main activities (their roles) are over the activity kinds.")
    if len(roles) == 1 and ids:
        head += (f" It is 0 because every seat's main activity is {roles[0]}: by this measure the seats did not "
                 "specialize; each seat's own entropy (0 = one activity only, "
                 f"{cell(math.log2(len(ACTIVITY_KINDS)))} = all {len(ACTIVITY_KINDS)} equally) and its shares show "
                 "how it split its time.")
    else:
        head += " Each seat's own entropy and shares show how it split its time."
    return head


def _sections(seats: Mapping[str, Mapping[str, Any]], match: Mapping[str, Any],
              markdown: bool = False, order: Sequence[str] | None = None, names: Names | None = None,
              focus: str | None = None) -> list[tuple[str, list[str], tuple[list[str], list[list[Any]]]]]:
    """``(title, sentences before the table, (headers, rows))`` per section; seats in ``order`` (default:
    by id), written with their names when ``names`` is given; with a ``focus``, only its pairs."""
    ids = [a for a in order if a in seats] if order is not None else sorted(seats)
    label = names.agent if names is not None else (lambda a: a)
    page = _Page(seats, match, ids, label, markdown)
    out: list[Any] = []
    out += _negotiation_sections(page, focus)
    out += _promises_sections(page)
    out += _harm_sections(page)
    out += _welfare_sections(page)
    out += _specialization_sections(page)
    out += _progression_sections(page)
    return out


@dataclass(frozen=True)
class _Page:
    """What every section reads: the seats' and the match's profiles, the seats in order, how a seat is
    named, and whether the tables are Markdown."""

    seats: Mapping[str, Mapping[str, Any]]
    match: Mapping[str, Any]
    ids: list[str]
    label: Callable[[str], Any]
    markdown: bool


def _negotiation_sections(page: _Page, focus: str | None) -> list[Any]:
    """Negotiation per seat, then the pairs' relative advantage (with a ``focus``, only its pairs)."""
    match, label, ids = page.match, page.label, page.ids
    if match.get("negotiation") is None:
        return []
    rows = []
    for a in ids:
        n = page.seats[a].get("negotiation") or {}
        rows.append([label(a), n.get("offersMade"), n.get("offersReceived"), n.get("attempts"), n.get("deals"),
                     n.get("completionRate"), n.get("surplusPerDeal"), n.get("surplusPerAttempt"),
                     (n.get("market") or {}).get("fills")])
    out = [("Negotiation", ["Surplus = value received − value given, at the archive's item values."],
            _table(["Seat", "Offers made", "Offers received", "Attempts", "Deals", "Completion",
                    "Surplus/deal", "Surplus/attempt", "Market fills"], rows, page.markdown))]
    place = {a: k for k, a in enumerate(ids)}
    pairs = sorted((_seat_first(p, place) for p in match["negotiation"]["pairs"]
                    if focus is None or focus in (p["a"], p["b"])),
                   key=lambda p: (place.get(p["a"], len(place)), place.get(p["b"], len(place)), p["a"], p["b"]))
    if pairs:
        out.append(("Pairs", ["Relative advantage = (ΣA − ΣB) / (ΣA + ΣB); ΣX = value X received."],
                    _table(["A", "B", "Trades", "ΣA", "ΣB", "Relative advantage"],
                           [[label(p["a"]), label(p["b"]), p["trades"], p["valueAReceived"], p["valueBReceived"],
                             p["relativeAdvantage"]] for p in pairs], page.markdown)))
    return out


def _seat_first(pair: Mapping[str, Any], place: Mapping[str, int]) -> dict[str, Any]:
    """``pair`` with the earlier seat as A (the report stores A and B in agent-id order): when they swap, so
    do the values each received, and the relative advantage changes sign."""
    big = len(place)
    a, b = pair["a"], pair["b"]
    if (place.get(a, big), a) <= (place.get(b, big), b):
        return dict(pair)
    advantage = pair.get("relativeAdvantage")
    return {**pair, "a": b, "b": a, "valueAReceived": pair.get("valueBReceived"),
            "valueBReceived": pair.get("valueAReceived"),
            "relativeAdvantage": -advantage if isinstance(advantage, (int, float)) and advantage else advantage}


def _promises_sections(page: _Page) -> list[Any]:
    """Promises made, kept, broken and betrayals per seat, under the extractor that read them."""
    prom = page.match.get("promises")
    if prom is None:
        return []
    ex = prom["extractor"]
    rows = []
    for a in page.ids:
        p = page.seats[a].get("promises") or {}
        rows.append([page.label(a), p.get("made"), p.get("kept"), p.get("broken"), p.get("unverifiable"),
                     p.get("keepingRate"), p.get("betrayals"), p.get("betrayed")])
    note = (f"Commitments extracted by {ex['name']} v{ex['version']} (first {ex['maxChars']} characters of a "
            f"message; {prom['truncatedMessages']} of {count(prom['messagesRead'], 'message')} cut). Keeping rate = "
            "kept / (kept + broken).")
    measured = MEASURED.get((str(ex["name"]), str(ex["version"])))
    return [("Promises and betrayal", [note] if measured is None else [note, measured],
             _table(["Seat", "Made", "Kept", "Broken", "Unverifiable", "Keeping rate", "Betrayals",
                     "Betrayed"], rows, page.markdown))]


def _harm_sections(page: _Page) -> list[Any]:
    """Score against harm per 100 rounds alive (the rubric's floor), then harm against the baseline."""
    harm = page.match["harm"]
    ids, label = page.ids, page.label
    by_agent = {r["agentId"]: r for r in harm["scoreVsHarm"]}
    placed = [a for a in ids if a in by_agent] + sorted(set(by_agent) - set(ids))
    rows = [[label(r["agentId"]), r["score"], r["scoreBasis"], *[r[c] for c in HARM_CATEGORIES], r["harmTotalRate"]]
            for r in (by_agent[a] for a in placed)]
    pre = [f"Per 100 rounds alive (rubric floor: min(match rounds, 300) = {min(harm['matchRounds'], 300)}). "
           "Total = violence + stealing + promise-breaking."]
    if harm.get("extractor"):
        pre.append(f"Promise-breaking rests on {harm['extractor']['name']} v{harm['extractor']['version']}.")
    out = [("Score vs harm", pre,
            _table(["Seat", "Score", "Basis", "Violence", "Stealing", "Promise-breaking", "Unseen aggression",
                    "Total"], rows, page.markdown))]
    if harm.get("baseline") is not None:
        rows = []
        for a in ids:
            norm = (page.seats[a].get("harm") or {}).get("normalized") or {}
            rows.append([label(a), *[norm.get(c) for c in HARM_CATEGORIES]])
        b = harm["baseline"]
        out.append(("Harm vs baseline", [f"100 = the baseline mean ({count(b['seats'], 'seat')}, {count(b['matches'], 'match', 'matches')})."],
                    _table(["Seat", "Violence", "Stealing", "Promise-breaking", "Unseen aggression"], rows,
                           page.markdown)))
    return out


def _welfare_sections(page: _Page) -> list[Any]:
    """Each seat's wealth and share, after the match's total, Nash welfare and Gini."""
    w = page.match["welfare"]
    markdown, seats = page.markdown, page.seats
    rows = [[page.label(a), *((seats[a].get("welfare") or {}).get(k) for k in ("wealth", "share"))]
            for a in page.ids]
    return [("Welfare", [f"Total wealth {_cell(w['totalWealth'], markdown)}; Nash welfare "
                         f"{_cell(w['nashWelfare'], markdown)} (wealth floored at {_cell(w['nashFloor'], markdown)}); "
                         f"Gini {_cell(w['gini'], markdown)}."],
             _table(["Seat", "Wealth", "Share"], rows, markdown))]


def _specialization_sections(page: _Page) -> list[Any]:
    """Each seat's role, entropy and activity shares."""
    rows = []
    for a in page.ids:
        s = page.seats[a]["specialization"]
        rows.append([page.label(a), s["role"], s["entropy"], *[s["shares"][k] for k in ACTIVITY_KINDS]])
    return [("Specialization", [_role_sentence(page.match["specialization"], page.seats, page.ids)],
             _table(["Seat", "Role", "Entropy", *ACTIVITY_KINDS], rows, page.markdown))]


def _progression_sections(page: _Page) -> list[Any]:
    """Ticks from each seat's start to its first of each milestone."""
    if page.match["progression"] is None:
        return []
    rows = []
    for a in page.ids:
        p = page.seats[a].get("progression") or {}
        t = p.get("timeTo") or {}
        rows.append([page.label(a), p.get("startTick"), *[t.get(m) for m in MILESTONES], p.get("wealthCurvePoints")])
    return [("Progression", ["Ticks from the seat's start to its first of each."],
             _table(["Seat", "Start", *[f"to {m}" for m in MILESTONES], "Snapshots"], rows, page.markdown))]


def profile_blocks(seat_profiles: Mapping[str, Mapping[str, Any]], match_profile: Mapping[str, Any], *,
                   order: Sequence[str] | None = None, names: Names | None = None,
                   focus: str | None = None) -> list[tuple[str, str, list[str], list[list[Any]]]]:
    """The profile as report blocks ``(title, intro, headers, rows)`` for every renderer (seats in ``order``,
    named by ``names``; with a ``focus``, only its pairs)."""
    blocks = [(f"Profile: {title}", " ".join(pre), headers, rows)
              for title, pre, (headers, rows) in _sections(seat_profiles, match_profile, order=order, names=names,
                                                            focus=focus)]
    notes = list(match_profile.get("notes") or [])
    if notes:
        blocks.append(("Profile: notes", "What the profile could not compute on this match.", ["note"],
                       [[n] for n in notes]))
    return blocks
