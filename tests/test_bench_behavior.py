"""bench/behavior.py: ``--help`` teaches and exits at once (it never starts the bench)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "behavior.py"


def test_help_teaches_and_runs_nothing() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: bench/behavior.py")
    for option in ("--stream PATH", "--no-profile", "--no-split", "--no-halves", "--no-texts", "--no-bytecodes"):
        assert option in proc.stdout
    assert "targets: two cores <= 2.0x, one core <= 2.5x" in proc.stdout
    assert "== " not in proc.stdout and proc.stderr == ""  # no stream simulated, no section run


def test_a_bad_option_is_a_usage_error() -> None:
    proc = subprocess.run([sys.executable, str(BENCH), "--rounds-please"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    assert "unrecognized arguments: --rounds-please" in proc.stderr and proc.stdout == ""
