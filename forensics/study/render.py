"""Reporters for a :class:`~daishi_forensics.study.audit.StudyAudit`: ``text``, ``markdown`` and ``json``.

Each prints every recomputed figure beside the page's with ``same`` or
``DIFFERS``, every check that disagrees with its rows, the two counts kept apart,
what was taken on trust and the readings the study exercised (seed 000,
*Recomputing a study yourself*).  Labels and model names come from the files and
are data: control characters are blanked in text, Markdown's specials escaped.
The JSON document is the one of the schema ``study-audit``.  Same audit, same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

from daishi_forensics.jsonio import dumps
from daishi_forensics.wording import count

from .audit import FigureCheck, StudyAudit
from .checks import Check
from .compare import (
    ARM_PLACES,
    COMPARISON_PLACES,
    LOG_RATIO_PLACES,
    MODEL_PLACES,
    half_away,
    record_places,
)
from .figures import ComparisonFigures
from .metrics import LOG_RATIO
from daishi_forensics.textsafe import md_bold, md_escape, shown

from .readings import READINGS
from .statistics import Interval

__all__ = ["FORMATS", "render", "render_text", "render_markdown", "render_json"]

FORMATS = ("text", "json", "markdown")


def _clean(text: str, limit: int | None = 80) -> str:
    """A value from the files, shown on one line: control characters written out (never obeyed),
    runs of spaces folded, at most ``limit`` characters (None: whole)."""
    out = " ".join(shown(text if limit is None else text[: limit * 4]).split(" "))
    return out if limit is None or len(out) <= limit else out[: limit - 1] + "…"


def _rows(n: int) -> str:
    """``1 row``, ``12 rows``."""
    return f"{n} row" if n == 1 else f"{n} rows"


def _md(text: str, limit: int | None = 200) -> str:
    """Text escaped for Markdown (every character Markdown reads as markup), cleaned and cut as
    :func:`_clean` cuts it at ``limit``: for values from the input."""
    return md_escape(_clean(text, limit))


def _md_prose(text: str) -> str:
    """The tool's own sentences (a check's rule, what is taken on trust, notes, readings) escaped as
    :func:`_md` escapes, but never cut: Markdown keeps what the text format prints whole."""
    return _md(text, None)


def _places(audit: StudyAudit, subject: str) -> tuple[int, bool]:
    """Places a recomputed figure of ``subject`` prints at, and whether it is a comparison figure."""
    if subject.startswith("comparison"):
        return (LOG_RATIO_PLACES if audit.design.scale == LOG_RATIO else COMPARISON_PLACES), True
    if subject.startswith("arm"):
        return ARM_PLACES, False
    return MODEL_PLACES, False


def _number(value: float | None, places: int, near_zero: bool) -> str:
    if value is None:
        return "none"
    if near_zero:
        places = record_places(value, places)
    return f"{half_away(value, places):.{places}f}"


def _value(value: float | str | None, places: int, near_zero: bool, exact: bool) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return _clean(value)
    if exact:
        return repr(float(value))
    return _number(value, places, near_zero)


def _figure_cells(audit: StudyAudit, f: FigureCheck) -> tuple[str, str, str, str]:
    places, near_zero = _places(audit, f.subject)
    exact = f.figure in ("exactP", "verdict")
    page = "none" if f.published is None else (_clean(f.published) if isinstance(f.published, str)
                                               else repr(f.published))
    return f.figure, _value(f.recomputed, places, near_zero, exact), page, f.status


def _interval_text(interval: Interval | None, places: int, near_zero: bool) -> str:
    if interval is None:
        return "none"
    return f"[{_number(interval.low, places, near_zero)}, {_number(interval.high, places, near_zero)}]"


def _header(audit: StudyAudit) -> list[str]:
    d = audit.design
    arms = len(audit.figures.arms)
    kind = "paired experiment" if d.kind == "paired" else "series"
    head = f"study {_clean(d.study)}: {kind}, {count(arms, 'arm')}; metric {_clean(d.metric)} ({d.scale})"
    if d.kind == "paired":
        head += f"; {d.stopping_rule} rule, each comparison at level {d.comparison_level}"
        if d.tuning is not None:
            head += f", sequence tuning {d.tuning}"
    sources = [f"{audit.files.trials_name} ({_rows(len(audit.files.trials))})",
               f"{audit.files.seats_name} ({_rows(len(audit.files.seats))})"]
    if audit.page is not None:
        sources.append(f"page {audit.page.name}")
    if audit.recipe is not None:
        sources.append(f"recipe {audit.recipe.name}")
    return [head, "read: " + ", ".join(sources)]


def _text_table(rows: Sequence[Sequence[str]], indent: str = "    ") -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]


def _subject_figures(audit: StudyAudit, subject: str) -> list[FigureCheck]:
    return [f for f in audit.figure_checks if f.subject == subject]


def _recomputed_rows(audit: StudyAudit, subject: str, values: Sequence[tuple[str, float | str | None]]
                     ) -> list[tuple[str, ...]]:
    """A subject's figures: beside the page's when there is one, else alone."""
    checks = _subject_figures(audit, subject)
    if audit.page is not None:
        rows: list[tuple[str, ...]] = [("figure", "recomputed", "page", "status")]
        rows.extend(_figure_cells(audit, f) for f in checks)
        return rows
    places, near_zero = _places(audit, subject)
    rows = [("figure", "recomputed")]
    rows.extend((name, _value(v, places, near_zero, name in ("exactP", "verdict"))) for name, v in values)
    return rows


def _comparison_values(c: ComparisonFigures) -> list[tuple[str, float | str | None]]:
    low, high = (None, None) if c.interval is None else (c.interval.low, c.interval.high)
    mlow, mhigh = (None, None) if c.map_interval is None else (c.map_interval.low, c.map_interval.high)
    return [("meanDifference", c.mean_difference), ("interval.low", low), ("interval.high", high),
            ("mapInterval.low", mlow), ("mapInterval.high", mhigh), ("exactP", c.exact_p), ("verdict", c.verdict)]


def _mean_values(mean: float | None, interval: Interval | None) -> list[tuple[str, float | str | None]]:
    low, high = (None, None) if interval is None else (interval.low, interval.high)
    return [("mean", mean), ("interval.low", low), ("interval.high", high)]


def _check_lines(check: Check) -> list[str]:
    lines = [f"  {check.code} ({_clean(check.subject)}): {check.what}"]
    for file, row, problem in check.problems:
        where = f"{file} row {row}" if row is not None else file
        lines.append(f"    - {_clean(where, 200)}: {_clean(problem, 300)}")
    return lines


def _summary(audit: StudyAudit) -> str:
    figures = (f"{audit.figures_same} of {len(audit.figure_checks)} figures match the page"
               if audit.page is not None else "no page: nothing to compare the figures with")
    checks = f"{audit.checks_agree} of {len(audit.checks)} checks agree"
    return f"result: {figures}; {checks}; exit {audit.exit_code}"


def render_text(audit: StudyAudit) -> str:
    """A page for a person."""
    out = _header(audit)
    base, _ = _places(audit, "comparison")
    for c in audit.figures.comparisons:
        out.append("")
        out.append(f"comparison {c.arm} ({_clean(c.label)}) against the control: {count(c.pairs, 'pair')} read, "
                   f"{count(c.maps, 'map')}")
        out.extend(_text_table(_recomputed_rows(audit, f"comparison {c.arm}", _comparison_values(c))))
        if c.bootstrap is not None:
            out.append(f"    percentile bootstrap inside the verdict: {_interval_text(c.bootstrap, base, True)}")
        if c.withheld:
            out.append(f"    verdict withheld by the page: {_clean(c.withheld, 200)}")
    for a in audit.figures.arms:
        out.append("")
        out.append(f"arm {a.arm} ({_clean(a.label)}): mean over {count(a.trials, 'trial')} with a value, of {a.rows}")
        out.extend(_text_table(_recomputed_rows(audit, f"arm {a.arm}", _mean_values(a.mean, a.interval))))
    if audit.figures.models:
        out.append("")
        out.append("models: mean Fitness Index over seats in whole trials")
        for m in audit.figures.models:
            out.append(f"  {_clean(m.model)}: {count(m.seats, 'seat')} in {count(m.trials, 'trial')}")
            out.extend(_text_table(_recomputed_rows(audit, f"model {m.model}", _mean_values(m.mean, m.interval))))
    out.append("")
    disagree = audit.checks_disagree
    out.append(f"checks: {audit.checks_agree} agree, {len(disagree)} disagree")
    for check in disagree:
        out.extend(_check_lines(check))
    withheld = [c for c in audit.checks if c.code == "withheld"]
    if withheld:
        out.append("withheld on both sides (counted with the checks):")
        out.extend(f"  {_clean(c.subject)}: {_clean(c.what, 300)}" for c in withheld)
    if audit.figures_differ:
        out.append("figures that differ:")
        for f in audit.figures_differ:
            name, ours, page, _ = _figure_cells(audit, f)
            out.append(f"  {_clean(f.subject)} {name}: recomputed {ours}, page {page} ({f.rule})")
    out.append("taken on trust:")
    out.extend(f"  - {t}" for t in audit.trusted)
    if audit.notes:
        out.append("notes:")
        out.extend(f"  - {n}" for n in audit.notes)
    used = [r for r in READINGS if r.key in audit.readings]
    out.append(f"where the published rules are silent, this audit read ({len(used)} of {len(READINGS)}; all in --json, "
               "'readings'):")
    for r in used:
        out.append(f"  - {r.key}: {r.silent}")
        out.append(f"    read as: {r.reading}")
    out.append(_summary(audit))
    return "\n".join(out) + "\n"


def _md_table(rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(_md(c) for c in rows[0]) + " |", "|" + "|".join(" --- " for _ in rows[0]) + "|"]
    lines.extend("| " + " | ".join(_md(c) for c in row) + " |" for row in rows[1:])
    return lines


def render_markdown(audit: StudyAudit) -> str:
    """The audit as Markdown (GitHub-flavoured tables; every cell escaped)."""
    head = _header(audit)
    out = [f"# {_md_prose(head[0])}", "", _md_prose(head[1])]  # (its values already cut by _clean)
    if audit.figures.comparisons:
        out += ["", "## Comparisons against the control"]
        base, _ = _places(audit, "comparison")
        for c in audit.figures.comparisons:
            out += ["", f"### Comparison {c.arm} ({_md(c.label)}): {count(c.pairs, 'pair')}, {count(c.maps, 'map')}", ""]
            out += _md_table(_recomputed_rows(audit, f"comparison {c.arm}", _comparison_values(c)))
            if c.bootstrap is not None:
                out += ["", f"Percentile bootstrap inside the verdict: {_interval_text(c.bootstrap, base, True)}"]
            if c.withheld:
                out += ["", f"Verdict withheld by the page: {_md(c.withheld)}"]
    out += ["", "## Arms"]
    for a in audit.figures.arms:
        out += ["", f"### Arm {a.arm} ({_md(a.label)}): {count(a.trials, 'trial')} with a value, of {a.rows}", ""]
        out += _md_table(_recomputed_rows(audit, f"arm {a.arm}", _mean_values(a.mean, a.interval)))
    if audit.figures.models:
        out += ["", "## Models (mean Fitness Index over seats in whole trials)"]
        for m in audit.figures.models:
            out += ["", f"### {_md(m.model)}: {count(m.seats, 'seat')} in {count(m.trials, 'trial')}", ""]
            out += _md_table(_recomputed_rows(audit, f"model {m.model}", _mean_values(m.mean, m.interval)))
    out += ["", "## Checks", "", f"{audit.checks_agree} agree, {len(audit.checks_disagree)} disagree."]
    for check in audit.checks_disagree:
        out += ["", f"- {md_bold(_md(check.code))} ({_md(check.subject)}): {_md_prose(check.what)}"]
        for file, row, problem in check.problems:
            where = f"{file} row {row}" if row is not None else file
            out.append(f"  - {_md(where)}: {_md(problem)}")
    out += ["", "## Taken on trust", ""]
    out += [f"- {_md_prose(t)}" for t in audit.trusted]
    if audit.notes:
        out += ["", "## Notes", ""] + [f"- {_md_prose(n)}" for n in audit.notes]
    out += ["", "## Readings where the published rules are silent", ""]
    out += [f"- **{r.key}**: {_md_prose(r.silent)} Read as: {_md_prose(r.reading)}" for r in READINGS if r.key in audit.readings]
    out += ["", md_bold(_md_prose(_summary(audit)))]
    return "\n".join(out) + "\n"


def render_json(audit: StudyAudit) -> str:
    """The audit as one deterministic JSON document (schema ``study-audit``)."""
    return dumps(audit.to_dict())


def render(audit: StudyAudit, fmt: str) -> str:
    """Render in ``text``, ``markdown`` or ``json``."""
    if fmt == "json":
        return render_json(audit)
    if fmt == "markdown":
        return render_markdown(audit)
    return render_text(audit)
