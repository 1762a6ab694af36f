"""A seat named in a right-to-left script on the behavior page's figures: its name between the isolates FSI and
PDI, so the browser lays it out apart from its id and the text around it, as the page's cells put it in <bdi>."""

from __future__ import annotations

import re
from pathlib import Path

from daishi_forensics.report.render.plots import chains_svg, heatmap_svg, seat_label, transfer_svg, wealth_svg

from .test_html_page_layout import _probe, needs_chromium

NAME = "שרה"
LABEL = f"{NAME} (7)"
ISOLATED = f"\u2068{NAME}\u2069 (7)"


def _figures() -> dict[str, str]:
    """Every figure that writes a seat's label, a seat named "שרה" of id 7 beside one named "Ash" of id a_2."""
    pts = [(0, 5.0), (5, 9.0)]
    return {
        "wealth": wealth_svg([(LABEL, pts, True, None), ("Ash (a_2)", pts, False, None)], start=0, end=5),
        "transfer": transfer_svg([("7", LABEL, 10.0, "flag", False), ("a_2", "Ash (a_2)", 4.0, None, False)],
                                 [("7", "a_2", 3.0), ("a_2", "7", 2.0)], {("7", "a_2"): 2}),
        "heatmap": heatmap_svg("contact-heatmap", "Ticks together", [LABEL, "Ash (a_2)"], [[None, 2.0], [2.0, None]],
                               scale="ticks", rows="seat", columns="seat"),
        "chains": chains_svg([("chain 1 (reach 1)", [(1, 0, LABEL, None, "hijack"), (2, 3, "Ash (a_2)", 1, None)])]),
    }


def test_a_right_to_left_name_is_isolated_in_every_figures_labels() -> None:
    """The figures wrote "שרה (7)" bare in their text (the wealth lines' end labels and legend, the transfer
    graph's seats and round-trip note, the heatmaps' ticks, the chains' senders): a browser took the id into the
    name's right-to-left run and showed "(7) שרה".  Each now writes the name between FSI and PDI; a name in a
    left-to-right script is written as before."""
    assert seat_label(LABEL) == ISOLATED
    assert seat_label(f"{NAME * 10} (a_1)") == f"\u2068{(NAME * 10)[:13]}…\u2069 (a_1)"
    assert seat_label("Ash (שרה)") == f"Ash (\u2068{NAME}\u2069)"
    assert seat_label("Ash (a_2)") == "Ash (a_2)" and seat_label("a_2") == "a_2"
    texts = {key: re.findall(r"<text\b[^>]*>([^<]*)</text>", svg) for key, svg in _figures().items()}
    assert [t for t in texts["wealth"] if NAME in t] == [ISOLATED, f"{ISOLATED}  (flagged)"]
    assert [t for t in texts["transfer"] if NAME in t] == [f"{ISOLATED} – Ash (a_2): 2", ISOLATED]
    assert [t for t in texts["heatmap"] if NAME in t] == [ISOLATED, ISOLATED]
    assert [t for t in texts["chains"] if NAME in t] == [f"{ISOLATED} · event 1"]
    assert all("Ash (a_2)" in " ".join(t) and "\u2068Ash" not in " ".join(t) for t in texts.values())


NAME_FIRST = (
    "const out = [];"
    "for (const t of document.querySelectorAll('svg.plot text')) {"
    "  const s = t.textContent; const i = s.indexOf('" + NAME + "'); if (i < 0) continue;"
    "  const name = [0, 1, 2].map(k => t.getExtentOfChar(i + k));"
    "  const id = t.getExtentOfChar(s.indexOf('(7)', i)).x;"
    "  const bare = t.cloneNode(true); bare.textContent = s.replace(/[\\u2068\\u2069]/g, '');"
    "  t.parentNode.appendChild(bare);"  # the same text without the isolates: as wide (to a rounding), if they draw nothing; a box is 4 px or more
    "  const boxed = Math.abs(bare.getComputedTextLength() - t.getComputedTextLength()) > 0.5;"
    "  out.push(t.closest('svg.plot').id + ' ' + (Math.max(...name.map(r => r.x + r.width)) <= id + 0.01"
    "    ? 'name first' : 'id first') + (boxed ? ' box' : '')); }"
    "document.body.setAttribute('data-order', out.join(', '));"
)


@needs_chromium
def test_a_right_to_left_name_reads_before_its_id_on_every_figure(tmp_path: Path) -> None:
    """Laid out by a browser, every figure's label of the seat reads name, then id, and its isolates draw no
    glyph (the label is as wide as without them)."""
    page = tmp_path / "figures.html"
    page.write_text('<!doctype html><html><head><meta charset="utf-8"></head><body>'
                    + "".join(_figures().values()) + "</body></html>", encoding="utf-8")
    order = _probe(page, NAME_FIRST, tmp_path)["order"].split(", ")
    assert order == ["wealth-lines name first"] * 2 + ["transfer-graph name first"] * 2 \
        + ["contact-heatmap name first"] * 2 + ["propagation-chains name first"]
