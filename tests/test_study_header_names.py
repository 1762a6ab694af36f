"""A study file's header message names its columns bounded, as its fields are: a column name past 24
characters by its start and its length, and at most 25 names, the rest counted; a repeated column is named."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.study.files import TRIAL_COLUMNS

from .studykit import write_study
from .test_study_audit import study_a_page, study_a_rows

EXPECTED = ",".join(c.name for c in TRIAL_COLUMNS)


def _audit_with_header(tmp_path: Path, header: str) -> tuple[int, str, str]:
    trials, seats = study_a_rows()
    folder = write_study(tmp_path / "s", trials, seats, study_a_page())
    rows = (folder / "trials.csv").read_text(encoding="utf-8").split("\n", 1)[1]
    (folder / "trials.csv").write_text(header + "\n" + rows, encoding="utf-8")
    from daishi_forensics.cli import main

    result = CliRunner().invoke(main, ["study", "audit", str(folder)])
    return result.exit_code, result.stdout, result.stderr.replace(str(folder), "S")


def test_a_long_column_name_is_cut_in_the_header_message(tmp_path: Path) -> None:
    """``study audit`` of a trials.csv whose column ``arm`` is renamed to 100,000 characters put them all on
    stderr ("not expected aaaa…", 100 KB); the name is now shown by its first 24 characters and its length
    (exit code unchanged: 2)."""
    header = EXPECTED.replace(",arm,", "," + "a" * 100_000 + ",", 1)
    assert (_audit_with_header(tmp_path, header)) == (
        exitcodes.STUDY_UNREADABLE, "",
        "daishi-forensics: error: S/trials.csv, line 1: the header is not the expected columns (missing arm; not "
        f"expected 'aaaaaaaaaaaaaaaaaaaaaaaa…' (100000 characters)); expected: {EXPECTED}\n")


def test_many_unexpected_columns_are_listed_25_and_counted(tmp_path: Path) -> None:
    """A header of 100,000 unexpected columns listed every one; the first 25 are listed, the rest counted."""
    header = EXPECTED + "," + ",".join(f"x{i}" for i in range(100_000))
    listed = ", ".join(f"x{i}" for i in range(25))
    assert (_audit_with_header(tmp_path, header)) == (
        exitcodes.STUDY_UNREADABLE, "",
        "daishi-forensics: error: S/trials.csv, line 1: the header is not the expected columns (not expected "
        f"{listed} (and 99,975 more)); expected: {EXPECTED}\n")


def test_a_short_column_name_is_named_as_it_stands(tmp_path: Path) -> None:
    header = EXPECTED.replace(",arm,", ",arms,", 1)
    assert (_audit_with_header(tmp_path, header))[2] == (
        "daishi-forensics: error: S/trials.csv, line 1: the header is not the expected columns (missing arm; not "
        f"expected arms); expected: {EXPECTED}\n")


def test_a_repeated_column_is_said_repeated_not_out_of_order(tmp_path: Path) -> None:
    """A header with a column twice (``study`` again at the end) was "the columns are out of order", and one
    with a column in another's place ("arm" written "trial" again) only "missing arm"; the repeated column is
    now named (exit code unchanged: 2)."""
    for header, detail in ((EXPECTED + ",study", "repeated study"),
                           (EXPECTED.replace(",arm,", ",trial,", 1), "missing arm; repeated trial")):
        assert (_audit_with_header(tmp_path, header)) == (
            exitcodes.STUDY_UNREADABLE, "",
            f"daishi-forensics: error: S/trials.csv, line 1: the header is not the expected columns ({detail}); "
            f"expected: {EXPECTED}\n")


def test_an_unexpected_column_repeated_is_listed_once_with_its_count(tmp_path: Path) -> None:
    """A header with an unexpected column 100,000 times (``note``, then ``extra`` once) listed ``note`` 25 times
    and "(and 99,976 more)", never reaching ``extra``; each unexpected name is now listed once, with how many
    times the header has it (exit code unchanged: 2)."""
    header = EXPECTED + ",note" * 100_000 + ",extra," + "y" * 30 + "," + "y" * 30
    assert (_audit_with_header(tmp_path, header)) == (
        exitcodes.STUDY_UNREADABLE, "",
        "daishi-forensics: error: S/trials.csv, line 1: the header is not the expected columns (not expected "
        "note (100,000 times), extra, 'yyyyyyyyyyyyyyyyyyyyyyyy…' (30 characters) (2 times)); "
        f"expected: {EXPECTED}\n")


def test_past_25_distinct_unexpected_names_the_rest_are_counted_by_name(tmp_path: Path) -> None:
    """Each of 30 unexpected names written twice: the first 25 names listed once each, 5 more counted."""
    header = EXPECTED + "".join(f",x{i},x{i}" for i in range(30))
    listed = ", ".join(f"x{i} (2 times)" for i in range(25))
    assert (_audit_with_header(tmp_path, header)) == (
        exitcodes.STUDY_UNREADABLE, "",
        "daishi-forensics: error: S/trials.csv, line 1: the header is not the expected columns (not expected "
        f"{listed} (and 5 more)); expected: {EXPECTED}\n")
