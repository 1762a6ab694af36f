"""``daishi-forensics validate``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes

from ._progress import progress_for, progress_options
from ._common import TARGET_HELP, handle_errors, import_late, imported_late, input_options, not_empty, set_help, write_output

if TYPE_CHECKING:
    from daishi_forensics.read.validate import validate_targets
    from daishi_forensics.report.render.validation import render

_LATE = {
    "render": "daishi_forensics.report.render.validation",
    "validate_targets": "daishi_forensics.read.validate",
}
"""What the command imports when it runs (the read boundary, the schemas and their validators, the
renderer), not when ``validate --help`` is asked for."""

FORMATS = ("text", "json", "github")
"""The renderer's formats (``report.render.validation.FORMATS``, which a test holds this equal to)."""

MAX_ERRORS = 50
"""``--max-errors``'s default (``read.validate.MAX_ERRORS``, which a test holds this equal to)."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


@click.command(
    epilog=exitcodes.epilog(findings="findings: an invalid event or archive, a log that ends before the match did "
                                     "(truncated), or with --strict an unknown type")
    + " Example (CI): daishi-forensics validate --format github exports/",
)
@click.argument("targets", nargs=-1, required=True, metavar="TARGET...", callback=not_empty)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text for people, json for programs, github for workflow annotations.")
@click.option("--strict", is_flag=True, help="Unknown event types are errors (default: warn, count, keep).")
@click.option("--max-errors", type=click.IntRange(min=1), default=MAX_ERRORS, show_default=True, metavar="N",
              help="List at most N problems of each kind per match, then say how many more there are "
                   "(the JSON keeps every count; past N, a record's schema problems count one per field "
                   "it breaks).")
@progress_options
@input_options
@handle_errors
def validate(targets: tuple[str, ...], fmt: str, strict: bool, max_errors: int, quiet: bool, progress: bool,
             store: Path | None,
             server: str | None) -> None:
    """Validate every event and the archive of each match against the JSON Schemas.

    Every problem is collected (file, line, event id, JSON path of the field, what
    was expected) rather than stopping at the first. v1 and v2 events are
    validated in their own version, then upcast. A folder that is not itself a
    match stands for the matches inside it.
    """
    import_late(globals(), _LATE)
    with progress_for(f"validate {' '.join(targets)}", quiet, progress) as line:
        line.stage("reading and validating")
        result = validate_targets(targets, store=store, server=server, strict=strict, max_errors=max_errors)
    write_output(render(result, fmt), None)
    raise SystemExit(result.exit_code)


set_help(validate, TARGET_HELP,
         "TARGET - reads one match (a stream or a bundle, gzip-compressed or not) from standard input, named "
         "<stdin> (a github annotation names no file): cat m_<id>.jsonl | daishi-forensics validate -")
