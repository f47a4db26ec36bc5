"""The classes of unit the rules know a game's units by: which organisation kinds are rifle platoons, crewed
weapons, which order-roll unit and which shooting firer each is, its quality, its commanding stand and the
level the suppression rules know it by. They read any force tree (the game's rows or a snapshot)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from rules.core.game import Member, Node, ancestor_at, ancestors, leaves_under
from rules.flanders_fields.resolvers.suppression import UNIT_LEVELS
from rules.flanders_fields.ruleset import cite

M = TypeVar("M", bound=Member)


# -- rifle platoons: what a battalion's morale counts ---------------------------------------------------------
# "If a battalion's RIFLE PLATOONS are reduced to 50% it must roll morale"; the organisation tables name rifle
# platoons rifle-platoon (scenarios: infantry).
RIFLE_KINDS = ("rifle-platoon", "infantry")


def is_rifle_platoon(u: Member) -> bool:
    return u.level == "platoon" and u.kind in RIFLE_KINDS


def rifle_losses(bn: Member, units: Sequence[Member]) -> tuple[int, int]:
    """A battalion's rifle platoons: (at the start, destroyed)."""
    rifles = [u for u in leaves_under(bn, units) if is_rifle_platoon(u)]
    return len(rifles), sum(1 for u in rifles if u.killed)


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
# Organisation kinds -> the order-roll resolver's unit ids; MGs and mortars by what they belong to.
ORDER_UNIT = {
    "rifle-company": "rifle-company",
    "field-battery": "regimental-artillery",
    "howitzer-battery": "regimental-artillery",
    "heavy-battery": "regimental-artillery",
    "tank": "tank",
    "tank-company": "tank",
}
MG_KINDS = ("mmg", "mmg-company", "mmg-section")
MORTAR_KINDS = ("light-mortar", "medium-mortar", "heavy-mortar", "light-mortar-battery")
SRC_ORDERED_UNITS = cite("ORDERS AND ACTIONS")


def order_unit(unit: Member, by_id: Mapping[int | None, Member]) -> str | None:
    """The order-roll unit a unit is ordered as: by its own kind, else (a formation the tables do not order
    as a whole, such as an artillery group of batteries) as every unit under it is ordered ("Individual
    Regimental/Brigade Artillery; D6 determines number of "Actions" each may make"). None: it is ordered
    with the unit above it (a platoon), or the units under it are ordered differently (a battalion's
    companies and MGs), so the player says which."""
    own = _own_order_unit(unit, by_id)
    if own is not None:
        return own
    children: dict[int | None, list[Member]] = {}
    for u in by_id.values():
        children.setdefault(u.parent_id, []).append(u)
    found: set[str] = set()
    stack = list(children.get(unit.id, []))
    while stack:
        u = stack.pop()
        ordered = _own_order_unit(u, by_id)
        if ordered is None:
            stack.extend(children.get(u.id, []))
        else:
            found.add(ordered)
    return found.pop() if len(found) == 1 else None


def _own_order_unit(unit: Member, by_id: Mapping[int | None, Member]) -> str | None:
    if unit.kind in ORDER_UNIT:
        return ORDER_UNIT[unit.kind]
    in_battalion = ancestor_at(unit, "battalion", by_id) is not None
    if unit.kind in MG_KINDS:
        return "battalion-mg" if in_battalion else "regimental-mg"
    if unit.kind in MORTAR_KINDS:
        return "battalion-mortar" if in_battalion else "regimental-mortar"
    return None


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
    for a in [unit, *ancestors(unit, by_id)]:
        if a.level in COMMAND_LEVELS:
            stands = [u for u in units if u.parent_id == a.id and u.is_command]
            if artillery and not stands:
                continue
            return next((u for u in stands if not u.killed), None)
    return None


def suppression_level(u: Member) -> str:
    """The unit level the suppression rules know a stand by (command stands by their kind)."""
    return u.kind if u.kind in UNIT_LEVELS else "company" if u.level == "company" else "platoon"


def carries_aiming_point(unit: Node) -> bool:
    """Batteries and mortars: the units that carry an aiming point."""
    words = f"{unit.level} {getattr(unit, 'kind', '')}".lower()
    return "battery" in words or "artillery" in words or "mortar" in words
