"""Filling a resolver's request from the game's table: the fields the game's state knows, each with why and
the rule that lets the game say so. The resolver's own refusals decide the rest, so only what the rules let a
unit claim is filled (crewed weapons are experienced, raw under fire only for raw troops, the flags only for
the units they apply to)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from rules.core.game import GameRules, ancestor_at, ancestors, leaves_under
from rules.core.records import Claims, Filled, FillRequest, Snapshot, UnitState
from rules.flanders_fields import errata as E
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.table_sizes import BASES
from rules.flanders_fields.errata.barrage import SRC_BARRAGE_DANGER
from rules.flanders_fields.errata.gas import SRC_GAS_MOVEMENT
from rules.flanders_fields.play import game_reinforcements
from rules.flanders_fields.play.game_area import given_area, shot_area
from rules.flanders_fields.play.game_report import FlandersFieldsReport
from rules.flanders_fields.play.game_table import context, shot, target_cover, terrain_index
from rules.flanders_fields.play.units import (
    ARTILLERY_KINDS,
    CREWED_KINDS,
    FIRER,
    MG_KINDS,
    MORTAR_KINDS,
    SRC_ARTILLERY_COMMANDER,
    SRC_COMMAND_STAND,
    SRC_ORDERED_UNITS,
    SRC_QUALITY,
    assault_kind,
    command_stand,
    order_unit,
    quality_of,
)
from rules.flanders_fields.resolvers.artillery import SRC_DEEP_SUPPRESSION
from rules.flanders_fields.resolvers.assault import SRC_CLOSE, SRC_DEEP_SHELTERS
from rules.flanders_fields.resolvers.firewaltz import SRC_FIREWALTZ
from rules.flanders_fields.resolvers.gas import SRC_GAS
from rules.flanders_fields.resolvers.orders import CREWED_UNITS, FLAG_UNITS, SRC_CREWED
from rules.flanders_fields.resolvers.reinforcements import RESOLVER as REINFORCEMENTS
from rules.flanders_fields.resolvers.reinforcements import SRC_REINFORCEMENTS
from rules.flanders_fields.ruleset import cite
from rules.table.frame import Table
from rules.table.placed import stand_of

# "Any platoon more than 25cm from its Battalion Commander" (ORDER MODIFIERS): -1 on the order roll.
COMMANDER_REACH_CM = 25.0

# What the table keeps of a roll's request (the troops' quality, markers, flags and counts the game holds,
# the wind as it blew) and what a player may measure with the tape: a range (as erratum range-measured reads
# it) and a stand's distance behind a barrage are measured in cm between things on the table, so the tape's
# reading is taken as much as the map's, marked as the player's. What the players judge by eye (erratum
# judged-by-eye, the book silent on who judges): a stand's cover ("The rules recognise four different types of
# cover, Soft, Medium, Hard and Fortifications", TYPES OF COVER; the assault's "Enemy is in Medium Cover"),
# the line of sight ("Direct = Shooting unit must have a direct line of sight to the target") and the stands
# an assault brings ("Only one stand may fight at a time but may be supported by one stand to the rear", its
# description with the player's support from the rear): taken, marked as the player's beside the map's
# reading. How a stand fires stays the player's to say. The flags the table fills only where they apply read
# false (0) elsewhere, so a claim of one where it does not apply is weighed too.
CLAIMS = Claims(
    kept=frozenset(
        {
            "quality",
            "firer_raw",
            "raw_under_fire",
            "in_gas",
            "firer_in_gas",
            "command_suppression",
            "field_promotion",
            "starting_platoons",
            "lost_platoons",
            "turns_diced",
            "through_wire",
            "deep_suppression",
            "target_is_command",
            "target_in_deep_shelter",
            "attacker_nation",
            "wind",
            "direction_deg",
        }
    ),
    measured={"range_cm": "cm", "distance_cm": "cm"},
    seen=frozenset({"cover", "defender_cover", "direct_line_of_sight", "attacker", "defender"}),
    otherwise={
        "through_wire": False,
        "target_in_deep_shelter": False,
        "deep_suppression": 0,
        "raw_under_fire": False,
    },
    judged=E.JUDGED_BY_EYE,
)


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def _air_target(u: UnitState) -> str | None:
    """What an aircraft attacks, as its factors know it ("Target is Artillery or support weapons +2"; an
    attack is "against a maximum of three infantry platoons or support weapons"): None for a tank."""
    if u.kind in MG_KINDS:
        return "machine-gun"
    if u.kind in MORTAR_KINDS:
        return "mortar"
    if u.kind in ARTILLERY_KINDS:
        return "artillery"
    return "infantry" if u.is_command or assault_kind(u) in ("infantry", "cavalry", "flamethrower") else None


class Combatant(TypedDict):
    """A stand as the assault tables read it."""

    kind: str
    quality: str
    suppressed: bool
    in_deep_shelter: bool


def _combatant(u: UnitState, by_id: Mapping[int | None, UnitState]) -> Combatant | None:
    """A stand as the assault tables read it: what fights, its quality (crewed weapons are experienced),
    whether it is suppressed and whether it shelters in a deep shelter."""
    kind = assault_kind(u)
    if kind is None:
        return None
    quality = "experienced" if u.kind in CREWED_KINDS else quality_of(u, by_id) or "experienced"
    return {
        "kind": kind,
        "quality": quality,
        "suppressed": u.suppression > 0,
        "in_deep_shelter": u.deep_shelter,
    }


def _beyond(
    bn: UnitState,
    whose: UnitState,
    units: Sequence[UnitState],
    by_id: Mapping[int | None, UnitState],
    limit_cm: float,
) -> bool | None:
    """Whether any placed platoon of `whose` (the battalion or one of its units) stands more than `limit_cm`
    from the battalion's commanding stand (None when the commander or every platoon is off the table)."""
    command = command_stand(bn, units, by_id)
    cstand = stand_of(command, BASES) if command is not None else None
    if cstand is None:
        return None
    cpoly = cstand.polygon()
    placed = [
        s
        for s in (stand_of(u, BASES) for u in leaves_under(whose, units) if u.level == "platoon")
        if s is not None
    ]
    if not placed:
        return None
    return any(s.polygon().distance(cpoly) > limit_cm for s in placed)


class FlandersFieldsFill(GameRules):
    """Flanders Fields' requests filled from the table (the game's rolls, `FlandersFieldsRolls`, are made of
    it), with the fields the table keeps."""

    @staticmethod
    def fill(resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        """The fields of `resolver_id`'s request the snapshot knows, in the order the game fills them."""
        fields, given = request.fields, request.given
        by_id = snapshot.by_id
        units = snapshot.units
        unit = snapshot.unit(request.unit_id, "unit_id") if request.unit_id is not None else None
        target = snapshot.unit(request.target_id, "target_id") if request.target_id is not None else None
        out: list[Filled] = []
        sheet = cite(E.ORDER_MODIFIERS, snapshot.period)

        def put(field: str, value: Any, why: str, source: str) -> None:
            # A field is filled once: the first reading that applies (crewed weapons' quality before the unit's).
            if field in fields and field not in given and all(f.field != field for f in out):
                out.append(Filled(field, value, why, source))

        if resolver_id == "shooting":
            given_area(given)
        ctx = context(snapshot)

        if unit is not None:
            chain = [unit, *ancestors(unit, by_id)]
            bn = ancestor_at(unit, "battalion", by_id)
            q = quality_of(unit, by_id)
            command = command_stand(unit, units, by_id)
            command_src = SRC_ARTILLERY_COMMANDER if unit.kind in ARTILLERY_KINDS else SRC_COMMAND_STAND
            stands = [u for u in leaves_under(unit, units) if not u.killed]
            if resolver_id == "order-roll":
                ou = given.get("unit") or order_unit(unit, by_id, snapshot.variants)
                if ou is not None:
                    put("unit", ou, f"{unit.name} is a {unit.kind}", SRC_ORDERED_UNITS)
                if ou in CREWED_UNITS:
                    q = "experienced"
                    put("quality", q, "Crewed Weapons ... are always classed as Experienced", SRC_CREWED)
                flags = {f for f, allowed in FLAG_UNITS.items() if ou in allowed}
                if "platoon_beyond_25cm" in flags and bn is not None:
                    whose = unit if ctx.value(E.COMMANDER_REACH) == "ordered-unit" else bn
                    far = _beyond(bn, whose, units, by_id, COMMANDER_REACH_CM)
                    if far is not None:
                        put(
                            "platoon_beyond_25cm",
                            far,
                            f"a platoon of {whose.name} more than 25 cm from its commander",
                            ctx.citation(E.COMMANDER_REACH),
                        )
                if "through_wire" in flags and any(u.stuck_on_wire for u in stands):
                    put("through_wire", True, f"a platoon of {unit.name} is in wire", sheet)
                reaches = unit.off_table or ctx.value(E.DEEP_SUPPRESSION_ON_TABLE)
                if unit.side == "defender" and snapshot.board.get("deep_suppression", 0) and reaches:
                    put(
                        "deep_suppression",
                        snapshot.board.get("deep_suppression", 0),
                        "the deep suppression in force this turn",
                        SRC_DEEP_SUPPRESSION,
                    )
            if q:
                put("quality", q, f"quality of {bn.name if bn else chain[-1].name}", SRC_QUALITY)
                put("firer_raw", q == "raw", f"{unit.name} is {q}", SRC_QUALITY)
                if q == "raw":
                    raw = any(a.raw_under_fire for a in chain)
                    put(
                        "raw_under_fire",
                        raw,
                        "raw troops that have been fired on" if raw else "not yet fired on",
                        SRC_QUALITY,
                    )
            gas = [u.name for u in [*stands, *([command] if command else [])] if u.in_gas]
            put(
                "in_gas",
                bool(gas),
                f"in a gas cloud: {', '.join(gas)}" if gas else "no stand in a gas cloud",
                SRC_GAS,
            )
            put(
                "firer_in_gas",
                unit.in_gas,
                f"{unit.name} is {'' if unit.in_gas else 'not '}in a gas cloud",
                SRC_GAS,
            )
            if command is not None:
                put(
                    "command_suppression",
                    command.suppression,
                    f"suppression markers on {command.name}",
                    command_src,
                )
                put(
                    "field_promotion",
                    command.field_promotion,
                    f"{command.name} is {'' if command.field_promotion else 'not '}a field promotion",
                    command_src,
                )
            elif ctx.value(E.DEAD_COMMANDER_ORDERS):
                lead = bn or unit
                if any(u.parent_id == lead.id and u.is_command and u.killed for u in units):
                    put(
                        "field_promotion",
                        True,
                        f"the commander of {lead.name} is dead: it orders as under a field promotion",
                        ctx.citation(E.DEAD_COMMANDER_ORDERS),
                    )
            if resolver_id == "morale" and unit.level == "battalion":
                start, gone = FlandersFieldsReport.losses(unit, units)
                morale = cite(T.MORALE_SECTION, snapshot.period)
                put("starting_platoons", start, f"rifle platoons of {unit.name}", morale)
                put("lost_platoons", gone, f"rifle platoons of {unit.name} destroyed", morale)
            if resolver_id == "shooting" and unit.kind in FIRER:
                put("firer", FIRER[unit.kind], f"{unit.name} is a {unit.kind}", T.SRC_SHOOTING_MATRIX)
            if resolver_id == REINFORCEMENTS:
                n = game_reinforcements.turns_diced(snapshot, unit)
                put("turns_diced", n, f"{unit.name} is diced for the {_nth(n)} time", SRC_REINFORCEMENTS)
            if resolver_id == "wire-crossing" and unit.stuck_on_wire:
                put("through_wire", True, f"{unit.name} is in wire", T.SRC_WIRE)
        if target is not None:
            put(
                "target_is_command",
                target.is_command,
                f"{target.name} is {'' if target.is_command else 'not '}a command stand",
                SRC_COMMAND_STAND,
            )
            if target.kind in ("tank",) and resolver_id != "air-attack":
                put("target", "armour", f"{target.name} is a tank", T.SRC_ARMOUR)
            terrain = terrain_index(snapshot.terrain)
            road = bool(ctx.value(E.ROAD_MARCH_COVER))
            cover = target_cover(target, quality_of(target, by_id), terrain, road)
            if cover is not None:
                value = cover.value
                if target.kind == "tank":
                    value = "open" if value == "open" else "cover"
                put(cover.field, value, cover.why, cover.source)
                put("defender_cover", cover.value, cover.why, cover.source)
            if target.deep_shelter:
                put(
                    "target_in_deep_shelter",
                    True,
                    f"{target.name} shelters in a deep dugout",
                    SRC_DEEP_SHELTERS,
                )
            aimed = _air_target(target)
            if resolver_id == "air-attack" and aimed is not None:
                put("target", aimed, f"{target.name} is a {target.kind}", E.SRC_AIR)
            if resolver_id == "assault" and unit is not None:
                for role, u in (("attacker", unit), ("defender", target)):
                    fighter = _combatant(u, by_id)
                    if fighter is not None:
                        put(
                            role,
                            fighter,
                            f"{u.name}: {', '.join(f'{k} {v}' for k, v in fighter.items())}",
                            SRC_CLOSE,
                        )
            if unit is not None:
                table = Table(snapshot.table_width_cm, snapshot.table_length_cm)
                for m in shot(table, snapshot.board.get("barrages", ()), unit, target, terrain, ctx):
                    put(m.field, m.value, m.why, m.source)
                # The firer given, where it is a word: anything else is the request's to refuse (a 422 naming it).
                fires_as = given.get("firer") if isinstance(given.get("firer"), str) else FIRER.get(unit.kind)
                if resolver_id == "shooting" and fires_as:
                    area = shot_area(snapshot, unit, target, fires_as, bool(given.get("indirect")))
                    if area is not None and area.also:
                        put("also", list(area.also), area.why, area.source)
                    if area is not None and area.target_partial is not None:
                        how = "partly" if area.target_partial else "fully"
                        put(
                            "partial_template",
                            area.target_partial,
                            f"{target.name} is {how} under it",
                            area.source,
                        )
            if (
                resolver_id == "shooting"
                and given.get("firer", FIRER.get(unit.kind if unit else "")) == "gas"
            ):
                passed = [c.get("passed", {}) for c in snapshot.board.get("clouds", ())]
                full = any(target.id in p.get("full", []) for p in passed)
                partial = any(target.id in p.get("partial", []) for p in passed)
                if full or partial:
                    put(
                        "partial_template",
                        not full,
                        "the cloud only partly covered the base" if not full else "fully covered",
                        SRC_GAS,
                    )
            if resolver_id == "barrage-danger":
                for b in snapshot.board.get("barrages", ()):
                    hit = next((d for d in b.get("danger", []) if d["unit"] == target.id), None)
                    if hit is not None:
                        put(
                            "distance_cm",
                            hit["distance_cm"],
                            f"{target.name} is {hit['distance_cm']:g} cm behind barrage {b['item_id']}",
                            SRC_BARRAGE_DANGER,
                        )
        if resolver_id == "gas-wind":
            if snapshot.board.get("wind") is not None:
                put(
                    "wind",
                    dict(snapshot.board["wind"]),
                    "the wind as it blew last turn (one wind for every cloud)",
                    SRC_GAS_MOVEMENT,
                )
            else:
                first = next(iter(snapshot.board.get("clouds", ())), None)
                if first is not None:
                    put(
                        "direction_deg",
                        first["wind_deg"],
                        f"the wind direction stated in fire plan item {first['item_id']}",
                        SRC_GAS,
                    )
        if resolver_id == "firewaltz" and "attacker" in snapshot.nations:
            nation = snapshot.nations["attacker"]
            put("attacker_nation", nation, f"the game's attacker is {nation}", SRC_FIREWALTZ)
        return tuple(out)
