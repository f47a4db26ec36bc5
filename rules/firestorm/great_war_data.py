"""Firestorm: Villers-Bretonneux rules for the Great War games themselves (not the General's Wargame), as data:
the three missions, the trench HMG nests, the Dusk/Dawn optional rule, the historical tank limits, the points
each Firestorm Troop is worth instead of its unit, and the Out of Supply table. Each value carries the printed
line it comes from; where the text is silent the choice is an erratum."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.core.ruleset import Erratum, Reading
from rules.firestorm.data import Side
from rules.firestorm.ruleset import Firestorm, cite

SRC_MISSION = cite("Step Two: Combat Step, 6. Identify Your Mission")
SRC_ATTACKER = cite("What is different?: Attacker")
SRC_TURN_1 = cite("Turn One - 24 April, Morning: First Turn")
SRC_NESTS = cite("Defending in Trenches")
SRC_NEST_CARD = cite("Firestorm Troops: Both Sides, Trench Defence, HMG Nest")
SRC_GAS = cite("Gas Attack")
SRC_NIGHT = cite("Turn Three - 24 April, Counter-attack: Third Turn")
SRC_DUSK_DAWN = cite("Battle: Optional Rule")
SRC_DUSK = cite("Dusk")
SRC_HISTORICAL = cite("Recommended or Historical Play: Historical Play, Number of Tanks")
SRC_POINTS = cite("4. Choose Firestorm Troops: Firestorm Troop Points Value")
SRC_CARDS = cite("Firestorm Troops")
SRC_OUT_OF_SUPPLY = cite("5. Check for Supply: Out of Supply Table")
SRC_OOS_CAPTURED = cite("Destroyed When Out of Supply")

# -- missions ---------------------------------------------------------------------------------------------
# "In Firestorm: Villers-Bretonneux there are only three missions, The Big Push, Through the Mud and Blood and
# The Green Fields Beyond. The mission you play is determined by the area attacked into or sometimes attacked from."
Mission = Literal["the-big-push", "through-the-mud-and-blood", "the-green-fields-beyond"]
MISSIONS: tuple[Mission, ...] = ("the-big-push", "through-the-mud-and-blood", "the-green-fields-beyond")
MISSION_NAMES: dict[Mission, str] = {
    "the-big-push": "The Big Push",
    "through-the-mud-and-blood": "Through the Mud and Blood",
    "the-green-fields-beyond": "The Green Fields Beyond",
}
# The clauses of the text, quoted in each answer.
BIG_PUSH = "When attacking from your trench into an enemy trench you should play The Big Push."
MUD_FROM_ENEMY_TRENCH = "When attacking from an enemy trench you play Through the Mud and Blood"
MUD_FROM_ELSEWHERE = (
    "If attacking an enemy trench from any other area than the trenches you started with then play "
    "Through Mud and Blood."
)
MUD_OWN_LOST = (
    "If you are attacking a trench you started with but have then lost you play Through Mud and Blood"
)
GREEN_FIELDS = "For all other missions play The Green Fields Beyond."
# "the player with the initiative automatically becomes the attacker in the Great War game. This supersedes any
# other special rules including forces that normally Always Attack or Always Defend."
ATTACKER_RULE = (
    "The side with the initiative is the attacker; this supersedes any other special rule, including forces "
    "that normally Always Attack or Always Defend."
)

# -- trench HMG nests ---------------------------------------------------------------------------------------
# "If your trenches are attacked from trenches that started in enemy control you get two HMG nests. If your
# trenches are attacked from any other area you only get one." Card: "BOTH SIDES, TRENCH DEFENCE N/A HMG Nest".
NESTS_FROM_ENEMY_TRENCH = 2
NESTS_FROM_OTHER = 1
# Gas, turn 1: "one HMG nest instead of two. In case a British trench line is attacked from the side or rear
# the British keep the single HMG nest."
NESTS_GASSED = 1
# "This means that the BEF Firestorm Troops get one section (3x SMLE rifle team, 1x Hales rifle grenade team,
# 1x Lewis MG team) instead of two ... two Vickers HMG instead of four Vickers HMG for a machine-gun platoon"
GASSED_BEF_TROOPS = (
    "infantry: one section (3x SMLE rifle team, 1x Hales rifle grenade team, 1x Lewis MG team) instead of two",
    "machine-gun platoon: two Vickers HMG instead of four",
)

# -- light: night battles and the Dusk/Dawn optional rule ---------------------------------------------------
Light = Literal["daylight", "dawn", "dusk", "night"]
# "Rules for Dawn can be found on page 208 in the Great War rulebook." Darkness: "(page 208)".
GREAT_WAR_PAGE = 208
# Turn 3 night battles: "there can be no tanks during the night ... and the German forces start the game
# pinned down."
NIGHT_RULES = (
    f"Darkness for the whole battle: the Night Fighting rules (Great War rulebook, page {GREAT_WAR_PAGE})",
    "no tanks during the night",
    "the German forces start the game pinned down",
)
# DUSK: "At the start of the Defender's third turn, roll a die: On a score of 5+, night has fallen ... at the
# start of the Attacker's turn four, they roll two dice ... If it is still light at the start of the Defender's
# next turn, they roll three dice, and so on with each player rolling one more die until night falls".
DUSK_FIRST_DEFENDER_TURN = 3
NIGHTFALL_ON = 5
DUSK_TURN_LIMIT = 20  # a request bound, not a rule: the text rolls "and so on" until night falls

# -- historical tank limits ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TankAllowance:
    """What a tank Firestorm Troop brings under the historical-play option, as printed."""

    troop: str  # the Firestorm Troop's id in data.TROOPS
    printed: str
    base_tanks: int
    extra_tank: str
    max_extra: int
    points_each: int


TankTroop = Literal["group-i", "group-ii", "group-iii", "a-coy-mitchell", "a-coy-grove", "x-coy-price"]
TANK_TROOPS: tuple[TankTroop, ...] = (
    "group-i",
    "group-ii",
    "group-iii",
    "a-coy-mitchell",
    "a-coy-grove",
    "x-coy-price",
)
TANK_ALLOWANCES: dict[str, TankAllowance] = {
    t.troop: t
    for t in (
        TankAllowance(
            "group-i",
            "Group I Skopnik (1x A7V tank) • You may add up to 2x A7V tanks for 19 points each.",
            1,
            "A7V tank",
            2,
            19,
        ),
        TankAllowance(
            "group-ii",
            "Group II Uihlein (1x A7V tank) • You may add up to 3x A7V tanks for 19 points each.",
            1,
            "A7V tank",
            3,
            19,
        ),
        TankAllowance(
            "group-iii",
            "Group III Steinhardt (1x A7V tank) • You may add up to 5x A7V tanks for 19 points each.",
            1,
            "A7V tank",
            5,
            19,
        ),
        TankAllowance(
            "a-coy-mitchell",
            "No 1 – A Coy Mitchell (1x Green Mark IV male tank) • You may add up to 2x Green Mark IV female "
            "tanks for 13 points each.",
            1,
            "Green Mark IV female tank",
            2,
            13,
        ),
        # Printed "No 1 - A Coy Grove" here; the deployment has Grove as No 2. The name is unambiguous.
        TankAllowance(
            "a-coy-grove",
            "No 1 - A Coy Grove (1x Green Mark IV male tank) • You may add up to 1x Mark IV female tank for "
            "13 points.",
            1,
            "Mark IV female tank",
            1,
            13,
        ),
        TankAllowance(
            "x-coy-price",
            "X Coy Price (2x Green Mark A Whippets) • You may add 5x Whippets for 9 points each.",
            2,
            "Whippet",
            5,
            9,
        ),
    )
}
# "there were only a total of 25 tanks that took part in the entire battle"
HISTORICAL_TANKS_IN_BATTLE = 25
# "This would mean that in turns 3 and 4 there are no tanks available."
HISTORICAL_TANK_TURNS = (1, 2)

# -- Firestorm Troop points value ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PointsCard:
    """A Firestorm Troop card: its points ("listed in the upper right corner") and the unit it gives."""

    id: str
    side: Side
    printed: str
    points: int
    unit: str
    troops: tuple[str, ...]  # the Firestorm Troops (data.TROOPS ids) the card is for


Card = Literal[
    "a7v", "stoss", "jager", "infanterie", "jager-mg", "mark-iv", "whippets", "aif", "line", "58-bn-mgc"
]  # fmt: skip
POINTS_CARDS: dict[str, PointsCard] = {
    c.id: c
    for c in (
        PointsCard(
            "a7v", "german", "17 POINTS Group I, II and III.", 17, "one A7V Panzer",
            ("group-i", "group-ii", "group-iii"),
        ),
        PointsCard(
            "stoss", "german",
            "17 POINTS 5 Guard Grenadier Regiment (4 Guards Div) and 257 RIR (77 Reserve Div)", 17,
            "a Stoss Platoon", ("g-gr-5", "257-rir"),
        ),
        PointsCard(
            "jager", "german",
            "13 POINTS 48 RIR (228 Div), 93 RIR (4 Guards), 207 RIR (228 Div) and 478 RIR (243 Div)", 13,
            "a Jäger Platoon", ("48-rir", "93-rir", "207-rir", "478-rir"),
        ),
        PointsCard(
            "infanterie", "german", "9 POINTS 419 RIR (77 Reserve Div)", 9,
            "an Infanterie Platoon (2 Sections)", ("419-rir",),
        ),
        PointsCard(
            "jager-mg", "german", "9 POINTS MG Abt 4G and MG Abt 228", 9,
            "a Jäger Machine-Gun Platoon (2x Maxim MG 08 HMG team)", ("mg-abt-4g", "mg-abt-228"),
        ),
        PointsCard(
            "mark-iv", "bef", "15 POINTS No 1 and No 2 Sections of A Company", 15,
            "a Green Mark IV Male tank", ("a-coy-mitchell", "a-coy-grove"),
        ),
        PointsCard(
            "whippets", "bef", "16 points X Company", 16, "2x Green Mark A Whippet tanks", ("x-coy-price",),
        ),
        PointsCard(
            "aif", "bef", "13 POINTS 13th, 14th and 15th Bde AIF", 13,
            "an ANZAC Rifle Platoon (2 Rifle Sections)",
            ("14-bde-aif", "13-bde-aif-a", "13-bde-aif-b", "15-bde-aif-a", "15-bde-aif-b"),
        ),
        PointsCard(
            "line", "bef", "10 POINTS 23rd, 24th, 25th (8th Division) and 173 Bde (58th Division) BEF", 10,
            "a Line Division Rifle Platoon (2 Rifle Sections)", ("23-bde", "24-bde", "25-bde", "173-bde"),
        ),
        PointsCard(
            "58-bn-mgc", "bef", "13 POINTS 58 Bn MGC", 13,
            "a Line Division Machine-Gun Platoon (4x Vickers HMG team)", ("58-bn-mgc",),
        ),
    )
}  # fmt: skip
FORCE_POINTS_LIMIT = (
    10_000  # a request bound, not a rule ("play whatever points you and your opponent would like")
)

# -- Out of Supply ---------------------------------------------------------------------------------------------
# "Roll a D6 and consult the Out of Supply table. The effects last for the duration of the game." The four
# effects survive in the order printed; their die rolls do not (the erratum out-of-supply-table).
SupplyEffect = Literal["morale reduced", "strength reduced", "no effect", "one motivational level higher"]
Motivation = Literal["fearless", "confident", "reluctant"]
# MORALE REDUCED: "Fearless become confident, confident become Reluctant and Reluctant Platoons only pass a
# Motivation Test on a roll of 6." The fourth (its title lost): "Reluctant become Confident, Confident become
# Fearless and Fearless pass all Motivation Tests on a roll of 2+."
MORALE_REDUCED: dict[Motivation, str] = {
    "fearless": "confident",
    "confident": "reluctant",
    "reluctant": "reluctant, passing a Motivation Test only on a roll of 6",
}
MORALE_RAISED: dict[Motivation, str] = {
    "reluctant": "confident",
    "confident": "fearless",
    "fearless": "fearless, passing all Motivation Tests on a roll of 2+",
}
# STRENGTH REDUCED: "you must reduce the size of your force by 20%, e.g. if you would have fielded a 1250 point
# force, you now have only 1000 points for the battle. Firestorm Troops are not affected."
STRENGTH_KEPT_PERCENT = 80

# Face 1..6 -> effect, for each reading of the lost dice.
OOS_WORST_LIKELY: tuple[SupplyEffect, ...] = (
    "morale reduced",
    "morale reduced",
    "strength reduced",
    "strength reduced",
    "no effect",
    "one motivational level higher",
)
OOS_NO_EFFECT_LIKELY: tuple[SupplyEffect, ...] = (
    "morale reduced",
    "strength reduced",
    "no effect",
    "no effect",
    "no effect",
    "one motivational level higher",
)

OUT_OF_SUPPLY_TABLE_ERRATUM = Erratum(
    "out-of-supply-table",
    "The dice of the Out of Supply table (Great War games)",
    (
        Reading(
            "penalty-likely",
            "The extraction kept the four effects, in the order morale reduced, strength reduced, no effect, "
            "one motivational level higher, but not their die rolls. Read worst to best on the D6 with the "
            "two penalties taking two faces each: 1-2 morale reduced, 3-4 strength reduced, 5 no effect, 6 one "
            "level higher. Being cut off is meant to hurt: the General's Wargame makes it -2.",
            SRC_OUT_OF_SUPPLY,
            list(OOS_WORST_LIKELY),
        ),
        Reading(
            "no-effect-likely",
            "The same order with single faces at the ends and the middle to no effect: 1 morale reduced, "
            "2 strength reduced, 3-5 no effect, 6 one level higher.",
            SRC_OUT_OF_SUPPLY,
            list(OOS_NO_EFFECT_LIKELY),
        ),
    ),
    default="penalty-likely",
    note="The printed table lost its die-roll column; no reading is in the text.",
)

Firestorm.add_errata(
    OUT_OF_SUPPLY_TABLE_ERRATUM,
    Erratum(
        "whippet-extras",
        "How many Whippets X Coy Price adds under the historical tank limits",
        (
            Reading(
                "up-to-five",
                "'You may add 5x Whippets for 9 points each', read like the other groups' 'up to': any "
                "number from 0 to 5.",
                SRC_HISTORICAL,
                "up-to",
            ),
            Reading(
                "five-or-none",
                "Read literally: the five Whippets are added all together or not at all.",
                SRC_HISTORICAL,
                "all-or-none",
            ),
        ),
        default="up-to-five",
    ),
    Erratum(
        "out-of-supply-strength-rounding",
        "Rounding the 20% strength reduction when Out of Supply",
        (
            Reading(
                "force-down",
                "The text's example is exact (1250 to 1000) and it is silent on other totals; the reduced force "
                "is rounded down, so it is never more than 80% of the points agreed.",
                SRC_OUT_OF_SUPPLY,
                "down",
            ),
            Reading(
                "force-up",
                "The 20% taken off is rounded down, so the force keeps the odd points.",
                SRC_OUT_OF_SUPPLY,
                "up",
            ),
        ),
        default="force-down",
    ),
)
