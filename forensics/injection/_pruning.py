"""Pruning for :mod:`.propagation`: which earlier messages a message is compared with, never all pairs.

A message looks only at earlier messages that share one of its
:data:`RARE_TOKENS` rare core words (document frequency ≥ 2; the rarest of each
stretch of the text, :func:`rare_words`, so that words added in front or after
cannot take every pick): per word, the
first and the latest :data:`POSTINGS_PER_TOKEN` within its lag window, and
:data:`OLDER_PER_TOKEN` before it (old acquaintance: an agent's own earlier use, an
independent origin).  The candidates are gathered with numpy, as pairs (message,
earlier message), a piece of the log at a time (:func:`candidate_chunks`);
:func:`loosely_alike` (:class:`LooseReading`) reads each distinct pair of texts once
as word sets (the loose reading of :mod:`.propagation` rules 2-3: which texts are
alike at all), and only the pairs alike are kept (:func:`alike_candidates`), so memory
follows the pairs kept, not the candidates, before anything is aligned word by word.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

__all__ = ["expand", "stable_order", "RARE_TOKENS", "POSTINGS_PER_TOKEN", "OLDER_PER_TOKEN", "unique", "rare_words", "candidate_pairs",
           "candidate_chunks", "loosely_alike", "LooseReading", "alike_candidates", "heard_pairs"]

RARE_TOKENS = 4
"""Per message, its rarest words (document frequency ≥ 2) that generate candidates."""

POSTINGS_PER_TOKEN = 12
"""Per rare word, how many of the first and of the latest earlier messages holding it within
the lag window are candidates."""

OLDER_PER_TOKEN = 4
"""Per rare word, how many messages before the lag window are looked at too (old acquaintance)."""

PACKED_WORDS = 1024
"""Up to this many distinct words in all, :class:`LooseReading` counts the words two texts share as
the set bits of their rows of a bit-packed text-by-word table (a few machine words a pair)."""


def expand(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[k] .. starts[k] + lengths[k] - 1`` for every k, concatenated."""
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    return np.repeat(starts - (np.cumsum(lengths) - lengths), lengths) + np.arange(total, dtype=np.int64)


def expand_lists(
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


def stable_order(values: np.ndarray) -> np.ndarray:
    """The positions of ``values`` in sorted order, equal values in their order (``np.argsort(values,
    kind="stable")``); for small non-negative integers, by sorting each value with its position
    packed below it in one integer (a plain sort, faster than an argsort).

    >>> stable_order(np.array([3, 1, 3, 0, 1])).tolist()
    [3, 1, 4, 0, 2]
    """
    n = len(values)
    if n and values.dtype.kind in "iu":
        shift = max(1, (n - 1).bit_length())
        low, high = int(values.min()), int(values.max())
        if low >= 0 and high < 1 << (62 - shift):
            packed = np.sort((values.astype(np.int64) << shift) | np.arange(n, dtype=np.int64))
            order: np.ndarray = packed & ((1 << shift) - 1)
            return order
    return np.argsort(values, kind="stable")


def unique(values: np.ndarray, inverse: bool = False) -> Any:
    """Sorted distinct values (and, with ``inverse``, each value's index among them)."""
    if not inverse:
        s = np.sort(values)
        keep = np.ones(len(s), dtype=bool)
        keep[1:] = s[1:] != s[:-1]
        return s[keep]
    order = stable_order(values)
    s = values[order]
    keep = np.ones(len(s), dtype=bool)
    keep[1:] = s[1:] != s[:-1]
    which = np.empty(len(s), dtype=np.int64)
    which[order] = np.cumsum(keep) - 1
    return s[keep], which


def rare_words(order: Sequence[str], rank: Mapping[str, int]) -> list[int]:
    """The rare words of a text (``order``: its words in order) as ranks (``rank``: rarest first,
    words of document frequency ≥ 2 only): the rarest of each of :data:`RARE_TOKENS` stretches of
    the text by position, then the rarest others up to :data:`RARE_TOKENS` -- so that words added
    in front or after (a tag, a remark) cannot take every pick."""
    ranked = [rank.get(t) for t in order]
    n = len(ranked)
    picks: set[int] = set()
    for s in range(RARE_TOKENS):
        part = [r for r in ranked[s * n // RARE_TOKENS:(s + 1) * n // RARE_TOKENS] if r is not None]
        if part:
            picks.add(min(part))
    rest = sorted({r for r in ranked if r is not None} - picks)
    return sorted(picks | set(rest[:RARE_TOKENS - len(picks)]))


def candidate_pairs(
    nid: np.ndarray, word_sets: Sequence[frozenset[str]], df: Mapping[str, int], lows: np.ndarray,
    querying: np.ndarray, orders: Sequence[Sequence[str]] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (message j, earlier message i) to compare, sorted by (j, i) (module docstring): every
    piece of :func:`candidate_chunks`, end to end."""
    pair_j: list[np.ndarray] = []
    pair_i: list[np.ndarray] = []
    for cj, ci in candidate_chunks(nid, word_sets, df, lows, querying, orders):
        pair_j.append(cj)
        pair_i.append(ci)
    cand_j = np.concatenate(pair_j) if pair_j else np.zeros(0, dtype=np.int64)
    cand_i = np.concatenate(pair_i) if pair_i else np.zeros(0, dtype=np.int64)
    return cand_j, cand_i


def candidate_chunks(
    nid: np.ndarray, word_sets: Sequence[frozenset[str]], df: Mapping[str, int], lows: np.ndarray,
    querying: np.ndarray, orders: Sequence[Sequence[str]] | None = None,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The pairs (message j, earlier message i) to compare (module docstring), a piece at a time
    (about 16,384 queries, every query of a message in one piece: bounded memory), each piece sorted
    by (j, i) and the pieces in order of j.

    ``nid``: per message its text number; ``word_sets``: per text number its words; ``df``: messages
    holding each word; ``lows``: per message the first message of its lag window; ``querying``:
    the messages that look for candidates; ``orders``: per text number its words in order (its rare
    words by :func:`rare_words`; without it, its rarest words)."""
    n = len(nid)
    rank = {t: r for r, t in enumerate(sorted((t for t, c in df.items() if c >= 2), key=lambda t: (df[t], t)))}
    # per distinct text its rare words (document frequency >= 2), as ranks; a word's postings
    # (every message holding it, in log order) are needed only for the words some text picks
    rare_of = [rare_words(order, rank) for order in orders] if orders is not None else [
        sorted(rank[t] for t in toks if t in rank)[:RARE_TOKENS] for toks in word_sets]
    picked = sorted({r for rare in rare_of for r in rare})
    word_of = {w: t for t, w in rank.items()}
    is_picked = {word_of[r] for r in picked}
    posted = [sorted(rank[t] for t in toks if t in is_picked) for toks in word_sets]
    del word_of, is_picked
    stride = n + 1
    post_len = np.array([len(p) for p in posted], dtype=np.int64)
    post_flat = np.fromiter(chain.from_iterable(posted), dtype=np.int64, count=int(post_len.sum()))
    # postings: (word, message) for every picked word of every message, as keys word * stride + message;
    # the postings of a message's own rare words are its queries
    owners, words, within = expand_lists(nid, post_len, post_flat)
    # per text, which of its postings are its own rare words, laid out as its postings are
    own_rare = np.fromiter((r in rare for rare, post in zip(map(frozenset, rare_of), posted) for r in post),
                           dtype=bool, count=len(post_flat))
    query = expand_lists(nid, post_len, own_rare)[1] & querying[owners]
    del own_rare
    keys = words * stride + owners
    del owners, words, within, post_flat
    order = stable_order(keys)
    keys = keys[order]                                          # sorted by (word, message)
    holder = keys % stride                                      # the message at each postings position
    at = np.nonzero(query[order])[0]                           # the queries, by (word, message)
    del order, query
    qj = holder[at]
    base = keys[at] - qj                                        # word * stride
    seg = np.searchsorted(keys, base)                           # the word's first posting
    end = at                                                    # the message's own posting
    start = np.searchsorted(keys, base + lows[qj])              # the first posting in its lag window
    del at, base
    by_message = stable_order(qj)
    qj, seg, end, start = qj[by_message], seg[by_message], end[by_message], start[by_message]
    del by_message
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
        pos = expand(range_start, range_len)
        code = unique(np.repeat(np.concatenate((cj, cj, cj)), range_len) * stride + holder[pos])
        yield code // stride, code % stride
        c0 = c1


def loosely_alike(
    a: np.ndarray, b: np.ndarray, word_sets: Sequence[frozenset[str]], bits: Mapping[str, float],
    specific: Callable[[str], bool], *, min_shared_bits: float, max_novelty: float, min_common: int,
    min_cover: float, near_whole: float, max_specific_swaps: int = 0, contained_bits: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair of distinct texts ``(a[k], b[k])`` (the later, the earlier), read as word sets:
    alike -- the words both hold carry at least ``min_shared_bits`` (``contained_bits``, when lower,
    where every word of the later text is the earlier's: a copy cut short, nothing added, whose
    wrapping the exact reading weighs too), number at least ``min_common``
    and at least ``min_cover`` of the words of the one with fewer; the words only the later holds
    carry at most ``max_novelty`` times the shared; and the specifics each holds that the other
    lacks are, on one side at least, no more than ``max_specific_swaps`` (a specific swapped for
    another) -- and, of those, near whole (the words both hold are ``near_whole`` of the fewer).
    :class:`LooseReading` read once."""
    return LooseReading(word_sets, bits, specific, min_shared_bits=min_shared_bits, max_novelty=max_novelty,
                        min_common=min_common, min_cover=min_cover, near_whole=near_whole,
                        max_specific_swaps=max_specific_swaps, contained_bits=contained_bits)(a, b)


class LooseReading:
    """:func:`loosely_alike` with the texts' words laid out once (word numbers, bits, specifics, and a
    text-by-word table or a sorted membership list), to be asked about many batches of pairs.  Each
    pair's answer depends on that pair alone; batches are summed with numpy, 32,768 pairs at a time
    (bounded memory)."""

    def __init__(
        self, word_sets: Sequence[frozenset[str]], bits: Mapping[str, float], specific: Callable[[str], bool], *,
        min_shared_bits: float, max_novelty: float, min_common: int, min_cover: float, near_whole: float,
        max_specific_swaps: int = 0, contained_bits: float | None = None,
    ) -> None:
        self.min_shared_bits, self.max_novelty, self.min_common = min_shared_bits, max_novelty, min_common
        self.contained_bits = min_shared_bits if contained_bits is None else min(contained_bits, min_shared_bits)
        self.min_cover, self.near_whole, self.max_specific_swaps = min_cover, near_whole, max_specific_swaps
        self.margin = 1e-6 * max(1.0, abs(min_shared_bits))
        word_id = {t: k for k, t in enumerate(bits)}
        self.word_bits = np.fromiter(bits.values(), dtype=np.float64, count=len(bits))
        self.word_specific = np.fromiter((specific(t) for t in bits), dtype=bool, count=len(bits))
        self.n_words = n_words = np.array([len(t) for t in word_sets], dtype=np.int64)
        self.flat = flat = np.fromiter((word_id[t] for toks in word_sets for t in toks), dtype=np.int64,
                                       count=int(n_words.sum()))
        del word_id
        self.offsets = np.cumsum(n_words) - n_words
        owner_text = np.repeat(np.arange(len(word_sets), dtype=np.int64), n_words)
        carried = np.bincount(owner_text, weights=self.word_bits[flat], minlength=len(word_sets))
        self.rich = (carried >= self.contained_bits - self.margin) & (n_words >= min_common)
        self.n_specific = np.bincount(owner_text, weights=self.word_specific[flat], minlength=len(word_sets))
        self.table: np.ndarray | None = None
        self.packed: np.ndarray | None = None
        self.packed_specific: np.ndarray | None = None
        """Per text, its specifics only, packed as :attr:`packed` is."""
        self.known: np.ndarray | None = None
        self.stride = 0
        if len(word_sets) * len(bits) <= 1 << 24:  # a text-by-word table answers "does y hold the word"
            self.table = np.zeros((len(word_sets), len(bits)), dtype=bool)
            self.table[owner_text, flat] = True
            if len(bits) <= PACKED_WORDS and hasattr(np, "bitwise_count"):
                packed = np.packbits(self.table, axis=1)
                padded = np.zeros((len(word_sets), -(-packed.shape[1] // 8) * 8), dtype=np.uint8)
                padded[:, :packed.shape[1]] = packed
                self.packed = padded.view(np.uint64)
                self.packed_specific = self.packed & self._packed_row(self.word_specific, padded.shape[1])
        else:  # else membership of (y, word) among every (text, word), sorted
            self.stride = len(bits) + 1
            self.known = np.sort(owner_text * self.stride + flat)

    @staticmethod
    def _packed_row(words: np.ndarray, width: int) -> np.ndarray:
        """A row of the packed table holding the words ``words`` (a mask over every word)."""
        row = np.zeros(width, dtype=np.uint8)
        bits = np.packbits(words)
        row[:len(bits)] = bits
        return row.view(np.uint64)

    def holds(self, texts: np.ndarray, words: np.ndarray) -> np.ndarray:
        """Per k: text ``texts[k]`` holds word number ``words[k]``."""
        if self.table is not None:
            return self.table[texts, words]
        known = self.known
        assert known is not None
        code = texts * self.stride + words
        return known[np.minimum(np.searchsorted(known, code), len(known) - 1)] == code

    def _common(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Per k: how many words texts ``x[k]`` and ``y[k]`` both hold (with few words in all, as the
        set bits both texts' rows of the packed table hold)."""
        if self.packed is not None:
            counts: np.ndarray = np.bitwise_count(self.packed[x] & self.packed[y]).sum(axis=1, dtype=np.int64)
            return counts
        pair, word = self._words_of(x)
        return np.bincount(pair, weights=self.holds(y[pair], word), minlength=len(x))

    def _words_of(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every word of the texts ``x[0], x[1], ...`` in turn: ``(k, the word's number)`` per word of ``x[k]``."""
        return (np.repeat(np.arange(len(x), dtype=np.int64), self.n_words[x]),
                self.flat[expand(self.offsets[x], self.n_words[x])])

    def _specifics_lacking(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Per k: how many specifics text ``x[k]`` holds that ``y[k]`` lacks (with few words in all, as the
        set bits of ``x[k]``'s specifics not in ``y[k]``'s row of the packed table)."""
        if self.packed is not None and self.packed_specific is not None:
            lacking: np.ndarray = np.bitwise_count(self.packed_specific[x] & ~self.packed[y]).sum(axis=1, dtype=np.int64)
            return lacking
        pair, word = self._words_of(x)
        return np.bincount(pair, weights=~self.holds(y[pair], word) & self.word_specific[word], minlength=len(x))

    def __call__(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per pair ``(a[k], b[k])``: ``(alike, near whole)`` (:func:`loosely_alike`)."""
        alike = np.zeros(len(a), dtype=bool)
        whole = np.zeros(len(a), dtype=bool)
        for c0 in range(0, len(a), 32_768):
            ok, near = self._batch(a[c0:c0 + 32_768], b[c0:c0 + 32_768])
            alike[c0:c0 + 32_768] = ok
            whole[c0:c0 + 32_768] = near
        return alike, whole

    def _batch(self, ca: np.ndarray, cb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        alike = np.zeros(len(ca), dtype=bool)
        whole = np.zeros(len(ca), dtype=bool)
        maybe = np.nonzero(self.rich[ca] & self.rich[cb])[0]
        if not len(maybe):
            return alike, whole
        n_words, word_bits = self.n_words, self.word_bits
        margin = self.margin
        # the tests in stages, each on the pairs the one before let through (most candidate pairs share
        # too few words): the words in common first, then the bits, then the specifics each lacks
        x, y = ca[maybe], cb[maybe]
        common = self._common(x, y)
        fewer = np.minimum(n_words[x], n_words[y])
        ok = (common >= self.min_common) & (common >= self.min_cover * fewer - 1e-9)
        enough = np.nonzero(ok)[0]
        if len(enough):  # the bits, on the pairs with words enough in common
            sx, sy = x[enough], y[enough]
            pair, word = self._words_of(sx)
            held = self.holds(sy[pair], word)
            shared = np.bincount(pair, weights=np.where(held, word_bits[word], 0.0), minlength=len(sx))
            novel = np.bincount(pair, weights=np.where(held, 0.0, word_bits[word]), minlength=len(sx))
            del pair, word, held
            contained = common[enough] >= n_words[sx]  # every word of the later text is the earlier's
            bar = np.where(contained, self.contained_bits, self.min_shared_bits)
            ok[enough] = (shared >= bar - margin) & (novel <= self.max_novelty * shared + margin)
        swaps = np.nonzero(ok & (self.n_specific[x] > self.max_specific_swaps)
                           & (self.n_specific[y] > self.max_specific_swaps))[0]
        if len(swaps):  # the specifics each lacks (a text with no more specifics than allowed lacks no more)
            sx, sy = x[swaps], y[swaps]
            ok[swaps] = np.minimum(self._specifics_lacking(sx, sy), self._specifics_lacking(sy, sx)) \
                <= self.max_specific_swaps
        alike[maybe] = ok
        whole[maybe] = ok & (common >= self.near_whole * fewer - 1e-9)
        return alike, whole


def alike_candidates(
    chunks: Iterable[tuple[np.ndarray, np.ndarray]], nid: np.ndarray, n_texts: int, reading: LooseReading,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate pairs (message j, earlier message i) of ``chunks`` (:func:`candidate_chunks`)
    whose texts ``nid[j]``, ``nid[i]`` are alike (``reading``), sorted by (j, i), and per pair whether
    they are near whole.  Each distinct pair of texts of a piece is read once (reading a pair again in
    a later piece costs less than looking it up among every pair read before); only the pairs kept
    are gathered, so memory follows the alike pairs, not the candidates."""
    out_j: list[np.ndarray] = []
    out_i: list[np.ndarray] = []
    out_whole: list[np.ndarray] = []
    for cj, ci in chunks:
        distinct, which = unique(nid[cj] * n_texts + nid[ci], inverse=True)
        alike, whole = reading(distinct // n_texts, distinct % n_texts)
        keep = alike[which]
        out_j.append(cj[keep])
        out_i.append(ci[keep])
        out_whole.append(whole[which][keep])
    if not out_j:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), np.zeros(0, dtype=bool)
    return np.concatenate(out_j), np.concatenate(out_i), np.concatenate(out_whole)


def heard_pairs(
    later: np.ndarray, earlier: np.ndarray, sid: np.ndarray, senders: Sequence[str], aud: np.ndarray,
    audiences: Sequence[frozenset[str]],
) -> np.ndarray:
    """Per pair: the sender of message ``later`` heard message ``earlier`` (decided once per
    distinct (audience, sender))."""
    n_senders = len(senders)
    code = aud[earlier] * n_senders + sid[later]
    distinct, which = unique(code, inverse=True)
    member = np.fromiter((senders[c % n_senders] in audiences[c // n_senders] for c in distinct.tolist()),
                         dtype=bool, count=len(distinct))
    return member[which]
