"""Errata of rolling barrages: duration, the row that attacks troops too close behind one, a natural one
under it, and shooting through one uphill."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.errata.firing import SRC_NATURAL_ONE
from rules.flanders_fields.ruleset import FlandersFields, cite

BARRAGE_UPHILL = "barrage-uphill"
BARRAGE_DURATION = "barrage-duration"
BARRAGE_DANGER_ROW = "barrage-danger-row"
ROLLING_BARRAGE_NATURAL_ONE = "rolling-barrage-natural-one"

SRC_ROLLING_BARRAGE = cite("ROLLING BARRAGE")
SRC_BARRAGE_DANGER = cite("RISK TO ATTACKING TROOPS FROM THEIR OWN BARRAGE")
SRC_FIRE_PLAN = cite("FIRE PLANS, ATTACKERS FIRE PLAN TEMPLATE")

FlandersFields.add_errata(
    Erratum(
        BARRAGE_UPHILL,
        "Shooting into or through a barrage uphill",
        (
            Reading(
                "instead",
                "'-2 Shooting into or through a barrage' and '-1 Shooting into or through a barrage if "
                "uphill' are two cases: uphill it is -1 in all.",
                f"{cite('RANGED COMBAT, DIRECT FIRE MODIFIERS')} (silent on adding; referee's reading)",
                -1,
            ),
            Reading(
                "cumulative",
                "The uphill -1 is added to the barrage -2: -3 in all.",
                f"{cite('RANGED COMBAT, DIRECT FIRE MODIFIERS')} (alternative reading)",
                -3,
            ),
        ),
        default="instead",
        note="The text does not say whether the two barrage modifiers add up.",
        section="barrage",
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
        section="barrage",
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
        section="barrage",
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
        section="barrage",
        short="Natural 1 under a rolling barrage",
    ),
)
