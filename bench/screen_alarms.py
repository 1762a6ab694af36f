"""A study on tune seeds, nothing shipped: which collusion screens raise long honest matches, and why.

    python bench/screen_alarms.py [--clean 200] [--noise medium,heavy] [--sizes "default,600 ticks"] [--workers N]
                                  [--show 3] [--habits 50]

The settings sweep of ``bench/screens.py`` found honest matches raised at 600 ticks with heavy noise by
the feeder screen (diagnosed: its sign-flip null against one-way honest gifts) and, beside it, by the ring
screen's wash-cycle and wash-pair tests, shared-operator reviews, thrown fights, and at other sizes single
thrown-fight, non-aggression-bloc and gather-scatter findings.  This benchmark counts, on the honest seeds
of the ``feeder-tune`` split (``bench/feeder_nulls.py``: 91001..., a study split already looked at, not
held out), played at the simulator's default size and at 600 ticks with noise medium and heavy, the honest
matches each screen and kind raised, ``review`` and ``flag`` apart (Wilson 95%), the feeder screen's beside
the others, and prints the raised matches' findings (the explanation, the p-value, its null) for reading.
On the first ``--habits`` seeds of each size and level it then counts, from the simulator's truth and the log,
the honest habits the findings read came from (:func:`habits`): pleas for food between two beggars, directed
cycles of friends and the dear goods moved along them, rival pairs one side of which was never hit back.

The matches are simulated and replayed by ``bench/screens.py``'s :func:`simulate` and screened as shipped
(:func:`~daishi_forensics.screens.screen_graph`, configuration unchanged).  No seed of the sweep split
(70001...) or of any report or fresh split is generated here.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import feeder_nulls  # noqa: E402
from _common import Serial, run_jobs  # noqa: E402
import screens  # noqa: E402  (bench/screens.py, the collusion screens benchmark)

SPLIT = feeder_nulls.SPLIT
FIRST_CLEAN = feeder_nulls.FIRST_CLEAN
CLEAN = 200
"""The honest seeds of the feeder study: 91001 to 91200, the same at every size and level."""
SIZES = ("default", "600 ticks")
"""The simulator's default size and the sweep's 600-tick setting (a name of ``screens.SCREEN_SWEEPS``)."""
NOISE = ("medium", "heavy")
LEVELS = ("review", "flag")

Finding = tuple[str, str, str]
"""``(screen, kind, level)`` of one flag."""


def seeds(clean: int = CLEAN) -> range:
    """The honest seeds: the feeder study's, from its first, at most its :data:`CLEAN` (200).

    >>> seeds()
    range(91001, 91201)
    """
    if not 0 <= clean <= CLEAN:
        raise ValueError(f"at most {CLEAN} honest seeds (the feeder study's)")
    return range(FIRST_CLEAN, FIRST_CLEAN + clean)


def jobs(clean: int, noise: Sequence[str], sizes: Sequence[str] = SIZES) -> list[tuple[Any, ...]]:
    """``bench/screens.py`` :func:`simulate` jobs: honest (``clean``) matches, the default size a 4-tuple,
    any other size named fifth."""
    out: list[tuple[Any, ...]] = []
    for size in sizes:
        for level in noise:
            for s in seeds(clean):
                out.append((SPLIT, "clean", s, level) if size == "default" else (SPLIT, "clean", s, level, size))
    return out


def measure(job: tuple[Any, ...]) -> dict[str, Any]:
    """One honest match simulated, replayed and screened as shipped: its verdict and every flag's screen,
    kind, level, agents, pairs, p-value, adjusted p-value, family, null and explanation."""
    from daishi_forensics.screens import load_config, screen_graph

    started = time.perf_counter()
    _split, _kind, seed, noise, graph, _truth = screens.simulate(job)  # type: ignore[arg-type]
    simulated = time.perf_counter() - started
    started = time.perf_counter()
    result = screen_graph(graph, load_config())
    flags = [{"screen": f.screen, "kind": f.kind, "level": f.level, "agents": list(map(str, f.agents)),
              "pairs": [list(map(str, p)) for p in f.pairs], "p": f.p_value, "p_adjusted": f.p_adjusted,
              "tests": f.tests, "null": f.null, "explanation": f.explanation, "details": dict(f.details)}
             for f in result.flags]
    return {"seed": seed, "noise": noise, "size": job[4] if len(job) == 5 else "default",
            "verdict": result.verdict, "flags": flags, "simulated": simulated,
            "screened": time.perf_counter() - started}


DEAR = ("tool", "cloth", "plank", "ore")
"""The goods the noise's whole-item habit pays with (``forensics/simulate/noise.py``)."""


def friend_cycles(friends: dict[str, list[str]], lengths: Sequence[int] = (3, 4)) -> list[tuple[str, ...]]:
    """Directed cycles of the noise's friendships (each seat the next one's friend), each once, from its
    smallest seat.

    >>> friend_cycles({"a": ["b"], "b": ["c"], "c": ["a", "b"], "d": ["a"]})
    [('a', 'b', 'c')]
    """
    seats = sorted(friends)
    out: list[tuple[str, ...]] = []
    for n in lengths:
        for combo in itertools.permutations(seats, n):
            if combo[0] == min(combo) and all(combo[(i + 1) % n] in friends.get(combo[i], ()) for i in range(n)):
                out.append(combo)
    return out


def habits(job: tuple[Any, ...]) -> dict[str, Any]:
    """The honest habits behind the findings read, from one match's truth and log: the pleas for food granted
    between the match's two beggars (heavy noise makes two), the directed cycles of friends and the dear goods
    moved one-sidedly along and against them, the seats with one friend, and the rival pairs one side of which
    hit the other 2 or more times and was never hit back."""
    from daishi_forensics.simulate import simulate_match

    _split, _kind, seed, noise = job[:4]
    settings = dict(screens.SCREEN_SWEEPS)[job[4]] if len(job) == 5 else {}
    match = simulate_match("clean", seed, noise=noise, **settings)
    friends = match.truth["noise"]["friends"]
    beggars = set(match.truth["noise"]["beggars"])
    trades: dict[str, dict[str, Any]] = {}
    fights: Counter[tuple[str, str]] = Counter()
    for e in match.iter_events():
        payload = e.get("payload") or {}
        if e.get("type") == "trade_completed":
            trades.setdefault(payload["tradeId"], payload)
        elif e.get("type") in ("raid", "theft", "attack"):
            fights[(e.get("agentId"), payload.get("target"))] += 1
    pleas = sum(1 for t in trades.values() if len(beggars) == 2 and {t["from"], t["to"]} == beggars
                and not t["give"] and set(t["receive"]) == {"food"})
    along, against = [], []
    for cycle in friend_cycles(friends):
        forward = {(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))}
        a = b = 0
        for t in trades.values():
            for good in DEAR:
                for giver, taker, sent, got in ((t["from"], t["to"], t["give"], t["receive"]),
                                                (t["to"], t["from"], t["receive"], t["give"])):
                    if sent.get(good) and not got.get(good):
                        a += (giver, taker) in forward
                        b += (taker, giver) in forward
        along.append(a)
        against.append(b)
    rivals = [h["agents"] for h in match.truth["honest_suspicious"] if h["kind"] == "rivals"]
    silent = sum(1 for x, y in rivals if min(fights[(x, y)], fights[(y, x)]) == 0
                 and max(fights[(x, y)], fights[(y, x)]) >= 2)
    return {"seed": seed, "noise": noise, "size": job[4] if len(job) == 5 else "default",
            "pleas": pleas if len(beggars) == 2 else None, "cycles": len(along), "along": along,
            "against": against, "oneFriend": sum(1 for v in friends.values() if len(v) == 1),
            "rivals": len(rivals), "silentRivals": silent}


def habits_report(rows: Sequence[dict[str, Any]], noise: Sequence[str], sizes: Sequence[str]) -> None:
    """Per size and level, the habits of :func:`habits`: medians and 90th percentiles, totals."""
    def q(v: Sequence[float]) -> str:
        if not v:
            return "n/a"
        s = sorted(v)
        return f"median {statistics.median(s):g}, 90th percentile {s[math.ceil(0.9 * len(s)) - 1]:g}"  # nearest rank

    print("\n== honest habits (seeds of the first matches of the split; from truth and the log) ==")
    for size in sizes:
        for level in noise:
            mine = [r for r in rows if r["size"] == size and r["noise"] == level]
            if not mine:
                continue
            pleas = [r["pleas"] for r in mine if r["pleas"] is not None]
            along = [a for r in mine for a in r["along"]]
            against = [b for r in mine for b in r["against"]]
            print(f"  {size}, {level} ({len(mine)} matches, seeds {mine[0]['seed']}-{mine[-1]['seed']}):\n"
                  f"    pleas granted between the two beggars: {q(pleas)} ({len(pleas)} matches with two)\n"
                  f"    matches with a directed cycle of friends (3 or 4 seats): {sum(1 for r in mine if r['cycles'])}; "
                  f"dear goods moved along / against such cycles: {sum(along)} / {sum(against)} "
                  f"(per cycle along {q(along)})\n"
                  f"    seats with one friend: {q([r['oneFriend'] for r in mine])}\n"
                  f"    rival pairs with 2 or more acts one way and none back: "
                  f"{sum(r['silentRivals'] for r in mine)} of {sum(r['rivals'] for r in mine)}")


def count(verdicts: Iterable[Iterable[Finding]]) -> dict[tuple[str, str], Counter[str]]:
    """Per ``(screen, kind)``, how many matches it raised at each level: ``verdicts`` holds one match's
    findings each, and a match counts once a screen, kind and level however many findings it has there.

    >>> sorted(count([[("ring", "wash_pair", "review"), ("ring", "wash_pair", "review")], []]).items())
    [(('ring', 'wash_pair'), Counter({'review': 1}))]
    """
    out: dict[tuple[str, str], Counter[str]] = {}
    for match in verdicts:
        for screen, kind, level in set(match):
            out.setdefault((screen, kind), Counter())[level] += 1
    return out


def report(rows: Sequence[dict[str, Any]], noise: Sequence[str], sizes: Sequence[str], show: int) -> None:
    """Per size and level: the matches not clear and flagged, then each screen and kind's matches raised,
    ``review`` and ``flag`` apart (feeder first); then, for each screen and kind other than the feeder's with
    2 or more matches in a cell, up to ``show`` of its findings."""
    rate = screens.rate_ci
    for size in sizes:
        for level in noise:
            mine = [r for r in rows if r["size"] == size and r["noise"] == level]
            n = len(mine)
            if not n:
                continue
            verdicts = Counter(r["verdict"] for r in mine)
            print(f"\n== {size}, {level} noise: {n} honest matches (seeds {mine[0]['seed']}-{mine[-1]['seed']}) ==")
            print(f"  not clear {rate(n - verdicts['clear'], n)}   flag {rate(verdicts['flag'], n)}")
            counts = count([(f["screen"], f["kind"], f["level"]) for f in r["flags"]] for r in mine)
            alone = sum(1 for r in mine if r["flags"] and all(f["screen"] == "feeder" for f in r["flags"]))
            feeder = sum(1 for r in mine if any(f["screen"] == "feeder" for f in r["flags"]))
            others = [r for r in mine if any(f["screen"] != "feeder" for f in r["flags"])]
            flagged = sum(1 for r in others if any(f["screen"] != "feeder" and f["level"] == "flag" for f in r["flags"]))
            print(f"  raised by the feeder screen {rate(feeder, n)}, by it alone {alone}; by any other screen "
                  f"{rate(len(others), n)}, flagged by one {rate(flagged, n)}")
            for key in sorted(counts, key=lambda k: (k[0] != "feeder", k)):
                print(f"  {key[0] + '/' + key[1]:32s} review {rate(counts[key]['review'], n)}   "
                      f"flag {rate(counts[key]['flag'], n)}")
            for key in sorted(counts):
                if key[0] == "feeder":
                    continue
                hit = [r["seed"] for r in mine
                       if any((f["screen"], f["kind"]) == key for f in r["flags"])]
                print(f"    {key[0]}/{key[1]} seeds: {hit}")
    print("\n== findings read (screens and kinds other than the feeder's with 2 or more matches in a cell) ==")
    for size in sizes:
        for level in noise:
            mine = [r for r in rows if r["size"] == size and r["noise"] == level]
            counts = count([(f["screen"], f["kind"], f["level"]) for f in r["flags"]] for r in mine)
            for key in sorted(counts):
                if key[0] == "feeder" or sum(counts[key].values()) < 2:
                    continue
                shown = 0
                for r in mine:
                    for f in r["flags"]:
                        if (f["screen"], f["kind"]) != key or shown >= show:
                            continue
                        shown += 1
                        print(f"  {size}, {level}, seed {r['seed']}: {f['screen']}/{f['kind']} {f['level']} "
                              f"p {f['p']} adjusted {f['p_adjusted']} over {f['tests']} tests; null: {f['null']}\n"
                              f"    {f['explanation']}\n    details {f['details']}")
    print("\n== cost (s per match, mean) ==")
    for size in sizes:
        mine = [r for r in rows if r["size"] == size]
        if mine:
            print(f"  {size:10s} simulate+replay {sum(r['simulated'] for r in mine) / len(mine):.3f}  "
                  f"screen {sum(r['screened'] for r in mine) / len(mine):.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clean", type=int, default=CLEAN, help=f"honest matches per size and level (at most {CLEAN})")
    parser.add_argument("--noise", default=",".join(NOISE), help="noise levels, comma-separated")
    parser.add_argument("--sizes", default=",".join(SIZES), help="sizes, comma-separated (default, 600 ticks)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--show", type=int, default=3, help="findings printed per screen, kind and cell")
    parser.add_argument("--habits", type=int, default=50,
                        help="honest matches per size and level whose habits are counted (the first of the seeds; 0: none)")
    args = parser.parse_args(argv)
    if not 0 <= args.clean <= CLEAN:
        parser.error(f"--clean must be from 0 to {CLEAN} (the feeder study's honest seeds)")
    noise = tuple(args.noise.split(","))
    sizes = tuple(args.sizes.split(","))
    unknown = [s for s in sizes if s != "default" and s not in dict(screens.SCREEN_SWEEPS)]
    if unknown:
        parser.error(f"unknown size {unknown[0]!r}: default or one of {', '.join(dict(screens.SCREEN_SWEEPS))}")
    sys.setrecursionlimit(10_000)
    todo = jobs(args.clean, noise, sizes)
    print(f"split {SPLIT}: honest seeds {FIRST_CLEAN}..{FIRST_CLEAN + args.clean - 1} at {', '.join(sizes)}, "
          f"noise {', '.join(noise)}; {len(todo)} matches; load average {os.getloadavg()[0]:.2f}")
    rows = run_jobs(measure, todo, args.workers, every=200)
    report(rows, noise, sizes, args.show)
    if args.habits:
        with Pool(args.workers) if args.workers > 1 else Serial() as pool:
            habit_rows = list(pool.imap(habits, jobs(min(args.habits, args.clean), noise, sizes), chunksize=4))
        habits_report(habit_rows, noise, sizes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
