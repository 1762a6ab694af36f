"""The behavior report as one self-contained HTML page.

No network at view time: styles inline, plots drawn as inline SVG, no external
fonts, scripts or images.  Message text and every other string from the log is
hostile (agents send injections on purpose), so:

* every string goes through :func:`html.escape` (quotes included) before it
  reaches the page, including attribute values; its control characters are written
  out (:func:`daishi_forensics.textsafe.shown_lines`: a bidirectional override cannot
  reorder what the reader sees, an ESC cannot reach a terminal the page is printed on)
  and its newlines become ``&#10;`` (the same newline on the page, but no line of the
  file starts with the data: a page printed in a CI log forges no annotation);
* no string from the log is ever placed in a URL, a ``<script>``, a ``style`` or an
  event-handler attribute;
* a Content-Security-Policy ``<meta>`` allows no script at all, no network, and
  images only from ``data:``, as a second line of defence.

The page is deterministic: same report, same bytes.
"""

from __future__ import annotations

import html
import math
from typing import Any, Iterable, Sequence

from daishi_forensics.textsafe import shown_lines

from .behavior import blocks
from .tables import cell
from daishi_forensics.jsonio import shown

__all__ = ["render_html"]


CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; base-uri 'none'; form-action 'none'"

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;color:#1d2330;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #d8dce6;padding-bottom:.25rem}
p.intro{color:#4a5163;max-width:70rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:13px}
th,td{border:1px solid #d8dce6;padding:.2rem .45rem;text-align:left;vertical-align:top}
th{background:#f2f4f8}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr:target{background:#fff3bf}
.flag{background:#fde2e1}.review{background:#fff3bf}.clear{background:#e3f6e8}
.verdict{display:inline-block;padding:.1rem .6rem;border-radius:.8rem;font-weight:600}
figure{margin:.5rem 0}figcaption{color:#4a5163;font-size:12px}
svg text{font:11px system-ui,sans-serif;fill:#1d2330}
.msg{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-word;max-width:40rem}
"""


def esc(value: Any) -> str:
    """Escape anything for HTML text or a quoted attribute."""
    text = cell(value) if not isinstance(value, str) else shown_lines(value)
    return html.escape(text, quote=True).replace("\n", "&#10;")


def _table(headers: Sequence[str], rows: Iterable[Sequence[Any]], row_ids: Sequence[str] | None = None) -> str:
    out = ["<table><thead><tr>", *(f"<th>{esc(h)}</th>" for h in headers), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        rid = f' id="{esc(row_ids[i])}"' if row_ids else ""
        out.append(f"<tr{rid}>")
        for value in row:
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            out.append(f'<td class="n">{esc(value)}</td>' if numeric else f"<td>{esc(value)}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _color(i: int, n: int) -> str:
    hue = int(360 * i / max(n, 1))
    return f"hsl({hue},55%,55%)"


def transfer_graph_svg(report: dict[str, Any], flagged: set[str]) -> str:
    """Net value moved between seats, drawn on a circle.

    Nodes are sized by final wealth (or index wealth); an arrow per pair points the
    way net value moved, its width proportional to that value; seats in a flagged
    group are outlined in red.  Built from the trade ledger (and the screens'
    transfer graph when present: raids and thefts count too).
    """
    seats = report["seats"]
    ids = [s["agentId"] for s in seats]
    n = len(ids)
    if n == 0:
        return "<p>No seats.</p>"
    size, radius = 520, 200
    cx = cy = size / 2
    pos = {a: (cx + radius * math.cos(2 * math.pi * i / n - math.pi / 2),
               cy + radius * math.sin(2 * math.pi * i / n - math.pi / 2)) for i, a in enumerate(ids)}
    edges: list[tuple[str, str, float]] = []
    graph = (report.get("screens") or {}).get("graph")
    if graph and isinstance(graph.get("edges"), list):
        for e in graph["edges"]:
            if e.get("source") in pos and e.get("target") in pos and (e.get("value") or 0) > 0:
                edges.append((e["source"], e["target"], float(e["value"])))
    else:
        for p in report["ledger"]["pairs"]:
            net = float(p.get("valueAGave", 0)) - float(p.get("valueBGave", 0))
            if p["a"] in pos and p["b"] in pos and net != 0:
                edges.append((p["a"], p["b"], net) if net > 0 else (p["b"], p["a"], -net))
    top = max((v for _, _, v in edges), default=1.0) or 1.0
    parts = [f'<svg class="plot" id="transfer-graph" viewBox="0 0 {size} {size}" width="{size}" height="{size}" '
             'role="img" aria-label="net transfer graph">',
             '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" '
             'markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#5b6477"/></marker></defs>']
    wealth = {s["agentId"]: s.get("indexWealth") if s.get("indexWealth") is not None else s.get("wealth") for s in seats}
    top_w = max((w for w in wealth.values() if isinstance(w, (int, float)) and w > 0), default=1.0)

    def node_radius(agent: str) -> float:
        w = wealth.get(agent)
        return 6 + 16 * math.sqrt(max(float(w), 0) / top_w) if isinstance(w, (int, float)) else 8

    for src, dst, value in sorted(edges):
        (x1, y1), (x2, y2) = pos[src], pos[dst]
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        cut = (node_radius(dst) + 2) / length
        x2, y2 = x2 - (x2 - x1) * cut, y2 - (y2 - y1) * cut
        width = 0.8 + 7 * value / top
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#5b6477" '
                     f'stroke-opacity="0.7" stroke-width="{width:.2f}" marker-end="url(#arrow)">'
                     f"<title>{esc(src)} → {esc(dst)}: {esc(round(value, 2))}</title></line>")
    for i, agent in enumerate(ids):
        x, y = pos[agent]
        w = wealth.get(agent)
        r = node_radius(agent)
        stroke = ' stroke="#d7263d" stroke-width="3"' if agent in flagged else ' stroke="#fff" stroke-width="1"'
        parts.append(f'<circle class="node" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{_color(i, n)}"{stroke}>'
                     f"<title>{esc(agent)} wealth {esc(w)}</title></circle>")
        parts.append(f'<text x="{x:.1f}" y="{y - r - 4:.1f}" text-anchor="middle">{esc(agent)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def contact_heatmap_svg(report: dict[str, Any]) -> str:
    """Ticks each pair of seats stood together, as a symmetric heatmap."""
    ids = [s["agentId"] for s in report["seats"]]
    n = len(ids)
    if n == 0:
        return "<p>No seats.</p>"
    together = {(p["a"], p["b"]): p["ticksTogether"] for p in report["contact"]["pairs"]}
    top = max(together.values(), default=0) or 1
    cellsize, margin = 26, 90
    size = margin + cellsize * n + 10
    parts = [f'<svg class="plot" id="contact-heatmap" viewBox="0 0 {size} {size}" width="{size}" height="{size}" '
             'role="img" aria-label="seat contact heatmap">']
    for i, a in enumerate(ids):
        parts.append(f'<text x="{margin - 4}" y="{margin + cellsize * i + 17}" text-anchor="end">{esc(a)}</text>')
        parts.append(f'<text transform="translate({margin + cellsize * i + 17},{margin - 4}) rotate(-60)">'
                     f"{esc(a)}</text>")
        for j, b in enumerate(ids):
            key = (a, b) if a < b else (b, a)
            value = 0 if a == b else together.get(key, 0)
            shade = 1 - 0.85 * value / top
            fill = "#eef0f4" if a == b else f"rgb({int(40 + 215 * shade)},{int(90 + 165 * shade)},{int(160 + 95 * shade)})"
            parts.append(f'<rect class="cell" x="{margin + cellsize * j}" y="{margin + cellsize * i}" '
                         f'width="{cellsize - 2}" height="{cellsize - 2}" fill="{fill}">'
                         f"<title>{esc(a)} · {esc(b)}: {esc(value)} ticks together</title></rect>")
    parts.append("</svg>")
    return "".join(parts)


def wealth_lines_svg(series: dict[str, list[tuple[int, float]]]) -> str:
    """Wealth over ticks per seat, from ``agent_snapshot`` events."""
    points = [(t, w) for s in series.values() for t, w in s]
    if not points:
        return "<p>No <code>agent_snapshot</code> events: no wealth series.</p>"
    width, height, pad = 720, 300, 40
    t0, t1 = min(t for t, _ in points), max(t for t, _ in points)
    w1 = max(max(w for _, w in points), 1.0)
    span = max(t1 - t0, 1)

    def xy(t: int, w: float) -> str:
        return f"{pad + (width - 2 * pad) * (t - t0) / span:.1f},{height - pad - (height - 2 * pad) * w / w1:.1f}"

    parts = [f'<svg class="plot" id="wealth-lines" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             'role="img" aria-label="wealth over time">',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#999"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#999"/>',
             f'<text x="{pad}" y="{height - 10}">tick {t0}</text>',
             f'<text x="{width - pad}" y="{height - 10}" text-anchor="end">tick {t1}</text>',
             f'<text x="4" y="{pad}">{esc(round(w1, 1))}</text>']
    agents = sorted(series)
    for i, agent in enumerate(agents):
        pts = " ".join(xy(t, w) for t, w in sorted(series[agent]))
        parts.append(f'<polyline fill="none" stroke="{_color(i, len(agents))}" stroke-width="1.6" points="{pts}">'
                     f"<title>{esc(agent)}</title></polyline>")
    parts.append("</svg>")
    return "".join(parts)


def wealth_series(report: dict[str, Any]) -> dict[str, list[tuple[int, float]]]:
    """Each seat's wealth curve (``seats[].profile.progression.wealthCurve``)."""
    out: dict[str, list[tuple[int, float]]] = {}
    for seat in report["seats"]:
        curve = ((seat.get("profile") or {}).get("progression") or {}).get("wealthCurve") or []
        points = [(int(t), float(w)) for t, w in curve if isinstance(t, int) and isinstance(w, (int, float))]
        if points:
            out[seat["agentId"]] = points
    return out


MAX_CHAIN_TREES = 20


def chain_trees_html(report: dict[str, Any], events: dict[int, dict[str, Any]]) -> str:
    """Each propagation chain as a tree over time: x is the tick, one row per message in
    depth-first order, a line from each message to the one it echoed.  The widest
    chains first (at most :data:`MAX_CHAIN_TREES`)."""
    prop = report.get("propagation") or {}
    chains = sorted(prop.get("chains") or [], key=lambda c: (-(c.get("reach") or 0), c.get("root") or 0))
    if not chains:
        return "<p>No message echoed an earlier message its sender had heard.</p>"
    parent_of = {e["child"]: e["parent"] for e in prop.get("edges") or [] if "child" in e and "parent" in e}
    out = []
    for chain in chains[:MAX_CHAIN_TREES]:
        messages = [m for m in chain.get("messages") or [] if isinstance(m, int)]
        children: dict[int, list[int]] = {}
        for m in messages:
            if m in parent_of:
                children.setdefault(parent_of[m], []).append(m)
        order: list[tuple[int, int]] = []
        stack = [(chain.get("root"), 0)]
        seen: set[int] = set()
        while stack:
            node, depth = stack.pop()
            if not isinstance(node, int) or node in seen:
                continue
            seen.add(node)
            order.append((node, depth))
            stack.extend((c, depth + 1) for c in sorted(children.get(node, []), reverse=True))
        ticks = {m: (events.get(m) or {}).get("tick") for m, _ in order}
        known = [t for t in ticks.values() if isinstance(t, int)]
        t0, t1 = (min(known), max(known)) if known else (0, 1)
        span = max(t1 - t0, 1)
        width, row, pad = 640, 22, 70
        height = pad // 2 + row * len(order) + 10
        rows = {m: i for i, (m, _) in enumerate(order)}

        def x(m: int) -> float:
            t = ticks.get(m)
            return pad + (width - pad - 150) * ((t - t0) / span if isinstance(t, int) else 0)

        parts = [f'<svg class="plot chain" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
                 f'role="img" aria-label="propagation chain {esc(chain.get("root"))}">',
                 f'<text x="{pad}" y="14">tick {t0}</text><text x="{width - 150}" y="14" text-anchor="end">'
                 f"tick {t1}</text>"]
        for m, _depth in order:
            y = pad // 2 + row * rows[m]
            if m in parent_of and parent_of[m] in rows:
                p = parent_of[m]
                py = pad // 2 + row * rows[p]
                parts.append(f'<path d="M{x(p):.1f},{py} V{y} H{x(m):.1f}" fill="none" stroke="#8a93a6"/>')
            sender = (events.get(m) or {}).get("agentId")
            parts.append(f'<circle class="msg-node" cx="{x(m):.1f}" cy="{y}" r="5" fill="#3d6bd6">'
                         f"<title>event {m} by {esc(sender)} at tick {esc(ticks.get(m))}</title></circle>")
            parts.append(f'<text x="{x(m) + 8:.1f}" y="{y + 4}">{esc(sender)} · '
                         f'<a href="#ev-{m}">{m}</a></text>')
        parts.append("</svg>")
        out.append(f"<figure>{''.join(parts)}<figcaption>Chain from event {esc(chain.get('root'))} "
                   f"({esc(chain.get('tier'))}): reach {esc(chain.get('reach'))}, depth {esc(chain.get('depth'))}."
                   "</figcaption></figure>")
    return "".join(out)


def render_html(report: dict[str, Any], *, events: dict[int, dict[str, Any]] | None = None) -> str:
    """The whole page.  ``events`` (id → event, text already scrubbed) fills the evidence table."""
    screens = report.get("screens") or {}
    flagged = {a for f in screens.get("flags") or [] for a in f.get("agents") or []}
    title = f"Behavior report {report.get('matchId')}"
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f"<p class=\"intro\">daishi-forensics {esc(report['tool']['version'])}, report version "
        f"{esc(report['reportVersion'])}. Message text is shown escaped and scrubbed of secrets and personal data.</p>",
    ]
    for heading, intro, headers, rows in blocks(report):
        out.append(f"<h2>{esc(heading)}</h2><p class=\"intro\">{esc(intro)}</p>")
        out.append(_table(headers, rows) if rows else "<p>None.</p>")
        if heading == "Trade ledger":
            out.append("<h2>Net transfer graph</h2><figure>" + transfer_graph_svg(report, flagged) +
                       "<figcaption>Arrows point the way net value moved; width is value; node size is wealth; "
                       "red outline: seat in a flagged group.</figcaption></figure>")
        if heading == "Seat contact":
            out.append("<h2>Seat contact heatmap</h2><figure>" + contact_heatmap_svg(report) +
                       "<figcaption>Darker: more ticks standing in the same region.</figcaption></figure>")
    out.append("<h2>Wealth over time</h2><figure>" + wealth_lines_svg(wealth_series(report)) + "</figure>")
    if "propagation" in report:
        out.append("<h2>Propagation trees</h2>" + chain_trees_html(report, events or {}))
    if events:
        out.append("<h2>Evidence events</h2><p class=\"intro\">Every event a flag or finding cites.</p>")
        rows = []
        ids = []
        for event_id in sorted(events):
            e = events[event_id]
            ids.append(f"ev-{event_id}")
            rows.append([event_id, e.get("tick"), e.get("type"), e.get("agentId"), _payload_summary(e)])
        out.append(_table(["id", "tick", "type", "agent", "payload"], rows, ids))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _payload_summary(event: dict[str, Any]) -> str:
    payload = event.get("payload")
    if not isinstance(payload, dict):  # a cited invalid record: its payload as it is, bounded
        return shown(payload, limit=400)
    items = []
    for key in sorted(payload):
        value = payload[key]
        text = value if isinstance(value, str) else cell(value) if not isinstance(value, dict) else \
            ", ".join(f"{k} {cell(v)}" for k, v in sorted(value.items()))
        items.append(f"{key}: {text}")
    summary = "; ".join(items)
    return summary if len(summary) <= 400 else summary[:399] + "…"
