"""The study's two files, ``trials.csv`` and ``seats.csv``, read strictly.

Seed 000, *Recomputing a study yourself*, *The files*, names what each row holds;
:data:`TRIAL_COLUMNS` and :data:`SEAT_COLUMNS` give it a column each, in the order
the seed names them (reading ``file-columns``).  Reading is strict: the header must
be exactly those columns in that order, every row must have as many fields, and
every field must parse as its column's type.  An empty field means "none", never
zero.  Every problem of a file is collected and they are raised together as one
:class:`~daishi_forensics.errors.StudyUnreadable` naming the file, the row and the
column; a file that does not read is a study that cannot be read (exit 2).

Whether the rows agree with each other, with the other file and with the page is
not this module's business: :mod:`.checks` says so, row by row.

Rows are numbered as a spreadsheet numbers them: the header is row 1, the first
record row 2 (reading ``row-numbers``).

>>> files = read_files(_TRIALS_EXAMPLE, _SEATS_EXAMPLE)
>>> files.trials[0].value.value, files.trials[0].value.places, files.trials[0].no_value, files.seats[0].spend
(61.5, 1, None, None)
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from daishi_forensics.errors import StudyUnreadable
from daishi_forensics.wording import count

__all__ = [
    "NO_VALUE_REASONS",
    "PAIR_OUT_REASONS",
    "NOT_WHOLE_REASONS",
    "TRIAL_COLUMNS",
    "SEAT_COLUMNS",
    "METER_COLUMNS",
    "EVENT_COLUMNS",
    "BEHAVIOR_COLUMNS",
    "DIMENSION_COLUMNS",
    "GUEST",
    "Number",
    "TrialRow",
    "SeatRow",
    "StudyFiles",
    "read_trials",
    "read_seats",
    "read_files",
    "units",
]

NO_VALUE_REASONS = ("failed", "cancelled", "seat_failed", "stopped_short", "resumed", "version", "unscored",
                    "unmeasured")
"""Why a trial has no value (the ``no_value`` column), in the seed's order."""
PAIR_OUT_REASONS = (*NO_VALUE_REASONS, "no_trial", "other_seeds")
"""Why an arm kept a pair out (``pair_out`` as ``arm:reason``): a ``no_value`` reason, ``no_trial``
(that arm's trial never played) or ``other_seeds`` (it played other seeds than the rest of its pair)."""
NOT_WHOLE_REASONS = frozenset(NO_VALUE_REASONS) - {"unmeasured"}
"""The ``no_value`` reasons of a trial that did not play whole under the study's version tuple and get
scored (``unmeasured`` is a scored trial whose metric was not measured; reading ``whole-trial``)."""
GUEST = "guest"
"""The ``model`` of a guest seat."""

# --------------------------------------------------------------------------- column types

_INT = re.compile(r"-?(0|[1-9][0-9]*)\Z")
_DECIMAL = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?\Z")
_YES_NO = {"yes": True, "no": False}


@dataclass(frozen=True)
class Number:
    """A decimal field as written: its double and its places (``61.50`` -> ``61.5``, 2 places)."""

    value: float
    places: int
    text: str


def _int(text: str) -> int:
    """A whole number in ASCII digits, an optional ``-`` before them (no other script's digits, no ``²``,
    no ``+``, ``_`` or spaces)."""
    if not _INT.match(text):
        raise ValueError(f"{_shown(text)} is not a whole number")
    try:
        return int(text)
    except ValueError:  # more digits than int() converts (about 4,300): its words named a Python setting
        raise ValueError(f"{_shown(text)} is too large to read: {len(text.lstrip('-')):,} digits") from None


def _count(text: str) -> int:
    number = _int(text)
    if number < 0:
        raise ValueError(f"{_shown(text)} is a count and cannot be negative")
    return number


def _positive(text: str) -> int:
    number = _int(text)
    if number < 1:
        raise ValueError(f"{_shown(text)} counts from 1")
    return number


WHOLE_DIGITS = 15
"""The most digits a decimal field has before its point: a double holds such a value to a thousandth or
finer, and its squares (the intervals need them) stay finite; a longer one is a field that does not read."""


def _decimal(text: str) -> Number:
    match = _DECIMAL.match(text)
    if not match:
        raise ValueError(f"{_shown(text)} is not a decimal number (digits, one point, no exponent)")
    fraction = match.group(2)
    if len(match.group(1)) > WHOLE_DIGITS:
        raise ValueError(f"{_shown(text)} is too large to read: more than {WHOLE_DIGITS} digits before the point")
    return Number(float(text), len(fraction) - 1 if fraction else 0, text)


def _shown(text: str, width: int = 24) -> str:
    """A field for a message: quoted whole, or, past ``width`` characters, its start and its length.

    >>> _shown("61.5"), _shown("1" + "0" * 400)
    ("'61.5'", "'100000000000000000000000…' (401 characters)")
    """
    return repr(text) if len(text) <= width else f"{text[:width]!r}"[:-1] + f"…' ({len(text)} characters)"


NAMES_LISTED = 25
"""Column names a header message lists (the rest are counted), as a file's field problems are."""


def _names(names: Sequence[str]) -> str:
    """Column names of a header for a message: each once, as it stands, or, past 24 characters, as a field is
    shown (:func:`_shown`: its start and its length), with how many times the header has it when more than
    once; the first :data:`NAMES_LISTED`, the rest counted.

    >>> _names(["whole", "x" * 30])
    "whole, 'xxxxxxxxxxxxxxxxxxxxxxxx…' (30 characters)"
    >>> _names([f"c{i}" for i in range(27)])[-36:]
    'c20, c21, c22, c23, c24 (and 2 more)'
    >>> _names(["note"] * 300 + ["extra"])
    'note (300 times), extra'
    """
    times = Counter(names)
    distinct = list(times)  # in the header's order, each once
    listed = ", ".join((name if len(name) <= 24 else _shown(name)) + (f" ({times[name]:,} times)" if times[name] > 1
                                                                      else "") for name in distinct[:NAMES_LISTED])
    return listed + (f" (and {len(distinct) - NAMES_LISTED:,} more)" if len(distinct) > NAMES_LISTED else "")


def _level(text: str) -> Number:
    number = _decimal(text)
    if not 0 < number.value < 1:
        raise ValueError(f"{_shown(text)} is not a confidence level (between 0 and 1)")
    return number


def _yes_no(text: str) -> bool:
    if text not in _YES_NO:
        raise ValueError(f"{_shown(text)} is neither yes nor no")
    return _YES_NO[text]


def _choice(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"{_shown(text)} is not one of {', '.join(choices)}")
        return text

    return parse


def _text(text: str) -> str:
    return text


def _pair_out(text: str) -> tuple[tuple[int, str], ...]:
    entries: list[tuple[int, str]] = []
    for part in text.split(";"):
        arm, sep, reason = part.partition(":")
        if not sep or not _INT.match(arm) or int(arm) < 0:
            raise ValueError(f"{_shown(part)} is not arm:reason (entries separated by ';')")
        if reason not in PAIR_OUT_REASONS:
            raise ValueError(f"{_shown(reason)} is not a reason a pair is left out ({', '.join(PAIR_OUT_REASONS)})")
        entries.append((int(arm), reason))
    return tuple(entries)


@dataclass(frozen=True)
class Column:
    """One column: its name, how a field parses, and whether it may be empty."""

    name: str
    parse: Callable[[str], Any]
    optional: bool = True


def _columns(*specs: tuple[str, Callable[[str], Any], bool]) -> tuple[Column, ...]:
    return tuple(Column(name, parse, optional) for name, parse, optional in specs)


REQUIRED, OPTIONAL = False, True

TRIAL_COLUMNS: tuple[Column, ...] = _columns(
    ("study", _text, REQUIRED),
    ("trial", _positive, REQUIRED),
    ("arm", _count, REQUIRED),
    ("arm_label", _text, REQUIRED),
    ("match", _text, OPTIONAL),
    ("map_seed", _int, OPTIONAL),
    ("spawn_seed", _int, OPTIONAL),
    ("ended", _text, REQUIRED),
    ("rounds_played", _count, OPTIONAL),
    ("rounds_planned", _positive, OPTIONAL),
    ("resumed_at", _count, OPTIONAL),
    ("metric", _text, REQUIRED),
    ("value", _decimal, OPTIONAL),
    ("no_value", _choice(*NO_VALUE_REASONS), OPTIONAL),
    ("pair", _choice("in", "out"), OPTIONAL),
    ("pair_out", _pair_out, OPTIONAL),
    ("in_comparison", _yes_no, OPTIONAL),
    ("stopping_rule", _choice("fixed", "anytime"), OPTIONAL),
    ("comparison_level", _level, OPTIONAL),
    ("scored_on", _text, REQUIRED),
    ("scenario", _text, REQUIRED),
    ("scenario_hash", _text, REQUIRED),
    ("rubric", _text, REQUIRED),
    ("analysis", _text, REQUIRED),
    ("canary", _text, REQUIRED),
)
"""``trials.csv``: one row per published trial of each arm, in trial then arm order."""

DIMENSION_COLUMNS = ("survival", "economy", "social", "adaptation", "competitiveness")
"""The five dimensions, in the order the Fitness Index adds them."""
METER_COLUMNS = ("turns_played", "rounds_sat_out", "error_turns", "spend")
"""The meter the match's archive records for a seat; empty for a guest seat."""
EVENT_COLUMNS = ("rests", "looks", "moves", "gathers", "crafts", "builds", "repairs", "trains", "trades",
                 "attacks", "raids", "thefts", "deposits", "withdrawals", "messages", "dormancies", "recoveries")
"""The event counts the host stamped on the archive, rests first, dormancy episodes and recoveries last."""
BEHAVIOR_COLUMNS = ("aggression", "credited_trades", "commons_share")
"""The behavior figures (reading ``file-columns``); map coverage follows them."""

SEAT_COLUMNS: tuple[Column, ...] = _columns(
    ("study", _text, REQUIRED),
    ("trial", _positive, REQUIRED),
    ("arm", _count, REQUIRED),
    ("match", _text, REQUIRED),
    ("seat", _positive, REQUIRED),
    ("name", _text, OPTIONAL),
    ("model", _text, REQUIRED),
    ("harness", _text, OPTIONAL),
    ("focal", _yes_no, REQUIRED),
    ("whole_trial", _yes_no, REQUIRED),
    ("rubric", _text, OPTIONAL),
    ("scored_on", _text, OPTIONAL),
    ("fitness_index", _decimal, OPTIONAL),
    ("grade", _text, OPTIONAL),
    ("rank", _positive, OPTIONAL),
    ("status", _choice("active", "dormant", "dead"), OPTIONAL),
    *((name, _decimal, OPTIONAL) for name in DIMENSION_COLUMNS),
    ("turns_played", _count, OPTIONAL),
    ("rounds_sat_out", _count, OPTIONAL),
    ("error_turns", _count, OPTIONAL),
    ("spend", _decimal, OPTIONAL),
    *((name, _count, OPTIONAL) for name in EVENT_COLUMNS),
    ("aggression", _count, OPTIONAL),
    ("credited_trades", _decimal, OPTIONAL),
    ("commons_share", _decimal, OPTIONAL),
    ("coverage", _decimal, OPTIONAL),
    ("canary", _text, REQUIRED),
)
"""``seats.csv``: one row per seat of each trial, in trial, arm and seat order."""

# --------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class TrialRow:
    """One row of ``trials.csv``; an empty field is None."""

    row: int
    """The row's number as a spreadsheet shows it (the header is row 1)."""
    study: str
    trial: int
    """The trial, from 1."""
    arm: int
    """The arm, from 0 (the control)."""
    arm_label: str
    match: str | None
    map_seed: int | None
    spawn_seed: int | None
    ended: str
    """How the trial ended, as the page says it."""
    rounds_played: int | None
    rounds_planned: int | None
    resumed_at: int | None
    metric: str
    value: Number | None
    """The page's per-trial value (the report's, rounded to three decimals)."""
    no_value: str | None
    """Why the trial has no value (one of :data:`NO_VALUE_REASONS`)."""
    pair: str | None
    """``in``, ``out``, or None on a series."""
    pair_out: tuple[tuple[int, str], ...] | None
    """For a pair left out: each arm that kept it out, and why."""
    in_comparison: bool | None
    """On an arm past the control: whether that arm's comparison read the pair."""
    stopping_rule: str | None
    comparison_level: Number | None
    scored_on: str
    """Where the row's value was scored."""
    scenario: str
    scenario_hash: str
    rubric: str
    analysis: str
    canary: str


@dataclass(frozen=True)
class SeatRow:
    """One row of ``seats.csv``; an empty field is None."""

    row: int
    study: str
    trial: int
    arm: int
    match: str
    seat: int
    """The seat, from 1, in roster order."""
    name: str | None
    model: str
    """The seat's model; :data:`GUEST` for a guest seat."""
    harness: str | None
    focal: bool
    """Whether the metric reads this seat."""
    whole_trial: bool
    """Whether the trial played whole under the study's version tuple and was scored."""
    rubric: str | None
    scored_on: str | None
    fitness_index: Number | None
    grade: str | None
    rank: int | None
    status: str | None
    survival: Number | None
    economy: Number | None
    social: Number | None
    adaptation: Number | None
    competitiveness: Number | None
    turns_played: int | None
    rounds_sat_out: int | None
    error_turns: int | None
    spend: Number | None
    counts: dict[str, int | None] = field(hash=False)
    """The event counts (:data:`EVENT_COLUMNS`), None where the record holds nothing."""
    aggression: int | None
    credited_trades: Number | None
    commons_share: Number | None
    coverage: Number | None
    canary: str

    @property
    def guest(self) -> bool:
        """A guest seat (no model of the study's)."""
        return self.model == GUEST

    def score(self, column: str) -> float | None:
        """The seat's figure in ``column`` (a seat-score column) as a double, None where empty."""
        value = getattr(self, column)
        if isinstance(value, Number):
            return value.value
        return None if value is None else float(value)


@dataclass(frozen=True)
class StudyFiles:
    """Both files, read."""

    trials: tuple[TrialRow, ...]
    seats: tuple[SeatRow, ...]
    trials_name: str = "trials.csv"
    """What the trials were read from (a path, an address, or ``trials.csv``)."""
    seats_name: str = "seats.csv"


# --------------------------------------------------------------------------- reading


def units(value: Number, places: int = 3) -> int:
    """The field as a whole number of ``10**-places`` (exact, from the text: ``61.5`` -> 61500).

    Raises ValueError when the field has more places than that.
    """
    if value.places > places:
        raise ValueError(f"{value.text} has more than {places} decimals")
    whole, _, fraction = value.text.lstrip("-").partition(".")
    scale: int = 10**places  # (places >= 0: an int)
    magnitude = int(whole) * scale + int((fraction + "0" * places)[:places] or "0")
    return -magnitude if value.text.startswith("-") else magnitude


_SEPARATORS = ((";", "semicolons"), ("\t", "tabs"))


def _separator_hint(header: Sequence[str], expected: int) -> str | None:
    """Why a header of one field (or a few) does not read, when its fields are separated by semicolons or
    tabs (a spreadsheet's export in some locales) rather than commas: at least half the expected columns'
    separators are that character.  None otherwise.

    >>> _separator_hint(["study;trial;arm"], 3)
    'its fields are separated by semicolons, not commas: save it as comma-separated CSV (UTF-8)'
    >>> _separator_hint(["study", "trial", "arm"], 3) is None
    True
    """
    joined = ",".join(header)
    for separator, name in _SEPARATORS:
        if joined.count(separator) >= max(1, expected // 2):
            return f"its fields are separated by {name}, not commas: save it as comma-separated CSV (UTF-8)"
    return None


def _records(text: str, name: str, columns: Sequence[Column]) -> list[tuple[int, dict[str, Any]]]:
    problems: list[str] = []
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), strict=True)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise StudyUnreadable(f"not a CSV file ({exc})", file=name, line=reader.line_num) from exc
    while rows and not rows[-1]:  # blank lines at the end (a spreadsheet's habit): read past
        rows.pop()
    if not rows:
        raise StudyUnreadable("the file is empty (no header row)", file=name)
    expected = [c.name for c in columns]
    header = rows[0]
    separator = _separator_hint(header, len(expected))
    if header != expected and separator:
        raise StudyUnreadable(f"the header is not the expected columns: {separator}", file=name, line=1)
    if header != expected:
        missing = [c for c in expected if c not in header]
        extra = [c for c in header if c not in expected]
        times = Counter(header)
        repeated = [c for c in expected if times[c] > 1]
        detail = []
        if missing:
            detail.append(f"missing {', '.join(missing)}")
        if repeated:
            detail.append(f"repeated {', '.join(repeated)}")
        if extra:
            detail.append(f"not expected {_names(extra)}")
        if not missing and not extra and not repeated:
            detail.append("the columns are out of order")
        raise StudyUnreadable(f"the header is not the expected columns ({'; '.join(detail)}); expected: "
                              f"{','.join(expected)}", file=name, line=1)
    out: list[tuple[int, dict[str, Any]]] = []
    for number, fields in enumerate(rows[1:], start=2):
        if not fields:
            problems.append(f"row {number}: a blank line")
            continue
        if len(fields) != len(columns):
            problems.append(f"row {number}: {len(fields)} fields where the header has {len(columns)}")
            continue
        record: dict[str, Any] = {}
        for column, text in zip(columns, fields, strict=True):
            if text == "":
                if not column.optional:
                    problems.append(f"row {number}, column {column.name}: empty, and it is never empty")
                record[column.name] = None
                continue
            if text != text.strip():
                problems.append(f"row {number}, column {column.name}: {_shown(text)} has spaces around it")
                continue
            try:
                record[column.name] = column.parse(text)
            except ValueError as exc:
                problems.append(f"row {number}, column {column.name}: {exc}")
        out.append((number, record))
    if problems:
        shown = problems[:25]
        more = f" (and {len(problems) - len(shown)} more)" if len(problems) > len(shown) else ""
        raise StudyUnreadable(f"{count(len(problems), 'field')} {'does' if len(problems) == 1 else 'do'} not read: " + "; ".join(shown) + more, file=name)
    return out


def read_trials(text: str, name: str = "trials.csv") -> tuple[TrialRow, ...]:
    """Parse ``trials.csv`` (see :data:`TRIAL_COLUMNS`).

    Raises
    ------
    StudyUnreadable
        The header is not the expected one, a row has the wrong number of fields, or a
        field does not parse (every problem listed, with its row and column).
    """
    return tuple(TrialRow(row=number, **record) for number, record in _records(text, name, TRIAL_COLUMNS))


def read_seats(text: str, name: str = "seats.csv") -> tuple[SeatRow, ...]:
    """Parse ``seats.csv`` (see :data:`SEAT_COLUMNS`); raises as :func:`read_trials`."""
    rows: list[SeatRow] = []
    for number, record in _records(text, name, SEAT_COLUMNS):
        counts = {column: record.pop(column) for column in EVENT_COLUMNS}
        rows.append(SeatRow(row=number, counts=counts, **record))
    return tuple(rows)


def read_files(trials_text: str, seats_text: str, *, trials_name: str = "trials.csv",
               seats_name: str = "seats.csv") -> StudyFiles:
    """Read both files (each strictly; the first that does not read raises)."""
    return StudyFiles(read_trials(trials_text, trials_name), read_seats(seats_text, seats_name),
                      trials_name, seats_name)


def _example() -> tuple[str, str]:
    trials = ",".join(c.name for c in TRIAL_COLUMNS) + "\n" + (
        "s_1,1,0,control,m_000000000001,7,3,finished,40,40,,fitness_index,61.5,,,,,,,daishi,open,h1,2.4,a1,CANARY\n")
    seat_fields = {c.name: "" for c in SEAT_COLUMNS}
    seat_fields.update(study="s_1", trial="1", arm="0", match="m_000000000001", seat="1", model="model-a",
                       focal="yes", whole_trial="yes", rubric="2.4", fitness_index="61.5", canary="CANARY")
    seats = ",".join(seat_fields) + "\n" + ",".join(seat_fields.values()) + "\n"
    return trials, seats


_TRIALS_EXAMPLE, _SEATS_EXAMPLE = _example()
