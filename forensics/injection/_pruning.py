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

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

__all__ = ["expand", "stable_order", "RARE_TOKENS", "POSTINGS_PER_TOKEN", "OLDER_PER_TOKEN", "unique", "rare_words", "candidate_pairs",
           "candidate_chunks", "loosely_alike", "LooseReading", "alike_candidates", "heard_pairs", "WordSets",
           "WORDS_PER_BATCH", "word_ranks", "word_batches", "WordOrders", "rare_picks", "FUSED_BITS",
           "RADIX_BITS", "radix_order"]

RARE_TOKENS = 4
"""Per message, its rarest words (document frequency ≥ 2) that generate candidates."""

POSTINGS_PER_TOKEN = 12
"""Per rare word, how many of the first and of the latest earlier messages holding it within
the lag window are candidates."""

OLDER_PER_TOKEN = 4
"""Per rare word, how many messages before the lag window are looked at too (old acquaintance)."""

TABLE_CELLS = 1 << 24
"""Up to this many texts times distinct words, :class:`LooseReading` reads whether a text holds a word
from a text-by-word table; beyond, by a sorted search among every text's words (:class:`WordSets`)."""

PACKED_WORDS = 1024
"""Up to this many distinct words in all, :class:`LooseReading` counts the words two texts share as
the set bits of their rows of a bit-packed text-by-word table (a few machine words a pair)."""


def expand(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The positions ``starts[k] .. starts[k] + lengths[k] - 1`` for every k, concatenated (int64).

    Made as the running sum of its steps, in one array: 1 within a run, and at a run's first place the
    jump from the last run's end to its start (no second array as long, where a million events of real
    text make millions of positions).

    >>> expand(np.array([5, 9, 0, 2]), np.array([2, 0, 3, 1])).tolist()
    [5, 6, 0, 1, 2, 2]
    """
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    runs = lengths > 0
    first, size = starts[runs].astype(np.int64), lengths[runs].astype(np.int64)
    out = np.ones(total, dtype=np.int64)
    out[(np.cumsum(size) - size)[1:]] = first[1:] - (first[:-1] + size[:-1] - 1)
    out[0] = first[0]
    np.cumsum(out, out=out)
    return out


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


def _expanded(of: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`expand_lists` as places: per element of every item's list, ``(k, the element's place in
    ``flat``)`` (two arrays, where :func:`expand_lists` makes three and their sums); each int32 when its
    numbers fit (they are only ever used to index: on a million events of real text, millions of places).

    >>> [a.tolist() for a in _expanded(np.array([1, 0, 1]), np.array([2, 1]))]
    [[0, 1, 1, 2], [2, 0, 1, 2]]
    """
    offsets = np.cumsum(length) - length
    lens = length[of]
    at = expand(offsets[of], lens)
    if len(at) and int(at.max()) < 1 << 31:
        at = at.astype(np.int32)
    owners = np.repeat(np.arange(len(of), dtype=np.int32 if len(of) < 1 << 31 else np.int64), lens)
    return owners, at


def _postings(
    nid: np.ndarray, post_len: np.ndarray, post_flat: np.ndarray, own_rare: np.ndarray, querying: np.ndarray,
    stride: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Every message's postings, message by message (its text's postings in their order): per posting the
    key ``word * stride + message`` and whether it is one of the message's queries (one of its text's own
    rare words, ``own_rare``, of a message ``querying`` marks).  ``post_len``: per text its postings,
    ``post_flat``: their words, every text's end to end.  Made a few messages at a time (about
    :data:`WORDS_PER_BATCH` postings): only the two answers are held whole, not each posting's message and
    place as well (on a million events of real text, some twenty megabytes fewer at the propagation's peak).

    >>> keys, query = _postings(np.array([1, 0, 1]), np.array([2, 1]), np.array([5, 6, 7]),
    ...                         np.array([True, False, True]), np.array([True, True, False]), 8)
    >>> keys.tolist(), query.tolist()
    ([56, 41, 49, 58], [True, True, False, False])
    """
    lens = post_len[nid]
    ends = np.cumsum(lens)
    keys = np.empty(int(ends[-1]) if len(ends) else 0, dtype=np.int64)
    query = np.empty(len(keys), dtype=bool)
    for m0, m1 in word_batches(lens):
        p0, p1 = int(ends[m0 - 1]) if m0 else 0, int(ends[m1 - 1])
        owners, at = _expanded(nid[m0:m1], post_len)
        owners = owners + m0 if m1 < 1 << 31 else owners.astype(np.int64) + m0  # (each message's number)
        piece = keys[p0:p1]
        np.take(post_flat, at, out=piece)
        piece *= stride
        piece += owners
        np.take(own_rare, at, out=query[p0:p1])
        query[p0:p1] &= querying[owners]
    return keys, query


def stable_order(values: np.ndarray) -> np.ndarray:
    """The positions of ``values`` in sorted order, equal values in their order (``np.argsort(values,
    kind="stable")``); for non-negative integers below ``2 ** RADIX_BITS``, 16 bits at a time
    (:func:`radix_order`); for other small non-negative integers, by sorting each value with its
    position packed below it in one integer (a plain sort, faster than an argsort).

    >>> stable_order(np.array([3, 1, 3, 0, 1])).tolist()
    [3, 1, 4, 0, 2]
    """
    n = len(values)
    if n and values.dtype.kind in "iu":
        shift = max(1, (n - 1).bit_length())
        low, high = int(values.min()), int(values.max())
        if low >= 0 and high < 1 << RADIX_BITS:  # 16 bits at a time (:func:`radix_order`)
            return radix_order(values, high.bit_length())
        if low >= 0 and high < 1 << (62 - shift):
            packed = np.sort((values.astype(np.int64) << shift) | np.arange(n, dtype=np.int64))
            order: np.ndarray = packed & ((1 << shift) - 1)
            return order
    return np.argsort(values, kind="stable")


def radix_order(values: np.ndarray, bits: int) -> np.ndarray:
    """The positions of ``values`` (non-negative integers below ``2 ** bits``) in sorted order, equal
    values in their order: a stable sort of each 16 bits, the lowest first (numpy sorts 16-bit keys
    stably by counting, faster than a sort of the whole numbers).

    >>> radix_order(np.array([70000, 3, 65539, 3, 0]), 17).tolist()
    [4, 1, 3, 2, 0]
    """
    order = np.arange(len(values), dtype=np.int64)
    for low in range(0, max(1, bits), 16):
        digit = ((values[order] >> low) & 0xFFFF).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]
    return order


def sorted_marked(keys: np.ndarray, marked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct non-negative integer ``keys`` sorted, and the places the ``marked`` ones take among them:
    ``keys[stable_order(keys)]`` and ``np.nonzero(marked[stable_order(keys)])[0]`` (distinct keys have one
    sorted order).  Each key's mark is packed below it and the keys sorted in place (``keys`` is spent),
    so no order array is made: on a million events of real text, 2.5 million postings, a few tens of
    megabytes fewer at the propagation's peak.

    >>> keys, at = sorted_marked(np.array([7, 2, 9, 4]), np.array([True, False, False, True]))
    >>> keys.tolist(), at.tolist()
    ([2, 4, 7, 9], [1, 2])
    """
    if len(keys) and int(keys.max()) < 1 << 62:
        keys <<= 1
        keys |= marked
        keys.sort()
        at = np.flatnonzero(keys & 1)
        keys >>= 1
        return keys, at
    order = stable_order(keys)
    return keys[order], np.nonzero(marked[order])[0]


def unique(values: np.ndarray, inverse: bool = False, *, spent: bool = False) -> Any:
    """Sorted distinct values (and, with ``inverse``, each value's index among them).  With ``spent``
    (without ``inverse``), ``values`` is sorted in place and left so: no copy of it is made, one array
    its size fewer at once (the caller's array is spent).

    >>> values = np.array([3, 1, 3])
    >>> unique(values, spent=True).tolist(), values.tolist()
    ([1, 3], [1, 3, 3])
    """
    if not inverse:
        if spent:
            values.sort()
            s = values
        else:
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


def rare_words(order: Sequence[Hashable], rank: Mapping[Hashable, int]) -> list[int]:
    """The rare words of a text (``order``: its words in order) as ranks (``rank``: rarest first,
    words of document frequency ≥ 2 only): the rarest of each of :data:`RARE_TOKENS` stretches of
    the text by position, then the rarest others up to :data:`RARE_TOKENS` -- so that words added
    in front or after (a tag, a remark) cannot take every pick."""
    return _rare_ranks([rank.get(t) for t in order])


def _rare_ranks(ranked: Sequence[int | None]) -> list[int]:
    """:func:`rare_words` of a text whose words' ranks in order are ``ranked`` (None: no rank)."""
    n = len(ranked)
    picks: set[int] = set()
    for s in range(RARE_TOKENS):
        part = [r for r in ranked[s * n // RARE_TOKENS:(s + 1) * n // RARE_TOKENS] if r is not None]
        if part:
            picks.add(min(part))
    rest = sorted({r for r in ranked if r is not None} - picks)
    return sorted(picks | set(rest[:RARE_TOKENS - len(picks)]))


@dataclass(frozen=True)
class WordOrders:
    """Per text (a number), its words (numbers) in order: every text's end to end in ``flat``, text k's
    ``sizes[k]`` of them after those of the texts before it (no Python object per word)."""

    flat: np.ndarray
    """Every text's words (numbers) in order, end to end."""
    sizes: np.ndarray
    """Per text, its number of words."""

    @classmethod
    def of(cls, orders: Sequence[Sequence[int]]) -> WordOrders:
        """The orders given as one list of word numbers per text."""
        sizes = np.fromiter(map(len, orders), dtype=np.int64, count=len(orders))
        return cls(np.fromiter(chain.from_iterable(orders), dtype=np.int64, count=int(sizes.sum())), sizes)


def rare_picks(orders: WordOrders, rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`rare_words` of every text at once (``rank``: per word number its rank, rarest first, -1 for
    a word of document frequency below 2): per text the number of its picks, and the picks (ranks,
    ascending within a text) end to end.  The place ``p`` of a text of ``n`` words is in stretch ``s``
    when ``s * n // RARE_TOKENS <= p < (s + 1) * n // RARE_TOKENS``, that is ``s = (RARE_TOKENS * p +
    RARE_TOKENS - 1) // n``; each stretch's rarest is picked, then the rarest others up to
    :data:`RARE_TOKENS`.  The texts of about :data:`WORDS_PER_BATCH` words at a time (bounded memory).

    >>> counts, picks = rare_picks(WordOrders.of([[0, 1, 2, 3, 4, 5], [2, 2], []]), np.array([5, 4, 0, -1, 1, 2]))
    >>> counts.tolist(), picks.tolist(), _rare_ranks([5, 4, 0, None, 1, 2])
    ([4, 1, 0], [0, 1, 2, 5, 0], [0, 1, 2, 5])
    """
    sizes = np.asarray(orders.sizes, dtype=np.int64)
    starts = np.cumsum(sizes) - sizes
    counts, picks = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    for c0, c1 in word_batches(sizes):  # a few texts at a time (bounded memory)
        w0 = int(starts[c0])
        got = _rare_picks(orders.flat[w0:w0 + int(sizes[c0:c1].sum())], sizes[c0:c1], rank)
        counts.append(got[0])
        picks.append(got[1])
    return np.concatenate(counts), np.concatenate(picks)


def _rare_picks(flat: np.ndarray, sizes: np.ndarray, rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`rare_picks` of the texts ``sizes`` words long, their words ``flat`` end to end."""
    n_texts = len(sizes)
    owner = np.repeat(np.arange(n_texts, dtype=np.int64), sizes)
    place = np.arange(len(owner), dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    ranked = rank[flat]
    held = ranked >= 0
    owner, place, ranked = owner[held], place[held], ranked[held]
    if not len(ranked):
        return np.zeros(n_texts, dtype=np.int64), np.zeros(0, dtype=np.int64)
    stride = int(ranked.max()) + 1
    stretch = (RARE_TOKENS * place + RARE_TOKENS - 1) // sizes[owner]
    lowest = np.full(n_texts * RARE_TOKENS, stride, dtype=np.int64)  # per (text, stretch) its rarest
    np.minimum.at(lowest, owner * RARE_TOKENS + stretch, ranked)
    found = np.nonzero(lowest < stride)[0]
    picks = unique(found // RARE_TOKENS * stride + lowest[found])
    held_codes = unique(owner * stride + ranked)                     # per text its distinct ranks, ascending
    text = held_codes // stride
    picked = np.isin(held_codes, picks, assume_unique=True)
    others = ~picked
    before: np.ndarray = np.cumsum(others) - others  # the others before each, over every text
    first = np.searchsorted(held_codes, np.arange(n_texts, dtype=np.int64) * stride)
    within: np.ndarray = before - before[np.minimum(first[text], len(before) - 1)]  # ... in its own text
    n_picks = np.bincount(picks // stride, minlength=n_texts)
    chosen = held_codes[picked | (others & (within < RARE_TOKENS - n_picks[text]))]
    return np.bincount(chosen // stride, minlength=n_texts).astype(np.int64), chosen % stride


class WordSets:
    """Per text (a number), its distinct words (numbers), sorted: every text's end to end as the
    codes ``text * stride + word``, ascending (8 bytes a word; no Python object per word).

    >>> sets = WordSets.of([[2, 0, 2], [], [1]], 3)
    >>> sets.words(0).tolist(), sets.sizes.tolist(), sets.holds(np.array([0, 2]), np.array([1, 1])).tolist()
    ([0, 2], [2, 0, 1], [False, True])
    """

    def __init__(self, owner: np.ndarray, word: np.ndarray, n_texts: int, n_words: int) -> None:
        self.stride = n_words + 1
        self.n_texts, self.n_words = n_texts, n_words
        self.codes: np.ndarray = unique(owner.astype(np.int64) * self.stride + word, spent=True)
        self.sizes: np.ndarray = np.bincount(self.codes // self.stride, minlength=n_texts).astype(np.int64)
        self.starts: np.ndarray = np.cumsum(self.sizes) - self.sizes

    @classmethod
    def of(cls, sets: Sequence[Iterable[int]], n_words: int) -> WordSets:
        """The sets of word numbers ``sets`` (per text)."""
        lists = [list(s) for s in sets]
        sizes = np.array([len(s) for s in lists], dtype=np.int64)
        word = np.fromiter(chain.from_iterable(lists), dtype=np.int64, count=int(sizes.sum()))
        return cls(np.repeat(np.arange(len(lists), dtype=np.int64), sizes), word, len(lists), n_words)

    def __len__(self) -> int:
        return self.n_texts

    def words(self, k: int) -> np.ndarray:
        """Text ``k``'s words, ascending."""
        s = int(self.starts[k])
        got: np.ndarray = self.codes[s:s + int(self.sizes[k])] - k * self.stride
        return got

    def owners(self) -> np.ndarray:
        """Per code, its text."""
        owner: np.ndarray = self.codes // self.stride
        return owner

    def words_of(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every word of the texts ``x[0], x[1], ...`` in turn: ``(k, the word's number)`` per word of ``x[k]``."""
        pair = np.repeat(np.arange(len(x), dtype=np.int64), self.sizes[x])
        return pair, self.codes[expand(self.starts[x], self.sizes[x])] % self.stride

    def holds(self, texts: np.ndarray, words: np.ndarray) -> np.ndarray:
        """Per k: text ``texts[k]`` holds word number ``words[k]`` (a sorted search among the codes)."""
        return _found_in(self.codes, texts * self.stride + words)[1]

    def lacking(self, x: np.ndarray, y: np.ndarray, among: np.ndarray | None = None) -> np.ndarray:
        """Per k: how many words of text ``x[k]`` (those ``among`` marks, per word number, when given)
        text ``y[k]`` lacks; the words of a few texts at a time (bounded memory)."""
        out = np.zeros(len(x), dtype=np.int64)
        for c0, c1 in word_batches(self.sizes[x]):
            pair, word = self.words_of(x[c0:c1])
            miss = ~self.holds(y[c0:c1][pair], word)
            if among is not None:
                miss &= among[word]
            out[c0:c1] = np.bincount(pair, weights=miss, minlength=c1 - c0)
        return out


WORDS_PER_BATCH = 1 << 18
"""Words of the texts read at a time where a reading lays every word of a batch of pairs out
(:meth:`WordSets.lacking`, :class:`LooseReading`): bounded memory, however long the texts."""


def word_batches(sizes: np.ndarray) -> Iterator[tuple[int, int]]:
    """Consecutive ranges ``[c0, c1)`` of items holding about :data:`WORDS_PER_BATCH` words each
    (``sizes``: per item; at least one item a range)."""
    ends = np.cumsum(sizes)
    c0, n = 0, len(sizes)
    while c0 < n:
        base = int(ends[c0 - 1]) if c0 else 0
        c1 = max(c0 + 1, int(np.searchsorted(ends, base + WORDS_PER_BATCH, side="right")))
        yield c0, min(c1, n)
        c0 = c1


def candidate_pairs(
    nid: np.ndarray, sets: WordSets, df: np.ndarray, words: Sequence[str], lows: np.ndarray,
    querying: np.ndarray, orders: Sequence[Sequence[int]] | WordOrders | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The pairs (message j, earlier message i) to compare, sorted by (j, i) (module docstring): every
    piece of :func:`candidate_chunks`, end to end."""
    pair_j: list[np.ndarray] = []
    pair_i: list[np.ndarray] = []
    for cj, ci in candidate_chunks(nid, sets, df, words, lows, querying, orders):
        pair_j.append(cj)
        pair_i.append(ci)
    cand_j = np.concatenate(pair_j) if pair_j else np.zeros(0, dtype=np.int64)
    cand_i = np.concatenate(pair_i) if pair_i else np.zeros(0, dtype=np.int64)
    return cand_j, cand_i


def word_ranks(df: np.ndarray, words: Sequence[str]) -> np.ndarray:
    """Per word number, its rank among the words of document frequency ≥ 2 (``df``: per word number),
    rarest first, ties by the word (string order); -1 for the others.

    >>> word_ranks(np.array([3, 1, 2, 2]), ["d", "c", "b", "a"]).tolist()
    [2, -1, 1, 0]
    """
    alphabetical = np.empty(len(words), dtype=np.int64)
    alphabetical[sorted(range(len(words)), key=words.__getitem__)] = np.arange(len(words), dtype=np.int64)
    ranked = np.nonzero(df >= 2)[0]
    order = ranked[np.lexsort((alphabetical[ranked], df[ranked]))]
    rank = np.full(len(words), -1, dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank


def _found_in(codes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per value: its place among the ascending ``codes`` (a sorted search, kept within them) and whether it
    stands there (never, when there are no codes).

    >>> [a.tolist() for a in _found_in(np.array([2, 5, 7]), np.array([5, 6, 9]))]
    [[1, 2, 2], [True, False, False]]
    """
    if not len(codes):
        return np.zeros(len(values), dtype=np.int64), np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(codes, values), len(codes) - 1)
    return at, codes[at] == values


def _marked(codes: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Per code of ``codes`` (ascending, each once), whether ``wanted`` holds it: ``np.isin``'s answer, found by
    looking each wanted code up among ``codes`` (a sorted search) rather than by sorting both together, which
    holds several arrays the size of ``codes`` at once (on a million events of real text, about 90 MB).

    >>> _marked(np.array([2, 5, 7, 9]), np.array([9, 3, 2, 2, 11])).tolist()
    [True, False, False, True]
    """
    out = np.zeros(len(codes), dtype=bool)
    at, held = _found_in(codes, wanted)
    out[at[held]] = True
    return out


def candidate_chunks(
    nid: np.ndarray, sets: WordSets, df: np.ndarray, words: Sequence[str], lows: np.ndarray,
    querying: np.ndarray, orders: Sequence[Sequence[int]] | WordOrders | None = None, *, distinct: bool = True,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The pairs (message j, earlier message i) to compare (module docstring), a piece at a time
    (about 16,384 queries, every query of a message in one piece: bounded memory), each piece sorted
    by (j, i) and the pieces in order of j; without ``distinct``, each piece's pairs as found (a pair
    two rare words find comes more than once, in no order: :func:`alike_candidates` sorts them once).

    ``nid``: per message its text number; ``sets``: per text number its words (numbers); ``df``: per
    word number, the messages holding it; ``words``: the words by number (ties of ``df`` go by the
    word); ``lows``: per message the first message of its lag window; ``querying``: the messages that
    look for candidates; ``orders``: per text number its words (numbers) in order (its rare words by
    :func:`rare_words`; without it, its rarest words)."""
    n = len(nid)
    rank = word_ranks(df, words)
    # per distinct text its rare words (document frequency >= 2), as ranks; a word's postings
    # (every message holding it, in log order) are needed only for the words some text picks
    if orders is not None:
        rare_len, rare_flat = rare_picks(orders if isinstance(orders, WordOrders) else WordOrders.of(orders), rank)
    else:
        owner, word = sets.owners(), sets.codes % sets.stride
        held = rank[word] >= 0
        by_text = np.lexsort((rank[word][held], owner[held]))
        lists = np.split(rank[word][held][by_text], np.cumsum(np.bincount(owner[held], minlength=len(sets)))[:-1])
        rare_of = [r[:RARE_TOKENS].tolist() for r in lists]
        rare_len = np.array([len(r) for r in rare_of], dtype=np.int64)
        rare_flat = np.fromiter(chain.from_iterable(rare_of), dtype=np.int64, count=int(rare_len.sum()))
    is_picked = np.zeros(int(rank.max()) + 1 if len(rank) and rank.max() >= 0 else 1, dtype=bool)
    is_picked[rare_flat] = True
    # per text, the ranks of its picked words, ascending (its postings), as codes text * width + rank: each once
    # (a text holds a word once), sorted by text then rank
    width = len(is_picked) + 1
    # each code's word's rank (int32: a rank is below the words' count), half the bytes of the ranks themselves
    word_rank = (rank.astype(np.int32) if len(rank) < 1 << 31 else rank)[sets.codes % sets.stride]
    keep = word_rank >= 0
    keep[keep] = is_picked[word_rank[keep]]
    post_codes = sets.codes[keep] // sets.stride * width
    post_codes += word_rank[keep]
    del word_rank, keep
    post_codes.sort()
    # per text, which of its postings are its own rare words, laid out as its postings are
    rare_codes = np.repeat(np.arange(len(rare_len), dtype=np.int64), rare_len) * width + rare_flat
    own_rare = _marked(post_codes, rare_codes)
    del rare_codes
    # each posting's text and word: the word left in the code's place (no third array its size at once)
    post_owner = np.empty_like(post_codes)
    np.divmod(post_codes, width, out=(post_owner, post_codes))
    post_flat = post_codes
    post_len = np.bincount(post_owner, minlength=len(sets)).astype(np.int64)
    del post_owner, post_codes
    shift = max(1, n.bit_length())  # a power of two above every message: keys split by shifts, not division
    stride, low = 1 << shift, (1 << shift) - 1
    # postings: (word, message) for every picked word of every message, as keys word * stride + message;
    # the postings of a message's own rare words are its queries
    keys, query = _postings(nid, post_len, post_flat, own_rare, querying, stride)
    del own_rare, post_flat
    keys, at = sorted_marked(keys, query)                      # sorted by (word, message); the queries among them
    del query
    qj = keys[at] & low                                         # the querying message
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
        code = np.repeat(np.concatenate((cj, cj, cj)), range_len)
        code <<= shift
        code |= keys[pos] & low
        del pos
        if distinct:
            code = unique(code)
        earlier = code & low
        code >>= shift  # the later message: no third array held while the piece is read
        yield code, earlier
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
    :class:`LooseReading` read once (:meth:`LooseReading.of_sets`)."""
    return LooseReading.of_sets(word_sets, bits, specific, min_shared_bits=min_shared_bits, max_novelty=max_novelty,
                                min_common=min_common, min_cover=min_cover, near_whole=near_whole,
                                max_specific_swaps=max_specific_swaps, contained_bits=contained_bits)(a, b)


class LooseReading:
    """:func:`loosely_alike` with the texts' words laid out once (:class:`WordSets`, per word number its
    bits and whether it is a specific, and with few texts and words a text-by-word table), to be asked
    about many batches of pairs.  Each pair's answer depends on that pair alone; batches are summed
    with numpy, 32,768 pairs at a time and the words of at most :data:`WORDS_PER_BATCH` at a time
    (bounded memory)."""

    def __init__(
        self, sets: WordSets, word_bits: np.ndarray, word_specific: np.ndarray, *,
        min_shared_bits: float, max_novelty: float, min_common: int, min_cover: float, near_whole: float,
        max_specific_swaps: int = 0, contained_bits: float | None = None,
    ) -> None:
        self.min_shared_bits, self.max_novelty, self.min_common = min_shared_bits, max_novelty, min_common
        self.contained_bits = min_shared_bits if contained_bits is None else min(contained_bits, min_shared_bits)
        self.min_cover, self.near_whole, self.max_specific_swaps = min_cover, near_whole, max_specific_swaps
        self.margin = 1e-6 * max(1.0, abs(min_shared_bits))
        self.sets = sets
        self.word_bits = np.asarray(word_bits, dtype=np.float64)
        self.word_specific = np.asarray(word_specific, dtype=bool)
        self.n_words = n_words = sets.sizes
        n_texts, n_all = len(sets), sets.n_words
        owner_text, flat = sets.owners(), sets.codes % sets.stride
        carried = np.bincount(owner_text, weights=self.word_bits[flat], minlength=n_texts)
        self.rich = (carried >= self.contained_bits - self.margin) & (n_words >= min_common)
        self.n_specific = np.bincount(owner_text, weights=self.word_specific[flat], minlength=n_texts)
        self.table: np.ndarray | None = None
        self.packed: np.ndarray | None = None
        """Per 64 words (the words numbered anew, the words most texts hold first), per text its words
        among them as the set bits of one machine word: row k of the words numbered ``64k .. 64k + 63``
        (with few words in all)."""
        self.beyond: np.ndarray | None = None
        """Per row k of :attr:`packed`, per text: how many of its words come after that row's."""
        self.packed_specific: np.ndarray | None = None
        """Per text, its specifics only, bit-packed over the specifics alone (their own numbering: a
        specific y lacks is a set bit of x's row that y's row lacks), stored by machine word: row k
        holds every text's specifics numbered ``64k .. 64k + 63``."""
        self.specific_sets: WordSets | None = None
        """Per text, its specifics (what :meth:`_specifics_lacking` looks up without :attr:`packed_specific`)."""
        if n_texts * n_all <= TABLE_CELLS:  # a text-by-word table answers "does y hold the word"
            self.table = np.zeros((n_texts, n_all), dtype=bool)
            self.table[owner_text, flat] = True
            if n_all <= PACKED_WORDS and hasattr(np, "bitwise_count"):
                self.packed, self.beyond = self._by_rows(owner_text, flat, n_texts, n_all)
                held = self.word_specific[flat]
                specifics = np.zeros((n_texts, int(self.word_specific.sum())), dtype=bool)
                specifics[owner_text[held], (np.cumsum(self.word_specific) - 1)[flat[held]]] = True
                self.packed_specific = np.ascontiguousarray(self._packed(specifics).T)
        if self.packed_specific is None:
            held = self.word_specific[flat]
            self.specific_sets = WordSets(owner_text[held], flat[held], n_texts, n_all)

    @classmethod
    def of_sets(
        cls, word_sets: Sequence[frozenset[str]], bits: Mapping[str, float], specific: Callable[[str], bool],
        **thresholds: Any,
    ) -> LooseReading:
        """The reading of texts given as sets of words (``bits``: per word its information, every word of
        the sets among them; ``specific``: whether a word is a specific)."""
        word_id = {t: k for k, t in enumerate(bits)}
        sets = WordSets.of([[word_id[t] for t in toks] for toks in word_sets], len(word_id))
        return cls(sets, np.fromiter(bits.values(), dtype=np.float64, count=len(bits)),
                   np.fromiter((specific(t) for t in bits), dtype=bool, count=len(bits)), **thresholds)

    @staticmethod
    def _by_rows(owner: np.ndarray, word: np.ndarray, n_texts: int, n_words: int) -> tuple[np.ndarray, np.ndarray]:
        """:attr:`packed` and :attr:`beyond` of the texts' words (``owner[k]`` holds ``word[k]``, each
        once): the words most texts hold in the first rows, so that most texts' words end in a row
        or two and a pair's count of the words both hold is known after the rows either has."""
        held_by = np.bincount(word, minlength=n_words)
        place = np.empty(n_words, dtype=np.int64)
        place[np.argsort(-held_by, kind="stable")] = np.arange(n_words, dtype=np.int64)
        at = place[word]
        rows = np.zeros((max(1, -(-n_words // 64)), n_texts), dtype=np.uint64)
        np.add.at(rows, (at >> 6, owner), np.left_shift(np.uint64(1), (at & 63).astype(np.uint64)))
        counts = np.bitwise_count(rows).astype(np.int64)
        beyond = np.cumsum(counts[::-1], axis=0)[::-1] - counts
        return rows, np.ascontiguousarray(beyond)

    @staticmethod
    def _packed(table: np.ndarray) -> np.ndarray:
        """A boolean text-by-word table bit-packed, each row whole 64-bit words (zeros after its last
        column)."""
        packed = np.packbits(table, axis=1)
        padded = np.zeros((len(table), max(1, -(-packed.shape[1] // 8)) * 8), dtype=np.uint8)
        padded[:, :packed.shape[1]] = packed
        return padded.view(np.uint64)

    def holds(self, texts: np.ndarray, words: np.ndarray) -> np.ndarray:
        """Per k: text ``texts[k]`` holds word number ``words[k]``."""
        if self.table is not None:
            held: np.ndarray = self.table[texts, words]
            return held
        return self.sets.holds(texts, words)

    def _common(self, x: np.ndarray, y: np.ndarray, fewer: np.ndarray | None = None) -> np.ndarray:
        """Per k: how many words texts ``x[k]`` and ``y[k]`` both hold (with few words in all, as the
        set bits both texts' rows of the packed table hold, row by row, a pair left once one text has
        no word beyond the row).  With ``fewer`` (per k, the words of the text with fewer), a pair
        is left too once it cannot reach the words in common :meth:`_batch` asks (its count then
        below them, not exact)."""
        if self.packed is not None and self.beyond is not None:
            return self._common_by_rows(x, y, fewer)
        out = np.zeros(len(x), dtype=np.int64)
        for c0, c1 in word_batches(self.n_words[x]):
            pair, word = self.sets.words_of(x[c0:c1])
            out[c0:c1] = np.bincount(pair, weights=self.holds(y[c0:c1][pair], word), minlength=c1 - c0)
        return out

    def _common_by_rows(self, x: np.ndarray, y: np.ndarray, fewer: np.ndarray | None) -> np.ndarray:
        """:meth:`_common` from :attr:`packed`, one row at a time over the pairs still open."""
        rows, beyond = self.packed, self.beyond
        assert rows is not None and beyond is not None
        out = np.zeros(len(x), dtype=np.int64)
        need = None if fewer is None else np.maximum(self.min_common, self.min_cover * fewer - 1e-9)
        open_ = None  # the pairs still open (None: every pair)
        cx, cy = x, y
        for k in range(len(rows)):
            got = np.bitwise_count(rows[k][cx] & rows[k][cy]).astype(np.int64)
            if open_ is None:
                out += got
                total = out
            else:
                total = out[open_] + got
                out[open_] = total
            more = np.minimum(beyond[k][cx], beyond[k][cy])
            going = more > 0
            if need is not None:  # the words in common it can still reach fall short: it fails
                going &= total + more >= (need if open_ is None else need[open_])
            open_ = np.nonzero(going)[0] if open_ is None else open_[going]
            if not len(open_):
                break
            cx, cy = x[open_], y[open_]
        return out

    def _specifics_lacking(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Per k: how many specifics text ``x[k]`` holds that ``y[k]`` lacks (with few words in all, as the
        set bits of ``x[k]``'s row of the packed table of specifics not in ``y[k]``'s; else ``x[k]``'s
        specifics alone looked up in ``y[k]``)."""
        if self.packed_specific is not None:  # a machine word at a time, over every pair
            packed = self.packed_specific
            lacking: np.ndarray = np.zeros(len(x), dtype=np.int64)
            for row in packed:
                lacking += np.bitwise_count(row[x] & ~row[y])
            return lacking
        out = np.zeros(len(x), dtype=np.int64)
        specifics = self.specific_sets
        assert specifics is not None  # built whenever the packed table of specifics is not
        for c0, c1 in word_batches(specifics.sizes[x]):
            pair, word = specifics.words_of(x[c0:c1])
            out[c0:c1] = np.bincount(pair, weights=~self.holds(y[c0:c1][pair], word), minlength=c1 - c0)
        return out

    def _bits(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per k: the bits of the words of ``x[k]`` that ``y[k]`` holds, and of those it lacks."""
        shared = np.zeros(len(x), dtype=np.float64)
        novel = np.zeros(len(x), dtype=np.float64)
        word_bits = self.word_bits
        for c0, c1 in word_batches(self.n_words[x]):
            pair, word = self.sets.words_of(x[c0:c1])
            held = self.holds(y[c0:c1][pair], word)
            shared[c0:c1] = np.bincount(pair, weights=np.where(held, word_bits[word], 0.0), minlength=c1 - c0)
            novel[c0:c1] = np.bincount(pair, weights=np.where(held, 0.0, word_bits[word]), minlength=c1 - c0)
        return shared, novel

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
        n_words = self.n_words
        margin = self.margin
        # the tests in stages, each on the pairs the one before let through, the cheaper and the more
        # selective first (a pair's answer is the conjunction, whatever the order): the words in common
        # (most candidate pairs share too few), then the specifics each lacks (most of the rest name
        # another good, place, number or seat: on the 1M-event stream 473k of 1.5M pairs of texts pass
        # the words in common, 427k of those the bits, 6.5k the specifics), then the bits
        x, y = ca[maybe], cb[maybe]
        fewer = np.minimum(n_words[x], n_words[y])
        common = self._common(x, y, fewer)  # exact where it reaches what is asked below
        ok = (common >= self.min_common) & (common >= self.min_cover * fewer - 1e-9)
        swaps = np.nonzero(ok & (self.n_specific[x] > self.max_specific_swaps)
                           & (self.n_specific[y] > self.max_specific_swaps))[0]
        if len(swaps):  # the specifics each lacks (a text with no more specifics than allowed lacks no more)
            # on one side at least: the other side read only where the first lacks too many
            lacks = self._specifics_lacking(x[swaps], y[swaps]) > self.max_specific_swaps
            swaps = swaps[lacks]
            ok[swaps] = self._specifics_lacking(y[swaps], x[swaps]) <= self.max_specific_swaps
        enough = np.nonzero(ok)[0]
        if len(enough):  # the bits, on the pairs with words enough in common and no specific swapped
            sx, sy = x[enough], y[enough]
            shared, novel = self._bits(sx, sy)
            contained = common[enough] >= n_words[sx]  # every word of the later text is the earlier's
            bar = np.where(contained, self.contained_bits, self.min_shared_bits)
            ok[enough] = (shared >= bar - margin) & (novel <= self.max_novelty * shared + margin)
        alike[maybe] = ok
        whole[maybe] = ok & (common >= self.near_whole * fewer - 1e-9)
        return alike, whole


RADIX_BITS = 32
"""Bits a pair of texts may take for :func:`alike_candidates` to order a piece by its pairs of texts alone
(:func:`radix_order`, two passes of 16 bits) and sort only the pairs kept by (j, i) (each pair once there)."""

FUSED_BITS = 62
"""Bits a pair of texts and a pair of messages may take together for :func:`alike_candidates` to sort a
piece once by both (the near-whole bit of a pair kept goes below them: 63 in all)."""


def _read_sorted(texts: np.ndarray, shift: int, reading: LooseReading) -> tuple[np.ndarray, np.ndarray]:
    """Over a piece's pairs of texts in sorted order (each one number, the later text above ``shift`` bits),
    each distinct pair read once (``reading``): the positions of the pairs read alike, and each one's
    near-whole bit."""
    new = np.ones(len(texts), dtype=bool)
    np.not_equal(texts[1:], texts[:-1], out=new[1:])
    read = texts[new]
    which = np.cumsum(new)
    which -= 1
    del new
    alike, whole = reading(read >> shift, read & ((1 << shift) - 1))
    keep = np.nonzero(alike[which])[0]
    return keep, whole[which[keep]]


def _alike_by_texts(cj: np.ndarray, ci: np.ndarray, nid: np.ndarray, shift: int, m_shift: int, reading: LooseReading,
                    distinct: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`alike_candidates` of one piece whose pairs of texts fit :data:`RADIX_BITS`: the piece ordered by
    its pairs of texts alone (:func:`radix_order`), each distinct pair read once, and only the pairs kept
    sorted by (j, i) (a pair found twice is the same number twice there, kept once; a piece of ``distinct``
    pairs holds none)."""
    texts = nid[cj]
    texts <<= shift
    texts |= nid[ci]
    order = radix_order(texts, 2 * shift)
    keep, near = _read_sorted(texts[order], shift, reading)
    del texts
    at = order[keep]
    del order, keep
    pair = cj[at] << m_shift
    pair |= ci[at]
    pair <<= 1
    pair |= near
    pair.sort()  # by (j, i); a pair found twice is the same number twice (its bit is its texts')
    if not distinct:  # each pair once
        once = np.ones(len(pair), dtype=bool)
        np.not_equal(pair[1:], pair[:-1], out=once[1:])
        pair = pair[once]
    return pair >> (m_shift + 1), (pair >> 1) & ((1 << m_shift) - 1), (pair & 1).astype(bool)


def alike_candidates(
    chunks: Iterable[tuple[np.ndarray, np.ndarray]], nid: np.ndarray, n_texts: int, reading: LooseReading, *,
    distinct: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate pairs (message j, earlier message i) of ``chunks`` (:func:`candidate_chunks`, each
    piece sorted by (j, i); without ``distinct``, as :func:`candidate_chunks` finds them: a piece's pairs
    in any order, a pair maybe more than once, each kept once) whose texts ``nid[j]``, ``nid[i]`` are
    alike (``reading``), sorted by (j, i), and per pair whether they are near whole.  Each distinct pair
    of texts of a piece is read once (reading a pair again in a later piece costs less than looking it
    up among every pair read before); only the pairs kept are gathered, so memory follows the alike
    pairs, not the candidates.

    Where a pair of texts and a pair of messages fit in one 63-bit number together, a piece is sorted
    once by (pair of texts, pair of messages): a pair of messages found twice lies next to itself, the
    pairs of texts come distinct and in order, and only the few pairs kept are sorted again by (j, i).
    Where a pair of texts fits :data:`RADIX_BITS`, a piece is ordered by its pairs of texts alone
    (:func:`radix_order`) and the pairs kept are sorted by (j, i), a pair found twice kept once there."""
    out_j: list[np.ndarray] = []
    out_i: list[np.ndarray] = []
    out_whole: list[np.ndarray] = []
    shift = max(1, n_texts.bit_length())  # a pair of texts as one number, split by shifts, not division
    nid = np.asarray(nid, dtype=np.int64)
    m_shift = max(1, len(nid).bit_length())  # a pair of messages as one number, below the pair of texts
    fused = 2 * shift + 2 * m_shift <= FUSED_BITS
    radix = 2 * shift <= RADIX_BITS and 2 * m_shift + 1 <= 63
    for cj, ci in chunks:
        if radix:  # by pair of texts (a pair of messages found twice lies in its texts' group)
            j, i, near_whole = _alike_by_texts(cj, ci, nid, shift, m_shift, reading, distinct)
            out_j.append(j)
            out_i.append(i)
            out_whole.append(near_whole)
            continue
        if not fused:
            if not distinct:
                code = unique((cj << m_shift) | ci)  # each once, by (j, i)
                cj, ci = code >> m_shift, code & ((1 << m_shift) - 1)
            read, which = unique((nid[cj] << shift) | nid[ci], inverse=True)
            alike, whole = reading(read >> shift, read & ((1 << shift) - 1))
            keep = alike[which]
            out_j.append(cj[keep])
            out_i.append(ci[keep])
            out_whole.append(whole[which[keep]])
            continue
        # the piece's numbers made in place, one array at a time (bounded memory)
        key = nid[cj]
        key <<= shift
        key |= nid[ci]
        key <<= 2 * m_shift
        messages = cj << m_shift
        messages |= ci
        key |= messages
        del messages, cj, ci
        key.sort()
        if not distinct:  # each pair once
            once = np.ones(len(key), dtype=bool)
            once[1:] = key[1:] != key[:-1]
            key = key[once]
            del once
        keep, near = _read_sorted(key >> (2 * m_shift), shift, reading)
        # the pairs kept by (j, i), each with its near-whole bit below it (a pair's bit is its texts')
        pair = key[keep]
        del key, keep
        pair &= (1 << (2 * m_shift)) - 1
        pair <<= 1
        pair |= near
        pair.sort()
        out_j.append(pair >> (m_shift + 1))
        out_i.append((pair >> 1) & ((1 << m_shift) - 1))
        out_whole.append((pair & 1).astype(bool))
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
    heard: np.ndarray = member[which]
    return heard
