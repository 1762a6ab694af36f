"""A seat named in a right-to-left script, inside the behavior page's text (its headings, sentences, notes, a
flag's explanation, the trade ledger's reputation points): its name in <bdi>, as in a seat's own cell, so the
browser lays it out apart from its id and the words around it; the name escaped first, then wrapped."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main

from .test_html_page_layout import _probe, needs_chromium

NAME = "שרה"


def _page(tmp_path: Path, *, hostile: str = "<i>Nyx</i>") -> str:
    from .matchkit import archive, ev, trade, write_match

    events = [ev(1, 0, "agent_spawned", "7", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(3, 2, "t1", "7", "a_2", {"wood": 3}, {"food": 1})]
    arch = archive(["7", "a_2"], ended=10)
    arch["agents"][0]["name"] = NAME
    arch["agents"][1]["name"] = hostile
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["behavior", str(write_match(tmp_path, events, arch)), "--agent", "7",
                                       "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_a_seats_name_inside_the_pages_text_is_in_bdi(tmp_path: Path) -> None:
    """The page wrote a seat bare inside its text ("In focus: שרה (7)", "Only the pairs with שרה (7) (1 of 1).",
    the ledger's "שרה (7) 1, ..."), which a browser showed id first ("(7) שרה"); every such name is in <bdi> now,
    escaped inside it."""
    page = _page(tmp_path)
    assert f"<h2>In focus: <bdi>{NAME}</bdi> (7)</h2>" in page
    assert f"<li>No screen flag names <bdi>{NAME}</bdi> (7).</li>" in page
    assert f'<p class="intro">Every seat <bdi>{NAME}</bdi> (7) traded with, stood beside' in page
    assert page.count(f'<p class="note">Only the pairs with <bdi>{NAME}</bdi> (7) (1 of 1).</p>') == 2
    assert f'<p class="note">Only the chains <bdi>{NAME}</bdi> (7) started or echoed (0 of 0).</p>' in page
    assert f'<td><bdi>{NAME}</bdi> (7) 1, <bdi><span class="nw">&lt;i&gt;Nyx&lt;/i&gt;</span></bdi> (a_2) 1</td>' in page
    assert "<i>" not in page


def test_a_name_that_is_markup_or_holds_another_seats_label_stays_text(tmp_path: Path) -> None:
    """A name written as markup, or holding another seat's label, is escaped, then wrapped whole."""
    page = _page(tmp_path, hostile=f"</bdi><b>{NAME} (7)")
    hostile = f'<bdi><span class="nw">&lt;/bdi&gt;&lt;b&gt;{NAME}</span> (7)</bdi> (a_2)'
    assert f"<td><bdi>{NAME}</bdi> (7) 1, {hostile} 1</td>" in page
    assert "<b>" not in page and page.count("<bdi>") == page.count("</bdi>")


def test_the_demos_flag_explanations_isolate_the_names_they_hold(tmp_path: Path) -> None:
    out = tmp_path / "tarn.html"
    result = CliRunner().invoke(main, ["behavior", "m_demo", "--agent", "Tarn", "--format", "html", "-o", str(out)])
    assert result.exit_code == 1, result.output
    page = out.read_text(encoding="utf-8")
    assert ('<div class="why"><bdi>Sorrel</bdi> (a_a98f) and <bdi>Tarn</bdi> (a_257b) are both seats of '
            "operator") in page
    assert ('<li><span class="lv flag">flag</span> [1] feeder/hub_and_spoke with <bdi>Sorrel</bdi> (a_a98f), '
            "<bdi>Perrin</bdi> (a_f095); p 2.38e-07") in page
    # every seat the page writes in its text, out of the plots, is isolated: none is left bare
    text = re.sub(r"<svg.*?</svg>|<pre.*?</pre>|<bdi>[^<]*</bdi>", "", page, flags=re.S)
    assert re.findall(r"(?:Tarn|Sorrel|Perrin|Ash) \(a_[0-9a-f]{4}\)", text) == []


ORDER = (
    "const NAME = '" + NAME + "', ID = '(7)', got = {name: 0, id: 0};"
    "document.querySelectorAll('body *').forEach(e => { if (!e.closest('svg')) e.style.whiteSpace = 'nowrap'; });"
    "const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); const nodes = []; let text = '', n;"
    "while ((n = walker.nextNode())) { if (n.parentElement.closest('svg, pre, script')) continue;"
    "  nodes.push([n, text.length]); text += n.data; }"
    "function rect(i) { let lo = 0, hi = nodes.length - 1;"
    "  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (nodes[mid][1] <= i) lo = mid; else hi = mid - 1; }"
    "  const [node, start] = nodes[lo]; const r = document.createRange();"
    "  r.setStart(node, i - start); r.setEnd(node, i - start + 1); return r.getBoundingClientRect(); }"
    "let i = -1;"
    "while ((i = text.indexOf(NAME + ' ' + ID, i + 1)) >= 0) {"
    "  const name = rect(i), id = rect(i + NAME.length + 1);"
    "  if (name.width === 0 || Math.abs(name.top - id.top) > 2) continue;"
    "  if (name.left < id.left) got.name++; else got.id++; }"
    "document.body.setAttribute('data-name', String(got.name));"
    "document.body.setAttribute('data-id', String(got.id));"
)
"""Every place the page's text (out of plots and events) writes the seat, laid out: name first or id first."""


@needs_chromium
def test_in_a_browser_every_seats_name_reads_before_its_id(tmp_path: Path) -> None:
    """Laid out by a browser, every place the page writes the seat (its cells and links, its headings,
    sentences, notes and the ledger's points) reads name, then id."""
    page = tmp_path / "page.html"
    page.write_text(_page(tmp_path), encoding="utf-8")
    got = _probe(page, ORDER, tmp_path)
    assert got == {"name": "20", "id": "0"}, got  # 8 of them read "(7) שרה" when only cells and links had <bdi>
