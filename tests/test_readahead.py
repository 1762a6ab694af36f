"""The schema checks read ahead in a helper process give exactly what the boundary gives alone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from daishi_forensics import analysis as analysis_module
from daishi_forensics import readahead
from daishi_forensics.analysis import HELPER_PASSES, analyze
from daishi_forensics.reading import MatchRead, read_match
from daishi_forensics.report import behavior_report
from daishi_forensics.sources import open_match

from .matchkit import archive, ev, trade, write_match


def _events() -> list[dict[str, Any]]:
    """A match of 59 events, some of them invalid, around the block edges of 8 records."""
    events = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0")]
    eid = 3
    for tick in range(1, 44):
        if tick % 3 == 0:
            events += trade(eid, tick, f"t_{tick}", "a_1", "a_2", {"wood": 1}, {"ore": 1})
            eid += 2
        else:
            events.append(ev(eid, tick, "move", "a_1", **{"from": "r_0_0", "to": "r_0_1"}))
            eid += 1
    events[7]["payload"]["to"] = 17             # block 0's last record (index 7): a wrong type
    events[8]["payload"].pop("from")            # block 1's first record: a missing field
    events[20]["agentId"] = ["a_1"]             # a wrong envelope field
    events[33]["type"] = ["move"]               # a type that is not a string
    events[40]["schemaVersion"] = 3.5           # a version this tool does not read
    return events


def _read(path: Path, *, ahead: bool, pause: float = 0.0) -> tuple[list[dict[str, Any]], Any, int]:
    read = read_match(open_match(str(path)))
    read.read_ahead = ahead
    out = []
    for event in read.events():
        if pause and not out:
            time.sleep(pause)  # the helper has answered every block by the time the boundary goes on
        out.append(event)
    return out, read.stats, read.read_ahead_blocks


@pytest.mark.parametrize("form", ["stream", "stream-gz", "folder"])
def test_read_ahead_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str) -> None:
    monkeypatch.setenv(readahead.ENV, "1")
    monkeypatch.setattr(readahead, "BLOCK", 8)
    path = write_match(tmp_path, _events(), archive(["a_1", "a_2"], ended=50), form=form)
    alone, alone_stats, none = _read(path, ahead=False)
    helped, helped_stats, blocks = _read(path, ahead=True, pause=3.0)
    assert none == 0 and blocks == 7  # 59 records: blocks 1..7 after the first, all answered by the helper
    assert helped == alone and len(alone) == 54
    assert helped_stats == alone_stats and alone_stats.invalid == 5
    assert [(p.line, p.event_id, p.path) for p in helped_stats.problems] == \
           [(p.line, p.event_id, p.path) for p in alone_stats.problems]
    assert behavior_report(analyze(read_match(open_match(str(path))))) == \
           behavior_report(analyze(read_match(open_match(str(path)))))


def test_read_ahead_not_wanted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_match(tmp_path, _events(), archive(["a_1", "a_2"], ended=50), form="stream")
    records = open_match(str(path)).file_records
    assert records is not None and records.path == str(path) and records.skip_header
    monkeypatch.setenv(readahead.ENV, "0")
    assert not readahead.wanted(records)
    monkeypatch.delenv(readahead.ENV)
    assert not readahead.wanted(records)  # a small file reads in no time
    monkeypatch.setattr(readahead, "READ_AHEAD_BYTES", 1)
    assert readahead.wanted(records) == (readahead._cpus() >= 2)
    bundle = write_match(tmp_path / "b", _events(), archive(["a_1", "a_2"], ended=50), form="bundle")
    assert open_match(str(bundle)).file_records is None and not readahead.wanted(None)


def test_a_helper_that_never_answers_is_not_waited_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A helper that dies at once: the boundary checks every block itself, same result."""
    monkeypatch.setenv(readahead.ENV, "1")
    path = write_match(tmp_path, _events(), archive(["a_1", "a_2"], ended=50), form="stream")
    alone, alone_stats, _ = _read(path, ahead=False)
    monkeypatch.setattr(readahead.ReadAhead, "__init__", _dead_helper)
    helped, helped_stats, blocks = _read(path, ahead=True, pause=0.5)
    assert blocks == 0 and helped == alone and helped_stats == alone_stats


def _fake_helper(self: readahead.ReadAhead, code: str) -> None:
    """The boundary's side of a helper whose child runs ``code`` instead of the helper."""
    import os
    import subprocess
    import sys

    self.block = 8
    self._process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    self._fd = self._process.stdout.fileno()  # type: ignore[union-attr]
    os.set_blocking(self._fd, False)
    self._pending = b""
    self._answers = {}
    self._alive = True
    self._payload = None
    self._payload_size = -1
    self.taken = 0


def _dead_helper(self: readahead.ReadAhead, records: Any, block: int | None = None, context: Any = None) -> None:
    _fake_helper(self, "pass")  # ends at once


def test_an_unguarded_caller_script_is_not_run_again(tmp_path: Path) -> None:
    """A library user's script without a ``__main__`` guard runs once: the helper is a plain
    child interpreter, not multiprocessing's spawn (which re-imports the main script)."""
    import subprocess
    import sys

    path = write_match(tmp_path, _events(), archive(["a_1", "a_2"], ended=50), form="stream")
    marks = tmp_path / "marks"
    script = tmp_path / "audit.py"
    script.write_text(
        "import time\n"
        "from daishi_forensics.reading import read_match\n"
        "from daishi_forensics.sources import open_match\n"
        f"open({str(marks)!r}, 'a').write('ran\\n')\n"
        f"read = read_match(open_match({str(path)!r}))\n"
        "events = read.events()\n"
        "first = next(events)\n"
        "time.sleep(2.0)\n"
        "rest = list(events)\n"
        "print(len(rest) + 1, read.read_ahead_blocks)\n"
    )
    import os

    env = {**os.environ, readahead.ENV: "1"}
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["54", "0"]  # 59 records, 5 invalid; one block of 4096: checked here
    assert marks.read_text() == "ran\n"


# --------------------------------------------------------------------------- passes in the helper


def _talking_events() -> list[dict[str, Any]]:
    """The 59 records above plus promises made, kept and broken, so the promises pass has work."""
    events = _events()
    eid = 1000
    for tick, text in ((44, "a_2: I'll give you 1 wood"), (45, "a_2, I won't attack you"), (46, "deal")):
        events.append(ev(eid, tick, "message_private", "a_1", to="a_2", text=text))
        eid += 1
    events += trade(eid, 47, "t_late", "a_1", "a_2", {"wood": 1}, {"ore": 1})
    events.append(ev(eid + 2, 48, "attack", "a_1", target="a_2", region="r_0_0", damage=3, witnessed=False))
    # valid against their schemas, refused all the same: an id going back, another match's, off the map
    events.append(ev(999, 48, "move", "a_2", **{"from": "r_0_0", "to": "r_0_1"}))
    foreign = ev(eid + 3, 49, "move", "a_2", **{"from": "r_0_0", "to": "r_0_1"})
    foreign["matchId"] = "m_ffffffffffff"
    events += [foreign, ev(eid + 4, 49, "move", "a_1", **{"from": "r_0_0", "to": "r_99_99"}),
               ev(eid + 5, 50, "move", "a_1", **{"from": "r_0_0", "to": "r_1_0"})]
    return events


def _report(path: Path) -> dict[str, Any]:
    analysis = analyze(read_match(open_match(str(path))))
    return behavior_report(analysis)


@pytest.mark.parametrize("form", ["stream", "folder"])
def test_passes_run_in_the_helper_give_the_same_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       form: str) -> None:
    erratum = {"id": "E9", "text": "a promise that was never sent", "events": [1001], "scoresDepend": False}
    path = write_match(tmp_path, _talking_events(), archive(["a_1", "a_2"], ended=60, errata=[erratum]), form=form)
    monkeypatch.setenv(readahead.ENV, "0")
    alone = _report(path)
    assert alone["source"]["invalid"] == 8 and alone["errata"] == [erratum]
    assert any(s["profile"]["promises"]["made"] for s in alone["seats"] if s.get("profile"))
    monkeypatch.setenv(readahead.ENV, "1")
    monkeypatch.setattr(readahead, "BLOCK", 8)
    got: list[Any] = []
    real = MatchRead.delegated_passes

    def spy(self: MatchRead) -> Any:
        result = real(self)
        got.append((result, self.read_ahead_blocks))
        return result

    monkeypatch.setattr(MatchRead, "delegated_passes", spy)
    real_events = MatchRead.events

    def pausing(self: MatchRead) -> Any:
        for i, event in enumerate(real_events(self)):
            if i == 0:
                time.sleep(3.0)  # the helper has answered every block by the time the boundary goes on
            yield event

    monkeypatch.setattr(MatchRead, "events", pausing)
    helped = _report(path)
    (passes, blocks), = got
    assert passes is not None and sorted(passes) == sorted(HELPER_PASSES)  # the passes came from the helper
    assert blocks == 8  # 69 records: blocks 1..8 after the first, each vouched for by the helper
    assert helped == alone


def test_a_helper_that_fails_its_passes_leaves_them_to_the_boundary(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper dies before it sends its passes (or sends something else): they run here, same report."""
    path = write_match(tmp_path, _talking_events(), archive(["a_1", "a_2"], ended=60), form="stream")
    monkeypatch.setenv(readahead.ENV, "0")
    alone = _report(path)
    monkeypatch.setenv(readahead.ENV, "1")
    monkeypatch.setattr(readahead.ReadAhead, "__init__", _dead_helper)
    again: list[tuple[str, ...]] = []
    real = analysis_module._replay_again
    monkeypatch.setattr(analysis_module, "_replay_again",
                        lambda read, names: again.append(names) or real(read, names))
    assert _report(path) == alone and again == [HELPER_PASSES]
    monkeypatch.setattr(readahead.ReadAhead, "__init__", _garbling_helper)
    assert _report(path) == alone and again == [HELPER_PASSES, HELPER_PASSES]


def _garbling_helper(self: readahead.ReadAhead, records: Any, block: int | None = None, context: Any = None) -> None:
    """A helper that announces its passes, then sends bytes that are not a pickle of them (and no
    block's answer: the boundary checks every record itself)."""
    _fake_helper(self, "import sys; sys.stdout.write('R 5\\nnope!')")


def test_the_announcing_helper_names_the_records_the_fast_path_left(tmp_path: Path) -> None:
    """The helper's own boundary tells, per block, every record its fast path did not take."""
    import io

    path = write_match(tmp_path, _events(), archive(["a_1", "a_2"], ended=50), form="stream")
    source = open_match(str(path))
    out = io.BytesIO()
    context = {"passes": ["promises"], "name": source.name, "form": source.form, "header": source.header,
               "errata": source.errata, "strict": False}
    readahead._analyse_ahead(source.file_records, context, out, 8)  # type: ignore[arg-type]
    lines, _, rest = out.getvalue().partition(b"R ")
    assert lines.splitlines() == [b"0 7", b"8 8", b"16 20", b"24", b"32 33", b"40 40", b"48", b"56"]
    size, _, payload = rest.partition(b"\n")
    assert int(size) == len(payload)


def test_a_part_computed_aside_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from daishi_forensics import aside

    part = aside.aside(lambda: {"verdict": "clear", "scores": [0.1, 1 / 3]})
    assert part is not None and part.result() == (True, {"verdict": "clear", "scores": [0.1, 1 / 3]})
    failing = aside.aside(lambda: 1 / 0)
    assert failing is not None and failing.result() == (False, None)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert aside.aside(lambda: 1) is None  # another thread is running: no fork
    finally:
        stop.set()
        other.join()


def test_a_part_aside_is_cancelled_when_the_rest_fails() -> None:
    import os
    import time

    from daishi_forensics import aside

    part = aside.aside(lambda: time.sleep(60))
    assert part is not None
    started = time.monotonic()
    part.cancel()
    assert time.monotonic() - started < 10
    try:
        os.kill(part._pid, 0)
    except ProcessLookupError:
        pass  # reaped: no zombie left
    else:
        raise AssertionError("the child is still there")
