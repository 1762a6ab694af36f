"""Simulated Daishi matches with planted behaviors and their ground truth.

A match is organic play on a 12 x 12 map (agents gather, craft, build, trade,
talk, fight, rest, sleep and die) with one scenario's behaviors hidden in it
(see :mod:`.behaviors` for the list).  Same scenario, seed and parameters, same
bytes: every draw comes from one seeded generator, and nothing reads the clock.

>>> match = simulate_match("clean", 1, ticks=30)
>>> match.match_id == simulate_match("clean", 1, ticks=30).match_id
True
>>> match.archive["config"]["engine_version"]
'0.5.2'

``simulate_match`` plays the match once (keeping the events in memory only when
the match is small) and returns a :class:`SimulatedMatch`; ``write_match`` writes
it in any form and schema version with its ``truth.json`` beside it.
``simulate_to_dir`` plays and writes in one pass without holding the events
(use it for very large matches: ``target_events=1_000_000``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import json
import os

from daishi_forensics.errors import OutputError
from daishi_forensics.jsonio import dumps as _pretty
from daishi_forensics.outputs import refuse_non_regular, write_file
from .behaviors import SCENARIOS
from .engine import EVENTS_PER_AGENT_TICK, Simulation
from .truth import build_truth
from .world import written_id
from .writer import (
    FORMS,
    SCHEMA_VERSIONS,
    archive_for,
    iter_downgraded,
    previous_season_seed,
    season_markers,
    write_export,
)

__all__ = [
    "SCENARIOS",
    "FORMS",
    "SCHEMA_VERSIONS",
    "SimulatedMatch",
    "simulate_match",
    "write_match",
    "simulate_to_dir",
]

_KEEP_EVENTS_UP_TO = 60_000
"""Matches expected to log at most this many events keep them in memory (no replay on write)."""


@dataclass(frozen=True)
class SimulatedMatch:
    """A simulated match: its archive and ground truth; its events on demand (:meth:`iter_events`)."""

    scenario: str
    """Planted scenario (one of :data:`SCENARIOS`)."""
    seed: int
    """Seed every draw derives from."""
    schema_version: int
    """Schema version :attr:`archive`, :meth:`iter_events` and :func:`write_match` use by default."""
    match_id: str
    """``m_`` and 12 hex digits, from every parameter: the id written for :attr:`schema_version`
    (see :func:`~.world.written_id`)."""
    params: dict[str, Any]
    """Simulation parameters (``n_agents``, ``ticks``, ``target_events``, ``width``, ``height``, and
    ``noise`` when given, ``feeder_mode`` when it is not ``offer``)."""
    archive_v3: dict[str, Any] = field(repr=False)
    """The archive as a v3 engine stamps it (metrics, ledger, exploration included)."""
    truth: dict[str, Any] = field(repr=False)
    """Ground truth (see :mod:`.truth`); ``schemaVersion`` is :attr:`schema_version`."""
    n_events: int
    """Events logged (v3: both ``trade_completed`` of a trade counted)."""
    first_id: int
    """Id of the first event."""
    played_id: str = field(default="", repr=False)
    """The id of the match as played (its v3 id); empty: :attr:`match_id`."""
    _events: tuple[dict[str, Any], ...] | None = field(default=None, repr=False, compare=False)

    def id_for(self, schema_version: int, previous_season: bool = False) -> str:
        """The match id written for ``schema_version`` (and an earlier season before it): the played id for
        a v3 log, another id for every other version or an earlier season (:func:`~.world.written_id`)."""
        return written_id(self.played_id or self.match_id, schema_version, previous_season)

    @property
    def archive(self) -> dict[str, Any]:
        """The archive for :attr:`schema_version`."""
        return self.archive_for(self.schema_version)

    def archive_for(self, schema_version: int, previous_season: bool = False) -> dict[str, Any]:
        """The archive as an engine of ``schema_version`` writes it (with the id written for it)."""
        _check_version(schema_version)
        return _with_archive_id(archive_for(self.archive_v3, schema_version),
                                self.id_for(schema_version, previous_season))

    def iter_events(self, schema_version: int | None = None, *,
                    previous_season: bool = False) -> Iterator[dict[str, Any]]:
        """The events in log order, in ``schema_version`` (default :attr:`schema_version`).

        Large matches are played again (deterministically) rather than kept.  ``previous_season``
        (v1 only) puts a short earlier season and the ``world_reset``/``season_started`` markers first.
        """
        version = self.schema_version if schema_version is None else schema_version
        _check_version(version)
        if previous_season:
            if version != 1:
                raise ValueError("previous_season is a v1 log feature (schema_version=1)")
            yield from _previous_season(self.scenario, self.seed, self.first_id)
        played, written = self.played_id or self.match_id, self.id_for(version, previous_season)
        if self._events is not None:
            yield from _with_event_id(iter_downgraded(self._events, version), played, written)
        else:
            yield from _with_event_id(iter_downgraded(Simulation(self.scenario, self.seed, **self.params).run(),
                                                      version), played, written)


def _with_event_id(events: Iterator[dict[str, Any]], played: str, written: str) -> Iterator[dict[str, Any]]:
    """``events`` with their ``matchId`` the written id (copies; the events unchanged when the two ids are one)."""
    if played == written:
        yield from events
        return
    for ev in events:
        yield {**ev, "matchId": written} if "matchId" in ev else ev


def _with_archive_id(archive: dict[str, Any], written: str) -> dict[str, Any]:
    """``archive`` with its ``matchId`` the written id (a copy when it changes)."""
    if archive.get("matchId", written) == written:
        return archive
    return {**archive, "matchId": written}


def _check_version(version: int) -> None:
    if version not in SCHEMA_VERSIONS:
        raise ValueError(f"schema_version must be 1, 2 or 3, got {version!r}")


def _params(n_agents: int, ticks: int, target_events: int | None, width: int, height: int,
            noise: str | None = None, feeder_mode: str = "offer") -> dict[str, Any]:
    params: dict[str, Any] = {"n_agents": n_agents, "ticks": ticks, "target_events": target_events, "width": width, "height": height}
    if noise is not None:
        params["noise"] = noise  # only when asked for: the existing matches' truth stays as it was
    if feeder_mode != "offer":
        params["feeder_mode"] = feeder_mode  # the default adds nothing: the existing matches' truth stays as it was
    return params


def _previous_season(scenario: str, seed: int, first_id: int) -> list[dict[str, Any]]:
    prev_seed = previous_season_seed(scenario, seed)
    sim = Simulation("clean", prev_seed, n_agents=4, ticks=24, first_id=1, id_prefix="p")
    events = list(iter_downgraded(sim.run(), 1))
    return season_markers(events, first_id, 2 + prev_seed % 7, sim.ended)


def simulate_match(scenario: str, seed: int, *, schema_version: int = 3, n_agents: int = 8, ticks: int = 300,
                   target_events: int | None = None, width: int = 12, height: int = 12,
                   noise: str | None = None, feeder_mode: str = "offer") -> SimulatedMatch:
    """Play one match of ``scenario`` with ``seed``.

    Parameters
    ----------
    scenario:
        One of :data:`SCENARIOS`.
    seed:
        Any integer; same inputs, same match.
    schema_version:
        Default version for the archive, the events and writing (1, 2 or 3).
    n_agents:
        Player seats (at least 4); probe seats of the ``probes``/``mixed`` scenarios come on top.
    ticks:
        Rounds to play (ignored when ``target_events`` is given).
    target_events:
        Play until at least this many (v3) events are logged, ending at a tick boundary.
    width, height:
        Map size in regions.
    noise:
        Honest noise: ``none``, ``light``, ``medium``, ``heavy`` or ``extreme`` (see :mod:`.noise`); None is
        ``medium`` for the ``honest-noisy`` scenario and ``none`` for every other.
    feeder_mode:
        Who sends a planted feeder's trades (the ``feeder`` and ``mixed`` scenarios): ``offer``, the
        spokes offer them (the default); ``ask``, the beneficiary asks each spoke for the goods, giving
        nothing or a token, and the spoke accepts.  The same draws either way; ``ask`` is part of the id
        and of the truth's ``params``.
    """
    _check_version(schema_version)
    params = _params(n_agents, ticks, target_events, width, height, noise, feeder_mode)
    sim = Simulation(scenario, seed, **params)
    expected = target_events if target_events is not None else n_agents * ticks * EVENTS_PER_AGENT_TICK
    if expected <= _KEEP_EVENTS_UP_TO:
        events: tuple[dict[str, Any], ...] | None = tuple(sim.run())
    else:
        events = None
        for _ in sim.run():
            pass
    truth = build_truth(sim, params)
    truth["schemaVersion"] = schema_version
    match_id = written_id(sim.match_id, schema_version)
    truth["matchId"] = match_id
    return SimulatedMatch(scenario=scenario, seed=seed, schema_version=schema_version, match_id=match_id,
                          params=params, archive_v3=sim.archive, truth=truth, n_events=sim.n_events,
                          first_id=sim.first_id, played_id=sim.match_id, _events=events)


def _not_a_match_folder(out_dir: Path) -> None:
    """Refuse to write into a match folder (one holding ``archive.json``): every command reads that folder as
    its own match, so a match written inside it would never be read."""
    if os.path.lexists(out_dir / "archive.json"):
        raise OutputError("it is a match folder (it holds archive.json): a match written into it would never be "
                          "read, as every command reads the folder as its own match; give another --out",
                          file=str(out_dir))


_TRUTH_FORMAT = "daishi-sim-truth"
"""The ``format`` of every ground truth :func:`build_truth` writes."""
_STUDY_TRUTH_FORMAT = "daishi-forensics-study-truth"
"""The ``format`` of a simulated study's ground truth (``study.simulated.TRUTH_FORMAT``, a room below this one)."""


def _keep_other_truth(out_dir: Path, truth_file: str | None, match_id: str) -> None:
    """Refuse to write match ``match_id`` into ``out_dir`` when its ``truth_file`` is the ground truth of
    another match whose file is still there: the new truth would replace it, and that match would be left
    without one (a rerun of the same match, or a truth whose match is gone, is replaced).  A file there that
    is no ground truth this tool wrote (not JSON, or not a ``daishi-sim-truth``) is someone's own: refused
    too, never replaced silently; so is a simulated study's (``daishi-forensics-study-truth``), said as such."""
    if not truth_file:
        return
    path = out_dir / truth_file
    refuse_non_regular(path)  # a named pipe there would be waited on, never answered
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"cannot read it ({exc.strerror or exc}) to tell whether it is a ground truth this tool "
                          "wrote, which a new match may replace; give another --out", file=str(path)) from None
    try:
        old = json.loads(data)
        why = f'no "format": "{_TRUTH_FORMAT}"'
    except ValueError:
        old, why = None, "not JSON"
    if isinstance(old, dict) and old.get("format") == _STUDY_TRUTH_FORMAT:
        raise OutputError("it is the ground truth of a simulated study, not of a match: writing the match's truth "
                          "there would replace it; give another --out (one folder a match)", file=str(path))
    if not isinstance(old, dict) or old.get("format") != _TRUTH_FORMAT:
        raise OutputError(f"it is not a ground truth this tool wrote ({why}): writing the match's truth there "
                          "would replace it; give another --out, or move the file away", file=str(path))
    if not isinstance(old.get("file"), str) or old.get("matchId") == match_id:
        return
    if (out_dir / old["file"]).exists():
        raise OutputError(f"it holds the ground truth of match {old.get('matchId')} ({old['file']}, still there): "
                          f"writing match {match_id} there would replace it; give another --out (one folder a "
                          "match), or remove both", file=str(path))


def _write_truth(out_dir: Path, truth_file: str | None, truth: dict[str, Any], version: int, form: str,
                 path: Path, match_id: str) -> None:
    """Write the ground truth of the match written to ``path`` (its version, form, file and id)."""
    if not truth_file:
        return
    out = dict(truth)
    out["matchId"] = match_id
    out["schemaVersion"] = version
    out["form"] = form
    out["file"] = path.name
    write_file(out_dir / truth_file, _pretty(out), regular_only=True)


def write_match(match: SimulatedMatch, out_dir: Path, *, form: str = "bundle", schema_version: int | None = None,
                previous_season: bool = False, truth_file: str | None = "truth.json") -> Path:
    """Write ``match`` to ``out_dir`` in ``form`` (see :data:`FORMS`) and ``schema_version``.

    Returns the match's file (or folder, for the folder forms).  The ground truth goes
    to ``out_dir / truth_file`` (None: not written); writing several matches into one
    folder needs a different ``truth_file`` for each.
    """
    version = match.schema_version if schema_version is None else schema_version
    _check_version(version)
    out_dir = Path(out_dir)
    match_id = match.id_for(version, previous_season)
    _not_a_match_folder(out_dir)
    _keep_other_truth(out_dir, truth_file, match_id)
    path = write_export(out_dir, match_id, form,
                        match.iter_events(version, previous_season=previous_season),
                        lambda: match.archive_for(version, previous_season))
    _write_truth(out_dir, truth_file, match.truth, version, form, path, match_id)
    return path


def simulate_to_dir(scenario: str, seed: int, schema_version: int, out_dir: Path, form: str = "bundle",
                    *, previous_season: bool = False, truth_file: str | None = "truth.json",
                    **params: Any) -> Path:
    """Play a match and write it in one pass, never holding its events (the CLI's entry point).

    ``params`` are :func:`simulate_match`'s keyword parameters (``n_agents``, ``ticks``,
    ``target_events``, ``width``, ``height``, ``noise``, ``feeder_mode``).  Returns what :func:`write_match` returns;
    the bytes are the same as ``write_match(simulate_match(...), ...)``.
    """
    _check_version(schema_version)
    if previous_season and schema_version != 1:
        raise ValueError("previous_season is a v1 log feature (schema_version=1)")
    unknown = set(params) - {"n_agents", "ticks", "target_events", "width", "height", "noise", "feeder_mode"}
    if unknown:
        raise TypeError(f"unknown simulation {'parameter' if len(unknown) == 1 else 'parameters'}: "
                        f"{', '.join(sorted(unknown))}")
    full = _params(params.get("n_agents", 8), params.get("ticks", 300), params.get("target_events"),
                   params.get("width", 12), params.get("height", 12), params.get("noise"),
                   params.get("feeder_mode", "offer"))
    sim = Simulation(scenario, seed, **full)
    out_dir = Path(out_dir)

    match_id = written_id(sim.match_id, schema_version, previous_season)
    _not_a_match_folder(out_dir)
    _keep_other_truth(out_dir, truth_file, match_id)

    def events() -> Iterator[dict[str, Any]]:
        if previous_season:
            yield from _previous_season(scenario, seed, sim.first_id)
        yield from _with_event_id(iter_downgraded(sim.run(), schema_version), sim.match_id, match_id)

    stream = sim.run() if schema_version == 3 else events()
    path = write_export(out_dir, match_id, form, stream,
                        lambda: _with_archive_id(archive_for(sim.archive, schema_version), match_id),
                        archive_known=False)
    truth = build_truth(sim, full)
    _write_truth(out_dir, truth_file, truth, schema_version, form, path, match_id)
    return path
