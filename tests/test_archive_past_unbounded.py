"""An archive integer the schema does not bound (a config's event_schema_version, a seat's reputation), read as a
double past 2**53: refused as the same number in an event is, quoted as written."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match

MARK = b"777777"
PAST = "is past 2**53: an integer this large cannot be read exactly"
QUOTED = {
    "9007199254740993.0": f"9007199254740993.0 (as written in the file; read as 9007199254740992.0) {PAST}",
    "18446744073709551617": f"18446744073709551617 (as written in the file; read as 1.8446744073709552e+19) {PAST}",
    "1e20": f"1e+20 {PAST}",
}


def _match(tmp_path: Path, form: str, field: str, written: str, *, manifest: bool = False) -> Path:
    """A one-seat match whose archive holds ``written`` at ``field`` (``esv``: config.event_schema_version,
    ``reputation``: agents[0].reputation); with ``manifest``, its log starts with a match_manifest holding it
    as its eventSchemaVersion instead."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1")]
    arch = archive(["a_1"], ended=5)
    if manifest:
        events.insert(0, ev(0, 0, "match_manifest", None, seed=5, engineVersion="0.5.2", eventSchemaVersion=777777,
                            config={}, roster=[{"agentId": "a_1", "seat": 1, "name": "a_1", "role": "player"}]))
    elif field == "esv":
        arch["config"]["event_schema_version"] = 777777
    else:
        arch["agents"][0]["reputation"] = 777777
    path = write_match(tmp_path, events, arch, form=form)
    for file in ([path / "archive.json", path / "events.jsonl"] if path.is_dir() else [path]):
        text = file.read_bytes()
        file.write_bytes(text.replace(MARK, written.encode()))
    return path


FIELDS = {"esv": "config.event_schema_version", "reputation": "agents[0].reputation"}


@pytest.mark.parametrize("written", list(QUOTED))
@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("form", ["bundle", "stream", "folder"])
def test_validate_lists_it_as_an_error_of_the_archive(tmp_path: Path, form: str, field: str, written: str) -> None:
    """validate said such a match valid (exit 0); it lists the number now, as written, at its path (exit 1)."""
    path = _match(tmp_path, form, field, written)
    result = CliRunner().invoke(main, ["validate", str(path)])
    errors = [line.strip() for line in result.output.splitlines() if line.strip().startswith("error:")]
    where = f"{path / 'archive.json'}: $.{FIELDS[field]}" if form == "folder" else f"{path}: $.archive.{FIELDS[field]}"
    assert (result.exit_code, errors) == (1, [f"error: {where}: {QUOTED[written]}"])


@pytest.mark.parametrize("written", list(QUOTED))
@pytest.mark.parametrize("field", list(FIELDS))
@pytest.mark.parametrize("form", ["bundle", "stream", "folder"])
def test_behavior_screen_and_score_refuse_it_naming_the_file_and_field(tmp_path: Path, form: str, field: str,
                                                                       written: str) -> None:
    """behavior wrote a report (exit 0) with "reputation": 9007199254740992.0, a number the file does not hold,
    and screen screened the match; each refuses it now as it refuses another bad archive field: exit 1, the
    file, the field and the number as written."""
    path = _match(tmp_path, form, field, written)
    said = f"{path}, field {FIELDS[field]}: {QUOTED[written]}"
    for command in ("behavior", "score"):
        result = CliRunner().invoke(main, [command, str(path), "--format", "json"])
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"daishi-forensics: error: {said}\n")
    result = CliRunner().invoke(main, ["screen", str(path), "--format", "json"])
    assert result.exit_code == 1
    assert '"error": "' + said + '"' in result.stdout


@pytest.mark.parametrize("written", list(QUOTED))
def test_the_archive_and_an_event_say_it_in_the_same_words(tmp_path: Path, written: str) -> None:
    """The same number as a manifest's eventSchemaVersion (which its schema does not bound either) is an
    error of the event; the archive's words are the event's."""
    path = _match(tmp_path, "stream", "esv", written, manifest=True)
    result = CliRunner().invoke(main, ["validate", str(path)])
    errors = [line.strip() for line in result.output.splitlines() if line.strip().startswith("error:")]
    assert (result.exit_code, errors) == (
        1, [f"error: {path}, line 2, id 0: $.payload.eventSchemaVersion: {QUOTED[written]}"])


@pytest.mark.parametrize("written", ["9007199254740991", "9007199254740993"])
def test_a_number_read_exactly_is_kept_as_before(tmp_path: Path, written: str) -> None:
    """An integer read exactly (up to 64 bits, as an event's is) is no error."""
    path = _match(tmp_path, "bundle", "reputation", written)
    result = CliRunner().invoke(main, ["validate", str(path)])
    lines = [line.strip() for line in result.output.splitlines() if line.strip().startswith(("error:", "warning:"))]
    assert (result.exit_code, lines) == (0, [])
    assert CliRunner().invoke(main, ["behavior", str(path), "--format", "json"]).exit_code == 0
