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
