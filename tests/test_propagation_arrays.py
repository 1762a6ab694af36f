"""The propagation's array helpers, made to hold less at once, give what their plain definitions give.

Each is checked against the rule it implements, written out in plain Python, on many small random
inputs (empty runs, one-word texts, repeated words, blocks smaller than the input included).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from daishi_forensics.injection import _information, _pruning
from daishi_forensics.injection._information import _counted, vocabulary_of
from daishi_forensics.injection._pruning import _postings, expand, sorted_marked, stable_order, unique


def test_expand_is_every_run_of_positions_end_to_end() -> None:
    rng = random.Random(3)
    for _ in range(500):
        runs = [(rng.randrange(0, 40), rng.randrange(0, 4)) for _ in range(rng.randrange(0, 7))]
        starts = np.array([s for s, _n in runs], dtype=np.int64)
        lengths = np.array([n for _s, n in runs], dtype=np.int64)
        got = expand(starts, lengths)
        assert got.dtype == np.int64
        assert got.tolist() == [s + i for s, n in runs for i in range(n)]


def test_sorted_marked_is_the_stable_order_of_the_keys_and_of_their_marks() -> None:
    rng = random.Random(5)
    for _ in range(500):
        keys = rng.sample(range(1 << rng.choice((4, 20, 40))), rng.randrange(0, 12))
        marked = [rng.random() < 0.4 for _ in keys]
        order = stable_order(np.array(keys, dtype=np.int64))
        got_keys, got_at = sorted_marked(np.array(keys, dtype=np.int64), np.array(marked, dtype=bool))
        assert got_keys.tolist() == sorted(keys) == np.array(keys, dtype=np.int64)[order].tolist()
        assert got_at.tolist() == [k for k, key in enumerate(sorted(keys)) if marked[keys.index(key)]]


@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 20])
def test_vocabulary_of_numbers_words_and_pairs_as_written_out(monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """Words numbered in order of first use; a pair's unit is the number of words plus its place among the
    distinct pairs sorted by (first word, second word); the same whatever the block of positions coded at
    a time."""
    monkeypatch.setattr(_information, "_PAIR_BLOCK", block)
    rng = random.Random(block)
    for _ in range(200):
        cores = [tuple(rng.choice("abcdef") for _ in range(rng.randrange(0, 6))) for _ in range(rng.randrange(0, 8))]
        tags = [tuple(rng.sample(["fwd", "re"], rng.randrange(0, 3))) for _ in cores]
        vocabulary, words, pairs, _tagged = vocabulary_of(cores, tags)
        number = {w: k for k, w in enumerate(dict.fromkeys(w for core in cores for w in core))}
        every = [(number[a], number[b]) for core in cores for a, b in zip(core, core[1:])]
        distinct = sorted(set(every))
        assert list(vocabulary.words) == list(number)
        assert words.dtype == np.int32 and words.tolist() == [number[w] for core in cores for w in core]
        assert pairs.dtype == np.int32 and pairs.tolist() == [len(number) + distinct.index(p) for p in every]
        assert list(vocabulary.pair_codes) == [a * len(number) + b for a, b in distinct]


def test_unique_spent_is_the_sorted_distinct_values_and_leaves_them_sorted() -> None:
    rng = random.Random(11)
    for _ in range(300):
        values = [rng.randrange(0, 1 << rng.choice((3, 40))) for _ in range(rng.randrange(0, 12))]
        spent = np.array(values, dtype=np.int64)
        got = unique(spent, spent=True)
        assert got.tolist() == sorted(set(values)) == unique(np.array(values, dtype=np.int64)).tolist()
        assert spent.tolist() == sorted(values)


@pytest.mark.parametrize("batch", [1, 2, 5, 1 << 18])
def test_postings_are_every_messages_postings_in_turn(monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    """Message by message, its text's postings in their order: the key ``word * stride + message`` and
    whether it is a query (its text's own rare word, of a querying message); the same whatever the
    postings made at a time."""
    monkeypatch.setattr(_pruning, "WORDS_PER_BATCH", batch)
    rng = random.Random(batch)
    for _ in range(200):
        texts = [[rng.randrange(0, 9) for _ in range(rng.randrange(0, 4))] for _ in range(rng.randrange(1, 5))]
        nid = [rng.randrange(0, len(texts)) for _ in range(rng.randrange(0, 9))]
        rare = [[rng.random() < 0.5 for _ in words] for words in texts]
        querying = [rng.random() < 0.7 for _ in nid]
        stride = 16
        keys, query = _postings(
            np.array(nid, dtype=np.int64), np.array([len(w) for w in texts], dtype=np.int64),
            np.array([w for words in texts for w in words], dtype=np.int64),
            np.array([r for marks in rare for r in marks], dtype=bool), np.array(querying, dtype=bool), stride)
        assert keys.dtype == np.int64 and query.dtype == bool
        assert keys.tolist() == [w * stride + m for m, t in enumerate(nid) for w in texts[t]]
        assert query.tolist() == [r and querying[m] for m, t in enumerate(nid) for r in rare[t]]


def test_counted_is_numpys_unique_with_counts_of_the_pieces_joined() -> None:
    rng = random.Random(13)
    for _ in range(300):
        pieces = [np.array([rng.randrange(0, 1 << rng.choice((2, 31))) for _ in range(rng.randrange(0, 6))],
                           dtype=rng.choice((np.int32, np.int64))) for _ in range(rng.randrange(1, 5))]
        pieces = [p.astype(pieces[0].dtype) for p in pieces]
        want = np.unique(np.concatenate(pieces), return_counts=True)
        given = list(pieces)
        got = _counted(given)
        assert given == []  # the pieces let go
        assert got[0].dtype == want[0].dtype
        assert [a.tolist() for a in got] == [a.tolist() for a in want]
