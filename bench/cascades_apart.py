#!/usr/bin/env python3
"""A generator of Daishi matches with forwarded-chat cascades and their truth, written apart from the tool.

    python bench/cascades_apart.py --out DIR --seed N [--agents 12] [--ticks 200] [--meta-out META]
    python bench/labelled_cascades.py DIR        # the propagation edges measured against its truth

Written apart from daishi-forensics, as another simulator of the same export format would be: its writer
read only the format's description (``docs/input-format.md``), the JSON Schemas and the truth-file format in
``bench/labelled_cascades.py``'s docstring, ran only ``validate`` on its output, and read none of the tool's code,
its own cascade generator or the other benchmarks.  So its
cascades are not shaped by what the propagation rules read, which is what it is for: the propagation
figures on text the rules were not written against (``docs/benchmarks.md``, its section on this file).

Standalone (Python 3.11, standard library only), deterministic by seed (the same bytes whatever the hash
seed).  Writes DIR/m_<id>.jsonl (a v3 stream: header line with the archive, then one event a line) and
DIR/m_<id>.truth.json (``{"propagation": {"edges": [[parent, child], ...], "labelled": "all"}}``: every
message labelled, a message of no edge a root).  With --meta-out, also META/m_<id>.meta.json: every
message's kind, payload, mutations, parent policy and how many copies its sender had heard.

The model, in short: 12 agents on a 12 x 12 map with a few hub regions; messages broadcast, local (the
sender's region, an agent counted present only when it was there both when the message was logged and at
the tick's end) or direct.  Roots: organic chatter (templated trade offers, greetings, reports, complaints,
plans, questions), stock phrases many agents say without hearing each other, independent reports of one
event by the agents who saw it, reactions to payloads, and each payload's first message; an original
message never repeats a text its sender could have heard or had said.  Copies: 4 to 9 payloads a match
(rumours, instructions, warnings, chain messages; in 60% of matches one template twice with other
specifics); an agent that hears a copy plans a forward with a chance set by the match, the agent, the
payload and the channel, after a delay (1 plus an exponential draw, at most 40 ticks); it copies one copy
it heard from another agent, chosen by its fixed policy (first heard 45%, latest heard 35%, any 20%), so a
copy inherits its parent's mutations, and adds its own: exact with the match's chance (0.08 to 0.30), else
one to four of prefix tags (stacking down chains), a remark after, a synonym or abbreviation, a typo,
quotation marks, a cut at the end or the start, punctuation, two words swapped or a tail moved to the front,
Title Case, capitals or lower case.  A chain message sent directly goes to one to three recipients, identical
siblings of one parent; an agent that forwarded a payload may forward it once more on hearing a later copy
(a chance of 0.02 to 0.10 a copy), again choosing its parent by its policy.  Match by match the chatter,
payloads, forwarding, delays and mutation rates vary.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sys
from dataclasses import dataclass, field

# --------------------------------------------------------------------------------------------
# World constants
# --------------------------------------------------------------------------------------------

W = H = 12
ITEM_VALUES = {"wood": 2, "stone": 3, "ore": 5, "food": 2, "fiber": 1, "plank": 5, "tool": 12, "cloth": 6}
RESOURCES = ["wood", "stone", "ore", "food", "fiber"]
GOODS = list(ITEM_VALUES)
STRUCTURES = ["shelter", "storehouse", "workshop", "market"]
ATTRIBUTES = ["strength", "vitality", "endurance"]
NAMES = ["Wren", "Ash", "Moss", "Kestrel", "Juniper", "Flint", "Sable", "Orrin", "Tamsin", "Bram",
         "Ivo", "Lark", "Nell", "Corin", "Fenna", "Rook", "Sorrel", "Yara", "Dace", "Hollis",
         "Pim", "Quill", "Rhea", "Tobin"]
MODELS = [("gpt-4.1-mini-2025-04-14", "openai"), ("claude-3-5-haiku-20241022", "anthropic"),
          ("gemini-2.0-flash-001", "google"), ("llama-3.3-70b-instruct", "meta"),
          ("qwen2.5-72b-instruct", "alibaba"), ("mistral-small-2503", "mistral")]
TICK_MS = 6000
START_MS = 1790000000000


def rid(x: int, y: int) -> str:
    return f"r_{x}_{y}"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def norm(text: str) -> str:
    """Loose normal form used only to keep ORIGINAL messages from repeating heard text."""
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


# --------------------------------------------------------------------------------------------
# Organic chatter templates (all roots)
# --------------------------------------------------------------------------------------------

STOCK = ["anyone trading wood?", "anyone trading stone?", "anyone trading food?", "hello everyone",
         "hi all", "gm", "hey", "morning!", "anyone around?", "need food", "need wood", "ok",
         "thanks!", "lol", "same", "brb", "nice", "anyone want to trade?", "who's selling ore?",
         "good luck everyone", "any news?", "what's going on?", "hmm", "on my way", "yes",
         "no thanks", "sounds good", "gg"]

CHATTER = {
    "trade": [
        "selling {n} {g} for {m} {g2}", "need {g}, paying {m} {g2}", "WTB {n} {g}",
        "have {n} {g}, want {g2}", "who has {g}? I'm at {r}", "{g} for {g2}, 1:{k}, dm me",
        "trade offer is up: {n} {g} -> {m} {g2}", "buying {g} at {k} each, come to {r}",
        "I'll give {m} {g2} for your {g}", "{n} {g} available, make an offer",
        "looking for {g}. can pay in {g2}", "cheap {g} at {r}, {n} left",
    ],
    "greeting": [
        "hello from {r}", "hey {name}, how's it going?", "hi {name}!", "good to see you {name}",
        "{name}, you around?", "greetings from {r}, anyone near?", "just arrived at {r}, hi",
    ],
    "report": [
        "saw {n} agents at {r}", "{r} has lots of {res}", "{r} is running low on {res}",
        "just gathered {n} {res} at {r}", "{name} is building a {s} at {r}",
        "the market at {r} is busy", "{r} looks empty right now", "found good {res} near {r}",
        "there's a {s} at {r} now", "{name} was at {r} a moment ago", "{res} at {r} regrows slowly",
    ],
    "complaint": [
        "my energy is so low", "nobody answers my trades", "too far to walk to {r}",
        "ugh, {g} is so expensive", "why is everyone ignoring me", "lost all my {g} again",
        "{name} never finished our trade", "gathering {res} takes forever", "this map is huge",
        "so hungry, need {g}", "my {s} keeps crumbling",
    ],
    "plan": [
        "heading to {r} to gather {res}", "going to build a {s} soon", "will craft {cr} next",
        "resting for a bit", "exploring {dir} today", "planning to train {att}",
        "going back to {r}", "gonna sell my {g} at {r}", "staying at {r} for a while",
        "{name}, want to team up at {r}?",
    ],
    "question": [
        "what's the price of {g} now?", "where can I find {res}?", "anyone seen {name}?",
        "is {r} safe?", "who runs the market at {r}?", "how much {g} for a {cr}?",
    ],
}
CHATTER_WEIGHTS = {"trade": 0.30, "greeting": 0.10, "report": 0.20, "complaint": 0.12,
                   "plan": 0.18, "question": 0.10}
REACTIONS = ["is that true about {r}?", "who started that rumour?", "ok, on my way to {r}",
             "not falling for that", "thanks for the warning", "stop spamming chain messages pls",
             "source?", "{name}, where did you hear that?", "sounds fake to me", "wait, really?",
             "can anyone confirm?", "I'm staying away from {r} then", "lol no"]
COLLAPSE_REPORTS = ["{r} just collapsed, no more {res}", "{res} is gone at {r}!", "oh no, {r} collapsed",
                    "{r} is depleted, moving on", "collapse at {r}. {res} all gone",
                    "no {res} left in {r}, it's over", "{r} dried up. anyone know where else has {res}?"]
ATTACK_REPORTS = ["{att} just attacked {tgt} at {r}!", "saw {att} hit {tgt} at {r}",
                  "fight at {r}: {att} vs {tgt}", "{att} is attacking people at {r}, careful",
                  "{tgt} got hurt by {att} at {r}", "watch out for {att} near {r}"]

# --------------------------------------------------------------------------------------------
# Payloads that spread
# --------------------------------------------------------------------------------------------

PAYLOADS = {
    "rumour": [
        "rumour: {name} is hoarding {n} {g} in a storehouse at {r}",
        "heard the market at {r} pays double for {g} today, go before it ends",
        "word is {r} will collapse soon, get your {res} out while you can",
        "{name} cheated me on a {g} trade, do not trade with them",
        "there is a hidden cache of {g} near {r} and nobody knows about it yet",
        "people say {name} and {name2} are teaming up to corner the {g} market",
    ],
    "instruction": [
        "tell everyone to meet at {r} at tick {t}",
        "everyone gather at {r} before dark and bring your {g}",
        "all traders: bring your {g} to {r}, a big market is forming there",
        "stop selling {g} below {k} each, we all hold together",
        "meet at {r} tomorrow, we are building a market together",
    ],
    "warning": [
        "warning: raiders at {r}, avoid it",
        "danger! {name} attacks anyone near {r}",
        "careful, {r} is out of {res} and the shelter there is broken",
        "do not accept trades from {name}, it is a scam",
        "alert: {r} is about to collapse, leave now",
    ],
    "chain": [
        "pass this on: the first 5 people to reach {r} get free {g}",
        "send this to 3 friends or lose your {g}! it really works",
        "chain message: copy this and share it, {name} says the season ends early",
        "forward this to everyone you know: {g} price is going up to {k} soon",
        "please share this with everybody: free {g} at {r} for anyone who asks",
    ],
}
CHANNEL_PULL = {"broadcast": 1.0, "local": 1.6, "dm": 2.4}  # a message addressed to you is forwarded more
PAYLOAD_VIRALITY = {"rumour": 1.0, "instruction": 1.1, "warning": 1.2, "chain": 1.45}

# --------------------------------------------------------------------------------------------
# Mutations
# --------------------------------------------------------------------------------------------

MUTATION_WEIGHTS = {
    "prefix": 0.20, "suffix": 0.11, "upper": 0.06, "title": 0.05, "lower": 0.03, "quote": 0.08,
    "cut_start": 0.06, "cut_end": 0.08, "synonym": 0.12, "typo": 0.10, "punct": 0.08, "reorder": 0.06,
}
PREFIXES = ["fwd:", "Fwd:", "FW:", "fwd", "RT @{pname}:", "RT {pname}:", ">", "> ", "heard this:",
            "pass it on:", "via {pname}:", "{pname} says:", "copying this:", "!!", "psst", "FYI:",
            "saw this:", "re:"]
SUFFIXES = ["lol", "(not sure if true)", "- pls share", "!!", "true?", "just passing it on",
            "\U0001F440", "seriously", "spread the word", "no idea if real", "^^ this", "heard from {pname}",
            "you've been warned", "just saying"]
SYNONYMS = {
    "everyone": ["everybody", "every1", "all", "evry1"], "everybody": ["everyone", "every1"],
    "tomorrow": ["tmrw", "tmr"], "please": ["pls", "plz"], "people": ["ppl", "folks"],
    "you": ["u", "ya"], "are": ["r"], "because": ["bc", "cuz"], "before": ["b4", "prior to"],
    "message": ["msg", "note"], "raiders": ["bandits", "thieves"], "warning": ["alert", "caution"],
    "danger": ["threat", "dangerous"], "now": ["asap", "immediately"], "and": ["&", "n"],
    "for": ["4"], "going": ["heading"], "food": ["grub"], "big": ["huge", "large"],
    "avoid": ["skip", "dodge"], "market": ["mkt", "bazaar"], "with": ["w/"], "about": ["abt", "re"],
    "really": ["rly", "truly"], "free": ["gratis", "FREE"], "meet": ["gather", "assemble"],
    "gather": ["meet", "assemble"], "bring": ["carry", "take"], "tell": ["inform", "warn"],
    "hidden": ["secret"], "cache": ["stash"], "careful": ["be careful", "watch out"],
    "today": ["2day"], "know": ["kno"], "first": ["1st"], "three": ["3"], "3": ["three"],
    "5": ["five"], "share": ["spread", "repost"], "leave": ["go", "get out"], "soon": ["shortly"],
    "nobody": ["no one", "noone"], "scam": ["con", "fraud"], "attacks": ["hits", "raids"],
    "double": ["2x", "twice"], "each": ["apiece", "ea"], "while": ["whilst"], "copy": ["copypaste"],
    "price": ["cost"], "together": ["as one"], "dark": ["nightfall", "night"], "heard": ["hear"],
    "warn": ["tell"], "gone": ["gon"], "all": ["everyone"], "get": ["grab"],
}
QUOTES = [('"', '"'), ("'", "'"), ("\u201c", "\u201d"), ("<<", ">>")]
KEYBOARD = "qwertyuiopasdfghjklzxcvbnm"


def _words(text: str) -> list[str]:
    return text.split(" ")


def mut_prefix(rng, text, ctx):
    p = rng.choice(PREFIXES).format(pname=ctx["pname"])
    return f"{p} {text}" if not p.endswith(" ") else p + text


def mut_suffix(rng, text, ctx):
    s = rng.choice(SUFFIXES).format(pname=ctx["pname"])
    return f"{text} {s}"


def mut_upper(rng, text, ctx):
    return text.upper()


def mut_title(rng, text, ctx):
    return " ".join(w[:1].upper() + w[1:].lower() if w else w for w in _words(text))


def mut_lower(rng, text, ctx):
    return text.lower()


def mut_quote(rng, text, ctx):
    a, b = rng.choice(QUOTES)
    return f"{a}{text}{b}"


def _cut(rng, text, at_start):
    ws = _words(text)
    if len(ws) < 6:
        return None
    k = rng.randint(1, max(1, min(4, len(ws) // 3)))
    ws = ws[k:] if at_start else ws[:-k]
    out = " ".join(ws)
    if at_start:
        return out
    return out + rng.choice(["", "", "...", "\u2026"])


def mut_cut_start(rng, text, ctx):
    return _cut(rng, text, True)


def mut_cut_end(rng, text, ctx):
    return _cut(rng, text, False)


def mut_synonym(rng, text, ctx):
    ws = _words(text)
    cands = []
    for i, w in enumerate(ws):
        m = re.match(r"^(\W*)(.*?)(\W*)$", w)
        core = m.group(2)
        if core.lower() in SYNONYMS:
            cands.append((i, m.group(1), core, m.group(3)))
    if not cands:
        return None
    i, pre, core, post = rng.choice(cands)
    rep = rng.choice(SYNONYMS[core.lower()])
    if core.isupper() and len(core) > 1:
        rep = rep.upper()
    elif core[:1].isupper():
        rep = rep[:1].upper() + rep[1:]
    ws[i] = pre + rep + post
    return " ".join(ws)


def mut_typo(rng, text, ctx):
    ws = _words(text)
    cands = [i for i, w in enumerate(ws) if len(w) >= 4 and w.isalpha()]
    if not cands:
        return None
    i = rng.choice(cands)
    w = ws[i]
    kind = rng.choice(["swap", "drop", "double", "key"])
    j = rng.randrange(1, len(w) - 1)
    if kind == "swap":
        w = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    elif kind == "drop":
        w = w[:j] + w[j + 1:]
    elif kind == "double":
        w = w[:j] + w[j] + w[j:]
    else:
        c = rng.choice(KEYBOARD)
        w = w[:j] + (c.upper() if w[j].isupper() else c) + w[j + 1:]
    ws[i] = w
    return " ".join(ws)


def mut_punct(rng, text, ctx):
    ops = []
    if re.search(r"[.!?,:;]\s*$", text):
        ops.append(lambda t: re.sub(r"[.!?,:;]+(\s*)$", r"\1", t))
    if "," in text:
        ops.append(lambda t: t.replace(",", "", 1))
        ops.append(lambda t: t.replace(",", ".", 1))
    if ":" in text:
        ops.append(lambda t: t.replace(":", " -", 1))
    if "!" in text:
        ops.append(lambda t: t.replace("!", ".", 1))
    ops.append(lambda t: t.rstrip() + rng.choice(["!", "!!", "!!!", ".", "...", "?!"]))
    return rng.choice(ops)(text)


def mut_reorder(rng, text, ctx):
    ws = _words(text)
    if len(ws) < 4:
        return None
    if rng.random() < 0.7:
        i = rng.randrange(0, len(ws) - 1)
        ws[i], ws[i + 1] = ws[i + 1], ws[i]
    else:  # move a short trailing clause to the front
        k = rng.randint(2, min(4, len(ws) - 2))
        ws = ws[-k:] + ws[:-k]
    return " ".join(ws)


MUTATORS = {"prefix": mut_prefix, "suffix": mut_suffix, "upper": mut_upper, "title": mut_title,
            "lower": mut_lower, "quote": mut_quote, "cut_start": mut_cut_start, "cut_end": mut_cut_end,
            "synonym": mut_synonym, "typo": mut_typo, "punct": mut_punct, "reorder": mut_reorder}
CASE_KINDS = {"upper", "title", "lower"}


def mutate(rng: random.Random, text: str, n: int, ctx: dict) -> tuple[str, list[str]]:
    """Apply n mutations drawn by weight (no two case changes in one copy); returns text, kinds."""
    kinds: list[str] = []
    tries = 0
    while len(kinds) < n and tries < 30:
        tries += 1
        k = rng.choices(list(MUTATION_WEIGHTS), weights=list(MUTATION_WEIGHTS.values()))[0]
        if k in CASE_KINDS and CASE_KINDS & set(kinds):
            continue
        if k in kinds and k not in ("prefix", "typo"):
            continue
        out = MUTATORS[k](rng, text, ctx)
        if out is None or out == text or not out.strip():
            continue
        text = out
        kinds.append(k)
    return text, kinds


# --------------------------------------------------------------------------------------------
# Simulation
# --------------------------------------------------------------------------------------------

@dataclass
class Agent:
    aid: str
    seat: int
    name: str
    model: tuple[str, str]
    x: int
    y: int
    alive: bool = True
    died_at: int | None = None
    target: tuple[int, int] | None = None
    dwell: int = 0
    chat_rate: float = 0.1
    forwardiness: float = 0.5
    policy: str = "first"
    dm_pref: float = 0.3
    local_pref: float = 0.3
    delay_scale: float = 3.0
    inventory: dict = field(default_factory=dict)
    last_ms: int | None = None
    heard_norm: set = field(default_factory=set)   # normal forms of everything heard (loose reading) or said
    # payload id -> list of (tick_heard, msg_event_id) heard under the strict reading
    heard_copies: dict = field(default_factory=dict)
    forwarded: dict = field(default_factory=dict)   # payload id -> times forwarded
    scheduled: set = field(default_factory=set)     # payload ids with a pending forward
    pending_reaction: list = field(default_factory=list)


class Match:
    def __init__(self, seed: int, n_agents: int, ticks: int):
        self.seed = seed
        self.rng = random.Random(seed * 7919 + 17)
        self.n_agents = n_agents
        self.ticks = ticks
        self.match_id = "m_" + hashlib.sha256(f"indep-cascades/{seed}".encode()).hexdigest()[:12]
        self.events: list[dict] = []
        self.next_id = 1
        self.tick = 0
        self.ms_cursor = START_MS
        self.edges: list[list[int]] = []
        self.msg_meta: dict[int, dict] = {}
        self.messages: dict[int, dict] = {}   # event id -> {sender, text, payload, tick}
        self.pending_forwards: dict[int, list] = {}  # tick -> [(agent, payload)]
        self.trade_seq = 0
        self.open_trades: list[dict] = []
        self.struct_seq = 0
        # Per-seed knobs
        r = self.rng
        self.knobs = {
            "chat_rate": round(r.uniform(0.035, 0.12), 4),
            "n_payloads": r.randint(4, 9),
            "forward_base": round(r.uniform(0.28, 0.6), 3),
            "delay_mean": round(r.uniform(1.5, 7.0), 2),
            "verbatim": round(r.uniform(0.08, 0.30), 3),
            "multi_mut": round(r.uniform(0.25, 0.55), 3),
            "reforward": round(r.uniform(0.02, 0.10), 3),
            "deaths": r.choice([0, 0, 1, 1, 2]),
            "collapses": r.randint(1, 4),
            "attacks": r.randint(0, 3),
            "twin_payloads": r.random() < 0.6,
        }

    # ---------------------------------------------------------------- events
    def emit(self, etype: str, agent: Agent | None, payload: dict, private: bool = False) -> dict:
        self.ms_cursor = max(self.ms_cursor + self.rng.randint(3, 400), START_MS + self.tick * TICK_MS)
        ev = {"id": self.next_id, "matchId": self.match_id, "schemaVersion": 3, "tick": self.tick,
              "type": etype, "agentId": agent.aid if agent else None, "createdAtMs": self.ms_cursor}
        if agent is not None:
            if agent.last_ms is not None:
                ev["latencyMs"] = self.ms_cursor - agent.last_ms
            agent.last_ms = self.ms_cursor
        ev["private"] = private
        ev["payload"] = payload
        self.next_id += 1
        self.events.append(ev)
        return ev

    def fill(self, tmpl: str, agent: Agent, extra: dict | None = None) -> str:
        r = self.rng
        others = [a for a in self.agents if a is not agent]
        g, g2 = r.sample(GOODS, 2)
        n1, n2 = r.sample(others, 2)
        vals = {"n": r.randint(2, 20), "m": r.randint(1, 12), "k": r.randint(2, 9), "g": g, "g2": g2,
                "res": r.choice(RESOURCES), "r": self.some_region(agent), "name": n1.name, "name2": n2.name,
                "s": r.choice(STRUCTURES), "cr": r.choice(["plank", "tool", "cloth"]),
                "att": r.choice(ATTRIBUTES), "dir": r.choice(["north", "south", "east", "west"]),
                "t": self.tick + r.randint(10, 60)}
        if extra:
            vals.update(extra)
        return tmpl.format(**vals)

    def some_region(self, agent: Agent) -> str:
        r = self.rng.random()
        if r < 0.35:
            return rid(agent.x, agent.y)
        if r < 0.7:
            return rid(*self.rng.choice(self.hubs))
        return rid(self.rng.randrange(W), self.rng.randrange(H))

    # ---------------------------------------------------------------- hearing
    def living(self) -> list[Agent]:
        return [a for a in self.agents if a.alive]

    def send(self, agent: Agent, text: str, channel: str, to: Agent | None, meta: dict) -> int:
        if channel == "dm":
            ev = self.emit("message_private", agent, {"to": to.aid, "text": text, "sha256": sha(text)}, True)
        else:
            ev = self.emit("message", agent, {"text": text, "sha256": sha(text), "channel": channel})
        eid = ev["id"]
        meta = dict(meta, sender=agent.aid, channel=channel, tick=self.tick, text=text)
        if to is not None:
            meta["to"] = to.aid
        self.msg_meta[eid] = meta
        self.messages[eid] = {"sender": agent, "text": text, "payload": meta.get("payload"), "tick": self.tick}
        agent.heard_norm.add(norm(text))
        if channel == "broadcast":
            for a in self.living():
                if a is not agent:
                    self.hear(a, eid, strict=True)
        elif channel == "dm":
            self.hear(to, eid, strict=True)
        else:  # local: resolved at the end of the tick
            present = {a.aid for a in self.living() if a is not agent and (a.x, a.y) == (agent.x, agent.y)}
            self.local_this_tick.append((eid, agent, (agent.x, agent.y), present))
            for a in self.living():
                if a.aid in present:
                    a.heard_norm.add(norm(text))  # loose reading: heard at send time
        return eid

    def resolve_local(self) -> None:
        """Local messages: heard for copying only by agents in the region both when it was sent and
        at the end of the tick (the format's reading is the end of the tick; requiring both keeps every
        truth edge valid under either reading). The loose set (either) guards independence."""
        for eid, sender, pos, present in self.local_this_tick:
            for a in self.living():
                if a is sender:
                    continue
                at_end = (a.x, a.y) == pos
                if at_end:
                    a.heard_norm.add(norm(self.messages[eid]["text"]))
                if at_end and a.aid in present:
                    self.hear(a, eid, strict=True)
        self.local_this_tick = []

    def hear(self, a: Agent, eid: int, strict: bool) -> None:
        msg = self.messages[eid]
        a.heard_norm.add(norm(msg["text"]))
        p = msg["payload"]
        if p is None:
            return
        a.heard_copies.setdefault(p, []).append((self.tick, eid))
        pl = self.payloads[p]
        # meet-style instructions pull hearers
        if pl.get("meet") and self.rng.random() < 0.35:
            a.target = pl["meet"]
            a.dwell = 0
        # occasional non-copy reaction ("is that true?")
        if self.rng.random() < 0.07:
            a.pending_reaction.append((self.tick + self.rng.randint(1, 4), p, msg["sender"]))
        # forwarding decision (one chance per heard copy; reinforcement by repeated exposure)
        times = a.forwarded.get(p, 0)
        if p in a.scheduled:
            return
        prob = self.knobs["forward_base"] * a.forwardiness * pl["virality"] * CHANNEL_PULL[self.msg_meta[eid]["channel"]]
        if times >= 1:
            prob = self.knobs["reforward"] * a.forwardiness
        if times >= 2:
            return
        if self.rng.random() < prob:
            delay = 1 + int(self.rng.expovariate(1.0 / (a.delay_scale * self.knobs["delay_mean"] / 3.0)))
            delay = min(delay, 40)
            when = self.tick + delay
            if when < self.ticks:
                a.scheduled.add(p)
                self.pending_forwards.setdefault(when, []).append((a, p))

    # ---------------------------------------------------------------- build
    def setup(self) -> None:
        r = self.rng
        names = r.sample(NAMES, self.n_agents)
        self.hubs = [(r.randrange(W), r.randrange(H)) for _ in range(r.randint(3, 5))]
        self.agents: list[Agent] = []
        used = set()
        for i in range(self.n_agents):
            while True:
                aid = "a_" + "".join(r.choice("0123456789abcdef") for _ in range(4))
                if aid not in used:
                    used.add(aid)
                    break
            hx, hy = r.choice(self.hubs)
            x = min(W - 1, max(0, hx + r.randint(-2, 2)))
            y = min(H - 1, max(0, hy + r.randint(-2, 2)))
            a = Agent(aid, i + 1, names[i], r.choice(MODELS), x, y)
            a.chat_rate = self.knobs["chat_rate"] * r.uniform(0.4, 1.8)
            a.forwardiness = r.choice([0.15, 0.5, 0.8, 1.0, 1.2, 1.6])
            a.policy = r.choices(["first", "latest", "random"], weights=[0.45, 0.35, 0.20])[0]
            a.dm_pref = r.uniform(0.05, 0.45)
            a.local_pref = r.uniform(0.15, 0.5)
            a.delay_scale = r.uniform(0.5, 2.0) * 3.0
            a.inventory = {g: r.randint(0, 6) for g in RESOURCES}
            self.agents.append(a)
        self.local_this_tick = []
        # payloads
        self.payloads: dict[str, dict] = {}
        kinds = list(PAYLOADS)
        plan = []
        for j in range(self.knobs["n_payloads"]):
            kind = r.choice(kinds)
            tmpl = r.choice(PAYLOADS[kind])
            plan.append((kind, tmpl))
            if self.knobs["twin_payloads"] and j == 0:
                plan.append((kind, tmpl))  # same template, other specifics: a different cascade
        for j, (kind, tmpl) in enumerate(plan):
            pid = f"P{j + 1}"
            t = r.randint(3, int(self.ticks * 0.65))
            self.payloads[pid] = {"id": pid, "kind": kind, "template": tmpl, "tick": t,
                                  "virality": PAYLOAD_VIRALITY[kind] * r.uniform(0.7, 1.3)}
        # world incidents
        self.collapses = {}
        for _ in range(self.knobs["collapses"]):
            self.collapses.setdefault(r.randint(10, self.ticks - 10), []).append(r.choice(self.hubs + [(r.randrange(W), r.randrange(H))]))
        self.attacks = {r.randint(10, self.ticks - 10) for _ in range(self.knobs["attacks"])}
        self.deaths = {}
        for a in r.sample(self.agents, self.knobs["deaths"]):
            self.deaths[r.randint(self.ticks // 3, self.ticks - 5)] = a

        config = self.config()
        roster = [{"agentId": a.aid, "seat": a.seat, "name": a.name, "role": "player",
                   "model": {"model": a.model[0], "provider": a.model[1],
                             "scaffold": {"name": "plainloop", "version": "1.2"}}} for a in self.agents]
        self.emit("match_manifest", None, {"seed": self.seed, "engineVersion": "0.5.2",
                                           "eventSchemaVersion": 3, "config": config, "roster": roster,
                                           "scenario": config["scenario"]})
        for a in self.agents:
            self.emit("agent_registered", a, {"name": a.name, "role": "player",
                                              "model": roster[a.seat - 1]["model"]})
        for a in self.agents:
            self.emit("agent_spawned", a, {"region": rid(a.x, a.y)})

    def config(self) -> dict:
        return {"engine_version": "0.5.2", "event_schema_version": 3, "map": {"width": W, "height": H},
                "season_ticks": self.ticks, "item_values": dict(ITEM_VALUES), "ranked": False,
                "scenario": {"id": "indep:forwarding-cascades-v1",
                             "hash": hashlib.sha256(b"indep:forwarding-cascades-v1").hexdigest()[:16]}}

    # ---------------------------------------------------------------- per tick
    def step_move(self, a: Agent) -> None:
        if a.target is None or (a.x, a.y) == a.target:
            if a.target is not None and a.dwell < self.rng.randint(2, 8):
                a.dwell += 1
                self.idle_action(a)
                return
            a.dwell = 0
            if self.rng.random() < 0.65:
                a.target = self.rng.choice(self.hubs)
            else:
                a.target = (self.rng.randrange(W), self.rng.randrange(H))
        tx, ty = a.target
        nx = a.x + (tx > a.x) - (tx < a.x)
        ny = a.y + (ty > a.y) - (ty < a.y)
        if self.rng.random() < 0.2:  # wander
            nx = min(W - 1, max(0, a.x + self.rng.randint(-1, 1)))
            ny = min(H - 1, max(0, a.y + self.rng.randint(-1, 1)))
        if (nx, ny) == (a.x, a.y):
            self.idle_action(a)
            return
        self.emit("move", a, {"from": rid(a.x, a.y), "to": rid(nx, ny)})
        a.x, a.y = nx, ny

    def idle_action(self, a: Agent) -> None:
        r = self.rng.random()
        if r < 0.55:
            res = self.rng.choice(RESOURCES)
            got = self.rng.randint(0, 4)
            a.inventory[res] = a.inventory.get(res, 0) + got
            self.emit("gather", a, {"region": rid(a.x, a.y), "resource": res, "gathered": got})
        elif r < 0.75:
            self.emit("rest", a, {})
        elif r < 0.87:
            self.emit("look", a, {"target": rid(a.x, a.y)})
        else:
            self.trade_action(a)

    def trade_action(self, a: Agent) -> None:
        r = self.rng
        mine = [g for g, n in a.inventory.items() if n > 0]
        if not mine:
            self.emit("rest", a, {})
            return
        g = r.choice(mine)
        want = r.choice([x for x in RESOURCES if x != g])
        others = [b for b in self.living() if b is not a]
        to = r.choice(others) if others and r.random() < 0.6 else None
        self.trade_seq += 1
        tid = f"t_{self.trade_seq}"
        give = {g: r.randint(1, a.inventory[g])}
        recv = {want: r.randint(1, 5)}
        self.emit("trade_offered", a, {"tradeId": tid, "to": to.aid if to else None, "give": give, "receive": recv})
        self.open_trades.append({"id": tid, "from": a, "to": to, "give": give, "receive": recv,
                                 "tick": self.tick})

    def settle_trades(self) -> None:
        keep = []
        for t in self.open_trades:
            age = self.tick - t["tick"]
            a = t["from"]
            if not a.alive:
                continue
            if age >= 1 and t["to"] is not None and t["to"].alive and self.rng.random() < 0.25:
                b = t["to"]
                p = {"tradeId": t["id"], "from": a.aid, "to": b.aid, "give": t["give"], "receive": t["receive"]}
                self.emit("trade_completed", b, dict(p))
                self.emit("trade_completed", a, dict(p))
                for g, n in t["give"].items():
                    a.inventory[g] = max(0, a.inventory.get(g, 0) - n)
                    b.inventory[g] = b.inventory.get(g, 0) + n
                for g, n in t["receive"].items():
                    b.inventory[g] = max(0, b.inventory.get(g, 0) - n)
                    a.inventory[g] = a.inventory.get(g, 0) + n
            elif age >= 6 and self.rng.random() < 0.3:
                self.emit("trade_cancelled", a, {"tradeId": t["id"]})
            else:
                keep.append(t)
        self.open_trades = keep

    def original_text(self, a: Agent) -> tuple[str, str]:
        """An organic (root) message; never a text this agent already heard or said (loose reading)."""
        r = self.rng
        for _ in range(12):
            if r.random() < 0.22:
                cat, text = "stock", r.choice(STOCK)
            else:
                cat = r.choices(list(CHATTER_WEIGHTS), weights=list(CHATTER_WEIGHTS.values()))[0]
                text = self.fill(r.choice(CHATTER[cat]), a)
            if norm(text) not in a.heard_norm and norm(text):
                return cat, text
        return "chatter", self.fill("{n} {g} left, {m} {g2} wanted, at {r} until tick {t}", a)

    def choose_channel(self, a: Agent) -> tuple[str, Agent | None]:
        r = self.rng.random()
        others = [b for b in self.living() if b is not a]
        if r < a.dm_pref and others:
            return "dm", self.rng.choice(others)
        if r < a.dm_pref + a.local_pref:
            return "local", None
        return "broadcast", None

    def chat(self, a: Agent) -> None:
        cat, text = self.original_text(a)
        ch, to = self.choose_channel(a)
        if cat == "stock" and ch == "broadcast" and self.rng.random() < 0.5:
            ch = "local"
        self.send(a, text, ch, to, {"kind": "chatter", "category": cat})

    def seed_payload(self, pl: dict) -> None:
        cands = [a for a in self.living()]
        a = self.rng.choice(cands)
        extra = {}
        if "{r}" in pl["template"]:
            meet = self.rng.choice(self.hubs) if self.rng.random() < 0.6 else (self.rng.randrange(W), self.rng.randrange(H))
            extra["r"] = rid(*meet)
            if pl["kind"] == "instruction" and ("meet" in pl["template"] or "gather" in pl["template"]
                                               or "bring" in pl["template"]):
                pl["meet"] = meet
        used = {norm(q["text"]) for q in self.payloads.values() if "text" in q}
        for _ in range(20):  # distinct from every other payload and from anything its originator heard
            text = self.fill(pl["template"], a, extra)
            if norm(text) not in used and norm(text) not in a.heard_norm:
                break
            extra["g"] = self.rng.choice(GOODS)
            extra["r"] = rid(self.rng.randrange(W), self.rng.randrange(H))
            pl.pop("meet", None)
        else:
            text = f"{text} ({self.rng.choice(['urgent', 'important', 'read this', 'news'])})"
        pl["text"] = text
        pl["region"] = extra.get("r")
        pl["origin"] = a.aid
        r = self.rng.random()
        others = [b for b in self.living() if b is not a]
        if r < 0.5:
            ch, to = "broadcast", None
        elif r < 0.82:
            ch, to = "local", None
            # a local seed should have some audience: pick an agent that has company
            crowded = [b for b in self.living() if any(c is not b and (c.x, c.y) == (b.x, b.y) for c in self.living())]
            if crowded:
                a = self.rng.choice(crowded)
                pl["origin"] = a.aid
        else:
            ch, to = "dm", self.rng.choice(others)
        eid = self.send(a, text, ch, to, {"kind": "payload_root", "payload": pl["id"], "payloadKind": pl["kind"],
                                          "generation": 0})
        pl["root"] = eid
        a.forwarded[pl["id"]] = 2  # the originator never re-sends its own payload
        a.heard_copies.setdefault(pl["id"], [])

    def forward(self, a: Agent, p: str) -> None:
        a.scheduled.discard(p)
        heard = [(t, e) for t, e in a.heard_copies.get(p, []) if t < self.tick and self.messages[e]["sender"] is not a]
        if not heard:
            return
        if a.policy == "first":
            t, parent = heard[0]
        elif a.policy == "latest":
            t, parent = heard[-1]
        else:
            t, parent = self.rng.choice(heard)
        pmsg = self.messages[parent]
        r = self.rng.random()
        if r < self.knobs["verbatim"]:
            n = 0
        else:
            n = 1
            while n < 4 and self.rng.random() < self.knobs["multi_mut"]:
                n += 1
        text, kinds = mutate(self.rng, pmsg["text"], n, {"pname": pmsg["sender"].name})
        pmeta = self.msg_meta[parent]
        gen = pmeta.get("generation", 0) + 1
        ch, to = self.choose_channel(a)
        recipients = [to]
        if ch == "dm" and self.payloads[p]["kind"] == "chain" and self.rng.random() < 0.6:
            others = [b for b in self.living() if b is not a and b is not to]
            recipients += self.rng.sample(others, min(len(others), self.rng.randint(1, 2)))
        for rcp in recipients:
            eid = self.send(a, text, ch, rcp, {"kind": "copy", "payload": p, "parent": parent, "mutations": kinds,
                                                "generation": gen, "policy": a.policy,
                                                "heardCopies": len(heard), "delay": self.tick - t})
            self.edges.append([parent, eid])
        a.forwarded[p] = a.forwarded.get(p, 0) + 1

    def incidents(self) -> None:
        r = self.rng
        for pos in self.collapses.get(self.tick, []):
            res = r.choice(RESOURCES)
            self.emit("region_collapsed", None, {"region": rid(*pos), "resource": res})
            near = [a for a in self.living() if max(abs(a.x - pos[0]), abs(a.y - pos[1])) <= 1]
            for a in near:
                if r.random() < 0.75:
                    self.pending_reports.append((self.tick + r.randint(0, 2), a, "collapse",
                                                 {"r": rid(*pos), "res": res}))
        if self.tick in self.attacks:
            groups = {}
            for a in self.living():
                groups.setdefault((a.x, a.y), []).append(a)
            crowded = [g for g in groups.values() if len(g) >= 3] or [g for g in groups.values() if len(g) >= 2]
            if crowded:
                g = r.choice(crowded)
                att, tgt = r.sample(g, 2)
                wit = [a for a in g if a is not att and a is not tgt]
                pl = {"target": tgt.aid, "region": rid(att.x, att.y), "damage": r.randint(3, 15),
                      "killed": False, "witnessed": bool(wit), "witnesses": [w.aid for w in wit]}
                self.emit("attack", att, pl)
                for w in wit + [tgt]:
                    if r.random() < 0.8:
                        self.pending_reports.append((self.tick + r.randint(0, 2), w, "attack",
                                                     {"r": rid(att.x, att.y), "att": att.name, "tgt": tgt.name}))

    def event_report(self, a: Agent, kind: str, extra: dict) -> None:
        pool = COLLAPSE_REPORTS if kind == "collapse" else ATTACK_REPORTS
        for _ in range(10):
            text = self.fill(self.rng.choice(pool), a, extra)
            if norm(text) not in a.heard_norm:
                ch = "local" if self.rng.random() < 0.45 else "broadcast"
                self.send(a, text, ch, None, {"kind": "chatter", "category": f"{kind}_report"})
                return

    def run(self) -> None:
        self.setup()
        self.pending_reports = []
        seeds_by_tick: dict[int, list] = {}
        for pl in self.payloads.values():
            seeds_by_tick.setdefault(pl["tick"], []).append(pl)
        for tick in range(self.ticks):
            self.tick = tick
            if tick in self.deaths:
                a = self.deaths[tick]
                if a.alive:
                    self.emit("agent_died", a, {"cause": "starvation"})
                    a.alive = False
                    a.died_at = tick
            self.incidents()
            order = self.living()
            self.rng.shuffle(order)
            due = self.pending_forwards.pop(tick, [])
            due_by_agent: dict[str, list] = {}
            for a, p in due:
                due_by_agent.setdefault(a.aid, []).append(p)
            reports = [x for x in self.pending_reports if x[0] == tick]
            self.pending_reports = [x for x in self.pending_reports if x[0] != tick]
            seeders = seeds_by_tick.get(tick, [])
            for a in order:
                # world action first (an agent acts once a tick, then talks: it never moves after talking)
                if self.rng.random() < 0.9:
                    if self.rng.random() < 0.45:
                        self.step_move(a)
                    else:
                        self.idle_action(a)
                for _, _who, kind, extra in [x for x in reports if x[1] is a]:
                    self.event_report(a, kind, extra)
                for p in due_by_agent.get(a.aid, []):
                    if a.alive:
                        self.forward(a, p)
                for (when, p, src) in list(a.pending_reaction):
                    if when == tick:
                        a.pending_reaction.remove((when, p, src))
                        for _ in range(6):
                            rx = {"name": src.name}
                            if self.payloads[p].get("region"):
                                rx["r"] = self.payloads[p]["region"]
                            text = self.fill(self.rng.choice(REACTIONS), a, rx)
                            if norm(text) not in a.heard_norm:
                                ch, to = self.choose_channel(a)
                                if ch == "dm":
                                    to = src if src.alive and src is not a else to
                                self.send(a, text, ch, to, {"kind": "chatter", "category": "reaction",
                                                            "about": p})
                                break
                if self.rng.random() < a.chat_rate:
                    self.chat(a)
            for pl in seeders:
                self.seed_payload(pl)
            if tick % 25 == 24:
                for a in self.living():
                    wealth = sum(ITEM_VALUES.get(g, 1) * n for g, n in a.inventory.items())
                    inv = json.dumps(sorted(a.inventory.items()))
                    self.emit("agent_snapshot", a, {"region": rid(a.x, a.y), "energy": self.rng.randint(10, 100),
                                                    "wealth": wealth, "inventoryHash": sha(inv)[:16]})
            self.settle_trades()
            self.resolve_local()

    # ---------------------------------------------------------------- output
    def archive(self) -> dict:
        agents = []
        for a in self.agents:
            wealth = float(sum(ITEM_VALUES.get(g, 1) * n for g, n in a.inventory.items()))
            agents.append({"agentId": a.aid, "seat": a.seat, "name": a.name, "role": "player",
                           "model": {"model": a.model[0], "provider": a.model[1],
                                     "scaffold": {"name": "plainloop", "version": "1.2"}},
                           "status": "active" if a.alive else "dead",
                           "roundsAlive": self.ticks if a.alive else a.died_at,
                           "diedAtTick": None if a.alive else a.died_at,
                           "wealth": wealth, "reputation": 0,
                           "inventory": {g: n for g, n in a.inventory.items()}})
        return {"matchId": self.match_id, "startedAtTick": 0, "endedAtTick": self.ticks,
                "startedAtMs": START_MS, "endedAtMs": max(self.ms_cursor, START_MS + self.ticks * TICK_MS),
                "config": self.config(), "agents": agents}

    def write(self, out: str, meta_out: str | None) -> dict:
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, f"{self.match_id}.jsonl")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            header = {"format": "daishi-match-export", "formatVersion": 1, "matchId": self.match_id,
                      "archive": self.archive()}
            f.write(json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n")
            for ev in self.events:
                f.write(json.dumps(ev, ensure_ascii=False, separators=(",", ":")) + "\n")
        truth = {"propagation": {"edges": self.edges, "labelled": "all"}}
        with open(os.path.join(out, f"{self.match_id}.truth.json"), "w", encoding="utf-8") as f:
            json.dump(truth, f)
            f.write("\n")
        summary = self.summary()
        if meta_out:
            os.makedirs(meta_out, exist_ok=True)
            with open(os.path.join(meta_out, f"{self.match_id}.meta.json"), "w", encoding="utf-8") as f:
                json.dump({"matchId": self.match_id, "seed": self.seed, "knobs": self.knobs, "summary": summary,
                           "payloads": {k: {kk: vv for kk, vv in v.items() if kk != "meet"}
                                        for k, v in self.payloads.items()},
                           "agents": {a.aid: {"name": a.name, "policy": a.policy,
                                              "forwardiness": a.forwardiness} for a in self.agents},
                           "messages": {str(k): v for k, v in self.msg_meta.items()}},
                          f, ensure_ascii=False, indent=1)
        return summary

    def summary(self) -> dict:
        kinds: dict[str, int] = {}
        cats: dict[str, int] = {}
        nmut: dict[str, int] = {}
        gens: dict[str, int] = {}
        multi = 0
        for m in self.msg_meta.values():
            if m["kind"] == "copy":
                for k in m["mutations"]:
                    kinds[k] = kinds.get(k, 0) + 1
                nmut[str(len(m["mutations"]))] = nmut.get(str(len(m["mutations"])), 0) + 1
                gens[str(m["generation"])] = gens.get(str(m["generation"]), 0) + 1
                multi += m["heardCopies"] > 1
            else:
                c = m.get("category", m["kind"])
                cats[c] = cats.get(c, 0) + 1
        return {"events": len(self.events), "messages": len(self.msg_meta), "edges": len(self.edges),
                "roots": len(self.msg_meta) - len(self.edges),
                "private": sum(1 for m in self.msg_meta.values() if m["channel"] == "dm"),
                "local": sum(1 for m in self.msg_meta.values() if m["channel"] == "local"),
                "payloads": len(self.payloads), "mutationKinds": kinds, "mutationsPerCopy": nmut,
                "generations": gens, "copiesWithSeveralHeard": multi, "rootCategories": cats}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--agents", type=int, default=12)
    ap.add_argument("--ticks", type=int, default=200)
    ap.add_argument("--meta-out", default=None, help="folder for the sidecar m_<id>.meta.json (optional)")
    args = ap.parse_args(argv)
    if args.agents < 4:
        ap.error("--agents must be at least 4")
    if args.ticks < 40:
        ap.error("--ticks must be at least 40")
    m = Match(args.seed, args.agents, args.ticks)
    m.run()
    s = m.write(args.out, args.meta_out)
    print(json.dumps({"matchId": m.match_id, "seed": args.seed, "events": s["events"],
                      "messages": s["messages"], "edges": s["edges"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
