"""Errata of movement, reference data, organisation, artillery tables and the Mons scenario.

Each erratum names both readings with their locations; where a period playsheet is one of them it is the
default. Where the text is silent the erratum says so and the default is a referee's choice.
"""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

MOVEMENT = "MOVEMENT DISTANCES"
MAIN_MOVEMENT = cite(f"MOVEMENT, {MOVEMENT}")
PLAYSHEET_MOVEMENT = "Flanders Fields playsheets (all three periods): MOVEMENT DISTANCES"

MOVE_CLOSE_INFANTRY = "move-close-infantry"
MOVE_TRENCH_FIELD_ARTILLERY = "move-trench-field-artillery"
MOVE_MOTOR_BROKEN_GROUND = "move-motor-broken-ground"
MOVE_MANHANDLED_ROUNDING = "move-manhandled-rounding"
BLOCKHOUSE_RANGE = "blockhouse-range"
LIGHT_MORTAR_PARTIAL = "light-mortar-partial"
ORG_INFANTRY_FORMATIONS_PER_DIVISION = "org-infantry-formations-per-division"
ORG_CHART_MULTIPLES = "org-chart-multiples"
ORG_DEFAULT_QUALITY = "org-default-quality"
MONS_HOWITZER_CALIBRE = "mons-howitzer-calibre"
MONS_GERMAN_QUALITY = "mons-german-quality"
MONS_TABLE_LAYOUT = "mons-table-layout"

FlandersFields.add_errata(
    Erratum(
        MOVE_CLOSE_INFANTRY,
        "Infantry move in close terrain (woods, built-up areas, marsh)",
        (
            Reading(
                "playsheet",
                "Close Terrain (Woods, BuA, Marsh etc unless on road) 10cm 15cm 10cm 10cm No",
                PLAYSHEET_MOVEMENT,
                10,
            ),
            Reading(
                "main-text",
                "Close Terrain (Woods, BuA, Marsh etc unless on road) 15cm 15cm 10cm 10",
                MAIN_MOVEMENT,
                15,
            ),
        ),
        default="playsheet",
    ),
    Erratum(
        MOVE_TRENCH_FIELD_ARTILLERY,
        "Field artillery at a trench line",
        (
            Reading(
                "playsheet",
                "Moving along trench line 10cm No No 10cm No: field artillery may not pass a trench line",
                PLAYSHEET_MOVEMENT,
                None,
            ),
            Reading(
                "main-text",
                "Along Trench Lines 10cm No 1 Action to Cross 10cm: field artillery crosses with 1 action",
                MAIN_MOVEMENT,
                1,
            ),
        ),
        default="playsheet",
    ),
    Erratum(
        MOVE_MOTOR_BROKEN_GROUND,
        "Motors on shell torn or shattered ground and at streams and rivers",
        (
            Reading(
                "no-passage",
                "The text is silent: only the playsheets have a MOTORS column (cross country 5, road 40, "
                "close terrain and trenches No) and the main table's shell torn, shattered, stream and river "
                "rows have no MOTORS entry. A referee keeps wheeled motors off ground worse than plain cross "
                "country, as the text does for close terrain.",
                PLAYSHEET_MOVEMENT,
                None,
            ),
            Reading(
                "cross-country-pace",
                "Treat shell torn and shattered ground as cross country for motors (5 cm); streams and "
                "rivers stay impassable.",
                PLAYSHEET_MOVEMENT,
                5,
            ),
        ),
        default="no-passage",
    ),
    Erratum(
        MOVE_MANHANDLED_ROUNDING,
        "Half infantry speed for manhandled machine guns and light mortars when it is not whole",
        (
            Reading(
                "round-down",
                "The text is silent on rounding 'half infantry speed if man handled' (e.g. 15 cm shell torn "
                "ground gives 7.5 cm); a referee rounds down to whole centimetres.",
                cite(MOVEMENT, None),
                "down",
            ),
            Reading("round-up", "Round half centimetres up.", cite(MOVEMENT, None), "up"),
        ),
        default="round-down",
    ),
    Erratum(
        BLOCKHOUSE_RANGE,
        "Block house maximum range",
        (
            Reading(
                "block-houses",
                "Block Houses fire as machineguns but with a reduced range of 45cm and a reduced beaten "
                "zone of 10cm",
                cite("BLOCK HOUSES"),
                45,
            ),
            Reading(
                "weapon-ranges",
                "Block Houses 50cm (Beaten Zone 10cm)",
                cite("WEAPON RANGES"),
                50,
            ),
        ),
        default="block-houses",
        note="Both readings are in the main text and the playsheets give no block house range; the "
        "block house section states the range with its reason, so a referee prefers it.",
    ),
    Erratum(
        LIGHT_MORTAR_PARTIAL,
        "Light mortar: bases only partly under the 3 cm square",
        (
            Reading(
                "no-penalty",
                "The text is silent: MORTAR AREA OF EFFECT gives the -2 for bases not fully covered only for "
                "medium and heavy mortars; the 3 cm light mortar square is centred on a single base.",
                cite("MORTAR AREA OF EFFECT"),
                0,
            ),
            Reading(
                "general-rule",
                "if the platoon or weapon falls only partially within the area of effect it is attacked at -2",
                cite("ARTILLERY BATTERIES AREA OF EFFECT"),
                -2,
            ),
        ),
        default="no-penalty",
    ),
    Erratum(
        ORG_INFANTRY_FORMATIONS_PER_DIVISION,
        "How many infantry brigades (British) or regiments (French, German) a division has",
        (
            Reading(
                "normally-three",
                "The organisation charts draw a single infantry brigade box under the division (the French "
                "and German 1914-15 charts one brigade of two regiments). ORGANISATION: a division "
                "comprises '2-4 (normally 3) regiments' and the game ignores the early French and German "
                "brigade level, so a division is built with three infantry brigades or regiments.",
                cite("ORGANISATION"),
                3,
            ),
            Reading(
                "as-drawn",
                "Build exactly the boxes the chart draws: one British brigade; one French/German brigade "
                "of two regiments in 1914-15, three regiments from 1916.",
                cite("TABLES OF ORGANISATION"),
                None,
            ),
        ),
        default="normally-three",
    ),
    Erratum(
        ORG_CHART_MULTIPLES,
        "Organisation chart boxes that stand for several units",
        (
            Reading(
                "referee",
                "The charts lost their layout in extraction: they give no multiplier for the field artillery "
                "brigade boxes (British), ranges like 'Div HQ 4-5 Figs' or 'MMG Company 2-4 Maxim', and no "
                "parent for boxes listed after the platoons. A referee builds one unit per box drawn and the "
                "lower end of each range; boxes after the platoons are divisional assets, except the French "
                "Heavy Weapons Company and German Heavy Weapons Platoon, listed right after an Infantry "
                "Regiment box, which go to each regiment; '2 Batteries 2 x 18ld Field Guns' is two batteries "
                "of one model each, as the spring 1917 chart says '(2 x 18ld & 1 x 4.5\" Models)'.",
                cite("TABLES OF ORGANISATION"),
                "low",
            ),
            Reading(
                "high",
                "Take the upper end of each range in the charts (e.g. 5 figures, 4 Maxims, 4 flamethrowers); "
                "placements as in the referee reading.",
                cite("TABLES OF ORGANISATION"),
                "high",
            ),
        ),
        default="referee",
    ),
    Erratum(
        ORG_DEFAULT_QUALITY,
        "Grade of a French or German division built from its table",
        (
            Reading(
                "experienced",
                "The text is silent: the French 1914-15 and 1917 and German 1914-15 and 1916-18 tables give no "
                "grade (the British ones do). A referee builds them Experienced, the grade of 'Units and men "
                "who have survived their baptism of fire' and of every crewed weapon; a game may pick another "
                "grade when it builds the force.",
                cite("TABLES OF ORGANISATION"),
                "experienced",
            ),
        ),
        default="experienced",
    ),
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
    ),
)
