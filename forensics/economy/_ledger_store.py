"""The ledger's store: completed trades by column (private to the economy room; the ledger
exports :class:`TradeTable`).

Kept per completed trade (one row per ``tradeId``, in the order first seen), because the
ledger's result lists every trade: the first event's ``from``, ``to`` (codes into a table
of agents, each kept once), ``give`` and ``receive`` (codes into a table of item maps,
each distinct bundle kept once), its tick, and the ids of every event logged for it
(the first two in columns, a third and later apart: rare).  The trade id itself is a key
of a plain dict (id -> row).  About 40 bytes a trade beside its id.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from daishi_forensics.replay import ShapeTable, Table, code_column, int_column

__all__ = ["TradeTable"]

TradeId = str | int
"""A trade's ``payload.tradeId`` as logged."""


class TradeTable:
    """Completed trades as the ledger reads them (the module docstring says what a row keeps).

    :attr:`marks` is one byte a row for the owning pass's own flags (the ledger notes
    there the upcast twin and which parties' events it counted).
    """

    __slots__ = ("rows", "agents", "shapes", "giver", "taker", "give", "receive", "ticks", "first_event",
                 "second_event", "held", "more_events", "marks")

    def __init__(self) -> None:
        self.rows: dict[TradeId, int] = {}
        """``tradeId`` -> row."""
        self.agents = Table()
        """The agents, each once (:attr:`giver` and :attr:`taker` hold their codes)."""
        self.shapes = ShapeTable()
        """The item maps, each distinct one once (:attr:`give` and :attr:`receive` hold their codes)."""
        self.giver = code_column()
        self.taker = code_column()
        self.give = code_column()
        self.receive = code_column()
        self.ticks = int_column()
        """The tick of each trade's first event."""
        self.first_event = int_column()
        self.second_event = int_column()
        self.held = bytearray()
        """Event ids noted per row in :attr:`first_event` and :attr:`second_event`: 0, 1 or 2."""
        self.more_events: dict[int, list[int]] = {}
        """Row -> its third and later event ids."""
        self.marks = bytearray()

    def __len__(self) -> int:
        return len(self.held)

    def row(self, trade_id: TradeId, payload: Mapping[str, Any], event_id: object, tick: int) -> tuple[int, bool]:
        """``(row, True)`` after adding the trade with ``payload``'s terms (a checked
        ``trade_completed`` payload) at ``tick``; ``(row, False)`` when the ``tradeId`` has a
        row already.  ``event_id`` (the event's ``id``) is noted for the row when it is an ``int``."""
        rows = self.rows
        row = rows.get(trade_id)
        if row is not None:
            if isinstance(event_id, int):
                self.note_event(row, event_id)
            return row, False
        row = rows[trade_id] = len(self.held)
        agent, shape = self.agents.code, self.shapes.code
        self.giver.append(agent(payload["from"]))
        self.taker.append(agent(payload["to"]))
        self.give.append(shape(payload["give"]))
        self.receive.append(shape(payload["receive"]))
        self.ticks.append(tick)
        self.first_event.append(0)
        self.second_event.append(0)
        self.held.append(0)
        self.marks.append(0)
        if isinstance(event_id, int):
            self.note_event(row, event_id)
        return row, True

    def note_event(self, row: int, event_id: int) -> None:
        """Note an event id of the row, unless noted already."""
        held = self.held[row]
        if held == 0:
            self.first_event[row] = event_id
        elif event_id == self.first_event[row]:
            return
        elif held == 1:
            self.second_event[row] = event_id
        else:
            if event_id != self.second_event[row]:
                more = self.more_events.setdefault(row, [])
                if event_id not in more:
                    more.append(event_id)
            return
        self.held[row] = held + 1

    def event_ids(self, row: int) -> tuple[int, ...]:
        """The row's event ids, in the order noted."""
        held = self.held[row]
        if held == 2:
            more = self.more_events.get(row)
            ids = (self.first_event[row], self.second_event[row])
            return ids + tuple(more) if more else ids
        return (self.first_event[row],) if held else ()

    def giver_of(self, row: int) -> str:
        """The row's ``from`` agent."""
        name: str = self.agents.values[self.giver[row]]
        return name

    def taker_of(self, row: int) -> str:
        """The row's ``to`` agent."""
        name: str = self.agents.values[self.taker[row]]
        return name

    def same_terms(self, row: int, payload: Mapping[str, Any]) -> bool:
        """True when ``payload``'s from/to/give/receive equal the row's (item maps as dicts compare)."""
        return (
            payload["from"] == self.giver_of(row)
            and payload["to"] == self.taker_of(row)
            and self.shapes.equals(self.give[row], payload["give"])
            and self.shapes.equals(self.receive[row], payload["receive"])
        )

    def item_maps(self) -> list[dict[str, Any]]:
        """A new dict per kept item map (code -> map), shared by the rows that moved it."""
        mapping = self.shapes.mapping
        return [mapping(code) for code in range(len(self.shapes))]

    def trades(
        self, item_maps: list[dict[str, Any]] | None = None
    ) -> Iterator[tuple[TradeId, str, str, dict[str, Any], dict[str, Any], tuple[int, ...]]]:
        """``(trade id, from, to, give, receive, event ids)`` per row, in order; the item maps
        are ``item_maps`` (default :meth:`item_maps`), shared between rows."""
        maps = self.item_maps() if item_maps is None else item_maps
        names, event_ids = self.agents.values, self.event_ids
        for row, (trade_id, giver, taker, give, receive) in enumerate(
            zip(self.rows, self.giver, self.taker, self.give, self.receive)
        ):
            yield trade_id, names[giver], names[taker], maps[give], maps[receive], event_ids(row)
