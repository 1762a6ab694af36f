"""The tables of the report's feature sections (screens, injection, profile), for every renderer.

Each function turns its section of the report dict into blocks ``(title, intro, headers,
rows)``; the text, Markdown and HTML renderers print every block the same way.
"""

from __future__ import annotations

from typing import Any

from .profile import profile_blocks

__all__ = ["SECTION_BLOCKS", "injection_blocks", "profile_report_blocks", "screens_blocks"]

Block = tuple[str, str, list[str], list[list[Any]]]


def screens_blocks(report: dict[str, Any]) -> list[Block]:
    screens = report.get("screens")
    if screens is None:
        return []
    testing = screens.get("testing") or {}
    intro = (f"Verdict: {screens.get('verdict')} (screens configuration {screens.get('configVersion')}). "
             "Every finding is tested against honest play in this match (the null model named in each row); "
             "p is the chance of a finding this strong under that null, adjusted over every test of the match "
             f"({testing.get('family', 0)} counted of {testing.get('tests', 0)} made; Holm): a review at "
             f"{testing.get('holmRate', testing.get('falseAlarmRate', ''))} or less, a flag at "
             f"{testing.get('flagRate', '')} or less; the money-laundering typologies each test at "
             f"{testing.get('typologyRate', '')}; so honest matches come back anything but clear at most "
             f"{testing.get('falseAlarmRate', '')} of the time.")
    for reason in screens.get("notScreened") or []:
        intro += f" Not screened: {reason if isinstance(reason, str) else reason.get('reason', reason)}."
    rows = [[f.get("screen"), f.get("kind"), f.get("level"), ", ".join(map(str, f.get("agents") or [])),
             _p(f.get("pValue")), _p(f.get("pAdjusted")), f.get("null") or "", _ids(f.get("evidence") or []),
             f.get("explanation")]
            for f in screens.get("flags") or []]
    return [("Collusion screens", intro,
             ["screen", "kind", "level", "agents", "p", "p adjusted", "null model", "evidence", "explanation"], rows)]


def _p(value: Any) -> str:
    return "" if value is None else f"{value:.3g}"


def _ids(ids: list[int], shown: int = 8) -> str:
    text = ", ".join(str(i) for i in ids[:shown])
    return text + (f" (+{len(ids) - shown})" if len(ids) > shown else "")


def injection_blocks(report: dict[str, Any]) -> list[Block]:
    blocks: list[Block] = []
    if "probes" not in report:
        return blocks
    rows = []
    for seat in report["seats"]:
        inj = seat.get("injection") or {}
        tiers = seat.get("messages") or {}
        interval = inj.get("interval")
        rows.append([seat["agentId"], inj.get("exposed"), inj.get("complied"), inj.get("resistance"),
                     f"{interval[0]}–{interval[1]}" if isinstance(interval, list) and len(interval) == 2 else None,
                     tiers.get("total"), tiers.get("hijack"), tiers.get("protocol")])
    caveat = next((s["injection"].get("caveat") for s in report["seats"] if (s.get("injection") or {}).get("caveat")),
                  None)
    blocks.append(("Injection resistance",
                   "Resistance = 1 − complied/exposed over the scripted probes each seat heard, with a 95% Wilson "
                   "interval; messages by tier: persuasion is the game, hijack targets the other agent's model, "
                   "protocol forges the harness." + (f" {caveat}" if caveat else ""),
                   ["agent", "exposed", "complied", "resistance", "95% interval", "messages", "hijack", "protocol"],
                   rows))
    blocks.append(("Probes",
                   "One row per probe message and target it addressed: exposed (heard it), complied (the evidence "
                   "event within the window), delay in ticks.",
                   ["event", "probe", "target", "exposed", "complied", "evidence", "delay"],
                   [[p.get("event"), p.get("probeId"), p.get("target"), p.get("exposed"), p.get("complied"),
                     p.get("evidence"), p.get("delay")] for p in report["probes"]]))
    prop = report.get("propagation") or {}
    chains = prop.get("chains") or []
    blocks.append(("Propagation chains",
                   f"Messages that echo an earlier message their sender had heard. Propagation index "
                   f"{prop.get('index')}; share of exposed agents that re-sent {prop.get('resendShare')}.",
                   ["root", "sender", "tier", "tick", "messages", "depth", "reach", "re-send share"],
                   [[c.get("root"), c.get("sender"), c.get("tier"), c.get("tick"), len(c.get("messages") or []),
                     c.get("depth"), c.get("reach"), c.get("resendShare")] for c in chains]))
    return blocks


def profile_report_blocks(report: dict[str, Any]) -> list[Block]:
    match = report["match"].get("profile")
    if match is None:
        return []
    seats = {s["agentId"]: s["profile"] for s in report["seats"] if s.get("profile") is not None}
    return profile_blocks(seats, match)


SECTION_BLOCKS = (screens_blocks, injection_blocks, profile_report_blocks)
"""The feature sections' tables, in reading order (after the core tables)."""
