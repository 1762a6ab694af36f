"""validate: a trade completed (or a market order filled) whose tradeId no earlier trade_offered offers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from daishi_forensics.cli import main
from daishi_forensics.read.validate import validate_targets

from .matchkit import archive, ev, trade, write_match

SPAWNS = [ev(1, 0, "agent_spawned", "a_1", region="r_0_0"), ev(2, 0, "agent_spawned", "a_2", region="r_0_0")]


def offer(event_id: int, tick: int, trade_id: Any, giver: str = "a_1", to: str | None = "a_2") -> dict[str, Any]:
    return ev(event_id, tick, "trade_offered", giver, tradeId=trade_id, to=to, give={"wood": 1}, receive={"food": 1})


def _said(tmp_path: Path, events: list[dict[str, Any]], **kwargs: Any) -> list[tuple[Any, str, str, str | None, str]]:
    target = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=50), **kwargs)
    result = validate_targets([str(target)])
    assert result.exit_code == 0  # a warning: the records stay valid
    return [(p.event_id, p.severity, p.path, p.event_type, p.message) for p in result.files[0].problems]


def test_a_completion_never_offered_is_a_warning_naming_the_event_and_field(tmp_path: Path) -> None:
    events = [*SPAWNS, offer(3, 1, "t1"), *trade(4, 2, "t1", "a_1", "a_2", {"wood": 1}, {"food": 1}),
              *trade(6, 3, "t2", "a_2", "a_1", {"wood": 1}, {"food": 1})]
    assert _said(tmp_path, events) == [
        (6, "warning", "$.payload.tradeId", "trade_completed",
         "trade_completed of trade 't2', which no trade_offered earlier in the log offers")]


def test_an_offer_after_the_completion_does_not_count_and_a_market_fill_is_checked(tmp_path: Path) -> None:
    fill = {"tradeId": 9, "from": "a_1", "to": "a_2", "give": {"wood": 1}, "receive": {"food": 1}}
    events = [*SPAWNS, *trade(3, 1, "t1", "a_1", "a_2", {"wood": 1}, {"food": 1}), offer(5, 2, "t1"),
              offer(6, 2, "9", to=None), ev(7, 3, "trade_fulfilled", "a_2", **fill),
              ev(8, 3, "trade_fulfilled", "a_1", **dict(fill))]
    assert [(i, t, m) for i, _, _, t, m in _said(tmp_path, events)] == [
        (3, "trade_completed", "trade_completed of trade 't1', which no trade_offered earlier in the log offers"),
        (7, "trade_fulfilled", "trade_fulfilled of trade 9, which no trade_offered earlier in the log offers")]


@pytest.mark.parametrize("version", [1, 2])
def test_an_upcast_trade_is_said_once(tmp_path: Path, version: int) -> None:
    """A v2 trade_completed gains the offerer's twin (same id): one warning, not two."""
    events = [*SPAWNS, *trade(3, 1, "t1", "a_1", "a_2", {"wood": 1}, {"food": 1})]
    assert [(i, t) for i, _, _, t, _ in _said(tmp_path, events, version=version)] == [(3, "trade_completed")]


def test_the_cli_lists_it_and_caps_it_with_max_errors(tmp_path: Path) -> None:
    events = [*SPAWNS, *trade(3, 1, "t1", "a_1", "a_2", {"wood": 1}, {"food": 1}),
              *trade(5, 2, "t2", "a_1", "a_2", {"wood": 1}, {"food": 1})]
    target = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=50), form="folder")
    result = CliRunner().invoke(main, ["validate", str(target), "--max-errors", "1", "--format", "json"])
    assert result.exit_code == 0
    file = json.loads(result.output)["files"][0]
    assert file["problemCounts"] == {"trade-offer": 2} and file["problemsNotKept"] == 1
    assert [(p["file"], p["eventId"], p["path"]) for p in file["problems"]] == [
        (str(target / "events.jsonl"), 3, "$.payload.tradeId")]
    text = CliRunner().invoke(main, ["validate", str(target)])
    assert (f"  warning: {target / 'events.jsonl'}, line 3, id 3: $.payload.tradeId: trade_completed of trade 't1', "
            "which no trade_offered earlier in the log offers") in text.output.splitlines()


def test_a_cancellation_of_a_trade_never_offered_is_said_and_one_offered_is_not(tmp_path: Path) -> None:
    events = [*SPAWNS, offer(3, 1, "t1"), ev(4, 2, "trade_cancelled", "a_1", tradeId="t1"),
              ev(5, 3, "trade_cancelled", "a_2", tradeId="t9")]
    assert _said(tmp_path, events) == [
        (5, "warning", "$.payload.tradeId", "trade_cancelled",
         "trade_cancelled of trade 't9', which no trade_offered earlier in the log offers")]


@pytest.mark.parametrize(("form", "where"), [("stream", ("line", 6)), ("folder", ("line", 5)), ("bundle", ("event #", 4))])
def test_the_warning_names_the_line_of_the_event(tmp_path: Path, form: str, where: tuple[str, int]) -> None:
    """The warning named the file and the event id but no line (text ``file, id 7``; JSON ``"line": null``,
    ``"index": null``; GitHub's annotation no ``line=``): it now names the record's line (a stream: the
    header is line 1; a folder's events.jsonl) or, in a bundle, its place in the log."""
    events = [*SPAWNS, offer(3, 1, "t1"), ev(4, 2, "trade_cancelled", "a_1", tradeId="t1"),
              ev(5, 3, "trade_cancelled", "a_2", tradeId="t9"), ev(6, 3, "trade_cancelled", "a_2", tradeId="t9")]
    target = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=50), form=form)
    (problem,) = validate_targets([str(target)]).files[0].problems
    assert (problem.event_id, problem.line, problem.index) == (5, where[1] if where[0] == "line" else None, 4)
    label, number = where
    text = CliRunner().invoke(main, ["validate", str(target)])
    assert f", {label}{' ' if label == 'line' else ''}{number}, id 5: $.payload.tradeId: trade_cancelled" in text.output
    github = CliRunner().invoke(main, ["validate", "--format", "github", str(target)])
    annotation = [x for x in github.output.splitlines() if x.startswith("::warning")]
    assert len(annotation) == 1 and ((",line=" + str(number) + ",") in annotation[0]) == (label == "line")


def test_an_invalid_offer_leaves_the_completion_said_at_its_line(tmp_path: Path) -> None:
    """An offer left out as invalid offers nothing; the completion after it is said at its own line."""
    bad = offer(3, 1, "t1")
    bad["payload"]["give"] = {"wood": "x"}
    events = [*SPAWNS, bad, *trade(4, 2, "t1", "a_1", "a_2", {"wood": 1}, {"food": 1})]
    target = write_match(tmp_path, events, archive(["a_1", "a_2"], ended=50))
    result = validate_targets([str(target)])
    assert result.exit_code == 1
    assert [(p.code, p.event_id, p.line) for p in result.files[0].problems] == [
        ("schema", 3, 4), ("trade-offer", 4, 5)]


def test_a_target_named_twice_is_validated_once(tmp_path: Path) -> None:
    """Two files each given twice said '0 of 4 matches valid'; each file is now validated once."""
    events = [*SPAWNS, *trade(3, 1, "t1", "a_1", "a_2", {"wood": 1}, {"food": 1})]
    first = write_match(tmp_path / "one", events, archive(["a_1", "a_2"], ended=50))
    second = write_match(tmp_path / "two", [*SPAWNS], archive(["a_1", "a_2"], ended=50))
    result = validate_targets([str(first), str(second), str(first), str(second)])
    assert [f.target for f in result.files] == [str(first), str(second)]
    text = CliRunner().invoke(main, ["validate", str(first), str(tmp_path / "one"), str(first)])
    assert text.exit_code == 0 and text.output.splitlines()[-1] == "1 of 1 match valid"
