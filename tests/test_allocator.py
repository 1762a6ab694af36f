"""Every command starts by fixing the C allocator's mmap threshold, so large freed arrays go back to the
system at once (a lower peak, the same results); an operator's own setting is left as it is."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

import daishi_forensics.cli as cli
from daishi_forensics.cli._allocator import LARGE, return_large_buffers


def test_an_operators_own_threshold_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "131072")
    assert return_large_buffers() is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_the_threshold_takes_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    import ctypes

    if not hasattr(ctypes.CDLL(None), "mallopt"):  # a C library without it (not glibc): nothing to set
        assert return_large_buffers() is False
    else:
        assert return_large_buffers(LARGE) is True


def test_every_command_sets_it_before_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(cli, "return_large_buffers", lambda: calls.append(1) or True)
    result = CliRunner().invoke(cli.main, ["schemas", "list"])
    assert result.exit_code == 0, result.output
    assert "event/" in result.output and calls == [1]
