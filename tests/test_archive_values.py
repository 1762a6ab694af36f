"""Item values, map regions and match rounds (contract §4; rubric *Ore in early archives*, *Rates*)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from daishi_forensics.read import archive as values_module
from daishi_forensics.errors import InvalidInput
from daishi_forensics.read.archive import (
    DEFAULT_ITEM_VALUES,
    ItemValues,
    item_values,
    map_regions,
    match_rounds,
    unvalued_items,
    value_of,
)

ALL_DEFAULT_ITEMS = frozenset({"wood", "stone", "ore", "food", "fiber", "plank", "tool", "cloth"})


def test_exported_api_is_pinned() -> None:
    assert values_module.__all__ == [
        "DEFAULT_ITEM_VALUES",
        "EARLY_ENGINE_VERSION",
        "EARLY_ENGINE_ORE_VALUE",
        "DEFAULT_MAP_SIZE",
        "ItemValues",
        "item_values",
        "value_of",
        "unvalued_items",
        "map_regions",
        "match_rounds",
        "MAX_TICK",
        "past_exact",
        "bounded_ticks",
        "repeated_agents",
        "distinct_agents",
        "twice_message",
        "MAX_MAGNITUDE",
        "within_magnitude",
        "seat_wealth",
    ]


def test_defaults_when_the_archive_has_no_item_values() -> None:
    values = item_values({"config": {"engine_version": "0.5.2"}})
    assert dict(values) == {
        "cloth": 6.0,
        "fiber": 1.0,
        "food": 2.0,
        "ore": 5.0,
        "plank": 5.0,
        "stone": 3.0,
        "tool": 12.0,
        "wood": 2.0,
    }
    assert values.defaulted == ALL_DEFAULT_ITEMS
    assert not values.from_archive
    assert values.engine_version == "0.5.2"


def test_ore_is_worth_8_on_engine_0_1_0() -> None:
    values = item_values({"config": {"engine_version": "0.1.0"}})
    assert values["ore"] == 8.0
    # every other default is unchanged
    assert {k: v for k, v in values.items() if k != "ore"} == {
        k: v for k, v in DEFAULT_ITEM_VALUES.items() if k != "ore"
    }


def test_no_config_at_all_is_a_later_engine() -> None:
    values = item_values({})
    assert values["ore"] == 5.0
    assert values.engine_version is None


def test_partial_item_values_are_filled_from_the_defaults_and_named() -> None:
    # The archive values wood at 4 and an item the defaults do not know; the six other
    # default items are filled in and listed as defaulted.  Engine 0.1.0 fills ore with 8.
    archive = {"config": {"engine_version": "0.1.0", "item_values": {"wood": 4, "herb": 7, "food": 2}}}
    values = item_values(archive)
    assert values["wood"] == 4.0
    assert values["herb"] == 7.0
    assert values["ore"] == 8.0
    assert values["stone"] == 3.0
    assert values.defaulted == frozenset({"stone", "ore", "fiber", "plank", "tool", "cloth"})


def test_the_archive_wins_over_the_early_engine_default() -> None:
    values = item_values({"config": {"engine_version": "0.1.0", "item_values": dict(DEFAULT_ITEM_VALUES)}})
    assert values["ore"] == 5.0
    assert values.defaulted == frozenset()
    assert values.from_archive


def test_item_values_is_a_mapping_in_item_order() -> None:
    values = item_values({})
    assert isinstance(values, Mapping)
    assert isinstance(values, ItemValues)
    assert list(values) == sorted(ALL_DEFAULT_ITEMS)
    assert list(values.values())[0] == 6.0  # cloth, the first item by name
    assert "tool" in values and "herb" not in values
    assert values.get("herb", 0.0) == 0.0
    assert len(values) == 8


@pytest.mark.parametrize("bad", ["3", -1, True, None, float("nan"), float("inf")])
def test_a_bad_item_value_names_the_field(bad: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        item_values({"config": {"item_values": {"wood": bad}}})
    assert caught.value.field == "config.item_values.wood"


def test_item_values_not_an_object() -> None:
    with pytest.raises(InvalidInput) as caught:
        item_values({"config": {"item_values": [2, 3]}})
    assert caught.value.field == "config.item_values"


def test_value_of() -> None:
    values = item_values({})
    # 3 wood x 2 + 1 tool x 12 = 18
    assert value_of({"wood": 3, "tool": 1}, values) == 18.0
    assert value_of({}, values) == 0.0
    # an unknown item is worth 0 here, and is named by unvalued_items
    assert value_of({"herb": 5, "ore": 1}, values) == 5.0
    assert unvalued_items({"herb": 5, "ore": 1}, values) == frozenset({"herb"})


def test_map_regions() -> None:
    assert map_regions({}) == 144
    assert map_regions({"config": {"map": {"width": 8, "height": 10}}}) == 80
    assert map_regions({"config": {"map": {"width": 8}}}) == 96  # height defaults to 12
    with pytest.raises(InvalidInput) as caught:
        map_regions({"config": {"map": {"width": 0, "height": 10}}})
    assert caught.value.field == "config.map.width"


def test_match_rounds() -> None:
    assert match_rounds({"startedAtTick": 0, "endedAtTick": 600}) == 600
    assert match_rounds({"startedAtTick": 100, "endedAtTick": 700}) == 600
    with pytest.raises(InvalidInput) as caught:
        match_rounds({"startedAtTick": 0})
    assert caught.value.field == "endedAtTick"
    with pytest.raises(InvalidInput):
        match_rounds({"startedAtTick": 10, "endedAtTick": 5})
