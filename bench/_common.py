"""Shared functions of the benchmarks: cached simulated matches, the package's bytecode made current, peak memory, a payment
world's truth."""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CACHE = Path(os.environ.get("DAISHI_BENCH_CACHE", "/tmp/daishi-bench"))


def simulated_stream(events: int, scenario: str = "mixed", seed: int = 7, version: int = 3,
                     agents: int | None = None) -> Path:
    """A simulated match of about ``events`` events as a .jsonl stream (``agents`` player seats, the
    simulator's default when None), cached."""
    from daishi_forensics.simulate import simulate_to_dir

    seats = {} if agents is None else {"n_agents": agents}
    out = CACHE / f"{scenario}-{seed}-v{version}-{events}" if agents is None else \
        CACHE / f"{scenario}-{seed}-v{version}-{events}-a{agents}"
    found = sorted(out.glob("m_*.jsonl")) if out.exists() else []
    if found:
        return found[0]
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    path = simulate_to_dir(scenario, seed, version, out, "stream", target_events=events, **seats)
    print(f"(simulated {events:,} events in {time.perf_counter() - started:.1f} s: {path})", file=sys.stderr)
    return Path(path)


REAL_TURNS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "tiers" / "casino.jsonl"
"""Real campsite-negotiation turns (their train and tune rows are read; no held-out row)."""


def real_text_stream(source: Path) -> Path:
    """A copy of the stream ``source`` whose player seats' messages are real negotiation turns, cached beside it.

    Each message of a seat whose role is ``player`` (a probe's are kept) says two turns of :data:`REAL_TURNS`
    joined by a space, drawn at random (a fixed seed) among the ``P`` read, no two messages the same pair (up
    to ``P * P`` messages): a turn comes back about ``2 N / P`` times over the match's ``N`` messages, spread
    over it.  Its ``sha256`` is its text's.  Every other line is copied as it stands.  What it is for: the
    simulator's seats repeat short stock phrases (a few thousand distinct texts of about 40 characters over a
    million events), which the text passes read once each; a match of model-written messages says something
    new each time, at a real message's length."""
    import hashlib

    import orjson

    out = source.parent / "real-texts-2" / source.name
    if out.exists():
        return out
    turns = [row["text"] for row in map(json.loads, REAL_TURNS.read_text(encoding="utf-8").splitlines())
             if row.get("split") in ("train", "tune")]
    size = len(turns)
    rng = random.Random(7)
    used: set[tuple[int, int]] = set()
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    partial = out.with_name(out.name + ".partial")
    k = 0
    with open(source, "rb") as reader, open(partial, "wb") as writer:
        header = reader.readline()
        players = {a["agentId"] for a in orjson.loads(header)["archive"]["agents"] if a.get("role") == "player"}
        writer.write(header)
        for line in reader:
            if b'"type":"message' in line:
                event = orjson.loads(line)
                if event["type"] in ("message", "message_private") and event["agentId"] in players:
                    pick = (rng.randrange(size), rng.randrange(size))
                    while pick in used and len(used) < size * size:
                        pick = (rng.randrange(size), rng.randrange(size))
                    used.add(pick)
                    text = turns[pick[0]] + " " + turns[pick[1]]
                    k += 1
                    event["payload"]["text"] = text
                    event["payload"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
                    line = orjson.dumps(event) + b"\n"
            writer.write(line)
    partial.replace(out)
    print(f"(wrote {k:,} real-text messages in {time.perf_counter() - started:.1f} s: {out})", file=sys.stderr)
    return out


PACKAGES = ("daishi_forensics", "daishi_forensics.cli", "daishi_forensics.screens", "daishi_forensics.probes",
            "daishi_forensics.schemas")
"""The package's top-level parts: the folders their modules live in (one each in a checkout installed in editable
mode, all under one folder in an ordinary install)."""


def compiled_bytecode() -> str:
    """Compile every module of the installed package to bytecode where its cached bytecode is missing or stale,
    as ``pip install`` does when it installs the package, and say so in one line for a bench to print.

    A process started afterwards loads the modules' bytecode, as a user's does: timed without it, every run of a
    checkout installed in editable mode with bytecode writing turned off (``PYTHONDONTWRITEBYTECODE``) would also
    compile the modules it imports, about half a second of CPU on the behavior report (and again in each forked
    child, for the modules only it imports), a cost no installed copy pays."""
    import compileall
    import importlib.util
    import io
    from contextlib import redirect_stdout

    folders: set[str] = set()
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders.update(spec.submodule_search_locations)
    # an ordinary install holds the other parts inside the first one's folder: each folder read once
    folders = {f for f in folders if not any(Path(f).is_relative_to(other) and f != other for other in folders)}
    said = io.StringIO()
    with redirect_stdout(said):  # (it names each module it compiles, and each folder it lists)
        written = all([compileall.compile_dir(folder, quiet=0) for folder in sorted(folders)])
    compiled = sum(line.startswith("Compiling ") for line in said.getvalue().splitlines())
    modules = sum(1 for folder in folders for _ in Path(folder).rglob("*.py"))
    if not written:
        return (f"bytecode   NOT all compiled (of {modules} modules, {compiled} compiled now, some could not be "
                "written): the times below include compiling those at each start")
    return (f"bytecode   every module's bytecode current before timing ({modules} modules, {compiled} compiled now, "
            "as an install compiles them): the processes below load it, as an installed copy's do")


def run_measured(code: str, *args: str) -> dict:
    """Run Python ``code`` in a fresh process; it prints one JSON object. Adds peak RSS (MiB, what ``ru_maxrss`` counts in KiB, over 1024)."""
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


PEAK_RSS = "import resource; peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@dataclass(frozen=True)
class PlantedWorld:
    """A generated payment graph (only ``value``, ``tick`` and ``event`` on its edges) and its truth: the
    worlds written apart from the project's generator share this record and nothing else."""

    graph: Any
    """The ``networkx.MultiDiGraph`` of payments."""
    cases: tuple[tuple[str, tuple[str, ...]], ...]
    """``(kind, accounts)`` of every planted case."""

    @property
    def laundering(self) -> frozenset[str]:
        return frozenset(a for _kind, accounts in self.cases for a in accounts)

    def of(self, kind: str) -> frozenset[str]:
        return frozenset(a for k, accounts in self.cases if k == kind for a in accounts)

    def summary(self) -> str:
        """One line: accounts, payments, planted cases and the accounts in them."""
        return (f"{self.graph.number_of_nodes()} accounts, {self.graph.number_of_edges()} payments, "
                f"{len(self.cases)} planted cases ({len(self.laundering)} accounts)")


class Serial:
    """A pool of one worker: ``Pool.imap``'s jobs run in this process, in order (``with Pool(n) if n > 1 else
    Serial() as pool``)."""

    def __enter__(self) -> Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, fn: Any, jobs: Any, chunksize: int = 1) -> Any:
        return map(fn, jobs)


def run_jobs(fn: Any, todo: Any, workers: int, every: int) -> list[Any]:
    """``fn`` over ``todo`` on ``workers`` processes (one: here, in order), the results in ``todo``'s order, a
    progress line every ``every`` jobs and the seconds it all took."""
    from multiprocessing import Pool

    started = time.perf_counter()
    rows = []
    with Pool(workers) if workers > 1 else Serial() as pool:
        for i, row in enumerate(pool.imap(fn, todo, chunksize=4), 1):
            rows.append(row)
            if i % every == 0:
                print(f"  {i} matches, {time.perf_counter() - started:.0f} s", flush=True)
    print(f"ran in {time.perf_counter() - started:.0f} s")
    return rows


def print_ways(rows: list[Any], settings: Any, levels: Any, ways: Any, tally: Any, line: Any, width: int) -> None:
    """A study's two ways side by side: per setting and noise level, then every one pooled.  ``tally(rows, keep)``
    counts the rows ``keep(job)`` selects, per way; ``line(counts)`` says one way's counts; ``width`` pads the
    setting's name."""
    for st in settings:
        for lv in levels:
            counts = tally(rows, lambda job, st=st, lv=lv: job[4] == st and job[3] == lv)
            print(f"  {st:{width}s} {lv:7s} " + " | ".join(f"{way}: {line(counts[way])}" for way in ways))
    pooled = tally(rows, lambda job: True)
    print("  every setting and level pooled:")
    for way in ways:
        print(f"    {way}: {line(pooled[way])}")
