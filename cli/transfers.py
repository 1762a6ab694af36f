"""``daishi-forensics screen-transfers``: the screens on a table of transfers from any system."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes

from ._common import (import_late, imported_late, output_named, exit_zero_asked, fail, format_for, handle_errors,
                      text_width, write_output, write_step_summary)
from ._progress import progress_for, progress_options
from .screen import SARIF_CATEGORY_HELP, sarif_category

if TYPE_CHECKING:
    from daishi_forensics.read.transfers import TransferColumns, read_transfer_table
    from daishi_forensics.report.render.screens import render, render_step_summary
    from daishi_forensics.report.screening import MatchOutcome, ScreenRun
    from daishi_forensics.screens import screen_graph
    from daishi_forensics.screens.config import ConfigError, load_config

_LATE = {
    "TransferColumns": "daishi_forensics.read.transfers",
    "read_transfer_table": "daishi_forensics.read.transfers",
    "render": "daishi_forensics.report.render.screens",
    "render_step_summary": "daishi_forensics.report.render.screens",
    "MatchOutcome": "daishi_forensics.report.screening",
    "ScreenRun": "daishi_forensics.report.screening",
    "screen_graph": "daishi_forensics.screens.screening",
    "ConfigError": "daishi_forensics.screens.config",
    "load_config": "daishi_forensics.screens.config",
}
"""What the command imports when it runs, not when its ``--help`` is asked for."""

TICK_KINDS = ("auto", "number", "date")
"""``read.transfers.TICK_KINDS`` (a test holds the two equal), spelled out for the option."""

FORMATS = ("text", "json", "github", "sarif")
"""``report.render.screens.FORMATS`` (a test holds the two equal), spelled out for the option."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


_EXITS = exitcodes.epilog(
    ok="clear",
    findings="review or flag",
    usage="usage error (bad option, unusable --config)",
    unreadable="the table could not be read (missing, not CSV or JSON lines, a row breaking a rule: the "
               "error names the line and the column)",
)


@click.command(
    epilog=_EXITS + " Example (a laundering simulator's output): daishi-forensics screen-transfers "
    "transactions.csv --from SENDER_ACCOUNT_ID --to RECEIVER_ACCOUNT_ID --value TX_AMOUNT "
    "--tick TIMESTAMP --id TX_ID --format json > verdict.json",
)
@click.argument("table", metavar="TABLE", type=click.Path(path_type=Path))
@click.option("--from", "source", default="from", show_default=True, help="The column naming who paid.")
@click.option("--to", "target", default="to", show_default=True, help="The column naming who was paid.")
@click.option("--value", "value", default="value", show_default=True,
              help="The column holding how much (a plain decimal number >= 0; empty when unknown).")
@click.option("--tick", "tick", default="tick", show_default=True,
              help="The column holding when (a number, or an ISO 8601 date-time; all rows the same kind).")
@click.option("--tick-kind", "tick_kind", type=click.Choice(TICK_KINDS), default="auto", show_default=True,
              help="How the --tick column is read. auto: a number as a number, an ISO 8601 date or date-time as "
                   "a date; ticks of 8 digits that read as a date YYYYMMDD from 1900 to 2200 (20261130, ISO "
                   "8601's basic form) are dates when every tick is one or the others are dates (the output's "
                   "notes say when every tick is one), numbers beside a number. number: every tick a number (step "
                   "counts that only look like dates). date: every tick an ISO 8601 date or date-time.")
@click.option("--id", "id_column", default=None,
              help="The column holding each transfer's id, cited as evidence [default: the line number].")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text for people (the default), json for programs, github for workflow annotations (and, where "
                   "$GITHUB_STEP_SUMMARY is set, a table of the findings in the step's summary), sarif "
                   "for code-scanning dashboards. Without it, the name given to -o decides: .sarif, .json, "
                   ".txt.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="A JSON file overriding settings of the shipped screens configuration (as for screen).")
@click.option("--sarif-category", "category", metavar="CATEGORY", callback=sarif_category,
              help=SARIF_CATEGORY_HELP.format(command="screen-transfers"))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named, help="Write to this file.")
@progress_options
@handle_errors
def screen_transfers(table: Path, source: str, target: str, value: str, tick: str, tick_kind: str,
                     id_column: str | None, fmt: str | None, config_path: Path | None, category: str | None,
                     output: Path | None, quiet: bool, progress: bool) -> None:
    """Run the screens on a table of transfers from any system: a verdict clear / review / flag.

    TABLE is a CSV file with a header row, or JSON lines (one object per line), either optionally
    gzipped; each row is one transfer: who paid, who was paid, how much and when (the options name
    the columns). A bank's transactions, another game's trades or a laundering simulator's output
    screen the same way a match does. With nothing but value and time on each transfer, the screens
    that can speak are the money-laundering typologies: fan-in and fan-out (many one-off
    counterparties in a short window with alike amounts), scatter-gather and gather-scatter (value
    split through intermediaries that pass it on soon with a small cut), and value cycles (value
    passed round a loop of accounts, each taking a cut). Each is tested against the table's own
    transfers (their ticks and amounts shuffled among them), so the share of honest tables that
    come back anything but clear is the configuration's false-alarm rate. Every flag names its
    accounts, its p-value (raw and adjusted), the null and the number of tests, and the transfer
    ids to open.

    Every row is read or the command stops: a row with a missing account or cell, a negative or
    non-numeric value (numbers are plain ASCII decimals: 12, 4.5, 4.517e-05; a value is 0 or from
    1e-100 to 1e100, in any unit), an unreadable time or a repeated id is an error naming the line
    and the column; an empty
    value cell is an unknown value, left out by the screens that need value (the output says so).
    The JSON output has the shape of the screen command's, with the table as its one target.
    """
    import_late(globals(), _LATE)
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        fail(str(exc), exitcodes.USAGE)
        return
    columns = TransferColumns(source=source, target=target, value=value, tick=tick, id=id_column)
    with progress_for(f"screen-transfers {table}", quiet, progress) as line:
        line.stage("reading the table")
        graph = read_transfer_table(table, columns, tick_kind=tick_kind)
        line.stage(f"screening {graph.number_of_edges():,} transfers")
        result = screen_graph(graph, config)
    # SARIF and the github format place a flag at the line of its first evidence row (the table's rows carry theirs)
    located = graph.graph.get("lines") or {}
    lines = {f.evidence[0]: located[f.evidence[0]] for f in result.flags if f.evidence and f.evidence[0] in located}
    run = ScreenRun(config, (MatchOutcome(str(table), None, result, lines=lines),), exit_zero=exit_zero_asked(),
                    workdir=os.getcwd())
    fmt = format_for(fmt, output, FORMATS)
    write_output(render(run, fmt, width=text_width() if fmt == "text" else None, command="screen-transfers",
                        category=category), output)
    if fmt == "github":  # in a workflow step, a table of every finding on the run's page too
        write_step_summary(render_step_summary(run))
    raise SystemExit(run.exit_code)
