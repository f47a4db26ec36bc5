"""Order (action) rolls: one D6 per unit gives its number of actions, by the period's playsheet tables."""

from __future__ import annotations

from typing import TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier, PrintedModifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata as E
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import FFRequest, Quality
from rules.flanders_fields.book.special_rules import SpecialRuleId, accept_special_rule, refuse, rules_for
from rules.flanders_fields.errata import (
    AIR_MISSION_ORDER,
    ARTILLERY_ACTION_MID,
    ARTILLERY_LINE_OF_SIGHT_LATE,
)
from rules.flanders_fields.resolvers.artillery import check_deep_suppression, ds_modifier, open_sights_bonus
from rules.flanders_fields.ruleset import FlandersFields, cite

RESOLVER = "order-roll"
SRC_ORDER_NATURAL_ONE = cite("ORDERS AND ACTIONS, REGIMENT/BRIGADE ORDERS (a natural 1 is still a failure)")
SRC_CREWED = cite("TROOP QUALITY, EXPERIENCED")
SRC_DEEP_SUPPRESSION_SCOPE = "ORDER SEQUENCE NOTES, Regimental/Brigade Artillery and Mortars"

BATTALION_UNITS = frozenset({"rifle-company", "battalion-mg", "battalion-mortar", "tank"})
# "Crewed Weapons such as artillery, machineguns and mortars are always classed as Experienced"
CREWED_UNITS = frozenset(
    {
        "battalion-mg",
        "regimental-mg",
        "battalion-mortar",
        "regimental-mortar",
        "regimental-artillery",
        "blockhouse",
    }
)
MORTAR_UNITS = frozenset({"battalion-mortar", "regimental-mortar"})
# Table III: "Regimental/Brigade Artillery and Mortars ... Deep Suppression modifiers are applied"
DEEP_SUPPRESSED_UNITS = frozenset({"regimental-artillery", "regimental-mortar"})
ACTIONS = {
    "rifle-company": "REMOVE A SUPPRESSION LEVEL, FIRE or MOVE",
    "battalion-mg": "REMOVE A SUPPRESSION LEVEL, FIRE or MOVE",
    "regimental-mg": "REMOVE A SUPPRESSION LEVEL, MOVE or FIRE",
    "blockhouse": "REMOVE A SUPPRESSION LEVEL, MOVE or FIRE",
    "tank": "REMOVE A SUPPRESSION LEVEL, FIRE or MOVE",
    "battalion-mortar": "REMOVE A SUPPRESSION LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE or MOVE",
    "regimental-artillery": "REMOVE A SUPPRESSION LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE A BATTERY OR MOVE",
    "regimental-mortar": "REMOVE A SUPPRESSION LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE A BATTERY OR MOVE",
    "air-support": "1 = Biggles/Red Baron arrives where required",
}
# Flags that only some units may set (field -> units); the generic commander modifiers apply to all.
FLAG_UNITS: dict[str, frozenset[str]] = {
    "platoon_beyond_25cm": BATTALION_UNITS,
    "staff_support": BATTALION_UNITS,
    "tank_failed_last_turn": frozenset({"tank"}),
    "mortar_without_line_of_sight": MORTAR_UNITS,
    "artillery_own_line_of_sight": frozenset({"regimental-artillery"}),
    "through_wire": frozenset({"rifle-company"}),
}


class OrderRollRequest(FFRequest):
    unit: T.OrderUnit = Field(description="The unit being ordered.")
    quality: Quality = Field(
        default="experienced", description="Battalion quality; crewed weapons are experienced."
    )
    raw_under_fire: bool = Field(default=False, description="Raw troops whose battalion has come under fire.")
    in_gas: bool = Field(default=False, description="Commander or commanded in a gas cloud (-1).")
    platoon_beyond_25cm: bool = Field(
        default=False, description="A platoon over 25 cm from its battalion commander (-1)."
    )
    field_promotion: bool = Field(
        default=False, description="The commanding stand is a field promotion (-1)."
    )
    tank_failed_last_turn: bool = Field(
        default=False, description="A tank that failed its action roll last turn (-1)."
    )
    after_amiens: bool = Field(
        default=False, description="After July 1918 (late): no tank failed-last-turn penalty."
    )
    mortar_without_line_of_sight: bool = Field(
        default=False, description="Mortar without its own line of sight (-1)."
    )
    artillery_own_line_of_sight: bool = Field(
        default=False, description="Artillery with its own line of sight (+1)."
    )
    staff_support: bool = Field(
        default=False, description="Regiment/brigade staff support to this battalion roll."
    )
    through_wire: bool = Field(default=False, description="A rifle company trying to pass through wire.")
    command_suppression: int = Field(
        default=0, ge=0, le=10, description="Suppression markers on the command stand."
    )
    deep_suppression: int = Field(
        default=0, ge=0, le=2, description="Deep Suppression penalty in effect (0-2)."
    )
    special_rule: SpecialRuleId | None = Field(default=None, description="A national special rule invoked.")


def _bands_from_thresholds(one: int, two: int | None) -> tuple[T.Band, ...]:
    rows = [(1, one - 1, 0), (one, (two - 1) if two else one, 1)]
    if two:
        rows.append((two, two, 2))
    return T.bands(*rows)


def order_table(unit: str, ctx: Context) -> T.OrderTable | None:
    """The period's table for the unit under the readings in force, or None if the period has no such unit."""
    period = ctx.period or "late"
    tables = T.ORDER_TABLES[period]
    if unit == "regimental-mortar" and period == "early":
        if not ctx.value(E.EARLY_REGIMENTAL_MORTAR_ORDERS):
            return None
        art = tables["regimental-artillery"]
        return T.OrderTable(
            "regimental-mortar", "Regimental/Brigade Mortars (artillery table)", art.bands, art.section
        )
    table = tables.get(unit)
    if table is None:
        return None
    if period == "mid" and unit in DEEP_SUPPRESSED_UNITS:
        th = ctx.value(ARTILLERY_ACTION_MID)
        return T.OrderTable(
            table.unit, table.label, _bands_from_thresholds(th["one"], th["two"]), table.section
        )
    if unit == "air-support":
        air = ctx.value(AIR_MISSION_ORDER)
        return T.OrderTable(
            table.unit, table.label, _bands_from_thresholds(air["needs"], None), table.section
        )
    return table


def _table_source(unit: str, table: T.OrderTable, ctx: Context) -> str:
    if ctx.period == "mid" and unit in DEEP_SUPPRESSED_UNITS:
        return ctx.citation(ARTILLERY_ACTION_MID)
    if unit == "air-support":
        return ctx.citation(AIR_MISSION_ORDER)
    if unit == "regimental-mortar" and ctx.period == "early":
        return ctx.citation(E.EARLY_REGIMENTAL_MORTAR_ORDERS)
    return cite(f"ORDER SEQUENCE NOTES, {table.section}", ctx.period)


def available_units(ctx: Context) -> list[str]:
    return [u for u in T.ORDER_UNITS if order_table(u, ctx) is not None]


@FlandersFields.resolver
class OrderRoll(Resolver[OrderRollRequest]):
    id = RESOLVER
    summary = "Order roll: how many actions a unit gets this turn"
    Request = OrderRollRequest
    examples = (
        {"period": "early", "unit": "rifle-company", "quality": "veteran", "dice": [4]},
        {"period": "mid", "unit": "tank", "tank_failed_last_turn": True, "dice": [5]},
        {
            "period": "late",
            "unit": "regimental-artillery",
            "artillery_own_line_of_sight": True,
            "deep_suppression": 1,
        },
        {"period": "mid", "unit": "rifle-company", "quality": "raw", "special_rule": "pals", "dice": [2]},
    )

    def check(self, req: OrderRollRequest, ctx: Context) -> None:
        if order_table(req.unit, ctx) is None:
            raise RulesError("unit", f"no {req.unit} in the {ctx.period} period", available_units(ctx))
        if (req.unit in CREWED_UNITS or req.unit == "air-support") and req.quality != "experienced":
            raise RulesError(
                "quality", f"{req.unit}: crewed weapons are always classed as Experienced", ["experienced"]
            )
        if req.raw_under_fire and req.quality != "raw":
            raise RulesError("raw_under_fire", "only raw troops are affected by coming under fire", [False])
        for flag, units in FLAG_UNITS.items():
            if getattr(req, flag) and req.unit not in units:
                raise RulesError(flag, f"applies only to {', '.join(sorted(units))}, not {req.unit}", [False])
        if req.after_amiens and ctx.period != "late":
            raise RulesError("after_amiens", "Amiens (August 1918) falls in the late period", [False])
        check_deep_suppression(ctx, req.deep_suppression)
        if req.unit == "air-support" and (req.field_promotion or req.command_suppression):
            raise RulesError("unit", "air support has no command stand of its own", available_units(ctx))
        rule = accept_special_rule(req.special_rule, ctx.period, RESOLVER)
        if rule is None:
            return
        allowed = rules_for(RESOLVER, ctx.period)
        if rule.id == "pals" and req.quality != "raw":
            raise refuse(rule, "only raw battalions may invoke it", allowed)
        if rule.id == "professionalism" and req.unit not in ("rifle-company", "tank"):
            raise refuse(rule, "infantry battalions and attached tanks only", allowed)
        if rule.id == "elan" and req.unit != "rifle-company":
            raise refuse(rule, "French infantry ordered to move forward only", allowed)
        if rule.id == "prussian-discipline" and req.unit == "air-support":
            raise refuse(rule, "a commander's action roll, not an air mission", allowed)
        if rule.id == "storm-troops" and req.quality != "storm":
            raise RulesError(
                "quality", "a Storm Troop battalion is always classed as Veteran (quality storm)", ["storm"]
            )

    def modifiers(self, req: OrderRollRequest, ctx: Context, die: int) -> tuple[list[Modifier], list[str]]:
        p = ctx.period
        sheet = cite(E.ORDER_MODIFIERS, p)
        mods: list[Modifier] = []
        notes: list[str] = []
        if req.in_gas:
            mods.append(Modifier("Commander or commanded in a gas cloud", -1, sheet))
        if req.platoon_beyond_25cm:
            mods.append(Modifier("A platoon more than 25cm from its Battalion Commander", -1, sheet))
        if req.field_promotion:
            mods.append(Modifier("Commanding stand is a field promotion", -1, sheet))
        if req.command_suppression:
            mods.append(
                Modifier(
                    f"Suppression markers on the command stand ({req.command_suppression})",
                    -req.command_suppression,
                    sheet,
                )
            )
        if req.tank_failed_last_turn:
            if req.after_amiens:
                notes.append("Tank failed last turn: not applied after July 1918 (Battle of Amiens).")
            else:
                mods.append(Modifier("Tank model failed its action roll last turn", -1, sheet))
        if req.mortar_without_line_of_sight:
            mods.append(
                Modifier(
                    "Mortar without its own line of sight",
                    -1,
                    sheet if p != "early" else cite("SPOTTING FOR MORTARS"),
                )
            )
        if req.artillery_own_line_of_sight:
            bonus = open_sights_bonus(ctx)
            if p == "early":
                src = ctx.citation(E.ARTILLERY_LINE_OF_SIGHT_EARLY)
            elif p == "late":
                src = ctx.citation(ARTILLERY_LINE_OF_SIGHT_LATE)
            else:
                src = sheet
            if bonus:
                mods.append(Modifier("Artillery with its own line of sight", bonus, src))
            else:
                notes.append("1914 playsheet: artillery with line of sight uses the same table, no bonus.")
        if req.quality in ("veteran", "storm"):
            mods.append(Modifier("Veteran or Storm troops", 1, sheet))
        elif req.quality == "raw":
            if not req.raw_under_fire:
                mods.append(Modifier("Raw troops, not yet under fire", 1, sheet))
            else:
                raw = ctx.value(E.RAW_ORDER_MODIFIER)
                if die >= raw["from_die"]:
                    mods.append(
                        Modifier(
                            "Raw troops after coming under fire",
                            raw["under_fire"],
                            ctx.citation(E.RAW_ORDER_MODIFIER),
                        )
                    )
        if req.staff_support:
            if p == "late":
                bonus, src = 2, cite("ORDER SEQUENCE NOTES, 5 DIVISIONAL/REGIMENTAL/BRIGADE ORDERS N.B.", p)
            else:
                bonus, src = ctx.value(E.STAFF_SUPPORT_BONUS), ctx.citation(E.STAFF_SUPPORT_BONUS)
            mods.append(Modifier("Regiment/Brigade staff support", bonus, src))
        if req.through_wire:
            if p == "early" and ctx.value(E.EARLY_WIRE_CROSSING)["order_modifier"]:
                wire = ctx.value(E.EARLY_WIRE_CROSSING)["order_modifier"]
                mods.append(
                    Modifier("Companies passing through wire", wire, ctx.citation(E.EARLY_WIRE_CROSSING))
                )
            else:
                notes.append("Crossing wire takes a separate Action and a roll by platoons (wire-crossing).")
        if req.deep_suppression:
            if req.unit in DEEP_SUPPRESSED_UNITS:
                mods.extend(ds_modifier(req.deep_suppression))
            else:
                notes.append("Deep Suppression is applied to Regimental/Brigade artillery and mortar rolls.")
        if req.unit == "air-support" and ctx.value(AIR_MISSION_ORDER)["modifier"]:
            mods.append(
                Modifier(
                    "Communicating with the aviators",
                    ctx.value(AIR_MISSION_ORDER)["modifier"],
                    ctx.citation(AIR_MISSION_ORDER),
                )
            )
        if req.special_rule:
            rule = accept_special_rule(req.special_rule, p, RESOLVER)
            assert rule is not None
            if rule.modifier:
                mods.append(Modifier(rule.name, rule.modifier, rule.source))
            if rule.id == "elan":
                notes.append("Elan: actions gained by the +1 may only be used to advance, not to fire.")
            if rule.id == "storm-troops":
                notes.append("Storm Troops are Veteran: the +1 is the quality bonus.")
        return mods, notes

    def evaluate(self, req: OrderRollRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        table = order_table(req.unit, ctx)
        assert table is not None
        die = dice[0]
        mods, notes = self.modifiers(req, ctx, die)
        total = die + sum(m.value for m in mods)
        sources = [_table_source(req.unit, table, ctx)]
        if die == 1:
            actions = 0
            notes.append("A natural 1 is always a failure, whatever the modifiers.")
            sources.append(SRC_ORDER_NATURAL_ONE)
        else:
            actions = T.actions_for(total, table.bands)
        details: OrderDetails = {
            "table": [{"roll": b.printed, "actions": b.actions} for b in table.bands],
            "actions_are": ACTIONS[req.unit],
            "natural_one": die == 1,
            "notes": notes,
        }
        return Evaluation(
            f"actions-{actions}", {"actions": actions}, tuple(mods), total, tuple(sources), details
        )


class OrderBandRow(TypedDict):
    """A band of an order table: the roll as printed and the actions it gives."""

    roll: str
    actions: int


class OrderDetails(TypedDict):
    """What an order roll says besides the actions: the unit's table, what an action is, whether the die was
    a natural 1, the notes."""

    table: list[OrderBandRow]
    actions_are: str
    natural_one: bool
    notes: list[str]


class OrderTableRow(TypedDict):
    label: str
    bands: list[OrderBandRow]
    actions_are: str
    source: str


class OrderTables(TypedDict):
    """A period's order tables: each unit's, the modifiers, the natural 1 and the errata on them."""

    period: str | None
    source: str
    units: dict[str, OrderTableRow]
    modifiers: list[PrintedModifier]
    natural_one: str
    errata: list[str]


def order_tables_dataset(period: str | None) -> OrderTables:
    ctx = FlandersFields().context(period)
    units: dict[str, OrderTableRow] = {}
    for unit in T.ORDER_UNITS:
        table = order_table(unit, ctx)
        if table is None:
            continue
        units[unit] = {
            "label": table.label,
            "bands": [{"roll": b.printed, "actions": b.actions} for b in table.bands],
            "actions_are": ACTIONS[unit],
            "source": _table_source(unit, table, ctx),
        }
    sheet = cite(E.ORDER_MODIFIERS, period)
    late = period == "late"
    modifiers: list[PrintedModifier] = [
        {"label": "Commander or commanded in a GAS cloud", "value": -1, "source": sheet},
        {"label": "Any platoon more than 25cm from its Battalion Commander", "value": -1, "source": sheet},
        {"label": "Commanding stand is a Field Promotion", "value": -1, "source": sheet},
        {"label": "Each suppression marker on the unit's command stand", "value": -1, "source": sheet},
        {"label": "Veteran or Storm troops (but a 1 is a FAIL)", "value": 1, "source": sheet},
        {"label": "Raw troops until they receive any fire", "value": 1, "source": sheet},
        {
            "label": "Raw troops after coming under fire",
            "value": ctx.value(E.RAW_ORDER_MODIFIER)["under_fire"],
            "source": ctx.citation(E.RAW_ORDER_MODIFIER),
        },
        {
            "label": "Regiment/Brigade staff support (one battalion roll per turn)",
            "value": 2 if late else ctx.value(E.STAFF_SUPPORT_BONUS),
            "source": sheet if late else ctx.citation(E.STAFF_SUPPORT_BONUS),
        },
    ]
    if period == "early":
        wire = ctx.value(E.EARLY_WIRE_CROSSING)["order_modifier"]
        modifiers.append(
            {
                "label": "Companies passing through wire",
                "value": wire,
                "source": ctx.citation(E.EARLY_WIRE_CROSSING),
            }
        )
    else:
        tank = "Tank which failed its action roll last turn" + (
            " (not after July 1918, Amiens)" if late else ""
        )
        modifiers += [
            {"label": tank, "value": -1, "source": sheet},
            {"label": "Mortar without its own line of sight", "value": -1, "source": sheet},
            {
                "label": "Artillery with its own line of sight",
                "value": open_sights_bonus(ctx),
                "source": ctx.citation(ARTILLERY_LINE_OF_SIGHT_LATE) if late else sheet,
            },
            {
                "label": "Deep Suppression (Regimental/Brigade artillery and mortars)",
                "value": "-1 or -2",
                "source": cite(SRC_DEEP_SUPPRESSION_SCOPE, period),
            },
        ]
    return {
        "period": period,
        "source": cite("ORDER SEQUENCE NOTES", period),
        "units": units,
        "modifiers": modifiers,
        "natural_one": "A natural 1 is always a failure.",
        "errata": [
            e
            for e in (
                E.RAW_ORDER_MODIFIER,
                E.STAFF_SUPPORT_BONUS,
                E.ARTILLERY_LINE_OF_SIGHT_EARLY,
                E.EARLY_WIRE_CROSSING,
                E.EARLY_REGIMENTAL_MORTAR_ORDERS,
                ARTILLERY_ACTION_MID,
                ARTILLERY_LINE_OF_SIGHT_LATE,
                AIR_MISSION_ORDER,
            )
            if not ctx.ruleset.errata[e].periods or period in ctx.ruleset.errata[e].periods
        ],
    }


FlandersFields.dataset("order-tables", "Order roll tables and modifiers for the period", per_period=True)(
    order_tables_dataset
)
