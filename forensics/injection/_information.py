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
minus :meth:`Counts.of`).  So words that always come together carry the evidence
of one word; a forwarded text does not become common by being forwarded; and a
stock phrase stays common because the agents who said it independently still count.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ._copies import Alignment

__all__ = ["Unit", "units_of", "tag_unit", "Counts", "Information", "NOTHING"]

Unit = str | tuple[str, str]
"""A word, a pair of adjacent words, or a tag in front (:func:`tag_unit`)."""


def units_of(core: Sequence[str], tags: Iterable[str] = (),
             pairs: dict[tuple[str, str], tuple[str, str]] | None = None) -> frozenset[Unit]:
    """The distinct words and adjacent word pairs of a core, and the tags in front of it (``pairs``:
    one tuple object per distinct pair, shared by every core that holds it)."""
    adjacent: Iterable[tuple[str, str]] = zip(core, core[1:])
    if pairs is not None:
        adjacent = (pairs.setdefault(p, p) for p in adjacent)
    return frozenset([*core, *adjacent, *map(tag_unit, tags)])


def tag_unit(tag: str) -> Unit:
    """A tag in front of a text as a unit of its own: the pair of no word and the tag (no word pair
    has an empty first word)."""
    return ("", tag)


@dataclass
class Counts:
    """Messages holding each word and word pair, and how many messages were counted."""

    messages: int = 0
    df: Counter[Unit] = field(default_factory=Counter)

    def add(self, units: Iterable[Unit], times: int = 1) -> None:
        self.messages += times
        for u in units:
            self.df[u] += times

    @classmethod
    def of(cls, cores: Iterable[frozenset[Unit]]) -> Counts:
        out = cls()
        for units in cores:
            out.add(units)
        return out


@dataclass(frozen=True)
class Information:
    """Rule 3's measure over ``counts`` less ``minus`` (the pair's family and the pair itself)."""

    counts: Counts
    minus: Counts
    prior: int

    def _df(self, u: Unit) -> int:
        return max(0, self.counts.df.get(u, 0) - self.minus.df.get(u, 0))

    @cached_property
    def scale(self) -> float:
        """``log2(N + 1 + prior)`` (worked out once: the counts are not changed while they are read)."""
        return math.log2(max(0, self.counts.messages - self.minus.messages) + 1 + self.prior)

    def word(self, w: str) -> float:
        """``bits(w)``."""
        return self.scale - math.log2(max(0, self.counts.df.get(w, 0) - self.minus.df.get(w, 0)) + 1)

    def tag(self, t: str) -> float:
        """The bits of a tag in front (:func:`tag_unit`), as :meth:`word` of a word."""
        return self.scale - math.log2(self._df(tag_unit(t)) + 1)

    def after(self, v: str, w: str) -> float:
        """``bits(w | v)``."""
        alone = self.word(w)
        p_w = 2.0 ** -alone
        return min(alone, -math.log2((self._df((v, w)) + p_w) / (self._df(v) + 1)))

    def kept_words(self, al: Alignment, parent: Sequence[str]) -> float:
        """The bits of the distinct words a copy keeps, each alone (a bound of :meth:`kept` that
        needs no word pairs: the first, loose reading of rule 3)."""
        words = {parent[p] for p, _c in al.kept} | set(al.moved) | {
            s.old for s in al.swaps if s.kind in ("typo", "abbreviation")}
        return sum(self.word(w) for w in words)

    def kept(self, al: Alignment, parent: Sequence[str]) -> float:
        """The bits of what a copy keeps of ``parent`` (``al``: the copy aligned on it): runs kept in
        order conditioned word by word, moved words and words kept with a typo or an
        abbreviation alone; each distinct word or word pair once."""
        kept = set(al.kept)
        seen: set[Unit] = set()
        total = 0.0
        counted, less, scale, log2 = self.counts.df, self.minus.df, self.scale, math.log2
        for p, c in al.kept:  # word() and after() written out (the same sums): this loop is the exact reading's
            w = parent[p]
            if p and (p - 1, c - 1) in kept:
                v = parent[p - 1]
                unit: Unit = (v, w)
                if unit in seen:
                    continue
                alone = scale - log2(max(0, counted.get(w, 0) - less.get(w, 0)) + 1)
                p_w = 2.0 ** -alone
                bits = min(alone, -log2((max(0, counted.get(unit, 0) - less.get(unit, 0)) + p_w)
                                        / (max(0, counted.get(v, 0) - less.get(v, 0)) + 1)))
            else:
                unit = w
                if unit in seen:
                    continue
                bits = scale - log2(max(0, counted.get(w, 0) - less.get(w, 0)) + 1)
            seen.add(unit)
            total += bits
        for w in [*al.moved, *(s.old for s in al.swaps if s.kind in ("typo", "abbreviation"))]:
            if w not in seen:
                seen.add(w)
                total += self.word(w)
        return total

    def added(self, runs: Iterable[Sequence[str]], known: frozenset[str]) -> float:
        """The bits of the words a copy adds (``runs`` of adjacent added words), words in ``known``
        (the parent's) excepted; each distinct word or word pair once."""
        seen: set[Unit] = set()
        total = 0.0
        for run in runs:
            prev = None
            for w in run:
                if w in known:
                    prev = None
                    continue
                unit: Unit = (prev, w) if prev is not None else w
                if unit not in seen:
                    seen.add(unit)
                    total += self.after(prev, w) if prev is not None else self.word(w)
                prev = w
        return total


NOTHING = Counts()
"""No messages: :class:`Information` over every counted message."""
