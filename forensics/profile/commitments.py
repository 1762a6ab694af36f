"""Commitments in message text: the extractor interface and a readable heuristic extractor.

Seed 002 §2.8 (*Promise-keeping / betrayal*): extract commitments from messages,
verify each against the event log that follows (:mod:`.promises`).  Extraction is
the one step of the behavioral profile that is *not* a pure function of the
events, so it sits behind a small interface (:class:`CommitmentExtractor`: a
``name``, a ``version`` and ``extract(text)``) that a better extractor (a
model-backed one) can replace, and every number that rests on it carries the
extractor's name and version.  Its precision and recall are measured, not
assumed: ``bench/commitments.py`` scores it against the labelled set
``tests/fixtures/commitments.jsonl``.

What a commitment is (the labelling guide the set follows):

=============  ===========================================  ===========================
kind           the speaker commits to                       examples
=============  ===========================================  ===========================
``trade``      hand over ``give`` in exchange for           "I'll give you 3 wood for 2 ore",
               ``receive``                                  "selling 5 plank for 20 wood",
                                                            "give me 2 ore and I give you 3 wood"
``give``       hand over ``give``, nothing asked back        "sending you 5 food now", "here is 2 ore"
``accept``     take the addressee's proposal                 "deal", "agreed", "I accept your offer"
``no_attack``  no attack, raid or theft on the addressee     "I won't attack you", "truce", "no fight"
``meet``       be at ``region``                              "meet me at r_4_5", "I'll be at r_2_3"
=============  ===========================================  ===========================

Not commitments: questions ("3 wood for 2 ore?", "can we meet at r_1_1?"),
except a statement closed by a tag (", ok?", ", deal?"); requests ("give me 2
ore", "don't attack me"); threats ("I will attack you"); refusals and negated
promises ("I won't give you wood", "no deal"); hedges ("maybe I'll give you
wood", "I might", "I could"); claims about the past or the present ("I sent you 3
wood", "I'm at r_4_5"); what third parties will do ("Bob will give you ore").  A
bluff *is* a commitment (whether it was kept is the verifier's business).  A
quantity the text does not give is ``None`` ("some wood", "your ore").

How :class:`HeuristicExtractor` reads (rules, in order):

1. It looks at the first :data:`MAX_TEXT_CHARS` characters of the text only (a
   message can be megabytes; a commitment sits near the start of a game message),
   lower-cased, and reports when it cut.
2. One linear tokenizer (:data:`_TOKEN`, character classes and a bounded
   repetition only, no nested quantifiers, so no backtracking blow-up) splits it into
   words and punctuation; contractions are expanded ("I'll" → "i will", "won't" →
   "will not").  Everything after is plain Python over the token list, O(tokens).
3. Clauses end at ``. ! ? ;`` and new lines; a clause ending in ``?`` is a
   question and is skipped unless what follows its last comma is a tag word ("ok",
   "deal", "right", ...).  A clause splits again at "or" (alternative offers).
4. *Items*: an item word (``wood``, ``woods``, ``logs``, ``iron``, ...; the item
   values' names plus :data:`ITEM_SYNONYMS`) with a quantity before it (digits,
   ``3x``, a number word, "a") or right after it ("wood x3", "wood 3").
5. *Sides*: walking the clause, a give verb whose subject is the speaker ("I
   will give", "we send", "let me pay", a leading gerund "sending", "here is", an
   imperative "take") puts the items after it on the speaker's *give* side; a give
   verb whose subject is "you", or whose object is "me" ("give me"), puts them on
   the *receive* side, as does a receive verb of the speaker ("I'll take", "I need",
   "looking for", "buying", a telegraphic clause-initial "need"); the connector
   "for" / "in exchange for" / "->" before an item flips the side.  Items before any
   verb, followed by "for", are the speaker's give side ("3 wood for 2 ore").  The
   subject of a verb is the nearest pronoun before it, and a reporting verb in
   between ("I saw Bob heading ...", "Bob said ...") makes it someone else; a
   negation ("not", "never", "no", "refuse") or a hedge ("maybe", "might", "could",
   ...) between subject and verb, or a hedge just before the subject, cancels the
   speaker's side.  Past tenses ("sent", "paid") are claims, on nobody's side.
6. A clause with both sides is a ``trade``; with only a give side reached through a
   give verb, a ``give`` (``conditional`` when the clause holds "if", "when",
   "once", "unless" or "as long as": the condition is not goods, so the verifier
   cannot check it); with only a receive side, nothing (a request).
7. ``no_attack``: an aggression verb ("attack", "raid", "steal", "rob", "hurt",
   "kill", "fight", ...) whose subject is the speaker with a negation before it ("I
   won't attack you", "I promise not to raid"), but not "I won't hesitate/stop to
   attack"; or a peace word ("truce", "ceasefire", "non-aggression", "peace", "you
   are safe", "I mean no harm", "no attack" not followed by "me" or "please").
8. ``meet``: a region token ``r_<x>_<y>`` after "meet" ("meet me at r_4_5", "let's
   meet at ...", "see you at ...") or after a motion verb of the speaker ("I'll be
   at", "I am heading to", "omw to").  "I am at r_4_5" is a claim, not a commitment.
9. ``accept``: "deal" (not "no deal", "bad deal", "deal is off", "deal with"),
   "agreed", "I agree", "(I) accept(ed)", "I'll take it", "let's do it" -- only in a
   clause that produced no ``trade`` or ``give`` (where "deal" restates the terms).

Known blind spots (measured by the bench, listed so nobody has to rediscover them):
a trade split over two sentences ("I'll give you 3 wood. You give me 2 ore.") reads
as a ``give``; context-only acceptances ("sure", "yes", "ok") are not read; item
words outside the vocabulary ("berries") are not items; a statement of a plan
("I'm planning to go to r_8_2") reads as a ``meet``.

Versions: 1 was frozen before the held-out half of the labelled set was written;
2 adds the reporting-verb and clause-initial "need" rules, found on the
simulator's chatter (not on the held-out set), and scores the same on it.

>>> ex = HeuristicExtractor()
>>> [c.terms() for c in ex.extract("I'll give you 3 wood for 2 ore").commitments]
[('trade', {'wood': 3}, {'ore': 2}, None)]
>>> [c.kind for c in ex.extract("3 wood for 2 ore?").commitments]
[]
>>> [c.kind for c in ex.extract("I won't attack you. Meet me at r_4_5!").commitments]
['no_attack', 'meet']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from daishi_forensics.read.archive import DEFAULT_ITEM_VALUES

__all__ = [
    "KINDS",
    "MAX_TEXT_CHARS",
    "ITEM_SYNONYMS",
    "Commitment",
    "CommitmentExtractor",
    "HeuristicExtractor",
    "Extracted",
    "extractor_info",
    "tokens",
]

KINDS: tuple[str, ...] = ("trade", "give", "accept", "no_attack", "meet")
"""The commitment kinds, in report order."""

MAX_TEXT_CHARS = 2000
"""The extractor reads at most this many characters of a message (rule 1)."""

ITEM_SYNONYMS: Mapping[str, str] = {
    "woods": "wood", "log": "wood", "logs": "wood", "lumber": "wood", "timber": "wood",
    "stones": "stone", "rock": "stone", "rocks": "stone",
    "ores": "ore", "iron": "ore",
    "foods": "food", "meat": "food", "bread": "food", "ration": "food", "rations": "food",
    "fibers": "fiber", "fibre": "fiber", "fibres": "fiber",
    "planks": "plank", "board": "plank", "boards": "plank",
    "tools": "tool",
    "cloths": "cloth", "fabric": "cloth",
}
"""Words read as an item (plurals and common synonyms), besides the item names themselves."""

Items = tuple[tuple[str, "int | None"], ...]
"""An item map as a sorted tuple of ``(item, quantity or None)``."""


@dataclass(frozen=True, slots=True)
class Commitment:
    """One commitment the speaker made in a message (before it is addressed and verified)."""

    kind: str
    """One of :data:`KINDS`."""
    give: Items = ()
    """What the speaker will hand over (``trade``, ``give``), sorted by item."""
    receive: Items = ()
    """What the speaker asks in return (``trade``), sorted by item."""
    region: str | None = None
    """Where the speaker will be (``meet``)."""
    conditional: bool = False
    """The clause states a condition the verifier cannot check ("if you help me ...")."""
    start: int = 0
    """Offset of the clause in the (capped) text."""
    end: int = 0
    """End offset of the clause in the (capped) text."""

    def terms(self) -> tuple[str, dict[str, int | None], dict[str, int | None], str | None]:
        """``(kind, give, receive, region)`` with plain dicts: what the bench compares."""
        return (self.kind, dict(self.give), dict(self.receive), self.region)

    def to_json(self) -> dict[str, Any]:
        """JSON form (only the fields the kind uses, plus ``conditional``)."""
        out: dict[str, Any] = {"kind": self.kind, "conditional": self.conditional, "span": [self.start, self.end]}
        if self.kind in ("trade", "give"):
            out["give"] = dict(self.give)
        if self.kind == "trade":
            out["receive"] = dict(self.receive)
        if self.kind == "meet":
            out["region"] = self.region
        return out


@dataclass(frozen=True, slots=True)
class Extracted:
    """What an extractor found in one text."""

    commitments: tuple[Commitment, ...]
    """In text order."""
    truncated: bool
    """The text was longer than the extractor reads (:data:`MAX_TEXT_CHARS`)."""
    mentions: tuple[str, ...] = ()
    """Lower-cased word tokens of the capped text, in order (for addressee look-up)."""


@runtime_checkable
class CommitmentExtractor(Protocol):
    """The interface an extractor implements (a model-backed one can replace the heuristic).

    ``extract`` must be total (never raise on any string) and deterministic, and
    read at most ``max_chars`` characters.
    """

    name: str
    """Stable identifier, printed with every number that rests on it."""
    version: str
    """Bumped whenever its output on some text can change."""
    max_chars: int
    """How much of a text it reads."""

    def extract(self, text: str) -> Extracted:
        """The commitments in ``text`` (in text order)."""


def extractor_info(extractor: CommitmentExtractor) -> dict[str, Any]:
    """``{"name", "version", "maxChars"}``: the label every extractor-based number carries."""
    return {"name": extractor.name, "version": extractor.version, "maxChars": extractor.max_chars}


# -- tokens --------------------------------------------------------------------------------

_TOKEN = re.compile(r"[a-z0-9_']{1,64}|[?.!;,:\n>=+&/-]")
"""Words (bounded length) and the punctuation the rules read; everything else is a gap.
One character class per alternative, no nesting: linear time."""

_CONTRACTIONS: Mapping[str, tuple[str, ...]] = {
    "won't": ("will", "not"), "wont": ("will", "not"), "can't": ("can", "not"), "cant": ("can", "not"),
    "cannot": ("can", "not"), "shan't": ("shall", "not"), "ain't": ("am", "not"), "dont": ("do", "not"),
    "didnt": ("did", "not"), "im": ("i", "am"), "ive": ("i", "have"), "ill": ("i", "will"),
    "let's": ("let", "us"), "lets": ("let", "us"), "here's": ("here", "is"), "it's": ("it", "is"),
    "that's": ("that", "is"), "you're": ("you", "are"), "youre": ("you", "are"), "you've": ("you", "have"),
    "gonna": ("going", "to"), "wanna": ("want", "to"), "gotta": ("got", "to"), "u": ("you",),
    "ur": ("your",), "ya": ("you",), "pls": ("please",), "plz": ("please",), "omw": ("on", "my", "way"),
    "wts": ("selling",), "wtb": ("buying",), "k": ("ok",), "okay": ("ok",), "np": ("ok",),
}
_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("n't", "not"), ("'ll", "will"), ("'d", "would"), ("'m", "am"), ("'re", "are"), ("'ve", "have"),
)


def tokens(text: str) -> list[tuple[str, int]]:
    """Lower-cased tokens of ``text`` with their offsets; contractions expanded (rule 2).

    >>> [t for t, _ in tokens("I'll give U 3 wood, won't I?")]
    ['i', 'will', 'give', 'you', '3', 'wood', ',', 'will', 'not', 'i', '?']
    """
    out: list[tuple[str, int]] = []
    lowered = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    lowered = lowered.replace("->", " for ").replace("=>", " for ")
    lowered = lowered.replace("non-aggression", "nonaggression").replace("cease-fire", "ceasefire")
    contractions = _CONTRACTIONS
    for m in _TOKEN.finditer(lowered):
        word = m.group()
        at = m.start()
        if "'" in word:
            word = word.strip("'") or word
        expansion = contractions.get(word)
        if expansion is not None:
            out.extend((w, at) for w in expansion)
        elif "'" not in word:
            out.append((word, at))
        else:
            out.extend((w, at) for w in _split_apostrophe(word))
    return out


def _split_apostrophe(word: str) -> tuple[str, ...]:
    """``"we'll"`` → ``("we", "will")``; ``"bob's"`` → ``("bob",)``."""
    for suffix, expansion in _SUFFIXES:
        if len(word) > len(suffix) and word.endswith(suffix):
            base = word[: -len(suffix)]
            if suffix == "n't":
                base = {"wo": "will", "ca": "can", "sha": "shall"}.get(base, base)
            return (base, expansion)
    if word.endswith("'s"):
        return (word[:-2],)
    return (word,)


# -- vocabulary ------------------------------------------------------------------------------

_NUMBER_WORDS: Mapping[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "fifty": 50, "hundred": 100, "dozen": 12, "couple": 2, "single": 1,
}
_VAGUE_QUANTITY = frozenset({"some", "your", "my", "the", "his", "her", "their", "all", "more", "extra", "spare",
                             "few", "any", "of", "our", "that", "this", "those", "these"})
_FILLERS = frozenset({"units", "unit", "pieces", "piece", "bundles", "bundle", "bags", "bag", "stacks", "stack",
                      "fresh", "good", "fine", "raw", "spare", "extra", "more", "of", "x", "pcs", "pc"})
_SPEAKER = frozenset({"i", "we", "me", "us"})
_YOU = frozenset({"you"})
_THIRD = frozenset({"he", "she", "they", "him", "her", "them", "it", "someone", "anyone", "nobody", "everyone",
                    "everybody", "somebody", "who", "that", "this"})
_PRONOUNS = _SPEAKER | _YOU | _THIRD
_NEGATIONS = frozenset({"not", "never", "no", "refuse", "refuses", "decline", "unable", "nothing", "nor"})
_HEDGES = frozenset({"maybe", "might", "perhaps", "possibly", "could", "probably", "unsure", "guess",
                     "consider", "considering", "thinking", "think", "wonder", "depends"})
_GIVE_VERBS = frozenset({"give", "giving", "send", "sending", "pay", "paying", "hand", "handing", "gift",
                         "gifting", "transfer", "transferring", "offer", "offering", "provide", "providing",
                         "bring", "bringing", "deliver", "delivering", "share", "sharing", "drop", "dropping",
                         "spare", "lend"})
_OFFER_VERBS = frozenset({"sell", "selling", "trade", "trading", "swap", "swapping", "exchange", "exchanging",
                          "barter", "bartering"})
"""Verbs whose items are the speaker's give side but that need a price to be a commitment."""
_RECEIVE_VERBS = frozenset({"want", "need", "buy", "buying", "take", "taking", "get", "getting", "accept",
                            "seek", "seeking", "wanting", "needing", "require", "purchase"})
_GERUNDS_IMPLICIT_SPEAKER = frozenset({"sending", "giving", "offering", "paying", "selling", "trading",
                                       "swapping", "gifting", "handing", "delivering", "bringing", "buying",
                                       "seeking", "dropping", "sharing", "providing"})
_PAST_VERBS = frozenset({"traded", "gave", "sent", "paid", "sold", "swapped", "exchanged", "offered", "bought",
                         "took", "got", "delivered", "brought", "handed", "gifted", "shared", "dropped",
                         "received", "stole", "given", "lent"})
"""A claim about the past: the items after it are on nobody's side."""
_NOUN_AFTER = frozenset({"final", "my", "your", "an", "the", "good", "best", "this", "that", "new", "last", "first",
                         "his", "her", "their", "our", "fair", "bad", "great", "nice", "a", "no", "any", "what"})
"""A verb that is also a noun ("offer", "trade") is a noun after these words ("final offer")."""
_MODALS = frozenset({"will", "shall", "would", "can", "do", "am", "to"})
_REPORTING = frozenset({"saw", "see", "seen", "heard", "hear", "said", "says", "told", "tells", "noticed",
                        "watched", "spotted", "reported", "claims", "claimed", "thinks", "believes"})
"""Verbs that report someone else's doing: "I saw Bob heading to r_1_1" is not the speaker's move."""
_CONDITIONS = frozenset({"if", "when", "once", "unless", "provided", "whenever"})
_TAGS = frozenset({"ok", "deal", "yes", "right", "yeah", "agreed", "alright", "fair", "good", "sound", "sounds",
                   "cool", "fine", "yea", "please", "friend", "yes?", "no", "eh", "hm", "then"})
_AGGRESSION = frozenset({"attack", "attacking", "attacks", "raid", "raiding", "raids", "steal", "stealing",
                         "rob", "robbing", "hit", "hitting", "hurt", "hurting", "harm", "harming", "kill",
                         "killing", "fight", "fighting", "ambush", "ambushing", "betray", "backstab", "touch",
                         "hunt", "hunting", "strike", "attacked", "theft"})
_NOT_RESTRAINT = frozenset({"hesitate", "stop", "wait", "forget", "fail", "mind", "let", "afraid", "scared",
                            "regret", "quit", "able"})
_PEACE_WORDS = frozenset({"truce", "ceasefire", "nonaggression", "non_aggression", "armistice", "peace", "peaceful"})
_MOTION = frozenset({"go", "going", "head", "heading", "come", "coming", "move", "moving", "walk", "walking",
                     "travel", "traveling", "travelling", "be", "wait", "waiting", "stay", "staying", "return",
                     "returning", "arrive", "arriving", "way", "run", "running", "camp", "camping", "hang"})
_REGION = re.compile(r"r_[0-9]{1,4}_[0-9]{1,4}")
_DIGITS = re.compile(r"[0-9]{1,9}")
_TIMES_BEFORE = re.compile(r"([0-9]{1,9})x")
_TIMES_AFTER = re.compile(r"x([0-9]{1,9})")
_BOUNDARY = frozenset({".", "!", "?", ";", "\n"})
_ACCEPT_WORDS = frozenset({"deal", "agreed", "accepted", "agree", "accept", "accepting", "take", "do"})
_EXCHANGE_CUES = _GIVE_VERBS | _OFFER_VERBS | _RECEIVE_VERBS | _PAST_VERBS | {
    "for", "exchange", "return", "here", "looking", "look", "searching", "asking"}
"""Every rule-5 side change starts at one of these words."""
_NO_ATTACK_CUES = _AGGRESSION | _PEACE_WORDS | {"non", "safe", "harm"}
"""Every rule-7 branch starts at one of these words."""
_DEAL_NEGATORS = frozenset({"no", "not", "bad", "terrible", "unfair", "raw", "any", "what", "never", "worst",
                            "off", "new", "better", "another", "different", "real"})


def _quantity(token: str) -> tuple[bool, int | None]:
    """``(is a quantity, value)``; value None for a vague quantity ("some")."""
    if _DIGITS.fullmatch(token):
        return True, int(token)
    m = _TIMES_BEFORE.fullmatch(token)
    if m:
        return True, int(m.group(1))
    if token in _NUMBER_WORDS:
        return True, _NUMBER_WORDS[token]
    return False, None


@dataclass(slots=True)
class _ItemHit:
    at: int  # token index of the item word
    item: str
    quantity: int | None


class HeuristicExtractor:
    """The rule-based extractor described in the module docstring.

    Parameters
    ----------
    items:
        Item names to recognise (the archive's item values); the contract's
        defaults when omitted.  Synonyms from :data:`ITEM_SYNONYMS` map onto them.
    """

    name = "daishi-heuristic"
    version = "2"
    max_chars = MAX_TEXT_CHARS

    def __init__(self, items: Iterable[str] | None = None) -> None:
        names = sorted(set(items) if items is not None else set(DEFAULT_ITEM_VALUES))
        words = {n: n for n in names}
        for word, item in ITEM_SYNONYMS.items():
            if item in words and word not in words:
                words[word] = item
        for n in names:  # a plain plural for items the synonyms do not know
            words.setdefault(n + "s", n)
        self._items: dict[str, str] = words
        self._item_words: frozenset[str] = frozenset(words)
        # Every rule needs one of these words (or a region) in the clause: a clause
        # without any is skipped unread.
        self._triggers: frozenset[str] = frozenset(words) | _AGGRESSION | _PEACE_WORDS | _ACCEPT_WORDS | {
            "non", "safe", "harm"}

    # -- public ------------------------------------------------------------------------------

    def extract(self, text: str) -> Extracted:
        """Every commitment in the first :data:`MAX_TEXT_CHARS` characters of ``text``."""
        if not isinstance(text, str):
            return Extracted((), False)
        truncated = len(text) > self.max_chars
        capped = text[: self.max_chars]
        toks = tokens(capped)
        found: list[Commitment] = []
        seen: set[tuple[Any, ...]] = set()
        regions = "r_" in capped.lower()  # a region token needs one (rule 8)
        for clause in self._clauses(toks, len(capped)):
            for c in self._clause(clause, regions):
                key = (c.kind, c.give, c.receive, c.region)
                if key not in seen:  # the same promise twice in one message is one promise
                    seen.add(key)
                    found.append(c)
        mentions = tuple([t for t, _ in toks if t not in _BOUNDARY])
        return Extracted(tuple(found), truncated, mentions)

    # -- clauses -----------------------------------------------------------------------------

    def _clauses(self, toks: list[tuple[str, int]], length: int) -> Iterable[list[tuple[str, int]]]:
        """Rule 3: statements split at sentence ends, questions dropped, then split at "or"."""
        current: list[tuple[str, int]] = []
        for tok in toks + [("\n", length)]:
            if tok[0] not in _BOUNDARY:
                current.append(tok)
                continue
            clause = current
            current = []
            if not clause:
                continue
            if tok[0] == "?":
                clause = self._strip_tag(clause)
                if clause is None:
                    continue
            segment: list[tuple[str, int]] = []
            for t in clause + [("or", -1)]:
                if t[0] in ("or", "alternatively", "otherwise"):
                    if segment:
                        yield segment + [("\n", t[1] if t[1] >= 0 else tok[1])]
                    segment = []
                else:
                    segment.append(t)

    @staticmethod
    def _strip_tag(clause: list[tuple[str, int]]) -> list[tuple[str, int]] | None:
        """A question is a statement only when a tag ("ok", "deal") follows its last comma."""
        last_comma = max((i for i, (t, _) in enumerate(clause) if t == ","), default=-1)
        if last_comma < 0:
            return None
        tail = [t for t, _ in clause[last_comma + 1:]]
        if tail and all(t in _TAGS for t in tail):
            return clause[:last_comma]
        return None

    # -- one clause ----------------------------------------------------------------------------

    def _clause(self, clause: list[tuple[str, int]], regions: bool = True) -> list[Commitment]:
        words = [t for t, _ in clause]
        # Each rule needs its own cue words (checked with set operations first, so a
        # clause that cannot hold a rule's commitment skips that rule's walk).
        regions = regions and any(w.startswith("r_") for w in words)
        if self._triggers.isdisjoint(words) and not regions:
            return []
        start = clause[0][1]
        end = clause[-1][1]
        out: list[Commitment] = []
        conditional = not _CONDITIONS.isdisjoint(words) or (
            "long" in words and _has_phrase(words, ("as", "long", "as")))
        exchanged = False
        if not self._item_words.isdisjoint(words):
            exchange = self._exchange(words)
            if exchange is not None:
                give, receive, explicit_give = exchange
                if give and receive:
                    out.append(Commitment("trade", _items(give), _items(receive), None, False, start, end))
                    exchanged = True
                elif give and explicit_give:
                    out.append(Commitment("give", _items(give), (), None, conditional, start, end))
                    exchanged = True
        if not _NO_ATTACK_CUES.isdisjoint(words) and self._no_attack(words):
            out.append(Commitment("no_attack", (), (), None, conditional, start, end))
        if regions:
            for region in self._meet(words):
                out.append(Commitment("meet", (), (), region, False, start, end))
        if not exchanged and not _ACCEPT_WORDS.isdisjoint(words) and self._accept(words):
            out.insert(0, Commitment("accept", (), (), None, False, start, end))
        return out

    def _item_hits(self, words: list[str]) -> list[_ItemHit]:
        """Rule 4: item words with their quantities."""
        hits: list[_ItemHit] = []
        for i, w in enumerate(words):
            item = self._items.get(w)
            if item is None:
                continue
            quantity: int | None = None
            found = False
            for back in (1, 2):
                if i - back < 0:
                    break
                ok, q = _quantity(words[i - back])
                if ok:
                    quantity, found = q, True
                    break
                if words[i - back] not in _FILLERS:
                    break
            if not found and i + 1 < len(words):
                nxt = words[i + 1]
                m = _TIMES_AFTER.fullmatch(nxt)
                if m:
                    quantity = int(m.group(1))
                elif _DIGITS.fullmatch(nxt) and not (i + 2 < len(words) and words[i + 2] in self._items):
                    quantity = int(nxt)
            hits.append(_ItemHit(i, item, quantity))
        return hits

    def _exchange(self, words: list[str]) -> tuple[list[_ItemHit], list[_ItemHit], bool] | None:
        """Rule 5: the give and receive sides; None when the clause names no item."""
        hits = self._item_hits(words)
        if not hits:
            return None
        by_index = {h.at: h for h in hits}
        give: list[_ItemHit] = []
        receive: list[_ItemHit] = []
        pending: list[_ItemHit] = []  # items before any verb
        priced: list[_ItemHit] = []  # items after a leading "for"
        side: str | None = None  # "give", "receive", "void" (negated / third party)
        explicit_give = False
        i = 0
        n = len(words)
        while i < n:
            w = words[i]
            if i in by_index:
                hit = by_index[i]
                if side == "give":
                    give.append(hit)
                elif side == "receive":
                    receive.append(hit)
                elif side is None:
                    pending.append(hit)
                elif side == "priced":
                    priced.append(hit)
                i += 1
                continue
            if w not in _EXCHANGE_CUES:  # every branch below starts at one of these words
                i += 1
                continue
            if w == "for" or (w == "exchange" and i > 0 and words[i - 1] == "in") or (
                w == "return" and i > 0 and words[i - 1] == "in"
            ):
                if self._item_within(words, i + 1, by_index):
                    j = i + 1 if w == "for" else (i + 2 if i + 1 < n and words[i + 1] == "for" else i + 1)
                    prior = side if side is not None else ("give" if pending else "priced")
                    if side is None and pending:
                        give.extend(pending)
                        pending = []
                    if prior == "priced":
                        side = "priced"  # "for 2 ore I'll give you 5 wood"
                    elif prior == "give":
                        side = "receive"
                    elif prior == "receive":
                        side = "give"
                    elif prior == "void":
                        side = "void"
                    i = j
                    continue
            if w == "here" and i + 1 < n and words[i + 1] in ("is", "are", "you"):
                side, explicit_give = "give", True
                i += 2
                continue
            if w in ("looking", "look", "searching", "asking") and i + 1 < n and words[i + 1] == "for":
                who = self._subject(words, i)
                side = "receive" if who in ("speaker", None) and not self._cancelled(words, i) else "void"
                i += 2
                continue
            if w in _PAST_VERBS:
                side = "void"
                i += 1
                continue
            if (w in _GIVE_VERBS or w in _OFFER_VERBS or w in _RECEIVE_VERBS) and i > 0 and words[i - 1] in _NOUN_AFTER:
                i += 1  # "final offer", "your trade": a noun
                continue
            if w in _GIVE_VERBS or w in _OFFER_VERBS:
                side, gives = self._give_frame(words, i)
                explicit_give = explicit_give or (gives and w in _GIVE_VERBS)
                i += 1
                continue
            if w in _RECEIVE_VERBS:
                side = self._receive_frame(words, i)
                if side == "give":
                    explicit_give = True
                i += 1
                continue
            i += 1
        if priced and give and not receive:
            receive = priced
        elif priced and receive and not give:
            give = priced
        return give, receive, explicit_give

    def _item_within(self, words: list[str], at: int, by_index: Mapping[int, _ItemHit]) -> bool:
        """An item word among the next three tokens (a "for" that prices goods, not "for free")."""
        for k in range(at, min(at + 4, len(words))):
            if k in by_index:
                return True
            if words[k] in (",", "and", "if", "i", "you"):
                return False
        return False

    def _subject(self, words: list[str], verb: int) -> str | None:
        """The nearest pronoun before the verb: ``speaker``, ``you``, ``third`` or None (none found)."""
        for k in range(verb - 1, max(verb - 7, -1), -1):
            w = words[k]
            if w in _SPEAKER:
                return "speaker"
            if w in _YOU:
                return "you"
            if w in _THIRD or w in _REPORTING:
                return "third"
            if w in self._items or _quantity(w)[0] or w == ",":
                # Items or a comma between a pronoun and the verb: a new frame begins at the
                # verb; "..., will pay 4 wood" (a modal and no subject) is the speaker's.
                return "speaker" if k + 1 < verb and words[k + 1] in _MODALS else None
        return None

    @staticmethod
    def _cancelled(words: list[str], verb: int) -> bool:
        """A negation or hedge between the verb's subject (or the clause start) and the verb."""
        for k in range(verb - 1, max(verb - 7, -1), -1):
            w = words[k]
            if w in _NEGATIONS or w in _HEDGES:
                return True
            if w in _PRONOUNS:
                # "maybe I'll give": a hedge just before the subject counts too
                return any(words[j] in _HEDGES for j in range(max(k - 2, 0), k))
            if w == ",":
                return False
        return False

    def _give_frame(self, words: list[str], i: int) -> tuple[str, bool]:
        """The side a give/offer verb opens, and whether the speaker is the giver."""
        obj = words[i + 1] if i + 1 < len(words) else ""
        who = self._subject(words, i)
        if who == "you" or (who is None and obj in ("me", "us")):
            if obj in ("him", "her", "them"):
                return "void", False
            return ("void" if self._cancelled(words, i) and who is None else "receive"), False
        if who == "third":
            return "void", False
        if who == "speaker":
            if obj in ("me", "us"):
                return "receive", False
            return ("void" if self._cancelled(words, i) else "give"), True
        # No subject: a leading gerund or "please send" is the speaker's own offer; a bare
        # imperative ("give bob 3 wood") is not.
        if words[i] in _GERUNDS_IMPLICIT_SPEAKER or words[i] in _OFFER_VERBS:
            return ("void" if self._cancelled(words, i) else "give"), True
        return "void", False

    def _receive_frame(self, words: list[str], i: int) -> str:
        """The side a receive verb opens ("I'll take", "need", "buying"; imperative "take" gives)."""
        who = self._subject(words, i)
        if who == "speaker" or (who is None and words[i] in _GERUNDS_IMPLICIT_SPEAKER):
            if words[i] in ("take", "taking") and i + 1 < len(words) and words[i + 1] in ("it", "that", "this"):
                return "void"
            return "void" if self._cancelled(words, i) else "receive"
        if who is None and words[i] == "take" and not self._cancelled(words, i):
            return "give"  # "take 3 wood": the addressee takes, the speaker gives
        if who is None and words[i] in ("need", "want", "needing", "wanting", "require") and (
            i == 0 or words[i - 1] in (",", ":", "still", "really", "also", "urgently", "badly")
        ):
            return "receive"  # telegraphic "need 2 wood, paying in stone": the speaker needs
        if who == "you" and words[i] in ("take", "get"):
            return "give"  # "you get 3 wood": the speaker gives
        return "void"

    # -- no_attack ---------------------------------------------------------------------------

    def _no_attack(self, words: list[str]) -> bool:
        """Rule 7."""
        n = len(words)
        for i, w in enumerate(words):
            if w in _AGGRESSION:
                nxt = words[i + 1] if i + 1 < n else ""
                prev = words[i - 1] if i > 0 else ""
                if prev == "no" and nxt not in ("me", "us", "please") and "please" not in words:
                    # "no attack", "no fighting between us"; not "no attack me" / "no attacks please"
                    if i < 2 or words[i - 2] not in ("you", "they", "he", "she"):
                        return True
                negated = False
                for k in range(i - 1, max(i - 8, -1), -1):
                    v = words[k]
                    if v in _NOT_RESTRAINT:
                        break
                    if v in ("not", "never", "no"):
                        negated = True
                        continue
                    if v in _SPEAKER or (v == "us" and k > 0 and words[k - 1] == "let"):
                        if negated and not any(h in words[k:i] for h in _HEDGES):
                            return True
                        break
                    if v in _YOU or v in _THIRD or v == ",":
                        break
            if w in _PEACE_WORDS:
                prev = words[i - 1] if i > 0 else ""
                nxt = words[i + 1] if i + 1 < n else ""
                if prev in ("no", "break", "broke", "breaking", "end", "ending") or nxt in ("is", "over", "ended"):
                    continue
                if w == "peace" and prev == "rest":
                    continue
                return True
            if w == "non" and i + 1 < n and words[i + 1] == "aggression":
                return True
            if w == "safe" and i > 0 and words[i - 1] in ("are", "is", "feel", "stay") and not any(
                x in words[:i] for x in ("not", "never")
            ):
                if any(x in words[:i] for x in ("you", "your")):
                    return True
            if w == "harm" and i > 1 and words[i - 1] == "no" and words[i - 2] in ("mean", "intend", "want"):
                return True
            if w == "peace" and i > 1 and words[i - 1] == "in" and words[i - 2] in ("come", "came"):
                return True
        return False

    # -- meet --------------------------------------------------------------------------------

    def _meet(self, words: list[str]) -> list[str]:
        """Rule 8: the regions the speaker commits to be at, in order, each once."""
        regions: list[str] = []
        n = len(words)
        for i, w in enumerate(words):
            if not w.startswith("r_") or not _REGION.fullmatch(w):
                continue
            if w in regions:
                continue
            for k in range(i - 1, max(i - 7, -1), -1):
                v = words[k]
                if v in ("meet", "meeting", "rendezvous", "regroup", "see"):
                    if v == "see" and not (k + 1 < n and words[k + 1] in ("you", "ya")):
                        break
                    if not self._meet_cancelled(words, k):
                        regions.append(w)
                    break
                if v in _MOTION:
                    who = self._subject(words, k)
                    implicit = v == "way" and k >= 2 and words[k - 2] == "on"
                    if (who == "speaker" or implicit) and not self._meet_cancelled(words, k):
                        regions.append(w)
                    break
                if v in (",", "and") or v in self._items or _REGION.fullmatch(v):
                    break
        return regions

    @staticmethod
    def _meet_cancelled(words: list[str], verb: int) -> bool:
        for k in range(verb - 1, max(verb - 6, -1), -1):
            w = words[k]
            if w in ("not", "never", "no") or w in _HEDGES or w in _THIRD:
                return True
            if w in _YOU or w == ",":
                return False
        return False

    # -- accept ------------------------------------------------------------------------------

    def _accept(self, words: list[str]) -> bool:
        """Rule 9."""
        n = len(words)
        for i, w in enumerate(words):
            nxt = words[i + 1] if i + 1 < n else ""
            if w == "deal":
                before = words[max(0, i - 3):i]
                if any(b in _DEAL_NEGATORS for b in before) or nxt in ("with", "is", "off", "breaker"):
                    continue
                if any(b in _HEDGES for b in words[:i]):
                    continue
                return True
            if w in ("agreed", "accepted", "agree", "accept", "accepting"):
                before = words[max(0, i - 4):i]
                if any(b in ("not", "never", "no", "can") for b in before if b != "can") or "not" in before:
                    continue
                if any(b in _HEDGES for b in before):
                    continue
                if w in ("agree", "accept", "accepting") and self._subject(words, i) != "speaker":
                    continue
                if w == "agree" and nxt == "to":
                    continue  # "I agree to give you ..." is read by the give rules
                return True
            if w == "take" and nxt in ("it", "that") and self._subject(words, i) == "speaker" and not self._cancelled(
                words, i
            ):
                return True
            if w == "do" and i >= 2 and words[i - 2:i] == ["let", "us"] and nxt in ("it", "this", "that"):
                return True
        return False


def _has_phrase(words: list[str], phrase: tuple[str, ...]) -> bool:
    k = len(phrase)
    return any(tuple(words[i:i + k]) == phrase for i in range(len(words) - k + 1))


def _items(hits: list[_ItemHit]) -> Items:
    """Merge hits into a sorted item map (quantities add; an unknown quantity stays unknown)."""
    merged: dict[str, int | None] = {}
    for h in hits:
        if h.item in merged:
            old = merged[h.item]
            merged[h.item] = None if old is None or h.quantity is None else old + h.quantity
        else:
            merged[h.item] = h.quantity
    return tuple(sorted(merged.items()))
