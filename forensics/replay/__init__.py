"""The replay: one loop over a match's events feeding every analysis (*pass*), the live
:class:`World` the passes read, and the :class:`Timeline` it leaves behind.

Public face: :class:`Pass`, :class:`TickClosingPass`, :class:`World`, :class:`Timeline`,
:func:`replay`; :class:`PassSpec` / :class:`Catalogue` (passes as data) and
:func:`analyze` / :class:`MatchAnalysis` (a catalogue run over a read match); and the
compact columns a pass keeps its per-event state in (:class:`Table`, :class:`Rows`, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._columns import RecordLog, Rows, Table, position, push, widened
from ._compact import IntColumn, ShapeTable, TradeIdSet, TradeIndex, append_code
from .driver import replay
from .registry import Catalogue, PassFactory, PassSpec, lazy
from .timeline import Timeline
from .world import Event, Pass, TickClosingPass, World

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
    "Event",
    "IntColumn",
    "MatchAnalysis",
    "Pass",
    "PassFactory",
    "PassSpec",
    "RecordLog",
    "Rows",
    "ShapeTable",
    "Table",
    "TickClosingPass",
    "Timeline",
    "TradeIdSet",
    "TradeIndex",
    "World",
    "analyze",
    "analyze_target",
    "append_code",
    "lazy",
    "paused_cycle_collection",
    "position",
    "push",
    "replay",
    "widened",
]
