"""What ``export`` and ``screen`` say when a target (a match on a server) cannot be read: never that
something was written or screened clear when it was not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main

from .test_server_hostile import serve

MISSING = "m_0000000000ff"


@pytest.fixture
def server() -> Iterator[str]:
    yield from serve({})  # every path answers 404


def run(server: str, tmp_path: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [*args, "--store", str(tmp_path / "store"), "--server", server])
    return result.exit_code, result.stdout, result.stderr


def test_export_of_nothing_readable_says_nothing_was_written(server: str, tmp_path: Path) -> None:
    out = tmp_path / "lake"
    code, stdout, stderr = run(server, tmp_path, "export", "--parquet", str(out), MISSING)
    assert code == 3
    assert stdout == ""
    assert stderr == (f"daishi-forensics: error: {server}/api/matches/{MISSING}/export: the server has no such match "
                      f"(HTTP 404)\ndaishi-forensics: nothing written to {out}: no target could be exported\n")
    assert not out.exists()


def test_export_of_some_readable_says_how_many_were_written(server: str, tmp_path: Path) -> None:
    out = tmp_path / "lake"
    code, stdout, _ = run(server, tmp_path, "export", "--parquet", str(out), MISSING, "m_demo")
    assert code == 3
    assert stdout.splitlines()[-1] == (f"wrote {out}/events, seats, pairs (of 2 matches, 1 exported; the errors "
                                       "above say why the other 1 was not)")
    assert [p.name for p in (out / "events").iterdir()] == ["match_id=m_32d5b4896ccb"]


@pytest.mark.parametrize("targets", [[MISSING], [MISSING, "m_0000000000fe"]])
def test_screen_of_nothing_readable_has_no_verdict(server: str, tmp_path: Path, targets: list[str]) -> None:
    from daishi_forensics.screens.config import load_config

    config = load_config(None)
    stamp = f"(screens config {config.version}, {config.digest})"
    code, stdout, _ = run(server, tmp_path, "screen", *targets)
    assert code == 3
    said = [f"NOT SCREENED {t}: {server}/api/matches/{t}/export: the server has no such match (HTTP 404)"
            for t in targets]
    which = "the target could not" if len(targets) == 1 else "none of the 2 targets could"
    assert " ".join(stdout.split()) == " ".join(
        [*said, f"nothing screened: {which} be screened (see above), so there is no verdict {stamp}"])
    code, stdout, _ = run(server, tmp_path, "screen", "--format", "json", *targets)
    document = orjson.loads(stdout)
    assert code == 3 and document["verdict"] is None and document["exitCode"] == 3
    code, stdout, _ = run(server, tmp_path, "screen", "--format", "github", *targets)
    assert code == 3 and stdout.splitlines()[-1] == ("screens: nothing could be screened, no verdict "
                                                     f"(config {config.version}, {config.digest})")
    code, stdout, _ = run(server, tmp_path, "screen", "--format", "sarif", *targets)
    assert code == 3 and orjson.loads(stdout)["runs"][0]["properties"]["verdict"] is None


def test_screen_with_one_match_read_keeps_its_verdict(server: str, tmp_path: Path) -> None:
    code, stdout, _ = run(server, tmp_path, "screen", MISSING, "m_demo")
    assert code == 3
    text = " ".join(stdout.split())
    assert "nothing screened" not in text and " 1 not screened (screens config" in text
