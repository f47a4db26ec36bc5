"""Errata of artillery, barrages, gas, air, heroic actions, events and casualties.

Each erratum names both readings with their locations; where a period playsheet is one of them it is the
default. Where the text is silent the erratum says so and the default is what a referee would pick.
"""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

GAS_SPEED_BELOW_ZERO = "gas-speed-below-zero"
ARTILLERY_ACTION_MID = "artillery-action-mid"
ARTILLERY_LINE_OF_SIGHT_LATE = "artillery-line-of-sight-late"
BARRAGE_DURATION = "barrage-duration"
BARRAGE_DANGER_ROW = "barrage-danger-row"
ROLLING_BARRAGE_NATURAL_ONE = "rolling-barrage-natural-one"
AIR_MISSION_ORDER = "air-mission-order"
DEEP_SHELTER_VETERAN = "deep-shelter-veteran"
CASUALTY_ROUNDING = "casualty-rounding"
EVENTS_PACK_EXHAUSTED = "events-pack-exhausted"

SRC_GAS_MOVEMENT = cite("GAS, GAS MOVEMENT table")
SRC_ARTILLERY_ACTION = cite("ARTILLERY ACTION DIE ROLLS (INDIRECT SHOOTING)")
SRC_ROLLING_BARRAGE = cite("ROLLING BARRAGE")
SRC_BARRAGE_DANGER = cite("RISK TO ATTACKING TROOPS FROM THEIR OWN BARRAGE")
SRC_NATURAL_ONE = cite("ROLLING A NATURAL ONE")
SRC_FIRE_PLAN = cite("FIRE PLANS, ATTACKERS FIRE PLAN TEMPLATE")
SRC_AIR = cite("AIR SUPPORT")
SRC_DEEP_SHELTERS = cite("TROOPS IN DEEP SHELTERS")
SRC_CASUALTIES = cite("CASUALTIES AND THEIR EFFECT IN A CAMPAIGN")
SRC_EVENTS = cite("RANDOM EVENTS")


def playsheet(period: str, section: str) -> str:
    return cite(section, period)


FlandersFields.add_errata(
    Erratum(
        GAS_SPEED_BELOW_ZERO,
        "Gas Movement table: speed decreased by 1D6 to 0 or below",
        (
            Reading(
                "halt",
                "The text is silent. With no wind the cloud hangs where it is: speed 0 cm, it goes on "
                "attacking what it covers, and a later 3 or 5 on the table sets it moving again.",
                f"{SRC_GAS_MOVEMENT} (silent; referee's reading)",
                "halt",
            ),
            Reading(
                "disperse",
                "The text is silent. A wind that dies away leaves the cloud to disperse, as on a 6.",
                f"{SRC_GAS_MOVEMENT} (silent; alternative reading)",
                "disperse",
            ),
        ),
        default="halt",
        note="Result 4 reads 'Direction of gas cloud continues as for previous turn, speed decreases by "
        "1D6cm' and gives no floor.",
    ),
    Erratum(
        ARTILLERY_ACTION_MID,
        "Artillery action die roll, mid 1915 to mid 1917",
        (
            Reading(
                "playsheet",
                "1-3 = No Action 4-5 = 1 Action 6 = 2 Actions",
                playsheet(
                    "mid", "5 SUPPORT ORDERS, III. Individual Regimental/Brigade Artillery and Mortars"
                ),
                {"one": 4, "two": 6},
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
    ),
    Erratum(
        ARTILLERY_LINE_OF_SIGHT_LATE,
        "Which artillery gets +1 to its action roll for seeing its target, mid 1917 to the end of the war",
        (
            Reading(
                "playsheet",
                "+1 Artillery with their own line of sight.",
                playsheet("late", "Modifiers to Order Rolls"),
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
    ),
    Erratum(
        BARRAGE_DURATION,
        "Duration of a rolling barrage",
        (
            Reading(
                "main-text",
                "the duration of any rolling barrage is four plus D3 turns i.e. 5-7 game turns",
                SRC_ROLLING_BARRAGE,
                4,
            ),
            Reading(
                "fire-plan-template",
                "Rolling Barrage duration - Number of turns available to attackers - Normally 3 +D3",
                SRC_FIRE_PLAN,
                3,
            ),
        ),
        default="main-text",
        note="ARTILLERY FIRE PLANS also says a rolling barrage 'should last for between 5 and 7 turns', "
        "agreeing with 4 + D3; the template is an appendix, not a playsheet.",
    ),
    Erratum(
        BARRAGE_DANGER_ROW,
        "Which firing table row attacks troops too close to their own barrage",
        (
            Reading(
                "guns",
                "The text says only 'attacked by field artillery at a -1'; the Field Artillery - Guns row "
                "(3 4 4 5 5 6 6 7) is used, the guns being the bulk of a rolling barrage.",
                f"{SRC_BARRAGE_DANGER} (row not named; referee's reading)",
                "guns",
            ),
            Reading(
                "howitzers",
                "The Field Artillery, Howitzers row (3 4 3 4 4 6 6 7) is used.",
                f"{SRC_BARRAGE_DANGER} (row not named; alternative reading)",
                "howitzers",
            ),
        ),
        default="guns",
    ),
    Erratum(
        ROLLING_BARRAGE_NATURAL_ONE,
        "Does a natural 1 always fail against troops under a rolling barrage?",
        (
            Reading(
                "fails",
                "Note that a roll of 1 on the die is always a failure no matter what factors may be "
                "applied, there is no such thing as an automatic hit, except in the case of troops in the "
                "open caught by Super Heavy Artillery.",
                SRC_NATURAL_ONE,
                True,
            ),
            Reading(
                "table",
                "The rolling barrage table is read with its own modifiers only: 'If the target is in Soft "
                "Cover increase the die roll by 1, if in Open increase by 2', so a 1 in the open is a 3.",
                SRC_ROLLING_BARRAGE,
                False,
            ),
        ),
        default="fails",
        note="The rolling barrage section does not say whether the shooting matrix's natural-one rule "
        "applies to its table.",
    ),
    Erratum(
        AIR_MISSION_ORDER,
        "Ordering a direct air support mission",
        (
            Reading(
                "playsheet",
                "Direct Air Support mission Roll D6 1-4 no effect, 5 or 6 Biggles/Red Baron arrives where "
                "required.",
                playsheet("late", "5 DIVISIONAL/REGIMENTAL/BRIGADE ORDERS, IV"),
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
    ),
    Erratum(
        CASUALTY_ROUNDING,
        "Casualties: sixths of an odd number of bases are half men",
        (
            Reading(
                "badly-wounded-up",
                "The text is silent on rounding. Thirds are always whole (15 men a base); when the sixths "
                "are half a man the badly wounded are rounded up and the crippled down, so the four "
                "parts still add up to 15 a base.",
                f"{SRC_CASUALTIES} (silent; referee's reading)",
                "badly-wounded",
            ),
            Reading(
                "crippled-up",
                "The crippled are rounded up and the badly wounded down.",
                f"{SRC_CASUALTIES} (silent; alternative reading)",
                "crippled",
            ),
        ),
        default="badly-wounded-up",
    ),
    Erratum(
        EVENTS_PACK_EXHAUSTED,
        "Random events: the pack runs out",
        (
            Reading(
                "reshuffle",
                "The text is silent. When the pack holds fewer cards than are to be drawn, every card not "
                "held in a hand is shuffled into a new pack before drawing.",
                f"{SRC_EVENTS} (silent; referee's reading)",
                "reshuffle",
            ),
            Reading(
                "no-more-events",
                "No more cards are drawn once the pack is empty; a draw larger than the pack takes what "
                "is left.",
                f"{SRC_EVENTS} (silent; alternative reading)",
                "no-more-events",
            ),
        ),
        default="reshuffle",
    ),
)
