"""The words a match gives its goods, places and players, as the commitment extractor reads them.

Seed 002 §2.8 (*Promise-keeping / betrayal*) extracts commitments from messages; a
commitment names goods, places and players, and a match names them its own way (an
archive's items beyond the contract's defaults, regions with names, roster names).
A :class:`Vocabulary` holds the match's canonical names; :class:`Lexicon` turns it
into what the extractor matches in text:

* every name in lower case, by its words (``"Vesta Yard"`` → ``vesta yard``), with a
  hyphen or underscore read as a space (``north_gate`` → ``north gate``, and as it is),
  and a name with a number also run together (``"Halo-7"`` → ``halo 7``, ``halo7``);
* plural and singular of its last word (``plank`` ↔ ``planks``, ``fuel cells`` ↔
  ``fuel cell``, ``berry`` → ``berries``);
* the simple synonyms of :data:`SYNONYMS` for the canonical goods a match has
  (``lumber`` → ``wood``; ``H2O`` → ``water``; ``$`` → ``cash``), each only when the
  synonym is not itself a name of the match;
* the last word of a name of several words when no other name ends with it and it
  is not a word every sentence uses (``the yard`` → ``Vesta Yard``, ``cells`` →
  ``fuel cells``), and its first word likewise when it is at least four letters
  long (``Kepler`` → ``Kepler Dock``);
* for places, the usual short forms of a map's provinces: the first three letters of
  a name of at least four letters (``Bur`` → ``Burgundy``, ``Eng`` → ``English
  Channel``) and the initials of a name of three words or more (``MAO`` →
  ``Mid-Atlantic Ocean``), and a name whose first word is shorter than three letters its
  first word and initials (``StP`` → ``St Petersburg``), each only when no other place
  shares it and no name of the match is written so -- except that a short form shared by
  one name of one word and names of several words is the one word's (``Tyr`` →
  ``Tyrolia``, not ``Tyrrhenian Sea``: a name of several words is shortened by more than
  its first word); a short form that is also an English word (:data:`_NOT_SHORT`:
  ``Con``, ``War``) is only a *weak* one (:attr:`Lexicon.weak`), which the extractor
  reads as the place only inside an order ("A Con -> Arm", "Ank to Con") or where the
  message writes it as a name, capitalised inside a sentence ("I'll go for Rum").

The longest name wins where two overlap (``north gate`` before ``north``); a
word that names both a good and a place is read as the good.

:func:`vocabulary_of` builds the vocabulary of an archive: its items (the keys of
``config.item_values``, the contract's defaults, and every item of the agents'
inventories), its places (region names the map gives in ``config.map.regions``: a
list of names, or an object from region id to name, the name then read as that
region id) and its players (agent ids and roster names).  Region ids
``r_<x>_<y>`` are always places, with or without a vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from daishi_forensics.errors import InvalidInput
from daishi_forensics.read.archive import DEFAULT_ITEM_VALUES, item_values

__all__ = ["MONEY", "SYNONYMS", "Vocabulary", "Lexicon", "vocabulary_of", "name_forms"]

SYNONYMS: Mapping[str, tuple[str, ...]] = {
    "wood": ("lumber", "log", "logs", "timber", "woods"),
    "firewood": ("wood", "woods", "fire wood", "fire woods", "fire", "logs", "kindling"),
    "water": ("h2o", "waters"),
    "food": ("meat", "bread", "ration", "rations", "foods", "meal", "meals"),
    "stone": ("rock", "rocks", "stones"),
    "ore": ("iron", "rock", "rocks", "stone", "stones", "ores"),
    "brick": ("clay", "bricks"),
    "sheep": ("wool",),
    "wheat": ("grain",),
    "fiber": ("fibre", "fibres", "fibers"),
    "plank": ("board", "boards", "planks"),
    "cloth": ("fabric",),
    "cash": ("$", "bucks", "dollars", "dollar", "usd", "money"),
    "credits": ("cr", "creds", "credit"),
    "ammo": ("mag", "mags", "magazine", "magazines", "bullets"),
    "medkit": ("medkits", "med kit", "med kits", "medpack", "medpacks"),
}
"""Usual other words for a canonical good (used only for goods the match has; a
word the match itself uses as a name keeps its own meaning)."""

MONEY: frozenset[str] = frozenset({"cash", "credits", "money", "gold", "coins", "coin", "dollars"})
"""Canonical goods that are money: a bare number used as a price is read as one of them."""

_COMMON = frozenset({
    "the", "a", "an", "of", "and", "or", "to", "in", "on", "at", "for", "with", "my", "your", "our", "north",
    "south", "east", "west", "old", "new", "big", "little", "great", "central", "upper", "lower", "high", "low",
    "red", "blue", "green", "black", "white", "first", "second", "last", "one", "two", "it", "is", "me", "you",
    "site", "side", "point", "place", "area", "end", "top", "bottom", "main", "free", "all", "some", "any",
})
"""Words too common to stand alone for a name of several words."""

_NOT_SHORT = frozenset("""
act add ado age ago aid ail aim air ale all and ant any ape apt arc are ark arm art ash ask ate awe axe bad bag
ban bar bat bay bed bee beg bet bid big bin bit boa bob bog boo bow box boy bra bro bud bug bum bun bus but buy
bye cab cad cam can cap car cat cod cog con cop cot cow coy cry cub cue cup cur cut dab dad dam day den dew did
die dig dim din dip doc doe dog don dot dry dub dud due dug dye ear eat ebb eel egg ego eke elf elk elm emu end
era eve ewe eye fad fan far fat fax fed fee fen few fig fin fir fit fix flu fly foe fog for fox fry fun fur gag
gal gap gas gel gem get gig gin god got gum gun gut guy gym had ham has hat hay hem hen her hew hex hey hid him
hip his hit hob hog hop hot how hub hue hug hum hut ice icy ill imp ink inn ion ire irk its ivy jab jam jar jaw
jet jig job jog jot joy jug jut keg ken key kid kin kit lab lad lag lap law lax lay lea led leg let lid lie lip
lit log lot low lug mad man map mar mat maw may men met mid mix mob mod mom mop mow mud mug mum nab nag nap nay
net new nib nil nip nit nod nor not now nub nun nut oak oar oat odd ode off oft ohm oil old one opt orb ore our
out owe owl own pad pal pan par pat paw pay pea peg pen pep per pet pew pie pig pin pit ply pod pop pot pow pro
pry pub pug pun pup pus put rag ram ran rap rat raw ray red rib rid rig rim rip rob rod roe rot row rub rue rug
rum run rut rye sac sad sag sap sat saw say sea see set sew sex she shy sin sip sir sis sit six ski sky sly sob
sod son sop sow soy spa spy sty sub sue sum sun sup tab tad tag tan tap tar tat tax tea ten the thy tic tie tin
tip toe tom ton too top tot tow toy try tub tug tun two urn use van vat vet vex via vie vow wad wag war was wax
way web wed wee wet who why wig win wit woe wok won woo wow yak yam yap yaw yea yen yes yet yew you zap zip zoo
lol omg btw idk imo tbh fyi brb ppl pls thx afk irl
""".split())
"""Three-letter English words (and chat shorthand) never read as a place's short form."""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The canonical names of a match's goods, places and players."""

    items: tuple[str, ...] = ()
    """Canonical item names."""
    places: Mapping[str, str] = field(default_factory=dict)
    """Place name → canonical place (a region id where the map gives one, else the name)."""
    agents: Mapping[str, str] = field(default_factory=dict)
    """Player name or id → canonical player (the agent id in a match)."""

    @classmethod
    def of(cls, items: Iterable[str] | None = None, places: Iterable[str] | Mapping[str, str] | None = None,
           agents: Iterable[str] | Mapping[str, str] | None = None) -> Vocabulary:
        """From lists (each name its own canonical) or mappings (name → canonical).

        ``items`` None means the contract's default items.
        """
        names = sorted(set(DEFAULT_ITEM_VALUES if items is None else (i for i in items if isinstance(i, str))))
        return cls(tuple(names), _as_map(places), _as_map(agents))

    @classmethod
    def from_mapping(cls, value: Mapping[str, Any]) -> Vocabulary:
        """From ``{"items": [...], "places": [...], "agents": [...]}`` (a labelled row's form)."""
        return cls.of(value.get("items") or (), value.get("places"), value.get("agents"))


def _as_map(value: Iterable[str] | Mapping[str, str] | None) -> dict[str, str]:
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return {str(k): str(v) for k, v in value.items() if isinstance(k, str) and k.strip()}
    return {v: v for v in value if isinstance(v, str) and v.strip()}


def vocabulary_of(archive: Mapping[str, Any]) -> Vocabulary:
    """The vocabulary of an archive (module rules); never raises on a malformed archive."""
    items: set[str] = set(DEFAULT_ITEM_VALUES)
    try:
        items |= set(item_values(archive))
    except InvalidInput:  # a malformed item_values block is the read boundary's to report
        pass
    agents: dict[str, str] = {}
    for row in archive.get("agents") or []:
        if not isinstance(row, Mapping) or not isinstance(row.get("agentId"), str):
            continue
        agents[row["agentId"]] = row["agentId"]
        name = row.get("name")
        if isinstance(name, str) and name.strip():
            agents[name] = row["agentId"]
        inventory = row.get("inventory")
        if isinstance(inventory, Mapping):
            items |= {k for k in inventory if isinstance(k, str) and k.strip()}
    config = archive.get("config")
    regions = (config.get("map") or {}).get("regions") if isinstance(config, Mapping) and isinstance(
        config.get("map"), Mapping) else None
    places: dict[str, str] = {}
    if isinstance(regions, Mapping):  # region id -> name
        places = {name: rid for rid, name in regions.items() if isinstance(rid, str) and isinstance(name, str)}
    elif isinstance(regions, list):
        places = {r: r for r in regions if isinstance(r, str)}
    return Vocabulary.of(sorted(items), places, agents)


# -- matching ------------------------------------------------------------------------------------

_SPLIT = re.compile(r"[a-z0-9'$]{1,64}")


def name_forms(name: str) -> set[tuple[str, ...]]:
    """The word sequences that read as ``name`` (its case, hyphens and number folded).

    >>> sorted(name_forms("Halo-7"))
    [('halo', '7'), ('halo7',)]
    >>> sorted(name_forms("fuel cells"))
    [('fuel', 'cell'), ('fuel', 'cells')]
    """
    low = name.lower().strip()
    if low == "$":
        return {("$",)}
    spaced = tuple(_SPLIT.findall(low.replace("_", " ").replace("-", " ")))
    if not spaced:
        return set()
    forms = {spaced, ("".join(spaced),)} if len(spaced) > 1 and any(c.isdigit() for c in low) else {spaced}
    if "_" in low and " " not in low and re.fullmatch(r"[a-z0-9_']{1,64}", low):
        forms.add((low,))  # "north_gate" written as one word
    out: set[tuple[str, ...]] = set()
    for f in forms:
        out.add(f)
        last = f[-1]
        if last.isalpha() and len(last) > 2:
            for variant in _number_forms(last):
                out.add(f[:-1] + (variant,))
    return out


def _number_forms(word: str) -> set[str]:
    """Plural and singular of a word (plain English rules)."""
    out = set()
    if word.endswith("ies") and len(word) > 4:
        return {word[:-3] + "y"}
    if word.endswith(("sses", "xes", "ches", "shes")):
        return {word[:-2]}
    if word.endswith("s") and not word.endswith("ss"):
        return {word[:-1]}
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        out.add(word[:-1] + "ies")
    elif word.endswith(("s", "x", "ch", "sh")):
        out.add(word + "es")
    else:
        out.add(word + "s")
    return out


def _short_forms(places: Mapping[str, str]) -> dict[tuple[str, ...], str]:
    """Place short forms (module rules): ``{(form,): canonical}``; a form places share is left out unless exactly
    one of them is a name of one word, whose it then is.

    >>> sorted(_short_forms({"Burgundy": "Burgundy", "Mid-Atlantic Ocean": "MAO", "Tyrolia": "Tyrolia",
    ...                      "Tyrrhenian Sea": "TYS", "Warsaw": "Warsaw", "St Petersburg": "STP",
    ...                      "Gulf of Lyon": "LYO", "Gulf of Bothnia": "BOT"}).items())
    [(('bur',), 'Burgundy'), (('gob',), 'BOT'), (('gol',), 'LYO'), (('mao',), 'MAO'), (('mid',), 'MAO'), (('stp',), 'STP'), (('tyr',), 'Tyrolia'), (('war',), 'Warsaw')]
    """
    owners: dict[str, set[str]] = {}
    single: dict[str, set[str]] = {}  # (v16) the owners of a short form whose name is one word
    for name, canonical in places.items():
        words = _SPLIT.findall(name.lower().replace("_", " ").replace("-", " "))
        if not words or not all(w.isalpha() for w in words):
            continue
        shorts = set()
        if len("".join(words)) >= 4:
            shorts.add(words[0][:3])
        if len(words) >= 3:
            shorts.add("".join(w[0] for w in words))
        if len(words) >= 2 and len(words[0]) < 3:  # (v16) "St Petersburg" -> "stp"
            shorts.add((words[0] + "".join(w[0] for w in words[1:]))[:3])
        for short in shorts:
            owners.setdefault(short, set()).add(canonical)
            if len(words) == 1:
                single.setdefault(short, set()).add(canonical)
    out: dict[tuple[str, ...], str] = {}
    for short, who in owners.items():
        if len(short) != 3:
            continue
        if len(who) == 1:
            out[(short,)] = next(iter(who))
        elif len(single.get(short, ())) == 1:  # (v16) "tyr": Tyrolia, not Tyrrhenian Sea
            out[(short,)] = next(iter(single[short]))
    return out


@dataclass(frozen=True, slots=True)
class Mention:
    """A name found in a word list."""

    start: int
    end: int
    kind: str
    """``item``, ``place`` or ``agent``."""
    canonical: str


class Lexicon:
    """The word sequences of a vocabulary, matched longest first (module rules)."""

    __slots__ = ("vocabulary", "_by_first", "money", "items", "first_words", "weak")

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        exact: dict[tuple[str, ...], tuple[str, str]] = {}
        rank = {"item": 0, "place": 1, "agent": 2}

        def put(form: tuple[str, ...], kind: str, canonical: str, strong: bool) -> None:
            old = exact.get(form)
            if old is None or (strong and rank[kind] < rank[old[0]]):
                exact[form] = (kind, canonical)

        named: list[tuple[str, str, str]] = [("item", i, i) for i in vocabulary.items]
        named += [("place", n, c) for n, c in vocabulary.places.items()]
        named += [("agent", n, c) for n, c in vocabulary.agents.items()]
        for kind, name, canonical in named:  # the names themselves first: they win over synonyms
            for form in name_forms(name):
                put(form, kind, canonical, True)
        own = set(exact)
        by_lower = {i.lower(): i for i in vocabulary.items}
        for canonical, words in SYNONYMS.items():  # in the table's order: "rock" is stone before ore
            item = by_lower.get(canonical)
            if item is None:
                continue
            for word in words:
                for form in name_forms(word):
                    if form not in own and form not in exact:
                        exact[form] = ("item", item)
        # a lone last (or first) word of a name of several words, when it is unambiguous
        heads: dict[tuple[str, ...], set[tuple[str, str]]] = {}
        for kind, name, canonical in named:
            if kind == "agent":
                continue
            for form in name_forms(name):
                if len(form) < 2:
                    continue
                if form[-1] not in _COMMON and not form[-1].isdigit():
                    heads.setdefault((form[-1],), set()).add((kind, canonical))
                if len(form[0]) >= 4 and form[0] not in _COMMON and form[0].isalpha():
                    heads.setdefault((form[0],), set()).add((kind, canonical))
        for form, owners in heads.items():
            if len(owners) == 1 and form not in exact:
                exact[form] = next(iter(owners))
        self.weak: dict[str, str] = {}
        """Short forms that are English words too ("con" → Constantinople): a place only in an order."""
        for form, owner in _short_forms(vocabulary.places).items():
            if form in exact:
                continue
            if form[0] in _NOT_SHORT:
                self.weak[form[0]] = owner
            else:
                exact[form] = ("place", owner)
        # by first word, by length (longest first): the forms of that length, each with what it names
        # (a name's forms are distinct, so at most one of a length matches: the longest that does wins)
        by_length: dict[str, dict[int, dict[tuple[str, ...], tuple[str, str]]]] = {}
        for form, named_as in exact.items():
            by_length.setdefault(form[0], {}).setdefault(len(form), {})[form] = named_as
        self._by_first: dict[str, tuple[tuple[int, dict[tuple[str, ...], tuple[str, str]]], ...]] = {
            first: tuple(sorted(lengths.items(), reverse=True)) for first, lengths in by_length.items()
        }
        self.money: str | None = next((i for i in vocabulary.items if i.lower() in MONEY), None)
        self.items: frozenset[str] = frozenset(vocabulary.items)
        self.first_words: frozenset[str] = frozenset(self._by_first)

    def find(self, words: list[str], at: int) -> Mention | None:
        """The longest name starting at ``words[at]``, if any."""
        found = self.match(words, at)
        return None if found is None else Mention(at, found[0], found[1][0], found[1][1])

    def match(self, words: list[str], at: int) -> tuple[int, tuple[str, str]] | None:
        """:meth:`find` as ``(end, (kind, canonical))``, no record made (the extractor's hot path)."""
        options = self._by_first.get(words[at])
        if not options:
            return None
        for n, forms in options:
            named_as = forms.get(tuple(words[at:at + n]))
            if named_as is not None:
                return at + n, named_as
        return None
