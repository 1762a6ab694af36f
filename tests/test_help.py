"""Help text reads as prose: whole paragraphs, exit codes that apply, no private citations."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

COMMANDS = [[], ["behavior"], ["compare"], ["validate"], ["screen"], ["screen-transfers"], ["score"], ["propagation"], ["tiers"], ["export"],
            ["simulate"], ["simulate", "study"], ["schemas"], ["season"], ["season", "behavior"], ["season", "screen"],
            ["study"], ["study", "audit"]]


def help_of(args: list[str]) -> str:
    result = CliRunner().invoke(main, [*args, "--help"], terminal_width=100)
    assert result.exit_code == 0
    return result.output


def prose(text: str) -> str:
    """The help text above the options table."""
    return text.split("\nOptions:", 1)[0]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "main")
def test_paragraphs_are_whole(args: list[str]) -> None:
    text = help_of(args)
    assert "\n\n\n" not in text, "blank lines pile up"
    for line in prose(text).splitlines()[1:]:
        if line.strip().startswith("daishi-forensics "):  # an example block
            continue
        assert not re.search(r"\S {2,}\S", line), f"a paragraph broken by indentation: {line!r}"
        assert not line.startswith("      "), f"a paragraph indented as code: {line!r}"


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "main")
def test_no_private_citations(args: list[str]) -> None:
    text = help_of(args)
    for private in (r"§", r"\bseed 0\d\d\b", r"\bissue \d", r"#\d+\b", r"\bcontract\b"):
        assert not re.search(private, text), (private, args)


def test_exit_code_lines_apply_to_their_command() -> None:
    flat = {name: " ".join(help_of([name]).split()) for name in ("simulate", "tiers", "schemas", "behavior")}
    assert "Exit codes: 0 written; 2 usage error; 70 internal error" in flat["simulate"]
    assert "input could not be read" not in flat["simulate"] and "findings" not in flat["simulate"]
    assert "1 some line is blank or not a JSON object with a string text" in flat["tiers"]
    assert "3 the corpus could not be read" in flat["tiers"]
    assert "findings" not in flat["schemas"].split("Exit codes:", 1)[1]
    assert "1 findings: the report lists a finding" in flat["behavior"]


def test_baseline_help_says_rates() -> None:
    flat = " ".join(help_of(["behavior"]).split())
    assert "100 x rate / the baseline's mean rate" in flat and "count / baseline" not in flat


def test_compare_help_has_an_examples_block_that_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``compare --help`` gave its examples only in prose; it has an Examples block as ``study audit``
    does, and each line of it runs as written (the folder the simulation writes moved to a temporary one)."""
    text = help_of(["compare"])
    block = text.split("\n  Examples:\n", 1)[1].split("\n\n", 1)[0]
    lines = [line.strip() for line in block.splitlines()]
    assert lines == [
        "daishi-forensics simulate --scenario ring --seed 3 --out /tmp/m",
        "daishi-forensics compare m_demo /tmp/m",
        "daishi-forensics compare m_demo /tmp/m -o compare.html",
        "daishi-forensics compare m_demo /tmp/m --by model --format json",
        "daishi-forensics compare m_demo --by model --models gpt-5-2025-08-07 gemini-2.5-pro",
    ]
    monkeypatch.chdir(tmp_path)
    for line in lines:
        args = [str(tmp_path / "m") if word == "/tmp/m" else word for word in shlex.split(line)[1:]]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (line, result.output)
    assert (tmp_path / "compare.html").read_text().startswith("<!DOCTYPE html>")


def test_simulate_help_explains_every_scenario_and_its_examples_run(tmp_path: Path) -> None:
    """``simulate --help`` named eight of its ten scenarios without a word on what each plants; each has a
    line of its own now, and every example line runs as written (its folders moved to a temporary one)."""
    from daishi_forensics.simulate import SCENARIOS

    text = help_of(["simulate"])
    flat = " ".join(text.split()).replace("- ", "-")  # a name wrapped at its hyphen
    scenarios = flat.split("Scenarios, what each plants in otherwise organic play: ", 1)[1].split(". ", 1)[0]
    entries = scenarios.split("; ")
    assert sorted(entry.split(", ", 1)[0] for entry in entries) == sorted(SCENARIOS)
    for entry in entries:
        assert len(entry.split(", ", 1)[1].split()) >= 2, entry  # what it plants
    examples = [line.strip() for line in text.split("Example:", 1)[1].split("simulate study --out DIR", 1)[0]
                .splitlines() if line.strip().startswith("daishi-forensics ")]
    assert len(examples) == 4
    codes = []
    for line in examples:
        words = shlex.split(line, comments=True)[1:]
        result = CliRunner().invoke(main, [str(tmp_path / w[5:]) if w.startswith("/tmp/") else w for w in words])
        codes.append(result.exit_code)
    assert codes == [0, 1, 0, 0]  # the ring found (flag), the honest match clear


EVERY_COMMAND = [*COMMANDS, ["schemas", "list"], ["schemas", "show"], ["schemas", "export"]]


@pytest.mark.parametrize("args", EVERY_COMMAND, ids=lambda a: " ".join(a) or "main")
def test_every_help_has_its_exit_codes_and_an_example(args: list[str]) -> None:
    """The README says every command's --help gives examples and the exit codes: `score` and `propagation`
    gave no example, `schemas list/show/export` and the `study` group neither an example nor the exit codes."""
    text = help_of(args)
    flat = " ".join(text.split("\n", 1)[1].split())  # past the usage line
    assert "Exit codes: 0 " in flat, args
    assert re.search(r"daishi-forensics [a-z]", flat), args  # a command line to try, in its prose or after its codes


@pytest.mark.parametrize(("args", "code"), [(["score"], 0), (["propagation"], 1), (["schemas", "list"], 0),
                                            (["schemas", "show"], 0), (["schemas", "export"], 0)])
def test_the_example_in_the_exit_code_line_runs_with_its_code(args: list[str], code: int, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    flat = " ".join(help_of(args).split()).replace("daishi- forensics", "daishi-forensics")
    example = flat.split(" Example: daishi-forensics ", 1)[1].split(" (", 1)[0]
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, shlex.split(example))
    assert result.exit_code == code, (example, result.output)
