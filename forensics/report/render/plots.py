"""The behavior page's plots, drawn with matplotlib and inlined as SVG.

Every plot explains itself: a title, labelled axes with ticks, a legend, and (for the
wealth lines) a label at the end of each line.  The plots:

* :func:`wealth_svg` -- each seat's wealth over the whole match (tick 0 ... the match's last
  tick), from its ``agent_snapshot`` curve and the archive's final wealth;
* :func:`transfer_svg` -- the value moved between seats: every pair's gross flow each way
  (an arrow per direction, width by value, the value on it), so a ring whose net flow is
  about zero still shows; pairs a screen found trading round trips drawn dashed in purple
  with their count; seats sized by wealth; only the seats a flag or review names outlined;
* :func:`heatmap_svg` -- a seat x seat matrix (ticks together, value given) with a colour bar;
* :func:`chains_svg` -- the propagation chains over time, each message a point linked to the
  message it echoed, each point a link to its row of the evidence table.

Rendering is deterministic: the SVG backend with a fixed ``svg.hashsalt`` per plot, text
kept as text (``svg.fonttype`` ``none``), no date or tool in the metadata; the same report
gives the same bytes.  Each plot's element ids carry the plot's name, so several plots share a
page without clashing.  Strings from the log are data: control characters are written out
(:func:`daishi_forensics.textsafe.shown`), a ``$`` never starts matplotlib's math mode, and
matplotlib escapes ``<``, ``>`` and ``&`` in the SVG; a seat's name in a right-to-left script is written
between the isolates FSI and PDI (:func:`seat_label`), as the page puts it in ``<bdi>``; the only links are
to ``#ev-<id>`` (an integer).  matplotlib is imported only when a page is drawn.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from daishi_forensics.textsafe import shown

__all__ = ["wealth_svg", "transfer_svg", "heatmap_svg", "chains_svg", "plain", "seat_colors", "PALETTE"]

PALETTE = ("#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79",
           "#637939", "#8c6d31", "#7b4173", "#3182bd", "#31a354", "#756bb1", "#636363", "#6b6ecf", "#b5cf6b",
           "#9c9ede", "#e7969c")
"""Seat colours, in seat order (then again with dashed lines); no pure red or amber, which mark flags."""

FLAG_COLOR, REVIEW_COLOR, ROUND_TRIP_COLOR, FLOW_COLOR = "#d7263d", "#e09f00", "#7b2cbf", "#5b6477"

_RC: dict[Any, Any] = {  # matplotlib names its keys as literals
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "axes.titlesize": 11,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "path.simplify": False,
}


def plain(text: Any) -> str:
    """A string from the log as matplotlib text: control characters written out, ``$`` never math."""
    return shown(str(text)).replace("$", r"\$")


MAX_LABEL = 20
"""At most this many characters of a seat's label on a plot: a longer name is cut in its middle (its id kept)."""


def seat_label(label: str) -> str:
    """A seat's label (``Name (id)``) as a plot writes it: :func:`plain`, and a name that would make the label
    longer than :data:`MAX_LABEL` characters cut with an ellipsis, the id kept whole; a longer label ran out of
    the figure and pushed the legend's other entries out of sight (the tables write the whole name).

    >>> seat_label("Ash (a_1)")
    'Ash (a_1)'
    >>> seat_label("R" * 500 + " (a_832d)")
    'RRRRRRRRRR… (a_832d)'

    A name (or an id) with a right-to-left letter is put between the isolates FSI and PDI (U+2068, U+2069),
    as the page puts a seat's name in ``<bdi>``: the browser lays it out apart from the id and the text around
    it, so a seat named "שרה" of id ``7`` reads "שרה (7)", name first, not "(7) שרה".  The isolates are not
    drawn, and a label in a left-to-right script is written as before.

    >>> seat_label("שרה (7)")
    '\\u2068שרה\\u2069 (7)'
    """
    text = plain(label)
    cut = text.rfind(" (")
    name, tail = (text[:cut], text[cut:]) if cut > 0 and text.endswith(")") else (text, "")
    if len(text) > MAX_LABEL:
        if len(tail) >= MAX_LABEL // 2:
            name, tail = text, ""
        name = name[:MAX_LABEL - len(tail) - 1].rstrip("\\") + "…"
    return _isolated(name) + (f" ({_isolated(tail[2:-1])})" if tail else "")


_RIGHT_TO_LEFT = frozenset(("R", "AL", "AN"))
"""The bidirectional classes that pull the text around them into a right-to-left run: Hebrew and Arabic
letters, Arabic digits."""


def _isolated(text: str) -> str:
    """``text`` between FSI and PDI when it holds a right-to-left character, else as it is."""
    import unicodedata

    if any(unicodedata.bidirectional(c) in _RIGHT_TO_LEFT for c in text):
        return f"\u2068{text}\u2069"
    return text


def _visible(text: str) -> str:
    """A label as it is drawn: without the isolates :func:`seat_label` adds."""
    return text.replace("\u2068", "").replace("\u2069", "")


def _figure(key: str, width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=72)


_HEADER = re.compile(r"\A.*?(?=<svg\b)", re.S)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
_TAG = re.compile(r"<[^!?][^>]*>")
_IDS = re.compile(r'(\bid="|xlink:href="#|href="#|url\(#)([^")]+)')


def _finish(fig: Any, key: str, label: str) -> str:
    """The figure as inline SVG: no XML header or metadata, its ids prefixed with ``key``, the root
    marked ``class="plot"`` with an accessible name."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    buf = io.StringIO()
    with matplotlib.rc_context({**_RC, "svg.hashsalt": f"daishi-{key}"}), _quiet():
        FigureCanvasSVG(fig)
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = _METADATA.sub("", _HEADER.sub("", buf.getvalue(), count=1), count=1)

    def prefix(tag: re.Match[str]) -> str:  # only inside tags: data lives in text, where '<' is escaped
        return _IDS.sub(lambda m: f"{m.group(1)}{key}-{m.group(2)}" if not m.group(2).startswith("ev-")
                        else m.group(0), tag.group(0))

    svg = _TAG.sub(prefix, svg)
    from html import escape

    return svg.replace("<svg ", f'<svg class="plot" id="{key}" role="img" aria-label="{escape(label, quote=True)}" ',
                       1).strip()


@contextlib.contextmanager
def _style(fig: Any) -> Iterator[None]:
    """matplotlib's settings for these plots, and no warning about a glyph the font lacks (a name in a
    script DejaVu Sans does not cover is drawn by the browser's fonts anyway: the text stays text)."""
    import matplotlib

    with matplotlib.rc_context({**_RC}), _quiet():
        yield


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph .* missing from", category=UserWarning)
        warnings.filterwarnings("ignore", message=r".*[Ff]ont.*", category=UserWarning)
        yield


def seat_colors(agents: Sequence[str]) -> dict[str, str]:
    """Each seat's colour, by its place in seat order (the same on every plot of a page)."""
    return {a: PALETTE[k % len(PALETTE)] for k, a in enumerate(agents)}


def _color(k: int) -> tuple[str, str]:
    return PALETTE[k % len(PALETTE)], "-" if k < len(PALETTE) else "--"


def _spread(ys: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Label heights: each at its line's end, pushed apart to at least ``gap`` (order kept)."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    last = lo - gap
    for i in order:
        placed[i] = max(ys[i], last + gap)
        last = placed[i]
    overflow = last - hi
    if overflow > 0:
        for i in order:
            placed[i] -= overflow
        first = min(placed) if placed else lo
        if first < lo:  # too many to fit: spread evenly
            step = (hi - lo) / max(len(ys) - 1, 1)
            for rank, i in enumerate(order):
                placed[i] = lo + rank * step
    return placed


LEGEND_ROWS = 5
"""Rows of the wealth plot's legend that fit under it in its usual height."""

def _luminance(color: str) -> float:
    channels = [int(color[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(color: str, background: str = "#ffffff") -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours (1 to 21).

    >>> round(contrast("#000000"), 1)
    21.0
    """
    lighter, darker = sorted((_luminance(color), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def readable(color: str) -> str:
    """``color`` (``#rrggbb``) darkened, keeping its hue, until text in it on white has WCAG's contrast for
    small text (4.5:1): a seat's label drawn in its line's colour stays readable (#bcbd22 had 2:1).

    >>> readable("#1f77b4")
    '#1f77b4'
    >>> contrast(readable("#bcbd22")) >= 4.5
    True
    """
    channels = [int(color[k:k + 2], 16) for k in (1, 3, 5)]
    out = color.lower()
    while contrast(out) < 4.5:
        channels = [int(c * 0.9) for c in channels]
        out = "#" + "".join(f"{c:02x}" for c in channels)
    return out


UNNAMED = "#c3c8d2"
"""The colour of the wealth lines of seats not named (:func:`wealth_svg`'s ``unnamed``)."""


def wealth_svg(series: Sequence[tuple[str, Sequence[tuple[int, float]], bool, str | None]], *, start: int, end: int,
               emphasis: str | None = None, unnamed: Sequence[Sequence[tuple[int, float]]] = (),
               places: Sequence[int] | None = None) -> str:
    """Wealth over ticks, one line per seat: ``(label, points, flagged, colour)``; the x axis spans the whole
    match (``start`` ... ``end``); a seat's label at the end of its line and in the legend; flagged seats'
    lines drawn heavier; with ``emphasis`` (the seat in focus) the other lines recede.  The seats of
    ``unnamed`` (their points only) are drawn first, thin and grey, with no points marked, no label and one
    legend entry for them all.  ``places``: each series' seat's place in seat order, which picks its line's
    dash as its colour was picked (default: its place in ``series``)."""
    with _style(None):
        # the legend under the plot: four entries a row; room for five rows, and a fifth of an inch more
        # for each further row (61 seats: 20 named and the grey lines' entry, six rows)
        rows = math.ceil((len(series) + (1 if unnamed else 0)) / 4)
        extra = 0.2 * max(0, rows - LEGEND_ROWS)
        fig = _figure("wealth", 12.5, 5.6 + extra)
        ax = fig.add_axes((0.065, 0.29, 0.74, 0.63) if not extra else
                          (0.065, (0.29 * 5.6 + extra) / (5.6 + extra), 0.74, 0.63 * 5.6 / (5.6 + extra)))
        every = [w for _, pts, _, _ in series for _, w in pts] + [w for pts in unnamed for _, w in pts]
        top = max(every + [1.0])
        bottom = min(every + [0.0])
        for k, points in enumerate(unnamed):
            ax.plot([t for t, _ in points], [w for _, w in points], "-", color=UNNAMED, linewidth=0.8,
                    label=f"other seats ({len(unnamed)})" if k == 0 else "_nolegend_", gid=f"unnamed-{k}", zorder=1.5)
        ends = []
        for k, (label, points, flagged, given) in enumerate(series):
            color, dash = _color(k if places is None else places[k])
            color = given or color
            xs = [t for t, _ in points]
            ys = [w for _, w in points]
            focus = emphasis is not None and label == emphasis
            faded = emphasis is not None and not focus
            ax.plot(xs, ys, dash, color=color, linewidth=3.2 if focus else 2.2 if flagged else 1.4,
                    alpha=0.35 if faded else 1.0, marker="o", markersize=2.5, label=seat_label(label)
                    + ("  (flagged)" if flagged else ""), gid=f"series-{k}")
            ends.append((label, xs[-1], ys[-1], color, faded))
        ax.set_xlim(start, end)
        ax.set_ylim(bottom - 0.04 * (top - bottom), top * 1.06)
        ax.set_xlabel("tick")
        ax.set_ylabel("wealth (archive item values)")
        ax.set_title("Wealth over the match", loc="left")
        ax.grid(True, color="#e3e6ec", linewidth=0.6)
        span = ax.get_ylim()
        placed = _spread([y for _, _, y, _, _ in ends], (span[1] - span[0]) * 0.052, span[0], span[1])
        for (label, x, y, color, _faded), ly in zip(ends, placed):
            ax.annotate(seat_label(label), xy=(x, y), xytext=(end + (end - start) * 0.02, ly), textcoords="data",
                        color=readable(color), fontsize=8, va="center", annotation_clip=False,
                        arrowprops={"arrowstyle": "-", "color": color, "linewidth": 0.5, "alpha": 0.6})
        legend = {"loc": "upper left", "bbox_to_anchor": (0.0, -0.13), "ncol": 4, "frameon": False, "title": "seats",
                  "title_fontsize": 8, "alignment": "left"}
        if unnamed:  # the grey lines' entry last
            handles, labels = ax.get_legend_handles_labels()
            ax.legend(handles[1:] + handles[:1], labels[1:] + labels[:1], **legend)
        else:
            ax.legend(**legend)
        return _finish(fig, "wealth-lines", "wealth over the match, one line per seat")


def _components(pairs: Mapping[tuple[str, str], int]) -> list[tuple[list[str], list[tuple[tuple[str, str], int]]]]:
    """The round-trip pairs grouped by the seats they connect (a ring of three is one group)."""
    groups: list[tuple[set[str], list[tuple[tuple[str, str], int]]]] = []
    for pair, count in sorted(pairs.items()):
        touching = [g for g in groups if pair[0] in g[0] or pair[1] in g[0]]
        members, rows = set(pair), [(pair, count)]
        for g in touching:
            members |= g[0]
            rows += g[1]
            groups.remove(g)
        groups.append((members, sorted(rows)))
    return [(sorted(m), rows) for m, rows in sorted(groups, key=lambda g: sorted(g[0]))]


def transfer_svg(nodes: Sequence[tuple[str, str, float | None, str | None, bool]],
                 flows: Sequence[tuple[str, str, float]], round_trips: Mapping[tuple[str, str], int], *,
                 colors: Mapping[str, str] | None = None) -> str:
    """The transfer graph: ``nodes`` are ``(agent id, label, wealth, level, emphasized)`` (level ``flag``
    or ``review`` outlines the node), ``flows`` are ``(giver, receiver, value)`` gross per direction, and
    ``round_trips`` counts mirror round trips per pair ``(a, b)`` with ``a < b`` (drawn dashed, purple);
    ``colors`` gives each seat its colour (as on the wealth plot)."""
    n = len(nodes)
    with _style(None):
        fig = _figure("transfer", 10.5, 9.8)
        ax = fig.add_axes((0.02, 0.13, 0.96, 0.80))
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_xlim(-1.55, 1.55)
        ax.set_ylim(-1.45, 1.45)
        ax.set_title("Value moved between seats (gross, each way)", loc="left")
        pos = {a: (math.cos(2 * math.pi * k / max(n, 1) + math.pi / 2), math.sin(2 * math.pi * k / max(n, 1)
                                                                                  + math.pi / 2))
               for k, (a, *_rest) in enumerate(nodes)}
        if n > RADIAL_LABELS:  # a smaller circle: room for the labels along the radii, clear of title and legend
            pos = {a: (0.85 * x, 0.85 * y) for a, (x, y) in pos.items()}
        wealth = [w for _, _, w, _, _ in nodes if isinstance(w, (int, float)) and w > 0]
        top_w = max(wealth, default=1.0)
        radius_pt = {a: 7 + 15 * math.sqrt(max(float(w), 0) / top_w) if isinstance(w, (int, float)) else 8
                     for a, _, w, _, _ in nodes}
        scale = seat_scale(pos, radius_pt, {a for a, _, _, level, _ in nodes if level in ("flag", "review")})
        if scale < 1.0:
            radius_pt = {a: r * scale for a, r in radius_pt.items()}
        _draw_flows(ax, flows, round_trips, pos, radius_pt)
        _draw_round_trips(ax, round_trips, pos, {a: label for a, label, *_rest in nodes})
        _draw_seats(ax, nodes, pos, radius_pt, colors or {}, scale)
        _transfer_legend(ax)
        return _finish(fig, "transfer-graph", "value moved between seats")


def _draw_flows(ax: Any, flows: Sequence[tuple[str, str, float]], round_trips: Mapping[tuple[str, str], int],
                pos: Mapping[str, tuple[float, float]], radius_pt: Mapping[str, float]) -> None:
    """One curved arrow per giver and receiver, width and head by value against the largest flow, labelled
    with the value; a pair with round trips dashed in the round-trip colour."""
    from matplotlib.patches import FancyArrowPatch

    top = max((v for _, _, v in flows), default=1.0) or 1.0
    drawn = 0
    for giver, receiver, value in sorted(flows):
        if giver not in pos or receiver not in pos or value <= 0:
            continue
        pair = (giver, receiver) if giver < receiver else (receiver, giver)
        trip = pair in round_trips
        color = ROUND_TRIP_COLOR if trip else FLOW_COLOR
        (x1, y1), (x2, y2) = pos[giver], pos[receiver]
        rad = 0.18
        arrow = FancyArrowPatch((x1, y1), (x2, y2), connectionstyle=f"arc3,rad={rad}",
                                arrowstyle="-|>", mutation_scale=9 + 5 * value / top,
                                linewidth=0.7 + 4.5 * value / top, color=color, alpha=0.8,
                                linestyle="--" if trip else "-",
                                shrinkA=radius_pt[giver] + 2, shrinkB=radius_pt[receiver] + 3, zorder=2,
                                gid=f"flow-{drawn}")
        drawn += 1
        ax.add_patch(arrow)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        dx, dy = x2 - x1, y2 - y1
        lx, ly = mx + 0.5 * rad * dy, my - 0.5 * rad * dx
        text = f"{value:g}" if value == int(value) else f"{value:.1f}"
        ax.text(lx, ly, text, fontsize=7, ha="center", va="center", color=color, zorder=4,
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})


def _draw_round_trips(ax: Any, round_trips: Mapping[tuple[str, str], int], pos: Mapping[str, tuple[float, float]],
                      labels: Mapping[str, str]) -> None:
    """A note inside the circle for each group of seats joined by round trips: each pair and its count."""
    for members, pairs in _components(round_trips):
        inside = [pos[a] for a in members if a in pos]
        if not inside:
            continue
        cx = sum(x for x, _ in inside) / len(inside) * 0.55
        cy = sum(y for _, y in inside) / len(inside) * 0.55
        lines = ["↺ round trips"] + [f"{seat_label(labels[a])} – {seat_label(labels[b])}: {count}"
                                    for (a, b), count in pairs]
        ax.text(cx, cy, "\n".join(lines), fontsize=7.5, ha="center", va="center",
                color=ROUND_TRIP_COLOR, zorder=5,
                bbox={"boxstyle": "round,pad=0.3", "facecolor": "#f7f2fd", "edgecolor": ROUND_TRIP_COLOR,
                      "linewidth": 0.6, "alpha": 0.95})


POINTS_PER_UNIT = min(10.5 * 0.96 * 72 / 3.1, 9.8 * 0.80 * 72 / 2.9)
"""Points (the SVG's units) per unit of the transfer graph's axes: its height sets the scale (equal aspect)."""

HALO, RING, EDGE, SEAT_GAP = 4.5, 3.2, 1.0, 1.0
"""A seat's drawing on the transfer graph, in points: the white halo between a disc and its level's ring, the
ring's width, the disc's white edge, and the least room left between two seats' drawings."""


def seat_scale(pos: Mapping[str, tuple[float, float]], radius_pt: Mapping[str, float], ringed: set[str]) -> float:
    """The factor (at most 1) every seat's drawing on the transfer graph is scaled by so that no two overlap:
    for every two seats the distance of their centres is at least the sum of their outer radii (the disc and
    its edge, or its ring) and :data:`SEAT_GAP`.  A circle of 60 seats left 17 points between neighbours'
    centres for discs of up to 22 points' radius, drawn over each other.

    >>> seat_scale({"a": (0.0, 1.0), "b": (0.0, -1.0)}, {"a": 22.0, "b": 22.0}, {"a", "b"})
    1.0
    >>> round(seat_scale({"a": (0.0, 0.1), "b": (0.0, -0.1)}, {"a": 22.0, "b": 22.0}, set()), 3)
    0.843
    """
    outer = {a: r + (HALO + RING / 2 if a in ringed else EDGE / 2) for a, r in radius_pt.items()}
    seats = sorted(pos)
    scale = 1.0
    for i, a in enumerate(seats):
        (xa, ya), ra = pos[a], outer[a]
        for b in seats[i + 1:]:
            room = math.dist((xa, ya), pos[b]) * POINTS_PER_UNIT - SEAT_GAP
            if (ra + outer[b]) * scale > room:
                scale = max(room, 0.0) / (ra + outer[b])
    return scale


RADIAL_LABELS = 24
"""Past this many seats the transfer graph writes each seat's label along its radius, on one line (its
wealth is the node's size, and the tables' figure): written level, two or three lines each, the labels of
neighbouring seats at the top and bottom of the circle overlapped (61 seats)."""


def _draw_seats(ax: Any, nodes: Sequence[tuple[str, str, float | None, str | None, bool]],
                pos: Mapping[str, tuple[float, float]], radius_pt: Mapping[str, float],
                colors: Mapping[str, str], scale: float = 1.0) -> None:
    """Each seat a disc sized by its final wealth (a ring in the level's colour when a flag or review names
    it), labelled outside the circle with its name and wealth; ``radius_pt`` already scaled by ``scale``
    (:func:`seat_scale`), which scales the halo, the ring and the edge too."""
    for k, (agent, label, w, level, emphasized) in enumerate(nodes):
        x, y = pos[agent]
        if level in ("flag", "review"):  # a ring in the level's colour around a white halo
            ax.plot([x], [y], "o", markersize=2 * radius_pt[agent] + 2 * HALO * scale, color="white",
                    markeredgecolor=FLAG_COLOR if level == "flag" else REVIEW_COLOR, markeredgewidth=RING * scale,
                    zorder=6)
        ax.plot([x], [y], "o", markersize=2 * radius_pt[agent], color=colors.get(agent, "#9aa3b5"),
                markeredgecolor="white", markeredgewidth=EDGE * scale, zorder=6, alpha=0.95, gid=f"node-{k}")
        reach = 1.06 + (radius_pt[agent] + 9 * scale) / POINTS_PER_UNIT  # just outside the node and its ring
        if len(nodes) > RADIAL_LABELS:  # one line along the node's radius: neighbours' labels never overlap
            angle = math.degrees(math.atan2(y, x))
            left = x < -1e-9
            ax.text(x * reach, y * reach, seat_label(label), ha="right" if left else "left", va="center",
                    rotation=angle + 180 if left else angle, rotation_mode="anchor", fontsize=7.5,
                    fontweight="bold" if emphasized else "normal", zorder=7)
            continue
        lx, ly = x * reach + (0.0 if abs(x) < 0.2 else 0.04 * math.copysign(1, x)), y * reach
        ha = "center" if abs(x) < 0.2 else ("left" if x > 0 else "right")
        ax.text(lx, ly, seat_label(label) + (f"\n{_money(w)}" if isinstance(w, (int, float)) else ""), ha=ha,
                va="center", fontsize=8.5, fontweight="bold" if emphasized else "normal", zorder=7)


def _transfer_legend(ax: Any) -> None:
    """The transfer graph's legend, under the plot: flows, round trips, seats and the two rings."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([0], [0], color=FLOW_COLOR, linewidth=2.5, label="value given (arrow to the receiver; "
                                                               "width and label: value)"),
        Line2D([0], [0], color=ROUND_TRIP_COLOR, linewidth=2.5, linestyle="--",
               label="round trips a screen flagged (the same goods sent back)"),
        Line2D([0], [0], marker="o", color="white", markerfacecolor="#9aa3b5", markersize=11,
               label="seat (size: final wealth)"),
        Line2D([0], [0], marker="o", color="white", markerfacecolor="white", markeredgecolor=FLAG_COLOR,
               markeredgewidth=3, markersize=13, label="ring: a seat a flag names"),
        Line2D([0], [0], marker="o", color="white", markerfacecolor="white", markeredgecolor=REVIEW_COLOR,
               markeredgewidth=3, markersize=13, label="ring: a seat only a review names"),
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, 0.0), ncol=2, frameon=False,
              fontsize=8)


def _money(w: Any) -> str:
    return f"wealth {w:g}" if float(w) == int(w) else f"wealth {w:.1f}"


def heatmap_svg(key: str, title: str, labels: Sequence[str], matrix: Sequence[Sequence[float | None]], *,
                scale: str, rows: str, columns: str) -> str:
    """A seat x seat matrix (``None`` cells, e.g. the diagonal, left blank) with a colour bar labelled
    ``scale``; rows and columns in seat order, labelled ``rows`` and ``columns``."""
    import numpy as np

    n = len(labels)
    with _style(None):
        side = max(4.5, 0.42 * n + 2.8)
        shown_labels = [seat_label(x) for x in labels]
        # the margin the longest label needs (8-point text, about 5.4 points a character, the axis title
        # beside): a short one fits the usual margins (a quarter of the figure); a longer one widens them
        need = 5.4 * max((len(_visible(x)) for x in shown_labels), default=0) / 72 + 0.45
        left, bottom = max(0.0, need - 0.26 * (side + 1.6)), max(0.0, need * 0.87 + 0.1 - 0.26 * side)
        width, height = side + 1.6 + left, side + bottom
        fig = _figure(key, width, height)

        def box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
            """A rectangle in fractions of the figure as it would be without wider margins, moved by them."""
            if not left and not bottom:
                return x, y, w, h
            return ((x * (side + 1.6) + left) / width, (y * side + bottom) / height, w * (side + 1.6) / width,
                    h * side / height)

        ax = fig.add_axes(box(0.26, 0.26, 0.58, 0.62))
        data = np.array([[np.nan if v is None else float(v) for v in row] for row in matrix], dtype=float)
        masked = np.ma.masked_invalid(data)
        image = ax.imshow(masked, cmap="Blues", vmin=0, vmax=max(float(np.nanmax(data)) if n and not
                                                                 np.all(np.isnan(data)) else 1.0, 1.0),
                          interpolation="nearest", aspect="equal")
        ax.set_xticks(range(n), shown_labels, rotation=60, ha="right", fontsize=8)
        ax.set_yticks(range(n), shown_labels, fontsize=8)
        ax.set_xlabel(columns)
        ax.set_ylabel(rows)
        ax.set_title(title, loc="left")
        ax.spines[:].set_visible(False)
        ax.set_xticks(np.arange(-0.5, n, 1), minor=True)
        ax.set_yticks(np.arange(-0.5, n, 1), minor=True)
        ax.grid(which="minor", color="white", linewidth=1.2)
        ax.tick_params(which="minor", length=0)
        peak = float(np.nanmax(data)) if n and not np.all(np.isnan(data)) else 0.0
        if n <= 16:
            for i in range(n):
                for j in range(n):
                    v = data[i, j]
                    if not np.isnan(v) and v > 0:
                        ax.text(j, i, f"{v:g}" if v == int(v) else f"{v:.1f}", ha="center", va="center",
                                fontsize=6.5, color="white" if v > 0.6 * peak else "#1d2330")
        cax = fig.add_axes(box(0.86, 0.26, 0.025, 0.62))
        bar = fig.colorbar(image, cax=cax)
        bar.set_label(scale)
        return _finish(fig, key, title)


def chains_svg(chains: Sequence[tuple[str, Sequence[tuple[int, int | None, str, int | None, str | None]]]]) -> str:
    """Propagation chains over time: per chain ``(title, messages)``, each message ``(event id, tick,
    sender label, parent event id, tier)`` in depth-first order; a line from each message to the one it
    echoed; each point links to ``#ev-<id>``."""
    from matplotlib.lines import Line2D

    tiers = {"persuasion": "#3d6bd6", "hijack": FLAG_COLOR, "protocol": REVIEW_COLOR}
    echo = "#8a93a6"
    rows = sum(len(m) for _, m in chains) + len(chains)
    with _style(None):
        fig = _figure("chains", 9.0, max(2.4, 0.24 * rows + 1.6))
        ax = fig.add_axes((0.22, 1.1 / max(2.4, 0.24 * rows + 1.6), 0.47, 1 - 1.6 / max(2.4, 0.24 * rows + 1.6)))
        ticks = [t for _, ms in chains for _, t, _, _, _ in ms if isinstance(t, int)]
        t0, t1 = (min(ticks), max(ticks)) if ticks else (0, 1)
        y = 0
        ylabels: list[tuple[int, str]] = []
        where: dict[int, tuple[float, int]] = {}
        for title, messages in chains:
            ylabels.append((y, plain(title)))
            y += 1
            for event, tick, sender, parent, tier in messages:
                x = float(tick) if isinstance(tick, int) else float(t0)
                where[event] = (x, y)
                if parent is not None and parent in where:
                    px, py = where[parent]
                    ax.plot([px, px, x], [py, y, y], "-", color="#8a93a6", linewidth=1, zorder=1)
                color = tiers.get(tier, echo) if tier is not None else echo
                point = ax.plot([x], [y], "o", color=color, markersize=7 if tier else 5, zorder=3)[0]
                point.set_url(f"#ev-{int(event)}")
                label = ax.text(x + (t1 - t0 + 1) * 0.012, y, f"{seat_label(sender)} · event {int(event)}", fontsize=7.5,
                                va="center", zorder=4)
                label.set_url(f"#ev-{int(event)}")
                y += 1
        ax.set_ylim(y - 0.5, -0.7)
        ax.set_xlim(t0 - (t1 - t0 + 1) * 0.03, t1 + (t1 - t0 + 1) * 0.35)
        ax.set_yticks([p for p, _ in ylabels], [t for _, t in ylabels], fontsize=8)
        ax.set_xlabel("tick")
        ax.set_title("Propagation chains (each message linked to the one it echoed)", loc="left")
        ax.grid(True, axis="x", color="#e3e6ec", linewidth=0.6)
        handles = [Line2D([0], [0], marker="o", color="white", markerfacecolor=c, markersize=7,
                          label=f"root: a {t} message") for t, c in tiers.items()]
        handles.append(Line2D([0], [0], marker="o", color="white", markerfacecolor=echo, markersize=5,
                              label="a message echoing it"))
        handles.append(Line2D([0], [0], color=echo, label="echoed (from the earlier message)"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
        return _finish(fig, "propagation-chains", "propagation chains over time")
