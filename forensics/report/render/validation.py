"""Reporters for :class:`~daishi_forensics.read.validate.ValidationResult`: text, json, github."""

from __future__ import annotations

from daishi_forensics.jsonio import dumps
from daishi_forensics.textsafe import shown
from .tables import github_escape
from daishi_forensics.read.validate import FileResult, ValidationResult
from daishi_forensics.wording import count

__all__ = ["render", "FORMATS"]

FORMATS = ("text", "json", "github")


def _count_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v:,}" for k, v in counts.items()) or "none"


def render_text(result: ValidationResult) -> str:
    out: list[str] = []
    for f in result.files:
        if f.unreadable:
            out.append(f"UNREADABLE  {f.unreadable}")
            continue
        s = f.stats
        verdict = "valid" if f.valid else "INVALID"
        out.append(f"{verdict:<11} {f.target} ({f.form}, {f.match_id or 'no match id'})")
        out.append(
            f"  records {s['records']:,}: {s['valid']:,} valid, {s['invalid']:,} invalid;"
            f" analysed {s['analysed']:,} (upcast {s['upcast']:,}, synthesized {s['synthesized']:,})"
        )
        out.append(f"  schema versions: {_count_line({'v' + k: v for k, v in s['byVersion'].items()})}")
        out.append(f"  types: {_count_line(s['byType'])}")
        if s["unknownTypes"]:
            out.append(f"  unknown types (kept): {_count_line(s['unknownTypes'])}")
        if s["droppedEarlierSeason"]:
            out.append(
                f"  v1 log with {s['seasonsSeen']} seasons: kept the last; "
                f"{s['droppedEarlierSeason']:,} events of earlier seasons are not part of the match"
            )
        if s["excludedByErrata"]:
            out.append(f"  withheld by errata (never took effect): events {', '.join(map(str, s['excludedByErrata']))}")
        for p in f.problems:
            out.append(f"  {p.severity}: {p.location()}: {p.path}: {p.message}")
        out.extend(f"  … and {more:,} more like this ({code})" for code, more in _not_listed(f))
    ok = sum(1 for f in result.files if f.valid)
    out.append(f"{ok} of {count(len(result.files), 'match', 'matches')} valid")
    return "\n".join(shown(line) for line in out) + "\n"


def _not_listed(f: FileResult) -> list[tuple[str, int]]:
    """``(kind, how many more)`` for each kind with more problems than listed."""
    listed: dict[str, int] = {}
    for p in f.problems:
        listed[p.code] = listed.get(p.code, 0) + 1
    return [(code, n - listed.get(code, 0)) for code, n in sorted(f.problem_counts.items())
            if n > listed.get(code, 0)]


GITHUB_SHOWN = 10
"""Annotations of each severity GitHub displays per step; the rest it drops silently."""


def render_github(result: ValidationResult) -> str:
    """GitHub workflow commands: an ``::error``/``::warning`` annotation per problem, as many of each
    severity as GitHub displays (:data:`GITHUB_SHOWN`): past that, the first ones, then one
    annotation that says how many more there are.  Every problem listed is also a plain log line.  A
    problem of the match read from standard input names no file (GitHub could link none): its title says
    standard input, its message where in it first (``line 3, id 2``, as the log line says)."""
    found: dict[str, list[str]] = {"error": [], "warning": []}
    found_total = {"error": 0, "warning": 0}
    log: list[str] = []
    for f in result.files:
        if f.unreadable:
            # the annotation on the file at fault (a file in a folder match, the stream itself), when one is
            props = [f"file={github_escape(f.unreadable_file, True)}"] if f.unreadable_file else []
            if f.unreadable_file and f.unreadable_line is not None:
                props.append(f"line={f.unreadable_line}")
            props.append("title=daishi-forensics unreadable" + (" (standard input)" if f.stdin else ""))
            found["error"].append(f"::error {','.join(props)}::{github_escape(f.unreadable)}")
            found_total["error"] += 1
            log.append(shown(f"UNREADABLE  {f.unreadable}"))  # as the text format writes it
            continue
        for p in f.problems:
            where = f"event {p.shown_id} " if p.event_id is not None else ""
            if f.stdin:  # no file GitHub could link: the title says where, the message the place in it
                props = [f"title={github_escape('daishi-forensics ' + p.code + ' (standard input)', True)}"]
                at = p.location().removeprefix(p.file).removeprefix(", ")  # "line 3, id 2", as the log says
                where = f"{at}: " if at else ""
            else:
                props = [f"file={github_escape(p.file, True)}"]
                if p.line is not None:
                    props.append(f"line={p.line}")
                props.append(f"title={github_escape('daishi-forensics ' + p.code, True)}")
            severity = p.severity if p.severity in found else "warning"
            text = github_escape(where + p.path + ": " + p.message)
            found[severity].append(f"::{severity} {','.join(props)}::{text}")
            # a plain log line, not a workflow command (it starts with the severity): written as the text
            # format writes it, each control character escaped, with no %-escapes a reader would see
            log.append(shown(f"{p.severity}: {p.location()}: {p.path}: {p.message}"))
        log.extend(shown(f"… and {more:,} more like this ({code}) in {f.target}")
                   for code, more in _not_listed(f))
        found_total["error"] += f.error_count
        found_total["warning"] += f.warning_count
    out: list[str] = []
    for severity, lines in found.items():
        total = max(found_total[severity], len(lines))
        if total <= GITHUB_SHOWN:
            out.extend(lines)
            continue
        annotated = lines[: GITHUB_SHOWN - 1]
        out.extend(annotated)
        more = total - len(annotated)  # fewer may be listed (--max-errors) than GitHub would show
        out.append(f"::{severity} title=daishi-forensics::{more:,} more {severity}s not annotated "
                   "(GitHub shows 10 per step): every listed problem is in the log below")
    out.extend(log)
    ok = sum(1 for f in result.files if f.valid)
    out.append(f"{ok} of {count(len(result.files), 'match', 'matches')} valid")
    return "\n".join(out) + "\n"


def render(result: ValidationResult, fmt: str) -> str:
    if fmt == "json":
        return dumps(result.as_dict())
    if fmt == "github":
        return render_github(result)
    return render_text(result)
