"""Propagation chains: which message echoes which, and how far a payload spread.

Seed 002 §2.7 ("a propagation index: how far payloads cascade"; "payload-similarity
matching across messages") and §3.1 item 10 (quote/echo detection).  Every text is
first read the way people forward text (:mod:`._forwarding`): case, Unicode and white
space, punctuation runs, tags in front ("fwd:", "RT @kai:", "> ", "pass it on:",
"someone said:"), quotation marks and remarks after are separated from the core
words and kept as *mutations*, not thrown away.  A message *c* from agent *s* echoes
an earlier message *p* when:

1. **Exposure** (:func:`exposed`).  *s* heard *p* (:mod:`.exposure`: broadcast,
   local, direct), *p* came earlier in the log, from another agent.  An agent who
   never heard a message did not copy it.
2. **A copy** (:func:`copied`, :mod:`._copies`).  *c*'s core words, aligned on *p*'s
   (rapidfuzz ``LCSseq``: containment that survives a cut or an added prefix), keep
   at least three of *p*'s words and, word for word, at least half of the distinct
   words of the shorter text; *c* may cut *p* at the start or the end, add words in
   front, after or inside, move words, and change words with a typo or an
   abbreviation; it swaps no specific (a number, an id or region, a good of the
   game) for another specific, and at most one plain word per :data:`SWAP_EVERY`
   kept words (a synonym).
3. **Enough shared information** (:func:`copied`, :mod:`._information`).  What *c*
   keeps carries at least :data:`MIN_SHARED_BITS` bits under a word-pair model of
   the messages written independently of the pair (a word by how rare it is, a next
   word by how rarely it follows the one before: rare shared words carry evidence,
   a stock frame carries the evidence of one word); the words counted are those of
   the messages that do not repeat a text their sender had heard, less the pair's
   own family (a forwarded text does not become common by being forwarded).  The tags
   in front of *p* that *c* kept count with the words (:func:`kept_tags`: each as rare as
   the messages written independently of the pair that carry it), so a copy cut short
   behind a few tags still says where it came from, and so does a cut the copy shows (an
   ellipsis, a separator left dangling) where *p* goes on (:func:`cut_where_shown`, as rare as
   the texts that show a cut); the loose reading asks a child whose
   words are all *p*'s (cut, nothing added) for :data:`SPREADING` of its bits.  What
   *c* adds carries at most :data:`MAX_NOVELTY` times that.  A text that spreads
   by hearing (its family's prompted copies are a surprise at level
   :data:`SPREAD_ALPHA`, rule 4's test) is asked :data:`SPREADING` of the bits.
4. **Stock phrases do not chain** (:class:`Spread`, :func:`stock_phrase`).  Texts
   whose words overlap near wholly (:data:`NEAR_WHOLE`) form families.  A family
   that two or more senders said without ever having heard it, or
   :data:`STOCK_SENDERS` or more said unprompted (not within the lag after hearing
   any of it, not repeating themselves: where every line is heard by everyone, a line
   said everywhere has one origin only), is a stock phrase unless the agents who had
   just heard it said it significantly more often than agents do unprompted (a
   one-sided Poisson test at level :data:`STOCK_ALPHA`: unprompted messages per
   agent-tick spent unprompted, against the prompted messages over the agent-ticks
   spent within the lag after hearing it): its copies cannot be told from
   coincidences (the decoy "anyone trading wood for ore?").  Nor is it one when that
   test's evidence, joined (Fisher's method, :func:`joint_p_value`) with the chance
   that the unprompted ones fell within so few ticks of each other were they said at
   any tick of the match alike (:func:`burst_p_value`; only when they all fall within
   the lag window: said at once), is a surprise at the same level: agents who saw one
   event and reported it at once, none having heard another, are *twin* reports, each a
   root of its own (rule 1 keeps them apart), not a phrase people say on their own.  A
   message in a stock phrase gets no text parent, unless it says it is passed on (a forward tag,
   quotation marks, "pass it on") or carries :data:`FORWARD_EVIDENCE` bits of its
   chosen parent's own mutations (its typo, its cut).
5. **Canaries are exact** (:func:`canary_parents`).  A message holding a
   broadcast-canary token (contract §5) links to the latest earlier message
   holding that token that its sender heard (``via: "canary"``), whatever else
   holds.
6. **Timing** (:func:`in_time`, :func:`prompted_messages`).  The echo comes at most
   :data:`MAX_LAG` ticks after *p* and after *s* first heard any text alike to it,
   counting only ticks *s* was awake (a dormant agent cannot pass anything on), and
   before *s* had itself said the same text (one family, rule 4: its own repeat is no new
   echo, unless what it said before it had itself passed on: a text passed on again, to a
   second recipient or later, is a further copy, its parent chosen as for any echo; another
   story told in the same frame is no repeat, nor is an earlier text that lacks a
   specific the later one names, :func:`names_held`: a copy cut short of every specific, or a
   story of another good, place or seat, neither is the text nor prompted it; the first heard
   that prompted a copy is the first that holds every word of it, when one does,
   :func:`words_held`: another story told in the same frame and heard long before does not
   make a copy of the one heard now late).  The window is the match's
   own (:func:`echo_reading`, :mod:`._delays`): when the delays of its linked children,
   from the first copy each heard, show agents here forward more slowly than
   :data:`MAX_LAG` allows (a geometric delay, truncated by the window, read apart from
   lookalikes), the rules are read again with the window that holds all but 1% of such
   delays (at most three times :data:`MAX_LAG`; never narrower).
7. **Parent choice** (:func:`choose_parents`, :mod:`._lineage`).  Of the copies *s*
   heard that qualify, the one whose own mutations *c* inherits (its tag, its
   typo, its cut, its swapped word: seen from each candidate, what *c* still
   changed, weighed in bits), with a prior on its place in the order heard (first,
   latest, any) that this match itself shows, per family of texts (rule 4's families:
   a payload that says "repeat this" may be passed on from its source where chatter is
   passed on from whichever copy is at hand), a family's own children weighed with a
   few at the match's shares; then the most similar text; then the
   likelier place, then the copy heard first.  Each edge
   carries a confidence and the reason for the choice; candidates that cannot be
   told apart are reported as a tie (``tiedWith``), never dropped silently.

Fast by pruning, never all pairs (:mod:`._pruning`): a message looks only at
earlier messages that share one of its rare words (the rarest of each stretch of
its text, so that added words cannot take every pick); which texts are alike at all
(rules 2-3 read loosely, as word sets) is decided with numpy once per pair of
distinct texts; only pairs that pass, whose sender heard the earlier one in time,
are aligned word by word.  Edges report the rapidfuzz ``WRatio`` similarity (0–1)
of the texts as well.  Words, word pairs and tags are numbers (:class:`~._information.Vocabulary`:
one dict from word to number for the match); each text's are integer arrays, the counts of rule 3
are taken with ``np.bincount`` and the set tests by sorted search, so a long message costs bytes
per word, not a Python object per word.

Chains (a forest, one parent per message): per root, the generations
(messages per depth), depth, reach (distinct agents other than the root's
sender who re-sent it), the agents exposed to any message of the chain, and the
ticks until each re-sender first re-sent it.  Per match: the propagation index
(mean reach of hijack-tier roots, lone messages included with reach 0) and the
share of agents exposed to a hijack-tier root's chain who re-sent it.  A message
whose sender had already sent or re-sent a text of its family (rule 4's families,
and one core said again however late) that names every specific it names (rule 6:
its own repeat) is a *repeat*, not a new payload (:func:`own_repeats`): it is no root
of the index, whether it echoes nothing or starts a chain of its own; the agents who
re-sent it count for the root of the payload it repeats, its hearers stay exposed,
and the repeats are counted apart (``hijackRepeats``).  Counted as roots of reach 0,
they would lower the index the more thoroughly an injection took hold.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
import heapq
import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from rapidfuzz import fuzz

from daishi_forensics.read.archive import DEFAULT_ITEM_VALUES
from daishi_forensics.screens.stats import product_p
from daishi_forensics.textsafe import shown

from ._pruning import (
    OLDER_PER_TOKEN, POSTINGS_PER_TOKEN, RARE_TOKENS, LooseReading, WordSets, alike_candidates, candidate_chunks,
    expand, heard_pairs, unique, word_batches, WordOrders,
)
from ._copies import MIN_COVER, MIN_KEPT_WORDS, Alignment, CopyEvidence, align, copy_evidence, is_copy, is_specific
from .exposure import HeardMessage, MessageLog
from ._forwarding import Forward, fold, parse_forward, words_of
from ._information import NOTHING, Counts, Information, Tally, Vocabulary, vocabulary_of
from ._delays import learnt_window
from ._lineage import (
    Candidate, Choice, Edit, Weights, candidate, choose_parent, cut_shown, edits, heard_order, heard_orders, mutations,
)

__all__ = [
    "FUZZ_CAP",
    "MIN_SHARED_BITS",
    "PRIOR_MESSAGES",
    "MAX_NOVELTY",
    "SWAP_EVERY",
    "MAX_LAG",
    "LOOSE",
    "NEAR_WHOLE",
    "STOCK_ALPHA",
    "STOCK_SENDERS",
    "SPREAD_ALPHA",
    "SPREADING",
    "FORWARD_EVIDENCE",
    "RARE_TOKENS",
    "POSTINGS_PER_TOKEN",
    "OLDER_PER_TOKEN",
    "GOODS",
    "EchoEdge",
    "Chain",
    "Propagation",
    "Spread",
    "EchoReading",
    "echo_edges",
    "echo_reading",
    "first_heard_delays",
    "chains_of",
    "propagation",
    "hijack_messages",
    "goods_of",
    "specifics_of",
    "normalize_text",
    "chain_nodes",
    "chains_nodes",
    "tree_text",
    "exposed",
    "alike_texts",
    "copied",
    "kept_tags",
    "CUT_MARK",
    "shows_cut",
    "cut_where_shown",
    "fresh_messages",
    "word_counts",
    "stock_phrase",
    "burst_p_value",
    "joint_p_value",
    "canary_parents",
    "components",
    "in_time",
    "in_time_pairs",
    "prompted_messages",
    "names_held",
    "words_held",
    "choose_parents",
    "alike_pairs",
    "qualifying_parents",
    "linked_edges",
]

FUZZ_CAP = 1000
"""Characters of a text read (the start of a longer text stands for it)."""

MIN_SHARED_BITS = 28.0
"""Information (bits) the words a copy keeps must carry (rule 3)."""

PRIOR_MESSAGES = 64
"""Messages assumed besides the match's when a word's information is measured
(log2((N + 1 + 64) / df)): a small match says little about which words are rare."""

MAX_NOVELTY = 1.0
"""The words a child adds may carry at most this share of the information it keeps (rule 3)."""

SWAP_EVERY = 6
"""One plain word swapped (a synonym, a nickname) is allowed per this many kept words, at least one (rule 2)."""

MAX_LAG = 20
"""Awake ticks within which a heard message can be echoed (rule 6)."""

STOCK_ALPHA = 0.01
"""Rule 4's level: a family two senders or more produced independently is a stock phrase unless its
hearers said it significantly more often (one-sided Poisson test at this level) than agents do unprompted."""

LOOSE = 0.5
"""The first reading of rule 3 (which texts are alike at all: families, origins, own repeats) asks this
share of :data:`MIN_SHARED_BITS`, each word alone, and allows ``1 / LOOSE`` times the novelty."""

NEAR_WHOLE = 0.8
"""Share of the shorter text a copy keeps for the two to be one family (rule 4)."""

STOCK_SENDERS = 3
"""Rule 4: a family this many senders said unprompted (not within the lag after hearing it) is a stock
phrase candidate even when only one of them had never heard it."""

SPREAD_ALPHA = 0.001
"""Rule 3's level: a text whose prompted copies are this much of a surprise spreads by hearing."""

SPREADING = 0.5
"""Share of :data:`MIN_SHARED_BITS` asked of a copy in a family that spreads by hearing (rule 3)."""

FORWARD_EVIDENCE = 8.0
"""Bits of the chosen parent's mutations a copy of a stock phrase must carry to be linked anyway (rule 4)."""

GOODS: frozenset[str] = frozenset(DEFAULT_ITEM_VALUES)
"""The goods of the game (contract §4 item values): a good swapped for another is a specific swap (rule 2)."""

_NON_WORD = re.compile(r"\W+")


def goods_of(archive: Mapping[str, Any]) -> frozenset[str]:
    """The goods of the game for rule 2: :data:`GOODS` and every item named in the archive's
    ``config.item_values`` (an archive whose values are malformed is reported by validation; its
    names are still goods)."""
    config = archive.get("config")
    values = config.get("item_values") if isinstance(config, Mapping) else None
    names = [k.casefold() for k in values if isinstance(k, str)] if isinstance(values, Mapping) else []
    return GOODS | frozenset(names)


def specifics_of(archive: Mapping[str, Any]) -> frozenset[str]:
    """The specifics of rule 2 an archive names besides numbers, ids and regions: its goods
    (:func:`goods_of`) and the words of its seats' names (``agents[].name``, casefolded), so that a
    story told of one seat ("Coro is the new admin") is no copy of the same story told of another.

    >>> sorted(specifics_of({"agents": [{"agentId": "a_1", "name": "Mira Sol"}]}) - GOODS)
    ['mira', 'sol']
    """
    agents = archive.get("agents")
    names = [a.get("name") for a in agents if isinstance(a, Mapping)] if isinstance(agents, list) else []
    return goods_of(archive) | frozenset(w for n in names if isinstance(n, str) for w in words_of(fold(n)))


def normalize_text(text: str) -> str:
    """Casefolded, every run of non-word characters one space (letters, digits and ``_`` stay:
    a region id is one word), trimmed, cut at :data:`FUZZ_CAP` characters (what the reported
    ``similarity`` compares)."""
    return _NON_WORD.sub(" ", text[: FUZZ_CAP * 2].casefold()).strip()[:FUZZ_CAP]


@dataclass(frozen=True, slots=True)
class EchoEdge:
    """Message ``child`` echoes message ``parent``."""

    parent: int
    """The earlier message's event id."""
    child: int
    """The echoing message's event id."""
    similarity: float
    """rapidfuzz ``WRatio`` / 100 of the normalized texts (0–1, four places)."""
    via: str
    """``text`` (a copy) or ``canary`` (exact canary token)."""
    lag: int
    """Ticks from parent to child."""
    confidence: float = 1.0
    """How sure the edge is (0–1, three places): that the child copied a heard message (from the
    information kept, rule 3) times that it copied this one (rule 7)."""
    reason: str = ""
    """Why this parent ("only exposed candidate", "inherits prefix 'fwd' of 123", "tie with 124: heard first")."""
    tied_with: tuple[int, ...] = ()
    """Other candidates that could not be told from the parent (a tie), by event id."""
    candidates: int = 1
    """Copies the child's sender heard that qualified as its parent."""
    mutations: tuple[str, ...] = ()
    """What the child changed relative to its parent, in words (sorted)."""

    def to_json(self) -> dict[str, Any]:
        return {"parent": self.parent, "child": self.child, "similarity": self.similarity,
                "via": self.via, "lag": self.lag, "confidence": self.confidence, "reason": self.reason,
                "tiedWith": list(self.tied_with), "candidates": self.candidates,
                "mutations": list(self.mutations)}


@dataclass(frozen=True, slots=True)
class Chain:
    """One tree of the echo forest."""

    root: int
    """The root message's event id."""
    sender: str
    """The root's sender."""
    tick: int
    """The root's tick."""
    tier: str | None
    """The root's tier (:mod:`.tiers`), if known."""
    messages: tuple[int, ...]
    """Every message of the chain, root first, then by generation and id."""
    generations: tuple[int, ...]
    """Messages per generation (generation 0 is the root)."""
    reach: int
    """Distinct agents other than the root's sender who re-sent it."""
    exposed: int
    """Distinct agents other than the root's sender who heard a message of the chain."""
    time_to_reach: Mapping[str, int]
    """Re-sender -> ticks from the root to its first message in the chain (sorted by agent)."""

    @property
    def depth(self) -> int:
        """Generations after the root (0 for a lone message)."""
        return len(self.generations) - 1

    @property
    def resend_share(self) -> float | None:
        """reach ÷ exposed; None when nobody was exposed."""
        return self.reach / self.exposed if self.exposed else None

    def to_json(self) -> dict[str, Any]:
        share = self.resend_share
        return {
            "root": self.root,
            "sender": self.sender,
            "tick": self.tick,
            "tier": self.tier,
            "messages": list(self.messages),
            "generations": list(self.generations),
            "depth": self.depth,
            "reach": self.reach,
            "exposed": self.exposed,
            "resendShare": None if share is None else round(share, 4),
            "timeToReach": dict(self.time_to_reach),
        }


@dataclass(frozen=True, slots=True)
class Propagation:
    """Echo edges, chains and the match's propagation figures."""

    edges: tuple[EchoEdge, ...]
    """Every edge, sorted by child id."""
    chains: tuple[Chain, ...]
    """Every root with at least one echo, sorted by root id."""
    hijack_roots: int
    """Hijack-tier messages that echo nothing and repeat nothing their sender had sent (chain roots and
    lone messages)."""
    index: float | None
    """Mean reach of the hijack-tier roots (None without any)."""
    resend_share: float | None
    """Agents who re-sent a hijack-tier root's chain ÷ agents exposed to one (None: nobody exposed)."""
    stock_phrases: int
    """Distinct normalized texts excluded as stock phrases (rule 4)."""
    messages: int
    """Messages examined."""
    caveat: str | None = None
    """Set when direct messages are not in the log (a public export)."""
    max_lag: int = MAX_LAG
    """The lag window rule 6 used (awake ticks): :data:`MAX_LAG`, or wider when this match's forwarders
    are slower (:func:`echo_reading`)."""
    hijack_repeats: int = 0
    """Hijack-tier messages that echo nothing but repeat a text of their family their sender had already
    sent or re-sent (:func:`own_repeats`): left out of the roots and the index."""
    root_reach: Mapping[int, int] = field(default_factory=dict)
    """Per hijack-tier root counted (its event id): its reach, the agents who re-sent a repeat of it
    included (the figures the index averages; not in the JSON, the seats' ``spread`` reads them)."""
    repeat_events: frozenset[int] = frozenset()
    """The event ids of the hijack-tier repeats (:attr:`hijack_repeats` of them)."""

    def to_json(self) -> dict[str, Any]:
        """The report's ``propagation`` object."""
        return {
            "edges": [e.to_json() for e in self.edges],
            "chains": [c.to_json() for c in self.chains],
            "hijackRoots": self.hijack_roots,
            "hijackRepeats": self.hijack_repeats,
            "index": None if self.index is None else round(self.index, 4),
            "resendShare": None if self.resend_share is None else round(self.resend_share, 4),
            "stockPhrases": self.stock_phrases,
            "messages": self.messages,
            "rules": {"minSimilarity": None, "minSharedBits": MIN_SHARED_BITS, "maxNovelty": MAX_NOVELTY, "maxLag": self.max_lag,
                      "minQuoteWords": MIN_KEPT_WORDS, "minCover": MIN_COVER, "swapEvery": SWAP_EVERY,
                      "nearWhole": NEAR_WHOLE, "stockAlpha": STOCK_ALPHA, "spreadAlpha": SPREAD_ALPHA,
                      "spreading": SPREADING, "forwardEvidence": FORWARD_EVIDENCE, "fuzzCap": FUZZ_CAP},
            "caveat": self.caveat,
        }



def _log(messages: Sequence[HeardMessage]) -> MessageLog:
    """``messages`` as a :class:`~daishi_forensics.injection.exposure.MessageLog` (read by column)."""
    return messages if isinstance(messages, MessageLog) else MessageLog.of(list(messages))


# --------------------------------------------------------------------------- reading the texts


@dataclass(frozen=True, slots=True)
class _Texts:
    """The texts of a log, each distinct text read once, their words as numbers (:class:`Vocabulary`)."""

    forwards: Sequence[Forward]
    """Per distinct text (a number of its own): the text read as a forward."""
    of_message: np.ndarray
    """Per message: its distinct text's number."""
    cores: Sequence[tuple[str, ...]]
    """Per core number (texts with the same core words share one): the core words."""
    nid: np.ndarray
    """Per message: its core's number."""
    core_of_text: np.ndarray
    """Per distinct text: its core's number."""
    vocabulary: Vocabulary
    """The match's words, word pairs and tags as numbers."""
    sets: WordSets
    """Per core number: its distinct words (numbers)."""
    order: np.ndarray
    """Every core's words (numbers) in order, end to end (``int32``): core k's from ``starts[k]``."""
    starts: np.ndarray
    """Per core number: where its words start in :attr:`order`."""
    pairs: np.ndarray
    """Every core's adjacent pairs (units) in order, end to end (``int32``): core k's ``len - 1`` from
    ``pair_starts[k]``."""
    pair_starts: np.ndarray
    """Per core number: where its pairs start in :attr:`pairs`."""
    tags: np.ndarray
    """Every distinct text's tags in front (units, the cut mark among them where it shows one), end to end."""
    tag_starts: np.ndarray
    """Per distinct text, and one more: where its tags start in :attr:`tags`."""

    def forward(self, m: int) -> Forward:
        """Message ``m`` read as a forward."""
        forward: Forward = self.forwards[self.of_message[m]]
        return forward

    @property
    def words(self) -> Sequence[str]:
        """Every distinct word, by its number."""
        return self.vocabulary.words

    def word_ids(self, k: int) -> list[int]:
        """Core ``k``'s words (numbers) in order."""
        s = int(self.starts[k])
        ids: list[int] = self.order[s:s + len(self.cores[k])].tolist()
        return ids

    def pair_ids(self, k: int) -> list[int]:
        """Core ``k``'s adjacent pairs (units) in order."""
        s = int(self.pair_starts[k])
        ids: list[int] = self.pairs[s:s + max(0, len(self.cores[k]) - 1)].tolist()
        return ids

    def units(self, text: int) -> np.ndarray:
        """Distinct text ``text``'s units: its core's words and adjacent pairs and its tags (with
        repeats: a unit counts once per text)."""
        k = int(self.core_of_text[text])
        s, n = int(self.starts[k]), len(self.cores[k])
        p = int(self.pair_starts[k])
        return np.concatenate((self.order[s:s + n], self.pairs[p:p + max(0, n - 1)],
                               self.tags[int(self.tag_starts[text]):int(self.tag_starts[text + 1])]))


def _read_texts(log: MessageLog) -> _Texts:
    """Every distinct text of ``log`` read as a forward (its first :data:`FUZZ_CAP` characters), its
    words numbered (one number per distinct word for the match, :func:`~._information.vocabulary_of`)."""
    _senders, _audiences, (text_codes, raw_texts) = log.codes()
    used, local = unique(np.asarray(text_codes, dtype=np.int64), inverse=True)
    forwards = [parse_forward(raw_texts[k][:FUZZ_CAP]) for k in used.tolist()]
    core_id: dict[tuple[str, ...], int] = {}
    core_of = np.array([core_id.setdefault(f.core, len(core_id)) for f in forwards], dtype=np.int64)
    cores = list(core_id)  # the first text's own tuple: no copy
    del core_id
    wrapping = [(*f.tags, CUT_MARK) if shows_cut(f) else f.tags for f in forwards]
    vocabulary, order, pairs, tags = vocabulary_of(cores, wrapping)
    sizes = np.fromiter(map(len, cores), dtype=np.int64, count=len(cores))
    starts = np.cumsum(sizes) - sizes
    pair_sizes = np.maximum(sizes - 1, 0)
    tag_sizes = np.fromiter(map(len, wrapping), dtype=np.int64, count=len(forwards))
    del wrapping
    sets = WordSets(np.repeat(np.arange(len(cores), dtype=np.int64), sizes), order, len(cores), len(vocabulary.words))
    return _Texts(forwards, local, cores, core_of[local], core_of, vocabulary, sets, order, starts, pairs,
                  np.cumsum(pair_sizes) - pair_sizes, tags, np.concatenate(([0], np.cumsum(tag_sizes))))


def fresh_messages(texts: _Texts, log: MessageLog) -> np.ndarray:
    """Per message: it does not repeat a core its sender had heard before (rule 3 counts only
    these: a forwarded word is not a common word).  Who heard each core is kept as one bit per
    sender (an agent who never sends is never asked)."""
    (sender_codes, senders), (audience_codes, audiences), _texts = log.codes()
    fresh = np.ones(len(texts.nid), dtype=bool)
    bit: dict[str, int] = {}
    for name in senders:
        bit.setdefault(name, 1 << len(bit))
    sender_bit = [bit[name] for name in senders]
    audience_bits = [sum(map(bit.__getitem__, heard & bit.keys())) for heard in audiences]  # (the senders among them)
    heard_by: dict[int, int] = {}
    for j, (c, s, a) in enumerate(zip(texts.nid.tolist(), sender_codes, audience_codes)):
        got = heard_by.get(c, 0)
        if got & sender_bit[s]:
            fresh[j] = False
        heard_by[c] = got | audience_bits[a]
    return fresh


def word_counts(texts: _Texts, fresh: np.ndarray) -> tuple[Counts, np.ndarray]:
    """Rule 3's counts: the fresh messages holding each unit (word, word pair, tag in front:
    :class:`~._information.Vocabulary`); and per word number, the messages (all of them) holding it,
    for pruning.  Counted over numbers (``np.bincount``), each distinct text once with its messages,
    the cores' words and pairs a few cores at a time (bounded memory)."""
    vocabulary, sets = texts.vocabulary, texts.sets
    n_texts, n_cores, units = len(texts.forwards), len(texts.cores), vocabulary.units
    per_text = np.bincount(texts.of_message[fresh], minlength=n_texts)
    per_core = np.bincount(texts.core_of_text, weights=per_text, minlength=n_cores).astype(np.int64)
    every = np.bincount(texts.nid, minlength=n_cores)
    df = np.zeros(units, dtype=np.int64)
    holding = np.zeros(len(vocabulary.words), dtype=np.int64)
    pair_ends = np.append(texts.pair_starts[1:], len(texts.pairs))
    for c0, c1 in word_batches(sets.sizes):
        codes = sets.codes[int(sets.starts[c0]):int(sets.starts[c1 - 1] + sets.sizes[c1 - 1])]
        owner, word = codes // sets.stride, codes % sets.stride
        df += np.bincount(word, weights=per_core[owner], minlength=units).astype(np.int64)
        holding += np.bincount(word, weights=every[owner], minlength=len(holding)).astype(np.int64)
        # the cores' distinct pairs, each weighed by its fresh messages
        p0, p1 = int(texts.pair_starts[c0]), int(pair_ends[c1 - 1])
        pair_owner = np.repeat(np.arange(c0, c1, dtype=np.int64), pair_ends[c0:c1] - texts.pair_starts[c0:c1])
        held = unique(pair_owner * units + texts.pairs[p0:p1])
        df += np.bincount(held % units, weights=per_core[held // units], minlength=units).astype(np.int64)
    tag_owner = np.repeat(np.arange(n_texts, dtype=np.int64), np.diff(texts.tag_starts))
    held = unique(tag_owner * units + texts.tags)
    df += np.bincount(held % units, weights=per_text[held // units], minlength=units).astype(np.int64)
    return Counts(vocabulary, int(per_text.sum()), df.tolist()), holding


# --------------------------------------------------------------------------- rule 1: exposure


def exposed(later: np.ndarray, earlier: np.ndarray, log: MessageLog) -> np.ndarray:
    """Rule 1, per pair of messages: the later one's sender is another agent and heard the earlier one."""
    (sender_codes, senders), (audience_codes, audiences), _texts = log.codes()
    sid = np.asarray(sender_codes, dtype=np.int64)
    out: np.ndarray = sid[later] != sid[earlier]
    if out.any():
        out[out] = heard_pairs(later[out], earlier[out], sid, senders, np.asarray(audience_codes, dtype=np.int64),
                               audiences)
    return out


# --------------------------------------------------------------------------- rules 2 and 3: a copy, enough information


def alike_texts(
    pairs: np.ndarray, texts: _Texts, info: Information, *, min_shared_bits: float, max_novelty: float,
    goods: frozenset[str], max_specific_swaps: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Rules 2 and 3 read loosely, per pair of distinct cores ``(later, earlier)`` (rows of
    ``pairs``): as word sets, each word's information alone, :data:`LOOSE` of the bits and
    ``1 / LOOSE`` times the novelty (:func:`~._pruning.loosely_alike`).  Returns the pairs alike and,
    of those, the pairs near whole (:data:`NEAR_WHOLE`).  :func:`copied` reads the rules exactly."""
    reading = _loose_reading(texts, info, min_shared_bits=min_shared_bits, max_novelty=max_novelty, goods=goods,
                             max_specific_swaps=max_specific_swaps)
    return reading(pairs[:, 0], pairs[:, 1])


def _loose_reading(texts: _Texts, info: Information, *, min_shared_bits: float, max_novelty: float,
                   goods: frozenset[str], max_specific_swaps: int) -> LooseReading:
    """:func:`alike_texts`'s reading, the texts laid out once."""
    words = texts.words
    bits = np.fromiter(map(info.word_of, range(len(words))), dtype=np.float64, count=len(words))
    return LooseReading(texts.sets, bits, _specifics(texts, goods), min_shared_bits=LOOSE * min_shared_bits,
                        max_novelty=max_novelty / LOOSE, min_common=MIN_KEPT_WORDS, min_cover=MIN_COVER,
                        near_whole=NEAR_WHOLE, max_specific_swaps=max_specific_swaps,
                        contained_bits=LOOSE * SPREADING * min_shared_bits)


def copied(al: Alignment, child: Sequence[str], parent: Sequence[str], info: Information, *,
           min_shared_bits: float, max_novelty: float, swap_every: int, max_specific_swaps: int = 0,
           wrapping_bits: float = 0.0, parent_units: tuple[Sequence[int], Sequence[int]] | None = None,
           ) -> CopyEvidence | None:
    """Rules 2 and 3 exactly: the evidence that ``child`` (core words, aligned on ``parent`` by
    ``al``) copies ``parent``, with ``info`` counting the messages written independently of the
    pair; None when it does not.  ``wrapping_bits``: the information of the wrapping the child kept
    (:func:`kept_tags`), counted with the words kept; ``parent_units``: the parent's words (numbers)
    and adjacent pairs (units) in order, when known."""
    known = frozenset(parent)
    ids, pairs = parent_units if parent_units is not None else (None, None)
    ev = copy_evidence(al, child, parent, lambda x: info.kept(x, parent, ids, pairs) + wrapping_bits,
                       lambda runs: info.added(runs, known))
    ok = is_copy(ev, min_shared_bits=min_shared_bits, max_novelty=max_novelty, swap_every=swap_every,
                 max_specific_swaps=max_specific_swaps)
    return ev if ok else None


CUT_MARK = "\u2026"
"""The wrapping unit of a text that shows it was cut (:func:`shows_cut`), counted as a tag of its own
(no tag is spelt so: tags are folded, and folding spells an ellipsis out)."""


def shows_cut(text: Forward) -> bool:
    """``text`` shows it was cut: an ellipsis at its start, or at its end an ellipsis or a separator
    left dangling (:func:`~._lineage.cut_shown`)."""
    return text.ellipsis[0] or cut_shown(text)


def cut_where_shown(child: Forward, al: Alignment) -> bool:
    """``child`` shows a cut (:func:`shows_cut`) at an end where it was cut from the earlier text (``al``)
    and added nothing there: it says it is a piece of a longer text, and the earlier text goes on
    past the cut.  Counted with what the copy keeps (rule 3), as rare as the texts that show a cut."""
    at_end = cut_shown(child) and al.cut_end > 0 and not al.trail
    return at_end or (child.ellipsis[0] and al.cut_start > 0 and not al.lead)


def kept_tags(child: Forward, parent: Forward) -> tuple[str, ...]:
    """The tags in front of ``parent`` that ``child`` kept (sorted; each as often as both carry it):
    a tag is a choice of words like any other, and a copy that keeps the tags it heard keeps that
    evidence too (a copy cut short behind three tags still says where it came from).

    >>> kept_tags(parse_forward("psa: heads up: the well is dry"), parse_forward("psa: heads up: the well is dry, go"))
    ('heads up', 'psa')
    """
    if not child.tags or not parent.tags:
        return ()
    return tuple(sorted((Counter(child.tags) & Counter(parent.tags)).elements()))


class _Alignments:
    """The word alignment of each pair of distinct cores (later, earlier), made when first asked."""

    def __init__(self, texts: _Texts, goods: frozenset[str]) -> None:
        self.texts, self.goods = texts, goods
        self.made: dict[tuple[int, int], Alignment] = {}

    def __getitem__(self, pair: tuple[int, int]) -> Alignment:
        got = self.made.get(pair)
        if got is None:
            got = self.made[pair] = align(self.texts.cores[pair[0]], self.texts.cores[pair[1]], self.goods)
        return got


# --------------------------------------------------------------------------- rule 4: stock phrases


def _poisson_tail(k: int, mean: float) -> float:
    """P(X >= k) for X Poisson with ``mean``."""
    if k <= 0:
        return 1.0
    term = total = math.exp(-mean)
    for x in range(1, k):
        term *= mean / x
        total += term
    return max(0.0, 1.0 - total)


@dataclass(frozen=True, slots=True)
class Spread:
    """How the text of a pair travels among its family (rule 4)."""

    families: tuple[int, ...]
    """The labels of the families of the pair (one or two; a family's label is its first message's
    position)."""
    unprompted: int
    """Members said without their sender having heard one within the lag, nor said one before."""
    origin_senders: int
    """Distinct senders of members said without their sender having heard or said one before."""
    prompted: int
    """Members said within the lag after their sender first heard one."""
    prompted_ticks: int
    """Agent-ticks spent within the lag after hearing a member."""
    p_value: float
    """P(that many prompted or more) for a Poisson count at the unprompted rate (module rule 4)."""
    unprompted_senders: int = 0
    """Distinct senders of the unprompted members (origins, and agents who heard the text once long
    before and say it now, not within the lag)."""
    burst_p: float = 1.0
    """P(the unprompted members fall within so few ticks) were they said at any tick of the match alike
    (:func:`burst_p_value`): small when agents who had not heard one another said it at once -- all
    within the lag window; 1 when they are further apart."""

    def stock(self, alpha: float) -> bool:
        """A stock phrase: two senders or more said it without ever having heard it, or
        :data:`STOCK_SENDERS` or more unprompted (not within the lag after hearing it: where everyone
        hears everything, a line said everywhere has one origin only), and nothing speaks against a
        phrase agents say on their own at any time: hearing it does not make agents say it more (the
        prompted count is no surprise at level ``alpha``), nor, that evidence joined with how closely
        the unprompted ones came together (:func:`joint_p_value` with :attr:`burst_p`), were they
        twin reports of one event seen at once."""
        return ((self.origin_senders >= 2 or self.unprompted_senders >= STOCK_SENDERS)
                and self.p_value >= alpha and joint_p_value(self.p_value, self.burst_p) >= alpha)

    def spreading(self, alpha: float) -> bool:
        """It spreads by hearing: the prompted count is a surprise at level ``alpha``."""
        return self.p_value < alpha


def components(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The connected components of the undirected graph on ``0 .. n - 1`` with the edges ``(a[k], b[k])``:
    per node, the smallest node of its component (each edge's larger label lowered to its smaller,
    then every label replaced by its label's label until none changes, until every edge's ends agree).

    >>> components(6, np.array([4, 1, 5]), np.array([2, 4, 3])).tolist()
    [0, 1, 1, 3, 1, 3]
    """
    label = np.arange(n, dtype=np.int64)
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    while len(a):
        la, lb = label[a], label[b]
        apart = la != lb
        if not apart.any():
            return label
        la, lb = la[apart], lb[apart]
        np.minimum.at(label, np.maximum(la, lb), np.minimum(la, lb))
        while True:  # each label its root's
            root = label[label]
            if (root == label).all():
                break
            label = root
    return label


@dataclass(frozen=True, slots=True)
class _Runs:
    """Families' hearings, each hearer's windows that meet or overlap merged into runs (``[first, last +
    max_lag)`` ticks): each run by its keys ``(family, hearer, tick)`` in fields of bits (``low_bits``
    below the family), sorted; ``covered`` the runs' lengths summed up to each run (from 0)."""

    start: np.ndarray
    end: np.ndarray
    covered: np.ndarray
    count: np.ndarray
    """Per family: its runs."""
    first: np.ndarray
    """Per family: its first run."""
    low_bits: int

    @classmethod
    def of(cls, window: np.ndarray, families: int, lag: int, tick_bits: int, low_bits: int) -> _Runs:
        """The runs of sorted hearing keys ``window`` (``(family, hearer, tick)``, the tick in the lowest
        ``tick_bits``, the family above ``low_bits``; ``families`` of them), each window ``lag`` ticks."""
        fresh = np.ones(len(window), dtype=bool)
        fresh[1:] = ((window[1:] ^ window[:-1]) >> tick_bits != 0) | (np.diff(window) > lag)
        begins = np.flatnonzero(fresh)
        start = window[begins]
        end = window[np.append(begins[1:], len(window)) - 1] + lag if len(window) else start
        covered = np.concatenate((np.zeros(1, dtype=np.int64), np.cumsum(end - start)))
        count = np.bincount(start >> low_bits, minlength=families)
        return cls(start, end, covered, count, np.cumsum(count) - count, low_bits)

    def union(self) -> np.ndarray:
        """Per family: the agent-ticks its runs cover."""
        out: np.ndarray = self.covered[self.first + self.count] - self.covered[self.first]
        return out

    def shared(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Per pair of two families (``a[k]``, ``b[k]``): the agent-ticks both cover.  Each run of the
        family with fewer runs laid over the other's (the runs of one hearer are disjoint and sorted): the
        other's runs from the first ending after it starts to the last starting before it ends, their
        lengths less what lies outside it at either end."""
        small = np.where(self.count[a] <= self.count[b], a, b)
        other = a + b - small
        laid = self.count[small]
        run = expand(self.first[small], laid)
        moved = np.repeat((other - small) << self.low_bits, laid)  # in the other family's field
        lo, hi = self.start[run] + moved, self.end[run] + moved
        first = np.searchsorted(self.end, lo, side="right")
        past = np.searchsorted(self.start, hi, side="left")
        meets = past > first
        first, past, lo, hi = first[meets], past[meets], lo[meets], hi[meets]
        overlap = (self.covered[past] - self.covered[first] - np.maximum(0, lo - self.start[first])
                   - np.maximum(0, self.end[past - 1] - hi))
        both = np.zeros(len(a), dtype=np.int64)
        np.add.at(both, np.repeat(np.arange(len(a), dtype=np.int64), laid)[meets], overlap)
        return both


@dataclass(frozen=True, slots=True)
class _FamilyCounts:
    """Per family: what :class:`Spread` sums (``alone``, ``echoes``), joins as sets (``origins``,
    ``senders``: senders as bits of a number) or bounds (the first and last tick said unprompted)."""

    alone: np.ndarray
    echoes: np.ndarray
    origins: list[int]
    senders: list[int]
    first_said: np.ndarray
    last_said: np.ndarray


HEARINGS_PER_PIECE = 1 << 19
"""Hearings (a member of a pair of families, one of its hearers) rule 4's spreads are summed over at a
time (:meth:`_Families.prepare`: bounded memory)."""


class _Families:
    """Rule 4: families of texts (messages linked by near-whole likeness: the words both hold are
    at least :data:`NEAR_WHOLE` of the shorter text's, so a story and the chatter it shares a few
    words with stay apart), and what each family says about how its text travels."""

    def __init__(self, fam: _Pairs, near_whole: np.ndarray, log: MessageLog, origin: np.ndarray,
                 unprompted: np.ndarray, prompted: np.ndarray, clock: _Clock) -> None:
        n = len(log)
        j, i = fam.j[near_whole], fam.i[near_whole]
        self.label = components(n, j, i)
        self.members: dict[int, list[int]] = {}
        touched = np.zeros(n, dtype=bool)
        touched[fam.j] = True
        touched[fam.i] = True
        at = np.nonzero(touched)[0]
        for m, family in zip(at.tolist(), self.label[at].tolist()):
            self.members.setdefault(family, []).append(m)
        self.log, self.origin, self.unprompted, self.prompted = log, origin, unprompted, prompted
        self.max_lag = clock.max_lag
        (sender_codes, senders), (audience_codes, audiences), _texts = log.codes()
        agent_id: dict[str, int] = {name: k for k, name in enumerate(senders)}
        for heard in audiences:
            if not agent_id.keys() >= heard:  # (most audiences name no one new: one set test, not a loop)
                for name in heard:
                    agent_id.setdefault(name, len(agent_id))
        # each audience as a run of agent numbers in one array
        self.audience_sizes = np.array([len(h) for h in audiences], dtype=np.int64)
        self.audience_starts = np.cumsum(self.audience_sizes) - self.audience_sizes
        self.audience_members = np.fromiter((agent_id[name] for h in audiences for name in sorted(h)), dtype=np.int64,
                                            count=int(self.audience_sizes.sum()))
        self.audience_codes = np.asarray(audience_codes, dtype=np.int64)
        self.sender_codes = np.asarray(sender_codes, dtype=np.int64)
        self.ticks = _tick_order(log.ticks)
        span = int(self.ticks.max()) - int(self.ticks.min()) + 1 if n else 0
        self.span = span
        self.agent_ticks = len(agent_id) * (span + clock.max_lag)
        self.family_hearings: dict[int, int] = {}
        self.by_labels: dict[tuple[int, int], Spread] = {}
        self.agents = len(agent_id)
        self.hearings: list[int] | None = None
        """Per message, the agents who heard it (made when :meth:`prepare` first needs it)."""

    def around(self, j: int, i: int) -> tuple[int, ...]:
        """The families of both messages, sorted (each family's members are kept in order: two
        families are merged, not sorted afresh)."""
        fj, fi = int(self.label[j]), int(self.label[i])
        mine = self.members.get(fj, [j])
        if fj == fi:
            return tuple(mine)
        return tuple(heapq.merge(mine, self.members.get(fi, [i])))

    def around_key(self, j: int, i: int) -> tuple[int, int]:
        """The pair's families by their labels, the smaller first: one key per :meth:`around` (the members of
        one or two families, which a label names; a message of no pair has a label of its own)."""
        fj, fi = int(self.label[j]), int(self.label[i])
        return (fj, fi) if fj <= fi else (fi, fj)

    def labels_around(self, j: int, i: int) -> list[tuple[int, int]]:
        """:meth:`around` as its families, each ``(label, a message of it)``, once each: their members
        (``members``, or the message alone where its label has none) are :meth:`around`'s, each once.
        (A message is in its label's members whenever that label has any: both are made from the messages
        of the pairs, and a message of no pair has a label of its own.)"""
        fj, fi = int(self.label[j]), int(self.label[i])
        return [(fj, j)] if fj == fi else [(fj, j), (fi, i)]

    def spread_around(self, j: int, i: int) -> Spread:
        """:meth:`spread` of :meth:`around` ``(j, i)`` (each pair of families read once: :meth:`prepare`
        reads many at a time)."""
        key = self.around_key(j, i)
        got = self.by_labels.get(key)
        if got is None:
            got = self.by_labels[key] = self.spread(self.around(j, i))
        return got

    def _hearings_of(self, label: int) -> int:
        """Hearings of the family ``label``'s members (one per member and hearer)."""
        got = self.family_hearings.get(label)
        if got is None:
            if self.hearings is None:
                self.hearings = self.audience_sizes[self.audience_codes].tolist()
            got = self.family_hearings[label] = sum(map(self.hearings.__getitem__, self.members.get(label, [label])))
        return got

    def prepare(self, later: np.ndarray, earlier: np.ndarray) -> None:
        """:meth:`spread_around` of every pair (``later[k]``, ``earlier[k]``) at once: the same sums as
        :meth:`spread`, with numpy, each family read once however many pairs it is in
        (:meth:`_prepare_some`)."""
        fj, fi = self.label[later], self.label[earlier]
        lo, hi = np.minimum(fj, fi), np.maximum(fj, fi)
        n = len(self.label)
        firsts = unique(lo * n + hi if n < 1 << 31 else np.zeros(0, dtype=np.int64))
        keys = [(c // n, c % n) for c in firsts.tolist()]
        keys = [k for k in keys if k not in self.by_labels]
        # a piece of the pairs at a time, their families' hearings (each family once) about
        # HEARINGS_PER_PIECE (bounded memory; a family larger than that is a piece with its pairs)
        start, hearings = 0, 0
        held: set[int] = set()
        for k, key in enumerate(keys):
            size = sum(self._hearings_of(f) for f in set(key) - held)
            if hearings and hearings + size > HEARINGS_PER_PIECE:
                self._prepare_some(keys[start:k])
                start, hearings = k, 0
                held.clear()
                size = sum(self._hearings_of(f) for f in set(key))
            hearings += size
            held.update(key)
        if start < len(keys):
            self._prepare_some(keys[start:])

    def _prepare_some(self, keys: Sequence[tuple[int, int]]) -> None:
        """:meth:`prepare` of the pairs of families ``keys``.

        Each family is read once: its hearers' windows merged into runs (:class:`_Runs`), the family's
        agent-ticks prompted the runs' lengths summed.  A pair of two families spends the ticks of both
        less the ticks both cover (:meth:`_Runs.shared`): the ticks of the union, as :meth:`spread` counts
        them over the pair's members together.  The other counts add (members of two families are distinct
        messages), the senders are joined as sets (:meth:`_family_counts`)."""
        labels = sorted({f for key in keys for f in key})
        index = {f: k for k, f in enumerate(labels)}
        groups = [self.members.get(f, [f]) for f in labels]
        # each hearing one number, (family, hearer, tick) in fields of bits: split by shifts (a run ends
        # at most max_lag ticks after the last tick: the tick field holds that too)
        tick_bits = max(1, (max(self.span, 1) - 1 + self.max_lag).bit_length())
        agent_bits = max(1, (self.agents - 1).bit_length())
        if max(1, (len(labels) - 1).bit_length()) + agent_bits + tick_bits > 62:
            return  # keys too wide for one number: read one pair at a time
        sizes_of = np.array([len(g) for g in groups], dtype=np.int64)
        at = np.fromiter(itertools.chain.from_iterable(groups), dtype=np.int64, count=int(sizes_of.sum()))
        group = np.repeat(np.arange(len(labels), dtype=np.int64), sizes_of)
        aud = self.audience_codes[at]
        sizes = self.audience_sizes[aud]
        hearer = self.audience_members[expand(self.audience_starts[aud], sizes)]
        start = np.repeat(self.ticks[at] - int(self.ticks.min()), sizes)
        window = np.sort((((np.repeat(group, sizes) << agent_bits) | hearer) << tick_bits) | start)
        runs = _Runs.of(window, len(labels), self.max_lag, tick_bits, agent_bits + tick_bits)
        a = np.array([index[fa] for fa, _ in keys], dtype=np.int64)
        b = np.array([index[fb] for _, fb in keys], dtype=np.int64)
        apart = a != b
        union = runs.union()
        prompted_ticks = union[a] + np.where(apart, union[b], 0)
        prompted_ticks[apart] -= runs.shared(a[apart], b[apart])
        counts = self._family_counts(at, group, len(labels))
        alone = (counts.alone[a] + np.where(apart, counts.alone[b], 0)).tolist()
        echoes = (counts.echoes[a] + np.where(apart, counts.echoes[b], 0)).tolist()
        firsts = np.minimum(counts.first_said[a], counts.first_said[b]).tolist()
        lasts = np.maximum(counts.last_said[a], counts.last_said[b]).tolist()
        prompted = prompted_ticks.tolist()
        origins_of, senders_of = counts.origins, counts.senders
        for k, (key, fa, fb) in enumerate(zip(keys, a.tolist(), b.tolist())):
            unprompted_ticks = max(1, self.agent_ticks - prompted[k])
            mean = max(1, alone[k]) / unprompted_ticks * prompted[k]
            spread = int(lasts[k] - firsts[k]) if alone[k] else 0
            burst = burst_p_value(spread, alone[k], self.span) if spread <= self.max_lag else 1.0
            origins = (origins_of[fa] | origins_of[fb]).bit_count()
            senders = (senders_of[fa] | senders_of[fb]).bit_count()
            self.by_labels[key] = Spread(key if fa != fb else key[:1], alone[k], origins, echoes[k], prompted[k],
                                         _poisson_tail(echoes[k], mean), senders, burst)

    def _family_counts(self, at: np.ndarray, group: np.ndarray, count: int) -> _FamilyCounts:
        """Per family (``group[k]`` the family of message ``at[k]``, ``count`` families): the counts
        :class:`Spread` sums or joins."""
        n_senders = int(self.sender_codes.max()) + 1
        loud = self.unprompted[at]
        said = self.ticks[at[loud]]
        first_said = np.full(count, np.iinfo(np.int64).max, dtype=np.int64)
        last_said = np.full(count, np.iinfo(np.int64).min, dtype=np.int64)
        np.minimum.at(first_said, group[loud], said)
        np.maximum.at(last_said, group[loud], said)
        return _FamilyCounts(
            alone=np.bincount(group, weights=self.unprompted[at], minlength=count).astype(np.int64),
            echoes=np.bincount(group, weights=self.prompted[at], minlength=count).astype(np.int64),
            origins=self._sender_sets(group[self.origin[at]], self.sender_codes[at[self.origin[at]]], n_senders, count),
            senders=self._sender_sets(group[loud], self.sender_codes[at[loud]], n_senders, count),
            first_said=first_said, last_said=last_said)

    @staticmethod
    def _sender_sets(group: np.ndarray, sender: np.ndarray, n_senders: int, groups: int) -> list[int]:
        """Per group: its distinct senders, as the bits of a number (sender ``s`` the bit ``1 << s``)."""
        sets = [0] * groups
        held, who = np.divmod(unique(group * n_senders + sender), n_senders)
        for g, s in zip(held.tolist(), who.tolist()):
            sets[g] |= 1 << s
        return sets

    def spread(self, members: tuple[int, ...]) -> Spread:
        """How the text of ``members`` travels (rule 4): unprompted productions per agent-tick spent
        unprompted (not within ``max_lag`` ticks after hearing a member), and the prompted count
        against a Poisson count at that rate over the agent-ticks spent prompted."""
        at = np.array(members, dtype=np.int64)
        aud = self.audience_codes[at]
        sizes = self.audience_sizes[aud]
        hearer = self.audience_members[expand(self.audience_starts[aud], sizes)]
        start = np.repeat(self.ticks[at], sizes)
        order = np.lexsort((start, hearer))
        hearer, start = hearer[order], start[order]
        # the union of each agent's windows: a window counts up to the next window of the same agent
        span = np.full(len(start), self.max_lag, dtype=np.int64)
        same = hearer[1:] == hearer[:-1]
        span[:-1][same] = np.minimum(self.max_lag, start[1:][same] - start[:-1][same])
        prompted_ticks = int(span.sum())
        unprompted_ticks = max(1, self.agent_ticks - prompted_ticks)
        alone = int(self.unprompted[at].sum())
        echoes = int(self.prompted[at].sum())
        mean = max(1, alone) / unprompted_ticks * prompted_ticks
        unprompted = at[self.unprompted[at]]
        origins = len(np.unique(self.sender_codes[at[self.origin[at]]]))
        senders = len(np.unique(self.sender_codes[unprompted]))
        said = self.ticks[unprompted]
        spread = int(said.max() - said.min()) if len(said) else 0
        # at once: within the time agents take to pass on what they heard (a phrase said over a longer
        # stretch is said on its own, more in some phases of a match than in others)
        burst = burst_p_value(spread, len(said), self.span) if spread <= self.max_lag else 1.0
        families = tuple(unique(self.label[at]).tolist())
        return Spread(families, alone, origins, echoes, prompted_ticks, _poisson_tail(echoes, mean), senders, burst)


def burst_p_value(spread: int, count: int, ticks: int) -> float:
    """Rule 4: the chance that ``count`` messages said at ticks drawn alike from ``ticks`` ticks all
    fall within ``spread + 1`` consecutive ticks (the range of ``count`` uniform draws: ``k x^(k-1) -
    (k-1) x^k`` at ``x = (spread + 1) / ticks``; 1 for fewer than two).  A phrase agents say on
    their own comes at any time; agents who saw one event report it at once.

    >>> round(burst_p_value(0, 2, 250), 4), round(burst_p_value(6, 3, 250), 4), burst_p_value(300, 3, 250)
    (0.008, 0.0023, 1.0)
    """
    if count < 2 or ticks <= 0:
        return 1.0
    x = min(1.0, (spread + 1) / ticks)
    return min(1.0, count * x ** (count - 1) - (count - 1) * x ** count)


def joint_p_value(*p_values: float) -> float:
    """Fisher's combination of independent p-values: ``P(chi2 with 2k degrees of freedom >= -2 sum
    ln p)`` (:func:`~daishi_forensics.screens.stats.product_p`, the closed form for even degrees of
    freedom).

    >>> round(joint_p_value(0.02, 0.0102), 4), joint_p_value(1.0, 1.0)
    (0.0019, 1.0)
    """
    return product_p(p_values)


def stock_phrase(spread: Spread, child: Forward, inherited_bits: Callable[[], float],
                 alpha: float = STOCK_ALPHA) -> bool:
    """Rule 4: the child's text is a stock phrase (:meth:`Spread.stock`) and the child neither says it
    passes it on (:attr:`~._forwarding.Forward.forward_marked`) nor carries :data:`FORWARD_EVIDENCE`
    bits of its chosen parent's own mutations (``inherited_bits()``)."""
    return spread.stock(alpha) and not (child.forward_marked or inherited_bits() >= FORWARD_EVIDENCE)


def _inherited_bits(j: int, i: int, root: int, texts: _Texts, weights: Weights, goods: frozenset[str]) -> float:
    """Bits of the mutations (relative to the root text) that message ``j`` shares with message ``i``."""
    if i == root:
        return 0.0
    rf, rc = texts.forward(root), texts.cores[texts.nid[root]]
    mine, theirs = (set(edits(texts.forward(m), rf, align(texts.cores[texts.nid[m]], rc, goods))) for m in (j, i))
    return sum(weights.of_edit(e, len(rc)) for e in mine & theirs)


# --------------------------------------------------------------------------- rule 5: canaries


def canary_parents(log: MessageLog) -> dict[int, int]:
    """Rule 5: message position -> the latest earlier message holding one of its canary tokens
    that its sender heard (from another agent)."""
    (sender_codes, senders), (audience_codes, audiences), _texts = log.codes()
    canaries = log.canaries
    out: dict[int, int] = {}
    seen: dict[str, list[int]] = {}
    for j in sorted(canaries):
        found = canaries[j]
        if not found:
            continue
        sender = senders[sender_codes[j]]
        best = -1
        for c in found:
            for i in reversed(seen.get(c, ())):
                if senders[sender_codes[i]] != sender and sender in audiences[audience_codes[i]]:
                    best = max(best, i)
                    break
        for c in found:
            seen.setdefault(c, []).append(j)
        if best >= 0:
            out[j] = best
    return out


# --------------------------------------------------------------------------- rule 6: timing


@dataclass(frozen=True)
class _Clock:
    """Awake ticks of each agent (rule 6): ``asleep`` is agent -> its dormant spans ``(from, to)``."""

    asleep: Mapping[str, Sequence[tuple[int, int]]]
    max_lag: int

    @classmethod
    def of(cls, dormancy: Mapping[str, Sequence[tuple[int, int]]] | None, max_lag: int) -> _Clock:
        return cls({a: sorted((s[0], s[1]) for s in spans) for a, spans in (dormancy or {}).items() if spans}, max_lag)

    def window_start(self, agent: str, stop: int) -> int:
        """The earliest tick t with at most ``max_lag`` awake ticks of ``agent`` in ``[t, stop)``."""
        spans = self.asleep.get(agent)
        remaining, cursor = self.max_lag, stop
        if spans:
            # spans starting at or after ``stop`` end the list and are skipped
            for k in range(bisect_left(spans, (stop,)) - 1, -1, -1):
                a, b = spans[k]
                if a >= cursor:
                    continue
                if b < cursor:
                    if cursor - b > remaining:
                        return cursor - remaining
                    remaining -= cursor - b
                cursor = a
        return cursor - remaining

    def awake(self, agent: str, start: int, stop: int) -> int:
        """Ticks in ``[start, stop)`` during which ``agent`` was not dormant."""
        spans = self.asleep.get(agent)
        lag = stop - start
        if not spans or lag <= 0:
            return lag
        k = bisect_left(spans, (start, start)) - 1
        for a, b in spans[max(k, 0):]:
            if a >= stop:
                break
            lag -= max(0, min(b, stop) - max(a, start))
        return lag


def in_time(later: int, earlier: int, log: MessageLog, clock: _Clock) -> bool:
    """Rule 6 (the lag): message ``earlier`` came at most ``max_lag`` awake ticks of the later
    message's sender before it."""
    (sender_codes, senders), _aud, _texts = log.codes()
    ticks = log.ticks
    return clock.awake(senders[sender_codes[later]], ticks[earlier], ticks[later]) <= clock.max_lag


def in_time_pairs(later: np.ndarray, earlier: np.ndarray, log: MessageLog, clock: _Clock) -> np.ndarray:
    """Rule 6 (:func:`in_time`) per pair (``later[k]``, ``earlier[k]``): the ticks between them, where the
    later message's sender has no dormant span; its awake ticks (:meth:`_Clock.awake`), one pair at a time,
    where it has."""
    (sender_codes, senders), _aud, _texts = log.codes()
    ticks = _tick_order(log.ticks)
    ok: np.ndarray = ticks[later] - ticks[earlier] <= clock.max_lag
    dozing = [k for k, name in enumerate(senders) if name in clock.asleep]
    if dozing:
        for k in np.nonzero(np.isin(np.asarray(sender_codes, dtype=np.int64)[later], dozing))[0].tolist():
            ok[k] = in_time(int(later[k]), int(earlier[k]), log, clock)
    return ok


def prompted_messages(pairs: _Pairs, n: int, log: MessageLog, clock: _Clock, whole: np.ndarray,
                      texts: _Texts, goods: frozenset[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rule 6, per message: its sender had said the same text before (an own repeat: a text alike to
    it and near whole -- one family, rule 4 -- so that another story told in the same frame is no
    repeat; and holding every specific the later one names, :func:`names_held`: a story of another
    good, place or seat, or a copy cut short of every specific, is no repeat); it came within the lag
    after its sender first heard a text alike to it from another agent (of its own family if it heard
    one: a few words a short copy shares with a chatter line heard long before do not make it late;
    first one that holds every word of it, :func:`words_held` -- a copy of it as it is, cut or wrapped
    -- then one that names what it names: another story told in the same frame, heard long before,
    does not make a copy of the one heard now late), and is no own repeat (prompted); its sender had
    neither heard nor said one before (an origin).  A repeat of a text its sender had passed on (its
    earliest saying of it in the window prompted) is no own repeat but prompted, when in time: a text
    passed on again, to a second recipient or later, is a further copy.  Returns per message: own repeat,
    prompted, origin, and passed on again (prompted so).  ``pairs`` are the alike pairs, sorted by (later,
    earlier); ``whole``: per pair, near whole."""
    same_text = names_held(pairs, texts, goods)
    own = np.zeros(n, dtype=bool)
    repeated = pairs.own & whole & same_text
    own[pairs.j[repeated]] = True
    # per message, the first pair (in (later, earlier) order) of the first kind it has: the first heard
    # holding every word of it, then naming what it names, then of its own family (a lookalike of a
    # short copy is another story), then any heard
    kind = np.where(pairs.heard, 3, 4)
    family = pairs.heard & whole
    kind[family] = 2
    kind[family & same_text] = 1
    kind[family & words_held(pairs, texts)] = 0
    picked = np.nonzero(kind < 4)[0]
    picked = picked[np.lexsort((picked, kind[picked], pairs.j[picked]))]  # by later message, kind, place
    first = np.ones(len(picked), dtype=bool)
    first[1:] = pairs.j[picked[1:]] != pairs.j[picked[:-1]]
    prompted = np.zeros(n, dtype=bool)
    heard = np.zeros(n, dtype=bool)
    later, earlier = pairs.j[picked[first]], pairs.i[picked[first]]  # one pair per later message
    heard[later] = True
    timely = np.zeros(n, dtype=bool)
    timely[later] = in_time_pairs(later, earlier, log, clock)
    prompted[later] = ~own[later] & timely[later]
    # a text passed on again (to another recipient, or once more later) is a further copy, not its sender's
    # own repeat: where the sender's earliest saying of it in the window was itself prompted; in log order,
    # so that a saying read so stands for the next (the pairs are sorted by (j, i): j's first is its earliest)
    again_j, again_i = pairs.j[repeated], pairs.i[repeated]
    earliest = np.ones(len(again_j), dtype=bool)
    earliest[1:] = again_j[1:] != again_j[:-1]
    again = np.zeros(n, dtype=bool)
    for j, i in zip(again_j[earliest].tolist(), again_i[earliest].tolist()):
        if prompted[i] and timely[j]:
            own[j], prompted[j], again[j] = False, True, True
    return own, prompted, ~own & ~heard, again


def words_held(pairs: _Pairs, texts: _Texts) -> np.ndarray:
    """Per pair (later j, earlier i): the earlier text holds every word of the later one (each distinct
    pair of cores read once, as sorted arrays of word numbers)."""
    return _per_core_pair(pairs, texts, lambda a, b: texts.sets.lacking(a, b) == 0)


def names_held(pairs: _Pairs, texts: _Texts, goods: frozenset[str]) -> np.ndarray:
    """Per pair (later j, earlier i): the earlier text holds every specific (rule 2: a number, an id or
    region, a good, a seat's name) the later one names (each distinct pair of cores read once)."""
    specific = _specifics(texts, goods)
    return _per_core_pair(pairs, texts, lambda a, b: texts.sets.lacking(a, b, specific) == 0)


def _specifics(texts: _Texts, goods: frozenset[str]) -> np.ndarray:
    """Per word number: the word is a specific (rule 2)."""
    words = texts.words
    return np.fromiter((is_specific(w, goods) for w in words), dtype=bool, count=len(words))


def _per_core_pair(pairs: _Pairs, texts: _Texts, test: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """Per pair (later j, earlier i): ``test`` of (core of j, core of i), asked once per distinct pair of
    cores (all of them in one call)."""
    n_cores = len(texts.cores)
    if not len(pairs.j):
        return np.ones(0, dtype=bool)
    distinct, which = unique(texts.nid[pairs.j] * n_cores + texts.nid[pairs.i], inverse=True)
    answers: np.ndarray = test(distinct // n_cores, distinct % n_cores)
    per_pair: np.ndarray = answers[which]
    return per_pair


def _tick_order(ticks: Sequence[int]) -> np.ndarray:
    """The ticks as 64-bit integers (they fit: the schemas bound them below 2**53)."""
    return np.asarray(ticks, dtype=np.int64)


def _window_lows(
    ticks: Sequence[int], sid: np.ndarray, senders: Sequence[str], asleep: Mapping[str, Any], window_start: Any,
    max_lag: int,
) -> np.ndarray:
    """Per message j: the first message of its lag window, ``bisect_left(ticks, window start, 0, j)``."""
    n = len(ticks)
    t = np.asarray(ticks, dtype=np.int64)  # ticks fit: the schemas bound them below 2**53
    if n < 2 or bool((t[1:] >= t[:-1]).all()):
        starts = t - max_lag
        dozed = np.isin(sid, [k for k, name in enumerate(senders) if name in asleep])
        for j in np.nonzero(dozed)[0].tolist():  # agents with dormant spans: awake ticks only
            starts[j] = window_start(senders[sid[j]], ticks[j])
        return np.minimum(np.searchsorted(t, starts), np.arange(n, dtype=np.int64))
    # ticks out of order (a tick regression): bisect as the rules say
    ticks = list(ticks)
    return np.fromiter((bisect_left(ticks, window_start(senders[sid[j]], ticks[j]), 0, j) for j in range(n)),
                       dtype=np.int64, count=n)


# --------------------------------------------------------------------------- rule 7: parent choice


def choose_parents(
    log: MessageLog, texts: _Texts, alignments: _Alignments, parents: Mapping[int, Sequence[int]], weights: Weights,
    family: Sequence[int] | np.ndarray,
) -> dict[int, Choice]:
    """Rule 7: per message with candidates (``parents[position]``: the positions of its qualifying
    candidates, in the order heard), its :class:`~._lineage.Choice`; which place in the order heard
    (first, latest, any) is passed on, learnt from the whole match (:func:`~._lineage.heard_order`),
    then per family of texts (``family``: per position, its family's label, rule 4) from the
    family's own children, with :data:`~._lineage.PSEUDO_CHILDREN` children at the match's shares
    (a family without children of two candidates or more takes the match's)."""
    nid, events, of_message = texts.nid, log.events, texts.of_message
    made: dict[tuple[int, int], list[Edit]] = {}

    def edits_of(j: int, i: int) -> list[Edit]:  # the edits of each pair of distinct texts, read once
        key = (int(of_message[j]), int(of_message[i]))
        got = made.get(key)
        if got is None:
            got = made[key] = edits(texts.forward(j), texts.forward(i), alignments[(int(nid[j]), int(nid[i]))])
        return got

    single = [(j, c[0]) for j, c in sorted(parents.items()) if len(c) == 1]
    found = [edits_of(j, i) for j, i in single]
    cut = sum(1 for e in found if any(x[0] in ("cut_start", "cut_end") for x in e))
    recased = sum(1 for e in found if any(x[0] == "recase" for x in e))
    weights = weights.with_cuts(cut, len(single)).with_recasing(recased, len(single))
    read: dict[tuple[int, int], Candidate] = {}

    def candidate_of(j: int, i: int) -> Candidate:
        # a candidate's edits, weight and similarity are those of its and the child's distinct texts:
        # read once a pair of texts, each further copy a Candidate of its own position and event
        key = (int(of_message[j]), int(of_message[i]))
        got = read.get(key)
        if got is None:
            got = read[key] = candidate(i, events[i], texts.forward(j), texts.forward(i),
                                        alignments[(int(nid[j]), int(nid[i]))], weights, len(texts.cores[nid[i]]),
                                        edits_of(j, i))
            return got
        return Candidate(i, events[i], got.edits, got.weight, got.similarity)

    pools: dict[int, list[Candidate]] = {j: [candidate_of(j, i) for i in cands] for j, cands in parents.items()}
    order = heard_order(pools.values())
    kin: dict[int, list[Sequence[Candidate]]] = {}
    for j, pool in pools.items():
        kin.setdefault(int(family[j]), []).append(pool)
    orders = dict(zip(kin, heard_orders(list(kin.values()), toward=order)))
    out: dict[int, Choice] = {}
    for j, pool in pools.items():
        words = len(texts.cores[nid[parents[j][0]]])
        out[j] = choose_parent(pool, partial(weights.of_edit, words=words), orders[int(family[j])])
    return out


# --------------------------------------------------------------------------- the rules together


@dataclass(frozen=True)
class _Pairs:
    """Pairs of messages (later j, earlier i) whose texts are alike (rules 2-3 read loosely), sorted by (j, i)."""

    j: np.ndarray
    i: np.ndarray
    heard: np.ndarray
    """Per pair: rule 1 holds."""
    own: np.ndarray
    """Per pair: the same sender."""


class _ExactReading:
    """Rule 3 read exactly for a pair of messages (later j, earlier i): the words and word pairs
    kept, counted over the messages written independently of the pair -- the fresh messages, less
    the pair's families (rule 4 answers for texts many agents produce on their own).  A pair whose
    text spreads by hearing (:meth:`Spread.spreading` at :data:`SPREAD_ALPHA`) is asked
    :data:`SPREADING` of the bits."""

    def __init__(self, texts: _Texts, fresh: np.ndarray, families: _Families, counts: Counts,
                 alignments: _Alignments, *, min_shared_bits: float, max_novelty: float,
                 swap_every: int, max_specific_swaps: int) -> None:
        self.texts, self.fresh, self.families = texts, fresh, families
        self.counts, self.alignments = counts, alignments
        self.min_shared_bits = min_shared_bits
        self.thresholds: dict[str, Any] = {"max_novelty": max_novelty, "swap_every": swap_every,
                           "max_specific_swaps": max_specific_swaps}
        self.memo: dict[tuple[tuple[int, int], int, int, tuple[str, ...]], CopyEvidence | None] = {}
        self.family_tallies: dict[int, Tally] = {}

    def need(self, j: int, i: int) -> float:
        """The bits asked of the pair."""
        spreading = self.families.spread_around(j, i).spreading(SPREAD_ALPHA)
        return self.min_shared_bits * (SPREADING if spreading else 1.0)

    def each(self, later: np.ndarray, earlier: np.ndarray) -> list[CopyEvidence | None]:
        """Per pair (``later[k]``, ``earlier[k]``): the pair read (:meth:`__call__`), once per distinct
        reading: a pair's answer depends only on its families (:meth:`_Families.around`, by their labels)
        and the two distinct texts."""
        label, of_message = self.families.label, self.texts.of_message
        fj, fi = label[later], label[earlier]
        keys = (of_message[earlier], of_message[later], np.maximum(fj, fi), np.minimum(fj, fi))
        order = np.lexsort(keys)
        first = np.zeros(len(order), dtype=bool)
        first[:1] = True
        for key in keys:
            sorted_key = key[order]
            first[1:] |= sorted_key[1:] != sorted_key[:-1]
        group = np.empty(len(order), dtype=np.int64)
        group[order] = np.cumsum(first) - 1
        self.families.prepare(later[order[first]], earlier[order[first]])
        read = [self(j, i) for j, i in zip(later[order[first]].tolist(), earlier[order[first]].tolist())]
        return [read[g] for g in group.tolist()]

    def family_tally(self, j: int, i: int) -> Tally:
        """The units of the fresh messages of the pair's families (:meth:`_Families.around`), counted: each
        family's counted once (a family of thousands is in many pairs), the two joined (families are
        disjoint: a message has one label, so their counts add, :meth:`Tally.joined`)."""
        labels = self.families.labels_around(j, i)
        return Tally.joined([self._tally_of(label, m) for label, m in labels])

    def _tally_of(self, label: int, message: int) -> Tally:
        got = self.family_tallies.get(label)
        if got is None:
            of_message, units, fresh = self.texts.of_message, self.texts.units, self.fresh
            got = self.family_tallies[label] = Tally.of(
                units(int(of_message[m])) for m in self.families.members.get(label, [message]) if fresh[m])
        return got

    def __call__(self, j: int, i: int) -> CopyEvidence | None:
        nid = self.texts.nid
        families = self.families.around_key(j, i)  # (two labels name around(j, i): a short key, however large)
        a, b = int(nid[j]), int(nid[i])
        child, al = self.texts.forward(j), self.alignments[(a, b)]
        tags = kept_tags(child, self.texts.forward(i))
        if cut_where_shown(child, al):
            tags = (*tags, CUT_MARK)
        key = (families, a, b, tags)
        if key not in self.memo:
            info = Information(self.counts, self.family_tally(j, i), PRIOR_MESSAGES)
            wrapping = sum(info.tag(t) for t in tags)
            self.memo[key] = copied(al, self.texts.cores[a], self.texts.cores[b], info,
                                    min_shared_bits=self.need(j, i), wrapping_bits=wrapping,
                                    parent_units=(self.texts.word_ids(b), self.texts.pair_ids(b)), **self.thresholds)
        return self.memo[key]


def _link_confidence(shared_bits: float, min_shared_bits: float) -> float:
    """How sure it is that a copy was copied at all: 1/2 at the threshold of rule 3, each further
    eight bits halving the doubt."""
    doubt: float = 0.5 * 2.0 ** (-(shared_bits - min_shared_bits) / 8.0)
    return max(0.0, 1.0 - doubt)


def _orders(texts: _Texts) -> WordOrders:
    """Per core number, its words (numbers) in order (:attr:`_Texts.order`, no list per core)."""
    return WordOrders(texts.order, np.diff(np.append(texts.starts, len(texts.order))))


def _text_matched(texts: _Texts, canary: Mapping[int, int]) -> np.ndarray:
    """Per message: read for a text parent (it has words, and no canary parent: rule 5 decides those)."""
    matched: np.ndarray = (texts.sets.sizes > 0)[texts.nid]
    matched[list(canary)] = False
    return matched


def alike_pairs(
    log: MessageLog, texts: _Texts, df: np.ndarray, everything: Information, matched: np.ndarray,
    clock: _Clock, *, max_lag: int, min_shared_bits: float, max_novelty: float, goods: frozenset[str],
    max_specific_swaps: int,
) -> tuple[_Pairs, np.ndarray]:
    """Rules 1-3 read loosely, never over all pairs (:mod:`._pruning`): the pairs (later j, earlier i)
    sharing one of j's rarest words within j's lag window, whose texts are alike as word sets (rules
    2-3 on the whole match's counts), with rule 1 per pair; and per pair whether the texts overlap near
    wholly (rule 4's families).  Only ``matched`` messages (:func:`_text_matched`) are read."""
    (sender_codes, senders), _aud, _texts = log.codes()
    sid = np.asarray(sender_codes, dtype=np.int64)
    nid = texts.nid
    lows = _window_lows(log.ticks, sid, senders, clock.asleep, clock.window_start, max_lag)
    reading = _loose_reading(texts, everything, min_shared_bits=min_shared_bits, max_novelty=max_novelty, goods=goods,
                             max_specific_swaps=max_specific_swaps)
    chunks = candidate_chunks(nid, texts.sets, df, texts.words, lows, matched, _orders(texts), distinct=False)
    fam_j, fam_i, whole = alike_candidates(chunks, nid, len(texts.cores), reading, distinct=False)
    return _Pairs(fam_j, fam_i, exposed(fam_j, fam_i, log), sid[fam_j] == sid[fam_i]), whole


def qualifying_parents(
    pairs: _Pairs, prompted: np.ndarray, log: MessageLog, clock: _Clock, exact: _ExactReading,
) -> tuple[dict[int, list[int]], dict[tuple[int, int], CopyEvidence]]:
    """Rules 1, 6 and 2-3 read exactly: per prompted message, the earlier messages its sender heard in
    time (in the order heard) that it copies with enough shared information, and each pair's evidence."""
    parents: dict[int, list[int]] = {}
    evidence: dict[tuple[int, int], CopyEvidence] = {}
    later, earlier = pairs.j[pairs.heard], pairs.i[pairs.heard]
    asked = prompted[later]
    later, earlier = later[asked], earlier[asked]
    asked = in_time_pairs(later, earlier, log, clock)
    later, earlier = later[asked], earlier[asked]
    for j, i, ev in zip(later.tolist(), earlier.tolist(), exact.each(later, earlier)):
        if ev is not None:
            parents.setdefault(j, []).append(i)
            evidence[(j, i)] = ev
    return parents, evidence


@dataclass(frozen=True)
class _Linking:
    """What :func:`linked_edges` needs of the rules' readings of one match."""

    log: MessageLog
    texts: _Texts
    families: _Families
    exact: _ExactReading
    weights: Weights
    goods: frozenset[str]
    stock_alpha: float


def linked_edges(
    linking: _Linking, canary: Mapping[int, int], parents: Mapping[int, Sequence[int]],
    evidence: Mapping[tuple[int, int], CopyEvidence], choices: Mapping[int, Choice],
) -> tuple[list[EchoEdge], int]:
    """The edges, child by child in log order: a canary parent (rule 5) as is; a chosen text parent
    (rule 7) unless the child's text is a stock phrase it does not say it passes on (rule 4), with its
    confidence (the link's, :func:`_link_confidence`, times the choice's).  Returns ``(edges, stock
    echoes left unlinked)``."""
    log, texts, families, exact = linking.log, linking.texts, linking.families, linking.exact
    events, ticks = log.events, log.ticks
    parent_of: dict[int, int] = dict(canary)

    def root_of(m: int) -> int:
        while m in parent_of:
            m = parent_of[m]
        return m

    edges: list[EchoEdge] = []
    stock = 0
    wratio: dict[tuple[int, int], float] = {}
    for j in sorted(set(parents) | set(canary)):
        if j in canary:
            i = canary[j]
            edges.append(EchoEdge(events[i], events[j], _wratio(texts, log, j, i, wratio), "canary",
                                  ticks[j] - ticks[i], 1.0, "canary token (the latest heard holding it)"))
            continue
        choice = choices[j]
        i = choice.position
        if stock_phrase(families.spread_around(j, i), texts.forward(j),
                        partial(_inherited_bits, j, i, root_of(i), texts, linking.weights, linking.goods),
                        linking.stock_alpha):
            stock += 1
            continue
        parent_of[j] = i
        confidence = round(_link_confidence(evidence[(j, i)].shared_bits, exact.need(j, i)) * choice.confidence, 3)
        edges.append(EchoEdge(events[i], events[j], _wratio(texts, log, j, i, wratio), "text", ticks[j] - ticks[i],
                              confidence, choice.reason, choice.tied, len(parents[j]),
                              mutations(choice.edits)))
    return edges, stock


@dataclass(frozen=True, slots=True)
class EchoReading:
    """The edges of a log, with what rule 4 left unlinked and the lag window rule 6 used."""

    edges: tuple[EchoEdge, ...]
    """Every edge, sorted by child id."""
    stock: int
    """Echoes left unlinked because their text is a stock phrase (rule 4)."""
    max_lag: int
    """The lag window (awake ticks) rule 6 used: the one asked for, or wider when the match's
    children show slower forwarding (:mod:`._delays`)."""
    repeats: np.ndarray | None = None
    """Per message (log order): the position of the earlier message of its sender it repeats, -1 for none
    (:func:`own_repeats`); None when not read (the index then counts every root)."""


def echo_edges(
    messages: Sequence[HeardMessage],
    *,
    min_shared_bits: float = MIN_SHARED_BITS,
    max_lag: int = MAX_LAG,
    max_novelty: float = MAX_NOVELTY,
    swap_every: int = SWAP_EVERY,
    max_specific_swaps: int = 0,
    stock_alpha: float = STOCK_ALPHA,
    goods: frozenset[str] = GOODS,
    dormancy: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    learn_lag: bool = True,
) -> tuple[tuple[EchoEdge, ...], int]:
    """Link each message to the earlier message it echoes (module rules 1–7): :func:`echo_reading`'s
    ``(edges sorted by child id, echoes left unlinked because their text is a stock phrase)``."""
    got = echo_reading(messages, min_shared_bits=min_shared_bits, max_lag=max_lag, max_novelty=max_novelty,
                       swap_every=swap_every, max_specific_swaps=max_specific_swaps, stock_alpha=stock_alpha,
                       goods=goods, dormancy=dormancy, learn_lag=learn_lag)
    return got.edges, got.stock


def echo_reading(
    messages: Sequence[HeardMessage],
    *,
    min_shared_bits: float = MIN_SHARED_BITS,
    max_lag: int = MAX_LAG,
    max_novelty: float = MAX_NOVELTY,
    swap_every: int = SWAP_EVERY,
    max_specific_swaps: int = 0,
    stock_alpha: float = STOCK_ALPHA,
    goods: frozenset[str] = GOODS,
    dormancy: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    learn_lag: bool = True,
) -> EchoReading:
    """Link each message to the earlier message it echoes (module rules 1–7), one step per rule:
    :func:`canary_parents` (5), :func:`alike_pairs` (1-3 read loosely), :func:`prompted_messages` (6),
    the families of rule 4, :func:`qualifying_parents` (1-3 and 6 exactly), :func:`choose_parents` (7),
    :func:`linked_edges` (4, and the edges).

    ``dormancy``: agent -> its dormant spans ``(from, to)`` (:attr:`Exposure.dormancy`);
    delays are counted in ticks the echoing agent was awake.  ``max_lag``: the lag window to start
    from; with ``learn_lag``, the delays from the first qualifying copy each child heard say whether forwarding here is slower (:func:`~._delays.learnt_window`), and then the
    rules are read again with the wider window.  ``goods``: the goods of the game, and
    ``max_specific_swaps`` the specifics a copy may swap (rule 2; none).
    """
    log = _log(messages)
    if len(log) == 0:
        return EchoReading((), 0, max_lag, np.zeros(0, dtype=np.int64))
    kw: dict[str, Any] = {"min_shared_bits": min_shared_bits, "max_novelty": max_novelty, "swap_every": swap_every,
                          "max_specific_swaps": max_specific_swaps, "stock_alpha": stock_alpha, "goods": goods}
    words = _read_words(log)
    edges, stock, delays, repeats = _read_edges(log, words, dormancy, max_lag, **kw)
    window = learnt_window(delays, max_lag) if learn_lag else max_lag
    if window > max_lag:
        edges, stock, _delays, repeats = _read_edges(log, words, dormancy, window, **kw)
    return EchoReading(edges, stock, window, repeats)


@dataclass(frozen=True)
class _Words:
    """What the rules read of a log whatever the lag window: its texts, the fresh messages and rule 3's
    counts (read once when the window is learnt and the rules read again)."""

    texts: _Texts
    fresh: np.ndarray
    counts: Counts
    df: np.ndarray


def _read_words(log: MessageLog) -> _Words:
    """:func:`_read_texts`, :func:`fresh_messages` and :func:`word_counts` of ``log``."""
    texts = _read_texts(log)
    fresh = fresh_messages(texts, log)
    counts, df = word_counts(texts, fresh)
    return _Words(texts, fresh, counts, df)


def _read_edges(
    log: MessageLog, words: _Words, dormancy: Mapping[str, Sequence[tuple[int, int]]] | None, max_lag: int, *,
    min_shared_bits: float, max_novelty: float, swap_every: int, max_specific_swaps: int, stock_alpha: float,
    goods: frozenset[str],
) -> tuple[tuple[EchoEdge, ...], int, list[int], np.ndarray]:
    """:func:`echo_reading` with a fixed lag window: ``(edges, stock echoes, the delays in awake ticks of
    the children from the first copy they heard, per message whether it is an own repeat of its family
    (:func:`own_repeats`))``."""
    n = len(log)
    texts, fresh, counts, df = words.texts, words.fresh, words.counts, words.df
    everything = Information(counts, NOTHING, PRIOR_MESSAGES)
    clock = _Clock.of(dormancy, max_lag)
    canary = canary_parents(log)                                                          # rule 5
    matched = _text_matched(texts, canary)
    pairs, whole = alike_pairs(log, texts, df, everything, matched, clock, max_lag=max_lag,
                               min_shared_bits=min_shared_bits, max_novelty=max_novelty, goods=goods,
                               max_specific_swaps=max_specific_swaps)                     # rules 1-3, loosely
    own, prompted, origin, again = prompted_messages(pairs, n, log, clock, whole, texts, goods)  # rule 6
    families = _Families(pairs, whole, log, matched & origin, matched & ~prompted & ~own, prompted, clock)  # rule 4
    alignments = _Alignments(texts, goods)
    exact = _ExactReading(texts, fresh, families, counts, alignments, min_shared_bits=min_shared_bits,
                          max_novelty=max_novelty, swap_every=swap_every, max_specific_swaps=max_specific_swaps)
    parents, evidence = qualifying_parents(pairs, prompted, log, clock, exact)            # rules 1-3, 6
    weights = Weights.of(texts.forwards, np.bincount(texts.of_message, minlength=len(texts.forwards)).tolist(),
                         dict(zip(texts.words, map(everything.word_of, range(len(texts.words))))), everything.scale)
    choices = choose_parents(log, texts, alignments, parents, weights, families.label)   # rule 7
    linking = _Linking(log, texts, families, exact, weights, goods, stock_alpha)
    edges, stock = linked_edges(linking, canary, parents, evidence, choices)             # rule 4, edges
    edges.sort(key=lambda e: e.child)
    # the forwarding delays the window is read from: a text passed on again is a second recipient of one act, or
    # a forward prompted by a later copy, so its delay from the first copy heard is no forwarding delay
    linked = {m: parents[m] for m in _positions(log.events, {e.child for e in edges if e.via == "text"}).values()
              if not again[m]}
    repeats = own_repeats(payload_families(pairs, whole, texts), log, texts, goods)
    return tuple(edges), stock, first_heard_delays(linked, log, clock), repeats


def payload_families(pairs: _Pairs, whole: np.ndarray, texts: _Texts) -> np.ndarray:
    """Per message, its family (rule 4: the smallest message linked to it by near-whole likeness), and
    messages of one core (the same words) in one family however far apart they were said (the pairs are
    read within the lag window).  Only what the index reads: the edges read rule 4's own families."""
    n = len(texts.nid)
    worded = np.nonzero((texts.sets.sizes > 0)[texts.nid])[0]
    first_of_core = np.full(len(texts.cores), n, dtype=np.int64)
    np.minimum.at(first_of_core, texts.nid[worded], worded)
    same_core = first_of_core[texts.nid[worded]]
    return components(n, np.concatenate((pairs.j[whole], worded)), np.concatenate((pairs.i[whole], same_core)))


def own_repeats(family: np.ndarray, log: MessageLog, texts: _Texts, goods: frozenset[str]) -> np.ndarray:
    """Per message: the position of the message it repeats, -1 for none.  A repeat is no new payload: its
    sender had already sent (or re-sent) a text of its family (``family``: :func:`payload_families`) that
    holds every specific it names (rule 6's own repeat, :func:`names_held`: a story of another good, place
    or seat told in the same frame is a new one); it repeats the first such message.

    A sender's family of one text (most of them) needs no reading of specifics: its first message repeats
    nothing and every later one the first.  The others are read per sender and family with an index of the
    texts said so far by each specific they hold: the texts holding every specific of a new one are those the
    index lists under each of its specifics (every text said so far when it names none), never each earlier
    text read against it in turn (a sender's family of thousands of texts would be read in the square of
    that)."""
    n = len(family)
    out = np.full(n, -1, dtype=np.int64)
    if not n:
        return out
    (sender_codes, _senders), _aud, _texts = log.codes()
    who = np.asarray(sender_codes, dtype=np.int64)
    key = who * (int(family.max()) + 1) + family
    order = np.argsort(key, kind="stable")  # by sender and family, in log order
    key = key[order]
    starts = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
    core = texts.nid[order]
    one_text = np.minimum.reduceat(core, starts) == np.maximum.reduceat(core, starts)
    size = np.diff(np.append(starts, n))
    first = np.repeat(order[starts], size)  # each message's sender's first message of its family
    single = np.repeat(one_text, size)
    later = single & (order != first)
    out[order[later]] = first[later]
    _own_repeats_read(np.sort(order[~single]), family, who, texts, goods, out)
    return out


def _own_repeats_read(messages: np.ndarray, family: np.ndarray, who: np.ndarray, texts: _Texts,
                      goods: frozenset[str], out: np.ndarray) -> None:
    """:func:`own_repeats` of ``messages`` (those of the senders' families of two texts or more, in log order),
    each read against the index of what its sender said of its family before (:class:`_Said`), into ``out``."""
    if not len(messages):
        return
    specific = _specifics(texts, goods)
    said: dict[tuple[int, int], _Said] = {}  # (sender, family) -> what it said of that family, in order
    for m, sender, fam, core in zip(messages.tolist(), who[messages].tolist(), family[messages].tolist(),
                                    texts.nid[messages].tolist()):
        before = said.get((sender, fam))
        if before is None:
            before = said[(sender, fam)] = _Said()
        first = before.first.get(core)
        if first is not None:  # the same words again
            out[m] = first
            continue
        words = texts.sets.words(core)
        names = words[specific[words]].tolist()
        held = before.holding(names) if before.first else None
        if held is not None:
            out[m] = held
        before.add(core, m if held is None else held, names)


class _Said:
    """One sender's texts of one family so far (:func:`own_repeats`): per distinct text (core), where it was
    first said (or the message its first saying repeated), and per specific, the texts holding it, as a set
    and in the order of those places."""

    __slots__ = ("first", "by_name", "least")

    def __init__(self) -> None:
        self.first: dict[int, int] = {}
        self.by_name: dict[int, tuple[set[int], list[tuple[int, int]]]] = {}
        self.least: int | None = None  # the smallest of ``first``'s places

    def add(self, core: int, where: int, names: list[int]) -> None:
        self.first[core] = where
        for name in names:
            held = self.by_name.get(name)
            if held is None:
                held = self.by_name[name] = (set(), [])
            held[0].add(core)
            insort(held[1], (where, core))
        if self.least is None or where < self.least:
            self.least = where

    def holding(self, names: list[int]) -> int | None:
        """The smallest place among the texts holding every one of ``names`` (None: no such text): the first,
        in the order of places, of the texts of the rarest name that the others' hold too."""
        if not names:
            return self.least
        held = [self.by_name.get(name) for name in names]
        if any(h is None for h in held):
            return None
        found = sorted((h for h in held if h is not None), key=lambda h: len(h[0]))
        others = [h[0] for h in found[1:]]
        for where, core in found[0][1]:
            if all(core in other for other in others):
                return where
        return None


def first_heard_delays(parents: Mapping[int, Sequence[int]], log: MessageLog, clock: _Clock) -> list[int]:
    """Per child with qualifying candidates (``parents``: those linked, not stock phrases), the awake ticks of its sender from the first of them it
    heard to it, in log order (what :func:`~._delays.learnt_window` reads): when it first heard the
    text is unambiguous even where which copy it passed on is not."""
    (sender_codes, senders), _aud, _texts = log.codes()
    ticks = log.ticks
    return [clock.awake(senders[sender_codes[j]], ticks[c[0]], ticks[j]) for j, c in sorted(parents.items())]


def _wratio(texts: _Texts, log: MessageLog, j: int, i: int, memo: dict[tuple[int, int], float]) -> float:
    """rapidfuzz ``WRatio`` / 100 of the two messages' normalized texts (four places)."""
    a, b = int(texts.of_message[j]), int(texts.of_message[i])
    got = memo.get((a, b))
    if got is None:
        _s, _a, (text_codes, raw) = log.codes()
        score = fuzz.WRatio(normalize_text(raw[text_codes[j]]), normalize_text(raw[text_codes[i]]), processor=None)
        got = memo[(a, b)] = round(score / 100.0, 4)
    return got


def _positions(events: Sequence[int], wanted: set[int]) -> dict[int, int]:
    """Event id -> its position, for the ``wanted`` ids (the last one for an id seen twice)."""
    return {eid: i for i, eid in enumerate(events) if eid in wanted} if wanted else {}


def chains_of(
    messages: Sequence[HeardMessage],
    edges: Sequence[EchoEdge],
    tiers: Mapping[int, str] | None = None,
) -> tuple[Chain, ...]:
    """The echo forest's trees with at least one edge, sorted by root id."""
    return _chains(_log(messages), edges, tiers)


def _chains(log: MessageLog, edges: Sequence[EchoEdge], tiers: Mapping[int, str] | None) -> tuple[Chain, ...]:
    events, ticks = log.events, log.ticks
    (sender_codes, senders), (audience_codes, audiences), _texts = log.codes()
    children: dict[int, list[int]] = {}
    for e in edges:
        children.setdefault(e.parent, []).append(e.child)
    linked = {e.child for e in edges}
    at = _positions(events, linked | set(children))
    out: list[Chain] = []
    roots = sorted(node for node in children if node not in linked)
    for root in roots:
        r = at[root]
        root_sender, root_tick = senders[sender_codes[r]], ticks[r]
        layers = [sorted(layer) for layer in _layers(children, root)]
        members = [eid for layer in layers for eid in layer]
        first: dict[str, int] = {}
        exposed: set[str] = set()
        for eid in members:
            k = at[eid]
            sender = senders[sender_codes[k]]
            exposed.update(audiences[audience_codes[k]])
            if eid != root and sender != root_sender:
                t = ticks[k] - root_tick
                if sender not in first or t < first[sender]:
                    first[sender] = t
        exposed.discard(root_sender)
        out.append(Chain(
            root=root,
            sender=root_sender,
            tick=root_tick,
            tier=tiers.get(root) if tiers is not None else None,
            messages=tuple(members),
            generations=tuple(len(layer) for layer in layers),
            reach=len(first),
            exposed=len(exposed),
            time_to_reach=dict(sorted(first.items())),
        ))
    return tuple(out)


def _layers(children: Mapping[int, Sequence[int]], root: int) -> list[list[int]]:
    """The generations of the tree under ``root`` (``children``: node -> its children): each the nodes
    first reached from the one before (breadth first, each node once: ``networkx.bfs_layers``)."""
    seen, layer, out = {root}, [root], []
    while layer:
        out.append(layer)
        following = []
        for node in layer:
            for child in children.get(node, ()):
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        layer = following
    return out


def hijack_messages(tiers: Mapping[int, str]) -> frozenset[int]:
    """The event ids ``tiers`` (event id -> tier) puts in the hijack tier (its items read once, in
    order, where asking each message's tier would look each up)."""
    return frozenset(eid for eid, tier in tiers.items() if tier == "hijack")


def propagation(
    messages: Sequence[HeardMessage],
    tiers: Mapping[int, str] | None = None,
    *,
    caveat: str | None = None,
    dormancy: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    goods: frozenset[str] = GOODS,
    reading: EchoReading | None = None,
) -> Propagation:
    """Edges, chains and the match figures for ``messages`` (in log order).

    ``tiers``: event id -> tier (:mod:`.tiers`); without it every text is classified here.
    ``goods``: the goods of the game (:func:`goods_of` the archive).  ``reading``: the edges'
    :func:`echo_reading` of the same ``messages`` with the same ``dormancy`` and ``goods``, when read
    already (it reads no tier: another process may have read it); read here otherwise.
    """
    log = _log(messages)
    events = log.events
    (sender_codes, senders), (audience_codes, audiences), (text_codes, texts) = log.codes()
    if tiers is None:
        from .tiers import classify

        tier_of_text = [classify(text).tier for text in texts]
        tiers = {eid: tier_of_text[k] for eid, k in zip(events, text_codes)}
    if reading is None:
        reading = echo_reading(log, dormancy=dormancy, goods=goods)
    edges, stock = reading.edges, reading.stock
    chains = _chains(log, edges, tiers)
    children = {e.child for e in edges}
    chain_by_root = {c.root: c for c in chains}
    at = _positions(events, {eid for c in chains for eid in c.messages})
    resent: set[str] = set()
    exposed: set[str] = set()
    hijack = hijack_messages(tiers)
    repeat_of = hijack_repeats(reading, len(events))
    parent_of = {e.child: e.parent for e in edges}
    reach: dict[int, set[str]] = {}  # per hijack-tier root counted (its event id), the agents who re-sent it
    root_sender: dict[int, str] = {}
    repeats: set[int] = set()
    for k, eid in enumerate(events):
        if eid not in hijack or eid in children:
            continue
        sender = senders[sender_codes[k]]
        chain = chain_by_root.get(eid)
        # its hearers heard the payload, a repeat's as well
        for member in (eid,) if chain is None else chain.messages:
            exposed.update(a for a in audiences[audience_codes[k if member == eid else at[member]]] if a != sender)
        resenders = set() if chain is None else set(chain.time_to_reach)
        resent.update(resenders)
        if repeat_of[k] < 0:
            reach[eid], root_sender[eid] = resenders, sender
            continue
        repeats.add(eid)
        root = payload_root(events[int(repeat_of[k])], parent_of)
        if root in reach:  # who re-sent the repeat re-sent the payload
            reach[root].update(resenders - {root_sender[root]})
    reaches = [len(who) for who in reach.values()]
    return Propagation(
        edges=edges,
        chains=chains,
        hijack_roots=len(reaches),
        index=sum(reaches) / len(reaches) if reaches else None,
        resend_share=len(resent & exposed) / len(exposed) if exposed else None,
        stock_phrases=stock,
        messages=len(events),
        caveat=caveat,
        max_lag=reading.max_lag,
        hijack_repeats=len(repeats),
        root_reach={eid: len(who) for eid, who in reach.items()},
        repeat_events=frozenset(repeats),
    )


def hijack_repeats(reading: EchoReading, n: int) -> np.ndarray:
    """Per message: the position of the earlier message of its sender it repeats, -1 for none
    (:func:`own_repeats`; none when the reading did not say).  A repeat is no root of the index (no new
    payload: counted with its own reach, often 0, it would lower the index the more thoroughly an
    injection takes hold); the agents who re-sent it count for the root of the payload it repeats."""
    return np.full(n, -1, dtype=np.int64) if reading.repeats is None else reading.repeats


def payload_root(event: int, parent_of: Mapping[int, int]) -> int:
    """The root of the chain ``event`` belongs to (``parent_of``: child -> parent, the edges)."""
    while event in parent_of:
        event = parent_of[event]
    return event


# --------------------------------------------------------------------------- output

SNIPPET = 72
"""Characters of a message shown in the text tree."""


def _snippet(text: str, scrub_text: bool) -> str:
    """``text`` as the text tree shows it: its head scrubbed (unless ``scrub_text`` is False), every
    control character written out (:func:`~daishi_forensics.textsafe.shown`), runs of spaces made one,
    and cut to :data:`SNIPPET` characters with an ellipsis."""
    if scrub_text:
        from .secrets import scrub

        # the head scrubbed with what follows it in view: a secret the cut falls inside is replaced
        # whole, not shown as a fragment ("bob@e", half a key)
        head = scrub(text, limit=SNIPPET * 3, say_cut=False)
    else:
        head = text[: SNIPPET * 3]
    head = " ".join(shown(head).split())
    return head if len(head) <= SNIPPET else head[: SNIPPET - 1] + "\u2026"


def _data_text(text: str, scrub_text: bool) -> str:
    """``text`` as JSON carries it: as it is, scrubbed unless ``scrub_text`` is False (the scrubber
    replaces control characters other than newline and tab with U+FFFD and cuts a text past its limit,
    saying so).  Nothing is escaped for display: the JSON encoder escapes what it must, so a reader gets
    a newline back as a newline and a backslash as a backslash."""
    if not scrub_text:
        return text
    from .secrets import scrub

    return scrub(text)


def chain_nodes(
    chain: Chain, messages: Sequence[HeardMessage], edges: Sequence[EchoEdge], *, scrub_text: bool = True,
    snippets: bool = False,
) -> list[dict[str, Any]]:
    """The messages of one chain as JSON records (root first, then by generation and id).

    Each: ``event``, ``parent``, ``generation``, ``sender``, ``tick``, ``channel``,
    ``similarity``, ``via``, ``confidence``, ``reason``, ``tiedWith``, ``mutations`` (None or empty
    for the root), ``text`` (the message text as it is, scrubbed unless ``scrub_text`` is False; with
    ``snippets``, the text tree's display snippet instead: control characters written out, cut short).
    For many chains, :func:`chains_nodes` reads the log once.
    """
    return chains_nodes([chain], messages, edges, scrub_text=scrub_text, snippets=snippets)[0]


def chains_nodes(
    chains: Sequence[Chain], messages: Sequence[HeardMessage], edges: Sequence[EchoEdge], *, scrub_text: bool = True,
    snippets: bool = False,
) -> list[list[dict[str, Any]]]:
    """:func:`chain_nodes` of each chain, the log and the edges indexed once for them all."""
    wanted = {eid for chain in chains for eid in chain.messages}
    if isinstance(messages, MessageLog):  # only the chains' records
        by_event = {eid: messages[k] for eid, k in _positions(messages.events, wanted).items()}
    else:
        by_event = {m.event: m for m in messages}
    parent = {e.child: e for e in edges}
    text_of = partial(_snippet if snippets else _data_text, scrub_text=scrub_text)
    shown_words = _ScrubbedWords(by_event) if scrub_text else None
    return [_nodes(chain, by_event, parent, text_of, shown_words) for chain in chains]


def scrubbed_edges(edges: Sequence[dict[str, Any]], messages: Sequence[HeardMessage]) -> list[dict[str, Any]]:
    """The JSON of echo edges (``child``, ``parent``, ``reason``, ``mutations``) for scrubbed output: a
    reason or edit quotes no fragment the scrubbed texts hide (see :class:`_ScrubbedWords`)."""
    wanted = {e[k] for e in edges for k in ("child", "parent") if isinstance(e.get(k), int)}
    if isinstance(messages, MessageLog):
        by_event = {eid: messages[k] for eid, k in _positions(messages.events, wanted).items()}
    else:
        by_event = {m.event: m for m in messages if m.event in wanted}
    words = _ScrubbedWords(by_event)

    def hidden(text: Any, e: dict[str, Any]) -> Any:
        if not isinstance(text, str) or "'" not in text:
            return text
        return words.hide(text, (e.get("child"), e.get("parent")))

    return [{**e, "reason": hidden(e.get("reason"), e),
             "mutations": [hidden(m, e) for m in e.get("mutations") or []]} for e in edges]


_FRAGMENT = re.compile(r" '(.*)'")
"""A fragment of a message quoted in an edit's description or an edge's reason (``words after 'call me'``)."""


def _words(text: str) -> set[str]:
    """The words and marks of ``text``, case folded (what a quoted fragment is made of)."""
    return set(re.findall(r"[^\W_]+|[^\w\s]", text.casefold()))


class _ScrubbedWords:
    """The words left in a message once scrubbed, per event (scrubbed once, when first asked): a
    fragment an edge quotes is shown only if the scrubbed texts still show each of its words, so a
    scrubbed output never repeats in an edit ("words after 'call 555 123 4567'") what it hid in a text."""

    def __init__(self, by_event: Mapping[int, HeardMessage]) -> None:
        self._by_event = by_event
        self._words: dict[int, set[str]] = {}

    def of(self, event: int | None) -> set[str]:
        if event is None or event not in self._by_event:
            return set()
        if event not in self._words:
            from .secrets import scrub

            self._words[event] = _words(scrub(self._by_event[event].text))
        return self._words[event]

    def hide(self, description: str, events: Sequence[int | None]) -> str:
        """``description`` without its quoted fragment when a word of it is not in the scrubbed texts."""
        found = _FRAGMENT.search(description)
        if found is None:
            return description
        fragment = _words(found.group(1))
        if "punctuation" in description:
            fragment.discard("none")  # "punctuation 'none'": the marks were taken out, no word of a message
        visible: set[str] = set()
        for event in events:
            visible |= self.of(event)
            if fragment <= visible:
                return description
        return description[: found.start()] + description[found.end():]


def _nodes(chain: Chain, by_event: Mapping[int, HeardMessage], parent: Mapping[int, EchoEdge],
           text_of: Callable[[str], str], shown_words: _ScrubbedWords | None = None) -> list[dict[str, Any]]:
    """The records of :func:`chain_nodes` for ``chain``, each message's text given by ``text_of``
    (``shown_words``: scrubbed output, whose edits quote no fragment the scrubbed texts hide)."""
    depth: dict[int, int] = {chain.root: 0}
    out = []
    for eid in chain.messages:
        e = parent.get(eid)
        if e is not None:
            depth[eid] = depth.get(e.parent, 0) + 1
        m = by_event[eid]
        edge = None if e is None or eid == chain.root else e
        out.append({
            "event": eid,
            "parent": None if edge is None else edge.parent,
            "generation": depth.get(eid, 0),
            "sender": m.sender,
            "tick": m.tick,
            "channel": m.channel if m.to is None else f"private to {m.to}",
            "similarity": None if edge is None else edge.similarity,
            "via": None if edge is None else edge.via,
            "confidence": None if edge is None else edge.confidence,
            "reason": None if edge is None else _hidden(edge.reason, edge, shown_words),
            "tiedWith": [] if edge is None else list(edge.tied_with),
            "mutations": [] if edge is None else [_hidden(m, edge, shown_words) for m in edge.mutations],
            "text": text_of(m.text),
        })
    return out


def _hidden(description: str, edge: EchoEdge, shown_words: _ScrubbedWords | None) -> str:
    """An edge's reason or edit as the output shows it (scrubbed output: see :class:`_ScrubbedWords`)."""
    if shown_words is None or "'" not in description:
        return description
    return shown_words.hide(description, (edge.child, edge.parent))


def _repeats_note(repeats: int) -> str:
    """The text tree's note on the repeats left out of the index (nothing when there are none)."""
    if not repeats:
        return ""
    return f"; {repeats} {'repeat' if repeats == 1 else 'repeats'} of a text their sender had already sent left out"


def tree_text(
    prop: Propagation,
    messages: Sequence[HeardMessage],
    *,
    scrub_text: bool = True,
    min_reach: int = 0,
    tiers: Sequence[str] | None = None,
) -> str:
    """The chains as an indented text tree, one line per message (scrubbed snippets by default).

    Only chains that reached at least ``min_reach`` agents and, if ``tiers`` is given,
    whose root has one of those tiers.
    """
    lines = [
        f"{prop.messages} messages, {len(prop.edges)} echo edges, {len(prop.chains)} chains; "
        f"propagation index {'-' if prop.index is None else round(prop.index, 4)} "
        f"({prop.hijack_roots} hijack-tier roots{_repeats_note(prop.hijack_repeats)}), resend share "
        f"{'-' if prop.resend_share is None else round(prop.resend_share, 4)}; "
        f"{prop.stock_phrases} echoes of stock phrases not linked",
    ]
    if prop.caveat:
        lines.append(f"note: {prop.caveat}")
    shown_chains = [tree for tree in prop.chains
                    if tree.reach >= min_reach and (tiers is None or tree.tier in tiers)]
    nodes_of = chains_nodes(shown_chains, messages, prop.edges, scrub_text=scrub_text, snippets=True)
    for tree, nodes in zip(shown_chains, nodes_of):
        lines.append("")
        lines.append(
            f"chain {tree.root}  tier {tree.tier or '?'}  reach {tree.reach}  depth {tree.depth}  "
            f"exposed {tree.exposed}  generations {'/'.join(str(g) for g in tree.generations)}"
        )
        children: dict[int, list[dict[str, Any]]] = {}
        for node in nodes[1:]:
            children.setdefault(node["parent"], []).append(node)

        def walk(node: dict[str, Any], prefix: str, last: bool, top: bool,
                 children: dict[int, list[dict[str, Any]]] = children) -> None:
            branch = "" if top else ("\u2514\u2500 " if last else "\u251c\u2500 ")
            sim = "" if node["similarity"] is None else f"  {node['via']} {node['similarity']:.2f}"
            why = "" if node["reason"] is None else f"  [confidence {node['confidence']:.2f}: {node['reason']}]"
            lines.append(
                f"{prefix}{branch}{node['event']}  t{node['tick']}  {node['sender']}  {node['channel']}{sim}  "
                f"\"{node['text']}\"{why}"
            )
            kids = children.get(node["event"], [])
            for k, kid in enumerate(kids):
                walk(kid, prefix + ("" if top else ("   " if last else "\u2502  ")), k == len(kids) - 1, False)

        walk(nodes[0], "  ", True, True)
    return "\n".join(shown(line) for line in lines) + "\n"
