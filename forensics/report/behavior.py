"""``behavior``: analyse one match and build its behavior report (plain function)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daishi_forensics import exitcodes
from daishi_forensics.replay.analysis import paused_cycle_collection
from daishi_forensics.report.passes import analyze
from daishi_forensics.read.boundary import MatchRead, read_match
from .assembly import behavior_report
from daishi_forensics.errors import InputUnreadable, InvalidInput
from daishi_forensics.read.sources import Limits, is_match_folder, matches_in, open_match
from daishi_forensics.wording import count

__all__ = ["BehaviorResult", "behavior", "baseline_from", "baseline_read_notes"]


@dataclass(frozen=True)
class BehaviorResult:
    """A behavior report and the exit code it implies."""

    report: dict[str, Any]
    """The report (``reportVersion`` 1)."""

    @property
    def exit_code(self) -> int:
        """1 (findings) when the report lists a finding (an archive figure the events contradict,
        an erratum in the archive, whether or not it withheld an event of this log, invalid or unknown records, a header
        that fails its schema, a read warning, a truncated log, an unreadable report...)
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
            analysis = analyze(read_match(source))
            if on_note is not None:
                for note in baseline_read_notes(analysis.read):
                    on_note(note)
            yield analysis

    return baseline_means(analyses())


def baseline_read_notes(read: MatchRead) -> list[str]:
    """What a baseline match's read found that bears on its harm rates, in the words of the target's
    ``invalid-events`` and ``truncated`` findings: records that failed validation (left out
    of the baseline as out of any analysis) and a log that ends before the match did (its rates are over what
    it holds).  A baseline match is no target: these are said, not reported.

    >>> from types import SimpleNamespace as S
    >>> read = S(source=S(name="ref/m_1.jsonl"), stats=S(invalid=2, truncated=("archive: 9 trades, log: 4",)))
    >>> for note in baseline_read_notes(read): print(note)
    ref/m_1.jsonl: 2 records failed validation and were left out of the baseline (run `daishi-forensics validate` for every problem)
    ref/m_1.jsonl: the log ends before the match did: archive: 9 trades, log: 4; its harm rates are over what it holds
    """
    name, stats = read.source.name, read.stats
    notes = []
    if stats.invalid:
        notes.append(f"{name}: {count(stats.invalid, 'record')} failed validation and "
                     f"{'was' if stats.invalid == 1 else 'were'} left out of the baseline "
                     "(run `daishi-forensics validate` for every problem)")
    if stats.truncated:
        notes.append(f"{name}: the log ends before the match did: {'; '.join(stats.truncated)}; its harm rates are "
                     "over what it holds")
    return notes


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
