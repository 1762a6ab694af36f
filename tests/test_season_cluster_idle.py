"""``season --cluster`` with no match left to run (no target holds one, or every one was kept from an earlier
run): no scheduler is asked, so one nobody answers at changes nothing."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import dask.config
import distributed  # noqa: F401 (its configuration's defaults loaded before a test sets one of them: see below)
import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.cli import main

from .test_season_hostile import _match



@pytest.fixture(autouse=True)
def _short_connect_timeout() -> Iterator[None]:
    """A connect timeout of 2 s, not Dask's 30 s, for a scheduler nobody answers at: set in Dask's configuration,
    which the command reads (Dask reads its environment once, when first imported, earlier in a test session).
    ``distributed`` is imported first: ``dask.config.set`` restores on exit what it found, so a ``distributed``
    section it created would be removed whole, with the defaults ``distributed`` added to it meanwhile."""
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        yield


def _nobody() -> str:
    """A loopback address nothing listens at."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


def test_a_season_of_an_empty_folder_on_a_cluster_nobody_answers_at_writes_its_summary(tmp_path: Path) -> None:
    # it connected all the same: "no Dask scheduler answered" after 30 s, exit 2 and no summary.json
    empty = tmp_path / "empty"
    empty.mkdir()
    plain = CliRunner().invoke(main, ["season", "screen", str(empty), "--out", str(tmp_path / "plain")])
    on = CliRunner().invoke(main, ["season", "screen", str(empty), "--out", str(tmp_path / "on"),
                                   "--cluster", _nobody()])
    assert (on.exit_code, plain.exit_code) == (exitcodes.UNREADABLE, exitcodes.UNREADABLE)
    assert on.stdout == plain.stdout.replace(str(tmp_path / "plain"), str(tmp_path / "on"))
    assert on.stdout.startswith("0 matches: none (0 run, 0 kept from an earlier run)\n")
    assert on.stderr == (f"daishi-forensics: error: no matches in {empty} (bundles, streams or match folders)\n"
                         f"unreadable: no matches in {empty} (bundles, streams or match folders)\n")
    assert (tmp_path / "on" / "summary.json").read_bytes() == (tmp_path / "plain" / "summary.json").read_bytes()


def test_a_fully_resumed_season_on_a_cluster_nobody_answers_at_keeps_every_match(tmp_path: Path) -> None:
    # every match kept from the earlier run: nothing to run, yet it connected (exit 2 after 30 s)
    folder = tmp_path / "in"
    _match(folder, "m_00000000000a")
    _match(folder, "m_00000000000b")
    out = tmp_path / "out"
    first = CliRunner().invoke(main, ["season", "screen", str(folder), "--out", str(out), "-j", "1"])
    assert first.exit_code == exitcodes.OK, first.output
    summary = (out / "summary.json").read_bytes()
    again = CliRunner().invoke(main, ["season", "screen", str(folder), "--out", str(out), "--cluster", _nobody()])
    assert (again.exit_code, again.stderr) == (exitcodes.OK, "")
    assert again.stdout == first.stdout.replace("(2 run, 0 kept", "(0 run, 2 kept")
    assert "(0 run, 2 kept from an earlier run)" in again.stdout
    assert (out / "summary.json").read_bytes() == summary
    # a match left to run asks the scheduler, as before: nobody answers, a usage error
    redo = CliRunner().invoke(main, ["season", "screen", str(folder), "--out", str(out), "--redo",
                                     "--cluster", _nobody()])
    assert redo.exit_code == exitcodes.USAGE, redo.output
    assert "no Dask scheduler answered" in redo.stderr
    assert (out / "summary.json").read_bytes() == summary
