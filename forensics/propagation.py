"""Propagation chains: which message echoes which, and how far a payload spread.

Seed 002 §2.7 ("a propagation index: how far payloads cascade"; "payload-similarity
matching across messages") and §3.1 item 10 (quote/echo detection).  A message
*c* from agent *s* echoes an earlier message *p* when:

1. **Exposure.**  *s* heard *p* (:mod:`.exposure`: broadcast, local, direct), *p*
   came earlier in the log, from another agent.  An agent who never heard a
   message did not copy it.
2. **Similar text.**  On texts casefolded with punctuation made spaces (first
   :data:`FUZZ_CAP` characters): rapidfuzz ``ratio`` ≥ :data:`MIN_SIMILARITY`
   (verbatim, case changes, a changed or swapped word), or the words of one are
   all words of the other, at least :data:`MIN_QUOTE_WORDS` of them (a partial
   quote, added words, reordered words).
3. **Enough shared information.**  The shared words carry at least
   :data:`MIN_SHARED_BITS` bits (Σ log2((N + 1 + :data:`PRIOR_MESSAGES`) / df): N
   messages, df = messages holding the word); the words *c* adds carry at most
   :data:`MAX_NOVELTY` times that (an echo mostly repeats); and words both dropped
   and put in their place at most :data:`MAX_CHANGE` times that (an echo adds words
   or quotes a part; two trade asks that differ in the goods and the region are
   alike without one copying the other).
4. **Stock phrases do not chain.**  Similar texts form families (union-find).
   A family that two or more senders produced *independently* -- without having
   heard any of it and without having said it before -- is a stock phrase: its
   copies cannot be told from coincidences, so none of its messages gets a
   text parent (the decoy "anyone trading wood for ore?" said by agents who never
   heard each other is one).
5. **Canaries are exact.**  A message holding a broadcast-canary token (contract
   §5) links to the latest earlier message holding that token that its sender
   heard (``via: "canary"``), whatever else holds.
6. **Timing.**  The echo comes at most :data:`MAX_LAG` ticks after *p*, at most
   :data:`MAX_LAG` ticks after *s* first heard any message of the family (counting
   only ticks *s* was awake: a dormant agent cannot pass anything on), and
   before *s* had itself used the text; of the messages that qualify, the
   parent is the first one *s* heard (an agent passes on what reached it first).

Fast by pruning, never all pairs: a message looks only at earlier messages that
share one of its :data:`RARE_TOKENS` rarest words (document frequency ≥ 2): per
word, the first and the latest :data:`POSTINGS_PER_TOKEN` within the lag window and
:data:`OLDER_PER_TOKEN` before it; identical texts are scored once, in one
rapidfuzz ``process.extract`` call with a score cutoff.  Edges report the
rapidfuzz ``WRatio`` similarity (0–1).

Chains (networkx forest, one parent per message): per root, the generations
(messages per depth), depth, reach (distinct agents other than the root's
sender who re-sent it), the agents exposed to any message of the chain, and the
ticks until each re-sender first re-sent it.  Per match: the propagation index
(mean reach of hijack-tier roots, lone messages included with reach 0) and the
share of agents exposed to a hijack-tier root's chain who re-sent it.
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
    "PRIOR_MESSAGES",
    "MAX_NOVELTY",
    "MAX_CHANGE",
    "MAX_LAG",
    "MIN_QUOTE_WORDS",
    "RARE_TOKENS",
    "POSTINGS_PER_TOKEN",
    "OLDER_PER_TOKEN",
    "EchoEdge",
    "Chain",
    "Propagation",
    "echo_edges",
    "chains_of",
    "propagation",
    "normalize_text",
    "chain_nodes",
    "tree_text",
]

FUZZ_CAP = 1000
"""Characters of a (normalized) text the fuzzy matcher compares."""

MIN_SIMILARITY = 85.0
"""rapidfuzz ``ratio`` (0–100) a child must reach against its parent, unless one's
words all occur in the other (rule 2)."""

MIN_SHARED_BITS = 32.0
"""Information (bits) the shared words must carry."""

PRIOR_MESSAGES = 64
"""Messages assumed besides the match's when a word's information is measured
(log2((N + 1 + 64) / df)): a small match says little about which words are rare."""

RARE_TOKENS = 4
"""Per message, its rarest words (document frequency ≥ 2) that generate candidates."""

POSTINGS_PER_TOKEN = 12
"""Per rare word, how many of the first and of the latest earlier messages holding it within
the lag window are candidates."""

OLDER_PER_TOKEN = 4
"""Per rare word, how many messages before the lag window are looked at too (old acquaintance, rule 6)."""

MIN_QUOTE_WORDS = 5
"""A text whose words all occur in another (a partial quote, added or swapped words) is
similar to it when it has at least this many distinct words."""

MAX_NOVELTY = 0.5
"""The words a child adds may carry at most this share of the information it shares with its parent."""

MAX_CHANGE = 0.15
"""Words both dropped from the parent and put in their place (a substitution) may carry at most
this share of the shared information: an echo adds words or quotes a part, it does not swap
the specifics (two trade asks that differ in the goods and the region are not copies)."""

MAX_LAG = 20
"""Ticks within which a heard message can be echoed (rule 6)."""

_NON_WORD = re.compile(r"\W+")


def normalize_text(text: str) -> str:
    """Casefolded, every run of non-word characters one space (letters, digits and ``_`` stay:
    a region id is one word), trimmed, cut at :data:`FUZZ_CAP` characters."""
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
            "rules": {"minSimilarity": MIN_SIMILARITY, "minSharedBits": MIN_SHARED_BITS,
                      "maxNovelty": MAX_NOVELTY, "maxLag": MAX_LAG, "minQuoteWords": MIN_QUOTE_WORDS,
                      "fuzzCap": FUZZ_CAP},
            "caveat": self.caveat,
        }


def echo_edges(
    messages: Sequence[HeardMessage],
    *,
    min_similarity: float = MIN_SIMILARITY,
    min_shared_bits: float = MIN_SHARED_BITS,
    max_lag: int = MAX_LAG,
    max_novelty: float = MAX_NOVELTY,
    max_change: float = MAX_CHANGE,
    dormancy: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> tuple[tuple[EchoEdge, ...], int]:
    """Link each message to the earlier message it echoes (module rules 1–7).

    ``dormancy``: agent -> its dormant spans ``(from, to)`` (:attr:`Exposure.dormancy`);
    delays are counted in ticks the echoing agent was awake.  Returns ``(edges sorted by
    child id, echoes left unlinked because their text is a stock phrase)``.
    """
    asleep = {a: sorted(spans) for a, spans in (dormancy or {}).items() if spans}

    def window_start(agent: str, stop: int) -> int:
        """The earliest tick t with at most ``max_lag`` awake ticks of ``agent`` in ``[t, stop)``."""
        spans = asleep.get(agent)
        remaining, cursor = max_lag, stop
        for a, b in reversed(spans or ()):
            if a >= cursor:
                continue
            if b < cursor:
                if cursor - b > remaining:
                    return cursor - remaining
                remaining -= cursor - b
            cursor = a
        return cursor - remaining

    def awake(agent: str, start: int, stop: int) -> int:
        """Ticks in ``[start, stop)`` during which ``agent`` was not dormant."""
        spans = asleep.get(agent)
        lag = stop - start
        if not spans or lag <= 0:
            return lag
        k = bisect_left(spans, (start, start)) - 1
        for a, b in spans[max(k, 0):]:
            if a >= stop:
                break
            lag -= max(0, min(b, stop) - max(a, start))
        return lag

    n = len(messages)
    norms = [normalize_text(m.text) for m in messages]
    token_sets = [frozenset(s.split()) for s in norms]
    text_id: dict[str, int] = {}
    norm_ids = [text_id.setdefault(s, len(text_id)) for s in norms]
    ticks = [m.tick for m in messages]
    df: dict[str, int] = {}
    for toks in token_sets:
        for t in toks:
            df[t] = df.get(t, 0) + 1
    postings: dict[str, list[int]] = {}
    for i, toks in enumerate(token_sets):
        for t in toks:
            if df[t] >= 2:
                postings.setdefault(t, []).append(i)
    log_n = math.log2(n + 1 + PRIOR_MESSAGES)
    bits = {t: log_n - math.log2(c) for t, c in df.items()}
    rank = {t: r for r, t in enumerate(sorted(postings, key=lambda t: (df[t], t)))}
    ratio = fuzz.ratio

    parent_of: dict[int, tuple[int, str]] = {}   # child -> (parent, via)
    uf = list(range(n))                           # union-find over text families (rule 4)

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
                        best_i = max(best_i, i)
                        break
            for c in m.canaries:
                canary_seen.setdefault(c, []).append(j)
            if best_i >= 0:
                parent_of[j] = (best_i, "canary")
                continue
        toks = token_sets[j]
        if not toks:
            continue
        # candidates: earlier messages sharing one of the rarest words -- the latest within
        # the lag window, and a few older ones (enough to see an old acquaintance with the text)
        lo = bisect_left(ticks, window_start(sender, tick), 0, j)
        rare = sorted((t for t in toks if t in rank), key=rank.__getitem__)[:RARE_TOKENS]
        cands: set[int] = set()
        for t in rare:
            plist = postings[t]
            end = bisect_left(plist, j)
            start = bisect_left(plist, lo, 0, end)
            if end - start <= 2 * POSTINGS_PER_TOKEN:
                cands.update(plist[start:end])
            else:  # the first ones in the window (first heard) and the latest ones
                cands.update(plist[start:start + POSTINGS_PER_TOKEN])
                cands.update(plist[end - POSTINGS_PER_TOKEN:end])
            if start:
                cands.update(plist[max(0, start - OLDER_PER_TOKEN):start])
        family: list[int] = []
        if cands:
            first_of: dict[int, int] = {}
            for i in cands:
                first_of.setdefault(norm_ids[i], i)  # identical texts are scored once
            keys = list(first_of)
            close = {pos for _c, _s, pos in process.extract(
                norms[j], [norms[first_of[k]] for k in keys], scorer=ratio, processor=None,
                score_cutoff=min_similarity, limit=None)}
            ok: set[int] = set()
            n_j = len(toks)
            for pos, key in enumerate(keys):
                other = token_sets[first_of[key]]
                # close by ratio, or a partial quote / added or swapped words: one word set in the other
                if pos in close or (min(n_j, len(other)) >= MIN_QUOTE_WORDS and (toks <= other or other <= toks)):
                    if sum(bits[t] for t in toks & other) >= min_shared_bits:
                        ok.add(key)
            family = [i for i in cands if norm_ids[i] in ok]
        if not family:
            origin[j] = True
            continue
        x, y = find(j), find(max(family))
        if x != y:
            uf[max(x, y)] = min(x, y)
        own = min((i for i in family if messages[i].sender == sender), default=n)
        heard = [i for i in family if messages[i].sender != sender and sender in messages[i].hearers]
        if own == n and not heard:
            origin[j] = True  # produced it without having heard it: an independent origin (rule 4)
            continue
        # rule 6: heard before the sender's own first use of the text; the echo comes within
        # max_lag ticks of the sender's first hearing of it; the parent is the first one heard
        if not heard or awake(sender, ticks[min(heard)], tick) > max_lag:
            continue
        if own != n:
            continue  # it had used the text itself already: a repeat of its own, not a new echo
        parents = [i for i in heard if awake(sender, ticks[i], tick) <= max_lag]
        if not parents:
            continue
        i = min(parents)
        other = token_sets[i]
        shared_bits = sum(bits[t] for t in toks & other)
        added = sum(bits[t] for t in toks - other)
        dropped = sum(bits[t] for t in other - toks)
        # rule 3: an echo mostly repeats, and keeps the parent's words or quotes part of them
        if added <= max_novelty * shared_bits and min(added, dropped) <= max_change * shared_bits:
            parent_of[j] = (i, "text")

    # rule 4: a family produced independently by two or more senders is a stock phrase
    origin_senders: dict[int, set[str]] = {}
    for j in range(n):
        if origin[j]:
            got = origin_senders.setdefault(find(j), set())
            if len(got) < 2:
                got.add(messages[j].sender)
    edges: list[EchoEdge] = []
    stock = 0
    for j, (i, via) in parent_of.items():
        if via == "text" and len(origin_senders.get(find(j), ())) >= 2:
            stock += 1
            continue
        p, m = messages[i], messages[j]
        score = fuzz.WRatio(norms[j], norms[i], processor=None)
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
    dormancy: Mapping[str, Sequence[tuple[int, int]]] | None = None,
) -> Propagation:
    """Edges, chains and the match figures for ``messages`` (in log order).

    ``tiers``: event id -> tier (:mod:`.tiers`); without it every text is classified here.
    """
    if tiers is None:
        from .tiers import classify

        tiers = {m.event: classify(m.text).tier for m in messages}
    edges, stock = echo_edges(messages, dormancy=dormancy)
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


# --------------------------------------------------------------------------- output

SNIPPET = 72
"""Characters of a message shown in the text tree."""


def _snippet(text: str, scrub_text: bool) -> str:
    head = text[: SNIPPET * 3]
    if scrub_text:
        from .secrets import scrub

        head = scrub(head)
    head = "".join(ch if ch.isprintable() else " " for ch in head)
    head = " ".join(head.split())
    return head if len(head) <= SNIPPET else head[: SNIPPET - 1] + "\u2026"


def chain_nodes(
    chain: Chain, messages: Sequence[HeardMessage], edges: Sequence[EchoEdge], *, scrub_text: bool = True
) -> list[dict[str, Any]]:
    """The messages of one chain as JSON records (root first, then by generation and id).

    Each: ``event``, ``parent``, ``generation``, ``sender``, ``tick``, ``channel``,
    ``similarity``, ``via``, ``text`` (a snippet, scrubbed unless ``scrub_text`` is False).
    """
    by_event = {m.event: m for m in messages}
    parent = {e.child: e for e in edges}
    depth: dict[int, int] = {chain.root: 0}
    out = []
    for eid in chain.messages:
        e = parent.get(eid)
        if e is not None:
            depth[eid] = depth.get(e.parent, 0) + 1
        m = by_event[eid]
        out.append({
            "event": eid,
            "parent": None if e is None or eid == chain.root else e.parent,
            "generation": depth.get(eid, 0),
            "sender": m.sender,
            "tick": m.tick,
            "channel": m.channel if m.to is None else f"private to {m.to}",
            "similarity": None if e is None or eid == chain.root else e.similarity,
            "via": None if e is None or eid == chain.root else e.via,
            "text": _snippet(m.text, scrub_text),
        })
    return out


def tree_text(
    prop: Propagation,
    messages: Sequence[HeardMessage],
    *,
    scrub_text: bool = True,
    min_reach: int = 0,
    tiers: Sequence[str] | None = None,
) -> str:
    """The chains as an indented text tree, one line per message (scrubbed snippets by default).

    Only chains that reached at least ``min_reach`` agents and, if ``tiers`` is given,
    whose root has one of those tiers.
    """
    lines = [
        f"{prop.messages} messages, {len(prop.edges)} echo edges, {len(prop.chains)} chains; "
        f"propagation index {'-' if prop.index is None else round(prop.index, 4)} "
        f"({prop.hijack_roots} hijack-tier roots), resend share "
        f"{'-' if prop.resend_share is None else round(prop.resend_share, 4)}; "
        f"{prop.stock_phrases} echoes of stock phrases not linked",
    ]
    if prop.caveat:
        lines.append(f"note: {prop.caveat}")
    for chain in prop.chains:
        if chain.reach < min_reach or (tiers is not None and chain.tier not in tiers):
            continue
        lines.append("")
        lines.append(
            f"chain {chain.root}  tier {chain.tier or '?'}  reach {chain.reach}  depth {chain.depth}  "
            f"exposed {chain.exposed}  generations {'/'.join(str(g) for g in chain.generations)}"
        )
        nodes = chain_nodes(chain, messages, prop.edges, scrub_text=scrub_text)
        children: dict[int, list[dict[str, Any]]] = {}
        for node in nodes[1:]:
            children.setdefault(node["parent"], []).append(node)

        def walk(node: dict[str, Any], prefix: str, last: bool, top: bool) -> None:
            branch = "" if top else ("\u2514\u2500 " if last else "\u251c\u2500 ")
            sim = "" if node["similarity"] is None else f"  {node['via']} {node['similarity']:.2f}"
            lines.append(
                f"{prefix}{branch}{node['event']}  t{node['tick']}  {node['sender']}  {node['channel']}{sim}  "
                f"\"{node['text']}\""
            )
            kids = children.get(node["event"], [])
            for k, kid in enumerate(kids):
                walk(kid, prefix + ("" if top else ("   " if last else "\u2502  ")), k == len(kids) - 1, False)

        walk(nodes[0], "  ", True, True)
    return "\n".join(lines) + "\n"
