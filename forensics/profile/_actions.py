"""Rules 11-15 of the commitment extractor: the acts a clause promises -- ``meet``, ``stay_out``,
``no_attack``, ``support`` -- and who acts.

:func:`actions` reads one clause (its words and name tags, as :mod:`.commitments` makes them).
Who does a verb (rule 11) is :func:`_actor`: the nearest subject before it
(:func:`_subject_before`), or the clause's shape when it names none (:func:`_unstated_subject`),
with negation, hedges and plans read on the way.  Each place the clause names is read by the
place rules in order (:data:`_PLACE_RULES`, one function per rule), else by the verb before it
(:func:`_place_met`, rules 12-13); rule 14 reads the cues each word can open
(:data:`_NO_ATTACK_CUES`), rule 15 the support verbs and phrases (:func:`_support`).  The module
docstring of :mod:`.commitments` states the rules in full; the frame words are :mod:`._frames`'s.

>>> [a.kind for a in actions("i will not attack you".split(), [None] * 5)]
['no_attack']
>>> [(a.kind, a.region) for a in actions("meet me at r_1_2".split(), [None, None, None, ("place", "r_1_2")])]
[('meet', 'r_1_2')]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, count

from ._frames import (
    AGGRESSION, AT_PREPOSITIONS, DIRECT_MEET, ENTERING, GIVE_VERBS, HEDGES, INTERJECTIONS, LEAVING, MEET_VERBS,
    NEGATIONS, NOT_RESTRAINT, OUT_VERBS, OWNED, PEACE_WORDS, PLANS, REPORTING, SPEAKER, SUPPORT_VERBS, THIRD,
    TO_FRAMES, YOU,
)

__all__ = ["actions"]


_UNITS = frozenset({"fleet", "fleets", "army", "armies", "units", "unit", "troops", "ships", "ship", "forces",
                    "squad", "team", "convoy", "convoys", "patrols", "patrol", "men", "scouts"})
"""The speaker's own forces ("my fleet will hold X": the speaker's promise, R23b)."""


_EMPTY_WORDS = frozenset({"dmz", "empty", "neutral", "demilitarized", "clear", "free", "unoccupied", "yours"})


_NOT_AIMED = frozenset({"you", "him", "her", "them"})


_TIME_NOUNS = frozenset({"turn", "year", "season", "round", "spring", "fall", "autumn", "winter", "summer", "time",
                         "game", "week", "phase", "move", "tick", "morning", "evening", "night"})
"""Nouns after "this" / "that" that make it a determiner ("this turn"), not a subject."""


_PERSON_OBJECTS = frozenset({"you", "him", "her", "them", "whoever", "your", "his", "their", "anyone", "everyone",
                             "us", "each"})


_UNDECIDED = "undecided"
"""What a place rule returns when it does not read the place (the next rule is tried)."""


@dataclass(frozen=True, slots=True)
class _Spot:
    """A place in a clause and the words around it (rules 12-13)."""

    words: list[str]
    tags: list[tuple[str, str] | None]
    j: int
    """The place's index."""
    k: int
    """The index of the word before it, articles skipped (-1 at the start)."""
    prev: str
    nxt: str
    nxt2: str

    @classmethod
    def at(cls, words: list[str], tags: list[tuple[str, str] | None], j: int) -> _Spot:
        """The spot of the place at ``j``."""
        n = len(words)
        k = j - 1
        while k >= 0 and words[k] in ("the", "a"):
            k -= 1
        return cls(words, tags, j, k, words[k] if k >= 0 else "", words[j + 1] if j + 1 < n else "",
                   words[j + 2] if j + 2 < n else "")


_Cue = list["_Act"] | tuple[()] | None
"""What a rule-14 cue finds: acts, ``()`` when the word promises nothing (its other cues
are not read), or None (the next cue reads it)."""


def _meet_verb_at(words: list[str], tags: list[tuple[str, str] | None], j: int, v: int) -> int | None:
    """The verb a place at ``j`` belongs to, walking back from ``v`` at most five words: a motion,
    holding or entering verb; None when a give or support verb (a delivery, a supporting order:
    R18b, R32), a clause break or another place comes first ("moving my army from Oskel to
    Dorn" skips "from Oskel")."""
    steps = 0
    while v >= 0 and steps < 5:
        w = words[v]
        if w in ("back", "backing") and v > 0 and (words[v - 1] in MEET_VERBS or words[v - 1] in OUT_VERBS):
            v -= 1  # "pulling back to the mill": a move
            steps += 1
            continue
        if w in GIVE_VERBS and (not _UNITS.isdisjoint(words[v:j]) or (v + 1 < j and _origin(words, tags, v + 1))):
            return v  # "sending my fleet to X", (v16) "I'll send Sevastopol to Rumania": a move
        if w in SUPPORT_VERBS and w not in DIRECT_MEET or w in GIVE_VERBS or w in ("support", "supporting"):
            return None  # "support you into X", "drop 2 mags at X": no meeting (R18b, R32)
        if w in MEET_VERBS or w in DIRECT_MEET or w in ENTERING:
            return v
        if (named_tag := tags[v]) is not None and named_tag[0] == "place" and v > 0 and words[v - 1] == "from":
            v -= 2  # "moving my army from Oskel to Dorn"
            steps += 1
            continue
        if _origin(words, tags, v):
            v -= 1  # "moving Vienna to Galicia": the unit's place
            steps += 1
            continue
        if w in (",", "and", "but", "then", "so", "or") or (
                (named_tag := tags[v]) is not None and named_tag[0] == "place"):
            return None
        v -= 1
        steps += 1
    return None


@dataclass(frozen=True, slots=True)
class _Act:
    """An act the speaker promises in a clause (before :mod:`.commitments` gives it the clause's span
    and condition)."""

    kind: str
    """``meet``, ``stay_out``, ``no_attack`` or ``support``."""
    region: str | None = None
    """The place (``meet``, ``stay_out``)."""
    target: str | None = None
    """The player the promise is about when the text names one (``no_attack``, ``support``)."""


# -- who acts (rule 11) ------------------------------------------------------------------------

def _actor(words: list[str], tags: list[tuple[str, str] | None], verb: int) -> tuple[str | None, str]:
    """Who does the verb (``speaker``, ``you``, ``third``, ``request`` or None) and whether
    the act is cancelled (negated, hedged, a plan).  Negation is returned apart:
    ``(who, cancelled)`` where cancelled is ``"not"``, ``"hedge"`` or ``""``.

    The subject is looked for before the verb (:func:`_subject_before`); a clause that
    states none gets one from its shape (:func:`_unstated_subject`)."""
    who, k, negated, hedged, planned = _subject_before(words, tags, verb)
    if who is None:
        who, hedged = _unstated_subject(words, tags, verb, k, hedged)
    if who == "speaker" and k > 0 and any(words[x] in HEDGES for x in range(max(0, k - 2), k)):
        hedged = True  # "maybe I'll ..."
    cancelled = "not" if negated else ("hedge" if hedged or planned else "")
    return who, cancelled

def _unstated_subject(words: list[str], tags: list[tuple[str, str] | None], verb: int, k: int,
                      hedged: bool) -> tuple[str | None, bool]:
    """The actor of a clause that names none before its verb, read from the clause's shape
    (``k``: where the look back stopped): a telegraphic report ("heading to Ashfen") is the
    speaker's, a bare verb opening the clause is a request, and a frame joined by "and" or a
    comma without its own subject takes the one before it ("I'll go to X and wait")."""
    who: str | None = None
    stop = max(verb - 10, -1)
    # what stands before the verb: nothing but interjections and helpers?
    j = 0
    while j < verb and words[j] in INTERJECTIONS:
        j += 1
    lead = words[j:verb]
    if k <= stop or k < 0 or k < j:
        if words[verb].endswith("ing") or (lead and lead[0] in ("will", "shall", "going")):
            who = "speaker"  # telegraphic: "heading to Ashfen", "will hold the bridge"
        elif not lead:
            who = "request"  # a bare verb opening the clause: an order
    elif words[k] in (",", "and", "then", "but", "so"):
        # a new frame without its own subject: the one before it acts ("I'll go to X and wait")
        before, before_cancelled = _actor(words, tags, k) if k > 0 else (None, "")
        if before == "speaker":
            who = "speaker"
            hedged = hedged or before_cancelled == "hedge"  # "my plan is to build ... and go for X"
        elif words[verb].endswith("ing") and words[k] == ",":
            who = "speaker"  # "got one, coming to tower"
    return who, hedged

# -- actions (rules 12-15) ---------------------------------------------------------------------

def actions(words: list[str], tags: list[tuple[str, str] | None]) -> list[_Act]:
    """Rules 12-15: the acts one clause promises (``meet``, ``stay_out``, ``no_attack``, ``support``), each
    rule read only when a word it opens on stands in the clause."""
    out: list[_Act] = []
    if any(t[0] == "place" for t in filter(None, tags)):  # the named words (a tag is a pair, None for a plain word)
        out += _places(words, tags)
    if not _NO_ATTACK_OPENERS.isdisjoint(words):
        out += _no_attack(words, tags)
    if not _SUPPORT_OPENERS.isdisjoint(words):
        out += _support(words, tags)
    return out

def _places(words: list[str], tags: list[tuple[str, str] | None]) -> list[_Act]:
    """Rules 12-13: ``meet`` and ``stay_out`` for each place the clause names."""
    out: list[_Act] = []
    previous: tuple[int, str | None] | None = None  # (index, kind decided) of the last place
    for j in compress(count(), tags):  # the named words (a tag is a pair, None for a plain word)
        t = tags[j]
        if t is None or t[0] != "place":
            continue
        if _origin(words, tags, j):
            continue  # "moving Smyrna to Constantinople": where the unit comes from (R27)
        if j + 1 < len(words) and words[j + 1] in ("supports", "moves", "convoys"):
            kind = None  # "Moving Vienna to Galicia and Budapest supports": the unit at Budapest acts
        elif previous is not None and all(w in ("or", "and", ",", "the", "nor") for w in words[previous[0] + 1:j]):
            kind = previous[1]  # "the Corran Sea or Ulm Strait": the same verb
        elif previous is not None and j >= 2 and _origin(words, tags, j - 2) and all(
                w in (",", "and", "then", "a", "f") or w in _UNITS for w in words[previous[0] + 1:j - 2]):
            kind = previous[1]  # "Smyrna to Constantinople, Ankara to Black Sea": the same verb
        else:
            kind = _place_kind(words, tags, j)
        previous = (j, kind)
        if kind is not None:
            out.append(_Act(kind, region=t[1]))
    return out

def _place_kind(words: list[str], tags: list[tuple[str, str] | None], j: int) -> str | None:
    """Rules 12-13: ``meet``, ``stay_out`` or nothing for the place at ``j``.

    The first of :data:`_PLACE_RULES` that decides wins (one function per rule: a threat
    on someone's place, a place declared empty or handed over, "stay out of" and its
    kin, leaving); else the verb before the place decides (:func:`_place_met`).
    """
    spot = _Spot.at(words, tags, j)
    for rule in _PLACE_RULES:
        kind = rule(spot)
        if kind != _UNDECIDED:
            return kind
    return _place_met(spot)

def _place_threatened(s: _Spot) -> str | None:
    """"your Varn", "Kessa from you": a threat on someone's place, no commitment (R28)."""
    if s.prev in ("your", "his", "her", "their") or (s.nxt == "from" and s.nxt2 in ("you", "him", "her", "them")):
        return None
    return _UNDECIDED

def _place_declared_empty(s: _Spot) -> str | None:
    """"<place> is yours", "<place> stays a DMZ", "<place> stays empty" (R30)."""
    words, j, n = s.words, s.j, len(s.words)
    if s.nxt in ("is", "are") and (s.nxt2 == "yours" or (
            s.nxt2 in ("all", "entirely", "completely") and j + 3 < n and words[j + 3] == "yours")):
        return "stay_out"
    if s.nxt in ("stays", "remains", "stay", "remain") and (
            s.nxt2 in _EMPTY_WORDS or (s.nxt2 in ("a", "an") and j + 3 < n and words[j + 3] in _EMPTY_WORDS)):
        return "stay_out"
    return _UNDECIDED

def _place_handed_over(s: _Spot) -> str | None:
    """"you can have <place>", "I'll give you / leave you <place>": handing a place over (R30)."""
    words, k = s.words, s.k
    if k >= 1 and words[k] == "get" and words[k - 1] == "you" and (k < 2 or words[k - 2] in (
            ",", ":", "and", "then", "so")):
        return "stay_out" if _actor(words, s.tags, k)[1] == "" else None  # "you get Serbia, I get ..."
    if k >= 1 and words[k] == "have" and (words[k - 1] == "you" or (
            k >= 2 and words[k - 2] == "you" and words[k - 1] in ("can", "may", "will", "could", "would"))) or (
            k >= 1 and words[k] == "you" and words[k - 1] in ("give", "leave")):
        return "stay_out" if _actor(words, s.tags, k)[1] == "" else None
    if k >= 2 and words[k] == "take" and words[k - 1] in ("can", "may") and words[k - 2] == "you" and \
            "if" not in words[max(0, k - 6):k]:
        return "stay_out" if _actor(words, s.tags, k)[1] == "" else None  # (v16) "You can take War", as "have"
    if k >= 2 and words[k] in ("have", "take") and words[k - 1] == "to" and words[k - 2] in _WELCOME and \
            "you" in words[max(0, k - 6):k - 2]:
        return "stay_out" if _actor(words, s.tags, k - 2)[1] == "" else None  # (v16) "you are welcome to take Sev"
    return _UNDECIDED


_WELCOME = frozenset({"welcome", "encouraged", "free"})
"""(v16) The addressee is "welcome / free to take" a place: the speaker hands it over (R30)."""

def _place_kept_empty(s: _Spot) -> str | None:
    """"let's keep <place> empty" (R30)."""
    words, j = s.words, s.j
    as_empty = s.nxt == "as" and any(w in _EMPTY_WORDS for w in words[j + 2:j + 4])  # "keep X as a DMZ"
    if s.prev == "keep" and (s.nxt in _EMPTY_WORDS or as_empty):
        who, cancelled = _actor(s.words, s.tags, s.k)
        return "stay_out" if who == "speaker" and not cancelled else None
    return _UNDECIDED

def _place_out_of(s: _Spot) -> str | None:
    """"stay out of", "keep away from", "withdraw from", "keep off", "route around",
    "not going anywhere near" a place (R30); "moving from Oskel" says where one comes from."""
    words, k, prev = s.words, s.k, s.prev
    if prev not in ("of", "from", "off", "around", "near", "clear"):
        return _UNDECIDED
    v = k - 1
    if prev == "of" and v >= 0 and words[v] in ("out", "clear"):
        v -= 1
    elif prev == "from" and v >= 0 and words[v] in ("away", "back", "out"):
        v -= 1
    elif prev == "near" and v >= 0 and words[v] == "anywhere":
        v -= 1
    while v >= 0 and (words[v] in OWNED or words[v] in ("fleet", "fleets", "army", "armies", "units",
                                                          "troops", "ships", "routes", "forces", "it",
                                                          "them", "everything")):
        v -= 1
    if not (v >= 0 and (words[v] in OUT_VERBS or words[v] in MEET_VERBS)):
        return None
    who, cancelled = _actor(words, s.tags, v)
    if prev == "near":  # "I'm not going anywhere near X"
        return "stay_out" if who == "speaker" and cancelled == "not" else None
    if prev == "from" and words[v] not in ("withdraw", "withdrawing", "retreat", "retreating") and \
            words[k - 1] not in ("away", "out", "back"):
        return None  # "moving from Oskel to Dorn": where the speaker comes from
    return "stay_out" if who == "speaker" and not cancelled else None

def _place_left(s: _Spot) -> str | None:
    """"I'll leave / avoid / cede <place>", "DMZ <place>", (v16) "a DMZ in <place>", "<place> as a DMZ" (R30)."""
    words, k, j = s.words, s.k, s.j
    if s.prev in LEAVING or s.prev == "dmz" or (s.prev == "in" and k >= 1 and words[k - 1] == "dmz"):
        at = k - 1 if s.prev == "in" else k
        who, cancelled = _actor(words, s.tags, at)
        return "stay_out" if who == "speaker" and not cancelled else None
    if s.nxt == "as" and (words[j + 2:j + 4] == ["a", "dmz"] or words[j + 2:j + 3] == ["dmz"]):
        who, cancelled = _actor(words, s.tags, j)
        return "stay_out" if who in ("speaker", None) and not cancelled else None
    return _UNDECIDED

def _place_held(s: _Spot) -> str | None:
    """"my army in Warsaw is staying put", "our fleet in X will hold": the speaker's unit stays (R23b, R27)."""
    words, k, j = s.words, s.k, s.j
    if not (s.prev in ("in", "at") and k >= 2 and words[k - 1] in _UNITS and words[k - 2] in OWNED):
        return _UNDECIDED
    after = [w for w in words[j + 1:j + 4] if w not in ("is", "are", "will", "be", "just")]
    if not after or after[0] not in ("staying", "stays", "stay", "holding", "holds", "hold", "remains",
                                     "remaining", "remain"):
        return _UNDECIDED
    negated = any(w in NEGATIONS or w in HEDGES for w in words[j + 1:j + 4])
    return None if negated else "meet"

def _place_gone_for(s: _Spot) -> str | None:
    """"I'll go for Trieste": the speaker will try to take the place (R27)."""
    words, k = s.words, s.k
    if not (s.prev == "for" and k >= 1 and words[k - 1] in ("go", "going")):
        return _UNDECIDED
    who, cancelled = _actor(words, s.tags, k - 1)
    if who != "speaker":
        return None
    return "meet" if not cancelled else ("stay_out" if cancelled == "not" else None)

_UNIT_MOVERS = frozenset({"move", "moving", "moves", "send", "sending"})
"""(v16) Verbs whose direct object is a unit: a place right after one names the unit by where it stands."""

_STRIKES = frozenset({"attack", "attacking", "hit", "hitting", "strike", "striking", "invade", "invading", "raid",
                      "raiding", "cut", "cutting", "tap", "tapping"})
"""(v16) Verbs of a strike: with a place as their object ("I'll attack Varn", "I can cut Kiel", "I have to hit Gal")
the speaker's unit moves on the place, a ``meet`` (the guide's D6: as "I'll take X", R27; negated, ``stay_out``: R25); a threat on
someone's place ("your Varn") stays none (R28)."""

_ORDER_OPENERS = frozenset({",", ":", "-", "a", "f", "and", "then", "\n"})
"""(v16) What may stand before an order written "<place> to <place>" (a list of orders, a unit letter)."""

_PLACE_RULES: tuple[Callable[[_Spot], str | None], ...] = (
    _place_threatened, _place_declared_empty, _place_handed_over, _place_kept_empty, _place_out_of,
    _place_left, _place_held, _place_gone_for,
)
"""The place rules tried before the verb decides, in order."""

def _place_met(s: _Spot) -> str | None:
    """Rule 12: the speaker's verb before the place -- with a preposition ("I'll be at X") or
    the place as its object ("I'll hold X"), or "->" -- makes a ``meet``; negated entering
    makes a ``stay_out`` (rule 13)."""
    words, tags, k, prev = s.words, s.tags, s.k, s.prev
    if prev == "->":
        who, cancelled = _actor(words, tags, k)
        return "meet" if who in ("speaker", None, "request") and not cancelled else None
    if prev == "to" and s.j == k + 1 and _origin(words, tags, k - 1) and (k < 2 or words[k - 2] in _ORDER_OPENERS):
        # (v16) "Black to Sev, Sev to Rum": an order written with "to", a unit named by its place, nothing before
        # it in the clause but a unit letter or a comma; as "->"
        who, cancelled = _actor(words, tags, k - 1)
        return "meet" if who in ("speaker", None, "request") and not cancelled else None
    preposition = prev in AT_PREPOSITIONS
    v = _meet_verb_at(words, tags, s.j, k - 1 if preposition else k)
    if v is None:
        return None
    verb = words[v]
    direct = not preposition and v == k
    if not preposition and not direct:
        return None
    if direct and verb not in DIRECT_MEET and verb not in ENTERING:
        return None
    if direct and verb in _UNIT_MOVERS:
        return None  # (v16) "I can't move Boh this season": the unit named by its place moves, from there
    if preposition and verb not in MEET_VERBS and verb not in ENTERING:
        return None
    if verb == "see" and not (v + 1 < len(words) and words[v + 1] == "you"):
        return None
    if verb in ("take", "taking") and not direct:
        return None
    if v >= 1 and words[v - 1] in ("your", "his", "her", "their"):
        return None  # "I'll support your move to Munich": someone else's move (R32)
    if v >= 2 and words[v - 1] == "to" and words[v - 2] not in TO_FRAMES:
        return None  # "... but only to defend Venice": a purpose, not a promise
    if verb == "bounce" and preposition and _NOT_AIMED.isdisjoint(words[v + 1:s.j]):
        who, cancelled = _actor(words, tags, v)
        return "meet" if who == "speaker" and not cancelled else None  # "let's bounce in X": a move
    who, cancelled = _actor(words, tags, v)
    if verb in ("meet", "meeting", "see", "find", "rendezvous", "regroup"):
        # "meet me at X" says where the speaker will be (R27); "let's meet", "see you at"
        return "meet" if who in ("speaker", "request", None) and not cancelled else None
    if who != "speaker":
        return None
    if verb in ("put", "putting") and _UNITS.isdisjoint(words[v:s.j]):
        return None  # (v16) "put" moves a unit it names ("I won't put an army in StP"); "put 2 wood in X" delivers
    if cancelled == "not":
        if any(words[x] in ("do", "does", "did") for x in range(max(0, v - 3), v)):
            return None  # "our patrols don't go into the Drift": a habit described, not a promise
        return "stay_out" if verb in ENTERING else None
    if cancelled:
        return None
    if verb in ENTERING and verb not in MEET_VERBS and verb not in DIRECT_MEET and not (direct and verb in _STRIKES):
        return None  # "I'll bounce Varn"; (v16) but a strike with the place as its object moves on it (R27, R25)
    if verb in ("be", "stay", "staying", "wait", "waiting", "keep", "set", "sit", "sitting", "hang") and \
            preposition and prev in ("to", "toward", "towards", "for", "up", "over"):
        return None
    if verb in ("keep", "keeping", "order", "ordering", "bring", "bringing", "send", "sending", "lead",
                "leading") and _UNITS.isdisjoint(words[v:s.j]) and not _origin(words, tags, v + 1):
        return None  # "I'll keep my fleet in X", "sending my army to X", (v16) "send Sev to Rum" (a unit named by
        # its place); "send 4 herbs to X" is a delivery
    return "meet"

def _no_attack(words: list[str], tags: list[tuple[str, str] | None]) -> list[_Act]:
    """Rule 14: the first cue, in word order, by which the speaker promises not to attack.

    Each word is read only by the cues it can open (:data:`_NO_ATTACK_CUES`), in the order
    listed there; a cue that says the word promises nothing (an attack on a place, a peace
    that is over) ends that word's reading."""
    for i in [i for i, w in enumerate(words) if w in _NO_ATTACK_CUES]:  # the words a cue opens on
        for cue in _NO_ATTACK_CUES[words[i]]:
            found = cue(words, tags, i)
            if isinstance(found, tuple):
                break
            if found is not None:
                return found
    return []

def _aggression_disclaimed(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"I'm moving to Armenia, not to attack you": a disclaimer of intent (R23)."""
    if words[i - 1:i] == ["to"] and i > 1 and words[i - 2] == "not" and _speaker_before(words, i - 2):
        return [_Act("no_attack", target=_target(_object(words, tags, i)))]
    return None

_GAME_VERBS = frozenset({"hunt", "hunting"})
"""(v15) Aggression verbs that attack someone only with a person after them ("I won't hunt you down"): said alone
they hunt game ("I don't plan on hunting or fishing"), no promise about anyone."""
_PERSONS = frozenset({"you", "him", "her", "them", "us", "me", "anyone", "anybody", "someone", "somebody", "people"})
"""Words after a verb that name the person it acts on."""


def _aggression_refused(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """An aggression verb ("attack", "go after you") the speaker negates: "I won't attack you",
    "no fighting between us".  Aggression on a place is ``stay_out`` instead (R25)."""
    n = len(words)
    w = words[i]
    nxt = words[i + 1] if i + 1 < n else ""
    prev = words[i - 1] if i > 0 else ""
    if w == "after" and not (prev in ("go", "going", "come", "coming") and (
            nxt in ("you", "him", "her", "them") or (i + 1 < n and (named_tag := tags[i + 1]) is not None
                                                     and named_tag[0] == "agent"))):
        return None
    obj = _object(words, tags, i)
    if obj is not None and obj[0] == "place":
        return ()
    if w in _GAME_VERBS and nxt not in _PERSONS and _target(obj) is None:
        return None  # (v15) "I don't plan on hunting or fishing": game hunted, no one attacked
    if prev == "no" and nxt not in ("me", "us", "please") and "please" not in words:
        # "no attack", "no fighting between us"; not "no attack me" / "no attacks please"
        if i < 2 or words[i - 2] not in ("you", "they", "he", "she"):
            return [_Act("no_attack", target=_target(obj))]
    negated = False
    for k in range(i - 1, max(i - 9, -1), -1):
        v = words[k]
        if v in NOT_RESTRAINT or v in ("about", "know", "knows", "into", "like", "enjoy", "good", "at"):
            break  # "I don't know the first thing about hunting": no act of the speaker
        if v in ("not", "never", "no", "zero"):
            negated = True
            continue
        if v in _PAST:
            break  # (v16) "I wasn't stabbing anyway", "I didn't hit": the past reported, no promise (R8)
        if v in ("me", "us") and not (k > 0 and words[k - 1] == "let"):
            break  # "Brask told me not to attack you": "me" is an object
        if v in SPEAKER or v in OWNED or (v == "us" and k > 0 and words[k - 1] == "let"):
            vouched = words[max(0, k - 4):k]
            if not {"promise", "guarantee", "swear", "say", "said"}.isdisjoint(vouched) and not \
                    NEGATIONS.isdisjoint(vouched):
                break  # "I can't promise I won't attack you": no promise
            if negated and not any(h in words[k:i] for h in HEDGES):
                return [_Act("no_attack", target=_target(obj))]
            break
        if v in YOU or v in THIRD or v == "," or ((named_tag := tags[k]) is not None and named_tag[0] == "agent"):
            break
    return None

def _against_refused(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"I won't move against you": the speaker negates a move against someone."""
    n = len(words)
    nxt = words[i + 1] if i + 1 < n else ""
    if i > 0 and words[i - 1] in ("move", "moving", "go", "going", "turn", "act", "march", "plot") and \
            (nxt in ("you", "him", "her", "them") or (i + 1 < n and (named_tag := tags[i + 1]) is not None
                                                        and named_tag[0] == "agent")):
        who, cancelled = _actor(words, tags, i - 1)
        if who == "speaker" and cancelled == "not":
            target = named_tag[1] if (named_tag := tags[i + 1]) is not None else None
            return [_Act("no_attack", target=target)]
    return None

def _peace_offered(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """A truce, ceasefire or peace named, unless it is ended, broken or refused ("no peace",
    "the truce is over"), a rest ("rest in peace"), (v16) a state of mind ("peace of mind") or a pact
    reported rather than offered (:func:`_pact_reported`)."""
    prev = words[i - 1] if i > 0 else ""
    nxt = words[i + 1] if i + 1 < len(words) else ""
    if prev in ("no", "break", "broke", "breaking", "end", "ending") or nxt in ("is", "over", "ended"):
        return ()
    if words[i] == "peace" and (prev == "rest" or words[i + 1:i + 3] == ["of", "mind"]):
        return ()
    return () if _pact_reported(words, i) else [_Act("no_attack")]

def _non_aggression(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"non aggression" (a pact), unless reported (:func:`_pact_reported`)."""
    if words[i + 1:i + 2] != ["aggression"]:
        return None
    return () if _pact_reported(words, i) else [_Act("no_attack")]


_HOLDING = frozenset({"have", "has", "had", "having"})
"""(v16) Verbs by which a pact is said to be held."""


def _pact_reported(words: list[str], i: int) -> bool:
    """(v16) The peace named at ``i`` is reported, not offered: said to be held ("I have a non-aggression with
    you", "you two had some sort of truce"), or another's to make ("if he were to agree to a truce"): the
    nearest person before it in its clause is a third party, "he" / "she" / "they", or a pronoun with "have" /
    "had" right after it (R8: a claim, or a third party's act, promises nothing)."""
    for k in range(i - 1, max(i - 9, -1), -1):
        w = words[k]
        if w in (",", ":", "and", "but", "so", "because"):
            return False
        if w == "let" or (w == "us" and k > 0 and words[k - 1] == "let"):
            return False  # "let's have peace": an offer
        if w in ("he", "she", "they"):
            return True  # (v17) a player named here may be the addressee called by name, or the speaker (R23b)
        if w in ("i", "we", "you", "two") and k + 1 < i and words[k + 1] in _HOLDING:
            return True
        if w in ("i", "we", "you"):
            return False
    return False

def _safe_with_me(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"you are safe (with me)": an assurance to the addressee, unless negated."""
    if i > 0 and words[i - 1] in ("are", "is", "feel", "stay", "be") and not any(
            x in words[:i] for x in ("not", "never", "if", "want", "wants")) and any(x in words[:i] for x in ("you", "your")) and \
            _WISHING.isdisjoint(words[:i]):
        return [_Act("no_attack")]
    return None  # (v8) "I hope your wife is safe": a wish for the addressee, no assurance


_WISHING = frozenset({"hope", "hoping", "hopefully", "wish", "wishing", "pray", "praying"})
"""Words of a wish: "safe" after one wishes well, and promises nothing (:func:`_safe_with_me`)."""

def _no_harm_meant(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"I mean no harm", "we intend no harm"."""
    if i > 1 and words[i - 1] == "no" and words[i - 2] in ("mean", "intend", "want"):
        return [_Act("no_attack")]
    return None

def _left_alone(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"I'll leave you alone", (v16) "let's leave each other alone / be", not negated nor hedged."""
    if words[i] == "other":  # "leave each other be": read at "other" ("alone" reads the rest)
        at = i - 2 if i > 1 and words[i - 1] == "each" and words[i + 1:i + 2] == ["be"] else -1
    else:
        at = i - 2 if i > 1 and words[i - 1] in ("you", "us") else (
            i - 3 if i > 2 and words[i - 2:i] == ["each", "other"] else -1)
    if at >= 0 and words[at] in ("leave", "leaving"):
        who, cancelled = _actor(words, tags, at)
        mutual = words[at + 1:at + 3] == ["each", "other"]
        if (who == "speaker" or (who == "request" and mutual)) and not cancelled:
            return [_Act("no_attack")]  # (v16) "leave each other be" with no subject proposes it for both
    return None


def _ill_will_disclaimed(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """(v16) "I bear you no ill will", "I hold no ill intentions toward you", "I don't have hostile intent": intent
    to harm disclaimed by the speaker (R23's disclaimers of intent)."""
    if words[i + 1:i + 2] not in (["will"], ["intent"], ["intents"], ["intention"], ["intentions"]) or \
            not ("i" in words[:i] or "we" in words[:i]):
        return None
    before = words[max(0, i - 4):i]
    return [_Act("no_attack")] if not {"no", "not", "zero", "never"}.isdisjoint(before) else None


def _centers_spared(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """(v16) "I won't take your dots", "I'm not going to take your other centers", "I won't go into any of your
    centers": the addressee's own ground taken or entered, an attack on the addressee (R23), negated by the speaker
    as any aggression verb is (:func:`_aggression_refused`)."""
    k = i - 1
    while k >= 0 and words[k] in ("other", "home", "supply", "own", "remaining"):
        k -= 1
    if k < 0 or words[k] != "your":
        return None
    k -= 1
    if k >= 1 and words[k - 1:k + 1] == ["any", "of"]:
        k -= 2
    if k < 0 or words[k] not in _TAKING:
        return None
    return _aggression_refused(words, tags, k) if words[k] not in ("into", "in") else (
        _aggression_refused(words, tags, k - 1) if k >= 1 and words[k - 1] in ENTERING else None)


_TAKING = frozenset({"take", "taking", "grab", "grabbing", "steal", "stealing", "touch", "into", "in"})
"""(v16) What is done to the addressee's centers that attacks the addressee ("take your dots", "go into your
centers")."""

def _not_again(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"(it) will not happen again"."""
    if words[max(0, i - 3):i] in (["not", "happen"], ["will", "not", "happen"]):
        return [_Act("no_attack")]
    return None

def _not_aimed_at_you(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"it's not aimed at you": a disclaimer (R23)."""
    n = len(words)
    if words[i + 1:i + 2] == ["at"] and "not" in words[max(0, i - 3):i] and (
            words[i + 2:i + 3] == ["you"]
            or (i + 2 < n and (named_tag := tags[i + 2]) is not None and named_tag[0] == "agent")):
        target = named_tag[1] if (named_tag := tags[i + 2]) is not None else None
        return [_Act("no_attack", target=target)]
    return None

def _nothing_to_fear(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"You have nothing to fear from me" (R23)."""
    if words[i + 1:i + 3] in (["from", "me"], ["from", "us"]) and words[i - 1:i] == ["to"] and \
            i > 1 and words[i - 2] == "nothing":
        return [_Act("no_attack")]
    return None

def _left_untouched(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"you stay untouched"."""
    return [_Act("no_attack")] if "you" in words[:i] else None

def _weapons_cold(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"our guns stay cold"."""
    if i > 1 and words[i - 1] in ("stay", "stays", "remain") and words[i - 2] in ("guns", "weapons"):
        return [_Act("no_attack")]
    return None

def _fire_held(words: list[str], tags: list[tuple[str, str] | None], i: int) -> _Cue:
    """"we will hold fire"."""
    if i > 1 and words[i - 1] == "hold" and words[i - 2] in ("will", "i", "we"):
        return [_Act("no_attack")]
    return None

def _object(words: list[str], tags: list[tuple[str, str] | None], verb: int) -> tuple[str, str] | None:
    """The name a verb acts on, when one follows it closely ("attack Brask", "bounce you in Sael")."""
    for k in range(verb + 1, min(verb + 5, len(words))):
        t = tags[k]
        if t is not None and t[0] in ("place", "agent"):
            return t
        if words[k] in (",", "and", "if", "or", "but", "unless", "until", "while", "for", "with"):
            return None
    return None

def _target(obj: tuple[str, str] | None) -> str | None:
    return obj[1] if obj is not None and obj[0] == "agent" else None


_TALK_NOUNS = frozenset({"question", "questions", "advice", "tips", "tip", "information", "info", "directions"})
"""What "help you with" names when the help is in words, not an act ("help you with any questions")."""


_HELP_ENDS = frozenset({".", "!", "?", ",", ";", "here", "there", "too", "then", "now", "if", "as", "and", "but",
                        "so", "because", "since", "anyway", "somehow", "a", "bit", "lot", "little"})
"""Words after a bare "help (someone) (out)" that end it with no act named ("I'll help out, anyway")."""

_HELP_PRONOUNS = frozenset({"that", "this", "it", "them", "those"})
"""What "help with" names when it is the need just spoken of, not an act ("I can help you with that")."""


def _no_act_helped(words: list[str], i: int, j: int) -> bool:
    """Rule 15's help names an act (R31: "help you take X", "help Jo with the bridge"; "I will help you"
    promises help to the person).  The help at ``i`` (its person, if any, at ``j``) names none when it is
    mutual ("help each other"), or what follows it is "out" or "with" the need just spoken of ("help
    out", "help you with that"), up to the clause's end or a word that closes it: a wish to get along, no
    promise of an act.

    >>> _no_act_helped("we can help each other here".split(), 2, 3)
    True
    >>> _no_act_helped("i will help out".split(), 2, 3)
    True
    >>> _no_act_helped("i will help you".split(), 2, 3), _no_act_helped("i will help you take dorn".split(), 2, 3)
    (False, False)
    """
    n = len(words)
    if words[j:j + 2] == ["each", "other"] or words[j:j + 1] == ["eachother"]:
        return True
    k = i + 1 if words[i + 1:i + 2] in (["out"], ["with"]) else j + 1
    if words[k:k + 1] == ["out"]:
        k += 1
    elif words[k:k + 1] == ["with"] and k + 1 < n and words[k + 1] in _HELP_PRONOUNS:
        k += 2
    else:
        return False
    return k >= n or words[k] in _HELP_ENDS


def _support(words: list[str], tags: list[tuple[str, str] | None]) -> list[_Act]:
    """Rule 15: the speaker will support, help, cover, escort or heal a person."""
    n = len(words)
    for i in [i for i, w in enumerate(words) if w in _SUPPORT_AT]:  # no other word opens a reading below
        w = words[i]
        nxt = words[i + 1] if i + 1 < n else ""
        phrase = None
        if w == "back" and i > 1 and words[i - 1] == "your" and words[i - 2] in ("got", "have"):
            phrase = i - 2  # "I've got your back"
        elif w in ("support", "help", "backing") and i > 1 and words[i - 1] == "my" and words[i - 2] in ("on", "have", "got"):
            phrase = i - 2  # "count on my support", "you have my support", (v16) "you have my help", "you've got my
            # support into Moscow"
            if words[phrase] == "got" and "you" in words[max(0, phrase - 2):phrase]:
                return [_Act("support")]
        elif w == "support" and i > 1 and words[i - 1] in ("have", "got") and "you" in words[max(0, i - 3):i - 1] and \
                nxt in ("to", "into", "for", "in") and not any(x in NEGATIONS for x in words[:i]):
            return [_Act("support")]  # (v16) "You have support to Trieste if you want it": offered, as "my support"
        elif w == "get" and nxt == "you" and i + 2 < n and _place_at(tags, i + 2 + (words[i + 2] in ("into", "to"))):
            phrase = i  # (v16) "we can get you Smy by Fall", "work together to get you into Trieste": help to a place
            who, cancelled = _actor(words, tags, phrase)
            if who == "speaker" and not cancelled:
                return [_Act("support")]
            continue
        elif w == "on" and nxt in ("me", "us") and i > 0 and words[i - 1] == "count" and not any(
                x in NEGATIONS or x in HEDGES for x in words[max(0, i - 4):i]):
            return [_Act("support")]  # "you can count on me"
        elif w == "with" and nxt == "you" and i > 0 and (words[i - 1] == "stay" or (
                i > 1 and words[i - 1] in ("it", "there") and words[i - 2] in ("stay", "hold", "be"))):
            phrase = i - 2 if words[i - 1] != "stay" else i - 1  # "I'll hold it with you", "I'll stay with you"
        elif w == "for" and nxt == "you" and i > 1 and words[i - 1] == "it" and words[i - 2] in (
                "guard", "hold", "watch", "defend", "cover"):
            phrase = i - 2  # "I'll guard it for you"
        elif w in SUPPORT_VERBS:
            obj = nxt
            j = i + 1
            if obj == "the":
                j += 1
                obj = words[j] if j < n else ""
            person = obj in _PERSON_OBJECTS or (
                j < n and (named_tag := tags[j]) is not None and named_tag[0] == "agent")
            if w in ("support", "supporting") and (obj in _ORDER_NOUNS or (obj == "from" and j == i + 1)):
                person = True  # (v16) "I'll support the retreat", "I can support from the south": a supporting order
            if w in ("support", "supporting", "back", "backing", "convoy", "convoying") and j + 1 < n and \
                    (named_tag := tags[j]) is not None and named_tag[0] == "place" and words[j + 1] in (
                        "holding", "hold", "holds", "to", "into", "->", "in"):
                person = True  # "I'll support Serbia holding", "support Holland to Belgium": a unit's order
            if w in ("help", "helping", "assist", "assisting", "aid") and (
                    obj in ("build", "with", "out", "take", "hold", "defend") or person):
                if any((named_tag := tags[k]) is not None and named_tag[0] == "item"
                       for k in range(i + 1, min(i + 6, n))):
                    continue  # help in goods is a give (R32)
                if words[j + 1:j + 3] in (["to", "the"], ["in", "any"], ["any", "way"]):
                    continue  # "help you to the best of my ability": no act named
                if words[j + 1:j + 2] == ["with"] and not _TALK_NOUNS.isdisjoint(words[j + 2:j + 5]):
                    continue  # "I can help you with any questions you have": help in words, no act (R31)
                if _no_act_helped(words, i, j):
                    continue  # "we can help each other", "I'll help out", "I'd help you with that": no act (R31)
                person = True
            if w in ("back", "backing") and i > 0 and words[i - 1] in ("come", "coming", "go", "going", "pull",
                                                                     "pulling", "fall", "get", "be"):
                continue
            if not person:
                continue
            phrase = i
            target = named_tag[1] if j < n and (named_tag := tags[j]) is not None and named_tag[0] == "agent" \
                else None
            who, cancelled = _actor(words, tags, phrase)
            if who == "speaker" and not cancelled:
                return [_Act("support", target=target)]
            continue
        if phrase is not None:
            if (phrase > 0 and words[phrase - 1] == "count") or (words[phrase] == "have" and phrase > 0
                                                                   and words[phrase - 1] == "you"):
                return [_Act("support")]
            who, cancelled = _actor(words, tags, phrase)
            if who == "speaker" and not cancelled:
                return [_Act("support")]
    return []


_PAST = frozenset({"was", "were", "did", "had"})
"""(v16) Auxiliaries of the past between a subject and its verb: the act is reported, not promised (R8), negated or
not ("I wasn't going to", "I didn't hit")."""


def _subject_before(words: list[str], tags: list[tuple[str, str] | None],
                    verb: int) -> tuple[str | None, int, bool, bool, bool]:
    """The subject named in the ten words before ``verb`` (a good named there is a subject of its own), read
    backwards up to a clause break:
    ``(who, k, negated, hedged, planned)`` with ``k`` where the reading stopped.  "after I
    visit" is a condition, "I never said I'd go" a report; negations, hedges and plans met on
    the way are noted."""
    negated = hedged = planned = past = False
    k = verb - 1
    who: str | None = None
    stop = max(verb - 10, -1)
    while k > stop:
        w = words[k]
        t = tags[k]
        if w in NEGATIONS:
            negated = True
        elif w in HEDGES:
            hedged = True
        elif w in PLANS or (w in ("like", "love") and k > 0 and words[k - 1] == "would") or (
                w == "going" and k > 0 and words[k - 1] in ("was", "were")):
            planned = True
        elif w in _PAST:
            past = planned = True  # (v16) "I was even supporting you in", "I didn't move to X": a report (R8)
        elif w in ("i", "we"):
            who = "speaker"
            if k > 0 and words[k - 1] in ("after", "before", "when", "until", "once", "if", "unless", "while",
                                          "since", "because", "whenever"):
                who = "condition"  # "after I visit the quarry": a condition, not the promise
            elif any(words[x] in REPORTING or words[x] in ("promised", "agreed") for x in range(max(0, k - 3), k)):
                who = "reported"  # "I never said I'd go north"
            break
        elif w == "us":
            if k > 0 and words[k - 1] == "let":
                who = "speaker"
                break
            if k > 1 and words[k - 2:k] == ["neither", "of"]:
                who, negated = "speaker", True
                break
            if k > 1 and words[k - 2:k] in (["both", "of"], ["all", "of"]):
                who = "speaker"
                break
        elif w == "me":
            if k > 0 and words[k - 1] == "let":
                who = "speaker"
                break
        elif w in OWNED:
            who = "speaker"
            break
        elif w == "you":
            if k > 0 and words[k - 1] in ("let", "for", "to", "with", "than", "thank"):
                k -= 1
                continue
            who = "you"
            break
        elif w in ("this", "that") and k + 1 < verb and words[k + 1] in _TIME_NOUNS:
            pass  # "this turn", "that year": a determiner
        elif (t is not None and t[0] in ("agent", "item")) or w in THIRD or w in REPORTING:
            who = "third"  # a player, a third person, or a good ("the water will help you")
            break
        elif w in (",", "and", "but", "then", "so", "because", ":", "-", "while", "once", "if", "when"):
            break
        k -= 1
    return who, k, negated and not past, hedged, planned


def _speaker_before(words: list[str], at: int) -> bool:
    """The nearest pronoun before ``at`` (commas passed) is the speaker's."""
    for k in range(at - 1, -1, -1):
        if words[k] in ("i", "we") or words[k] in OWNED:
            return True
        if words[k] in YOU or words[k] in THIRD or words[k] in REPORTING or words[k] in ("me", "us", "told"):
            return False
    return False


def _origin(words: list[str], tags: list[tuple[str, str] | None], j: int) -> bool:
    """The place at ``j`` is followed by "to" / "->" / (v16) "into" and another place: where a unit moves from."""
    return j + 2 < len(words) and words[j + 1] in ("to", "->", "into") and (named_tag := tags[j + 2]) is not None \
        and named_tag[0] == "place" and (named_tag := tags[j]) is not None and named_tag[0] == "place"


_CueFn = Callable[[list[str], list[tuple[str, str] | None], int], "_Cue"]


_NO_ATTACK_CUES: dict[str, tuple[_CueFn, ...]] = {}
"""Rule 14's cues by the word that opens them, each word's cues in the order they are read."""


for _word in AGGRESSION:
    _NO_ATTACK_CUES[_word] = (_aggression_disclaimed, _aggression_refused)


_NO_ATTACK_CUES["harm"] += (_no_harm_meant,)


_NO_ATTACK_CUES["after"] = (_aggression_refused,)


_NO_ATTACK_CUES["against"] = (_against_refused,)


for _word in PEACE_WORDS:
    _NO_ATTACK_CUES[_word] = (_peace_offered,)


for _word in ("centers", "centres", "dots", "scs", "cities"):
    _NO_ATTACK_CUES[_word] = (_centers_spared,)


for _word, _cue in (("ill", _ill_will_disclaimed), ("hostile", _ill_will_disclaimed), ("other", _left_alone)):
    assert _word not in _NO_ATTACK_CUES, _word
    _NO_ATTACK_CUES[_word] = (_cue,)


for _word, _cue in (("non", _non_aggression), ("safe", _safe_with_me),
                    ("alone", _left_alone), ("again", _not_again),
                    ("aimed", _not_aimed_at_you),
                    ("directed", _not_aimed_at_you),
                    ("targeted", _not_aimed_at_you),
                    ("pointed", _not_aimed_at_you),
                    ("fear", _nothing_to_fear), ("untouched", _left_untouched),
                    ("cold", _weapons_cold), ("fire", _fire_held)):
    assert _word not in _NO_ATTACK_CUES, _word
    _NO_ATTACK_CUES[_word] = (_cue,)
_NO_ATTACK_OPENERS = frozenset(_NO_ATTACK_CUES)
"""The words rule 14 can open on (a clause holding none of them promises no peace)."""
_ORDER_NOUNS = frozenset({"retreat", "move", "attack", "advance", "push", "hold", "convoy"})
"""(v16) Nouns of a unit's order that "support the ..." names as its object."""


def _place_at(tags: list[tuple[str, str] | None], j: int) -> bool:
    """(v16) A place of the match stands at ``j``."""
    return j < len(tags) and (tag := tags[j]) is not None and tag[0] == "place"


_SUPPORT_OPENERS = SUPPORT_VERBS | {"got", "count", "have", "with", "for", "get"}
"""The words rule 15 can open on."""
_SUPPORT_AT = SUPPORT_VERBS | {"back", "support", "on", "with", "for", "get"}
"""The words at which :func:`_support` reads something (the words its readings are anchored on)."""
