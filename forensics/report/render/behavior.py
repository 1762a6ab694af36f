"""Render a behavior report (the dict of :func:`daishi_forensics.report.assembly.behavior_report`).

``text`` for a terminal, ``markdown`` for a page; both open the same way and are built from
the same blocks, so they always show the same things:

1. the verdict;
2. with a seat in focus (``--agent``): that seat -- what it did, its flags and why, where it
   stands among the others, its counterparties and the messages that mattered;
3. the summary: the flags per agent with their explanation and p-value, the findings, the
   probes complied with, injection exposure, one line per seat;
4. the contents, then every section; the long pair tables (seat contact, trade ledger) last.

``json`` is the report itself.  Seats are written ``Name (id)`` everywhere.

The text fits the width it is given (a terminal's): paragraphs wrap at spaces and tables wrap
their cells (a table with more columns than fit is printed in parts); nothing is cut.  Levels
are coloured when asked (flag red, review yellow, clear green).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from daishi_forensics.jsonio import dumps, dumps_bytes
from daishi_forensics.report.summary import Summary, summarize
from daishi_forensics.textsafe import md_bold, md_text, shown
from daishi_forensics.wording import count

from .cells import MAX_IDS_TEXT, Block, EventIds, Names
from .phrases import (counterparties_block, did_text, exposure_text, finding_text, flag_significance, flag_title,
                      focus_head, messages_block, probe_text, ranks_text, seats_block, verdict_text)
from .sections import SECTION_BLOCKS
from .tables import cell, markdown_table, paint, text_records, text_table, wrap

__all__ = ["render_text", "render_markdown", "render_json", "render_json_bytes", "report_blocks", "focus_blocks",
           "summary_blocks", "Document", "document", "event_ids_shown"]

WITNESSED_NONE = "not recorded"
"""How a seat's witnessed count reads when the log cannot say (a v1 log has no witness marks)."""


def _source_intro(report: dict[str, Any]) -> str:
    s = report["source"]
    versions = ", ".join(f"v{k} {v:,}" for k, v in s["schemaVersions"].items())
    parts = [
        f"{s['form']} {s['name']}: {count(s['records'], 'record', thousands=True)} ({versions}), "
        f"{s['invalid']:,} invalid, {count(s['analysed'], 'event', thousands=True)} analysed ({s['upcast']:,} upcast, {s['synthesized']:,} synthesized).",
        f"Visibility: {s['visibility']} export"
        + (" (direct messages present)." if s["privateEventsPresent"] else " (no direct messages in the log)."),
    ]
    for what in s["cannotSee"]:
        parts.append(f"Cannot see: {what}.")
    earlier = s.get("droppedEarlierSeason")
    if earlier:
        parts.append(f"Earlier seasons: this v1 log also holds {count(earlier, 'event', thousands=True)} of "
                     "seasons before its last world reset; only the last season is the match, so they were read "
                     "but not analysed (how a v1 log is read, not a finding).")
    if s["excludedByErrata"]:
        parts.append(f"Withheld by errata: events {', '.join(map(str, s['excludedByErrata']))}.")
    return " ".join(parts)


def tick_span(match: Mapping[str, Any]) -> str:
    """The ticks the match ran, last included: ``endedAtTick`` is the first tick after the match
    (240 rounds from tick 0 are ticks 0–239); ``tick 0`` for one round, ``no tick`` for none."""
    start, end = match.get("startedAtTick"), match.get("endedAtTick")
    if not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool) or isinstance(end, bool):
        return f"ticks {start}–{end}"
    if end - start <= 0:
        return "no tick"
    if end - start == 1:
        return f"tick {start}"
    return f"ticks {start}–{end - 1}"


def _seat_order(report: dict[str, Any]) -> dict[str, int]:
    return {s["agentId"]: k for k, s in enumerate(report["seats"])}


def _pair_key(order: Mapping[str, int]) -> Any:
    big = len(order)
    return lambda p: (order.get(p["a"], big), order.get(p["b"], big), p["a"], p["b"])


def _in_seat_order(pair: Mapping[str, Any], order: Mapping[str, int]) -> dict[str, Any]:
    """``pair`` (its ``a`` and ``b`` in agent-id order, as the report stores them) with the earlier seat as
    ``a``: when the seats run the other way, ``a`` and ``b`` swap, and so do the figures of each side
    (``valueAGave`` and ``valueBGave``)."""
    big = len(order)
    a, b = pair["a"], pair["b"]
    if (order.get(a, big), a) <= (order.get(b, big), b):
        return dict(pair)
    out = {**pair, "a": b, "b": a}
    if "valueAGave" in pair or "valueBGave" in pair:
        out["valueAGave"], out["valueBGave"] = pair.get("valueBGave"), pair.get("valueAGave")
    return out


def _witnessed(value: Any) -> Any:
    return WITNESSED_NONE if value is None else value


def _finding_events(finding: Mapping[str, Any]) -> EventIds:
    ids = tuple(e for e in finding.get("events") or [] if isinstance(e, int) and not isinstance(e, bool))
    total = finding.get("eventCount")
    return EventIds(ids, total if isinstance(total, int) else None)


def report_blocks(report: dict[str, Any], names: Names, focus: str | None = None) -> list[Block]:
    """Every section after the summary, in reading order; the long pair tables last (``long``).  With a
    ``focus``, the tables of pairs, probes, chains and flags keep only the rows about that seat."""
    match = report["match"]
    order = _seat_order(report)
    marked = frozenset(k for k, s in enumerate(report["seats"]) if s["agentId"] == focus)
    out: list[Block] = [
        Block(
            "seats", "Seats",
            "Coverage is regions stood in over the map (3 decimals, half up); credited trades and circular "
            "reputation follow rubric 2.4; aggression counts attacks, raids and thefts (witnessed = marked by the "
            f"log, {WITNESSED_NONE} when the log has no witness marks; unseen = nobody else in the region).",
            ["seat", "agent", "model", "role", "status", "wealth", "index wealth", "coverage", "credited trades",
             "commons", "circular rep", "acts", "witnessed", "unseen", "invalid rate"],
            [[s["seat"], names.agent(s["agentId"]), s.get("model"), s["role"], s["status"], s["wealth"],
              s["indexWealth"], s["coverage"], s["creditedTrades"], s["commonsShare"], s["circularReputation"],
              s["aggression"]["acts"], _witnessed(s["aggression"].get("witnessed")), s["aggression"]["unseen"],
              s["invalidActionRate"]] for s in report["seats"]],
            marked=marked, key_columns=2,
        ),
    ]
    for section_blocks in SECTION_BLOCKS:
        out.extend(section_blocks(report, names, focus))
    out.append(Block(
        "findings", "Findings",
        "What the report did not take at face value: archive-vs-events disagreements, errata applied, "
        "invalid or unknown records.",
        ["kind", "who", "field", "archived", "recomputed", "events", "what"],
        [[f["kind"], names.agent(f.get("agentId")) if f.get("agentId") else
          [names.agent(a) for a in f.get("pair") or []] or None, f.get("field"), f.get("archived"),
          f.get("recomputed"), _finding_events(f), names.named(str(f.get("message") or ""))]
         for f in report["findings"]],
        layout="records",
    ))
    out.append(Block(
        "source", "Source",
        _source_intro(report),
        ["match", "rounds", "ticks", "map regions", "engine", "ranked", "findings"],
        [[report["matchId"], match["rounds"], tick_span(match).removeprefix("ticks ").removeprefix("tick "),
          match["mapRegions"], match["engineVersion"], match["ranked"], report["source"]["findingsCount"]]],
    ))
    contact = sorted((_in_seat_order(p, order) for p in report["contact"]["pairs"]
                      if focus is None or focus in (p["a"], p["b"])), key=_pair_key(order))
    ledger = sorted((_in_seat_order(p, order) for p in report["ledger"]["pairs"]
                     if focus is None or focus in (p["a"], p["b"])), key=_pair_key(order))
    out.append(Block(
        "contact", "Seat contact",
        "Ticks both agents ended in the same region while both alive, and messages each heard from the other "
        "(pairs in seat order)." + _cut(report["contact"]),
        ["a", "b", "ticks together", "first contact", "messages"],
        [[names.agent(p["a"]), names.agent(p["b"]), p["ticksTogether"], p["firstContactTick"], p["messages"]]
         for p in contact],
        long=True, key_columns=2, note=_only(names, focus, contact, report["contact"]["pairs"], "pairs"),
    ))
    out.append(Block(
        "ledger", "Trade ledger",
        "One row per trading pair (pairs in seat order): net share 1 means every item moved one way, 0 that the "
        "same goods went back and forth (rubric, Trade ledger); rep points are the reputation each side earned.",
        ["a", "b", "trades", "gifts", "net share", "value a→b", "value b→a", "rep points"],
        [[names.agent(p["a"]), names.agent(p["b"]), p["trades"], p["gifts"], p["netShare"], p["valueAGave"],
          p["valueBGave"], ", ".join(f"{names.label(k)} {cell(p['points'][k])}" for k in
                    sorted(p["points"], key=lambda k: (order.get(k, len(order)), k)))]
         for p in ledger],
        long=True, key_columns=2, note=_only(names, focus, ledger, report["ledger"]["pairs"], "pairs"),
    ))
    return out


def _only(names: Names, focus: str | None, kept: list[Any], every: list[Any], what: str) -> str:
    """The note under a table the focus filtered: ``Only the pairs with Ash (a_1) (3 of 10).``"""
    if focus is None:
        return ""
    return f"Only the {what} with {names.label(focus)} ({len(kept):,} of {len(every):,})."


def _cut(contact: dict[str, Any]) -> str:
    """The sentence saying the table lists some of the pairs that met (empty when it lists all)."""
    cut = contact.get("cut")
    if not cut:
        return ""
    return (f" {count(cut['pairs'], 'pair', thousands=True)} met; listed: the {cut['listed']:,} with the most ticks together, then "
            "messages (each seat's totals are in the JSON report's perSeat; --all-pairs lists every pair).")


# --------------------------------------------------------------------------- the document


class Document:
    """What every format shows, in order: the verdict, the focus, the summary, the contents, the sections.

    The parts are data (strings and blocks); each renderer lays them out and escapes them."""

    def __init__(self, report: dict[str, Any], events: Mapping[int, Mapping[str, Any]] | None = None, *,
                 scrub: bool = True) -> None:
        self.report = report
        self.scrub = scrub
        self.names = Names(report["seats"])
        self.summary: Summary = summarize(report)
        self.focus: dict[str, Any] | None = report.get("focus")
        self.focus_id: str | None = self.focus["agentId"] if self.focus else None
        self.events = events
        self.verdict = verdict_text(self.summary, report)
        self.blocks = report_blocks(report, self.names, self.focus_id)

    @property
    def title(self) -> str:
        return f"Behavior report: {self.report['matchId']}"

    def subtitle(self) -> str:
        s, m = self.report["source"], self.report["match"]
        return (f"{s['form']} {s['name']} · {count(len(self.report['seats']), 'seat')} · {count(m['rounds'], 'round')} "
                f"({tick_span(m)}) · report v{self.report['reportVersion']}, "
                f"daishi-forensics {self.report['tool']['version']}")

    def line_of(self, agent: str) -> Any:
        return next((s for s in self.summary.seats if s.agent_id == agent), None)

    def seat(self, agent: str) -> dict[str, Any]:
        return next((s for s in self.report["seats"] if s["agentId"] == agent), {})

    def agent_flags(self) -> list[tuple[str, list[tuple[Any, bool]]]]:
        """Per agent a flag names (seat order): its flags, each with whether it is explained here the first
        time (later agents point back to it)."""
        seen: set[int] = set()
        out = []
        for agent, numbers in self.summary.by_agent:
            rows = []
            for n in numbers:
                rows.append((self.summary.flags[n - 1], n not in seen))
                seen.add(n)
            out.append((agent, rows))
        return out

    def first_agent(self, number: int) -> str:
        return next(a for a, ns in self.summary.by_agent if number in ns)

    def contents(self) -> list[tuple[str, str]]:
        """``(anchor, title)`` of every part after the summary."""
        return [(b.key, b.title) for b in self.blocks]


def document(report: dict[str, Any], events: Mapping[int, Mapping[str, Any]] | None = None, *,
             scrub: bool = True) -> Document:
    """The parts every format shows; ``scrub``: whether the ``events``' text was scrubbed (the labels say so)."""
    return Document(report, events, scrub=scrub)


def focus_blocks(doc: Document) -> list[Block]:
    """The focus's two tables: counterparties and the messages that mattered."""
    assert doc.focus is not None
    return [counterparties_block(doc.focus, doc.names), messages_block(doc.focus, doc.names, doc.events,
                                                                          scrub=doc.scrub)]


def summary_blocks(doc: Document) -> list[Block]:
    return [seats_block(doc.summary, doc.names, doc.focus_id)]


# --------------------------------------------------------------------------- text


def _para(text: str, width: int, indent: int = 0, hanging: int | None = None) -> list[str]:
    """A paragraph of the tool's words and data (control characters written out), wrapped."""
    first = " " * indent
    rest = " " * (indent if hanging is None else hanging)
    lines = wrap(shown(text), max(width - len(rest), 10))
    if len(lines) > 1 and len(first) != len(rest):
        head = wrap(shown(text), max(width - len(first), 10))[0]
        tail = wrap(shown(text)[len(head):].strip(), max(width - len(rest), 10))
        return [first + head] + [rest + t for t in tail]
    return [(first if k == 0 else rest) + line for k, line in enumerate(lines)]


def _ids_text(ids: tuple[int, ...]) -> str:
    return cell(EventIds(ids))


class _Text:
    def __init__(self, width: int, color: bool) -> None:
        self.width, self.color, self.out = width, color, []  # type: tuple[int, bool, list[str]]

    def heading(self, title: str) -> None:
        if self.out and self.out[-1] != "":
            self.out.append("")
        self.out.extend(_para(f"== {title} ==", self.width))

    def sub(self, title: str) -> None:
        if self.out and self.out[-1] != "":
            self.out.append("")
        self.out.extend(_para(title, self.width))

    def para(self, text: str, indent: int = 0, hanging: int | None = None) -> None:
        self.out.extend(_para(text, self.width, indent, hanging))

    def level_line(self, level: str, text: str, indent: int = 2) -> None:
        """``FLAG  text`` with the level coloured; the text wraps under itself."""
        tag = level.upper().ljust(7)
        lines = _para(text, self.width, indent + len(tag), indent + len(tag))
        lines[0] = " " * indent + paint(level.upper(), level, self.color) + " " * (len(tag) - len(level)) + \
            lines[0][indent + len(tag):]
        self.out.extend(lines)

    def block(self, b: Block, *, heading: bool = True) -> None:
        if heading:
            self.heading(b.title)
        if b.intro:
            self.para(b.intro)
        if not b.rows:
            self.out.append("(none)")
        elif b.layout == "records":
            self.out.append("")
            self.out.append(text_records(b.headers, b.rows, width=self.width, color=self.color,
                                         title=partial(_record_title, b),
                                         skip=frozenset(range(b.key_columns))))
        else:
            self.out.append(text_table(b.headers, b.rows, width=self.width, color=self.color,
                                       key=b.key_columns, marked=b.marked))
        if b.note:
            self.para(b.note)


def _record_title(block: Block, row: list[Any]) -> str:
    """A record's first line: ``[1] FLAG feeder/hub_and_spoke`` for flags, the first cells otherwise."""
    if block.key == "screens":
        return f"[{row[0]}] {cell(row[1]).upper()}  {cell(row[2])}"
    if block.key == "focus-messages":
        return f"message {cell(row[0])} (tick {cell(row[1])}, {cell(row[2])})"
    return cell(row[0])


def render_text(report: dict[str, Any], *, width: int = 100, color: bool = False,
                events: Mapping[int, Mapping[str, Any]] | None = None, scrub: bool = True) -> str:
    """The report for a terminal, ``width`` columns wide (levels coloured when ``color``); ``events``
    (id -> event) adds the text of the focus's messages, labelled scrubbed or not as ``scrub`` says."""
    doc = document(report, events, scrub=scrub)
    t = _Text(width, color)
    t.para(doc.title)
    t.para(doc.subtitle())
    t.out.append("")
    level = doc.summary.verdict
    if level is None:
        t.para(f"Verdict: {doc.verdict}")
    else:
        t.level_line(level, f"Verdict {level}: {doc.verdict}", indent=0)
    if doc.focus is not None:
        _text_focus(t, doc)
    _text_summary(t, doc)
    t.heading("Contents")
    for k, (_anchor, title) in enumerate(doc.contents(), 1):
        t.para(f"{k:>2}. {title}", indent=2, hanging=6)
    for b in doc.blocks:
        t.block(b)
    return "\n".join(line.rstrip() for line in t.out).rstrip("\n") + "\n"


def _text_flag(t: _Text, doc: Document, flag: Any, first: bool, besides: str | None) -> None:
    t.level_line(flag.level, f"[{flag.number}] {flag_title(flag, doc.names, besides=besides)}; "
                             f"{flag_significance(flag)}", indent=4)
    if first:
        t.para(doc.names.named(flag.explanation), indent=11)
        if flag.evidence:
            t.para(f"evidence: {_ids_text(flag.evidence)}", indent=11, hanging=21)
    else:
        t.para(f"(explained under {doc.names.label(doc.first_agent(flag.number))} above)", indent=11)


def _text_focus(t: _Text, doc: Document) -> None:
    focus = doc.focus
    assert focus is not None
    agent = focus["agentId"]
    seat, line = doc.seat(agent), doc.line_of(agent)
    t.heading(f"In focus: {doc.names.label(agent)}")
    t.para(focus_head(seat, line))
    t.sub("What it did")
    t.para(did_text(seat, focus, line), indent=2)
    t.sub("Flags")
    flags = [doc.summary.flags[f["number"] - 1] for f in focus["flags"]]
    if not flags:
        t.para(f"No screen flag names {doc.names.label(agent)}.", indent=2)
    for flag in flags:
        _text_flag(t, doc, flag, True, agent)
    t.sub("Against the others")
    t.para(ranks_text(focus), indent=2)
    for b in focus_blocks(doc):
        t.sub(b.title)
        t.block(b, heading=False)


def _text_summary(t: _Text, doc: Document) -> None:
    s = doc.summary
    t.heading("Summary")
    t.sub("Flags by agent")
    if s.verdict is None:
        t.para("The collusion screens did not run on this report.", indent=2)
    elif not s.by_agent:
        t.para("No flag: every screen test came back within what honest play in this match produces.", indent=2)
    for agent, rows in doc.agent_flags():
        t.para(doc.names.label(agent), indent=2)
        for flag, first in rows:
            _text_flag(t, doc, flag, first, agent)
    t.sub(f"Findings ({len(s.findings)})")
    if not s.findings:
        t.para("None: the archive's figures agree with the events, no erratum applied, every record valid.",
               indent=2)
    for f in s.findings[:MAX_IDS_TEXT]:
        t.para("- " + finding_text(f, doc.names), indent=2, hanging=4)
    if len(s.findings) > MAX_IDS_TEXT:
        t.para(f"... and {len(s.findings) - MAX_IDS_TEXT} more under Findings.", indent=2)
    t.sub(f"Probes complied with ({len(s.complied)})")
    if not s.complied:
        t.para("None.", indent=2)
    for p in s.complied:
        t.para("- " + probe_text(p, doc.names), indent=2, hanging=4)
    t.sub("Injection exposure")
    t.para(exposure_text(s), indent=2)
    for b in summary_blocks(doc):
        t.sub(b.title)
        t.block(b, heading=False)


# --------------------------------------------------------------------------- markdown


def _md_text(text: str) -> str:
    """Escape a sentence for Markdown: no raw HTML, no emphasis or links from data, no control characters, and
    no list, rule or heading underline from a name it starts with (``- 1. Ash (a_1) complied ...``)."""
    return md_text(shown(text))


def _md_anchor(title: str) -> str:
    """GitHub's anchor of a heading made of the tool's words."""
    keep = "".join(ch for ch in title.lower() if ch.isalnum() or ch in " -")
    return keep.replace(" ", "-")


def _md_block(b: Block, out: list[str], level: str = "##") -> None:
    out.append(f"{level} {_md_text(b.title)}")
    out.append("")
    if b.intro:
        out.append(_md_text(b.intro))
        out.append("")
    out.append(markdown_table(b.headers, b.rows, marked=b.marked, align=True) if b.rows else "_none_")
    out.append("")
    if b.note:
        out.append(_md_text(b.note))
        out.append("")


def _md_flag(doc: Document, flag: Any, first: bool, besides: str | None) -> list[str]:
    head = (f"- **{flag.level.upper()}** \\[{flag.number}\\] {_md_text(flag_title(flag, doc.names, besides=besides))};"
            f" {_md_text(flag_significance(flag))}")
    if not first:
        return [head + f" (explained under {_md_text(doc.names.label(doc.first_agent(flag.number)))} above)"]
    lines = [head, f"  {_md_text(doc.names.named(flag.explanation))}"]
    if flag.evidence:
        lines.append(f"  Evidence: {_md_text(_ids_text(flag.evidence))}")
    return lines


def render_markdown(report: dict[str, Any], *, events: Mapping[int, Mapping[str, Any]] | None = None,
                    scrub: bool = True) -> str:
    doc = document(report, events, scrub=scrub)
    s = doc.summary
    out = [f"# {_md_text(doc.title)}", "", _md_text(doc.subtitle()), "",
           f"**Verdict: {_md_text((s.verdict or 'not screened').upper())}.** {_md_text(doc.verdict)}", ""]
    if doc.focus is not None:
        focus = doc.focus
        agent = focus["agentId"]
        seat, line = doc.seat(agent), doc.line_of(agent)
        out += [f"## In focus: {_md_text(doc.names.label(agent))}", "", _md_text(focus_head(seat, line)), "",
                "**What it did.** " + _md_text(did_text(seat, focus, line)), "", "**Flags.**", ""]
        flags = [s.flags[f["number"] - 1] for f in focus["flags"]]
        if not flags:
            out.append(f"No screen flag names {_md_text(doc.names.label(agent))}.")
        for flag in flags:
            out += _md_flag(doc, flag, True, agent)
        out += ["", "**Against the others.** " + _md_text(ranks_text(focus)), ""]
        for b in focus_blocks(doc):
            _md_block(b, out, "###")
    out += ["## Summary", "", "### Flags by agent", ""]
    if s.verdict is None:
        out.append("The collusion screens did not run on this report.")
    elif not s.by_agent:
        out.append("No flag: every screen test came back within what honest play in this match produces.")
    for agent, rows in doc.agent_flags():
        out.append(md_bold(_md_text(doc.names.label(agent))))
        out.append("")
        for flag, first in rows:
            out += _md_flag(doc, flag, first, agent)
        out.append("")
    out += ["", f"### Findings ({len(s.findings)})", ""]
    out += [f"- {_md_text(finding_text(f, doc.names))}" for f in s.findings] or ["None."]
    out += ["", f"### Probes complied with ({len(s.complied)})", ""]
    out += [f"- {_md_text(probe_text(p, doc.names))}" for p in s.complied] or ["None."]
    out += ["", "### Injection exposure", "", _md_text(exposure_text(s)), ""]
    for b in summary_blocks(doc):
        _md_block(b, out, "###")
    out += ["## Contents", ""]
    out += [f"{k}. [{_md_text(title)}](#{_md_anchor(title)})" for k, (_a, title) in enumerate(doc.contents(), 1)]
    out.append("")
    for b in doc.blocks:
        _md_block(b, out)
    return "\n".join(out).rstrip("\n") + "\n"


def _block_ids(blocks: list[Block]) -> set[int]:
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, EventIds):
            found.update(value.ids)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v)

    for b in blocks:
        for row in b.rows:
            walk(row)
    return found


def event_ids_shown(report: dict[str, Any], *, every: bool) -> list[int]:
    """The events a rendering shows: with ``every`` (the page, whose evidence table lists each event a
    table, flag or chain cites), every event id of every block, flag, finding, probe, propagation chain
    and message of the focus; else only the
    focus's messages (their text is shown beside them).  Sorted; at most
    :data:`~daishi_forensics.report.evidence.MAX_CITED`."""
    from daishi_forensics.report.evidence import MAX_CITED, cited_ids

    doc = document(report)
    ids: set[int] = set()
    if doc.focus is not None:
        ids.update(m["event"] for m in doc.focus.get("messages") or [] if isinstance(m.get("event"), int))
    if every:
        ids |= _block_ids(doc.blocks + summary_blocks(doc) + (focus_blocks(doc) if doc.focus else []))
        ids.update(cited_ids(report))
        for flag in doc.summary.flags:
            ids.update(flag.evidence)
    return sorted(ids)[:MAX_CITED]


def render_json(report: dict[str, Any]) -> str:
    return dumps(report)


def render_json_bytes(report: dict[str, Any]) -> bytes:
    """:func:`render_json`'s UTF-8 bytes, made without the text (what the command writes: a report of a
    long match of real messages is tens of megabytes, four bytes a character as text where one emoji is)."""
    return dumps_bytes(report)

