"""The scenario editor's forces kept in the browser's draft (issue 67): a formation picked from an organisation
table (any box of it, division down to a single stand) or built from the rule set's chart of troops, graded,
named, regraded, renamed and removed on the server, in the draft's document as the format writes a side's units
(docs/scenario-format.md), so a reload keeps them. What scenario-forces.js did in the browser, here once: the
formations a table offers, the ids a copy takes, which units a grade reaches. Never commits: the page's unit of
work does. A refusal is a RulesError naming its field (the page's 422)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from app.data.bounded import MAX_SCENARIO_BYTES
from rules.core import scenario as S
from rules.core.errors import RulesError
from rules.core.forces import build_force, document_units
from rules.registry import get_game_rules, get_ruleset

# A scenario document or one of its units, as the format writes them (docs/scenario-format.md): JSON the draft
# keeps unchecked while it is built, read key by key here; the rule set's checks read it whole (scenarios.checked).
Json = dict[str, Any]
SIDES = ("attacker", "defender")
ORGANISATION_TABLES = "organisation-tables"  # the dataset naming a rule set's tables of organisation
NUMBERED = re.compile(r" \d+$")  # "Rifle Company 3": the table's numbering of a repeated box


@dataclass(frozen=True)
class Choice:
    """A box a table offers as a formation: its id in the table and how the list names it."""

    id: str
    label: str


@cache
def org_tables(ruleset_id: str) -> tuple[Json, ...]:
    """The rule set's tables of organisation (their metadata: nation, periods, qualities, dataset), or none."""
    rs = get_ruleset(ruleset_id)
    if ORGANISATION_TABLES not in rs.datasets:
        return ()
    return tuple(rs.data(ORGANISATION_TABLES))


@cache
def crewed_kinds(ruleset_id: str) -> frozenset[str]:
    """Kinds the tables grade apart from their troops (crewed weapons keep their own grade, whatever the
    formation's): a gun, or a unit whose grade differs from its table's default in the table as built."""
    kinds: set[str] = set()
    for table in org_tables(ruleset_id):
        for unit in walk(_force(ruleset_id, table["id"])):
            if unit.get("gun") or unit.get("quality") not in (None, table["default_quality"]):
                kinds.add(unit["kind"])
    return frozenset(kinds)


def walk(unit: Json) -> Iterator[Json]:
    """A unit and every unit under it, the unit first (depth first, as the table lists them)."""
    yield unit
    for child in unit.get("children") or []:
        yield from walk(child)


def stands_of(unit: Json) -> int:
    return sum(1 for u in walk(unit) if u.get("base"))


def table_of(ruleset_id: str, table_id: str) -> Json:
    for table in org_tables(ruleset_id):
        if table["id"] == table_id:
            return table
    raise RulesError("table", f"no organisation table {table_id[:64]} in this rule set")


def _force(ruleset_id: str, table_id: str) -> Json:
    force: Json = get_ruleset(ruleset_id).data(table_of(ruleset_id, table_id)["dataset"])["force"]
    return force


@cache
def choices(ruleset_id: str, table_id: str) -> tuple[Choice, ...]:
    """The formations a table offers: each distinct box once (level, kind and name without its number), the
    largest first, as its stands count them."""
    seen: set[tuple[str, str, str]] = set()
    found: list[tuple[int, Choice]] = []

    def visit(unit: Json, depth: int) -> None:
        name = NUMBERED.sub("", str(unit["name"]))
        key = (unit["level"], unit["kind"], name)
        if key not in seen:
            seen.add(key)
            n = stands_of(unit)
            found.append(
                (depth, Choice(unit["id"], f"{name} ({unit['level']}, {n} stand{'' if n == 1 else 's'})"))
            )
        for child in unit.get("children") or []:
            visit(child, depth + 1)

    visit(_force(ruleset_id, table_id), 0)
    return tuple(c for _, c in sorted(found, key=lambda x: x[0]))


def _forces(document: Json, side: str) -> list[Json]:
    forces: list[Json] = document["sides"][side]["forces"]
    return forces


def _ids(document: Json) -> set[str]:
    return {str(u.get("id")) for side in SIDES for f in _forces(document, side) for u in walk(f)}


def _prefix(document: Json, side: str) -> str:
    """The next free `<side>-<n>` for a formation's ids, so that no two units of the scenario share one."""
    ids = _ids(document)
    n = 1
    while any(i == f"{side}-{n}" or i.startswith(f"{side}-{n}/") for i in ids):
        n += 1
    return f"{side}-{n}"


def _regrade(ruleset_id: str, unit: Json, quality: str) -> None:
    """A chart's formation carries its grade itself (its sub-units read it); a table's every troop unit does,
    crewed weapons keeping their own."""
    if get_game_rules(ruleset_id).book.force_chart is not None:
        unit["quality"] = quality
        return
    crewed = crewed_kinds(ruleset_id)
    for u in walk(unit):
        if not (u.get("gun") or u.get("kind") in crewed):
            u["quality"] = quality


def _added(document: Json, side: str, unit: Json) -> Json:
    """The formation kept in the side's forces, within the format's caps (its units, its size as a file)."""
    held = sum(1 for s in SIDES for f in _forces(document, s) for _ in walk(f))
    if held + sum(1 for _ in walk(unit)) > S.MAX_UNITS:
        raise RulesError(
            "formation", f"a scenario holds at most {S.MAX_UNITS} units: this formation would pass it"
        )
    _forces(document, side).append(unit)
    if len(json.dumps(document, separators=(",", ":"))) > MAX_SCENARIO_BYTES:
        _forces(document, side).pop()
        raise RulesError("formation", "the scenario would pass its size as a file with this formation")
    return unit


def add_from_table(
    ruleset_id: str,
    document: Json,
    side: str,
    table_id: str,
    pick: str,
    quality: str | None,
    name: str,
) -> Json:
    """A box of an organisation table copied into the side's forces under fresh ids, graded (a grade the table
    allows) and named (blank: the table's name)."""
    table = table_of(ruleset_id, table_id)
    if quality and quality not in table["qualities"]:
        raise RulesError("quality", f"{quality[:32]} is not a grade of the {table['title']}")
    node = next((u for u in walk(_force(ruleset_id, table_id)) if u["id"] == pick), None)
    if node is None:
        raise RulesError("formation", f"the {table['title']} has no formation {pick[:64]}")
    prefix = _prefix(document, side)
    keep = ("name", "level", "kind", "base", "quality", "models", "gun", "source")

    def copy(u: Json) -> Json:
        return {
            "id": f"{prefix}/{u['id']}",
            **{k: u.get(k) for k in keep},
            "placement": None,
            "off_table": False,
            "children": [copy(c) for c in u.get("children") or []],
        }

    unit = copy(node)
    if quality:
        _regrade(ruleset_id, unit, quality)
    if name:
        unit["name"] = name
    return _added(document, side, unit)


def add_from_chart(ruleset_id: str, document: Json, side: str, entry: Json) -> Json:
    """A formation built from the chart of troops (its rows of sub-units, each a kind and a number of bases; the
    chart's own checks refuse a row naming its field) into the side's forces under fresh ids."""
    chart = get_game_rules(ruleset_id).book.force_chart
    if chart is None:
        raise RulesError("sub_units", "this rule set builds its forces from organisation tables")
    built: Json = dict(document_units(build_force(chart, entry, "", "formation")))
    prefix = _prefix(document, side)

    def copy(u: Json) -> Json:
        return {
            **u,
            "id": prefix + str(u["id"])[len("formation") :],
            "placement": None,
            "off_table": False,
            "children": [copy(c) for c in u.get("children") or []],
        }

    return _added(document, side, copy(built))


def find(document: Json, formation_id: str) -> tuple[str, int]:
    """The side and place of a formation in the draft (an organisation-table entry written by hand, with no id,
    is `entry-<i>`)."""
    for side in SIDES:
        for i, f in enumerate(_forces(document, side)):
            if str(f.get("id", f"entry-{i}")) == formation_id:
                return side, i
    raise RulesError("formation", f"no formation {formation_id[:64]} in this scenario")


def regrade(ruleset_id: str, document: Json, formation_id: str, quality: str) -> None:
    """A formation's grade changed, where it has one the editor may change (not a crewed weapon's, nor one read
    from an erratum), to a grade of its table or chart."""
    side, i = find(document, formation_id)
    unit = _forces(document, side)[i]
    if (
        not isinstance(unit.get("quality"), str)
        or unit.get("gun")
        or unit.get("kind") in crewed_kinds(ruleset_id)
    ):
        raise RulesError("quality", "this formation's grade is fixed")
    chart = get_game_rules(ruleset_id).book.force_chart
    source = str(unit.get("source") or "")
    tables = [t for t in org_tables(ruleset_id) if source.startswith(f"{t['source']}:")]
    allowed = (
        chart.qualities if chart is not None else tables[0]["qualities"] if tables else [unit["quality"]]
    )
    if quality not in allowed:
        raise RulesError("quality", f"{quality[:32]} is not a grade this formation may have")
    _regrade(ruleset_id, unit, quality)


def rename(document: Json, formation_id: str, name: str) -> None:
    side, i = find(document, formation_id)
    _forces(document, side)[i]["name"] = name


def remove(document: Json, formation_id: str) -> str:
    """The formation dropped from its side; its name, for the notice."""
    side, i = find(document, formation_id)
    unit = _forces(document, side).pop(i)
    return str(unit.get("name") or formation_id)


def deploy(
    document: Json, formation_id: str, off_table: bool, placed: dict[str, tuple[float, float, float]]
) -> None:
    """Where a formation's stands stand (scenario-deploy.js's drag or lay-out, kept in the draft so a reload
    keeps it): each stand of `placed` at its centre and facing, every other stand of the formation not placed;
    or the formation off the table, none placed. A stand not of the formation, or off the table's edges, is
    refused by name."""
    side, i = find(document, formation_id)
    formation = _forces(document, side)[i]
    stands = {str(u.get("id")): u for u in walk(formation) if u.get("base")}
    width, length = (float(document["table"][k]) for k in ("width_cm", "length_cm"))
    for name, (x, y, _) in placed.items():
        if name not in stands:
            raise RulesError("stand", f"no stand {name[:64]} in the formation {formation_id[:64]}")
        if not (0 <= x <= width and 0 <= y <= length):
            raise RulesError(
                "x", f"the stand {name[:64]} is off the table", [f"x 0..{width:g}", f"y 0..{length:g}"]
            )
    formation["off_table"] = off_table
    for stand_id, stand in stands.items():
        at = None if off_table else placed.get(stand_id)
        stand["placement"] = None if at is None else {"center": [at[0], at[1]], "facing_deg": at[2]}
