"""``daishi-forensics screen``."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from daishi_forensics import exitcodes

from ._progress import progress_for, progress_options
from ._common import (output_named, TARGET_HELP, exit_zero_asked, fail, format_for, handle_errors, import_late, imported_late,
                      input_options, not_empty, say, set_help, text_width, write_output, write_step_summary)

if TYPE_CHECKING:
    from daishi_forensics.report.render.screens import render, render_step_summary
    from daishi_forensics.report.screening import ScreenRun, screen_targets
    from daishi_forensics.screens.config import ConfigError, load_config

_LATE = {
    "render": "daishi_forensics.report.render.screens",
    "render_step_summary": "daishi_forensics.report.render.screens",
    "screen_targets": "daishi_forensics.report.screening",
    "ConfigError": "daishi_forensics.screens.config",
    "load_config": "daishi_forensics.screens.config",
}
"""What the command imports when it runs (the screens, networkx, the read boundary, the renderers),
not when ``screen --help`` is asked for."""

FORMATS = ("text", "json", "github", "sarif")
"""The reporters' names (``report.render.screens.FORMATS``, which a test holds this equal to),
spelled out so that the options need no renderer imported."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


_CATEGORY = re.compile(r"[A-Za-z0-9._-]{1,64}(?:/[A-Za-z0-9._-]{1,64}){0,3}")
"""A ``--sarif-category``: one to four names of letters, digits, ``.``, ``_`` and ``-`` (64 at most each), joined by
single slashes."""


def sarif_category(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A ``--sarif-category`` check: a usage error unless :data:`_CATEGORY` is the whole of it."""
    if value is not None and (_CATEGORY.fullmatch(value) is None or value in (".", "..")
                              or any(part in (".", "..") for part in value.split("/"))):
        raise click.BadParameter(
            f"{value[:80]!r}{'…' if len(value) > 80 else ''} is not a category: give one to four names of letters, digits, '.', '_' and '-' (64 "
            "characters at most each, none '.' or '..'), joined by '/', e.g. 2026-09 or seasons/2026-09")
    return value


SARIF_CATEGORY_HELP = (
    "With --format sarif: a category of this run's own beneath the command's, written as the run's "
    "automationDetails.id (daishi-forensics/{command}/CATEGORY/; without it, daishi-forensics/{command}/). Code "
    "scanning keeps one analysis per category of a commit: give each upload of one command in a workflow its own "
    "(one per season). One to four names of letters, digits, '.', '_' and '-', joined by '/'.")
"""The option's help, ``{command}`` the command's name."""


_EXITS = exitcodes.epilog(
    ok="every match clear",
    findings="a match (or the season) is review or flag, or a match held invalid records or its log is truncated "
             "(its verdict does not cover the whole match) or its header fails its schema (read as it stands), or "
             "no target could be screened (every one invalid)",
    usage="usage error (bad option, unusable --config)",
    unreadable="a target could not be read, or holds a match another target holds with another archive or other "
               "events (the others are still screened)",
)


@click.command(
    epilog=_EXITS + " Examples (cron): daishi-forensics screen --format json exports/ > verdicts.json; "
    "(CI) daishi-forensics screen --format sarif m_*.jsonl.gz > screens.sarif; "
    "(season) daishi-forensics screen --season exports/2026-09/.",
)
@click.argument("targets", nargs=-1, metavar="[TARGET]...", callback=not_empty)
@click.option("--season", "season", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Also screen every match in DIR, and the whole as one season (feeds across matches, "
                   "recurring pairs, season-wide outliers).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text for people (the default), json for programs, github for workflow annotations (and, where "
                   "$GITHUB_STEP_SUMMARY is set, a table of the findings in the step's summary), sarif "
                   "for code-scanning dashboards. Without it, the name given to -o decides: .sarif, .json, "
                   ".txt.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="A JSON file overriding settings of the shipped screens/config.json (same shape; e.g. "
                   '{"general": {"false_alarm_rate": 0.05}}; its version, or <shipped>+local, is stamped in '
                   "every result).")
@click.option("--sarif-category", "category", metavar="CATEGORY", callback=sarif_category,
              help=SARIF_CATEGORY_HELP.format(command="screen"))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named, help="Write to this file.")
@progress_options
@input_options
@handle_errors
def screen(targets: tuple[str, ...], season: Path | None, fmt: str | None, config_path: Path | None,
           category: str | None, output: Path | None, quiet: bool, progress: bool, store: Path | None,
           server: str | None) -> None:
    """Run the collusion screens on each match: a verdict clear / review / flag.

    Per match, value moved between seats (trades, gifts, raids, thefts, valued
    at the archive's item values) is screened for feeders (one-way flow into a
    beneficiary, at least a third of all its giver hands anyone), wash trading
    (trades whose goods go back and forth or round a ring),
    cartels (a bloc that never hits its own while hitting outsiders within
    reach), off-price trades, thrown fights, mutual-advantage outliers and seats
    of one operator feeding each other, and for the money-laundering typologies
    (fan-in and fan-out, scatter-gather and gather-scatter, value cycles), which
    share a tenth of the false-alarm rate. Each finding is tested against honest
    play in the same match (a null model, named in the flag) and its p-value
    adjusted over every test of the match (Holm). The verdict is a designed
    false-alarm rate: `review` when the adjusted p-value is at most
    general.false_alarm_rate of screens/config.json (default 0.02), `flag` at a
    quarter of it (0.005), so at most that share of honest matches come back
    anything but clear. Every flag names its agents, its p-value (raw and
    adjusted), the null and the number of tests, and the event ids to open.

    A match given under two names (a copy in another folder, its stream and
    its bundle) is screened once: listed once, naming every file that holds
    it, and said on stderr. Two files of one match id whose archive or events
    differ are not the same match: the later one is not screened (exit 3).

    """
    if not targets and season is None:
        raise click.UsageError("give at least one TARGET, or --season DIR")
    import_late(globals(), _LATE)
    try:
        config = load_config(config_path)
    except ConfigError as exc:
        fail(str(exc), exitcodes.USAGE)
        return
    fmt = format_for(fmt, output, FORMATS)
    with progress_for(f"screen {' '.join(targets) or season}", quiet, progress) as line:
        line.stage("reading and screening")
        # SARIF and the github format place a flag at the line of its first evidence event: looked up for those
        # formats alone (and in a repeated match's own file for SARIF's related locations)
        run = screen_targets(targets, season=season, config=config, store=store, server=server,
                             lines=fmt in ("sarif", "github"), related_lines=fmt == "sarif")
    run = dataclasses.replace(run, exit_zero=exit_zero_asked())
    _say_same_match(run)
    write_output(render(run, fmt, width=text_width() if fmt == "text" else None, command="screen",
                        category=category), output)
    if fmt == "github":  # in a workflow step, a table of every finding on the run's page too
        write_step_summary(render_step_summary(run))
    raise SystemExit(run.exit_code)


def _say_same_match(run: ScreenRun) -> None:
    """On stderr: each target that is a match another target holds, screened once (a warning), or holds
    with other content, not screened (an error naming both)."""
    for m in run.matches:
        for other in m.also:
            what = (f"match {m.match_id} again, with the same archive and events as {m.target} (content sha256 "
                    f"{(m.content or '')[:12]})" if m.match_id else f"the same file as {m.target}")
            say(f"daishi-forensics: warning: {other} is {what}: screened once, listed as {m.target}", err=True)
        if m.conflicts_with is not None and m.error:
            say(f"daishi-forensics: error: {m.error}", err=True)


set_help(screen, TARGET_HELP)
