"""One function per concept: no function of the package grows past :data:`LIMIT` lines, but the
ones named in :data:`KEPT_WHOLE`, each with the reason it is one piece.

A function that outgrows the limit is split by the rules its docstring already names (one
helper per rule or per step), not by line count; the limit only says when to look.
"""

from __future__ import annotations

import ast
from pathlib import Path

from .test_layers import MODULES, ROOT

LIMIT = 100
"""Lines from a function's ``def`` (its decorators left out) to its last line, docstring included."""

KEPT_WHOLE = {
    "forensics/read/boundary.py:MatchRead.events":
        "the read boundary's hot path: every valid v3 record passes through its loop, whose state lives in "
        "locals (a call per record for a helper would cost a tenth of the read)",
}
"""Functions allowed past the limit, by ``file:qualified name``, each with its reason."""


def _functions(path: Path) -> list[tuple[str, int]]:
    """Each function of the file (methods by ``Class.name``, nested ones by ``outer.name``) and its length."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                found.append((name, (child.end_lineno or child.lineno) - child.lineno + 1))
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def _sizes() -> dict[str, int]:
    return {f"{path.relative_to(ROOT).as_posix()}:{name}": lines
            for path in sorted(MODULES.values()) for name, lines in _functions(path)}


def test_no_function_grows_past_the_limit() -> None:
    sizes = _sizes()
    over = {name: lines for name, lines in sizes.items() if lines > LIMIT and name not in KEPT_WHOLE}
    assert over == {}, f"split these by the rules their docstrings name: {over}"


def test_each_function_kept_whole_is_still_past_the_limit() -> None:
    """An entry of KEPT_WHOLE that no longer needs it (split, shortened, renamed) is taken out."""
    sizes = _sizes()
    assert {name: sizes.get(name) for name in KEPT_WHOLE if sizes.get(name, 0) <= LIMIT} == {}


def test_a_function_is_measured_from_def_to_its_last_line(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text('@decorated\ndef f(x):\n    """Doc."""\n    return x\n\n\nclass C:\n    def g(self):\n'
                      '        def inner():\n            return 1\n        return inner\n', encoding="utf-8")
    assert _functions(source) == [("f", 3), ("C.g", 4), ("C.g.inner", 2)]
