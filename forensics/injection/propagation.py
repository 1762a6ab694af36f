"""Propagation chains: which message echoes which, and how far a payload spread.

Seed 002 §2.7 ("a propagation index: how far payloads cascade"; "payload-similarity
matching across messages") and §3.1 item 10 (quote/echo detection).  A message
*c* from agent *s* echoes an earlier message *p* when:

1. **Exposure.**  *s* heard *p* (:mod:`.exposure`: broadcast, local, direct), *p*
   came earlier in the log, from another agent.  An agent who never heard a
   message did not copy it.
2. **Similar text.**  On texts casefolded with punctuation made spaces (first
   :data:`FUZZ_CAP` characters): rapidfuzz ``ratio`` ≥ :data:`MIN_SIMILARITY`
   (verbatim, case changes, a changed or swapped word), or the words of one are
   all words of the other, at least :data:`MIN_QUOTE_WORDS` of them (a partial
   quote, added words, reordered words).
3. **Enough shared information.**  The shared words carry at least
   :data:`MIN_SHARED_BITS` bits (Σ log2((N + 1 + :data:`PRIOR_MESSAGES`) / df): N
   messages, df = messages holding the word); the words *c* adds carry at most
   :data:`MAX_NOVELTY` times that (an echo mostly repeats); and words both dropped
   and put in their place at most :data:`MAX_CHANGE` times that (an echo adds words
   or quotes a part; two trade asks that differ in the goods and the region are
   alike without one copying the other).
4. **Stock phrases do not chain.**  Similar texts form families (union-find).
   A family that two or more senders produced *independently* -- without having
   heard any of it and without having said it before -- is a stock phrase: its
   copies cannot be told from coincidences, so none of its messages gets a
   text parent (the decoy "anyone trading wood for ore?" said by agents who never
   heard each other is one).
5. **Canaries are exact.**  A message holding a broadcast-canary token (contract
   §5) links to the latest earlier message holding that token that its sender
   heard (``via: "canary"``), whatever else holds.
6. **Timing.**  The echo comes at most :data:`MAX_LAG` ticks after *p*, at most
   :data:`MAX_LAG` ticks after *s* first heard any message of the family (counting
   only ticks *s* was awake: a dormant agent cannot pass anything on), and
   before *s* had itself used the text; of the messages that qualify, the
   parent is the first one *s* heard (an agent passes on what reached it first).

Fast by pruning, never all pairs: a message looks only at earlier messages that
share one of its :data:`RARE_TOKENS` rarest words (document frequency ≥ 2): per
word, the first and the latest :data:`POSTINGS_PER_TOKEN` within the lag window and
:data:`OLDER_PER_TOKEN` before it; identical texts are scored once, in one
rapidfuzz ``process.extract`` call with a score cutoff.  Edges report the
rapidfuzz ``WRatio`` similarity (0–1).

Chains (networkx forest, one parent per message): per root, the generations
(messages per depth), depth, reach (distinct agents other than the root's
sender who re-sent it), the agents exposed to any message of the chain, and the
ticks until each re-sender first re-sent it.  Per match: the propagation index
(mean reach of hijack-tier roots, lone messages included with reach 0) and the
share of agents exposed to a hijack-tier root's chain who re-sent it.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import networkx as nx
import numpy as np
from rapidfuzz import fuzz, process

from daishi_forensics.textsafe import shown

from .exposure import HeardMessage, MessageLog

__all__ = [
    "FUZZ_CAP",
    "MIN_SIMILARITY",
    "MIN_SHARED_BITS",
    "PRIOR_MESSAGES",
    "MAX_NOVELTY",
    "MAX_CHANGE",
    "MAX_LAG",
    "MIN_QUOTE_WORDS",
    "RARE_TOKENS",
    "POSTINGS_PER_TOKEN",
    "OLDER_PER_TOKEN",
    "EchoEdge",
    "Chain",
    "Propagation",
    "echo_edges",
    "chains_of",
    "propagation",
    "normalize_text",
    "chain_nodes",
    "tree_text",
]

FUZZ_CAP = 1000
"""Characters of a (normalized) text the fuzzy matcher compares."""

MIN_SIMILARITY = 85.0
"""rapidfuzz ``ratio`` (0–100) a child must reach against its parent, unless one's
words all occur in the other (rule 2)."""

MIN_SHARED_BITS = 32.0
"""Information (bits) the shared words must carry."""

PRIOR_MESSAGES = 64
"""Messages assumed besides the match's when a word's information is measured
(log2((N + 1 + 64) / df)): a small match says little about which words are rare."""

RARE_TOKENS = 4
"""Per message, its rarest words (document frequency ≥ 2) that generate candidates."""

POSTINGS_PER_TOKEN = 12
"""Per rare word, how many of the first and of the latest earlier messages holding it within
the lag window are candidates."""

OLDER_PER_TOKEN = 4
"""Per rare word, how many messages before the lag window are looked at too (old acquaintance, rule 6)."""

MIN_QUOTE_WORDS = 5
"""A text whose words all occur in another (a partial quote, added or swapped words) is
similar to it when it has at least this many distinct words."""

MAX_NOVELTY = 0.5
"""The words a child adds may carry at most this share of the information it shares with its parent."""

MAX_CHANGE = 0.15
"""Words both dropped from the parent and put in their place (a substitution) may carry at most
this share of the shared information: an echo adds words or quotes a part, it does not swap
the specifics (two trade asks that differ in the goods and the region are not copies)."""

MAX_LAG = 20
"""Ticks within which a heard message can be echoed (rule 6)."""

_NON_WORD = re.compile(r"\W+")


def normalize_text(text: str) -> str:
    """Casefolded, every run of non-word characters one space (letters, digits and ``_`` stay:
    a region id is one word), trimmed, cut at :data:`FUZZ_CAP` characters."""
    return _NON_WORD.sub(" ", text[: FUZZ_CAP * 2].casefold()).strip()[:FUZZ_CAP]


@dataclass(frozen=True, slots=True)
class EchoEdge:
    """Message ``child`` echoes message ``parent``."""

    parent: int
    """The earlier message's event id."""
    child: int
    """The echoing message's event id."""
    similarity: float
    """WRatio / 100 (0–1, four places)."""
    via: str
    """``text`` (fuzzy match) or ``canary`` (exact canary token)."""
    lag: int
    """Ticks from parent to child."""

    def to_json(self) -> dict[str, Any]:
        return {"parent": self.parent, "child": self.child, "similarity": self.similarity,
                "via": self.via, "lag": self.lag}


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
    """Hijack-tier messages that echo nothing (chain roots and lone messages)."""
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

    def to_json(self) -> dict[str, Any]:
        """The report's ``propagation`` object."""
        return {
            "edges": [e.to_json() for e in self.edges],
            "chains": [c.to_json() for c in self.chains],
            "hijackRoots": self.hijack_roots,
            "index": None if self.index is None else round(self.index, 4),
            "resendShare": None if self.resend_share is None else round(self.resend_share, 4),
            "stockPhrases": self.stock_phrases,
            "messages": self.messages,
            "rules": {"minSimilarity": MIN_SIMILARITY, "minSharedBits": MIN_SHARED_BITS,
                      "maxNovelty": MAX_NOVELTY, "maxLag": MAX_LAG, "minQuoteWords": MIN_QUOTE_WORDS,
                      "fuzzCap": FUZZ_CAP},
            "caveat": self.caveat,
        }


def _log(messages: Sequence[HeardMessage]) -> MessageLog:
    """``messages`` as a :class:`~daishi_forensics.injection.exposure.MessageLog` (read by column)."""
    return messages if isinstance(messages, MessageLog) else MessageLog.of(list(messages))


def echo_edges(
    messages: Sequence[HeardMessage],
    *,
    min_similarity: float = MIN_SIMILARITY,
    min_shared_bits: float = MIN_SHARED_BITS,
    max_lag: int = MAX_LAG,
    max_novelty: float = MAX_NOVELTY,
    max_change: float = MAX_CHANGE,
    dormancy: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> tuple[tuple[EchoEdge, ...], int]:
    """Link each message to the earlier message it echoes (module rules 1–7).

    ``dormancy``: agent -> its dormant spans ``(from, to)`` (:attr:`Exposure.dormancy`);
    delays are counted in ticks the echoing agent was awake.  Returns ``(edges sorted by
    child id, echoes left unlinked because their text is a stock phrase)``.

    How (the rules decide; this is only the order of work): the candidates of every
    message are gathered at once with numpy (the postings of its rarest words, as
    pairs (message, earlier message)); whether two texts are alike (rule 2 and the
    shared information of rule 3) is decided once per pair of distinct normalized
    texts, with cheap bounds first (the information each text carries, the length
    bound of ``ratio``) and rapidfuzz's pairwise ``cpdist``; the per-message
    decisions (rules 1, 4, 6) are array operations, and only the messages that heard
    a similar message and had not said it themselves are looked at one by one.
    """
    asleep = {a: sorted(tuple(s) for s in spans) for a, spans in (dormancy or {}).items() if spans}

    def window_start(agent: str, stop: int) -> int:
        """The earliest tick t with at most ``max_lag`` awake ticks of ``agent`` in ``[t, stop)``."""
        spans = asleep.get(agent)
        remaining, cursor = max_lag, stop
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

    def awake(agent: str, start: int, stop: int) -> int:
        """Ticks in ``[start, stop)`` during which ``agent`` was not dormant."""
        spans = asleep.get(agent)
        lag = stop - start
        if not spans or lag <= 0:
            return lag
        k = bisect_left(spans, (start, start)) - 1
        for a, b in spans[max(k, 0):]:
            if a >= stop:
                break
            lag -= max(0, min(b, stop) - max(a, start))
        return lag

    log = _log(messages)
    events = log.events
    ticks = log.ticks
    canaries = log.canaries
    (sender_codes, sender_names), (audience_codes, audiences), (text_codes, raw_texts) = log.codes()
    n = len(ticks)
    if n == 0:
        return (), 0

    # -- distinct texts: one normalized text and word set each; nid[j] names message j's
    # (only the texts these messages use: a slice of a log shares the log's tables)
    used, local = _unique(np.asarray(text_codes, dtype=np.int64), inverse=True)
    norm_id: dict[str, int] = {}
    of_raw = [norm_id.setdefault(normalize_text(raw_texts[k]), len(norm_id)) for k in used.tolist()]
    norms = list(norm_id)
    del norm_id, used
    word: dict[str, str] = {}  # one string object per distinct word
    token_sets = [frozenset([word.setdefault(w, w) for w in s.split()]) for s in norms]
    del word
    n_texts = len(norms)
    nid = np.array(of_raw, dtype=np.int64)[local]
    sid = np.asarray(sender_codes, dtype=np.int64)
    senders = sender_names
    copies = np.bincount(nid, minlength=n_texts).tolist()
    df: dict[str, int] = {}
    for k, toks in enumerate(token_sets):
        c = copies[k]
        for t in toks:
            df[t] = df.get(t, 0) + c
    log_n = math.log2(n + 1 + PRIOR_MESSAGES)
    bits = {t: log_n - math.log2(c) for t, c in df.items()}
    rank = {t: r for r, t in enumerate(sorted((t for t, c in df.items() if c >= 2), key=lambda t: (df[t], t)))}
    # per distinct text its rarest words (document frequency >= 2), as ranks; a word's postings
    # (every message holding it, in log order) are needed only for the words some text picks
    rare_of = [sorted(rank[t] for t in toks if t in rank)[:RARE_TOKENS] for toks in token_sets]
    picked = sorted({r for rare in rare_of for r in rare})
    word_of = {w: t for t, w in rank.items()}
    is_picked = {word_of[r] for r in picked}
    posted = [sorted(rank[t] for t in toks if t in is_picked) for toks in token_sets]
    del word_of, is_picked

    # -- rule 5 (canaries, exact) and the messages that take part in text matching
    parent_of: dict[int, tuple[int, str]] = {}   # child -> (parent, via)
    matched = np.array([len(toks) > 0 for toks in token_sets], dtype=bool)[nid]
    canary_seen: dict[str, list[int]] = {}
    for j in sorted(canaries):
        found = canaries[j]
        if not found:
            continue
        sender = senders[sender_codes[j]]
        best_i = -1
        for c in found:
            for i in reversed(canary_seen.get(c, ())):
                if senders[sender_codes[i]] != sender and sender in audiences[audience_codes[i]]:
                    best_i = max(best_i, i)
                    break
        for c in found:
            canary_seen.setdefault(c, []).append(j)
        if best_i >= 0:
            parent_of[j] = (best_i, "canary")
            matched[j] = False

    # -- candidates (message j, earlier message i): per rare word of j, the first and the latest
    # messages holding it within j's lag window, and a few before the window
    stride = n + 1
    post_len = np.array([len(p) for p in posted], dtype=np.int64)
    post_flat = np.fromiter(chain.from_iterable(posted), dtype=np.int64, count=int(post_len.sum()))
    # postings: (word, message) for every picked word of every message, as keys word * stride + message;
    # a message's rare words are the first of its picked words (both in rank order): its queries
    owners, words, within = _expand_lists(nid, post_len, post_flat)
    rare_len = np.array([len(r) for r in rare_of], dtype=np.int64)
    query = (within < rare_len[nid[owners]]) & matched[owners]
    keys = words * stride + owners
    del owners, words, within, post_flat
    order = np.argsort(keys)
    keys = keys[order]                                          # sorted by (word, message)
    holder = keys % stride                                      # the message at each postings position
    at = np.nonzero(query[order])[0]                           # the queries, by (word, message)
    del order, query
    qj = holder[at]
    base = keys[at] - qj                                        # word * stride
    lo = _window_lows(ticks, sid, senders, asleep, window_start, max_lag)
    seg = np.searchsorted(keys, base)                           # the word's first posting
    end = at                                                    # the message's own posting
    start = np.searchsorted(keys, base + lo[qj])                # the first posting in its lag window
    del at, base
    by_message = np.argsort(qj, kind="stable")
    qj, seg, end, start = qj[by_message], seg[by_message], end[by_message], start[by_message]
    del by_message
    pair_j: list[np.ndarray] = []
    pair_i: list[np.ndarray] = []
    small_index = np.int32 if n < 1 << 31 else np.int64
    c0 = 0
    while c0 < len(qj):  # by message, about 16,384 queries at a time (bounded memory)
        c1 = min(len(qj), c0 + 16_384)
        if c1 < len(qj):  # every query of a message in one piece
            c1 = int(np.searchsorted(qj, qj[c1 - 1], side="right"))
        cj, cs, ce, cg = qj[c0:c1], start[c0:c1], end[c0:c1], seg[c0:c1]
        small = ce - cs <= 2 * POSTINGS_PER_TOKEN
        b1 = np.where(small, ce, cs + POSTINGS_PER_TOKEN)
        a2 = np.where(small, ce, ce - POSTINGS_PER_TOKEN)
        a3 = np.maximum(cg, cs - OLDER_PER_TOKEN)
        range_start = np.concatenate((cs, a2, a3))
        range_len = np.concatenate((b1 - cs, ce - a2, cs - a3))
        pos = _expand(range_start, range_len)
        code = _unique(np.repeat(np.concatenate((cj, cj, cj)), range_len) * stride + holder[pos])
        pair_j.append((code // stride).astype(small_index))
        pair_i.append((code % stride).astype(small_index))
        c0 = c1
    cand_j = np.concatenate(pair_j) if pair_j else np.zeros(0, dtype=np.int64)
    cand_i = np.concatenate(pair_i) if pair_i else np.zeros(0, dtype=np.int64)
    del pair_j, pair_i, keys, holder, qj, seg, end, start

    # -- rules 2 and 3 (shared information), once per pair of distinct texts
    text_pair = nid[cand_j] * n_texts + nid[cand_i]
    distinct = _unique(text_pair)
    which = np.searchsorted(distinct, text_pair)
    del text_pair
    alike = _alike(distinct // n_texts, distinct % n_texts, norms, token_sets, bits,
                   min_similarity, min_shared_bits)
    in_family = alike[which]
    fam_j, fam_i = cand_j[in_family], cand_i[in_family]       # sorted by (j, i)
    del distinct, which, alike, in_family, cand_j, cand_i

    # -- per message: its family (candidates alike), its own earlier uses, what it heard
    has_family = np.zeros(n, dtype=bool)
    has_family[fam_j] = True
    origin = matched & ~has_family                    # no candidate, or none alike (rule 4)
    n_senders = len(senders)
    own = sid[fam_i] == sid[fam_j]
    has_own = np.zeros(n, dtype=bool)
    has_own[fam_j[own]] = True
    other = ~own
    heard = np.zeros(len(fam_j), dtype=bool)
    if other.any():
        heard[other] = _heard(fam_j[other], fam_i[other], sid, senders,
                              np.asarray(audience_codes, dtype=np.int64), audiences)
    has_heard = np.zeros(n, dtype=bool)
    has_heard[fam_j[heard]] = True
    origin |= has_family & ~has_own & ~has_heard     # said it without having heard it (rule 4)

    # rule 6 and rule 3, one by one: messages that heard the text and had not used it themselves
    look = has_heard & ~has_own
    if look.any():
        sel = look[fam_j] & heard
        hj, hi = fam_j[sel].tolist(), fam_i[sel].tolist()
        repeats: dict[tuple[int, int], bool] = {}
        k, total = 0, len(hj)
        while k < total:
            j = hj[k]
            stop = k
            while stop < total and hj[stop] == j:
                stop += 1
            sender, tick = senders[sender_codes[j]], ticks[j]
            heard_j = hi[k:stop]                       # ascending
            k = stop
            if awake(sender, ticks[heard_j[0]], tick) > max_lag:
                continue
            i = next((i for i in heard_j if awake(sender, ticks[i], tick) <= max_lag), None)
            if i is None:
                continue
            pair = (int(nid[j]), int(nid[i]))
            holds = repeats.get(pair)
            if holds is None:
                toks, mine = token_sets[pair[0]], token_sets[pair[1]]
                shared_bits = sum(bits[t] for t in toks & mine)
                added = sum(bits[t] for t in toks - mine)
                dropped = sum(bits[t] for t in mine - toks)
                # rule 3: an echo mostly repeats, and keeps the parent's words or quotes part of them
                holds = repeats[pair] = (added <= max_novelty * shared_bits
                                         and min(added, dropped) <= max_change * shared_bits)
            if holds:
                parent_of[j] = (i, "text")

    # rule 4: a family (texts linked by likeness) produced independently by two or more
    # senders is a stock phrase
    family_of = _components(n, fam_j, fam_i)
    stock_families: set[int] = set()
    if origin.any():
        at = np.nonzero(origin)[0]
        pairs = _unique(family_of[at] * (n_senders + 1) + sid[at])
        fams = pairs // (n_senders + 1)
        stock_families = set(fams[1:][fams[1:] == fams[:-1]].tolist())  # two senders or more
    edges: list[EchoEdge] = []
    stock = 0
    scores: dict[tuple[int, int], float] = {}
    for j in sorted(parent_of):
        i, via = parent_of[j]
        if via == "text" and int(family_of[j]) in stock_families:
            stock += 1
            continue
        pair = (int(nid[j]), int(nid[i]))
        score = scores.get(pair)
        if score is None:
            score = scores[pair] = fuzz.WRatio(norms[pair[0]], norms[pair[1]], processor=None)
        edges.append(EchoEdge(events[i], events[j], round(score / 100.0, 4), via, ticks[j] - ticks[i]))
    edges.sort(key=lambda e: e.child)
    return tuple(edges), stock


def _expand(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[k] .. starts[k] + lengths[k] - 1`` for every k, concatenated."""
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    return np.repeat(starts - (np.cumsum(lengths) - lengths), lengths) + np.arange(total, dtype=np.int64)


def _expand_lists(
    of: np.ndarray, length: np.ndarray, flat: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For items k with list number ``of[k]`` (the lists stored end to end in ``flat``, ``length``
    each): per element of every item's list, ``(k, the element, its place in the list)``."""
    offsets = np.cumsum(length) - length
    lens = length[of]
    total = int(lens.sum())
    owners = np.repeat(np.arange(len(of), dtype=np.int64), lens)
    within = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(lens) - lens, lens)
    return owners, flat[offsets[of][owners] + within], within


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


def _alike(
    a: np.ndarray,
    b: np.ndarray,
    norms: Sequence[str],
    token_sets: Sequence[frozenset[str]],
    bits: Mapping[str, float],
    min_similarity: float,
    min_shared_bits: float,
) -> np.ndarray:
    """Per pair of distinct texts (a = the later message's, b = the candidate's): similar by
    rule 2 and sharing at least ``min_shared_bits`` (rule 3).

    The shared information is summed with numpy; a sum within a hair of the threshold
    (where the order of the additions could matter) is summed again exactly as the rule
    says, ``sum(bits[t] for t in words_a & words_b)``.  Pairs are taken 32,768 at a time
    (bounded memory).
    """
    out = np.zeros(len(a), dtype=bool)
    if not len(a):
        return out
    margin = 1e-6 * max(1.0, abs(min_shared_bits))
    word_id = {t: k for k, t in enumerate(bits)}
    word_bits = np.fromiter(bits.values(), dtype=np.float64, count=len(bits))
    n_words = np.array([len(t) for t in token_sets], dtype=np.int64)
    flat = np.fromiter((word_id[t] for toks in token_sets for t in toks), dtype=np.int64, count=int(n_words.sum()))
    del word_id
    offsets = np.cumsum(n_words) - n_words
    owner_text = np.repeat(np.arange(len(token_sets), dtype=np.int64), n_words)
    # the shared words carry at most what each text carries: a text carrying less cannot pass
    carried = np.bincount(owner_text, weights=word_bits[flat], minlength=len(token_sets))
    rich = carried >= min_shared_bits - margin
    lengths = np.array([len(s) for s in norms], dtype=np.float64)
    if len(token_sets) * len(bits) <= 1 << 24:  # a text-by-word table answers "does y hold the word"
        table: np.ndarray | None = np.zeros((len(token_sets), len(bits)), dtype=bool)
        table[owner_text, flat] = True
        known = None
        stride = 0
    else:  # else membership of (y, word) among every (text, word), sorted
        table = None
        stride = len(bits) + 1
        known = np.sort(owner_text * stride + flat)
    del owner_text
    for c0 in range(0, len(a), 32_768):
        ca, cb = a[c0:c0 + 32_768], b[c0:c0 + 32_768]
        # a partial quote needs MIN_QUOTE_WORDS words on both sides; else only ratio can make the
        # pair alike, and ratio <= 100 * (1 - |la - lb| / (la + lb)): lengths too far apart cannot
        la, lb = lengths[ca], lengths[cb]
        bound = 100.0 * (1.0 - np.abs(la - lb) / np.maximum(la + lb, 1.0))
        fewer = np.minimum(n_words[ca], n_words[cb])
        maybe = np.nonzero(rich[ca] & rich[cb] & ((fewer >= MIN_QUOTE_WORDS) | (bound >= min_similarity - 0.01)))[0]
        if not len(maybe):
            continue
        x, y, bound, fewer = ca[maybe], cb[maybe], bound[maybe], fewer[maybe]
        # the words of x that y holds
        pair = np.repeat(np.arange(len(x), dtype=np.int64), n_words[x])
        word = flat[_expand(offsets[x], n_words[x])]
        if table is not None:
            held = table[y[pair], word]
        else:
            assert known is not None
            code = y[pair] * stride + word
            held = known[np.minimum(np.searchsorted(known, code), len(known) - 1)] == code
            del code
        common = np.bincount(pair, weights=held, minlength=len(x))
        shared = np.bincount(pair, weights=np.where(held, word_bits[word], 0.0), minlength=len(x))
        del pair, word, held
        # rule 3's threshold, exact where the sum is within a hair of it
        enough = shared >= min_shared_bits + margin
        unsure = np.nonzero((shared >= min_shared_bits - margin) & ~enough)[0]
        if len(unsure):
            xs, ys = x[unsure].tolist(), y[unsure].tolist()
            enough[unsure] = np.fromiter(
                (sum(bits[t] for t in token_sets[p] & token_sets[q]) >= min_shared_bits for p, q in zip(xs, ys)),
                dtype=bool, count=len(xs))
        # one word set inside the other (a partial quote, added words), at least MIN_QUOTE_WORDS words:
        # the words in common are all the words of the smaller set
        subset = (fewer >= MIN_QUOTE_WORDS) & (common == fewer)
        # else close by ratio (scored only where the length bound allows it)
        score = np.nonzero(enough & ~subset & (bound >= min_similarity - 0.01))[0]
        close = np.zeros(len(x), dtype=bool)
        if len(score):
            xs, ys = x[score].tolist(), y[score].tolist()
            got = process.cpdist([norms[p] for p in xs], [norms[q] for q in ys],
                                 scorer=fuzz.ratio, processor=None, score_cutoff=min_similarity, dtype=np.float64)
            close[score] = got >= min_similarity
        out[c0 + maybe] = enough & (subset | close)
    return out


def _unique(values: np.ndarray, inverse: bool = False) -> Any:
    """Sorted distinct values (and, with ``inverse``, each value's index among them)."""
    if not inverse:
        s = np.sort(values)
        keep = np.ones(len(s), dtype=bool)
        keep[1:] = s[1:] != s[:-1]
        return s[keep]
    order = np.argsort(values)
    s = values[order]
    keep = np.ones(len(s), dtype=bool)
    keep[1:] = s[1:] != s[:-1]
    which = np.empty(len(s), dtype=np.int64)
    which[order] = np.cumsum(keep) - 1
    return s[keep], which


def _heard(
    later: np.ndarray, earlier: np.ndarray, sid: np.ndarray, senders: Sequence[str], aud: np.ndarray,
    audiences: Sequence[frozenset[str]],
) -> np.ndarray:
    """Per pair: the sender of message ``later`` heard message ``earlier`` (decided once per
    distinct (audience, sender))."""
    n_senders = len(senders)
    code = aud[earlier] * n_senders + sid[later]
    distinct, which = _unique(code, inverse=True)
    member = np.fromiter((senders[c % n_senders] in audiences[c // n_senders] for c in distinct.tolist()),
                         dtype=bool, count=len(distinct))
    return member[which]


def _components(n: int, fam_j: np.ndarray, fam_i: np.ndarray) -> np.ndarray:
    """Per message: the smallest message of its family (connected by j -- the latest message of
    j's family, for every message j with a family)."""
    label = np.arange(n, dtype=np.int64)
    if not len(fam_j):
        return label
    # the latest message of each family: fam pairs are sorted by (j, i)
    last = np.ones(len(fam_j), dtype=bool)
    last[:-1] = fam_j[1:] != fam_j[:-1]
    u, v = fam_j[last], fam_i[last]
    for _round in range(64):
        lu, lv = label[u], label[v]
        low, high = np.minimum(lu, lv), np.maximum(lu, lv)
        differ = low != high
        if not differ.any():
            return label
        np.minimum.at(label, high[differ], low[differ])  # hook the larger label onto the smaller
        while True:  # point every message at its label's label until nothing changes
            nxt = label[label]
            if (nxt == label).all():
                break
            label = nxt
    # not settled after many rounds (a contrived graph): finish with a plain union-find
    parent = label.tolist()

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for x, y in zip(u.tolist(), v.tolist()):
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    return np.array([find(x) for x in range(n)], dtype=np.int64)


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
    g: nx.DiGraph = nx.DiGraph()
    g.add_edges_from((e.parent, e.child) for e in edges)
    at = _positions(events, set(g.nodes))
    out: list[Chain] = []
    roots = sorted(node for node in g.nodes if g.in_degree(node) == 0)
    for root in roots:
        r = at[root]
        root_sender, root_tick = senders[sender_codes[r]], ticks[r]
        layers = [sorted(layer) for layer in nx.bfs_layers(g, root)]
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


def propagation(
    messages: Sequence[HeardMessage],
    tiers: Mapping[int, str] | None = None,
    *,
    caveat: str | None = None,
    dormancy: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> Propagation:
    """Edges, chains and the match figures for ``messages`` (in log order).

    ``tiers``: event id -> tier (:mod:`.tiers`); without it every text is classified here.
    """
    log = _log(messages)
    events = log.events
    (sender_codes, senders), (audience_codes, audiences), (text_codes, texts) = log.codes()
    if tiers is None:
        from .tiers import classify

        tier_of_text = [classify(text).tier for text in texts]
        tiers = {eid: tier_of_text[k] for eid, k in zip(events, text_codes)}
    edges, stock = echo_edges(log, dormancy=dormancy)
    chains = _chains(log, edges, tiers)
    children = {e.child for e in edges}
    chain_by_root = {c.root: c for c in chains}
    at = _positions(events, {eid for c in chains for eid in c.messages})
    reaches: list[int] = []
    resent: set[str] = set()
    exposed: set[str] = set()
    for k, eid in enumerate(events):
        if eid in children or tiers.get(eid) != "hijack":
            continue
        sender = senders[sender_codes[k]]
        chain = chain_by_root.get(eid)
        if chain is None:
            reaches.append(0)
            exposed.update(a for a in audiences[audience_codes[k]] if a != sender)
            continue
        reaches.append(chain.reach)
        resent.update(chain.time_to_reach)
        for member in chain.messages:
            exposed.update(a for a in audiences[audience_codes[at[member]]] if a != sender)
    return Propagation(
        edges=edges,
        chains=chains,
        hijack_roots=len(reaches),
        index=sum(reaches) / len(reaches) if reaches else None,
        resend_share=len(resent & exposed) / len(exposed) if exposed else None,
        stock_phrases=stock,
        messages=len(events),
        caveat=caveat,
    )


# --------------------------------------------------------------------------- output

SNIPPET = 72
"""Characters of a message shown in the text tree."""


def _snippet(text: str, scrub_text: bool) -> str:
    head = text[: SNIPPET * 3]
    if scrub_text:
        from .secrets import scrub

        head = scrub(head)
    head = " ".join(shown(head).split())
    return head if len(head) <= SNIPPET else head[: SNIPPET - 1] + "\u2026"


def chain_nodes(
    chain: Chain, messages: Sequence[HeardMessage], edges: Sequence[EchoEdge], *, scrub_text: bool = True
) -> list[dict[str, Any]]:
    """The messages of one chain as JSON records (root first, then by generation and id).

    Each: ``event``, ``parent``, ``generation``, ``sender``, ``tick``, ``channel``,
    ``similarity``, ``via``, ``text`` (a snippet, scrubbed unless ``scrub_text`` is False).
    """
    if isinstance(messages, MessageLog):  # only the chain's records
        by_event = {eid: messages[k] for eid, k in _positions(messages.events, set(chain.messages)).items()}
    else:
        by_event = {m.event: m for m in messages}
    parent = {e.child: e for e in edges}
    depth: dict[int, int] = {chain.root: 0}
    out = []
    for eid in chain.messages:
        e = parent.get(eid)
        if e is not None:
            depth[eid] = depth.get(e.parent, 0) + 1
        m = by_event[eid]
        out.append({
            "event": eid,
            "parent": None if e is None or eid == chain.root else e.parent,
            "generation": depth.get(eid, 0),
            "sender": m.sender,
            "tick": m.tick,
            "channel": m.channel if m.to is None else f"private to {m.to}",
            "similarity": None if e is None or eid == chain.root else e.similarity,
            "via": None if e is None or eid == chain.root else e.via,
            "text": _snippet(m.text, scrub_text),
        })
    return out


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
        f"({prop.hijack_roots} hijack-tier roots), resend share "
        f"{'-' if prop.resend_share is None else round(prop.resend_share, 4)}; "
        f"{prop.stock_phrases} echoes of stock phrases not linked",
    ]
    if prop.caveat:
        lines.append(f"note: {prop.caveat}")
    for tree in prop.chains:
        if tree.reach < min_reach or (tiers is not None and tree.tier not in tiers):
            continue
        lines.append("")
        lines.append(
            f"chain {tree.root}  tier {tree.tier or '?'}  reach {tree.reach}  depth {tree.depth}  "
            f"exposed {tree.exposed}  generations {'/'.join(str(g) for g in tree.generations)}"
        )
        nodes = chain_nodes(tree, messages, prop.edges, scrub_text=scrub_text)
        children: dict[int, list[dict[str, Any]]] = {}
        for node in nodes[1:]:
            children.setdefault(node["parent"], []).append(node)

        def walk(node: dict[str, Any], prefix: str, last: bool, top: bool,
                 children: dict[int, list[dict[str, Any]]] = children) -> None:
            branch = "" if top else ("\u2514\u2500 " if last else "\u251c\u2500 ")
            sim = "" if node["similarity"] is None else f"  {node['via']} {node['similarity']:.2f}"
            lines.append(
                f"{prefix}{branch}{node['event']}  t{node['tick']}  {node['sender']}  {node['channel']}{sim}  "
                f"\"{node['text']}\""
            )
            kids = children.get(node["event"], [])
            for k, kid in enumerate(kids):
                walk(kid, prefix + ("" if top else ("   " if last else "\u2502  ")), k == len(kids) - 1, False)

        walk(nodes[0], "  ", True, True)
    return "\n".join(shown(line) for line in lines) + "\n"
