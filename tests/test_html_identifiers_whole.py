"""An identifier in a table cell of the behavior or compare page (a model "gpt-5-mini-2025-08-07", a seat's or a
match's id, a probe's name) is read whole: the page's one rule for a word without a space is that a run of
fewer than 24 characters is never broken (not at its hyphens either), and a run of 24 or more may break
anywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.report.render.html import STYLE, esc_cell

from .test_html_page_layout import _probe, needs_chromium

SHORT_RUNS_WHOLE = (
    "const broken = []; let runs = 0;"
    "for (const c of document.querySelectorAll('th, td')) {"
    "  const walker = document.createTreeWalker(c, NodeFilter.SHOW_TEXT); let n;"
    "  while ((n = walker.nextNode())) {"
    "    if (n.parentElement.closest('.brk, pre, svg')) continue;"  # a long run may break; an event's JSON wraps
    "    const re = /\\S+/g; let m;"
    "    while ((m = re.exec(n.data))) { runs++;"
    "      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);"
    "      const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));"
    "      if (tops.size > 1) broken.push(m[0]); } } }"
    "document.body.setAttribute('data-runs', String(runs));"
    "document.body.setAttribute('data-broken', [...new Set(broken)].join(' '));"
)
"""Every word (a run without a space) of every table cell and header, but a long run marked to break, and those
of them laid out on more than one line."""


def _page(tmp_path: Path, command: str, *args: str) -> Path:
    out = tmp_path / f"{command}-{len(args)}.html"
    result = CliRunner().invoke(main, [command, *args, "--format", "html", "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    return out


def _simulated(tmp_path: Path) -> str:
    out = tmp_path / "simulated"
    result = CliRunner().invoke(main, ["simulate", "--scenario", "mixed", "--agents", "12", "--ticks", "60",
                                       "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return str(out)


def test_a_short_run_a_browser_could_break_is_kept_whole() -> None:
    assert esc_cell("gpt-5-mini-2025-08-07") == '<span class="nw">gpt-5-mini-2025-08-07</span>'
    assert esc_cell("it sent this hijack message (rule instruction-override)") == (
        'it sent this hijack message (rule <span class="nw">instruction-override)</span>')
    assert esc_cell("a-" + "b" * 22) == '<span class="brk">a-bbbbbbbbbbbbbbbbbbbbbb</span>'  # 24: may break anywhere
    assert esc_cell("gemini-2.5-pro–") == '<span class="nw">gemini-2.5-pro–</span>'
    assert esc_cell("player") == "player" and esc_cell("–") == "–" and esc_cell("a_257b") == "a_257b"
    assert esc_cell("<x-y>") == '<span class="nw">&lt;x-y&gt;</span>'  # escaped, then marked
    rules = {k.strip(): v for k, v in re.findall(r"([^{}]+)\{([^{}]*)\}", STYLE)}
    assert rules[".nw"] == "white-space:nowrap"


def test_the_demos_models_and_headers_are_marked_whole(tmp_path: Path) -> None:
    page = _page(tmp_path, "behavior", "m_demo").read_text(encoding="utf-8")
    assert '<td><span class="nw">gpt-5-mini-2025-08-07</span></td>' in page
    assert "<td>gpt-5-mini-2025-08-07</td>" not in page
    assert '<th><span class="nw">Promise-breaking</span></th>' in page
    assert '<th><span class="nw">re-send</span> share</th>' in page


@needs_chromium
@pytest.mark.parametrize("size", ["1280,900", "420,900"])
def test_no_short_run_of_a_cell_is_broken(tmp_path: Path, size: str) -> None:
    """The demo's page broke its models at their hyphens ("gpt-5-mini-2025-08-07" over three lines), its
    probes' names ("reveal-secret") and headers ("Promise-breaking") at a phone's width, the comparison of the
    demo with a simulated match its models even at 1,280 pixels. No run of fewer than 24 characters in a cell or
    a header of either page is on two lines now."""
    pages = [_page(tmp_path, "behavior", "m_demo"), _page(tmp_path, "behavior", "m_demo", "--agent", "Tarn"),
             _page(tmp_path, "compare", "m_demo", _simulated(tmp_path))]
    for page, least in zip(pages, (6000, 3600, 500)):
        attrs = _probe(page, SHORT_RUNS_WHOLE, tmp_path, size=size)
        assert int(attrs["runs"]) > least and attrs["broken"] == "", (page.name, attrs)
