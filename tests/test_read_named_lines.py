"""Bad records named as a reader finds them: the file, the line or event id, and the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match

from .matchkit import archive, ev, write_match


def _match() -> tuple[list[dict], dict]:
    return ([ev(1, 0, "agent_registered", "a_1", name="Wren", role="player"),
             ev(2, 0, "agent_spawned", "a_1", region="r_0_0"),
             ev(3, 1, "rest", "a_1")], archive(["a_1"], ended=10))


def _errors(path: Path) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["validate", str(path)])
    return result.exit_code, [line.strip() for line in result.output.splitlines() if line.strip().startswith("error:")]


def test_a_stream_line_not_json_is_placed_by_its_column_not_as_line_1(tmp_path: Path) -> None:
    """The parser counts the lines of the one line it is given: its 'line 1' beside the file's line
    4 said two lines for one place (was: "line 4: $: not valid JSON: …: line 1 column 10 (char 9)")."""
    events, arch = _match()
    path = write_match(tmp_path, events, arch)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"id": 3,, "tick": 1}\n'
    path.write_bytes(b"".join(lines))
    assert _errors(path) == (1, [f"error: {path}, line 4: $: not valid JSON: unexpected character, expected a "
                                 "string key: column 10 (char 9)"])


def test_a_folder_events_line_not_json_is_placed_by_its_column(tmp_path: Path) -> None:
    events, arch = _match()
    folder = write_match(tmp_path, events, arch, form="folder")
    log = folder / "events.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    lines[1] = b'{"id": 2 "tick": 0}\n'
    log.write_bytes(b"".join(lines))
    code, errors = _errors(folder)
    assert code == 1
    assert errors == [f"error: {folder}/events.jsonl, line 2: $: not valid JSON: unexpected character, expected ',' "
                      "or '}': column 10 (char 9)"]


def test_a_v1_record_with_a_null_match_id_is_named_not_handed_on(tmp_path: Path) -> None:
    """A v1 record carries no matchId; one written null was passed over by the check of every event's
    matchId (as if absent) and handed to the analyses as it stood, ``matchId: None`` in the v3 shape
    (validate exit 0, nothing said), where ``""`` or ``12345`` were refused.  Now it is refused as they are."""
    events, arch = _match()
    path = write_match(tmp_path, events, arch, version=1)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b"{", b'{"matchId": null, ', 1)
    path.write_bytes(b"".join(lines))
    assert _errors(path) == (1, [f"error: {path}, line 4, id 3: $.matchId: matchId null differs from the export's "
                                 f"{arch['matchId']}"])
    read = read_match(open_match(str(path)))
    assert [e["id"] for e in read.events()] == [1, 2]
    behavior = CliRunner().invoke(main, ["behavior", str(path), "--format", "json"])
    (invalid,) = [f for f in json.loads(behavior.output)["findings"] if f["kind"] == "invalid-events"]
    assert invalid["events"] == [3]


def test_a_v1_record_with_the_export_match_id_is_read(tmp_path: Path) -> None:
    events, arch = _match()
    path = write_match(tmp_path, events, arch, version=1)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b"{", b'{"matchId": "%s", ' % arch["matchId"].encode(), 1)
    path.write_bytes(b"".join(lines))
    assert _errors(path) == (0, [])


def test_a_bundle_quotes_a_number_past_2_53_as_it_writes_it_as_a_stream_does(tmp_path: Path) -> None:
    """In a bundle a number a double cannot hold was quoted as the double read, not as the file writes it:
    ``"tick": 9007199254740993.0`` was '$.tick: 9007199254740992 is greater than the maximum of
    9007199254740991' (a number the file does not hold), ``18446744073709551616`` was
    '1.8446744073709552e+19 is past 2**53'; only the id was quoted as written.  Each is now said in
    the words a stream's line gets (exit 1 as before)."""
    events, arch = _match()
    events.append(ev(4, 2, "gather", "a_1", region="r_0_0", resource="wood", gathered=1))
    path = write_match(tmp_path / "b", events, arch, form="bundle")
    text = path.read_bytes()
    for before, after in ((b'"tick":1,', b'"tick":9007199254740993.0,'),
                          (b'"gathered":1', b'"gathered":18446744073709551616')):
        assert text.count(before) == 1
        text = text.replace(before, after)
    path.write_bytes(text)
    stream = write_match(tmp_path / "s", events, arch)
    stream.write_bytes(stream.read_bytes().replace(b'"tick":1,', b'"tick":9007199254740993.0,')
                       .replace(b'"gathered":1', b'"gathered":18446744073709551616'))
    said = ["$.tick: 9007199254740993.0 (as written in the file; read as 9007199254740992.0) is past 2**53: an "
            "integer this large cannot be read exactly",
            "$.payload.gathered: 18446744073709551616 (as written in the file; read as 1.8446744073709552e+19) is "
            "past 2**53: an integer this large cannot be read exactly"]
    assert _errors(path) == (1, [f"error: {path}, event #2, id 3: {said[0]}", f"error: {path}, event #3, id 4: {said[1]}"])
    assert _errors(stream) == (1, [f"error: {stream}, line 4, id 3: {said[0]}",
                                   f"error: {stream}, line 5, id 4: {said[1]}"])


def _header(path: Path, change: Callable[[dict], None]) -> None:
    first, rest = path.read_bytes().split(b"\n", 1)
    header = json.loads(first)
    change(header)
    path.write_bytes(json.dumps(header).encode() + b"\n" + rest)


@pytest.mark.parametrize(("change", "said"), [
    (lambda h: h.pop("matchId"), "$: 'matchId' is a required property"),
    (lambda h: h.update(matchId=None), "$.matchId: null is not of type 'string'"),
    (lambda h: h.update(matchId=""), "$.matchId: '' does not match '^m_[0-9a-f]{12}$'"),
    (lambda h: h.update(matchId=123), "$.matchId: 123 is not of type 'string'"),
])
def test_a_stream_header_without_a_match_id_is_named(tmp_path: Path, change: Callable[[dict], None], said: str) -> None:
    """The header's matchId (required by the stream header's and the bundle's schema, the match every event's
    matchId is checked against) went unchecked: missing or null, validate said the match valid (exit 0);
    ``""`` or ``123`` were said only as 'archive matchId … differs from the export's …' at
    ``$.archive.matchId``, the archive's field, not the header's.  Now the header's own field is named (exit 1),
    and the archive's, which is the match's, is not blamed."""
    events, arch = _match()
    path = write_match(tmp_path, events, arch)
    _header(path, change)
    assert _errors(path) == (1, [f"error: {path}: {said}"])


def test_a_bundle_without_a_match_id_is_named(tmp_path: Path) -> None:
    events, arch = _match()
    path = write_match(tmp_path, events, arch, form="bundle")
    document = json.loads(path.read_bytes())
    del document["matchId"]
    path.write_bytes(json.dumps(document).encode())
    assert _errors(path) == (1, [f"error: {path}: $: 'matchId' is a required property"])


@pytest.mark.parametrize(("key", "value", "said"), [("agents", "", "''"), ("errata", 123, "123")])
@pytest.mark.parametrize("form", ["stream", "bundle"])
def test_validate_names_the_file_of_an_archive_list_that_is_none(tmp_path: Path, key: str, value: object, said: str,
                                                                 form: str) -> None:
    """validate said 'UNREADABLE  field agents: the archive's agents is not a list: ''' (exit 3) without the
    file, which behavior, score and screen name ('m_….jsonl, field agents: …'): with several targets or a
    folder of matches, nothing said which.  Now it names the file as they do; and, as they exit 1 on it (the
    file was read, its archive is invalid), validate lists it as the archive's error naming the field, exit 1
    (it said the match unreadable, exit 3, which this test pinned at first)."""
    events, arch = _match()
    arch[key] = value
    path = write_match(tmp_path, events, arch, form=form)
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"INVALID     {path} ({form}, {arch['matchId']})"
    assert lines[-2:] == [f"  error: {path}: $.archive.{key}: the archive's {key} is not a list: {said}",
                          "0 of 1 match valid"]


def test_an_archive_tick_written_as_a_fraction_is_read_as_the_integer_and_said(tmp_path: Path) -> None:
    """``"endedAtTick": 10.0`` (an integer the schema accepts, written with a fraction) was valid to validate
    with nothing said (exit 0), while behavior and score refused the match, 'field endedAtTick: endedAtTick
    is missing or not an integer: 10.0' (exit 1).  It is now read as 10, as a record's ``"tick": 57.0`` is,
    and said as a warning naming the field; every command reads the match as with 10."""
    events, arch = _match()
    plain = write_match(tmp_path / "plain", events, arch)
    arch["endedAtTick"] = 10.0
    path = write_match(tmp_path / "float", events, arch)
    assert b'"endedAtTick":10.0' in path.read_bytes()
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0
    assert [line.strip() for line in result.output.splitlines() if "warning" in line] == [
        f"warning: {path}: $.archive.endedAtTick: 10.0 is written as a fraction where an integer goes; read as 10"]
    for command in (["behavior", "--format", "json"], ["score", "--format", "json"]):
        said, expected = (CliRunner().invoke(main, [command[0], str(p), *command[1:]]) for p in (path, plain))
        assert (said.exit_code, said.output.replace(str(path), str(plain))) == (expected.exit_code, expected.output)


@pytest.mark.parametrize("written", [b"9007199254740993.0", b"18446744073709551616"])
def test_an_archive_tick_past_2_53_is_said_so_not_quoted_as_the_double(tmp_path: Path, written: bytes) -> None:
    """``"endedAtTick": 9007199254740993.0`` (read as the double 2**53) was refused by behavior and score as
    'endedAtTick is missing or not an integer: 9007199254740992.0', a number the file does not hold and no
    reason; now in the words every reader of the archive uses for a count read as a double past the bound
    (exit 1 as before)."""
    events, arch = _match()
    arch["endedAtTick"] = 10
    path = write_match(tmp_path, events, arch)
    path.write_bytes(path.read_bytes().replace(b'"endedAtTick":10', b'"endedAtTick":' + written, 1))
    for command in ("behavior", "score"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert (result.exit_code, result.output.splitlines()[-1]) == (
            1, f"daishi-forensics: error: {path}, field endedAtTick: a number past 2^53 - 1 (9007199254740991), the "
               "largest integer the export format holds (not quoted: read as a double, it may not be the number "
               "written): it is not a tick")


@pytest.mark.parametrize("written", [b"9007199254740992.0", b"9007199254740992"])
def test_an_archive_tick_of_2_53_written_as_such_is_quoted_as_the_integer_it_is(tmp_path: Path, written: bytes) -> None:
    """``"endedAtTick": 9007199254740992.0`` was refused as 'a number past 2^53 - 1 ... (not quoted: read as a
    double, it may not be the number written)', though the file writes 2**53, the double read: it is read as that
    integer now, as in an event, and refused as the same tick written without a fraction is (exit 1 as before)."""
    events, arch = _match()
    arch["endedAtTick"] = 10
    path = write_match(tmp_path, events, arch)
    path.write_bytes(path.read_bytes().replace(b'"endedAtTick":10', b'"endedAtTick":' + written, 1))
    for command in ("behavior", "score"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert (result.exit_code, result.output.splitlines()[-1]) == (
            1, f"daishi-forensics: error: {path}, field endedAtTick: 9007199254740992 is not a tick: ticks are "
               "integers from 0 to 2^53 - 1 (9007199254740991)")


@pytest.mark.parametrize("form", ["stream", "bundle"])
def test_validate_says_an_archive_tick_past_2_53_without_quoting_the_double(tmp_path: Path, form: str) -> None:
    """validate said ``"endedAtTick": 9007199254740993.0`` as '$.archive.endedAtTick: 9007199254740992.0 is greater
    than the maximum of 9007199254740991' (exit 1), a number the file does not hold.  The number is quoted as
    written, in a record's words: from a stream's header line, and from a bundle's text, looked at while it is
    read (a bundle's said 'a number past 2^53 - 1 ... (not quoted ...)' before: its text was not kept); exit 1
    as before."""
    said = ("9007199254740993.0 (as written in the file; read as 9007199254740992.0) is past 2**53: an integer "
            "this large cannot be read exactly")
    events, arch = _match()
    arch["endedAtTick"] = 10
    path = write_match(tmp_path, events, arch, form=form)
    path.write_bytes(path.read_bytes().replace(b'"endedAtTick":10', b'"endedAtTick":9007199254740993.0', 1))
    assert _errors(path) == (1, [f"error: {path}: $.archive.endedAtTick: {said}"])


def test_an_archive_integer_the_schema_does_not_bound_is_refused_when_read_as_a_double_past_2_53(
        tmp_path: Path) -> None:
    """A config's event_schema_version of 2**64 (written past 64 bits, so read as a double), which its schema
    does not bound, was valid (exit 0) where the same number in an event (a manifest's eventSchemaVersion) is
    an error; it is one in the archive too now, quoted as written (exit 1).  See
    ``test_archive_past_unbounded.py``."""
    events, arch = _match()
    arch["config"] = {**arch.get("config", {}), "event_schema_version": 3}
    path = write_match(tmp_path, events, arch)
    text = path.read_bytes()
    assert text.count(b'"event_schema_version":3') == 1
    path.write_bytes(text.replace(b'"event_schema_version":3', b'"event_schema_version":18446744073709551616'))
    assert _errors(path) == (1, [f"error: {path}: $.archive.config.event_schema_version: 18446744073709551616 (as "
                                 "written in the file; read as 1.8446744073709552e+19) is past 2**53: an integer "
                                 "this large cannot be read exactly"])


@pytest.mark.parametrize(("key", "value", "said"), [("agents", "", "''"), ("errata", 123, "123")])
def test_validate_names_a_folder_s_archive_json_for_an_archive_list_that_is_none(
        tmp_path: Path, key: str, value: object, said: str) -> None:
    """For a match folder, validate named the folder and the archive's path within the match
    ('error: …/m_…: $.archive.agents: …'), where every other problem of its archive names the file
    ('error: …/m_…/archive.json: $.agents[0].seat: …'): a CI annotation pointed at a folder.  It names
    archive.json now, the path from its root (exit 1 as before)."""
    events, arch = _match()
    arch[key] = value
    path = write_match(tmp_path, events, arch, form="folder")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-2:] == [
        f"  error: {path / 'archive.json'}: $.{key}: the archive's {key} is not a list: {said}", "0 of 1 match valid"]
