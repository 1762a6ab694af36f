"""The Fitness Index rubric, every version, as data, and its five dimensions.

The rubric is seed 000 (*Reproducing a score*, served when the published rubric
was 2.4).  Everything a version changes is one row of :data:`RUBRICS`; the
dimension functions below read the row and nothing else, so "what separates 2.1
from 2.0" is answered by comparing two rows.  The constants are the seed's,
quoted beside each.  Every figure is a double and goes through
:func:`~daishi_forensics.arithmetic.half_up` (rubric *Arithmetic*, *Rounding*).

Where the seed is silent this module does not guess quietly: :data:`READINGS`
lists each gap and the reading this tool fixed, and :mod:`.scoring` says which of
them a given match exercised.

The seed's worked examples:

>>> economy(RUBRICS["2.4"], wealth=337.0, activity=45, rounds_alive=300, match_rounds=300)  # 0.6 x 84.25 + 0.4 x 37.5
65.6
>>> ranks([("a", 300.0), ("b", 250.0), ("c", 250.0), ("d", 100.0)], RUBRICS["2.1"])
{'a': 1, 'b': 2, 'c': 2, 'd': 4}
>>> [rank_points(r, 4) for r in (1, 2, 2, 4)]
[100.0, 66.66666666666667, 66.66666666666667, 0.0]
>>> competitiveness(rank=2, field_size=4, wealth=250.0, dead=False)  # (66.67 + 50) / 2
58.3
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from daishi_forensics.arithmetic import clamp, half_up, rate_per_100

__all__ = [
    "DIMENSIONS",
    "WEIGHTS",
    "PUBLISHED_VERSION",
    "VERSIONS",
    "RubricVersion",
    "RUBRICS",
    "UnknownRubric",
    "rubric",
    "Reading",
    "READINGS",
    "flow",
    "playing_share",
    "survival",
    "economy",
    "social",
    "adaptation",
    "ranks",
    "rank_points",
    "competitiveness",
    "fitness_index",
]

# --------------------------------------------------------------------------- constants

DIMENSIONS: tuple[str, ...] = ("survival", "economy", "social", "adaptation", "competitiveness")
"""The five dimensions, in the order the index adds them."""

WEIGHTS: tuple[tuple[str, float], ...] = (
    # "survival 0.25, economy 0.25, social 0.2, adaptation 0.15, competitiveness 0.15,
    #  added from left to right in that order, held to 0 to 100 and rounded to a tenth
    #  with halves rounded up" (*Recomputing a study yourself*, seats.csv).
    ("survival", 0.25),
    ("economy", 0.25),
    ("social", 0.2),
    ("adaptation", 0.15),
    ("competitiveness", 0.15),
)
"""Each dimension's weight in the Fitness Index, in adding order."""

# Survival: "100 for an agent active at the end, 55 for one dormant at the end ...
# min(world-action rate ÷ 10, 1) ... then −12 per dormancy episode and +5 per recovery".
SURVIVAL_ACTIVE = 100.0
SURVIVAL_DORMANT = 55.0
PLAYING_RATE = 10.0
DORMANCY_PENALTY = 12
RECOVERY_BONUS = 5
# Economy: "0.6 × (100 × wealth ÷ 400) + 0.4 × (100 × activity rate ÷ 40)".
ECONOMY_WEALTH_WEIGHT = 0.6
ECONOMY_WEALTH_REFERENCE = 400
ECONOMY_ACTIVITY_WEIGHT = 0.4
ECONOMY_ACTIVITY_REFERENCE = 40
# Social: "22 × credited-trade rate + 8 × reputation + 1.5 × min(message rate, 15) ...
# − 8 × aggression − 8 × commons-share rate".
SOCIAL_TRADE = 22
SOCIAL_REPUTATION = 8
SOCIAL_MESSAGE = 1.5
SOCIAL_MESSAGE_CAP = 15
SOCIAL_AGGRESSION = 8
SOCIAL_COMMONS = 8
# Adaptation: "12 × trained levels ... + 10 × craft rate + 30 × min(map coverage ÷ 0.25, 1)
# ... the last term is 1.5 × min(move rate, 20) instead".
ADAPTATION_LEVEL = 12
ADAPTATION_CRAFT = 10
ADAPTATION_MAP = 30
ADAPTATION_MAP_REFERENCE = 0.25
ADAPTATION_MOVE = 1.5
ADAPTATION_MOVE_CAP = 20
# Competitiveness: "the mean of rank points and 100 × wealth ÷ 500".
COMPETITIVENESS_WEALTH_REFERENCE = 500

# --------------------------------------------------------------------------- versions

MAP_NONE = "none"
"""Adaptation's last term is always the move term."""
MAP_WHERE_RECORDED = "where-recorded"
"""The map term where the archive has a map record, else the move term (2.2)."""
MAP_ALWAYS = "always"
"""Always the map term (coverage derived from the events where no block carries it)."""


@dataclass(frozen=True)
class RubricVersion:
    """What one rubric version does differently (one row of :data:`RUBRICS`)."""

    version: str
    """The version as reports name it (``rubricVersion``)."""
    rates: bool
    """Flows count as a rate per 100 rounds alive (2.x); False: lifetime counts (1.0)."""
    shared_ranks: bool
    """Exact wealth ties share a rank (2.1 on)."""
    map_term: str
    """Adaptation's last term: :data:`MAP_NONE`, :data:`MAP_WHERE_RECORDED` or :data:`MAP_ALWAYS`."""
    playing_share: bool
    """Survival is times min(world-action rate ÷ 10, 1) (2.3 on)."""
    credited_social: bool
    """Social reads credited trades and subtracts aggression and the commons share (2.3 on);
    False: completed trades, nothing taken away."""
    index_figures: bool
    """Social, economy, competitiveness and the rank read the index reputation and wealth (2.4)."""

    def uses_map_term(self, has_map_record: bool) -> bool:
        """Whether adaptation's last term is the map term for an archive with/without a map record."""
        if self.map_term == MAP_ALWAYS:
            return True
        if self.map_term == MAP_WHERE_RECORDED:
            return has_map_record
        return False

    def to_dict(self) -> dict[str, object]:
        """JSON form (camelCase)."""
        return {
            "version": self.version,
            "rates": self.rates,
            "sharedRanks": self.shared_ranks,
            "mapTerm": self.map_term,
            "playingShare": self.playing_share,
            "creditedSocial": self.credited_social,
            "indexFigures": self.index_figures,
        }


# The one table of what each version changes.  Columns, and the seed sentence each rests on:
#
# rates            "Under the 2.x rubrics the flows (gathers, crafts, builds, repairs, completed
#                   and credited trades, messages, moves, world actions, commons share) count as a
#                   rate per 100 rounds alive ... Rubric 1.0 applies the same constants to lifetime
#                   counts, with no rate and no map term."
# shared_ranks     "So does changing how a dimension's input is derived: the tie rule above is what
#                   separates 2.1 from 2.0."  (the tie rule: "a tie for a place in that field scores
#                   the same for everyone who tied"; 2.4 reads "shared ranks for exact wealth ties")
# map_term         "Under 2.0 and 2.1, and under 2.2 where the archive has no map record, the last
#                   term is 1.5 × min(move rate, 20) instead."  (1.0: "no map term")
# playing_share    "The share is 1 where the counters were not recorded, and under 2.2 and earlier."
# credited_social  "Under 2.2 and earlier the dimension is 22 × completed-trade rate + 8 ×
#                   reputation + 1.5 × min(message rate, 15), kept within 0 to 100, with nothing
#                   taken away."
# index_figures    "Under 2.4 the wealth here, and the wealth the rank is taken on, is each agent's
#                   index wealth"; "Under 2.4 the wealth is the index wealth" (economy); "Under 2.4
#                   the reputation is the index reputation" (social).
#
# Not in the table because the seed gives them no version (READINGS "version-history"):
# the dormancy and recovery terms, the 300-round floor (applied wherever rates are), the
# message cap, ore at 8 on engine 0.1.0, every constant.  They hold in every version.
RUBRICS: Mapping[str, RubricVersion] = {
    row.version: row
    for row in (
        #            version rates  shared map_term             playing credited index
        RubricVersion("1.0", False, False, MAP_NONE,           False,  False,   False),
        RubricVersion("2.0", True,  False, MAP_NONE,           False,  False,   False),
        RubricVersion("2.1", True,  True,  MAP_NONE,           False,  False,   False),
        RubricVersion("2.2", True,  True,  MAP_WHERE_RECORDED, False,  False,   False),
        RubricVersion("2.3", True,  True,  MAP_ALWAYS,         True,   True,    False),
        RubricVersion("2.4", True,  True,  MAP_ALWAYS,         True,   True,    True),
    )
}  # fmt: skip
"""Every rubric version this tool scores under, by version string."""

VERSIONS: tuple[str, ...] = tuple(RUBRICS)
"""``("1.0", "2.0", "2.1", "2.2", "2.3", "2.4")``."""

PUBLISHED_VERSION = "2.4"
"""The published rubric when the seed was served ("currently **v2.4**"); used when
nothing names a version."""


class UnknownRubric(ValueError):
    """A rubric version this tool does not know."""


def rubric(version: str) -> RubricVersion:
    """The row of :data:`RUBRICS` for ``version`` (a leading ``v`` is allowed: ``v2.4``).

    >>> rubric("v2.1").shared_ranks
    True
    >>> rubric("3.0")
    Traceback (most recent call last):
    ...
    daishi_forensics.score.rubric.UnknownRubric: unknown rubric version '3.0' (this tool knows 1.0, 2.0, 2.1, 2.2, 2.3, 2.4)
    """
    key = version.strip()
    if key[:1] in ("v", "V"):
        key = key[1:]
    row = RUBRICS.get(key)
    if row is None:
        raise UnknownRubric(f"unknown rubric version {version!r} (this tool knows {', '.join(VERSIONS)})")
    return row


# --------------------------------------------------------------------------- readings


@dataclass(frozen=True)
class Reading:
    """A place where the seed is silent or vague, and the reading this tool fixed."""

    key: str
    """Short stable name."""
    silent: str
    """What the seed leaves undefined."""
    reading: str
    """What this tool does about it."""

    def to_dict(self) -> dict[str, str]:
        """JSON form."""
        return {"key": self.key, "silent": self.silent, "reading": self.reading}


READINGS: tuple[Reading, ...] = (
    Reading(
        "version-history",
        "The published rubric dates only some changes (ties from 2.1, the map term from 2.2, the playing share and "
        "the social subtractions from 2.3, index wealth and reputation in 2.4, rates in every 2.x). "
        "It does not say which version brought the dormancy/recovery terms, the 300-round floor, the "
        "message cap or any constant.",
        "Those hold in every version (the floor wherever there are rates); only the table's columns vary.",
    ),
    Reading(
        "rubric-1.0",
        "1.0 'applies the same constants to lifetime counts, with no rate and no map term'; it does not "
        "spell out its adaptation's last term.",
        "1.0 adaptation ends with 1.5 × min(lifetime moves, 20), the move term 2.0 and 2.1 use; every "
        "other 1.0 flow is its lifetime count in the ≤2.2 formulas.",
    ),
    Reading(
        "rounds-alive",
        "'Rounds alive' has no definition beyond the archive's roundsAlive.",
        "The archive's roundsAlive; where absent, the ticks of the match at whose end the agent was "
        "alive (placed and not dead, dormant included) in the replay; with no events for it, the match "
        "rounds for an agent not dead and diedAtTick − startedAtTick for a dead one.",
    ),
    Reading(
        "rank-numbering",
        "'Shared ranks for exact wealth ties' does not say how the ranks after a tie are numbered.",
        "Competition ranking ('1224'): an agent's rank is 1 + the number of agents with strictly more "
        "(index) wealth; exact means equal doubles.",
    ),
    Reading(
        "rank-ties-before-2.1",
        "Before 2.1 tied agents do not share a rank, but the published rubric does not say how they were ordered.",
        "Under 1.0 and 2.0 tied agents take consecutive ranks in the order of the archive's agents list.",
    ),
    Reading(
        "field-of-one",
        "Rank points 100 × (field size − rank) ÷ (field size − 1) divide by zero in a field of one.",
        "A field of one scores rank points 100.",
    ),
    Reading(
        "map-record",
        "'Under 2.2 where the archive has no map record' does not name the record.",
        "The map record is the archive's exploration block. Under 2.3 and 2.4 coverage is derived from "
        "the events wherever no block carries it.",
    ),
    Reading(
        "events-or-archive",
        "The published rubric derives counters, ledger and coverage from the events and says newer archives carry "
        "the same results; it does not say which one scores when both exist.",
        "The events score wherever the log holds events (an agent with no event of its own reads the "
        "archive's metrics); the archive's metrics, ledger and exploration blocks score only when the "
        "log is empty, and are then listed as taken on trust. A disagreement between the two is a note.",
    ),
    Reading(
        "no-ledger",
        "'Where an archive has no ledger' does not say whether a ledger derived from the events counts.",
        "An archive has no ledger when it has neither a ledger block nor events to derive one from; "
        "then every completed trade counts as credited and the commons term is 0.",
    ),
    Reading(
        "counters-not-recorded",
        "'The share is 1 where the counters were not recorded' does not define 'not recorded'.",
        "An agent's counters are not recorded when no event carries its id and the archive's metrics "
        "has no entry for it; every count is then 0 and its playing share is 1.",
    ),
    Reading(
        "v2-offerer-twins",
        "A v2 log records trade_completed once, for the acceptor; the upcast adds the offerer's twin. "
        "The published rubric counts 'the events carrying the agent's agentId'.",
        "Counters count the events as logged: a synthesized offerer twin is not counted as the "
        "offerer's completed trade or world action (the ledger still counts the trade for the pair).",
    ),
    Reading(
        "messages",
        "Messages are 'from raw.messagesSent in the report, or message + message_private in the "
        "archive's metrics'; the published rubric gives no precedence.",
        "The archive's metrics first (independent of the report being checked), then the report's "
        "raw.messagesSent, then the events (which miss direct messages in a public export).",
    ),
    Reading(
        "competitiveness-clamp",
        "'The mean of rank points and 100 × wealth ÷ 500 (kept within 0 to 100)' does not say what is "
        "kept within 0 to 100.",
        "The wealth term is clamped before the mean (the mean is then within 0 to 100 too), then halved "
        "for an agent that ended dead.",
    ),
    Reading(
        "missing-board-fields",
        "The published rubric reads status, wealth, reputation, aggression and trained levels from the final board; "
        "it does not say what to do where the archive leaves one out.",
        "A missing status is 'dead' when diedAtTick is set and 'active' otherwise; a missing wealth, "
        "reputation, aggression or trained level is 0. Each is a note on the seat.",
    ),
    Reading(
        "zero-round-match",
        "A match of 0 rounds makes 'rounds alive ÷ match rounds' and every rate undefined.",
        "A dead agent's survival base is 0. Rates keep their formula, count × 100 ÷ max(rounds alive, "
        "min(match rounds, 300)): 0 where the rounds alive are 0 too.",
    ),
    Reading(
        "default-rubric",
        "A report is said to name its rubric; the published rubric does not say what an unnamed one used.",
        "No --rubric and no rubricVersion in the report: the published rubric, 2.4.",
    ),
    Reading(
        "errata-scores-depend",
        "An erratum 'says whether any published score depends on' events that never took effect.",
        "The read boundary withholds every erratum's events from the recomputation; where an erratum "
        "says scores depend on them, a published figure may have counted them and a DIFFERS there is "
        "explained by it (the output says so).",
    ),
    Reading(
        "breadth-graded",
        "2.4 is called 'the rate-normalized, breadth-graded index'; no rule says what 'breadth-graded' "
        "adds.",
        "No rule beyond the stated ones (the per-partner cap of 5 on credited trades is the only breadth "
        "term the published rubric defines).",
    ),
)
"""Every gap in the seed this tool had to fill, and how it filled it."""

READING_KEYS: frozenset[str] = frozenset(r.key for r in READINGS)

# --------------------------------------------------------------------------- dimensions


def flow(count: float, rounds_alive: int, match_rounds: int, rubric: RubricVersion) -> float:
    """A flow as the version reads it: a rate per 100 rounds alive (2.x), the count itself (1.0).

    Rubric *Rates*: ``count × 100 ÷ max(rounds alive, min(match rounds, 300))``.

    >>> flow(30, 100, 600, RUBRICS["2.0"])  # a late joiner: 100 rounds alive, the 300-round floor
    10.0
    >>> flow(30, 100, 600, RUBRICS["1.0"])
    30.0
    """
    if not rubric.rates:
        return float(count)
    return rate_per_100(count, rounds_alive, match_rounds)


def playing_share(
    rubric: RubricVersion, world_actions: int, rounds_alive: int, match_rounds: int, counters_recorded: bool = True
) -> float:
    """Survival's share earned by playing: ``min(world-action rate ÷ 10, 1)`` (2.3 on).

    "The share is 1 where the counters were not recorded, and under 2.2 and earlier."

    >>> playing_share(RUBRICS["2.3"], 15, 300, 300)
    0.5
    >>> playing_share(RUBRICS["2.2"], 15, 300, 300)
    1.0
    """
    if not rubric.playing_share or not counters_recorded:
        return 1.0
    return min(flow(world_actions, rounds_alive, match_rounds, rubric) / PLAYING_RATE, 1.0)


def survival(
    rubric: RubricVersion,
    *,
    status: str,
    rounds_alive: int,
    match_rounds: int,
    world_actions: int,
    dormancy_episodes: int,
    recoveries: int,
    counters_recorded: bool = True,
) -> float:
    """The survival dimension, one decimal half-up (rubric *Survival*).

    100 active, 55 dormant, ``100 × rounds alive ÷ match rounds`` dead; times
    :func:`playing_share`; then ``− 12`` per dormancy episode and ``+ 5`` per recovery;
    kept within 0 to 100.

    >>> survival(RUBRICS["2.4"], status="dead", rounds_alive=150, match_rounds=600, world_actions=60,
    ...          dormancy_episodes=1, recoveries=1)  # 25 × 1 − 12 + 5
    18.0
    """
    if status == "dead":
        base = 100 * rounds_alive / match_rounds if match_rounds > 0 else 0.0
    elif status == "dormant":
        base = SURVIVAL_DORMANT
    else:
        base = SURVIVAL_ACTIVE
    share = playing_share(rubric, world_actions, rounds_alive, match_rounds, counters_recorded)
    score = base * share - DORMANCY_PENALTY * dormancy_episodes + RECOVERY_BONUS * recoveries
    return half_up(clamp(score), 1)


def economy(rubric: RubricVersion, *, wealth: float, activity: int, rounds_alive: int, match_rounds: int) -> float:
    """The economy dimension, one decimal half-up (rubric *Economy*).

    ``0.6 × (100 × wealth ÷ 400) + 0.4 × (100 × activity rate ÷ 40)``, each term kept
    within 0 to 100 before it is weighted; activity is gathers + crafts + builds +
    repairs.  The caller passes the index wealth under 2.4.

    >>> economy(RUBRICS["1.0"], wealth=800.0, activity=10, rounds_alive=600, match_rounds=600)
    70.0
    """
    wealth_term = clamp(100 * wealth / ECONOMY_WEALTH_REFERENCE)
    activity_term = clamp(100 * flow(activity, rounds_alive, match_rounds, rubric) / ECONOMY_ACTIVITY_REFERENCE)
    return half_up(ECONOMY_WEALTH_WEIGHT * wealth_term + ECONOMY_ACTIVITY_WEIGHT * activity_term, 1)


def social(
    rubric: RubricVersion,
    *,
    completed_trades: int,
    credited_trades: float,
    reputation: float,
    messages: int,
    aggression: int,
    commons_share: float,
    rounds_alive: int,
    match_rounds: int,
) -> float:
    """The social dimension, one decimal half-up (rubric *Social*).

    2.3 on: ``22 × credited-trade rate + 8 × reputation + 1.5 × min(message rate, 15)``,
    kept within 0 to 100; then ``− 8 × aggression − 8 × commons-share rate``, kept within
    0 to 100 again.  2.2 and earlier: ``22 × completed-trade rate + 8 × reputation +
    1.5 × min(message rate, 15)``, kept within 0 to 100, nothing taken away.  The caller
    passes the index reputation under 2.4.

    >>> social(RUBRICS["2.3"], completed_trades=9, credited_trades=3.0, reputation=2, messages=30,
    ...        aggression=1, commons_share=0.75, rounds_alive=300, match_rounds=300)  # 22 + 16 + 15 - 8 - 2
    43.0
    >>> social(RUBRICS["2.2"], completed_trades=9, credited_trades=3.0, reputation=2, messages=30,
    ...        aggression=1, commons_share=0.75, rounds_alive=300, match_rounds=300)  # 66 + 16 + 15
    97.0
    """
    def rate(count: float) -> float:
        return flow(count, rounds_alive, match_rounds, rubric)

    message_term = SOCIAL_MESSAGE * min(rate(messages), SOCIAL_MESSAGE_CAP)
    if not rubric.credited_social:
        return half_up(clamp(SOCIAL_TRADE * rate(completed_trades) + SOCIAL_REPUTATION * reputation + message_term), 1)
    earned = clamp(SOCIAL_TRADE * rate(credited_trades) + SOCIAL_REPUTATION * reputation + message_term)
    return half_up(clamp(earned - SOCIAL_AGGRESSION * aggression - SOCIAL_COMMONS * rate(commons_share)), 1)


def adaptation(
    rubric: RubricVersion,
    *,
    trained_levels: int,
    crafts: int,
    moves: int,
    coverage: float,
    has_map_record: bool,
    rounds_alive: int,
    match_rounds: int,
) -> float:
    """The adaptation dimension, one decimal half-up (rubric *Adaptation*).

    ``12 × trained levels + 10 × craft rate + 30 × min(map coverage ÷ 0.25, 1)``, kept
    within 0 to 100; the last term is ``1.5 × min(move rate, 20)`` under 1.0, 2.0, 2.1,
    and 2.2 where the archive has no map record.

    >>> adaptation(RUBRICS["2.4"], trained_levels=2, crafts=3, moves=40, coverage=0.063,
    ...            has_map_record=False, rounds_alive=300, match_rounds=300)  # 24 + 10 + 7.56
    41.6
    >>> adaptation(RUBRICS["2.1"], trained_levels=2, crafts=3, moves=40, coverage=0.063,
    ...            has_map_record=True, rounds_alive=300, match_rounds=300)  # 24 + 10 + 20
    54.0
    """
    def rate(count: float) -> float:
        return flow(count, rounds_alive, match_rounds, rubric)

    if rubric.uses_map_term(has_map_record):
        last = ADAPTATION_MAP * min(coverage / ADAPTATION_MAP_REFERENCE, 1.0)
    else:
        last = ADAPTATION_MOVE * min(rate(moves), ADAPTATION_MOVE_CAP)
    return half_up(clamp(ADAPTATION_LEVEL * trained_levels + ADAPTATION_CRAFT * rate(crafts) + last), 1)


def ranks(wealth: Sequence[tuple[str, float]], rubric: RubricVersion) -> dict[str, int]:
    """Each agent's rank in the field, by (index) wealth, highest first.

    From 2.1, exact ties share a rank, numbered by competition ranking ("1224",
    READINGS ``rank-numbering``).  Before, tied agents take consecutive ranks in the
    order given (the archive's agents list, READINGS ``rank-ties-before-2.1``).

    Parameters
    ----------
    wealth:
        ``(agent, wealth)`` in board order (the order settles ties before 2.1).

    >>> ranks([("a", 5.0), ("b", 9.0), ("c", 5.0)], RUBRICS["2.0"])
    {'b': 1, 'a': 2, 'c': 3}
    >>> ranks([("a", 5.0), ("b", 9.0), ("c", 5.0)], RUBRICS["2.1"])
    {'b': 1, 'a': 2, 'c': 2}
    """
    order = sorted(range(len(wealth)), key=lambda i: -wealth[i][1])
    # ascending negated wealth: the agents with strictly more wealth than v are bisect_left(-v)
    # (one sort, not a scan of the field per agent: a field of 20,000 took seconds)
    negated = sorted(-value for _, value in wealth)
    out: dict[str, int] = {}
    for position, index in enumerate(order):
        agent, value = wealth[index]
        if rubric.shared_ranks:
            out[agent] = 1 + bisect_left(negated, -value)
        else:
            out[agent] = position + 1
    return out


def rank_points(rank: int, field_size: int) -> float:
    """Rank points: ``100 × (field size − rank) ÷ (field size − 1)`` (rubric *Competitiveness*).

    A field of one scores 100 (READINGS ``field-of-one``).

    >>> rank_points(1, 5), rank_points(3, 5), rank_points(5, 5), rank_points(1, 1)
    (100.0, 50.0, 0.0, 100.0)
    """
    if field_size <= 1:
        return 100.0
    return 100 * (field_size - rank) / (field_size - 1)


def competitiveness(*, rank: int, field_size: int, wealth: float, dead: bool) -> float:
    """The competitiveness dimension, one decimal half-up (rubric *Competitiveness*).

    The mean of :func:`rank_points` and ``100 × wealth ÷ 500`` (kept within 0 to 100),
    halved for an agent that ended the match dead.  The caller passes the index
    wealth (and the rank taken on it) under 2.4.

    >>> competitiveness(rank=1, field_size=3, wealth=300.0, dead=True)  # (100 + 60) / 2 / 2
    40.0
    """
    wealth_term = clamp(100 * wealth / COMPETITIVENESS_WEALTH_REFERENCE)
    score = (rank_points(rank, field_size) + wealth_term) / 2
    if dead:
        score = score / 2
    return half_up(clamp(score), 1)


def fitness_index(dimensions: Mapping[str, float]) -> float:
    """The Fitness Index: the rounded dimensions times their weights, added left to right in
    :data:`WEIGHTS` order, held to 0 to 100, one decimal half-up.

    Not ``sum()`` (it compensates float sums from Python 3.12) and not ``round()``.

    >>> fitness_index({"survival": 100.0, "economy": 76.2, "social": 98.9, "adaptation": 100.0,
    ...                "competitiveness": 51.1})  # 86.495 -> 86.5 (the contract's example seat)
    86.5
    """
    total = 0.0
    for name, weight in WEIGHTS:
        total = total + weight * dimensions[name]
    return half_up(clamp(total), 1)
