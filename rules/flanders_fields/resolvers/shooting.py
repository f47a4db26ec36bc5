"""Ranged combat: one D6 (two for LMG units and the Mad Minute) against the period's firing table.

The answer says the cell used (suppress and kill thresholds), every modifier with its citation, and why a
shot is not possible or out of range. Against armour the main text's armour table is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field

from rules.core.dice import exact_distribution
from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier, ModifierDict, PrintedModifier
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata as E
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import PERIODS, FFRequest
from rules.flanders_fields.book.special_rules import SpecialRuleId, accept_special_rule, refuse, rules_for
from rules.flanders_fields.errata import (
    BLOCKHOUSE_RANGE,
    LIGHT_MORTAR_PARTIAL,
    SRC_DEEP_SHELTERS,
    SRC_NATURAL_ONE,
)
from rules.flanders_fields.resolvers.artillery import SHELTER_SUPER_HEAVY_KILL
from rules.flanders_fields.resolvers.suppression import spreads_to_company
from rules.flanders_fields.ruleset import FlandersFields, cite

RESOLVER = "shooting"
SRC_DIRECT = cite("RANGED COMBAT, DIRECT FIRE MODIFIERS")
SRC_BEATEN_ZONE = cite("RANGED COMBAT, MACHINEGUN BEATEN ZONE")
SRC_AREA = cite("ARTILLERY BATTERIES AREA OF EFFECT")
SRC_MORTAR_AREA = cite("MORTARS, MORTAR AREA OF EFFECT")
SRC_COVER = cite("TYPES OF COVER")
SRC_COMMAND = cite("TROOP QUALITY, COMMAND STANDS")
SUPER_HEAVY = "super-heavy-artillery"

Target = Literal["troops", "armour"]
ShotCover = Literal["open", "soft", "medium", "hard", "fortified", "cover"]
Outcome = Literal["no-effect", "suppressed", "killed", "not-possible", "out-of-range"]

# Which firers may set which flags (field -> firers).
INDIRECT_FIRERS = T.ARTILLERY_FIRERS | T.MORTAR_FIRERS | {"mg", "gas"}
PARTIAL_FIRERS = T.ARTILLERY_FIRERS | {"medium-mortar", "heavy-mortar", "light-mortar", "gas", "mg"}
# Fire types for suppression spreading (suppression.py).
FIRE_TYPE = {
    "mg": "mg",
    "blockhouse": "blockhouse",
    "infantry": "rifle",
    "lmg-unit": "lmg",
    "cavalry": "cavalry",
    "light-tank": "tank",
    "heavy-tank": "tank",
    "gas": "gas",
    "flamethrower": "flamethrower",
    **{f: "artillery" for f in T.ARTILLERY_FIRERS},
    **{f: "mortar" for f in T.MORTAR_FIRERS},
}


# The stands one shot also attacks: the rest of a battery's or mortar's area, an MG's beaten zone. 36 of the
# smallest (2 cm) bases meet a 10 cm square side by side; more would be stands piled on one another.
MAX_ALSO_ATTACKED = 48
AREA_FIRERS = T.ARTILLERY_FIRERS | T.MORTAR_FIRERS


class AlsoAttacked(BaseModel):
    """Another stand the same shot attacks, with what differs from the first target: its own cover and
    command, whether it is only partly under the area, its place in the beaten zone."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(min_length=1, max_length=200, description="The stand, as the table names it.")
    unit_id: int | None = Field(default=None, ge=1, le=2**31 - 1, description="The stand, in a game.")
    target: Target = "troops"
    cover: ShotCover = "open"
    target_is_command: bool = False
    partial_template: bool = False
    target_in_deep_shelter: bool = False
    beaten_zone_index: int = Field(default=0, ge=0, le=T.BEATEN_ZONE_TARGETS)


class ShootingRequest(FFRequest):
    firer: T.Firer = Field(description="What is shooting.")
    target: Target = Field(
        default="troops", description="troops (infantry, MGs, mortars, artillery) or armour."
    )
    cover: ShotCover = Field(
        default="open",
        description="Target's cover: open/soft/medium/hard/fortified; against armour open or cover.",
    )
    range_cm: float = Field(ge=0, le=1000, description="Range to the (first) target in cm.")
    direct_line_of_sight: bool = Field(default=True, description="The firer can see the target.")
    target_is_command: bool = Field(default=False, description="The target is a command stand (-1).")
    target_in_deep_shelter: bool = Field(
        default=False,
        description="The target shelters in a deep dugout (safe but from super heavy artillery).",
    )
    firer_raw: bool = Field(default=False, description="The firers are raw troops.")
    firer_in_gas: bool = Field(default=False, description="The firers are in a gas cloud (-1).")
    through_barrage: bool = Field(default=False, description="Shooting into or through a barrage.")
    barrage_uphill: bool = Field(default=False, description="... and uphill.")
    partial_template: bool = Field(
        default=False, description="The target is only partly under the template (-2)."
    )
    moved_and_fired: bool = Field(default=False, description="A tank that moved and fired.")
    anti_tank_rifle: bool = Field(
        default=False, description="Infantry with an anti-tank rifle (against armour)."
    )
    indirect: bool = Field(default=False, description="Indirect fire (artillery, mortars, MGs).")
    beaten_zone_index: int = Field(
        default=0,
        ge=0,
        le=T.BEATEN_ZONE_TARGETS,
        description="0: the MG's first target; 1-3: later beaten-zone targets.",
    )
    special_rule: SpecialRuleId | None = Field(
        default=None, description="long-range-marksmanship or mad-minute."
    )
    # Left out of a request's JSON when empty: a shot at one stand reads as it always has.
    also: list[AlsoAttacked] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        max_length=MAX_ALSO_ATTACKED,
        description="Other stands the shot attacks, each on a die of its own: the rest of an artillery or "
        "mortar area of effect, an MG's beaten zone.",
    )


def one_target(req: ShootingRequest, also: AlsoAttacked) -> ShootingRequest:
    """The shot as it attacks one of the other stands."""
    return req.model_copy(update={**also.model_dump(exclude={"name", "unit_id"}), "also": []})


class CellShown(TypedDict, total=False):
    """The cell a shot reads, as its answer shows it: the row and column as printed, and the cell's values (a
    firing cell's `direct`, an armour cell's kill with an anti-tank rifle, where printed). In a deep shelter
    the row is the one it was (None if none) and there is no suppressing."""

    row: str | None
    column: str
    suppress: T.Printed | None
    kill: T.Printed | Literal["Assault Only", "Not Possible"]
    direct: bool
    kill_with_at_rifle: int


class Thresholds(TypedDict):
    """The scores a shot needs to suppress and to kill (None: it cannot)."""

    suppress: int | None
    kill: int | None


class ShootingDetails(TypedDict):
    """What a shot's answer says besides its result: the scores needed, the cell, the range, the notes; with
    more than one die, each die's result and the markers they leave; whether the suppression spreads to the
    company."""

    thresholds: Thresholds
    auto_suppress: bool
    cell: CellShown
    max_range_cm: float | None
    notes: list[str]
    results: NotRequired[list[str]]
    suppression_markers: NotRequired[int]
    spreads_to_company: NotRequired[bool]


class AlsoResult(TypedDict):
    """Another stand the shot attacks, on its own die: its result, each modifier named, its own odds."""

    name: str
    unit_id: int | None
    die: int
    outcome: str
    total: int | None
    modifiers: list[ModifierDict]
    thresholds: Thresholds
    probabilities_exact: dict[str, str]
    spreads_to_company: NotRequired[bool]


@dataclass
class Situation:
    """Everything about a shot except the die: the cell, the modifiers, or why it cannot be made."""

    suppress: int | None = None
    kill: int | None = None
    auto_suppress: bool = False
    blocked: Outcome | None = None
    modifiers: list[Modifier] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cell: CellShown = field(default_factory=CellShown)
    max_range_cm: float | None = None


def firing_rows(ctx: Context) -> dict[str, T.FiringRow]:
    """The period's firing table rows under the readings in force (early fills gaps from the main text)."""
    p = ctx.period or "late"
    rows = dict(T.FIRING_ROWS[p])
    if p == "mid" and ctx.value(E.MID_FIRING_TABLE) == "late":
        rows["gas"] = T.FIRING_ROWS["late"]["gas"]
        rows["flamethrower"] = T.FIRING_ROWS["late"]["flamethrower"]
    if p == "early" and ctx.value(E.EARLY_FIRERS_NOT_ON_PLAYSHEET):
        for row_id in ("super-heavy", "flamethrower"):
            main = T.FIRING_ROWS["main"][row_id]
            rows[row_id] = T.FiringRow(row_id, main.label, {c: main.cells[c] for c in T.COLUMNS[:4]})
    return rows


def row_erratum(row_id: str, ctx: Context) -> str | None:
    """The erratum whose reading decides a row of the period's firing table, if one does."""
    p = ctx.period or "late"
    if row_id not in T.FIRING_ROWS[p]:
        return E.EARLY_FIRERS_NOT_ON_PLAYSHEET
    if p == "mid" and row_id in ("gas", "flamethrower"):
        return E.MID_FIRING_TABLE
    return None


def row_source(row_id: str, ctx: Context) -> str:
    erratum = row_erratum(row_id, ctx)
    return (
        ctx.citation(erratum)
        if erratum
        else cite(T.FIRING_SECTIONS[ctx.period or "late"], ctx.period or "late")
    )


def available_firers(ctx: Context, target: str) -> list[str]:
    rows = firing_rows(ctx)
    out: list[str] = []
    for f in T.FIRERS:
        if ctx.period == "early" and (f in T.TANK_FIRERS or f == "blockhouse"):
            continue
        if target == "troops" and T.FIRER_SPECS[f].row not in rows:
            continue
        out.append(f)
    return out


def max_range(req: ShootingRequest, ctx: Context) -> tuple[float | None, str]:
    spec = T.FIRER_SPECS[req.firer]
    if req.firer == "blockhouse":
        return float(ctx.value(BLOCKHOUSE_RANGE)), ctx.citation(BLOCKHOUSE_RANGE)
    if req.special_rule == "long-range-marksmanship":
        return 60.0, cite("TABLES OF ORGANISATION, BRITISH AND EMPIRE DIVISION 1914-15, Special Rules")
    if req.firer in T.ARTILLERY_FIRERS and req.indirect:
        return None, ""
    if req.target == "armour" and req.cover == "cover" and req.firer in T.INFANTRY_FIRERS:
        return float(T.INFANTRY_VS_ARMOUR_IN_COVER_CM), T.SRC_ARMOUR
    return spec.max_range_cm, spec.range_source


def _threshold(value: T.Printed | str | None) -> int | None:
    return value if isinstance(value, int) else None


def sheltered(req: ShootingRequest, s: Situation) -> None:
    """ "German troops may shelter in deep dugouts, safe from everything except Super Heavy artillery which
    requires a 6 for a kill": the firing table's cell and modifiers give way to that."""
    s.cell = {
        "row": s.cell.get("row"),
        "column": "Deep shelter",
        "suppress": None,
        "kill": SHELTER_SUPER_HEAVY_KILL,
    }
    s.sources.append(SRC_DEEP_SHELTERS)
    s.modifiers, s.auto_suppress, s.suppress = [], False, None
    if req.firer == SUPER_HEAVY:
        s.kill = SHELTER_SUPER_HEAVY_KILL
        s.notes.append(
            "Troops in deep shelters: super heavy artillery kills them on a 6, nothing else happens."
        )
    else:
        s.kill = None
        s.blocked = s.blocked or "not-possible"
        s.notes.append("Troops in deep shelters are safe from everything except super heavy artillery.")


@FlandersFields.resolver
class Shooting(Resolver[ShootingRequest]):
    id = RESOLVER
    summary = "Shooting: suppress or kill by the period's firing table (or the armour table)"
    Request = ShootingRequest
    examples = (
        {"period": "early", "firer": "mg", "cover": "soft", "range_cm": 8, "dice": [3]},
        {"period": "late", "firer": "infantry", "cover": "hard", "range_cm": 4, "dice": [6]},
        {
            "period": "mid",
            "firer": "super-heavy-artillery",
            "cover": "open",
            "range_cm": 150,
            "indirect": True,
        },
        {
            "period": "late",
            "firer": "field-gun",
            "target": "armour",
            "cover": "open",
            "range_cm": 60,
            "dice": [5],
        },
        {"period": "early", "firer": "infantry", "range_cm": 55, "special_rule": "long-range-marksmanship"},
    )

    def dice(self, req: ShootingRequest, ctx: Context) -> tuple[int, ...]:
        first = (6, 6) if req.firer == "lmg-unit" or req.special_rule == "mad-minute" else (6,)
        return first + (6,) * len(req.also)

    def check(self, req: ShootingRequest, ctx: Context) -> None:
        p = ctx.period
        if p == "early" and (req.firer in T.TANK_FIRERS or req.firer == "blockhouse"):
            raise RulesError("firer", f"no {req.firer} before mid 1915", available_firers(ctx, req.target))
        if req.target == "armour" and p == "early":
            raise RulesError("target", "there are no tanks before mid 1915", ["troops"])
        if req.target == "troops" and T.FIRER_SPECS[req.firer].row not in firing_rows(ctx):
            raise RulesError(
                "firer", f"the {p} firing table has no row for {req.firer}", available_firers(ctx, "troops")
            )
        if req.target == "armour":
            if req.cover not in T.ARMOUR_COVERS:
                raise RulesError(
                    "cover", "against armour the columns are In Open and In Cover", T.ARMOUR_COVERS
                )
            if req.target_is_command:
                raise RulesError("target_is_command", "a tank is not a command stand", [False])
        else:
            columns = T.COLUMNS[:4] if p == "early" else T.COLUMNS
            if req.cover not in columns:
                raise RulesError("cover", f"the {p} firing table has no {req.cover!r} column", columns)
            if req.anti_tank_rifle:
                raise RulesError("anti_tank_rifle", "anti-tank rifles count only against armour", [False])
        if req.target_in_deep_shelter and req.target == "armour":
            raise RulesError("target_in_deep_shelter", "only troops shelter in deep dugouts", [False])
        if req.anti_tank_rifle and req.firer != "infantry":
            raise RulesError("anti_tank_rifle", "only infantry carry anti-tank rifles", [False])
        if req.indirect and req.firer not in INDIRECT_FIRERS:
            raise RulesError("indirect", f"{req.firer} fires only directly", [False])
        if req.partial_template and req.firer not in PARTIAL_FIRERS:
            raise RulesError("partial_template", f"{req.firer} has no area template", [False])
        if req.partial_template and req.firer == "mg" and not req.indirect:
            raise RulesError(
                "partial_template", "only indirect machine gun fire has an area template", [False]
            )
        if req.moved_and_fired and req.firer not in T.TANK_FIRERS:
            raise RulesError("moved_and_fired", "only tanks may move and fire in one action", [False])
        if req.beaten_zone_index and req.firer not in T.MG_FIRERS:
            raise RulesError(
                "beaten_zone_index", "only machine guns and block houses have a beaten zone", [0]
            )
        if req.barrage_uphill and not req.through_barrage:
            raise RulesError(
                "barrage_uphill", "uphill applies only when shooting into or through a barrage", [False]
            )
        rule = accept_special_rule(req.special_rule, p, RESOLVER)
        if rule is not None and req.firer != "infantry":
            raise refuse(rule, "infantry companies only", rules_for(RESOLVER, p))
        if req.also:
            self.check_also(req, ctx)

    def check_also(self, req: ShootingRequest, ctx: Context) -> None:
        """Other stands are attacked by an artillery or mortar area, or in a direct-fire MG's beaten zone."""
        beaten = req.firer in T.MG_FIRERS and not req.indirect
        if not beaten and req.firer not in AREA_FIRERS:
            raise RulesError("also", f"{req.firer} attacks one stand: no area and no beaten zone", [])
        if beaten and len(req.also) > T.BEATEN_ZONE_TARGETS:
            raise RulesError("also", f"up to {T.BEATEN_ZONE_TARGETS} targets in the beaten zone", [])
        for i, a in enumerate(req.also):
            if beaten and (a.beaten_zone_index != i + 1 or a.partial_template):
                raise RulesError(f"also.{i}.beaten_zone_index", "the beaten zone's targets in order", [i + 1])
            if not beaten and a.beaten_zone_index:
                raise RulesError(f"also.{i}.beaten_zone_index", "only an MG has a beaten zone", [0])
            try:
                self.check(one_target(req, a), ctx)
            except RulesError as e:
                raise RulesError(f"also.{i}.{e.field}", e.reason, e.allowed, e.source, e.why) from None

    def situation(self, req: ShootingRequest, ctx: Context) -> Situation:
        s = Situation()
        p = ctx.period or "late"
        spec = T.FIRER_SPECS[req.firer]
        if spec.note:
            s.notes.append(spec.note + ".")
        # The cell.
        if req.target == "armour":
            row = T.ARMOUR_ROWS[spec.armour_row]
            if req.firer in T.FIELD_ARTILLERY and req.indirect:
                row = T.ARMOUR_ROWS["field-artillery-indirect"]
            armour_cell = row.open if req.cover == "open" else row.cover
            s.cell = {
                "row": row.label,
                "column": "In Open" if req.cover == "open" else "In Cover",
                **armour_cell.as_dict(),
            }
            s.sources.append(T.SRC_ARMOUR)
            s.suppress = armour_cell.suppress
            if isinstance(armour_cell.kill, int):
                s.kill = armour_cell.kill
            elif armour_cell.kill_with_at_rifle is not None and req.anti_tank_rifle:
                s.kill = armour_cell.kill_with_at_rifle
            elif armour_cell.kill == "Assault Only":
                s.notes.append("Kill by assault only (or with an anti-tank rifle).")
            else:
                s.notes.append("Kill not possible.")
        else:
            row_f = firing_rows(ctx)[spec.row]
            cell = row_f.cells[req.cover]
            s.cell = {"row": row_f.label, "column": T.COLUMN_LABELS[req.cover], **cell.as_dict()}
            s.sources.append(row_source(spec.row, ctx))
            direct_ok = req.direct_line_of_sight and not req.indirect
            if cell.direct and not direct_ok:
                s.blocked = "not-possible"
                s.notes.append("Direct: the shooting unit must have a direct line of sight to the target.")
            s.auto_suppress = cell.suppress == "Auto"
            s.suppress = _threshold(cell.suppress)
            s.kill = _threshold(cell.kill)
            if cell.kill == "Ass":
                s.notes.append(
                    "Kill by assault only: the target can only be destroyed by a successful infantry assault."
                )
            if cell.suppress == "No" and cell.kill == "No":
                s.blocked = "not-possible"
                s.notes.append("No: not possible.")
            if s.auto_suppress:
                s.notes.append("Auto: troops in the open are suppressed automatically, even on a natural 1.")
            if req.cover == "open":
                s.notes.append("Experienced and veteran troops in open ground count as in soft cover.")
                s.sources.append(SRC_COVER)
        # Line of sight for direct-fire weapons.
        needs_sight = req.firer not in T.MORTAR_FIRERS and req.firer != "gas" and not req.indirect
        if needs_sight and not req.direct_line_of_sight:
            s.blocked = "not-possible"
            s.notes.append("Direct fire needs a line of sight to the target.")
        if req.firer == "heavy-tank" and req.moved_and_fired:
            s.blocked = "not-possible"
            s.notes.append(
                "Heavy (male) tanks may NOT move and fire; British 'female' tanks fire as light tanks."
            )
            s.sources.append(T.SRC_TANKS)
        # Range.
        limit, limit_src = max_range(req, ctx)
        s.max_range_cm = limit
        if limit is not None and req.range_cm > limit:
            s.blocked = s.blocked or "out-of-range"
            s.notes.append(f"Out of range: maximum {limit:g} cm.")
            s.sources.append(limit_src)
        if req.range_cm < spec.min_range_cm:
            s.blocked = s.blocked or "out-of-range"
            s.notes.append(f"Too close: mortars have a minimum range of {spec.min_range_cm:g} cm.")
            s.sources.append(spec.range_source)
        s.modifiers = self.modifiers(req, ctx, p, s.notes)
        if req.target_in_deep_shelter:
            sheltered(req, s)
        if (req.firer, req.special_rule) == ("infantry", "mad-minute") or req.firer == "lmg-unit":
            s.notes.append(
                "Two dice at the same target: the better result counts; two suppressions are two markers."
            )
        return s

    def modifiers(self, req: ShootingRequest, ctx: Context, p: str, notes: list[str]) -> list[Modifier]:
        sheet = cite(E.DIRECT_FIRE_FACTORS, p)
        mods: list[Modifier] = []
        if (
            req.firer in T.MG_FIRERS
            and req.range_cm < T.SHORT_RANGE_MG_CM
            and req.beaten_zone_index == 0
            and not req.indirect
        ):
            mods.append(Modifier("Short range MG (under 10cm, first target only)", T.SHORT_RANGE_MG, sheet))
        if req.firer in T.INFANTRY_FIRERS and req.range_cm < T.SHORT_RANGE_INFANTRY_CM:
            mods.append(Modifier("Short range infantry (under 5cm)", T.SHORT_RANGE_INFANTRY[p], sheet))
        if req.firer in T.TANK_FIRERS and req.range_cm < T.SHORT_RANGE_INFANTRY_CM:
            mods.append(Modifier("Short range tank (under 5cm)", T.SHORT_RANGE_TANK[p], sheet))
        if req.beaten_zone_index:
            flat = ctx.value(E.BEATEN_ZONE_PENALTY) == "flat"
            value = -1 if flat else -req.beaten_zone_index
            mods.append(
                Modifier(
                    f"Beaten zone target {req.beaten_zone_index}", value, ctx.citation(E.BEATEN_ZONE_PENALTY)
                )
            )
        if req.through_barrage:
            if req.firer == "mg" and req.indirect:
                notes.append("The barrage modifier does not include indirect fire MGs.")
            elif req.barrage_uphill:
                mods.append(
                    Modifier(
                        "Shooting into or through a barrage, uphill",
                        ctx.value(E.BARRAGE_UPHILL),
                        ctx.citation(E.BARRAGE_UPHILL),
                    )
                )
            else:
                mods.append(
                    Modifier(
                        "Shooting into or through a barrage", T.BARRAGE, SRC_DIRECT if p == "early" else sheet
                    )
                )
        if req.firer in T.FIELD_ARTILLERY and not req.indirect:
            for over, value in T.FIELD_ARTILLERY_RANGE_PENALTIES:
                if req.range_cm > over:
                    label = "Field Artillery over open sights " + (
                        "150-200cm" if over == 150 else "100-150cm"
                    )
                    mods.append(Modifier(label, value, sheet))
                    break
        if req.firer_in_gas:
            mods.append(Modifier("Firers in GAS cloud", T.FIRER_IN_GAS, sheet))
        if req.target_is_command:
            mods.append(Modifier("Firing at Command Stands", T.COMMAND_TARGET, sheet))
        if req.firer_raw:
            value = ctx.value(E.RAW_FIRER_PENALTY)
            if value:
                mods.append(Modifier("Raw Troops", value, ctx.citation(E.RAW_FIRER_PENALTY)))
        if req.firer == "cavalry":
            mods.append(
                Modifier("Cavalry dismounted to fire (horse holders)", T.CAVALRY_DISMOUNTED, T.SRC_CAVALRY)
            )
        if req.moved_and_fired and req.firer == "light-tank":
            mods.append(
                Modifier(
                    "Light tank moved and fired",
                    T.MOVED_AND_FIRED,
                    cite("Firing table notes (Light Tanks)", p),
                )
            )
        if req.partial_template:
            if req.firer == "light-mortar":
                value = ctx.value(LIGHT_MORTAR_PARTIAL)
                if value:
                    mods.append(
                        Modifier("Only partly under the template", value, ctx.citation(LIGHT_MORTAR_PARTIAL))
                    )
                else:
                    notes.append("Light mortars: no penalty for bases partly under the 3cm square.")
            else:
                src = SRC_MORTAR_AREA if req.firer in T.MORTAR_FIRERS else SRC_AREA
                mods.append(Modifier("Only partly under the template", T.PARTIAL_TEMPLATE, src))
        if req.target == "armour":
            if req.anti_tank_rifle:
                mods.append(
                    Modifier("Infantry Antitank Rifle", T.ARMOUR_MODIFIERS["anti_tank_rifle"], T.SRC_ARMOUR)
                )
            over = ctx.value(E.ARMOUR_FIELD_ARTILLERY_OVER_75)
            if req.firer in T.FIELD_ARTILLERY and over is not None and req.range_cm > over:
                mods.append(
                    Modifier(
                        "Field artillery firing over 75",
                        T.ARMOUR_MODIFIERS["field_artillery_over_75"],
                        ctx.citation(E.ARMOUR_FIELD_ARTILLERY_OVER_75),
                    )
                )
            if req.firer == "field-howitzer":
                mods.append(
                    Modifier(
                        "Field Howitzers shooting at tanks",
                        T.ARMOUR_MODIFIERS["field_howitzer"],
                        T.SRC_ARMOUR,
                    )
                )
        return mods

    def result(self, s: Situation, die: int) -> tuple[Outcome, int]:
        total = die + sum(m.value for m in s.modifiers)
        if s.blocked:
            return s.blocked, total
        if s.auto_suppress:
            return ("killed" if die != 1 and s.kill is not None and total >= s.kill else "suppressed"), total
        if die == 1:
            return "no-effect", total
        if s.kill is not None and total >= s.kill:
            return "killed", total
        if s.suppress is not None and total >= s.suppress:
            return "suppressed", total
        return "no-effect", total

    def evaluate(self, req: ShootingRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        """The first target on its dice, then each other stand the shot attacks on its own die."""
        n = len(dice) - len(req.also)
        ev = self.evaluate_one(req, ctx, dice[:n])
        if not req.also:
            return ev
        also = [self.also_attacked(req, ctx, a, d) for a, d in zip(req.also, dice[n:], strict=True)]
        sources = (*ev.sources, *(m["source"] for a in also for m in a["modifiers"]))
        return replace(ev, sources=tuple(dict.fromkeys(sources)), details={**ev.details, "also": also})

    def also_attacked(self, req: ShootingRequest, ctx: Context, a: AlsoAttacked, die: int) -> AlsoResult:
        """One other stand's roll: its result, each modifier named, and its own odds."""
        one = one_target(req, a)
        ev = self.evaluate_one(one, ctx, (die,))
        odds = exact_distribution((6,), lambda d: self.evaluate_one(one, ctx, d).key)
        out: AlsoResult = {
            "name": a.name,
            "unit_id": a.unit_id,
            "die": die,
            "outcome": ev.key,
            "total": ev.total,
            "modifiers": [m.as_dict() for m in ev.modifiers],
            "thresholds": ev.details["thresholds"],
            "probabilities_exact": {k: f"{v.numerator}/{v.denominator}" for k, v in sorted(odds.items())},
        }
        if "spreads_to_company" in ev.details:
            out["spreads_to_company"] = ev.details["spreads_to_company"]
        return out

    def probabilities(self, req: ShootingRequest, ctx: Context) -> dict[str, Fraction]:
        # The odds are the first target's; each other stand's are on its own line (`also`).
        return super().probabilities(req.model_copy(update={"also": []}), ctx)

    def evaluate_one(self, req: ShootingRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        s = self.situation(req, ctx)
        results = [self.result(s, d) for d in dice]
        rank = ("out-of-range", "not-possible", "no-effect", "suppressed", "killed")
        best = max(range(len(dice)), key=lambda i: (rank.index(results[i][0]), dice[i]))
        outcome, total = results[best]
        notes = list(s.notes)
        sources = list(s.sources)
        if 1 in dice and not s.blocked and not s.auto_suppress:
            notes.append("A roll of 1 is always a failure.")
            sources.append(SRC_NATURAL_ONE)
        details: ShootingDetails = {
            "thresholds": {"suppress": s.suppress, "kill": s.kill},
            "auto_suppress": s.auto_suppress,
            "cell": s.cell,
            "max_range_cm": s.max_range_cm,
            "notes": notes,
        }
        if len(dice) > 1:
            details["results"] = [r for r, _ in results]
            details["suppression_markers"] = (
                0 if outcome == "killed" else sum(r == "suppressed" for r, _ in results)
            )
        if outcome == "suppressed" and req.target == "troops":
            details["spreads_to_company"] = spreads_to_company(FIRE_TYPE[req.firer])
        return Evaluation(outcome, outcome, tuple(s.modifiers), total, tuple(dict.fromkeys(sources)), details)


class Column(TypedDict):
    id: str
    label: str


class FiringTableRow(TypedDict):
    id: str
    label: str
    cells: dict[str, T.CellDict]
    source: str
    erratum: NotRequired[str]  # whose reading decides the row (the playsheet marks it where a game's varies)


class FirerRanges(TypedDict):
    """A firer's row of the table and its ranges."""

    row: str
    max_range_cm: float | None
    min_range_cm: float
    note: str
    erratum: NotRequired[str]  # whose reading decides its range


class FiringTable(TypedDict):
    """A period's firing table: its columns, rows, firers, beaten zones, legend, modifiers and two rules."""

    period: str
    source: str
    target: str
    columns: list[Column]
    rows: list[FiringTableRow]
    firers: dict[str, FirerRanges]
    beaten_zone_cm: dict[str, int]
    legend: dict[str, str]
    modifiers: list[PrintedModifier]
    natural_one: str
    three_suppressions: str


class ArmourTableRow(TypedDict):
    id: str
    label: str
    cells: dict[str, T.ArmourCellDict]


class ArmourTable(TypedDict):
    source: str
    columns: list[Column]
    rows: list[ArmourTableRow]
    modifiers: list[PrintedModifier]
    notes: list[str]


def _firing_row(r: T.FiringRow, ctx: Context) -> FiringTableRow:
    row: FiringTableRow = {
        "id": r.id,
        "label": r.label,
        "cells": {c: cell.as_dict() for c, cell in r.cells.items()},
        "source": row_source(r.id, ctx),
    }
    if erratum := row_erratum(r.id, ctx):
        row["erratum"] = erratum
    return row


def _firer_ranges(f: str, ctx: Context) -> FirerRanges:
    spec = T.FIRER_SPECS[f]
    ranges: FirerRanges = {
        "row": spec.row,
        "max_range_cm": spec.max_range_cm,
        "min_range_cm": spec.min_range_cm,
        "note": spec.note,
    }
    if f == "blockhouse":
        ranges["max_range_cm"], ranges["erratum"] = ctx.value(BLOCKHOUSE_RANGE), BLOCKHOUSE_RANGE
    return ranges


def firing_table_dataset(period: str | None) -> FiringTable:
    ctx = FlandersFields().context(period)
    p = period or "late"
    rows = firing_rows(ctx)
    columns = list(T.COLUMNS[:4] if p == "early" else T.COLUMNS)
    sheet = cite(E.DIRECT_FIRE_FACTORS, p)
    return {
        "period": p,
        "source": cite(T.FIRING_SECTIONS[p], p),
        "target": "infantry, machine guns, mortars or artillery (for armour see armour-table)",
        "columns": [{"id": c, "label": T.COLUMN_LABELS[c]} for c in columns],
        "rows": [_firing_row(r, ctx) for r in rows.values()],
        "firers": {f: _firer_ranges(f, ctx) for f in available_firers(ctx, "troops")},
        "beaten_zone_cm": {k: v for k, v in T.BEATEN_ZONE_CM.items() if p != "early" or k == "mg"},
        "legend": {
            "Ass": "Assault only – the target can only be destroyed by a successful infantry assault.",
            "Auto": "Automatic Suppression",
            "No": "Not Possible",
            "direct": "Shooting unit must have a direct line of sight to the target.",
        },
        "modifiers": [
            {
                "label": "Short Range MGs – Under 10cm and first target only",
                "value": T.SHORT_RANGE_MG,
                "source": sheet,
            },
            {
                "label": "Short Range Infantry" + (" and LMGs" if p == "late" else "") + " – Under 5cm",
                "value": T.SHORT_RANGE_INFANTRY[p],
                "source": sheet,
            },
            *(
                [
                    PrintedModifier(
                        label="Short Range Tanks – Under 5cm", value=T.SHORT_RANGE_TANK[p], source=sheet
                    )
                ]
                if p in T.SHORT_RANGE_TANK
                else []
            ),
            {
                "label": "Shooting into or through a barrage (not indirect fire MGs)",
                "value": T.BARRAGE,
                "source": SRC_DIRECT if p == "early" else sheet,
            },
            {
                "label": "... if uphill",
                "value": ctx.value(E.BARRAGE_UPHILL),
                "source": ctx.citation(E.BARRAGE_UPHILL),
                "erratum": E.BARRAGE_UPHILL,
            },
            {"label": "Field Artillery over open sights 150-200cm", "value": -2, "source": sheet},
            {"label": "Field Artillery over open sights 100-150cm", "value": -1, "source": sheet},
            {"label": "Firing at Command Stands", "value": T.COMMAND_TARGET, "source": sheet},
            {
                "label": "Raw Troops",
                "value": ctx.value(E.RAW_FIRER_PENALTY),
                "source": ctx.citation(E.RAW_FIRER_PENALTY),
                "erratum": E.RAW_FIRER_PENALTY,
            },
            {"label": "Firers in GAS cloud", "value": T.FIRER_IN_GAS, "source": sheet},
            {
                "label": "Machine gun beaten zone, target n beyond the first",
                "value": "-1" if ctx.value(E.BEATEN_ZONE_PENALTY) == "flat" else "-n",
                "source": ctx.citation(E.BEATEN_ZONE_PENALTY),
                "erratum": E.BEATEN_ZONE_PENALTY,
            },
            {
                "label": "Cavalry shooting (dismounted)",
                "value": T.CAVALRY_DISMOUNTED,
                "source": T.SRC_CAVALRY,
            },
            {"label": "Only partly under an area template", "value": T.PARTIAL_TEMPLATE, "source": SRC_AREA},
        ],
        "natural_one": "A roll of 1 is always a failure, except troops in the open caught by Super Heavy Artillery.",
        "three_suppressions": "THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL",
    }


def armour_table_dataset(_period: str | None) -> ArmourTable:
    # One table for every period, as its erratum is: any period's context reads the reading in force.
    over_75 = FlandersFields().context(PERIODS[-1]).value(E.ARMOUR_FIELD_ARTILLERY_OVER_75)
    return {
        "source": T.SRC_ARMOUR,
        "columns": [{"id": "open", "label": "In Open"}, {"id": "cover", "label": "In Cover (Buildings Etc)"}],
        "rows": [
            {"id": r.id, "label": r.label, "cells": {"open": r.open.as_dict(), "cover": r.cover.as_dict()}}
            for r in T.ARMOUR_ROWS.values()
        ],
        "modifiers": [
            {"label": "Infantry Antitank Rifle", "value": 1, "source": T.SRC_ARMOUR},
            {
                "label": "Field artillery firing over 75",
                "value": -1 if over_75 is not None else "not applied",
                "source": T.SRC_ARMOUR,
                "erratum": E.ARMOUR_FIELD_ARTILLERY_OVER_75,
            },
            {"label": "Field Howitzers shooting at tanks", "value": -1, "source": T.SRC_ARMOUR},
        ],
        "notes": [
            "For Infantry to engage armour when it is in cover the infantry must be within short Range (5cm).",
            "Not used before mid 1915: there are no tanks on the 1914 to mid 1915 playsheet.",
        ],
    }


FlandersFields.dataset(
    "firing-table", "Firing table (target troops) and direct fire factors", per_period=True
)(firing_table_dataset)
FlandersFields.dataset("armour-table", "Shooting when the target is armour")(armour_table_dataset)
