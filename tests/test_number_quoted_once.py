"""A number past 2**53 that the double read is shown as the file writes it (``1e+308``) is quoted once."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match

PAST = "is past 2**53: an integer this large cannot be read exactly"


def _match(tmp_path: Path, form: str, where: str, written: bytes) -> Path:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
              ev(2, 1, "gather", "a_1", region="r_0_0", resource="wood", gathered=777777)]
    arch = archive(["a_1"], ended=5)
    if where == "archive":
        events[1]["payload"]["gathered"] = 1
        arch["agents"][0]["reputation"] = 777777
    path = write_match(tmp_path, events, arch, form=form)
    for file in ([path / "archive.json", path / "events.jsonl"] if path.is_dir() else [path]):
        file.write_bytes(file.read_bytes().replace(b"777777", written))
    return path


@pytest.mark.parametrize("written", [b"1e+308", b"-1e+300", b"1.5e+300"])
@pytest.mark.parametrize("form", ["stream", "bundle", "folder"])
def test_a_number_shown_as_written_is_quoted_once(tmp_path: Path, form: str, written: bytes) -> None:
    """'gathered': 1e+308 (what a JavaScript server writes for 1e308) was said as '1e+308 (as written in the
    file; read as 1e+308) is past 2**53', the same text twice; once now (exit 1 as before), in an event and in
    the archive alike."""
    for where, at in (("event", "$.payload.gathered"), ("archive", "$.agents[0].reputation")):
        path = _match(tmp_path / where, form, where, written)
        result = CliRunner().invoke(main, ["validate", str(path)])
        errors = [line.strip() for line in result.output.splitlines() if line.strip().startswith("error:")]
        [error] = errors
        assert result.exit_code == 1
        assert error.endswith(f"{at if where == 'event' or form == 'folder' else at.replace('$', '$.archive')}: "
                              f"{written.decode()} {PAST}"), error
