"""A second payment economy, written apart from the project's payment generator.

Its seeds are split: the odd seeds were looked at while teaching the typology screens what honest
settling-up looks like (the *tune* split); ``bench/typologies.py`` reports on the even seeds only,
and on settings never run while tuning (a bigger town, more friends per household, more dinners).  It shares no code with
``forensics/simulate/transfers.py`` and follows other mechanics: a year of a town's
payments, one edge per payment with only ``value``, ``tick`` (the day) and ``event``.

Honest life, with the shapes that look like laundering:

- **wages**: employers pay their staff on one day a month, each worker the same amount every
  month (a fan-out of alike amounts, twelve times);
- **rent**: households pay their landlord on the first days of the month (a fan-in);
- **shops**: households buy at shops whenever they like, in shop-sized amounts; shops pay
  their wholesaler every week about what came in, less their margin (a gather and a relay);
- **bill splitting**: friends pay back the one who paid a dinner, all on one evening, in
  alike shares (a small fan-in at one tick);
- **savings circles**: a few households each pay the same sum into a circle every month, and
  one member takes the pot, by turns (money going round, value kept);
- **family support**: a parent sends a child money now and then, the child pays it on to rent.

Laundering, planted (each case's accounts are the truth):

- **smurfing**: many mules each deposit just under a round sum into one collector within a
  few days, which wires most of it onward at once (fan-in, then gather-scatter);
- **layering loops**: a sum passes through three to six shell accounts and back to the
  first within days, each keeping a small fee (a value cycle);
- **dispersal**: one account pays out to many fresh accounts within days, alike amounts
  (fan-out);
- **mule relays**: a source pays several mules, each passes it on to one destination within a
  few days, less a cut (scatter-gather).

    python bench/payments_world.py --accounts 3000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import networkx as nx

from _common import PlantedWorld


PaymentsWorld = PlantedWorld
"""A generated year of payments and its truth."""


KINDS = ("smurfing", "layering", "dispersal", "mule_relay")


def payments_world(accounts: int = 3000, seed: int = 1, days: int = 365, cases_per_kind: float = 0.002,
                   launder: bool = True, friends: int = 4, dinners: int = 6) -> PaymentsWorld:
    """One town's year of payments (module docstring); ``launder=False`` plants nothing.  ``friends``:
    friends per household; ``dinners``: each household pays up to ``dinners - 1`` dinners a year."""
    extra = "" if (friends, dinners) == (4, 6) else f":{friends}:{dinners}"  # the defaults keep their graphs
    rng = random.Random(f"payments-world:{accounts}:{seed}:{days}:{cases_per_kind}:{launder}{extra}")
    graph = nx.MultiDiGraph(name=f"pw_{seed}")
    event = [0]

    def pay(u: str, v: str, value: float, day: float) -> None:
        if u == v or value <= 0:
            return
        event[0] += 1
        graph.add_edge(u, v, value=round(value, 2), tick=int(max(0, min(days - 1, day))), event=event[0])

    n_emp = max(3, accounts // 60)
    n_shop = max(5, accounts // 40)
    n_land = max(3, accounts // 50)
    n_whole = max(2, accounts // 400)
    n_house = accounts - n_emp - n_shop - n_land - n_whole
    houses = [f"h{i:05d}" for i in range(n_house)]
    employers = [f"e{i:04d}" for i in range(n_emp)]
    shops = [f"s{i:04d}" for i in range(n_shop)]
    landlords = [f"l{i:04d}" for i in range(n_land)]
    wholesalers = [f"w{i:03d}" for i in range(n_whole)]
    for name in houses + employers + shops + landlords + wholesalers:
        graph.add_node(name)
    employer_of = {h: rng.choice(employers) for h in houses if rng.random() < 0.8}
    wage = {h: round(rng.lognormvariate(7.6, 0.35), -1) for h in employer_of}
    payday = {e: rng.randrange(25, 29) for e in employers}
    landlord_of = {h: rng.choice(landlords) for h in houses if rng.random() < 0.6}
    rent = {h: round(rng.lognormvariate(6.7, 0.3), -1) for h in landlord_of}
    shop_size = {s: rng.lognormvariate(3.0, 0.8) for s in shops}
    wholesaler_of = {s: rng.choice(wholesalers) for s in shops}
    favourite = {h: rng.sample(shops, 3) for h in houses}
    for month in range(12):
        first = month * 30
        for h, e in employer_of.items():
            pay(e, h, wage[h], first + payday[e])
        for h, ll in landlord_of.items():
            pay(h, ll, rent[h], first + rng.randrange(0, 5))
    takings: dict[str, list[tuple[int, float]]] = {s: [] for s in shops}
    for h in houses:
        visits = rng.randrange(2, 14)
        for _ in range(visits):
            s = rng.choice(favourite[h]) if rng.random() < 0.8 else rng.choice(shops)
            amount = shop_size[s] * rng.lognormvariate(0, 0.5)
            day = rng.randrange(days)
            pay(h, s, amount, day)
            takings[s].append((day, amount))
    for s, sales in takings.items():
        for week in range(days // 7):
            came = sum(a for d, a in sales if week * 7 <= d < week * 7 + 7)
            if came > 0:
                pay(s, wholesaler_of[s], came * rng.uniform(0.6, 0.8), week * 7 + 6)
    friends_of = {h: rng.sample(houses, friends) for h in houses}
    for h in houses:  # bill splitting: now and then h pays a dinner, and friends pay their share that evening
        for _ in range(rng.randrange(0, dinners)):
            day = rng.randrange(days)
            share = rng.uniform(15, 60)
            for f in rng.sample(friends_of[h], rng.randrange(2, friends + 1)):
                pay(f, h, share * rng.uniform(0.95, 1.05), day)
    circles = max(1, n_house // 150)
    for _ in range(circles):  # rotating savings circles: each pays the pot every month, one takes it by turns
        members = rng.sample(houses, rng.randrange(4, 8))
        dues = round(rng.uniform(50, 300), -1)
        for month in range(12):
            taker = members[month % len(members)]
            day = month * 30 + rng.randrange(8, 12)
            for m in members:
                if m != taker:
                    pay(m, taker, dues, day + rng.randrange(0, 2))
    for h in rng.sample(houses, n_house // 10):  # family support, paid on
        child = rng.choice(houses)
        for _ in range(rng.randrange(2, 8)):
            day = rng.randrange(days)
            amount = rng.uniform(100, 600)
            pay(h, child, amount, day)
            if child in landlord_of and rng.random() < 0.5:
                pay(child, landlord_of[child], amount * rng.uniform(0.8, 1.0), day + rng.randrange(1, 6))
    cases: list[tuple[str, tuple[str, ...]]] = []
    if launder:
        per_kind = max(1, round(cases_per_kind * accounts))
        used: set[str] = set()

        def fresh(k: int, prefix: str) -> list[str]:
            names = [f"{prefix}{len(graph)}_{i}" for i in range(k)]
            for n in names:
                graph.add_node(n)
            return names

        def existing(k: int) -> list[str]:
            pool = [h for h in houses if h not in used]
            picked = rng.sample(pool, k)
            used.update(picked)
            return picked

        for _ in range(per_kind):  # smurfing: mules deposit under a round sum, the collector wires it on
            mules = existing(rng.randrange(6, 14))
            collector, exit_ = existing(1)[0], existing(1)[0]
            day = rng.randrange(days - 20)
            total = 0.0
            for m in mules:
                amount = rng.uniform(0.85, 0.99) * 1000
                pay(m, collector, amount, day + rng.randrange(0, 4))
                total += amount
            pay(collector, exit_, total * rng.uniform(0.9, 0.97), day + rng.randrange(4, 7))
            cases.append(("smurfing", (collector, exit_, *mules)))
        for _ in range(per_kind):  # layering loops through shells
            shells = fresh(rng.randrange(2, 5), "x") + existing(1)
            rng.shuffle(shells)
            amount = rng.uniform(5000, 20000)
            day = rng.randrange(days - 30)
            for i, a in enumerate(shells):
                amount *= 1 - rng.uniform(0.005, 0.03)
                day += rng.randrange(0, 3)
                pay(a, shells[(i + 1) % len(shells)], amount, day)
            cases.append(("layering", tuple(shells)))
        for _ in range(per_kind):  # dispersal to fresh accounts
            source = existing(1)[0]
            takers = fresh(rng.randrange(6, 15), "d")
            base = rng.uniform(300, 900)
            day = rng.randrange(days - 10)
            for t in takers:
                pay(source, t, base * rng.uniform(0.9, 1.1), day + rng.randrange(0, 3))
            cases.append(("dispersal", (source, *takers)))
        for _ in range(per_kind):  # mule relays
            source, dest = existing(1)[0], existing(1)[0]
            mules = existing(rng.randrange(3, 7))
            day = rng.randrange(days - 15)
            for m in mules:
                amount = rng.uniform(2000, 6000)
                d = day + rng.randrange(0, 3)
                pay(source, m, amount, d)
                pay(m, dest, amount * (1 - rng.uniform(0.02, 0.1)), d + rng.randrange(1, 5))
            cases.append(("mule_relay", (source, dest, *mules)))
    return PaymentsWorld(graph, tuple(cases))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--accounts", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    world = payments_world(args.accounts, args.seed)
    print(world.summary())


if __name__ == "__main__":
    main()
