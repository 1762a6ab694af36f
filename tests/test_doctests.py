"""Every docstring example in the package runs, under the names users import.

This is ``pytest --doctest-modules`` for an installed layout: the repository's folders
(``forensics/``, ``screens/``, ...) are one ``daishi_forensics`` namespace once installed,
and collecting the files by path would import a second copy of each module under its
folder's name (``forensics.score.rubric``), whose exceptions and classes are not the
ones the examples name.  So the examples are found and run on the installed modules.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import daishi_forensics


def _modules() -> list[str]:
    names = ["daishi_forensics"]
    for info in pkgutil.walk_packages(daishi_forensics.__path__, "daishi_forensics."):
        names.append(info.name)
    return sorted(names)


def _with_examples() -> list[str]:
    finder = doctest.DocTestFinder()
    found = []
    for name in _modules():
        module = importlib.import_module(name)
        if any(t.examples for t in finder.find(module, name)):
            found.append(name)
    return found


MODULES = _with_examples()


def test_the_examples_are_found() -> None:
    """Guards the finder itself: the rubric's and the tiers' examples are among them."""
    assert "daishi_forensics.score.rubric" in MODULES and "daishi_forensics.injection.tiers" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out: list[str] = []
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test, out=out.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(out)
    assert result.attempted > 0
