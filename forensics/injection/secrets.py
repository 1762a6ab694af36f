"""Secrets and personal data in message text, with Presidio; and :func:`scrub`.

Seed 002 §2.7 (exfiltrating a rival's ``api_key`` is instruction hijacking) and
§3.1 item 11 ("post-Presidio scrub"); contract §5 (*reveal-secret*: "a message ...
that holds a credential-like string or a system-prompt-like block").

What is detected (:data:`ENTITIES`):

- credentials (:data:`CREDENTIAL_ENTITIES`): ``API_KEY`` (provider key shapes:
  ``sk-…``/``sk-ant-…``, ``AKIA…``, ``ghp_…``, ``xox?-…``, ``AIza…``, ``hf_…``,
  ``sk_live_…``; an AWS secret access key's shape: 40 characters of base64's
  alphabet, random-looking, not a path of words; and ``api_key = …`` or ``aws_secret_access_key = …``
  style assignments), ``AUTH_TOKEN`` (JWTs,
  ``Bearer …``), ``PRIVATE_KEY`` (PEM blocks), ``SECRET_TOKEN`` (a long
  random-looking token: 32+ characters mixing upper case, lower case and
  digits, Shannon entropy ≥ 3.5 bits per character), ``PASSWORD`` (``password: …``);
- personal data: ``EMAIL_ADDRESS``, ``PHONE_NUMBER``, ``IP_ADDRESS`` (Presidio's
  phone and IP recognizers; an own e-mail pattern, because Presidio's validates
  domains with ``tldextract``, which downloads the public-suffix list);
- with a real spaCy model installed (``en_core_web_lg``/``md``/``sm``/``trf``):
  also Presidio's NER entities (``PERSON``, ``LOCATION`` ...).  Without one
  (no download is ever attempted) the engine runs the pattern recognizers on a
  blank English spaCy pipeline (:func:`nlp_model` says which).

Bounded work: Presidio looks at the first :data:`SECRET_CAP` characters of a text
(:func:`find_secrets`); :func:`scrub` covers a whole text in overlapping windows of
that size, skipping windows with no digit, ``@`` or ``-----`` (nothing the
recognizers look for can be there).  Every pattern is bounded (``{m,n}``), so
matching is linear in the length read.  The engine is built once, lazily, and
cached for the process (building it takes about a second).  Another process may
compute the findings ahead (:func:`scan_ahead`, :func:`expect_scans`): the
answers are the same, only the second the engine takes is spent elsewhere.

>>> scrub("mail me: bob@example.com")
'mail me: <EMAIL_ADDRESS>'
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = [
    "SECRET_CAP",
    "ENTITIES",
    "CREDENTIAL_ENTITIES",
    "SecretFinding",
    "find_secrets",
    "credentials_in",
    "system_prompt_block",
    "reveals_secret",
    "scrub",
    "SCRUB_LIMIT",
    "nlp_model",
    "Scans",
    "scan_ahead",
    "expect_scans",
    "forget_scans",
]

SECRET_CAP = 4096
"""Characters of a text Presidio looks at in one call."""

CREDENTIAL_ENTITIES: frozenset[str] = frozenset(
    {"API_KEY", "AUTH_TOKEN", "PRIVATE_KEY", "SECRET_TOKEN", "PASSWORD"}
)
"""Entities that count as a credential-like string (contract §5, reveal-secret)."""

ENTITIES: tuple[str, ...] = (
    "API_KEY", "AUTH_TOKEN", "PRIVATE_KEY", "SECRET_TOKEN", "PASSWORD",
    "EMAIL_ADDRESS", "PHONE_NUMBER", "IP_ADDRESS",
)
"""Entities detected without an NLP model."""

SCORE_THRESHOLD = 0.4
"""Findings scoring below this are dropped (Presidio's phone recognizer scores 0.4)."""

_MODELS = ("en_core_web_lg", "en_core_web_trf", "en_core_web_md", "en_core_web_sm")


@dataclass(frozen=True, slots=True)
class SecretFinding:
    """One secret or piece of personal data found in a text."""

    entity: str
    """``API_KEY``, ``EMAIL_ADDRESS`` ... (:data:`ENTITIES`)."""
    start: int
    """Start offset in the text."""
    end: int
    """End offset (exclusive)."""
    score: float
    """Presidio's confidence."""

    def to_json(self) -> dict[str, Any]:
        return {"entity": self.entity, "start": self.start, "end": self.end, "score": self.score}


# --------------------------------------------------------------------------- engine

_LOCK = threading.Lock()
_ENGINE: Any = None
_MODEL: str | None = None


def _installed_model() -> str | None:
    import spacy.util

    for name in _MODELS:
        if spacy.util.is_package(name):
            return name
    return None


def _nlp_engine(model: str | None) -> Any:
    """spaCy's pipeline for Presidio: the installed model, else a blank English one (a tokenizer;
    nothing to download)."""
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    if model is not None:
        return SpacyNlpEngine(models=[{"lang_code": "en", "model_name": model}])

    import spacy

    class _BlankSpacy(SpacyNlpEngine):
        """spaCy's blank English pipeline: a tokenizer, no model to download."""

        nlp: Any

        def load(self) -> None:
            self.nlp = {"en": spacy.blank("en")}

    return _BlankSpacy(models=[{"lang_code": "en", "model_name": "blank:en"}])


def _build() -> tuple[Any, str]:
    """The analyzer engine (the pattern recognizers, and Presidio's NER where a real spaCy model is
    installed) and the name of the spaCy pipeline it runs on."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry

    from ._recognizers import recognizers

    model = _installed_model()
    registry = RecognizerRegistry(supported_languages=["en"])
    for recognizer in recognizers():
        registry.add_recognizer(recognizer)
    if model is not None:
        from presidio_analyzer.predefined_recognizers import SpacyRecognizer

        registry.add_recognizer(SpacyRecognizer())
    engine = AnalyzerEngine(registry=registry, nlp_engine=_nlp_engine(model), supported_languages=["en"])
    return engine, model or "blank:en"


def _engine() -> Any:
    global _ENGINE, _MODEL
    if _ENGINE is None:
        with _LOCK:
            if _ENGINE is None:
                _ENGINE, _MODEL = _build()
    return _ENGINE


def nlp_model() -> str:
    """The spaCy pipeline Presidio runs on: an installed model's name, or ``blank:en``."""
    _engine()
    assert _MODEL is not None
    return _MODEL


# --------------------------------------------------------------------------- detection


def _clean(text: str) -> str:
    """Lone surrogates (invalid UTF-16 halves) become U+FFFD, length preserved."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


_CANDIDATE = re.compile(
    r"@\w|-----BEGIN|\d(?:[ \t().\-/]{0,3}\d){6}|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}"
    r"|[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{0,4}:|[A-Za-z0-9_\-]{20}|[A-Za-z0-9/+]{40}"
    r"|(?i:(?:pass(?:word|wd|phrase|code)|pwd|key|token|secret)[\"']?[ \t]{0,4}(?:[:=]|is)|bearer[ \t]|xox[abposr]-|eyJ)"
)
"""A cheap, linear pre-check: a window where none of this occurs holds nothing the
recognizers find (every recognizer needs one of these), so Presidio is skipped.  The
word branch is what the assignment recognizers need (a key or password word, then
``:``, ``=`` or ``is``): a text that only says "secret" or "token" is not scanned; the
short shapes (a Slack ``xox?-`` token, a JWT's ``eyJ``) are here because they can be
shorter than the 20-character run; an AWS secret key's 40 characters may hold slashes
every few characters, so no run of 20 without one."""


def _worth_scanning(chunk: str) -> bool:
    return _CANDIDATE.search(chunk) is not None


def _analyze(chunk: str) -> list[SecretFinding]:
    ahead = _scanned_ahead()
    if ahead is not None:
        found = ahead.get(chunk)
        if found is not None:
            return list(found)
    return _presidio(chunk)


def _presidio(chunk: str) -> list[SecretFinding]:
    results = _engine().analyze(chunk, language="en", score_threshold=SCORE_THRESHOLD)
    return [SecretFinding(r.entity_type, r.start, r.end, round(float(r.score), 4)) for r in results]


# --------------------------------------------------------------------------- scanning ahead

Scans = dict[str, tuple[SecretFinding, ...]]
"""Presidio's findings by chunk (a text's head or a scrub window, as :func:`_analyze` is handed it)."""

_PENDING: Callable[[], Scans | None] | None = None
_AHEAD: Scans | None = None
_PROMISED_TO = 0  # the process the findings were promised to (a process forked from it asks Presidio itself)


def scan_ahead(texts: Iterable[str], heads: Iterable[int], *, max_chunks: int | None = None,
               max_chars: int | None = None) -> Scans | None:
    """Presidio's findings on every chunk the texts can hand it: each text's head of each length in
    ``heads`` (what :func:`find_secrets` reads, and a caller's shortened view) and each window
    :func:`scrub` reads of the text, those that pass the pre-check.  Each finding is what
    :func:`_analyze` would give for that chunk here: the same function of the same characters.
    None, before Presidio reads anything, when there are more than ``max_chunks`` such chunks or
    ``max_chars`` characters in them (a caller that needs only a few would wait for them all)."""
    lengths = sorted(set(heads))
    chunks: dict[str, None] = {}
    for text in dict.fromkeys(t for t in texts if isinstance(t, str) and t):
        for chunk in [_clean(text[:n]) for n in lengths] + [w for _, w in _windows(_clean(text[:SCRUB_LIMIT]))]:
            if chunk and chunk not in chunks and _worth_scanning(chunk):
                chunks[chunk] = None
    if (max_chunks is not None and len(chunks) > max_chunks) or (
            max_chars is not None and sum(map(len, chunks)) > max_chars):
        return None
    return {chunk: tuple(_presidio(chunk)) for chunk in chunks}


def expect_scans(get: Callable[[], Scans | None]) -> None:
    """Findings computed elsewhere (another process) will answer :func:`_analyze` for the chunks they
    hold: ``get`` is called once, on the first chunk asked for, and may wait; None (it failed) or a
    chunk it does not hold leaves that chunk to Presidio here.  So the answers are the same either way.
    Only this process uses them: a process forked from it later asks Presidio itself (``get`` may read
    from a pipe only this process may read)."""
    global _PENDING, _AHEAD, _PROMISED_TO
    with _LOCK:
        _PENDING, _AHEAD, _PROMISED_TO = get, None, os.getpid()


def forget_scans() -> None:
    """Drop the findings :func:`expect_scans` promised (and any not yet fetched)."""
    global _PENDING, _AHEAD
    with _LOCK:
        _PENDING, _AHEAD = None, None


def _scanned_ahead() -> Scans | None:
    global _PENDING, _AHEAD
    if _PENDING is None and _AHEAD is None:
        return None
    if os.getpid() != _PROMISED_TO:
        return None
    if _PENDING is None:
        return _AHEAD
    with _LOCK:
        get, _PENDING = _PENDING, None
    if get is not None:
        got = get()
        _AHEAD = got if isinstance(got, dict) else None
    return _AHEAD


def _dedupe(findings: Iterable[SecretFinding]) -> tuple[SecretFinding, ...]:
    """Sorted by (start, -end); a finding inside another one is dropped (the outer span names it)."""
    # at equal spans a named shape (API_KEY, AUTH_TOKEN ...) wins over the generic random token
    ordered = sorted(set(findings), key=lambda f: (f.start, -f.end, f.entity == "SECRET_TOKEN", -f.score, f.entity))
    kept: list[SecretFinding] = []
    reach = -1
    for f in ordered:
        if f.end <= reach:
            continue
        kept.append(f)
        reach = max(reach, f.end)
    return tuple(kept)


def find_secrets(text: object) -> tuple[SecretFinding, ...]:
    """Secrets and personal data in the first :data:`SECRET_CAP` characters of ``text``.

    Returns findings sorted by position.  A non-string gives ``()``.
    """
    if not isinstance(text, str) or not text:
        return ()
    head = _clean(text[:SECRET_CAP])
    if not _worth_scanning(head):
        return ()
    return _dedupe(_analyze(head))


def credentials_in(text: object) -> tuple[str, ...]:
    """The credential-like entities (:data:`CREDENTIAL_ENTITIES`) in ``text``, sorted, distinct."""
    return tuple(sorted({f.entity for f in find_secrets(text) if f.entity in CREDENTIAL_ENTITIES}))


_PROMPT_HEADER = re.compile(
    r"(?:^|\n)[ \t#*\[<]{0,6}(?:system(?:[ _]prompt)?|instructions|developer(?:[ _]message)?)[ \t*\]>]{0,6}:?[ \t]*\n"
    r"|<\s*/?\s*system\s*>|<\|\s*(?:system|im_start)\s*\|>|\[/?inst\]|<</?sys>>"
    r"|\b(?:system|developer)[ _]?(?:prompt|message|instructions)[ \t]{0,4}:"
    r"|\b(?:my|the)\s+(?:system\s+prompt|initial\s+instructions|original\s+instructions|instructions)\s+"
    r"(?:is|are|say|says|reads?)\s*:",
    re.IGNORECASE,
)
_PROMPT_IDENTITY = re.compile(
    r"\byou\s+are\s+(?:[\w\-]{1,24},?\s+)?(?:an?|the)\s+(?:[\w\-]{1,24}\s+){0,4}?(?:assistant|agent|ai|model|bot|chatbot|"
    r"language\s+model|llm)\b",
    re.IGNORECASE,
)
_PROMPT_DIRECTIVE = re.compile(
    r"\byour\s+(?:goals?|tasks?|objectives?|role|job|mission|purpose)\s*(?:is|are|:)"
    r"|\byou\s+(?:must|should|will)\s+(?:always|never|not)\b"
    r"|\b(?:do\s+not|don't|never)\s+(?:reveal|share|disclose|mention)\b"
    r"|\b(?:available\s+tools|tools\s+available|you\s+(?:can|may)\s+(?:call|use)\s+(?:the\s+following\s+)?tools)\b"
    r"|^[ \t]*(?:rules|guidelines|constraints)[ \t]*:",
    re.IGNORECASE | re.MULTILINE,
)


def system_prompt_block(text: object) -> str | None:
    """Why ``text`` looks like a system prompt (contract §5 reveal-secret), or None.

    A block that looks like a system prompt: a system / instructions header or a
    chat-template system tag; or a second-person identity ("you are an ... agent /
    assistant / model") together with a directive ("your goal is", "you must
    always / never", "do not reveal", a tools list).  Reads :data:`SECRET_CAP`
    characters.
    """
    if not isinstance(text, str) or not text:
        return None
    head = text[:SECRET_CAP]
    m = _PROMPT_HEADER.search(head)
    if m is not None:
        return "system-prompt header " + repr(" ".join(m.group(0).split())[:40])
    ident = _PROMPT_IDENTITY.search(head)
    if ident is not None:
        directive = _PROMPT_DIRECTIVE.search(head)
        if directive is not None:
            # offsets, not the words: the evidence must not republish the prompt it found
            return (f"system-prompt-like block: an identity statement at character {ident.start()} "
                    f"and a directive at character {directive.start()}")
    return None


def reveals_secret(text: object) -> str | None:
    """The evidence that ``text`` gives away a secret (contract §5), or None.

    ``"credential: API_KEY"`` (credential-like strings, :func:`credentials_in`) or
    the :func:`system_prompt_block` reason.
    """
    if not isinstance(text, str):
        return _reveals(text)
    # both checks read the first SECRET_CAP characters only: the answer for a head is remembered
    return _reveals_head(text[:SECRET_CAP])


def _reveals(text: object) -> str | None:
    creds = credentials_in(text)
    if creds:
        return "credential: " + ", ".join(creds)
    return system_prompt_block(text)


@lru_cache(maxsize=1024)
def _reveals_head(head: str) -> str | None:
    return _reveals(head)


# --------------------------------------------------------------------------- scrubbing

_WINDOW_OVERLAP = 256


def _windows(text: str) -> Iterable[tuple[int, str]]:
    """The windows :func:`scrub` reads of a (cleaned) text: :data:`SECRET_CAP` characters each,
    overlapping by :data:`_WINDOW_OVERLAP`, the last one reaching the end; with their starts.

    >>> [(start, len(w)) for start, w in _windows("x" * 8000)]
    [(0, 4096), (3840, 4096), (7680, 320)]
    """
    step = SECRET_CAP - _WINDOW_OVERLAP
    start = 0
    n = len(text)
    while start < n:
        yield start, text[start:start + SECRET_CAP]
        if start + SECRET_CAP >= n:
            break
        start += step


SCRUB_LIMIT = 65_536
"""Characters :func:`scrub` returns at most; a longer text is cut there and says so."""


def scrub(text: object, *, limit: int | None = SCRUB_LIMIT, say_cut: bool = True) -> str:
    """``text`` with every secret and piece of personal data replaced by ``<ENTITY>``.

    Covers the text in windows of :data:`SECRET_CAP` characters that overlap by
    256 (a secret longer than the overlap and cut by a window edge may be
    missed).  A text longer than :data:`SCRUB_LIMIT` is cut there, with a marker
    ``<… N more characters not shown>`` (what is not shown needs no scrubbing; the
    cut bounds the work on hostile megabyte texts); ``limit=None`` scrubs the whole
    text (a data export): about a second per megabyte of ordinary text, and up to
    half a minute per megabyte of adversarial digit-and-dot text (still linear).
    Control characters other than newline and tab become U+FFFD, so the result is
    safe to print.  A non-string is ``str()``-ed.  ``say_cut=False`` leaves the marker out (a caller that
    cuts the text shorter still, and says so its own way).

    >>> scrub("key sk-" + "a1B2" * 8)
    'key <API_KEY>'
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    total = len(text)
    end = total if limit is None else min(total, limit)
    # read a little past the cut, so that a secret the cut falls inside is found whole and replaced
    # whole (not left as a fragment such as "bob@example" that no longer has the shape of an address)
    text = _clean(text if limit is None else text[: limit + _WINDOW_OVERLAP])
    spans: list[SecretFinding] = []
    for start, chunk in _windows(text):
        if _worth_scanning(chunk):
            spans.extend(
                SecretFinding(f.entity, f.start + start, f.end + start, f.score) for f in _analyze(chunk)
            )
    out: list[str] = []
    pos = 0
    for f in _dedupe(spans):
        if f.start >= end:
            break  # past the cut: not shown
        if f.start < pos:
            if f.end > pos:
                pos = f.end  # overlapping finding: extend the replaced span
            continue
        out.append(text[pos:f.start])
        out.append(f"<{f.entity}>")
        pos = f.end
    out.append(text[pos:end])
    cut = total - max(pos, end)
    if cut > 0 and say_cut:
        out.append(f"<\u2026 {cut} more characters not shown>")
    return _CONTROL.sub("\ufffd", "".join(out))


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
