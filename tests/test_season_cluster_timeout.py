"""``season --cluster``: a scheduler nobody answers at is waited for as long as Dask's configured connect timeout
(``distributed.comm.timeouts.connect``), not a fixed 30 s; 30 s only where Dask's configuration sets none."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import dask.config
import pytest
from click.testing import CliRunner

from daishi_forensics import exitcodes
from daishi_forensics.batch.season import CONNECT_TIMEOUT, connect_timeout
from daishi_forensics.cli import main
from daishi_forensics.errors import BadSetting

from .test_season_hostile import _match


def _nobody() -> str:
    """A loopback address nothing listens at."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"tcp://127.0.0.1:{s.getsockname()[1]}"


def _season(tmp_path: Path, address: str, timeout: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """``season screen`` of a one-match folder on ``address``, in a process of its own (Dask reads its
    configuration from the environment when first imported), with ``timeout`` as Dask's connect timeout."""
    folder = tmp_path / "in"
    _match(folder, "m_00000000000a")
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": timeout}
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-c", "from daishi_forensics.cli import main; main()", "season", "screen", str(folder),
                          "--out", str(tmp_path / "out"), "--cluster", address, "--quiet"],
                         capture_output=True, text=True, env=env, timeout=120)
    return run, time.monotonic() - start


def test_an_unreachable_scheduler_is_given_up_after_the_configured_timeout(tmp_path: Path) -> None:
    """With a 1 s connect timeout configured it still waited 30 s ("… after 30 s"), exit 2; now it gives up after
    the configured time (exit 2 as before), well before 30 s."""
    address = _nobody()
    run, took = _season(tmp_path, address, "1s")
    assert (run.returncode, run.stdout) == (exitcodes.USAGE, "")
    assert run.stderr == (f"daishi-forensics: error: --cluster / $DAISHI_CLUSTER: no Dask scheduler answered at "
                          f"{address} (Timed out trying to connect to {address} after 1 s)\n")
    assert took < 15, took


def test_an_unusable_timeout_is_a_usage_error(tmp_path: Path) -> None:
    run, _ = _season(tmp_path, _nobody(), "soon")
    assert (run.returncode, run.stderr) == (
        exitcodes.USAGE, "daishi-forensics: error: Dask's distributed.comm.timeouts.connect "
                         "($DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT or a Dask configuration file): 'soon' is no "
                         "time to wait for a scheduler: give one above zero, such as 10s or 500ms\n")


@pytest.mark.parametrize(("configured", "seconds"), [("1s", 1.0), ("500ms", 0.5), (2, 2.0), ("1 minute", 60.0),
                                                      (None, CONNECT_TIMEOUT)])
def test_the_timeout_is_dasks(configured: object, seconds: float) -> None:
    with dask.config.set({"distributed.comm.timeouts.connect": configured}):
        assert connect_timeout() == seconds
    assert CONNECT_TIMEOUT == 30.0


@pytest.mark.parametrize("configured", ["soon", "0s", "-1", True])
def test_an_unusable_one_is_refused(configured: object) -> None:
    with dask.config.set({"distributed.comm.timeouts.connect": configured}), pytest.raises(BadSetting) as raised:
        connect_timeout()
    assert raised.value.exit_code == exitcodes.USAGE


def test_the_help_says_it() -> None:
    shown = " ".join(CliRunner().invoke(main, ["season", "screen", "--help"]).stdout.split())
    assert ("A scheduler that does not answer is waited for as long as Dask's connect timeout says "
            "(distributed.comm.timeouts.connect: $DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT or a Dask configuration "
            "file; 30s where none is set), then it is a usage error") in shown
