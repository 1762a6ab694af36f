"""The HTML report as a reader's browser lays it out: words kept whole in table cells and headers, long
unbroken texts wrapped inside their box, nothing widening the page, plots that keep their labels inside."""

from __future__ import annotations

import functools
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.report.render.html import STYLE

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                    reason="Debian's chromium is not installed")


def _behavior_page(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["behavior", *args, "--format", "html", "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    return out


def _probe(page: Path, script: str, tmp_path: Path, size: str = "1280,900") -> dict[str, str]:
    """Open ``page`` in headless Chromium at ``size`` (CSP dropped, every ``<details>`` opened) and run
    ``script`` after load; it sets ``data-*`` attributes on the body, returned here."""
    if CHROMIUM is None:
        pytest.fail("CI must have Chromium: .ci/run installs Debian's chromium package")
    probe = ("<script>window.addEventListener('load', () => setTimeout(() => {"
             "document.querySelectorAll('details').forEach(d => d.open = true);" + script + "}, 500));</script>")
    copy = tmp_path / f"probe-{page.stem}.html"
    copy.write_text(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page.read_text(encoding="utf-8"))
                    .replace("</body>", probe + "</body>"), encoding="utf-8")
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
         f"--window-size={size}", "--virtual-time-budget=4000", "--dump-dom", copy.as_uri()],
        capture_output=True, text=True, timeout=180, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    body = re.search(r"<body([^>]*)>", proc.stdout)
    assert body is not None
    return dict(re.findall(r'data-(\w+)="([^"]*)"', body.group(1)))


BROKEN_WORDS = (
    "const broken = [];"
    "for (const c of document.querySelectorAll('th, td')) {"
    "  const walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT); let n;"
    "  while ((n = walker.nextNode())) {"
    "    if (n.parentElement.closest('.brk, pre, svg')) continue;"
    "    const re = /[^\\s\\-\\u2013\\/]+/g; let m;"  # a word: broken at a hyphen, a dash or a slash is fine
    "    while ((m = re.exec(n.data))) {"
    "      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);"
    "      const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));"
    "      if (tops.size > 1) broken.push(m[0]); } } }"
    "document.body.setAttribute('data-broken', [...new Set(broken)].join(' '));"
)


def test_cells_break_only_long_runs_and_headers_keep_their_words() -> None:
    """The CSS lets only a marked long run break anywhere; cells and headers wrap between words."""
    rules = {k.strip(): v for k, v in re.findall(r"([^{}]+)\{([^{}]*)\}", STYLE)}
    assert "overflow-wrap:anywhere" not in rules["th,td"] and "word-break" not in rules["th,td"]
    assert rules[".brk"] == "overflow-wrap:anywhere"
    assert "white-space:nowrap" in rules[".lv"]  # a level's pill ("review") is never cut into letters


def test_a_long_name_in_a_cell_is_marked_to_break(tmp_path: Path) -> None:
    from .matchkit import archive, ev, trade, write_match

    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(3, 2, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1})]
    arch = archive(["a_1", "a_2"], ended=10)
    arch["agents"][0]["name"] = "W" * 300
    page = _behavior_page(tmp_path, str(write_match(tmp_path, events, arch))).read_text(encoding="utf-8")
    assert f'<a class="seat" href="#seat-1"><bdi><span class="brk">{"W" * 300}</span></bdi> (a_1)</a>' in page
    assert "<th>seat</th>" in page and "<td>player</td>" in page  # short words: no mark


@needs_chromium
def test_demo_headers_and_words_are_not_cut_into_letters(tmp_path: Path) -> None:
    """At 1280 pixels, the demo's page with a seat in focus cut "message", "tick" and "evidence" (headers of
    its messages table) and "persuasion" into two lines each; no word of a cell or header is now broken
    (only at a hyphen, a dash or a slash)."""
    page = _behavior_page(tmp_path, "m_demo", "--agent", "Tarn")
    attrs = _probe(page, BROKEN_WORDS, tmp_path)
    assert attrs["broken"] == ""


PAGE_WIDTH = ("document.body.setAttribute('data-scroll', String(document.documentElement.scrollWidth));"
              "document.body.setAttribute('data-inner', String(document.documentElement.clientWidth));")


def test_every_table_scrolls_inside_its_own_box(tmp_path: Path) -> None:
    page = _behavior_page(tmp_path, "m_demo", "--agent", "Tarn").read_text(encoding="utf-8")
    assert page.count("<table>") == page.count('<div class="wide"><table>') > 10
    assert page.count("</table>") == page.count("</table></div>")
    rules = {k.strip(): v for k, v in re.findall(r"([^{}]+)\{([^{}]*)\}", STYLE)}
    assert rules[".wide"] == "overflow-x:auto;max-width:100%"


@needs_chromium
def test_the_demo_on_a_phone_is_no_wider_than_the_screen(tmp_path: Path) -> None:
    """On a phone-sized window the seats table (19 columns) made the whole page scroll sideways (1,064
    pixels wide in a 485-pixel window); a wide table now scrolls inside its own box."""
    page = _behavior_page(tmp_path, "m_demo")
    attrs = _probe(page, PAGE_WIDTH, tmp_path, size="420,900")
    assert int(attrs["scroll"]) <= int(attrs["inner"]), attrs


def _long_named_match(tmp_path: Path) -> Path:
    """Three seats, two named with long unbroken words, trading and snapshotted (every plot drawn)."""
    from .matchkit import archive, ev, trade, write_match

    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 0, "agent_spawned", "a_3", region="r_0_1"),
              *trade(4, 2, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1}),
              *trade(6, 3, "t2", "a_2", "a_3", {"wood": 1}, {"food": 2}),
              ev(8, 5, "agent_snapshot", "a_1", region="r_0_0", energy=10, wealth=12.0, inventoryHash="x"),
              ev(9, 5, "agent_snapshot", "a_2", region="r_0_0", energy=10, wealth=8.0, inventoryHash="z"),
              ev(10, 5, "agent_snapshot", "a_3", region="r_0_1", energy=10, wealth=5.0, inventoryHash="w")]
    arch = archive(["a_1", "a_2", "a_3"], ended=10)
    arch["agents"][0]["name"] = "R" * 500
    arch["agents"][1]["name"] = "x" * 80 + " " + "y" * 80
    return write_match(tmp_path, events, arch)


TEXT_OUTSIDE_PLOTS = (
    "const out = [];"
    "for (const svg of document.querySelectorAll('svg.plot')) { const b = svg.getBoundingClientRect();"
    "  for (const t of svg.querySelectorAll('text')) { const r = t.getBoundingClientRect();"
    "    if (r.width > 0 && (r.right > b.right + 1 || r.left < b.left - 1 || r.bottom > b.bottom + 1"
    "        || r.top < b.top - 1)) out.push(svg.id + ': ' + (t.textContent || '').slice(0, 30)); } }"
    "document.body.setAttribute('data-plots', String(document.querySelectorAll('svg.plot').length));"
    "document.body.setAttribute('data-outside', out.join(' / '));"
)


def test_a_long_name_is_cut_on_the_plots_and_whole_in_the_tables(tmp_path: Path) -> None:
    page = _behavior_page(tmp_path, str(_long_named_match(tmp_path))).read_text(encoding="utf-8")
    plots = re.findall(r"<svg class=\"plot\".*?</svg>", page, re.S)
    assert len(plots) == 4  # wealth, transfer graph, contact and value heatmaps
    for svg in plots:
        assert "R" * 14 not in svg and "x" * 14 not in svg
        assert "RRRRRRRRRRRRR… (a_1)" in svg and "xxxxxxxxxxxxx… (a_2)" in svg
    assert f'<bdi><span class="brk">{"R" * 500}</span></bdi> (a_1)' in page  # the tables write it whole


@needs_chromium
def test_a_long_name_stays_inside_every_plot(tmp_path: Path) -> None:
    """A seat named with 500 characters without a space ran out of every plot: its label at the end of its
    wealth line, its legend entry (which pushed the other seats' entries out of sight), its node's label on
    the transfer graph and the heatmaps' row and column labels. A plot now writes at most 20 characters of a
    seat's label, the id kept: every text of every plot is inside its figure."""
    page = _behavior_page(tmp_path, str(_long_named_match(tmp_path)))
    attrs = _probe(page, TEXT_OUTSIDE_PLOTS, tmp_path)
    assert attrs["plots"] == "4" and attrs["outside"] == "", attrs


@needs_chromium
def test_the_demo_chains_legend_is_inside_its_figure(tmp_path: Path) -> None:
    """The legend of the demo's propagation chains ran past the figure's right edge ("echoed (from the
    earlier message)" cut after "earlier"); the plot is narrower now, and every text of every plot of the
    demo's page is inside its figure."""
    page = _behavior_page(tmp_path, "m_demo")
    attrs = _probe(page, TEXT_OUTSIDE_PLOTS, tmp_path)
    assert attrs["plots"] == "5" and attrs["outside"] == "", attrs


@needs_chromium
def test_the_wealth_legend_of_a_large_match_is_inside_its_figure(tmp_path: Path) -> None:
    """A match of 61 seats names 20 wealth lines and draws the rest grey: 21 legend entries, six rows
    under the plot, of which the sixth ("Wynn (a_20a3)") was cut off at the figure's bottom. The figure is
    now taller by the rows it needs, and every text is inside it."""
    from daishi_forensics.report.render.plots import PALETTE, wealth_svg

    series = [(f"Seat{k:02d} (a_{k:04x})", [(0, 1.0), (50, float(k))], k < 3, PALETTE[k]) for k in range(20)]
    svg = wealth_svg(series, start=0, end=50, unnamed=[[(0, 1.0), (50, 2.0)]] * 41)
    page = tmp_path / "wealth.html"
    page.write_text(f"<!DOCTYPE html><html><body style=\"width:1240px\">{svg}</body></html>", encoding="utf-8")
    attrs = _probe(page, TEXT_OUTSIDE_PLOTS, tmp_path)
    assert attrs["plots"] == "1" and attrs["outside"] == "", attrs


def _pdf_pages(page: Path, tmp_path: Path) -> int:
    if CHROMIUM is None:
        pytest.fail("CI must have Chromium: .ci/run installs Debian's chromium package")
    pdf = tmp_path / f"{page.stem}.pdf"
    proc = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
         "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()],
        capture_output=True, text=True, timeout=180, check=False,
    )
    assert proc.returncode == 0 and pdf.is_file(), proc.stderr[-2000:]
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf.read_bytes()))


@needs_chromium
def test_printing_the_page_prints_what_its_details_hold(tmp_path: Path) -> None:
    """Printed (to PDF), the page left every collapsed part out: the evidence events, the trade ledger and
    every long table printed as their one-line summary ("The events: N"), so the printed report's evidence
    links led nowhere (the demo with --agent Tarn: 19 pages, not one event). In print every part is open:
    the page prints as long as with every part opened by hand."""
    page = _behavior_page(tmp_path, str(_long_named_match(tmp_path)))
    text = page.read_text(encoding="utf-8")
    assert "<details>" in text
    opened = tmp_path / "opened.html"
    opened.write_text(text.replace("<details>", "<details open>").replace('<details class="more">',
                                                                         '<details class="more" open>'),
                      encoding="utf-8")
    assert _pdf_pages(page, tmp_path) == _pdf_pages(opened, tmp_path) > 1


def _contrast_on_white(color: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(color[k:k + 2], 16)) for k in (1, 3, 5))
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


@pytest.mark.parametrize("args", [("m_demo",), ("m_demo", "--agent", "Tarn")])
def test_wealth_line_labels_are_readable(tmp_path: Path, args: tuple[str, ...]) -> None:
    """The labels at the end of the wealth lines were drawn in the lines' own colours, some too pale to read
    on white ("Thorne (a_c79a)" in #bcbd22, 2:1), and with a seat in focus the others' labels at half opacity
    on top of that. Each label is now its line's colour darkened to WCAG's 4.5:1 for small text, opaque."""
    page = _behavior_page(tmp_path, *args).read_text(encoding="utf-8")
    svg = re.search(r'<svg class="plot" id="wealth-lines".*?</svg>', page, re.S)
    assert svg is not None
    labels = re.findall(r'<text style="([^"]*)"[^>]*>([^<]*\(a_[0-9a-f]{4}\))</text>', svg.group(0))
    ends = [(style, name) for style, name in labels if "fill:" in style]
    assert len(ends) == 13, labels  # one at the end of each seat's line
    for style, name in ends:
        fill = re.search(r"fill: (#[0-9a-f]{6})", style)
        assert fill is not None and "opacity" not in style, (name, style)
        assert _contrast_on_white(fill.group(1)) >= 4.5, (name, style)


@needs_chromium
def test_seat_labels_on_a_large_transfer_graph_do_not_overlap(tmp_path: Path) -> None:
    """With 60 seats, the transfer graph wrote each label level, on two lines (name, wealth): at the top and
    the bottom of the circle, neighbouring labels ("Nell (a_1152)" over "Flint (a_96e1)") were drawn over
    each other. Past 24 seats each label is one line along its node's radius: the labels at the top of the
    circle are side by side, none over another."""
    from daishi_forensics.report.render.plots import transfer_svg

    nodes = [(f"a_{k:04x}", f"Seat{k:02d} (a_{k:04x})", float(10 + k), None, False) for k in range(60)]
    svg = transfer_svg(nodes, [("a_0000", "a_0001", 5.0)], {})
    page = tmp_path / "transfer.html"
    page.write_text(f"<!DOCTYPE html><html><body style=\"width:1240px\">{svg}</body></html>", encoding="utf-8")
    script = (
        "const b = document.querySelector('svg.plot').getBoundingClientRect();"
        "const top = [...document.querySelectorAll('svg.plot text')].filter(t => /\\(a_/.test(t.textContent))"
        "  .map(t => [t.textContent, t.getBoundingClientRect()])"
        "  .filter(([, r]) => Math.abs((r.left + r.right) / 2 - (b.left + b.right) / 2) < 0.08 * b.width"
        "    && (r.top + r.bottom) / 2 < b.top + 0.35 * b.height);"
        "const hits = [];"
        "for (let i = 0; i < top.length; i++) for (let j = i + 1; j < top.length; j++) {"
        "  const [p, r] = top[i], [q, s] = top[j];"
        "  if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1)"
        "    hits.push(p + ' over ' + q); }"
        "document.body.setAttribute('data-top', String(top.length));"
        "document.body.setAttribute('data-overlaps', hits.join(' / '));"
    )
    attrs = _probe(page, script, tmp_path)
    assert int(attrs["top"]) >= 3 and attrs["overlaps"] == "", attrs
    attrs = _probe(page, TEXT_OUTSIDE_PLOTS, tmp_path)
    assert attrs["outside"] == "", attrs


SEAT_DISCS = (
    "const overlaps = [], counts = [];"
    "for (const svg of document.querySelectorAll('svg.plot')) {"
    "  const seats = new Map();"
    "  for (const use of svg.querySelectorAll('g[clip-path] > use')) {"  # every seat's disc and ring, no legend
    "    const r = use.getBoundingClientRect(), scale = use.getScreenCTM().a;"
    "    const stroke = parseFloat(getComputedStyle(use).strokeWidth || '1') * scale;"
    "    const key = use.getAttribute('x') + ',' + use.getAttribute('y');"
    "    const outer = r.width / 2 + stroke / 2;"
    "    seats.set(key, [(r.left + r.right) / 2, (r.top + r.bottom) / 2, Math.max(outer, (seats.get(key) || [0, 0, 0])[2])]); }"
    "  const c = [...seats.values()]; counts.push(c.length);"
    "  for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) {"
    "    const d = Math.hypot(c[i][0] - c[j][0], c[i][1] - c[j][1]);"
    "    if (d < c[i][2] + c[j][2]) overlaps.push(svg.dataset.seats + ': ' + d.toFixed(1) + ' < '"
    "      + (c[i][2] + c[j][2]).toFixed(1)); } }"
    "document.body.setAttribute('data-counts', counts.join(' '));"
    "document.body.setAttribute('data-overlaps', overlaps.slice(0, 20).join(' / '));"
)
"""For every transfer graph on a page: its seats (a disc, its ring), and every two whose drawings overlap
(the distance of their centres under the sum of their outer radii, stroke included)."""


def _svg_seats(svg: str) -> list[tuple[float, float, float]]:
    """The seats of a transfer graph's SVG as ``(x, y, outer radius)`` in its units: each seat's disc (and
    ring) is a marker drawn in the axes (a ``<use>`` in a clipped group: the legend's are not)."""
    radius = {i: max(abs(float(x)) for x in re.findall(r"-?\d+(?:\.\d+)?", d))
              for i, d in re.findall(r'<path id="([^"]+)" d="([^"]*)"', svg)}
    seats: dict[tuple[float, float], float] = {}
    for ref, x, y, style in re.findall(r'<g clip-path="url\(#[^)]*\)">\s*<use xlink:href="#([^"]+)" '
                                       r'x="([-\d.]+)" y="([-\d.]+)" style="([^"]*)"', svg):
        stroke = re.search(r"stroke-width: ([\d.]+)", style)
        outer = radius[ref] + (float(stroke.group(1)) if stroke else 1.0) / 2
        seats[(float(x), float(y))] = max(outer, seats.get((float(x), float(y)), 0.0))
    return [(x, y, r) for (x, y), r in seats.items()]


def _disc_overlaps(svg: str) -> list[str]:
    seats = _svg_seats(svg)
    return [f"({a[0]:.1f}, {a[1]:.1f}) and ({b[0]:.1f}, {b[1]:.1f}): {math.dist(a[:2], b[:2]):.1f} < {a[2] + b[2]:.1f}"
            for i, a in enumerate(seats) for b in seats[i + 1:] if math.dist(a[:2], b[:2]) < a[2] + b[2]]


@functools.cache
def _crowded_graph(n: int) -> str:
    """A transfer graph of ``n`` seats each as large as a seat is drawn (the richest) and ringed (a flag)."""
    from daishi_forensics.report.render.plots import transfer_svg

    nodes = [(f"a_{k:04x}", f"Seat{k:02d} (a_{k:04x})", 100.0, "flag" if k % 2 else "review", False)
             for k in range(n)]
    return transfer_svg(nodes, [("a_0000", "a_0001", 5.0)], {})


def _simulated_page(tmp_path: Path, agents: int) -> Path:
    out = tmp_path / "simulated"
    result = CliRunner().invoke(main, ["simulate", "--scenario", "mixed", "--agents", str(agents), "--ticks", "60",
                                       "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return _behavior_page(tmp_path, str(out))


def test_the_seats_of_a_large_transfer_graph_are_drawn_apart(tmp_path: Path) -> None:
    """The behavior page of a simulated match of 60 players (61 seats with its probe seat) drew its transfer
    graph's seat discs over each other: 17 points between neighbours' centres for discs of up to 22 points'
    radius, 73 pairs overlapping. Every seat's drawing (disc, ring) is now scaled so that no two overlap,
    measured in the SVG; a graph whose seats had room is drawn as before (the demo's: 13 seats)."""
    page = _simulated_page(tmp_path, 60).read_text(encoding="utf-8")
    svg = re.search(r'<svg class="plot" id="transfer-graph".*?</svg>', page, re.S)
    assert svg is not None
    assert len(_svg_seats(svg.group(0))) == 61
    assert _disc_overlaps(svg.group(0)) == []
    demo = _behavior_page(tmp_path, "m_demo").read_text(encoding="utf-8")
    graph = re.search(r'<svg class="plot" id="transfer-graph".*?</svg>', demo, re.S)
    assert graph is not None
    assert sorted(round(r, 3) for _, _, r in _svg_seats(graph.group(0)))[::4] == [7.5, 16.565, 19.481, 28.1]  # as drawn before


def test_no_two_seats_overlap_from_2_to_100(tmp_path: Path) -> None:
    """From 2 to 100 seats, every one drawn as large as a seat is and ringed (the worst case: a circle of 22
    such seats already overlapped), no two seats' drawings overlap."""
    overlaps = {n: found for n in range(2, 101) if (found := _disc_overlaps(_crowded_graph(n)))}
    assert overlaps == {}


@needs_chromium
def test_the_seats_of_transfer_graphs_do_not_overlap_in_a_browser(tmp_path: Path) -> None:
    """Measured as a browser draws them (centres and radii of the seats' discs and rings, on the page as laid
    out): the transfer graphs of 2 to 100 seats, each seat ringed and as large as a seat is, and the page of a
    simulated match of 61 seats; no two seats overlap."""
    graphs = "".join(_crowded_graph(n).replace('<svg class="plot" id="transfer-graph"',
                                               f'<svg class="plot" id="transfer-graph-{n}" data-seats="{n}"', 1)
                     for n in range(2, 101))
    page = tmp_path / "graphs.html"
    page.write_text(f"<!DOCTYPE html><html><body style=\"width:1240px\">{graphs}</body></html>", encoding="utf-8")
    attrs = _probe(page, SEAT_DISCS, tmp_path)
    assert attrs["counts"] == " ".join(str(n) for n in range(2, 101)) and attrs["overlaps"] == "", attrs
    attrs = _probe(_simulated_page(tmp_path, 60), SEAT_DISCS.replace("svg.plot", "svg#transfer-graph"), tmp_path)
    assert attrs["counts"] == "61" and attrs["overlaps"] == "", attrs


NUMBERS_WHOLE = (
    "const number = '[+\\\\-\\\\u2212]?(?:\\\\d[\\\\d,]*(?:\\\\.\\\\d+)?|\\\\.\\\\d+)(?:e[+\\\\-]?\\\\d+)?%?';"
    "const re = new RegExp('^' + number + '(?: ?[\\\\u2013\\\\-\\\\u2026/] ?' + number + ')?$');"
    "const broken = []; let n = 0;"
    "for (const c of document.querySelectorAll('td')) {"
    "  const t = c.textContent.trim(); if (!re.test(t)) continue; n++;"
    "  const r = document.createRange(); r.selectNodeContents(c);"
    "  const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));"
    "  if (tops.size > 1) broken.push(t); }"
    "document.body.setAttribute('data-numbers', String(n));"
    "document.body.setAttribute('data-broken', [...new Set(broken)].join(' | '));"
)
"""Every table cell that is a number, or two joined by a dash, a hyphen, an ellipsis or a slash, and those of
them laid out on more than one line."""


def _compare_page(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "c.html"
    result = CliRunner().invoke(main, ["compare", *args, "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_numbers_in_cells_are_numeric_cells_as_written(tmp_path: Path) -> None:
    """A number written as text (a p-value, an interval, a range of ticks, a share "1/3") was an ordinary
    cell, which a browser breaks at its hyphen or dash; it is now a numeric cell (right-aligned, never
    wrapped), its characters as they were: a copy of "5.96e-08" is still a number a spreadsheet reads."""
    page = _behavior_page(tmp_path, "m_demo").read_text(encoding="utf-8")
    for text in ("5.96e-08", "0.439–1.000", "0–239", "1/3"):
        assert f'<td class="n">{text}</td>' in page and f"<td>{text}</td>" not in page, text
    rules = {k.strip(): v for k, v in re.findall(r"([^{}]+)\{([^{}]*)\}", STYLE)}
    assert "white-space:nowrap" in rules["td.n"]
    compared = _compare_page(tmp_path, "m_demo", "m_demo").read_text(encoding="utf-8")
    assert '<td class="n">-0.533 … 0.533</td>' in compared and '<td class="n">0</td>' in compared


@needs_chromium
@pytest.mark.parametrize("size", ["1280,900", "420,900"])
def test_numbers_in_cells_are_never_broken(tmp_path: Path, size: str) -> None:
    """The demo's page cut "5.96e-08" after its hyphen, and the intervals ("0.439–1.000") and its range of
    ticks ("0–239") after their dash at a phone's width; the comparison of the demo with a simulated match
    cut its intervals ("-0.792 … 0.505"). No number in a cell of either page is on two lines now."""
    for page in (_behavior_page(tmp_path, "m_demo"), _behavior_page(tmp_path, "m_demo", "--agent", "Tarn")):
        attrs = _probe(page, NUMBERS_WHOLE, tmp_path, size=size)
        assert int(attrs["numbers"]) > 1000 and attrs["broken"] == "", attrs
    simulated = tmp_path / "simulated"
    assert CliRunner().invoke(main, ["simulate", "--scenario", "mixed", "--agents", "12", "--ticks", "60",
                                     "--out", str(simulated), "-q"]).exit_code == 0
    attrs = _probe(_compare_page(tmp_path, "m_demo", str(simulated)), NUMBERS_WHOLE, tmp_path, size=size)
    assert int(attrs["numbers"]) > 20 and attrs["broken"] == "", attrs
