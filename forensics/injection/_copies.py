"""Whether a text copies another: an alignment of their core words that survives a cut or an
added prefix, and the information the kept words carry.

Seed 002 §2.7 ("payload-similarity matching across messages").  The core words of
the later text (:mod:`._forwarding`) are aligned on the earlier text's by their
longest common subsequence (rapidfuzz ``LCSseq``: shingle containment at the word
level, in order).  :func:`align` reads the alignment the way a forward is made:

- words **kept** in order, and words **moved** (present on both sides, elsewhere:
  two words swapped);
- words **cut** at the start or the end of the earlier text, words **added** in
  front of or after the kept part (a remark, a tag the parser did not recognise);
- **swaps** inside (or at the edge, when the two words are related): a ``typo``
  (edit distance one, two for words of six letters or more), an ``abbreviation``
  (the short word's letters, in order, in the long one, same first letter), a
  ``specific`` swap (both words are specifics -- a number, an id or region, a good
  of the game: "stone" for "food", "r_4_4" for "r_8_1": another message, not a
  copy) or a plain ``word`` swap (a synonym, a nickname);
- words **inserted** or **deleted** inside.

:func:`copy_evidence` weighs it with the information of each word (bits, see
:mod:`.propagation` rule 3) and :func:`is_copy` decides: a copy keeps at least
:data:`MIN_KEPT_WORDS` words carrying at least ``min_shared_bits``; what it adds
carries at most ``max_novelty`` times that (an echo mostly repeats); it swaps no
specific, and at most one plain word per ``swap_every`` kept words (at least one).

>>> a = align(("fwd", "free", "wood", "at", "r_2_2", "pls", "come"), ("free", "wood", "at", "r_2_2", "please"),
...           frozenset({"wood"}))
>>> a.lead, a.kept_words, [(s.old, s.new, s.kind) for s in a.swaps], a.trail, a.cut_end
(('fwd',), 5, [('please', 'pls', 'abbreviation')], ('come',), 0)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import OSA, LCSseq

__all__ = [
    "MIN_KEPT_WORDS",
    "MIN_COVER",
    "MAX_MOVE",
    "Swap",
    "Alignment",
    "CopyEvidence",
    "is_specific",
    "swap_kind",
    "align",
    "copy_evidence",
    "is_copy",
]

MIN_KEPT_WORDS = 3
"""A copy keeps at least this many words of the earlier text."""

MAX_MOVE = 3
"""A word found again at most this many places away was moved, not dropped and added."""

MIN_COVER = 0.5
"""... and, word for word, at least this share of the distinct words of the shorter of the two texts
(a few words in common scattered over two texts are no copy)."""


@lru_cache(maxsize=1 << 16)
def is_specific(word: str, goods: frozenset[str]) -> bool:
    """A number, an id or a region (a digit or ``_`` in it), or a good of the game (plural too).
    (Remembered per word and goods: the same words are asked about again and again.)"""
    if any(ch.isdigit() or ch == "_" for ch in word):
        return True
    return word in goods or (word.endswith("s") and (word[:-1] in goods or word.endswith("es") and word[:-2] in goods))


def _abbreviates(short: str, long: str) -> bool:
    if len(short) < 2 or len(short) > len(long) - 2 or short[0] != long[0]:
        return False
    it = iter(long)
    return all(ch in it for ch in short)


def swap_kind(old: str, new: str, goods: frozenset[str]) -> str:
    """``specific``, ``abbreviation``, ``typo`` or ``word`` (module docstring) for ``old`` replaced by ``new``.

    (Asked of most pairs of words two texts do not share, so the cheap answers come first: an abbreviation
    starts with the word's first letter, and a typo's edits are at least the two lengths' difference.)

    >>> goods = frozenset({"wood"})
    >>> [swap_kind(*pair, goods) for pair in [("2", "3"), ("firewood", "fw"), ("water", "watr"), ("food", "rest")]]
    ['specific', 'abbreviation', 'typo', 'word']
    """
    if is_specific(old, goods) and is_specific(new, goods):
        return "specific"
    if old[:1] == new[:1] and (_abbreviates(new, old) or _abbreviates(old, new)):
        return "abbreviation"
    lo, ln = len(old), len(new)
    allowed = 2 if max(lo, ln) >= 6 else 1
    if min(lo, ln) >= 3 and abs(lo - ln) <= allowed and OSA.distance(old, new, score_cutoff=2) <= allowed:
        return "typo"
    return "word"


@dataclass(frozen=True, slots=True)
class Swap:
    """One word of the earlier text replaced by one word of the later."""

    at: int
    """Position in the earlier text's core."""
    old: str
    new: str
    kind: str
    """``typo``, ``abbreviation``, ``specific`` or ``word``."""


class KeptRuns:
    """The words a copy kept as they were, ``(earlier position, later position)`` each, in order, held as the
    runs they come in, ``(earlier start, earlier end, later start)``: a match's exact reading keeps tens of
    thousands of alignments, and a pair of numbers per word kept held most of their memory.  Read as the pairs
    (iterated, counted, asked whether it holds one), equal to any collection of the same pairs in order.

    >>> kept = KeptRuns(((0, 3, 1), (5, 6, 4)))
    >>> list(kept), len(kept), (5, 4) in kept, kept == ((0, 1), (1, 2), (2, 3), (5, 4))
    ([(0, 1), (1, 2), (2, 3), (5, 4)], 4, True, True)
    """

    __slots__ = ("runs", "_count")

    def __init__(self, runs: tuple[tuple[int, int, int], ...]) -> None:
        self.runs = runs
        self._count = sum(end - start for start, end, _later in runs)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for start, end, later in self.runs:
            for k in range(end - start):
                yield start + k, later + k

    def __len__(self) -> int:
        return self._count

    def __contains__(self, pair: object) -> bool:
        if not isinstance(pair, tuple) or len(pair) != 2:
            return False
        p, c = pair
        return any(start <= p < end and c - later == p - start for start, end, later in self.runs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (KeptRuns, tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"KeptRuns({self.runs!r})"


@dataclass(frozen=True, slots=True)
class Alignment:
    """The later text's core read against the earlier's (module docstring)."""

    kept: Collection[tuple[int, int]]
    """(earlier position, later position) of every word kept as it was, in order (:class:`KeptRuns` from
    :func:`align`)."""
    moved: tuple[str, ...]
    """Words on both sides but not in the same order."""
    swaps: tuple[Swap, ...]
    inserted: tuple[tuple[int, str], ...]
    """(earlier position it precedes, word) added inside."""
    deleted: tuple[int, ...]
    """Earlier positions dropped inside."""
    lead: tuple[str, ...]
    """Words added in front of the kept part."""
    trail: tuple[str, ...]
    """Words added after the kept part."""
    cut_start: int
    """Earlier words dropped at the start."""
    cut_end: int
    """Earlier words dropped at the end."""
    parent_len: int
    """Words of the earlier text's core."""

    @property
    def kept_words(self) -> int:
        """Words kept: in order, moved, or with a typo or an abbreviation."""
        return len(self.kept) + len(self.moved) + sum(1 for s in self.swaps if s.kind in ("typo", "abbreviation"))

    @property
    def span(self) -> tuple[int, int]:
        """The earlier text's positions ``[start, stop)`` the later text covers."""
        return self.cut_start, self.parent_len - self.cut_end


def _related(old: str, new: str, goods: frozenset[str]) -> bool:
    return swap_kind(old, new, goods) != "word"


def _first_related(free: list[int], parent: Sequence[str], new: str, goods: frozenset[str]) -> int | None:
    """The first of the ``free`` positions whose word ``new`` replaces as a swap of a kind other than ``word``
    (:func:`_related`, its tests in one loop: most pairs of a gap are plain words, and fail them all).

    >>> _first_related([0, 1, 2], ["lake", "water", "watr"], "water", frozenset())  # a typo of 1, before 2
    1
    """
    specific = is_specific(new, goods)
    ln, first = len(new), new[:1]
    for p in free:
        old = parent[p]
        if specific and is_specific(old, goods):
            return p
        if old[:1] == first and (_abbreviates(new, old) or _abbreviates(old, new)):
            return p
        lo = len(old)
        allowed = 2 if (lo if lo > ln else ln) >= 6 else 1
        if (lo if lo < ln else ln) >= 3 and -allowed <= lo - ln <= allowed \
                and OSA.distance(old, new, score_cutoff=2) <= allowed:
            return p
    return None


def _pair(dels: list[int], ins: list[str], parent: Sequence[str], goods: frozenset[str]) -> tuple[
        list[Swap], list[int], list[str]]:
    """Inside a gap: related words paired first, then the rest in order."""
    swaps: list[Swap] = []
    free = list(dels)
    rest: list[str] = []
    for w in ins:
        hit = _first_related(free, parent, w, goods)
        if hit is None:
            rest.append(w)
        else:
            free.remove(hit)
            swaps.append(Swap(hit, parent[hit], w, swap_kind(parent[hit], w, goods)))
    n = min(len(free), len(rest))
    swaps += [Swap(p, parent[p], w, swap_kind(parent[p], w, goods)) for p, w in zip(free[:n], rest[:n])]
    return swaps, free[n:], rest[n:]


def align(child: Sequence[str], parent: Sequence[str], goods: frozenset[str]) -> Alignment:
    """The later text's core words ``child`` read against the earlier's ``parent`` (module docstring)."""
    blocks = [(o.src_start, o.src_end, o.dest_start) for o in LCSseq.opcodes(parent, child) if o.tag == "equal"]
    if not blocks:
        return Alignment((), (), (), (), (), tuple(child), (), len(parent), 0, len(parent))
    kept = KeptRuns(tuple(blocks))
    # the gaps before, between and after the kept runs: (earlier positions, later words)
    bounds = [(0, 0)] + [(end, c + end - p) for p, end, c in blocks]
    starts = [(p, c) for p, _end, c in blocks] + [(len(parent), len(child))]
    gaps = [(list(range(p0, p1)), [child[j] for j in range(c0, c1)]) for (p0, c0), (p1, c1) in zip(bounds, starts)]
    # a word dropped in one place and added at most MAX_MOVE words away was moved (two words swapped,
    # a word put a little earlier or later)
    trimmed = [(list(dels), list(ins)) for dels, ins in gaps]
    where = [p0 for (p0, _c0) in bounds]  # each gap's place in the earlier text
    moved: list[str] = []
    for dels, _ins in trimmed:
        for p in list(dels):
            near = sorted((abs(p - where[g]), g) for g in range(len(trimmed))
                          if abs(p - where[g]) <= MAX_MOVE and parent[p] in trimmed[g][1])
            if near:
                g = near[0][1]
                trimmed[g][1].remove(parent[p])
                dels.remove(p)
                moved.append(parent[p])
    swaps: list[Swap] = []
    inserted: list[tuple[int, str]] = []
    deleted: list[int] = []
    for k, (dels, ins) in enumerate(trimmed[1:-1], start=1):
        got, d, i = _pair(dels, ins, parent, goods)
        swaps += got
        deleted += d
        inserted += [(starts[k][0], w) for w in i]
    # the edges: related words next to the kept part are swaps, the rest cuts and additions
    lead_dels, lead_ins = trimmed[0]
    while lead_dels and lead_ins and _related(parent[lead_dels[-1]], lead_ins[-1], goods):
        p, w = lead_dels.pop(), lead_ins.pop()
        swaps.append(Swap(p, parent[p], w, swap_kind(parent[p], w, goods)))
    trail_dels, trail_ins = trimmed[-1]
    while trail_dels and trail_ins and _related(parent[trail_dels[0]], trail_ins[0], goods):
        p, w = trail_dels.pop(0), trail_ins.pop(0)
        swaps.append(Swap(p, parent[p], w, swap_kind(parent[p], w, goods)))
    # one word dropped at an edge and one word in its place: a word swapped there (a synonym), not a cut
    for dels, ins in ((lead_dels, lead_ins), (trail_dels, trail_ins)):
        if len(dels) == 1 and len(ins) == 1 and kept:
            p, w = dels.pop(), ins.pop()
            swaps.append(Swap(p, parent[p], w, swap_kind(parent[p], w, goods)))
    return Alignment(
        kept=kept, moved=tuple(sorted(moved)), swaps=tuple(sorted(swaps, key=lambda s: s.at)),
        inserted=tuple(inserted), deleted=tuple(deleted), lead=tuple(lead_ins), trail=tuple(trail_ins),
        cut_start=len(lead_dels), cut_end=len(trail_dels), parent_len=len(parent))


@dataclass(frozen=True, slots=True)
class CopyEvidence:
    """How much of an earlier text a later one keeps, and what it adds (in bits)."""

    kept_words: int
    kept_distinct: int
    """Distinct words kept word for word (in order or moved)."""
    shorter: int
    """Distinct words of the shorter core (the child's or the parent's)."""
    shared_bits: float
    """Information of the distinct words kept (in order, moved, or with a typo or abbreviation)."""
    novelty_bits: float
    """Information of the distinct words added (in front, after, inside, or as a plain swap) that the
    earlier text does not hold."""
    word_swaps: int
    specific_swaps: int
    edits: int
    """Typos and abbreviations."""


def copy_evidence(al: Alignment, child: Sequence[str], parent: Sequence[str], kept_bits: Callable[[Alignment], float],
                  added_bits: Callable[[Sequence[Sequence[str]]], float]) -> CopyEvidence:
    """What ``al`` keeps of ``parent`` and adds, weighed by ``kept_bits`` (of the alignment) and
    ``added_bits`` (of the runs of added words: in front, after, inside, plain and specific swaps)."""
    runs = [al.lead, al.trail, [w for _p, w in al.inserted],
            *([s.new] for s in al.swaps if s.kind in ("word", "specific"))]
    return CopyEvidence(
        kept_words=al.kept_words,
        kept_distinct=len({parent[p] for p, _c in al.kept} | set(al.moved)),
        shorter=min(len(set(child)), len(set(parent))),
        shared_bits=kept_bits(al),
        novelty_bits=added_bits(runs),
        word_swaps=sum(1 for s in al.swaps if s.kind == "word"),
        specific_swaps=sum(1 for s in al.swaps if s.kind == "specific"),
        edits=sum(1 for s in al.swaps if s.kind in ("typo", "abbreviation")),
    )


def is_copy(ev: CopyEvidence, *, min_shared_bits: float, max_novelty: float, swap_every: int,
            max_specific_swaps: int = 0) -> bool:
    """The later text copies the earlier (module docstring)."""
    return (ev.kept_words >= MIN_KEPT_WORDS and ev.kept_distinct >= MIN_COVER * ev.shorter
            and ev.shared_bits >= min_shared_bits
            and ev.novelty_bits <= max_novelty * ev.shared_bits
            and ev.specific_swaps <= max_specific_swaps
            and ev.word_swaps <= max(1, ev.kept_words // swap_every)
            and ev.edits <= max(1, ev.kept_words // 2))
