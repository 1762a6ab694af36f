"""Reporters for :class:`~daishi_forensics.read.validate.ValidationResult`: text, json, github."""

from __future__ import annotations

from daishi_forensics.jsonio import dumps
from daishi_forensics.textsafe import shown
from .tables import github_escape
from daishi_forensics.read.validate import ValidationResult

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
        if f.problems_not_kept:
            out.append(f"  … and {f.problems_not_kept:,} more problems not listed")
    ok = sum(1 for f in result.files if f.valid)
    out.append(f"{ok} of {len(result.files)} match(es) valid")
    return "\n".join(shown(line) for line in out) + "\n"


def render_github(result: ValidationResult) -> str:
    """GitHub workflow commands: one ``::error``/``::warning`` annotation per problem."""
    out: list[str] = []
    for f in result.files:
        if f.unreadable:
            out.append(f"::error title=daishi-forensics unreadable::{github_escape(f.unreadable)}")
            continue
        for p in f.problems:
            props = [f"file={github_escape(p.file, True)}"]
            if p.line is not None:
                props.append(f"line={p.line}")
            props.append(f"title={github_escape('daishi-forensics ' + p.code, True)}")
            where = f"event {p.event_id} " if p.event_id is not None else ""
            out.append(f"::{p.severity} {','.join(props)}::{github_escape(where + p.path + ': ' + p.message)}")
    ok = sum(1 for f in result.files if f.valid)
    out.append(f"{ok} of {len(result.files)} match(es) valid")
    return "\n".join(out) + "\n"


def render(result: ValidationResult, fmt: str) -> str:
    if fmt == "json":
        return dumps(result.as_dict())
    if fmt == "github":
        return render_github(result)
    return render_text(result)
