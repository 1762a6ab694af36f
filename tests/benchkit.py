"""Loading a benchmark script (``bench/NAME.py``, not a package) as a module, for the tests of its
pure functions."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` as a fresh module named ``bench_<name>``."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
