"""Would a learned commitment extractor pay?  Out-of-fold figures on the tune splits only.

    python bench/commitments_learned.py [--folds 5] [--seeds 3] [--C 4.0] [--threshold 0.5] [--json PATH]
    python bench/commitments_learned.py --rules-at REVISION [--unseen tune-real-5,tune-real-6]
    python bench/commitments_general.py --extractor commitments_learned:factory ...   # trained on every tune row

Reads the commitment bench's tune splits only (``tune``, ``tune-real`` and the re-designated ``tune-real-1``,
``-2``, ``-3``, ``-5``, ``-6``).  The draws held out are never opened, and a row of the first file that is in
no tune split is dropped as soon as its line is parsed, before anything else reads it; every row kept is
checked to be in a tune split.

**The learned extractor** (scikit-learn logistic regressions over word n-grams and hand features; the goods
kinds ``trade`` and ``give`` and ``accept`` only, the kinds of the real turns):

* the item mentions of a message, with their quantities, are read by the rule extractor's own readers (the
  vocabulary's names, the number next to a good, a number or pronoun whose noun is left out);
* a mention classifier gives each mention its side in the speaker's commitment: ``give`` (the speaker
  hands it over), ``receive`` (asked in return) or ``none``, from its window of words, the nearest pronoun
  and verb before it, its clause (question, negation, hedge, condition) and how its quantity was written;
* a turn classifier says whether the message commits to goods at all, another whether it accepts;
* assembly: a message that commits to goods, with a good on the give side, is a ``trade`` when a good stands
  on the receive side and a ``give`` otherwise; each side's goods are the mentions most likely on it (one
  per good), with the quantity read at that mention; an ``accept`` is never set beside a ``trade`` (R22).

Two learned variants are scored: one whose features use no rule reading at all (the mention readers
aside), and one that also sees the rules' readings (the side the rules' walk gives each mention, the kinds
the rules extract, the rules' consent reading of each clause).  The second inherits the rules' fit to these
rows: the rules were written from them.

**The combinations** with the rules: the rules' goods with the learned accept; the rules' goods and accepts
kept only where the learned turn classifiers agree (a learned check); the rules where they find goods and
the learned goods elsewhere, accepts of either.

**The figures**: strict precision and recall (``bench/commitments_general.py``'s scoring: kind and every term)
with 95% Wilson intervals, by kind, on the out-of-fold predictions of a cross-validation grouped by dialogue
(every turn of a real dialogue in one fold, any other row a group of its own; the fold a hash of the seed and
the group), for the real tune pool and the ``tune`` split apart.  The rules alone are scored on the same rows:
a tune figure, inflated (they were written from these rows), and so is every variant that reads them.

**Older rules on turns they never saw** (``--rules-at``): the rules as they were at an older revision (read
from the repository's history into ``build/``), on tune splits that were still held out when those rules were
written (``--unseen``; rules v7 never saw ``tune-real-5`` and ``-6``, rules v6 none of the real splits but
``tune-real``).  The learned models are trained on every other tune row -- where those rules look better
than they are, as v8 does on today's tune rows -- and every variant is scored on the unseen splits: how a
learned part would change the rules' figures on new turns, with no held-out row read.

``factory`` (``--extractor commitments_learned:factory``, or ``bench.commitments_learned:factory`` with the
repository on the path) builds the learned extractor that reads no rule decision, trained on every tune row, for the bench to score;
``checked_factory`` the rules checked by the learned turn classifiers, trained the same way.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import commitments_general as cg  # noqa: E402
from commitments_general import fold_of, load_tune_rows  # noqa: E402

from daishi_forensics.profile import _frames as fr  # noqa: E402
from daishi_forensics.profile import commitments as rules_module  # noqa: E402
from daishi_forensics.profile.commitments import Commitment, Extracted, HeuristicExtractor  # noqa: E402

GOODS_KINDS = ("trade", "give")
SIDES = ("give", "receive", "none")
REAL_ID = re.compile(r"^(casino/[^/]+/[^/]+)/[^/]+$")
"""A real turn's id, ``casino/<split>/<dialogue>/<turn>``: its group is the dialogue."""


# -- rows ------------------------------------------------------------------------------------

def group_of(row: Mapping[str, Any]) -> str:
    """A real turn's dialogue; any other row is a group of its own."""
    m = REAL_ID.match(str(row["id"]))
    return m.group(1) if m else str(row["id"])


# -- reading a message -----------------------------------------------------------------------

@dataclass(slots=True)
class Mention:
    """One item mention: a named good, or a number or pronoun standing for one."""

    at: int
    """Word index in the message."""
    item: str
    quantity: int | None
    how: str
    """``named``, ``left_out`` or ``pronoun``."""
    clause: int
    """Index of its clause (-1: in none)."""
    walk: str = "none"
    """The side the rules' walk over its clause gives it (``give``, ``receive`` or ``none``)."""


@dataclass(slots=True)
class Reading:
    """What the readers find in one message."""

    words: list[str]
    tags: list[Any]
    clauses: list[Any]
    mentions: list[Mention]
    rules: tuple[Commitment, ...]
    """The rules' extraction."""
    consent: list[bool] = field(default_factory=list)
    """The rules' consent reading of each clause."""
    tables: Tables | None = None
    """The rules' word tables the features read (the rules' own version of them)."""
    tokens: tuple[str, ...] = ()
    """The rules' word tokens of the message (an extraction's ``mentions``)."""


FALLBACKS: Counter[str] = Counter()
"""Where a reader failed and the bench fell back, by step and exception type (:func:`fallbacks_line`): the rule
readers are private, and an older revision's (``--rules-at``) may not read what today's do; a fall-back is
counted, never silent: this bench's own runs print the count last, and an extractor built by :func:`factory` for
another bench counts in the same place."""


def _fell_back(step: str, exc: Exception) -> None:
    FALLBACKS[f"{step} ({type(exc).__name__})"] += 1


def fallbacks_line() -> str:
    """The run's fall-backs in one line: ``readers fell back: none`` or each step's count.

    >>> FALLBACKS.clear(); _fell_back("consent", KeyError("x")); _fell_back("consent", KeyError("y"))
    >>> fallbacks_line()
    'readers fell back: consent (KeyError) 2 times'
    >>> FALLBACKS.clear(); fallbacks_line()
    'readers fell back: none'
    """
    if not FALLBACKS:
        return "readers fell back: none"
    return "readers fell back: " + ", ".join(f"{step} {n} time{'s' if n != 1 else ''}"
                                             for step, n in sorted(FALLBACKS.items()))

@dataclass(frozen=True, slots=True)
class Tables:
    """Word tables of the rules' frames that the features read."""

    verbs: frozenset[str]
    hedges: frozenset[str]
    negations: frozenset[str]
    conditions: frozenset[str]

    @classmethod
    def of(cls, module: Any) -> Tables:
        return cls(module.GIVE_VERBS | module.OFFER_VERBS | module.RECEIVE_VERBS | module.ORDER_VERBS | _VERBS,
                   frozenset(module.HEDGES), frozenset(module.NEGATIONS), frozenset(module.CONDITIONS))


class Reader:
    """The rule extractor's readers for one vocabulary (its tokens, names, clauses and goods)."""

    def __init__(self, vocabulary: Mapping[str, Any], rules: type = HeuristicExtractor,
                 module: Any = rules_module) -> None:
        self.ex = rules(vocabulary)
        self.module = module
        self.tables = Tables.of(module)
        params = inspect.signature(self.ex._names).parameters
        self._two = "raw" in params  # (v7's reads the tokens alone)
        self._text = "text" in params  # (v17's reads the text too, for how a short form is written)

    def read(self, text: str) -> Reading:
        ex, mod = self.ex, self.module
        capped = text[: ex.max_chars]
        try:
            toks = mod.tokens(capped)
            raw = [t[0] for t in toks]
            words, offsets, tags = (ex._names(toks, raw, capped) if self._text else ex._names(toks, raw)
                                    if self._two else ex._names(toks))
            clauses = ex._clauses(words, offsets, tags, len(capped))
            every = ex._global_hits(words, tags)
        except Exception as exc:  # the readers are private: a message they cannot read has no mentions
            _fell_back("names and clauses", exc)
            found = ex.extract(text)
            return Reading([], [], [], [], found.commitments, tables=self.tables, tokens=found.mentions)
        spans = [(c.first, c.first + len(c.words)) for c in clauses]

        def clause_of(at: int) -> int:
            for k, (a, b) in enumerate(spans):
                if a <= at < b:
                    return k
            return -1

        mentions = [Mention(h.at, h.item, h.quantity, "named", clause_of(h.at)) for h in every]
        walk: dict[tuple[int, str], str] = {}
        for k, cl in enumerate(clauses):
            try:
                bare = ex._bare_hits(cl, every)
            except Exception as exc:
                _fell_back("bare mentions", exc)
                bare = []
            seen = {(m.at, m.item) for m in mentions}
            for h in bare:
                at = cl.first + h.at
                if (at, h.item) not in seen:
                    mentions.append(Mention(at, h.item, h.quantity, "pronoun" if h.pronoun else "left_out", k))
            try:
                for seg in ex._alternatives(cl):
                    g = ex._goods(seg, every)
                    if g is None:
                        continue
                    for side, hits in (("give", g.give), ("receive", g.receive)):
                        for h in hits:
                            walk.setdefault((seg.first + h.at, h.item), side)
            except Exception as exc:
                _fell_back("the rules' walk", exc)
        for m in mentions:
            m.walk = walk.get((m.at, m.item), "none")
        mentions.sort(key=lambda m: m.at)
        consent = []
        for cl in clauses:
            try:
                consent.append(bool(mod.accepts(cl.words)) and not cl.question)
            except Exception as exc:
                _fell_back("consent", exc)
                consent.append(False)
        found = ex.extract(text)
        return Reading(words, tags, clauses, mentions, found.commitments, consent, self.tables, found.mentions)


# -- features --------------------------------------------------------------------------------

_PRONOUN_WORDS = frozenset({"i", "we", "you", "me", "us", "my", "your", "our", "mine", "yours", "i'll", "i'd",
                            "i'm", "you'll", "you'd", "we'll", "let's"})
_VERBS = frozenset({"need", "want", "like", "have", "take", "get", "keep", "give", "offer", "trade", "spare", "let",
                    "prefer"})

def _qty_form(m: Mention, words: list[str]) -> str:
    if m.how != "named":
        return m.how
    if m.quantity is None:
        return "none"
    before = words[max(0, m.at - 3):m.at]
    return "digit" if any(w[:1].isdigit() for w in before + words[m.at + 1:m.at + 2]) else "word"


def mention_features(r: Reading, m: Mention, use_rules: bool) -> list[str]:
    """The features of one mention (see the module docstring)."""
    words = r.words
    n = len(words)
    cl = r.clauses[m.clause] if m.clause >= 0 else None
    lo, hi = (cl.first, cl.first + len(cl.words)) if cl is not None else (max(0, m.at - 6), min(n, m.at + 7))
    f = [f"q:{_qty_form(m, words)}", f"how:{m.how}"]
    for d in (-3, -2, -1, 1, 2):
        j = m.at + d
        w = words[j] if 0 <= j < n else ("^" if j < 0 else "$")
        if r.tags and 0 <= j < n and r.tags[j] is not None and r.tags[j][0] == "item":
            w = "<item>"
        f.append(f"w{d}:{w}")
    f.append(f"lb:{words[m.at - 2] if m.at >= 2 else '^'}_{words[m.at - 1] if m.at >= 1 else '^'}")
    for j in range(max(0, m.at - 8), m.at):
        f.append(f"L:{words[j]}")
    for j in range(m.at + 1, min(n, m.at + 8)):
        f.append(f"R:{words[j]}")
    # inside the clause: the nearest pronoun and verb before it, a "for" before or after it
    pron = next((words[j] for j in range(m.at - 1, lo - 1, -1) if words[j] in _PRONOUN_WORDS), "-")
    tb = r.tables or Tables.of(fr)
    verb = next((words[j] for j in range(m.at - 1, lo - 1, -1) if words[j] in tb.verbs), "-")
    f += [f"pron:{pron}", f"verb:{verb}", f"pv:{pron}_{verb}"]
    pron_after = next((words[j] for j in range(m.at + 1, hi) if words[j] in _PRONOUN_WORDS), "-")
    f.append(f"pron_after:{pron_after}")
    for j in range(m.at - 1, lo - 1, -1):
        if words[j] == "for":
            f.append(f"for_before:{min(m.at - j, 4)}")
            break
    if "for" in words[m.at + 1:hi]:
        f.append("for_after")
    clause_words = set(words[lo:hi])
    if m.quantity == 0:
        f.append("q:zero")
    others = sum(1 for o in r.mentions if o.clause == m.clause and o is not m)
    f.append(f"clause_mentions:{min(others, 3)}")
    if cl is not None:
        f.append(f"clause_q:{bool(cl.question)}")
        f.append(f"clause_pos:{'first' if m.clause == 0 else 'later'}")
    end = words[hi] if hi < n else "$"
    f.append(f"clause_end:{end}")
    for name, table in (("hedge", tb.hedges), ("neg", tb.negations), ("cond", tb.conditions)):
        if not clause_words.isdisjoint(table):
            f.append(f"c:{name}")
            before = set(words[lo:m.at])
            if not before.isdisjoint(table):
                f.append(f"c:{name}_before")
    if "?" in words:
        f.append("msg_q")
    same = sum(1 for o in r.mentions if o.item == m.item)
    f.append(f"same_item:{min(same, 3)}")
    f.append(f"mentions:{min(len(r.mentions), 5)}")
    f.append(f"index:{min(r.mentions.index(m), 3)}")
    if use_rules:
        f.append(f"walk:{m.walk}")
        rs = _rule_side(r.rules, m)
        f.append(f"rules:{rs}")
        f.append(f"walk_rules:{m.walk}_{rs}")
    return f


def _rule_side(found: Sequence[Commitment], m: Mention) -> str:
    for c in found:
        if c.kind in GOODS_KINDS:
            if any(i == m.item for i, _ in c.give):
                return "give"
            if any(i == m.item for i, _ in c.receive):
                return "receive"
    return "none"


def turn_features(text: str, r: Reading, use_rules: bool) -> list[str]:
    """The features of one message (both turn classifiers)."""
    low = text[:2000].lower()
    ws = re.findall(r"[a-z0-9]+(?:'[a-z]+)?|[?!.,]", low)
    f = [f"u:{w}" for w in set(ws)]
    f += [f"b:{a}_{b}" for a, b in set(zip(["^", *ws], [*ws, "$"]))]
    f += [f"s:{w}" for w in ws[:3]]
    f.append(f"len:{min(len(ws) // 8, 6)}")
    f.append(f"nq:{min(low.count('?'), 2)}")
    f.append(f"mentions:{min(len(r.mentions), 4)}")
    if r.clauses:
        f.append(f"clauses:{min(len(r.clauses), 4)}")
        f.append(f"last_q:{bool(r.clauses[-1].question)}")
        f.append(f"all_q:{all(c.question for c in r.clauses)}")
    stated = [m for m in r.mentions if m.clause >= 0 and not r.clauses[m.clause].question]
    f.append(f"stated_mentions:{min(len(stated), 3)}")
    if any(m.quantity is not None for m in r.mentions):
        f.append("qty")
    if use_rules:
        kinds = sorted({c.kind for c in r.rules})
        f += [f"rk:{k}" for k in kinds] or ["rk:none"]
        if any(r.consent):
            f.append("consent")
        f += [f"walk:{s}" for s in sorted({m.walk for m in r.mentions})]
    return f


# -- labels ----------------------------------------------------------------------------------

def mention_labels(row: Mapping[str, Any], r: Reading) -> list[str]:
    """The side of each mention in the row's labelled goods commitments: a good on one side is on it; a
    good on both is on the side whose quantity the mention reads; when another mention of the good reads
    the labelled quantity exactly, a mention reading another quantity is on no side."""
    give: dict[str, set[Any]] = defaultdict(set)
    recv: dict[str, set[Any]] = defaultdict(set)
    for c in row["commitments"]:
        if c["kind"] in GOODS_KINDS:
            for k, v in (c.get("give") or {}).items():
                give[k].add(v)
            for k, v in (c.get("receive") or {}).items():
                recv[k].add(v)
    out = []
    for m in r.mentions:
        sides = [s for s, table in (("give", give), ("receive", recv)) if m.item in table]
        if not sides:
            out.append("none")
            continue
        exact = [s for s in sides if m.quantity in (give if s == "give" else recv)[m.item]]
        if exact:
            out.append(exact[0])
            continue
        table = give if sides[0] == "give" else recv
        others_exact = any(o is not m and o.item == m.item and o.quantity in table[m.item] for o in r.mentions)
        out.append("none" if others_exact else sides[0])
    return out


# -- models ----------------------------------------------------------------------------------

class Model:
    """A logistic regression over binary features (kept when seen in two training examples), each example
    scaled to unit length."""

    def __init__(self, C: float = 1.0, min_count: int = 2) -> None:
        self.C, self.min_count = C, min_count
        self.vocab: dict[str, int] = {}
        self.model: Any = None
        self.classes: list[str] = []
        self.constant: str | None = None

    def _matrix(self, feats: Sequence[Sequence[str]]) -> Any:
        from scipy.sparse import csr_matrix
        r, cols, vals = [], [], []
        for a, fs in enumerate(feats):
            js = sorted({self.vocab[g] for g in fs if g in self.vocab})
            s = 1 / math.sqrt(max(1, len(set(fs))))
            for j in js:
                r.append(a)
                cols.append(j)
                vals.append(s)
        return csr_matrix((vals, (r, cols)), shape=(len(feats), len(self.vocab)))

    def fit(self, feats: Sequence[Sequence[str]], y: Sequence[str]) -> Model:
        from sklearn.linear_model import LogisticRegression
        counts = Counter(g for fs in feats for g in set(fs))
        self.vocab = {g: j for j, g in enumerate(sorted(g for g, c in counts.items() if c >= self.min_count))}
        labels = sorted(set(y))
        if len(labels) < 2:
            self.constant = labels[0] if labels else None
            self.classes = labels
            return self
        self.model = LogisticRegression(C=self.C, solver="lbfgs", max_iter=5000, tol=1e-6)
        self.model.fit(self._matrix(feats), list(y))
        self.classes = [str(c) for c in self.model.classes_]
        return self

    def proba(self, feats: Sequence[Sequence[str]]) -> list[dict[str, float]]:
        if not feats:
            return []
        if self.model is None:
            return [{c: 1.0 for c in self.classes} for _ in feats]
        p = self.model.predict_proba(self._matrix(feats))
        return [dict(zip(self.classes, map(float, row))) for row in p]


@dataclass(slots=True)
class Example:
    """One row read, with its features and labels."""

    row: Mapping[str, Any]
    reading: Reading
    mention_feats: dict[bool, list[list[str]]]
    turn_feats: dict[bool, list[str]]
    sides: list[str]
    goods: str
    accept: str


def examples(rows: Sequence[Mapping[str, Any]], rules: type = HeuristicExtractor,
             module: Any = rules_module) -> list[Example]:
    readers: dict[Any, Reader] = {}
    out = []
    for row in rows:
        v = row["vocabulary"]
        key = tuple(tuple(v[f]) for f in ("items", "places", "agents"))
        reader = readers.get(key) or readers.setdefault(key, Reader(v, rules, module))
        r = reader.read(row["text"])
        kinds = {c["kind"] for c in row["commitments"]}
        out.append(Example(
            row, r, {u: [mention_features(r, m, u) for m in r.mentions] for u in (False, True)},
            {u: turn_features(row["text"], r, u) for u in (False, True)}, mention_labels(row, r),
            "yes" if kinds & set(GOODS_KINDS) else "no", "yes" if "accept" in kinds else "no"))
    return out


@dataclass(slots=True)
class Learned:
    """The three classifiers of one variant."""

    mention: Model
    goods: Model
    accept: Model
    use_rules: bool


def train(exs: Sequence[Example], use_rules: bool, C: float = 1.0) -> Learned:
    committing = [e for e in exs if e.goods == "yes"]  # the sides are learned where the turn commits to goods
    mf = [f for e in committing for f in e.mention_feats[use_rules]]
    my = [s for e in committing for s in e.sides]
    return Learned(Model(C).fit(mf, my), Model(C).fit([e.turn_feats[use_rules] for e in exs], [e.goods for e in exs]),
                   Model(C).fit([e.turn_feats[use_rules] for e in exs], [e.accept for e in exs]), use_rules)


@dataclass(slots=True)
class Scores:
    """The learned probabilities of one message."""

    sides: list[dict[str, float]]
    goods: float
    accept: float


def predict_scores(model: Learned, e: Example) -> Scores:
    u = model.use_rules
    sides = model.mention.proba(e.mention_feats[u])
    return Scores(sides, model.goods.proba([e.turn_feats[u]])[0].get("yes", 0.0),
                  model.accept.proba([e.turn_feats[u]])[0].get("yes", 0.0))


def assemble(r: Reading, s: Scores, threshold: float = 0.5) -> list[Commitment]:
    """The learned commitments of a message from its scores (see the module docstring)."""
    out: list[Commitment] = []
    best: dict[str, dict[str, tuple[float, int | None]]] = {"give": {}, "receive": {}}
    for m, p in zip(r.mentions, s.sides):
        side = max(SIDES, key=lambda k: (p.get(k, 0.0), k == "none"))
        if side == "none":
            continue
        prob = p.get(side, 0.0)
        if m.item not in best[side] or prob > best[side][m.item][0]:
            best[side][m.item] = (prob, m.quantity)
    give = tuple(sorted((i, q) for i, (_, q) in best["give"].items()))
    recv = tuple(sorted((i, q) for i, (_, q) in best["receive"].items()))
    trade = False
    if s.goods >= threshold and give:
        trade = bool(recv)
        out.append(Commitment("trade" if trade else "give", give, recv if trade else ()))
    if s.accept >= threshold and not trade:
        out.insert(0, Commitment("accept"))
    return out


# -- the variants ----------------------------------------------------------------------------

def _keys(row: Mapping[str, Any], cs: Sequence[Commitment]) -> list[cg.Key]:
    return [cg.predicted_key(c, row.get("addressee")) for c in cs]


def variants(e: Example, plain: Scores, aware: Scores, threshold: float = 0.5) -> dict[str, list[Commitment]]:
    """Every scored extractor's commitments of one message."""
    r = e.reading
    rules = list(r.rules)
    rules_goods = [c for c in rules if c.kind in GOODS_KINDS]
    rules_other = [c for c in rules if c.kind not in GOODS_KINDS and c.kind != "accept"]
    rules_accept = [c for c in rules if c.kind == "accept"]
    learned_plain = assemble(r, plain, threshold)
    learned_aware = assemble(r, aware, threshold)
    l_goods = [c for c in learned_aware if c.kind in GOODS_KINDS]
    l_accept = [c for c in learned_aware if c.kind == "accept"]
    trade_in = any(c.kind == "trade" for c in rules_goods)
    out = {
        "a rules alone": rules,
        "b learned, no rule readings": learned_plain,
        "b' learned, rule readings as features": learned_aware,
        # the rules' goods and other kinds, the learned accept (none beside a trade)
        "c1 rules goods + learned accept": rules_goods + rules_other + ([] if trade_in else l_accept),
        # the rules' goods and accepts kept where the learned turn classifiers agree
        "c2 rules checked by learned": [c for c in rules_goods if aware.goods >= threshold] + rules_other + (
            [c for c in rules_accept if aware.accept >= threshold]),
        # the rules where they find goods, the learned goods elsewhere; accepts of either
        "c3 rules, else learned": (rules_goods or l_goods) + rules_other + (
            [] if any(c.kind == "trade" for c in (rules_goods or l_goods)) else (rules_accept or l_accept)[:1]),
        # the rules' commitments that the learned extractor without rule readings also finds, term for term
        "c4 rules and learned agree": [c for c in rules if c.kind not in ("accept", *GOODS_KINDS) or any(
            (c.kind, c.give, c.receive) == (x.kind, x.give, x.receive) for x in learned_plain)],
    }
    return out


# -- the extractor the bench can score ---------------------------------------------------------

FACTORY_C = 4.0
FACTORY_THRESHOLD = 0.5
_TRAINED: dict[bool, Learned] = {}


def _trained(use_rules: bool) -> Learned:
    """The variant trained on every tune row (once a process)."""
    if use_rules not in _TRAINED:
        _TRAINED[use_rules] = train(examples(load_tune_rows()), use_rules, FACTORY_C)
    return _TRAINED[use_rules]


class LearnedExtractor:
    """The learned extractor (``trade``, ``give``, ``accept``), trained on every tune row; with
    ``checked``, the rules' extraction kept where the learned turn classifiers agree (variant c2)."""

    name = "daishi-learned"
    max_chars = rules_module.MAX_TEXT_CHARS

    def __init__(self, vocabulary: Mapping[str, Any], checked: bool = False) -> None:
        self.reader = Reader(vocabulary)
        self.checked = checked
        self.version = "1-checked" if checked else "1"
        self.plain = _trained(False)
        self.aware = _trained(True) if checked else None

    def extract(self, text: str) -> Extracted:
        if not isinstance(text, str):
            return Extracted((), False)
        truncated = len(text) > self.max_chars
        try:
            r = self.reader.read(text)
            feats = {u: [mention_features(r, m, u) for m in r.mentions] for u in (False, True)}
            e = Example({"text": text}, r, feats, {u: turn_features(text, r, u) for u in (False, True)}, [], "", "")
            plain = predict_scores(self.plain, e)
            if self.aware is None:
                found = assemble(r, plain, FACTORY_THRESHOLD)
            else:
                found = variants(e, plain, predict_scores(self.aware, e), FACTORY_THRESHOLD)[
                    "c2 rules checked by learned"]
            return Extracted(tuple(found), truncated, r.tokens)
        except Exception as exc:  # an extractor is total
            _fell_back("the learned extractor", exc)
            return Extracted((), truncated)


def factory(vocabulary: Mapping[str, Any]) -> LearnedExtractor:
    """The learned extractor without rule readings (variant b), trained on every tune row."""
    return LearnedExtractor(vocabulary)


def checked_factory(vocabulary: Mapping[str, Any]) -> LearnedExtractor:
    """The rules checked by the learned turn classifiers (variant c2), trained on every tune row."""
    return LearnedExtractor(vocabulary, checked=True)


# -- cross-validation ------------------------------------------------------------------------

def cross_validate(exs: Sequence[Example], k: int, seed: str, C: float,
                   threshold: float = 0.5) -> dict[str, dict[str, list[cg.Key]]]:
    """``{variant: {row id: out-of-fold predicted keys}}``."""
    folds = [fold_of(group_of(e.row), k, seed) for e in exs]
    out: dict[str, dict[str, list[cg.Key]]] = defaultdict(dict)
    for f in range(k):
        train_set = [e for e, g in zip(exs, folds) if g != f]
        test = [e for e, g in zip(exs, folds) if g == f]
        plain, aware = train(train_set, False, C), train(train_set, True, C)
        for e in test:
            for name, cs in variants(e, predict_scores(plain, e), predict_scores(aware, e), threshold).items():
                out[name][e.row["id"]] = _keys(e.row, cs)
    return out


def _fmt(r: cg.Ratio) -> str:
    lo, hi = r.interval or (0.0, 0.0)
    return f"{r.value or 0:.3f} [{lo:.3f}, {hi:.3f}]" if r.trials else "  n/a              "


def table(title: str, rows: Sequence[Mapping[str, Any]], predicted: Mapping[str, Mapping[str, list[cg.Key]]],
          kinds: Sequence[str]) -> list[str]:
    lines = [f"[{title}] {len(rows)} rows, {sum(len(r['commitments']) for r in rows)} labelled commitments"]
    for name, pred in predicted.items():
        s = cg.score(rows, pred)
        t = s.strict
        lines.append(f"  {name:<40} strict P {_fmt(t.precision)} R {_fmt(t.recall)} (tp {t.tp} fp {t.fp} fn {t.fn})")
        for kind in kinds:
            kt = s.per_kind_strict.get(kind, cg.Tally())
            if kt.tp + kt.fp + kt.fn:
                lines.append(f"      {kind:<10} P {_fmt(kt.precision)} R {_fmt(kt.recall)} "
                             f"(tp {kt.tp} fp {kt.fp} fn {kt.fn})")
    return lines


PROFILE_FILES = ("commitments", "_actions", "_consent", "_tokens", "_frames", "vocabulary")
"""The rule modules read at an older revision (the rest of the package is the installed one)."""


def rules_at(revision: str) -> Any:
    """The commitment rules' module as it was at ``revision`` of this repository (written under the
    repository's ``build/`` and imported under a name of its own)."""
    import importlib
    import subprocess
    root = HERE.parent
    full = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", revision + "^{commit}"],
                          check=True, capture_output=True, text=True).stdout.strip()
    name = f"rules_at_{full[:12]}"
    package = root / "build" / "rules-at" / name
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("")
    for module in PROFILE_FILES:
        text = subprocess.run(["git", "-C", str(root), "show", f"{full}:forensics/profile/{module}.py"],
                              check=True, capture_output=True, text=True).stdout
        (package / f"{module}.py").write_text(text)
    if str(package.parent) not in sys.path:
        sys.path.insert(0, str(package.parent))
    return importlib.import_module(f"{name}.commitments")


def time_travel(rows: Sequence[Mapping[str, Any]], module: Any, unseen: Sequence[str], C: float,
                threshold: float) -> tuple[list[dict[str, Any]], dict[str, dict[str, list[cg.Key]]]]:
    """Older rules on the splits they were not written from: the learned models trained on every other tune
    row (the rows the rules were written from, where the rules' readings look better than they are), then
    every variant scored on the ``unseen`` splits' rows, as the learned extractor would meet new turns."""
    exs = examples(rows, module.HeuristicExtractor, module)
    train_set = [e for e in exs if e.row["split"] not in unseen]
    test = [e for e in exs if e.row["split"] in unseen]
    plain, aware = train(train_set, False, C), train(train_set, True, C)
    out: dict[str, dict[str, list[cg.Key]]] = defaultdict(dict)
    for e in test:
        for name, cs in variants(e, predict_scores(plain, e), predict_scores(aware, e), threshold).items():
            out[name][e.row["id"]] = _keys(e.row, cs)
    return [e.row for e in test], out


HELD_OUT_TEXT = ("(d) the rules' tune-fit bias, nothing computed: rules v8 scored on held-out real turns no rule was "
                 "written from: holdout-real-7 strict P 0.667 / R 0.636, holdout-real-4 0.763 / 0.763 (about 0.70 / "
                 "0.69 pooled), against 0.909 / 0.870 on the real tune pool they were written from.")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--folds", type=int, default=5, help="folds, grouped by dialogue (default 5)")
    p.add_argument("--seeds", type=int, default=3, help="repetitions with other fold seeds (default 3)")
    p.add_argument("--C", type=float, default=4.0, help="the logistic regressions' inverse regularisation")
    p.add_argument("--threshold", type=float, default=0.5, help="the turn classifiers' threshold (default 0.5)")
    p.add_argument("--json", type=Path, help="also write the strict figures of every seed as JSON")
    p.add_argument("--rules-at", metavar="REVISION",
                   help="instead of the cross-validation: the rules at an older revision, scored with the learned "
                        "variants on the tune splits those rules were not written from (--unseen)")
    p.add_argument("--unseen", default="tune-real-5,tune-real-6",
                   help="with --rules-at: the splits the older rules were not written from (comma-separated tune "
                        "splits; default tune-real-5,tune-real-6, held out while rules v7 were written)")
    a = p.parse_args(argv)
    started = time.monotonic()
    rows = load_tune_rows()
    if a.rules_at:
        unseen = a.unseen.split(",")
        bad = [s for s in unseen if s not in cg.TUNE_SPLITS]
        if bad:
            p.error(f"--unseen: not a tune split: {', '.join(bad)}")
        module = rules_at(a.rules_at)
        test_rows, predicted = time_travel(rows, module, unseen, a.C, a.threshold)
        print(f"rules version {module.HeuristicExtractor.version} (revision {a.rules_at}); learned models trained "
              f"on the {len(rows) - len(test_rows)} tune rows outside {', '.join(unseen)}; C {a.C}; "
              f"threshold {a.threshold}\n")
        print("\n".join(table(f"{' + '.join(unseen)}, unseen by these rules (tune splits now)", test_rows,
                              predicted, cg.KINDS)))
        print(fallbacks_line())
        print(f"\nrun time {time.monotonic() - started:.1f} s")
        return 0
    exs = examples(rows)
    real = [r for r in rows if r["split"] in cg.REAL_TUNE_SPLITS]
    tune = [r for r in rows if r["split"] == "tune"]
    print(f"tune rows only: {len(rows)} ({len(real)} in the real tune pool {', '.join(cg.REAL_TUNE_SPLITS)}; "
          f"{len(tune)} in tune); mentions {sum(len(e.reading.mentions) for e in exs)}; "
          f"groups {len({group_of(r) for r in rows})}; {a.folds} folds grouped by dialogue; C {a.C}; "
          f"threshold {a.threshold}")
    print(f"every figure below: tune rows, out-of-fold.  (a) is rules v{HeuristicExtractor.version} alone, written from "
          "these very rows: a tune figure, inflated; so is every variant that reads the rules (b', c1-c4).  Only (b) "
          "reads no rule's decision (the rules' mention readers aside).")
    summary: dict[str, Any] = {}
    for s in range(1, a.seeds + 1):
        seed = f"learned-cv-{s}"
        predicted = cross_validate(exs, a.folds, seed, a.C, a.threshold)
        if s == 1:
            print()
            print("\n".join(table("real tune pool, out-of-fold, seed 1", real, predicted, cg.KINDS)))
            print()
            print("\n".join(table("tune split (non-pool tune rows), out-of-fold, seed 1", tune, predicted, cg.KINDS)))
            print()
            print("strict P / R by fold seed (real tune pool | tune split), out-of-fold:")
        for name, pred in predicted.items():
            a_ = cg.score(real, pred).strict
            b_ = cg.score(tune, pred).strict
            summary.setdefault(name, []).append({"seed": seed, "pool": a_.to_json(), "tune": b_.to_json()})
            print(f"  {seed} {name:<40} {a_.precision.value or 0:.3f} / {a_.recall.value or 0:.3f} | "
                  f"{b_.precision.value or 0:.3f} / {b_.recall.value or 0:.3f}")
    print()
    print(HELD_OUT_TEXT)
    print(fallbacks_line())
    print(f"\nrun time {time.monotonic() - started:.1f} s")
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
