"""How the general commitment set was drawn and split: the seeded sample of real turns and the split rule.

Usage::

    python bench/commitments_set.py sample --corpus PATH [--n 280] [--seed 20260815]
    python bench/commitments_set.py split FILE [--write]
    python bench/commitments_set.py dialogues --corpus PATH [--tune-turns 104] [--holdout-turns 52]
    python bench/commitments_set.py second --corpus PATH [--tune-turns 350] [--holdout-turns 230]
    python bench/commitments_set.py third --corpus PATH [--turns 250]
    python bench/commitments_set.py fourth --corpus PATH --train PATH [--windows 3]
    python bench/commitments_set.py fifth --train PATH [--turns 150] [--start 3] [--step 2]
    python bench/commitments_set.py sixth|seventh|...|sixteenth --train PATH [--turns 150] [--start N] [--step 2]
    python bench/commitments_set.py tune-real --train PATH [--windows 7]

``sample`` draws the real negotiation turns that ``tests/fixtures/commitments-general.jsonl``
labels: from a message corpus in the one-message-a-line form (``{"text", "label",
"kind", "source"}``), the lines whose ``kind`` is ``negotiation`` (the CaSiNo
campsite-negotiation turns, CC BY 4.0), a seeded uniform sample of ``n`` of them,
in corpus order, printed as unlabelled rows.  The choice depends on the seed and the
corpus only -- never on what any extractor makes of a line -- and every sampled line
is labelled, commitment or not.

``split`` recomputes the ``split`` of every row of a labelled file (and rewrites the
file with ``--write``; without it, it only reports rows whose split differs).  The
rule (:func:`assign_splits`): rows are grouped (a real turn by its conversation, so
two turns of one dialogue never straddle the split; a written row by its id); within
each style the groups are ordered by a seeded SHA-256 of the group key, and groups
go to ``holdout`` in that order until half of the style's rows are there; the rest
are ``tune``.  Each style therefore has both splits, and about half its rows in each.

``dialogues`` draws whole dialogues for the real rows labelled later
(``tests/fixtures/commitments-general-real-added.jsonl``): every turn of the corpus not
labelled yet, dialogue by dialogue (:func:`draw_dialogues`).  A dialogue keeps the side its
sampled turns are on -- one whose turns are ``tune`` gives ``tune`` rows, one whose turns
are ``holdout`` gives ``holdout-real`` rows -- so no conversation ever straddles the split;
on each side dialogues are taken in the order of a seeded SHA-256 of their id until the
side holds its number of turns (two thirds ``tune``, one third ``holdout-real`` by
default).  Like ``sample``, the draw depends on the seed, the corpus and the labelled files
only, never on what an extractor makes of a line.

``second`` draws the second batch of whole dialogues
(``tests/fixtures/commitments-general-real-second.jsonl``, :func:`draw_second`): the same draw
with its own seed, over every file labelled before it, half the turns ``tune`` and half a new
split, :data:`HOLDOUT_REAL_2`, that is only scored.  A dialogue still keeps its side (a holdout
dialogue's turns go only to the new held-out split), and a turn whose text, ignoring case and
blanks, is already the text of a labelled row ("Hello", "Deal") is left out, so no text is on
both sides of a split.

``third`` draws the third batch (``tests/fixtures/commitments-general-real-third.jsonl``,
:func:`draw_third`), a held-out set only: every turn of the corpus already sits in a dialogue
with a labelled turn (the first sample touched all of them), so the third draw takes the
dialogues that no later draw has touched -- those whose only labelled turns are the first
sample's ``holdout`` turns -- in the order of a seeded SHA-256 of their id (its own seed),
whole, until it holds its number of turns.  All its rows are in a fourth held-out split,
:data:`HOLDOUT_REAL_3`, only scored; a turn whose text, ignoring case and blanks, is already
a labelled row's text (or an earlier turn's of the same draw) is left out.  Its rows were
labelled blind: by a labeller who writes no extraction rule, with no extractor run on them.

``fourth`` draws the fourth batch (``tests/fixtures/commitments-general-real-fourth.jsonl``), a
held-out set only, in a fifth held-out split, :data:`HOLDOUT_REAL_4`.  The corpus is nearly used
up by then, so the draw has two parts.  First every turn of the corpus that no labelled file holds
(:func:`draw_fourth_corpus`); their dialogues all have labelled turns on the held-out side only.
Then turns of CaSiNo's own train split (``data/split/casino_train.json`` of the CaSiNo
repository, the same authors, licence and form; the corpus holds only its valid and test splits),
which no file had labelled (:func:`draw_fourth_train`): the file's text is cut into windows of
:data:`TRAIN_WINDOW` characters, the windows are taken in the order of a seeded SHA-256 of their
number, and of each window every dialogue whose chat log lies wholly inside it is taken whole,
deal-submission turns left out.  In both parts a turn whose text, ignoring case and blanks, is a
labelled row's text or an earlier drawn turn's is left out.

``fifth`` draws the fifth batch (``tests/fixtures/commitments-general-real-fifth.jsonl``, :func:`draw_fifth`),
a held-out set only, in a sixth held-out split, :data:`HOLDOUT_REAL_5`: more windows of the train split,
in the fourth draw's window order, at the odd positions 3, 5, 7, ... of it (the even positions from 4 on
are left to a draw of tune rows), window by window until it holds at least ``--turns`` turns; each
window's dialogues are taken as the fourth draw takes them.  Its rows were labelled blind.

``sixth`` to ``sixteenth`` draw the later batches (``tests/fixtures/commitments-general-real-<name>.jsonl``,
:data:`LATER_DRAWS`, :func:`draw_later`), each a held-out set only, in a held-out split of its own
(``holdout-real-6`` to ``holdout-real-16``): the fifth draw continued, the same window order's odd positions from
the draw's start on (the sixth from 13, the fifth having stopped at position 11; each later one from the first odd
position after the last window the one before it read), until it holds at least ``--turns`` turns; texts of every
labelled file before it (:func:`labelled_before`: the fifth draw's, the tune-real draw's and every earlier later
draw's included) are left out.  Their rows were labelled blind.

``tune-real`` draws a tune split of real turns (``tests/fixtures/commitments-general-tune-real.jsonl``,
:data:`TUNE_REAL`), read, run and tuned on: from the same train split, cut into the same windows in the
same seeded order as the fourth draw, the windows at the even positions 4, 6, 8, ... of that order
(:func:`tune_real_dialogues`; the fourth draw took positions 0 to 2, and the odd positions from 3 on are
left for a later held-out draw, so no window is on both sides), every dialogue whose chat log lies
wholly inside a window, whole, deal-submission turns and texts of any labelled file left out
(:func:`draw_tune_real`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

SAMPLE_SEED = 20260815
"""The seed of the real-turn sample."""

SAMPLE_SIZE = 280
"""How many real turns the set labels."""

DIALOGUE_SEED = "commitments-general-dialogues-v1"
"""The salt of the order in which whole dialogues are drawn (:func:`draw_dialogues`)."""

HOLDOUT_REAL = "holdout-real"
"""The split of the real turns labelled later on the holdout's side: only scored, once."""

DIALOGUE_SEED_2 = "commitments-general-dialogues-v2"
"""The salt of the second draw of whole dialogues (:func:`draw_second`)."""

HOLDOUT_REAL_2 = "holdout-real-2"
"""The split of the second draw's turns on the holdout's side: only scored."""

DIALOGUE_SEED_3 = "commitments-general-dialogues-v3"
"""The salt of the third draw of whole dialogues (:func:`draw_third`)."""

HOLDOUT_REAL_3 = "holdout-real-3"
"""The split of the third draw's turns: all of them, only scored."""

DIALOGUE_SEED_4 = "commitments-general-real-v4"
"""The salt of the order of the train split's windows in the fourth draw (:func:`draw_fourth_train`)."""

HOLDOUT_REAL_4 = "holdout-real-4"
"""The split of the fourth draw's turns: all of them, only scored."""

TRAIN_WINDOW = 16_000
"""How many characters of the train split's text one window of the fourth draw holds."""

TRAIN_WINDOWS = 3
"""How many windows of the train split the fourth draw takes."""

DEAL_MARKERS = frozenset({"Submit-Deal", "Accept-Deal", "Reject-Deal", "Walk-Away"})
"""CaSiNo's deal-submission turns, which the corpus had removed and the fourth draw leaves out too."""

THIRD_TURNS = 250
"""How many turns the third draw aims at (whole dialogues, so it ends at or just past this)."""

SPLIT_SEED = "commitments-general-v1"
"""The salt of the split hash."""

REAL_STYLE = "casino"
"""The style of the real (human-written) turns."""

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
LABELLED = [FIXTURES / "commitments-general.jsonl", FIXTURES / "commitments-general-tune-added.jsonl"]
"""The files whose real turns were labelled before the dialogues were drawn."""
LABELLED_2 = [*LABELLED, FIXTURES / "commitments-general-real-added.jsonl"]
"""The files whose real turns were labelled before the second draw."""
LABELLED_3 = [*LABELLED_2, FIXTURES / "commitments-general-real-second.jsonl"]
"""The files whose real turns were labelled before the third draw."""
LABELLED_4 = [FIXTURES / "commitments.jsonl", *LABELLED_3, FIXTURES / "commitments-general-real-third.jsonl"]
"""The labelled files before the fourth draw: their real turns, and every text of any of them."""

CASINO_LICENSE = "CC BY 4.0"
CASINO_VOCABULARY: Mapping[str, list[str]] = {
    "items": ["food", "water", "firewood"],
    "places": [],
    "agents": ["camper_a", "camper_b"],
}
"""Every CaSiNo turn negotiates three goods; the two campers are anonymous, so the
speaker is ``camper_a`` and the addressee ``camper_b`` throughout."""


def sample_casino(lines: Iterable[str], n: int = SAMPLE_SIZE, seed: int = SAMPLE_SEED) -> list[dict[str, Any]]:
    """A seeded uniform sample of ``n`` negotiation turns, in corpus order, as unlabelled rows.

    A row's id is ``casino/<split>/<dialogue>/<turn>`` from the line's ``source``
    (``CaSiNo/<split>/<dialogue>``) and the turn's position among that dialogue's
    lines in the corpus.

    >>> rows = sample_casino([json.dumps({"text": t, "label": "benign", "kind": "negotiation",
    ...     "source": "CaSiNo/test/1"}) for t in ["hi", "3 water?", "deal"]], n=2, seed=1)
    >>> [(r["id"], r["text"]) for r in rows]
    [('casino/test/1/0', 'hi'), ('casino/test/1/2', 'deal')]
    """
    turns: list[dict[str, Any]] = []
    seen: dict[str, int] = defaultdict(int)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("kind") != "negotiation":
            continue
        source = row["source"]
        parts = source.split("/")
        if len(parts) != 3 or parts[0] != "CaSiNo":
            raise ValueError(f"corpus line {number}: field source: expected CaSiNo/<split>/<dialogue>, got {source!r}")
        turn = seen[source]
        seen[source] += 1
        turns.append({
            "id": f"casino/{parts[1]}/{parts[2]}/{turn}",
            "text": row["text"],
            "source": source,
        })
    if n > len(turns):
        raise ValueError(f"asked for {n} turns, the corpus has {len(turns)} negotiation lines")
    chosen = sorted(random.Random(seed).sample(range(len(turns)), n))
    return [{
        "id": turns[i]["id"],
        "text": turns[i]["text"],
        "vocabulary": {k: list(v) for k, v in CASINO_VOCABULARY.items()},
        "speaker": "camper_a",
        "addressee": "camper_b",
        "commitments": [],
        "style": REAL_STYLE,
        "source": turns[i]["source"],
        "license": CASINO_LICENSE,
    } for i in chosen]


def group_key(row: Mapping[str, Any]) -> str:
    """What keeps rows together across the split: a real turn's dialogue, else the row id."""
    if row["style"] == REAL_STYLE:
        return str(row["source"])
    return str(row["id"])


def _rank(key: str) -> str:
    return hashlib.sha256(f"{SPLIT_SEED}\x00{key}".encode()).hexdigest()


def assign_splits(rows: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """``{row id: "tune" | "holdout"}``: per style, groups in seeded-hash order fill half the rows.

    >>> rows = [{"id": f"x{i}", "style": "s"} for i in range(4)]
    >>> sorted(assign_splits(rows).values())
    ['holdout', 'holdout', 'tune', 'tune']
    """
    by_style: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        by_style[row["style"]][group_key(row)].append(row["id"])
    out: dict[str, str] = {}
    for groups in by_style.values():
        total = sum(len(ids) for ids in groups.values())
        held = 0
        for key in sorted(groups, key=_rank):
            split = "holdout" if held < total / 2 else "tune"
            if split == "holdout":
                held += len(groups[key])
            for row_id in groups[key]:
                out[row_id] = split
    return out


def corpus_turns(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Every negotiation turn of the corpus as an unlabelled row (ids as :func:`sample_casino` gives them)."""
    lines = list(lines)
    n = sum(1 for line in lines if line.strip() and json.loads(line).get("kind") == "negotiation")
    return sample_casino(lines, n=n)


def draw_dialogues(turns: Iterable[Mapping[str, Any]], labelled: Iterable[Mapping[str, Any]],
                   tune_turns: int, holdout_turns: int,
                   seed: str = DIALOGUE_SEED) -> list[dict[str, Any]]:
    """The unlabelled turns of whole dialogues, each row with its ``split`` (``tune`` or
    :data:`HOLDOUT_REAL`), in corpus order.

    A dialogue's side is the split of its labelled turns (a dialogue with none is
    ``tune`` when the tune side still needs turns, else ``holdout-real``); per side,
    dialogues in seeded-hash order are taken whole until the side holds its turns.

    >>> turns = [{"id": f"casino/test/{d}/{t}", "text": "hi", "source": f"CaSiNo/test/{d}"}
    ...          for d in (1, 2, 3) for t in range(3)]
    >>> done = [{"id": "casino/test/1/0", "style": "casino", "source": "CaSiNo/test/1", "split": "holdout"},
    ...         {"id": "casino/test/2/0", "style": "casino", "source": "CaSiNo/test/2", "split": "tune"}]
    >>> [(r["id"], r["split"]) for r in draw_dialogues(turns, done, tune_turns=1, holdout_turns=1)]
    [('casino/test/1/1', 'holdout-real'), ('casino/test/1/2', 'holdout-real'), \
('casino/test/2/1', 'tune'), ('casino/test/2/2', 'tune')]
    """
    done: set[str] = set()
    side: dict[str, str] = {}
    for row in labelled:
        if row["style"] != REAL_STYLE:
            continue
        done.add(str(row["id"]))
        known = "tune" if row["split"] == "tune" else HOLDOUT_REAL
        if side.setdefault(str(row["source"]), known) != known:
            raise ValueError(f"row {row['id']}: field split: its dialogue {row['source']} straddles the split")
    free: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for turn in turns:
        if str(turn["id"]) not in done:
            free[str(turn["source"])].append(turn)
    wanted = {"tune": tune_turns, HOLDOUT_REAL: holdout_turns}
    taken: dict[str, int] = {"tune": 0, HOLDOUT_REAL: 0}
    chosen: dict[str, str] = {}
    for source in sorted(free, key=_dialogue_order(seed)):
        split = side.get(source) or ("tune" if taken["tune"] < wanted["tune"] else HOLDOUT_REAL)
        if taken[split] >= wanted[split]:
            continue
        chosen[source] = split
        taken[split] += len(free[source])
    out = []
    for turn in turns:
        split = chosen.get(str(turn["source"]))
        if split is not None and str(turn["id"]) not in done:
            out.append({**turn, "split": split})
    return out


def _dialogue_order(seed: str) -> Callable[[str], str]:
    """The sort key of a draw: a dialogue's id hashed (SHA-256) with the draw's seed."""
    return lambda source: hashlib.sha256(f"{seed}\x00{source}".encode()).hexdigest()


def _plain(text: str) -> str:
    return " ".join(text.casefold().split())


def draw_second(turns: Iterable[Mapping[str, Any]], labelled: Iterable[Mapping[str, Any]],
                tune_turns: int, holdout_turns: int) -> list[dict[str, Any]]:
    """The second draw: :func:`draw_dialogues` with :data:`DIALOGUE_SEED_2`, the holdout side's rows
    in :data:`HOLDOUT_REAL_2`, and no turn whose text is already a labelled row's text.

    >>> turns = [{"id": f"casino/test/{d}/{t}", "text": f"d{d} t{t}", "source": f"CaSiNo/test/{d}"}
    ...          for d in (1, 2) for t in range(3)]
    >>> done = [{"id": "casino/test/1/0", "text": "D1  T2", "style": "casino", "source": "CaSiNo/test/1",
    ...          "split": "holdout"},
    ...         {"id": "casino/test/2/0", "text": "d2 t0", "style": "casino", "source": "CaSiNo/test/2", "split": "tune"}]
    >>> [(r["id"], r["split"]) for r in draw_second(turns, done, tune_turns=1, holdout_turns=1)]
    [('casino/test/1/1', 'holdout-real-2'), ('casino/test/2/1', 'tune'), ('casino/test/2/2', 'tune')]
    """
    labelled = list(labelled)
    seen = {_plain(str(r["text"])) for r in labelled if r["style"] == REAL_STYLE}
    out = []
    for row in draw_dialogues(turns, labelled, tune_turns, holdout_turns, seed=DIALOGUE_SEED_2):
        if _plain(str(row["text"])) in seen:
            continue
        seen.add(_plain(str(row["text"])))
        out.append({**row, "split": "tune" if row["split"] == "tune" else HOLDOUT_REAL_2})
    return out


def draw_third(turns: Iterable[Mapping[str, Any]], labelled: Iterable[Mapping[str, Any]],
               wanted: int = THIRD_TURNS, seed: str = DIALOGUE_SEED_3) -> list[dict[str, Any]]:
    """The third draw: the unlabelled turns of whole dialogues no later draw touched, all in
    :data:`HOLDOUT_REAL_3`, in corpus order.

    A dialogue is open to it when every labelled turn it holds is ``holdout`` (the first
    sample's held-out split), or it holds none; a dialogue with a ``tune`` turn, or one a
    later draw took, is not.  Open dialogues are taken whole, in the order of a seeded
    SHA-256 of their id, until the draw holds ``wanted`` turns.  A turn whose text, ignoring
    case and blanks, is a labelled row's text or an earlier drawn turn's is left out (and not
    counted).

    >>> turns = [{"id": f"casino/test/{d}/{t}", "text": f"d{d} t{t % 2}", "source": f"CaSiNo/test/{d}"}
    ...          for d in (1, 2, 3) for t in range(3)]
    >>> done = [{"id": "casino/test/1/0", "text": "d1 t0", "style": "casino", "source": "CaSiNo/test/1",
    ...          "split": "holdout"},
    ...         {"id": "casino/test/2/0", "text": "d2 t0", "style": "casino", "source": "CaSiNo/test/2", "split": "tune"},
    ...         {"id": "casino/test/3/0", "text": "d3 t0", "style": "casino", "source": "CaSiNo/test/3",
    ...          "split": "holdout-real-2"}]
    >>> [(r["id"], r["split"]) for r in draw_third(turns, done, wanted=5)]
    [('casino/test/1/1', 'holdout-real-3')]
    """
    labelled = [r for r in labelled if r["style"] == REAL_STYLE]
    done = {str(r["id"]) for r in labelled}
    seen = {_plain(str(r["text"])) for r in labelled}
    closed = {str(r["source"]) for r in labelled if r["split"] != "holdout"}
    free: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for turn in turns:
        if str(turn["id"]) not in done and str(turn["source"]) not in closed:
            free[str(turn["source"])].append(turn)
    picked: set[str] = set()
    taken = 0
    for source in sorted(free, key=_dialogue_order(seed)):
        if taken >= wanted:
            break
        for turn in free[source]:
            plain = _plain(str(turn["text"]))
            if plain not in seen:
                seen.add(plain)
                picked.add(str(turn["id"]))
                taken += 1
    return [{**turn, "split": HOLDOUT_REAL_3} for turn in turns if str(turn["id"]) in picked]


def _as_row(turn_id: str, text: str, source: str, split: str) -> dict[str, Any]:
    return {"id": turn_id, "text": text, "vocabulary": {k: list(v) for k, v in CASINO_VOCABULARY.items()},
            "speaker": "camper_a", "addressee": "camper_b", "commitments": [], "style": REAL_STYLE,
            "source": source, "license": CASINO_LICENSE, "split": split}


def draw_fourth_corpus(turns: Iterable[Mapping[str, Any]], labelled: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The fourth draw's first part: every turn of the corpus no labelled file holds, in
    :data:`HOLDOUT_REAL_4`, in corpus order, less a turn whose text (ignoring case and blanks) is a
    labelled row's (of any style or file) or an earlier drawn turn's.

    >>> turns = [{"id": f"casino/test/1/{t}", "text": f"t{t % 2}", "source": "CaSiNo/test/1"} for t in range(4)]
    >>> done = [{"id": "casino/test/1/0", "text": "T0", "style": "casino", "source": "CaSiNo/test/1",
    ...          "split": "holdout"}]
    >>> [(r["id"], r["split"]) for r in draw_fourth_corpus(turns, done)]
    [('casino/test/1/1', 'holdout-real-4')]
    """
    labelled = list(labelled)
    done = {str(r["id"]) for r in labelled if r.get("style") == REAL_STYLE}
    seen = {_plain(str(r["text"])) for r in labelled}
    out = []
    for turn in turns:
        plain = _plain(str(turn["text"]))
        if str(turn["id"]) in done or plain in seen:
            continue
        seen.add(plain)
        out.append({**turn, "split": HOLDOUT_REAL_4})
    return out


def train_dialogues(text: str, windows: int = TRAIN_WINDOWS, size: int = TRAIN_WINDOW,
                    seed: str = DIALOGUE_SEED_4) -> list[dict[str, Any]]:
    """The dialogues of CaSiNo's train split (the file's ``text``) that the fourth draw takes.

    The text is cut into windows of ``size`` characters (window ``k`` holds characters ``k*size`` up to
    ``(k+1)*size``); the first ``windows`` windows in the order of a seeded SHA-256 of ``k`` are read, and
    of each, in file order, every dialogue whose chat log -- from its opening brace up to its
    ``"participant_info"`` key -- lies wholly inside the window.

    >>> dialogues = [{"dialogue_id": d, "chat_logs": [{"text": "x" * 20, "id": "a"}], "participant_info": {}}
    ...              for d in range(6)]
    >>> text = json.dumps(dialogues)  # 624 characters, a dialogue about 100 of them
    >>> [d["dialogue_id"] for d in train_dialogues(text, windows=5, size=150, seed="s")]  # 1 and 4 straddle
    [5, 2, 3, 0]
    """
    order = window_order(len(text), size, seed)
    return [dialogue for k in order[:windows] for dialogue in window_dialogues(text, k, size)]


def window_order(length: int, size: int = TRAIN_WINDOW, seed: str = DIALOGUE_SEED_4) -> list[int]:
    """The numbers of the windows of ``size`` characters that cut a text of ``length`` characters, in the
    order of a seeded SHA-256 of their number.

    >>> window_order(10, size=4, seed="s")  # windows 0, 1 and 2
    [1, 2, 0]
    """
    count = -(-length // size)
    return sorted(range(count), key=lambda k: hashlib.sha256(f"{seed}\x00{k}".encode()).hexdigest())


def window_dialogues(text: str, k: int, size: int = TRAIN_WINDOW) -> list[dict[str, Any]]:
    """The dialogues of window ``k`` (characters ``k*size`` up to ``(k+1)*size``), in file order: those whose
    chat log -- from its opening brace up to its ``"participant_info"`` key -- lies wholly inside it.

    Only that chat log is decoded (a dialogue's keys before ``"participant_info"``), so the window's own
    characters (and that key, where it closes a chat log at the window's edge) are all the function reads: it
    gives the same dialogues on a copy of the file that holds only the windows read, the rest blank.

    >>> text = json.dumps([{"dialogue_id": 4, "chat_logs": [{"text": "hi"}], "participant_info": {"a": 1}}])
    >>> window_dialogues(text, 0, size=len(text) - 5)  # its participant_info runs past the window
    [{'dialogue_id': 4, 'chat_logs': [{'text': 'hi'}]}]
    """
    decoder = json.JSONDecoder()
    lo, hi = k * size, (k + 1) * size
    out: list[dict[str, Any]] = []
    start = text.find('{"dialogue_id"', lo)
    while 0 <= start < hi:
        end = text.find('"participant_info"', start)
        if end < 0 or end > hi:
            break
        chat = text[start:end].rstrip()
        dialogue, _ = decoder.raw_decode(chat.removesuffix(",") + "}")
        out.append(dialogue)
        start = text.find('{"dialogue_id"', end)
    return out


def draw_fourth_train(dialogues: Iterable[Mapping[str, Any]], labelled: Iterable[Mapping[str, Any]],
                      drawn: Iterable[Mapping[str, Any]] = (), split: str = HOLDOUT_REAL_4) -> list[dict[str, Any]]:
    """The fourth draw's second part: the turns of the train split's ``dialogues`` (from
    :func:`train_dialogues`), in ``split`` (:data:`HOLDOUT_REAL_4`), deal-submission turns left out, a turn's id
    ``casino/train/<dialogue>/<turn>`` with ``turn`` its place among the dialogue's other turns; a
    turn whose text (ignoring case and blanks) is a labelled row's (of any style or file) or an earlier
    ``drawn`` row's is left out.

    >>> d = {"dialogue_id": 7, "chat_logs": [{"text": t} for t in ("Hi", "Submit-Deal", "2 food?", "hi")]}
    >>> [(r["id"], r["text"]) for r in draw_fourth_train([d], [])]
    [('casino/train/7/0', 'Hi'), ('casino/train/7/1', '2 food?')]
    """
    seen = {_plain(str(r["text"])) for r in [*labelled, *drawn]}
    out = []
    for dialogue in dialogues:
        number = dialogue["dialogue_id"]
        said = [str(log["text"]) for log in dialogue["chat_logs"] if str(log["text"]) not in DEAL_MARKERS]
        for turn, text in enumerate(said):
            if _plain(text) in seen:
                continue
            seen.add(_plain(text))
            out.append(_as_row(f"casino/train/{number}/{turn}", text, f"CaSiNo/train/{number}", split))
    return out


# --- The fifth draw (holdout-real-5): more windows of the train split, in the fourth draw's order ---

HOLDOUT_REAL_5 = "holdout-real-5"
"""The split of the fifth draw's turns: all of them, only scored."""

FIFTH_TURNS = 150
"""How many turns the fifth draw takes at least (it stops at the end of the window that reaches them)."""

FIFTH_START, FIFTH_STEP = 3, 2
"""The positions of the fourth draw's window order the fifth draw reads: 3, 5, 7, ... (0-2 are the fourth
draw's own windows; the even positions from 4 on are left to a draw of tune rows)."""

LABELLED_5 = [*LABELLED_4, FIXTURES / "commitments-general-real-fourth.jsonl"]
"""The labelled files before the fifth draw: every text of any of them is left out of it."""


def draw_fifth(text: str, labelled: Iterable[Mapping[str, Any]], wanted: int = FIFTH_TURNS,
               start: int = FIFTH_START, step: int = FIFTH_STEP,
               size: int = TRAIN_WINDOW, split: str = HOLDOUT_REAL_5) -> tuple[list[dict[str, Any]], list[int]]:
    """The fifth draw: the turns of the train split's windows at positions ``start``, ``start + step``, ...
    of :func:`window_order`, window by window until at least ``wanted`` turns are held, and the
    windows read.

    Each window's dialogues are taken whole as :func:`draw_fourth_train` takes them (deal-submission
    turns left out, a turn whose text, ignoring case and blanks, is a labelled row's or an earlier drawn
    turn's left out), in ``split`` (:data:`HOLDOUT_REAL_5`; each later draw, :func:`draw_later`, is the
    same draw from later positions, in a split of its own).

    >>> text = json.dumps([{"dialogue_id": d, "chat_logs": [{"text": t} for t in (f"d{d} hi", "Submit-Deal", "Hi")],
    ...                     "participant_info": {}} for d in range(6)])
    >>> rows, windows = draw_fifth(text, [{"text": "hi"}], wanted=2, start=0, step=1, size=150)
    >>> windows == window_order(len(text), size=150)[:len(windows)], [r["split"] for r in rows][:1]
    (True, ['holdout-real-5'])
    >>> sorted({r["text"] for r in rows} & {"Hi", "Submit-Deal"})
    []
    """
    rows: list[dict[str, Any]] = []
    windows: list[int] = []
    labelled = list(labelled)
    order = window_order(len(text), size)
    for position in range(start, len(order), step):
        if len(rows) >= wanted:
            break
        k = order[position]
        windows.append(k)
        rows += [{**r, "split": split}
                 for r in draw_fourth_train(window_dialogues(text, k, size), labelled, rows)]
    return rows, windows


def _add_odd_draw(sub: Any, name: str, labelled: list[Path], turns: int, start: int, what: str) -> None:
    """The sub-command of a draw read at the odd positions of the window order (the fifth and every later one)."""
    p = sub.add_parser(name, help=f"print the {name} draw ({what})")
    p.add_argument("--train", type=Path, required=True, help="CaSiNo's data/split/casino_train.json")
    p.add_argument("--labelled", type=Path, nargs="+", default=labelled,
                   help="the labelled files whose texts are left out")
    p.add_argument("--turns", type=int, default=turns)
    p.add_argument("--start", type=int, default=start, help="the first position of the window order read")
    p.add_argument("--step", type=int, default=FIFTH_STEP, help="the step between positions read")


def _run_odd_draw(args: argparse.Namespace, draw: Callable[..., tuple[list[dict[str, Any]], list[int]]]) -> int:
    labelled = [json.loads(line) for path in args.labelled
                for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows, windows = draw(args.train.read_text(encoding="utf-8"), labelled, args.turns, args.start, args.step)
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))
    print(f"{args.command} draw: {len(rows)} turns from windows {', '.join(map(str, windows))}", file=sys.stderr)
    return 0

# --- end of the fifth draw ---


# --- The later draws (holdout-real-6 on): the fifth draw continued, each at the odd positions from its start ---

LATER_TURNS = 150
"""How many turns a later draw takes at least (it stops at the end of the window that reaches them)."""


@dataclass(frozen=True)
class LaterDraw:
    """A later blind draw: :func:`draw_fifth` from the odd position ``start`` of the window order, in a
    held-out split of its own.

    Each starts at the first odd position after the last window the draw before it read (the fifth read 3 to 11,
    so the sixth starts at 13), so no two draws share a window, and the even positions from 4 on stay the tune-real
    draw's side, never read by a held-out draw.

    >>> LaterDraw("sixth", 6, 13).split, LaterDraw("sixth", 6, 13).fixture.name
    ('holdout-real-6', 'commitments-general-real-sixth.jsonl')
    """

    name: str
    """The ordinal that names the draw, its sub-command and its file (``"sixth"``)."""
    number: int
    """The number in its split's name (``holdout-real-6``)."""
    start: int
    """The first position of the fourth draw's window order it reads."""

    @property
    def split(self) -> str:
        """The held-out split of its rows."""
        return f"holdout-real-{self.number}"

    @property
    def fixture(self) -> Path:
        """The file of its labelled rows."""
        return FIXTURES / f"commitments-general-real-{self.name}.jsonl"


LATER_DRAWS: tuple[LaterDraw, ...] = tuple(
    LaterDraw(name, number, start) for number, (name, start) in enumerate(
        (("sixth", 13), ("seventh", 23), ("eighth", 31), ("ninth", 39), ("tenth", 49), ("eleventh", 57),
         ("twelfth", 65), ("thirteenth", 75), ("fourteenth", 83), ("fifteenth", 93), ("sixteenth", 103)), start=6))
"""The later draws in the order they were drawn and labelled; each began where the one before had stopped."""


def later_draw(name: str) -> LaterDraw:
    """The later draw named ``name`` (an ordinal, ``"sixth"`` to ``"sixteenth"``); ``ValueError`` naming the later
    draws for any other name.

    >>> later_draw("sixth").start
    13
    >>> later_draw("fifth")
    Traceback (most recent call last):
    ValueError: no later draw is named 'fifth' (the later draws: sixth, ..., sixteenth)
    """
    for draw in LATER_DRAWS:
        if draw.name == name:
            return draw
    raise ValueError(f"no later draw is named {name!r} (the later draws: {LATER_DRAWS[0].name}, ..., "
                     f"{LATER_DRAWS[-1].name})")


def labelled_before(draw: LaterDraw) -> list[Path]:
    """The labelled files before ``draw``, whose texts it leaves out: every file before the fifth draw, the fifth
    draw's and the tune-real draw's, and each earlier later draw's, in the order they were labelled.

    >>> [p.name for p in labelled_before(later_draw("seventh"))[-3:]]
    ['commitments-general-real-fifth.jsonl', 'commitments-general-tune-real.jsonl', 'commitments-general-real-sixth.jsonl']
    """
    earlier = LATER_DRAWS[:LATER_DRAWS.index(later_draw(draw.name))]
    return [*LABELLED_5, FIXTURES / "commitments-general-real-fifth.jsonl",
            FIXTURES / "commitments-general-tune-real.jsonl", *(d.fixture for d in earlier)]


def draw_later(draw: LaterDraw, text: str, labelled: Iterable[Mapping[str, Any]], wanted: int = LATER_TURNS,
               start: int | None = None, step: int = FIFTH_STEP,
               size: int = TRAIN_WINDOW) -> tuple[list[dict[str, Any]], list[int]]:
    """A later draw: :func:`draw_fifth` from position ``start`` (the draw's own, unless given) of the window order,
    in the draw's split; the turns, and the windows read.

    >>> text = json.dumps([{"dialogue_id": d, "chat_logs": [{"text": t} for t in (f"d{d} hi", "Walk-Away")],
    ...                     "participant_info": {}} for d in range(80)])  # 8,220 characters: 28 windows
    >>> rows, windows = draw_later(later_draw("sixth"), text, [{"text": "D51 HI"}], wanted=1, size=300)
    >>> windows == [window_order(len(text), size=300)[13]], [(r["id"], r["split"]) for r in rows]
    (True, [('casino/train/50/0', 'holdout-real-6')])
    """
    return draw_fifth(text, labelled, wanted, draw.start if start is None else start, step, size, split=draw.split)


# --- end of the later draws ---


# -- the tune-real draw: a tune split of real turns from the train split's even windows ---------------------

TUNE_REAL = "tune-real"
"""The split of the tune-real draw's turns: a tune split (read, run and tuned on)."""

TUNE_REAL_FIRST = 4
"""The first position, in the fourth draw's window order, that the tune-real draw reads."""

TUNE_REAL_WINDOWS = 7
"""How many windows the tune-real draw reads: the even positions 4, 6, ..., 16 of the fourth draw's order."""

LABELLED_TUNE_REAL = [*LABELLED_4, FIXTURES / "commitments-general-real-fourth.jsonl"]
"""The labelled files before the tune-real draw: every text of any of them is left out."""


def tune_real_positions(windows: int = TUNE_REAL_WINDOWS) -> list[int]:
    """The positions, in the fourth draw's window order, that the tune-real draw reads: even, from 4.

    The fourth draw read positions 0 to 2; the odd positions from 3 on are left to a later held-out
    draw, so that no window is on both sides.

    >>> tune_real_positions(3)
    [4, 6, 8]
    """
    return [TUNE_REAL_FIRST + 2 * i for i in range(windows)]


def tune_real_dialogues(text: str, windows: int = TUNE_REAL_WINDOWS, size: int = TRAIN_WINDOW,
                        seed: str = DIALOGUE_SEED_4) -> list[dict[str, Any]]:
    """The dialogues of CaSiNo's train split (the file's ``text``) that the tune-real draw takes: the windows
    at :func:`tune_real_positions` of the fourth draw's order (:func:`window_order`, same size and seed), in
    that order, and of each every dialogue whose chat log lies wholly inside it (:func:`window_dialogues`).

    >>> dialogues = [{"dialogue_id": d, "chat_logs": [{"text": "x" * 20, "id": "a"}], "participant_info": {}}
    ...              for d in range(12)]
    >>> text = json.dumps(dialogues)  # 1,249 characters, a dialogue about 100 of them
    >>> order = window_order(len(text), size=100, seed="s")
    >>> got = tune_real_dialogues(text, windows=2, size=100, seed="s")
    >>> [d["dialogue_id"] for d in got] == [d["dialogue_id"] for k in (order[4], order[6])
    ...                                     for d in window_dialogues(text, k, 100)]
    True
    """
    order = window_order(len(text), size, seed)
    return [dialogue for position in tune_real_positions(windows) if position < len(order)
            for dialogue in window_dialogues(text, order[position], size)]


def draw_tune_real(dialogues: Iterable[Mapping[str, Any]], labelled: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The tune-real draw's rows: :func:`draw_fourth_train` of the ``dialogues`` (from
    :func:`tune_real_dialogues`) in :data:`TUNE_REAL`; deal-submission turns, texts of any labelled row and
    repeated texts left out.

    >>> d = {"dialogue_id": 3, "chat_logs": [{"text": t} for t in ("Hello", "Walk-Away", "I'll give 2 food")]}
    >>> [(r["id"], r["split"]) for r in draw_tune_real([d], [{"text": "hello", "style": "casino"}])]
    [('casino/train/3/1', 'tune-real')]
    """
    return draw_fourth_train(dialogues, labelled, split=TUNE_REAL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_sample = sub.add_parser("sample", help="print the seeded sample of real negotiation turns (unlabelled)")
    p_sample.add_argument("--corpus", type=Path, required=True, help="the message corpus (.jsonl)")
    p_sample.add_argument("--n", type=int, default=SAMPLE_SIZE)
    p_sample.add_argument("--seed", type=int, default=SAMPLE_SEED)
    p_split = sub.add_parser("split", help="recompute the split of a labelled file")
    p_split.add_argument("file", type=Path)
    p_split.add_argument("--write", action="store_true", help="rewrite the file with the computed splits")
    def draw(name: str, what: str, labelled: list[Path]) -> argparse.ArgumentParser:
        """A draw of whole dialogues: the corpus, and the labelled files whose turns are taken already."""
        p = sub.add_parser(name, help=f"print the unlabelled turns of {what}")
        p.add_argument("--corpus", type=Path, required=True, help="the message corpus (.jsonl)")
        p.add_argument("--labelled", type=Path, nargs="+", default=labelled,
                       help="the labelled files whose turns are taken already")
        return p

    p_dialogues = draw("dialogues", "whole dialogues drawn for the rows labelled later (tune and holdout-real)", LABELLED)
    p_dialogues.add_argument("--tune-turns", type=int, default=104)
    p_dialogues.add_argument("--holdout-turns", type=int, default=52)
    p_second = draw("second", "the second draw of whole dialogues (tune and holdout-real-2)", LABELLED_2)
    p_second.add_argument("--tune-turns", type=int, default=350)
    p_second.add_argument("--holdout-turns", type=int, default=230)
    draw("third", "the third draw of whole dialogues (holdout-real-3 only)", LABELLED_3).add_argument(
        "--turns", type=int, default=THIRD_TURNS)
    p_fourth = draw("fourth", "the fourth draw (holdout-real-4 only): the corpus's last turns, then the train split's",
                    LABELLED_4)
    p_fourth.add_argument("--train", type=Path, required=True, help="CaSiNo's data/split/casino_train.json")
    p_fourth.add_argument("--windows", type=int, default=TRAIN_WINDOWS)
    p_tune_real = sub.add_parser("tune-real", help="print the unlabelled turns of the tune-real draw (the train "
                                 "split's windows at the even positions from 4 of the fourth draw's order)")
    p_tune_real.add_argument("--train", type=Path, required=True, help="CaSiNo's data/split/casino_train.json")
    p_tune_real.add_argument("--labelled", type=Path, nargs="+", default=LABELLED_TUNE_REAL,
                             help="the labelled files whose texts are left out")
    p_tune_real.add_argument("--windows", type=int, default=TUNE_REAL_WINDOWS)
    _add_odd_draw(sub, "fifth", LABELLED_5, FIFTH_TURNS, FIFTH_START, "holdout-real-5 only: more windows of the train split")
    for before, draw in zip(("fifth", *(d.name for d in LATER_DRAWS)), LATER_DRAWS):
        _add_odd_draw(sub, draw.name, labelled_before(draw), LATER_TURNS, draw.start,
                      f"{draw.split} only: the {before} draw's windows continued at the odd positions from {draw.start}")
    args = parser.parse_args(argv)
    if args.command == "fifth":
        return _run_odd_draw(args, draw_fifth)
    if args.command in {draw.name for draw in LATER_DRAWS}:
        return _run_odd_draw(args, partial(draw_later, later_draw(args.command)))
    if args.command == "tune-real":
        labelled = [json.loads(line) for path in args.labelled
                    for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        dialogues = tune_real_dialogues(args.train.read_text(encoding="utf-8"), args.windows)
        for row in draw_tune_real(dialogues, labelled):
            print(json.dumps(row, ensure_ascii=False))
        return 0
    if args.command == "fourth":
        labelled = [json.loads(line) for path in args.labelled
                    for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        with args.corpus.open(encoding="utf-8") as f:
            first = draw_fourth_corpus(corpus_turns(f), labelled)
        second = draw_fourth_train(train_dialogues(args.train.read_text(encoding="utf-8"), args.windows),
                                   labelled, first)
        for row in [*first, *second]:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    if args.command in ("dialogues", "second", "third"):
        labelled = [json.loads(line) for path in args.labelled
                    for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        with args.corpus.open(encoding="utf-8") as f:
            turns = corpus_turns(f)
        if args.command == "third":
            drawn = draw_third(turns, labelled, args.turns)
        else:
            draw = draw_dialogues if args.command == "dialogues" else draw_second
            drawn = draw(turns, labelled, args.tune_turns, args.holdout_turns)
        for row in drawn:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    if args.command == "sample":
        with args.corpus.open(encoding="utf-8") as f:
            for row in sample_casino(f, args.n, args.seed):
                print(json.dumps(row, ensure_ascii=False))
        return 0
    lines = [line for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [json.loads(line) for line in lines]
    splits = assign_splits(rows)
    wrong = [r["id"] for r in rows if r.get("split") != splits[r["id"]]]
    if args.write:
        with args.file.open("w", encoding="utf-8") as f:
            for row in rows:
                row["split"] = splits[row["id"]]
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{args.file}: {len(rows)} rows, {len(wrong)} splits changed")
        return 0
    for row_id in wrong:
        print(f"{args.file}: row {row_id}: field split: expected {splits[row_id]}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
