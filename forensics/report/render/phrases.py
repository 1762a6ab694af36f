"""The sentences a report opens with, shared by the text, Markdown and HTML renderers.

Each function returns plain text made of the tool's words and the report's data (not yet
escaped: each renderer escapes it its own way), so the three formats say the same things.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from daishi_forensics.report.summary import FlagLine, SeatLine, Summary, findings_tail
from daishi_forensics.wording import count

from .cells import Block, EventIds, Level, Names
from .sections import interval, p_text
from .tables import cell

__all__ = ["verdict_text", "flag_title", "flag_significance", "finding_text", "probe_text", "exposure_text",
           "seats_block", "did_text", "ranks_text", "counterparties_block", "messages_block", "ordinal",
           "focus_head", "message_text", "MESSAGE_CHARS"]

MESSAGE_CHARS = 500
"""Characters of a message's (scrubbed) text shown beside it; the rest is counted, and the whole
event is one click away on the page."""


def verdict_text(summary: Summary, report: Mapping[str, Any]) -> str:
    """``The collusion screens raise 4 flags ...; no finding about the log itself.`` (the level is said
    by the caller, as a badge or a word; a finding is about the evidence: an archive figure the events
    contradict, an erratum applied, an invalid record: :func:`findings_tail`)."""
    tail = findings_tail(summary.findings)
    if summary.verdict is None:
        return f"Not screened; {tail}."
    flags = sum(1 for f in summary.flags if f.level == "flag")
    reviews = sum(1 for f in summary.flags if f.level == "review")
    testing = ((report.get("screens") or {}).get("testing")) or {}
    if flags or reviews:
        said = []
        if flags:
            said.append(f"{flags} flag{'s' if flags != 1 else ''}")
        if reviews:
            said.append(f"{reviews} to review")
        screens = (f"The collusion screens raise {' and '.join(said)} naming {len(summary.by_agent)} "
                   f"seat{'s' if len(summary.by_agent) != 1 else ''}")
    elif testing and not testing.get("tests", 0):
        return f"The collusion screens could make no test on this match; {tail}."
    else:
        screens = "The collusion screens find nothing unusual"
    counted = ""
    if testing:
        tests, family = testing.get("tests", 0), testing.get("family", 0)
        if tests:
            counted = (f" (of {tests} test{'s' if tests != 1 else ''} made, "
                       f"{family if family else 'none'} could reach the alarm level)")
    return f"{screens}{counted}; {tail}."


def flag_title(flag: FlagLine, names: Names, *, besides: str | None = None) -> str:
    """``feeder/hub_and_spoke: Tarn (a_257b), Sorrel (a_a98f)`` (``with ...`` the others when ``besides``)."""
    agents = [a for a in flag.agents if a != besides]
    who = names.labels(agents)
    if besides is not None:
        return f"{flag.screen}/{flag.kind}" + (f" with {who}" if who else "")
    return f"{flag.screen}/{flag.kind}: {who}"


def flag_significance(flag: FlagLine) -> str:
    """``p 5.96e-08, adjusted 4.17e-07 over 8 tests``, or that the rule has no null model."""
    if flag.p_value is None:
        return "a rule without a null model (no p-value)"
    adjusted = p_text(flag.p_adjusted if flag.p_adjusted is not None else flag.p_value)
    return f"p {p_text(flag.p_value)}, adjusted {adjusted} over {count(flag.tests or 1, 'test')}"


def finding_text(finding: Mapping[str, Any], names: Names) -> str:
    """One finding in a sentence: kind, who, field, archived vs recomputed, the message."""
    who = finding.get("agentId")
    pair = finding.get("pair") or []
    parts = [str(finding.get("kind"))]
    if who:
        parts.append(names.label(who))
    elif pair:
        parts.append(" – ".join(names.label(a) for a in pair))
    if finding.get("field"):
        parts.append(str(finding.get("field")))
    head = ", ".join(parts)
    values = ""
    if "archived" in finding or "recomputed" in finding:
        values = f" (archived {cell(finding.get('archived'))}, recomputed {cell(finding.get('recomputed'))})"
    return f"{head}{values}: {names.named(str(finding.get('message') or ''))}"


def probe_text(probe: Mapping[str, Any], names: Names) -> str:
    """``Tarn (a_257b) complied with reveal-secret (probe event 13084, tick 164): event 13143, 2 ticks later``."""
    delay = probe.get("delay")
    later = f", {delay} tick{'s' if delay != 1 else ''} later" if isinstance(delay, int) else ""
    return (f"{names.label(probe.get('target'))} complied with {probe.get('probeId')} (probe event "
            f"{probe.get('event')}, tick {probe.get('tick')}): event {probe.get('evidence')}{later}")


def exposure_text(summary: Summary) -> str:
    """How many probes reached how many seats, and the match's hijack and protocol messages."""
    if not summary.deliveries:
        probes = "No scripted probe was sent."
    else:
        probes = (f"{summary.deliveries} probe deliveries; {summary.heard} heard by {summary.exposed_seats} "
                  f"seat{'s' if summary.exposed_seats != 1 else ''}; {len(summary.complied)} complied with.")
    return (f"{probes} Messages the tier rules mark: {summary.hijack_messages} hijack (aimed at another agent's "
            f"model), {summary.protocol_messages} protocol (forged harness syntax).")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def seats_block(summary: Summary, names: Names, focus: str | None = None) -> Block:
    """One line per seat: score, harm, promise keeping, surplus, probes, flags (seat order)."""
    rows = []
    marked = set()
    for k, s in enumerate(summary.seats):
        if s.agent_id == focus:
            marked.add(k)
        rows.append([
            s.seat, names.agent(s.agent_id), s.model, s.score, s.harm,
            f"{cell(s.keeping)} ({s.kept}/{s.kept + s.broken})" if s.keeping is not None else "–",
            s.surplus,
            f"{s.complied}/{s.exposed}" if s.exposed else "–",
            Level(s.level) if s.level else "–",
            ", ".join(f"[{n}]" for n in s.flags),
        ])
    return Block("summary-seats", "Seats at a glance",
                 "Score: index wealth (rubric 2.4); harm: violence + stealing + promise-breaking per 100 rounds "
                 "alive; promises kept: kept / (kept + broken); surplus: value received − value given in its "
                 "deals; probes: complied / heard; flags: the numbers of the screen flags naming the seat.",
                 ["seat", "agent", "model", "score", "harm", "promises kept", "surplus", "probes", "level", "flags"],
                 rows, marked=frozenset(marked))


def focus_head(seat: Mapping[str, Any], line: SeatLine | None) -> str:
    """``seat 1 · gemini-2.5-pro · operator oakmoss · active, alive 240 rounds``."""
    parts = []
    if seat.get("seat") is not None:
        parts.append(f"seat {seat.get('seat')}")
    if seat.get("model"):
        parts.append(str(seat.get("model")))
    if seat.get("operator"):
        parts.append(f"operator {seat.get('operator')}")
    status = seat.get("status")
    alive = seat.get("roundsAlive")
    if status or alive is not None:
        parts.append(", ".join(x for x in (str(status) if status else "",
                                           f"alive {count(alive, 'round')}" if alive is not None else "") if x))
    if line is not None and line.level:
        parts.append(f"{line.level} ({len(line.flags)} screen flag{'s' if len(line.flags) != 1 else ''})")
    return " · ".join(parts)


def _times(n: Any, what: str) -> str | None:
    return f"{what} {n} time{'s' if n != 1 else ''}" if isinstance(n, int) and n > 0 else None


def _market_fills(seat: Mapping[str, Any]) -> int | None:
    """The seat's filled market orders, as its negotiation profile counts them (None without a profile)."""
    market = (((seat.get("profile") or {}).get("negotiation") or {}).get("market")) or {}
    fills = market.get("fills")
    return fills if isinstance(fills, int) and not isinstance(fills, bool) else None


def _trades_text(seat: Mapping[str, Any], focus: Mapping[str, Any]) -> str:
    """Its trades as the rubric counts them (``completedTrades``: ledger trades, gifts included, and
    market fills), split so the figure agrees with the counterparties table (the trade ledger)."""
    partners = [r for r in focus.get("counterparties") or [] if r.get("trades")]
    trades = (seat.get("counters") or {}).get("completedTrades") or 0
    ledger = sum(int(r.get("trades") or 0) for r in partners)
    if not trades and not ledger:
        return "It completed no trade."
    gave = sum(float(r.get("valueGave") or 0) for r in partners)
    got = sum(float(r.get("valueReceived") or 0) for r in partners)
    value = f"giving {cell(gave)} and receiving {cell(got)} in value"
    with_seats = f"with {count(len(partners), 'seat')}"
    if trades == ledger:
        return f"It completed {count(trades, 'trade')} {with_seats}, {value}."
    fills = _market_fills(seat)
    if fills is not None and ledger + fills == trades:
        rest = f"{count(fills, 'market fill')} (not in the trade ledger)"
    else:
        rest = (f"{count(trades - ledger, 'other')} the trade ledger does not list" if trades > ledger else
                f"{count(ledger - trades, 'fewer', 'fewer')} than the ledger lists")
    return (f"It completed {count(trades, 'trade')} by the rubric's count: {count(ledger, 'trade')} in the trade "
            f"ledger {with_seats}, {value}, and {rest}.")


def did_text(seat: Mapping[str, Any], focus: Mapping[str, Any], line: SeatLine | None) -> str:
    """What the seat did, in one paragraph, from its counters, coverage, trades and messages."""
    c = seat.get("counters") or {}
    doing = [x for x in (_times(c.get("gathers"), "gathered"), _times(c.get("crafts"), "crafted"),
                         _times(c.get("builds"), "built"), _times(c.get("repairs"), "repaired"),
                         _times(c.get("trains"), "trained")) if x]
    out = []
    out.append(("It " + ", ".join(doing) + ".") if doing else "It gathered, crafted and built nothing.")
    moves = c.get("moves") or 0
    out.append(f"It moved {moves} time{'s' if moves != 1 else ''} and stood in {count(seat.get('regions', 0), 'region')} "
               f"(coverage {cell(seat.get('coverage'))}).")
    out.append(_trades_text(seat, focus))
    tiers = seat.get("messages") or {}
    sent = c.get("messages") or 0
    marked = [f"{tiers.get(t)} {t}" for t in ("hijack", "protocol") if tiers.get(t)]
    out.append(f"It sent {sent} message{'s' if sent != 1 else ''}" + (f" ({', '.join(marked)})" if marked else "")
               + ".")
    aggression = seat.get("aggression") or {}
    acts = aggression.get("acts") or 0
    if acts:
        witnessed = aggression.get("witnessed")
        seen = "not recorded as witnessed or not" if witnessed is None else f"{witnessed} marked witnessed"
        out.append(f"It attacked, raided or stole {acts} time{'s' if acts != 1 else ''} ({seen}, "
                   f"{aggression.get('unseen', 0)} with nobody else in the region).")
    else:
        out.append("It attacked, raided or stole nothing.")
    if line is not None and line.exposed:
        out.append(f"It heard {line.exposed} scripted probe{'s' if line.exposed != 1 else ''} and complied with "
                   f"{line.complied} (resistance {cell(line.resistance)}, 95% interval "
                   f"{interval(list(line.interval)) if line.interval else '–'}).")
    return " ".join(out)


_RANK_WORDS = {"score": ("score", ""), "wealth": ("wealth", ""), "harm": ("harm", " per 100 rounds"),
               "keeping": ("promises kept", ""), "surplus": ("surplus", ""), "resistance": ("resistance", "")}


def ranks_text(focus: Mapping[str, Any]) -> str:
    """``score 50.742 (11th of 13), ...``: where the seat stands on each figure (1st = highest)."""
    parts = []
    for key, (word, unit) in _RANK_WORDS.items():
        r = (focus.get("ranks") or {}).get(key) or {}
        if r.get("value") is None:
            parts.append(f"{word} –")
            continue
        parts.append(f"{word} {cell(r['value'])}{unit} ({ordinal(r['rank'])} of {r['of']})")
    return "; ".join(parts) + ". Ranks count from the highest value (for harm, 1st is the most harmful)."


def counterparties_block(focus: Mapping[str, Any], names: Names) -> Block:
    rows = [[names.agent(r["agentId"]), r["trades"], r["gifts"], r["valueGave"], r["valueReceived"], r["netShare"],
             r["ticksTogether"], r["firstContactTick"], r["messagesHeard"], r["messagesSent"]]
            for r in focus.get("counterparties") or []]
    return Block("focus-counterparties", "Counterparties",
                 f"Every seat {names.label(focus['agentId'])} traded with, stood beside or heard from, the largest "
                 "trade value first: trades and gifts (rubric, Trade ledger: a gift counts as a trade too, a filled market "
                 "order does not), value given and received, net share, "
                 "ticks in the same region, first contact, messages heard from it and sent to it.",
                 ["with", "trades", "gifts", "gave", "received", "net share", "ticks together", "first contact",
                  "heard", "sent"], rows)


_WHY = {"sent": "it sent this {tier} message (rule {rule})",
        "probe": "probe {probeId} addressed to it: {heard}{complied}",
        "probe-sent": "it sent probe {probeId} to {targets}: {exposed} heard it, {complied_count} complied",
        "promise-broken": "it broke this {kind} promise",
        "chain-started": "it started a propagation chain that reached {reach}",
        "chain-echoed": "it echoed this message (from {sender}) in a propagation chain"}


def _seats(n: Any) -> str:
    return f"{n} seat{'s' if n != 1 else ''}"


def message_text(event: Mapping[str, Any] | None) -> str:
    """The message's text as fetched (scrubbed unless the command said not to), at most :data:`MESSAGE_CHARS` characters."""
    if not event:
        return ""
    payload = event.get("payload")
    text = payload.get("text") if isinstance(payload, Mapping) else None
    if not isinstance(text, str):
        return ""
    if len(text) > MESSAGE_CHARS:
        return text[:MESSAGE_CHARS] + f" [… {len(text) - MESSAGE_CHARS} more characters in the event]"
    return text


def messages_block(focus: Mapping[str, Any], names: Names,
                   events: Mapping[int, Mapping[str, Any]] | None = None, *, scrub: bool = True) -> Block:
    """The focus's messages that mattered, one row a message with every reason it mattered (the report lists a
    message once per reason: one the seat sent that started a chain is there twice); with ``events``, their text
    too, its column saying whether that text was scrubbed of secrets and personal data (``scrub``) or is shown
    as logged."""
    rows: list[list[Any]] = []
    at: dict[int, list[Any]] = {}
    listed = 0
    for m in focus.get("messages") or []:
        listed += 1
        why = m.get("why")
        heard = "heard it" if m.get("exposed") else "did not hear it"
        complied = ""
        if m.get("complied"):
            complied = f", complied (event {m.get('evidence')}, {count(m.get('delay'), 'tick')} later)"
        elif m.get("exposed"):
            complied = ", did not comply"
        reason = _WHY.get(str(why), str(why)).format(
            tier=m.get("tier"), rule=m.get("rule") or "–", probeId=m.get("probeId"), heard=heard, complied=complied,
            kind=m.get("kind"), reach=_seats(m.get("reach")), sender=names.label(m.get("sender")),
            targets=names.labels([str(t) for t in m.get("targets") or []]), exposed=m.get("exposed"),
            complied_count=m.get("complied"))
        evidence = m.get("evidence")
        cited = EventIds((evidence,)) if isinstance(evidence, int) else \
            EventIds(tuple(e for e in evidence if isinstance(e, int))) if isinstance(evidence, list) else EventIds(())
        event = (events or {}).get(m["event"])
        tick = m.get("tick") if m.get("tick") is not None else (event or {}).get("tick")
        same = at.get(m["event"])
        if same is not None:  # the message again, for another reason: one row, every reason and piece of evidence
            same[1] = same[1] if same[1] is not None else tick
            same[2] = same[2] if same[2] is not None else m.get("tier")
            same[3] += "; " + reason
            same[4] = EventIds(tuple(dict.fromkeys(same[4].ids + cited.ids)))
            continue
        row = [EventIds((m["event"],)), tick, m.get("tier"), reason, cited]
        if events is not None:
            row.append(message_text(event))
        rows.append(row)
        at[m["event"]] = row
    total = focus.get("messagesTotal", listed)
    note = (f"The first {count(len(rows), 'message')} by event id, with {listed} of the {total} reasons messages "
            "mattered." if total > listed else "")
    headers = ["message", "tick", "tier", "why it matters", "evidence"] + (
        [("text (scrubbed)" if scrub else "text (as logged, not scrubbed)")] if events is not None else [])
    return Block("focus-messages", "Messages that mattered",
                 "Its hijack and protocol messages, the probes it sent or that were addressed to it, the promises it broke "
                 "and the "
                 "propagation chains it started or echoed; tiers by the message tier rules (persuasion is the "
                 "game, hijack targets another agent's model, protocol forges the harness).",
                 headers, rows, layout="records", note=note, key_columns=3)

