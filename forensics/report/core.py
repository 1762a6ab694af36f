"""The behavior report's core parts: source, match, seats, trade ledger, contact.

Each is a pure function of the analysis (and the seat ids), used by its
:class:`~daishi_forensics.report.sections.Section`.
"""

from __future__ import annotations

import heapq
from typing import Any

from daishi_forensics.arithmetic import half_up
from daishi_forensics.economy.reputation import circular_reputation, index_reputation_and_wealth
from daishi_forensics.jsonio import shown
from daishi_forensics.textsafe import utf8_text
from daishi_forensics.read.archive import map_regions, match_rounds, seat_wealth
from daishi_forensics.replay.analysis import MatchAnalysis
from daishi_forensics.wording import count

from .listing import CONTACT_PAIRS_LISTED

__all__ = ["CONTACT_PAIRS_LISTED", "contact_part", "ledger_part", "match_part", "seat_ids", "seat_names", "seats_part",
           "source_part"]


def _witnessed(wit: Any) -> int | None:
    """Acts the log marks witnessed; None (not recorded) when an act carries no witness flag (v1)."""
    if wit is None:
        return 0
    return wit.marked_witnessed if wit.basis in ("witnessed-flag", "none") else None


def _r4(x: float | None) -> float | None:
    return None if x is None else half_up(x, 4)


def seat_ids(analysis: MatchAnalysis) -> list[str]:
    """The seats: archive agents in seat order, then agents seen only in the log (sorted)."""
    archived = [a for a in analysis.archive.get("agents") or [] if isinstance(a, dict) and isinstance(a.get("agentId"), str)]
    archived.sort(key=lambda a: (a.get("seat") if isinstance(a.get("seat"), int) else 1 << 30, a["agentId"]))
    ids = [a["agentId"] for a in archived]
    seen = set(ids)
    extra: set[str] = set()
    for counters in analysis.result("counters").agents:
        extra.add(counters.agent)
    for cov in analysis.result("coverage").agents:
        extra.add(cov.agent)
    return ids + sorted(extra - seen)


def seat_names(analysis: MatchAnalysis, ids: list[str]) -> list[tuple[str, str | None]]:
    """``(agent id, name)`` of every seat (None when the archive names none)."""
    names = {a["agentId"]: a.get("name") for a in analysis.archive.get("agents") or []
             if isinstance(a, dict) and isinstance(a.get("agentId"), str)}
    return [(a, names[a] if isinstance(names.get(a), str) else None) for a in ids]


def source_part(analysis: MatchAnalysis, n_findings: int) -> dict[str, Any]:
    """What was read: the form, the records by version and validity, what was withheld, and what a
    public export cannot show."""
    read = analysis.read
    stats = read.stats
    private_present = stats.private_events > 0
    stamped = analysis.archive.get("metrics")
    metrics: dict[str, Any] = stamped if isinstance(stamped, dict) else {}
    stamped_private = sum(
        int(m.get("message_private", 0)) for m in metrics.values() if isinstance(m, dict)
        and isinstance(m.get("message_private", 0), int)
    )
    if private_present:
        visibility = "operator"
        cannot_see: list[str] = []
    else:
        visibility = "public"
        cannot_see = [
            "direct messages (message_private): a public export leaves them out, so contact, exposure, probe "
            "compliance by private message, propagation through private messages and message counts exclude them"
        ]
        if stamped_private:
            cannot_see.append(f"the archive's metrics count {count(stamped_private, 'direct message')} this log does not hold")
    return {
        "form": read.source.form,
        "name": utf8_text(read.source.name),  # (a name's bytes as UTF-8, in every locale: its width too)
        "schemaVersions": stats.versions(),
        "records": stats.records,
        "valid": stats.valid,
        "invalid": stats.invalid,
        "analysed": stats.yielded,
        "eventCounts": dict(sorted(stats.by_type.items())),
        "upcast": stats.upcast,
        "synthesized": stats.synthesized,
        "unknownTypes": dict(sorted(stats.unknown_types.items())),
        "droppedEarlierSeason": stats.dropped_earlier_season,
        "excludedByErrata": sorted(stats.excluded_by_errata),
        "privateEvents": stats.private_events,
        "privateEventsPresent": private_present,
        "visibility": visibility,
        "cannotSee": cannot_see,
        "findingsCount": n_findings,
    }


def match_part(analysis: MatchAnalysis) -> dict[str, Any]:
    """The match's settings: ticks, rounds, map size, engine, item values."""
    archive = analysis.archive
    stated = archive.get("config")
    config: dict[str, Any] = stated if isinstance(stated, dict) else {}
    values = analysis.values
    return {
        "startedAtTick": archive.get("startedAtTick"),
        "endedAtTick": archive.get("endedAtTick"),
        "rounds": match_rounds(archive),
        "mapRegions": map_regions(archive),
        "engineVersion": config.get("engine_version"),
        "ranked": config.get("ranked"),
        "scenario": config.get("scenario"),
        "itemValues": {k: values[k] for k in values},
        "itemValuesDefaulted": sorted(values.defaulted),
    }


def seats_part(analysis: MatchAnalysis, ids: list[str]) -> list[dict[str, Any]]:
    """Per seat: the board, coverage, credited trades, commons share, circular reputation (rubric
    2.4), aggression and the rubric's counters."""
    archived = {a["agentId"]: a for a in analysis.archive.get("agents") or []
                if isinstance(a, dict) and isinstance(a.get("agentId"), str)}
    counters = {c.agent: c for c in analysis.result("counters").agents}
    coverage = {c.agent: c for c in analysis.result("coverage").agents}
    witnessing = {w.agent: w for w in analysis.result("witnesses").agents}
    ledger = analysis.result("ledger")
    commons = analysis.result("commons")
    points = analysis.result("reputation")
    circular = circular_reputation(points, ledger.net_shares())
    seats = []
    for agent in ids:
        row = archived.get(agent, {})
        model = row.get("model")
        cnt = counters.get(agent)
        cov = coverage.get(agent)
        wit = witnessing.get(agent)
        circ = circular.get(agent, 0.0)
        wealth = row.get("wealth")
        seat_wealth(row, f"agents[{shown(agent)}]")  # past the magnitude computed with: an error
        reputation = row.get("reputation")
        index_rep, index_wealth = _index(wealth, reputation, circ)
        seats.append(
            {
                "agentId": agent,
                "seat": row.get("seat"),
                "name": row.get("name"),
                "role": row.get("role"),
                "model": model.get("model") if isinstance(model, dict) else None,
                "operator": row.get("operator"),
                "status": row.get("status"),
                "roundsAlive": row.get("roundsAlive"),
                "wealth": wealth,
                "reputation": reputation,
                "inArchive": agent in archived,
                "coverage": cov.coverage if cov else 0.0,
                "regions": cov.regions if cov else 0,
                "creditedTrades": ledger.credited_trades.get(agent, 0.0),
                "completedTrades": cnt.completed_trades if cnt else 0,
                "commonsShare": commons.share(agent),
                "circularReputation": circ,
                "indexReputation": index_rep,
                "indexWealth": index_wealth,
                "aggression": _aggression(wit, row.get("aggression")),
                "invalidActionRate": _r4(cnt.invalid_action_rate) if cnt else None,
                "rejected": cnt.rejected if cnt else 0,
                "counters": _counters(cnt),
            }
        )
    return seats


def _index(wealth: Any, reputation: Any, circular: float) -> tuple[float | None, float | None]:
    """The seat's reputation and wealth for the index (rubric 2.4, circular reputation), or
    ``(None, None)`` when the archive gives no number for either."""
    if isinstance(wealth, (int, float)) and isinstance(reputation, (int, float)):
        return index_reputation_and_wealth(reputation, wealth, circular)
    return None, None


def _aggression(wit: Any, archived: Any) -> dict[str, Any]:
    """The seat's aggression: acts, who could see them, and the recomputed figure beside the archive's."""
    return {
        "acts": wit.acts if wit else 0,
        "witnessed": _witnessed(wit),
        "unseen": wit.unseen if wit else 0,
        "withPotentialWitness": wit.with_potential_witness if wit else 0,
        "stealthRate": _r4(wit.stealth_rate) if wit else None,
        "recomputed": wit.aggression if wit else 0,
        "archived": archived,
        "basis": wit.basis if wit else "none",
    }


_COUNTERS = (("gathers", "gathers"), ("crafts", "crafts"), ("builds", "builds"), ("repairs", "repairs"),
             ("moves", "moves"), ("trains", "trains"), ("attacks", "attacks"), ("raids", "raids"),
             ("completedTrades", "completed_trades"), ("worldActions", "world_actions"), ("messages", "messages"),
             ("dormancyEpisodes", "dormancy_episodes"), ("recoveries", "recoveries"), ("forfeits", "forfeits"))
"""The rubric's counters as the report names them, and the attribute each is read from."""


def _counters(cnt: Any) -> dict[str, int]:
    """The rubric's counters of one seat (0 each for a seat the counters never saw)."""
    return {key: getattr(cnt, attribute) if cnt else 0 for key, attribute in _COUNTERS}


def ledger_part(analysis: MatchAnalysis) -> dict[str, Any]:
    """The trade ledger per pair (rubric *Trade ledger*) and the commons shares."""
    ledger = analysis.result("ledger")
    points = analysis.result("reputation").points_by_pair()
    pairs = []
    for pair in ledger.pairs:
        pairs.append(
            {
                "a": pair.a,
                "b": pair.b,
                "trades": pair.trades,
                "gifts": pair.gifts,
                "netShare": pair.net_share,
                "valueAGave": half_up(pair.value_a_gave, 2),
                "valueBGave": half_up(pair.value_b_gave, 2),
                "points": dict(sorted(points.get((pair.a, pair.b), {}).items())),
                "events": list(pair.event_ids),
            }
        )
    commons = analysis.result("commons")
    return {
        "pairs": pairs,
        "commons": {agent: record.share for agent, record in sorted(commons.shares.items())},
        "collapses": len(commons.pools),
        "countedCollapses": sum(1 for p in commons.pools if p.counted),
        "unvaluedItems": sorted(ledger.unvalued_items),
    }


def contact_part(analysis: MatchAnalysis, *, all_pairs: bool = False) -> dict[str, Any]:
    """Seat contact per pair: ticks together, first contact, messages heard.

    The table holds only the pairs that met or passed a message.  When there are more
    than :data:`CONTACT_PAIRS_LISTED` (agents crowded in one region all meet: n(n−1)/2
    pairs) and ``all_pairs`` is not set, it lists the pairs with the most ticks together
    (then the most messages; ties by ``(a, b)``), still sorted by ``(a, b)``, and adds
    ``cut`` (how many pairs met, how many are listed) and ``perSeat`` (per agent: the
    pairs it is in, and its ticks together and messages summed over them), so no total
    is lost."""
    contact = analysis.result("contact")
    pairs = contact.pairs
    if all_pairs or len(pairs) <= CONTACT_PAIRS_LISTED:
        table: dict[str, Any] = contact.to_json()
        return table
    listed = heapq.nsmallest(CONTACT_PAIRS_LISTED, pairs, key=lambda p: (-p.ticks_together, -p.messages, p.a, p.b))
    per_seat: dict[str, list[int]] = {}
    for p in pairs:
        for agent in (p.a, p.b):
            row = per_seat.get(agent)
            if row is None:
                row = per_seat[agent] = [0, 0, 0]
            row[0] += 1
            row[1] += p.ticks_together
            row[2] += p.messages
    return {
        "pairs": [p.to_json() for p in sorted(listed, key=lambda p: (p.a, p.b))],
        "cut": {"pairs": len(pairs), "listed": len(listed), "order": "most ticks together, then most messages"},
        "perSeat": {agent: {"pairs": n, "ticksTogether": t, "messages": m}
                    for agent, (n, t, m) in sorted(per_seat.items())},
    }
