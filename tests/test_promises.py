"""Promise verification and betrayal on tiny hand-built matches (one rule per scenario)."""

from __future__ import annotations

import doctest
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from daishi_forensics.profile import promises as promises_module
from daishi_forensics.report.passes import analyze
from daishi_forensics.profile.commitments import Commitment, Extracted, HeuristicExtractor
from daishi_forensics.profile.promises import PromisePass, Promises, keeping_rate
from daishi_forensics.read.boundary import read_match
from daishi_forensics.replay import replay
from daishi_forensics.simulate import simulate_match, write_match as write_simulated
from daishi_forensics.read.sources import open_match

from .matchkit import archive, ev, trade

AGENTS = ["a_1", "a_2", "a_3"]


def spawns(region_of_3: str = "r_0_0") -> list[dict[str, Any]]:
    return [
        ev(1, 0, "agent_spawned", "a_1", region="r_0_0"),
        ev(2, 0, "agent_spawned", "a_2", region="r_0_0"),
        ev(3, 0, "agent_spawned", "a_3", region=region_of_3),
    ]


def dm(event_id: int, tick: int, sender: str, to: str, text: str) -> dict[str, Any]:
    return ev(event_id, tick, "message_private", sender, to=to, text=text)


def verify(events: list[dict[str, Any]], *, ended: int = 100, pass_: PromisePass | None = None,
           names: dict[str, str] | None = None) -> Promises:
    arch = archive(AGENTS, ended=ended)
    if names:
        for row in arch["agents"]:
            row["name"] = names.get(row["agentId"], row["agentId"])
    p = pass_ or PromisePass.from_archive(arch)
    replay(events, arch, [p])
    return p.result()


def only(result: Promises) -> tuple[str, str, tuple[int, ...]]:
    assert len(result.commitments) == 1, result.commitments
    c = result.commitments[0]
    return c.status, c.reason, c.evidence


def test_doctests() -> None:
    assert doctest.testmod(promises_module).failed == 0


# -- give ----------------------------------------------------------------------------------------


def test_give_kept_by_delivery() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'll give you 3 wood"),
                *trade(5, 5, "t1", "a_1", "a_2", {"wood": 4}, {})])
    assert only(r) == ("kept", "delivered", (5,))
    c = r.commitments[0]
    assert (c.message_id, c.speaker, c.addressees, c.addressed_by, c.window_end) == (4, "a_1", ("a_2",), "private", 21)


def test_give_kept_by_a_standing_offer() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'll give you 3 wood"),
                ev(5, 3, "trade_offered", "a_1", tradeId="t1", to="a_2", give={"wood": 3}, receive={})])
    assert only(r) == ("kept", "offered", (5,))


def test_give_too_little_or_withdrawn_is_broken() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'll give you 3 wood"),
                *trade(5, 2, "t1", "a_1", "a_2", {"wood": 2}, {}),
                ev(7, 3, "trade_offered", "a_1", tradeId="t2", to="a_2", give={"wood": 3}, receive={}),
                ev(8, 4, "trade_cancelled", "a_1", tradeId="t2")])
    assert only(r) == ("broken", "not_given", (8,))


def test_give_excused() -> None:
    died = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'll give you 3 wood"),
                   ev(5, 6, "agent_died", "a_1", cause="starvation")])
    assert only(died) == ("unverifiable", "speaker_died", ())
    conditional = verify([*spawns(), dm(4, 1, "a_1", "a_2", "If you help me, I'll give you 3 wood")])
    assert only(conditional) == ("unverifiable", "conditional", ())
    late = verify([*spawns(), dm(4, 95, "a_1", "a_2", "I'll give you 3 wood")])
    assert only(late) == ("unverifiable", "window_cut_by_match_end", ())
    # the window of a message at tick 79 ends at tick 99, the last match round: not cut
    assert only(verify([*spawns(), dm(4, 79, "a_1", "a_2", "I'll give you 3 wood")]))[:2] == ("broken", "not_given")


# -- trade ---------------------------------------------------------------------------------------


def test_trade_kept_and_not_taken_up() -> None:
    text = "I'll give you 3 wood for 2 ore"
    kept = verify([*spawns(), dm(4, 1, "a_1", "a_2", text), *trade(5, 4, "t1", "a_2", "a_1", {"ore": 2}, {"wood": 3})])
    assert only(kept) == ("kept", "delivered", (5,))  # a_1 is the acceptor here: it gave `receive`
    assert only(verify([*spawns(), dm(4, 1, "a_1", "a_2", text)])) == ("unverifiable", "not_taken_up", ())


def test_trade_declined_or_withdrawn_is_broken() -> None:
    text = "I'll give you 3 wood for 2 ore"
    declined = verify([*spawns(), dm(4, 1, "a_1", "a_2", text),
                       ev(5, 2, "trade_offered", "a_2", tradeId="t1", to="a_1", give={"ore": 2}, receive={"wood": 3})])
    assert only(declined) == ("broken", "declined_own_terms", (5,))
    # an offer on other terms (a_2 asks 4 wood) does not bind a_1
    other = verify([*spawns(), dm(4, 1, "a_1", "a_2", text),
                    ev(5, 2, "trade_offered", "a_2", tradeId="t1", to="a_1", give={"ore": 2}, receive={"wood": 4})])
    assert only(other) == ("unverifiable", "not_taken_up", ())
    withdrew = verify([*spawns(), dm(4, 1, "a_1", "a_2", text),
                       ev(5, 2, "trade_offered", "a_1", tradeId="t1", to="a_2", give={"wood": 3}, receive={"ore": 2}),
                       ev(6, 3, "trade_cancelled", "a_1", tradeId="t1")])
    assert only(withdrew) == ("broken", "withdrew", (6,))


def test_restated_terms_supersede() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "3 wood for 2 ore"), dm(5, 2, "a_1", "a_2", "ok, 4 wood for 2 ore"),
                *trade(6, 3, "t1", "a_1", "a_2", {"wood": 4}, {"ore": 2})])
    assert [(c.message_id, c.status, c.reason, c.evidence) for c in r.commitments] == [
        (4, "unverifiable", "superseded", (5,)), (5, "kept", "delivered", (6,))]


# -- accept --------------------------------------------------------------------------------------


def test_accept() -> None:
    offer = ev(4, 1, "trade_offered", "a_2", tradeId="t1", to="a_1", give={"ore": 2}, receive={"wood": 3})
    kept = verify([*spawns(), offer, dm(5, 2, "a_1", "a_2", "deal!"), *trade(6, 3, "t1", "a_2", "a_1",
                                                                          {"ore": 2}, {"wood": 3})])
    assert only(kept) == ("kept", "traded", (6,))
    assert only(verify([*spawns(), offer, dm(5, 2, "a_1", "a_2", "deal!")])) == ("broken", "did_not_accept", (4,))
    assert only(verify([*spawns(), dm(5, 2, "a_1", "a_2", "deal!")])) == ("unverifiable", "nothing_to_accept", ())
    # an offer older than the window before the message is not what "deal" answered
    stale = ev(4, 1, "trade_offered", "a_2", tradeId="t1", to="a_1", give={"ore": 2}, receive={"wood": 3})
    assert only(verify([*spawns(), stale, dm(5, 30, "a_1", "a_2", "deal")])) == (
        "unverifiable", "nothing_to_accept", ())


# -- no_attack -----------------------------------------------------------------------------------


def test_no_attack() -> None:
    promise = dm(4, 1, "a_1", "a_2", "I won't attack you")
    other = ev(5, 10, "attack", "a_1", target="a_3", region="r_0_0", damage=2, witnessed=True, witnesses=["a_2"])
    assert only(verify([*spawns(), promise, other])) == ("kept", "no_aggression", ())
    hit = ev(6, 50, "raid", "a_1", target="a_2", structureId="s_1", region="r_0_0", stolen={"wood": 1},
             witnessed=False, witnesses=[])
    broken = verify([*spawns(), promise, other, hit])
    assert only(broken) == ("broken", "aggression", (6,))
    assert broken.commitments[0].window_end == 101
    conditional = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I won't attack you if you leave"), hit])
    assert only(conditional) == ("unverifiable", "conditional", (6,))


# -- meet ----------------------------------------------------------------------------------------


def test_meet() -> None:
    moved = verify([*spawns(), dm(4, 1, "a_1", "a_2", "meet me at r_1_1"),
                    ev(5, 3, "move", "a_1", **{"from": "r_0_0"}, to="r_1_0"),
                    ev(6, 4, "move", "a_1", **{"from": "r_1_0"}, to="r_1_1")])
    assert only(moved) == ("kept", "moved_there", (6,))
    assert only(verify([*spawns(), dm(4, 1, "a_1", "a_2", "meet me at r_0_0")])) == ("kept", "already_there", ())
    assert only(verify([*spawns(), dm(4, 1, "a_1", "a_2", "meet me at r_5_5")])) == ("broken", "not_there", ())
    # a new meeting place replaces the old one
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "meet me at r_5_5"), dm(5, 2, "a_1", "a_3", "I'll be at r_0_1"),
                ev(6, 3, "move", "a_1", **{"from": "r_0_0"}, to="r_0_1")])
    assert [(c.status, c.reason) for c in r.commitments] == [("unverifiable", "superseded"), ("kept", "moved_there")]


# -- stay_out, support, targets -----------------------------------------------------------------


def move(event_id: int, tick: int, agent: str, frm: str, to: str) -> dict[str, Any]:
    return ev(event_id, tick, "move", agent, **{"from": frm}, to=to)


def test_stay_out_kept_when_never_entered() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'll stay out of r_1_1"), move(5, 3, "a_1", "r_0_0", "r_0_1")])
    assert only(r) == ("kept", "stayed_out", ())
    c = r.commitments[0]
    assert (c.kind, c.commitment.region, c.window_end) == ("stay_out", "r_1_1", 101)


def test_stay_out_broken_by_entering() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I won't enter r_1_1"), move(5, 3, "a_1", "r_0_0", "r_1_0"),
                move(6, 40, "a_1", "r_1_0", "r_1_1")])
    assert only(r) == ("broken", "entered", (6,))
    # entering after the window (message tick 1 + 100) is not this promise's business
    late = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I won't enter r_1_1"), move(5, 102, "a_1", "r_0_0", "r_1_1")],
                  ended=200)
    assert only(late) == ("kept", "stayed_out", ())


def test_stay_out_inside_must_leave() -> None:
    stayed = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'm pulling out of r_0_0")], ended=200)
    assert only(stayed) == ("broken", "stayed_in", ())
    left = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'm pulling out of r_0_0"), move(5, 2, "a_1", "r_0_0", "r_0_1")],
                  ended=200)
    assert only(left) == ("kept", "stayed_out", ())
    back = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'm pulling out of r_0_0"), move(5, 2, "a_1", "r_0_0", "r_0_1"),
                   move(6, 9, "a_1", "r_0_1", "r_0_0")], ended=200)
    assert only(back) == ("broken", "entered", (6,))
    died = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'm pulling out of r_0_0"),
                   ev(5, 3, "agent_died", "a_1", cause="starvation")], ended=200)
    assert only(died) == ("unverifiable", "speaker_died", ())


def test_support_is_not_checkable() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'll support you into r_1_1")])
    assert only(r) == ("unverifiable", "not_checkable", ())
    assert r.seat("a_1").by_kind["support"] == {"made": 1, "kept": 0, "broken": 0, "unverifiable": 1}
    assert r.seat("a_1").keeping_rate is None


def test_no_attack_on_a_named_third_party() -> None:
    names = {"a_3": "Brask"}
    hit = ev(5, 9, "attack", "a_1", target="a_3", region="r_0_0", damage=2, witnessed=True, witnesses=["a_2"])
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I promise I won't attack Brask"), hit], names=names)
    assert only(r) == ("broken", "aggression", (5,))
    assert r.commitments[0].commitment.target == "a_3"
    assert [(b.actor, b.target, b.commitment_messages) for b in r.betrayals] == [("a_1", "a_3", (4,))]


def test_an_extractor_whose_commitments_have_no_target() -> None:
    @dataclass(frozen=True)
    class Bare:  # the fields an extractor of the first interface gave
        kind: str
        give: tuple = ()
        receive: tuple = ()
        region: str | None = None
        conditional: bool = False
        start: int = 0
        end: int = 0

        def to_json(self) -> dict[str, Any]:
            return {"kind": self.kind}

    class Older:
        name, version, max_chars = "older", "1", 100

        def extract(self, text: str) -> Extracted:
            return Extracted((Bare("no_attack"),), False, tuple(text.split()))

    hit = ev(5, 9, "attack", "a_1", target="a_2", region="r_0_0", damage=2, witnessed=True, witnesses=[])
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "peace"), hit], pass_=PromisePass(Older()))
    assert only(r) == ("broken", "aggression", (5,))


def test_vocabulary_from_the_archive() -> None:
    arch = archive(AGENTS, ended=100)
    arch["config"]["item_values"] = {"wood": 2, "amber": 9}
    arch["config"]["map"]["regions"] = {"r_2_2": "north_gate"}
    arch["agents"][0]["inventory"] = {"saffron": 3}
    p = PromisePass.from_archive(arch)
    got = [c.terms() for c in p.extractor.extract("I'll give you 2 amber and 1 saffron. Meet me at the North Gate").commitments]
    assert got == [("give", {"amber": 2, "saffron": 1}, {}, None), ("meet", {}, {}, "r_2_2")]
    evs = [*spawns(), dm(4, 1, "a_1", "a_2", "see you at north gate"), move(5, 2, "a_1", "r_0_0", "r_1_1"),
           move(6, 3, "a_1", "r_1_1", "r_2_2")]
    replay(evs, arch, [p])
    assert only(p.result()) == ("kept", "moved_there", (6,))


def test_items_named_by_the_log_are_learned() -> None:
    evs = [*spawns(), *trade(4, 1, "t1", "a_2", "a_3", {"obsidian": 1}, {"wood": 1}),
           dm(6, 2, "a_1", "a_2", "I'll give you 2 obsidian")]
    r = verify(evs)
    assert [(c.kind, c.commitment.give) for c in r.commitments] == [("give", (("obsidian", 2),))]
    # an extractor given by the caller is used as it is
    plain = verify(evs, pass_=PromisePass(HeuristicExtractor()))
    assert plain.commitments == ()


# -- who a commitment is addressed to ----------------------------------------------------------


def test_addressees() -> None:
    names = {"a_3": "Wren"}
    evs = [*spawns(region_of_3="r_4_4"),
           ev(4, 1, "message", "a_1", channel="broadcast", text="Wren, I'll give you 3 wood"),
           ev(5, 1, "message", "a_1", channel="broadcast", text="a_2: I won't attack you"),
           ev(6, 1, "message", "a_1", channel="local", text="I'll give you 1 food"),
           ev(7, 1, "agent_dormant", "a_2", reason="sleep"),
           ev(8, 1, "message", "a_1", channel="broadcast", text="truce"),
           ev(9, 1, "message", "a_3", channel="local", text="I'll give you 2 ore"),
           ev(10, 1, "message", "a_3", channel="local", text="meet me at r_4_5")]
    r = verify(evs, names=names)
    got = [(c.message_id, c.addressees, c.addressed_by) for c in r.commitments]
    assert got == [
        (4, ("a_3",), "named"),
        (5, ("a_2",), "named"),
        (6, ("a_2",), "heard"),  # local: only a_2 stands in r_0_0
        (8, ("a_3",), "heard"),  # broadcast: a_2 is dormant, a_3 hears it
        (9, (), "none"),
        (10, (), "none"),
    ]
    assert (r.commitments[4].status, r.commitments[4].reason) == ("unverifiable", "no_addressee")
    assert (r.commitments[5].status, r.commitments[5].reason) == ("broken", "not_there")  # a meet needs nobody


# -- betrayal ------------------------------------------------------------------------------------


def test_betrayal() -> None:
    evs = [*spawns(),
           *trade(4, 5, "t1", "a_1", "a_2", {"wood": 1}, {"ore": 1}),
           ev(6, 25, "attack", "a_1", target="a_2", region="r_0_0", damage=1, witnessed=True, witnesses=["a_3"]),
           ev(7, 26, "attack", "a_1", target="a_2", region="r_0_0", damage=1, witnessed=True, witnesses=["a_3"]),
           dm(8, 30, "a_3", "a_2", "I'll give you 5 food"),
           ev(9, 31, "theft", "a_3", target="a_2", region="r_0_0", stolen={"food": 1}, witnessed=False,
              witnesses=[])]
    r = verify(evs)
    assert [b.to_json() for b in r.betrayals] == [
        {"eventId": 6, "tick": 25, "type": "attack", "actor": "a_1", "target": "a_2", "duringCommitment": False,
         "commitmentMessages": [], "afterTrade": True, "tradeEventId": 4, "tradeTick": 5},
        {"eventId": 9, "tick": 31, "type": "theft", "actor": "a_3", "target": "a_2", "duringCommitment": True,
         "commitmentMessages": [8], "afterTrade": False, "tradeEventId": None, "tradeTick": None},
    ]  # event 7 is 21 ticks after the trade: not a betrayal
    assert (r.seat("a_1").betrayals, r.seat("a_1").betrayals_after_trade, r.seat("a_2").betrayed) == (1, 1, 2)
    assert r.seat("a_3").betrayals_during_commitment == 1


# -- per seat ------------------------------------------------------------------------------------


def test_seat_counts_and_rate() -> None:
    evs = [*spawns(),
           dm(4, 1, "a_1", "a_2", "I'll give you 3 wood. I won't attack you. Meet me at r_9_9"),
           *trade(5, 2, "t1", "a_1", "a_2", {"wood": 3}, {}),
           dm(7, 3, "a_1", "a_3", "3 stone for 1 tool")]
    r = verify(evs)
    s = r.seat("a_1")
    assert (s.made, s.kept, s.broken, s.unverifiable, s.keeping_rate) == (4, 2, 1, 1, 2 / 3)
    assert s.by_kind["meet"] == {"made": 1, "kept": 0, "broken": 1, "unverifiable": 0}
    assert s.by_kind["accept"] == {"made": 0, "kept": 0, "broken": 0, "unverifiable": 0}
    assert [(c.message_id, c.index, c.kind) for c in r.of("a_1")] == [
        (4, 0, "give"), (4, 1, "no_attack"), (4, 2, "meet"), (7, 0, "trade")]
    assert r.seat("a_9").made == 0 and r.seat("a_9").keeping_rate is None
    assert keeping_rate(0, 3) == 0.0


def test_broken_by_speaker_reads_the_log_as_its_records_do() -> None:
    evs = [*spawns(),
           dm(4, 1, "a_1", "a_2", "I'll give you 3 wood. Meet me at r_9_9"),
           dm(5, 1, "a_2", "a_1", "meet me at r_8_8"),
           *trade(6, 2, "t1", "a_1", "a_2", {"wood": 3}, {}),
           dm(8, 3, "a_1", "a_3", "I'll give you 2 stone")]
    log = verify(evs).commitments
    assert [(c.message_id, c.speaker, c.status) for c in log] == [
        (4, "a_1", "kept"), (4, "a_1", "broken"), (5, "a_2", "broken"), (8, "a_1", "broken")]
    assert log.broken_by_speaker() == {"a_1": (4, 8), "a_2": (5,)}
    assert verify(evs[:4]).commitments.broken_by_speaker() == {"a_1": (4, 4)}  # one id per commitment
    # the result's own readers give the same from the log and from a plain tuple of its records
    result = verify(evs)
    as_tuple = replace(result, commitments=tuple(result.commitments))
    for promises in (result, as_tuple):
        assert promises.broken_by_speaker() == {"a_1": (4, 8), "a_2": (5,)}
        assert list(promises.statuses()) == [("a_1", "kept"), ("a_1", "broken"), ("a_2", "broken"),
                                             ("a_1", "broken")]


def test_a_better_extractor_plugs_in() -> None:
    class Everything:
        name = "always-peace"
        version = "9"
        max_chars = 10

        def extract(self, text: str) -> Extracted:
            return Extracted((Commitment("no_attack"),), len(text) > self.max_chars)

    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "hello there, friend"), dm(5, 2, "a_1", "a_2", "hi")],
               pass_=PromisePass(Everything()))
    assert r.extractor == {"name": "always-peace", "version": "9", "maxChars": 10}
    assert (r.messages_read, r.truncated_messages, len(r.commitments)) == (2, 1, 2)
    assert r.commitments[0].reason == "superseded"


def test_hostile_message() -> None:
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "I'll give you 3 wood " + "x" * 5_000_000)])
    assert (r.messages_read, r.truncated_messages) == (1, 1)
    assert only(r)[:2] == ("broken", "not_given")
    assert "text" not in r.commitments[0].to_json()


def test_hostile_roster_name() -> None:
    """A megabyte roster name is never matched (it would make matching quadratic)."""
    long_name = "wren " * 200_000
    r = verify([*spawns(), ev(4, 1, "message", "a_1", channel="broadcast", text="wren wren: I won't attack you")],
               names={"a_3": long_name, "a_2": "Big Wren"})
    assert [(c.addressees, c.addressed_by) for c in r.commitments] == [(("a_2", "a_3"), "heard")]
    named = verify([*spawns(), ev(4, 1, "message", "a_1", channel="broadcast", text="big wren: I won't attack you")],
                   names={"a_3": long_name, "a_2": "Big Wren"})
    assert [(c.addressees, c.addressed_by) for c in named.commitments] == [(("a_2",), "named")]


def test_simulated_match_scale(tmp_path: Path) -> None:
    match = simulate_match("mixed", 5, ticks=200)
    path = write_simulated(match, tmp_path, form="stream")
    analysis = analyze(read_match(open_match(str(path))))
    r = analysis.result("promises")
    assert r.messages_read > 100 and r.commitments
    statuses = {c.status for c in r.commitments}
    assert statuses <= {"kept", "broken", "unverifiable"}
    for c in r.commitments:  # every verdict names its evidence or says why there is none
        assert c.reason
        if c.status == "broken" and c.reason in ("aggression", "declined_own_terms", "did_not_accept", "withdrew"):
            assert c.evidence
    ids = [(c.message_id, c.index) for c in r.commitments]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


class _Counting:
    """The heuristic extractor, counting the texts it is given."""

    name = "counting"
    version = "1"
    max_chars = 2000

    def __init__(self) -> None:
        from daishi_forensics.profile.commitments import HeuristicExtractor

        self.inner = HeuristicExtractor()
        self.calls = 0

    def extract(self, text: str) -> Extracted:
        self.calls += 1
        return self.inner.extract(text)


def test_identical_texts_are_read_once() -> None:
    counting = _Counting()
    evs = [*spawns()]
    for i in range(6):
        evs.append(dm(10 + i, 1 + i, "a_1", "a_2", "I won't attack you"))
        evs.append(dm(20 + i, 1 + i, "a_2", "a_1", "hello"))
    r = verify(evs, pass_=PromisePass(counting))
    assert counting.calls == 2
    plain = verify(evs)
    assert [c.to_json() for c in r.commitments] == [c.to_json() for c in plain.commitments]
    assert (r.messages_read, r.truncated_messages) == (plain.messages_read, plain.truncated_messages) == (12, 0)


def test_the_extraction_cache_is_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(promises_module, "CACHE_ENTRIES", 8)
    counting = _Counting()
    texts = [f"I'll give you {n} wood" for n in range(1, 21)]
    evs = [*spawns()] + [dm(10 + i, 1, "a_1", "a_2", t) for i, t in enumerate(texts + texts)]
    p = PromisePass(counting)
    r = verify(evs, pass_=p)
    assert len(p._cache.young) + len(p._cache._old) <= 8
    assert counting.calls == 40  # 20 distinct texts never fit: each read again
    assert [c.commitment.give for c in r.commitments] == [(("wood", n),) for n in range(1, 21)] * 2


def test_a_long_text_is_keyed_by_what_the_extractor_reads() -> None:
    counting = _Counting()
    head = "I'll give you 3 wood. " + "x" * 1978
    assert len(head) == 2000
    evs = [*spawns(), dm(4, 1, "a_1", "a_2", head), dm(5, 2, "a_1", "a_2", head + "y"),
           dm(6, 3, "a_1", "a_2", head + "z")]
    r = verify(evs, pass_=PromisePass(counting))
    assert counting.calls == 2  # the 2000-character text, then the two longer ones (same first 2000)
    assert (r.messages_read, r.truncated_messages, len(r.commitments)) == (3, 2, 3)


# -- memory: what the pass keeps ------------------------------------------------------------------


def test_commitments_and_betrayals_read_like_tuples() -> None:
    evs = [*spawns(),
           dm(4, 1, "a_1", "a_2", "I'll give you 3 wood. I won't attack you. Meet me at r_9_9"),
           *trade(5, 2, "t1", "a_1", "a_2", {"wood": 3}, {}),
           dm(7, 3, "a_1", "a_3", "3 stone for 1 tool"),
           ev(8, 4, "attack", "a_1", target="a_2", region="r_0_0", damage=1, witnessed=False, witnesses=[])]
    r = verify(evs)
    records = tuple(r.commitments)
    assert len(records) == 4 and r.commitments == records and records == tuple(r.commitments)
    assert r.commitments[-1] == records[-1] and r.commitments[1:3] == records[1:3]
    assert [c.window_end - c.tick for c in records] == [20, 100, 20, 20]
    assert r.of("a_1") == records and r.of("a_2") == ()
    betrayals = tuple(r.betrayals)
    assert len(betrayals) == 1 and r.betrayals == betrayals and r.betrayals[0].commitment_messages == (4,)
    assert (betrayals[0].trade_event_id, betrayals[0].trade_tick) == (5, 2)


def test_a_trade_logged_again_later_counts_once_whatever_its_id() -> None:
    for trade_id in ("t_716", 716, "t_0716", "deal-x"):
        evs = [*spawns(),
               *trade(4, 5, trade_id, "a_1", "a_2", {"wood": 1}, {"ore": 1}),  # type: ignore[arg-type]
               ev(6, 20, "trade_completed", "a_1", tradeId=trade_id, **{"from": "a_1"}, to="a_2",
                  give={"wood": 1}, receive={"ore": 1}),  # the same trade logged again 15 ticks on
               ev(7, 30, "attack", "a_1", target="a_2", region="r_0_0", damage=1, witnessed=False, witnesses=[])]
        assert verify(evs).betrayals == (), trade_id  # 25 ticks after the trade: no betrayal


def test_equal_commitments_of_other_types_are_kept_as_they_are() -> None:
    class Loose:
        name = "loose"
        version = "1"
        max_chars = 100

        def extract(self, text: str) -> Extracted:
            flag: Any = 1 if text == "one" else True  # equal values (1 == True), other types
            return Extracted((Commitment("no_attack", conditional=flag),), False)

    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "true"), dm(5, 2, "a_1", "a_3", "one"),
                dm(6, 3, "a_1", "a_3", "true")], pass_=PromisePass(Loose()))
    assert [c.commitment.conditional for c in r.commitments] == [True, 1, True]
    assert [type(c.commitment.conditional) for c in r.commitments] == [bool, int, bool]


def test_the_extraction_cache_is_let_go_at_the_match_end() -> None:
    p = PromisePass.from_archive(archive(AGENTS, ended=10))
    replay([*spawns(), dm(4, 1, "a_1", "a_2", "I'll give you 3 wood")], archive(AGENTS, ended=10), [p])
    assert len(p._cache.young) + len(p._cache._old) == 0
    r = p.result()
    assert [c.kind for c in r.commitments] == ["give"]


def test_the_verdict_store_keeps_each_plain_commitment_once_and_others_apart() -> None:
    """The pass's store, by hand: codes into tables, rows sorted by message, a commitment that is
    equal but not plain (``1`` for ``True``) never shares a code, even after the look-up is let go."""
    from daishi_forensics.profile._promise_store import BetrayalStore, VerdictStore

    store = VerdictStore()
    give = Commitment("give", give=(("wood", 3),))
    loose = Commitment("no_attack", conditional=1)  # type: ignore[arg-type]
    store.add(9, 0, 4, "a_1", frozenset({"a_3", "a_2"}), "heard", give, "kept", "delivered", (12,))
    store.add(7, 1, 2, "a_2", frozenset({"a_1"}), "private", loose, "kept", "no_aggression", ())
    store.forget()
    store.add(7, 0, 2, "a_2", frozenset({"a_1"}), "private", Commitment("no_attack", conditional=True),
              "broken", "aggression", (15, 16))
    store.add(9, 1, 4, "a_1", frozenset({"a_2", "a_3"}), "heard", Commitment("give", give=(("wood", 3),)),
              "kept", "delivered", (13,))
    assert len(store) == 4 and list(store.commitment) == [0, 1, 2, 0] and len(store.commitments) == 3
    assert list(store.audience) == [0, 1, 1, 0] and store.addressees == [("a_2", "a_3"), ("a_1",)]
    assert list(store.by_message()) == [2, 1, 0, 3]
    assert store.fields(2) == (7, 0, 2, "a_2", ("a_1",), "private", Commitment("no_attack", conditional=True),
                               "broken", "aggression", (15, 16))
    assert type(store.fields(1)[6].conditional) is int and type(store.fields(2)[6].conditional) is bool
    assert list(store.rows_of("a_1", store.by_message())) == [0, 3] and list(store.rows_of("a_9", [0])) == []
    assert list(store.kinds_and_statuses([2, 0])) == [("a_2", "no_attack", "broken"), ("a_1", "give", "kept")]

    betrayals = BetrayalStore()
    betrayals.add(30, 8, "raid", "a_1", "a_2", [7, 9], (20, 6))
    betrayals.add(31, 9, "attack", "a_1", "a_3", [], None)
    assert [betrayals.fields(i) for i in range(len(betrayals))] == [
        (30, 8, "raid", "a_1", "a_2", (7, 9), 20, 6), (31, 9, "attack", "a_1", "a_3", (), None, None)]


def test_a_message_that_once_stopped_the_extractor_is_read_as_nothing() -> None:
    """A comma closing a question ("deal,?") once raised inside the extractor and stopped the pass: every
    message is read, none of these commits to anything, and the promise after them is still found."""
    r = verify([*spawns(), dm(4, 1, "a_1", "a_2", "deal,?"), dm(5, 1, "a_2", "a_1", "ok, ?"),
                dm(6, 2, "a_1", "a_2", "I will give you 3 wood,?"), dm(7, 2, "a_1", "a_2", "I'll give you 3 wood")])
    assert (r.messages_read, r.truncated_messages) == (4, 0)
    assert [(c.speaker, c.message_id, c.commitment.kind) for c in r.commitments] == [("a_1", 7, "give")]
