"""Precision and recall of a commitment extractor on the general labelled set, per split, style and kind.

Usage::

    python bench/commitments_general.py [--fixture PATH] [--added PATH] [--real-added PATH] [--real-second PATH]
                                        [--real-third [PATH]] [--real-fourth [PATH]] [--real-fifth [PATH]]
                                        [--real-sixth [PATH]] [--real-seventh [PATH]] [--real-eighth [PATH]]
                                        [--real-ninth [PATH]] [--real-tenth [PATH]] [--real-eleventh [PATH]]
                                        [--real-twelfth [PATH]] [--real-thirteenth [PATH]] [--real-fourteenth [PATH]]
                                        [--real-fifteenth [PATH]] [--real-sixteenth [PATH]]
                                        [--tune-real PATH] [--no-added]
                                        [--extractor NAME|module:factory]
                                        [--split holdout|holdout-real-4|holdout-real-16|
                                                 tune|tune-real|tune-real-1|tune-real-2|tune-real-3|
                                                 tune-real-5|tune-real-6|tune-real-7|tune-real-8|tune-real-9|
                                                 tune-real-10|tune-real-11|tune-real-12|tune-real-13|tune-real-14|
                                                 tune-real-15|
                                                 tune-real-pool|all|both]
                                        [--json] [--errors] [--sweep]

The set (``tests/fixtures/commitments-general.jsonl``, guide in
``docs/commitments-labelling.md``) holds messages from many games, each row with the
vocabulary of its game (canonical goods, places and players), its speaker and
addressee, and the labelled commitments (seven kinds: the extractor's five plus
``stay_out`` and ``support``, and an optional ``target``).  The extractor is never
changed here; the bench only calls it.

**Added tune rows.**  Rows labelled after the set was split
(``tests/fixtures/commitments-general-tune-added.jsonl``, each labelled before the
extractor was run on it) join the ``tune`` split and only it; the ``tune`` block is then
also printed for the first split's rows and the added rows apart.  ``--no-added``
leaves them out.

**Later real rows.**  Real negotiation turns labelled later, whole dialogues at a time
(``tests/fixtures/commitments-general-real-added.jsonl``, each row with its provenance,
labelled before the extractor was run on it): a dialogue whose earlier turns are ``tune``
adds ``tune`` rows (printed apart in the ``tune`` block as well), one whose earlier turns
are ``holdout`` adds rows marked ``holdout-real`` in the file.  ``--no-added`` leaves them out too.

**The second draw of real rows.**  More whole dialogues, drawn and labelled the same way
(``tests/fixtures/commitments-general-real-second.jsonl``): half ``tune`` (printed apart in the
``tune`` block as well), half marked ``holdout-real-2`` in the file.  ``--no-added`` leaves them out too.

**The third draw of real rows, blind.**  Whole dialogues no later draw had touched
(``tests/fixtures/commitments-general-real-third.jsonl``), every row marked ``holdout-real-3`` in the
file, labelled by someone who writes no extraction rule and before any extractor was run on them.
``--real-third PATH`` reads another file in its place; ``--no-added`` leaves it out too.

**Re-designated tune splits.**  The rows marked ``holdout-real``, ``holdout-real-2`` and ``holdout-real-3``
were held out until each had been scored six times, after which a score of them was no longer an
unbiased figure; they are now tune splits, read, run and tuned on: ``tune-real-1``, ``tune-real-2`` and
``tune-real-3`` (the files keep their rows, labels and split marks; the bench re-designates them as it
reads them).  ``--errors`` prints their wrong rows, and ``--split tune-real-pool`` scores every real tune
turn at once (``tune-real`` and every re-designated split).  The rows marked ``holdout-real-5`` (scored three
times) and ``holdout-real-6`` (scored twice) followed when the rules they had been scored against were found
to be written from too few errors of their shapes: they are tune splits ``tune-real-5`` and ``tune-real-6``,
read by default like the third draw (``--real-fifth PATH`` / ``--real-sixth PATH`` read another file in
a file's place; ``--no-added`` leaves them out too).

**The fourth draw of real rows.**  The corpus's last unlabelled turns and whole dialogues of CaSiNo's
train split, which no earlier file touched (``tests/fixtures/commitments-general-real-fourth.jsonl``),
every row in ``holdout-real-4``, a fifth held-out split, labelled and committed before any rule was
changed for it and before any extractor was run on its rows.  Like the third, it is read only when
named (``--real-fourth``, the file by default), its block follows the third's, and its rows are never
printed one by one.

**The fifth draw of real rows, blind.**  Whole dialogues of CaSiNo's train split from the windows at the
odd positions from 3 of the fourth draw's window order (``tests/fixtures/commitments-general-real-fifth.jsonl``),
every row marked ``holdout-real-5`` in the file, labelled by someone who writes no extraction rule and
before any extractor was run on them.  Once a held-out split read only when named, it is now the tune split
``tune-real-5`` (see above), read by default, its block after ``tune-real-3``'s.

**The sixth draw of real rows, blind.**  The fifth draw continued, at the odd positions from 13 of the same
window order (``tests/fixtures/commitments-general-real-sixth.jsonl``), every row marked ``holdout-real-6``
in the file, labelled blind the same way.  Once a held-out split, it is now the tune split ``tune-real-6``
(see above), read by default, its block after ``tune-real-5``'s.

**The seventh draw of real rows, blind.**  The sixth draw continued, at the odd positions from 23 of the same
window order (``tests/fixtures/commitments-general-real-seventh.jsonl``), every row marked ``holdout-real-7``,
labelled blind the same way.  Held out and scored once (under rules v8), it is now the tune split
``tune-real-7``, read by default, its block after ``tune-real-6``'s: rules v9 were written from it, with the
eighth draw kept unread for their test.

**The eighth draw of real rows, blind.**  The seventh draw continued, at the odd positions from 31 of the same
window order (``tests/fixtures/commitments-general-real-eighth.jsonl``), every row marked ``holdout-real-8``,
labelled blind the same way after rules v8.  Held out and scored three times (under rules v8, v9 and v9), it is
now the tune split ``tune-real-8``, read by default, its block after ``tune-real-7``'s: rules v10 were written
from it, with the tenth draw kept unread for their test.

**The ninth draw of real rows, blind.**  The eighth draw continued, at the odd positions from 39 of the same
window order (``tests/fixtures/commitments-general-real-ninth.jsonl``), every row marked ``holdout-real-9``,
labelled blind the same way.  Held out and scored under rules v9 and then v10, it is now the tune split
``tune-real-9``, read by default, its block after ``tune-real-8``'s: rules v11 were written from it and the
tenth, with the eleventh draw kept unread for their test.

**The tenth draw of real rows, blind.**  The ninth draw continued, at the odd positions from 49 of the same
window order (``tests/fixtures/commitments-general-real-tenth.jsonl``), every row marked ``holdout-real-10``,
labelled blind the same way.  Held out and scored once (under rules v9 and v10 in one sitting), it is now the
tune split ``tune-real-10``, read by default, its block after ``tune-real-9``'s.

**The eleventh draw of real rows, blind.**  The tenth draw continued, at the odd positions from 57 of the same
window order (``tests/fixtures/commitments-general-real-eleventh.jsonl``), every row marked ``holdout-real-11``,
labelled blind the same way.  Held out and scored once, as the judge of rules v11 (v10 in the same sitting), it
is now the tune split ``tune-real-11``, read by default, its block after ``tune-real-10``'s: rules v12 were
written from it, with the twelfth draw kept unread for their test.

**The twelfth draw of real rows, blind.**  The eleventh draw continued, at the odd positions from 65 of the same
window order (``tests/fixtures/commitments-general-real-twelfth.jsonl``), every row marked ``holdout-real-12``,
labelled blind the same way after rules v11.  Held out and scored once, as the judge of rules v12 (v11 in the same
sitting), it is now the tune split ``tune-real-12``, read by default, its block after ``tune-real-11``'s: rules v13
were written from it, with the thirteenth draw kept unread for their test.

**The thirteenth draw of real rows, blind.**  The twelfth draw continued, at the odd positions from 75 of the same
window order (``tests/fixtures/commitments-general-real-thirteenth.jsonl``), every row marked ``holdout-real-13``,
labelled blind the same way after rules v12 were written.  Held out and scored once, as the judge of rules v13 (v12
in the same sitting), it is now the tune split ``tune-real-13``, read by default, its block after ``tune-real-12``'s,
for the next rules (its 11 wrong rows under v13 were read and held no mechanism the labels agree on: no rule is
written from it yet).

**The fourteenth draw of real rows, blind.**  The thirteenth draw continued, at the odd positions from 83 of the
same window order (``tests/fixtures/commitments-general-real-fourteenth.jsonl``), every row marked ``holdout-real-14``,
labelled blind the same way after rules v13 shipped.  Held out and scored once, to measure rules v13 as shipped (no
decision rode on it), it is now the tune split ``tune-real-14``, read by default, its block after ``tune-real-13``'s:
rules v14 were written from it, with the fifteenth draw kept unread for their test.

**The fifteenth draw of real rows, blind.**  The fourteenth draw continued, at the odd positions from 93 of the
same window order (``tests/fixtures/commitments-general-real-fifteenth.jsonl``), every row marked ``holdout-real-15``,
labelled blind the same way after rules v14 were written.  Held out and scored once, as the judge of rules v14 (v13
in the same sitting), it is now the tune split ``tune-real-15``, read by default, its block after ``tune-real-14``'s:
rules v15 were written from it, with the sixteenth draw kept unread for their test.

**The sixteenth draw of real rows, blind.**  The fifteenth draw continued, at the odd positions from 103 of the
same window order (``tests/fixtures/commitments-general-real-sixteenth.jsonl``), every row in ``holdout-real-16``, a
seventeenth held-out split, labelled blind the same way after rules v15 were written.  It is read only when named
(``--real-sixteenth``), its block follows the fourth's, and its rows are never printed one by one.  Scored once, as
the judge of rules v15 (v14 in the same sitting).

**The tune-real draw.**  Whole dialogues of CaSiNo's train split that no other file touched, from the
windows at the even positions from 4 of the fourth draw's window order
(``tests/fixtures/commitments-general-tune-real.jsonl``), every row in ``tune-real``: a tune split, read,
run and tuned on, scored in a block of its own after ``tune``; ``--errors`` prints its wrong rows as it
prints ``tune``'s.  ``--no-added`` leaves it out too.

**The extractor.** ``--extractor`` names how one is built for a row's vocabulary:

* ``heuristic`` (default): ``HeuristicExtractor(<the row's vocabulary>)`` (items,
  places and players), the way promise-keeping builds it from an archive;
* ``heuristic-items-only``: ``HeuristicExtractor(items=<the row's items>)``, told the
  goods and nothing else;
* ``heuristic-default-items``: ``HeuristicExtractor()``, Daishi's default items;
* ``module:factory``: any callable ``factory(vocabulary) -> CommitmentExtractor``
  (``vocabulary`` is the row's ``{"items", "places", "agents"}``), so a
  vocabulary-reading extractor can be scored without touching this file.  One
  extractor is built per distinct vocabulary.

A predicted commitment is read from its ``kind``, ``give``, ``receive``,
``region`` and (when it has one) ``target``; a predicted ``target`` equal to the
row's addressee counts as no target (the guide gives a promise to the addressee no
``target``).

**The scores**, micro-averaged over commitments, a row's predicted and labelled
commitments matched as multisets:

* **strict**: kind and every term (give, receive, region, target) equal;
* **kind**: kind alone;
* **per kind**: strict and kind-only precision and recall of each kind;
* **confusion by kind**: labelled kind × predicted kind; in each row the kinds
  both sides have are paired first, the leftovers are paired in text order, and
  what is still left is set against ``none`` (a miss or an invention);
* **rows fully right**: every labelled commitment found, nothing extra.

**The sweep** (``--sweep``) scores the same split again with every text (and
vocabulary) changed in ways that keep its labels -- upper case, typographic
apostrophes, doubled spaces and line breaks, the vocabulary's names in upper case --
none of which the rules were tuned on, to show the figures do not rest on the
fixture's typography.

Every ratio carries a 95% Wilson score interval (the interval that stays inside
0..1 and stays honest at small counts).  Figures are printed for the ``holdout``
split first, then ``holdout-real-4`` and ``holdout-real-16`` when they are read -- the splits to quote: nobody
tuned on them -- then for ``tune``, ``tune-real``, ``tune-real-1``, ``tune-real-2``, ``tune-real-3``,
``tune-real-5``, ``tune-real-6``, ``tune-real-7``, ``tune-real-8``, ``tune-real-9``, ``tune-real-10``,
``tune-real-11``, ``tune-real-12``, ``tune-real-13``, ``tune-real-14``, ``tune-real-15`` and ``tune-real-pool``, each
per style.  The header of every
block names its split.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daishi_forensics.profile.commitments import CommitmentExtractor, HeuristicExtractor, extractor_info

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "commitments-general.jsonl"
ADDED = FIXTURE.with_name("commitments-general-tune-added.jsonl")
"""Rows added to the tune split after the set was split (each labelled before the extractor was
run on it); every one of them is ``tune``."""
ADDED_MARK = "_added"
"""The in-memory mark of a row read from an added file (either)."""
REAL_ADDED = FIXTURE.with_name("commitments-general-real-added.jsonl")
"""Real turns labelled later, whole dialogues at a time: ``tune`` or ``holdout-real`` by their
dialogue's side (each labelled before the extractor was run on it)."""
REAL_MARK = "_later_real"
"""The in-memory mark of a row read from the later real file."""
HOLDOUT_REAL = "holdout-real"
"""The file's split mark of the later real turns on the holdout's side (read as :data:`TUNE_REAL_1`)."""
REAL_SECOND = FIXTURE.with_name("commitments-general-real-second.jsonl")
"""The second draw of real turns, whole dialogues: ``tune`` or ``holdout-real-2`` by their dialogue's
side (each labelled before the extractor was run on it)."""
SECOND_MARK = "_second_real"
"""The in-memory mark of a row read from the second real file."""
HOLDOUT_REAL_2 = "holdout-real-2"
"""The file's split mark of the second draw's turns on the holdout's side (read as :data:`TUNE_REAL_2`)."""


@dataclass(frozen=True)
class RealDraw:
    """A draw of real turns in a file of its own (the third on), every row marked ``holdout-real-<number>`` in
    the file, labelled before any extractor was run on it (blind, from the third on but the fourth: by a
    labeller who writes no extraction rule).

    A draw still held out is read only when named (``--real-<name>``) and only scored, its rows never printed
    one by one; a draw once held out and since read (scored too often to stay unbiased, or read to write rules)
    is re-designated whole as the tune split ``tune-real-<number>``, read by default.  Its history is in the
    module's docstring.

    >>> RealDraw("fifth", 5, held_out=False).file.name, RealDraw("fifth", 5, held_out=False).tune_split
    ('commitments-general-real-fifth.jsonl', 'tune-real-5')
    """

    name: str
    """The ordinal that names the draw, its file and its option (``"fifth"``, ``--real-fifth``)."""
    number: int
    """The number of its split mark (``holdout-real-5``) and, once re-designated, of its tune split."""
    held_out: bool
    """Whether it is still held out (read only when named, only scored)."""

    @property
    def file(self) -> Path:
        """The file of its labelled rows."""
        return FIXTURE.with_name(f"commitments-general-real-{self.name}.jsonl")

    @property
    def split_mark(self) -> str:
        """The split its file marks every row with."""
        return f"holdout-real-{self.number}"

    @property
    def mark(self) -> str:
        """The in-memory mark of a row read from its file."""
        return f"_{self.name}_real"

    @property
    def tune_split(self) -> str:
        """The tune split the bench reads it as once re-designated."""
        return f"tune-real-{self.number}"


REAL_DRAWS: tuple[RealDraw, ...] = (
    RealDraw("third", 3, held_out=False), RealDraw("fourth", 4, held_out=True),
    *(RealDraw(name, number, held_out=False) for number, name in enumerate(
        ("fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth"),
        start=5)),
    RealDraw("fifteenth", 15, held_out=False), RealDraw("sixteenth", 16, held_out=True))
"""Every draw of real turns in a file of its own, in the order they were drawn: the one place a draw is
re-designated (``held_out`` turned off once it has been read) or a new one joins."""
LATER_DRAWS: tuple[RealDraw, ...] = tuple(d for d in REAL_DRAWS if d.held_out)
"""The draws still held out, each read only when named (``--real-<name>``)."""
HELD_OUT: tuple[str, ...] = ("holdout", *(d.split_mark for d in LATER_DRAWS))
"""The splits nobody tuned on, in report order."""
TUNE_REAL_FILE = FIXTURE.with_name("commitments-general-tune-real.jsonl")
"""The tune-real draw of real turns, whole dialogues of CaSiNo's train split, every row ``tune-real``
(labelled before any extractor was run on them): a tune split."""
TUNE_REAL_MARK = "_tune_real"
"""The in-memory mark of a row read from the tune-real file."""
TUNE_REAL = "tune-real"
"""The split of the tune-real draw's turns: a tune split (read, run and tuned on)."""
TUNE_REAL_1 = "tune-real-1"
"""The later real turns once on the holdout's side (marked ``holdout-real`` in their file): a tune split."""
TUNE_REAL_2 = "tune-real-2"
"""The second draw's turns once on the holdout's side (marked ``holdout-real-2``): a tune split."""
REDESIGNATED_DRAWS: tuple[RealDraw, ...] = tuple(d for d in REAL_DRAWS if not d.held_out)
"""The blind draws re-designated whole as tune splits, read by default (``--real-<name> PATH`` reads another
file in one's place)."""
REDESIGNATED: dict[str, str] = {HOLDOUT_REAL: TUNE_REAL_1, HOLDOUT_REAL_2: TUNE_REAL_2,
                                **{d.split_mark: d.tune_split for d in REDESIGNATED_DRAWS}}
"""The file's split mark of a once held-out split -> the tune split the bench reads it as (the first three
were scored six times each, the fifth draw three times and the sixth twice, so none gave an unbiased figure
any more; the seventh was scored once, under rules v8, and then read to write rules v9, with the eighth kept
for their test; the eighth was scored three times and then read to write rules v10, with the tenth kept for
their test; the ninth (scored under v9 and v10) and the tenth (scored once) were then read to write rules v11,
with the eleventh kept for their test; the eleventh, scored once as their judge, was then read to write rules
v12, with the twelfth kept for their test; the twelfth, scored once as their judge, was then read to write rules
v13, with the thirteenth kept for their test; the thirteenth, scored once as their judge, was then read for the
next rules, with the fourteenth kept for their test; the fourteenth, scored once to measure v13, was then read to write
rules v14, with the fifteenth kept for their test; the fifteenth, scored once as their judge, was then read to write
rules v15, with the sixteenth kept for their test)."""
REAL_TUNE_SPLITS: tuple[str, ...] = (TUNE_REAL, TUNE_REAL_1, TUNE_REAL_2, *(d.tune_split for d in REDESIGNATED_DRAWS))
"""The tune splits of real negotiation turns only."""
REAL_POOL = "tune-real-pool"
"""Every row of :data:`REAL_TUNE_SPLITS` scored as one block."""
TUNE_SPLITS: tuple[str, ...] = ("tune", *REAL_TUNE_SPLITS)
"""The splits that may be read, run and tuned on, in report order; ``--errors`` prints their rows."""

KINDS: tuple[str, ...] = ("trade", "give", "accept", "no_attack", "meet", "stay_out", "support")
"""The kinds of the general guide, in report order."""

NONE = "none"
"""The confusion matrix's row and column for "no commitment"."""

Z95 = 1.959963984540054
"""The standard-normal quantile of a two-sided 95% interval."""

Key = tuple[Any, ...]
"""A commitment as ``(kind, give, receive, region, target)``, goods as sorted item tuples."""

Factory = Callable[[Mapping[str, Sequence[str]]], CommitmentExtractor]


# -- statistics ------------------------------------------------------------------------------

def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes / trials`` (``None`` when there are no trials).

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    >>> wilson(0, 0) is None
    True
    """
    if trials == 0:
        return None
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Ratio:
    """A ratio with its count and 95% Wilson interval."""

    successes: int
    """The numerator."""
    trials: int
    """The denominator."""

    @property
    def value(self) -> float | None:
        """``successes / trials``, ``None`` with no trials."""
        return self.successes / self.trials if self.trials else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% Wilson interval."""
        return wilson(self.successes, self.trials)

    @property
    def text(self) -> str:
        """``0.750 [0.301, 0.954]``: the value and its interval, ``n/a`` with no trials.

        >>> Ratio(3, 4).text, Ratio(0, 0).text
        ('0.750 [0.301, 0.954]', 'n/a')
        """
        interval = self.interval
        if self.value is None or interval is None:
            return "n/a"
        return f"{self.value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]"

    def to_json(self) -> dict[str, Any]:
        """``{"value", "low", "high", "successes", "trials"}``."""
        interval = self.interval
        return {"value": self.value, "low": interval[0] if interval else None,
                "high": interval[1] if interval else None, "successes": self.successes, "trials": self.trials}


@dataclass(slots=True)
class Tally:
    """True positives, false positives and false negatives."""

    tp: int = 0
    """Predicted and labelled."""
    fp: int = 0
    """Predicted, not labelled."""
    fn: int = 0
    """Labelled, not predicted."""

    def add(self, want: Counter[Any], got: Counter[Any]) -> None:
        """Add one row's multisets."""
        self.tp += sum((want & got).values())
        self.fp += sum((got - want).values())
        self.fn += sum((want - got).values())

    @property
    def precision(self) -> Ratio:
        """tp / (tp + fp)."""
        return Ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> Ratio:
        """tp / (tp + fn)."""
        return Ratio(self.tp, self.tp + self.fn)

    def to_json(self) -> dict[str, Any]:
        """Counts, precision and recall with intervals."""
        return {"tp": self.tp, "fp": self.fp, "fn": self.fn,
                "precision": self.precision.to_json(), "recall": self.recall.to_json()}


# -- commitments -----------------------------------------------------------------------------

def _goods(value: Any) -> tuple[tuple[str, int | None], ...]:
    if not value:
        return ()
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted((str(k), v) for k, v in items))


def label_key(c: Mapping[str, Any]) -> Key:
    """A labelled commitment (a JSON object) as a key."""
    return (c["kind"], _goods(c.get("give")), _goods(c.get("receive")), c.get("region"), c.get("target"))


def predicted_key(c: Any, addressee: str | None) -> Key:
    """A predicted commitment (an object with ``kind``, ``give``, ... attributes) as a key.

    A ``target`` equal to the addressee is no target (the guide's convention).
    """
    target = getattr(c, "target", None)
    if target is not None and target == addressee:
        target = None
    return (c.kind, _goods(getattr(c, "give", ())), _goods(getattr(c, "receive", ())),
            getattr(c, "region", None), target)


def _kinds_in_order(keys: Iterable[Key]) -> list[str]:
    return [k[0] for k in keys]


def confusion_pairs(gold: Sequence[str], predicted: Sequence[str]) -> list[tuple[str, str]]:
    """``(labelled kind, predicted kind)`` pairs of one row, ``none`` for a miss or an invention.

    Kinds both sides have pair first; the leftovers pair in order; the rest go against ``none``.

    >>> confusion_pairs(["give", "accept"], ["trade", "accept", "meet"])
    [('accept', 'accept'), ('give', 'trade'), ('none', 'meet')]
    """
    common = Counter(gold) & Counter(predicted)
    pairs = [(k, k) for k in sorted(common.elements(), key=_kind_order)]
    left_gold = list(gold)
    left_pred = list(predicted)
    for k in common.elements():
        left_gold.remove(k)
        left_pred.remove(k)
    for a, b in zip(left_gold, left_pred):
        pairs.append((a, b))
    n = min(len(left_gold), len(left_pred))
    pairs += [(a, NONE) for a in left_gold[n:]]
    pairs += [(NONE, b) for b in left_pred[n:]]
    return pairs


def _kind_order(kind: str) -> int:
    return KINDS.index(kind) if kind in KINDS else len(KINDS)


# -- scoring ---------------------------------------------------------------------------------

@dataclass(slots=True)
class Score:
    """What the bench measures on a set of rows."""

    rows: int = 0
    """Rows scored."""
    rows_with_commitments: int = 0
    """Rows with at least one labelled commitment."""
    rows_right: int = 0
    """Rows whose predictions equal the labels (strict)."""
    strict: Tally = field(default_factory=Tally)
    """Kind and terms."""
    kind: Tally = field(default_factory=Tally)
    """Kind alone."""
    per_kind_strict: dict[str, Tally] = field(default_factory=dict)
    """Strict, per kind."""
    per_kind: dict[str, Tally] = field(default_factory=dict)
    """Kind alone, per kind."""
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    """``(labelled kind, predicted kind)`` counts."""

    def add(self, gold: list[Key], predicted: list[Key]) -> None:
        """Add one row."""
        self.rows += 1
        self.rows_with_commitments += bool(gold)
        want, got = Counter(gold), Counter(predicted)
        self.rows_right += want == got
        self.strict.add(want, got)
        self.kind.add(Counter(k[0] for k in gold), Counter(k[0] for k in predicted))
        for kind in sorted({k[0] for k in gold} | {k[0] for k in predicted}, key=_kind_order):
            self.per_kind_strict.setdefault(kind, Tally()).add(
                Counter(k for k in gold if k[0] == kind), Counter(k for k in predicted if k[0] == kind))
            self.per_kind.setdefault(kind, Tally()).add(
                Counter(k[0] for k in gold if k[0] == kind), Counter(k[0] for k in predicted if k[0] == kind))
        self.confusion.update(confusion_pairs(_kinds_in_order(gold), _kinds_in_order(predicted)))

    @property
    def rows_fully_right(self) -> Ratio:
        """Rows whose predictions equal the labels."""
        return Ratio(self.rows_right, self.rows)

    def to_json(self) -> dict[str, Any]:
        """Every figure, as JSON."""
        kinds = sorted(set(self.per_kind) | set(KINDS), key=_kind_order)
        return {
            "rows": self.rows,
            "rowsWithCommitments": self.rows_with_commitments,
            "labelled": self.strict.tp + self.strict.fn,
            "predicted": self.strict.tp + self.strict.fp,
            "strict": self.strict.to_json(),
            "kind": self.kind.to_json(),
            "perKind": {k: {"strict": self.per_kind_strict.get(k, Tally()).to_json(),
                            "kind": self.per_kind.get(k, Tally()).to_json()} for k in kinds},
            "confusion": [{"labelled": a, "predicted": b, "count": n} for (a, b), n in sorted(self.confusion.items())],
            "rowsFullyRight": self.rows_fully_right.to_json(),
        }


def predictions(rows: Sequence[Mapping[str, Any]], factory: Factory,
                fixture: Path = FIXTURE) -> dict[str, list[Key]]:
    """``{row id: predicted keys}``, one extractor built per distinct vocabulary."""
    built: dict[tuple[tuple[str, ...], ...], CommitmentExtractor] = {}
    out: dict[str, list[Key]] = {}
    for row in rows:
        vocabulary = row["vocabulary"]
        cache_key = tuple(tuple(vocabulary[f]) for f in ("items", "places", "agents"))
        extractor = built.get(cache_key)
        if extractor is None:
            extractor = built[cache_key] = factory(vocabulary)
        try:
            found = extractor.extract(row["text"]).commitments
        except Exception as e:  # an extractor must be total; say which row broke it
            raise RuntimeError(f"{fixture}: row {row['id']!r}: field text: the extractor raised {e!r}") from e
        out[row["id"]] = [predicted_key(c, row.get("addressee")) for c in found]
    return out


def score(rows: Iterable[Mapping[str, Any]], predicted: Mapping[str, list[Key]]) -> Score:
    """Score the rows against the predictions."""
    result = Score()
    for row in rows:
        result.add([label_key(c) for c in row["commitments"]], predicted[row["id"]])
    return result


# -- input -----------------------------------------------------------------------------------

REQUIRED = ("id", "text", "vocabulary", "addressee", "commitments", "style", "split")


def load(path: Path) -> list[dict[str, Any]]:
    """The labelled rows; a clear error naming the line and field on bad input."""
    rows = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}: line {number}: not JSON ({e.msg})") from None
            for name in REQUIRED:
                if name not in row:
                    raise ValueError(f"{path}: line {number}: row {row.get('id')!r}: field {name} is missing")
            for c in row["commitments"]:
                if c.get("kind") not in KINDS:
                    raise ValueError(f"{path}: line {number}: row {row['id']!r}: field commitments: "
                                     f"kind {c.get('kind')!r} is not one of {', '.join(KINDS)}")
            rows.append(row)
    return rows


def load_added(path: Path, known: Iterable[str], splits: Sequence[str] = ("tune",)) -> list[dict[str, Any]]:
    """The added rows (marked :data:`ADDED_MARK`): each must be in one of ``splits`` and have an id
    of its own."""
    seen = set(known)
    rows = load(path)
    for number, row in enumerate(rows, 1):
        if row["split"] not in splits:
            raise ValueError(f"{path}: row {row['id']!r}: field split: an added row is "
                             f"{' or '.join(splits)}, got {row['split']!r}")
        if row["id"] in seen:
            raise ValueError(f"{path}: row {row['id']!r}: field id: already in the set (row {number})")
        seen.add(row["id"])
        row[ADDED_MARK] = True
    return rows


def heuristic(vocabulary: Mapping[str, Sequence[str]]) -> CommitmentExtractor:
    """The heuristic extractor told the row's vocabulary (as promise-keeping builds it from an archive)."""
    return HeuristicExtractor(vocabulary)


def heuristic_items_only(vocabulary: Mapping[str, Sequence[str]]) -> CommitmentExtractor:
    """The heuristic extractor told the row's items only."""
    return HeuristicExtractor(items=vocabulary["items"])


def heuristic_default_items(vocabulary: Mapping[str, Sequence[str]]) -> CommitmentExtractor:
    """The heuristic extractor with Daishi's default items (the vocabulary ignored)."""
    return HeuristicExtractor()


FACTORIES: dict[str, Factory] = {"heuristic": heuristic, "heuristic-items-only": heuristic_items_only,
                                  "heuristic-default-items": heuristic_default_items}


def factory_named(name: str) -> Factory:
    """A built-in factory, or ``module:callable``."""
    if name in FACTORIES:
        return FACTORIES[name]
    module_name, sep, attribute = name.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"--extractor {name!r}: expected one of {', '.join(FACTORIES)} or module:factory")
    return getattr(importlib.import_module(module_name), attribute)


# -- report ----------------------------------------------------------------------------------

def _ratio(r: Ratio) -> str:
    """:attr:`Ratio.text`, ``n/a`` padded to its width (the tables' columns)."""
    return f"  {r.text:<19}" if r.value is None else r.text


def _tally_line(label: str, t: Tally) -> str:
    return (f"{label:<12} precision {_ratio(t.precision)}  recall {_ratio(t.recall)}  "
            f"(tp {t.tp}, fp {t.fp}, fn {t.fn})")


def render(title: str, s: Score, detail: bool) -> list[str]:
    """One block of the text report."""
    out = [f"[{title}] {s.rows} rows, {s.rows_with_commitments} with commitments, "
           f"{s.strict.tp + s.strict.fn} labelled, {s.strict.tp + s.strict.fp} predicted",
           "  " + _tally_line("strict", s.strict), "  " + _tally_line("kind", s.kind),
           f"  rows fully right {_ratio(s.rows_fully_right)}"]
    if not detail:
        return out
    out.append("  per kind (strict | kind only):")
    for kind in sorted(set(s.per_kind) | set(KINDS), key=_kind_order):
        st, kd = s.per_kind_strict.get(kind, Tally()), s.per_kind.get(kind, Tally())
        out.append(f"    {kind:<10} P {_ratio(st.precision)} R {_ratio(st.recall)} | "
                   f"P {_ratio(kd.precision)} R {_ratio(kd.recall)}  (labelled {kd.tp + kd.fn}, "
                   f"predicted {kd.tp + kd.fp})")
    columns = [k for k in KINDS] + sorted({b for _, b in s.confusion} - set(KINDS) - {NONE}) + [NONE]
    out.append("  confusion (rows labelled, columns predicted):")
    out.append("    " + " " * 10 + "".join(f"{c[:9]:>10}" for c in columns))
    for a in columns:
        counts = [s.confusion.get((a, b), 0) for b in columns]
        if any(counts):
            out.append(f"    {a[:10]:<10}" + "".join(f"{n:>10}" for n in counts))
    return out


def report(rows: Sequence[Mapping[str, Any]], predicted: Mapping[str, list[Key]],
           splits: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
    """Text lines and JSON of every block: per split, whole then per style."""
    lines: list[str] = []
    data: dict[str, Any] = {}
    styles = sorted({r["style"] for r in rows})
    for split in splits:
        subset = _split_rows(rows, split)
        whole = score(subset, predicted)
        lines += render(f"{split}", whole, detail=True)
        data[split] = {"all": whole.to_json(), "styles": {}}
        for style in styles:
            part = [r for r in subset if r["style"] == style]
            if part:
                s = score(part, predicted)
                lines += render(f"{split} / {style}", s, detail=False)
                data[split]["styles"][style] = s.to_json()
        added = [r for r in subset if r.get(ADDED_MARK)]
        if added and split not in (*HELD_OUT, *REAL_TUNE_SPLITS, REAL_POOL):
            later = [r for r in added if r.get(REAL_MARK)]
            second = [r for r in added if r.get(SECOND_MARK)]
            for name, key, part in (("first-split rows", "firstSplitRows", [r for r in subset if not r.get(ADDED_MARK)]),
                                    ("added rows", "addedRows", added),
                                    ("later real rows", "laterRealRows", later),
                                    ("second real rows", "secondRealRows", second)):
                if part:
                    s = score(part, predicted)
                    lines += render(f"{split} / {name}", s, detail=False)
                    data[split][key] = s.to_json()
        lines.append("")
    return lines, data


def _split_rows(rows: Sequence[Mapping[str, Any]], split: str) -> list[Mapping[str, Any]]:
    """The rows of ``split`` (every row for ``all``, every real tune row for :data:`REAL_POOL`)."""
    if split == "all":
        return list(rows)
    if split == REAL_POOL:
        return [r for r in rows if r["split"] in REAL_TUNE_SPLITS]
    return [r for r in rows if r["split"] == split]


SWEEP: dict[str, Callable[[str], str]] = {
    "as written": lambda t: t,
    "upper case": str.upper,
    "typographic apostrophes": lambda t: t.replace("'", "\u2019"),
    "doubled spaces, line breaks": lambda t: t.replace(" ", "  ").replace(". ", ".\n"),
}
"""Changes of a text that keep its labels (the sweep)."""


def sweep(rows: Sequence[Mapping[str, Any]], factory: Factory, split: str) -> list[str]:
    """Strict precision and recall on ``split`` under each change of :data:`SWEEP`, and with the
    vocabulary's names in upper case."""
    subset = _split_rows(rows, split)
    out = [f"[{split}] sweep (strict; the rules were tuned on none of these):"]
    cases: list[tuple[str, list[dict[str, Any]]]] = [
        (name, [{**r, "text": change(r["text"])} for r in subset]) for name, change in SWEEP.items()]
    cases.append(("vocabulary in upper case", [
        {**r, "vocabulary": {k: [v.upper() for v in vs] for k, vs in r["vocabulary"].items()},
         "commitments": [_upper_terms(c) for c in r["commitments"]]} for r in subset]))
    for name, changed in cases:
        s = score(changed, predictions(changed, factory))
        t = s.strict
        out.append(f"  {name:<28} precision {_ratio(t.precision)}  recall {_ratio(t.recall)}  "
                   f"(tp {t.tp}, fp {t.fp}, fn {t.fn})")
    return out


def _upper_terms(c: Mapping[str, Any]) -> dict[str, Any]:
    """A labelled commitment with its canonical names in upper case (the vocabulary changed so)."""
    out = dict(c)
    for side in ("give", "receive"):
        if side in out:
            out[side] = {k.upper(): v for k, v in out[side].items()}
    for field_name in ("region", "target"):
        if out.get(field_name) is not None:
            out[field_name] = out[field_name].upper()
    return out


def _marked(path: Path, rows: list[dict[str, Any]], splits: tuple[str, ...], mark: str) -> list[dict[str, Any]]:
    """The rows of an added file (:func:`load_added`, after ``rows``), each marked ``mark`` in memory."""
    drawn = load_added(path, (r["id"] for r in rows), splits)
    for row in drawn:
        row[mark] = True
    return drawn


def tune_rows(rows: list[dict[str, Any]], added: Path = ADDED, real_added: Path = REAL_ADDED,
              real_second: Path = REAL_SECOND, redesignated: Mapping[str, Path] | None = None,
              tune_real: Path = TUNE_REAL_FILE) -> list[dict[str, Any]]:
    """The rows added after the first file's ``rows``: the tune rows added later, the real turns labelled
    later (tune, or once held out), the blind draws re-designated whole as tune splits (``redesignated``: a
    file in place of a draw's, by name) and the tune-real draw; every once held-out split mark read as the
    tune split it now is (:data:`REDESIGNATED`, the first file's ``rows`` included)."""
    paths = {d.name: d.file for d in REDESIGNATED_DRAWS} | dict(redesignated or {})
    out = load_added(added, (r["id"] for r in rows))
    out += _marked(real_added, rows + out, ("tune", HOLDOUT_REAL), REAL_MARK)
    out += _marked(real_second, rows + out, ("tune", HOLDOUT_REAL_2), SECOND_MARK)
    for d in REDESIGNATED_DRAWS:
        out += _marked(paths[d.name], rows + out, (d.split_mark,), d.mark)
    for row in (*rows, *out):
        row["split"] = REDESIGNATED.get(row["split"], row["split"])
    out += _marked(tune_real, rows + out, (TUNE_REAL,), TUNE_REAL_MARK)
    return out


def load_tune_rows(fixture: Path = FIXTURE) -> list[dict[str, Any]]:
    """Every row of the bench's tune splits.  A row of the first file in no tune split (nor in a split
    re-designated as one) is dropped as soon as its line is parsed; the held-out draws' files are never
    opened; every row returned is asserted to be in a tune split."""
    keep = set(TUNE_SPLITS) | set(REDESIGNATED)
    rows: list[dict[str, Any]] = []
    with fixture.open(encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("split") not in keep:
                continue
            rows.append(row)
    rows += tune_rows(rows)
    for row in rows:
        assert row["split"] in TUNE_SPLITS, f"row {row['id']!r}: split {row['split']!r} is not a tune split"
    return rows


def fold_of(group: str, k: int, seed: str) -> int:
    """The fold of a group of rows (a dialogue, say) for a cross-validation: a hash of the seed and the group,
    modulo ``k`` (deterministic, and the same in every bench that folds these rows)."""
    return int(hashlib.sha256((seed + ":" + group).encode()).hexdigest(), 16) % k


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--added", type=Path, default=ADDED,
                        help="rows added to the tune split after the set was split (all tune)")
    parser.add_argument("--real-added", type=Path, default=REAL_ADDED,
                        help=f"real turns labelled later, whole dialogues (tune, or {TUNE_REAL_1})")
    parser.add_argument("--real-second", type=Path, default=REAL_SECOND,
                        help=f"the second draw of real turns, whole dialogues (tune, or {TUNE_REAL_2})")
    for d in REDESIGNATED_DRAWS:
        parser.add_argument(f"--real-{d.name}", type=Path, nargs="?", const=d.file, default=d.file,
                            help=f"the {d.name} draw of real turns, whole dialogues (all {d.tune_split}; "
                            "read by default)")
    for d in LATER_DRAWS:
        parser.add_argument(f"--real-{d.name}", type=Path, nargs="?", const=d.file, default=None,
                            help=f"also score the {d.name} draw of real turns (all {d.split_mark}; the file named, "
                            f"or {d.file.name}); left out unless named, so that each look at it is deliberate")
    parser.add_argument("--tune-real", type=Path, default=TUNE_REAL_FILE,
                        help="the tune-real draw of real turns, whole dialogues of CaSiNo's train split (all tune-real)")
    parser.add_argument("--no-added", action="store_true", help="score the first split's rows only")
    parser.add_argument("--extractor", default="heuristic",
                        help=f"{', '.join(FACTORIES)}, or module:factory (factory(vocabulary) -> extractor)")
    parser.add_argument("--split", choices=(*HELD_OUT, *TUNE_SPLITS, REAL_POOL, "all", "both"), default="both",
                        help="which split to score (both: holdout, "
                        + "".join(f"{d.split_mark} when --real-{d.name} is given, " for d in LATER_DRAWS)
                        + "then "
                        f"tune, {', '.join(REAL_TUNE_SPLITS)} and {REAL_POOL}, every real tune turn at once)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--sweep", action="store_true",
                        help="score the split(s) again under changes of the text that keep its labels")
    parser.add_argument("--errors", action="store_true",
                        help="print every row of a tune split the extractor got wrong (never a held-out one)")
    args = parser.parse_args(argv)
    try:
        rows = load(args.fixture)
        if not args.no_added:
            rows += tune_rows(rows, args.added, args.real_added, args.real_second,
                              {d.name: getattr(args, f"real_{d.name}") for d in REDESIGNATED_DRAWS}, args.tune_real)
        for d in LATER_DRAWS:
            path = getattr(args, f"real_{d.name}")
            if path is not None:
                rows += _marked(path, rows, (d.split_mark,), d.mark)
            elif args.split == d.split_mark:
                raise ValueError(f"--split {d.split_mark}: the {d.name} draw is read only when named "
                                 f"(--real-{d.name})")
        factory = factory_named(args.extractor)
    except (OSError, ValueError, ImportError, AttributeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    named = {d.split_mark: getattr(args, f"real_{d.name}") for d in LATER_DRAWS}
    held_out = [s for s in HELD_OUT if named.get(s, True) is not None]
    splits = [*held_out, *TUNE_SPLITS, REAL_POOL] if args.split == "both" else [args.split]
    predicted = predictions(rows, factory, args.fixture)
    sample = factory(rows[0]["vocabulary"]) if rows else None
    info = extractor_info(sample) if sample is not None else {}
    lines, data = report(rows, predicted, splits)
    if args.json:
        print(json.dumps({"extractor": info, "factory": args.extractor, "fixture": args.fixture.name,
                          "added": None if args.no_added else args.added.name,
                          "realAdded": None if args.no_added else args.real_added.name,
                          "realSecond": None if args.no_added else args.real_second.name,
                          "tuneReal": None if args.no_added else args.tune_real.name,
                          **{f"real{d.name.capitalize()}": None if args.no_added else getattr(args, f"real_{d.name}").name
                             for d in REDESIGNATED_DRAWS},
                          **{f"real{d.name.capitalize()}": None if named[d.split_mark] is None
                             else named[d.split_mark].name for d in LATER_DRAWS},
                          "splits": data}, indent=1, sort_keys=True))
    else:
        print(f"extractor {info.get('name')} v{info.get('version')} built by {args.extractor!r} "
              f"(reads the first {info.get('maxChars')} characters); {args.fixture.name}"
              + ("" if args.no_added else f" + {args.added.name} (tune) + {args.real_added.name} "
                 f"(tune, {TUNE_REAL_1}) + {args.real_second.name} (tune, {TUNE_REAL_2}) + "
                 + "".join(f"{getattr(args, f'real_{d.name}').name} ({d.tune_split}) + " for d in REDESIGNATED_DRAWS)
                 + f"{args.tune_real.name} ({TUNE_REAL})")
              + "".join(f" + {named[d.split_mark].name} ({d.split_mark})" for d in LATER_DRAWS
                        if named[d.split_mark] is not None))
        quoted = [f"[{s}]" for s in held_out]
        listed = f"{', '.join(quoted[:-1])} and {quoted[-1]}" if len(quoted) > 1 else quoted[0]
        print(f"figures to quote come from {listed}; intervals are 95% Wilson\n")
        print("\n".join(lines).rstrip())
    if args.sweep and not args.json:
        for split in splits:
            print()
            print("\n".join(sweep(rows, factory, split)))
    if args.errors:
        print_errors((row for row in rows if row["split"] in TUNE_SPLITS), predicted)
    return 0


def print_errors(rows: Iterable[Mapping[str, Any]], predicted: Mapping[str, list[Key]]) -> None:
    """One JSON line for each row whose predicted commitments differ from its labels (as multisets)."""
    for row in rows:
        got = predicted[row["id"]]
        if Counter(got) != Counter(label_key(c) for c in row["commitments"]):
            print(json.dumps({"id": row["id"], "text": row["text"], "labelled": row["commitments"],
                              "predicted": [list(k) for k in got]}, ensure_ascii=False))


if __name__ == "__main__":
    sys.exit(main())
