"""``daishi-forensics score``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes
from daishi_forensics.score.rubric import VERSIONS, UnknownRubric, rubric

from daishi_forensics.textsafe import shown

from ._progress import progress_for, progress_options
from ._common import (import_late, imported_late, output_named, ONE_MATCH_FOLDER, TARGET_HELP, fail, format_for,
                      handle_errors, input_options, not_empty, set_help, write_output)

if TYPE_CHECKING:
    from daishi_forensics.report.render.score import render
    from daishi_forensics.score.audit import audit_target

_LATE = {
    "audit_target": "daishi_forensics.score.audit",
    "render": "daishi_forensics.report.render.score",
}
"""What the command imports when it runs, not when its ``--help`` is asked for."""

FORMATS = ("text", "json")
"""``report.render.score.FORMATS`` (a test holds the two equal), spelled out for the option."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


class RubricChoice(click.Choice):
    """A rubric version this tool knows, written as the rubric writes it (``v2.4``) or bare (``2.4``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return rubric(str(value)).version
        except UnknownRubric:
            self.fail(f"{shown(str(value))} is not a rubric version this tool knows; it knows "
                      f"{', '.join(VERSIONS)} (also written v{VERSIONS[-1]})", param, ctx)


@click.command(
    epilog=exitcodes.epilog(
        ok="every figure the same (or the match has no report: nothing to compare)",
        findings="a figure or a scorecard's seat, name or role differs or cannot be read, the report "
                 "breaks its schema, or the match's report could not be read (not JSON, not a JSON object); "
                 "also invalid records in the log (left out, the rest scored), a log that ends before the match "
                 "did (truncated: scored all the same), an archive that fails its schema where the score does not "
                 "read it (read as it stands, the first field named) and an archive figure the "
                 "score reads that breaks the export format (an error naming its field)",
        usage="usage error (also a report naming a rubric this tool does not know)")
    + " Example: daishi-forensics score m_demo --rubric 2.3 --format json -o score.json (the demo has no "
      "report: every seat is recomputed, nothing is compared, exit 0)"
)
@click.argument("target", metavar="TARGET", callback=not_empty)
@click.option("--rubric", "rubric_version", type=RubricChoice(VERSIONS), default=None,
              help="Score under this rubric version instead of the one the report names "
                   "(a leading v is allowed: v2.4).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text for people (the default), json for programs (versioned, deterministic). Without it, "
                   "the name given to -o decides: .json, .txt.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named, help="Write to this file.")
@progress_options
@input_options
@handle_errors
def score(target: str, rubric_version: str | None, fmt: str | None, output: Path | None, quiet: bool, progress: bool,
          store: Path | None, server: str | None) -> None:
    """Recompute each seat's Fitness Index and five dimensions, and check the published ones.

    Scores every seat from the export alone, under the rubric the report names
    (rubricVersion) or the one given with --rubric, exactly as the published rubric
    defines it, and prints each figure beside the published one with same or
    DIFFERS. Each scorecard's seat, name and role are set beside the archive's;
    a figure published as another JSON type (a number written as text) DIFFERS
    and says so, and the Fitness Index may not be left out. The report is
    checked against its schema (each error listed). It says what it took on
    trust (final wealth, message counts), lists the match's errata, and names
    every place the rubric is silent and how it was read. A match without a
    report is recomputed and printed; there is nothing to compare. A report
    that cannot be read is a finding; the match is still recomputed.
    """
    import_late(globals(), _LATE)
    try:
        with progress_for(f"score {target}", quiet, progress) as line:
            line.stage("reading and scoring")
            result = audit_target(target, rubric_version, store=store, server=server)
    except UnknownRubric as exc:
        fail(f"{exc}; pass --rubric to choose one", exitcodes.USAGE)
        return
    write_output(render(result, format_for(fmt, output, FORMATS)), output)
    raise SystemExit(result.exit_code)


set_help(score, TARGET_HELP + ONE_MATCH_FOLDER)
