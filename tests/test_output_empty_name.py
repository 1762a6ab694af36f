"""``-o ''`` (an output file of no name) was taken for the current folder: the command did its work and then
failed to write, ".: cannot write it (Is a directory)", exit 74.  It is now a usage error before any work,
exit 2, naming the option, in every command that writes a file with ``-o``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main

COMMANDS = [["behavior", "m_demo"], ["compare", "m_demo"], ["propagation", "m_demo"], ["score", "m_demo"],
            ["screen", "m_demo"], ["study", "audit", "nowhere"], ["tiers", "nowhere.txt"],
            ["screen-transfers", "nowhere.csv"]]


@pytest.mark.parametrize("words", COMMANDS, ids=lambda w: w[0])
def test_an_empty_output_name_is_a_usage_error(words: list[str]) -> None:
    result = CliRunner().invoke(main, [*words, "-o", ""])
    assert result.exit_code == exitcodes.USAGE, result.output
    assert ("Invalid value for '-o' / '--output': the file name is empty: give a file to write, or - for "
            "standard output") in result.stderr
