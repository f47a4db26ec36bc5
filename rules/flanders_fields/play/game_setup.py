"""A new Flanders Fields game's forces: organisation-table entries built for the game's period, nations and
readings, a scenario document's units as written, and firestep's default deployment of what has no place."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from rules.core.errors import RulesError
from rules.core.game import GameRules
from rules.core.ruleset import Context
from rules.core.scenario import (
    SIDES,
    ForceNode,
    ForceUnit,
    NewForces,
    StandPlacement,
    chosen,
    forces_from_document,
    units_in,
)
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.book.organisation import (
    LEVELS,
    ORGANISATION_TABLES,
    Unit,
    build_force,
    build_template,
    max_units_per_game,
)
from rules.flanders_fields.book.table_sizes import BASES

# "Both sides deploy 15cm onto the table" (SPECIMEN GAMES, Mons): firestep's default deployment zone.
DEPLOY_DEPTH = 15.0
DEPLOY_GAP_CM = 1.0  # firestep's spacing between default positions, not a rule
# The game's cap on units (FlandersFieldsSetup.unit_cap says it).
CAP_RULE = (
    "a game holds at most {cap} units (a division a side, the largest game the book describes, twice over)"
)


# -- organisation-table entries --------------------------------------------------------------------------------
def tables_for(nation: str, period: str | None) -> list[str]:
    """Organisation tables of a nation (any when blank) drawn for a period (any when None)."""
    return [
        tid
        for tid, meta in ORGANISATION_TABLES.items()
        if (not nation or meta["nation"] == nation) and (period is None or period in meta["periods"])
    ]


# -- a game's forces from a scenario document ------------------------------------------------------------------
def _as_unit(node: ForceNode) -> Unit:
    """The document's units as the organisation tables' units (what the rest of the rule set reads)."""
    if isinstance(node, Unit):
        return node
    assert isinstance(node, ForceUnit)
    return Unit(
        node.id,
        node.name,
        node.level,
        node.kind,
        node.base,
        node.quality,
        node.models,
        tuple(_as_unit(c) for c in node.children),
        node.source,
        node.gun,
    )


@lru_cache(maxsize=256)
def _entry_size(period: str, variants: tuple[tuple[str, str], ...], nation: str, entry: str) -> int:
    """How many units an entry (as canonical JSON) builds: built once per kind of entry, not per entry."""
    return units_in(
        FlandersFieldsSetup.force_from_table(period, dict(variants), nation, json.loads(entry), "", "n")
    )


def _entries(forces: Sequence[Mapping[str, Any]], where: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for i, u in enumerate(forces):
        yield f"{where}.{i}", u
        yield from _entries(u.get("children", []), f"{where}.{i}.children")


def _within_cap(ctx: Context, sides: Mapping[str, Any]) -> None:
    """Count what the forces build before building them: an entry counts what its kind of entry builds
    (two thousand entries of a division each built 551,000 units before the cap refused them, issue 35).
    Past the cap a RulesError names the entry (or unit) that crosses it."""
    cap = max_units_per_game()
    total = 0
    for side in SIDES:
        nation = str(sides[side]["nationality"])
        for where, u in _entries(sides[side]["forces"], f"sides.{side}.forces"):
            if "table_id" not in u:
                total += 1
            else:
                entry = {k: chosen(v, ctx) for k, v in u.items() if k not in ("id", "name", "off_table")}
                key = json.dumps(entry, sort_keys=True)
                try:
                    total += _entry_size(ctx.period, tuple(sorted(ctx.variants.items())), nation, key)
                except RulesError:
                    total += 1  # refused when it is built, naming its field
            if total > cap:
                raise RulesError(
                    where,
                    f"the forces reach {total} units here; {CAP_RULE.format(cap=cap)}",
                    [f"0..{cap} units"],
                )


def deploy(
    width: float, length: float, forces: Mapping[str, Sequence[Unit]]
) -> tuple[dict[str, StandPlacement], list[str]]:
    """Default positions for forces built from the tables. The rule book only says "Attacker and Defender
    deploy their forces a battalion at a time" (GAME SEQUENCE), so firestep lines each side up in the zone
    of the specimen game, "Both sides deploy 15cm onto the table" (SPECIMEN GAMES, Mons), at its own base
    edge: battalion by battalion, front rows first, every stand facing the enemy. A battalion (or a stand
    outside any) that no longer fits starts off the table, for the referee to bring on."""
    placements: dict[str, StandPlacement] = {}
    off_table: list[str] = []
    depth = min(DEPLOY_DEPTH, length / 2)  # a small table: the zones meet in the middle
    for side, roots in forces.items():
        groups = [g for root in roots for g in _deploy_groups(root)]
        facing = 90.0 if side == "attacker" else 270.0
        toward_back = -1.0 if side == "attacker" else 1.0  # rows run away from the enemy
        front = depth if side == "attacker" else length - depth
        x, row_start, row_depth = DEPLOY_GAP_CM, 0.0, 0.0  # row_start: distance of the row behind `front`
        for group in groups:
            saved = (x, row_start, row_depth)
            trial: dict[str, StandPlacement] = {}
            for stand in group.stands():
                base = BASES[stand.base or ""]
                if x + base.width_cm + DEPLOY_GAP_CM > width:
                    x, row_start, row_depth = DEPLOY_GAP_CM, row_start + row_depth + DEPLOY_GAP_CM, 0.0
                if x + base.width_cm + DEPLOY_GAP_CM > width or row_start + base.depth_cm > depth:
                    break
                depth_centre = row_start + base.depth_cm / 2
                trial[stand.id] = {
                    "center": [x + base.width_cm / 2, front + toward_back * depth_centre],
                    "facing_deg": facing,
                }
                x, row_depth = x + base.width_cm + DEPLOY_GAP_CM, max(row_depth, base.depth_cm)
            else:
                placements.update(trial)
                continue
            x, row_start, row_depth = saved
            off_table.append(group.id)
    return placements, off_table


def _deploy_groups(unit: Unit) -> list[Unit]:
    """What deploys as one: each battalion (artillery groups included), and each stand outside any."""
    if unit.level == "battalion" or unit.base is not None:
        return [unit]
    return [g for c in unit.children for g in _deploy_groups(c)]


# The rule set's name for the hook's attribute: Flanders Fields' nations are those of its organisation tables.
NATIONS: tuple[str, ...] = tuple(sorted({str(m["nation"]) for m in ORGANISATION_TABLES.values()}))


# The organisation tables' levels, and a command stand or an off-table asset placed by hand.
UNIT_LEVELS = (*LEVELS, "command", "asset")


class FlandersFieldsSetup(GameRules):
    """Flanders Fields' new games: its nations, qualities, special rules, unit levels, kinds and guns, its
    shipped scenarios, the rule book's cap on units, and its organisation tables' builders."""

    def unit_cap(self) -> tuple[int, str] | None:
        cap = max_units_per_game()
        return cap, CAP_RULE.format(cap=cap)

    @staticmethod
    def new_forces(ctx: Context, document: Mapping[str, Any]) -> NewForces:
        """A (checked) document's forces by the game's readings: its units as written, its organisation-table
        entries built for its period and each side's nationality and deployed by default (`deploy`); counted
        first, and refused past the game's cap on units before any is built."""
        sides = document["sides"]
        _within_cap(ctx, sides)

        def entry(side: str, e: Mapping[str, Any], field: str, id_prefix: str) -> Unit:
            return FlandersFieldsSetup.force_from_table(
                ctx.period, ctx.variants, str(sides[side]["nationality"]), e, field, id_prefix
            )

        made, built = forces_from_document(document, ctx, entry)
        table = document["table"]
        placements, off_table = deploy(
            float(table["width_cm"]),
            float(table["length_cm"]),
            {s: [_as_unit(u) for u in built[s]] for s in SIDES},
        )
        return NewForces(
            forces={side: tuple(_as_unit(u) for u in roots) for side, roots in made.forces.items()},
            placements={**made.placements, **placements},
            off_table=(*made.off_table, *off_table),
            state=made.state,
        )

    def forces_setup(self, entries: Sequence[Mapping[str, Any]]) -> tuple[str, dict[str, str]]:
        """For entries ({side, table_id}) given without a period or nations: the earliest period every named
        table covers (else early), and each side's nation from its first known table."""
        known = [f for f in entries if f["table_id"] in ORGANISATION_TABLES]
        periods = [ORGANISATION_TABLES[f["table_id"]]["periods"] for f in known]
        period = next((p for p in PERIODS if all(p in ps for ps in periods)), "early")
        nations: dict[str, str] = {}
        for f in known:
            nations.setdefault(f["side"], str(ORGANISATION_TABLES[f["table_id"]]["nation"]))
        return period, nations

    @staticmethod
    def force_from_table(
        period: str | None,
        variants: Mapping[str, str],
        nation: str,
        entry: Mapping[str, Any],
        field: str,
        id_prefix: str,
    ) -> Unit:
        """Build an entry ({table_id, quality?, template?, name?, counts?}) with build_force, or only the table's
        named part `template` (e.g. one battalion) with build_template; `counts` keeps fewer of a kind of box
        than the chart draws. The table must exist, be of the side's nation and be drawn for the period: else a
        RulesError on `<field>.table_id` naming the tables that would do (`<field>.quality` for a quality the
        table does not allow, `<field>.template` naming the table's parts). Unit ids are `<id_prefix>/<table>/...`."""
        at = f"{field}." if field else ""
        table = entry["table_id"]
        nation = nation.strip().lower()
        fitting = tables_for(nation, period)
        meta = ORGANISATION_TABLES.get(table)
        if meta is None:
            raise RulesError(f"{at}table_id", f"unknown organisation table {table!r}", fitting)
        if nation and meta["nation"] != nation:
            raise RulesError(f"{at}table_id", f"{meta['title']} is not a {nation} table", fitting)
        if period not in meta["periods"]:
            raise RulesError(
                f"{at}table_id", f"{meta['title']} is not drawn for the {period} period", fitting
            )
        template = entry.get("template")
        try:
            if template is None:
                return build_force(
                    table,
                    quality=entry.get("quality"),
                    name=entry.get("name"),
                    variants=variants,
                    id_prefix=f"{id_prefix}/{table}",
                    counts=entry.get("counts"),
                )
            templates = [t["id"] for t in meta["templates"]]
            if template not in templates:
                printed = "" if templates else ": it names no part to build alone (omit template)"
                raise RulesError("template", f"{meta['title']} has no part {template!r}{printed}", templates)
            return build_template(
                table,
                template,
                quality=entry.get("quality"),
                name=entry.get("name"),
                variants=variants,
                id_prefix=f"{id_prefix}/{table}/{template}",
                counts=entry.get("counts"),
            )
        except RulesError as e:  # the builders name `quality`: point at this entry
            e.field = f"{at}{e.field}"
            raise
