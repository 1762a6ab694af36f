"""An output never replaces a file the command read as input: ``-o`` naming the match, the corpus or the
table itself stops the command (exit 74) with the evidence untouched."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes, outputs
from daishi_forensics.cli import main
from daishi_forensics.errors import OutputError
from daishi_forensics.simulate import simulate_match, write_match


@pytest.fixture
def command() -> Iterator[None]:
    """A command's run, as every command has it (the CLI enters it)."""
    with outputs.inputs_kept():
        yield


@pytest.mark.usefixtures("command")
def test_a_noted_input_is_never_replaced(tmp_path: Path) -> None:
    evidence = tmp_path / "m.jsonl"
    evidence.write_text("the log\n")
    other = tmp_path / "r.json"
    outputs.note_input(os.stat(evidence))
    with pytest.raises(OutputError) as caught:
        outputs.write_file(evidence, "a report")
    assert "is an input of this command" in str(caught.value) and str(evidence) in str(caught.value)
    outputs.write_file(other, "a report")  # any other file is written as always
    assert evidence.read_text() == "the log\n" and other.read_text() == "a report"


@pytest.mark.usefixtures("command")
def test_an_input_opened_while_the_output_is_written_is_not_replaced_either(tmp_path: Path) -> None:
    evidence = tmp_path / "corpus.jsonl"
    evidence.write_text("the corpus\n")
    with pytest.raises(OutputError), outputs.atomic_file(evidence) as handle:  # a streaming command: the input is
        outputs.note_input(os.stat(evidence))  # opened once the output is already open
        handle.write("rows")
    assert evidence.read_text() == "the corpus\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.jsonl"]  # no temporary file left


@pytest.mark.usefixtures("command")
def test_a_link_to_the_input_is_the_input(tmp_path: Path) -> None:
    evidence = tmp_path / "m.jsonl"
    evidence.write_text("the log\n")
    link = tmp_path / "out.json"
    link.symlink_to(evidence)
    outputs.note_input(os.stat(evidence))
    with pytest.raises(OutputError):
        outputs.write_file(link, "a report")
    assert evidence.read_text() == "the log\n" and link.is_symlink()


@pytest.mark.parametrize("command", [["behavior", "--format", "json"], ["screen"], ["propagation"]])
def test_a_report_written_over_its_own_match_is_refused(tmp_path: Path, command: list[str]) -> None:
    path = write_match(simulate_match("clean", 3, n_agents=4, ticks=30), tmp_path, form="stream")
    before = path.read_bytes()
    result = CliRunner().invoke(main, [command[0], str(path), *command[1:], "-o", str(path)])
    assert result.exit_code == exitcodes.OUTPUT, result.output
    assert "is an input of this command" in result.stderr
    assert path.read_bytes() == before


def test_tiers_and_screen_transfers_leave_their_input_whole(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"text": "hello"}\n')
    table = tmp_path / "t.csv"
    table.write_text("from,to,value,tick\na,b,5,1\n")
    for args, path in ((["tiers", str(corpus)], corpus), (["screen-transfers", str(table)], table)):
        before = path.read_bytes()
        result = CliRunner().invoke(main, [*args, "-o", str(path)])
        assert result.exit_code == exitcodes.OUTPUT, (args, result.output)
        assert path.read_bytes() == before


@pytest.mark.usefixtures("command")
def test_a_file_that_is_no_longer_the_one_read_may_be_written(tmp_path: Path) -> None:
    # a later file given a deleted input's inode (a long test session, a season) is not taken for the input:
    # the input is known by its size and modification time too
    evidence = tmp_path / "m.jsonl"
    evidence.write_text("the log\n")
    status = os.stat(evidence)
    outputs.note_input(status)
    os.utime(evidence, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))
    outputs.write_file(evidence, "a report")
    assert evidence.read_text() == "a report"


def test_outside_a_command_a_program_may_write_a_file_it_read(tmp_path: Path) -> None:
    # the simulator regenerating a match a program has just read, as the tests do
    path = write_match(simulate_match("clean", 3, n_agents=4, ticks=30), tmp_path, form="stream")
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.read.sources import open_match

    assert sum(1 for _ in read_match(open_match(str(path))).events()) > 0
    assert write_match(simulate_match("clean", 3, n_agents=4, ticks=30), tmp_path, form="stream") == path
