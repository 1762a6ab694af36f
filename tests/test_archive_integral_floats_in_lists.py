"""An archive number written with a fraction where an integer goes inside an array (a seat's reputation, an
erratum's event id): read as the integer it is, as one outside an array is, and said once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match


def _match(tmp_path: Path, form: str) -> Path:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1"), ev(3, 2, "rest", "a_1")]
    arch = archive(["a_1"], ended=5, errata=[{"id": "E1", "text": "never took effect", "events": [777001]}])
    arch["agents"][0]["reputation"] = 777002
    path = write_match(tmp_path, events, arch, form=form)
    for file in ([path / "archive.json"] if path.is_dir() else [path]):
        file.write_bytes(file.read_bytes().replace(b"777001", b"2.0").replace(b"777002", b"7.0"))
    return path


@pytest.mark.parametrize("form", ["bundle", "stream", "folder"])
def test_a_fraction_in_an_archive_array_is_read_as_its_integer_and_said_once(tmp_path: Path, form: str) -> None:
    """A seat's ``"reputation": 7.0`` was said twice by validate ('7.0 is written as a fraction where an integer
    goes; read as 7'), yet read as 7.0: behavior's report gave "reputation": 7.0; an erratum's ``"events": [2.0]``
    withheld nothing (event 2 analysed; the finding said 'erratum E1: 0 of 0 named events withheld').  Each is
    read as the integer it is now, and said once; the erratum withholds event 2 (exit 1 as before: a finding)."""
    path = _match(tmp_path, form)
    result = CliRunner().invoke(main, ["validate", str(path)])
    file, prefix = (path / "archive.json", "$") if form == "folder" else (path, "$.archive")
    warnings = [line.strip() for line in result.output.splitlines() if line.strip().startswith("warning:")]
    assert (result.exit_code, warnings) == (0, [
        f"warning: {file}: {prefix}.agents[0].reputation: 7.0 is written as a fraction where an integer goes; "
        "read as 7",
        f"warning: {file}: {prefix}.errata[0].events[0]: 2.0 is written as a fraction where an integer goes; "
        "read as 2"])
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "json"])
    report = json.loads(result.stdout)
    assert (result.exit_code, [finding["kind"] for finding in report["findings"]]) == (1, ["erratum-applied"])
    [seat] = [row for row in report["seats"] if row["agentId"] == "a_1"]
    assert seat["reputation"] == 7 and type(seat["reputation"]) is int
    assert report["source"]["excludedByErrata"] == [2]
