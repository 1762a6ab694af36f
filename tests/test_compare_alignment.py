"""compare: the signed difference B − A (and every interval) is a number in its column: aligned right in the
text, Markdown and HTML forms, beside the right-aligned figures of A and B."""

from __future__ import annotations

from daishi_forensics.report.compare import Side, compare_matches, compare_models
from daishi_forensics.report.render.compare import render

from .test_compare import report, seat


def _seats_doc() -> dict:
    return compare_matches(report("m_a", [seat("a_1", 1, "X", 10.0), seat("a_2", 2, "Y", 20.0)]),
                           report("m_b", [seat("b_1", 1, "X", 14.0), seat("b_2", 2, "Y", 5.5)]))


def test_the_signed_difference_is_aligned_right_in_text() -> None:
    """The overall table's "B − A" column ("-5.25", "0" ...) was left-aligned text beside the right-aligned
    figures of A and B (exit 0); it is aligned right, as they are."""
    lines = render(_seats_doc(), "text", width=120).splitlines()
    at = lines.index("figure             A     B  B − A")
    assert lines[at:at + 5] == ["figure             A     B  B − A",
                                "----------------  --  ----  -----",
                                "score             15  9.75  -5.25",
                                "wealth            15  9.75  -5.25",
                                "harm /100 rounds   0     0      0"]


def test_the_signed_difference_is_aligned_right_in_markdown_and_html() -> None:
    doc = _seats_doc()
    markdown = render(doc, "markdown")
    assert "| figure | A | B | B − A |\n| --- | ---: | ---: | ---: |\n| score | 15 | 9.75 | -5.25 |" in markdown
    assert "| seat | A | A model | B | B model | score |" in markdown
    assert "| ---: | --- | --- | --- | --- | --- |" in markdown  # the seat number; the "A → B (B − A)" cells are text
    page = render(doc, "html")
    assert ('<tr><td>score</td><td class="n">15</td><td class="n">9.75</td><td class="n">-5.25</td></tr>'
            in page)


def test_the_difference_and_its_interval_over_matches_are_numbers() -> None:
    """Two models over matches: "B − A", its interval and each side's interval are numbers in every form."""
    reports = [report(f"m_{k}", [seat(f"a_{k}", 1, "X", 10.0 + k), seat(f"b_{k}", 2, "Y", 12.0 + 2 * k)])
               for k in range(3)]
    doc = compare_models(Side("X", reports, "X"), Side("Y", reports, "Y"))
    text = render(doc, "text", width=200).splitlines()
    head = next(line for line in text if line.startswith("figure "))
    score = next(line for line in text if line.startswith("score "))
    assert head.index("B − A") + len("B − A") == score.index("+3") + len("+3")  # right edges line up
    markdown = render(doc, "markdown")
    assert "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |" in markdown
    page = render(doc, "html")
    assert '<td class="n">+3</td>' in page


def test_the_compare_page_writes_its_tables_with_the_behavior_pages_helper() -> None:
    """The compare page built its tables with a table() of its own beside the behavior page's, which had
    already drifted (a level's pill, the cells of the seat in focus); both pages write a table with one
    function now, its numbers in numeric cells."""
    from daishi_forensics.report.render.compare import compare_blocks
    from daishi_forensics.report.render.html import table

    doc = _seats_doc()
    page = render(doc, "html")
    blocks = compare_blocks(doc)
    assert len(blocks) == 2 and all(table(block) in page for block in blocks)
    assert page.count("<table>") == 2
