"""The behavior report as one self-contained HTML page.

The page says what a reader wants first: the verdict, then (with ``--agent``) the seat in
focus -- what it did, its flags and why, where it stands among the others, its wealth
against theirs -- then the summary (flags per agent, findings, probes complied with,
injection exposure, one line per seat), the contents, the sections with their plots, and
last the long tables (seat contact, trade ledger, evidence), each collapsed in a
``<details>`` a reader opens (no script).  Every event id in every table links to its row of
the evidence table, where the event is shown as formatted JSON (message text scrubbed of
secrets unless the command said otherwise, and the page says which).

No network at view time: styles inline, plots inline SVG drawn with matplotlib
(:mod:`.plots`), no external fonts, scripts or images.  Message text and every other string
from the log is hostile (agents send injections on purpose), so:

* every string goes through :func:`html.escape` (quotes included) before it reaches the page,
  including attribute values; its control characters are written out
  (:func:`daishi_forensics.textsafe.shown_lines`: a bidirectional override cannot reorder what
  the reader sees, an ESC cannot reach a terminal the page is printed on) and its newlines
  become ``&#10;`` (the same newline on the page, but no line of the file starts with the data:
  a page printed in a CI log forges no annotation);
* no string from the log is ever placed in a URL, a ``<script>``, a ``style`` or an
  event-handler attribute (the only links are ``#ev-<integer>`` and ``#seat-<integer>``);
* a Content-Security-Policy ``<meta>`` allows no script at all, no network, and images only
  from ``data:``, as a second line of defence.

The page is deterministic: same report, same bytes.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from daishi_forensics.jsonio import shown
from daishi_forensics.textsafe import shown_lines
from daishi_forensics.wording import count

from .behavior import Document, document, focus_blocks, summary_blocks
from .cells import MAX_IDS_TEXT, Agent, Block, EventIds, Level, is_number
from .phrases import (did_text, exposure_text, finding_text, flag_significance, flag_title, focus_head, ordinal,
                      probe_text, ranks_text)
from .tables import cell

__all__ = ["render_html", "CSP", "esc", "esc_cell", "table", "cell_html", "level_html", "seat_html", "SeatLabels"]


CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; base-uri 'none'; form-action 'none'"

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.2rem auto;max-width:1240px;color:#1d2330;padding:0 1rem;overflow-wrap:break-word}
h1{font-size:1.45rem;margin:.2rem 0}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d8dce6;padding-bottom:.25rem}
h3{font-size:1rem;margin:1rem 0 .3rem}
p{margin:.3rem 0}p.intro,p.sub,p.note{color:#4a5163;max-width:72rem}p.sub{margin-top:0}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}
.wide{overflow-x:auto;max-width:100%}
th,td{border:1px solid #d8dce6;padding:.2rem .45rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
th{background:#f2f4f8}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap;overflow-wrap:normal}
.brk{overflow-wrap:anywhere}.nw{white-space:nowrap}
tr.marked td{background:#eef4ff;font-weight:600}
tr:target td{background:#fff3bf}
.lv{display:inline-block;white-space:nowrap;padding:0 .45rem;border-radius:.7rem;font-weight:600;font-size:12px}
.lv.flag{background:#fde2e1;color:#a4161a}.lv.review{background:#fff3bf;color:#7a5c00}.lv.clear{background:#e3f6e8;color:#1b6e35}
.verdict{font-size:15px;margin:.6rem 0;padding:.5rem .7rem;border-radius:.4rem;background:#f6f7fa}
.verdict .lv{font-size:14px;margin-right:.4rem}
.focus{border:2px solid #3d6bd6;border-radius:.5rem;padding:.3rem 1rem .8rem;margin:.8rem 0}
.focus h2{border:none;margin-top:.4rem}
.cols{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1.5rem}
ul.flags{list-style:none;padding-left:0;margin:.2rem 0}ul.flags li{margin:.35rem 0}
ul.flags .why{color:#333a48;margin:.1rem 0 0 1.2rem}ul.flags .ev{margin-left:1.2rem;font-size:12px;color:#4a5163}
.agent-flags{margin:.4rem 0 .8rem}
nav ol{columns:2;max-width:50rem}
figure{margin:.6rem 0}figcaption{color:#4a5163;font-size:12px;max-width:60rem}
svg.plot{max-width:100%;height:auto}
details{margin:.4rem 0}details>summary{cursor:pointer;color:#2d4fb0}
details.more{display:inline}details.more>summary{display:inline}
pre.event{margin:0;font:12px/1.35 ui-monospace,monospace;white-space:pre-wrap;word-break:break-word;max-width:54rem}
.msg{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-word;max-width:40rem}
@media (max-width:760px){.cols{grid-template-columns:minmax(0,1fr)}nav ol{columns:1}}
@media print{details::details-content{content-visibility:visible}details>summary{list-style:none}}
"""


def esc(value: Any) -> str:
    """Escape anything for HTML text or a quoted attribute."""
    return _escaped(_shown(value))


def _shown(value: Any) -> str:
    """``value`` as the page shows it, before escaping: a cell's text, control characters written out."""
    return cell(value, ids_limit=None) if not isinstance(value, str) else shown_lines(value)


def _escaped(text: str) -> str:
    return html.escape(text, quote=True).replace("\n", "&#10;")


LONG_WORD = 24
"""A run of at least this many characters without a space, in a table cell, may break anywhere; a shorter one
is never broken (:func:`esc_cell`)."""

_RUN = re.compile(r"\S+")

_BREAK_AFTER = re.compile("[-\u058a\u05be\u1400\u1806\u2010\u2012-\u2015\u2e17\u2e1a\u2e3a\u2e3b\u2e40\u301c"
                          "\u3030\u30a0\ufe31\ufe32\ufe58\ufe63\uff0d/|?!}\u2026]")
"""A character after which a browser may break a word that has no space: a hyphen or a dash (Unicode's dash
punctuation, but the non-breaking hyphen), a slash, a bar, ``?``, ``!``, ``}``, an ellipsis."""

_WIDE = re.compile("[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff60\U0001f000-\U0001faff]")
"""A wide character of a CJK script, or an emoji: a browser may break a line between it and its neighbour."""


def _breakable(run: str) -> bool:
    """Whether a browser may break ``run`` (a word without a space) inside it: after one of :data:`_BREAK_AFTER`
    that is not its last character, or beside a wide character (:data:`_WIDE`).

    >>> [_breakable(w) for w in ("gpt-5-mini", "(1/3)", "–", "ok-", "\\\\x20Ash", "40%", "שרה", "张伟")]
    [True, True, False, False, False, False, False, True]
    """
    return len(run) > 1 and (_BREAK_AFTER.search(run, 0, len(run) - 1) is not None or _WIDE.search(run) is not None)


def esc_cell(value: Any, seats: SeatLabels | None = None) -> str:
    """:func:`esc` for a table cell: a run of :data:`LONG_WORD` characters or more without a space (a long
    name, model or message word) is marked to break anywhere, so it wraps inside its cell, while every other
    word keeps its width: a cell's words, and a column's header, are never cut into letters to make room
    for it (``overflow-wrap: anywhere`` on the whole cell made the table give every column the width of one
    letter, and spread "evidence" over two lines as "eviden ce").  A shorter run is never broken: one a browser
    could break (:func:`_breakable`: at a hyphen, a dash, a slash...) is kept on one line,
    so an identifier (a model ``gpt-5-mini-2025-08-07``, a seat's id, a match's id, a probe's name) is read
    whole, as a word is.  With ``seats``, every seat the text names has its name in ``<bdi>``
    (:meth:`SeatLabels.html`).

    >>> esc_cell("tier")
    'tier'
    >>> esc_cell("ok " + "W" * 24)
    'ok <span class="brk">WWWWWWWWWWWWWWWWWWWWWWWW</span>'
    >>> esc_cell("model gpt-5-mini-2025-08-07 (1/3)")
    'model <span class="nw">gpt-5-mini-2025-08-07</span> <span class="nw">(1/3)</span>'
    """
    text = _shown(value)
    if seats is not None:
        return seats.html(text, _runs_escaped)
    return _runs_escaped(text)


def _runs_escaped(text: str) -> str:
    """``text`` (as shown) escaped, each run of :data:`LONG_WORD` characters or more marked to break anywhere,
    each shorter one a browser could break marked to stay whole."""
    out, at = [], 0
    for m in _RUN.finditer(text):  # measured on the text as shown, escaped piece by piece
        run = m.group()
        if len(run) >= LONG_WORD:
            mark = "brk"
        elif _breakable(run):
            mark = "nw"
        else:
            continue
        out += [_escaped(text[at:m.start()]), f'<span class="{mark}">{_escaped(run)}</span>']
        at = m.end()
    return "".join(out) + _escaped(text[at:])


def level_html(level: str | None) -> str:
    """A verdict level as a coloured pill (``–`` when there is none)."""
    if not level:
        return "–"
    cls = level if level in ("flag", "review", "clear") else "other"
    return f'<span class="lv {cls}">{esc(level)}</span>'


class SeatLabels:
    """The seats a page names in its sentences and its cells of text (a flag's explanation, "Only the pairs with
    Ash (a_1)", a pair's reputation points "Ash (a_1) 1, Nyx (a_2) 0"): each found where the text writes it as
    a seat is written, ``Name (id)`` (:meth:`Agent.shown_label`, the text as the page shows it), so that its
    name can be put in ``<bdi>`` as a seat's cell puts it (:func:`seat_html`).  A seat without a name (or named
    its id) is its id, written as it is.

    >>> seats = SeatLabels({"7": "שרה", "a_2": "<b>Nyx</b>", "a_3": None})
    >>> seats.html("with שרה (7), <b>Nyx</b> (a_2) and a_3: שרה (7)x", html.escape)
    'with <bdi>שרה</bdi> (7), <bdi>&lt;b&gt;Nyx&lt;/b&gt;</bdi> (a_2) and a_3: שרה (7)x'
    """

    def __init__(self, names: Mapping[str, str | None]) -> None:
        self.tails: dict[str, int] = {}
        """Each seat's label as shown -> the length of its end, `` (id)``, after the name."""
        for agent, name in names.items():
            label = Agent(agent, name).shown_label()
            if label != agent:
                shown_label = shown_lines(label)
                self.tails[shown_label] = len(shown_label) - len(shown_lines(label[:-len(agent) - 3]))
        labels = sorted(self.tails, key=lambda k: (-len(k), k))  # the longest first: a name holding another's label
        self.pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, labels)) + r")(?!\w)") if labels else None

    def html(self, text: str, escaped: Callable[[str], str]) -> str:
        """``text`` (as the page shows it) written by ``escaped``, piece by piece, every seat it names with its
        name in ``<bdi>``: the name escaped first, then wrapped, so a name's own text never becomes markup."""
        if self.pattern is None or " (" not in text:
            return escaped(text)
        out, at = [], 0
        for m in self.pattern.finditer(text):
            name_end = m.end() - self.tails[m.group()]
            out += [escaped(text[at:m.start()]), f"<bdi>{escaped(text[m.start():name_end])}</bdi>",
                    escaped(text[name_end:m.end()])]
            at = m.end()
        return "".join(out) + escaped(text[at:])


def seat_html(value: Agent) -> str:
    """A seat as both pages write it, ``Name (id)`` (:meth:`Agent.shown_label`), its name in ``<bdi>``: a name in
    a right-to-left script is laid out apart from the text around it, so a seat named "שרה" of id ``7`` reads
    "שרה (7)", not "(7) שרה" (the browser took the id into the name's right-to-left run).

    >>> seat_html(Agent("7", "שרה")), seat_html(Agent("a_1"))
    ('<bdi>שרה</bdi> (7)', 'a_1')
    """
    label = value.shown_label()
    if label == value.agent_id:
        return esc_cell(label)
    return f"<bdi>{esc_cell(label[:-len(value.agent_id) - 3])}</bdi>{esc_cell(label[-len(value.agent_id) - 3:])}"


def cell_html(value: Any) -> str:
    """A table cell's contents on a page that links nowhere (the comparison): a seat as ``Name (id)``, a level
    as its pill, anything else :func:`esc_cell`."""
    if isinstance(value, Level):
        return level_html(value.level)
    if isinstance(value, Agent):
        return seat_html(value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Agent) for v in value):
        return ", ".join(cell_html(v) for v in value)
    return esc_cell(value)


def table(block: Block, value: Callable[[Any], str] = cell_html, row_ids: Sequence[str] | None = None) -> str:
    """A block's table, as every page writes it: in a box that scrolls on its own, a number (:func:`is_number`)
    in a numeric cell (right-aligned, never wrapped), every other cell written by ``value``; ``row_ids`` give
    the rows their anchors, the block's marked rows (the seat in focus) are set apart."""
    out = ['<div class="wide"><table><thead><tr>', *(f"<th>{esc_cell(h)}</th>" for h in block.headers),
           "</tr></thead><tbody>"]
    for k, row in enumerate(block.rows):
        attrs = f' id="{row_ids[k]}"' if row_ids else ""
        if k in block.marked:
            attrs += ' class="marked"'
        out.append(f"<tr{attrs}>")
        for v in row:
            out.append(f'<td class="n">{esc(v)}</td>' if is_number(v) else f"<td>{value(v)}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


class _Page:
    """What the page's parts share: the events shown (links go only to rows that exist) and seat anchors."""

    def __init__(self, doc: Document, events: Mapping[int, Mapping[str, Any]]) -> None:
        self.doc = doc
        self.events = events
        self.seat_index = {s["agentId"]: k + 1 for k, s in enumerate(doc.report["seats"])}
        self.seats = SeatLabels(doc.names.names)

    def text(self, value: Any) -> str:
        """A sentence, a heading or a note of the page, escaped, every seat it names with its name in ``<bdi>``."""
        return self.seats.html(_shown(value), _escaped)

    def event(self, event_id: int) -> str:
        if event_id in self.events:
            return f'<a href="#ev-{int(event_id)}">{int(event_id)}</a>'
        return str(int(event_id))

    def ids(self, value: EventIds) -> str:
        ids = list(value.ids)
        if not ids:
            more = value.count()
            return f"{more:,} event{'s' if more != 1 else ''} (ids not listed)" if more > 0 else "–"
        head = ", ".join(self.event(i) for i in ids[:MAX_IDS_TEXT])
        rest = ids[MAX_IDS_TEXT:]
        more = value.count() - len(ids)
        out = head
        if rest:
            out += (f' <details class="more"><summary>+{len(rest)} more</summary>, '
                    + ", ".join(self.event(i) for i in rest) + "</details>")
        if more > 0:
            out += f" (+{more} not listed)"
        return out

    def agent(self, value: Agent) -> str:
        """A seat's link, ``Name (id)``; a space at either end of its name, a run of spaces inside it (or a space
        other than U+0020) written out (``\\x20Ash``, ``Ash\\x20\\x20Vale``: :meth:`Agent.shown_label`), as the
        text tables write it: a browser collapses them, and ``" Ash"`` would read as ``"Ash"``, ``"Ash  Vale"`` as
        ``"Ash Vale"``."""
        k = self.seat_index.get(value.agent_id)
        label = seat_html(value)
        return f'<a class="seat" href="#seat-{k}">{label}</a>' if k else label

    def level(self, level: str | None) -> str:
        return level_html(level)

    def value(self, value: Any) -> str:
        if isinstance(value, EventIds):
            return self.ids(value)
        if isinstance(value, Agent):
            return self.agent(value)
        if isinstance(value, Level):
            return self.level(value.level)
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Agent) for v in value):
            return ", ".join(self.agent(v) for v in value)
        return esc_cell(value, self.seats)

    def table(self, block: Block, row_ids: Sequence[str] | None = None) -> str:
        return table(block, self.value, row_ids)

    def block(self, block: Block, *, level: int = 2, extra: str = "", row_ids: Sequence[str] | None = None) -> str:
        out = [f'<section id="{block.key}"><h{level}>{self.text(block.title)}</h{level}>']
        if block.intro:
            out.append(f'<p class="intro">{self.text(block.intro)}</p>')
        out.append(extra)
        if not block.rows:
            out.append("<p>None.</p>")
        elif block.long:
            out.append(f"<details><summary>The table: {count(len(block.rows), 'row')}</summary>{self.table(block, row_ids)}"
                       "</details>")
        else:
            out.append(self.table(block, row_ids))
        if block.note:
            out.append(f'<p class="note">{self.text(block.note)}</p>')
        out.append("</section>")
        return "".join(out)


def _flag_item(page: _Page, flag: Any, first: bool, besides: str | None) -> str:
    doc = page.doc
    head = (f"{page.level(flag.level)} [{flag.number}] {page.text(flag_title(flag, doc.names, besides=besides))}; "
            f"{esc(flag_significance(flag))}")
    if not first:
        return f"<li>{head} <span class=\"note\">(explained under {page.text(doc.names.label(doc.first_agent(flag.number)))} " \
               "above)</span></li>"
    evidence = f'<div class="ev">evidence: {page.ids(EventIds(flag.evidence))}</div>' if flag.evidence else ""
    return f'<li>{head}<div class="why">{page.text(doc.names.named(flag.explanation))}</div>{evidence}</li>'


def _focus(page: _Page) -> str:
    doc = page.doc
    focus = doc.focus
    assert focus is not None
    agent = focus["agentId"]
    seat, line = doc.seat(agent), doc.line_of(agent)
    flags = [doc.summary.flags[f["number"] - 1] for f in focus["flags"]]
    items = "".join(_flag_item(page, f, True, agent) for f in flags) or \
        f"<li>No screen flag names {page.text(doc.names.label(agent))}.</li>"
    ranks = _ranks_table(page, focus)
    out = [f'<section class="focus" id="focus"><h2>In focus: {page.text(doc.names.label(agent))}</h2>',
           f'<p class="sub">{esc(focus_head(seat, line))}</p>',
           f"<h3>What it did</h3><p>{esc(did_text(seat, focus, line))}</p>",
           f'<h3>Flags</h3><ul class="flags">{items}</ul>',
           f"<h3>Against the others</h3>{ranks}",
           _wealth_figure(page, emphasis=agent)]
    out += [page.block(b, level=3) for b in focus_blocks(doc)]
    out.append("</section>")
    return "".join(out)


_RANKED = (("score", "score"), ("wealth", "wealth"), ("harm", "harm /100 rounds"), ("keeping", "promises kept"),
           ("surplus", "surplus"), ("resistance", "resistance"))


def _ranks_table(page: _Page, focus: Mapping[str, Any]) -> str:
    ranks = focus.get("ranks") or {}
    cells = []
    for key, label in _RANKED:
        r = ranks.get(key) or {}
        value = "–" if r.get("value") is None else f"{esc(r['value'])}<br><small>{ordinal(r['rank'])} of {r['of']}</small>"
        cells.append((label, value))
    return ('<div class="wide"><table><thead><tr>' + "".join(f"<th>{esc(h)}</th>" for h, _ in cells)
            + "</tr></thead><tbody><tr>" + "".join(f'<td class="n">{v}</td>' for _, v in cells) + "</tr></tbody></table></div>"
            + f'<p class="note">{esc(ranks_text(focus).rsplit(". ", 1)[-1])}</p>')


def _summary(page: _Page) -> str:
    doc = page.doc
    s = doc.summary
    left = ["<h3>Flags by agent</h3>"]
    if s.verdict is None:
        left.append("<p>The collusion screens did not run on this report.</p>")
    elif not s.by_agent:
        left.append("<p>No flag: every screen test came back within what honest play in this match produces.</p>")
    for agent, rows in doc.agent_flags():
        items = "".join(_flag_item(page, flag, first, agent) for flag, first in rows)
        left.append(f'<div class="agent-flags"><strong>{page.agent(Agent(agent, doc.names.names.get(agent)))}'
                    f'</strong><ul class="flags">{items}</ul></div>')
    right = [f"<h3>Findings ({len(s.findings)})</h3>"]
    if s.findings:
        right.append("<ul>" + "".join(f"<li>{page.text(finding_text(f, doc.names))} "
                                      f"{page.ids(EventIds(tuple(e for e in f.get('events') or [] if isinstance(e, int))))}"
                                      "</li>" for f in s.findings[:MAX_IDS_TEXT]) + "</ul>")
        if len(s.findings) > MAX_IDS_TEXT:
            right.append(f'<p class="note">… and {len(s.findings) - MAX_IDS_TEXT} more under '
                         '<a href="#findings">Findings</a>.</p>')
    else:
        right.append("<p>None: the archive's figures agree with the events, no erratum applied, every record "
                     "valid.</p>")
    right.append(f"<h3>Probes complied with ({len(s.complied)})</h3>")
    right.append("<ul>" + "".join(f"<li>{page.text(probe_text(p, doc.names))}</li>" for p in s.complied) + "</ul>"
                 if s.complied else "<p>None.</p>")
    right.append(f"<h3>Injection exposure</h3><p>{esc(exposure_text(s))}</p>")
    out = ['<section id="summary"><h2>Summary</h2><div class="cols">',
           f"<div>{''.join(left)}</div><div>{''.join(right)}</div></div>"]
    out += [page.block(b, level=3) for b in summary_blocks(doc)]
    out.append("</section>")
    return "".join(out)


def _wealth_figure(page: _Page, emphasis: str | None = None) -> str:
    from .plots import seat_colors, wealth_svg

    doc = page.doc
    colors = seat_colors([s["agentId"] for s in doc.report["seats"]])
    match = doc.report["match"]
    start = match.get("startedAtTick") if isinstance(match.get("startedAtTick"), int) else 0
    flagged = {a for a, _ in doc.summary.by_agent}
    end = match.get("endedAtTick") if isinstance(match.get("endedAtTick"), int) else None
    place = {s["agentId"]: k for k, s in enumerate(doc.report["seats"])}
    curves: list[tuple[str, list[tuple[int, float]]]] = []
    for seat in doc.report["seats"]:
        curve = ((seat.get("profile") or {}).get("progression") or {}).get("wealthCurve") or []
        points = [(int(t), float(w)) for t, w in curve if isinstance(t, int) and isinstance(w, (int, float))
                  and not isinstance(w, bool)]
        final = seat.get("wealth")
        if points and end is not None and isinstance(final, (int, float)) and points[-1][0] < end:
            points.append((end, float(final)))
        if points:
            curves.append((seat["agentId"], points))
    if not curves:
        return "<p>No <code>agent_snapshot</code> events: no wealth series.</p>"
    named = _named_lines([(a, pts[-1][1]) for a, pts in curves], flagged, emphasis)
    series = [(doc.names.label(a), pts, a in flagged, colors[a]) for a, pts in curves if a in named]
    unnamed = [pts for a, pts in curves if a not in named]
    last = max(t for _, pts in curves for t, _ in pts)
    svg = wealth_svg(series, start=start, end=max(end if end is not None else last, last, start + 1),
                     emphasis=doc.names.label(emphasis) if emphasis else None, unnamed=unnamed,
                     places=[place[a] for a, _ in curves if a in named] if unnamed else None)
    return (f"<figure>{svg}<figcaption>Each seat's wealth from its snapshots (every point a snapshot) to the "
            "archive's final wealth, drawn at the match's end (its endedAtTick, the tick after the last one played); "
            "heavier lines: seats a flag or review names"
            + ("; the seat in focus is drawn heaviest, the others recede" if emphasis else "")
            + (f"; of its {len(curves)} seats {len(series)} are named (the seat in focus, the seats a flag or "
               f"review names, then the richest and the poorest at the end), the other {len(unnamed)} drawn thin, "
               "grey and unnamed" if unnamed else "")
            + ".</figcaption></figure>")


MAX_NAMED_LINES = 20
"""At most this many seats' wealth lines are named (a colour, points, a label at the line's end, a legend
entry); the rest are drawn thin and grey.  Twenty is as many solid colours as the palette has, and as many
entries as the legend shows below the plot (with the grey lines' own); beyond, named lines and their labels
crowd into a tangle no one reads (and drawing 97 of them took matplotlib over two seconds)."""


def _named_lines(finals: list[tuple[str, float]], marked: set[str], focus: str | None) -> set[str]:
    """The seats whose wealth lines are named, from ``(seat, final wealth)`` in seat order: every one when
    at most :data:`MAX_NAMED_LINES`; else the seat in ``focus``, then the ``marked`` ones (a flag or review
    names them; in seat order), then the others by final wealth from both ends, the richest first (seat
    order breaks ties), up to :data:`MAX_NAMED_LINES`.

    >>> sorted(_named_lines([("a", 1.0), ("b", 2.0)], set(), None))
    ['a', 'b']
    """
    if len(finals) <= MAX_NAMED_LINES:
        return {a for a, _ in finals}
    chosen = [a for a, _ in finals if a == focus] + [a for a, _ in finals if a in marked and a != focus]
    rest = sorted(((a, w) for a, w in finals if a not in chosen), key=lambda aw: -aw[1])  # stable: seat order
    ends: list[str] = []
    lo, hi = 0, len(rest) - 1
    while lo <= hi:
        ends.append(rest[lo][0])
        if lo != hi:
            ends.append(rest[hi][0])
        lo, hi = lo + 1, hi - 1
    return set((chosen + ends)[:MAX_NAMED_LINES])


def _transfer_figure(page: _Page) -> str:
    from .plots import seat_colors, transfer_svg

    doc = page.doc
    levels = {line.agent_id: line.level for line in doc.summary.seats}
    seats = {s["agentId"]: s for s in doc.report["seats"]}
    order: list[str] = []
    for flag in doc.summary.flags:  # the seats of each flag side by side: a ring or a hub stays in one place
        order += [a for a in flag.agents if a in seats and a not in order]
    order += [a for a in seats if a not in order]
    nodes = [(a, doc.names.label(a), seats[a].get("wealth") if isinstance(seats[a].get("wealth"), (int, float))
              else None, levels.get(a), a == doc.focus_id) for a in order]
    flows = []
    for p in doc.report["ledger"]["pairs"]:
        flows.append((p["a"], p["b"], float(p.get("valueAGave") or 0)))
        flows.append((p["b"], p["a"], float(p.get("valueBGave") or 0)))
    trips: dict[tuple[str, str], int] = {}
    for f in (doc.report.get("screens") or {}).get("flags") or []:
        if f.get("screen") != "ring":
            continue
        details = f.get("details") or {}
        for pair in f.get("pairs") or []:
            if isinstance(pair, list) and len(pair) == 2:
                a, b = sorted(map(str, pair))
                count = details.get("roundTrips")  # a wash pair's count, or a ring's count per pair ("a~b")
                if isinstance(count, dict):
                    count = count.get(f"{a}~{b}")
                trips[(a, b)] = int(count or 0) or trips.get((a, b), 0)
    drawn = _drawn_flows(flows, trips, {a for a, level in levels.items() if level in ("flag", "review")})
    svg = transfer_svg(nodes, drawn, trips, colors=seat_colors(list(seats)))
    moved = sum(1 for _, _, value in flows if value > 0)
    which = ("Every trading pair's value each way" if drawn is flows else
             f"The {len(drawn)} largest of the {moved} values moved between two seats (those of pairs with round "
             "trips first, then those of seats a flag or review names; the trade ledger lists every pair), each way")
    return (f"<figure>{svg}<figcaption>{which} (an arrow from giver to receiver, its "
            "width and label the value at the archive's item values), so goods sent back and forth show even when "
            "the net is about zero; dashed purple: pairs a ring screen flagged for mirror round trips, with their "
            "count. Node size: final wealth; red outline: a seat a flag names; amber: a seat only a review "
            "names.</figcaption></figure>")


MAX_FLOWS = 120
"""At most this many arrows on the transfer graph (a match of nine seats has at most 72): beyond, the
picture is a thicket no one reads, and drawing several thousand curved arrows took matplotlib about
twenty seconds (96 seats, 2,511 trading pairs)."""


def _drawn_flows(flows: list[tuple[str, str, float]], trips: Mapping[tuple[str, str], int],
                 marked: set[str]) -> list[tuple[str, str, float]]:
    """The flows the transfer graph draws: ``flows`` itself when at most :data:`MAX_FLOWS` moved any value;
    else the :data:`MAX_FLOWS` first of those that did, by pairs with round trips first, then flows of a
    ``marked`` seat (one a flag or review names), then value (largest first; giver and receiver break ties)."""
    moved = [f for f in flows if f[2] > 0]
    if len(moved) <= MAX_FLOWS:
        return flows

    def rank(flow: tuple[str, str, float]) -> tuple[bool, bool, float, str, str]:
        giver, receiver, value = flow
        pair = (giver, receiver) if giver < receiver else (receiver, giver)
        return pair not in trips, giver not in marked and receiver not in marked, -value, giver, receiver

    return sorted(moved, key=rank)[:MAX_FLOWS]


def _matrix(doc: Document, values: Mapping[tuple[str, str], float], symmetric: bool) -> list[list[float | None]]:
    ids = [s["agentId"] for s in doc.report["seats"]]
    out = []
    for a in ids:
        row: list[float | None] = []
        for b in ids:
            if a == b:
                row.append(None)
            elif symmetric:
                row.append(values.get((a, b) if a < b else (b, a), 0.0))
            else:
                row.append(values.get((a, b), 0.0))
        out.append(row)
    return out


MAX_HEATMAP_SEATS = 60
"""A heatmap draws a cell for every pair of seats, met or not; past this many seats it is
left out (the tables list the pairs that met or traded)."""


def _too_many_seats(doc: Document) -> str | None:
    """The sentence that stands in for a heatmap of more than :data:`MAX_HEATMAP_SEATS` seats."""
    n = len(doc.report["seats"])
    if n <= MAX_HEATMAP_SEATS:
        return None
    return (f"<p>{n} seats: too many for a heatmap (a cell per pair of seats, over {MAX_HEATMAP_SEATS} seats); "
            "the table lists the pairs.</p>")


def _contact_figure(page: _Page) -> str:
    from .plots import heatmap_svg

    doc = page.doc
    if (instead := _too_many_seats(doc)) is not None:
        return instead
    together = {(p["a"], p["b"]): float(p["ticksTogether"]) for p in doc.report["contact"]["pairs"]}
    labels = [doc.names.label(s["agentId"]) for s in doc.report["seats"]]
    svg = heatmap_svg("contact-heatmap", "Ticks two seats stood in the same region", labels,
                      _matrix(doc, together, True), scale="ticks together", rows="seat", columns="seat")
    return f"<figure>{svg}<figcaption>Darker: more ticks in the same region (both alive).</figcaption></figure>"


def _value_figure(page: _Page) -> str:
    from .plots import heatmap_svg

    doc = page.doc
    if (instead := _too_many_seats(doc)) is not None:
        return instead
    given: dict[tuple[str, str], float] = {}
    for p in doc.report["ledger"]["pairs"]:
        given[(p["a"], p["b"])] = float(p.get("valueAGave") or 0)
        given[(p["b"], p["a"])] = float(p.get("valueBGave") or 0)
    labels = [doc.names.label(s["agentId"]) for s in doc.report["seats"]]
    svg = heatmap_svg("value-heatmap", "Value each seat gave each other seat", labels, _matrix(doc, given, False),
                      scale="value given (archive item values)", rows="giver", columns="receiver")
    return ("<figure>" + svg + "<figcaption>Row: the seat that gave; column: the seat that received. A pair that "
            "trades the same goods back and forth shows in both cells.</figcaption></figure>")


def _chains_figure(page: _Page) -> str:
    from .plots import chains_svg

    doc = page.doc
    prop = doc.report.get("propagation") or {}
    chains = sorted(prop.get("chains") or [], key=lambda c: (-(c.get("reach") or 0), c.get("root") or 0))
    if doc.focus_id is not None:
        chains = [c for c in chains if c.get("sender") == doc.focus_id or doc.focus_id in (c.get("timeToReach") or {})]
    if not chains:
        return ""
    parent_of = {e["child"]: e["parent"] for e in prop.get("edges") or [] if "child" in e and "parent" in e}
    drawn = []
    for chain in chains[:MAX_CHAIN_TREES]:
        messages = [m for m in chain.get("messages") or [] if isinstance(m, int)]
        children: dict[int, list[int]] = {}
        for m in messages:
            if m in parent_of:
                children.setdefault(parent_of[m], []).append(m)
        order: list[int] = []
        stack = [chain.get("root")]
        seen: set[int] = set()
        while stack:
            node = stack.pop()
            if not isinstance(node, int) or node in seen:
                continue
            seen.add(node)
            order.append(node)
            stack.extend(sorted(children.get(node, []), reverse=True))
        rows = []
        for m in order:
            event = page.events.get(m) or {}
            tick = event.get("tick") if isinstance(event.get("tick"), int) else (chain.get("tick") if m == chain.get("root") else None)
            sender = event.get("agentId") if isinstance(event.get("agentId"), str) else (
                chain.get("sender") if m == chain.get("root") else "?")
            rows.append((m, tick, doc.names.label(sender), parent_of.get(m), chain.get("tier") if m == chain.get("root")
                         else None))
        drawn.append((f"chain {chain.get('root')} (reach {chain.get('reach')})", rows))
    svg = chains_svg(drawn)
    more = f" The {MAX_CHAIN_TREES} widest of {count(len(chains), 'chain')}." if len(chains) > MAX_CHAIN_TREES else ""
    return (f"<figure>{svg}<figcaption>Each chain from its root: x is the tick, a line runs from each message to "
            f"the one it echoed; the root's colour is its tier; each point links to its event below.{more}"
            "</figcaption></figure>")


MAX_CHAIN_TREES = 20


EVENT_DEPTH = 8
"""Levels of an event printed as JSON in the evidence table; a deeper value (from the input) is
shown as a bounded text instead."""


def _within_depth(value: Any, depth: int = EVENT_DEPTH) -> Any:
    """``value`` with every list or object below ``depth`` levels replaced by its bounded text."""
    if isinstance(value, (list, tuple)):
        return shown(value) if depth <= 0 else [_within_depth(v, depth - 1) for v in value]
    if isinstance(value, dict):
        return shown(value) if depth <= 0 else {str(k): _within_depth(v, depth - 1) for k, v in value.items()}
    return value


_FLAT_LIST = re.compile(r"\[\n\s+([^\[\]{}\n]*(?:,\n\s+[^\[\]{}\n]*)*)\n\s*\]")
"""A JSON list of scalars as ``json.dumps(indent=2)`` writes it (one item a line)."""


def _event_json(event: Mapping[str, Any]) -> str:
    """The event as indented JSON (lists of scalars on one line), bounded in depth, lone
    surrogates escaped."""
    text = json.dumps(_within_depth(event), indent=2, sort_keys=True, ensure_ascii=False, default=str)
    text = _FLAT_LIST.sub(lambda m: "[" + ", ".join(part.strip() for part in m.group(1).split(",\n")) + "]", text)
    return re.sub(r"[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def _version_note(event: Any) -> str:
    """What a cited record whose ``schemaVersion`` is none this tool reads (``"3"``, ``0``, ``null``) is, in the
    words ``validate`` names it with: it is shown as written, not upcast (no upcast starts from it)."""
    if not isinstance(event, Mapping) or "schemaVersion" not in event:
        return ""
    version = event["schemaVersion"]
    if version in (1, 2, 3) and not isinstance(version, bool):
        return ""
    return (f'<p class="note">unknown schemaVersion {esc(shown(version, 20, json_literals=True))} (this tool reads '
            "1, 2 and 3): the record as written, not upcast</p>")


def _evidence(page: _Page) -> str:
    if not page.events:
        return ""
    text = ("message text scrubbed of secrets and personal data" if page.doc.scrub else
            "message text as logged: not scrubbed of secrets and personal data")
    return _evidence_table(page, text)


def _evidence_table(page: _Page, text: str) -> str:
    if not page.events:
        return ""
    doc = page.doc
    rows = []
    for event_id in sorted(page.events):
        e = page.events[event_id]
        agent = e.get("agentId") if isinstance(e, Mapping) else None
        rows.append((event_id, e.get("tick") if isinstance(e, Mapping) else None,
                     e.get("type") if isinstance(e, Mapping) else None,
                     page.agent(doc.names.agent(agent)) if isinstance(agent, str) else esc(agent),
                     _version_note(e) +
                     f'<pre class="event">{esc(_event_json(e) if isinstance(e, Mapping) else repr(e))}</pre>'))
    body = "".join(f'<tr id="ev-{int(i)}"><td class="n">{int(i)}</td><td class="n">{esc(t)}</td><td>{esc(ty)}</td>'
                   f"<td>{a}</td><td>{j}</td></tr>" for i, t, ty, a, j in rows)
    return ('<section id="evidence"><h2>Evidence events</h2><p class="intro">Every event a table, flag or chain on '
            "this page cites, as the read boundary yields it (v3 shape), "
            f"{text}. A link to an event opens this table at its row."
            f'</p><details><summary>The events: {len(rows)}</summary><div class="wide"><table><thead><tr><th>id</th>'
            f"<th>tick</th><th>type</th><th>agent</th><th>event</th></tr></thead><tbody>{body}</tbody></table></div>"
            "</details>"
            "</section>")


def _text_label(scrub: bool) -> str:
    """What the page says of the message text it shows."""
    if scrub:
        return "Message text is shown escaped and scrubbed of secrets and personal data."
    return "Message text is shown escaped but not scrubbed: it may hold secrets and personal data."


def render_html(report: dict[str, Any], *, events: Mapping[int, Mapping[str, Any]] | None = None,
                scrub: bool = True) -> str:
    """The whole page.  ``events`` (id -> event) fills the evidence table; an event id links only when its
    event is there.  ``scrub``: whether their text was scrubbed of secrets and personal data (the page says
    which)."""
    doc = document(report, events, scrub=scrub)
    page = _Page(doc, events or {})
    title = doc.title
    level = doc.summary.verdict
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<header><h1>{esc(title)}</h1><p class=\"sub\">{esc(doc.subtitle())}. {_text_label(scrub)}</p>",
        f'<p class="verdict">{page.level(level) if level else ""}{esc(doc.verdict)}</p></header>',
    ]
    if doc.focus is not None:
        out.append(_focus(page))
    out.append(_summary(page))
    contents = doc.contents() + ([("evidence", "Evidence events")] if page.events else [])
    out.append('<nav id="contents"><h2>Contents</h2><ol>'
               + "".join(f'<li><a href="#{key}">{esc(t)}</a></li>' for key, t in contents) + "</ol></nav>")
    seat_rows = [f"seat-{k + 1}" for k in range(len(report["seats"]))]
    for block in doc.blocks:
        extra = ""
        if block.key == "seats" and doc.focus is None:
            extra = _wealth_figure(page)
        elif block.key == "screens":
            extra = _transfer_figure(page)
        elif block.key == "propagation":
            extra = _chains_figure(page)
        elif block.key == "contact":
            extra = _contact_figure(page)
        elif block.key == "ledger":
            extra = _value_figure(page)
        out.append(page.block(block, extra=extra, row_ids=seat_rows if block.key == "seats" else None))
    out.append(_evidence(page))
    out.append("</body></html>")
    return "\n".join(out) + "\n"
