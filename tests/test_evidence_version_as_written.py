"""A cited record whose ``schemaVersion`` is none this tool reads (``"3"``, ``null``, ``2.5``, ``true``, ``0``, ``4``)
is refused by the read boundary's checks and cited by the invalid-events finding.  The HTML page's evidence
showed it upcast from version 1 (``"schemaVersion": 3``, ``"upcastPath": [1, 2, 3]``), a version it never had;
it is now shown as written, under the words ``validate`` names it with."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main

from .matchkit import archive, ev, write_match


@pytest.mark.parametrize(("written", "said"), [('"3"', "'3'"), ("null", "null"), ("2.5", "2.5"), ("true", "true"),
                                               ("0", "0"), ("4", "4")])
def test_a_cited_record_of_an_unknown_version_is_shown_as_written(tmp_path: Path, written: str, said: str) -> None:
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
              ev(3, 1, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}),
              ev(4, 2, "move", "a_2", **{"from": "r_0_0", "to": "r_1_0"})]
    path = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=5))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[3])["id"] == 3
    lines[3] = lines[3].replace('"schemaVersion":3', f'"schemaVersion":{written}')
    assert f'"schemaVersion":{written},' in lines[3]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
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
