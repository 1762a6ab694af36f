"""``daishi-forensics simulate`` (one match) and ``daishi-forensics simulate study`` (studies)."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource
from daishi_forensics import exitcodes
from daishi_forensics.simulate import FORMS, SCENARIOS, simulate_to_dir
from daishi_forensics.simulate.noise import NOISE_LEVELS

from ._common import handle_errors, say
from ._progress import progress_for, progress_options


def _out(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """--out's check: an empty name ('', as an unset shell variable gives) is a usage error; it was read as
    the current folder, and the files written there."""
    if value == "":
        raise click.BadParameter("the folder name is empty: give a folder to write into ('.' for this one)")
    return None if value is None else Path(value)


@click.group(invoke_without_command=True, epilog=exitcodes.epilog(ok="written", findings=None, unreadable=None))
@click.option("--scenario", type=click.Choice(sorted(SCENARIOS)), default="clean", show_default=True,
              help="What to plant in otherwise organic play.")
@click.option("--seed", type=click.IntRange(-(2**63), 2**64 - 1), default=1, show_default=True,
              help="Same seed, same bytes (a 64-bit integer: truth.json records it as a JSON number).")
@click.option("--schema-version", type=click.IntRange(1, 3), default=3, show_default=True,
              help="Envelope version to log in (1: engine 0.1.0, 2: 0.2-0.4, 3: current).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None, callback=_out,
              help="Folder to write the match and its ground truth (truth.json) into (required for one match); one holding another simulated match's truth.json, a simulated study's, a truth.json this tool did not write (your own file: never replaced), or a match folder (archive.json), is refused (exit 74); a rerun of the same match replaces it.")
@click.option("--form", type=click.Choice(sorted(FORMS)), default="stream", show_default=True,
              help="bundle(-gz), stream(-gz) or folder: the export format's forms.")
@click.option("--agents", "n_agents", type=click.IntRange(4, 200), default=8, show_default=True,
              help="Player seats (probe seats come on top).")
@click.option("--ticks", type=click.IntRange(1), default=300, show_default=True, help="Rounds to play.")
@click.option("--events", "target_events", type=click.IntRange(1), default=None,
              help="Play until about this many events (for benchmarks), instead of --ticks (not with it).")
@click.option("--previous-season", is_flag=True, help="v1 only: prepend an earlier season the reader must drop.")
@click.option("--noise", type=click.Choice(list(NOISE_LEVELS)), default=None,
              help="Honest noise: whole-item trades, favoured partners, gifts to the hungry, beggars, buying "
                   "before a build, market fills, trade with whoever stands near. Default: medium for "
                   "honest-noisy, none for every other scenario. For calibrating screen settings; extreme "
                   "(1.9 times heavy: nearly every honest turn tries one of them) measures them past the "
                   "levels they were set at.")
@progress_options
@click.pass_context
@handle_errors
def simulate(ctx: click.Context, scenario: str, seed: int, schema_version: int, out_dir: Path | None, form: str,
             n_agents: int, ticks: int, target_events: int | None, previous_season: bool, noise: str | None,
             quiet: bool, progress: bool) -> None:
    """Write a deterministic synthetic match with planted behaviors and a ground-truth sidecar.

    The match id is derived from every parameter that changes the output
    (scenario, seed, seats, rounds, events, --noise, --schema-version,
    --previous-season), so two different simulated matches never share one; a
    parameter at its default (no --noise, version 3, no previous season) adds
    nothing to it. A --noise given is part of the id even when it names the
    scenario's own level (--noise none for clean: the same events under another
    id, the id the benches' noise-level sweeps use). The form does not change
    the id (two forms, one match).

    Scenarios, what each plants in otherwise organic play: clean, nothing (busy
    honest trade); honest-noisy, nothing, with the honest noise --noise adds to
    any scenario (medium unless --noise says otherwise); feeder, 2-4 spokes
    sending value one way to a beneficiary (gifts, or trades where it gives a
    token back); ring, 3-4 seats wash-trading the same goods around a cycle and
    back; wash_cycle, 3-4 seats passing one good round a cycle, each paying its
    giver in another good at the reference values, so no seat's goods change
    and no pair trades a good both ways; cartel, 3-4 seats moving together, trading inside, never fighting
    each other and attacking the outsiders they meet; off_price, a pair trading
    far off the reference values, again and again; thrown_fight, one seat
    raiding and robbing another, which never retaliates and refills its
    storehouse; probes, probe seats sending the four catalogue probes (some
    targets comply, some refuse, some never hear them); echo, an injected
    instruction re-sent, mutated, over generations, beside a common phrase said
    independently (decoys); mixed, probes and echo with as many of feeder,
    ring, off_price and thrown_fight as the seats allow; scarce_seller, nothing
    (honest): one seat holds a cheap good two or three buyers lack, and each
    pays it one whole dear item for it, again and again (truth names them
    under honest_suspicious); monopolist, the same with the seller asking two
    whole dear items for one, and paid (honest, named the same way).

    The sidecar truth.json names the planted agents, probe outcomes and
    propagation edges, so screens and probes can be calibrated and measured.
    Example:

    \b
        daishi-forensics simulate --scenario ring --seed 3 --out /tmp/m
        daishi-forensics screen /tmp/m
        daishi-forensics simulate --scenario honest-noisy --noise heavy --out /tmp/h
        daishi-forensics screen /tmp/h      # an honest match: what your settings flag

    `simulate study --out DIR` writes simulated studies instead (see its --help).
    """
    if ctx.invoked_subcommand is not None:
        given = [f"--{p.name.replace('_', '-')}" for p in ctx.command.params
                 if p.name and ctx.get_parameter_source(p.name) is ParameterSource.COMMANDLINE]
        if given:
            verb = "belongs" if len(given) == 1 else "belong"
            raise click.UsageError(f"{', '.join(given)} {verb} to the single-match form; give "
                                   f"`{ctx.invoked_subcommand}` its own options after its name")
        return
    if out_dir is None:
        raise click.UsageError("Missing option '--out'.")
    if target_events is not None and ctx.get_parameter_source("ticks") is ParameterSource.COMMANDLINE:
        raise click.UsageError("--ticks and --events: give one (--events sets how long the match plays, and "
                               "--ticks would still change the match it plays)")
    if previous_season and schema_version != 1:
        raise click.UsageError("--previous-season needs --schema-version 1 (only v1 logs hold several seasons)")
    with progress_for(f"simulate {scenario}", quiet, progress) as line:
        line.stage("playing the match")
        path = simulate_to_dir(scenario, seed, schema_version, out_dir, form, previous_season=previous_season,
                               n_agents=n_agents, ticks=ticks, target_events=target_events, noise=noise)
    say(str(path))


@simulate.command("study", epilog=exitcodes.epilog(ok="written", findings=None, unreadable=None))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True, callback=_out,
              help="Folder to write the studies into (one folder each); one holding another simulated "
                   "study (other arguments), or a file this tool did not write where it writes one (trials.csv, "
                   "seats.csv, study.json, recipe.json, truth.json, a match's archive.json, events.jsonl or "
                   "report.json; an events.jsonl.gz in a match's folder), or a file where it makes a folder, is "
                   "refused (exit 74, nothing written), a rerun of the same studies replaces them.")
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same bytes.")
@click.option("--trials", type=click.IntRange(5, 200), default=8, show_default=True,
              help="Trials each study plans (the awkward cases need at least 5).")
@click.option("--ticks", type=click.IntRange(3), default=40, show_default=True, help="Rounds each match plays.")
@click.option("--agents", "n_agents", type=click.IntRange(4, 200), default=6, show_default=True,
              help="Seats in each match.")
@progress_options
@handle_errors
def study(out_dir: Path, seed: int, trials: int, ticks: int, n_agents: int, quiet: bool, progress: bool) -> None:
    """Write simulated studies played from simulated matches, as a study page serves them.

    Three folders: series (one arm), paired-fixed (a control and two arms, fixed
    rule) and paired-anytime (anytime rule with a confidence sequence). Each
    holds trials.csv, seats.csv, the page's figures (study.json), under the
    anytime rule the recipe (recipe.json), every trial's match under matches/
    (archive, events and, for a scored trial, its report) and truth.json naming
    what was planted: a failed trial, pairs left out with their reasons
    (failed, other_seeds, no_trial), early stops under the anytime rule,
    repeated maps, and seats whose Fitness Index falls on a half. Example:

    \b
        daishi-forensics simulate study --out /tmp/studies
        daishi-forensics study audit /tmp/studies/paired-fixed
        daishi-forensics score /tmp/studies/series/matches/m_...
    """
    from daishi_forensics.study.simulated import simulate_study

    with progress_for("simulate study", quiet, progress) as line:
        line.stage("playing the studies' matches")
        for folder in simulate_study(out_dir, seed=seed, trials=trials, ticks=ticks, n_agents=n_agents):
            line.clear()
            say(str(folder))
