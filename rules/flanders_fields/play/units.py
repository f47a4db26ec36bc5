"""The classes of unit the rules know a game's units by: which organisation kinds are rifle platoons, crewed
weapons, which order-roll unit and which shooting firer each is, its quality, its commanding stand and the
level the suppression rules know it by. They read any force tree (the game's rows or a snapshot)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar, cast

from rules.core.game import GameRules, Member, Node, ancestor_at, ancestors
from rules.core.records import children_of
from rules.flanders_fields.book.organisation import LEVELS
from rules.flanders_fields.errata import ARTILLERY_ROLL_PER, UNNAMED_ORDER_UNITS
from rules.flanders_fields.resolvers.suppression import UNIT_LEVELS
from rules.flanders_fields.ruleset import FlandersFields, cite

M = TypeVar("M", bound=Member)


# -- rifle platoons: what a battalion's morale counts ---------------------------------------------------------
# "If a battalion's RIFLE PLATOONS are reduced to 50% it must roll morale"; the organisation tables name rifle
# platoons rifle-platoon (scenarios: infantry).
RIFLE_KINDS = ("rifle-platoon", "infantry")


def is_rifle_platoon(u: Member) -> bool:
    return u.level == "platoon" and u.kind in RIFLE_KINDS


# -- crewed weapons ------------------------------------------------------------------------------------------
# "Crewed Weapons such as artillery, machineguns and mortars" (TROOP QUALITY, EXPERIENCED, orders.SRC_CREWED):
# always experienced, and what a morale result of "abandon crewed weapons" abandons.
CREWED_KINDS = frozenset(
    {
        "mmg",
        "light-mortar",
        "medium-mortar",
        "heavy-mortar",
        "field-battery",
        "howitzer-battery",
        "heavy-battery",
    }
)


# -- the order-roll unit ---------------------------------------------------------------------------------------
# "A single D6 is rolled for a unit" (ISSUING ORDERS), each as the period's order sequence names it: "Battalion
# Rifle Companies" (a company rolls for its platoons), "Individual Battalion MGs", "Individual Battalion
# Mortars", "Tanks etc. attached to the battalions" (each tank), "Individual Regimental/Brigade MGs" and
# "Individual Regimental/Brigade Artillery and Mortars" (each battery). Formations above them are not ordered
# as a whole (an MMG company's guns, a tank company's tanks, a group's batteries are ordered each), nor are
# command stands: they give the orders and move in their own step ("MOVE COMMAND STANDS").
ORDER_UNIT = {
    "rifle-company": "rifle-company",
    "field-battery": "regimental-artillery",
    "howitzer-battery": "regimental-artillery",
    "heavy-battery": "regimental-artillery",
    "tank": "tank",
}
MG_KINDS = ("mmg",)
MORTAR_KINDS = ("light-mortar", "medium-mortar", "heavy-mortar")
SRC_ORDERED_UNITS = cite("ORDERS AND ACTIONS")
ARTILLERY = ORDER_UNIT["field-battery"]
# The errata's readings where the game has none. A reading changes who rolls, never the step the roll is made in
# (game_sequence: an artillery group rolling for its batteries is still ordered in the support orders).
_UNNAMED = FlandersFields().errata[UNNAMED_ORDER_UNITS]
_ROLL_PER = FlandersFields().errata[ARTILLERY_ROLL_PER]
NO_READINGS: Mapping[str, str] = {}


def unnamed_units(variants: Mapping[str, str]) -> Mapping[str, str]:
    """The units the order sequences do not name (cavalry squadrons, LMG and flamethrower platoons) -> their
    order-roll unit, by the game's reading of the erratum."""
    return cast(
        Mapping[str, str], _UNNAMED.reading(variants.get(UNNAMED_ORDER_UNITS, _UNNAMED.default)).value
    )


# The levels a formation of batteries stands at (an artillery group is a battalion, a British one a brigade).
_GROUP_LEVELS = frozenset(LEVELS[: LEVELS.index("battalion") + 1])


def _artillery_group(unit: Member, by_id: Mapping[int | None, Member]) -> bool:
    """A formation of batteries (an artillery group or brigade): every unit under it a battery or its HQ. (Its
    level is asked first: a company, a platoon or a stand is never one, and the stands of a formation move
    need not each read the whole force.)"""
    if unit.level not in _GROUP_LEVELS:
        return False
    under = [u for u in by_id.values() if u is not None and u.parent_id == unit.id]
    batteries = [u for u in under if ORDER_UNIT.get(u.kind) == ARTILLERY]
    return bool(batteries) and all(u.is_command or u in batteries for u in under)


def order_unit(
    unit: Member, by_id: Mapping[int | None, Member], variants: Mapping[str, str] = NO_READINGS
) -> str | None:
    """The order-roll unit (the resolver's table) `unit` is ordered as by the game's readings (`variants`), or
    None: it is not ordered itself (a platoon takes its company's roll, a formation's units are ordered each, a
    command stand gives orders). Under the reading that one roll serves a brigade's artillery (erratum
    artillery-roll-per: brigade) an artillery group rolls for its batteries."""
    if unit.is_command:
        return None
    by_brigade = variants.get(ARTILLERY_ROLL_PER, _ROLL_PER.default) == "brigade"
    if unit.kind in ORDER_UNIT:
        parent = by_id.get(unit.parent_id)
        grouped = (
            ORDER_UNIT[unit.kind] == ARTILLERY and parent is not None and _artillery_group(parent, by_id)
        )
        return None if by_brigade and grouped else ORDER_UNIT[unit.kind]
    if by_brigade and _artillery_group(unit, by_id):
        return ARTILLERY
    unnamed = unnamed_units(variants)
    if unit.kind in unnamed:
        return unnamed[unit.kind]
    # Whose orders a machine gun or mortar takes, asked of those alone (it reads the whole force: issue 91,
    # a formation's move asked it of each of its 1,400 stands, twice).
    if unit.kind in MG_KINDS:
        return "battalion-mg" if _commanded_battalion(unit, by_id) else "regimental-mg"
    if unit.kind in MORTAR_KINDS:
        return "battalion-mortar" if _commanded_battalion(unit, by_id) else "regimental-mortar"
    return None


def _commanded_battalion(unit: Member, by_id: Mapping[int | None, Member]) -> bool:
    """Whether a battalion commander orders `unit` ("Battalion commanders may issue orders to their battalion
    assets"): its battalion has a command stand. A machine gun battalion without one is a divisional asset,
    devolved to the Regiment/Brigade commanders."""
    bn = ancestor_at(unit, "battalion", by_id)
    return bn is not None and any(u.parent_id == bn.id and u.is_command for u in by_id.values())


def ordered_unit(
    unit: M, by_id: Mapping[int | None, M], variants: Mapping[str, str] = NO_READINGS
) -> M | None:
    """The unit whose order roll `unit` acts on and whose actions it spends: itself or the nearest unit above
    it that is ordered (a platoon's company); None for a command stand or a stand no table orders."""
    if unit.is_command:
        return None
    return next((a for a in [unit, *ancestors(unit, by_id)] if order_unit(a, by_id, variants)), None)


# -- the shooting firer ----------------------------------------------------------------------------------------
# Organisation kinds -> the shooting resolver's firer ids.
FIRER = {
    "rifle-platoon": "infantry",
    "infantry": "infantry",
    "cavalry-troop": "cavalry",
    "mmg": "mg",
    "lmg": "lmg-unit",
    "field-battery": "field-gun",
    "howitzer-battery": "field-howitzer",
    "heavy-battery": "heavy-artillery",
    "light-mortar": "light-mortar",
    "medium-mortar": "medium-mortar",
    "heavy-mortar": "heavy-mortar",
    "flamethrower": "flamethrower",
}


# -- the assault combatant ------------------------------------------------------------------------------------
# Organisation kinds -> the assault resolver's kinds ("Infantry & Cavalry Vs Infantry, Cavalry, Artillery and
# Support Units"); command stands fight as "command" whatever their kind. Tanks are left to the player: the
# tables do not say whether a "tank" is heavy or light.
ASSAULT_KIND = {
    "rifle-platoon": "infantry",
    "infantry": "infantry",
    "cavalry-troop": "cavalry",
    "flamethrower": "flamethrower",
    "flamethrower-platoon": "flamethrower",
    "mmg": "support-weapon",
    "mmg-section": "support-weapon",
    "lmg": "support-weapon",
    "light-mortar": "support-weapon",
    "medium-mortar": "support-weapon",
    "heavy-mortar": "support-weapon",
    "field-battery": "artillery",
    "howitzer-battery": "artillery",
    "heavy-battery": "artillery",
}


def assault_kind(unit: Member) -> str | None:
    return "command" if unit.is_command else ASSAULT_KIND.get(unit.kind)


# -- quality, command, suppression level ---------------------------------------------------------------------
SRC_QUALITY = cite("TROOP QUALITY")


def quality_of(unit: Member, by_id: Mapping[int | None, Member]) -> str | None:
    """A unit's quality: its own, else that of the nearest unit above it (a battalion's)."""
    for a in [unit, *ancestors(unit, by_id)]:
        if a.quality:
            return a.quality
    return None


COMMAND_LEVELS = ("battalion", "regiment", "brigade", "division")
SRC_COMMAND_STAND = cite("TROOP QUALITY, COMMAND STANDS")
# The artillery's commander is the one the book names, above its own group or brigade (which has no command
# stand): "The artillery is attached at Regimental level and may only be commanded by the Regimental
# commander"; "Only the Brigade commander may issue orders to the artillery batteries".
ARTILLERY_KINDS = frozenset(
    {
        "field-battery",
        "howitzer-battery",
        "heavy-battery",
        "field-artillery-group",
        "field-artillery-brigade",
        "field-artillery-regiment",
        "howitzer-brigade",
    }
)
SRC_ARTILLERY_COMMANDER = cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS")


def command_stand(unit: M, units: Sequence[M], by_id: Mapping[int | None, M]) -> M | None:
    """The stand commanding a unit: the living command stand of its battalion (or of its own formation); for
    artillery, of the nearest formation above it that has a command stand (its regiment's or brigade's)."""
    artillery = unit.kind in ARTILLERY_KINDS
    children = children_of(units)  # once, not per formation looked at: a plain sequence's is worked out
    for a in [unit, *ancestors(unit, by_id)]:
        if a.level in COMMAND_LEVELS:
            stands = [u for u in children.get(a.id, ()) if u.is_command]
            if artillery and not stands:
                continue
            return next((u for u in stands if not u.killed), None)
    return None


def suppression_level(u: Member) -> str:
    """The unit level the suppression rules know a stand by (command stands by their kind)."""
    return u.kind if u.kind in UNIT_LEVELS else "company" if u.level == "company" else "platoon"


class AimingPointFirers(GameRules):
    """The units that fire a Flanders Fields fire plan (the game's fire plan, `FlandersFieldsFirePlan`, is made
    of it)."""

    @staticmethod
    def fires_plan(unit: Node) -> bool:
        """Batteries and mortars: the units that carry an aiming point."""
        words = f"{unit.level} {getattr(unit, 'kind', '')}".lower()
        return "battery" in words or "artillery" in words or "mortar" in words
