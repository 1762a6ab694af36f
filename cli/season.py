"""``daishi-forensics season``: one job over many matches (``behavior``, ``screen``)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes
from daishi_forensics.wording import count

from ._common import (TARGET_HELP, fail, handle_errors, import_late, imported_late, input_options, say, say_wrapped,
                      set_help)

if TYPE_CHECKING:
    from daishi_forensics.batch.season import (JOBS, SeasonMatch, SeasonResult, expand_targets, once_per_folder,
                                               output_overlap, run_season)
    from daishi_forensics.read.sources import Limits
    from daishi_forensics.replay.fork import cpus

_LATE = {
    "JOBS": "daishi_forensics.batch.season",
    "SeasonMatch": "daishi_forensics.batch.season",
    "SeasonResult": "daishi_forensics.batch.season",
    "expand_targets": "daishi_forensics.batch.season",
    "once_per_folder": "daishi_forensics.batch.season",
    "output_overlap": "daishi_forensics.batch.season",
    "run_season": "daishi_forensics.batch.season",
    "Limits": "daishi_forensics.read.sources",
    "cpus": "daishi_forensics.replay.fork",
}
"""What a season imports when it runs (the season runner, the read boundary, the schemas and jsonschema,
the pool), not when ``season --help`` is asked for."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)

SEASON_EPILOG = exitcodes.epilog(
    ok="every match read and clear, and nothing flagged across matches",
    findings="some match has findings (a screen verdict of review/flag, invalid records, a header that fails its "
             "schema, a truncated log, a finding of the behavior report), or the season-scale screens flagged across matches (a recurring pair, a cycle: "
             "every match may be clear; the output names the flag)",
    usage="usage error (also a --cluster no scheduler answers at, when a match is left to run)",
    unreadable="some input could not be read, or a folder given holds no match (said on stderr, the other "
               "targets run; summary.json lists it as unreadable)",
    internal="some match's job failed (a bug; its error is in the summary) or the season itself did",
) + (" 70 wins over 3, and 3 over 1: the season is then incomplete, and the findings are in the summary "
     "either way.")


def season_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options every ``season`` subcommand shares."""
    for decorator in reversed([
        click.argument("targets", nargs=-1, required=True, metavar="DIR|TARGET..."),
        click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
                     help="Output folder: matches/<name>.json per match, summary.json for the season; the "
                          "results of matches no longer among the inputs move to .stale/matches/ (listed as "
                          "stale in summary.json), all of them when no target holds a match."),
        click.option("-j", "--workers", type=click.IntRange(min=1), default=None,
                     help="Processes on this machine, at most one per match [default: the CPUs this process "
                          "may use, fewer under a container's CPU quota; 1, or a single match left to run, "
                          "runs in this process]."),
        click.option("--cluster", metavar="ADDRESS", envvar="DAISHI_CLUSTER",
                     help="Run on an existing Dask distributed scheduler (tcp://host:8786) instead of a "
                          "local pool; its workers must be able to read the targets (with no match left to "
                          "run, none given or every one kept, it is not asked; a target missing on this machine is still one "
                          "to run, for the workers may read it). A scheduler that does not answer "
                          "is waited for as long as Dask's connect timeout says (distributed.comm.timeouts.connect: "
                          "$DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT or a Dask configuration file; 30s where "
                          "none is set), then it is a usage error [env: DAISHI_CLUSTER]."),
        click.option("--redo", is_flag=True, help="Redo every match (default: resume, keeping results whose "
                                                 "input, job version (the tool's, the report's and the screens "
                                                 "configuration's), options and reading limits, such as "
                                                 "$DAISHI_MAX_INFLATED_BYTES, are unchanged)."),
        click.option("--verify", is_flag=True,
                     help="Tell inputs apart by the sha-256 of every byte (default: by size, mtime and the "
                          "first 64 KiB, which reads little but misses an edit past 64 KiB that keeps the size "
                          "and puts the mtime back)."),
        click.option("-q", "--quiet", is_flag=True, help="No progress bar and no output (for cron): the exit "
                                                        "code and OUTDIR/summary.json say it all."),
        input_options,
    ]):
        func = decorator(func)
    return func


@click.group(epilog=SEASON_EPILOG)
def season() -> None:
    """Run one job over every match of a season, in parallel, resumable.

    Each match's result is written to OUTDIR/matches/<name>.json (temp file and
    rename, so an interrupted run never leaves half a file) and the season summary
    to OUTDIR/summary.json: per-match status, verdict and flag counts per screen,
    the unreadable inputs with their error line (a folder given that holds no match
    among them), and the season's net-transfer graph
    (pairs of agents and of operators that moved value, and which recur across
    matches). A match given twice (two paths, or two forms of one match id) is
    counted once, with a warning; a folder holding no match given twice (or by
    two spellings: d, d/, ./d) is listed once, with a warning. Results an earlier run wrote for matches that
    are no longer among the inputs (removed, or renamed) are moved to
    OUTDIR/.stale/matches/ and their resume keys removed, so matches/ holds this
    season's results only; summary.json lists them as stale, with a warning.
    OUTDIR holding the other command's season (season screen's results, and now
    season behavior, or the reverse) is refused before anything is written (exit
    74): give each command its own --out.
    When no target holds a match (every one a folder holding none), the season
    still runs, with none: summary.json lists each folder as unreadable (exit
    code 3, every count 0, no match verdict) and the results of an earlier run
    move to OUTDIR/.stale/matches/, so nothing left in OUTDIR looks current. The summary
    is deterministic: the same inputs give the same bytes whatever the number of
    workers or the order matches finish in.

    Run it again and it resumes: a match whose input, job version, options and
    reading limits are unchanged is not redone (an interrupted run keeps every
    match whose result was written). An input is recognised by its size, mtime and first
    64 KiB (fast: only the start of each file is read), or with --verify by the
    sha-256 of the whole file (every byte read again, but no edit goes unseen).

    Example: `daishi-forensics season screen ranked/ --out season-31/ --quiet`
    (cron), then `daishi-forensics season behavior ranked/ --out reports/`.
    """


def _run(job: str, targets: tuple[str, ...], out_dir: Path, workers: int | None, cluster: str | None,
         redo: bool, verify: bool, quiet: bool, options: dict[str, Any]) -> None:
    import_late(globals(), _LATE)
    Limits()  # an unusable $DAISHI_MAX_INFLATED_BYTES stops here, not in every worker
    if any(not target for target in targets):
        fail("a TARGET is empty: give a match file, a folder of matches or a match id", exitcodes.USAGE)
    overlap = output_overlap(targets, out_dir)
    if overlap is not None:
        fail(f"{overlap} is where the season writes its results (--out {out_dir}): they would be read as "
             "matches on the next run; give another --out", exitcodes.USAGE)
    expanded = expand_targets(targets, out_dir=out_dir)
    empty, same = once_per_folder([t for t in targets if Path(t).is_dir()
                                   and not expand_targets([t], out_dir=out_dir)])
    if not expanded and not empty:  # a folder gone since expand_targets: nothing to list
        fail(f"no matches in {' '.join(targets)} (bundles, streams or match folders)", exitcodes.UNREADABLE)
    others = "; the other targets run" if expanded else ""
    for folder in empty:  # as export says it: an error, the other targets run all the same
        say(f"daishi-forensics: error: no matches in {folder} (bundles, streams or match folders{others})",
            err=True)
    for row in [] if quiet else same:  # a folder given twice (or by two spellings) is listed once, with a
        say(f"warning: {row['target']} is the same folder as {row['sameAs']}: listed once", err=True)  # warning
    # no match at all: the season runs all the same, with none, so that its summary says so and the results
    # of an earlier run into OUT are set aside (nothing left there looks current)
    show_bar = bool(expanded) and not quiet and sys.stderr is not None and sys.stderr.isatty()  # None: closed
    bar = click.progressbar(length=len(expanded), label=f"season {job}", file=sys.stderr,
                            show_pos=True, show_eta=True) if show_bar else None

    def on_match(match: SeasonMatch, reused: bool) -> None:
        if bar is not None:
            bar.update(1)

    try:
        if bar is not None:
            with bar:
                result = _season(job, expanded, out_dir, workers, cluster, redo, verify, options, on_match, empty)
        else:
            result = _season(job, expanded, out_dir, workers, cluster, redo, verify, options, on_match, empty)
    except KeyboardInterrupt:
        say("daishi-forensics: interrupted; finished matches are kept, run the same command again to resume",
            err=True)
        sys.exit(exitcodes.INTERRUPTED)
    if not quiet:
        _print_summary(result)
    sys.exit(result.exit_code)  # an empty folder makes it 3 (70 wins over 3, and 3 over 1), as in the summary


def _season(job: str, targets: list[str], out_dir: Path, workers: int | None, cluster: str | None,
            redo: bool, verify: bool, options: dict[str, Any],
            on_match: Callable[[SeasonMatch, bool], None], empty: list[str]) -> SeasonResult:
    return run_season(targets, JOBS[job], out_dir, options=options, workers=workers or cpus(),
                      cluster=cluster, resume=not redo, verify=verify, on_match=on_match, empty_folders=empty)


def _print_summary(result: SeasonResult) -> None:
    summary = result.summary
    counts = summary["counts"]
    parts = [f"{counts[k]} {k}" for k in ("ok", "findings", "unreadable", "failed") if counts.get(k)]
    say(f"{count(summary['matches'], 'match', 'matches')}: {', '.join(parts) or 'none'} "
               f"({result.ran} run, {result.reused} kept from an earlier run)")
    if summary["verdicts"]:
        say("verdicts: " + ", ".join(f"{n} {v}" for v, n in summary["verdicts"].items()))
    for screen, tally in summary["flagCounts"].items():
        say(f"  {screen}: {tally['flag']} flag, {tally['review']} review in {count(tally['matches'], 'match', 'matches')}")
    named = [row for row in summary["results"] if row.get("verdict") in ("flag", "review")]
    if named:
        say(f"matches that flagged or need review ({len(named)}):")
    for row in sorted(named, key=lambda r: (r["verdict"] != "flag", r.get("matchId") or r["target"])):
        say_wrapped(f"{row['verdict'].upper():<6} {row.get('matchId') or row['target']} ({row['flags']} flag"
                    f"{'s' if row['flags'] != 1 else ''}; {row['file']})", indent=2)
        top = row.get("topFlag")
        if top:
            p = top.get("pAdjusted")
            say_wrapped(f"top flag: {top.get('screen')}/{top.get('kind')} ({top.get('level')}) on "
                        f"{', '.join(map(str, top.get('agents') or []))}"
                        + (f", p adjusted {p:.3g}" if isinstance(p, (int, float)) else "")
                        + f": {top.get('explanation')}", indent=9)
    _print_findings(summary)
    for row in summary["duplicates"]:
        what = f"match {row['matchId']}, like" if row["matchId"] else "the same file as"
        say(f"warning: {row['target']} is {what} {row['sameAs']}: counted once", err=True)
    graph = summary["graph"]
    say(f"recurring pairs: {len(graph['recurringAgentPairs'])} of agents, "
               f"{len(graph['recurringOperatorPairs'])} of operators (moved value in >= {graph['recur']} matches)")
    if "season" in summary:
        _print_season_scale(summary)
    _print_stale(summary, result.out_dir)
    for row in summary["unreadable"]:
        say(f"{row['status']}: {row['error']}", err=True)
    say(f"summary: {result.out_dir / 'summary.json'}")


def _print_season_scale(summary: dict[str, Any]) -> None:
    """The season-scale step's verdict (with what it could not screen: a "clear" of nothing is said to be
    one) and each of its review/flag flags (screen, kind, level, agents, explanation); when no match has findings, fails or is unreadable but the season exits 1, a line
    saying the season-scale flags are why."""
    season = summary["season"]
    unscreened = "".join(f"; not screened: {note}" for note in season.get("notScreened") or ())
    say(f"season scale: {season['verdict']} ({count(len(season['flags']), 'flag')} across matches{unscreened})")
    for flag in season["flags"]:
        if not isinstance(flag, dict) or flag.get("level") not in ("flag", "review"):
            continue
        say_wrapped(f"{str(flag['level']).upper():<6} {flag.get('screen')}/{flag.get('kind')} on "
                    f"{', '.join(map(str, flag.get('agents') or []))}: {flag.get('explanation')}", indent=2)
    counts = summary["counts"]
    if summary["exitCode"] == exitcodes.FINDINGS and not (counts["findings"] or counts["unreadable"]
                                                           or counts["failed"]):
        say("exit 1: no match has findings; the season-scale flags above are why")


def _print_stale(summary: dict[str, Any], out_dir: Path) -> None:
    """A warning per result an earlier run wrote for a match no longer among the inputs, set aside."""
    for row in summary.get("stale") or []:
        of = f" (of {row['target']})" if row.get("target") else ""
        say(f"warning: {row['file']}{of} is no match of this season's inputs: moved to "
            f"{out_dir / row['movedTo']}", err=True)


def _print_findings(summary: dict[str, Any]) -> None:
    """Name every match with findings whose verdict is not review or flag (those are named with their
    top flag), each with why (its ``reason``)."""
    rows = [row for row in summary["results"] if row["status"] == "findings" and row.get("reason")]
    if rows:
        say(f"other matches with findings ({len(rows)}):")
    for row in sorted(rows, key=lambda r: r.get("matchId") or r["target"]):
        say_wrapped(f"{row.get('matchId') or row['target']}: {row['reason']} ({row['file']})", indent=2)


@season.command("behavior", epilog=SEASON_EPILOG)
@season_options
@handle_errors
def season_behavior(targets: tuple[str, ...], out_dir: Path, workers: int | None, cluster: str | None,
                    redo: bool, verify: bool, quiet: bool, store: Path | None, server: str | None) -> None:
    """The behavior report of every match (findings: what the report lists as findings, or a
    screens verdict of review/flag).

    Example: `daishi-forensics season behavior ranked/ --out reports/`: a folder of its own, not
    `season screen`'s (a season of one job into the other's folder is refused, exit 74).
    """
    _run("behavior", targets, out_dir, workers, cluster, redo, verify, quiet, _input(store, server))


@season.command("screen", epilog=SEASON_EPILOG)
@season_options
@click.option("--config", "config", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Screens configuration override (JSON); its version and digest are part of the resume key.")
@handle_errors
def season_screen(targets: tuple[str, ...], out_dir: Path, workers: int | None, cluster: str | None,
                  redo: bool, verify: bool, quiet: bool, store: Path | None, server: str | None,
                  config: Path | None) -> None:
    """The collusion screens on every match: verdict clear/review/flag per match.

    Example: `daishi-forensics season screen ranked/ --out season-31/ --quiet` (cron).
    """
    from daishi_forensics.screens import ConfigError, load_config

    options = _input(store, server)
    if config is not None:
        options["config"] = str(config)
        try:
            load_config(config)
        except ConfigError as exc:
            fail(str(exc), exitcodes.USAGE)
    _run("screen", targets, out_dir, workers, cluster, redo, verify, quiet, options)


def _input(store: Path | None, server: str | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if store is not None:
        options["store"] = str(store)
    if server:
        options["server"] = server
    return options


for _command in (season_behavior, season_screen):
    set_help(_command, TARGET_HELP + " A DIR holding matches stands for every match in it (the files and folders named m_…: a ground truth or a season summary beside them is none; an m_… folder without archive.json or a link to nothing is unreadable; the --out folder and what the season writes there are never read).")
