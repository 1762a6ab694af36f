"""Collusion screens: graph functions first (the evaluation design's collusion screens).

Every screen is a function over a plain :class:`networkx.MultiDiGraph` of transfers
(edge attributes ``value``, ``tick``, ``event``; conventions in
:mod:`daishi_forensics.screens.graph`), with no Daishi-specific input, so it runs on
any labelled transfer data.  A Daishi match is one adapter
(:func:`daishi_forensics.economy.transfers.transfer_graph`; a whole match is screened by
:func:`daishi_forensics.report.screening.screen_match`).

>>> import networkx as nx
>>> from daishi_forensics.screens import screen_graph
>>> G = nx.MultiDiGraph()
>>> _ = G.add_edge("a", "b", value=6.0, tick=1, event=1, exchange="t1", goods={"wood": 6.0})
>>> _ = G.add_edge("b", "a", value=6.0, tick=1, event=2, exchange="t1", goods={"food": 6.0})
>>> screen_graph(G).verdict
'clear'

Screens (one module each): ``feeder``, ``ring`` (its rules in ``wash_pair``, ``wash_cycle``
and ``wash_ring``, over ``mirrors`` and ``round_trip_null``), ``cartel``, ``off_price``,
``thrown_fight``, ``pair_outlier``, ``operator``; and the money-laundering typologies,
which need only ``value`` and ``tick``: ``fans``, ``scatter_gather``, ``value_cycles``.
Each tests its findings against honest play in the same graph (:mod:`.stats` holds the tests and the match-level multiple-testing
step); one setting, ``general.false_alarm_rate`` in ``config.json`` (versioned; the version
and digest are stamped in every result), sets how often an honest match is not ``clear``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from daishi_forensics.lazy import attribute

if TYPE_CHECKING:
    from .config import ConfigError, ScreenConfig, default_config, load_config
    from .flags import Flag, Level, Verdict, verdict_of
    from .graph import FORCED_KINDS, ScreenInputError, TransferView, combine_graphs, net_transfer_graph
    from .screening import SCREENS, ScreenResult, SeasonResult, screen_graph, screen_season

_EXPORTS: dict[str, str] = {
    "ConfigError": ".config", "ScreenConfig": ".config", "default_config": ".config", "load_config": ".config",
    "Flag": ".flags", "Level": ".flags", "Verdict": ".flags", "verdict_of": ".flags",
    "FORCED_KINDS": ".graph", "ScreenInputError": ".graph", "TransferView": ".graph", "combine_graphs": ".graph",
    "net_transfer_graph": ".graph",
    "SCREENS": ".screening", "ScreenResult": ".screening", "SeasonResult": ".screening",
    "screen_graph": ".screening", "screen_season": ".screening",
}
"""Each public name → the module of this package that defines it, imported when the name is first
asked for: importing one module (``screens.config`` for the ``screen`` command's options) does
not import every screen, networkx and numpy."""

__all__ = [
    "FORCED_KINDS",
    "SCREENS",
    "ConfigError",
    "Flag",
    "Level",
    "ScreenConfig",
    "ScreenInputError",
    "ScreenResult",
    "SeasonResult",
    "TransferView",
    "Verdict",
    "combine_graphs",
    "default_config",
    "load_config",
    "net_transfer_graph",
    "screen_graph",
    "screen_season",
    "verdict_of",
]


def __getattr__(name: str) -> Any:
    return attribute(globals(), _EXPORTS, name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
