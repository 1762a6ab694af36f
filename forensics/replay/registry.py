"""Passes as data: a :class:`PassSpec` names a pass and how to build it; a
:class:`Catalogue` is an ordered set of them.

The replay layer knows only the :class:`~daishi_forensics.replay.world.Pass` protocol.
Each analysis room (``economy``, ``injection``, ``probes``, ``profile``) publishes the
specs of its own passes; whoever runs an analysis picks a catalogue (the report takes
every room's; the score audit the economy's) and hands it to
:func:`~daishi_forensics.replay.analysis.analyze`.  So nothing here imports an
analysis, and a new pass is one line in its own room.

>>> from daishi_forensics.replay.registry import Catalogue, PassSpec
>>> class Count:
...     types = frozenset({"move"})
...     def __init__(self): self.n = 0
...     def observe(self, ev, world): self.n += 1
>>> moves = Catalogue((PassSpec("moves", lambda archive: Count()),))
>>> moves.names
('moves',)
>>> sorted(moves.build({}, None))
['moves']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .world import Pass

__all__ = ["Catalogue", "PassFactory", "PassSpec", "lazy"]

PassFactory = Callable[[Mapping[str, Any]], Pass]
"""Builds one pass instance for a match from its archive."""


@dataclass(frozen=True)
class PassSpec:
    """One pass an analysis can run."""

    name: str
    """The name its result is asked for by (``analysis.result(name)``)."""
    build: PassFactory
    """Builds the pass for a match, given its archive."""


def lazy(target: str, *, takes_archive: bool) -> PassFactory:
    """A factory for ``package.module:Class`` (or ``:Class.constructor``), imported only when a
    pass is built, so a command that runs a few passes never imports the others."""
    module_name, _, attribute = target.partition(":")

    def build(archive: Mapping[str, Any]) -> Pass:
        factory: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            factory = getattr(factory, part)
        return factory(archive) if takes_archive else factory()  # type: ignore[no-any-return]

    return build


@dataclass(frozen=True)
class Catalogue:
    """An ordered set of :class:`PassSpec` (passes run, and observe each event, in this order)."""

    specs: tuple[PassSpec, ...]

    def __post_init__(self) -> None:
        names = [spec.name for spec in self.specs]
        if len(set(names)) != len(names):
            raise ValueError(f"two passes share a name in {names}")

    @classmethod
    def of(cls, *groups: Iterable[PassSpec]) -> Catalogue:
        """The specs of several rooms, in the order given."""
        return cls(tuple(spec for group in groups for spec in group))

    @property
    def names(self) -> tuple[str, ...]:
        """The pass names, in run order."""
        return tuple(spec.name for spec in self.specs)

    def with_pass(self, spec: PassSpec) -> Catalogue:
        """This catalogue with one more pass (a plug-in analysis), run last."""
        return Catalogue((*self.specs, spec))

    def build(self, archive: Mapping[str, Any], only: Iterable[str] | None) -> dict[str, Pass]:
        """One instance of each pass (of those named in ``only``, when given) for a match, by name."""
        wanted = None if only is None else set(only)
        if wanted is not None and (unknown := wanted - set(self.names)):
            raise KeyError(f"no such pass: {', '.join(sorted(unknown))} (known: {', '.join(self.names)})")
        return {spec.name: spec.build(archive) for spec in self.specs if wanted is None or spec.name in wanted}
