"""The ``daishi-forensics`` command line: a click group, one module per command.

Commands load lazily (a command's heavy dependencies — networkx, scikit-learn,
Presidio, pyarrow, Dask — are imported only when that command runs), so
``daishi-forensics validate`` starts fast in CI.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
import traceback
from typing import Any, cast

import click

from daishi_forensics import exitcodes
from daishi_forensics.errors import ForensicsError
from daishi_forensics.textsafe import shown
from daishi_forensics.version import __version__

from ._allocator import return_large_buffers

COMMANDS: dict[str, str] = {
    "behavior": "behavior:behavior",
    "compare": "compare:compare",
    "validate": "validate:validate",
    "screen": "screen:screen",
    "screen-transfers": "transfers:screen_transfers",
    "score": "score:score",
    "study": "study:study",
    "propagation": "propagation:propagation",
    "tiers": "tiers:tiers",
    "season": "season:season",
    "export": "export:export",
    "simulate": "simulate:simulate",
    "schemas": "schemas:schemas",
}
"""Command name → ``module:attribute`` inside this package, in the order ``--help`` lists them."""

SHORT_HELPS: dict[str, str] = {
    "behavior": "What each seat did and with whom, rebuilt from the event log.",
    "compare": "Compare two matches seat by seat, or two models over many matches.",
    "validate": "Validate every event and the archive of each match against the JSON Schemas.",
    "screen": "Run the collusion screens on each match: a verdict clear / review / flag.",
    "screen-transfers": "Run the screens on a table of transfers from any system: a verdict clear / review / flag.",
    "score": "Recompute each seat's Fitness Index and five dimensions, and check the published ones.",
    "study": "Studies: a published series or paired experiment, recomputed from its files.",
    "propagation": "Propagation chains: which message echoes which earlier message, and how far payloads spread.",
    "tiers": "Classify the `text` of every line of a JSON Lines corpus as persuasion, hijack or protocol.",
    "season": "Run one job over every match of a season, in parallel, resumable.",
    "export": "Export matches to Parquet for DuckDB, pandas or Spark: events, seats, pairs.",
    "simulate": "Write a deterministic synthetic match with planted behaviors and a ground-truth sidecar.",
    "schemas": "The JSON Schemas (draft 2020-12) this tool validates with.",
}
"""Command name → its short help (the first sentence of its own help), which ``--help`` lists
without importing any command module: a command's module pulls in what the command needs
(networkx, the screens, the tier rules), a cost ``--help`` would pay for one line each.
A test holds every entry to the command's own short help."""


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name, target in COMMANDS.items()
                if importlib.util.find_spec(f"{__name__}.{target.split(':')[0]}") is not None]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands with their short helps from :data:`SHORT_HELPS`, as click would
        from the commands themselves (the same rows, the same shortening), importing none."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.Command(name, help=SHORT_HELPS[name]).get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        module = importlib.import_module(f"{__name__}.{module_name}")
        return cast(click.Command, getattr(module, attribute))  # (the table names commands only)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """Resolve as click does; an unknown command's error names the commands closest to it, as a
        click group whose commands are all imported does (``Did you mean 'behavior'?``)."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            name = str(args[0]) if args else ""
            if name and name not in COMMANDS and not name.startswith("-") and "Did you mean" not in exc.format_message():
                close = sorted(difflib.get_close_matches(name, self.list_commands(ctx)))
                if len(close) == 1:
                    raise click.UsageError(f"{exc.format_message()} Did you mean {close[0]!r}?", exc.ctx) from None
                if close:
                    raise click.UsageError(f"{exc.format_message()} (Did you mean one of: "
                                           f"{', '.join(repr(c) for c in close)}?)", exc.ctx) from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; map what escapes it onto the exit-code table.

        A :class:`ForensicsError` is one line and its code; any other exception is an
        internal error (exit 70): one line, and the traceback with ``--debug``; Ctrl-C is
        :data:`~daishi_forensics.exitcodes.INTERRUPTED` (130).  With ``--exit-zero`` a findings exit (1)
        becomes 0.
        """
        debug = bool(ctx.params.get("debug"))
        try:
            return super().invoke(ctx)
        except SystemExit as exc:
            if ctx.params.get("exit_zero") and exc.code == exitcodes.FINDINGS:
                raise SystemExit(exitcodes.OK) from None
            raise
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except ForensicsError as exc:
            click.echo(f"daishi-forensics: error: {shown(str(exc))}", err=True)
            raise SystemExit(exc.exit_code) from None
        except KeyboardInterrupt:
            click.echo("daishi-forensics: interrupted", err=True)
            raise SystemExit(exitcodes.INTERRUPTED) from None
        except Exception as exc:  # noqa: BLE001 - the last line of defence: a bug is exit 70, not a finding
            if debug:
                traceback.print_exc(file=sys.stderr)
            click.echo(f"daishi-forensics: internal error: {shown(type(exc).__name__)}: {shown(str(exc))} "
                       "(a bug in daishi-forensics; run again with --debug for the traceback)", err=True)
            raise SystemExit(exitcodes.INTERNAL) from None


@click.group(cls=LazyGroup, epilog=exitcodes.HELP_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="daishi-forensics")
@click.option("--debug", is_flag=True, envvar="DAISHI_DEBUG",
              help="On an internal error (exit 70), print the traceback too [env: DAISHI_DEBUG].")
@click.option("--exit-zero", is_flag=True,
              help="Exit 0 when the command found something (instead of 1); usage errors, unreadable "
                   "input, internal errors and unwritable output keep their codes.")
def main(debug: bool, exit_zero: bool) -> None:
    """Read the event log of a Daishi match and say what really happened in it.

    Start with `daishi-forensics behavior m_demo` (the embedded demo match, planted
    with collusion, so it exits 1: findings).
    """
    return_large_buffers()  # (a command's large arrays given back when freed: a lower peak, the same results)


__all__ = ["main", "COMMANDS", "SHORT_HELPS"]
