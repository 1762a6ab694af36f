"""score: a number past 2^53 - 1 read as a double (an integer written past 64 bits) is refused, never quoted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .matchkit import write_match
from .test_audit import match_a, published

AS_DOUBLE = ("a number past 2^53 - 1 (9007199254740991), the largest integer the export format holds (not quoted: "
             "read as a double, it may not be the number written)")


def _folder(tmp_path: Path, report_at: tuple[Any, ...] | None, archive_at: tuple[Any, ...] | None, value: Any) -> str:
    """Match A as a folder with its published report, ``value`` written (by the standard library's JSON, which
    writes an integer past 64 bits as it is) at ``report_at`` in report.json or ``archive_at`` in archive.json."""
    events, arch = match_a()
    report = published(tmp_path, events, arch, "2.4")
    path = write_match(tmp_path / "m", events, arch, form="folder", report=report)
    for name, where in (("report.json", report_at), ("archive.json", archive_at)):
        if where is None:
            continue
        document = json.loads((path / name).read_text(encoding="utf-8"))
        holder = document
        for key in where[:-1]:
            holder = holder.setdefault(key, {}) if isinstance(key, str) else holder[key]
        holder[where[-1]] = value
        (path / name).write_text(json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("where", "field"), [
    (("seats", 0, "rank"), "report.seats[0].rank"),
    (("seats", 1, "seat"), "report.seats[1].seat"),
    (("seats", 0, "raw", "messagesSent"), "report.seats[0].raw.messagesSent"),
    (("seats", 2, "dimensions", "social"), "report.seats[2].dimensions.social"),
    (("fieldSize",), "report.fieldSize"),
])
@pytest.mark.parametrize("value", [2**64, 2**64 + 1, 10**30])
def test_a_published_figure_past_64_bits_is_refused_not_echoed_as_a_double(
        tmp_path: Path, where: tuple[Any, ...], field: str, value: int) -> None:
    """A report whose rank was 18446744073709551616 (or 18446744073709551617) was compared and printed as
    'published 1.8446744073709552e+19' (exit 1, DIFFERS): the double an integer past 64 bits is read as, which may
    not be the number written. It is refused now, as a count of the board past 2^53 - 1 is, naming the file and the
    field (exit 1, nothing on stdout)."""
    path = _folder(tmp_path, where, None, value)
    for fmt in ("text", "json"):
        result = CliRunner().invoke(main, ["score", path, "--format", fmt])
        assert result.exit_code == 1, (fmt, result.output)
        assert result.stdout == ""
        assert result.stderr == f"daishi-forensics: error: {path}, field {field}: {AS_DOUBLE}\n"


def test_a_published_integer_past_2_53_read_exactly_is_still_compared_and_quoted_as_written(tmp_path: Path) -> None:
    path = _folder(tmp_path, ("seats", 0, "rank"), None, 2**53 + 1)
    result = CliRunner().invoke(main, ["score", path])
    assert result.exit_code == 1
    assert "  a_1 rank: recomputed 1, published 9007199254740993" in result.stdout.splitlines()
    doc = json.loads(CliRunner().invoke(main, ["score", path, "--format", "json"]).stdout)
    rank = next(f for f in doc["seats"][0]["figures"] if f["figure"] == "rank")
    assert (rank["published"], rank["status"]) == (2**53 + 1, "DIFFERS")


@pytest.mark.parametrize(("where", "field"), [
    (("agents", 0, "aggression"), "agents[0].aggression"),
    (("metrics", "a_1", "gather"), "metrics.a_1.gather"),
    (("ledger", "pairs", 0), "ledger.pairs[0].trades"),
])
def test_a_board_count_past_64_bits_is_refused_without_quoting_its_double(
        tmp_path: Path, where: tuple[Any, ...], field: str) -> None:
    """A board count of 18446744073709551616 was refused as 'not a count: 1.8446744073709552e+19' (exit 1): it is
    past 2^53 - 1, said as a count of 2^63 is, without the double."""
    value: Any = 2**64
    if where[0] == "ledger":
        where, value = ("ledger", "pairs"), [{"a": "a_1", "b": "a_2", "trades": 2**64, "netShare": 1}]
    path = _folder(tmp_path, None, where, value)
    result = CliRunner().invoke(main, ["score", path])
    assert result.exit_code == 1
    assert result.stderr == f"daishi-forensics: error: {path}, field {field}: {AS_DOUBLE}\n"
