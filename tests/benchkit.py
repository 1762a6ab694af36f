"""Loading a benchmark script (``bench/NAME.py``, not a package) as a module, for the tests of its
pure functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` as a fresh module named ``bench_<name>``, registered in ``sys.modules`` while it
    runs (its dataclasses look their module up there), with ``bench/`` on the import path (a benchmark may
    import another: ``import commitments_general``)."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
