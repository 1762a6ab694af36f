"""``validate``: check every event and the header of one or more matches.

Parse options, then build, then run: the CLI fills :func:`validate_targets`'s
arguments and prints the :class:`ValidationResult` with a reporter chosen by name.
Validation collects every problem per file and per event; only unreadable input
stops a file early (and the other files are still checked).
"""

from __future__ import annotations

import dataclasses
import os
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Iterator

from daishi_forensics import exitcodes
from daishi_forensics.errors import BadSetting, ForensicsError, InvalidInput
from daishi_forensics.jsonio import shown
from .boundary import MatchRead, ReadStats
from .sources import (STDIN, STDIN_NAME, Limits, MatchSource, RawRecord, is_match_folder, matches_in, misnamed_note,
                      open_match, open_stdin)
from .validation import Problem

__all__ = ["FileResult", "ValidationResult", "validate_targets", "expand_targets", "MAX_ERRORS"]


@dataclass(frozen=True)
class FileResult:
    """The validation of one match."""

    target: str
    """The target as given (or the file found for it)."""
    form: str | None = None
    """``bundle``, ``stream``, ``folder``, ``server`` or ``demo``; None when unreadable."""
    match_id: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    """:meth:`ReadStats.as_dict` of the read."""
    problems: tuple[Problem, ...] = ()
    """The problems listed: the first ``max_errors`` of each kind (code)."""
    problems_not_kept: int = 0
    """Problems found beyond those listed."""
    problem_counts: dict[str, int] = field(default_factory=dict)
    """Every problem found, by kind (code), listed or not."""
    error_count: int = 0
    """Every error found (listed or not); the match is valid when there is none."""
    warning_count: int = 0
    """Every warning found (listed or not)."""
    unreadable: str | None = None
    """The one-line reason the input could not be read at all."""
    unreadable_file: str | None = None
    """The file that reason is about, when it names one that exists (not a server's address, a match
    id or a missing path); its line in ``unreadable_line``.  For annotations; the JSON keeps the reason
    alone."""
    unreadable_line: int | None = None
    stdin: bool = False
    """Read from standard input (the target :data:`~daishi_forensics.read.sources.STDIN`), which is no file a
    CI annotation could name, whatever its name (a file may be named ``<stdin>`` too).  Not in the JSON."""

    @property
    def errors(self) -> int:
        return self.error_count

    @property
    def valid(self) -> bool:
        return self.unreadable is None and self.errors == 0

    def as_dict(self) -> dict[str, Any]:
        """The result as JSON; ``problemCounts`` (every problem by kind, listed or not) only when
        there is a problem to count, so a clean match's document is as it always was."""
        out = {
            "target": self.target,
            "form": self.form,
            "matchId": self.match_id,
            "valid": self.valid,
            "unreadable": self.unreadable,
            "stats": self.stats,
            "problems": [p.as_dict() for p in self.problems],
            "problemsNotKept": self.problems_not_kept,
        }
        if self.problem_counts:
            out["problemCounts"] = dict(sorted(self.problem_counts.items()))
        return out


@dataclass(frozen=True)
class ValidationResult:
    """The validation of every target."""

    files: tuple[FileResult, ...]

    @property
    def exit_code(self) -> int:
        if any(f.unreadable for f in self.files):
            return exitcodes.UNREADABLE
        if any(not f.valid for f in self.files):
            return exitcodes.FINDINGS
        return exitcodes.OK

    def as_dict(self) -> dict[str, Any]:
        return {
            "validateVersion": 1,
            "valid": self.exit_code == exitcodes.OK,
            "exitCode": self.exit_code,
            "files": [f.as_dict() for f in self.files],
        }


def expand_targets(targets: Iterable[str]) -> list[str]:
    """A folder that is not itself a match (no ``archive.json``) stands for the matches in it
    (:func:`~daishi_forensics.read.sources.matches_in`: an ``m_…`` folder without ``archive.json`` is none);
    a folder holding none stays as given, so that reading it says so."""
    expanded: list[str] = []
    for target in targets:
        path = Path(target)
        if path.is_dir() and not is_match_folder(path):
            inside = [str(p) for p in matches_in(path)]
            if inside:
                expanded.extend(inside)
                continue
        expanded.append(target)
    return expanded


MAX_ERRORS = 50
"""Problems listed per kind by default (the rest are counted)."""


def validate_one(
    target: str,
    *,
    store: Path | None = None,
    server: str | None = None,
    strict: bool = False,
    limits: Limits | None = None,
    max_errors: int = MAX_ERRORS,
) -> FileResult:
    """Validate one match: its header, then every event (streamed); list at most ``max_errors``
    problems of each kind and count the rest."""
    source: MatchSource | None = None
    try:
        if target == STDIN:
            source = open_stdin(limits)
        else:
            source = open_match(target, store=store, server=server, limits=limits)
        positions = _TradePositions()
        read = MatchRead(positions.watching(source), strict=strict, max_per_kind=max_errors)  # header_problems: every problem
        header = read.header_problems()
        unoffered = list(_trades_never_offered(read.events(), source.name, positions))
    except BadSetting:
        raise  # the command line's fault, not this target's
    except InvalidInput as exc:
        if source is not None:  # read, but its archive is one no reading can go on with: invalid, not unreadable
            return _invalid_archive(source, exc, stdin=target == STDIN)
        raise
    except ForensicsError as exc:
        if target == STDIN:
            return FileResult(target=STDIN_NAME, unreadable=str(exc), stdin=True)
        about = exc.file if exc.file and "://" not in exc.file and os.path.lexists(exc.file) else None
        return FileResult(target=target, unreadable=str(exc), unreadable_file=about,
                          unreadable_line=exc.line if about is not None else None)
    misnamed = misnamed_note(source)  # said as the warning of its own code, not as a note too
    said = [_noted(source, note) for note in source.notes if note != misnamed] + _misnamed(source)
    if source.report_error is not None:
        said.append(Problem(source.name, f"the match's report could not be read: {source.report_error}",
                            severity="warning", code="report"))
    header = [*said, *header]
    stats = read.stats
    for problem in unoffered:  # counted and listed as the read counts its own (at most max_errors a kind)
        read._problem(problem)
    if source.form == "folder":
        header = [_in_folder(source, p) for p in header]
        stats.problems = [_in_folder(source, p) for p in stats.problems]
    counts = dict(stats.problem_counts)
    for problem in header:
        counts[problem.code] = counts.get(problem.code, 0) + 1
    return FileResult(
        target=source.name,
        stdin=target == STDIN,
        form=source.form,
        match_id=read.match_id,
        stats=stats.as_dict(),
        problems=tuple(header) + tuple(stats.problems),
        problems_not_kept=stats.problems_not_kept,
        problem_counts=counts,
        error_count=stats.errors + sum(1 for p in header if p.severity == "error"),
        warning_count=stats.warnings + sum(1 for p in header if p.severity != "error"),
    )


def _invalid_archive(source: MatchSource, exc: InvalidInput, *, stdin: bool) -> FileResult:
    """The result of a match whose archive the read stops at (its ``agents`` or ``errata`` no list): the file
    was read, and the archive is invalid, so it is one error of code ``archive`` naming the field (exit 1, as
    ``behavior``, ``screen`` and ``score`` exit on it), not an unreadable input (exit 3); no event is read."""
    problem = Problem(exc.file or source.name, exc.message, code="archive",
                      path=f"$.archive.{exc.field}" if exc.field else "$.archive")
    if source.form == "folder":  # named as the folder's other archive problems are: its archive.json
        problem = _in_folder(source, problem)
    return FileResult(target=source.name, stdin=stdin, form=source.form, match_id=source.match_id,
                      stats=ReadStats(errors=1).as_dict(),
                      problems=(problem,), problem_counts={"archive": 1}, error_count=1)


_AFTER_OFFER = frozenset({"trade_completed", "trade_fulfilled", "trade_cancelled"})
"""The events that need an earlier offer of their trade (the input format's event table): a direct trade
completed, a market order filled, an offer cancelled."""


_POSITIONS_KEPT = 65_536
"""Trade records whose position :class:`_TradePositions` keeps while the read has not yet handed them
on (a v1 season is handed on at its end): past that, the oldest one's warning names no line."""


class _TradePositions:
    """Where each completion, fill and cancellation (:data:`_AFTER_OFFER`) was read (its line, or its
    place in the log), for the ``trade-offer`` warning, whose events come out of the read boundary
    (upcast, in the v3 shape) without it.  Those passed on are forgotten, so what is kept stays small."""

    def __init__(self) -> None:
        self._read: deque[tuple[Any, str, int, int | None]] = deque(maxlen=_POSITIONS_KEPT)

    def watching(self, source: MatchSource) -> MatchSource:
        """``source`` whose records note the position of each trade record as they pass."""
        records = source.records
        read = self._read.append

        def noting() -> Iterator[RawRecord]:
            for record in records():
                data = record[2]
                if type(data) is dict:
                    kind = data.get("type")
                    if type(kind) is str and kind in _AFTER_OFFER:  # a type may be anything: [...] is unhashable
                        read((data.get("id"), kind, record[0], record[1]))
                yield record

        return dataclasses.replace(source, _records=noting)

    def passed(self, event_id: Any, kind: str) -> tuple[int | None, int | None]:
        """The ``(index, line)`` of the record the read handed on as this event, forgetting it and every
        trade record before it; ``(None, None)`` when none is known (an upcast's second event: its
        record's first was given)."""
        read = self._read
        for n, (read_id, read_kind, index, line) in enumerate(read):
            if read_kind == kind and read_id == event_id and type(read_id) is not bool:
                for _ in range(n + 1):
                    read.popleft()
                return index, line
        return None, None


def _trades_never_offered(events: Iterable[dict[str, Any]], name: str,
                          positions: _TradePositions | None = None) -> Iterator[Problem]:
    """Consume the match's events; a warning (``trade-offer``) at the first completion, fill or
    cancellation of each ``tradeId`` that no ``trade_offered`` earlier in the log offers (an offer withheld by an erratum
    or left out as invalid offers nothing).  A trade's other party's event (v3; the upcast offerer's
    twin of a v2 trade) is not said again."""
    offered: set[tuple[bool, Any]] = set()
    said: set[tuple[bool, Any]] = set()
    for event in events:
        kind = event.get("type")
        if kind != "trade_offered" and kind not in _AFTER_OFFER:
            continue
        payload = event.get("payload")
        trade_id = payload.get("tradeId") if isinstance(payload, dict) else None
        if not isinstance(trade_id, (str, int)) or isinstance(trade_id, bool):
            continue  # the schema says so
        key = (isinstance(trade_id, str), trade_id)  # trade "7" is not trade 7
        if kind == "trade_offered":
            offered.add(key)
            continue
        index, line = positions.passed(event.get("id"), kind) if positions is not None else (None, None)
        if key not in offered and key not in said:
            said.add(key)
            yield Problem(name, f"{kind} of trade {shown(trade_id)}, which no trade_offered earlier in the log "
                                "offers", severity="warning", code="trade-offer", event_id=event.get("id"),
                          line=line, index=index, path="$.payload.tradeId", event_type=kind)


def _noted(source: MatchSource, note: str) -> Problem:
    """A note of the reading (a byte-order mark read past) as a warning, naming the file it is about."""
    file, _, said = note.partition(": ")
    if said and (Path(file) == Path(source.name) or source.form == "folder" and Path(file).parent == Path(source.name)):
        return Problem(file, said, severity="warning", code="header")  # the file named once, as the problem's
    return Problem(source.name, note, severity="warning", code="header")


def _misnamed(source: MatchSource) -> list[Problem]:
    """A warning (``match-id``) when a match file or folder given by its path is named for one match and its
    header names another (:func:`~daishi_forensics.read.sources.misnamed_note`): misnamed, or overwritten by a
    copy of another match.  The match is validated as the one its header names.  The read's note saying the
    same, which every other command says, is not said too."""
    said = misnamed_note(source, taken="validated")
    if said is None:
        return []
    return [Problem(source.name, said, severity="warning", code="match-id", path="$.matchId")]


_FOLDER_FILES = (("archive", "archive.json"), ("report", "report.json"))
"""Header members of a folder match and the file each is read from."""


def _in_folder(source: MatchSource, problem: Problem) -> Problem:
    """A folder match's problem naming the file in it that holds what it is about (``events.jsonl``,
    ``archive.json``, ``report.json``) rather than the folder, its path from that file's root: a
    CI annotation then points at a file."""
    if problem.file != source.name:
        return problem
    folder = Path(source.name)
    if problem.line is not None or problem.index is not None or problem.code in ("truncated", "trade-offer"):
        events = source.file_records.path if source.file_records is not None else str(folder / "events.jsonl")
        return replace(problem, file=events)
    for member, file in _FOLDER_FILES:
        if problem.code == member or problem.path == f"$.{member}" or problem.path.startswith(f"$.{member}."):
            path = problem.path
            if path == f"$.{member}" or path.startswith((f"$.{member}.", f"$.{member}[")):
                path = "$" + path[len(member) + 2:]
            return replace(problem, file=str(folder / file), path=path)
    if problem.code == "repeated-key":
        for _, file in _FOLDER_FILES:
            if f"'{file}: " in problem.message:
                return replace(problem, file=str(folder / file), message=problem.message.replace(f"'{file}: ", "'", 1))
    return problem


def validate_targets(
    targets: Iterable[str],
    *,
    store: Path | None = None,
    server: str | None = None,
    strict: bool = False,
    limits: Limits | None = None,
    max_errors: int = MAX_ERRORS,
) -> ValidationResult:
    """Validate every target (files, folders, ``m_<id>``, ``m_demo``, ``-``: one match read from standard
    input, named ``<stdin>``); a target named twice (or a file
    given beside the folder that holds it) is validated once, so the counts count each file once."""
    return ValidationResult(
        tuple(
            validate_one(t, store=store, server=server, strict=strict, limits=limits, max_errors=max_errors)
            for t in dict.fromkeys(expand_targets(targets))
        )
    )
