"""The type checker's gate: ``mypy`` (its settings in ``pyproject.toml``: strict on the read
boundary and the replay, the default checks on the other rooms it lists) passes on the
package under the names users import.

The repository's folders become one ``daishi_forensics`` namespace only when installed, and
mypy does not report on installed packages; so the installed package's folders are linked
into a tree of that name and mypy reads the tree.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import daishi_forensics

ROOT = Path(__file__).resolve().parents[1]
SUBPACKAGES = ("schemas", "screens", "probes", "cli")  # folders of their own in the repository


def _link_tree(into: Path) -> Path:
    package = into / "daishi_forensics"
    package.mkdir(parents=True)
    for entry in Path(daishi_forensics.__path__[0]).iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for name in SUBPACKAGES:
        if not (package / name).exists():
            (package / name).symlink_to(Path(importlib.import_module(f"daishi_forensics.{name}").__path__[0]))
    return into


def test_mypy_passes(tmp_path: Path) -> None:
    tree = _link_tree(tmp_path / "tree")
    env = {**os.environ, "MYPYPATH": str(tree)}
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff_passes() -> None:
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_reads_every_module() -> None:
    """Every room (a package of ``daishi_forensics``, the repository's own folders among them) and every
    base module is listed in ``pyproject.toml``'s mypy settings, which are strict: a room added later is
    not left out of the gate."""
    import tomllib

    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    listed = set(mypy["packages"]) | set(mypy.get("modules", ()))
    rooms = {f"daishi_forensics.{p.parent.name}" for p in (ROOT / "forensics").glob("*/__init__.py")}
    rooms |= {f"daishi_forensics.{name}" for name in SUBPACKAGES}
    base = {f"daishi_forensics.{p.stem}" for p in (ROOT / "forensics").glob("*.py") if p.stem != "__init__"}
    assert mypy["strict"] is True
    assert sorted(rooms - listed) == [] and sorted(base - listed) == []
    assert "daishi_forensics" in listed  # the package's face
