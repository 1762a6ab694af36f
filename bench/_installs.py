"""Shared helpers of the benchmarks that compare two installs text by text
(``commitments_same.py``, ``tiers_same.py``): run code in an install's Python, compare digests, time
both installs alternately."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def install_json(python: Path, code: str, args: list[str], doing: str) -> Any:
    """Run ``code`` in the install of ``python`` with ``args``; its last line of output, as JSON (the
    bench stops, with the install's error, when it fails; ``doing`` says what it was doing)."""
    proc = subprocess.run([str(python), "-c", code, *args], capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"{python} could not {doing}:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compared(old: dict[str, str], new: dict[str, str]) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Per source (the key's first two words, the file or match), (identical, all); the differing keys."""
    per: dict[str, tuple[int, int]] = {}
    differing = []
    for key in sorted(old.keys() | new.keys()):
        source = " ".join(key.split(" ")[:2]).split(":")[0]
        same = old.get(key) == new.get(key)
        hits, total = per.get(source, (0, 0))
        per[source] = (hits + same, total + 1)
        if not same:
            differing.append(key)
    return per, differing


def best_alternating(rounds: int, names: tuple[str, ...],
                     timed: Callable[[str], tuple[int, float]]) -> tuple[int, dict[str, float]]:
    """(texts, each install's best seconds) over ``rounds`` rounds, the installs run one after the
    other in each (a load that drifts favours none)."""
    best: dict[str, float] = {}
    texts = 0
    for _ in range(rounds):
        for name in names:
            texts, seconds = timed(name)
            best[name] = min(best.get(name, seconds), seconds)
    return texts, best


def comparing_parser(description: str, timed: str) -> Any:
    """The options every install-comparing bench takes (``timed``: what ``--cpu`` times)."""
    import argparse

    repo = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--old", default="rev:main", help="the reference install (venv, executable or rev:<commit>)")
    parser.add_argument("--new", default=str(repo / ".venv"), help="the install to check")
    parser.add_argument("--work", type=Path, default=Path("/tmp/daishi-same-bytes"), help="scratch folder")
    parser.add_argument("--cpu", type=int, default=0, metavar="N",
                        help=f"time {timed} on the 96-seat quarter's distinct texts N times per install")
    parser.add_argument("--events", type=int, default=250_000, help="events of the 96-seat simulated match")
    return parser


def pythons_of(opts: Any) -> dict[str, Path]:
    """The old and new installs' Python executables (built from ``rev:`` specs when asked), printed."""
    from same_bytes import executable

    pythons = {name: executable(spec, opts.work.resolve()).parent / "python"
               for name, spec in (("old", opts.old), ("new", opts.new))}
    print(f"old: {pythons['old']}\nnew: {pythons['new']}", flush=True)
    return pythons


def print_compared(old: dict[str, str], new: dict[str, str], noun: str) -> list[str]:
    """Print, per source, how many of its ``noun`` are identical, and the first differing keys;
    return every differing key."""
    per, differing = compared(old, new)
    for source, (hits, total) in per.items():
        print(f"{'same   ' if hits == total else 'DIFFERS'}  {source}  {hits:,} of {total:,} {noun} identical")
    for key in differing[:40]:
        print(f"  differs: {key}")
    return differing


def print_cpu(texts: int, best: dict[str, float], match: Path, rounds: int, done: str) -> None:
    """The CPU line: each install's best seconds over ``rounds`` alternating processes."""
    print(f"cpu      {texts:,} distinct texts of {match.name}, {done} once each, best of {rounds} "
          f"alternating processes (three passes each): old {best['old']:.3f} s, new {best['new']:.3f} s "
          f"(new/old {best['new'] / best['old']:.3f})")
