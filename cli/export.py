"""``daishi-forensics export``."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes
from daishi_forensics.wording import count

from ._progress import not_both, progress_for
from ._common import (import_late, imported_late, TARGET_HELP, exit_zero_asked, fail, handle_errors, input_options,
                      not_empty, say, set_help)

if TYPE_CHECKING:
    from daishi_forensics.batch.export import MatchExport, export_parquet
    from daishi_forensics.batch.season import expand_targets

_LATE = {
    "MatchExport": "daishi_forensics.batch.export",
    "export_parquet": "daishi_forensics.batch.export",
    "expand_targets": "daishi_forensics.batch.season",
}
"""What the command imports when it runs, not when its ``--help`` is asked for."""

BATCH_ROWS = 50_000
"""``--batch-rows``' default (``batch.export.BATCH_ROWS``, which a test holds this equal to)."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


EXPORT_EPILOG = exitcodes.epilog(
    ok="exported",
    findings="exported, but an input held invalid records (left out; how many is said on stderr), a header that "
             "fails its schemas (the archive read as it stands; said on stderr) or its log is truncated (the archive "
             "says more happened than it holds; said on stderr)",
    usage="usage error, or two targets are one match (the second is refused; the others are exported)",
    output="the tables could not be written (--parquet naming a file, a full disk, no permission)",
    unreadable="some input could not be read, or a folder given holds no match (the others are exported)",
)


@click.command(epilog=EXPORT_EPILOG)
@click.argument("targets", nargs=-1, required=True, metavar="TARGET...", callback=not_empty)
@click.option("--parquet", "parquet_dir", required=True, type=click.Path(path_type=Path),
              help="Folder for the tables: events/, seats/, pairs/, each partitioned match_id=m_…/.")
@click.option("--include-private", is_flag=True,
              help="Export private events (direct messages) too; by default they are left out.")
@click.option("--no-scrub", is_flag=True, help="Keep message text as logged (default: secrets masked).")
@click.option("--batch-rows", type=click.IntRange(min=1), default=BATCH_ROWS, show_default=True,
              help="Events per record batch and Parquet row group.")
@click.option("-q", "--quiet", is_flag=True, callback=not_both,
              help="Print nothing but errors and the warning that gives the reason for an exit 1 (invalid records "
                   "left out of the export, a header that fails its schemas, or a truncated log); no progress line "
                   "either. Not with --progress.")
@click.option("--progress", "progress", is_flag=True, callback=not_both,
              help="Print the progress line even when stderr is not a terminal (a CI log). Not with --quiet.")
@input_options
@handle_errors
def export(targets: tuple[str, ...], parquet_dir: Path, include_private: bool, no_scrub: bool, batch_rows: int,
           quiet: bool, progress: bool, store: Path | None, server: str | None) -> None:
    """Export matches to Parquet for DuckDB, pandas or Spark: events, seats, pairs.

    One row per event (v3 shape, upcast; the payload fields a query needs as
    columns, and the whole payload as JSON text), one per seat and one per pair
    of the behavior report, hive-partitioned by match:
    DIR/events/match_id=m_…/part-0.parquet. Events are streamed in record
    batches, so a match of a million events never sits in memory.

    Example: `daishi-forensics export exports/ --parquet lake/` then
    `duckdb -c "SELECT type, count(*) FROM read_parquet('lake/events/*/*.parquet',
    hive_partitioning=true) GROUP BY 1"`.
    """
    import_late(globals(), _LATE)

    finished = 0

    def on_match(done: MatchExport) -> None:
        nonlocal finished
        finished += 1
        line.stage(f"exporting ({finished} of {len(expanded)} matches done)")
        line.clear()
        if done.error is not None:
            say(f"daishi-forensics: error: {done.error}", err=True)
            return
        if not quiet:
            private = f" ({done.private_left_out} private left out)" if done.private_left_out else ""
            say(f"{done.match_id}: {done.events} events{private}, {done.seats} seats, {done.pairs} pairs")
            for note in done.notes:  # what the read accepted (a byte-order mark, a file named for another match)
                say(f"daishi-forensics: note: {note}", err=True)
        if done.invalid:  # the reason for exit 1, said even with --quiet
            records = "record" if done.invalid == 1 else "records"
            say(f"daishi-forensics: warning: {done.target}: {done.invalid} invalid {records} left out of the export "
                f"(not events of the match): daishi-forensics validate {shlex.quote(done.target)} lists each with "
                "its line and field", err=True)
        if done.invalid_header:  # the reason for exit 1, said even with --quiet
            say(f"daishi-forensics: warning: {done.target}: the match's header fails validation in "
                f"{count(done.invalid_header, 'place')} (the first: {done.header_error}); exported as it stands: "
                f"daishi-forensics validate {shlex.quote(done.target)} lists each", err=True)
        if done.truncated:  # as validate, screen and score say it: a reason for exit 1, said even with --quiet
            say(f"daishi-forensics: warning: {done.target}: the log is truncated: {'; '.join(done.truncated)}; "
                "exported as it is, without what it no longer holds", err=True)

    if parquet_dir.exists() and not parquet_dir.is_dir():
        fail(f"{parquet_dir}: not a folder (--parquet names the folder the tables are written to)", exitcodes.OUTPUT)
    empty = [t for t in targets if Path(t).is_dir() and not expand_targets([t])]
    expanded = _in_given_order(targets)
    if not expanded:
        fail(f"no matches in {' '.join(targets)}", exitcodes.UNREADABLE)
    for folder in empty:  # as when it is the only target: an error, the others exported
        say(f"daishi-forensics: error: no matches in {folder} (the other targets are exported)", err=True)
    with progress_for(f"export {' '.join(targets)}", quiet, progress) as line:
        line.stage(f"exporting (0 of {len(expanded)} matches done)")
        result = export_parquet(expanded, parquet_dir, include_private=include_private, scrub=not no_scrub,
                                batch_rows=batch_rows, store=store, server=server, on_match=on_match)
    written = sum(1 for m in result.matches if m.error is None)
    if not written:
        say(f"daishi-forensics: nothing written to {parquet_dir}: no target could be exported", err=True)
    elif not quiet:
        missed = len(result.matches) - written
        some = f" (of {len(result.matches)} matches, {written} exported; the errors above say why the other " \
               f"{missed} {'was' if missed == 1 else 'were'} not)" if missed else ""
        say(f"wrote {parquet_dir}/events, seats, pairs{some}")
    code = result.exit_code
    if empty and code != exitcodes.USAGE:
        code = exitcodes.UNREADABLE
    invalid = sum(m.invalid for m in result.matches)
    if invalid and len(result.matches) > 1:
        with_invalid = sum(1 for m in result.matches if m.invalid)
        why = ("" if code != exitcodes.FINDINGS else " (exit 0: --exit-zero)" if exit_zero_asked()
               else " (exit 1; --exit-zero makes it 0)")  # another code, when there is one, is another error's
        say(f"daishi-forensics: warning: {count(invalid, 'invalid record')} in {with_invalid} of {len(result.matches)} "
            f"matches left out of the export{why}", err=True)
    sys.exit(code)


def _in_given_order(targets: tuple[str, ...]) -> list[str]:
    """The matches of ``targets`` in the order given (a folder's own in name order), each once: of two
    targets of one match, the one given second is the one refused, as the help says."""
    seen: set[str] = set()
    ordered = []
    for target in targets:
        for match in expand_targets([target]):
            if match not in seen:
                seen.add(match)
                ordered.append(match)
    return ordered


set_help(export, TARGET_HELP + " A folder holding matches stands for every match in it.")
