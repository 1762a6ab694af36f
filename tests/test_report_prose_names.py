"""A seat's name in a sentence of the behavior report (the flag explanations, "In focus: …", "(explained under …
above)", the "Flags by agent" headings, the findings and notes) is written as a table cell writes it inside the
name: a run of spaces or a space other than U+0020 written out (``Hub\\x20\\x20Two``), where the page and rendered
Markdown showed "Hub  Two" as "Hub Two".  A space at either end of the name is written out too (``\\x20Bo``), as a
table cell writes it: left to the sentence, the page and rendered Markdown showed " Bo" as "Bo"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, write_match
from .test_screens_daishi import feeder_events


def _run(args: list[str], **env: str) -> Any:
    return CliRunner().invoke(main, args, env={"COLUMNS": None, "NO_COLOR": None, **env})


def _feeder(tmp_path: Path) -> str:
    """h is fed by a_1, a_2 and a_4 (one flag naming the four); h, a_1 and a_2 have names with hidden spaces."""
    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    arch["agents"][0]["name"] = "Ash\u00a0Vale"
    arch["agents"][1]["name"] = " Bo  Ray"
    arch["agents"][4]["name"] = "Hub  Two"
    return str(write_match(tmp_path, feeder_events(), arch))


# each spoke's share: a_1 and a_2 gave h twelve tools of 12 (144) and 24 in four fair trades of 6, 144 / 168 = 86%;
# a_4 only the tools, 100%; the feeder's pooled test at h (the gifts of the seats bound to it) is one of the five
# tests that could reach the level
WHY = ("Hub{s}Two (h) received 432 in net value one way from 3 seats (Ash{nb}Vale (a{u}1), {bo}, a{u}4; each passed it "
       "86% to 100% of all it handed anyone), 72.0 times what a typical exchange of this match moves, and gave little back; the chance quoted is its least "
       "unusual spoke{q}s, Ash{nb}Vale (a{u}1){q}s. Chance under honest play in this match: 1 in 2,048, 1 in 341 "
       "counting the 5 tests here that could reach the alarm level.")


def test_text_writes_out_the_spaces_inside_a_name_in_sentences(tmp_path: Path) -> None:
    out = _run(["behavior", _feeder(tmp_path), "--agent", "a_1"], COLUMNS="1000")
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert lines.count("== In focus: Ash\\xa0Vale (a_1) ==") == 1
    why = "           " + WHY.format(s="\\x20\\x20", nb="\\xa0", u="_", bo="\\x20Bo\\x20\\x20Ray (a_2)", q="'")
    at = lines.index("Flags by agent")
    assert lines[at + 1:at + 11] == [
        "  Ash\\xa0Vale (a_1)",
        "    FLAG   [1] feeder/hub_and_spoke with Hub\\x20\\x20Two (h), \\x20Bo\\x20\\x20Ray (a_2), a_4; p 0.000488, "
        "adjusted 0.00293 over 5 tests",
        why,
        "           evidence: 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51 (+60 more)",
        "  \\x20Bo\\x20\\x20Ray (a_2)",
        "    FLAG   [1] feeder/hub_and_spoke with Hub\\x20\\x20Two (h), Ash\\xa0Vale (a_1), a_4; p 0.000488, "
        "adjusted 0.00293 over 5 tests",
        "           (explained under Ash\\xa0Vale (a_1) above)",
        "  a_4",
        "    FLAG   [1] feeder/hub_and_spoke with Hub\\x20\\x20Two (h), Ash\\xa0Vale (a_1), \\x20Bo\\x20\\x20Ray (a_2); "
        "p 0.000488, adjusted 0.00293 over 5 tests",
        "           (explained under Ash\\xa0Vale (a_1) above)",
    ]
    assert "Hub  Two" not in out.output and "\u00a0" not in out.output


def test_markdown_writes_out_the_spaces_inside_a_name_in_sentences(tmp_path: Path) -> None:
    out = _run(["behavior", _feeder(tmp_path), "--format", "markdown", "--agent", "a_1"])
    assert out.exit_code == 1
    lines = out.output.splitlines()
    assert "## In focus: Ash\\\\xa0Vale (a\\_1)" in lines
    why = "  " + WHY.format(s="\\\\x20\\\\x20", nb="\\\\xa0", u="\\_", bo="\\\\x20Bo\\\\x20\\\\x20Ray (a\\_2)", q="'")
    at = lines.index("### Flags by agent")
    assert lines[at + 2:at + 11] == [
        "**Ash\\\\xa0Vale (a\\_1)**",
        "",
        "- **FLAG** \\[1\\] feeder/hub\\_and\\_spoke with Hub\\\\x20\\\\x20Two (h), \\\\x20Bo\\\\x20\\\\x20Ray (a\\_2), a\\_4; "
        "p 0.000488, adjusted 0.00293 over 5 tests",
        why,
        "  Evidence: 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51 (+60 more)",
        "",
        "**\\\\x20Bo\\\\x20\\\\x20Ray (a\\_2)**",  # the end space written out, as the cells write it
        "",
        "- **FLAG** \\[1\\] feeder/hub\\_and\\_spoke with Hub\\\\x20\\\\x20Two (h), Ash\\\\xa0Vale (a\\_1), a\\_4; "
        "p 0.000488, adjusted 0.00293 over 5 tests (explained under Ash\\\\xa0Vale (a\\_1) above)",
    ]
    assert "Hub  Two" not in out.output and "\u00a0" not in out.output


def test_the_page_writes_out_the_spaces_inside_a_name_in_sentences(tmp_path: Path) -> None:
    page = _run(["behavior", _feeder(tmp_path), "--format", "html", "--agent", "a_1"])
    assert page.exit_code == 1
    assert '<h2>In focus: <bdi>Ash\\xa0Vale</bdi> (a_1)</h2>' in page.output  # each name in <bdi>, as in a cell
    why = WHY.format(s="\\x20\\x20", nb="\\xa0", u="_", bo="<bdi>\\x20Bo\\x20\\x20Ray</bdi> (a_2)", q="&#x27;")
    why = why.replace("Hub\\x20\\x20Two (h)", "<bdi>Hub\\x20\\x20Two</bdi> (h)").replace(
        "Ash\\xa0Vale (a_1)", "<bdi>Ash\\xa0Vale</bdi> (a_1)")
    assert page.output.count(f'<div class="why">{why}</div>') == 2  # in focus, and under Flags by agent
    assert page.output.count('<span class="note">(explained under <bdi>Ash\\xa0Vale</bdi> (a_1) above)</span>') == 3  # Bo, a_4, Hub
    assert "Hub  Two" not in page.output and "Hub Two" not in page.output and "\u00a0" not in page.output


def _end_spaced(tmp_path: Path) -> str:
    """The feeder match with h named "Hub " and a_1 named " Ash" (spaces at one end only)."""
    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    arch["agents"][0]["name"] = " Ash"
    arch["agents"][4]["name"] = "Hub "
    return str(write_match(tmp_path, feeder_events(), arch))


def test_a_space_at_either_end_of_a_name_is_written_out_in_sentences_as_in_cells(tmp_path: Path) -> None:
    """Seats named " Ash" and "Hub ": "In focus:  Ash (a_1)" and "Hub  (h) received …" lost their end space on the
    page and in rendered Markdown (a browser collapses it), while the seats' cells wrote ``\\x20Ash (a_1)``.
    A sentence now writes a name as a cell does, in every format."""
    target = _end_spaced(tmp_path)
    text = _run(["behavior", target, "--agent", "a_1"], COLUMNS="1000").output.splitlines()
    assert "== In focus: \\x20Ash (a_1) ==" in text
    at = text.index("Flags by agent")
    assert text[at + 1:at + 3] == [
        "  \\x20Ash (a_1)",
        "    FLAG   [1] feeder/hub_and_spoke with Hub\\x20 (h), a_2, a_4; p 0.000488, adjusted 0.00293 over 5 tests"]
    assert text[at + 3].startswith("           Hub\\x20 (h) received 432 in net value one way from 3 seats "
                                   "(\\x20Ash (a_1), a_2, a_4; each passed it 86% to 100% of all it handed anyone)")
    md = _run(["behavior", target, "--format", "markdown", "--agent", "a_1"]).output.splitlines()
    assert "## In focus: \\\\x20Ash (a\\_1)" in md
    at = md.index("### Flags by agent")
    assert md[at + 2:at + 5] == [
        "**\\\\x20Ash (a\\_1)**", "",
        "- **FLAG** \\[1\\] feeder/hub\\_and\\_spoke with Hub\\\\x20 (h), a\\_2, a\\_4; p 0.000488, adjusted 0.00293 "
        "over 5 tests"]
    page = _run(["behavior", target, "--format", "html", "--agent", "a_1"]).output
    assert "<h2>In focus: <bdi>\\x20Ash</bdi> (a_1)</h2>" in page
    assert page.count('<div class="why"><bdi>Hub\\x20</bdi> (h) received 432 in net value one way from 3 seats '
                      '(<bdi>\\x20Ash</bdi> (a_1), a_2, a_4; each passed it 86% to 100% of all it handed anyone)') == 2
    assert "In focus:  Ash" not in page and "Hub  (h)" not in page
