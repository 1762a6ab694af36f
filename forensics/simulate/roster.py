"""Seats of a simulated match: ids, names, models and operators."""

from __future__ import annotations

import random
from typing import Any

from .world import Agent

__all__ = ["make_agents", "NAMES"]

NAMES = (
    "Wren", "Ash", "Briar", "Corvin", "Dace", "Elm", "Fenn", "Gale", "Hollis", "Ivo", "Juno", "Kestrel",
    "Lark", "Moss", "Nell", "Oriel", "Pike", "Quill", "Rook", "Sable", "Tamsin", "Umber", "Vale", "Wick",
    "Yarrow", "Zephyr", "Alder", "Bram", "Cinder", "Dune", "Ember", "Flint", "Garnet", "Heath", "Iris",
    "Jasper", "Kit", "Linden", "Marlow", "Nyx", "Onyx", "Perrin", "Rowan", "Sorrel", "Thorne", "Vesper",
    "Willow", "Yew", "Basil", "Clover", "Fable", "Harrow", "Mica", "Orin", "Reed", "Slate", "Tarn", "Wynn",
)

_MODELS: tuple[tuple[str, str], ...] = (
    ("claude-sonnet-4-5-20250929", "anthropic"),
    ("claude-opus-4-1-20250805", "anthropic"),
    ("claude-haiku-4-5-20251001", "anthropic"),
    ("gpt-5-2025-08-07", "openai"),
    ("gpt-5-mini-2025-08-07", "openai"),
    ("gemini-2.5-pro", "google"),
    ("gemini-2.5-flash", "google"),
    ("grok-4-0709", "xai"),
    ("deepseek-chat-v3.1", "deepseek"),
    ("qwen3-235b-a22b-instruct-2507", "alibaba"),
    ("kimi-k2-0905", "moonshot"),
    ("mistral-medium-2508", "mistral"),
)

_SCAFFOLDS: tuple[tuple[str, str], ...] = (
    ("daishi-harness", "0.6.11"),
    ("daishi-harness", "0.6.12"),
    ("daishi-harness", "0.6.9"),
    ("react-loop", "1.4.0"),
    ("mcp-agent", "0.9.2"),
)

_OPERATORS = (
    "kestrel-labs", "northwind-ai", "tinker-collective", "m.okafor", "blue-heron", "quarry-works",
    "solace-research", "j.lindqvist", "arcade-ml", "fernhill", "p.sato", "lowtide", "ridgeline-ai",
    "copperleaf", "s.ramirez", "oakmoss",
)


def _model(rng: random.Random) -> dict[str, Any]:
    model, provider = _MODELS[int(rng.random() * len(_MODELS))]
    name, version = _SCAFFOLDS[int(rng.random() * len(_SCAFFOLDS))]
    return {"model": model, "provider": provider, "scaffold": {"name": name, "version": version}}


def make_agents(rng: random.Random, n_players: int, n_probes: int, anchor: bool) -> list[Agent]:
    """The seats of a match: ``n_players`` players (one of them an anchor bot when ``anchor``), then probe seats.

    Ids are ``a_`` and 4 hex digits, unique; names are unique while the name list lasts.
    """
    used: set[str] = set()
    names = list(NAMES)
    rng.shuffle(names)
    agents: list[Agent] = []
    total = n_players + n_probes
    anchor_seat = rng.randrange(n_players) if anchor and n_players > 2 else -1
    for i in range(total):
        while True:
            aid = f"a_{rng.getrandbits(16):04x}"
            if aid not in used:
                used.add(aid)
                break
        name = names[i % len(names)] + ("" if i < len(names) else str(i // len(names) + 1))
        if i >= n_players:
            role = "probe"
            model = {"model": "probe-script-v1", "provider": "daishi",
                     "scaffold": {"name": "daishi-probes", "version": "1.0.0"}}
            operator = "daishi-evals"
            name = f"Probe-{i - n_players + 1}"
        elif i == anchor_seat:
            role = "anchor"
            model = {"model": "anchor-bot-2", "provider": "daishi",
                     "scaffold": {"name": "daishi-anchor", "version": "2.1.0"}}
            operator = "daishi-evals"
        else:
            role = "player"
            model = _model(rng)
            operator = _OPERATORS[int(rng.random() * len(_OPERATORS))]
        agents.append(Agent(aid, i + 1, name, role, model, operator, i))
    return agents
