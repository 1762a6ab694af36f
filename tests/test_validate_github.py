"""`validate --format github`: annotations %-escaped (GitHub's rules), plain log lines as the text format."""

from __future__ import annotations

from pathlib import Path

from daishi_forensics.read.validate import validate_targets
from daishi_forensics.report.render.validation import render

from .matchkit import archive, ev, write_match


def test_plain_lines_are_not_percent_escaped(tmp_path: Path) -> None:
    events = [ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=3)]
    events[1]["tick"] = "50%\n::warning::x"
    target = write_match(tmp_path / "a%b", events, archive(["a_1"], ended=10))
    lines = render(validate_targets([str(target)]), "github").splitlines()
    assert lines == [
        f"::error file={str(target).replace('%', '%25')},line=3,title=daishi-forensics schema::event 2 $.tick: "
        "'50%25\\n::warning::x' is not of type 'integer'",
        f"error: {target}, line 3, id 2: $.tick: '50%\\n::warning::x' is not of type 'integer'",
        "0 of 1 match(es) valid",
    ]
