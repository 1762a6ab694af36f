"""The commitment extractor's tokenizer, and the normal form every word table is written in.

:func:`tokens` lower-cases a text, splits it into words and the punctuation the rules read,
and expands contractions and chat spellings ("I'll" -> "i will", "okay" -> "ok", "gonna" ->
"going to", "its" -> "it is"): every rule after it reads those normal forms only.  A word
table that holds a raw form ("okay") would therefore never match it.  So the tables are
written through :func:`normal_words` and :func:`normal_phrase`, which put each entry through
the same tokenizer: a raw form becomes the form the rules see, and an entry the tokenizer
splits into several words (a one-word table entry "gonna") is refused when the table is
built.  The tables are agreed with the tokenizer by construction, not by review.

>>> [t for t, _ in tokens("Okay, I'm gonna send it")]
['ok', ',', 'i', 'am', 'going', 'to', 'send', 'it']
>>> sorted(normal_words(["okay", "ok", "fine"]))
['fine', 'ok']
>>> normal_phrase("that is okay")
('that', 'is', 'ok')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from operator import itemgetter

__all__ = ["tokens", "normal_form", "normal_words", "normal_phrase", "CONTRACTIONS"]

_TOKEN = re.compile("[a-z0-9_']{1,64}|->|[?.!;,:\n>=+&/$-]|[\u2600-\u27bf\U0001f300-\U0001faff]")
"""Words (bounded length) and the punctuation the rules read; everything else is a gap.
One character class per alternative, no nesting: linear time.  An emoji ends a sentence
(chat closes one with it: "Sure we can do that 🙂 Thanks!")."""
_EMOJI_FIRST = "\u2600"

CONTRACTIONS: Mapping[str, tuple[str, ...]] = {
    "won't": ("will", "not"), "wont": ("will", "not"), "can't": ("can", "not"), "cant": ("can", "not"),
    "cannot": ("can", "not"), "shan't": ("shall", "not"), "ain't": ("am", "not"), "dont": ("do", "not"),
    "didnt": ("did", "not"), "im": ("i", "am"), "ive": ("i", "have"), "ill": ("i", "will"),
    "let's": ("let", "us"), "lets": ("let", "us"), "here's": ("here", "is"), "it's": ("it", "is"),
    "that's": ("that", "is"), "you're": ("you", "are"), "youre": ("you", "are"), "you've": ("you", "have"),
    "gonna": ("going", "to"), "wanna": ("want", "to"), "gotta": ("got", "to"), "u": ("you",),
    "ur": ("your",), "ya": ("you",), "pls": ("please",), "plz": ("please",), "omw": ("on", "my", "way"),
    "wts": ("selling",), "wtb": ("buying",), "k": ("ok",), "okay": ("ok",), "np": ("ok",),
    "gimme": ("give", "me"), "lemme": ("let", "me"), "cmon": ("come", "on"), "thats": ("that", "is"),
    "whats": ("what", "is"), "youll": ("you", "will"), "theyre": ("they", "are"), "isnt": ("is", "not"),
    "doesnt": ("does", "not"), "wouldnt": ("would", "not"), "couldnt": ("could", "not"), "its": ("it", "is"),
}
_CONTRACTED = frozenset(CONTRACTIONS)
"""The words :func:`tokens` expands."""
_WORD = itemgetter(0)
"""A token's word."""
_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("n't", "not"), ("'ll", "will"), ("'d", "would"), ("'m", "am"), ("'re", "are"), ("'ve", "have"),
)


_ILL_NOUNS = frozenset({"will", "intent", "intents", "intention", "intentions", "feelings", "wishes"})
"""(v16) Nouns after "ill" that make it the adjective ("ill will"), not chat's "I'll" ("ill help you")."""


def tokens(text: str) -> list[tuple[str, int]]:
    """Lower-cased tokens of ``text`` with their offsets; contractions expanded (rule 2).

    >>> [t for t, _ in tokens("I'll give U 3 wood, won't I?")]
    ['i', 'will', 'give', 'you', '3', 'wood', ',', 'will', 'not', 'i', '?']
    """
    lowered = text.lower()
    # each replacement only where its first character stands (most chat holds none: no scan to copy)
    if not lowered.isascii():
        lowered = lowered.replace("\u2019", "'").replace("\u2018", "'")
    if "=" in lowered:
        lowered = lowered.replace("=>", "->")
    if "-" in lowered:
        lowered = lowered.replace("non-aggression", "nonaggression").replace("cease-fire", "ceasefire")
    found = [(m[0], m.start()) for m in _TOKEN.finditer(lowered)]
    if "'" not in lowered and lowered.isascii() and _CONTRACTED.isdisjoint(map(_WORD, found)):
        return found  # no apostrophe, emoji or contraction: every token stands as found
    out: list[tuple[str, int]] = []
    expansions = CONTRACTIONS.get
    append = out.append
    for word, at in found:
        if word >= _EMOJI_FIRST:
            append(("\n", at))  # an emoji ends its sentence
            continue
        if "'" in word:
            word = word.strip("'") or word
            expansion = expansions(word)
            if expansion is None and "'" in word:
                expansion = _split_apostrophe(word)
        else:
            expansion = expansions(word)
        if expansion is None or (word == "ill" and _ill_adjective(found, at)):
            append((word, at))  # (v16) "no ill will": the adjective, not chat's "I'll"
        else:
            out.extend([(w, at) for w in expansion])
    return out


def _ill_adjective(found: list[tuple[str, int]], at: int) -> bool:
    """(v16) The token "ill" at offset ``at`` is the adjective: a noun of :data:`_ILL_NOUNS` comes next ("no ill
    will"). Read only for an "ill" (rare), so the loop over every token pays nothing for it.

    >>> found = [("no", 0), ("ill", 3), ("will", 7), ("ill", 12), ("help", 16)]
    >>> _ill_adjective(found, 3), _ill_adjective(found, 12)
    (True, False)
    """
    n = next(k for k, (_, a) in enumerate(found) if a == at)
    return n + 1 < len(found) and found[n + 1][0] in _ILL_NOUNS


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


def normal_form(text: str) -> tuple[str, ...]:
    """The words :func:`tokens` reads in ``text``, in order (what a rule sees of it).

    >>> normal_form("Let's")
    ('let', 'us')
    """
    return tuple(word for word, _ in tokens(text))


def normal_words(words: Iterable[str]) -> frozenset[str]:
    """A table of single words in the tokenizer's normal form: each entry read as :func:`tokens`
    reads it ("okay" -> "ok").  An entry that is no single token ("gonna" -> "going to", "yes?")
    could never match one word, and is refused.

    >>> normal_words(["gonna"])
    Traceback (most recent call last):
    ...
    ValueError: table entry 'gonna' is read as ('going', 'to'), not one word
    """
    out: set[str] = set()
    for entry in words:
        form = normal_form(entry)
        if len(form) != 1:
            raise ValueError(f"table entry {entry!r} is read as {form!r}, not one word")
        out.add(form[0])
    return frozenset(out)


def normal_phrase(phrase: str | tuple[str, ...]) -> tuple[str, ...]:
    """A phrase (words joined by blanks, or a tuple of words) in the tokenizer's normal form.

    >>> normal_phrase(("wanna",))
    ('want', 'to')
    """
    form = normal_form(phrase if isinstance(phrase, str) else " ".join(phrase))
    if not form:
        raise ValueError(f"table phrase {phrase!r} holds no word")
    return form
