"""The replay: one loop over a match's events feeding every analysis (*pass*), the live
:class:`World` the passes read, and the :class:`Timeline` it leaves behind.

Public face: :class:`Pass`, :class:`TickClosingPass`, :class:`CountingPass` (and its :data:`Tally`), :class:`World`, :class:`Timeline`,
:func:`replay`; :class:`PassSpec` / :class:`Catalogue` (passes as data) and
:func:`analyze` / :class:`MatchAnalysis` (a catalogue run over a read match); and the
plain columns a pass keeps its per-event state in (:func:`int_column`, :class:`Table`,
:class:`Rows`, :class:`ShapeTable`, :class:`RecordLog`, :func:`position`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._columns import RecordLog, Rows, ShapeTable, Table, code_column, int_column, position
from .driver import replay
from .registry import Catalogue, PassFactory, PassSpec, lazy
from .timeline import Timeline
from .world import CountingPass, Event, Pass, Tally, TickClosingPass, World

if TYPE_CHECKING:
    from .analysis import MatchAnalysis, analyze, analyze_target, paused_cycle_collection

_ANALYSIS = frozenset({"MatchAnalysis", "analyze", "analyze_target", "paused_cycle_collection"})


def __getattr__(name: str) -> Any:
    """The analysis names load the read layer (schemas, validators) only when first asked for,
    so a pass importing :class:`World` stays cheap."""
    if name in _ANALYSIS:
        from . import analysis

        return getattr(analysis, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Catalogue",
    "CountingPass",
    "Event",
    "MatchAnalysis",
    "Pass",
    "PassFactory",
    "PassSpec",
    "RecordLog",
    "Rows",
    "ShapeTable",
    "Table",
    "Tally",
    "TickClosingPass",
    "Timeline",
    "World",
    "analyze",
    "analyze_target",
    "code_column",
    "int_column",
    "lazy",
    "paused_cycle_collection",
    "position",
    "replay",
]
