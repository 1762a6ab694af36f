"""``daishi-forensics compare``: two matches seat by seat, or two models over many matches."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from daishi_forensics import exitcodes
from daishi_forensics.errors import BadSetting, InputUnreadable, InvalidInput
from daishi_forensics.textsafe import shown_clipped

from ._common import (import_late, imported_late, output_named, TARGET_HELP, color_option, format_for, handle_errors,
                      input_options, not_empty, say, set_help, text_width, use_color, write_output)
from ._progress import progress_for, progress_options

if TYPE_CHECKING:
    from daishi_forensics.batch.season import expand_targets
    from daishi_forensics.report.behavior import behavior as build_report
    from daishi_forensics.report.compare import Side, compare_matches, compare_models, split_models
    from daishi_forensics.report.render.compare import render

_LATE = {
    "expand_targets": "daishi_forensics.batch.season",
    "build_report": "daishi_forensics.report.behavior:behavior",
    "Side": "daishi_forensics.report.compare",
    "compare_matches": "daishi_forensics.report.compare",
    "compare_models": "daishi_forensics.report.compare",
    "split_models": "daishi_forensics.report.compare",
    "render": "daishi_forensics.report.render.compare",
}
"""What the command imports when it runs, not when its ``--help`` is asked for."""

FORMATS = ("text", "json", "markdown", "html")
"""``report.render.compare.FORMATS`` (a test holds the two equal), spelled out for the option."""


def __getattr__(name: str) -> Any:
    return imported_late(globals(), _LATE, name)


@click.command(epilog=exitcodes.epilog(ok="compared", findings=None))
@click.argument("targets", nargs=-1, required=True, metavar="A [B]...", callback=not_empty)
@click.option("--by", "by", type=click.Choice(("seat", "model")), default=None,
              help="seat: two matches, seats paired by seat number (the default for two matches); model: two "
                   "sides over many matches, each match counted once (the default otherwise).")
@click.option("--models", "models", nargs=2, metavar="M1 M2", default=None,
              help="With --by model: side A is every seat of model M1, side B every seat of model M2, over all the "
                   "matches given (models as the archive's seat metadata names them). Without it, give two "
                   "folders (or two sets of matches): side A is every seat of the first, side B of the second.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="text (the default), json (versioned; schema: `daishi-forensics schemas show compare`), "
                   "markdown, html. Without it, the name given to -o decides.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), callback=output_named, help="Write to this file.")
@color_option
@progress_options
@input_options
@handle_errors
def compare(targets: tuple[str, ...], by: str | None, models: tuple[str, str] | None, fmt: str | None,
            output: Path | None, color: bool | None, quiet: bool, progress: bool, store: Path | None,
            server: str | None) -> None:
    """Compare two matches seat by seat, or two models over many matches.

    Two matches (`daishi-forensics compare m_a m_b`): the seats side by side by
    seat number, each with its score, wealth, harm per 100 rounds, promise keeping,
    surplus, injection resistance and the screens' level, and the difference B − A
    (a seat's resistance difference with its 95% Newcombe interval).

    Two models (`daishi-forensics compare DIR --by model --models M1 M2`, or
    `daishi-forensics compare DIR_A DIR_B --by model`): each match counts once (a
    side's value in a match is the mean over its player seats there; a second
    input of one match id is left out and named); each side's mean with its 95% t
    interval over matches, and the difference B − A with its 95% interval: paired
    t when the sides are different seats of the same set of matches, else Welch t
    with each side over its own matches (different matches, matches only one side
    holds, or the same match on both sides). The output says which and why, and
    names the interval of every figure. With --models, an input given twice (or
    a match beside the folder holding it) is read and counted once; without
    it, one input as both sides is compared with itself; either is said on
    stderr.

    Scripted seats are not players: probe seats (role probe: the server's
    scripted probes) and anchor seats (role anchor: scripted bots kept in a
    lobby as a yardstick) are left out of every mean, and the output says so.

    A match whose header fails its schema, or whose read left something out
    (invalid records, a log cut short, a value written twice under one key,
    records of unknown types, seats the archive does not list), is named in the
    first notes, with the kinds: its figures rest on what the read kept, and
    its behavior report says what each is. It is still compared (exit 0).
    """
    import_late(globals(), _LATE)
    fmt = format_for(fmt, output, FORMATS)
    groups = [expand_targets([t]) for t in targets]
    if by is None:
        by = "seat" if len(targets) == 2 and all(len(g) == 1 for g in groups) and not models else "model"
    _check_sides(targets, groups, by, models)
    if by == "model":
        groups = _once(targets, groups, pooled=models is not None)
    every = sorted({t for g in groups for t in g})
    reports = _reports(targets, every, quiet, progress, store, server)
    doc = _comparison(targets, groups, every, reports, by, models)
    width = text_width() if fmt == "text" else 100
    write_output(render(doc, fmt, width=width, color=use_color(color, output)), output)
    raise SystemExit(exitcodes.OK)


def _check_sides(targets: tuple[str, ...], groups: list[list[str]], by: str, models: tuple[str, str] | None) -> None:
    """The two sides the options and targets make, refused (a usage error) when they make none; a match
    compared with itself said on stderr; a target holding no match refused (unreadable)."""
    if by == "seat":
        if models:
            raise BadSetting("--models goes with --by model", file="--models")
        if len(targets) != 2 or any(len(g) != 1 for g in groups):
            raise BadSetting("--by seat compares exactly two matches (a folder of matches goes with --by model)",
                             file="--by")
        if os.path.realpath(targets[0]) == os.path.realpath(targets[1]):
            say(f"warning: both sides are the same input ({targets[0]}): a match compared with itself shows no "
                "difference (compare two matches, or two inputs of one match such as an export before and after "
                "errata)", err=True)
    elif models is not None and models[0] == models[1]:
        raise BadSetting(f"both sides are model {models[0]!r}: give two different models", file="--models")
    elif models is None and len(targets) != 2:
        raise BadSetting("--by model needs --models M1 M2, or exactly two folders (one per side)", file="--by")
    for target, group in zip(targets, groups):
        if not group:
            raise InputUnreadable("no matches in it (bundles, streams or match folders)", file=target)


def _reports(targets: tuple[str, ...], every: list[str], quiet: bool, progress: bool, store: Path | None,
             server: str | None) -> dict[str, dict[str, Any]]:
    """Each match's behavior report, by target; one file given by two names is read once.  A match that
    cannot be described is unreadable (exit 3), not a finding: a comparison describes."""
    reports: dict[str, dict[str, Any]] = {}
    read: dict[str, dict[str, Any]] = {}  # by the file a name resolves to: one file by two names is read once
    with progress_for(f"compare {' '.join(targets)}", quiet, progress) as line:
        for target in every:
            if _same_file(target) in read:
                reports[target] = read[_same_file(target)]
                continue
            line.stage(f"reading and analysing match {len(read) + 1} of {len({_same_file(t) for t in every})}")
            try:
                reports[target] = read[_same_file(target)] = build_report(target, store=store, server=server).report
            except InvalidInput as exc:
                raise InputUnreadable(exc.message, file=exc.file, event_id=exc.event_id, line=exc.line,
                                      field=exc.field) from exc
    return reports


def _comparison(targets: tuple[str, ...], groups: list[list[str]], every: list[str],
                reports: dict[str, dict[str, Any]], by: str, models: tuple[str, str] | None) -> dict[str, Any]:
    """The comparison document: two matches seat by seat; two models over the pooled matches (a model no
    player seat has refused, naming those there are); or the two targets' matches as the two sides."""
    if by == "seat":
        return compare_matches(reports[groups[0][0]], reports[groups[1][0]], labels=(targets[0], targets[1]))
    if models is not None:
        pooled = tuple(reports[t] for t in every)
        known = split_models(pooled)
        for model in models:
            if model not in known:
                found = ", ".join(f"{m} ({n} match{'es' if n != 1 else ''})" for m, n in known.items()) or "none"
                raise BadSetting(f"no player seat of model '{shown_clipped(model)}' in these matches (probe seats are not "
                                 f"players); the models: {found}", file="--models")
        return compare_models(Side(models[0], pooled, models[0], tuple(every)),
                              Side(models[1], pooled, models[1], tuple(every)))
    return compare_models(Side(targets[0], tuple(reports[t] for t in groups[0]), None, tuple(groups[0])),
                          Side(targets[1], tuple(reports[t] for t in groups[1]), None, tuple(groups[1])))


def _same_file(target: str) -> str:
    """What makes two names one input: the file or folder a path resolves to (links followed), else the
    name (a match id, m_demo)."""
    return os.path.realpath(target) if os.path.lexists(target) else target


def _once(targets: tuple[str, ...], groups: list[list[str]], *, pooled: bool) -> list[list[str]]:
    """The matches of each target of a comparison of models, a target given again (by the same name or
    another) said once on stderr.  ``pooled`` (``--models``: every match given is one pool): a target, or
    a match of it, given already is left out, so each is read and counted once.  Otherwise the two
    targets are the two sides: the same input as both is compared with itself, said as such (its
    matches are read once)."""
    if not pooled:
        if len(targets) == 2 and _same_file(targets[0]) == _same_file(targets[1]):
            say(f"warning: both sides are the same input ({targets[0]}"
                + (f", as {targets[1]}" if targets[1] != targets[0] else "")
                + "): its matches compared with themselves show no difference (give two folders, or one with "
                "--models M1 M2)", err=True)
        return groups
    given: dict[str, str] = {}  # a target's file -> the target as first given
    held: dict[str, str] = {}  # a match's file -> the target that gave it first
    kept: list[list[str]] = []
    for target, group in zip(targets, groups):
        again = given.get(_same_file(target))
        if again is not None:
            say(f"warning: {target} is {'given twice' if again == target else f'the same input as {again}'}: "
                "read and counted once", err=True)
            kept.append([])
            continue
        given[_same_file(target)] = target
        fresh = []
        for match in group:
            earlier = held.get(_same_file(match))
            if earlier is not None:
                where = "" if match == target else f" (in {target})"
                how = "as" if _same_file(earlier) == _same_file(match) else "in"
                say(f"warning: {match}{where} is given already ({how} {earlier}): read and counted once", err=True)
                continue
            held[_same_file(match)] = target
            fresh.append(match)
        kept.append(fresh)
    return kept


EXAMPLES = """\b
Examples:
  daishi-forensics simulate --scenario ring --seed 3 --out /tmp/m
  daishi-forensics compare m_demo /tmp/m
  daishi-forensics compare m_demo /tmp/m -o compare.html
  daishi-forensics compare m_demo /tmp/m --by model --format json
  daishi-forensics compare m_demo --by model --models gpt-5-2025-08-07 gemini-2.5-pro"""
"""Commands that run as written (the embedded demo, and a match ``simulate`` writes)."""

set_help(compare, TARGET_HELP + " A folder holding matches stands for every match in it.", EXAMPLES)
