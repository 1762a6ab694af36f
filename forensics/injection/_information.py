"""How much a shared run of words says: rule 3 of :mod:`.propagation`.

Seed 002 §2.7 ("payload-similarity matching across messages").  Two texts that share
rare words in the same order were not written independently; two texts that share
a stock phrase or the frame of a template ("resting at ..., wake me if anything
happens") may well have been.  The information of what a copy keeps is measured as
a word-pair (bigram) model would: the first word of a run by how rare it is, each
next word by how rarely it follows the one before it,

    bits(w)       = log2((N + 1 + prior) / (df(w) + 1))
    bits(w | v)   = min(bits(w), -log2((df(v w) + P(w)) / (df(v) + 1))),   P(w) = 2^-bits(w)

counted once per distinct word or word pair, where the counts are taken over the
messages written independently of the pair being judged: a message repeating a
text its sender had heard is not counted (:mod:`.propagation` reads which), and neither are
the copies in the pair's own family nor the two texts themselves (:class:`Counts`
minus :meth:`Tally.of`).  So words that always come together carry the evidence
of one word; a forwarded text does not become common by being forwarded; and a
stock phrase stays common because the agents who said it independently still count.

Every word, word pair and tag is a number (:class:`Vocabulary`: one dict from word to
number for the match, the pairs a sorted array of codes), and a text's units are
arrays of those numbers: a long text costs bytes per word, not a Python object per word.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np

from ._copies import Alignment

__all__ = ["Vocabulary", "vocabulary_of", "Counts", "Tally", "Information", "NOTHING", "SMALL_TALLY"]


@dataclass(frozen=True)
class Vocabulary:
    """The match's units as integer ids: word ``k`` (its number in :attr:`words`) is unit ``k``; the
    ``p``-th distinct pair of adjacent words (by its code ``a * n_words + b``, ascending) is unit
    ``n_words + p``; tag ``t`` (its number in :attr:`tags`) is unit ``n_words + n_pairs + t``.  A unit
    is counted as an integer, so a text costs bytes per word, not an object per word."""

    words: Sequence[str]
    """Every distinct word, by its number."""
    word_id: Mapping[str, int]
    """Word -> its number (one dict for the match)."""
    pair_codes: array[int]
    """The distinct adjacent word pairs' codes ``a * len(words) + b``, ascending (``array('q')``)."""
    tags: Sequence[str]
    """Every distinct tag in front (and the cut mark), by its number."""
    tag_id: Mapping[str, int]
    """Tag -> its number."""

    @property
    def units(self) -> int:
        """How many units there are (words, pairs and tags)."""
        return len(self.words) + len(self.pair_codes) + len(self.tags)

    def word(self, w: str) -> int:
        """The unit of word ``w`` (-1 for a word the match never holds)."""
        return self.word_id.get(w, -1)

    def pair(self, a: int, b: int) -> int:
        """The unit of the pair of words numbered ``a`` then ``b`` (-1 for a pair no text holds)."""
        if a < 0 or b < 0:
            return -1
        code, codes = a * len(self.words) + b, self.pair_codes
        k = bisect_left(codes, code)
        return len(self.words) + k if k < len(codes) and codes[k] == code else -1

    def tag(self, t: str) -> int:
        """The unit of tag ``t`` (-1 for a tag no text carries)."""
        k = self.tag_id.get(t, -1)
        return -1 if k < 0 else len(self.words) + len(self.pair_codes) + k


def vocabulary_of(cores: Sequence[Sequence[str]], tags: Sequence[Sequence[str]]) -> tuple[
        Vocabulary, np.ndarray, np.ndarray, np.ndarray]:
    """The units of ``cores`` (each a text's core words in order) and ``tags`` (each a text's tags in
    front, the cut mark among them where it shows one): ``(vocabulary, words, pairs, tag units)``,
    where ``words`` holds every core's word numbers in order, end to end, ``pairs`` the unit of each
    core's adjacent pair at each of its positions but the last (end to end: a core of ``n`` words has
    ``n - 1``), and ``tag units`` every text's tags' units, end to end (all ``int32``).

    >>> v, words, pairs, tagged = vocabulary_of([("a", "b", "a", "b"), ("b", "c")], [("fwd",), ()])
    >>> list(v.words), words.tolist(), pairs.tolist(), tagged.tolist()
    (['a', 'b', 'c'], [0, 1, 0, 1, 1, 2], [3, 4, 3, 5], [6])
    """
    # numbered in order of first use (the distinct words taken in C, then one number each: no Python
    # step per word, and no list of every word: the words are walked twice instead)
    word_id: dict[str, int] = {w: k for k, w in enumerate(dict.fromkeys(chain.from_iterable(cores)))}
    ids = np.fromiter(map(word_id.__getitem__, chain.from_iterable(cores)), dtype=np.int32,
                      count=sum(map(len, cores)))
    n_words = len(word_id)
    sizes = np.fromiter(map(len, cores), dtype=np.int64, count=len(cores))
    follows = np.ones(len(ids), dtype=bool)  # a position with a next word in the same core
    follows[np.cumsum(sizes)[sizes > 0] - 1] = False
    # the pairs' codes (first word * words + second), a block of positions at a time: their distinct codes
    # first, then each pair's place among them (the match's positions are never all coded at once)
    blocks = range(0, max(0, len(ids) - 1), _PAIR_BLOCK)
    distinct = np.unique(np.concatenate([np.unique(_pair_codes(ids, follows, b, n_words)) for b in blocks])) \
        if len(blocks) else np.zeros(0, dtype=np.int64)
    pairs = np.empty(int(np.count_nonzero(follows)), dtype=np.int32)
    k = 0
    for b in blocks:
        codes = np.searchsorted(distinct, _pair_codes(ids, follows, b, n_words))
        codes += n_words
        pairs[k:k + len(codes)] = codes
        k += len(codes)
    tag_id: dict[str, int] = {}
    first = n_words + len(distinct)
    tagged = np.fromiter((first + tag_id.setdefault(t, len(tag_id)) for ts in tags for t in ts), dtype=np.int64,
                         count=sum(map(len, tags))).astype(np.int32)
    pair_codes = array("q")
    pair_codes.frombytes(distinct.astype(np.int64).tobytes())  # (not through a Python int per pair: on a million
    # events of real text, a million of them, freed but left in the interpreter's small-object arenas)
    vocabulary = Vocabulary(list(word_id), word_id, pair_codes, list(tag_id), tag_id)
    return vocabulary, ids, pairs, tagged


_PAIR_BLOCK = 1 << 20
"""Positions coded at a time by :func:`vocabulary_of`."""


def _pair_codes(ids: np.ndarray, follows: np.ndarray, start: int, n_words: int) -> np.ndarray:
    """The codes (first word * ``n_words`` + second) of the adjacent pairs at positions ``start`` to
    ``start + _PAIR_BLOCK`` (each position with a next word in its core), int64, in order."""
    end = min(start + _PAIR_BLOCK, len(ids) - 1)
    codes = ids[start:end].astype(np.int64)
    codes *= n_words
    codes += ids[start + 1:end + 1]
    kept: np.ndarray = codes[follows[start:end]]
    return kept


@dataclass(frozen=True)
class Counts:
    """Messages holding each unit (per unit number, :class:`Vocabulary`), and how many messages were counted."""

    vocabulary: Vocabulary
    messages: int
    df: Sequence[int]
    """Per unit number: the messages holding it."""


SMALL_TALLY = 512
"""Up to this many units in all, :meth:`Tally.of` counts them with Python sets, beyond with numpy."""


TALLY_PIECE = 1 << 18
"""Units :meth:`Tally.of` reads at a time (bounded memory)."""


def _distinct_per_message(held: Sequence[np.ndarray]) -> np.ndarray:
    """The units of each message of ``held``, each once per message, end to end (as 32-bit numbers where
    they fit)."""
    flat = np.concatenate(held).astype(np.int64)
    if not len(flat):
        return flat
    stride = int(flat.max()) + 1
    owner = np.repeat(np.arange(len(held), dtype=np.int64), [len(u) for u in held])
    out: np.ndarray = np.unique(owner * stride + flat) % stride
    return out.astype(np.int32) if stride <= 1 << 31 else out


def _counted(pieces: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of the ``pieces`` end to end, ascending, and how often each comes
    (``np.unique(np.concatenate(pieces), return_counts=True)``), the pieces let go once joined and the
    values sorted in place: one array of them held at once where ``np.unique`` holds the pieces, their
    join and a sorted copy (on a million events of real text, a family of 4.8 million units).

    >>> pieces = [np.array([4, 1, 4]), np.array([1, 7])]
    >>> [a.tolist() for a in _counted(pieces)], pieces
    ([[1, 4, 7], [2, 2, 1]], [])
    """
    values = np.concatenate(pieces)
    pieces.clear()
    if not len(values):
        return values, np.zeros(0, dtype=np.int64)
    values.sort()
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    times = np.diff(np.append(starts, len(values)))
    return values[starts], times


@dataclass(frozen=True)
class Tally:
    """A few messages' units counted (the pair's family, taken from :class:`Counts`): per unit number
    present, the messages holding it."""

    messages: int = 0
    df: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, units: Iterable[np.ndarray]) -> Tally:
        """Messages, each holding the units of one array of ``units`` (a unit repeated in one counts once).

        >>> Tally.of([np.array([4, 1, 4]), np.array([1])])
        Tally(messages=2, df={1: 2, 4: 1})
        """
        # each message's distinct units, a piece of the messages at a time as they come (TALLY_PIECE units: a
        # family of tens of thousands of messages is counted in bounded memory, and only one piece of its
        # messages' units is held at once), then counted over all
        kept: list[np.ndarray] = []
        piece: list[np.ndarray] = []
        messages = size = 0
        for u in units:
            if not isinstance(u, np.ndarray):
                u = np.asarray(u, dtype=np.int64)
            messages += 1
            if size and size + len(u) > TALLY_PIECE:
                kept.append(_distinct_per_message(piece))
                piece, size = [], 0
            piece.append(u)
            size += len(u)
        if not messages:
            return cls(0, {})
        if not kept and size <= SMALL_TALLY:  # a few units: counted in Python (numpy's set-up costs more)
            counted: Counter[int] = Counter()
            for u in piece:
                counted.update(set(u.tolist()))
            return cls(messages, dict(sorted(counted.items())))
        kept.append(_distinct_per_message(piece))
        del piece
        distinct, times = _counted(kept)
        return cls(messages, dict(zip(distinct.tolist(), times.tolist())))

    @classmethod
    def joined(cls, parts: Sequence[Tally]) -> Tally:
        """The tally of disjoint sets of messages, from each set's: their messages added, and per unit the
        messages holding it added, when asked (:class:`_Summed`: nothing merged, so a large set's tally is
        read as it is wherever it is joined).

        >>> both = Tally.joined([Tally.of([np.array([4, 1, 4])]), Tally.of([np.array([1]), np.array([7])])])
        >>> both.messages, both.df.get(1, 0), both.df.get(4, 0), both.df.get(9, 0), dict(both.df)
        (3, 2, 1, 0, {1: 2, 4: 1, 7: 1})
        """
        if len(parts) == 1:
            return parts[0]
        return cls(sum(p.messages for p in parts), _Summed(tuple(p.df for p in parts)))


class _Summed(Mapping[int, int]):
    """Counts of units summed over parts (:meth:`Tally.joined`): a unit's is the sum of the parts' holding it;
    a unit no part holds is not in it."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[Mapping[int, int], ...]) -> None:
        self.parts = parts

    def __getitem__(self, unit: int) -> int:
        total: int | None = self.get(unit)
        if total is None:
            raise KeyError(unit)
        return total

    def get(self, unit: int, default: Any = None) -> Any:  # (the hot path of rule 3's reading: no exception)
        total = 0
        held = False
        for part in self.parts:
            n = part.get(unit)
            if n is not None:
                total += n
                held = True
        return total if held else default

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(set().union(*self.parts)))

    def __len__(self) -> int:
        return len(set().union(*self.parts))


@dataclass(frozen=True)
class Information:
    """Rule 3's measure over ``counts`` less ``minus`` (the pair's family and the pair itself)."""

    counts: Counts
    minus: Tally
    prior: int

    def _df(self, u: int) -> int:
        return 0 if u < 0 else max(0, self.counts.df[u] - self.minus.df.get(u, 0))

    @cached_property
    def scale(self) -> float:
        """``log2(N + 1 + prior)`` (worked out once: the counts are not changed while they are read)."""
        return math.log2(max(0, self.counts.messages - self.minus.messages) + 1 + self.prior)

    def word(self, w: str) -> float:
        """``bits(w)``."""
        return self.scale - math.log2(self._df(self.counts.vocabulary.word(w)) + 1)

    def word_of(self, k: int) -> float:
        """``bits(w)`` of the word numbered ``k``."""
        return self.scale - math.log2(self._df(k) + 1)

    def tag(self, t: str) -> float:
        """The bits of a tag in front, as :meth:`word` of a word."""
        return self.scale - math.log2(self._df(self.counts.vocabulary.tag(t)) + 1)

    def after(self, v: str, w: str) -> float:
        """``bits(w | v)``."""
        vocabulary = self.counts.vocabulary
        a, b = vocabulary.word(v), vocabulary.word(w)
        alone = self.word_of(b)
        p_w = 2.0 ** -alone
        return min(alone, -math.log2((self._df(vocabulary.pair(a, b)) + p_w) / (self._df(a) + 1)))

    def kept_words(self, al: Alignment, parent: Sequence[str]) -> float:
        """The bits of the distinct words a copy keeps, each alone (a bound of :meth:`kept` that
        needs no word pairs: the first, loose reading of rule 3); summed exactly (``math.fsum``), so the
        order a set of words comes in (which the interpreter's hash seed sets) never shows in the last bit."""
        words = {parent[p] for p, _c in al.kept} | set(al.moved) | {
            s.old for s in al.swaps if s.kind in ("typo", "abbreviation")}
        return math.fsum(self.word(w) for w in words)

    def kept(self, al: Alignment, parent: Sequence[str], ids: Sequence[int] | None = None,
             pairs: Sequence[int] | None = None) -> float:
        """The bits of what a copy keeps of ``parent`` (``al``: the copy aligned on it): runs kept in
        order conditioned word by word, moved words and words kept with a typo or an
        abbreviation alone; each distinct word or word pair once.  ``ids``: the numbers of
        ``parent``'s words, and ``pairs`` the units of its adjacent pairs (``pairs[p - 1]`` the pair
        ending at ``p``), when known (:func:`vocabulary_of`); else looked up."""
        vocabulary = self.counts.vocabulary
        if ids is None:
            ids = [vocabulary.word(w) for w in parent]
            if min(ids, default=0) < 0:
                raise ValueError("kept: a parent word the match does not hold")
        if pairs is None:
            pairs = [vocabulary.pair(a, b) for a, b in zip(ids, ids[1:])]
        kept = set(al.kept)
        seen: set[int] = set()
        total = 0.0
        counted, less, scale, log2 = self.counts.df, self.minus.df, self.scale, math.log2
        for p, c in al.kept:  # word() and after() written out (the same sums): this loop is the exact reading's
            w = ids[p]
            if p and (p - 1, c - 1) in kept:
                unit = pairs[p - 1]
                if unit in seen:
                    continue
                v = ids[p - 1]
                alone = scale - log2(max(0, counted[w] - less.get(w, 0)) + 1)
                p_w = 2.0 ** -alone
                bits = min(alone, -log2((max(0, counted[unit] - less.get(unit, 0)) + p_w)
                                        / (max(0, counted[v] - less.get(v, 0)) + 1)))
            else:
                unit = w
                if unit in seen:
                    continue
                bits = scale - log2(max(0, counted[w] - less.get(w, 0)) + 1)
            seen.add(unit)
            total += bits
        for x in [*al.moved, *(s.old for s in al.swaps if s.kind in ("typo", "abbreviation"))]:
            k = vocabulary.word(x)
            if k not in seen:
                seen.add(k)
                total += self.word_of(k)
        return total

    def added(self, runs: Iterable[Sequence[str]], known: frozenset[str]) -> float:
        """The bits of the words a copy adds (``runs`` of adjacent added words), words in ``known``
        (the parent's) excepted; each distinct word or word pair once."""
        vocabulary = self.counts.vocabulary
        seen: set[tuple[int, int]] = set()
        total = 0.0
        for run in runs:
            prev = -1
            for w in run:
                if w in known:
                    prev = -1
                    continue
                k = vocabulary.word(w)
                unit = (prev, k)
                if unit not in seen:
                    seen.add(unit)
                    total += self._after(prev, k) if prev >= 0 else self.word_of(k)
                prev = k
        return total

    def _after(self, a: int, b: int) -> float:
        """``bits(w | v)`` of the words numbered ``a`` then ``b``."""
        alone = self.word_of(b)
        p_w = 2.0 ** -alone
        return min(alone, -math.log2((self._df(self.counts.vocabulary.pair(a, b)) + p_w) / (self._df(a) + 1)))


NOTHING = Tally()
"""No messages: :class:`Information` over every counted message."""
