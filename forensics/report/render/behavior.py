"""Render a behavior report (the dict of :func:`daishi_forensics.report.assembly.behavior_report`).

``text`` for a terminal, ``markdown`` for a page; both are built from the same
blocks, so they always show the same things.  ``json`` is the report itself.
The feature sections' blocks (screens, probes, propagation, profile) come from
:mod:`.sections`.
"""

from __future__ import annotations

import textwrap
from typing import Any, Sequence

from daishi_forensics.jsonio import dumps
from daishi_forensics.textsafe import shown

from .sections import SECTION_BLOCKS
from .tables import cell, clean, markdown_table, text_table

__all__ = ["render_text", "render_markdown", "render_json", "blocks"]

Block = tuple[str, str, Sequence[str], Sequence[Sequence[Any]]]
"""(title, intro sentence, headers, rows)."""


def _source_intro(report: dict[str, Any]) -> str:
    s = report["source"]
    versions = ", ".join(f"v{k} {v:,}" for k, v in s["schemaVersions"].items())
    parts = [
        f"{s['form']} {s['name']}: {s['records']:,} records ({versions}), {s['invalid']:,} invalid, "
        f"{s['analysed']:,} events analysed ({s['upcast']:,} upcast, {s['synthesized']:,} synthesized).",
        f"Visibility: {s['visibility']} export"
        + (" (direct messages present)." if s["privateEventsPresent"] else " (no direct messages in the log)."),
    ]
    for what in s["cannotSee"]:
        parts.append(f"Cannot see: {what}.")
    if s["excludedByErrata"]:
        parts.append(f"Withheld by errata: events {', '.join(map(str, s['excludedByErrata']))}.")
    return " ".join(parts)


def _recorded(value: Any) -> Any:
    """A count the log may not hold: None is "not recorded" (not zero, not a dash)."""
    return "not recorded" if value is None else value


def blocks(report: dict[str, Any]) -> list[Block]:
    """The report's sections as tables, in reading order."""
    match = report["match"]
    out: list[Block] = [
        (
            "Source",
            _source_intro(report),
            ["match", "rounds", "ticks", "map regions", "engine", "ranked", "findings"],
            [[report["matchId"], match["rounds"], f"{match['startedAtTick']}–{match['endedAtTick']}",
              match["mapRegions"], match["engineVersion"], match["ranked"], report["source"]["findingsCount"]]],
        ),
        (
            "Seats",
            "Coverage is regions stood in over the map (3 decimals, half up); credited trades and circular "
            "reputation follow rubric 2.4; aggression counts attacks, raids and thefts (witnessed = marked by the "
            "log; unseen = nobody else in the region).",
            ["seat", "agent", "name", "role", "status", "wealth", "index wealth", "coverage", "credited trades",
             "commons", "circular rep", "acts", "witnessed", "unseen", "invalid rate"],
            [[s["seat"], s["agentId"], s["name"], s["role"], s["status"], s["wealth"], s["indexWealth"],
              s["coverage"], s["creditedTrades"], s["commonsShare"], s["circularReputation"],
              s["aggression"]["acts"], _recorded(s["aggression"]["witnessed"]), s["aggression"]["unseen"],
              s["invalidActionRate"]] for s in report["seats"]],
        ),
        (
            "Trade ledger",
            "One row per trading pair (a < b): net share 1 means every item moved one way, 0 that the same goods "
            "went back and forth (rubric, Trade ledger).",
            ["a", "b", "trades", "gifts", "net share", "value a→b", "value b→a", "rep points"],
            [[p["a"], p["b"], p["trades"], p["gifts"], p["netShare"], p["valueAGave"], p["valueBGave"],
              ", ".join(f"{k} {cell(v)}" for k, v in p["points"].items())] for p in report["ledger"]["pairs"]],
        ),
        (
            "Seat contact",
            "Ticks both agents ended in the same region while both alive, and messages each heard from the other.",
            ["a", "b", "ticks together", "first contact", "messages"],
            [[p["a"], p["b"], p["ticksTogether"], p["firstContactTick"], p["messages"]]
             for p in sorted(report["contact"]["pairs"], key=lambda p: (-p["ticksTogether"], p["a"], p["b"]))],
        ),
        (
            "Findings",
            "What the report did not take at face value: archive-vs-events disagreements, errata applied, "
            "invalid or unknown records.",
            ["kind", "who", "field", "archived", "recomputed", "events", "what"],
            [[f["kind"], f.get("agentId") or "–".join(f.get("pair") or []) or None, f.get("field"),
              f.get("archived"), f.get("recomputed"), _events(f), f["message"]] for f in report["findings"]],
        ),
    ]
    for section_blocks in SECTION_BLOCKS:
        out.extend(section_blocks(report))
    return out


def _events(finding: dict[str, Any]) -> str:
    ids = finding.get("events") or []
    listed = ", ".join(map(str, ids[:5]))
    more = finding.get("eventCount", len(ids)) - min(len(ids), 5)
    return listed + (f" (+{more})" if more > 0 else "")


def render_text(report: dict[str, Any]) -> str:
    out = [shown(f"daishi-forensics behavior report — {report['matchId']} (report v{report['reportVersion']})"), ""]
    for title, intro, headers, rows in blocks(report):
        out.append(f"== {shown(title)} ==")
        out.append(textwrap.fill(shown(intro), 100))
        out.append(text_table(headers, rows) if rows else "(none)")
        out.append("")
    return "\n".join(out)


def render_markdown(report: dict[str, Any]) -> str:
    out = [f"# Behavior report: {clean(str(report['matchId']))}", "",
           f"Report version {report['reportVersion']}, daishi-forensics {report['tool']['version']}.", ""]
    for title, intro, headers, rows in blocks(report):
        out.append(f"## {_md_text(title)}")
        out.append("")
        out.append(_md_text(intro))
        out.append("")
        out.append(markdown_table(headers, rows) if rows else "_none_")
        out.append("")
    return "\n".join(out)


def _md_text(text: str) -> str:
    """Escape a sentence for Markdown: no raw HTML, no emphasis or links from data, no control characters."""
    text = shown(text)
    for ch in "\\`*_[]<>#|":
        text = text.replace(ch, "\\" + ch)
    return text


def render_json(report: dict[str, Any]) -> str:
    return dumps(report)
