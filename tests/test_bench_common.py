"""The benches' shared function that makes the package's bytecode current before whole processes are timed."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

from .benchkit import load_bench


@pytest.fixture()
def common(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``bench/_common.py`` reading a made-up package ``pkgx`` (two modules, and a part ``pkgx.sub`` inside its
    folder, as an ordinary install lays the parts out) instead of this one, bytecode writing turned off."""
    root = tmp_path / "site"
    (root / "pkgx" / "sub").mkdir(parents=True)
    (root / "pkgx" / "__init__.py").write_text("A = 1\n")
    (root / "pkgx" / "sub" / "__init__.py").write_text("B = 2\n")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    importlib.invalidate_caches()
    module = load_bench("_common")
    monkeypatch.setattr(module, "PACKAGES", ("pkgx", "pkgx.sub"))
    yield module, root
    for name in ("pkgx", "pkgx.sub"):
        sys.modules.pop(name, None)


def test_compiles_what_is_missing_once_and_counts_each_module_once(common) -> None:
    module, root = common
    first = module.compiled_bytecode()
    assert first.startswith("bytecode   every module's bytecode current before timing (2 modules, 2 compiled now")
    assert module.compiled_bytecode().startswith(
        "bytecode   every module's bytecode current before timing (2 modules, 0 compiled now")
    cached = Path(importlib.util.cache_from_source(str(root / "pkgx" / "sub" / "__init__.py")))
    assert cached.exists()  # written although the process writes no bytecode of its own


def test_a_changed_module_is_compiled_again(common) -> None:
    module, root = common
    module.compiled_bytecode()
    changed = root / "pkgx" / "__init__.py"
    changed.write_text("A = 3\n")
    later = os.stat(changed).st_mtime + 10
    os.utime(changed, (later, later))
    assert "(2 modules, 1 compiled now" in module.compiled_bytecode()
