"""A record whose ``schemaVersion`` is 0 or below (written ``0``, ``-1``, ``-0.0``: no version the format has)
is refused by the read boundary's checks and cited by the invalid-events finding; the HTML page, which shows
each cited record read without the checks, stopped with an internal error (exit 70, "KeyError: 0"): the upcast
looked up a step from version 0. Such a record is now shown on the page as written (its ``schemaVersion`` as read,
not upcast: no upcast starts from it), as a record whose ``schemaVersion`` is not an integer is."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.report.evidence import fetch_events

from .matchkit import archive, ev, write_match


def _with_version(tmp_path: Path, written: str) -> Path:
    """Two seats spawned and moved; record 3 (line 4) with its ``schemaVersion`` written as ``written``."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
              ev(4, 2, "move", "a_2", **{"from": "r_0_0", "to": "r_1_0"})]
    path = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=5))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[3])["id"] == 3
    lines[3] = lines[3].replace('"schemaVersion":3', f'"schemaVersion":{written}')
    assert f'"schemaVersion":{written},' in lines[3]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("written", "read"), [("0", 0), ("-1", -1), ("-0.0", 0)])
def test_a_cited_record_of_version_below_one_is_shown_not_a_crash(tmp_path: Path, written: str, read: int) -> None:
    path = _with_version(tmp_path, written)
    assert [e["id"] for e in read_match(open_match(str(path))).events()] == [1, 2, 4]  # the checks refuse it
    shown = fetch_events(open_match(str(path)), [3], scrub=False)
    # as written, not upcast from version 1 (this asserted upcastPath [1, 2, 3], the page showing a version the
    # record never had)
    assert shown[3]["payload"] == {"from": "r_0_0", "to": "r_0_1"} and shown[3]["schemaVersion"] == read
    assert "upcastPath" not in shown[3]
    page = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "html", "-o", str(page)])
    assert result.exit_code == 1, result.output
    assert '<tr id="ev-3"' in page.read_text(encoding="utf-8")


@pytest.mark.parametrize(("written", "said"), [('"3"', "'3'"), ("null", "null"), ("2.5", "2.5"), ("true", "true"),
                                               ("0", "0"), ("4", "4")])
def test_a_cited_record_of_an_unknown_version_is_shown_as_written(tmp_path: Path, written: str, said: str) -> None:
    """A cited record whose ``schemaVersion`` is none this tool reads (``"3"``, ``null``, ``2.5``, ``true``, ``0``,
    ``4``) is refused by the checks and cited by the invalid-events finding.  The page's evidence showed it upcast
    from version 1 (``"schemaVersion": 3``, ``"upcastPath": [1, 2, 3]``), a version it never had; it is now shown
    as written, under the words ``validate`` names it with."""
    path = _with_version(tmp_path, written)
    named = f"unknown schemaVersion {said} (this tool reads 1, 2 and 3)"
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert validated.exit_code == exitcodes.FINDINGS
    assert f"  error: {path}, line 4, id 3: $.schemaVersion: {named}" in validated.output.splitlines()
    page = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["behavior", str(path), "--format", "html", "-o", str(page)])
    assert result.exit_code == exitcodes.FINDINGS, result.output
    row = re.search(r'<tr id="ev-3">.*?</tr>', page.read_text(encoding="utf-8"), re.S)
    assert row is not None
    cell = html.unescape(row.group())
    assert f'<td><p class="note">{named}: the record as written, not upcast</p><pre class="event">' in cell
    shown = json.loads(cell.split('<pre class="event">', 1)[1].split("</pre>", 1)[0])
    assert shown["schemaVersion"] == json.loads(written) and "upcastPath" not in shown
    assert shown["payload"] == {"from": "r_0_0", "to": "r_0_1"}
    other = re.search(r'<tr id="ev-4">.*?</tr>', page.read_text(encoding="utf-8"), re.S)
    assert other is None or 'class="note"' not in other.group()
