"""Every docstring example of the benchmark scripts (``bench/*.py``) holds.

The package's examples run in ``tests/test_doctests.py``; the benchmark scripts are not a package, so they are
loaded one by one as modules (:func:`.benchkit.load_bench`) and their examples run here: an example that no longer
says what its function does fails the suite instead of misleading a reader.
"""

from __future__ import annotations

import doctest

import pytest

from .benchkit import BENCH, load_bench

SCRIPTS = sorted(p.stem for p in BENCH.glob("*.py") if ">>>" in p.read_text(encoding="utf-8"))
"""The benchmark scripts that hold an example."""


def test_the_scripts_with_examples_are_found() -> None:
    # the scripts known to hold examples are found (a glob gone wrong would run none and pass)
    assert {"commitments_set", "commitments_general", "commitments_halves", "screens"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_benchmark_scripts_examples_hold(name: str) -> None:
    module = load_bench(name)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module):
        runner.run(test)
    assert runner.tries > 0, f"bench/{name}.py: no example found"
    assert runner.failures == 0, f"bench/{name}.py: {runner.failures} of {runner.tries} examples fail"
