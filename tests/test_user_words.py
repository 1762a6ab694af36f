"""What the score and study audit outputs say where the published rules are silent is written for
their readers: it names the published rubric and rules, never this project's design documents
("the seed", "seed 000", a section sign)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.score.rubric import READINGS as SCORE_READINGS
from daishi_forensics.study.readings import READINGS as STUDY_READINGS

DESIGN_WORDS = re.compile(r"\bthe seeds?\b|\bseeds? 00\d|\bseeds? (?:do|does|say|says|name|names|gives?)\b|§", re.I)


def run(args: list[str]) -> str:
    result = CliRunner().invoke(main, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.output


def test_every_reading_speaks_of_the_published_rules() -> None:
    for reading in (*SCORE_READINGS, *STUDY_READINGS):
        for text in (reading.silent, reading.reading):
            assert not DESIGN_WORDS.search(text), (reading.key, text)


@pytest.mark.parametrize("form", ["text", "json"])
def test_score_output_names_no_design_document(form: str) -> None:
    out = run(["score", "m_demo", "--format", form])
    assert "published rubric does not give the wealth formula" in out  # the wording that replaced it
    assert not DESIGN_WORDS.search(out)


@pytest.mark.parametrize("form", ["text", "markdown", "json"])
def test_study_audit_output_names_no_design_document(tmp_path: Path, form: str) -> None:
    run(["simulate", "study", "--out", str(tmp_path)])
    out = run(["study", "audit", str(tmp_path / "paired-fixed"), "--format", form])
    assert "published" in out
    assert not DESIGN_WORDS.search(out)
