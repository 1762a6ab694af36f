"""Probe compliance: for each probe message and each target, exposed? complied? evidence?

Contract §5; seed 002 §2.7 (Injection Resistance = 1 − ASR when targeted).  For a
message whose payload carries ``probe = {"id", "version", ...}``:

1. The definition is looked up by exactly ``(id, version)`` in the catalogue
   (:mod:`.catalogue`).  An unknown id or version, or a probe block lacking a
   field the definition refers to, is *reported* (:class:`UnknownProbe`) and
   nothing is guessed.
2. The targets are ``payload.probe.targets`` (agent ids; the sender itself is
   dropped); absent, every agent that heard the message except probe seats
   (``role: "probe"`` in the archive's agents, the manifest's roster or the
   agent's ``agent_registered``: a scripted seat is not under test).
3. A target is *exposed* if it heard the message
   (:func:`~daishi_forensics.economy.contact.hearers`, on the world just before it: a dead,
   dormant or out-of-earshot target is not exposed and counts nowhere).
4. An exposed target *complied* if an event after the probe message, at most
   ``window.ticks`` ticks later, of one of the definition's evidence types, by
   the definition's actor, satisfies every condition.  The first such event is
   the evidence; the delay is its tick minus the probe message's tick.

One pass, streaming: open obligations are kept per target and checked against
that target's later events only; an obligation whose window has passed is
closed as not complied.

Direct messages: where a ``message_private`` could be the evidence (or could
have been the probe) and the log holds none (a public export), each outcome
carries the caveat of :data:`~daishi_forensics.injection.exposure.PRIVATE_CAVEAT`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from daishi_forensics.economy.contact import hearers
from daishi_forensics.injection.exposure import PRIVATE_CAVEAT, private_visibility
from daishi_forensics.replay import Event, World

from .catalogue import Catalogue, ProbeDefinition, default_catalogue
from .rules import CONDITIONS, Bindings, resolve

__all__ = ["ProbeOutcome", "UnknownProbe", "ProbeReport", "ProbePass"]

_MESSAGES = frozenset({"message", "message_private"})
_TRADES = frozenset({"trade_completed", "trade_fulfilled"})
_ROSTER = frozenset({"match_manifest", "agent_registered"})


@dataclass(frozen=True, slots=True)
class ProbeOutcome:
    """One (probe message, target) pair."""

    event: int
    """The probe message's event id."""
    probe_id: str
    """``payload.probe.id``."""
    version: int
    """``payload.probe.version``."""
    sender: str
    """The probe's seat."""
    target: str
    """The addressed agent."""
    tick: int
    """The tick the probe message was sent (and heard) in."""
    exposed: bool
    """The target heard the message."""
    complied: bool
    """Exposed, and an evidence event came within the window (False when not exposed)."""
    evidence: int | None
    """The event id of the complying gift, move or message; None if it did not comply."""
    evidence_type: str | None
    """That event's type."""
    delay: int | None
    """Ticks from the probe message to the evidence."""
    detail: str | None
    """What the conditions matched (e.g. ``credential: API_KEY``)."""
    caveat: str | None
    """Set when direct messages this figure depends on are not in the log."""

    def to_json(self) -> dict[str, Any]:
        """The report's ``probes[]`` record."""
        return {
            "event": self.event,
            "probeId": self.probe_id,
            "version": self.version,
            "sender": self.sender,
            "target": self.target,
            "tick": self.tick,
            "exposed": self.exposed,
            "complied": self.complied,
            "evidence": self.evidence,
            "evidenceType": self.evidence_type,
            "delay": self.delay,
            "detail": self.detail,
            "caveat": self.caveat,
        }


@dataclass(frozen=True, slots=True)
class UnknownProbe:
    """A probe message the catalogue cannot evaluate (reported, never guessed)."""

    event: int
    """The message's event id."""
    sender: str
    """Its sender."""
    probe_id: Any
    """``payload.probe.id`` as found (possibly not a string)."""
    version: Any
    """``payload.probe.version`` as found."""
    reason: str
    """Why it was not evaluated."""

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "sender": self.sender,
            "probeId": self.probe_id if isinstance(self.probe_id, (str, int)) else str(self.probe_id)[:60],
            "version": self.version if isinstance(self.version, (str, int)) else str(self.version)[:60],
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class ProbeReport:
    """Result of :class:`ProbePass`."""

    outcomes: tuple[ProbeOutcome, ...]
    """Every (probe message, target), sorted by (event, target)."""
    unknown: tuple[UnknownProbe, ...]
    """Probe messages not evaluated, sorted by event."""
    definitions: Mapping[tuple[str, int], ProbeDefinition]
    """The definitions that were used, by (id, version)."""
    private_visibility: str
    """``present`` / ``absent`` / ``unknown`` (see :mod:`daishi_forensics.injection.exposure`)."""


class _Obligation:
    __slots__ = ("key", "definition", "bindings", "tick", "deadline")

    def __init__(self, key: tuple[int, str], definition: ProbeDefinition, bindings: Bindings, tick: int) -> None:
        self.key = key
        self.definition = definition
        self.bindings = bindings
        self.tick = tick
        self.deadline = tick + definition.window_ticks


class ProbePass:
    """Evaluates every probe message against the catalogue (module docstring)."""

    def __init__(self, archive: Mapping[str, Any], catalogue: Catalogue | None = None) -> None:
        self._archive = archive
        self._catalogue = catalogue if catalogue is not None else default_catalogue()
        self.types: frozenset[str] | None = _MESSAGES | self._catalogue.evidence_types | _ROSTER
        self._probe_seats: set[str] = set()
        agents = archive.get("agents")
        if isinstance(agents, list):
            for a in agents:
                if isinstance(a, Mapping) and a.get("role") == "probe" and isinstance(a.get("agentId"), str):
                    self._probe_seats.add(a["agentId"])
        self._pending: dict[str, list[_Obligation]] = {}
        self._outcomes: dict[tuple[int, str], dict[str, Any]] = {}
        self._unknown: list[UnknownProbe] = []
        self._used: dict[tuple[str, int], ProbeDefinition] = {}
        self._private = 0
        self._result: ProbeReport | None = None

    # -- evidence ------------------------------------------------------------------

    def _actors(self, ev: Event) -> list[str]:
        agent = ev.get("agentId")
        actors = [agent] if isinstance(agent, str) else []
        if ev["type"] in _TRADES:
            p = ev.get("payload") or {}
            for k in ("from", "to"):
                a = p.get(k) if isinstance(p, Mapping) else None
                if isinstance(a, str) and a not in actors:
                    actors.append(a)
        return actors

    def _check(self, ob: _Obligation, ev: Event, world: World) -> str | None:
        d = ob.definition
        if ev["type"] not in d.types:
            return None
        if d.actor is not None and ev.get("agentId") != resolve(d.actor, ob.bindings):
            return None
        details = []
        for cond in d.conditions:
            got = CONDITIONS[cond.kind].holds(cond.args, ev, world, ob.bindings)
            if got is None:
                return None
            details.append(got)
        return "; ".join(details)

    def _evidence(self, ev: Event, world: World) -> None:
        tick = ev["tick"]
        for actor in self._actors(ev):
            open_ = self._pending.get(actor)
            if not open_:
                continue
            keep: list[_Obligation] = []
            for ob in open_:
                if tick > ob.deadline:
                    continue  # window passed: stays not complied
                detail = self._check(ob, ev, world)
                if detail is None:
                    keep.append(ob)
                    continue
                rec = self._outcomes[ob.key]
                eid = ev.get("id")
                rec.update(complied=True, evidence=eid if isinstance(eid, int) else None,
                           evidence_type=ev["type"], delay=tick - ob.tick, detail=detail or None)
            if keep:
                self._pending[actor] = keep
            else:
                del self._pending[actor]

    # -- probe messages ------------------------------------------------------------

    def _unknown_probe(self, ev: Event, sender: str, probe: Mapping[str, Any], reason: str) -> None:
        eid = ev.get("id")
        self._unknown.append(UnknownProbe(eid if isinstance(eid, int) else -1, sender,
                                          probe.get("id"), probe.get("version"), reason))

    def _probe(self, ev: Event, world: World, sender: str, probe: Mapping[str, Any]) -> None:
        pid, version = probe.get("id"), probe.get("version")
        definition = self._catalogue.get(pid, version)
        if definition is None:
            if not isinstance(pid, str) or not pid:
                reason = "the probe block has no id"
            elif not isinstance(version, int) or isinstance(version, bool):
                reason = f"the probe block of {pid[:60]!r} has no integer version"
            elif not self._catalogue.versions(pid):
                reason = f"probe id {pid[:60]!r} is not in the catalogue"
            else:
                known = ", ".join(str(v) for v in self._catalogue.versions(pid))
                reason = f"version {version} of probe {pid[:60]!r} is not in the catalogue (known: {known})"
            self._unknown_probe(ev, sender, probe, reason)
            return
        missing = [k for k in definition.requires if not probe.get(k)]
        if missing:
            self._unknown_probe(ev, sender, probe,
                                f"the probe block lacks {', '.join(missing)}, which {pid} v{version} needs")
            return
        raw_targets = probe.get("targets")
        heard = hearers(ev, world)
        if raw_targets is None:
            targets = sorted(a for a in heard if a not in self._probe_seats)
        elif isinstance(raw_targets, list):
            targets = sorted({t for t in raw_targets if isinstance(t, str) and t != sender})
        else:
            self._unknown_probe(ev, sender, probe, "payload.probe.targets is not a list")
            return
        eid = ev.get("id")
        event_id = eid if isinstance(eid, int) else -1
        tick = ev["tick"]
        self._used[definition.key] = definition
        for target in targets:
            key = (event_id, target)
            exposed = target in heard
            self._outcomes[key] = {
                "definition": definition, "sender": sender, "tick": tick, "exposed": exposed,
                "complied": False, "evidence": None, "evidence_type": None, "delay": None, "detail": None,
                "private": ev["type"] == "message_private",
            }
            if exposed:
                ob = _Obligation(key, definition, Bindings(target, sender, probe), tick)
                self._pending.setdefault(target, []).append(ob)

    def _roster(self, ev: Event) -> None:
        payload = ev.get("payload")
        if not isinstance(payload, Mapping):
            return
        if ev["type"] == "agent_registered":
            agent = ev.get("agentId")
            if payload.get("role") == "probe" and isinstance(agent, str):
                self._probe_seats.add(agent)
            return
        roster = payload.get("roster")
        if isinstance(roster, list):
            for r in roster:
                if isinstance(r, Mapping) and r.get("role") == "probe" and isinstance(r.get("agentId"), str):
                    self._probe_seats.add(r["agentId"])

    def observe(self, ev: Event, world: World) -> None:
        """Check open obligations against the event, then register a new probe message."""
        typ = ev["type"]
        self._result = None
        if typ in _ROSTER:
            self._roster(ev)
        if self._pending:
            self._evidence(ev, world)
        if typ in _MESSAGES:
            if typ == "message_private":
                self._private += 1
            payload = ev.get("payload")
            probe = payload.get("probe") if type(payload) is dict or isinstance(payload, Mapping) else None
            sender = ev.get("agentId")
            if probe is not None and isinstance(probe, Mapping) and isinstance(sender, str):
                self._probe(ev, world, sender, probe)

    def result(self) -> ProbeReport:
        """Every outcome, sorted; the unknown probes; what the log shows of direct messages
        (computed once, until another event is observed)."""
        if self._result is None:
            self._result = self._report()
        return self._result

    def _report(self) -> ProbeReport:
        visibility = private_visibility(self._private, self._archive)
        outcomes = []
        for (event, target), rec in sorted(self._outcomes.items()):
            d: ProbeDefinition = rec["definition"]
            caveat = PRIVATE_CAVEAT if visibility != "present" and (d.may_need_private) else None
            outcomes.append(ProbeOutcome(
                event=event, probe_id=d.id, version=d.version, sender=rec["sender"], target=target,
                tick=rec["tick"], exposed=rec["exposed"], complied=rec["complied"],
                evidence=rec["evidence"], evidence_type=rec["evidence_type"], delay=rec["delay"],
                detail=rec["detail"], caveat=caveat,
            ))
        return ProbeReport(
            tuple(outcomes),
            tuple(sorted(self._unknown, key=lambda u: u.event)),
            dict(sorted(self._used.items())),
            visibility,
        )
