"""Rule 16 of the commitment extractor: does a clause consent to the proposal on the table (``accept``)?

:func:`accepts` reads one clause (its words, lower-cased and tokenized as :mod:`.commitments`
does).  It consents when one of these reads it, and :func:`_consent_at` does not take it back:

* a *consent phrase* of the frame table (:data:`._frames.ACCEPT_PHRASES`: "it's a deal", "agreed",
  "works for me", "take your offer", ...), with the guards each needs ("I'm in" only at the end of
  its comma part, "I agree that ..." an opinion, "Ash and I agreed" a report);
* :func:`_consent_frame`: the proposal, a copula in any tense and a word of consent ("that will be
  fine", "sounds fair");
* :func:`_deal_made`: a deal said to be made ("you have deal", "let's make the deal");
* :func:`_consent_act`: the speaker, a chain of modals that commit, and a verb of consent whose object is
  the proposal ("I would agree to that", "I'll take it");
* :func:`_consent_state`: the speaker's contentment with the proposal ("I'd be happy with that"), or a
  proposal called fair by its name ("that's a fair split");
* :func:`_found_fair`: the speaker finding the proposal acceptable ("I find that an acceptable deal");
* :func:`_worked_out`: a deal worked out ("glad we could work it out", "we worked it out");
* :func:`_no_trouble`: (v10) the proposal said to be no trouble ("I have no problem with that", "I don't
  see an issue with your offer");
* a comma part that is "deal" / "done" alone, "X it is", "10 works", or a whole "Will do." or (v14) "As you say.".

The proposal may be named with a modifier ("your offered deal", "your last offer"), by who made it
("the deal you proposed"), or stand as the subject of a word of consent ("your offer is fair").

**The phrases are not redundant with the frames.**  Read over every labelled row (the blind held-out
split left out) and the injection tiers' corpus, 137 clauses consent by a phrase that no frame reads
("accepted", "agreed", "that works", "works for me", "submit the deal", "like a deal", "that will work",
... 28 phrases in all); and a phrase the frames read wherever it occurs there still differs from them
at the edges.  So the table stays, with the frames beside it; a phrase ending in a word of consent
reads what follows it as the frame does ("that is fair to say" is no consent either way).

:func:`_consent_at` takes a consent back when it is negated, hedged, conditional on goods for the
speaker (a counter-offer, the guide's D5), tagged onto a demand ("... and you have a deal"), or
followed by "but", "although" or a "though" that does not close the clause.  The words of every role are in :mod:`._frames`; the words here are the
structure's own (determiners, copulas, degree words).

>>> accepts("ok , that works for me".split())
True
>>> accepts("that works if i can have 2 food".split())
False
>>> accepts("i would be happy with that".split())
True
>>> accepts("i hope we can make a deal".split())
False
>>> accepts("that is fair to say".split()), accepts("seems fair to say".split())
(False, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from ._frames import (
    ACCEPT_BY_FIRST, COMMITTING, CONSENT_VERBS, CONSENT_WORDS, CONTENT_WORDS, DEAL_NEGATORS, DEAL_NOUNS, GIVE_VERBS,
    HEDGES, HOPED, INTERJECTIONS, NUMBER_WORDS, PRONOUNS, PROPOSAL_NOUNS, WISHED,
)

__all__ = ["accepts"]

_DIGITS = re.compile(r"[0-9]{1,9}")


_BEFORE_THAT = frozenset({",", "-", ":", "and", "so", "then", "yes", "yeah", "yep", "yup", "ok", "sure",
                          "great", "perfect", "well", "oh", "alright", "think", "guess", "but", "because", "fine",
                          "cool", "hmm", "hm", "agreed", "thanks", "good", "believe", "suppose", "!", "i"})
"""Words that may stand before a consent phrase opening with "that" ("ok, that works"); after any
other word "that" is a relative pronoun ("a split that works for both")."""


def _relative_that(words: list[str], k: int) -> bool:
    """The word at ``k`` is "that" as a relative pronoun, not the proposal (see :data:`_BEFORE_THAT`)."""
    return words[k] == "that" and k > 0 and words[k - 1] not in _BEFORE_THAT


_EMBEDDING = frozenset({"how", "why", "whether", "where", "when", "what"})
"""Words before a consent phrase that make it an embedded clause ("I'll explain how this works",
"let's see whether that works"): a question or a topic, no consent."""


def _embedded(words: list[str], i: int) -> bool:
    """The consent phrase at ``i`` opens an embedded clause: after a word of :data:`_EMBEDDING`, or after
    one and the proposal's pronoun ("how this works", "whether that works for me")."""
    return (i > 0 and words[i - 1] in _EMBEDDING) or (
        i > 1 and words[i - 1] in _CONSENT_SUBJECTS and words[i - 2] in _EMBEDDING)


_PROPOSAL_DETERMINERS = frozenset({"that", "this", "it", "your", "the", "those", "these", "our"})
"""Words that open the object of a consent when it is the proposal ("that", "your offer", "the deal"; (v14) "our
deal": the deal the two made, as "I'll submit our deal now")."""

_NAME_NEEDED = frozenset({"your", "the", "those", "these", "our"})
"""The determiners of :data:`_PROPOSAL_DETERMINERS` that must be followed by a proposal's name to open one: "the
deal" is the proposal, "the water" goods (an ask); (v14) so with "our" ("our deal", not "our food")."""


_PROPOSAL_MODIFIERS = frozenset({"offered", "proposed", "suggested", "last", "latest", "new", "revised", "original",
                                 "final", "updated", "current", "kind", "generous"})
"""Words between a determiner and the proposal's name that still name the proposal ("your offered deal",
"your last offer", "that revised split")."""


def _proposal_named(words: list[str], o: int) -> int:
    """The index of the proposal's name after the determiner at ``o`` ("your offer", "your offered
    deal"), or ``o`` when no name of a proposal follows it."""
    n = len(words)
    if o + 1 < n and words[o + 1] in PROPOSAL_NOUNS:
        return o + 1
    if o + 2 < n and words[o + 1] in _PROPOSAL_MODIFIERS and words[o + 2] in PROPOSAL_NOUNS:
        return o + 2
    return o


_PROPOSED = frozenset({"proposed", "offered", "suggested", "made", "mentioned", "described", "sent", "outlined",
                       "laid", "put"})
"""Verbs after "the deal you" that name the addressee's proposal ("the deal you proposed")."""
_PROPOSED_OR_SAID = _PROPOSED | {"said", "asked"}
"""Verbs after an opening "as you" that name the addressee's proposal ("as you suggested", "as you said")."""


_COPULA_CHAIN = frozenset({"am", "are", "is", "be", "would", "will", "can", "should", "also", "definitely", "totally",
                           "just", "still", "then", "now"})
"""Words between the speaker and a word of contentment ("I would definitely be ok with that")."""


_CLAUSE_GOES_ON = frozenset({",", "!", "then", "too", "and", "so", "thanks", "thank", "friend", "as", "if", "now",
                             "for", "since", "because", "-"})
"""Words after a consent that end what is consented to ("I'm ok with that, thanks")."""


_CONSENT_SUBJECTS = frozenset({"that", "this", "it"})
"""What the consent is said of: the proposal ("its", "it's" are read as "it is")."""


_COPULAS = frozenset({"is", "will", "would", "should", "can", "be", "seems", "sounds", "looks", "seem", "sound"})
"""The copula between the proposal and the word of consent, in any tense ("that will be fine")."""


_DO_SUPPORT = frozenset({"does", "did", "do"})
"""(v11) The emphatic "does" before a copula's bare form ("that does seem fair", "it did sound good")."""


_DEGREE = frozenset({"pretty", "very", "totally", "perfectly", "completely", "quite", "more", "than", "really",
                     "absolutely", "entirely", "all", "just", "definitely", "fairly"})
"""Degree words before a word of consent ("that is perfectly fine")."""


def accepts(words: list[str]) -> bool:
    """Rule 16: the clause consents to the proposal on the table: by a consent phrase of the frame
    table (:func:`_consent_phrase`), by a structural frame (:func:`_consent_frame`, :func:`_deal_made`,
    :func:`_consent_act`, :func:`_consent_state`, each read only when a word it needs stands in the
    clause), or by a comma part that consents on its own, the proposal found fair or a deal worked out
    (:func:`_consent_part`)."""
    return _consent_phrase(words) or (
        not CONSENT_WORDS.isdisjoint(words) and _consent_frame(words)) or (
        not DEAL_NOUNS.isdisjoint(words) and _deal_made(words)) or (
        not CONSENT_VERBS.isdisjoint(words) and _consent_act(words)) or (
        not (CONTENT_WORDS.isdisjoint(words) and PROPOSAL_NOUNS.isdisjoint(words)) and _consent_state(words)) or \
        _consent_part(words) or _as_proposed(words) or (not _TROUBLE.isdisjoint(words) and _no_trouble(words))


_ADVERBS_BETWEEN = frozenset({"actually", "really", "definitely", "certainly", "surely", "truly", "honestly",
                              "pretty", "very", "quite"})
"""Adverbs that may stand inside a consent phrase without changing it ("that actually will work for me"; (v11)
"that sounds like a pretty great deal")."""


def _consent_phrase(words: list[str]) -> bool:
    """A consent phrase of :data:`._frames.ACCEPT_PHRASES` ("works for me", "agreed", "i am in"), not
    opened by a relative "that" ("a way that works for both of us"), not ruled out by a guard of its
    last word (:data:`_PHRASE_GUARDS`), and standing (:func:`_consent_at`)."""
    if ACCEPT_BY_FIRST.keys().isdisjoint(words):
        return False
    n = len(words)
    for i in [i for i, w in enumerate(words) if w in ACCEPT_BY_FIRST]:
        if _relative_that(words, i):
            continue  # "a split that works for both": not the proposal
        second = words[i + 1] if i + 1 < n else ""
        for phrase in ACCEPT_BY_FIRST[words[i]]:
            k = len(phrase)
            if (k > 1 and phrase[1] != second) or tuple(words[i:i + k]) != phrase:
                continue
            if any(guard(words, i, i + k) for guard in _PHRASE_GUARDS.get(phrase[-1], ())) or _embedded(words, i):
                continue
            if words[i] in _PREDICATE_FIRST and i > 1 and words[i - 1] == "that" and words[i - 2] in _SOUGHT:
                continue  # "let's find something that works for us": a deal still sought, not the proposal
            if _consent_at(words, i, i + k):
                return True
    if not _ADVERBS_BETWEEN.isdisjoint(words):  # "that actually will work for me": the phrase, an adverb inside
        return _consent_phrase([w for w in words if w not in _ADVERBS_BETWEEN])
    return False


_PREDICATE_FIRST = frozenset({"works", "suits", "sounds", "seems", "fine"})
"""First words of consent phrases said of a subject before them ("works for us"): after a relative "that"
whose noun is one of :data:`_SOUGHT` ("let's find something that works for us") they describe what is
sought, not the proposal."""

_SOUGHT = frozenset({"something", "anything", "whatever", "way", "solution", "compromise", "arrangement", "split",
                     "deal", "plan", "option", "balance", "agreement", "one", "ones", "combination"})
"""Nouns of a deal still to be found ("a deal that works for us both")."""


def _said_of_more(words: list[str], i: int, end: int) -> bool:
    """"I'm in the north": a phrase ending in "in" / "on" consents only at the end of its part."""
    return end < len(words) and words[end] not in (",", "!", "too", "then")


def _agreed_that(words: list[str], i: int, end: int) -> bool:
    """"I agree that the lake has water", "I agree with Ash": an opinion, no consent.  "I agree with
    you" (or "with that") closing its clause agrees with the proposal the addressee made: consent."""
    if words[end:end + 1] == ["with"] and words[end + 1:end + 2] in (["you"], ["that"], ["this"], ["it"]) and (
            end + 2 == len(words) or words[end + 2] in ("!", "too", "then", "completely", "totally", "fully")):
        return False
    return end + 1 < len(words) and words[end] in ("that", "with") and words[end + 1] not in (",", "too")


def _agreed_of_more(words: list[str], i: int, end: int) -> bool:
    """"I agree water is needed": an opinion ("I agree what about this deal": a question runs on, the
    consent stands)."""
    return end < len(words) and words[end] not in (
        ",", "too", "then", "and", "so", "completely", "totally", "fully", "to", "that", "with", "!", "what", "how")


def _agreed_to_act(words: list[str], i: int, end: int) -> bool:
    """"I agree to give you ...": the act agreed to is read by the give rules, not as consent.  Agreeing
    to take what is offered ("I agree to take 2 water", "I agree to have the food") takes the proposal:
    consent (the goods named are its terms, a receive side alone, no commitment of their own)."""
    return end + 1 < len(words) and words[end] == "to" and words[end + 1] not in (
        "that", "this", "it", "those", "these", "your", "the", "take", "have", "receive", "get")


def _agreement_reported(words: list[str], i: int, end: int) -> bool:
    """"Ash and I agreed that ...", "we had agreed": a report of an earlier agreement.  The proposal
    said to be what was agreed ("that is what we have agreed to", "yes, that's exactly what we agreed on")
    confirms it: consent."""
    if _proposal_is_agreed(words, i):
        return False
    if i > 1 and words[i - 2:i] == ["i", "have"] and words[i + 1:i + 2] == ["to"] and \
            words[i + 2:i + 3] in (["that"], ["this"], ["it"], ["your"], ["the"]):
        return False  # (v8) "I have agreed to the offer": the speaker's own consent, in force now, not a report
    return i > 0 and (words[i - 1] in PRONOUNS or words[i - 1] in ("already", "had", "have", "was", "were"))


def _proposal_is_agreed(words: list[str], i: int) -> bool:
    """"that is (exactly) what we (have) agreed": "agreed" at ``i`` closing a "what we" clause said of
    the proposal, with nothing after it but "to" / "on" / "upon" and the clause's end."""
    k = i - 1
    while k >= 0 and words[k] in ("have", "had", "just", "all"):
        k -= 1
    if k < 1 or words[k] != "we" or words[k - 1] != "what":
        return False
    k -= 2
    while k >= 0 and words[k] in ("exactly", "just", "precisely"):
        k -= 1
    rest = words[i + 1:]
    return k >= 1 and words[k] == "is" and words[k - 1] in _CONSENT_SUBJECTS and (
        rest in ([], ["to"], ["on"], ["upon"]) or rest[:1] == ["!"] or rest[1:2] == ["!"])


def _said_of_something(words: list[str], i: int, end: int) -> bool:
    """"That is fair to say", "fine for camping", "fair for me to get": a word of consent said of an
    act or a claim that follows, not of the proposal ("to" or "for" after it, unless "to me" / "for us"
    ends it); read by the consent phrases and by :func:`_consent_frame` alike."""
    after = words[end:end + 3]
    if after[:1] in (["for"], ["to"]) and after[1:3] in (["both", "of"], ["the", "both"], ["us", "both"]):
        k = end + 3 + (after[1:3] == ["both", "of"]) + 2 * (after[1:3] == ["the", "both"])  # past "us"
        return words[k:k + 1] == ["to"]  # (v8) "fair for both of us": said of the two, as "for us" ("... to get X"
        # says it of an act)
    return after[:1] in (["that"], ["enough"]) or (after[:1] in (["for"], ["to"]) and (
        after[1:2] not in (["me"], ["us"]) or after[2:3] == ["to"]))


_PHRASE_GUARDS: Mapping[str, tuple[Callable[[list[str], int, int], bool], ...]] = {
    "in": (_said_of_more,), "on": (_said_of_more,),
    "agree": (_agreed_that, _agreed_of_more, _agreed_to_act),
    "agreed": (_agreement_reported,),
    **{word: (_said_of_something,) for word in sorted(CONSENT_WORDS)},
}
"""The guards of a consent phrase by its last word (``(words, start, end)``: True rules the phrase out)."""


_PART_WORDS = frozenset({"deal", "done", "is", "works", "do", "say", "wish"})
"""A comma part consents on its own only holding one of these (:func:`_deal_said`, :func:`_it_is`,
:func:`_number_works`, :func:`_will_do`, :func:`_as_you_say`)."""


def _consent_part(words: list[str]) -> bool:
    """A comma part that consents on its own, its opening interjections passed ("no" / "not" are not
    passed): "deal" or "done" (:func:`_deal_said`), "X it is", "10 works", or a whole clause "Will do." or (v14)
    "As you say." (:func:`_will_do`, :func:`_as_you_say`, their commas passed too: (v15) "Ok, will do." as "Ok then,
    as you say.");
    or, read here because each needs a word few clauses hold, :func:`_found_fair` and :func:`_worked_out`."""
    if not _IDIOM_LAST.isdisjoint(words) and _idiom_part(words):
        return True
    if _PART_OR_FRAME_WORDS.isdisjoint(words):
        return False  # every part read below, and both frames, hold one of these words
    if not _FOUND_OR_WORKED.isdisjoint(words) and (_found_fair(words) or _worked_out(words)):
        return True
    if _PART_WORDS.isdisjoint(words):
        return False
    if not _YIELDING.isdisjoint(words):  # "Ok then, as you say.", "Ok, will do.": the whole clause, its commas aside
        plain = [w for w in words if w != ","]
        rest = plain[_interjections_passed(plain):]
        if _as_you_say(rest) or _will_do(rest):
            return True
    n = len(words)
    seg = 0
    commas = [i for i, w in enumerate(words) if w == ","]
    commas.append(n)  # the clause's end closes the last part
    for i in commas:
        part = words[seg:i]
        j = _interjections_passed(part)
        rest = part[j:]
        if rest and ((rest[0] in ("deal", "done") and _deal_said(words, rest, seg + j))
                     or (rest[-1] == "is" and _it_is(rest)) or (rest[-1] == "works" and _number_works(rest))):
            return True  # each read only where it can stand
        seg = i + 1
    return False


_IDIOM_PARTS = frozenset(tuple(p.split()) for p in (
    "agree", "will do", "will do that", "can do that", "will do my best", "you got it", "you have got it",
    "consider it done", "i am all for it", "all for it", "in", "that is the plan", "so be it"))
"""(v16) Consent idioms said as a comma part of their own ("Will do, good luck with the rest", "Yep, can do that.",
"You got it.", "Consider it done", "Yup. In.", "Agree.", "That's the plan.", "So be it, ..."): consent in other words
(D1)."""
_IDIOM_LAST = frozenset(p[-1] for p in _IDIOM_PARTS)
"""(v16) The last words of :data:`_IDIOM_PARTS` (a clause holding none of them says none)."""


def _idiom_part(words: list[str]) -> bool:
    """(v16) A comma part of the clause, its opening interjections passed, is a consent idiom of
    :data:`_IDIOM_PARTS`, with no condition, negation or hedge before it in the clause ("if you want, you got it"
    waits on its condition).

    >>> [_idiom_part(t.split()) for t in ("yep , can do that", "will do , good luck", "you got it", "if so , agree",
    ...                                    "you can do that", "in")]
    [True, True, True, False, False, True]
    """
    seg = 0
    n = len(words)
    for i in [*(i for i, w in enumerate(words) if w == ","), n]:
        part = words[seg:i]
        rest = tuple(part[_interjections_passed(part):])
        if tuple(part) in _IDIOM_PARTS:
            rest = tuple(part)  # "so be it": its "so" is the idiom's, no interjection
        if rest in _IDIOM_PARTS:
            before = words[:seg + len(part) - len(rest)]
            return not any(b in ("if", "unless", "not", "no", "never") or b in HEDGES for b in before)
        seg = i + 1
    return False


def _interjections_passed(part: list[str]) -> int:
    """The index of the first word of ``part`` after its opening interjections ("ok then, ..."); "no", "nope" and
    "not" are not passed (they deny what follows).

    >>> _interjections_passed("ok then as you say".split()), _interjections_passed("no deal".split())
    (2, 0)
    """
    j = 0
    while j < len(part) and part[j] in INTERJECTIONS and part[j] not in ("no", "nope", "not"):
        j += 1
    return j


def _deal_said(words: list[str], rest: list[str], at: int) -> bool:
    """"deal!", "ok, deal", "deal, heading to ...": "deal" / "done" opening a part that says nothing else,
    not "no deal" / "bad deal" (:data:`._frames.DEAL_NEGATORS`), and standing (:func:`_consent_at`)."""
    return bool(rest) and rest[0] in ("deal", "done") and all(
        x in ("deal", "done", "then", "now", "too", "friend") for x in rest) and not (
        at > 0 and words[at - 1] in DEAL_NEGATORS) and _consent_at(words, at, at + 1)


def _it_is(rest: list[str]) -> bool:
    """"alliance it is", "10 it is" (not "what it is", "that it is")."""
    return len(rest) >= 3 and rest[-2:] == ["it", "is"] and rest[-3] not in ("what", "that", "how", "where", "this",
                                                                            "who")


def _number_works(rest: list[str]) -> bool:
    """"10 works", "$35 works"."""
    priced = rest[1:] if rest[:1] == ["$"] else rest
    return len(priced) == 2 and _DIGITS.fullmatch(priced[0]) is not None and priced[1] == "works"


def _will_do(rest: list[str]) -> bool:
    """"Will do.", "I will do that": consent to what was asked (D1), when it is the whole clause (its opening
    interjections and, since v15, its commas passed: "Ok, will do." as "Ok will do", the way :func:`_as_you_say`'s
    idioms are read)."""
    return rest in (["will", "do"], ["can", "do"], ["i", "will", "do", "that"], ["will", "do", "that"])


_YIELDING = frozenset({"say", "wish", "do"})
"""(v14) Words every whole-clause idiom holds: the last words of :func:`_as_you_say`'s, (v15) the "do" of
:func:`_will_do`'s."""


def _as_you_say(rest: list[str]) -> bool:
    """(v14) "As you say.", "Ok then, as you wish", "Whatever you say": the speaker yields to the addressee's terms,
    consent in other words (D1), when it is the whole clause (its opening interjections and commas passed).  Not
    "as you say it is cold" (a report), nor a comparison ("as cold as you say").

    >>> [_as_you_say(t.split()) for t in ("as you say", "as you say it is", "whatever you wish")]
    [True, False, True]
    """
    return rest in (["as", "you", "say"], ["as", "you", "wish"], ["whatever", "you", "say"],
                    ["whatever", "you", "wish"])


def _consent_frame(words: list[str]) -> bool:
    """R20's "that's fair" and "that's fine with me" as a frame, not a list: "that", "this", "it"
    (or "its") and a copula ("is", "will be", "would be", "should be", "seems", "sounds") before
    a word of consent ("fine", "fair", "ok", "acceptable", ...), in any tense: "that will be fine",
    "I think its fair".  Not when it is asked, negated, hedged, conditional or taken back
    (:func:`_consent_at`), nor "fair to say", nor an opinion on something else ("the water is fine")."""
    for i in [i for i, w in enumerate(words) if w in CONSENT_WORDS]:
        if i > 0 and words[i - 1] in ("more", "less"):
            continue  # "this is more reasonable": one offer weighed against another, no consent
        j = i - 1
        while j >= 0 and words[j] in _DEGREE:
            j -= 1
        k = j
        while k >= 0 and (words[k] in _COPULAS or (words[k] in _DO_SUPPORT and k < j) or (
                words[k] in _ADVERBS_BETWEEN and k < j)):
            k -= 1  # (v11) "that actually does seem fair": an adverb and an emphatic "does" inside the copula
        if k == j or all(words[x] not in _COPULAS for x in range(k + 1, j + 1)):
            continue
        if _said_of_something(words, i, i + 1):
            continue  # "it is fair to say", "seems fine for camping", "fair for me to get": no consent
        if k < 0 or words[k] in INTERJECTIONS:
            # no subject: "Seems reasonable, ...", "sounds fine to me" (like R20's "sounds fair")
            if words[k + 1] in ("seems", "sounds", "looks") and all(w in INTERJECTIONS for w in words[:k + 1]) \
                    and _consent_at(words, k + 1, i + 1):
                return True
            continue
        if words[k] in PROPOSAL_NOUNS and k > 0 and words[k - 1] in ("your", "that", "this", "the"):
            k -= 1  # "your offer is fair", "that split sounds fine": the proposal named as the subject
        elif words[k] not in _CONSENT_SUBJECTS:
            continue
        if _relative_that(words, k):
            continue  # "a split that is fair to both": a relative "that"
        if _consent_at(words, k, i + 1):
            return True
    return False


def _consent_act(words: list[str]) -> bool:
    """R20's "I agree", "I'll take it", "I can do that" as a frame, not a list: the speaker as subject
    ("I", "we", "let's"), a chain of modals and frames that commit ("will", "would", "can", "am
    happy to", "definitely"; a hedge, a negation or any other word breaks the chain), then a verb
    of consent whose object is the proposal itself ("that", "this", "it", "your offer", "the
    deal"): "I would agree to that", "we can definitely accept your offer", "I'll go (along) with
    this", "let's finalize that".  "agree" and
    "accept" may stand without an object ("I will agree."); "take" and "do" need a modal ("I take
    it you need water" is no consent).  An object that is goods ("I'll take 2 water") is an ask,
    read by the goods rules; asked, negated, conditional or taken back as :func:`_consent_at` says."""
    n = len(words)
    for v in [v for v, w in enumerate(words) if w in CONSENT_VERBS]:
        ahead = words[v] == "submit" and words[max(0, v - 3):v] == ["go", "ahead", "and"]
        s = _chain_start(words, v - 3 if ahead else v)  # (v12) "I'll go ahead and submit it": the speaker's own act
        let_us = s > 0 and words[s - 1] == "let" and words[s] == "us"
        if s < 0 or (words[s] not in ("i", "we") and not let_us):
            continue
        if words[v] in ("take", "do", "go", "work", "live", "settle", "finalize", "spare", "submit") and s == v - 1 and \
                not let_us:
            continue
        o = v + 1
        if words[v] == "go" and words[o:o + 1] == ["along"]:
            o += 1  # "I'll go along with that"
        if words[v] in ("go", "work", "live") or (words[v] == "settle" and words[o:o + 1] == ["for"]):
            if words[o:o + 1] != ["with"] and words[v] != "settle" and not (
                    words[v] == "go" and words[o:o + 1] == ["for"] and words[o + 1:o + 2] in (
                        ["that"], ["this"], ["it"], ["your"])):
                continue  # "I'll go for that", "I'll go for your offer" (not "I'll go for Kessa": a move)
            o += 1
        elif words[v] == "agree" and words[o:o + 1] in (["to"], ["with"]):
            o += 1
        obj = words[o] if o < n else ""
        if obj in _PROPOSAL_DETERMINERS:
            named = _proposal_named(words, o)
            if named == o and obj in _NAME_NEEDED:
                continue  # "I'll take the water": goods, an ask
            o = named
            end = o + 1
        elif obj in ("me", "us") and words[v] == "agree" and words[o - 1] == "to":
            end = o + 1  # "I will agree to me getting 3 food": consent to the split said
        elif words[v] in ("agree", "accept", "finalize", "submit") and obj in ("", ",", "!", "then", "too", "and", "now"):
            end = v + 1  # (v8) "I'm ready to finalize": closing the deal on the table, said with no object; (v12)
            # "I will submit.", "I'll submit then": submitting the deal (R20), its object left out
        else:
            continue
        end = _proposal_by_whom(words, end)
        if words[end:end + 2] in (["no", "problem"], ["no", "worries"], ["no", "prob"]):
            end += 2  # (v11) "I can do that no problem": an idiom of assent closing the consent
        after = words[end] if end < n else ""
        if after not in ("", ",", "!", "then", "too", "and", "if", "as", "now", "for", "so", "getting", "thanks",
                         "thank", "friend", "buddy", "mate", "sounds", "seems", "looks", "since", "because"):
            # "I can do that sounds good": a second clause run on with no stop still ends the object; (v13) "we can
            # do that since you gave me more water": a reason given for the consent closes its object too
            continue  # "I'll do that later", "I can accept that the lake ...": not the proposal
        if _consent_at(words, s, end):
            return True
    return False


def _as_proposed(words: list[str]) -> bool:
    """(v8) The speaker taking terms as the addressee proposed them: "As you suggested, I will take 2 water",
    "ok, as you offered, we'll do that" -- a clause opened by "as you" and a verb of proposing, then the
    speaker and a modal that commits: consent to the addressee's proposal (the terms restated are its).  Not
    negated, hedged or taken back (:func:`_consent_at`); "as you said, I need water" names no act of taking."""
    k = 0
    while k < len(words) and words[k] in INTERJECTIONS and words[k] != "as":
        k += 1  # the clause's opening only: no pass over the clause
    if words[k:k + 2] != ["as", "you"] or k + 2 >= len(words) or words[k + 2] not in _PROPOSED_OR_SAID:
        return False
    s = k + 3
    if s < len(words) and words[s] == ",":
        s += 1
    if s + 2 >= len(words) or words[s] not in ("i", "we") or words[s + 1] not in ("will", "can", "shall"):
        return False
    return words[s + 2] in ("take", "do", "go", "have", "get", "accept", "keep") and _consent_at(words[s:], 0, 3)
    # (read from the speaker on: the "as you suggested" before is the proposal named, no report of it)


def _proposal_by_whom(words: list[str], end: int) -> int:
    """(v8) The end of a proposal named by who made it: "the plan you (have) outlined", "the offer you
    made" -- past "you", "have" / "had" / "just" and a verb of proposing (:data:`_PROPOSED`); else ``end``."""
    if words[end:end + 1] != ["you"] or words[end - 1] not in PROPOSAL_NOUNS:
        return end
    k = end + 1
    while k < len(words) and words[k] in ("have", "had", "just"):
        k += 1
    return k + 1 if k < len(words) and words[k] in _PROPOSED else end


_KEEPING_TO = frozenset({"sticking", "going", "keeping"})
"""Gerunds of keeping to the proposal ("I'm good with sticking to the plan"): the state is toward it."""


def _consent_state(words: list[str]) -> bool:
    """R20's "I'm ok with that" as a frame: the speaker, a copula in any tense ("am",
    "would be", "will be"), a word of contentment ("ok", "fine", "good", "happy", "satisfied",
    "content", "cool", "down", "agreeable") and "with" / "to" the proposal ("that", "this",
    "your offer", "that split"): "I'd be happy with that", "I'm agreeable to that"; and a proposal
    called fair by its name: "that's a fair split", "that seems like a reasonable trade" ("a good
    deal" may praise the speaker's own offer).  Not negated, asked, hedged or taken back (:func:`_consent_at`),
    nor contentment with goods ("I'd be happy with 2 food": an ask)."""
    n = len(words)
    for a in [a for a, w in enumerate(words) if w in CONTENT_WORDS]:
        o = a + 1
        if words[o:o + 1] not in (["with"], ["to"]) and not (words[a] == "down" and words[o:o + 1] == ["for"]):
            continue  # "I'm down for that" as "I'm ok with that"
        o += 1
        if o + 1 < n and words[o] in _KEEPING_TO and words[o + 1] in ("to", "with"):
            o += 2  # (v8) "I'm good with sticking to the original plan": content with keeping to the proposal
        obj = words[o] if o < n else ""
        if obj not in _PROPOSAL_DETERMINERS:
            continue
        named = _proposal_named(words, o)
        if named == o and obj in _NAME_NEEDED:
            continue
        o = named
        if o + 2 < n and words[o + 1] == "you" and words[o + 2] in _PROPOSED and words[o] in PROPOSAL_NOUNS:
            o += 2  # "I'm fine with the deal you proposed": the proposal named by who made it
        if o + 1 < n and words[o + 1] not in _CLAUSE_GOES_ON:
            continue  # "I'm fine with that being ...": something else is said of it
        s = a - 1
        while s >= 0 and (words[s] in _COPULA_CHAIN or words[s] in _DEGREE):
            s -= 1
        if all(w in INTERJECTIONS for w in words[:s + 1]):
            s += 1  # no subject: "Totally fine with that, thanks" is the speaker's
        elif s == a - 1 or words[s] not in ("i", "we"):
            continue
        if _consent_at(words, s, o + 1):
            return True
    for a in [a for a, w in enumerate(words) if w in PROPOSAL_NOUNS and w not in ("one", "plan", "idea")]:
        j = a - 1
        if j < 1 or words[j] not in ("fair", "reasonable", "acceptable", "workable", "equitable", "agreeable"):
            continue  # "that is a good deal" may praise the speaker's own offer
        while j > 0 and words[j - 1] in _DEGREE:
            j -= 1
        k = j - 1
        if k >= 0 and words[k] in ("a", "an"):
            k -= 1
        if k >= 0 and words[k] == "like":
            k -= 1
        c = k
        while k >= 0 and words[k] in _COPULAS:
            k -= 1
        if k < 0 and c >= 0 and words[c] in ("sounds", "seems", "looks"):
            k = 0  # no subject: "Sounds like a reasonable offer", like R20's "sounds fair"
        elif k == c or k < 0 or words[k] not in _CONSENT_SUBJECTS:
            continue
        if _relative_that(words, k):
            continue
        if a + 1 < n and words[a + 1] not in _CLAUSE_GOES_ON:
            continue  # "that is a fair split of the food if ...": terms, not consent
        if _consent_at(words, k, a + 1):
            return True
    return False


def _chain_start(words: list[str], v: int) -> int:
    """The index of the word before the chain of committing words (:data:`COMMITTING`: "will", "can", "am willing
    to") that stands before the verb at ``v`` (-1 when the chain opens the clause): where its subject should be.

    >>> _chain_start("i am willing to make that deal".split(), 4), _chain_start("will do".split(), 1)
    (0, -1)
    """
    s = v - 1
    while s >= 0 and words[s] in COMMITTING:
        s -= 1
    return s


def _speaker_commits(words: list[str], v: int) -> int:
    """The index of the speaker ("I", "we") whose chain of committing words (:func:`_chain_start`) stands before
    the verb at ``v``, -1 when there is none (a chain needs a word before the verb: "we make that deal" is no
    commitment to it).

    >>> _speaker_commits("i am willing to make that deal".split(), 4), _speaker_commits("we make it".split(), 1)
    (0, -1)
    """
    s = _chain_start(words, v)
    return s if s >= 0 and s < v - 1 and words[s] in ("i", "we") else -1


def _deal_made(words: list[str]) -> bool:
    """R20's statement that the two now have a deal, with or without its article: "you have deal",
    "we got a deal", "let's make the deal", "yes we can make a deal" -- not a hope ("I hope we can
    make a deal"), a deal still to be found ("make a deal that works"), or a demand ("... and you
    have a deal", R18)."""
    n = len(words)
    for i in [i for i, w in enumerate(words) if w in DEAL_NOUNS]:
        j = i - 1
        while j >= 0 and words[j] in ("good", "fair", "great", "nice", "solid", "sweet", "mutually", "beneficial",
                                      "reasonable"):
            j -= 1
        pointed = j >= 0 and words[j] in ("this", "that")
        if j >= 0 and words[j] in ("a", "an", "the", "this", "that", "our"):
            j -= 1  # (v14) "an" too: "glad we could reach an agreement", "we were able to reach an arrangement"
        if j >= 0 and words[j] in ("yourself", "yourselves", "ourselves"):
            j -= 1  # "you have yourself a deal"
        if j >= 2 and words[j - 2:j + 1] == ["come", "up", "with"]:
            j -= 2  # "we've come up with a good deal": read at "come"
        if j < 1:
            continue
        if words[j] in ("made", "reached", "struck", "found", "come") and words[j - 1] == "have" and j > 1 and \
                words[j - 2] == "we":
            start = j - 2  # "we have made a deal", "we've come up with a good deal", "we have reached a compromise"
        elif words[j] in ("make", "reach", "strike", "find") and j > 3 and words[j - 4:j] == ["we", "were", "able", "to"]:
            start = j - 4  # "we were able to make a mutually beneficial deal": a deal made
        elif words[j] in ("make", "reach", "strike") and j > 1 and words[j - 2:j] == ["we", "could"] and \
                not _GLAD.isdisjoint(words[max(0, j - 5):j - 2]):
            start = j - 2  # (v8) "glad we could make a deal": gladness at a deal made, as "glad we could work it out"
        elif words[j] == "make" and pointed and (speaker := _speaker_commits(words, j)) >= 0:
            start = speaker  # (v12) "I am willing to make that deal": the deal on the table made
        elif words[i] != "deal" and not (words[j] in ("have", "got") and words[j - 1] == "we"):
            continue  # (v8) "we have a fair arrangement / compromise": a deal the two have, as "we have a deal"
        elif words[j] in ("have", "got") and words[j - 1] in ("you", "we", "got", "have"):
            start = j - 1 if words[j - 1] in ("you", "we") else j - 2
        elif words[j] == "make" and words[j - 1] in ("us", "can"):
            start = j - 2
            if start < 0 or words[start] not in ("let", "we"):
                continue
            if not HOPED.isdisjoint(words[max(0, start - 4):start]) or "think" in words[max(0, start - 3):start]:
                continue  # "I'm sure we can make a deal": a deal still to come
        else:
            continue
        if start < 0 or (i + 1 < n and words[i + 1] in ("that", "where", "which", "so", "with", "to")):
            continue
        if not WISHED.isdisjoint(words[max(0, start - 4):start]):
            continue  # "I hope we have reached an agreement soon": a wish
        if _consent_at(words, start, i + 1):
            return True
    return False


def _found_fair(words: list[str]) -> bool:
    """The speaker finds the proposal acceptable: "I find that acceptable", "we find this a fair deal",
    "I find it reasonable" -- the speaker, "find", the proposal ("that", "this", "it"), a word of
    consent (after "a" / "an" and degree words), a name of a proposal or none, and the clause's end
    or a word that ends what is consented to.  "I find it fair to say ..." says something else; not
    negated, asked, hedged or taken back (:func:`_consent_at`)."""
    n = len(words)
    for f in [f for f, w in enumerate(words) if w == "find"]:
        s = f - 1
        while s >= 0 and words[s] in ("do", "really", "also", "definitely", "totally", "honestly"):
            s -= 1
        if s < 0 or words[s] not in ("i", "we") or f + 2 >= n or words[f + 1] not in _CONSENT_SUBJECTS:
            continue
        k = f + 2
        if words[k] in ("a", "an"):
            k += 1
        while k < n and words[k] in _DEGREE:
            k += 1
        if k >= n or words[k] not in CONSENT_WORDS or _said_of_something(words, k, k + 1):
            continue
        end = k + 1
        if end < n and words[end] in PROPOSAL_NOUNS:
            end += 1
        if end < n and words[end] not in _CLAUSE_GOES_ON:
            continue
        if _consent_at(words, s, end):
            return True
    return False


_TROUBLE = frozenset({"problem", "problems", "issue", "issues", "objection", "objections", "complaint",
                      "complaints"})
"""Nouns of trouble that, denied of the proposal, consent to it (:func:`_no_trouble`)."""

_TROUBLE_SEEN = frozenset({"see", "have", "got", "find", "foresee", "had"})
"""Verbs between a negation and a noun of trouble ("I don't see a problem with that")."""

_TROUBLE_BETWEEN = frozenset({"a", "an", "any", "real", "big", "major", "particular", "really", "honestly"})
"""Words that may stand between the negation and the noun of trouble ("no real problem", "not see any issue"),
and between the negation and the verb ("do not really see")."""


def _no_trouble(words: list[str]) -> bool:
    """(v10) D1's consent in other words: no trouble with the proposal -- "I have no problem with that", "I don't
    see a problem with that", "no objections to your offer".  A noun of trouble (:data:`_TROUBLE`) denied ("no"
    before it, or "not" / "never" before a verb of seeing or having, :data:`_TROUBLE_SEEN`; a few words such as
    "any" between, :data:`_TROUBLE_BETWEEN`), then "with" or "to" and the proposal ("that", "this", "it", or a
    proposal named: "your offer", "the deal"; "no problem with the water" is about goods, no consent), closing
    its clause or followed by a word that ends what is consented to; no condition before it in the clause ("if
    you give me the food I have no problem with that": a counter-offer, D5); not taken back
    (:func:`_consent_at`, read from the denial).  "I have a problem with that" denies nothing: no consent.

    >>> _no_trouble("yes . i have no problem with that".split()), _no_trouble("i do not see a problem with it".split())
    (True, True)
    >>> _no_trouble("i have a problem with that".split()), _no_trouble("no problem with the water".split())
    (False, False)
    >>> _no_trouble("i have no problem with that if i get the food".split())
    False
    """
    n = len(words)
    for i in [i for i, w in enumerate(words) if w in _TROUBLE]:
        if i + 2 >= n or words[i + 1] not in ("with", "to"):
            continue
        o = i + 2
        obj = words[o]
        if obj not in _PROPOSAL_DETERMINERS:
            continue
        named = _proposal_named(words, o)
        if named == o and obj in _NAME_NEEDED:
            continue  # "no problem with the water": goods
        end = named + 1
        if end < n and words[end] not in _CLAUSE_GOES_ON and words[end] not in ("at", "."):
            continue  # "no problem with that water": said of something else
        k = i - 1
        while k >= 0 and words[k] in _TROUBLE_BETWEEN:
            k -= 1
        if k >= 0 and words[k] == "no":
            denied = k
        elif k >= 1 and words[k] in _TROUBLE_SEEN:
            denied = k - 1
            while denied >= 0 and words[denied] in _TROUBLE_BETWEEN:
                denied -= 1
            if denied < 0 or words[denied] not in ("not", "never"):
                continue
        else:
            continue
        if not {"if", "unless", "provided"}.isdisjoint(words[:denied]):
            continue
        if _consent_at(words, denied, end):
            return True
    return False


_WORKED = frozenset({"work", "worked"})
"""The verb of "we worked it out" (:func:`_worked_out`)."""
_FOUND_OR_WORKED = _WORKED | {"find"}
"""A clause holding none of these is read by neither :func:`_found_fair` nor :func:`_worked_out`."""
_PART_OR_FRAME_WORDS = _PART_WORDS | _FOUND_OR_WORKED
"""A clause holding none of these is read by nothing :func:`_consent_part` reads."""


def _worked_out(words: list[str]) -> bool:
    """A deal said to be reached by working it out: "we worked it out", "glad we could work this out",
    "great, we've worked things out" -- the speaker's "we", "work" and "it" / "this" / "that" / "things"
    and "out".  The present "we can work it out" is a hope of a deal to come, so "work" counts only after
    a word of gladness ("glad we could work it out"); "worked" is a deal done.  Not negated, asked,
    hedged or taken back (:func:`_consent_at`)."""
    n = len(words)
    for v in [v for v, w in enumerate(words) if w in _WORKED]:
        if v + 2 >= n or not (words[v + 1] in ("it", "this", "that", "things", "something") and words[v + 2] == "out"
                              or words[v + 1] == "out" and words[v + 2] == "something"):
            continue  # (v8) "something": "glad we were able to work out something for both of us"
        s = v - 1
        while s >= 0 and words[s] in ("could", "did", "have", "had", "finally", "all", "were", "able", "to"):
            s -= 1
        if s < 0 or words[s] != "we" or (words[v] == "work" and s == v - 1):
            continue
        if words[v] == "work" and _GLAD.isdisjoint(words[max(0, s - 3):s]) and words[s + 1:v] != ["were", "able", "to"]:
            continue  # "we can work it out": a hope, not a deal done ("we were able to work it out" is one)
        if v + 3 < n and words[v + 3] not in _CLAUSE_GOES_ON:
            continue
        if _consent_at(words, s, v + 3):
            return True
    return False


_GLAD = frozenset({"glad", "happy", "great", "nice", "good", "pleased"})
"""Words of gladness before "we could work it out" that make it a deal done (:func:`_worked_out`)."""


_SAID = frozenset({"said", "says", "told", "tells", "mentioned", "claimed", "claims", "suggested", "thought"})
"""Verbs that, after another's subject, report what that one said or thought."""


def _consent_at(words: list[str], start: int, end: int) -> bool:
    """Not negated, hedged, conditional, tagged onto a demand ("... and you have a deal"), or taken back."""
    before = words[max(0, start - 4):start]
    if "but" in before:  # (v9) "not ideal but I can work with that": a concession, negating nothing after it
        before = before[len(before) - before[::-1].index("but"):]
    if "problem" in before or "worries" in before:
        before = _no_problem_dropped(before)  # (v8) "no problem, glad we could make a deal": no negation
    hedges = () if "agreement" in words[start:end] or "glad" in words[max(0, start - 5):start] else HEDGES
    # "glad we could come to an agreement / a conclusion": "could" there is no hedge
    if any(b in ("not", "never", "no", "if", "unless", "hardly") or b in hedges for b in before):
        return False
    if _conditioned(words, start):
        return False  # (v15) "If so, I'm ready to submit the deal": a consent once a condition holds (D5)
    if "sure" in before and "make" in before:
        return False  # (v8) "let's make sure this is reasonable": a check of the terms, no consent (R3)
    if not _CONCEDING.isdisjoint(before) and "," in words[end:]:
        return False  # (v8) "While your offer is fair, I need the water": conceded in passing, not consent
    if any(words[k] in _SAID and words[k - 1] in ("you", "he", "she", "they") for k in range(max(1, start - 4), start)):
        return False  # "you said it's a deal": another's words reported, not the speaker's consent (R8)
    if words[start] in ("come", "reached") and not HOPED.isdisjoint(before):
        return False  # "I'm sure we can come to an agreement": a hope of a deal to come (R20)
    if start > 0 and words[start - 1] in ("and", "then") and words[start] in ("you", "we", "it") and \
            not INTERJECTIONS.issuperset(words[:start - 1]):
        return False  # "make it 3 sheep and you have a deal": a demand (R18); (v9) but not "Okay, then we have
        # a deal", where no demand stands before the "then" (a discourse word)
    if words[start] == "deal" and start > 0 and words[start - 1] in DEAL_NEGATORS:
        return False
    if words[start] == "submit" and (start == 0 or words[start - 1] in ("and", "please", "go")):
        return False  # "go ahead and submit the deal": an order
    if _amended(words, end):
        return False  # (v11) "I will take the deal minus 1 pack of food": the proposal amended, a counter (D5)
    if _own_terms_before(words, start):
        return False  # (v11) "I will take 2, it will be fair": the speaker's own terms called fair (D5)
    after = words[end:end + 2]
    if after[:1] in (["is"], ["off"], ["with"], ["breaker"], ["over"], ["was"], ["to"]) and words[start] == "deal":
        return False
    if "but" in words[end:] or "although" in words[end:] or "though" in words[end:-1]:
        return False  # "sounds fair, but I need all the water", "that's ok, although I need water": taken back
        # (R21); "that works though" closing the clause is no concession
    if words[end - 1] in ("fair", "reasonable") and (words[end:end + 1] in (["since"], ["because"], ["as"], [
            "considering"]) or words[end:end + 2] in (["being", "that"], ["given", "that"], ["seeing", "that"])):
        return False  # "I think it's pretty fair since we both get ...", "it'd be fair being that you're getting
        # ...": an argument for terms, no consent
    if words[end - 1] == "deal" and after[:1] in (["breaker"], ["breakers"], ["killer"]):
        return False  # "that's a deal breaker": a refusal (R21)
    if not {"if", "unless", "provided"}.isdisjoint(words[end:end + 2]) and words[end + 1:end + 3] not in (
            ["you", "want"], ["you", "like"], ["you", "wish"]):
        return False  # "I'll do that if I can have 2 of the food": a condition, a counter (R18, D5)
    for j in range(end, min(end + 6, len(words))):
        if words[j] in (",", "but", "and", "so") and j > end:
            break
        if (words[j] in ("if", "provided") or words[j:j + 3] == ["as", "long", "as"]) and \
                _speaker_receives(words, j):
            return False  # "Deal, as long as I get the water", "works for me if I could get ...": a counter (D5)
    return True


def _conditioned(words: list[str], start: int) -> bool:
    """(v15) The consent is the consequent of a condition stated before it in the clause: an "if" followed by "so",
    or by a "then" before the consent ("If so, I am ready to submit the deal", "I'd be okay if you can add another
    water, your choice, and then I can agree to that").  The speaker consents only once the condition holds -- a
    counter-offer or a question of terms still open (the guide's D5) -- no ``accept``.  A condition on the
    addressee's mind with no "then" ("If you're sure, I'm willing to take your offered deal") leaves the consent
    standing, as a condition after a consent does unless it asks goods for the speaker (:func:`_speaker_receives`).

    >>> _conditioned("if so , i am ready to submit the deal".split(), 7)
    True
    >>> _conditioned("if you add a water , then i can agree to that".split(), 9)
    True
    >>> _conditioned("if you are sure , i am willing to take your deal".split(), 9)
    False
    """
    for k in range(start - 1, -1, -1):
        if words[k] == "if" and (words[k + 1:k + 2] == ["so"] or "then" in words[k + 2:start]):
            return True
    return False


_AMENDING = frozenset({"minus", "except", "excluding", "plus", "less", "without"})
"""Words that, standing just after a consent, amend the proposal it takes ("the deal minus 1 food")."""
_NOT_AMENDING = frozenset({"a", "any", "doubt", "question", "questions", "hesitation", "problem", "problems",
                           "issue", "issues", "complaint", "complaints", "fail", "worry", "worries"})
"""Words after "without" that amend nothing ("works for me without a doubt", "without any problem")."""


def _amended(words: list[str], end: int) -> bool:
    """(v11) A word that changes the proposal stands within four words after the consent, before any comma
    or "and" ("I will take the deal minus 1 pack of food", "I accept your offer except the water", "that
    works for me without the firewood"): the speaker takes the proposal only on terms of its own, a
    counter-offer (the guide's D5), no ``accept``.  "without" amends only when goods could follow it, not
    "without a doubt" or "without any problem".

    >>> _amended("i will take the deal minus 1 pack of food".split(), 5)
    True
    >>> _amended("that works for me without a doubt".split(), 4)
    False
    """
    for k in range(end, min(end + 4, len(words))):
        if words[k] in (",", "and", "but", "so", "!"):
            return False
        if words[k] in _AMENDING:
            return words[k] != "without" or words[k + 1:k + 2] == [] or words[k + 1] not in _NOT_AMENDING
    return False


_OWN_TERMS_VERBS = frozenset({"take", "get", "keep", "have"})
"""Verbs of the speaker's own share ("I will take 2")."""
_NUMBER_NAMES = frozenset(w for w, n in NUMBER_WORDS.items()
                          if 1 <= n <= 6 and w not in ("a", "an", "single", "couple", "pair", "both"))
"""Numbers in words a share may be said with ("I get two"): the plain cardinals one to six of the number
words (a campsite share counts at most a few of a good)."""


def _own_terms_before(words: list[str], start: int) -> bool:
    """(v11) The words just before a consent state the speaker's own share with a number ("I will take 2
    it will be fair", "so I get 3, that is fine"): the consent judges the speaker's own terms, not the
    addressee's proposal, a counter-offer (the guide's D5), no ``accept``.  The share is the speaker's
    ("i" or "we" within three words before the verb) and ends at most three words before the consent.

    >>> _own_terms_before("i will take 2 it will be fair".split(), 4)
    True
    >>> _own_terms_before("you take 2 it will be fair".split(), 3)
    False
    """
    for k in range(max(1, start - 5), start - 1):
        if words[k] in _OWN_TERMS_VERBS and (_DIGITS.fullmatch(words[k + 1]) or words[k + 1] in _NUMBER_NAMES) \
                and not {"i", "we"}.isdisjoint(words[max(0, k - 3):k]) and start - (k + 1) <= 3:
            return True
    return False


_CONCEDING = frozenset({"while", "although", "though", "whereas", "whilst"})
"""Words opening a concession: a consent inside one, before the comma that ends it, is no consent."""


def _no_problem_dropped(before: list[str]) -> list[str]:
    """(v8) The words before a consent without "no problem", "not a problem", "no worries": an idiom of
    assent, whose "no" / "not" negates nothing that follows it.

    >>> _no_problem_dropped("not a problem glad".split())
    ['glad']
    """
    out: list[str] = []
    k = 0
    while k < len(before):
        if before[k] in ("no", "not") and before[k + 1:k + 2] in (["problem"], ["worries"]):
            k += 2
        elif before[k] == "not" and before[k + 1:k + 3] == ["a", "problem"]:
            k += 3
        else:
            out.append(before[k])
            k += 1
    return out


def _speaker_receives(words: list[str], end: int) -> bool:
    """A condition after a consent that asks goods for the speaker ("..., if I can have 2 food", "as
    long as I get the water"): the consent takes the proposal only on terms the message adds, a
    counter-offer, no ``accept`` (the guide's D5); a condition that names no goods for the speaker
    ("as long as you are ok with it") leaves the consent standing.

    >>> _speaker_receives("i agree if i can also have 2 food".split(), 2)
    True
    >>> _speaker_receives("fine as long as you give me water".split(), 1)
    True
    >>> _speaker_receives("fine as long as you are ok with it".split(), 1)
    False
    """
    k = end
    while k < len(words) and words[k] in (",", "if", "as", "long", "provided", "that"):
        k += 1
    if k == end or k >= len(words):
        return False
    if words[k] == "you" and k + 1 < len(words):
        k += 1  # "as long as you give me water": goods for the speaker too
        while k < len(words) and words[k] in ("can", "will", "would", "also", "just", "then"):
            k += 1
        return k + 1 < len(words) and words[k] in GIVE_VERBS and words[k + 1] in ("me", "us")
    if words[k] not in ("i", "we"):
        return False
    k += 1
    while k < len(words) and words[k] in ("can", "could", "also", "still", "may", "just", "at", "least", "get", "to",
                                          "will", "am", "be", "able", "allowed", "happy"):
        if words[k] == "get" and words[k + 1:k + 2] != ["to"]:
            break
        k += 1
    return k < len(words) and words[k] in ("have", "get", "keep", "take", "receive", "gets", "has")
