"""A record whose free-text member is no string, with a colon in its text, is checked, not a crash."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match


def test_a_message_text_that_is_a_list_holding_a_colon_is_a_schema_error(tmp_path: Path) -> None:
    # the colon count for repeated keys counted a checked payload's texts: a list made it an internal error
    events = [ev(1, 0, "agent_registered", "a_1", name="W", role="player"),
              ev(2, 1, "message", "a_1", text="hi", channel="local")]
    events[1]["payload"]["text"] = ["a:b"]
    target = write_match(tmp_path, events, archive(["a_1"], ended=10))
    result = CliRunner().invoke(main, ["validate", str(target)])
    assert result.exit_code == 1, result.output
    errors = [line.split(": ", 2)[2] for line in result.stdout.splitlines() if line.strip().startswith("error:")]
    assert errors == ["$.payload.text: ['a:b'] is not of type 'string'"]


def test_a_repeated_key_beside_a_text_that_is_no_string_is_still_said(tmp_path: Path) -> None:
    events = [ev(1, 0, "agent_registered", "a_1", name="W", role="player"),
              ev(2, 1, "message", "a_1", text="hi", channel="local")]
    events[1]["payload"]["text"] = {"k": "a:b"}
    target = write_match(tmp_path, events, archive(["a_1"], ended=10))
    text = target.read_text().replace('"tick":1,', '"tick":1,"tick":1,', 1)
    target.write_text(text)
    result = CliRunner().invoke(main, ["validate", str(target)])
    assert result.exit_code == 1, result.output
    assert "repeated" in result.stdout and "tick" in result.stdout
