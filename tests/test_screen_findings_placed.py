"""Where ``screen --format github|sarif`` places a finding, and what the github format's findings hold."""

from __future__ import annotations

import dataclasses

import pytest

from daishi_forensics.report.screening import MatchOutcome, ScreenRun
from daishi_forensics.screens.config import default_config
from daishi_forensics.screens.flags import Flag
from daishi_forensics.screens.screening import ScreenResult, SeasonResult


def _run() -> ScreenRun:
    """A flagged match held under two names (its flag's first evidence event, 40, on line 19 of the first), a match
    not read, and a season flag citing event 40 of the first match and 7 of a match no target holds."""
    config = default_config()
    flag = Flag("feeder", "hub_and_spoke", "flag", ("h", "a"), (("a", "h"),), 2.0, 2.0, (40, 41), "h was fed.")
    result = ScreenResult("flag", config.version, config.digest, (flag,), ("its log ends before the match did",))
    hub = Flag("feeder", "hub_and_spoke", "flag", ("h",), (), 2.0, 2.0, ("m_1#40", "m_9#7"), "h, across the season.",
               match="season")
    season = SeasonResult("flag", config.version, config.digest, (result,), (hub,), ("a search out of steps",))
    return ScreenRun(config, (MatchOutcome("a/m_1.jsonl", "m_1", result, also=("b/m_1.json",), lines={40: 19}),
                              MatchOutcome("m_2.jsonl", error="m_2.jsonl: no such file", error_code=3)), season)


def test_a_finding_is_named_by_its_fields() -> None:
    """A github finding was a 7-tuple unpacked by position in four places (the annotation, the step summary, the
    counts and the list itself): two of its fields swapped would still unpack. It is a frozen record of named
    fields now (group, target, flag, reason, also, line, season_file); the annotations and the summary are the
    same bytes."""
    from daishi_forensics.report.render.screens import _Finding, _findings, render_github

    found = _findings(_run())
    assert all(isinstance(f, _Finding) for f in found)
    assert [(f.group, f.target, f.flag.screen if f.flag else None, f.reason, f.also, f.line, f.season_file)
            for f in found] == [
        ("flag", "a/m_1.jsonl", "feeder", "", ("b/m_1.json",), 19, None),
        ("flag", None, "feeder", "", (), 19, "a/m_1.jsonl"),
        ("unread", "m_2.jsonl", None, "m_2.jsonl: no such file", (), None, None),
        ("partial", "a/m_1.jsonl", None, "its log ends before the match did", ("b/m_1.json",), None, None),
        ("partial", None, None, "a search out of steps", (), None, None),
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        found[0].line = 1  # type: ignore[misc]
    assert render_github(_run()).splitlines()[:5] == [
        "::error file=a/m_1.jsonl,line=19,title=daishi-forensics feeder/hub_and_spoke::h was fed. Score 2 (threshold "
        "2). Events: 40, 41. The same match: b/m_1.json (screened once).",
        "::error file=a/m_1.jsonl,line=19,title=daishi-forensics feeder/hub_and_spoke::h, across the season. Score 2 "
        "(threshold 2). Events: m_1#40, m_9#7.",
        "::error title=daishi-forensics not screened::m_2.jsonl: no such file",
        "::warning file=a/m_1.jsonl,title=daishi-forensics not screened whole::its log ends before the match did; "
        "the same match: b/m_1.json",
        "::warning title=daishi-forensics season not screened whole::a search out of steps",
    ]
