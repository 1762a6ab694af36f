"""Item values and the archive's match dimensions.

The rubric (seed 000, 2.4) values goods with the archive's
``config.item_values``; the export contract (§4) fixes the defaults when the
archive has none: wood 2, stone 3, ore 5, food 2, fiber 1, plank 5, tool 12,
cloth 6 -- and ore 8 on archives whose ``config.engine_version`` is ``0.1.0``
(rubric, *Ore in early archives*).  An archive that lists values but leaves an
item out gets that item's default, and the result says which items were
defaulted so a report can say so.

Also here, because every rate and coverage needs them: the map's region count
(``config.map`` width x height, 12 x 12 = 144 by default; rubric *Counters*)
and the match rounds (``endedAtTick - startedAtTick``; rubric *Rates*).

>>> values = item_values({"config": {"engine_version": "0.1.0"}})
>>> values["ore"], sorted(values.defaulted)[:2]
(8.0, ['cloth', 'fiber'])
>>> value_of({"wood": 3, "tool": 1}, values)
18.0
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from daishi_forensics.errors import InvalidInput
from daishi_forensics.jsonio import shown

__all__ = [
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

DEFAULT_ITEM_VALUES: Mapping[str, float] = {
    "wood": 2.0,
    "stone": 3.0,
    "ore": 5.0,
    "food": 2.0,
    "fiber": 1.0,
    "plank": 5.0,
    "tool": 12.0,
    "cloth": 6.0,
}
"""Contract §4 defaults for engines after 0.1.0."""

EARLY_ENGINE_VERSION = "0.1.0"
"""The engine whose archives value ore at 8 (played up to 10 August 2026)."""

EARLY_ENGINE_ORE_VALUE = 8.0
"""Ore's value on :data:`EARLY_ENGINE_VERSION` (rubric *Ore in early archives*)."""

DEFAULT_MAP_SIZE = 12
"""Map width and height when the archive's ``config.map`` does not say (12 x 12)."""

MAX_MAGNITUDE = 1e12
"""The largest item value or wealth (in magnitude) the analyses compute with.  Past it, sums and
products of doubles lose the figures (and overflow to infinity near 1e308); the schemas bound
the archive's numbers there too."""


def within_magnitude(value: float, field: str) -> float:
    """``value`` as a float when it is within :data:`MAX_MAGNITUDE`; else :class:`InvalidInput`
    naming ``field``.

    >>> within_magnitude(321.02, "agents[0].wealth")
    321.02
    """
    if not (-MAX_MAGNITUDE <= value <= MAX_MAGNITUDE):
        raise InvalidInput(f"{shown(value)} is past the magnitude this tool computes with "
                           f"(at most {MAX_MAGNITUDE:.0f})", field=field)
    return float(value)


def seat_wealth(row: Mapping[str, Any], where: str) -> float | None:
    """A seat's final wealth from the archive: None when absent or not a number; an error when
    past :data:`MAX_MAGNITUDE` (``where`` names the seat's row)."""
    value = row.get("wealth")
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    return within_magnitude(value, f"{where}.wealth")


@dataclass(frozen=True)
class ItemValues(Mapping[str, float]):
    """The value of each item, usable wherever a ``Mapping[str, float]`` is.

    Iteration is in item-name order, so anything summed over it is deterministic.
    """

    by_item: dict[str, float]
    """Item name -> value (a float, as the rubric computes in doubles).  (Not named
    ``values``: that would hide the ``Mapping.values()`` method.)"""
    defaulted: frozenset[str] = field(default_factory=frozenset)
    """Items whose value came from the defaults, not from ``config.item_values``
    (every default item when the archive has no ``item_values`` at all)."""
    engine_version: str | None = None
    """The archive's ``config.engine_version``, which chose the ore default."""

    def __getitem__(self, item: str) -> float:
        return self.by_item[item]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self.by_item))

    def __len__(self) -> int:
        return len(self.by_item)

    @property
    def from_archive(self) -> bool:
        """True when no item's value had to be defaulted."""
        return not self.defaulted


def _config(archive: Mapping[str, Any]) -> Mapping[str, Any]:
    config = archive.get("config")
    if config is None:
        return {}
    if not isinstance(config, Mapping):
        raise InvalidInput("the archive's config is not an object", field="config")
    return config


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def item_values(archive: Mapping[str, Any]) -> ItemValues:
    """The item values a match is scored with (contract §4; rubric 2.4 *Ore in early archives*).

    ``config.item_values`` where the archive has it; each item it leaves out,
    and every item when it is missing, takes the default (ore 8 when
    ``config.engine_version`` is ``0.1.0``, 5 otherwise).  Items the archive
    values beyond the defaults are kept.

    Parameters
    ----------
    archive:
        The match archive (contract §4).

    Returns
    -------
    ItemValues
        A mapping item -> value with ``defaulted``: the items whose value is a default.

    Raises
    ------
    InvalidInput
        ``config.item_values`` is not an object, or a value is not a number >= 0.

    >>> item_values({"config": {"item_values": {"wood": 4}}})["wood"]
    4.0
    >>> "wood" in item_values({"config": {"item_values": {"wood": 4}}}).defaulted
    False
    """
    config = _config(archive)
    engine = config.get("engine_version")
    engine_version = engine if isinstance(engine, str) else None
    defaults = dict(DEFAULT_ITEM_VALUES)
    if engine_version == EARLY_ENGINE_VERSION:
        defaults["ore"] = EARLY_ENGINE_ORE_VALUE

    given = config.get("item_values")
    if given is None:
        return ItemValues(defaults, frozenset(defaults), engine_version)
    if not isinstance(given, Mapping):
        raise InvalidInput("item_values is not an object", field="config.item_values")
    values: dict[str, float] = {}
    for item, value in given.items():
        if not _is_number(value) or not math.isfinite(value) or value < 0:
            raise InvalidInput(
                f"the value of {shown(item)} is not a number >= 0: {shown(value)}",
                field=f"config.item_values.{item}",
            )
        values[str(item)] = within_magnitude(value, f"config.item_values.{item}")
    defaulted = frozenset(item for item in defaults if item not in values)
    for item in defaulted:
        values[item] = defaults[item]
    return ItemValues(values, defaulted, engine_version)


def value_of(items: Mapping[str, int], values: Mapping[str, float]) -> float:
    """The value of an item map: sum over items of quantity x value.

    Summed left to right in item-name order (deterministic on the double).  An
    item ``values`` does not know is worth 0 here; :func:`unvalued_items` names
    such items so a caller can report them rather than lose them silently.

    >>> value_of({"wood": 2, "food": 1}, {"wood": 2.0, "food": 2.0})
    6.0
    >>> value_of({}, {"wood": 2.0})
    0.0
    """
    total = 0.0
    for item in sorted(items):
        total += items[item] * values.get(item, 0.0)
    return total


def unvalued_items(items: Mapping[str, int], values: Mapping[str, float]) -> frozenset[str]:
    """The items of ``items`` that ``values`` has no value for (valued 0 by :func:`value_of`)."""
    return frozenset(item for item in items if item not in values)


def _positive_int(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise InvalidInput(f"not a positive integer: {shown(value)}", field=where)
    return value


def map_regions(archive: Mapping[str, Any]) -> int:
    """The number of regions on the match's map (rubric *Counters*: 144 on 12 x 12).

    ``config.map.width x config.map.height``; each missing side is 12.

    >>> map_regions({})
    144
    >>> map_regions({"config": {"map": {"width": 8, "height": 10}}})
    80
    """
    config = _config(archive)
    size = config.get("map")
    if size is None:
        size = {}
    if not isinstance(size, Mapping):
        raise InvalidInput("map is not an object", field="config.map")
    width = _positive_int(size.get("width", DEFAULT_MAP_SIZE), "config.map.width")
    height = _positive_int(size.get("height", DEFAULT_MAP_SIZE), "config.map.height")
    return width * height


MAX_TICK = 2**53 - 1
"""The largest tick, id or count (README: ids, ticks and counts are at most 2^53 − 1, the largest
integer a JSON number holds exactly; the archive schema bounds ``startedAtTick`` and ``endedAtTick``
so)."""


def past_exact(value: int | float) -> str:
    """What every reader of the archive says of a count past :data:`MAX_TICK`; of one read as a double (an
    integer written past 64 bits, or a number written with a fraction or an exponent), without quoting the
    double, which may not be the number the file writes (``18446744073709551617`` reads as 2^64).

    >>> past_exact(2**53)
    '9007199254740992 is past 2^53 - 1 (9007199254740991), the largest integer the export format holds'
    >>> past_exact(2.0**64)
    'a number past 2^53 - 1 (9007199254740991), the largest integer the export format holds (not quoted: read as a double, it may not be the number written)'
    """
    if isinstance(value, float):
        return (f"a number past 2^53 - 1 ({MAX_TICK}), the largest integer the export format holds (not quoted: "
                "read as a double, it may not be the number written)")
    return f"{value} is past 2^53 - 1 ({MAX_TICK}), the largest integer the export format holds"


def bounded_ticks(archive: Mapping[str, Any]) -> None:
    """Refuse an archive ``startedAtTick`` or ``endedAtTick`` that is an integer outside 0 to
    :data:`MAX_TICK` (:class:`InvalidInput` naming the field); one missing or of another type is
    left to the reader that needs it.

    >>> bounded_ticks({"startedAtTick": 0, "endedAtTick": 2**53 - 1})
    >>> bounded_ticks({"startedAtTick": 0, "endedAtTick": 2**53})
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.InvalidInput: field endedAtTick: 9007199254740992 is not a tick: ticks are integers from 0 to 2^53 - 1 (9007199254740991)
    """
    for name in ("startedAtTick", "endedAtTick"):
        value = archive.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= MAX_TICK:
            raise InvalidInput(f"{value} is not a tick: ticks are integers from 0 to 2^53 - 1 ({MAX_TICK})",
                               field=name)


def repeated_agents(archive: Mapping[str, Any]) -> list[tuple[int, int, str]]:
    """``(first position, position, agent id)`` for every row of the archive's ``agents`` whose agent id
    an earlier row already names (the board lists each agent once: a seat is an agent).  Rows that are
    not objects or have no text ``agentId`` are left to the schema.

    >>> repeated_agents({"agents": [{"agentId": "a_1"}, {"agentId": "a_2"}, {"agentId": "a_1"}]})
    [(0, 2, 'a_1')]
    >>> repeated_agents({"agents": "x"})
    []
    """
    agents = archive.get("agents")
    if not isinstance(agents, list):
        return []
    first: dict[str, int] = {}
    out: list[tuple[int, int, str]] = []
    for index, row in enumerate(agents):
        agent = row.get("agentId") if isinstance(row, Mapping) else None
        if not isinstance(agent, str):
            continue
        if agent in first:
            out.append((first[agent], index, agent))
        else:
            first[agent] = index
    return out


def twice_message(first: int, index: int, agent: str) -> str:
    """What every command says of an agent the board lists twice."""
    return (f"{shown(agent)} is on the board twice (agents[{first}] and agents[{index}] name it): the board "
            "lists each agent once, so its seats cannot be told apart")


def distinct_agents(archive: Mapping[str, Any]) -> None:
    """Refuse an archive whose ``agents`` list one agent id twice (:class:`InvalidInput` naming the second
    row's ``agentId``): every analysis keys its seats by agent id, so the two rows would show as one
    agent's figures twice.

    >>> distinct_agents({"agents": [{"agentId": "a_1", "seat": 1}, {"agentId": "a_1", "seat": 2}]})
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.InvalidInput: field agents[1].agentId: 'a_1' is on the board twice (agents[0] and agents[1] name it): the board lists each agent once, so its seats cannot be told apart
    """
    for first, index, agent in repeated_agents(archive)[:1]:
        raise InvalidInput(twice_message(first, index, agent), field=f"agents[{index}].agentId")


def match_rounds(archive: Mapping[str, Any]) -> int:
    """The match's rounds: ``endedAtTick - startedAtTick`` (rubric *Rates*).

    Raises
    ------
    InvalidInput
        Either tick is missing, not an integer or past :data:`MAX_TICK` (:func:`bounded_ticks`), or
        the match ends before it starts.

    >>> match_rounds({"startedAtTick": 0, "endedAtTick": 600})
    600
    >>> match_rounds({"startedAtTick": 0, "endedAtTick": 9007199254740993.0})
    Traceback (most recent call last):
    ...
    daishi_forensics.errors.InvalidInput: field endedAtTick: a number past 2^53 - 1 (9007199254740991), the largest integer the export format holds (not quoted: read as a double, it may not be the number written): it is not a tick
    """
    ticks: list[int] = []
    for name in ("startedAtTick", "endedAtTick"):
        value = archive.get(name)
        if isinstance(value, float) and value > MAX_TICK:  # an integer read as a double: not quoted
            raise InvalidInput(f"{past_exact(value)}: it is not a tick", field=name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidInput(f"{name} is missing or not an integer: {shown(value)}", field=name)
        ticks.append(value)
    bounded_ticks(archive)
    started, ended = ticks
    if ended < started:
        raise InvalidInput(
            f"the match ends (tick {ended}) before it starts (tick {started})", field="endedAtTick"
        )
    return ended - started
