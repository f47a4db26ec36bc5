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
from rules.flanders_fields.ruleset import cite as ff_cite

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

# -- campaign battles fought on a Flanders Fields table (rules/firestorm/table_battle.py) --------------------------
# The Firestorm text plays its battles as Great War (Flames of War) games; firestep also offers them as Flanders
# Fields games. Where neither text says how one becomes the other, the choice is one of these errata.
SRC_CONTENTS = cite("Contents")
SRC_TURN_3_HEADING = cite("Turn Three - 24 April, Counter-attack")
SRC_TURN_4_HEADING = cite("Turn Four - 26-27 April, Consolidation")
SRC_CHOOSE_TROOPS = cite("4. Choose Firestorm Troops")
SRC_PLAY_MISSION = cite("7. Play Great War Mission")
SRC_TERRAIN = cite("Step Two: Combat Step, Terrain")
SRC_ROLL_TO_DESTROY = cite("8A. Roll to Destroy")
SRC_DEFEATED = cite("9. Retreat Defeated Troops")
SRC_AFTER_ACTION = cite("STEP THREE: AFTER ACTION STEP")
FF_ORGANISATION = ff_cite("TABLES OF ORGANISATION")
# "Attacker and Defender deploy their forces a battalion at a time with the Defender starting."
FF_BATTALION_AT_A_TIME = ff_cite("GAME SEQUENCE")
FF_TERRAIN = ff_cite("SUGGESTIONS FOR MODELLING THE WESTERN FRONT")
# Contents: "Turn 1 – 24. April – Morning", "Turn 2 – 24. April – Day", "Turn 3 – 25. April – Counter-attack",
# "Turn 4 – 2627. April – Consolidation"; headings: "TURN THREE - 24 APRIL, COUNTER-ATTACK",
# "TURN FOUR - 26-27 APRIL, CONSOLIDATION". A turn's date is its first day.
TURN_DATES_CONTENTS = ("1918-04-24", "1918-04-24", "1918-04-25", "1918-04-26")
TURN_DATES_HEADINGS = ("1918-04-24", "1918-04-24", "1918-04-24", "1918-04-26")

Firestorm.add_errata(
    Erratum(
        "campaign-turn-date",
        "The date of each campaign turn (it picks the Flanders Fields period)",
        (
            Reading(
                "contents",
                "The contents page: 'Turn 1 – 24. April – Morning', 'Turn 2 – 24. April – Day', 'Turn 3 – 25. "
                "April – Counter-attack', 'Turn 4 – 2627. April – Consolidation' (read 26-27 April); the AIF "
                "battle cry is dated 'the night of the 25 April 1918'. A turn is dated by its first day.",
                SRC_CONTENTS,
                list(TURN_DATES_CONTENTS),
            ),
            Reading(
                "turn-headings",
                "The turn pages: 'TURN THREE - 24 APRIL, COUNTER-ATTACK' and 'TURN FOUR - 26-27 APRIL, "
                "CONSOLIDATION'.",
                SRC_TURN_3_HEADING,
                list(TURN_DATES_HEADINGS),
            ),
        ),
        default="contents",
        note="Every reading falls in '24-27 APRIL 1918', inside the period 'mid 1917 to end of war'.",
    ),
    Erratum(
        "firestorm-troop-to-force",
        "Which Flanders Fields forces a campaign battle's Firestorm Troops bring to the table",
        (
            Reading(
                "table-per-troop",
                "The text is silent (it adds each Firestorm Troop to a Great War force 'as extra Support Unit "
                "choices'). Flanders Fields deploys 'a battalion at a time', so each committed Firestorm Troop "
                "brings one battalion-scale unit the tables print for its kind, nation and period: an infantry "
                "troop one Infantry Battalion of its division's table, a Stoss troop the German Storm "
                "Battalion, a British tank troop the Tank Battalion, the BEF's HMG troop (58 Bn MGC) the 1917 "
                "division's Machine Gun Battalion (the British table prints its Vickers only there), a German "
                "HMG troop the Storm Battalion's MMG Company (the German division prints its MMG Companies "
                "only inside each battalion, not as a part of their own). A side that commits none fights "
                "with one Infantry Battalion of its nation ('You do not need to have Firestorm Troops to "
                "fight').",
                f"{SRC_CHOOSE_TROOPS}; {FF_BATTALION_AT_A_TIME}; {FF_ORGANISATION}",
                "table-per-troop",
            ),
            Reading(
                "agreed-force-plus-troops",
                "'although you both start with the same number of points, any Firestorm Troops that you add to "
                "your force are in addition to this': each side always fields one Infantry Battalion of its "
                "nation for the period, and each committed Firestorm Troop adds the battalion-scale unit of its "
                "kind.",
                f"{SRC_PLAY_MISSION}; {FF_BATTALION_AT_A_TIME}; {FF_ORGANISATION}",
                "agreed-force-plus-troops",
            ),
        ),
        default="table-per-troop",
    ),
    Erratum(
        "a7v-table",
        "The Flanders Fields table for an A7V Firestorm Troop (Group I, II, III)",
        (
            Reading(
                "storm-battalion",
                "Flanders Fields prints the A7V's weapons ('A7V 1 x 57mm gun and multiple LMGs') but no German "
                "tank table. The closest printed table is the German Storm Battalion, the troops 'used to "
                "spearhead attacks and break strong points' as the A7Vs were; the tank model itself is added "
                "by hand.",
                FF_ORGANISATION,
                "de-storm-battalion",
            ),
            Reading(
                "infantry-division",
                "One Infantry Battalion of the German Infantry Division 1916-1918, the infantry the tanks "
                "supported.",
                FF_ORGANISATION,
                "de-1916",
            ),
        ),
        default="storm-battalion",
    ),
    Erratum(
        "out-of-supply-on-the-table",
        "A side fighting Out of Supply in a Flanders Fields game",
        (
            Reading(
                "roll-at-the-table",
                "The Out of Supply table is written for Great War forces (motivation levels, points). The side "
                "rolls on it before the game (resolver 'out-of-supply'); the referee applies the effect to the "
                "Flanders Fields forces. The forces are built unchanged.",
                SRC_OUT_OF_SUPPLY,
                "roll",
            ),
            Reading(
                "no-effect",
                "The table game ignores supply; only the campaign's capture of destroyed troops applies.",
                SRC_OOS_CAPTURED,
                "none",
            ),
        ),
        default="roll-at-the-table",
    ),
    Erratum(
        "campaign-table-layout",
        "The terrain of a campaign battle's table",
        (
            Reading(
                "generated",
                "'there are only four kinds of terrain ... You might want to add a few houses if an area "
                "contains a small village, or burned down trees like Hangard or Monument woods but this should "
                "not cover the whole playing area': firestep lays out a starting table from the area's terrain "
                "and name (rules/firestorm/table_battle.py says how), for the organiser to edit.",
                SRC_TERRAIN,
                "generated",
            ),
            Reading(
                "empty",
                "An empty table: the organiser lays out all the terrain by hand.",
                SRC_TERRAIN,
                "empty",
            ),
        ),
        default="generated",
    ),
    Erratum(
        "table-result-to-campaign-vp",
        "Victory points of a campaign battle fought as a Flanders Fields game",
        (
            Reading(
                "field-and-losses",
                "The text scores Great War games only ('Your Victory Points ... 8+ 4+ / 7 5+ / 3 or 6 6 / 2 "
                "or less No roll'). Each side scores the share of the enemy's stands it destroyed on that 0 to "
                "8 scale (rounded down); the side holding the field scores at least three and one more than "
                "the other ('If your opponent scored at least three Victory Points in the game and scored more "
                "Victory Points than you did, then you have been defeated').",
                SRC_ROLL_TO_DESTROY,
                "field-and-losses",
            ),
            Reading(
                "losses-only",
                "Each side scores only the share of the enemy's stands it destroyed on the 0 to 8 scale; who "
                "holds the field does not count.",
                SRC_ROLL_TO_DESTROY,
                "losses-only",
            ),
            Reading(
                "table-score",
                "'At the end of your battle you need to take note of your Victory Points': each side's Victory "
                "Points are those its table game scored from the stands (its objectives: erratum "
                "campaign-table-objectives), and they drive the Roll to Destroy and the retreat ('If your "
                "opponent scored at least three Victory Points in the game and scored more Victory Points than "
                "you did, then you have been defeated and must retreat'); who holds the field is what the "
                "objectives say.",
                SRC_AFTER_ACTION,
                "table-score",
            ),
        ),
        default="field-and-losses",
    ),
    Erratum(
        "campaign-table-objectives",
        "The objectives of a campaign battle's table",
        (
            Reading(
                "defender-positions",
                "The text scores Great War games only. firestep's table has three positions of the defender's "
                "ground, 10 cm squares two thirds of the way to the defender's edge at a sixth, a half and five "
                "sixths of the width, each worth the 'three Victory Points' the retreat rule names to the side "
                "holding it as the game ends; the defender holds each until an attacking stand alone is in it.",
                SRC_DEFEATED,
                "defender-positions",
            ),
        ),
        default="defender-positions",
    ),
)

# -- readings of the Great War rules that decide what a campaign battle fields (issue 23) ---------------------------
SRC_DEPLOYMENT = cite("Initial Deployment")
SRC_REINFORCEMENTS = cite(
    "The General's Wargame: Order Three, Strategic Phase, 2. Deploy new Firestorm Troops and remove tanks"
)
SRC_GAS_TURN_1 = cite("Turn One - 24 April, Morning: Gas Attack")
FF_QUALITY = ff_cite("TROOP QUALITY")
# "This means that the BEF Firestorm Troops get one section (3x SMLE rifle team, 1x Hales rifle grenade team, 1x
# Lewis MG team) instead of two (5x SMLE rifle team, 2x Hales rifle grenade team, 2x Lewis MG team)": half of the
# 5 rifle teams is 3, so a half is rounded up.


def gassed_half(n: int) -> int:
    """Half of n, rounded up as the gassed section's rifle teams are."""
    return (n + 1) // 2


HMG_NEST_CARD = (
    "Reinforce your company with a 2x HMG nests if attacked from an enemy trench, otherwise only 1x HMG nest."
)
GAS_RULE = "all BEF Firestorm Troops and Trench defences are halved on turn 1"

Firestorm.add_errata(
    Erratum(
        "hmg-nests-enemy-trench",
        "When a defender's trench gets two HMG nests",
        (
            Reading(
                "started-in-enemy-control",
                "Defending in Trenches: 'If your trenches are attacked from trenches that started in enemy "
                "control you get two HMG nests. If your trenches are attacked from any other area you only get "
                "one. This represents the fact that trenches are designed to face in a certain direction'. A "
                "trench the attacker captured from the defender started in the defender's control: one nest.",
                SRC_NESTS,
                "started",
            ),
            Reading(
                "enemy-held-trench",
                f"The card, literally: '{HMG_NEST_CARD}' Any trench area the attacker holds when it attacks is "
                "an enemy trench, one it captured from the defender too: two nests.",
                SRC_NEST_CARD,
                "held",
            ),
        ),
        default="started-in-enemy-control",
        note="They differ only when a trench the defender started with, since captured by the attacker, is "
        "attacked from. The rules section is the fuller text and says why (trenches face one way; an attack "
        "from the defender's own former line comes from the side), so a referee reads the card as its summary.",
    ),
    Erratum(
        "gassed-troop-points",
        "A BEF Firestorm Troop taken as points on turn 1 (the gas attack)",
        (
            Reading(
                "halved",
                "Gas Attack: 'all BEF Firestorm Troops and Trench defences are halved on turn 1'; Turn One: "
                "'during the first turn all BEF Firestorm Troop values and defences for the trenches are "
                "halved'. The points are taken 'instead of the Unit listed', so they are halved with it, "
                "rounded up as the gassed section keeps 3 of its 5 rifle teams.",
                f"{SRC_GAS}; {SRC_GAS_TURN_1}; {SRC_POINTS}",
                "halved",
            ),
            Reading(
                "full",
                "The gas text halves the troops (sections, Vickers, HMG nests), not the card's points: 'The "
                "points are listed in the upper right corner with each Firestorm Troop', with no turn rule.",
                f"{SRC_POINTS}; {SRC_GAS}",
                "full",
            ),
        ),
        default="halved",
        note="Points unchanged would let the BEF escape the gas by taking points instead of the unit; the turn "
        "text halves the troops' 'values', so a referee halves the points.",
    ),
    Erratum(
        "gassed-bef-force",
        "How a BEF Firestorm Troop's battalion is halved on a turn 1 table (the gas attack)",
        (
            Reading(
                "half-the-companies",
                "Gas Attack: 'all BEF Firestorm Troops ... are halved on turn 1 ... one section ... instead of "
                "two ... two Vickers HMG instead of four Vickers HMG for a machine-gun platoon': the troop keeps "
                "half of its parts, each whole. On the table a troop is a battalion (erratum "
                "firestorm-troop-to-force): it keeps its HQ and half of its companies (rounded up, as the "
                "section keeps 3 of 5 rifle teams), each with all its platoons: an Infantry Battalion 2 of its 4 "
                "companies, the Machine Gun Battalion 2 of its 4 MMG Companies (8 Vickers of 16), the Tank "
                "Battalion 2 of its 3 companies.",
                f"{SRC_GAS}; {SRC_GAS_TURN_1}; {FF_ORGANISATION}",
                "companies",
            ),
            Reading(
                "half-each-company",
                "The platoon is halved inside itself ('one section instead of two', 'two Vickers HMG instead of "
                "four'): every company keeps half of its platoons (rounded up): an Infantry Company 2 of its 3 "
                "platoons, an MMG Company 2 of its 4 Vickers ('MMG Company (4 Models)', the size of the card's "
                "'4x Vickers HMG team'), a Tank Company 2 of its 4 tanks.",
                f"{SRC_GAS}; {FF_ORGANISATION}",
                "platoons",
            ),
        ),
        default="half-the-companies",
        note="Only Firestorm Troops are halved: a force a side fields without one (erratum "
        "firestorm-troop-to-force) is not. The companies reading halves every BEF table here exactly (4 "
        "companies) and keeps whole companies, the units a Flanders Fields battalion moves and rolls for; "
        "halving each company leaves 2 of 3 platoons, two thirds.",
    ),
    Erratum(
        "firestorm-grade",
        "The Flanders Fields grade of a Firestorm Troop's printed grade",
        (
            Reading(
                "trained-is-experienced",
                "Firestorm prints 'veteran infantry' (478, 48, 207 and 93 RIR), 'trained infantry' (419 RIR), "
                "'(Stoss)' (G Gr. 5, 257) and 'four Veteran Infantry Firestorm Troops' (the AIF). Flanders "
                "Fields has 'three grades ... RAW, EXPERIENCED and VETERAN' and 'All Storm troop battalions are "
                "veteran' (its grade storm). Veteran is Veteran, Stoss is Storm, and trained, the grade below "
                "veteran on the cards ('VETERAN 3+', 'TRAINED 4+'), is Experienced, the grade below Veteran: "
                "'Units and men who have survived their baptism of fire'.",
                f"{SRC_DEPLOYMENT}; {SRC_REINFORCEMENTS}; {SRC_CARDS}; {FF_QUALITY}",
                {"veteran": "veteran", "trained": "experienced", "stoss": "storm"},
            ),
            Reading(
                "trained-is-raw",
                "'trained infantry' is Flanders Fields' Raw: 'Units which have finished basic training but "
                "have no experience of combat ... as would reserve or Landwhere units' (419 RIR is a reserve "
                "regiment). Veteran and Stoss as in the other reading.",
                f"{SRC_DEPLOYMENT}; {FF_QUALITY}",
                {"veteran": "veteran", "trained": "raw", "stoss": "storm"},
            ),
        ),
        default="trained-is-experienced",
        note="The four veteran regiments are reserve regiments (RIR) too, so 'reserve' is not what grades them "
        "here; trained ranks between veteran and the Raw of troops new to combat. Troops printed without a "
        "grade (the Line Division brigades, the HMG and tank troops) take their table's grade as Flanders "
        "Fields prints it; crewed weapons 'are always classed as Experienced'.",
    ),
    Erratum(
        "hmg-nest-on-the-table",
        "What a trench HMG nest is on a Flanders Fields table",
        (
            Reading(
                "one-mmg-stand",
                f"'{HMG_NEST_CARD}' and 'This is in addition to any Firestorm Troops': each nest is one "
                "machine gun of the defender's nation as its tables print it (a Vickers MMG of the British "
                "Machine Gun Battalion, a Maxim MMG of the German battalion's MMG Company; 'Crewed Weapons ... "
                "are always classed as Experienced'), placed in the defender's front trench, the nests spread "
                "evenly along it and facing the attacker. On a table laid by hand (erratum "
                "campaign-table-layout, empty) it starts off the table for the referee to place in the trench.",
                f"{SRC_NESTS}; {SRC_NEST_CARD}; {FF_ORGANISATION}; {FF_QUALITY}",
                "one-mmg-stand",
            ),
        ),
        default="one-mmg-stand",
        note="The card's nest is a single gun ('2x HMG nests' against 'two Vickers HMG instead of four'), so a "
        "nest brings one gun, not a company.",
    ),
)
