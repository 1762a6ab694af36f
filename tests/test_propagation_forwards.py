"""Forwarded copies people recognise, built by hand, with the exact edges, reasons and mutations.

Every world here: agents standing in ``r_0_0`` unless said otherwise (a broadcast reaches every
other one; ``a_9`` only listens), one message per line ``(event, tick, sender, text[, channel])``.
The root text is ``B`` (19 words, 18 distinct).  In such a small world the pair's own family is
all there is, so every word and word pair of what a copy keeps carries ``log2(0 + 1 + 64) =
6.0224`` bits (rule 3: the counts of the messages written independently of the pair are empty).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

import daishi_forensics.injection.propagation as P
from daishi_forensics.injection.exposure import ExposurePass, MessageLog
from daishi_forensics.injection.propagation import echo_edges, propagation, tree_text
from daishi_forensics.replay import replay

B = "the council froze every trade at the north market until wren is paid five ore, tell everyone you meet"
WORDS = B.split()


def at(eid: int, tick: int, type_: str, agent: str | None = None, **payload: Any) -> dict[str, Any]:
    return {"id": eid, "tick": tick, "type": type_, "agentId": agent, "payload": payload}


def world(*msgs: tuple[Any, ...], regions: dict[str, str] | None = None) -> MessageLog:
    regions = regions or {}
    agents = sorted({m[2] for m in msgs} | set(regions) | {"a_9"})
    evs = [at(k + 1, 0, "agent_spawned", a, region=regions.get(a, "r_0_0")) for k, a in enumerate(agents)]
    evs += [at(m[0], m[1], "message", m[2], text=m[3], channel=m[4] if len(m) > 4 else "broadcast") for m in msgs]
    p = ExposurePass({})
    replay(evs, {}, [p])
    log = p.result().messages
    assert isinstance(log, MessageLog)
    return log


def edges(*msgs: tuple[Any, ...], regions: dict[str, str] | None = None) -> tuple[list[tuple[Any, ...]], int]:
    got, stock = echo_edges(world(*msgs, regions=regions))
    return [(e.parent, e.child, e.reason, e.mutations, e.tied_with) for e in got], stock


CASES = {
    "capitals": (B.upper(), ("capitals",)),
    "title case": (" ".join(w.capitalize() for w in WORDS), ("title case",)),
    "stacked prefixes": ("fwd: RT @kai: pass it on: " + B,
                         ("prefix '@kai'", "prefix 'fwd'", "prefix 'pass it on'", "prefix 'rt'")),
    "quote": ('"' + B + '" - someone said', ("quote marks", "remark 'someone said'")),
    "cut at start": (" ".join(WORDS[3:]), ("cut at the start (3 words)",)),
    "cut at end": (" ".join(WORDS[:-6]) + "...", ("cut at the end (6 words)",)),  # the cut explains its ending
    "synonym": (B.replace("froze", "halted"), ("word swapped at word 3",)),
    "abbreviation": (B.replace("market", "mkt"), ("abbreviation at word 9",)),
    "typo": (B.replace("council", "councel"), ("typo at word 2",)),
    "trailing remark": (B + " lol is this true", ("words after 'lol is this true'",)),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_every_mutation_kind_is_a_copy(kind: str) -> None:
    text, mutations = CASES[kind]
    assert edges((10, 1, "a_1", B), (11, 3, "a_2", text)) == (
        [(10, 11, "only exposed candidate", mutations, ())], 0)


def test_confidence_of_a_cut_copy() -> None:
    """Cut at the start, 16 words kept in a row: the first alone and 15 word pairs, 16 units of
    6.0224 bits = 96.36 bits against the 28 asked (the text does not spread: one prompted copy
    among three agents is no surprise); the link's confidence 1 - 0.5 * 2^-((96.36 - 28) / 8) =
    0.9987, the only candidate's 1."""
    got, _ = echo_edges(world((10, 1, "a_1", B), (11, 3, "a_2", " ".join(WORDS[3:]))))
    bits = 16 * math.log2(65)
    assert round(bits, 2) == 96.36
    assert got[0].confidence == round(1 - 0.5 * 2 ** (-(bits - P.MIN_SHARED_BITS) / 8), 3) == 0.999


def test_parent_inherits_the_typo() -> None:
    """a_4 heard the root (10), a copy with a tag (11) and a copy with a typo (12), first to last;
    it passes on the typo: its parent is 12, the last heard, and the reason says why."""
    typo = B.replace("council", "councel")
    got, stock = edges((10, 1, "a_1", B), (11, 2, "a_2", "fwd: " + B), (12, 3, "a_3", typo),
                       (13, 5, "a_4", typo + "!!"))
    assert stock == 0
    assert got == [
        (10, 11, "only exposed candidate", ("prefix 'fwd'",), ()),
        (10, 12, "11 has prefix 'fwd', the child does not", ("typo at word 2",), ()),
        (12, 13, "inherits typo at word 2 of 12", ("ending '!!'",), ()),
    ]


def test_parent_inherits_the_prefix() -> None:
    got, _ = edges((10, 1, "a_1", B), (11, 2, "a_2", "fwd: " + B), (12, 3, "a_3", B + " lol"),
                   (13, 5, "a_4", "fwd: " + B + "!!"))
    assert got[2] == (11, 13, "inherits prefix 'fwd' of 11", ("ending '!!'",), ())


def test_a_tie_is_reported_as_a_tie() -> None:
    """a_3 heard the root and an exact copy of it: nothing tells them apart.  The one heard first
    is chosen, the other listed; the choice's confidence is 1/2."""
    msgs = world((10, 1, "a_1", B), (11, 2, "a_2", B), (12, 4, "a_3", B))
    got, _ = echo_edges(msgs)
    assert [(e.parent, e.child, e.tied_with, e.reason, e.confidence) for e in got] == [
        (10, 11, (), "only exposed candidate", 1.0),
        (10, 12, (11,), "tie with 11: heard first", 0.5),
    ]
    doc = propagation(msgs).to_json()
    assert doc["edges"][1]["tiedWith"] == [11]
    assert "[confidence 0.50: tie with 11: heard first]" in tree_text(propagation(msgs), msgs)


REGIONS = {"a_1": "r_0_0", "a_2": "r_5_5", "a_3": "r_5_5", "a_9": "r_9_9"}


def test_an_unheard_source_is_never_chosen() -> None:
    """a_1 says B alone in r_0_0; a_2 says it (with "!") in r_5_5, never having heard it; a_3, beside
    a_2, passes a_2's on with a forward tag.  The earlier, identical root is not its parent: a_3
    never heard it; and a_2's message echoes nothing."""
    got, stock = edges((10, 1, "a_1", B, "local"), (11, 2, "a_2", B + "!", "local"),
                       (12, 4, "a_3", "fwd: " + B + "!", "local"), regions=REGIONS)
    assert (got, stock) == ([(11, 12, "only exposed candidate", ("prefix 'fwd'",), ())], 0)


def test_said_independently_twice_then_repeated_is_a_stock_phrase() -> None:
    """The same world without the forward tag: two agents said B without having heard it, and the
    one prompted repeat is no surprise for three agents (rule 4): no edge, one stock echo."""
    assert edges((10, 1, "a_1", B, "local"), (11, 2, "a_2", B + "!", "local"), (12, 4, "a_3", B + "!", "local"),
                 regions=REGIONS) == ([], 1)


def test_a_copy_long_after_first_hearing_is_no_echo() -> None:
    assert edges((10, 1, "a_1", B), (11, 25, "a_2", "fwd: " + B)) == ([], 0)


def test_specifics_swapped_are_another_message() -> None:
    """Goods, numbers and regions swapped: the same frame, another message (rule 2)."""
    other = B.replace("five ore", "six wood").replace("north market", "r_4_4 market")
    assert edges((10, 1, "a_1", B), (11, 3, "a_2", other)) == ([], 0)


def test_parent_inherits_the_capitals_and_the_punctuation() -> None:
    """a_4 heard the root (10), a copy in capitals (11) and a copy with its comma made a semicolon
    (12), first to last, and passes on the capitals: parent 11, whose capitals it need not make; a_5
    heard all three and passes on the semicolon: parent 12, though heard last."""
    caps = B.upper()
    semi = B.replace(",", ";")
    got, stock = edges((10, 1, "a_1", B), (11, 2, "a_2", caps), (12, 3, "a_3", semi), (13, 5, "a_4", caps + "!!"),
                       (14, 6, "a_5", semi + " lol"))
    assert stock == 0
    assert got == [
        (10, 11, "only exposed candidate", ("capitals",), ()),
        (10, 12, "inherits lower case of 10", ("punctuation ';'",), ()),  # 11 would need recasing too
        (11, 13, "inherits capitals of 11", ("ending '!!'",), ()),
        (12, 14, "inherits punctuation ';' of 12", ("words after 'lol'",), ()),
    ]


def test_another_story_in_the_same_frame_is_no_own_repeat() -> None:
    """a_2 passed on one story (11), then hears another told in the same frame (12: nine of the
    fifteen words of the first, alike but not near whole) and passes that on too (13): a new echo,
    not a repeat of its own; passing the second story on once more (14) is a further copy of what it
    copies, 12, not a repeat of its own either (rule 6: its earlier saying, 13, was passed on)."""
    s1 = "boars were seen at the old mill at dawn, stay away and warn everyone you meet"
    s2 = "wolves were seen on the north road before noon, stay away and warn everyone you meet"
    got, stock = edges((10, 1, "a_1", s1), (11, 3, "a_2", "fwd: " + s1), (12, 5, "a_3", s2),
                       (13, 7, "a_2", "fwd: " + s2), (14, 9, "a_2", s2 + "!!"))
    assert (got, stock) == ([(10, 11, "only exposed candidate", ("prefix 'fwd'",), ()),
                             (12, 13, "only exposed candidate", ("prefix 'fwd'",), ()),
                             (12, 14, "only exposed candidate", ("ending '!!'",), ())], 0)


def test_a_text_of_its_own_said_again_is_a_repeat_and_no_echo() -> None:
    """a_1 says a story of its own (10), a_2 passes it on (11) and a_1, having heard that, says its story
    again (12): its own repeat, no copy of 11 (rule 6: its earlier saying, 10, was not passed on).  a_2
    passing the story on again (13) is a copy once more, of 10 as 11 was: a tie with 12, the same text
    heard later, broken by the place heard, and reported."""
    s1 = "boars were seen at the old mill at dawn, stay away and warn everyone you meet"
    got, stock = edges((10, 1, "a_1", s1), (11, 3, "a_2", "fwd: " + s1), (12, 5, "a_1", s1),
                       (13, 7, "a_2", "fwd: " + s1))
    assert (got, stock) == ([(10, 11, "only exposed candidate", ("prefix 'fwd'",), ()),
                             (10, 13, "tie with 12: heard first", ("prefix 'fwd'",), (12,))], 0)


def test_a_copy_cut_short_behind_its_tags_keeps_their_evidence() -> None:
    """Cut to three words behind two tags: the words kept carry 3 units of 6.0224 bits = 18.07, under
    the 28 asked; the two tags it kept from its parent carry 6.0224 bits each (no message written
    independently of the pair carries them), 30.11 in all: a copy, with its link's confidence from
    those bits.  The same child after a parent without the tags keeps only the 18.07 bits: no copy."""
    child = "psa: heads up: the council froze"
    got, _ = echo_edges(world((10, 1, "a_1", "psa: heads up: " + B), (11, 3, "a_2", child)))
    bits = 5 * math.log2(65)
    assert [(e.parent, e.child, e.mutations) for e in got] == [(10, 11, ("cut at the end (16 words)",))]
    assert got[0].confidence == round(1 - 0.5 * 2 ** (-(bits - P.MIN_SHARED_BITS) / 8), 3) == 0.584
    assert echo_edges(world((10, 1, "a_1", B), (11, 3, "a_2", child)))[0] == ()


def test_the_same_story_told_of_another_seat_is_no_copy() -> None:
    """``B`` with one name swapped: as plain words, one word swapped in 18 kept (a synonym, rule 2
    allows one per six), a copy (Wren is word 11); with the seats' names of the archive as specifics
    (:func:`~daishi_forensics.injection.propagation.specifics_of`), Wren swapped for Odile is a story
    told of another seat, not a copy of this one."""
    child = B.replace("wren", "odile")
    msgs = world((10, 1, "a_1", B), (11, 3, "a_2", child))
    assert [(e.parent, e.child, e.mutations) for e in echo_edges(msgs)[0]] == [(10, 11, ("word swapped at word 11",))]
    archive = {"agents": [{"agentId": "a_1", "name": "Wren"}, {"agentId": "a_2", "name": "Odile"}]}
    assert P.specifics_of(archive) == P.GOODS | {"wren", "odile"}
    assert echo_edges(msgs, goods=P.specifics_of(archive))[0] == ()


def test_a_cut_at_the_start_takes_tags_away_too() -> None:
    """a_2 heard ``B`` behind two tags (10) and ``B`` bare (11), and sends it cut at the start inside the
    first tag ("...on: "): what is left of that tag is the end of 10's second tag, so 10's first tag
    was cut, not dropped, and the child inherits 10's 'pass it on'; from 11 it would have added it."""
    got, _ = edges((10, 1, "a_1", "fwd: pass it on: " + B), (11, 2, "a_3", B), (12, 4, "a_2", "...on: " + B))
    assert got == [(10, 11, "only exposed candidate", ("prefix 'fwd' dropped", "prefix 'pass it on' dropped"), ()),
                   (10, 12, "inherits prefix '...on' of 10", (), ())]


def test_a_cut_shown_after_words_added_is_a_change_of_its_own() -> None:
    """a_2 heard ``B`` (10) and ``B`` with three words after it (11), and sends ``B`` with the first of
    them and an ellipsis: cut from 11 (two words), or 10 with a word added and a cut shown where
    nothing was cut -- a cut of its own, so 11, from which only the cut is needed, is the parent."""
    got, _ = edges((10, 1, "a_1", B), (11, 2, "a_3", B + " share with everyone"), (12, 4, "a_2", B + " share..."))
    assert got == [(10, 11, "only exposed candidate", ("words after 'share with everyone'",), ()),
                   (11, 12, "inherits cut at the end of 11", ("cut at the end (2 words)",), ())]


def test_a_comma_made_a_dash_is_a_change_not_a_cut() -> None:
    """11 made the comma of ``B`` a dash (its last four words read as a remark), and a_2, who heard
    both, passes 11 on with an emoji after it: from 11 only the ending changed; from 10 the child set
    the last words apart with a dash of its own as well (no cut: the words are all there)."""
    dashed = B.replace(", tell", " - tell")
    got, _ = edges((10, 1, "a_1", B), (11, 2, "a_3", dashed), (12, 4, "a_2", dashed + " \U0001F440"))
    assert got == [(10, 11, "only exposed candidate", ("punctuation '-'",), ()),
                   (11, 12, "inherits punctuation '-' of 11", ("ending '\U0001F440'",), ())]


def test_a_text_without_the_specifics_is_no_earlier_saying_of_it() -> None:
    """a_2 said the first nine words of ``B`` at tick 1 (no number, no good), then, at tick 32, ``B``
    itself, two ticks after hearing a_1 say it: the early text holds neither the 5 nor the ore ``B``
    names, so a_2 is not repeating itself (rule 6) and its ``B`` copies a_1's."""
    got, _ = edges((10, 1, "a_2", " ".join(WORDS[:9])), (11, 30, "a_1", B), (12, 32, "a_2", B))
    assert got == [(11, 12, "only exposed candidate", (), ())]


def test_a_copy_that_shows_its_cut_says_it_is_a_piece_of_a_longer_text() -> None:
    """The first four words of ``B``: 4 units of 6.0224 bits = 24.09, under the 28 asked, no copy; the
    same four words with an ellipsis where ``B`` goes on show the cut, which no message written
    independently of the pair shows either: 6.0224 bits more, 30.11, a copy."""
    four = " ".join(WORDS[:4])
    assert echo_edges(world((10, 1, "a_1", B), (11, 3, "a_2", four)))[0] == ()
    got, _ = echo_edges(world((10, 1, "a_1", B), (11, 3, "a_2", four + "...")))
    assert [(e.parent, e.child, e.mutations) for e in got] == [(10, 11, ("cut at the end (15 words)",))]
    assert got[0].confidence == round(1 - 0.5 * 2 ** (-(5 * math.log2(65) - P.MIN_SHARED_BITS) / 8), 3)


def test_another_story_in_the_same_frame_heard_long_before_does_not_make_a_copy_late() -> None:
    """a_2 heard ``B`` at tick 1 and, at tick 50, the same frame with 'south' for 'north' (another
    story: a_3 had heard ``B`` 49 ticks before, beyond the lag); at tick 52 it passes the second on,
    cut.  The first text a_2 heard that holds every word of its copy is the second (the first lacks
    'south'), heard two ticks before: its copy was prompted by it, and is its child."""
    south = B.replace("north", "south")
    cut = " ".join(south.split()[:12])
    got, _ = edges((10, 1, "a_1", B), (11, 50, "a_3", south), (12, 52, "a_2", cut))
    assert got == [(11, 12, "only exposed candidate", ("cut at the end (7 words)",), ())]


D = "a storm is coming from the west hills tonight so move every sheep and goat to the high barn before dark"


def test_a_tie_goes_to_the_place_the_texts_own_family_passes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two stories in one match, each passed on its own way.  The storm (``D``, said at tick 30,
    then ``fwd: D``) is passed on from the copy heard last by six agents each alone in a region
    (``fwd: D`` and a remark of its own: the tag inherited); the council (``B``, then ``fwd: B``) from
    the copy heard first by four (B and a remark, or B itself: no tag to drop).  Over the whole match
    the latest heard is the likelier place; in the council's family the first.  a_7 then heard B
    (10), ``fwd: B`` (11) and a_6's exact copy of B (15): 10 and 15 cannot be told apart, and the tie
    goes to the first heard, as the council's own copies are passed on (the match's shares alone
    would have given it to 15)."""
    lone = {f"a_{k}": f"r_{k}_{k}" for k in range(20, 26)} | {f"a_{k}": f"r_{k}_0" for k in range(12, 15)}
    msgs = [(10, 1, "a_1", B), (11, 2, "a_2", "fwd: " + B)]
    msgs += [(12 + k, 3, f"a_{12 + k}", f"{B} {w}", "local") for k, w in enumerate(("lol", "wow", "ok"))]
    msgs += [(15, 4, "a_6", B), (16, 6, "a_7", B, "local")]
    msgs += [(30, 30, "a_1", D), (31, 31, "a_2", "fwd: " + D)]
    msgs += [(32 + k, 33, f"a_{20 + k}", f"fwd: {D} {w}", "local")
             for k, w in enumerate(("lol", "wow", "ok", "yes", "hm", "true"))]
    learnt: list[Any] = []
    heard_order = P.heard_order
    monkeypatch.setattr(P, "heard_order", lambda pools, **kw: learnt.append(heard_order(pools, **kw)) or learnt[-1])
    got = {e.child: e for e in echo_edges(world(*msgs, regions=lone))[0]}
    assert [got[c].parent for c in (12, 13, 14, 15)] == [10, 10, 10, 10]
    assert [got[c].parent for c in range(32, 38)] == [31] * 6
    match = learnt[0]
    assert match.latest > match.first  # over the whole match, the latest heard is likelier
    tie = got[16]
    assert (tie.parent, tie.tied_with, tie.reason) == (10, (15,), "tie with 15: heard first")


def test_an_edge_says_words_added_at_one_place_and_a_run_dropped_once() -> None:
    """``B`` with three words added after its third word and its words 11 and 12 ("wren is") dropped: the edge
    lists two changes, not five, the added words counted at their place; and a run dropped beside a lone word
    dropped further on, in the order of their places (word 16 after words 11 to 12, not before)."""
    w = B.split()
    added = " ".join([*w[:3], "and", "then", "quietly", *w[3:10], *w[12:]])
    assert edges((10, 1, "a_1", B), (11, 3, "a_2", added))[0] == [
        (10, 11, "only exposed candidate", ("3 words added before word 4", "words 11 to 12 dropped"), ())]
    dropped = " ".join([*w[:10], *w[12:15], *w[16:]])
    assert edges((10, 1, "a_1", B), (11, 3, "a_2", dropped))[0] == [
        (10, 11, "only exposed candidate", ("words 11 to 12 dropped", "word 16 dropped"), ())]
