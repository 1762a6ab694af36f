"""What the propagation rules learn from the match itself -- the lag window
(:mod:`daishi_forensics.injection._delays`, rule 6), the chance of a cut (rule 7) -- and the
stock-phrase senders of rule 4, on hand-built delays and hand-built worlds.

The world: ``a_1`` broadcasts twenty unrelated stories, one every 100 ticks; ``a_2`` (who hears every
broadcast, like ``a_9`` who only listens) passes each on word for word after the delays ``DELAYS``
(nineteen of them within the 20-tick window, falling off slowly) and the last one 26 ticks later,
beyond the fixed window."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import daishi_forensics.injection.propagation as P
from daishi_forensics.injection._delays import (
    MAX_LOOKALIKES, MAX_WIDEN, MIN_CHILDREN, TAIL, fit_delays, learnt_window,
)
from daishi_forensics.injection.exposure import ExposurePass, MessageLog
from daishi_forensics.replay import replay

DELAYS = [1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 11, 13, 16, 19]
LATE = 26


def test_too_few_children_keep_the_window() -> None:
    assert learnt_window([20] * (MIN_CHILDREN - 1), 20) == 20
    assert learnt_window([], 20) == 20


def test_quick_forwarders_keep_the_window_and_it_never_narrows() -> None:
    assert learnt_window([1, 1, 2, 1, 3, 1, 2, 1, 1, 2, 1, 1, 4, 1], 20) == 20


def test_the_window_is_the_quantile_of_the_fitted_delay() -> None:
    fit = fit_delays(DELAYS, 20)
    # delays falling off slowly within the window: a slow geometric, few lookalikes
    assert 0.0 < fit.p < 0.15 and fit.lookalikes <= MAX_LOOKALIKES and fit.children == len(DELAYS)
    expected = math.ceil(math.log(TAIL) / math.log(1.0 - fit.p)) - 1
    assert learnt_window(DELAYS, 20) == max(20, min(MAX_WIDEN * 20, expected)) > 20


def test_delays_spread_evenly_keep_the_window() -> None:
    """As many delays at every tick: a flat geometric and lookalikes cannot be told apart."""
    fit = fit_delays(list(range(21)) * 3, 20)
    assert fit.lookalikes > MAX_LOOKALIKES
    assert learnt_window(list(range(21)) * 3, 20) == 20


def test_the_window_is_capped() -> None:
    slow = [k for k in range(6) for _ in range(round(100 * 0.8 ** k))]  # p = 0.2 over a 5-tick window
    assert fit_delays(slow, 5).lookalikes <= MAX_LOOKALIKES
    assert learnt_window(slow, 5) == MAX_WIDEN * 5 == 15  # all but 1% within 20 ticks


def test_the_fit_finds_the_delay_among_lookalikes() -> None:
    rng = random.Random(5)
    delays = []
    for _ in range(3000):
        if rng.random() < 0.2:
            delays.append(rng.randint(0, 20))  # a lookalike: any tick of the window
            continue
        d = 0
        while rng.random() > 0.25:  # passed on with chance 0.25 each tick
            d += 1
        if d <= 20:
            delays.append(d)
    fit = fit_delays(delays, 20)
    assert abs(fit.p - 0.25) < 0.03 and abs(fit.lookalikes - 0.2) < 0.05


def _word(k: int) -> str:
    consonants, vowels = "bdfgklmnprstvz", "aeiou"
    return "".join(consonants[(k // 70) % 14] + vowels[(k // 14) % 5] + consonants[k % 14] + vowels[(k * 3) % 5])


def _story(k: int) -> str:
    return " ".join(_word(k * 7 + w) for w in range(7))


def _world() -> MessageLog:
    def at(eid: int, tick: int, type_: str, agent: str, **payload: Any) -> dict[str, Any]:
        return {"id": eid, "tick": tick, "type": type_, "agentId": agent, "payload": payload}

    evs = [at(k + 1, 0, "agent_spawned", a, region="r_0_0") for k, a in enumerate(("a_1", "a_2", "a_9"))]
    for k, delay in enumerate([*DELAYS, LATE]):
        evs.append(at(100 + 2 * k, 100 * (k + 1), "message", "a_1", text=_story(k), channel="broadcast"))
        evs.append(at(101 + 2 * k, 100 * (k + 1) + delay, "message", "a_2", text=_story(k), channel="broadcast"))
    return _messages(evs)


def _messages(evs: list[dict[str, Any]]) -> MessageLog:
    """The message log the exposure pass keeps of ``evs``, replayed in tick order."""
    evs.sort(key=lambda e: (e["tick"], e["id"]))
    p = ExposurePass({})
    replay(evs, {}, [p])
    log = p.result().messages
    assert isinstance(log, MessageLog)
    return log


def test_slow_forwarders_widen_the_window() -> None:
    log = _world()
    assert len({_word(k) for k in range(20 * 7)}) == 20 * 7  # twenty unrelated stories
    fixed = P.echo_reading(log, learn_lag=False)
    assert fixed.max_lag == P.MAX_LAG
    assert [(e.parent, e.child, e.lag) for e in fixed.edges] == [
        (100 + 2 * k, 101 + 2 * k, d) for k, d in enumerate(DELAYS)]
    learnt = P.echo_reading(log)
    assert learnt.max_lag == learnt_window(DELAYS, P.MAX_LAG) > LATE
    assert [(e.parent, e.child, e.lag) for e in learnt.edges] == [
        (100 + 2 * k, 101 + 2 * k, d) for k, d in enumerate([*DELAYS, LATE])]
    assert P.echo_edges(log) == (learnt.edges, learnt.stock)
    prop = P.propagation(log)
    assert prop.max_lag == learnt.max_lag and prop.to_json()["rules"]["maxLag"] == learnt.max_lag


@pytest.mark.parametrize(("origins", "unprompted", "stock"), [(2, 2, True), (1, 2, False), (1, 3, True), (0, 0, False)])
def test_stock_phrase_senders(origins: int, unprompted: int, stock: bool) -> None:
    """Rule 4: two senders who never heard it, or three who said it away from hearing it."""
    spread = P.Spread((1, 2, 3), unprompted, origins, 0, 100, 1.0, unprompted_senders=unprompted)
    assert spread.stock(P.STOCK_ALPHA) is stock
    assert not P.Spread((1, 2, 3), unprompted, origins, 5, 100, 0.001, unprompted_senders=unprompted).stock(P.STOCK_ALPHA)


def _log(*msgs: tuple[int, int, str, str]) -> MessageLog:
    evs: list[dict[str, Any]] = [{"id": k + 1, "tick": 0, "type": "agent_spawned", "agentId": a, "payload": {"region": "r_0_0"}}
                                 for k, a in enumerate(("a_1", "a_2", "a_3", "a_9"))]
    evs += [{"id": e, "tick": t, "type": "message", "agentId": a, "payload": {"text": x, "channel": "broadcast"}}
            for e, t, a, x in msgs]
    return _messages(evs)


def test_a_short_cut_copy_is_timed_from_its_own_story() -> None:
    """Rule 6: ``a_2`` heard a chatter line sharing five words with its cut copy 99 ticks before the
    story; the copy is timed from the story it heard a tick before, not from the chatter line."""
    log = _log((10, 1, "a_1", "lost two planks to a thief near the north ford last night, watch your packs everyone"),
               (20, 100, "a_3", "a fire broke out at the north ford near the old mill, stay clear until dawn"),
               (21, 101, "a_2", "a fire broke out at the north ford near"))
    assert [(e.parent, e.child, e.lag) for e in P.echo_edges(log)[0]] == [(20, 21, 1)]


def test_a_cut_copy_repunctuated_inherits_the_heard_cut() -> None:
    """Rule 7: ``a_3`` heard the full story (10) and ``a_2``'s copy cut after 8 words (11), and says the
    cut copy with a full stop.  Of the 5 children with one candidate (11 and four exact copies of
    unrelated stories) one was cut: a cut weighs log2(8 + 1) + log2((5 + 2) / (1 + 1)) = 4.98 bits
    from 10, more than the full stop's 4 (:data:`~daishi_forensics.injection._lineage.ENDING_BITS`) from 11."""
    full = "a fire broke out at the north ford near the old mill, stay clear until dawn"
    msgs = [(10, 1, "a_1", full), (11, 2, "a_2", "a fire broke out at the north ford near"),
            (12, 3, "a_3", "a fire broke out at the north ford near.")]
    for k in range(4):
        msgs += [(20 + 2 * k, 10 + 10 * k, "a_1", _story(k)), (21 + 2 * k, 11 + 10 * k, "a_2", _story(k))]
    edges = P.echo_edges(_log(*sorted(msgs, key=lambda m: m[1])))[0]
    assert [(e.parent, e.child, e.mutations) for e in edges[:2]] == [
        (10, 11, ("cut at the end (7 words)",)), (11, 12, ("ending '.'",))]
    assert edges[1].reason == "inherits cut at the end of 11"
    assert math.log2(9) + math.log2(7 / 2) == pytest.approx(4.977, abs=1e-3)


EVENT = "a fire broke out at the north ford near the old mill, stay clear until dawn"


def _twin_world(second_report_tick: int) -> MessageLog:
    """``a_1`` (r_0_0) and ``a_4`` (r_9_9) report EVENT locally at tick 100, heard by nobody else
    (``a_3`` and ``a_9`` stand in r_0_0 and hear ``a_1``); ``a_2`` (r_5_5, alone) reports it locally at
    ``second_report_tick``; ``a_3`` broadcasts it at tick 102, two ticks after hearing ``a_1``.  Chatter at
    ticks 1 and 300 makes the match 300 ticks long."""
    spawns = [("a_1", "r_0_0"), ("a_2", "r_5_5"), ("a_3", "r_0_0"), ("a_4", "r_9_9"), ("a_9", "r_0_0")]
    evs: list[dict[str, Any]] = [{"id": k + 1, "tick": 0, "type": "agent_spawned", "agentId": a,
                                  "payload": {"region": r}} for k, (a, r) in enumerate(spawns)]
    said = [(10, 1, "a_9", _story(1), "broadcast"), (20, 100, "a_1", EVENT, "local"),
            (21, 100, "a_4", EVENT, "local"), (22, second_report_tick, "a_2", EVENT, "local"),
            (30, 102, "a_3", EVENT, "broadcast"), (40, 300, "a_9", _story(2), "broadcast")]
    evs += [{"id": e, "tick": t, "type": "message", "agentId": a, "payload": {"text": x, "channel": c}}
            for e, t, a, x, c in said]
    return _messages(evs)


def test_twin_reports_of_one_event_are_not_a_stock_phrase() -> None:
    """Rule 4: three agents who heard nobody report one event within a tick of each other (ticks 100,
    100, 101): were it a phrase said at any of the match's 300 ticks, all three within two ticks has
    chance 3 (2/300)^2 - 2 (2/300)^3 = 1.33e-4 (:func:`burst_p_value`), so the twins stay roots and
    ``a_3``'s repeat of ``a_1``'s report, the only one it heard, is its copy."""
    assert P.burst_p_value(1, 3, 300) == pytest.approx(3 * (2 / 300) ** 2 - 2 * (2 / 300) ** 3)
    edges, stock = P.echo_edges(_twin_world(101))
    assert [(e.parent, e.child, e.reason) for e in edges] == [(20, 30, "only exposed candidate")] and stock == 0


def test_the_same_reports_spread_over_the_match_are_a_stock_phrase() -> None:
    """Rule 4: the third report 80 ticks before the other two (chance 3 x^2 - 2 x^3 at x = 81/300: 0.18, no
    surprise) -- three agents saying it on their own at any time: a stock phrase, ``a_3``'s repeat unlinked."""
    assert P.burst_p_value(80, 3, 300) == pytest.approx(3 * 0.27 ** 2 - 2 * 0.27 ** 3)
    edges, stock = P.echo_edges(_twin_world(20))
    assert edges == () and stock == 1


def test_joint_p_value_is_fishers() -> None:
    """Fisher's method for two p-values: P(chi2_4 >= x) = e^(-x/2) (1 + x/2) at x = -2 ln(p1 p2)."""
    x = -2 * math.log(0.05 * 0.2)
    assert P.joint_p_value(0.05, 0.2) == pytest.approx(math.exp(-x / 2) * (1 + x / 2))
    assert P.joint_p_value(0.3) == pytest.approx(0.3)


def test_a_phrase_said_on_its_own_through_a_stretch_of_the_match_is_no_burst() -> None:
    """Rule 4: six agents, each alone in its region, say EVENT unheard at ticks 100, 110, ..., 150 of a
    3000-tick match, and ``a_3`` repeats ``a_1``'s two ticks after hearing it.  Were every tick alike,
    six within 51 ticks would be a surprise (6 x^5 - 5 x^6 at x = 51/3000: 8.5e-9), but they are 50 ticks
    apart, more than the lag window: not said at once, a phrase agents say on their own in one phase of
    the match -- a stock phrase, the repeat unlinked."""
    spawns = [("a_1", "r_0_0"), ("a_3", "r_0_0"), ("a_9", "r_0_0")] + [(f"a_{k}", f"r_{k}_{k}") for k in range(4, 9)]
    evs: list[dict[str, Any]] = [{"id": k + 1, "tick": 0, "type": "agent_spawned", "agentId": a,
                                  "payload": {"region": r}} for k, (a, r) in enumerate(spawns)]
    said = [(10, 1, "a_9", _story(1), "broadcast"), (20, 100, "a_1", EVENT, "local"),
            (21, 102, "a_3", EVENT, "local"), (40, 3000, "a_9", _story(2), "broadcast")]
    said += [(30 + k, 100 + 10 * k, f"a_{k + 3}", EVENT, "local") for k in range(1, 6)]
    evs += [{"id": e, "tick": t, "type": "message", "agentId": a, "payload": {"text": x, "channel": c}}
            for e, t, a, x, c in said]
    log = _messages(evs)
    assert P.burst_p_value(50, 6, 3000) == pytest.approx(6 * (51 / 3000) ** 5 - 5 * (51 / 3000) ** 6)
    edges, stock = P.echo_edges(log)
    assert edges == () and stock == 1
