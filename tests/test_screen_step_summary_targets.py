"""``screen --format github`` with ``$GITHUB_STEP_SUMMARY``: a match given under several names is screened once,
and its step-summary rows name the other files in the target column.  The row of a part not screened ("not
screened whole") named them in its reason column ("…; the same match: b/…, c/…"), its target column the first
file alone, where a flag's row names them in the target column."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.textsafe import md_escape

from .matchkit import archive, write_match
from .test_screens_daishi import feeder_events


def test_a_part_not_screened_names_the_other_files_in_the_target_column(tmp_path: Path) -> None:
    arch = archive(["a_1", "a_2", "a_3", "a_4", "h"], ended=40)
    first = str(write_match(tmp_path / "a", feeder_events(), arch))
    copy = str(write_match(tmp_path / "b", feeder_events(), arch))
    bundle = str(write_match(tmp_path / "c", feeder_events(), arch, form="bundle-gz"))
    summary = tmp_path / "summary.md"
    result = CliRunner().invoke(main, ["screen", "--format", "github", first, copy, bundle],
                                env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.exit_code == 1
    where = md_escape(f"{first} (the same match: {copy}, {bundle})")
    lines = summary.read_text().splitlines()
    assert lines[6].startswith(f"| flag | feeder/hub\\_and\\_spoke | {where} | h, a\\_1, a\\_2, a\\_4 | "), lines[6]
    assert lines[7:] == [f"| warning | not screened whole | {where} | – | – | not screened: operator (no seat names "
                         "its operator) | – |", ""]
    # the annotation, which has one file to name, keeps naming the others in its message
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::warning")]
    assert annotations == [f"::warning file={first},title=daishi-forensics not screened whole::not screened: "
                           f"operator (no seat names its operator); the same match: {copy}, {bundle}"]
