"""How people forward text: a message read as a core and the wrapping a forwarder put around it.

Seed 002 §2.7 ("payload-similarity matching across messages") and §3.1 item 10
(quote/echo detection).  A person passing a message on rarely sends it untouched:
they shout it (capitals), dress it up (title case), put a tag or two in front
("fwd:", "RT @kai:", "pass it on:", "someone said:", "> "), quote it, add a remark
after it ("(pass it on)", "- is this true?", "!!"), cut it at the start or the end
("..."), or change a word.  :func:`parse_forward` reads a text as

- ``core``: its words, folded (Unicode compatibility forms, accents, case, number
  words as digits: "five" and "5" are one word), without the wrapping below;
- ``tags``: the tags in front, outermost first (a tag is ``>``, a bracketed word
  or two, a word of the forwarding lexicon such as ``RT`` or ``fwd``, or a short
  lead ending in a colon or a dash: at most :data:`MAX_TAG_WORDS` words, and
  at most two unless it names forwarding, is an attribution, "kai says:", or has
  another tag or a quotation after it: tags stack, "this just in: PSA: ...");
- ``quote``: the quotation marks around the core, if any;
- ``remark``: a remark after the core (after a closing quote, in brackets at the
  end, or after a dash, a bar or two slashes), folded;
- ``casing``: ``upper``, ``title``, ``lower``, ``sentence`` or ``mixed``;
- ``ending``: the run of punctuation or symbols that ends the text;
- ``ellipsis``: whether the core starts or ends with an ellipsis (a cut shown);
- ``marks``: the punctuation inside the core, in order.

Nothing is thrown away: what a forwarder added is kept as its *mutations*
(:mod:`._lineage` compares them between copies; they identify lineage).  The
parse is the same for every copy, so a wrapping the original already had is
read the same way in all of them.

>>> f = parse_forward('RT @kai: fwd: "The Council froze ALL trades until Wren is paid FIVE ore" (pass it on)')
>>> f.core
('the', 'council', 'froze', 'all', 'trades', 'until', 'wren', 'is', 'paid', '5', 'ore')
>>> f.tags, f.quote, f.remark, f.casing
(('rt', '@kai', 'fwd'), '"', 'pass it on', 'mixed')
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass

__all__ = [
    "MAX_TAG_WORDS",
    "MAX_REMARK_WORDS",
    "STRAY_SMALL",
    "FORWARD_WORDS",
    "Forward",
    "fold",
    "words_of",
    "casing_of",
    "parse_forward",
    "is_forward_tag",
]

MAX_TAG_WORDS = 4
"""Longest tag in front of a forwarded text, in words ("passing this on to you:" is five: not a tag)."""

MAX_REMARK_WORDS = 6
"""Longest remark after a forwarded text, in words."""

STRAY_SMALL = 5
"""A text in capitals may hold one word in this many not in capitals (a typo's small letter, a short
remark added in small letters); a title-cased text of this many long words or more, one in this many
all small (a word swapped in)."""

FORWARD_WORDS = frozenset({
    "fwd", "fw", "rt", "re", "via", "said", "says", "say", "wrote", "writes", "told", "tells", "forward",
    "forwarded", "forwarding", "pass", "passing", "passed", "share", "shared", "sharing", "spread", "repost",
    "reposting", "reposted", "copy", "copying", "copied", "quote", "quoting", "heard", "hear", "from", "relay",
    "relaying", "cc", "signal", "boost", "posted", "reblog",
})
"""Words that say a text is passed on ("fwd", "RT", "someone said", "pass it on", "heard from"):
a tag holding one is a forward marker (:func:`is_forward_tag`)."""

_NUMBER_WORDS = {w: str(k) for k, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"))}
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad"), None)
_QUOTE_FOLD = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
                             "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                             "\u2014": "-", "\u2013": "-", "\u2012": "-", "\u2015": "-", "\u2026": "..."})
_PAIRS = {'"': '"', "'": "'", "\u00ab": "\u00bb", "\u00bb": "\u00ab", "`": "`", "\u300c": "\u300d"}
_WORD = re.compile(r"\w+")
_MARKS = re.compile(r"[^\w\s]")
_LETTERS = re.compile(r"[^\W\d_]+")
_GT = re.compile(r"(?:>\s*)+")
_BRACKET_TAG = re.compile(r"[\[(]([^\[\]()]{1,40})[\])]\s*[:\-|>]*\s+")
_AT_TAG = re.compile(r"@\w+\s*:?\s+")
_LEAD_TAG = re.compile(r"([^\s:>\[(\"'\u00ab\u00bb`][^:\n]{0,48}?)\s*(?:::?|\s[-|~>]{1,3}|-{2,3}|!{2,})\s+")
_BARE_TAG = re.compile(r"(rt|fwd|fw|fyi|re)\b[\s:>\-|]*", re.IGNORECASE)
_TRAIL_BRACKET = re.compile(r"\s*[\[(]([^\[\]()]{1,60})[\])]\s*$")
_TRAIL_DASH = re.compile(r"\s+(?:-{1,3}|\||~|//)\s*([^-|~/]{1,60})$")
_TAG_MARKS = frozenset(":-|~>!([@")
_TAG_MARK = re.compile("[" + re.escape("".join(sorted(_TAG_MARKS))) + "]")
"""Any of :data:`_TAG_MARKS` (a tag in front needs one, or a bare tag word)."""
_REMARK_MARK = re.compile(r"[-|~/]")
"""A character a remark after the text is set apart with (a dash, a bar, a tilde, two slashes)."""
_ENDING_KEEP = frozenset("\"'\u00ab\u00bb`()[]")
_ATTRIBUTION = re.compile(r"\w+\s+(?:said|says|wrote|writes|told\s+me|tells\s+me)$")


def fold(text: str) -> str:
    """``text`` in compatibility form (NFKC), accents and invisible characters removed, curly
    quotes and dashes made plain, runs of white space one space, trimmed (case kept).  Where nothing changed,
    the text itself (one string, not two: a forward read keeps its folded text beside the message's own)."""
    original = text
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text.translate(_INVISIBLE))
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
        text = unicodedata.normalize("NFKC", text).translate(_QUOTE_FOLD)
    joined = " ".join(text.split())
    if joined == original:
        return original
    return text if joined == text else joined


def words_of(text: str) -> tuple[str, ...]:
    """The words of a folded text: casefolded runs of letters, digits and ``_`` (a region id is
    one word), number words up to twenty as digits."""
    words = _WORD.findall(text.casefold())
    if _NUMBER_WORDS.keys().isdisjoint(words):
        return tuple(map(sys.intern, words))  # one string object per distinct word, however many texts hold it
    return tuple(sys.intern(_NUMBER_WORDS.get(w, w)) for w in words)


def casing_of(text: str) -> str:
    """``upper`` (every word in capitals but at most one in :data:`STRAY_SMALL` -- a typo's stray
    small letter, a few words added -- four letters or more), ``lower`` (none), ``title``
    (every word of three letters or more starts with a capital, the rest small; of five such words
    or more, at most one in :data:`STRAY_SMALL` all small -- a word swapped in), ``sentence``
    (the first word capitalised, no other capital but a few names) or ``mixed``."""
    if text.islower() or text.lower() == text:
        return "lower"
    words = _LETTERS.findall(text)
    if text.isupper():
        return "upper" if sum(map(len, words)) >= 4 else "mixed"
    if len(words) >= 2 and STRAY_SMALL * (len(words) - sum(map(str.isupper, words))) <= len(words):
        return "upper" if sum(map(len, words)) >= 4 else "mixed"  # shouted, a typo or a few words added small
    long = [w for w in words if len(w) >= 3]
    titled = sum(map(str.istitle, long))
    if long and titled == len(long):
        return "title"
    if len(long) >= STRAY_SMALL and STRAY_SMALL * (len(long) - titled) <= len(long) \
            and all(w.istitle() or w.islower() for w in long):
        return "title"  # dressed up, one word in five swapped in small letters ("Tell every1 You Meet")
    if long and long[0][:1].isupper() and all(w.islower() or w.istitle() for w in long) \
            and titled <= max(1, len(long) // 4):
        return "sentence"
    return "mixed"


def is_forward_tag(tag: str) -> bool:
    """The tag says the text is passed on: ``>``, an ``@name``, or a word of :data:`FORWARD_WORDS`."""
    return tag == ">" or tag.startswith("@") or any(w in FORWARD_WORDS for w in _WORD.findall(tag))


@dataclass(frozen=True, slots=True)
class Forward:
    """A message text read as a forwarded text (module docstring)."""

    core: tuple[str, ...]
    """The words of the text without its wrapping (folded)."""
    tags: tuple[str, ...]
    """Tags in front, outermost first (folded, casefolded)."""
    quote: str | None
    """The opening quotation mark around the core (``"``, ``'``, ``«``...), or None."""
    remark: str | None
    """A remark after the core (folded, casefolded), or None."""
    casing: str
    """How the core is capitalised (:func:`casing_of`)."""
    ending: str
    """The punctuation run the text ends with ("" for none)."""
    ellipsis: tuple[bool, bool]
    """An ellipsis at the (start, end) of the core."""
    surface: str
    """The folded text (case kept): what parent choice compares character by character."""
    marks: str = ""
    """The punctuation inside the core, in order, white space dropped (", ; -"): a forwarder's
    repunctuation is a mutation too."""
    core_at: int = -1
    """Where the core's text stands in :attr:`surface`, as ``start << 32 | length`` (its words as written
    are read from there when asked, :meth:`casing_within`: most texts are never asked, and a tuple of them
    kept for each of a match's distinct texts was the largest part of a forward read); -1 for a text in
    lower case, where any stretch is lower case too."""

    def casing_within(self, start: int, stop: int) -> str:
        """The casing (:func:`casing_of`) of the core words ``[start, stop)`` alone: what a copy that
        kept only them could show (a name in capitals that a cut took away leaves a lower-case
        copy).  The whole core's casing when the words as written are not known (a text in lower case,
        or words as written that do not line up with the core's, one each)."""
        if self.core_at < 0 or (start <= 0 and stop >= len(self.core)):
            return self.casing
        at = self.core_at >> 32
        cased = _WORD.findall(self.surface, at, at + (self.core_at & 0xFFFFFFFF))
        if len(cased) != len(self.core):
            return self.casing
        return casing_of(" ".join(cased[max(0, start):stop]))

    @property
    def forward_marked(self) -> bool:
        """A tag, quotation marks or a remark says the text is passed on ("fwd", "> ", "kai says",
        "(pass it on)")."""
        return (self.quote is not None or any(is_forward_tag(t) for t in self.tags)
                or (self.remark is not None and is_forward_tag(self.remark)))


def _tag_ok(tag: str, rest: str, stacked: bool = False) -> bool:
    """A lead ``tag`` before ``rest`` is wrapping, not content: short, and the rest longer; of three
    words or more, it names forwarding, is an attribution, or is ``stacked`` on another tag."""
    words = _WORD.findall(tag)
    if not words or len(words) > MAX_TAG_WORDS or len(_WORD.findall(rest)) < max(2, len(words) + 1):
        return False
    return (len(words) <= 2 or stacked or is_forward_tag(tag.casefold())
            or bool(_ATTRIBUTION.search(tag.casefold())))


def _peel_front(text: str, depth: int = 0) -> tuple[str | None, str]:
    """One tag off the front of ``text``: ``(tag, rest)``, or ``(None, text)``.  A lead of three or
    four words that names no forward is a tag when another tag follows it (tags stack: "this just
    in: PSA: ...")."""
    head = text[:56]
    if not _TAG_MARK.search(head) and not _BARE_TAG.match(head):
        return None, text
    m = _GT.match(text)
    if m and text[m.end():]:
        return ">", text[m.end():]
    for pattern in (_BRACKET_TAG, _AT_TAG, _BARE_TAG, _LEAD_TAG):
        m = pattern.match(text)
        if m is None:
            continue
        tag = (m.group(1) if pattern.groups else m.group(0)).strip(" :-|>!").casefold()
        rest = text[m.end():]
        if tag and _tag_ok(tag, rest):
            return tag, rest
        if tag and depth < 2 and _tag_ok(tag, rest, stacked=True) and (
                rest[:1] in _PAIRS or _peel_front(rest, depth + 1)[0] is not None):
            return tag, rest
    return None, text


def _peel_quote(text: str) -> tuple[str | None, str, str]:
    """Quotation marks around the start of ``text``: ``(mark, inside, after)`` or ``(None, text, "")``.
    An opening mark never closed (a copy cut at the end) is a quote too."""
    mark = text[:1]
    close = _PAIRS.get(mark)
    if close is None:
        return None, text, ""
    end = text.rfind(close, 1)
    if end <= 1:
        return mark, text[1:].strip(), ""
    inside, after = text[1:end].strip(), text[end + 1:].strip()
    if mark == "'" and text[end + 1:end + 2].isalnum():  # an apostrophe ("it's"), not a closing quote
        return None, text, ""
    if len(_WORD.findall(inside)) < 2:
        return None, text, ""
    return mark, inside, after


def _peel_back(text: str) -> tuple[str | None, str]:
    """A remark off the end of ``text``: ``(remark, rest)`` or ``(None, text)``."""
    if not text.endswith((")", "]")) and not _REMARK_MARK.search(text, max(0, len(text) - 72)):
        return None, text
    for pattern in (_TRAIL_BRACKET, _TRAIL_DASH):
        m = pattern.search(text)
        if m is None:
            continue
        remark, rest = m.group(1).strip(), text[:m.start()].rstrip()
        n = len(_WORD.findall(remark))
        if 1 <= n <= MAX_REMARK_WORDS and len(_WORD.findall(rest)) >= max(4, 2 * n):
            return remark.casefold(), rest
    return None, text


def _ending_at(text: str) -> int:
    """Where the run of punctuation or symbols that ends ``text`` starts (``len(text)``: none)."""
    k = len(text)
    while k and not (text[k - 1].isalnum() or text[k - 1] == "_" or text[k - 1].isspace()
                     or text[k - 1] in _ENDING_KEEP):
        k -= 1
    return k


def parse_forward(text: str) -> Forward:
    """``text`` read as a forwarded text (module docstring): core words, tags, quote, remark,
    casing, ending, ellipsis.  Pure; the same text always reads the same."""
    surface = fold(text)
    body = surface
    tags: list[str] = []
    remarks: list[str] = []
    quote: str | None = None
    ending = ""
    for _round in range(12):
        cut = _ending_at(body)
        if 0 < cut < len(body):
            ending = ending or body[cut:]
            body = body[:cut].rstrip()
        tag, body2 = _peel_front(body)
        if tag is not None:
            tags.append(tag)
            body = body2.strip()
            continue
        mark, inside, after = _peel_quote(body)
        if mark is not None and quote is None:
            quote = mark
            if after:
                remarks.append(after.casefold())
            body = inside
            continue
        remark, body2 = _peel_back(body)
        if remark is not None:
            remarks.append(remark)
            body = body2
            continue
        break
    start_dots = body.startswith("...")
    end_dots = body.endswith("...") or ending.startswith("...")
    core = words_of(body)
    if not core:  # all wrapping: the words are the message
        core = words_of(surface)
        tags, remarks, quote = [], [], None
        body = surface
    remark = (" ".join(words_of(" ".join(reversed(remarks)))) or None) if remarks else None
    casing = casing_of(body)
    # the core's place in the surface (every peel above slices and strips, so the body is a stretch of it;
    # the first place it stands holds the same characters as any other): its words as written are read from
    # there when asked (any stretch of a lower-case text is lower case: nothing kept)
    core_at = -1 if casing == "lower" else (surface.find(body) << 32 | len(body))
    # (the fields in order, by position: a frozen dataclass's keywords cost more than its fields, and a
    # text is read once for each of thousands of distinct texts)
    return Forward(core, tuple(tags), quote, remark, casing, ending, (start_dots, end_dots), surface,
                   "".join(_MARKS.findall(body.strip(". "))), core_at)
