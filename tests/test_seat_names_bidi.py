"""A seat named in a right-to-left script, on the behavior and compare pages: its name in <bdi>, so the
browser lays it out apart from its id and the text around it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.report.compare import compare_matches
from daishi_forensics.report.render.compare import render

from .test_compare import report, seat
from .test_html_page_layout import _probe, needs_chromium

NAME = "שרה"


def _compare_page() -> str:
    a, b = seat("7", 1, "X", 10.0), seat("b_1", 1, "X", 14.0)
    a["name"] = NAME
    return render(compare_matches(report("m_a", [a]), report("m_b", [b])), "html")


def _behavior_page(tmp_path: Path) -> Path:
    from .matchkit import archive, ev, trade, write_match

    events = [ev(1, 0, "agent_spawned", "7", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(3, 2, "t1", "7", "a_2", {"wood": 3}, {"food": 1})]
    arch = archive(["7", "a_2"], ended=10)
    arch["agents"][0]["name"] = NAME
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["behavior", str(write_match(tmp_path, events, arch)), "--format", "html",
                                       "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    return out


def test_a_seats_name_is_in_bdi_on_both_pages(tmp_path: Path) -> None:
    """The compare page wrote a seat's name bare in its cell ("שרה (7)"), and so did the behavior page's seat
    links: a browser took the id into the name's right-to-left run and showed "(7) שרה". Both pages now write
    the name in <bdi>; a seat without a name (its id alone) is written as before."""
    compared = _compare_page()
    assert f"<td><bdi>{NAME}</bdi> (7)</td>" in compared and "<td><bdi>B_1</bdi> (b_1)</td>" in compared
    page = _behavior_page(tmp_path).read_text(encoding="utf-8")
    assert f'<a class="seat" href="#seat-1"><bdi>{NAME}</bdi> (7)</a>' in page
    assert '<a class="seat" href="#seat-2"><bdi>a_2</bdi>' not in page and ">a_2</a>" in page


NAME_FIRST = (
    "const out = [];"
    "document.querySelectorAll('td').forEach(td => td.style.whiteSpace = 'nowrap');"  # name and id on one line
    "function left(cell, text) { const w = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT); let n;"
    "  while ((n = w.nextNode())) { const i = n.data.indexOf(text); if (i >= 0) {"
    "    const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + text.length);"
    "    return r.getBoundingClientRect().left; } } return NaN; }"
    "for (const cell of document.querySelectorAll('td, a.seat')) {"
    f"  if (cell.textContent.trim() !== '{NAME} (7)' || cell.querySelector('a.seat')) continue;"  # a seat's cell
    f"  out.push(left(cell, '{NAME}') < left(cell, '(7)') ? 'name first' : 'id first'); }}"
    "document.body.setAttribute('data-order', [...new Set(out)].join(' '));"
)


@needs_chromium
def test_a_right_to_left_name_reads_before_its_id(tmp_path: Path) -> None:
    """Laid out by a browser, a seat's cell or link reads name, then id (the cell kept on one line)."""
    compare = tmp_path / "c.html"
    compare.write_text(_compare_page(), encoding="utf-8")
    assert _probe(compare, NAME_FIRST, tmp_path)["order"] == "name first"
    assert _probe(_behavior_page(tmp_path), NAME_FIRST, tmp_path)["order"] == "name first"
