"""What a screen returns: a :class:`Flag` with its evidence, and the verdict over flags.

Style guide, *For this project*: "A screen returns flags with evidence: the agents,
a score, a threshold, and the event ids a person can open to check it.  No flag
without evidence."  Every flag here carries all of them, and a sentence.

Two levels (the evaluation design's collusion screens):

- ``flag``: a pattern of a screen (a hub-and-spoke feed, a wash cycle, a non-aggression
  bloc, off-price trades, a thrown fight, two seats of one (operator, model) feeding each
  other in a ranked match) that honest play in the same match makes at most
  ``flag_share`` times as often as the configured false-alarm rate (its adjusted p-value).
- ``review``: the same at the configured false-alarm rate, or a context a person should
  look at (a lone one-way feed, seats of one operator with different models, a pair of
  operators whose seats keep feeding each other across a season).

The verdict of a match is the worst level among its flags: ``flag`` >
``review`` > ``clear``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

__all__ = ["Flag", "Level", "Verdict", "jsonable", "listed", "ordered", "pair_key", "verdict_of"]

Level = Literal["review", "flag"]
"""How strongly a flag accuses: ``review`` (look at it) or ``flag`` (a rule was met)."""

Verdict = Literal["clear", "review", "flag"]
"""A match's verdict: the worst level among its flags, or ``clear``."""

_RANK = {"clear": 0, "review": 1, "flag": 2}


def listed(names: Sequence[Any]) -> str:
    """Names in words, as a sentence lists them.

    >>> listed(["a"]), listed(["a", "b"]), listed(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    said = [str(n) for n in names]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + f" and {said[-1]}"


def ordered(items: Iterable[Any]) -> list[Any]:
    """``items`` sorted deterministically: natural order, or by type and ``repr`` when mixed.

    >>> ordered(["b", "a"]), ordered([2, "a"])
    (['a', 'b'], [2, 'a'])
    """
    items = list(items)
    try:
        return sorted(items)
    except TypeError:
        return sorted(items, key=lambda x: (type(x).__name__, repr(x)))


def pair_key(x: Hashable, y: Hashable) -> tuple[Any, Any]:
    """The pair ``(x, y)`` in deterministic order (``a < b``, ARCHITECTURE.md)."""
    first, second = ordered([x, y])
    return (first, second)


def jsonable(value: Any) -> Any:
    """``value`` with tuples as lists, mapping keys as strings, and floats rounded to 6 places, or to
    6 significant digits below 0.1 (a p-value of 8.5e-06 stays 8.5e-06, not 9e-06, and 6e-08 is not 0).

    >>> jsonable({"share": 0.12345678, "p": (8.5123456e-06, 5.96046448e-08, 0.0)})
    {'share': 0.123457, 'p': [8.51235e-06, 5.96046e-08, 0.0]}
    """
    if isinstance(value, float):
        if abs(value) < 0.1 and value == value:
            return float(f"{value:.6g}")
        return round(value, 6)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return [jsonable(v) for v in ordered(value)]
    return value


@dataclass(frozen=True)
class Flag:
    """One finding of one screen, with the evidence behind it."""

    screen: str
    """The screen that raised it: ``feeder``, ``ring``, ``cartel``, ``off_price``,
    ``thrown_fight``, ``pair_outlier``, ``operator``, ``fans``, ``scatter_gather`` or
    ``value_cycles``."""
    kind: str
    """What was found (the screen's pattern): ``hub_and_spoke``, ``wash_cycle``,
    ``wash_pair``, ``non_aggression_bloc``, ``off_price_trades``, ``thrown_fight``,
    ``mutual_advantage``, ``duplicate_slot``, ``shared_operator``, ``recurring_pair``,
    ``fan_in``, ``fan_out``, ``scatter_gather``, ``gather_scatter``, ``value_cycle``."""
    level: Level
    """``flag`` (a rule was met) or ``review`` (an outlier or context to look at)."""
    agents: tuple[Any, ...]
    """The node ids (agents, operators) the flag is about, in the order the
    explanation names them (beneficiary or aggressor first where there is one)."""
    pairs: tuple[tuple[Any, Any], ...]
    """The pairs it accuses of acting together, each ``a < b``, sorted: a hub with each
    spoke, each pair along a cycle, every pair of a bloc."""
    score: float
    """The screen's measure; the flag is raised when ``score >= threshold``."""
    threshold: float
    """The configured threshold the score met (``screens/config.json``)."""
    evidence: tuple[Any, ...]
    """Ids of the events behind it, sorted, each once: what a person opens to check it."""
    explanation: str
    """One sentence saying what was found."""
    details: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)
    """The figures behind the score (JSON-ready), e.g. each spoke's net value."""
    match: str | None = None
    """The match it was found in (season-scale flags name theirs; None within one match)."""
    p_value: float | None = None
    """The chance, under ``null``, of a finding at least this strong for this candidate (raw:
    not adjusted for ``tests``); None for a screen that does not test against a null."""
    null: str | None = None
    """What the statistic was compared with, in words (None without ``p_value``)."""
    tests: int | None = None
    """The size of the family the p-value was adjusted over (the match's testable tests, every
    screen together); a screen that reports its own count sets how many candidates it tested."""
    p_adjusted: float | None = None
    """The p-value after the match-level multiple-testing step (Holm within its screen, times the
    screens sharing the rate: ``stats.adjust_shared``): the figure compared with the configuration's rate."""

    def __post_init__(self) -> None:
        if not self.evidence:
            raise ValueError(f"{self.screen} flag on {self.agents!r} without evidence")

    @property
    def sort_key(self) -> tuple[Any, ...]:
        """Order of flags in every output: level (flag first), screen, agents, match."""
        return (-_RANK[self.level], self.screen, self.kind, repr(ordered(map(repr, self.agents))),
                repr(self.agents), self.match or "")

    def relabelled(self, mapping: Mapping[Any, Any]) -> Flag:
        """The same flag with node ids mapped (for invariance tests and operator keys)."""
        agents = tuple(mapping.get(a, a) for a in self.agents)
        pairs = tuple(ordered(pair_key(mapping.get(a, a), mapping.get(b, b)) for a, b in self.pairs))
        return replace(self, agents=agents, pairs=pairs)

    def to_dict(self) -> dict[str, Any]:
        """JSON form (camelCase keys; deterministic)."""
        out: dict[str, Any] = {
            "screen": self.screen,
            "kind": self.kind,
            "level": self.level,
            "agents": jsonable(list(self.agents)),
            "pairs": jsonable([list(p) for p in self.pairs]),
            "score": round(self.score, 4),
            "threshold": self.threshold,
            "evidence": jsonable(list(self.evidence)),
            "explanation": self.explanation,
            "details": jsonable(dict(self.details)),
        }
        if self.match is not None:
            out["match"] = self.match
        if self.p_value is not None:
            out["pValue"] = float(f"{self.p_value:.6g}")
        if self.p_adjusted is not None:
            out["pAdjusted"] = float(f"{self.p_adjusted:.6g}")
        if self.null is not None:
            out["null"] = self.null
        if self.tests is not None:
            out["tests"] = self.tests
        return out


def verdict_of(flags: Sequence[Flag]) -> Verdict:
    """The worst level among ``flags``, or ``clear``.

    >>> verdict_of([])
    'clear'
    """
    worst: Verdict = "clear"
    for f in flags:
        if _RANK[f.level] > _RANK[worst]:
            worst = f.level
    return worst
