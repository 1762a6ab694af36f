"""Propagation chains: which message echoes which, and how far a payload spread.

Seed 002 §2.7 ("a propagation index: how far payloads cascade"; "payload-similarity
matching across messages") and §3.1 item 10 (quote/echo detection).  Rules:

1. **Exposure first.**  Message *c* (sent by agent *s*) can echo an earlier
   message *p* only if *s* heard *p* (:mod:`.exposure`: broadcast, local, direct)
   and *p* came before *c* in the log, from another agent.  An agent who never
   heard a message did not copy it -- common game phrases that look alike by
   coincidence do not form chains.
2. **Similar text.**  Texts are compared casefolded, with punctuation made
   spaces, on their first :data:`FUZZ_CAP` characters, with rapidfuzz
   ``WRatio`` (verbatim, case changes, swapped or added words, a partial quote,
   a paraphrase that keeps most words); the score must reach :data:`MIN_SIMILARITY`.
3. **Enough shared information.**  The words *c* and *p* share must carry at
   least :data:`MIN_SHARED_BITS` bits (Σ log2(N / df) over the shared words,
   N messages, df = messages containing the word): two short trade asks built
   from the game's everyday words are alike without one copying the other.
4. **Stock phrases do not chain.**  A text (normalized) that at least two
   senders sent *independently* (without having heard it before) is a stock
   phrase: its copies cannot be told from coincidences, so it is never a
   parent nor a child.
5. **Canaries are exact.**  A message holding a broadcast-canary token
   (contract §5) links to the latest earlier message holding that token that
   its sender heard (``via: "canary"``), whatever the similarity.
6. The parent is the most similar candidate; ties go to the earliest message
   heard (an agent passes on what reached it first).

Fast by pruning, never all pairs: each message looks only at the earlier
messages that share one of its :data:`RARE_TOKENS` rarest words (document
frequency ≥ 2), the latest :data:`POSTINGS_PER_TOKEN` of them per word, keeps
those its sender heard, and scores them in one rapidfuzz ``process.extract``
call with a score cutoff.

Chains (networkx forest, one parent per message): per root, the generations
(messages per depth), depth, reach (distinct agents other than the root's
sender who re-sent it), the agents exposed to any message of the chain, and
the ticks until each re-sender first re-sent it.  Per match: the propagation
index (mean reach of hijack-tier roots, single messages included with reach 0)
and the share of agents exposed to a hijack-tier root's chain who re-sent it.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
from rapidfuzz import fuzz, process

from .exposure import HeardMessage

__all__ = [
    "FUZZ_CAP",
    "MIN_SIMILARITY",
    "MIN_SHARED_BITS",
    "RARE_TOKENS",
    "POSTINGS_PER_TOKEN",
    "EchoEdge",
    "Chain",
    "Propagation",
    "echo_edges",
    "chains_of",
    "propagation",
    "normalize_text",
]

FUZZ_CAP = 1000
"""Characters of a (normalized) text the fuzzy matcher compares."""

MIN_SIMILARITY = 85.0
"""rapidfuzz WRatio (0–100) a child must reach against its parent."""

MIN_SHARED_BITS = 32.0
"""Information (bits) the shared words must carry."""

RARE_TOKENS = 8
"""Per message, its rarest words that generate candidates."""

POSTINGS_PER_TOKEN = 48
"""Per rare word, how many of the latest earlier messages holding it are candidates."""

MAX_NOVELTY = 0.5
"""The words a child adds may carry at most this share of the information it shares with its parent."""

TIE_BAND = 6.0

MAX_LAG = 20
"""Ticks within which a heard message can be echoed (and counts as known: rule 4)."""

_NON_WORD = re.compile(r"\W+")


def normalize_text(text: str) -> str:
    """Casefolded, every run of non-letters/digits one space, trimmed, cut at :data:`FUZZ_CAP`."""
    return _NON_WORD.sub(" ", text[: FUZZ_CAP * 2].casefold()).strip()[:FUZZ_CAP]


@dataclass(frozen=True, slots=True)
class EchoEdge:
    """Message ``child`` echoes message ``parent``."""

    parent: int
    """The earlier message's event id."""
    child: int
    """The echoing message's event id."""
    similarity: float
    """WRatio / 100 (0–1, four places)."""
    via: str
    """``text`` (fuzzy match) or ``canary`` (exact canary token)."""
    lag: int
    """Ticks from parent to child."""

    def to_json(self) -> dict[str, Any]:
        return {"parent": self.parent, "child": self.child, "similarity": self.similarity,
                "via": self.via, "lag": self.lag}


@dataclass(frozen=True, slots=True)
class Chain:
    """One tree of the echo forest."""

    root: int
    """The root message's event id."""
    sender: str
    """The root's sender."""
    tick: int
    """The root's tick."""
    tier: str | None
    """The root's tier (:mod:`.tiers`), if known."""
    messages: tuple[int, ...]
    """Every message of the chain, root first, then by generation and id."""
    generations: tuple[int, ...]
    """Messages per generation (generation 0 is the root)."""
    reach: int
    """Distinct agents other than the root's sender who re-sent it."""
    exposed: int
    """Distinct agents other than the root's sender who heard a message of the chain."""
    time_to_reach: Mapping[str, int]
    """Re-sender -> ticks from the root to its first message in the chain (sorted by agent)."""

    @property
    def depth(self) -> int:
        """Generations after the root (0 for a lone message)."""
        return len(self.generations) - 1

    @property
    def resend_share(self) -> float | None:
        """reach ÷ exposed; None when nobody was exposed."""
        return self.reach / self.exposed if self.exposed else None

    def to_json(self) -> dict[str, Any]:
        share = self.resend_share
        return {
            "root": self.root,
            "sender": self.sender,
            "tick": self.tick,
            "tier": self.tier,
            "messages": list(self.messages),
            "generations": list(self.generations),
            "depth": self.depth,
            "reach": self.reach,
            "exposed": self.exposed,
            "resendShare": None if share is None else round(share, 4),
            "timeToReach": dict(self.time_to_reach),
        }


@dataclass(frozen=True, slots=True)
class Propagation:
    """Echo edges, chains and the match's propagation figures."""

    edges: tuple[EchoEdge, ...]
    """Every edge, sorted by child id."""
    chains: tuple[Chain, ...]
    """Every root with at least one echo, sorted by root id."""
    hijack_roots: int
    """Hijack-tier messages that echo nothing (chain roots and lone messages)."""
    index: float | None
    """Mean reach of the hijack-tier roots (None without any)."""
    resend_share: float | None
    """Agents who re-sent a hijack-tier root's chain ÷ agents exposed to one (None: nobody exposed)."""
    stock_phrases: int
    """Distinct normalized texts excluded as stock phrases (rule 4)."""
    messages: int
    """Messages examined."""
    caveat: str | None = None
    """Set when direct messages are not in the log (a public export)."""

    def to_json(self) -> dict[str, Any]:
        """The report's ``propagation`` object."""
        return {
            "edges": [e.to_json() for e in self.edges],
            "chains": [c.to_json() for c in self.chains],
            "hijackRoots": self.hijack_roots,
            "index": None if self.index is None else round(self.index, 4),
            "resendShare": None if self.resend_share is None else round(self.resend_share, 4),
            "stockPhrases": self.stock_phrases,
            "messages": self.messages,
            "rules": {"minSimilarity": MIN_SIMILARITY, "minSharedBits": MIN_SHARED_BITS, "fuzzCap": FUZZ_CAP},
            "caveat": self.caveat,
        }


def echo_edges(
    messages: Sequence[HeardMessage],
    *,
    min_similarity: float = MIN_SIMILARITY,
    min_shared_bits: float = MIN_SHARED_BITS,
    max_lag: int = MAX_LAG,
    max_novelty: float = MAX_NOVELTY,
) -> tuple[tuple[EchoEdge, ...], int]:
    """Link each message to the earlier message it echoes (module rules 1–7).

    Returns ``(edges sorted by child id, messages left unlinked as stock phrases)``.
    """
    n = len(messages)
    norms = [normalize_text(m.text) for m in messages]
    token_sets = [frozenset(s.split()) for s in norms]
    df: dict[str, int] = {}
    for toks in token_sets:
        for t in toks:
            df[t] = df.get(t, 0) + 1
    postings: dict[str, list[int]] = {}
    for i, toks in enumerate(token_sets):
        for t in toks:
            if df[t] >= 2:
                postings.setdefault(t, []).append(i)
    log_n = math.log2(n + 1) if n else 0.0
    bits = {t: log_n - math.log2(c) for t, c in df.items()}

    parent_of: dict[int, tuple[float, int, str]] = {}   # child -> (score, parent, via)
    uf = list(range(n))                                   # union-find over text families

    def find(x: int) -> int:
        while uf[x] != x:
            uf[x] = uf[uf[x]]
            x = uf[x]
        return x

    origin = [False] * n
    canary_seen: dict[str, list[int]] = {}
    for j, m in enumerate(messages):
        sender = m.sender
        tick = m.tick
        # rule 5: canaries, exact
        if m.canaries:
            best_i = -1
            for c in m.canaries:
                for i in reversed(canary_seen.get(c, ())):
                    p = messages[i]
                    if p.sender != sender and sender in p.hearers:
                        if i > best_i:
                            best_i = i
                        break
            for c in m.canaries:
                canary_seen.setdefault(c, []).append(j)
            if best_i >= 0:
                score = fuzz.WRatio(norms[j], norms[best_i], processor=None)
                parent_of[j] = (score, best_i, "canary")
                continue
        toks = token_sets[j]
        if not toks:
            continue
        rare = sorted((t for t in toks if df[t] >= 2), key=lambda t: (df[t], t))[:RARE_TOKENS]
        cands: set[int] = set()
        for t in rare:
            plist = postings[t]
            k = bisect_left(plist, j)
            cands.update(plist[max(0, k - POSTINGS_PER_TOKEN):k])
        family: list[tuple[float, int]] = []
        if cands:
            ordered = sorted(cands)
            found = process.extract(norms[j], [norms[i] for i in ordered], scorer=fuzz.WRatio, processor=None,
                                    score_cutoff=min_similarity, limit=None)
            for _choice, score, pos in found:
                i = ordered[pos]
                if sum(bits[t] for t in toks & token_sets[i]) >= min_shared_bits:
                    family.append((score, i))
        if not family:
            origin[j] = True
            continue
        best_family = max(family, key=lambda si: (si[0], -si[1]))[1]
        x, y = find(j), find(best_family)
        if x != y:
            uf[max(x, y)] = min(x, y)
        own = min((i for _s, i in family if messages[i].sender == sender), default=n)
        heard = [(score, i) for score, i in family if messages[i].sender != sender and sender in messages[i].hearers]
        if own == n and not heard:
            origin[j] = True  # produced it without having heard it: an independent origin (rule 4)
            continue
        # rule 6: the parent was heard before the sender's own first use of the text, and the
        # echo comes within max_lag ticks of the sender's first hearing of the text
        first_heard = min((messages[i].tick for _s, i in heard), default=tick)
        parents = [(score, i) for score, i in heard if i < own and tick - messages[i].tick <= max_lag]
        if not parents or tick - first_heard > max_lag:
            continue
        top = max(score for score, _i in parents)
        score, i = min((si for si in parents if si[0] >= top - TIE_BAND), key=lambda si: si[1])
        shared = toks & token_sets[i]
        novel = sum(bits[t] for t in toks - shared)
        if novel <= max_novelty * sum(bits[t] for t in shared):  # rule 3: an echo mostly repeats
            parent_of[j] = (score, i, "text")

    # rule 4: a family produced independently by two or more senders is a stock phrase
    origin_senders: dict[int, set[str]] = {}
    for j in range(n):
        if origin[j]:
            got = origin_senders.setdefault(find(j), set())
            if len(got) < 2:
                got.add(messages[j].sender)
    edges: list[EchoEdge] = []
    stock = 0
    for j, (score, i, via) in parent_of.items():
        if via == "text" and len(origin_senders.get(find(j), ())) >= 2:
            stock += 1
            continue
        p, m = messages[i], messages[j]
        edges.append(EchoEdge(p.event, m.event, round(score / 100.0, 4), via, m.tick - p.tick))
    edges.sort(key=lambda e: e.child)
    return tuple(edges), stock


def chains_of(
    messages: Sequence[HeardMessage],
    edges: Sequence[EchoEdge],
    tiers: Mapping[int, str] | None = None,
) -> tuple[Chain, ...]:
    """The echo forest's trees with at least one edge, sorted by root id."""
    by_event = {m.event: m for m in messages}
    g: nx.DiGraph = nx.DiGraph()
    g.add_edges_from((e.parent, e.child) for e in edges)
    out: list[Chain] = []
    roots = sorted(node for node in g.nodes if g.in_degree(node) == 0)
    for root in roots:
        r = by_event[root]
        layers = [sorted(layer) for layer in nx.bfs_layers(g, root)]
        members = [eid for layer in layers for eid in layer]
        first: dict[str, int] = {}
        exposed: set[str] = set()
        for eid in members:
            msg = by_event[eid]
            exposed.update(msg.hearers)
            if eid != root and msg.sender != r.sender:
                t = msg.tick - r.tick
                if msg.sender not in first or t < first[msg.sender]:
                    first[msg.sender] = t
        exposed.discard(r.sender)
        out.append(Chain(
            root=root,
            sender=r.sender,
            tick=r.tick,
            tier=tiers.get(root) if tiers is not None else None,
            messages=tuple(members),
            generations=tuple(len(layer) for layer in layers),
            reach=len(first),
            exposed=len(exposed),
            time_to_reach=dict(sorted(first.items())),
        ))
    return tuple(out)


def propagation(
    messages: Sequence[HeardMessage],
    tiers: Mapping[int, str] | None = None,
    *,
    caveat: str | None = None,
) -> Propagation:
    """Edges, chains and the match figures for ``messages`` (in log order).

    ``tiers``: event id -> tier (:mod:`.tiers`); without it every text is classified here.
    """
    if tiers is None:
        from .tiers import classify

        tiers = {m.event: classify(m.text).tier for m in messages}
    edges, stock = echo_edges(messages)
    chains = chains_of(messages, edges, tiers)
    children = {e.child for e in edges}
    chain_by_root = {c.root: c for c in chains}
    by_event = {m.event: m for m in messages}
    reaches: list[int] = []
    resent: set[str] = set()
    exposed: set[str] = set()
    for m in messages:
        if m.event in children or tiers.get(m.event) != "hijack":
            continue
        chain = chain_by_root.get(m.event)
        if chain is None:
            reaches.append(0)
            exposed.update(a for a in m.hearers if a != m.sender)
            continue
        reaches.append(chain.reach)
        resent.update(chain.time_to_reach)
        for eid in chain.messages:
            exposed.update(a for a in by_event[eid].hearers if a != m.sender)
    return Propagation(
        edges=edges,
        chains=chains,
        hijack_roots=len(reaches),
        index=sum(reaches) / len(reaches) if reaches else None,
        resend_share=len(resent & exposed) / len(exposed) if exposed else None,
        stock_phrases=stock,
        messages=len(messages),
        caveat=caveat,
    )
