"""Reporters for a screen run (:class:`~daishi_forensics.report.screening.ScreenRun`):
``text`` for people, ``json`` for programs, ``github`` for workflow annotations,
``sarif`` (2.1.0) for code-scanning dashboards.  Chosen by name; every one is
deterministic (same run, same bytes).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from daishi_forensics.version import __version__
from daishi_forensics.jsonio import dumps
from daishi_forensics.textsafe import md_escape, shown, shown_name, utf8_text
from .tables import github_escape, markdown_table
from .validation import GITHUB_SHOWN

from daishi_forensics.screens.config import ScreenConfig
from daishi_forensics.report.screening import MatchOutcome, ScreenRun, name_text, season_cited
from daishi_forensics.screens.flags import Flag
from daishi_forensics.wording import count

__all__ = ["FORMATS", "automation_id", "render", "render_github", "render_json", "render_sarif", "render_step_summary",
           "render_text"]

FORMATS = ("text", "json", "github", "sarif")
"""The reporters, by name."""

_SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _evidence(flag: Flag, limit: int = 12) -> str:
    ids = [str(e) for e in flag.evidence]
    shown = ", ".join(ids[:limit])
    return shown + (f" … (+{len(ids) - limit})" if len(ids) > limit else "")


def _significance(flag: Flag) -> str:
    """``p 0.000488 (adjusted 0.00195 over 4 tests)``, or the threshold a rule without a null met."""
    if flag.p_value is None:
        return f"score {flag.score:.3g} (threshold {flag.threshold:g})"
    adjusted = flag.p_adjusted if flag.p_adjusted is not None else flag.p_value
    return f"p {flag.p_value:.3g} (adjusted {adjusted:.3g} over {count(flag.tests or 1, 'test')}); score {flag.score:.3g}"


def _flag_lines(flag: Flag, indent: str = "  ") -> list[str]:
    head = f"{indent}{flag.level.upper():<6} {flag.screen}/{flag.kind}: {', '.join(map(str, flag.agents))}"
    lines = [
        head + (f" [{flag.match}]" if flag.match and flag.match != "season" else ""),
        f"{indent}       {flag.explanation}",
        f"{indent}       {_significance(flag)}; events {_evidence(flag)}",
    ]
    if flag.null:
        lines.append(f"{indent}       null: {flag.null}")
    return lines


def _wrapped(line: str, width: int | None) -> list[str]:
    """A line wrapped to ``width`` under its own indentation (nothing cut); unchanged without a width."""
    if width is None:
        return [line]
    import textwrap

    indent = len(line) - len(line.lstrip(" "))
    return [" " * indent + part for part in textwrap.wrap(line.strip(), max(width - indent, 20),
                                                         break_long_words=True, break_on_hyphens=False)] or [""]


def render_text(run: ScreenRun, width: int | None = None) -> str:
    """One block per match, then the season, then the verdict line; each line wrapped to ``width``
    under its indentation when given (a terminal's width)."""
    out: list[str] = []
    for m in run.matches:
        if m.result is None:
            out.append(f"NOT SCREENED  {_unread(m)}")
            continue
        r = m.result
        testing = r.testing
        # a table of plain transfers has no match id, and only typology tests (each flag counts its own)
        label = f"{m.match_id} ({m.target}{_also(m)})" if m.match_id else m.target + (f" ({_also(m)[2:]})" if m.also else "")
        out.append(f"{r.verdict.upper():<7} {label}"
                   + (f" [{count(testing['tests'], 'test')}, {testing.get('family', 0)} counted]" if testing.get("tests") else ""))
        for f in r.flags:
            out += _flag_lines(f)
        for n in r.not_screened:
            out.append(f"  {n}")
        for n in r.notes:
            out.append(f"  note: {n}")
    if run.season is not None:
        s = run.season
        season_verdict = ("no verdict" if not run.screened else "flag" if any(f.level == "flag" for f in s.flags)
                          else "review" if s.flags else "clear")
        out.append(f"SEASON  {season_verdict} ({count(len(run.season.matches), 'match', 'matches')} screened)")
        for f in s.flags:
            out += _flag_lines(f)
        for n in (*s.not_screened, *s.notes):
            out.append(f"  {n}")
    counts = {v: sum(1 for m in run.matches if m.result is not None and m.result.verdict == v)
              for v in ("clear", "review", "flag")}
    unread = sum(1 for m in run.matches if m.result is None)
    if run.verdict is None:
        which = "the target could not" if unread == 1 else f"none of the {unread} targets could"
        out.append(f"nothing screened: {which} be screened (see above), so there is no verdict (screens config "
                   f"{run.config.version}, {run.config.digest})")
        return "\n".join(part for line in out for part in _wrapped(shown(line), width)) + "\n"
    out.append(
        f"verdict {run.verdict}: {counts['clear']} clear, {counts['review']} review, {counts['flag']} flag"
        + (f", {unread} not screened" if unread else "")
        + f" (screens config {run.config.version}, {run.config.digest}; designed false alarms: at most "
        f"{run.config.false_alarm_rate:g} of honest matches review or flag, "
        f"{run.config.false_alarm_rate * run.config.flag_share:g} flag)"
    )
    return "\n".join(part for line in out for part in _wrapped(shown(line), width)) + "\n"


def render_json(run: ScreenRun) -> str:
    """:meth:`ScreenRun.to_dict` as deterministic JSON."""
    text: str = dumps(run.to_dict())
    return text


@dataclass(frozen=True)
class _Finding:
    """One thing ``--format github`` annotates (and the step summary lists)."""

    group: str
    """Its group: ``flag``, ``unread``, ``review`` or ``partial`` (:data:`_GROUPS`)."""
    target: str | None
    """The target it is about; None for the season's."""
    flag: Flag | None
    """The flag; None for a target not screened, or not whole."""
    reason: str = ""
    """For a target not screened, or not whole (or the season not screened whole): why."""
    also: tuple[str, ...] = ()
    """The other targets holding the same match (screened once, annotated at the first; the step summary names
    them in the target's column)."""
    line: int | None = None
    """A flag's line in the target's file where it is known (:attr:`MatchOutcome.lines`, the line SARIF gives it),
    else None; for a season-scale flag, its line in :attr:`season_file`."""
    season_file: str | None = None
    """For a season-scale flag whose line is known, the file that line is in (the first match file it is about),
    else None."""
    file: str | None = None
    """The file a finding about :attr:`target` is placed in (:meth:`MatchOutcome.file_of`: a match folder's events
    file); None for the season's."""


_GROUPS: dict[str, tuple[str, str]] = {
    "flag": ("flag", "flags"), "unread": ("target not screened", "targets not screened"),
    "review": ("review", "reviews"), "partial": ("part not screened", "parts not screened"),
}
"""The groups of :func:`_findings`, the most serious first, each with its noun (one, many)."""

_LEVELS: dict[str, tuple[str, ...]] = {"error": ("flag", "unread"), "warning": ("review", "partial")}
"""The groups each level of annotation holds (``::error``, ``::warning``)."""


def _group_counts(found: Iterable[_Finding]) -> dict[str, int]:
    """How many of ``found`` are in each group, every group named (0 included), in :data:`_GROUPS`' order: what
    the github format's closing notice and the step summary's first line count.

    >>> _group_counts([_Finding("flag", "a", None), _Finding("partial", "a", None, "x"), _Finding("flag", None, None)])
    {'flag': 2, 'unread': 0, 'review': 0, 'partial': 1}
    """
    counts = dict.fromkeys(_GROUPS, 0)
    for finding in found:
        counts[finding.group] += 1
    return counts


def _groups_said(counts: Mapping[str, int], groups: Iterable[str] = _GROUPS) -> list[str]:
    """Each of ``groups`` that holds a finding, counted with its noun, in order.

    >>> _groups_said({"flag": 12, "unread": 1, "review": 0, "partial": 1})
    ['12 flags', '1 target not screened', '1 part not screened']
    """
    return [count(counts[g], *_GROUPS[g]) for g in groups if counts[g]]


def _findings(run: ScreenRun) -> list[_Finding]:
    """What the github format annotates, the most serious first: the flags, the targets not screened, the
    reviews, the parts of a match not screened; each group in the order of the matches, the season's last."""
    groups: dict[str, list[_Finding]] = {g: [] for g in _GROUPS}
    for m in run.matches:
        if m.result is None:
            groups["unread"].append(_Finding("unread", m.target, None, _unread(m)))
            continue
        for f in m.result.flags:
            group = "flag" if f.level == "flag" else "review"
            groups[group].append(_Finding(group, m.target, f, also=m.also,
                                          line=m.lines.get(f.evidence[0]) if f.evidence else None,
                                          file=m.file_of(m.target)))
        # a verdict that does not cover the whole match says why
        groups["partial"] += [_Finding("partial", m.target, None, reason, m.also, file=m.file_of(m.target))
                              for reason in m.result.not_screened]
    if run.season is not None:
        for f in run.season.flags:
            group = "flag" if f.level == "flag" else "review"
            # at the line SARIF gives it, in the first match file it is about, where that line is known
            places = _season_places(f, run)[:1]
            place = places[0] if places and places[0][1] is not None else None
            groups[group].append(_Finding(group, None, f, line=place[1] if place else None,
                                          season_file=place[0] if place else None))
        # a season-scale check left unfinished (a search out of steps) says so, as a match's part does
        groups["partial"] += [_Finding("partial", None, None, reason) for reason in run.season.not_screened]
    return [finding for group in groups.values() for finding in group]


def _annotation(finding: _Finding) -> str:
    """One workflow command for ``finding``.  Its ``target`` None: a season-scale flag, which no one file holds (no
    ``file=``, as for a target not screened; a ``file=season`` would name a file of the repository that is not
    there, or one that is), unless its line in a match file it is about is known (``season_file``: the file,
    ``line`` the line, as SARIF places it).  Its ``line``: a flag's line in the target's file (its first evidence
    event's), given as ``line=`` where known, as SARIF places the flag; none where not (the annotation is then at
    the file)."""
    group, target, flag, reason, also = finding.group, finding.target, finding.flag, finding.reason, finding.also
    line, season_file = finding.line, finding.season_file
    if flag is None:
        if group == "unread":
            return f"::error title=daishi-forensics not screened::{github_escape(reason)}"
        if target is None:  # the season's: no one file holds it
            return f"::warning title=daishi-forensics season not screened whole::{github_escape(reason)}"
        same = f"; the same match: {', '.join(also)}" if also else ""
        return (f"::warning file={github_escape(finding.file or target, True)},title=daishi-forensics not screened "
                f"whole::{github_escape(reason + same)}")
    kind = "error" if flag.level == "flag" else "warning"
    title = github_escape(f"daishi-forensics {flag.screen}/{flag.kind}", True)
    message = f"{flag.explanation} {_significance(flag).capitalize()}."
    if flag.null:
        message += f" Null: {flag.null}."
    message += f" Events: {_evidence(flag)}."
    if also:
        message += f" The same match: {', '.join(also)} (screened once)."
    placed = (finding.file or target) if target is not None else season_file if line is not None else None
    where = f"file={github_escape(placed, True)}," if placed is not None else ""
    if where and line is not None:
        where += f"line={line},"
    return f"::{kind} {where}title={title}::{github_escape(message)}"


def _verdict_line(run: ScreenRun) -> str:
    said = (f"screens verdict {run.verdict}" if run.verdict is not None
            else "screens: nothing could be screened, no verdict")
    return f"{said} (config {run.config.version}, {run.config.digest})"


def render_github(run: ScreenRun) -> str:
    """GitHub workflow commands: ``::error`` per flag and per target not screened, ``::warning`` per review
    and per part of a match left unscreened (invalid records, a truncated log), in that order (the most
    serious first: GitHub shows only the first :data:`GITHUB_SHOWN` of each level in a step), each
    group in the order of the matches, the season's last.  Every annotation is written; when a level
    has more than GitHub shows, a ``::notice`` after them says how many of each there are in all, so
    none is hidden without a word.  The verdict line comes last."""
    found = _findings(run)
    out = [_annotation(finding) for finding in found]
    counts = _group_counts(found)
    if max(sum(counts[g] for g in groups) for groups in _LEVELS.values()) > GITHUB_SHOWN:
        said = _annotation_count(counts)
        out.append(f"::notice title=daishi-forensics annotations::{github_escape(said)}")
    out.append(shown(_verdict_line(run)))
    return "\n".join(out) + "\n"


SUMMARY_BUDGET = 512 * 1024
"""Bytes of Markdown a step summary of findings takes at most: GitHub takes 1 MiB of summary in a step (past
that, none of it), and other commands of the step may write theirs."""


def render_step_summary(run: ScreenRun, budget: int = SUMMARY_BUDGET) -> str:
    """Markdown for a GitHub step summary (``$GITHUB_STEP_SUMMARY``): the verdict line, then a table of every
    finding the github format annotates, in its order, every cell escaped (:func:`markdown_table`); rows past
    ``budget`` bytes are counted under the table, not listed."""
    found = _findings(run)
    said = _groups_said(_group_counts(found))
    out = ["### daishi-forensics screen", "", md_escape(_verdict_line(run) + (": " + ", ".join(said) if said else
                                                                                ": no findings"))]
    if not found:
        return "\n".join(out) + "\n\n"
    rows: list[list[Any]] = []
    for finding in found:
        target, flag, also = finding.target, finding.flag, finding.also
        # a file's name as it is: a run of spaces or a space at either end written out, where a cell would
        # collapse or trim it and so name another file
        where = ((shown_name(target) + (f" (the same match: {', '.join(map(shown_name, also))})" if also else ""))
                 if target is not None else "season")
        if flag is None:
            unread = finding.group == "unread"
            rows.append(["error" if unread else "warning", "not screened" if unread else "not screened whole", where,
                         None, None, finding.reason, None])
        else:
            rows.append([flag.level, f"{flag.screen}/{flag.kind}", where, list(map(str, flag.agents)),
                         _significance(flag), flag.explanation, _evidence(flag)])
    table = utf8_text(markdown_table(["level", "finding", "target", "agents", "significance", "explanation",
                                      "events"], rows)).split("\n")  # (a file name's bytes: as written)
    out += ["", *table[:2]]
    used = sum(len(line.encode("utf-8")) + 1 for line in out)
    listed = 0
    for line in table[2:]:
        used += len(line.encode("utf-8")) + 1
        if used > budget:
            break
        out.append(line)
        listed += 1
    if listed < len(rows):
        out += ["", f"{len(rows) - listed:,} more not listed here (a step summary holds at most 1 MiB): every one "
                    "is annotated in this step's log."]
    return "\n".join(out) + "\n\n"


def _annotation_count(counts: Mapping[str, int]) -> str:
    """What a run's annotations were, level by level (``counts``: :func:`_group_counts`), and that GitHub shows
    only some of them.

    >>> _annotation_count({"flag": 12, "unread": 1, "review": 3, "partial": 0}).split(";")[0]
    '13 errors (12 flags, 1 target not screened) and 3 warnings (3 reviews) annotated in all'
    """
    def level(name: str, groups: tuple[str, ...]) -> str:
        said = ", ".join(_groups_said(counts, groups))
        return count(sum(counts[g] for g in groups), name) + (f" ({said})" if said else "")

    return (f"{' and '.join(level(name, groups) for name, groups in _LEVELS.items())} annotated in all; GitHub shows at most {GITHUB_SHOWN} annotations of each "
            "level in a step (and 50 in a job), so some may be missing from the annotations: every one is in "
            "this step's log")


_RULE_HELP = ("What each screen finds, against which null, and its settings: `daishi-forensics screen --help` and "
              "the README's Collusion screens section. A result's properties hold its agents, its score and "
              "threshold, for a tested finding its p-value (raw and adjusted), the number of tests and the null, and "
              "the events to open (evidence); `daishi-forensics behavior MATCH --agent AGENT` shows what a seat did.")
"""A rule's help (code scanning shows it with every alert of the rule, and asks every rule for one)."""


def _rules(flags: Iterable[Flag], config: ScreenConfig) -> list[dict[str, Any]]:
    """A rule per screen and kind of ``flags``, each with a short and a full description and help (code scanning
    asks every rule for the three), its screen's settings in its properties."""
    ids = sorted({(f.screen, f.kind) for f in flags})
    verdict = (f"Each finding is tested against a null model of the same match or table (named in the result, with "
               f"its p-value) and adjusted over the tests there (Holm): a review (warning) when the adjusted p-value "
               f"is within the false-alarm rate its screen is given (general.false_alarm_rate "
               f"{config.false_alarm_rate:g}, shared among the screens), a flag (error) within {config.flag_share:g} "
               "of it. A finding with no p-value meets a threshold on its score instead (both in the result's "
               "properties).")
    return [
        {
            "id": f"{screen}/{kind}",
            "name": f"{screen}.{kind}",
            "shortDescription": {"text": f"Collusion screen {screen}: {kind.replace('_', ' ')}"},
            "fullDescription": {"text": f"Collusion screen {screen}: {kind.replace('_', ' ')}. {verdict}"},
            "help": {"text": _RULE_HELP},
            "properties": {"screen": screen, "parameters": dict(config.screens.get(screen, {}))},
        }
        for screen, kind in ids
    ]


_FEEDS = ("enabled", "min_feed_value", "min_directionality", "min_one_way_exchanges")
"""The settings that make a match's one-way flow a feed, which every season-scale feed rule counts."""

_SEASON_RULES: dict[tuple[str, str], tuple[str, tuple[str, ...], str]] = {
    ("feeder", "hub_and_spoke"): (
        "season", (*_FEEDS, "min_spokes"),
        "A seat (or operator) fed value one way by min_spokes or more others, in two or more of the season's "
        "matches, counting only the feeds their own match did not flag. A threshold on the number of feeders, "
        "counted over the season's matches; no p-value."),
    ("ring", "feed_cycle"): (
        "season", (*_FEEDS, "max_cycle_length", "max_leg_ratio", "cycle_threshold", "max_search_steps"),
        "Feeds going one way round a cycle of 3 to max_cycle_length seats (or operators) across the season's "
        "matches, each within a factor max_leg_ratio of the others in value, cycle_threshold laps or more in "
        "season order. A threshold on the laps, counted over the season's matches; no p-value."),
    ("operator", "recurring_pair"): (
        "season", (*_FEEDS, "min_matches", "min_share"),
        "A seat (or operator) that fed the same other one in min_matches or more of the season's matches, and in "
        "min_share or more of the matches both played (review). A threshold on the matches, counted over the "
        "season; no p-value."),
    ("pair_outlier", "mutual_advantage"): (
        "pair_outlier", ("enabled", "value_floor", "count_floor", "share_floor", "min_feature_z", "min_features",
                         "min_pairs", "season_min_rows", "season_fit_rows", "season_threshold", "season_seed"),
        "A pair that stands out from every pair of the season's matches on min_features or more measures of "
        "mutual advantage at once (each at min_feature_z robust z or more), at a robust Mahalanobis distance of "
        "season_threshold or more (with fewer than season_min_rows pairs, the robust z combined) (review). A "
        "threshold on the distance, over the season's pairs; no p-value."),
}
"""Each season-scale rule: the configuration section its settings are in, those settings, what it finds."""


def _season_rules(flags: Iterable[Flag], config: ScreenConfig) -> list[dict[str, Any]]:
    """The rules of season-scale flags (``season/<screen>/<kind>``): thresholds counted over the season's
    matches, not a match's tests, so rules of their own, with their own settings."""
    rules = []
    for screen, kind in sorted({(f.screen, f.kind) for f in flags}):
        section, keys, rule = _SEASON_RULES.get((screen, kind), (
            "season", tuple(config.screens.get("season", {})),
            f"Collusion screen {screen}: {kind.replace('_', ' ')}, counted over the season's matches (a "
            "threshold; no p-value)."))
        settings = config.screens.get(section, {})
        rules.append({
            "id": f"season/{screen}/{kind}",
            "name": f"season.{screen}.{kind}",
            "shortDescription": {"text": f"Season-wide collusion screen {screen}: {kind.replace('_', ' ')}"},
            "fullDescription": {"text": rule},
            "help": {"text": _RULE_HELP},
            "properties": {"screen": screen, "scope": "season", "section": section,
                           "parameters": {k: settings[k] for k in keys if k in settings}},
        })
    return rules


def _also(m: MatchOutcome) -> str:
    """The other targets holding the same match, after the target's name (nothing when there are none).

    >>> _also(MatchOutcome("a/m_1.jsonl", "m_1", also=("b/m_1.json",))), _also(MatchOutcome("a/m_1.jsonl"))
    ('; the same match: b/m_1.json', '')
    """
    return f"; the same match: {', '.join(m.also)}" if m.also else ""


def _unread(m: MatchOutcome) -> str:
    """Why a target was not screened, after its name (once: an error about a file names it first already),
    then the other targets holding the same match.

    >>> _unread(MatchOutcome("x.jsonl", error="x.jsonl: no such file")), _unread(MatchOutcome("m_1", error="HTTP 404"))
    ('x.jsonl: no such file', 'm_1: HTTP 404')
    """
    error = m.error or ""
    said = error if error.startswith(f"{m.target}: ") or error.startswith(f"{m.target}, ") else f"{m.target}: {error}"
    return said + (f" ({_also(m)[2:]})" if m.also else "")


def _uri(target: str, workdir: str | None = None) -> str:
    """A target as a SARIF artifact URI: a URI reference, so every character outside the unreserved
    set and ``/`` percent-encoded (a space, ``%``, ``#``, ``?``, and ``:``, which would read as a scheme).
    A relative path stays relative (to the folder the command ran in, ``workdir``: a workflow's checkout); a path
    that is absolute or leaves that folder (``..``) is an absolute ``file:`` URI of the path made absolute from
    ``workdir`` (None: the working folder now), which code scanning makes relative to the checkout (a bare
    ``/srv/m.jsonl`` would be read as a path in the repository).

    >>> _uri("st/my table 100%.csv"), _uri("m_demo"), _uri("c:x#1"), _uri("st/été\\udcff.csv")
    ('st/my%20table%20100%25.csv', 'm_demo', 'c%3Ax%231', 'st/%C3%A9t%C3%A9%FF.csv')
    >>> _uri("/srv/data/m 1.jsonl"), _uri("/srv/../data/./x#1.csv")
    ('file:///srv/data/m%201.jsonl', 'file:///data/x%231.csv')
    >>> _uri("../m_1.jsonl", "/work/ci"), _uri("st/../../m 1.jsonl", "/work/ci"), _uri("st/m.jsonl", "/work/ci")
    ('file:///work/m_1.jsonl', 'file:///work/m%201.jsonl', 'st/m.jsonl')
    """
    outside = os.path.isabs(target) or os.path.normpath(target).split(os.sep)[0] == ".."
    if outside:
        path = os.path.normpath(os.path.join(workdir, target)) if workdir is not None else os.path.abspath(target)
    else:
        path = target
    try:
        encoded = quote(path, safe="/")
    except UnicodeEncodeError:  # a file name's bytes that are not UTF-8: percent-encoded as the bytes they are
        encoded = quote(os.fsencode(path), safe="/")
    return "file://" + encoded if outside else encoded


def _physical(file: str, line: int = 1, workdir: str | None = None) -> dict[str, Any]:
    """A SARIF physical location: ``file`` (the target's file, :meth:`MatchOutcome.file_of`: a match folder's events
    file, which the events of the evidence are in: code scanning places a finding in a file, not a folder), and as
    its region ``line`` (code scanning takes no location without ``region.startLine``, 1 or more): the line of the
    flag's first evidence event where the file holds a record a line (:attr:`MatchOutcome.lines`), else the file's
    first line (a flag is about a match, not a line of it).

    >>> _physical("m_demo"), _physical("m_1.jsonl", 12)["region"]
    ({'artifactLocation': {'uri': 'm_demo'}, 'region': {'startLine': 1}}, {'startLine': 12})
    """
    return {"artifactLocation": {"uri": _uri(file, workdir)}, "region": {"startLine": line}}


def _sarif_text(text: str) -> str:
    """A SARIF plain-text message: every control character written out (:func:`shown`: a viewer that
    prints it to a terminal or a CI log never obeys an escape sequence a name carries), and every
    literal square bracket escaped with a backslash (SARIF 2.1.0, 3.11.6), so that a name written by a
    match's author (``[open](https://…)``) is never read by a viewer as an embedded link; and every
    literal curly brace doubled (SARIF 2.1.0, 3.11.5: a consumer reads ``{0}`` as a placeholder for an
    argument and ``{{`` as a brace), so a name ``{0}`` is shown as written, not replaced or dropped.

    >>> _sarif_text("a_1 passed [open](https://x.example) 3")
    'a_1 passed \\\\[open\\\\](https://x.example) 3'
    >>> _sarif_text("seat {0} paid")
    'seat {{0}} paid'
    """
    return shown(text).replace("[", "\\[").replace("]", "\\]").replace("{", "{{").replace("}", "}}")


def _season_files(flag: Flag, targets: dict[str, str], first: str | None) -> list[str]:
    """The match files a season-scale flag is about, in the run's order: the match it names, else the
    matches its details list (``details["matches"]``), else the matches its evidence cites (``m_…#40``: a feed
    cycle's), each that a target of the run holds; else the run's first screened match (code-scanning viewers
    refuse a result without a file: the message and the ``season/…`` rule say the flag is the season's)."""
    named = ([flag.match] if flag.match and flag.match != "season"
             else list(flag.details.get("matches") or ()) or list(season_cited(flag)))
    files = [targets[m] for m in dict.fromkeys(named) if isinstance(m, str) and m in targets]
    order = list(targets.values())
    files.sort(key=order.index)
    return files or ([first] if first is not None else [])


def _season_places(flag: Flag, run: ScreenRun) -> list[tuple[str, int | None]]:
    """Each file a season-scale flag is about (:func:`_season_files`, in order; a match folder's events file,
    :meth:`MatchOutcome.file_of`), with the line of the event its evidence cites first in that file's match
    (:func:`~daishi_forensics.report.screening.season_cited`), where the file holds a record a line and that line
    was looked up (:attr:`MatchOutcome.lines`), else None."""
    screened = [m for m in run.matches if m.result is not None]
    targets = {m.match_id: m.target for m in screened if m.match_id is not None}
    of = {m.target: m for m in screened}
    cited = season_cited(flag)
    places: list[tuple[str, int | None]] = []
    for file in _season_files(flag, targets, screened[0].target if screened else None):
        m = of.get(file)
        eid = cited.get(m.match_id) if m is not None and m.match_id is not None else None
        places.append((m.file_of(file) if m is not None else file,
                       m.lines.get(eid) if m is not None and eid is not None else None))
    return places


def _file_name(target: str) -> str:
    """The last part of the path ``target`` names (``tx.csv`` for ``./tx.csv``, ``/data/tx.csv`` or
    ``link/tx.csv``), the target itself when it has none (``-``).

    >>> _file_name("./data/tx.csv"), _file_name("/srv/data/tx.csv"), _file_name("-")
    ('tx.csv', 'tx.csv', '-')
    """
    return os.path.basename(target.rstrip("/")) or target


def _result(flag: Flag, target: str | None, config: ScreenConfig, rule_index: dict[str, int],
            season_files: list[str] | None = None, also: tuple[str, ...] = (),
            match_id: str | None = None, lines: Mapping[Any, int] | None = None,
            season_lines: list[int | None] | None = None, files_of: Mapping[str, str] | None = None,
            also_lines: Mapping[str, Mapping[Any, int]] | None = None, workdir: str | None = None) -> dict[str, Any]:
    """``target`` None: a season-scale flag, under its own rule (``season/…``), located at the first of
    ``season_files`` (:func:`_season_files`; the others as related locations) and by its agents.  ``also``:
    the other targets holding the match (screened once), as related locations.  The fingerprint names the
    match by ``match_id`` where it has one (the flag's own match, else the target's), so the same flag has
    the same fingerprint however its file was named (relative, absolute, through a link, another form);
    a target without a match id (a table of transfers) by its file's name, not the path to it.  ``lines``: the
    target's line of each flag's first evidence event where its file has one (:attr:`MatchOutcome.lines`), the
    result's line; ``also_lines``: each of ``also``'s own (:attr:`MatchOutcome.also_lines`), its related location's
    line (line 1 where it has none).  ``season_lines``: a season-scale flag's line in each of
    ``season_files`` (:func:`_season_places`), line 1 where None.  ``files_of``: the file of ``target`` and of each of
    ``also`` where it is not the name (:attr:`MatchOutcome.files`: a match folder's events file); ``season_files``
    are files already.  ``workdir``: the folder relative targets are relative to (:func:`_uri`)."""
    names = [target, *also] if target is not None else list(season_files or ())
    files = [(files_of or {}).get(name, name) for name in names]
    at = ([(lines or {}).get(flag.evidence[0], 1) if flag.evidence else 1]
          + [(also_lines or {}).get(name, {}).get(flag.evidence[0], 1) if flag.evidence else 1 for name in also]
          if target is not None
          else [line or 1 for line in (season_lines or ())] + [1] * (len(files) - len(season_lines or ())))
    rule_id = f"{flag.screen}/{flag.kind}" if target is not None else f"season/{flag.screen}/{flag.kind}"
    fingerprint = hashlib.sha256(
        "|".join([rule_id, flag.match or match_id or name_text(_file_name(target) if target else "season"),
                  *map(str, flag.agents)]).encode()
    ).hexdigest()[:32]
    data = flag.to_dict()
    return {
        "ruleId": rule_id,
        "ruleIndex": rule_index[rule_id],
        "level": "error" if flag.level == "flag" else "warning",
        "message": {"text": _sarif_text(f"{flag.explanation} ({_significance(flag)}"
                                        + (f"; null: {flag.null})" if flag.null else ")"))},
        "locations": [{
            **({"physicalLocation": _physical(files[0], at[0], workdir)} if files else {}),
            "logicalLocations": [{"name": str(a), "kind": "member"} for a in flag.agents],
        }],
        **({"relatedLocations": [{"id": i, "physicalLocation": _physical(f, at[i], workdir),
                                  **({"message": {"text": _sarif_text(f"the same match as {target}, screened once")}}
                                     if target is not None else {})}
                                 for i, f in enumerate(files[1:], start=1)]} if len(files) > 1 else {}),
        "partialFingerprints": {"daishiFlag/v1": fingerprint},
        "properties": {
            "verdictLevel": flag.level,
            "agents": data["agents"],
            "pairs": data["pairs"],
            "score": data["score"],
            "threshold": data["threshold"],
            **{k: data[k] for k in ("pValue", "pAdjusted", "null", "tests") if k in data},
            "evidence": data["evidence"],
            "details": data["details"],
            **({"match": flag.match} if flag.match else {}),
            **config.stamp(),
        },
    }


def automation_id(command: str, category: str | None = None) -> str:
    """The run's ``automationDetails.id``: ``daishi-forensics/<command>/``, then ``category`` and a slash when given.
    It ends with a slash: in SARIF 2.1.0 (3.17.4) the part of the id before its last ``/`` is the run's category and
    the part after it the run's own instance, here none; code scanning keeps one analysis per category of a commit,
    so ``screen`` and ``screen-transfers`` (and two seasons given categories of their own) never replace each other.

    >>> automation_id("screen"), automation_id("screen-transfers"), automation_id("screen", "2026-09")
    ('daishi-forensics/screen/', 'daishi-forensics/screen-transfers/', 'daishi-forensics/screen/2026-09/')
    """
    return f"daishi-forensics/{command}/" + (f"{category}/" if category else "")


def render_sarif(run: ScreenRun, command: str = "screen", category: str | None = None) -> str:
    """SARIF 2.1.0: one result per flag (``error`` for flag, ``warning`` for review), the
    match file as the artifact, the agents as logical locations, the evidence and score
    in ``properties``; unreadable targets as error notifications, a match's unscreened parts (and the
    season's: a season-scale check left unfinished) as warning ones.  A season-scale flag has a rule of its own (``season/<screen>/<kind>``, its own
    settings), its agents as logical locations and, as its file, the first match file it is about
    (:func:`_season_files`; the others as related locations): code scanning refuses a result without one.
    A match's result is placed at the line of its flag's first evidence event where the match's file holds a
    record a line and the line was looked up (:attr:`MatchOutcome.lines`; a table of transfers: its first
    evidence row's), the other files holding the match (related locations) at that event's line in each
    (:attr:`MatchOutcome.also_lines`), every other location at the file's first line (:func:`_physical`); past the
    results code scanning shows or
    takes in a run, a warning notification says so (:func:`_within_limits`).  ``command`` (``screen``,
    ``screen-transfers``) and ``category`` (``--sarif-category``) make the run's ``automationDetails.id``
    (:func:`automation_id`)."""
    placed: list[tuple[Flag, MatchOutcome | None]] = []  # (a season-scale flag: no match's)
    for m in run.matches:
        if m.result is not None:
            placed += [(f, m) for f in m.result.flags]
    season = run.season.flags if run.season is not None else ()
    placed += [(f, None) for f in season]
    rules = (_rules((f for f, m in placed if m is not None), run.config)
             + _season_rules(season, run.config))
    index = {r["id"]: i for i, r in enumerate(rules)}
    notifications = [
        {"level": "error", "message": {"text": _sarif_text(name_text(_unread(m)))}} for m in run.matches
        if m.result is None
    ]
    failed = bool(notifications)
    notifications += [  # a verdict that does not cover the whole match: why (invalid records, a truncated log)
        {"level": "warning", "message": {"text": _sarif_text(name_text(f"{m.target}: {reason}{_also(m)}"))}}
        for m in run.matches if m.result is not None for reason in m.result.not_screened
    ] + [  # ... and a season-scale check left unfinished
        {"level": "warning", "message": {"text": _sarif_text(f"season: {reason}")}}
        for reason in (run.season.not_screened if run.season is not None else ())
    ]
    def result(f: Flag, m: MatchOutcome | None) -> dict[str, Any]:
        if m is not None:
            return _result(f, m.target, run.config, index, None, m.also, m.match_id, m.lines, files_of=m.files,
                           also_lines=m.also_lines, workdir=run.workdir)
        places = _season_places(f, run)
        return _result(f, None, run.config, index, [file for file, _ in places],
                       season_lines=[line for _, line in places], workdir=run.workdir)

    results, limits, left_out = _within_limits([result(*p) for p in placed])
    notifications += limits
    doc = {
        "$schema": _SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "daishi-forensics",
                "semanticVersion": __version__,
                "rules": rules,
            }},
            "automationDetails": {"id": automation_id(command, category)},
            "invocations": [{
                "executionSuccessful": not failed,
                "exitCode": run.exit_code,
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
            "properties": {"verdict": run.verdict, **run.config.stamp(),
                           **({"resultsLeftOut": left_out} if left_out else {})},
        }],
    }
    text: str = dumps(doc)
    return text


CODE_SCANNING_SHOWN = 5_000
"""Results of one run GitHub code scanning keeps, the most severe first (it drops the others)."""

CODE_SCANNING_MAX = 25_000
"""Results of one run past which GitHub code scanning refuses the whole file."""


def _within_limits(results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """``results`` as code scanning takes them, the warning notifications that say what it does with them, and
    how many were left out.  Up to :data:`CODE_SCANNING_SHOWN`: all, nothing said.  Up to
    :data:`CODE_SCANNING_MAX`: all, and a warning that code scanning shows only the most severe.  Past it (code
    scanning would refuse the file, and show none): the flags first, then the reviews, up to the limit, each
    in its place in the run's order, and a warning counting those left out.

    >>> def some(n, level): return [{"level": level}] * n
    >>> kept, said, left = _within_limits(some(4_999, "warning") + some(2, "error"))
    >>> (len(kept), said[0]["message"]["text"][:91], left)
    (5001, '5,001 results (2 flags, 4,999 reviews): GitHub code scanning shows the 5,000 most severe of', 0)
    >>> kept, said, left = _within_limits(some(24_999, "warning") + some(2, "error"))
    >>> (len(kept), kept[-1]["level"], kept[-3]["level"], left)
    (25000, 'error', 'warning', 1)
    """
    n = len(results)
    if n <= CODE_SCANNING_SHOWN:
        return results, [], 0
    flags = sum(1 for r in results if r["level"] == "error")
    said = f"{n:,} results ({count(flags, 'flag', thousands=True)}, {count(n - flags, 'review', thousands=True)})"
    if n <= CODE_SCANNING_MAX:
        return results, [{"level": "warning", "message": {"text": (
            f"{said}: GitHub code scanning shows the {CODE_SCANNING_SHOWN:,} most severe of a run (the flags first) "
            "and drops the others; every one is in this file, and in --format json")}}], 0
    # stable: the flags (error) before the reviews, each in the run's order; then back in the run's order
    kept = sorted(sorted(range(n), key=lambda i: results[i]["level"] != "error")[:CODE_SCANNING_MAX])
    left = n - CODE_SCANNING_MAX
    left_flags = flags - sum(1 for i in kept if results[i]["level"] == "error")
    return [results[i] for i in kept], [{"level": "warning", "message": {"text": (
        f"{said}: more than the {CODE_SCANNING_MAX:,} results of a run GitHub code scanning takes (it refuses a file "
        f"with more): the flags first, then the reviews, up to {CODE_SCANNING_MAX:,} are written, "
        f"{count(left_flags, 'flag', thousands=True)} and {count(left - left_flags, 'review', thousands=True)} "
        "left out (the last in the order of the matches); --format json lists every one")}}], left


def render(run: ScreenRun, fmt: str, width: int | None = None, *, command: str = "screen",
           category: str | None = None) -> str:
    """The run in format ``fmt`` (one of :data:`FORMATS`); text wrapped to ``width`` when given; SARIF's
    ``automationDetails.id`` from ``command`` and ``category`` (:func:`automation_id`)."""
    if fmt == "json":
        return render_json(run)
    if fmt == "github":
        return render_github(run)
    if fmt == "sarif":
        return render_sarif(run, command, category)
    return render_text(run, width)
