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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from daishi_forensics.errors import InvalidInput
from daishi_forensics.read.archive import ItemValues, bounded_ticks, distinct_agents, item_values
from daishi_forensics.read.boundary import MatchRead, read_match
from daishi_forensics.read.sources import Limits, MatchSource, open_match

from ._halves import Aside, _worth_splitting, replay_in_halves
from .registry import Catalogue
from .timeline import Timeline

__all__ = ["Early", "MatchAnalysis", "Warm", "analyze", "analyze_target", "paused_cycle_collection", "two_processes"]


def two_processes(source: MatchSource) -> bool:
    """Whether :func:`analyze` would replay ``source`` on two processes (a large enough file and a second
    CPU allowed); a caller keeps the second CPU free for it then."""
    return _worth_splitting(source)


@dataclass
class MatchAnalysis:
    """The result of one pass over a match."""

    read: MatchRead
    """The read boundary: source, header, stats and problems."""
    timeline: Timeline
    """Who stood where, alive or dormant, at every tick."""
    passes: dict[str, Any] = field(default_factory=dict)
    """Every pass by its name, after the replay."""
    early: dict[Any, Any] = field(default_factory=dict)
    """What the caller's ``early`` work (:func:`analyze`) made or started while a second process
    finished the replay, by the caller's keys."""

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


Warm = Callable[[dict[str, Any], Mapping[str, Any]], None]
"""Results computed ahead from some finished passes and the archive, kept by the passes themselves
(a memo): ``warm(passes, archive)``, which must compute only what the same call would compute
later from the same passes, and check that every pass its result reads is among them."""


Early = Callable[["MatchAnalysis"], dict[Any, Any]]
"""Work on an analysis holding only the passes this process replayed (finished), its timeline and
its read (done), while a second process replays the others: what it returns becomes
:attr:`MatchAnalysis.early`.  It must read no pass it was not given (nor take a missing one for a
pass that did not run).  The results it asks of its passes (:meth:`MatchAnalysis.result`, each a
function of a finished pass and the archive alone) are kept for the analysis :func:`analyze` returns,
which holds the very same passes: asked again, they are not computed again."""


def analyze(read: MatchRead, catalogue: Catalogue, *, only: Iterable[str] | None = None,
            aside: Aside = (), warm: Warm | None = None, early: Early | None = None) -> MatchAnalysis:
    """Run every pass of ``catalogue`` (or those named in ``only``) in one replay; those named in
    ``aside`` (or named by it for the source, :data:`~._halves.Aside`) may be replayed by a second process
    (see the module docs), with the same result.
    That process then runs ``warm`` on its passes (:data:`Warm`) while this one finishes its own
    replay; otherwise nothing runs it (what it computes is computed when asked for).  If this
    process is done with its passes while the other still works, it runs ``early`` (:data:`Early`)
    meanwhile."""
    archive = read.archive
    try:
        bounded_ticks(archive)  # a match round past 2^53 - 1 cannot be counted exactly in any pass
        distinct_agents(archive)  # an agent listed twice would show as one agent's figures on two rows
    except InvalidInput as exc:
        exc.file = read.source.name
        raise
    instances = catalogue.build(archive, only)
    ahead = None if warm is None else lambda passes, _timeline: warm(passes, archive)
    made: dict[Any, Any] = {}
    results: dict[str, Any] = {}  # what ``early`` asks of its finished passes, kept for the whole analysis

    def meanwhile(timeline: Timeline, names: frozenset[str]) -> None:
        if early is not None:
            mine = {name: p for name, p in instances.items() if name in names}
            made.update(early(MatchAnalysis(read=read, timeline=timeline, passes=mine, _results=results)))

    with paused_cycle_collection():
        try:
            timeline = replay_in_halves(read, instances, aside, ahead=ahead,
                                        meanwhile=None if early is None else meanwhile)
        except BaseException:
            for started in made.values():  # work started early, now of no use
                cancel = getattr(started, "cancel", None)
                if callable(cancel):
                    cancel()
            raise
    return MatchAnalysis(read=read, timeline=timeline, passes=instances, early=made, _results=results)


def analyze_target(
    target: str,
    catalogue: Catalogue,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
    only: Iterable[str] | None = None,
    aside: Aside = (),
    warm: Warm | None = None,
) -> MatchAnalysis:
    """Open, read and analyse one target (see :func:`daishi_forensics.read.sources.open_match`)."""
    source = open_match(target, store=store, server=server, limits=limits)
    return analyze(read_match(source), catalogue, only=only, aside=aside, warm=warm)
