"""Errors raised on bad input.

The tree, drawn once::

    ForensicsError                 every error the tool raises on bad input
    ├── InputUnreadable            exit 3: the input cannot be read at all
    │   ├── MatchNotFound          no such match in the store / on the server
    │   ├── InputTooLarge          a gzip member inflates past the limit, a line too long
    │   ├── ServerError            the server failed after bounded retries
    │   └── StudyUnreadable        exit 2 (``study audit`` only): a study's files or page
    │       │                      cannot be read, or are malformed (every problem listed)
    │       └── StudyNotPublished  the server answered 409: the study is still playing
    ├── InvalidInput               exit 1: the input was read but violates the contract
    │                              (raised only where an analysis cannot go on;
    │                              validation collects problems instead of raising)
    ├── BadSetting                 exit 2: an option, environment variable, configuration
    │                              key or address the user gave cannot be used
    ├── DuplicateMatch             exit 2: two targets of one command are the same match
    └── OutputError                exit 74: the output could not be written (the file
                                   that was there before is left untouched)

Every error names the file, and where there is one the event id, line and field.
"""

from __future__ import annotations

from dataclasses import dataclass

from daishi_forensics import exitcodes

__all__ = [
    "ForensicsError",
    "InputUnreadable",
    "MatchNotFound",
    "InputTooLarge",
    "ServerError",
    "InvalidInput",
    "StudyUnreadable",
    "StudyNotPublished",
    "BadSetting",
    "DuplicateMatch",
    "OutputError",
]


@dataclass
class ForensicsError(Exception):
    """Base of every error on bad input."""

    message: str
    file: str | None = None
    event_id: int | None = None
    line: int | None = None
    field: str | None = None

    exit_code = exitcodes.UNREADABLE

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(self.file)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.event_id is not None:
            where.append(f"event {self.event_id}")
        if self.field:
            where.append(f"field {self.field}")
        prefix = ": ".join([", ".join(where)]) + ": " if where else ""
        return prefix + self.message


class InputUnreadable(ForensicsError):
    """The input cannot be read at all (exit 3)."""


class MatchNotFound(InputUnreadable):
    """The match id is in neither the store nor on the server."""


class InputTooLarge(InputUnreadable):
    """A compressed input inflates past the size limit, or a line is too long."""


class ServerError(InputUnreadable):
    """The Daishi server answered an error, or did not answer, after bounded retries."""


class InvalidInput(ForensicsError):
    """The input was read but an analysis cannot proceed on it (exit 1)."""

    exit_code = exitcodes.FINDINGS


class StudyUnreadable(InputUnreadable):
    """A study's files or page cannot be read (``study audit`` exits 2, as the study recompute
    script does: seed 000, *Recomputing a study yourself*)."""

    exit_code = exitcodes.STUDY_UNREADABLE


class StudyNotPublished(StudyUnreadable):
    """The server answered 409: the study's files are not published yet; the message is the page's reason."""


class BadSetting(ForensicsError):
    """A setting the user gave cannot be used (exit 2): ``file`` names the option or variable."""

    exit_code = exitcodes.USAGE


class DuplicateMatch(ForensicsError):
    """Two targets of one command are the same match (exit 2): ``file`` names the second."""

    exit_code = exitcodes.USAGE


class OutputError(ForensicsError):
    """The output could not be written (exit 74); ``file`` names where it was going."""

    exit_code = exitcodes.OUTPUT
