"""``--format github`` read back as the Actions runner reads a workflow command.

The runner takes a line starting ``::``, the command up to the next ``::`` (its name, then after a space the
properties, split at ``,``, each at its first ``=``) and the message after it; it unescapes ``%0D``, ``%0A`` (and
in a property ``%3A``, ``%2C``), then ``%25``. Every annotation of ``screen`` and ``validate`` on a match whose
folder name holds a comma, a colon, a percent sign, a carriage return and a newline (with a forged command after
it) must read back to the file, the title and the message written.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match
from .test_screens_daishi import feeder_events


def read_back(line: str) -> tuple[str, dict[str, str], str] | None:
    """A workflow command as the runner parses it: its name, its properties, its message (None: not a command)."""
    if not line.startswith("::") or (end := line.find("::", 2)) < 0:
        return None

    def unescape(text: str, prop: bool) -> str:
        for escaped, char in [("%0D", "\r"), ("%0A", "\n"), *([("%3A", ":"), ("%2C", ",")] if prop else []),
                              ("%25", "%")]:
            text = text.replace(escaped, char)
        return text

    name, _, props = line[2:end].partition(" ")
    pairs = (p.split("=", 1) for p in props.strip().split(",") if p)
    return name, {k: unescape(v, True) for k, v in pairs}, unescape(line[end + 2:], False)


FOLDER = "a,b:c 100%25 %0A\rx\n::error file=README.md,line=1::forged"
"""A folder name that every character a workflow command escapes is in."""


def _commands(args: list[str]) -> list[tuple[str, dict[str, str], str]]:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    lines = result.stdout.split("\n")
    assert not any(line.startswith("::error file=README.md") for line in lines)
    return [command for line in lines if (command := read_back(line)) is not None]


def test_screen_annotations_read_back_to_the_file_title_and_message(tmp_path: Path) -> None:
    fed = write_match(tmp_path / FOLDER, feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    flag, partial = _commands(["screen", "--format", "github", str(fed)])
    assert flag[:2] == ("error", {"file": str(fed), "line": "19", "title": "daishi-forensics feeder/hub_and_spoke"})
    assert flag[2].startswith("h received 432 in net value one way from 3 seats (a_1, a_2, a_4; each passed it 86% to "
                              "100% of all it handed anyone), 72.0 times what")
    assert flag[2].endswith(" Events: 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51 … (+60).")
    assert partial == ("warning", {"file": str(fed), "title": "daishi-forensics not screened whole"},
                       "not screened: operator (no seat names its operator)")


def test_screen_annotation_message_with_the_escaped_characters_reads_back(tmp_path: Path) -> None:
    """A seat id with a comma, a colon, a percent escape, a carriage return and a newline was written with the
    carriage return and the newline as ``%0D%0A``: the annotation showed a line break the data made, where the
    log, the text, the step summary and SARIF write ``\\r\\n``. The message now writes every control character
    out (the README's rule for every output), and reads back to the flag's own words with ``%0A`` as written."""
    from daishi_forensics.textsafe import shown

    hub = "h,1:2%0A\r\n::error file=README.md::x"
    events = [{**e, "agentId": hub} if e.get("agentId") == "h" else e for e in feeder_events()]
    events = [{**e, "payload": {k: (hub if v == "h" else v) for k, v in e["payload"].items()}} for e in events]
    fed = write_match(tmp_path / "fed", events, archive(["a_1", "a_2", "a_3", "a_4", hub], ended=40))
    flag = _commands(["screen", "--format", "github", str(fed)])[0]
    assert flag[2].startswith("h,1:2%0A\\r\\n::error file=README.md::x received 432 in net value one way from 3 seats")
    assert flag[2].startswith(shown(hub)) and "\n" not in flag[2] and "\r" not in flag[2]


@pytest.mark.parametrize("stdin", [False, True])
def test_validate_annotations_read_back_to_the_file_line_and_title(tmp_path: Path, stdin: bool) -> None:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood")]
    path = write_match(tmp_path / FOLDER, events, archive(["a_1"], ended=5))
    args = ["validate", "--format", "github", "-" if stdin else str(path)]
    result = CliRunner().invoke(main, args, input=path.read_bytes() if stdin else None)
    assert result.exit_code == 1, result.output
    commands = [c for line in result.stdout.split("\n") if (c := read_back(line)) is not None]
    if stdin:  # no file GitHub could link: the title says standard input, the message where in it
        assert commands == [("error", {"title": "daishi-forensics schema (standard input)"},
                             "line 3, id 2: $.payload: 'gathered' is a required property")]
    else:
        assert commands == [("error", {"file": str(path), "line": "3", "title": "daishi-forensics schema"},
                             "event 2 $.payload: 'gathered' is a required property")]


@pytest.mark.parametrize("text", ["a,b:c", "100%", "%0A%0D%3A%2C%25", "x\ny\r\nz", "::error file=a::b", "%%25,,::",
                                  "trailing %", "é ü 中 \u202e"])
def test_github_escape_reads_back_to_the_text_in_a_property_and_a_message(text: str) -> None:
    """Every value the github formats write goes through ``github_escape``: it reads back as written, a property
    (a file's name) with its carriage returns and newlines, a message with every control character written out
    as text (``\\n``), as the other outputs write it."""
    from daishi_forensics.report.render.tables import github_escape
    from daishi_forensics.textsafe import shown

    as_name = "\r".join("\n".join(shown(part) for part in line.split("\n")) for line in text.split("\r"))
    line = f"::warning file={github_escape(text, True)},title={github_escape(text, True)}::{github_escape(text)}"
    assert "\n" not in line and "\r" not in line
    assert read_back(line) == ("warning", {"file": as_name, "title": as_name}, shown(text))


def test_the_step_summary_names_a_file_whose_name_holds_a_run_of_spaces_as_it_is(tmp_path: Path) -> None:
    """``screen "exports/my  fed /m_….jsonl" --format github`` with ``$GITHUB_STEP_SUMMARY`` wrote the target column
    as ``exports/my fed /m_….jsonl``: a table cell collapses a run of spaces (and trims one at either end), so the
    summary named another file than the annotation's ``file=``. The run of spaces is written out now
    (``my\\x20\\x20fed``), as a seat's name in a table is; a lone space (`` copy``) is kept, as a table keeps it."""
    fed = write_match(tmp_path / "my  fed ", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    copy = write_match(tmp_path / " copy", feeder_events(), archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40))
    summary = tmp_path / "summary.md"
    result = CliRunner().invoke(main, ["screen", "--format", "github", str(fed), str(copy)],
                                env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.exit_code == 1
    assert read_back(result.stdout.splitlines()[0])[1]["file"] == str(fed)  # type: ignore[index]
    rows = summary.read_text(encoding="utf-8").splitlines()
    target = (f"{tmp_path}/my\\\\x20\\\\x20fed /m\\_0123456789ab.jsonl (the same match: {tmp_path}/ copy/"
              "m\\_0123456789ab.jsonl)").replace(str(tmp_path), str(tmp_path).replace("_", "\\_"))
    assert rows[6].startswith(f"| flag | feeder/hub\\_and\\_spoke | {target} | h, a\\_1, a\\_2, a\\_4 | "), rows[6]


@pytest.mark.parametrize("command", ["validate", "screen"])
def test_a_newline_in_a_target_s_name_is_written_out_in_the_annotation_s_message(tmp_path: Path,
                                                                                 command: str) -> None:
    """``validate --format github 'no<newline>such.jsonl'`` (and ``screen``) wrote the name's newline as ``%0A`` in
    the annotation's message, which GitHub shows as a line break: the second line of the annotation read
    ``such::error file=README.md::x.jsonl: no such file …``, where the log line below it, the text output and
    SARIF write ``no\\nsuch``. The message now writes it out as they do (exit 3: the target cannot be read)."""
    target = str(tmp_path / "no\nsuch::error file=README.md::x.jsonl")
    result = CliRunner().invoke(main, [command, "--format", "github", target])
    assert result.exit_code == 3, result.output
    title = "unreadable" if command == "validate" else "not screened"
    escaped = target.replace("\n", "\\n")
    assert result.stdout.splitlines()[0] == (
        f"::error title=daishi-forensics {title}::{escaped}: no such file or folder, and not a match id (m_ followed "
        "by 12 lowercase hex digits) or m_demo")
    name, props, message = read_back(result.stdout.splitlines()[0])  # type: ignore[misc]
    assert "\n" not in message and message.startswith(escaped)
