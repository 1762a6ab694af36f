"""Benchmark: does any command's cost grow faster than the match?  CPU per event at several sizes of
several match *shapes*, the ratio of the largest size's per-event cost to the smallest's, and the stage
that owns the growth.

A shape is a kind of match a long or crowded season produces; each is made by the project's simulator
(scenario ``mixed``: every behavior planted, probes included), some then rewritten:

  3 seats       2 players and the probe seat, played long: a seat's own history (its trades,
                messages, ticks) grows with the match
  5 seats       4 players and the probe seat
  9 seats       the simulator's default (8 players and the probe seat)
  97 seats      96 players: many pairs, each short
  201 seats     200 players
  401 seats     400 players (more than the ``simulate`` command allows; the simulator itself does)
  long texts    the 9-seat match with every message's text made long (about 40 more words) and
                distinct: no two messages share a text, so nothing read once per text is saved
  hub           the 97-seat match with one seat put into every trade and private message (as the
                offerer or as the other side, alternately): one seat that trades and talks with
                everyone.  The rewrite leaves the archive's inventories and ledger no longer
                matching the log: it is a cost benchmark, not a forensics one

For each shape and size it runs, each in a fresh process pinned to one CPU (nothing forks):

  behavior    ``behavior --format json``: read alone (parse and schema checks), the replay's passes
              (read + passes less the read alone) and the report, each report section timed
  screen      ``screen``: read and replay of the screens' passes, the transfer graph, each screen
  propagation ``propagation --format json``: read and replay of its passes, the chains, the output

and prints CPU microseconds per event at each size, the ratio of the largest size's per-event cost to
the smallest's (about 1.0 for a line; a cliff shows as a ratio that grows with the size), the peak
resident memory at each size, and the stage whose own per-event cost grew most (``grows in``).  A
per-event cost can also fall with size (imports and fixed setup spread over more events): read a
ratio beside the stage's share of the time.

``--profile SHAPE COMMAND`` instead runs cProfile on the command at the shape's smallest and largest
size and lists the functions whose own time grew most beyond a straight line from the smallest
(their excess seconds at the largest size): the function that owns a cliff.

Usage: python bench/scaling.py [--shapes NAME,...] [--sizes N,N,...] [--commands behavior,screen,propagation]
                               [--profile SHAPE COMMAND]
(default: every shape; 3, 5 and 9 seats at 25,000, 100,000 and 400,000 events, long texts at 25,000,
100,000 and 200,000, the others at 25,000 and 100,000; sizes given apply to every shape).  Every size
of a shape is a prefix of one match (the largest size's), so sizes differ in length and nothing else.
Each measured process first runs its command, uncounted, on the shape's first 2,000 events (imports
and one-time setup).  Streams are cached in DAISHI_BENCH_CACHE (default /tmp/daishi-bench).  The
default run took 14 minutes on this two-core machine shared by five engineers (load average 2 to 8).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CACHE, compiled_bytecode  # noqa: E402

COMMANDS = ("behavior", "screen", "propagation")


# -- the shapes ------------------------------------------------------------------------------------

def _simulated(events: int, players: int) -> Path:
    """A ``mixed`` match of about ``events`` events with ``players`` player seats, cached (the
    simulator's own check of at least 4 players is lifted for the 2-player shape)."""
    out = CACHE / f"scaling-mixed-7-p{players}-{events}"
    found = sorted(out.glob("m_*.jsonl")) if out.exists() else []
    if found:
        return found[0]
    code = ("import sys; from pathlib import Path\n"
            "from daishi_forensics.simulate import engine\n"
            "check = engine._check_settings\n"
            "engine._check_settings = lambda n, *rest: check(max(n, 4), *rest)\n"
            "from daishi_forensics.simulate import simulate_to_dir\n"
            "print(simulate_to_dir('mixed', 7, 3, Path(sys.argv[1]), 'stream', target_events=int(sys.argv[2]),"
            " n_agents=int(sys.argv[3])))")
    out.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([sys.executable, "-c", code, str(out), str(events), str(players)], capture_output=True,
                          text=True, check=True)
    return Path(proc.stdout.strip().splitlines()[-1])


def _rewritten(source: Path, name: str, rewrite: Callable[[Iterator[dict[str, Any]]], Iterator[dict[str, Any]]]) -> Path:
    """``source`` with its events passed through ``rewrite`` (the archive line kept), cached beside it."""
    out = source.parent / f"{name}-{source.name}"
    if out.exists():
        return out
    partial = out.with_suffix(".part")
    with open(source, "rb") as handle, open(partial, "w") as sink:
        sink.write(handle.readline().decode())
        events = (json.loads(line) for line in handle)
        for event in rewrite(events):
            sink.write(json.dumps(event, separators=(",", ":"), sort_keys=True) + "\n")
    partial.rename(out)
    return out


_WORDS = ("north ridge quarry stone timber harvest bargain caravan ledger promise alliance winter storage "
          "tools planks cloth market fair price surplus shortage raid defend scout signal river camp "
          "barter credit debt favour rumour council vote share split route dawn dusk east west").split()


def _long_texts(events: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every message's text made long and distinct: about 40 words drawn from the event's id added."""
    for event in events:
        payload = event.get("payload")
        if event.get("type") in ("message", "message_private") and isinstance(payload, dict) \
                and isinstance(payload.get("text"), str):
            digest = hashlib.sha256(str(event.get("id")).encode()).digest()
            tail = " ".join(_WORDS[b % len(_WORDS)] for b in digest + digest[::-1][:8])
            text = f"{payload['text']} ({event.get('id')}) {tail}"
            event["payload"] = {**payload, "text": text,
                                "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()}
        yield event


def _hub(events: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """One seat (the first player seen) put into every trade and private message: a trade's offerer
    (or, for every other trade, its other side) and a private message's sender (or, for every other
    message, its recipient) become the hub, unless the hub is already in it."""
    hub: str | None = None
    swapped: dict[str, str] = {}  # trade id -> the agent the hub stands in for
    flips = 0
    for event in events:
        kind, payload, agent = event.get("type"), event.get("payload"), event.get("agentId")
        if hub is None and kind in ("message", "message_private", "trade_offered") and isinstance(agent, str):
            hub = agent
        if hub is None or not isinstance(payload, dict):
            yield event
            continue
        if kind == "message_private" and isinstance(payload.get("to"), str) and hub not in (agent, payload["to"]):
            flips += 1
            if flips % 2:
                event["agentId"] = hub
            else:
                event["payload"] = {**payload, "to": hub}
        elif isinstance(payload.get("tradeId"), str):
            trade = payload["tradeId"]
            if trade not in swapped and kind == "trade_offered" and isinstance(payload.get("to"), str) \
                    and hub not in (agent, payload["to"]):
                flips += 1
                swapped[trade] = agent if flips % 2 else payload["to"]
            gone = swapped.get(trade)
            if gone is not None:
                if event.get("agentId") == gone:
                    event["agentId"] = hub
                event["payload"] = {k: hub if k in ("to", "from") and v == gone else v for k, v in payload.items()}
        yield event


def _prefix(whole: Path, events: int) -> Path:
    """The first ``events`` events of ``whole`` (its archive line kept), cached beside it: every size
    of a shape is a prefix of one match, so the sizes differ in length and nothing else."""
    out = whole.parent / f"first-{events}-{whole.name}"
    if out.exists():
        return out
    partial = out.with_suffix(".part")
    with open(whole, "rb") as handle, open(partial, "wb") as sink:
        for n, line in enumerate(handle):
            if n > events:
                break
            sink.write(line)
    partial.rename(out)
    return out


@dataclass(frozen=True)
class Shape:
    """A kind of match: how to make a whole one of about ``events`` events, and its default sizes
    (prefixes of the largest)."""

    name: str
    whole: Callable[[int], Path]
    sizes: tuple[int, ...]

    def make(self, events: int, largest: int) -> Path:
        """The first ``events`` events of the shape's match of ``largest`` events."""
        return _prefix(self.whole(largest), events)


LONG = (25_000, 100_000, 400_000)
TEXTS = (25_000, 100_000, 200_000)
WIDE = (25_000, 100_000)

SHAPES: tuple[Shape, ...] = (
    Shape("3 seats", lambda n: _simulated(n, 2), LONG),
    Shape("5 seats", lambda n: _simulated(n, 4), LONG),
    Shape("9 seats", lambda n: _simulated(n, 8), LONG),
    Shape("97 seats", lambda n: _simulated(n, 96), WIDE),
    Shape("201 seats", lambda n: _simulated(n, 200), WIDE),
    Shape("401 seats", lambda n: _simulated(n, 400), WIDE),
    Shape("long texts", lambda n: _rewritten(_simulated(n, 8), "long-texts", _long_texts), TEXTS),
    Shape("hub", lambda n: _rewritten(_simulated(n, 96), "hub", _hub), WIDE),
)


# -- one measured run ------------------------------------------------------------------------------

MEASURE = r"""
import json, os, resource, sys, time
from dataclasses import replace
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
command, path, warm = sys.argv[1], sys.argv[2], sys.argv[3]
cpu = time.process_time
stages = {}
def timed(name, fn):
    def call(*args, **kwargs):
        started = cpu()
        try:
            return fn(*args, **kwargs)
        finally:
            stages[name] = stages.get(name, 0.0) + cpu() - started
    return call
from daishi_forensics.jsonio import dumps
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.replay.analysis import paused_cycle_collection
from daishi_forensics.report.passes import analyze
if command == "screen":  # each screen timed
    from daishi_forensics.screens import screening
    for table in (screening._RUNNERS, screening._TYPOLOGY_RUNNERS):
        for name, runner in list(table.items()):
            table[name] = timed("screen " + name, runner)
    screening.pair_table = timed("screen pair_outlier", screening.pair_table)
    screening.pair_outlier = timed("screen pair_outlier", screening.pair_outlier)
    screening.calibrate = timed("screens' calibration", screening.calibrate)
def run(path):
    global stages
    stages = {}
    if command == "behavior":
        from daishi_forensics.report.assembly import behavior_report
        from daishi_forensics.report.sections import SECTIONS
        timed("read alone", lambda: sum(1 for _ in read_match(open_match(path)).events()))()
        analysis = timed("read + passes", lambda: analyze(read_match(open_match(path))))()
        stages["passes"] = stages.pop("read + passes") - stages["read alone"]
        sections = tuple(replace(s, compute=timed("report " + s.name, s.compute)) for s in SECTIONS)
        with paused_cycle_collection():
            text = timed("dumps", lambda: dumps(behavior_report(analysis, sections=sections)))()
        stages["dumps"] -= sum(v for k, v in stages.items() if k.startswith("report "))
        counted = stages.pop("read alone")  # a second read, for the split only: not in the command's cost
    elif command == "screen":
        from daishi_forensics.report.screening import SCREEN_PASSES, match_graph
        read = read_match(open_match(path))
        analysis = timed("read + passes", lambda: analyze(read, only=SCREEN_PASSES))()
        graph = timed("transfer graph", lambda: match_graph(analysis))()
        result = timed("screens", lambda: screening.screen_graph(graph))()
        stages["screens"] -= sum(v for k, v in stages.items() if k.startswith("screen ") or k == "screens' calibration")
        text = timed("dumps", lambda: dumps(result.to_dict()))()
        counted = 0.0
    elif command == "propagation":
        from daishi_forensics.injection.summary import propagation_of
        from daishi_forensics.injection.propagation import chains_nodes
        read = read_match(open_match(path))
        analysis = timed("read + passes", lambda: analyze(read, only=("exposure", "tiers")))()
        prop = timed("chains", lambda: propagation_of(analysis))()
        messages = analysis.passes["exposure"].result().messages
        def output():
            return dumps({"propagation": prop.to_json(), "chains": [
                {"root": c.root, "nodes": nodes}
                for c, nodes in zip(prop.chains, chains_nodes(prop.chains, messages, prop.edges, scrub_text=False))]})
        text = timed("dumps", output)()
        counted = 0.0
    return text, counted

run(warm)  # imports and one-time setup, not counted
from daishi_forensics.injection import secrets, tiers
tiers._classify_short.cache_clear()  # texts read in the warm-up are read again
secrets._reveals_head.cache_clear()
start = cpu()
text, counted = run(path)
me = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": cpu() - start - counted, "stages": stages, "peak_mb": me.ru_maxrss / 1024,
                  "bytes": len(text)}))
"""


def _events(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle) - 1


WARM = 2_000
"""Events of the match each measured process first runs its command on, uncounted (imports, setup)."""


def measure(command: str, path: Path, warm: Path) -> dict[str, Any]:
    """One command on one stream in a fresh process pinned to one CPU, after an uncounted run on ``warm``
    (a small match of the same shape): its CPU (s), stages, peak (MiB)."""
    env = {**os.environ, "DAISHI_FORENSICS_PARALLEL": "0"}
    proc = subprocess.run([sys.executable, "-c", MEASURE, command, str(path), str(warm)], capture_output=True, text=True,
                          env=env)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def growth_owner(runs: list[tuple[int, dict[str, Any]]]) -> str:
    """The stage whose own CPU grew most beyond a straight line from the smallest size: its excess at the
    largest size, its per-event ratio and its share of the largest run's CPU."""
    (n0, small), (n1, large) = runs[0], runs[-1]
    scale = n1 / n0
    excess = {stage: seconds - small["stages"].get(stage, 0.0) * scale for stage, seconds in large["stages"].items()}
    stage, extra = max(excess.items(), key=lambda kv: kv[1])
    before = small["stages"].get(stage, 0.0)
    if extra < max(0.05 * large["cpu"], 0.25) or (before > 0 and large["stages"][stage] / scale / before < 1.2):
        return "no stage (none grew 20% per event and by 0.25 s and 5% of the largest run beyond a line)"
    ratio = f"{large['stages'][stage] / scale / before:.2f}x per event" if before > 0 else "new"
    return (f"{stage} ({ratio}, {100 * large['stages'][stage] / large['cpu']:.0f}% of the largest run, "
            f"{extra:+.2f} s beyond a line)")


def bench_shape(shape: Shape, sizes: tuple[int, ...], commands: tuple[str, ...]) -> None:
    paths = [(n, shape.make(n, max(sizes))) for n in sizes]
    warm = shape.make(WARM, max(sizes))
    counts = [_events(p) for _n, p in paths]
    print(f"== {shape.name}: " + ", ".join(f"{c:,}" for c in counts) + f" events ({paths[-1][1].name})")
    for command in commands:
        runs = []
        for (_n, path), count in zip(paths, counts):
            result = measure(command, path, warm)
            if "error" in result:
                print(f"  {command:<12} FAILED on {count:,} events: {result['error']}")
                break
            runs.append((count, result))
        if len(runs) < 2:
            continue
        per_event = [1e6 * r["cpu"] / n for n, r in runs]
        print(f"  {command:<12} " + "  ".join(f"{p:7.1f}" for p in per_event) + " us/event   "
              f"ratio {per_event[-1] / per_event[0]:5.2f}   peak " + " ".join(f"{r['peak_mb']:,.0f}" for _n, r in runs)
              + " MiB   grows in: " + growth_owner(runs))


PROFILE = r"""
import cProfile, json, os, pstats, sys, time
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
from daishi_forensics.cli import main
profile = cProfile.Profile(time.process_time)
try:
    profile.runcall(main, ["--exit-zero", sys.argv[1], sys.argv[2], "--format", "json", "-o", os.devnull],
                    standalone_mode=False)
except SystemExit:
    pass
stats = pstats.Stats(profile).stats
print(json.dumps([[f"{os.path.basename(f)}:{line} {name}", tt] for (f, line, name), (_cc, _nc, tt, _ct, _callers)
                  in stats.items()]))
"""


def profile_growth(shape: Shape, command: str, sizes: tuple[int, ...]) -> None:
    """cProfile ``command`` at the smallest and largest size; list the functions whose own time grew most
    beyond a straight line."""
    own = []
    for n in (sizes[0], sizes[-1]):
        path = shape.make(n, max(sizes))
        proc = subprocess.run([sys.executable, "-c", PROFILE, command, str(path)], capture_output=True, text=True,
                              check=True, env={**os.environ, "DAISHI_FORENSICS_PARALLEL": "0"})
        own.append((_events(path), dict(json.loads(proc.stdout.strip().splitlines()[-1]))))
    (n0, small), (n1, large) = own
    scale = n1 / n0
    excess = sorted(((t - small.get(f, 0.0) * scale, f, t) for f, t in large.items()), reverse=True)
    print(f"== {command} on {shape.name}: {n0:,} and {n1:,} events (cProfile, one core): own time beyond a line")
    for extra, name, t in excess[:15]:
        print(f"  {extra:+8.2f} s  {t:8.2f} s at {n1:,} ({small.get(name, 0.0):.3f} s at {n0:,})  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", metavar="NAME,...",
                        help="comma-separated shapes to run (default all): " + ", ".join(s.name for s in SHAPES))
    parser.add_argument("--sizes", metavar="N,N,...", help="event counts to run each shape at (default: the shape's own)")
    parser.add_argument("--commands", metavar="NAME,...", default=",".join(COMMANDS),
                        help="comma-separated commands (default " + ",".join(COMMANDS) + ")")
    parser.add_argument("--profile", nargs=2, metavar=("SHAPE", "COMMAND"),
                        help="instead, cProfile COMMAND on SHAPE at its smallest and largest size")
    args = parser.parse_args()
    commands = tuple(args.commands.split(","))
    shapes = [s for s in SHAPES if args.shapes is None or s.name in args.shapes.split(",")]
    given = tuple(int(s) for s in args.sizes.split(",")) if args.sizes else None
    print(compiled_bytecode())
    if args.profile:
        name, command = args.profile
        found = [s for s in SHAPES if s.name == name]
        if not found:
            parser.error(f"--profile: no shape {name!r} (shapes: {', '.join(s.name for s in SHAPES)})")
        profile_growth(found[0], command, given or found[0].sizes)
        return
    print("CPU per event (microseconds, one core, each run a fresh process) at each size; ratio = largest size's "
          "per-event cost / smallest's (~1.0 is linear); peak resident memory per size; the stage that grew most")
    for shape in shapes:
        bench_shape(shape, given or shape.sizes, commands)


if __name__ == "__main__":
    main()
