"""Errata of the specimen game at Mons: the British howitzer, German quality, the table layout and the
reinforcements' die."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

MONS_HOWITZER_CALIBRE = "mons-howitzer-calibre"
MONS_GERMAN_QUALITY = "mons-german-quality"
MONS_TABLE_LAYOUT = "mons-table-layout"
REINFORCEMENT_ROLL_PER = "reinforcement-roll-per"

FlandersFields.add_errata(
    Erratum(
        MONS_HOWITZER_CALIBRE,
        "The British howitzer at Mons",
        (
            Reading(
                "organisation-table",
                'Howitzer Brigade 3 Batteries Each with 1 x 4.5" howitzers; BRITISH ARTILLERY: 4.5" Field '
                "Howitzer 6,650 15.5 1.36",
                cite("TABLES OF ORGANISATION, BRITISH AND EMPIRE DIVISION 1914-15"),
                "4.5in-howitzer",
            ),
            Reading(
                "specimen-game",
                'one field howitzer battery with one 4.2" howitzer model',
                cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS"),
                "4.2in-howitzer",
            ),
        ),
        default="organisation-table",
        note='No 4.2" howitzer appears in the artillery tables; the British field howitzer is the 4.5".',
        section="scenarios",
    ),
    Erratum(
        MONS_GERMAN_QUALITY,
        "Quality of the German battalions at Mons",
        (
            Reading(
                "experienced",
                "The text is silent (the specimen game grades only the British: 'Two battalions of infantry "
                "are classed as veteran'). A referee rates the German 1914 regular battalions Experienced, "
                "like the pre-war regular BEF ('all divisions are considered to be Experienced').",
                cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS"),
                "experienced",
            ),
            Reading(
                "veteran",
                "Rate the German battalions Veteran.",
                cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS"),
                "veteran",
            ),
        ),
        default="experienced",
        section="scenarios",
    ),
    Erratum(
        MONS_TABLE_LAYOUT,
        "Table size, terrain and stand positions at Mons",
        (
            Reading(
                "referee",
                "The text gives no table size or positions: 'the river should be set up about one third of "
                "the way across the table from the British deployment zone with two bridges equally spaced "
                "along it. There should also be a few small hills, woods and a village or two. Both sides "
                "deploy 15cm onto the table'. firestep lays out a 120 x 180 cm table: the river at y = 120 "
                "(a third of the 180 cm length from the British edge), bridges at x = 40 and 80, two hills, "
                "two woods and two villages, roads 2 cm wide, hills one level (1 cm) high, and each side's "
                "stands in line of battalions inside its 15 cm.",
                cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS"),
                "referee",
            ),
        ),
        default="referee",
        section="scenarios",
    ),
    Erratum(
        REINFORCEMENT_ROLL_PER,
        "Reinforcements diced for: one die per battalion, or one for all a side's reinforcements",
        (
            Reading(
                "formation",
                "'Reinforcements arrive on the table at the start of turn two if a 6 is rolled on a die': each "
                "battalion off the table ('one battalion from each of the German regiments and one British "
                "battalion') is diced for on its own.",
                cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS"),
                "formation",
            ),
            Reading(
                "side",
                "'Reinforcements arrive ... if a 6 is rolled on a die' read as one die for all of a side's "
                "reinforcements: they arrive together.",
                cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS"),
                "side",
            ),
        ),
        default="formation",
        note="The text is silent on whether the Germans' two reinforcement battalions share a die.",
        section="scenarios",
    ),
)

# -- how a game is won (issue 55) -------------------------------------------------------------------------------
MONS_BRIDGES = "mons-bridges"
SCENARIO_VICTORY = "scenario-victory"
SIDE_BREAK_POINT = "side-break-point"  # issue 89: a side broken, of which the book prints no share
VICTORY_MET = "victory-met"  # issue 89: what a victory condition met does, of which the book says nothing
SRC_MONS = cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS")

FlandersFields.add_errata(
    Erratum(
        SCENARIO_VICTORY,
        "How a game is won",
        (
            Reading(
                "scenario-objectives",
                "The rules print no victory conditions: a game is won on its scenario's objectives "
                "(docs/scenario-format.md, table_objectives), the side with more victory points winning and "
                "level points a draw; a game without objectives ends level unless the referee says otherwise.",
                cite("SPECIMEN GAMES") + " (silent; the game's reading)",
                "scenario-objectives",
            ),
            Reading(
                "referee-judges",
                "The rules print no victory conditions, so no score decides the game: the referee, as an umpire, "
                "ends it and says who won from the situation the scenario gives (the specimen game's 'racing to "
                "secure the bridges'); nothing is counted.",
                cite("SPECIMEN GAMES") + " (silent; the umpire's reading)",
                "referee",
            ),
        ),
        default="scenario-objectives",
        note="The specimen game gives its situation ('The British and Germans are racing to secure the bridges "
        "over a small river') and no way to score it.",
        section="scenarios",
    ),
    Erratum(
        SIDE_BREAK_POINT,
        "When a side is broken",
        (
            Reading(
                "scenario-share",
                "The rules print no break point for a side: a scenario's 'side broken' victory condition names "
                "its own share of the side's stands lost (stands_lost), and one that names none is refused.",
                cite("MORALE") + " (silent on a side; the game's reading)",
                None,
            ),
            Reading(
                "battalion-half",
                "'If a battalion's rifle platoons are reduced to 50% of its starting strength the battalion as a "
                "whole must roll morale' read for a whole side: a side that has lost half its stands is broken.",
                cite("MORALE"),
                50,
            ),
        ),
        default="scenario-share",
        note="MORALE is a battalion's test, rolled at 50% and again at 75% of its rifle platoons lost; no line "
        "says when a whole side gives up the fight. A club reading it for a side writes stands_lost 50.",
        section="scenarios",
    ),
    Erratum(
        VICTORY_MET,
        "A victory condition met",
        (
            Reading(
                "referee-ends",
                "A scenario's victory condition met ends nothing by itself: every seat is told, and the referee "
                "ends the game with its result or plays on (the choice logged).",
                cite("SPECIMEN GAMES") + " (silent; the game's reading)",
                "referee",
            ),
            Reading(
                "ends-at-once",
                "A scenario's victory condition met ends the game at once with its winner, as an instant win.",
                cite("SPECIMEN GAMES") + " (silent)",
                "at-once",
            ),
        ),
        default="referee-ends",
        note="The rules name neither a victory condition nor when one would end the game. Read at once, the "
        "referee ends it as the condition is told, in its one tap.",
        section="scenarios",
    ),
    Erratum(
        MONS_BRIDGES,
        "The objectives at Mons",
        (
            Reading(
                "bridges",
                "'The British and Germans are racing to secure the bridges over a small river': each of the two "
                "bridges is an objective, a 6 cm square about the bridge (x = 40 and 80 on the river at y = 120, "
                "erratum mons-table-layout), worth 1 victory point to the side holding it as the game ends; "
                "the turns are not limited, so the referee ends the game.",
                SRC_MONS,
                "bridges",
            ),
        ),
        default="bridges",
        note="The text names the bridges as what both sides race for, and no points, area or end.",
        section="scenarios",
    ),
)
