"""``behavior``: analyse one match and build its behavior report (plain function)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import exitcodes
from .analysis import analyze
from .reading import read_match
from .report import behavior_report
from .sources import Limits, open_match

__all__ = ["BehaviorResult", "behavior"]


@dataclass(frozen=True)
class BehaviorResult:
    """A behavior report and the exit code it implies."""

    report: dict[str, Any]
    """The report (``reportVersion`` 1)."""

    @property
    def exit_code(self) -> int:
        """0, or 1 when the input held invalid records (the report is still complete for the rest)."""
        return exitcodes.FINDINGS if self.report["source"]["invalid"] else exitcodes.OK


def behavior(
    target: str,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
) -> BehaviorResult:
    """Open, read, analyse and report one match."""
    source = open_match(target, store=store, server=server, limits=limits)
    analysis = analyze(read_match(source))
    return BehaviorResult(behavior_report(analysis))
