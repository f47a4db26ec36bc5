"""Errata of close combat: support from the rear, cavalry against foot troops, and what an assault spends of
its unit's order."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

DEFENDER_REAR_SUPPORT = "defender-rear-support"
CAVALRY_VS_OTHER_FOOT = "cavalry-vs-other-foot"
ASSAULT_ACTION = "assault-action"

SRC_CLOSE_COMBAT = cite(
    "CLOSE COMBAT (ASSAULTING), Infantry & Cavalry Vs Infantry, Cavalry, Artillery and Support Units"
)
# "Troops require an order to move into contact with an enemy, movement is carried out platoon by platoon"
# (CLOSE COMBAT (ASSAULTING)); an order's actions "are; REMOVE A SUPPRESSION LEVEL, FIRE or MOVE" (the
# playsheets' BATTALION ORDERS): the move into contact is a MOVE action of the unit ordered.
MOVE_INTO_CONTACT = "Troops require an order to move into contact with an enemy"

FlandersFields.add_errata(
    Erratum(
        DEFENDER_REAR_SUPPORT,
        "Does a supporting platoon to the rear help a defender?",
        (
            Reading(
                "attacker-only",
                "Only one stand may fight at a time but may be supported by one stand to the rear which adds "
                "+1 to the attacker's die roll.",
                cite("CLOSE COMBAT (ASSAULTING), Infantry & Cavalry Vs Infantry, Cavalry, Artillery"),
                False,
            ),
            Reading(
                "either-side",
                "ASSAULT FACTORS lists 'Supporting platoon to rear +1' without naming a side.",
                cite("CLOSE COMBAT (ASSAULTING), ASSAULT FACTORS"),
                True,
            ),
        ),
        default="attacker-only",
        section="assault",
    ),
    Erratum(
        CAVALRY_VS_OTHER_FOOT,
        "Cavalry assaulting support weapons, command stands or flame throwers",
        (
            Reading(
                "as-infantry",
                "The factor is '+3 Vs Infantry' and CAVALRY gives +3 'When assaulting infantry or artillery'; "
                "other foot troops are treated as infantry.",
                f"{cite('CLOSE COMBAT (ASSAULTING), ASSAULT FACTORS')} (silent; referee's reading)",
                3,
            ),
            Reading(
                "no-bonus",
                "Only infantry and artillery are named, so no cavalry bonus against other troops.",
                cite("CAVALRY (rules)"),
                0,
            ),
        ),
        default="as-infantry",
        section="assault",
    ),
    Erratum(
        ASSAULT_ACTION,
        "Does an assault spend an action of the assaulting unit's order?",
        (
            Reading(
                "move-action",
                f"'{MOVE_INTO_CONTACT}, movement is carried out platoon by platoon' and the actions 'REMOVE A "
                "SUPPRESSION LEVEL, FIRE or MOVE': an assault is its stands' move into contact, one MOVE "
                "action of the unit ordered (a company's platoons closing together for one, with the move "
                "under way that brought them into contact: the wire example's move 'may include an assault "
                "move'); refused when the unit has no action left.",
                f"{SRC_CLOSE_COMBAT}; {cite('MOVEMENT, MOVING THROUGH BARBED WIRE')}",
                True,
            ),
            Reading(
                "order-only",
                "'Troops may enter combat after they have received a successful order': the assault's dice "
                "spend nothing of it; only the stand's move on the table that brought it into contact spends "
                "an action, and a stand already in contact assaults for nothing.",
                f"{cite('COMBAT')} (silent on an assault's cost; alternative reading)",
                False,
            ),
        ),
        default="move-action",
        note="The book's wording: the assault is the move into contact, a MOVE action. A winner's follow-up "
        "'against a new opponent as a new assault' joins the move under way, or starts one, as any assault. "
        "The side not moving fights back unordered.",
        section="assault",
    ),
)
