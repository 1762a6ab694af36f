"""Shared helpers of the benchmarks that measure on labelled data from elsewhere
(``labelled_matches.py``, ``labelled_cascades.py``, ``labelled_table.py``): Wilson intervals, a
rate as JSON, and finding matches and their truth files."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from daishi_forensics.read.sources import MATCH_SUFFIXES, TRUTH_SUFFIX  # the endings every command reads


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of ``k`` successes in ``n`` ((0, 1) when ``n`` is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(k: int, n: int) -> dict[str, Any]:
    """``k`` of ``n`` as JSON: the counts, the rate (None of nothing) and its Wilson interval."""
    lo, hi = wilson(k, n)
    return {"k": k, "n": n, "rate": round(k / n, 4) if n else None, "wilson95": [round(lo, 4), round(hi, 4)]}


def rate_line(name: str, r: dict[str, Any], width: int = 28) -> str:
    """One printed figure: ``name  0.900 [0.733, 0.965] (18/20)``."""
    if not r["n"]:
        return f"  {name:{width}s} n/a (0)"
    lo, hi = r["wilson95"]
    return f"  {name:{width}s} {r['rate']:.3f} [{lo:.3f}, {hi:.3f}] ({r['k']}/{r['n']})"


def matches_in(folder: Path, recursive: bool = True) -> list[Path]:
    """The ``m_*`` match files in ``folder`` (and below), sorted."""
    found = folder.rglob("m_*") if recursive else folder.glob("m_*")
    return sorted(p for p in found if p.is_file() and p.name.endswith(MATCH_SUFFIXES)
                  and not p.name.endswith(TRUTH_SUFFIX))


def truth_of(match: Path) -> Path | None:
    """The truth file of ``match``: ``<name>.truth.json`` beside it, else ``truth.json`` in a folder
    holding this one match (what ``daishi-forensics simulate`` writes)."""
    name = match.name
    for suffix in sorted(MATCH_SUFFIXES, key=len, reverse=True):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    beside = match.with_name(f"{name}{TRUTH_SUFFIX}")
    if beside.is_file():
        return beside
    folder = match.parent / "truth.json"
    if folder.is_file() and len(matches_in(match.parent, recursive=False)) == 1:
        return folder
    return None
