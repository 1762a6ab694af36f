"""Thrown fights: raids and thefts a victim lets happen, again and again.

Seed 002 §2.9 counts "thrown fights" among the flows of the net-transfer graph;
§2.8 reads aggression and betrayal from attacks and raids.  A raid between rivals is
the game: the victim defends, retaliates, or stays away and stops dealing with its
aggressor.  A thrown fight is a transfer dressed as a fight: the victim keeps
refilling what is taken, never hits back, and keeps cooperating with the one who
takes.

Rule, per aggressor ``X`` and victim ``V``:

- ``X`` did at least ``threshold`` forced acts on ``V`` (raids, thefts, attacks); the
  score is that number;
- they took value at ``min_refills + 1`` different ticks or more: between takes the
  victim had goods to lose again, at least ``min_refills`` times (it refilled); and
  together they took at least ``min_value`` typical exchanges (a thrown fight is a
  transfer: petty pilfering is not one);
- ``V`` never hit ``X`` back (at most ``max_retaliation`` acts);
- the two otherwise cooperate: they kept company (stood together at least
  ``min_together_ratio`` times as long as the median pair of the match that met) and dealt
  with each other (at least ``min_cooperation`` voluntary exchanges between them), or kept
  company so closely (``close_company_ratio`` times the median pair) that no trade is
  needed to show it.  A victim flees or stops dealing with a real aggressor; a raid takes
  a tick together, and a thief moves on.  Without co-location data, dealing alone is read.

>>> import networkx as nx
>>> from .graph import TransferView
>>> G = nx.MultiDiGraph()
>>> for t in (1, 5, 9):
...     _ = G.add_edge("v", "x", value=12.0, tick=t, event=t, kind="raid")
>>> _ = G.add_edge("v", "x", value=4.0, tick=6, event=6, kind="gift")
>>> _ = G.add_edge("x", "v", value=4.0, tick=7, event=7, kind="gift")
>>> _ = G.add_edge("v", "x", value=4.0, tick=8, event=8, kind="gift")
>>> [(f.agents, f.score) for f in thrown_fight(TransferView(G), {"threshold": 3, "min_refills": 2,
...   "min_value": 1.0, "max_retaliation": 0, "min_cooperation": 2, "min_together_ratio": 6.0,
...   "close_company_ratio": 12.0})]
[(('x', 'v'), 3.0)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .flags import Flag, ordered, pair_key
from .graph import TransferView

__all__ = ["thrown_fight"]


def thrown_fight(view: TransferView, params: Mapping[str, Any]) -> list[Flag]:
    """Repeated, unanswered, cooperative aggression (module rule)."""
    threshold = float(params["threshold"])
    min_refills = int(params["min_refills"])
    max_retaliation = int(params["max_retaliation"])
    min_cooperation = int(params["min_cooperation"])
    min_value = float(params["min_value"]) * (view.scale or 0.0)
    min_ratio = float(params["min_together_ratio"])
    close_ratio = float(params["close_company_ratio"])
    typical = view.typical_contact
    flags: list[Flag] = []
    for (a, b), pair in view.pairs.items():
        if not pair.acts or a in view.exempt or b in view.exempt:
            continue
        for aggressor in (a, b):
            victim = pair.other(aggressor)
            acts = pair.acts_by(aggressor)
            if len(acts) < threshold:
                continue
            answered = len(pair.acts_by(victim))
            if answered > max_retaliation:
                continue
            refills = len({act.tick for act in acts if act.value is not None and act.value > 0}) - 1
            if refills < min_refills:
                continue
            taken = sum(act.value or 0.0 for act in acts)
            if taken <= 0 or taken < min_value:
                continue
            cooperation = pair.exchanges
            together = view.contact_of(a, b)
            ratio = together / typical if typical else 0.0
            dealing = len(cooperation) >= min_cooperation
            if view.contact is None:
                if not dealing:
                    continue
            elif not ((ratio >= min_ratio and dealing) or ratio >= close_ratio):
                continue
            evidence: set[Any] = set()
            for act in acts:
                evidence.update(act.events)
            for x in cooperation:
                evidence.update(x.events)
            flags.append(Flag(
                screen="thrown_fight",
                kind="thrown_fight",
                level="flag",
                agents=(aggressor, victim),
                pairs=(pair_key(aggressor, victim),),
                score=float(len(acts)),
                threshold=threshold,
                evidence=tuple(ordered(evidence)),
                explanation=(
                    f"{aggressor} raided, robbed or attacked {victim} {len(acts)} times, taking {taken:g} in "
                    f"value; {victim} refilled, never hit back, and "
                    + (f"kept its company ({together:g} ticks together, {ratio:.1f} times the match's typical pair)"
                       if view.contact is not None else "")
                    + (" and " if view.contact is not None and dealing else "")
                    + (f"dealt with it ({len(cooperation)} exchanges)" if dealing else "")
                    + "."
                ),
                details={
                    "aggressor": aggressor,
                    "victim": victim,
                    "acts": len(acts),
                    "valueTaken": taken,
                    "refills": refills,
                    "retaliations": answered,
                    "exchanges": len(cooperation),
                    "ticksTogether": together,
                    "togetherRatio": round(ratio, 3),
                },
            ))
    return flags
