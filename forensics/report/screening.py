"""The Daishi adapter: screen an analysed match, and the report's ``screens`` section.

A match is replayed once (:func:`daishi_forensics.replay.analysis.analyze`); the ledger, the
contact pass, reputation and the transfers pass hold everything the screens need.
:func:`match_graph` turns them into the transfer graph
(:func:`daishi_forensics.economy.transfers.transfer_graph`); :func:`screen_match` screens it;
:func:`screens_section` is the behavior report's ``screens`` block.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import networkx as nx
from daishi_forensics import exitcodes
from daishi_forensics.report.passes import analyze
from ._aside import aside, worth_it
from daishi_forensics.errors import BadSetting, ForensicsError
from daishi_forensics.read.boundary import MatchRead, read_match
from daishi_forensics.read.validation import Problem, header_failure
from daishi_forensics.economy.reputation import ReputationPass, circular_reputation
from daishi_forensics.read.sources import Limits, MatchSource, open_match
from daishi_forensics.economy.transfers import transfer_graph, transfer_view
from daishi_forensics.read.validate import expand_targets
from daishi_forensics.read.archive import item_values
from daishi_forensics.replay.analysis import MatchAnalysis

from daishi_forensics.screens.config import ScreenConfig, load_config
from daishi_forensics.screens.flags import verdict_of
from daishi_forensics.wording import count
from daishi_forensics.screens.screening import Beside, ScreenResult, SeasonResult, screen_graph, screen_season, screen_view

__all__ = [
    "SCREEN_PASSES",
    "MatchOutcome",
    "ScreenRun",
    "content_digest",
    "evidence_lines",
    "match_graph",
    "screen_match",
    "screen_one",
    "screen_targets",
    "screens_section",
    "season_cited",
    "unscreened",
]


def _result(analysis: MatchAnalysis, name: str) -> Any:
    """The named pass's result, through the analysis's cache when it has one (the behavior
    report has already asked for the ledger, reputation and contact: they are not rebuilt)."""
    cached = getattr(analysis, "result", None)
    if callable(cached):
        return cached(name)
    producer = analysis.passes[name].result
    return producer(item_values(analysis.archive)) if name == "ledger" else producer()


def _circular(analysis: MatchAnalysis, ledger: Any) -> dict[str, float]:
    if analysis.passes.get("reputation") is not None:
        points = _result(analysis, "reputation")
    else:  # replay the engine's reputation from the ledger's trades (log order)
        rep = ReputationPass()
        for trade in ledger.trades:
            rep.observe({"type": "trade_completed", "id": trade.event_ids[0] if trade.event_ids else None,
                         "payload": trade.payload()}, None)
        points = rep.result()
    try:
        circular: dict[str, float] = circular_reputation(points, ledger.net_shares())
    except ValueError:
        return {}
    return circular


def _match_inputs(analysis: MatchAnalysis) -> tuple[dict[str, Any], list[str]]:
    """The arguments of :func:`transfer_graph` for an analysed match, and the notes on the
    passes that did not run."""
    archive: Mapping[str, Any] = analysis.archive
    values = item_values(archive)
    notes: list[str] = []
    if analysis.passes.get("ledger") is not None:
        ledger = _result(analysis, "ledger")
        trades = ledger.trades
        circular = _circular(analysis, ledger)
    else:
        trades, circular = (), {}
        notes.append("not screened: trades (the ledger pass did not run)")
    transfers = _result(analysis, "transfers") if analysis.passes.get("transfers") is not None else None
    if transfers is None:
        notes.append("not screened: raids, thefts, attacks and market fills (the transfers pass did not run)")
    contact = None
    if analysis.passes.get("contact") is not None:
        contact = {(p.a, p.b): p.ticks_together for p in _result(analysis, "contact").pairs if p.ticks_together > 0}
    name = analysis.read.match_id if getattr(analysis, "read", None) is not None else None
    if archive.get("agents") is None:
        notes.append("the archive lists no agents: seats are taken from the log")
    return {"archive": archive, "trades": trades, "transfers": transfers, "contact": contact, "circular": circular,
            "values": values, "name": name or archive.get("matchId")}, notes


def match_graph(analysis: MatchAnalysis) -> nx.MultiDiGraph:
    """The transfer graph of an analysed match (:class:`daishi_forensics.replay.analysis.MatchAnalysis`).

    Reads the ``ledger`` pass (trades), the ``transfers`` pass (raids, thefts, attacks,
    market fills, roster), the ``contact`` pass (ticks together) and reputation.  A pass
    that did not run is said in the graph's ``not_screened`` notes.
    """
    inputs, notes = _match_inputs(analysis)
    graph = transfer_graph(**inputs)
    graph.graph["not_screened"] = [*notes, *graph.graph.get("not_screened", [])]
    return graph


def screen_match(analysis: MatchAnalysis, config: ScreenConfig | Mapping[str, Any] | None = None, *,
                 beside: Beside | None = None) -> ScreenResult:
    """Screen an analysed match: :func:`screen_graph` of :func:`match_graph`, read without
    storing every transfer in the graph first (:func:`daishi_forensics.economy.transfers.transfer_view`).
    ``beside``: some screens may run in another process it starts (:func:`screen_view`)."""
    config = config if isinstance(config, ScreenConfig) else load_config(config)
    inputs, notes = _match_inputs(analysis)
    view = transfer_view(**inputs, exempt_roles=config.exempt_roles,
                         fair_ratio=float(config.general.get("fair_ratio", 2.0)))
    view.graph.graph["not_screened"] = [*notes, *view.graph.graph.get("not_screened", [])]
    return screen_view(view, config, beside=beside)


def screens_section(analysis: MatchAnalysis, config: ScreenConfig | Mapping[str, Any] | None = None, *,
                    beside: Beside | None = None) -> dict[str, Any]:
    """The behavior report's ``screens`` section: JSON-ready, deterministic ordering.

    ``{"verdict", "configVersion", "configDigest", "flags": [...], "notScreened": [...]}``;
    each flag has ``screen``, ``kind``, ``level``, ``agents``, ``pairs``, ``score``,
    ``threshold``, ``evidence`` (event ids), ``explanation`` and ``details``.
    """
    out = screen_match(analysis, config, beside=beside).to_dict()
    out.pop("match", None)
    return out


# -- the `screen` command's run: many targets, optionally a season ---------------------------

SCREEN_PASSES: tuple[str, ...] = ("contact", "ledger", "reputation", "transfers")
"""The passes the screens read; :func:`screen_targets` replays only these."""


@dataclass(frozen=True)
class MatchOutcome:
    """One target of a screen run."""

    target: str
    """The target as given (or the file found for it)."""
    match_id: str | None = None
    result: ScreenResult | None = None
    """The screens' result; None when the target could not be read or analysed."""
    error: str | None = None
    """Why it could not be screened (one line)."""
    error_code: int = 0
    """The error's exit code (3 unreadable, 1 invalid)."""
    invalid_records: int = 0
    """Records the read boundary rejected (left out of the screens; see ``validate``)."""
    invalid_header: int = 0
    """Errors in the match's header (the archive, the published scorecards, the format marker against their
    schemas: :meth:`~daishi_forensics.read.boundary.MatchRead.header_problems`); the screens read the archive's
    roles, operators and models as they stand, so a clear verdict does not clear the match."""
    truncated: tuple[str, ...] = ()
    """Why the log ends before the match did (the archive's own figures): the screens read only
    what it holds, so a clear verdict does not clear the match."""
    also: tuple[str, ...] = ()
    """The other targets of the run that hold this same match (its match id, the same archive and
    events: :func:`content_digest`), in the order given: screened once, as this one."""
    content: str | None = None
    """The :func:`content_digest` those targets share (set with :attr:`also`)."""
    conflicts_with: str | None = None
    """The target of the run that holds this match id with another archive or other events: this one
    was not screened (:attr:`error` says so, naming both)."""
    lines: Mapping[Any, int] = field(default_factory=dict, compare=False, hash=False)
    """Where the target's file holds a record a line (a stream, a folder's events file; plain or gzip), the
    line of each flag's first evidence event (:func:`evidence_lines`), by event id: where SARIF places the flag,
    and the github format's ``line=``; asked for with ``screen_targets(..., lines=True)``, else empty.  A table of
    transfers read from a file (``screen-transfers``): the line of each flag's first evidence row, by its id."""
    also_lines: Mapping[str, Mapping[Any, int]] = field(default_factory=dict, compare=False, hash=False)
    """By each of :attr:`also` whose file holds a record a line, the line of each flag's first evidence event in that
    file, looked up as :attr:`lines` are (:func:`evidence_lines`; its own line, for its blank lines and header may
    differ): where SARIF places that name's related location; asked for with ``screen_targets(..., lines=True,
    related_lines=True)``,
    else empty."""
    files: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    """By :attr:`target` and each of :attr:`also`, the file its events were read from where that is not the name
    itself: a match folder's events file (``m_…/events.jsonl`` or ``events.jsonl.gz``), set where the target is
    read (:func:`_events_file`).  A name it does not hold is its file (a stream, a bundle, a table of transfers), or
    no file (the demo, a server's match).  Where SARIF and the github format place a finding: in a file, not a
    folder (:meth:`file_of`)."""

    def file_of(self, name: str) -> str:
        """The file a finding about ``name`` (:attr:`target`, or one of :attr:`also`) is placed in (:attr:`files`).

        >>> folder = MatchOutcome("m_1", files={"m_1": "m_1/events.jsonl"})
        >>> folder.file_of("m_1"), MatchOutcome("m_1.json").file_of("m_1.json")
        ('m_1/events.jsonl', 'm_1.json')
        """
        return self.files.get(name, name)


def name_text(name: str) -> str:
    """A target's name as text a document can hold: a file name's bytes that are not UTF-8 (which
    Python keeps as lone surrogates, and a JSON writer refuses) shown as U+FFFD, as a terminal shows
    them.

    >>> name_text("st/bad\\udcffname.csv"), name_text("m_demo")
    ('st/bad�name.csv', 'm_demo')
    """
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeEncodeError:
            return name.encode("utf-8", "replace").decode("utf-8")
    return name


@dataclass(frozen=True)
class ScreenRun:
    """Everything one ``daishi-forensics screen`` run found."""

    config: ScreenConfig
    matches: tuple[MatchOutcome, ...]
    season: SeasonResult | None = None
    """The season-scale result (``--season``), None otherwise."""
    exit_zero: bool = False
    """``--exit-zero``: a findings exit (1) is 0, in :attr:`exit_code` as in the process's exit."""
    workdir: str | None = None
    """The folder the run's relative targets are relative to (the process's working folder when the targets were
    opened): a target outside it (``..``) is written in SARIF as the absolute path it named then.  None: the
    working folder when the SARIF is rendered."""

    @property
    def screened(self) -> bool:
        """Something was screened: a match (a season of which no match could be screened is nothing
        screened, not a clear season)."""
        return any(m.result is not None for m in self.matches)

    @property
    def verdict(self) -> str | None:
        """The worst verdict of the run (the season's included); None when nothing could be screened."""
        if not self.screened:
            return None
        verdicts = {m.result.verdict for m in self.matches if m.result is not None}
        if self.season is not None:
            verdicts.add(self.season.verdict)
        return "flag" if "flag" in verdicts else "review" if "review" in verdicts else "clear"

    @property
    def exit_code(self) -> int:
        """3 when a target could not be read; else 1 when a verdict is review/flag (or a target
        was invalid, or its log truncated), or when nothing could be screened (every target invalid);
        either 1 is 0 with :attr:`exit_zero`, as the process's exit is (``--exit-zero`` turns every 1
        into 0); else 0."""
        if any(m.error_code == exitcodes.UNREADABLE for m in self.matches):
            return int(exitcodes.UNREADABLE)
        if not self.screened:
            return int(exitcodes.OK if self.exit_zero else exitcodes.FINDINGS)
        if self.verdict != "clear" or any(m.error or m.invalid_records or m.invalid_header or m.truncated
                                            for m in self.matches):
            return int(exitcodes.OK if self.exit_zero else exitcodes.FINDINGS)
        return int(exitcodes.OK)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``screensVersion`` 1; deterministic)."""
        out: dict[str, Any] = {
            "screensVersion": 1,
            **self.config.stamp(),
            "verdict": self.verdict,
            "exitCode": self.exit_code,
            "matches": [],
        }
        for m in self.matches:
            entry: dict[str, Any] = {"target": name_text(m.target), "matchId": m.match_id}
            if m.also:
                entry["alsoTargets"] = [name_text(t) for t in m.also]
                entry["contentSha256"] = m.content
            if m.result is not None:
                entry.update(m.result.to_dict())
                entry.pop("match", None)
                entry.pop("configVersion", None)
                entry.pop("configDigest", None)
            else:
                entry.update({"verdict": None, "error": name_text(m.error) if m.error else m.error})
            if m.invalid_records:
                entry["invalidRecords"] = m.invalid_records
            if m.invalid_header:
                entry["invalidHeader"] = m.invalid_header
            if m.truncated:
                entry["truncated"] = list(m.truncated)
            out["matches"].append(entry)
        if self.season is not None:
            season = self.season.to_dict()["season"]
            out["season"] = {"verdict": verdict_of(self.season.flags) if self.screened else None, **season}
        return out


def screen_one(target: str, config: ScreenConfig, *, store: Path | None = None, server: str | None = None,
               limits: Limits | None = None) -> tuple[MatchOutcome, nx.MultiDiGraph | None]:
    """Open, read, replay (the screens' passes only) and screen one target (on a large match with a
    second CPU, the ring screen in a forked child: :func:`~daishi_forensics.report._aside.worth_it`)."""
    try:
        source = open_match(target, store=store, server=server, limits=limits)
    except BadSetting:
        raise  # the command line's fault, not this target's
    except ForensicsError as exc:
        return MatchOutcome(target, error=str(exc), error_code=exc.exit_code), None
    return _screen_source(target, source, config)


def evidence_lines(source: MatchSource, ids: Iterable[Any], *, in_order: bool) -> dict[int, int]:
    """The line of the file of ``source`` that holds each event id of ``ids``, read again from the file, for a
    source read from a file a record a line (a stream, a folder's events file; plain or gzip: the line of the
    text inflated) that the target names (its file, or the folder holding it); empty for any other (a bundle,
    standard input, a server's match, the demo).

    A record's line is the one the line reader numbered (a stream's header is line 1); an id is found by parsing
    each record (an integer id, or one written ``57.0``, which the read boundary reads as 57).  An id that no
    record holds, or that two records hold (only a log with records the read boundary refused can: which of them
    the screens read is not known here), has no line.  ``in_order``: the read found no record at fault, so ids
    rise strictly through the file and the reading stops past the highest id asked for (it reads the file up to
    the line of that id).  Else (the read refused records) an id may come again later in the file, so the reading
    goes on past it: it stops once every id asked for was seen twice (none of them can then have a line), or at
    the file's end, which is the cost in the common case (one more pass over the whole file, each record parsed
    again; memory: the ids asked for, not the file).  A file that cannot be read again, or changed since it was
    read, gives no lines."""
    wanted = {i for i in ids if isinstance(i, int) and not isinstance(i, bool)}
    where = source.file_records
    if where is None or source.form not in ("stream", "folder") or not wanted:
        return {}
    named, path = os.path.normpath(source.name), os.path.normpath(where.path)
    if path != named and os.path.dirname(path) != named:  # (the demo: its name is no file, so no line of one)
        return {}
    top = max(wanted)
    found: dict[int, int] = {}
    twice: set[int] = set()
    try:
        with closing(source.records()) as records:  # type: ignore[type-var]  # a generator: closed if left early
            for record in records:
                data, line = record[2], record[1]
                eid = data.get("id") if isinstance(data, dict) else None
                if isinstance(eid, float) and eid.is_integer():
                    eid = int(eid)
                if not isinstance(eid, int) or isinstance(eid, bool):
                    continue
                if eid in wanted and line is not None:
                    if eid in found:
                        twice.add(eid)
                        if len(twice) == len(wanted):  # every id held twice: none can have a line
                            break
                    else:
                        found[eid] = line
                if in_order and eid >= top:
                    break
    except (ForensicsError, OSError):
        return {}
    return {eid: line for eid, line in found.items() if eid not in twice}


def _events_file(source: MatchSource) -> dict[str, str]:
    """``{name: file}`` for a match folder (``source.name``: the folder): the events file its records are read from
    (``events.jsonl`` or ``events.jsonl.gz``, as the reader chose it when the folder was opened), which the events
    of the evidence are in (:attr:`MatchOutcome.files`); empty for any other form (its name is its file, or no
    file)."""
    where = source.file_records
    return {source.name: where.path} if source.form == "folder" and where is not None else {}


def season_cited(flag: Any) -> dict[str, int]:
    """By match id, the lowest event id a season-scale flag's evidence cites in that match: ``m_1#5`` (a feed's
    event, written with its match) cites event 5 of ``m_1``; a bare id (a season outlier's: its flag names the
    match, :attr:`~daishi_forensics.screens.flags.Flag.match`) an event of the flag's match.  Anything else (a
    feed with no event, ``m_1#feed``) cites none.

    >>> from daishi_forensics.screens.flags import Flag
    >>> season_cited(Flag("ring", "feed_cycle", "flag", (), (), 3.0, 3.0, ("m_1#12", "m_1#9", "m_2#feed", "m#3#40"),
    ...                   "", match="season"))
    {'m_1': 9, 'm#3': 40}
    >>> season_cited(Flag("pair_outlier", "mutual_advantage", "review", (), (), 5.0, 4.0, (30, 7), "", match="m_4"))
    {'m_4': 7}
    """
    cited: dict[str, int] = {}
    own = flag.match if isinstance(flag.match, str) and flag.match != "season" else None
    for item in flag.evidence:
        if isinstance(item, str) and "#" in item:
            match, _, text = item.rpartition("#")
            if not (text.isascii() and text.isdigit()):
                continue
            eid = int(text)
        elif isinstance(item, int) and not isinstance(item, bool) and own is not None:
            match, eid = own, item
        else:
            continue
        if match not in cited or eid < cited[match]:
            cited[match] = eid
    return cited


def unscreened(read: MatchRead, header: list[Problem]) -> list[str]:
    """What a clear verdict on this read does not cover, one ``not screened`` note each (the screens' output says
    them, and each makes the exit 1): records the read boundary rejected, a header that fails its schemas
    (``header``: :meth:`~daishi_forensics.read.boundary.MatchRead.header_errors`, read once by the caller; its
    archive read as it stands), a log that ends before the match did.  ``screen`` and ``season screen`` alike."""
    notes = []
    invalid = read.stats.invalid
    if invalid:
        notes.append(f"not screened: {count(invalid, 'invalid record')} the read boundary rejected (run validate)")
    if header:
        notes.append(f"not screened as the format defines it: {header_failure(header)}, so its archive was read as "
                     "it stands (run validate)")
    truncated = read.stats.truncated
    if truncated:
        notes.append("not screened: what the log no longer holds; the log is truncated: " + "; ".join(truncated))
    return notes


def _screen_source(target: str, source: MatchSource, config: ScreenConfig,
                   lines: bool = False) -> tuple[MatchOutcome, nx.MultiDiGraph | None]:
    """:func:`screen_one` of a target already opened; ``lines``: with the line of each flag's first evidence event
    (:func:`evidence_lines`)."""
    try:
        read = read_match(source)
        analysis = analyze(read, only=SCREEN_PASSES)
        graph = match_graph(analysis)
    except BadSetting:
        raise  # the command line's fault, not this target's
    except ForensicsError as exc:
        return MatchOutcome(target, error=str(exc), error_code=exc.exit_code), None
    invalid = read.stats.invalid
    header = read.header_errors()
    truncated = tuple(read.stats.truncated or ())
    graph.graph["not_screened"] = [*graph.graph.get("not_screened", []), *unscreened(read, header)]
    result = screen_graph(graph, config, beside=aside if worth_it(analysis.timeline.events) else None)
    if source.notes:  # what the read accepted (a byte-order mark, a file named for another match): said once
        result = replace(result, notes=(*source.notes, *result.notes))
    found = (evidence_lines(source, (f.evidence[0] for f in result.flags), in_order=not invalid)
             if lines and result.flags else {})
    return MatchOutcome(source.name, read.match_id, result, invalid_records=invalid, invalid_header=len(header),
                        truncated=truncated,
                        lines=found, files=_events_file(source)), graph


def _canonical(value: Any) -> bytes:
    """``value`` as JSON text of one spelling (keys sorted, no spaces, every non-ASCII character and lone
    surrogate escaped), whatever the form it was read from; a value nested too deep for the encoder is
    walked here instead.

    >>> _canonical({"b": [1, 2.5, None], "a": "\u00e9"})
    b'{"a":"\\\\u00e9","b":[1,2.5,null]}'
    """
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")
    except RecursionError:
        pass
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Token):
            parts.append(item.text)
        elif isinstance(item, dict):
            inner: list[Any] = []
            for k, key in enumerate(sorted(item)):
                inner += [_Token(("," if k else "") + json.dumps(key, ensure_ascii=True) + ":"), item[key]]
            stack += [_Token("}"), *reversed(inner), _Token("{")]
        elif isinstance(item, list):
            inner = []
            for k, element in enumerate(item):
                inner += [_Token(",")] if k else []
                inner.append(element)
            stack += [_Token("]"), *reversed(inner), _Token("[")]
        else:
            parts.append(json.dumps(item, ensure_ascii=True))
    return "".join(parts).encode("ascii")


@dataclass(frozen=True)
class _Token:
    """A piece of JSON syntax on :func:`_canonical`'s stack (not a value to encode)."""

    text: str


def content_digest(source: MatchSource) -> str:
    """The SHA-256 of what a match holds, whichever form it comes in (a stream and a bundle of one
    match, or a copy of a file, have the same): its archive, then every event record as parsed, in log
    order, each in one spelling (:func:`_canonical`); a record that is not JSON by its text (or its parse
    error).  Reads the source's records (once)."""
    digest = hashlib.sha256(_canonical(source.archive))
    for record in source.records():  # (index, line, data, error[, text]): a reader may yield plain tuples
        data, error = record[2], record[3]
        text = record[4] if len(record) > 4 else None
        digest.update(b"\n")
        if data is None and error is not None:
            digest.update(b"!" + (text if isinstance(text, bytes) else str(error).encode("utf-8", "replace")))
        else:
            digest.update(_canonical(data))
    return digest.hexdigest()


def _identity(target: str, source: MatchSource) -> str | None:
    """What makes two targets of a run one match: its match id; else the file or folder a path
    resolves to (links followed); else nothing (told apart by name alone)."""
    if source.match_id is not None:
        return f"id:{source.match_id}"
    try:
        path = Path(target)
        return f"path:{path.resolve()}" if path.exists() else None
    except OSError:
        return None


def screen_targets(targets: Sequence[str], *, season: Path | None = None,
                   config: ScreenConfig | Mapping[str, Any] | Path | str | None = None,
                   store: Path | None = None, server: str | None = None,
                   limits: Limits | None = None, lines: bool = False, related_lines: bool = False) -> ScreenRun:
    """Screen every target (a folder that is not a match stands for the matches in it);
    with ``season``, the matches in that folder join them and the whole is also screened
    as one season (:func:`screen_season`).  ``lines``: each match read from a file a record a line
    has the line of each flag's first evidence event (:attr:`MatchOutcome.lines`, for SARIF and the github
    format).  ``related_lines`` (with ``lines``): a target that is an earlier one's match again has those lines in
    its own file too (:attr:`MatchOutcome.also_lines`, SARIF's related locations; the github format names the
    first file only, so it leaves them)."""
    cfg = config if isinstance(config, ScreenConfig) else load_config(config)
    # a file named twice (a target that is also in the --season folder, or the folder given as a target too)
    # is screened once: the verdict counts each match it read once
    names = list(dict.fromkeys(expand_targets(list(targets) + ([str(season)] if season is not None else []))))
    # one match under two names (a copy in another folder, its stream and its bundle) is screened once too: the
    # later target is the first's, when it holds the same archive and events; with others, it is refused
    outcomes: list[MatchOutcome] = []
    graphs: list[nx.MultiDiGraph] = []
    results: list[ScreenResult] = []
    first: dict[str, tuple[str, int]] = {}  # identity -> the target as given, its place in outcomes
    opened: dict[int, MatchSource] = {}  # place in outcomes -> its source, to look up a season flag's lines
    digests: dict[str, str] = {}
    again: list[str] = []
    for name in names:
        try:
            source = open_match(name, store=store, server=server, limits=limits)
        except BadSetting:
            raise  # the command line's fault, not this target's
        except ForensicsError as exc:
            outcomes.append(MatchOutcome(name, error=str(exc), error_code=exc.exit_code))
            continue
        identity = _identity(name, source)
        if identity is not None and identity in first:
            given, at = first[identity]
            outcome = _again(outcomes[at], given, source, digests, store=store, server=server, limits=limits)
            if outcome is None:  # the same match: the first's outcome names this target too
                earlier = outcomes[at]
                # the line of each flag's first evidence event in this file too (the same records: in order where
                # the first's were), for its related location
                found = (evidence_lines(source, (f.evidence[0] for f in earlier.result.flags if f.evidence),
                                        in_order=not earlier.invalid_records)
                         if lines and related_lines and earlier.result is not None and earlier.result.flags else {})
                outcomes[at] = replace(earlier, also=(*earlier.also, source.name), content=digests[given],
                                       files={**earlier.files, **_events_file(source)},
                                       also_lines={**earlier.also_lines, **({source.name: found} if found else {})})
                if outcomes[at].result is not None:
                    again.append(f"{name_text(source.name)} is {source.match_id or 'the same file'} again (as "
                                 f"{name_text(outcomes[at].target)}): counted once in the season")
            else:
                outcomes.append(outcome)
            continue
        outcome, graph = _screen_source(name, source, cfg, lines)
        if identity is not None:
            first[identity] = (name, len(outcomes))
        if lines and outcome.result is not None:
            opened[len(outcomes)] = source
        outcomes.append(outcome)
        if graph is not None and outcome.result is not None:
            graphs.append(graph)
            results.append(outcome.result)
    season_result = screen_season(graphs, cfg, results=results) if season is not None else None
    if season_result is not None and again:
        season_result = replace(season_result, notes=(*season_result.notes, *again))
    if season_result is not None and season_result.flags and opened:
        _season_lines(outcomes, opened, season_result)
    return ScreenRun(cfg, tuple(outcomes), season_result, workdir=os.getcwd())


def _season_lines(outcomes: list[MatchOutcome], opened: Mapping[int, MatchSource], season: SeasonResult) -> None:
    """Each screened match's :attr:`MatchOutcome.lines` with the line of each event a season-scale flag cites
    first in it (:func:`season_cited`), looked up as a match's own flags' are (:func:`evidence_lines`): where SARIF
    and the github format place the flag in that match's file.  Only the files of matches a flag cites are read
    again, for those ids alone."""
    wanted: dict[str, set[int]] = {}
    for flag in season.flags:
        for match, eid in season_cited(flag).items():
            wanted.setdefault(match, set()).add(eid)
    for at, source in opened.items():
        outcome = outcomes[at]
        ids = wanted.get(outcome.match_id) if outcome.match_id is not None else None
        ids = {i for i in ids or () if i not in outcome.lines}
        if ids:
            found = evidence_lines(source, ids, in_order=not outcome.invalid_records)
            if found:
                outcomes[at] = replace(outcome, lines={**outcome.lines, **found})


def _again(earlier: MatchOutcome, given: str, source: MatchSource, digests: dict[str, str], *,
           store: Path | None, server: str | None, limits: Limits | None) -> MatchOutcome | None:
    """None when ``source`` holds what the earlier target (``given``, its outcome ``earlier``) holds
    (:func:`content_digest`, kept in ``digests`` by target as given); else the outcome of a target not
    screened: unreadable, or one match id with other content, which of the two is the match not being
    for the screens to choose (both named)."""
    here = source.name
    try:
        mine = content_digest(source)
    except BadSetting:
        raise
    except ForensicsError as exc:
        return MatchOutcome(here, source.match_id, error=str(exc), error_code=exc.exit_code)
    try:
        if given not in digests:
            digests[given] = content_digest(open_match(given, store=store, server=server, limits=limits))
    except BadSetting:
        raise
    except ForensicsError as exc:
        return MatchOutcome(here, source.match_id, conflicts_with=earlier.target, error_code=exitcodes.UNREADABLE,
                            error=f"{here}: match {source.match_id} again, as {earlier.target}, which could not be read "
                                  f"again to compare the two ({exc}): not screened")
    if digests[given] == mine:
        return None
    return MatchOutcome(here, source.match_id, conflicts_with=earlier.target, error_code=exitcodes.UNREADABLE,
                        error=f"{here}: match {source.match_id} again, as {earlier.target}, but with another archive "
                              f"or other events (content sha256 {mine[:12]} here, {digests[given][:12]} there): not "
                              "screened; give the one that is the match")
