"""daishi-forensics: read the event log of a Daishi match and say what really happened.

The package's face: a curated API, each name loaded when first used (so ``import
daishi_forensics`` stays cheap)::

    import daishi_forensics as df

    read = df.read_match(df.open_match("m_demo"))   # the read boundary: validated, upcast to v3
    analysis = df.analyze(read)                     # every pass over the events, in one replay
    ledger = analysis.result("ledger")              # any pass's result, by name
    report = df.behavior("m_demo").report           # the behavior report (what the CLI prints)

Rooms (each imports only the ones before it; docs/ARCHITECTURE.md): ``read``, ``replay``,
``economy``, ``injection``, ``probes``, ``profile``, ``score``, ``report``, ``batch``; beside
them ``screens`` (graph functions over any transfer graph) and ``simulate``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .lazy import attribute
from .version import __version__

if TYPE_CHECKING:
    from .errors import ForensicsError, InputTooLarge, InputUnreadable, InvalidInput, MatchNotFound, ServerError
    from .read.boundary import MatchRead, read_match
    from .read.sources import open_match
    from .replay.analysis import MatchAnalysis
    from .report.behavior import behavior
    from .report.passes import analyze
    from .report.screening import screen_match
    from .screens import screen_graph

_EXPORTS: dict[str, str] = {
    "open_match": "daishi_forensics.read.sources",
    "read_match": "daishi_forensics.read.boundary",
    "MatchRead": "daishi_forensics.read.boundary",
    "analyze": "daishi_forensics.report.passes",
    "MatchAnalysis": "daishi_forensics.replay.analysis",
    "behavior": "daishi_forensics.report.behavior",
    "screen_match": "daishi_forensics.report.screening",
    "screen_graph": "daishi_forensics.screens",
    "ForensicsError": "daishi_forensics.errors",
    "InputUnreadable": "daishi_forensics.errors",
    "MatchNotFound": "daishi_forensics.errors",
    "InputTooLarge": "daishi_forensics.errors",
    "ServerError": "daishi_forensics.errors",
    "InvalidInput": "daishi_forensics.errors",
}

__all__ = [
    "__version__", "open_match", "read_match", "MatchRead", "analyze", "MatchAnalysis", "behavior", "screen_match",
    "screen_graph", "ForensicsError", "InputUnreadable", "MatchNotFound", "InputTooLarge", "ServerError",
    "InvalidInput",
]  # the names of _EXPORTS, spelled out for linters and type checkers (a test keeps the two equal)


def __getattr__(name: str) -> Any:
    return attribute(globals(), _EXPORTS, name)


def __dir__() -> list[str]:
    return sorted(__all__)
