"""Every benchmark answers ``--help`` with its usage and exits 0 at once, never starting its work.

A benchmark that read ``--help`` as a size, or ran whole with it, failed a user asking how to
run it (and, for the long ones, kept the machine busy for minutes).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if not p.name.startswith("_"))


def test_every_benchmark_is_listed() -> None:
    assert len(SCRIPTS) >= 25
    assert {"behavior.py", "scaling.py", "season.py", "screens.py", "validate.py"} <= {p.name for p in SCRIPTS}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help_prints_usage_and_exits_at_once(script: Path) -> None:
    proc = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120,
                          cwd=BENCH.parent)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("usage:"), proc.stdout[:500]
    assert proc.stderr == ""
