"""``daishi-forensics study``: studies (series and paired experiments)."""

from __future__ import annotations

from pathlib import Path

import click
from daishi_forensics import exitcodes

from ._common import output_named, format_for, handle_errors, write_output
from ._progress import progress_for, progress_options

FORMATS = ("text", "json", "markdown")


AUDIT_EPILOG = (exitcodes.STUDY_HELP_EPILOG
                + " This command alone reads 2 as 'cannot read the study', as the study recompute script does.")
"""``study audit``'s exit codes, said by the group's help too."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=AUDIT_EPILOG)
def study() -> None:
    """Studies: a published series or paired experiment, recomputed from its files.

    `study audit` is the other half of `score`: `score` recomputes one match's
    scorecards, `study audit` a whole study's page from its two files. Example:
    `daishi-forensics simulate study --out /tmp/studies`, then
    `daishi-forensics study audit /tmp/studies/paired-fixed`.
    """


@study.command("audit", epilog=AUDIT_EPILOG)
@click.argument("target", metavar="[TARGET]", required=False)
@click.option("--server", envvar="DAISHI_SERVER", metavar="URL",
              help="Daishi server a TARGET path (u/<handle>/studies/<id>) is fetched from [env: DAISHI_SERVER].")
@click.option("--trials", type=click.Path(dir_okay=False, path_type=Path),
              help="A trials.csv saved earlier (with --seats), read instead of the served or folder file.")
@click.option("--seats", type=click.Path(dir_okay=False, path_type=Path),
              help="A seats.csv saved earlier (with --trials).")
@click.option("--page", type=click.Path(dir_okay=False, path_type=Path),
              help="The page's figures as JSON (schema study-page), instead of the server's or the folder's "
                   "study.json.")
@click.option("--recipe", type=click.Path(dir_okay=False, path_type=Path),
              help="The study's recipe as JSON (schema study-recipe); the anytime rule needs its tuning constant.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text for people (the default), markdown for pages, json for programs (schema study-audit). "
                   "Without it, the name given to -o decides: .md, .json, .txt.")
@click.option("--json", "as_json", is_flag=True, help="Same as --format json.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named, help="Write to this file.")
@progress_options
@handle_errors
def audit(target: str | None, server: str | None, trials: Path | None, seats: Path | None, page: Path | None,
          recipe: Path | None, fmt: str | None, as_json: bool, output: Path | None, quiet: bool, progress: bool) -> None:
    """Recompute a published series or paired experiment from its two files and check its page.

    Reads trials.csv and seats.csv, the page's own figures and (under the anytime
    rule) the recipe, then recomputes, for each comparison against the control, the
    mean paired difference, its interval (Student t cut to the metric's range, or
    the confidence sequence under the anytime rule), the interval counting each
    map once where maps repeat, the exact sign-flip test and the verdict; for each
    arm its mean and 95% interval; for each model its mean Fitness Index over its
    seats in whole trials. Each figure is printed beside the page's with same or
    DIFFERS at the published tolerances; the files are checked against each other
    and against the page's counts, row by row. It closes with the two counts
    (figures that match; checks that agree), what it took on trust, and each
    reading it chose where the rules are silent.

    TARGET is a study folder (trials.csv, seats.csv, study.json, recipe.json), a
    study address (https://HOST/u/HANDLE/studies/ID, or u/HANDLE/studies/ID with
    --server), or nothing when --trials and --seats name saved copies. A study
    still playing answers 409; its reason is printed and the exit code is 2.

    \b
    Examples:
      daishi-forensics simulate study --out /tmp/studies
      daishi-forensics study audit /tmp/studies/paired-fixed
      daishi-forensics study audit https://daishi.ai/u/ada/studies/s_12 --json  # fetched from that server
      daishi-forensics study audit --trials trials.csv --seats seats.csv --page study.json
    """
    from daishi_forensics.read.sources import redact_url
    from daishi_forensics.study import audit_study, load_study, render

    if as_json:
        if fmt not in (None, "json"):
            raise click.UsageError(f"--json and --format {fmt} ask for two formats; give one")
        fmt = "json"
    fmt = format_for(fmt, output, FORMATS)
    if (trials is None) != (seats is None):
        raise click.UsageError("--trials and --seats go together: the audit needs both files")
    if target == "":  # a path of no characters is the current folder: never audit that unasked
        raise click.UsageError("TARGET is empty: give a study folder or address, or --trials and --seats")
    if target is None and trials is None:
        raise click.UsageError("give a TARGET (a study folder or address), or --trials and --seats")
    shown = redact_url(target) if target and target.startswith(("http://", "https://")) else target or trials
    with progress_for(f"study audit {shown}", quiet, progress) as line:
        line.stage("reading the study")
        study = load_study(target, server=server, trials=trials, seats=seats, page=page, recipe=recipe)
        line.stage("recomputing its figures")
        result = audit_study(study)
    write_output(render(result, fmt), output)
    raise SystemExit(result.exit_code)
