"""An empty TARGET ('') is a usage error in every command that reads matches: a path of no characters
would be read as the current folder, and every match in it analysed (or none, with a misleading error)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main


@pytest.mark.parametrize("args", [["behavior", ""], ["score", ""], ["screen", ""], ["screen", "m_demo", ""],
                                  ["validate", ""], ["export", "", "--parquet", "lake"], ["compare", "m_demo", ""]])
def test_an_empty_target_is_a_usage_error(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "a target is empty: give a match file, a folder of matches or a match id" in result.output
    assert "Traceback" not in result.output
