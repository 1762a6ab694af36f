"""Benchmark: ``behavior --format json`` end to end on two 1,000,000-event streams (9 and about 100 seats).

First it makes the package's bytecode current (compiled where missing or stale, as an install does: ``bytecode``),
so every process it times loads the modules as an installed copy's does rather than compiling them at start.
Then it prints, measured in this one run, for each stream:

  floor     a plain-Python loop that only parses each line with ``json.loads``
  two cores ``behavior`` in a fresh process as a user runs it (with a second CPU, a forked child
            replays the text passes while this process replays the others, and the report's
            screens and injection sections are computed in forked children; the screens' child
            runs the ring screen in a child of its own)
  one core  the same pinned to one CPU (``sched_setaffinity``, as ``taskset -c 0`` does), the
            setting left unset: with one CPU nothing forks
  terminal  the command-line program as a whole (start-up, the JSON file written) with its stderr on
            a pseudo-terminal, as a user at a terminal runs it: its progress line is drawn (by a
            thread, which must not keep the second core from being used), two cores allowed
  same      whether the two ways' JSON outputs are the same bytes (their SHA-256)
  peak      the largest resident set of the process (and of any child), one core and two, in MiB
            (2^20 bytes) and, for the target, in MB (10^6 bytes)
  growth    the peak on a quarter of the match beside the whole one: memory grows with agents
            and pairs, not with events

and the ratios to the floor (targets: two cores <= 2.0x, one core <= 2.5x, peak < 400 MB).
``--stream PATH`` benches that stream instead of the two simulated ones (the profile, split and
bytecode sections still use the simulated 96-seat quarter).  ``--real-texts`` benches, after the two
simulated streams, a copy of the 9-seat one whose seats say real campsite-negotiation turns, two joined a
message, no two messages alike (``_common.real_text_stream``): the simulator's seats repeat a few
thousand short stock phrases, which the text passes read once each, while a match of model-written
messages says something new at every turn, at a real message's length.
Each way runs ROUNDS times, interleaved (floor, two, one, terminal, floor, ...) and the best time of each
counts, so load drifting on a shared machine favours none of them.  Then the profile's top
lines (cProfile, by own time) on a quarter of the 96-seat stream, to show where the time goes.

Then, on the same quarter without a profiler, where one core's CPU goes: reading alone (the read
boundary: parse and schema checks), the replay with every pass, the report and its costliest sections
(each section's CPU, the imports it is the first to need and the pass results it is the first to ask
for included: the injection section's propagation chains, the collusion screens); and each pass's share
of the time spent inside the passes (each pass's handlers timed around their calls, one core).

Then the replay on two cores on that quarter: the CPU this process spends in its half of the
replay until it asks for the child's answer, the CPU of the child replaying the other half (its
read without the read boundary's checks when that is provably the same) and computing the message
propagation from it, as the behavior report's child does, their ratio (the
halves' balance), how long this process waited for the child's passes once its own half was done
(a balanced split waits little), and what a read costs the child without the checks and with them.
The split is the one the behavior report chooses for the match (``report/passes.py`` ``aside_for``); with
``--real-texts`` the same is printed for the real-text quarter too, a text-heavy match: there the tiers stay in
this process and the child replays the promises and reads only the propagation's edges ahead.

Then the message texts on that quarter: how many messages, how many distinct texts, how many
times the promise pass's commitment extractor and the tier classifier ran in a replay (each
remembers the texts it read, so once per distinct text is the floor), and the CPU of running
each once over the distinct texts.

Last, a figure a busy machine cannot blur: the Python bytecodes the replay executes per event,
by module (the first 50,000 events of that quarter, read before counting, every pass; counted
with the interpreter's opcode tracing, so the same in every run of the same code).  It counts
interpreted work only (a bytecode calling into C counts once), so it ranks the passes' own
Python code and shows a change's effect, not seconds.  A change that moves work into C calls
(bulk counting over ``map`` and ``itemgetter``) can lower it while the CPU rises: check such a
change with a timed loop or an instruction count (``valgrind --tool=cachegrind``), not this alone.
Nor does handing passes the events in batches help: a bulk count over events kept for later reads
each event's dict again once it has left the cache (``Counter`` over ``itemgetter("agentId",
"type")`` on a batch cost about 220 ns an event against about 250 ns for the counters' own
``observe`` on the event just parsed, and keeping the batch costs more than the difference):
per-event work is cheapest while the event is fresh.  So the counters and map coverage read the
replay loop's own tally (a count by type and agent, kept while the event is fresh, in the driver's
share) and the world's regions at the end, not a call per event.

Usage: python bench/behavior.py [EVENTS] [ROUNDS] [--stream PATH] [--real-texts] [--no-profile] [--no-split] [--no-halves]
[--no-texts] [--no-bytecodes] (default 1000000 2; ``--help`` says what each does)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import compiled_bytecode, real_text_stream, simulated_stream  # noqa: E402

OURS = """
import hashlib, json, os, resource, sys, time
if os.environ.get("BENCH_ONE_CPU") == "1":
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from daishi_forensics.cli._allocator import return_large_buffers
from daishi_forensics.report.behavior import behavior
from daishi_forensics.report.render.behavior import render_json_bytes
return_large_buffers()  # as every command does when it starts
started = time.perf_counter()
report = behavior(sys.argv[1]).report
data = render_json_bytes(report)  # the bytes `behavior --format json` writes
elapsed = time.perf_counter() - started
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"records": report["source"]["records"], "seconds": elapsed, "bytes": len(data),
                  "sha256": hashlib.sha256(data).hexdigest(),
                  "seats": len(report["seats"]), "pairs": len(report["ledger"]["pairs"]),
                  "cpu": me.ru_utime + me.ru_stime, "children_cpu": kids.ru_utime + kids.ru_stime,
                  "peak_mb": me.ru_maxrss / 1024, "children_peak_mb": kids.ru_maxrss / 1024}))
"""

PROFILE = """
import cProfile, io, os, pstats, sys
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
from daishi_forensics.report.behavior import behavior
from daishi_forensics.jsonio import dumps
profile = cProfile.Profile()
profile.enable()
dumps(behavior(sys.argv[1]).report)
profile.disable()
out = io.StringIO()
pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(int(sys.argv[2]))
print(out.getvalue())
"""

SPLIT = """
import os, sys, time
from collections import Counter
from dataclasses import replace
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.replay.analysis import MatchAnalysis, paused_cycle_collection
from daishi_forensics.replay.driver import replay
from daishi_forensics.report.assembly import behavior_report
from daishi_forensics.report.passes import CATALOGUE
from daishi_forensics.report.sections import SECTIONS
from daishi_forensics.jsonio import dumps
from daishi_forensics.injection.tiers import _classify_short
from daishi_forensics.injection import secrets
cpu = time.process_time
clock = time.perf_counter
t0 = cpu()
records = sum(1 for _ in read_match(open_match(sys.argv[1])).events())
t1 = cpu()
def analysis(timers):
    _classify_short.cache_clear()  # texts classified in an earlier replay of this process are classified again
    secrets._reveals_head.cache_clear()
    read = read_match(open_match(sys.argv[1]))
    instances = CATALOGUE.build(read.archive, None)
    for name, p in instances.items() if timers else ():
        p.observe = timed(name, p.observe)
        if callable(getattr(p, "close_ticks", None)):
            p.close_ticks = timed(name, p.close_ticks)
        if callable(getattr(p, "counted", None)):  # a counting pass: the loop's tally is the driver's, untimed
            p.counted = timed(name, p.counted)
    with paused_cycle_collection():
        timeline = replay(read.events(), read.archive, list(instances.values()))
    return MatchAnalysis(read=read, timeline=timeline, passes=instances)
spent = Counter()
def timed(name, handler):
    def call(*args):
        started = clock()
        handler(*args)
        spent[name] += clock() - started
    return call
section_cpu = {}
def timed_section(section):
    def compute(analysis, context):
        started = cpu()
        part = section.compute(analysis, context)
        section_cpu[section.name] = cpu() - started
        return part
    return replace(section, compute=compute)
t2 = cpu()
done = analysis(False)
t3 = cpu()
with paused_cycle_collection():
    dumps(behavior_report(done, sections=tuple(timed_section(s) for s in SECTIONS)))
t4 = cpu()
analysis(True)
print(f"cpu        read alone        {t1 - t0:>10.1f} s  (parse and schema checks, {records:,} records)")
print(f"cpu        read + passes     {t3 - t2:>10.1f} s  (so the passes, the replay loop and their imports: {t3 - t2 - (t1 - t0):.1f} s)")
print(f"cpu        report + dumps    {t4 - t3:>10.1f} s")
top = sorted(section_cpu.items(), key=lambda kv: -kv[1])
print("  its sections (each with the imports and pass results it is the first to need): "
      + ", ".join(f"{name} {s:.2f} s" for name, s in top[:3]) + f", the other {len(top) - 3} "
      f"{sum(s for _name, s in top[3:]):.2f} s")
total = sum(spent.values())
print(f"passes' shares of the time inside them ({total:.1f} s timed in a second replay, wall clock around each call, one core):")
print("  " + ", ".join(f"{name} {100 * s / total:.0f}%" for name, s in spent.most_common()))
"""

HALVES = """
import hashlib, os, resource, sys, time
os.environ["DAISHI_FORENSICS_PARALLEL"] = "1"
from daishi_forensics.read.boundary import as_parsed, read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.replay import _halves
from daishi_forensics.replay.analysis import paused_cycle_collection
from daishi_forensics.report.passes import CATALOGUE, aside_for, warm
import daishi_forensics.injection.summary  # loaded before the fork, as the behavior report's analysis does
clock = time.perf_counter
marks = {}
fork = _halves.fork
class Watched:
    def __init__(self, child):
        self.child = child
    def result(self):
        marks["mine"], marks["mine_cpu"] = clock(), time.process_time()
        answer = self.child.result()
        marks["theirs"] = clock()
        return answer
    def cancel(self):
        marks["stopped"] = True
        self.child.cancel()
_halves.fork = lambda fn: Watched(fork(fn))
read = read_match(open_match(sys.argv[1]))
plain = _halves._reads_plainly(read, read.source)
instances = CATALOGUE.build(read.archive, None)
aside = aside_for(read.source)  # the behavior report's choice for this match (its first lines read before the fork)
ahead = "the propagation" if "tiers" in aside else "the propagation's edges"
started, cpu = clock(), time.process_time()
with paused_cycle_collection():
    _halves.replay_in_halves(read, instances, aside, ahead=lambda passes, _timeline: warm(passes, read.archive))
mine = marks.get("mine_cpu", time.process_time()) - cpu
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
theirs = kids.ru_utime + kids.ru_stime
print(f"cpu        this process      {mine:>10.1f} s  (read with checks, world, and the passes but "
      f"{', '.join(sorted(aside))}; until the child's answer)")
print(f"cpu        the child         {theirs:>10.1f} s  (read {'without' if plain else 'with'} checks, world, "
      f"{', '.join(sorted(aside))}, {ahead}, pickling them)")
print(f"balance    child / this      {theirs / mine:>10.2f}    ("
      + ("the child's passes taken: this process's read was verbatim" if "stopped" not in marks and read.verbatim
         else "the child's passes taken: it read with checks" if "stopped" not in marks
         else "the child stopped: this process's read was not verbatim, its passes replayed here") + ")")
if "theirs" in marks:
    print(f"wall       waited            {marks['theirs'] - marks['mine']:>10.1f} s  for the child once this process's "
          f"half was done ({marks['mine'] - started:.1f} s)")
source = open_match(sys.argv[1])
withheld = read_match(source).errata_events
took = {"with checks": [], "without checks": []}
for _ in range(2):  # the child's read both ways, interleaved, each with the digest the child takes
    cpu = time.process_time()
    sum(1 for _ in read_match(_halves._digested(source, hashlib.sha256())).events())
    took["with checks"].append(time.process_time() - cpu)
    cpu = time.process_time()
    sum(1 for _ in as_parsed(_halves._digested(source, hashlib.sha256()), withheld))
    took["without checks"].append(time.process_time() - cpu)
best = {way: min(seconds) for way, seconds in took.items()}
print(f"cpu        a read            {best['without checks']:>10.1f} s  without checks, against "
      f"{best['with checks']:.1f} s with them ({100 * (1 - best['without checks'] / best['with checks']):.0f}% less; "
      "best of two, with the digest)")
"""

TEXTS = """
import os, sys, time
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
from daishi_forensics.injection import tiers
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.replay.analysis import paused_cycle_collection
from daishi_forensics.replay.driver import replay
from daishi_forensics.report.passes import CATALOGUE
read = read_match(open_match(sys.argv[1]))
passes = CATALOGUE.build(read.archive, ["promises", "tiers"])
promises = passes["promises"]
calls = {"extract": 0, "classify": 0}
texts = {}
extract, classify = promises._cache._extract, tiers._classify
def counted_extract(text):
    calls["extract"] += 1
    texts.setdefault(text, None)
    return extract(text)
def counted_classify(text, model):
    calls["classify"] += 1
    return classify(text, model)
promises._cache._extract, tiers._classify = counted_extract, counted_classify
tiers._classify_short.cache_clear()
with paused_cycle_collection():
    replay(read.events(), read.archive, list(passes.values()))
tiers._classify = classify
distinct = list(texts)
fresh = CATALOGUE.build(read.archive, ["promises"])["promises"].extractor
cpu = time.process_time
t0 = cpu(); [fresh.extract(t) for t in distinct]; t1 = cpu(); [classify(t, True) for t in distinct]; t2 = cpu()
print(f"texts      messages          {promises._messages:>10,}  ({len(distinct):,} distinct texts; the extractor ran "
      f"{calls['extract']:,} times, the tier classifier {calls['classify']:,})")
print(f"cpu        once per text     {t1 - t0:>10.2f} s  extracting commitments, {t2 - t1:.2f} s classifying tiers")
"""

BYTECODES = """
import itertools, os, sys
from collections import Counter
os.environ["DAISHI_FORENSICS_PARALLEL"] = "0"
from daishi_forensics.read.boundary import read_match
from daishi_forensics.read.sources import open_match
from daishi_forensics.replay.driver import replay
from daishi_forensics.report.passes import CATALOGUE
read = read_match(open_match(sys.argv[1]))
events = list(itertools.islice(read.events(), int(sys.argv[2])))
passes = list(CATALOGUE.build(read.archive, None).values())
counts = Counter()
def opcode(frame, event, arg):
    if event == "opcode":
        counts[frame.f_code.co_filename] += 1
    return opcode
def call(frame, event, arg):
    if "site-packages" in frame.f_code.co_filename or "/lib/python" in frame.f_code.co_filename:
        return None
    frame.f_trace_opcodes = True
    return opcode
sys.settrace(call)
replay(events, read.archive, passes)
sys.settrace(None)
by_module = Counter()
for filename, n in counts.items():
    by_module["/".join(filename.split(os.sep)[-2:]) if filename != "<string>" else "(dataclass methods)"] += n
total = sum(by_module.values())
print(f"bytecodes  per event         {total / len(events):>10.0f}  ({total:,} over {len(events):,} events)")
print("  " + ", ".join(f"{name} {n / len(events):.0f}" for name, n in by_module.most_common(16)))
"""


def floor_seconds(path: Path) -> tuple[int, float]:
    started = time.perf_counter()
    n = 0
    with open(path, "rb") as handle:
        handle.readline()
        for line in handle:
            json.loads(line)
            n += 1
    return n, time.perf_counter() - started


def ours(path: Path, one_cpu: bool) -> dict:
    env = {**os.environ, "BENCH_ONE_CPU": "1" if one_cpu else "0"}
    env.pop("DAISHI_FORENSICS_PARALLEL", None)  # the rule decides, as for a user
    proc = subprocess.run([sys.executable, "-c", OURS, str(path)], capture_output=True, text=True, check=True,
                          env=env)
    return json.loads(proc.stdout.strip().splitlines()[-1])


TERMINAL = """
import sys
from daishi_forensics.cli import main
sys.argv = ["daishi-forensics", "behavior", sys.argv[1], "--format", "json", "-o", sys.argv[2]]
main()
"""


def on_terminal(path: Path) -> tuple[float, float, bool]:
    """The command-line program as a user runs it at a terminal: its stderr on a pseudo-terminal (so its
    progress line is drawn), two cores allowed.  Its wall and CPU seconds (with its children's), and
    whether a progress line came."""
    master, slave = os.openpty()
    seen = bytearray()

    def drain() -> None:  # (the pseudo-terminal's buffer must not fill: the program would block writing)
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            seen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    env = dict(os.environ)
    env.pop("DAISHI_FORENSICS_PARALLEL", None)
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", TERMINAL, str(path), str(Path(folder) / "report.json")],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=env, check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    os.close(slave)
    reader.join(timeout=5)
    os.close(master)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, b"reading and analysing" in seen


def bench_stream(whole: Path, quarter: Path | None, rounds: int) -> None:
    floors, twos, ones, terminals = [], [], [], []
    for _ in range(rounds):
        floors.append(floor_seconds(whole))
        twos.append(ours(whole, one_cpu=False))
        ones.append(ours(whole, one_cpu=True))
        terminals.append(on_terminal(whole))
    n, floor = min(floors, key=lambda f: f[1])
    two = min(twos, key=lambda r: r["seconds"])
    one = min(ones, key=lambda r: r["seconds"])
    terminal = min(terminals)
    print(f"== {whole.name}: {n:,} events, {two['seats']} seats, {two['pairs']} trading pairs; "
          f"best of {rounds} interleaved runs each")
    print(f"floor      json.loads only   {n / floor:>10,.0f} events/s  ({floor:.1f} s; every floor run: "
          + ", ".join(f"{f:.1f}" for _, f in floors) + " s)")
    print(f"two cores  behavior          {two['records'] / two['seconds']:>10,.0f} events/s  ({two['seconds']:.1f} s)  "
          f"ratio {two['seconds'] / floor:.2f}x  (target <= 2.0x)")
    print(f"one core   behavior          {one['records'] / one['seconds']:>10,.0f} events/s  ({one['seconds']:.1f} s)  "
          f"ratio {one['seconds'] / floor:.2f}x  (target <= 2.5x)")
    print(f"terminal   the program       {two['records'] / terminal[0]:>10,.0f} events/s  ({terminal[0]:.1f} s, "
          f"CPU {terminal[1]:.1f} s)  ratio {terminal[0] / floor:.2f}x  (at a terminal, its progress line "
          f"{'drawn' if terminal[2] else 'NOT drawn'}; the program as a whole: start-up, the JSON file written; "
          "CPU above the wall time: the second core used)")
    digests = {r["sha256"] for r in twos + ones}
    print(f"same       JSON outputs      {'identical' if len(digests) == 1 else 'DIFFERENT'} "
          f"({len(twos) + len(ones)} runs, one core and two: {len(digests)} distinct SHA-256)")
    print(f"cpu        two cores         {two['cpu'] + two['children_cpu']:>10.1f} s  (this process {two['cpu']:.1f} s, "
          f"forked children {two['children_cpu']:.1f} s: the replay's other half and the report's sections)")
    print(f"cpu        one core          {one['cpu'] + one['children_cpu']:>10.1f} s  (forked children "
          f"{one['children_cpu']:.1f} s)")
    # ru_maxrss is in KiB: the peaks are printed in MiB (2^20 bytes), the target's MB are 10^6 bytes
    print(f"peak       one core          {one['peak_mb']:>10,.0f} MiB  ({one['peak_mb'] * 1.048576:,.0f} MB; target "
          f"< 400 MB = {400 / 1.048576:.1f} MiB); two cores {two['peak_mb']:,.0f} MiB, "
          f"largest child {two['children_peak_mb']:,.0f} MiB (partly pages shared with the parent)")
    if quarter is not None:
        small = ours(quarter, one_cpu=True)
        print(f"growth     1/4 match         {small['peak_mb']:>10,.0f} MiB at {small['records']:,} events: "
              f"{one['peak_mb'] - small['peak_mb']:+,.0f} MiB for {one['records'] - small['records']:,} more events")
    print()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The options (``--help`` prints the module's description and exits 0 before anything runs)."""
    parser = argparse.ArgumentParser(
        prog="bench/behavior.py", description=__doc__.split("\n\nUsage:")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Exit status: 0 when the bench ran (it measures; it never fails on a target), 2 on bad options.")
    parser.add_argument("events", nargs="?", type=int, default=1_000_000,
                        help="events of each simulated stream (default 1000000; the quarter sections use a quarter)")
    parser.add_argument("rounds", nargs="?", type=int, default=2,
                        help="interleaved runs of each way (floor, two cores, one core); the best counts (default 2)")
    parser.add_argument("--stream", type=Path, metavar="PATH",
                        help="bench this .jsonl stream instead of the two simulated ones")
    parser.add_argument("--real-texts", action="store_true",
                        help="also bench the 9-seat stream with real negotiation turns for its messages")
    for flag, what in (("--no-profile", "the cProfile ranks"), ("--no-split", "where one core's CPU goes"),
                       ("--no-halves", "the replay on two cores"), ("--no-texts", "the message texts"),
                       ("--no-bytecodes", "the bytecodes per event")):
        parser.add_argument(flag, action="store_true", help=f"skip {what} on the quarter")
    args = parser.parse_args(argv)
    if args.events < 4 or args.rounds < 1:
        parser.error("EVENTS must be at least 4 and ROUNDS at least 1")
    return args


def main() -> None:
    args = parse_args()
    events, rounds = args.events, args.rounds
    print(compiled_bytecode())
    if args.stream is not None:
        bench_stream(args.stream, None, rounds)
    else:
        for agents in (None, 96):  # the simulator's default (8 players and a probe seat), and 96 players
            bench_stream(simulated_stream(events, agents=agents), simulated_stream(events // 4, agents=agents),
                         rounds)
        if args.real_texts:
            bench_stream(real_text_stream(simulated_stream(events)), real_text_stream(simulated_stream(events // 4)),
                         rounds)
    if not args.no_profile:
        quarter = simulated_stream(events // 4, agents=96)
        print(f"== where the time goes: cProfile on {quarter.name} (one core, by own time; cProfile itself "
              "slows small calls, so read it for ranks, not seconds)")
        proc = subprocess.run([sys.executable, "-c", PROFILE, str(quarter), "25"], capture_output=True, text=True,
                              check=True)
        lines = proc.stdout.splitlines()
        start = next((k for k, line in enumerate(lines) if "ncalls" in line), 0)
        print("\n".join(lines[start:start + 27]))
    quarter_sections = (
        (args.no_split, "where one core's CPU goes on {name} (no profiler)", SPLIT, ()),
        (args.no_halves, "the replay on two cores on {name}", HALVES, ()),
        (args.no_texts, "message texts on {name}", TEXTS, ()),
        (args.no_bytecodes, "Python bytecodes the replay executes per event, by module, on the first 50,000 events "
         "of {name} (every pass; load-independent)", BYTECODES, ("50000",)),
    )
    for skipped, title, code, extra in quarter_sections:
        if skipped:
            continue
        quarters = [simulated_stream(events // 4, agents=96)]
        if code is HALVES and args.real_texts:  # a text-heavy match's split beside the usual one
            quarters.append(real_text_stream(simulated_stream(events // 4)))
        for quarter in quarters:
            print("== " + title.format(name=quarter.name))
            proc = subprocess.run([sys.executable, "-c", code, str(quarter), *extra], capture_output=True,
                                  text=True, check=True)
            print(proc.stdout.rstrip())


if __name__ == "__main__":
    main()
