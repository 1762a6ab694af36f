"""The layers point one way: every module imports only from its own room or an earlier one,
and never from another room's private module (a name starting with ``_``).

The rooms, in order (docs/ARCHITECTURE.md draws them):

    base      daishi_forensics.{errors, exitcodes, arithmetic, jsonio, version, textsafe, wording, outputs, lazy}, schemas
    screens   graph functions over any transfer graph (nothing of Daishi)
    simulate  the synthetic match writer (needs only the base)
    read      sources, the read boundary, upcast, schema checks, archive settings
    replay    world, timeline, driver, passes as data, analyze
    economy   ledger, commons, reputation, coverage, counters, witnesses, contact, transfers
    injection exposure, tiers, propagation, secrets, utility
    probes    the probe catalogue and compliance
    profile   negotiation, commitments, promises, harm, welfare, specialization, progression
    score     rubric, scoring, audit
    study     study audits: two files read strictly, the page recomputed (and simulated studies)
    report    assembly, sections, crosscheck, evidence, screening, renderers
    batch     seasons and Parquet export (many matches)
    cli       the commands

Imports are read from the source (``import`` statements anywhere in a file, and the
``"package.module:Name"`` strings that name lazily imported passes), so a back-import
hidden inside a function is caught too.  ``daishi_forensics/__init__.py`` is the package's
face and may load any room (lazily).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Container
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"daishi_forensics": ROOT / "forensics", "daishi_forensics.schemas": ROOT / "schemas",
           "daishi_forensics.screens": ROOT / "screens", "daishi_forensics.probes": ROOT / "probes",
           "daishi_forensics.cli": ROOT / "cli"}
BASE_MODULES = {"errors", "exitcodes", "arithmetic", "jsonio", "version", "textsafe", "wording", "outputs", "lazy"}
ORDER = ["base", "screens", "simulate", "read", "replay", "economy", "injection", "probes", "profile", "score",
         "study", "report", "batch", "cli"]
RANK = {room: k for k, room in enumerate(ORDER)}
LAZY = re.compile(r"[\"'](daishi_forensics(?:\.\w+)+):")


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).with_suffix("")
            parts = list(rel.parts)
            if package == "daishi_forensics" and parts[0] in ("schemas", "screens", "probes", "cli"):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


MODULES = modules()


def room(module: str) -> str | None:
    """The room of a module, None for the package face."""
    parts = module.split(".")
    if module == "daishi_forensics":
        return None
    second = parts[1]
    if second in ("schemas",) or second in BASE_MODULES:
        return "base"
    if second in RANK:
        return second
    raise AssertionError(f"{module} is in no room: add it to a room (tests/test_layers.py, docs/ARCHITECTURE.md)")


def package_of(module: str, path: Path) -> str:
    """The package a module's relative imports start from (the module itself for an ``__init__.py``)."""
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def imported(node: ast.stmt, package: str, known: Container[str]) -> list[str]:
    """What an import statement of a module in ``package`` imports: each ``import``'s names; for ``from X import
    name``, ``X.name`` when it is one of the ``known`` modules, else ``X`` (relative ``X`` resolved)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parts = package.split(".")
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join(parts) + ("." + base if base else "")
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]


def imports(module: str, path: Path) -> set[str]:
    """Every daishi_forensics module the file imports (statements anywhere, and lazy pass names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = package_of(module, path)
    found: set[str] = set()
    for node in ast.walk(tree):
        names = imported(node, package, MODULES) if isinstance(node, ast.stmt) else []
        for name in names:
            if name.startswith("daishi_forensics"):
                while name not in MODULES and "." in name:
                    name = name.rpartition(".")[0]
                found.add(name)
    for match in LAZY.finditer(path.read_text(encoding="utf-8")):
        found.add(match.group(1))
    found.discard(module)
    return found


def private_parts(module: str) -> list[str]:
    return [p for p in module.split(".") if p.startswith("_") and p != "__init__"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_to_earlier_rooms(module: str) -> None:
    mine = room(module)
    if mine is None:
        return
    for target in sorted(imports(module, MODULES[module])):
        theirs = room(target)
        assert theirs is not None, f"{module} imports the package face {target}"
        if theirs == mine:
            continue
        assert RANK[theirs] < RANK[mine], f"{module} ({mine}) imports {target} ({theirs}): a later room"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_of_another_rooms_private_module(module: str) -> None:
    mine = room(module)
    for target in sorted(imports(module, MODULES[module])):
        if private_parts(target) and room(target) != mine:
            raise AssertionError(f"{module} imports {target}, private to the {room(target)} room")


def test_every_room_is_a_folder_or_a_base_module() -> None:
    rooms = {room(m) for m in MODULES} - {None}
    assert rooms == set(ORDER), sorted(rooms ^ set(ORDER))


def test_a_back_import_is_caught(tmp_path: Path) -> None:
    """The checker itself: a read-layer file importing the report, at top level or lazily."""
    fake = tmp_path / "boundary.py"
    fake.write_text("def f():\n    from daishi_forensics.report.assembly import behavior_report\n"
                    "X = 'daishi_forensics.profile.promises:PromisePass'\n", encoding="utf-8")
    found = imports("daishi_forensics.read.fake", fake)
    assert found == {"daishi_forensics.report.assembly", "daishi_forensics.profile.promises"}
    assert all(RANK[room(t)] > RANK["read"] for t in found)


def test_the_package_face_is_pinned() -> None:
    """The curated API: renaming or dropping a name is a decision, made here."""
    import daishi_forensics as df

    assert df.__all__ == [
        "__version__", "open_match", "read_match", "MatchRead", "analyze", "MatchAnalysis", "behavior",
        "screen_match", "screen_graph", "ForensicsError", "InputUnreadable", "MatchNotFound", "InputTooLarge",
        "ServerError", "InvalidInput",
    ]
    assert df.__all__[1:] == list(df._EXPORTS)  # every lazy name is exported, and nothing else
    for name in df.__all__:
        assert getattr(df, name) is not None, name
    assert issubclass(df.MatchNotFound, df.InputUnreadable) and issubclass(df.InputUnreadable, df.ForensicsError)
    analysis = df.analyze(df.read_match(df.open_match("m_demo")), only=("counters",))
    assert sorted(analysis.passes) == ["counters"] and analysis.timeline.events == analysis.read.stats.yielded
