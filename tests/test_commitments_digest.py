"""Every labelled text reads the same as the extractor's version says (``profile/commitments.py``).

The extractor's ``version`` is bumped whenever its output on some text can change; a change that
only makes it faster (a table hoisted, a walk that skips words no cue reads) must change no reading.
This test reads every row of every labelled file ``tests/fixtures/commitments*.jsonl`` (each with the
extractor built for the row's game, when the row names its vocabulary, and with Daishi's default
one; as written, upper-cased and with typographic apostrophes) and every text of the injection
tiers' corpus (``tests/fixtures/tiers/*.jsonl``, texts nobody wrote for the extractor), and compares
one SHA-256 of all the readings (every commitment with its terms, flags, span and target, the
``truncated`` flag and the mentions) with the digest stored for the version.  Readings are hashed,
never printed: the held-out rows stay unseen.

A labelled file added or changed changes the digest as well: the stored one is then recomputed
(with :func:`readings_digest`) in the same commit, with the reason in its message.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from daishi_forensics.profile.commitments import HeuristicExtractor

FIXTURES = Path(__file__).resolve().parent / "fixtures"

DIGESTS = {
    "5": "ec571d2c4700a11bffa15bb1cce0accd80f224c73441f2deb79364fee8ab220f",
}
"""The digest of every reading, by extractor version."""


def readings_digest() -> tuple[int, str]:
    """(texts read, SHA-256 of every reading in file and row order)."""
    digest = hashlib.sha256()
    built: dict[str, HeuristicExtractor] = {"default": HeuristicExtractor()}
    rewrites = (lambda t: t, str.upper, lambda t: t.replace("'", "\u2019"))
    count = 0
    for path in sorted(FIXTURES.glob("commitments*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            row = json.loads(line)
            readers = [built["default"]]
            vocab = row.get("vocabulary")
            if vocab is not None:
                key = json.dumps(vocab, sort_keys=True)
                if key not in built:
                    built[key] = HeuristicExtractor(vocab)
                readers.append(built[key])
            for reader in readers:
                for rewrite in rewrites:
                    digest.update(repr(reader.extract(rewrite(row["text"]))).encode())
                    count += 1
    for path in sorted((FIXTURES / "tiers").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                digest.update(repr(built["default"].extract(json.loads(line)["text"])).encode())
                count += 1
    return count, digest.hexdigest()


def test_every_labelled_text_reads_as_the_version_says() -> None:
    count, found = readings_digest()
    assert count > 10_000
    assert HeuristicExtractor.version in DIGESTS, "a new extractor version: store its digest"
    assert found == DIGESTS[HeuristicExtractor.version]
