"""Presidio's findings computed ahead by a second process: the same answers as computed here, used
only where they hold the chunk asked about, and never taken from a reader that would steal input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from daishi_forensics.injection import secrets
from daishi_forensics.injection.secrets import SecretFinding, find_secrets, scan_ahead, scrub
from daishi_forensics.replay.fork import cpus
from daishi_forensics.report import secrets_ahead

KEY = "sk-BYGWwi3XOqyN5UkXwQwcIWhozC5WlaJ0Dh3h7ehh"
TEXTS = [f"here you go: {KEY}", "mail me: bob@example.com", "let us trade wood", "x" * 5000 + " " + KEY]


@pytest.fixture(autouse=True)
def _no_scans_left() -> None:
    yield
    secrets.forget_scans()


def test_scans_ahead_are_presidios_answers_for_each_chunk_a_text_can_hand_it() -> None:
    scans = scan_ahead(TEXTS, (secrets.SECRET_CAP, 216), max_chunks=5, max_chars=5596)  # the caps just met
    assert scans is not None
    # the key's text: one chunk (its heads and its only window are the same); the mail's the same;
    # the game talk passes no pre-check; the long text: its 216-character head and its 4,096-character
    # head (x's: a 20-character run, so scanned, nothing found; the second is also its first window) and
    # its second window
    assert set(scans) == {TEXTS[0], TEXTS[1], TEXTS[3][:216], TEXTS[3][:4096], TEXTS[3][3840:]}
    assert sorted(f.entity for f in scans[TEXTS[0]]) == ["API_KEY", "SECRET_TOKEN"]  # before the de-duplication
    assert [f.entity for f in scans[TEXTS[1]]] == ["EMAIL_ADDRESS"]
    assert scans[TEXTS[3][:4096]] == () and scans[TEXTS[3][:216]] == ()
    for chunk, found in scans.items():
        assert found == tuple(secrets._presidio(chunk))


def test_too_much_to_scan_is_declined_before_presidio_reads_anything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrets, "_presidio", lambda chunk: pytest.fail("Presidio ran"))
    # TEXTS hold 5 chunks to scan, of 5,596 characters: 56 (the key's text), 24 (the mail's), 216 and 4,096 (the
    # long text's heads) and 1,204 (its second window: 5,044 characters from 3,840)
    assert scan_ahead(TEXTS, (secrets.SECRET_CAP, 216), max_chunks=4) is None
    assert scan_ahead(TEXTS, (secrets.SECRET_CAP, 216), max_chars=5595) is None
    assert scan_ahead(["let us trade wood"], (secrets.SECRET_CAP,), max_chunks=0) == {}  # nothing to scan


def test_expected_scans_answer_the_chunks_they_hold_and_presidio_the_rest() -> None:
    marker = SecretFinding("PASSWORD", 0, 4, 1.0)  # not what Presidio says: shows where an answer came from
    asked = []

    def get() -> secrets.Scans:
        asked.append(1)
        return {TEXTS[0]: (marker,)}

    secrets.expect_scans(get)
    assert find_secrets(TEXTS[0]) == (marker,)
    assert [f.entity for f in find_secrets(TEXTS[1])] == ["EMAIL_ADDRESS"]  # not held: Presidio here
    assert scrub(TEXTS[0]) == "<PASSWORD>" + TEXTS[0][4:]
    assert asked == [1]  # fetched once
    secrets.forget_scans()
    assert [f.entity for f in find_secrets(TEXTS[0])] == ["API_KEY"]


def test_a_failed_scan_leaves_every_chunk_to_presidio_here() -> None:
    secrets.expect_scans(lambda: None)
    assert [f.entity for f in find_secrets(TEXTS[0])] == ["API_KEY"]


@pytest.mark.parametrize(("target", "local"), [("m_demo", True), ("m_0123456789ab", True), ("-", False),
                                               ("https://daishi.ai/api/matches/m_0123456789ab", False)])
def test_only_a_target_a_second_reader_takes_nothing_from(target: str, local: bool) -> None:
    assert secrets_ahead._local(target) is local


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_pipe_is_never_read_twice(tmp_path: Path) -> None:
    fifo = tmp_path / "m.jsonl"
    os.mkfifo(fifo)
    assert secrets_ahead._local(str(fifo)) is False and secrets_ahead.start(str(fifo)) is None
    plain = tmp_path / "n.jsonl"
    plain.write_text("{}\n")
    assert secrets_ahead._local(str(plain)) is True and secrets_ahead._local(str(tmp_path)) is True


def test_a_file_the_replay_would_split_is_not_scanned_ahead(tmp_path: Path) -> None:
    from daishi_forensics.replay.split import SPLIT_BYTES

    big = tmp_path / "m.jsonl"
    with big.open("wb") as handle:
        handle.truncate(SPLIT_BYTES)  # (sparse: no disk used)
    small = tmp_path / "n.jsonl"
    small.write_bytes(b"{}\n")
    folder = tmp_path / "m_0123456789ab"
    folder.mkdir()
    (folder / "events.jsonl").symlink_to(big)
    assert secrets_ahead._large(str(big)) and secrets_ahead._large(str(folder))
    assert not secrets_ahead._large(str(small)) and not secrets_ahead._large(str(tmp_path))
    assert secrets_ahead.start(str(big)) is None


PROBE = """
import sys
from daishi_forensics.cli import main
sys.argv = ["daishi-forensics", "behavior", "m_demo", "-o", sys.argv[1]]
try:
    main()
except SystemExit as exit:
    print(exit.code, "presidio_analyzer" in sys.modules)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or cpus() < 2, reason="a second CPU and fork")
def test_the_demo_report_is_the_same_bytes_with_presidio_started_by_the_second_process(tmp_path: Path) -> None:
    def run(parallel: str, out: Path) -> str:
        env = {k: v for k, v in os.environ.items() if k != "DAISHI_FORENSICS_PARALLEL"}
        if parallel:
            env["DAISHI_FORENSICS_PARALLEL"] = parallel
        return subprocess.run([sys.executable, "-c", PROBE, str(out)], env=env, capture_output=True, text=True,
                              check=True).stdout.split()

    ahead, here = tmp_path / "ahead.txt", tmp_path / "here.txt"
    assert run("", ahead) == ["1", "False"]  # findings (exit 1); Presidio never imported in this process
    assert run("0", here) == ["1", "True"]
    assert ahead.read_bytes() == here.read_bytes()
    # every part of the report forked too (small as the match is): each asks Presidio itself, the same answers
    forked = tmp_path / "forked.txt"
    assert run("1", forked)[0] == "1" and forked.read_bytes() == here.read_bytes()
