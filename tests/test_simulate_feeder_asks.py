"""A planted feeder whose beneficiary asks (``feeder_mode="ask"``): the beneficiary offers each spoke nothing or a
token for the goods, and the spoke grants it; left at its default (``offer``), every simulated match is the one it
always was (its events, truth, archive and id)."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import orjson
import pytest
from daishi_forensics.simulate import simulate_match, simulate_to_dir, write_match


def _digest(scenario: str, seed: int, **kw: object) -> str:
    m = simulate_match(scenario, seed, **kw)  # type: ignore[arg-type]
    h = hashlib.sha256()
    for e in m.iter_events():
        h.update(orjson.dumps(e, option=orjson.OPT_SORT_KEYS) + b"\n")
    h.update(orjson.dumps(m.truth, option=orjson.OPT_SORT_KEYS))
    h.update(orjson.dumps(m.archive, option=orjson.OPT_SORT_KEYS))
    h.update(m.match_id.encode())
    return h.hexdigest()[:16]


def _plant_trades(scenario: str, seed: int, **kw: object) -> tuple[dict[str, object], Counter[str]]:
    """The feeder plant of the truth, and what its beneficiary and spokes offered each other and how it ended."""
    m = simulate_match(scenario, seed, **kw)  # type: ignore[arg-type]
    (plant,) = [p for p in m.truth["planted"] if p["kind"] == "feeder"]
    bene, spokes = plant["beneficiary"], set(plant["spokes"])
    asked: dict[str, dict[str, object]] = {}
    pushed: set[str] = set()
    seen: Counter[str] = Counter()
    for e in m.iter_events():
        payload = e.get("payload") or {}
        if e["type"] == "trade_offered" and e["agentId"] == bene and payload.get("to") in spokes:
            asked[payload["tradeId"]] = payload
            seen["asked"] += 1
            seen["asked for a token" if payload["give"] else "asked for nothing"] += 1
            if payload["receive"]:
                seen["asked for goods"] += 1
        elif e["type"] == "trade_offered" and e["agentId"] in spokes and payload.get("to") == bene:
            pushed.add(payload["tradeId"])
            seen["offered by a spoke"] += 1
        elif e["type"] == "trade_completed" and "upcast" not in e and e["agentId"] == payload.get("to"):
            if payload["tradeId"] in asked:
                seen["asked, granted by the spoke"] += 1
                if payload["tradeId"] in plant["tradeIds"]:  # type: ignore[operator]
                    seen["granted, in the truth"] += 1
            elif payload["tradeId"] in pushed:
                seen["offered by a spoke, accepted"] += 1
        elif e["type"] == "trade_cancelled" and payload["tradeId"] in asked:
            seen["asked, cancelled"] += 1
    return plant, seen


def test_an_asking_beneficiary_sends_the_requests_and_its_spokes_grant_them() -> None:
    plant, seen = _plant_trades("feeder", 1, ticks=120, feeder_mode="ask")
    assert seen == {"asked": 30, "asked for a token": 25, "asked for nothing": 5, "asked for goods": 30,
                    "asked, granted by the spoke": 30, "granted, in the truth": 30}
    assert len(plant["tradeIds"]) == 30  # type: ignore[arg-type]
    assert plant["kind"] == "feeder" and len(plant["spokes"]) == 3  # type: ignore[arg-type]
    # the same seed offering: the same seats, the spokes offer and the beneficiary hardly asks (one organic trade)
    offered, seen_offered = _plant_trades("feeder", 1, ticks=120)
    assert {k: offered[k] for k in ("agents", "beneficiary", "spokes", "sharedOperator")} == \
        {k: plant[k] for k in ("agents", "beneficiary", "spokes", "sharedOperator")}
    assert seen_offered == {"offered by a spoke": 26, "offered by a spoke, accepted": 25, "asked": 1,
                            "asked for a token": 1, "asked for goods": 1, "asked, granted by the spoke": 1}
    assert len(offered["tradeIds"]) == 25  # type: ignore[arg-type]


def test_the_mode_is_in_the_id_and_the_truth_s_params_only_when_it_asks(tmp_path: Path) -> None:
    ask = simulate_match("feeder", 1, ticks=120, feeder_mode="ask")
    offer = simulate_match("feeder", 1, ticks=120)
    assert offer.match_id == simulate_match("feeder", 1, ticks=120, feeder_mode="offer").match_id == "m_80ca2f38d8fd"
    assert ask.match_id == "m_b79360dd65a4"
    assert ask.truth["params"]["feeder_mode"] == "ask" and "feeder_mode" not in offer.truth["params"]
    assert [p["kind"] for p in ask.truth["planted"]] == ["feeder"]
    # played and written in one pass, the same bytes as written from the match
    one = simulate_to_dir("feeder", 1, 3, tmp_path / "one", "stream", ticks=120, feeder_mode="ask")
    two = write_match(ask, tmp_path / "two", form="stream")
    assert one.name == two.name == "m_b79360dd65a4.jsonl"
    assert one.read_bytes() == two.read_bytes()
    assert (tmp_path / "one" / "truth.json").read_bytes() == (tmp_path / "two" / "truth.json").read_bytes()
    with pytest.raises(ValueError, match="feeder_mode must be one of offer, ask, got 'beg'"):
        simulate_match("feeder", 1, ticks=20, feeder_mode="beg")


@pytest.mark.parametrize(("scenario", "seed", "kw", "digest"), [
    ("feeder", 0, {}, "44b72e5afd2a2c7d"),
    ("feeder", 1, {"noise": "heavy"}, "5af09c372d6cc0db"),
    ("mixed", 0, {}, "f94e9089afba6e2e"),
    ("clean", 2, {}, "d3afac9aa44b2a97"),
])
def test_the_default_mode_plays_every_match_as_before(scenario: str, seed: int, kw: dict[str, object],
                                                      digest: str) -> None:
    """Digests of matches as simulated before the mode existed (events, truth, archive, id)."""
    assert _digest(scenario, seed, **kw) == digest
    assert _digest(scenario, seed, feeder_mode="offer", **kw) == digest
