"""Fixtures shared by the server tests: the loopback server of ``test_server_hostile`` serving the
three-page export and the report (``routes``: path -> responder, a test may swap one).  A test file
that needs another server defines its own ``server`` or ``routes``, which takes precedence."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .test_server_hostile import EXPORT, REPORT, Respond, pages, report, serve


@pytest.fixture
def routes() -> dict[str, Respond]:
    return {EXPORT: pages, REPORT: report}


@pytest.fixture
def server(routes: dict[str, Respond]) -> Iterator[str]:
    yield from serve(routes)


@pytest.fixture(autouse=True)
def _no_step_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run inside a GitHub workflow step never add to that step's summary (``screen --format github``
    writes one where ``$GITHUB_STEP_SUMMARY`` is set); a test that wants one sets it."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
