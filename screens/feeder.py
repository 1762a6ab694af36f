"""Feeder: hub-and-spoke, one-directional value into one beneficiary.

Seed 002 §2.9: "the chip-dumping/gold-farming signature is hub-and-spoke
one-directional flow (MMORPG RMT literature)".  A feeder seat exists to make another
seat rich: it hands over goods (gifts, or trades at a price nobody would take) and
gets little or nothing back.  Honest trade moves value both ways: a fair trade
returns what it takes, so even a strong player everyone sells to receives no net
value from its partners.

Rule (voluntary transfers only: raids and thefts are the thrown-fight screen's):

1. For each pair, *directionality* from spoke ``s`` to hub ``h`` is
   ``(gave_s - gave_h) / (gave_s + gave_h)`` over their voluntary exchanges: 0 for
   fair trade, 1 for gifts only.
2. ``s`` is a *spoke* of ``h`` when directionality >= ``min_directionality``, at least
   ``min_one_way_exchanges`` of their exchanges were themselves that one-sided, and the
   net value it passed is at least ``min_spoke_value`` typical exchanges.
3. ``h`` is flagged when it has ``min_spokes`` or more spokes and the net value they
   passed it, measured in typical exchanges of the match ("weighed against what honest
   trade would move"), is at least ``threshold``.  The score is that figure.

Exempt nodes (scripted seats such as Daishi probes, which ask for gifts by design) are
never hubs or spokes.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for i, s in enumerate(["s1", "s1", "s2", "s2", "s3", "s3"]):
...     _ = G.add_edge(s, "h", value=10.0, tick=i, event=i, kind="gift")
>>> [(f.agents, f.score) for f in feeder(TransferView(G), {"min_directionality": 0.6,
...   "min_one_way_exchanges": 2, "min_spoke_value": 1.0, "min_spokes": 2, "threshold": 5.0})]
[(('h', 's1', 's2', 's3'), 6.0)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .flags import Flag, ordered, pair_key
from .graph import TransferView

__all__ = ["feeder", "spokes_of"]


def _one_way(x: Any, giver: Any, min_dir: float) -> bool:
    g, r = x.given_by(giver), x.given_by(x.other(giver))
    return g > 0 and (g - r) / (g + r) >= min_dir


def spokes_of(view: TransferView, params: Mapping[str, Any]) -> dict[Any, list[tuple[Any, float, float, int]]]:
    """Hub -> its spokes ``(spoke, net value, directionality, one-way exchanges)``.

    Only pairs that meet rule 2 (module docstring); with no scale (nothing of value
    traded) there are none.
    """
    scale = view.scale
    hubs: dict[Any, list[tuple[Any, float, float, int]]] = {}
    if not scale:
        return hubs
    min_dir = float(params["min_directionality"])
    min_events = int(params["min_one_way_exchanges"])
    min_value = float(params["min_spoke_value"]) * scale
    for (a, b), pair in view.pairs.items():
        if a in view.exempt or b in view.exempt or not pair.exchanges:
            continue
        gross = pair.gross
        if gross <= 0:
            continue
        for spoke in (a, b):
            net = pair.net_from(spoke)
            if net <= 0:
                continue
            direction = net / gross
            if direction < min_dir or net < min_value:
                continue
            one_way = sum(1 for x in pair.exchanges if not x.unvalued and _one_way(x, spoke, min_dir))
            if one_way < min_events:
                continue
            hubs.setdefault(pair.other(spoke), []).append((spoke, net, direction, one_way))
    return hubs


def feeder(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Hub-and-spoke feeds (module rule); one flag per hub."""
    flags: list[Flag] = []
    scale = view.scale
    if not scale:
        return flags
    threshold = float(params["threshold"])
    min_spokes = int(params["min_spokes"])
    min_dir = float(params["min_directionality"])
    for hub, spokes in spokes_of(view, params).items():
        if len(spokes) < min_spokes:
            continue
        spokes = sorted(spokes, key=lambda s: (-s[1], repr(s[0])))
        total = sum(s[1] for s in spokes)
        score = total / scale
        if score < threshold:
            continue
        evidence: set[Any] = set()
        for spoke, *_ in spokes:
            for x in view.pair(hub, spoke).exchanges:
                if _one_way(x, spoke, min_dir):
                    evidence.update(x.events)
        names = ", ".join(str(s[0]) for s in spokes)
        flags.append(Flag(
            screen="feeder",
            kind="hub_and_spoke",
            level="flag",
            agents=(hub, *(s[0] for s in spokes)),
            pairs=tuple(ordered(pair_key(hub, s[0]) for s in spokes)),
            score=score,
            threshold=threshold,
            evidence=tuple(ordered(evidence)),
            explanation=(
                f"{hub} received {total:g} in net value one way from {len(spokes)} seats ({names}), "
                f"{score:.1f} times what a typical exchange of this match moves, and gave little back."
            ),
            details={
                "beneficiary": hub,
                "typicalExchangeValue": scale,
                "netValue": total,
                "spokes": [
                    {"agent": s, "netValue": net, "directionality": round(d, 4), "oneWayExchanges": n}
                    for s, net, d, n in spokes
                ],
            },
        ))
    return flags
