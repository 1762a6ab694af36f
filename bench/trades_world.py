"""A fourth payment economy, honest-heavy, with planted fan-in and cycle cases.

Written before any rule was changed to find long loops or to tell honest friend webs from
laundering, and at first run only to report (seeds 1-4); since screens config 2.12.0 it has a tune
split (seeds 1001-1008) and a report split (seeds 2001-2008) in ``bench/typologies.py``.  It
shares no code with ``forensics/simulate/transfers.py``, ``bench/payments_world.py`` or
``bench/neighbourhood_world.py`` and follows its own mechanics: a year of a market town's
people and small firms paying each other, one edge per payment with only ``value``, ``tick``
(the hour of the year, so a day is 24 ticks) and ``event``.

Honest life, with the shapes that look like laundering:

- **trades and invoices**: sole traders and small firms (plumbers, bakers, printers, garages)
  invoice their clients -- households and other firms -- and are paid 10 to 45 days after the
  work, a different amount each job; some clients come back, many never do (strangers paying
  once is ordinary business);
- **subcontracting**: a firm passes part of a job's invoice on to a subcontractor a few days
  after it is paid (money passed on, less the firm's share);
- **payroll and suppliers**: firms pay staff monthly, and a supplier after each delivery;
- **household bills**: rent or mortgage, energy, phone, insurance: one payee each, the same
  amount (or about it) every month;
- **second-hand sales**: people sell things to strangers on a marketplace: one payment, one
  time, any amount;
- **family**: parents pay pocket money weekly; grown children send some back home; on a
  birthday, relatives send gifts on the same day (alike round sums, once a year);
- **clubs**: a sports club's members pay the treasurer the season's fee (one amount) within two
  weeks, once a year, and the treasurer pays the league and the pitch soon after;
- **lending among friends**: a friend lends a round sum and is paid back in one or a few
  instalments weeks later, both ways over the year (mutual, recurring);
- **fundraisers**: now and then a neighbour raises money for a cause: many one-off donors in a
  few days, amounts of a few round sizes, passed on to a charity.

Laundering, planted the way AMLSim's alert typologies are (``docs/typologies.md``): each case's
members are a busy account's own counterparties, topped up with accounts drawn at random (so
launderers carry honest traffic), inside a window of one to four weeks:

- **fan_in**: six to sixteen members pay one beneficiary once each, amounts between a
  case's minimum and twice it, on one day, at a fixed interval, or at random hours;
- **cycle**: three to twelve accounts pass one sum round the loop in order, each hop between an
  hour and three days after the one before, each member keeping a cut of up to five per cent.

    python bench/trades_world.py --accounts 3000 --seed 1
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

import networkx as nx

from _common import PlantedWorld

KINDS = ("fan_in", "cycle")

DAY = 24
"""Ticks per day: the world's clock is the hour of the year."""


TradesWorld = PlantedWorld
"""A generated year of a market town's payments and their truth."""


def trades_world(accounts: int = 3000, seed: int = 1, days: int = 365, cases_per_kind: float = 0.002,
                 launder: bool = True) -> TradesWorld:
    """A year of a market town's payments (module docstring); ``launder=False`` plants nothing."""
    rng = random.Random(f"trades:{accounts}:{seed}:{days}:{cases_per_kind}:{launder}")
    graph = nx.MultiDiGraph(name=f"tw_{seed}")
    end = days * DAY
    count = [0]

    def pay(u: str, v: str, value: float, hour: float) -> None:
        if u == v or value <= 0:
            return
        count[0] += 1
        graph.add_edge(u, v, value=round(value, 2), tick=int(max(0, min(end - 1, hour))), event=f"t{count[0]}")

    def at(day: float) -> float:  # an hour of business on a day
        return day * DAY + rng.randrange(8, 20)

    n_firm = max(10, accounts // 15)
    n_big = 8  # landlords' agents, the energy and phone companies, insurers, the mortgage bank
    n_charity, n_league = 3, 2
    n_people = accounts - n_firm - n_big - n_charity - n_league
    people = [f"p{i:05d}" for i in range(n_people)]
    firms = [f"f{i:04d}" for i in range(n_firm)]
    bigs = [f"b{i}" for i in range(n_big)]
    charities = [f"c{i}" for i in range(n_charity)]
    leagues = [f"g{i}" for i in range(n_league)]
    for name in people + firms + bigs + charities + leagues:
        graph.add_node(name)
    # households' bills: each pays two to four of the big payees monthly, about the same amount
    for h in people:
        for b in rng.sample(bigs, rng.randrange(2, 5)):
            amount, day0, wobble = rng.lognormvariate(4.5, 0.7), rng.randrange(1, 28), rng.choice((0.0, 0.0, 0.15))
            for month in range(days // 30):
                pay(h, b, amount * (1 + wobble * rng.uniform(-1, 1)), at(month * 30 + day0))
    # firms: staff, trades with clients, suppliers and subcontractors
    scale = {f: rng.lognormvariate(5.0, 0.8) for f in firms}
    employed = {h: rng.choice(firms) for h in people if rng.random() < 0.55}
    staff: dict[str, list[str]] = {f: [] for f in firms}
    for h, f in sorted(employed.items()):
        staff[f].append(h)
    for f in firms:
        payday = rng.randrange(25, 29)
        wages = {h: rng.lognormvariate(7.4, 0.3) for h in staff[f]}
        for month in range(days // 30):
            for h in staff[f]:
                pay(f, h, wages[h], at(month * 30 + payday - rng.randrange(0, 2)))
    supplier = {f: rng.sample(firms, 2) for f in firms}
    sub = {f: rng.choice(firms) for f in firms}
    for f in firms:
        regulars = rng.sample(people, min(len(people), rng.randrange(3, 25)))
        for _ in range(rng.randrange(20, 150)):
            day = rng.randrange(days)
            client = rng.choice(regulars) if rng.random() < 0.5 else (
                rng.choice(firms) if rng.random() < 0.15 else rng.choice(people))
            invoice = scale[f] * rng.lognormvariate(0, 0.6)
            paid = day + rng.randrange(10, 46)
            pay(client, f, invoice, at(paid))
            if rng.random() < 0.2:  # a share of the job passed to a subcontractor
                pay(f, sub[f], invoice * rng.uniform(0.3, 0.6), at(paid + rng.randrange(2, 10)))
        for week in range(0, days, 7 * rng.randrange(1, 5)):
            pay(f, rng.choice(supplier[f]), scale[f] * rng.lognormvariate(0.5, 0.5), at(week + rng.randrange(7)))
    # second-hand sales between strangers
    for _ in range(n_people // 2):
        buyer, seller = rng.sample(people, 2)
        pay(buyer, seller, rng.lognormvariate(3.5, 1.0), at(rng.randrange(days)))
    # families: pocket money, money home, birthdays
    homes = list(people)
    rng.shuffle(homes)
    families = [homes[i:i + rng.randrange(3, 8)] for i in range(0, len(homes), 6)]
    for family in families:
        if len(family) < 3:
            continue
        parent, kids = family[0], family[1:]
        for kid in kids[:2]:
            if rng.random() < 0.5:
                pocket, wd = rng.choice((5.0, 10.0, 15.0)), rng.randrange(7)
                for week in range(0, days - 7, 7):
                    pay(parent, kid, pocket, at(week + wd))
            elif rng.random() < 0.4:
                home, md = rng.lognormvariate(4.5, 0.5), rng.randrange(28)
                for month in range(days // 30):
                    pay(kid, parent, home, at(month * 30 + md))
        for birthday in family:
            if rng.random() < 0.7:
                day = rng.randrange(days)
                for relative in family:
                    if relative != birthday and rng.random() < 0.8:
                        pay(relative, birthday, rng.choice((20.0, 25.0, 50.0, 50.0, 100.0)), at(day))
    # clubs: a season's fee to the treasurer, passed on to the league and the pitch
    for _ in range(max(1, n_people // 250)):
        members = rng.sample(people, rng.randrange(15, 60))
        treasurer, fee, due = members[0], round(rng.uniform(40, 200), -1), rng.randrange(days - 30)
        for m in members[1:]:
            pay(m, treasurer, fee, at(due + rng.randrange(0, 14)))
        got = fee * (len(members) - 1)
        pay(treasurer, rng.choice(leagues), got * rng.uniform(0.5, 0.7), at(due + rng.randrange(14, 21)))
        pay(treasurer, rng.choice(firms), got * rng.uniform(0.2, 0.4), at(due + rng.randrange(14, 28)))
    # lending among friends, both ways, round sums, paid back in instalments
    for h in people:
        if rng.random() < 0.35:
            friends = rng.sample(people, rng.randrange(1, 4))
            for friend in friends:
                for _ in range(rng.randrange(1, 4)):
                    lender, borrower = (h, friend) if rng.random() < 0.5 else (friend, h)
                    loan, day = rng.choice((50.0, 100.0, 200.0, 300.0, 500.0)), rng.randrange(days - 60)
                    pay(lender, borrower, loan, at(day))
                    parts = rng.choice((1, 1, 2, 3))
                    for i in range(parts):
                        pay(borrower, lender, loan / parts, at(day + 14 + 14 * i + rng.randrange(0, 5)))
    # fundraisers: many one-off donors in a few days, passed on to a charity
    for _ in range(max(1, n_people // 400)):
        organiser, day = rng.choice(people), rng.randrange(days - 10)
        donors = rng.sample(people, rng.randrange(10, 40))
        total = 0.0
        for d in donors:
            if d == organiser:
                continue
            gift = rng.choice((5.0, 10.0, 10.0, 20.0, 20.0, 50.0))
            pay(d, organiser, gift, at(day + rng.randrange(0, 4)))
            total += gift
        pay(organiser, rng.choice(charities), total, at(day + rng.randrange(4, 9)))
    cases: list[tuple[str, tuple[str, ...]]] = []
    if launder:
        cases = _plant(graph, rng, people, days, max(1, round(cases_per_kind * accounts)), pay)
    return TradesWorld(graph, tuple(cases))


def _plant(graph: nx.MultiDiGraph, rng: random.Random, people: list[str], days: int, per_kind: int,
           pay: Callable[[str, str, float, float], None]) -> list[tuple[str, tuple[str, ...]]]:
    """AMLSim-style fan-in and cycle cases around busy accounts (module docstring)."""
    degree = {h: graph.degree(h) for h in people}
    busy = sorted(people, key=lambda h: (-degree[h], h))[: max(40, len(people) // 10)]
    used: set[str] = set()
    cases: list[tuple[str, tuple[str, ...]]] = []

    def members_around(centre: str, k: int) -> list[str]:
        near = sorted({x for x in (*graph.predecessors(centre), *graph.successors(centre))
                       if x in degree and x not in used and x != centre})
        picked = rng.sample(near, min(len(near), rng.randrange(0, k // 2 + 1)))
        while len(picked) < k:
            x = rng.choice(people)
            if x not in used and x != centre and x not in picked:
                picked.append(x)
        return picked

    def low() -> float:
        return rng.lognormvariate(5.5, 0.8)

    for _ in range(per_kind):
        hub = rng.choice([h for h in busy if h not in used])
        members = members_around(hub, rng.randrange(6, 17))
        used.update([hub, *members])
        start, period = rng.randrange(0, days - 30), rng.randrange(7, 29)
        how = rng.randrange(3)
        hours: list[float]
        if how == 0:
            hours = [start * DAY + rng.randrange(8, 20)] * len(members)
        elif how == 1:
            step = period * DAY / len(members)
            hours = [start * DAY + i * step for i in range(len(members))]
        else:
            hours = sorted(start * DAY + rng.randrange(period * DAY) for _ in members)
        floor = low()
        for m, hour in zip(members, hours, strict=True):
            pay(m, hub, rng.uniform(floor, 2 * floor), hour)
        cases.append(("fan_in", (hub, *members)))
    for _ in range(per_kind):
        hub = rng.choice([h for h in busy if h not in used])
        loop = [hub, *members_around(hub, rng.randrange(2, 12))]
        used.update(loop)
        hour = float(rng.randrange(0, days - 40) * DAY + rng.randrange(8, 20))
        amount = low() * 3
        for i in range(len(loop)):
            pay(loop[i], loop[(i + 1) % len(loop)], amount, hour)
            amount *= 1 - rng.uniform(0.0, 0.05)
            hour += rng.randrange(1, 3 * DAY)
        cases.append(("cycle", tuple(loop)))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--accounts", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(trades_world(args.accounts, args.seed).summary())


if __name__ == "__main__":
    main()
