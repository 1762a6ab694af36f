"""One pass over a match: every analysis, fed by the replay loop.

:func:`analyze` opens nothing: it takes a :class:`~daishi_forensics.reading.MatchRead`
(the read boundary), builds one instance of every registered pass for the match's
archive, runs :func:`~daishi_forensics.replay.replay` once over the boundary's
events, and returns a :class:`MatchAnalysis` holding the timeline and every pass by
name.  Nothing reads the file twice.

A feature registers its pass with :func:`register` (name, factory taking the
archive).  Passes run in registration order; a pass may look at another pass's
state only through ``MatchAnalysis.passes`` *after* the replay.
"""

from __future__ import annotations

import gc
import inspect
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from .reading import MatchRead, read_match
from .replay import Pass, Timeline, replay
from .sources import Limits, open_match
from .values import ItemValues, item_values

__all__ = ["MatchAnalysis", "analyze", "build_passes", "analyze_target", "register", "registered"]

PassFactory = Callable[[Mapping[str, Any]], Pass]
_REGISTRY: dict[str, PassFactory] = {}


def register(name: str, factory: PassFactory) -> None:
    """Add a pass to every analysis (``factory(archive) -> Pass``)."""
    _REGISTRY[name] = factory


def registered() -> tuple[str, ...]:
    """The registered pass names, in run order."""
    _load_builtin()
    return tuple(_REGISTRY)


_LOADED = False


def _load_builtin() -> None:
    """Register the built-in passes (imported lazily to keep import cheap)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from . import passes  # noqa: F401  (registers on import)


@dataclass
class MatchAnalysis:
    """The result of one pass over a match."""

    read: MatchRead
    """The read boundary: source, header, stats and problems."""
    timeline: Timeline
    """Who stood where, alive or dormant, at every tick."""
    passes: dict[str, Any] = field(default_factory=dict)
    """Every pass by its registered name, after the replay."""

    _results: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def archive(self) -> dict[str, Any]:
        return self.read.archive

    @cached_property
    def values(self) -> ItemValues:
        """The match's item values (contract §4 defaults where the archive has none)."""
        return item_values(self.archive)

    def __getitem__(self, name: str) -> Any:
        return self.passes[name]

    def result(self, name: str) -> Any:
        """The named pass's result, computed once (passes whose ``result`` takes the
        item values get :attr:`values`)."""
        if name not in self._results:
            producer = self.passes[name].result
            takes_values = bool(inspect.signature(producer).parameters)
            self._results[name] = producer(self.values) if takes_values else producer()
        return self._results[name]


class paused_cycle_collection:
    """The cycle collector paused while the passes run or a report is built from them.

    Both make acyclic records that reference counting frees; a collection meanwhile would
    only walk the large live set of the analysis again and again (a tenth of the replay's
    time, a third of the report's).  Restored as it was on leaving, so cyclic garbage made
    meanwhile is collected afterwards (a season loop in one process does not leak)."""

    def __enter__(self) -> None:
        self._enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._enabled:
            gc.enable()


def build_passes(names: Iterable[str], archive: Mapping[str, Any]) -> dict[str, Pass]:
    """One instance of each named registered pass for a match's archive, by name."""
    _load_builtin()
    return {name: _REGISTRY[name](archive) for name in names}


HELPER_PASSES: tuple[str, ...] = ("promises",)
"""The passes a read-ahead helper runs, when the read has one: the promises pass, about a fifth
of the replay's work on a large match, and as much as the helper can take on top of its schema
checks while still staying ahead of the boundary.  The helper replays the same events through
the same boundary in its own process and hands the passes back; see
:mod:`~daishi_forensics.readahead`."""


def analyze(read: MatchRead, *, only: tuple[str, ...] | None = None) -> MatchAnalysis:
    """Run every registered pass (or those named in ``only``) in one replay.

    When the read gets a read-ahead helper (a large file and a second CPU), the passes in
    :data:`HELPER_PASSES` run there, over the same events, while this process runs the rest;
    if the helper fails they run here after all, over a second read of the file.  Either way
    every pass has seen the same events: the result is the same."""
    _load_builtin()
    archive = read.archive
    names = [n for n in _REGISTRY if only is None or n in only]
    delegated = read.delegate(tuple(n for n in names if n in HELPER_PASSES))
    instances = build_passes((n for n in names if n not in delegated), archive)
    try:
        with paused_cycle_collection():
            timeline = replay(read.events(), archive, list(instances.values()))
            if delegated:
                instances.update(read.delegated_passes() or _replay_again(read, delegated))
    finally:
        read.close_read_ahead()
    return MatchAnalysis(read=read, timeline=timeline, passes={name: instances[name] for name in names})


def _replay_again(read: MatchRead, names: tuple[str, ...]) -> dict[str, Any]:
    """The named passes over a second read of the match (the helper that ran them failed)."""
    again = MatchRead(read.source, strict=read.strict, validate=read.validate, max_problems=read.max_problems,
                      read_ahead=False)
    instances = build_passes(names, read.archive)
    replay(again.events(), read.archive, list(instances.values()))
    return instances


def analyze_target(
    target: str,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
    only: tuple[str, ...] | None = None,
) -> MatchAnalysis:
    """Open, read and analyse one target (see :func:`daishi_forensics.sources.open_match`)."""
    source = open_match(target, store=store, server=server, limits=limits)
    return analyze(read_match(source), only=only)
