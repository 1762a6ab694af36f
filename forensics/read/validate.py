"""``validate``: check every event and the header of one or more matches.

Parse options, then build, then run: the CLI fills :func:`validate_targets`'s
arguments and prints the :class:`ValidationResult` with a reporter chosen by name.
Validation collects every problem per file and per event; only unreadable input
stops a file early (and the other files are still checked).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from daishi_forensics import exitcodes
from daishi_forensics.errors import BadSetting, ForensicsError
from .boundary import read_match
from .sources import Limits, open_match
from .validation import Problem

__all__ = ["FileResult", "ValidationResult", "validate_targets", "expand_targets"]


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
    problems_not_kept: int = 0
    unreadable: str | None = None
    """The one-line reason the input could not be read at all."""

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error") + self.problems_not_kept

    @property
    def valid(self) -> bool:
        return self.unreadable is None and self.errors == 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "form": self.form,
            "matchId": self.match_id,
            "valid": self.valid,
            "unreadable": self.unreadable,
            "stats": self.stats,
            "problems": [p.as_dict() for p in self.problems],
            "problemsNotKept": self.problems_not_kept,
        }


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


def _looks_like_match(path: Path) -> bool:
    name = path.name
    if path.is_dir():
        return (path / "archive.json").is_file()
    return name.endswith((".json", ".json.gz", ".jsonl", ".jsonl.gz"))


def expand_targets(targets: Iterable[str]) -> list[str]:
    """A folder that is not itself a match (no ``archive.json``) stands for the matches in it."""
    expanded: list[str] = []
    for target in targets:
        path = Path(target)
        if path.is_dir() and not (path / "archive.json").is_file():
            inside = sorted(str(p) for p in path.iterdir() if p.name.startswith("m_") and _looks_like_match(p))
            if inside:
                expanded.extend(inside)
                continue
        expanded.append(target)
    return expanded


def validate_one(
    target: str,
    *,
    store: Path | None = None,
    server: str | None = None,
    strict: bool = False,
    limits: Limits | None = None,
) -> FileResult:
    """Validate one match: its header, then every event (streamed)."""
    try:
        source = open_match(target, store=store, server=server, limits=limits)
        read = read_match(source, strict=strict)
        header = read.header_problems()
        for _ in read.events():
            pass
    except BadSetting:
        raise  # the command line's fault, not this target's
    except ForensicsError as exc:
        return FileResult(target=target, unreadable=str(exc))
    said = [Problem(source.name, note, severity="warning", code="header") for note in source.notes]
    if source.report_error is not None:
        said.append(Problem(source.name, f"the match's report could not be read: {source.report_error}",
                            severity="warning", code="report"))
    problems = tuple(said) + tuple(header) + tuple(read.stats.problems)
    return FileResult(
        target=source.name,
        form=source.form,
        match_id=read.match_id,
        stats=read.stats.as_dict(),
        problems=problems,
        problems_not_kept=read.stats.problems_not_kept,
    )


def validate_targets(
    targets: Iterable[str],
    *,
    store: Path | None = None,
    server: str | None = None,
    strict: bool = False,
    limits: Limits | None = None,
) -> ValidationResult:
    """Validate every target (files, folders, ``m_<id>``, ``m_demo``)."""
    return ValidationResult(
        tuple(
            validate_one(t, store=store, server=server, strict=strict, limits=limits)
            for t in expand_targets(targets)
        )
    )
