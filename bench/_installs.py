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
