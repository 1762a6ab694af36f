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
from collections.abc import Container
from pathlib import Path

import networkx as nx

from .test_layers import MODULES, imported, package_of


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def load_time_imports(module: str, path: Path, modules: Container[str]) -> set[str]:
    """The package's modules ``module`` imports as it loads (module docstring)."""
    package = package_of(module, path)
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if isinstance(node, ast.If) and _type_checking(node.test):
                visit(node.orelse)
                continue
            found.update(imported(node, package, modules))
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit(inner)
            for handler in getattr(node, "handlers", []):
                visit(handler.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return {name for name in found if name in modules and name != module}


def test_no_module_imports_back_one_that_imports_it_as_it_loads() -> None:
    graph = nx.DiGraph()
    for name, path in MODULES.items():
        graph.add_node(name)
        graph.add_edges_from((name, other) for other in load_time_imports(name, path, MODULES))
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
