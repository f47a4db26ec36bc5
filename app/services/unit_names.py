"""Names people can tell apart at the table: a short name with the unit's place in its force tree
("1/1/2 Coy Plt 3": regiment 1, battalion 1, company 2, platoon 3) and the full name with every formation
above it. Organisation tables and scenarios name units by their place among siblings ("Infantry Platoon 3"
appears in every company), so the name alone is ambiguous; the path makes it unique within a game."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple, Protocol

from app.data.numbers import whole_number
from rules.core.records import Snapshot


class NamedUnit(Protocol):
    """What naming reads of a unit (app.data.models.Unit has it)."""

    @property
    def pk(self) -> int: ...  # a stored row's id (app.data.models.Stored.pk)
    @property
    def parent_id(self) -> int | None: ...
    @property
    def side(self) -> str: ...
    @property
    def level(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...


class Named(NamedTuple):
    """What naming reads of a unit, read off it once. A stored unit's attributes are the ORM's (a descriptor
    call each read), and a game's few hundred units are named on every read of a card, the map or the log, each
    read dozens of times: the names of one force tree are worked out once (the caches below) and kept."""

    pk: int
    parent_id: int | None
    side: str
    level: str
    kind: str
    name: str


def _plain(units: Iterable[NamedUnit]) -> tuple[Named, ...]:
    return tuple(Named(u.pk, u.parent_id, u.side, u.level, u.kind, u.name) for u in units)


# The short word for a unit, by its kind first (the first fragment found in it) and then by its level.
KIND_WORDS: tuple[tuple[str, str], ...] = (
    ("command", "HQ"),
    ("howitzer", "How Bty"),
    ("mortar", "Mortar"),
    ("mmg-company", "MMG Coy"),
    ("mmg", "MMG"),
    ("lewis", "Lewis"),
    ("artillery-group", "Arty Gp"),
    ("artillery-regiment", "Arty Rgt"),  # beside the infantry regiments of a division: "1 Rgt" is theirs
    ("artillery-brigade", "Arty Bde"),
    ("battery", "Bty"),
    ("squadron", "Sqn"),
    ("troop", "Tp"),
    ("tank", "Tank"),
)
LEVEL_WORDS = {
    "army": "Army",
    "corps": "Corps",
    "division": "Div",
    "brigade": "Bde",
    "regiment": "Rgt",
    "battalion": "Bn",
    "company": "Coy",
    "platoon": "Plt",
    "section": "Sec",
    "battery": "Bty",
}
TRAILING_NUMBER = re.compile(r"(\d+)\s*$")


def word(unit: NamedUnit) -> str:
    """The short word for what a unit is ("Plt", "MMG", "HQ"); its own name when no word is known."""
    return _word(unit.kind, unit.level, unit.name)


@lru_cache(maxsize=1024)
def _word(kind: str, level: str, name: str) -> str:
    for fragment, short in KIND_WORDS:
        if fragment in kind.lower():
            return short
    return LEVEL_WORDS.get(level.lower(), name.strip() or level)


def _numbers(units: Sequence[NamedUnit]) -> dict[int, str | None]:
    """Each unit's number among its siblings of the same word: the number its name ends with, else its place
    in order; None when it is the only one of its word under its parent (nothing to tell apart)."""
    siblings: dict[tuple[str, int | None, str], list[NamedUnit]] = defaultdict(list)
    for u in units:
        siblings[(u.side, u.parent_id, word(u))].append(u)
    out: dict[int, str | None] = {}
    for group in siblings.values():
        if len(group) == 1:
            out[group[0].pk] = None
            continue
        found = [TRAILING_NUMBER.search(u.name) for u in group]
        named = [m.group(1) if m else "" for m in found]
        if all(named) and len(set(named)) == len(named):  # the table's own numbering
            out.update({u.pk: n for u, n in zip(group, named, strict=True)})
        else:  # unnumbered or repeated names ("77mm Battery" three times): their order
            out.update({u.pk: str(place) for place, u in enumerate(sorted(group, key=_key), 1)})
    return out


def _key(unit: NamedUnit) -> int:
    return unit.pk


def _chain(unit: NamedUnit, by_id: Mapping[int, NamedUnit]) -> list[NamedUnit]:
    """The unit's ancestors, top first (a broken or circular parent link ends the chain)."""
    chain: list[NamedUnit] = []
    seen = {unit.pk}
    parent = by_id.get(unit.parent_id or -1)
    while parent is not None and parent.pk not in seen:
        chain.append(parent)
        seen.add(parent.pk)
        parent = by_id.get(parent.parent_id or -1)
    return chain[::-1]


def _chains(units: Sequence[NamedUnit], by_id: Mapping[int, NamedUnit]) -> dict[int, list[NamedUnit]]:
    """Every unit's ancestors, top first, each built from its parent's."""
    out: dict[int, list[NamedUnit]] = {}

    def chain(u: NamedUnit, below: frozenset[int]) -> list[NamedUnit]:
        uid = u.pk
        if uid not in out:
            parent = by_id.get(u.parent_id or -1)
            if parent is None:
                out[uid] = []
            elif parent.pk in below | {uid}:  # a circular parent link: walk it once, carefully
                out[uid] = _chain(u, by_id)
            else:
                out[uid] = [*chain(parent, below | {uid}), parent]
        return out[uid]

    for u in units:
        chain(u, frozenset())
    return out


def display_names(units: Iterable[NamedUnit]) -> dict[int, str]:
    """A short name per unit id, unique within the game: the numbers of the formations above it that have
    numbered siblings, joined by "/", then the word of the lowest of them and the unit's own word and number
    ("1/1/2 Coy Plt 3", "1/1 Bn HQ", "2/3 Coy Plt 4"). Formations that are the only one of their kind under
    their parent add nothing and are left out; a name that still repeats gets its side in front."""
    return dict(_display_names(_plain(units)))  # a copy: the kept one is never changed by a caller


@lru_cache(maxsize=64)
def _display_names(units: tuple[Named, ...]) -> dict[int, str]:
    by_id = {u.pk: u for u in units}
    numbers = _numbers(units)
    chains = _chains(units, by_id)
    groups = {u.parent_id for u in units}
    names: dict[int, str] = {}
    for u in units:
        n = numbers[u.pk]
        path = [a for a in chains[u.pk] if numbers[a.pk] is not None]
        head = "/".join(str(numbers[a.pk]) for a in path)
        if u.pk in groups and n is not None:  # a numbered formation: "1/1/2 Coy"
            names[u.pk] = f"{head}/{n} {word(u)}" if head else f"{n} {word(u)}"
            continue
        own = word(u) if n is None else f"{word(u)} {n}"
        parent = by_id.get(u.parent_id or -1)
        if path:
            names[u.pk] = f"{head} {word(path[-1])} {own}"
        elif n is None and parent is not None and word(u) == "HQ":  # a formation's HQ: "Bde HQ"
            names[u.pk] = f"{word(parent)} {own}"
        else:
            names[u.pk] = own
    return _unique(names, units)


def _unique(names: dict[int, str], units: Sequence[NamedUnit]) -> dict[int, str]:
    count = Counter(names.values())
    out = dict(names)
    for u in units:
        if count[names[u.pk]] > 1:
            out[u.pk] = f"{u.side.capitalize()} {names[u.pk]}"
    count = Counter(out.values())
    for u in units:
        if count[out[u.pk]] > 1:
            out[u.pk] = f"{out[u.pk]} #{u.pk}"  # identical trees on one side: the id tells them apart
    return out


def full_names(units: Iterable[NamedUnit], only: Iterable[int] | None = None) -> dict[int, str]:
    """The unit's own name after every formation above it, top first: "Infantry Regiment 1 › 1. Regiment,
    Battalion 1 › Infantry Company 2 › Infantry Platoon 3". Siblings named alike ("77mm Battery" three times)
    get their number: "77mm Battery 2". `only`: the ids wanted (all by default)."""
    return dict(_full_names(_plain(units), None if only is None else frozenset(only)))


@lru_cache(maxsize=64)
def _full_names(units: tuple[Named, ...], only: frozenset[int] | None) -> dict[int, str]:
    by_id = {u.pk: u for u in units}
    alike = Counter((u.side, u.parent_id, u.name) for u in units)
    numbers = _numbers(units) if any(n > 1 for n in alike.values()) else {}
    own = {
        u.pk: f"{u.name} {numbers[u.pk]}"
        if alike[(u.side, u.parent_id, u.name)] > 1 and numbers.get(u.pk)
        else u.name
        for u in units
    }
    wanted = set(by_id) if only is None else set(only) & set(by_id)
    full = {uid: " › ".join([*(own[a.pk] for a in _chain(by_id[uid], by_id)), own[uid]]) for uid in wanted}
    # Two units with the same name under the same parent are numbered above, so a full name repeats only
    # where the force tree itself does (the same tree on both sides): the side tells them apart.
    return _unique(full, [by_id[uid] for uid in wanted])


# The short words spelled out for a stranger: "Plt" -> "platoon".
PLAIN_WORDS = {
    "Plt": "platoon",
    "Coy": "company",
    "Bn": "battalion",
    "Rgt": "regiment",
    "Bde": "brigade",
    "Div": "division",
    "Bty": "battery",
    "How Bty": "howitzer battery",
    "MMG Coy": "MG company",
    "MMG": "MG",
    "Arty Gp": "artillery group",
    "Arty Rgt": "artillery regiment",
    "Arty Bde": "artillery brigade",
    "Sqn": "squadron",
    "Tp": "troop",
    "Sec": "section",
}


# Formations read with an ordinal ("2nd company"); anything else with its number after ("MG 2").
ORDINAL_WORDS = frozenset(
    {
        "platoon",
        "company",
        "battalion",
        "regiment",
        "brigade",
        "division",
        "battery",
        "squadron",
        "troop",
        "section",
    }
)


def ordinal(n: str) -> str:
    k = whole_number(n, 10**9)
    if k is None:
        return n
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def plain_names(units: Iterable[NamedUnit]) -> dict[int, str]:
    """A name a stranger can read, the unit first and then each numbered formation above it: "1st platoon,
    2nd company, 1st battalion" (the short name's parts, spelled out; unique where the short name is)."""
    return dict(_plain_names(_plain(units)))


@lru_cache(maxsize=64)
def _plain_names(units: tuple[Named, ...]) -> dict[int, str]:
    by_id = {u.pk: u for u in units}
    numbers = _numbers(units)
    chains = _chains(units, by_id)

    def part(u: NamedUnit) -> str:
        n, w = numbers[u.pk], word(u)
        plain = PLAIN_WORDS.get(w, w)
        if n is None:
            return plain
        return f"{ordinal(n)} {plain}" if plain.split()[-1] in ORDINAL_WORDS else f"{plain} {n}"  # "MG 2"

    out: dict[int, str] = {}
    for u in units:
        path = [a for a in chains[u.pk] if numbers[a.pk] is not None]
        parts = [part(u), *(part(a) for a in reversed(path))]
        if numbers[u.pk] is None and not path and u.parent_id in by_id:  # "battalion HQ"
            parts = [
                f"{PLAIN_WORDS.get(word(by_id[u.parent_id or 0]), word(by_id[u.parent_id or 0]))} {part(u)}"
            ]
        out[u.pk] = ", ".join(parts)
    return _unique(out, units)


def names(units: Sequence[NamedUnit]) -> dict[int, tuple[str, str]]:
    """Each unit's (full, short) name, as the map and the units list show them (its own name where neither
    is worked out)."""
    plain = _plain(units)
    full, short = _full_names(plain, None), _display_names(plain)
    return {u.pk: (full.get(u.pk, u.name), short.get(u.pk, u.name)) for u in units}


def told_apart_names(units: Sequence[NamedUnit]) -> dict[int, str]:
    """A name per unit id for sentences: its own name where no other unit of the game has it, else its short
    name ("1/1/2 Coy Plt 3", `display_names`)."""
    count = Counter(u.name for u in units)
    short = _display_names(_plain(units))
    return {u.pk: u.name if count[u.name] == 1 else short[u.pk] for u in units}


def told_apart(snapshot: Snapshot, units: Sequence[NamedUnit], own: int | None) -> Snapshot:
    """The snapshot as a refusal of an act names its units (a card's greyed act's and the API's alike): the act's
    own stand by its name, every other one whose name another unit shares by its short name ("1 Rgt Bty 2"), so
    a sentence naming a sibling is not read as the stand's own."""
    named = told_apart_names(units)
    return replace(
        snapshot,
        units=tuple(u if u.id == own else replace(u, name=named.get(u.id, u.name)) for u in snapshot.units),
    )
