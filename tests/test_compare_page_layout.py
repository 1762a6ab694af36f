"""The compare command's HTML page as a reader's browser lays it out: no wider than the window, long
unbroken names wrapped inside their cells, words and headers kept whole."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main

from .test_html_page_layout import PAGE_WIDTH, _probe, needs_chromium


def _compare_page(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "c.html"
    result = CliRunner().invoke(main, ["compare", *args, "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_every_compare_table_scrolls_inside_its_own_box(tmp_path: Path) -> None:
    page = _compare_page(tmp_path, "m_demo", "m_demo").read_text(encoding="utf-8")
    assert page.count("<table>") == page.count('<div class="wide"><table>') == 2
    assert page.count("</table>") == page.count("</table></div>") == 2


@needs_chromium
def test_the_compare_page_on_a_phone_is_no_wider_than_the_screen(tmp_path: Path) -> None:
    """On a phone-sized window the seat-by-seat table (13 columns) made the whole page scroll sideways (the
    demo compared with itself: 961 pixels wide in a 485-pixel window); the table now scrolls in its own box."""
    page = _compare_page(tmp_path, "m_demo", "m_demo")
    attrs = _probe(page, PAGE_WIDTH, tmp_path, size="420,900")
    assert int(attrs["scroll"]) <= int(attrs["inner"]), attrs


def _long_named_match(tmp_path: Path) -> Path:
    """Two seats trading, the first named with a 500-character word and playing a 300-character model."""
    from .matchkit import archive, ev, trade, write_match

    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              *trade(3, 2, "t1", "a_1", "a_2", {"wood": 3}, {"food": 1})]
    arch = archive(["a_1", "a_2"], ended=10)
    arch["agents"][0]["name"] = "R" * 500
    arch["agents"][0]["model"] = {"model": "M" * 300, "provider": "p"}
    return write_match(tmp_path / "long", events, arch)


def test_a_long_name_or_model_in_a_compare_cell_is_marked_to_break(tmp_path: Path) -> None:
    page = _compare_page(tmp_path, str(_long_named_match(tmp_path)), "m_demo").read_text(encoding="utf-8")
    assert f'<td><bdi><span class="brk">{"R" * 500}</span></bdi> (a_1)</td>' in page
    assert f'<td><span class="brk">{"M" * 300}</span></td>' in page
    assert "<td>a_2</td>" in page and "<td><bdi>Ash</bdi> (a_e0c0)</td>" in page  # short names: no mark
    assert '<span class="brk">' not in page.split("</thead>")[0]  # headers are short words: none marked


TABLE_WIDTHS = ("document.body.setAttribute('data-tables', [...document.querySelectorAll('table')]"
                ".map(t => Math.round(t.getBoundingClientRect().width)).join(' '));")


@needs_chromium
def test_a_long_name_does_not_stretch_the_compare_table(tmp_path: Path) -> None:
    """A seat named with a 500-character word (and a 300-character model) made the seat-by-seat table as wide
    as the word (8,709 pixels at 1280, beside the demo); it now wraps in its cell, and the table fits."""
    page = _compare_page(tmp_path, str(_long_named_match(tmp_path)), "m_demo")
    attrs = _probe(page, TABLE_WIDTHS + PAGE_WIDTH, tmp_path)
    assert max(int(w) for w in attrs["tables"].split()) <= int(attrs["inner"]), attrs
