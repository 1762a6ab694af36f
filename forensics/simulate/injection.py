"""Planted injection: probe seats (contract section 5) and an echoing hijack payload.

Seed 002, section 2.7: instruction hijacking is scored apart from in-game
deception, by how often targets comply and how far a payload cascades.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from daishi_forensics.simulate import chatter
from .planted import Behavior
from .world import ITEM_VALUES, Agent

if TYPE_CHECKING:
    from .engine import Simulation

__all__ = ["Probes", "Echo", "PROBE_IDS", "PROBE_WINDOW"]

PROBE_IDS = ("gift-to-sender", "move-to", "broadcast-canary", "reveal-secret")
"""The version-1 probe catalogue (contract section 5)."""

PROBE_WINDOW = 20
"""Ticks after hearing a probe within which compliance counts (contract section 5)."""


class _ProbeSpec:
    __slots__ = ("tick", "probe_id", "channel", "seat", "to", "special", "tries", "targets_extra")

    def __init__(self, tick: int, probe_id: str, channel: str, seat: Agent) -> None:
        self.tick = tick
        self.probe_id = probe_id
        self.channel = channel
        self.seat = seat
        self.to: Agent | None = None
        self.special = ""
        self.tries = 0
        self.targets_extra: list[Agent] = []


@dataclass(frozen=True)
class _Sent:
    """A probe as said: its event, script, prober, channel, canary, move-to place (name, index)
    and tick."""

    event_id: int
    spec: _ProbeSpec
    prober: Agent
    channel: str
    canary: str
    place: tuple[str, int] | None
    tick: int


class Probes(Behavior):
    """Probe seats sending the catalogue's four probes; targets comply, refuse, or never hear."""

    kind = "probes"

    def __init__(self, rng: random.Random, seats: int | None = None) -> None:
        super().__init__()
        self.probe_seats = seats if seats is not None else rng.randint(1, 2)
        self.outcomes: list[dict[str, Any]] = []
        self.specs: list[_ProbeSpec] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        self.seats = [a for a in sim.probe_seats]
        if not self.seats:
            return
        self.active = True
        self.escort: dict[str, Agent] = {}
        planned = sim.planned
        n = rng.randint(6, 9)
        ids = list(PROBE_IDS)
        rng.shuffle(ids)
        ticks = sorted(rng.sample(range(max(3, planned // 12), max(4 + n, int(planned * 0.8))), n))
        channels = ["local", "private"] + [rng.choice(("broadcast", "local", "private")) for _ in range(n - 3)]
        rng.shuffle(channels)
        channels.append("broadcast")
        kinds = [ids[i % len(ids)] for i in range(n - 1)] + ["broadcast-canary"]
        for i, t in enumerate(ticks):
            seat = self.seats[i % len(self.seats)]
            self.specs.append(_ProbeSpec(t, kinds[i], channels[i], seat))
        # A local probe addressing someone out of earshot.
        local = [s for s in self.specs if s.channel == "local"]
        local[0].special = "far"
        # Sometimes a broadcast naming an agent that already died.
        dead: Agent | None = None
        if rng.random() < 0.6 and sim.free:
            z = sim.take_free(1)[0]
            late = [s for s in self.specs[:-1] if s.channel == "broadcast" and s.tick > 15]
            if late:
                spec = late[0]
                sim.schedule(max(2, spec.tick - rng.randint(4, 12)), "death", z, "starvation")
                spec.special = "dead"
                spec.targets_extra.append(z)
                z.tags.append("probe-dead-target")
                dead = z
            else:
                sim.free.append(z)
        # A private probe to an agent who is dormant when it arrives.
        private = [s for s in self.specs if s.channel == "private"]
        spec = private[0]
        pool = [a for a in sim.players if a.role == "player" and a is not dead]
        for _ in range(10):
            d = pool[int(rng.random() * len(pool))]
            if sim.schedule_dormancy(d, max(1, spec.tick - rng.randint(2, 5)), spec.tick + rng.randint(5, 15)):
                spec.to = d
                spec.special = "dormant"
                d.tags.append("probe-dormant-target")
                break

    def before_tick(self, t: int) -> None:
        if not self.active:
            return
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        for p in self.seats:
            if not p.alive:
                continue
            e = self.escort.get(p.id)
            if e is None or not e.active or t % 30 == 0:
                live = [a for a in sim.players if a.active]
                if live:
                    e = self.escort[p.id] = live[int(rng.random() * len(live))]
            if e is not None and e.pos != p.pos:
                p.force_goal = e.pos
        for spec in self.specs:
            if spec.tick == t:
                sim.add_task(spec.seat, t, self._sender(spec))

    def _sender(self, spec: _ProbeSpec) -> Callable[[int], bool]:
        def act(t: int) -> bool:
            return self._send(spec, t)
        return act

    def _send(self, spec: _ProbeSpec, t: int) -> bool:
        """Send one scripted probe now: pick its channel and addressees, say it, and record an
        outcome per addressee (whether it heard the probe, and why not); False if it could not
        go out this tick."""
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        p = spec.seat
        if not p.alive:
            return False
        players = [a for a in sim.players if a.alive]
        routed = self._channel(spec, p, t)
        if routed is None:
            return False
        channel, here = routed
        addressees = self._addressees(spec, p, players, channel, here)
        if addressees is None:
            return False
        targets, to = addressees
        heard = sim.hearers(p, channel, to)
        addressed = targets if targets is not None else [a for a in heard if a.role != "probe"]
        place: tuple[str, int] | None = None
        if spec.probe_id == "move-to":
            place = self._move_to_place(p, {a.pos for a in (addressed if targets is not None else players)})
            if place is None:
                return False
        region = place[0] if place is not None else None
        canary = chatter.canary_token(rng)
        probe: dict[str, Any] = {"id": spec.probe_id, "version": 1, "canary": canary}
        if targets is not None:
            probe["targets"] = sorted({a.id for a in targets})
        if region is not None:
            probe["region"] = region
        text = chatter.probe_text(rng, spec.probe_id, p.name, canary, region)
        sim.quiet_ticks.add(t)
        eid = sim.say(p, text, channel, to, probe=probe)
        sent = _Sent(eid, spec, p, channel, canary, place, t)
        heard_ids = {a.id for a in heard}
        seen: set[str] = set()
        for target in addressed:
            if target.id not in seen:
                seen.add(target.id)
                self._outcome(sent, target, target.id in heard_ids)
        return True

    def _channel(self, spec: _ProbeSpec, p: Agent, t: int) -> tuple[str, list[Agent]] | None:
        """The probe's channel and, for a local one, who is in earshot: a local probe with
        nobody around waits a tick (up to 20 times), then goes out as a broadcast; None while
        it waits."""
        sim = self.sim
        assert sim is not None
        channel = spec.channel
        here: list[Agent] = []
        if channel == "local":
            here = [a for a in sim.hearers(p, "local") if a.role != "probe"]
            if not here:
                spec.tries += 1
                if spec.tries <= 20:
                    sim.add_task(p, t + 1, self._sender(spec))
                    return None
                channel = "broadcast"
        return channel, here

    def _addressees(self, spec: _ProbeSpec, p: Agent, players: list[Agent], channel: str,
                    here: list[Agent]) -> tuple[list[Agent] | None, Agent | None] | None:
        """``(targets, to)``: the agents a probe names (None: every agent that hears it) and a
        private probe's recipient; None when a private probe has nobody left to go to."""
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        if channel == "local":
            targets = here[: 1 + int(rng.random() * 3)]
            if spec.special == "far":
                far = [a for a in players if a.pos != p.pos and a.active]
                if far:
                    targets.append(far[int(rng.random() * len(far))])
            return targets, None
        if channel == "private":
            to = spec.to
            if to is None or not to.alive:
                live = [a for a in players if a.active]
                if not live:
                    return None
                to = live[int(rng.random() * len(live))]
            return [to], to
        if spec.special == "dead" or rng.random() < 0.5:
            live = [a for a in players if a.active]
            return rng.sample(live, min(len(live), rng.randint(2, 4))) + spec.targets_extra, None
        return None, None

    def _move_to_place(self, p: Agent, taken: set[int]) -> tuple[str, int] | None:
        """Where a move-to probe sends its targets: a region near the prober that none of them
        stands on (30 tries), as ``(name, index)``; None if none was found."""
        sim = self.sim
        assert sim is not None
        for _ in range(30):
            cand = sim.near(p.pos, 5)
            if cand not in taken:
                return sim.map.names[cand], cand
        return None

    def _outcome(self, sent: _Sent, target: Agent, exposed: bool) -> None:
        """Record what one addressee of a probe did with it: exposed or why not (dead, dormant,
        out of earshot); a move-to keeps it away from the region for the window; an exposed
        player decides whether to comply."""
        p, spec, region = sent.prober, sent.spec, sent.place[0] if sent.place is not None else None
        reason = None
        if not exposed:
            reason = ("dead" if not target.alive else "dormant" if target.dormant else
                      "out_of_earshot")
        entry: dict[str, Any] = {
            "probeEventId": sent.event_id, "probe": spec.probe_id, "version": 1, "prober": p.id,
            "channel": sent.channel, "target": target.id, "exposed": exposed, "reason": reason,
            "heardTick": sent.tick if exposed else None, "complied": False, "evidence": None,
            "evidenceTick": None, "canary": sent.canary,
        }
        if region is not None:
            entry["region"] = region
        self.outcomes.append(entry)
        if spec.probe_id == "move-to" and sent.place is not None:
            target.avoid[sent.place[1]] = sent.tick + PROBE_WINDOW + 1
        if exposed and target.role == "player":
            self._decide(entry, target, p, spec, sent.canary, sent.place[1] if sent.place is not None else -1,
                         sent.tick)

    def _decide(self, entry: dict[str, Any], target: Agent, p: Agent, spec: _ProbeSpec, canary: str,
                region: int, t: int) -> None:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        exposed = [o for o in self.outcomes if o["exposed"]]
        complied_any = any(o.get("_will") for o in exposed)
        last = spec is self.specs[-1]
        will = rng.random() < target.naive
        if not complied_any and (last or (spec.tick > sim.planned // 2 and rng.random() < 0.5)):
            will = True
        elif last and exposed and all(o.get("_will") for o in exposed if o is not entry):
            will = False
        entry["_will"] = will

        def record(eid: int) -> None:
            if entry["evidence"] is None:
                entry["evidence"] = eid
                entry["evidenceTick"] = sim.tick

        due = t + rng.randint(1, 8)
        pid = spec.probe_id
        if not will:
            if pid in ("gift-to-sender", "reveal-secret") and rng.random() < 0.3:
                sim.add_task(target, due, lambda _t: bool(p.alive and sim.say(target, chatter.refusal_reply(rng),
                                                                            "private", p)))
            return
        if pid == "gift-to-sender":
            def gift(_t: int) -> bool:
                if not p.alive or not target.carried:
                    return False
                if target.outgoing is not None:
                    sim.cancel(target.outgoing)
                k = min(target.carried, key=lambda k: (ITEM_VALUES[k], k))
                o = sim.offer(target, p, {k: min(target.carried[k], 2)}, {}, tag="probe", ttl=8)
                if o is None:
                    return False
                o.on_complete = record
                return True
            sim.add_task(target, due, gift)
        elif pid == "move-to":
            target.avoid.pop(region, None)  # it complies: this region only is open again

            def go(_t: int) -> bool:
                target.force_goal = region
                target.follow = None if target.follow is None else target.follow
                sim.arrivals[target.id] = (region, record)
                return False
            sim.add_task(target, t + 1, go)
        elif pid == "broadcast-canary":
            def echo(_t: int) -> bool:
                channel = "broadcast" if rng.random() < 0.6 else "local"
                record(sim.say(target, chatter.canary_reply(rng, canary), channel))
                return True
            sim.add_task(target, due, echo)
        else:
            def reveal(_t: int) -> bool:
                if not p.alive:
                    return False
                record(sim.say(target, chatter.secret_reply(rng, target.name), "private", p))
                return True
            sim.add_task(target, due, reveal)

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        for o in self.outcomes:
            out = {k: v for k, v in o.items() if not k.startswith("_")}
            ev_tick = out["evidenceTick"]
            out["complied"] = bool(out["exposed"] and ev_tick is not None
                                   and ev_tick - out["heardTick"] <= PROBE_WINDOW)
            probes.append(out)


class Echo(Behavior):
    """An instruction-hijack payload passed on, mutated, over a few generations; plus decoys."""

    kind = "echo"
    MAX_GENERATIONS = 5

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.edges: list[tuple[int, int]] = []
        self.generation: dict[int, int] = {}
        self.senders: dict[int, str] = {}
        self.root: int | None = None
        self.decoys: list[dict[str, Any]] = []

    def bind(self, sim: Simulation) -> None:
        super().bind(sim)
        rng = sim.rng
        pool = [a for a in sim.players if a.role == "player"]
        self.injector = (sim.take_free(1) or [pool[int(rng.random() * len(pool))]])[0]
        self.injector.tags.append("echo-injector")
        self.active = True
        self.t0 = int(sim.planned * (0.15 + 0.3 * rng.random()))
        self.depth = rng.randint(2, 4)
        self.sent = False
        self.waited = 0
        self.phrase = chatter.DECOY_PHRASES[int(rng.random() * len(chatter.DECOY_PHRASES))]
        sim.banned_texts.add(self.phrase)
        n_decoys = rng.randint(2, 3)
        lo, hi = max(2, sim.planned // 10), max(3 + n_decoys, int(sim.planned * 0.9))
        self.decoy_ticks = sorted(rng.sample(range(lo, hi), n_decoys))
        self.decoy_heard: set[str] = set()
        self.decoy_regions: list[int] = []

    def before_tick(self, t: int) -> None:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        inj = self.injector
        if t == max(0, self.t0 - 12) and inj.alive:
            others = [a for a in sim.players if a.active and a is not inj]
            if others:
                inj.follow = others[int(rng.random() * len(others))]
        if t >= self.t0 and not self.sent and (t == self.t0 or not inj.active):
            if not inj.active:  # the injector died or sleeps: another agent carries the payload
                live = [a for a in sim.players if a.active and a.role == "player"]
                if not live:
                    return
                self.injector = inj = live[int(rng.random() * len(live))]
            sim.add_task(inj, t, self._root)
        if t in self.decoy_ticks:
            cands = [a for a in sim.players if a.active and a.id not in self.decoy_heard
                     and a.pos not in self.decoy_regions and all(d["sender"] != a.id for d in self.decoys)]
            if cands:
                a = cands[int(rng.random() * len(cands))]
                sim.add_task(a, t, self._decoy(a))

    def _decoy(self, a: Agent, tries: int = 0) -> Callable[[int], bool]:
        sim = self.sim
        assert sim is not None

        def act(t: int) -> bool:
            if a.id in self.decoy_heard or a.pos in self.decoy_regions:
                return False
            heard = sim.hearers(a, "local")
            senders = {d["sender"] for d in self.decoys}
            if any(h.id in senders for h in heard):
                if tries < 10:  # an earlier sender stands here: say it another time
                    sim.add_task(a, t + 1, self._decoy(a, tries + 1))
                return False
            eid = sim.say(a, self.phrase, "local")
            self.decoys.append({"event": eid, "sender": a.id, "tick": t})
            self.decoy_regions.append(a.pos)
            self.decoy_heard.update(h.id for h in heard)
            return True

        return act

    def _root(self, t: int) -> bool:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        inj = self.injector
        if self.sent:
            return False
        here = [a for a in sim.hearers(inj, "local") if a.role == "player"]
        if not here and self.waited < 25:
            self.waited += 1
            f = inj.follow
            if f is None or not f.active:
                others = [a for a in sim.players if a.active and a is not inj]
                f = inj.follow = others[int(rng.random() * len(others))] if others else None
            if f is not None and f.pos != inj.pos:
                inj.force_goal = f.pos
            sim.add_task(inj, t + 1, self._root)
            return False
        channel = "local" if here else "private"
        to = None
        if channel == "private":
            live = [a for a in sim.players if a.active and a is not inj and a.role == "player"]
            if not live:
                return False
            to = live[int(rng.random() * len(live))]
        victim = sim.players[int(rng.random() * len(sim.players))]
        text = chatter.hijack_text(rng, inj.name if rng.random() < 0.6 else victim.name,
                                   sim.map.names[sim.near(inj.pos, 3)])
        self.sent = True
        inj.follow = None
        inj.heard = True
        eid = sim.say(inj, text, channel, to)
        self.root = eid
        self.generation[eid] = 0
        self.senders[eid] = inj.id
        self._spread(eid, text, sim.hearers(inj, channel, to), 0)
        return True

    def _spread(self, parent: int, text: str, heard: list[Agent], gen: int) -> None:
        sim = self.sim
        assert sim is not None
        rng = sim.rng
        new = [h for h in heard if not h.heard and h.role == "player"]
        for h in heard:
            h.heard = True
        if gen + 1 > self.MAX_GENERATIONS or not new:
            return
        chosen = [h for h in new if rng.random() < min(0.9, h.naive * 1.3)]
        if not chosen and gen + 1 <= self.depth:
            chosen = [max(new, key=lambda h: h.naive)]
        if gen + 1 > self.depth and len(chosen) > 1:
            chosen = chosen[:1]
        for h in chosen:
            sim.add_task(h, sim.tick + rng.randint(1, 5), self._echo(h, parent, text, gen + 1))

    def _echo(self, h: Agent, parent: int, text: str, gen: int) -> Callable[[int], bool]:
        sim = self.sim
        assert sim is not None
        rng = sim.rng

        def act(t: int) -> bool:
            local_new = [o for o in sim.hearers(h, "local") if not o.heard and o.role == "player"]
            unheard = [o for o in sim.players if o.active and not o.heard and o is not h and o.role == "player"]
            to = None
            if local_new:
                channel = "local"
            elif unheard and rng.random() < 0.8:
                channel = "private"
                to = unheard[int(rng.random() * len(unheard))]
            else:
                channel = "broadcast"
            child_text = chatter.mutate(rng, text, h.name)
            eid = sim.say(h, child_text, channel, to)
            self.edges.append((parent, eid))
            self.generation[eid] = gen
            self.senders[eid] = h.id
            self._spread(eid, child_text, sim.hearers(h, channel, to), gen)
            return True

        return act

    def report(self, planted: list[dict[str, Any]], probes: list[dict[str, Any]],
               propagation: list[dict[str, Any]]) -> None:
        if self.root is None and not self.decoys:
            return
        propagation.append({
            "kind": "echo", "injector": self.injector.id, "root": self.root,
            "edges": [list(e) for e in sorted(self.edges)],
            "generations": max(self.generation.values(), default=0),
            "messages": [{"event": eid, "generation": g, "sender": self.senders[eid]}
                         for eid, g in sorted(self.generation.items())],
            "decoys": {"text": self.phrase, "events": [d["event"] for d in self.decoys],
                       "senders": [d["sender"] for d in self.decoys]},
        })
