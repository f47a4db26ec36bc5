"""The game's silent and ambiguous readings of 2mm Earth 1418 (version 0.8, "these rules are in the prototype
stages"): where the bound, the plans and their execution leave a question a game must answer, each an
`Erratum` with both readings and the default, listed with the rule set's other errata."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.earth2mm.data import (
    SRC_ARMING,
    SRC_ARTILLERY,
    SRC_COMMANDS,
    SRC_COVER,
    SRC_ORDER,
    SRC_UNITS,
    SRC_VEHICLES,
)
from rules.earth2mm.play.steps import FIRE_PLAN_STEPS
from rules.earth2mm.play.table import CLASS_OF_KIND
from rules.earth2mm.play.units import ORDINARY_QUALITY, QUALITY_OF_KIND
from rules.earth2mm.ruleset import Earth2mm, cite

SRC_BOUNDS = cite("BOUNDS")
SRC_FORMATIONS = cite("STRATEGIC FORMATIONS")
JUDGED_BY_EYE = "judged-by-eye"
# The sf-quality reading's value: each sub-unit kind's quality, and the quality of any other kind.
_QUALITY_BY_KIND_ELSE_LINE: dict[str, str | dict[str, str]] = {
    "by_kind": QUALITY_OF_KIND,
    "else": ORDINARY_QUALITY,
}

Earth2mm.add_errata(
    Erratum(
        JUDGED_BY_EYE,
        "Who judges a sub-unit's cover and whether it is under gas",
        (
            Reading(
                "the-players",
                "The players judge them on the table: a cover or gas a player gives is taken, marked as the "
                "player's beside what the map reads, for the other side to see.",
                f"{SRC_COVER}; {SRC_UNITS} (silent; the game's reading)",
                True,
            ),
            Reading(
                "the-map",
                "The map judges them as the table draws them: a value given other than the map's is refused, "
                "naming it, unless the referee overrides.",
                f"{SRC_COVER}; {SRC_UNITS} (silent; the other reading)",
                False,
            ),
        ),
        default="the-players",
        note="'Troops can gain a cover bonus even if they are not dug in' and 'Short-term Gas ... Target "
        "suffers -1A -1R' say what counts, not who judges it. The game's reading leaves it to the players, as "
        "over a table's models; the map draws only outlines.",
    ),
    Erratum(
        "naval-railway",
        "Which sub-units are the 'Naval and railway artillery' of PLANNING (1) and EXECUTING (10)",
        (
            Reading(
                "very-heavy-guns",
                "The characteristics chart names no naval or railway gun; its 'Very Heavy Guns (Immobile)', "
                "the only guns that never move on the table, are the railway and naval guns: they plan first "
                "and their shots are worked out last.",
                f"{SRC_ORDER}; {SRC_UNITS}",
                ("very-heavy-guns",),
            ),
            Reading(
                "none",
                "No chart row is naval or railway artillery: PLANNING (1) and EXECUTING (10) stay empty and "
                "very heavy guns plan and shoot with all normal artillery.",
                SRC_ORDER,
                (),
            ),
        ),
        default="very-heavy-guns",
        note="The planning and executing lists name the class; the chart has no row for it.",
    ),
    Erratum(
        "sf-quality",
        "The planning step of a sub-unit whose strategic formation names no quality",
        (
            Reading(
                "own-kind-else-line",
                "Reserve, line and elite plan by 'Reserve SF', 'Line SF', 'Elite SF': an SF without a quality "
                "plans by its sub-unit's chart row where it names one (Reserve inf, Line/good inf, Elite "
                "inf), else as Line ('Line/good inf', the chart's ordinary troops).",
                f"{SRC_ORDER}; {SRC_UNITS}",
                _QUALITY_BY_KIND_ELSE_LINE,
            ),
        ),
        default="own-kind-else-line",
    ),
    Erratum(
        "executing-infantry",
        "Which sub-units the EXECUTING list's 'infantry' are, and when heavy weapons and artillery move",
        (
            Reading(
                "all-but-guns",
                "Every sub-unit that is not artillery or a heavy weapon shoots and moves as 'infantry' "
                "(tanks 'work as normal infantry', cavalry too); heavy weapons and artillery shoot in (1) and "
                "(2) and, the list naming no step for their moves, move with the infantry: dug in in (8), "
                "else in (7).",
                f"{SRC_ORDER}; {SRC_VEHICLES}",
                "all-but-guns",
            ),
        ),
        default="all-but-guns",
        note="(5) plans 'All Heavy Weapons ... moving and shooting', but no executing step moves them.",
    ),
    Erratum(
        "one-shot-a-bound",
        "How often a sub-unit shoots in a bound",
        (
            Reading(
                "once",
                "'the players will systematically plan moves/shoots for each unit': a sub-unit's plan is one "
                "shot at one target, worked out in the first executing step that names the sub-unit (a dug in "
                "gun named by (1) and (2) shoots once).",
                SRC_ORDER,
                1,
            ),
        ),
        default="once",
    ),
    Erratum(
        "bombardment-orders",
        "When bombardments are ordered: with the high commands (ARTILLERY) or in planning (1)-(2)",
        (
            Reading(
                "commands-to-planning",
                "'At the beginning of the bound, when the player gives Commands to Strategic Formations, the "
                "player must also order bombardments' and 'Artillery plans are done on a map': a side writes "
                "its bound's artillery plan from the high commands to the end of PLANNING (2), when it is "
                "sealed.",
                f"{SRC_ARTILLERY}; {SRC_ORDER}",
                FIRE_PLAN_STEPS,
            ),
        ),
        default="commands-to-planning",
        note="The ARTILLERY section and the PLANNING list each name a moment for the same plan: read together, "
        "neither is broken. Sealing it with the high commands would leave PLANNING (1)-(2) ('Naval and railway "
        "artillery plan shooting (Anon)', 'All normal Artillery plans shooting (Anon)') nothing to plan on the "
        "map; planning it only in (1)-(2) would drop the ARTILLERY section's 'must also order bombardments' "
        "with the commands.",
    ),
    Erratum(
        "terrain-classes",
        "The book's terrain class of each kind of feature the table draws",
        (
            Reading(
                "by-kind",
                "The book names its classes (open, rough, defensible, fortification, impractical, road) but no "
                "feature: woods, a river bank, a stream, shell-torn and shattered ground and wire are rough; a "
                "village and a trench defensible (its example: 'a +2 dug-in trench', defensible's dug-in value); "
                "a strongpoint and a blockhouse fortifications; a marsh and a river impractical; a hill open; a "
                "road a road. A feature may name its own class (terrain_class).",
                SRC_COVER,
                dict(CLASS_OF_KIND),
            ),
        ),
        default="by-kind",
    ),
    Erratum(
        "digging-plan",
        "What a sub-unit that digs in plans",
        (
            Reading(
                "stays-put",
                "'digging in ... means the company must stay put for a whole turn': a sub-unit digs in "
                "instead of moving, under any command whose chart says it may ('Yes but -1R if attacked'), "
                "and may not move that bound; it may still shoot.",
                SRC_COVER,
                "stays-put",
            ),
        ),
        default="stays-put",
        note="The high commands chart gives no 'dig in' plan; the dig-in row is a separate choice.",
    ),
    Erratum(
        "under-fire",
        "What puts a sub-unit 'under fire' for its next plan",
        (
            Reading(
                "shot-at",
                "A sub-unit shot at in a bound (a shot at it worked out, by shooting, assault, melee or a "
                "bombardment laying shots on it), hit or not, is under fire in the next bound's planning, as "
                "the 107th Battalion's company 'under fire last turn' is.",
                cite("HIGH COMMANDS"),
                "shot-at",
            ),
        ),
        default="shot-at",
        note="The text never says whether a shot that misses puts its target under fire; a shot is fire.",
    ),
    Erratum(
        "move-terrain",
        "How far sub-units move from or in defensible and fortified ground",
        (
            Reading(
                "normal-distance",
                "The movement modifiers name only road, open, rough and impractical terrain: defensible ground "
                "(buildings) and fortifications move at the 'normal distance' of open terrain; where features "
                "overlap, a road gives its bonus, else the worst ground counts.",
                SRC_COVER,
                "normal",
            ),
        ),
        default="normal-distance",
    ),
    Erratum(
        "dugout-rough",
        "How much ground a company dug in in the open leaves as rough terrain",
        (
            Reading(
                "base-footprints",
                "'their original position becomes rough terrain if they originally dug-in in the open': the "
                "ground under each of its bases as they stood dug in becomes rough.",
                SRC_COVER,
                "bases",
            ),
        ),
        default="base-footprints",
    ),
)

Earth2mm.add_errata(
    Erratum(
        "find-cover",
        "Which 'better cover location' a sub-unit finding cover must end its move in or nearer to",
        (
            Reading(
                "any-better",
                "'Sub-units choosing to find cover may move in any direction the player chooses, as long as "
                "they will end up in or nearer to a better cover location': each base ends in better cover "
                "(the cover table's stationary column) than the ground it left, or nearer to some feature of "
                "better cover than it was; a move away from every better cover is refused.",
                SRC_COMMANDS,
                "any",
            ),
            Reading(
                "nearest-better",
                "'move to the nearest cover location' (the 81st Reserve Battalion example): each base ends in "
                "better cover than it left, or nearer to the feature of better cover nearest where it started.",
                SRC_COMMANDS,
                "nearest",
            ),
        ),
        default="any-better",
        note="The rule says 'a better cover location', its example 'the nearest cover location'; the default "
        "plays the rule's words.",
    ),
)

Earth2mm.add_errata(
    Erratum(
        "organisation",
        "How many sub-units an SF has and how many bases a sub-unit: the book prints no organisation",
        (
            Reading(
                "scenario-forces",
                "'Each Strategic Formation is made up of a number of sub-units (companies). Each sub-unit "
                "constitutes a number of bases (platoons)': the numbers are the player's, so forces come as a "
                "scenario's units or as an SF built from the characteristics chart (each sub-unit one chart "
                "kind, as many bases as the player gives it), never from a table.",
                SRC_FORMATIONS,
                None,
            ),
        ),
        default="scenario-forces",
        note="The characteristics chart gives what each base is, never how many make a company.",
    ),
)

# -- how a game is won (issue 55) -------------------------------------------------------------------------------
SCENARIO_VICTORY = "scenario-victory"
SIDE_BREAK_POINT = "side-break-point"  # issue 89: a side broken, of which the book prints no share
VICTORY_MET = "victory-met"  # issue 89: what a victory condition met does, of which the book says nothing

Earth2mm.add_errata(
    Erratum(
        SCENARIO_VICTORY,
        "How a game is won",
        (
            Reading(
                "scenario-objectives",
                "The rules print no victory conditions ('Start new bound.' ends each bound, and no bound ends "
                "the game): a game is won on its scenario's objectives (docs/scenario-format.md, "
                "table_objectives), the side with more victory points winning and level points a draw; it "
                "ends as its scenario's last bound ends, or by the referee.",
                f"{SRC_BOUNDS} (silent; the game's reading)",
                "scenario-objectives",
            ),
            Reading(
                "referee-judges",
                "The rules print no victory conditions, so no score decides the game: the referee ends it and "
                "says who won from the scenario's own words (the demonstration battle's 'The attacker takes the "
                "farm and the redoubt; the defender holds them'); nothing is counted.",
                f"{SRC_BOUNDS} (silent; the umpire's reading)",
                "referee",
            ),
        ),
        default="scenario-objectives",
    ),
    Erratum(
        SIDE_BREAK_POINT,
        "When a side is broken",
        (
            Reading(
                "scenario-share",
                "The rules print no break point for a side: a scenario's 'side broken' victory condition names "
                "its own share of the side's stands lost (stands_lost), and one that names none is refused.",
                f"{SRC_COMMANDS} (silent: 'when panicking ... these rules are in the prototype stages and will be "
                "added/updated in later versions'; the game's reading)",
                None,
            ),
            Reading(
                "majority-lost",
                "'When the majority (50%+) of the sub-unit ... is injured, the unit suffers a halved movement "
                "speed' read for a whole side: a side that has lost half its stands is broken.",
                SRC_ARMING,
                50,
            ),
        ),
        default="scenario-share",
        note="A sub-unit's injuries halve its speed; no line says when a whole side gives up the fight, and "
        "panic is left to later versions. A club reading it for a side writes stands_lost 50.",
    ),
    Erratum(
        VICTORY_MET,
        "A victory condition met",
        (
            Reading(
                "referee-ends",
                "A scenario's victory condition met ends nothing by itself: every seat is told, and the referee "
                "ends the game with its result or plays on (the choice logged).",
                f"{SRC_BOUNDS} (silent; the game's reading)",
                "referee",
            ),
            Reading(
                "ends-at-once",
                "A scenario's victory condition met ends the game at once with its winner, as an instant win.",
                f"{SRC_BOUNDS} (silent)",
                "at-once",
            ),
        ),
        default="referee-ends",
        note="'Start new bound.' ends each bound; nothing says a bound or a condition ends the game. Read at "
        "once, the referee ends it as the condition is told, in its one tap.",
    ),
    Erratum(
        "demo-ferme-objectives",
        "The objectives of the demonstration battle at the Ferme du Bois",
        (
            Reading(
                "farm-and-redoubt",
                "'The attacker takes the farm and the redoubt; the defender holds them' (the scenario's own "
                "words): the Ferme du Bois and the Redoubt are objectives, each its terrain's outline, worth 1 "
                "victory point to the side holding it as the 6th bound ends; the defender holds each until "
                "an attacking stand alone is in it.",
                f"{SRC_BOUNDS} (silent; firestep's demonstration battle)",
                "farm-and-redoubt",
            ),
        ),
        default="farm-and-redoubt",
    ),
)
