"""``behavior``: analyse one match and build its behavior report (plain function)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daishi_forensics import exitcodes
from daishi_forensics.replay.analysis import paused_cycle_collection
from daishi_forensics.report.passes import analyze
from daishi_forensics.read.boundary import read_match
from .assembly import behavior_report
from daishi_forensics.errors import InputUnreadable, InvalidInput
from daishi_forensics.read.sources import Limits, is_match_folder, matches_in, open_match

__all__ = ["BehaviorResult", "behavior", "baseline_from"]


@dataclass(frozen=True)
class BehaviorResult:
    """A behavior report and the exit code it implies."""

    report: dict[str, Any]
    """The report (``reportVersion`` 1)."""

    @property
    def exit_code(self) -> int:
        """1 (findings) when the report lists a finding (an archive figure the events contradict,
        an erratum in the archive, whether or not it withheld an event of this log, invalid or unknown records, a truncated log, an unreadable report...)
        or the screens' verdict is review or flag; else 0.  The report is complete either way."""
        screens = self.report.get("screens") or {}
        found = bool(self.report["findings"]) or screens.get("verdict", "clear") != "clear"
        return exitcodes.FINDINGS if found else exitcodes.OK


def baseline_from(directory: Path, *, limits: Limits | None = None,
                  on_note: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Harm baseline means over every match in ``directory`` (reference bots on the same seeds), or over the
    one match ``directory`` is (a match folder).  Which it is, and which of its entries are matches, is every
    command's rule (:func:`~daishi_forensics.read.sources.is_match_folder`,
    :func:`~daishi_forensics.read.sources.matches_in`).  ``on_note`` is handed each note of a baseline match's
    read (:attr:`~daishi_forensics.read.sources.MatchSource.notes`: a byte-order mark read past, a file named
    for another match), once, as that match is read."""
    from daishi_forensics.profile.harm import baseline_means

    if is_match_folder(directory):
        targets = [directory]
    else:
        targets = matches_in(directory) if directory.is_dir() else []
    if not targets:
        raise InputUnreadable("no matches in the baseline folder", file=str(directory))

    def analyses() -> Iterator[Any]:
        for target in targets:
            source = open_match(str(target), limits=limits)
            if on_note is not None:
                for note in source.notes:
                    on_note(note)
            yield analyze(read_match(source))

    return baseline_means(analyses())


def behavior(
    target: str,
    *,
    store: Path | None = None,
    server: str | None = None,
    limits: Limits | None = None,
    baseline: dict[str, Any] | None = None,
    agent: str | None = None,
    all_pairs: bool = False,
) -> BehaviorResult:
    """Open, read, analyse and report one match (``agent``: the seat to put in focus, by id or name;
    ``all_pairs``: every contact pair listed)."""
    source = open_match(target, store=store, server=server, limits=limits)
    try:
        analysis = analyze(read_match(source), early=True)
        with paused_cycle_collection():
            return BehaviorResult(behavior_report(analysis, baseline=baseline, agent=agent, all_pairs=all_pairs))
    except InvalidInput as exc:  # an archive field the report cannot go on without: name the file too
        if exc.file is None:
            exc.file = source.name
        raise
