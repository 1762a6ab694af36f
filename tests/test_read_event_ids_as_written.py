"""A problem of an event whose id is no integer within 64 bits names the id as written (a string id, or
the number's text), so the reader can find the event."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.validate import validate_targets

from .matchkit import archive, ev, write_match

BIG = "123456789012345678901234567890"


def odd_ids(tmp_path: Path, form: str) -> Path:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 1, "rest", "a_1"), ev(3, 1, "rest", "a_1"),
              ev(4, 1, "rest", "a_1")]
    path = write_match(tmp_path, events, archive(["a_1"], ended=10), form=form)
    path.write_bytes(path.read_bytes().replace(b'"id":3,', f'"id":{BIG},'.encode())
                     .replace(b'"id":4,', b'"id":"e-4\\u001b[31m",'))
    return path


@pytest.mark.parametrize("form", ["stream", "bundle"])
def test_an_id_past_64_bits_or_a_string_id_is_named_as_written(tmp_path: Path, form: str) -> None:
    path = odd_ids(tmp_path, form)
    result = validate_targets([str(path)])
    said = [(p.code, p.event_id, p.index, p.path, p.message) for p in result.files[0].problems]
    assert said == [
        ("integer-range", BIG, 2, "$.id", f"{BIG} (as written in the file; read as 1.2345678901234568e+29) is past "
                                          "2**53: an integer this large cannot be read exactly"),
        ("schema", "e-4\x1b[31m", 3, "$.id", "'e-4\\x1b[31m' is not of type 'integer'"),
    ]
    assert [p.as_dict()["eventId"] for p in result.files[0].problems] == [BIG, "e-4\x1b[31m"]
    assert result.exit_code == 1


def test_the_text_output_names_the_id_and_prints_no_control_character(tmp_path: Path) -> None:
    path = odd_ids(tmp_path, "stream")
    out = CliRunner().invoke(main, ["validate", str(path)]).stdout
    assert f"{path}, line 4, id {BIG}" in out
    assert f"{path}, line 5, id 'e-4\\x1b[31m'" in out
    assert "\x1b" not in out
