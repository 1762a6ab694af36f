"""Which heard copy a message was copied from: the copy whose own mutations it inherits.

Seed 002 §2.7 (a propagation index: how far payloads cascade) needs the right
parent, not only a parent.  A forwarder keeps what it received and adds its own
changes, so of the copies an agent heard, the one it copied already carries the
mutations the two share relative to the root text -- its tag in front, its quote
marks, its remark, its casing, where it was cut, its typo, its swapped word
(:mod:`._forwarding`, :mod:`._copies`).  Seen from each candidate, what the child
*still* changed is its list of :func:`edits`; each edit weighs the information of
making it independently (bits):

- a tag, quote mark or casing the candidate lacks (capitals, title or lower case
  rewrite every letter, so only the child's casing counts): as rare as the
  messages that carry it in the match, ``log2((N + 1 + prior) / (carriers + 1))``,
  a recasing at least as rare as this match's children whose parent is unambiguous
  recased (:meth:`Weights.with_recasing`: lower case is common among messages, not
  among forwarders); a child cut from the candidate is compared with the casing of
  the words it kept (a capital the cut took away is no recasing);
  a different ending (the closing punctuation, unless the child was cut at the
  end) at most :data:`ENDING_BITS`; different punctuation inside the core (unless
  the child, cut, keeps a stretch of the candidate's) at most :data:`MARK_BITS`;
- a word added (in front, after, inside, in a remark): the word's information; a
  word swapped (a typo, an abbreviation, a synonym), whichever way, the rarer of
  the two words' (mending a typo or spelling out an abbreviation is as rare as
  making it); a dropped or moved word: ``log2(words + 1)`` (the chance of
  the same place), over the words of the stretch the child kept when it was cut
  (:func:`kept_span`: a place the cut took away was no choice); a cut: ``log2(kept + 1)``, the child's words (the same from
  every candidate: how much a longer candidate had beyond the cut tells nothing),
  plus the information of cutting at all, as rare as this match's children whose
  parent is unambiguous were cut (:meth:`Weights.with_cuts`: a copy cut where a
  heard copy was already cut inherits the cut, and a changed full stop does not
  outweigh it);
- a wrapping the candidate has and the child lacks: the same weight, unless the
  child cut that end of the text away (the cut explains it; a cut at the start shown
  inside the tags, "...on: ", takes away the tags before the one it cut,
  :func:`tags_cut`); a cut shown at the end of a child that added words after the
  candidate's end weighs as a cut (from a longer copy it was cut; from this one it
  added words and cut them itself); the candidate's last words set apart after a
  separator of the child's own (a comma made a dash) are no cut but a change of
  punctuation (:func:`remark_is_rest`); remarks word by word
  (a remark word kept with a typo or abbreviated is a swapped word, the words
  dropped weigh only themselves);
- any edit at least :data:`MIN_EDIT_BITS` (a change is never free).

The mutations the child shares with a candidate need no explaining, so the
candidate whose edits weigh least is the one the child inherits from
(:func:`choose_parent`), each weighed with a prior on its place in the order heard
(:func:`heard_order`: people pass on the copy that reached them first, or the one in
front of them now, or any; the shares are learnt from the match's own children whose
text tells, per family of texts, a family's own children weighed with
:data:`PSEUDO_CHILDREN` children at the match's shares: how a text is passed on is a
habit of the text as much as of the match -- a payload that says "repeat this
message" is repeated from its source, chatter from whichever copy is at hand); then the most similar text (rapidfuzz ``ratio`` on the folded text, case
kept; ``partial_ratio`` for a child cut from the candidate, so that what the cut took
away tells nothing).  Candidates with the same weight and a similarity within
:data:`TIE_RATIO` are a **tie**: the one at the likelier place (then the first
heard) is chosen and the others are listed, never dropped silently.  The choice's
confidence is its ``prior * 2^-weight`` over the sum over every candidate (a tie of
k at even priors: 1/k); its reason names what decided it ("inherits prefix 'fwd' of
123", "tie with 124: heard last, as copies of this text are passed on 52% of the time").
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz import fuzz

from ._copies import Alignment, swap_kind
from ._forwarding import Forward

__all__ = ["TIE_RATIO", "DANGLING", "ENDING_BITS", "MARK_BITS", "MIN_EDIT_BITS", "ERASING", "PSEUDO_CHILDREN", "MAX_FRAGMENT",
           "Edit", "Weights",
           "Candidate", "Choice", "HeardOrder", "cut_shown", "kept_span", "tags_cut", "remark_is_rest", "edits", "describe", "mutations", "candidate", "choose_parent", "first_heard_share",
           "heard_order", "heard_orders", "similarity"]

PSEUDO_CHILDREN = 2
"""Children without preference added when the prior on the order heard is learnt (:func:`heard_order`, :func:`first_heard_share`)."""

MAX_FRAGMENT = 32
"""Longest fragment of a message a reason repeats (:func:`describe`)."""

TIE_RATIO = 0.5
"""Candidates whose edits weigh the same and whose similarity to the child (0–100) differs by at most
this are a tie."""

ERASING = frozenset({"upper", "lower", "title"})
"""Casings that rewrite every letter (any copy could have been recased so)."""

ENDING_BITS = 4.0
"""Most a different closing punctuation weighs (endings change with every added remark)."""

MARK_BITS = 4.0
"""Most a different punctuation inside the core weighs (commas made dashes, semicolons, dropped)."""

MIN_EDIT_BITS = 1.0
"""Least any edit weighs: a change is never free, however common its word."""

Edit = tuple[str, ...]
"""One change from a candidate to the child: ``(kind, ...)``; kinds ``tag``, ``untag``, ``quote``,
``unquote``, ``remark``, ``unremark``, ``casing``, ``ending``, ``lead``, ``trail``, ``cut_start``,
``cut_end``, ``swap``, ``insert``, ``delete``, ``moved``."""


@dataclass(frozen=True)
class Weights:
    """The information of making an edit independently (module docstring)."""

    carriers: Mapping[tuple[str, str], int]
    """Per wrapping ``(kind, value)`` (``tag``, ``quote``, ``casing``, ``ending``): messages carrying it."""
    word_bits: Mapping[str, float]
    scale: float
    """``log2(N + 1 + prior)``: the information of something no message carries."""
    cut_bits: float = 0.0
    """The information of cutting a text at all, learnt from the match (:meth:`with_cuts`); added to
    the place of every cut."""
    recase_bits: float = 0.0
    """The information of rewriting every letter's case at all (capitals, title or lower case),
    learnt from the match (:meth:`with_recasing`): the least a recasing weighs."""

    @classmethod
    def of(cls, forwards: Sequence[Forward], copies: Sequence[int], word_bits: Mapping[str, float],
           scale: float) -> Weights:
        """From every distinct text read (``copies``: messages per text)."""
        carriers: Counter[tuple[str, str]] = Counter()
        for f, k in zip(forwards, copies):
            for kind, value in (("quote", f.quote), ("casing", f.casing), ("ending", f.ending), ("marks", f.marks)):
                if value:
                    carriers[(kind, value)] += k
            for t in set(f.tags):
                carriers[("tag", t)] += k
        return cls(carriers, word_bits, scale)

    def with_cuts(self, cut: int, children: int) -> Weights:
        """These weights with the chance of cutting a text learnt from the match: of ``children``
        children whose parent is unambiguous (one candidate), ``cut`` were cut at the start or the end
        (with :data:`PSEUDO_CHILDREN` children, half of them cut, so that a few cannot make it sure)."""
        return replace(self, cut_bits=_learnt_bits(cut, children))

    def with_recasing(self, recased: int, children: int) -> Weights:
        """These weights with the chance of rewriting every letter's case learnt from the match: of
        ``children`` children whose parent is unambiguous, ``recased`` took capitals, title or lower
        case their parent did not have (with :data:`PSEUDO_CHILDREN` children, half of them
        recased).  A casing common among messages is still a rare thing for a forwarder to do."""
        return replace(self, recase_bits=_learnt_bits(recased, children))

    def word(self, w: str) -> float:
        return self.word_bits.get(w, self.scale)

    def feature(self, kind: str, value: str) -> float:
        return max(0.0, self.scale - math.log2(self.carriers.get((kind, value), 0) + 1))

    def of_edit(self, e: Edit, words: int) -> float:
        """The weight of edit ``e`` (at least :data:`MIN_EDIT_BITS`); ``words``: the candidate's core words."""
        return max(MIN_EDIT_BITS, self._bits(e, words))

    def _bits(self, e: Edit, words: int) -> float:
        kind = e[0]
        if kind in ("tag", "untag"):
            return self.feature("tag", e[1])
        if kind in ("quote", "unquote"):
            return self.feature("quote", e[1])
        if kind == "casing":  # a casing the candidate lacks: as rare as the messages cased so
            return self.feature("casing", e[1])
        if kind == "recase":  # ... and at least as rare as this match's forwarders recase
            return max(self.feature("casing", e[1]), self.recase_bits)
        if kind == "ending":
            return min(ENDING_BITS, self.feature("ending", e[1]))
        if kind == "marks":
            return min(MARK_BITS, self.feature("marks", e[1]))
        if kind in ("remark", "unremark", "lead", "trail"):
            return math.fsum(self.word(w) for w in set(e[1].split()))  # (exact: the set's order never shows)
        if kind == "swap":  # a word swapped either way (a typo made or mended): the rarer of the two words
            return max(self.word(e[2]), self.word(e[4])) if len(e) > 4 else self.word(e[2])
        if kind == "insert":
            return self.word(e[2])
        if kind in ("cut_start", "cut_end"):  # where the child's kept words end (the same for every
            return math.log2(int(e[2]) + 1) + self.cut_bits  # candidate), and that it was cut at all
        return math.log2(words + 1)  # delete, moved


DANGLING = frozenset(",-:;|/")
"""A text ending on one of these (or on an ellipsis) shows it was cut at the end: "... near r_4_4 -"."""


def _learnt_bits(did: int, children: int) -> float:
    """The information of a change ``did`` of ``children`` children made, with :data:`PSEUDO_CHILDREN`
    children more, half of whom made it (so that a few cannot make it sure)."""
    return -math.log2((did + PSEUDO_CHILDREN / 2) / (children + PSEUDO_CHILDREN))


def cut_shown(child: Forward) -> bool:
    """``child`` shows a cut at its end: an ellipsis, or a separator left dangling (:data:`DANGLING`)."""
    return child.ellipsis[1] or (child.ending != "" and child.ending[-1] in DANGLING)


def tags_cut(child: Forward, parent: Forward) -> tuple[int, tuple[str, ...]]:
    """A cut at the start can take tags away as well as words: when the child's first tag is the last
    words of one of ``parent``'s tags (a tag cut), or, the child showing a cut (its first tag begins
    with an ellipsis), one of them, the tags of ``parent`` before it were cut.  Returns ``(tags of parent cut, the
    child's tags with a cut tag read as the parent's)``; ``(0, child.tags)`` when no cut shows.

    >>> from daishi_forensics.injection._forwarding import parse_forward
    >>> tags_cut(parse_forward("...on: psa: the well is dry"), parse_forward("fwd: pass it on: psa: the well is dry"))
    (1, ('pass it on', 'psa'))
    >>> tags_cut(parse_forward("in: psa: the well is dry"), parse_forward("fwd: this just in: psa: the well is dry"))
    (1, ('this just in', 'psa'))
    """
    if not child.tags:
        return 0, child.tags
    shown = child.tags[0].startswith("...")
    stub = child.tags[0].lstrip(". ")
    for k, tag in enumerate(parent.tags):
        if stub and ((shown and tag == stub) or tag.endswith(" " + stub)):
            return k, (tag, *child.tags[1:])
    return 0, child.tags


def edits(child: Forward, parent: Forward, al: Alignment) -> list[Edit]:
    """What ``child`` changed relative to ``parent`` (``al``: the child's core aligned on the parent's)."""
    out: list[Edit] = []
    front, child_tags = tags_cut(child, parent)
    mine, theirs = Counter(child_tags), Counter(parent.tags[front:])
    lead = list(al.lead)
    for t in sorted((theirs - mine).elements()):  # the candidate's tag read as words in the child's front
        words = t.split()
        if words and lead[-len(words):] == words:
            theirs[t] -= 1
            del lead[-len(words):]
    out += [("tag", t) for t, k in (mine - theirs).items() for _ in range(k)]
    if not al.cut_start:  # a cut at the start explains a tag gone
        out += [("untag", t) for t, k in (theirs - mine).items() for _ in range(k)]
    if child.quote != parent.quote:
        if child.quote is not None:
            out.append(("quote", child.quote))
        elif not al.cut_start:  # a cut at the end keeps the opening mark
            out.append(("unquote", parent.quote or ""))
    if child.remark != parent.remark:
        out += _remark_edits(child, parent, al)
    kept_casing = parent.casing_within(*al.span) if al.cut_start or al.cut_end else parent.casing
    if child.casing != kept_casing:  # (the casing of what the child kept: a cut explains the rest)
        # capitals, title or lower case rewrite every letter: they say nothing of the parent's casing
        out.append(("recase" if child.casing in ERASING else "casing", child.casing, kept_casing))
    rest = remark_is_rest(child, parent, al)  # no cut: the candidate's last words set apart (a comma made a dash)
    cut_end = al.cut_end and not rest
    if child.ending != parent.ending and not al.trail and not cut_end and (child.remark == parent.remark or rest):
        out.append(("ending", child.ending or "none"))
    if rest and parent.remark is None:  # the child set the candidate's last words apart with a separator of its own
        out.append(("marks", child.marks + "-"))
    elif child.marks != parent.marks and not ((al.cut_start or cut_end) and child.marks in parent.marks):
        out.append(("marks", child.marks or "none"))
    if lead:
        out.append(("lead", " ".join(lead)))
    if al.trail:
        out.append(("trail", " ".join(al.trail)))
    if al.cut_start:
        out.append(("cut_start", str(al.cut_start), str(len(child.core))))
    if cut_end:
        out.append(("cut_end", str(al.cut_end), str(len(child.core))))
    elif al.trail and cut_shown(child) and not cut_shown(parent):
        # words after this candidate's end, then a cut shown: the child was cut from a longer text, or
        # added words and cut them itself; from this candidate the cut is a change of its own
        out.append(("cut_end", "0", str(len(child.core))))
    out += [("swap", str(s.at), s.new, s.kind, s.old) for s in al.swaps]
    out += [("insert", str(at), w) for at, w in al.inserted]
    out += [("delete", str(at)) for at in al.deleted]
    out += [("moved", w) for w in al.moved]
    return out


def remark_is_rest(child: Forward, parent: Forward, al: Alignment) -> bool:
    """The child's remark is the rest of ``parent``'s words, its last core words (those the alignment
    reads as cut at the end) and then its own remark: the child set them apart (a comma made a dash,
    "... last night - check your cloth"), it did not cut them."""
    if not al.cut_end or not child.remark:
        return False
    rest = [*parent.core[-al.cut_end:], *(parent.remark.split() if parent.remark else ())]
    return child.remark.split() == rest


def _remark_edits(child: Forward, parent: Forward, al: Alignment) -> list[Edit]:
    """What the child changed in the remark after the text, word by word: the words it added
    (``remark``), a remark word it kept with a typo or abbreviated (``swap``, placed after the
    core), and the parent's remark words it dropped (``unremark``; not when the child was cut at the
    end, which explains them, nor for words it kept after the core)."""
    mine, theirs = (child.remark or "").split(), (parent.remark or "").split()
    known, kept = {*theirs, *parent.core}, {*mine, *al.trail}
    added = [w for w in mine if w not in known]
    gone = [w for w in theirs if w not in kept]
    out: list[Edit] = []
    for w in list(added):
        old = next((g for g in gone if swap_kind(g, w, frozenset()) in ("typo", "abbreviation")), None)
        if old is not None:
            added.remove(w)
            gone.remove(old)
            out.append(("swap", str(len(parent.core) + theirs.index(old)), w, swap_kind(old, w, frozenset()), old))
    if added:
        out.append(("remark", " ".join(added)))
    if gone and not (al.cut_end or cut_shown(child)):
        out.append(("unremark", " ".join(gone)))
    return out


def _quoted(fragment: str) -> str:
    """A short fragment of a message in quotes, or nothing: a fragment longer than a few short words
    (a key, a hostile run) is not repeated in a reason."""
    words = fragment.split()
    if len(fragment) <= MAX_FRAGMENT and all(len(w) <= 12 for w in words):
        return f" '{fragment}'"
    return ""


_SWAPS = {"typo": "typo", "abbreviation": "abbreviation", "specific": "specific swapped", "word": "word swapped"}


def describe(e: Edit) -> str:
    """An edit in words ("prefix 'fwd'", "typo at word 4", "cut at the end (3 words)").  Only short
    fragments of a message are repeated (tags, remarks: :data:`MAX_FRAGMENT` characters, words of
    twelve letters at most); swapped and added words are named by place, not repeated."""
    kind = e[0]
    casings = {"upper": "capitals", "title": "title case", "lower": "lower case"}
    words: dict[str, Callable[[], str]] = {
        "tag": lambda: f"prefix{_quoted(e[1])}", "untag": lambda: f"prefix{_quoted(e[1])} dropped",
        "quote": lambda: "quote marks", "unquote": lambda: "quote marks dropped",
        "remark": lambda: f"remark{_quoted(e[1])}", "unremark": lambda: f"remark{_quoted(e[1])} dropped",
        "trail": lambda: f"words after{_quoted(e[1])}", "lead": lambda: f"words in front{_quoted(e[1])}",
        "casing": lambda: casings.get(e[1], f"{e[1]} case"),
        "recase": lambda: casings.get(e[1], f"{e[1]} case"),
        "ending": lambda: f"ending{_quoted(e[1])}", "marks": lambda: f"punctuation{_quoted(e[1])}", "cut_start": lambda: f"cut at the start ({_words(e[1])})",
        "cut_end": lambda: f"cut at the end ({_words(e[1])})",
        "swap": lambda: f"{_SWAPS.get(e[3], 'word swapped')} at word {int(e[1]) + 1}",
        "insert": lambda: f"a word added before word {int(e[1]) + 1}",
        "delete": lambda: f"word {int(e[1]) + 1} dropped",
        "moved": lambda: "a word moved",
    }
    return words[kind]()


def _words(n: str) -> str:
    """``n`` words, one word singular."""
    return "1 word" if n == "1" else f"{n} words"


def mutations(found: Iterable[Edit]) -> tuple[str, ...]:
    """A child's edits relative to its parent in words, as an edge lists them: each said by :func:`describe`,
    but the words added at one place said once with their number ("3 words added before word 4"), a
    run of words dropped one after another said once ("words 11 to 12 dropped"), the words moved
    counted, and any other description that repeats said once with its count ("... (2 times)").  The
    changes to the whole text first (tags, quotes, remarks, casing, punctuation, cuts), sorted; then
    those inside it (swapped, added, dropped words) in the order of their place.

    >>> mutations([("insert", "1", "a"), ("insert", "1", "b"), ("delete", "9"), ("delete", "3"),
    ...            ("delete", "4"), ("delete", "5"), ("cut_end", "1", "6"), ("swap", "12", "c", "typo", "d")])
    ('cut at the end (1 word)', '2 words added before word 2', 'words 4 to 6 dropped', 'word 10 dropped', 'typo at word 13')
    >>> mutations([("moved", "x"), ("moved", "y"), ("tag", "fwd"), ("tag", "fwd")])
    ('2 words moved', "prefix 'fwd' (2 times)")
    """
    added: Counter[int] = Counter()
    dropped: list[int] = []
    said: Counter[str] = Counter()
    placed: list[tuple[int, str]] = []
    for e in found:
        if e[0] == "insert":
            added[int(e[1])] += 1
        elif e[0] == "delete":
            dropped.append(int(e[1]))
        elif e[0] == "swap":
            placed.append((int(e[1]), describe(e)))
        else:
            said[describe(e)] += 1
    whole = sorted(text if n == 1 else f"{_words(str(n))} moved" if text == "a word moved" else f"{text} ({n} times)"
                   for text, n in said.items())
    placed += [(at, f"{'a word' if n == 1 else _words(str(n))} added before word {at + 1}") for at, n in added.items()]
    runs: list[list[int]] = []
    for at in sorted(set(dropped)):
        if runs and at == runs[-1][1] + 1:
            runs[-1][1] = at
        else:
            runs.append([at, at])
    placed += [(a, f"word {a + 1} dropped" if a == b else f"words {a + 1} to {b + 1} dropped") for a, b in runs]
    return (*whole, *(text for _at, text in sorted(placed)))


def _inherited(e: Edit) -> str:
    """What a candidate that does not need edit ``e`` (while another does) shares with the child."""
    kind = e[0]
    if kind == "cut_start":
        return "cut at the start"
    if kind == "cut_end":
        return "cut at the end"
    if kind == "moved":
        return "word order"
    return describe(e)


def similarity(child: Forward, copy: Forward, cut: bool = False) -> float:
    """rapidfuzz ``ratio`` of the folded texts (0–100), case kept unless the child rewrote every
    letter's case (then the copies' casings say nothing); ``partial_ratio`` (the best-matching
    stretch of the copy) when the child is ``cut`` from it, so that what the cut took away does not
    tell copies apart."""
    a, b = (child.surface.casefold(), copy.surface.casefold()) if child.casing in ERASING else (
        child.surface, copy.surface)
    return fuzz.partial_ratio(a, b) if cut else fuzz.ratio(a, b)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One heard copy the child could have been copied from."""

    position: int
    """Its position in the log."""
    event: int
    edits: tuple[Edit, ...]
    """What the child changed relative to it (:func:`edits`)."""
    weight: float
    """The bits of those edits."""
    similarity: float
    """rapidfuzz ``ratio`` of its folded text to the child's (0–100)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """The chosen parent and why."""

    position: int
    """The chosen candidate's position in the log."""
    confidence: float
    """2^-weight of the choice ÷ Σ 2^-weight (0–1)."""
    reason: str
    tied: tuple[int, ...]
    """Event ids of the candidates tied with the choice (empty when none)."""
    edits: tuple[Edit, ...]
    """What the child changed relative to the choice."""


def candidate(position: int, event: int, child: Forward, copy: Forward, al: Alignment,
              weights: Weights, words: int, found: Sequence[Edit] | None = None) -> Candidate:
    """``copy`` (``words`` core words; ``al``: the child's core aligned on it) as a candidate parent
    (``found``: :func:`edits` of the two, when already read)."""
    found = edits(child, copy, al) if found is None else found
    kept = kept_span(al, words)
    return Candidate(position, event, tuple(found), sum(weights.of_edit(e, kept) for e in found),
                     similarity(child, copy, bool(al.cut_start or al.cut_end)))


def kept_span(al: Alignment, words: int) -> int:
    """The candidate's core words (``words``) within the stretch the child kept (``al.span``): where
    a dropped or moved word could have been (a word the cut took away could not)."""
    start, stop = al.span
    return max(1, min(words, stop) - start) if al.cut_start or al.cut_end else words


def first_heard_share(pools: Iterable[Sequence[Candidate]], rounds: int = 100) -> float:
    """How often, in this match, the copy heard first is the one passed on: the share ``q`` that
    makes the children's texts most likely when each child copied its first-heard candidate with
    probability ``q`` and each other candidate with ``(1 - q) / (k - 1)``, a candidate producing the
    child with probability ``2^-weight`` (expectation-maximisation, with :data:`PSEUDO_CHILDREN`
    children that show no preference -- each candidate alike -- so that a few children cannot
    make it 0 or 1; a match without children of two candidates or more says 1/2)."""
    rows = []
    sizes = []
    for pool in pools:
        if len(pool) < 2:
            continue
        sizes.append(len(pool))
        low = min(c.weight for c in pool)
        first = 2.0 ** (low - pool[0].weight)
        others = sum(2.0 ** (low - c.weight) for c in pool[1:]) / (len(pool) - 1)
        rows.append((first, others))
    if not rows:
        return 0.5
    even = sum(1.0 / k for k in sizes) / len(sizes)  # no preference: each candidate alike
    q = even
    for _round in range(rounds):  # with PSEUDO_CHILDREN children that show no preference
        q = (sum(q * f / (q * f + (1.0 - q) * o) for f, o in rows) + PSEUDO_CHILDREN * even) / (
            len(rows) + PSEUDO_CHILDREN)
    return q


@dataclass(frozen=True, slots=True)
class HeardOrder:
    """Which of the copies it heard an agent passes on, as this match (or a family of its texts) shows
    (:func:`heard_order`): the
    first heard with probability ``first``, the latest heard with ``latest``, and any one alike with
    the rest (people forward the copy that reached them first, or the one in front of them now)."""

    first: float = 0.0
    latest: float = 0.0

    def prior(self, k: int) -> list[float]:
        """The prior of each of ``k`` candidates, in the order heard (they sum to 1)."""
        rest = (1.0 - self.first - self.latest) / k
        out = [rest] * k
        out[0] += self.first
        out[-1] += self.latest
        return out


def heard_order(pools: Iterable[Sequence[Candidate]], rounds: int = 100, toward: HeardOrder = HeardOrder()
                ) -> HeardOrder:
    """The :class:`HeardOrder` that makes the children's texts most likely, a candidate producing the
    child with probability ``2^-weight`` (expectation-maximisation over the children of two
    candidates or more, with :data:`PSEUDO_CHILDREN` children at the shares ``toward`` -- by default
    children that show no preference, any copy alike -- so that a few children cannot make a share 0
    or 1; pools without such children say ``toward``).  Children whose candidates weigh the same tell
    nothing and move nothing.  Learnt over a whole match, then per family of texts toward the match's
    (:func:`~daishi_forensics.injection.propagation.choose_parents`)."""
    rows = _rows(pools)
    if not rows:
        return toward
    if len(rows) >= _ROWS_IN_NUMPY:
        return _heard_order_numpy(rows, rounds, toward)
    return _heard_order_loop(rows, rounds, toward)


def _heard_order_loop(rows: Sequence[tuple[float, float, float]], rounds: int, toward: HeardOrder) -> HeardOrder:
    """:func:`heard_order`'s rounds over ``rows``, one row at a time."""
    first = latest = 1.0 / 3.0
    for _round in range(rounds):
        any_one = 1.0 - first - latest
        to_first = to_latest = 0.0
        for f, last, mean in rows:
            p = first * f + latest * last + any_one * mean
            to_first += first * f / p
            to_latest += latest * last / p
        first = (to_first + PSEUDO_CHILDREN * toward.first) / (len(rows) + PSEUDO_CHILDREN)
        latest = (to_latest + PSEUDO_CHILDREN * toward.latest) / (len(rows) + PSEUDO_CHILDREN)
    return HeardOrder(first, latest)


def _rows(pools: Iterable[Sequence[Candidate]]) -> list[tuple[float, float, float]]:
    """Per child of two candidates or more, how likely its text is from the copy heard first, from the
    latest, and from any one alike (:func:`heard_order`)."""
    rows = []
    for pool in pools:
        if len(pool) < 2:
            continue
        low = min(c.weight for c in pool)
        likely = [2.0 ** (low - c.weight) for c in pool]
        rows.append((likely[0], likely[-1], sum(likely) / len(likely)))
    return rows


def heard_orders(groups: Sequence[Iterable[Sequence[Candidate]]], rounds: int = 100,
                 toward: HeardOrder = HeardOrder()) -> list[HeardOrder]:
    """:func:`heard_order` of each group of pools (a family's children, each toward ``toward``), to the
    same bits, the groups of about as many children rounded together with numpy: each group a row of a
    table as wide as the next power of two of its children (the places past its children masked to
    0.0, which added to a sum leaves it as it was), each round's sums along the row in order
    (``np.cumsum``, as the loop adds).  Many small families cost a few array operations a round, not a
    loop each."""
    rows_of = [_rows(pools) for pools in groups]
    out = [toward] * len(groups)
    by_width: dict[int, list[int]] = {}
    for g, rows in enumerate(rows_of):
        if rows:
            by_width.setdefault(1 << (len(rows) - 1).bit_length(), []).append(g)
    for width, members in sorted(by_width.items()):
        if sum(len(rows_of[g]) for g in members) < _ROWS_IN_NUMPY:  # a few children: the loop costs less
            for g in members:
                out[g] = _heard_order_loop(rows_of[g], rounds, toward)
            continue
        table = np.ones((3, len(members), width), dtype=np.float64)  # padding: any row alike, masked out
        valid = np.zeros((len(members), width), dtype=bool)
        for k, g in enumerate(members):
            rows = rows_of[g]
            table[:, k, :len(rows)] = np.array(rows, dtype=np.float64).T
            valid[k, :len(rows)] = True
        f, last, mean = table
        children = np.array([len(rows_of[g]) for g in members], dtype=np.float64)
        # (worked out once, and each round's products once: the same operations on the same numbers)
        pseudo_first, pseudo_latest = PSEUDO_CHILDREN * toward.first, PSEUDO_CHILDREN * toward.latest
        counted = children + PSEUDO_CHILDREN
        first = np.full(len(members), 1.0 / 3.0)
        latest = np.full(len(members), 1.0 / 3.0)
        for _round in range(rounds):
            any_one = 1.0 - first - latest
            by_first, by_latest = first[:, None] * f, latest[:, None] * last
            p = by_first + by_latest + any_one[:, None] * mean
            to_first = np.cumsum(np.where(valid, by_first / p, 0.0), axis=1)[:, -1]
            to_latest = np.cumsum(np.where(valid, by_latest / p, 0.0), axis=1)[:, -1]
            first = (to_first + pseudo_first) / counted
            latest = (to_latest + pseudo_latest) / counted
        for k, g in enumerate(members):
            out[g] = HeardOrder(float(first[k]), float(latest[k]))
    return out


_ROWS_IN_NUMPY = 64
"""Children of two candidates or more from which :func:`heard_order` sums its rounds with numpy (and
:func:`heard_orders` rounds a table of families together): below, a round's few array operations cost
more than the loop over the children."""


def _heard_order_numpy(rows: Sequence[tuple[float, float, float]], rounds: int, toward: HeardOrder) -> HeardOrder:
    """:func:`heard_order`'s rounds over ``rows`` with numpy, to the same bits: each row's terms are the
    same operations in the same order, and each round's sums are taken in the rows' order (``np.cumsum``
    adds one term after another, as the loop does; ``np.sum`` would add them pairwise)."""
    f, last, mean = (np.array(column, dtype=np.float64) for column in zip(*rows))
    first = latest = 1.0 / 3.0
    for _round in range(rounds):
        any_one = 1.0 - first - latest
        by_first, by_latest = first * f, latest * last  # (each product once: the same numbers)
        p = by_first + by_latest + any_one * mean
        to_first = float(np.cumsum(by_first / p)[-1])
        to_latest = float(np.cumsum(by_latest / p)[-1])
        first = (to_first + PSEUDO_CHILDREN * toward.first) / (len(rows) + PSEUDO_CHILDREN)
        latest = (to_latest + PSEUDO_CHILDREN * toward.latest) / (len(rows) + PSEUDO_CHILDREN)
    return HeardOrder(first, latest)


def _reason(best: Candidate, runner: Candidate, weight: Callable[[Edit], float]) -> str:
    extra = sorted(set(runner.edits) - set(best.edits), key=lambda e: (-weight(e), e))
    if extra:
        e = extra[0]
        if e[0] in ("untag", "unquote", "unremark"):
            return f"{runner.event} has {describe(e).replace(' dropped', '')}, the child does not"
        return f"inherits {_inherited(e)} of {best.event}"
    return f"fewer changes from {best.event} than from {runner.event}"


def choose_parent(candidates: Sequence[Candidate], weight: Callable[[Edit], float],
                  order: float | HeardOrder = 0.5) -> Choice:
    """The candidate the child was copied from (module docstring); ``candidates`` in the order heard.

    Each candidate costs its edits' weight less ``log2`` of its prior: a :class:`HeardOrder` learnt
    from the match (:func:`heard_order`), or, given a share ``q``, the copy heard first ``q`` and the
    others the rest alike (:func:`first_heard_share`).  The lowest cost wins; among candidates whose
    edits weigh the same, the most similar text, then the higher prior, then the copy heard first.
    Candidates whose edits weigh the same as the chosen one's and whose similarity is within
    :data:`TIE_RATIO` are reported as tied: the text cannot tell them apart, only the prior chose."""
    if len(candidates) == 1:
        only = candidates[0]
        return Choice(only.position, 1.0, "only exposed candidate", (), only.edits)
    k = len(candidates)
    shares = order.prior(k) if isinstance(order, HeardOrder) else [order] + [(1.0 - order) / (k - 1)] * (k - 1)
    prior = [math.log2(p) if p > 0 else -math.inf for p in shares]
    cost = [c.weight - prior[n] for n, c in enumerate(candidates)]
    ranked = sorted(range(k), key=lambda n: (round(cost[n], 9), -candidates[n].similarity, n))
    # among candidates whose edits weigh the same, the text decides first (the most similar), then the prior
    same = [n for n in range(k) if abs(candidates[n].weight - candidates[ranked[0]].weight) < 1e-9]
    pick = min(same, key=lambda n: (-candidates[n].similarity, n))
    group = [n for n in same if candidates[pick].similarity - candidates[n].similarity <= TIE_RATIO]
    pick = min(group, key=lambda n: (-round(shares[n], 9), n))  # a tie: the likelier place in the order heard
    ranked = [pick] + [n for n in ranked if n != pick]
    best = candidates[pick]
    tied = [candidates[n] for n in group if n != pick]
    runner = candidates[ranked[1]]
    if tied:
        reason = f"tie with {', '.join(str(c.event) for c in tied)}: {_placed(pick, k, shares)}"
    elif runner.weight - best.weight > 1e-9:
        reason = _reason(best, runner, weight)
    elif best.weight - runner.weight > 1e-9:
        reason = (f"{_place(pick, k)}: a copy of this text so placed is passed on {shares[pick]:.0%} of the time, "
                  f"{runner.event} {shares[ranked[1]]:.0%}, and {runner.event} needs only "
                  f"{best.weight - runner.weight:.1f} bits fewer changes")
    elif best.similarity > runner.similarity:
        reason = f"closer text than {runner.event} ({best.similarity / 100:.2f} vs {runner.similarity / 100:.2f})"
    else:
        reason = f"{_placed(pick, k, shares)} (the changes from {runner.event} weigh the same)"
    low = min(cost)
    total = sum(2.0 ** (low - x) for x in cost)
    return Choice(best.position, 2.0 ** (low - cost[pick]) / total, reason, tuple(c.event for c in tied), best.edits)


def _place(n: int, k: int) -> str:
    """Where candidate ``n`` of ``k`` was heard, in words."""
    return "heard first" if n == 0 else "heard last" if n == k - 1 else f"heard {n + 1} of {k}"


def _placed(pick: int, k: int, shares: Sequence[float]) -> str:
    """Why the prior chose candidate ``pick``: its place, and its share when that is not the first heard's."""
    if pick == 0:
        return "heard first"
    return f"{_place(pick, k)}, as copies of this text are passed on {shares[pick]:.0%} of the time"
