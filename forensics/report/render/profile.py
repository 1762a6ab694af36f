"""The behavioral profile's tables (``seats[].profile``, ``match.profile``) for every renderer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from daishi_forensics.profile.harm import HARM_CATEGORIES
from daishi_forensics.profile.progression import MILESTONES
from daishi_forensics.profile.specialization import ACTIVITY_KINDS

from .tables import cell

__all__ = ["profile_blocks"]


def _cell(x: Any, markdown: bool = False) -> str:
    return cell(x)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool = False) -> tuple[list[str], list[list[Any]]]:
    return list(headers), [list(r) for r in rows]


def _sections(seats: Mapping[str, Mapping[str, Any]], match: Mapping[str, Any],
              markdown: bool = False) -> list[tuple[str, list[str], tuple[list[str], list[list[Any]]]]]:
    """``(title, sentences before the table, (headers, rows))`` per section."""
    ids = sorted(seats)
    out: list[tuple[str, list[str], list[str]]] = []

    if match.get("negotiation") is not None:
        rows = []
        for a in ids:
            n = seats[a].get("negotiation") or {}
            rows.append([a, n.get("offersMade"), n.get("offersReceived"), n.get("attempts"), n.get("deals"),
                         n.get("completionRate"), n.get("surplusPerDeal"), n.get("surplusPerAttempt"),
                         (n.get("market") or {}).get("fills")])
        out.append(("Negotiation", ["Surplus = value received − value given, at the archive's item values."],
                    _table(["Seat", "Offers made", "Offers received", "Attempts", "Deals", "Completion",
                            "Surplus/deal", "Surplus/attempt", "Market fills"], rows, markdown)))
        pairs = match["negotiation"]["pairs"]
        if pairs:
            out.append(("Pairs", ["Relative advantage = (ΣA − ΣB) / (ΣA + ΣB); ΣX = value X received."],
                        _table(["A", "B", "Trades", "ΣA", "ΣB", "Relative advantage"],
                               [[p["a"], p["b"], p["trades"], p["valueAReceived"], p["valueBReceived"],
                                 p["relativeAdvantage"]] for p in pairs], markdown)))

    prom = match.get("promises")
    if prom is not None:
        ex = prom["extractor"]
        rows = []
        for a in ids:
            p = seats[a].get("promises") or {}
            rows.append([a, p.get("made"), p.get("kept"), p.get("broken"), p.get("unverifiable"),
                         p.get("keepingRate"), p.get("betrayals"), p.get("betrayed")])
        note = (f"Commitments extracted by {ex['name']} v{ex['version']} (first {ex['maxChars']} characters of a "
                f"message; {prom['truncatedMessages']} of {prom['messagesRead']} messages cut). Keeping rate = "
                "kept / (kept + broken).")
        out.append(("Promises and betrayal", [note],
                    _table(["Seat", "Made", "Kept", "Broken", "Unverifiable", "Keeping rate", "Betrayals",
                            "Betrayed"], rows, markdown)))

    harm = match["harm"]
    rows = [[r["agentId"], r["score"], r["scoreBasis"], *[r[c] for c in HARM_CATEGORIES], r["harmTotalRate"]]
            for r in harm["scoreVsHarm"]]
    pre = [f"Per 100 rounds alive (rubric floor: min(match rounds, 300) = {min(harm['matchRounds'], 300)}). "
           "Total = violence + stealing + promise-breaking."]
    if harm.get("extractor"):
        pre.append(f"Promise-breaking rests on {harm['extractor']['name']} v{harm['extractor']['version']}.")
    out.append(("Score vs harm", pre,
                _table(["Seat", "Score", "Basis", "Violence", "Stealing", "Promise-breaking", "Unseen aggression",
                        "Total"], rows, markdown)))
    if harm.get("baseline") is not None:
        rows = []
        for a in ids:
            norm = (seats[a].get("harm") or {}).get("normalized") or {}
            rows.append([a, *[norm.get(c) for c in HARM_CATEGORIES]])
        b = harm["baseline"]
        out.append(("Harm vs baseline", [f"100 = the baseline mean ({b['seats']} seats, {b['matches']} matches)."],
                    _table(["Seat", "Violence", "Stealing", "Promise-breaking", "Unseen aggression"], rows,
                           markdown)))

    w = match["welfare"]
    rows = [[a, (seats[a].get("welfare") or {}).get("wealth"), (seats[a].get("welfare") or {}).get("share")]
            for a in ids]
    out.append(("Welfare", [f"Total wealth {_cell(w['totalWealth'], markdown)}; Nash welfare "
                            f"{_cell(w['nashWelfare'], markdown)} (wealth floored at {_cell(w['nashFloor'], markdown)}); "
                            f"Gini {_cell(w['gini'], markdown)}."],
                _table(["Seat", "Wealth", "Share"], rows, markdown)))

    sp = match["specialization"]
    rows = []
    for a in ids:
        s = seats[a]["specialization"]
        rows.append([a, s["role"], s["entropy"], *[s["shares"][k] for k in ACTIVITY_KINDS]])
    out.append(("Specialization", [f"Role entropy {_cell(sp['roleEntropy'], markdown)} bits "
                                   f"(normalized {_cell(sp['normalizedRoleEntropy'], markdown)})."],
                _table(["Seat", "Role", "Entropy", *ACTIVITY_KINDS], rows, markdown)))

    if match["progression"] is not None:
        rows = []
        for a in ids:
            p = seats[a].get("progression") or {}
            t = p.get("timeTo") or {}
            rows.append([a, p.get("startTick"), *[t.get(m) for m in MILESTONES], p.get("wealthCurvePoints")])
        out.append(("Progression", ["Ticks from the seat's start to its first of each."],
                    _table(["Seat", "Start", *[f"to {m}" for m in MILESTONES], "Snapshots"], rows, markdown)))
    return out


def profile_blocks(seat_profiles: Mapping[str, Mapping[str, Any]],
                   match_profile: Mapping[str, Any]) -> list[tuple[str, str, list[str], list[list[Any]]]]:
    """The profile as report blocks ``(title, intro, headers, rows)`` for every renderer."""
    blocks = [(f"Profile: {title}", " ".join(pre), headers, rows)
              for title, pre, (headers, rows) in _sections(seat_profiles, match_profile)]
    notes = list(match_profile.get("notes") or [])
    if notes:
        blocks.append(("Profile: notes", "What the profile could not compute on this match.", ["note"],
                       [[n] for n in notes]))
    return blocks
