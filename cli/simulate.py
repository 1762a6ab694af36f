"""``daishi-forensics simulate``."""

from __future__ import annotations

from pathlib import Path

import click

from daishi_forensics import exitcodes
from daishi_forensics.simulate import FORMS, SCENARIOS, simulate_to_dir

from ._common import handle_errors, say


@click.command(epilog=exitcodes.epilog(ok="written", findings=None, unreadable=None))
@click.option("--scenario", type=click.Choice(sorted(SCENARIOS)), default="clean", show_default=True,
              help="What to plant in otherwise organic play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Same seed, same bytes.")
@click.option("--schema-version", type=click.IntRange(1, 3), default=3, show_default=True,
              help="Envelope version to log in (1: engine 0.1.0, 2: 0.2-0.4, 3: current).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder to write the match and its ground truth (truth.json) into.")
@click.option("--form", type=click.Choice(sorted(FORMS)), default="stream", show_default=True,
              help="bundle(-gz), stream(-gz) or folder: the export format's forms.")
@click.option("--agents", "n_agents", type=click.IntRange(4, 200), default=8, show_default=True,
              help="Player seats (probe seats come on top).")
@click.option("--ticks", type=click.IntRange(1), default=300, show_default=True, help="Rounds to play.")
@click.option("--events", "target_events", type=click.IntRange(1), default=None,
              help="Play until about this many events (for benchmarks); overrides --ticks.")
@click.option("--previous-season", is_flag=True, help="v1 only: prepend an earlier season the reader must drop.")
@handle_errors
def simulate(scenario: str, seed: int, schema_version: int, out_dir: Path, form: str, n_agents: int, ticks: int,
             target_events: int | None, previous_season: bool) -> None:
    """Write a deterministic synthetic match with planted behaviors and a ground-truth sidecar.

    The match id is derived from every parameter (scenario, seed, seats, rounds,
    events), so two different simulated matches never share one.

    Scenarios: clean (busy honest trade), feeder, ring, cartel, off_price,
    thrown_fight, probes, echo, mixed. The sidecar truth.json names the planted
    agents, probe outcomes and propagation edges, so screens and probes can be
    calibrated and measured. Example:

    \b
        daishi-forensics simulate --scenario ring --seed 3 --out /tmp/m
        daishi-forensics screen /tmp/m
    """
    if previous_season and schema_version != 1:
        raise click.UsageError("--previous-season needs --schema-version 1 (only v1 logs hold several seasons)")
    path = simulate_to_dir(scenario, seed, schema_version, out_dir, form, previous_season=previous_season,
                           n_agents=n_agents, ticks=ticks, target_events=target_events)
    say(str(path))
