"""The package's modules load in one order: no module, as it loads, imports one that imports it back.

What counts is what runs when a module loads: its top-level ``import`` statements (those in a class
body and in an ``else`` or ``try`` block too).  Left out: an import under ``if TYPE_CHECKING:``
(annotations only: the simulator's behaviours and mixins name the ``Simulation`` that drives them
that way) and an import inside a function (it runs when called, once every module is loaded).
``from package import module`` imports that module.  ``tests/test_layers.py`` holds the rooms'
order, imports inside functions included; this holds the order within a room.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"daishi_forensics": ROOT / "forensics", "daishi_forensics.schemas": ROOT / "schemas",
           "daishi_forensics.screens": ROOT / "screens", "daishi_forensics.probes": ROOT / "probes",
           "daishi_forensics.cli": ROOT / "cli"}


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if package == "daishi_forensics" and parts[0] in ("schemas", "screens", "probes", "cli"):
                continue  # (a folder of its own, installed under this name)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def load_time_imports(module: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules ``module`` imports as it loads (module docstring)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(node, ast.If) and _type_checking(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                named = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
                found.update(named)
                if len(named) < len(node.names):
                    found.add(base)
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit(inner)
            for handler in getattr(node, "handlers", []):
                visit(handler.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return {name for name in found if name in modules and name != module}


def test_no_module_imports_back_one_that_imports_it_as_it_loads() -> None:
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        graph.add_edges_from((name, other) for other in load_time_imports(name, path, set(modules)))
    cycles = sorted(sorted(cycle) for cycle in nx.simple_cycles(graph))
    assert cycles == []


def test_what_counts_as_loading(tmp_path: Path) -> None:
    """Type-only and function-local imports are left out; ``from package import module`` is that module."""
    package = tmp_path / "pkg"
    package.mkdir()
    source = package / "a.py"
    source.write_text("from typing import TYPE_CHECKING\nfrom . import b\nfrom .c import thing\n"
                      "if TYPE_CHECKING:\n    from .d import D\n"
                      "try:\n    import pkg.e\nexcept ImportError:\n    pass\n"
                      "def later():\n    from . import f\n", encoding="utf-8")
    modules = {f"pkg.{x}" for x in "abcdef"} | {"pkg"}
    assert load_time_imports("pkg.a", source, modules) == {"pkg.b", "pkg.c", "pkg.e"}
