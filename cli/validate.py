"""``daishi-forensics validate``."""

from __future__ import annotations

from pathlib import Path

import click

from daishi_forensics import exitcodes
from daishi_forensics.report.render.validation import FORMATS, render
from daishi_forensics.read.validate import MAX_ERRORS, validate_targets

from ._progress import progress_for, progress_options
from ._common import TARGET_HELP, handle_errors, input_options, not_empty, set_help, write_output


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
    with progress_for(f"validate {' '.join(targets)}", quiet, progress) as line:
        line.stage("reading and validating")
        result = validate_targets(targets, store=store, server=server, strict=strict, max_errors=max_errors)
    write_output(render(result, fmt), None)
    raise SystemExit(result.exit_code)


set_help(validate, TARGET_HELP,
         "TARGET - reads one match (a stream or a bundle, gzip-compressed or not) from standard input, named "
         "<stdin> (a github annotation names no file): cat m_<id>.jsonl | daishi-forensics validate -")
