"""The pattern recognizers behind :mod:`.secrets` (imports Presidio: loaded only when a text needs it).

Every pattern is bounded (``{m,n}``), so matching is linear in the length read.  The
credential shapes, assignments, tokens, PEM headers, e-mail addresses, phone numbers and
IP addresses are listed in :mod:`.secrets`' docstring.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from presidio_analyzer import Pattern, PatternRecognizer
from presidio_analyzer.predefined_recognizers import IpRecognizer

__all__ = ["entropy", "recognizers"]


def entropy(token: str) -> float:
    """Shannon entropy of a token, in bits per character."""
    counts = Counter(token)
    n = len(token)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


class _Email(PatternRecognizer):
    """E-mail addresses; the top-level domain must be 2–24 letters (no tldextract)."""

    def validate_result(self, pattern_text: str) -> bool:
        tld = pattern_text.rsplit(".", 1)[-1]
        return 2 <= len(tld) <= 24 and tld.isalpha()


class _RandomToken(PatternRecognizer):
    """A long token that mixes cases and digits and looks random (entropy ≥ 3.5)."""

    def validate_result(self, pattern_text: str) -> bool:
        core = pattern_text
        return (
            any(c.isdigit() for c in core)
            and any(c.isupper() for c in core)
            and any(c.islower() for c in core)
            and entropy(core) >= 3.5
        )


_PATH_PIECE = re.compile(r"(?:[A-Z]*[a-z]{2,}|[A-Z]+|[a-z]?[0-9]+)*")
"""A piece of a path between slashes: words (``home``, ``Alice``, ``README``, ``Daishi2024``, ``v2``)."""


class _AwsSecretKey(_RandomToken):
    """An AWS secret access key's shape (40 characters of base64's alphabet, a slash or a plus among
    them), random-looking, and not a path: forty characters cut by two slashes or more into words
    (``home/Alice/Projects/Daishi2024/src/main``, a URL's path) are a path.  A key is random bytes
    written in base64: its pieces between slashes are no words (of a million keys, about 700 read as
    a path and are missed)."""

    def validate_result(self, pattern_text: str) -> bool:
        if pattern_text.count("/") >= 2 and "+" not in pattern_text and all(
                _PATH_PIECE.fullmatch(piece) for piece in pattern_text.split("/")):
            return False
        return super().validate_result(pattern_text)


class _Phone(PatternRecognizer):
    """Phone numbers: bounded patterns, then ``phonenumbers`` says whether the number is possible.

    (Presidio's own ``PhoneRecognizer`` runs the ``phonenumbers`` matcher over the
    whole text once per region: about 0.1 s per 4,000 digit-heavy characters
    and region, too slow for hostile texts.)
    """

    def validate_result(self, pattern_text: str) -> bool:
        import phonenumbers

        digits = sum(c.isdigit() for c in pattern_text)
        if not 7 <= digits <= 15:
            return False
        try:
            number = phonenumbers.parse(pattern_text, "US")
        except phonenumbers.NumberParseException:
            return False
        return bool(phonenumbers.is_possible_number(number))


def recognizers() -> list[Any]:
    """Every pattern recognizer, new instances (an engine takes them into its registry)."""
    cased = re.DOTALL | re.MULTILINE
    folded = cased | re.IGNORECASE
    return [
        PatternRecognizer(
            supported_entity="API_KEY", name="api-key-shapes", global_regex_flags=cased,
            patterns=[
                Pattern("openai/anthropic", r"\bsk-(?:proj-|ant-(?:api\d\d-)?|live-|test-|svcacct-)?[A-Za-z0-9_\-]{20,200}", 0.9),
                Pattern("aws", r"\b(?:AKIA|ASIA|AGPA|AIDA)[0-9A-Z]{16}\b", 0.9),
                Pattern("github", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})", 0.9),
                Pattern("slack", r"\bxox[abposr]-[A-Za-z0-9\-]{10,200}", 0.9),
                Pattern("google", r"\bAIza[0-9A-Za-z_\-]{35}", 0.9),
                Pattern("stripe", r"\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,200}", 0.9),
                Pattern("huggingface", r"\bhf_[A-Za-z0-9]{30,200}", 0.9),
            ],
        ),
        PatternRecognizer(
            supported_entity="API_KEY", name="key-assignment", global_regex_flags=folded,
            patterns=[Pattern(
                "assignment",
                r"(?<![A-Za-z0-9])(?:aws[_\- ]?)?(?:api[_\- ]?key|api[_\- ]?token|access[_\- ]?key|secret[_\- ]?key|client[_\- ]?secret|"
                r"secret[_\- ]?access[_\- ]?key|auth[_\- ]?token|access[_\- ]?token)[\"']?[ \t]{0,4}(?:[:=]|is)[ \t]{0,4}"
                r"[\"']?[A-Za-z0-9_\-./+=]{12,200}",
                0.8,
            )],
        ),
        PatternRecognizer(
            supported_entity="AUTH_TOKEN", name="auth-tokens", global_regex_flags=cased,
            patterns=[
                Pattern("jwt", r"\beyJ[A-Za-z0-9_\-]{8,2000}\.eyJ[A-Za-z0-9_\-]{8,4000}\.[A-Za-z0-9_\-]{8,2000}", 0.9),
                Pattern("bearer", r"\b[Bb]earer[ \t]{1,4}[A-Za-z0-9_\-.=~+/]{20,500}", 0.8),
            ],
        ),
        PatternRecognizer(
            supported_entity="PRIVATE_KEY", name="pem-private-key", global_regex_flags=cased,
            patterns=[Pattern("pem", r"-----BEGIN[ A-Z]{0,20} PRIVATE KEY-----", 1.0)],
        ),
        PatternRecognizer(
            supported_entity="PASSWORD", name="password-assignment", global_regex_flags=folded,
            patterns=[Pattern(
                "assignment",
                r"\b(?:password|passwd|pwd|passphrase|passcode)[\"']?[ \t]{0,4}(?:[:=]|is)[ \t]{0,4}[\"']?[^\s\"']{6,128}",
                0.7,
            )],
        ),
        _RandomToken(
            supported_entity="SECRET_TOKEN", name="random-token", global_regex_flags=cased,
            patterns=[Pattern("token", r"(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{32,200}(?![A-Za-z0-9_\-])", 0.6)],
        ),
        _AwsSecretKey(  # an AWS secret access key: 40 characters of base64's alphabet, a slash or a plus in them
            supported_entity="API_KEY", name="aws-secret-key", global_regex_flags=cased,  # (without: a random token)
            # (after "=": KEY=..., a URL's ?sig=...; base64 writes "=" only at its end)
            patterns=[Pattern("aws-secret", r"(?<![A-Za-z0-9/+_\-])(?=[A-Za-z0-9]{0,39}[/+])[A-Za-z0-9/+]{40}"
                                            r"(?![A-Za-z0-9/+=_\-])", 0.7)],
        ),
        _Email(
            supported_entity="EMAIL_ADDRESS", name="email", global_regex_flags=folded,
            patterns=[Pattern(
                "email",
                r"(?<![\w.+\-])[\w.+\-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
                r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?){1,8}\b",
                0.8,
            )],
        ),
        _Phone(
            supported_entity="PHONE_NUMBER", name="phone", global_regex_flags=cased,
            patterns=[
                Pattern("international", r"(?<![\w+])\+\d{1,3}[ .\-]?(?:\(\d{1,4}\)[ .\-]?)?\d{1,4}(?:[ .\-]?\d{2,4}){1,4}(?!\w)", 0.6),
                Pattern("national", r"(?<![\w+])\(?\d{3}\)?[ .\-]\d{3}[ .\-]\d{4}(?!\w)", 0.5),
            ],
        ),
        IpRecognizer(),
    ]
