"""The behavior report's text and Markdown: a column of numbers written as text (a p-value, an interval, a range
of ticks, a share "1/3") is aligned right, by the rule the pages and the comparison use (cells.is_number)."""

from __future__ import annotations

from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.report.render.tables import markdown_table, text_table

HEADERS = ["seat", "probes", "interval", "p", "model"]
ROWS = [[1, "1/3", "0.208–0.939", "5.96e-08", "gpt-5-mini-2025-08-07"],
        [12, "–", "–", "0.0169", "gemini-2.5-pro"],
        [13, "12/40", "0.439–1.000", None, "x"]]


def test_numbers_written_as_text_are_aligned_right_in_a_text_table() -> None:
    assert text_table(HEADERS, ROWS).splitlines() == [
        "seat  probes     interval         p  model",
        "----  ------  -----------  --------  ---------------------",
        "   1     1/3  0.208–0.939  5.96e-08  gpt-5-mini-2025-08-07",
        "  12       –            –    0.0169  gemini-2.5-pro",
        "  13   12/40  0.439–1.000         –  x",
    ]


def test_numbers_written_as_text_are_aligned_right_in_a_markdown_table() -> None:
    assert markdown_table(HEADERS, ROWS, align=True).splitlines()[:2] == [
        "| seat | probes | interval | p | model |",
        "| ---: | ---: | ---: | ---: | --- |",
    ]


def _demo(fmt: str) -> str:
    result = CliRunner().invoke(main, ["behavior", "m_demo", "--format", fmt])
    assert result.exit_code == 1, result.output  # the demo is planted with collusion: findings
    return result.output


def test_the_demos_text_aligns_its_shares_and_intervals_right() -> None:
    """The demo's text wrote its probes share ("1/3") and its resistance intervals ("0.439–1.000") left-aligned
    beside right-aligned numbers; they are aligned right now (the lines differ only in their spaces)."""
    lines = _demo("text").splitlines()
    assert "   1      0  1 (1/1)           -137     1/3  review  [7]" in lines
    assert "  13      0  –                    0       –  –" in lines
    assert "Nyx (a_143a)            3         0           1   0.439–1.000        49       0         0" in lines
    assert "Probe-1 (a_e1f6)        0         0           –             –         9       1         3" in lines


def test_the_demos_markdown_marks_its_number_columns_right_aligned() -> None:
    """The demo's Markdown marked no column right-aligned; every column of numbers is now ``---:``."""
    markdown = _demo("markdown")
    assert ("| seat | agent | model | score | harm | promises kept | surplus | probes | level | flags |\n"
            "| ---: | --- | --- | ---: | ---: | --- | ---: | ---: | --- | --- |\n"
            "| 1 | Ash (a\\_e0c0) | gemini-2.5-pro | 50.742 | 0 | 1 (1/1) | -137 | 1/3 | review | \\[7\\] |") in markdown
    assert ("| match | rounds | ticks | map regions | engine | ranked | findings |\n"
            "| --- | ---: | ---: | ---: | --- | --- | ---: |\n"
            "| m\\_32d5b4896ccb | 240 | 0–239 | 144 | 0.5.2 | yes | 0 |") in markdown
