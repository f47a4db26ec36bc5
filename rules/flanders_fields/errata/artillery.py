"""Errata of artillery and air support: action rolls, their line-of-sight bonus, air missions and troops in
deep shelters."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.ruleset import FlandersFields, cite

ARTILLERY_LINE_OF_SIGHT_EARLY = "artillery-line-of-sight-early"
ARTILLERY_ACTION_MID = "artillery-action-mid"
ARTILLERY_LINE_OF_SIGHT_LATE = "artillery-line-of-sight-late"
AIR_MISSION_ORDER = "air-mission-order"
AIR_ATTACK_MACHINE_GUN = "air-attack-machine-gun"
DEEP_SHELTER_VETERAN = "deep-shelter-veteran"

SRC_ARTILLERY_ACTION = cite("ARTILLERY ACTION DIE ROLLS (INDIRECT SHOOTING)")
SRC_AIR = cite("AIR SUPPORT")
SRC_DEEP_SHELTERS = cite("TROOPS IN DEEP SHELTERS")

FlandersFields.add_errata(
    Erratum(
        ARTILLERY_LINE_OF_SIGHT_EARLY,
        "Artillery with its own line of sight, 1914 to mid 1915",
        (
            Reading(
                "playsheet",
                "Separate tables ARTILLERY WITH LINE OF SIGHT and ARTILLERY FIRING FROM OFF TABLE, both "
                "'1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions'; no +1 among the Modifiers to Order Rolls.",
                cite("1 SUPPORT ORDERS III", "early"),
                0,
            ),
            Reading(
                "main-text",
                "When Field artillery fire over 'open sights' at an enemy they can see they have a bonus of "
                "+1 to the action roll.",
                cite("ARTILLERY ACTION DIE ROLLS (INDIRECT SHOOTING)"),
                1,
            ),
        ),
        default="playsheet",
        periods=("early",),
        section="artillery",
        short="Artillery's own line of sight",
    ),
    Erratum(
        ARTILLERY_ACTION_MID,
        "Artillery action die roll, mid 1915 to mid 1917",
        (
            Reading(
                "playsheet",
                "1-3 = No Action 4-5 = 1 Action 6 = 2 Actions",
                cite("5 SUPPORT ORDERS, III. Individual Regimental/Brigade Artillery and Mortars", "mid"),
                T.action_thresholds(T.ARTILLERY_MID),
            ),
            Reading(
                "main-text",
                "Mid 1915 to Mid 1917: 1 -3 = No Action, 4 - 6 = 1 Action, 7+ = 2 Actions",
                SRC_ARTILLERY_ACTION,
                {"one": 4, "two": 7},
            ),
        ),
        default="playsheet",
        periods=("mid",),
        note="Values are the lowest modified roll giving one and two actions.",
        section="artillery",
        short="Artillery action roll",
    ),
    Erratum(
        ARTILLERY_LINE_OF_SIGHT_LATE,
        "Which artillery gets +1 to its action roll for seeing its target, mid 1917 to the end of the war",
        (
            Reading(
                "playsheet",
                "+1 Artillery with their own line of sight.",
                cite("Modifiers to Order Rolls", "late"),
                "any",
            ),
            Reading(
                "main-text",
                "When Field artillery fire over 'open sights' at an enemy they can see they have a bonus of "
                "+1 to the action roll.",
                SRC_ARTILLERY_ACTION,
                "field",
            ),
        ),
        default="playsheet",
        periods=("late",),
        note="The mid 1915 to mid 1917 playsheet agrees with the main text: '+1 Field Artillery with their "
        "own line of sight.'",
        section="artillery",
        short="Artillery +1 for seeing its target",
    ),
    Erratum(
        AIR_MISSION_ORDER,
        "Ordering a direct air support mission",
        (
            Reading(
                "playsheet",
                "Direct Air Support mission Roll D6 1-4 no effect, 5 or 6 Biggles/Red Baron arrives where "
                "required.",
                cite("5 DIVISIONAL/REGIMENTAL/BRIGADE ORDERS, IV", "late"),
                {"modifier": 0, "needs": 5},
            ),
            Reading(
                "main-text",
                "air attacks must be ordered by a Regimental Commander as a normal order except that there "
                "is a penalty of -3; read as the late-war Regiment/Brigade artillery order (1-2 = No Action), "
                "so the modified roll needs 3+.",
                SRC_AIR,
                {"modifier": -3, "needs": 3},
            ),
        ),
        default="playsheet",
        periods=("late",),
        note="The -3 cannot apply to the playsheet's 5-6 roll (no D6 would succeed), so the main-text "
        "reading uses the normal Regiment/Brigade order table it refers to.",
        section="artillery",
    ),
    Erratum(
        AIR_ATTACK_MACHINE_GUN,
        "An aircraft attacking a machine gun: the aircraft's support-weapon +2 and the machine gun's own +2",
        (
            Reading(
                "both",
                "Aircraft factors: 'Target is Artillery or support weapons +2'; Infantry Factors: 'Target is "
                "Machine Gun +2'. A machine gun is a support weapon (an attack is directed 'against a maximum "
                "of three infantry platoons or support weapons'), so both factors count and cancel out.",
                f"{SRC_AIR} (literal reading)",
                {"aircraft": 2, "target": 2},
            ),
            Reading(
                "machine-gun-only",
                "The machine gun's own factor is the rule for machine guns: the aircraft's 'Target is "
                "Artillery or support weapons +2' is for the other support weapons, and only the machine "
                "gun's +2 counts.",
                f"{SRC_AIR} (silent on whether both factors count; referee's reading)",
                {"aircraft": 0, "target": 2},
            ),
        ),
        default="both",
        periods=("late",),
        note="The text prints both factors and says nothing of their overlap; the playsheets print no air "
        "attack factors.",
        section="artillery",
    ),
    Erratum(
        DEEP_SHELTER_VETERAN,
        "Veteran (and storm) troops regaining their fighting positions from deep shelters",
        (
            Reading(
                "plus-one",
                "The text gives 'Experienced have +1 on the die roll and Raw -1' and is silent on veterans; "
                "veterans are at least as good as experienced troops: +1.",
                f"{SRC_DEEP_SHELTERS} (silent on veterans; referee's reading)",
                1,
            ),
            Reading(
                "none",
                "Only the qualities named get a modifier: veterans roll unmodified.",
                f"{SRC_DEEP_SHELTERS} (literal reading)",
                0,
            ),
        ),
        default="plus-one",
        note="TROOP QUALITY: 'All Storm troop battalions are veteran.'",
        section="artillery",
    ),
)
