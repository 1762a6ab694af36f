"""Honest noise: the ways honest agents elsewhere trade that look like collusion to a fixed rule.

A mixin of :class:`~.engine.Simulation`.  Off by default (``noise="none"``): the existing
scenarios and the embedded demo draw exactly what they drew before.  With a level
(``light``, ``medium``, ``heavy``, and ``extreme`` beyond them), honest agents also:

- **trade in whole items**: an agent whose spare goods are dear pays a whole item (a tool,
  a cloth, a plank) for the one cheap good it needs now, several times the reference
  value, to a partner it knows or one standing next to it (so between two agents it
  happens both ways);
- **favour partners they know**: each agent has one or two friends it trades with far
  more than with anyone else (pair volumes very skewed without collusion);
- **gift food to the hungry**: an agent with food to spare gives some to a partner
  beside it who has none;
- **starve and beg**: one or two careless agents gather no food and ask whoever they meet
  for some, and many give;
- **buy before they build**: an agent with a project buys what it lacks in a burst of
  fair trades;
- **fill market orders** and **trade with whoever stands next to them**, more often.

Every draw of the noise comes from its own seeded generator, so the same seed and level
give the same bytes.  Intensities scale with the level; nothing here is a planted
behaviour (truth.json lists the noisy agents under ``organic.noise``).

``extreme`` (1.9 times ``heavy``) is the heaviest level at which each kind above keeps its
whole share of a turn (the shares add up to 0.51 of a turn at ``heavy``, 0.97 here): nearly
every turn of an honest agent tries one of them before its ordinary business, and a beggar
begs at almost every turn.  It is for measuring screens beyond the levels they were set at.
"""

# mypy: disable-error-code="misc"
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .world import STRUCTURES, Agent

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["NOISE_LEVELS", "HonestNoise"]

NOISE_LEVELS: dict[str, float] = {"none": 0.0, "light": 0.35, "medium": 0.65, "heavy": 1.0, "extreme": 1.9}
"""Honest-noise levels and their intensity (0: off)."""

_DEAR = ("tool", "cloth", "plank", "ore")
_CHEAP = ("wood", "food", "fiber", "stone")


class HonestNoise:
    """Set-up and turns of honest noise (module docstring)."""

    def _noise_setup(self: Simulation) -> None:
        level = self.noise
        if level <= 0:
            return
        rng = self.nrng
        players = [a for a in self.players if a.role != "probe"]
        friends: dict[str, list[str]] = {}
        for a in players:
            others = [b for b in players if b is not a]
            if not others:
                continue
            picked = rng.sample(others, min(len(others), 1 + (rng.random() < level)))
            friends[a.id] = [b.id for b in picked]
        self.noise_friends = friends
        weight = 1.0 + 14.0 * level
        for a in players:
            self._set_favour(a, {bid: weight for bid in friends.get(a.id, [])})
        careless = [a for a in players if not a.tags]
        rng.shuffle(careless)
        self.noise_beggars = {a.id for a in careless[:1 + int(level >= 0.9)]}
        self.organic["noise"] = {"level": next(k for k, v in NOISE_LEVELS.items() if v == level),
                                 "friends": {k: sorted(v) for k, v in sorted(friends.items())},
                                 "beggars": sorted(self.noise_beggars)}

    def _beside(self: Simulation, a: Agent) -> list[Agent]:
        return [o for o in self.occ[a.pos].values() if o is not a and o.role != "probe" and o.active]

    def _noise_partner(self: Simulation, a: Agent, rng: random.Random) -> Agent | None:
        """A friend, or whoever stands beside ``a``."""
        here = self._beside(a)
        if here and rng.random() < 0.5:
            return here[int(rng.random() * len(here))]
        mine = [self.by_id[i] for i in self.noise_friends.get(a.id, ())]
        mine = [b for b in mine if b.active]
        if mine:
            return mine[int(rng.random() * len(mine))]
        return here[int(rng.random() * len(here))] if here else None

    def _noise_turn(self: Simulation, a: Agent, t: int) -> bool:
        """One turn of honest noise for ``a`` instead of its ordinary action, or False."""
        level = self.noise
        if level <= 0 or a.outgoing is not None or a.role == "probe":
            return False
        rng = self.nrng
        inv = a.carried
        b: Agent | None
        if a.id in self.noise_beggars:  # careless: begs whoever it meets for food, again and again
            here = self._beside(a)
            if rng.random() < 0.5 * level:
                others = here or [b for b in self.players if b is not a and b.active and b.role != "probe"]
                if others:
                    b = others[int(rng.random() * len(others))]
                    return self.offer(a, b, {}, {"food": 1 + int(rng.random() * 2)}, tag="beg",
                                      accept_p=0.55) is not None
            return False
        x = rng.random()
        # gifts of food to a hungry agent beside it
        if x < 0.08 * level and inv.get("food", 0) >= 3:
            hungry = [b for b in self._beside(a) if not b.carried.get("food")]
            if hungry:
                b = hungry[int(rng.random() * len(hungry))]
                return self.offer(a, b, {"food": 1 + int(rng.random() * min(3, inv["food"] - 1))}, {},
                                  tag="gift-food", accept_p=0.95) is not None
        x -= 0.08 * level
        # a whole dear item for the one cheap good it needs now
        if x < 0.10 * level:
            dear = [k for k in _DEAR if inv.get(k, 0) >= 1 and k not in a.need]
            b = self._noise_partner(a, rng)
            if dear and b is not None:
                cheap = [k for k in _CHEAP if b.carried.get(k, 0) >= 1 and inv.get(k, 0) < 3]
                if cheap:
                    k = dear[int(rng.random() * len(dear))]
                    c = cheap[int(rng.random() * len(cheap))]
                    q = min(b.carried[c], 1 + int(rng.random() * 2))
                    return self.offer(a, b, {k: 1}, {c: q}, tag="whole-item", accept_p=0.9) is not None
            return False
        x -= 0.10 * level
        # buy up what the next build needs, in fair trades with a friend or a neighbour
        if x < 0.12 * level and a.project in STRUCTURES:
            missing = [k for k, n in a.need.items() if inv.get(k, 0) < n]
            b = self._noise_partner(a, rng)
            if missing and b is not None:
                want = missing[int(rng.random() * len(missing))]
                if b.carried.get(want, 0) >= 1:
                    saved = a.want
                    a.want = want
                    deal = self.compose(a, b)
                    a.want = saved
                    if deal is not None:
                        return self.offer(a, b, deal[0], deal[1], tag="pre-build") is not None
            return False
        x -= 0.12 * level
        # fair trade with a friend or whoever stands beside it
        if x < 0.15 * level:
            b = self._noise_partner(a, rng)
            if b is not None:
                deal = self.compose(a, b)
                if deal is not None:
                    return self.offer(a, b, deal[0], deal[1], tag="nearby") is not None
            return False
        x -= 0.15 * level
        # fill or post market orders
        if x < 0.06 * level and inv:
            if self.market and self._fill_market(a):
                return True
            return self._post_market(a, t)
        return False
