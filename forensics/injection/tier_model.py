"""The learned part of the tier classifier: a linear model over n-grams, evaluated here.

The rules (:mod:`.tier_rules`) name a mechanism and quote a span; they miss what they
were not written for.  The learned score is a second opinion on the messages no rule
flags: a logistic-regression model over the normalized text's character 3- to 5-grams,
word 1- and 2-grams, the 3- and 4-grams of its *function-word skeleton* (every word that
is not a pronoun, auxiliary, determiner, preposition, conjunction or negation becomes
``_``: "you are no longer a player" and "you are no longer a guard" share
``you are no longer a _``, a frame that carries from one author's wording to another's)
and the *signs* the rules saw without deciding (:func:`.tier_rules.signs`: a weak hint
or a cue, as ``r:`` features), fitted on the ``train`` split of the tier corpora only, with its
threshold chosen on the ``tune`` split: over the persuasion rows the classifier would
score (see :mod:`.tiers`), it flags no real negotiation turn and at most 1% of the written
in-game lookalikes (the evaluation design's injection tiers: false positives on real play
are the larger harm), plus a margin.  ``bench/tiers_model_train.py`` refits it
(``bench/tiers_model_cv.py`` compares its settings by k-fold cross-validation on train +
tune); the same corpora give the same bytes.

The model ships as JSON (``tier_model.json``: the bias, the threshold, and a weight per
n-gram) and this module evaluates it itself -- no pickle, no download, nothing executed
from the file.  A message's score is::

    bias + sum(weight[g] for each distinct n-gram g of the message) / sqrt(number of distinct n-grams)

(every distinct n-gram counts in the square root, whether or not the model knows it, so
an unknown word dilutes the score rather than being ignored).  At or over the threshold
the message is ``hijack`` with the rule :data:`LEARNED_RULE`, and the reason lists the
n-grams that weighed most.

>>> sorted(features("ok go"))
['b:ok go', 'c: go', 'c:k g', 'c:k go', 'c:ok ', 'c:ok g', 'c:ok go', 'w:go', 'w:ok']
>>> sorted(g for g in features("you are no longer a guard", ("role-assignment",)) if g[0] in "kr")[-4:]
['k:no longer a _', 'k:you are no', 'k:you are no longer', 'r:role-assignment']
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .tier_rules import Text

__all__ = [
    "LEARNED_RULE",
    "MODEL_FILE",
    "FORMAT",
    "FEATURE_CAP",
    "CHAR_SIZES",
    "SKELETON_SIZES",
    "FUNCTION_WORDS",
    "FEATURE_SPEC",
    "features",
    "TierModel",
    "LearnedScore",
    "ModelFileError",
    "load_model",
    "model_from_json",
]

LEARNED_RULE = "learned-score"
"""The rule name a verdict of the learned model carries."""

MODEL_FILE = Path(__file__).with_name("tier_model.json")
"""The shipped model."""

FORMAT = "daishi-forensics/tier-model"
"""The ``format`` field of a model file; ``version`` 1 is the layout this module reads."""

FEATURE_CAP = 4096
"""Characters of the normalized text the model reads (its prefix)."""

CHAR_SIZES = (3, 4, 5)
"""Lengths of the character n-grams."""

TOP = 5
"""N-grams named in a learned verdict's reason."""

SKELETON_SIZES = (3, 4)
"""Lengths of the n-grams of the function-word skeleton."""

FUNCTION_WORDS = frozenset("""
    i me my mine myself we us our ours you your yours yourself yourselves he him his she her hers it its
    they them their theirs this that these those who whom whose which what when where why how
    a an the some any no not never none nothing every each all both either neither other another such
    am is are was were be been being have has had do does did will would shall should can could may
    might must ought let lets s re ve ll d t m
    to of in on at by for from with without about into onto over under before after above below
    between through during until since than as like unlike upon within
    and or but nor so yet if then else because while though although unless whether
    now just only also still already again ever more most less least very too here there
    up down out off away back instead longer anymore
""".split())
"""The words a skeleton keeps (:func:`features`): closed-class words, whose order is how a
sentence is built rather than what it is about."""

FEATURE_SPEC: dict[str, Any] = {"char_sizes": list(CHAR_SIZES), "words": [1, 2],
                                "skeleton": list(SKELETON_SIZES), "signs": True, "cap": FEATURE_CAP}
"""The ``features`` field of a model file this version computes."""

_TOKEN = re.compile(r"\w+|[^\w\s]+")
_WORDS = re.compile(r"[^\W_]+")


def features(folded: str, signs: Iterable[str] = ()) -> frozenset[str]:
    """The distinct n-grams of a normalized (folded) text: ``c:`` character 3- to 5-grams of
    the text with blanks made single spaces, ``w:`` words (runs of letters/digits, or of
    punctuation), ``b:`` pairs of adjacent words, ``k:`` 3- and 4-grams of the skeleton (the
    words, each not in :data:`FUNCTION_WORDS` made ``_``, a run of ``_`` made one), and
    ``r:`` each of ``signs`` (the rules' weak hints and cues, :func:`.tier_rules.signs`).
    Only the first :data:`FEATURE_CAP` characters are read."""
    return frozenset(kind + ":" + gram for kind, grams in _grams_by_kind(folded, signs) for gram in grams)


def _grams_by_kind(folded: str, signs: Iterable[str] = ()) -> tuple[tuple[str, set[str]], ...]:
    """:func:`features` kind by kind, each kind's n-grams without its prefix: ``(("c", {...}), ("w", {...}),
    ("b", {...}), ("k", {...}), ("r", {...}))``.  The kinds' prefixes differ, so the n-grams of
    :func:`features` are these, each prefixed, and as many."""
    s = _spaced(folded)
    return (("c", _char_grams(s)), *_word_grams(s, signs))


def _spaced(folded: str) -> str:
    """The text the n-grams are read from: the first :data:`FEATURE_CAP` characters, blanks made single spaces."""
    return " ".join(folded[:FEATURE_CAP].split())


def _char_grams(s: str) -> set[str]:
    """The distinct character n-grams of ``s`` (:data:`CHAR_SIZES`)."""
    chars: set[str] = set()
    for n in CHAR_SIZES:
        chars |= {s[i:i + n] for i in range(len(s) - n + 1)}
    return chars


def _word_grams(s: str, signs: Iterable[str]) -> tuple[tuple[str, set[str]], ...]:
    """The kinds of :func:`_grams_by_kind` after the characters': words, pairs of words, the skeleton's frames,
    the signs."""
    words = _TOKEN.findall(s)
    skeleton: list[str] = []
    for w in _WORDS.findall(s):
        if w in FUNCTION_WORDS:
            skeleton.append(w)
        elif not skeleton or skeleton[-1] != "_":
            skeleton.append("_")
    frames: set[str] = set()
    blanks = [0]  # blanks[i]: the "_" among the first i words of the skeleton
    for w in skeleton:
        blanks.append(blanks[-1] + (w == "_"))
    for n in SKELETON_SIZES:
        for i in range(len(skeleton) - n + 1):
            if (blanks[i + n] - blanks[i]) * 2 < n:  # mostly function words: a frame, not a content word's echo
                frames.add(" ".join(skeleton[i:i + n]))
    return (("w", set(words)), ("b", {a + " " + b for a, b in zip(words, words[1:])}), ("k", frames),
            ("r", set(signs)))


_CHAR_BITS = 12
"""Bits a character's number takes in :class:`_CharGrams`' integers (at most 4,095 characters numbered)."""


class _CharGrams:
    """The character n-grams a model weighs, each written as one integer, and a text's counted and found alike.

    An n-gram's integer holds its characters' numbers, :data:`_CHAR_BITS` bits each, the first lowest; a
    character is numbered when first met, from 1 (the model's own characters first), so two n-grams have one
    integer only when they are the same (of one length: the same characters; of two lengths: never, the longer's
    last number is not 0).  A text's n-grams are written by a few array operations, their distinct ones counted
    by one sort, and the model's among them found by a sorted search, where a string made per n-gram, put in a
    set and looked up costs a few times more: the same count, the same n-grams found.  A text holding a character
    numbered past what the bits hold is read by :func:`_char_grams` (:meth:`read` says None)."""

    __slots__ = ("numbers", "count", "codes", "weights", "grams")

    def __init__(self, weights: Mapping[str, float]) -> None:
        self.numbers = np.zeros(0x110000, dtype=np.int64)  # code point -> number (0: none yet); pages untouched
        # stay unmapped
        self.count = 0
        grams = [g for g in weights if len(g) in CHAR_SIZES]
        for ch in sorted({ch for g in grams for ch in g}):
            self._number(ord(ch))
        fits = self.count < 1 << _CHAR_BITS and max(CHAR_SIZES) * _CHAR_BITS <= 63  # (else none: read says None)
        written = sorted((self._written(g), g) for g in grams) if fits else []
        self.codes = np.array([code for code, _g in written], dtype=np.int64)
        self.grams = [g for _code, g in written]
        self.weights = np.array([weights[g] for g in self.grams], dtype=np.float64)

    def __reduce__(self) -> tuple[Any, ...]:
        # made again from the model's n-grams (the numbers of other characters are only ever compared)
        return _CharGrams, (dict(zip(self.grams, self.weights.tolist())),)

    def _number(self, point: int) -> None:
        self.count += 1
        self.numbers[point] = self.count

    def _written(self, gram: str) -> int:
        code = 0
        for j, ch in enumerate(gram):
            code |= int(self.numbers[ord(ch)]) << (_CHAR_BITS * j)
        return code

    def read(self, s: str) -> tuple[int, np.ndarray] | None:
        """``s``'s distinct character n-grams: how many, and the positions in :attr:`grams` of those the model
        weighs; None when a character of ``s`` is numbered past what :data:`_CHAR_BITS` bits hold."""
        if not len(self.codes):
            return None
        points = np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        ids = self.numbers[points]
        if not ids.all():
            for point in np.unique(points[ids == 0]).tolist():
                self._number(point)
            ids = self.numbers[points]
        if self.count >= 1 << _CHAR_BITS and int(ids.max()) >= 1 << _CHAR_BITS:
            return None
        length = len(ids)
        parts: list[np.ndarray] = [ids] if 1 in CHAR_SIZES and length else []
        code = ids
        for n in range(2, max(CHAR_SIZES) + 1):
            if length < n:
                break
            code = code[:length - n + 1] | (ids[n - 1:] << (_CHAR_BITS * (n - 1)))
            if n in CHAR_SIZES:
                parts.append(code)
        if not parts:
            return 0, np.zeros(0, dtype=np.int64)
        every = np.concatenate(parts)
        every.sort()
        distinct = every[np.concatenate(([True], every[1:] != every[:-1]))]
        at = np.searchsorted(self.codes, distinct)
        np.minimum(at, len(self.codes) - 1, out=at)
        return len(distinct), at[self.codes[at] == distinct]


class ModelFileError(ValueError):
    """The model file is not a tier model this version can read (names the file and field)."""


@dataclass(frozen=True, slots=True)
class LearnedScore:
    """The learned model's opinion of one message."""

    value: float
    """The score (see the module docstring)."""
    threshold: float
    """The model's threshold: at or over it the message is flagged."""
    top: tuple[tuple[str, float], ...]
    """The n-grams that pushed the score up most, with their contribution (weight ÷ √n)."""

    @property
    def flagged(self) -> bool:
        return self.value >= self.threshold

    @property
    def reason(self) -> str:
        """``hijack/learned-score: score 1.92 >= threshold 1.41; n-grams "ignore" +0.31, ...``."""
        grams = ", ".join(f"{_show(g)} {w:+.3f}" for g, w in self.top) or "none"
        return (f"hijack/{LEARNED_RULE}: score {self.value:.3f} >= threshold {self.threshold:.3f}; "
                f"n-grams that weighed most: {grams}")


def _show(gram: str) -> str:
    kind, _, text = gram.partition(":")
    label = {"c": "chars", "w": "word", "b": "words", "k": "frame", "r": "sign"}.get(kind, kind)
    shown = "".join(ch if ch.isprintable() else " " for ch in text)
    return f"{label} \u201c{shown}\u201d"


@dataclass(frozen=True)
class TierModel:
    """A linear model over :func:`features`, read from JSON (:func:`model_from_json`)."""

    bias: float
    threshold: float
    weights: Mapping[str, float]
    meta: Mapping[str, Any]
    """What the file says of its training (corpora, split, counts), kept for reports."""
    _by_kind: dict[str, tuple[frozenset[str], dict[str, float]]] = field(init=False, repr=False, compare=False)
    """The weights kind by kind (the n-gram's prefix, ``c`` for ``c:...``), keyed without the prefix, with
    the set of those keys (a set's intersection with a frozenset takes half the time it takes with a dict's
    keys)."""
    _chars: _CharGrams = field(init=False, repr=False, compare=False)
    """The character n-grams' weights as integers (:class:`_CharGrams`)."""

    def __post_init__(self) -> None:
        by_kind: dict[str, dict[str, float]] = {}
        for gram, weight in self.weights.items():
            kind, colon, rest = gram.partition(":")
            if colon:  # (a key without a kind matches no n-gram)
                by_kind.setdefault(kind, {})[rest] = weight
        object.__setattr__(self, "_by_kind", {kind: (frozenset(w), w) for kind, w in by_kind.items()})
        object.__setattr__(self, "_chars", _CharGrams(by_kind.get("c", {})))

    def score(self, text: Text, signs: Iterable[str] = (), *, named_from: float | None = None) -> LearnedScore:
        """The score of a normalized message and the n-grams behind it (``signs``: the rules'
        hints and cues it shows, :func:`.tier_rules.signs`).  ``named_from``: the n-grams are named
        only when the score reaches it (None: always); a caller that keeps the score only when it
        flags passes the threshold it flags at, and an unflagged message's n-grams are not ranked.

        The n-grams are read kind by kind (:func:`_grams_by_kind`), those the model weighs found by a set's
        intersection without their prefix: the same n-grams as :func:`features`, the same weights; their sum
        is :func:`math.fsum`'s (one float in any order), and the n-grams named are sorted by contribution
        then n-gram (a kind is one letter, so kind then n-gram sorts as the prefixed n-gram does)."""
        s = _spaced(text.folded)
        read = self._chars.read(s)
        chars: tuple[tuple[str, set[str]], ...] = (("c", _char_grams(s)),) if read is None else ()
        kinds = (*chars, *_word_grams(s, signs))
        count = sum(len(grams) for _kind, grams in kinds) + (read[0] if read is not None else 0)
        if not count:
            return LearnedScore(self.bias, self.threshold, ())
        scale = 1.0 / math.sqrt(count)
        by_kind = self._by_kind
        found: list[float] = []
        hits: list[tuple[str, set[str], dict[str, float]]] = []
        if read is not None and len(read[1]):
            found += self._chars.weights[read[1]].tolist()
        for kind, grams in kinds:
            known = by_kind.get(kind)
            if known is None:
                continue
            keys, weights = known
            hit = grams & keys
            if hit:
                found += map(weights.__getitem__, hit)
                hits.append((kind, hit, weights))
        value = self.bias + math.fsum(found) * scale
        if named_from is not None and value < named_from:
            return LearnedScore(value, self.threshold, ())
        if read is not None and len(read[1]):
            named = self._chars.grams
            hits.append(("c", {named[k] for k in read[1].tolist()}, by_kind["c"][1]))
        # (minus the contribution, kind, n-gram): sorted as they stand
        up = sorted((-(w * scale), kind, g) for kind, hit, weights in hits for g in hit if (w := weights[g]) > 0)
        top = [(kind + ":" + g, -minus) for minus, kind, g in up[:TOP]]
        return LearnedScore(value, self.threshold, tuple(top))


def model_from_json(obj: Any, where: str = "tier model") -> TierModel:
    """A :class:`TierModel` from a decoded model file; :class:`ModelFileError` names the field
    that is wrong."""
    if not isinstance(obj, dict):
        raise ModelFileError(f"{where}: not a JSON object")
    if obj.get("format") != FORMAT or obj.get("version") != 1:
        raise ModelFileError(f"{where}: field 'format'/'version' is not {FORMAT!r} version 1")
    spec = obj.get("features")
    expected = FEATURE_SPEC
    if spec != expected:
        raise ModelFileError(f"{where}: field 'features' is {spec!r}, this version computes {expected!r}")
    numbers: dict[str, float] = {}
    for key in ("bias", "threshold"):
        value = obj.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise ModelFileError(f"{where}: field {key!r} is not a finite number")
        numbers[key] = float(value)
    weights = obj.get("weights")
    if not isinstance(weights, dict):
        raise ModelFileError(f"{where}: field 'weights' is not an object")
    for gram, w in weights.items():
        if not isinstance(w, (int, float)) or isinstance(w, bool) or not math.isfinite(w):
            raise ModelFileError(f"{where}: field 'weights' entry {gram!r} is not a finite number")
    meta = obj.get("meta", {})
    if not isinstance(meta, dict):
        raise ModelFileError(f"{where}: field 'meta' is not an object")
    return TierModel(numbers["bias"], numbers["threshold"], {g: float(w) for g, w in weights.items()}, meta)


@lru_cache(maxsize=4)
def load_model(path: Path | None = None) -> TierModel:
    """The model in ``path`` (default: the shipped :data:`MODEL_FILE`), read once."""
    file = MODEL_FILE if path is None else path
    try:
        obj = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelFileError(f"{file}: cannot be read as JSON ({exc})") from None
    return model_from_json(obj, str(file))
