"""One pass over a match: every analysis of a catalogue, fed by the replay loop.

:func:`analyze` opens nothing: it takes a :class:`~daishi_forensics.read.boundary.MatchRead`
(the read boundary) and a :class:`~daishi_forensics.replay.registry.Catalogue` of passes,
builds one instance of each pass for the match's archive, runs
:func:`~daishi_forensics.replay.driver.replay` once over the boundary's events, and returns
a :class:`MatchAnalysis` holding the timeline and every pass by name.  A pass may look at
another pass's state only through ``MatchAnalysis.passes`` *after* the replay.

On a large file with a second CPU, the passes named in ``aside`` are replayed by a forked
child over its own read of the same file while this process replays the others
(:mod:`~daishi_forensics.replay._halves`: the child's passes are taken only if it read the
same bytes; else this process replays them itself).  Otherwise nothing reads the file twice.
"""

from __future__ import annotations

import gc
import inspect
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from daishi_forensics.read.archive import ItemValues, item_values
from daishi_forensics.read.boundary import MatchRead, read_match
from daishi_forensics.read.sources import Limits, open_match

from ._halves import replay_in_halves
from .registry import Catalogue
from .timeline import Timeline

__all__ = ["MatchAnalysis", "analyze", "analyze_target", "paused_cycle_collection"]


@dataclass
class MatchAnalysis:
    """The result of one pass over a match."""

    read: MatchRead
    """The read boundary: source, header, stats and problems."""
    timeline: Timeline
    """Who stood where, alive or dormant, at every tick."""
    passes: dict[str, Any] = field(default_factory=dict)
    """Every pass by its name, after the replay."""

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

    def pass_named(self, name: str, cls: type) -> str | None:
        """The name of the pass that ran as ``name`` when it is a ``cls``, else of any pass of
        type ``cls`` (first by name); None if none ran."""
        if isinstance(self.passes.get(name), cls):
            return name
        for other, instance in sorted(self.passes.items()):
            if isinstance(instance, cls):
                return other
        return None

    def result_of(self, name: str, cls: type) -> Any | None:
        """The result of :meth:`pass_named`'s pass; None if no such pass ran."""
        found = self.pass_named(name, cls)
        return None if found is None else self.result(found)

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


def analyze(read: MatchRead, catalogue: Catalogue, *, only: Iterable[str] | None = None,
            aside: Collection[str] = ()) -> MatchAnalysis:
    """Run every pass of ``catalogue`` (or those named in ``only``) in one replay; those named in
    ``aside`` may be replayed by a second process (see the module docs), with the same result."""
    archive = read.archive
    instances = catalogue.build(archive, only)
    with paused_cycle_collection():
        timeline = replay_in_halves(read, instances, aside)
    return MatchAnalysis(read=read, timeline=timeline, passes=instances)


def analyze_target(
    target: str,
    catalogue: Catalogue,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
    only: Iterable[str] | None = None,
    aside: Collection[str] = (),
) -> MatchAnalysis:
    """Open, read and analyse one target (see :func:`daishi_forensics.read.sources.open_match`)."""
    source = open_match(target, store=store, server=server, limits=limits)
    return analyze(read_match(source), catalogue, only=only, aside=aside)
