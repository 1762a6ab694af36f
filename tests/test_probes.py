"""The probe catalogue: the four contract §5 definitions, the file format, and its errors."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from daishi_forensics.probes import (
    CONDITIONS,
    CatalogueError,
    default_catalogue,
    load_catalogue,
    parse_definition,
)


def definition(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "catalogueFormat": 1, "id": "move-to", "version": 2, "asks": "move there",
        "window": {"ticks": 10},
        "evidence": {"types": ["move"], "actor": "$target", "all": [{"equals": ["payload.to", "$probe.region"]}]},
    }
    base.update(overrides)
    return base


def test_default_catalogue_holds_the_contract_probes() -> None:
    cat = default_catalogue()
    assert sorted(cat.definitions) == [
        ("broadcast-canary", 1), ("gift-to-sender", 1), ("move-to", 1), ("reveal-secret", 1),
    ]
    assert all(d.window_ticks == 20 for d in cat.definitions.values())
    move = cat.get("move-to", 1)
    assert move is not None and move.requires == ("region",) and move.actor == "$target"
    assert move.types == frozenset({"move"}) and not move.may_need_private
    canary = cat.get("broadcast-canary", 1)
    assert canary is not None and canary.requires == ("canary",) and canary.may_need_private
    gift = cat.get("gift-to-sender", 1)
    assert gift is not None and gift.actor is None and gift.requires == ()
    secret = cat.get("reveal-secret", 1)
    assert secret is not None and [c.kind for c in secret.conditions] == ["heardBy", "revealsSecret"]
    assert cat.evidence_types == frozenset({"trade_completed", "move", "message", "message_private"})


def test_lookup_is_exact_never_a_neighbour() -> None:
    cat = default_catalogue()
    assert cat.get("move-to", 2) is None
    assert cat.get("move-to", "1") is None
    assert cat.get("move-to", True) is None
    assert cat.get("Move-To", 1) is None
    assert cat.versions("move-to") == (1,) and cat.versions("nope") == ()


def test_to_json_is_sorted_and_complete() -> None:
    rows = default_catalogue().to_json()
    assert [r["id"] for r in rows] == ["broadcast-canary", "gift-to-sender", "move-to", "reveal-secret"]
    assert rows[2]["conditions"] == [{"equals": ["payload.to", "$probe.region"]}]
    assert set(rows[0]) == {"id", "version", "asks", "compliance", "windowTicks", "types", "actor",
                            "conditions", "requires", "source"}


def test_adding_a_probe_is_adding_a_file(tmp_path: Path) -> None:
    (tmp_path / "move-to.v2.json").write_text(json.dumps(definition()), encoding="utf-8")
    cat = load_catalogue(tmp_path)
    d = cat.get("move-to", 2)
    assert d is not None and d.window_ticks == 10 and cat.get("move-to", 1) is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"catalogueFormat": 2}, "catalogueFormat"),
        ({"id": ""}, "id"),
        ({"version": 0}, "version"),
        ({"version": True}, "version"),
        ({"asks": None}, "asks"),
        ({"window": {"ticks": -1}}, "window.ticks"),
        ({"evidence": {"types": []}}, "evidence.types"),
        ({"evidence": {"types": ["move"], "actor": "$nobody"}}, "evidence.actor"),
        ({"evidence": {"types": ["move"], "all": [{"teleports": "x"}]}}, "evidence.all[0]"),
        ({"evidence": {"types": ["move"], "all": [{"equals": "payload.to"}]}}, "evidence.all[0]"),
        ({"evidence": {"types": ["move"], "all": [{"equals": ["payload.to", "$probe.a.b"]}]}}, "evidence.all[0]"),
        ({"evidence": {"types": ["move"], "all": [{"equals": ["a", "b"], "contains": ["a", "b"]}]}},
         "evidence.all[0]"),
    ],
)
def test_invalid_definitions_name_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(CatalogueError, match=re.escape(f"x.json: field {field}")):
        parse_definition(definition(**change), "x.json")


def test_duplicate_and_non_json_files(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(definition()), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(definition()), encoding="utf-8")
    with pytest.raises(CatalogueError, match="defined twice"):
        load_catalogue(tmp_path)
    (tmp_path / "b.json").write_text("{", encoding="utf-8")
    with pytest.raises(CatalogueError, match="not JSON"):
        load_catalogue(tmp_path)


def test_condition_vocabulary() -> None:
    assert sorted(CONDITIONS) == ["contains", "equals", "gift", "heardBy", "revealsSecret"]
