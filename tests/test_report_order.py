"""The report's parts are computed with those marked ``first`` before the others (a lower peak), and put in
the report in the order the sections are given, whatever order they were computed in."""

from __future__ import annotations

from typing import Any

from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.report.assembly import behavior_report
from daishi_forensics.report.passes import analyze
from daishi_forensics.report.sections import SECTIONS, Section


def test_a_part_marked_first_is_computed_first_and_put_in_its_place() -> None:
    computed: list[str] = []

    def section(name: str, first: bool = False) -> Section:
        def compute(analysis: Any, context: Any) -> str:
            computed.append(name)
            return name

        def apply(report: dict[str, Any], part: str) -> None:
            report.setdefault("parts", []).append(part)

        return Section(name, compute, apply, first=first)

    analysis = analyze(read_match(open_match("m_demo")))
    report = behavior_report(analysis, sections=(section("a"), section("b"), section("c", first=True), section("d")))
    assert computed == ["c", "a", "b", "d"]
    assert report["parts"] == ["a", "b", "c", "d"]


def test_the_text_analyses_come_first_and_only_they() -> None:
    assert [s.name for s in SECTIONS if s.first] == ["injection"]
