"""Every command's text that reaches a terminal or a CI log shows control characters, never obeys them.

A match full of hostile strings (agent names and ids, an unknown type name, regions,
message text, erratum text, the report's names, the file's own name) is run through
every command in every format; no raw control character other than the renderer's own
newlines reaches stdout or stderr, and no line is a forged workflow command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.textsafe import CONTROLS, is_neutral, shown

from .hostile import BAD, write_hostile, write_hostile_corpus


def _assert_neutral(label: str, text: str) -> None:
    raw = sorted({f"U+{ord(c):04X}" for c in text if c in CONTROLS and c != "\n"})
    assert is_neutral(text), f"{label}: raw control characters {raw} reach the output:\n{text[:3000]!r}"
    for line in text.splitlines():
        assert not line.startswith("::error file=README.md"), f"{label}: a forged annotation: {line!r}"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_hostile(tmp_path_factory.mktemp("hostile"))


def _run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


MATCH_FORMATS = [
    ("behavior", "text"), ("behavior", "markdown"), ("behavior", "json"), ("behavior", "html"),
    ("validate", "text"), ("validate", "github"), ("validate", "json"),
    ("screen", "text"), ("screen", "github"), ("screen", "json"), ("screen", "sarif"),
    ("score", "text"), ("score", "json"),
    ("propagation", "text"), ("propagation", "json"),
]


@pytest.mark.parametrize(("command", "fmt"), MATCH_FORMATS)
def test_every_format_of_every_match_command_is_neutral(hostile: Path, command: str, fmt: str) -> None:
    code, out, err = _run([command, "--format", fmt, str(hostile)])
    assert code in (0, 1), (code, err)
    assert out.strip()
    _assert_neutral(f"{command} --format {fmt} (stdout)", out)
    _assert_neutral(f"{command} --format {fmt} (stderr)", err)
    if fmt in ("json", "sarif"):
        json.loads(out)  # still JSON


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "html"])
def test_compare_is_neutral_in_every_format(hostile: Path, fmt: str) -> None:
    code, out, err = _run(["compare", "--format", fmt, str(hostile), str(hostile)])
    assert code == 0, err
    _assert_neutral(f"compare --format {fmt} (stdout)", out)
    _assert_neutral(f"compare --format {fmt} (stderr)", err)
    if fmt == "json":
        json.loads(out)


def test_the_hostile_strings_are_shown_not_dropped(hostile: Path) -> None:
    """Neutral is not silent: the strings are there, written out."""
    _code, out, _err = _run(["validate", "--format", "text", str(hostile)])
    assert "gather\\x1b[2J\\x1b]0;pwned\\x07\\u202e\\r\\x9b31m\\n::error file=README.md,line=1::forged" in out
    _code, out, _err = _run(["score", "--format", "text", str(hostile)])
    assert "Mallory" + shown(BAD) in out
    _code, out, _err = _run(["propagation", "--format", "text", "--no-scrub", str(hostile)])
    assert "\\x1b[2J" in out


def test_github_annotations_escape_data_per_githubs_rules(hostile: Path) -> None:
    _code, out, _err = _run(["validate", "--format", "github", str(hostile)])
    commands = [line for line in out.splitlines() if line.startswith("::")]
    assert commands
    for line in commands:
        head, _, message = line[2:].partition("::")
        kind, _, props = head.partition(" ")
        assert kind in ("error", "warning", "notice")
        for prop in props.split(","):
            key, _, value = prop.partition("=")
            assert key in ("file", "line", "title", "col") and ":" not in value
        assert "\n" not in message and "\r" not in message
    assert "\\n::error file=README.md,line=1::forged" in out


def test_season_export_and_tiers_print_neutral_lines(hostile: Path, tmp_path: Path) -> None:
    season = tmp_path / "season"
    season.mkdir()
    (season / hostile.name).write_bytes(hostile.read_bytes())
    (season / ("m_broken" + BAD.replace("/", "") + ".json")).write_text("{")
    for job in ("behavior", "screen"):
        code, out, err = _run(["season", job, str(season), "--out", str(tmp_path / f"out-{job}"), "-j", "1"])
        assert code == 3
        _assert_neutral(f"season {job} (stdout)", out)
        _assert_neutral(f"season {job} (stderr)", err)
    code, out, err = _run(["export", str(season), "--parquet", str(tmp_path / "lake")])
    assert code == 3
    _assert_neutral("export (stdout)", out)
    _assert_neutral("export (stderr)", err)
    corpus = write_hostile_corpus(tmp_path / "corpus")
    code, out, err = _run(["tiers", str(corpus), "--summary"])
    assert code == 1
    _assert_neutral("tiers (stdout)", out)
    _assert_neutral("tiers (stderr)", err)


@pytest.mark.parametrize("command", ["behavior", "validate", "screen", "score", "propagation", "export",
                                     "tiers", "season", "compare"])
def test_error_messages_naming_a_hostile_path_are_neutral(tmp_path: Path, command: str) -> None:
    bad = tmp_path / ("m_x" + BAD.replace("/", "") + ".json")
    if command != "tiers":  # a corpus that is not JSON is lines to classify; a missing one is an error
        bad.write_text('{"archive": {')
    args = {"export": ["export", str(bad), "--parquet", str(tmp_path / "lake")],
            "season": ["season", "behavior", str(bad), "--out", str(tmp_path / "out"), "-j", "1"],
            "compare": ["compare", str(bad), str(bad)]}.get(command, [command, str(bad)])
    code, out, err = _run(args)
    assert code in (1, 3)
    _assert_neutral(f"{command} (stdout)", out)
    _assert_neutral(f"{command} (stderr)", err)
    assert "\\x1b" in out + err


def test_simulate_and_schemas_echo_neutrally(tmp_path: Path) -> None:
    out_dir = tmp_path / ("sim" + BAD.replace("/", ""))
    code, out, err = _run(["simulate", "--scenario", "clean", "--ticks", "5", "--out", str(out_dir)])
    assert code == 0
    _assert_neutral("simulate", out + err)
    code, out, err = _run(["schemas", "show", "gather" + BAD])
    assert code == 2
    _assert_neutral("schemas show", out + err)


def test_study_audit_shows_hostile_names_neutrally(tmp_path: Path) -> None:
    """A study whose seat names and models carry terminal escapes and a forged annotation."""
    from .studykit import page, seat, trial, write_study

    trials = [trial(t, 0, "50.000") for t in (1, 2, 3)]
    seats = [seat(t, 0, 1, "50.0", name=BAD, model=BAD) for t in (1, 2, 3)]
    folder = write_study(tmp_path / "study", trials, seats, page(kind="series"))
    for fmt in ("text", "markdown", "json"):
        code, out, err = _run(["study", "audit", str(folder), "--format", fmt])
        assert code in (0, 1, 2), (code, err)
        assert out.strip() or err.strip()
        _assert_neutral(f"study audit --format {fmt} (stdout)", out)
        _assert_neutral(f"study audit --format {fmt} (stderr)", err)


@pytest.mark.parametrize("around", ["", "é", "\U0001f642"])  # an ASCII document, and two that are not
def test_dumps_escapes_every_raw_control_in_ascii_and_other_text(around: str) -> None:
    """Each control JSON leaves raw comes out as its ``\\uXXXX`` escape, whether the rest of the document
    is ASCII or not (ASCII text is searched for its one such control, DEL, alone); the escaped text
    parses back to the same value, and a document without any is written as the JSON writer wrote it.
    The document's UTF-8 bytes (what ``behavior`` writes, made without the text) are the text's."""
    import orjson

    from daishi_forensics.jsonio import dumps, dumps_bytes

    raw = sorted(c for c in CONTROLS if ord(c) >= 0x20)
    assert raw[0] == "\x7f" and all(ord(c) >= 0x80 for c in raw[1:])
    for c in raw:
        text = dumps({"a": f"{around}x{c}y"})
        escape = json.dumps(c)[1:-1]  # \uXXXX, a surrogate pair beyond the BMP (a tag character)
        assert text == '{\n  "a": "' + around + f'x{escape}y"\n}}\n' and json.loads(text) == {"a": f"{around}x{c}y"}
        assert dumps_bytes({"a": f"{around}x{c}y"}) == text.encode("utf-8")
    every = {"a": around.join(raw), "b": [around + c + "\u00e9" for c in raw]}  # every one in one document
    assert dumps_bytes(every) == dumps(every).encode("utf-8") and json.loads(dumps(every)) == every
    plain = {"a": f"{around}plain", "b": [1, 2.5, None]}
    assert dumps(plain) == orjson.dumps(plain, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).decode() + "\n"
    assert dumps_bytes(plain) == dumps(plain).encode("utf-8")


INVISIBLE = "\u200b\ufeff\u00ad\u2060\U000e0041\u202a\u2066"
"""Characters a reader does not see (zero-width space, byte order mark, soft hyphen, word joiner, a tag
character, two bidirectional controls): a name holding them looks like one without."""


@pytest.fixture(scope="module")
def invisible(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_hostile(tmp_path_factory.mktemp("invisible"), INVISIBLE)


@pytest.mark.parametrize(("command", "fmt"), [*MATCH_FORMATS, ("compare", "text"), ("compare", "markdown"),
                                               ("compare", "html"), ("compare", "json")])
def test_format_characters_are_written_out_in_every_format(invisible: Path, command: str, fmt: str) -> None:
    args = [command, "--format", fmt, str(invisible)] + ([str(invisible)] if command == "compare" else [])
    code, out, err = _run(args)
    assert code in (0, 1), (code, err)
    _assert_neutral(f"{command} --format {fmt} (stdout)", out)
    _assert_neutral(f"{command} --format {fmt} (stderr)", err)


def test_format_characters_are_shown_as_escapes(invisible: Path) -> None:
    written = "\\u200b\\ufeff\\xad\\u2060\\U000e0041\\u202a\\u2066"
    assert shown(INVISIBLE) == written
    _code, out, _err = _run(["score", "--format", "text", str(invisible)])
    assert "Mallory" + written in out
    _code, out, _err = _run(["behavior", "--format", "markdown", str(invisible)])
    assert "Mallory" + written.replace("\\", "\\\\") in out
    _code, out, _err = _run(["behavior", "--format", "html", str(invisible)])
    assert "Mallory" + written in out
