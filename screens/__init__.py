"""Collusion screens: graph functions first (issue 4; seed 002 §2.9).

Every screen is a function over a plain :class:`networkx.MultiDiGraph` of transfers
(edge attributes ``value``, ``tick``, ``event``; conventions in
:mod:`daishi_forensics.screens.graph`), with no Daishi-specific input, so it runs on
any labelled transfer data.  A Daishi match is one adapter
(:func:`daishi_forensics.transfers.transfer_graph`, :func:`match_graph`).

>>> import networkx as nx
>>> G = nx.MultiDiGraph()
>>> _ = G.add_edge("a", "b", value=6.0, tick=1, event=1, exchange="t1", goods={"wood": 6.0})
>>> _ = G.add_edge("b", "a", value=6.0, tick=1, event=2, exchange="t1", goods={"food": 6.0})
>>> screen_graph(G).verdict
'clear'

Screens (one module each): ``feeder``, ``ring``, ``cartel``, ``off_price``,
``thrown_fight``, ``pair_outlier``, ``operator``; and the money-laundering typologies,
which need only ``value`` and ``tick`` and test each candidate against a null built from
the same graph: ``fans``, ``scatter_gather``, ``value_cycles``.  Thresholds: ``config.json``
(versioned; the version and digest are stamped in every result).
"""

from __future__ import annotations

from .config import ConfigError, ScreenConfig, default_config, load_config
from .daishi import match_graph, screen_match, screens_section
from .flags import Flag, Level, Verdict, verdict_of
from .graph import FORCED_KINDS, ScreenInputError, TransferView, combine_graphs, net_transfer_graph
from .screening import SCREENS, ScreenResult, SeasonResult, screen_graph, screen_season

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
    "match_graph",
    "net_transfer_graph",
    "screen_graph",
    "screen_match",
    "screen_season",
    "screens_section",
    "verdict_of",
]
