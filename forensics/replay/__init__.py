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

from daishi_forensics.lazy import attribute

if TYPE_CHECKING:
    from ._columns import RecordLog, Rows, ShapeTable, Table, code_column, int_column, position
    from .analysis import MatchAnalysis, analyze, analyze_target, paused_cycle_collection
    from .driver import replay
    from .registry import Catalogue, PassFactory, PassSpec, lazy
    from .timeline import Timeline
    from .world import CountingPass, Event, Pass, Tally, TickClosingPass, World

_EXPORTS: dict[str, str] = {
    **dict.fromkeys(("RecordLog", "Rows", "ShapeTable", "Table", "code_column", "int_column", "position"), "._columns"),
    **dict.fromkeys(("MatchAnalysis", "analyze", "analyze_target", "paused_cycle_collection"), ".analysis"),
    "replay": ".driver",
    **dict.fromkeys(("Catalogue", "PassFactory", "PassSpec", "lazy"), ".registry"),
    "Timeline": ".timeline",
    **dict.fromkeys(("CountingPass", "Event", "Pass", "Tally", "TickClosingPass", "World"), ".world"),
}
"""Each public name → the module of this package that defines it, imported when the name is first
asked for: the analysis names load the read layer (schemas, validators), and a module of the
package imported alone (``replay.fork`` for the command line's progress line) loads no other."""


def __getattr__(name: str) -> Any:
    return attribute(globals(), _EXPORTS, name)


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


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
