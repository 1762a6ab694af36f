"""Seasons: one job over many matches, in parallel, resumable, with a season summary.

A *job* is a plain function ``job(target: str, options: Mapping) -> dict`` that
analyses one match (:func:`behavior_job`, :func:`screen_job`).  :func:`run_season`
runs it over every target, in this process (``workers=1``), in a process pool on
this machine (``workers>1``) or on an existing Dask ``distributed`` scheduler
(``cluster="tcp://…"`` or a ``distributed.Client``), and writes::

    OUTDIR/matches/<name>.json   one result per match (a SeasonMatch record)
    OUTDIR/summary.json          the season summary (deterministic)
    OUTDIR/.resume/<name>.json   the resume key of each finished match
    OUTDIR/.stale/matches/       results of matches no longer among the targets, set aside

**Stale results.**  Before it runs, a season sets aside what an earlier run wrote for a target
that is no longer one (a match removed from the folder, or renamed: a new same-stem file renames
``m_X.json`` to ``m_X-<hash>.json``): each such result file moves to ``OUTDIR/.stale/matches/``
(replacing an older one of that name) and each such resume key is removed, so ``matches/`` holds
this season's results and nothing else, as the summary does.  The summary lists the files moved
(``stale``, :func:`set_aside_stale`).

**What a job returns.**  A JSON-ready dict with ``exitCode`` (0 nothing found, 1
findings) and, for the summary, optionally ``matchId``, ``verdict``
(``clear``/``review``/``flag``), ``flags`` (dicts with ``screen`` and ``level``),
``seats`` (``[{"agentId", "operator"}]``) and ``transfers`` (``[{"a", "b",
"aGave", "bGave", "trades"}]``, value each side of a pair ``a < b`` gave the
other).  Everything else it returns is kept in the match's result file.  A job may
add a season-scale step (:attr:`Job.season`): the ``screen`` job hands every match's
transfer graph to the screens' own :func:`~daishi_forensics.screens.screen_season`
(feeds and cycles across matches, recurring pairs, season-wide pair outliers).

**The summary** (``summary.json``, ``seasonVersion`` 1): per match its status,
verdict, number of flags and, when the verdict is review or flag, its top flag
(:func:`top_flag`: screen, kind, level, agents, adjusted p-value, explanation; a
behavior report's screens count as the match's verdict) and the error line of an
unreadable one; counts;
verdicts; flag counts per screen; ``graph``, the season's net-transfer table per pair
of agents and per pair of operators with the pairs that recur (:func:`season_graph`);
``stale``, the results of earlier targets this run set aside; and ``season``, the job's
season-scale step.  A folder given as a target that holds no match is in no count (it is no
match) but is listed among ``unreadable`` (status ``unreadable``, its error line) and makes the
summary's exit code 3, as it makes the command's.

**Failures.**  A target that cannot be read (:class:`~daishi_forensics.errors.
ForensicsError`: missing, truncated, not JSON, a server that failed) is recorded
as ``unreadable`` with its one-line error; any other exception inside a job (a bug)
is recorded as ``failed`` with ``ExceptionType: message`` and exit code 70.  Neither
stops the season.  A :class:`~daishi_forensics.errors.BadSetting` (an unusable option
or variable) does: it is the command line's fault, not a match's.

**Resume.**  A match is done when ``.resume/<name>.json`` holds the same key as
this run would compute *and* the sha-256 of the result file it was written with.
The key is the target, the reading limits in force (a match refused for a limit is read again once
the limit changed), a fingerprint of the input (per file: size, mtime in ns and
the sha-256 of its first 64 KiB; with ``verify``, size and the sha-256 of the whole
file instead; a folder fingerprints its ``archive.json``, ``events.jsonl[.gz]`` and
``report.json``), the job's name, the job's version
(tool version, report version, screen configuration version and digest) and the
options (store, server, configuration).  The worker that ran a match writes its result
file (temp file + ``os.replace``), then at once its key with the sha-256 of those bytes (the
same way), and sends back only a small record: a run stopped at any point (Ctrl-C included)
keeps every match whose result and key were written, even one whose record never came back.  Neither is synced on the spot:
a thread syncs them in batches and the season waits for the last batch before it writes the
summary (:mod:`daishi_forensics.batch.journal`).  A key is written only once its result is in
place and is trusted only when the result's bytes still hash to it, so a run killed at any
point (the process, a worker, the machine) never counts a match as done without its whole
result, and a changed input, job version or option is redone.  A ``failed`` match gets
no key (it is tried again); an ``unreadable`` one keeps its key (the same bytes
give the same error).  A match on a Daishi server has no fingerprint and is always
fetched again.

**Determinism.**  Result files and the summary go through
:func:`daishi_forensics.jsonio.dumps`; the summary is built from the results sorted
by target, with no timestamps, durations or worker counts, so one worker, a pool
or a cluster, in any completion order, writes the same bytes.

**Exit code** (:attr:`SeasonResult.exit_code`): 70 when any match's job failed (a bug),
else 3 when any input was unreadable, else 1 when any match has findings (a verdict of
review/flag, invalid records, a finding of the behavior report) or the season-scale step
raised a flag, else 0.  A failure or an unreadable input wins over findings: the season
is then incomplete, and the findings it did find are in the summary either way.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import hashlib
import os
import re
import time
from collections import defaultdict
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Any

import orjson

from daishi_forensics import exitcodes
from daishi_forensics.version import __version__
from daishi_forensics.arithmetic import half_up
from daishi_forensics.errors import BadSetting, ForensicsError, InputUnreadable, OutputError
from daishi_forensics.outputs import write_file
from daishi_forensics.jsonio import dumps, shown as shown_value
from daishi_forensics.read.sources import (DEMO_ID, MATCH_SUFFIXES, Limits, _find_in_store, default_store, is_match_folder,
                                          is_match_id, matches_in, redact_url)

from .journal import Syncer, remove_file, replace_file
from .pool import PoolCpu, map_chunks, start_pool

__all__ = [
    "SEASON_VERSION",
    "Job",
    "JOBS",
    "SeasonMatch",
    "SeasonResult",
    "behavior_job",
    "screen_job",
    "empty_folder_row",
    "expand_targets",
    "input_fingerprint",
    "input_size",
    "job_written",
    "largest_first",
    "resume_key",
    "result_names",
    "run_match",
    "run_season",
    "findings_reason",
    "once_per_match",
    "output_overlap",
    "season_graph",
    "season_summary",
    "set_aside_stale",
    "stale_names",
]

SEASON_VERSION = 1
"""Version of the result-file and summary formats (``seasonVersion``)."""

HEAD_BYTES = 64 << 10

JobFunction = Callable[[str, Mapping[str, Any]], dict[str, Any]]


# --------------------------------------------------------------------------- jobs


@dataclass(frozen=True)
class Job:
    """A per-match job the season runs."""

    name: str
    """Its name (``behavior``, ``screen``), stamped in every result and resume key."""
    run: JobFunction
    """``run(target, options) -> dict`` (module-level, so a process pool or a Dask
    worker can import it)."""
    version: Callable[[Mapping[str, Any]], str]
    """``version(options) -> str``: what changes the job's output for the same input
    (tool, report and configuration versions).  Part of the resume key."""
    season: Callable[[Sequence[SeasonMatch], Mapping[str, Any]], dict[str, Any]] | None = None
    """Optional season-scale step over every match (results sorted by target), run in
    this process after the matches: its dict becomes the summary's ``season`` and its
    ``verdict`` (review/flag) counts as findings."""


def _input_kwargs(options: Mapping[str, Any]) -> dict[str, Any]:
    store = options.get("store")
    return {"store": Path(store) if store else None, "server": options.get("server") or None}


def behavior_job(target: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The behavior report of one match, with its seats and transfers for the season graph.

    ``transfers`` is one row per ledger pair: ``aGave``/``bGave`` are the report's
    ``valueAGave``/``valueBGave`` (the value each side of the pair gave the other).
    """
    from daishi_forensics.report.behavior import behavior

    result = behavior(target, **_input_kwargs(options))
    report = result.report
    return {
        "exitCode": result.exit_code,
        "matchId": report.get("matchId"),
        "seats": _checked_seats(target, [{"agentId": s["agentId"], "operator": s.get("operator")}
                                         for s in report["seats"]]),
        "transfers": [
            {"a": p["a"], "b": p["b"], "aGave": p["valueAGave"], "bGave": p["valueBGave"], "trades": p["trades"]}
            for p in report["ledger"]["pairs"]
        ],
        "report": report,
    }


def _checked_seats(target: str, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats as the season tables key them: every ``agentId`` a string and every ``operator`` a
    string or absent.  Any other value is refused (:class:`~daishi_forensics.errors.InputUnreadable`,
    so the match is recorded unreadable and the season goes on) naming the agent and the value."""
    for seat in seats:
        agent, operator = seat.get("agentId"), seat.get("operator")
        if not isinstance(agent, str):
            raise InputUnreadable(f"an archive agent's agentId is {agent!r}, not a string: the season cannot "
                                  "table this match (validate lists every such field)", file=target,
                                  field="archive.agents")
        if operator is not None and not isinstance(operator, str):
            raise InputUnreadable(f"agent {agent}'s operator is {operator!r}, not a string: the season cannot "
                                  "table this match by operator (validate lists every such field)",
                                  file=target, field="archive.agents[].operator")
    return seats


def _behavior_version(options: Mapping[str, Any]) -> str:
    from daishi_forensics.report.assembly import REPORT_VERSION

    return f"daishi-forensics {__version__}; behavior report {REPORT_VERSION}"


def screen_job(target: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The collusion screens on one match (:func:`daishi_forensics.screens.screen_graph` on the
    match's transfer graph): ``verdict``, ``flags``, ``configVersion``/``configDigest``,
    ``notScreened``; plus ``seats`` and ``transfers`` (the trade ledger, as in
    :func:`behavior_job`) for the season table, and ``graph`` (the transfer graph, see
    :func:`graph_to_json`) for the season-scale screens.  ``exitCode`` is 1 when the
    verdict is ``review`` or ``flag``, or the input held invalid records or a header that fails its schemas
    (``invalidHeader``: how many errors; the archive is read as it stands), or its log ends before the match did
    (``truncated``: the evidence); each is also a ``notScreened`` note, as ``screen`` gives it.
    """
    from daishi_forensics.screens import load_config, screen_graph
    from daishi_forensics.report.screening import match_graph, unscreened

    from daishi_forensics.report.passes import analyze
    from daishi_forensics.read.boundary import read_match
    from daishi_forensics.report.assembly import seat_ids
    from daishi_forensics.read.sources import open_match

    config = load_config(options.get("config"))
    source = open_match(target, **_input_kwargs(options))
    analysis = analyze(read_match(source))
    graph = match_graph(analysis)
    header_errors = analysis.read.header_errors()
    graph.graph["not_screened"] = [*graph.graph.get("not_screened", []),
                                   *unscreened(analysis.read, header_errors)]  # as screen
    result = screen_graph(graph, config)
    if source.notes:  # what the read accepted (a byte-order mark, a file named for another match), as screen says it
        result = dataclasses.replace(result, notes=(*source.notes, *result.notes))
    invalid = analysis.read.stats.invalid
    header = len(header_errors)  # read as it stands, as screen says
    truncated = list(analysis.read.stats.truncated)  # what the log no longer holds is not screened
    operators = {a["agentId"]: a.get("operator") for a in analysis.archive.get("agents") or []
                 if isinstance(a, dict) and isinstance(a.get("agentId"), str)}
    ledger = analysis.result("ledger")
    return {
        **result.to_dict(),
        "exitCode": (exitcodes.OK if result.verdict == "clear" and not invalid and not header and not truncated
                     else exitcodes.FINDINGS),
        "matchId": analysis.read.match_id,
        "invalid": invalid,
        **({"invalidHeader": header} if header else {}),
        **({"truncated": truncated} if truncated else {}),
        "seats": _checked_seats(target, [{"agentId": a, "operator": operators.get(a)} for a in seat_ids(analysis)]),
        "transfers": [
            {"a": p.a, "b": p.b, "aGave": half_up(p.value_a_gave, 2), "bGave": half_up(p.value_b_gave, 2),
             "trades": p.trades}
            for p in ledger.pairs
        ],
        "graph": graph_to_json(graph),
    }


def _screen_version(options: Mapping[str, Any]) -> str:
    from daishi_forensics.screens import load_config

    config = load_config(options.get("config"))
    return f"daishi-forensics {__version__}; screens config {config.version} {config.digest}"


def _screen_season(matches: Sequence[SeasonMatch], options: Mapping[str, Any]) -> dict[str, Any]:
    """The screens' season scale (:func:`daishi_forensics.screens.screen_season`) over the
    transfer graphs of every match read, in target order."""
    from daishi_forensics.screens import load_config, screen_season

    graphs = [graph_from_json(m.result["graph"]) for m in sorted(matches, key=lambda m: m.target)
              if m.result and m.result.get("graph") is not None]
    if not graphs:
        return {"verdict": "clear", "flags": [], "notScreened": ["no match could be read"]}
    season = screen_season(graphs, load_config(options.get("config"))).to_dict()
    flags = season["season"]["flags"]
    levels = {f["level"] for f in flags}
    return {"verdict": "flag" if "flag" in levels else "review" if levels else "clear", "flags": flags,
            "notScreened": season["season"]["notScreened"]}


# --------------------------------------------------------------------------- graphs as JSON


def _encode(value: Any) -> Any:
    if isinstance(value, tuple):
        return {"~t": [_encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"~s": [_encode(v) for v in sorted(value, key=repr)]}
    if isinstance(value, Mapping):
        if all(isinstance(k, str) for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"~d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if len(value) == 1:
            (tag, inner), = value.items()
            if tag == "~t":
                return tuple(_decode(v) for v in inner)
            if tag == "~s":
                return frozenset(_decode(v) for v in inner)
            if tag == "~d":
                return {_decode(k): _decode(v) for k, v in inner}
        return {k: _decode(v) for k, v in value.items()}
    return value


def graph_to_json(graph: Any) -> dict[str, Any]:
    """A transfer multigraph as JSON, keeping tuples, sets and tuple-keyed maps (tagged
    ``{"~t": …}``, ``{"~s": …}``, ``{"~d": [[k, v], …]}``) and the order of nodes and edges,
    so :func:`graph_from_json` gives back an equal graph.

    >>> import networkx as nx
    >>> g = nx.MultiDiGraph(contact={("a", "b"): 3})
    >>> _ = g.add_edge("a", "b", value=1.5, events=(1, 2))
    >>> h = graph_from_json(orjson.loads(orjson.dumps(graph_to_json(g))))
    >>> h.graph["contact"], list(h.edges(keys=True, data=True))
    ({('a', 'b'): 3}, [('a', 'b', 0, {'value': 1.5, 'events': (1, 2)})])
    """
    return {
        "graph": _encode(dict(graph.graph)),
        "nodes": [[_encode(n), _encode(d)] for n, d in graph.nodes(data=True)],
        "edges": [[_encode(u), _encode(v), _encode(k), _encode(d)] for u, v, k, d in graph.edges(keys=True, data=True)],
    }


def graph_from_json(data: Mapping[str, Any]) -> Any:
    """The :class:`networkx.MultiDiGraph` :func:`graph_to_json` wrote."""
    import networkx as nx

    graph = nx.MultiDiGraph()
    graph.graph.update(_decode(data["graph"]))
    for n, d in data["nodes"]:
        graph.add_node(_decode(n), **_decode(d))
    for u, v, k, d in data["edges"]:
        graph.add_edge(_decode(u), _decode(v), key=_decode(k), **_decode(d))
    return graph


JOBS: dict[str, Job] = {
    "behavior": Job("behavior", behavior_job, _behavior_version),
    "screen": Job("screen", screen_job, _screen_version, _screen_season),
}
"""The jobs a season can run, by name."""


# --------------------------------------------------------------------------- targets


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or inside it, both resolved (links followed)."""
    try:
        resolved, root = path.resolve(), folder.resolve()
    except (OSError, RuntimeError):
        return False
    return resolved == root or root in resolved.parents


STALE_DIR = ".stale"
"""The folder of ``OUTDIR`` where results of matches no longer among the targets are set aside."""


def own_output(out_dir: Path) -> tuple[Path, ...]:
    """The folders a season writes in ``out_dir`` and must never read matches from: its results
    (``matches/``), resume keys (``.resume/``) and stale results set aside (``.stale/``)."""
    return (out_dir / "matches", out_dir / ".resume", out_dir / STALE_DIR)


def output_overlap(items: Iterable[str], out_dir: Path) -> str | None:
    """The first input folder that is the season's own result or key folder (or inside one), where the
    results it writes would be read as matches on the next run; None when there is none."""
    for item in items:
        path = Path(item)
        if path.is_dir() and any(_inside(path, own) for own in own_output(out_dir)):
            return item
    return None


def expand_targets(items: Iterable[str], *, out_dir: Path | None = None) -> list[str]:
    """The season's targets: each item, with a folder that is not itself a match folder
    replaced by the matches in it (:func:`~daishi_forensics.read.sources.matches_in`: bundles,
    streams and match folders named ``m_…``; other files beside them, a ground truth or this
    season's own summary, are no matches).  Sorted, each once.  An ``m_…`` folder without
    ``archive.json`` is kept (``half_copied``), and so is an ``m_…`` link to nothing, so that
    reading them says why they are no match; a folder holding no match adds none.  With
    ``out_dir``, the season's own output folder and what it writes there are never taken from
    a folder.

    A folder is a match folder when it holds ``archive.json`` (contract §1).
    """
    found: set[str] = set()
    for item in items:
        path = Path(item)
        if path.is_dir() and not is_match_folder(path):
            found.update(str(child) for child in matches_in(path, half_copied=True)
                         if not (out_dir is not None and _is_output(child, out_dir)))
        else:
            found.add(item)
    return sorted(found)


def _is_output(path: Path, out_dir: Path) -> bool:
    """Whether a folder's entry is the season's output folder or something the season wrote in it."""
    return _inside(path, out_dir) and (path.resolve() == out_dir.resolve()
                                       or any(_inside(path, own) for own in own_output(out_dir)))


def _stem(target: str) -> str:
    name = Path(target.rstrip("/\\")).name or target
    for suffix in MATCH_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name).lstrip(".") or "match"


def result_names(targets: Sequence[str]) -> dict[str, str]:
    """A file name per target: its stem (``m_…``), with ``-<8 hex of sha-256(target)>``
    appended to every stem two targets share."""
    stems: dict[str, list[str]] = defaultdict(list)
    for target in targets:
        stems[_stem(target)].append(target)
    names: dict[str, str] = {}
    for stem, group in stems.items():
        for target in group:
            suffix = "" if len(group) == 1 else "-" + hashlib.sha256(target.encode()).hexdigest()[:8]
            names[target] = stem + suffix
    return names


# --------------------------------------------------------------------------- resume


def _file_fingerprint(path: Path, verify: bool) -> dict[str, Any]:
    """One file's part of a fingerprint.  Only a regular file is fingerprinted: opening a FIFO (or a link to
    one) waits for a writer, for ever, so it is opened without waiting and refused (``OSError``: the match
    is not fingerprinted, so never trusted, and reading it says why it is no match)."""
    digest = hashlib.sha256()
    with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:
        stat = os.fstat(handle.fileno())
        if not S_ISREG(stat.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if not verify:
            digest.update(handle.read(HEAD_BYTES))
            return {"name": path.name, "size": stat.st_size, "mtimeNs": stat.st_mtime_ns,
                    "head": digest.hexdigest()}
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return {"name": path.name, "size": stat.st_size, "sha256": digest.hexdigest()}


def _path_fingerprint(path: Path, verify: bool) -> list[dict[str, Any]]:
    if path.is_dir():
        parts = ("archive.json", "events.jsonl", "events.jsonl.gz", "report.json")
        return [_file_fingerprint(path / p, verify) for p in parts if (path / p).is_file()]
    return [_file_fingerprint(path, verify)]


def input_fingerprint(target: str, options: Mapping[str, Any], *, verify: bool = False) -> list[dict[str, Any]] | None:
    """What identifies the input's content, or ``None`` when it cannot be fingerprinted (a
    match on a server, or a target that does not resolve: never trusted, always redone).

    By default, without reading it whole, per file: ``size``, ``mtimeNs`` and ``head``
    (sha-256 of the first 64 KiB, which holds a stream's header line with the archive).
    Fast, but an edit past the first 64 KiB that keeps the size and puts the mtime back
    goes unseen.  With ``verify``: ``size`` and ``sha256`` of the whole file (every byte
    read; a touched but unchanged file is not redone).  ``m_demo`` is fingerprinted by
    the tool's version; an ``m_<id>`` by the file it resolves to in the store.
    """
    try:
        path = Path(target)
        if path.exists():
            return _path_fingerprint(path, verify)
        if target == DEMO_ID:
            return [{"name": DEMO_ID, "toolVersion": __version__}]
        if is_match_id(target):
            store = options.get("store")
            found = _find_in_store(target, Path(store) if store else default_store())
            if found is not None:
                return _path_fingerprint(found, verify)
    except OSError:
        return None
    return None


def resume_key(target: str, job: Job, options: Mapping[str, Any], *, verify: bool = False) -> dict[str, Any]:
    """The key a finished match is stored under (see the module docs)."""
    return {
        "seasonVersion": SEASON_VERSION,
        "target": target,
        "input": input_fingerprint(target, options, verify=verify),
        "job": job.name,
        "jobVersion": job.version(options),
        "options": _public(options),
        "limits": _limits(),
    }


def _limits() -> dict[str, Any]:
    """The reading limits in force (:class:`~daishi_forensics.read.sources.Limits`, from the environment),
    part of the resume key: a match refused for a limit is read again once the limit changed."""
    return dataclasses.asdict(Limits())


def _public(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as written to result and summary files: a server address without its password
    or query values (:func:`~daishi_forensics.read.sources.redact_url`), sorted."""
    shown = dict(sorted(options.items()))
    if isinstance(shown.get("server"), str):
        shown["server"] = redact_url(shown["server"])
    return shown


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a hidden temp file beside ``path``, fsync it and rename it over
    ``path`` (readers see the old file or the new one, never half of one)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder ({exc.strerror or exc})", file=str(path.parent)) from None
    write_file(path, data)


def _is_done(out_dir: Path, name: str, key: Mapping[str, Any]) -> bool:
    if key["input"] is None:
        return False
    key_path = out_dir / ".resume" / f"{name}.json"
    result_path = out_dir / "matches" / f"{name}.json"
    try:
        stored = orjson.loads(key_path.read_bytes())
        data = result_path.read_bytes()
    except (OSError, orjson.JSONDecodeError):
        return False
    return bool(stored.get("key") == key and stored.get("resultSha256") == hashlib.sha256(data).hexdigest())


# --------------------------------------------------------------------------- stale results


LOCK_GRACE = 5.0
"""Seconds a season waits for ``OUTDIR``'s lock before saying another season holds it: a season killed
a moment ago keeps it until its last worker has ended (a worker holds the lock's file too)."""


@contextlib.contextmanager
def _out_lock(out_dir: Path) -> Generator[None, None, None]:
    """Hold ``OUTDIR`` itself locked (an advisory ``flock`` on the folder, released when this process
    ends, however it ends) for the season's run, so that a second season into the same folder stops at
    once rather than setting aside the first one's results and writing a summary of its own over them.

    Raises
    ------
    OutputError
        ``OUTDIR`` could not be created, or another season is writing into it."""
    try:
        import fcntl
    except ImportError:  # no flock here: nothing to hold
        yield
        return
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(out_dir, os.O_RDONLY)
    except OSError as exc:
        raise OutputError(f"cannot create the folder ({exc.strerror or exc})", file=str(out_dir)) from None
    try:
        deadline = time.monotonic() + LOCK_GRACE
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() < deadline:  # a season just killed: its workers still ending
                    time.sleep(0.05)
                    continue
                raise OutputError("another season is writing into this folder; wait for it to end or give "
                                  "another --out", file=str(out_dir)) from None
            except OSError:
                pass  # a file system without locks: run unlocked
            break
        yield
    finally:
        os.close(fd)


def stale_names(folder: Path, current: Iterable[str]) -> list[str]:
    """The names (without ``.json``) of the files ``<name>.json`` in ``folder`` that are not in
    ``current``, sorted; hidden files (a temp file being written) are none.  Nothing when the folder
    is missing.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for n in ("m_1.json", "m_2.json", ".m_3.json.tmp", "notes.txt"):
    ...         _ = (Path(d) / n).write_text("{}")
    ...     stale_names(Path(d), ["m_1"])
    ['m_2']
    """
    try:
        entries = sorted(entry.name for entry in folder.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise OutputError(f"cannot list the folder ({exc.strerror or exc})", file=str(folder)) from None
    keep = set(current)
    return [name[: -len(".json")] for name in entries
            if name.endswith(".json") and not name.startswith(".") and name[: -len(".json")] not in keep]


def _stale_target(path: Path) -> str | None:
    """The target a result file says it was written for, or None when it does not read as one."""
    try:
        target = orjson.loads(path.read_bytes()).get("target")
    except (OSError, orjson.JSONDecodeError, AttributeError):
        return None
    return target if isinstance(target, str) else None


def set_aside_stale(out_dir: Path, current: Iterable[str]) -> list[dict[str, Any]]:
    """Set aside what an earlier run wrote for targets that are no longer this season's: every result
    file of ``OUTDIR/matches`` whose name is not in ``current`` moves to ``OUTDIR/.stale/matches``
    (replacing an older one of that name), and every such resume key of ``OUTDIR/.resume`` is
    removed (a key alone is no result).  Returns one ``{"file", "target", "movedTo"}`` per result
    moved (the target its file names, None when it does not read), sorted by file: the summary's
    ``stale``.  Deterministic: it depends only on the folder and ``current``."""
    names = set(current)
    for name in stale_names(out_dir / ".resume", names):
        try:
            (out_dir / ".resume" / f"{name}.json").unlink(missing_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot remove a stale resume key ({exc.strerror or exc})",
                              file=str(out_dir / ".resume" / f"{name}.json")) from None
    moved: list[dict[str, Any]] = []
    for name in stale_names(out_dir / "matches", names):
        source, aside = out_dir / "matches" / f"{name}.json", out_dir / STALE_DIR / "matches" / f"{name}.json"
        target = _stale_target(source)
        try:
            aside.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, aside)
        except OSError as exc:
            raise OutputError(f"cannot set a stale result aside ({exc.strerror or exc})", file=str(source)) from None
        moved.append({"file": f"matches/{name}.json", "target": target, "movedTo": f"{STALE_DIR}/matches/{name}.json"})
    return moved


# --------------------------------------------------------------------------- one match


@dataclass(frozen=True)
class SeasonMatch:
    """What the season keeps of one match (its result file)."""

    target: str
    """The target as given (a path, ``m_<id>`` or ``m_demo``)."""
    name: str
    """The result file's name, without ``.json``."""
    status: str
    """``ok`` (nothing found), ``findings``, ``unreadable`` (the input could not be
    read) or ``failed`` (the job raised an unexpected error)."""
    exit_code: int
    """0, 1 (findings), 3 (unreadable) or 70 (the job failed: a bug)."""
    error: str | None
    """The one-line error of an unreadable or failed match."""
    match_id: str | None
    """The match id the job read, if any."""
    result: dict[str, Any] | None = field(default=None, compare=False)
    """The job's output (``None`` when it failed)."""

    def to_dict(self, job: str) -> dict[str, Any]:
        return {
            "seasonVersion": SEASON_VERSION,
            "job": job,
            "target": self.target,
            "name": self.name,
            "status": self.status,
            "exitCode": self.exit_code,
            "error": self.error,
            "matchId": self.match_id,
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeasonMatch:
        return cls(data["target"], data["name"], data["status"], data["exitCode"], data.get("error"),
                   data.get("matchId"), data.get("result"))


def run_match(target: str, run: JobFunction, options: Mapping[str, Any]) -> dict[str, Any]:
    """Run ``run`` on one target and return ``{target, status, exitCode, error, matchId,
    result}``; never raises on a bad input or a job error (this runs on a worker)."""
    dangling = _dangling(target)
    if dangling is not None:
        return {"target": target, "status": "unreadable", "exitCode": exitcodes.UNREADABLE, "error": dangling,
                "matchId": None, "result": None}
    try:
        result = run(target, options)
    except BadSetting:
        raise  # the command line's fault, not this target's: the season stops
    except ForensicsError as exc:
        code = exc.exit_code
        status = "unreadable" if code == exitcodes.UNREADABLE else "findings"
        return {"target": target, "status": status, "exitCode": code, "error": _one_line(str(exc)),
                "matchId": None, "result": None}
    except Exception as exc:  # noqa: BLE001 - a season records a job's crash and goes on
        return {"target": target, "status": "failed", "exitCode": exitcodes.INTERNAL,
                "error": _one_line(f"{type(exc).__name__}: {exc}"), "matchId": None, "result": None}
    code = result.get("exitCode", exitcodes.OK)
    return {"target": target, "status": "ok" if code == exitcodes.OK else "findings", "exitCode": code,
            "error": None, "matchId": result.get("matchId"), "result": result}


def _dangling(target: str) -> str | None:
    """The error line of a target that is a link to nothing (a file moved, a share not mounted), else None."""
    path = Path(target)
    try:
        if not path.is_symlink() or path.exists():
            return None
        return f"{target}: a link to {os.readlink(path)}, which does not exist"
    except OSError:
        return None


def _one_line(text: str) -> str:
    return " ".join(text.split())[:2000]


# --------------------------------------------------------------------------- executors


_PRELOAD = (
    "daishi_forensics.report.behavior", "daishi_forensics.report.passes", "daishi_forensics.report.screening",
    "daishi_forensics.report.profile", "daishi_forensics.screens", "daishi_forensics.read.boundary",
    "daishi_forensics.injection.summary", "daishi_forensics.injection.utility", "daishi_forensics.injection.secrets",
    "daishi_forensics.profile.promises", "daishi_forensics.profile.negotiation", "daishi_forensics.profile.harm",
    "daishi_forensics.profile.progression", "daishi_forensics.profile.specialization",
    "daishi_forensics.profile.welfare", "daishi_forensics.injection._literals", "numpy.ma",
)
"""Modules a season's workers need, imported once before they start (by this process, which forks them, or by
their fork server; see :mod:`daishi_forensics.batch.pool`), not once per worker: the report, the passes the
analysis builds by name, and the sections it imports when it needs them (the tier rules compile their
patterns on import, and load the table of their literal tests at their first search; numpy imports its
masked arrays the first time a median is taken, as the screens' nulls do)."""


def _warm_up() -> None:
    """What every process running matches would otherwise build the first time it scrubs a text (a message
    the report cites), built once before a pool's workers fork: the secrets scanner's engine
    (:func:`~daishi_forensics.injection.secrets.nlp_model`: Presidio on spaCy, about a thousand modules
    and 0.7 s of CPU)."""
    from daishi_forensics.injection.secrets import nlp_model

    nlp_model()


def _write_result(out_dir: Path, name: str, job: str, record: Mapping[str, Any],
                  key: Mapping[str, Any]) -> dict[str, Any]:
    """Write one match's result file, then its resume key with the sha-256 of those bytes (each a temp
    file and rename, not synced: see :mod:`daishi_forensics.batch.journal`), and return what the parent
    keeps of it: the record with its light result (:func:`_light`) and that sha-256.  Whoever wrote the
    result writes its key at once, so a run stopped at any point keeps every match whose result is
    written.  A failed match, or one with no fingerprint, gets no key (an older one is removed)."""
    match = SeasonMatch(record["target"], name, record["status"], record["exitCode"], record["error"],
                        record["matchId"], record["result"])
    data = dumps(match.to_dict(job)).encode()
    sha256 = hashlib.sha256(data).hexdigest()
    key_path = out_dir / ".resume" / f"{name}.json"
    remove_file(key_path, "an old resume key")  # a key never stands beside a result it was not written with
    replace_file(out_dir / "matches" / f"{name}.json", data)
    if record["status"] != "failed" and key["input"] is not None:
        replace_file(key_path, dumps({"key": key, "resultSha256": sha256}).encode())
    return {**record, "result": _light(match).result, "sha256": sha256}


def _run_and_write(item: tuple[str, str, Mapping[str, Any]], run: JobFunction, options: Mapping[str, Any],
                   job: str, out_dir: str) -> dict[str, Any]:
    """On a worker (or in this process): run the job on ``item = (target, name, resume key)`` and write
    its result file and key; the small record of :func:`_write_result` goes back to the parent."""
    target, name, key = item
    return _write_result(Path(out_dir), name, job, run_match(target, run, options), key)


def _failed(target: str, exc: BaseException) -> dict[str, Any]:
    """The record of a match whose worker died or whose answer could not come back; a
    :class:`~daishi_forensics.errors.BadSetting` or an output error stops the season instead."""
    if isinstance(exc, (BadSetting, OutputError)):
        raise exc
    return {"target": target, "status": "failed", "exitCode": exitcodes.INTERNAL,
            "error": _one_line(f"{type(exc).__name__}: {exc}"), "matchId": None, "result": None}


def _run_local(todo: Sequence[str], names: Mapping[str, str], keys: Mapping[str, Any], run: JobFunction,
               options: Mapping[str, Any], job: str, out_dir: Path, workers: int, pool: Any,
               cpu: PoolCpu) -> Generator[dict[str, Any], None, None]:
    """Small records (result files written) of every match of ``todo``: in this process, or in
    ``pool`` (see :mod:`daishi_forensics.batch.pool`) when one was started."""
    one = functools.partial(_run_and_write, run=run, options=dict(options), job=job,
                            out_dir=os.path.abspath(out_dir))  # a worker's folder may not be this one's
    items = [(target, names[target], keys[target]) for target in todo]
    if pool is None:
        for item in items:
            yield one(item)
        return
    for (target, name, key), answer in map_chunks(pool, workers, one, items, cpu):
        if isinstance(answer, BaseException):
            if isinstance(answer, BrokenProcessPool):
                pool.shutdown(wait=True)  # no worker left that could still write this match's file
            yield _write_result(out_dir, name, job, _failed(target, answer), key)
        else:
            yield answer


def _settle(target: str, future: Any) -> dict[str, Any]:
    """A future's record, or a ``failed`` record when the worker itself died."""
    try:
        record: dict[str, Any] = future.result()
        return record
    except Exception as exc:  # noqa: BLE001 - a dead worker fails its match, not the season
        return _failed(target, exc)


CONNECT_TIMEOUT = 30.0
"""Seconds a season waits for a Dask scheduler to answer where Dask's configuration sets no connect timeout."""


def connect_timeout() -> float:
    """Seconds to wait for the scheduler of ``--cluster``: Dask's ``distributed.comm.timeouts.connect``
    (``$DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT`` or a Dask configuration file: ``30s``, ``500ms``, a number
    of seconds), :data:`CONNECT_TIMEOUT` where it sets none.  One that is no time, or not above zero, is an
    unusable setting (exit 2)."""
    import dask.config
    from dask.utils import parse_timedelta

    value = dask.config.get("distributed.comm.timeouts.connect", None)
    if value is None:
        return CONNECT_TIMEOUT
    try:
        seconds = parse_timedelta(value, default="seconds")
    except (KeyError, ValueError, TypeError, OverflowError):
        seconds = None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds < float("inf"):
        raise BadSetting(f"{shown_value(value, 40)} is no time to wait for a scheduler: give one above zero, such as 10s or "
                         "500ms", file="Dask's distributed.comm.timeouts.connect "
                                       "($DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT or a Dask configuration file)")
    return float(seconds)


def _run_cluster(todo: Sequence[str], names: Mapping[str, str], keys: Mapping[str, Any], run: JobFunction,
                 options: Mapping[str, Any], job: str, out_dir: Path, cluster: Any) -> Generator[dict[str, Any], None, None]:
    """Small records of every match of ``todo``, run on a Dask cluster.  Its workers need not see
    the output folder: they send whole results back and this process writes the files.  With nothing to
    run (no target holds a match, or every match was kept from an earlier run) it connects to no scheduler:
    nothing is asked of one (a resumed match is told by its key, read here), so a cluster down or gone
    changes nothing."""
    if not todo:
        return
    from distributed import Client, as_completed

    own = not isinstance(cluster, Client)
    if own:
        timeout = connect_timeout()
        try:
            client = Client(cluster, set_as_default=False, timeout=timeout)
        except (OSError, ValueError) as exc:  # TimeoutError is an OSError; ValueError: a bad address
            raise BadSetting(f"no Dask scheduler answered at {cluster} ({exc})",
                             file="--cluster / $DAISHI_CLUSTER") from None
    else:
        client = cluster
    try:
        futures = client.map(run_match, list(todo), run=run, options=dict(options), pure=False)
        by_key = {f.key: t for f, t in zip(futures, todo)}
        for future in as_completed(futures, loop=client.loop):
            target = by_key[future.key]
            yield _write_result(out_dir, names[target], job, _settle(target, future), keys[target])
            future.release()
    finally:
        if own:
            client.close()


# --------------------------------------------------------------------------- the season


@dataclass(frozen=True)
class SeasonResult:
    """What a season run did."""

    summary: dict[str, Any]
    """The season summary (also written to ``summary.json``)."""
    out_dir: Path
    """Where the results and the summary are."""
    ran: int
    """Matches run by this call."""
    reused: int
    """Matches whose result was kept from an earlier run (resume)."""
    worker_cpu: float | None = None
    """CPU seconds the local pool's worker processes used (each one's own clock, from its fork: anything a
    worker imported included); None when the matches ran in this process or on a cluster, or none ran."""

    @property
    def exit_code(self) -> int:
        """70 if any match's job failed (or the season-scale step did), else 3 if any input was
        unreadable, else 1 if any match has findings or the season-scale step flagged (review/flag:
        every match may be clear), else 0."""
        return int(self.summary["exitCode"])


def run_season(
    targets: Sequence[str],
    job: Job | str,
    out_dir: Path,
    *,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    cluster: Any = None,
    resume: bool = True,
    verify: bool = False,
    on_match: Callable[[SeasonMatch, bool], None] | None = None,
    empty_folders: Sequence[str] = (),
) -> SeasonResult:
    """Run ``job`` on every target, write one result per match and the season summary.

    Parameters
    ----------
    targets
        Match targets (see :func:`expand_targets` to turn folders into matches).
    job
        A :class:`Job` or the name of one in :data:`JOBS`.
    out_dir
        Output folder (created).
    options
        JSON-ready job options (``store``, ``server``, ``config``); part of the resume key.
    workers
        Processes on this machine (see :mod:`daishi_forensics.batch.pool`).  With 1, or when one
        match is left to run (a single target, a resume with one match left), the match runs in this
        process: a pool would cost more to start (forking, or a fork server's imports) than the match,
        and nothing runs beside it; a match that crashes the process then stops the season, whose
        finished matches are kept for the rerun.  Ignored with ``cluster``.
    cluster
        A Dask scheduler address (``tcp://host:8786``) or a ``distributed.Client``; not connected to when
        no match is left to run (none given, or every one kept from an earlier run).
    resume
        Keep results whose resume key still matches (False: redo every match).
    verify
        Fingerprint each input by the sha-256 of the whole file rather than its size, mtime
        and first 64 KiB (see :func:`input_fingerprint`).
    on_match
        Called in this process after each match, ``(match, reused)`` (progress bars); a match run
        now comes with the part of its result the summary reads (:func:`_light`), its file
        holds the rest.
    empty_folders
        Folders given as targets that hold no match (:func:`expand_targets` found none in them):
        listed in the summary as unreadable, with their error line (:func:`season_summary`).  With
        no ``targets`` (every folder given held none) the season runs all the same: every result an
        earlier run wrote is set aside as stale and the summary, of no match, is written.

    Returns
    -------
    SeasonResult
    """
    job = JOBS[job] if isinstance(job, str) else job
    options = dict(options or {})
    out_dir = Path(out_dir)
    targets = sorted(set(targets))
    workers = max(1, min(workers, len(targets)))  # never more processes than matches
    local = cluster is None and workers > 1 and len(targets) > 1
    with _out_lock(out_dir):
        return _run_season_locked(targets, job, out_dir, options, workers, local, cluster, resume, verify, on_match,
                                  empty_folders)


def job_written(out_dir: Path) -> str | None:
    """The job of the season an earlier run wrote into ``OUTDIR``: its summary's ``job.name``, else (a run stopped
    before its summary) the job of its first resume key, by name; None when neither says (a new folder, or files
    this tool did not write).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     before = job_written(Path(d))
    ...     _ = (Path(d) / "summary.json").write_text('{"job": {"name": "screen"}}')
    ...     before, job_written(Path(d))
    (None, 'screen')
    """
    def name(path: Path, *keys: str) -> str | None:
        try:
            value: Any = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return None
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        return value if isinstance(value, str) else None

    written = name(out_dir / "summary.json", "job", "name")
    if written is not None:
        return written
    resume = out_dir / ".resume"
    keys = sorted(resume.glob("*.json")) if resume.is_dir() else []
    return name(keys[0], "key", "job") if keys else None


def _refuse_another_job(out_dir: Path, job: Job) -> None:
    """A season writes into a folder of its own job's or a new one: ``OUTDIR`` holding another job's season
    (:func:`job_written`: ``season screen`` results, and now ``season behavior``) would have them replaced without
    a word, and a reader of its summary would take one job's results for the other's.

    Raises
    ------
    OutputError
        ``OUTDIR`` holds another job's season."""
    written = job_written(out_dir)
    if written is not None and written != job.name:
        raise OutputError(f"this folder holds a `season {written}` run's results; a `season {job.name}` run would "
                          f"replace them: give each command its own --out, or remove the folder first",
                          file=str(out_dir))


def _run_season_locked(targets: Sequence[str], job: Job, out_dir: Path, options: dict[str, Any], workers: int,
                       local: bool, cluster: Any, resume: bool, verify: bool,
                       on_match: Callable[[SeasonMatch, bool], None] | None,
                       empty_folders: Sequence[str] = ()) -> SeasonResult:
    """:func:`run_season` once ``OUTDIR`` is locked (:func:`_out_lock`)."""
    _refuse_another_job(out_dir, job)
    # every match will run (no key to resume from): the pool starts (a fork server imports) before the keys
    fresh = not (resume and (out_dir / ".resume").is_dir())
    pool = start_pool(workers, _PRELOAD, _warm_up) if local and fresh else None
    try:
        names = result_names(targets)
        stale = set_aside_stale(out_dir, names.values())
        keys = {t: resume_key(t, job, options, verify=verify) for t in targets}
        matches, todo = _resumed(out_dir, targets, names, keys, on_match) if resume else ({}, list(targets))
        if pool is None and local and len(todo) > 1:
            pool = start_pool(min(workers, len(todo)), _PRELOAD, _warm_up)
        if pool is not None or cluster is not None:
            todo = largest_first(todo, keys)
        cpu = PoolCpu()
        records = (_run_cluster(todo, names, keys, job.run, options, job.name, out_dir, cluster)
                   if cluster is not None
                   else _run_local(todo, names, keys, job.run, options, job.name, out_dir,
                                   min(workers, len(todo)), pool, cpu))
        with Syncer() as syncer:
            try:
                for record in records:
                    match = _commit(out_dir, record, names, syncer)
                    matches[match.target] = match
                    if on_match is not None:
                        on_match(match, False)
            finally:
                records.close()  # an interrupted run stops the pool or releases the cluster's tasks now
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    summary = season_summary([matches[t] for t in targets], job, options, stale, empty_folders)
    _write_atomic(out_dir / "summary.json", dumps(summary).encode())
    return SeasonResult(summary, out_dir, ran=len(todo), reused=len(targets) - len(todo),
                        worker_cpu=cpu.seconds if pool is not None else None)


def input_size(key: Mapping[str, Any]) -> float:
    """The bytes of a match's input by its resume key's fingerprint (every file of a folder; infinite
    when unknown: a match on a server, a target that does not resolve).

    >>> input_size({"input": [{"name": "archive.json", "size": 10}, {"name": "events.jsonl", "size": 90}]})
    100
    >>> input_size({"input": None})
    inf
    """
    parts = key["input"]
    return float("inf") if parts is None else sum(int(part.get("size", 0)) for part in parts)


def largest_first(todo: Sequence[str], keys: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The order matches go out to parallel workers: largest input first (:func:`input_size`; equal
    sizes in the order given), so that the last to go out are the shortest and the workers finish
    together rather than one waiting on the other's long last match.  Nothing a season writes
    depends on this order.

    >>> keys = {t: {"input": [{"size": n}]} for t, n in (("a", 5), ("b", 9), ("c", 5))} | {"d": {"input": None}}
    >>> largest_first(["a", "b", "c", "d"], keys)
    ['d', 'b', 'a', 'c']
    """
    return sorted(todo, key=lambda target: -input_size(keys[target]))


def _resumed(out_dir: Path, targets: Sequence[str], names: Mapping[str, str], keys: Mapping[str, Any],
             on_match: Callable[[SeasonMatch, bool], None] | None) -> tuple[dict[str, SeasonMatch], list[str]]:
    """``(matches kept, targets to run)``: a match is kept when its resume key still matches and
    its result file reads (:func:`_is_done`); the rest run again, in the order of ``targets``."""
    matches: dict[str, SeasonMatch] = {}
    todo: list[str] = []
    for target in targets:
        name = names[target]
        if not _is_done(out_dir, name, keys[target]):
            todo.append(target)
            continue
        try:
            loaded = SeasonMatch.from_dict(orjson.loads((out_dir / "matches" / f"{name}.json").read_bytes()))
        except (OSError, orjson.JSONDecodeError, KeyError):
            todo.append(target)
            continue
        matches[target] = _light(loaded)
        if on_match is not None:
            on_match(loaded, True)
    return matches, todo


def _commit(out_dir: Path, record: Mapping[str, Any], names: Mapping[str, str], syncer: Syncer) -> SeasonMatch:
    """After a match's result file and resume key are in place (:func:`_write_result`): hand both
    files to the syncer.  The match as the summary reads it."""
    name = names[record["target"]]
    syncer.add([out_dir / "matches" / f"{name}.json", out_dir / ".resume" / f"{name}.json"])
    return SeasonMatch(record["target"], name, record["status"], record["exitCode"], record["error"],
                       record["matchId"], record["result"])


_LEVEL_RANK = {"flag": 0, "review": 1}


def top_flag(flags: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The flag a reader should see first: the most serious level (flag before review), then the
    smallest adjusted p-value (a flag without one after those with one), then report order.  Its
    screen, kind, level, agents, adjusted p-value and explanation; None when no flag is a flag or
    review."""
    ranked = [(f, k) for k, f in enumerate(flags) if isinstance(f, Mapping) and f.get("level") in _LEVEL_RANK]
    if not ranked:
        return None

    def key(item: tuple[Mapping[str, Any], int]) -> tuple[int, int, float, int]:
        f, k = item
        p = f.get("pAdjusted", f.get("pValue"))
        has_p = isinstance(p, (int, float)) and not isinstance(p, bool)
        return _LEVEL_RANK[str(f.get("level"))], 0 if has_p else 1, float(p) if has_p else 0.0, k

    best, _k = min(ranked, key=key)
    return {k: best.get(k) for k in ("screen", "kind", "level", "agents", "pAdjusted", "explanation")}


def findings_reason(match: SeasonMatch) -> str | None:
    """Why a match with findings has them, in a few words, when its verdict is not review or flag (those
    name their top flag): the error the analysis refused it with, its invalid records, a header that fails its
    schemas, or the behavior report's findings (how many, and the first one's kind and message).  None for any
    other match.

    >>> m = lambda result, error=None: SeasonMatch("t", "t", "findings", 1, error, None, result)
    >>> findings_reason(m({"invalid": 2, "verdict": "clear"}))
    '2 invalid records'
    >>> findings_reason(m({"invalid": 0, "invalidHeader": 1, "verdict": "clear"}))
    'its header fails validation in 1 place'
    >>> findings_reason(m({"invalid": 0, "truncated": ["archive: 9 trades, log: 4"], "verdict": "clear"}))
    'its log is truncated'
    >>> findings_reason(m({"report": {"findings": [{"kind": "truncated", "message": "the log ends early"}]}}))
    '1 finding: truncated: the log ends early'
    >>> findings_reason(m(None, "t: wealth 1e15 is out of range"))
    'not analysed: t: wealth 1e15 is out of range'
    """
    if match.status != "findings":
        return None
    if match.error is not None:
        return f"not analysed: {match.error}"
    result = match.result or {}
    parts: list[str] = []
    invalid = result.get("invalid")
    if isinstance(invalid, int) and invalid:
        parts.append(f"{invalid} invalid record{'s' if invalid != 1 else ''}")
    header = result.get("invalidHeader")
    if isinstance(header, int) and header:
        parts.append(f"its header fails validation in {header} place{'s' if header != 1 else ''}")
    if result.get("truncated"):
        parts.append("its log is truncated")
    report = result.get("report")
    found = [f for f in (report.get("findings") or []) if isinstance(f, Mapping)] if isinstance(report, dict) else []
    if found:
        first = found[0]
        parts.append(f"{len(found)} finding{'s' if len(found) != 1 else ''}: {first.get('kind')}: "
                     f"{_one_line(str(first.get('message')))[:200]}")
    return "; ".join(parts) or None


def _light(match: SeasonMatch) -> SeasonMatch:
    """The match with only what the summary reads of its result (memory stays small).  A behavior
    report's screens give the match its verdict and flags, as the screen job's do."""
    result = match.result or {}
    kept: dict[str, Any] = {k: result[k] for k in ("verdict", "flags", "seats", "transfers", "graph") if k in result}
    screens = (result.get("report") or {}).get("screens") if isinstance(result.get("report"), dict) else None
    if "verdict" not in kept and isinstance(screens, dict) and screens.get("verdict") is not None:
        kept["verdict"], kept["flags"] = screens.get("verdict"), list(screens.get("flags") or [])
    if "flags" in kept:
        kept["topFlag"] = top_flag(kept["flags"])
        kept["flags"] = [{"screen": f.get("screen"), "level": f.get("level")} for f in kept["flags"]]
    reason = findings_reason(match)
    if reason is not None:
        kept["reason"] = reason
    return SeasonMatch(match.target, match.name, match.status, match.exit_code, match.error, match.match_id,
                       kept)


# --------------------------------------------------------------------------- summary


def season_summary(matches: Sequence[SeasonMatch], job: Job, options: Mapping[str, Any],
                   stale: Sequence[Mapping[str, Any]] = (), empty_folders: Sequence[str] = ()) -> dict[str, Any]:
    """The season summary: per-match status, counts, verdicts, flag counts per screen, the
    unreadable inputs with their error lines, the season's net-transfer table
    (:func:`season_graph`), the results of earlier targets set aside (``stale``, as
    :func:`set_aside_stale` gave them) and the job's season-scale step (``season``, e.g. the
    screens' :func:`~daishi_forensics.screens.screen_season`).

    Each of ``empty_folders`` (folders given that hold no match) is listed among the unreadable
    inputs (:func:`empty_folder_row`), once however often or by whichever spellings it was given
    (:func:`once_per_folder`), and makes the exit code 3 unless it is 70; it is no match, so
    it is in no count and no table.

    Deterministic: ``matches`` are sorted by target first.  A match whose seats the season cannot
    table counts as unreadable (:func:`_vetted`); a match given twice counts once (:func:`once_per_match`,
    the others listed in ``duplicates``); a season-scale step that raises makes the season fail (70)
    with its error in ``season``, and the summary is written all the same.
    """
    ordered_matches, duplicates = once_per_match([_vetted(m) for m in sorted(matches, key=lambda m: m.target)])
    counts = {"ok": 0, "findings": 0, "unreadable": 0, "failed": 0}
    verdicts: dict[str, int] = {}
    for m in ordered_matches:
        counts[m.status] = counts.get(m.status, 0) + 1
        verdict = (m.result or {}).get("verdict")
        if verdict is not None:
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
    season = _season_step(job, ordered_matches, options)
    code = _season_exit_code(ordered_matches, season, bool(empty_folders))
    out = {
        "seasonVersion": SEASON_VERSION,
        "tool": {"name": "daishi-forensics", "version": __version__},
        "job": {"name": job.name, "version": job.version(options), "options": _public(options)},
        "matches": len(ordered_matches),
        "counts": counts,
        "verdicts": dict(sorted(verdicts.items())),
        "flagCounts": dict(sorted(_flag_counts(ordered_matches).items())),
        "exitCode": code,
        "results": [_result_row(m) for m in ordered_matches],
        "unreadable": sorted([{"target": m.target, "status": m.status, "error": m.error}
                              for m in ordered_matches if m.status in ("unreadable", "failed")]
                             + [empty_folder_row(folder) for folder in once_per_folder(empty_folders)[0]],
                             key=lambda row: str(row["target"])),
        "duplicates": duplicates,
        "stale": [dict(row) for row in sorted(stale, key=lambda row: str(row["file"]))],
        "graph": season_graph(ordered_matches),
    }
    if season is not None:
        out["season"] = season
    return out


def _flag_counts(matches: Sequence[SeasonMatch]) -> dict[str, dict[str, int]]:
    """Per screen: its flags and reviews over the season's matches, and the matches it raised one in."""
    flag_counts: dict[str, dict[str, int]] = {}
    for m in matches:
        screens_here: set[str] = set()
        for flag in (m.result or {}).get("flags") or []:
            screen = str(flag.get("screen"))
            tally = flag_counts.setdefault(screen, {"flag": 0, "review": 0, "matches": 0})
            level = str(flag.get("level"))
            tally[level] = tally.get(level, 0) + 1
            screens_here.add(screen)
        for screen in screens_here:
            flag_counts[screen]["matches"] += 1
    return flag_counts


def _result_row(m: SeasonMatch) -> dict[str, Any]:
    """A match's row of the summary's ``results``: where its result is, its status and exit code, and its
    verdict, flag count and top flag (or the reason it has none), or its error."""
    result = m.result or {}
    verdict = result.get("verdict")
    row: dict[str, Any] = {"target": m.target, "file": f"matches/{m.name}.json", "matchId": m.match_id,
                           "status": m.status, "exitCode": m.exit_code}
    if verdict is not None:
        row["verdict"] = verdict
        row["flags"] = len(result.get("flags") or [])
        if result.get("topFlag") is not None:
            row["topFlag"] = result["topFlag"]
    if m.error is not None:
        row["error"] = m.error
    if result.get("reason") is not None and result.get("topFlag") is None:
        row["reason"] = result["reason"]
    return row


def _season_exit_code(matches: Sequence[SeasonMatch], season: Mapping[str, Any] | None, empty_folders: bool) -> int:
    """70 if a match or the season-scale step failed, else 3 if a match was unreadable or a folder given
    held none, else 1 if a match had findings or the season-scale step is not clear, else 0."""
    if any(m.status == "failed" for m in matches) or (season or {}).get("verdict") == "failed":
        return exitcodes.INTERNAL
    if any(m.status == "unreadable" for m in matches) or empty_folders:
        return exitcodes.UNREADABLE
    if any(m.status == "findings" for m in matches) or (season or {}).get("verdict", "clear") != "clear":
        return exitcodes.FINDINGS
    return exitcodes.OK


def empty_folder_row(folder: str) -> dict[str, Any]:
    """The summary's ``unreadable`` row of a folder given as a target that holds no match.

    >>> empty_folder_row("in/empty")
    {'target': 'in/empty', 'status': 'unreadable', 'error': 'no matches in in/empty (bundles, streams or match folders)'}
    """
    return {"target": folder, "status": "unreadable",
            "error": f"no matches in {folder} (bundles, streams or match folders)"}


def once_per_folder(folders: Sequence[str]) -> tuple[list[str], list[dict[str, str]]]:
    """``(folders counted, duplicates)`` of the folders given that hold no match: each folder once (the same
    folder by two spellings, ``d``, ``d/`` and ``./d``, or by a link, is one), in the order given, by its
    first spelling in sorted order (so the order given changes no summary), and each other spelling listed
    as ``{"target", "sameAs"}`` (the spelling counted), as :func:`once_per_match` counts a match given twice.

    >>> once_per_folder(["other", "in/empty/", "in/empty", "in/empty"])
    (['other', 'in/empty'], [{'target': 'in/empty/', 'sameAs': 'in/empty'}])
    """
    def identity(folder: str) -> str:
        try:  # links followed; a folder gone since is told apart by its spelling made absolute
            return str(Path(folder).resolve()) if Path(folder).exists() else os.path.abspath(folder)
        except OSError:
            return os.path.abspath(folder)

    of = {folder: identity(folder) for folder in sorted(set(folders))}
    spelling: dict[str, str] = {}
    duplicates: list[dict[str, str]] = []
    for folder, same in of.items():
        if same in spelling:
            duplicates.append({"target": folder, "sameAs": spelling[same]})
        else:
            spelling[same] = folder
    kept = dict.fromkeys(spelling[of[folder]] for folder in folders)
    return list(kept), duplicates


def _season_step(job: Job, matches: Sequence[SeasonMatch], options: Mapping[str, Any]) -> dict[str, Any] | None:
    """The job's season-scale step over ``matches``; one that raises (a bug) gives ``{"verdict": "failed",
    "error": …}`` instead, so the season still writes its summary (and exits 70)."""
    if job.season is None:
        return None
    try:
        return job.season(matches, options)
    except (BadSetting, OutputError):
        raise
    except Exception as exc:  # noqa: BLE001 - the summary is written whatever one step does
        return {"verdict": "failed", "flags": [], "error": _one_line(f"{type(exc).__name__}: {exc}")}


def _untabled(result: Mapping[str, Any]) -> str | None:
    """Why a match's seats and transfers cannot enter the season's tables (an agent id or operator
    that is not a string, or a transfer between such agents), or None when they can."""
    for seat in result.get("seats") or []:
        agent, operator = (seat.get("agentId"), seat.get("operator")) if isinstance(seat, Mapping) else (seat, None)
        if not isinstance(agent, str):
            return f"a seat's agentId is {agent!r}, not a string"
        if operator is not None and not isinstance(operator, str):
            return f"agent {agent}'s operator is {operator!r}, not a string"
    for t in result.get("transfers") or []:
        if not (isinstance(t, Mapping) and isinstance(t.get("a"), str) and isinstance(t.get("b"), str)):
            return "a transfer's agents are not strings"
    return None


def _vetted(match: SeasonMatch) -> SeasonMatch:
    """The match, or, when the season cannot table its seats (:func:`_untabled`; a result kept from
    before the job refused such seats), the match as unreadable with why, and nothing for the tables."""
    problem = _untabled(match.result or {})
    if problem is None:
        return match
    error = f"{match.target}: {problem}: the season cannot table this match (validate lists every such field)"
    return SeasonMatch(match.target, match.name, "unreadable", exitcodes.UNREADABLE, error, match.match_id, {})


def _identity(match: SeasonMatch) -> str:
    """What makes two targets the same match: the match id read, else the file or folder a path
    resolves to (links followed), else the target as given."""
    if match.match_id:
        return f"id:{match.match_id}"
    path = Path(match.target)
    try:
        if path.exists():
            return f"path:{path.resolve()}"
    except OSError:
        pass
    return f"target:{match.target}"


def once_per_match(matches: Sequence[SeasonMatch]) -> tuple[list[SeasonMatch], list[dict[str, Any]]]:
    """``(matches counted, duplicates)``: every match once (the same match id, or the same file by two
    paths), the first in the order given counted and each later one listed as ``{"target", "file",
    "matchId", "sameAs"}`` (its result file, written all the same, and the target counted) and left out
    of every count, verdict and table, as ``export`` refuses a second target of one match.

    >>> m = lambda t, n, i: SeasonMatch(t, n, "ok", 0, None, i, {})
    >>> kept, same = once_per_match([m("a/m_1.jsonl", "m_1-a", "m_1"), m("b/m_1.json", "m_1-b", "m_1"),
    ...                              m("c", "c", "m_2")])
    >>> [k.target for k in kept], same
    (['a/m_1.jsonl', 'c'], [{'target': 'b/m_1.json', 'file': 'matches/m_1-b.json', 'matchId': 'm_1', 'sameAs': 'a/m_1.jsonl'}])
    """
    first: dict[str, str] = {}
    kept: list[SeasonMatch] = []
    duplicates: list[dict[str, Any]] = []
    for m in matches:
        identity = _identity(m)
        if identity in first:
            duplicates.append({"target": m.target, "file": f"matches/{m.name}.json", "matchId": m.match_id,
                               "sameAs": first[identity]})
            continue
        first[identity] = m.target
        kept.append(m)
    return kept, duplicates


@dataclass
class _Flow:
    together: set[str] = field(default_factory=set)
    moved: set[str] = field(default_factory=set)
    a_gave: float = 0.0
    b_gave: float = 0.0
    trades: int = 0


def _flow_rows(flows: Mapping[tuple[str, str], _Flow], min_matches: int) -> list[dict[str, Any]]:
    rows = []
    for (a, b), flow in sorted(flows.items()):
        if len(flow.moved) < min_matches:
            continue
        net = flow.a_gave - flow.b_gave
        rows.append({
            "a": a,
            "b": b,
            "matchesTogether": len(flow.together),
            "matchesMoved": len(flow.moved),
            "matches": sorted(flow.moved),
            "trades": flow.trades,
            "valueAGave": half_up(flow.a_gave, 2),
            "valueBGave": half_up(flow.b_gave, 2),
            "gross": half_up(flow.a_gave + flow.b_gave, 2),
            "net": half_up(abs(net), 2),
            "netFrom": None if net == 0 else (a if net > 0 else b),
        })
    return rows


def season_graph(matches: Sequence[SeasonMatch], *, recur: int = 2) -> dict[str, Any]:
    """The season's net-transfer graph, per pair of agents and per pair of operators.

    For every pair that moved value in some match: the matches both were seated in
    (``matchesTogether``), the matches they moved value in (``matchesMoved``, listed in
    ``matches`` by match id, else target), their trades, the value each side gave
    over the season, the gross and the net value and who the net came from.  Operator
    pairs come from the seats' ``operator`` (the archive's ``agents[].operator``); a
    pair of one operator's seats is the pair ``(op, op)``; seats without an operator
    are left out of the operator tables.  ``recurring*`` list the pairs that moved
    value in at least ``recur`` matches.

    Matches are read in target order and values rounded half-up to 2 places at the
    end, so the result does not depend on completion order.

    >>> m = lambda t, s, tr: SeasonMatch(t, t, "ok", 0, None, t, {"seats": s, "transfers": tr})
    >>> seats = [{"agentId": "a_1", "operator": "x"}, {"agentId": "a_2", "operator": "y"}]
    >>> g = season_graph([m("m1", seats, [{"a": "a_1", "b": "a_2", "aGave": 5.0, "bGave": 1.0, "trades": 1}]),
    ...                   m("m2", seats, [{"a": "a_1", "b": "a_2", "aGave": 2.0, "bGave": 0.0, "trades": 1}])])
    >>> row = g["recurringAgentPairs"][0]
    >>> (row["a"], row["b"], row["matchesMoved"], row["net"], row["netFrom"])
    ('a_1', 'a_2', 2, 6.0, 'a_1')
    >>> g["recurringOperatorPairs"][0]["a"], g["recurringOperatorPairs"][0]["b"]
    ('x', 'y')
    """
    agents: dict[tuple[str, str], _Flow] = defaultdict(_Flow)
    operators: dict[tuple[str, str], _Flow] = defaultdict(_Flow)
    seated: list[tuple[str, dict[str, Any]]] = []
    for m in sorted(matches, key=lambda m: m.target):
        result = m.result or {}
        if _untabled(result) is not None:
            continue  # a key that is not a string cannot be ordered with the others (see _vetted)
        label = m.match_id or m.target
        operator = {s["agentId"]: s.get("operator") for s in result.get("seats") or []}
        seated.append((label, operator))
        for t in result.get("transfers") or []:
            for x, y, x_gave, y_gave, table in (
                (t["a"], t["b"], t["aGave"], t["bGave"], agents),
                (operator.get(t["a"]), operator.get(t["b"]), t["aGave"], t["bGave"], operators),
            ):
                if x is None or y is None:
                    continue
                if y < x:
                    x, y, x_gave, y_gave = y, x, y_gave, x_gave
                flow = table[(x, y)]
                flow.moved.add(label)
                flow.a_gave += x_gave or 0.0
                flow.b_gave += y_gave or 0.0
                flow.trades += t.get("trades", 0)
    # matchesTogether, for the pairs that moved value somewhere: both seated in the match
    # (for an operator with itself: two of its seats)
    for label, operator in seated:
        ids = sorted(operator)
        for i, x in enumerate(ids):
            for y in ids[i + 1:]:
                if (x, y) in agents:
                    agents[(x, y)].together.add(label)
        seats_of: dict[str, int] = defaultdict(int)
        for op in operator.values():
            if op is not None:
                seats_of[op] += 1
        ops = sorted(seats_of)
        for i, x in enumerate(ops):
            for y in ops[i:]:
                if (x, y) in operators and (x != y or seats_of[x] >= 2):
                    operators[(x, y)].together.add(label)
    return {
        "recur": recur,
        "agentPairs": _flow_rows(agents, 1),
        "operatorPairs": _flow_rows(operators, 1),
        "recurringAgentPairs": _flow_rows(agents, recur),
        "recurringOperatorPairs": _flow_rows(operators, recur),
    }
